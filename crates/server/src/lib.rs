//! `sandtable serve`: Sandtable in the browser.
//!
//! One process holds everything: an embedded SQLite database in a data folder ([`store`]),
//! the games being played with their locks and update channels ([`hub`]), the JSON API and
//! the browser client's files ([`api`], [`web`]). Every game the catalog knows is playable
//! here without code of its own: the server speaks only the core's game trait, through
//! [`sandtable_catalog`]. The API is documented in docs/api.md.

pub mod api;
pub mod error;
pub mod hub;
pub mod store;
mod web;

pub use api::router;
pub use hub::Hub;
pub use store::Store;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("{0}")]
    Store(#[from] store::StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Listen { addr: SocketAddr, source: std::io::Error },
    #[error("the server stopped: {0}")]
    Io(#[from] std::io::Error),
}

/// Opens the database in `data` and the games in it.
pub fn open(data: &Path) -> Result<Arc<Hub>, ServeError> {
    Ok(Hub::new(Store::open(data)?))
}

/// Serves on `addr` until the process is stopped (Ctrl-C ends it cleanly). `ready` is told
/// the address actually bound (port 0 picks a free one) once the server accepts requests.
pub async fn serve(hub: Arc<Hub>, addr: SocketAddr, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    serve_until(hub, addr, ready, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}

/// [`serve`] until `stop` completes: then no new connection is taken, every open event
/// stream ends, and the requests under way are answered before it returns.
pub async fn serve_until(
    hub: Arc<Hub>,
    addr: SocketAddr,
    ready: impl FnOnce(SocketAddr),
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Listen { addr, source })?;
    let bound = listener.local_addr()?;
    // A database whose list of games cannot be read at all still serves the games it can
    // open, and says so.
    if let Err(e) = hub.resume_all() {
        eprintln!("the stored games could not all be resumed: {}", e.text.en);
    }
    ready(bound);
    let closing = hub.clone();
    axum::serve(listener, router(hub))
        .with_graceful_shutdown(async move {
            stop.await;
            closing.shut_down();
        })
        .await?;
    Ok(())
}

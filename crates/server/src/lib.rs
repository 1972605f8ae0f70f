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
mod pieces;
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
    open_with(data, hub::Limits::default())
}

/// [`open`] with other limits than the defaults.
pub fn open_with(data: &Path, limits: hub::Limits) -> Result<Arc<Hub>, ServeError> {
    Ok(Hub::with_limits(Store::open(data)?, limits))
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
    let app = router(hub.clone());
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    // Games nobody asks for leave memory after a while (they stay in the database).
    let sweeper = {
        let hub = hub.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
            loop {
                tick.tick().await;
                hub.evict();
            }
        })
    };
    let mut stop = std::pin::pin!(stop);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(a) => a,
                    Err(e) => {
                        // Out of file descriptors, say: wait a little rather than spin.
                        eprintln!("cannot accept a connection: {e}");
                        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                        continue;
                    }
                };
                let _ = stream.set_nodelay(true);
                let service = hyper_util::service::TowerToHyperService::new(
                    app.clone().layer(axum::Extension(axum::extract::ConnectInfo(peer))),
                );
                // A client must send a request's headers within the limit, also while the
                // connection waits between requests: then it is closed.
                let mut builder = hyper::server::conn::http1::Builder::new();
                builder
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(hub.limits.header_timeout);
                let conn = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                let conn = graceful.watch(conn);
                tokio::spawn(async move {
                    let _ = conn.await;
                });
            }
            _ = &mut stop => break,
        }
    }
    drop(listener);
    sweeper.abort();
    // Every event stream ends, so the connections can finish the requests under way.
    hub.shut_down();
    graceful.shutdown().await;
    Ok(())
}

//! What the server allows (docs/api.md, "Limits"): the games list in pages, games created per
//! client, games let go from memory, connections that must send their headers in time.

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use sandtable_server::hub::Limits;
use sandtable_server::{router, Hub, Store};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::sync::Arc;
use tower::ServiceExt;

async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, HeaderMap, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("a request");
    let res = app.clone().oneshot(req).await.expect("the router answers");
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.expect("a body").to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (
        status,
        headers,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn hub(limits: Limits) -> Arc<Hub> {
    Hub::with_limits(Store::in_memory().expect("an in-memory database"), limits)
}

async fn create(app: &Router, body: Value) -> (StatusCode, Value) {
    let (s, _, v) = call(app, "POST", "/api/games", Some(body)).await;
    (s, v)
}

#[tokio::test]
async fn the_games_list_comes_in_pages() {
    let app = router(hub(Limits {
        page: 3,
        max_page: 4,
        ..Limits::default()
    }));
    let mut ids = Vec::new();
    for _ in 0..5 {
        let (s, v) = create(&app, json!({"game": "stalingrad-blitz"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        ids.push(v["id"].as_str().expect("an id").to_string());
    }
    let (s, h, first) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(s, StatusCode::OK, "{first}");
    assert_eq!(first.as_array().map(Vec::len), Some(3), "the default page");
    assert_eq!(h["x-total-count"], "5");
    assert_eq!(h["x-next-offset"], "3");
    let (_, h, rest) = call(&app, "GET", "/api/games?offset=3&limit=4", None).await;
    assert_eq!(rest.as_array().map(Vec::len), Some(2));
    assert!(h.get("x-next-offset").is_none(), "the last page");
    // Every game once, across the pages.
    let mut seen: Vec<String> = first
        .as_array()
        .into_iter()
        .chain(rest.as_array())
        .flatten()
        .map(|g| g["id"].as_str().expect("an id").to_string())
        .collect();
    seen.sort();
    ids.sort();
    assert_eq!(seen, ids);
    for bad in ["limit=0", "limit=5", "limit=x", "offset=-1", "colour=red"] {
        let (s, _, e) = call(&app, "GET", &format!("/api/games?{bad}"), None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {e}");
        assert_eq!(e["error"]["code"], json!("bad-request"), "{bad}: {e}");
    }
}

#[tokio::test]
async fn one_client_creates_only_so_many_games() {
    let app = router(hub(Limits {
        games_per_client: 3,
        computer_games_per_client: 1,
        ..Limits::default()
    }));
    let computers = json!({"game": "stalingrad-blitz", "seats": {"axis": "random", "soviet": "random"}});
    let (s, v) = create(&app, computers.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, e) = create(&app, computers).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{e}");
    assert_eq!(e["error"]["code"], json!("too-many-games"));
    assert!(
        e["error"]["text"]["zh"].as_str().is_some_and(|t| t.contains("电脑")),
        "{e}"
    );
    for _ in 0..2 {
        let (s, v) = create(&app, json!({"game": "stalingrad-blitz"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (s, e) = create(&app, json!({"game": "stalingrad-blitz"})).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{e}");
    // A refused creation stored nothing.
    let (_, h, _) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(h["x-total-count"], "3");
}

#[tokio::test]
async fn idle_games_leave_memory_and_come_back_when_asked_for() {
    let hub = hub(Limits {
        open_games: 2,
        idle: std::time::Duration::ZERO,
        ..Limits::default()
    });
    let app = router(hub.clone());
    let mut ids = Vec::new();
    for _ in 0..4 {
        let (s, v) = create(&app, json!({"game": "stalingrad-blitz"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        ids.push(v["id"].as_str().expect("an id").to_string());
        assert!(hub.open_games() <= 2, "{} games open", hub.open_games());
    }
    // Each is opened again from the database when asked for.
    for id in &ids {
        let (s, _, doc) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(s, StatusCode::OK, "{doc}");
        assert!(hub.open_games() <= 2);
    }
    // A game a page listens to stays; the others go once idle.
    let listened = hub.slot(&ids[0]).expect("the game");
    let _listening = listened.updates.subscribe();
    drop(listened);
    assert_eq!(hub.evict(), 1, "only the game a page listens to is kept");
    let (s, _, _) = call(&app, "GET", &format!("/api/games/{}", ids[3]), None).await;
    assert_eq!(s, StatusCode::OK);
}

/// Reads from `stream` until the server closes it; false if it is still open after a minute.
fn closed_by_server(stream: &mut std::net::TcpStream) -> bool {
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .expect("a read timeout");
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_sends_no_headers_in_time_is_closed() {
    let hub = hub(Limits {
        header_timeout: std::time::Duration::from_millis(300),
        ..Limits::default()
    });
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (bound, at) = tokio::sync::oneshot::channel();
    let server = tokio::spawn(sandtable_server::serve_until(
        hub,
        "127.0.0.1:0".parse().expect("an address"),
        move |a| {
            let _ = bound.send(a);
        },
        async move {
            let _ = stopped.await;
        },
    ));
    let addr = at.await.expect("the server binds");
    let checks = tokio::task::spawn_blocking(move || {
        // Half a request line, then nothing.
        let mut slow = std::net::TcpStream::connect(addr).expect("a connection");
        slow.write_all(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\n")
            .expect("sent");
        let slow_closed = closed_by_server(&mut slow);
        // A whole request answered, then the connection left open and silent.
        let mut idle = std::net::TcpStream::connect(addr).expect("a connection");
        idle.write_all(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\n\r\n")
            .expect("sent");
        let idle_closed = closed_by_server(&mut idle);
        // Whole headers, then a body that stops short: refused as too slow.
        let mut trickle = std::net::TcpStream::connect(addr).expect("a connection");
        trickle
            .write_all(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"game\":")
            .expect("sent");
        trickle
            .set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .expect("a read timeout");
        let mut answer = Vec::new();
        let _ = trickle.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer).into_owned();
        (slow_closed, idle_closed, answer)
    })
    .await
    .expect("the client ran");
    assert_eq!(
        (checks.0, checks.1),
        (true, true),
        "(half a header, idle after a request) closed"
    );
    assert!(
        checks.2.starts_with("HTTP/1.1 408") && checks.2.contains("too-slow"),
        "{}",
        checks.2
    );
    stop.send(()).expect("the server listens for the stop");
    server
        .await
        .expect("the server task")
        .expect("the server stops cleanly");
}

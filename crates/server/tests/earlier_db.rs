//! A database written by an earlier build still opens: every game in it lists, loads at the
//! version it had, and plays on with the tokens given when it was made. `tests/fixtures/db-v1`
//! holds a database the build whose save format was 1 wrote (four games: hotseat and against
//! the computer, both games), with the tokens it handed out.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::path::PathBuf;
use tower::ServiceExt;

async fn call(
    router: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = req
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("a request");
    let res = router.clone().oneshot(req).await.expect("the router answers");
    let status = res.status();
    let bytes = res.into_body().collect().await.expect("a body").to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

#[tokio::test]
async fn a_format_1_database_opens_and_its_games_play_on() {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/db-v1");
    let dir = std::env::temp_dir().join(format!("sandtable-earlier-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    std::fs::copy(fixture.join("sandtable.db"), dir.join("sandtable.db")).expect("the database is copied");
    let tokens: Vec<(String, serde_json::Map<String, Value>)> =
        serde_json::from_str(&std::fs::read_to_string(fixture.join("tokens.json")).expect("the tokens")).expect("json");

    let hub = sandtable_server::open(&dir).expect("the earlier database opens");
    let router = sandtable_server::router(hub);
    let (status, list) = call(&router, "GET", "/api/games", None, None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list.as_array().map(Vec::len), Some(4), "{list}");
    // The versions the games had when the database was written.
    let versions = [162, 34, 80, 69];
    for ((id, seats), version) in tokens.iter().zip(versions) {
        let (status, doc) = call(&router, "GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(status, StatusCode::OK, "{doc}");
        assert!(
            doc["version"].as_u64().expect("a version") >= version,
            "{id}: {}",
            doc["version"]
        );
        // The seat that must decide, if a person holds it, acts with its old token.
        let Some(seat) = doc["pending"]["seat"].as_u64() else {
            continue;
        };
        let mut acted = false;
        for t in seats.values().filter_map(|t| t.as_str()) {
            let (_, mine) = call(&router, "GET", &format!("/api/games/{id}"), Some(t), None).await;
            if mine["you"].as_u64() == Some(seat) && !mine["legal"][0].is_null() {
                let action = mine["legal"][0]["action"].clone();
                let (status, after) = call(
                    &router,
                    "POST",
                    &format!("/api/games/{id}/actions"),
                    Some(t),
                    Some(json!({"action": action})),
                )
                .await;
                assert_eq!(status, StatusCode::OK, "{id}: {after}");
                acted = true;
            }
        }
        assert!(acted || seats.len() < 2, "{id}: a hotseat game could not go on");
    }
    // Each game was written again in this build's record format when first opened: a server
    // started again on the same folder opens them all as they now are.
    let db = rusqlite::Connection::open(dir.join("sandtable.db")).expect("the database");
    let formats: Vec<u32> = db
        .prepare("SELECT format FROM games")
        .expect("a query")
        .query_map([], |r| r.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("formats");
    assert_eq!(formats, vec![sandtable_core::record::FORMAT; 4]);
    drop(db);
    let hub = sandtable_server::open(&dir).expect("the database opens again");
    let router = sandtable_server::router(hub);
    for (id, _) in &tokens {
        let (status, doc) = call(&router, "GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(status, StatusCode::OK, "{doc}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

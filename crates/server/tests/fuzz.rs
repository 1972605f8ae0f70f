//! Crafted actions through the server's own code path: at every decision of a few games of each
//! rule system, the legal actions are taken apart and put together wrong (unit and hex numbers
//! out of range, negative, huge; strings that name nothing; lists too long or empty; fields
//! missing) and sent to `POST /api/games/{id}/actions`. Each must be answered with a refusal or
//! taken as a legal action: never a panic, never a dropped connection, never a rules fault.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use sandtable_server::{router, Hub, Store};
use serde_json::{json, Value};
use tower::ServiceExt;

async fn call(app: &Router, method: &str, uri: &str, token: Option<&str>, body: Option<Value>) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = req
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("a request");
    let res = app.clone().oneshot(req).await.expect("the router answers");
    let status = res.status();
    let bytes = res.into_body().collect().await.expect("a body").to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// A small deterministic generator, so a failure is found again.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const NUMBERS: [i64; 8] = [9999, 65535, 65536, 4294967295, -1, 255, 256, 9007199254740993];

/// Every way of spoiling one leaf or list of `v`, each a whole new action.
fn mutations(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    match v {
        Value::Number(_) => {
            out.extend(NUMBERS.iter().map(|n| json!(n)));
            out.push(json!(1.5));
            out.push(json!("7"));
            out.push(Value::Null);
        }
        Value::String(_) => {
            out.push(json!("ZZ99"));
            out.push(json!(""));
            out.push(json!(9999));
        }
        Value::Bool(b) => out.push(json!(!b)),
        Value::Array(list) => {
            let mut longer = list.clone();
            longer.push(json!(9999));
            out.push(Value::Array(longer));
            out.push(json!([]));
            let mut doubled = list.clone();
            doubled.extend(list.iter().cloned());
            out.push(Value::Array(doubled));
            out.push(Value::Array((0..40).map(|i| json!(i)).collect()));
            for (i, item) in list.iter().enumerate() {
                for m in mutations(item) {
                    let mut l = list.clone();
                    l[i] = m;
                    out.push(Value::Array(l));
                }
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                let mut without = map.clone();
                without.remove(k);
                out.push(Value::Object(without));
                for m in mutations(item) {
                    let mut o = map.clone();
                    o.insert(k.clone(), m);
                    out.push(Value::Object(o));
                }
            }
        }
        Value::Null => out.push(json!(9999)),
    }
    out
}

/// Plays `decisions` decisions of a hotseat game, sending crafted actions at each.
async fn fuzz(game: &str, scenario: &str, seed: u64, decisions: usize) -> usize {
    let hub = Hub::new(Store::in_memory().expect("an in-memory database"));
    let app = router(hub);
    let (status, created) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": game, "scenario": scenario, "seed": seed, "hotseat": true})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().expect("an id").to_string();
    let tokens: Vec<(String, String)> = created["tokens"]
        .as_object()
        .expect("tokens")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("a token").to_string()))
        .collect();
    let (_, catalog) = call(&app, "GET", "/api/catalog", None, None).await;
    let seat_ids: Vec<String> = catalog
        .as_array()
        .and_then(|l| l.iter().find(|g| g["id"] == json!(game)))
        .and_then(|g| g["seats"].as_array())
        .expect("the game's seats")
        .iter()
        .map(|s| s["id"].as_str().expect("a seat id").to_string())
        .collect();
    let mut rng = Lcg(seed);
    let mut sent = 0;
    for _ in 0..decisions {
        let (_, spectator) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        let Some(seat) = spectator["pending"]["seat"].as_u64() else {
            break;
        };
        let seat_id = &seat_ids[seat as usize];
        let token = &tokens.iter().find(|(s, _)| s == seat_id).expect("a human seat").1;
        let (_, doc) = call(&app, "GET", &format!("/api/games/{id}"), Some(token), None).await;
        let legal = doc["legal"].as_array().expect("a legal list").clone();
        assert!(!legal.is_empty(), "{game}: a decision with nothing legal");
        let version = doc["version"].clone();
        for _ in 0..3 {
            let action = &legal[rng.below(legal.len())]["action"];
            let mut crafted = mutations(action);
            // A sample of them, each sent at the version the game is at.
            for _ in 0..12.min(crafted.len()) {
                let pick = crafted.swap_remove(rng.below(crafted.len()));
                let (status, answer) = call(
                    &app,
                    "POST",
                    &format!("/api/games/{id}/actions"),
                    Some(token),
                    Some(json!({"action": pick, "version": version})),
                )
                .await;
                sent += 1;
                let code = answer["error"]["code"].as_str().unwrap_or("");
                assert!(
                    status == StatusCode::OK
                        || status == StatusCode::CONFLICT
                        || status == StatusCode::UNPROCESSABLE_ENTITY,
                    "{game}: {pick} answered {status} {answer}"
                );
                assert_ne!(code, "rules-fault", "{game}: {pick} broke the rules code: {answer}");
                if status == StatusCode::UNPROCESSABLE_ENTITY {
                    let text = &answer["error"]["text"];
                    assert!(
                        text["en"].as_str().is_some_and(|t| !t.is_empty())
                            && text["zh"].as_str().is_some_and(|t| !t.is_empty()),
                        "{game}: {pick}: a refusal without its reason: {answer}"
                    );
                }
            }
        }
        // On with a legal action, at whatever version the game is now.
        let (_, doc) = call(&app, "GET", &format!("/api/games/{id}"), Some(token), None).await;
        let legal = doc["legal"].as_array().expect("a legal list");
        if legal.is_empty() {
            continue;
        }
        let n = rng.below(legal.len());
        let (status, answer) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(token),
            Some(json!({"index": n, "version": doc["version"]})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    sent
}

#[tokio::test]
async fn crafted_stalingrad_blitz_actions_are_refused_without_a_panic() {
    let mut sent = 0;
    for seed in [1, 2] {
        sent += fuzz("stalingrad-blitz", "campaign", seed, 120).await;
    }
    assert!(sent > 1000, "only {sent} crafted actions were sent");
}

#[tokio::test]
async fn crafted_ardennes_ii_actions_are_refused_without_a_panic() {
    let sent = fuzz("ardennes-ii", "goose-egg", 3, 40).await;
    assert!(sent > 300, "only {sent} crafted actions were sent");
}

#[tokio::test]
async fn a_declaration_naming_unit_9999_is_refused() {
    // The case found in the audit: a `declare` naming a unit that does not exist.
    let hub = Hub::new(Store::in_memory().expect("an in-memory database"));
    let app = router(hub);
    let (_, created) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "stalingrad-blitz", "seed": 5, "hotseat": true})),
    )
    .await;
    let id = created["id"].as_str().expect("an id").to_string();
    for seat in ["axis", "soviet"] {
        let token = created["tokens"][seat].as_str().expect("a token");
        let (status, answer) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/actions"),
            Some(token),
            Some(json!({"action": {"do": "declare", "target": 0, "units": [9999]}})),
        )
        .await;
        assert!(status.is_client_error(), "{answer}");
    }
}

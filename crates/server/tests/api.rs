//! The server through its HTTP interface, in process: seats and tokens, refusals that change
//! nothing, hidden information on every channel, restarts, concurrent requests, computer
//! seats, bad input.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use sandtable_server::{router, Hub, Store};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use tower::ServiceExt;

struct App {
    hub: Arc<Hub>,
    router: Router,
}

fn app() -> App {
    let hub = Hub::new(Store::in_memory().expect("an in-memory database"));
    App {
        router: router(hub.clone()),
        hub,
    }
}

fn app_in(dir: &std::path::Path) -> App {
    let hub = sandtable_server::open(dir).expect("the data folder opens");
    App {
        router: router(hub.clone()),
        hub,
    }
}

/// A fresh folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sandtable-server-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

impl App {
    async fn raw(&self, method: &str, uri: &str, token: Option<&str>, body: Vec<u8>) -> (StatusCode, String) {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let req = req
            .header("content-type", "application/json")
            .body(Body::from(body))
            .expect("a request");
        let res = self.router.clone().oneshot(req).await.expect("the router answers");
        let status = res.status();
        let bytes = res.into_body().collect().await.expect("a body").to_bytes();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    async fn call(&self, method: &str, uri: &str, token: Option<&str>, body: Option<Value>) -> (StatusCode, Value) {
        let body = body.map(|b| b.to_string().into_bytes()).unwrap_or_default();
        let (status, text) = self.raw(method, uri, token, body).await;
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    /// A new Stalingrad Blitz game; its id and the tokens by seat id.
    async fn create(&self, seed: u64, seats: Value) -> (String, Value) {
        self.create_game(json!({"game": "stalingrad-blitz", "seed": seed, "seats": seats, "hotseat": true}))
            .await
    }

    /// A new game as `POST /api/games` takes it; its id and the tokens by seat id.
    async fn create_game(&self, body: Value) -> (String, Value) {
        let (status, created) = self.call("POST", "/api/games", None, Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        (
            created["id"].as_str().expect("an id").to_string(),
            created["tokens"].clone(),
        )
    }

    async fn state(&self, id: &str, token: Option<&str>) -> Value {
        let (status, doc) = self.call("GET", &format!("/api/games/{id}"), token, None).await;
        assert_eq!(status, StatusCode::OK, "{doc}");
        doc
    }

    async fn act(&self, id: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.call("POST", &format!("/api/games/{id}/actions"), Some(token), Some(body))
            .await
    }

    /// Takes the `n`th legal action of the seat holding `token`.
    async fn act_nth(&self, id: &str, token: &str, n: usize) -> Value {
        let doc = self.state(id, Some(token)).await;
        let action = doc["legal"][n]["action"].clone();
        assert!(!action.is_null(), "no legal action {n}: {doc}");
        let (status, after) = self.act(id, token, json!({"action": action})).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        after
    }
}

fn tok<'a>(tokens: &'a Value, seat: &str) -> &'a str {
    tokens[seat].as_str().expect("a token")
}

#[tokio::test]
async fn a_token_plays_only_its_own_seat() {
    let app = app();
    let (id, tokens) = app.create(3, json!({})).await;
    let before = app.state(&id, None).await;
    assert_eq!(
        before["pending"],
        json!({"kind": "seat", "seat": 1}),
        "the Soviets pick first"
    );
    let soviet_move = app.state(&id, Some(tok(&tokens, "soviet"))).await["legal"][0]["action"].clone();

    // No token, a made-up token, the other seat's token: all refused, nothing changes.
    let (s, e) = app
        .call(
            "POST",
            &format!("/api/games/{id}/actions"),
            None,
            Some(json!({"action": soviet_move})),
        )
        .await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("no-token"))
    );
    let (s, e) = app.act(&id, "0123456789abcdef", json!({"action": soviet_move})).await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("wrong-token"))
    );
    let (s, e) = app.act(&id, tok(&tokens, "axis"), json!({"action": soviet_move})).await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("not-your-turn"))
    );
    // A token of another game is no seat of this one, though it was just shown there.
    let (other_id, other) = app.create(4, json!({})).await;
    assert_eq!(app.state(&other_id, Some(tok(&other, "soviet"))).await["you"], json!(1));
    let (s, _) = app
        .act(&id, tok(&other, "soviet"), json!({"action": soviet_move}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert!(
        app.state(&id, None).await == before,
        "a refused action changed the game"
    );

    // The right token is obeyed.
    let (s, after) = app
        .act(&id, tok(&tokens, "soviet"), json!({"action": soviet_move}))
        .await;
    assert_eq!(s, StatusCode::OK, "{after}");
    assert_eq!(after["you"], json!(1));
    assert!(after["version"].as_u64() > before["version"].as_u64());
}

#[tokio::test]
async fn an_illegal_action_is_refused_with_its_rule_and_changes_nothing() {
    let app = app();
    let (id, tokens) = app.create(3, json!({})).await;
    let soviet = tok(&tokens, "soviet");
    let before = app.state(&id, Some(soviet)).await;
    let picks: Vec<String> = before["legal"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|a| a["notation"].as_str().map(str::to_string))
        .collect();
    // An Axis chit is no pick for the Soviets: the game says why, citing 6.2.
    let (s, e) = app
        .act(&id, soviet, json!({"action": {"do": "pick", "chit": 15}}))
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert_eq!(e["error"]["code"], json!("illegal-action"));
    assert_eq!(e["error"]["rule"], json!("6.2"));
    assert!(!e["error"]["text"]["en"].as_str().unwrap_or("").is_empty());
    assert!(!e["error"]["text"]["zh"].as_str().unwrap_or("").is_empty());
    // Typed, not JSON: the same.
    let (s, e) = app.act(&id, soviet, json!({"notation": "move 6a-3 3512"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    // Not an action of this game at all.
    let (s, e) = app.act(&id, soviet, json!({"action": {"do": "fly"}})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    // A stale version.
    let first = before["legal"][0]["action"].clone();
    let stale = before["version"].as_u64().map(|v| v + 7);
    let (s, e) = app.act(&id, soviet, json!({"action": first, "version": stale})).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("stale")));
    let after = app.state(&id, Some(soviet)).await;
    assert!(after == before, "a refused action changed the game");
    assert!(picks.len() > 1);
}

#[tokio::test]
async fn bad_requests_get_a_status_and_a_reason() {
    let app = app();
    let (id, tokens) = app.create(3, json!({})).await;
    let soviet = tok(&tokens, "soviet");
    let before = app.state(&id, None).await;
    // (method, path, token, body, status, error code)
    type Case<'a> = (&'a str, String, Option<&'a str>, Vec<u8>, StatusCode, &'a str);
    let cases: Vec<Case> = vec![
        (
            "POST",
            "/api/games".into(),
            None,
            b"{not json".to_vec(),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            br#"{"game":"chess"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "unknown-game",
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            br#"{"game":"stalingrad-blitz","scenario":"moon"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "unknown-scenario",
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            br#"{"game":"stalingrad-blitz","seats":{"italy":"human"}}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "unknown-seat",
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            br#"{"game":"stalingrad-blitz","seats":{"axis":"genius"}}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "unknown-agent",
        ),
        (
            "GET",
            "/api/games/nope".into(),
            None,
            vec![],
            StatusCode::NOT_FOUND,
            "no-such-game",
        ),
        (
            "GET",
            "/api/games/../../etc".into(),
            None,
            vec![],
            StatusCode::NOT_FOUND,
            "not-found",
        ),
        (
            "GET",
            "/api/nothing-here".into(),
            None,
            vec![],
            StatusCode::NOT_FOUND,
            "not-found",
        ),
        (
            "POST",
            format!("/api/games/{id}/actions"),
            Some(soviet),
            b"[1,2".to_vec(),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            "POST",
            format!("/api/games/{id}/actions"),
            Some(soviet),
            br#"{"action":{"do":"no-extra"},"notation":"x"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            "POST",
            format!("/api/games/{id}/actions"),
            Some(soviet),
            vec![b' '; 200 * 1024],
            StatusCode::PAYLOAD_TOO_LARGE,
            "too-large",
        ),
        (
            "GET",
            format!("/api/games/{id}"),
            Some("forged"),
            vec![],
            StatusCode::FORBIDDEN,
            "wrong-token",
        ),
        (
            "GET",
            format!("/api/games/{id}/record"),
            None,
            vec![],
            StatusCode::FORBIDDEN,
            "replay-closed",
        ),
        (
            "POST",
            format!("/api/games/{id}/undo"),
            Some(soviet),
            vec![],
            StatusCode::CONFLICT,
            "cannot-undo",
        ),
    ];
    for (method, uri, token, body, status, code) in cases {
        let (s, text) = app.raw(method, &uri, token, body).await;
        assert_eq!(s, status, "{method} {uri}: {text}");
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{method} {uri}: not JSON: {text}"));
        if uri != "/api/games/../../etc" {
            assert_eq!(v["error"]["code"], json!(code), "{method} {uri}: {text}");
        }
        assert!(v["error"]["text"]["zh"].is_string(), "{text}");
    }
    assert!(app.state(&id, None).await == before, "a bad request changed the game");
}

/// Whether any string in `v` contains `needle`.
fn mentions(v: &Value, needle: &str) -> bool {
    v.to_string().contains(needle)
}

#[tokio::test]
async fn a_secret_pick_reaches_no_other_seat_by_any_channel() {
    // Two games from the same seed; the Soviets put a different chit in the cup in each.
    // Everything the Axis seat or a spectator can read must be the same in both.
    let app = app();
    let (a, ta) = app.create(11, json!({})).await;
    let (b, tb) = app.create(11, json!({})).await;
    let picks = app.state(&a, Some(tok(&ta, "soviet"))).await["legal"].clone();
    let (pa, pb) = (&picks[0], &picks[1]);
    assert_eq!((pa["secret"].clone(), pb["secret"].clone()), (json!(true), json!(true)));
    app.act(&a, tok(&ta, "soviet"), json!({"action": pa["action"]})).await;
    app.act(&b, tok(&tb, "soviet"), json!({"action": pb["action"]})).await;

    // The picker sees its own pick.
    let mine_a = app.state(&a, Some(tok(&ta, "soviet"))).await;
    let mine_b = app.state(&b, Some(tok(&tb, "soviet"))).await;
    assert_ne!(mine_a["view"], mine_b["view"], "the Soviet seat sees what it picked");

    let strip = |mut v: Value| {
        v["id"] = Value::Null;
        v
    };
    for (who, ka, kb) in [
        ("axis", Some(tok(&ta, "axis")), Some(tok(&tb, "axis"))),
        ("spectator", None, None),
    ] {
        let da = strip(app.state(&a, ka).await);
        let db = strip(app.state(&b, kb).await);
        assert!(da == db, "{who}'s document differs with the Soviet pick");
        for lang in ["en", "zh"] {
            // The page's form of the document, with the board's pieces.
            let (_, pa) = app.call("GET", &format!("/api/games/{a}?page={lang}"), ka, None).await;
            let (_, pb) = app.call("GET", &format!("/api/games/{b}?page={lang}"), kb, None).await;
            assert!(pa["pieces"].as_str().is_some_and(|p| p.contains("data-id=")), "{pa}");
            assert!(
                strip(pa) == strip(pb),
                "{who}'s page document differs with the Soviet pick"
            );
            // The map alone: the same for everyone, whatever was picked.
            let (_, ma) = app
                .raw("GET", &format!("/api/games/{a}/map.svg?lang={lang}"), ka, vec![])
                .await;
            let (_, mb) = app
                .raw("GET", &format!("/api/games/{b}/map.svg?lang={lang}"), kb, vec![])
                .await;
            assert!(ma.starts_with("<svg") && !ma.contains("data-id="), "{ma:.100}");
            assert_eq!(ma, mb, "{who}'s map differs with the Soviet pick");
            let (_, sa) = app
                .raw("GET", &format!("/api/games/{a}/board.svg?lang={lang}"), ka, vec![])
                .await;
            let (_, sb) = app
                .raw("GET", &format!("/api/games/{b}/board.svg?lang={lang}"), kb, vec![])
                .await;
            assert!(sa.starts_with("<svg"), "{sa:.100}");
            assert_eq!(sa, sb, "{who}'s board differs with the Soviet pick");
        }
        // Error texts: the Axis trying the picked chit learns nothing from the refusal, nor
        // from a number in the list it does not have.
        if let (Some(ka), Some(kb)) = (ka, kb) {
            let (sa, ea) = app.act(&a, ka, json!({"action": pa["action"]})).await;
            let (sb, eb) = app.act(&b, kb, json!({"action": pa["action"]})).await;
            assert_eq!((sa, ea), (sb, eb));
            let version = da["version"].clone();
            let (sa, ea) = app.act(&a, ka, json!({"index": 0, "version": version})).await;
            let (sb, eb) = app.act(&b, kb, json!({"index": 0, "version": version})).await;
            assert_eq!((sa, ea), (sb, eb));
        }
    }
    // The listing of games shows the same for both.
    let (_, list) = app.call("GET", "/api/games", None, None).await;
    let rows: Vec<&Value> = list.as_array().expect("a list").iter().collect();
    let row = |id: &str| {
        let mut r = (*rows.iter().find(|r| r["id"] == json!(id)).expect("listed")).clone();
        r["id"] = Value::Null;
        r["created"] = Value::Null;
        r["updated"] = Value::Null;
        r
    };
    assert_eq!(row(&a), row(&b));
    // The record, which holds the pick, stays closed until the game is over.
    let (s, _) = app
        .call("GET", &format!("/api/games/{a}/record"), Some(tok(&ta, "axis")), None)
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let notation = pa["notation"].as_str().unwrap_or_default();
    let axis_doc = app.state(&a, Some(tok(&ta, "axis"))).await;
    assert!(!mentions(&axis_doc["journal"], notation));
}

#[tokio::test]
async fn a_restarted_server_resumes_every_game_where_it_was() {
    let dir = temp_dir("restart");
    let (id, tokens, before) = {
        let app = app_in(&dir);
        let (id, tokens) = app.create(5, json!({})).await;
        for _ in 0..4 {
            let doc = app.state(&id, None).await;
            let seat = if doc["pending"]["seat"] == json!(0) {
                "axis"
            } else {
                "soviet"
            };
            app.act_nth(&id, tok(&tokens, seat), 0).await;
        }
        let before = app.state(&id, Some(tok(&tokens, "axis"))).await;
        drop(app);
        (id, tokens, before)
    };
    let app = app_in(&dir);
    let after = app.state(&id, Some(tok(&tokens, "axis"))).await;
    assert!(after == before, "the game came back different");
    // And play goes on from there with the same tokens.
    let seat = if after["pending"]["seat"] == json!(0) {
        "axis"
    } else {
        "soviet"
    };
    let next = app.act_nth(&id, tok(&tokens, seat), 0).await;
    assert!(next["version"].as_u64() > before["version"].as_u64());
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_actions_on_one_game_are_served_one_at_a_time() {
    let app = Arc::new(app());
    let (id, tokens) = app.create(9, json!({})).await;
    let soviet = tok(&tokens, "soviet").to_string();
    let doc = app.state(&id, Some(&soviet)).await;
    let version = doc["version"].clone();
    // Every request sends a legal action for the same version: exactly one can be taken.
    let mut tasks = Vec::new();
    for n in 0..12 {
        let (app, id, soviet) = (app.clone(), id.clone(), soviet.clone());
        let action = doc["legal"][n % 3]["action"].clone();
        let version = version.clone();
        tasks.push(tokio::spawn(async move {
            app.act(&id, &soviet, json!({"action": action, "version": version}))
                .await
                .0
        }));
    }
    let mut ok = 0;
    for t in tasks {
        match t.await.expect("the task ends") {
            StatusCode::OK => ok += 1,
            StatusCode::CONFLICT => {}
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(ok, 1);
    let after = app.state(&id, None).await;
    assert_eq!(after["version"].as_u64(), doc["version"].as_u64().map(|v| v + 1));
    // Without versions, every request is checked against the game as the previous one left it.
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let (app, id, soviet) = (app.clone(), id.clone(), soviet.clone());
        tasks.push(tokio::spawn(async move {
            let doc = app.state(&id, Some(&soviet)).await;
            // Another request may have passed the decision to the other seat already: then
            // this seat has nothing to send.
            let action = doc["legal"].get(0)?["action"].clone();
            Some(app.act(&id, &soviet, json!({"action": action})).await.0)
        }));
    }
    for t in tasks {
        let Some(s) = t.await.expect("the task ends") else {
            continue;
        };
        assert!(
            [StatusCode::OK, StatusCode::FORBIDDEN, StatusCode::UNPROCESSABLE_ENTITY].contains(&s),
            "{s}"
        );
    }
    // Whatever was taken, the stored game replays to the game in memory.
    let stored = app.hub.list().expect("the list");
    let row = stored
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .find(|r| r.id == id)
        .expect("stored");
    assert_eq!(json!(row.snapshot.version), app.state(&id, None).await["version"]);
}

/// Waits until the game is at a person's decision or over.
async fn settle(app: &App, id: &str) -> Value {
    // Up to five minutes: a whole game between computer players in a debug build.
    for _ in 0..60_000 {
        let doc = app.state(id, None).await;
        let kind = doc["pending"]["kind"].clone();
        let seat = doc["pending"]["seat"].as_u64().unwrap_or(0) as usize;
        if kind == json!("over") || (kind == json!("seat") && doc["seats"][seat]["player"] == json!("human")) {
            return doc;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    panic!("the computer seats never finished");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computer_seats_move_on_their_own_and_the_record_opens_at_the_end() {
    let app = app();
    let (id, tokens) = app.create(2, json!({"soviet": "random"})).await;
    assert!(tokens.get("soviet").is_none(), "no token for a computer seat");
    let doc = settle(&app, &id).await;
    assert_eq!(
        doc["pending"],
        json!({"kind": "seat", "seat": 0}),
        "the Soviets picked on their own"
    );
    app.act_nth(&id, tok(&tokens, "axis"), 0).await;

    // Two computer players play a whole game; then anyone may have the record, and it replays.
    let (id, _) = app.create(2, json!({"soviet": "random", "axis": "random"})).await;
    let end = settle(&app, &id).await;
    assert_eq!(end["pending"], json!({"kind": "over"}));
    assert!(end["outcome"]["text"]["zh"].is_string());
    let (s, record) = app.raw("GET", &format!("/api/games/{id}/record"), None, vec![]).await;
    assert_eq!(s, StatusCode::OK);
    let session = sandtable_catalog::load_any(&record).expect("the record replays");
    assert_eq!(json!(session.record().entries.len()), end["version"]);
}

/// The scripted players of Ardennes II, kept by the server from move to move, play a whole
/// game to its end (a player that forgot the attacks it had tried once picked and called off
/// the same attack for ever).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_scripted_players_finish_a_game_of_ardennes_ii() {
    let app = app();
    let (id, _) = app
        .create_game(json!({"game": "ardennes-ii", "scenario": "goose-egg", "seed": 11,
            "seats": {"german": "scripted", "allied": "scripted"}}))
        .await;
    let end = settle(&app, &id).await;
    assert_eq!(end["pending"], json!({"kind": "over"}));
    let (s, record) = app.raw("GET", &format!("/api/games/{id}/record"), None, vec![]).await;
    assert_eq!(s, StatusCode::OK);
    let session = sandtable_catalog::load_any(&record).expect("the record replays");
    assert_eq!(json!(session.record().entries.len()), end["version"]);
}

#[tokio::test]
async fn undo_takes_back_ones_own_move_and_the_store_follows() {
    let dir = temp_dir("undo");
    let app = app_in(&dir);
    let (id, tokens) = app.create(3, json!({})).await;
    let soviet = tok(&tokens, "soviet");
    let start = app.state(&id, Some(soviet)).await;
    let after = app.act_nth(&id, soviet, 0).await;
    assert_eq!(after["can_undo"], json!(true), "a chit pick can be taken back");
    let (s, mut undone) = app
        .call("POST", &format!("/api/games/{id}/undo"), Some(soviet), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{undone}");
    // The version never goes back, so a page can tell the game after the undo from the game
    // before the action.
    let version = undone["version"].as_u64().expect("a version");
    assert!(version > after["version"].as_u64().expect("a version"));
    undone["version"] = start["version"].clone();
    assert!(undone == start, "undo did not restore the game");
    drop(app);
    let app = app_in(&dir);
    let mut stored = app.state(&id, Some(soviet)).await;
    assert_eq!(stored["version"].as_u64(), Some(version), "the version was not stored");
    stored["version"] = start["version"].clone();
    assert!(stored == start, "the undo was not stored");
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_pages_and_the_catalog_are_served() {
    let app = app();
    for (path, kind) in [("/", "<html"), ("/game/abc", "<html")] {
        let (s, body) = app.raw("GET", path, None, vec![]).await;
        assert_eq!(s, StatusCode::OK);
        assert!(body.to_lowercase().contains(kind), "{path}");
    }
    // The page's modules, each kept by the browser and asked again with its tag.
    let (_, index) = app.raw("GET", "/", None, vec![]).await;
    assert!(index.contains("type=\"module\" src=\"/js/main.js\""), "{index}");
    for module in ["main", "words", "util", "lobby", "board", "game"] {
        let req = Request::builder()
            .uri(format!("/js/{module}.js"))
            .body(Body::empty())
            .expect("a request");
        let res = app.router.clone().oneshot(req).await.expect("an answer");
        assert_eq!(res.status(), StatusCode::OK, "{module}");
        let head = |k: &str| res.headers().get(k).and_then(|v| v.to_str().ok()).map(str::to_string);
        assert_eq!(head("content-type").as_deref(), Some("text/javascript; charset=utf-8"));
        assert_eq!(head("cache-control").as_deref(), Some("no-cache"));
        let etag = head("etag").expect("a tag");
        let again = Request::builder()
            .uri(format!("/js/{module}.js"))
            .header("if-none-match", &etag)
            .body(Body::empty())
            .expect("a request");
        let res = app.router.clone().oneshot(again).await.expect("an answer");
        assert_eq!(res.status(), StatusCode::NOT_MODIFIED, "{module}");
    }
    let (s, _) = app.raw("GET", "/js/nothing.js", None, vec![]).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = app.raw("GET", "/nowhere", None, vec![]).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, catalog) = app.call("GET", "/api/catalog", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(catalog[0]["id"], json!("stalingrad-blitz"));
    assert_eq!(catalog[0]["scenarios"][0]["reconstructed"], json!(true));
}

#[tokio::test]
async fn large_answers_are_gzipped_for_clients_that_ask() {
    let app = app();
    let (id, _) = app.create(3, json!({})).await;
    let req = Request::builder()
        .uri(format!("/api/games/{id}/board.svg"))
        .header("accept-encoding", "gzip")
        .body(Body::empty())
        .expect("a request");
    let res = app.router.clone().oneshot(req).await.expect("an answer");
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        res.headers().get("content-encoding").and_then(|v| v.to_str().ok()),
        Some("gzip")
    );
    let zipped = res.into_body().collect().await.expect("a body").to_bytes().len();
    let (_, plain) = app
        .raw("GET", &format!("/api/games/{id}/board.svg"), None, vec![])
        .await;
    assert!(
        zipped * 4 < plain.len(),
        "{zipped} bytes zipped against {}",
        plain.len()
    );
}

#[tokio::test]
async fn the_map_is_sent_once_to_be_kept_and_the_pieces_with_each_version() {
    let app = app();
    let (id, tokens) = app.create(3, json!({})).await;
    let soviet = tok(&tokens, "soviet");
    let get = |uri: String, etag: Option<String>| {
        let mut req = Request::builder().uri(uri);
        if let Some(e) = etag {
            req = req.header("if-none-match", e);
        }
        app.router.clone().oneshot(req.body(Body::empty()).expect("a request"))
    };
    let res = get(format!("/api/games/{id}/map.svg?lang=zh"), None)
        .await
        .expect("an answer");
    assert_eq!(res.status(), StatusCode::OK);
    let head = |res: &axum::response::Response, k: &str| {
        res.headers().get(k).and_then(|v| v.to_str().ok()).map(str::to_string)
    };
    assert_eq!(
        head(&res, "cache-control").as_deref(),
        Some("public, max-age=31536000, immutable")
    );
    let etag = head(&res, "etag").expect("a tag");
    assert!(
        etag.starts_with('"') && etag.contains(&id) && etag.contains("-zh-"),
        "{etag}"
    );
    let map = String::from_utf8(res.into_body().collect().await.expect("a body").to_bytes().to_vec()).expect("text");
    assert!(
        map.ends_with("<g class=\"pieces\"></g>\n</svg>"),
        "the map ends with the place of the pieces"
    );
    assert!(!map.contains("data-id="), "no counter on the map alone");
    // Asked again with its tag: nothing to send.
    let res = get(format!("/api/games/{id}/map.svg?lang=zh"), Some(etag.clone()))
        .await
        .expect("an answer");
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    // Each language is a map of its own.
    let res = get(format!("/api/games/{id}/map.svg?lang=en"), Some(etag))
        .await
        .expect("an answer");
    assert_eq!(res.status(), StatusCode::OK);
    let (s, e) = app
        .call("GET", &format!("/api/games/{id}/map.svg?lang=fr"), None, None)
        .await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad-request"))
    );
    let (s, e) = app
        .call("GET", &format!("/api/games/{id}?page=klingon"), None, None)
        .await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad-request"))
    );

    // The page's form: texts in one language, the legal list light, the pieces.
    let (s, doc) = app
        .call("GET", &format!("/api/games/{id}?page=zh"), Some(soviet), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{doc}");
    assert_eq!(doc["lang"], json!("zh"));
    assert!(doc["title"].is_string() && doc["summary"].is_string());
    let legal = doc["legal"].as_array().expect("a list");
    assert!(legal.len() > 1);
    for a in legal {
        assert!(
            a["text"].is_string() && a["action"].is_null() && a["notation"].is_null(),
            "{a}"
        );
        let group = a["group"].as_u64().expect("a heading") as usize;
        assert!(doc["groups"][group].as_str().is_some_and(|g| !g.is_empty()));
    }
    let pieces = doc["pieces"].as_str().expect("the pieces");
    assert!(pieces.starts_with("<g class='pieces'>") && pieces.contains("data-id="));
    // The whole board is the map with these pieces in their place.
    let (_, board) = app
        .raw(
            "GET",
            &format!("/api/games/{id}/board.svg?lang=zh"),
            Some(soviet),
            vec![],
        )
        .await;
    assert_eq!(board.matches("data-id=").count(), pieces.matches("data-id=").count());

    // An action taken by its place in the list, with the version it was listed at.
    let version = doc["version"].clone();
    let (s, e) = app.act(&id, soviet, json!({"index": 1})).await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad-request"))
    );
    let (s, e) = app.act(&id, soviet, json!({"index": 10_000, "version": version})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"]["text"]["zh"].is_string());
    let (s, after) = app
        .call(
            "POST",
            &format!("/api/games/{id}/actions?page=en"),
            Some(soviet),
            Some(json!({"index": 1, "version": version})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{after}");
    assert!(after["version"].as_u64() > version.as_u64());
    assert!(after["pieces"].is_string() && after["summary"].is_string());
    // The same place at the old version is refused as stale.
    let (s, e) = app.act(&id, soviet, json!({"index": 1, "version": version})).await;
    assert_eq!((s, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("stale")));
}

/// Changes stored games behind the server's back, as a bad disk or an editor would.
fn tamper(dir: &std::path::Path, sql: &str) {
    let db = rusqlite::Connection::open(dir.join("sandtable.db")).expect("the database opens");
    db.execute_batch(sql).expect("the change is made");
}

#[tokio::test]
async fn one_damaged_game_does_not_stop_the_server() {
    let dir = temp_dir("damaged");
    let (good, edited, garbled, tokens) = {
        let app = app_in(&dir);
        let (good, tokens) = app.create(5, json!({})).await;
        let (edited, _) = app.create(6, json!({"soviet": "random"})).await;
        let (garbled, _) = app.create(7, json!({})).await;
        settle(&app, &edited).await;
        drop(app);
        (good, edited, garbled, tokens)
    };
    // One checksum edited in one unfinished game (with a computer seat, so the start opens it),
    // and the saved header of another no longer in the form this build reads.
    tamper(
        &dir,
        &format!(
            "UPDATE steps SET entry = replace(entry, '\"checksum\":\"', '\"checksum\":\"f') WHERE game_id = '{edited}' AND n = 0;
             UPDATE games SET snapshot = '{{\"version\": \"a format to come\"}}' WHERE id = '{garbled}';"
        ),
    );
    let steps_before = {
        let db = rusqlite::Connection::open(dir.join("sandtable.db")).expect("the database opens");
        db.query_row(
            "SELECT group_concat(entry, '|') FROM steps WHERE game_id = ?1",
            [&edited],
            |r| r.get::<_, String>(0),
        )
        .expect("the steps")
    };
    let app = app_in(&dir);
    app.hub
        .resume_all()
        .expect("the server starts with a damaged game in it");
    // The list answers, the damaged games marked as such.
    let (s, list) = app.call("GET", "/api/games", None, None).await;
    assert_eq!(s, StatusCode::OK, "{list}");
    let list = list.as_array().expect("a list");
    assert_eq!(list.len(), 3);
    for id in [&edited, &garbled] {
        let entry = list.iter().find(|g| g["id"] == json!(id)).expect("listed");
        assert!(entry["damaged"]["en"].is_string(), "{entry}");
        assert!(entry["damaged"]["zh"].is_string(), "{entry}");
        let (s, e) = app.call("GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(s, StatusCode::INTERNAL_SERVER_ERROR, "{e}");
        assert_eq!(e["error"]["code"], json!("damaged-game"), "{e}");
        assert!(
            e["error"]["text"]["en"].as_str().unwrap_or("").contains(id.as_str()),
            "{e}"
        );
    }
    let edited_entry = list.iter().find(|g| g["id"] == json!(edited)).expect("listed");
    assert!(
        edited_entry["damaged"]["en"].as_str().unwrap_or("").contains("step 1"),
        "the reason names the step: {edited_entry}"
    );
    // The page shows the reason in its language: the Chinese one is the record's own refusal
    // in Chinese, not the English inside a Chinese frame.
    let zh = edited_entry["damaged"]["zh"].as_str().unwrap_or("");
    let en_reason = edited_entry["damaged"]["en"].as_str().unwrap_or("");
    let en_reason = en_reason.split_once(": ").map_or(en_reason, |(_, why)| why);
    assert!(
        !zh.contains(en_reason),
        "the Chinese reason repeats the English one: {edited_entry}"
    );
    assert!(
        zh.split_once(':')
            .is_some_and(|(_, why)| why.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))),
        "the Chinese reason is Chinese: {edited_entry}"
    );
    let good_entry = list.iter().find(|g| g["id"] == json!(good)).expect("listed");
    assert!(good_entry.get("damaged").is_none(), "{good_entry}");
    // The good game plays on.
    let doc = app.state(&good, None).await;
    let seat = if doc["pending"]["seat"] == json!(0) {
        "axis"
    } else {
        "soviet"
    };
    app.act_nth(&good, tok(&tokens, seat), 0).await;
    // The damaged game's record is kept as it was.
    let steps_after = {
        let db = rusqlite::Connection::open(dir.join("sandtable.db")).expect("the database opens");
        db.query_row(
            "SELECT group_concat(entry, '|') FROM steps WHERE game_id = ?1",
            [&edited],
            |r| r.get::<_, String>(0),
        )
        .expect("the steps")
    };
    assert_eq!(steps_before, steps_after);
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_game_between_people_takes_its_dice_from_the_server_and_never_shows_them() {
    let dir = temp_dir("dice");
    let app = app_in(&dir);
    // A chosen seed with two people on two browsers: refused, saying why.
    let (s, e) = app
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "stalingrad-blitz", "seed": 7})),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["code"], json!("fixed-seed"));
    assert!(e["error"]["text"]["zh"].as_str().is_some_and(|t| !t.is_empty()));
    // Without one the server draws it, and says nobody can foresee the dice.
    let (id, tokens) = app.create_game(json!({"game": "stalingrad-blitz"})).await;
    let seed: i64 = rusqlite::Connection::open(dir.join("sandtable.db"))
        .expect("the database opens")
        .query_row("SELECT seed FROM games WHERE id = ?1", [&id], |r| r.get(0))
        .expect("the seed");
    let seed = seed as u64;
    let forms = [seed.to_string(), format!("{seed:016x}"), format!("{seed:x}")];
    let mut seen = Vec::new();
    for token in [None, Some(tok(&tokens, "axis")), Some(tok(&tokens, "soviet"))] {
        for path in [
            format!("/api/games/{id}"),
            format!("/api/games/{id}?page=en"),
            format!("/api/games/{id}?page=zh"),
            format!("/api/games/{id}/board.svg"),
            format!("/api/games/{id}/record"),
            "/api/games".to_string(),
        ] {
            let (_, body) = app.raw("GET", &path, token, Vec::new()).await;
            seen.push((path, body));
        }
    }
    for (path, body) in &seen {
        for form in &forms {
            assert!(!body.contains(form.as_str()), "{path} shows the seed {form}");
        }
    }
    let doc = app.state(&id, None).await;
    assert_eq!(doc["dice"]["fixed"], json!(false), "{}", doc["dice"]);
    // A chosen seed is kept for a hotseat game and a game against the computer, and marked.
    let (hotseat, _) = app
        .create_game(json!({"game": "stalingrad-blitz", "seed": 7, "hotseat": true}))
        .await;
    let (computer, _) = app
        .create_game(json!({"game": "stalingrad-blitz", "seed": 7, "seats": {"soviet": "scripted"}}))
        .await;
    for id in [&hotseat, &computer] {
        let doc = app.state(id, None).await;
        assert_eq!(doc["dice"]["fixed"], json!(true), "{}", doc["dice"]);
        assert!(doc["dice"]["text"]["en"]
            .as_str()
            .is_some_and(|t| t.contains("in advance")));
        let (_, page) = app.call("GET", &format!("/api/games/{id}?page=zh"), None, None).await;
        assert!(
            page["dice"]["text"].as_str().is_some_and(|t| t.contains("预知")),
            "{}",
            page["dice"]
        );
    }
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn an_undo_sent_twice_takes_back_one_action() {
    let app = app();
    let (id, tokens) = app.create(3, json!({})).await;
    let soviet = tok(&tokens, "soviet");
    // Two picks of the Soviet's own in a row, each of which could be taken back.
    app.act_nth(&id, soviet, 0).await;
    let second = app.act_nth(&id, soviet, 0).await;
    assert_eq!(second["can_undo"], json!(true), "{}", second["pending"]);
    let at = second["version"].clone();
    let undo = json!({"version": at});
    let (s, once) = app
        .call(
            "POST",
            &format!("/api/games/{id}/undo"),
            Some(soviet),
            Some(undo.clone()),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{once}");
    // The same request again (a double click, a retried request): stale, nothing changes.
    let (s, e) = app
        .call("POST", &format!("/api/games/{id}/undo"), Some(soviet), Some(undo))
        .await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("stale")),
        "{e}"
    );
    assert_eq!(app.state(&id, Some(soviet)).await, once);
    // A body that is not the JSON expected is refused as such.
    let (s, e) = app
        .call(
            "POST",
            &format!("/api/games/{id}/undo"),
            Some(soviet),
            Some(json!({"versio": 3})),
        )
        .await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad-request")),
        "{e}"
    );
}

#[tokio::test]
async fn a_query_that_does_not_parse_answers_the_json_error() {
    let app = app();
    let (id, _) = app.create(3, json!({})).await;
    for query in ["journal_from=x", "journal_from=-1", "journal_from=1.5"] {
        let (s, e) = app.call("GET", &format!("/api/games/{id}?{query}"), None, None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{query}: {e}");
        assert_eq!(e["error"]["code"], json!("bad-request"), "{query}: {e}");
        assert!(e["error"]["text"]["zh"].as_str().is_some_and(|t| !t.is_empty()), "{e}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_stops_while_pages_hold_event_streams_open() {
    let hub = Hub::new(Store::in_memory().expect("an in-memory database"));
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
    let base = format!("http://{}", at.await.expect("the server binds"));
    let client = reqwest::Client::new();
    let created: Value = client
        .post(format!("{base}/api/games"))
        .json(&json!({"game": "stalingrad-blitz"}))
        .send()
        .await
        .expect("created")
        .json()
        .await
        .expect("JSON");
    let id = created["id"].as_str().expect("an id");
    // Two pages listening, each having had its first update.
    let mut streams = Vec::new();
    for _ in 0..2 {
        let mut res = client
            .get(format!("{base}/api/games/{id}/events"))
            .send()
            .await
            .expect("a stream");
        let first = res.chunk().await.expect("a first event").expect("bytes");
        assert!(String::from_utf8_lossy(&first).contains("update"));
        streams.push(res);
    }
    stop.send(()).expect("the server listens for the stop");
    // Stopping ends the streams, so the server returns; a hang fails after a minute.
    let done = tokio::time::timeout(std::time::Duration::from_secs(60), server).await;
    assert!(
        matches!(done, Ok(Ok(Ok(())))),
        "the server did not stop with event streams open"
    );
    for mut s in streams {
        while let Ok(Some(_)) = s.chunk().await {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_seat_tries_again_after_a_failed_write() {
    let dir = temp_dir("retry");
    let app = app_in(&dir);
    // The disk refuses every new step (as a full disk would) before the computer's first move.
    tamper(
        &dir,
        "CREATE TRIGGER full_disk BEFORE INSERT ON steps BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;",
    );
    let (id, _) = app
        .create_game(json!({"game": "stalingrad-blitz", "seats": {"soviet": "random"}}))
        .await;
    let mut stalled = Value::Null;
    for _ in 0..60_000 {
        let doc = app.state(&id, None).await;
        if doc["stalled"].is_object() {
            stalled = doc;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert_eq!(
        stalled["version"],
        json!(0),
        "nothing was stored: {}",
        stalled["version"]
    );
    assert!(
        stalled["stalled"]["zh"].as_str().is_some_and(|t| !t.is_empty()),
        "{}",
        stalled["stalled"]
    );
    // The disk has room again: the computer plays on without anyone asking.
    tamper(&dir, "DROP TRIGGER full_disk;");
    let doc = settle(&app, &id).await;
    assert!(doc["version"].as_u64() > Some(0), "the computer never moved");
    assert!(doc.get("stalled").is_none(), "{}", doc["stalled"]);
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_database_deleted_or_replaced_while_serving_refuses_actions_loudly() {
    for how in ["deleted", "replaced"] {
        let dir = temp_dir(&format!("lost-{}", how.len()));
        let app = app_in(&dir);
        let (id, tokens) = app.create(3, json!({})).await;
        let soviet = tok(&tokens, "soviet");
        app.act_nth(&id, soviet, 0).await;
        let before = app.state(&id, Some(soviet)).await;
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(dir.join(format!("sandtable.db{suffix}")));
        }
        if how == "replaced" {
            // Another database in its place (a restore from a backup, say).
            drop(Store::open(&dir).expect("another database"));
        }
        let action = before["legal"][0]["action"].clone();
        let (s, e) = app.act(&id, soviet, json!({"action": action})).await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{how}: {e}");
        assert_eq!(e["error"]["code"], json!("storage-lost"), "{how}: {e}");
        assert!(
            e["error"]["text"]["en"].as_str().unwrap_or("").contains(how),
            "{how}: {e}"
        );
        assert!(e["error"]["text"]["zh"].as_str().is_some_and(|t| !t.is_empty()));
        // Nothing moved in memory either, and every later write is refused the same way.
        assert_eq!(app.state(&id, Some(soviet)).await, before, "{how}");
        let (s, _) = app.act(&id, soviet, json!({"action": action})).await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{how}");
        let (s, e) = app
            .call("POST", "/api/games", None, Some(json!({"game": "stalingrad-blitz"})))
            .await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{how}: {e}");
        drop(app);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[tokio::test]
async fn the_cup_does_not_tell_whether_the_soviets_chose_an_extra_chit() {
    // Two games from the same seed: the Soviets put an extra chit (6.2(2)) in one and not in
    // the other; the Axis then executes a chit first (16.0(1)), so the cup is filled and
    // nothing drawn yet. What the Axis or a spectator reads must be the same in both.
    let app = app();
    let (a, ta) = app.create(11, json!({})).await;
    let (b, tb) = app.create(11, json!({})).await;
    let mut steps = 0;
    loop {
        let doc = app.state(&a, None).await;
        let seat = if doc["pending"]["seat"] == json!(1) {
            "soviet"
        } else {
            "axis"
        };
        let legal = app.state(&a, Some(tok(&ta, seat))).await["legal"].clone();
        let list = legal.as_array().expect("a list");
        let no_extra = list.iter().position(|l| l["notation"] == json!("no-extra"));
        let (ia, ib) = match no_extra {
            // The extra chit in game a, none in game b.
            Some(n) => (if n == 0 { 1 } else { 0 }, n),
            None => (0, 0),
        };
        let first = list[0]["notation"].as_str().unwrap_or("").starts_with("first");
        let va = app.state(&a, None).await["version"].clone();
        let vb = app.state(&b, None).await["version"].clone();
        let (s, e) = app.act(&a, tok(&ta, seat), json!({"index": ia, "version": va})).await;
        assert_eq!(s, StatusCode::OK, "{e}");
        let (s, e) = app.act(&b, tok(&tb, seat), json!({"index": ib, "version": vb})).await;
        assert_eq!(s, StatusCode::OK, "{e}");
        steps += 1;
        assert!(steps < 40, "never reached the chit executed first");
        if first {
            break;
        }
    }
    let strip = |mut v: Value| {
        v["id"] = Value::Null;
        v
    };
    for (who, ka, kb) in [
        ("axis", Some(tok(&ta, "axis")), Some(tok(&tb, "axis"))),
        ("spectator", None, None),
    ] {
        let da = strip(app.state(&a, ka).await);
        let db = strip(app.state(&b, kb).await);
        assert_eq!(da["summary"], db["summary"], "{who}'s summary");
        assert_eq!(da["journal"], db["journal"], "{who}'s log");
        assert_eq!(da["view"], db["view"], "{who}'s view");
        assert!(da == db, "{who}'s document differs with the Soviet extra chit");
        for lang in ["en", "zh"] {
            let (_, pa) = app.call("GET", &format!("/api/games/{a}?page={lang}"), ka, None).await;
            let (_, pb) = app.call("GET", &format!("/api/games/{b}?page={lang}"), kb, None).await;
            assert!(strip(pa) == strip(pb), "{who}'s page document differs");
        }
    }
}

#[tokio::test]
async fn a_game_starts_from_a_scenario_file_a_player_wrote() {
    let app = app();
    let file = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/stalingrad-blitz/data/scenarios/campaign.toml"),
    )
    .expect("the shipped campaign");
    // A designer's position: the shipped campaign, renamed.
    let written = file.replacen("name_en = \"", "name_en = \"My ", 1);
    let (id, tokens) = app
        .create_game(json!({"game": "stalingrad-blitz", "scenario_file": written, "seats": {"axis": "scripted"}}))
        .await;
    let doc = app.state(&id, Some(tok(&tokens, "soviet"))).await;
    assert_eq!(doc["scenario"]["id"], json!("custom"), "{}", doc["scenario"]);
    assert!(!doc["legal"].as_array().expect("a list").is_empty(), "playable");
    let (_, page) = app
        .call(
            "GET",
            &format!("/api/games/{id}?page=zh"),
            Some(tok(&tokens, "soviet")),
            None,
        )
        .await;
    assert!(page["pieces"].as_str().is_some_and(|p| p.contains("data-id=")));
    // A file that is not a scenario: refused with the reason, in both languages.
    let (s, e) = app
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "stalingrad-blitz", "scenario_file": "this is = not [a scenario"})),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["code"], json!("bad-scenario"), "{e}");
    assert!(
        e["error"]["text"]["zh"].as_str().is_some_and(|t| t.contains("剧本")),
        "{e}"
    );
    // Both a shipped scenario and a file: which one?
    let (s, e) = app
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "stalingrad-blitz", "scenario": "campaign", "scenario_file": file})),
        )
        .await;
    assert_eq!(
        (s, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad-request")),
        "{e}"
    );
}

#[tokio::test]
async fn an_ardennes_position_a_designer_wrote_starts_at_its_phase_with_its_markers() {
    // The Bastogne scenario (7.5) begun in the US movement phase with a German Full barrage
    // marker on the map (docs/formats.md, "Scenario files (Ardennes II)").
    let app = app();
    let file = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/ardennes-ii/data/scenarios/bastogne.toml"),
    )
    .expect("the shipped Bastogne");
    let written = file.replace(
        "schedule = false\n",
        "schedule = false\nfirst_phase = \"us-movement\"\n",
    ) + "\n[[marker]]\nkind = \"barrage-full\"\nhex = \"B2.17\"\nside = \"german\"\n";
    let (id, tokens) = app
        .create_game(json!({"game": "ardennes-ii", "scenario_file": written, "seats": {"german": "scripted"}}))
        .await;
    let doc = app.state(&id, Some(tok(&tokens, "allied"))).await;
    assert_eq!(doc["scenario"]["id"], json!("custom"), "{}", doc["scenario"]);
    // Listed by the name the file gives itself, marked as a player's.
    assert_eq!(
        doc["scenario"]["name"]["en"],
        json!("Bastogne: Eagles in a Cage (written by a player)"),
        "{}",
        doc["scenario"]
    );
    let view = &doc["view"];
    assert!(
        view["markers"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["hex"] == json!("B2.17") && m["full"] == json!(1))),
        "{}",
        view["markers"]
    );
    // A bad first phase: refused with the reason.
    let bad = file.replace("schedule = false\n", "schedule = false\nfirst_phase = \"lunch\"\n");
    let (s, e) = app
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "ardennes-ii", "scenario_file": bad})),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert!(
        e["error"]["text"]["en"]
            .as_str()
            .is_some_and(|t| t.contains("first_phase")),
        "{e}"
    );
}

#[tokio::test]
async fn garbage_pages_in_the_database_leave_the_server_serving() {
    let dir = temp_dir("garbage");
    {
        let app = app_in(&dir);
        for seed in 0..12 {
            app.create(seed, json!({})).await;
        }
    }
    // A few pages past the first overwritten with garbage, as a failing disk would.
    let path = dir.join("sandtable.db");
    let mut bytes = std::fs::read(&path).expect("the database");
    let pages = bytes.len() / 4096;
    assert!(pages > 4, "{pages} pages");
    for page in [pages / 2, pages - 2] {
        for b in &mut bytes[page * 4096 + 100..page * 4096 + 2100] {
            *b = 0xa5;
        }
    }
    std::fs::write(&path, &bytes).expect("written back");
    let app = app_in(&dir);
    app.hub.resume_all().expect("the server starts");
    let (s, list) = app.call("GET", "/api/games", None, None).await;
    assert_eq!(s, StatusCode::OK, "{list}");
    // What could not be read is listed as damaged, not left out in silence.
    assert!(
        list.as_array()
            .is_some_and(|l| l.iter().any(|g| g.get("damaged").is_some())),
        "{list}"
    );
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_paths_of_glory_hand_reaches_no_other_seat_by_any_channel() {
    // 9.1: a hand is secret. After the deal, nothing the Allied seat or a spectator can read
    // (the document and its page form, the board, the map, the listing, the refusals, the
    // answers to a click, the record) names a card of the Central Powers' hand, which the
    // Central Powers' own document does name.
    let app = app();
    let (id, tokens) = app
        .create_game(json!({"game": "paths-of-glory", "scenario": "campaign", "seats": {}}))
        .await;
    let (cp, ap) = (tok(&tokens, "cp"), tok(&tokens, "ap"));
    let (s, e) = app.act(&id, cp, json!({"notation": "guns-of-august no"})).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    let mine = app.state(&id, Some(cp)).await;
    let hand = mine["view"]["cp_cards"]["hand"].as_array().cloned().unwrap_or_default();
    assert_eq!(hand.len(), 7, "{}", mine["view"]["cp_cards"]);
    let (_, map) = app
        .raw("GET", &format!("/api/games/{id}/map.svg?lang=en"), None, vec![])
        .await;
    let (_, map_zh) = app
        .raw("GET", &format!("/api/games/{id}/map.svg?lang=zh"), None, vec![])
        .await;
    // The names of the cards in hand, less those the Allied seat reads for other reasons: a
    // name printed on the map, the name of a card of its own hand (both decks hold a Severe
    // Weather), and Guns of August, whose choice at the start is public (4.3); on the Allied
    // seat's own channels also a name in the text of a card of its hand (Moltke's names
    // Falkenhayn).
    let theirs = app.state(&id, Some(ap)).await;
    let own_texts: Vec<String> = theirs["hand"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .flat_map(|c| [c["text"]["en"].as_str(), c["text"]["zh"].as_str()])
        .flatten()
        .map(str::to_string)
        .collect();
    let own: Vec<String> = theirs["view"]["ap_cards"]["hand"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .flat_map(|c| [c["name_en"].as_str(), c["name_zh"].as_str()])
        .flatten()
        .map(str::to_string)
        .collect();
    let names: Vec<String> = hand
        .iter()
        .filter(|c| c["number"] != json!(1))
        .flat_map(|c| [c["name_en"].as_str(), c["name_zh"].as_str()])
        .flatten()
        .filter(|n| !map.contains(*n) && !map_zh.contains(*n) && !own.iter().any(|o| o == n))
        .map(str::to_string)
        .collect();
    let names_ap: Vec<String> = names
        .iter()
        .filter(|n| !own_texts.iter().any(|t| t.contains(n.as_str())))
        .cloned()
        .collect();
    assert!(names.len() >= 8, "{names:?}");
    assert!(
        names.iter().all(|n| mentions(&mine, n)),
        "the hand's owner reads its cards"
    );
    let leaks = |what: &str, text: &str| {
        let names = if what.starts_with("spectator") || what == "the listing" {
            &names
        } else {
            &names_ap
        };
        let found: Vec<&String> = names.iter().filter(|n| text.contains(n.as_str())).collect();
        let at = found.first().and_then(|n| text.find(n.as_str())).unwrap_or(0);
        let around: String = text[at.saturating_sub(300)..].chars().take(400).collect();
        assert!(
            found.is_empty(),
            "{what} names cards of the Central Powers' hand: {found:?} in …{around}…"
        );
    };
    for (who, token) in [("ap", Some(ap)), ("spectator", None)] {
        let doc = app.state(&id, token).await;
        assert!(
            doc["view"]["cp_cards"]["hand"].is_null(),
            "{who}: {}",
            doc["view"]["cp_cards"]
        );
        assert_eq!(doc["view"]["cp_cards"]["hand_size"], json!(7), "{who}");
        leaks(&format!("{who}'s document"), &doc.to_string());
        for lang in ["en", "zh"] {
            let (_, page) = app
                .call("GET", &format!("/api/games/{id}?page={lang}"), token, None)
                .await;
            leaks(&format!("{who}'s page document ({lang})"), &page.to_string());
            let (_, board) = app
                .raw("GET", &format!("/api/games/{id}/board.svg?lang={lang}"), token, vec![])
                .await;
            assert!(board.starts_with("<svg"), "{board:.100}");
            leaks(&format!("{who}'s board ({lang})"), &board);
        }
        let (_, list) = app.call("GET", "/api/games", token, None).await;
        leaks("the listing", &list.to_string());
        let (s, _) = app.call("GET", &format!("/api/games/{id}/record"), token, None).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{who}: the record stays closed");
    }
    // The Allied seat probing: the Central Powers' legal actions sent as its own, every card
    // number played, a click on every space with the Central Powers' armies, the preview.
    for l in mine["legal"].as_array().cloned().unwrap_or_default() {
        let (_, e) = app.act(&id, ap, json!({"action": l["action"]})).await;
        leaks("a refusal", &e.to_string());
    }
    for card in 1..=70 {
        let (_, e) = app.act(&id, ap, json!({"notation": format!("play {card} ops")})).await;
        leaks("a refusal", &e.to_string());
    }
    for space in ["koblenz", "metz", "tarnow", "insterberg"] {
        let (_, w) = app
            .call("GET", &format!("/api/games/{id}/why?hex={space}"), Some(ap), None)
            .await;
        leaks("an answer to a click", &w.to_string());
    }
    let (_, p) = app
        .call(
            "GET",
            &format!("/api/games/{id}/preview?index=0&version=0"),
            Some(ap),
            None,
        )
        .await;
    leaks("a preview", &p.to_string());
}

/// Issue 11 item 4: a log line says what it did on the map in typed marks (docs/api.md,
/// "marks"), the same in both languages' page forms and in the full document, so that a page
/// draws a move from where to where without reading the line.
#[tokio::test]
async fn log_lines_carry_their_marks_in_every_form() {
    let app = app();
    let (id, tokens) = app.create(3, json!({})).await;
    // Moves of the side deciding, until a unit has moved.
    let mut moved = None;
    for _ in 0..40 {
        let doc = app.state(&id, None).await;
        let Some(seat) = doc["pending"]["seat"].as_u64() else {
            break;
        };
        let token = tok(&tokens, doc["seats"][seat as usize]["id"].as_str().expect("a seat id"));
        let mine = app.state(&id, Some(token)).await;
        let legal = mine["legal"].as_array().expect("a list");
        let n = legal.iter().position(|a| a["kind"] == json!("move")).unwrap_or(0);
        let after = app.act_nth(&id, token, n).await;
        let lines = after["journal"].as_array().expect("the log");
        if let Some(i) = lines.iter().position(|l| l["marks"][0]["kind"] == json!("move")) {
            moved = Some((token.to_string(), i, lines[i].clone()));
            break;
        }
    }
    let (token, i, line) = moved.expect("a unit moved within 40 decisions");
    let mark = &line["marks"][0];
    for k in ["unit", "from", "to"] {
        assert!(mark[k].as_str().is_some_and(|s| !s.is_empty()), "{line}");
    }
    assert!(line["text"]["en"]
        .as_str()
        .is_some_and(|t| t.contains(mark["to"].as_str().unwrap_or("?"))));
    let (s, en) = app
        .call("GET", &format!("/api/games/{id}?page=en"), Some(&token), None)
        .await;
    assert_eq!(s, StatusCode::OK);
    let (_, zh) = app
        .call("GET", &format!("/api/games/{id}?page=zh"), Some(&token), None)
        .await;
    assert_eq!(en["journal"][i]["marks"], line["marks"]);
    assert_eq!(zh["journal"][i]["marks"], line["marks"]);
    assert_ne!(en["journal"][i]["text"], zh["journal"][i]["text"]);
    // A line that did nothing on the map carries no marks at all.
    let plain = en["journal"]
        .as_array()
        .expect("the log")
        .iter()
        .find(|l| l["marks"].is_null());
    assert!(plain.is_some(), "some lines have no marks");
}

/// The page form sends each legal action's text as the characters it shares with the text
/// before it (`same`) and the rest (docs/api.md): read whole again the way the page does, the
/// texts are the full document's, in each language, at each decision of a game.
#[tokio::test]
async fn page_form_texts_read_whole_again() {
    let app = app();
    let (id, tokens) = app.create(5, json!({})).await;
    let mut shortened = 0;
    for step in 0..30 {
        let doc = app.state(&id, None).await;
        let Some(seat) = doc["pending"]["seat"].as_u64() else {
            break;
        };
        let token = tok(&tokens, doc["seats"][seat as usize]["id"].as_str().expect("a seat id"));
        let full = app.state(&id, Some(token)).await;
        let full = full["legal"].as_array().expect("a list");
        for lang in ["en", "zh"] {
            let (_, page) = app
                .call("GET", &format!("/api/games/{id}?page={lang}"), Some(token), None)
                .await;
            let listed = page["legal"].as_array().expect("a list");
            assert_eq!(listed.len(), full.len());
            let mut before: Vec<u16> = Vec::new();
            for (a, whole) in listed.iter().zip(full) {
                let rest: Vec<u16> = a["text"].as_str().expect("a text").encode_utf16().collect();
                let same = a["same"].as_u64().unwrap_or(0) as usize;
                shortened += usize::from(same > 0);
                let mut text = before[..same].to_vec();
                text.extend(rest);
                assert_eq!(
                    String::from_utf16(&text).ok().as_deref(),
                    whole["text"][lang].as_str(),
                    "{a}"
                );
                before = text;
            }
        }
        app.act_nth(&id, token, step % full.len()).await;
    }
    assert!(shortened > 0, "some texts shared their start with the one before");
}

/// A long legal list goes to a page packed (docs/api.md, "packs"): on the Goose Egg's German
/// movement phase each unit's moves and each artillery unit's barrages are one entry, fetched
/// by `GET …/legal`; with the actions listed whole they are the full list, each at its place,
/// and an action of a pack is taken by that place.
#[tokio::test]
async fn a_long_list_comes_packed_and_each_pack_is_fetched_when_picked() {
    let app = app();
    let (id, tokens) = app
        .create_game(json!({"game": "ardennes-ii", "scenario": "goose-egg", "seed": 3, "hotseat": true}))
        .await;
    // Through the set-up by the last action of each list (end the phase, or the last place).
    let (doc, token) = 'found: {
        for _ in 0..40 {
            let seat = app.state(&id, None).await["pending"]["seat"]
                .as_u64()
                .expect("a seat decides");
            let token = tok(&tokens, ["german", "allied"][seat as usize]);
            let (_, doc) = app
                .call("GET", &format!("/api/games/{id}?page=en"), Some(token), None)
                .await;
            let legal = doc["legal"].as_array().expect("a list");
            if legal.iter().any(|e| e.get("pack").is_some()) {
                break 'found (doc, token);
            }
            let index = legal.len() - 1;
            let (status, after) = app
                .act(&id, token, json!({"index": index, "version": doc["version"]}))
                .await;
            assert_eq!(status, StatusCode::OK, "{after}");
        }
        panic!("no packed list in the Goose Egg's first turn");
    };
    let version = doc["version"].as_u64().expect("a version");
    let full = app.state(&id, Some(token)).await;
    let full = full["legal"].as_array().expect("the full list").clone();
    assert_eq!(doc["legal_count"].as_u64(), Some(full.len() as u64));
    assert!(full.len() >= 1000, "{} actions", full.len());
    let legal = doc["legal"].as_array().expect("a list");
    assert!(
        legal.len() * 4 < full.len(),
        "{} entries for {} actions",
        legal.len(),
        full.len()
    );
    let mut seen = vec![false; full.len()];
    let mut mark = |i: usize, text: &str, units: &Value| {
        assert!(!std::mem::replace(&mut seen[i], true), "action {i} twice");
        assert_eq!(full[i]["text"]["en"].as_str(), Some(text), "action {i}");
        // Left out when empty in the page form.
        let units = if units.is_null() { &json!([]) } else { units };
        assert_eq!(&full[i]["units"], units, "action {i}");
    };
    let mut packed = None;
    for e in legal {
        let Some(pack) = e["pack"].as_u64() else {
            let i = e["i"].as_u64().expect("a packed list's action says its place") as usize;
            mark(i, e["text"].as_str().expect("a text"), &e["units"]);
            continue;
        };
        let (status, part) = app
            .call(
                "GET",
                &format!("/api/games/{id}/legal?page=en&version={version}&pack={pack}"),
                Some(token),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{part}");
        let actions = part["legal"].as_array().expect("the pack's actions");
        assert_eq!(Some(actions.len() as u64), e["count"].as_u64(), "pack {pack}");
        let mut before: Vec<u16> = Vec::new();
        for a in actions {
            // Each the pack's counters', its text read whole as the page reads it.
            assert_eq!(a["units"], e["units"], "{a}");
            let mut text = before[..a["same"].as_u64().unwrap_or(0) as usize].to_vec();
            text.extend(a["text"].as_str().expect("a text").encode_utf16());
            let i = a["i"].as_u64().expect("a place") as usize;
            mark(i, &String::from_utf16(&text).expect("a text"), &a["units"]);
            before = text;
        }
        packed.get_or_insert((pack, actions[actions.len() / 2]["i"].as_u64().expect("a place")));
    }
    assert!(
        seen.iter().all(|&s| s),
        "every action is listed once, whole or in its pack"
    );
    let (pack, index) = packed.expect("a pack");
    // Asked for another version, or by the seat that does not decide: nothing.
    for (version, token) in [(version + 1, token), (version, tok(&tokens, "allied"))] {
        let uri = format!("/api/games/{id}/legal?page=en&version={version}&pack={pack}");
        let (status, part) = app.call("GET", &uri, Some(token), None).await;
        assert_eq!(
            (status, part["legal"].as_array().map(Vec::len)),
            (StatusCode::OK, Some(0)),
            "{part}"
        );
    }
    // Every action at once, in Chinese (what the page's filter reads).
    let (_, all) = app
        .call(
            "GET",
            &format!("/api/games/{id}/legal?page=zh&version={version}"),
            Some(token),
            None,
        )
        .await;
    assert_eq!(all["legal"].as_array().map(Vec::len), Some(full.len()));
    // An action of a pack is taken by its place.
    let (status, after) = app.act(&id, token, json!({"index": index, "version": version})).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let (unit, hex) = (&full[index as usize]["units"][0], &full[index as usize]["hexes"][0]);
    let view = app.state(&id, None).await["view"]["units"].clone();
    let moved = view.as_array().expect("units").iter().find(|u| &u["id"] == unit);
    assert_eq!(moved.map(|u| &u["loc"]), Some(hex), "{unit} moved to {hex}");
}

/// Rebuilds a page document's pieces layer from `pieces_delta` as the page does (docs/api.md).
fn rebuilt(old: &str, delta: &Value) -> String {
    let lines: Vec<&str> = old.split('\n').collect();
    let mut out: Vec<&str> = Vec::new();
    for step in delta["steps"].as_array().expect("steps") {
        match step {
            Value::String(line) => out.push(line),
            run => {
                let first = run[0].as_u64().expect("a first line") as usize;
                let n = run[1].as_u64().expect("a count") as usize;
                out.extend(&lines[first..first + n]);
            }
        }
    }
    out.join("\n")
}

/// A page that has the pieces layer of the version before receives only what changed, and
/// rebuilds the layer a fresh page receives whole; from a version the server no longer keeps,
/// the layer comes whole.
#[tokio::test]
async fn the_pieces_come_as_what_changed_since_the_layer_the_page_has() {
    let app = app();
    let (id, tokens) = app
        .create_game(json!({"game": "ardennes-ii", "scenario": "goose-egg", "seed": 3, "hotseat": true}))
        .await;
    let token = tok(&tokens, "german");
    let page = |from: Option<u64>| match from {
        Some(v) => format!("/api/games/{id}?page=en&pieces_from={v}"),
        None => format!("/api/games/{id}?page=en"),
    };
    let (_, first) = app.call("GET", &page(None), Some(token), None).await;
    let mut layer = first["pieces"].as_str().expect("the whole layer").to_string();
    let mut version = first["version"].as_u64().expect("a version");
    let mut deltas = 0;
    // The German set-up: each action places a unit.
    for _ in 0..6 {
        let (status, after) = app
            .call(
                "POST",
                &format!("/api/games/{id}/actions?page=en&pieces_from={version}"),
                Some(token),
                Some(json!({"index": 0, "version": version})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{after}");
        if after["pending"]["seat"] != json!(0) {
            break;
        }
        let delta = &after["pieces_delta"];
        assert_eq!(delta["from"].as_u64(), Some(version), "{after}");
        assert!(after.get("pieces").is_none());
        let next = rebuilt(&layer, delta);
        assert_ne!(next, layer, "a unit was placed");
        version = after["version"].as_u64().expect("a version");
        // As a page that never saw the game receives it.
        let (_, fresh) = app.call("GET", &page(None), Some(token), None).await;
        assert_eq!(fresh["pieces"].as_str(), Some(next.as_str()));
        assert!(delta.to_string().len() * 10 < next.len(), "what changed is small");
        layer = next;
        deltas += 1;
    }
    assert!(deltas > 0);
    // The version before is no longer kept: the layer comes whole.
    let (_, whole) = app.call("GET", &page(Some(version - 1)), Some(token), None).await;
    assert_eq!(whole["pieces"].as_str(), Some(layer.as_str()));
    assert!(whole.get("pieces_delta").is_none());
}

#[tokio::test]
async fn a_tournament_names_the_side_the_bid_gave_each_seat() {
    // Paths of Glory 5.6.1: the players bid for their sides; the seats list says who plays what.
    let app = app();
    let (id, tokens) = app
        .create_game(json!({"game": "paths-of-glory", "scenario": "limited-war-tournament", "seats": {}}))
        .await;
    let token = |seat: u64| tok(&tokens, if seat == 0 { "cp" } else { "ap" });
    let doc = app.state(&id, None).await;
    assert_eq!(
        doc["seats"][0]["side"]["en"], "Player 1, side not yet bid for",
        "{}",
        doc["seats"]
    );
    let high = doc["pending"]["seat"].as_u64().expect("the high roller bids");
    let (s, e) = app.act(&id, token(high), json!({"notation": "bid ap 1"})).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    let (s, e) = app.act(&id, token(1 - high), json!({"notation": "bid accept"})).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    let doc = app.state(&id, Some(token(high))).await;
    let n = high + 1;
    assert_eq!(
        doc["seats"][high as usize]["side"]["en"],
        format!("Player {n}, Allied Powers")
    );
    assert_eq!(
        doc["seats"][1 - high as usize]["side"]["zh"],
        format!("玩家{},同盟国", 2 - high)
    );
    let (s, page) = app
        .call("GET", &format!("/api/games/{id}?page=en"), Some(token(high)), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{page}");
    assert_eq!(
        page["seats"][high as usize]["side"],
        format!("Player {n}, Allied Powers")
    );
    // The list of games says it too (from what is stored with the game).
    let (s, list) = app.call("GET", "/api/games", None, None).await;
    assert_eq!(s, StatusCode::OK, "{list}");
    let listed = list
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["id"] == json!(id))
        .expect("listed");
    assert_eq!(
        listed["seats"][high as usize]["side"]["en"],
        format!("Player {n}, Allied Powers")
    );
    // A game whose seats are its sides names no side apart.
    let (other, _) = app.create(3, json!({})).await;
    let doc = app.state(&other, None).await;
    assert!(doc["seats"][0].get("side").is_none(), "{}", doc["seats"]);
    let (_, list) = app.call("GET", "/api/games", None, None).await;
    let listed = list
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["id"] == json!(other))
        .expect("listed");
    assert!(listed["seats"][0].get("side").is_none(), "{listed}");
}

#[tokio::test]
async fn the_combat_being_fought_is_in_every_document() {
    // Paths of Glory 12.2.1: while a combat's attackers are designated and its cards played,
    // every seat and a spectator read where it is fought and its forecast, in the page's
    // language too; before it, what is activated for combat.
    let app = app();
    let (id, tokens) = app
        .create_game(json!({"game": "paths-of-glory", "scenario": "campaign", "seats": {}}))
        .await;
    let (cp, ap) = (tok(&tokens, "cp"), tok(&tokens, "ap"));
    for notation in ["guns-of-august yes", "event 1"] {
        let (s, e) = app.act(&id, cp, json!({ "notation": notation })).await;
        assert_eq!(s, StatusCode::OK, "{e}");
    }
    // Choosing the combat (12.1): what Guns of August activated for combat, nothing attacked.
    assert_eq!(
        app.state(&id, None).await["context"][0]["en"],
        "Combat (12.1): activated for combat: Liege, Koblenz; attacked so far: none yet"
    );
    for notation in ["attack sedan", "join ge-army-1"] {
        let (s, e) = app.act(&id, cp, json!({ "notation": notation })).await;
        assert_eq!(s, StatusCode::OK, "{e}");
    }
    for token in [Some(cp), Some(ap), None] {
        let doc = app.state(&id, token).await;
        assert_eq!(
            doc["context"][0]["en"], "Combat at Sedan by the CP: designating the attackers (12.2.2)",
            "{}",
            doc["context"]
        );
        assert!(
            doc["context"].to_string().contains("Attacking: German 1st Army"),
            "{}",
            doc["context"]
        );
    }
    let (s, page) = app
        .call("GET", &format!("/api/games/{id}?page=zh"), Some(ap), None)
        .await;
    assert_eq!(s, StatusCode::OK, "{page}");
    assert_eq!(
        page["context"][0], "同盟国进攻色当:指定进攻部队(12.2.2)",
        "{}",
        page["context"]
    );
}

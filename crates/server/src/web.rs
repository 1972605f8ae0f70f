//! The browser client: the files of `web/`, compiled into the binary so that `sandtable serve`
//! needs nothing beside it. Every page path answers with the one page; its script (ES modules
//! under `/js/`, loaded by the browser itself, no build step) reads the path (`/` the lobby,
//! `/game/{id}` a game) and asks the API for the rest.
//!
//! The files are sent with `Cache-Control: no-cache` and an `ETag` of their content: a browser
//! keeps them and asks each time whether they changed, so a new build is picked up at once and
//! an unchanged file costs a `304`.

use axum::extract::Path;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::OnceLock;

const INDEX_HTML: &str = include_str!("../../../web/index.html");
const STYLE_CSS: &str = include_str!("../../../web/style.css");

/// The page's modules, by file name under `/js/`.
const SCRIPTS: &[(&str, &str)] = &[
    ("main.js", include_str!("../../../web/js/main.js")),
    ("words.js", include_str!("../../../web/js/words.js")),
    ("util.js", include_str!("../../../web/js/util.js")),
    ("lobby.js", include_str!("../../../web/js/lobby.js")),
    ("board.js", include_str!("../../../web/js/board.js")),
    ("game.js", include_str!("../../../web/js/game.js")),
];

/// A strong tag of a file's content (FNV-1a, 64 bits), worked out once per file.
fn tag(body: &'static str, cell: &'static OnceLock<String>) -> &'static str {
    cell.get_or_init(|| {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in body.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        format!("\"{h:016x}\"")
    })
}

fn file(headers: &HeaderMap, kind: &'static str, body: &'static str, cell: &'static OnceLock<String>) -> Response {
    let etag = tag(body, cell);
    let cached = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let head = [(header::CACHE_CONTROL, "no-cache"), (header::ETAG, etag)];
    if cached {
        return (StatusCode::NOT_MODIFIED, head).into_response();
    }
    (head, [(header::CONTENT_TYPE, kind)], body).into_response()
}

pub async fn index(headers: HeaderMap) -> Response {
    static TAG: OnceLock<String> = OnceLock::new();
    file(&headers, "text/html; charset=utf-8", INDEX_HTML, &TAG)
}

pub async fn style_css(headers: HeaderMap) -> Response {
    static TAG: OnceLock<String> = OnceLock::new();
    file(&headers, "text/css; charset=utf-8", STYLE_CSS, &TAG)
}

/// One of the page's modules.
pub async fn script(Path(name): Path<String>, headers: HeaderMap) -> Response {
    static TAGS: [OnceLock<String>; SCRIPTS.len()] = [const { OnceLock::new() }; SCRIPTS.len()];
    match SCRIPTS.iter().position(|(n, _)| *n == name) {
        Some(i) => file(&headers, "text/javascript; charset=utf-8", SCRIPTS[i].1, &TAGS[i]),
        None => not_found().await,
    }
}

pub async fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "Not found. 页面不存在。 Sandtable: /",
    )
        .into_response()
}

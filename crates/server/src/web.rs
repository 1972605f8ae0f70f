//! The browser client: three files from `web/`, compiled into the binary so that
//! `sandtable serve` needs nothing beside it. Every page path answers with the one page; the
//! script reads the path (`/` the lobby, `/game/{id}` a game) and asks the API for the rest.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

const INDEX_HTML: &str = include_str!("../../../web/index.html");
const APP_JS: &str = include_str!("../../../web/app.js");
const STYLE_CSS: &str = include_str!("../../../web/style.css");

fn file(kind: &'static str, body: &'static str) -> Response {
    (
        [(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")],
        body,
    )
        .into_response()
}

pub async fn index() -> Response {
    file("text/html; charset=utf-8", INDEX_HTML)
}

pub async fn app_js() -> Response {
    file("text/javascript; charset=utf-8", APP_JS)
}

pub async fn style_css() -> Response {
    file("text/css; charset=utf-8", STYLE_CSS)
}

pub async fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "Not found. 页面不存在。 Sandtable: /",
    )
        .into_response()
}

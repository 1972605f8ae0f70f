//! Every refused request answers with an HTTP status and one JSON shape,
//! `{"error": {"code", "rule", "text": {"en", "zh"}}}` (docs/api.md), so a page or a script can
//! show the reason in the player's language and a program can branch on `code`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use sandtable_catalog::{record_error_text, CatalogError};
use sandtable_core::record::RecordError;
use sandtable_core::text;
use sandtable_core::text::Text;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    /// The rule number when a rule refused an action, else empty.
    pub rule: String,
    pub text: Text,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, text: Text) -> ApiError {
        ApiError {
            status,
            code,
            rule: String::new(),
            text,
        }
    }

    pub fn bad_request(text: Text) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad-request", text)
    }

    pub fn no_such_game(id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no-such-game",
            Text::new(
                format!("there is no game `{id}` on this server"),
                format!("本服务器上没有对局“{id}”"),
            ),
        )
    }

    pub fn no_token() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "no-token",
            text!(
                "acting needs the seat's token (the link you got when the game was created)",
                "行动需要座位的令牌(创建对局时得到的链接)"
            ),
        )
    }

    pub fn wrong_token() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "wrong-token",
            text!("this token is not a seat of this game", "该令牌不是本对局的座位"),
        )
    }

    pub fn storage(e: impl std::fmt::Display) -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "storage",
            Text::new(
                format!("the server could not store the game ({e}); nothing was changed"),
                format!("服务器无法保存对局({e});对局未作改变"),
            ),
        )
    }

    /// The database file was deleted, replaced or damaged while the server ran: no action is
    /// accepted until it is restarted.
    pub fn storage_lost(e: impl std::fmt::Display) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage-lost",
            Text::new(
                format!("the server can no longer store games ({e}); this action was not taken"),
                format!("服务器已无法保存对局({e});本次行动未执行"),
            ),
        )
    }

    /// A stored game that cannot be opened; its record is kept as it is.
    pub fn damaged(id: &str, why: &Text) -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "damaged-game",
            Text::new(
                format!("game {id} is damaged and cannot be played: {}. Its record is kept as it was; the server's log says more", why.en),
                format!("对局 {id} 已损坏,无法进行:{}。其记录原样保留;详见服务器日志", why.zh),
            ),
        )
    }

    /// An action the rules refused, or a step of a stored game that does not replay.
    pub fn from_record(e: RecordError) -> ApiError {
        match e {
            RecordError::Refused(r) => ApiError {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                code: "illegal-action",
                rule: r.rule,
                text: r.text,
            },
            RecordError::Undo(t) => ApiError::new(StatusCode::CONFLICT, "cannot-undo", t),
            other => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "corrupt-game",
                record_error_text(&other),
            ),
        }
    }

    pub fn from_catalog(e: CatalogError) -> ApiError {
        let e = match e {
            CatalogError::Record(r) => return ApiError::from_record(r),
            e => e,
        };
        let code = match &e {
            CatalogError::UnknownGame { .. } => "unknown-game",
            CatalogError::UnknownScenario { .. } => "unknown-scenario",
            CatalogError::UnknownSeat { .. } => "unknown-seat",
            CatalogError::UnknownAgent { .. } => "unknown-agent",
            _ => "bad-request",
        };
        ApiError::new(StatusCode::BAD_REQUEST, code, e.text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({
            "error": {"code": self.code, "rule": self.rule, "text": self.text}
        });
        (self.status, axum::Json(body)).into_response()
    }
}

//! The HTTP routes: the JSON API under `/api/` (docs/api.md) and the browser client's files.
//!
//! Handlers only read the request, call the [`Hub`] and shape the answer. What a seat sees
//! is cut here from what the game says that seat may see: its view, its log lines, its legal
//! actions (only while it must decide), the board's pieces as it may see them; the full
//! record only once the game is over. The map alone, the same for everyone all game long,
//! is served once per game and language for the browser to keep.

use crate::error::ApiError;
use crate::hub::{Hub, Live, Move, NewGame, Slot};
use crate::pieces;
use crate::web;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use sandtable_core::game::{ActionKind, JournalLine, Mark, Outcome, Pending, Seat};
use sandtable_core::record::{LegalAction, PageEntry, ScenarioSource};
use sandtable_core::text;
use sandtable_core::text::{Lang, Text};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::sync::Arc;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};

/// The largest request body read (an action is a few hundred bytes).
pub const BODY_LIMIT: usize = 64 * 1024;

/// The whole application: API, pages and files.
pub fn router(hub: Arc<Hub>) -> Router {
    let api = Router::new()
        .route("/catalog", get(catalog))
        .route("/games", get(list_games).post(create_game))
        .route("/games/{id}", get(game))
        .route("/games/{id}/board.svg", get(board))
        .route("/games/{id}/map.svg", get(map))
        .route("/games/{id}/actions", post(act))
        .route("/games/{id}/why", get(why))
        .route("/games/{id}/reach", get(reach))
        .route("/games/{id}/legal", get(legal))
        .route("/games/{id}/preview", get(preview))
        .route("/games/{id}/charts", get(charts))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/events", get(events))
        .route("/games/{id}/record", get(record))
        .fallback(api_not_found)
        .method_not_allowed_fallback(api_wrong_method);
    Router::new()
        .nest("/api", api)
        .route("/", get(web::index))
        .route("/game/{id}", get(web::index))
        .route("/style.css", get(web::style_css))
        .route("/js/{file}", get(web::script))
        .fallback(web::not_found)
        // Gzip at its fastest level: packing is most of the work of a large answer, and the
        // fastest level packs several times faster for a little more on the wire.
        .layer(tower_http::compression::CompressionLayer::new().quality(tower_http::CompressionLevel::Fastest))
        .layer(DefaultBodyLimit::disable())
        .with_state(hub)
}

async fn api_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not-found",
        text!(
            "no such API path (see docs/api.md)",
            "没有这个 API 路径(见 docs/api.md)"
        ),
    )
}

async fn api_wrong_method() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "wrong-method",
        text!(
            "this API path does not take that method (see docs/api.md)",
            "该 API 路径不接受此方法(见 docs/api.md)"
        ),
    )
}

/// Reads a request body of at most [`BODY_LIMIT`] bytes, which must come within `within`
/// (the same limit as for the headers), so a client cannot hold a connection by sending it
/// slowly.
async fn read_body(body: Body, within: std::time::Duration) -> Result<axum::body::Bytes, ApiError> {
    let read = tokio::time::timeout(within, axum::body::to_bytes(body, BODY_LIMIT)).await;
    let Ok(read) = read else {
        let secs = within.as_secs_f64();
        return Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "too-slow",
            Text::new(
                format!("the request body did not arrive within {secs} s"),
                format!("请求内容未在 {secs} 秒内送达"),
            ),
        ));
    };
    read.map_err(|_| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too-large",
            Text::new(
                format!("the request body is over {} KiB", BODY_LIMIT / 1024),
                format!("请求内容超过 {} KiB", BODY_LIMIT / 1024),
            ),
        )
    })
}

/// A request body as the JSON `T`.
fn parse_json<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| {
        ApiError::bad_request(Text::new(
            format!("the request is not the JSON expected: {e}"),
            format!("请求不是所需的 JSON:{e}"),
        ))
    })
}

/// Reads a JSON body ([`read_body`], [`parse_json`]).
async fn read_json<T: serde::de::DeserializeOwned>(hub: &Hub, body: Body) -> Result<T, ApiError> {
    parse_json(&read_body(body, hub.limits.header_timeout).await?)
}

#[derive(Deserialize, Default)]
struct Params {
    token: Option<String>,
    lang: Option<String>,
    /// Only the log lines from this one on (a page that has the earlier ones).
    journal_from: Option<usize>,
    /// `en` or `zh`: the document as the browser page takes it, in that language
    /// ([`PageDocument`]).
    page: Option<String>,
    /// `why`: the counters (ids, comma-separated) and the hex a player clicked.
    units: Option<String>,
    hex: Option<String>,
    /// `preview`: the action's place in the legal list of `version`.
    index: Option<usize>,
    version: Option<usize>,
    /// `legal`: the pack of the page form's list to send (all its actions when absent).
    pack: Option<usize>,
    /// The page form: the version whose pieces layer the page has, to receive the new one as
    /// what changed.
    pieces_from: Option<usize>,
}

/// The query string as [`Params`]; one that does not parse (`?journal_from=x`) is refused with
/// the API's JSON error, not the framework's plain text.
struct ApiQuery(Params);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ApiQuery {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &S) -> Result<Self, ApiError> {
        match Query::<Params>::from_request_parts(parts, state).await {
            Ok(Query(p)) => Ok(ApiQuery(p)),
            Err(e) => Err(ApiError::bad_request(Text::new(
                format!("the query string is not what this path takes: {}", e.body_text()),
                format!("查询参数不符合该路径的要求:{}", e.body_text()),
            ))),
        }
    }
}

/// `?lang=` (also `?page=`): `en` (the default) or `zh` (`zh-CN` and the like too); anything
/// else is refused.
fn language(value: Option<&str>) -> Result<Lang, ApiError> {
    let Some(value) = value else { return Ok(Lang::En) };
    Lang::parse(value).ok_or_else(|| {
        ApiError::bad_request(Text::new(
            format!("no language `{value}`: use en or zh"),
            format!("没有语言“{value}”:请用 en 或 zh"),
        ))
    })
}

impl Params {
    /// The counter ids of `units` (comma-separated; none when absent).
    fn unit_ids(&self) -> Vec<String> {
        self.units
            .as_deref()
            .unwrap_or("")
            .split(',')
            .filter(|u| !u.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// The language of the page form, if asked for.
    fn page(&self) -> Result<Option<Lang>, ApiError> {
        self.page.as_deref().map(|p| language(Some(p))).transpose()
    }
}

/// The token from `Authorization: Bearer …`, else from `?token=`.
fn token<'a>(headers: &'a HeaderMap, params: &'a Params) -> Option<&'a str> {
    let from_header = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    from_header.or(params.token.as_deref()).filter(|t| !t.is_empty())
}

async fn catalog() -> Json<Value> {
    Json(json!(sandtable_catalog::games()))
}

/// `GET /api/games?limit=N&offset=M`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ListParams {
    limit: Option<usize>,
    offset: Option<usize>,
}

async fn list_games(
    State(hub): State<Arc<Hub>>,
    query: Result<Query<ListParams>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(params) = query.map_err(|e| {
        ApiError::bad_request(Text::new(
            format!("the query string is not what this path takes: {}", e.body_text()),
            format!("查询参数不符合该路径的要求:{}", e.body_text()),
        ))
    })?;
    let limit = params.limit.unwrap_or(hub.limits.page);
    if limit == 0 || limit > hub.limits.max_page {
        return Err(ApiError::bad_request(Text::new(
            format!("`limit` is from 1 to {}", hub.limits.max_page),
            format!("`limit` 须在 1 到 {} 之间", hub.limits.max_page),
        )));
    }
    let offset = params.offset.unwrap_or(0);
    let rows = hub.page(limit, offset)?;
    // A database too damaged to count its games still lists those it can read.
    let total = hub.count().unwrap_or(offset + rows.len());
    let games: Vec<Value> = rows
        .iter()
        .map(|row| {
            let row = match row {
                Ok(row) => row,
                Err(u) => {
                    let text = Text::new(
                        format!("damaged, cannot be played: {}", u.why.en),
                        format!("已损坏,无法进行:{}", u.why.zh),
                    );
                    return json!({
                        "id": u.id, "game": "", "title": null, "scenario": null, "created": null,
                        "updated": null, "version": null, "seats": [], "pending": null, "over": false,
                        "summary": text, "damaged": text,
                    });
                }
            };
            let entry = sandtable_catalog::find(&row.game).ok();
            let seats: Vec<Value> = row
                .seats
                .iter()
                .map(|s| {
                    let (id, name) = entry
                        .as_ref()
                        .map(|e| (e.seat_id(s.seat), e.seat_name(s.seat)))
                        .unwrap_or_else(|| (s.seat.to_string(), Text::new(s.seat.to_string(), s.seat.to_string())));
                    // The side a bid gave the seat, where the game names it apart.
                    match row.snapshot.sides.get(s.seat as usize) {
                        Some(Some(side)) => json!({"id": id, "name": name, "side": side, "player": s.player}),
                        _ => json!({"id": id, "name": name, "player": s.player}),
                    }
                })
                .collect();
            json!({
                "id": row.id, "game": row.game, "title": entry.as_ref().map(|e| e.title.clone()),
                "scenario": scenario_info(entry.as_ref(), &row.scenario),
                "created": row.created, "updated": row.updated, "version": row.snapshot.version,
                "seats": seats, "pending": row.snapshot.pending, "over": row.snapshot.over,
                "summary": row.snapshot.summary, "dice": dice(row.seed_fixed),
            })
        })
        .collect();
    let mut headers = vec![(header::HeaderName::from_static("x-total-count"), total.to_string())];
    if offset.saturating_add(limit) < total {
        headers.push((
            header::HeaderName::from_static("x-next-offset"),
            (offset + limit).to_string(),
        ));
    }
    let mut res = Json(Value::Array(games)).into_response();
    for (k, v) in headers {
        if let Ok(v) = header::HeaderValue::from_str(&v) {
            res.headers_mut().insert(k, v);
        }
    }
    Ok(res)
}

fn scenario_info(entry: Option<&sandtable_catalog::GameEntry>, source: &ScenarioSource) -> Value {
    match source {
        ScenarioSource::Shipped(id) => entry
            .and_then(|e| e.scenario(Some(id)).ok())
            .map(|s| json!(s))
            .unwrap_or_else(|| json!({"id": id})),
        ScenarioSource::Text(_) => json!({
            "id": "custom",
            "name": match source.written_name() {
                Some(n) => Text::new(
                    format!("{} (written by a player)", n.en),
                    format!("{}(玩家编写的剧本)", n.zh),
                ),
                None => text!("a scenario written by a player", "玩家编写的剧本"),
            },
            "reconstructed": false,
            "note": Text::new("", ""),
        }),
    }
}

async fn create_game(State(hub): State<Arc<Hub>>, request: axum::extract::Request) -> Result<Response, ApiError> {
    // The client is its address (one for every request that comes without one: in-process).
    let client = request
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map_or_else(|| "local".to_string(), |c| c.0.ip().to_string());
    let req: NewGame = read_json(&hub, request.into_body()).await?;
    let created = hub.create(req, &client)?;
    let base = format!("/game/{}", created.id);
    let mut links = serde_json::Map::new();
    for (seat, token) in &created.tokens {
        links.insert(seat.clone(), json!(format!("{base}#t={token}")));
    }
    if created.tokens.len() > 1 {
        let all: Vec<&str> = created.tokens.values().map(String::as_str).collect();
        links.insert("hotseat".into(), json!(format!("{base}#t={}", all.join(","))));
    }
    links.insert("spectator".into(), json!(base));
    let body = json!({"id": created.id, "tokens": created.tokens, "links": links});
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// The game as one seat may see it (docs/api.md, `GET /api/games/{id}`).
#[derive(Serialize)]
pub struct Document {
    id: String,
    game: &'static str,
    title: Text,
    scenario: Value,
    seats: Vec<Value>,
    you: Option<Seat>,
    version: usize,
    pending: Pending,
    summary: Text,
    /// What the pending decision is about (a combat being fought), for everyone.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    context: Vec<Text>,
    outcome: Option<Outcome>,
    can_undo: bool,
    legal: Vec<LegalAction>,
    journal_from: usize,
    journal_total: usize,
    journal: Vec<JournalLine>,
    view: Value,
    /// The cards this seat holds (none for a spectator, or in a game without hands).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    hand: Vec<sandtable_core::game::HandCard>,
    /// Whether the dice follow a seed the creator chose ([`dice`]).
    dice: Value,
    /// Why a computer player's move waits (its write failed and is being tried again).
    #[serde(skip_serializing_if = "Option::is_none")]
    stalled: Option<Text>,
}

/// Where a game's dice come from, for every seat to see: a seed its creator chose (who may
/// then know every roll in advance) or the server's own random source. The seed itself is
/// never shown before the game is over.
fn dice(fixed: bool) -> Value {
    let text = if fixed {
        text!(
            "the dice follow a seed chosen by whoever created this game, who may know every roll in advance",
            "本局骰子按创建者指定的随机种子产生,创建者可能预知每次掷骰"
        )
    } else {
        text!(
            "the dice come from the server's random source: nobody can know them in advance",
            "本局骰子由服务器随机产生,任何人都无法预知"
        )
    };
    json!({"fixed": fixed, "text": text})
}

/// The game as `you` may see it, with the log lines from `journal_from` on.
pub fn document(slot: &Slot, live: &Live, you: Option<Seat>, journal_from: usize) -> Document {
    let s = &*live.session;
    let entry = &slot.entry;
    let pending = s.pending();
    let deciding = matches!(pending, Pending::Seat(p) if Some(p) == you);
    let mut journal = s.journal(you);
    let journal_total = journal.len();
    let journal_from = journal_from.min(journal_total);
    Document {
        id: slot.id.clone(),
        game: entry.id,
        title: entry.title.clone(),
        scenario: scenario_info(Some(entry), &live.row.scenario),
        seats: entry
            .seats
            .iter()
            .enumerate()
            .map(|(i, info)| {
                let mut seat = json!({"id": info.id, "name": info.name, "player": live.player(i as Seat)});
                // The side the seat plays, where its name does not say (a bid decided it).
                if let Some(side) = s.seat_side(i as Seat) {
                    seat["side"] = json!(side);
                }
                seat
            })
            .collect(),
        you,
        version: live.version(),
        pending,
        summary: Text::new(s.summary(you, Lang::En), s.summary(you, Lang::Zh)),
        context: s.context(),
        outcome: s.outcome(),
        can_undo: you.is_some_and(|seat| s.can_undo(seat)),
        legal: if deciding { s.legal() } else { Vec::new() },
        journal_from,
        journal_total,
        journal: journal.split_off(journal_from),
        view: s.view(you),
        hand: you.map(|seat| s.hand(seat)).unwrap_or_default(),
        dice: dice(live.row.seed_fixed),
        stalled: slot.stalled.lock().unwrap_or_else(|p| p.into_inner()).clone(),
    }
}

/// One legal action as a page takes it: the words in the page's language, what it is about on
/// the board, its heading (an index into the document's `groups`). Empty lists, a missing
/// note, `kind: other` and `secret: false` are left out. Written out from the game's own list
/// ([`PageLegal`]), borrowing its strings.
#[derive(Serialize)]
struct PageAction<'a> {
    /// Its place in the whole legal list, given only where the list is packed (else its place
    /// in `legal`).
    #[serde(skip_serializing_if = "Option::is_none")]
    i: Option<usize>,
    /// How many characters (UTF-16 code units, as a page's strings count them) the text shares
    /// at its start with the text of the action before it, left out when none; `text` is then
    /// the rest. A list of thousands of moves says "Move <the same unit> to" in each.
    #[serde(skip_serializing_if = "is_zero")]
    same: usize,
    text: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    units: &'a [String],
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    hexes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    #[serde(skip_serializing_if = "is_other")]
    kind: ActionKind,
    group: usize,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    secret: bool,
    /// The card of the seat's hand it uses (`hand`).
    #[serde(skip_serializing_if = "Option::is_none")]
    card: Option<&'a str>,
}

/// The actions of one counter or stack as one entry of a packed list: fetched by `pack` from
/// `GET …/legal` when the page's player picks those counters.
#[derive(Serialize)]
struct PagePack<'a> {
    pack: usize,
    count: usize,
    units: &'a [String],
    #[serde(skip_serializing_if = "is_other")]
    kind: ActionKind,
    group: usize,
}

/// A legal list this long goes to a page packed: the moves of each counter or stack as one
/// entry, fetched when picked ([`DynSession::page_legal`]). Shorter ones go whole, so that a
/// page lights a counter's hexes with no second request.
pub const PACK_FROM: usize = 1000;

/// The legal list of the page form: the game's list in the page's language with each action's
/// heading found, written out as [`PageAction`]s and [`PagePack`]s without copying it.
pub struct PageLegal {
    entries: Vec<PageEntry>,
    /// Each entry's heading, an index into the document's `groups`.
    groups: Vec<usize>,
    /// Whether the list is packed, or a part of one: every action then says its place.
    placed: bool,
    lang: Lang,
}

impl PageLegal {
    /// The list and the headings it uses, in order of first use.
    fn new(entries: Vec<PageEntry>, placed: bool, lang: Lang) -> (PageLegal, Vec<String>) {
        let mut headings: Vec<String> = Vec::new();
        let mut last = usize::MAX;
        let groups = entries
            .iter()
            .map(|e| {
                let targets = match e {
                    PageEntry::Action { choice, .. } => &choice.targets,
                    PageEntry::Pack(p) => &p.targets,
                };
                let heading = targets.group.get(lang);
                // Actions come in runs under one heading: the one before first.
                if headings.get(last).is_some_and(|g| g == heading) {
                    return last;
                }
                last = match headings.iter().position(|g| g == heading) {
                    Some(i) => i,
                    None => {
                        headings.push(heading.to_string());
                        headings.len() - 1
                    }
                };
                last
            })
            .collect();
        let placed = placed || entries.iter().any(|e| matches!(e, PageEntry::Pack(_)));
        (
            PageLegal {
                entries,
                groups,
                placed,
                lang,
            },
            headings,
        )
    }

    /// How many legal actions the list stands for, packed ones included.
    fn count(&self) -> usize {
        self.entries
            .iter()
            .map(|e| match e {
                PageEntry::Action { .. } => 1,
                PageEntry::Pack(p) => p.count,
            })
            .sum()
    }
}

impl Serialize for PageLegal {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.entries.len()))?;
        let mut before = "";
        for (e, &group) in self.entries.iter().zip(&self.groups) {
            match e {
                PageEntry::Action { index, choice: c } => {
                    let (same, text) = after(before, &c.text);
                    before = &c.text;
                    seq.serialize_element(&PageAction {
                        i: self.placed.then_some(*index),
                        same,
                        text,
                        units: &c.targets.units,
                        hexes: &c.targets.hexes,
                        note: c.targets.note.as_ref().map(|n| n.get(self.lang)),
                        kind: c.targets.kind,
                        group,
                        secret: c.secret,
                        card: c.targets.card.as_deref(),
                    })?;
                }
                PageEntry::Pack(p) => seq.serialize_element(&PagePack {
                    pack: p.pack,
                    count: p.count,
                    units: &p.targets.units,
                    kind: p.targets.kind,
                    group,
                })?,
            }
        }
        seq.end()
    }
}

fn is_other(kind: &ActionKind) -> bool {
    *kind == ActionKind::Other
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The text of an action after one whose text was `before`, as the page form sends it: the
/// number of UTF-16 code units the two share at their start and the rest, or `(0, text)` when
/// they share fewer than eight (too few to be worth the field).
fn after<'a>(before: &str, text: &'a str) -> (usize, &'a str) {
    let mut bytes = before
        .bytes()
        .zip(text.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(before.len().min(text.len()));
    while !text.is_char_boundary(bytes) {
        bytes -= 1;
    }
    let shared = &text[..bytes];
    let units = if shared.is_ascii() {
        bytes
    } else {
        shared.encode_utf16().count()
    };
    if units < 8 {
        (0, text)
    } else {
        (units, &text[bytes..])
    }
}

/// A log line in the page's language.
#[derive(Serialize)]
pub struct PageLine {
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    heading: bool,
    text: String,
    /// What the line did on the board (docs/api.md, "marks").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    marks: Vec<Mark>,
}

/// The game as one seat's page takes it (`?page=en|zh`, docs/api.md): every text in one
/// language, the legal list light (the page takes an action by its place in the list and the
/// version), and the board's pieces for the map the page keeps, in place of the game's own
/// view (the pieces carry what the page shows of the units).
#[derive(Serialize)]
pub struct PageDocument {
    id: String,
    game: &'static str,
    lang: Lang,
    title: String,
    scenario: Value,
    seats: Vec<Value>,
    you: Option<Seat>,
    version: usize,
    pending: Pending,
    summary: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    context: Vec<String>,
    outcome: Option<Value>,
    can_undo: bool,
    /// How many actions are legal: more than `legal` has entries when it is packed.
    legal_count: usize,
    legal: PageLegal,
    groups: Vec<String>,
    journal_from: usize,
    journal_total: usize,
    journal: Vec<PageLine>,
    /// The `<g class="pieces">` of the board as this seat may see it (docs/api.md, `map.svg`),
    /// or `pieces_delta`: how to make it from the layer of an earlier version.
    #[serde(flatten)]
    pieces: PagePieces,
    /// The cards this seat holds (none for a spectator, or in a game without hands).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    hand: Vec<Value>,
    dice: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    stalled: Option<String>,
}

/// The pieces layer of a page document: `"pieces": "<g …>"` whole, or `"pieces_delta": {"from":
/// V, "steps": […]}`, each step a run `[first, count]` of the lines of version V's layer or a
/// new line (docs/api.md).
pub struct PagePieces(pieces::Pieces);

impl Serialize for PagePieces {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        match &self.0 {
            pieces::Pieces::Whole(text) => map.serialize_entry("pieces", &**text)?,
            pieces::Pieces::Delta { from, steps } => {
                map.serialize_entry("pieces_delta", &json!({"from": from, "steps": steps}))?
            }
        }
        map.end()
    }
}

/// `value` with every `{"en": …, "zh": …}` in it replaced by the text in `lang`.
fn in_lang(value: Value, lang: Lang) -> Value {
    match value {
        Value::Object(map) => {
            let is_text = map.len() == 2
                && map.get("en").is_some_and(Value::is_string)
                && map.get("zh").is_some_and(Value::is_string);
            if is_text {
                let key = if lang == Lang::Zh { "zh" } else { "en" };
                return map.get(key).cloned().unwrap_or(Value::Null);
            }
            Value::Object(map.into_iter().map(|(k, v)| (k, in_lang(v, lang))).collect())
        }
        Value::Array(list) => Value::Array(list.into_iter().map(|v| in_lang(v, lang)).collect()),
        other => other,
    }
}

/// The game as `you`'s page in `lang` takes it, with the log lines from `journal_from` on.
pub fn page_document(
    slot: &Slot,
    live: &Live,
    you: Option<Seat>,
    journal_from: usize,
    lang: Lang,
    pieces_from: Option<usize>,
) -> PageDocument {
    let s = &*live.session;
    let entry = &slot.entry;
    let pending = s.pending();
    let deciding = matches!(pending, Pending::Seat(p) if Some(p) == you);
    let entries = if deciding {
        s.page_legal(lang, PACK_FROM)
    } else {
        Vec::new()
    };
    let (legal, groups) = PageLegal::new(entries, false, lang);
    let journal = s.journal(you);
    let journal_total = journal.len();
    let journal_from = journal_from.min(journal_total);
    PageDocument {
        id: slot.id.clone(),
        game: entry.id,
        lang,
        title: entry.title.get(lang).to_string(),
        scenario: in_lang(scenario_info(Some(entry), &live.row.scenario), lang),
        seats: entry
            .seats
            .iter()
            .enumerate()
            .map(|(i, info)| {
                let mut seat = json!({"id": info.id, "name": info.name.get(lang), "player": live.player(i as Seat)});
                if let Some(side) = s.seat_side(i as Seat) {
                    seat["side"] = json!(side.get(lang));
                }
                seat
            })
            .collect(),
        you,
        version: live.version(),
        pending,
        summary: s.summary(you, lang),
        context: s.context().into_iter().map(|t| t.get(lang).to_string()).collect(),
        outcome: s
            .outcome()
            .map(|o| json!({"winner": o.winner, "text": o.text.get(lang)})),
        can_undo: you.is_some_and(|seat| s.can_undo(seat)),
        legal_count: legal.count(),
        legal,
        groups,
        journal_from,
        journal_total,
        journal: journal
            .into_iter()
            .skip(journal_from)
            .map(|l| PageLine {
                heading: l.heading,
                text: l.text.get(lang).to_string(),
                marks: l.marks,
            })
            .collect(),
        pieces: PagePieces(pieces::for_page(
            &slot.pieces,
            live.version(),
            you,
            lang,
            s.render_pieces(you, lang),
            pieces_from,
        )),
        hand: you
            .map(|seat| s.hand(seat))
            .unwrap_or_default()
            .into_iter()
            .map(|c| in_lang(json!(c), lang))
            .collect(),
        dice: in_lang(dice(live.row.seed_fixed), lang),
        stalled: slot
            .stalled
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(|t| t.get(lang).to_string()),
    }
}

/// A game document in the form the request asked for.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Answer {
    Full(Box<Document>),
    Page(Box<PageDocument>),
    Part(Box<LegalPart>),
}

impl IntoResponse for Answer {
    /// JSON written into one growing buffer: a document with a legal list of thousands of
    /// actions is written in some hundred thousand small pieces.
    fn into_response(self) -> Response {
        let mut body = Vec::with_capacity(1 << 16);
        match serde_json::to_writer(&mut body, &self) {
            Ok(()) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
            Err(e) => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                text!("the game could not be written out: {e}", "无法写出这局游戏:{e}"),
            )
            .into_response(),
        }
    }
}

/// The game as `you` may see it, in the form `params` asks for.
fn answer(slot: &Slot, live: &Live, you: Option<Seat>, params: &Params) -> Result<Answer, ApiError> {
    let from = params.journal_from.unwrap_or(0);
    Ok(match params.page()? {
        Some(lang) => Answer::Page(Box::new(page_document(slot, live, you, from, lang, params.pieces_from))),
        None => Answer::Full(Box::new(document(slot, live, you, from))),
    })
}

async fn game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ApiQuery(params): ApiQuery,
    headers: HeaderMap,
) -> Result<Answer, ApiError> {
    let slot = hub.slot(&id)?;
    let you = hub.seat_of(&id, token(&headers, &params))?;
    params.page()?;
    let live = slot.live.lock().await;
    answer(&slot, &live, you, &params)
}

async fn board(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ApiQuery(params): ApiQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let slot = hub.slot(&id)?;
    let you = hub.seat_of(&id, token(&headers, &params))?;
    let lang = language(params.lang.as_deref())?;
    let svg = slot.live.lock().await.session.render_svg(you, lang);
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        svg,
    )
        .into_response())
}

/// The map alone (`GET /api/games/{id}/map.svg?lang=en|zh`): the same for every seat all
/// game long, so it may be kept for good; its tag names the game, its data's edition, the
/// language and this build.
async fn map(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ApiQuery(params): ApiQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let slot = hub.slot(&id)?;
    let lang = language(params.lang.as_deref())?;
    let edition = slot.live.lock().await.row.edition.clone();
    let etag = format!(
        "\"{}-{}-{}-{}\"",
        slot.id,
        edition,
        if lang == Lang::Zh { "zh" } else { "en" },
        env!("CARGO_PKG_VERSION")
    );
    let cache = [
        (header::ETAG, etag.clone()),
        (header::CACHE_CONTROL, "public, max-age=31536000, immutable".to_string()),
    ];
    let known = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    if known {
        return Ok((StatusCode::NOT_MODIFIED, cache).into_response());
    }
    let cell = &slot.maps[if lang == Lang::Zh { 1 } else { 0 }];
    let svg = match cell.get() {
        Some(svg) => svg.clone(),
        None => {
            let drawn: Arc<str> = slot.live.lock().await.session.render_map(lang).into();
            cell.get_or_init(|| drawn).clone()
        }
    };
    if svg.is_empty() {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no-map",
            text!("this game draws no map", "该游戏没有地图"),
        ));
    }
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8".to_string())],
        cache,
        svg.to_string(),
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActRequest {
    #[serde(default)]
    action: Option<Value>,
    #[serde(default)]
    notation: Option<String>,
    /// The action's place (from 0) in the legal list of `version`, which must be given.
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    version: Option<usize>,
}

async fn act(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ApiQuery(params): ApiQuery,
    headers: HeaderMap,
    body: Body,
) -> Result<Answer, ApiError> {
    // The game first, so an unknown game is a 404 whatever the body holds.
    hub.slot(&id)?;
    params.page()?;
    let req: ActRequest = read_json(&hub, body).await?;
    let action = match (req.action, req.notation, req.index) {
        (Some(a), None, None) => Move::Json(a),
        (None, Some(n), None) => Move::Notation(n),
        (None, None, Some(i)) if req.version.is_some() => Move::Index(i),
        (None, None, Some(_)) => {
            return Err(ApiError::bad_request(text!(
                "an action given by `index` needs the `version` of the list it was taken from",
                "用 `index` 给出的行动需要附上其列表所属的 `version`"
            )))
        }
        _ => {
            return Err(ApiError::bad_request(text!(
                "give one of `action` (from the legal list), `notation` or `index`",
                "请给出 `action`(取自合法行动列表)、`notation` 或 `index` 之一"
            )))
        }
    };
    let (slot, seat) = hub.act(&id, token(&headers, &params), action, req.version).await?;
    let live = slot.live.lock().await;
    answer(&slot, &live, Some(seat), &params)
}

/// Why the caller's seat may not take these counters to that hex now
/// (`GET /api/games/{id}/why?units=A,B&hex=H`, docs/api.md): the game's refusal with its rule,
/// or `null` when nothing of that shape is asked of the seat.
async fn why(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ApiQuery(params): ApiQuery,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let slot = hub.slot(&id)?;
    let you = hub.seat_of(&id, token(&headers, &params))?;
    let units = params.unit_ids();
    let hex = params.hex.as_deref().unwrap_or("");
    let live = slot.live.lock().await;
    let refusal = match (you, live.session.pending()) {
        (Some(seat), Pending::Seat(p)) if p == seat && !hex.is_empty() => live.session.why_not(seat, &units, hex),
        _ => None,
    };
    Ok(Json(json!({
        "refusal": refusal.map(|r| json!({"rule": r.rule, "text": r.text}))
    })))
}

/// The actions the caller's seat may take now about exactly the counters `units`, which the
/// legal list offers only with more counters (part of a stack moving together;
/// `GET /api/games/{id}/reach?units=A,B`, docs/api.md): `{"version": V, "actions": […]}`, each
/// as a legal action is listed with its `action` to send back. Empty when the caller does not
/// decide now.
async fn reach(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ApiQuery(params): ApiQuery,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let slot = hub.slot(&id)?;
    let you = hub.seat_of(&id, token(&headers, &params))?;
    let units = params.unit_ids();
    let live = slot.live.lock().await;
    let actions = match (you, live.session.pending()) {
        (Some(seat), Pending::Seat(p)) if p == seat => live.session.reach(seat, &units),
        _ => Vec::new(),
    };
    Ok(Json(json!({"version": live.version(), "actions": actions})))
}

/// The actions of one pack of the page form's legal list of `version`, or all of them
/// (`GET /api/games/{id}/legal?page=en&version=V&pack=N`, docs/api.md): `{"version", "legal",
/// "groups"}`, each action as the page form lists it with its place `i`. Empty when the caller
/// does not decide now or the game has moved on from `V`.
async fn legal(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ApiQuery(params): ApiQuery,
    headers: HeaderMap,
) -> Result<Answer, ApiError> {
    let slot = hub.slot(&id)?;
    let lang = params.page()?.unwrap_or(Lang::En);
    let you = hub.seat_of(&id, token(&headers, &params))?;
    let live = slot.live.lock().await;
    let version = live.version();
    let entries = match (you, live.session.pending()) {
        (Some(seat), Pending::Seat(p)) if p == seat && params.version == Some(version) => live
            .session
            .page_pack(lang, PACK_FROM, params.pack)
            .into_iter()
            .map(|(index, choice)| PageEntry::Action { index, choice })
            .collect(),
        _ => Vec::new(),
    };
    let (legal, groups) = PageLegal::new(entries, true, lang);
    Ok(Answer::Part(Box::new(LegalPart { version, legal, groups })))
}

/// A part of the page form's legal list ([`legal`]).
#[derive(Serialize)]
pub struct LegalPart {
    version: usize,
    legal: PageLegal,
    groups: Vec<String>,
}

/// What to read before committing the caller's legal action at `index` of the list of
/// `version` (`GET /api/games/{id}/preview?index=I&version=V`, docs/api.md): `{"lines": […]}`,
/// empty when the game has nothing to add, the caller does not decide or the list has changed.
async fn preview(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ApiQuery(params): ApiQuery,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let slot = hub.slot(&id)?;
    let you = hub.seat_of(&id, token(&headers, &params))?;
    let live = slot.live.lock().await;
    let lines = match (you, live.session.pending(), params.index) {
        (Some(seat), Pending::Seat(p), Some(i)) if p == seat && params.version == Some(live.version()) => {
            live.session.preview(i)
        }
        _ => Vec::new(),
    };
    Ok(Json(json!({ "lines": lines })))
}

/// The game's charts from its own data (`GET /api/games/{id}/charts`, docs/api.md): the same
/// for every seat.
async fn charts(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let slot = hub.slot(&id)?;
    let live = slot.live.lock().await;
    Ok(Json(json!({ "charts": live.session.charts() })))
}

/// `POST /api/games/{id}/undo`: an empty body, or `{"version": N}`, the version the undo
/// takes back from (refused as `stale` if the game has moved on, so an undo sent twice takes
/// back one step, not two).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    #[serde(default)]
    version: Option<usize>,
}

async fn undo(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ApiQuery(params): ApiQuery,
    headers: HeaderMap,
    body: Body,
) -> Result<Answer, ApiError> {
    hub.slot(&id)?;
    params.page()?;
    let bytes = read_body(body, hub.limits.header_timeout).await?;
    let req: UndoRequest = if bytes.iter().all(u8::is_ascii_whitespace) {
        UndoRequest::default()
    } else {
        parse_json(&bytes)?
    };
    let (slot, seat) = hub.undo(&id, token(&headers, &params), req.version).await?;
    let live = slot.live.lock().await;
    answer(&slot, &live, Some(seat), &params)
}

async fn events(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let slot = hub.slot(&id)?;
    let rx = slot.updates.subscribe();
    let now = slot.live.lock().await.version();
    let update = |v: Option<usize>| {
        Ok(Event::default()
            .event("update")
            .data(json!({ "version": v }).to_string()))
    };
    // A page that fell behind (`Lagged`) gets an update without a version: it looks again.
    let later = BroadcastStream::new(rx).map(move |r| update(r.ok()));
    // The stream ends when the server stops, or it would wait for the page forever.
    let closing = tokio_stream::wrappers::WatchStream::new(hub.closing())
        .filter(|c| *c)
        .map(|_| None);
    let stream = tokio_stream::once(update(Some(now)))
        .chain(later)
        .map(Some)
        .merge(closing)
        .take_while(Option::is_some)
        .filter_map(|e| e);
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

async fn record(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let slot = hub.slot(&id)?;
    let live = slot.live.lock().await;
    if live.session.pending() != Pending::Over {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "replay-closed",
            text!(
                "the full record opens when the game is over (it holds secret choices)",
                "完整记录在对局结束后开放(其中含有秘密选择)"
            ),
        ));
    }
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"sandtable-game.json\"",
            ),
        ],
        live.session.to_json(),
    )
        .into_response())
}

//! The games being played: each held in memory once opened, behind its own lock, with a
//! channel that tells every open page when it changed.
//!
//! Every change to a game goes through here, in the same order: take the game's lock, check
//! who is asking (the seat's token) and whether it is that seat's decision, let the rules
//! check and apply the action (they refuse anything not legal, citing the rule), write the new
//! steps to the database in one transaction, tell the pages. Two requests on one game are
//! thus served one after the other; requests on different games do not wait for each other.
//! If the database refuses the write, the game in memory is rebuilt from the database, so
//! memory never runs ahead of what is stored. Computer seats move in a task of their own,
//! one step per turn of the lock, so a person's request is never stuck behind a whole
//! computer turn.

use crate::error::ApiError;
use crate::store::{GameRow, SeatRow, Snapshot, Store, StoreError, Unreadable};
use axum::http::StatusCode;
use sandtable_catalog::{agent_seed, DynAgent, GameEntry};
use sandtable_core::chance::Rng;
use sandtable_core::game::{Pending, Seat};
use sandtable_core::record::{DynSession, Entry, RecordError, ScenarioSource};
use sandtable_core::text;
use sandtable_core::text::{Lang, Text};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::broadcast;

/// A game open in memory.
pub struct Slot {
    pub id: String,
    pub entry: GameEntry,
    pub live: tokio::sync::Mutex<Live>,
    /// The game's version after each change, for the pages listening.
    pub updates: broadcast::Sender<usize>,
    /// The map alone per language (English, Chinese), drawn once when first asked for: it is
    /// the same all game long.
    pub maps: [std::sync::OnceLock<Arc<str>>; 2],
    /// Set while a computer player's move waits to be stored (the database refused the
    /// write and it is being tried again): why, for the pages to say.
    pub stalled: Mutex<Option<Text>>,
    /// The pieces layer last sent for each seat's view and language, for sending the next one
    /// as what changed.
    pub(crate) pieces: Mutex<Vec<crate::pieces::Kept>>,
    /// When it was last asked for, to let idle games go from memory ([`Hub::evict`]).
    used: Mutex<std::time::Instant>,
}

/// What the server allows, so that no client can take it all (docs/api.md, "Limits").
#[derive(Clone, Debug)]
pub struct Limits {
    /// Games a listing answers when `limit` is not given, and at most.
    pub page: usize,
    pub max_page: usize,
    /// Games one client (one address) may create in `window`…
    pub games_per_client: usize,
    /// …of which this many with no human seat (they play on by themselves).
    pub computer_games_per_client: usize,
    pub window: std::time::Duration,
    /// Games kept in memory at most; beyond, those idle longest are let go (they stay in the
    /// database and are opened again when asked for).
    pub open_games: usize,
    /// A game nobody has asked for in this long is let go from memory.
    pub idle: std::time::Duration,
    /// A connection must send a request's headers within this long (also while it waits
    /// between requests), or it is closed.
    pub header_timeout: std::time::Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            page: 50,
            max_page: 200,
            games_per_client: 30,
            computer_games_per_client: 3,
            window: std::time::Duration::from_secs(3600),
            open_games: 200,
            idle: std::time::Duration::from_secs(30 * 60),
            header_timeout: std::time::Duration::from_secs(30),
        }
    }
}

/// A game's session and stored header, changed only under the slot's lock.
pub struct Live {
    pub session: Box<dyn DynSession>,
    pub row: GameRow,
    /// The computer players of this game, made when first asked to move and kept for the rest
    /// of the game, so that what each has worked out carries over (lost on a restart, which
    /// changes nothing in the record).
    pub agents: Vec<(Seat, Box<dyn DynAgent>)>,
}

impl Live {
    /// The game's version: grows with every change (an action, a roll, an undo) and never
    /// goes back, so a page can tell the newer of two answers. Stored with the game; for a
    /// game never undone it is the number of steps in the record.
    pub fn version(&self) -> usize {
        self.row.snapshot.version
    }

    /// The number of steps in the record.
    pub fn steps(&self) -> usize {
        self.session.record().entries.len()
    }

    /// Who plays `seat`: `human` or an agent's name.
    pub fn player(&self, seat: Seat) -> &str {
        self.row
            .seats
            .iter()
            .find(|s| s.seat == seat)
            .map_or("human", |s| s.player.as_str())
    }
}

/// An action as a request gives it.
#[derive(Debug)]
pub enum Move {
    /// The `action` field of one of the legal actions.
    Json(serde_json::Value),
    /// Its notation, as `sandtable legal` prints it.
    Notation(String),
    /// Its place (from 0) in the legal list of the version the request names.
    Index(usize),
}

/// `POST /api/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub game: String,
    #[serde(default)]
    pub scenario: Option<String>,
    /// A scenario file a player wrote (docs/formats.md), whole, in place of `scenario`.
    #[serde(default)]
    pub scenario_file: Option<String>,
    #[serde(default)]
    pub seed: Option<u64>,
    /// Seat id → `human` or an agent's name; seats left out are human.
    #[serde(default)]
    pub seats: BTreeMap<String, String>,
    /// One person plays every human seat at one screen: a `seed` may then be given even with
    /// two human seats (the game is marked as having fixed dice).
    #[serde(default)]
    pub hotseat: bool,
}

/// A game just created: its id and the human seats' tokens by seat id.
pub struct Created {
    pub id: String,
    pub tokens: BTreeMap<String, String>,
}

pub struct Hub {
    store: Mutex<Store>,
    slots: Mutex<HashMap<String, Arc<Slot>>>,
    /// Games that could not be opened (a record that does not replay, a row that does not
    /// read), with why: each answers `damaged-game` and keeps its record as it is, while every
    /// other game plays on.
    damaged: Mutex<HashMap<String, Text>>,
    /// Set when the server is stopping: every open event stream ends, so the server does not
    /// wait for pages that would never hang up.
    closing: tokio::sync::watch::Sender<bool>,
    pub limits: Limits,
    /// The games each client created within the window: when, and whether only computers
    /// play them.
    created: Mutex<HashMap<String, Vec<(std::time::Instant, bool)>>>,
    /// The seat of each token already shown, by game id and the token's hash: a token's seat
    /// never changes, and asking the store would wait behind every other game's write.
    seats_known: Mutex<HashMap<(String, String), Seat>>,
}

/// Tokens whose seats are kept in memory before the list is begun again.
const SEATS_KNOWN: usize = 1 << 16;

/// `n` random bytes from the operating system, as lowercase hex.
fn random_hex(n: usize) -> Result<String, ApiError> {
    let mut buf = vec![0u8; n];
    getrandom::fill(&mut buf).map_err(|e| ApiError::storage(format!("no random source: {e}")))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// What the list of games shows of `session`, at `version`.
fn snapshot(session: &dyn DynSession, seats: usize, version: usize) -> Snapshot {
    let pending = session.pending();
    Snapshot {
        version,
        pending: serde_json::to_value(pending).unwrap_or_default(),
        over: pending == Pending::Over,
        summary: Text::new(session.summary(None, Lang::En), session.summary(None, Lang::Zh)),
        sides: seat_sides(session, seats),
    }
}

/// Each seat's side where the game names it apart (empty when none does).
fn seat_sides(session: &dyn DynSession, seats: usize) -> Vec<Option<Text>> {
    let sides: Vec<Option<Text>> = (0..seats).map(|s| session.seat_side(s as Seat)).collect();
    if sides.iter().all(Option::is_none) {
        Vec::new()
    } else {
        sides
    }
}

impl Hub {
    pub fn new(store: Store) -> Arc<Hub> {
        Hub::with_limits(store, Limits::default())
    }

    pub fn with_limits(store: Store, limits: Limits) -> Arc<Hub> {
        Arc::new(Hub {
            limits,
            created: Mutex::new(HashMap::new()),
            store: Mutex::new(store),
            slots: Mutex::new(HashMap::new()),
            damaged: Mutex::new(HashMap::new()),
            closing: tokio::sync::watch::channel(false).0,
            seats_known: Mutex::new(HashMap::new()),
        })
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        // A panic while the store was held cannot leave it half-written (SQLite rolls back an
        // unfinished transaction), so a poisoned lock is still a good store.
        self.store.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Every stored game's header, most recently changed first; a game that cannot be read
    /// or replayed comes as [`Unreadable`].
    pub fn list(&self) -> Result<Vec<Result<GameRow, Unreadable>>, ApiError> {
        self.page(usize::MAX, 0)
    }

    /// The number of stored games.
    pub fn count(&self) -> Result<usize, ApiError> {
        self.store().count().map_err(ApiError::storage)
    }

    /// [`Hub::list`] from the `offset`th game on, at most `limit` of them.
    pub fn page(&self, limit: usize, offset: usize) -> Result<Vec<Result<GameRow, Unreadable>>, ApiError> {
        let mut rows = self.store().page(limit, offset).map_err(ApiError::storage)?;
        let damaged = self.damaged.lock().unwrap_or_else(|p| p.into_inner());
        for r in &mut rows {
            if let Ok(row) = r {
                if let Some(why) = damaged.get(&row.id) {
                    *r = Err(Unreadable {
                        id: row.id.clone(),
                        why: why.clone(),
                    });
                }
            }
        }
        Ok(rows)
    }

    /// Ends every open event stream: the server is stopping.
    pub fn shut_down(&self) {
        self.closing.send_replace(true);
    }

    /// Tells when the server begins to stop ([`Hub::shut_down`]).
    pub fn closing(&self) -> tokio::sync::watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// Why game `id` could not be opened, if it could not.
    pub fn damage(&self, id: &str) -> Option<Text> {
        self.damaged.lock().unwrap_or_else(|p| p.into_inner()).get(id).cloned()
    }

    /// Marks game `id` damaged: it answers `damaged-game` from now on; the log says why.
    fn mark_damaged(&self, id: &str, why: Text) -> ApiError {
        eprintln!("game {id} is damaged and will not be played: {}", why.en);
        self.damaged
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id.to_string(), why.clone());
        ApiError::damaged(id, &why)
    }

    /// Creates and stores a game for `client` (its address, for the creation limits);
    /// computer seats start moving if it is their turn.
    pub fn create(self: &Arc<Self>, req: NewGame, client: &str) -> Result<Created, ApiError> {
        let entry = sandtable_catalog::find(req.game.trim()).map_err(ApiError::from_catalog)?;
        let scenario = match (&req.scenario, &req.scenario_file) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad_request(text!(
                    "give `scenario` (a shipped one) or `scenario_file` (one you wrote), not both",
                    "请给出 `scenario`(自带剧本)或 `scenario_file`(自编剧本)之一,不要同时给出"
                )))
            }
            (_, Some(text)) => ScenarioSource::Text(text.clone()),
            (id, None) => ScenarioSource::Shipped(
                entry
                    .scenario(id.as_deref())
                    .map_err(ApiError::from_catalog)?
                    .id
                    .clone(),
            ),
        };
        for seat_id in req.seats.keys() {
            entry.seat(seat_id).map_err(ApiError::from_catalog)?;
        }
        let mut seats = Vec::new();
        for (i, info) in entry.seats.iter().enumerate() {
            let player = req.seats.get(info.id).map_or("human", |p| p.trim());
            if player != "human" && !entry.has_agent(player) {
                let mut known = vec!["human".to_string()];
                known.extend(entry.agents.iter().map(|a| a.to_string()));
                return Err(ApiError::from_catalog(sandtable_catalog::CatalogError::UnknownAgent {
                    game: entry.id.to_string(),
                    found: player.to_string(),
                    known,
                }));
            }
            let token = if player == "human" { Some(random_hex(24)?) } else { None };
            seats.push((
                SeatRow {
                    seat: i as Seat,
                    player: player.to_string(),
                },
                token,
            ));
        }
        // Dice nobody can foresee in a game between people: the creator of such a game could
        // otherwise play a copy with the same seed and see every roll before it is made. A
        // chosen seed is for a game one person plays alone (hotseat, against the computer) or
        // nobody does (computers only), and the game says its dice are fixed.
        let humans = seats.iter().filter(|(s, _)| s.player == "human").count();
        if req.seed.is_some() && humans > 1 && !req.hotseat {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "fixed-seed",
                text!(
                    "a game between people takes its dice from the server: a seed may be chosen only for a hotseat game (\"hotseat\": true), a game against the computer or between computers",
                    "多人对局的骰子由服务器决定:只有同屏对战(\"hotseat\": true)、对电脑或电脑之间的对局才能指定随机种子"
                ),
            ));
        }
        let seed_fixed = req.seed.is_some();
        let seed = match req.seed {
            Some(s) => s,
            None => u64::from_str_radix(&random_hex(8)?, 16).unwrap_or(0),
        };
        // A file a player wrote is read by the game's own parser: a fault there refuses it.
        let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| entry.new_session(scenario, seed)))
            .unwrap_or_else(|_| {
                Err(sandtable_catalog::CatalogError::Record(RecordError::Setup(
                    "the rules could not read it".into(),
                )))
            });
        let session = made.map_err(|e| match e {
            sandtable_catalog::CatalogError::Record(RecordError::Setup(why)) => ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad-scenario",
                Text::new(
                    format!("the scenario file cannot be used: {why}"),
                    format!("该剧本文件无法使用:{why}"),
                ),
            ),
            e => ApiError::from_catalog(e),
        })?;
        // Counted against the client's limits once it is a game that can be stored.
        self.admit(client, humans == 0)?;
        let id = random_hex(8)?;
        let snap = snapshot(&*session, entry.seats.len(), session.record().entries.len());
        self.store()
            .create(&id, session.record(), seed_fixed, &seats, &snap)
            .map_err(|e| {
                if e.lost {
                    ApiError::storage_lost(e)
                } else {
                    ApiError::storage(e)
                }
            })?;
        let row = self
            .store()
            .game(&id)
            .map_err(ApiError::storage)?
            .ok_or_else(|| ApiError::no_such_game(&id))?;
        let tokens = seats
            .iter()
            .filter_map(|(s, t)| Some((entry.seat_id(s.seat), t.clone()?)))
            .collect();
        let slot = self.insert(entry, session, row);
        self.kick(slot);
        Ok(Created { id, tokens })
    }

    fn insert(&self, entry: GameEntry, session: Box<dyn DynSession>, row: GameRow) -> Arc<Slot> {
        let slot = Arc::new(Slot {
            id: row.id.clone(),
            entry,
            live: tokio::sync::Mutex::new(Live {
                session,
                row,
                agents: Vec::new(),
            }),
            updates: broadcast::channel(64).0,
            maps: Default::default(),
            stalled: Mutex::new(None),
            pieces: Mutex::new(Vec::new()),
            used: Mutex::new(std::time::Instant::now()),
        });
        let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
        let slot = slots.entry(slot.id.clone()).or_insert(slot).clone();
        if slots.len() > self.limits.open_games {
            Hub::let_go(&mut slots, self.limits.open_games, None);
        }
        slot
    }

    /// The stored game `id`, replayed from its record. A game whose record cannot be read or
    /// does not replay is marked damaged.
    fn load(&self, id: &str) -> Result<(GameEntry, Box<dyn DynSession>, GameRow), ApiError> {
        if let Some(why) = self.damage(id) {
            return Err(ApiError::damaged(id, &why));
        }
        let read = |e: StoreError| {
            if e.damaged {
                self.mark_damaged(id, e.damage())
            } else {
                ApiError::storage(e)
            }
        };
        let store = self.store();
        let row = store
            .game(id)
            .map_err(read)?
            .ok_or_else(|| ApiError::no_such_game(id))?;
        let record = store.record(&row).map_err(read)?;
        drop(store);
        let entry = sandtable_catalog::find(&row.game).map_err(|e| self.mark_damaged(id, e.text()))?;
        let json = serde_json::to_string(&record).map_err(ApiError::storage)?;
        let replayed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| entry.load(&json)));
        let session = match replayed {
            Ok(Ok(session)) => session,
            Ok(Err(e)) => return Err(self.mark_damaged(id, e.text())),
            Err(_) => {
                return Err(self.mark_damaged(
                    id,
                    Text::new(
                        "the rules failed while replaying its record",
                        "重放其记录时规则程序出错",
                    ),
                ))
            }
        };
        // A game stored by an older build was replayed into this build's format: store it so.
        if row.format != session.record().format {
            self.store()
                .rewrite(&row.id, session.record())
                .map_err(ApiError::storage)?;
            eprintln!(
                "game {}: its record was rewritten from format {} to format {}",
                row.id,
                row.format,
                session.record().format
            );
        }
        Ok((entry, session, row))
    }

    /// The game `id`, opened from the database the first time it is asked for.
    pub fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(ApiError::no_such_game(id));
        }
        if let Some(s) = self.slots.lock().unwrap_or_else(|p| p.into_inner()).get(id) {
            *s.used.lock().unwrap_or_else(|p| p.into_inner()) = std::time::Instant::now();
            return Ok(s.clone());
        }
        let (entry, session, row) = self.load(id)?;
        Ok(self.insert(entry, session, row))
    }

    /// Lets games go from memory: those idle longer than the limit, then the longest idle
    /// until no more than the limit are open. A game is let go only when nothing holds it (no
    /// request under way, no computer moving, no page listening), so two copies of one game
    /// are never open at once. They stay in the database. Returns how many are open.
    pub fn evict(&self) -> usize {
        let mut slots = self.slots.lock().unwrap_or_else(|p| p.into_inner());
        Hub::let_go(&mut slots, self.limits.open_games, Some(self.limits.idle));
        slots.len()
    }

    /// The number of games open in memory.
    pub fn open_games(&self) -> usize {
        self.slots.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    fn let_go(slots: &mut HashMap<String, Arc<Slot>>, keep: usize, idle: Option<std::time::Duration>) {
        let free = |s: &Arc<Slot>| Arc::strong_count(s) == 1 && s.updates.receiver_count() == 0;
        let used = |s: &Arc<Slot>| *s.used.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(idle) = idle {
            slots.retain(|_, s| !(free(s) && used(s).elapsed() >= idle));
        }
        if slots.len() > keep {
            let mut by_age: Vec<(std::time::Instant, String)> = slots
                .iter()
                .filter(|(_, s)| free(s))
                .map(|(id, s)| (used(s), id.clone()))
                .collect();
            by_age.sort();
            let over = slots.len() - keep;
            for (_, id) in by_age.into_iter().take(over) {
                slots.remove(&id);
            }
        }
    }

    /// Counts a new game against `client`'s limits, or refuses it (`429 too-many-games`).
    fn admit(&self, client: &str, computers_only: bool) -> Result<(), ApiError> {
        let now = std::time::Instant::now();
        let mut created = self.created.lock().unwrap_or_else(|p| p.into_inner());
        created.retain(|_, list| {
            list.retain(|(t, _)| now.duration_since(*t) < self.limits.window);
            !list.is_empty()
        });
        let list = created.entry(client.to_string()).or_default();
        let minutes = self.limits.window.as_secs().div_ceil(60);
        let refuse = |n: usize, en: &str, zh: &str| {
            Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too-many-games",
                Text::new(
                    format!("at most {n} {en} may be created from one address in {minutes} minutes; try again later"),
                    format!("同一地址在 {minutes} 分钟内最多创建 {n} 局{zh};请稍后再试"),
                ),
            ))
        };
        if list.len() >= self.limits.games_per_client {
            return refuse(self.limits.games_per_client, "games", "");
        }
        if computers_only && list.iter().filter(|(_, c)| *c).count() >= self.limits.computer_games_per_client {
            return refuse(
                self.limits.computer_games_per_client,
                "games between computers",
                "电脑之间的对局",
            );
        }
        list.push((now, computers_only));
        Ok(())
    }

    /// The seat whose token this is, for game `id`: `None` without a token (a spectator);
    /// an error for a token that is no seat of the game.
    pub fn seat_of(&self, id: &str, token: Option<&str>) -> Result<Option<Seat>, ApiError> {
        let Some(token) = token else { return Ok(None) };
        let key = (id.to_string(), crate::store::token_hash(token));
        let known = |k| {
            self.seats_known
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(k)
                .copied()
        };
        if let Some(seat) = known(&key) {
            return Ok(Some(seat));
        }
        match self.store().seat_of_token_hash(id, &key.1).map_err(ApiError::storage)? {
            Some(seat) => {
                let mut seats = self.seats_known.lock().unwrap_or_else(|p| p.into_inner());
                if seats.len() >= SEATS_KNOWN {
                    seats.clear();
                }
                seats.insert(key, seat);
                Ok(Some(seat))
            }
            None => Err(ApiError::wrong_token()),
        }
    }

    /// Writes the steps of `live` after the first `keep`, and tells the pages. `undone` are
    /// the steps an undo took out (stored, after the first `keep`); none for an action. The
    /// version grows by the steps removed and added, at least one. If the write fails, the
    /// game in memory goes back to the steps it had, so memory never runs ahead of what is
    /// stored.
    fn commit(&self, slot: &Slot, live: &mut Live, keep: usize, undone: &[Entry]) -> Result<(), ApiError> {
        let changed = undone.len() + (live.steps() - keep);
        let snap = snapshot(&*live.session, slot.entry.seats.len(), live.version() + changed.max(1));
        let written = self.store().save_steps(&slot.id, live.session.record(), keep, &snap);
        if let Err(e) = written {
            let mut record = live.session.record().clone();
            record.entries.truncate(keep);
            record.entries.extend_from_slice(undone);
            let replayed = serde_json::to_string(&record)
                .ok()
                .and_then(|json| slot.entry.load(&json).ok());
            match replayed {
                Some(session) => live.session = session,
                None => {
                    if let Ok((_, session, row)) = self.load(&slot.id) {
                        live.session = session;
                        live.row = row;
                    }
                }
            }
            return Err(if e.lost {
                ApiError::storage_lost(e)
            } else {
                ApiError::storage(e)
            });
        }
        live.row.snapshot = snap;
        // Nobody listening is not an error.
        let _ = slot.updates.send(live.version());
        Ok(())
    }

    /// Runs `f` on the game's session, catching a panic of the rules: the request is refused
    /// (`rules-fault`), the log says which game and what, and the game in memory is rebuilt
    /// from the database, since the panic may have left it half-changed.
    fn guarded<T>(
        &self,
        slot: &Slot,
        live: &mut Live,
        f: impl FnOnce(&mut dyn DynSession) -> T,
    ) -> Result<T, ApiError> {
        let session = &mut *live.session;
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(session))) {
            Ok(t) => Ok(t),
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                eprintln!("game {}: the rules failed on a request and refused it: {what}", slot.id);
                if let Ok((_, session, row)) = self.load(&slot.id) {
                    live.session = session;
                    live.row = row;
                }
                Err(ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "rules-fault",
                    text!(
                        "the rules could not check this action, so it was refused; the game is unchanged",
                        "规则无法检查这一行动,已拒绝;对局未改变"
                    ),
                ))
            }
        }
    }

    /// One action of the seat holding `token`.
    pub async fn act(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        action: Move,
        version: Option<usize>,
    ) -> Result<(Arc<Slot>, Seat), ApiError> {
        let slot = self.slot(id)?;
        let seat = self.seat_of(id, token)?.ok_or_else(ApiError::no_token)?;
        {
            let mut live = slot.live.lock().await;
            check_version(&live, version)?;
            check_turn(&live, seat)?;
            let keep = live.steps();
            let done = self.guarded(&slot, &mut live, |session| match &action {
                Move::Json(a) => session.act_json(seat, a),
                Move::Notation(n) => session.act_typed(seat, n),
                Move::Index(i) => session.act_index(seat, *i),
            })?;
            done.map_err(ApiError::from_record)?;
            self.commit(&slot, &mut live, keep, &[])?;
        }
        self.kick(slot.clone());
        Ok((slot, seat))
    }

    /// Takes back the last actions of the seat holding `token` (back to a roll or reveal).
    /// With `version`, the undo is refused as stale if the game is no longer at it.
    pub async fn undo(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        version: Option<usize>,
    ) -> Result<(Arc<Slot>, Seat), ApiError> {
        let slot = self.slot(id)?;
        let seat = self.seat_of(id, token)?.ok_or_else(ApiError::no_token)?;
        {
            let mut live = slot.live.lock().await;
            check_version(&live, version)?;
            let before = live.session.record().entries.clone();
            self.guarded(&slot, &mut live, |session| session.undo(seat))?
                .map_err(ApiError::from_record)?;
            let after = &live.session.record().entries;
            let keep = before.iter().zip(after.iter()).take_while(|(a, b)| a == b).count();
            self.commit(&slot, &mut live, keep, &before[keep..])?;
        }
        self.kick(slot.clone());
        Ok((slot, seat))
    }

    /// Lets the computer seats of every unfinished game move (after a restart). Games are
    /// opened one by one: one that cannot be is marked damaged (the log says which and why)
    /// and the others go on.
    pub fn resume_all(self: &Arc<Self>) -> Result<(), ApiError> {
        for row in self.list()? {
            let row = match row {
                Ok(row) => row,
                Err(u) => {
                    if !u.id.is_empty() && self.damage(&u.id).is_none() {
                        self.mark_damaged(&u.id, u.why);
                    } else if u.id.is_empty() {
                        eprintln!("{}", u.why);
                    }
                    continue;
                }
            };
            if !row.snapshot.over && row.seats.iter().any(|s| s.player != "human") {
                // A game that fails to open is marked damaged by `slot` and logged there.
                if let Ok(slot) = self.slot(&row.id) {
                    self.kick(slot);
                }
            }
        }
        Ok(())
    }

    /// Starts the computer seats of `slot` moving, if one of them must decide.
    fn kick(self: &Arc<Self>, slot: Arc<Slot>) {
        // Nothing to do while a person must decide or the game is over (and no task then
        // holds the game, which may leave memory).
        if let Ok(live) = slot.live.try_lock() {
            match live.session.pending() {
                Pending::Seat(seat) if live.player(seat) != "human" => {}
                _ => return,
            }
        }
        let hub = self.clone();
        if tokio::runtime::Handle::try_current().is_ok() {
            tokio::spawn(async move { hub.drive(slot).await });
        }
    }

    /// Plays the computer seats' decisions, one step per turn of the lock, until a person
    /// must decide or the game ends.
    ///
    /// A move the database refused to store (a full disk, say) is tried again, after a pause
    /// growing from a tenth of a second to half a minute, until it is stored or the server
    /// stops: the game resumes as soon as the write succeeds.
    async fn drive(&self, slot: Arc<Slot>) {
        let mut failures: u32 = 0;
        let closing = self.closing();
        loop {
            if *closing.borrow() {
                return;
            }
            {
                let mut live = slot.live.lock().await;
                let Pending::Seat(seat) = live.session.pending() else {
                    return;
                };
                let player = live.player(seat).to_string();
                if player == "human" {
                    return;
                }
                // The computer's choices are fixed by the game's seed and the step, so a game
                // replays the same way.
                let mut rng = Rng::from_seed(agent_seed(live.row.seed ^ (live.steps() as u64) << 20));
                if !live.agents.iter().any(|(s, _)| *s == seat) {
                    match slot.entry.agent(&player) {
                        Ok(agent) => live.agents.push((seat, agent)),
                        Err(e) => {
                            eprintln!("game {}: {}", slot.id, e.message(sandtable_core::text::Lang::En));
                            return;
                        }
                    }
                }
                let Live { session, agents, .. } = &mut *live;
                let agent = &mut agents.iter_mut().find(|(s, _)| *s == seat).expect("made above").1;
                let chosen =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| agent.choose(&**session, &mut rng)));
                let Ok(Ok(chosen)) = chosen else {
                    eprintln!("game {}: the computer player {player} found no move", slot.id);
                    return;
                };
                let keep = live.steps();
                let done = match self.guarded(&slot, &mut live, |session| session.act_index(seat, chosen)) {
                    Ok(done) => done,
                    Err(_) => return,
                };
                if let Err(e) = done {
                    eprintln!("game {}: the computer player's move was refused: {e}", slot.id);
                    return;
                }
                match self.commit(&slot, &mut live, keep, &[]) {
                    Ok(()) => {
                        if failures > 0 {
                            *slot.stalled.lock().unwrap_or_else(|p| p.into_inner()) = None;
                            eprintln!(
                                "game {}: the computer player's move was stored after {failures} failed write(s); it plays on",
                                slot.id
                            );
                        }
                        failures = 0;
                    }
                    Err(e) => {
                        failures += 1;
                        *slot.stalled.lock().unwrap_or_else(|p| p.into_inner()) = Some(Text::new(
                            format!(
                                "the computer's move could not be stored ({}); it is being tried again",
                                e.text.en
                            ),
                            format!("电脑的行动无法保存({});正在重试", e.text.zh),
                        ));
                        if failures == 1 || failures.is_multiple_of(20) {
                            eprintln!(
                                "game {}: the computer player's move could not be stored (attempt {failures}), trying again: {}",
                                slot.id, e.text.en
                            );
                        }
                    }
                }
            }
            if failures > 0 {
                let pause = (100u64 << failures.min(9)).min(30_000);
                tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
            } else {
                tokio::task::yield_now().await;
            }
        }
    }
}

fn check_version(live: &Live, version: Option<usize>) -> Result<(), ApiError> {
    match version {
        Some(v) if v != live.version() => Err(ApiError::new(
            StatusCode::CONFLICT,
            "stale",
            Text::new(
                format!(
                    "the game has moved on (version {} now, not {v}); look again",
                    live.version()
                ),
                format!("对局已有进展(当前版本 {},不是 {v});请刷新", live.version()),
            ),
        )),
        _ => Ok(()),
    }
}

fn check_turn(live: &Live, seat: Seat) -> Result<(), ApiError> {
    match live.session.pending() {
        Pending::Seat(s) if s == seat => Ok(()),
        Pending::Over => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "not-your-turn",
            text!("the game is over", "对局已结束"),
        )),
        _ => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "not-your-turn",
            text!("it is not your decision now", "现在不是你做决定"),
        )),
    }
}

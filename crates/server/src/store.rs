//! Where games live between requests and across restarts: one SQLite file.
//!
//! A game is stored as its record — the scenario, the seed and every step (an action or an
//! act of chance, each with the checksum of the state after it) — plus a snapshot of what the
//! list of games shows (version, who decides, the situation in words), so that listing games
//! needs no replay. Every accepted action is written in one transaction together with the
//! chance steps it set off and the new snapshot: a server killed at any moment comes back
//! with each game exactly as its last answered request left it. Seats are stored with the
//! SHA-256 of their tokens only.

use rusqlite::{params, Connection, OptionalExtension};
use sandtable_core::record::{Entry, Record, ScenarioSource};
use sandtable_core::text::Text;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// A storage failure (the disk, or a database written by something else).
#[derive(Debug, thiserror::Error)]
#[error("storage: {text}")]
pub struct StoreError {
    text: String,
    /// What was read is damaged (a row that does not parse, a page SQLite calls corrupt), as
    /// opposed to a database that could not be reached or written just now.
    pub damaged: bool,
    /// The database file itself was deleted, replaced or damaged while the server ran: nothing
    /// more is written until the server is restarted.
    pub lost: bool,
}

impl StoreError {
    pub fn new(text: impl Into<String>) -> StoreError {
        StoreError {
            text: text.into(),
            damaged: false,
            lost: false,
        }
    }

    /// What was read that cannot be used, in both languages, for a list of games a player reads
    /// (the database's own words stay as they are).
    pub fn damage(&self) -> Text {
        Text::new(
            format!("its stored row does not read ({})", self.text),
            format!("其存储的数据无法读取({})", self.text),
        )
    }

    fn lost(text: String) -> StoreError {
        StoreError {
            text,
            damaged: false,
            lost: true,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        let damaged = matches!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
        ) || matches!(
            e,
            rusqlite::Error::FromSqlConversionFailure(..) | rusqlite::Error::InvalidColumnType(..)
        );
        StoreError {
            text: e.to_string(),
            damaged,
            lost: false,
        }
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> StoreError {
        StoreError {
            text: e.to_string(),
            damaged: true,
            lost: false,
        }
    }
}

/// A stored game that cannot be read: its id and why, in both languages (a page lists it).
#[derive(Clone, Debug)]
pub struct Unreadable {
    pub id: String,
    pub why: Text,
}

/// Who plays a seat: a person holding the seat's token, or a computer player by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRow {
    pub seat: u8,
    /// `human`, or an agent's name (`random`, `scripted`).
    pub player: String,
}

/// What the list of games shows of one game, kept up to date with every step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub version: usize,
    pub pending: serde_json::Value,
    pub over: bool,
    pub summary: sandtable_core::text::Text,
    /// Each seat's side where the game names it apart from the seat (a Paths of Glory
    /// tournament, once the bid settles it: [`sandtable_core::driver::Rules::seat_side`]);
    /// empty when no seat has one, and in snapshots stored before this was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<Option<sandtable_core::text::Text>>,
}

/// One stored game's header.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    pub id: String,
    pub game: String,
    pub scenario: ScenarioSource,
    pub seed: u64,
    /// Whether the seed was chosen by whoever created the game (a hotseat game, a game against
    /// the computer, between computers) rather than drawn by the server: then the creator may
    /// know every roll in advance, and every seat is told so. Games stored before this was
    /// kept count as fixed.
    pub seed_fixed: bool,
    /// The record format its steps are stored in ([`sandtable_core::record::FORMAT`] for games
    /// this build made; older ones are rewritten when they are first opened).
    pub format: u32,
    /// The edition of the game's data it was begun on.
    pub edition: String,
    /// Unix seconds.
    pub created: i64,
    pub updated: i64,
    pub seats: Vec<SeatRow>,
    pub snapshot: Snapshot,
}

pub struct Store {
    db: Connection,
    /// The database file and its identity when it was opened (none in memory).
    file: Option<(PathBuf, FileId)>,
    /// Why the database was found deleted, replaced or damaged while serving: then every
    /// write is refused, loudly, rather than written where no restart will find it.
    lost: Option<String>,
}

/// What tells one file from another on the same path: device and inode where there are such.
type FileId = (u64, u64);

fn file_id(path: &Path) -> std::io::Result<FileId> {
    let meta = std::fs::metadata(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Ok((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let created = meta
            .created()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as u64);
        Ok((created, 0))
    }
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id        TEXT PRIMARY KEY,
    game      TEXT NOT NULL,
    scenario  TEXT NOT NULL,
    seed      INTEGER NOT NULL,
    created   INTEGER NOT NULL,
    updated   INTEGER NOT NULL,
    snapshot  TEXT NOT NULL,
    format    INTEGER NOT NULL DEFAULT 1,
    edition   TEXT NOT NULL DEFAULT '1'
);
CREATE TABLE IF NOT EXISTS seats (
    game_id   TEXT NOT NULL REFERENCES games(id),
    seat      INTEGER NOT NULL,
    player    TEXT NOT NULL,
    token_sha TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS steps (
    game_id   TEXT NOT NULL REFERENCES games(id),
    n         INTEGER NOT NULL,
    entry     TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE UNIQUE INDEX IF NOT EXISTS seats_by_token ON seats(token_sha);
";

/// The SHA-256 of a token, as stored.
pub fn token_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl Store {
    /// Opens (creating on first run) the database `sandtable.db` in `dir`.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| StoreError::new(format!("cannot create the data folder {}: {e}", dir.display())))?;
        let path = dir.join("sandtable.db");
        let mut store = Store::with(Connection::open(&path)?)?;
        let id = file_id(&path).map_err(|e| StoreError::new(format!("cannot read {}: {e}", path.display())))?;
        store.file = Some((path, id));
        Ok(store)
    }

    /// A database in memory, for tests.
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::with(Connection::open_in_memory()?)
    }

    fn with(db: Connection) -> Result<Store, StoreError> {
        // Write-ahead log, synced at every commit (FULL): a step is on the disk before the
        // request that made it is answered, so it survives the server being killed and the
        // machine losing power at any moment, and a game is never left half-written.
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "FULL")?;
        db.pragma_update(None, "foreign_keys", "ON")?;
        db.busy_timeout(std::time::Duration::from_secs(5))?;
        db.execute_batch(SCHEMA)?;
        // A database from before record formats were stored: its games are format 1.
        let has_format = db
            .prepare("SELECT 1 FROM pragma_table_info('games') WHERE name = 'format'")?
            .exists([])?;
        if !has_format {
            db.execute_batch(
                "ALTER TABLE games ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
                 ALTER TABLE games ADD COLUMN edition TEXT NOT NULL DEFAULT '1';",
            )?;
        }
        // A database from before the server drew the seeds of games between people: whoever
        // made its games may have chosen their seeds.
        let has_seed_fixed = db
            .prepare("SELECT 1 FROM pragma_table_info('games') WHERE name = 'seed_fixed'")?
            .exists([])?;
        if !has_seed_fixed {
            db.execute_batch("ALTER TABLE games ADD COLUMN seed_fixed INTEGER NOT NULL DEFAULT 1;")?;
        }
        Ok(Store {
            db,
            file: None,
            lost: None,
        })
    }

    /// Whether the database is still the file that was opened, whole: refuses (and keeps
    /// refusing) once it was deleted, replaced or found damaged.
    fn check(&mut self) -> Result<(), StoreError> {
        if let Some(why) = &self.lost {
            return Err(StoreError::lost(why.clone()));
        }
        if let Some((path, id)) = &self.file {
            let why = match file_id(path) {
                Ok(now) if now == *id => None,
                Ok(_) => Some(format!(
                    "the database file {} was replaced while the server ran",
                    path.display()
                )),
                Err(e) => Some(format!(
                    "the database file {} was deleted or moved while the server ran ({e})",
                    path.display()
                )),
            };
            if let Some(why) = why {
                return Err(self.lose(why));
            }
        }
        Ok(())
    }

    /// Marks the database lost: every later write is refused with `why`, and the log says so.
    fn lose(&mut self, why: String) -> StoreError {
        let why = format!("{why}; no action is stored until the server is restarted on a sound database");
        eprintln!("STORAGE LOST: {why}");
        self.lost = Some(why.clone());
        StoreError::lost(why)
    }

    /// Reads back what a write of game `id` left: `steps` steps and the snapshot's version.
    /// A database that does not give back what was just written is damaged.
    fn verify(&mut self, id: &str, steps: usize, version: usize) -> Result<(), StoreError> {
        let read = self.db.query_row(
            "SELECT (SELECT count(*) FROM steps WHERE game_id = ?1), (SELECT snapshot FROM games WHERE id = ?1)",
            params![id],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Option<String>>(1)?)),
        );
        let good = match &read {
            Ok((n, Some(snap))) => {
                *n as usize == steps && serde_json::from_str::<Snapshot>(snap).is_ok_and(|s| s.version == version)
            }
            _ => false,
        };
        if good {
            return Ok(());
        }
        let what = match read {
            Err(e) => e.to_string(),
            Ok(_) => "it does not give back what was just written".to_string(),
        };
        Err(self.lose(format!("the database is damaged: {what}")))
    }

    /// Stores a new game with its seats (`tokens[i]` for seat `seats[i]`, `None` for a
    /// computer seat) and its first steps, in one transaction.
    pub fn create(
        &mut self,
        id: &str,
        record: &Record,
        seed_fixed: bool,
        seats: &[(SeatRow, Option<String>)],
        snapshot: &Snapshot,
    ) -> Result<(), StoreError> {
        self.check()?;
        let t = now();
        let tx = self.db.transaction()?;
        tx.execute(
            "INSERT INTO games (id, game, scenario, seed, created, updated, snapshot, format, edition, seed_fixed) VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8, ?9)",
            params![
                id,
                record.game,
                serde_json::to_string(&record.scenario)?,
                record.seed as i64,
                t,
                serde_json::to_string(snapshot)?,
                record.format,
                record.edition,
                seed_fixed
            ],
        )?;
        for (row, token) in seats {
            tx.execute(
                "INSERT INTO seats (game_id, seat, player, token_sha) VALUES (?1, ?2, ?3, ?4)",
                params![id, row.seat, row.player, token.as_deref().map(token_hash)],
            )?;
        }
        for (n, e) in record.entries.iter().enumerate() {
            tx.execute(
                "INSERT INTO steps (game_id, n, entry) VALUES (?1, ?2, ?3)",
                params![id, n as i64, serde_json::to_string(e)?],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Makes the stored steps of game `id` those of `record`: the first `keep` are unchanged,
    /// the rest are replaced (new steps after an action; fewer after an undo). One
    /// transaction with the new snapshot.
    pub fn save_steps(
        &mut self,
        id: &str,
        record: &Record,
        keep: usize,
        snapshot: &Snapshot,
    ) -> Result<(), StoreError> {
        self.check()?;
        let tx = self.db.transaction()?;
        tx.execute(
            "DELETE FROM steps WHERE game_id = ?1 AND n >= ?2",
            params![id, keep as i64],
        )?;
        for (n, e) in record.entries.iter().enumerate().skip(keep) {
            tx.execute(
                "INSERT INTO steps (game_id, n, entry) VALUES (?1, ?2, ?3)",
                params![id, n as i64, serde_json::to_string(e)?],
            )?;
        }
        let changed = tx.execute(
            "UPDATE games SET updated = ?2, snapshot = ?3 WHERE id = ?1",
            params![id, now(), serde_json::to_string(snapshot)?],
        )?;
        if changed != 1 {
            return Err(StoreError::new(format!("no stored game {id}")));
        }
        tx.commit()?;
        // The file may have gone while the transaction ran; and what was written must read back.
        self.check()?;
        self.verify(id, record.entries.len(), snapshot.version)
    }

    /// Writes game `id`'s record again, whole, in its (newer) format: for a game stored by an
    /// older build, once it has been replayed and migrated. One transaction.
    pub fn rewrite(&mut self, id: &str, record: &Record) -> Result<(), StoreError> {
        self.check()?;
        let tx = self.db.transaction()?;
        tx.execute("DELETE FROM steps WHERE game_id = ?1", params![id])?;
        for (n, e) in record.entries.iter().enumerate() {
            tx.execute(
                "INSERT INTO steps (game_id, n, entry) VALUES (?1, ?2, ?3)",
                params![id, n as i64, serde_json::to_string(e)?],
            )?;
        }
        let changed = tx.execute("UPDATE games SET format = ?2 WHERE id = ?1", params![id, record.format])?;
        if changed != 1 {
            return Err(StoreError::new(format!("no stored game {id}")));
        }
        tx.commit()?;
        Ok(())
    }

    /// The game's header, or `None` if there is no such game.
    pub fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = self
            .db
            .query_row(
                "SELECT id, game, scenario, seed, created, updated, snapshot, format, edition, seed_fixed FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, i64>(4)?,
                        r.get::<_, i64>(5)?,
                        r.get::<_, String>(6)?,
                        r.get::<_, u32>(7)?,
                        r.get::<_, String>(8)?,
                        r.get::<_, bool>(9)?,
                    ))
                },
            )
            .optional()?;
        let Some((id, game, scenario, seed, created, updated, snapshot, format, edition, seed_fixed)) = row else {
            return Ok(None);
        };
        let mut q = self
            .db
            .prepare("SELECT seat, player FROM seats WHERE game_id = ?1 ORDER BY seat")?;
        let seats = q
            .query_map(params![id], |r| {
                Ok(SeatRow {
                    seat: r.get(0)?,
                    player: r.get(1)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(GameRow {
            id,
            game,
            scenario: serde_json::from_str(&scenario)?,
            seed: seed as u64,
            seed_fixed,
            format,
            edition,
            created,
            updated,
            seats,
            snapshot: serde_json::from_str(&snapshot)?,
        }))
    }

    /// Every game's header, most recently changed first; a game whose header cannot be read
    /// is listed as such, and the others still are.
    pub fn list(&self) -> Result<Vec<Result<GameRow, Unreadable>>, StoreError> {
        self.page(usize::MAX, 0)
    }

    /// The number of stored games.
    pub fn count(&self) -> Result<usize, StoreError> {
        Ok(self
            .db
            .query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))? as usize)
    }

    /// [`Store::list`] from the `offset`th game on, at most `limit` of them.
    pub fn page(&self, limit: usize, offset: usize) -> Result<Vec<Result<GameRow, Unreadable>>, StoreError> {
        let mut q = self
            .db
            .prepare("SELECT id FROM games ORDER BY updated DESC, created DESC, id LIMIT ?1 OFFSET ?2")?;
        // Rows up to a damaged page are kept: the list says where it stopped.
        let mut ids = Vec::new();
        let mut stopped = None;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        for r in q.query_map(params![limit, offset], |r| r.get::<_, String>(0))? {
            match r {
                Ok(id) => ids.push(id),
                Err(e) => {
                    stopped = Some(e.to_string());
                    break;
                }
            }
        }
        let mut out = Vec::with_capacity(ids.len() + 1);
        if let Some(why) = stopped {
            out.push(Err(Unreadable {
                id: String::new(),
                why: Text::new(
                    format!("the list of games could not be read to its end: {why}"),
                    format!("对局列表未能读完:{why}"),
                ),
            }));
        }
        for id in ids {
            match self.game(&id) {
                Ok(Some(g)) => out.push(Ok(g)),
                Ok(None) => {}
                Err(e) => out.push(Err(Unreadable { id, why: e.damage() })),
            }
        }
        Ok(out)
    }

    /// The whole record of game `id`, to replay.
    pub fn record(&self, row: &GameRow) -> Result<Record, StoreError> {
        let mut q = self
            .db
            .prepare("SELECT entry FROM steps WHERE game_id = ?1 ORDER BY n")?;
        let entries = q
            .query_map(params![row.id], |r| r.get::<_, String>(0))?
            .map(|e| -> Result<Entry, StoreError> { Ok(serde_json::from_str(&e?)?) })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Record {
            format: row.format,
            game: row.game.clone(),
            edition: row.edition.clone(),
            scenario: row.scenario.clone(),
            seed: row.seed,
            entries,
        })
    }

    /// The seat of game `id` whose token has this hash ([`token_hash`]), if any.
    pub fn seat_of_token_hash(&self, id: &str, sha: &str) -> Result<Option<u8>, StoreError> {
        Ok(self
            .db
            .query_row(
                "SELECT seat FROM seats WHERE game_id = ?1 AND token_sha = ?2",
                params![id, sha],
                |r| r.get(0),
            )
            .optional()?)
    }
}

#[cfg(test)]
mod tests {
    use super::Store;

    #[test]
    fn every_commit_is_synced_to_the_disk() {
        let dir = std::env::temp_dir().join(format!("sandtable-store-sync-{}", std::process::id()));
        let store = Store::open(&dir).expect("the store opens");
        let mode: String = store
            .db
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .expect("the journal mode");
        let sync: i64 = store
            .db
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .expect("the sync level");
        assert_eq!((mode.as_str(), sync), ("wal", 2), "WAL with synchronous=FULL");
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

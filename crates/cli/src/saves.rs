//! Save files on disk: opening one (replayed and checked step by step, whatever game it
//! holds), writing one atomically, and the small choices every command that takes a save
//! makes the same way (whose view, which scenario, which seed).

use crate::ui::{tr, CmdResult, Failure};
use sandtable_catalog::{find, load_any, GameEntry};
use sandtable_core::game::{Pending, Seat};
use sandtable_core::record::{write_atomic, DynSession, ScenarioSource};
use std::path::Path;

/// An opened save file.
pub struct Save {
    pub entry: GameEntry,
    pub session: Box<dyn DynSession>,
}

/// Reads a text file, with the path in the error.
pub fn read_text(path: &Path) -> CmdResult<String> {
    std::fs::read_to_string(path).map_err(|e| {
        let p = path.display();
        Failure::new(tr!("cannot read {p}: {e}", "无法读取 {p}:{e}"))
    })
}

/// Opens a save file of any game, replaying it and checking every checksum.
pub fn open(path: &Path) -> CmdResult<Save> {
    let text = read_text(path)?;
    let p = path.display();
    let session =
        load_any(&text).map_err(|e| Failure::from(e).context(tr!("cannot open save file {p}", "无法打开存档 {p}")))?;
    let entry = find(session.game_id())?;
    Ok(Save { entry, session })
}

/// Writes a session to `path` through a temporary file and a rename.
pub fn write(path: &Path, session: &dyn DynSession) -> CmdResult {
    let mut json = session.to_json();
    json.push('\n');
    write_atomic(path, &json).map_err(|e| {
        let p = path.display();
        Failure::new(tr!("cannot write {p}: {e}", "无法写入 {p}:{e}"))
    })
}

/// A seed from the clock, for games started without `--seed` (printed so the game can be
/// started again).
pub fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    (nanos % 1_000_000_007) as u64
}

/// A new session of `entry` from the `--scenario`/`--scenario-file` and `--seed` arguments
/// (`new` and `play` share it).
pub fn start(
    entry: &GameEntry,
    scenario: &crate::args::ScenarioArgs,
    seed: Option<u64>,
) -> Result<Box<dyn DynSession>, Failure> {
    let source = scenario_source(entry, scenario.scenario.as_deref(), scenario.scenario_file.as_deref())?;
    Ok(entry.new_session(source, seed.unwrap_or_else(clock_seed))?)
}

/// The scenario named by `--scenario` / `--scenario-file` (the first shipped one by default).
pub fn scenario_source(
    entry: &GameEntry,
    scenario: Option<&str>,
    scenario_file: Option<&Path>,
) -> CmdResult<ScenarioSource> {
    match scenario_file {
        Some(path) => Ok(ScenarioSource::Text(read_text(path)?)),
        None => Ok(ScenarioSource::Shipped(entry.scenario(scenario)?.id.clone())),
    }
}

/// Whose view a command takes: `--as SEAT` (an id, a number or `spectator`), else
/// `default`.
pub fn viewer(entry: &GameEntry, as_seat: Option<&str>, default: Option<Seat>) -> CmdResult<Option<Seat>> {
    match as_seat {
        None => Ok(default),
        Some(s) if ["spectator", "none", "all"].contains(&s.trim().to_lowercase().as_str()) => Ok(None),
        Some(s) => Ok(Some(entry.seat(s)?)),
    }
}

/// The seat that must decide now, if any.
pub fn deciding(session: &dyn DynSession) -> Option<Seat> {
    match session.pending() {
        Pending::Seat(s) => Some(s),
        _ => None,
    }
}

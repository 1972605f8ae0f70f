//! The action record: every decision and every outcome of chance, each with a checksum of the
//! state after it. A save file is a record; loading it replays the record and checks every
//! checksum, so a save that was edited or damaged is refused rather than half-loaded. Undo
//! replays the record less a seat's own last actions, back to its last die roll or reveal.
//!
//! Format 2 records chance's outcomes (a die's face, the chit drawn) as actions, and hashes
//! the state's compact binary form. A format-1 save (outcomes not written down, checksums of
//! the state's JSON) still loads: its decisions are replayed with chance drawn from its seed
//! as it was then, every decision checked against the rules again, and the record rewritten
//! in format 2. Its old checksums cannot be checked against a state this build no longer
//! writes, so a damaged format-1 save is caught only where one of its actions is illegal.

use crate::driver::revealed;
use crate::game::{Game, JournalLine, Outcome, Pending, Refusal, Seat, Targets};
use crate::text::{Lang, Text};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The save-file format version this build writes.
pub const FORMAT: u32 = 2;

/// The oldest format this build still reads (and rewrites in [`FORMAT`]).
pub const OLDEST_FORMAT: u32 = 1;

/// Where a game's scenario comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScenarioSource {
    /// A scenario shipped with the game, by id.
    Shipped(String),
    /// A scenario file a player wrote, kept whole in the record so the save stands alone.
    Text(String),
}

impl ScenarioSource {
    /// The name a scenario file a player wrote gives itself (`[scenario]`'s `name_en` and
    /// `name_zh`, as both games' files have them, docs/formats.md); `None` for a shipped one or a
    /// file that names none.
    pub fn written_name(&self) -> Option<Text> {
        let ScenarioSource::Text(text) = self else {
            return None;
        };
        let v: toml::Value = toml::from_str(text).ok()?;
        let head = v.get("scenario")?;
        let en = head.get("name_en")?.as_str()?;
        let zh = head.get("name_zh").and_then(|z| z.as_str()).unwrap_or(en);
        Some(Text::new(en, zh))
    }
}

/// One step of the record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The seat that acted, or `None` when chance acted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The seat's action, or chance's outcome (absent in format 1 for chance, and for an action
    /// whose JSON form is `null`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<serde_json::Value>,
    /// Whether undo may not cross this step (chance, or something revealed).
    #[serde(default)]
    pub barrier: bool,
    /// Checksum of the state after the step, 16 hex digits.
    pub checksum: String,
}

/// A whole game as it is saved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub format: u32,
    pub game: String,
    /// The edition of the game's data it was begun on ([`crate::driver::Rules::DATA_EDITION`]);
    /// absent in records made before editions were kept: the first.
    #[serde(default = "first_edition")]
    pub edition: String,
    pub scenario: ScenarioSource,
    pub seed: u64,
    pub entries: Vec<Entry>,
}

fn first_edition() -> String {
    "1".into()
}

/// Why a record could not be loaded or an action not taken.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("not a Sandtable save file: {0}")]
    Parse(String),
    #[error("save file format {0} is not one this build reads ({OLDEST_FORMAT} to {FORMAT})")]
    Format(u32),
    #[error("this save is for `{found}`, not `{expected}`")]
    WrongGame { expected: String, found: String },
    #[error("{0}")]
    Setup(String),
    #[error("step {step}: {why}")]
    Corrupt { step: usize, why: String },
    #[error("{0}")]
    Refused(Refusal),
    #[error("{0}")]
    Undo(Text),
}

fn hex64(v: u64) -> String {
    format!("{v:016x}")
}

/// A game together with its record: what the command line and the server hold.
#[derive(Clone)]
pub struct Session<G: Game> {
    pub game: G,
    pub record: Record,
}

impl<G: Game> Session<G> {
    fn start(scenario: &ScenarioSource, seed: u64, edition: &str) -> Result<G, RecordError> {
        match scenario {
            ScenarioSource::Shipped(id) => G::new_game_edition(id, seed, edition),
            ScenarioSource::Text(text) => G::from_scenario_text_edition(text, seed, edition),
        }
        .map_err(|e| RecordError::Setup(e.0))
    }

    /// A new game; chance steps at the very start are resolved and recorded.
    pub fn new(scenario: ScenarioSource, seed: u64) -> Result<Session<G>, RecordError> {
        let game = Session::<G>::start(&scenario, seed, G::DATA_EDITION)?;
        let record = Record {
            format: FORMAT,
            game: G::ID.to_string(),
            edition: G::DATA_EDITION.to_string(),
            scenario,
            seed,
            entries: Vec::new(),
        };
        let mut s = Session { game, record };
        s.run_chance()?;
        Ok(s)
    }

    /// Lets chance act until a seat must decide, recording each outcome.
    fn run_chance(&mut self) -> Result<(), RecordError> {
        while self.game.pending() == Pending::Chance {
            let outcome = self.game.resolve_chance().ok_or_else(|| {
                RecordError::Refused(Refusal::new(
                    "",
                    crate::text!("chance has no outcome here", "此处机运没有可能结果"),
                ))
            })?;
            let action = serde_json::to_value(&outcome).map_err(|e| RecordError::Parse(e.to_string()))?;
            self.record.entries.push(Entry {
                seat: None,
                action: (!action.is_null()).then_some(action),
                barrier: true,
                checksum: hex64(self.game.checksum()),
            });
        }
        Ok(())
    }

    /// Applies `seat`'s action, records it, then lets chance act until someone must decide.
    /// Returns whether the action revealed something hidden (then it cannot be undone).
    pub fn act(&mut self, seat: Seat, action: &G::Action) -> Result<bool, RecordError> {
        if self.game.pending() != Pending::Seat(seat) {
            return Err(RecordError::Refused(Refusal::new(
                "",
                crate::text!("it is not this seat's decision", "现在不是该座位做决定"),
            )));
        }
        let hidden = self.game.hidden();
        self.game.apply(seat, action).map_err(RecordError::Refused)?;
        let barrier = revealed(&hidden, &self.game.hidden());
        let action = serde_json::to_value(action).map_err(|e| RecordError::Parse(e.to_string()))?;
        // A `null` action is kept as an absent one, which is how it reads back from JSON.
        let action = (!action.is_null()).then_some(action);
        self.record.entries.push(Entry {
            seat: Some(seat),
            action,
            barrier,
            checksum: hex64(self.game.checksum()),
        });
        self.run_chance()?;
        Ok(barrier)
    }

    /// Rebuilds a game from a record, checking every step and checksum. A format-1 record is
    /// rewritten in this build's format (see the module's notes).
    pub fn replay(record: Record) -> Result<Session<G>, RecordError> {
        if !(OLDEST_FORMAT..=FORMAT).contains(&record.format) {
            return Err(RecordError::Format(record.format));
        }
        if record.game != G::ID {
            return Err(RecordError::WrongGame {
                expected: G::ID.into(),
                found: record.game,
            });
        }
        if record.format < FORMAT {
            return Session::migrate(record);
        }
        let mut game = Session::<G>::start(&record.scenario, record.seed, &record.edition)?;
        game.set_journal(true);
        for (i, e) in record.entries.iter().enumerate() {
            let step = i + 1;
            let corrupt = |why: String| RecordError::Corrupt { step, why };
            match e.seat {
                None => {
                    if game.pending() != Pending::Chance {
                        return Err(corrupt("a chance step where none is due".into()));
                    }
                    if !e.barrier {
                        return Err(corrupt("a chance step must be marked as a barrier".into()));
                    }
                    let outcome = game
                        .resolve_chance()
                        .ok_or_else(|| corrupt("chance has no outcome here".into()))?;
                    let drawn = serde_json::to_value(&outcome).map_err(|err| corrupt(err.to_string()))?;
                    let recorded = e.action.clone().unwrap_or(serde_json::Value::Null);
                    if drawn != recorded {
                        return Err(corrupt(format!(
                            "chance gives {drawn} from this seed, not the recorded {recorded}"
                        )));
                    }
                }
                Some(seat) => {
                    // An action whose JSON form is `null` is saved as an absent action.
                    let a = e.action.clone().unwrap_or(serde_json::Value::Null);
                    let action: G::Action =
                        serde_json::from_value(a).map_err(|err| corrupt(format!("unreadable action: {err}")))?;
                    if game.pending() != Pending::Seat(seat) {
                        return Err(corrupt(format!("seat {seat} acts out of turn")));
                    }
                    let hidden = game.hidden();
                    game.apply(seat, &action).map_err(|r| corrupt(r.to_string()))?;
                    if revealed(&hidden, &game.hidden()) != e.barrier {
                        return Err(corrupt(
                            "the step's undo barrier does not match what the action revealed".into(),
                        ));
                    }
                }
            }
            let sum = hex64(game.checksum());
            if sum != e.checksum {
                return Err(RecordError::Corrupt {
                    step,
                    why: format!("state checksum {sum} differs from the recorded {}", e.checksum),
                });
            }
        }
        if game.pending() == Pending::Chance {
            return Err(RecordError::Corrupt {
                step: record.entries.len(),
                why: "the record ends where chance must act; it was cut short".into(),
            });
        }
        Ok(Session { game, record })
    }

    /// Replays an older record's decisions, drawing chance from its seed, and writes the
    /// record again in this build's format.
    fn migrate(old: Record) -> Result<Session<G>, RecordError> {
        let game = Session::<G>::start(&old.scenario, old.seed, &old.edition)?;
        let record = Record {
            format: FORMAT,
            game: old.game.clone(),
            edition: old.edition.clone(),
            scenario: old.scenario.clone(),
            seed: old.seed,
            entries: Vec::new(),
        };
        let mut s = Session { game, record };
        s.game.set_journal(true);
        s.run_chance()?;
        for (i, e) in old.entries.iter().enumerate() {
            let step = i + 1;
            let corrupt = |why: String| RecordError::Corrupt { step, why };
            // Chance steps come again as the decisions need them.
            let Some(seat) = e.seat else { continue };
            let a = e.action.clone().unwrap_or(serde_json::Value::Null);
            let action: G::Action =
                serde_json::from_value(a).map_err(|err| corrupt(format!("unreadable action: {err}")))?;
            if s.game.pending() != Pending::Seat(seat) {
                return Err(corrupt(format!("seat {seat} acts out of turn")));
            }
            s.act(seat, &action).map_err(|err| corrupt(err.to_string()))?;
        }
        Ok(s)
    }

    /// Reads a record from JSON text and replays it.
    pub fn from_json(text: &str) -> Result<Session<G>, RecordError> {
        let record: Record = serde_json::from_str(text).map_err(|e| RecordError::Parse(e.to_string()))?;
        Session::replay(record)
    }

    /// Takes back `seat`'s last action, if it was that seat's own, nothing has happened
    /// since, and it rolled, drew or revealed nothing.
    pub fn undo(&mut self, seat: Seat) -> Result<(), RecordError> {
        if !self.can_undo(seat) {
            return Err(RecordError::Undo(crate::text!(
                "nothing to undo: the last step was not this seat's, or a die was rolled, a chit drawn or something revealed since",
                "无法撤销:最后一步不是该座位的行动,或者之后已经掷骰、抽取或公开了信息"
            )));
        }
        let mut record = self.record.clone();
        record.entries.pop();
        *self = Session::replay(record)?;
        Ok(())
    }

    /// Whether `seat` could undo now.
    pub fn can_undo(&self, seat: Seat) -> bool {
        matches!(self.record.entries.last(), Some(e) if e.seat == Some(seat) && !e.barrier)
    }
}

/// Writes `text` to `path` through a temporary file and a rename, so a crash never leaves a
/// half-written file behind.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "save".into());
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A legal action as the command line and the server show it.
#[derive(Clone, Debug, Serialize)]
pub struct LegalAction {
    pub notation: String,
    pub text: Text,
    pub action: serde_json::Value,
    /// Only the seat taking it may know it was taken ([`Game::is_secret`]).
    pub secret: bool,
    /// The counters and hexes it is about ([`Game::targets`]).
    #[serde(flatten)]
    pub targets: Targets,
}

/// A legal action as a page shows it: its words in the page's language, whether it is secret and
/// what it is about on the board, without its notation and JSON form (a page takes it by its
/// place in the list, [`DynSession::act_index`]).
#[derive(Clone, Debug, Serialize)]
pub struct LegalChoice {
    pub text: String,
    pub secret: bool,
    pub targets: Targets,
}

/// The legal actions about one counter or stack that a page receives only when its player
/// picks them ([`crate::driver::Rules::pack_key`]): how many there are and what they are about,
/// without their hexes and words.
#[derive(Clone, Debug, Serialize)]
pub struct LegalPack {
    /// Its number among the packs of the list, in order of first place
    /// ([`DynSession::page_pack`]).
    pub pack: usize,
    pub count: usize,
    /// The counters, kind and heading of its actions; no hexes, no note.
    pub targets: Targets,
}

/// One entry of the legal list as a page takes it ([`DynSession::page_legal`]).
#[derive(Clone, Debug)]
pub enum PageEntry {
    /// An action, with its place (from 0) in the whole legal list.
    Action {
        index: usize,
        choice: LegalChoice,
    },
    Pack(LegalPack),
}

/// Each action's pack (`NOT_PACKED` for an action listed whole) and the number of packs, or
/// `None` when a list this short goes whole ([`DynSession::page_legal`]).
fn packs_of<G: Game>(game: &G, list: &[G::Action], pack_from: usize) -> Option<(Vec<u32>, usize)> {
    if list.len() < pack_from {
        return None;
    }
    let mut numbers: std::collections::HashMap<Vec<u32>, u32> = Default::default();
    let (mut key, mut last_key, mut last) = (Vec::new(), Vec::new(), NOT_PACKED);
    let of = list
        .iter()
        .map(|a| {
            key.clear();
            if !game.pack_key(a, &mut key) {
                return NOT_PACKED;
            }
            // The moves of one counter come in runs: the key before first.
            if last != NOT_PACKED && key == last_key {
                return last;
            }
            let next = numbers.len() as u32;
            last = *numbers.entry(key.clone()).or_insert(next);
            std::mem::swap(&mut key, &mut last_key);
            last
        })
        .collect();
    Some((of, numbers.len()))
}

const NOT_PACKED: u32 = u32::MAX;

/// A game session with its type erased, so the command line and the server can hold any game.
pub trait DynSession: Send {
    fn game_id(&self) -> &'static str;
    fn record(&self) -> &Record;
    fn pending(&self) -> Pending;
    fn legal(&self) -> Vec<LegalAction>;
    /// The same list, lighter: what a page in `lang` shows of each action ([`LegalChoice`]).
    fn legal_choices(&self, lang: Lang) -> Vec<LegalChoice>;
    /// The same list for a page: as [`DynSession::legal_choices`] when it holds fewer than
    /// `pack_from` actions; else the actions the game packs ([`crate::driver::Rules::pack_key`])
    /// as one [`LegalPack`] for each counter or stack, placed where its first action is.
    fn page_legal(&self, lang: Lang, pack_from: usize) -> Vec<PageEntry>;
    /// The actions of pack number `pack` of [`DynSession::page_legal`]'s list (every action
    /// with `None`), each with its place in the whole list. Empty for a pack there is not.
    fn page_pack(&self, lang: Lang, pack_from: usize, pack: Option<usize>) -> Vec<(usize, LegalChoice)>;
    /// Acts by notation (as `legal` prints it) or by 1-based number in the legal list.
    fn act_typed(&mut self, seat: Seat, typed: &str) -> Result<(), RecordError>;
    /// Acts by the JSON form of an action.
    fn act_json(&mut self, seat: Seat, action: &serde_json::Value) -> Result<(), RecordError>;
    /// Acts by the action's place (from 0) in the legal list.
    fn act_index(&mut self, seat: Seat, index: usize) -> Result<(), RecordError>;
    fn undo(&mut self, seat: Seat) -> Result<(), RecordError>;
    fn can_undo(&self, seat: Seat) -> bool;
    fn view(&self, seat: Option<Seat>) -> serde_json::Value;
    fn summary(&self, seat: Option<Seat>, lang: Lang) -> String;
    fn journal(&self, seat: Option<Seat>) -> Vec<JournalLine>;
    fn outcome(&self) -> Option<Outcome>;
    fn render_svg(&self, seat: Option<Seat>, lang: Lang) -> String;
    /// The map alone ([`crate::driver::Rules::render_map`]): the same all game long.
    fn render_map(&self, lang: Lang) -> String;
    /// The pieces layer as `seat` may see it ([`crate::driver::Rules::render_pieces`]).
    fn render_pieces(&self, seat: Option<Seat>, lang: Lang) -> String;
    fn board_text(&self, seat: Option<Seat>, lang: Lang) -> String;
    /// Why `seat` may not take `units` to (or against) `hex` now, for a page whose player
    /// clicked a hex that no legal action lights, or a counter that cannot act (`hex` its
    /// own): the game's own refusal, with its rule ([`why_not`]). `None` when no action of
    /// that shape is asked now.
    fn why_not(&self, _seat: Seat, _units: &[String], _hex: &str) -> Option<Refusal> {
        None
    }
    /// The actions about exactly `units` that the legal list offers only with more counters
    /// ([`reach`]), as legal actions are listed.
    fn reach(&self, _seat: Seat, _units: &[String]) -> Vec<LegalAction> {
        Vec::new()
    }
    /// What to read before committing the legal action at `index` of the list
    /// ([`crate::driver::Rules::preview`]).
    fn preview(&self, _index: usize) -> Vec<Text> {
        Vec::new()
    }
    /// What the pending decision is about ([`crate::driver::Rules::context`]).
    fn context(&self) -> Vec<Text> {
        Vec::new()
    }
    /// The game's charts ([`crate::driver::Rules::charts`]).
    fn charts(&self) -> Vec<crate::game::Chart> {
        Vec::new()
    }
    /// The cards `seat` holds ([`crate::driver::Rules::hand`]).
    fn hand(&self, _seat: Seat) -> Vec<crate::game::HandCard> {
        Vec::new()
    }
    /// The side `seat` plays now, where its name does not say it
    /// ([`crate::driver::Rules::seat_side`]).
    fn seat_side(&self, _seat: Seat) -> Option<Text> {
        None
    }
    fn to_json(&self) -> String;
    /// For code that knows the game type (agents, say): downcast to `Session<G>`.
    fn as_any(&self) -> &dyn std::any::Any;
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

/// Why `seat` may not take `units` to (or against) `hex` now. The game's check answers: on a
/// legal action of the same shape (about the same counters and one hex, or failing that about
/// as many other counters) with the counters and the hex put in its typed form
/// ([`Rules::notation`](crate::driver::Rules::notation)), read back by
/// [`Rules::parse_notation`](crate::driver::Rules::parse_notation). So every game that types
/// its actions with the ids its targets name explains a click for nothing more. `None` when no
/// action of that shape is asked now, or the action so made is legal after all.
pub fn why_not<G: Game>(game: &G, seat: Seat, units: &[String], hex: &str) -> Option<Refusal> {
    let list = game.legal_list();
    let targets = game.targets(&list);
    let sorted = |u: &[String]| {
        let mut v: Vec<String> = u.to_vec();
        v.sort();
        v
    };
    let want = sorted(units);
    let mut tried = std::collections::HashSet::new();
    // First the actions about exactly these counters; then those about as many others.
    for same in [true, false] {
        for (a, t) in list.iter().zip(&targets) {
            if t.hexes.len() != 1 || t.units.len() != want.len() || (sorted(&t.units) == want) != same {
                continue;
            }
            let mut words: Vec<String> = game.notation(a).split_whitespace().map(str::to_string).collect();
            let mut put = |old: &str, new: &str| match words.iter_mut().find(|w| *w == old) {
                Some(w) => {
                    *w = new.to_string();
                    true
                }
                None => false,
            };
            if !put(&t.hexes[0], hex) {
                continue;
            }
            if !same && !sorted(&t.units).iter().zip(&want).all(|(old, new)| put(old, new)) {
                continue;
            }
            let typed = words.join(" ");
            if !tried.insert(typed.clone()) {
                continue;
            }
            if let Some(b) = game.parse_notation(&typed) {
                if let Err(r) = game.check_action(seat, &b) {
                    return Some(r);
                }
            }
        }
    }
    None
}

/// The actions `seat` may take now about exactly the counters `units`, each aimed at one hex,
/// where the legal list offers them only with more counters (a stack moving with some of its
/// units left behind): what a page lights when its player picks part of a group. Made, as
/// [`why_not`] makes its actions, from a legal action of the same shape about more counters,
/// with the others taken out of its typed form and the hex put in; a hex is tried where each of
/// `units` has some legal action of its own, and where the whole group goes. Each one the
/// game's check accepts is returned once. Empty when the legal list already has actions about
/// exactly these counters, or none about more of them.
pub fn reach<G: Game>(game: &G, seat: Seat, units: &[String]) -> Vec<G::Action> {
    let list = game.legal_list();
    let targets = game.targets(&list);
    let mut want: Vec<&str> = units.iter().map(String::as_str).collect();
    want.sort_unstable();
    want.dedup();
    if want.len() < 2 {
        return Vec::new();
    }
    fn about(t: &Targets) -> Vec<&str> {
        let mut v: Vec<&str> = t.units.iter().map(String::as_str).collect();
        v.sort_unstable();
        v
    }
    if targets.iter().any(|t| about(t) == want) {
        return Vec::new();
    }
    // The forms of the wider actions with the other counters taken out, and the hexes they go.
    let mut forms: Vec<(Vec<String>, String)> = Vec::new();
    let mut hexes: Vec<String> = Vec::new();
    for (a, t) in list.iter().zip(&targets) {
        let all = about(t);
        if t.hexes.len() != 1 || all.len() <= want.len() || !want.iter().all(|u| all.contains(u)) {
            continue;
        }
        let mut words: Vec<String> = game.notation(a).split_whitespace().map(str::to_string).collect();
        let before = words.len();
        words.retain(|w| !all.contains(&w.as_str()) || want.contains(&w.as_str()));
        if before - words.len() != all.len() - want.len() {
            continue; // the counters are not plain words of its typed form
        }
        if !forms.iter().any(|(w, h)| *w == words && *h == t.hexes[0]) {
            forms.push((words, t.hexes[0].clone()));
        }
        hexes.push(t.hexes[0].clone());
    }
    if forms.is_empty() {
        return Vec::new();
    }
    // Where each of the counters may go alone.
    let mut alone: Option<std::collections::BTreeSet<&str>> = None;
    for u in &want {
        let mine: std::collections::BTreeSet<&str> = targets
            .iter()
            .filter(|t| t.units.len() == 1 && t.units[0] == *u && t.hexes.len() == 1)
            .map(|t| t.hexes[0].as_str())
            .collect();
        alone = Some(match alone {
            None => mine,
            Some(a) => a.intersection(&mine).copied().collect(),
        });
    }
    let mut tries: Vec<String> = alone.unwrap_or_default().into_iter().map(str::to_string).collect();
    tries.extend(hexes);
    tries.sort();
    tries.dedup();
    let mut out: Vec<G::Action> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (words, old) in &forms {
        for hex in &tries {
            let typed: Vec<&str> = words
                .iter()
                .map(|w| if w == old { hex.as_str() } else { w.as_str() })
                .collect();
            let typed = typed.join(" ");
            if !seen.insert(typed.clone()) {
                continue;
            }
            if let Some(b) = game.parse_notation(&typed) {
                if game.check_action(seat, &b).is_ok() && !out.contains(&b) {
                    out.push(b);
                }
            }
        }
    }
    out
}

/// Actions of the pending decision as the command line and the server list them.
fn listed<G: Game>(game: &G, list: &[G::Action]) -> Vec<LegalAction> {
    let targets = game.targets(list);
    list.iter()
        .zip(targets.into_iter().chain(std::iter::repeat_with(Targets::default)))
        .map(|(a, targets)| LegalAction {
            notation: game.notation(a),
            text: game.describe(a),
            action: serde_json::to_value(a).unwrap_or(serde_json::Value::Null),
            secret: game.is_secret(a),
            targets,
        })
        .collect()
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

impl<G: Game> DynSession for Session<G> {
    fn game_id(&self) -> &'static str {
        G::ID
    }

    fn record(&self) -> &Record {
        &self.record
    }

    fn pending(&self) -> Pending {
        self.game.pending()
    }

    fn legal(&self) -> Vec<LegalAction> {
        let mut out = Vec::new();
        self.game.legal_actions(&mut out);
        listed(&self.game, &out)
    }

    fn legal_choices(&self, lang: Lang) -> Vec<LegalChoice> {
        let list = self.game.legal_list();
        let targets = self.game.targets(&list);
        list.iter()
            .zip(targets.into_iter().chain(std::iter::repeat_with(Targets::default)))
            .map(|(a, targets)| LegalChoice {
                text: self.game.describe_in(a, lang),
                secret: self.game.is_secret(a),
                targets,
            })
            .collect()
    }

    fn page_legal(&self, lang: Lang, pack_from: usize) -> Vec<PageEntry> {
        let list = self.game.legal_list();
        let Some((of, packs)) = packs_of(&self.game, &list, pack_from) else {
            return self
                .legal_choices(lang)
                .into_iter()
                .enumerate()
                .map(|(index, choice)| PageEntry::Action { index, choice })
                .collect();
        };
        // The actions listed whole and the first of each pack, what they are about found at once.
        let mut count = vec![0; packs];
        let picked: Vec<usize> = (0..list.len())
            .filter(|&i| match of[i] {
                NOT_PACKED => true,
                p => {
                    count[p as usize] += 1;
                    count[p as usize] == 1
                }
            })
            .collect();
        let actions: Vec<G::Action> = picked.iter().map(|&i| list[i].clone()).collect();
        let targets = self.game.targets(&actions);
        picked
            .into_iter()
            .zip(targets.into_iter().chain(std::iter::repeat_with(Targets::default)))
            .map(|(i, targets)| match of[i] {
                NOT_PACKED => PageEntry::Action {
                    index: i,
                    choice: LegalChoice {
                        text: self.game.describe_in(&list[i], lang),
                        secret: self.game.is_secret(&list[i]),
                        targets,
                    },
                },
                p => PageEntry::Pack(LegalPack {
                    pack: p as usize,
                    count: count[p as usize],
                    targets: Targets {
                        hexes: Vec::new(),
                        note: None,
                        ..targets
                    },
                }),
            })
            .collect()
    }

    fn page_pack(&self, lang: Lang, pack_from: usize, pack: Option<usize>) -> Vec<(usize, LegalChoice)> {
        let list = self.game.legal_list();
        let picked: Vec<usize> = match (pack, packs_of(&self.game, &list, pack_from)) {
            (None, _) => (0..list.len()).collect(),
            (Some(p), Some((of, _))) => (0..list.len()).filter(|&i| of[i] as usize == p).collect(),
            (Some(_), None) => Vec::new(),
        };
        let actions: Vec<G::Action> = picked.iter().map(|&i| list[i].clone()).collect();
        let targets = self.game.targets(&actions);
        picked
            .into_iter()
            .zip(&actions)
            .zip(targets.into_iter().chain(std::iter::repeat_with(Targets::default)))
            .map(|((i, a), targets)| {
                let choice = LegalChoice {
                    text: self.game.describe_in(a, lang),
                    secret: self.game.is_secret(a),
                    targets,
                };
                (i, choice)
            })
            .collect()
    }

    fn act_index(&mut self, seat: Seat, index: usize) -> Result<(), RecordError> {
        let list = self.game.legal_list();
        match list.get(index) {
            Some(a) => self.act(seat, a).map(|_| ()),
            None => Err(RecordError::Refused(Refusal::new(
                "",
                crate::text!(
                    "there is no legal action number {index} now ({} are legal, numbered from 0)",
                    "现在没有第 {index} 号合法行动(共 {} 项,从 0 编号)",
                    list.len()
                ),
            ))),
        }
    }

    fn act_typed(&mut self, seat: Seat, typed: &str) -> Result<(), RecordError> {
        let mut legal = Vec::new();
        self.game.legal_actions(&mut legal);
        let want = normalise(typed);
        let chosen = if let Ok(n) = want.parse::<usize>() {
            legal.get(n.wrapping_sub(1)).cloned()
        } else {
            legal
                .iter()
                .find(|a| normalise(&self.game.notation(a)) == want)
                .cloned()
        };
        if chosen.is_none() {
            // Not legal now: if it reads as an action, let the game refuse it with the rule.
            if let Some(a) = self.game.parse_notation(typed) {
                return self.act(seat, &a).map(|_| ());
            }
        }
        match chosen {
            Some(a) => self.act(seat, &a).map(|_| ()),
            None => Err(RecordError::Refused(Refusal::new(
                "",
                crate::text!(
                    "`{typed}` is not one of the legal actions now (list them with `legal`)",
                    "“{typed}”不是当前的合法行动(用 legal 列出)"
                ),
            ))),
        }
    }

    fn act_json(&mut self, seat: Seat, action: &serde_json::Value) -> Result<(), RecordError> {
        let a: G::Action = serde_json::from_value(action.clone()).map_err(|e| {
            RecordError::Refused(Refusal::new(
                "",
                crate::text!("malformed action: {e}", "行动格式错误:{e}"),
            ))
        })?;
        self.act(seat, &a).map(|_| ())
    }

    fn undo(&mut self, seat: Seat) -> Result<(), RecordError> {
        Session::undo(self, seat)
    }

    fn can_undo(&self, seat: Seat) -> bool {
        Session::can_undo(self, seat)
    }

    fn view(&self, seat: Option<Seat>) -> serde_json::Value {
        self.game.view(seat)
    }

    fn summary(&self, seat: Option<Seat>, lang: Lang) -> String {
        self.game.summary(seat, lang)
    }

    fn journal(&self, seat: Option<Seat>) -> Vec<JournalLine> {
        self.game.journal(seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn render_svg(&self, seat: Option<Seat>, lang: Lang) -> String {
        self.game.render_svg(seat, lang)
    }

    fn render_map(&self, lang: Lang) -> String {
        self.game.render_map(lang)
    }

    fn render_pieces(&self, seat: Option<Seat>, lang: Lang) -> String {
        self.game.render_pieces(seat, lang)
    }

    fn board_text(&self, seat: Option<Seat>, lang: Lang) -> String {
        self.game.board_text(seat, lang)
    }

    fn why_not(&self, seat: Seat, units: &[String], hex: &str) -> Option<Refusal> {
        why_not(&self.game, seat, units, hex)
    }

    fn reach(&self, seat: Seat, units: &[String]) -> Vec<LegalAction> {
        listed(&self.game, &reach(&self.game, seat, units))
    }

    fn preview(&self, index: usize) -> Vec<Text> {
        self.game
            .legal_list()
            .get(index)
            .map(|a| self.game.preview(a))
            .unwrap_or_default()
    }

    fn context(&self) -> Vec<Text> {
        self.game.context()
    }

    fn charts(&self) -> Vec<crate::game::Chart> {
        self.game.charts()
    }

    fn hand(&self, seat: Seat) -> Vec<crate::game::HandCard> {
        self.game.hand(seat)
    }

    fn seat_side(&self, seat: Seat) -> Option<Text> {
        self.game.seat_side(seat)
    }

    fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.record).unwrap_or_default()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

//! What can go wrong when a program picks a game, a scenario, a seat or an agent by name, or
//! opens a save, said in both languages.
//!
//! The core's [`RecordError`] speaks English only for the damage it finds in a save file; the
//! command line and the server both need those messages in Chinese too, so the translation
//! lives here, once.

use sandtable_core::game::Refusal;
use sandtable_core::record::{RecordError, FORMAT};
use sandtable_core::text::{Lang, Text};

/// Why the catalog could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// No game has this id.
    #[error("{}", self.text().en)]
    UnknownGame { found: String, known: Vec<String> },
    /// The game ships no scenario with this id.
    #[error("{}", self.text().en)]
    UnknownScenario {
        game: String,
        found: String,
        known: Vec<String>,
    },
    /// The game has no seat with this id or number.
    #[error("{}", self.text().en)]
    UnknownSeat {
        game: String,
        found: String,
        known: Vec<String>,
    },
    /// The game offers no agent with this name.
    #[error("{}", self.text().en)]
    UnknownAgent {
        game: String,
        found: String,
        known: Vec<String>,
    },
    /// A save that cannot be read, or an action refused.
    #[error("{}", record_error_text(.0).en)]
    Record(#[from] RecordError),
    /// A simulated game stopped on an error of the rules (a dead end, a refused move, a
    /// panic): the seed lets anyone replay it.
    #[error("{}", self.text().en)]
    SimGame {
        /// The game's index in the simulation, from 0.
        index: u64,
        /// The game's seed.
        seed: u64,
        why: Text,
    },
    /// Anything else, already in both languages.
    #[error("{}", .0.en)]
    Other(Text),
}

impl CatalogError {
    /// The error in both languages.
    pub fn text(&self) -> Text {
        match self {
            CatalogError::UnknownGame { found, known } => {
                let known = known.join(", ");
                Text::new(
                    format!("there is no game `{found}` (games: {known})"),
                    format!("没有名为“{found}”的游戏(可选:{known})"),
                )
            }
            CatalogError::UnknownScenario { game, found, known } => {
                let known = known.join(", ");
                Text::new(
                    format!("{game} has no scenario `{found}` (scenarios: {known})"),
                    format!("{game} 没有剧本“{found}”(可选:{known})"),
                )
            }
            CatalogError::UnknownSeat { game, found, known } => {
                let known = known.join(", ");
                Text::new(
                    format!("{game} has no seat `{found}` (seats: {known})"),
                    format!("{game} 没有座位“{found}”(可选:{known})"),
                )
            }
            CatalogError::UnknownAgent { game, found, known } => {
                let known = known.join(", ");
                Text::new(
                    format!("{game} has no computer player `{found}` (agents: {known})"),
                    format!("{game} 没有名为“{found}”的电脑玩家(可选:{known})"),
                )
            }
            CatalogError::Record(e) => record_error_text(e),
            CatalogError::SimGame { index, seed, why } => Text::new(
                format!(
                    "simulated game {} (seed {seed}) stopped: {} — replay it with that seed to investigate",
                    index + 1,
                    why.en
                ),
                format!(
                    "模拟的第 {} 局(种子 {seed})中断:{} —— 用该种子重现以便排查",
                    index + 1,
                    why.zh
                ),
            ),
            CatalogError::Other(t) => t.clone(),
        }
    }

    /// The error in one language.
    pub fn message(&self, lang: Lang) -> String {
        self.text().get(lang).to_string()
    }
}

/// A refusal in both languages, with its rule number in front when it has one.
pub fn refusal_text(r: &Refusal) -> Text {
    Text::new(r.message(Lang::En), r.message(Lang::Zh))
}

/// A [`RecordError`] in both languages, worded for a player holding a save file.
pub fn record_error_text(e: &RecordError) -> Text {
    match e {
        RecordError::Io { path, source } => Text::new(
            format!("cannot read {path}: {source}"),
            format!("无法读取 {path}:{source}"),
        ),
        RecordError::Parse(why) => Text::new(
            format!("not a Sandtable save file (or a damaged one): {why}"),
            format!("不是沙盘存档文件(或文件已损坏):{why}"),
        ),
        RecordError::Format(found) => Text::new(
            format!(
                "this save file has format {found}; this build reads format {FORMAT} — open it with the Sandtable version that wrote it"
            ),
            format!("此存档的格式为 {found},本程序只能读取格式 {FORMAT} —— 请用写入它的沙盘版本打开"),
        ),
        RecordError::WrongGame { expected, found } => Text::new(
            format!("this save is for `{found}`, not `{expected}`"),
            format!("此存档属于“{found}”,而不是“{expected}”"),
        ),
        RecordError::Setup(why) => Text::new(
            format!("cannot set up the game: {why}"),
            format!("无法布置游戏:{why}"),
        ),
        RecordError::Corrupt { step, why } => Text::new(
            format!(
                "the save file was damaged or edited: step {step} does not replay ({why})"
            ),
            format!("存档已损坏或被改动:第 {step} 步无法重演({why})"),
        ),
        RecordError::Refused(r) => refusal_text(r),
        RecordError::Undo(t) => t.clone(),
    }
}

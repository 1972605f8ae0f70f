//! The small types every rule system shares: who must act ([`Pending`]), a refusal with its
//! rule, outcomes, seats and scenarios, what an action is about on the board, the log, and the
//! players that choose actions ([`Agent`]). The [`Game`] trait itself is the decision driver's
//! ([`crate::driver`]).
//!
//! A game is a state machine of pending decisions. At every moment either one seat must
//! choose among a finite list of legal actions, or chance must act (a die roll, a draw from
//! a cup), or the game is over. Nested procedures (a combat that asks the defender how to
//! retreat, then the attacker whether to advance) live in the game state as procedure frames,
//! never on the Rust call stack, so a game can be saved and resumed at any decision.

use crate::chance::Rng;
pub use crate::driver::{Engine, Game, Rules, Who};
use crate::text::{Lang, Text};
use serde::{Deserialize, Serialize};

/// A seat at the table (0, 1, …), in the order [`Game::seats`] lists them.
pub type Seat = u8;

/// Who must act next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "seat")]
pub enum Pending {
    /// This seat must choose one of the legal actions.
    Seat(Seat),
    /// Chance acts next ([`Game::resolve_chance`]).
    Chance,
    /// The game is over.
    Over,
}

/// An action refused: the rule it breaks and why, in both languages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// The rule number, as the rulebook prints it ("9.2(3)").
    pub rule: String,
    pub text: Text,
}

impl Refusal {
    pub fn new(rule: impl Into<String>, text: Text) -> Refusal {
        Refusal {
            rule: rule.into(),
            text,
        }
    }

    /// The refusal in one language, with its rule: "9.2(3): …".
    pub fn message(&self, lang: Lang) -> String {
        if self.rule.is_empty() {
            self.text.get(lang).to_string()
        } else {
            format!("{}: {}", self.rule, self.text.get(lang))
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message(Lang::En))
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seat, or `None` for a draw.
    pub winner: Option<Seat>,
    pub text: Text,
}

/// A seat as players see it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatInfo {
    pub id: &'static str,
    pub name: Text,
}

/// A scenario a game ships.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioInfo {
    pub id: String,
    pub name: Text,
    /// Whether the scenario rests on data authored here (maps, counters, set-ups) because
    /// the rulebook lacks it; `note` says which.
    pub reconstructed: bool,
    pub note: Text,
}

/// What kind of choice an action is, so that a page takes it by clicking the board in the same
/// way for every game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionKind {
    /// A unit goes somewhere: its counter, then a hex (a move, a retreat, an advance).
    Move,
    /// Units attack or fire on a hex: the counters, then the hex.
    Attack,
    /// A piece is put on the map: the hex.
    Place,
    /// A counter is chosen (to activate, to withdraw, to take a loss).
    Choose,
    /// Nothing to click on the board: a button (end a phase, yes or no, a chit).
    #[default]
    Other,
}

/// What a legal action is about on the board, so that a page can let a player take it by
/// clicking counters and hexes rather than reading a list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Targets {
    /// The counters the action moves, chooses or commits (their `data-id` in the board SVG).
    pub units: Vec<String>,
    /// The hexes or spaces it goes to or aims at (their printed ids, `data-hex`/`data-space`).
    pub hexes: Vec<String>,
    /// A short remark for the hex, such as the movement points it costs.
    pub note: Option<Text>,
    /// How the action is taken on the board.
    #[serde(default)]
    pub kind: ActionKind,
    /// The heading it is listed under, in both languages ("Move", "Declare attacks").
    #[serde(default)]
    pub group: Text,
    /// The card of the seat's hand it uses ([`HandCard::id`]), so that a page can offer it on
    /// the card; `note` then says how (its words for the use: "3 OPS", "event").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
}

/// A card of a seat's hand as that seat sees it ([`crate::driver::Rules::hand`]): what a page
/// draws as the card, with the legal actions whose [`Targets::card`] names it as its buttons.
/// For every game with hands of cards (Paths of Glory's, SS Panzer's hidden missions).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandCard {
    /// The id the legal actions name it by.
    pub id: String,
    pub name: Text,
    /// Its printed values, each with a short label ("OPS" → "3").
    pub values: Vec<(Text, String)>,
    /// What its event does, in the game's own words, where the game has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<Text>,
    /// A card of the other side's hand that an event showed this seat (Paths of Glory's Mata
    /// Hari): drawn apart, with no uses.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub seen: bool,
}

/// A chart of a game for players to read beside the board, from the game's own data: the CRT,
/// the terrain effects chart, the turn track, the map legend, a glossary of what the log and
/// the board print, how a turn goes. A table of texts in both languages.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chart {
    /// A short id (`crt`, `tec`, `turns`, `legend`, `glossary`, `play`).
    pub id: String,
    pub title: Text,
    /// What the chart is and where it comes from (its rule), above the table; may be empty.
    pub note: Text,
    /// The column headings.
    pub head: Vec<Text>,
    pub rows: Vec<Vec<Text>>,
    /// A colour (CSS) shown beside each row's first cell, for a legend; empty or one per row.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub swatches: Vec<String>,
}

/// A scenario or data file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// What a log line did on the board, typed, so that a page draws it without reading the line's
/// words. Units are named by their counter ids (`data-id` in the board SVG) and places by the
/// game's location ids (a hex's printed id, or a space's id on a point-to-point map): the same
/// ids [`Targets`] uses. Marks are not part of a game's state: the log is rebuilt by replaying a
/// record, so an old record gets its marks when it is loaded, and no checksum changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Mark {
    /// A unit moved of its own will: from where it stood to where it stopped, with the
    /// locations it passed through (`from` and `to` included) when the game knows them.
    Move {
        unit: String,
        from: String,
        to: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        path: Vec<String>,
    },
    /// A unit gave ground after a combat (or before one, or away from an enemy coming near).
    Retreat {
        unit: String,
        from: String,
        to: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        path: Vec<String>,
    },
    /// A unit followed up a combat into ground the enemy left.
    Advance { unit: String, from: String, to: String },
    /// Units attacked a location from theirs (`from`, one entry per attacker's location,
    /// without repeats).
    Attack {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        units: Vec<String>,
        #[serde(default)]
        from: Vec<String>,
        at: String,
    },
    /// Guns fired on a location from theirs.
    Barrage {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        units: Vec<String>,
        #[serde(default)]
        from: Vec<String>,
        at: String,
    },
    /// A unit (or, with none, the location's own defences, such as a fortress) lost a step
    /// and stays on the board.
    StepLost {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<String>,
        at: String,
    },
    /// A unit was destroyed where it stood.
    Eliminated { unit: String, at: String },
    /// A unit left the board without loss (withdrawn, taken off to a holding box, exited).
    Withdrawn { unit: String, at: String },
    /// A unit came onto the board (a reinforcement, a set-up placement).
    Arrived { unit: String, at: String },
}

impl Mark {
    /// The mark's kind as the page names it (`move`, `step-lost`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Mark::Move { .. } => "move",
            Mark::Retreat { .. } => "retreat",
            Mark::Advance { .. } => "advance",
            Mark::Attack { .. } => "attack",
            Mark::Barrage { .. } => "barrage",
            Mark::StepLost { .. } => "step-lost",
            Mark::Eliminated { .. } => "eliminated",
            Mark::Withdrawn { .. } => "withdrawn",
            Mark::Arrived { .. } => "arrived",
        }
    }
}

/// Follows the marks of `lines` from `at` (each unit on the board and its location), as a page
/// does: afterwards `at` holds where the marks leave each unit. The first mark that does not
/// fit is an error: a unit moving, losing a step or leaving from where it does not stand, or
/// arriving while already on the board.
pub fn follow_marks(at: &mut std::collections::BTreeMap<String, String>, lines: &[JournalLine]) -> Result<(), String> {
    for (i, line) in lines.iter().enumerate() {
        for m in &line.marks {
            let bad = |why: &str| format!("line {i} ({}), {m:?}: {why}", line.text.en);
            match m {
                Mark::Move { unit, from, to, .. }
                | Mark::Retreat { unit, from, to, .. }
                | Mark::Advance { unit, from, to } => {
                    if at.get(unit) != Some(from) {
                        return Err(bad(&format!("the unit stands at {:?}", at.get(unit))));
                    }
                    at.insert(unit.clone(), to.clone());
                }
                Mark::StepLost {
                    unit: Some(unit),
                    at: place,
                } => {
                    if at.get(unit) != Some(place) {
                        return Err(bad(&format!("the unit stands at {:?}", at.get(unit))));
                    }
                }
                Mark::Eliminated { unit, at: place } | Mark::Withdrawn { unit, at: place } => {
                    if at.remove(unit).as_ref() != Some(place) {
                        return Err(bad("the unit does not stand there"));
                    }
                }
                Mark::Arrived { unit, at: place } => {
                    if let Some(was) = at.insert(unit.clone(), place.clone()) {
                        return Err(bad(&format!("the unit stood at {was} already")));
                    }
                }
                Mark::Attack { units, from, .. } | Mark::Barrage { units, from, .. } => {
                    for u in units {
                        if !at.get(u).is_some_and(|p| from.contains(p)) {
                            return Err(bad(&format!("{u} stands at {:?}", at.get(u))));
                        }
                    }
                }
                Mark::StepLost { unit: None, .. } => {}
            }
        }
    }
    Ok(())
}

/// One line of a game's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalLine {
    /// Headings mark turns and phases, so a reader can jump through the log.
    pub heading: bool,
    pub text: Text,
    /// What the line did on the board, if anything ([`Mark`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<Mark>,
}

/// Who may read a log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Audience {
    All,
    Only(Seat),
}

/// A game's log, kept in its state.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Journal {
    pub off: bool,
    lines: Vec<(Audience, JournalLine)>,
    /// How everyone reads a whispered line once the game is over: the line's index and text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    told: Vec<(usize, Text)>,
}

impl Journal {
    /// Adds a line everyone may read.
    pub fn say(&mut self, text: impl FnOnce() -> Text) {
        if !self.off {
            self.lines.push((
                Audience::All,
                JournalLine {
                    heading: false,
                    text: text(),
                    marks: Vec::new(),
                },
            ));
        }
    }

    /// Adds a line everyone may read, with what it did on the board ([`Mark`]). Neither closure
    /// runs while the log is off (a search, a simulation).
    pub fn say_marked<M: IntoIterator<Item = Mark>>(&mut self, text: impl FnOnce() -> Text, marks: impl FnOnce() -> M) {
        if !self.off {
            self.lines.push((
                Audience::All,
                JournalLine {
                    heading: false,
                    text: text(),
                    marks: marks().into_iter().collect(),
                },
            ));
        }
    }

    /// Adds marks to the line said last: for what a line already said brings about on the board
    /// without a line of its own (the overrunning units entering the hex their combat emptied).
    pub fn mark_last<M: IntoIterator<Item = Mark>>(&mut self, marks: impl FnOnce() -> M) {
        if !self.off {
            if let Some((_, line)) = self.lines.last_mut() {
                line.marks.extend(marks());
            }
        }
    }

    /// How many lines have been written (a place to read new lines' marks from).
    pub fn written(&self) -> usize {
        self.lines.len()
    }

    /// The marks of the lines written from `from` on.
    pub fn marks_from(&self, from: usize) -> impl Iterator<Item = &Mark> {
        self.lines.iter().skip(from).flat_map(|(_, l)| l.marks.iter())
    }

    /// Adds marks to the last line every seat reads.
    pub fn mark_last_public<M: IntoIterator<Item = Mark>>(&mut self, marks: impl FnOnce() -> M) {
        if !self.off {
            if let Some((_, line)) = self
                .lines
                .iter_mut()
                .rev()
                .find(|(a, l)| *a == Audience::All && !l.heading)
            {
                line.marks.extend(marks());
            }
        }
    }

    /// Adds a heading (a turn or phase).
    pub fn heading(&mut self, text: impl FnOnce() -> Text) {
        if !self.off {
            self.lines.push((
                Audience::All,
                JournalLine {
                    heading: true,
                    text: text(),
                    marks: Vec::new(),
                },
            ));
        }
    }

    /// Adds a line only `seat` may read until the game ends, in its own words (`own`: "You
    /// draw …"); once the game is over the others read it as `told` ("The CP draws …").
    pub fn whisper(&mut self, seat: Seat, own: impl FnOnce() -> Text, told: impl FnOnce() -> Text) {
        if !self.off {
            self.told.push((self.lines.len(), told()));
            self.lines.push((
                Audience::Only(seat),
                JournalLine {
                    heading: false,
                    text: own(),
                    marks: Vec::new(),
                },
            ));
        }
    }

    /// The lines `seat` may read; everything once `all` is set (the game is over), another
    /// seat's whispered lines then as they are told to all.
    pub fn for_seat(&self, seat: Option<Seat>, all: bool) -> Vec<JournalLine> {
        let mut told = self.told.iter().peekable();
        let mut out = Vec::with_capacity(self.lines.len());
        for (i, (a, l)) in self.lines.iter().enumerate() {
            let as_told = told.next_if(|(k, _)| *k == i).map(|(_, t)| t);
            match (*a, seat) {
                (Audience::All, _) => out.push(l.clone()),
                (Audience::Only(s), Some(t)) if s == t => out.push(l.clone()),
                (Audience::Only(_), _) if all => out.push(JournalLine {
                    text: as_told.cloned().unwrap_or_else(|| l.text.clone()),
                    ..l.clone()
                }),
                _ => {}
            }
        }
        out
    }
}

/// A player program: the computer opponent, or a random mover for tests and simulations. It
/// sees what its seat may know ([`Rules::View`]) and the legal actions, never the game.
pub trait Agent<G: Game>: Send {
    /// Picks one of `legal` (never empty) for `seat`; returns its index.
    fn choose(&mut self, view: &G::View<'_>, seat: Seat, legal: &[G::Action], rng: &mut Rng) -> usize;
}

/// Plays a game to its end (or to `max_decisions`) with one agent per seat. Returns the
/// number of seat decisions taken. Chance is resolved as it comes.
pub fn play_out<G: Game>(
    game: &mut G,
    agents: &mut [Box<dyn Agent<G>>],
    rng: &mut Rng,
    max_decisions: u64,
) -> Result<u64, Refusal> {
    play_out_watching(game, agents, rng, max_decisions, |_| {})
}

/// [`play_out`], calling `watch` with the game before every seat's decision: for tests that
/// check an invariant of every position random play reaches.
pub fn play_out_watching<G: Game>(
    game: &mut G,
    agents: &mut [Box<dyn Agent<G>>],
    rng: &mut Rng,
    max_decisions: u64,
    mut watch: impl FnMut(&G),
) -> Result<u64, Refusal> {
    let mut decisions = 0;
    loop {
        match game.pending() {
            Pending::Over => return Ok(decisions),
            Pending::Chance => {
                if game.resolve_chance().is_none() {
                    return Err(Refusal::new(
                        "",
                        crate::text!("dead end: chance has no outcome", "死局:机运没有可能结果"),
                    ));
                }
            }
            Pending::Seat(seat) => {
                if decisions >= max_decisions {
                    return Ok(decisions);
                }
                watch(game);
                let legal = game.legal_list();
                if legal.is_empty() {
                    return Err(Refusal::new(
                        "",
                        crate::text!(
                            "dead end: seat {seat} has no legal action",
                            "死局:座位{seat}没有合法行动"
                        ),
                    ));
                }
                let i = agents[seat as usize].choose(&game.seat_view(seat), seat, &legal, rng);
                game.apply(seat, &legal[i.min(legal.len() - 1)])?;
                decisions += 1;
            }
        }
    }
}

/// The agent that picks uniformly at random among the legal actions.
#[derive(Clone, Debug, Default)]
pub struct RandomAgent;

impl<G: Game> Agent<G> for RandomAgent {
    fn choose(&mut self, _: &G::View<'_>, _: Seat, legal: &[G::Action], rng: &mut Rng) -> usize {
        rng.below(legal.len() as u32) as usize
    }
}

/// [`play_out`] with [`RandomAgent`] in every seat: random legal play, as benchmarks and
/// fuzzing use it.
pub fn play_randomly<G: Game>(game: &mut G, rng: &mut Rng, max_decisions: u64) -> Result<u64, Refusal> {
    play_randomly_watching(game, rng, max_decisions, |_| {})
}

/// [`play_randomly`], calling `watch` with the game before every seat's decision.
pub fn play_randomly_watching<G: Game>(
    game: &mut G,
    rng: &mut Rng,
    max_decisions: u64,
    watch: impl FnMut(&G),
) -> Result<u64, Refusal> {
    let mut agents: Vec<Box<dyn Agent<G>>> = G::seats().iter().map(|_| Box::new(RandomAgent) as _).collect();
    play_out_watching(game, &mut agents, rng, max_decisions, watch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_line_carries_its_marks_and_an_unmarked_one_reads_as_before() {
        let mut j = Journal::default();
        j.say(|| crate::text!("plain", "平"));
        j.say_marked(
            || crate::text!("moved", "移动"),
            || {
                [Mark::Move {
                    unit: "u1".into(),
                    from: "0101".into(),
                    to: "0103".into(),
                    path: vec!["0101".into(), "0102".into(), "0103".into()],
                }]
            },
        );
        j.off = true;
        j.say_marked(
            || panic!("no text while the log is off"),
            || -> [Mark; 0] { panic!("no marks either") },
        );
        let lines = j.for_seat(None, true);
        assert_eq!(lines.len(), 2);
        // A line without marks is written as it always was, and one written so still reads.
        let plain = serde_json::to_value(&lines[0]).unwrap();
        assert_eq!(
            plain,
            serde_json::json!({"heading": false, "text": {"en": "plain", "zh": "平"}})
        );
        let back: JournalLine = serde_json::from_value(plain).unwrap();
        assert!(back.marks.is_empty());
        let moved = serde_json::to_value(&lines[1]).unwrap();
        assert_eq!(
            moved["marks"],
            serde_json::json!([{"kind": "move", "unit": "u1", "from": "0101", "to": "0103", "path": ["0101", "0102", "0103"]}])
        );
        let back: JournalLine = serde_json::from_value(moved).unwrap();
        assert_eq!(back, lines[1]);
    }

    /// A whispered line: its seat's alone while the game goes on, told to all once it ends.
    #[test]
    fn a_whispered_line_is_its_seats_until_the_end_then_told_to_all() {
        let mut j = Journal::default();
        j.say(|| crate::text!("deal", "发牌"));
        j.whisper(
            0,
            || crate::text!("You draw 3", "你抽到3"),
            || crate::text!("Red draws 3", "红方抽到3"),
        );
        j.say(|| crate::text!("play", "出牌"));
        let read = |seat, over| -> Vec<String> { j.for_seat(seat, over).into_iter().map(|l| l.text.en).collect() };
        assert_eq!(read(Some(0), false), ["deal", "You draw 3", "play"]);
        assert_eq!(read(Some(1), false), ["deal", "play"]);
        assert_eq!(read(None, false), ["deal", "play"]);
        assert_eq!(read(Some(0), true), ["deal", "You draw 3", "play"]);
        assert_eq!(read(Some(1), true), ["deal", "Red draws 3", "play"]);
        assert_eq!(read(None, true), ["deal", "Red draws 3", "play"]);
        let lost = serde_json::to_value(Mark::StepLost {
            unit: None,
            at: "0202".into(),
        })
        .unwrap();
        assert_eq!(lost, serde_json::json!({"kind": "step-lost", "at": "0202"}));
    }
}

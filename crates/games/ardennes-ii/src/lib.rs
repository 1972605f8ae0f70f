//! MMP's Standard Combat Series game 阿登 II (Ardennes II) as a Sandtable rule system.
//!
//! Rules source: the Chinese rulebook (`shared/seeds/ardennes-ii.zh.txt`) with the SCS series
//! rules it relies on; readings of ambiguous rules are in `RULINGS.md`. The map, the counter
//! values the set-ups do not print and the scenario data live in `data/` as plain files, each
//! saying where its content comes from.
//!
//! The game is written on the core's decision driver ([`sandtable_core::driver`]): what is in
//! progress is a stack of [`frames`], and each rule section has its module, which says whether
//! an action is legal (and if not, why, with the rule), lists the legal ones with the same
//! functions, and carries them out:
//!
//! - the fixed data and the map: [`data`], [`world`]; the sequence of play: [`sequence`];
//!   what changes: [`state`]; the ZOC Bonds: [`bonds`]; questions asked of a position
//!   (movement costs, supply, strengths): [`rules`]; what the rules remember: [`memo`];
//! - the procedures: `setup` (7.0, SCS 5.0, 5.1), `turn` (2.1, 2.2), `reinforcements` (2.2,
//!   4.1), `dg` (3.1, 3.4), `supply` (3.7), `air_supply` (2.2, 3.7), `movement` (3.1, SCS 6.0,
//!   SCS 11.0), `overrun` (3.3), `barrage` (3.5), `combat` (3.2), `bug_out` (3.6), `bridges`
//!   (3.8), `boats` (4.2), `victory` (6.0, 7.x); `procedure` hands each frame's decision to
//!   them;
//! - what players read and see: [`present`].

pub mod action;
pub mod data;
pub mod frames;
pub mod memo;
pub mod present;
pub mod rules;
pub mod sequence;
pub mod state;
pub mod world;

mod air_supply;
mod barrage;
mod boats;
mod bridges;
mod bug_out;
mod combat;
mod dg;
mod marks;
mod movement;
mod overrun;
mod procedure;
mod reinforcements;
mod setup;
mod supply;
mod turn;
mod victory;

pub use action::Action;
pub use combat::Odds;

use frames::Frame;
use sandtable_core::checksum::StateHasher;
use sandtable_core::driver::{Engine, Rules, Who};
use sandtable_core::game::{Journal, JournalLine, Outcome, Refusal, ScenarioInfo, Seat, SeatInfo, SetupError, Targets};
use sandtable_core::text::{Lang, Text};
use sequence::Phase;
use state::{Combat, Placing, State, UnitId};
use std::sync::Arc;
use world::World;

/// A game of Ardennes II.
#[derive(Clone)]
pub struct ArdennesII {
    pub(crate) w: Arc<World>,
    pub(crate) s: State,
    pub(crate) engine: Engine<Action, Frame>,
    pub(crate) journal: Journal,
    /// The scenario being played (a shipped one, or one a player wrote).
    pub(crate) scenario: Arc<data::Scenario>,
    /// The data edition the game was begun on (1 to 5; docs/formats.md "edition"): a game
    /// begun on an earlier one keeps the readings and the map it was played under, so that its
    /// record replays (RULINGS, "Data editions"): edition 1 the bug-out road count from the
    /// gun's own road (3.6); editions 1 and 2 the map before the 1944 secondary road net
    /// (`data/edition-2/map.toml`) and the engine's picks of observers and demolition units.
    pub(crate) edition: u8,
}

/// What one seat may know, as a computer player reads it. Ardennes II hides nothing (SCS: both
/// players see every stack, every marker and the whole procedure in progress), so a seat's view
/// is the whole game.
pub struct SeatView<'a> {
    g: &'a ArdennesII,
    seat: Seat,
}

impl<'a> SeatView<'a> {
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The side the seat plays.
    pub fn side(&self) -> sequence::Side {
        if self.seat == sequence::Side::German.seat() {
            sequence::Side::German
        } else {
            sequence::Side::Allied
        }
    }

    /// The game, all of which the seat may see.
    pub fn game(&self) -> &'a ArdennesII {
        self.g
    }
}

/// The data edition new games begin on ([`Rules::DATA_EDITION`] as a number).
pub(crate) const EDITION: u8 = 5;

/// The number of data edition `edition` (1 to 5); an edition this build does not know is
/// refused.
fn edition_number(edition: &str) -> Result<u8, SetupError> {
    match edition {
        "1" => Ok(1),
        "2" => Ok(2),
        "3" => Ok(3),
        "4" => Ok(4),
        "5" => Ok(5),
        other => Err(SetupError(format!(
            "this game of ardennes-ii was begun on edition {other} of its data, which this build does not have (it plays editions 1 to {})",
            <ArdennesII as Rules>::DATA_EDITION
        ))),
    }
}

impl Rules for ArdennesII {
    type Action = Action;
    type Frame = Frame;
    type View<'a> = SeatView<'a>;
    const ID: &'static str = "ardennes-ii";
    const SEQUENCE_OF_PLAY: &'static str = "2.1";
    /// Edition 5: a hex is on the west or east edge of the playing area by the hex beside it in
    /// the same row, no longer by those a row up or down, which lie beyond the north and south
    /// edges (supply sources and exits by an edge, blocked entry areas: 3.7, 6.0, 7.x). Edition
    /// 4: an arrival is spared the stacking limit until its first movement phase ends, not
    /// divisional integrity (3.1, SCS 5.0). Edition 3: the map's 1944 secondary road net; the firing player chooses the barrage's
    /// observer (3.5), the US player the unit that makes a demolition attempt (3.8), a German
    /// stack may enter an empty traffic jam together and stacking is checked at the end of every
    /// phase (3.1). Edition 2: Entry Area N across the seam and the bug-out road count from the
    /// nearest road (3.6). Games begun on editions 1 and 2 replay on the map of edition 2 with
    /// the readings they were played under.
    const DATA_EDITION: &'static str = "5";

    fn seat_view(&self, seat: Seat) -> SeatView<'_> {
        SeatView { g: self, seat }
    }

    /// Nothing is hidden: the game itself, with new dice.
    fn sample(view: &SeatView<'_>, rng: &mut sandtable_core::chance::Rng) -> ArdennesII {
        let mut g = view.g.clone();
        g.engine.reseed(rng.word() as u64);
        g
    }

    fn engine(&self) -> &Engine<Action, Frame> {
        &self.engine
    }

    fn engine_mut(&mut self) -> &mut Engine<Action, Frame> {
        &mut self.engine
    }

    fn who(&self, frame: &Frame) -> Who {
        self.who_at(frame)
    }

    fn legal(&self, frame: &Frame, out: &mut Vec<Action>) {
        self.legal_at(frame, out)
    }

    fn legal_again(&self, frame: &Frame, out: &mut Vec<Action>) {
        self.legal_again_at(frame, out)
    }

    /// Every die of Ardennes II is one six-sided die (the combat's two are rolled one after
    /// the other).
    fn outcomes(&self, frame: &Frame, out: &mut Vec<(Action, u32)>) {
        if let Frame::Roll(_) = frame {
            out.extend((1..=6).map(|face| (Action::Die { face }, 1)));
        }
    }

    fn check(&self, frame: &Frame, action: &Action) -> Result<(), Refusal> {
        self.check_at(frame, action)
    }

    fn carry_out(&mut self, frame: Frame, action: Option<&Action>) {
        self.carry_out_at(frame, action)
    }

    fn hash_state(&self, h: &mut StateHasher) {
        h.add(&self.s);
    }

    fn title() -> Text {
        Text::new("Ardennes II (MMP Standard Combat Series)", "阿登 II(标准战斗系列)")
    }

    fn seats() -> Vec<SeatInfo> {
        vec![
            SeatInfo {
                id: "german",
                name: Text::new("German", "德军"),
            },
            SeatInfo {
                id: "allied",
                name: Text::new("Allied (US)", "盟军(美军)"),
            },
        ]
    }

    fn scenarios() -> Vec<ScenarioInfo> {
        let note = Text::new(
            "The rulebook has no map and no counter manifest: the map is reconstructed from real geography anchored on the book's hex ids, and movement types, steps and reduced values from the set-ups and the historical units.",
            "规则书没有地图和算子清单:地图依据真实地理重建并以书中格号为锚点,移动类型、军力与减员面数值依据剧本布置与历史部队重建。",
        );
        match World::shipped() {
            Ok(w) => w
                .data
                .scenarios
                .iter()
                .map(|s| ScenarioInfo {
                    id: s.id.clone(),
                    name: Text::new(format!("{} {}", s.rule, s.name_en), format!("{} {}", s.rule, s.name_zh)),
                    reconstructed: true,
                    note: note.clone(),
                })
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    fn setup(scenario: &str, seed: u64) -> Result<Self, SetupError> {
        Self::setup_edition(scenario, seed, Self::DATA_EDITION)
    }

    fn setup_from_text(text: &str, seed: u64) -> Result<Self, SetupError> {
        Self::setup_from_text_edition(text, seed, Self::DATA_EDITION)
    }

    fn setup_edition(scenario: &str, seed: u64, edition: &str) -> Result<Self, SetupError> {
        let n = edition_number(edition)?;
        let w = World::for_edition(n).map_err(SetupError)?;
        let known: Vec<String> = w.data.scenarios.iter().map(|s| s.id.clone()).collect();
        let Some(s) = w.data.scenario(scenario).cloned() else {
            return Err(SetupError(format!(
                "ardennes-ii has no scenario `{scenario}` (scenarios: {})",
                known.join(", ")
            )));
        };
        let mut g = ArdennesII::set_up(w, &s, seed);
        g.edition = n;
        Ok(g)
    }

    fn setup_from_text_edition(text: &str, seed: u64, edition: &str) -> Result<Self, SetupError> {
        let n = edition_number(edition)?;
        let w = World::for_edition(n).map_err(SetupError)?;
        let s = w
            .data
            .scenario_from_text("scenario", text)
            .map_err(|e| SetupError(e.to_string()))?;
        let mut g = ArdennesII::set_up(w, &s, seed);
        g.edition = n;
        Ok(g)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
    }

    fn describe(&self, action: &Action) -> Text {
        self.describe_action(action)
    }

    fn describe_in(&self, action: &Action, lang: Lang) -> String {
        self.words_in(action, lang)
    }

    fn notation(&self, action: &Action) -> String {
        self.notation_of(action)
    }

    fn parse_notation(&self, text: &str) -> Option<Action> {
        self.parse_typed(text)
    }

    fn preview(&self, action: &Action) -> Vec<Text> {
        self.preview_of(action)
    }

    fn charts(&self) -> Vec<sandtable_core::game::Chart> {
        self.charts_of()
    }

    fn targets(&self, actions: &[Action]) -> Vec<Targets> {
        self.targets_of(actions)
    }

    /// A page receives the moves of a unit or stack (SCS 6.0) and the barrages of an artillery
    /// unit (3.5), the bulk of a movement phase's list, only once its player picks them: the
    /// moves as one pack, the barrages as another.
    fn pack_key(&self, action: &Action, key: &mut Vec<u32>) -> bool {
        match action {
            Action::Move { unit, .. } => key.extend([0, u32::from(*unit)]),
            Action::MoveStack { units, .. } => {
                key.push(0);
                key.extend(units.iter().map(|&u| u32::from(u)));
            }
            Action::Fire { unit, .. } => key.extend([1, u32::from(*unit)]),
            _ => return false,
        }
        true
    }

    fn view(&self, seat: Option<Seat>) -> serde_json::Value {
        self.view_for(seat)
    }

    fn summary(&self, seat: Option<Seat>, lang: Lang) -> String {
        self.summary_for(seat, lang)
    }

    fn journal(&self, seat: Option<Seat>) -> Vec<JournalLine> {
        self.journal.for_seat(seat, self.is_over())
    }

    fn set_journal(&mut self, on: bool) {
        self.journal.off = !on;
    }

    fn render_svg(&self, seat: Option<Seat>, lang: Lang) -> String {
        self.render(seat, lang)
    }

    fn render_map(&self, lang: Lang) -> String {
        self.draw_map(lang)
    }

    fn render_pieces(&self, seat: Option<Seat>, lang: Lang) -> String {
        self.draw_pieces(seat, lang)
    }
}

/// What the computer players, the catalog and tests read of a game.
impl ArdennesII {
    /// The data and the map.
    pub fn world(&self) -> &Arc<World> {
        &self.w
    }

    /// The state: units, markers, turn, phase, control.
    pub fn state(&self) -> &State {
        &self.s
    }

    /// The scenario being played.
    pub fn scenario(&self) -> &data::Scenario {
        &self.scenario
    }

    /// The procedure stack, bottom (the phase) first.
    pub fn frames(&self) -> &[Frame] {
        self.engine.frames()
    }

    /// The phase in progress (the last one, once the game is over).
    pub fn phase(&self) -> Phase {
        self.s.phase
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.engine.top().is_none()
    }

    /// The combat (or overrun) being fought, if any (3.2, 3.3).
    pub fn combat(&self) -> Option<&Combat> {
        self.engine.frames().iter().rev().find_map(|f| match f {
            Frame::Combat(c) => Some(c),
            _ => None,
        })
    }

    /// The units waiting to be placed now, the first one deciding (SCS 5.0, 2.2, 5.1).
    pub fn placing(&self) -> &[Placing] {
        match self.engine.top() {
            Some(Frame::Place { queue }) => queue,
            _ => &[],
        }
    }

    /// The artillery that must bug out now, the first one deciding (3.6).
    pub fn bug_outs(&self) -> &[UnitId] {
        match self.engine.top() {
            Some(Frame::BugOut { queue }) => queue,
            _ => &[],
        }
    }

    /// Whether the US is deciding on bridge demolitions now, between other decisions (3.8).
    pub fn demolition_window(&self) -> bool {
        matches!(self.engine.top(), Some(Frame::Demolitions))
    }

    /// The DG artillery whose owner decides on resupply now, the first one deciding (3.7).
    pub fn resupply_queue(&self) -> &[UnitId] {
        match self.engine.top() {
            Some(Frame::Resupply { queue }) => queue,
            _ => &[],
        }
    }

    /// The data edition the game was begun on (1 to 5), whose readings it is played under
    /// (RULINGS, "Data editions").
    pub fn edition(&self) -> u8 {
        self.edition
    }

    /// A door to change the game by hand, for tests that build positions: the state as it is,
    /// the phase and the generator. The game forgets what it worked out for the old state
    /// when the door closes (dropped).
    pub fn edit(&mut self) -> Edit<'_> {
        Edit { g: self }
    }
}

/// The edit door ([`ArdennesII::edit`]): the state to change, and the phase and generator.
pub struct Edit<'a> {
    g: &'a mut ArdennesII,
}

impl Edit<'_> {
    /// Puts the game in `phase` with nothing else in progress, at its decisions. A phase
    /// without decisions is run at once, up to the next decision.
    pub fn set_phase(&mut self, phase: Phase) {
        self.g.s.phase = phase;
        if procedure::phase_player(phase).is_some() {
            *self.g.engine.frames_mut() = vec![Frame::Phase {
                phase,
                step: frames::PhaseStep::Play,
            }];
        } else {
            *self.g.engine.frames_mut() = vec![Frame::Phase {
                phase,
                step: frames::PhaseStep::Work,
            }];
            sandtable_core::driver::start(&mut *self.g);
        }
    }

    /// Plays the game on the readings of data edition `edition` (1 to 5), as a game begun
    /// on it would be.
    pub fn set_edition(&mut self, edition: u8) {
        self.g.edition = edition;
    }

    /// Starts the generator again from `seed`, the procedure stack kept.
    pub fn reseed(&mut self, seed: u64) {
        self.g.engine.reseed(seed);
    }

    /// The procedure stack, to build a position in the middle of a procedure.
    pub fn frames(&mut self) -> &mut Vec<Frame> {
        self.g.engine.frames_mut()
    }
}

impl std::ops::Deref for Edit<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        &self.g.s
    }
}

impl std::ops::DerefMut for Edit<'_> {
    /// The state to change by hand: its log of moves begins again, so that the memo looks at
    /// every unit (the edit's changes go unlogged).
    fn deref_mut(&mut self) -> &mut State {
        self.g.s.moves = Default::default();
        &mut self.g.s
    }
}

impl Drop for Edit<'_> {
    fn drop(&mut self) {
        self.g.s.moves = Default::default();
        self.g.engine.touch();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::Game;

    #[test]
    fn the_editions_this_build_plays_and_no_other() {
        assert_eq!(edition_number(<ArdennesII as Rules>::DATA_EDITION).ok(), Some(EDITION));
        for (e, n) in [("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5)] {
            let g = ArdennesII::new_game_edition("goose-egg", 1, e).expect("a known edition");
            assert_eq!(g.edition(), n);
        }
        for e in ["0", "9", "", "2a"] {
            let Err(err) = ArdennesII::new_game_edition("goose-egg", 1, e) else {
                panic!("edition {e:?} accepted");
            };
            assert!(err.0.contains(&format!("edition {e} ")), "{}", err.0);
        }
    }
}

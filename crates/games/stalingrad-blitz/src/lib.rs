//! Game Journal's 激斗!斯大林格勒电击战 (Stalingrad Blitz), June–December 1942, as a Sandtable
//! rule system.
//!
//! The rules are the book's, 1.0 to 16.0 with the errata; the rule number is cited where each
//! is implemented. Readings of ambiguous rules are in `RULINGS.md`. The map, the counters and
//! the turn track's chit quotas are not in the book: they are data files marked
//! `reconstructed` in `data/`.
//!
//! The game runs on the core's decision driver: the procedures in progress are frames on a
//! stack ([`state::Frame`]), and each rule section is a module that says who decides at its
//! frames, what is legal there and why not, and what happens:
//!
//! - [`setup`] 4.0, the players' set-up;
//! - `sequence` 5.0–7.0: the turn, command selection, the cup, command execution;
//! - `activation` 8.0;
//! - `movement` 9.0;
//! - `combat` 10.0;
//! - `supply` 11.0, with the fortresses of 14.0;
//! - `reinforcements` 12.0 and 13.0;
//! - `victory` 15.0.
//!
//! [`rules`] holds the questions every section asks of a position (stacking, zones of control,
//! lines of communication, movement costs, odds); `present` what players read.
//!
//! Seat 0 is the Axis player, seat 1 the Soviet player.

mod activation;
mod combat;
pub mod data;
mod movement;
mod present;
mod reinforcements;
pub mod rules;
pub mod scenario;
mod sequence;
pub mod setup;
pub mod state;
mod supply;
mod victory;

pub use data::{Data, Side};
pub use sandtable_core::hex::Hex;
pub use state::{Action, Frame, State, UnitId};

use sandtable_core::checksum::StateHasher;
use sandtable_core::game::{
    Engine, Journal, JournalLine, Outcome, Refusal, Rules, ScenarioInfo, Seat, SeatInfo, SetupError, Targets, Who,
};
use sandtable_core::text::{Lang, Text};
use state::{Exec, Hidden};
use std::sync::{Arc, OnceLock};

/// The embedded data, loaded and checked once per process.
pub fn embedded_data() -> Result<Arc<Data>, String> {
    static DATA: OnceLock<Result<Arc<Data>, String>> = OnceLock::new();
    DATA.get_or_init(|| Data::embedded().map(Arc::new)).clone()
}

/// The data of `edition` (today's or an earlier one still shipped), loaded once per process.
fn edition_data(edition: &str) -> Result<Arc<Data>, SetupError> {
    static EDITION_1: OnceLock<Result<Arc<Data>, String>> = OnceLock::new();
    match edition {
        e if e == <StalingradBlitz as Rules>::DATA_EDITION => embedded_data().map_err(SetupError),
        "1" => EDITION_1
            .get_or_init(|| {
                Data::edition("1")
                    .unwrap_or_else(|| Err("no edition 1".into()))
                    .map(Arc::new)
            })
            .clone()
            .map_err(SetupError),
        other => Err(SetupError(format!(
            "this game of stalingrad-blitz was begun on edition {other} of its data, which this build no longer has"
        ))),
    }
}

/// The text of a shipped scenario.
fn shipped_text(id: &str) -> Option<&'static str> {
    match id {
        "campaign" => Some(scenario::CAMPAIGN_TOML),
        "campaign-free-setup" => Some(scenario::CAMPAIGN_FREE_SETUP_TOML),
        _ => None,
    }
}

/// A shipped scenario on today's data, read once per process.
fn shipped(id: &str) -> Option<Result<Arc<scenario::Scenario>, String>> {
    static CAMPAIGN: OnceLock<Result<Arc<scenario::Scenario>, String>> = OnceLock::new();
    static FREE: OnceLock<Result<Arc<scenario::Scenario>, String>> = OnceLock::new();
    let cell = match id {
        "campaign" => &CAMPAIGN,
        "campaign-free-setup" => &FREE,
        _ => return None,
    };
    let text = shipped_text(id)?;
    Some(
        cell.get_or_init(|| {
            let d = embedded_data()?;
            scenario::parse(&d, text).map(Arc::new)
        })
        .clone(),
    )
}

/// Scenario facts that do not change during a game.
#[derive(Debug)]
pub struct Meta {
    pub id: String,
    pub name: Text,
    pub reconstructed: bool,
    /// What the players' set-up must achieve (4.0), when the scenario leaves it to them.
    pub setup: setup::SetupPlan,
}

/// A game of Stalingrad Blitz.
#[derive(Clone)]
pub struct StalingradBlitz {
    d: Arc<Data>,
    meta: Arc<Meta>,
    s: State,
    hidden: Hidden,
    journal: Journal,
    engine: Engine<Action, Frame>,
}

/// The parts of a game a test may change directly ([`StalingradBlitz::edit`]).
pub struct Edit<'a> {
    pub state: &'a mut State,
    pub hidden: &'a mut Hidden,
    pub frames: &'a mut Vec<Frame>,
}

impl StalingradBlitz {
    /// A game from a scenario's text, at its first decision.
    pub fn from_text(text: &str, seed: u64) -> Result<StalingradBlitz, SetupError> {
        let d = embedded_data().map_err(SetupError)?;
        StalingradBlitz::with_data(d, text, seed)
    }

    /// A game on other data (a test map, say) from a scenario's text, at its first decision.
    pub fn with_data(d: Arc<Data>, text: &str, seed: u64) -> Result<StalingradBlitz, SetupError> {
        let sc = scenario::parse(&d, text).map_err(SetupError)?;
        let mut g = StalingradBlitz::from_scenario(d, &sc, seed);
        sandtable_core::driver::start(&mut g);
        Ok(g)
    }

    /// A game set up from a scenario already read, before its first frames have run.
    fn from_scenario(d: Arc<Data>, sc: &scenario::Scenario, seed: u64) -> StalingradBlitz {
        let meta = Arc::new(Meta {
            id: sc.id.clone(),
            name: Text::new(sc.name_en.clone(), sc.name_zh.clone()),
            reconstructed: true,
            setup: sc.setup.clone(),
        });
        let mut g = StalingradBlitz {
            d,
            meta,
            s: sc.state.clone(),
            hidden: Hidden::default(),
            journal: Journal::default(),
            engine: Engine::new(seed, Vec::new()),
        };
        g.s.vp = g.victory_points();
        // 4.0: a scenario may leave the set-up to the players; turn 1 follows it (5.0).
        g.engine.push(Frame::Turn);
        if let Some(cup) = &sc.cup {
            // 7.0: the scenario begins in the first turn's command execution.
            g.start_turn_in_execution(cup.clone());
        } else if !g.begin_setup() {
            g.start_turn();
        }
        g
    }

    /// The game's data: map, counters, chits, tables.
    pub fn data(&self) -> &Arc<Data> {
        &self.d
    }

    /// The scenario's facts.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// The state both players see.
    pub fn state(&self) -> &State {
        &self.s
    }

    /// What the rules keep secret: the chits each side put in the cup, and the cup. For the
    /// server and tests; a player's view carries only its own seat's part.
    pub fn hidden(&self) -> &Hidden {
        &self.hidden
    }

    /// The procedures in progress, bottom first.
    pub fn frames(&self) -> &[Frame] {
        self.engine.frames()
    }

    /// Changes the state directly, for tests that build a position. The driver forgets what it
    /// worked out for the old state; call [`StalingradBlitz::settle`] after changing frames.
    pub fn edit(&mut self) -> Edit<'_> {
        self.engine.touch();
        self.s.moves.renew();
        Edit {
            state: &mut self.s,
            hidden: &mut self.hidden,
            frames: self.engine.frames_mut(),
        }
    }

    /// Runs the automatic frames after an [`StalingradBlitz::edit`], up to the next decision.
    pub fn settle(&mut self) {
        sandtable_core::driver::start(self);
    }

    pub fn side_of(&self, u: UnitId) -> Side {
        self.d.units[u as usize].side
    }

    /// The command being executed, if any (the topmost on the stack).
    pub fn exec(&self) -> Option<&Exec> {
        self.engine.frames().iter().rev().find_map(|f| match f {
            Frame::Exec(e) => Some(&**e),
            _ => None,
        })
    }

    /// The combat being resolved, if any.
    pub fn combat(&self) -> Option<&state::Combat> {
        match self.engine.top() {
            Some(Frame::Combat(c)) => Some(c),
            _ => None,
        }
    }

    /// Whether the game is over (the stack is empty).
    pub fn is_over(&self) -> bool {
        self.engine.top().is_none()
    }
}

/// What one seat may know, as a computer player reads it: the board both players see, the
/// procedure in progress, its own chits and how many are in the cup; never the other side's
/// chits or what the cup holds (6.1(3)).
pub struct SeatView<'a> {
    g: &'a StalingradBlitz,
    seat: Seat,
}

impl<'a> SeatView<'a> {
    pub fn seat(&self) -> Seat {
        self.seat
    }
    pub fn side(&self) -> Side {
        Side::from_seat(self.seat)
    }
    pub fn data(&self) -> &'a Arc<Data> {
        &self.g.d
    }
    pub fn meta(&self) -> &'a Meta {
        &self.g.meta
    }
    /// The state both players see.
    pub fn state(&self) -> &'a State {
        &self.g.s
    }
    /// The procedures in progress, bottom first.
    pub fn frames(&self) -> &'a [Frame] {
        self.g.engine.frames()
    }
    pub fn exec(&self) -> Option<&'a Exec> {
        self.g.exec()
    }
    pub fn combat(&self) -> Option<&'a state::Combat> {
        self.g.combat()
    }
    /// The chits this seat put in the cup this turn.
    pub fn my_picks(&self) -> &'a [u8] {
        &self.g.hidden.picks[self.seat as usize % 2]
    }
    /// How many chits are in the cup, as this seat may know it: the Soviet player knows
    /// whether an extra chit went in; the Axis player does not until it is drawn (6.1(3),
    /// 6.2(2)), and is told the count without it.
    pub fn cup_len(&self) -> usize {
        if self.side() == Side::Soviet {
            self.g.hidden.cup.len()
        } else {
            self.g.cup_known().0
        }
    }
    /// The board worked out from the state both players see.
    pub fn board(&self) -> rules::Board<'a> {
        rules::Board::new(&self.g.d, &self.g.s)
    }
    /// The VP hexes the Axis holds: with a LOC, and cut off (15.0).
    pub fn vp_hexes_held(&self) -> (Vec<Hex>, Vec<Hex>) {
        self.g.vp_hexes_held()
    }
    /// An action in words.
    pub fn describe(&self, a: &Action) -> Text {
        self.g.describe_action(a)
    }
    pub fn notation(&self, a: &Action) -> String {
        self.g.notation_of(a)
    }
}

impl Rules for StalingradBlitz {
    type Action = Action;
    type Frame = Frame;
    type View<'a> = SeatView<'a>;

    fn seat_view(&self, seat: Seat) -> SeatView<'_> {
        SeatView { g: self, seat }
    }

    /// The other side's chits still in the cup guessed at random among those its quotas allow
    /// (6.2), the cup made again from both sides' chits, and new dice.
    fn sample(view: &SeatView<'_>, rng: &mut sandtable_core::chance::Rng) -> StalingradBlitz {
        let mut g = view.g.clone();
        g.guess_hidden(view.side(), rng);
        g.engine.reseed(rng.word() as u64);
        g
    }

    const ID: &'static str = "stalingrad-blitz";
    /// Edition 2: the 1942 bridges and river banks, and the NKVD-Mot row of the Soviet track
    /// (12.2). Edition 1 (`data/edition-1/`) is kept for games begun before.
    const DATA_EDITION: &'static str = "2";
    const SEQUENCE_OF_PLAY: &'static str = "5.0";
    /// A decision with a single possible answer is taken at once (a rule of thumb the game
    /// has always played by: asking it would only slow play).
    const TAKE_FORCED: bool = true;

    fn engine(&self) -> &Engine<Action, Frame> {
        &self.engine
    }

    fn engine_mut(&mut self) -> &mut Engine<Action, Frame> {
        &mut self.engine
    }

    fn who(&self, frame: &Frame) -> Who {
        match frame {
            Frame::SetUp => self.who_sets_up(),
            Frame::Turn => Who::Auto,
            Frame::Select(stage) => self.who_selects(*stage),
            Frame::Draw if self.hidden.cup.is_empty() => Who::Auto,
            Frame::Draw | Frame::Roll(_) => Who::Chance,
            Frame::Exec(e) => self.who_executes(e),
            Frame::Combat(c) => self.who_fights(c),
        }
    }

    fn passes_when_empty(&self, frame: &Frame) -> bool {
        match frame {
            Frame::Exec(e) => self.exec_passes_when_empty(e),
            Frame::Combat(c) => c.stage == state::CombatStage::Retreat,
            _ => false,
        }
    }

    fn legal(&self, frame: &Frame, out: &mut Vec<Action>) {
        match frame {
            Frame::SetUp => self.legal_setup(out),
            Frame::Select(stage) => self.legal_select(*stage, out),
            Frame::Exec(e) => self.legal_exec(e, out),
            Frame::Combat(c) => self.legal_combat(c, out),
            Frame::Turn | Frame::Draw | Frame::Roll(_) => {}
        }
    }

    fn outcomes(&self, frame: &Frame, out: &mut Vec<(Action, u32)>) {
        match frame {
            // 7.1(1): each chit in the cup as likely as any other.
            Frame::Draw => out.extend(
                self.hidden
                    .cup
                    .iter()
                    .enumerate()
                    .map(|(slot, &chit)| (Action::Draw { slot: slot as u8, chit }, 1)),
            ),
            Frame::Roll(_) => out.extend((1..=6).map(|face| (Action::Die { face }, 1))),
            _ => {}
        }
    }

    fn check(&self, frame: &Frame, action: &Action) -> Result<(), Refusal> {
        match frame {
            Frame::SetUp => self.check_setup(action),
            Frame::Select(stage) => self.check_select(*stage, action),
            Frame::Exec(e) => self.check_exec(e, action),
            Frame::Combat(c) => self.check_combat(c, action),
            Frame::Turn | Frame::Draw | Frame::Roll(_) => Err(Refusal::new(
                "5.0",
                Text::new("nobody decides now: chance acts", "现在没有人做决定:由机运决定"),
            )),
        }
    }

    fn carry_out(&mut self, frame: Frame, action: Option<&Action>) {
        match (frame, action) {
            (Frame::SetUp, None) => self.finish_setup(),
            (Frame::SetUp, Some(&Action::Place { unit, at })) => {
                self.engine.push(Frame::SetUp);
                self.set_up(unit, at);
            }
            (Frame::Turn, None) => self.end_turn(),
            (Frame::Select(stage), a) => self.select(stage, a),
            (Frame::Draw, None) => {}
            (Frame::Draw, Some(&Action::Draw { slot, .. })) => self.draw(slot),
            (Frame::Roll(roll), Some(&Action::Die { face })) => self.rolled(roll, face),
            (Frame::Exec(e), a) => {
                // The command stays on the stack while its step is carried out.
                self.engine.push(Frame::Exec(e));
                self.execute(a);
            }
            (Frame::Combat(c), a) => {
                self.engine.push(Frame::Combat(c));
                self.fight(a);
            }
            // `check` lets nothing else through.
            (frame, _) => self.engine.push(frame),
        }
    }

    fn hash_state(&self, h: &mut StateHasher) {
        h.add(&self.s);
        h.add(&self.hidden);
    }

    fn title() -> Text {
        Text::new("Stalingrad Blitz (Game Journal)", "激斗!斯大林格勒电击战")
    }

    fn seats() -> Vec<SeatInfo> {
        vec![
            SeatInfo {
                id: "axis",
                name: Side::Axis.name(),
            },
            SeatInfo {
                id: "soviet",
                name: Side::Soviet.name(),
            },
        ]
    }

    fn scenarios() -> Vec<ScenarioInfo> {
        vec![
            ScenarioInfo {
                id: "campaign".into(),
                name: Text::new("Campaign: Operation Blue, June–December 1942 (9 turns)", "战役:蓝色作战,1942年6月至12月(9回合)"),
                reconstructed: true,
                note: Text::new(
                    "The rulebook has no map, counter sheet or turn-track quotas: this scenario rests on reconstructed data (map from real geography, counters from the historical order of battle).",
                    "规则书没有地图、算子表和回合命令数:本剧本基于重建数据(地图依据真实地理,算子依据历史战斗序列)。",
                ),
            },
            ScenarioInfo {
                id: "campaign-free-setup".into(),
                name: Text::new("Campaign, players set up (4.0) (9 turns)", "战役(玩家自行布置,4.0)(9回合)"),
                reconstructed: true,
                note: Text::new(
                    "The campaign with the set-up of 4.0 made by the players before turn 1: the same units as the campaign, on hexes of their choosing within the set-up hexes printed on the map. The map, its set-up hexes and the counters are reconstructed (the rulebook has none).",
                    "由玩家在第1回合前按4.0自行初期配置的战役:单位与战役剧本相同,在地图印刷的初期配置格内自选位置。地图、初期配置格和算子均为重建数据(规则书没有)。",
                ),
            },
        ]
    }

    fn setup(scenario: &str, seed: u64) -> Result<Self, SetupError> {
        let Some(sc) = shipped(scenario) else {
            return Err(SetupError(format!(
                "stalingrad-blitz has no scenario `{scenario}` (scenarios: campaign, campaign-free-setup)"
            )));
        };
        let sc = sc.map_err(SetupError)?;
        let d = embedded_data().map_err(SetupError)?;
        Ok(StalingradBlitz::from_scenario(d, &sc, seed))
    }

    fn setup_from_text(text: &str, seed: u64) -> Result<Self, SetupError> {
        let d = embedded_data().map_err(SetupError)?;
        let sc = scenario::parse(&d, text).map_err(SetupError)?;
        Ok(StalingradBlitz::from_scenario(d, &sc, seed))
    }

    fn setup_edition(scenario: &str, seed: u64, edition: &str) -> Result<Self, SetupError> {
        if edition == Self::DATA_EDITION {
            return Self::setup(scenario, seed);
        }
        let text = shipped_text(scenario)
            .ok_or_else(|| SetupError(format!("stalingrad-blitz has no scenario `{scenario}`")))?;
        Self::setup_from_text_edition(text, seed, edition)
    }

    fn setup_from_text_edition(text: &str, seed: u64, edition: &str) -> Result<Self, SetupError> {
        let d = edition_data(edition)?;
        let sc = scenario::parse(&d, text).map_err(SetupError)?;
        Ok(StalingradBlitz::from_scenario(d, &sc, seed))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
    }

    fn describe(&self, action: &Action) -> Text {
        self.describe_action(action)
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

    /// 6.1(3): which chits go into the cup is secret.
    fn is_secret(&self, action: &Action) -> bool {
        matches!(action, Action::Pick { .. } | Action::NoExtra)
    }

    /// 6.1(3): the chits the other side put in the cup and that have not come out of it yet.
    fn hidden_from(&self, seat: Seat, out: &mut Vec<u64>) {
        self.picks_hidden_from(Side::from_seat(seat), out);
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

    fn board_text(&self, _seat: Option<Seat>, lang: Lang) -> String {
        self.board_text_for(lang)
    }
}

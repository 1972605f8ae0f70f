//! Game Journal's 激斗!斯大林格勒电击战 (Stalingrad Blitz), June–December 1942, as a Sandtable
//! rule system.
//!
//! The rules are the book's, 1.0 to 16.0 with the errata; the rule number is cited where each
//! is implemented. Readings of ambiguous rules are in `RULINGS.md`. The map, the counters and
//! the turn track's chit quotas are not in the book: they are data files marked
//! `reconstructed` in `data/`.
//!
//! Seat 0 is the Axis player, seat 1 the Soviet player.

pub mod data;
mod flow;
mod legal;
mod moves;
mod present;
pub mod rules;
pub mod scenario;
pub mod setup;
pub mod state;

pub use data::{Data, Side};
pub use sandtable_core::hex::Hex;
pub use state::{Action, State, UnitId};

use sandtable_core::game::{
    Applied, Game, Journal, JournalLine, Outcome, Pending, Refusal, ScenarioInfo, Seat, SeatInfo, SetupError, Targets,
};
use sandtable_core::text::{Lang, Text};
use std::sync::{Arc, OnceLock};

/// The embedded data, loaded and checked once per process.
pub fn embedded_data() -> Result<Arc<Data>, String> {
    static DATA: OnceLock<Result<Arc<Data>, String>> = OnceLock::new();
    DATA.get_or_init(|| Data::embedded().map(Arc::new)).clone()
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
    pub d: Arc<Data>,
    pub meta: Arc<Meta>,
    pub s: State,
    pub journal: Journal,
    /// The legal actions of the decision `settle` stopped at. Not part of the game: a cache,
    /// so that listing them and checking an action against them do not work them out again.
    legal_cache: Option<Arc<LegalCache>>,
}

/// Legal actions with the data and state they are the legal actions of.
struct LegalCache {
    d: Arc<Data>,
    s: State,
    actions: Vec<Action>,
}

impl StalingradBlitz {
    /// A game from a scenario's text.
    pub fn from_text(text: &str, seed: u64) -> Result<StalingradBlitz, SetupError> {
        let d = embedded_data().map_err(SetupError)?;
        StalingradBlitz::with_data(d, text, seed)
    }

    /// A game on other data (a test map, say) from a scenario's text.
    pub fn with_data(d: Arc<Data>, text: &str, seed: u64) -> Result<StalingradBlitz, SetupError> {
        let sc = scenario::parse(&d, text, seed).map_err(SetupError)?;
        let reconstructed = true;
        let meta = Arc::new(Meta {
            id: sc.id,
            name: Text::new(sc.name_en, sc.name_zh),
            reconstructed,
            setup: sc.setup,
        });
        let mut g = StalingradBlitz {
            d,
            meta,
            s: sc.state,
            journal: Journal::default(),
            legal_cache: None,
        };
        g.s.vp = g.victory_points();
        // 4.0: a scenario may leave the set-up to the players; turn 1 follows it.
        if !g.begin_setup() {
            g.start_turn();
        }
        g.settle();
        Ok(g)
    }

    pub fn side_of(&self, u: UnitId) -> Side {
        self.d.units[u as usize].side
    }

    /// Calls `f` with the legal actions of the pending decision: the cached list when it was
    /// made for this very data and state (anyone may change `s`), else a new one.
    fn with_legal<R>(&self, f: impl FnOnce(&[Action]) -> R) -> R {
        if let Some(c) = &self.legal_cache {
            if Arc::ptr_eq(&c.d, &self.d) && same_state(&c.s, &self.s) {
                return f(&c.actions);
            }
        }
        let mut legal = Vec::new();
        self.legal(&mut legal);
        f(&legal)
    }

    /// Keeps `actions` as the legal actions of the current state.
    pub(crate) fn cache_legal(&mut self, actions: Vec<Action>) {
        self.legal_cache = Some(Arc::new(LegalCache {
            d: self.d.clone(),
            s: self.s.clone(),
            actions,
        }));
    }

    /// Forgets the kept legal actions; returns their list, emptied, to be filled again.
    pub(crate) fn forget_legal(&mut self) -> Vec<Action> {
        match self.legal_cache.take().map(Arc::try_unwrap) {
            Some(Ok(mut kept)) => {
                kept.actions.clear();
                kept.actions
            }
            _ => Vec::new(),
        }
    }
}

/// `a == b`, faster: control, a list as long as the map, is compared whole instead of hex by
/// hex with an early exit. Every field is named, so a new one cannot be left out.
fn same_state(a: &State, b: &State) -> bool {
    let State {
        rng,
        turn,
        units,
        control,
        fortresses,
        fortress_markers_used,
        track,
        loss_vp,
        picks,
        cup,
        used,
        arriving,
        phase,
        vp,
        winner,
    } = a;
    let same_control = control.len() == b.control.len()
        && control
            .iter()
            .zip(&b.control)
            .fold(true, |same, (x, y)| same & (x == y));
    same_control
        && *units == b.units
        && *turn == b.turn
        && *fortresses == b.fortresses
        && *fortress_markers_used == b.fortress_markers_used
        && *track == b.track
        && *loss_vp == b.loss_vp
        && *picks == b.picks
        && *cup == b.cup
        && *used == b.used
        && *arriving == b.arriving
        && *phase == b.phase
        && *vp == b.vp
        && *winner == b.winner
        && *rng == b.rng
}

impl Game for StalingradBlitz {
    type Action = Action;
    const ID: &'static str = "stalingrad-blitz";

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

    fn new_game(scenario: &str, seed: u64) -> Result<Self, SetupError> {
        match scenario {
            "campaign" => StalingradBlitz::from_text(scenario::CAMPAIGN_TOML, seed),
            "campaign-free-setup" => StalingradBlitz::from_text(scenario::CAMPAIGN_FREE_SETUP_TOML, seed),
            other => Err(SetupError(format!(
                "stalingrad-blitz has no scenario `{other}` (scenarios: campaign, campaign-free-setup)"
            ))),
        }
    }

    fn from_scenario_text(text: &str, seed: u64) -> Result<Self, SetupError> {
        StalingradBlitz::from_text(text, seed)
    }

    fn pending(&self) -> Pending {
        self.pending_now()
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        self.with_legal(|legal| out.extend_from_slice(legal));
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Applied, Refusal> {
        if self.pending_now() != Pending::Seat(seat) {
            return Err(Refusal::new(
                "5.0",
                Text::new("it is not your decision now", "现在不是你做决定的时候"),
            ));
        }
        if !self.with_legal(|legal| legal.contains(action)) {
            return Err(self.why_illegal(action));
        }
        let before = self.s.rng.clone();
        self.act(*action);
        self.settle();
        Ok(Applied {
            barrier: self.s.rng != before,
        })
    }

    fn resolve_chance(&mut self) {
        self.draw();
        self.settle();
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.s.phase != state::Phase::Over {
            return None;
        }
        let winner = self.s.winner;
        let text = match winner {
            Some(Side::Axis) => Text::new(
                format!("The Axis wins with {} VP (15.0(3)).", self.s.vp),
                format!("轴心国军以 {} VP 获胜(15.0(3))。", self.s.vp),
            ),
            Some(Side::Soviet) => Text::new(
                format!(
                    "The Soviet player wins: the Axis ended turn 9 with {} VP, short of 85 (15.0(4)).",
                    self.s.vp
                ),
                format!("苏军获胜:第9回合结束时轴心国军只有 {} VP,未达85(15.0(4))。", self.s.vp),
            ),
            None => Text::new("Drawn.", "平局。"),
        };
        Some(Outcome {
            winner: winner.map(Side::seat),
            text,
        })
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

    fn targets(&self, actions: &[Action]) -> Vec<Targets> {
        self.targets_of(actions)
    }

    /// 6.1(3): which chits go into the cup is secret.
    fn is_secret(&self, action: &Action) -> bool {
        matches!(action, Action::Pick { .. } | Action::NoExtra)
    }

    fn view(&self, seat: Option<Seat>) -> serde_json::Value {
        self.view_for(seat)
    }

    fn summary(&self, seat: Option<Seat>, lang: Lang) -> String {
        self.summary_for(seat, lang)
    }

    fn journal(&self, seat: Option<Seat>) -> Vec<JournalLine> {
        self.journal.for_seat(seat, self.s.phase == state::Phase::Over)
    }

    fn set_journal(&mut self, on: bool) {
        self.journal.off = !on;
    }

    fn checksum(&self) -> u64 {
        sandtable_core::game::checksum_of(&self.s)
    }

    fn render_svg(&self, seat: Option<Seat>, lang: Lang) -> String {
        self.render(seat, lang)
    }

    fn board_text(&self, _seat: Option<Seat>, lang: Lang) -> String {
        self.board_text_for(lang)
    }
}

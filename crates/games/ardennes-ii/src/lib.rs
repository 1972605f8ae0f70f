//! MMP's Standard Combat Series game 阿登 II (Ardennes II) as a Sandtable rule system.
//!
//! Rules source: the Chinese rulebook (`shared/seeds/ardennes-ii.zh.txt`) with the SCS series
//! rules it relies on; readings of ambiguous rules are in `RULINGS.md`. The map, the counter
//! values the set-ups do not print and the scenario data live in `data/` as plain files, each
//! saying where its content comes from.
//!
//! Modules: [`data`] and [`world`] hold the fixed data and the map; [`sequence`] the turn;
//! [`state`] what changes; [`bonds`] the ZOC Bonds; [`rules`] the questions asked of a
//! position (movement costs, supply, strengths); [`flow`] the phases, decisions and combat;
//! [`present`] words, views and the board for players.

pub mod bonds;
pub mod data;
pub mod flow;
pub mod memo;
pub mod present;
pub mod rules;
pub mod sequence;
pub mod state;
pub mod world;

pub use flow::Action;

use sandtable_core::game::{
    Applied, Game, Journal, JournalLine, Outcome, Pending, Refusal, ScenarioInfo, Seat, SeatInfo, SetupError, Targets,
};
use sandtable_core::text::{Lang, Text};
use state::State;
use std::sync::Arc;
use world::World;

/// A game of Ardennes II.
#[derive(Clone)]
pub struct ArdennesII {
    pub w: Arc<World>,
    pub s: State,
    pub journal: Journal,
    /// The scenario being played (a shipped one, or one a player wrote).
    pub scenario: Arc<data::Scenario>,
    /// Set while an action rolls a die (an undo barrier).
    rolled: bool,
}

impl ArdennesII {
    fn from_data(w: Arc<World>, scenario: &data::Scenario, seed: u64) -> ArdennesII {
        ArdennesII::start(w, scenario, seed)
    }
}

impl Game for ArdennesII {
    type Action = Action;
    const ID: &'static str = "ardennes-ii";

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

    fn new_game(scenario: &str, seed: u64) -> Result<Self, SetupError> {
        let w = World::shipped().map_err(SetupError)?;
        let known: Vec<String> = w.data.scenarios.iter().map(|s| s.id.clone()).collect();
        let Some(s) = w.data.scenario(scenario).cloned() else {
            return Err(SetupError(format!(
                "ardennes-ii has no scenario `{scenario}` (scenarios: {})",
                known.join(", ")
            )));
        };
        Ok(ArdennesII::from_data(w, &s, seed))
    }

    fn from_scenario_text(text: &str, seed: u64) -> Result<Self, SetupError> {
        let w = World::shipped().map_err(SetupError)?;
        let s = w
            .data
            .scenario_from_text("scenario", text)
            .map_err(|e| SetupError(e.to_string()))?;
        Ok(ArdennesII::from_data(w, &s, seed))
    }

    fn pending(&self) -> Pending {
        self.pending_seat()
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        if matches!(self.pending_seat(), Pending::Seat(_)) {
            out.extend(self.legal_list());
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Applied, Refusal> {
        if self.pending_seat() != Pending::Seat(seat) {
            return Err(Refusal::new(
                "2.1",
                Text::new("it is not your decision now", "现在不是你做决定的时候"),
            ));
        }
        if !self.is_legal(action) {
            return Err(self.why_illegal(action));
        }
        self.rolled = false;
        self.exec(action);
        self.settle();
        Ok(Applied { barrier: self.rolled })
    }

    fn resolve_chance(&mut self) {}

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

    fn targets(&self, actions: &[Action]) -> Vec<Targets> {
        self.targets_of(actions)
    }

    fn view(&self, seat: Option<Seat>) -> serde_json::Value {
        self.view_for(seat)
    }

    fn summary(&self, seat: Option<Seat>, lang: Lang) -> String {
        self.summary_for(seat, lang)
    }

    fn journal(&self, seat: Option<Seat>) -> Vec<JournalLine> {
        self.journal.for_seat(seat, self.s.over)
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
}

impl ArdennesII {
    /// 3.7: whether each hex is in supply for `side` now, from the scenario's sources: what a
    /// player sees by tracing supply, for agents planning moves.
    pub fn supply_now(&self, side: sequence::Side) -> Vec<bool> {
        flow::with_search(|search| self.supply_map(&rules::Board::new(&self.w, &self.s), side, search))
    }
}

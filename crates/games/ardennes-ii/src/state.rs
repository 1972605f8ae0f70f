//! The state of a game of Ardennes II: where every unit is and in what condition, the
//! barrage markers on the map, the turn and phase, the combat in progress, control of the VP
//! hexes. Plain data, serializable, cheap to clone.

use crate::data::CrtResult;
use crate::sequence::{Phase, Side};
use sandtable_core::chance::Rng;
use sandtable_core::hex::Hex;
use serde::{Deserialize, Serialize};

/// A unit: its index in the counter manifest.
pub type UnitId = u16;

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loc {
    /// Not (yet) in play: a later arrival, or not in this scenario.
    Waiting,
    Map(Hex),
    /// Lost its last step (1.2: no rebuilding).
    Eliminated,
    /// Taken out by an Arrival Schedule's "Remove" (2.2), or a failed drop (4.1).
    Removed,
    /// Left the map to count for victory (7.2, 7.3, 7.5).
    Exited,
}

/// One unit's condition.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    pub loc: Option<Hex>,
    pub gone: bool,
    pub removed: bool,
    /// On its reduced side (1.2).
    pub reduced: bool,
    /// 3.4: disorganized.
    pub dg: bool,
    /// Half movement points spent this phase.
    pub spent: u16,
    /// Spent MP this phase (3.5: may not fire; an observer may not move after observing).
    pub moved: bool,
    pub fired: bool,
    /// Used as an observer this phase (3.5: may not move afterwards).
    pub observed: bool,
    /// Attacked in this combat phase (SCS 7.1: once per phase).
    pub attacked: bool,
    /// 1.2: adjacent to an enemy unit when the phase began.
    pub adjacent_at_start: bool,
    /// 3.5: started in or entered an enemy Full-marker hex this phase (no exploit).
    pub barraged: bool,
    /// 3.7: out of supply at its side's last supply phase.
    pub out_of_supply: bool,
    /// Left the map through an exit area or edge (7.2, 7.3, 7.5), and on which turn.
    pub exited: bool,
    pub exited_on: u8,
    /// Overran this phase (3.3: once per phase).
    pub overran: bool,
    /// Stopped for a bridge demolition (3.8: may not move further this phase).
    pub stopped: bool,
}

impl UnitState {
    pub fn hex(&self) -> Option<Hex> {
        if self.gone {
            None
        } else {
            self.loc
        }
    }

    pub fn location(&self) -> Loc {
        if self.exited {
            return Loc::Exited;
        }
        match (self.loc, self.gone, self.removed) {
            (_, true, true) => Loc::Removed,
            (_, true, false) => Loc::Eliminated,
            (Some(h), false, _) => Loc::Map(h),
            (None, false, _) => Loc::Waiting,
        }
    }
}

/// The barrage markers one side has placed in one hex (3.5: markers belong to the hex).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Markers {
    pub hex: Hex,
    /// The side that fired.
    pub side: Side,
    pub full: u8,
    pub half: u8,
}

/// Where a combat stands (3.2's procedure).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// 3.2 (1): the attacker commits units.
    Commit,
    /// 3.2 (2): the defender stands or retreats before combat.
    StandOrRetreat,
    /// 3.2 (5): the attacker takes its step losses (the first from the strongest, SCS 8.0).
    AttackerLoss,
    /// 3.2 (5): the defender takes its step losses.
    DefenderLoss,
    /// 3.2 (6): the defender's stack retreats.
    Retreat,
    /// 3.2 (7): advance after combat.
    Advance,
}

/// The combat being fought.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combat {
    pub target: Hex,
    pub attackers: Vec<UnitId>,
    pub defenders: Vec<UnitId>,
    pub stage: Stage,
    pub result: Option<CrtResult>,
    pub attacker_losses: u8,
    pub defender_losses: u8,
    /// Attacker steps lost so far in this combat (the first comes from the strongest unit).
    #[serde(default)]
    pub attacker_lost: u8,
    /// Hexes the defender retreats (5 for a retreat before combat).
    pub retreat: u8,
    /// Whether the defender retreated before combat (3.2).
    pub voluntary: bool,
    /// An overrun in the middle of movement (3.3), not a combat-phase attack.
    pub overrun: bool,
    /// Attackers that may still advance, and how far (1 or 2 hexes, 3.2).
    pub advancing: Vec<(UnitId, u8)>,
}

/// A unit its owner must place, and the hexes it may go to (set-up "w/i N", an entry area,
/// 5.1's airborne drop).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placing {
    pub unit: UnitId,
    pub hexes: Vec<Hex>,
}

/// Everything that changes during a game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    pub scenario: String,
    pub turn: u8,
    pub first_turn: u8,
    pub last_turn: u8,
    pub phase: Phase,
    pub units: Vec<UnitState>,
    pub markers: Vec<Markers>,
    /// 2.2: the Freeze has come.
    pub frozen: bool,
    /// 2.2: US air strikes left this turn.
    pub air_strikes: u8,
    /// Hexes struck from the air without an observer this phase (3.5: one each).
    pub unobserved_strikes: Vec<Hex>,
    /// Demolition symbols blown (3.8).
    pub blown: Vec<Hex>,
    /// Demolition symbols tested (3.8).
    pub tested: Vec<Hex>,
    /// The side controlling each VP hex (6.0), in the order of the VP hex list.
    pub control: Vec<Side>,
    /// 6.0: the German's highest VP total at the end of a turn.
    pub vp_max: u32,
    pub vp_last: u32,
    pub combat: Option<Combat>,
    /// Hexes attacked this combat phase (SCS 7.1: each at most once).
    pub attacked_hexes: Vec<Hex>,
    pub over: bool,
    /// 3.6: artillery that must bug out now, in order.
    pub bug_outs: Vec<UnitId>,
    /// Units their owners place now, in order.
    pub placing: Vec<Placing>,
    /// 5.1: airborne units placed in the coming US movement phase.
    pub airborne_due: Vec<UnitId>,
    /// 5.1: the airborne units being placed this phase (each division keeps to one group).
    #[serde(default)]
    pub airborne_drop: Vec<UnitId>,
    /// 3.8: the US may blow bridges before the German moves (RULINGS).
    pub demolition_window: bool,
    /// 3.8: this phase's German units that halted before a primed bridge, with the bridge's
    /// demolition symbol (by index): they do not halt before it again this phase.
    #[serde(default)]
    pub approached: Vec<(UnitId, u16)>,
    /// The work of an automatic phase is done (its decisions may still be pending).
    pub phase_done: bool,
    /// 2.2, 3.7: Air Supply markers on the map (until the end of the US player turn).
    pub air_supply: Vec<Hex>,
    /// 3.7: DG artillery without supply whose owner chooses to roll or not, in order.
    pub resupply: Vec<UnitId>,
    pub rng: Rng,
    /// 7.0: the scenario's playing area per hex (`None`: both maps whole), worked out from the
    /// scenario when the game starts, for shipped and player-written scenarios alike.
    #[serde(skip)]
    pub area: Option<std::sync::Arc<Vec<bool>>>,
    /// What the rules worked out for this position, kept for the next question (not part of
    /// the game: never saved, compared or checksummed).
    #[serde(skip)]
    pub memo: crate::memo::Memo,
}

//! The state of a game of Ardennes II: where every unit is and in what condition, the
//! barrage markers on the map, the turn and phase, control of the VP hexes. Plain data,
//! serializable, cheap to clone.
//!
//! What is in progress — a placement, a bug-out, a combat, a move under way — is not here but
//! on the procedure stack ([`crate::frames`]); the generator is the engine's.

use crate::data::CrtResult;
use crate::sequence::{Phase, Side};
use sandtable_core::hex::Hex;
use serde::{Deserialize, Serialize};

/// A unit: its index in the counter manifest.
pub type UnitId = u16;

/// Where a unit is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loc {
    /// Not (yet) in play: a later arrival, or not in this scenario.
    #[default]
    Waiting,
    /// On the map, in this hex.
    Map(Hex),
    /// Lost its last step (1.2: no rebuilding).
    Eliminated,
    /// Taken out by an Arrival Schedule's "Remove" (2.2), or a failed drop (4.1).
    Removed,
    /// Left the map on this turn, to count for victory (7.2, 7.3, 7.5).
    Exited { turn: u8 },
}

/// One unit's condition.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    pub loc: Loc,
    /// On its reduced side (1.2).
    pub reduced: bool,
    /// 3.4: disorganized.
    pub dg: bool,
    /// Half movement points spent this phase.
    pub spent: u16,
    /// Spent MP this phase (3.5: may not fire afterwards).
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
    /// Overran this phase (3.3: once per phase).
    pub overran: bool,
    /// Tried to blow a bridge this phase (3.8: may not move further this phase).
    pub stopped: bool,
}

impl UnitState {
    /// The hex of a unit on the map.
    pub fn hex(&self) -> Option<Hex> {
        match self.loc {
            Loc::Map(h) => Some(h),
            _ => None,
        }
    }

    /// The turn a unit left the map on, if it exited (7.2, 7.3, 7.5).
    pub fn exited_on(&self) -> Option<u8> {
        match self.loc {
            Loc::Exited { turn } => Some(turn),
            _ => None,
        }
    }

    /// Whether the unit is out of the game for good: eliminated, removed or exited.
    pub fn gone(&self) -> bool {
        matches!(self.loc, Loc::Eliminated | Loc::Removed | Loc::Exited { .. })
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

/// A combat being fought (a frame of the procedure stack).
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

/// 3.1 (data edition 3): a German stack moving together into an empty traffic jam. Units move
/// one at a time, so the stack is the first unit to enter the jam this phase and the German
/// units that stood with it where its move began and had not moved this phase: they may follow
/// it into the jam, which is closed to all other German units (RULINGS).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JamStack {
    /// The traffic jam's hex.
    pub jam: Hex,
    /// The units of the stack (the first to enter included) that may be in the jam together.
    pub units: Vec<UnitId>,
}

/// Everything that changes during a game, apart from the procedures in progress.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    pub scenario: String,
    pub turn: u8,
    pub first_turn: u8,
    pub last_turn: u8,
    /// The phase in progress (the one at the bottom of the procedure stack), or the last one
    /// once the game is over.
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
    /// Hexes attacked this combat phase (SCS 7.1: each at most once).
    pub attacked_hexes: Vec<Hex>,
    /// 5.1: airborne units placed in the coming US movement phase.
    pub airborne_due: Vec<UnitId>,
    /// 5.1: the airborne units being placed this phase (each division keeps to one group).
    pub airborne_drop: Vec<UnitId>,
    /// 3.8: this phase's German units the US was offered to blow a bridge ahead of, with the
    /// bridge's demolition symbol (by index): not offered again for them this phase.
    pub approached: Vec<(UnitId, u16)>,
    /// 2.2, 3.7: Air Supply markers on the map (until the end of the US player turn).
    pub air_supply: Vec<Hex>,
    /// 3.1 (data edition 3): this phase's German stacks moving into empty traffic jams. Never
    /// written while empty, so the state of an earlier edition's game is what it was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub jam_stacks: Vec<JamStack>,
    /// SCS 5.0 (data edition 3): the units arrived this turn whose side's first movement phase
    /// since has not ended; they may be overstacked until then (3.1, RULINGS). Never written
    /// while empty, so the state of an earlier edition's game is what it was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrived: Vec<UnitId>,
    /// 7.0: the scenario's playing area per hex (`None`: both maps whole), worked out from the
    /// scenario when the game starts, for shipped and player-written scenarios alike.
    #[serde(skip)]
    pub area: Option<std::sync::Arc<Vec<bool>>>,
    /// What the rules worked out for this position, kept for the next question (not part of
    /// the game: never saved, compared or checksummed).
    #[serde(skip)]
    pub memo: crate::memo::Memo,
    /// The units whose place or face changed, kept beside the state for the memo (not part
    /// of the game: never saved, compared or checksummed).
    #[serde(skip)]
    pub(crate) moves: Moves,
}

impl State {
    /// Puts unit `u` in `loc`, logged in [`State::moves`]. Every change of a unit's place in
    /// play goes through here (the edit door starts a new log instead).
    pub(crate) fn set_loc(&mut self, u: UnitId, loc: Loc) {
        let st = &mut self.units[u as usize];
        if st.loc != loc {
            st.loc = loc;
            self.moves.push(u);
        }
    }

    /// Puts unit `u` on its reduced face or not (1.2), logged in [`State::moves`]. Every
    /// change of a unit's face in play goes through here.
    pub(crate) fn set_reduced(&mut self, u: UnitId, reduced: bool) {
        let st = &mut self.units[u as usize];
        if st.reduced != reduced {
            st.reduced = reduced;
            self.moves.push(u);
        }
    }
}

/// The units that changed place or face since a log began, in order (core
/// [`MoveLog`](sandtable_core::move_log::MoveLog)): a copy of the state (a save loaded, a trial
/// position) and a state changed through the edit door ([`crate::ArdennesII::edit`]) start a
/// log of their own, which no memo has read.
pub(crate) type Moves = sandtable_core::move_log::MoveLog<UnitId>;

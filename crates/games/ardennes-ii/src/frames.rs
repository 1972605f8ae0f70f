//! The procedure stack of Ardennes II: what is in progress, as frames of the core's decision
//! driver ([`sandtable_core::driver`]).
//!
//! At the bottom lies the phase of the sequence of play (2.1, 2.2). Above it, whatever the
//! phase has started and must finish first: units to place, artillery that must bug out, the
//! US player's chance to blow bridges, a choice of artillery resupply, a combat with its
//! stages, a move walked hex by hex, the turn's arrivals walked one by one, and a die to roll.
//! Only the top frame is live; who decides there is [`crate::ArdennesII`]'s answer to
//! `who` (see `procedure.rs`).

use crate::sequence::{Phase, Side};
use crate::state::{Combat, Placing, UnitId};
use sandtable_core::hex::Hex;
use serde::Serialize;

/// One procedure in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Frame {
    /// A phase of the sequence of play (2.1), always the bottom frame.
    Phase { phase: Phase, step: PhaseStep },
    /// SCS 5.0, 2.2, 5.1: units their owners place, one at a time, the first of the queue now.
    Place { queue: Vec<Placing> },
    /// 3.6: artillery that must bug out, one at a time, the first of the queue now.
    BugOut { queue: Vec<UnitId> },
    /// 3.8: the US player may try to blow primed bridges now, or pass.
    Demolitions,
    /// 3.7: DG artillery that cannot trace supply; its owner rolls for it or not, one at a
    /// time, the first of the queue now.
    Resupply { queue: Vec<UnitId> },
    /// 2.2: this turn's arrivals, looked at in the scenario's order; `placing` gathers the
    /// units whose owners choose their hex, placed once every arrival has been looked at.
    Arrivals {
        arrival: u16,
        step: ArrivalStep,
        placing: Vec<Placing>,
    },
    /// A unit on its way (SCS 6.0), one hex at a time.
    March(March),
    /// 3.2, 3.3: a combat or an overrun being fought.
    Combat(Combat),
    /// A die to roll, and what it is for.
    Roll(Roll),
    /// 3.5: the firing side chooses the observer of `gun`'s barrage at `target` among
    /// `candidates` (friendly units within 2 hexes of it; for divisional artillery of its own
    /// division); then the die.
    Observer {
        gun: UnitId,
        target: Hex,
        candidates: Vec<UnitId>,
    },
    /// 3.8: the US player chooses which of `candidates` (US units within 2 hexes of the
    /// demolition symbol at `symbol`) makes the attempt and stops; then the die.
    Demolisher { symbol: Hex, candidates: Vec<UnitId> },
}

/// Where a phase stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseStep {
    /// A phase without decisions does its work (rolls, removals, recovery, supply).
    Work,
    /// A phase of decisions sees whether its player has anything left to do; if not, it ends
    /// by itself.
    Check,
    /// The phase's player decides (a move, a barrage, an attack…, or ending the phase).
    Play,
    /// The phase ends: captured bridges are marked and Half markers reconciled (3.5, 3.8).
    End,
    /// The end of the phase, after the reconciliation: stacking and control (3.1, 6.0), then
    /// the next phase or turn.
    Close,
}

/// Where the look at one arrival stands (2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArrivalStep {
    /// Find the next arrival of the turn from `arrival` on, and roll for it if it must.
    Look,
    /// It comes: a von der Heydte drop rolls on its table (4.1).
    Landing,
    /// It lands: its units come on the map.
    Enter,
}

/// A unit walking its route.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct March {
    /// The unit moving (the first of a stack moving together).
    pub unit: UnitId,
    /// SCS 6.0, 3.1 (data edition 3): the other units of a stack moving together with `unit`,
    /// each entering every hex with it and paying the same MP.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<UnitId>,
    /// Where the move began.
    pub start: Hex,
    /// The hexes still to enter, in order, each with the half MP entering it costs, as priced
    /// when the march began (or last went on after someone else decided).
    pub route: Vec<(Hex, u32)>,
    /// Where the stretch walked since the last log line began, and the half MP it cost.
    pub from: Hex,
    pub stretch: u32,
    /// Someone else decided in the middle of the march (a bug-out, a bridge demolition): the
    /// rest of the route is priced again on the position as it now is before the next step.
    pub reprice: bool,
    /// 3.6: the enemy artillery this march has made bug out (or stay, having nowhere to go):
    /// each is asked once.
    pub alerted: Vec<UnitId>,
}

impl March {
    /// The units walking: the unit, then those of its stack moving together with it.
    pub fn movers(&self) -> Vec<UnitId> {
        let mut v = Vec::with_capacity(1 + self.with.len());
        v.push(self.unit);
        v.extend_from_slice(&self.with);
        v
    }
}

/// What a die is rolled for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Roll {
    /// 2.2: the Weather Table.
    Weather,
    /// 2.2: the US Air Strike Table.
    AirStrikes,
    /// 2.2: an arrival that comes only on a high enough roll (by index in the scenario).
    Arrival { arrival: u16 },
    /// 4.1: the von der Heydte Success Table.
    VonDerHeydte { arrival: u16 },
    /// 3.5: a barrage at `target` by `side`, the die modified by `drm`; `occupant` is the side
    /// whose units were in the hex when it was fired at (its terrain's row, 3.5).
    Barrage {
        side: Side,
        target: Hex,
        drm: i32,
        occupant: Option<Side>,
    },
    /// 3.5: the Half Reconciliation Table for a lone Half marker.
    HalfMarker { hex: Hex, side: Side },
    /// 3.2 (4): the two combat dice, one after the other; `first` is the first die once
    /// rolled.
    Combat { first: Option<u8> },
    /// 3.8: the Bridge Demolition Table.
    Demolition { symbol: Hex },
    /// 3.7: the Artillery Resupply Table.
    Resupply { unit: UnitId },
}

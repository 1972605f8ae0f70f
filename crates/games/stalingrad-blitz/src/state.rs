//! The game state: where every unit is, city control, the chits; and the procedures in
//! progress, as the frames on the driver's stack (a turn, the selection, the cup, the command
//! being executed, a combat above it, a die being rolled). Everything here is plain data; the
//! rules live in the other modules.

use crate::data::Side;
use sandtable_core::hex::Hex;
use sandtable_core::move_log::MoveLog;
use serde::{Deserialize, Serialize};

/// Index of a unit in the counter manifest.
pub type UnitId = u16;

/// The fortress marker as a target of a step loss (14.2(6)).
pub const FORTRESS: UnitId = u16::MAX;

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loc {
    Map(Hex),
    /// The reserve force pool (4.0(5)).
    Pool,
    /// The Axis rail transport box (11.3).
    RailBox,
    /// An eliminated Soviet HQ waiting on the reinforcement track (13.0(2)1).
    Track,
    /// Out of the game.
    Eliminated,
    /// Withdrawn from the front (11.2(4)).
    Withdrawn,
    /// Received as a reinforcement and waiting to be placed (12.0).
    Arriving,
    /// Waiting to be set up by its player before the first turn (4.0(2)–(4)).
    SetUp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    pub loc: Loc,
    pub reduced: bool,
    /// Activated by the command being executed (8.0).
    pub active: bool,
    /// Has moved in this command execution (8.1(3)).
    pub moved: bool,
    /// Has attacked (or is declared to attack) in this command execution (8.1(3), 10.1(1)).
    pub attacked: bool,
    /// Retreated in this combat segment: adds no defence (10.3(1)2, 10.6(7)).
    pub spent: bool,
}

impl UnitState {
    pub fn at(loc: Loc) -> UnitState {
        UnitState {
            loc,
            reduced: false,
            active: false,
            moved: false,
            attacked: false,
            spent: false,
        }
    }
    pub fn hex(&self) -> Option<Hex> {
        match self.loc {
            Loc::Map(h) => Some(h),
            _ => None,
        }
    }
}

/// A Soviet fortress marker on the map (14.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fortress {
    pub hex: Hex,
    pub level: u8,
}

/// Up to twelve units (two stacks in each of six neighbouring hexes), inline so actions stay
/// small and copyable.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct UnitList {
    len: u8,
    ids: [UnitId; 12],
}

impl UnitList {
    pub fn push(&mut self, u: UnitId) {
        if (self.len as usize) < self.ids.len() {
            self.ids[self.len as usize] = u;
            self.len += 1;
        }
    }
    pub fn as_slice(&self) -> &[UnitId] {
        &self.ids[..self.len as usize]
    }
    pub fn contains(&self, u: UnitId) -> bool {
        self.as_slice().contains(&u)
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn from_slice(s: &[UnitId]) -> UnitList {
        let mut l = UnitList::default();
        for &u in s {
            l.push(u);
        }
        l
    }
}

impl std::fmt::Debug for UnitList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl Serialize for UnitList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for UnitList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<UnitList, D::Error> {
        let v = Vec::<UnitId>::deserialize(d)?;
        if v.len() > 12 {
            return Err(serde::de::Error::custom("at most 12 units"));
        }
        Ok(UnitList::from_slice(&v))
    }
}

/// The hexes a move must pass through, in order (9.0): at most twelve, inline so actions stay
/// small and copyable. Empty: the cheapest route.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Route {
    len: u8,
    hexes: [Hex; 12],
}

impl Default for Route {
    fn default() -> Route {
        Route {
            len: 0,
            hexes: [Hex(0); 12],
        }
    }
}

impl Route {
    pub fn from_slice(s: &[Hex]) -> Option<Route> {
        if s.len() > 12 {
            return None;
        }
        let mut r = Route::default();
        r.hexes[..s.len()].copy_from_slice(s);
        r.len = s.len() as u8;
        Some(r)
    }
    pub fn as_slice(&self) -> &[Hex] {
        &self.hexes[..self.len as usize]
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl std::fmt::Debug for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl Serialize for Route {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Route {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Route, D::Error> {
        let v = Vec::<Hex>::deserialize(d)?;
        Route::from_slice(&v).ok_or_else(|| serde::de::Error::custom("a route passes through at most 12 hexes"))
    }
}

/// One decision. Hexes and units are indices; `notation` gives the typeable form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "do")]
pub enum Action {
    /// 6.0: put a chit into the cup.
    Pick {
        chit: u8,
    },
    /// 6.2(2): put neither SOVIET REINF nor STAVKA in.
    NoExtra,
    /// 16.0(1): the turn-1 chit executed at once (or none).
    First {
        chit: Option<u8>,
    },
    /// Choose a unit: the HQ for STAVKA, a German unit for an allied HQ, a reinforcement, a
    /// unit to withdraw or to send to the rail box.
    Choose {
        unit: UnitId,
    },
    /// Choose no more.
    EndChoose,
    /// 9.0: move a unit (normal movement, or march formation along a road), by the cheapest
    /// route or through the hexes of `via`, in order.
    Move {
        unit: UnitId,
        to: Hex,
        march: bool,
        #[serde(default, skip_serializing_if = "Route::is_empty")]
        via: Route,
    },
    EndMovement,
    /// 10.2(1): declare an attack on a hex with these units.
    Declare {
        target: Hex,
        units: UnitList,
    },
    /// Take back a declaration before the first roll.
    Undeclare {
        target: Hex,
    },
    EndDeclare,
    /// 10.2(1): resolve this declared attack next.
    Resolve {
        target: Hex,
    },
    /// 10.5(2): this unit (or the fortress) takes one step loss.
    Lose {
        unit: UnitId,
    },
    /// 14.2(5): convert R/RR into step losses.
    Convert {
        yes: bool,
    },
    /// 10.6: the next retreat hex of a unit.
    Retreat {
        unit: UnitId,
        to: Hex,
    },
    /// 10.7: advance a unit after combat.
    Advance {
        unit: UnitId,
        to: Hex,
    },
    EndAdvance,
    /// 12.1: place a reinforcement.
    Place {
        unit: UnitId,
        at: Hex,
    },
    /// 14.1: build or raise a fortress.
    Fortify {
        hex: Hex,
    },
    NoFortress,
    /// Chance, 7.1(1): the chit in this place of the cup is drawn.
    Draw {
        slot: u8,
        chit: u8,
    },
    /// Chance: a die shows this face.
    Die {
        face: u8,
    },
}

/// Where in the command selection phase we are (6.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Select {
    SovietHq,
    SovietExtra,
    AxisGer,
    AxisRnf,
    /// Turn 1 only (16.0(1)).
    AxisFirst,
}

/// A declared attack (10.2(1)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    pub target: Hex,
    pub units: UnitList,
}

/// A combat being resolved (10.2–10.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combat {
    pub target: Hex,
    pub attackers: UnitList,
    pub column: u8,
    pub die: u8,
    pub attacker_steps: u8,
    pub defender_steps: u8,
    pub retreat: u8,
    pub stage: CombatStage,
    /// Units still to retreat: (unit, hexes left, hexes retreated so far).
    pub retreating: Vec<(UnitId, u8, u8)>,
    /// Hexes the current retreating unit has passed, so it never doubles back.
    pub trail: Vec<Hex>,
    /// Whether the attacking units entered the target across a river (10.7(1)).
    pub advanced: Vec<UnitId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CombatStage {
    AttackerLoss,
    Convert,
    DefenderLoss,
    Retreat,
    Advance,
}

/// The Axis reinforcement procedure (12.3, 12.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AxisReinf {
    pub die: u8,
    /// Still to choose per type: pz, ss, inf, hun, rum, it.
    pub left: [u8; 6],
    /// Still allowed from the rail transport box (12.4).
    pub from_box: u8,
}

/// The supply procedure's decisions (11.2–11.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SupplyStage {
    /// 11.2: German divisions still to withdraw: pz, ss, inf.
    Withdraw { die: u8, left: [u8; 3] },
    /// 11.3.
    RailBox,
    /// 11.4 / 14.1.
    Fortress,
}

/// What the executing command is doing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// 7.2(3): the Soviet player picks the HQ STAVKA activates.
    Stavka,
    /// 8.3(2): an allied HQ picks up to two German units in range.
    AlliedGerman {
        picked: u8,
    },
    Move,
    Declare,
    /// Choose which declared attack to resolve next (the combat itself is a frame above).
    Order,
    AxisReinf(AxisReinf),
    /// 12.2, 13.0(2)1: the Soviet player chooses which pool HQs the track brings.
    SovietReinf {
        hq_left: u8,
    },
    /// 12.1: reinforcements to place (the first in the list is placed next).
    Place,
    Supply(SupplyStage),
}

/// The command being executed (7.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exec {
    pub chit: u8,
    pub side: Side,
    pub hq: Option<UnitId>,
    pub step: Step,
    pub declared: Vec<Attack>,
    /// Hexes already attacked in this combat segment (10.1(3)).
    pub attacked: Vec<Hex>,
}

/// What a die is rolled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Roll {
    /// 12.3: the Axis reinforcement table, for this chit.
    AxisReinf { chit: u8 },
    /// 11.2: the German withdrawal table, for this (SUPPLY) chit.
    Withdrawal { chit: u8 },
    /// 10.4: the combat results table, for this attack on this column.
    Combat {
        target: Hex,
        attackers: UnitList,
        column: u8,
    },
}

/// One procedure in progress, as it sits on the driver's stack (bottom first: the turn, the
/// cup, the command, a combat, a die).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Frame {
    /// 4.0: the players set up their units, one at a time, before turn 1.
    SetUp,
    /// 5.0: a game turn. Its phases stand above it; when it is on top again, the turn ends
    /// (15.0).
    Turn,
    /// 6.0: command selection, stage by stage.
    Select(Select),
    /// 7.1(1): chance draws the next chit from the cup. It stays below the command it draws;
    /// when the cup is empty, the execution phase is over.
    Draw,
    /// 7.0: the command being executed.
    Exec(Box<Exec>),
    /// 10.2–10.7: a combat being resolved, above its command.
    Combat(Box<Combat>),
    /// Chance: a die.
    Roll(Roll),
}

/// What the rules keep secret (6.1(3)): which chits each side put in the cup, and the cup
/// itself. Kept apart from [`State`], which both players see whole, so that nothing handed to a
/// player or a computer player by way of the state can carry a secret.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Hidden {
    /// Chits each side has put in the cup this turn. [axis, soviet]
    pub picks: [Vec<u8>; 2],
    /// The cup, in no order anyone may know.
    pub cup: Vec<u8>,
}

/// The changing state of a game that both players see.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub turn: u8,
    pub units: Vec<UnitState>,
    /// Per hex: which side controls it (cities, towns and VP hexes; 3.4).
    pub control: Vec<Option<Side>>,
    pub fortresses: Vec<Fortress>,
    /// Fortress markers placed so far, including ones since removed (14.3(3)).
    pub fortress_markers_used: u8,
    /// The Soviet reinforcement number marker (12.2).
    pub track: u8,
    /// VP lost by the Axis for units removed by combat or supply (15.0(2)).
    pub loss_vp: u16,
    /// Chits executed this turn, face up (7.1(4)).
    pub used: Vec<u8>,
    /// Reinforcements waiting to be placed, in order, with where each came from (a unit that
    /// cannot enter goes back there).
    pub arriving: Vec<(UnitId, Loc)>,
    /// The last victory point count (15.0), made at the end of each turn.
    pub vp: i32,
    pub winner: Option<Side>,
    /// The units that changed place, kept beside the state for the rules' memos; not saved,
    /// not hashed, not compared.
    #[serde(skip)]
    pub(crate) moves: Moves,
}

impl State {
    /// Puts unit `u` in `loc`, logged in [`State::moves`]. Every change of a unit's place
    /// goes through here (an [`crate::Edit`] starts a new log instead).
    pub(crate) fn set_loc(&mut self, u: UnitId, loc: Loc) {
        let st = &mut self.units[u as usize];
        if st.loc != loc {
            self.moves.log.push((u, st.loc));
            st.loc = loc;
        }
    }

    /// Gives control of `h` to `side` (3.4), counted in [`State::moves`]. Every change of
    /// control in play goes through here.
    pub(crate) fn set_control(&mut self, h: Hex, side: Option<Side>) {
        if self.control[h.idx()] != side {
            self.control[h.idx()] = side;
            self.moves.control += 1;
        }
    }
}

/// The units that changed place since a log began, in order, each with where it was (core
/// [`MoveLog`]), and how many times control of a hex changed: a copy of the state (an undo, a
/// save loaded, a search's trial position) and a state changed through
/// [`crate::StalingradBlitz::edit`] start a log of their own, which a memo has never read.
#[derive(Default)]
pub(crate) struct Moves {
    log: MoveLog<(UnitId, Loc)>,
    /// How many times control of a hex changed since the log began.
    control: u32,
}

impl Moves {
    /// The number of this log.
    pub fn id(&self) -> u64 {
        self.log.id()
    }
    /// The moves logged so far, with where each unit was.
    pub fn log(&self) -> &[(UnitId, Loc)] {
        self.log.entries()
    }
    /// How many times control of a hex changed since the log began.
    pub fn control_changes(&self) -> u32 {
        self.control
    }
    /// Starts a new log: what was read of the old one no longer holds.
    pub fn renew(&mut self) {
        *self = Moves::default();
    }
}

impl Clone for Moves {
    /// A copy starts a log of its own: the copy and the original go separate ways.
    fn clone(&self) -> Moves {
        Moves::default()
    }
}

impl std::fmt::Debug for Moves {
    /// Nothing of the position: two equal positions print alike whatever their logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("..")
    }
}

impl PartialEq for Moves {
    /// The log is not part of the position.
    fn eq(&self, _: &Moves) -> bool {
        true
    }
}

//! Memory of what the rules worked out for a position, so that one decision does not work it
//! out again and again.
//!
//! A movement phase of the campaign has some 130 units to list moves for, over a map of 4,400
//! hexes, and every question of a decision (the legal list, the check of the chosen action, its
//! execution, the phase's end) reads the same ZOC Bonds and the same reaches. Two things are
//! kept, each with the exact inputs it was worked out from, and used again only when those
//! inputs are unchanged — so the memo can never answer for another position:
//!
//! - the [`Layout`] (who stands where, the hexes next to the enemy, the ZOC Bonds), keyed on
//!   every unit's hex and face;
//! - each unit's movement reach (the hexes it can enter and their cost), keyed on the unit's
//!   hex, MP spent, DG and face, and on everything else movement costs read for its side
//!   (TEC, 1.2, 3.1, 3.5, 3.8): the turn, the blown bridges, the barrage markers, the hexes
//!   the enemy holds, the enemy's ZOC Bonds and, on turns 1–2, the traffic jams German units
//!   hold. Moving one unit thus leaves the reach of the side's other units as it was;
//! - each side's supply map (3.7), keyed on the layout it was traced on, the turn, the blown
//!   bridges and the Air Supply markers: all a trace reads besides the scenario's sources.
//!
//! The memo lives in [`State`] outside its serialized form: it is not part of the game, and a
//! loaded or replayed game simply starts with an empty one.

use crate::rules::{Board, Layout};
use crate::sequence::Side;
use crate::state::{Markers, State, UnitId};
use crate::world::World;
use sandtable_core::hex::Hex;
use sandtable_core::search::Search;
use std::sync::{Arc, Mutex, MutexGuard};

/// The hexes a unit can enter this phase with their costs in half MP, in hex order, the hex
/// it stands in excluded.
pub type Reach = Arc<[(Hex, u32)]>;

/// See the module documentation.
#[derive(Default)]
pub struct Memo(Mutex<Inner>);

#[derive(Clone, Default)]
struct Inner {
    /// The world everything here was worked out on ([`World::id`]).
    world: Option<u64>,
    layout: Option<Arc<Layout>>,
    reach: [SideReach; 2],
    supply: [Option<SupplyMap>; 2],
}

/// A side's supply map and what it was traced from.
#[derive(Clone)]
struct SupplyMap {
    /// The layout of the position (held, so that its address is not reused while compared).
    layout: Arc<Layout>,
    turn: u8,
    blown: Vec<Hex>,
    air_supply: Vec<Hex>,
    map: Arc<Vec<bool>>,
}

/// The reaches of one side's units, valid while `env` holds.
#[derive(Clone, Default)]
struct SideReach {
    env: Option<Env>,
    /// Raised whenever `env` changes; a unit's entry counts only under its own generation.
    generation: u64,
    units: Vec<Option<UnitReach>>,
}

/// What movement costs read for a side, apart from the moving unit itself.
#[derive(Clone)]
struct Env {
    /// The layout last checked against this environment (a quick test that it still holds).
    layout: Option<Arc<Layout>>,
    /// 7.0: the playing area (held, so that its address is not reused while compared).
    area: Option<Arc<Vec<bool>>>,
    turn: u8,
    blown: Vec<Hex>,
    markers: Vec<Markers>,
    enemy_hexes: Vec<Hex>,
    enemy_bonds: Vec<bool>,
    german_jams: Vec<Hex>,
}

#[derive(Clone)]
struct UnitReach {
    generation: u64,
    hex: Hex,
    spent: u16,
    dg: bool,
    reduced: bool,
    reach: Reach,
}

impl Clone for Memo {
    fn clone(&self) -> Memo {
        Memo(Mutex::new(self.inner().clone()))
    }
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

impl Memo {
    fn inner(&self) -> MutexGuard<'_, Inner> {
        // A panic while the lock was held leaves nothing half-made that matters: every entry
        // is checked against its inputs before use.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The memo for world `w`: emptied first if it was made on another world.
    fn on(&self, w: &World) -> MutexGuard<'_, Inner> {
        let mut inner = self.inner();
        if inner.world != Some(w.id) {
            *inner = Inner {
                world: Some(w.id),
                ..Inner::default()
            };
        }
        inner
    }

    /// Forgets everything (for tests that compare with the rules worked out afresh).
    pub fn clear(&self) {
        *self.inner() = Inner::default();
    }

    /// The layout of the units of `s`: the one kept, if they still stand where they stood.
    pub(crate) fn layout(&self, w: &World, s: &State) -> Arc<Layout> {
        if let Some(l) = &self.on(w).layout {
            if l.fits(s) {
                return l.clone();
            }
        }
        let l = Arc::new(Layout::build(w, s));
        self.on(w).layout = Some(l.clone());
        l
    }

    /// Side `side`'s supply map on board `b`: the one kept, if traced from the same position,
    /// turn, blown bridges and Air Supply markers, else traced by `trace`.
    pub(crate) fn supply(&self, b: &Board, side: Side, trace: impl FnOnce() -> Vec<bool>) -> Arc<Vec<bool>> {
        // The board's layout is taken (from this memo) before the memo is locked here.
        let layout = b.layout().clone();
        let s = b.s;
        let fits = |m: &SupplyMap| {
            Arc::ptr_eq(&m.layout, &layout) && m.turn == s.turn && m.blown == s.blown && m.air_supply == s.air_supply
        };
        if let Some(m) = &self.on(b.w).supply[side.seat() as usize] {
            if fits(m) {
                return m.map.clone();
            }
        }
        let map = Arc::new(trace());
        self.on(b.w).supply[side.seat() as usize] = Some(SupplyMap {
            layout,
            turn: s.turn,
            blown: s.blown.clone(),
            air_supply: s.air_supply.clone(),
            map: map.clone(),
        });
        map
    }

    /// Unit `u`'s reach on board `b`: the one kept, if its inputs are unchanged, else worked
    /// out with `search`.
    pub(crate) fn reach(&self, b: &Board, u: UnitId, search: &mut Search) -> Reach {
        let st = &b.s.units[u as usize];
        let Some(hex) = st.hex() else {
            return Arc::from(Vec::new());
        };
        let side = b.def(u).side;
        // The board's layout is taken (from this memo) before the memo is locked here.
        b.layout();
        let mut inner = self.on(b.w);
        let sr = &mut inner.reach[side.seat() as usize];
        refresh(sr, b, side);
        if sr.units.len() < b.s.units.len() {
            sr.units.resize(b.s.units.len(), None);
        }
        if let Some(e) = &sr.units[u as usize] {
            if e.generation == sr.generation
                && e.hex == hex
                && e.spent == st.spent
                && e.dg == st.dg
                && e.reduced == st.reduced
            {
                return e.reach.clone();
            }
        }
        b.reach(u, search);
        let mut found: Vec<(Hex, u32)> = search
            .reached()
            .filter(|&h| h != hex)
            .map(|h| (h, search.cost(h).unwrap_or(0)))
            .collect();
        found.sort_unstable();
        let reach: Reach = Arc::from(found);
        sr.units[u as usize] = Some(UnitReach {
            generation: sr.generation,
            hex,
            spent: st.spent,
            dg: st.dg,
            reduced: st.reduced,
            reach: reach.clone(),
        });
        reach
    }
}

/// Checks the side's environment against board `b`, starting a new generation if it changed.
fn refresh(sr: &mut SideReach, b: &Board, side: Side) {
    let l = b.layout();
    let s = b.s;
    if let Some(env) = &mut sr.env {
        let same_area = match (&env.area, &s.area) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        if same_area && env.turn == s.turn && env.blown == s.blown && env.markers == s.markers {
            if env.layout.as_ref().is_some_and(|e| Arc::ptr_eq(e, l)) {
                return;
            }
            if env.enemy_hexes == b.held_by(side.enemy())
                && env.enemy_bonds == l.enemy_bond[side.seat() as usize]
                && env.german_jams == german_jams(b, side)
            {
                env.layout = Some(l.clone());
                return;
            }
        }
    }
    sr.generation += 1;
    sr.env = Some(Env {
        layout: Some(l.clone()),
        area: s.area.clone(),
        turn: s.turn,
        blown: s.blown.clone(),
        markers: s.markers.clone(),
        enemy_hexes: b.held_by(side.enemy()).to_vec(),
        enemy_bonds: l.enemy_bond[side.seat() as usize].clone(),
        german_jams: german_jams(b, side),
    });
}

/// 3.1: the traffic jams German units hold, which are closed to other German units.
fn german_jams(b: &Board, side: Side) -> Vec<Hex> {
    if side != Side::German || !b.jams_active() {
        return Vec::new();
    }
    b.held_by(Side::German)
        .iter()
        .copied()
        .filter(|&h| b.traffic_jam(h))
        .collect()
}

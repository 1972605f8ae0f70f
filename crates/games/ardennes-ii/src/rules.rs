//! Questions the rules ask of a position: who stands where, which hexes the ZOC Bonds hold,
//! where a unit can move and at what cost (and what bars a step), who can trace supply, how
//! strong a unit attacks or defends under DG and barrage markers. [`Board`] answers them from
//! a [`World`] and a [`State`], built fresh for each question; who stands where is worked out
//! only when a question needs it.

use crate::bonds::{bonds, BondBoard};
use crate::data::{Movement, UnitDef};
use crate::sequence::Side;
use crate::state::{State, UnitId};
use crate::world::World;
use sandtable_core::hex::{Dir, Hex};
use sandtable_core::search::{Search, Step, Why};
use std::cell::OnceCell;
use std::sync::Arc;

pub(crate) use sandtable_core::search::with_thread_search as with_search;

/// What bars a step of movement ([`Board::step`]), kept by the movement search so that a
/// refused move can say what stopped the unit.
pub mod barred {
    use sandtable_core::search::Why;
    /// SCS 6.0: an enemy unit holds the hex.
    pub const ENEMY: Why = Why(1);
    /// 7.0: the hex is outside the scenario's playing area.
    pub const OUTSIDE: Why = Why(2);
    /// 3.6: artillery does not enter a hex next to an enemy unit.
    pub const ARTILLERY_NEAR_ENEMY: Why = Why(3);
    /// 3.1: a traffic jam German units hold is closed to other German units.
    pub const JAM_HELD: Why = Why(4);
    /// TEC: the hex's terrain is prohibited to the unit's kind of movement.
    pub const TERRAIN: Why = Why(5);
    /// TEC, 1.3: the hexside is prohibited to it, and no usable road crosses it.
    pub const HEXSIDE: Why = Why(6);
}

/// Strengths are counted in eighths, so that DG (½) and barrage (½, ¼) multiply exactly
/// (inventory A5: keep fractions; only the odds are rounded).
pub const EIGHTHS: u32 = 8;

/// A position seen through the rules.
pub struct Board<'a> {
    pub w: &'a World,
    pub s: &'a State,
    /// What the rules derive from where the units stand (shared by every board of the same
    /// position, see [`crate::memo`]), taken when first needed.
    l: OnceCell<Arc<Layout>>,
    /// 7.0: the playing area (`None`: the whole map).
    area: Option<&'a [bool]>,
}

/// What follows from where the units stand alone: which side holds each hex and with how
/// many units, the units of each hex, the hexes next to the enemy and the ZOC Bonds (1.2).
/// Built once per position and shared (see [`crate::memo`]).
pub struct Layout {
    /// Per unit: its hex index + 1 (0 off the map) times 2, plus 1 if reduced: the position
    /// this layout was built from.
    pub(crate) key: Vec<u32>,
    /// The side of the units in each hex (sides never share a hex).
    side_at: Vec<Option<Side>>,
    count: Vec<u8>,
    /// The units of hex `h` are `ids[start[h]..start[h + 1]]`, in unit order.
    start: Vec<u32>,
    ids: Vec<UnitId>,
    /// Per side: whether each hex is an enemy ZOC Bond hex for that side's units.
    pub(crate) enemy_bond: [Vec<bool>; 2],
    /// Per side: the hexes its units hold, in hex order.
    pub(crate) occupied: [Vec<Hex>; 2],
    /// Per side: whether each hex is adjacent to a unit of that side's enemy.
    near_enemy: [Vec<bool>; 2],
}

/// The key of a unit's place in a [`Layout`].
pub(crate) fn layout_key(u: &crate::state::UnitState) -> u32 {
    u.hex().map_or(0, |h| (h.0 as u32 + 1) * 2 + u32::from(u.reduced))
}

struct SideBonds<'b> {
    w: &'b World,
    count: &'b [u8],
    enemy: &'b [Hex],
    side: Side,
    infantry: Vec<u8>,
}

impl BondBoard for SideBonds<'_> {
    fn is_post(&self, h: Hex) -> bool {
        // 1.2 (1), (7): 2 infantry steps, not in a City.
        self.infantry[h.idx()] >= 2 && self.w.map.terrain(h) & self.w.t.city == 0
    }
    fn is_empty(&self, h: Hex) -> bool {
        self.count[h.idx()] == 0
    }
    fn bond_terrain(&self, h: Hex) -> bool {
        // Inventory A6: not terrain prohibited to foot units.
        self.w.costs.hex[self.side.seat() as usize][0][h.idx()].is_some()
    }
    fn bond_side(&self, a: Hex, b: Hex) -> bool {
        let Some(d) = self.w.map.grid.dir_to(a, b) else {
            return false;
        };
        self.w.costs.side[0][a.idx()][d as usize].is_some()
    }
    fn enemy_hexes(&self) -> &[Hex] {
        self.enemy
    }
}

impl Layout {
    /// The layout of the units of `s` on the map of `w`.
    pub fn build(w: &World, s: &State) -> Layout {
        let n = w.map.grid.len();
        let mut side_at = vec![None; n];
        let mut count = vec![0u8; n];
        let mut infantry = [vec![0u8; n], vec![0u8; n]];
        let mut key = Vec::with_capacity(s.units.len());
        for (i, u) in s.units.iter().enumerate() {
            key.push(layout_key(u));
            let Some(h) = u.hex() else { continue };
            let def = &w.data.counters.units[i];
            side_at[h.idx()] = Some(def.side);
            count[h.idx()] += 1;
            if def.is_bond_infantry() {
                infantry[def.side.seat() as usize][h.idx()] += if u.reduced { 1 } else { def.steps };
            }
        }
        // The units of each hex, by counting.
        let mut start = vec![0u32; n + 1];
        for h in 0..n {
            start[h + 1] = start[h] + count[h] as u32;
        }
        let mut ids = vec![0; start[n] as usize];
        let mut next = start.clone();
        for (i, u) in s.units.iter().enumerate() {
            if let Some(h) = u.hex() {
                ids[next[h.idx()] as usize] = i as UnitId;
                next[h.idx()] += 1;
            }
        }
        let mut occupied = [Vec::new(), Vec::new()];
        let mut near_enemy = [vec![false; n], vec![false; n]];
        for h in w.map.grid.hexes() {
            if let Some(side) = side_at[h.idx()] {
                occupied[side.seat() as usize].push(h);
                // Units of the other side next to this hex have an enemy adjacent.
                let other = side.enemy().seat() as usize;
                for (_, nb) in w.map.grid.neighbours(h) {
                    near_enemy[other][nb.idx()] = true;
                }
            }
        }
        let mut enemy_bond = [vec![false; n], vec![false; n]];
        for side in [Side::German, Side::Allied] {
            let sb = SideBonds {
                w,
                count: &count,
                enemy: &occupied[side.enemy().seat() as usize],
                side,
                infantry: std::mem::take(&mut infantry[side.seat() as usize]),
            };
            let held_against = side.enemy().seat() as usize;
            for bond in bonds(&w.map.grid, &sb) {
                enemy_bond[held_against][bond.hex.idx()] = true;
            }
        }
        Layout {
            key,
            side_at,
            count,
            start,
            ids,
            enemy_bond,
            occupied,
            near_enemy,
        }
    }

    /// Whether this layout is that of the units of `s`.
    pub(crate) fn fits(&self, s: &State) -> bool {
        self.key.len() == s.units.len() && s.units.iter().zip(&self.key).all(|(u, &k)| layout_key(u) == k)
    }
}

impl<'a> Board<'a> {
    /// The position of `s`, its layout taken from the state's memo when the units have not
    /// moved since it was built.
    pub fn new(w: &'a World, s: &'a State) -> Board<'a> {
        Board {
            w,
            s,
            l: OnceCell::new(),
            area: s.area.as_deref().map(|a| a.as_slice()),
        }
    }

    pub(crate) fn layout(&self) -> &Arc<Layout> {
        self.l.get_or_init(|| self.s.memo.layout(self.w, self.s))
    }

    /// 7.0: whether `h` is in the scenario's playing area.
    pub fn in_area(&self, h: Hex) -> bool {
        self.area.is_none_or(|a| a[h.idx()])
    }

    pub fn def(&self, u: UnitId) -> &'a UnitDef {
        &self.w.data.counters.units[u as usize]
    }

    pub fn side_at(&self, h: Hex) -> Option<Side> {
        self.layout().side_at[h.idx()]
    }

    pub fn count(&self, h: Hex) -> u8 {
        self.layout().count[h.idx()]
    }

    /// The units in a hex, in unit order.
    pub fn stack(&self, h: Hex) -> &[UnitId] {
        let l = self.layout();
        &l.ids[l.start[h.idx()] as usize..l.start[h.idx() + 1] as usize]
    }

    /// The units in a hex, in unit order.
    pub fn units_at(&self, h: Hex) -> Vec<UnitId> {
        self.stack(h).to_vec()
    }

    /// The hexes the units of `side` hold, in hex order.
    pub fn held_by(&self, side: Side) -> &[Hex] {
        &self.layout().occupied[side.seat() as usize]
    }

    pub fn enemy_in(&self, side: Side, h: Hex) -> bool {
        self.layout().side_at[h.idx()] == Some(side.enemy())
    }

    /// 1.2: a hex adjacent to a unit of the enemy of `side`.
    pub fn enemy_adjacent(&self, side: Side, h: Hex) -> bool {
        self.layout().near_enemy[side.seat() as usize][h.idx()]
    }

    /// 1.2: an enemy ZOC Bond hex for units of `side`.
    pub fn enemy_bond(&self, side: Side, h: Hex) -> bool {
        self.layout().enemy_bond[side.seat() as usize][h.idx()]
    }

    /// The ZOC Bond hexes `side`'s posts hold (1.2).
    pub fn bond_hexes(&self, side: Side) -> Vec<Hex> {
        let held_against = side.enemy().seat() as usize;
        self.w
            .map
            .grid
            .hexes()
            .filter(|h| self.layout().enemy_bond[held_against][h.idx()])
            .collect()
    }

    /// Full barrage markers in `h` fired by `by`.
    pub fn full_markers(&self, h: Hex, by: Side) -> u8 {
        self.s
            .markers
            .iter()
            .filter(|m| m.hex == h && m.side == by)
            .map(|m| m.full)
            .sum()
    }

    /// 3.5: the MP an enemy marker costs to enter or to leave `h` for units of `side`.
    fn enemy_marker_mp(&self, side: Side, h: Hex) -> u32 {
        let n = self.full_markers(h, side.enemy());
        self.marker_effect(n).map_or(0, |e| e.mp as u32)
    }

    fn marker_effect(&self, full: u8) -> Option<&'a crate::data::tables::MarkerEffect> {
        if full == 0 {
            return None;
        }
        let rows = &self.w.data.tables.enemy_markers;
        rows.iter().rev().find(|r| full >= r.full_markers)
    }

    /// Whether the road of the hexside of `h` toward `d` may be followed (1.3): a road or track
    /// crosses it, and if water runs along it, a bridge stands there today and is not blown.
    pub fn road_link(&self, h: Hex, d: Dir) -> Option<&'static str> {
        let road = self.w.road_across(h, d)?;
        if !self.w.water(h, d) {
            return Some(road);
        }
        if !self.bridge_usable(h, d) {
            return None;
        }
        Some(self.w.near_side_road(h, d, road))
    }

    /// 3.8: a bridge across this hexside stands on this turn and its demolition symbol has not
    /// blown it.
    pub fn bridge_usable(&self, h: Hex, d: Dir) -> bool {
        if !self.w.bridge(h, d, self.s.turn) {
            return false;
        }
        match self.w.side_symbol[h.idx()][d as usize] {
            Some(i) => !self.s.blown.contains(&self.w.demolitions[i as usize].0),
            None => true,
        }
    }

    /// 3.1: traffic jams exist on turns 1 and 2 only.
    pub fn jams_active(&self) -> bool {
        self.s.turn <= 2
    }

    pub fn traffic_jam(&self, h: Hex) -> bool {
        self.jams_active() && self.w.map.terrain(h) & self.w.t.traffic_jam != 0
    }

    /// The half-MP cost for unit `u` to step from `from` into `to` (direction `d`), or `None`
    /// if it may not (TEC, 1.3, 3.1, 3.5, 3.6).
    pub fn step_cost(&self, u: UnitId, from: Hex, d: Dir, to: Hex) -> Option<u32> {
        self.step(u, from, d, to).ok()
    }

    /// The half-MP cost for unit `u` to step from `from` into `to` (direction `d`), or what
    /// bars the step ([`barred`]).
    pub fn step(&self, u: UnitId, from: Hex, d: Dir, to: Hex) -> Result<u32, Why> {
        let def = self.def(u);
        let side = def.side;
        if self.enemy_in(side, to) {
            return Err(barred::ENEMY);
        }
        if !self.in_area(to) {
            return Err(barred::OUTSIDE);
        }
        // 3.6: artillery may not voluntarily enter a hex adjacent to an enemy unit.
        if def.is_artillery() && self.enemy_adjacent(side, to) {
            return Err(barred::ARTILLERY_NEAR_ENEMY);
        }
        let tec = &self.w.data.tables.tec;
        let m = match def.movement {
            Movement::Foot => 0,
            Movement::Mech => 1,
        };
        // 3.1: a traffic jam held by Germans is closed to other Germans, road or not.
        if side == Side::German && self.traffic_jam(to) && self.side_at(to) == Some(Side::German) {
            return Err(barred::JAM_HELD);
        }
        let costs = &self.w.costs;
        let base = match self.road_link(from, d) {
            // 1.3 (a): along a continuous road only the road's cost.
            Some(road) => costs.road[usize::from(road == "track")][m] as u32,
            None => {
                let hex = costs.hex[side.seat() as usize][m][to.idx()].ok_or(barred::TERRAIN)?;
                let across = costs.side[m][from.idx()][d as usize].ok_or(barred::HEXSIDE)?;
                (hex + across) as u32
            }
        };
        let extras = &tec.movement;
        // TEC note 3, inventory A8: an enemy bond costs +4, not +4 and +1.
        let situational = if self.enemy_bond(side, to) {
            extras.enemy_zoc_bond as u32 * 2
        } else if self.enemy_adjacent(side, from) && self.enemy_adjacent(side, to) {
            extras.moving_adjacently as u32 * 2
        } else {
            0
        };
        let friendly = if self.full_markers(to, side) > 0 {
            self.w.data.tables.friendly_marker_mp as u32 * 2
        } else {
            0
        };
        // 3.5: enemy markers cost to enter and again to leave.
        let enemy = (self.enemy_marker_mp(side, to) + self.enemy_marker_mp(side, from)) * 2;
        Ok(base + situational + friendly + enemy)
    }

    /// A unit's movement allowance in half MP: halved when DG (3.4; DG does not prorate MP
    /// already spent).
    pub fn allowance(&self, u: UnitId) -> u32 {
        let st = &self.s.units[u as usize];
        let ma = self.def(u).face(st.reduced).ma as u32 * 2;
        if st.dg {
            ma / 2
        } else {
            ma
        }
    }

    /// Every hex unit `u` can reach with the MP it has left, into `search` (costs in half MP).
    /// A traffic jam stops a German unit (3.1: it becomes DG on entering).
    pub fn reach(&self, u: UnitId, search: &mut Search) -> Option<Hex> {
        let st = &self.s.units[u as usize];
        let left = self.allowance(u).saturating_sub(st.spent as u32);
        self.reach_within(u, left, search)
    }

    /// Every hex unit `u` could reach from where it stands spending at most `limit` half MP,
    /// into `search`, with what barred each step refused ([`barred`]).
    pub fn reach_within(&self, u: UnitId, limit: u32, search: &mut Search) -> Option<Hex> {
        let start = self.s.units[u as usize].hex()?;
        let german = self.def(u).side == Side::German;
        search.run(&self.w.map.grid, &[(start, 0)], limit, |from, d, to| {
            match self.step(u, from, d, to) {
                Err(why) => Step::Blocked(why),
                Ok(c) if german && self.traffic_jam(to) => Step::Stop(c),
                Ok(c) => Step::Go(c),
            }
        });
        Some(start)
    }

    /// The hexes unit `u` can enter with the MP it has left and their costs in half MP, in hex
    /// order (its own hex excluded): [`Self::reach`], kept in the state's memo while nothing
    /// it depends on changes.
    pub fn destinations(&self, u: UnitId, search: &mut Search) -> crate::memo::Reach {
        self.s.memo.reach(self, u, search)
    }

    /// A unit's attack or defence in eighths: halved when DG (3.4), and by the enemy's Full
    /// markers in its hex (3.5), the two multiplied (inventory A5).
    pub fn strength(&self, u: UnitId, attack: bool) -> u32 {
        let st = &self.s.units[u as usize];
        let def = self.def(u);
        let face = def.face(st.reduced);
        let mut v = if attack { face.attack } else { face.defence } as u32 * EIGHTHS;
        if st.dg {
            v /= 2;
        }
        if let Some(h) = st.hex() {
            if let Some(e) = self.marker_effect(self.full_markers(h, def.side.enemy())) {
                let f = if attack { e.attack } else { e.defence };
                v = v * f.num as u32 / f.den.max(1) as u32;
            }
        }
        v
    }

    /// 3.7 (A): the road hexes that lead along continuous road to one of `sources` (the
    /// side's supply hexes: its map edges, or the scenario's) without obstruction: no enemy
    /// unit, no enemy bond (inventory A21), no blown bridge.
    fn supplied_roads(&self, side: Side, sources: &[Hex], search: &mut Search) -> Vec<bool> {
        let w = self.w;
        let n = w.map.grid.len();
        let sources: Vec<(Hex, u32)> = sources
            .iter()
            .filter(|&&h| !self.enemy_in(side, h))
            .map(|&h| (h, 0))
            .collect();
        search.run_breadth_first(&w.map.grid, &sources, u32::MAX - 1, |from, d, to| {
            if self.road_link(from, d).is_none() || self.enemy_in(side, to) || self.enemy_bond(side, to) {
                Step::Blocked(Why::NONE)
            } else {
                Step::Go(1)
            }
        });
        let mut on = vec![false; n];
        for h in search.reached() {
            on[h.idx()] = true;
        }
        on
    }

    /// The supply hexes of `side` on the whole map: the road hexes of its friendly map edges
    /// (1.3).
    pub fn edge_sources(&self, side: Side) -> Vec<Hex> {
        let w = self.w;
        let road_mask = w.s.road | w.s.track;
        w.map
            .grid
            .hexes()
            .filter(|&h| w.friendly_edge(side, h) && w.map.any_side(h, road_mask))
            .collect()
    }

    /// 3.7: whether each hex is in supply for `side`: at most 5 hexes from a road that leads
    /// to one of `sources`, along a path that enters no enemy unit and no foot-prohibited hex or
    /// hexside unless a road crosses it.
    pub fn supply_from(&self, side: Side, sources: &[Hex], search: &mut Search) -> Vec<bool> {
        let w = self.w;
        let roads = self.supplied_roads(side, sources, search);
        let sources: Vec<(Hex, u32)> = w.map.grid.hexes().filter(|h| roads[h.idx()]).map(|h| (h, 0)).collect();
        let foot_hex = &w.costs.hex[side.seat() as usize][0];
        let foot_side = &w.costs.side[0];
        search.run_breadth_first(&w.map.grid, &sources, 5, |from, d, to| {
            if self.enemy_in(side, to) {
                return Step::Blocked(Why::NONE);
            }
            // Closed to foot units (the TEC's P, and 3.1's traffic jam held by Germans, for
            // German supply), unless a road crosses the hexside.
            let closed = foot_hex[to.idx()].is_none()
                || foot_side[from.idx()][d as usize].is_none()
                || (side == Side::German && self.traffic_jam(to) && self.side_at(to) == Some(Side::German));
            if closed && self.road_link(from, d).is_none() {
                return Step::Blocked(Why::NONE);
            }
            Step::Go(1)
        });
        let mut on = vec![false; w.map.grid.len()];
        for h in search.reached() {
            on[h.idx()] = true;
        }
        // 3.7 (B): US units within 5 hexes of an Air Supply marker, whatever lies between.
        if side == Side::Allied {
            for &m in &self.s.air_supply {
                for h in w.map.grid.hexes() {
                    if w.map.grid.distance(m, h) <= 5 {
                        on[h.idx()] = true;
                    }
                }
            }
        }
        on
    }

    /// 3.7: whether `h` is within 5 hexes of an Air Supply marker.
    pub fn air_supplied(&self, h: Hex) -> bool {
        self.s.air_supply.iter().any(|&m| self.w.map.grid.distance(m, h) <= 5)
    }
}

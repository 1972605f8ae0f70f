//! Questions the rules ask of a position: who stands where, which hexes the ZOC Bonds hold,
//! where a unit can move and at what cost, who can trace supply, how strong a unit attacks
//! or defends under DG and barrage markers. [`Board`] answers them from a [`World`] and a
//! [`State`], built fresh for each decision.

use crate::bonds::{bonds, BondBoard};
use crate::data::{Movement, UnitDef};
use crate::sequence::Side;
use crate::state::{State, UnitId};
use crate::world::World;
use sandtable_core::hex::{Dir, Hex};
use sandtable_core::search::{Search, Step};

/// Strengths are counted in eighths, so that DG (½) and barrage (½, ¼) multiply exactly
/// (inventory A5: keep fractions; only the odds are rounded).
pub const EIGHTHS: u32 = 8;

/// A position seen through the rules.
pub struct Board<'a> {
    pub w: &'a World,
    pub s: &'a State,
    /// The side of the units in each hex (the last unit's, in unit order; sides never share).
    side_at: Vec<Option<Side>>,
    count: Vec<u8>,
    /// Per side: whether each hex is an enemy ZOC Bond hex for that side's units.
    enemy_bond: [Vec<bool>; 2],
    occupied: [Vec<Hex>; 2],
    /// Per side: whether each hex is adjacent to a unit of that side's enemy.
    near_enemy: [Vec<bool>; 2],
    /// 7.0: the playing area (`None`: the whole map).
    area: Option<&'a [bool]>,
}

struct SideBonds<'b, 'a> {
    b: &'b Board<'a>,
    side: Side,
    infantry: Vec<u8>,
}

impl BondBoard for SideBonds<'_, '_> {
    fn is_post(&self, h: Hex) -> bool {
        // 1.2 (1), (7): 2 infantry steps, not in a City.
        self.infantry[h.idx()] >= 2 && self.b.w.map.terrain(h) & self.b.w.t.city == 0
    }
    fn is_empty(&self, h: Hex) -> bool {
        self.b.count[h.idx()] == 0
    }
    fn bond_terrain(&self, h: Hex) -> bool {
        // Inventory A6: not terrain prohibited to foot units.
        let w = self.b.w;
        w.data
            .tables
            .tec
            .entry_cost(self.side, Movement::Foot, &w.terrain_names[h.idx()], &[], None)
            .is_some()
    }
    fn bond_side(&self, a: Hex, b: Hex) -> bool {
        let w = self.b.w;
        let Some(d) = w.map.grid.dir_to(a, b) else { return false };
        let sides = w.hexside_names(a, d);
        w.data
            .tables
            .tec
            .entry_cost(self.side, Movement::Foot, &["open"], &sides, None)
            .is_some()
    }
    fn enemy_hexes(&self) -> &[Hex] {
        &self.b.occupied[self.side.enemy().seat() as usize]
    }
}

impl<'a> Board<'a> {
    pub fn new(w: &'a World, s: &'a State) -> Board<'a> {
        let n = w.map.grid.len();
        let mut b = Board {
            w,
            s,
            side_at: vec![None; n],
            count: vec![0; n],
            enemy_bond: [vec![false; n], vec![false; n]],
            occupied: [Vec::new(), Vec::new()],
            near_enemy: [vec![false; n], vec![false; n]],
            area: s.area.as_deref().map(|a| a.as_slice()),
        };
        let mut infantry = [vec![0u8; n], vec![0u8; n]];
        for (i, u) in s.units.iter().enumerate() {
            let Some(h) = u.hex() else { continue };
            let def = &w.data.counters.units[i];
            b.side_at[h.idx()] = Some(def.side);
            b.count[h.idx()] += 1;
            if def.is_bond_infantry() {
                infantry[def.side.seat() as usize][h.idx()] += if u.reduced { 1 } else { def.steps };
            }
        }
        for h in w.map.grid.hexes() {
            if let Some(side) = b.side_at[h.idx()] {
                b.occupied[side.seat() as usize].push(h);
                // Units of the other side next to this hex have an enemy adjacent.
                let other = side.enemy().seat() as usize;
                for (_, nb) in w.map.grid.neighbours(h) {
                    b.near_enemy[other][nb.idx()] = true;
                }
            }
        }
        for side in [Side::German, Side::Allied] {
            let sb = SideBonds {
                b: &b,
                side,
                infantry: std::mem::take(&mut infantry[side.seat() as usize]),
            };
            let found = bonds(&w.map.grid, &sb);
            let enemy = side.enemy().seat() as usize;
            for bond in found {
                b.enemy_bond[enemy][bond.hex.idx()] = true;
            }
        }
        b
    }

    /// 7.0: whether `h` is in the scenario's playing area.
    pub fn in_area(&self, h: Hex) -> bool {
        self.area.is_none_or(|a| a[h.idx()])
    }

    pub fn def(&self, u: UnitId) -> &'a UnitDef {
        &self.w.data.counters.units[u as usize]
    }

    pub fn side_at(&self, h: Hex) -> Option<Side> {
        self.side_at[h.idx()]
    }

    pub fn count(&self, h: Hex) -> u8 {
        self.count[h.idx()]
    }

    /// The units in a hex, in unit order.
    pub fn units_at(&self, h: Hex) -> Vec<UnitId> {
        if self.count[h.idx()] == 0 {
            return Vec::new();
        }
        (0..self.s.units.len() as UnitId)
            .filter(|&u| self.s.units[u as usize].hex() == Some(h))
            .collect()
    }

    pub fn enemy_in(&self, side: Side, h: Hex) -> bool {
        self.side_at[h.idx()] == Some(side.enemy())
    }

    /// 1.2: a hex adjacent to a unit of the enemy of `side`.
    pub fn enemy_adjacent(&self, side: Side, h: Hex) -> bool {
        self.near_enemy[side.seat() as usize][h.idx()]
    }

    /// 1.2: an enemy ZOC Bond hex for units of `side`.
    pub fn enemy_bond(&self, side: Side, h: Hex) -> bool {
        self.enemy_bond[side.seat() as usize][h.idx()]
    }

    /// The ZOC Bond hexes `side`'s posts hold (1.2).
    pub fn bond_hexes(&self, side: Side) -> Vec<Hex> {
        let held_against = side.enemy().seat() as usize;
        self.w
            .map
            .grid
            .hexes()
            .filter(|h| self.enemy_bond[held_against][h.idx()])
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

    /// The terrain names of `h` as the TEC reads them for a unit of `side` (3.1: a traffic
    /// jam acts only on turns 1–2, and one held by Germans is closed to other Germans).
    fn terrain_for(&self, side: Side, h: Hex) -> std::borrow::Cow<'a, [&'static str]> {
        let names: &'a [&'static str] = &self.w.terrain_names[h.idx()];
        if self.w.map.terrain(h) & self.w.t.traffic_jam == 0 {
            return std::borrow::Cow::Borrowed(names);
        }
        let mut names = names.to_vec();
        let jams = self.jams_active();
        names.retain(|n| *n != "traffic-jam" || jams);
        if jams && side == Side::German && names.contains(&"traffic-jam") && self.side_at(h) == Some(Side::German) {
            names.push("occupied-traffic-jam");
        }
        std::borrow::Cow::Owned(names)
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
        let def = self.def(u);
        let side = def.side;
        if self.enemy_in(side, to) || !self.in_area(to) {
            return None;
        }
        // 3.6: artillery may not voluntarily enter a hex adjacent to an enemy unit.
        if def.is_artillery() && self.enemy_adjacent(side, to) {
            return None;
        }
        let tec = &self.w.data.tables.tec;
        let m = match def.movement {
            Movement::Foot => 0,
            Movement::Mech => 1,
        };
        // 3.1: a traffic jam held by Germans is closed to other Germans, road or not.
        if side == Side::German && self.traffic_jam(to) && self.side_at(to) == Some(Side::German) {
            return None;
        }
        let costs = &self.w.costs;
        let base = match self.road_link(from, d) {
            // 1.3 (a): along a continuous road only the road's cost.
            Some(road) => costs.road[usize::from(road == "track")][m] as u32,
            None => {
                let hex = costs.hex[side.seat() as usize][m][to.idx()]?;
                let across = costs.side[m][from.idx()][d as usize]?;
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
        Some(base + situational + friendly + enemy)
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
        let start = st.hex()?;
        let left = self.allowance(u).saturating_sub(st.spent as u32);
        let german = self.def(u).side == Side::German;
        search.run(&self.w.map.grid, &[(start, 0)], left, |from, d, to| {
            match self.step_cost(u, from, d, to) {
                None => Step::Blocked,
                Some(c) if german && self.traffic_jam(to) => Step::Stop(c),
                Some(c) => Step::Go(c),
            }
        });
        Some(start)
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
                Step::Blocked
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
        let tec = &w.data.tables.tec;
        search.run_breadth_first(&w.map.grid, &sources, 5, |from, d, to| {
            if self.enemy_in(side, to) {
                return Step::Blocked;
            }
            let names = self.terrain_for(side, to);
            let sides = w.hexside_names(from, d);
            if self.road_link(from, d).is_none() && tec.entry_cost(side, Movement::Foot, &names, &sides, None).is_none()
            {
                return Step::Blocked;
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

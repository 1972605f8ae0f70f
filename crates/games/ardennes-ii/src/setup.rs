//! Setting up a scenario (7.0, SCS 5.0) and placing units: the set-up's fixed hexes and the
//! owners' choices ("w/i N", an entry area), the placement of reinforcements whose owner picks
//! the hex (2.2), and the XVIII Airborne Corps' drop (5.1).

use crate::data::{Location, Scenario};
use crate::frames::Frame;
use crate::rules::Board;
use crate::sequence::{Phase, Side};
use crate::state::{Loc, Placing, State, UnitId, UnitState};
use crate::supply::area_edge;
use crate::world::World;
use crate::ArdennesII;
use sandtable_core::driver::Engine;
use sandtable_core::game::Refusal;
use sandtable_core::hex::Hex;
use sandtable_core::text;
use sandtable_core::text::Text;
use std::sync::Arc;

/// 5.1: every group an airborne division may choose: the listed hexes (Bastogne and
/// Senonchamps), or each choice of `count` VP hexes of a sheet (any two on Map A).
fn airborne_groups(w: &World) -> Vec<Vec<Hex>> {
    let grid = &w.map.grid;
    let mut out = Vec::new();
    for g in &w.data.schedule.airborne.groups {
        match g {
            crate::data::AirborneGroup::VpHexes { sheet, count } => {
                let mut vp: Vec<Hex> = w
                    .data
                    .tables
                    .vp_hexes
                    .iter()
                    .map(|v| v.hex)
                    .filter(|&h| crate::data::sheet_col_row(grid, h).0 == *sheet)
                    .collect();
                vp.sort();
                vp.dedup();
                choices(&vp, *count as usize, &mut Vec::new(), &mut out);
            }
            crate::data::AirborneGroup::Hexes(v) => out.push(v.clone()),
        }
    }
    out
}

/// Every choice of `k` items of `items`, in order, appended to `out`.
fn choices(items: &[Hex], k: usize, chosen: &mut Vec<Hex>, out: &mut Vec<Vec<Hex>>) {
    if chosen.len() == k || items.len() < k - chosen.len() {
        if chosen.len() == k {
            out.push(chosen.clone());
        }
        return;
    }
    for (i, &h) in items.iter().enumerate() {
        chosen.push(h);
        choices(&items[i + 1..], k, chosen, out);
        chosen.pop();
    }
}

/// 5.1: the hexes an airborne unit of a division may drop on, given where the division's units
/// dropped already: within 3 hexes of a group that every one of them is within 3 hexes of, so
/// that the division keeps to one group (both divisions may use the same one).
fn airborne_hexes(w: &World, s: &State, scenario: &Scenario, placed: &[Hex]) -> Vec<Hex> {
    let grid = &w.map.grid;
    let n = w.data.schedule.airborne.within as u32;
    let b = Board::new(w, s);
    let centres: Vec<Hex> = airborne_groups(w)
        .into_iter()
        .filter(|g| placed.iter().all(|&p| g.iter().any(|&c| grid.distance(c, p) <= n)))
        .flatten()
        .collect();
    let mut v = within_nearest_first(grid, &centres, n);
    v.retain(|&h| !b.enemy_in(Side::Allied, h) && scenario.in_area(grid, h));
    v
}

/// The hexes within `n` hexes of one of `centres`, nearest first, then in hex order: each
/// hex's distance to the nearest centre taken once, over the centres without repeats (the
/// airborne groups name each VP hex in many pairs, 5.1).
fn within_nearest_first(grid: &sandtable_core::hex::HexGrid, centres: &[Hex], n: u32) -> Vec<Hex> {
    let mut centres = centres.to_vec();
    centres.sort_unstable();
    centres.dedup();
    let mut v: Vec<(u32, Hex)> = grid
        .hexes()
        .filter_map(|h| {
            let d = centres.iter().map(|&c| grid.distance(c, h)).min()?;
            (d <= n).then_some((d, h))
        })
        .collect();
    v.sort_unstable();
    v.into_iter().map(|(_, h)| h).collect()
}

/// [`within_nearest_first`] as it was worked out before: every centre, repeats included, asked
/// again for each hex and for each comparison of the sort (the test's reference).
#[cfg(test)]
fn within_by_scan(grid: &sandtable_core::hex::HexGrid, centres: &[Hex], n: u32) -> Vec<Hex> {
    let mut v: Vec<Hex> = grid
        .hexes()
        .filter(|&h| centres.iter().any(|&c| grid.distance(c, h) <= n))
        .collect();
    v.sort_by_key(|&h| (centres.iter().map(|&c| grid.distance(c, h)).min(), h));
    v
}

/// The hexes a location offers its owner now, nearest first for "within" (SCS set-up
/// notation, 2.2, SCS 5.0, 5.1): in the playing area and not held by the enemy.
pub(crate) fn location_hexes(
    w: &World,
    s: &State,
    side: Side,
    scenario: &Scenario,
    loc: &Location,
    edition: u8,
) -> Vec<Hex> {
    let b = Board::new(w, s);
    let grid = &w.map.grid;
    let free = |h: &Hex| !b.enemy_in(side, *h) && scenario.in_area(grid, *h);
    let within = |centres: &[Hex], n: u32| within_nearest_first(grid, centres, n);
    let set = |name: &str| w.map.hex_sets.get(name).cloned().unwrap_or_default();
    let all: Vec<Hex> = match loc {
        Location::Hex(h) => vec![*h],
        Location::Within { hex, within: n } => within(&[*hex], *n as u32),
        Location::OneOf(v) => v.clone(),
        Location::Areas(letters) => letters.iter().flat_map(|l| set(&format!("entry-{l}"))).collect(),
        // The edge of the playing area on that sheet (7.5: the area's row 11 on Map A, A25).
        Location::Edge { sheet, edge } => grid
            .hexes()
            .filter(|&h| crate::data::sheet_col_row(grid, h).0 == *sheet && area_edge(w, scenario, h, *edge, edition))
            .collect(),
        // 5.1: within 3 hexes of a hex of a group (before a division has chosen, any group).
        Location::Airborne => {
            let centres: Vec<Hex> = airborne_groups(w).into_iter().flatten().collect();
            within(&centres, w.data.schedule.airborne.within as u32)
        }
    };
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<Hex> = all.iter().copied().filter(|h| free(h) && seen.insert(*h)).collect();
    if out.is_empty() {
        match loc {
            // Every hex held by the enemy: a free hex next to it (SCS 5.0, reconstructed).
            Location::Hex(h) => out.extend(grid.neighbours(*h).map(|(_, n)| n).filter(|n| free(n))),
            Location::Areas(_) => out = blocked_entry(w, scenario, &all, &free, edition),
            _ => {}
        }
    }
    out
}

/// 2.2, SCS 5.0, a blocked entry area: none of the area's hexes can take a unit (each held by
/// the enemy or outside the playing area). The units enter at the free hexes of the same edge
/// of the playing area nearest the area, as many hexes as the area has (RULINGS.md).
pub(crate) fn blocked_entry(
    w: &World,
    scenario: &Scenario,
    area: &[Hex],
    free: &dyn Fn(&Hex) -> bool,
    edition: u8,
) -> Vec<Hex> {
    use crate::data::Edge;
    let grid = &w.map.grid;
    let Some(&first) = area.first() else {
        return Vec::new();
    };
    let (c, r) = grid.col_row(first);
    let (c, r) = (c as i32, r as i32);
    let edge = if grid.hex_at(c, r + 1).is_none() {
        Edge::North
    } else if grid.hex_at(c, r - 1).is_none() {
        Edge::South
    } else if grid.hex_at(c - 1, r).is_none() {
        Edge::West
    } else {
        Edge::East
    };
    let near = |h: Hex| area.iter().map(|&a| grid.distance(a, h)).min().unwrap_or(u32::MAX);
    let mut v: Vec<Hex> = grid
        .hexes()
        .filter(|&h| area_edge(w, scenario, h, edge, edition) && free(&h))
        .collect();
    v.sort_by_key(|&h| (near(h), h));
    v.truncate(area.len());
    v
}

impl ArdennesII {
    /// A game of `scenario` set up for its first turn, its first phase begun (7.0, SCS 5.0).
    pub(crate) fn set_up(w: Arc<World>, scenario: &Scenario, seed: u64) -> ArdennesII {
        let n = w.data.counters.units.len();
        let mut s = State {
            scenario: scenario.id.clone(),
            turn: scenario.first_turn,
            first_turn: scenario.first_turn,
            last_turn: scenario.last_turn,
            phase: Phase::FIRST,
            units: vec![UnitState::default(); n],
            markers: Vec::new(),
            frozen: false,
            air_strikes: 0,
            unobserved_strikes: Vec::new(),
            blown: Vec::new(),
            tested: Vec::new(),
            control: w
                .data
                .tables
                .vp_hexes
                .iter()
                .map(|v| scenario.initial_control(v.hex))
                .collect(),
            vp_max: 0,
            vp_last: 0,
            attacked_hexes: Vec::new(),
            airborne_due: Vec::new(),
            airborne_drop: Vec::new(),
            approached: Vec::new(),
            air_supply: Vec::new(),
            jam_stacks: Vec::new(),
            arrived: Vec::new(),
            area: (!scenario.area.is_empty()).then(|| {
                let grid = &w.map.grid;
                Arc::new(grid.hexes().map(|h| scenario.in_area(grid, h)).collect())
            }),
            memo: Default::default(),
            moves: Default::default(),
        };
        s.frozen = scenario.frozen;
        s.air_strikes = scenario.strikes_left;
        for m in &scenario.markers {
            let side = m.side.unwrap_or(Side::Allied);
            match m.kind {
                crate::data::MarkerKind::BridgeBlown => s.blown.push(m.hex),
                crate::data::MarkerKind::BridgeTested => s.tested.push(m.hex),
                crate::data::MarkerKind::BarrageFull => s.markers.push(crate::state::Markers {
                    hex: m.hex,
                    side,
                    full: m.count,
                    half: 0,
                }),
                crate::data::MarkerKind::BarrageHalf => s.markers.push(crate::state::Markers {
                    hex: m.hex,
                    side,
                    full: 0,
                    half: m.count,
                }),
            }
        }
        let mut placing = Vec::new();
        for p in &scenario.setup {
            let side = w.data.counters.units[p.unit as usize].side;
            let hexes = location_hexes(&w, &s, side, scenario, &p.at, crate::EDITION);
            s.set_reduced(p.unit, p.reduced);
            s.units[p.unit as usize].dg = p.dg;
            match hexes.as_slice() {
                [] => {}
                [h] => s.set_loc(p.unit, Loc::Map(*h)),
                // SCS set-up notes: "w/i N" and the like are the owner's choice.
                _ => placing.push(Placing { unit: p.unit, hexes }),
            }
        }
        let mut g = ArdennesII {
            w,
            s,
            engine: Engine::new(seed, Vec::new()),
            journal: Default::default(),
            scenario: Arc::new(scenario.clone()),
            edition: crate::EDITION,
        };
        // SCS 5.0: the owners' set-up choices come in a set-up phase before the first turn,
        // which begins with its pre-turn or the phase the scenario names.
        let first = if placing.is_empty() {
            g.journal.heading(|| crate::turn::turn_heading(g.s.turn));
            let first = g.scenario.first_phase.unwrap_or(Phase::FIRST);
            if first != Phase::FIRST {
                g.journal.heading(|| first.name());
            }
            first
        } else {
            g.journal.heading(|| Phase::SetUp.name());
            Phase::SetUp
        };
        g.begin_phase(first);
        if !placing.is_empty() {
            g.engine.push(Frame::Place { queue: placing });
        }
        g
    }

    /// The hexes the unit first in line may be placed on now: those offered that the enemy
    /// does not hold; if the enemy has taken them all since, a free hex next to the first one;
    /// failing that, the first one.
    pub(crate) fn placement_hexes(&self, p: &Placing) -> Vec<Hex> {
        let b = Board::new(&self.w, &self.s);
        let side = self.unit_side(p.unit);
        let mut out: Vec<Hex> = p.hexes.iter().copied().filter(|&h| !b.enemy_in(side, h)).collect();
        let Some(&first) = p.hexes.first() else {
            return out;
        };
        if out.is_empty() {
            out.extend(
                self.w
                    .map
                    .grid
                    .neighbours(first)
                    .map(|(_, n)| n)
                    .filter(|&n| !b.enemy_in(side, n)),
            );
        }
        if out.is_empty() {
            out.push(first);
        }
        out
    }

    /// SCS 5.0, 2.2, 5.1: whether `unit` may be placed at `at` now, the first of `queue`.
    pub(crate) fn may_place(&self, queue: &[Placing], unit: UnitId, at: Hex) -> Result<(), Refusal> {
        let Some(p) = queue.first() else {
            return Err(Refusal::new(
                "2.2",
                text!("no unit is being placed now", "现在没有要放置的单位"),
            ));
        };
        if p.unit != unit {
            let name = self.unit_text(p.unit);
            return Err(Refusal::new(
                "2.2",
                Text::new(
                    format!("units are placed one at a time: {} first", name.en),
                    format!("单位逐个放置:先放置{}", name.zh),
                ),
            ));
        }
        if !self.placement_hexes(p).contains(&at) {
            return Err(Refusal::new(
                "2.2",
                text!(
                    "that unit cannot be placed there: not one of its hexes, outside the playing area, or held by the enemy",
                    "该单位不能放在那里:不是其可放置格、在游戏区域外,或被敌军占据"
                ),
            ));
        }
        Ok(())
    }

    /// The placements of the unit first in `queue`.
    pub(crate) fn legal_placements(&self, queue: &[Placing], out: &mut Vec<crate::Action>) {
        if let Some(p) = queue.first() {
            out.extend(
                self.placement_hexes(p)
                    .into_iter()
                    .map(|at| crate::Action::Place { unit: p.unit, at }),
            );
        }
    }

    /// Places `unit` at `at`; the rest of `queue` waits its turn.
    pub(crate) fn place(&mut self, mut queue: Vec<Placing>, unit: UnitId, at: Hex) {
        queue.retain(|p| p.unit != unit);
        let before = self.holder(at);
        self.enter(unit, at);
        if !self.journal.off {
            let (name, hid) = (self.unit_text(unit), self.w.data.hex_id(at));
            self.journal.say_marked(
                || {
                    Text::new(
                        format!("{} is placed at {hid}.", name.en),
                        format!("{}放置于 {hid}。", name.zh),
                    )
                },
                || {
                    [sandtable_core::game::Mark::Arrived {
                        unit: crate::marks::unit(&self.w, unit),
                        at: hid.clone(),
                    }]
                },
            );
        }
        if self.s.airborne_drop.contains(&unit) {
            self.airborne_group_kept(unit, &mut queue);
        }
        self.occupy(at, before);
        if !queue.is_empty() {
            self.engine.push(Frame::Place { queue });
        }
    }

    /// 5.1: the airborne divisions due are placed at the start of the US movement phase.
    pub(crate) fn airborne_drop(&mut self) -> Vec<Placing> {
        if self.s.airborne_due.is_empty() {
            return Vec::new();
        }
        let scenario = self.scenario.clone();
        let hexes = location_hexes(
            &self.w,
            &self.s,
            Side::Allied,
            &scenario,
            &Location::Airborne,
            self.edition,
        );
        self.s.airborne_drop = std::mem::take(&mut self.s.airborne_due);
        let mut out = Vec::new();
        for &u in &self.s.airborne_drop {
            if !hexes.is_empty() && self.s.units[u as usize].loc == Loc::Waiting {
                out.push(Placing {
                    unit: u,
                    hexes: hexes.clone(),
                });
            }
        }
        out
    }

    /// 5.1: once an airborne unit has dropped, the rest of its division may drop only near
    /// a group that holds every unit of the division dropped so far.
    fn airborne_group_kept(&self, unit: UnitId, queue: &mut [Placing]) {
        let units = &self.w.data.counters.units;
        let division = units[unit as usize].formation;
        let kin: Vec<UnitId> = self
            .s
            .airborne_drop
            .iter()
            .copied()
            .filter(|&u| units[u as usize].formation == division)
            .collect();
        let placed: Vec<Hex> = kin.iter().filter_map(|&u| self.s.units[u as usize].hex()).collect();
        let hexes = airborne_hexes(&self.w, &self.s, &self.scenario, &placed);
        for p in queue.iter_mut().filter(|p| kin.contains(&p.unit)) {
            p.hexes = hexes.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::Game;

    /// The hexes within reach of the airborne groups (5.1) and of set-up and reinforcement
    /// hexes ("w/i N", SCS 5.0), nearest first, are on the real map the ones worked out by
    /// scanning every centre for every hex: for all the groups' centres at once (repeats
    /// included, as the drop gives them), each group, and single hexes over the whole map,
    /// its edges included, at every distance up to 6.
    #[test]
    fn hexes_nearest_first_are_the_ones_found_by_scanning() {
        let g = ArdennesII::new_game("campaign", 0).expect("the scenario loads");
        let grid = &g.w.map.grid;
        let n = g.w.data.schedule.airborne.within as u32;
        let groups = airborne_groups(&g.w);
        assert!(groups.len() > 10, "{} airborne groups", groups.len());
        let all: Vec<Hex> = groups.iter().flatten().copied().collect();
        let mut cases: Vec<(Vec<Hex>, u32)> = vec![(all, n)];
        cases.extend(groups.iter().map(|c| (c.clone(), n)));
        for h in grid.hexes().step_by(97) {
            for r in 0..=6 {
                cases.push((vec![h], r));
            }
        }
        for (centres, r) in &cases {
            let got = within_nearest_first(grid, centres, *r);
            assert!(!got.is_empty());
            assert_eq!(got, within_by_scan(grid, centres, *r), "{centres:?} within {r}");
        }
    }
}

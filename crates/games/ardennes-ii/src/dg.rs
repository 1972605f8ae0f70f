//! Disorganization (3.4) and the stacking rules that cause it (3.1): more than 3 units or two
//! divisions in a hex at the end of a phase, and the pre-turn recovery of DG with its
//! exceptions (supply, traffic jams, stacking; artillery and Air Supply, 3.7).

use crate::rules::Board;
use crate::sequence::Side;
use crate::state::UnitId;
use crate::ArdennesII;
use sandtable_core::hex::Hex;

impl ArdennesII {
    /// 3.1: more than 3 units, or units of more than one division (independents aside; not
    /// in an entry area, where divisional integrity does not apply).
    pub(crate) fn stack_fault(&self, units: &[UnitId]) -> bool {
        units.len() > 3 || self.mixed_divisions(units)
    }

    /// 3.1: units of more than one division (independents aside; not in an entry area, where
    /// divisional integrity does not apply).
    fn mixed_divisions(&self, units: &[UnitId]) -> bool {
        let in_entry_area = units
            .first()
            .and_then(|&u| self.s.units[u as usize].hex())
            .is_some_and(|h| self.w.entry[h.idx()]);
        if in_entry_area {
            return false;
        }
        let mut division = None;
        for &u in units {
            if let Some(f) = self.w.data.counters.units[u as usize].formation {
                match division {
                    None => division = Some(f),
                    Some(d) if d != f => return true,
                    _ => {}
                }
            }
        }
        false
    }

    /// 3.1, 3.4: the units of overstacked or mixed stacks become DG (at the end of a phase).
    pub(crate) fn stacking_dg(&mut self) {
        let b = Board::new(&self.w, &self.s);
        // Only a hex with units can be at fault: the hexes each side holds.
        let held: Vec<Hex> = [Side::German, Side::Allied]
            .iter()
            .flat_map(|&side| b.held_by(side).iter().copied())
            .collect();
        let dg = self.stacking_faults(&b, held);
        drop(b);
        for u in dg {
            self.s.units[u as usize].dg = true;
        }
    }

    /// 3.1: the units of the stacks in `hexes` that are overstacked or mix divisions, stack by
    /// stack in the order of `hexes`.
    fn stacking_faults(&self, b: &Board, hexes: impl IntoIterator<Item = Hex>) -> Vec<UnitId> {
        let mut dg = Vec::new();
        for h in hexes {
            let units = b.stack(h);
            // SCS 5.0 (data edition 3): a stack with a unit arrived this turn may be
            // overstacked until the end of its side's first movement phase since; from edition
            // 4 on it is spared only the limit, not divisional integrity (3.1: "师完整性不适用
            // 于在入场区域中的增援", in entry areas only; RULINGS).
            if units.iter().any(|u| self.s.arrived.contains(u)) {
                if self.edition >= 4 && self.mixed_divisions(units) {
                    dg.extend_from_slice(units);
                }
                continue;
            }
            if !units.is_empty() && self.stack_fault(units) {
                dg.extend_from_slice(units);
            }
        }
        dg
    }

    /// 3.4: DG comes off a stack that is in supply (at its last supply phase), not in a traffic
    /// jam, not overstacked and not mixing divisions. 3.7: Air Supply clears US DG within 5
    /// hexes; DG artillery comes out free if it can trace supply now. Returns the DG artillery
    /// that cannot, whose owner chooses whether to roll on the Artillery Resupply Table, in
    /// order.
    ///
    /// In the scenario's first pre-turn (`first`) only Air Supply clears DG: the DG a set-up
    /// prints holds into the first player turn (RULINGS).
    pub(crate) fn dg_recovery(&mut self, first: bool) -> Vec<UnitId> {
        let b = Board::new(&self.w, &self.s);
        let supplied = crate::rules::with_search(|search| {
            [
                self.supply_map(&b, Side::German, search),
                self.supply_map(&b, Side::Allied, search),
            ]
        });
        let mut clear = Vec::new();
        let mut resupply = Vec::new();
        for h in self.w.map.grid.hexes() {
            let units = b.stack(h);
            if units.is_empty() {
                continue;
            }
            // 3.7: Air Supply removes all US DG within 5 hexes.
            if b.side_at(h) == Some(Side::Allied) && b.air_supplied(h) {
                clear.extend_from_slice(units);
                continue;
            }
            if first {
                continue;
            }
            // 3.4: no stack recovers in a traffic jam (3.1: they act on German units only),
            // overstacked or mixing divisions — its artillery neither.
            if self.stack_fault(units) || (b.traffic_jam(h) && b.side_at(h) == Some(Side::German)) {
                continue;
            }
            // 3.7: artillery comes out of DG free if it can trace supply; if not, its owner
            // chooses whether to roll on the Artillery Resupply Table.
            let (artillery, others): (Vec<UnitId>, Vec<UnitId>) = units
                .iter()
                .partition(|&&u| self.w.data.counters.units[u as usize].is_artillery());
            for u in artillery.into_iter().filter(|&u| self.s.units[u as usize].dg) {
                let side = self.unit_side(u);
                if supplied[side.seat() as usize][h.idx()] {
                    clear.push(u);
                } else {
                    resupply.push(u);
                }
            }
            if others.iter().any(|&u| self.s.units[u as usize].out_of_supply) {
                continue;
            }
            clear.extend(others);
        }
        drop(b);
        for u in clear {
            self.s.units[u as usize].dg = false;
        }
        resupply
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Board;
    use crate::sequence::Side;
    use crate::ArdennesII;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::{play_randomly_watching, Game, Rules};

    /// 3.1, 3.4: the stacks found at fault among the hexes the sides hold are, at every step of
    /// random play, those found by looking at every hex of the map.
    #[test]
    fn the_stacks_at_fault_among_the_held_hexes_are_those_of_the_whole_map() {
        let mut faults = 0;
        for (scenario, seed) in [("goose-egg", 21), ("campaign", 22), ("bastogne", 23)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            let mut step = 0;
            play_randomly_watching(&mut g, &mut rng, 600, |g| {
                let b = Board::new(&g.w, &g.s);
                let held: Vec<_> = [Side::German, Side::Allied]
                    .iter()
                    .flat_map(|&side| b.held_by(side).iter().copied())
                    .collect();
                let mut found = g.stacking_faults(&b, held);
                let mut everywhere = g.stacking_faults(&b, g.w.map.grid.hexes());
                found.sort_unstable();
                everywhere.sort_unstable();
                assert_eq!(found, everywhere, "{scenario} step {step}");
                faults += found.len();
                step += 1;
            })
            .expect("random play goes on");
        }
        assert!(faults > 0, "no stack was at fault");
    }

    /// 3.1: the entry-area hexes the world keeps are those of the map's `entry-…` hex sets.
    #[test]
    fn the_entry_areas_kept_are_the_maps_hex_sets() {
        for edition in [2, 3] {
            let w = crate::world::World::for_edition(edition).expect("the world loads");
            let mut inside = 0;
            for h in w.map.grid.hexes() {
                let listed = w
                    .map
                    .hex_sets
                    .iter()
                    .any(|(name, hexes)| name.starts_with("entry-") && hexes.contains(&h));
                assert_eq!(w.entry[h.idx()], listed, "edition {edition}: hex {h:?}");
                inside += usize::from(listed);
            }
            assert!(inside > 0, "edition {edition}: no entry area");
        }
    }
}

//! Disorganization (3.4) and the stacking rules that cause it (3.1): more than 3 units or two
//! divisions in a hex at the end of a phase, and the pre-turn recovery of DG with its
//! exceptions (supply, traffic jams, stacking; artillery and Air Supply, 3.7).

use crate::rules::Board;
use crate::sequence::Side;
use crate::state::UnitId;
use crate::ArdennesII;

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
            .is_some_and(|h| {
                self.w
                    .map
                    .hex_sets
                    .iter()
                    .any(|(name, hexes)| name.starts_with("entry-") && hexes.contains(&h))
            });
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
        let mut dg = Vec::new();
        for h in self.w.map.grid.hexes() {
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
        drop(b);
        for u in dg {
            self.s.units[u as usize].dg = true;
        }
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

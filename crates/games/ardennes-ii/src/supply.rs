//! Supply (3.7): the sources each side traces to (its friendly map edges, or the scenario's),
//! the trace itself (along road, then up to 5 hexes), the supply phase that makes units out of
//! supply DG, and the Artillery Resupply Table for DG artillery that cannot trace supply.

use crate::frames::{Frame, Roll};
use crate::rules::{with_search, Board};
use crate::sequence::Side;
use crate::state::{Loc, UnitId};
use crate::turn::side_name;
use crate::{Action, ArdennesII};
use sandtable_core::game::Refusal;
use sandtable_core::hex::Hex;
use sandtable_core::search::Search;
use sandtable_core::text;
use sandtable_core::text::Text;
use std::sync::Arc;

impl ArdennesII {
    /// 3.7 and the scenario's supply rules: where `side` can trace supply now (kept in the
    /// state's memo while the position does not change).
    pub(crate) fn supply_map(&self, b: &Board, side: Side, search: &mut Search) -> Arc<Vec<bool>> {
        self.s.memo.supply(b, side, || {
            let sources = self.s.memo.sources(&self.w, side, self.sources_in_force(side), || {
                self.supply_sources(b, side)
            });
            b.supply_from(side, &sources, search)
        })
    }

    /// 3.7: whether each hex is in supply for `side` now, from the scenario's sources: what a
    /// player sees by tracing supply, for agents planning moves.
    pub fn supply_now(&self, side: Side) -> Vec<bool> {
        with_search(|search| self.supply_map(&Board::new(&self.w, &self.s), side, search)).to_vec()
    }

    /// Which of the scenario's supply sources of `side` are in force this turn (bit `i` for
    /// the `i`th listed, of any side): all [`Self::supply_sources`] reads of the state.
    pub(crate) fn sources_in_force(&self, side: Side) -> u64 {
        use crate::data::SupplySource;
        let mut bits = 0;
        for (i, source) in self.scenario.supply.iter().enumerate() {
            let later = match source {
                SupplySource::RoadOffEdge { from_turn, .. } => from_turn.is_some_and(|t| self.s.turn < t),
                _ => false,
            };
            if source.side() == side && !later {
                // Past the 64th listed source, the turn itself tells them apart.
                bits |= 1u64.checked_shl(i as u32).unwrap_or(u64::from(self.s.turn) << 56);
            }
        }
        bits
    }

    /// The hexes `side` traces supply to: the scenario's sources (7.3–7.6), else its friendly
    /// map edges (1.3), within the playing area.
    pub(crate) fn supply_sources(&self, b: &Board, side: Side) -> Vec<Hex> {
        use crate::data::{RoadKind, SupplySource};
        let scenario = &self.scenario;
        let grid = &self.w.map.grid;
        let listed: Vec<&SupplySource> = scenario.supply.iter().filter(|s| s.side() == side).collect();
        if listed.is_empty() {
            return b
                .edge_sources(side)
                .into_iter()
                .filter(|&h| scenario.in_area(grid, h))
                .collect();
        }
        let mut out = Vec::new();
        for source in listed {
            match source {
                SupplySource::FriendlyEdges { .. } => {
                    out.extend(b.edge_sources(side).into_iter().filter(|&h| scenario.in_area(grid, h)))
                }
                SupplySource::Hexes { hexes, .. } => out.extend(hexes.iter().copied()),
                SupplySource::RoadOffEdge {
                    edge,
                    road,
                    sheet,
                    from,
                    from_turn,
                    ..
                } => {
                    if from_turn.is_some_and(|t| self.s.turn < t) {
                        continue;
                    }
                    let mask = match road {
                        RoadKind::Road => self.w.s.road,
                        RoadKind::Any => self.w.s.road | self.w.s.track,
                    };
                    out.extend(grid.hexes().filter(|&h| {
                        self.w.map.any_side(h, mask)
                            && self.on_area_edge(h, *edge)
                            && sheet.is_none_or(|sh| crate::data::sheet_col_row(grid, h).0 == sh)
                            && from.is_none_or(|(start, toward)| {
                                let (c, r) = grid.col_row(h);
                                let (c0, r0) = grid.col_row(start);
                                match toward {
                                    crate::data::Edge::East => c >= c0,
                                    crate::data::Edge::West => c <= c0,
                                    crate::data::Edge::North => r >= r0,
                                    crate::data::Edge::South => r <= r0,
                                }
                            })
                    }));
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Whether `h` lies on this edge of the playing area ([`area_edge`]).
    pub(crate) fn on_area_edge(&self, h: Hex, edge: crate::data::Edge) -> bool {
        area_edge(&self.w, &self.scenario, h, edge, self.edition)
    }

    /// 3.7: the side's units trace supply; those that cannot become DG.
    pub(crate) fn supply_phase(&mut self, side: Side) {
        let supplied = with_search(|search| self.supply_map(&Board::new(&self.w, &self.s), side, search));
        let mut out = 0;
        for u in self.units_of(side).collect::<Vec<_>>() {
            let st = &mut self.s.units[u as usize];
            let Some(h) = st.hex() else { continue };
            st.out_of_supply = !supplied[h.idx()];
            if st.out_of_supply {
                st.dg = true;
                out += 1;
            }
        }
        let name = side_name(side);
        self.journal.say(|| {
            Text::new(
                format!("3.7: {out} {} unit(s) out of supply become DG.", name.en),
                format!("3.7:{out} 个{}单位无补给,成为混乱。", name.zh),
            )
        });
    }

    /// 3.7: the artillery first in `queue` may be rolled for, or left DG.
    pub(crate) fn may_resupply(&self, queue: &[UnitId], unit: UnitId) -> Result<(), Refusal> {
        match queue.first() {
            Some(&first) if first == unit => Ok(()),
            Some(&first) => {
                let name = self.unit_text(first);
                Err(Refusal::new(
                    "3.7",
                    Text::new(
                        format!("artillery resupply is decided one unit at a time: {} first", name.en),
                        format!("火炮补给逐个决定:先决定{}", name.zh),
                    ),
                ))
            }
            None => Err(self.no_resupply_now()),
        }
    }

    /// 3.7: refused outside the choice of artillery resupply.
    pub(crate) fn no_resupply_now(&self) -> Refusal {
        Refusal::new(
            "3.7",
            text!(
                "only DG artillery that cannot trace supply rolls on the Artillery Resupply Table, when the engine asks",
                "只有无法追溯补给的混乱火炮,在引擎询问时,才在火炮补给表上掷骰"
            ),
        )
    }

    pub(crate) fn legal_resupply(&self, queue: &[UnitId], out: &mut Vec<Action>) {
        if let Some(&unit) = queue.first() {
            out.push(Action::Resupply { unit, roll: true });
            out.push(Action::Resupply { unit, roll: false });
        }
    }

    /// The owner's choice for the artillery first in `queue`: roll, or stay DG.
    pub(crate) fn resupply(&mut self, mut queue: Vec<UnitId>, unit: UnitId, roll: bool) {
        queue.retain(|&u| u != unit);
        if !queue.is_empty() {
            self.engine.push(Frame::Resupply { queue });
        }
        if roll {
            self.engine.push(Frame::Roll(Roll::Resupply { unit }));
        }
    }

    /// 3.7: the Artillery Resupply Table.
    pub(crate) fn resupply_roll(&mut self, unit: UnitId, die: u8) {
        let name = self.unit_text(unit);
        let at = crate::marks::at(&self.w, &self.s, unit);
        match self.w.data.tables.artillery_resupply.roll(die as i32) {
            crate::data::tables::Resupply::Eliminate => self.s.set_loc(unit, Loc::Eliminated),
            crate::data::tables::Resupply::RemoveDg => self.s.units[unit as usize].dg = false,
            crate::data::tables::Resupply::Stay => {}
        }
        let gone = self.s.units[unit as usize].hex().is_none();
        self.journal.say_marked(
            || {
                Text::new(
                    format!("3.7: artillery resupply for {}, die {die}.", name.en),
                    format!("3.7:{}的火炮空中补给,骰 {die}。", name.zh),
                )
            },
            || {
                at.filter(|_| gone).map(|at| sandtable_core::game::Mark::Eliminated {
                    unit: crate::marks::unit(&self.w, unit),
                    at,
                })
            },
        );
    }
}

/// Whether `h` lies on this edge of the playing area: in the area, with the hex beyond that
/// edge off the map or out of the area. The hex beyond is the next of the column (north,
/// south) or the hex of the same row in the next column (west, east: one of the two hexes
/// beside it there, whatever the column's half-hex shift); a hex of the next column one row up
/// or down lies beyond the north or south edge, not this one. Games begun before data edition 5
/// also counted those, so that the whole south and north rows were on the west and east edges
/// too (RULINGS, "Data editions").
pub(crate) fn area_edge(
    w: &crate::world::World,
    scenario: &crate::data::Scenario,
    h: Hex,
    edge: crate::data::Edge,
    edition: u8,
) -> bool {
    use crate::data::Edge;
    let grid = &w.map.grid;
    if !scenario.in_area(grid, h) {
        return false;
    }
    let (c, r) = grid.col_row(h);
    let (c, r) = (c as i32, r as i32);
    let beyond: &[(i32, i32)] = match edge {
        Edge::West if edition < 5 => &[(c - 1, r), (c - 1, r + 1), (c - 1, r - 1)],
        Edge::East if edition < 5 => &[(c + 1, r), (c + 1, r + 1), (c + 1, r - 1)],
        Edge::West => &[(c - 1, r)],
        Edge::East => &[(c + 1, r)],
        Edge::North => &[(c, r + 1)],
        Edge::South => &[(c, r - 1)],
    };
    beyond.iter().any(|&(bc, br)| match grid.hex_at(bc, br) {
        None => true,
        Some(n) => grid.adjacent(h, n) && !scenario.in_area(grid, n),
    })
}

#[cfg(test)]
mod tests {
    use crate::data::Edge;
    use crate::sequence::Side;
    use sandtable_core::game::Game;

    /// 7.5 Bastogne, the playing area Map A columns 33-40 and Map B columns 1-12, rows 11-24: its
    /// west edge is column A33, its east edge B12, its south edge row 11 and its north edge row
    /// 24; a hex of the south or north row elsewhere is on no west or east edge, though a hex
    /// beside it diagonally lies outside the area.
    #[test]
    fn the_edges_of_the_bastogne_area_7_5() {
        let g = crate::ArdennesII::new_game("bastogne", 1).expect("Bastogne");
        let hex = |id: &str| g.w.map.grid.parse(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        let on = |id: &str, edge| g.on_area_edge(hex(id), edge);
        for id in ["A33.11", "A33.15", "A33.24"] {
            assert!(on(id, Edge::West), "{id}");
        }
        for id in ["B12.11", "B12.15", "B12.24"] {
            assert!(on(id, Edge::East), "{id}");
        }
        for id in ["A35.11", "B1.11", "B7.11", "B11.11", "A36.24", "B4.24", "B8.24"] {
            assert!(!on(id, Edge::West) && !on(id, Edge::East), "{id}");
        }
        assert!(on("A35.11", Edge::South) && on("B4.24", Edge::North));
        assert!(!on("A35.12", Edge::South) && !on("B4.23", Edge::North));
    }

    /// 7.5: the Allies trace supply to the Roads leaving the area's west edge, and from turn 11
    /// also to those along its south edge on Map A: not to the south and north rows before.
    #[test]
    fn the_allied_sources_of_bastogne_7_5() {
        let mut g = crate::ArdennesII::new_game("bastogne", 1).expect("Bastogne");
        let grid = g.w.map.grid.clone();
        let hex = |id: &str| grid.parse(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        let sources = |g: &crate::ArdennesII| {
            let b = crate::rules::Board::new(&g.w, &g.s);
            g.supply_sources(&b, Side::Allied)
        };
        let before = sources(&g);
        assert!(!before.is_empty());
        let west = grid.col_row(hex("A33.11")).0;
        let ids: Vec<String> = before.iter().map(|&h| g.w.data.hex_id(h)).collect();
        assert!(before.iter().all(|&h| grid.col_row(h).0 == west), "{ids:?}");
        g.s.turn = 11;
        let after = sources(&g);
        assert!(after.contains(&hex("A35.11")), "the Neufchâteau road");
    }
}

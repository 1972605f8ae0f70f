//! Victory (6.0, 7.1–7.6): control of the VP hexes — the side that last occupied a hex and
//! could trace supply at that moment — the German's VP, the exits some scenarios count, and
//! how the game ended.

use crate::data::{Victory, VictoryResult};
use crate::rules::{with_search, Board};
use crate::sequence::Side;
use crate::state::{Loc, UnitId};
use crate::ArdennesII;
use sandtable_core::game::{Mark, Outcome, Refusal};
use sandtable_core::hex::Hex;
use sandtable_core::text;
use sandtable_core::text::Text;

impl ArdennesII {
    /// 6.0: a VP hex is controlled by the side that last occupied it and could trace supply
    /// then. Units of a side have just come to stand in `h`, which `before` held (the side
    /// whose units stood there before they came): if it is a VP hex not yet that side's and
    /// the side can trace supply to it now, it becomes theirs. A unit that only passes through
    /// does not occupy a hex (RULINGS).
    pub(crate) fn occupy(&mut self, h: Hex, before: Option<Side>) {
        if !self.w.data.tables.vp_hexes.iter().any(|v| v.hex == h) {
            return;
        }
        let Some(side) = self.holder(h) else { return };
        if before == Some(side) {
            return;
        }
        let listed: Vec<usize> = (0..self.w.data.tables.vp_hexes.len())
            .filter(|&i| self.w.data.tables.vp_hexes[i].hex == h && self.s.control[i] != side)
            .collect();
        if listed.is_empty() {
            return;
        }
        let supplied = with_search(|search| self.supply_map(&Board::new(&self.w, &self.s), side, search));
        if supplied[h.idx()] {
            for i in listed {
                self.s.control[i] = side;
            }
        }
    }

    /// 6.0: each VP hex held by a side that can trace supply to it is that side's (at the end
    /// of the phases where units move or fight, and of the turn).
    pub(crate) fn update_control(&mut self) {
        // Only a VP hex held by the side that does not control it can change hands: the
        // supply of that side is traced only then.
        let b = Board::new(&self.w, &self.s);
        let changes: Vec<(usize, Side)> = (self.w.data.tables.vp_hexes.iter().enumerate())
            .filter_map(|(i, v)| {
                b.side_at(v.hex)
                    .filter(|&side| self.s.control[i] != side)
                    .map(|side| (i, side))
            })
            .collect();
        drop(b);
        if changes.is_empty() {
            return;
        }
        let mut supplied: [Option<std::sync::Arc<Vec<bool>>>; 2] = [None, None];
        for &(_, side) in &changes {
            if supplied[side.seat() as usize].is_none() {
                let map = with_search(|search| self.supply_map(&Board::new(&self.w, &self.s), side, search));
                supplied[side.seat() as usize] = Some(map);
            }
        }
        for (i, side) in changes {
            let hex = self.w.data.tables.vp_hexes[i].hex;
            if supplied[side.seat() as usize].as_ref().is_some_and(|m| m[hex.idx()]) {
                self.s.control[i] = side;
            }
        }
    }

    /// 6.0 "控制的定义是, 在该时刻最后一个占领该 VP 格, 并可追溯补给线的玩家": the VP hexes
    /// that count for the German at this moment (the end of a turn, or of the game): those in
    /// the playing area he controls and can trace supply to now. A hex he cannot trace to
    /// counts for nobody, and stays his until the Allies occupy it (A22).
    pub(crate) fn german_counted(&self) -> Vec<bool> {
        let supplied = with_search(|search| self.supply_map(&Board::new(&self.w, &self.s), Side::German, search));
        let grid = &self.w.map.grid;
        self.w
            .data
            .tables
            .vp_hexes
            .iter()
            .zip(&self.s.control)
            .map(|(v, c)| *c == Side::German && self.scenario.in_area(grid, v.hex) && supplied[v.hex.idx()])
            .collect()
    }

    /// 6.0: the German's VP at this moment: [`Self::german_counted`].
    pub(crate) fn german_vp_counted(&self) -> u32 {
        self.w
            .data
            .tables
            .vp_hexes
            .iter()
            .zip(self.german_counted())
            .filter(|(_, counted)| *counted)
            .map(|(v, _)| v.vp as u32)
            .sum()
    }

    /// The German's VP now: the VP hexes in the playing area he controls.
    pub(crate) fn german_vp(&self) -> u32 {
        let scenario = &self.scenario;
        self.w
            .data
            .tables
            .vp_hexes
            .iter()
            .zip(&self.s.control)
            .filter(|(v, c)| **c == Side::German && scenario.in_area(&self.w.map.grid, v.hex))
            .map(|(v, _)| v.vp as u32)
            .sum()
    }

    /// Whether `h` is a hex German units of this scenario may exit through (7.2, 7.3, 7.5).
    pub(crate) fn exit_hex(&self, side: Side, h: Hex) -> bool {
        if side != Side::German {
            return false;
        }
        let via = match &self.scenario.victory {
            Victory::VpLevels { exit_via, exit_vp, .. } if !exit_vp.is_empty() => exit_via,
            Victory::GermanHolds {
                exit_via,
                exit_required,
                ..
            } if !exit_required.is_empty() => exit_via,
            _ => return false,
        };
        via.iter().any(|e| match e {
            crate::data::Exit::Area(letter) => self
                .w
                .map
                .hex_sets
                .get(&format!("entry-{letter}"))
                .is_some_and(|v| v.contains(&h)),
            crate::data::Exit::Edge(edge) => self.on_area_edge(h, *edge),
        })
    }

    /// 7.2, 7.3, 7.5: whether `unit` may leave the map now (in a movement or exploitation
    /// phase of `side`).
    pub(crate) fn may_exit(&self, unit: UnitId, side: Side, exploitation: bool) -> Result<(), Refusal> {
        self.known_unit(unit)?;
        self.may_start_move(unit, side, exploitation)
            .map_err(|held| self.held_refusal(unit, held))?;
        if self.at_exit(unit, side) {
            Ok(())
        } else {
            Err(self.no_exit())
        }
    }

    /// 7.2, 7.3, 7.5: whether `unit` (a valid id) stands where `side`'s units may leave the
    /// map: what [`Self::may_exit`] asks of a unit free to move.
    pub(crate) fn at_exit(&self, unit: UnitId, side: Side) -> bool {
        self.s.units[unit as usize]
            .hex()
            .is_some_and(|h| self.exit_hex(side, h))
    }

    /// 7.0: the refusal of an exit where none is allowed.
    pub(crate) fn no_exit(&self) -> Refusal {
        Refusal::new(
            "7.0",
            text!(
                "only German units in the scenario's exit area or on its exit edge may leave the map",
                "只有位于剧本撤出区域或撤出边缘的德军单位可以离开地图"
            ),
        )
    }

    /// `unit` leaves the map (checked), counting for victory from this turn.
    pub(crate) fn exit(&mut self, unit: UnitId) {
        let at = crate::marks::at(&self.w, &self.s, unit);
        self.s.set_loc(unit, Loc::Exited { turn: self.s.turn });
        let name = self.unit_text(unit);
        self.journal.say_marked(
            || {
                Text::new(
                    format!("{} leaves the map (exit).", name.en),
                    format!("{}离开地图(撤出)。", name.zh),
                )
            },
            || {
                at.map(|at| Mark::Withdrawn {
                    unit: crate::marks::unit(&self.w, unit),
                    at,
                })
            },
        );
    }

    /// Whether a formation has exited enough units (by the end of the goal's turn, if any).
    fn exit_met(&self, goal: &crate::data::ExitGoal) -> bool {
        let n = (0..self.s.units.len())
            .filter(|&i| {
                self.s.units[i]
                    .exited_on()
                    .is_some_and(|turn| goal.by_turn.is_none_or(|t| turn <= t))
                    && self.w.data.counters.units[i].formation == Some(goal.formation)
            })
            .count();
        n >= goal.units as usize
    }

    /// How the game ended (6.0, 7.x), once it is over.
    pub(crate) fn outcome_now(&self) -> Option<Outcome> {
        if self.engine.top().is_some() {
            return None;
        }
        // 6.0: control counted at the end of the game, supply traced then.
        let counted = self.german_counted();
        let held = |hexes: &[Hex]| {
            hexes.iter().all(|h| {
                self.w
                    .data
                    .tables
                    .vp_hexes
                    .iter()
                    .position(|v| v.hex == *h)
                    .is_some_and(|i| counted[i])
            })
        };
        let (winner, text) = match &self.scenario.victory {
            Victory::VpLevels { levels, exit_vp, .. } => {
                // 7.2, 7.3: 1 VP more for each formation that exited enough units.
                let vp = self.s.vp_max + exit_vp.iter().filter(|g| self.exit_met(g)).count() as u32;
                match crate::data::tables::level_for(levels, vp) {
                    Some(VictoryResult::GermanMajor) => {
                        (Some(0), text!("German major victory ({vp} VP)", "德军大胜({vp} VP)"))
                    }
                    Some(VictoryResult::GermanMinor) => {
                        (Some(0), text!("German minor victory ({vp} VP)", "德军小胜({vp} VP)"))
                    }
                    Some(VictoryResult::AlliedMinor) => {
                        (Some(1), text!("Allied minor victory ({vp} VP)", "盟军小胜({vp} VP)"))
                    }
                    Some(VictoryResult::AlliedMajor) => {
                        (Some(1), text!("Allied major victory ({vp} VP)", "盟军大胜({vp} VP)"))
                    }
                    _ => (None, text!("Draw ({vp} VP)", "平局({vp} VP)")),
                }
            }
            Victory::GermanHolds {
                hexes, exit_required, ..
            } => {
                if held(hexes) && exit_required.iter().all(|g| self.exit_met(g)) {
                    (
                        Some(0),
                        text!("German victory: he holds the objectives", "德军胜利:控制全部目标"),
                    )
                } else {
                    (
                        Some(1),
                        text!(
                            "Allied victory: the objectives are not all German",
                            "盟军胜利:德军未能控制全部目标"
                        ),
                    )
                }
            }
            Victory::GermanVp { min_vp } => {
                let vp = self.german_vp_counted();
                if vp >= *min_vp {
                    (Some(0), text!("German victory ({vp} VP)", "德军胜利({vp} VP)"))
                } else {
                    (
                        Some(1),
                        text!("Allied victory (German {vp} VP)", "盟军胜利(德军 {vp} VP)"),
                    )
                }
            }
        };
        Some(Outcome { winner, text })
    }
}

//! Artillery bug-out (3.6, A17): artillery that is not DG bugs out at once when an enemy unit
//! of printed attack 2 or more comes next to it by its own movement, or stands next to it when
//! a phase begins — unless the hexside would bar that unit's attack. It goes to a hex at least
//! 8 hexes of continuous road away, in supply, open to mechanized units, with no enemy unit in
//! or next to it, and becomes DG; with no such hex it stays.

use crate::frames::Frame;
use crate::rules::{with_search, Board};
use crate::state::{Loc, UnitId};
use crate::{Action, ArdennesII};
use sandtable_core::game::Refusal;
use sandtable_core::hex::Hex;
use sandtable_core::search::{Step, Why};
use sandtable_core::text;
use sandtable_core::text::Text;

impl ArdennesII {
    /// 3.6: artillery bugs out unless DG.
    pub(crate) fn must_bug_out(&self, u: UnitId) -> bool {
        self.w.data.counters.units[u as usize].is_artillery() && !self.s.units[u as usize].dg
    }

    /// A unit's printed attack strength on its current face.
    pub(crate) fn printed_attack(&self, u: UnitId) -> u8 {
        let st = &self.s.units[u as usize];
        self.w.data.counters.units[u as usize].face(st.reduced).attack
    }

    /// 3.6: the artillery a phase finds next to an enemy unit of printed attack 2 or more that
    /// could attack it, in counter order.
    pub(crate) fn threatened_artillery(&self) -> Vec<UnitId> {
        let b = Board::new(&self.w, &self.s);
        (0..self.s.units.len() as UnitId)
            .filter(|&u| {
                let Some(h) = self.s.units[u as usize].hex() else {
                    return false;
                };
                self.must_bug_out(u)
                    && self.units_of(self.unit_side(u).enemy()).any(|e| {
                        let Some(eh) = self.s.units[e as usize].hex() else {
                            return false;
                        };
                        self.w.map.grid.adjacent(eh, h)
                            && self.printed_attack(e) >= 2
                            && self.may_attack_across(&b, e, eh, h)
                    })
            })
            .collect()
    }

    /// 3.6: the enemy artillery `mover`, a unit of printed attack 2 or more moving with its own
    /// MP, makes bug out by entering `at`, in counter order.
    pub(crate) fn bug_out_triggered(&self, mover: UnitId, at: Hex) -> Vec<UnitId> {
        if self.printed_attack(mover) < 2 {
            return Vec::new();
        }
        let b = Board::new(&self.w, &self.s);
        self.w.bug_out_guns[self.unit_side(mover).enemy().seat() as usize]
            .iter()
            .copied()
            .filter(|&a| self.must_bug_out(a))
            .filter(|&a| {
                self.s.units[a as usize]
                    .hex()
                    .is_some_and(|ah| self.w.map.grid.adjacent(at, ah) && self.may_attack_across(&b, mover, at, ah))
            })
            .collect()
    }

    /// 3.6: where artillery may bug out to: a hex "距离火炮单位起始位置至少有 8 个连续的道路格"
    /// (the route ignores enemy units and bonds), in supply, open to mechanized movement, with
    /// no enemy unit in or next to it, in the playing area. The count starts at the gun's hex if
    /// a road or track runs through it, otherwise at the road hexes nearest it (RULINGS): the
    /// gun is lifted, not moved, and an off-road gun bugs out along its nearest road.
    pub(crate) fn bug_out_hexes(&self, u: UnitId) -> Vec<Hex> {
        let Some(start) = self.s.units[u as usize].hex() else {
            return Vec::new();
        };
        let side = self.unit_side(u);
        with_search(|search| {
            let b = Board::new(&self.w, &self.s);
            let supplied = self.supply_map(&b, side, search);
            let grid = &self.w.map.grid;
            let on_road = |h: Hex| grid.neighbours(h).any(|(d, _)| b.road_link(h, d).is_some());
            let mut seeds: Vec<(Hex, u32)> = Vec::new();
            // The nearest ring of hexes around the gun that holds a road hex (the map is 80
            // columns wide: no ring beyond that).
            let mut r = 0;
            if self.edition == 1 {
                // Data edition 1: the count from the gun's own road only.
                seeds.push((start, 0));
            }
            while seeds.is_empty() && r <= 80 {
                seeds = grid
                    .within(start, r)
                    .filter(|&h| grid.distance(start, h) == r && on_road(h))
                    .map(|h| (h, 0))
                    .collect();
                r += 1;
            }
            search.run_breadth_first(grid, &seeds, u32::MAX - 1, |from, d, _| {
                if b.road_link(from, d).is_some() {
                    Step::Go(1)
                } else {
                    Step::Blocked(Why::NONE)
                }
            });
            let mut out: Vec<Hex> = search
                .reached()
                .filter(|&h| {
                    search.cost(h).is_some_and(|c| c >= 8)
                        && supplied[h.idx()]
                        && self.w.costs.hex[side.seat() as usize][1][h.idx()].is_some()
                        && !b.enemy_in(side, h)
                        && !b.enemy_adjacent(side, h)
                        && self.scenario.in_area(&self.w.map.grid, h)
                })
                .collect();
            out.sort();
            out
        })
    }

    pub(crate) fn legal_bug_outs(&self, queue: &[UnitId], out: &mut Vec<Action>) {
        let Some(&unit) = queue.first() else { return };
        let to = self.bug_out_hexes(unit);
        if to.is_empty() {
            out.push(Action::StayPut { unit });
        }
        out.extend(to.into_iter().map(|to| Action::BugOut { unit, to }));
    }

    /// 3.6: whether the artillery first in `queue` may bug out to `to` (`None`: stay, having
    /// nowhere to go).
    pub(crate) fn may_bug_out(&self, queue: &[UnitId], unit: UnitId, to: Option<Hex>) -> Result<(), Refusal> {
        let Some(&first) = queue.first() else {
            return Err(self.no_bug_out_now());
        };
        if first != unit {
            let name = self.unit_text(first);
            return Err(Refusal::new(
                "3.6",
                Text::new(
                    format!("artillery bugs out one unit at a time: {} first", name.en),
                    format!("火炮逐个逃跑:先处理{}", name.zh),
                ),
            ));
        }
        let hexes = self.bug_out_hexes(unit);
        match to {
            Some(h) if hexes.contains(&h) => Ok(()),
            Some(_) => Err(Refusal::new(
                "3.6",
                text!(
                    "artillery bugs out to a hex 8 or more hexes of continuous road away, in supply, open to mechanized units, with no enemy unit in or next to it",
                    "火炮须逃往沿连续道路至少 8 格远、可追溯补给、机械化单位可进入且其中及相邻格都没有敌军单位的格"
                ),
            )),
            None if hexes.is_empty() => Ok(()),
            None => Err(Refusal::new(
                "3.6",
                text!(
                    "a hex to bug out to exists: the artillery must go",
                    "有可逃往的格:火炮必须逃跑"
                ),
            )),
        }
    }

    /// 3.6: refused when no artillery is bugging out.
    pub(crate) fn no_bug_out_now(&self) -> Refusal {
        Refusal::new(
            "3.6",
            text!(
                "artillery bugs out only when triggered, to a hex 8 road hexes away, in supply, open to mechanized units and clear of the enemy",
                "火炮只在触发时逃跑,目的格须沿道路相距至少 8 格、可追溯补给、机械化单位可进入且不与敌相邻"
            ),
        )
    }

    /// The artillery first in `queue` bugs out to `to` and becomes DG, or stays (`None`).
    pub(crate) fn bug_out(&mut self, mut queue: Vec<UnitId>, unit: UnitId, to: Option<Hex>) {
        queue.retain(|&u| u != unit);
        if !queue.is_empty() {
            self.engine.push(Frame::BugOut { queue });
        }
        match to {
            Some(to) => {
                let before = self.holder(to);
                let from = self.s.units[unit as usize].hex();
                self.s.set_loc(unit, Loc::Map(to));
                self.s.units[unit as usize].dg = true;
                let name = self.unit_text(unit);
                let hid = self.w.data.hex_id(to);
                self.journal.say_marked(
                    || {
                        Text::new(
                            format!("3.6: {} bugs out to {hid} and becomes DG.", name.en),
                            format!("3.6:{}逃跑到 {hid},成为混乱。", name.zh),
                        )
                    },
                    || {
                        from.map(|from| crate::marks::moved(&self.w, &[unit], from, to, crate::marks::retreat))
                            .unwrap_or_default()
                    },
                );
                self.occupy(to, before);
            }
            None => {
                let name = if self.journal.off {
                    Text::new("", "")
                } else {
                    self.unit_text(unit)
                };
                self.journal.say(|| {
                    Text::new(
                        format!("3.6: {} has no hex to bug out to and stays.", name.en),
                        format!("3.6:{}没有可逃往的格,原地不动。", name.zh),
                    )
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::state::UnitId;
    use crate::ArdennesII;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::{play_randomly_watching, Game, Rules};
    use sandtable_core::hex::Hex;

    /// 3.6: the artillery a unit makes bug out by entering a hex, found among the side's
    /// artillery listed once, is at every decision of random games the artillery found by a
    /// look at every enemy unit, for every unit on the map entering each hex next to it.
    #[test]
    fn the_guns_a_move_makes_bug_out_are_the_ones_found_among_every_unit() {
        let every_unit = |g: &ArdennesII, mover: UnitId, at: Hex| -> Vec<UnitId> {
            if g.printed_attack(mover) < 2 {
                return Vec::new();
            }
            let b = crate::rules::Board::new(&g.w, &g.s);
            g.units_of(g.unit_side(mover).enemy())
                .filter(|&a| g.must_bug_out(a))
                .filter(|&a| {
                    g.s.units[a as usize]
                        .hex()
                        .is_some_and(|ah| g.w.map.grid.adjacent(at, ah) && g.may_attack_across(&b, mover, at, ah))
                })
                .collect()
        };
        let mut found = 0;
        for (scenario, seed) in [("campaign", 41), ("goose-egg", 42)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, 400, |g| {
                for mover in 0..g.s.units.len() as UnitId {
                    let Some(h) = g.s.units[mover as usize].hex() else {
                        continue;
                    };
                    for (_, at) in g.w.map.grid.neighbours(h) {
                        let guns = g.bug_out_triggered(mover, at);
                        assert_eq!(guns, every_unit(g, mover, at), "{scenario}: unit {mover} into {at:?}");
                        found += guns.len();
                    }
                }
            })
            .expect("random play goes on");
        }
        assert!(found > 100, "{found} guns made to bug out");
    }
}

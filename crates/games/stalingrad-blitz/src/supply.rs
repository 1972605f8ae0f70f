//! The supply procedure (11.0), run by the SUPPLY chit: units without a line of communication
//! lose a step (11.1), German divisions are withdrawn (11.2), Axis units may go to the rail
//! transport box (11.3), and the Soviets may build a fortress (11.4, with 14.1).

use crate::data::{Nation, Side, UType};
use crate::rules::Board;
use crate::sequence::not_now;
use crate::state::*;
use crate::StalingradBlitz;
use sandtable_core::game::{Mark, Refusal};
use sandtable_core::hex::Hex;
use sandtable_core::search::with_thread_search as with_search;
use sandtable_core::text;
use sandtable_core::text::Text;

/// 11.2(1): the withdrawal type of a German division (motorised divisions never, note).
pub(crate) fn withdraw_class(def: &crate::data::UnitDef) -> Option<usize> {
    if def.side != Side::Axis || def.nation != Nation::German {
        return None;
    }
    match def.utype {
        UType::Pz => Some(0),
        UType::Ss => Some(1),
        UType::Inf | UType::Mt | UType::Jg => Some(2),
        _ => None,
    }
}

impl StalingradBlitz {
    /// 11.1: every unit of `side` that cannot trace a LOC loses one step (fortresses never do,
    /// 14.2(4)). The Soviets are checked first (11.1(1)).
    pub(crate) fn supply_check(&mut self, side: Side) {
        let reach = {
            let b = Board::new(&self.d, &self.s);
            with_search(|s| b.loc_reach(side, s))
        };
        let out: Vec<UnitId> = (0..self.s.units.len())
            .filter(|&i| self.d.units[i].side == side)
            .filter(|&i| self.s.units[i].hex().is_some_and(|h| !reach[h.idx()]))
            .map(|i| i as UnitId)
            .collect();
        let n = out.len();
        let who = side.name();
        self.journal.say(|| {
            Text::new(
                format!("11.1: {} supply check: {n} units without a LOC lose a step.", who.en),
                format!("11.1:{}补给判定:{n} 个无连络线的单位损失一步。", who.zh),
            )
        });
        for u in out {
            self.lose_step(u, true);
        }
    }

    /// 11.2: German divisions of withdrawal type `t` that may be withdrawn now: on the map
    /// with a LOC (11.2(2)) or in the rail box (11.2(3)); full-strength ones first (11.2(1)).
    pub(crate) fn withdraw_candidates(&self, t: usize) -> Vec<UnitId> {
        let b = Board::new(&self.d, &self.s);
        let reach = with_search(|s| b.loc_reach(Side::Axis, s));
        let eligible: Vec<UnitId> = (0..self.s.units.len())
            .filter(|&i| withdraw_class(&self.d.units[i]) == Some(t))
            .filter(|&i| match self.s.units[i].loc {
                Loc::Map(h) => reach[h.idx()],
                Loc::RailBox => true,
                _ => false,
            })
            .map(|i| i as UnitId)
            .collect();
        let full: Vec<UnitId> = eligible
            .iter()
            .copied()
            .filter(|&u| !self.s.units[u as usize].reduced)
            .collect();
        if full.is_empty() {
            eligible
        } else {
            full
        }
    }

    /// 11.3(1): the Axis units that may go to the rail transport box: any with a LOC and not
    /// in enemy ZOC.
    fn rail_box_candidates(&self) -> Vec<UnitId> {
        let d = &self.d;
        let b = Board::new(d, &self.s);
        let reach = with_search(|s| b.loc_reach(Side::Axis, s));
        // Sized for every unit at once: the list never grows.
        let mut units = Vec::with_capacity(self.s.units.len());
        units.extend(
            (self.s.units.iter().zip(&d.units).enumerate()).filter_map(|(i, (u, def))| {
                let h = u.hex()?;
                (def.side == Side::Axis && reach[h.idx()] && !b.enemy_zoc(Side::Axis, h)).then_some(i as UnitId)
            }),
        );
        units
    }

    /// 14.1: hexes where the Soviets may build or raise a fortress now. The LOC (14.1(1)) is
    /// traced only if a hex meets every other condition: with both markers placed and both
    /// fortresses at level 2, or no Soviet city or town clear of the enemy, there is none to
    /// trace for.
    pub(crate) fn fortress_sites(&self) -> Vec<Hex> {
        let b = Board::new(&self.d, &self.s);
        let mut sites = self.fortress_sites_but_loc(&b);
        if !sites.is_empty() {
            let reach = with_search(|s| b.loc_reach(Side::Soviet, s));
            sites.retain(|h| reach[h.idx()]);
        }
        sites
    }

    /// [`StalingradBlitz::fortress_sites`] before the LOC is asked.
    fn fortress_sites_but_loc(&self, b: &Board) -> Vec<Hex> {
        let marker_left = self.s.fortress_markers_used < 2;
        // The cities and towns, in the grid's order.
        (self.d.loc_bits.urban().iter().copied())
            .filter(|&h| self.s.control[h.idx()] == Some(Side::Soviet))
            .filter(|&h| !b.enemy_in(Side::Soviet, h))
            .filter(|&h| {
                !self
                    .d
                    .map
                    .grid
                    .neighbours(h)
                    .any(|(_, n)| b.owner[n.idx()] == Some(Side::Axis) && b.stacks.count(n) > 0)
            })
            .filter(|&h| match b.fortress[h.idx()] {
                0 => marker_left,
                1 => true,
                _ => false,
            })
            .collect()
    }

    /// 14.1: [`StalingradBlitz::fortress_sites`] as first written, the LOC traced first.
    #[cfg(test)]
    pub(crate) fn fortress_sites_traced(&self) -> Vec<Hex> {
        let b = Board::new(&self.d, &self.s);
        let reach = with_search(|s| b.loc_reach(Side::Soviet, s));
        let marker_left = self.s.fortress_markers_used < 2;
        self.d
            .map
            .grid
            .hexes()
            .filter(|&h| self.d.is_urban[h.idx()])
            .filter(|&h| self.s.control[h.idx()] == Some(Side::Soviet) && reach[h.idx()])
            .filter(|&h| !b.enemy_in(Side::Soviet, h))
            .filter(|&h| {
                !self
                    .d
                    .map
                    .grid
                    .neighbours(h)
                    .any(|(_, n)| b.owner[n.idx()] == Some(Side::Axis) && b.stacks.count(n) > 0)
            })
            .filter(|&h| match b.fortress[h.idx()] {
                0 => marker_left,
                1 => true,
                _ => false,
            })
            .collect()
    }

    pub(crate) fn legal_supply(&self, e: &Exec, out: &mut Vec<Action>) {
        match e.step {
            Step::Supply(SupplyStage::Withdraw { left, .. }) => {
                if let Some(t) = (0..3).find(|&t| left[t] > 0) {
                    out.extend(
                        self.withdraw_candidates(t)
                            .into_iter()
                            .map(|unit| Action::Choose { unit }),
                    );
                }
            }
            Step::Supply(SupplyStage::RailBox) => {
                out.extend(
                    self.rail_box_candidates()
                        .into_iter()
                        .map(|unit| Action::Choose { unit }),
                );
                out.push(Action::EndChoose);
            }
            Step::Supply(SupplyStage::Fortress) => {
                out.extend(self.fortress_sites().into_iter().map(|hex| Action::Fortify { hex }));
                out.push(Action::NoFortress);
            }
            _ => {}
        }
    }

    pub(crate) fn check_supply(&self, e: &Exec, a: &Action) -> Result<(), Refusal> {
        match (&e.step, *a) {
            (Step::Supply(SupplyStage::Withdraw { left, .. }), Action::Choose { unit }) => {
                let listed = (0..3)
                    .find(|&t| left[t] > 0)
                    .is_some_and(|t| self.withdraw_candidates(t).contains(&unit));
                if listed {
                    Ok(())
                } else {
                    Err(Refusal::new(
                        "11.2",
                        text!(
                            "withdraw a German division of the type the table calls for, with a LOC or in the rail box, full-strength ones first",
                            "按转出表的类型撤出德军师:须有连络线或在铁道运输框中,满编者优先"
                        ),
                    ))
                }
            }
            (Step::Supply(SupplyStage::RailBox), Action::Choose { unit }) => {
                if self.rail_box_candidates().contains(&unit) {
                    Ok(())
                } else {
                    Err(Refusal::new(
                        "11.3(1)",
                        text!(
                            "only an Axis unit with a LOC and outside enemy ZOC goes to the rail transport box",
                            "只有有连络线且不在敌ZOC中的轴心国单位可以进入铁道运输框"
                        ),
                    ))
                }
            }
            (Step::Supply(SupplyStage::RailBox), Action::EndChoose) => Ok(()),
            (Step::Supply(SupplyStage::Fortress), Action::Fortify { hex }) => {
                if self.fortress_sites().contains(&hex) {
                    Ok(())
                } else {
                    Err(Refusal::new(
                        "14.1",
                        text!(
                            "a fortress goes in a Soviet-held city or town with a LOC, not adjacent to an enemy unit, one level per supply procedure, at most level 2 and 2 markers in the game",
                            "要塞须建在有连络线的苏军控制城市或城镇,不与敌军相邻,每次补给程序一级,最高2级,全局2枚"
                        ),
                    ))
                }
            }
            (Step::Supply(SupplyStage::Fortress), Action::NoFortress) => Ok(()),
            _ => Err(not_now()),
        }
    }

    /// The supply procedure's steps: a choice, or with none the step that follows by itself.
    pub(crate) fn supply_step(&mut self, a: Option<&Action>) {
        let step = self.exec_mut().step.clone();
        match (step, a) {
            (Step::Supply(SupplyStage::Withdraw { die, mut left }), None) => {
                match (0..3).find(|&t| left[t] > 0) {
                    // 11.2(3): none of the type on the map or in the box: that part does not
                    // happen.
                    Some(t) => left[t] = 0,
                    None => {
                        self.exec_mut().step = Step::Supply(SupplyStage::RailBox);
                        return;
                    }
                }
                self.exec_mut().step = Step::Supply(SupplyStage::Withdraw { die, left });
            }
            (Step::Supply(SupplyStage::Withdraw { die, mut left }), Some(&Action::Choose { unit })) => {
                if let Some(t) = withdraw_class(&self.d.units[unit as usize]) {
                    left[t] = left[t].saturating_sub(1);
                }
                let at = self.s.units[unit as usize].hex();
                self.s.set_loc(unit, Loc::Withdrawn);
                let def = &self.d.units[unit as usize];
                let (en, zh, g) = (&def.name_en, &def.name_zh, &self.d.map.grid);
                self.journal.say_marked(
                    || text!("11.2: {en} is withdrawn.", "11.2:{zh}转出。"),
                    || {
                        at.map(|at| Mark::Withdrawn {
                            unit: def.id.clone(),
                            at: g.id(at).0,
                        })
                    },
                );
                self.exec_mut().step = Step::Supply(SupplyStage::Withdraw { die, left });
            }
            (Step::Supply(SupplyStage::RailBox), Some(&Action::Choose { unit })) => {
                let at = self.s.units[unit as usize].hex();
                self.s.set_loc(unit, Loc::RailBox);
                let def = &self.d.units[unit as usize];
                let (en, zh, g) = (&def.name_en, &def.name_zh, &self.d.map.grid);
                self.journal.say_marked(
                    || {
                        text!(
                            "11.3: {en} goes to the rail transport box.",
                            "11.3:{zh}进入铁道运输框。"
                        )
                    },
                    || {
                        at.map(|at| Mark::Withdrawn {
                            unit: def.id.clone(),
                            at: g.id(at).0,
                        })
                    },
                );
            }
            (Step::Supply(SupplyStage::RailBox), Some(Action::EndChoose)) => {
                self.exec_mut().step = Step::Supply(SupplyStage::Fortress);
            }
            (Step::Supply(SupplyStage::Fortress), Some(&Action::Fortify { hex })) => {
                if let Some(f) = self.s.fortresses.iter_mut().find(|f| f.hex == hex) {
                    f.level = 2;
                } else {
                    self.s.fortresses.push(Fortress { hex, level: 1 });
                    self.s.fortress_markers_used += 1;
                }
                let hid = self.d.map.grid.id(hex);
                self.journal
                    .say(|| text!("14.1: the Soviets fortify {hid}.", "14.1:苏军在{hid}构筑要塞。"));
                self.finish_exec();
            }
            (Step::Supply(SupplyStage::Fortress), Some(Action::NoFortress)) => self.finish_exec(),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::{play_randomly_watching, Game, Rules};

    /// The fortress sites (14.1), asked without tracing a LOC where no hex needs one, are
    /// those asked with the LOC traced first, at every decision of random campaign games, both
    /// when some hex meets every condition but the LOC and when none does.
    #[test]
    fn sites_asked_before_the_loc_are_sites_traced() {
        let (mut traced, mut skipped) = (0, 0);
        for seed in [1, 5] {
            let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
                let sites = g.fortress_sites();
                assert_eq!(sites, g.fortress_sites_traced(), "seed {seed}");
                let b = Board::new(g.data(), g.state());
                if g.fortress_sites_but_loc(&b).is_empty() {
                    skipped += 1;
                } else {
                    traced += 1;
                }
            })
            .expect("random play reaches the end");
        }
        assert!(traced > 100 && skipped > 100, "{traced} traced, {skipped} skipped");
    }

    /// 14.1(1): a Soviet town cut off from every Soviet supply source is no fortress site,
    /// though it meets every other condition. A position built on the campaign map: Axis
    /// units on the hexes two away from a Soviet-held city or town, none nearer, so that their
    /// ZOC covers every way in (3.3(1)). Random games never cut off a site.
    #[test]
    fn a_town_cut_off_is_no_fortress_site() {
        let start = StalingradBlitz::new_game("campaign", 1).expect("the campaign loads");
        let d = start.data().clone();
        let grid = &d.map.grid;
        let axis: Vec<usize> = (0..d.units.len()).filter(|&i| d.units[i].side == Side::Axis).collect();
        let towns = grid
            .hexes()
            .filter(|&h| d.is_urban[h.idx()] && start.state().control[h.idx()] == Some(Side::Soviet));
        let mut cut_off = 0;
        for town in towns {
            let mut g = StalingradBlitz::new_game("campaign", 1).expect("the campaign loads");
            let e = g.edit();
            for u in e.state.units.iter_mut() {
                if u.hex().is_some_and(|h| grid.distance(h, town) <= 2) {
                    u.loc = Loc::Pool;
                }
            }
            let ring: Vec<Hex> = (grid.within(town, 2))
                .filter(|&h| grid.distance(h, town) == 2 && d.map.terrain(h) & (d.t.sea | d.t.impassable) == 0)
                .collect();
            for (&h, &u) in ring.iter().zip(&axis) {
                e.state.units[u].loc = Loc::Map(h);
            }
            let b = Board::fresh(g.data(), g.state());
            let reach = with_search(|s| b.trace_loc(Side::Soviet, s));
            if reach[town.idx()] || !g.fortress_sites_but_loc(&b).contains(&town) {
                continue;
            }
            assert!(!g.fortress_sites().contains(&town), "{}", grid.id(town));
            assert_eq!(g.fortress_sites(), g.fortress_sites_traced());
            cut_off += 1;
        }
        assert!(cut_off > 3, "{cut_off} towns cut off");
    }
}

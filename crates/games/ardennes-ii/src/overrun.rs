//! Overruns (3.3, SCS 6.1): in movement and exploitation phases, mechanized units of one hex
//! attack an adjacent enemy hex along a continuous Road or Track into it (TEC note 2), for
//! 2 MP, then fight it out as a combat from the defender's choice to stand or retreat (3.2).
//! An overrunning unit is not DG, did not start the phase next to the enemy, has not been in
//! an enemy barrage hex this phase, and has not overrun yet this phase.

use crate::frames::Frame;
use crate::rules::Board;
use crate::sequence::Side;
use crate::state::{Combat, Stage, UnitId};
use crate::{Action, ArdennesII};
use sandtable_core::game::Refusal;
use sandtable_core::hex::Hex;
use sandtable_core::text;
use sandtable_core::text::Text;

/// Why a unit may not overrun now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoOverrun {
    NotMech,
    Dg,
    NextToEnemy,
    Barraged,
    Overran,
    Observed,
    Stopped,
    NoMp,
    NoExploit,
}

impl ArdennesII {
    /// 3.3: why this unit may not overrun now, if it may not: Mech MA, not DG, not next to
    /// the enemy when the phase began, not in or through an enemy barrage hex, not overrun
    /// already, not an observer or a demolisher this phase, 2 MP left; in exploitation, able
    /// to exploit.
    fn overrun_bar(&self, b: &Board, u: UnitId, exploitation: bool) -> Result<(), NoOverrun> {
        let st = &self.s.units[u as usize];
        let def = &self.w.data.counters.units[u as usize];
        let mp = self.w.data.tables.tec.movement.overrun as u32 * 2;
        if !def.is_mech() {
            Err(NoOverrun::NotMech)
        } else if st.dg {
            Err(NoOverrun::Dg)
        } else if st.adjacent_at_start {
            Err(NoOverrun::NextToEnemy)
        } else if st.barraged {
            Err(NoOverrun::Barraged)
        } else if st.overran {
            Err(NoOverrun::Overran)
        } else if st.observed {
            Err(NoOverrun::Observed)
        } else if st.stopped {
            Err(NoOverrun::Stopped)
        } else if b.allowance(u).saturating_sub(st.spent as u32) < mp {
            Err(NoOverrun::NoMp)
        } else if exploitation && !self.may_exploit(u) {
            Err(NoOverrun::NoExploit)
        } else {
            Ok(())
        }
    }

    /// The units of `h` that may overrun now, in counter order.
    fn overrunners(&self, b: &Board, h: Hex, exploitation: bool) -> Vec<UnitId> {
        b.stack(h)
            .iter()
            .copied()
            .filter(|&u| self.overrun_bar(b, u, exploitation).is_ok())
            .collect()
    }

    /// The groups of `eligible` (one hex's overrunners) that may overrun together: every
    /// group with some attack strength (a zero-strength attack cannot be made, RULINGS), the
    /// whole stack first. More than 5 eligible units (temporary stacking in movement, 3.1)
    /// offer the whole stack and each unit alone.
    fn overrun_groups(&self, b: &Board, eligible: &[UnitId]) -> Vec<Vec<UnitId>> {
        let n = eligible.len();
        let groups: Vec<Vec<UnitId>> = if n <= 5 {
            let mut masks: Vec<u32> = (1..1u32 << n).collect();
            masks.sort_by_key(|m| (std::cmp::Reverse(m.count_ones()), *m));
            masks
                .into_iter()
                .map(|m| (0..n).filter(|i| m & (1 << i) != 0).map(|i| eligible[i]).collect())
                .collect()
        } else {
            std::iter::once(eligible.to_vec())
                .chain(eligible.iter().map(|&u| vec![u]))
                .collect()
        };
        groups.into_iter().filter(|g| self.attack_strength(b, g) > 0).collect()
    }

    /// 3.3: the overruns `side` may make now.
    pub(crate) fn legal_overruns(&self, side: Side, exploitation: bool, out: &mut Vec<Action>) {
        let b = Board::new(&self.w, &self.s);
        let grid = &self.w.map.grid;
        // The hexes the side holds, each once in hex order, as the layout keeps them.
        for &h in b.held_by(side) {
            // Only a hex next to the enemy has an enemy hex to overrun.
            if !b.enemy_adjacent(side, h) {
                continue;
            }
            // The enemy hexes a road or track leads into (TEC note 2), before the units: most
            // stacks have none.
            let mut targets = grid
                .neighbours(h)
                .filter(|&(d, target)| b.enemy_in(side, target) && b.road_link(h, d).is_some())
                .map(|(_, target)| target)
                .peekable();
            if targets.peek().is_none() {
                continue;
            }
            let eligible = self.overrunners(&b, h, exploitation);
            if eligible.is_empty() {
                continue;
            }
            let groups = self.overrun_groups(&b, &eligible);
            for target in targets {
                for g in &groups {
                    out.push(Action::Overrun {
                        units: g.clone(),
                        target,
                    });
                }
            }
        }
    }

    /// 3.3: whether `units` of `side` may overrun `target` now.
    pub(crate) fn may_overrun(
        &self,
        units: &[UnitId],
        target: Hex,
        side: Side,
        exploitation: bool,
    ) -> Result<(), Refusal> {
        let no = |t: Text| Err(Refusal::new("3.3", t));
        self.known_hex(target)?;
        let Some(&first) = units.first() else {
            return no(text!("an overrun needs at least one unit", "突袭至少需要一个单位"));
        };
        for &u in units {
            self.known_unit(u)?;
        }
        let Some(h) = self.s.units[first as usize].hex() else {
            return no(text!("that unit is not on the map", "该单位不在地图上"));
        };
        if units
            .iter()
            .any(|&u| self.unit_side(u) != side || self.s.units[u as usize].hex() != Some(h))
        {
            return no(text!(
                "the units of an overrun are the phasing player's, from one hex",
                "突袭的单位须属于行动方,且来自同一格"
            ));
        }
        let b = Board::new(&self.w, &self.s);
        for &u in units {
            if let Err(why) = self.overrun_bar(&b, u, exploitation) {
                let name = self.unit_text(u);
                let (en, zh) = match why {
                    NoOverrun::NotMech => ("only units of Mechanized MA overrun", "只有机械化移动力的单位可以突袭"),
                    NoOverrun::Dg => ("a DG unit does not overrun (3.4)", "混乱单位不能突袭(3.4)"),
                    NoOverrun::NextToEnemy => (
                        "a unit next to the enemy when the phase began does not overrun",
                        "阶段开始时与敌相邻的单位不能突袭",
                    ),
                    NoOverrun::Barraged => (
                        "a unit that began in, or entered, an enemy barrage hex this phase does not overrun",
                        "本阶段起始于或进入过敌方射击格的单位不能突袭",
                    ),
                    NoOverrun::Overran => ("it has overrun this phase already", "它本阶段已经突袭过"),
                    NoOverrun::Observed => ("it observed a barrage this phase", "它本阶段担任过射击观测员"),
                    NoOverrun::Stopped => ("it stopped to blow a bridge (3.8)", "它为炸桥而停止(3.8)"),
                    NoOverrun::NoMp => (
                        "an overrun costs 2 MP, and it has less left",
                        "突袭需要 2 移动力,它剩余不足",
                    ),
                    NoOverrun::NoExploit => ("it may not exploit this phase", "它本阶段不能进击"),
                };
                return no(Text::new(format!("{}: {en}", name.en), format!("{}:{zh}", name.zh)));
            }
        }
        if !self
            .overrun_groups(&b, &self.overrunners(&b, h, exploitation))
            .iter()
            .any(|g| g == units)
        {
            return no(text!(
                "an overrun is made by the units of a hex together, listed in counter order, with some attack strength (more than five: the whole stack or one unit)",
                "突袭由同一格的单位一起进行,按算子顺序列出,且须有攻击力(超过五个单位时:整个堆叠或单个单位)"
            ));
        }
        let hid = self.w.data.hex_id(target);
        let Some(d) = self.w.map.grid.dir_to(h, target) else {
            return no(text!(
                "{hid} is not next to the overrunning units",
                "{hid} 与突袭单位不相邻"
            ));
        };
        if !b.enemy_in(side, target) {
            return no(text!("there is no enemy unit in {hid}", "{hid} 没有敌军单位"));
        }
        if b.road_link(h, d).is_none() {
            return no(text!(
                "an overrun follows a Road or Track into the defender's hex (TEC note 2), and none crosses into {hid} (or its bridge is down)",
                "突袭须沿道路或小路进入防御方所在格(地形效果表注2),而没有道路通往 {hid}(或其桥梁不可用)"
            ));
        }
        Ok(())
    }

    /// 3.3: `units` overrun `target` (checked): +2 MP each, then the defender stands or
    /// retreats as in combat.
    pub(crate) fn overrun(&mut self, units: &[UnitId], target: Hex) {
        let defenders = Board::new(&self.w, &self.s).units_at(target);
        let cost = self.w.data.tables.tec.movement.overrun as u16 * 2;
        for &u in units {
            let st = &mut self.s.units[u as usize];
            st.overran = true;
            st.spent += cost;
            st.moved = true;
        }
        let hid = self.w.data.hex_id(target);
        self.journal.say_marked(
            || text!("3.3: overrun of {hid}.", "3.3:突袭 {hid}。"),
            || [crate::marks::attack(&self.w, &self.s, units, target)],
        );
        self.engine.push(Frame::Combat(Combat {
            target,
            attackers: units.to_vec(),
            defenders,
            stage: Stage::StandOrRetreat,
            result: None,
            attacker_losses: 0,
            defender_losses: 0,
            attacker_lost: 0,
            retreat: 0,
            voluntary: false,
            overrun: true,
            advancing: Vec::new(),
        }));
    }
}

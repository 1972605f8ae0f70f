//! The sequence of play (5.0): command selection (6.0), command execution (7.0) with
//! activation (8.0), movement (9.0) and combat (10.0), the supply procedure (11.0),
//! reinforcements (12.0), fortresses (14.0) and the end-of-turn victory check (15.0).
//!
//! `act` carries out one legal action; `settle` then carries the game forward through every
//! step that needs no decision, until a seat must choose, chance must act, or the game ends.

use crate::data::{ChitClass, ChitKind, Nation, Side, UType};
use crate::rules::{self, Board};
use crate::state::*;
use crate::StalingradBlitz;
use sandtable_core::game::Pending;
use sandtable_core::hex::Hex;
/// Search buffers reused across calls: a search allocates nothing after the first.
pub(crate) use sandtable_core::search::with_thread_search as with_search;
use sandtable_core::text;

impl StalingradBlitz {
    /// The command being executed, if any.
    pub fn exec(&self) -> Option<&Exec> {
        match &self.s.phase {
            Phase::Exec(e) => Some(e),
            _ => None,
        }
    }

    fn exec_mut(&mut self) -> &mut Exec {
        match &mut self.s.phase {
            Phase::Exec(e) => e,
            _ => unreachable!("an execution step outside an execution"),
        }
    }

    pub(crate) fn turn_def(&self) -> &crate::data::TurnDef {
        &self.d.turns[(self.s.turn.clamp(1, 9) - 1) as usize]
    }

    /// Who must act now.
    pub(crate) fn pending_now(&self) -> Pending {
        match &self.s.phase {
            Phase::Over => Pending::Over,
            Phase::Draw => Pending::Chance,
            // 4.0: the player whose unit is set up next.
            Phase::Setup => match crate::setup::next_setup_unit(&self.d, &self.s) {
                Some(u) => Pending::Seat(self.d.units[u as usize].side.seat()),
                None => Pending::Seat(Side::Axis.seat()),
            },
            Phase::Select(Select::SovietHq | Select::SovietExtra) => Pending::Seat(Side::Soviet.seat()),
            Phase::Select(_) => Pending::Seat(Side::Axis.seat()),
            Phase::Exec(e) => {
                let side = match &e.step {
                    Step::Combat(c) => match c.stage {
                        CombatStage::AttackerLoss | CombatStage::Advance => e.side,
                        CombatStage::Convert | CombatStage::DefenderLoss | CombatStage::Retreat => e.side.enemy(),
                    },
                    Step::Supply(SupplyStage::Fortress) => Side::Soviet,
                    Step::Supply(_) => Side::Axis,
                    _ => e.side,
                };
                Pending::Seat(side.seat())
            }
        }
    }

    // ---------------------------------------------------------------- turn and selection

    pub(crate) fn start_turn(&mut self) {
        let td = self.turn_def().clone();
        let turn = self.s.turn;
        self.journal.heading(|| {
            sandtable_core::text::Text::new(
                format!("Turn {turn} ({})", td.date_en),
                format!("第{turn}回合({})", td.date_zh),
            )
        });
        self.s.picks = [Vec::new(), Vec::new()];
        self.s.cup.clear();
        self.s.used.clear();
        for u in &mut self.s.units {
            u.active = false;
            u.moved = false;
            u.attacked = false;
            u.spent = false;
        }
        self.journal
            .heading(|| text!("Command selection phase (6.0)", "命令选择阶段(6.0)"));
        self.s.phase = Phase::Select(Select::SovietHq);
    }

    /// How many chits of a class a side still has to put in (6.2).
    pub(crate) fn quota_left(&self, class: ChitClass) -> usize {
        let td = self.turn_def();
        let (side, quota) = match class {
            ChitClass::SuCom => (Side::Soviet, td.su_com),
            ChitClass::GerCom => (Side::Axis, td.ger_com),
            ChitClass::AxisRnfCom => (Side::Axis, td.axis_rnf_com),
            _ => return 0,
        };
        let available: usize = self
            .d
            .chits
            .iter()
            .filter(|c| c.class == class)
            .map(|c| c.count as usize)
            .sum();
        let picked = self.s.picks[side.seat() as usize]
            .iter()
            .filter(|&&c| self.d.chits[c as usize].class == class)
            .count();
        (quota as usize).min(available).saturating_sub(picked)
    }

    fn advance_selection(&mut self) {
        loop {
            let Phase::Select(stage) = self.s.phase else { return };
            let next = match stage {
                Select::SovietHq if self.quota_left(ChitClass::SuCom) == 0 => Select::SovietExtra,
                Select::AxisGer if self.quota_left(ChitClass::GerCom) == 0 => Select::AxisRnf,
                Select::AxisRnf if self.quota_left(ChitClass::AxisRnfCom) == 0 => {
                    if self.s.turn == 1 {
                        Select::AxisFirst
                    } else {
                        self.finish_selection(None);
                        return;
                    }
                }
                _ => return,
            };
            self.s.phase = Phase::Select(next);
        }
    }

    /// 6.1(1), 6.2(4): everything selected goes into one cup with the SUPPLY chit.
    fn finish_selection(&mut self, first: Option<u8>) {
        let mut cup: Vec<u8> = self.s.picks[0].iter().chain(self.s.picks[1].iter()).copied().collect();
        for (i, c) in self.d.chits.iter().enumerate() {
            if c.class == ChitClass::Supply {
                for _ in 0..c.count {
                    cup.push(i as u8);
                }
            }
        }
        if let Some(f) = first {
            if let Some(pos) = cup.iter().position(|&c| c == f) {
                cup.remove(pos);
            }
        }
        cup.sort_unstable();
        let n = cup.len();
        self.s.cup = cup;
        self.journal
            .say(|| text!("{n} chits are in the cup.", "杯中共有 {n} 枚命令卡。"));
        self.journal
            .heading(|| text!("Command execution phase (7.0)", "命令实行阶段(7.0)"));
        match first {
            Some(f) => {
                let c = &self.d.chits[f as usize];
                let (en, zh) = (c.name_en.clone(), c.name_zh.clone());
                self.journal.say(|| {
                    text!(
                        "16.0(1): the Axis executes {en} first, without the cup.",
                        "16.0(1):轴心国军不经杯子直接执行{zh}。"
                    )
                });
                self.s.used.push(f);
                self.begin_exec(f);
            }
            None => self.s.phase = Phase::Draw,
        }
    }

    /// 7.1(1): draw one chit at random from the cup.
    pub(crate) fn draw(&mut self) {
        if self.s.phase != Phase::Draw {
            return;
        }
        let Some(chit) = self.s.rng.draw(&mut self.s.cup) else {
            self.end_turn();
            return;
        };
        self.s.used.push(chit);
        let c = &self.d.chits[chit as usize];
        let (en, zh) = (&c.name_en, &c.name_zh);
        let left = self.s.cup.len();
        self.journal
            .heading(|| text!("Drawn: {en} ({left} left in the cup)", "抽出:{zh}(杯中余 {left} 枚)"));
        self.begin_exec(chit);
    }

    fn set_exec(&mut self, chit: u8, side: Side, hq: Option<UnitId>, step: Step) {
        self.s.phase = Phase::Exec(Box::new(Exec {
            chit,
            side,
            hq,
            step,
            declared: Vec::new(),
            attacked: Vec::new(),
        }));
    }

    /// 7.2: carry out a chit.
    fn begin_exec(&mut self, chit: u8) {
        let c = self.d.chits[chit as usize].clone();
        match c.kind {
            ChitKind::Hq => {
                let hq = c.hq.expect("HQ chits name their HQ (checked on load)");
                let side = self.d.units[hq as usize].side;
                // 13.0(3): an HQ that is not on the map does nothing.
                if self.s.units[hq as usize].hex().is_none() {
                    self.journal.say(|| {
                        text!(
                            "13.0(3): {} is not on the map; the chit has no effect.",
                            "13.0(3):{}不在地图上,命令无效。",
                            c.name_en
                        )
                    });
                    self.finish_exec();
                    return;
                }
                let allied = self.d.units[hq as usize].nation != Nation::German && side == Side::Axis;
                self.activate(hq);
                let step = if allied {
                    Step::AlliedGerman { picked: 0 }
                } else {
                    Step::Move
                };
                self.set_exec(chit, side, Some(hq), step);
            }
            ChitKind::Stavka => {
                let any = (0..self.d.units.len()).any(|u| self.is_soviet_hq_on_map(u as UnitId));
                if !any {
                    self.journal.say(|| {
                        text!(
                            "7.2(3): no Soviet HQ is on the map; STAVKA has no effect.",
                            "7.2(3):地图上没有苏军司令部,STAVKA无效。"
                        )
                    });
                    self.finish_exec();
                    return;
                }
                self.set_exec(chit, Side::Soviet, None, Step::Stavka);
            }
            ChitKind::Reinf => {
                if c.side == Some(Side::Soviet) {
                    let hq_left = self.soviet_reinforcements();
                    self.set_exec(chit, Side::Soviet, None, Step::SovietReinf { hq_left });
                } else {
                    // 12.3: roll on the Axis reinforcement table.
                    let die = self.s.rng.d6();
                    let left = self.d.axis_reinf[(die - 1) as usize];
                    self.journal
                        .say(|| text!("12.3: Axis reinforcement roll {die}.", "12.3:轴心国增援掷骰 {die}。"));
                    self.set_exec(
                        chit,
                        Side::Axis,
                        None,
                        Step::AxisReinf(AxisReinf { die, left, from_box: 2 }),
                    );
                }
            }
            ChitKind::Supply => {
                self.journal
                    .say(|| text!("11.0: the supply procedure.", "11.0:补给程序。"));
                self.supply_check(Side::Soviet);
                self.supply_check(Side::Axis);
                // 11.2: either player rolls on the German withdrawal table.
                let die = self.s.rng.d6();
                let left = self.d.withdrawal[(die - 1) as usize];
                self.journal
                    .say(|| text!("11.2: German withdrawal roll {die}.", "11.2:德军转出判定掷骰 {die}。"));
                self.set_exec(
                    chit,
                    Side::Axis,
                    None,
                    Step::Supply(SupplyStage::Withdraw { die, left }),
                );
            }
        }
    }

    fn is_soviet_hq_on_map(&self, u: UnitId) -> bool {
        let def = &self.d.units[u as usize];
        def.side == Side::Soviet && def.is_hq() && self.s.units[u as usize].hex().is_some()
    }

    /// 8.0–8.3: activate every eligible unit within the HQ's command range, measured now.
    fn activate(&mut self, hq: UnitId) {
        let d = self.d.clone();
        let hdef = &d.units[hq as usize];
        let Some(at) = self.s.units[hq as usize].hex() else {
            return;
        };
        let mut n = 0;
        for (i, st) in self.s.units.iter_mut().enumerate() {
            let def = &d.units[i];
            let Some(h) = st.hex() else { continue };
            let is_self = i == hq as usize;
            // 8.1(4): an HQ cannot activate other HQs; 8.2: pure hex distance ≤ range;
            // 8.3(1): an Axis HQ activates only its own nationality.
            let eligible = is_self
                || (def.side == hdef.side
                    && !def.is_hq()
                    && d.map.grid.distance(at, h) <= hdef.range as u32
                    && (hdef.side == Side::Soviet || def.nation == hdef.nation));
            if eligible {
                st.active = true;
                st.moved = false;
                st.attacked = false;
                n += 1;
            }
        }
        self.journal.say(|| {
            sandtable_core::text::Text::new(
                format!("8.0: {} activates {n} units.", hdef.name_en),
                format!("8.0:{}激活了 {n} 个单位。", hdef.name_zh),
            )
        });
    }

    fn finish_exec(&mut self) {
        for u in &mut self.s.units {
            u.active = false;
            u.moved = false;
            u.attacked = false;
            u.spent = false;
        }
        if self.s.cup.is_empty() {
            self.end_turn();
        } else {
            self.s.phase = Phase::Draw;
        }
    }

    /// 5.0(5), 15.0: the end of the turn and the victory check.
    fn end_turn(&mut self) {
        let vp = self.victory_points();
        self.s.vp = vp;
        let turn = self.s.turn;
        self.journal.heading(|| {
            text!(
                "End of turn {turn}: the Axis has {vp} VP (15.0).",
                "第{turn}回合结束:轴心国军 {vp} VP(15.0)。"
            )
        });
        if !self.journal.off {
            let (with, without) = self.vp_hexes_held();
            let names = |list: &[Hex], zh: bool| -> String {
                list.iter()
                    .map(|&h| match self.d.map.place(h) {
                        Some(p) if zh => p.name_zh.clone(),
                        Some(p) => p.name_en.clone(),
                        None => self.d.map.grid.id(h).0,
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let (a, b, c, e) = (
                names(&with, false),
                names(&with, true),
                names(&without, false),
                names(&without, true),
            );
            let loss = self.s.loss_vp;
            self.journal.say(|| {
                text!(
                    "15.0(1): VP hexes held with a LOC: {a}; held but cut off: {c}; VP lost for units: {loss}.",
                    "15.0(1):有连络线的VP格:{b};被切断的:{e};单位损失VP:{loss}。"
                )
            });
        }
        if vp >= 85 {
            self.s.winner = Some(Side::Axis);
            self.s.phase = Phase::Over;
        } else if turn >= 9 {
            self.s.winner = Some(Side::Soviet);
            self.s.phase = Phase::Over;
        } else {
            self.s.turn += 1;
            self.start_turn();
        }
    }

    /// 15.0(1)–(2): 10 VP per VP hex the Axis controls and can trace a LOC to, less the VP
    /// lost for units removed by combat and supply.
    pub(crate) fn victory_points(&self) -> i32 {
        let held = self.vp_hexes_held().0.len();
        10 * held as i32 - self.s.loss_vp as i32
    }

    /// The VP hexes the Axis controls: those it can trace a LOC to, and those it cannot.
    pub fn vp_hexes_held(&self) -> (Vec<Hex>, Vec<Hex>) {
        let b = Board::new(&self.d, &self.s);
        let reach = with_search(|s| b.loc_reach(Side::Axis, s));
        self.d
            .vp_hexes
            .iter()
            .filter(|h| self.s.control[h.idx()] == Some(Side::Axis))
            .partition(|h| reach[h.idx()])
    }

    // ---------------------------------------------------------------- losses

    /// 10.5(1): one step loss. Returns whether the unit was removed.
    pub(crate) fn lose_step(&mut self, u: UnitId, removal_costs_vp: bool) -> bool {
        let def = &self.d.units[u as usize];
        let st = &mut self.s.units[u as usize];
        if !st.reduced && def.reduced.is_some() {
            st.reduced = true;
            self.journal.say(|| {
                sandtable_core::text::Text::new(
                    format!("{} is reduced.", def.name_en),
                    format!("{}减少战力。", def.name_zh),
                )
            });
            false
        } else {
            self.eliminate(u, removal_costs_vp);
            true
        }
    }

    /// Removes a unit from the map: 13.0(2) HQs go to the track (Soviet) or the rail box
    /// (Axis); A25 Soviet combat units return to the pool, Axis ones are gone; 15.0(2) VP.
    pub(crate) fn eliminate(&mut self, u: UnitId, removal_costs_vp: bool) {
        let def = &self.d.units[u as usize];
        let vp = if removal_costs_vp {
            rules::loss_vp(&self.d, u)
        } else {
            0
        };
        self.s.loss_vp += vp;
        let loc = match (def.side, def.is_hq()) {
            (Side::Soviet, true) => Loc::Track,
            (Side::Soviet, false) => Loc::Pool,
            (Side::Axis, true) => Loc::RailBox,
            (Side::Axis, false) => Loc::Eliminated,
        };
        let st = &mut self.s.units[u as usize];
        st.loc = loc;
        st.reduced = false;
        st.active = false;
        self.journal.say(|| {
            if vp > 0 {
                sandtable_core::text::Text::new(
                    format!("{} is eliminated (the Axis loses {vp} VP, 15.0(2)).", def.name_en),
                    format!("{}被消灭(轴心国军失去 {vp} VP,15.0(2))。", def.name_zh),
                )
            } else {
                sandtable_core::text::Text::new(
                    format!("{} is eliminated.", def.name_en),
                    format!("{}被消灭。", def.name_zh),
                )
            }
        });
    }

    /// 3.4(2), A16: a unit entering a city or town hex takes control of it for its side.
    pub(crate) fn enter_hex(&mut self, side: Side, h: Hex) {
        if (self.d.is_urban[h.idx()] || self.d.vp_hexes.contains(&h)) && self.s.control[h.idx()] != Some(side) {
            {
                self.s.control[h.idx()] = Some(side);
                if let Some(p) = self.d.map.place(h) {
                    let (en, zh) = (&p.name_en, &p.name_zh);
                    self.journal.say(|| {
                        let who = side.name();
                        sandtable_core::text::Text::new(
                            format!("{} takes control of {en}.", who.en),
                            format!("{}控制了{zh}。", who.zh),
                        )
                    });
                }
            }
        }
    }

    // ---------------------------------------------------------------- supply procedure

    /// 11.1: every unit of `side` that cannot trace a LOC loses one step (fortresses never do,
    /// 14.2(4)). The Soviets are checked first (11.1(1)).
    fn supply_check(&mut self, side: Side) {
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
            sandtable_core::text::Text::new(
                format!("11.1: {} supply check: {n} units without a LOC lose a step.", who.en),
                format!("11.1:{}补给判定:{n} 个无连络线的单位损失一步。", who.zh),
            )
        });
        for u in out {
            self.lose_step(u, true);
        }
    }

    /// 12.2: the Soviet player receives the current column of the track, and any HQ waiting
    /// in its box (13.0(2)1).
    fn soviet_reinforcements(&mut self) -> u8 {
        let col = self.s.track as usize;
        let mut arriving: Vec<(UnitId, Loc)> = (0..self.s.units.len())
            .filter(|&i| self.s.units[i].loc == Loc::Track)
            .map(|i| (i as UnitId, Loc::Track))
            .collect();
        let mut hq_left = 0;
        if (1..=9).contains(&col) {
            let d = self.d.clone();
            for (class, counts) in &d.soviet_track {
                let want = counts[col - 1] as usize;
                if *class == crate::data::SovietClass::Hq {
                    // The Soviet player chooses which HQs enter (a separate step).
                    hq_left = want as u8;
                    continue;
                }
                // Units of one class are alike: they come in manifest order.
                let pool: Vec<UnitId> = (0..self.s.units.len())
                    .filter(|&i| {
                        d.units[i].side == Side::Soviet
                            && self.s.units[i].loc == Loc::Pool
                            && crate::data::SovietClass::of(d.units[i].utype) == Some(*class)
                    })
                    .map(|i| i as UnitId)
                    .take(want)
                    .collect();
                let lost = want - pool.len();
                if lost > 0 {
                    self.journal.say(|| {
                        let name = class.name();
                        sandtable_core::text::Text::new(
                            format!("12.2(2): the pool lacks {lost} × {}; they are lost.", name.en),
                            format!("12.2(2):兵力池缺少 {lost} 个{},该增援失去。", name.zh),
                        )
                    });
                }
                arriving.extend(pool.into_iter().map(|u| (u, Loc::Pool)));
            }
        }
        for &(u, _) in &arriving {
            self.s.units[u as usize].loc = Loc::Arriving;
            self.s.units[u as usize].reduced = false;
        }
        let n = arriving.len() + hq_left as usize;
        self.journal.say(|| {
            text!(
                "12.2: Soviet reinforcements, number {col}: {n} units.",
                "12.2:苏军增援第 {col} 号:{n} 个单位。"
            )
        });
        self.s.arriving = arriving;
        // 12.2(3): the marker advances one box.
        self.s.track = self.s.track.saturating_add(1);
        hq_left
    }

    // ---------------------------------------------------------------- actions

    /// Carries out one action already known to be legal.
    pub(crate) fn act(&mut self, a: Action) {
        let side = self.exec().map(|e| e.side);
        match a {
            Action::Pick { chit } => {
                let c = &self.d.chits[chit as usize];
                let s = if c.side == Some(Side::Soviet) {
                    Side::Soviet
                } else {
                    Side::Axis
                };
                self.s.picks[s.seat() as usize].push(chit);
                let (en, zh) = (&c.name_en, &c.name_zh);
                self.journal
                    .whisper(s.seat(), || text!("You put {en} in the cup.", "你把{zh}放入杯中。"));
                if c.class == ChitClass::SovietExtra {
                    self.s.phase = Phase::Select(Select::AxisGer);
                }
                self.advance_selection();
            }
            Action::NoExtra => {
                self.s.phase = Phase::Select(Select::AxisGer);
                self.advance_selection();
            }
            Action::First { chit } => self.finish_selection(chit),
            Action::Choose { unit } => self.choose(unit),
            Action::EndChoose => self.end_choose(),
            Action::Move { unit, to, march } => self.do_move(unit, to, march),
            Action::EndMovement => {
                self.journal.say(|| text!("Combat segment (10.0).", "战斗小节(10.0)。"));
                self.exec_mut().step = Step::Declare;
            }
            Action::Declare { target, units } => {
                for &u in units.as_slice() {
                    self.s.units[u as usize].attacked = true;
                }
                self.exec_mut().declared.push(Attack { target, units });
            }
            Action::Undeclare { target } => {
                let e = self.exec_mut();
                if let Some(i) = e.declared.iter().position(|x| x.target == target) {
                    let at = e.declared.remove(i);
                    for &u in at.units.as_slice() {
                        self.s.units[u as usize].attacked = false;
                    }
                }
            }
            Action::EndDeclare => {
                let e = self.exec_mut();
                if e.declared.is_empty() {
                    self.finish_exec();
                } else {
                    e.step = Step::Order;
                }
            }
            Action::Resolve { target } => self.resolve(target),
            Action::Lose { unit } => self.combat_loss(unit),
            Action::Convert { yes } => {
                let Step::Combat(c) = &mut self.exec_mut().step else {
                    return;
                };
                if yes {
                    // 14.2(5): R becomes 1 step loss, RR 2.
                    c.defender_steps += c.retreat;
                    c.retreat = 0;
                }
                c.stage = CombatStage::DefenderLoss;
                let msg = if yes {
                    text!(
                        "14.2(5): the fortress holds; the retreat becomes step losses.",
                        "14.2(5):要塞坚守,退却改为战力损失。"
                    )
                } else {
                    text!("14.2(5): the defenders retreat.", "14.2(5):防守方选择退却。")
                };
                self.journal.say(|| msg);
            }
            Action::Retreat { unit, to } => self.retreat_step(unit, to),
            Action::Advance { unit, to } => self.advance(unit, to),
            Action::EndAdvance => self.end_combat(),
            Action::Place { unit, at } if self.s.phase == Phase::Setup => self.set_up(unit, at),
            Action::Place { unit, at } => {
                let s = self.d.units[unit as usize].side;
                self.s.units[unit as usize].loc = Loc::Map(at);
                self.s.arriving.retain(|&(u, _)| u != unit);
                self.enter_hex(s, at);
                let d = &self.d;
                self.journal.say(|| {
                    let def = &d.units[unit as usize];
                    let (en, zh, hid) = (&def.name_en, &def.name_zh, d.map.grid.id(at));
                    text!("12.1: {en} enters at {hid}.", "12.1:{zh}在{hid}登场。")
                });
            }
            Action::Fortify { hex } => {
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
            Action::NoFortress => self.finish_exec(),
        }
        let _ = side;
    }

    fn choose(&mut self, unit: UnitId) {
        let step = self.exec().map(|e| e.step.clone());
        match step {
            Some(Step::Stavka) => {
                self.activate(unit);
                let e = self.exec_mut();
                e.hq = Some(unit);
                e.step = Step::Move;
            }
            Some(Step::AlliedGerman { picked }) => {
                self.s.units[unit as usize].active = true;
                self.exec_mut().step = Step::AlliedGerman { picked: picked + 1 };
            }
            Some(Step::AxisReinf(mut r)) => {
                let st = self.s.units[unit as usize];
                if st.loc == Loc::RailBox {
                    r.from_box = r.from_box.saturating_sub(1);
                } else if let Some(t) = self.reinf_type_index(&r, unit) {
                    r.left[t] -= 1;
                }
                // 12.4: units from the box keep their reduced side; 12.1(3) others full.
                self.s.units[unit as usize].loc = Loc::Arriving;
                self.s.arriving.push((unit, st.loc));
                self.exec_mut().step = Step::AxisReinf(r);
            }
            Some(Step::SovietReinf { hq_left }) => {
                self.s.units[unit as usize].loc = Loc::Arriving;
                self.s.units[unit as usize].reduced = false;
                self.s.arriving.push((unit, Loc::Pool));
                self.exec_mut().step = Step::SovietReinf {
                    hq_left: hq_left.saturating_sub(1),
                };
            }
            Some(Step::Supply(SupplyStage::Withdraw { die, mut left })) => {
                if let Some(t) = withdraw_class(&self.d.units[unit as usize]) {
                    left[t] = left[t].saturating_sub(1);
                }
                self.s.units[unit as usize].loc = Loc::Withdrawn;
                let def = &self.d.units[unit as usize];
                let (en, zh) = (&def.name_en, &def.name_zh);
                self.journal
                    .say(|| text!("11.2: {en} is withdrawn.", "11.2:{zh}转出。"));
                self.exec_mut().step = Step::Supply(SupplyStage::Withdraw { die, left });
            }
            Some(Step::Supply(SupplyStage::RailBox)) => {
                self.s.units[unit as usize].loc = Loc::RailBox;
                let def = &self.d.units[unit as usize];
                let (en, zh) = (&def.name_en, &def.name_zh);
                self.journal.say(|| {
                    text!(
                        "11.3: {en} goes to the rail transport box.",
                        "11.3:{zh}进入铁道运输box。"
                    )
                });
            }
            _ => {}
        }
    }

    fn end_choose(&mut self) {
        let step = self.exec().map(|e| e.step.clone());
        match step {
            Some(Step::AlliedGerman { .. }) => self.exec_mut().step = Step::Move,
            Some(Step::AxisReinf(_)) => self.exec_mut().step = Step::Place,
            Some(Step::Supply(SupplyStage::RailBox)) => self.exec_mut().step = Step::Supply(SupplyStage::Fortress),
            _ => {}
        }
    }

    /// Which Axis reinforcement table type (pz, ss, inf, hun, rum, it) a pool unit fills.
    pub(crate) fn reinf_type_index(&self, r: &AxisReinf, unit: UnitId) -> Option<usize> {
        (0..6).find(|&t| r.left[t] > 0 && reinf_matches(&self.d.units[unit as usize], t))
    }

    fn do_move(&mut self, unit: UnitId, to: Hex, march: bool) {
        let side = self.d.units[unit as usize].side;
        let mut path = None;
        crate::moves::with_moves(&self.d, &self.s, std::iter::once(unit), |_, m| {
            let reach = if march { m.march.as_ref() } else { Some(&m.normal) };
            path = reach.and_then(|r| r.path(to));
        });
        let path = path.unwrap_or_else(|| vec![to]);
        for &h in path.iter().skip(1) {
            self.enter_hex(side, h);
        }
        let from = self.s.units[unit as usize].hex();
        let st = &mut self.s.units[unit as usize];
        st.loc = Loc::Map(to);
        st.moved = true;
        let d = &self.d;
        self.journal.say(|| {
            let def = &d.units[unit as usize];
            let g = &d.map.grid;
            let (en, zh) = (&def.name_en, &def.name_zh);
            let (a, b) = (from.map(|h| g.id(h).0).unwrap_or_default(), g.id(to).0);
            let how = if march {
                text!(" in march formation", "(行军队形)")
            } else {
                text!("", "")
            };
            sandtable_core::text::Text::new(
                format!("{en} moves {a} → {b}{}.", how.en),
                format!("{zh}从{a}移动到{b}{}。", how.zh),
            )
        });
    }

    // ---------------------------------------------------------------- combat

    /// 10.2(3), 10.4: roll and apply the CRT to a declared attack.
    fn resolve(&mut self, target: Hex) {
        let e = self.exec_mut();
        let Some(i) = e.declared.iter().position(|x| x.target == target) else {
            return;
        };
        let attack = e.declared.remove(i);
        e.attacked.push(target);
        let odds = Board::new(&self.d, &self.s).odds(target, attack.units.as_slice());
        let Some(col) = odds.column else {
            // A13: odds cannot fall after declaration, but be safe: the attack is called off.
            self.journal.say(|| {
                text!(
                    "10.3(4): the odds fell below 1-1; the attack is called off.",
                    "10.3(4):战力比低于1-1,攻击取消。"
                )
            });
            self.after_combat();
            return;
        };
        let die = self.s.rng.d6();
        let r = self.d.crt.result(col, die as i32);
        let g = &self.d.map.grid;
        let (hid, label, res) = (g.id(target), self.d.crt.columns.label(col), r.label());
        let raw = odds.raw.map(|c| self.d.crt.columns.label(c)).unwrap_or_default();
        let (a, dfn, sh) = (odds.attack, odds.defence, odds.shifts);
        self.journal.say(|| {
            text!(
                "Attack on {hid}: {a} vs {dfn} = {raw}, {sh} shift(s) left (10.3(3)) → {label}; die {die}: {res}.",
                "攻击{hid}:{a}对{dfn}={raw},左移{sh}列(10.3(3))→{label};骰子{die}:{res}。"
            )
        });
        let stage = CombatStage::AttackerLoss;
        let c = Combat {
            target,
            attackers: attack.units,
            column: col as u8,
            die,
            attacker_steps: r.attacker_steps,
            defender_steps: r.defender_steps,
            retreat: r.retreat,
            stage,
            retreating: Vec::new(),
            trail: Vec::new(),
            advanced: Vec::new(),
        };
        self.exec_mut().step = Step::Combat(Box::new(c));
    }

    fn combat_loss(&mut self, unit: UnitId) {
        let Some(Step::Combat(c)) = self.exec().map(|e| e.step.clone()) else {
            return;
        };
        let mut c = *c;
        if c.stage == CombatStage::AttackerLoss {
            c.attacker_steps -= 1;
            self.lose_step(unit, true);
        } else {
            c.defender_steps -= 1;
            if unit == FORTRESS {
                // 14.2(6): the fortress absorbs a step: level 2 → 1 → removed (14.3(3)).
                if let Some(i) = self.s.fortresses.iter().position(|f| f.hex == c.target) {
                    if self.s.fortresses[i].level >= 2 {
                        self.s.fortresses[i].level = 1;
                    } else {
                        self.s.fortresses.remove(i);
                    }
                }
                self.journal
                    .say(|| text!("The fortress loses a step.", "要塞损失一步。"));
            } else {
                self.lose_step(unit, true);
            }
        }
        self.exec_mut().step = Step::Combat(Box::new(c));
    }

    fn retreat_step(&mut self, unit: UnitId, to: Hex) {
        let side = self.d.units[unit as usize].side;
        let zoc = Board::new(&self.d, &self.s).enemy_zoc(side, to);
        self.s.units[unit as usize].loc = Loc::Map(to);
        self.s.units[unit as usize].spent = true;
        self.enter_hex(side, to);
        let g = &self.d.map.grid;
        let def = &self.d.units[unit as usize];
        let (en, zh, hid) = (def.name_en.clone(), def.name_zh.clone(), g.id(to));
        self.journal
            .say(|| text!("{en} retreats to {hid}.", "{zh}退却到{hid}。"));
        // 10.6(4): each enemy ZOC hex entered costs a step (not in a fortress hex, 14.2(2)).
        let removed = if zoc {
            self.journal.say(|| {
                text!(
                    "10.6(4): it retreats into an enemy ZOC and loses a step.",
                    "10.6(4):退入敌ZOC,损失一步。"
                )
            });
            self.lose_step(unit, true)
        } else {
            false
        };
        let Some(Step::Combat(c)) = self.exec().map(|e| e.step.clone()) else {
            return;
        };
        let mut c = *c;
        if let Some(first) = c.retreating.first_mut() {
            first.1 = first.1.saturating_sub(1);
            first.2 += 1;
            c.trail.push(to);
            if removed {
                c.retreating.remove(0);
                c.trail.clear();
            } else if first.1 == 0 {
                // 10.6(5): overstacked at the end: one more hex.
                let room = Board::new(&self.d, &self.s).has_room(to, Some(unit));
                if room {
                    c.retreating.remove(0);
                    c.trail.clear();
                } else {
                    first.1 = 1;
                    self.journal.say(|| {
                        text!(
                            "10.6(5): the hex would be overstacked; one more hex.",
                            "10.6(5):该格超过堆叠,再退一格。"
                        )
                    });
                }
            }
        }
        self.exec_mut().step = Step::Combat(Box::new(c));
    }

    fn advance(&mut self, unit: UnitId, to: Hex) {
        let side = self.d.units[unit as usize].side;
        let Some(Step::Combat(c)) = self.exec().map(|e| e.step.clone()) else {
            return;
        };
        let mut c = *c;
        if to != c.target {
            self.enter_hex(side, c.target);
        }
        self.enter_hex(side, to);
        self.s.units[unit as usize].loc = Loc::Map(to);
        c.advanced.push(unit);
        let def = &self.d.units[unit as usize];
        let (en, zh, hid) = (def.name_en.clone(), def.name_zh.clone(), self.d.map.grid.id(to));
        self.journal
            .say(|| text!("10.7: {en} advances to {hid}.", "10.7:{zh}挺进到{hid}。"));
        self.exec_mut().step = Step::Combat(Box::new(c));
    }

    fn end_combat(&mut self) {
        self.after_combat();
    }

    fn after_combat(&mut self) {
        let e = self.exec_mut();
        if e.declared.is_empty() {
            self.finish_exec();
        } else {
            e.step = Step::Order;
        }
    }

    /// Carries the game forward through everything that needs no decision.
    /// The legal actions of the decision it stops at are kept, to be read back.
    pub(crate) fn settle(&mut self) {
        let mut legal = self.forget_legal();
        for _ in 0..100_000 {
            legal.clear();
            if self.normalise(&mut legal) {
                continue;
            }
            if let Pending::Seat(_) = self.pending_now() {
                if legal.is_empty() {
                    self.legal(&mut legal);
                }
                // A decision with a single possible answer is taken at once.
                if legal.len() == 1 && auto_ok(&legal[0]) {
                    let a = legal[0];
                    self.act(a);
                    continue;
                }
                self.cache_legal(legal);
            }
            return;
        }
    }

    /// One forced transition, if the current step has one. Returns whether it changed anything.
    /// Where a step is forced when it has no legal action, they are listed in `legal`; left
    /// there when nothing changes, they are the legal actions of the decision now pending.
    fn normalise(&mut self, legal: &mut Vec<Action>) -> bool {
        if self.s.phase == Phase::Setup {
            // 4.0: when every unit is set up, turn 1 begins.
            if crate::setup::next_setup_unit(&self.d, &self.s).is_none() {
                self.finish_setup();
                return true;
            }
            return false;
        }
        let Some(e) = self.exec() else {
            if let Phase::Select(_) = self.s.phase {
                let before = self.s.phase.clone();
                self.advance_selection();
                return self.s.phase != before;
            }
            return false;
        };
        let side = e.side;
        let step = e.step.clone();
        match step {
            Step::AlliedGerman { picked } if picked >= 2 => {
                self.exec_mut().step = Step::Move;
                true
            }
            Step::AxisReinf(mut r) => {
                // 12.3(2): a type the pool lacks is lost.
                #[allow(clippy::needless_range_loop)]
                for t in 0..6 {
                    if r.left[t] > 0 {
                        let have = self.pool_units_of(t).count();
                        if have == 0 {
                            let n = r.left[t];
                            self.journal.say(|| {
                                sandtable_core::text::Text::new(
                                    format!(
                                        "12.3(2): the pool has no {} for {n} reinforcement(s); lost.",
                                        REINF_TYPES[t]
                                    ),
                                    format!("12.3(2):兵力池没有{},{n} 个增援失去。", REINF_TYPES[t]),
                                )
                            });
                            r.left[t] = 0;
                            self.exec_mut().step = Step::AxisReinf(r);
                            return true;
                        }
                        if have <= r.left[t] as usize {
                            let take: Vec<UnitId> = self.pool_units_of(t).collect();
                            for u in take {
                                self.s.units[u as usize].loc = Loc::Arriving;
                                self.s.arriving.push((u, Loc::Pool));
                            }
                            r.left[t] = 0;
                            self.exec_mut().step = Step::AxisReinf(r);
                            return true;
                        }
                        return false;
                    }
                }
                let in_box = self.s.units.iter().any(|u| u.loc == Loc::RailBox);
                if r.from_box == 0 || !in_box {
                    self.exec_mut().step = Step::Place;
                    return true;
                }
                false
            }
            Step::SovietReinf { hq_left } => {
                let any = (0..self.s.units.len()).any(|i| {
                    self.s.units[i].loc == Loc::Pool && self.d.units[i].side == Side::Soviet && self.d.units[i].is_hq()
                });
                if hq_left == 0 || !any {
                    if hq_left > 0 {
                        self.journal.say(|| {
                            text!(
                                "12.2(2): the pool has no HQ; {hq_left} lost.",
                                "12.2(2):兵力池没有司令部,{hq_left} 个失去。"
                            )
                        });
                    }
                    self.exec_mut().step = Step::Place;
                    return true;
                }
                false
            }
            Step::Place => {
                let Some(&(u, from)) = self.s.arriving.first() else {
                    self.finish_exec();
                    return true;
                };
                self.legal(legal);
                if legal.is_empty() {
                    // 12.1: nowhere to enter by rail: the unit goes back where it came from
                    // (the pool, the rail box, or the track, 13.0(2)).
                    self.s.units[u as usize].loc = from;
                    self.s.arriving.remove(0);
                    let def = &self.d.units[u as usize];
                    let (en, zh) = (def.name_en.clone(), def.name_zh.clone());
                    self.journal.say(|| {
                        text!(
                            "12.1: no railway hex can receive {en}; it waits off the map.",
                            "12.1:没有可登场的铁道格,{zh}留在地图外。"
                        )
                    });
                    return true;
                }
                false
            }
            Step::Supply(SupplyStage::Withdraw { die, mut left }) => {
                for t in 0..3 {
                    if left[t] > 0 {
                        // The withdrawal candidates of type `t`.
                        self.legal(legal);
                        if legal.is_empty() {
                            // 11.2(3): none on the map or in the box: that part does not happen.
                            left[t] = 0;
                            self.exec_mut().step = Step::Supply(SupplyStage::Withdraw { die, left });
                            return true;
                        }
                        return false;
                    }
                }
                self.exec_mut().step = Step::Supply(SupplyStage::RailBox);
                true
            }
            Step::Supply(SupplyStage::Fortress) => {
                if self.fortress_sites().is_empty() {
                    self.finish_exec();
                    return true;
                }
                false
            }
            Step::Combat(c) => self.normalise_combat(side, *c, legal),
            _ => false,
        }
    }

    fn normalise_combat(&mut self, side: Side, mut c: Combat, legal: &mut Vec<Action>) -> bool {
        let enemy = side.enemy();
        match c.stage {
            CombatStage::AttackerLoss => {
                let alive = c
                    .attackers
                    .as_slice()
                    .iter()
                    .any(|&u| self.s.units[u as usize].hex().is_some());
                if c.attacker_steps == 0 || !alive {
                    c.attacker_steps = 0;
                    let fort = self.s.fortresses.iter().any(|f| f.hex == c.target);
                    c.stage = if c.retreat > 0 && fort {
                        CombatStage::Convert
                    } else {
                        CombatStage::DefenderLoss
                    };
                    self.exec_mut().step = Step::Combat(Box::new(c));
                    return true;
                }
                false
            }
            CombatStage::Convert => false,
            CombatStage::DefenderLoss => {
                let b = Board::new(&self.d, &self.s);
                let any = !b.units_at(c.target).is_empty() || b.fortress[c.target.idx()] > 0;
                if c.defender_steps == 0 || !any {
                    c.defender_steps = 0;
                    c.stage = CombatStage::Retreat;
                    c.retreating = if c.retreat > 0 {
                        b.units_at(c.target)
                            .iter()
                            .filter(|&&u| self.d.units[u as usize].side == enemy)
                            .map(|&u| (u, c.retreat, 0))
                            .collect()
                    } else {
                        Vec::new()
                    };
                    c.trail.clear();
                    self.exec_mut().step = Step::Combat(Box::new(c));
                    return true;
                }
                false
            }
            CombatStage::Retreat => {
                let Some(&(u, _, _)) = c.retreating.first() else {
                    // 10.7(1): an advance only into a vacated hex (a standing fortress keeps
                    // it occupied, A26).
                    let b = Board::new(&self.d, &self.s);
                    let vacated = b.units_at(c.target).is_empty() && b.fortress[c.target.idx()] == 0;
                    if vacated {
                        c.stage = CombatStage::Advance;
                        self.exec_mut().step = Step::Combat(Box::new(c));
                    } else {
                        self.after_combat();
                    }
                    return true;
                };
                if self.s.units[u as usize].hex().is_none() {
                    c.retreating.remove(0);
                    c.trail.clear();
                    self.exec_mut().step = Step::Combat(Box::new(c));
                    return true;
                }
                // The retreat options.
                self.legal(legal);
                if legal.is_empty() {
                    // 10.6(3): no hex to retreat into: eliminated.
                    let def = &self.d.units[u as usize];
                    let (en, zh) = (def.name_en.clone(), def.name_zh.clone());
                    self.journal.say(|| {
                        text!(
                            "10.6(3): {en} cannot retreat and is eliminated.",
                            "10.6(3):{zh}无法退却,被消灭。"
                        )
                    });
                    self.eliminate(u, true);
                    c.retreating.remove(0);
                    c.trail.clear();
                    self.exec_mut().step = Step::Combat(Box::new(c));
                    return true;
                }
                false
            }
            CombatStage::Advance => false,
        }
    }

    pub(crate) fn pool_units_of(&self, t: usize) -> impl Iterator<Item = UnitId> + '_ {
        (0..self.s.units.len())
            .filter(move |&i| self.s.units[i].loc == Loc::Pool && reinf_matches(&self.d.units[i], t))
            .map(|i| i as UnitId)
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

    /// 14.1: hexes where the Soviets may build or raise a fortress now.
    pub(crate) fn fortress_sites(&self) -> Vec<Hex> {
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

    /// 10.6: the hexes the first retreating unit may enter next.
    pub(crate) fn retreat_options(&self, c: &Combat) -> Vec<Hex> {
        let Some(&(u, _, done)) = c.retreating.first() else {
            return Vec::new();
        };
        let side = self.d.units[u as usize].side;
        let Some(at) = self.s.units[u as usize].hex() else {
            return Vec::new();
        };
        let d = &self.d;
        let b = Board::new(d, &self.s);
        let dist = with_search(|s| b.supply_distance(side, s));
        let mut options: Vec<(Hex, u32, bool)> = Vec::new();
        for (dir, n) in d.map.grid.neighbours(at) {
            let bits = d.map.side(at, dir);
            if bits & d.s.prohibited != 0 || b.enemy_in(side, n) || n == c.target || c.trail.contains(&n) {
                continue;
            }
            // 10.6(3)2–3: all-sea and impassable hexes eliminate; never chosen.
            if d.map.terrain(n) & (d.t.sea | d.t.impassable) != 0 {
                continue;
            }
            // 10.6(3)4: a second retreat hex across an unbridged major river eliminates.
            if done >= 1 && bits & d.s.major != 0 && bits & (d.s.road | d.s.rail) == 0 {
                continue;
            }
            options.push((n, dist[n.idx()], b.enemy_zoc(side, n)));
        }
        // 10.6(6), A18: toward the supply source by the shortest distance; then hexes free of
        // enemy ZOC before ZOC ones (overstacking, which only lengthens the retreat, is preferred
        // to a step loss).
        let best = options.iter().map(|o| o.1).min().unwrap_or(u32::MAX);
        options.retain(|o| o.1 == best);
        if options.iter().any(|o| !o.2) {
            options.retain(|o| !o.2);
        }
        options.into_iter().map(|o| o.0).collect()
    }
}

/// Forced single answers taken at once. Ending a segment is not forced when it is the only
/// choice left only because everything was done: it is, and taking it is harmless.
fn auto_ok(_a: &Action) -> bool {
    true
}

pub(crate) const REINF_TYPES: [&str; 6] = ["Pz", "SS", "Inf", "Hun", "Rum", "It"];

/// 12.3: whether a unit is of Axis reinforcement table type `t` (pz, ss, inf, hun, rum, it).
pub(crate) fn reinf_matches(def: &crate::data::UnitDef, t: usize) -> bool {
    if def.side != Side::Axis || def.is_hq() {
        return false;
    }
    match t {
        0 => def.nation == Nation::German && def.utype == UType::Pz,
        1 => def.nation == Nation::German && def.utype == UType::Ss,
        // A23: German infantry includes mountain and Jäger divisions.
        2 => def.nation == Nation::German && matches!(def.utype, UType::Inf | UType::Mt | UType::Jg),
        // A22: any division of that nationality.
        3 => def.nation == Nation::Hungarian,
        4 => def.nation == Nation::Romanian,
        5 => def.nation == Nation::Italian,
        _ => false,
    }
}

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

//! Combat (10.0): declaring attacks (10.1, 10.2), the odds (10.3), the die and the results
//! table (10.4), step losses (10.5, with the fortress of 14.2), retreats (10.6) and the advance
//! after combat (10.7).
//!
//! Declarations and the order of resolution are steps of the command ([`Step::Declare`],
//! [`Step::Order`]); each attack resolved is a die ([`Roll::Combat`]) and then a
//! [`Frame::Combat`] above the command, going through its stages.

use crate::data::Side;
use crate::rules::{self, Board};
use crate::sequence::not_now;
use crate::state::*;
use crate::StalingradBlitz;
use sandtable_core::game::{Mark, Refusal, Who};
use sandtable_core::hex::Hex;
use sandtable_core::search::with_thread_search as with_search;
use sandtable_core::text;
use sandtable_core::text::Text;

impl StalingradBlitz {
    // ---------------------------------------------------------------- 10.1, 10.2 declaring

    /// The units that could attack `target` now, if it may be attacked.
    pub(crate) fn attackers_of(&self, b: &Board, e: &Exec, target: Hex) -> Vec<UnitId> {
        let d = &self.d;
        let side = e.side;
        // 10.0: empty hexes cannot be attacked; 10.1(3): each hex once per combat segment;
        // 10.1(5): nothing across impassable terrain.
        let occupied = b.owner[target.idx()] == Some(side.enemy());
        if !occupied || e.attacked.contains(&target) || e.declared.iter().any(|a| a.target == target) {
            return Vec::new();
        }
        if d.map.terrain(target) & d.t.impassable != 0 {
            return Vec::new();
        }
        let mut list = Vec::new();
        for (dir, n) in d.map.grid.neighbours(target) {
            if d.map.side(target, dir) & d.s.prohibited != 0 {
                continue;
            }
            for &u in b.units_at(n) {
                let st = &self.s.units[u as usize];
                // 10.1(2): only activated units; 10.1(1): each attacks once.
                if st.active && !st.attacked && d.units[u as usize].side == side {
                    list.push(u);
                }
            }
        }
        list.truncate(12);
        list
    }

    /// 10.0–10.3: whether `units` may attack `target` now, and if not, why.
    fn may_declare(&self, e: &Exec, target: Hex, units: &UnitList) -> Result<(), Refusal> {
        let d = &self.d;
        let r = |rule: &str, t| Err(Refusal::new(rule, t));
        if target.idx() >= d.map.grid.len() {
            return r("10.0", text!("that hex is not on the map", "该格不在地图上"));
        }
        let b = Board::new(d, &self.s);
        let hid = d.map.grid.id(target);
        if b.owner[target.idx()] != Some(e.side.enemy()) {
            return r(
                "10.0",
                text!(
                    "{hid} holds no enemy unit: empty hexes cannot be attacked",
                    "{hid}没有敌军:不能攻击空格"
                ),
            );
        }
        if e.attacked.contains(&target) || e.declared.iter().any(|x| x.target == target) {
            return r(
                "10.1(3)",
                text!(
                    "{hid} has already been attacked in this combat segment",
                    "{hid}本战斗小节已被攻击过"
                ),
            );
        }
        if d.map.terrain(target) & d.t.impassable != 0 {
            return r(
                "10.1(5)",
                text!("{hid} is impassable: it cannot be attacked", "{hid}不可通行:不能攻击"),
            );
        }
        let list = units.as_slice();
        if list.is_empty() {
            return r(
                "10.2(1)",
                text!("an attack needs at least one unit", "攻击至少需要一个单位"),
            );
        }
        if list.windows(2).any(|w| w[0] >= w[1]) {
            return r(
                "10.2(1)",
                text!(
                    "name each attacking unit once, in the order of the counter list",
                    "每个攻击单位只列一次,按算子表顺序"
                ),
            );
        }
        let attackers = self.attackers_of(&b, e, target);
        for &u in list {
            let Some(st) = self.s.units.get(u as usize) else {
                return r("10.0", text!("there is no such unit", "没有这个单位"));
            };
            let name = &d.units[u as usize];
            let (en, zh) = (&name.name_en, &name.name_zh);
            if !st.active {
                return r(
                    "10.1(2)",
                    text!("{en} is not activated and cannot attack", "{zh}未被激活,不能攻击"),
                );
            }
            if st.attacked {
                return r(
                    "10.1(1)",
                    text!("{en} already attacks another hex", "{zh}已经攻击另一格"),
                );
            }
            if !attackers.contains(&u) {
                return r("10.0", text!("{en} is not adjacent to {hid}", "{zh}不与{hid}相邻"));
            }
        }
        let o = b.odds(target, list);
        if o.attack == 0 {
            return r(
                "10.3(4)",
                text!(
                    "the attack strength is 0 (halved across a river and rounded down, 1.0(2), 10.3(1)1): that is below 1-1 whatever the defence, and the attack is not allowed",
                    "攻击力为0(渡河减半后舍去小数,1.0(2)、10.3(1)1):无论防御力多少都低于1-1,不能攻击"
                ),
            );
        }
        if o.column.is_none() {
            return r(
                "10.3(4)",
                text!(
                    "the odds are below 1-1 after terrain shifts ({} vs {}, {} shift(s)): the attack is not allowed",
                    "地形修正后战力比低于1-1({}对{},左移{}列):不能攻击",
                    o.attack,
                    o.defence,
                    o.shifts
                ),
            );
        }
        Ok(())
    }

    /// 10.2(1): every attack that could be declared now (odds of at least 1-1, 10.3(4)), the
    /// declarations that may be taken back, and ending; or, once declared, the attacks to
    /// resolve next.
    pub(crate) fn legal_declarations(&self, e: &Exec, out: &mut Vec<Action>) {
        if e.step == Step::Order {
            for a in &e.declared {
                out.push(Action::Resolve { target: a.target });
            }
            return;
        }
        let d = &self.d;
        let b = Board::new(d, &self.s);
        let mut targets: Vec<Hex> = Vec::new();
        for st in self.s.units.iter() {
            if !st.active || st.attacked {
                continue;
            }
            let Some(h) = st.hex() else { continue };
            for (_, n) in d.map.grid.neighbours(h) {
                if b.owner[n.idx()] == Some(e.side.enemy()) && !targets.contains(&n) {
                    targets.push(n);
                }
            }
        }
        targets.sort();
        for t in targets {
            let attackers = self.attackers_of(&b, e, t);
            // Each attacker's strength, worked out once for all the sets it is in: the odds of
            // each set as `may_declare` works them out (`Board::odds`), faster.
            let strength: Vec<Option<(u32, bool)>> = attackers.iter().map(|&u| b.attack_strength(u, t)).collect();
            let k = attackers.len();
            let mut chosen = [0u16; 12];
            for mask in 1u32..(1 << k) {
                let mut m = 0;
                let (mut plain, mut across) = (0, 0);
                for (j, &u) in attackers.iter().enumerate() {
                    if mask & (1 << j) != 0 {
                        chosen[m] = u;
                        m += 1;
                        match strength[j] {
                            Some((a, true)) => across += a,
                            Some((a, false)) => plain += a,
                            None => {}
                        }
                    }
                }
                if b.odds_of(t, plain, across).column.is_some() {
                    out.push(Action::Declare {
                        target: t,
                        units: UnitList::from_slice(&chosen[..m]).clone_sorted(),
                    });
                }
            }
        }
        for a in &e.declared {
            out.push(Action::Undeclare { target: a.target });
        }
        out.push(Action::EndDeclare);
    }

    pub(crate) fn check_declaration(&self, e: &Exec, a: &Action) -> Result<(), Refusal> {
        let declared = |target: Hex| e.declared.iter().any(|x| x.target == target);
        match (&e.step, *a) {
            (Step::Declare, Action::Declare { target, units }) => self.may_declare(e, target, &units),
            (Step::Declare, Action::Undeclare { target }) | (Step::Order, Action::Resolve { target })
                if declared(target) =>
            {
                Ok(())
            }
            (Step::Declare, Action::Undeclare { .. }) | (Step::Order, Action::Resolve { .. }) => Err(Refusal::new(
                "10.2(1)",
                text!("no attack on that hex has been declared", "没有宣言对该格的攻击"),
            )),
            (Step::Declare, Action::EndDeclare) => Ok(()),
            (Step::Order, Action::Declare { .. }) => Err(Refusal::new(
                "10.2(1)",
                text!(
                    "every attack is declared before the first is resolved",
                    "所有攻击须在第一次结算前宣言完毕"
                ),
            )),
            _ => Err(not_now()),
        }
    }

    pub(crate) fn declaration(&mut self, a: &Action) {
        match *a {
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
            _ => {}
        }
    }

    // ---------------------------------------------------------------- 10.3, 10.4 resolving

    /// 10.2(3), 10.3: the declared attack on `target` comes next: its odds, then the die.
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
        self.engine.push(Frame::Roll(Roll::Combat {
            target,
            attackers: attack.units,
            column: col as u8,
        }));
    }

    /// 10.4: the die is cast; the results table says the losses and the retreat.
    pub(crate) fn combat_rolled(&mut self, target: Hex, attackers: UnitList, column: u8, die: u8) {
        let col = column as usize;
        let odds = Board::new(&self.d, &self.s).odds(target, attackers.as_slice());
        let r = self.d.crt.result(col, die as i32);
        let g = &self.d.map.grid;
        let (hid, label, res) = (g.id(target), self.d.crt.columns.label(col), r.label());
        let raw = odds.raw.map(|c| self.d.crt.columns.label(c)).unwrap_or_default();
        let (a, dfn, sh) = (odds.attack, odds.defence, odds.shifts);
        let (d, s) = (&self.d, &self.s);
        self.journal.say_marked(
            || {
                text!(
                    "Attack on {hid}: {a} vs {dfn} = {raw}, {sh} shift(s) left (10.3(3)) → {label}; die {die}: {res}.",
                    "攻击{hid}:{a}对{dfn}={raw},左移{sh}列(10.3(3))→{label};骰子{die}:{res}。"
                )
            },
            || {
                let mut from: Vec<String> = Vec::new();
                for &u in attackers.as_slice() {
                    if let Some(h) = s.units[u as usize].hex().map(|h| g.id(h).0) {
                        if !from.contains(&h) {
                            from.push(h);
                        }
                    }
                }
                [Mark::Attack {
                    units: attackers
                        .as_slice()
                        .iter()
                        .map(|&u| d.units[u as usize].id.clone())
                        .collect(),
                    from,
                    at: hid.0.clone(),
                }]
            },
        );
        self.engine.push(Frame::Combat(Box::new(Combat {
            target,
            attackers,
            column,
            die,
            attacker_steps: r.attacker_steps,
            defender_steps: r.defender_steps,
            retreat: r.retreat,
            stage: CombatStage::AttackerLoss,
            retreating: Vec::new(),
            trail: Vec::new(),
            advanced: Vec::new(),
        })));
    }

    /// The combat being resolved, to change it (it is on top while it is carried out).
    fn combat_mut(&mut self) -> &mut Combat {
        match self.engine.frames_mut().last_mut() {
            Some(Frame::Combat(c)) => c,
            _ => unreachable!("a combat stage outside its combat"),
        }
    }

    /// The side that attacks: the command's.
    fn attacker(&self) -> Side {
        self.exec().map(|e| e.side).unwrap_or(Side::Axis)
    }

    /// Who decides at a combat's stage; a stage with nothing to do passes by itself.
    pub(crate) fn who_fights(&self, c: &Combat) -> Who {
        let attacker = self.attacker();
        let on_map = |u: UnitId| self.s.units[u as usize].hex().is_some();
        let defenders_left = || {
            self.s.units.iter().any(|u| u.hex() == Some(c.target))
                || self.s.fortresses.iter().any(|f| f.hex == c.target)
        };
        let (auto, side) = match c.stage {
            CombatStage::AttackerLoss => (
                c.attacker_steps == 0 || !c.attackers.as_slice().iter().any(|&u| on_map(u)),
                attacker,
            ),
            CombatStage::Convert => (false, attacker.enemy()),
            CombatStage::DefenderLoss => (c.defender_steps == 0 || !defenders_left(), attacker.enemy()),
            CombatStage::Retreat => (
                c.retreating.first().is_none_or(|&(u, _, _)| !on_map(u)),
                attacker.enemy(),
            ),
            CombatStage::Advance => (false, attacker),
        };
        if auto {
            Who::Auto
        } else {
            Who::Seat(side.seat())
        }
    }

    /// 10.5(2): the units that may take a step loss at the current stage.
    fn may_lose(&self, c: &Combat, unit: UnitId) -> Result<(), Refusal> {
        let ok = match c.stage {
            // 10.4(2)1, 10.5(2): the attacker spreads Ax over the attacking units.
            CombatStage::AttackerLoss => {
                c.attackers.contains(unit) && self.s.units.get(unit as usize).is_some_and(|u| u.hex().is_some())
            }
            CombatStage::DefenderLoss => {
                if unit == FORTRESS {
                    self.s.fortresses.iter().any(|f| f.hex == c.target)
                } else {
                    self.s
                        .units
                        .get(unit as usize)
                        .is_some_and(|u| u.hex() == Some(c.target))
                }
            }
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(Refusal::new(
                "10.5(2)",
                text!(
                    "losses go to units taking part in this combat",
                    "战力损失只能分配给参加本次战斗的单位"
                ),
            ))
        }
    }

    /// 10.7: the hexes `unit` may advance into: the vacated hex; for a mechanised unit, one
    /// hex beyond, if neither step meets a city, town, mountain, forest or swamp hex or a river
    /// or major river hexside (10.7(1)).
    fn advance_hexes(&self, b: &Board, c: &Combat, unit: UnitId) -> Vec<Hex> {
        let d = &self.d;
        let side = self.attacker();
        let mut out = Vec::new();
        if !c.attackers.contains(unit) || c.advanced.contains(&unit) {
            return out;
        }
        let Some(from) = self.s.units[unit as usize].hex() else {
            return out;
        };
        if b.has_room(c.target, Some(unit)) {
            out.push(c.target);
        }
        if d.units[unit as usize].mech && rules::advance_may_continue(d, from, c.target) {
            for (dir, n) in d.map.grid.neighbours(c.target) {
                if n == from
                    || !rules::advance_may_continue(d, c.target, n)
                    || d.map.side(c.target, dir) & d.s.prohibited != 0
                    || d.map.terrain(n) & (d.t.sea | d.t.impassable) != 0
                    || b.enemy_in(side, n)
                    || !b.has_room(n, Some(unit))
                {
                    continue;
                }
                out.push(n);
            }
        }
        out
    }

    pub(crate) fn legal_combat(&self, c: &Combat, out: &mut Vec<Action>) {
        let b = Board::new(&self.d, &self.s);
        match c.stage {
            CombatStage::AttackerLoss => {
                for &u in c.attackers.as_slice() {
                    if self.may_lose(c, u).is_ok() {
                        out.push(Action::Lose { unit: u });
                    }
                }
            }
            CombatStage::Convert => {
                out.push(Action::Convert { yes: true });
                out.push(Action::Convert { yes: false });
            }
            CombatStage::DefenderLoss => {
                for &u in b.units_at(c.target) {
                    out.push(Action::Lose { unit: u });
                }
                if b.fortress[c.target.idx()] > 0 {
                    out.push(Action::Lose { unit: FORTRESS });
                }
            }
            CombatStage::Retreat => {
                if let Some(&(u, _, _)) = c.retreating.first() {
                    for h in self.retreat_options(c) {
                        out.push(Action::Retreat { unit: u, to: h });
                    }
                }
            }
            CombatStage::Advance => {
                for &u in c.attackers.as_slice() {
                    for to in self.advance_hexes(&b, c, u) {
                        out.push(Action::Advance { unit: u, to });
                    }
                }
                out.push(Action::EndAdvance);
            }
        }
    }

    pub(crate) fn check_combat(&self, c: &Combat, a: &Action) -> Result<(), Refusal> {
        match (c.stage, *a) {
            (CombatStage::AttackerLoss | CombatStage::DefenderLoss, Action::Lose { unit }) => self.may_lose(c, unit),
            (CombatStage::Convert, Action::Convert { .. }) => Ok(()),
            (CombatStage::Retreat, Action::Retreat { unit, to }) => {
                let first = c.retreating.first().map(|&(u, _, _)| u);
                if first == Some(unit) && self.retreat_options(c).contains(&to) {
                    Ok(())
                } else {
                    Err(Refusal::new(
                        "10.6(6)",
                        text!(
                            "a retreat must go toward a friendly supply source by the shortest way, into no enemy unit, avoiding enemy ZOC where it can",
                            "退却必须沿最短路线向己方连络源,不能进入敌军所在格,尽量避开敌ZOC"
                        ),
                    ))
                }
            }
            (CombatStage::Advance, Action::Advance { unit, to }) => {
                let b = Board::new(&self.d, &self.s);
                if (unit as usize) < self.d.units.len() && self.advance_hexes(&b, c, unit).contains(&to) {
                    Ok(())
                } else {
                    Err(Refusal::new(
                        "10.7",
                        text!(
                            "an advance enters the vacated hex first; only a mechanised unit goes a second hex, and only over open ground: neither hex a city, town, forest, swamp or mountain, and no river or major river crossed on the way; no overstacking",
                            "挺进先进入被空出的格;只有机械化单位可再进一格,且只限开阔地:两格都不是大城市、镇、森林、湿地或山地,途中不越过河或大河格边;不能超过堆叠"
                        ),
                    ))
                }
            }
            (CombatStage::Advance, Action::EndAdvance) => Ok(()),
            _ => Err(not_now()),
        }
    }

    /// Carries out a combat's stage: a decision, or with none the stage that follows by itself.
    pub(crate) fn fight(&mut self, a: Option<&Action>) {
        match a {
            None => self.combat_goes_on(),
            Some(&Action::Lose { unit }) => self.combat_loss(unit),
            Some(&Action::Convert { yes }) => {
                let c = self.combat_mut();
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
            Some(&Action::Retreat { unit, to }) => self.retreat_step(unit, to),
            Some(&Action::Advance { unit, to }) => self.advance(unit, to),
            Some(Action::EndAdvance) => self.after_combat(),
            Some(_) => {}
        }
    }

    /// The stage that follows by itself: losses taken or none to take, a retreat done or
    /// impossible.
    fn combat_goes_on(&mut self) {
        let attacker = self.attacker();
        let enemy = attacker.enemy();
        let mut c = self.combat_mut().clone();
        match c.stage {
            CombatStage::AttackerLoss => {
                c.attacker_steps = 0;
                let fort = self.s.fortresses.iter().any(|f| f.hex == c.target);
                c.stage = if c.retreat > 0 && fort {
                    CombatStage::Convert
                } else {
                    CombatStage::DefenderLoss
                };
            }
            CombatStage::DefenderLoss => {
                let b = Board::new(&self.d, &self.s);
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
            }
            CombatStage::Retreat => {
                let Some(&(u, _, _)) = c.retreating.first() else {
                    // 10.7(1): an advance only into a vacated hex (a standing fortress keeps
                    // it occupied, A26).
                    let b = Board::new(&self.d, &self.s);
                    let vacated = b.units_at(c.target).is_empty() && b.fortress[c.target.idx()] == 0;
                    if vacated {
                        self.combat_mut().stage = CombatStage::Advance;
                    } else {
                        self.after_combat();
                    }
                    return;
                };
                if self.s.units[u as usize].hex().is_some() {
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
                }
                c.retreating.remove(0);
                c.trail.clear();
            }
            CombatStage::Convert | CombatStage::Advance => {}
        }
        *self.combat_mut() = c;
    }

    fn combat_loss(&mut self, unit: UnitId) {
        let mut c = self.combat_mut().clone();
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
                let at = self.d.map.grid.id(c.target).0;
                self.journal.say_marked(
                    || text!("The fortress loses a step.", "要塞损失一步。"),
                    || [Mark::StepLost { unit: None, at }],
                );
            } else {
                self.lose_step(unit, true);
            }
        }
        *self.combat_mut() = c;
    }

    // ---------------------------------------------------------------- 10.6 retreat

    fn retreat_step(&mut self, unit: UnitId, to: Hex) {
        let side = self.d.units[unit as usize].side;
        let zoc = Board::new(&self.d, &self.s).enemy_zoc(side, to);
        let from = self.s.units[unit as usize].hex();
        self.s.set_loc(unit, Loc::Map(to));
        self.s.units[unit as usize].spent = true;
        self.enter_hex(side, to);
        let g = &self.d.map.grid;
        let def = &self.d.units[unit as usize];
        let (en, zh, hid) = (def.name_en.clone(), def.name_zh.clone(), g.id(to));
        self.journal.say_marked(
            || text!("{en} retreats to {hid}.", "{zh}退却到{hid}。"),
            || {
                from.map(|from| Mark::Retreat {
                    unit: def.id.clone(),
                    from: g.id(from).0,
                    to: hid.0.clone(),
                    path: Vec::new(),
                })
            },
        );
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
        let mut c = self.combat_mut().clone();
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
        *self.combat_mut() = c;
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

    // ---------------------------------------------------------------- 10.7 advance

    fn advance(&mut self, unit: UnitId, to: Hex) {
        let side = self.d.units[unit as usize].side;
        let target = self.combat_mut().target;
        if to != target {
            self.enter_hex(side, target);
        }
        self.enter_hex(side, to);
        let from = self.s.units[unit as usize].hex();
        self.s.set_loc(unit, Loc::Map(to));
        self.combat_mut().advanced.push(unit);
        let def = &self.d.units[unit as usize];
        let g = &self.d.map.grid;
        let (en, zh, hid) = (def.name_en.clone(), def.name_zh.clone(), g.id(to));
        self.journal.say_marked(
            || text!("10.7: {en} advances to {hid}.", "10.7:{zh}挺进到{hid}。"),
            || {
                from.map(|from| Mark::Advance {
                    unit: def.id.clone(),
                    from: g.id(from).0,
                    to: hid.0.clone(),
                })
            },
        );
    }

    /// The combat is over: the command goes on to its next attack, or ends.
    fn after_combat(&mut self) {
        if let Some(Frame::Combat(_)) = self.engine.top() {
            self.engine.pop();
        }
        let e = self.exec_mut();
        if e.declared.is_empty() {
            self.finish_exec();
        } else {
            e.step = Step::Order;
        }
    }

    // ---------------------------------------------------------------- 10.5 losses

    /// 10.5(1): one step loss. Returns whether the unit was removed.
    pub(crate) fn lose_step(&mut self, u: UnitId, removal_costs_vp: bool) -> bool {
        let def = &self.d.units[u as usize];
        let st = &mut self.s.units[u as usize];
        if !st.reduced && def.reduced.is_some() {
            st.reduced = true;
            let (at, g) = (st.hex(), &self.d.map.grid);
            self.journal.say_marked(
                || {
                    Text::new(
                        format!("{} is reduced.", def.name_en),
                        format!("{}减少战力。", def.name_zh),
                    )
                },
                || {
                    at.map(|at| Mark::StepLost {
                        unit: Some(def.id.clone()),
                        at: g.id(at).0,
                    })
                },
            );
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
        let at = self.s.units[u as usize].hex();
        self.s.set_loc(u, loc);
        let (st, g) = (&mut self.s.units[u as usize], &self.d.map.grid);
        st.reduced = false;
        st.active = false;
        self.journal.say_marked(
            || {
                if vp > 0 {
                    Text::new(
                        format!("{} is eliminated (the Axis loses {vp} VP, 15.0(2)).", def.name_en),
                        format!("{}被消灭(轴心国军失去 {vp} VP,15.0(2))。", def.name_zh),
                    )
                } else {
                    Text::new(
                        format!("{} is eliminated.", def.name_en),
                        format!("{}被消灭。", def.name_zh),
                    )
                }
            },
            || {
                at.map(|at| Mark::Eliminated {
                    unit: def.id.clone(),
                    at: g.id(at).0,
                })
            },
        );
    }
}

impl UnitList {
    /// The same units in ascending order (so one set of attackers has one form).
    pub fn clone_sorted(&self) -> UnitList {
        let units = self.as_slice();
        let mut ids = [0; 12];
        ids[..units.len()].copy_from_slice(units);
        ids[..units.len()].sort_unstable();
        UnitList::from_slice(&ids[..units.len()])
    }
}

//! The legal actions of the pending decision, and why an action outside them is refused.

use crate::data::{ChitClass, Nation, Side};
use crate::flow::{reinf_matches, with_search};
use crate::moves::{with_moves, Room};
use crate::rules::Board;
use crate::state::*;
use crate::StalingradBlitz;
use sandtable_core::game::Refusal;
use sandtable_core::hex::Hex;
use sandtable_core::text;

impl StalingradBlitz {
    /// Appends the legal actions of the pending decision to `out`.
    pub(crate) fn legal(&self, out: &mut Vec<Action>) {
        match &self.s.phase {
            Phase::Over | Phase::Draw => {}
            Phase::Setup => self.legal_setup(out),
            Phase::Select(stage) => self.legal_select(*stage, out),
            Phase::Exec(e) => self.legal_exec(e, out),
        }
    }

    fn legal_select(&self, stage: Select, out: &mut Vec<Action>) {
        let picks = |side: Side| &self.s.picks[side.seat() as usize];
        let offer = |class: ChitClass, side: Side, out: &mut Vec<Action>| {
            for (i, c) in self.d.chits.iter().enumerate() {
                let taken = picks(side).iter().filter(|&&p| p as usize == i).count();
                if c.class == class && taken < c.count as usize {
                    out.push(Action::Pick { chit: i as u8 });
                }
            }
        };
        match stage {
            // 6.2(1): SU Com chits from the six Front chits.
            Select::SovietHq => offer(ChitClass::SuCom, Side::Soviet, out),
            // 6.2(2): SOVIET REINF or STAVKA, or neither.
            Select::SovietExtra => {
                offer(ChitClass::SovietExtra, Side::Soviet, out);
                out.push(Action::NoExtra);
            }
            // 6.2(3): GER Com chits; both chits of a panzer army may go in.
            Select::AxisGer => offer(ChitClass::GerCom, Side::Axis, out),
            // 6.2(3): Axis/Rnf Com chits.
            Select::AxisRnf => offer(ChitClass::AxisRnfCom, Side::Axis, out),
            // 16.0(1): one of the chosen chits may be executed at once.
            Select::AxisFirst => {
                let mut seen: Vec<u8> = Vec::new();
                for &p in picks(Side::Axis) {
                    if !seen.contains(&p) {
                        seen.push(p);
                        out.push(Action::First { chit: Some(p) });
                    }
                }
                out.push(Action::First { chit: None });
            }
        }
    }

    fn legal_exec(&self, e: &Exec, out: &mut Vec<Action>) {
        let d = &self.d;
        match &e.step {
            Step::Stavka => {
                for (i, def) in d.units.iter().enumerate() {
                    if def.side == Side::Soviet && def.is_hq() && self.s.units[i].hex().is_some() {
                        out.push(Action::Choose { unit: i as UnitId });
                    }
                }
            }
            Step::AlliedGerman { picked } => {
                // 8.3(2): up to two German combat units within the allied HQ's range.
                if *picked < 2 {
                    if let Some(hq) = e.hq {
                        let at = self.s.units[hq as usize].hex();
                        let range = d.units[hq as usize].range as u32;
                        for (i, def) in d.units.iter().enumerate() {
                            let st = &self.s.units[i];
                            if def.nation == Nation::German && !def.is_hq() && !st.active {
                                if let (Some(a), Some(h)) = (at, st.hex()) {
                                    if d.map.grid.distance(a, h) <= range {
                                        out.push(Action::Choose { unit: i as UnitId });
                                    }
                                }
                            }
                        }
                    }
                }
                out.push(Action::EndChoose);
            }
            Step::Move => {
                self.legal_moves(out);
                out.push(Action::EndMovement);
            }
            Step::Declare => {
                self.legal_declarations(e, out);
                for a in &e.declared {
                    out.push(Action::Undeclare { target: a.target });
                }
                out.push(Action::EndDeclare);
            }
            Step::Order => {
                for a in &e.declared {
                    out.push(Action::Resolve { target: a.target });
                }
            }
            Step::Combat(c) => self.legal_combat(e.side, c, out),
            Step::AxisReinf(r) => {
                if let Some(t) = (0..6).find(|&t| r.left[t] > 0) {
                    // 12.3: the Axis player chooses freely among pool units of the type.
                    for (i, def) in d.units.iter().enumerate() {
                        if self.s.units[i].loc == Loc::Pool && reinf_matches(def, t) {
                            out.push(Action::Choose { unit: i as UnitId });
                        }
                    }
                } else if r.from_box > 0 {
                    // 12.4: up to two units from the rail transport box.
                    for (i, st) in self.s.units.iter().enumerate() {
                        if st.loc == Loc::RailBox {
                            out.push(Action::Choose { unit: i as UnitId });
                        }
                    }
                    out.push(Action::EndChoose);
                }
            }
            Step::SovietReinf { .. } => {
                // 12.2: the HQs in the pool the track's HQ entry may bring.
                for (i, def) in d.units.iter().enumerate() {
                    if def.side == Side::Soviet && def.is_hq() && self.s.units[i].loc == Loc::Pool {
                        out.push(Action::Choose { unit: i as UnitId });
                    }
                }
            }
            Step::Place => {
                if let Some(&(u, _)) = self.s.arriving.first() {
                    let side = d.units[u as usize].side;
                    let b = Board::new(d, &self.s);
                    let hexes = with_search(|s| b.rail_entry(side, s));
                    for h in hexes {
                        if b.has_room(h, None) && !b.enemy_zoc(side, h) && !b.enemy_in(side, h) {
                            out.push(Action::Place { unit: u, at: h });
                        }
                    }
                }
            }
            Step::Supply(SupplyStage::Withdraw { left, .. }) => {
                if let Some(t) = (0..3).find(|&t| left[t] > 0) {
                    for u in self.withdraw_candidates(t) {
                        out.push(Action::Choose { unit: u });
                    }
                }
            }
            Step::Supply(SupplyStage::RailBox) => {
                // 11.3(1): any Axis unit with a LOC and not in enemy ZOC.
                let b = Board::new(d, &self.s);
                let reach = with_search(|s| b.loc_reach(Side::Axis, s));
                for (i, def) in d.units.iter().enumerate() {
                    if def.side == Side::Axis {
                        if let Some(h) = self.s.units[i].hex() {
                            if reach[h.idx()] && !b.enemy_zoc(Side::Axis, h) {
                                out.push(Action::Choose { unit: i as UnitId });
                            }
                        }
                    }
                }
                out.push(Action::EndChoose);
            }
            Step::Supply(SupplyStage::Fortress) => {
                for h in self.fortress_sites() {
                    out.push(Action::Fortify { hex: h });
                }
                out.push(Action::NoFortress);
            }
        }
    }

    /// 9.0: every destination of every activated unit that has not moved.
    fn legal_moves(&self, out: &mut Vec<Action>) {
        let room = Room::new(&self.d, &self.s);
        let units = (0..self.s.units.len()).filter(|&i| {
            let st = &self.s.units[i];
            st.active && !st.moved && st.hex().is_some()
        });
        with_moves(&self.d, &self.s, units.map(|i| i as UnitId), |unit, m| {
            for &to in &m.normal.hexes {
                if to != m.start() && room.has_room(to) {
                    out.push(Action::Move { unit, to, march: false });
                }
            }
            // 9.3: march formation, where it reaches hexes normal movement does not.
            for &to in &m.march_only {
                if room.has_room(to) {
                    out.push(Action::Move { unit, to, march: true });
                }
            }
        });
    }

    /// The units that could attack `target` now, and whether the target may be attacked.
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

    /// 10.2(1): every attack that could be declared now, with odds of at least 1-1 (10.3(4)).
    fn legal_declarations(&self, e: &Exec, out: &mut Vec<Action>) {
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
            // Each attacker's strength, worked out once for all the sets it is in.
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
    }

    fn legal_combat(&self, side: Side, c: &Combat, out: &mut Vec<Action>) {
        let b = Board::new(&self.d, &self.s);
        match c.stage {
            CombatStage::AttackerLoss => {
                // 10.4(2)1, 10.5(2): the attacker spreads Ax over the attacking units.
                for &u in c.attackers.as_slice() {
                    if self.s.units[u as usize].hex().is_some() {
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
                // 10.7: attacking units may advance into the vacated hex; mechanised units
                // one hex further where the terrain allows.
                let d = &self.d;
                for &u in c.attackers.as_slice() {
                    let st = &self.s.units[u as usize];
                    let Some(from) = st.hex() else { continue };
                    if c.advanced.contains(&u) {
                        continue;
                    }
                    if b.has_room(c.target, Some(u)) {
                        out.push(Action::Advance { unit: u, to: c.target });
                    }
                    if d.units[u as usize].mech && crate::rules::advance_may_continue(d, from, c.target) {
                        for (dir, n) in d.map.grid.neighbours(c.target) {
                            if n == from
                                || d.map.side(c.target, dir) & d.s.prohibited != 0
                                || d.map.terrain(n) & (d.t.sea | d.t.impassable) != 0
                                || b.enemy_in(side, n)
                                || !b.has_room(n, Some(u))
                            {
                                continue;
                            }
                            out.push(Action::Advance { unit: u, to: n });
                        }
                    }
                }
                out.push(Action::EndAdvance);
            }
        }
    }

    /// Why an action that is not legal now is refused, citing the rule.
    pub(crate) fn why_illegal(&self, a: &Action) -> Refusal {
        let d = &self.d;
        let r = |rule: &str, t| Refusal::new(rule, t);
        match (&self.s.phase, a) {
            (Phase::Setup, Action::Place { unit, at }) => self.setup_refusal(*unit, *at),
            (Phase::Setup, _) => r("4.0", text!("the set-up (4.0) comes before the first turn: place the set-up units first", "游戏准备(4.0)在第1回合之前:请先配置初期配置单位")),
            (Phase::Select(_), Action::Pick { chit }) => {
                let Some(c) = d.chits.get(*chit as usize) else {
                    return r("6.2", text!("there is no such chit", "没有这枚命令卡"));
                };
                r("6.2", sandtable_core::text::Text::new(format!("{} cannot be put in the cup now: the turn's quota (SU Com, GER Com, Axis/Rnf Com) or the chit's count is used up, or it is the other side's chit", c.name_en), format!("{}现在不能放入杯中:本回合的命令数已用完、该卡已选,或不是己方的卡", c.name_zh)))
            }
            (Phase::Exec(e), Action::Move { unit, to, .. }) => {
                let Some(def) = d.units.get(*unit as usize) else {
                    return r("9.0", text!("there is no such unit", "没有这个单位"));
                };
                let st = &self.s.units[*unit as usize];
                if e.step != Step::Move {
                    return r("5.0(4)", text!("this is not the movement segment", "现在不是移动小节"));
                }
                if !st.active {
                    return r("8.1", sandtable_core::text::Text::new(format!("{} was not activated by this command", def.name_en), format!("{}没有被本次命令激活", def.name_zh)));
                }
                if st.moved {
                    return r("8.1(3)", sandtable_core::text::Text::new(format!("{} has already moved in this command execution", def.name_en), format!("{}在本次命令中已经移动过", def.name_zh)));
                }
                let b = Board::new(d, &self.s);
                if (to.idx()) >= d.map.grid.len() {
                    return r("9.1", text!("that hex is not on the map", "该格不在地图上"));
                }
                let hid = d.map.grid.id(*to);
                if d.map.terrain(*to) & d.t.sea != 0 {
                    return r("TEC", text!("{hid} is all sea: units may not enter", "{hid}是全海格,不能进入"));
                }
                if b.enemy_in(def.side, *to) {
                    return r("3.1(2)", text!("{hid} holds enemy units", "{hid}有敌军单位"));
                }
                if !b.has_room(*to, Some(*unit)) {
                    return r("3.1(1)", text!("{hid} already holds two units: at most 2 per hex at the end of movement", "{hid}已有两个单位:移动结束时每格最多2个"));
                }
                let ma = def.face(st.reduced).ma;
                let near = st.hex().map(|h| d.map.grid.distance(h, *to)).unwrap_or(99);
                if near == 1 {
                    if let Some(h) = st.hex() {
                        let dir = d.map.grid.dir_to(h, *to).unwrap_or(0);
                        let bits = d.map.side(h, dir);
                        if bits & d.s.major != 0 && bits & (d.s.road | d.s.rail) == 0 {
                            return r("9.2(3)", text!("an unbridged major river may be crossed only from the start of the move into the hex across, with all MP, and never from enemy ZOC to enemy ZOC", "无桥大河只能从移动开始时相邻的格用全部移动力渡过,且不能从敌ZOC到敌ZOC"));
                        }
                        if (d.map.terrain(*to) | d.map.terrain(h)) & d.t.mountain != 0 && bits & d.s.road == 0 {
                            return r("9.2(4)", text!("mountain hexes may be entered or left only along a road (a mountain division with all its MP)", "山岳格只能沿道路进出(山岳师用全部移动力)"));
                        }
                    }
                }
                r("9.2(5)", sandtable_core::text::Text::new(format!("{} cannot reach {hid} with its {ma} MP (terrain, rivers +1, enemy ZOC +2 to enter and +2 to leave)", def.name_en), format!("{}用{ma}移动力到不了{hid}(地形、河流+1、进出敌ZOC各+2)", def.name_zh)))
            }
            (Phase::Exec(e), Action::Declare { target, units }) => {
                if e.step != Step::Declare {
                    return r("10.2(1)", text!("attacks are declared in the combat segment, after movement", "攻击在移动之后的战斗小节宣言"));
                }
                if target.idx() >= d.map.grid.len() {
                    return r("10.0", text!("that hex is not on the map", "该格不在地图上"));
                }
                let b = Board::new(d, &self.s);
                let hid = d.map.grid.id(*target);
                if b.owner[target.idx()] != Some(e.side.enemy()) {
                    return r("10.0", text!("{hid} holds no enemy unit: empty hexes cannot be attacked", "{hid}没有敌军:不能攻击空格"));
                }
                if e.attacked.contains(target) || e.declared.iter().any(|x| x.target == *target) {
                    return r("10.1(3)", text!("{hid} has already been attacked in this combat segment", "{hid}本战斗小节已被攻击过"));
                }
                for &u in units.as_slice() {
                    let Some(st) = self.s.units.get(u as usize) else { continue };
                    let name = &d.units[u as usize];
                    if !st.active {
                        return r("10.1(2)", sandtable_core::text::Text::new(format!("{} is not activated and cannot attack", name.name_en), format!("{}未被激活,不能攻击", name.name_zh)));
                    }
                    if st.attacked {
                        return r("10.1(1)", sandtable_core::text::Text::new(format!("{} already attacks another hex", name.name_en), format!("{}已经攻击另一格", name.name_zh)));
                    }
                    if st.hex().is_none_or(|h| !d.map.grid.adjacent(h, *target)) {
                        return r("10.0", sandtable_core::text::Text::new(format!("{} is not adjacent to {hid}", name.name_en), format!("{}不与{hid}相邻", name.name_zh)));
                    }
                }
                let o = b.odds(*target, units.as_slice());
                r("10.3(4)", text!("the odds are below 1-1 after terrain shifts ({} vs {}, {} shift(s)): the attack is not allowed", "地形修正后战力比低于1-1({}对{},左移{}列):不能攻击", o.attack, o.defence, o.shifts))
            }
            (Phase::Exec(_), Action::Retreat { .. }) => r("10.6(6)", text!("a retreat must go toward a friendly supply source by the shortest way, into no enemy unit, avoiding enemy ZOC where it can", "退却必须沿最短路线向己方连络源,不能进入敌军所在格,尽量避开敌ZOC")),
            (Phase::Exec(_), Action::Advance { .. }) => r("10.7", text!("an advance enters the vacated hex first, and only mechanised units on open ground (no city, town, forest, swamp, mountain or river) go a second hex; no overstacking", "挺进先进入被空出的格;只有机械化单位在开阔地(无城市、城镇、森林、湿地、山岳、河流)可再进一格;不能超过堆叠")),
            (Phase::Exec(_), Action::Place { .. }) => r("12.1", text!("reinforcements enter on a railway hex joined to a friendly supply source by rail with no enemy ZOC on the way, not in enemy ZOC nor an enemy-held city, with room to stack", "增援必须放在经铁道连到己方连络源(途中无敌ZOC)的铁道格,不在敌ZOC或敌控城市,且不超过堆叠")),
            (Phase::Exec(_), Action::Fortify { .. }) => r("14.1", text!("a fortress goes in a Soviet-held city or town with a LOC, not adjacent to an enemy unit, one level per supply procedure, at most level 2 and 2 markers in the game", "要塞须建在有连络线的苏军控制城市或城镇,不与敌军相邻,每次补给程序一级,最高2级,全局2枚")),
            (Phase::Exec(_), Action::Choose { .. }) => r("7.2", text!("that unit cannot be chosen for this step", "这一步不能选择该单位")),
            (Phase::Exec(_), Action::Lose { .. }) => r("10.5(2)", text!("losses go to units taking part in this combat", "战力损失只能分配给参加本次战斗的单位")),
            _ => r("5.0", text!("that action is not one of the choices of the current step", "该行动不是当前步骤的选项")),
        }
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

//! The sequence of play (5.0): the game turn, command selection (6.0), the cup and the draw
//! (7.1), and the execution of a command (7.2), which hands each step to its rule section.
//!
//! On the driver's stack a turn is `Turn` at the bottom, with the selection stages above it,
//! then `Draw` (the cup) with the command it drew above it, and a combat or a die above that.

use crate::data::{ChitClass, ChitKind, Nation, Side};
use crate::state::*;
use crate::StalingradBlitz;
use sandtable_core::game::{Refusal, Who};
use sandtable_core::text;
use sandtable_core::text::Text;

impl StalingradBlitz {
    pub(crate) fn turn_def(&self) -> &crate::data::TurnDef {
        &self.d.turns[(self.s.turn.clamp(1, 9) - 1) as usize]
    }

    /// The command being executed, to change it (the topmost on the stack).
    pub(crate) fn exec_mut(&mut self) -> &mut Exec {
        self.engine
            .frames_mut()
            .iter_mut()
            .rev()
            .find_map(|f| match f {
                Frame::Exec(e) => Some(&mut **e),
                _ => None,
            })
            .expect("a step of a command outside its execution")
    }

    // ---------------------------------------------------------------- 5.0 the turn

    /// 5.0: a turn begins with command selection (6.0). The `Turn` frame is below.
    pub(crate) fn start_turn(&mut self) {
        self.turn_heading();
        self.hidden.picks = [Vec::new(), Vec::new()];
        self.hidden.cup.clear();
        self.s.used.clear();
        for u in &mut self.s.units {
            u.active = false;
            u.moved = false;
            u.attacked = false;
            u.spent = false;
        }
        self.journal
            .heading(|| text!("Command selection phase (6.0)", "命令选择阶段(6.0)"));
        self.engine.push(Frame::Select(Select::SovietHq));
    }

    fn turn_heading(&mut self) {
        let td = self.turn_def().clone();
        let turn = self.s.turn;
        self.journal.heading(|| {
            Text::new(
                format!("Turn {turn} ({})", td.date_en),
                format!("第{turn}回合({})", td.date_zh),
            )
        });
    }

    /// A scenario whose first turn begins with command execution (7.0): the chits of `cup` are
    /// in the cup and those in `used` were executed (7.1(4)); each side's selection is the
    /// scenario's (6.1(3): it stays secret as if that side had made it).
    pub(crate) fn start_turn_in_execution(&mut self, mut cup: Vec<u8>) {
        self.turn_heading();
        self.hidden.picks = [Vec::new(), Vec::new()];
        for &c in cup.iter().chain(self.s.used.iter()) {
            if let Some(side) = self.d.chits[c as usize].side {
                self.hidden.picks[side.seat() as usize].push(c);
            }
        }
        cup.sort_unstable();
        self.hidden.cup = cup;
        self.open_cup();
    }

    /// 5.0(5), 15.0: the end of the turn and the victory check; then the next turn, or the
    /// end of the game (an empty stack).
    pub(crate) fn end_turn(&mut self) {
        let vp = self.victory_points();
        self.s.vp = vp;
        let turn = self.s.turn;
        self.journal.heading(|| {
            text!(
                "End of turn {turn}: the Axis has {vp} VP (15.0).",
                "第{turn}回合结束:轴心国军 {vp} VP(15.0)。"
            )
        });
        self.tell_vp_hexes();
        if vp >= 85 {
            self.s.winner = Some(Side::Axis);
            self.engine.frames_mut().clear();
        } else if turn >= 9 {
            self.s.winner = Some(Side::Soviet);
            self.engine.frames_mut().clear();
        } else {
            self.s.turn += 1;
            self.engine.push(Frame::Turn);
            self.start_turn();
        }
    }

    // ---------------------------------------------------------------- 6.0 command selection

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
        let picked = self.hidden.picks[side.seat() as usize]
            .iter()
            .filter(|&&c| self.d.chits[c as usize].class == class)
            .count();
        (quota as usize).min(available).saturating_sub(picked)
    }

    /// 6.2: who picks at each stage; a stage whose quota is filled passes by itself.
    pub(crate) fn who_selects(&self, stage: Select) -> Who {
        let filled = match stage {
            Select::SovietHq => self.quota_left(ChitClass::SuCom) == 0,
            Select::AxisGer => self.quota_left(ChitClass::GerCom) == 0,
            Select::AxisRnf => self.quota_left(ChitClass::AxisRnfCom) == 0,
            Select::SovietExtra | Select::AxisFirst => false,
        };
        match stage {
            _ if filled => Who::Auto,
            Select::SovietHq | Select::SovietExtra => Who::Seat(Side::Soviet.seat()),
            _ => Who::Seat(Side::Axis.seat()),
        }
    }

    /// The class of chit a stage takes, and whose chits they are.
    fn stage_class(stage: Select) -> Option<(ChitClass, Side)> {
        match stage {
            // 6.2(1): SU Com chits from the six Front chits.
            Select::SovietHq => Some((ChitClass::SuCom, Side::Soviet)),
            // 6.2(2): SOVIET REINF or STAVKA, or neither.
            Select::SovietExtra => Some((ChitClass::SovietExtra, Side::Soviet)),
            // 6.2(3): GER Com chits; both chits of a panzer army may go in.
            Select::AxisGer => Some((ChitClass::GerCom, Side::Axis)),
            // 6.2(3): Axis/Rnf Com chits.
            Select::AxisRnf => Some((ChitClass::AxisRnfCom, Side::Axis)),
            Select::AxisFirst => None,
        }
    }

    /// 6.2: whether `chit` may go into the cup at `stage`, and why not.
    fn may_pick(&self, stage: Select, chit: u8) -> Result<(), Refusal> {
        self.pick_allowed(stage, chit).map_err(|()| match self.d.chits.get(chit as usize) {
            None => Refusal::new("6.2", text!("there is no such chit", "没有这枚命令卡")),
            Some(c) => Refusal::new(
                "6.2",
                Text::new(
                    format!("{} cannot be put in the cup now: the turn's quota (SU Com, GER Com, Axis/Rnf Com) or the chit's count is used up, or it is the other side's chit", c.name_en),
                    format!("{}现在不能放入杯中:本回合的命令数已用完、该卡已选,或不是己方的卡", c.name_zh),
                ),
            ),
        })
    }

    /// 6.2: [`StalingradBlitz::may_pick`]'s test, without the words of its refusal (the
    /// legal list asks it of every chit).
    fn pick_allowed(&self, stage: Select, chit: u8) -> Result<(), ()> {
        let c = self.d.chits.get(chit as usize).ok_or(())?;
        let (class, side) = StalingradBlitz::stage_class(stage).ok_or(())?;
        let taken = self.hidden.picks[side.seat() as usize]
            .iter()
            .filter(|&&p| p == chit)
            .count();
        if c.class != class || taken >= c.count as usize {
            return Err(());
        }
        Ok(())
    }

    /// 16.0(1): the chits the Axis may execute first: one of its own picks, or none.
    fn may_go_first(&self, chit: Option<u8>) -> Result<(), Refusal> {
        match chit {
            Some(c) if !self.hidden.picks[Side::Axis.seat() as usize].contains(&c) => Err(Refusal::new(
                "16.0(1)",
                text!(
                    "only a chit the Axis put in this turn may be executed first",
                    "只能首先执行轴心国本回合选入的命令卡"
                ),
            )),
            _ => Ok(()),
        }
    }

    pub(crate) fn legal_select(&self, stage: Select, out: &mut Vec<Action>) {
        match stage {
            Select::AxisFirst => {
                let mut seen: Vec<u8> = Vec::new();
                for &p in &self.hidden.picks[Side::Axis.seat() as usize] {
                    if !seen.contains(&p) {
                        seen.push(p);
                        out.push(Action::First { chit: Some(p) });
                    }
                }
                out.push(Action::First { chit: None });
            }
            _ => {
                for chit in 0..self.d.chits.len() as u8 {
                    if self.pick_allowed(stage, chit).is_ok() {
                        out.push(Action::Pick { chit });
                    }
                }
                if stage == Select::SovietExtra {
                    out.push(Action::NoExtra);
                }
            }
        }
    }

    pub(crate) fn check_select(&self, stage: Select, action: &Action) -> Result<(), Refusal> {
        match (stage, *action) {
            (Select::AxisFirst, Action::First { chit }) => self.may_go_first(chit),
            (Select::SovietExtra, Action::NoExtra) => Ok(()),
            (stage, Action::Pick { chit }) if stage != Select::AxisFirst => self.may_pick(stage, chit),
            _ => Err(Refusal::new(
                "6.0",
                text!(
                    "it is the command selection phase: put chits in the cup (6.2)",
                    "现在是命令选择阶段:把命令卡放入杯中(6.2)"
                ),
            )),
        }
    }

    /// 6.0: a chit put in the cup, or a stage passed.
    pub(crate) fn select(&mut self, stage: Select, action: Option<&Action>) {
        match action {
            // The stage's quota is filled: the next stage.
            None => match stage {
                Select::SovietHq => self.engine.push(Frame::Select(Select::SovietExtra)),
                Select::AxisGer => self.engine.push(Frame::Select(Select::AxisRnf)),
                Select::AxisRnf if self.s.turn == 1 => self.engine.push(Frame::Select(Select::AxisFirst)),
                _ => self.finish_selection(None),
            },
            Some(&Action::Pick { chit }) => {
                let c = &self.d.chits[chit as usize];
                let side = if c.side == Some(Side::Soviet) {
                    Side::Soviet
                } else {
                    Side::Axis
                };
                self.hidden.picks[side.seat() as usize].push(chit);
                let (en, zh) = (&c.name_en, &c.name_zh);
                let who = side.name();
                self.journal.whisper(
                    side.seat(),
                    || text!("You put {en} in the cup.", "你把{zh}放入杯中。"),
                    || {
                        sandtable_core::text::Text::new(
                            format!("The {} player put {en} in the cup.", who.en),
                            format!("{}把{zh}放入杯中。", who.zh),
                        )
                    },
                );
                // 6.2(2): one extra chit at most.
                let next = if c.class == ChitClass::SovietExtra {
                    Select::AxisGer
                } else {
                    stage
                };
                self.engine.push(Frame::Select(next));
            }
            Some(Action::NoExtra) => self.engine.push(Frame::Select(Select::AxisGer)),
            Some(&Action::First { chit }) => self.finish_selection(chit),
            Some(_) => self.engine.push(Frame::Select(stage)),
        }
    }

    /// 6.1(3), 6.2(2): what everyone may know of the cup: how many chits are in it, less the
    /// Soviet extra chit (SOVIET REINF or STAVKA, chosen or not in secret) until one is drawn;
    /// and whether there may be that one more.
    pub(crate) fn cup_known(&self) -> (usize, bool) {
        let extra = |c: &u8| self.d.chits[*c as usize].class == ChitClass::SovietExtra;
        // Before the selection ends the cup is empty and nothing of this turn is out of it.
        let filled = !self.hidden.cup.is_empty() || !self.s.used.is_empty();
        let unknown = filled && !self.s.used.iter().any(extra);
        let hidden = if unknown {
            self.hidden.cup.iter().filter(|c| extra(c)).count()
        } else {
            0
        };
        (self.hidden.cup.len() - hidden, unknown)
    }

    /// The number of chits in the cup as everyone may read it ([`StalingradBlitz::cup_known`]).
    pub(crate) fn cup_text(&self) -> Text {
        let (n, maybe) = self.cup_known();
        if !maybe {
            return Text::new(n.to_string(), format!("{n} 枚"));
        }
        let (mut en, mut zh) = (Vec::new(), Vec::new());
        for c in self.d.chits.iter().filter(|c| c.class == ChitClass::SovietExtra) {
            en.push(c.name_en.clone());
            zh.push(c.name_zh.clone());
        }
        let more = n + 1;
        Text::new(
            format!("{n} ({more} if the Soviet player put in {}, 6.2(2))", en.join(" or ")),
            format!("{n} 枚(若苏军放入了{}则为 {more} 枚,6.2(2))", zh.join("或")),
        )
    }

    /// 6.1(1), 6.2(4): everything selected goes into one cup with the SUPPLY chit.
    fn finish_selection(&mut self, first: Option<u8>) {
        let mut cup: Vec<u8> = self.hidden.picks[0]
            .iter()
            .chain(self.hidden.picks[1].iter())
            .copied()
            .collect();
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
        self.hidden.cup = cup;
        self.open_cup();
        if let Some(f) = first {
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
    }

    /// 6.1(3): the ids of the chits the other side put in the cup and that have not come out
    /// of it (drawn or executed first): hidden from `side`.
    pub(crate) fn picks_hidden_from(&self, side: Side, out: &mut Vec<u64>) {
        let other = side.enemy();
        let mut out_of_cup: Vec<u8> = self.s.used.clone();
        for (k, &c) in self.hidden.picks[other.seat() as usize].iter().enumerate() {
            if let Some(i) = out_of_cup.iter().position(|&u| u == c) {
                out_of_cup.swap_remove(i);
                continue;
            }
            out.push((other.seat() as u64) << 32 | (self.s.turn as u64) << 16 | k as u64);
        }
    }

    /// For a sample of what `side` knows: the other side's chits that have not come out of the
    /// cup, chosen again at random among the chits of their class still free (6.2), and the
    /// cup made again from both sides' chits, less those out of it.
    pub(crate) fn guess_hidden(&mut self, side: Side, rng: &mut sandtable_core::chance::Rng) {
        let other = side.enemy().seat() as usize;
        let mut out_of_cup: Vec<u8> = self.s.used.clone();
        let mut kept = Vec::new();
        let mut guessed_classes = Vec::new();
        for &c in &self.hidden.picks[other] {
            if let Some(i) = out_of_cup.iter().position(|&u| u == c) {
                out_of_cup.swap_remove(i);
                kept.push(c);
            } else {
                guessed_classes.push(self.d.chits[c as usize].class);
            }
        }
        let mut picks = kept;
        for class in guessed_classes {
            let free: Vec<u8> = (0..self.d.chits.len() as u8)
                .filter(|&c| {
                    let def = &self.d.chits[c as usize];
                    def.class == class && picks.iter().filter(|&&p| p == c).count() < def.count as usize
                })
                .collect();
            if free.is_empty() {
                continue;
            }
            picks.push(free[rng.below(free.len() as u32) as usize]);
        }
        self.hidden.picks[other] = picks;
        // The cup: every chit put in and the SUPPLY chits, less those out of it.
        let mut cup: Vec<u8> = self.hidden.picks[0]
            .iter()
            .chain(&self.hidden.picks[1])
            .copied()
            .collect();
        for (i, c) in self.d.chits.iter().enumerate() {
            if c.class == ChitClass::Supply {
                cup.extend(std::iter::repeat_n(i as u8, c.count as usize));
            }
        }
        if !self.hidden.cup.is_empty() || !cup.is_empty() {
            for &u in &self.s.used {
                if let Some(i) = cup.iter().position(|&c| c == u) {
                    cup.swap_remove(i);
                }
            }
            if cup.len() == self.hidden.cup.len() {
                rng.shuffle(&mut cup);
                self.hidden.cup = cup;
            }
        }
    }

    // ---------------------------------------------------------------- 7.0 execution

    /// 7.0: the execution phase opens on the filled cup; its chits are drawn one by one.
    fn open_cup(&mut self) {
        // Worked out only for a journal that is kept.
        if !self.journal.off {
            let n = self.cup_text();
            let (en, zh) = (&n.en, &n.zh);
            self.journal
                .say(|| text!("Chits in the cup: {en}.", "杯中命令卡 {zh}。"));
        }
        self.journal
            .heading(|| text!("Command execution phase (7.0)", "命令实行阶段(7.0)"));
        self.engine.push(Frame::Draw);
    }

    /// 7.1(1): the chit in `slot` comes out of the cup and is executed. The cup stays on the
    /// stack below the command.
    pub(crate) fn draw(&mut self, slot: u8) {
        self.engine.push(Frame::Draw);
        let chit = self.hidden.cup.swap_remove(slot as usize);
        self.s.used.push(chit);
        let c = &self.d.chits[chit as usize];
        let (en, zh) = (&c.name_en, &c.name_zh);
        if !self.journal.off {
            let left = self.cup_text();
            let (len, lzh) = (&left.en, &left.zh);
            self.journal
                .heading(|| text!("Drawn: {en} (left in the cup: {len})", "抽出:{zh}(杯中余 {lzh})"));
        }
        self.begin_exec(chit);
    }

    fn set_exec(&mut self, chit: u8, side: Side, hq: Option<UnitId>, step: Step) {
        self.engine.push(Frame::Exec(Box::new(Exec {
            chit,
            side,
            hq,
            step,
            declared: Vec::new(),
            attacked: Vec::new(),
        })));
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
                        Text::new(
                            format!("13.0(3): {} is not on the map; the chit has no effect.", c.name_en),
                            format!("13.0(3):{}不在地图上,命令无效。", c.name_zh),
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
                            "7.2(3):地图上没有苏军司令部,红军大本营命令无效。"
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
                    self.engine.push(Frame::Roll(Roll::AxisReinf { chit }));
                }
            }
            ChitKind::Supply => {
                self.journal
                    .say(|| text!("11.0: the supply procedure.", "11.0:补给程序。"));
                self.supply_check(Side::Soviet);
                self.supply_check(Side::Axis);
                // 11.2: either player rolls on the German withdrawal table.
                self.engine.push(Frame::Roll(Roll::Withdrawal { chit }));
            }
        }
    }

    /// What a die decides.
    pub(crate) fn rolled(&mut self, roll: Roll, die: u8) {
        match roll {
            Roll::AxisReinf { chit } => {
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
            Roll::Withdrawal { chit } => {
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
            Roll::Combat {
                target,
                attackers,
                column,
            } => self.combat_rolled(target, attackers, column, die),
        }
    }

    pub(crate) fn is_soviet_hq_on_map(&self, u: UnitId) -> bool {
        let def = &self.d.units[u as usize];
        def.side == Side::Soviet && def.is_hq() && self.s.units[u as usize].hex().is_some()
    }

    /// 7.2: the command is done: its units stand down, and the cup below comes back on top.
    pub(crate) fn finish_exec(&mut self) {
        for u in &mut self.s.units {
            u.active = false;
            u.moved = false;
            u.attacked = false;
            u.spent = false;
        }
        if let Some(Frame::Exec(_)) = self.engine.top() {
            self.engine.pop();
        }
    }

    /// Who decides at the command's current step; a step with nothing to decide passes by
    /// itself.
    pub(crate) fn who_executes(&self, e: &Exec) -> Who {
        let auto = match &e.step {
            Step::AxisReinf(r) => self.axis_reinf_forced(r),
            Step::SovietReinf { hq_left } => *hq_left == 0 || !self.soviet_hq_in_pool(),
            Step::Place => self.s.arriving.is_empty(),
            Step::Supply(SupplyStage::Withdraw { left, .. }) => left.iter().all(|&l| l == 0),
            _ => false,
        };
        if auto {
            return Who::Auto;
        }
        let side = match &e.step {
            Step::Supply(SupplyStage::Fortress) => Side::Soviet,
            Step::Supply(_) => Side::Axis,
            _ => e.side,
        };
        Who::Seat(side.seat())
    }

    /// Steps that pass when nothing is left to choose: a reinforcement with no railway hex to
    /// enter (12.1), a withdrawal type with no division (11.2(3)).
    pub(crate) fn exec_passes_when_empty(&self, e: &Exec) -> bool {
        matches!(e.step, Step::Place | Step::Supply(SupplyStage::Withdraw { .. }))
    }

    pub(crate) fn legal_exec(&self, e: &Exec, out: &mut Vec<Action>) {
        match &e.step {
            Step::Stavka | Step::AlliedGerman { .. } => self.legal_activation(e, out),
            Step::Move => {
                self.legal_moves(out);
                out.push(Action::EndMovement);
            }
            Step::Declare | Step::Order => self.legal_declarations(e, out),
            Step::AxisReinf(_) | Step::SovietReinf { .. } | Step::Place => self.legal_reinforcements(e, out),
            Step::Supply(_) => self.legal_supply(e, out),
        }
    }

    pub(crate) fn check_exec(&self, e: &Exec, a: &Action) -> Result<(), Refusal> {
        match (&e.step, a) {
            (Step::Stavka | Step::AlliedGerman { .. }, Action::Choose { .. } | Action::EndChoose) => {
                self.check_activation(e, a)
            }
            (Step::Move, Action::EndMovement) => Ok(()),
            (Step::Move, &Action::Move { unit, to, march, via }) => self.may_move(unit, to, march, via),
            (Step::Declare | Step::Order, _) => self.check_declaration(e, a),
            (Step::AxisReinf(_) | Step::SovietReinf { .. } | Step::Place, _) => self.check_reinforcements(e, a),
            (Step::Supply(_), _) => self.check_supply(e, a),
            (_, Action::Move { .. }) => Err(Refusal::new(
                "5.0(4)",
                text!("this is not the movement segment", "现在不是移动小节"),
            )),
            (_, Action::Declare { .. }) => Err(Refusal::new(
                "10.2(1)",
                text!(
                    "attacks are declared in the combat segment, after movement",
                    "攻击在移动之后的战斗小节宣言"
                ),
            )),
            _ => Err(not_now()),
        }
    }

    /// Carries out the command's current step: an action, or with none the step that
    /// follows by itself.
    pub(crate) fn execute(&mut self, a: Option<&Action>) {
        let step = self.exec_mut().step.clone();
        match (step, a) {
            (Step::Stavka | Step::AlliedGerman { .. }, Some(a)) => self.activation_choice(a),
            (Step::Move, Some(&Action::Move { unit, to, march, via })) => self.do_move(unit, to, march, via),
            (Step::Move, Some(Action::EndMovement)) => {
                self.journal.say(|| text!("Combat segment (10.0).", "战斗小节(10.0)。"));
                self.exec_mut().step = Step::Declare;
            }
            (Step::Declare | Step::Order, Some(a)) => self.declaration(a),
            (Step::AxisReinf(_) | Step::SovietReinf { .. } | Step::Place, a) => self.reinforcement_step(a),
            (Step::Supply(_), a) => self.supply_step(a),
            _ => {}
        }
    }
}

/// The refusal of an action that is not a choice of the current step.
pub(crate) fn not_now() -> Refusal {
    Refusal::new(
        "5.0",
        text!(
            "that action is not one of the choices of the current step",
            "该行动不是当前步骤的选项"
        ),
    )
}

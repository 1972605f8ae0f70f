//! Movement (3.1, SCS 6.0 with the TEC) and exploitation moves (SCS 11.0 as 1.2, 3.3, 3.4,
//! 3.5 and 4.3 amend it): which units may move now, where to (the cheapest route, or a route
//! the player gives), and the move itself walked hex by hex ([`March`]), so that what happens
//! on the way happens at the hex where it happens: a traffic jam (3.1), an enemy Full-marker
//! hex (3.5), enemy artillery bugging out as the unit comes next to it (3.6), the US chance to
//! blow a primed bridge as a German unit reaches it (3.8).

use crate::frames::{Frame, March};
use crate::rules::{barred, with_search, Board};
use crate::sequence::Side;
use crate::state::{JamStack, Loc, UnitId};
use crate::{Action, ArdennesII};
use sandtable_core::game::Refusal;
use sandtable_core::hex::Hex;
use sandtable_core::search::Why;
use sandtable_core::text;
use sandtable_core::text::{half_mp, Text};

/// Why a unit may not move now (before any question of where to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Held {
    /// 2.1: only the phasing side's units move.
    NotPhasing,
    /// It is not on the map.
    OffMap,
    /// 3.5: artillery that fired this phase does not move.
    Fired,
    /// 3.5: a unit that observed a barrage this phase does not move.
    Observed,
    /// 3.8: the US unit that tried to blow a bridge may not move further this phase.
    Stopped,
    /// SCS 11.0, 1.2: only units with the exploit bar exploit.
    NoExploitBar,
    /// 3.4: a DG unit does not exploit.
    Dg,
    /// 1.2: a unit next to the enemy when the phase began does not exploit.
    NextToEnemy,
    /// 3.5: a unit that began the phase in, or entered, an enemy Full-marker hex does not
    /// exploit.
    Barraged,
    /// 4.3, 1.2 (A12): German units do not exploit on turn 1.
    FirstTurn,
}

/// The moves a movement or exploitation phase's legal list begins with, as they were made
/// from each unit's and each stack's reach: what the next list needs to take over from it the
/// moves of those whose reach is the same kept one ([`ArdennesII::legal_moves`]).
#[derive(Clone, Default)]
pub(crate) struct MoveList {
    /// In list order: each unit's moves (and its exit), then each stack's.
    runs: Vec<Run>,
    /// How many of the runs were taken over from the list before.
    #[cfg(test)]
    taken: usize,
}

/// The moves of one unit or stack in a legal list, and the reach they were made from.
#[derive(Clone)]
struct Run {
    who: Mover,
    reach: crate::memo::Reach,
    /// 7.0: the unit's exit follows its moves.
    exit: bool,
    /// How many actions: the reach's hexes, and the exit.
    len: usize,
}

/// Who moves in a [`Run`].
#[derive(Clone, PartialEq)]
enum Mover {
    Unit(UnitId),
    Stack(crate::action::Units),
}

impl Run {
    fn new(who: Mover, reach: crate::memo::Reach, exit: bool) -> Run {
        let len = reach.len() + usize::from(exit);
        Run { who, reach, exit, len }
    }

    /// Whether this run's moves are `was`'s: the same mover, the very reach kept then (a
    /// reach the memo gives again is the same list), the same exit.
    fn same_as(&self, was: &Run) -> bool {
        self.who == was.who && std::sync::Arc::ptr_eq(&self.reach, &was.reach) && self.exit == was.exit
    }

    /// Writes the run's moves over `slots`, as many as it has.
    fn put_moves(&self, slots: &mut [Action]) {
        match &self.who {
            &Mover::Unit(u) => {
                for (slot, &(to, _)) in slots.iter_mut().zip(self.reach.iter()) {
                    *slot = Action::move_to(u, to);
                }
                if self.exit {
                    if let Some(slot) = slots.get_mut(self.reach.len()) {
                        *slot = Action::Exit { unit: u };
                    }
                }
            }
            Mover::Stack(units) => {
                for (slot, &(to, _)) in slots.iter_mut().zip(self.reach.iter()) {
                    *slot = Action::MoveStack {
                        units: units.clone(),
                        to,
                        via: crate::action::Via::default(),
                    };
                }
            }
        }
    }

    /// Appends the run's moves to `out`.
    fn push_moves(&self, out: &mut Vec<Action>) {
        match &self.who {
            &Mover::Unit(u) => {
                out.extend(self.reach.iter().map(|&(to, _)| Action::move_to(u, to)));
                if self.exit {
                    out.push(Action::Exit { unit: u });
                }
            }
            Mover::Stack(units) => {
                out.extend(self.reach.iter().map(|&(to, _)| Action::MoveStack {
                    units: units.clone(),
                    to,
                    via: crate::action::Via::default(),
                }));
            }
        }
    }
}

/// Makes `list`, the moves of the runs `old` (and nothing after them), into the moves of the
/// runs `new`, `n` of them: the moves of a run of `new` that is the same as a run of `old`
/// ([`Run::same_as`]) stay as they are, moved to where the run now begins; the others are
/// written anew. The runs of both are in list order, and a mover's run is looked for at most
/// one run further on in `old`, as a stack formed or broken up adds or takes away a run. How
/// many runs stay.
fn take_over(old: &[Run], new: &[Run], n: usize, list: &mut Vec<Action>) -> usize {
    // The blocks of moves that stay (where they begin in `list`, where they go, how many),
    // runs side by side in both lists in one block; and the runs written anew (their index
    // in `new`, where they go).
    let mut blocks: Vec<(usize, usize, usize)> = Vec::new();
    let mut fresh: Vec<(usize, usize)> = Vec::new();
    let (mut i, mut from, mut to, mut taken) = (0, 0, 0, 0);
    for (j, run) in new.iter().enumerate() {
        if old.get(i).is_some_and(|o| o.who != run.who) && old.get(i + 1).is_some_and(|o| o.who == run.who) {
            from += old[i].len;
            i += 1;
        }
        match old.get(i) {
            Some(o) if o.who == run.who => {
                if run.same_as(o) {
                    taken += 1;
                    match blocks.last_mut() {
                        Some(b) if b.0 + b.2 == from && b.1 + b.2 == to => b.2 += run.len,
                        _ => blocks.push((from, to, run.len)),
                    }
                } else {
                    fresh.push((j, to));
                }
                from += o.len;
                i += 1;
            }
            _ => fresh.push((j, to)),
        }
        to += run.len;
    }
    if n > list.len() {
        list.resize_with(n, || Action::EndPhase);
    }
    // A block moved up goes into room its own entries or those before it left; one moved down
    // into room of those after it. So the blocks moved up go first to last, the others last
    // to first, each before anything is written where it stood.
    for &(from, to, len) in &blocks {
        if to < from {
            shift(list, from, to, len);
        }
    }
    for &(from, to, len) in blocks.iter().rev() {
        if to > from {
            shift(list, from, to, len);
        }
    }
    for (j, to) in fresh {
        new[j].put_moves(&mut list[to..to + new[j].len]);
    }
    list.truncate(n);
    taken
}

/// Moves the `len` entries of `list` at `from` to `to`, over entries no longer wanted, which
/// end up where the block stood. A short move turns a window of the list a little at a time, a
/// copy each of at most a few thousand bytes; a long one swaps the block a piece at a time.
fn shift(list: &mut [Action], from: usize, to: usize, len: usize) {
    // A turn by at most this many entries is one copy of the rest through a small buffer.
    const SHORT: usize = 8;
    // Entries a window turns at a time.
    const WINDOW: usize = 120;
    let mut k = 0;
    if to < from {
        let d = from - to;
        while k < len {
            if d <= SHORT {
                let c = (WINDOW - d).min(len - k);
                list[to + k..from + k + c].rotate_left(d);
                k += c;
            } else {
                let c = d.min(len - k);
                let (before, after) = list.split_at_mut(from + k);
                before[to + k..to + k + c].swap_with_slice(&mut after[..c]);
                k += c;
            }
        }
    } else {
        let d = to - from;
        // `k` counts the entries moved, from the block's end.
        while k < len {
            let end = len - k;
            if d <= SHORT {
                let c = (WINDOW - d).min(end);
                list[from + end - c..to + end].rotate_right(d);
                k += c;
            } else {
                let c = d.min(end);
                let (before, after) = list.split_at_mut(to + end - c);
                before[from + end - c..from + end].swap_with_slice(&mut after[..c]);
                k += c;
            }
        }
    }
}

/// The room [`ArdennesII::legal_moves`] leaves in the legal list past the moves: for the
/// overruns, boats and demolitions a movement phase seldom has many of, and its end.
const MORE_CHOICES: usize = 16;

impl ArdennesII {
    /// SCS 11.0 with 1.2, 3.3, 3.4, 3.5, 4.3: why this unit may not exploit, if it may not.
    pub(crate) fn exploit_bar(&self, u: UnitId) -> Result<(), Held> {
        let st = &self.s.units[u as usize];
        let def = &self.w.data.counters.units[u as usize];
        if !def.exploit {
            Err(Held::NoExploitBar)
        } else if st.dg {
            Err(Held::Dg)
        } else if st.adjacent_at_start {
            Err(Held::NextToEnemy)
        } else if st.barraged {
            Err(Held::Barraged)
        } else if self.german_on_turn_1(def.side) {
            Err(Held::FirstTurn)
        } else {
            Ok(())
        }
    }

    /// Whether the unit may exploit.
    pub(crate) fn may_exploit(&self, u: UnitId) -> bool {
        self.exploit_bar(u).is_ok()
    }

    /// 1.2, 4.3: German units are not exploit-capable on turn 1 (inventory A12).
    pub(crate) fn german_on_turn_1(&self, side: Side) -> bool {
        side == Side::German && self.s.turn == 1
    }

    /// Whether unit `u` (a valid id) may move at all now, in a movement phase of `side` or
    /// (with `exploitation`) its exploitation phase.
    pub(crate) fn may_start_move(&self, u: UnitId, side: Side, exploitation: bool) -> Result<(), Held> {
        let st = &self.s.units[u as usize];
        if self.unit_side(u) != side {
            return Err(Held::NotPhasing);
        }
        if st.hex().is_none() {
            return Err(Held::OffMap);
        }
        if st.fired {
            return Err(Held::Fired);
        }
        if st.observed {
            return Err(Held::Observed);
        }
        if st.stopped {
            return Err(Held::Stopped);
        }
        if exploitation {
            self.exploit_bar(u)?;
        }
        Ok(())
    }

    /// A reason a unit may not move, as a refusal.
    pub(crate) fn held_refusal(&self, u: UnitId, held: Held) -> Refusal {
        let name = self.unit_text(u);
        let (rule, en, zh) = match held {
            Held::NotPhasing => (
                "2.1",
                "only the phasing player's units move now",
                "现在只有行动方的单位可以移动",
            ),
            Held::OffMap => ("1.2", "that unit is not on the map", "该单位不在地图上"),
            Held::Fired => ("3.5", "it fired this phase and may not move", "它本阶段已射击,不能移动"),
            Held::Observed => (
                "3.5",
                "it observed a barrage this phase and may not move",
                "它本阶段担任了射击观测员,不能移动",
            ),
            Held::Stopped => (
                "3.8",
                "it stopped to blow a bridge and may not move further this phase",
                "它为炸桥而停止,本阶段不能再移动",
            ),
            Held::NoExploitBar => (
                "1.2",
                "only units with the exploit bar move in an exploitation phase",
                "只有具进击能力的单位可以在进击阶段移动",
            ),
            Held::Dg => ("3.4", "a DG unit may not exploit", "混乱单位不能进击"),
            Held::NextToEnemy => (
                "1.2",
                "a unit next to the enemy when the phase began may not exploit",
                "阶段开始时与敌相邻的单位不能进击",
            ),
            Held::Barraged => (
                "3.5",
                "a unit that began the phase in, or entered, an enemy Full-marker hex may not exploit",
                "阶段开始时位于或进入过敌方完整射击标记格的单位不能进击",
            ),
            Held::FirstTurn => (
                "4.3",
                "German units may not exploit on turn 1",
                "德军单位第 1 回合不能进击",
            ),
        };
        Refusal::new(
            rule,
            Text::new(format!("{}: {en}", name.en), format!("{}:{zh}", name.zh)),
        )
    }

    /// The moves (and exits) of `side`'s units now, into `out`: each unit that may move, to
    /// every hex it can reach with the MP it has left, by the cheapest route; the list made with
    /// room for `more` choices to be listed after them. `out` begins with the moves `last` says
    /// it does (or with anything, if `last` is `None`): the moves of each unit and stack whose
    /// reach is the same kept one ([`crate::memo::Memo`]) are taken over from it as they are,
    /// the others made again, and everything after the moves is dropped. What the moves were
    /// made from.
    pub(crate) fn legal_moves(
        &self,
        side: Side,
        exploitation: bool,
        more: usize,
        last: Option<MoveList>,
        out: &mut Vec<Action>,
    ) -> MoveList {
        let b = Board::new(&self.w, &self.s);
        let runs = with_search(|search| {
            // Each unit's and each stack's destinations first, so that the list grows once to
            // its length.
            let mut runs = Vec::new();
            for u in self.units_of(side) {
                if self.may_start_move(u, side, exploitation).is_err() {
                    continue;
                }
                let reach = b.destinations(u, search);
                // `may_exit`, for a unit free to move (checked above).
                let exit = self.at_exit(u, side);
                runs.push(Run::new(Mover::Unit(u), reach, exit));
            }
            // SCS 6.0, 3.1 (data edition 3): the units of a hex that may move, together. Only
            // the whole group is offered; any two or more of them may be named (`move-stack`).
            if self.edition >= 3 {
                for &h in b.held_by(side) {
                    // A hex of one unit has no stack to move together.
                    let stack = b.stack(h);
                    if stack.len() < 2 {
                        continue;
                    }
                    let group: Vec<UnitId> = stack
                        .iter()
                        .copied()
                        .filter(|&u| self.may_start_move(u, side, exploitation).is_ok() && b.stack_left(&[u]) > 0)
                        .collect();
                    if group.len() < 2 {
                        continue;
                    }
                    let reach = b.stack_destinations(&group, search);
                    runs.push(Run::new(Mover::Stack(group.into()), reach, false));
                }
            }
            runs
        });
        let n: usize = runs.iter().map(|r| r.len).sum();
        let old_n = last.as_ref().map(|l| l.runs.iter().map(|r| r.len).sum::<usize>());
        match (last, old_n) {
            // The moves of a unit or stack whose reach is the one they were made from stay in
            // the list, moved up or down as the runs before them changed length; only the
            // others are made again, and everything after the moves is dropped.
            (Some(last), Some(old_n)) if out.len() >= old_n => {
                out.truncate(old_n);
                let taken = take_over(&last.runs, &runs, n, out);
                // With room for a few more choices and the phase's end, so that the long list
                // is not copied to grow by one.
                out.reserve(more + MORE_CHOICES);
                #[cfg(test)]
                return MoveList { runs, taken };
                #[cfg(not(test))]
                let _ = taken;
            }
            _ => {
                out.clear();
                out.reserve(n + more + MORE_CHOICES);
                for run in &runs {
                    run.push_moves(out);
                }
            }
        }
        MoveList {
            runs,
            #[cfg(test)]
            taken: 0,
        }
    }

    /// Whether `side` has any move, exit or overrun in its exploitation phase (or movement
    /// phase) now: the first one found.
    pub(crate) fn any_move(&self, side: Side, exploitation: bool) -> bool {
        let b = Board::new(&self.w, &self.s);
        let found = with_search(|search| {
            self.units_of(side).any(|u| {
                self.may_start_move(u, side, exploitation).is_ok()
                    && (!b.destinations(u, search).is_empty() || self.may_exit(u, side, exploitation).is_ok())
            })
        });
        if found {
            return true;
        }
        let mut out = Vec::new();
        self.legal_overruns(side, exploitation, &mut out);
        !out.is_empty()
    }

    /// Whether unit `u` may move to `to` now (by `via`, if given), and if not what stops it.
    pub(crate) fn may_move(
        &self,
        u: UnitId,
        to: Hex,
        via: &[Hex],
        side: Side,
        exploitation: bool,
    ) -> Result<(), Refusal> {
        self.known_unit(u)?;
        self.known_hex(to)?;
        for &h in via {
            self.known_hex(h)?;
        }
        self.may_start_move(u, side, exploitation)
            .map_err(|held| self.held_refusal(u, held))?;
        if !via.is_empty() {
            return self.route_by(&[u], to, via).map(|_| ());
        }
        let b = Board::new(&self.w, &self.s);
        let reach = with_search(|search| b.destinations(u, search));
        if reach.binary_search_by_key(&to, |&(h, _)| h).is_ok() {
            return Ok(());
        }
        Err(self.unreached(&b, &[u], to))
    }

    /// SCS 6.0, 3.1 (data edition 3): whether the units `units` may move together, as one
    /// stack, to `to` now (by `via`, if given): two or more units, each named once, standing in
    /// one hex, each free to move now, along a route open to every one of them that the unit
    /// with the fewest MP left can pay at the dearest unit's costs (RULINGS).
    pub(crate) fn may_move_stack(
        &self,
        units: &[UnitId],
        to: Hex,
        via: &[Hex],
        side: Side,
        exploitation: bool,
    ) -> Result<(), Refusal> {
        if self.edition < 3 {
            let e = self.edition;
            return Err(Refusal::new(
                "SCS 6.0",
                text!(
                    "in a game begun on data edition {e} units move one at a time (stacks move together from edition 3 on)",
                    "在数据第 {e} 版开始的对局中单位逐个移动(第 3 版起堆叠可以一起移动)"
                ),
            ));
        }
        for &u in units {
            self.known_unit(u)?;
        }
        self.known_hex(to)?;
        for &h in via {
            self.known_hex(h)?;
        }
        if units.len() < 2 {
            return Err(Refusal::new(
                "SCS 6.0",
                text!(
                    "a stack moving together has two units or more; move a single unit with `move`",
                    "一起移动的堆叠须有两个或以上单位;单个单位请用 `move` 移动"
                ),
            ));
        }
        for (k, &u) in units.iter().enumerate() {
            if units[..k].contains(&u) {
                let name = self.unit_text(u);
                return Err(Refusal::new(
                    "SCS 6.0",
                    Text::new(
                        format!("{} is named twice in the stack", name.en),
                        format!("{}在堆叠中出现了两次", name.zh),
                    ),
                ));
            }
            self.may_start_move(u, side, exploitation)
                .map_err(|held| self.held_refusal(u, held))?;
        }
        let start = self.s.units[units[0] as usize].hex();
        if let Some(&u) = units.iter().find(|&&u| self.s.units[u as usize].hex() != start) {
            let name = self.unit_text(u);
            let hid = start.map(|h| self.w.data.hex_id(h)).unwrap_or_default();
            return Err(Refusal::new(
                "SCS 6.0",
                Text::new(
                    format!(
                        "units move together only from one hex: {} is not in {hid} with the first unit",
                        name.en
                    ),
                    format!("只有同一格的单位可以一起移动:{}不在第一个单位所在的 {hid}", name.zh),
                ),
            ));
        }
        if !via.is_empty() {
            return self.route_by(units, to, via).map(|_| ());
        }
        let b = Board::new(&self.w, &self.s);
        let reach = with_search(|search| b.stack_destinations(units, search));
        if reach.binary_search_by_key(&to, |&(h, _)| h).is_ok() {
            return Ok(());
        }
        Err(self.unreached(&b, units, to))
    }

    /// The units of a move in words: one unit's name, or "the stack of A, B" for a stack moving
    /// together.
    pub(crate) fn movers_text(&self, units: &[UnitId]) -> Text {
        if let [u] = units {
            return self.unit_text(*u);
        }
        let names: Vec<Text> = units.iter().map(|&u| self.unit_text(u)).collect();
        let en: Vec<&str> = names.iter().map(|t| t.en.as_str()).collect();
        let zh: Vec<&str> = names.iter().map(|t| t.zh.as_str()).collect();
        Text::new(
            format!("the stack of {}", en.join(", ")),
            format!("{}组成的堆叠", zh.join("、")),
        )
    }

    /// Why unit `u` (or the stack `units` moving together) cannot reach `to` with the MP it has
    /// left: not enough MP for the cheapest route, or what bars every way there.
    fn unreached(&self, b: &Board, units: &[UnitId], to: Hex) -> Refusal {
        let name = self.movers_text(units);
        let hid = self.w.data.hex_id(to);
        let st = &self.s.units[units[0] as usize];
        if st.hex() == Some(to) {
            return Refusal::new(
                "3.1",
                Text::new(
                    format!("{} is in {hid} already", capitalized(&name.en)),
                    format!("{}已在 {hid}", name.zh),
                ),
            );
        }
        let left = b.stack_left(units);
        with_search(|search| {
            b.reach_stack_within(units, u32::MAX - 1, search);
            if let Some(cost) = search.cost(to) {
                let (need, have) = (half_mp(cost), half_mp(left));
                return Refusal::new(
                    "3.1",
                    Text::new(
                        format!(
                            "the cheapest route to {hid} costs {}; {} has {} left",
                            need.en, name.en, have.en
                        ),
                        format!("到 {hid} 最省的路线需要{};{}只剩{}", need.zh, name.zh, have.zh),
                    ),
                );
            }
            match search.why(to) {
                // What barred the step: the first unit of the stack it is barred to.
                Some(why) => {
                    let grid = &self.w.map.grid;
                    let barred_to = |u: UnitId| {
                        grid.neighbours(to).any(|(_, from)| {
                            grid.dir_to(from, to)
                                .is_some_and(|d| b.step(u, from, d, to) == Err(why))
                        })
                    };
                    let u = match units {
                        [u] => *u,
                        _ => units.iter().copied().find(|&u| barred_to(u)).unwrap_or(units[0]),
                    };
                    self.barred_refusal(u, to, why)
                }
                None => Refusal::new(
                    "3.1",
                    Text::new(
                        format!("{} has no route to {hid}", name.en),
                        format!("{}没有到 {hid} 的路线", name.zh),
                    ),
                ),
            }
        })
    }

    /// What bars unit `u`'s step into `to`, as a refusal.
    fn barred_refusal(&self, u: UnitId, to: Hex, why: Why) -> Refusal {
        let hid = self.w.data.hex_id(to);
        let mech = self.w.data.counters.units[u as usize].is_mech();
        let (kind_en, kind_zh) = if mech {
            ("mechanized", "机械化")
        } else {
            ("foot", "步行")
        };
        let (rule, en, zh) = match why {
            barred::ENEMY => ("3.1", format!("an enemy unit holds {hid}"), format!("{hid} 有敌军单位")),
            barred::OUTSIDE => (
                "7.0",
                format!("{hid} is outside the scenario's playing area"),
                format!("{hid} 在剧本游戏区域之外"),
            ),
            barred::ARTILLERY_NEAR_ENEMY => (
                "3.6",
                format!("artillery may not enter {hid}, next to an enemy unit"),
                format!("火炮不能进入与敌军单位相邻的 {hid}"),
            ),
            barred::JAM_HELD => (
                "3.1",
                format!("the traffic jam at {hid} is held by German units and closed to other German units"),
                format!("{hid} 的交通堵塞格已有德军单位,其他德军单位不得进入"),
            ),
            barred::TERRAIN => (
                "1.3",
                format!("the terrain of {hid} is prohibited to {kind_en} units (TEC)"),
                format!("{hid} 的地形禁止{kind_zh}单位进入(地形效果表)"),
            ),
            barred::HEXSIDE => (
                "1.3",
                format!(
                    "the hexside into {hid} is prohibited to {kind_en} units and no usable road crosses it (TEC, 3.8)"
                ),
                format!("进入 {hid} 的格边禁止{kind_zh}单位通过,且没有可用的道路跨越(地形效果表,3.8)"),
            ),
            _ => ("3.1", format!("{hid} cannot be entered"), format!("不能进入 {hid}")),
        };
        Refusal::new(rule, Text::new(en, zh))
    }

    /// A route the player gives for unit `units[0]` (or the stack `units` moving together) to
    /// `to` through `via`, priced step by step on the position as it is: every step into a
    /// neighbouring hex every unit may enter, no hex twice, a traffic jam only at the end (3.1),
    /// within the MP the unit (each unit of the stack) has left, a stack's steps at the dearest
    /// unit's costs.
    fn route_by(&self, units: &[UnitId], to: Hex, via: &[Hex]) -> Result<Vec<(Hex, u32)>, Refusal> {
        let b = Board::new(&self.w, &self.s);
        let grid = &self.w.map.grid;
        let u = units[0];
        let Some(start) = self.s.units[u as usize].hex() else {
            return Err(self.held_refusal(u, Held::OffMap));
        };
        let german = self.unit_side(u) == Side::German;
        let left = b.stack_left(units);
        let mut route = Vec::with_capacity(via.len() + 1);
        let (mut from, mut total) = (start, 0u32);
        let mut seen = vec![start];
        for (k, &h) in via.iter().chain(std::iter::once(&to)).enumerate() {
            let hid = self.w.data.hex_id(h);
            let Some(d) = grid.dir_to(from, h) else {
                let from_id = self.w.data.hex_id(from);
                return Err(Refusal::new(
                    "3.1",
                    Text::new(
                        format!("a route goes from hex to neighbouring hex: {hid} is not next to {from_id}"),
                        format!("路线须逐格相邻:{hid} 与 {from_id} 不相邻"),
                    ),
                ));
            };
            if seen.contains(&h) {
                return Err(Refusal::new(
                    "3.1",
                    Text::new(
                        format!("a route enters each hex once, and {hid} comes twice"),
                        format!("路线每格只能进入一次,{hid} 出现了两次"),
                    ),
                ));
            }
            seen.push(h);
            let cost = b
                .stack_step(units, from, d, h)
                .map_err(|(v, why)| self.barred_refusal(v, h, why))?;
            total += cost;
            route.push((h, cost));
            if german && b.traffic_jam(h) && k < via.len() {
                return Err(Refusal::new(
                    "3.1",
                    Text::new(
                        format!("a German unit entering the traffic jam at {hid} stops there (it becomes DG)"),
                        format!("德军单位进入 {hid} 的交通堵塞格后须停止(成为混乱)"),
                    ),
                ));
            }
            from = h;
        }
        if total > left {
            let name = self.movers_text(units);
            let (need, have) = (half_mp(total), half_mp(left));
            let hid = self.w.data.hex_id(to);
            return Err(Refusal::new(
                "3.1",
                Text::new(
                    format!(
                        "that route to {hid} costs {}; {} has {} left",
                        need.en, name.en, have.en
                    ),
                    format!("这条到 {hid} 的路线需要{};{}只剩{}", need.zh, name.zh, have.zh),
                ),
            ));
        }
        Ok(route)
    }

    /// The cheapest route of unit `units[0]` (or the stack `units` moving together) to `to`:
    /// each hex entered with its cost in half MP. A unit's is the route kept with its reach in
    /// the state's memo.
    pub(crate) fn cheapest_route(&self, units: &[UnitId], to: Hex) -> Vec<(Hex, u32)> {
        let b = Board::new(&self.w, &self.s);
        match units {
            [u] => with_search(|search| self.s.memo.route(&b, *u, to, search)),
            _ => self.cheapest_route_by_search(units, to),
        }
    }

    /// [`Self::cheapest_route`] by a search afresh: the route the kept one is tested against.
    pub(crate) fn cheapest_route_by_search(&self, units: &[UnitId], to: Hex) -> Vec<(Hex, u32)> {
        let b = Board::new(&self.w, &self.s);
        with_search(|search| {
            match units {
                [u] => b.reach(*u, search),
                _ => b.reach_stack_within(units, b.stack_left(units), search),
            };
            let Some(path) = search.path(to) else {
                return Vec::new();
            };
            let mut route = Vec::with_capacity(path.len());
            let mut before = 0;
            for &h in path.iter().skip(1) {
                let cost = search.cost(h).unwrap_or(before);
                route.push((h, cost - before));
                before = cost;
            }
            route
        })
    }

    /// A move (checked) begins: the march of the unit (or of the stack moving together,
    /// SCS 6.0) along its route goes on the procedure stack.
    pub(crate) fn start_march(&mut self, units: &[UnitId], to: Hex, via: &[Hex]) {
        let Some(&u) = units.first() else { return };
        let Some(from) = self.s.units[u as usize].hex() else {
            return;
        };
        let route = if via.is_empty() {
            self.cheapest_route(units, to)
        } else {
            self.route_by(units, to, via).unwrap_or_default()
        };
        self.engine.push(Frame::March(March {
            unit: u,
            with: units[1..].to_vec(),
            start: from,
            route,
            from,
            stretch: 0,
            reprice: false,
            alerted: Vec::new(),
        }));
    }

    /// One step of a march: the unit enters the next hex of its route. Before a German unit
    /// enters a hex that would end the chance to blow a primed bridge, the US player may try to
    /// blow it (3.8); enemy artillery the unit comes next to bugs out at once (3.6). Either
    /// way the march goes on afterwards, the rest of its route priced on the position as it
    /// then is.
    pub(crate) fn march(&mut self, mut m: March) {
        let u = m.unit;
        let Some(at) = self.s.units[u as usize].hex() else {
            return;
        };
        let movers = m.movers();
        if m.reprice {
            m.reprice = false;
            m.route = self.reprice(&movers, at, &m.route);
        }
        let Some(&(next, cost)) = m.route.first() else {
            self.end_march(&m, at);
            return;
        };
        // 3.8: "at any moment": as a German unit reaches a hex that would end the chance to blow
        // a primed bridge (a hex of the bridge, or the symbol's hex), the US may try to blow it.
        // A stack moving together reaches the bridge as one: the US is offered it if it was
        // not yet offered for one of its units.
        let mut primed = self.primed_ahead(u, next);
        for &v in &m.with {
            for i in self.primed_ahead(v, next) {
                if !primed.contains(&i) {
                    primed.push(i);
                }
            }
        }
        primed.sort_unstable();
        if !primed.is_empty() {
            self.log_stretch(&m, at);
            self.bridge_ahead(u, at, &primed);
            // A stack moving together reaches the bridge once.
            for &v in &m.with {
                self.s.approached.extend(primed.iter().map(|&i| (v, i)));
            }
            self.engine.push(Frame::March(March {
                from: at,
                stretch: 0,
                reprice: true,
                ..m
            }));
            self.engine.push(Frame::Demolitions);
            return;
        }
        m.route.remove(0);
        m.stretch += cost;
        let empty_jam = self.edition >= 3 && self.unit_side(u) == Side::German && {
            let b = Board::new(&self.w, &self.s);
            b.traffic_jam(next) && b.stack(next).is_empty()
        };
        for &v in &movers {
            self.s.set_loc(v, Loc::Map(next));
            let st = &mut self.s.units[v as usize];
            st.spent = st.spent.saturating_add(cost.min(u16::MAX as u32) as u16);
            st.moved = true;
        }
        if empty_jam {
            self.jam_stack(&movers, m.start, next);
        }
        // 3.6: enemy artillery the unit comes next to bugs out "at that instant", before the
        // unit goes on; each gun once a march (one with nowhere to go stays).
        let mut guns: Vec<UnitId> = Vec::new();
        for &v in &movers {
            for g in self.bug_out_triggered(v, next) {
                if !m.alerted.contains(&g) && !guns.contains(&g) {
                    guns.push(g);
                }
            }
        }
        m.alerted.extend_from_slice(&guns);
        let done = m.route.is_empty();
        if done {
            self.end_march(&m, next);
        } else if !guns.is_empty() {
            self.log_stretch(&m, next);
            m.from = next;
            m.stretch = 0;
            m.reprice = true;
        }
        // 3.1 a traffic jam, 3.5 an enemy Full marker: what entering the hex does.
        for &v in &movers {
            self.entered(v, next);
        }
        if !done {
            self.engine.push(Frame::March(m));
        }
        if !guns.is_empty() {
            self.engine.push(Frame::BugOut { queue: guns });
        }
    }

    /// 3.1 (data edition 3): German unit `movers[0]` (or the stack `movers` moving together),
    /// whose move began at `start`, has entered the empty traffic jam at `jam`: the stack it
    /// moves with — itself and the German units still at `start` that have not moved this phase
    /// — may be in the jam together, the units left behind following it in by moves of their own
    /// (RULINGS).
    fn jam_stack(&mut self, movers: &[UnitId], start: Hex, jam: Hex) {
        let mut units = movers.to_vec();
        units.extend((0..self.s.units.len() as UnitId).filter(|&v| {
            let st = &self.s.units[v as usize];
            !movers.contains(&v) && st.hex() == Some(start) && !st.moved && self.unit_side(v) == Side::German
        }));
        self.s.jam_stacks.retain(|j| j.jam != jam);
        self.s.jam_stacks.push(JamStack { jam, units });
    }

    /// The rest of a march's route priced again on the position as it is now: it ends before
    /// the first step that is barred (a bridge blown, an enemy unit come in the way) or that the
    /// MP left cannot pay, and at a traffic jam (3.1); a stack moving together at its dearest
    /// unit's costs and its fewest MP left.
    fn reprice(&self, units: &[UnitId], at: Hex, route: &[(Hex, u32)]) -> Vec<(Hex, u32)> {
        let b = Board::new(&self.w, &self.s);
        let grid = &self.w.map.grid;
        let german = self.unit_side(units[0]) == Side::German;
        let left = b.stack_left(units);
        let mut out = Vec::new();
        let (mut from, mut total) = (at, 0);
        for &(h, _) in route {
            let Some(d) = grid.dir_to(from, h) else { break };
            match b.stack_step(units, from, d, h) {
                Ok(c) if total + c <= left => {
                    total += c;
                    out.push((h, c));
                }
                _ => break,
            }
            if german && b.traffic_jam(h) {
                break;
            }
            from = h;
        }
        out
    }

    /// The log line of the stretch of a march walked since the last one, if any.
    fn log_stretch(&mut self, m: &March, at: Hex) {
        if m.from == at || self.journal.off {
            return;
        }
        let name = self.movers_text(&m.movers());
        let (from, hid) = (self.w.data.hex_id(m.from), self.w.data.hex_id(at));
        let mp = half_mp(m.stretch);
        let (moves, moves_zh) = if m.with.is_empty() {
            ("moves", "移动")
        } else {
            ("moves together", "一起移动")
        };
        let marks = crate::marks::moved(&self.w, &m.movers(), m.from, at, crate::marks::mv);
        self.journal.say_marked(
            || {
                Text::new(
                    format!("{} {moves} {from} → {hid} ({}).", capitalized(&name.en), mp.en),
                    format!("{}{moves_zh} {from} → {hid}({})。", name.zh, mp.zh),
                )
            },
            || marks,
        );
    }

    /// The march is over: its last stretch is logged, and a VP hex it ends in may change hands
    /// (6.0).
    fn end_march(&mut self, m: &March, at: Hex) {
        self.log_stretch(m, at);
        // 3.1: a unit that has moved elsewhere than into its stack's traffic jam no longer
        // moves with that stack.
        let movers = m.movers();
        if at != m.start && !self.s.jam_stacks.is_empty() {
            for j in self.s.jam_stacks.iter_mut().filter(|j| j.jam != at) {
                j.units.retain(|v| !movers.contains(v));
            }
            self.s.jam_stacks.retain(|j| !j.units.is_empty());
        }
        // A unit that did not leave its hex comes to no hex.
        if at == m.start {
            return;
        }
        let side = self.unit_side(m.unit);
        let others = (0..self.s.units.len() as UnitId)
            .any(|v| self.s.units[v as usize].hex() == Some(at) && self.unit_side(v) == side && !movers.contains(&v));
        self.occupy(at, others.then_some(side));
    }

    /// What entering hex `h` does to unit `u`, however it came there: a German unit entering a
    /// traffic jam on turns 1–2 becomes DG (3.1, 3.4); a unit entering a hex with an enemy Full
    /// marker may neither overrun nor exploit for the rest of the phase (3.5).
    pub(crate) fn entered(&mut self, u: UnitId, h: Hex) {
        let side = self.unit_side(u);
        let b = Board::new(&self.w, &self.s);
        let jam = side == Side::German && b.traffic_jam(h);
        let marked = b.full_markers(h, side.enemy()) > 0;
        let st = &mut self.s.units[u as usize];
        st.dg |= jam;
        st.barraged |= marked;
    }

    /// Unit `u` comes into hex `h` other than by a move of its own (an advance, an overrun's
    /// entry, a retreat, a placement), with what entering does ([`Self::entered`]).
    pub(crate) fn enter(&mut self, u: UnitId, h: Hex) {
        self.s.set_loc(u, Loc::Map(h));
        self.entered(u, h);
    }

    /// The side whose units stand in `h`, if any.
    pub(crate) fn holder(&self, h: Hex) -> Option<Side> {
        (0..self.s.units.len() as UnitId)
            .find(|&u| self.s.units[u as usize].hex() == Some(h))
            .map(|u| self.unit_side(u))
    }

    /// A unit id that names a counter of the manifest.
    pub(crate) fn known_unit(&self, u: UnitId) -> Result<(), Refusal> {
        if (u as usize) < self.s.units.len() {
            Ok(())
        } else {
            Err(Refusal::new(
                "1.2",
                text!(
                    "there is no unit {u} in the counter manifest",
                    "算子清单中没有编号为 {u} 的单位"
                ),
            ))
        }
    }

    /// A hex id that names a hex of the map.
    pub(crate) fn known_hex(&self, h: Hex) -> Result<(), Refusal> {
        if h.idx() < self.w.map.grid.len() {
            Ok(())
        } else {
            let n = h.0;
            Err(Refusal::new(
                "1.3",
                text!("there is no hex {n} on the map", "地图上没有编号为 {n} 的格"),
            ))
        }
    }
}

/// An English sentence's first word with its capital ("the stack of …" opening a line).
fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use crate::ArdennesII;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::{play_randomly_watching, Game, Rules};

    /// Runs of moves of every length, kept, changed, added and taken away at random: the list
    /// made from the one before, its kept moves moved up and down by short and long ways, is
    /// the list made afresh.
    #[test]
    fn moves_taken_over_and_moved_are_the_moves_made_afresh() {
        use super::{take_over, Mover, Run};
        use sandtable_core::hex::Hex;
        let mut rng = Rng::from_seed(7);
        let reach = |rng: &mut Rng| -> crate::memo::Reach {
            let len = match rng.below(4) {
                0 => rng.below(3),
                1 => rng.below(12),
                _ => rng.below(300),
            };
            (0..len)
                .map(|i| (Hex(rng.below(1000) as u16), i))
                .collect::<Vec<_>>()
                .into()
        };
        let (mut taken, mut made) = (0, 0);
        for _ in 0..400 {
            let mut old = Vec::new();
            for u in 0..rng.below(40) as u16 {
                // A stack has no exit.
                let (who, exit) = if rng.below(5) == 0 {
                    (Mover::Stack(vec![u, u + 100].into()), false)
                } else {
                    (Mover::Unit(u), rng.below(3) == 0)
                };
                old.push(Run::new(who, reach(&mut rng), exit));
            }
            let mut new = Vec::new();
            for o in &old {
                match rng.below(8) {
                    // A stack broken up, or a unit gone.
                    0 => {}
                    // A stack formed next to it.
                    1 => {
                        new.push(o.clone());
                        new.push(Run::new(Mover::Stack(vec![999, 998].into()), reach(&mut rng), false));
                    }
                    // The same mover with another reach.
                    2 | 3 => new.push(Run::new(o.who.clone(), reach(&mut rng), o.exit)),
                    _ => new.push(o.clone()),
                }
            }
            let mut list = Vec::new();
            for o in &old {
                o.push_moves(&mut list);
            }
            let mut fresh = Vec::new();
            for r in &new {
                r.push_moves(&mut fresh);
            }
            taken += take_over(&old, &new, fresh.len(), &mut list);
            made += new.len();
            assert!(list == fresh, "{} runs made from {}", new.len(), old.len());
        }
        assert!(
            taken > 2000 && taken * 3 < made * 2,
            "{taken} of {made} runs taken over"
        );
    }

    /// A movement or exploitation phase's legal list made from the list before it, the moves of
    /// each unit and stack whose reach is the same kept one taken over from that list, is at
    /// every decision of random play the list made afresh; and most runs of moves are taken
    /// over.
    #[test]
    fn a_legal_list_made_from_the_one_before_is_the_one_made_afresh() {
        let (mut compared, mut taken, mut runs) = (0, 0, 0);
        for (scenario, seed, decisions) in [("campaign", 31, 1000), ("goose-egg", 32, 1500)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            let mut step = 0;
            play_randomly_watching(&mut g, &mut rng, decisions, |g| {
                let list = g.legal_list();
                let frame = g.engine().top().expect("a decision");
                let mut fresh = Vec::new();
                g.legal_at(frame, &mut fresh);
                assert!(
                    *list == fresh,
                    "{scenario} step {step}: the list made from the one before"
                );
                if let Some(moves) = g.s.memo.last_moves() {
                    taken += moves.taken;
                    runs += moves.runs.len();
                }
                compared += 1;
                step += 1;
            })
            .expect("random play goes on");
        }
        assert!(
            compared > 1500 && taken > 30_000 && taken * 2 > runs,
            "{compared} lists, {taken} of {runs} runs of moves taken over"
        );
    }
}

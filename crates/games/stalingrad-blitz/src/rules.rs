//! The rule computations the procedures share: stacking (3.1), zones of control (3.2), lines
//! of communication (3.3), movement (9.0), odds and shifts (10.3), retreat (10.6) and advance
//! (10.7) destinations. Each is a plain function of the state; nothing here changes it.

use crate::data::{Data, Side, UType};
use crate::state::{Fortress, Loc, State, UnitId};
use sandtable_core::hex::Hex;
use sandtable_core::search::{Search, Step, Why};
use sandtable_core::stack::StackIndex;
use std::cell::RefCell;
use std::sync::Arc;
use std::thread::LocalKey;

/// 3.1(1): at most two units per hex, HQs included.
pub const STACK_LIMIT: usize = 2;

/// Why a movement step is refused, as the search keeps it to name what stopped a unit
/// ([`crate::movement`] says it in words, with the rule).
pub mod why {
    use sandtable_core::search::Why;
    /// TEC: a prohibited hexside (the Kerch Strait's, say).
    pub const PROHIBITED: Why = Why(1);
    /// TEC: all-sea or impassable terrain.
    pub const IMPASSABLE: Why = Why(2);
    /// 3.1(2): a hex holding enemy units.
    pub const ENEMY: Why = Why(3);
    /// 9.2(3): an unbridged major river, crossed only from the move's start, not ZOC to ZOC.
    pub const MAJOR_RIVER: Why = Why(4);
    /// 9.2(4): a mountain hex, entered or left only along a road (or by a mountain division
    /// from its start).
    pub const MOUNTAIN: Why = Why(5);
    /// 9.3(1): march formation keeps to roads.
    pub const OFF_ROAD: Why = Why(6);
    /// 9.3(1): march formation never enters an enemy ZOC.
    pub const MARCH_ZOC: Why = Why(7);
}

/// Where the pieces stand, worked out once per position: the stacks, who holds each hex, the
/// zones of control, the fortresses. It depends only on where the units and fortresses are.
#[derive(Debug, PartialEq)]
pub struct Layout {
    /// Units per hex (3.1).
    pub stacks: StackIndex,
    /// Which side occupies each hex (units or a fortress).
    pub owner: Vec<Option<Side>>,
    /// For the Axis / the Soviets: how many hexes they occupy project a ZOC into each hex (3.2).
    zoc_of: [Vec<u8>; 2],
    pub fortress: Vec<u8>,
}

impl Layout {
    fn new(d: &Data, s: &State) -> Layout {
        let n = d.map.grid.len();
        let mut l = Layout {
            stacks: stacks(d, s),
            owner: vec![None; n],
            zoc_of: [vec![0; n], vec![0; n]],
            fortress: vec![0u8; n],
        };
        l.hold(d, s);
        l
    }

    /// [`Layout::new`] worked out again in this layout's memory, for a position on the same
    /// map: the stacks rebuilt in their lists, every hex emptied, then held again.
    fn renew(&mut self, d: &Data, s: &State) {
        let placed = (s.units.iter().enumerate()).filter_map(|(i, u)| u.hex().map(|h| (i as UnitId, h)));
        self.stacks.rebuild(std::iter::empty(), placed);
        self.owner.fill(None);
        for zoc in &mut self.zoc_of {
            zoc.fill(0);
        }
        self.fortress.fill(0);
        self.hold(d, s);
    }

    /// On an empty layout but for the stacks: the fortresses, who holds each hex (3.1) and
    /// the ZOC each projects (3.2, 14.2(6)).
    fn hold(&mut self, d: &Data, s: &State) {
        for f in &s.fortresses {
            self.fortress[f.hex.idx()] = f.level;
        }
        let occupied = (s.units.iter().filter_map(|u| u.hex())).chain(s.fortresses.iter().map(|f| f.hex));
        for h in occupied {
            if self.owner[h.idx()].is_none() {
                self.owner[h.idx()] = self.holder(d, h);
                self.project_zoc(d, h, true);
            }
        }
    }

    /// The layout after the units in `changed` moved from `was` (their old locations), worked
    /// out in this one's memory: only the hexes they left and entered, and the ZOC around them,
    /// are looked at again. The fortresses are those this layout was made with.
    /// `hexes` is scratch memory.
    fn update(&mut self, d: &Data, s: &State, was: &[Loc], changed: &[usize], hexes: &mut Vec<Hex>) {
        hexes.clear();
        for &i in changed {
            hexes.extend([was[i], s.units[i].loc].iter().filter_map(|l| match l {
                Loc::Map(h) => Some(*h),
                _ => None,
            }));
        }
        hexes.sort_unstable();
        hexes.dedup();
        for &h in hexes.iter() {
            self.project_zoc(d, h, false);
        }
        let hex = |l: Loc| match l {
            Loc::Map(h) => Some(h),
            _ => None,
        };
        for &i in changed {
            self.stacks.shift(i as UnitId, hex(was[i]), hex(s.units[i].loc));
        }
        for &h in hexes.iter() {
            self.owner[h.idx()] = self.holder(d, h);
            self.project_zoc(d, h, true);
        }
    }

    /// Who holds `h` by the stacks and fortresses: the last unit in it, then a fortress for
    /// the Soviets.
    fn holder(&self, d: &Data, h: Hex) -> Option<Side> {
        if self.fortress[h.idx()] > 0 {
            return Some(Side::Soviet);
        }
        (self.stacks.at(h).last()).map(|&u| d.units[u as usize].side)
    }

    /// Adds (or takes away) the ZOC of the holder of `h`.
    fn project_zoc(&mut self, d: &Data, h: Hex, add: bool) {
        let Some(side) = self.owner[h.idx()] else { return };
        let zoc = &mut self.zoc_of[side_idx(side)];
        for n in zoc_into(d, h) {
            if add {
                zoc[n.idx()] += 1;
            } else {
                zoc[n.idx()] -= 1;
            }
        }
    }
}

/// The hexes the holder of `h` projects its ZOC into. 3.2: every unit (and, 14.2(6), a
/// fortress) has a ZOC in the six adjacent hexes, (1) but not into all-sea or impassable hexes
/// nor across prohibited hexsides.
fn zoc_into(d: &Data, h: Hex) -> impl Iterator<Item = Hex> + '_ {
    (d.map.grid.neighbours(h))
        .filter(move |&(dir, n)| projects_zoc(d, h, dir, n))
        .map(|(_, n)| n)
}

/// Whether the holder of `h` projects its ZOC into its neighbour `n` across the hexside `dir`
/// ([`zoc_into`]).
#[inline(always)]
fn projects_zoc(d: &Data, h: Hex, dir: u8, n: Hex) -> bool {
    d.map.terrain(n) & (d.t.sea | d.t.impassable) == 0 && d.map.side(h, dir) & d.s.prohibited == 0
}

/// In [`Board::move_flags`]: an enemy unit or fortress holds the hex (3.1(2)).
pub(crate) const HELD_BY_ENEMY: u8 = 1;
/// In [`Board::move_flags`]: the hex is in enemy ZOC as it affects the side's units (3.2,
/// 14.2(2)).
pub(crate) const IN_ENEMY_ZOC: u8 = 2;

/// Units per hex (3.1), in unit order.
fn stacks(d: &Data, s: &State) -> StackIndex {
    let placed = s
        .units
        .iter()
        .enumerate()
        .filter_map(|(i, u)| u.hex().map(|h| (i as UnitId, h)));
    StackIndex::build(d.map.grid.len(), placed)
}

/// The last layout worked out on this thread, with the position it is the layout of.
struct KeptLayout {
    data: u64,
    locs: Vec<Loc>,
    fortresses: Vec<Fortress>,
    layout: Arc<Layout>,
    /// The log of moves ([`State::moves`]) of the position `locs` are those of, and how much
    /// of it was read: the units that moved since are among those logged after.
    log: u64,
    seen: usize,
    /// Scratch: the units whose locations differ from `locs`, and the hexes they left and
    /// entered.
    changed: Vec<usize>,
    hexes: Vec<Hex>,
}

/// How many moves logged since the kept layout are read one by one at most; more, and every
/// unit is compared.
const LAYOUT_LOG_READ: usize = 64;

thread_local! {
    static LAYOUT: RefCell<Option<KeptLayout>> = const { RefCell::new(None) };
}

/// The layout of the position `s`: the kept one if the pieces stand where they stood; the kept
/// one brought up to date if a few units moved (and nothing else holds it); else a new one.
fn layout(d: &Data, s: &State) -> Arc<Layout> {
    LAYOUT.with(|k| {
        let mut k = k.borrow_mut();
        if let Some(kept) = k.as_mut() {
            if kept.data == d.serial && kept.fortresses == s.fortresses && kept.locs.len() == s.units.len() {
                let changed = &mut kept.changed;
                changed.clear();
                let log = s.moves.log();
                if kept.log == s.moves.id() && kept.seen <= log.len() && log.len() - kept.seen <= LAYOUT_LOG_READ {
                    // Only the units logged since can stand elsewhere.
                    for &(u, _) in &log[kept.seen..] {
                        let i = u as usize;
                        if kept.locs[i] != s.units[i].loc && !changed.contains(&i) {
                            changed.push(i);
                        }
                    }
                    changed.sort_unstable();
                } else {
                    for (i, (was, u)) in kept.locs.iter().zip(&s.units).enumerate() {
                        if *was != u.loc {
                            changed.push(i);
                        }
                    }
                }
                (kept.log, kept.seen) = (s.moves.id(), log.len());
                if changed.is_empty() {
                    return kept.layout.clone();
                }
                if changed.len() <= 16 {
                    if let Some(l) = Arc::get_mut(&mut kept.layout) {
                        l.update(d, s, &kept.locs, changed, &mut kept.hexes);
                        for &i in changed.iter() {
                            kept.locs[i] = s.units[i].loc;
                        }
                        return kept.layout.clone();
                    }
                }
            }
        }
        // A layout no one else holds, of a position on the same map, is worked out again in
        // its own memory.
        if let Some(kept) = k.as_mut().filter(|kept| kept.data == d.serial) {
            if let Some(l) = Arc::get_mut(&mut kept.layout) {
                l.renew(d, s);
                kept.locs.clear();
                kept.locs.extend(s.units.iter().map(|u| u.loc));
                kept.fortresses.clone_from(&s.fortresses);
                (kept.log, kept.seen) = (s.moves.id(), s.moves.log().len());
                return kept.layout.clone();
            }
        }
        let layout = Arc::new(Layout::new(d, s));
        *k = Some(KeptLayout {
            data: d.serial,
            locs: s.units.iter().map(|u| u.loc).collect(),
            fortresses: s.fortresses.clone(),
            layout: layout.clone(),
            log: s.moves.id(),
            seen: s.moves.log().len(),
            changed: Vec::new(),
            hexes: Vec::new(),
        });
        layout
    })
}

/// Facts about the board derived from the state for one question: the rules' questions about
/// a position, asked of its [`Layout`].
pub struct Board<'a> {
    pub d: &'a Data,
    pub s: &'a State,
    layout: Arc<Layout>,
}

impl std::ops::Deref for Board<'_> {
    type Target = Layout;
    fn deref(&self) -> &Layout {
        &self.layout
    }
}

fn side_idx(s: Side) -> usize {
    s.seat() as usize
}

impl<'a> Board<'a> {
    /// The board of a position, its layout kept from the last question about the same one.
    pub fn new(d: &'a Data, s: &'a State) -> Board<'a> {
        Board {
            d,
            s,
            layout: layout(d, s),
        }
    }

    /// [`Board::new`] with its layout worked out anew, never the kept one.
    pub fn fresh(d: &'a Data, s: &'a State) -> Board<'a> {
        Board {
            d,
            s,
            layout: Arc::new(Layout::new(d, s)),
        }
    }

    pub fn units_at(&self, h: Hex) -> &[UnitId] {
        self.stacks.at(h)
    }

    /// Whether `h` is in the ZOC of `side`'s enemy, as it affects `side`'s units: 14.2(2) a
    /// fortress hex is not affected by enemy ZOC.
    #[inline]
    pub fn enemy_zoc(&self, side: Side, h: Hex) -> bool {
        if side == Side::Soviet && self.fortress[h.idx()] > 0 {
            return false;
        }
        self.zoc_of[side_idx(side.enemy())][h.idx()] > 0
    }

    #[inline]
    pub fn enemy_in(&self, side: Side, h: Hex) -> bool {
        self.owner[h.idx()] == Some(side.enemy())
    }

    #[inline]
    pub fn friends_in(&self, side: Side, h: Hex) -> bool {
        self.owner[h.idx()] == Some(side) && self.stacks.count(h) > 0
    }

    /// 3.1(1), 14.2(3): whether one more unit may end in `h` (not counting `except`).
    pub fn has_room(&self, h: Hex, except: Option<UnitId>) -> bool {
        if self.fortress[h.idx()] > 0 {
            return true;
        }
        match except {
            // No unit to leave out: the stack's size is its count.
            None => self.stacks.count(h) < STACK_LIMIT,
            Some(_) => self.stacks.has_room(h, STACK_LIMIT, except),
        }
    }

    #[inline]
    fn blocked_terrain(&self, h: Hex) -> bool {
        self.d.map.terrain(h) & (self.d.t.sea | self.d.t.impassable) != 0
    }

    /// 3.3(1)–(2): whether a LOC of `side` may pass through `h`.
    #[inline(always)]
    fn loc_passable(&self, side: Side, h: Hex, zoc_blocks_always: bool) -> bool {
        if self.blocked_terrain(h) || self.enemy_in(side, h) {
            return false;
        }
        if self.d.is_urban[h.idx()] && self.s.control[h.idx()] == Some(side.enemy()) {
            return false;
        }
        if self.enemy_zoc(side, h) && (zoc_blocks_always || !self.friends_in(side, h)) {
            return false;
        }
        true
    }

    fn sources(&self, side: Side, zoc_blocks_always: bool) -> Vec<(Hex, u32)> {
        let list = match side {
            Side::Axis => &self.d.supply_axis,
            Side::Soviet => &self.d.supply_soviet,
        };
        list.iter()
            .filter(|&&h| self.loc_passable(side, h, zoc_blocks_always))
            .map(|&h| (h, 0))
            .collect()
    }

    /// What the traces of `side` read of the position besides the map; with the friendly-held
    /// hexes in enemy ZOC if `friends` (a LOC may pass those, 3.3(1)).
    fn trace_inputs(&self, side: Side, friends: bool) -> TraceInputs {
        let occupied = (self.s.units.iter().filter_map(|u| u.hex())).chain(self.s.fortresses.iter().map(|f| f.hex));
        // One pass: a hex the enemy holds is not held by friends.
        // Sized once for every unit and fortress: no list grows on the way.
        let most = self.s.units.len() + self.s.fortresses.len();
        let mut enemy = Vec::with_capacity(most);
        let mut friends_in_zoc = Vec::with_capacity(if friends { most } else { 0 });
        for h in occupied {
            if self.enemy_in(side, h) {
                enemy.push(h);
            } else if friends && self.friends_in(side, h) && self.enemy_zoc(side, h) {
                friends_in_zoc.push(h);
            }
        }
        let control = self.s.control.clone();
        TraceInputs {
            data: self.d.serial,
            log: self.s.moves.id(),
            seen: self.s.moves.log().len(),
            control_changes: self.s.moves.control_changes(),
            side,
            enemy,
            fortresses: self.s.fortresses.clone(),
            control,
            friends_in_zoc,
        }
    }

    /// Whether `inputs` are what the traces of `side` read of this position now (with the
    /// friendly-held hexes in enemy ZOC if `friends`), checked without copying anything: from
    /// the moves logged since they were read if it can be told from those, else by comparing
    /// what the traces read. `inputs` are brought up to the log's end when they still hold.
    fn reads_the_same(&self, inputs: &mut TraceInputs, side: Side, friends: bool) -> bool {
        if inputs.data != self.d.serial || inputs.side != side || inputs.fortresses != self.s.fortresses {
            return false;
        }
        let same =
            self.reads_the_same_since(inputs, side, friends) || self.reads_the_same_by_all(inputs, side, friends);
        if same {
            let moves = &self.s.moves;
            (inputs.log, inputs.seen, inputs.control_changes) =
                (moves.id(), moves.log().len(), moves.control_changes());
        }
        same
    }

    /// [`Board::reads_the_same`] told from the moves logged since `inputs` were read: no
    /// control changed, and every unit that moved is of `side` and was and is in hexes where
    /// the traces read nothing of it: off the map, or in a hex with no enemy unit, no
    /// fortress and (if `friends`) no enemy ZOC. The enemy did not move, so its hexes and ZOC
    /// are as they were. `false` where comparing may still find the same.
    fn reads_the_same_since(&self, inputs: &TraceInputs, side: Side, friends: bool) -> bool {
        let moves = &self.s.moves;
        if inputs.log != moves.id()
            || inputs.control_changes != moves.control_changes()
            || inputs.seen > moves.log().len()
        {
            return false;
        }
        let d = self.d;
        let clear = |l: Loc| match l {
            Loc::Map(h) => {
                !self.s.fortresses.iter().any(|f| f.hex == h)
                    && self.units_at(h).iter().all(|&u| d.units[u as usize].side == side)
                    && !(friends && self.enemy_zoc(side, h))
            }
            _ => true,
        };
        (moves.log()[inputs.seen..].iter())
            .all(|&(u, was)| d.units[u as usize].side == side && clear(was) && clear(self.s.units[u as usize].loc))
    }

    /// [`Board::reads_the_same`] by comparing what the traces read, whatever moved.
    fn reads_the_same_by_all(&self, inputs: &TraceInputs, side: Side, friends: bool) -> bool {
        let control = &self.s.control;
        let same_control = inputs.control.len() == control.len()
            && (inputs.control.iter().zip(control)).fold(true, |same, (a, b)| same & (a == b));
        if !same_control {
            return false;
        }
        let occupied = (self.s.units.iter().filter_map(|u| u.hex())).chain(self.s.fortresses.iter().map(|f| f.hex));
        let mut enemy = inputs.enemy.iter();
        let mut in_zoc = inputs.friends_in_zoc.iter();
        for h in occupied {
            if self.enemy_in(side, h) && enemy.next() != Some(&h) {
                return false;
            }
            if friends && self.friends_in(side, h) && self.enemy_zoc(side, h) && in_zoc.next() != Some(&h) {
                return false;
            }
        }
        enemy.next().is_none() && in_zoc.next().is_none()
    }

    /// 3.3: the hexes to which `side` can trace a line of communication. Soviet: no length
    /// limit (3.3(4)). Axis: unlimited along railway connected to a source, then at most six
    /// hexes off it, the unit's own hex counted (3.3(5), A14). The last trace of each side is
    /// kept and given again while what it read is unchanged.
    pub fn loc_reach(&self, side: Side, search: &mut Search) -> Arc<Vec<bool>> {
        kept(
            &KEPT_LOC,
            side,
            |inputs| self.reads_the_same(inputs, side, true),
            || (self.trace_inputs(side, true), Arc::new(self.trace_loc(side, search))),
        )
    }

    /// [`Board::loc_reach`] traced anew, never the kept trace: floods over the map's LOC
    /// steps ([`loc_sides`]) taken as bits a column at a time ([`LocBits`]), through the hexes
    /// a LOC may pass (3.3(1)–(2), [`Board::loc_pass`]). `search` is not used.
    pub fn trace_loc(&self, side: Side, _search: &mut Search) -> Vec<bool> {
        let d = self.d;
        let bits = &d.loc_bits;
        let pass = self.loc_pass(side);
        let list = match side {
            Side::Axis => &d.supply_axis,
            Side::Soviet => &d.supply_soviet,
        };
        let mut seen = vec![0u64; pass.len()];
        for &h in list {
            if bits.has(&pass, h) {
                bits.set(&mut seen, h);
            }
        }
        let mut stops = vec![0u64; pass.len()];
        match side {
            // 3.3(4): no length limit.
            Side::Soviet => {
                bits.any.flood(&pass, &mut seen);
                if bits.any.any_stop {
                    for (c, s) in stops.iter_mut().enumerate() {
                        *s = ColumnSteps::into(&bits.any.stop, &seen, c);
                    }
                }
            }
            Side::Axis => {
                // 3.3(5): along railway from a source, as far as it goes (the hexes it may go
                // on from: not one entered off the road into a mountain hex, 3.3(3)) ...
                bits.rail.flood(&pass, &mut seen);
                // ... then at most six hexes off it (A14).
                bits.any.flood_steps(&pass, &mut seen, 6, &mut stops);
            }
        }
        let mut reach = vec![false; d.map.grid.len()];
        for (c, ((&s, &t), &p)) in seen.iter().zip(&stops).zip(&pass).enumerate() {
            let mut x = s | t & p;
            while x != 0 {
                reach[c * bits.rows + x.trailing_zeros() as usize] = true;
                x &= x - 1;
            }
        }
        reach
    }

    /// 3.3(1)–(2): the hexes a LOC of `side` may pass ([`Board::loc_passable`], enemy ZOC
    /// blocking only where no friendly unit is), as bits: the open terrain less the cities and
    /// towns the enemy controls, the hexes the enemy holds, and their ZOC (3.2, not a fortress
    /// hex for the Soviets, 14.2(2)) where no friendly unit is.
    fn loc_pass(&self, side: Side) -> ColumnBits {
        let d = self.d;
        let bits = &d.loc_bits;
        let cols = bits.open.len();
        let (mut enemy, mut friends, mut forts) = (vec![0u64; cols], vec![0u64; cols], vec![0u64; cols]);
        for h in self.s.units.iter().filter_map(|u| u.hex()) {
            match self.owner[h.idx()] {
                Some(o) if o == side => bits.set(&mut friends, h),
                Some(_) => bits.set(&mut enemy, h),
                None => {}
            }
        }
        for f in &self.s.fortresses {
            if self.enemy_in(side, f.hex) {
                bits.set(&mut enemy, f.hex);
            }
            if side == Side::Soviet && self.fortress[f.hex.idx()] > 0 {
                bits.set(&mut forts, f.hex);
            }
        }
        let mut pass = bits.open.clone();
        for c in 0..cols {
            let zoc = ColumnSteps::into(&bits.zoc.go, &enemy, c) & !forts[c];
            pass[c] &= !enemy[c] & !(zoc & !friends[c]);
        }
        for &h in &bits.urban {
            if self.s.control[h.idx()] == Some(side.enemy()) {
                bits.clear(&mut pass, h);
            }
        }
        pass
    }

    /// 12.1(1)–(2): railway hexes where `side` may place reinforcements: joined to a friendly
    /// supply source by railway through no enemy ZOC at all, not in enemy ZOC, not an
    /// enemy-controlled city or town. Kept like [`Board::loc_reach`].
    pub fn rail_entry(&self, side: Side, search: &mut Search) -> Arc<Vec<Hex>> {
        kept(
            &KEPT_RAIL,
            side,
            |inputs| self.reads_the_same(inputs, side, false),
            || (self.trace_inputs(side, false), Arc::new(self.trace_rail(side, search))),
        )
    }

    /// [`Board::rail_entry`] traced anew, never the kept trace: a flood along railway from
    /// the sources, a ring of hexes at a time, each ring taken lowest hex first and each hex's
    /// steps in the grid's order of directions, so that the hexes come in the order the core's
    /// least-cost search first reaches them (every step costs the same). `search` is not used.
    pub fn trace_rail(&self, side: Side, _search: &mut Search) -> Vec<Hex> {
        let d = self.d;
        let g = &d.map.grid;
        let mut seen = vec![false; g.len()];
        let mut reached: Vec<Hex> = Vec::new();
        let mut ring: Vec<Hex> = Vec::new();
        for (h, _) in self.sources(side, true) {
            if !seen[h.idx()] {
                seen[h.idx()] = true;
                reached.push(h);
                ring.push(h);
            }
        }
        let mut next: Vec<Hex> = Vec::new();
        while !ring.is_empty() {
            ring.sort_unstable();
            for &from in &ring {
                // 12.1(1): along railway (`rail_sides`), through no enemy ZOC at all.
                let (dirs, row) = (d.rail_sides[from.idx()], g.neighbour_row(from));
                for (dir, &to) in row.iter().enumerate() {
                    let to = Hex(to);
                    if dirs & 1 << dir == 0 || seen[to.idx()] {
                        continue;
                    }
                    if self.loc_passable(side, to, true) {
                        seen[to.idx()] = true;
                        reached.push(to);
                        next.push(to);
                    }
                }
            }
            std::mem::swap(&mut ring, &mut next);
            next.clear();
        }
        reached.retain(|&h| d.has_rail[h.idx()]);
        reached
    }

    /// The distance from every hex to `side`'s nearest supply source, for retreats (10.6(6)):
    /// through hexes a LOC could pass, plus one step into hexes it could only end in. A
    /// breadth-first flood: each hex's distance is the first it is given, and only hexes a
    /// LOC may pass are stepped on from. `search` is not used.
    pub fn supply_distance(&self, side: Side, _search: &mut Search) -> Vec<u32> {
        let d = self.d;
        let g = &d.map.grid;
        let mut dist = vec![u32::MAX; g.len()];
        let mut queue: Vec<Hex> = Vec::new();
        for (h, _) in self.sources(side, false) {
            if dist[h.idx()] == u32::MAX {
                dist[h.idx()] = 0;
                queue.push(h);
            }
        }
        let mut next = 0;
        while let Some(&from) = queue.get(next) {
            next += 1;
            let far = dist[from.idx()] + 1;
            for (dir, to) in g.neighbours(from) {
                if dist[to.idx()] != u32::MAX
                    || d.map.side(from, dir) & d.s.prohibited != 0
                    || self.blocked_terrain(to)
                    || self.enemy_in(side, to)
                {
                    continue;
                }
                dist[to.idx()] = far;
                if self.loc_passable(side, to, false) {
                    queue.push(to);
                }
            }
        }
        dist
    }

    /// [`Board::supply_distance`] by the core's breadth-first search, step by step: what the
    /// flood is tested against.
    #[cfg(test)]
    fn supply_distance_by_search(&self, side: Side, search: &mut Search) -> Vec<u32> {
        let d = self.d;
        let n = d.map.grid.len();
        let sources = self.sources(side, false);
        // Only the cost of each hex matters here, so the search goes breadth first.
        search.run_breadth_first(&d.map.grid, &sources, u32::MAX, |from, dir, to| {
            if d.map.side(from, dir) & d.s.prohibited != 0 || self.blocked_terrain(to) || self.enemy_in(side, to) {
                return Step::Blocked(Why::NONE);
            }
            if self.loc_passable(side, to, false) {
                Step::Go(1)
            } else {
                Step::Stop(1)
            }
        });
        let mut dist = vec![u32::MAX; n];
        for h in search.reached() {
            dist[h.idx()] = search.cost(h).unwrap_or(u32::MAX);
        }
        dist
    }

    /// 9.2, 9.3: least-cost movement from the unit's hex, in half movement points.
    pub fn movement(&self, unit: UnitId, march: bool, search: &mut Search) -> Option<Hex> {
        let start = self.s.units[unit as usize].hex()?;
        self.movement_from(unit, march, start, 0, search).then_some(start)
    }

    /// [`Board::movement`] going on from `from`, where the unit arrives having spent `spent`
    /// half MP (a route's waypoint): the rules still see the hex the move began in. Returns
    /// false if the unit may not use this kind of movement at all (9.3(1): march formation
    /// begins on a road, outside enemy ZOC).
    pub fn movement_from(&self, unit: UnitId, march: bool, from: Hex, spent: u32, search: &mut Search) -> bool {
        self.movement_within(unit, march, from, spent, None, search)
    }

    /// [`Board::movement_from`] with another limit than the unit's movement allowance (`None`:
    /// its own): with no limit, where the rules would let it go at all.
    pub fn movement_within(
        &self,
        unit: UnitId,
        march: bool,
        from: Hex,
        spent: u32,
        limit: Option<u32>,
        search: &mut Search,
    ) -> bool {
        let d = self.d;
        let def = &d.units[unit as usize];
        let st = &self.s.units[unit as usize];
        let Some(start) = st.hex() else {
            search.run(&d.map.grid, &[], 0, |_, _, _| Step::Blocked(Why::NONE));
            return false;
        };
        let side = def.side;
        let ma = def.face(st.reduced).ma as u32;
        let budget = limit.unwrap_or(ma * 2);
        let (sb, c) = (d.s, d.costs);
        if march {
            // 9.3(1): start in a hex with a road, outside enemy ZOC; every step along a road
            // (not a railway), never into enemy ZOC; 1/2 MP per road hex.
            if !d.has_road[start.idx()] || self.enemy_zoc(side, start) {
                search.run(&d.map.grid, &[], 0, |_, _, _| Step::Blocked(Why::NONE));
                return false;
            }
            search.run(&d.map.grid, &[(from, spent)], budget, |from, dir, to| {
                let bits = d.map.side(from, dir);
                if bits & sb.prohibited != 0 {
                    return Step::Blocked(why::PROHIBITED);
                }
                if bits & sb.road == 0 {
                    return Step::Blocked(why::OFF_ROAD);
                }
                if self.blocked_terrain(to) {
                    return Step::Blocked(why::IMPASSABLE);
                }
                if self.enemy_in(side, to) {
                    return Step::Blocked(why::ENEMY);
                }
                if self.enemy_zoc(side, to) {
                    return Step::Blocked(why::MARCH_ZOC);
                }
                Step::Go(c.march_half_mp as u32)
            });
            return true;
        }
        let mountain_div = def.is_mountain();
        let sides = &d.move_sides[def.mech as usize];
        // The ZOC of the hex the steps come from, asked once for its six steps.
        let mut zoc_at = (Hex(u16::MAX), false);
        search.run(&d.map.grid, &[(from, spent)], budget, |from, dir, to| {
            // By the map alone (`move_sides`): a prohibited hexside, terrain no unit enters, a
            // road, a mountain hex or an unbridged major river to cross, else the MP of the
            // terrain and river.
            let code = sides[from.idx()][dir as usize];
            if code == MOVE_PROHIBITED {
                return Step::Blocked(why::PROHIBITED);
            }
            if code == MOVE_IMPASSABLE {
                return Step::Blocked(why::IMPASSABLE);
            }
            if self.enemy_in(side, to) {
                return Step::Blocked(why::ENEMY);
            }
            // 9.2(2): +2 MP to enter and +2 MP to leave an enemy ZOC hex.
            if zoc_at.0 != from {
                zoc_at = (from, self.enemy_zoc(side, from));
            }
            let zoc_from = zoc_at.1;
            let zoc_to = self.enemy_zoc(side, to);
            let zoc = c.zoc_enter_mp as u32 * zoc_to as u32 + c.zoc_leave_mp as u32 * zoc_from as u32;
            match code {
                // 9.2(4)2: only a mountain division, with all its MP, not ZOC to ZOC.
                MOVE_MOUNTAIN if !mountain_div || from != start || (zoc_from && zoc_to) => Step::Blocked(why::MOUNTAIN),
                // 9.2(3): start adjacent, cross with all MP and stop; never ZOC to ZOC.
                MOVE_MAJOR if from != start || (zoc_from && zoc_to) => Step::Blocked(why::MAJOR_RIVER),
                MOVE_MOUNTAIN | MOVE_MAJOR => Step::Stop(budget),
                mp => Step::Go((mp as u32 + zoc) * 2),
            }
        });
        true
    }

    /// Per hex, what a moving unit of `side` reads of the enemy there, in `out`:
    /// [`HELD_BY_ENEMY`] as [`Board::enemy_in`] says, [`IN_ENEMY_ZOC`] as
    /// [`Board::enemy_zoc`] says. It depends only on the hexes the enemy holds and on the
    /// fortresses.
    pub(crate) fn move_flags(&self, side: Side, out: &mut Vec<u8>) {
        let d = self.d;
        out.clear();
        out.resize(d.map.grid.len(), 0);
        let enemy = Some(side.enemy());
        let occupied = (self.s.units.iter().filter_map(|u| u.hex())).chain(self.s.fortresses.iter().map(|f| f.hex));
        for h in occupied {
            if self.owner[h.idx()] == enemy && out[h.idx()] & HELD_BY_ENEMY == 0 {
                out[h.idx()] |= HELD_BY_ENEMY;
                for n in zoc_into(d, h) {
                    out[n.idx()] |= IN_ENEMY_ZOC;
                }
            }
        }
        // 14.2(2): a fortress hex is not affected by enemy ZOC.
        if side == Side::Soviet {
            for f in &self.s.fortresses {
                if self.fortress[f.hex.idx()] > 0 {
                    out[f.hex.idx()] &= !IN_ENEMY_ZOC;
                }
            }
        }
    }

    /// The searches of [`Board::movement`] for `unit` from its hex (normal movement, 9.2, or
    /// march formation, 9.3), made over the map's table of steps by `m` instead of the core's
    /// general search: the same steps priced the same way, the same hexes reached in the same
    /// order (least cost first and, at equal cost, lowest hex first), by the same paths. What
    /// stopped a step is not kept: a refusal asks the core's search ([`Board::movement_within`]).
    pub(crate) fn unit_search(&self, unit: UnitId, march: bool, flags: &[u8], m: &mut MoveSearch) -> Searched {
        let d = self.d;
        let def = &d.units[unit as usize];
        let st = &self.s.units[unit as usize];
        let Some(start) = st.hex() else {
            return Searched::NotAllowed;
        };
        let budget = def.face(st.reduced).ma as u32 * 2;
        if budget > MoveSearch::LISTS || flags.len() != d.map.grid.len() {
            return Searched::TooFar;
        }
        let c = d.costs;
        // 9.3(1): march formation starts in a hex with a road, outside enemy ZOC.
        if march && (!d.has_road[start.idx()] || flags[start.idx()] & IN_ENEMY_ZOC != 0) {
            return Searched::NotAllowed;
        }
        m.reset(flags, budget);
        m.enter(start);
        if march {
            // 9.3(1): every step along a road (not a railway, not across a prohibited hexside,
            // not into all-sea or impassable terrain: `march_sides`), never into a hex of the
            // enemy or its ZOC; 1/2 MP per road hex.
            let price = c.march_half_mp as u32;
            let sides = &d.march_sides;
            m.run(&d.map.grid, budget, |from, dir, to| {
                (sides[from.idx()] & 1 << dir != 0 && flags[to.idx()] == 0).then_some((price, false))
            });
            return Searched::Reached;
        }
        let mountain_div = def.is_mountain();
        let sides = &d.move_sides[def.mech as usize];
        let (enter, leave) = (c.zoc_enter_mp as u32, c.zoc_leave_mp as u32);
        // The start's own steps, the only ones that may cross a major river or enter a
        // mountain hex off the road; as in `movement_within`, step for step.
        m.run_steps(&d.map.grid, budget, 1, |from, dir, to| {
            let code = sides[from.idx()][dir as usize];
            let to_flags = flags[to.idx()];
            if code == MOVE_PROHIBITED || code == MOVE_IMPASSABLE || to_flags & HELD_BY_ENEMY != 0 {
                return None;
            }
            let zoc_from = flags[from.idx()] & IN_ENEMY_ZOC != 0;
            let zoc_to = to_flags & IN_ENEMY_ZOC != 0;
            let zoc = enter * zoc_to as u32 + leave * zoc_from as u32;
            match code {
                MOVE_MOUNTAIN if !mountain_div || (zoc_from && zoc_to) => None,
                MOVE_MAJOR if zoc_from && zoc_to => None,
                MOVE_MOUNTAIN | MOVE_MAJOR => Some((budget, true)),
                mp => Some(((mp as u32 + zoc) * 2, false)),
            }
        });
        // Every later step: 9.2(3) and 9.2(4)2 refuse a major river or a mountain hex to a
        // unit that did not start next to it.
        m.run_normal(&d.map.grid, budget, sides, enter, leave);
        Searched::Reached
    }

    /// 10.3: attack and defence totals, the column after shifts, and the shifts, for an
    /// attack on `target` by `attackers`. `None` column: below 1-1, not allowed (10.3(4)).
    pub fn odds(&self, target: Hex, attackers: &[UnitId]) -> Odds {
        let mut plain = 0u32;
        let mut across = 0u32;
        for &u in attackers {
            let Some((a, crossing)) = self.attack_strength(u, target) else {
                continue;
            };
            if crossing {
                across += a;
            } else {
                plain += a;
            }
        }
        self.odds_of(target, plain, across)
    }

    /// A unit's attack strength against `target`, and whether it attacks across a river
    /// (`None` if it is not on the map).
    pub fn attack_strength(&self, u: UnitId, target: Hex) -> Option<(u32, bool)> {
        let d = self.d;
        let st = &self.s.units[u as usize];
        let h = st.hex()?;
        let a = d.units[u as usize].face(st.reduced).attack as u32;
        // 10.3(1)1: attacking across a river or major river, bridge or not, is halved.
        let crossing = d
            .map
            .grid
            .dir_to(h, target)
            .is_some_and(|dir| d.map.side(h, dir) & (d.s.river | d.s.major) != 0);
        Some((a, crossing))
    }

    /// [`Board::odds`] from the attack strengths summed: `plain` in full, `across` a river.
    pub fn odds_of(&self, target: Hex, plain: u32, across: u32) -> Odds {
        let d = self.d;
        // A9: the halved part is rounded down once, on its total.
        let attack = plain + across / 2;
        let mut defence = 0u32;
        for &u in self.units_at(target) {
            let st = &self.s.units[u as usize];
            // 10.3(1)2: units that retreated here in this combat segment add nothing.
            if !st.spent {
                defence += d.units[u as usize].face(st.reduced).defence as u32;
            }
        }
        // 14.2(1): a level-2 fortress adds 1 defence.
        if self.fortress[target.idx()] >= 2 {
            defence += 1;
        }
        let shifts = d.shift[target.idx()];
        // 10.3(4): below 1-1 no attack is allowed. An attack strength of 0 (a reduced unit
        // halved across a river, say) is below 1-1 whatever the defence, even against a lone
        // level-1 fortress with a defence of 0: 0 against 0 is no odds at all, not 10-1.
        let raw = if attack == 0 {
            None
        } else {
            d.crt.columns.column(attack, defence)
        };
        let column = raw.and_then(|c| d.crt.columns.shift(c, -(shifts as i32)));
        Odds {
            attack,
            defence,
            raw,
            shifts,
            column,
            halved: across > 0,
        }
    }
}

/// A LOC step that may go on from the hex it enters, in the bits of [`loc_sides`] for any step.
const GO: u8 = 1;
/// A LOC step that must end in the hex it enters (3.3(3)).
const STOP: u8 = 2;
/// Where the bits of each kind of trace are in [`loc_sides`]: any step, or along railway only.
const LOC_ANY: u32 = 0;
const LOC_RAIL: u32 = 2;

/// Per hex and direction, what a LOC step across that hexside is by the map alone (the
/// position decides the rest: whether the hex entered may be passed, 3.3(1)–(2)): bits 0–1
/// for any step, bits 2–3 for a step along railway (3.3(5)); in each, [`GO`], [`STOP`] or
/// neither (no step: the map's edge, a prohibited hexside, off the railway). 3.3(3): a LOC
/// enters a mountain hex only along a road or else stops there, and never leaves one off the
/// road for a hex that is not mountain.
pub(crate) fn loc_sides(d: &Data) -> Vec<[u8; 6]> {
    let mountain = d.t.mountain;
    d.map
        .grid
        .hexes()
        .map(|from| {
            let mut codes = [0u8; 6];
            for (dir, to) in d.map.grid.neighbours(from) {
                let bits = d.map.side(from, dir);
                if bits & d.s.prohibited != 0 {
                    continue;
                }
                let (mf, mt) = (d.map.terrain(from) & mountain != 0, d.map.terrain(to) & mountain != 0);
                let code = if (mf || mt) && bits & d.s.road == 0 {
                    if mf && !mt {
                        0
                    } else {
                        STOP
                    }
                } else {
                    GO
                };
                let rail = if bits & d.s.rail != 0 { code } else { 0 };
                codes[dir as usize] = code << LOC_ANY | rail << LOC_RAIL;
            }
            codes
        })
        .collect()
}

/// A step of normal movement across a prohibited hexside (TEC), in [`move_sides`].
const MOVE_PROHIBITED: u16 = u16::MAX;
/// A step into all-sea or impassable terrain (TEC).
const MOVE_IMPASSABLE: u16 = u16::MAX - 1;
/// A step off the road into or out of a mountain hex (9.2(4)).
const MOVE_MOUNTAIN: u16 = u16::MAX - 2;
/// A step across an unbridged major river, off the road (9.2(3)).
const MOVE_MAJOR: u16 = u16::MAX - 3;

/// Per hex and direction, what a step of normal movement across that hexside is by the map
/// alone, for a foot or a mechanised unit (the position decides the rest: enemy units, their
/// ZOC, where the move began): [`MOVE_PROHIBITED`], [`MOVE_IMPASSABLE`], [`MOVE_MOUNTAIN`],
/// [`MOVE_MAJOR`] or the MP it costs before ZOC. 9.2(1)4: along a road, 1 MP whatever the
/// terrain, and a road over a river or major river is a bridge (2.1(1)3) that lifts 9.2(3)'s
/// restrictions, and opens a mountain hex (9.2(4)1); 9.2(5) the terrain's MP; 9.2(1)3 +1 MP to
/// cross a river; A2: a railway-only bridge over a major river counts as a river crossing.
/// The checks come in the order [`Board::movement_within`] had them step by step.
pub(crate) fn move_sides(d: &Data, mech: bool) -> Vec<[u16; 6]> {
    let (t, sb, c) = (d.t, d.s, d.costs);
    let enter_mp = &d.enter_mp[mech as usize];
    d.map
        .grid
        .hexes()
        .map(|from| {
            let mut codes = [MOVE_PROHIBITED; 6];
            for (dir, to) in d.map.grid.neighbours(from) {
                let bits = d.map.side(from, dir);
                codes[dir as usize] = if bits & sb.prohibited != 0 {
                    MOVE_PROHIBITED
                } else if d.map.terrain(to) & (t.sea | t.impassable) != 0 {
                    MOVE_IMPASSABLE
                } else if bits & sb.road != 0 {
                    c.road_mp as u16
                } else if (d.map.terrain(to) | d.map.terrain(from)) & t.mountain != 0 {
                    MOVE_MOUNTAIN
                } else if bits & sb.major != 0 && bits & sb.rail == 0 {
                    MOVE_MAJOR
                } else if bits & (sb.major | sb.river) != 0 {
                    enter_mp[to.idx()] as u16 + c.river_mp as u16
                } else {
                    enter_mp[to.idx()] as u16
                };
            }
            codes
        })
        .collect()
}

/// What [`Board::unit_search`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Searched {
    /// The search was made: its answers are in the [`MoveSearch`].
    Reached,
    /// The unit may not move this way at all (not on the map; 9.3(1)): nothing was reached.
    NotAllowed,
    /// The unit's MP are beyond the search's cost lists: ask the core's search.
    TooFar,
}

/// What one search knows of one hex, as in the core's search: the cheapest arrival that may
/// go on and the cheapest that must stop (kept only while cheaper), each with the hex it came
/// from. Whether it has been expanded is in [`MoveSearch::state`].
#[derive(Clone, Copy, Debug)]
struct MoveNode {
    cost: u16,
    stop_cost: u16,
    parent: u16,
    stop_parent: u16,
}

/// In [`MoveSearch::state`], besides the bits of [`Board::move_flags`]: the hex has been
/// expanded.
const EXPANDED: u8 = 0x80;

const MOVE_UNREACHED: u16 = u16::MAX;
const MOVE_NO_PARENT: u16 = u16::MAX;
const MOVE_FRESH: MoveNode = MoveNode {
    cost: MOVE_UNREACHED,
    stop_cost: MOVE_UNREACHED,
    parent: MOVE_NO_PARENT,
    stop_parent: MOVE_NO_PARENT,
};

/// The buffers of a unit's movement search ([`Board::unit_search`]), reused from one search
/// to the next: per hex what the search knows, the hexes in the order first reached, and one
/// list of hexes to expand per cost.
#[derive(Default)]
pub(crate) struct MoveSearch {
    nodes: Vec<MoveNode>,
    /// Per hex, what the side's steps read of the enemy there ([`Board::move_flags`]) and
    /// whether the search has expanded it ([`EXPANDED`]): read together by every step.
    state: Vec<u8>,
    touched: Vec<u16>,
    lists: Vec<Vec<u16>>,
    limit: usize,
    /// The cost being expanded, and whether its list is sorted yet.
    level: usize,
    sorted: bool,
}

/// The hexes a search has yet to expand, one list per cost ([`MoveSearch`]), and what it
/// knows of each hex.
struct MoveQueue<'a> {
    nodes: &'a mut [MoveNode],
    state: &'a mut [u8],
    touched: &'a mut Vec<u16>,
    lists: &'a mut [Vec<u16>],
    level: &'a mut usize,
    sorted: &'a mut bool,
}

impl MoveQueue<'_> {
    /// The next hex to expand and its cost, marked expanded: the cheapest, and at equal cost
    /// the lowest; `None` when none is left.
    #[inline(always)]
    fn next(&mut self) -> Option<(u16, u32)> {
        while let Some(list) = self.lists.get_mut(*self.level) {
            if !*self.sorted {
                if list.len() > 1 {
                    list.sort_unstable_by(|a, b| b.cmp(a));
                }
                *self.sorted = true;
            }
            let Some(node) = list.pop() else {
                *self.level += 1;
                *self.sorted = false;
                continue;
            };
            let c = *self.level as u32;
            let expanded = &mut self.state[node as usize];
            if c != self.nodes[node as usize].cost as u32 || *expanded & EXPANDED != 0 {
                continue;
            }
            *expanded |= EXPANDED;
            return Some((node, c));
        }
        None
    }

    /// A step from `from` into `to` (not expanded) arriving at cost `total` (within the
    /// limit), that may go on, or must stop there.
    #[inline(always)]
    fn arrive(&mut self, from: u16, to: u16, total: u16, stop: bool) {
        let n = &mut self.nodes[to as usize];
        let (go, halt) = (n.cost, n.stop_cost);
        if stop {
            if total < go && total < halt {
                if go == MOVE_UNREACHED && halt == MOVE_UNREACHED {
                    self.touched.push(to);
                }
                n.stop_cost = total;
                n.stop_parent = from;
            }
        } else if total < go {
            if go == MOVE_UNREACHED && halt == MOVE_UNREACHED {
                self.touched.push(to);
            }
            n.cost = total;
            n.parent = from;
            let list = &mut self.lists[total as usize];
            if total as usize == *self.level && *self.sorted {
                let at = list.partition_point(|&x| x > to);
                list.insert(at, to);
            } else {
                list.push(to);
            }
        }
    }
}

impl MoveSearch {
    /// The highest movement allowance (in half MP) the cost lists hold, as the core's search
    /// lists costs.
    const LISTS: u32 = 64;

    /// Made ready for a search over `flags` ([`Board::move_flags`]) within `limit`.
    fn reset(&mut self, flags: &[u8], limit: u32) {
        let n = flags.len();
        self.state.clear();
        self.state.extend_from_slice(flags);
        if self.nodes.len() != n {
            self.nodes = vec![MOVE_FRESH; n];
        } else {
            for &h in &self.touched {
                self.nodes[h as usize] = MOVE_FRESH;
            }
        }
        self.touched.clear();
        for list in &mut self.lists {
            list.clear();
        }
        self.limit = limit as usize;
        if self.lists.len() <= self.limit {
            self.lists.resize_with(self.limit + 1, Vec::new);
        }
        (self.level, self.sorted) = (0, false);
    }

    /// The search's source, at cost 0.
    fn enter(&mut self, h: Hex) {
        self.nodes[h.idx()].cost = 0;
        self.touched.push(h.0);
        self.lists[0].push(h.0);
    }

    /// Least cost first and, at equal cost, lowest hex first; `step(from, dir, to)` prices a
    /// step (`None`: refused; `Some((cost, true))`: it must stop there). Steps into expanded
    /// hexes are not priced. As the core's `Search::run` with one list per cost: each list
    /// sorted once expansion reaches its cost, a step of cost 0 put in its place.
    fn run(
        &mut self,
        grid: &sandtable_core::hex::HexGrid,
        limit: u32,
        step: impl FnMut(Hex, u8, Hex) -> Option<(u32, bool)>,
    ) {
        self.run_steps(grid, limit, usize::MAX, step);
    }

    /// [`MoveSearch::run`] for at most `hexes` hexes expanded: the search goes on where it
    /// stopped at the next call.
    fn run_steps(
        &mut self,
        grid: &sandtable_core::hex::HexGrid,
        limit: u32,
        hexes: usize,
        mut step: impl FnMut(Hex, u8, Hex) -> Option<(u32, bool)>,
    ) {
        let mut q = self.queue(limit);
        for _ in 0..hexes {
            let Some((node, c)) = q.next() else { break };
            let from = Hex(node);
            for (dir, &to) in grid.neighbour_row(from).iter().enumerate() {
                if to == sandtable_core::hex::NO_HEX || q.state[to as usize] & EXPANDED != 0 {
                    continue;
                }
                let Some((price, stop)) = step(from, dir as u8, Hex(to)) else {
                    continue;
                };
                let total = c.saturating_add(price);
                if total <= limit {
                    q.arrive(node, to, total as u16, stop);
                }
            }
        }
    }

    /// [`MoveSearch::run`] with the steps of normal movement (9.2) away from the start
    /// ([`Board::unit_search`]) priced in place: over `sides` ([`move_sides`]), where a major
    /// river and a mountain hex (9.2(3), 9.2(4)2) refuse the step, and the flags the search
    /// was made ready with ([`Board::move_flags`]): no step into an enemy's hex (3.1(2)),
    /// `enter` MP more into enemy ZOC and `leave` more out of it (9.2(2)).
    fn run_normal(
        &mut self,
        grid: &sandtable_core::hex::HexGrid,
        limit: u32,
        sides: &[[u16; 6]],
        enter: u32,
        leave: u32,
    ) {
        let mut q = self.queue(limit);
        while let Some((node, c)) = q.next() {
            let from = node as usize;
            let (codes, row) = (&sides[from], grid.neighbour_row(Hex(node)));
            let from_zoc = if q.state[from] & IN_ENEMY_ZOC != 0 { leave } else { 0 };
            for dir in 0..6 {
                let code = codes[dir];
                // Prohibited (also where there is no neighbour), impassable, a major river, a
                // mountain hex.
                if code >= MOVE_MAJOR {
                    continue;
                }
                let to = row[dir];
                let to_flags = q.state[to as usize];
                if to_flags & (HELD_BY_ENEMY | EXPANDED) != 0 {
                    continue;
                }
                let to_zoc = if to_flags & IN_ENEMY_ZOC != 0 { enter } else { 0 };
                let total = c + (code as u32 + from_zoc + to_zoc) * 2;
                if total <= limit {
                    q.arrive(node, to, total as u16, false);
                }
            }
        }
    }

    /// The queue of the search: see [`MoveQueue`].
    fn queue(&mut self, limit: u32) -> MoveQueue<'_> {
        MoveQueue {
            nodes: &mut self.nodes[..],
            state: &mut self.state[..],
            touched: &mut self.touched,
            lists: &mut self.lists[..=limit as usize],
            level: &mut self.level,
            sorted: &mut self.sorted,
        }
    }

    /// The hexes the last search reached, in the order first reached.
    pub fn reached(&self) -> impl ExactSizeIterator<Item = Hex> + '_ {
        self.touched.iter().map(|&h| Hex(h))
    }

    /// Whether the last search reached `h`.
    pub fn has(&self, h: Hex) -> bool {
        let n = &self.nodes[h.idx()];
        n.cost != MOVE_UNREACHED || n.stop_cost != MOVE_UNREACHED
    }

    /// The hex the last search's cheapest arrival at `h` came from, as `Search::parent`.
    pub fn parent(&self, h: Hex) -> Option<Hex> {
        let n = &self.nodes[h.idx()];
        let p = if n.stop_cost < n.cost { n.stop_parent } else { n.parent };
        (p != MOVE_NO_PARENT).then_some(Hex(p))
    }
}

/// Per hex, the directions (bit `dir`) a step of march formation may take by the map alone
/// (the position decides the rest: enemy units and their ZOC): 9.3(1) along a road (not a
/// railway), TEC not across a prohibited hexside nor into all-sea or impassable terrain.
pub(crate) fn march_sides(d: &Data) -> Vec<u8> {
    let (t, sb) = (d.t, d.s);
    d.map
        .grid
        .hexes()
        .map(|from| {
            let mut dirs = 0u8;
            for (dir, to) in d.map.grid.neighbours(from) {
                let bits = d.map.side(from, dir);
                if bits & sb.prohibited == 0 && bits & sb.road != 0 && d.map.terrain(to) & (t.sea | t.impassable) == 0 {
                    dirs |= 1 << dir;
                }
            }
            dirs
        })
        .collect()
}

/// Per hex, the directions (bit `dir`) a rail-entry trace may step by the map alone: 12.1(1)
/// along railway, TEC not across a prohibited hexside.
pub(crate) fn rail_sides(d: &Data) -> Vec<u8> {
    let sb = d.s;
    let dirs = |from: Hex| {
        (d.map.grid.neighbours(from))
            .filter(|&(dir, _)| {
                let bits = d.map.side(from, dir);
                bits & sb.rail != 0 && bits & sb.prohibited == 0
            })
            .fold(0u8, |dirs, (dir, _)| dirs | 1 << dir)
    };
    d.map.grid.hexes().map(dirs).collect()
}

/// A set of hexes as bits, a word per column of the grid: the hex in row `r` of column `c`
/// (counted from the grid's first) is bit `r` of word `c`. A step between neighbours moves a
/// bit at most one column and one row.
type ColumnBits = Vec<u64>;

/// The steps of [`loc_sides`] of one kind (any step, or along railway only), as bits per
/// column ([`ColumnBits`]): for each column and each way a step may go (a column left, none
/// or right, a row up, none or down), the rows of the hexes with such a step that may go on
/// from the hex it enters, and of those with one that must end there (3.3(3)).
#[derive(Debug, Default)]
pub struct ColumnSteps {
    go: Vec<[[u64; 3]; 3]>,
    stop: Vec<[[u64; 3]; 3]>,
    any_stop: bool,
}

impl ColumnSteps {
    /// The steps of `kind` ([`LOC_ANY`] or [`LOC_RAIL`]) in the table `sides`.
    fn new(d: &Data, sides: &[[u8; 6]], kind: u32, rows: usize) -> Result<ColumnSteps, String> {
        ColumnSteps::of(d, rows, |from, dir| {
            (sides[from.idx()][dir as usize] >> kind) & (GO | STOP)
        })
    }

    /// The steps `code(from, dir)` says ([`GO`], [`STOP`] or 0, none).
    fn of(d: &Data, rows: usize, code: impl Fn(Hex, u8) -> u8) -> Result<ColumnSteps, String> {
        let cols = d.map.grid.len() / rows;
        let mut t = ColumnSteps {
            go: vec![[[0; 3]; 3]; cols],
            stop: vec![[[0; 3]; 3]; cols],
            any_stop: false,
        };
        for from in d.map.grid.hexes() {
            let (c, r) = (from.idx() / rows, from.idx() % rows);
            for (dir, to) in d.map.grid.neighbours(from) {
                let code = code(from, dir);
                let (tc, tr) = (to.idx() / rows, to.idx() % rows);
                let (Some(dc), Some(dr)) = (
                    (tc + 1).checked_sub(c).filter(|&v| v <= 2),
                    (tr + 1).checked_sub(r).filter(|&v| v <= 2),
                ) else {
                    return Err(format!(
                        "the LOC traces cannot take the step from hex {} to {}",
                        from.0, to.0
                    ));
                };
                if code == STOP {
                    t.stop[c][dc][dr] |= 1 << r;
                    t.any_stop = true;
                } else if code == GO {
                    t.go[c][dc][dr] |= 1 << r;
                }
            }
        }
        Ok(t)
    }

    /// One step of every hex in `from` by the steps of `table` (`go` or `stop`) into column
    /// `c`: from above and below in the column itself and from the columns either side.
    #[inline(always)]
    fn into(table: &[[[u64; 3]; 3]], from: &[u64], c: usize) -> u64 {
        #[inline(always)]
        fn rows(x: u64, m: &[u64; 3]) -> u64 {
            (x & m[0]) >> 1 | x & m[1] | (x & m[2]) << 1
        }
        let own = &table[c][1];
        let mut v = (from[c] & own[0]) >> 1 | (from[c] & own[2]) << 1;
        if c > 0 {
            v |= rows(from[c - 1], &table[c - 1][2]);
        }
        if c + 1 < from.len() {
            v |= rows(from[c + 1], &table[c + 1][0]);
        }
        v
    }

    /// The hexes of column `c` reached from those in `x` by steps up and down the column that
    /// may go on, through the rows in `pass`, as far as they go.
    #[inline(always)]
    fn along_column(&self, c: usize, x: u64, pass: u64) -> u64 {
        // A hex a row down (up) is entered if the hex above (below) has the step and a LOC
        // may pass it; a run of such hexes is taken at once, doubling the run each round.
        let (mut down, mut m) = (x, (self.go[c][1][2] << 1) & pass);
        let mut up_m = (self.go[c][1][0] >> 1) & pass;
        let mut up = x;
        for k in [1, 2, 4, 8, 16, 32] {
            down |= m & (down << k);
            m &= m << k;
            up |= up_m & (up >> k);
            up_m &= up_m >> k;
        }
        down | up
    }

    /// Floods from the hexes in `seen` (which a LOC may pass) through those in `pass` by the
    /// steps that may go on, as far as they go, adding the hexes reached to `seen`: column by
    /// column, each column's own steps taken at once, sweeping the columns one way and the
    /// other until a sweep reaches nothing new. A sweep looks again only at the columns next
    /// to one that grew since it was last looked at: nothing else can enter the others.
    fn flood(&self, pass: &[u64], seen: &mut [u64]) {
        let cols = seen.len();
        let (mut forward, mut first) = (true, true);
        let mut again = vec![true; cols];
        loop {
            let mut grew = false;
            for k in 0..cols {
                let c = if forward { k } else { cols - 1 - k };
                if !std::mem::replace(&mut again[c], false) {
                    continue;
                }
                let entered = ColumnSteps::into(&self.go, seen, c) & pass[c];
                let x = seen[c] | entered;
                // A column swept before is closed under its own steps: unless a hex was
                // entered, it is as it was.
                if x == seen[c] && !first {
                    continue;
                }
                let now = self.along_column(c, x, pass[c]);
                if now != seen[c] {
                    seen[c] = now;
                    grew = true;
                    if c > 0 {
                        again[c - 1] = true;
                    }
                    if c + 1 < cols {
                        again[c + 1] = true;
                    }
                }
            }
            if !grew {
                break;
            }
            (forward, first) = (!forward, false);
        }
    }

    /// Floods from the hexes in `seen` as [`ColumnSteps::flood`] does, but one step of every
    /// hex reached at a time and at most `limit` steps; the hexes reached from those fewer
    /// than `limit` steps away by steps that must stop are added to `stops` (not yet checked
    /// against `pass`).
    fn flood_steps(&self, pass: &[u64], seen: &mut [u64], limit: u16, stops: &mut [u64]) {
        let cols = seen.len();
        let mut frontier = seen.to_vec();
        let mut next = vec![0u64; cols];
        for _ in 0..limit {
            for c in 0..cols {
                // Nothing enters a column with no hex of the frontier in it or either side.
                let (left, right) = (c.saturating_sub(1), (c + 1).min(cols - 1));
                if frontier[left] | frontier[c] | frontier[right] == 0 {
                    next[c] = 0;
                    continue;
                }
                next[c] = ColumnSteps::into(&self.go, &frontier, c);
                if self.any_stop {
                    stops[c] |= ColumnSteps::into(&self.stop, &frontier, c);
                }
            }
            let mut grew = false;
            for c in 0..cols {
                let new = next[c] & pass[c] & !seen[c];
                seen[c] |= new;
                frontier[c] = new;
                grew |= new != 0;
            }
            if !grew {
                break;
            }
        }
    }
}

/// What the LOC floods read of the map alone: the steps of [`loc_sides`] by columns (any
/// step, along railway only), the hexes a LOC may enter by their terrain (not all-sea nor
/// impassable, 3.3(1)), the cities and towns (3.3(2)), and the grid's rows per column.
#[derive(Debug, Default)]
pub struct LocBits {
    any: ColumnSteps,
    rail: ColumnSteps,
    /// The hexes a unit projects its ZOC into ([`zoc_into`], 3.2(1)), as steps.
    zoc: ColumnSteps,
    open: ColumnBits,
    urban: Vec<Hex>,
    rows: usize,
}

impl LocBits {
    #[inline(always)]
    fn set(&self, bits: &mut [u64], h: Hex) {
        bits[h.idx() / self.rows] |= 1 << (h.idx() % self.rows);
    }

    #[inline(always)]
    fn clear(&self, bits: &mut [u64], h: Hex) {
        bits[h.idx() / self.rows] &= !(1 << (h.idx() % self.rows));
    }

    #[inline(always)]
    fn has(&self, bits: &[u64], h: Hex) -> bool {
        bits[h.idx() / self.rows] & 1 << (h.idx() % self.rows) != 0
    }

    /// The cities and towns (3.3(2)), in the grid's order.
    pub fn urban(&self) -> &[Hex] {
        &self.urban
    }
}

/// [`loc_sides`] as [`LocBits`]. The grid numbers its hexes column by column
/// ([`sandtable_core::hex::HexGrid::hex_at`]); a column of more than 64 hexes is refused.
pub(crate) fn loc_bits(d: &Data) -> Result<LocBits, String> {
    let spec = d.map.grid.spec();
    let rows = (spec.rows[1] - spec.rows[0] + 1) as usize;
    if rows > 64 {
        return Err(format!("the LOC traces take at most 64 rows; the map has {rows}"));
    }
    let mut bits = LocBits {
        any: ColumnSteps::new(d, &d.loc_sides, LOC_ANY, rows)?,
        rail: ColumnSteps::new(d, &d.loc_sides, LOC_RAIL, rows)?,
        zoc: ColumnSteps::of(d, rows, |from, dir| {
            let to = d.map.grid.neighbour(from, dir);
            to.is_some_and(|to| projects_zoc(d, from, dir, to)) as u8 * GO
        })?,
        open: vec![0; d.map.grid.len() / rows],
        urban: d.map.grid.hexes().filter(|h| d.is_urban[h.idx()]).collect(),
        rows,
    };
    let mut open = std::mem::take(&mut bits.open);
    for h in d.map.grid.hexes() {
        if d.map.terrain(h) & (d.t.sea | d.t.impassable) == 0 {
            bits.set(&mut open, h);
        }
    }
    bits.open = open;
    Ok(bits)
}

/// The steps of a LOC of one side, as the core's search takes them: the trace
/// [`Board::trace_loc`]'s flood is tested against.
#[cfg(test)]
struct LocSteps<'b, 'a> {
    b: &'b Board<'a>,
    side: Side,
    /// 3.3(1)–(2), asked once per hex: 0 not yet, 1 a LOC may pass, 2 not.
    known: Vec<u8>,
}

#[cfg(test)]
impl LocSteps<'_, '_> {
    /// One step, along railway only if `rail_only`, each costing `unit`.
    #[inline(always)]
    fn step(&mut self, from: Hex, dir: u8, to: Hex, rail_only: bool, unit: u32) -> Step {
        let d = self.b.d;
        let mountain = d.t.mountain;
        let side_bits = d.map.side(from, dir);
        if side_bits & d.s.prohibited != 0 {
            return Step::Blocked(Why::NONE);
        }
        if rail_only && side_bits & d.s.rail == 0 {
            return Step::Blocked(Why::NONE);
        }
        if self.known[to.idx()] == 0 {
            self.known[to.idx()] = if self.b.loc_passable(self.side, to, false) {
                1
            } else {
                2
            };
        }
        if self.known[to.idx()] != 1 {
            return Step::Blocked(Why::NONE);
        }
        // 3.3(3): a LOC enters a mountain hex only along a road, or else stops there.
        let mountain_hex = d.map.terrain(to) & mountain != 0 || d.map.terrain(from) & mountain != 0;
        if mountain_hex && side_bits & d.s.road == 0 {
            if d.map.terrain(from) & mountain != 0 && d.map.terrain(to) & mountain == 0 {
                // Leaving a mountain hex off-road: the LOC entered it off-road and stopped.
                return Step::Blocked(Why::NONE);
            }
            return Step::Stop(unit);
        }
        Step::Go(unit)
    }
}

/// What the LOC and rail traces of one side read of the position besides the map: the hexes
/// held by enemy units and the fortresses (which block, and whose ZOC blocks: 3.3(1),
/// 14.2(2)), control (3.3(2)), and the hexes in enemy ZOC a friendly unit holds (which a LOC
/// may pass, 3.3(1)). Two positions that agree on these have the same traces.
struct TraceInputs {
    data: u64,
    /// The log of moves ([`State::moves`]) of the position read, how much of it was read,
    /// and how many changes of control it had counted.
    log: u64,
    seen: usize,
    control_changes: u32,
    side: Side,
    enemy: Vec<Hex>,
    fortresses: Vec<Fortress>,
    control: Vec<Option<Side>>,
    friends_in_zoc: Vec<Hex>,
}

impl PartialEq for TraceInputs {
    fn eq(&self, other: &TraceInputs) -> bool {
        // Control is compared whole, without an early exit: many times faster on a map.
        let same_control = self.control.len() == other.control.len()
            && (self.control.iter().zip(&other.control)).fold(true, |same, (a, b)| same & (a == b));
        self.data == other.data
            && self.side == other.side
            && self.enemy == other.enemy
            && self.fortresses == other.fortresses
            && self.friends_in_zoc == other.friends_in_zoc
            && same_control
    }
}

type Kept<T> = RefCell<[Option<(TraceInputs, Arc<T>)>; 2]>;

thread_local! {
    /// The last LOC trace of each side, with what it read.
    static KEPT_LOC: Kept<Vec<bool>> = const { RefCell::new([None, None]) };
    /// The last rail-entry trace of each side, with what it read.
    static KEPT_RAIL: Kept<Vec<Hex>> = const { RefCell::new([None, None]) };
}

/// The trace of `side` kept in `store` if what it read is `same`, else a new one made by
/// `work`, kept.
fn kept<T>(
    store: &'static LocalKey<Kept<T>>,
    side: Side,
    same: impl FnOnce(&mut TraceInputs) -> bool,
    work: impl FnOnce() -> (TraceInputs, Arc<T>),
) -> Arc<T> {
    let i = side.seat() as usize;
    let old = store.with(|k| match &mut k.borrow_mut()[i] {
        Some((was, trace)) => same(was).then(|| trace.clone()),
        None => None,
    });
    old.unwrap_or_else(|| {
        let (inputs, trace) = work();
        store.with(|k| k.borrow_mut()[i] = Some((inputs, trace.clone())));
        trace
    })
}

/// The numbers behind an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Odds {
    pub attack: u32,
    pub defence: u32,
    pub raw: Option<usize>,
    pub shifts: u8,
    pub column: Option<usize>,
    pub halved: bool,
}

/// 9.2(5) and the TEC: the MP to enter a hex by its terrain (without road or river).
pub fn terrain_mp(d: &Data, terrain: u32, mech: bool) -> u32 {
    let t = d.t;
    let pick = |name: &str| {
        let row = d.tec(name);
        (if mech { row.mp_mech } else { row.mp_foot }) as u32
    };
    // TEC: a large city costs 1 MP whatever else is in the hex; a town uses the other terrain.
    if terrain & t.city != 0 {
        return pick("city");
    }
    if terrain & t.swamp != 0 {
        pick("swamp")
    } else if terrain & t.forest != 0 {
        pick("forest")
    } else {
        pick("plain")
    }
}

/// 10.3(3) and A11: the defender's terrain shifts. A large city is 2 in all; otherwise the
/// base terrain (forest 1, swamp 1, mountain 2) plus 1 for a town.
pub fn terrain_shift(d: &Data, h: Hex) -> u8 {
    let t = d.t;
    let terrain = d.map.terrain(h);
    if terrain & t.city != 0 {
        return d.tec("city").shift;
    }
    let base = if terrain & t.mountain != 0 {
        d.tec("mountain").shift
    } else if terrain & t.swamp != 0 {
        d.tec("swamp").shift
    } else if terrain & t.forest != 0 {
        d.tec("forest").shift
    } else {
        d.tec("plain").shift
    };
    base + if terrain & t.town != 0 { d.tec("town").shift } else { 0 }
}

/// 10.7(1): whether one step of an advance after combat, from `from` into `to`, meets none of
/// the terrain that limits an advance to one hex: "遇到大城市,镇,山地,浅森林,深森林,湿地格子或者
/// 大河,河格子边的时候,只能挺进1格" — `to` is open ground (no city, town, mountain, forest or
/// swamp: the TEC's advance column, plain 2, the others 1) and the hexside crossed carries no
/// river or major river, bridged or not. A mechanised unit goes a second hex only if both steps
/// meet none of it (RULINGS: the second hex of an advance).
pub fn advance_may_continue(d: &Data, from: Hex, to: Hex) -> bool {
    let terrain = d.map.terrain(to);
    let limit = if terrain & (d.t.city | d.t.town | d.t.forest | d.t.swamp | d.t.mountain) != 0 {
        1
    } else {
        d.tec("plain").advance
    };
    if limit < 2 {
        return false;
    }
    match d.map.grid.dir_to(from, to) {
        Some(dir) => d.map.side(from, dir) & (d.s.river | d.s.major) == 0,
        None => false,
    }
}

/// 15.0(2): VP the Axis loses when this unit is removed by combat or supply.
pub fn loss_vp(d: &Data, u: UnitId) -> u16 {
    let def = &d.units[u as usize];
    if def.side != Side::Axis {
        return 0;
    }
    if def.utype == UType::Hq {
        return 2;
    }
    if def.nation != crate::data::Nation::German {
        return 0;
    }
    if def.mech {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StalingradBlitz;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::{play_randomly_watching, Game, Rules};

    impl Board<'_> {
        /// The LOC trace as the core's general search makes it, step by step.
        fn trace_loc_by_search(&self, side: Side, search: &mut Search) -> Vec<bool> {
            let d = self.d;
            let n = d.map.grid.len();
            let sources = self.sources(side, false);
            let mut trace = LocSteps {
                b: self,
                side,
                known: vec![0; n],
            };
            let mut reach = vec![false; n];
            match side {
                Side::Soviet => {
                    search.run(&d.map.grid, &sources, u32::MAX, |f, dir, t| {
                        trace.step(f, dir, t, false, 1)
                    });
                    for h in search.reached() {
                        reach[h.idx()] = true;
                    }
                }
                Side::Axis => {
                    search.run(&d.map.grid, &sources, u32::MAX, |f, dir, t| {
                        trace.step(f, dir, t, true, 0)
                    });
                    let rail: Vec<(Hex, u32)> = search
                        .reached()
                        .filter(|&h| search.cost_to_go_on(h).is_some())
                        .map(|h| (h, 0))
                        .collect();
                    for (h, _) in &rail {
                        reach[h.idx()] = true;
                    }
                    search.run(&d.map.grid, &rail, 6, |f, dir, t| trace.step(f, dir, t, false, 1));
                    for h in search.reached() {
                        reach[h.idx()] = true;
                    }
                }
            }
            reach
        }
    }

    impl Board<'_> {
        /// 12.1: the rail-entry trace as the core's least-cost search makes it, step by step:
        /// what [`Board::trace_rail`]'s flood is tested against.
        fn trace_rail_by_search(&self, side: Side, search: &mut Search) -> Vec<Hex> {
            let d = self.d;
            let sources = self.sources(side, true);
            search.run(&d.map.grid, &sources, u32::MAX, |from, dir, to| {
                let bits = d.map.side(from, dir);
                if bits & d.s.rail == 0 || bits & d.s.prohibited != 0 || !self.loc_passable(side, to, true) {
                    Step::Blocked(Why::NONE)
                } else {
                    Step::Go(1)
                }
            });
            search.reached().filter(|&h| d.has_rail[h.idx()]).collect()
        }
    }

    /// The supply distances for retreats (10.6(6)) by the flood are those of the core's
    /// search, for both sides, at every decision of random campaign games.
    #[test]
    fn the_supply_distance_flood_is_the_search() {
        let mut search = Search::new();
        let mut checked = 0;
        for seed in [2, 11] {
            let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
                let b = Board::fresh(g.data(), g.state());
                for side in [Side::Axis, Side::Soviet] {
                    let want = b.supply_distance_by_search(side, &mut search);
                    assert_eq!(b.supply_distance(side, &mut search), want, "{side:?}, seed {seed}");
                    checked += 1;
                }
            })
            .expect("random play reaches the end");
        }
        assert!(checked > 1000, "{checked} distance fields");
    }

    /// The rail-entry flood (12.1) lists the hexes the core's search reaches, in the same
    /// order, for both sides, at every decision of random campaign games.
    #[test]
    fn the_rail_flood_is_the_search() {
        let mut search = Search::new();
        let (mut checked, mut listed) = (0, 0);
        for seed in [5, 9] {
            let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
                let b = Board::fresh(g.data(), g.state());
                for side in [Side::Axis, Side::Soviet] {
                    let want = b.trace_rail_by_search(side, &mut search);
                    assert_eq!(b.trace_rail(side, &mut search), want, "{side:?}, seed {seed}");
                    checked += 1;
                    listed += want.len();
                }
            })
            .expect("random play reaches the end");
        }
        assert!(
            checked > 1000 && listed > 10 * checked,
            "{checked} traces, {listed} hexes"
        );
    }

    impl Board<'_> {
        /// Normal movement (9.2) as the search first priced it, step by step from the rules
        /// and the TEC: what [`move_sides`] and [`Board::movement_within`] are tested against.
        fn movement_by_rules(&self, unit: UnitId, from: Hex, spent: u32, limit: Option<u32>, search: &mut Search) {
            let d = self.d;
            let def = &d.units[unit as usize];
            let st = &self.s.units[unit as usize];
            let start = st.hex().expect("the unit is on the map");
            let side = def.side;
            let budget = limit.unwrap_or(def.face(st.reduced).ma as u32 * 2);
            let (t, sb, c) = (d.t, d.s, d.costs);
            let mountain_div = def.is_mountain();
            search.run(&d.map.grid, &[(from, spent)], budget, |from, dir, to| {
                let bits = d.map.side(from, dir);
                if bits & sb.prohibited != 0 {
                    return Step::Blocked(why::PROHIBITED);
                }
                if self.blocked_terrain(to) {
                    return Step::Blocked(why::IMPASSABLE);
                }
                if self.enemy_in(side, to) {
                    return Step::Blocked(why::ENEMY);
                }
                let zoc_from = self.enemy_zoc(side, from);
                let zoc_to = self.enemy_zoc(side, to);
                let zoc = c.zoc_enter_mp as u32 * zoc_to as u32 + c.zoc_leave_mp as u32 * zoc_from as u32;
                if bits & sb.road != 0 {
                    return Step::Go((c.road_mp as u32 + zoc) * 2);
                }
                let (tt, tf) = (d.map.terrain(to), d.map.terrain(from));
                if (tt | tf) & t.mountain != 0 {
                    if !mountain_div || from != start || (zoc_from && zoc_to) {
                        return Step::Blocked(why::MOUNTAIN);
                    }
                    return Step::Stop(budget);
                }
                let mut mp = terrain_mp(d, tt, def.mech);
                if bits & sb.major != 0 {
                    if bits & sb.rail != 0 {
                        mp += c.river_mp as u32;
                    } else {
                        if from != start || (zoc_from && zoc_to) {
                            return Step::Blocked(why::MAJOR_RIVER);
                        }
                        return Step::Stop(budget);
                    }
                } else if bits & sb.river != 0 {
                    mp += c.river_mp as u32;
                }
                Step::Go((mp + zoc) * 2)
            });
        }
    }

    /// Everything a search answers: the hexes reached in order, and per hex the cost, whether
    /// the arrival must stop, the cost of going on, the hex it came from and why it was refused.
    type Answers = (
        Vec<Hex>,
        Vec<(Option<u32>, bool, Option<u32>, Option<Hex>, Option<Why>)>,
    );

    fn answers(search: &Search, grid: &sandtable_core::hex::HexGrid) -> Answers {
        let reached: Vec<Hex> = search.reached().collect();
        // The hexes reached and those next to them: every hex a step was priced into.
        let mut near: Vec<Hex> = (reached.iter())
            .flat_map(|&h| std::iter::once(h).chain(grid.neighbours(h).map(|(_, n)| n)))
            .collect();
        near.sort_unstable();
        near.dedup();
        let per_hex = near
            .into_iter()
            .map(|h| {
                (
                    search.cost(h),
                    search.stopped_at(h),
                    search.cost_to_go_on(h),
                    search.parent(h),
                    search.why(h),
                )
            })
            .collect();
        (reached, per_hex)
    }

    /// Normal movement priced from the map's table of steps answers exactly what it answered
    /// priced step by step from the rules: the same hexes in the same order, by the same paths,
    /// at the same costs, refused for the same reasons; at every decision of a random campaign
    /// game, for one unit in ten of both sides on the map (a different ten each decision),
    /// within its MP, without a limit (as a refusal asks), and from a waypoint with MP spent.
    #[test]
    fn the_movement_table_is_the_rules() {
        let (mut a, mut b) = (Search::new(), Search::new());
        let (mut checked, mut decisions) = (0, 0);
        let mut g = StalingradBlitz::new_game("campaign", 6).expect("the campaign loads");
        g.set_journal(false);
        let mut rng = Rng::from_seed(6);
        play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
            let (d, s) = (g.data(), g.state());
            let board = Board::fresh(d, s);
            decisions += 1;
            for u in (decisions % 10..s.units.len()).step_by(10) {
                let Some(at) = s.units[u].hex() else { continue };
                let u = u as UnitId;
                let (spent, limit) = match checked % 10 {
                    0 => (0, Some(u32::MAX / 4)),
                    1..=3 => (2, None),
                    _ => (0, None),
                };
                board.movement_within(u, false, at, spent, limit, &mut a);
                board.movement_by_rules(u, at, spent, limit, &mut b);
                assert_eq!(answers(&a, &d.map.grid), answers(&b, &d.map.grid), "unit {u}");
                checked += 1;
            }
        })
        .expect("random play reaches the end");
        assert!(checked > 5_000, "only {checked} searches checked");
    }

    /// 14.2(2): a fortress hex is not in enemy ZOC for the Soviets, so a Soviet LOC passes an
    /// empty fortress next to an Axis unit: the flood says so as the core's search does, on
    /// the campaign map.
    #[test]
    fn a_fortress_lets_the_soviet_loc_pass_as_the_core_search() {
        let g = StalingradBlitz::new_game("campaign", 1).expect("the campaign loads");
        let (d, s0) = (g.data(), g.state());
        let mut search = Search::new();
        let axis = (0..s0.units.len())
            .find(|&i| d.units[i].side == Side::Axis && s0.units[i].hex().is_some())
            .expect("an Axis unit on the map");
        let occupied: Vec<Hex> = s0.units.iter().filter_map(|u| u.hex()).collect();
        let open = |h: Hex| d.map.terrain(h) & (d.t.sea | d.t.impassable) == 0 && !occupied.contains(&h);
        let before = Board::fresh(d, s0).trace_loc_by_search(Side::Soviet, &mut search);
        let mut found = None;
        'find: for h in d.map.grid.hexes().filter(|&h| open(h) && before[h.idx()]) {
            for (dir, a) in d.map.grid.neighbours(h) {
                if !open(a) || d.map.side(h, dir) & d.s.prohibited != 0 {
                    continue;
                }
                let mut s = s0.clone();
                s.units[axis].loc = Loc::Map(a);
                s.fortresses.push(Fortress { hex: h, level: 1 });
                if Board::fresh(d, &s).trace_loc_by_search(Side::Soviet, &mut search)[h.idx()] {
                    found = Some(s);
                    break 'find;
                }
            }
        }
        let s = found.expect("an empty hex a Soviet LOC reaches, next to one an Axis unit may enter");
        let b = Board::fresh(d, &s);
        let want = b.trace_loc_by_search(Side::Soviet, &mut search);
        assert_eq!(b.trace_loc(Side::Soviet, &mut search), want);
    }

    /// The floods over the map's LOC steps taken as bits a column at a time reach the hexes
    /// the core's search reaches with the rules' steps, for both sides, at every decision of
    /// random campaign games (and units of the side it must not reach, cut off).
    #[test]
    fn the_loc_flood_is_the_search() {
        let mut search = Search::new();
        let (mut checked, mut cut_off) = (0, 0);
        for seed in [3, 4] {
            let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
                let b = Board::fresh(g.data(), g.state());
                for side in [Side::Axis, Side::Soviet] {
                    let want = b.trace_loc_by_search(side, &mut search);
                    assert_eq!(b.trace_loc(side, &mut search), want, "{side:?}, seed {seed}");
                    cut_off += (g.state().units.iter().enumerate())
                        .filter(|&(i, _)| g.data().units[i].side == side)
                        .filter_map(|(_, u)| u.hex())
                        .filter(|h| !want[h.idx()])
                        .count();
                    checked += 1;
                }
            })
            .expect("random play reaches the end");
        }
        assert!(
            checked > 1000 && cut_off > 0,
            "{checked} traces, {cut_off} units cut off"
        );
    }

    /// Whenever the moves logged since a trace's inputs were read say that the trace still
    /// holds, comparing what the traces read says so too: for both sides, with and without
    /// the friendly-held hexes in enemy ZOC, at every decision of random campaign games
    /// (inputs read again whenever they no longer hold); and the log tells it often.
    #[test]
    fn the_moves_logged_tell_what_comparing_the_inputs_tells() {
        let (mut by_log, mut decisions) = (0, 0);
        for seed in [6, 7] {
            let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            let mut kept: Vec<Option<TraceInputs>> = (0..4).map(|_| None).collect();
            play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
                let b = Board::fresh(g.data(), g.state());
                decisions += 1;
                for (k, inputs) in kept.iter_mut().enumerate() {
                    let (side, friends) = ([Side::Axis, Side::Soviet][k / 2], k % 2 == 1);
                    if let Some(was) = inputs.as_mut() {
                        if was.fortresses == g.state().fortresses && b.reads_the_same_since(was, side, friends) {
                            by_log += 1;
                            assert!(
                                b.reads_the_same_by_all(was, side, friends),
                                "{side:?}: the log missed a change"
                            );
                        }
                        if b.reads_the_same(was, side, friends) {
                            continue;
                        }
                    }
                    *inputs = Some(b.trace_inputs(side, friends));
                }
            })
            .expect("random play reaches the end");
        }
        assert!(by_log > decisions, "{by_log} told by the log in {decisions} decisions");
    }
}

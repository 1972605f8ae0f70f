//! Memory of what the rules worked out for a position, so that one decision does not work it
//! out again and again.
//!
//! A movement phase of the campaign has some 130 units to list moves for, over a map of 4,400
//! hexes, and every question of a decision (the legal list, the check of the chosen action, its
//! execution, the phase's end) reads the same ZOC Bonds and the same reaches. Two things are
//! kept, each with the exact inputs it was worked out from, and used again only when those
//! inputs are unchanged — so the memo can never answer for another position:
//!
//! - the [`Layout`] (who stands where, the hexes next to the enemy, the ZOC Bonds), keyed on
//!   every unit's hex and face; the state logs every unit whose hex or face changes, so that
//!   only the units logged since the layout was last checked are looked at again;
//! - each unit's movement reach (the hexes it can enter and their cost), keyed on the unit's
//!   hex, MP spent, DG and face, and on everything else movement costs read for its side
//!   (TEC, 1.2, 3.1, 3.5, 3.8): the turn, the blown bridges, the barrage markers, the hexes
//!   the enemy holds, the enemy's ZOC Bonds and, on turns 1–2, the traffic jams German units
//!   hold and the stacks moving into them together. Moving one unit thus leaves the reach of
//!   the side's other units as it was; and when the enemy's units, bonds or markers change,
//!   only the reaches that could come within two hexes of a change are forgotten (the step
//!   rules read a hex and its neighbours: [`sandtable_core::reach`]). Each is kept with the
//!   route the search found to every hex of it, so that a move carried out follows that route
//!   without searching again;
//! - the same for each stack moving together (SCS 6.0, 3.1, data edition 3), keyed on its
//!   units in order and the hex, MP spent, DG and face of each, and forgotten with the reaches
//!   of its side;
//! - each side's supply map (3.7), keyed on what a trace reads of the position: the hexes the
//!   enemy holds, the enemy's ZOC Bonds, on turns 1–2 the traffic jams German units hold (for
//!   a German trace), the turn, the blown bridges and the Air Supply markers; all it reads
//!   besides the scenario's sources. The side's own moves elsewhere leave it as it was.
//!
//! The memo lives in [`State`] outside its serialized form: it is not part of the game, and a
//! loaded or replayed game simply starts with an empty one.

use crate::movement::MoveList;
use crate::rules::{layout_key, Board, Layout};
use crate::sequence::Side;
use crate::state::{JamStack, Markers, State, UnitId};
use crate::world::World;
use crate::Action;
use sandtable_core::hex::{Hex, NO_HEX};
use sandtable_core::reach::{self, ReachCache};
use sandtable_core::search::Search;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The hexes a unit can enter this phase with their costs in half MP, in hex order, the hex
/// it stands in excluded.
pub type Reach = Arc<[(Hex, u32)]>;

/// Every hexside's road link, per hex and direction ([`crate::rules::Board::link`]).
pub type RoadLinks = Arc<Vec<[u8; 6]>>;

/// Per hex, what the barrage markers in it add to a step of each side's units (3.5, see
/// [`crate::rules::Board`]).
pub type MarkerMp = Arc<Vec<[[u16; 2]; 2]>>;

/// See the module documentation.
#[derive(Default)]
pub struct Memo(Mutex<Inner>);

#[derive(Clone, Default)]
struct Inner {
    /// The world everything here was worked out on ([`World::id`]).
    world: Option<u64>,
    layout: Option<Arc<Layout>>,
    /// Where the state's log of moves stood when the kept layout was last found to fit
    /// ([`crate::state::Moves::mark`]).
    layout_mark: (u64, usize),
    /// Layouts of earlier positions, whose memory a new layout is built in once nothing else
    /// holds them (where a board or a copy of the state still holds the last one).
    spare: Vec<Arc<Layout>>,
    reach: [SideReach; 2],
    supply: [Option<SupplyMap>; 2],
    /// The road links of every hexside ([`Board::road_link`] as a code: see
    /// [`Board::link`]), with the turn and the blown bridges they were worked out for: all
    /// they read besides the map.
    roads: Option<(u8, Vec<Hex>, RoadLinks)>,
    /// Each side's supply sources and which of the scenario's are in force
    /// ([`crate::ArdennesII::sources_in_force`]): they depend only on the scenario, the map
    /// and that.
    sources: [Option<(u64, Arc<Vec<Hex>>)>; 2],
    /// 3.5: per side and division (`None`: any observer), the observers' hexes last asked
    /// about and how many of them are within observer range of each hex, the most recently
    /// used last: when a few observers moved, only the hexes near them are counted again.
    observed: Vec<Observed>,
    /// What the barrage markers add to steps, with the markers it was worked out for: all
    /// it reads besides the data.
    marker_mp: Option<(Vec<Markers>, MarkerMp)>,
    /// 3.5: the hexes within each range of each hex an artillery unit fired from or was
    /// offered to fire from, in hex order ([`crate::world::within`]): they depend on the map
    /// alone.
    disks: std::collections::HashMap<(Hex, u32), Arc<[Hex]>>,
    /// The legal list a movement or exploitation phase last gave the driver, known by its
    /// memory, its length and its room, with what its moves were made from
    /// ([`Memo::take_moves`]). Never copied with the memo.
    moves: Option<((usize, usize, usize), MoveList)>,
}

/// Which list `list` is: its memory, length and room. A list handed back that has all three of
/// the one made last is that list, untouched: the driver keeps its lists unchanged, and no
/// other list made since holds that memory while it does.
fn list_id(list: &[Action], capacity: usize) -> (usize, usize, usize) {
    (list.as_ptr() as usize, list.len(), capacity)
}

/// What observers watch (3.5), see [`Inner::observed`].
#[derive(Clone)]
struct Observed {
    /// The seat of the observers' side and their division (`None`: any of the side).
    key: (u8, Option<u16>),
    /// The hexes of the observers, in the order given.
    posts: Vec<Hex>,
    /// Per hex: how many of `posts` are within observer range of it.
    count: Arc<Vec<u16>>,
}

/// A side's supply map and what it was traced from.
#[derive(Clone)]
struct SupplyMap {
    /// The number of the position's layout ([`Layout::id`]): a quick test that nothing moved.
    layout: u64,
    /// The hexes the enemy holds, the enemy's ZOC Bond hexes and the traffic jams German
    /// units hold (a German trace, turns 1–2), in hex order: what the trace reads of the
    /// layout.
    enemy_hexes: Vec<Hex>,
    enemy_bonds: Vec<Hex>,
    german_jams: Vec<Hex>,
    turn: u8,
    blown: Vec<Hex>,
    air_supply: Vec<Hex>,
    map: Arc<Vec<bool>>,
}

/// A unit's kept reach, with the route the search found to each hex of it: per entry of
/// `reach`, the hex the cheapest arrival there came from and the hex the cheapest arrival
/// that may go on from there came from ([`NO_HEX`]: none, or the unit's own hex).
#[derive(Clone)]
struct KeptReach {
    reach: Reach,
    parents: Arc<[(u16, u16)]>,
}

/// The reaches of one side's units, worked out under `env` (or before changes far from them).
#[derive(Clone, Default)]
struct SideReach {
    env: Option<Env>,
    units: ReachCache<UnitKey, KeptReach>,
    /// The reaches of stacks moving together, by their first unit.
    stacks: ReachCache<Vec<(UnitId, UnitKey)>, Reach>,
}

impl SideReach {
    fn clear(&mut self) {
        self.units.clear();
        self.stacks.clear();
    }

    fn forget_near(&mut self, grid: &sandtable_core::hex::HexGrid, changed: &[Hex]) {
        self.units.forget_near(grid, changed, MARGIN);
        self.stacks.forget_near(grid, changed, MARGIN);
    }
}

/// How many counts of observed hexes are kept (one per side and per division that has
/// divisional artillery).
const OBSERVED_KEPT: usize = 32;

/// How many lists of the hexes within a range of a hex are kept ([`Memo::within`]).
const DISKS_KEPT: usize = 4096;

/// How many layouts of earlier positions are kept for their memory.
const SPARE_LAYOUTS: usize = 6;

/// The number the next layout the memo gives out gets ([`Layout::id`]): never 0, never
/// given twice.
static NEXT_LAYOUT: AtomicU64 = AtomicU64::new(1);

/// How far from the hexes where something changed a step's price can be affected: the step
/// rules read the hex entered and the hex left, and whether each is next to the enemy.
const MARGIN: u32 = 2;

/// What movement costs read for a side, apart from the moving unit itself.
#[derive(Clone)]
struct Env {
    /// The number of the layout last checked against this environment ([`Layout::id`]): a
    /// quick test that it still holds.
    layout: u64,
    /// 7.0: the playing area (held, so that its address is not reused while compared).
    area: Option<Arc<Vec<bool>>>,
    turn: u8,
    blown: Vec<Hex>,
    markers: Vec<Markers>,
    enemy_hexes: Vec<Hex>,
    /// The enemy's ZOC Bond hexes, in hex order.
    enemy_bonds: Vec<Hex>,
    german_jams: Vec<Hex>,
    /// 3.1 (data edition 3): the German stacks moving into traffic jams this phase.
    jam_stacks: Vec<JamStack>,
}

/// What a unit's reach depends on of the unit itself.
#[derive(Clone, PartialEq)]
struct UnitKey {
    hex: Hex,
    spent: u16,
    dg: bool,
    reduced: bool,
}

impl UnitKey {
    fn of(st: &crate::state::UnitState, hex: Hex) -> UnitKey {
        UnitKey {
            hex,
            spent: st.spent,
            dg: st.dg,
            reduced: st.reduced,
        }
    }
}

impl Clone for Memo {
    fn clone(&self) -> Memo {
        let mut inner = self.inner().clone();
        // The copy makes its own lists.
        inner.moves = None;
        Memo(Mutex::new(inner))
    }
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

impl Memo {
    fn inner(&self) -> MutexGuard<'_, Inner> {
        // A panic while the lock was held leaves nothing half-made that matters: every entry
        // is checked against its inputs before use.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The memo for world `w`: emptied first if it was made on another world.
    fn on(&self, w: &World) -> MutexGuard<'_, Inner> {
        let mut inner = self.inner();
        if inner.world != Some(w.id) {
            *inner = Inner {
                world: Some(w.id),
                ..Inner::default()
            };
        }
        inner
    }

    /// Forgets everything (for tests that compare with the rules worked out afresh).
    pub fn clear(&self) {
        *self.inner() = Inner::default();
    }

    /// What the moves of `list`, a legal list the driver hands back to be made again, were
    /// made from: if it is the list of a movement or exploitation phase [`Memo::keep_moves`]
    /// was last told of. Forgotten either way, as the list is about to change.
    pub(crate) fn take_moves(&self, list: &Vec<Action>) -> Option<MoveList> {
        let (id, moves) = self.inner().moves.take()?;
        (id == list_id(list, list.capacity())).then_some(moves)
    }

    /// What the moves of the legal list given to the driver last were made from.
    #[cfg(test)]
    pub(crate) fn last_moves(&self) -> Option<MoveList> {
        self.inner().moves.as_ref().map(|(_, moves)| moves.clone())
    }

    /// Keeps what the moves of `list`, the legal list given to the driver now, were made from.
    pub(crate) fn keep_moves(&self, list: &Vec<Action>, moves: MoveList) {
        self.inner().moves = Some((list_id(list, list.capacity()), moves));
    }

    /// The layout of the units of `s`: the one kept, if they still stand where they stood.
    pub(crate) fn layout(&self, w: &World, s: &State) -> Arc<Layout> {
        let mut inner = self.on(w);
        // The units logged as moved since the kept layout was last checked, if the state's
        // log is the one it was checked against: only they can stand elsewhere.
        let logged = s.moves.since(inner.layout_mark);
        if let Some(l) = &inner.layout {
            let fits = l.key.len() == s.units.len()
                && match logged {
                    Some(units) => units
                        .iter()
                        .all(|&u| layout_key(&s.units[u as usize]) == l.key[u as usize]),
                    None => l.fits(s),
                };
            if cfg!(test) {
                assert_eq!(fits, l.fits(s), "the moves logged tell whether the kept layout fits");
            }
            if fits {
                let l = l.clone();
                inner.layout_mark = s.moves.mark();
                return l;
            }
        }
        // The layout kept is no longer this position's: the new one is made from it, moving
        // only the units that moved since: in its own memory if nothing else holds it (a
        // board of the last position), else in the memory of an earlier one that nothing
        // holds any more.
        let prev = inner.layout.take();
        let mut l = match prev.map(Arc::try_unwrap) {
            Some(Ok(prev)) => prev.move_on(w, s, logged),
            Some(Err(prev)) => {
                let free = inner.spare.iter().position(|l| Arc::strong_count(l) == 1);
                let old = free.and_then(|i| Arc::try_unwrap(inner.spare.swap_remove(i)).ok());
                let l = Layout::moved_from(&prev, old, w, s);
                inner.spare.push(prev);
                if inner.spare.len() > SPARE_LAYOUTS {
                    inner.spare.remove(0);
                }
                l
            }
            None => {
                let free = inner.spare.iter().position(|l| Arc::strong_count(l) == 1);
                let old = free.and_then(|i| Arc::try_unwrap(inner.spare.swap_remove(i)).ok());
                Layout::build_in(w, s, old)
            }
        };
        l.id = NEXT_LAYOUT.fetch_add(1, Ordering::Relaxed);
        let l = Arc::new(l);
        inner.layout = Some(l.clone());
        inner.layout_mark = s.moves.mark();
        l
    }

    /// The road links of every hexside on the turn and with the blown bridges of `s`: the
    /// ones kept, if worked out for the same, else worked out by `find`.
    pub(crate) fn roads(&self, w: &World, s: &State, find: impl FnOnce() -> Vec<[u8; 6]>) -> RoadLinks {
        if let Some((turn, blown, roads)) = &self.on(w).roads {
            if *turn == s.turn && *blown == s.blown {
                return roads.clone();
            }
        }
        let roads = Arc::new(find());
        self.on(w).roads = Some((s.turn, s.blown.clone(), roads.clone()));
        roads
    }

    /// 3.5: per hex, how many of the observers standing at `posts` (of the side with seat
    /// `key.0`, of division `key.1` only if given) are within observer range of it: counted
    /// again only near the observers that moved, came or went since the same side and
    /// division were last asked about (an observer's place in `posts` taken by another counts
    /// as a move).
    pub(crate) fn observed(
        &self,
        w: &World,
        key: (u8, Option<u16>),
        posts: impl Iterator<Item = Hex>,
    ) -> Arc<Vec<u16>> {
        let grid = &w.map.grid;
        let mut inner = self.on(w);
        let mut kept = match inner.observed.iter().position(|o| o.key == key) {
            Some(i) => inner.observed.remove(i),
            None => Observed {
                key,
                posts: Vec::new(),
                count: Arc::new(Vec::new()),
            },
        };
        let count = Arc::make_mut(&mut kept.count);
        let watch = |count: &mut Vec<u16>, h: Hex, add: bool| {
            for t in w.observer_disk(h) {
                let c = &mut count[t.idx()];
                *c = if add { *c + 1 } else { *c - 1 };
            }
        };
        if count.len() != grid.len() {
            count.clear();
            count.resize(grid.len(), 0);
            kept.posts.clear();
        }
        // Post by post, the one counted in its place before taken away where it is another;
        // the posts past the old ones added, the old ones past the new taken away.
        let mut n = 0;
        for now in posts {
            match kept.posts.get_mut(n) {
                Some(was) if *was == now => {}
                Some(was) => {
                    watch(count, *was, false);
                    watch(count, now, true);
                    *was = now;
                }
                None => {
                    watch(count, now, true);
                    kept.posts.push(now);
                }
            }
            n += 1;
        }
        for &was in &kept.posts[n..] {
            watch(count, was, false);
        }
        kept.posts.truncate(n);
        let count = kept.count.clone();
        if inner.observed.len() >= OBSERVED_KEPT {
            inner.observed.remove(0);
        }
        inner.observed.push(kept);
        count
    }

    /// Per hex, what the barrage markers of `s` add to a step (3.5): the table kept, if
    /// worked out for the same markers, else worked out by `find`.
    pub(crate) fn marker_mp(&self, w: &World, s: &State, find: impl FnOnce() -> Vec<[[u16; 2]; 2]>) -> MarkerMp {
        if let Some((markers, mp)) = &self.on(w).marker_mp {
            if *markers == s.markers {
                return mp.clone();
            }
        }
        let mp = Arc::new(find());
        self.on(w).marker_mp = Some((s.markers.clone(), mp.clone()));
        mp
    }

    /// 3.5: the hexes within `r` hexes of `h`, in hex order ([`crate::world::within`]): the
    /// list kept, if asked for before.
    pub(crate) fn within(&self, w: &World, h: Hex, r: u32) -> Arc<[Hex]> {
        let mut inner = self.on(w);
        if let Some(disk) = inner.disks.get(&(h, r)) {
            return disk.clone();
        }
        // Only the hexes artillery stands in are asked about; a bound all the same.
        if inner.disks.len() >= DISKS_KEPT {
            inner.disks.clear();
        }
        let disk: Arc<[Hex]> = crate::world::within(&w.map.grid, h, r).collect();
        inner.disks.insert((h, r), disk.clone());
        disk
    }

    /// Side `side`'s supply sources with the scenario's sources `in_force`: the ones kept, if
    /// found for the same, else found by `find`.
    pub(crate) fn sources(
        &self,
        w: &World,
        side: Side,
        in_force: u64,
        find: impl FnOnce() -> Vec<Hex>,
    ) -> Arc<Vec<Hex>> {
        if let Some((kept, list)) = &self.on(w).sources[side.seat() as usize] {
            if *kept == in_force {
                return list.clone();
            }
        }
        let list = Arc::new(find());
        self.on(w).sources[side.seat() as usize] = Some((in_force, list.clone()));
        list
    }

    /// Side `side`'s supply map on board `b`: the one kept, if traced from the same position,
    /// turn, blown bridges and Air Supply markers, else traced by `trace`.
    pub(crate) fn supply(&self, b: &Board, side: Side, trace: impl FnOnce() -> Vec<bool>) -> Arc<Vec<bool>> {
        // The board's layout is taken (from this memo) before the memo is locked here.
        let layout = b.layout().clone();
        let s = b.s;
        let seat = side.seat() as usize;
        let enemy_hexes = b.held_by(side.enemy());
        let enemy_bonds = &layout.bond_hexes[seat];
        let german_jams = german_jams(b, side);
        let fits = |m: &SupplyMap| {
            m.turn == s.turn
                && m.blown == s.blown
                && m.air_supply == s.air_supply
                && (m.layout == layout.id
                    || (m.enemy_hexes == enemy_hexes && m.enemy_bonds == *enemy_bonds && m.german_jams == german_jams))
        };
        {
            let mut inner = self.on(b.w);
            if let Some(m) = &mut inner.supply[seat] {
                if fits(m) {
                    // Kept for the layout of now, so that the quick test answers next time.
                    m.layout = layout.id;
                    return m.map.clone();
                }
            }
        }
        let map = Arc::new(trace());
        self.on(b.w).supply[seat] = Some(SupplyMap {
            enemy_hexes: enemy_hexes.to_vec(),
            enemy_bonds: enemy_bonds.clone(),
            german_jams,
            layout: layout.id,
            turn: s.turn,
            blown: s.blown.clone(),
            air_supply: s.air_supply.clone(),
            map: map.clone(),
        });
        map
    }

    /// Unit `u`'s reach on board `b`: the one kept, if its inputs are unchanged, else worked
    /// out with `search`.
    pub(crate) fn reach(&self, b: &Board, u: UnitId, search: &mut Search) -> Reach {
        self.kept_reach(b, u, search)
            .map_or_else(|| Arc::from(Vec::new()), |k| k.reach)
    }

    /// The cheapest route of unit `u` on board `b` to `to`, each hex entered with its cost in
    /// half MP: the route the search of its reach found (the one [`Search::path`] gives, kept
    /// with the reach), empty if `to` is not in its reach.
    pub(crate) fn route(&self, b: &Board, u: UnitId, to: Hex, search: &mut Search) -> Vec<(Hex, u32)> {
        let Some(k) = self.kept_reach(b, u, search) else {
            return Vec::new();
        };
        let find = |h: u16| k.reach.binary_search_by_key(&Hex(h), |&(x, _)| x).ok();
        let Some(mut i) = find(to.0) else {
            return Vec::new();
        };
        // From `to` back to the unit's hex: the cheapest arrival's parent, then the parents of
        // arrivals that may go on.
        let mut back = vec![i];
        let mut p = k.parents[i].0;
        while p != NO_HEX {
            let Some(j) = find(p) else { break };
            if back.len() > k.reach.len() {
                break;
            }
            back.push(j);
            i = j;
            p = k.parents[i].1;
        }
        let mut before = 0;
        back.iter()
            .rev()
            .map(|&i| {
                let (h, cost) = k.reach[i];
                let step = cost - before;
                before = cost;
                (h, step)
            })
            .collect()
    }

    /// [`Memo::reach`] with its routes.
    fn kept_reach(&self, b: &Board, u: UnitId, search: &mut Search) -> Option<KeptReach> {
        let st = &b.s.units[u as usize];
        let hex = st.hex()?;
        let side = b.def(u).side;
        // The board's layout, road links and marker costs are taken (from this memo) before
        // the memo is locked here.
        b.layout();
        b.roads();
        b.marker_mp();
        let mut inner = self.on(b.w);
        let sr = &mut inner.reach[side.seat() as usize];
        refresh_once(sr, b, side);
        let key = UnitKey::of(st, hex);
        if let Some(kept) = sr.units.get(u as usize, &key) {
            return Some(kept);
        }
        b.reach(u, search);
        let kept = found_reach(b, hex, search);
        let radius = reach::radius(&b.w.map.grid, hex, kept.reach.iter().map(|&(h, _)| h));
        sr.units.put(u as usize, key, hex, radius, kept.clone());
        Some(kept)
    }

    /// The reach of the stack `units` moving together on board `b` (SCS 6.0, 3.1, data
    /// edition 3): the one kept, if its inputs are unchanged, else worked out with `search`
    /// ([`Board::stack_reach`]).
    pub(crate) fn stack_reach(&self, b: &Board, units: &[UnitId], search: &mut Search) -> Reach {
        let Some(&first) = units.first() else {
            return Arc::from(Vec::new());
        };
        let Some(hex) = b.s.units[first as usize].hex() else {
            return Arc::from(Vec::new());
        };
        let side = b.def(first).side;
        // Every unit's own inputs, in the stack's order (the first unit's hex is where the
        // search starts; the others' are in the key so that a stack spread over hexes, which
        // no legal list offers, is never confused with one standing together).
        let key: Vec<(UnitId, UnitKey)> = units
            .iter()
            .map(|&u| {
                let st = &b.s.units[u as usize];
                (u, UnitKey::of(st, st.hex().unwrap_or(Hex(u16::MAX))))
            })
            .collect();
        b.layout();
        b.roads();
        b.marker_mp();
        let mut inner = self.on(b.w);
        let sr = &mut inner.reach[side.seat() as usize];
        refresh_once(sr, b, side);
        if let Some(reach) = sr.stacks.get(first as usize, &key) {
            return reach;
        }
        let found = b.stack_reach(units, search);
        let radius = reach::radius(&b.w.map.grid, hex, found.iter().map(|&(h, _)| h));
        let reach: Reach = Arc::from(found);
        sr.stacks.put(first as usize, key, hex, radius, reach.clone());
        reach
    }
}

/// The reach the last search from `hex` found on board `b`, in hex order (`hex` excluded),
/// with the route to each hex: the hexes reached are marked on a bit per hex of the map and
/// read back in order, which sorts them without comparing.
fn found_reach(b: &Board, hex: Hex, search: &Search) -> KeptReach {
    let mut marked = vec![0u64; b.w.map.grid.len().div_ceil(64)];
    let mut n = 0;
    for h in search.reached() {
        if h != hex {
            marked[h.idx() / 64] |= 1 << (h.idx() % 64);
            n += 1;
        }
    }
    // The unit's own hex (the search's source) ends every route.
    let parent = |p: Option<Hex>| p.filter(|&p| p != hex).map_or(NO_HEX, |p| p.0);
    let mut reach = Vec::with_capacity(n);
    let mut parents = Vec::with_capacity(n);
    for (i, &word) in marked.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let h = Hex((i * 64 + bits.trailing_zeros() as usize) as u16);
            bits &= bits - 1;
            reach.push((h, search.cost(h).unwrap_or(0)));
            parents.push((parent(search.parent(h)), parent(search.parent_to_go_on(h))));
        }
    }
    KeptReach {
        reach: reach.into(),
        parents: parents.into(),
    }
}

/// [`refresh`], once per board and side: the board's position cannot change while it lives.
fn refresh_once(sr: &mut SideReach, b: &Board, side: Side) {
    let seat = side.seat() as usize;
    let mut checked = b.reaches_checked.get();
    // The memo may have been emptied since (a test's `clear`): the check is then made again.
    if checked[seat] && sr.env.is_some() {
        return;
    }
    refresh(sr, b, side);
    checked[seat] = true;
    b.reaches_checked.set(checked);
}

/// Checks the side's environment against board `b`: where it changed, the reaches near the
/// change are forgotten; where the change is everywhere (the turn, the playing area), all.
fn refresh(sr: &mut SideReach, b: &Board, side: Side) {
    let l = b.layout();
    let s = b.s;
    let new_env = |l: &Arc<Layout>| Env {
        layout: l.id,
        area: s.area.clone(),
        turn: s.turn,
        blown: s.blown.clone(),
        markers: s.markers.clone(),
        enemy_hexes: b.held_by(side.enemy()).to_vec(),
        enemy_bonds: l.bond_hexes[side.seat() as usize].clone(),
        german_jams: german_jams(b, side),
        jam_stacks: s.jam_stacks.clone(),
    };
    let Some(env) = &mut sr.env else {
        sr.clear();
        sr.env = Some(new_env(l));
        return;
    };
    let same_area = match (&env.area, &s.area) {
        (None, None) => true,
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        _ => false,
    };
    if !same_area || env.turn != s.turn {
        sr.clear();
        sr.env = Some(new_env(l));
        return;
    }
    if env.layout == l.id && env.blown == s.blown && env.markers == s.markers && env.jam_stacks == s.jam_stacks {
        return;
    }
    // The hexes where something a step reads has changed.
    let grid = &b.w.map.grid;
    let mut changed = reach::moved(&env.blown, &s.blown);
    // The hexes whose markers are not the ones they were, compared where they stand.
    if env.markers != s.markers {
        for h in env.markers.iter().chain(&s.markers).map(|m| m.hex) {
            let before = env.markers.iter().filter(|m| m.hex == h);
            let after = s.markers.iter().filter(|m| m.hex == h);
            if !before.eq(after) {
                changed.push(h);
            }
        }
    }
    changed.extend(reach::moved(&env.enemy_hexes, b.held_by(side.enemy())));
    changed.extend(reach::moved(&env.enemy_bonds, &l.bond_hexes[side.seat() as usize]));
    let jams = german_jams(b, side);
    changed.extend(reach::moved(&env.german_jams, &jams));
    // A stack's traffic jam whose units changed: who may enter it changed.
    for j in env.jam_stacks.iter().chain(&s.jam_stacks) {
        if !(env.jam_stacks.contains(j) && s.jam_stacks.contains(j)) {
            changed.push(j.jam);
        }
    }
    changed.sort_unstable();
    changed.dedup();
    sr.forget_near(grid, &changed);
    // The environment now, in the memory of the one before (the same area and turn).
    let env = sr.env.get_or_insert_with(|| new_env(l));
    env.layout = l.id;
    env.blown.clone_from(&s.blown);
    env.markers.clone_from(&s.markers);
    env.enemy_hexes.clear();
    env.enemy_hexes.extend_from_slice(b.held_by(side.enemy()));
    env.enemy_bonds.clone_from(&l.bond_hexes[side.seat() as usize]);
    env.german_jams = jams;
    env.jam_stacks.clone_from(&s.jam_stacks);
}

/// 3.1: the traffic jams German units hold, which are closed to other German units.
fn german_jams(b: &Board, side: Side) -> Vec<Hex> {
    if side != Side::German || !b.jams_active() {
        return Vec::new();
    }
    b.held_by(Side::German)
        .iter()
        .copied()
        .filter(|&h| b.traffic_jam(h))
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::rules::Layout;
    use crate::ArdennesII;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::{Game, Pending, Rules};

    /// The road link of every hexside the memo's table gives is at every step of random play
    /// the one [`Board::road_link`] works out, through turns and blown bridges.
    #[test]
    fn the_kept_road_links_are_the_ones_worked_out() {
        use crate::rules::{Board, NO_LINK, ROAD_LINK, TRACK_LINK};
        let (mut blown, mut turns) = (false, 0);
        for (scenario, seed) in [("goose-egg", 8), ("peiper", 9)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            let (mut turn, mut blown_then) = (0, Vec::new());
            for step in 0..1500 {
                let b = Board::new(&g.w, &g.s);
                // Where the table could go wrong: a new turn or newly blown bridges.
                if g.s.turn != turn || g.s.blown != blown_then {
                    blown_then = g.s.blown.clone();
                    for h in g.w.map.grid.hexes() {
                        for d in 0..6 {
                            let code = match b.road_link(h, d) {
                                None => NO_LINK,
                                Some("track") => TRACK_LINK,
                                Some(_) => ROAD_LINK,
                            };
                            assert_eq!(b.link(h, d), code, "{scenario} step {step}: hex {h:?} toward {d}");
                        }
                    }
                    // The flood's steps along road (3.7) are the links', grouped by offset.
                    let grouped = |mut steps: crate::world::Steps| {
                        steps.retain(|(_, set)| set.iter().any(|&w| w != 0));
                        steps.sort_by_key(|&(k, _)| k);
                        steps
                    };
                    let mut got = Vec::new();
                    b.road_steps(&mut got);
                    let want = crate::world::steps(&g.w.map.grid, |f, d| {
                        b.link(sandtable_core::hex::Hex(f as u16), d as u8) != NO_LINK
                    });
                    assert!(
                        grouped(got) == grouped(want),
                        "{scenario} step {step}: the steps along road"
                    );
                }
                blown |= !g.s.blown.is_empty();
                if g.s.turn != turn {
                    turn = g.s.turn;
                    turns += 1;
                }
                match g.pending() {
                    Pending::Over => break,
                    Pending::Chance => {
                        g.resolve_chance();
                    }
                    Pending::Seat(seat) => {
                        let l = g.legal_list();
                        let a = l[rng.below(l.len() as u32) as usize].clone();
                        g.apply(seat, &a).expect("a legal action");
                    }
                }
            }
        }
        assert!(blown, "no bridge was blown");
        assert!(turns > 2);
    }

    /// The supply map the memo gives is at every step of random play the map traced afresh,
    /// for both sides.
    #[test]
    fn a_kept_supply_map_is_the_one_traced_afresh() {
        use crate::rules::{with_search, Board};
        use crate::sequence::Side;
        let mut compared = 0;
        for (scenario, seed) in [("goose-egg", 3), ("campaign", 4), ("bastogne", 5)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            for step in 0..400 {
                for side in [Side::German, Side::Allied] {
                    let b = Board::new(&g.w, &g.s);
                    let kept = with_search(|search| g.supply_map(&b, side, search));
                    let sources = g.supply_sources(&b, side);
                    let fresh = with_search(|search| b.supply_from(side, &sources, search));
                    assert!(*kept == fresh, "{scenario} step {step}: {side:?}'s supply map");
                    compared += 1;
                }
                match g.pending() {
                    Pending::Over => break,
                    Pending::Chance => {
                        g.resolve_chance();
                    }
                    Pending::Seat(seat) => {
                        let l = g.legal_list();
                        let a = l[rng.below(l.len() as u32) as usize].clone();
                        g.apply(seat, &a).expect("a legal action");
                    }
                }
            }
        }
        assert!(compared > 1000);
    }

    /// The supply sources the memo keeps are on every turn of every scenario the ones found
    /// afresh, for both sides; and so in a Bastogne whose west-edge roads supply only from turn
    /// 6 on, where the sources change with the turn (7.3-7.6).
    #[test]
    fn kept_supply_sources_are_the_ones_found_afresh() {
        use crate::data::SupplySource;
        use crate::rules::Board;
        use crate::sequence::Side;
        let mut changed = 0;
        let late = |g: &mut ArdennesII| {
            let mut scenario = (*g.scenario).clone();
            for source in &mut scenario.supply {
                if let SupplySource::RoadOffEdge { from_turn, .. } = source {
                    from_turn.get_or_insert(6);
                }
            }
            g.scenario = std::sync::Arc::new(scenario);
        };
        for (scenario, later) in [
            ("goose-egg", false),
            ("peiper", false),
            ("bastogne", false),
            ("bastogne", true),
            ("breakthrough", false),
            ("spearpoint", false),
            ("campaign", false),
        ] {
            let mut g = ArdennesII::new_game(scenario, 1).expect("the scenario loads");
            if later {
                late(&mut g);
            }
            for side in [Side::German, Side::Allied] {
                let mut before: Option<Vec<sandtable_core::hex::Hex>> = None;
                for turn in 1..=g.scenario.last_turn {
                    g.s.turn = turn;
                    let b = Board::new(&g.w, &g.s);
                    let fresh = g.supply_sources(&b, side);
                    let kept =
                        g.s.memo
                            .sources(&g.w, side, g.sources_in_force(side), || g.supply_sources(&b, side));
                    assert_eq!(*kept, fresh, "{scenario} turn {turn}: {side:?}'s sources");
                    changed += usize::from(before.as_ref().is_some_and(|b| *b != fresh));
                    before = Some(fresh);
                }
            }
        }
        assert!(changed > 0, "no scenario's sources change with the turn");
    }

    /// The supply flood (3.7) reaches at every decision of random games the hexes the core's
    /// search reaches with the rules' steps, for both sides, in scenarios with German-held
    /// traffic jams (turns 1-2), Air Supply markers and units cut off.
    #[test]
    fn the_supply_flood_is_the_search() {
        use crate::rules::{with_search, Board};
        use crate::sequence::Side;
        use sandtable_core::game::play_randomly_watching;
        let (mut compared, mut cut_off, mut jams, mut air) = (0, 0, 0, 0);
        for (scenario, seed, decisions) in [("goose-egg", 3, 800), ("peiper", 6, 500), ("bastogne", 5, 500)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, decisions, |g| {
                let b = Board::new(&g.w, &g.s);
                for side in [Side::German, Side::Allied] {
                    let sources = g.supply_sources(&b, side);
                    let want = with_search(|search| b.supply_by_search(side, &sources, search));
                    let got = with_search(|search| b.supply_from(side, &sources, search));
                    assert!(got == want, "{scenario} seed {seed}: {side:?}'s supply");
                    cut_off += g
                        .units_of(side)
                        .filter_map(|u| g.s.units[u as usize].hex())
                        .filter(|h| !want[h.idx()])
                        .count();
                    compared += 1;
                }
                // 3.1: traces from next to each German-held traffic jam, where the jam's stop
                // counts most (the scenario's own sources are mostly far from them).
                let grid = &g.w.map.grid;
                let held: Vec<_> = grid
                    .hexes()
                    .filter(|&h| b.traffic_jam(h) && b.side_at(h) == Some(Side::German))
                    .collect();
                for (_, near) in held.iter().flat_map(|&jam| grid.neighbours(jam)) {
                    let want = with_search(|search| b.supply_by_search(Side::German, &[near], search));
                    let got = with_search(|search| b.supply_from(Side::German, &[near], search));
                    assert!(got == want, "{scenario} seed {seed}: German supply from {near:?}");
                    jams += 1;
                }
                air += usize::from(!g.s.air_supply.is_empty());
            })
            .expect("random play goes on");
        }
        assert!(
            compared > 1000 && cut_off > 0 && jams > 0 && air > 0,
            "{compared} traces, {cut_off} units cut off, {jams} with German-held jams, {air} with Air Supply"
        );
    }

    /// The route kept with a unit's reach is at every decision of random games the route a
    /// search afresh finds, for a spread of every moving unit's destinations (each hex with
    /// its cost), the routes along roads through traffic jams and the shortest included.
    #[test]
    fn a_kept_route_is_the_one_searched_afresh() {
        use crate::Action;
        use sandtable_core::game::play_randomly_watching;
        let (mut compared, mut long) = (0, 0);
        for (scenario, seed, decisions) in [("goose-egg", 3, 700), ("peiper", 6, 400)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, decisions, |g| {
                let mut moves: Vec<(crate::state::UnitId, sandtable_core::hex::Hex)> = g
                    .legal_list()
                    .iter()
                    .filter_map(|a| match a {
                        Action::Move { unit, to, via } if via.is_empty() => Some((*unit, *to)),
                        _ => None,
                    })
                    .collect();
                moves.sort_unstable();
                for group in moves.chunk_by(|a, b| a.0 == b.0) {
                    let every = group.len().div_ceil(5);
                    for (k, &(u, to)) in group.iter().enumerate() {
                        if k % every != 0 && k + 1 != group.len() {
                            continue;
                        }
                        let want = g.cheapest_route_by_search(&[u], to);
                        assert_eq!(
                            g.cheapest_route(&[u], to),
                            want,
                            "{scenario} seed {seed}: unit {u} to {to:?}"
                        );
                        compared += 1;
                        long += usize::from(want.len() >= 4);
                    }
                }
            })
            .expect("random play goes on");
        }
        assert!(
            compared > 5000 && long > 500,
            "{compared} routes, {long} of 4 hexes or more"
        );
    }

    /// A layout made from the one of the step before by moving only the units whose place or
    /// face changed ([`Layout::moved_from`], in the memory of an older one) is at every step
    /// of random play the layout built afresh: moves, stacks moving together, retreats,
    /// advances, losses, eliminations, reinforcements and exits, in four scenarios; its
    /// possible ZOC Bonds found again only near the units that moved are those found afresh,
    /// and the bonds the fresh layout chooses among them are the core's (1.2).
    #[test]
    fn a_layout_moved_from_the_last_one_is_the_fresh_one() {
        use crate::rules::layout_key;
        use crate::sequence::Side;
        use sandtable_core::game::play_randomly_watching;
        let (mut moved_once, mut moved_some, mut bonds) = (0, 0, 0);
        for (scenario, seed, steps) in [
            ("goose-egg", 11, 1500),
            ("campaign", 12, 1500),
            ("peiper", 13, 800),
            ("bastogne", 14, 800),
        ] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            let mut prev = Layout::build(&g.w, &g.s);
            let mut older: Option<Layout> = None;
            let mut step = 0;
            play_randomly_watching(&mut g, &mut rng, steps, |g| {
                let fresh = Layout::build(&g.w, &g.s);
                // The bonds chosen among the possible ones are the core's (1.2).
                let core = crate::rules::bonds_both_ways(&g.w, &g.s);
                for side in [Side::German, Side::Allied] {
                    let mut want: Vec<_> = core[side.seat() as usize].0.iter().map(|b| b.hex).collect();
                    want.sort_unstable();
                    want.dedup();
                    let held_against = side.enemy().seat() as usize;
                    assert_eq!(
                        fresh.bond_hexes[held_against], want,
                        "{scenario} step {step}: {side:?}'s bonds"
                    );
                    bonds += want.len();
                }
                let moved = prev
                    .key
                    .iter()
                    .zip(&g.s.units)
                    .filter(|&(&k, u)| k != layout_key(u))
                    .count();
                moved_once += usize::from(moved == 1);
                moved_some += usize::from(moved > 1 && moved <= crate::rules::MOVED_AT_MOST);
                let made = Layout::moved_from(&prev, older.take(), &g.w, &g.s);
                assert_eq!(made, fresh, "{scenario} step {step}: {moved} units moved");
                let moved_on = prev.clone().move_on(&g.w, &g.s, None);
                assert_eq!(moved_on, fresh, "{scenario} step {step}: {moved} units moved, in place");
                older = Some(std::mem::replace(&mut prev, made));
                step += 1;
            })
            .expect("random legal play");
        }
        assert!(
            moved_once > 500 && moved_some > 20 && bonds > 10_000,
            "{moved_once} steps with one unit moved, {moved_some} with a few, {bonds} bonds"
        );
    }

    /// The hexes within an artillery unit's range the memo keeps (3.5) are at every decision
    /// of random games those counted afresh, for every gun of both sides on the map, asked
    /// twice (the second time from the memo).
    #[test]
    fn the_kept_hexes_within_a_guns_range_are_the_ones_counted_afresh() {
        use sandtable_core::game::play_randomly_watching;
        let mut compared = 0;
        for (scenario, seed, decisions) in [("campaign", 21, 600), ("goose-egg", 22, 600)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, decisions, |g| {
                for &u in g.w.artillery.iter().flatten() {
                    let (Some(h), Some(range)) =
                        (g.s.units[u as usize].hex(), g.w.data.counters.units[u as usize].range)
                    else {
                        continue;
                    };
                    let fresh: Vec<_> = crate::world::within(&g.w.map.grid, h, range as u32).collect();
                    for _ in 0..2 {
                        assert_eq!(
                            *g.s.memo.within(&g.w, h, range as u32),
                            fresh[..],
                            "{scenario}: unit {u}"
                        );
                    }
                    compared += 1;
                }
            })
            .expect("random play goes on");
        }
        assert!(compared > 10_000, "{compared} guns compared");
    }

    /// The layout the memo gives, built in the memory of the one before, is at every step the
    /// layout built afresh.
    #[test]
    fn a_layout_built_in_the_last_ones_memory_is_the_fresh_one() {
        for (scenario, seed) in [("goose-egg", 1), ("peiper", 2), ("campaign", 3)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            for _ in 0..600 {
                let kept = g.s.memo.layout(&g.w, &g.s);
                assert_eq!(*kept, Layout::build(&g.w, &g.s), "{scenario}");
                drop(kept);
                match g.pending() {
                    Pending::Over => break,
                    Pending::Chance => {
                        g.resolve_chance();
                    }
                    Pending::Seat(seat) => {
                        let l = g.legal_list();
                        let a = l[rng.below(l.len() as u32) as usize].clone();
                        g.apply(seat, &a).expect("a legal action");
                    }
                }
            }
        }
    }
}

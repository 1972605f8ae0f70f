//! Searches over flat arrays with a step function the game supplies: movement (reachable
//! nodes with cost and path, zone-of-control entry and exit costs, prohibited terrain, moves
//! that must stop), retreat and supply traces (blocking rules, length limits), and distance
//! fields (the distance to the nearest friendly supply source, say).
//!
//! One [`Search`] owns its buffers and can be reused for many searches without allocating.
//! It walks either kind of map: `Search` (that is, `Search<Hex>`) a hex grid, `Search<Space>`
//! a point-to-point map; the code is the same, only the node type differs.

use crate::graph::{NodeIndex, Space, Topology};
use crate::hex::Hex;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Why a step was not allowed: a code the game defines (a rule, say), kept by the search so
/// that refusing a move can name what stopped the unit. [`Why::NONE`] gives no reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Why(pub u16);

impl Why {
    pub const NONE: Why = Why(0);
}

/// What the game says about one step from a node into a neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The step is not allowed, for this reason.
    Blocked(Why),
    /// The step costs this much; the search may continue from the neighbour.
    Go(u32),
    /// The step costs this much, and whoever takes it must stop there (the search does not
    /// continue from the neighbour through this step).
    Stop(u32),
}

thread_local! {
    static THREAD_SEARCH: std::cell::RefCell<Search<Hex>> = std::cell::RefCell::new(Search::new());
    static THREAD_SPACE_SEARCH: std::cell::RefCell<Search<Space>> = std::cell::RefCell::new(Search::new());
}

/// Runs `f` with this thread's reusable [`Search`] over hexes, so a game's rules can search
/// without allocating buffers for each question. Not reentrant: `f` must not call it again.
pub fn with_thread_search<R>(f: impl FnOnce(&mut Search<Hex>) -> R) -> R {
    THREAD_SEARCH.with(|s| f(&mut s.borrow_mut()))
}

/// [`with_thread_search`] for point-to-point maps: this thread's reusable search over spaces.
/// Not reentrant either; it may be called inside `with_thread_search` (they share nothing).
pub fn with_thread_space_search<R>(f: impl FnOnce(&mut Search<Space>) -> R) -> R {
    THREAD_SPACE_SEARCH.with(|s| f(&mut s.borrow_mut()))
}

const UNREACHED: u32 = u32::MAX;
const NO_PARENT: u16 = u16::MAX;

/// Reusable buffers for a least-cost search over nodes numbered by `N`: [`Hex`] (the
/// default) or [`Space`]. Node indices are kept in 16 bits.
#[derive(Clone, Debug)]
pub struct Search<N = Hex> {
    cost: Vec<u32>,
    parent: Vec<u16>,
    stopped: Vec<bool>,
    /// Per node: the reason the first step refused into it gave (0: none, or not refused).
    why: Vec<u16>,
    /// Nodes with a reason recorded, to clear them for the next search.
    refused: Vec<N>,
    /// Expanded: its cost is final and its steps out have been priced. No step into it can
    /// change anything, so none is priced.
    done: Vec<bool>,
    touched: Vec<N>,
    queue: Queue,
    /// Breadth-first: sources not yet entered, and the nodes of this level and the next.
    levels: (Vec<(u32, N)>, Vec<N>, Vec<N>),
}

impl<N> Default for Search<N> {
    fn default() -> Search<N> {
        Search {
            cost: Vec::new(),
            parent: Vec::new(),
            stopped: Vec::new(),
            why: Vec::new(),
            refused: Vec::new(),
            done: Vec::new(),
            touched: Vec::new(),
            queue: Queue::default(),
            levels: (Vec::new(), Vec::new(), Vec::new()),
        }
    }
}

/// Costs up to this are queued in one list per cost instead of a heap.
const BUCKETED: u32 = 64;

/// Nodes to expand, least cost first and, at equal cost, lowest node first.
#[derive(Clone, Debug, Default)]
struct Queue {
    /// Under a limit of at most [`BUCKETED`]: the nodes of each cost, those of the cost being
    /// expanded kept sorted, highest node first, once expansion reaches it.
    buckets: Vec<Vec<u16>>,
    /// The cost being expanded, and whether its list is sorted yet.
    level: usize,
    sorted: bool,
    /// Otherwise: each entry is `cost << 16 | node`, so one integer comparison orders them.
    heap: BinaryHeap<Reverse<u64>>,
}

impl Queue {
    fn reset(&mut self, limit: u32, bucketed: bool) {
        self.heap.clear();
        for b in &mut self.buckets {
            b.clear();
        }
        let lists = if bucketed { limit as usize + 1 } else { 0 };
        if self.buckets.len() < lists {
            self.buckets.resize_with(lists, Vec::new);
        }
        self.buckets.truncate(lists);
        self.level = 0;
        self.sorted = false;
    }

    #[inline]
    fn push(&mut self, cost: u32, node: u16) {
        if self.buckets.is_empty() {
            self.heap.push(Reverse((cost as u64) << 16 | node as u64));
            return;
        }
        let c = cost as usize;
        let list = &mut self.buckets[c];
        if c == self.level && self.sorted {
            // A step of cost 0 during this cost's expansion: into its place.
            let at = list.partition_point(|&x| x > node);
            list.insert(at, node);
        } else {
            list.push(node);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<(u32, u16)> {
        if self.buckets.is_empty() {
            return self.heap.pop().map(|Reverse(k)| ((k >> 16) as u32, k as u16));
        }
        while self.level < self.buckets.len() {
            let list = &mut self.buckets[self.level];
            if let Some(node) = {
                if !self.sorted {
                    list.sort_unstable_by(|a, b| b.cmp(a));
                    self.sorted = true;
                }
                list.pop()
            } {
                return Some((self.level as u32, node));
            }
            self.level += 1;
            self.sorted = false;
        }
        None
    }
}

impl<N: NodeIndex> Search<N> {
    pub fn new() -> Search<N> {
        Search::default()
    }

    fn reset(&mut self, n: usize) {
        if self.cost.len() != n {
            self.cost = vec![UNREACHED; n];
            self.parent = vec![NO_PARENT; n];
            self.stopped = vec![false; n];
            self.done = vec![false; n];
            self.why = vec![0; n];
            self.touched.clear();
            self.refused.clear();
        } else {
            for h in self.touched.drain(..) {
                self.cost[h.idx()] = UNREACHED;
                self.parent[h.idx()] = NO_PARENT;
                self.stopped[h.idx()] = false;
                self.done[h.idx()] = false;
            }
            for h in self.refused.drain(..) {
                self.why[h.idx()] = 0;
            }
        }
    }

    /// Least-cost search from `sources` (each with a starting cost) over `topo`, never going
    /// above `limit`. `step(from, exit, to)` prices each step; `exit` is the direction on a
    /// hex grid and the connection index on a point-to-point map. It is not asked about steps
    /// into nodes already expanded, which could change nothing. Ties between equal-cost paths
    /// go to the one found first, which is deterministic for a given map.
    pub fn run<T: Topology<Node = N>>(
        &mut self,
        topo: &T,
        sources: &[(N, u32)],
        limit: u32,
        step: impl FnMut(N, T::Exit, N) -> Step,
    ) {
        self.run_queued(topo, sources, limit, step, limit <= BUCKETED);
    }

    /// [`Search::run`], with one list per cost or a heap for the queue.
    fn run_queued<T: Topology<Node = N>>(
        &mut self,
        topo: &T,
        sources: &[(N, u32)],
        limit: u32,
        mut step: impl FnMut(N, T::Exit, N) -> Step,
        bucketed: bool,
    ) {
        self.reset(topo.node_count());
        self.queue.reset(limit, bucketed);
        for &(h, c) in sources {
            if c <= limit && c < self.cost[h.idx()] {
                if self.cost[h.idx()] == UNREACHED {
                    self.touched.push(h);
                }
                self.cost[h.idx()] = c;
                self.queue.push(c, h.idx() as u16);
            }
        }
        while let Some((c, node)) = self.queue.pop() {
            let from = N::from_idx(node as usize);
            if c != self.cost[from.idx()] || self.stopped[from.idx()] || self.done[from.idx()] {
                continue;
            }
            self.done[from.idx()] = true;
            let cost = &mut self.cost;
            let parent = &mut self.parent;
            let stopped = &mut self.stopped;
            let done = &self.done;
            let touched = &mut self.touched;
            let queue = &mut self.queue;
            let (why, refused) = (&mut self.why, &mut self.refused);
            topo.for_each_neighbour(from, |exit, to| {
                if done[to.idx()] {
                    return;
                }
                let (price, stop) = match step(from, exit, to) {
                    Step::Blocked(w) => {
                        if why[to.idx()] == 0 && w != Why::NONE {
                            why[to.idx()] = w.0;
                            refused.push(to);
                        }
                        return;
                    }
                    Step::Go(p) => (p, false),
                    Step::Stop(p) => (p, true),
                };
                let total = c.saturating_add(price);
                if total > limit {
                    return;
                }
                let old = cost[to.idx()];
                // A cheaper arrival wins; at equal cost, an arrival that may continue beats
                // one that must stop.
                if total < old || (total == old && stopped[to.idx()] && !stop) {
                    if old == UNREACHED {
                        touched.push(to);
                    }
                    cost[to.idx()] = total;
                    parent[to.idx()] = from.idx() as u16;
                    stopped[to.idx()] = stop;
                    if !stop {
                        queue.push(total, to.idx() as u16);
                    }
                }
            });
        }
    }

    /// The search [`Search::run`] makes, for steps that all cost 0 or 1, made breadth first
    /// (a level of equal cost at a time, with no queue ordered by cost): every node gets the
    /// cost and the must-stop mark `run` gives it, so the same nodes are reached, but
    /// [`Search::reached`] lists them in another order and [`Search::path`] may follow another
    /// path of the same cost. Several times faster on whole-map traces (lines of supply,
    /// distance fields). Panics on a step that costs more than 1.
    pub fn run_breadth_first<T: Topology<Node = N>>(
        &mut self,
        topo: &T,
        sources: &[(N, u32)],
        limit: u32,
        mut step: impl FnMut(N, T::Exit, N) -> Step,
    ) {
        self.reset(topo.node_count());
        let (mut pending, mut current, mut next) = std::mem::take(&mut self.levels);
        pending.clear();
        current.clear();
        next.clear();
        for &(h, c) in sources {
            if c <= limit && c < self.cost[h.idx()] {
                if self.cost[h.idx()] == UNREACHED {
                    self.touched.push(h);
                }
                self.cost[h.idx()] = c;
                pending.push((c, h));
            }
        }
        // Sources enter at their own level, lowest first.
        pending.sort_by_key(|&(c, _)| std::cmp::Reverse(c));
        let mut level = pending.last().map_or(0, |&(c, _)| c);
        loop {
            while pending.last().is_some_and(|&(c, _)| c == level) {
                current.extend(pending.pop().map(|(_, h)| h));
            }
            while let Some(from) = current.pop() {
                // Left behind by a cheaper arrival, reached only by steps that stop there, or
                // expanded already.
                if self.cost[from.idx()] != level || self.stopped[from.idx()] || self.done[from.idx()] {
                    continue;
                }
                self.done[from.idx()] = true;
                let c = level;
                let cost = &mut self.cost;
                let parent = &mut self.parent;
                let stopped = &mut self.stopped;
                let done = &self.done;
                let touched = &mut self.touched;
                let (why, refused) = (&mut self.why, &mut self.refused);
                let (current, next) = (&mut current, &mut next);
                topo.for_each_neighbour(from, |exit, to| {
                    if done[to.idx()] {
                        return;
                    }
                    let (price, stop) = match step(from, exit, to) {
                        Step::Blocked(w) => {
                            if why[to.idx()] == 0 && w != Why::NONE {
                                why[to.idx()] = w.0;
                                refused.push(to);
                            }
                            return;
                        }
                        Step::Go(p) => (p, false),
                        Step::Stop(p) => (p, true),
                    };
                    assert!(price <= 1, "a breadth-first search has steps of cost 0 or 1");
                    let total = c.saturating_add(price);
                    if total > limit {
                        return;
                    }
                    let old = cost[to.idx()];
                    // As in `run`: a cheaper arrival wins; at equal cost, an arrival that may
                    // continue beats one that must stop.
                    if total < old || (total == old && stopped[to.idx()] && !stop) {
                        if old == UNREACHED {
                            touched.push(to);
                        }
                        cost[to.idx()] = total;
                        parent[to.idx()] = from.idx() as u16;
                        stopped[to.idx()] = stop;
                        if !stop {
                            if price == 0 {
                                current.push(to);
                            } else {
                                next.push(to);
                            }
                        }
                    }
                });
            }
            if next.is_empty() && pending.is_empty() {
                break;
            }
            level += 1;
            std::mem::swap(&mut current, &mut next);
        }
        self.levels = (pending, current, next);
    }

    /// The cost of reaching `h` in the last search, if it was reached.
    #[inline]
    pub fn cost(&self, h: N) -> Option<u32> {
        self.cost.get(h.idx()).copied().filter(|&c| c != UNREACHED)
    }

    /// Whether the last search's path to `h` had to stop there.
    pub fn stopped_at(&self, h: N) -> bool {
        self.stopped.get(h.idx()).copied().unwrap_or(false)
    }

    /// Every node reached in the last search (sources included), in the order first reached.
    pub fn reached(&self) -> impl Iterator<Item = N> + '_ {
        self.touched.iter().copied().filter(|h| self.cost[h.idx()] != UNREACHED)
    }

    /// Why the last search did not reach `h`, if a step into it was refused with a reason (the
    /// first such step's). `None` for a node reached, or never tried with a reason: out of
    /// range, say.
    pub fn why(&self, h: N) -> Option<Why> {
        if self.cost(h).is_some() {
            return None;
        }
        self.why.get(h.idx()).copied().filter(|&w| w != 0).map(Why)
    }

    /// The node the last search's path to `h` came from (`None` for a source or a node not
    /// reached).
    pub fn parent(&self, h: N) -> Option<N> {
        self.parent
            .get(h.idx())
            .copied()
            .filter(|&p| p != NO_PARENT)
            .map(|p| N::from_idx(p as usize))
    }

    /// The path from a source to `h` (both ends included), if `h` was reached.
    pub fn path(&self, h: N) -> Option<Vec<N>> {
        self.cost(h)?;
        let mut path = vec![h];
        let mut at = h;
        while self.parent[at.idx()] != NO_PARENT {
            at = N::from_idx(self.parent[at.idx()] as usize);
            path.push(at);
            if path.len() > self.cost.len() {
                break;
            }
        }
        path.reverse();
        Some(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{GridSpec, HexGrid, IdFormat, Orientation, RowDirection, Shifted};

    fn grid() -> HexGrid {
        HexGrid::new(GridSpec {
            id_format: IdFormat::Xxyy { digits: 2 },
            orientation: Orientation::Flat,
            shifted: Shifted::Even,
            row_direction: RowDirection::Down,
            cols: [1, 10],
            rows: [1, 10],
        })
        .unwrap()
    }

    #[test]
    fn unit_costs_give_hex_distance() {
        let g = grid();
        let start = g.parse("0505").unwrap();
        let mut s = Search::new();
        s.run(&g, &[(start, 0)], 3, |_, _, _| Step::Go(1));
        for h in g.hexes() {
            let d = g.distance(start, h);
            assert_eq!(s.cost(h), (d <= 3).then_some(d), "{}", g.id(h));
        }
        let far = g.parse("0703").unwrap();
        assert!(g.distance(start, far) <= 3);
        let path = s.path(far).unwrap();
        assert_eq!(path.len() as u32, g.distance(start, far) + 1);
        assert!(path.windows(2).all(|w| g.adjacent(w[0], w[1])));
    }

    /// A refused step's reason is kept for the node it did not reach, and only for such nodes.
    #[test]
    fn a_refused_step_keeps_its_reason() {
        let g = grid();
        let start = g.parse("0505").unwrap();
        let wall = g.parse("0605").unwrap();
        let mut s = Search::new();
        for breadth_first in [false, true] {
            let step = |_: Hex, _: u8, to: Hex| if to == wall { Step::Blocked(Why(7)) } else { Step::Go(1) };
            if breadth_first {
                s.run_breadth_first(&g, &[(start, 0)], 1, step);
            } else {
                s.run(&g, &[(start, 0)], 1, step);
            }
            assert_eq!(s.why(wall), Some(Why(7)));
            assert_eq!(s.why(start), None, "reached");
            assert_eq!(s.why(g.parse("0905").unwrap()), None, "never tried");
            // The next search starts clean.
            s.run(&g, &[(start, 0)], 1, |_, _, _| Step::Go(1));
            assert_eq!(s.why(wall), None);
        }
    }

    /// `run_breadth_first` gives every node the cost and must-stop mark `run` gives it, on
    /// random step rules with costs 0 and 1, stops, walls and limits.
    #[test]
    fn breadth_first_agrees_with_run() {
        let g = grid();
        let mut rng = crate::chance::Rng::from_seed(5);
        let (mut a, mut b) = (Search::new(), Search::new());
        for _ in 0..1000 {
            let n = g.len();
            let rules: Vec<u32> = (0..n * 6).map(|_| rng.below(7)).collect();
            let step = |from: Hex, dir: u8, _to: Hex| match rules[from.idx() * 6 + dir as usize] {
                0 => Step::Blocked(Why::NONE),
                1 => Step::Stop(0),
                2 => Step::Stop(1),
                3 => Step::Go(0),
                _ => Step::Go(1),
            };
            let sources: Vec<(Hex, u32)> = (0..1 + rng.below(3))
                .map(|_| (Hex(rng.below(n as u32) as u16), rng.below(3)))
                .collect();
            let limit = [0, 1, 3, 6, u32::MAX][rng.below(5) as usize];
            a.run(&g, &sources, limit, step);
            b.run_breadth_first(&g, &sources, limit, step);
            for h in g.hexes() {
                assert_eq!(a.cost(h), b.cost(h), "{sources:?} {limit}");
                assert_eq!(a.stopped_at(h), b.stopped_at(h), "{sources:?} {limit}");
            }
            let mut ra: Vec<Hex> = a.reached().collect();
            let mut rb: Vec<Hex> = b.reached().collect();
            ra.sort();
            rb.sort();
            assert_eq!(ra, rb);
        }
    }

    /// The search as first written: a heap of (cost, node), every step priced. Returns, per
    /// node, cost, must-stop mark and parent, and the nodes in the order first reached.
    #[allow(clippy::type_complexity)]
    fn reference(
        g: &HexGrid,
        sources: &[(Hex, u32)],
        limit: u32,
        mut step: impl FnMut(Hex, u8, Hex) -> Step,
    ) -> (Vec<(u32, bool, u16)>, Vec<Hex>) {
        let n = g.len();
        let (mut cost, mut stopped, mut parent) = (vec![UNREACHED; n], vec![false; n], vec![NO_PARENT; n]);
        let mut touched = Vec::new();
        let mut heap = BinaryHeap::new();
        for &(h, c) in sources {
            if c <= limit && c < cost[h.idx()] {
                if cost[h.idx()] == UNREACHED {
                    touched.push(h);
                }
                cost[h.idx()] = c;
                heap.push(Reverse((c, h.0)));
            }
        }
        while let Some(Reverse((c, node))) = heap.pop() {
            let from = Hex(node);
            if c != cost[from.idx()] || stopped[from.idx()] {
                continue;
            }
            g.for_each_neighbour(from, |exit, to| {
                let (price, stop) = match step(from, exit, to) {
                    Step::Blocked(_) => return,
                    Step::Go(p) => (p, false),
                    Step::Stop(p) => (p, true),
                };
                let total = c.saturating_add(price);
                if total > limit {
                    return;
                }
                let old = cost[to.idx()];
                if total < old || (total == old && stopped[to.idx()] && !stop) {
                    if old == UNREACHED {
                        touched.push(to);
                    }
                    cost[to.idx()] = total;
                    parent[to.idx()] = from.0;
                    stopped[to.idx()] = stop;
                    if !stop {
                        heap.push(Reverse((total, to.0)));
                    }
                }
            });
        }
        let nodes = (0..n).map(|i| (cost[i], stopped[i], parent[i])).collect();
        (nodes, touched)
    }

    /// `run`, with either queue, makes exactly the search first written (same costs, marks,
    /// parents and order); `run_breadth_first` gives the same costs and marks.
    #[test]
    fn searches_agree_with_the_reference() {
        let g = grid();
        let mut rng = crate::chance::Rng::from_seed(7);
        let mut s = Search::new();
        for _ in 0..1000 {
            let n = g.len();
            let rules: Vec<u32> = (0..n * 6).map(|_| rng.below(9)).collect();
            let unit = rng.below(2) == 0;
            let step = |from: Hex, dir: u8, _to: Hex| match rules[from.idx() * 6 + dir as usize] {
                0 => Step::Blocked(Why::NONE),
                1 => Step::Stop(0),
                2 => Step::Stop(1),
                3 => Step::Go(0),
                k if unit => Step::Go(1.min(k - 3)),
                k => Step::Go(k - 3),
            };
            let sources: Vec<(Hex, u32)> = (0..1 + rng.below(3))
                .map(|_| (Hex(rng.below(n as u32) as u16), rng.below(3)))
                .collect();
            let limit = [0, 1, 3, 6, 12, 30, BUCKETED, u32::MAX][rng.below(8) as usize];
            let (want, order) = reference(&g, &sources, limit, step);
            let got = |s: &Search| -> Vec<(u32, bool, u16)> {
                (0..n).map(|i| (s.cost[i], s.stopped[i], s.parent[i])).collect()
            };
            for bucketed in [false, true] {
                if bucketed && limit > BUCKETED {
                    continue;
                }
                s.run_queued(&g, &sources, limit, step, bucketed);
                assert_eq!(got(&s), want);
                assert_eq!(s.reached().collect::<Vec<_>>(), order);
            }
            if unit {
                s.run_breadth_first(&g, &sources, limit, step);
                let marks =
                    |v: Vec<(u32, bool, u16)>| -> Vec<(u32, bool)> { v.into_iter().map(|(c, m, _)| (c, m)).collect() };
                assert_eq!(marks(got(&s)), marks(want.clone()));
            }
        }
    }

    /// With one list per cost, the search expands nodes in the order the heap gives: the same
    /// nodes reached in the same order, by the same paths.
    #[test]
    fn cost_lists_agree_with_the_heap() {
        let g = grid();
        let mut rng = crate::chance::Rng::from_seed(6);
        let (mut a, mut b) = (Search::new(), Search::new());
        for _ in 0..1000 {
            let n = g.len();
            let rules: Vec<u32> = (0..n * 6).map(|_| rng.below(9)).collect();
            let step = |from: Hex, dir: u8, _to: Hex| match rules[from.idx() * 6 + dir as usize] {
                0 => Step::Blocked(Why::NONE),
                1 => Step::Stop(0),
                2 => Step::Stop(2),
                3 => Step::Go(0),
                k => Step::Go(k - 3),
            };
            let sources: Vec<(Hex, u32)> = (0..1 + rng.below(3))
                .map(|_| (Hex(rng.below(n as u32) as u16), rng.below(3)))
                .collect();
            let limit = [0, 1, 3, 6, 12, 30, BUCKETED][rng.below(7) as usize];
            a.run_queued(&g, &sources, limit, step, false);
            b.run_queued(&g, &sources, limit, step, true);
            assert_eq!(a.reached().collect::<Vec<_>>(), b.reached().collect::<Vec<_>>());
            for h in g.hexes() {
                assert_eq!(a.cost(h), b.cost(h));
                assert_eq!(a.stopped_at(h), b.stopped_at(h));
                assert_eq!(a.parent(h), b.parent(h));
            }
        }
    }

    #[test]
    fn blocked_and_stopping_steps() {
        let g = grid();
        let start = g.parse("0505").unwrap();
        let wall = g.parse("0605").unwrap();
        let trap = g.parse("0405").unwrap();
        let mut s = Search::new();
        s.run(&g, &[(start, 0)], 10, |_, _, to| {
            if to == wall {
                Step::Blocked(Why::NONE)
            } else if to == trap {
                Step::Stop(1)
            } else {
                Step::Go(1)
            }
        });
        assert_eq!(s.cost(wall), None);
        assert_eq!(s.cost(trap), Some(1));
        assert!(s.stopped_at(trap));
        // The search reuses its buffers: a second run forgets the first.
        s.run(&g, &[(start, 0)], 0, |_, _, _| Step::Go(1));
        assert_eq!(s.reached().count(), 1);
        assert_eq!(s.cost(trap), None);
    }
}

#[cfg(test)]
mod point_map_tests {
    use super::*;
    use crate::graph::{Connection, PointMap, SpaceInfo};

    /// A ring of 300 spaces: connection `i` joins space `i` and space `i + 1`, and connection
    /// 299 joins the last space back to the first.
    fn ring() -> PointMap {
        let spaces = (0..300)
            .map(|i| SpaceInfo {
                id: format!("s{i}"),
                name_en: format!("Space {i}"),
                name_zh: format!("地区{i}"),
                terrain: 0,
                x: f64::from(i),
                y: 0.0,
            })
            .collect();
        let connections = (0..300)
            .map(|i| Connection {
                a: Space(i),
                b: Space((i + 1) % 300),
                features: 0,
            })
            .collect();
        PointMap::new(spaces, connections).unwrap()
    }

    /// The step function is told the connection it prices by its own index, past 255 too.
    #[test]
    fn point_map_steps_name_their_connection() {
        let map = ring();
        let mut s: Search<Space> = Search::new();
        // Connection 299 closed: the last space is 299 steps away, round the ring.
        s.run(&map, &[(Space(0), 0)], u32::MAX, |_, c, _| {
            if c == 299 {
                Step::Blocked(Why::NONE)
            } else {
                Step::Go(1)
            }
        });
        assert_eq!(s.cost(Space(299)), Some(299));
        assert_eq!(s.path(Space(299)).unwrap().len(), 300);
        // Connection 256 closed (a u8 would have mixed it up with every connection from 255
        // on): spaces past it are reached the other way round.
        s.run_breadth_first(&map, &[(Space(0), 0)], u32::MAX, |_, c, _| {
            if c == 256 {
                Step::Blocked(Why::NONE)
            } else {
                Step::Go(1)
            }
        });
        assert_eq!(s.cost(Space(256)), Some(256));
        assert_eq!(s.cost(Space(257)), Some(43));
        assert_eq!(s.parent(Space(257)), Some(Space(258)));
        assert_eq!(s.reached().count(), 300);
        // The thread's search over spaces gives the same answer.
        let cost = with_thread_space_search(|t| {
            t.run(&map, &[(Space(0), 0)], u32::MAX, |_, c, _| {
                if c == 256 {
                    Step::Blocked(Why::NONE)
                } else {
                    Step::Go(1)
                }
            });
            t.cost(Space(257))
        });
        assert_eq!(cost, Some(43));
    }
}

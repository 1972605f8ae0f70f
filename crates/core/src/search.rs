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
///
/// A node can be reached two ways: by steps that may go on from it ([`Step::Go`]) and by a
/// step that must stop there ([`Step::Stop`]). The search keeps the cheapest arrival of each
/// kind apart, so that a cheaper arrival that must stop never hides a costlier one that may go
/// on: a line of supply that enters a mountain hex off the road must end there, and one that
/// comes up the road a hex later still goes on over the pass.
#[derive(Clone, Debug)]
pub struct Search<N = Hex> {
    /// Per node: its arrivals and whether it is expanded, together in one place so that a
    /// step reads one entry.
    nodes: Vec<Node>,
    /// Per node: the reason the first step refused into it gave (0: none, or not refused).
    why: Vec<u16>,
    /// Nodes with a reason recorded, to clear them for the next search.
    refused: Vec<N>,
    touched: Vec<N>,
    queue: Queue,
    /// Breadth-first: sources not yet entered, and the nodes of this level and the next.
    levels: (Vec<(u32, N)>, Vec<N>, Vec<N>),
}

impl<N> Default for Search<N> {
    fn default() -> Search<N> {
        Search {
            nodes: Vec::new(),
            why: Vec::new(),
            refused: Vec::new(),
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
    /// expanded kept sorted, highest node first, once expansion reaches it. The first `lists`
    /// are this search's; the lists are kept, emptied, from one search to the next, so that a
    /// search allocates nothing once the lists have grown.
    buckets: Vec<Vec<u16>>,
    lists: usize,
    /// The cost being expanded, and whether its list is sorted yet.
    level: usize,
    sorted: bool,
    /// Otherwise: each entry is `cost << 16 | node`, so one integer comparison orders them.
    heap: BinaryHeap<Reverse<u64>>,
}

impl Queue {
    fn reset(&mut self, limit: u32, bucketed: bool) {
        self.heap.clear();
        for b in &mut self.buckets[..self.lists] {
            b.clear();
        }
        self.lists = if bucketed { limit as usize + 1 } else { 0 };
        if self.buckets.len() < self.lists {
            self.buckets.resize_with(self.lists, Vec::new);
        }
        self.level = 0;
        self.sorted = false;
    }

    #[inline(always)]
    fn push(&mut self, cost: u32, node: u16) {
        if self.lists == 0 {
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
        if self.lists == 0 {
            return self.heap.pop().map(|Reverse(k)| ((k >> 16) as u32, k as u16));
        }
        while self.level < self.lists {
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

/// What a search knows of one node.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The cost of the cheapest arrival that may go on, and where it came from.
    cost: u32,
    /// The cost of the cheapest arrival that must stop, kept only while it is cheaper than
    /// `cost`, and where it came from.
    stop_cost: u32,
    parent: u16,
    stop_parent: u16,
    /// Expanded: its cost is final and its steps out have been priced. No step into it can
    /// change anything, so none is priced.
    done: bool,
}

/// A node no search has reached.
const FRESH: Node = Node {
    cost: UNREACHED,
    stop_cost: UNREACHED,
    parent: NO_PARENT,
    stop_parent: NO_PARENT,
    done: false,
};

impl Node {
    /// An arrival at this node (`to`) from the node numbered `from`, costing `total` in all,
    /// which must stop there if `stop`. An arrival that may go on is kept if it is the cheapest
    /// of its kind, and then the node is to be expanded at that cost (the answer is true). One
    /// that must stop is kept if it is cheaper than every arrival of either kind: an arrival
    /// that may go on at the same cost or less does all it does. Neither kind hides the other.
    #[inline(always)]
    fn arrive<N>(&mut self, to: N, touched: &mut Vec<N>, from: u16, total: u32, stop: bool) -> bool {
        let (go, halt) = (self.cost, self.stop_cost);
        if stop {
            if total < go && total < halt {
                if go == UNREACHED && halt == UNREACHED {
                    touched.push(to);
                }
                self.stop_cost = total;
                self.stop_parent = from;
            }
            false
        } else if total < go {
            if go == UNREACHED && halt == UNREACHED {
                touched.push(to);
            }
            self.cost = total;
            self.parent = from;
            true
        } else {
            false
        }
    }
}

impl<N: NodeIndex> Search<N> {
    pub fn new() -> Search<N> {
        Search::default()
    }

    fn reset(&mut self, n: usize) {
        if self.nodes.len() != n {
            self.nodes = vec![FRESH; n];
            self.why = vec![0; n];
            self.touched.clear();
            self.refused.clear();
        } else {
            for h in self.touched.drain(..) {
                self.nodes[h.idx()] = FRESH;
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
            if c <= limit && c < self.nodes[h.idx()].cost {
                if self.nodes[h.idx()].cost == UNREACHED {
                    self.touched.push(h);
                }
                self.nodes[h.idx()].cost = c;
                self.queue.push(c, h.idx() as u16);
            }
        }
        while let Some((c, node)) = self.queue.pop() {
            let from = N::from_idx(node as usize);
            // Only arrivals that may go on are queued: expand the cheapest, once.
            let expanded = &mut self.nodes[from.idx()];
            if c != expanded.cost || expanded.done {
                continue;
            }
            expanded.done = true;
            let (nodes, touched) = (&mut self.nodes, &mut self.touched);
            let queue = &mut self.queue;
            let (why, refused) = (&mut self.why, &mut self.refused);
            topo.for_each_neighbour(from, |exit, to| {
                let node = &mut nodes[to.idx()];
                if node.done {
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
                if node.arrive(to, touched, from.idx() as u16, total, stop) {
                    queue.push(total, to.idx() as u16);
                }
            });
        }
    }

    /// The search [`Search::run`] makes, for steps that all cost 0 or 1, made breadth first
    /// (a level of equal cost at a time, with no queue ordered by cost): every node gets the
    /// cost, the must-stop mark and the cost of going on `run` gives it, so the same nodes are
    /// reached, but [`Search::reached`] lists them in another order and [`Search::path`] may
    /// follow another path of the same cost. Several times faster on whole-map traces (lines of supply,
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
            if c <= limit && c < self.nodes[h.idx()].cost {
                if self.nodes[h.idx()].cost == UNREACHED {
                    self.touched.push(h);
                }
                self.nodes[h.idx()].cost = c;
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
                // Left behind by a cheaper arrival, or expanded already (only arrivals that may
                // go on are listed).
                let expanded = &mut self.nodes[from.idx()];
                if expanded.cost != level || expanded.done {
                    continue;
                }
                expanded.done = true;
                let c = level;
                let (nodes, touched) = (&mut self.nodes, &mut self.touched);
                let (why, refused) = (&mut self.why, &mut self.refused);
                let (current, next) = (&mut current, &mut next);
                topo.for_each_neighbour(from, |exit, to| {
                    let node = &mut nodes[to.idx()];
                    if node.done {
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
                    // As in `run`.
                    if node.arrive(to, touched, from.idx() as u16, total, stop) {
                        if price == 0 {
                            current.push(to);
                        } else {
                            next.push(to);
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

    /// The cost of reaching `h` in the last search, if it was reached: its cheapest arrival,
    /// whether that may go on or must stop there.
    #[inline]
    pub fn cost(&self, h: N) -> Option<u32> {
        let n = self.nodes.get(h.idx())?;
        let c = n.cost.min(n.stop_cost);
        (c != UNREACHED).then_some(c)
    }

    /// Whether the cheapest arrival at `h` in the last search had to stop there (an arrival
    /// that may go on, if there is one, costs more: [`Search::cost_to_go_on`]).
    pub fn stopped_at(&self, h: N) -> bool {
        self.nodes.get(h.idx()).is_some_and(|n| n.stop_cost < n.cost)
    }

    /// The cost of the cheapest arrival at `h` in the last search that may go on from it (a
    /// source, or reached by [`Step::Go`] steps only), if there is one.
    #[inline]
    pub fn cost_to_go_on(&self, h: N) -> Option<u32> {
        self.nodes.get(h.idx()).map(|n| n.cost).filter(|&c| c != UNREACHED)
    }

    /// Every node reached in the last search (sources included), in the order first reached.
    pub fn reached(&self) -> impl Iterator<Item = N> + '_ {
        self.touched.iter().copied().filter(|&h| self.cost(h).is_some())
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
    /// reached): the path of its cheapest arrival.
    pub fn parent(&self, h: N) -> Option<N> {
        let n = self.nodes.get(h.idx())?;
        let p = if n.stop_cost < n.cost { n.stop_parent } else { n.parent };
        (p != NO_PARENT).then(|| N::from_idx(p as usize))
    }

    /// The node the last search's cheapest arrival at `h` that may go on from it came from
    /// (`None` for a source, or a node only reached by steps that must stop there): the next
    /// node back on every path through `h` ([`Search::path`] follows these past its last node).
    pub fn parent_to_go_on(&self, h: N) -> Option<N> {
        let p = self.nodes.get(h.idx())?.parent;
        (p != NO_PARENT).then(|| N::from_idx(p as usize))
    }

    /// The path from a source to `h` (both ends included), if `h` was reached: the path of its
    /// cheapest arrival.
    pub fn path(&self, h: N) -> Option<Vec<N>> {
        self.cost(h)?;
        let n = &self.nodes[h.idx()];
        let first = if n.stop_cost < n.cost { n.stop_parent } else { n.parent };
        Some(self.path_back(h, first))
    }

    /// The path from a source to `h` (both ends included) of the cheapest arrival at `h` that
    /// may go on from it, if there is one.
    pub fn path_to_go_on(&self, h: N) -> Option<Vec<N>> {
        self.cost_to_go_on(h)?;
        Some(self.path_back(h, self.nodes[h.idx()].parent))
    }

    /// `h`, then `first`, then the nodes the arrivals that may go on came from, back to a
    /// source, in the order from the source.
    fn path_back(&self, h: N, first: u16) -> Vec<N> {
        let mut path = vec![h];
        let mut p = first;
        while p != NO_PARENT {
            path.push(N::from_idx(p as usize));
            if path.len() > self.nodes.len() {
                break;
            }
            p = self.nodes[p as usize].parent;
        }
        path.reverse();
        path
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

    /// What a search says of one node through its public questions: the least cost, the
    /// must-stop mark, the cost of going on from it, the node its path came from.
    type Answer = (Option<u32>, bool, Option<u32>, Option<Hex>);

    /// [`Answer`] for every node of the grid.
    fn answers(s: &Search, g: &HexGrid) -> Vec<Answer> {
        g.hexes()
            .map(|h| (s.cost(h), s.stopped_at(h), s.cost_to_go_on(h), s.parent(h)))
            .collect()
    }

    /// The answer written apart from the search, to check it against: every node has two
    /// states, arrived by steps that may go on and arrived by a step that must stop, and only
    /// the first has steps out. Relaxing every step out of every state until nothing changes
    /// (no queue, no order) gives each state its least cost. Returns, per node, the least cost
    /// of going on and of stopping there.
    fn oracle(
        g: &HexGrid,
        sources: &[(Hex, u32)],
        limit: u32,
        step: impl Fn(Hex, u8, Hex) -> Step,
    ) -> Vec<(Option<u32>, Option<u32>)> {
        let n = g.len();
        let (mut go, mut halt) = (vec![None::<u32>; n], vec![None::<u32>; n]);
        let better = |old: Option<u32>, new: u32| new <= limit && old.is_none_or(|o| new < o);
        for &(h, c) in sources {
            if better(go[h.idx()], c) {
                go[h.idx()] = Some(c);
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for from in g.hexes() {
                let Some(c) = go[from.idx()] else { continue };
                for (dir, to) in g.neighbours(from) {
                    let (state, price) = match step(from, dir, to) {
                        Step::Blocked(_) => continue,
                        Step::Go(p) => (&mut go, p),
                        Step::Stop(p) => (&mut halt, p),
                    };
                    let total = c.saturating_add(price);
                    if better(state[to.idx()], total) {
                        state[to.idx()] = Some(total);
                        changed = true;
                    }
                }
            }
        }
        go.into_iter().zip(halt).collect()
    }

    /// Random step rules over the test grid: each step out of each node Blocked, Stop or Go at
    /// some cost (`max` the most a step costs).
    fn random_rules(rng: &mut crate::chance::Rng, n: usize, max: u32) -> Vec<Step> {
        (0..n * 6)
            .map(|_| match rng.below(7) {
                0 => Step::Blocked(Why::NONE),
                1 => Step::Stop(0),
                2 => Step::Stop(rng.below(max + 1)),
                3 => Step::Go(0),
                _ => Step::Go(rng.below(max + 1)),
            })
            .collect()
    }

    /// Every search agrees with the oracle: the least cost of each node, whether that cheapest
    /// arrival must stop, and the least cost of an arrival that may go on, on random step
    /// rules with costs 0 to 3 (0 and 1 breadth first), stops, walls and limits.
    #[test]
    fn searches_agree_with_the_oracle() {
        let g = grid();
        let mut rng = crate::chance::Rng::from_seed(11);
        let mut s = Search::new();
        // Nodes whose cheapest arrival must stop while a costlier one may go on: the case a
        // search keeping one arrival per node gets wrong. The rules must make plenty of them.
        let mut hidden = 0;
        for round in 0..1000 {
            let n = g.len();
            let max = if round % 2 == 0 { 1 } else { 3 };
            let rules = random_rules(&mut rng, n, max);
            let step = |from: Hex, dir: u8, _to: Hex| rules[from.idx() * 6 + dir as usize];
            let sources: Vec<(Hex, u32)> = (0..1 + rng.below(3))
                .map(|_| (Hex(rng.below(n as u32) as u16), rng.below(3)))
                .collect();
            let limit = [0, 1, 3, 6, 12, BUCKETED, u32::MAX][rng.below(7) as usize];
            let want = oracle(&g, &sources, limit, step);
            hidden += want
                .iter()
                .filter(|&&(go, halt)| matches!((go, halt), (Some(a), Some(b)) if b < a))
                .count();
            let check = |s: &Search, how: &str| {
                for h in g.hexes() {
                    let (go, halt) = want[h.idx()];
                    let least = match (go, halt) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                    let stops =
                        matches!((go, halt), (None, Some(_))) || matches!((go, halt), (Some(a), Some(b)) if b < a);
                    assert_eq!(s.cost(h), least, "{how} {}: {sources:?} {limit}", g.id(h));
                    assert_eq!(s.stopped_at(h), stops, "{how} {}: {sources:?} {limit}", g.id(h));
                    assert_eq!(s.cost_to_go_on(h), go, "{how} {}: {sources:?} {limit}", g.id(h));
                    // A path ends where it should and costs what the search says it does.
                    if let Some(p) = s.path(h) {
                        assert_eq!(p.last(), Some(&h));
                        assert!(sources.iter().any(|&(src, _)| src == p[0]));
                        assert!(p.windows(2).all(|w| g.adjacent(w[0], w[1])));
                    }
                }
            };
            for bucketed in [false, true] {
                if bucketed && limit > BUCKETED {
                    continue;
                }
                s.run_queued(&g, &sources, limit, step, bucketed);
                check(&s, if bucketed { "lists" } else { "heap" });
            }
            if max == 1 {
                s.run_breadth_first(&g, &sources, limit, step);
                check(&s, "breadth first");
            }
        }
        assert!(hidden > 1000, "{hidden}");
    }

    /// A cheaper arrival that must stop does not hide a costlier one that may go on: 0504 is
    /// one step from the start but must stop there (a mountain hex entered off the road); by
    /// 0604 it is two steps and may go on (up the road), to 0503 beyond it. Traced by hand.
    #[test]
    fn a_cheaper_stop_does_not_hide_a_costlier_way_on() {
        let g = grid();
        let h = |id: &str| g.parse(id).unwrap();
        let (start, pass, road, beyond) = (h("0505"), h("0504"), h("0604"), h("0503"));
        let step = |from: Hex, _: u8, to: Hex| {
            if from == start && to == pass {
                Step::Stop(1)
            } else if (from == start && to == road) || (from == road && to == pass) || (from == pass && to == beyond) {
                Step::Go(1)
            } else {
                Step::Blocked(Why::NONE)
            }
        };
        let mut s = Search::new();
        for breadth_first in [false, true] {
            if breadth_first {
                s.run_breadth_first(&g, &[(start, 0)], 10, step);
            } else {
                s.run(&g, &[(start, 0)], 10, step);
            }
            assert_eq!(s.cost(pass), Some(1));
            assert!(s.stopped_at(pass));
            assert_eq!(s.path(pass), Some(vec![start, pass]));
            assert_eq!(s.cost_to_go_on(pass), Some(2));
            assert_eq!(s.path_to_go_on(pass), Some(vec![start, road, pass]));
            assert_eq!(s.cost(beyond), Some(3));
            assert!(!s.stopped_at(beyond));
            assert_eq!(s.path(beyond), Some(vec![start, road, pass, beyond]));
            assert_eq!(s.reached().count(), 4);
        }
    }

    /// `run_breadth_first` gives every node the cost, the must-stop mark and the cost of going
    /// on `run` gives it, on random step rules with costs 0 and 1, stops, walls and limits.
    #[test]
    fn breadth_first_agrees_with_run() {
        let g = grid();
        let mut rng = crate::chance::Rng::from_seed(5);
        let (mut a, mut b) = (Search::new(), Search::new());
        for _ in 0..1000 {
            let n = g.len();
            let rules = random_rules(&mut rng, n, 1);
            let step = |from: Hex, dir: u8, _to: Hex| rules[from.idx() * 6 + dir as usize];
            let sources: Vec<(Hex, u32)> = (0..1 + rng.below(3))
                .map(|_| (Hex(rng.below(n as u32) as u16), rng.below(3)))
                .collect();
            let limit = [0, 1, 3, 6, u32::MAX][rng.below(5) as usize];
            a.run(&g, &sources, limit, step);
            b.run_breadth_first(&g, &sources, limit, step);
            for h in g.hexes() {
                assert_eq!(a.cost(h), b.cost(h), "{sources:?} {limit}");
                assert_eq!(a.stopped_at(h), b.stopped_at(h), "{sources:?} {limit}");
                assert_eq!(a.cost_to_go_on(h), b.cost_to_go_on(h), "{sources:?} {limit}");
            }
            let mut ra: Vec<Hex> = a.reached().collect();
            let mut rb: Vec<Hex> = b.reached().collect();
            ra.sort();
            rb.sort();
            assert_eq!(ra, rb);
        }
    }

    /// The search as first written, with both kinds of arrival kept: a heap of (cost, node),
    /// every step priced, nodes never marked done. Returns the answers of every node and the
    /// nodes in the order first reached.
    fn reference(
        g: &HexGrid,
        sources: &[(Hex, u32)],
        limit: u32,
        mut step: impl FnMut(Hex, u8, Hex) -> Step,
    ) -> (Vec<Answer>, Vec<Hex>) {
        let n = g.len();
        let (mut go, mut go_from) = (vec![UNREACHED; n], vec![NO_PARENT; n]);
        let (mut halt, mut halt_from) = (vec![UNREACHED; n], vec![NO_PARENT; n]);
        let mut touched = Vec::new();
        let mut heap = BinaryHeap::new();
        for &(h, c) in sources {
            if c <= limit && c < go[h.idx()] {
                if go[h.idx()] == UNREACHED {
                    touched.push(h);
                }
                go[h.idx()] = c;
                heap.push(Reverse((c, h.0)));
            }
        }
        while let Some(Reverse((c, node))) = heap.pop() {
            let from = Hex(node);
            if c != go[from.idx()] {
                continue;
            }
            g.for_each_neighbour(from, |exit, to| {
                let (price, stop) = match step(from, exit, to) {
                    Step::Blocked(_) => return,
                    Step::Go(p) => (p, false),
                    Step::Stop(p) => (p, true),
                };
                let total = c.saturating_add(price);
                let i = to.idx();
                if total > limit {
                    return;
                }
                let new = go[i] == UNREACHED && halt[i] == UNREACHED;
                if stop && total < go[i] && total < halt[i] {
                    halt[i] = total;
                    halt_from[i] = from.0;
                } else if !stop && total < go[i] {
                    go[i] = total;
                    go_from[i] = from.0;
                    heap.push(Reverse((total, to.0)));
                } else {
                    return;
                }
                if new {
                    touched.push(to);
                }
            });
        }
        let answers = (0..n)
            .map(|i| {
                let stopped = halt[i] < go[i];
                let least = go[i].min(halt[i]);
                let from = if stopped { halt_from[i] } else { go_from[i] };
                (
                    (least != UNREACHED).then_some(least),
                    stopped,
                    (go[i] != UNREACHED).then_some(go[i]),
                    (from != NO_PARENT).then_some(Hex(from)),
                )
            })
            .collect();
        (answers, touched)
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
            for bucketed in [false, true] {
                if bucketed && limit > BUCKETED {
                    continue;
                }
                s.run_queued(&g, &sources, limit, step, bucketed);
                assert_eq!(answers(&s, &g), want);
                assert_eq!(s.reached().collect::<Vec<_>>(), order);
            }
            if unit {
                s.run_breadth_first(&g, &sources, limit, step);
                let marks = |v: Vec<Answer>| -> Vec<(Option<u32>, bool, Option<u32>)> {
                    v.into_iter().map(|(c, m, go, _)| (c, m, go)).collect()
                };
                assert_eq!(marks(answers(&s, &g)), marks(want.clone()));
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
                assert_eq!(a.cost_to_go_on(h), b.cost_to_go_on(h));
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

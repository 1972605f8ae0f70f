//! ZOC Bonds, the zones of control of MMP's Standard Combat Series (Ardennes II 1.2), for
//! every game that has them; a game that adds hexside bonds (Ardennes '44) builds on the same
//! posts and geometry.
//!
//! No unit has a traditional ZOC. Instead two stacks of friendly infantry exactly two hexes
//! apart — the ZOC Posts — bind the empty hex between them, the ZOC Bond. An enemy pays +4 MP
//! to enter a bond hex (TEC), and a retreat that enters one loses a step and stops (3.2).
//! Bonds cannot be attacked, barraged or overrun; they exist only while their conditions
//! hold, so they are worked out afresh from the position whenever a rule asks (inventory A7).
//!
//! A bond between posts P and Q needs (1.2):
//! 1. at least 2 steps of infantry (regular, mechanized, airborne or glider; not bicycle,
//!    penal, Ersatz, Ost, machine-gun or engineer) in each post;
//! 2. P and Q exactly 2 hexes apart, so that the bond is one hex;
//! 3. the bond hex empty of units of either side and not prohibited terrain (to foot units,
//!    RULINGS: inventory A6, which also keeps a bond from spanning a foot-prohibited hexside);
//! 4. at most two bonds per post;
//! 5. of two possible middle hexes, the one farther from local enemy units;
//! 6. no post in a City hex.
//!
//! This module knows only geometry and those conditions; the game supplies, through
//! [`BondBoard`], which hexes hold posts of the side, which are empty, which may be bond hexes
//! and where the enemy stands.

use crate::hex::{Hex, HexGrid};

/// What the bond rules read of the board, for one side.
pub trait BondBoard {
    /// Whether the stack in `h` can be a ZOC Post of the side: at least 2 infantry steps, not
    /// in a City (1.2 (1), (2), (7)).
    fn is_post(&self, h: Hex) -> bool;
    /// Whether `h` holds no unit of either side (1.2 (4)).
    fn is_empty(&self, h: Hex) -> bool;
    /// Whether `h` may be a bond hex at all: not terrain prohibited to foot units
    /// (1.2 (4), RULINGS: inventory A6).
    fn bond_terrain(&self, h: Hex) -> bool;
    /// Whether a bond may span the hexside between adjacent hexes `a` and `b`: not a hexside
    /// prohibited to foot units (RULINGS: inventory A6).
    fn bond_side(&self, a: Hex, b: Hex) -> bool;
    /// The hexes holding enemy units, for the "farther from the enemy" choice (1.2 (6)).
    fn enemy_hexes(&self) -> &[Hex];
    /// Every hex that might hold a post, in ascending order (a board that knows where its
    /// infantry stands lists only those hexes; by default, every hex).
    fn post_hexes(&self, grid: &HexGrid) -> Vec<Hex> {
        grid.hexes().collect()
    }
}

/// One ZOC Bond: the bond hex and its two posts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bond {
    pub hex: Hex,
    pub posts: (Hex, Hex),
}

/// The distance from every hex to the nearest of `enemy` (`u32::MAX` everywhere if there is
/// none), by a breadth-first flood over the grid: what "the distance from the enemy" counted
/// in hexes means. The bonds take the least hex distance to an enemy hex instead, for the few
/// hexes they ask about; the tests check the two agree on the game's grid.
#[cfg(test)]
fn enemy_field(grid: &HexGrid, enemy: &[Hex]) -> Vec<u32> {
    let mut dist = vec![u32::MAX; grid.len()];
    let mut queue: Vec<Hex> = Vec::with_capacity(grid.len());
    for &e in enemy {
        if dist[e.idx()] != 0 {
            dist[e.idx()] = 0;
            queue.push(e);
        }
    }
    let mut head = 0;
    while let Some(&h) = queue.get(head) {
        head += 1;
        let d = dist[h.idx()] + 1;
        for &n in grid.neighbour_row(h) {
            if n != crate::hex::NO_HEX && dist[n as usize] == u32::MAX {
                dist[n as usize] = d;
                queue.push(Hex(n));
            }
        }
    }
    dist
}

/// The least hex distance from `h` to one of `enemy` (in hex order; `u32::MAX` if none).
/// Hexes are numbered column by column, so `enemy` is in column order too, and a hex `k`
/// columns away is at least `k` hexes away: the search goes outward from `h`'s column and
/// stops where no nearer enemy can be.
fn nearest(grid: &HexGrid, enemy: &[Hex], h: Hex) -> u32 {
    let column = |h: Hex| grid.col_row(h).0 as u32;
    let c = column(h);
    let split = enemy.partition_point(|&e| column(e) < c);
    let mut best = u32::MAX;
    for &e in &enemy[split..] {
        if column(e) - c >= best {
            break;
        }
        best = best.min(grid.distance(e, h));
    }
    for &e in enemy[..split].iter().rev() {
        if c - column(e) >= best {
            break;
        }
        best = best.min(grid.distance(e, h));
    }
    best
}

/// Every ZOC Bond of the side `board` describes, in a fixed order (by bond hex, then posts).
///
/// Where a post would support more than two bonds, it keeps the two whose bond hexes are
/// nearest the enemy — the line facing the enemy holds first — and among equals the lower
/// bond hexes (1.2 (5), RULINGS: inventory A7).
pub fn bonds(grid: &HexGrid, board: &impl BondBoard) -> Vec<Bond> {
    bonds_with(grid, board, pairs_by_columns)
}

/// [`bonds`] with the posts two hexes from each post found by stepping two hexes out of it
/// (its 36 hexes two steps away) instead of among the posts within two columns of it: the
/// computation [`bonds`] replaced, kept for the tests that check the two agree.
#[doc(hidden)]
pub fn bonds_by_steps(grid: &HexGrid, board: &impl BondBoard) -> Vec<Bond> {
    bonds_with(grid, board, pairs_by_steps)
}

/// Into `pairs`, (far post, middle hex) for every post `b` two hexes from post `a` (not next
/// to it) with a greater index and every hex next to both, in order: the hexes two steps out
/// of `a` that hold posts.
fn pairs_by_steps(grid: &HexGrid, posts: &[Hex], _at: usize, a: Hex, pairs: &mut Vec<(Hex, Hex)>) {
    let is_post = |h: Hex| posts.binary_search(&h).is_ok();
    pairs.clear();
    for (_, m) in grid.neighbours(a) {
        for (_, b) in grid.neighbours(m) {
            if b.0 > a.0 && is_post(b) && !grid.adjacent(a, b) {
                pairs.push((b, m));
            }
        }
    }
    pairs.sort_unstable();
}

/// [`pairs_by_steps`] found among the posts after `a` in `posts` (`a` is `posts[at]`, `posts`
/// in ascending order). Hexes are numbered column by column, and a step changes the column
/// and the row by at most one each: a hex two steps away is at most two columns and two rows
/// away. So only the posts in those few hexes of `a`'s column and the next two are asked
/// (found by halving `posts`), each for the hexes next to both.
fn pairs_by_columns(grid: &HexGrid, posts: &[Hex], at: usize, a: Hex, pairs: &mut Vec<(Hex, Hex)>) {
    pairs.clear();
    let spec = grid.spec();
    let nrows = (spec.rows[1] - spec.rows[0]) as u32 + 1;
    let (col, row) = (a.0 as u32 / nrows, a.0 as u32 % nrows);
    let later = &posts[at + 1..];
    for c in col..col + 3 {
        // The hexes of column `c` within two rows of `a`'s row.
        let first = c * nrows + row.saturating_sub(2);
        let last = c * nrows + (row + 2).min(nrows - 1);
        let from = later.partition_point(|b| (b.0 as u32) < first);
        for &b in later[from..].iter().take_while(|b| b.0 as u32 <= last) {
            if grid.adjacent(a, b) {
                continue;
            }
            let far = grid.neighbour_row(b);
            for &m in grid.neighbour_row(a) {
                if m != crate::hex::NO_HEX && far.contains(&m) {
                    pairs.push((b, Hex(m)));
                }
            }
        }
    }
    pairs.sort_unstable();
}

/// Into `pairs`: (far post, middle hex) for the posts two hexes from `a` = `posts[at]`.
type PairsOf = fn(&HexGrid, &[Hex], usize, Hex, &mut Vec<(Hex, Hex)>);

fn bonds_with(grid: &HexGrid, board: &impl BondBoard, pairs_of: PairsOf) -> Vec<Bond> {
    let posts: Vec<Hex> = board
        .post_hexes(grid)
        .into_iter()
        .filter(|&h| board.is_post(h))
        .collect();
    if posts.len() < 2 {
        return Vec::new();
    }
    // The enemy's distance, worked out for each hex a choice needs it for: the least hex
    // distance to an enemy unit, which is what a flood over the whole grid would give
    // (`enemy_field`, tested against it), found by [`nearest`].
    let mut enemy = board.enemy_hexes().to_vec();
    if !enemy.is_sorted() {
        enemy.sort_unstable();
    }
    let mut known: Vec<(Hex, u32)> = Vec::new();
    let mut enemy_distance = |h: Hex| {
        if let Some(&(_, d)) = known.iter().find(|(x, _)| *x == h) {
            return d;
        }
        let d = nearest(grid, &enemy, h);
        known.push((h, d));
        d
    };
    // Sized for two bonds a post, the most 1.2 (5) keeps, so that it seldom grows.
    let mut found: Vec<(u32, Bond)> = Vec::with_capacity(posts.len() * 2);
    // (far post, middle hex) for the posts two hexes from post `a` with a greater index.
    let mut pairs: Vec<(Hex, Hex)> = Vec::with_capacity(36);
    for (at, &a) in posts.iter().enumerate() {
        pairs_of(grid, &posts, at, a, &mut pairs);
        for group in pairs.chunk_by(|x, y| x.0 == y.0) {
            let b = group[0].0;
            // 1.2 (6): of two possible middle hexes, the one farther from the enemy; a middle
            // hex that cannot be a bond leaves the other (RULINGS: inventory A7).
            let mut best: Option<(u32, Hex)> = None;
            for &(_, m) in group {
                if !(board.is_empty(m) && board.bond_terrain(m) && board.bond_side(a, m) && board.bond_side(m, b)) {
                    continue;
                }
                let d = if group.len() > 1 { enemy_distance(m) } else { 0 };
                let better = match best {
                    None => true,
                    Some((bd, bm)) => (d, std::cmp::Reverse(m.0)) > (bd, std::cmp::Reverse(bm.0)),
                };
                if better {
                    best = Some((d, m));
                }
            }
            let Some((_, hex)) = best else { continue };
            found.push((0, Bond { hex, posts: (a, b) }));
        }
    }
    // 1.2 (5): at most two bonds per post; the choice needs the distances only where a post
    // has more than two. Bonds a post has, by the post's place in `posts`.
    let post_index = |h: Hex| posts.binary_search(&h).unwrap_or(0);
    let mut candidates = vec![0u8; posts.len()];
    for (_, bond) in &found {
        candidates[post_index(bond.posts.0)] += 1;
        candidates[post_index(bond.posts.1)] += 1;
    }
    if found
        .iter()
        .any(|(_, b)| candidates[post_index(b.posts.0)] > 2 || candidates[post_index(b.posts.1)] > 2)
    {
        for (d, bond) in found.iter_mut() {
            *d = enemy_distance(bond.hex);
        }
    }
    two_a_post(found, candidates, post_index)
}

/// 1.2 (5): at most two bonds a post. `found` holds each possible bond with the enemy's distance
/// from its hex (0 for all where no post has more than two); nearest the enemy first, each is
/// kept while both its posts have fewer than two. `used` has a place for every post (its values
/// are overwritten), given by `post`.
fn two_a_post(mut found: Vec<(u32, Bond)>, mut used: Vec<u8>, post: impl Fn(Hex) -> usize) -> Vec<Bond> {
    found.sort_by_key(|&(d, bond)| (d, bond));
    used.iter_mut().for_each(|u| *u = 0);
    let mut out = Vec::with_capacity(found.len());
    for (_, bond) in found {
        let (a, b) = (post(bond.posts.0), post(bond.posts.1));
        if used[a] >= 2 || used[b] >= 2 {
            continue;
        }
        used[a] += 1;
        used[b] += 1;
        out.push(bond);
    }
    out.sort();
    out
}

/// A possible bond (1.2): posts `a` < `b` two hexes apart, the middle hex 1.2 (6) chooses
/// between them, and the enemy's distances that choice and 1.2 (5) read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Candidate {
    posts: (Hex, Hex),
    hex: Hex,
    /// The enemy's distance from `hex` ([`nearest`]).
    distance: u32,
    /// Where both middle hexes may hold the bond: the other one and its distance.
    other: Option<(Hex, u32)>,
}

/// A side's possible bonds, kept from one position to the next and worked out again only
/// near the hexes where units came or went ([`Candidates::update`]); [`Candidates::bonds`]
/// chooses among them what [`bonds`] finds afresh.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Candidates {
    /// In order of their posts.
    list: Vec<Candidate>,
}

/// The enemy hexes of `board`, in hex order.
fn enemy_sorted(board: &impl BondBoard) -> std::borrow::Cow<'_, [Hex]> {
    let enemy = board.enemy_hexes();
    if enemy.is_sorted() {
        std::borrow::Cow::Borrowed(enemy)
    } else {
        let mut e = enemy.to_vec();
        e.sort_unstable();
        std::borrow::Cow::Owned(e)
    }
}

/// The possible bond between posts `a` < `b` whose middle hexes are `middles` (in hex
/// order), if one of them may hold it (1.2 (4), (6)).
fn candidate(
    grid: &HexGrid,
    board: &impl BondBoard,
    enemy: &[Hex],
    a: Hex,
    b: Hex,
    middles: &[Hex],
) -> Option<Candidate> {
    let mut valid: Vec<(u32, Hex)> = Vec::with_capacity(2);
    for &m in middles {
        if board.is_empty(m) && board.bond_terrain(m) && board.bond_side(a, m) && board.bond_side(m, b) {
            valid.push((nearest(grid, enemy, m), m));
        }
    }
    // 1.2 (6): the one farther from the enemy, the lower hex among equals, when there are
    // two to choose from (as [`bonds`] chooses).
    let mut best: Option<(u32, Hex)> = None;
    for &(d, m) in &valid {
        let d_choice = if middles.len() > 1 { d } else { 0 };
        let better = match best {
            None => true,
            Some((bd, bm)) => (d_choice, std::cmp::Reverse(m.0)) > (bd, std::cmp::Reverse(bm.0)),
        };
        if better {
            best = Some((d_choice, m));
        }
    }
    let (_, hex) = best?;
    let distance = valid.iter().find(|&&(_, m)| m == hex).map_or(u32::MAX, |&(d, _)| d);
    let other = valid.iter().find(|&&(_, m)| m != hex).map(|&(d, m)| (m, d));
    Some(Candidate {
        posts: (a, b),
        hex,
        distance,
        other,
    })
}

impl Candidates {
    /// Every possible bond of the side `board` describes.
    pub fn build(grid: &HexGrid, board: &impl BondBoard) -> Candidates {
        let posts: Vec<Hex> = board
            .post_hexes(grid)
            .into_iter()
            .filter(|&h| board.is_post(h))
            .collect();
        let enemy = enemy_sorted(board);
        let mut list = Vec::with_capacity(posts.len() * 2);
        let mut pairs: Vec<(Hex, Hex)> = Vec::with_capacity(36);
        let mut middles: Vec<Hex> = Vec::with_capacity(2);
        for (at, &a) in posts.iter().enumerate() {
            pairs_by_columns(grid, &posts, at, a, &mut pairs);
            for group in pairs.chunk_by(|x, y| x.0 == y.0) {
                middles.clear();
                middles.extend(group.iter().map(|&(_, m)| m));
                list.extend(candidate(grid, board, &enemy, a, group[0].0, &middles));
            }
        }
        list.sort_unstable_by_key(|c| c.posts);
        Candidates { list }
    }

    /// The possible bonds once units came to or left the hexes `moved` (of either side),
    /// those of the enemy among them `enemy_moved`: the bonds of the posts next to one of
    /// `moved` found again (a post, or a middle hex's being empty, can change only there),
    /// and those whose enemy distances changed chosen again. False if none could change.
    pub fn update(&mut self, grid: &HexGrid, board: &impl BondBoard, moved: &[Hex], enemy_moved: &[Hex]) -> bool {
        let mut near: Vec<Hex> = Vec::with_capacity(moved.len() * 7);
        for &h in moved {
            near.push(h);
            near.extend(grid.neighbours(h).map(|(_, n)| n));
        }
        near.sort_unstable();
        near.dedup();
        let touched = |h: Hex| near.binary_search(&h).is_ok();
        let kept = self.list.len();
        self.list.retain(|c| !(touched(c.posts.0) || touched(c.posts.1)));
        let mut changed = self.list.len() != kept;
        let enemy = enemy_sorted(board);
        // 1.2 (5), (6): a kept bond whose enemy distances may have changed is chosen again.
        if !enemy_moved.is_empty() {
            let stale = |(q, d): (Hex, u32)| {
                enemy_moved.iter().any(|&h| grid.distance(q, h) <= d) && nearest(grid, &enemy, q) != d
            };
            let mut again: Vec<(Hex, Hex)> = Vec::new();
            self.list.retain(|c| {
                let redo = stale((c.hex, c.distance)) || c.other.is_some_and(stale);
                if redo {
                    again.push(c.posts);
                }
                !redo
            });
            changed |= !again.is_empty();
            for (a, b) in again {
                let middles = common_neighbours(grid, a, b);
                self.list.extend(candidate(grid, board, &enemy, a, b, &middles));
            }
        }
        // The posts next to a hex where units came or went, and the posts two hexes from them.
        let mut triples: Vec<(Hex, Hex, Hex)> = Vec::new();
        for &p in &near {
            if !board.is_post(p) {
                continue;
            }
            for (_, m) in grid.neighbours(p) {
                for (_, q) in grid.neighbours(m) {
                    if q != p && !grid.adjacent(p, q) && board.is_post(q) {
                        triples.push((p.min(q), p.max(q), m));
                    }
                }
            }
        }
        if triples.is_empty() && !changed {
            return false;
        }
        triples.sort_unstable();
        triples.dedup();
        let mut middles: Vec<Hex> = Vec::with_capacity(2);
        for group in triples.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
            middles.clear();
            middles.extend(group.iter().map(|&(.., m)| m));
            self.list
                .extend(candidate(grid, board, &enemy, group[0].0, group[0].1, &middles));
        }
        self.list.sort_unstable_by_key(|c| c.posts);
        true
    }

    /// The bonds chosen among these (1.2 (5)): what [`bonds`] finds.
    pub fn bonds(&self) -> Vec<Bond> {
        let mut posts: Vec<Hex> = self.list.iter().flat_map(|c| [c.posts.0, c.posts.1]).collect();
        posts.sort_unstable();
        let mut counts: Vec<(Hex, u8)> = Vec::with_capacity(posts.len());
        for p in posts {
            match counts.last_mut() {
                Some(last) if last.0 == p => last.1 += 1,
                _ => counts.push((p, 1)),
            }
        }
        let index = |h: Hex| counts.binary_search_by_key(&h, |&(x, _)| x).unwrap_or(0);
        let crowded = counts.iter().any(|&(_, n)| n > 2);
        let found: Vec<(u32, Bond)> = self
            .list
            .iter()
            .map(|c| {
                let d = if crowded { c.distance } else { 0 };
                (
                    d,
                    Bond {
                        hex: c.hex,
                        posts: c.posts,
                    },
                )
            })
            .collect();
        two_a_post(found, vec![0u8; counts.len()], index)
    }
}

/// The hexes next to both `a` and `b`, in hex order.
fn common_neighbours(grid: &HexGrid, a: Hex, b: Hex) -> Vec<Hex> {
    let far = grid.neighbour_row(b);
    let mut out: Vec<Hex> = grid
        .neighbour_row(a)
        .iter()
        .filter(|&&m| m != crate::hex::NO_HEX && far.contains(&m))
        .map(|&m| Hex(m))
        .collect();
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{GridSpec, IdFormat, Orientation, RowDirection, Shifted};
    use std::collections::HashSet;

    fn grid() -> HexGrid {
        HexGrid::new(GridSpec {
            id_format: IdFormat::Sheets {
                letters: "AB".into(),
                cols_per_sheet: 40,
            },
            orientation: Orientation::Flat,
            shifted: Shifted::Even,
            row_direction: RowDirection::Up,
            cols: [1, 12],
            rows: [1, 12],
        })
        .expect("a grid")
    }

    struct Board<'a> {
        g: &'a HexGrid,
        posts: HashSet<Hex>,
        occupied: HashSet<Hex>,
        bad_terrain: HashSet<Hex>,
        bad_sides: HashSet<(Hex, Hex)>,
        enemy: Vec<Hex>,
    }

    impl<'a> Board<'a> {
        fn new(g: &'a HexGrid, posts: &[&str], enemy: &[&str]) -> Board<'a> {
            let h = |s: &&str| g.parse(s).expect("a hex");
            let posts: HashSet<Hex> = posts.iter().map(h).collect();
            let enemy: Vec<Hex> = enemy.iter().map(h).collect();
            let occupied = posts.iter().copied().chain(enemy.iter().copied()).collect();
            Board {
                g,
                posts,
                occupied,
                bad_terrain: HashSet::new(),
                bad_sides: HashSet::new(),
                enemy,
            }
        }
        fn hex(&self, s: &str) -> Hex {
            self.g.parse(s).expect("a hex")
        }
    }

    impl BondBoard for Board<'_> {
        fn is_post(&self, h: Hex) -> bool {
            self.posts.contains(&h)
        }
        fn is_empty(&self, h: Hex) -> bool {
            !self.occupied.contains(&h)
        }
        fn bond_terrain(&self, h: Hex) -> bool {
            !self.bad_terrain.contains(&h)
        }
        fn bond_side(&self, a: Hex, b: Hex) -> bool {
            !self.bad_sides.contains(&(a, b)) && !self.bad_sides.contains(&(b, a))
        }
        fn enemy_hexes(&self) -> &[Hex] {
            &self.enemy
        }
    }

    fn ids(g: &HexGrid, bonds: &[Bond]) -> Vec<String> {
        bonds.iter().map(|b| g.id(b.hex).0).collect()
    }

    #[test]
    fn the_flooded_enemy_distance_is_the_hex_distance_on_both_sheets() {
        for orientation in [Orientation::Flat, Orientation::Pointy] {
            let grid = HexGrid::new(GridSpec {
                id_format: IdFormat::Sheets {
                    letters: "AB".into(),
                    cols_per_sheet: 40,
                },
                orientation,
                shifted: Shifted::Even,
                row_direction: RowDirection::Up,
                cols: [1, 80],
                rows: [0, 54],
            })
            .expect("a grid");
            let n = grid.len() as u16;
            for (k, step) in [(1usize, 1u16), (3, 977), (40, 109), (0, 1)] {
                let mut enemy: Vec<Hex> = (0..k as u16).map(|i| Hex((i * step * 7 + 13) % n)).collect();
                let field = enemy_field(&grid, &enemy);
                enemy.sort_unstable();
                for h in grid.hexes() {
                    let brute = enemy.iter().map(|&e| grid.distance(e, h)).min().unwrap_or(u32::MAX);
                    let id = grid.id(h).0;
                    assert_eq!(field[h.idx()], brute, "{id} with {k} enemy hexes");
                    assert_eq!(
                        nearest(&grid, &enemy, h),
                        brute,
                        "{id} with {k} enemy hexes, column by column"
                    );
                }
            }
        }
    }

    /// The posts two hexes apart found among the posts within two columns give the bonds the
    /// 36 hexes two steps out of every post give, on random boards of both orientations
    /// spanning two sheets: posts thick and thin, enemy units, occupied and prohibited hexes
    /// and prohibited hexsides.
    #[test]
    fn the_posts_found_by_column_bind_what_the_steps_out_of_each_post_bind() {
        use rand_chacha::rand_core::{Rng as _, SeedableRng};
        let mut compared = 0;
        for orientation in [Orientation::Flat, Orientation::Pointy] {
            let g = HexGrid::new(GridSpec {
                id_format: IdFormat::Sheets {
                    letters: "AB".into(),
                    cols_per_sheet: 20,
                },
                orientation,
                shifted: Shifted::Even,
                row_direction: RowDirection::Up,
                cols: [1, 40],
                rows: [0, 20],
            })
            .expect("a grid");
            for seed in 0..60u64 {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let mut chance = |in_100: u32| rng.next_u32() % 100 < in_100;
                let density = [5, 15, 30, 60][seed as usize % 4];
                let mut b = Board::new(&g, &[], &[]);
                for h in g.hexes() {
                    if chance(density) {
                        b.posts.insert(h);
                        b.occupied.insert(h);
                    } else if chance(5) {
                        b.enemy.push(h);
                        b.occupied.insert(h);
                    } else if chance(5) {
                        b.occupied.insert(h);
                    } else if chance(5) {
                        b.bad_terrain.insert(h);
                    }
                    for (_, n) in g.neighbours(h) {
                        if chance(3) {
                            b.bad_sides.insert((h, n));
                        }
                    }
                }
                let found = bonds(&g, &b);
                assert_eq!(found, bonds_by_steps(&g, &b), "{orientation:?} seed {seed}");
                compared += found.len();
            }
        }
        assert!(compared > 1000, "only {compared} bonds compared");
    }

    #[test]
    fn posts_two_apart_in_a_column_bind_the_hex_between() {
        let g = grid();
        let b = Board::new(&g, &["A5.04", "A5.06"], &[]);
        assert_eq!(ids(&g, &bonds(&g, &b)), vec!["A5.05"]);
    }

    #[test]
    fn posts_one_or_three_apart_bind_nothing() {
        let g = grid();
        assert!(bonds(&g, &Board::new(&g, &["A5.04", "A5.05"], &[])).is_empty());
        assert!(bonds(&g, &Board::new(&g, &["A5.04", "A5.07"], &[])).is_empty());
    }

    #[test]
    fn an_occupied_or_prohibited_middle_hex_is_no_bond() {
        let g = grid();
        let mut b = Board::new(&g, &["A5.04", "A5.06"], &[]);
        let mid = b.hex("A5.05");
        b.occupied.insert(mid);
        assert!(bonds(&g, &b).is_empty(), "1.2 (4): the bond hex must be empty");
        b.occupied.remove(&mid);
        b.bad_terrain.insert(mid);
        assert!(bonds(&g, &b).is_empty(), "1.2 (4): no prohibited terrain");
        b.bad_terrain.clear();
        let post = b.hex("A5.04");
        b.bad_sides.insert((post, mid));
        assert!(bonds(&g, &b).is_empty(), "no bond across a foot-prohibited hexside");
    }

    #[test]
    fn of_two_middle_hexes_the_one_farther_from_the_enemy_binds() {
        // A4.04 and A5.06 are two apart off a straight line: A4.05 and A5.05 both touch both.
        let g = grid();
        let b = Board::new(&g, &["A4.04", "A5.06"], &[]);
        let (p, q) = (b.hex("A4.04"), b.hex("A5.06"));
        let m = g.neighbours(p).map(|(_, n)| n).filter(|&n| g.adjacent(n, q));
        let mut names: Vec<String> = m.map(|h| g.id(h).0).collect();
        names.sort();
        assert_eq!(names, vec!["A4.05", "A5.05"]);
        // The enemy to the east: the western middle hex binds; to the west, the eastern one.
        let b = Board::new(&g, &["A4.04", "A5.06"], &["A9.05"]);
        assert_eq!(ids(&g, &bonds(&g, &b)), vec!["A4.05"]);
        let b = Board::new(&g, &["A4.04", "A5.06"], &["A1.05"]);
        assert_eq!(ids(&g, &bonds(&g, &b)), vec!["A5.05"]);
        // If the farther one is occupied, the other binds.
        let mut b = Board::new(&g, &["A4.04", "A5.06"], &["A9.05"]);
        let far = b.hex("A4.05");
        b.occupied.insert(far);
        assert_eq!(ids(&g, &bonds(&g, &b)), vec!["A5.05"]);
    }

    #[test]
    fn a_post_supports_at_most_two_bonds() {
        // A post in A5.06 with three partners two hexes away: only two bonds touch it.
        let g = grid();
        let b = Board::new(&g, &["A5.06", "A5.04", "A5.08", "A7.07"], &["A5.11"]);
        let all = bonds(&g, &b);
        let centre = b.hex("A5.06");
        let at_centre = all
            .iter()
            .filter(|x| x.posts.0 == centre || x.posts.1 == centre)
            .count();
        assert_eq!(at_centre, 2, "{:?}", ids(&g, &all));
        // The two kept face the enemy (north): the bonds at A5.07 and toward A7.07.
        assert!(ids(&g, &all).contains(&"A5.07".to_string()));
        assert!(!ids(&g, &all).contains(&"A5.05".to_string()));
    }

    #[test]
    fn a_line_of_posts_binds_every_gap() {
        let g = grid();
        let b = Board::new(&g, &["A5.01", "A5.03", "A5.05", "A5.07"], &[]);
        assert_eq!(ids(&g, &bonds(&g, &b)), vec!["A5.02", "A5.04", "A5.06"]);
    }

    /// The possible bonds kept through moves of posts and of the enemy
    /// ([`Candidates::update`]) are at every move those found afresh, and the bonds chosen
    /// among them are the ones [`bonds`] finds, over random crowded positions (posts with
    /// more than two possible bonds, two middle hexes to choose between).
    #[test]
    fn possible_bonds_kept_through_moves_give_the_bonds_found_afresh() {
        let g = grid();
        let hexes: Vec<Hex> = g.hexes().collect();
        let mut seed = 12345u64;
        let mut below = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % n as u64) as usize
        };
        let (mut compared, mut crowded) = (0, 0);
        for _ in 0..100 {
            let mut b = Board::new(&g, &[], &[]);
            for _ in 0..30 {
                let h = hexes[below(hexes.len())];
                if b.occupied.insert(h) {
                    b.posts.insert(h);
                }
            }
            for _ in 0..6 {
                let h = hexes[below(hexes.len())];
                if b.occupied.insert(h) {
                    b.enemy.push(h);
                }
            }
            b.enemy.sort_unstable();
            let mut kept = Candidates::build(&g, &b);
            for _ in 0..30 {
                let to = hexes[below(hexes.len())];
                if b.occupied.contains(&to) {
                    continue;
                }
                // A post or an enemy unit moves, or a post comes or goes.
                let (moved, enemy_moved) = match below(4) {
                    0 if !b.enemy.is_empty() => {
                        let i = below(b.enemy.len());
                        let from = b.enemy[i];
                        b.occupied.remove(&from);
                        b.occupied.insert(to);
                        b.enemy[i] = to;
                        b.enemy.sort_unstable();
                        (vec![from, to], vec![from, to])
                    }
                    1 => {
                        b.occupied.insert(to);
                        b.posts.insert(to);
                        (vec![to], vec![])
                    }
                    _ => {
                        let mut posts: Vec<Hex> = b.posts.iter().copied().collect();
                        posts.sort_unstable();
                        if posts.is_empty() {
                            continue;
                        }
                        let from = posts[below(posts.len())];
                        b.posts.remove(&from);
                        b.occupied.remove(&from);
                        b.posts.insert(to);
                        b.occupied.insert(to);
                        (vec![from, to], vec![])
                    }
                };
                kept.update(&g, &b, &moved, &enemy_moved);
                let fresh = Candidates::build(&g, &b);
                assert_eq!(kept, fresh);
                assert_eq!(kept.bonds(), bonds(&g, &b));
                compared += 1;
                crowded += usize::from(kept.bonds().len() < kept.list.len());
            }
        }
        assert!(
            compared > 1000 && crowded > 100,
            "{compared} moves, {crowded} with a choice of bonds"
        );
    }
}

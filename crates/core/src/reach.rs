//! Each unit's movement reach, kept from one decision to the next and forgotten only where
//! something changed near enough to matter.
//!
//! A movement phase asks for every unit's reach at every decision; a move changes the board in
//! two hexes, and an enemy's zone of control or bonds around them. A unit whose reach went no
//! farther than `radius` hexes from its own hex can only be affected by a change within
//! `radius + margin` of it, where `margin` is how far the game's step rules look around a hex
//! they price (two for rules that read a hex's neighbours, such as "adjacent to the enemy").
//! [`ReachCache::forget_near`] forgets exactly those, and keeps the rest.
//!
//! What a reach depends on besides the board (the unit's hex, the MP it has left, its face) is
//! its `key`: a kept reach is given back only for the same key.

use crate::hex::{Hex, HexGrid};

/// One unit's kept reach.
#[derive(Clone, Debug)]
struct Kept<K, R> {
    key: K,
    at: Hex,
    radius: u32,
    reach: R,
}

/// The kept reaches of a side's units, by unit index.
#[derive(Clone, Debug)]
pub struct ReachCache<K, R> {
    units: Vec<Option<Kept<K, R>>>,
}

impl<K, R> Default for ReachCache<K, R> {
    fn default() -> ReachCache<K, R> {
        ReachCache { units: Vec::new() }
    }
}

impl<K: PartialEq, R: Clone> ReachCache<K, R> {
    /// Unit `unit`'s kept reach, if it was worked out for `key`.
    pub fn get(&self, unit: usize, key: &K) -> Option<R> {
        match self.units.get(unit) {
            Some(Some(k)) if k.key == *key => Some(k.reach.clone()),
            _ => None,
        }
    }

    /// Keeps `reach`, worked out for `key` from hex `at`, going no farther than `radius` hexes.
    pub fn put(&mut self, unit: usize, key: K, at: Hex, radius: u32, reach: R) {
        if self.units.len() <= unit {
            self.units.resize_with(unit + 1, || None);
        }
        self.units[unit] = Some(Kept { key, at, radius, reach });
    }

    /// Forgets the reaches a change at any of `changed` could alter: those of units within
    /// their radius plus `margin` of one of them.
    pub fn forget_near(&mut self, grid: &HexGrid, changed: &[Hex], margin: u32) {
        if changed.is_empty() {
            return;
        }
        for slot in &mut self.units {
            if let Some(k) = slot {
                let near = changed.iter().any(|&c| grid.distance(k.at, c) <= k.radius + margin);
                if near {
                    *slot = None;
                }
            }
        }
    }

    /// Forgets every reach (the turn changed, say: something every reach reads).
    pub fn clear(&mut self) {
        self.units.clear();
    }
}

/// How far from `at` the farthest of `hexes` is.
pub fn radius(grid: &HexGrid, at: Hex, hexes: impl IntoIterator<Item = Hex>) -> u32 {
    hexes.into_iter().map(|h| grid.distance(at, h)).max().unwrap_or(0)
}

/// The hexes whose entries differ between two per-hex lists of the same map (of different
/// lengths: every hex past the shorter one).
pub fn differing<T: PartialEq>(old: &[T], new: &[T]) -> Vec<Hex> {
    let n = old.len().max(new.len());
    (0..n)
        .filter(|&i| old.get(i) != new.get(i))
        .map(|i| Hex(i as u16))
        .collect()
}

/// The hexes in one of two lists and not the other, sorted, each once.
pub fn moved(old: &[Hex], new: &[Hex]) -> Vec<Hex> {
    // The same list (most lists compared have not changed): none.
    if old == new {
        return Vec::new();
    }
    let sorted = |l: &[Hex]| {
        let mut l = l.to_vec();
        l.sort_unstable();
        l.dedup();
        l
    };
    let (old, new) = (sorted(old), sorted(new));
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(&a), Some(&b)) if a < b => {
                out.push(a);
                i += 1;
            }
            (Some(_), Some(&b)) => {
                out.push(b);
                j += 1;
            }
            (Some(&a), None) => {
                out.push(a);
                i += 1;
            }
            (None, Some(&b)) => {
                out.push(b);
                j += 1;
            }
            (None, None) => unreachable!("the loop runs while one list has more"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{GridSpec, IdFormat, Orientation, RowDirection, Shifted};

    fn grid() -> HexGrid {
        HexGrid::new(GridSpec {
            id_format: IdFormat::Xxyy { digits: 2 },
            orientation: Orientation::Flat,
            shifted: Shifted::Even,
            row_direction: RowDirection::Down,
            cols: [1, 20],
            rows: [1, 20],
        })
        .unwrap()
    }

    #[test]
    fn only_reaches_near_a_change_are_forgotten() {
        let g = grid();
        let h = |id: &str| g.parse(id).unwrap();
        let mut c: ReachCache<u8, &str> = ReachCache::default();
        c.put(0, 1, h("0505"), 3, "near");
        c.put(1, 1, h("1515"), 3, "far");
        assert_eq!(c.get(0, &1), Some("near"));
        assert_eq!(c.get(0, &2), None, "another key");
        // A change five hexes from 0505: within its radius 3 and margin 2.
        let change = h("1005");
        assert_eq!(g.distance(h("0505"), change), 5);
        c.forget_near(&g, &[change], 2);
        assert_eq!(c.get(0, &1), None);
        assert_eq!(c.get(1, &1), Some("far"));
        // One hex farther would have been kept.
        c.put(0, 1, h("0505"), 3, "near");
        c.forget_near(&g, &[h("1105")], 2);
        assert_eq!(c.get(0, &1), Some("near"));
        c.clear();
        assert_eq!(c.get(1, &1), None);
    }

    #[test]
    fn differing_and_moved_hexes() {
        assert_eq!(differing(&[0, 1, 2], &[0, 5, 2, 7]), vec![Hex(1), Hex(3)]);
        assert_eq!(moved(&[Hex(1), Hex(2)], &[Hex(2), Hex(9)]), vec![Hex(1), Hex(9)]);
        assert_eq!(
            moved(&[Hex(5), Hex(1), Hex(5)], &[Hex(3), Hex(1)]),
            vec![Hex(3), Hex(5)]
        );
        assert_eq!(moved(&[], &[Hex(4)]), vec![Hex(4)]);
        let same = [Hex(7), Hex(2), Hex(7)];
        assert_eq!(moved(&same, &same), Vec::<Hex>::new());
        assert_eq!(moved(&same, &[Hex(2), Hex(7)]), Vec::<Hex>::new(), "each hex once");
        let g = grid();
        let at = g.parse("0505").unwrap();
        assert_eq!(radius(&g, at, [at, g.parse("0508").unwrap()]), 3);
    }
}

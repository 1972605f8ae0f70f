//! Pieces in stacks: which pieces stand in each hex (or space), built once per question from
//! the pieces' locations, and the stacking-limit test every game needs. Pieces are numbered by
//! the game; a stack lists them in piece order, bottom first.

use crate::hex::Hex;

/// Step state of a piece with up to two steps (full and reduced), as most counters have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Steps {
    Full,
    Reduced,
    Eliminated,
}

impl Steps {
    /// One step lost: full to reduced (or to eliminated for a single-step piece), reduced to
    /// eliminated.
    pub fn lose(self, has_reduced_side: bool) -> Steps {
        match self {
            Steps::Full if has_reduced_side => Steps::Reduced,
            _ => Steps::Eliminated,
        }
    }
}

/// Per hex, the pieces standing there.
#[derive(Clone, Debug, Eq)]
pub struct StackIndex {
    /// Per hex: where its pieces begin in `pieces`.
    first: Vec<u32>,
    /// Per hex: how many pieces it holds.
    count: Vec<u16>,
    pieces: Vec<u16>,
    /// Scratch: the `(piece, hex)` pairs of the last build.
    placed: Vec<(u16, Hex)>,
}

impl PartialEq for StackIndex {
    fn eq(&self, other: &StackIndex) -> bool {
        self.first == other.first && self.count == other.count && self.pieces == other.pieces
    }
}

impl StackIndex {
    /// Builds the index for `nodes` hexes from `(piece, hex)` pairs (pieces not on the map are
    /// simply left out). The work grows with the pieces, not with the hexes.
    pub fn build(nodes: usize, placed: impl Iterator<Item = (u16, Hex)>) -> StackIndex {
        let mut s = StackIndex {
            first: vec![0; nodes],
            count: vec![0; nodes],
            pieces: Vec::new(),
            placed: Vec::new(),
        };
        s.fill(placed);
        s
    }

    /// Builds the index again in its own memory, for pieces now at `placed`; `was` are the
    /// hexes the pieces of the last build stood in (every one of them, in any order). Gives
    /// what [`StackIndex::build`] would.
    pub fn rebuild(&mut self, was: impl IntoIterator<Item = Hex>, placed: impl Iterator<Item = (u16, Hex)>) {
        for h in was {
            self.count[h.idx()] = 0;
            self.first[h.idx()] = 0;
        }
        self.fill(placed);
    }

    /// Fills an index whose hexes are all empty.
    fn fill(&mut self, placed: impl Iterator<Item = (u16, Hex)>) {
        let mut list = std::mem::take(&mut self.placed);
        list.clear();
        list.extend(placed);
        let (first, count) = (&mut self.first, &mut self.count);
        for &(_, h) in &list {
            count[h.idx()] += 1;
        }
        // Each occupied hex gets a run of `pieces`, in the order the hexes first appear;
        // `first` holds its end (never 0: not yet given one) until the pieces are put in, last
        // first, each one place further back, so that a hex lists its pieces in the order given.
        let mut end = 0;
        for &(_, h) in &list {
            if first[h.idx()] == 0 {
                end += count[h.idx()] as u32;
                first[h.idx()] = end;
            }
        }
        self.pieces.clear();
        self.pieces.resize(list.len(), 0);
        for &(p, h) in list.iter().rev() {
            first[h.idx()] -= 1;
            self.pieces[first[h.idx()] as usize] = p;
        }
        self.placed = list;
    }

    /// The pieces in a hex, bottom first.
    #[inline]
    pub fn at(&self, h: Hex) -> &[u16] {
        let first = self.first[h.idx()] as usize;
        &self.pieces[first..first + self.count[h.idx()] as usize]
    }

    /// How many pieces are in a hex.
    #[inline]
    pub fn count(&self, h: Hex) -> usize {
        self.count[h.idx()] as usize
    }

    /// Whether one more piece may end in `h` under a limit of `limit` pieces, not counting
    /// `except` (the piece that is moving, if it is already there).
    pub fn has_room(&self, h: Hex, limit: usize, except: Option<u16>) -> bool {
        self.at(h).iter().filter(|&&p| Some(p) != except).count() < limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacks_by_hex() {
        let placed = [(0u16, Hex(2)), (1, Hex(0)), (2, Hex(2)), (3, Hex(2)), (4, Hex(3))];
        let s = StackIndex::build(5, placed.iter().copied());
        assert_eq!(s.at(Hex(2)), &[0, 2, 3]);
        assert_eq!(s.at(Hex(0)), &[1]);
        assert_eq!(s.at(Hex(3)), &[4]);
        assert_eq!(s.count(Hex(1)), 0);
        assert_eq!(s.at(Hex(1)), &[] as &[u16]);
        assert_eq!(s.count(Hex(2)), 3);
        assert!(!s.has_room(Hex(2), 3, None));
        assert!(s.has_room(Hex(2), 3, Some(2)));
        assert!(s.has_room(Hex(3), 2, None));
        let mut again = StackIndex::build(5, [(0u16, Hex(1))].into_iter());
        again.rebuild([Hex(1)], placed.iter().copied());
        assert_eq!(again, s);
        again.rebuild(
            [Hex(2), Hex(0), Hex(2), Hex(2), Hex(3)],
            [(7u16, Hex(4)), (8, Hex(0))].into_iter(),
        );
        assert_eq!(again, StackIndex::build(5, [(7u16, Hex(4)), (8, Hex(0))].into_iter()));
        assert_eq!(again.at(Hex(2)), &[] as &[u16]);
        assert_eq!(Steps::Full.lose(true), Steps::Reduced);
        assert_eq!(Steps::Full.lose(false), Steps::Eliminated);
        assert_eq!(Steps::Reduced.lose(true), Steps::Eliminated);
    }
}

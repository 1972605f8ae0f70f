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
    /// Per hex: its pieces, in the order given (piece order), each list keeping its memory
    /// from one position to the next.
    stacks: Vec<Vec<u16>>,
    /// The hexes that hold a piece or held one (their lists may be empty), to clear, each
    /// once: `listed` marks them.
    used: Vec<Hex>,
    listed: Vec<bool>,
}

/// Two indexes are equal when every hex holds the same pieces in the same order.
impl PartialEq for StackIndex {
    fn eq(&self, other: &StackIndex) -> bool {
        self.stacks == other.stacks
    }
}

impl StackIndex {
    /// Builds the index for `nodes` hexes from `(piece, hex)` pairs (pieces not on the map are
    /// simply left out). The work grows with the pieces, not with the hexes.
    pub fn build(nodes: usize, placed: impl Iterator<Item = (u16, Hex)>) -> StackIndex {
        let mut s = StackIndex {
            stacks: vec![Vec::new(); nodes],
            used: Vec::new(),
            listed: vec![false; nodes],
        };
        s.fill(placed);
        s
    }

    /// Builds the index again in its own memory, for pieces now at `placed`. `was` (the hexes
    /// the pieces of the last build stood in) is no longer needed: the index knows them. Gives
    /// what [`StackIndex::build`] would.
    pub fn rebuild(&mut self, _was: impl IntoIterator<Item = Hex>, placed: impl Iterator<Item = (u16, Hex)>) {
        for h in self.used.drain(..) {
            self.stacks[h.idx()].clear();
            self.listed[h.idx()] = false;
        }
        self.fill(placed);
    }

    /// Fills an index whose hexes are all empty.
    fn fill(&mut self, placed: impl Iterator<Item = (u16, Hex)>) {
        for (p, h) in placed {
            self.stacks[h.idx()].push(p);
            if !self.listed[h.idx()] {
                self.listed[h.idx()] = true;
                self.used.push(h);
            }
        }
    }

    /// Piece `piece` moved from `from` to `to` (`None`: off the map), into its place by piece
    /// number in its new hex: what [`StackIndex::build`] gives for pieces listed in piece order,
    /// worked out for the one piece. Nothing happens to a piece not found in `from`.
    pub fn shift(&mut self, piece: u16, from: Option<Hex>, to: Option<Hex>) {
        if let Some(h) = from {
            let list = &mut self.stacks[h.idx()];
            match list.iter().position(|&p| p == piece) {
                Some(i) => {
                    list.remove(i);
                }
                None => return,
            }
        }
        if let Some(h) = to {
            if !self.listed[h.idx()] {
                self.listed[h.idx()] = true;
                self.used.push(h);
            }
            let list = &mut self.stacks[h.idx()];
            let at = list.partition_point(|&p| p < piece);
            list.insert(at, piece);
        }
    }

    /// The pieces in a hex, bottom first.
    #[inline]
    pub fn at(&self, h: Hex) -> &[u16] {
        &self.stacks[h.idx()]
    }

    /// How many pieces are in a hex.
    #[inline]
    pub fn count(&self, h: Hex) -> usize {
        self.stacks[h.idx()].len()
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
        // Pieces moved one at a time land where a build puts them.
        let mut moved = StackIndex::build(5, placed.iter().copied());
        moved.shift(2, Some(Hex(2)), Some(Hex(0)));
        moved.shift(0, Some(Hex(2)), None);
        moved.shift(4, Some(Hex(3)), Some(Hex(0)));
        moved.shift(9, None, Some(Hex(1)));
        let want = [(1u16, Hex(0)), (2, Hex(0)), (3, Hex(2)), (4, Hex(0)), (9, Hex(1))];
        assert_eq!(moved, StackIndex::build(5, want.iter().copied()));
        assert_eq!(moved.at(Hex(0)), &[1, 2, 4]);
        assert_eq!(moved.at(Hex(3)), &[] as &[u16]);
        // A piece not where it is said to be moves nowhere.
        moved.shift(7, Some(Hex(4)), Some(Hex(1)));
        assert_eq!(moved.at(Hex(1)), &[9]);
        // A rebuild after moves forgets them.
        moved.rebuild([], [(5u16, Hex(4))].into_iter());
        assert_eq!(moved, StackIndex::build(5, [(5u16, Hex(4))].into_iter()));
        assert_eq!(Steps::Full.lose(true), Steps::Reduced);
        assert_eq!(Steps::Full.lose(false), Steps::Eliminated);
        assert_eq!(Steps::Reduced.lose(true), Steps::Eliminated);
    }
}

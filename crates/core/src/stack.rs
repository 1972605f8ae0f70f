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
#[derive(Clone, Debug)]
pub struct StackIndex {
    start: Vec<u32>,
    pieces: Vec<u16>,
}

impl StackIndex {
    /// Builds the index for `nodes` hexes from `(piece, hex)` pairs (pieces not on the map are
    /// simply left out).
    pub fn build(nodes: usize, placed: impl Iterator<Item = (u16, Hex)> + Clone) -> StackIndex {
        // Counted two places up, so that after the running sum `start[h + 1]` is where hex
        // `h`'s pieces begin; filling moves it on to where they end, which is where hex
        // `h + 1`'s begin.
        let mut start = vec![0u32; nodes + 2];
        for (_, h) in placed.clone() {
            start[h.idx() + 2] += 1;
        }
        for i in 2..nodes + 2 {
            start[i] += start[i - 1];
        }
        let mut pieces = vec![0u16; start[nodes + 1] as usize];
        for (p, h) in placed {
            pieces[start[h.idx() + 1] as usize] = p;
            start[h.idx() + 1] += 1;
        }
        start.truncate(nodes + 1);
        StackIndex { start, pieces }
    }

    /// The pieces in a hex, bottom first.
    #[inline]
    pub fn at(&self, h: Hex) -> &[u16] {
        &self.pieces[self.start[h.idx()] as usize..self.start[h.idx() + 1] as usize]
    }

    /// How many pieces are in a hex.
    #[inline]
    pub fn count(&self, h: Hex) -> usize {
        (self.start[h.idx() + 1] - self.start[h.idx()]) as usize
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
        let placed = [(0u16, Hex(2)), (1, Hex(0)), (2, Hex(2)), (3, Hex(2))];
        let s = StackIndex::build(4, placed.iter().copied());
        assert_eq!(s.at(Hex(2)), &[0, 2, 3]);
        assert_eq!(s.at(Hex(0)), &[1]);
        assert_eq!(s.count(Hex(1)), 0);
        assert!(!s.has_room(Hex(2), 3, None));
        assert!(s.has_room(Hex(2), 3, Some(2)));
        assert!(s.has_room(Hex(3), 2, None));
        assert_eq!(Steps::Full.lose(true), Steps::Reduced);
        assert_eq!(Steps::Full.lose(false), Steps::Eliminated);
        assert_eq!(Steps::Reduced.lose(true), Steps::Eliminated);
    }
}

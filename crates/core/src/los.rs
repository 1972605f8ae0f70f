//! Line of sight: the hexes a straight line between two hex centres passes through. The
//! tactical game (SS Panzer) decides what blocks sight; the geometry lives here.

use crate::hex::{Hex, HexGrid};

/// The hexes from `a` to `b` along the straight line between their centres, both ends
/// included. Where the line runs exactly along a hexside, both hexes beside it are returned
/// (`alongside`), so a game can apply its own rule for such lines.
pub fn line(grid: &HexGrid, a: Hex, b: Hex) -> Line {
    let n = grid.distance(a, b);
    let (ax, ay) = grid.centre(a);
    let (bx, by) = grid.centre(b);
    let mut hexes = vec![a];
    let mut alongside = Vec::new();
    for i in 1..=n {
        let t = i as f64 / n as f64;
        let (x, y) = (ax + (bx - ax) * t, ay + (by - ay) * t);
        // Nudge the sample point both ways: if the two nudges land in different hexes, the
        // line runs along their common side.
        let e = 1e-6;
        let h1 = grid.hex_near(x + e, y + e);
        let h2 = grid.hex_near(x - e, y - e);
        if let (Some(h1), Some(h2)) = (h1, h2) {
            if h1 != h2 {
                alongside.push((h1, h2));
            }
            if hexes.last() != Some(&h1) {
                hexes.push(h1);
            }
        }
    }
    Line { hexes, alongside }
}

/// A line of sight's hexes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub hexes: Vec<Hex>,
    /// Pairs of hexes the line runs exactly between.
    pub alongside: Vec<(Hex, Hex)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::{GridSpec, IdFormat, Orientation, RowDirection, Shifted};

    #[test]
    fn straight_lines() {
        let g = HexGrid::new(GridSpec {
            id_format: IdFormat::Xxyy { digits: 2 },
            orientation: Orientation::Flat,
            shifted: Shifted::Even,
            row_direction: RowDirection::Down,
            cols: [1, 10],
            rows: [1, 10],
        })
        .unwrap();
        let a = g.parse("0505").unwrap();
        let b = g.parse("0509").unwrap();
        let l = line(&g, a, b);
        let ids: Vec<String> = l.hexes.iter().map(|&h| g.id(h).0).collect();
        assert_eq!(ids, ["0505", "0506", "0507", "0508", "0509"]);
        for h in g.hexes() {
            let l = line(&g, a, h);
            assert_eq!(l.hexes.first(), Some(&a));
            assert_eq!(l.hexes.last(), Some(&h));
            assert!(l.hexes.windows(2).all(|w| g.adjacent(w[0], w[1])), "{}", g.id(h));
        }
    }
}

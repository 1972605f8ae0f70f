//! Hex grids addressed by the hex ids printed on the map.
//!
//! A grid is a rectangle of columns and rows numbered as the map prints them. Two id formats
//! are supported: Game Journal's four digits `xxyy` (column then row) and the Standard Combat
//! Series' `A12.34` (map sheet letter, column on that sheet, row), where several sheets are
//! joined side by side. Both hex orientations are supported: flat-topped hexes in vertical
//! columns, and pointy-topped hexes in horizontal rows.
//!
//! Inside the engine a hex is a small index ([`Hex`]) into flat arrays; the neighbour table is
//! computed once, so searches never do coordinate arithmetic in their inner loop.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A hex, as an index into the grid's flat arrays (column-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Hex(pub u16);

impl Hex {
    /// The index as `usize`, for array access.
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// One of the six directions out of a hex (0..6, clockwise when row numbers grow downward on
/// screen). `d` and `(d + 3) % 6` are opposite.
pub type Dir = u8;

/// The direction opposite to `d`.
#[inline]
pub fn opposite(d: Dir) -> Dir {
    (d + 3) % 6
}

/// No neighbour: the edge of the map.
pub const NO_HEX: u16 = u16::MAX;

/// How hexes sit on the sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Orientation {
    /// Flat-topped hexes in vertical columns (a column step moves east or west).
    Flat,
    /// Pointy-topped hexes in horizontal rows.
    Pointy,
}

/// Which columns (flat) or rows (pointy) sit half a hex toward the higher row (column) numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shifted {
    Even,
    Odd,
}

/// Which way row numbers grow on the printed map (only drawing and geography care).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RowDirection {
    /// Row 01 is at the top (north) of the map.
    Down,
    /// Row 01 is at the bottom (south) of the map.
    Up,
}

/// How hex ids are printed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum IdFormat {
    /// Game Journal style: column and row, each zero-padded to `digits` digits (`0512`).
    Xxyy { digits: u8 },
    /// SCS style: sheet letter, column on the sheet, a dot, the row zero-padded to two digits
    /// (`A12.34`). Sheets are joined left to right; sheet `i` holds columns
    /// `i * cols_per_sheet + 1 ..= (i + 1) * cols_per_sheet` of the whole grid.
    Sheets { letters: String, cols_per_sheet: u16 },
}

/// The shape of a hex grid, as a map data file describes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridSpec {
    pub id_format: IdFormat,
    pub orientation: Orientation,
    pub shifted: Shifted,
    pub row_direction: RowDirection,
    /// First and last printed column numbers (whole grid, sheets joined).
    pub cols: [u16; 2],
    /// First and last printed row numbers.
    pub rows: [u16; 2],
}

/// Why a hex id could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HexIdError {
    #[error("`{0}` is not a hex id of this map (expected {1})")]
    Malformed(String, &'static str),
    #[error("hex `{0}` is off the map")]
    OffMap(String),
}

/// A rectangular hex grid with its neighbour table.
#[derive(Clone, Debug)]
pub struct HexGrid {
    spec: GridSpec,
    ncols: u16,
    nrows: u16,
    neighbours: Vec<[u16; 6]>,
    /// Axial coordinates (q, r) of every hex, for distances without arithmetic on ids.
    axial_of: Vec<(i32, i32)>,
}

/// Axial direction vectors (dq, dr) for flat-topped grids, clockwise from "toward lower rows".
const FLAT_DIRS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];
/// Axial direction vectors (dq, dr) for pointy-topped grids, clockwise from upper right.
const POINTY_DIRS: [(i32, i32); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

impl HexGrid {
    /// Builds a grid; fails if the rectangle is empty or too large for 16-bit indices.
    pub fn new(spec: GridSpec) -> Result<HexGrid, String> {
        if spec.cols[1] < spec.cols[0] || spec.rows[1] < spec.rows[0] {
            return Err("grid: the last column/row is before the first".into());
        }
        let ncols = spec.cols[1] - spec.cols[0] + 1;
        let nrows = spec.rows[1] - spec.rows[0] + 1;
        if (ncols as u32) * (nrows as u32) >= NO_HEX as u32 {
            return Err("grid: too many hexes".into());
        }
        if let IdFormat::Sheets {
            letters,
            cols_per_sheet,
        } = &spec.id_format
        {
            if *cols_per_sheet == 0 || letters.is_empty() {
                return Err("grid: sheets need letters and a column count".into());
            }
        }
        let mut grid = HexGrid {
            spec,
            ncols,
            nrows,
            neighbours: Vec::new(),
            axial_of: Vec::new(),
        };
        let n = grid.len();
        grid.axial_of = (0..n)
            .map(|i| {
                let (c, r) = grid.col_row(Hex(i as u16));
                grid.axial(c as i32, r as i32)
            })
            .collect();
        let mut table = vec![[NO_HEX; 6]; n];
        for (i, entry) in table.iter_mut().enumerate() {
            let (c, r) = grid.col_row(Hex(i as u16));
            let (q, ar) = grid.axial(c as i32, r as i32);
            for (d, slot) in entry.iter_mut().enumerate() {
                let (dq, dr) = grid.dirs()[d];
                let (nc, nr) = grid.offset(q + dq, ar + dr);
                if let Some(h) = grid.hex_at(nc, nr) {
                    *slot = h.0;
                }
            }
        }
        grid.neighbours = table;
        Ok(grid)
    }

    pub fn spec(&self) -> &GridSpec {
        &self.spec
    }

    /// Number of hexes.
    #[inline]
    pub fn len(&self) -> usize {
        self.ncols as usize * self.nrows as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every hex, in index order.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> {
        (0..self.len() as u16).map(Hex)
    }

    fn dirs(&self) -> &'static [(i32, i32); 6] {
        match self.spec.orientation {
            Orientation::Flat => &FLAT_DIRS,
            Orientation::Pointy => &POINTY_DIRS,
        }
    }

    /// Printed (column, row) of a hex.
    #[inline]
    pub fn col_row(&self, h: Hex) -> (u16, u16) {
        let i = h.0;
        (self.spec.cols[0] + i / self.nrows, self.spec.rows[0] + i % self.nrows)
    }

    /// The hex at a printed (column, row), if it is on the grid.
    pub fn hex_at(&self, col: i32, row: i32) -> Option<Hex> {
        let c = col - self.spec.cols[0] as i32;
        let r = row - self.spec.rows[0] as i32;
        if c < 0 || r < 0 || c >= self.ncols as i32 || r >= self.nrows as i32 {
            return None;
        }
        Some(Hex((c * self.nrows as i32 + r) as u16))
    }

    fn is_shifted(&self, line: i32) -> bool {
        let even = line.rem_euclid(2) == 0;
        match self.spec.shifted {
            Shifted::Even => even,
            Shifted::Odd => !even,
        }
    }

    /// Offset (printed) coordinates to axial.
    fn axial(&self, col: i32, row: i32) -> (i32, i32) {
        match self.spec.orientation {
            Orientation::Flat => {
                let lift = if self.is_shifted(0) {
                    (col + 1).div_euclid(2)
                } else {
                    col.div_euclid(2)
                };
                (col, row - lift)
            }
            Orientation::Pointy => {
                let lift = if self.is_shifted(0) {
                    (row + 1).div_euclid(2)
                } else {
                    row.div_euclid(2)
                };
                (col - lift, row)
            }
        }
    }

    /// Axial to offset (printed) coordinates.
    fn offset(&self, q: i32, r: i32) -> (i32, i32) {
        match self.spec.orientation {
            Orientation::Flat => {
                let col = q;
                let lift = if self.is_shifted(0) {
                    (col + 1).div_euclid(2)
                } else {
                    col.div_euclid(2)
                };
                (col, r + lift)
            }
            Orientation::Pointy => {
                let row = r;
                let lift = if self.is_shifted(0) {
                    (row + 1).div_euclid(2)
                } else {
                    row.div_euclid(2)
                };
                (q + lift, row)
            }
        }
    }

    /// The neighbour of `h` in direction `d`, or `None` at the map edge.
    #[inline]
    pub fn neighbour(&self, h: Hex, d: Dir) -> Option<Hex> {
        let n = self.neighbours[h.idx()][d as usize];
        (n != NO_HEX).then_some(Hex(n))
    }

    /// The raw neighbour row of a hex (`NO_HEX` where the map ends).
    #[inline]
    pub fn neighbour_row(&self, h: Hex) -> &[u16; 6] {
        &self.neighbours[h.idx()]
    }

    /// The neighbours of `h` with their directions.
    pub fn neighbours(&self, h: Hex) -> impl Iterator<Item = (Dir, Hex)> + '_ {
        self.neighbours[h.idx()]
            .iter()
            .enumerate()
            .filter(|(_, &n)| n != NO_HEX)
            .map(|(d, &n)| (d as Dir, Hex(n)))
    }

    /// The direction from `a` to its neighbour `b`, if they are adjacent.
    pub fn dir_to(&self, a: Hex, b: Hex) -> Option<Dir> {
        self.neighbours[a.idx()]
            .iter()
            .position(|&n| n == b.0)
            .map(|d| d as Dir)
    }

    /// Whether two hexes share a hexside.
    #[inline]
    pub fn adjacent(&self, a: Hex, b: Hex) -> bool {
        self.dir_to(a, b).is_some()
    }

    /// Cube coordinates of a hex.
    #[inline]
    fn cube(&self, h: Hex) -> (i32, i32, i32) {
        let (q, ar) = self.axial_of[h.idx()];
        (q, ar, -q - ar)
    }

    /// Every hex within `r` hexes of `h` (`h` included), in index order: what filtering
    /// [`Self::hexes`] by [`Self::distance`] gives, looking only at the box around `h`.
    pub fn within(&self, h: Hex, r: u32) -> impl Iterator<Item = Hex> + '_ {
        let (c, row) = self.col_row(h);
        let (c, row, span) = (c as i32, row as i32, r as i32 + 1);
        (c - span..=c + span)
            .flat_map(move |col| (row - span..=row + span).filter_map(move |rr| self.hex_at(col, rr)))
            .filter(move |&x| self.distance(h, x) <= r)
    }

    /// Distance in hexes (the number of hexes moved through to get from `a` to `b`).
    #[inline]
    pub fn distance(&self, a: Hex, b: Hex) -> u32 {
        let (aq, ar, as_) = self.cube(a);
        let (bq, br, bs) = self.cube(b);
        ((aq - bq).abs().max((ar - br).abs()).max((as_ - bs).abs())) as u32
    }

    /// Centre of a hex in a frame where neighbouring centres are 1 apart, x growing with the
    /// column number and y growing with the row number (flip y for maps whose rows grow up).
    pub fn centre(&self, h: Hex) -> (f64, f64) {
        let (c, r) = self.col_row(h);
        let s3 = 3f64.sqrt();
        match self.spec.orientation {
            Orientation::Flat => {
                let half = if self.is_shifted(c as i32) { 0.5 } else { 0.0 };
                (c as f64 * s3 / 2.0, r as f64 + half)
            }
            Orientation::Pointy => {
                let half = if self.is_shifted(r as i32) { 0.5 } else { 0.0 };
                (c as f64 + half, r as f64 * s3 / 2.0)
            }
        }
    }

    /// The hex whose centre is nearest to a point of the [`HexGrid::centre`] frame.
    pub fn hex_near(&self, x: f64, y: f64) -> Option<Hex> {
        // Round to the nearest column/row guess, then pick the nearest centre around it.
        let s3 = 3f64.sqrt();
        let (c0, r0) = match self.spec.orientation {
            Orientation::Flat => ((x / (s3 / 2.0)).round() as i32, y.round() as i32),
            Orientation::Pointy => (x.round() as i32, (y / (s3 / 2.0)).round() as i32),
        };
        let mut best: Option<(f64, Hex)> = None;
        for dc in -1..=1 {
            for dr in -1..=1 {
                if let Some(h) = self.hex_at(c0 + dc, r0 + dr) {
                    let (hx, hy) = self.centre(h);
                    let d = (hx - x).powi(2) + (hy - y).powi(2);
                    if best.is_none_or(|(bd, _)| d < bd) {
                        best = Some((d, h));
                    }
                }
            }
        }
        best.map(|(_, h)| h)
    }

    /// The printed id of a hex.
    pub fn id(&self, h: Hex) -> HexId {
        // Written digit by digit: a legal list of thousands of moves names a hex in each.
        let (c, r) = self.col_row(h);
        let mut s = String::with_capacity(8);
        match &self.spec.id_format {
            IdFormat::Xxyy { digits } => {
                push_padded(&mut s, c, *digits as usize);
                push_padded(&mut s, r, *digits as usize);
            }
            IdFormat::Sheets {
                letters,
                cols_per_sheet,
            } => {
                let sheet = ((c.max(1) - 1) / cols_per_sheet) as usize;
                let local = c - sheet as u16 * cols_per_sheet;
                s.push(letters.chars().nth(sheet).unwrap_or('?'));
                push_padded(&mut s, local, 1);
                s.push('.');
                push_padded(&mut s, r, 2);
            }
        }
        HexId(s)
    }

    /// Reads a printed hex id.
    pub fn parse(&self, text: &str) -> Result<Hex, HexIdError> {
        let t = text.trim();
        let (c, r) = match &self.spec.id_format {
            IdFormat::Xxyy { digits } => {
                let w = *digits as usize;
                if t.len() != 2 * w || !t.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(HexIdError::Malformed(
                        t.to_string(),
                        "digits: column then row, as `0512`",
                    ));
                }
                let c: i32 = t[..w]
                    .parse()
                    .map_err(|_| HexIdError::Malformed(t.to_string(), "`xxyy`"))?;
                let r: i32 = t[w..]
                    .parse()
                    .map_err(|_| HexIdError::Malformed(t.to_string(), "`xxyy`"))?;
                (c, r)
            }
            IdFormat::Sheets {
                letters,
                cols_per_sheet,
            } => {
                const EXPECT: &str = "a sheet letter, column, dot, row, as `A12.34`";
                let mut chars = t.chars();
                let letter = chars
                    .next()
                    .ok_or_else(|| HexIdError::Malformed(t.to_string(), EXPECT))?;
                let sheet = letters
                    .chars()
                    .position(|l| l.eq_ignore_ascii_case(&letter))
                    .ok_or_else(|| HexIdError::Malformed(t.to_string(), EXPECT))?;
                let rest = chars.as_str();
                let (cs, rs) = rest
                    .split_once('.')
                    .ok_or_else(|| HexIdError::Malformed(t.to_string(), EXPECT))?;
                let c: i32 = cs.parse().map_err(|_| HexIdError::Malformed(t.to_string(), EXPECT))?;
                let r: i32 = rs.parse().map_err(|_| HexIdError::Malformed(t.to_string(), EXPECT))?;
                if c < 1 || c > *cols_per_sheet as i32 {
                    return Err(HexIdError::OffMap(t.to_string()));
                }
                (sheet as i32 * *cols_per_sheet as i32 + c, r)
            }
        };
        self.hex_at(c, r).ok_or_else(|| HexIdError::OffMap(t.to_string()))
    }
}

/// A printed hex id such as `0512` or `B1.16`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HexId(pub String);

impl fmt::Display for HexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `n` in decimal, zero-padded to `width` digits (`push_padded(s, 5, 2)` writes `05`).
fn push_padded(s: &mut String, n: u16, width: usize) {
    let mut digits = [0u8; 5];
    let mut len = 0;
    let mut rest = n;
    loop {
        digits[len] = b'0' + (rest % 10) as u8;
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for _ in len..width {
        s.push('0');
    }
    for &d in digits[..len].iter().rev() {
        s.push(d as char);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scs() -> HexGrid {
        HexGrid::new(GridSpec {
            id_format: IdFormat::Sheets {
                letters: "AB".into(),
                cols_per_sheet: 40,
            },
            orientation: Orientation::Flat,
            shifted: Shifted::Even,
            row_direction: RowDirection::Up,
            cols: [1, 80],
            rows: [0, 54],
        })
        .unwrap()
    }

    fn gj() -> HexGrid {
        HexGrid::new(GridSpec {
            id_format: IdFormat::Xxyy { digits: 2 },
            orientation: Orientation::Flat,
            shifted: Shifted::Even,
            row_direction: RowDirection::Down,
            cols: [1, 30],
            rows: [1, 20],
        })
        .unwrap()
    }

    #[test]
    fn ids_round_trip() {
        let g = scs();
        for id in ["A1.00", "A38.16", "B1.16", "B40.54", "A22.05"] {
            let h = g.parse(id).unwrap();
            assert_eq!(g.id(h).0, id);
        }
        assert_eq!(g.parse("b1.16").unwrap(), g.parse("B1.16").unwrap());
        assert!(g.parse("C1.01").is_err());
        assert!(g.parse("A41.01").is_err());
        assert!(g.parse("A1.55").is_err());
        let g = gj();
        let h = g.parse("0512").unwrap();
        assert_eq!(g.id(h).0, "0512");
        assert!(g.parse("512").is_err());
        assert!(g.parse("3101").is_err());
    }

    #[test]
    fn every_hex_reads_back_from_its_id() {
        for g in [scs(), gj()] {
            for h in g.hexes() {
                let id = g.id(h).0;
                assert_eq!(g.parse(&id), Ok(h), "{id}");
            }
        }
        assert_eq!(scs().id(scs().parse("B3.07").unwrap()).0, "B3.07");
    }

    #[test]
    fn gemund_bridge_hexes_are_adjacent() {
        // The Ardennes II bridge at Gemünd joins B22.15 and B23.16 across one hexside, which
        // holds only if even columns sit half a hex higher (toward higher row numbers).
        let g = scs();
        assert!(g.adjacent(g.parse("B22.15").unwrap(), g.parse("B23.16").unwrap()));
        assert!(!g.adjacent(g.parse("B22.15").unwrap(), g.parse("B23.14").unwrap()));
    }

    #[test]
    fn neighbours_match_the_offset_rule() {
        let g = gj();
        // Even column 04: (c±1, r) and (c±1, r+1); odd column 05: (c±1, r-1) and (c±1, r).
        let mut n: Vec<String> = g.neighbours(g.parse("0405").unwrap()).map(|(_, h)| g.id(h).0).collect();
        n.sort();
        assert_eq!(n, ["0305", "0306", "0404", "0406", "0505", "0506"]);
        let mut n: Vec<String> = g.neighbours(g.parse("0505").unwrap()).map(|(_, h)| g.id(h).0).collect();
        n.sort();
        assert_eq!(n, ["0404", "0405", "0504", "0506", "0604", "0605"]);
        // Directions are symmetric.
        for h in g.hexes() {
            for (d, n) in g.neighbours(h) {
                assert_eq!(g.neighbour(n, opposite(d)), Some(h));
            }
        }
        // A corner hex has fewer neighbours.
        assert_eq!(g.neighbours(g.parse("0101").unwrap()).count(), 2);
    }

    #[test]
    fn distance_and_centres() {
        let g = gj();
        let a = g.parse("0405").unwrap();
        assert_eq!(g.distance(a, a), 0);
        for (_, n) in g.neighbours(a) {
            assert_eq!(g.distance(a, n), 1);
            let (ax, ay) = g.centre(a);
            let (nx, ny) = g.centre(n);
            assert!(((ax - nx).powi(2) + (ay - ny).powi(2) - 1.0).abs() < 1e-9);
        }
        assert_eq!(g.distance(g.parse("0101").unwrap(), g.parse("0801").unwrap()), 7);
        assert_eq!(g.distance(g.parse("0101").unwrap(), g.parse("0110").unwrap()), 9);
        for h in g.hexes() {
            let (x, y) = g.centre(h);
            assert_eq!(g.hex_near(x + 0.2, y - 0.1), Some(h));
        }
    }

    #[test]
    fn within_is_the_distance_filter() {
        let pointy = HexGrid::new(GridSpec {
            id_format: IdFormat::Xxyy { digits: 2 },
            orientation: Orientation::Pointy,
            shifted: Shifted::Odd,
            row_direction: RowDirection::Down,
            cols: [1, 12],
            rows: [1, 9],
        })
        .unwrap();
        for g in [scs(), gj(), pointy] {
            for h in g.hexes().step_by(37) {
                for r in [0, 1, 2, 5, 9] {
                    let fast: Vec<Hex> = g.within(h, r).collect();
                    let slow: Vec<Hex> = g.hexes().filter(|&x| g.distance(h, x) <= r).collect();
                    assert_eq!(fast, slow, "{} r {r}", g.id(h).0);
                }
            }
        }
    }

    #[test]
    fn pointy_grids_work_too() {
        let g = HexGrid::new(GridSpec {
            id_format: IdFormat::Xxyy { digits: 2 },
            orientation: Orientation::Pointy,
            shifted: Shifted::Odd,
            row_direction: RowDirection::Down,
            cols: [1, 10],
            rows: [1, 10],
        })
        .unwrap();
        for h in g.hexes() {
            for (d, n) in g.neighbours(h) {
                assert_eq!(g.neighbour(n, opposite(d)), Some(h));
                let (ax, ay) = g.centre(h);
                let (nx, ny) = g.centre(n);
                assert!(((ax - nx).powi(2) + (ay - ny).powi(2) - 1.0).abs() < 1e-9);
            }
        }
        assert_eq!(g.neighbours(g.parse("0505").unwrap()).count(), 6);
    }
}

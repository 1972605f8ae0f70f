//! Geography before it meets the grid: the projection from latitude and longitude to the
//! frame of [`HexGrid::centre`], and the lines and polygons read from the CSV files.

use crate::csv::{num, Table};
use sandtable_core::hex::HexGrid;
use std::path::Path;

/// A point in the frame of `HexGrid::centre` (neighbouring hex centres are 1 apart, x grows
/// east with the column, y grows south with the row).
pub type Pt = (f64, f64);

/// Mean Earth radius (km).
const EARTH_KM: f64 = 6371.0;

/// How latitude and longitude become frame coordinates.
#[derive(Clone, Debug)]
pub enum Proj {
    /// An equirectangular projection around a standard parallel, scaled so that one hex
    /// (centre to centre) is `km_per_hex`, and placed so that `(lat0, lon0)` is the centre of
    /// the grid's first hex (column 1, row 1). Over 10° of latitude the east–west scale errs by
    /// up to ±10 %, which is well below what a 30-km hex can show.
    Equirect {
        lat0: f64,
        lon0: f64,
        /// Frame units per degree of longitude and of latitude.
        kx: f64,
        ky: f64,
        /// Frame position of (lat0, lon0).
        x0: f64,
        y0: f64,
    },
    /// An affine map fitted to places whose hexes are known: the global column
    /// `X = a[0]·lon + a[1]·lat + a[2]` and the row coordinate `Y = b[0]·lon + b[1]·lat + b[2]`
    /// (the row number, plus ½ in the columns the grid shifts), so the frame point is
    /// `(X·√3/2, Y)`.
    Affine { a: [f64; 3], b: [f64; 3] },
}

impl Proj {
    pub fn new(grid: &HexGrid, lat0: f64, lon0: f64, standard_parallel: f64, km_per_hex: f64) -> Proj {
        let km_per_deg = EARTH_KM * std::f64::consts::PI / 180.0;
        let first = grid.hexes().next().expect("the grid has hexes");
        let (x0, y0) = grid.centre(first);
        Proj::Equirect {
            lat0,
            lon0,
            kx: km_per_deg * standard_parallel.to_radians().cos() / km_per_hex,
            ky: km_per_deg / km_per_hex,
            x0,
            y0,
        }
    }

    pub fn to_frame(&self, lat: f64, lon: f64) -> Pt {
        match *self {
            Proj::Equirect {
                lat0,
                lon0,
                kx,
                ky,
                x0,
                y0,
            } => (x0 + (lon - lon0) * kx, y0 + (lat0 - lat) * ky),
            Proj::Affine { a, b } => {
                let x = a[0] * lon + a[1] * lat + a[2];
                let y = b[0] * lon + b[1] * lat + b[2];
                (x * 3f64.sqrt() / 2.0, y)
            }
        }
    }

    /// Back from the frame to (lat, lon).
    pub fn to_geo(&self, p: Pt) -> (f64, f64) {
        match *self {
            Proj::Equirect {
                lat0,
                lon0,
                kx,
                ky,
                x0,
                y0,
            } => (lat0 - (p.1 - y0) / ky, lon0 + (p.0 - x0) / kx),
            Proj::Affine { a, b } => {
                let (x, y) = (p.0 / (3f64.sqrt() / 2.0) - a[2], p.1 - b[2]);
                let det = a[0] * b[1] - a[1] * b[0];
                let lon = (x * b[1] - a[1] * y) / det;
                let lat = (a[0] * y - b[0] * x) / det;
                (lat, lon)
            }
        }
    }
}

/// One point of a line or polygon as the CSV gives it.
#[derive(Clone, Debug)]
pub struct GeoPoint {
    pub label: String,
    pub lat: f64,
    pub lon: f64,
    /// Order along the line (`seq`).
    pub seq: f64,
}

/// A named line (river, railway, road, start line) or polygon ring, points in `seq` order.
#[derive(Clone, Debug)]
pub struct GeoLine {
    pub name: String,
    pub points: Vec<GeoPoint>,
}

impl GeoLine {
    pub fn frame(&self, proj: &Proj) -> Vec<Pt> {
        self.points.iter().map(|p| proj.to_frame(p.lat, p.lon)).collect()
    }
}

/// Reads a file of ordered points: `key,seq,[label,]lat,lon,source,confidence`, one line per
/// distinct key, kept in the order the keys first appear, points sorted by `seq`.
pub fn read_lines(path: &Path, key: &str, label: Option<&str>) -> Result<Vec<GeoLine>, String> {
    let t = Table::read(path)?;
    let (k, seq, lat, lon, src) = (
        t.col(key)?,
        t.col("seq")?,
        t.col("lat")?,
        t.col("lon")?,
        t.col("source")?,
    );
    t.col("confidence")?;
    let lab = match label {
        Some(l) => Some(t.col(l)?),
        None => None,
    };
    let mut lines: Vec<GeoLine> = Vec::new();
    for i in 0..t.rows.len() {
        let r = &t.rows[i];
        let p = GeoPoint {
            label: lab.map(|c| r[c].clone()).unwrap_or_default(),
            lat: num(&t, i, lat)?,
            lon: num(&t, i, lon)?,
            seq: num(&t, i, seq)?,
        };
        if r[src].trim().is_empty() {
            return Err(format!("{}: line {}: no source", t.name, i + 2));
        }
        match lines.iter_mut().find(|l| l.name == r[k]) {
            Some(l) => l.points.push(p),
            None => lines.push(GeoLine {
                name: r[k].clone(),
                points: vec![p],
            }),
        }
    }
    for l in &mut lines {
        l.points.sort_by(|a, b| a.seq.total_cmp(&b.seq));
    }
    Ok(lines)
}

/// A polygon in frame coordinates with its bounding box.
#[derive(Clone, Debug)]
pub struct Polygon {
    pub ring: Vec<Pt>,
    min: Pt,
    max: Pt,
}

impl Polygon {
    pub fn new(ring: Vec<Pt>) -> Polygon {
        let mut min = (f64::INFINITY, f64::INFINITY);
        let mut max = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &(x, y) in &ring {
            min = (min.0.min(x), min.1.min(y));
            max = (max.0.max(x), max.1.max(y));
        }
        Polygon { ring, min, max }
    }

    /// Even–odd rule; the ring is closed implicitly.
    pub fn contains(&self, p: Pt) -> bool {
        if p.0 < self.min.0 || p.0 > self.max.0 || p.1 < self.min.1 || p.1 > self.max.1 {
            return false;
        }
        let mut inside = false;
        let n = self.ring.len();
        let mut j = n - 1;
        for i in 0..n {
            let (xi, yi) = self.ring[i];
            let (xj, yj) = self.ring[j];
            if (yi > p.1) != (yj > p.1) && p.0 < (xj - xi) * (p.1 - yi) / (yj - yi) + xi {
                inside = !inside;
            }
            j = i;
        }
        inside
    }
}

fn cross(o: Pt, a: Pt, b: Pt) -> f64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

/// Where segment `p–q` properly crosses segment `a–b`: the parameter along `p–q` (0 at `p`), or
/// `None` if they do not cross. Touching counts as crossing from the side where `p` is, so a
/// polyline through a segment end is counted once.
pub fn crossing(p: Pt, q: Pt, a: Pt, b: Pt) -> Option<f64> {
    let d1 = cross(a, b, p);
    let d2 = cross(a, b, q);
    let d3 = cross(p, q, a);
    let d4 = cross(p, q, b);
    let opposite = |u: f64, v: f64| (u > 0.0 && v <= 0.0) || (u < 0.0 && v >= 0.0);
    if opposite(d1, d2) && opposite(d3, d4) {
        Some(d1 / (d1 - d2))
    } else {
        None
    }
}

/// Distance from `p` to the segment `a–b`.
pub fn seg_dist(p: Pt, a: Pt, b: Pt) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    let (cx, cy) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt()
}

/// The point of the segment `a–b` nearest `p`, as the parameter along it (0 at `a`, 1 at `b`).
fn seg_param(p: Pt, a: Pt, b: Pt) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    }
}

/// How far along a polyline (the length from its first point) lies the point of the line
/// nearest `p`.
pub fn along(line: &[Pt], p: Pt) -> f64 {
    let mut best = (f64::INFINITY, 0.0);
    let mut start = 0.0;
    for w in line.windows(2) {
        let len = ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt();
        let t = seg_param(p, w[0], w[1]);
        let d = seg_dist(p, w[0], w[1]);
        if d < best.0 {
            best = (d, start + t * len);
        }
        start += len;
    }
    best.1
}

/// The part of a polyline between two distances along it ([`along`]), from `from` to `to` (the
/// points run backwards when `to` is before `from`).
pub fn part(line: &[Pt], from: f64, to: f64) -> Vec<Pt> {
    let (lo, hi) = (from.min(to), from.max(to));
    let at = |s: f64| -> Pt {
        let mut start = 0.0;
        for w in line.windows(2) {
            let len = ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt();
            if s <= start + len || len == 0.0 {
                let t = if len == 0.0 {
                    0.0
                } else {
                    ((s - start) / len).clamp(0.0, 1.0)
                };
                return (w[0].0 + t * (w[1].0 - w[0].0), w[0].1 + t * (w[1].1 - w[0].1));
            }
            start += len;
        }
        *line.last().expect("a line has points")
    };
    let mut out = vec![at(lo)];
    let mut start = 0.0;
    for w in line.windows(2) {
        start += ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt();
        if start > lo && start < hi {
            out.push(w[1]);
        }
    }
    out.push(at(hi));
    if to < from {
        out.reverse();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_affine_projection_goes_both_ways() {
        let p = Proj::Affine {
            a: [47.4638, -0.3089, -215.126],
            b: [0.2914, 64.3590, -3203.537],
        };
        let (x, y) = p.to_frame(50.00347, 5.71844);
        // Bastogne, B1.16: global column 41, row 16 (odd column, no half-hex shift).
        assert!((x / (3f64.sqrt() / 2.0) - 41.0).abs() < 0.5 && (y - 16.0).abs() < 0.5);
        let (lat, lon) = p.to_geo((x, y));
        assert!((lat - 50.00347).abs() < 1e-9 && (lon - 5.71844).abs() < 1e-9);
    }

    #[test]
    fn polygon_and_crossing() {
        let sq = Polygon::new(vec![(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]);
        assert!(sq.contains((1.0, 1.0)));
        assert!(!sq.contains((3.0, 1.0)));
        let t = crossing((0.0, 1.0), (2.0, 1.0), (1.0, 0.0), (1.0, 2.0)).unwrap();
        assert!((t - 0.5).abs() < 1e-12);
        assert!(crossing((0.0, 1.0), (0.5, 1.0), (1.0, 0.0), (1.0, 2.0)).is_none());
        assert!((seg_dist((1.0, 1.0), (0.0, 0.0), (2.0, 0.0)) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_part_of_a_polyline_between_two_points_near_it() {
        let line = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0)];
        assert!((along(&line, (1.0, 0.5)) - 1.0).abs() < 1e-12);
        assert!((along(&line, (2.5, 1.5)) - 3.5).abs() < 1e-12);
        assert_eq!(part(&line, 1.0, 3.0), vec![(1.0, 0.0), (2.0, 0.0), (2.0, 1.0)]);
        assert_eq!(part(&line, 3.0, 1.0), vec![(2.0, 1.0), (2.0, 0.0), (1.0, 0.0)]);
    }
}

//! Putting geography on the hex grid. All hex geometry comes from the core's [`HexGrid`]:
//! ids, neighbours, centres, distances and `hex_near` (which hex a point falls in).
//!
//! The map grid is paired with a second grid one hex larger on every side. Its hexes have the
//! same printed columns and rows, so the same centres, and the ring of extra hexes says where
//! the map ends: a point is on the map when the nearest centre of the larger grid belongs to a
//! hex of the map. Rivers are traced on the larger grid too, so that a river entering the map
//! from outside gets its first hexside right.

use crate::geo::{crossing, seg_dist, Proj, Pt};
use sandtable_core::hex::{GridSpec, Hex, HexGrid};
use std::collections::{BinaryHeap, HashSet};

/// The map grid, the larger grid around it, and the projection.
pub struct World {
    pub grid: HexGrid,
    ext: HexGrid,
    /// How many rows higher the larger grid numbers a hex than the map does. Printed row
    /// numbers cannot go below 0, so a map whose rows start at 0 is numbered 2 rows up in the
    /// larger grid (an even shift keeps every hex's neighbours); frame points are moved by the
    /// same amount on the way in and out. For a map whose rows start at 1 or more it is 0.
    dr: u16,
    pub proj: Proj,
}

/// A hexside as the pair of hexes it separates, the smaller index first.
pub type Side = (Hex, Hex);

pub fn side(a: Hex, b: Hex) -> Side {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

impl World {
    pub fn new(spec: GridSpec, proj: impl Fn(&HexGrid) -> Proj) -> Result<World, String> {
        let grid = HexGrid::new(spec.clone())?;
        if spec.cols[0] == 0 {
            return Err("mapgen: the first column must be 1 or more".into());
        }
        let dr = if spec.rows[0] == 0 { 2 } else { 0 };
        let mut ext_spec = spec;
        ext_spec.cols = [ext_spec.cols[0] - 1, ext_spec.cols[1] + 1];
        ext_spec.rows = [ext_spec.rows[0] + dr - 1, ext_spec.rows[1] + dr + 1];
        let ext = HexGrid::new(ext_spec)?;
        let proj = proj(&grid);
        Ok(World { grid, ext, dr, proj })
    }

    fn to_map(&self, e: Hex) -> Option<Hex> {
        let (c, r) = self.ext.col_row(e);
        self.grid.hex_at(c as i32, r as i32 - self.dr as i32)
    }

    fn to_ext(&self, h: Hex) -> Hex {
        let (c, r) = self.grid.col_row(h);
        self.ext
            .hex_at(c as i32, (r + self.dr) as i32)
            .expect("the larger grid holds every map hex")
    }

    /// The hex of the larger grid nearest to a frame point.
    fn ext_near(&self, p: Pt) -> Option<Hex> {
        if self.dr == 0 {
            self.ext.hex_near(p.0, p.1)
        } else {
            self.ext.hex_near(p.0, p.1 + self.dr as f64)
        }
    }

    /// The frame centre of a hex of the larger grid.
    fn ext_centre(&self, e: Hex) -> Pt {
        let (x, y) = self.ext.centre(e);
        if self.dr == 0 {
            (x, y)
        } else {
            (x, y - self.dr as f64)
        }
    }

    /// The map hex a point falls in, or `None` off the map.
    pub fn hex_at(&self, p: Pt) -> Option<Hex> {
        self.ext_near(p).and_then(|e| self.to_map(e))
    }

    pub fn hex_at_geo(&self, lat: f64, lon: f64) -> Option<Hex> {
        self.hex_at(self.proj.to_frame(lat, lon))
    }

    pub fn centre(&self, h: Hex) -> Pt {
        self.grid.centre(h)
    }

    /// Latitude and longitude of a hex centre.
    pub fn geo(&self, h: Hex) -> (f64, f64) {
        self.proj.to_geo(self.grid.centre(h))
    }

    /// Whether a hex is on the edge of the map (has fewer than six neighbours).
    pub fn on_edge(&self, h: Hex) -> bool {
        self.grid.neighbours(h).count() < 6
    }

    /// Sample points spread evenly over each map hex (its cell: the points nearer its centre
    /// than any other), `step` apart. Used to measure how much of a hex a polygon covers.
    pub fn cell_samples(&self, step: f64) -> Vec<Vec<Pt>> {
        let mut out = vec![Vec::new(); self.grid.len()];
        for h in self.grid.hexes() {
            let (cx, cy) = self.grid.centre(h);
            let e = self.to_ext(h);
            let n = (0.6 / step).ceil() as i32;
            for i in -n..=n {
                for j in -n..=n {
                    let p = (cx + i as f64 * step + step * 0.37, cy + j as f64 * step + step * 0.21);
                    if self.ext_near(p) == Some(e) {
                        out[h.idx()].push(p);
                    }
                }
            }
        }
        out
    }

    /// The hexsides a polyline crosses, in order along it, as a connected chain.
    ///
    /// A hexside is crossed when the polyline crosses the segment joining the two hex centres.
    /// Those segments cut the plane into triangles, one around each hex corner; a polyline that
    /// enters a triangle through one segment and leaves through another has crossed two hexsides
    /// that meet at that corner, so the crossings taken in order form a chain of hexsides joined
    /// end to end. Where the polyline goes out and back through the same segment, the two
    /// crossings cancel (it never left that side of the hexside). The chain never passes
    /// through a hex centre. Hexsides off the map are dropped, which may split the chain where
    /// the line leaves the map and comes back.
    pub fn side_chain(&self, line: &[Pt]) -> Vec<Side> {
        // A tiny shift keeps polyline points off centre-to-centre segments.
        let line: Vec<Pt> = line.iter().map(|&(x, y)| (x + 1.3e-7, y + 0.7e-7)).collect();
        let mut stack: Vec<Side> = Vec::new();
        for w in line.windows(2) {
            let (p, q) = (w[0], w[1]);
            let len = ((q.0 - p.0).powi(2) + (q.1 - p.1).powi(2)).sqrt();
            let steps = (len / 0.2).ceil().max(1.0) as usize;
            let mut near: HashSet<Hex> = HashSet::new();
            for s in 0..=steps {
                let t = s as f64 / steps as f64;
                if let Some(e) = self.ext_near((p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1))) {
                    near.insert(e);
                    near.extend(self.ext.neighbours(e).map(|(_, n)| n));
                }
            }
            let mut hits: Vec<(f64, Side)> = Vec::new();
            for &a in &near {
                for (_, b) in self.ext.neighbours(a) {
                    if a < b && near.contains(&b) {
                        if let Some(t) = crossing(p, q, self.ext_centre(a), self.ext_centre(b)) {
                            hits.push((t, (a, b)));
                        }
                    }
                }
            }
            hits.sort_by(|x, y| x.0.total_cmp(&y.0));
            for (_, s) in hits {
                if stack.last() == Some(&s) {
                    stack.pop();
                } else {
                    stack.push(s);
                }
            }
        }
        let mut seen = HashSet::new();
        stack
            .into_iter()
            .filter_map(|(a, b)| Some(side(self.to_map(a)?, self.to_map(b)?)))
            .filter(|s| seen.insert(*s))
            .collect()
    }

    /// Splits a polyline into the parts that lie on the map, each as the list of map hexes to
    /// visit in order: where the part enters or leaves the map, the edge hex there, and the
    /// hex of every point of the polyline on the map.
    pub fn waypoints(&self, line: &[Pt]) -> Vec<Vec<Hex>> {
        let mut runs: Vec<Vec<Hex>> = Vec::new();
        let mut current: Vec<Hex> = Vec::new();
        let push = |run: &mut Vec<Hex>, h: Hex| {
            if run.last() != Some(&h) {
                run.push(h);
            }
        };
        if let Some(&p0) = line.first() {
            if let Some(h) = self.hex_at(p0) {
                push(&mut current, h);
            }
        }
        for w in line.windows(2) {
            let (p, q) = (w[0], w[1]);
            let len = ((q.0 - p.0).powi(2) + (q.1 - p.1).powi(2)).sqrt();
            let steps = (len / 0.05).ceil().max(1.0) as usize;
            let mut last = self.hex_at(p);
            for s in 1..=steps {
                let t = s as f64 / steps as f64;
                let here = self.hex_at((p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1)));
                match (last, here) {
                    (None, Some(h)) => push(&mut current, h),
                    (Some(h), None) => {
                        push(&mut current, h);
                        runs.push(std::mem::take(&mut current));
                    }
                    _ => {}
                }
                last = here;
            }
            if let Some(h) = self.hex_at(q) {
                push(&mut current, h);
            }
        }
        if !current.is_empty() {
            runs.push(current);
        }
        runs.retain(|r| !r.is_empty());
        runs
    }

    /// A path of adjacent hexes from `a` to `b`: among the shortest ones, the one whose hex
    /// centres stay closest to the straight segment between the two centres, taking only the
    /// steps `ok` allows (`ok(from, to)`); `None` if those steps do not lead from `a` to `b`.
    pub fn hex_path(&self, a: Hex, b: Hex, ok: &dyn Fn(Hex, Hex) -> bool) -> Option<Vec<Hex>> {
        let (pa, pb) = (self.grid.centre(a), self.grid.centre(b));
        let n = self.grid.len();
        let mut dist = vec![f64::INFINITY; n];
        let mut prev = vec![u16::MAX; n];
        let mut heap = BinaryHeap::new();
        dist[a.idx()] = 0.0;
        heap.push(Node(0.0, a));
        while let Some(Node(d, h)) = heap.pop() {
            if h == b {
                break;
            }
            if d > dist[h.idx()] {
                continue;
            }
            for (_, nb) in self.grid.neighbours(h) {
                if !ok(h, nb) {
                    continue;
                }
                let dev = seg_dist(self.grid.centre(nb), pa, pb);
                let cost = 1.0 + 0.01 * dev;
                let nd = d + cost;
                if nd < dist[nb.idx()] {
                    dist[nb.idx()] = nd;
                    prev[nb.idx()] = h.0;
                    heap.push(Node(nd, nb));
                }
            }
        }
        if a != b && prev[b.idx()] == u16::MAX {
            return None;
        }
        let mut path = vec![b];
        let mut h = b;
        while h != a {
            h = Hex(prev[h.idx()]);
            path.push(h);
        }
        path.reverse();
        Some(path)
    }

    /// Joins waypoints into one path of adjacent hexes, taking only the steps `ok` allows; a
    /// hex visited twice cuts out the loop between the two visits. `Err` names the two
    /// waypoints no allowed steps join.
    pub fn route(&self, waypoints: &[Hex], ok: &dyn Fn(Hex, Hex) -> bool) -> Result<Vec<Hex>, (Hex, Hex)> {
        let mut path: Vec<Hex> = Vec::new();
        for (i, &w) in waypoints.iter().enumerate() {
            let leg = if i == 0 {
                vec![w]
            } else {
                let from = waypoints[i - 1];
                self.hex_path(from, w, ok).ok_or((from, w))?
            };
            for h in leg {
                if let Some(pos) = path.iter().position(|&x| x == h) {
                    path.truncate(pos + 1);
                } else {
                    path.push(h);
                }
            }
        }
        Ok(path)
    }

    /// The corners of a hex, for drawing: each is the centroid of the hex and two neighbours
    /// that are neighbours of each other (the three hexes meet there).
    pub fn corners(&self, h: Hex) -> Vec<Pt> {
        let e = self.to_ext(h);
        let c = self.ext_centre(e);
        (0..6u8)
            .filter_map(|d| {
                let a = self.ext_centre(self.ext.neighbour(e, d)?);
                let b = self.ext_centre(self.ext.neighbour(e, (d + 1) % 6)?);
                Some(((c.0 + a.0 + b.0) / 3.0, (c.1 + a.1 + b.1) / 3.0))
            })
            .collect()
    }

    /// The two ends of a hexside, for drawing (the corners the two hexes share).
    pub fn side_ends(&self, s: Side) -> Option<(Pt, Pt)> {
        let (a, b) = (self.to_ext(s.0), self.to_ext(s.1));
        let (ca, cb) = (self.ext_centre(a), self.ext_centre(b));
        let ends: Vec<Pt> = self
            .ext
            .neighbours(a)
            .filter(|(_, n)| self.ext.adjacent(*n, b))
            .map(|(_, n)| {
                let c = self.ext_centre(n);
                ((ca.0 + cb.0 + c.0) / 3.0, (ca.1 + cb.1 + c.1) / 3.0)
            })
            .collect();
        (ends.len() == 2).then(|| (ends[0], ends[1]))
    }

    /// Whether two hexsides meet at a hex corner (share one hex, and their other hexes are
    /// neighbours).
    pub fn sides_touch(&self, s: Side, t: Side) -> bool {
        let shared = [
            (s.0, t.0, s.1, t.1),
            (s.0, t.1, s.1, t.0),
            (s.1, t.0, s.0, t.1),
            (s.1, t.1, s.0, t.0),
        ];
        shared.iter().any(|&(x, y, u, v)| x == y && self.grid.adjacent(u, v))
    }

    /// How many separate chains a set of hexsides forms.
    pub fn chain_parts(&self, sides: &[Side]) -> usize {
        let n = sides.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(p: &mut [usize], i: usize) -> usize {
            let mut i = i;
            while p[i] != i {
                p[i] = p[p[i]];
                i = p[i];
            }
            i
        }
        for i in 0..n {
            for j in i + 1..n {
                if self.sides_touch(sides[i], sides[j]) {
                    let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                    parent[a] = b;
                }
            }
        }
        (0..n).filter(|&i| find(&mut parent, i) == i).count()
    }
}

#[derive(PartialEq)]
struct Node(f64, Hex);
impl Eq for Node {}
impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Node {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.0.total_cmp(&self.0).then_with(|| other.1.cmp(&self.1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::hex::{IdFormat, Orientation, RowDirection, Shifted};

    fn world() -> World {
        let spec = GridSpec {
            id_format: IdFormat::Xxyy { digits: 2 },
            orientation: Orientation::Flat,
            shifted: Shifted::Even,
            row_direction: RowDirection::Down,
            cols: [1, 20],
            rows: [1, 15],
        };
        World::new(spec, |g| Proj::new(g, 50.0, 30.0, 50.0, 30.0)).unwrap()
    }

    #[test]
    fn a_straight_river_gets_a_continuous_chain_of_hexsides() {
        let w = world();
        for line in [
            vec![(0.3, 7.3), (18.2, 7.9)],
            vec![(2.1, 1.2), (15.7, 13.4)],
            vec![(8.0, -1.0), (8.4, 17.0)],
            vec![(3.0, 3.0), (9.0, 3.5), (9.5, 11.0), (16.0, 12.0)],
        ] {
            let sides = w.side_chain(&line);
            assert!(sides.len() > 5);
            assert_eq!(w.chain_parts(&sides), 1, "{line:?}");
            for (i, s) in sides.iter().enumerate() {
                assert!(w.grid.adjacent(s.0, s.1));
                if i > 0 {
                    assert!(w.sides_touch(sides[i - 1], *s), "consecutive hexsides meet at a corner");
                }
                // The two hexes lie on opposite sides of the line.
                let (a, b) = (w.centre(s.0), w.centre(s.1));
                assert!(line.windows(2).any(|p| crossing(p[0], p[1], a, b).is_some()));
            }
        }
    }

    #[test]
    fn a_line_there_and_back_crosses_nothing() {
        let w = world();
        assert!(w.side_chain(&[(3.0, 3.2), (9.0, 4.1), (3.0, 3.2)]).is_empty());
    }

    #[test]
    fn a_path_is_made_of_adjacent_hexes_and_is_shortest() {
        let w = world();
        let a = w.grid.parse("0203").unwrap();
        let b = w.grid.parse("1712").unwrap();
        let p = w.hex_path(a, b, &|_, _| true).unwrap();
        assert_eq!(p.first(), Some(&a));
        assert_eq!(p.last(), Some(&b));
        assert_eq!(p.len() as u32, w.grid.distance(a, b) + 1);
        assert!(p.windows(2).all(|x| w.grid.adjacent(x[0], x[1])));
        // Going around a wall of bad hexes still gives adjacent hexes.
        let wall: HashSet<Hex> = (1..=12).filter_map(|r| w.grid.hex_at(9, r)).collect();
        let p = w.hex_path(a, b, &|_, to| !wall.contains(&to)).unwrap();
        assert!(p.windows(2).all(|x| w.grid.adjacent(x[0], x[1])));
        assert!(p.iter().all(|h| !wall.contains(h)));
        // A wall right across the map: no way through.
        let across: HashSet<Hex> = (1..=15).filter_map(|r| w.grid.hex_at(9, r)).collect();
        assert_eq!(w.hex_path(a, b, &|_, to| !across.contains(&to)), None);
        assert_eq!(w.route(&[a, b], &|_, to| !across.contains(&to)), Err((a, b)));
    }

    #[test]
    fn points_off_the_map_split_a_line_at_the_edge() {
        let w = world();
        let runs = w.waypoints(&[(-3.0, 5.0), (5.0, 5.0), (10.0, 5.0)]);
        assert_eq!(runs.len(), 1);
        assert!(w.on_edge(runs[0][0]));
        let runs = w.waypoints(&[(5.0, 5.0), (5.0, -4.0), (9.0, -4.0), (9.0, 5.0)]);
        assert_eq!(runs.len(), 2);
    }
}

//! Everything fixed for a game: the data files and the map, with the names the rules ask
//! about turned into bit masks once.

use crate::data::{Data, DataError};
use crate::sequence::Side;
use sandtable_core::hex::{Dir, Hex, NO_HEX};
use sandtable_core::map::HexMap;
use std::sync::{Arc, OnceLock};

pub const MAP_TOML: &str = include_str!("../data/map.toml");
/// The map of data editions 1 and 2 (before the 1944 secondary road net), kept for the games
/// begun on them.
pub const EDITION_2_MAP_TOML: &str = include_str!("../data/edition-2/map.toml");

/// Hex terrain bits of the map.
#[derive(Clone, Copy, Debug, Default)]
pub struct Terrain {
    pub open: u32,
    pub woods: u32,
    pub forest: u32,
    pub marsh: u32,
    pub slope: u32,
    pub west_wall: u32,
    pub traffic_jam: u32,
    pub city: u32,
    pub village: u32,
}

/// Hexside bits of the map.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sides {
    pub meuse: u32,
    pub river: u32,
    pub stream: u32,
    pub bridge: u32,
    pub road: u32,
    pub track: u32,
    /// `built-bridge-turn-N` for N = index (3.8).
    pub built: [u32; 17],
    /// Any German-built bridge.
    pub any_built: u32,
    pub demolition: u32,
}

/// The data and the map, shared by every copy of a game.
#[derive(Debug)]
pub struct World {
    /// Distinct for every world made in this process (a memo built on one world is never
    /// read on another, see [`crate::memo`]).
    pub id: u64,
    pub data: Data,
    pub map: HexMap,
    pub t: Terrain,
    pub s: Sides,
    /// Per hex: the TEC names of its terrain, for the table lookups.
    pub terrain_names: Vec<Vec<&'static str>>,
    /// VP per hex (0 for none).
    pub vp: Vec<u8>,
    /// Hexes on each side's friendly map edges (1.3), as the map's hex sets give them.
    pub edge: [Vec<bool>; 2],
    /// The TEC worked out per hex and hexside once, for the movement searches.
    pub costs: Costs,
    /// 3.8: the demolition symbols, each with the bridges (hexsides as hex pairs) it serves.
    pub demolitions: Vec<(Hex, Vec<(Hex, Hex)>)>,
    /// 3.8: per hex and direction, the demolition symbol serving that bridge, if any.
    pub side_symbol: Vec<[Option<u16>; 6]>,
    /// 4.2: the hexsides of the Our (both directions).
    pub our: Vec<[bool; 6]>,
    /// 3.1: the hexes of the entry areas (the map's hex sets named `entry-…`), where
    /// divisional integrity does not apply.
    pub entry: Vec<bool>,
    /// 1.3: the road link of every hexside ([`crate::rules::Board::link`]'s code) with every
    /// bridge standing; the rules take out the bridges that do not stand (3.8).
    pub links: Vec<[u8; 6]>,
    /// 1.3, 3.8: the hexsides whose road crosses water, where the link needs a bridge.
    pub bridged: Vec<(Hex, Dir)>,
    /// 1.3: the steps along road or track ([`World::links`]), with every bridge standing.
    pub road_steps: Steps,
    /// Per side, its units in counter order, and of them the artillery (the units with a
    /// range, 3.5).
    pub side_units: [Vec<crate::state::UnitId>; 2],
    pub artillery: [Vec<crate::state::UnitId>; 2],
    /// Per side, in counter order, its units of the artillery types, which bug out (3.6).
    pub bug_out_guns: [Vec<crate::state::UnitId>; 2],
    /// 3.8: per demolition symbol (as [`World::demolitions`] lists them), the hexes within
    /// the US unit range of it ([`within`]).
    pub demolition_range: Vec<Box<[Hex]>>,
    /// 3.5: per hex, the hexes within observer range of it ([`within`]), each worked out the
    /// first time it is asked for ([`World::observer_disk`]).
    observer_disks: Vec<OnceLock<Box<[Hex]>>>,
}

/// TEC costs in half MP, indexed `[side][movement]` (movement 0 foot, 1 mech), per hex or per
/// hexside; `None` for prohibited. Traffic jams are left out: the rules add them by turn.
#[derive(Debug, Default)]
pub struct Costs {
    /// Entering the hex off road: its dearest terrain (1.3 (a)).
    pub hex: [[Vec<Option<u16>>; 2]; 2],
    /// Crossing the hexside off road: what its features add.
    pub side: [Vec<[Option<u16>; 6]>; 2],
    /// Along a Road and along a Track, per movement type.
    pub road: [[u16; 2]; 2],
    /// 3.7: per side, the steps a supply trace may take off road: into a neighbour foot units
    /// may enter, across a hexside they may cross.
    pub foot_steps: [Steps; 2],
}

/// The hexes within `r` of `h` in the map's order, as [`HexGrid::within`] gives them: column
/// by column, each column's run of rows found from its two ends (in a column the hexes within
/// a distance lie in one run), so that only the ends are measured (3.5's ranges).
///
/// [`HexGrid::within`]: sandtable_core::hex::HexGrid::within
pub fn within(grid: &sandtable_core::hex::HexGrid, h: Hex, r: u32) -> impl Iterator<Item = Hex> + '_ {
    let (c, row) = grid.col_row(h);
    let (c, row, span) = (c as i32, row as i32, r as i32 + 1);
    (c - span + 1..=c + span - 1).flat_map(move |col| {
        let near = |rr: i32| grid.hex_at(col, rr).is_some_and(|x| grid.distance(h, x) <= r);
        let (mut lo, mut hi) = (row - span, row + span);
        while lo <= hi && !near(lo) {
            lo += 1;
        }
        while hi >= lo && !near(hi) {
            hi -= 1;
        }
        (lo..=hi).filter_map(move |rr| grid.hex_at(col, rr))
    })
}

/// A set of hexes as bits: hex `i` is bit `i % 64` of word `i / 64`.
pub type Bits = Vec<u64>;

/// Steps between neighbours grouped by how far they move in the map's order of hexes: per
/// distinct offset `k`, the hexes `f` from which a step leads to hex `f + k` (a flood over
/// [`Bits`] moves a whole set of hexes one step per offset).
pub type Steps = Vec<(isize, Bits)>;

/// The steps from each hex `f` toward each direction `d` for which `open(f, d)` holds, the
/// neighbour there on the map.
pub fn steps(grid: &sandtable_core::hex::HexGrid, open: impl Fn(usize, usize) -> bool) -> Steps {
    let n = grid.len();
    let mut out: Steps = Vec::new();
    for f in 0..n {
        for (d, &t) in grid.neighbour_row(Hex(f as u16)).iter().enumerate() {
            if t == NO_HEX || !open(f, d) {
                continue;
            }
            let k = t as isize - f as isize;
            let i = match out.iter().position(|(o, _)| *o == k) {
                Some(i) => i,
                None => {
                    out.push((k, vec![0; n.div_ceil(64)]));
                    out.len() - 1
                }
            };
            out[i].1[f / 64] |= 1 << (f % 64);
        }
    }
    out
}

const TERRAIN_NAMES: [&str; 9] = [
    "open",
    "woods",
    "forest",
    "marsh",
    "slope",
    "west-wall",
    "traffic-jam",
    "city",
    "village",
];

impl World {
    /// 3.5: the hexes within observer range of `h`, in hex order ([`within`]): worked out the
    /// first time, then kept.
    pub(crate) fn observer_disk(&self, h: Hex) -> &[Hex] {
        let range = self.data.tables.barrage.observer_range as u32;
        match self.observer_disks.get(h.idx()) {
            Some(disk) => disk.get_or_init(|| within(&self.map.grid, h, range).collect()),
            None => &[],
        }
    }

    /// The shipped data and map, loaded once per process.
    pub fn shipped() -> Result<Arc<World>, String> {
        static WORLD: OnceLock<Result<Arc<World>, String>> = OnceLock::new();
        WORLD
            .get_or_init(|| {
                let data = Data::load().map_err(|e: DataError| e.to_string())?;
                World::new(data, MAP_TOML).map(Arc::new)
            })
            .clone()
    }

    /// The world of data edition `edition`: today's (3) for 3, the map of edition 2 for games
    /// begun on editions 1 and 2 (the rest of the data is today's); each loaded once per process.
    pub fn for_edition(edition: u8) -> Result<Arc<World>, String> {
        static EDITION_2: OnceLock<Result<Arc<World>, String>> = OnceLock::new();
        if edition >= 3 {
            return World::shipped();
        }
        EDITION_2
            .get_or_init(|| {
                let data = Data::load().map_err(|e: DataError| e.to_string())?;
                World::new(data, EDITION_2_MAP_TOML)
                    .map(Arc::new)
                    .map_err(|e| format!("data/edition-2/map.toml: {e}"))
            })
            .clone()
    }

    /// A world from loaded data and a map file's text.
    pub fn new(data: Data, map_text: &str) -> Result<World, String> {
        let map = HexMap::from_toml(map_text).map_err(|e| e.to_string())?;
        if map.grid.spec() != data.grid.spec() {
            return Err("map.toml: its grid is not the grid of the data files (SCS A/B sheets)".into());
        }
        let tm = |n: &str| map.terrain_mask(n);
        let t = Terrain {
            open: tm("open"),
            woods: tm("woods"),
            forest: tm("forest"),
            marsh: tm("marsh"),
            slope: tm("slope"),
            west_wall: tm("west-wall"),
            traffic_jam: tm("traffic-jam"),
            city: tm("city"),
            village: tm("village"),
        };
        let sm = |n: &str| map.side_mask(n);
        let mut built = [0u32; 17];
        for (turn, b) in built.iter_mut().enumerate() {
            *b = sm(&format!("built-bridge-turn-{turn}"));
        }
        let s = Sides {
            meuse: sm("meuse"),
            river: sm("river"),
            stream: sm("stream"),
            bridge: sm("bridge"),
            road: sm("road"),
            track: sm("track"),
            any_built: built.iter().fold(0, |a, b| a | b),
            built,
            demolition: sm("demolition"),
        };
        let n = map.grid.len();
        let terrain_names = (0..n)
            .map(|i| {
                let bits = map.terrain(Hex(i as u16));
                TERRAIN_NAMES
                    .iter()
                    .copied()
                    .filter(|name| bits & map.terrain_mask(name) != 0)
                    .collect()
            })
            .collect();
        let mut vp = vec![0u8; n];
        for v in &data.tables.vp_hexes {
            vp[v.hex.idx()] = v.vp;
        }
        let set = |name: &str| {
            let mut on = vec![false; n];
            for h in map.hex_sets.get(name).into_iter().flatten() {
                on[h.idx()] = true;
            }
            on
        };
        let edge = [set("supply-german"), set("supply-allied")];
        let mut entry = vec![false; n];
        for (_, hexes) in map.hex_sets.iter().filter(|(name, _)| name.starts_with("entry-")) {
            for h in hexes {
                entry[h.idx()] = true;
            }
        }
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut w = World {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            data,
            map,
            t,
            s,
            terrain_names,
            vp,
            edge,
            costs: Costs::default(),
            demolitions: Vec::new(),
            side_symbol: Vec::new(),
            our: Vec::new(),
            entry,
            links: Vec::new(),
            bridged: Vec::new(),
            road_steps: Vec::new(),
            side_units: [Vec::new(), Vec::new()],
            artillery: [Vec::new(), Vec::new()],
            bug_out_guns: [Vec::new(), Vec::new()],
            observer_disks: Vec::new(),
            demolition_range: Vec::new(),
        };
        w.observer_disks = (0..w.map.grid.len()).map(|_| OnceLock::new()).collect();
        w.costs = w.work_out_costs();
        let mut side_symbol = vec![[None; 6]; n];
        for line in w.map.side_lines.iter().filter(|l| l.kind == "demolition") {
            let symbol = w
                .map
                .grid
                .parse(&line.name_en)
                .map_err(|e| format!("map.toml: demolition symbol `{}`: {e}", line.name_en))?;
            let pairs: Vec<(Hex, Hex)> = line
                .hexes
                .chunks(2)
                .filter(|p| p.len() == 2)
                .map(|p| (p[0], p[1]))
                .collect();
            let index = w.demolitions.len() as u16;
            for &(a, b) in &pairs {
                if let (Some(da), Some(db)) = (w.map.grid.dir_to(a, b), w.map.grid.dir_to(b, a)) {
                    side_symbol[a.idx()][da as usize] = Some(index);
                    side_symbol[b.idx()][db as usize] = Some(index);
                }
            }
            w.demolitions.push((symbol, pairs));
        }
        w.side_symbol = side_symbol;
        let range = w.data.tables.bridge_us_unit_range as u32;
        w.demolition_range = w
            .demolitions
            .iter()
            .map(|&(symbol, _)| within(&w.map.grid, symbol, range).collect())
            .collect();
        let mut our = vec![[false; 6]; n];
        for line in w.map.side_lines.iter().filter(|l| l.name_en == "Our") {
            for p in line.hexes.chunks(2).filter(|p| p.len() == 2) {
                if let (Some(da), Some(db)) = (w.map.grid.dir_to(p[0], p[1]), w.map.grid.dir_to(p[1], p[0])) {
                    our[p[0].idx()][da as usize] = true;
                    our[p[1].idx()][db as usize] = true;
                }
            }
        }
        w.our = our;
        (w.links, w.bridged) = w.work_out_links();
        w.road_steps = steps(&w.map.grid, |f, d| w.links[f][d] != crate::rules::NO_LINK);
        for (u, def) in w.data.counters.units.iter().enumerate() {
            let seat = def.side.seat() as usize;
            w.side_units[seat].push(u as crate::state::UnitId);
            if def.range.is_some() {
                w.artillery[seat].push(u as crate::state::UnitId);
            }
            if def.is_artillery() {
                w.bug_out_guns[seat].push(u as crate::state::UnitId);
            }
        }
        Ok(w)
    }

    fn work_out_costs(&self) -> Costs {
        use crate::data::{Movement, SideCost};
        let tec = &self.data.tables.tec;
        let n = self.map.grid.len();
        let movements = [Movement::Foot, Movement::Mech];
        let mut c = Costs::default();
        for side in [Side::German, Side::Allied] {
            for (m, &movement) in movements.iter().enumerate() {
                c.hex[side.seat() as usize][m] = (0..n)
                    .map(|i| {
                        let names: Vec<&str> = self.terrain_names[i]
                            .iter()
                            .copied()
                            .filter(|t| *t != "traffic-jam")
                            .collect();
                        tec.entry_cost(side, movement, &names, &[], None).map(|mp| mp.0)
                    })
                    .collect();
            }
        }
        for (m, &movement) in movements.iter().enumerate() {
            c.side[m] = (0..n)
                .map(|i| {
                    let mut out = [Some(0u16); 6];
                    for (d, slot) in out.iter_mut().enumerate() {
                        for f in self.hexside_names(Hex(i as u16), d as Dir) {
                            let Some(row) = tec.hexside.get(f) else { continue };
                            let cost = match movement {
                                Movement::Foot => row.foot,
                                Movement::Mech => row.mech,
                            };
                            *slot = match (*slot, cost) {
                                (Some(a), SideCost::Add(mp)) => Some(a + mp.0),
                                _ => None,
                            };
                        }
                    }
                    out
                })
                .collect();
            for (r, name) in ["road", "track"].iter().enumerate() {
                c.road[r][m] = tec.road.get(*name).map_or(u16::MAX / 4, |row| match movement {
                    Movement::Foot => row.foot.0,
                    Movement::Mech => row.mech.0,
                });
            }
        }
        for side in [Side::German, Side::Allied] {
            let foot_hex = &c.hex[side.seat() as usize][0];
            let grid = &self.map.grid;
            c.foot_steps[side.seat() as usize] = steps(grid, |f, d| {
                let t = grid.neighbour_row(Hex(f as u16))[d];
                foot_hex[t as usize].is_some() && c.side[0][f][d].is_some()
            });
        }
        c
    }

    /// The road link of every hexside with every bridge standing, and the hexsides whose road
    /// crosses water (1.3, 3.8): see [`World::links`].
    fn work_out_links(&self) -> (Vec<[u8; 6]>, Vec<(Hex, Dir)>) {
        use crate::rules::{NO_LINK, ROAD_LINK, TRACK_LINK};
        let mut bridged = Vec::new();
        let links = self
            .map
            .grid
            .hexes()
            .map(|h| {
                let mut row = [NO_LINK; 6];
                for (d, code) in row.iter_mut().enumerate() {
                    let d = d as Dir;
                    let Some(road) = self.road_across(h, d) else { continue };
                    let road = if self.water(h, d) {
                        bridged.push((h, d));
                        self.near_side_road(h, d, road)
                    } else {
                        road
                    };
                    *code = if road == "track" { TRACK_LINK } else { ROAD_LINK };
                }
                row
            })
            .collect();
        (links, bridged)
    }

    /// The hexside features of `h` toward `d` as the TEC names them.
    pub fn hexside_names(&self, h: Hex, d: Dir) -> Vec<&'static str> {
        let bits = self.map.side(h, d);
        let mut out = Vec::new();
        if bits & self.s.meuse != 0 {
            out.push("meuse");
        }
        if bits & self.s.river != 0 {
            out.push("river");
        }
        if bits & self.s.stream != 0 {
            out.push("stream");
        }
        out
    }

    /// Whether a bridge carries a road across the hexside of `h` toward `d` on `turn`: a
    /// standing bridge, or a German-built one from its day on (3.8). Blown bridges are the
    /// state's business.
    pub fn bridge(&self, h: Hex, d: Dir, turn: u8) -> bool {
        let bits = self.map.side(h, d);
        if bits & self.s.bridge != 0 {
            return true;
        }
        self.s.built[..=(turn as usize).min(16)].iter().any(|&b| bits & b != 0)
    }

    /// Whether a road across the hexside needs a bridge there: water runs along it (the Meuse,
    /// a river or a stream), or a German-built bridge spans it (3.8: the one railroad bridge
    /// carries the road over a railway cutting, not water; before its day the road is not
    /// connected across).
    pub fn water(&self, h: Hex, d: Dir) -> bool {
        self.map.side(h, d) & (self.s.meuse | self.s.river | self.s.stream | self.s.any_built) != 0
    }

    /// The road kind crossing the hexside (`"road"` or `"track"`), the better one if both.
    pub fn road_across(&self, h: Hex, d: Dir) -> Option<&'static str> {
        let bits = self.map.side(h, d);
        if bits & self.s.road != 0 {
            Some("road")
        } else if bits & self.s.track != 0 {
            Some("track")
        } else {
            None
        }
    }

    /// 3.8: the road kind a unit uses to cross a bridge from `h` toward `d`: where a bridge
    /// joins two kinds of road (the Track to Road link at Gemünd, B22.15/B23.16), the near
    /// side's kind, as if that road were printed in the middle of the far hex. The near side's
    /// kind is the crossing's own if `h` has it on another hexside too, else the best other
    /// kind `h` has.
    pub fn near_side_road(&self, h: Hex, d: Dir, crossing: &'static str) -> &'static str {
        let others: Vec<&'static str> = (0..6u8)
            .filter(|&e| e != d)
            .filter_map(|e| self.road_across(h, e))
            .collect();
        if others.is_empty() || others.contains(&crossing) {
            crossing
        } else if others.contains(&"road") {
            "road"
        } else {
            "track"
        }
    }

    /// Whether `side` traces supply off this edge hex (1.3).
    pub fn friendly_edge(&self, side: Side, h: Hex) -> bool {
        self.edge[side.seat() as usize][h.idx()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`within`] gives for every hex of the map and every range up to 12 the hexes the
    /// grid's look at every hex of the square around it gives, in the same order.
    #[test]
    fn the_hexes_within_a_range_are_the_grids() {
        let w = World::shipped().expect("the shipped data and map load");
        let grid = &w.map.grid;
        for h in grid.hexes() {
            for r in 0..=12 {
                let got: Vec<Hex> = within(grid, h, r).collect();
                let want: Vec<Hex> = grid.within(h, r).collect();
                assert_eq!(got, want, "{h:?} range {r}");
            }
        }
    }

    #[test]
    fn the_shipped_world_loads_with_every_name_the_rules_use() {
        let w = World::shipped().expect("the shipped data and map load");
        for (name, bits) in [
            ("open", w.t.open),
            ("woods", w.t.woods),
            ("forest", w.t.forest),
            ("city", w.t.city),
            ("village", w.t.village),
            ("west-wall", w.t.west_wall),
            ("traffic-jam", w.t.traffic_jam),
        ] {
            assert_ne!(bits, 0, "the map has no `{name}`");
        }
        for (name, bits) in [
            ("meuse", w.s.meuse),
            ("river", w.s.river),
            ("stream", w.s.stream),
            ("bridge", w.s.bridge),
            ("road", w.s.road),
            ("track", w.s.track),
        ] {
            assert_ne!(bits, 0, "the map has no `{name}` hexsides");
        }
        let bastogne = w.map.grid.parse("B1.16").expect("Bastogne");
        assert_eq!(w.vp[bastogne.idx()], 5);
        assert_eq!(w.vp.iter().map(|&v| v as u32).sum::<u32>(), 68);
        assert!(w.edge[0].iter().any(|&e| e) && w.edge[1].iter().any(|&e| e));
        assert!(
            w.our.iter().any(|s| s.iter().any(|&b| b)),
            "4.2 needs the Our's hexsides"
        );
        assert!(w.demolitions.len() >= 4, "3.8's demolition symbols");
    }
}

//! Builds the map from the inputs: terrain from polygons, places, rivers, railways, roads,
//! the start line with the control of every place, supply sources and set-up hexes.

use crate::csv::{num, Table};
use crate::geo::{read_lines, GeoLine, Polygon, Proj, Pt};
use crate::raster::{side, Side, World};
use sandtable_core::hex::{GridSpec, Hex, IdFormat, Orientation, RowDirection, Shifted};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::path::Path;

/// Grid size and placement. About 30 km a hex (the rulebook says 20–30 km) over 48 × 38 hexes
/// covers 32.2°E–48.9°E and 41.9°N–52.1°N: Kursk and Voronezh near the north edge, the Dnieper
/// bend and Kherson at the west edge, the Caspian at the east edge, Derbent at the south edge.
pub const COLS: u16 = 48;
pub const ROWS: u16 = 38;
pub const KM_PER_HEX: f64 = 30.0;
/// Centre of hex 0101 (latitude, longitude).
pub const ORIGIN: (f64, f64) = (52.0, 32.4);
/// Standard parallel of the equirectangular projection.
pub const PARALLEL: f64 = 47.5;

/// Terrain characters, in the order they win when several apply to a hex.
pub const LEGEND: [(char, &str); 6] = [
    ('.', "plain"),
    ('f', "forest"),
    ('s', "swamp"),
    ('m', "mountain"),
    ('~', "sea"),
    ('#', "impassable"),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Camp {
    Axis,
    Soviet,
}

pub struct PlaceOut {
    pub hex: Hex,
    pub name_en: String,
    pub name_zh: String,
    pub class: String,
    pub vp: bool,
    pub rank: u32,
    pub source: String,
    pub control: Option<Camp>,
}

pub struct SideLineOut {
    pub kind: String,
    pub name_en: String,
    pub name_zh: String,
    pub sides: Vec<Side>,
}

pub struct PathOut {
    pub kind: String,
    pub name_en: String,
    pub name_zh: String,
    pub hexes: Vec<Hex>,
}

/// Everything the map file will hold, plus what the tool learned on the way.
pub struct Map {
    pub world: World,
    pub terrain: Vec<char>,
    pub places: Vec<PlaceOut>,
    pub side_lines: Vec<SideLineOut>,
    pub paths: Vec<PathOut>,
    pub sets: Vec<(String, Vec<Hex>)>,
    pub control: Vec<Option<Camp>>,
    /// Problems worth a look (a river point off the map, a place dropped for another).
    pub warnings: Vec<String>,
    /// Decisions the tool took (places merged, set-up hexes thinned).
    pub notes: Vec<String>,
}

impl Map {
    pub fn is_sea(&self, h: Hex) -> bool {
        self.terrain[h.idx()] == '~'
    }
    pub fn id(&self, h: Hex) -> String {
        self.world.grid.id(h).0
    }
    pub fn place_named(&self, name_en: &str) -> Option<&PlaceOut> {
        self.places.iter().find(|p| p.name_en == name_en)
    }
}

pub fn grid_spec() -> GridSpec {
    GridSpec {
        id_format: IdFormat::Xxyy { digits: 2 },
        orientation: Orientation::Flat,
        shifted: Shifted::Even,
        row_direction: RowDirection::Down,
        cols: [1, COLS],
        rows: [1, ROWS],
    }
}

struct Override {
    kind: String,
    name: String,
    at: (f64, f64),
    value: String,
}

fn polygons(lines: Vec<GeoLine>, proj: &Proj) -> Vec<Polygon> {
    lines.iter().map(|l| Polygon::new(l.frame(proj))).collect()
}

pub fn build(reference: &Path, geo: &Path) -> Result<Map, String> {
    let world = World::new(grid_spec(), |g| Proj::new(g, ORIGIN.0, ORIGIN.1, PARALLEL, KM_PER_HEX))?;
    let proj = world.proj.clone();
    let mut warnings = Vec::new();
    let mut notes = Vec::new();

    // ---- Overrides (hand corrections, by latitude and longitude so they survive a regrid).
    let ov = Table::read(&geo.join("overrides.csv"))?;
    ov.expect_header(&["kind", "name", "lat", "lon", "value", "note"])?;
    let mut overrides = Vec::new();
    for i in 0..ov.rows.len() {
        let r = &ov.rows[i];
        overrides.push(Override {
            kind: r[0].clone(),
            name: r[1].clone(),
            at: (num(&ov, i, 2)?, num(&ov, i, 3)?),
            value: r[4].clone(),
        });
    }

    // ---- Terrain: how much of each hex each polygon covers, from sample points in the hex.
    let sea = polygons(read_lines(&geo.join("sea.csv"), "feature", None)?, &proj);
    let forest = polygons(read_lines(&geo.join("forest.csv"), "feature", None)?, &proj);
    let swamp = polygons(read_lines(&geo.join("swamp.csv"), "feature", None)?, &proj);
    let impassable = polygons(read_lines(&geo.join("impassable.csv"), "feature", None)?, &proj);
    let relief = read_lines(&reference.join("stalingrad-mountains.csv"), "feature", Some("point"))?;
    let mountain = polygons(
        relief
            .into_iter()
            .filter(|l| l.name.contains("closed polygon"))
            .collect(),
        &proj,
    );
    if mountain.is_empty() {
        return Err("stalingrad-mountains.csv: no closed polygon".into());
    }
    let samples = world.cell_samples(0.1);
    let mut terrain = vec!['.'; world.grid.len()];
    for h in world.grid.hexes() {
        let pts = &samples[h.idx()];
        let centre = world.centre(h);
        let in_any = |polys: &[Polygon], p: Pt| polys.iter().any(|q| q.contains(p));
        let water = pts.iter().filter(|&&p| in_any(&sea, p)).count();
        if water * 2 > pts.len() {
            terrain[h.idx()] = '~';
            continue;
        }
        let land: Vec<Pt> = pts.iter().copied().filter(|&p| !in_any(&sea, p)).collect();
        // A hex takes a land feature when its centre is inside the polygon or the polygon
        // covers at least half of the hex's land.
        let covers = |polys: &[Polygon]| {
            in_any(polys, centre) || land.iter().filter(|&&p| in_any(polys, p)).count() * 2 >= land.len()
        };
        terrain[h.idx()] = if covers(&impassable) {
            '#'
        } else if covers(&mountain) {
            'm'
        } else if covers(&swamp) {
            's'
        } else if covers(&forest) {
            'f'
        } else {
            '.'
        };
    }
    for o in overrides.iter().filter(|o| o.kind == "terrain") {
        let Some(h) = world.hex_at_geo(o.at.0, o.at.1) else {
            warnings.push(format!("override `{}`: the point is off the map", o.name));
            continue;
        };
        let c = o.value.chars().next().unwrap_or('?');
        if !LEGEND.iter().any(|(k, _)| *k == c) || o.value.chars().count() != 1 {
            return Err(format!("overrides.csv: `{}` is not a terrain character", o.value));
        }
        terrain[h.idx()] = c;
    }
    let is_sea = |h: Hex, t: &[char]| t[h.idx()] == '~';

    // ---- Places.
    let meta = Table::read(&geo.join("places.csv"))?;
    meta.expect_header(&["place", "name_zh", "name_en", "class", "vp", "rank"])?;
    let mut info: HashMap<String, (String, String, String, bool, u32)> = HashMap::new();
    for (i, r) in meta.rows.iter().enumerate() {
        let rank = num(&meta, i, 5)? as u32;
        info.insert(
            r[0].clone(),
            (r[1].clone(), r[2].clone(), r[3].clone(), r[4] == "vp", rank),
        );
    }
    let mut candidates = Vec::new();
    for file in [reference.join("stalingrad-places.csv"), geo.join("places-extra.csv")] {
        let t = Table::read(&file)?;
        t.expect_header(&["place", "name_1942", "lat", "lon", "source", "kind", "note"])?;
        for i in 0..t.rows.len() {
            let r = &t.rows[i];
            let key = r[0].clone();
            let Some((zh, en, class, vp, rank)) = info.get(&key).cloned() else {
                return Err(format!("places.csv: no line for place `{key}` (from {})", t.name));
            };
            if class == "drop" || overrides.iter().any(|o| o.kind == "drop-place" && o.name == key) {
                notes.push(format!("place {key} left out (places.csv or overrides.csv)"));
                continue;
            }
            let mut at = (num(&t, i, 2)?, num(&t, i, 3)?);
            if let Some(o) = overrides.iter().find(|o| o.kind == "place" && o.name == key) {
                at = o.at;
            }
            let Some(h) = world.hex_at_geo(at.0, at.1) else {
                continue; // off the map (Tambov, Lipetsk, ...)
            };
            let name_en = if !en.is_empty() {
                en
            } else if !r[1].is_empty() {
                r[1].clone()
            } else {
                key.clone()
            };
            candidates.push(PlaceOut {
                hex: h,
                name_en,
                name_zh: zh,
                class,
                vp,
                rank,
                source: r[4].clone(),
                control: None,
            });
        }
    }
    // One place per hex: the lower rank (more important) keeps the hex, ties by file order.
    candidates.sort_by_key(|p| p.rank);
    let mut places: Vec<PlaceOut> = Vec::new();
    for p in candidates {
        if let Some(q) = places.iter().find(|q| q.hex == p.hex) {
            notes.push(format!(
                "{} shares hex {} with {}: kept {}",
                p.name_en,
                world.grid.id(p.hex),
                q.name_en,
                q.name_en
            ));
            if p.vp {
                return Err(format!(
                    "VP place {} lost its hex to {}; move one with overrides.csv",
                    p.name_en, q.name_en
                ));
            }
            continue;
        }
        places.push(p);
    }

    // ---- Line names and kinds.
    let lt = Table::read(&geo.join("lines.csv"))?;
    lt.expect_header(&["line", "name_en", "name_zh", "kind"])?;
    let line_info: HashMap<String, (String, String, String)> = lt
        .rows
        .iter()
        .map(|r| (r[0].clone(), (r[1].clone(), r[2].clone(), r[3].clone())))
        .collect();
    // Chinese names of places by every English spelling, to name railways and roads.
    let mut zh_of: HashMap<String, String> = HashMap::new();
    for file in [reference.join("stalingrad-places.csv"), geo.join("places-extra.csv")] {
        let t = Table::read(&file)?;
        for r in &t.rows {
            if let Some((zh, en, ..)) = info.get(&r[0]) {
                for n in [&r[0], &r[1], en] {
                    if !n.is_empty() {
                        zh_of.insert(n.clone(), zh.clone());
                    }
                }
            }
        }
    }
    let auto_zh = |l: &GeoLine, suffix: &str| {
        let names: Vec<&String> = l.points.iter().filter_map(|p| zh_of.get(&p.label)).collect();
        match (names.first(), names.last()) {
            (Some(a), Some(b)) if a != b => format!("{a}—{b}{suffix}"),
            _ => String::new(),
        }
    };

    // ---- Rivers: hexside chains, stopped at the sea; a minor river gives way to a major one.
    let mut rivers = read_lines(
        &reference.join("stalingrad-rivers.csv"),
        "river",
        Some("place_or_point"),
    )?;
    // Authored reaches extend reference rivers (merged by `seq`) or add new ones.
    for extra in read_lines(&geo.join("rivers-extra.csv"), "river", Some("place_or_point"))? {
        match rivers.iter_mut().find(|l| l.name == extra.name) {
            Some(l) => {
                l.points.splice(0..0, extra.points);
                l.points.sort_by(|a, b| a.seq.total_cmp(&b.seq));
            }
            None => rivers.push(extra),
        }
    }
    // Straits are drawn like rivers (the Kerch Strait as a major-river hexside: a ferry crossing).
    rivers.extend(read_lines(&geo.join("straits.csv"), "feature", None)?);
    for o in overrides.iter().filter(|o| o.kind == "river-point") {
        let seq: usize = o
            .value
            .parse()
            .map_err(|_| "overrides.csv: river-point needs seq in value".to_string())?;
        let l = rivers
            .iter_mut()
            .find(|l| l.name == o.name)
            .ok_or_else(|| format!("overrides.csv: no river `{}`", o.name))?;
        let p = l
            .points
            .get_mut(seq - 1)
            .ok_or_else(|| format!("overrides.csv: river `{}` has no point {seq}", o.name))?;
        p.lat = o.at.0;
        p.lon = o.at.1;
    }
    let mut side_lines: Vec<SideLineOut> = Vec::new();
    for major in [true, false] {
        for l in &rivers {
            let (en, zh, kind) = line_info
                .get(&l.name)
                .cloned()
                .ok_or_else(|| format!("lines.csv: no line for river `{}`", l.name))?;
            if (kind == "major-river") != major {
                continue;
            }
            for p in &l.points {
                if world.hex_at_geo(p.lat, p.lon).is_none() {
                    warnings.push(format!("river {en}: point `{}` is off the map", p.label));
                }
            }
            let taken: HashSet<Side> = side_lines.iter().flat_map(|s| s.sides.iter().copied()).collect();
            let sides: Vec<Side> = world
                .side_chain(&l.frame(&proj))
                .into_iter()
                .filter(|s| !is_sea(s.0, &terrain) && !is_sea(s.1, &terrain))
                .filter(|s| !taken.contains(s))
                .collect();
            side_lines.push(SideLineOut {
                kind,
                name_en: en,
                name_zh: zh,
                sides,
            });
        }
    }

    // ---- Railways and roads: hex paths through the hexes of their points.
    let mut paths = Vec::new();
    let bad = |h: Hex| terrain[h.idx()] == '~' || terrain[h.idx()] == '#';
    let rail_files = [
        (reference.join("stalingrad-railways.csv"), "railway", "铁路"),
        (geo.join("railways-extra.csv"), "railway", "铁路"),
        (geo.join("roads.csv"), "road", "公路"),
    ];
    for (file, kind, suffix) in rail_files {
        let key = if kind == "road" { "road" } else { "railway" };
        for l in read_lines(&file, key, Some("place_or_point"))? {
            let (en, zh) = match line_info.get(&l.name) {
                Some((en, zh, _)) => (en.clone(), zh.clone()),
                None => (l.name.clone(), auto_zh(&l, suffix)),
            };
            let runs = world.waypoints(&l.frame(&proj));
            if runs.is_empty() {
                warnings.push(format!("{kind} {en}: entirely off the map"));
            }
            let parts = runs.len();
            for (i, run) in runs.into_iter().enumerate() {
                // A point that falls in a sea hex (a coastal village, the exit toward Baku) is
                // skipped: the path keeps to the land on either side of it.
                let skipped = run.iter().filter(|&&h| bad(h)).count();
                if skipped > 0 {
                    notes.push(format!(
                        "{kind} {en}: {skipped} point(s) in sea or impassable hexes skipped"
                    ));
                }
                let run: Vec<Hex> = run.into_iter().filter(|&h| !bad(h)).collect();
                let hexes = world.route(&run, &bad);
                if hexes.len() < 2 {
                    continue;
                }
                let name_en = if parts > 1 {
                    format!("{en} (part {})", i + 1)
                } else {
                    en.clone()
                };
                paths.push(PathOut {
                    kind: kind.to_string(),
                    name_en,
                    name_zh: zh.clone(),
                    hexes,
                });
            }
        }
    }

    // ---- Start line, and which side of it every land hex is on.
    let start = read_lines(&geo.join("start-line.csv"), "feature", None)?;
    let mut start_sides: Vec<Side> = Vec::new();
    for l in &start {
        let (en, zh, kind) = line_info
            .get(&l.name)
            .cloned()
            .ok_or_else(|| format!("lines.csv: no line for `{}`", l.name))?;
        let sides: Vec<Side> = world
            .side_chain(&l.frame(&proj))
            .into_iter()
            .filter(|s| !is_sea(s.0, &terrain) && !is_sea(s.1, &terrain))
            .collect();
        start_sides.extend(sides.iter().copied());
        side_lines.push(SideLineOut {
            kind,
            name_en: en,
            name_zh: zh,
            sides,
        });
    }
    let start_set: HashSet<Side> = start_sides.iter().copied().collect();
    // Flood the land from Kharkov without crossing the start line: that is the Axis side.
    let seed = world.hex_at_geo(49.98177, 36.25475).ok_or("Kharkov is off the map")?;
    let mut control: Vec<Option<Camp>> = world
        .grid
        .hexes()
        .map(|h| (!is_sea(h, &terrain)).then_some(Camp::Soviet))
        .collect();
    let mut queue = VecDeque::from([seed]);
    control[seed.idx()] = Some(Camp::Axis);
    while let Some(h) = queue.pop_front() {
        for (_, n) in world.grid.neighbours(h) {
            if control[n.idx()] == Some(Camp::Soviet) && !start_set.contains(&side(h, n)) {
                control[n.idx()] = Some(Camp::Axis);
                queue.push_back(n);
            }
        }
    }
    for p in &mut places {
        p.control = control[p.hex.idx()];
    }

    let mut map = Map {
        world,
        terrain,
        places,
        side_lines,
        paths,
        sets: Vec::new(),
        control,
        warnings,
        notes,
    };

    supply_sources(&mut map, geo)?;
    setup(&mut map, geo, &start_sides)?;
    Ok(map)
}

/// Supply sources: for each authored point, the map-edge land hex nearest to it, or a railway
/// or road hex on the edge within two hexes of that one.
fn supply_sources(map: &mut Map, geo: &Path) -> Result<(), String> {
    let t = Table::read(&geo.join("supply.csv"))?;
    t.expect_header(&["set", "lat", "lon", "note"])?;
    let on_line: HashSet<Hex> = map.paths.iter().flat_map(|p| p.hexes.iter().copied()).collect();
    let mut sets: BTreeMap<String, Vec<Hex>> = BTreeMap::new();
    for i in 0..t.rows.len() {
        let (lat, lon) = (num(&t, i, 1)?, num(&t, i, 2)?);
        let p = map.world.proj.to_frame(lat, lon);
        let edge: Vec<Hex> = map
            .world
            .grid
            .hexes()
            .filter(|&h| map.world.on_edge(h) && !map.is_sea(h) && map.terrain[h.idx()] != '#')
            .collect();
        let d = |h: Hex| {
            let c = map.world.centre(h);
            (c.0 - p.0).hypot(c.1 - p.1)
        };
        let nearest = *edge
            .iter()
            .min_by(|a, b| d(**a).total_cmp(&d(**b)))
            .ok_or("no land on the map edge")?;
        let best = edge
            .iter()
            .filter(|&&h| on_line.contains(&h) && map.world.grid.distance(h, nearest) <= 2)
            .min_by(|a, b| d(**a).total_cmp(&d(**b)))
            .copied()
            .unwrap_or(nearest);
        let list = sets.entry(t.rows[i][0].clone()).or_default();
        if !list.contains(&best) {
            list.push(best);
        }
    }
    for (name, hexes) in sets {
        map.sets.push((name, hexes));
    }
    Ok(())
}

/// Keeps `n` of the items, spread evenly over the list.
fn thin<T: Copy>(items: &[T], n: usize) -> Vec<T> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n)
        .map(|i| items[(i * items.len() + items.len() / (2 * n)) / n])
        .collect()
}

/// `count` hexes: those of `first` (evenly thinned if there are too many), then, while short,
/// the next ring of hexes behind them (neighbours that are `allowed` and not yet used or on
/// the line), each ring thinned evenly to what is still missing.
fn fill(map: &Map, first: &[Hex], count: usize, front: &HashSet<Hex>, allowed: &dyn Fn(&Map, Hex) -> bool) -> Vec<Hex> {
    let mut out = thin(first, count);
    let mut seen: HashSet<Hex> = front.iter().chain(first.iter()).copied().collect();
    let mut ring: Vec<Hex> = first.to_vec();
    while out.len() < count && !ring.is_empty() {
        let mut next = Vec::new();
        for &h in &ring {
            for (_, n) in map.world.grid.neighbours(h) {
                if allowed(map, n) && seen.insert(n) {
                    next.push(n);
                }
            }
        }
        out.extend(thin(&next, count - out.len()));
        ring = next;
    }
    out
}

/// Set-up hexes from `setup.csv` (see the README in `geo/` for the rules).
fn setup(map: &mut Map, geo: &Path, start_sides: &[Side]) -> Result<(), String> {
    let t = Table::read(&geo.join("setup.csv"))?;
    t.expect_header(&["set", "rule", "lat", "lon", "lat2", "count", "note"])?;
    // Hexes along the start line on each side, in the order of the line (north to south).
    let mut west: Vec<Hex> = Vec::new();
    let mut east: Vec<Hex> = Vec::new();
    for &(a, b) in start_sides {
        for h in [a, b] {
            let list = match map.control[h.idx()] {
                Some(Camp::Axis) => &mut west,
                Some(Camp::Soviet) => &mut east,
                None => continue,
            };
            if !list.contains(&h) {
                list.push(h);
            }
        }
    }
    let front: HashSet<Hex> = west.iter().chain(east.iter()).copied().collect();
    let mut taken: HashSet<Hex> = HashSet::new();
    let mut sets: Vec<(String, Vec<Hex>)> = Vec::new();
    let land_ok = |m: &Map, h: Hex| !m.is_sea(h) && m.terrain[h.idx()] != '#';
    for i in 0..t.rows.len() {
        let r = t.rows[i].clone();
        let (name, rule) = (r[0].as_str(), r[1].as_str());
        let count = num(&t, i, 5)? as usize;
        let hexes: Vec<Hex> = if rule == "front-east" {
            let all: Vec<Hex> = east.iter().copied().filter(|&h| land_ok(map, h)).collect();
            let allowed =
                |m: &Map, h: Hex| m.control[h.idx()] == Some(Camp::Soviet) && land_ok(m, h) && !taken.contains(&h);
            let out = fill(map, &all, count, &front, &allowed);
            if out.len() > all.len() {
                map.notes.push(format!(
                    "{name}: {} Soviet hexes touch the start line; {} more behind them, evenly spread, make {}",
                    all.len(),
                    out.len() - all.len(),
                    out.len()
                ));
            }
            out
        } else if rule == "front-west" {
            let (north, south) = (num(&t, i, 2)?, num(&t, i, 4)?);
            let in_band = |m: &Map, h: Hex| {
                let lat = m.world.geo(h).0;
                lat <= north && lat > south
            };
            let first: Vec<Hex> = west
                .iter()
                .copied()
                .filter(|&h| in_band(map, h) && land_ok(map, h) && !taken.contains(&h))
                .collect();
            let allowed = |m: &Map, h: Hex| {
                m.control[h.idx()] == Some(Camp::Axis) && land_ok(m, h) && !taken.contains(&h) && in_band(m, h)
            };
            fill(map, &first, count, &front, &allowed)
        } else if rule == "near" {
            let p = map.world.proj.to_frame(num(&t, i, 2)?, num(&t, i, 3)?);
            let mut cand: Vec<Hex> = map
                .world
                .grid
                .hexes()
                .filter(|&h| {
                    map.control[h.idx()] == Some(Camp::Axis)
                        && land_ok(map, h)
                        && !front.contains(&h)
                        && !taken.contains(&h)
                })
                .collect();
            let d = |h: Hex| {
                let c = map.world.centre(h);
                (c.0 - p.0).hypot(c.1 - p.1)
            };
            cand.sort_by(|a, b| d(*a).total_cmp(&d(*b)));
            cand.truncate(count);
            cand
        } else if let Some(army) = rule.strip_prefix("within:") {
            let of: Vec<Hex> = sets
                .iter()
                .find(|(n, _)| n == army)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| format!("setup.csv: `{army}` must come before `{name}`"))?;
            thin(&of, count)
        } else if rule == "hq" {
            let h = map
                .world
                .hex_at_geo(num(&t, i, 2)?, num(&t, i, 3)?)
                .ok_or_else(|| format!("setup.csv: {name} is off the map"))?;
            vec![h]
        } else {
            return Err(format!("setup.csv: unknown rule `{rule}`"));
        };
        if rule != "hq" && !rule.starts_with("within:") {
            taken.extend(hexes.iter().copied());
        }
        match sets.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => v.extend(hexes),
            None => sets.push((name.to_string(), hexes)),
        }
    }
    // Sort each set along the map (by id) for a readable file.
    for (_, v) in &mut sets {
        v.sort();
        v.dedup();
    }
    map.sets.extend(sets);
    Ok(())
}

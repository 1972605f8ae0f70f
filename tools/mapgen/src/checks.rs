//! Sanity checks on the written map, read back through the core, and the summary.

use crate::assemble::{Camp, Map};
use crate::raster::{side, Side};
use sandtable_core::hex::Hex;
use sandtable_core::map::HexMap;
use std::collections::{BTreeMap, HashSet, VecDeque};

/// Set names every map must have.
pub const SETS: &[&str] = &[
    "supply-axis",
    "supply-soviet",
    "soviet-front-line",
    "axis-4PzA",
    "axis-H2A",
    "axis-6A",
    "axis-1PzA",
    "axis-17A",
    "axis-It8A",
    "axis-R3A",
    "panzer-symbol",
    "hq-4PzA",
    "hq-H2A",
    "hq-6A",
    "hq-1PzA",
    "hq-17A",
    "hq-It8A",
    "hq-R3A",
    "hq-SWFront",
    "hq-SthFront",
    "hq-CSFront",
];

pub struct Report {
    pub lines: Vec<String>,
    pub failures: usize,
}

impl Report {
    pub fn new() -> Report {
        Report {
            lines: Vec::new(),
            failures: 0,
        }
    }

    pub fn check(&mut self, ok: bool, what: String) {
        if ok {
            self.lines.push(format!("  ok    {what}"));
        } else {
            self.failures += 1;
            self.lines.push(format!("  FAIL  {what}"));
        }
    }
}

fn line_sides(hm: &HexMap, kind: &str, name: &str) -> Vec<Side> {
    hm.side_lines
        .iter()
        .filter(|l| l.kind == kind && l.name_en == name)
        .flat_map(|l| l.hexes.chunks(2).map(|c| side(c[0], c[1])).collect::<Vec<_>>())
        .collect()
}

/// Runs the checks on the map as the core loaded it (`hm`) and as the tool built it (`map`).
pub fn run(map: &Map, hm: &HexMap) -> Report {
    let mut r = Report {
        lines: Vec::new(),
        failures: 0,
    };
    let g = &hm.grid;
    let id = |h: Hex| g.id(h).0;
    let sea = hm.terrain_mask("sea");
    let imp = hm.terrain_mask("impassable");
    let mtn = hm.terrain_mask("mountain");
    let land = |h: Hex| hm.terrain(h) & (sea | imp) == 0;
    let world = &map.world;

    // Places.
    let off: Vec<String> = hm
        .places
        .iter()
        .filter(|p| !land(p.hex))
        .map(|p| format!("{} {}", p.name_en, id(p.hex)))
        .collect();
    r.check(off.is_empty(), format!("every place is on a land hex {off:?}"));
    let tagged = hm.places.iter().all(|p| {
        p.tags
            .iter()
            .filter(|t| *t == "control-axis" || *t == "control-soviet")
            .count()
            == 1
    });
    r.check(tagged, "every town and city has exactly one control tag".into());
    let in_mtn: Vec<String> = hm
        .places
        .iter()
        .filter(|p| hm.terrain(p.hex) & mtn != 0)
        .map(|p| p.name_en.clone())
        .collect();
    r.check(
        in_mtn.is_empty(),
        format!("no town or city in a mountain hex {in_mtn:?}"),
    );
    let vp: Vec<_> = hm.places.iter().filter(|p| p.tags.iter().any(|t| t == "vp")).collect();
    let vp_axis = vp.iter().filter(|p| p.tags.iter().any(|t| t == "control-axis")).count();
    r.check(
        (14..=16).contains(&vp.len()) && vp_axis == 4,
        format!(
            "{} VP hexes, {vp_axis} of them Axis-controlled at the start (want 14–16 and 4)",
            vp.len()
        ),
    );

    // Hex sets.
    for name in SETS {
        let hexes = hm.hex_set(name);
        r.check(
            !hexes.is_empty(),
            format!("hex set {name} is not empty ({} hexes)", hexes.len()),
        );
        let bad: Vec<String> = hexes.iter().filter(|&&h| !land(h)).map(|&h| id(h)).collect();
        r.check(bad.is_empty(), format!("hex set {name} is on land {bad:?}"));
        let want = if name.starts_with("axis-") || name.starts_with("panzer") || name.starts_with("supply-axis") {
            Some(Camp::Axis)
        } else if name.starts_with("soviet-") || name.starts_with("supply-soviet") || name.ends_with("Front") {
            Some(Camp::Soviet)
        } else if name.starts_with("hq-") {
            Some(Camp::Axis)
        } else {
            None
        };
        if let Some(camp) = want {
            let wrong: Vec<String> = hexes
                .iter()
                .filter(|&&h| map.control[h.idx()] != Some(camp))
                .map(|&h| id(h))
                .collect();
            r.check(
                wrong.is_empty(),
                format!("hex set {name} is on the {camp:?} side of the start line {wrong:?}"),
            );
        }
    }
    let mut seen: BTreeMap<Hex, &str> = BTreeMap::new();
    let mut overlap = Vec::new();
    for name in SETS
        .iter()
        .filter(|n| n.starts_with("axis-") || n.starts_with("soviet-"))
    {
        for &h in hm.hex_set(name) {
            if let Some(other) = seen.insert(h, name) {
                overlap.push(format!("{} in {other} and {name}", id(h)));
            }
        }
    }
    r.check(overlap.is_empty(), format!("no hex is in two set-up lists {overlap:?}"));
    let pz_ok = hm.hex_set("panzer-symbol").iter().all(|h| {
        ["axis-4PzA", "axis-6A", "axis-1PzA", "axis-17A"]
            .iter()
            .any(|a| hm.hex_set(a).contains(h))
    });
    r.check(pz_ok, "panzer symbols lie in German army set-up hexes".into());
    for name in ["supply-axis", "supply-soviet"] {
        let inner: Vec<String> = hm
            .hex_set(name)
            .iter()
            .filter(|&&h| g.neighbours(h).count() == 6)
            .map(|&h| id(h))
            .collect();
        r.check(inner.is_empty(), format!("{name} hexes are on the map edge {inner:?}"));
    }

    // Paths.
    for p in &hm.paths {
        let ok = p.hexes.windows(2).all(|w| g.adjacent(w[0], w[1]));
        let wet: Vec<String> = p.hexes.iter().filter(|&&h| !land(h)).map(|&h| id(h)).collect();
        if !ok || !wet.is_empty() {
            r.check(false, format!("{} {}: connected, on land {wet:?}", p.kind, p.name_en));
        }
    }
    r.check(
        hm.paths
            .iter()
            .all(|p| p.hexes.windows(2).all(|w| g.adjacent(w[0], w[1]))),
        format!(
            "every railway and road path ({}) is a chain of adjacent land hexes",
            hm.paths.len()
        ),
    );
    // Railway network: which rail hexes each side can reach by rail from its supply sources,
    // without leaving its own side of the start line.
    let rail = hm.side_mask("railway");
    for (set, camp) in [("supply-axis", Camp::Axis), ("supply-soviet", Camp::Soviet)] {
        let mut reach = vec![false; g.len()];
        let mut q: VecDeque<Hex> = hm
            .hex_set(set)
            .iter()
            .copied()
            .filter(|&h| hm.any_side(h, rail))
            .collect();
        for &h in &q {
            reach[h.idx()] = true;
        }
        while let Some(h) = q.pop_front() {
            for (d, n) in g.neighbours(h) {
                if hm.side(h, d) & rail != 0 && !reach[n.idx()] && map.control[n.idx()] == Some(camp) {
                    reach[n.idx()] = true;
                    q.push_back(n);
                }
            }
        }
        let own: Vec<Hex> = g
            .hexes()
            .filter(|&h| hm.any_side(h, rail) && map.control[h.idx()] == Some(camp))
            .collect();
        let cut: Vec<String> = own.iter().filter(|h| !reach[h.idx()]).map(|&h| id(h)).collect();
        // The Axis traces supply along railways (3.3(5)), so its network must hang together;
        // the Soviets only place reinforcements by rail, so a cut-off branch is just reported.
        let tolerated = if camp == Camp::Axis { 0 } else { own.len() / 5 };
        r.check(
            cut.len() <= tolerated,
            format!(
                "{camp:?} railway hexes reachable by rail from {set}: {} of {} (cut off: {cut:?})",
                own.len() - cut.len(),
                own.len()
            ),
        );
    }
    r.check(
        map.unrouted.is_empty(),
        format!("every railway and road is drawn on its own bank {:#?}", map.unrouted),
    );
    // 2.1(1)3, 9.2(3): a road or railway over a major river makes a bridge, so a path crosses
    // one (or a strait) only at a bridge of 1942 that carries it (bridges.csv).
    let major = hm.side_mask("major-river");
    let bridge = hm.side_mask("bridge");
    let mut false_bridges = Vec::new();
    for p in &hm.paths {
        for w in p.hexes.windows(2) {
            let Some(dir) = g.dir_to(w[0], w[1]) else { continue };
            if hm.side(w[0], dir) & major == 0 {
                continue;
            }
            let listed = map
                .bridges
                .iter()
                .any(|b| b.side == side(w[0], w[1]) && b.carries(&p.kind));
            if !listed || hm.side(w[0], dir) & bridge == 0 {
                false_bridges.push(format!("{} {} {}/{}", p.kind, p.name_en, id(w[0]), id(w[1])));
            }
        }
    }
    r.check(
        false_bridges.is_empty(),
        format!(
            "no railway or road crosses a major river or a strait but at one of the {} bridges of 1942 {false_bridges:?}",
            map.bridges.len()
        ),
    );
    for b in &map.bridges {
        let used = hm
            .paths
            .iter()
            .any(|p| b.carries(&p.kind) && p.hexes.windows(2).any(|w| side(w[0], w[1]) == b.side));
        r.check(
            used,
            format!(
                "the {} ({}/{}) carries a {}",
                b.name_en,
                id(b.side.0),
                id(b.side.1),
                if b.railway { "railway" } else { "road" }
            ),
        );
    }
    // The banks: each major river cuts the land in two, and the towns on it lie on their own
    // bank (banks.csv).
    for banks in &map.banks {
        let both: Vec<String> = g
            .hexes()
            .filter(|h| banks.of[h.idx()] == crate::assemble::LEFT | crate::assemble::RIGHT)
            .take(5)
            .map(id)
            .collect();
        r.check(
            both.is_empty(),
            format!("the {} parts its left bank from its right bank {both:?}", banks.river),
        );
    }
    for rule in &map.bank_rules {
        let bank = if rule.bank == crate::assemble::LEFT {
            "left"
        } else {
            "right"
        };
        let place = hm.places.iter().find(|p| p.name_en == rule.place);
        let banks = map.banks.iter().find(|b| b.river == rule.river);
        let ok = match (place, banks) {
            (Some(p), Some(b)) => b.of[p.hex.idx()] == rule.bank,
            _ => false,
        };
        let at = place.map(|p| id(p.hex)).unwrap_or_else(|| "not on the map".into());
        r.check(
            ok,
            format!("{} ({at}) is on the {bank} bank of the {}", rule.place, rule.river),
        );
    }
    let blocked: Vec<String> = hm
        .paths
        .iter()
        .flat_map(|p| {
            p.hexes
                .iter()
                .filter(|&&h| hm.terrain(h) & imp != 0)
                .map(move |&h| format!("{} {}", p.name_en, id(h)))
        })
        .collect();
    r.check(
        blocked.is_empty(),
        format!("no railway or road enters an impassable hex {blocked:?}"),
    );
    let road = hm.side_mask("road");
    let road_mtn = g
        .hexes()
        .filter(|&h| hm.any_side(h, road) && hm.terrain(h) & mtn != 0)
        .count();
    r.check(
        road_mtn > 0,
        format!("{road_mtn} mountain hexes carry a road (the passes)"),
    );

    // Rivers.
    for name in ["Don", "Volga", "Dnieper"] {
        let sides = line_sides(hm, "major-river", name);
        let parts = world.chain_parts(&sides);
        r.check(
            parts == 1,
            format!(
                "the {name} is one continuous chain ({} hexsides, {parts} part(s))",
                sides.len()
            ),
        );
    }
    for l in hm.side_lines.iter().filter(|l| l.kind == "river") {
        let sides = line_sides(hm, "river", &l.name_en);
        let parts = world.chain_parts(&sides);
        if parts != 1 {
            r.lines.push(format!(
                "  note  river {} is in {parts} parts ({} hexsides)",
                l.name_en,
                sides.len()
            ));
        }
    }
    let bank = |place: &str, river: &str, test: &dyn Fn((f64, f64), (f64, f64)) -> bool| -> bool {
        let Some(p) = hm.places.iter().find(|p| p.name_en == place) else {
            return false;
        };
        line_sides(hm, "major-river", river).iter().any(|&(a, b)| {
            let other = if a == p.hex {
                b
            } else if b == p.hex {
                a
            } else {
                return false;
            };
            test(g.centre(p.hex), g.centre(other))
        })
    };
    r.check(
        bank("Stalingrad", "Volga", &|c, o| o.0 > c.0),
        "Stalingrad is on the west bank: a Volga hexside lies on its east side".into(),
    );
    let volga_west = {
        let Some(p) = hm.places.iter().find(|p| p.name_en == "Stalingrad") else {
            return r;
        };
        !line_sides(hm, "major-river", "Volga").iter().any(|&(a, b)| {
            (a == p.hex && g.centre(b).0 < g.centre(a).0) || (b == p.hex && g.centre(a).0 < g.centre(b).0)
        })
    };
    r.check(volga_west, "no Volga hexside on Stalingrad's west side".into());
    r.check(
        bank("Rostov", "Don", &|c, o| o.1 > c.1),
        "Rostov is on the north bank: a Don hexside lies on its south side".into(),
    );
    let near_sea = |name: &str, within: u32| {
        hm.places.iter().find(|p| p.name_en == name).is_some_and(|p| {
            g.hexes()
                .any(|h| hm.terrain(h) & sea != 0 && g.distance(h, p.hex) <= within)
        })
    };
    r.check(
        near_sea("Astrakhan", 4),
        "Astrakhan (at the head of the Volga delta) is within 4 hexes of the Caspian".into(),
    );
    let volga = line_sides(hm, "major-river", "Volga");
    let delta_ok = volga.last().is_some_and(|&(a, b)| {
        g.hexes()
            .any(|h| hm.terrain(h) & sea != 0 && (g.distance(h, a) <= 2 || g.distance(h, b) <= 2))
    });
    r.check(
        delta_ok,
        "the Volga's last hexside is within 2 hexes of the Caspian".into(),
    );

    // Start line.
    for (name, camp) in [
        ("Kursk", Camp::Axis),
        ("Kharkov", Camp::Axis),
        ("Stalino", Camp::Axis),
        ("Sevastopol", Camp::Axis),
        ("Kerch", Camp::Axis),
        ("Taganrog", Camp::Axis),
        ("Voronezh", Camp::Soviet),
        ("Voroshilovgrad", Camp::Soviet),
        ("Rostov", Camp::Soviet),
        ("Stalingrad", Camp::Soviet),
        ("Krasnodar", Camp::Soviet),
        ("Novorossiysk", Camp::Soviet),
    ] {
        let got = map.place_named(name).and_then(|p| p.control);
        r.check(got == Some(camp), format!("{name} starts {camp:?}-controlled"));
    }
    let start: HashSet<Side> = hm
        .side_lines
        .iter()
        .filter(|l| l.kind == "start-line")
        .flat_map(|l| l.hexes.chunks(2).map(|c| side(c[0], c[1])).collect::<Vec<_>>())
        .collect();
    let mixed = start
        .iter()
        .filter(|s| map.control[s.0.idx()] == map.control[s.1.idx()])
        .count();
    r.check(
        mixed == 0,
        format!("every start-line hexside has Axis on one side and Soviet on the other ({mixed} do not)"),
    );
    r
}

/// Counts for the summary.
pub fn summary(map: &Map, hm: &HexMap) -> Vec<String> {
    let g = &hm.grid;
    let mut out = Vec::new();
    out.push(format!(
        "grid: {} columns × {} rows = {} hexes, {} km a hex",
        g.spec().cols[1],
        g.spec().rows[1],
        g.len(),
        hm.about.scale_km.unwrap_or(0.0)
    ));
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for h in g.hexes() {
        for name in hm.terrain_names() {
            if hm.terrain(h) & hm.terrain_mask(name) != 0 {
                *counts.entry(name.as_str()).or_default() += 1;
            }
        }
    }
    out.push(format!("hexes by terrain: {counts:?}"));
    let cities: Vec<&str> = map
        .places
        .iter()
        .filter(|p| p.class == "city")
        .map(|p| p.name_en.as_str())
        .collect();
    out.push(format!(
        "places: {} ({} cities: {})",
        map.places.len(),
        cities.len(),
        cities.join(", ")
    ));
    let mut vp: Vec<_> = map.places.iter().filter(|p| p.vp).collect();
    vp.sort_by_key(|p| (p.control != Some(Camp::Axis), p.hex));
    let vps: Vec<String> = vp
        .iter()
        .map(|p| {
            let who = if p.control == Some(Camp::Axis) {
                "Axis"
            } else {
                "Soviet"
            };
            format!("{} {} ({who})", g.id(p.hex), p.name_en)
        })
        .collect();
    out.push(format!("VP hexes ({}): {}", vp.len(), vps.join(", ")));
    for kind in ["major-river", "river", "start-line"] {
        let n: usize = hm
            .side_lines
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.hexes.len() / 2)
            .sum();
        let lines = hm.side_lines.iter().filter(|l| l.kind == kind).count();
        let each: Vec<String> = hm
            .side_lines
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| format!("{} {}", l.name_en, l.hexes.len() / 2))
            .collect();
        out.push(format!("{kind}: {lines} lines, {n} hexsides ({})", each.join(", ")));
    }
    for kind in ["railway", "road"] {
        let mask = hm.side_mask(kind);
        let hexes = g.hexes().filter(|&h| hm.any_side(h, mask)).count();
        let lines = hm.paths.iter().filter(|p| p.kind == kind).count();
        out.push(format!("{kind}: {lines} paths over {hexes} hexes"));
    }
    let river = hm.side_mask("river") | hm.side_mask("major-river");
    let over = hm.side_mask("railway") | hm.side_mask("road");
    let mut bridges = 0;
    for h in g.hexes() {
        for (d, n) in g.neighbours(h) {
            if h < n && hm.side(h, d) & river != 0 && hm.side(h, d) & over != 0 {
                bridges += 1;
            }
        }
    }
    out.push(format!(
        "bridges (river hexsides crossed by a road or railway): {bridges}"
    ));
    for b in &map.bridges {
        out.push(format!(
            "  1942 bridge over the {} at {}/{}: {} ({})",
            b.river,
            g.id(b.side.0),
            g.id(b.side.1),
            b.name_en,
            b.source
        ));
    }
    for (name, hexes) in &hm.hex_sets {
        let ids: Vec<String> = hexes.iter().map(|&h| g.id(h).0).collect();
        out.push(format!("set {name} ({}): {}", hexes.len(), ids.join(" ")));
    }
    out
}

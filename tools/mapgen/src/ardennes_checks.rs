//! Sanity checks on the Ardennes II map, read back through the core, and its summary: the book's
//! facts (VP hexes and values, the Gemünd bridge, the demolition symbols, the 2nd Panzer
//! Division's Our crossing, the entry areas) and the geography they rest on.

use crate::assemble::Map;
use crate::checks::Report;
use crate::raster::{side, Side};
use sandtable_core::hex::Hex;
use sandtable_core::map::HexMap;
use std::collections::{BTreeMap, HashSet};

/// Hex sets the rules need.
pub const SETS: &[&str] = &[
    "supply-allied",
    "supply-german",
    "edge-north",
    "edge-south",
    "edge-west",
    "edge-east",
    "entry-A",
    "entry-B",
    "entry-C",
    "entry-D",
    "entry-F",
    "entry-G",
    "entry-H",
    "entry-I",
    "entry-J",
    "entry-K",
    "entry-L",
    "entry-M",
    "entry-N",
    "entry-O",
    "entry-P",
    "demolition",
];

/// Book hexes whose place does not lie where the fitted transform puts the name (reference
/// README, "Outliers"): they keep the book's id.
pub const MISFITS: &[&str] = &["A21.39", "A36.54"];

fn sides_of(hm: &HexMap, kind: &str, name: Option<&str>) -> HashSet<Side> {
    hm.side_lines
        .iter()
        .filter(|l| l.kind == kind && name.is_none_or(|n| l.name_en == n))
        .flat_map(|l| l.hexes.chunks(2).map(|c| side(c[0], c[1])).collect::<Vec<_>>())
        .collect()
}

fn touches(hm: &HexMap, h: Hex, sides: &HashSet<Side>) -> usize {
    hm.grid
        .neighbours(h)
        .filter(|&(_, n)| sides.contains(&side(h, n)))
        .count()
}

pub fn run(map: &Map, hm: &HexMap) -> Report {
    let mut r = Report::new();
    let g = &hm.grid;
    let id = |h: Hex| g.id(h).0;
    let hex = |s: &str| g.parse(s).expect("a hex of the map");

    // VP hexes (6.0): 39 hexes, 68 VP; map A 18 hexes and 33 VP, map B 21 and 35.
    let vp_of = |tags: &[String]| -> u32 {
        tags.iter()
            .filter_map(|t| t.strip_prefix("vp-"))
            .filter_map(|v| v.parse::<u32>().ok())
            .sum()
    };
    let vps: Vec<_> = hm.places.iter().filter(|p| p.tags.iter().any(|t| t == "vp")).collect();
    let total: u32 = vps.iter().map(|p| vp_of(&p.tags)).sum();
    let on_a: Vec<_> = vps.iter().filter(|p| id(p.hex).starts_with('A')).collect();
    let a_total: u32 = on_a.iter().map(|p| vp_of(&p.tags)).sum();
    r.check(
        vps.len() == 39 && total == 68 && on_a.len() == 18 && a_total == 33,
        format!(
            "{} VP hexes worth {total} VP, map A {} hexes worth {a_total} (want 39, 68, 18, 33)",
            vps.len(),
            on_a.len()
        ),
    );
    let bastogne = hm.place(hex("B1.16"));
    r.check(
        bastogne.is_some_and(|p| p.name_en == "Bastogne" && p.tags.iter().any(|t| t == "vp-5")),
        "Bastogne is B1.16, worth 5 VP".into(),
    );
    r.check(
        hm.place(hex("A38.16")).is_some_and(|p| p.name_en == "Senonchamps"),
        "Senonchamps is A38.16 (5.1)".into(),
    );

    // Every place the book names lies within 1.5 hexes of its coordinate.
    let mut far = Vec::new();
    for &(h, lat, lon) in &map.anchors {
        if MISFITS.contains(&id(h).as_str()) {
            continue;
        }
        let q = map.world.proj.to_frame(lat, lon);
        let c = g.centre(h);
        let d = (q.0 - c.0).hypot(q.1 - c.1);
        if d > 1.5 {
            far.push(format!("{} {d:.2}", id(h)));
        }
    }
    r.check(
        far.is_empty(),
        format!("every book place lies within 1.5 hexes of its coordinate, A21.39 and A36.54 excepted {far:?}"),
    );

    // Rivers where the book and the geography put them.
    let meuse = sides_of(hm, "meuse", None);
    for place in ["A1.46", "A2.32", "A11.48", "A18.49"] {
        r.check(
            touches(hm, hex(place), &meuse) > 0,
            format!("{place} ({}) is on the Meuse", name(hm, place)),
        );
    }
    for (place, river) in [
        ("A17.26", "Lomme"),
        ("A27.33", "Ourthe"),
        ("A32.43", "Ourthe"),
        ("A34.27", "Ourthe"),
        ("A39.46", "Amblève"),
        ("B4.23", "East Ourthe"),
        ("B8.39", "Salm"),
        ("B8.39", "Amblève"),
        ("B10.34", "Salm"),
        ("B11.41", "Amblève"),
        ("B11.14", "Wiltz"),
        ("B15.20", "Clerve"),
        ("B15.43", "Warche"),
        ("B20.06", "Sûre"),
        ("B20.06", "Alzette"),
        ("B22.07", "Sûre"),
        ("B2.05", "Sûre"),
        ("B20.25", "Our"),
    ] {
        let s = sides_of(hm, "river", Some(river));
        r.check(
            touches(hm, hex(place), &s) > 0,
            format!("{place} ({}) is on the {river}", name(hm, place)),
        );
    }
    let our = sides_of(hm, "river", Some("Our"));
    let our_list: Vec<Side> = our.iter().copied().collect();
    let parts = map.world.chain_parts(&our_list);
    r.check(
        parts == 1,
        format!(
            "the Our is one continuous chain ({} hexsides, {parts} part(s))",
            our.len()
        ),
    );
    // 4.2: the 2nd Panzer Division's infantry crosses the Our from hexes adjacent to it.
    for h in ["B21.19", "B21.20"] {
        r.check(
            touches(hm, hex(h), &our) > 0,
            format!("{h} (2nd Panzer Division set-up) is adjacent to the Our (4.2)"),
        );
    }

    // Bridges (3.8).
    let bridges = sides_of(hm, "bridge", None);
    let gemund = side(hex("B22.15"), hex("B23.16"));
    let built2 = sides_of(hm, "built-bridge-turn-2", None);
    r.check(
        our.contains(&gemund) && built2.contains(&gemund),
        "the German-built Gemünd bridge B22.15/B23.16 crosses the Our, in use from turn 2 (3.8)".into(),
    );
    let road = hm.side_mask("road");
    let track = hm.side_mask("track");
    let (w, e) = (hex("B22.15"), hex("B23.16"));
    let d = g.dir_to(w, e).expect("adjacent");
    let east_road = g.neighbours(e).any(|(dd, n)| n != w && hm.side(e, dd) & road != 0);
    let west_track = g.neighbours(w).any(|(dd, n)| n != e && hm.side(w, dd) & track != 0);
    r.check(
        east_road && west_track && hm.side(w, d) & (road | track) != 0,
        "at Gemünd a Road reaches B23.16 and a Track B22.15, joined across the bridge (3.8)".into(),
    );
    for h in ["A17.26", "A33.27", "B8.39", "B20.06"] {
        let n = sides_of(hm, "demolition", Some(h)).len();
        r.check(
            n >= 2,
            format!("demolition symbol {h} serves several bridges ({n}) (3.8)"),
        );
    }
    let demo = hm.hex_set("demolition");
    let lonely: Vec<String> = demo
        .iter()
        .filter(|&&h| sides_of(hm, "demolition", Some(&id(h))).is_empty())
        .map(|&h| id(h))
        .collect();
    let not_bridges: Vec<Side> = sides_of(hm, "demolition", None)
        .into_iter()
        .filter(|s| !bridges.contains(s))
        .collect();
    r.check(
        not_bridges.is_empty(),
        "every hexside a demolition symbol serves is a bridge".into(),
    );
    r.check(
        lonely.is_empty() && demo.contains(&hex("A37.23")) && demo.contains(&hex("B11.14")),
        format!(
            "every demolition symbol ({}) is by a bridge, A37.23 and B11.14 among them (7.5) {lonely:?}",
            demo.len()
        ),
    );

    // Hex sets.
    for name in SETS {
        let hexes = hm.hex_set(name);
        let inner: Vec<String> = hexes
            .iter()
            .filter(|&&h| g.neighbours(h).count() == 6)
            .map(|&h| id(h))
            .collect();
        let edge_set = name.starts_with("supply-") || name.starts_with("entry-") || name.starts_with("edge-");
        r.check(
            !hexes.is_empty() && (!edge_set || inner.is_empty()),
            format!("hex set {name}: {} hexes, on the map edge {inner:?}", hexes.len()),
        );
    }
    for (area, near) in [("entry-A", "B40.49"), ("entry-B", "B40.38"), ("entry-C", "B40.30")] {
        let ok = hm.hex_set(area).iter().any(|&h| g.distance(h, hex(near)) <= 1);
        r.check(ok, format!("{area} lies at {near} (scenarios 7.3, 7.4)"));
    }
    // 7.3 plays on Map B from row 36 north and brings the 3rd Armored Division in at Area N.
    let n = hm.hex_set("entry-N");
    r.check(
        n.iter().any(|&h| id(h).starts_with('A')) && n.iter().any(|&h| id(h).starts_with('B')),
        "entry-N straddles the seam of the sheets (7.3: Map B, row 36 and north)".to_string(),
    );
    let entries_with_road: Vec<&str> = SETS
        .iter()
        .filter(|n| n.starts_with("entry-"))
        .filter(|n| !hm.hex_set(n).iter().any(|&h| hm.any_side(h, road)))
        .copied()
        .collect();
    r.check(
        entries_with_road.is_empty(),
        format!("every entry area has a Road {entries_with_road:?}"),
    );

    // The hexes the book uses as road or supply points: supply sources (7.4 B24.39; 7.5 B4.24,
    // B12.20, B12.22), the start of 7.6's German supply roads (A29.23, read for "A29.00", a Road
    // "not Track"; A40.32 for the east edge) and 7.6's arrival hexes for mechanized formations
    // (A29.23, A40.32, A40.45, A40.30).
    let points: [(&str, &str, bool); 8] = [
        ("B24.39", "7.4", false),
        ("B4.24", "7.5", false),
        ("B12.20", "7.5", false),
        ("B12.22", "7.5", false),
        ("A29.23", "7.6", true),
        ("A40.32", "7.6", false),
        ("A40.45", "7.6", false),
        ("A40.30", "7.6", false),
    ];
    let roadless: Vec<String> = points
        .iter()
        .filter(|(h, _, road_only)| !hm.any_side(hex(h), if *road_only { road } else { road | track }))
        .map(|(h, rule, road_only)| format!("{h} ({rule}{})", if *road_only { ", Road" } else { "" }))
        .collect();
    r.check(
        roadless.is_empty(),
        format!(
            "every hex the book uses as a road or supply point ({}) has a road or track, A29.23 a Road {roadless:?}",
            points.len()
        ),
    );
    // The secondary net of 1944: every village on a road or track, and a road or track in
    // about two hexes of five.
    let on_net = |h: Hex| hm.any_side(h, road | track);
    let places_off: Vec<String> = hm
        .places
        .iter()
        .filter(|p| !on_net(p.hex))
        .map(|p| p.name_en.clone())
        .collect();
    r.check(
        places_off.len() * 100 <= hm.places.len(),
        format!(
            "{} of {} places are on a road or track (want all but 1 %) {places_off:?}",
            hm.places.len() - places_off.len(),
            hm.places.len()
        ),
    );
    let netted = g.hexes().filter(|&h| on_net(h)).count();
    r.check(
        netted * 100 >= g.len() * 35,
        format!(
            "{netted} hexes ({:.0} %) have a road or track (want 35 % or more)",
            netted as f64 * 100.0 / g.len() as f64
        ),
    );

    // Paths.
    r.check(
        hm.paths
            .iter()
            .all(|p| p.hexes.windows(2).all(|w| g.adjacent(w[0], w[1]))),
        format!("every road and track ({}) is a chain of adjacent hexes", hm.paths.len()),
    );
    let hub = g
        .neighbours(hex("B1.16"))
        .filter(|&(dd, _)| hm.side(hex("B1.16"), dd) & road != 0)
        .count();
    r.check(
        hub >= 5,
        format!("Bastogne is a road hub: Roads leave it on {hub} hexsides"),
    );
    // Terrain: the Ardennes is wooded, its plateaux farmland; the gorges are Slope.
    let t = |name: &str| hm.terrain_mask(name);
    let count = |mask: u32| g.hexes().filter(|&h| hm.terrain(h) & mask != 0).count();
    let wooded = count(t("woods") | t("forest"));
    let share = wooded as f64 / g.len() as f64;
    r.check(
        (0.28..=0.42).contains(&share),
        format!(
            "woods and forest cover {:.0} % of the hexes (want about 30–40 %)",
            share * 100.0
        ),
    );
    let near_bastogne: Vec<Hex> = g.hexes().filter(|&h| g.distance(h, hex("B1.16")) <= 3).collect();
    let open_near = near_bastogne
        .iter()
        .filter(|&&h| hm.terrain(h) & (t("woods") | t("forest") | t("slope") | t("marsh")) == 0)
        .count();
    r.check(
        open_near * 3 >= near_bastogne.len() * 2,
        format!(
            "the Bastogne plateau is open: {open_near} of the {} hexes within 3 of B1.16",
            near_bastogne.len()
        ),
    );
    let slope = t("slope");
    for river in [
        "Amblève", "Salm", "Ourthe", "Our", "Sûre", "Clerve", "Wiltz", "Lesse", "Semois",
    ] {
        let sides = sides_of(hm, "river", Some(river));
        let n = g
            .hexes()
            .filter(|&h| hm.terrain(h) & slope != 0 && touches(hm, h, &sides) > 0)
            .count();
        r.check(n >= 6, format!("{n} Slope hexes line the {river}'s gorges"));
    }
    let meuse_slope = g
        .hexes()
        .filter(|&h| hm.terrain(h) & slope != 0 && touches(hm, h, &meuse) > 0)
        .count();
    r.check(
        meuse_slope >= 6,
        format!("{meuse_slope} Slope hexes line the Meuse between Dinant and Namur"),
    );
    let heavy = t("forest") | t("marsh") | slope;
    let heavy_places: Vec<String> = hm
        .places
        .iter()
        .filter(|p| hm.terrain(p.hex) & heavy != 0)
        .map(|p| id(p.hex))
        .collect();
    r.check(
        heavy_places.is_empty(),
        format!("no town or village is Forest, Marsh or Slope {heavy_places:?}"),
    );

    // The national borders of 1944 (no effect on play): three lines, each one chain, the
    // Luxembourg–Germany border on the Our and the Sûre.
    let border_lines: Vec<_> = hm.side_lines.iter().filter(|l| l.kind == "border").collect();
    let parts: Vec<usize> = border_lines
        .iter()
        .map(|l| {
            let sides: Vec<Side> = l.hexes.chunks(2).map(|c| side(c[0], c[1])).collect();
            map.world.chain_parts(&sides)
        })
        .collect();
    r.check(
        border_lines.len() == 3 && parts.iter().all(|&p| p == 1),
        format!("the borders are 3 lines, each one chain of hexsides {parts:?}"),
    );
    let border = sides_of(hm, "border", None);
    let sure = sides_of(hm, "river", Some("Sûre"));
    let on_our = our.iter().filter(|s| border.contains(s)).count();
    let on_sure = sure.iter().filter(|s| border.contains(s)).count();
    r.check(
        on_our >= 50 && on_sure >= 20,
        format!("the border follows the Our ({on_our} hexsides) and the Sûre ({on_sure})"),
    );

    // Every German-built bridge carries a road or track; the railroad bridge spans no water.
    let water: HashSet<Side> = ["meuse", "river", "stream"]
        .iter()
        .flat_map(|k| sides_of(hm, k, None))
        .collect();
    let built: Vec<_> = hm
        .side_lines
        .iter()
        .filter(|l| l.kind.starts_with("built-bridge-turn-"))
        .collect();
    let roadless: Vec<&str> = built
        .iter()
        .filter(|l| {
            !l.hexes.chunks(2).all(|c| {
                let d = g.dir_to(c[0], c[1]).expect("adjacent");
                hm.side(c[0], d) & (road | track) != 0
            })
        })
        .map(|l| l.name_en.as_str())
        .collect();
    let rail: Vec<_> = built.iter().filter(|l| l.name_en.contains("railway")).collect();
    r.check(
        roadless.is_empty() && rail.len() == 1 && rail[0].hexes.chunks(2).all(|c| !water.contains(&side(c[0], c[1]))),
        format!(
            "{} German-built bridges, each on a road or track {roadless:?}, one of them the railroad bridge over dry ground (3.8)",
            built.len()
        ),
    );

    let ww = hm.terrain_mask("west-wall");
    let wall: Vec<Hex> = g.hexes().filter(|&h| hm.terrain(h) & ww != 0).collect();
    let wrong_bank: Vec<String> = wall
        .iter()
        .filter(|&&h| {
            g.neighbours(h)
                .any(|(_, n)| our.contains(&side(h, n)) && g.centre(n).0 > g.centre(h).0)
        })
        .map(|&h| id(h))
        .collect();
    r.check(
        wall.len() > 20 && wrong_bank.is_empty(),
        format!("{} West Wall hexes, none west of the Our {wrong_bank:?}", wall.len()),
    );
    r
}

fn name(hm: &HexMap, hex: &str) -> String {
    hm.grid
        .parse(hex)
        .ok()
        .and_then(|h| hm.place(h))
        .map(|p| p.name_en.clone())
        .unwrap_or_default()
}

/// Counts for the summary.
pub fn summary(map: &Map, hm: &HexMap) -> Vec<String> {
    let g = &hm.grid;
    let mut out = vec![format!(
        "grid: {} columns (A1–A40, B1–B40) × rows {}–{} = {} hexes, {} km a hex",
        g.spec().cols[1],
        g.spec().rows[0],
        g.spec().rows[1],
        g.len(),
        hm.about.scale_km.unwrap_or(0.0)
    )];
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for h in g.hexes() {
        for name in hm.terrain_names() {
            if hm.terrain(h) & hm.terrain_mask(name) != 0 {
                *counts.entry(name.as_str()).or_default() += 1;
            }
        }
    }
    out.push(format!("hexes by terrain: {counts:?}"));
    let share = |names: &[&str]| {
        let n = g
            .hexes()
            .filter(|&h| names.iter().any(|n| hm.terrain(h) & hm.terrain_mask(n) != 0))
            .count();
        format!("{n} ({:.1} %)", n as f64 * 100.0 / g.len() as f64)
    };
    out.push(format!(
        "woods {}, forest {}, woods and forest {}, slope {}, marsh {}",
        share(&["woods"]),
        share(&["forest"]),
        share(&["woods", "forest"]),
        share(&["slope"]),
        share(&["marsh"])
    ));
    out.push(format!(
        "places: {} ({} VP hexes)",
        map.places.len(),
        map.places.iter().filter(|p| p.vp).count()
    ));
    for kind in ["meuse", "river", "stream", "bridge", "border"] {
        let each: Vec<String> = hm
            .side_lines
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| format!("{} {}", l.name_en, l.hexes.len() / 2))
            .collect();
        out.push(format!("{kind}: {}", each.join(", ")));
    }
    for l in hm.side_lines.iter().filter(|l| l.kind.starts_with("built-bridge")) {
        out.push(format!("{}: {}", l.kind, l.name_en));
    }
    for kind in ["road", "track"] {
        let mask = hm.side_mask(kind);
        let hexes = g.hexes().filter(|&h| hm.any_side(h, mask)).count();
        let lines = hm.paths.iter().filter(|p| p.kind == kind).count();
        out.push(format!("{kind}: {lines} paths over {hexes} hexes"));
    }
    for (name, hexes) in &hm.hex_sets {
        if name.starts_with("edge-") || name.starts_with("supply-") {
            out.push(format!("set {name}: {} hexes", hexes.len()));
            continue;
        }
        let ids: Vec<String> = hexes.iter().map(|&h| g.id(h).0).collect();
        out.push(format!("set {name} ({}): {}", hexes.len(), ids.join(" ")));
    }
    out
}

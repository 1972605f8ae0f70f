//! The data files against the rules: the map's graph, the corrections of supplement 8.5, the
//! facts the rulebook states about spaces, counters and cards, and the loader's refusals.

use crate::data::{CARDS_TOML, MAP_TOML, PIECES_TOML};
use crate::{Data, Deck, Kind, Nation, Side};
use sandtable_core::graph::Space;
use sandtable_core::map::Provenance;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::OnceLock;

/// The embedded data, loaded once for all the tests.
fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| Data::load().unwrap_or_else(|e| panic!("{e}")))
}

fn sp(d: &Data, id: &str) -> Space {
    d.space(id).unwrap_or_else(|| panic!("no space `{id}`"))
}

/// The ids of the spaces with a property, sorted.
fn ids_where(d: &Data, f: impl Fn(Space) -> bool) -> BTreeSet<String> {
    d.map
        .graph
        .space_indices()
        .filter(|&s| f(s))
        .map(|s| d.map.graph.space(s).id.clone())
        .collect()
}

fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|s| s.to_string()).collect()
}

/// The features of the connection between two spaces (panics if they are not joined).
fn line(d: &Data, a: &str, b: &str) -> u32 {
    let c = d
        .map
        .graph
        .connection(sp(d, a), sp(d, b))
        .unwrap_or_else(|| panic!("{a} – {b} not joined"));
    d.map.features(c)
}

#[test]
fn the_files_load_with_their_source() {
    let d = data();
    assert_eq!(d.map.graph.len(), 285, "281 map spaces and 4 boxes (supplement 6.17)");
    assert_eq!(d.map.graph.connections.len(), 476);
    assert_eq!(d.pieces.len(), 193, "191 in the csv and the two missing US corps");
    assert_eq!(d.cards.len(), 130);
    for about in [&d.map.about, &d.pieces_about, &d.cards_about] {
        assert_eq!(about.source, Provenance::Reference);
        assert!(about
            .basis
            .contains("reference: rally-the-troops/paths-of-glory@67df587, csv/"));
    }
    // Every space has names in both languages, and no two share one.
    let mut en = BTreeSet::new();
    let mut zh = BTreeSet::new();
    for s in d.map.graph.space_indices() {
        let info = d.map.graph.space(s);
        assert!(!info.name_en.is_empty() && !info.name_zh.is_empty(), "{}", info.id);
        assert!(
            info.name_zh.chars().any(|c| c as u32 >= 0x4e00),
            "{}: {}",
            info.id,
            info.name_zh
        );
        assert!(en.insert(info.name_en.clone()), "English name {} twice", info.name_en);
        assert!(zh.insert(info.name_zh.clone()), "Chinese name {} twice", info.name_zh);
    }
}

#[test]
fn every_connection_joins_two_map_spaces() {
    let d = data();
    let n = d.map.graph.len();
    for c in &d.map.graph.connections {
        assert!(c.a.idx() < n && c.b.idx() < n && c.a != c.b);
        assert!(!d.facts(c.a).is_box && !d.facts(c.b).is_box, "a box has a connection");
    }
    let solid = d.map.graph.connections.iter().filter(|c| c.features == 0).count();
    assert_eq!(solid, 452, "452 solid lines, 24 dashed (supplement 8.2)");
}

#[test]
fn the_map_is_one_graph_apart_from_the_boxes() {
    let d = data();
    let start = sp(d, "london");
    let mut seen = vec![false; d.map.graph.len()];
    seen[start.idx()] = true;
    let mut queue = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        for &(_, n) in d.map.graph.exits(s) {
            if !seen[n.idx()] {
                seen[n.idx()] = true;
                queue.push_back(n);
            }
        }
    }
    for s in d.map.graph.space_indices() {
        assert_eq!(seen[s.idx()], !d.facts(s).is_box, "{}", d.map.graph.space(s).id);
    }
    assert_eq!(
        ids_where(d, |s| d.facts(s).is_box),
        set(&[
            "ap-reserve-box",
            "cp-reserve-box",
            "ap-eliminated-box",
            "cp-eliminated-box"
        ])
    );
    assert_eq!(d.map.space_set("boxes").len(), 4);
}

#[test]
fn the_near_east_is_joined_to_europe_by_five_links() {
    // Supplement 6.17: Adrianople–Constantinople, Gallipoli–Constantinople, Balikesir–Bursa,
    // Caucasus–Poti, Caucasus–Grozny; Constantinople and Bursa belong to the Near East (2.4).
    let d = data();
    let ne: BTreeSet<Space> = d.map.space_set("near-east").iter().copied().collect();
    assert_eq!(ne.len(), 63);
    for s in d.map.graph.space_indices() {
        assert_eq!(ne.contains(&s), d.facts(s).near_east);
    }
    assert!(ne.contains(&sp(d, "constantinople")) && ne.contains(&sp(d, "bursa")));
    let mut links = BTreeSet::new();
    for c in &d.map.graph.connections {
        if ne.contains(&c.a) != ne.contains(&c.b) {
            let (a, b) = (&d.map.graph.space(c.a).id, &d.map.graph.space(c.b).id);
            links.insert(if a < b { format!("{a}/{b}") } else { format!("{b}/{a}") });
        }
    }
    assert_eq!(
        links,
        set(&[
            "adrianople/constantinople",
            "constantinople/gallipoli",
            "balikesir/bursa",
            "caucasus/poti",
            "caucasus/grozny"
        ])
    );
}

#[test]
fn the_corrections_of_supplement_8_5_hold() {
    let d = data();
    // Brussels is a capital (3.0).
    assert!(d.facts(sp(d, "brussels")).capital);
    // Cairo, Port Said and Alexandria are VP spaces.
    for id in ["cairo", "port-said", "alexandria"] {
        assert!(d.facts(sp(d, id)).vp, "{id}");
    }
    // Each MEF beach has one link, marked as a beach link and nothing else.
    let m = d.lines;
    for (beach, shore) in [
        ("mef1", "gallipoli"),
        ("mef2", "cana-kale"),
        ("mef3", "izmir"),
        ("mef4", "adana"),
    ] {
        assert_eq!(d.map.graph.exits(sp(d, beach)).len(), 1, "{beach}");
        assert_eq!(line(d, beach, shore), m.mef_beach, "{beach}");
    }
    assert_eq!(d.map.space_set("mef-beaches").len(), 4);
    // War Status of CP #33 and #34, Kerensky Offensive not a combat card, AP #47's units.
    assert_eq!(d.card(Side::Cp, 33).unwrap().ws, 2);
    assert_eq!(d.card(Side::Cp, 34).unwrap().ws, 2);
    assert!(!d.card(Side::Ap, 45).unwrap().combat);
    let r = d.card(Side::Ap, 47).unwrap().reinforcements.clone().unwrap();
    assert_eq!(r.nation, Nation::Us);
    assert_eq!(r.units, ["2 Army", "US Corps"]);
    for n in [14, 20, 23] {
        assert_eq!(d.card(Side::Cp, n).unwrap().name_en, "Austria-Hungary Reinforcements");
    }
    // Six US corps.
    let us_corps = d
        .pieces
        .iter()
        .filter(|p| p.nation == Nation::Us && p.kind == Kind::Corps)
        .count();
    assert_eq!(us_corps, 6);
    // The ANA: British for activation, its own lines, never the British-only ones.
    let ana: Vec<_> = d.pieces.iter().filter(|p| p.label == "ANA Corps").collect();
    assert_eq!(ana.len(), 1);
    assert_eq!(ana[0].activation_nation(), Nation::Br);
    let ana_bit = m.for_nation(ana[0].line_nation());
    assert_eq!(ana_bit, m.only_ana);
    assert_eq!(line(d, "london", "calais") & ana_bit, 0);
    assert_ne!(line(d, "arabia", "medina") & ana_bit, 0);
    // A British corps may use London–Calais but not Arabia–Medina.
    let br_bit = m.for_nation(Nation::Br);
    assert_ne!(line(d, "london", "calais") & br_bit, 0);
    assert_eq!(line(d, "arabia", "medina") & br_bit, 0);
}

#[test]
fn the_dashed_lines_are_those_the_rules_list() {
    // Supplement 6.17 and 8.2; London–Calais British only (11.1.4).
    let d = data();
    let m = d.lines;
    let mut want: BTreeMap<(String, String), u32> = BTreeMap::new();
    let mut add = |a: &str, b: &str, f: u32| {
        let k = if a < b {
            (a.to_string(), b.to_string())
        } else {
            (b.to_string(), a.to_string())
        };
        want.insert(k, f);
    };
    for b in ["cherbourg", "le-havre", "calais"] {
        add("london", b, m.only_br);
    }
    add("taranto", "valona", m.only_it);
    for (a, b) in [
        ("riga", "reval"),
        ("reval", "petrograd"),
        ("pskov", "petrograd"),
        ("petrograd", "velikiye-luki"),
        ("velikiye-luki", "moscow"),
        ("moscow", "smolensk"),
        ("kharkov", "kiev"),
        ("caucasus", "uman"),
        ("caucasus", "odessa"),
        ("caucasus", "poti"),
        ("caucasus", "grozny"),
    ] {
        add(a, b, m.only_ru);
    }
    for (a, b) in [
        ("gallipoli", "mef1"),
        ("cana-kale", "mef2"),
        ("izmir", "mef3"),
        ("adana", "mef4"),
    ] {
        add(a, b, m.mef_beach);
    }
    for b in ["amman", "jerusalem", "medina", "aqaba"] {
        add("arabia", b, m.only_ana);
    }
    add("medina", "aqaba", m.only_ana | m.only_tu);
    // The "To Caucasus" box joins Russia and the Near East by Russian-only lines alone (2.4).
    let caucasus = d.map.graph.exits(sp(d, "caucasus"));
    assert_eq!(caucasus.len(), 4);
    assert!(caucasus.iter().all(|&(c, _)| d.map.features(c) == m.only_ru));
    let mut got = BTreeMap::new();
    for c in &d.map.graph.connections {
        if c.features != 0 {
            let (a, b) = (d.map.graph.space(c.a).id.clone(), d.map.graph.space(c.b).id.clone());
            got.insert(if a < b { (a, b) } else { (b, a) }, c.features);
        }
    }
    assert_eq!(got, want);
}

#[test]
fn supply_sources_follow_14_2() {
    let d = data();
    let named = |name: &str| -> BTreeSet<String> {
        d.map
            .space_set(name)
            .iter()
            .map(|&s| d.map.graph.space(s).id.clone())
            .collect()
    };
    assert_eq!(
        named("supply-cp"),
        set(&["essen", "breslau", "sofia", "constantinople"])
    );
    assert_eq!(
        named("supply-ru-sb-ro"),
        set(&["petrograd", "moscow", "kharkov", "caucasus", "belgrade"])
    );
    assert_eq!(named("supply-ap-other"), set(&["london"]));
    assert_eq!(named("supply-sb-salonika"), set(&["salonika"]));
    // The supply symbols on the map are exactly the unconditional sources.
    let mut all = named("supply-cp");
    all.extend(named("supply-ru-sb-ro"));
    all.extend(named("supply-ap-other"));
    assert_eq!(ids_where(d, |s| d.facts(s).supply_source), all);
    // The Russian sources sit on the edge of the main map: Moscow, Kharkov and the Caucasus
    // box furthest east, Petrograd furthest north of Russia.
    let europe: Vec<Space> = d
        .map
        .graph
        .space_indices()
        .filter(|&s| !d.facts(s).near_east && !d.facts(s).is_box)
        .collect();
    let pos = |s: Space| (d.map.graph.space(s).x, d.map.graph.space(s).y);
    let east = europe.iter().map(|&s| pos(s).0).fold(f64::MIN, f64::max);
    for id in ["moscow", "kharkov", "caucasus"] {
        assert_eq!(pos(sp(d, id)).0, east, "{id}");
    }
    let russia = europe.iter().filter(|&&s| d.facts(s).nation.as_deref() == Some("ru"));
    let north = russia.map(|&s| pos(s).1).fold(f64::MAX, f64::min);
    assert_eq!(pos(sp(d, "petrograd")).1, north);
}

#[test]
fn capitals_are_those_of_3_0() {
    // Supplement 3.0: AH has two capitals; Russia and the US none.
    let d = data();
    let want = [
        ("vienna", "ah"),
        ("budapest", "ah"),
        ("brussels", "be"),
        ("london", "br"),
        ("sofia", "bu"),
        ("paris", "fr"),
        ("berlin", "ge"),
        ("athens", "gr"),
        ("rome", "it"),
        ("cetinje", "mn"),
        ("bucharest", "ro"),
        ("belgrade", "sb"),
        ("constantinople", "tu"),
    ];
    assert_eq!(
        ids_where(d, |s| d.facts(s).capital),
        want.iter().map(|(id, _)| id.to_string()).collect()
    );
    for (id, nation) in want {
        assert_eq!(d.facts(sp(d, id)).nation.as_deref(), Some(nation), "{id}");
    }
}

#[test]
fn forts_ports_terrain_and_vp_agree_with_the_supplement() {
    let d = data();
    let fort = |id: &str| d.facts(sp(d, id)).fort;
    // Some forts of supplement 6.17, with their value, and their owners.
    for (id, v, side) in [
        ("liege", 3, Side::Ap),
        ("verdun", 3, Side::Ap),
        ("paris", 1, Side::Ap),
        ("warsaw", 2, Side::Ap),
        ("odessa", 3, Side::Ap),
        ("basra", 1, Side::Ap),
        ("metz", 3, Side::Cp),
        ("konigsberg", 3, Side::Cp),
        ("przemysl", 3, Side::Cp),
        ("gaza", 2, Side::Cp),
        ("erzerum", 1, Side::Cp),
    ] {
        assert_eq!(fort(id), v, "{id}");
        assert_eq!(d.facts(sp(d, id)).faction, side, "{id}");
    }
    let forts = |side| d.spaces.iter().filter(|f| f.fort > 0 && f.faction == side).count();
    assert_eq!((forts(Side::Ap), forts(Side::Cp)), (18, 16));
    // CP ports, usable only in Germany and Russia (6.17).
    assert_eq!(
        ids_where(d, |s| d.facts(s).port_cp),
        set(&[
            "wilhelmshaven",
            "kiel",
            "rostock",
            "stettin",
            "kolberg",
            "danzig",
            "konigsberg",
            "memel",
            "libau",
            "riga"
        ])
    );
    // Allied ports (6.17; the MEF Beachhead is a marker, not a space of the map).
    assert_eq!(
        ids_where(d, |s| d.facts(s).port_ap),
        set(&[
            "london",
            "cherbourg",
            "nantes",
            "la-rochelle",
            "bordeaux",
            "le-havre",
            "calais",
            "ostend",
            "marseilles",
            "genoa",
            "naples",
            "taranto",
            "venice",
            "athens",
            "salonika",
            "constantinople",
            "basra",
            "port-said",
            "alexandria"
        ])
    );
    // The CP VP spaces at start (6.17).
    assert_eq!(
        ids_where(d, |s| d.facts(s).vp && d.facts(s).faction == Side::Cp),
        set(&[
            "strasbourg",
            "metz",
            "koblenz",
            "aachen",
            "essen",
            "frankfurt",
            "stuttgart",
            "munich",
            "berlin",
            "breslau",
            "posen",
            "danzig",
            "konigsberg",
            "trent",
            "trieste",
            "vienna",
            "cracow",
            "budapest",
            "debrecen",
            "lemberg",
            "czernowitz",
            "cluj",
            "sofia",
            "constantinople",
            "mosul",
            "damascus",
            "baghdad",
            "medina"
        ])
    );
    // Terrain counts (supplement 8.1 and 6.17).
    let count = |t: &str| {
        let m = d.map.terrain_mask(t);
        d.map
            .graph
            .space_indices()
            .filter(|&s| d.map.terrain(s) & m != 0)
            .count()
    };
    assert_eq!(
        (count("mountain"), count("forest"), count("swamp"), count("desert")),
        (55, 9, 6, 8)
    );
    assert_eq!(
        ids_where(d, |s| d.map.terrain(s) & d.map.terrain_mask("swamp") != 0),
        set(&["calais", "ostend", "pinsk", "kovel", "sarny", "mozyr"])
    );
    assert_ne!(d.map.terrain(sp(d, "sinai")) & d.map.terrain_mask("desert"), 0);
    // VP spaces: 37 Allied, 28 CP at start (6.17), 65 with the three Egyptian ones.
    let vp = |side| d.spaces.iter().filter(|f| f.vp && f.faction == side).count();
    assert_eq!((vp(Side::Ap), vp(Side::Cp)), (37, 28));
    // The VP flags follow the Historical scenario (5.7.2.2, 5.7.2.3); the two sets say which
    // spaces differ without it.
    let named = |name: &str| -> BTreeSet<String> {
        d.map
            .space_set(name)
            .iter()
            .map(|&s| d.map.graph.space(s).id.clone())
            .collect()
    };
    assert_eq!(
        named("vp-historical-added"),
        set(&["kovno", "sedan", "amiens", "koblenz", "aachen"])
    );
    assert_eq!(
        named("vp-historical-removed"),
        set(&["ahwaz", "venice", "minsk", "jerusalem", "kharput"])
    );
    assert!(d.map.space_set("vp-historical-added").iter().all(|&s| d.facts(s).vp));
    assert!(d.map.space_set("vp-historical-removed").iter().all(|&s| !d.facts(s).vp));
    for id in ["ahwaz", "sinai"] {
        // Ahwaz is a Persian space (the seed's 9.5.3 text); Sinai has the -3 DRM (12.2.6).
        assert!(d.space(id).is_some());
    }
    assert_eq!(d.facts(sp(d, "ahwaz")).nation.as_deref(), Some("pe"));
}

#[test]
fn the_spaces_the_rules_and_set_ups_name_exist_in_their_country() {
    let d = data();
    // Spaces the seed's rules name (rules inventory 2.4), in the country the rules place them.
    for (id, nation) in [
        ("antwerp", "be"),
        ("ostend", "be"),
        ("calais", "fr"),
        ("amiens", "fr"),
        ("orleans", "fr"),
        ("sedan", "fr"),
        ("cambrai", "fr"),
        ("chateau-thierry", "fr"),
        ("medina", "tu"),
        ("essen", "ge"),
        ("breslau", "ge"),
        ("salonika", "gr"),
        ("gallipoli", "tu"),
        ("grozny", "ru"),
        ("poti", "ru"),
    ] {
        assert_eq!(d.facts(sp(d, id)).nation.as_deref(), Some(nation), "{id}");
    }
    // Set-up spaces of supplement 6.13 with their side at start.
    for (id, side) in [
        ("bremen", Side::Cp),
        ("aachen", Side::Cp),
        ("koblenz", Side::Cp),
        ("mulhouse", Side::Cp),
        ("insterberg", Side::Cp),
        ("oppeln", Side::Cp),
        ("tarnow", Side::Cp),
        ("munkacs", Side::Cp),
        ("timisvar", Side::Cp),
        ("novi-sad", Side::Cp),
        ("sarajevo", Side::Cp),
        ("villach", Side::Cp),
        ("bar-le-duc", Side::Ap),
        ("grenoble", Side::Ap),
        ("belfort", Side::Ap),
        ("szawli", Side::Ap),
        ("lublin", Side::Ap),
        ("kamenets-podolski", Side::Ap),
        ("valjevo", Side::Ap),
        ("cetinje", Side::Ap),
        ("asiago", Side::Ap),
        ("maggiore", Side::Ap),
        ("giresun", Side::Cp),
        ("rize", Side::Cp),
        ("damascus", Side::Cp),
        ("port-said", Side::Ap),
    ] {
        assert_eq!(d.facts(sp(d, id)).faction, side, "{id}");
    }
    // The Russian set-up on the Near East map: Batum, Kars, Erivan.
    for id in ["batum", "kars", "erivan"] {
        let f = d.facts(sp(d, id));
        assert!(f.near_east && f.nation.as_deref() == Some("ru"), "{id}");
    }
    // Kermanshah falls to the CP when Turkey enters (its code is Turkish), Basra is Persian.
    assert_eq!(d.facts(sp(d, "kermanshah")).nation.as_deref(), Some("tu"));
    assert_eq!(d.facts(sp(d, "basra")).nation.as_deref(), Some("pe"));
    // Standard Chinese names.
    for (id, zh) in [
        ("verdun", "凡尔登"),
        ("gallipoli", "加里波利"),
        ("petrograd", "彼得格勒"),
        ("constantinople", "君士坦丁堡"),
    ] {
        assert_eq!(d.map.graph.space(sp(d, id)).name_zh, zh);
    }
    // Names from the seed's Chinese text, in simplified characters.
    for (id, zh) in [
        ("london", "伦敦"),
        ("paris", "巴黎"),
        ("orleans", "奥尔良"),
        ("vienna", "维也纳"),
        ("budapest", "布达佩斯"),
    ] {
        assert_eq!(d.map.graph.space(sp(d, id)).name_zh, zh);
    }
}

#[test]
fn the_countries_hold_the_spaces_the_supplement_counts() {
    // Supplement 6.17: spaces by country code; none on the MEF beaches.
    let d = data();
    let mut by: BTreeMap<String, usize> = BTreeMap::new();
    for f in d.spaces.iter().filter(|f| !f.is_box) {
        *by.entry(f.nation.clone().unwrap_or_else(|| "none".into())).or_default() += 1;
    }
    let want: BTreeMap<String, usize> = [
        ("ru", 62),
        ("tu", 47),
        ("ah", 38),
        ("ge", 36),
        ("fr", 31),
        ("it", 18),
        ("ro", 9),
        ("bu", 7),
        ("pe", 6),
        ("gr", 5),
        ("sb", 5),
        ("be", 4),
        ("eg", 4),
        ("none", 4),
        ("al", 2),
        ("br", 1),
        ("mn", 1),
        ("ar", 1),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(by, want);
    // The neutrals' set-up spaces on entry (supplement 6.13) lie in their country.
    let nation_of = |id: &str| d.facts(sp(d, id)).nation.clone().unwrap_or_default();
    for id in ["turin", "verona", "asiago", "maggiore", "udine", "rome", "taranto"] {
        assert_eq!(nation_of(id), "it", "{id}");
    }
    for id in [
        "adrianople",
        "gallipoli",
        "constantinople",
        "balikesir",
        "ankara",
        "adana",
        "rize",
        "erzerum",
        "van",
        "mosul",
        "baghdad",
        "damascus",
        "gaza",
        "medina",
        "giresun",
    ] {
        assert_eq!(nation_of(id), "tu", "{id}");
        assert_eq!(d.facts(sp(d, id)).faction, Side::Cp, "{id}");
    }
    for id in ["florina", "larisa", "athens"] {
        assert_eq!(nation_of(id), "gr", "{id}");
    }
    assert_eq!(nation_of("sofia"), "bu");
    assert_eq!(nation_of("bucharest"), "ro");
    // Neutrals carry the side they join (supplement 8.1): Italy, Romania, Greece, Albania and
    // Persia the Allies, Bulgaria and Turkey the CP.
    for (nation, side) in [
        ("it", Side::Ap),
        ("ro", Side::Ap),
        ("gr", Side::Ap),
        ("al", Side::Ap),
        ("pe", Side::Ap),
        ("bu", Side::Cp),
        ("tu", Side::Cp),
    ] {
        assert!(
            d.spaces
                .iter()
                .filter(|f| f.nation.as_deref() == Some(nation))
                .all(|f| f.faction == side),
            "{nation}"
        );
    }
    // Libya is Egyptian but starts CP-controlled.
    assert_eq!(
        (nation_of("libya").as_str(), d.facts(sp(d, "libya")).faction),
        ("eg", Side::Cp)
    );
}

#[test]
fn the_counters_agree_with_the_manifest() {
    // Supplement 6.18: 67 armies and 126 corps.
    let d = data();
    let armies = d.pieces.iter().filter(|p| p.kind == Kind::Army).count();
    assert_eq!((armies, d.pieces.len() - armies), (67, 126));
    let corps = |n: Nation, label: &str| {
        d.pieces
            .iter()
            .filter(|p| p.nation == n && p.kind == Kind::Corps && p.label == label)
            .count()
    };
    assert_eq!(corps(Nation::Ge, "GE Corps"), 19);
    assert_eq!(corps(Nation::Ge, "POL Corps"), 3);
    assert_eq!(corps(Nation::Ah, "A-H Corps"), 11);
    assert_eq!(corps(Nation::Tu, "TU Corps"), 14);
    assert_eq!(corps(Nation::Bu, "BU Corps"), 6);
    assert_eq!(corps(Nation::Ru, "RU Corps"), 18);
    assert_eq!(corps(Nation::Br, "BR Corps"), 10);
    assert_eq!(corps(Nation::Fr, "FR Corps"), 10);
    assert_eq!(corps(Nation::It, "IT Corps"), 7);
    // The dotted counters (9 in the csv).
    let dotted: BTreeSet<&str> = d
        .pieces
        .iter()
        .filter(|p| p.not_replaceable)
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(
        dotted,
        [
            "tu-army-yld",
            "tu-army-aoi",
            "fr-army-orient",
            "br-army-bef",
            "br-army-ne",
            "br-army-mef",
            "ru-army-cau",
            "br-corps-bef",
            "sn-corps"
        ]
        .into_iter()
        .collect()
    );
    // Only the six Near East armies carry the flag (11.3.1).
    let ne: BTreeSet<&str> = d.pieces.iter().filter(|p| p.near_east).map(|p| p.id.as_str()).collect();
    assert_eq!(
        ne,
        [
            "tu-army-yld",
            "tu-army-aoi",
            "fr-army-orient",
            "br-army-ne",
            "br-army-mef",
            "ru-army-cau"
        ]
        .into_iter()
        .collect()
    );
    let f = |id: &str| d.piece(id).unwrap_or_else(|| panic!("no piece {id}"));
    // A French army is LF 3 on both sides (12.4.3); a corps LF 1.
    assert_eq!((f("fr-army-1").full.lf, f("fr-army-1").reduced.lf), (3, 3));
    assert_eq!(f("ge-army-1").full, crate::Factors { cf: 5, lf: 3, mf: 3 });
    assert_eq!(f("br-army-bef").full.cf, 5);
    // Montenegro's corps never moves (MF 0).
    assert_eq!(f("mn-corps").full.mf, 0);
    // Ids are unique (the loader checks) and every corps that shares a label has a number.
    assert_eq!(
        d.pieces.iter().map(|p| &p.id).collect::<BTreeSet<_>>().len(),
        d.pieces.len()
    );
}

#[test]
fn the_decks_agree_with_the_rules() {
    let d = data();
    for side in [Side::Ap, Side::Cp] {
        let of = |deck, optional: Option<bool>| {
            d.cards
                .iter()
                .filter(|c| c.side == side && c.deck == deck && optional.is_none_or(|o| c.optional == o))
                .count()
        };
        // Supplement 6.16: 14/20/21 basic, 16/24/25 with the optional cards.
        assert_eq!(
            (
                of(Deck::Mobilization, None),
                of(Deck::Limited, None),
                of(Deck::Total, None)
            ),
            (16, 24, 25)
        );
        assert_eq!(
            (
                of(Deck::Mobilization, Some(false)),
                of(Deck::Limited, Some(false)),
                of(Deck::Total, Some(false))
            ),
            (14, 20, 21)
        );
        let numbers: BTreeSet<u8> = d.cards.iter().filter(|c| c.side == side).map(|c| c.number).collect();
        assert_eq!(numbers, (1..=65).collect());
    }
    // War Status totals (supplement 6.15): CP 25 (22 without Prince Max), AP 23 (22 without Sixtus).
    let ws = |side, optional: bool| {
        d.cards
            .iter()
            .filter(|c| c.side == side && (optional || !c.optional))
            .map(|c| c.ws as u32)
            .sum::<u32>()
    };
    assert_eq!((ws(Side::Cp, true), ws(Side::Cp, false)), (25, 22));
    assert_eq!((ws(Side::Ap, true), ws(Side::Ap, false)), (23, 22));
    // 9.5.2.5: Romania is AP #16, Italy AP #17.
    assert_eq!(d.card(Side::Ap, 16).unwrap().name_en, "Romania");
    assert_eq!(d.card(Side::Ap, 17).unwrap().name_en, "Italy");
    // 8.4: 115 cards carry the `*`.
    assert_eq!(d.cards.iter().filter(|c| c.remove).count(), 115);
    // Every card has a Chinese name of its own words, and an English one.
    assert!(d.cards.iter().all(|c| c.name_zh.chars().any(|ch| ch as u32 >= 0x4e00)));
}

#[test]
fn the_reinforcement_cards_bring_the_counters_there_are() {
    // Each army a card brings exists once and is brought by one card; the corps the cards
    // bring never outnumber the counters (supplement 6.13 count check, 6.14).
    let d = data();
    let mut armies = BTreeMap::new();
    let mut corps: BTreeMap<(Nation, String), usize> = BTreeMap::new();
    for c in &d.cards {
        let Some(r) = &c.reinforcements else { continue };
        for u in &r.units {
            let matching: Vec<_> = d
                .pieces
                .iter()
                .filter(|p| {
                    p.side == c.side && &p.label == u && (p.nation == r.nation || p.activates_as == Some(r.nation))
                })
                .collect();
            assert!(!matching.is_empty(), "{}: {u}", c.id);
            if matching[0].kind == Kind::Army {
                assert_eq!(matching.len(), 1, "{}: {u}", c.id);
                assert!(
                    armies.insert(matching[0].id.clone(), c.id.clone()).is_none(),
                    "{u} twice"
                );
            } else {
                *corps.entry((matching[0].nation, u.clone())).or_default() += 1;
            }
        }
    }
    for ((n, label), k) in &corps {
        let have = d.pieces.iter().filter(|p| p.nation == *n && &p.label == label).count();
        assert!(*k <= have, "{label}: cards bring {k}, there are {have}");
    }
    // All six US corps arrive by cards (#38, #43 ×2, #47, #64 ×2): the US sets up nothing.
    assert_eq!(corps[&(Nation::Us, "US Corps".to_string())], 6);
    assert_eq!(armies["us-army-2"], "ap-47");
}

/// A malformed file is refused with its line, never a panic.
#[test]
fn malformed_files_are_refused_with_the_line() {
    let line_of = |text: &str, needle: &str| text[..text.find(needle).unwrap()].matches('\n').count() + 1;
    let load = |m: &str, p: &str, c: &str| Data::from_texts(m, p, c).unwrap_err();

    // A connection to a space that does not exist.
    let needle = "a = \"verdun\"\nb = \"nancy\"";
    let bad = MAP_TOML.replacen(needle, "a = \"verdun\"\nb = \"nowhere\"", 1);
    let e = load(&bad, PIECES_TOML, CARDS_TOML);
    assert_eq!(e.file, "data/map.toml");
    let at = line_of(MAP_TOML, needle) - 1; // the [[connection]] header
    assert_eq!(
        e.message,
        format!("line {at}: connection verdun – nowhere: there is no space `nowhere`")
    );

    // A space whose faction is neither side.
    let needle = "properties = { ref = 15, map = \"europe\", nation = \"fr\", faction = \"ap\"";
    let bad = MAP_TOML.replacen(needle, &needle.replace("\"ap\"", "\"xx\""), 1);
    let e = load(&bad, PIECES_TOML, CARDS_TOML);
    let at = line_of(MAP_TOML, "id = \"paris\"");
    assert_eq!(
        e.message,
        format!("line {at}: space `paris`: faction must be \"ap\" or \"cp\"")
    );

    // A TOML syntax error: the reader names the line.
    let bad = MAP_TOML.replacen("x = 181", "x = = 181", 1);
    let e = load(&bad, PIECES_TOML, CARDS_TOML);
    assert!(
        e.message.contains(&format!("line {}", line_of(MAP_TOML, "x = 181"))),
        "{e}"
    );

    // A piece id used twice.
    let bad = PIECES_TOML.replacen("id = \"ge-army-2\"", "id = \"ge-army-1\"", 1);
    let e = load(MAP_TOML, &bad, CARDS_TOML);
    assert_eq!(e.file, "data/pieces.toml");
    let first = line_of(PIECES_TOML, "id = \"ge-army-1\"") - 1;
    let again = line_of(PIECES_TOML, "id = \"ge-army-2\"") - 1;
    assert_eq!(
        e.message,
        format!("line {again}: piece `ge-army-1`: the id is taken by the piece on line {first}")
    );

    // A misspelt key in a piece.
    let bad = PIECES_TOML.replacen("near_east = true", "neareast = true", 1);
    let e = load(MAP_TOML, &bad, CARDS_TOML);
    assert!(
        e.message
            .contains(&format!("line {}", line_of(PIECES_TOML, "near_east = true"))),
        "{e}"
    );
    assert!(e.message.contains("unknown field `neareast`"), "{e}");

    // A reinforcement naming no counter, and a card with impossible OPS/SR.
    let bad = CARDS_TOML.replacen("units = [\"9 Army\"]", "units = [\"99 Army\"]", 1);
    let e = load(MAP_TOML, PIECES_TOML, &bad);
    let at = line_of(CARDS_TOML, "id = \"cp-07\"") - 1;
    assert_eq!(e.file, "data/cards.toml");
    assert_eq!(
        e.message,
        format!("line {at}: card `cp-07`: no ge counter is labelled `99 Army`")
    );
    let bad = CARDS_TOML.replacen("ops = 4\nsr = 4", "ops = 4\nsr = 3", 1);
    let e = load(MAP_TOML, PIECES_TOML, &bad);
    assert!(e.message.ends_with("OPS/SR 4/3 is not 2/2, 3/4, 4/4 or 5/5"), "{e}");
}

/// FNV-1a, 64 bits: the digest tools/gen_data.py wrote for each `effect` cell of the reference
/// cards.csv.
fn fnv1a64(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Every string value of a TOML document.
fn strings(v: &toml::Value, out: &mut Vec<String>) {
    match v {
        toml::Value::String(s) => out.push(s.clone()),
        toml::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        toml::Value::Table(t) => t.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings(x, out)
        }),
        _ => {}
    }
}

#[test]
fn no_string_of_the_data_is_a_card_effect_of_the_reference() {
    let digests: BTreeSet<u64> = include_str!("effect-digests.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| u64::from_str_radix(l, 16).unwrap())
        .collect();
    assert!(digests.len() > 100);
    let readme = include_str!("../../data/README.md");
    for text in [MAP_TOML, PIECES_TOML, CARDS_TOML, readme] {
        let mut all = Vec::new();
        if let Ok(v) = text.parse::<toml::Table>() {
            strings(&toml::Value::Table(v), &mut all);
        }
        // Every line, and every comment on its own, as well.
        for l in text.lines() {
            all.push(l.trim().to_string());
            if let Some((_, comment)) = l.split_once('#') {
                all.push(comment.trim().to_string());
            }
        }
        for s in all {
            assert!(
                !digests.contains(&fnv1a64(s.trim())),
                "`{s}` is a card effect of the reference"
            );
        }
    }
    // The digest is the standard FNV-1a (the published value for "a"), as the script computes it.
    assert_eq!(fnv1a64("a"), 0xaf63_dc4c_8601_ec8c);
}

/// The rows of a CSV text: fields split on commas, quoted fields with `""` for a quote.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let (mut row, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    row.push(field);
    rows.push(row);
    rows
}

/// Where the reference cards.csv is read from, when it is at hand: `SANDTABLE_POG_REFERENCE`,
/// else the shared reference directory beside the repository.
fn reference_cards() -> Option<String> {
    let dir = std::env::var("SANDTABLE_POG_REFERENCE").unwrap_or_else(|_| {
        format!(
            "{}/../../../../shared/reference/paths-of-glory",
            env!("CARGO_MANIFEST_DIR")
        )
    });
    std::fs::read_to_string(format!("{dir}/cards.csv")).ok()
}

/// With the reference file at hand: no data file, source file or document of this crate holds
/// any `effect` cell, even inside a longer text, and the digests are those of the cells.
#[test]
fn no_file_of_the_crate_contains_a_card_effect() {
    let Some(text) = reference_cards() else {
        eprintln!("the reference cards.csv is not at hand: only the digests were checked");
        return;
    };
    let rows = csv_rows(&text);
    let col = rows[0].iter().position(|h| h == "effect").expect("an effect column");
    assert_eq!(rows.len(), 131, "a header and 130 cards");
    let cells: Vec<&str> = rows[1..]
        .iter()
        .map(|r| r[col].trim())
        .filter(|c| !c.is_empty())
        .collect();
    let digests: BTreeSet<u64> = include_str!("effect-digests.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| u64::from_str_radix(l, 16).unwrap())
        .collect();
    assert_eq!(cells.iter().map(|c| fnv1a64(c)).collect::<BTreeSet<_>>(), digests);
    let ours = [
        MAP_TOML,
        PIECES_TOML,
        CARDS_TOML,
        include_str!("../../data/README.md"),
        include_str!("../lib.rs"),
        include_str!("../data.rs"),
        include_str!("../../tools/gen_data.py"),
        include_str!("data.rs"),
    ];
    for cell in cells.iter().filter(|c| c.len() >= 12) {
        for file in ours {
            assert!(!file.contains(cell), "a file holds the card effect `{cell}`");
        }
    }
}

/// Damaged files (cut short, a line dropped, a value swapped for a text) are refused with a
/// message or loaded, never a panic.
#[test]
fn damaged_files_never_panic() {
    let damage = |text: &str, k: usize| -> Vec<String> {
        let lines: Vec<&str> = text.lines().collect();
        let at = (k * 7919) % lines.len();
        let mut dropped = lines.clone();
        dropped.remove(at);
        let mut swapped = lines.clone();
        let bad = swapped[at].replace(|c: char| c.is_ascii_digit(), "\"x\"");
        swapped[at] = &bad;
        vec![
            text[..text.char_indices().nth(k * 4099 % text.chars().count()).unwrap().0].to_string(),
            dropped.join("\n"),
            swapped.join("\n"),
        ]
    };
    let mut refused = 0;
    for k in 1..=2 {
        for bad in damage(MAP_TOML, k) {
            refused += Data::from_texts(&bad, PIECES_TOML, CARDS_TOML).is_err() as usize;
        }
        for bad in damage(PIECES_TOML, k) {
            refused += Data::from_texts(MAP_TOML, &bad, CARDS_TOML).is_err() as usize;
        }
        for bad in damage(CARDS_TOML, k) {
            let e = Data::from_texts(MAP_TOML, PIECES_TOML, &bad);
            if let Err(e) = &e {
                assert!(e.message.contains("line"), "{e}");
            }
            refused += e.is_err() as usize;
        }
    }
    assert!(refused > 6, "most damage is noticed ({refused} of 18)");
}

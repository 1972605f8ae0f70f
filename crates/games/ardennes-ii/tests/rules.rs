//! The rulebook's examples and rules, played through the engine on positions built on the
//! reconstructed map: movement costs (1.3, TEC), column shifts (1.2's example), ZOC Bonds and
//! moving adjacently (1.2), barrage (3.5), combat, retreat and advance (3.2, SCS 8.0), supply
//! (3.7), stacking (3.1) and the refusals that cite the rule.

mod common;

use common::*;
use sandtable_ardennes_ii::data::Data;
use sandtable_ardennes_ii::rules::{Board, EIGHTHS};
use sandtable_ardennes_ii::sequence::{Phase, Side};
use sandtable_ardennes_ii::state::{Loc, Stage, UnitId};
use sandtable_ardennes_ii::world::{World, MAP_TOML};
use sandtable_ardennes_ii::Action;
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::game::Rules;
use sandtable_core::hex::{opposite, Dir, Hex};
use sandtable_core::search::Search;

/// The half-MP cost of unit `u` stepping from `a` into its neighbour `b`.
fn cost(g: &ArdennesII, u: UnitId, a: Hex, b: Hex) -> Option<u32> {
    let d = g.world().map.grid.dir_to(a, b).expect("adjacent");
    board(g).step_cost(u, a, d, b)
}

/// The column shift the last combat roll printed in the journal.
fn last_shift(g: &ArdennesII) -> u32 {
    let line = journal(g)
        .into_iter()
        .rev()
        .find(|l| l.starts_with("3.2: ") && l.contains("column(s) left"))
        .expect("a combat roll in the journal");
    line.split(", ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no shift in `{line}`"))
}

fn stage(g: &ArdennesII) -> Option<Stage> {
    g.combat().map(|c| c.stage)
}

// ---- 1.3: roads across streams and bridges ----

/// The first hexside of `w`'s map, as a hex `a`, the direction `d` and the neighbour `b`
/// across it, for which `f` gives something.
fn first_hexside<T>(w: &World, mut f: impl FnMut(Hex, Dir, Hex) -> Option<T>) -> Option<T> {
    let grid = &w.map.grid;
    grid.hexes()
        .flat_map(|a| grid.neighbours(a).map(move |(d, b)| (a, d, b)))
        .find_map(|(a, d, b)| f(a, d, b))
}

/// The turn a German-built bridge across hexside (`a`, `d`) stands from, if it has one (3.8).
fn built_on(w: &World, a: Hex, d: Dir) -> Option<u8> {
    (1..17u8).find(|&t| w.map.side(a, d) & w.s.built[t as usize] != 0)
}

/// The real map with one bridged Road-over-stream crossing made unbridged and its far hex
/// made Woods: 1.3's example, which the reconstructed map does not have as such (every Road
/// across a stream there has its bridge). Returns the world and the crossing.
fn stream_example_world() -> (World, Hex, Dir, Hex) {
    let shipped = World::shipped().expect("the shipped world");
    let grid = &shipped.map.grid;
    let (a, d, b) = first_hexside(&shipped, |a, d, b| {
        (shipped.road_across(a, d) == Some("road")
            && shipped.hexside_names(a, d) == ["stream"]
            && shipped.map.side(a, d) & shipped.s.bridge != 0
            && shipped.terrain_names[b.idx()] == ["open"])
        .then_some((a, d, b))
    })
    .expect("a bridged Road over a stream into open ground");
    let (ia, ib) = (grid.id(a).0, grid.id(b).0);
    let mut text = MAP_TOML.to_string();
    // Take the bridge out: the pair is listed once, in either order.
    let bridges = text.find("kind = \"bridge\"").expect("the bridge line");
    let (pair, at) = [format!("\"{ia}/{ib}\""), format!("\"{ib}/{ia}\"")]
        .into_iter()
        .find_map(|p| text[bridges..].find(p.as_str()).map(|i| (p, bridges + i)))
        .expect("the bridge is listed");
    let end = text[at + pair.len()..]
        .find(|c: char| c != ',' && c != ' ' && c != '\n')
        .map_or(text.len(), |e| at + pair.len() + e);
    if text[end..].starts_with(']') {
        text.replace_range(at..at + pair.len(), "");
    } else {
        text.replace_range(at..end, "");
    }
    // Woods in the far hex: its row's line in the terrain block, its global column.
    let (col, row) = grid.col_row(b);
    let tag = format!("# {row:02}");
    let line_start = text
        .lines()
        .scan(0usize, |pos, l| {
            let here = *pos;
            *pos += l.len() + 1;
            Some((here, l))
        })
        .find(|(_, l)| l.trim_start().starts_with('"') && l.trim_end().ends_with(&tag))
        .map(|(p, _)| p)
        .expect("the terrain row");
    let first = grid.spec().cols[0] as usize;
    let at = line_start + text[line_start..].find('"').expect("a quoted row") + 1 + (col as usize - first);
    assert_eq!(&text[at..at + 1], ".", "the far hex is open in the terrain grid");
    text.replace_range(at..at + 1, "w");
    let data = Data::load().expect("the data loads");
    let w = World::new(data, &text).expect("the edited map loads");
    assert!(!w.bridge(a, d, 16) && w.terrain_names[b.idx()] == ["woods"]);
    (w, a, d, b)
}

#[test]
fn the_stream_crossing_of_1_3_costs_a_mech_unit_8_mp_and_a_bridge_keeps_the_road_rate() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let mech = pick(&g, 1, &[], mech_no_exploit(Side::German))[0];
    let foot_unit = pick(&g, 1, &[], foot(Side::German))[0];
    let (w, a, d, b) = stream_example_world();
    put(&mut g, mech, a);
    // Across the stream without a bridge: Woods 6 + stream 2 = 8 MP, in half MP 16.
    let board = Board::new(&w, g.state());
    assert_eq!(
        board.step_cost(mech, a, d, b),
        Some(16),
        "1.3: 6 for Woods + 2 for Stream"
    );
    assert_eq!(board.step_cost(foot_unit, a, d, b), Some(6), "foot: Woods 2 + stream 1");
    // The search prices the crossing the same way: with 8 MP left the unit gets there, and
    // with 7½ it cannot take that step.
    let mut search = Search::new();
    let allowance = board.allowance(mech);
    g.edit().units[mech as usize].spent = (allowance - 16) as u16;
    let board = Board::new(&w, g.state());
    board.reach(mech, &mut search);
    assert!(search.cost(b).is_some_and(|c| c <= 16), "reach: 8 MP suffice");
    g.edit().units[mech as usize].spent = (allowance - 15) as u16;
    let board = Board::new(&w, g.state());
    board.reach(mech, &mut search);
    assert_ne!(search.parent(b), Some(a), "reach: 7½ MP do not pay the crossing");
    // On the shipped map the same crossing has its bridge: the Road's ½ MP.
    g.edit().units[mech as usize].spent = 0;
    let shipped = common::board(&g).step_cost(mech, a, d, b);
    assert_eq!(shipped, Some(1), "a bridge carries the Road (1.3 (a))");
}

/// Woods, with nothing dearer or closed to mech units beside it (a village and the West Wall
/// cost as the other terrain).
fn woods_only(w: &World, h: Hex) -> bool {
    let t = &w.terrain_names[h.idx()];
    t.contains(&"woods") && t.iter().all(|n| matches!(*n, "woods" | "village" | "west-wall"))
}

#[test]
fn a_road_over_a_river_before_its_german_bridge_is_built_or_after_a_demolition_pays_the_terrain() {
    let w = World::shipped().expect("the shipped world");
    // 3.8: a German-built bridge does not exist before its day; then the road is not
    // connected and 1.3's crossing applies: the far hex's own cost plus the hexside's.
    let (a, b, day) = first_hexside(&w, |a, d, b| {
        let day = built_on(&w, a, d)?;
        (w.road_across(a, d) == Some("road") && w.hexside_names(a, d) == ["river"] && woods_only(&w, b))
            .then_some((a, b, day))
    })
    .expect("a German-built Road bridge over a river into woods");
    let mut g = empty(day - 1, Phase::Movement(Side::German));
    let mech = pick(&g, 1, &[], mech_no_exploit(Side::German))[0];
    let walker = pick(&g, 1, &[], foot(Side::German))[0];
    put(&mut g, mech, a);
    put(&mut g, walker, a);
    assert_eq!(cost(&g, walker, a, b), Some(8), "turn {}: Woods 2 + river 2", day - 1);
    assert_eq!(cost(&g, mech, a, b), None, "a river is P to mech units");
    g.edit().turn = day;
    assert_eq!(cost(&g, walker, a, b), Some(1), "turn {day}: the bridge stands, Road ½");
    assert_eq!(cost(&g, mech, a, b), Some(1));

    // 3.8: a blown bridge cuts the road the same way.
    let (a, b, symbol) =
        first_hexside(&w, |a, d, b| {
            let i = w.side_symbol[a.idx()][d as usize]?;
            (w.road_across(a, d) == Some("road") && w.hexside_names(a, d) == ["river"] && woods_only(&w, b))
                .then_some((a, b, w.demolitions[i as usize].0))
        })
        .expect("a primed Road bridge over a river into woods");
    let mut g = empty(5, Phase::Movement(Side::Allied));
    let walker = pick(&g, 1, &[], foot(Side::Allied))[0];
    put(&mut g, walker, a);
    assert_eq!(cost(&g, walker, a, b), Some(1), "the bridge stands");
    g.edit().blown.push(symbol);
    assert_eq!(cost(&g, walker, a, b), Some(8), "blown: Woods 2 + river 2");
}

#[test]
fn the_railroad_bridge_joins_its_road_from_its_day_only() {
    let w = World::shipped().expect("the shipped world");
    // 3.8: the one German-built railroad bridge spans no water (the Losheim overpass on the
    // map); before its day the road is not connected across it, so the far hex costs its own
    // terrain, as over a river.
    let (a, b, day) = first_hexside(&w, |a, d, b| {
        let day = built_on(&w, a, d)?;
        (w.road_across(a, d) == Some("road") && w.hexside_names(a, d).is_empty()).then_some((a, b, day))
    })
    .expect("a German-built bridge over dry ground");
    let mut g = empty(day - 1, Phase::Movement(Side::German));
    let mech = pick(&g, 1, &[], mech_no_exploit(Side::German))[0];
    put(&mut g, mech, a);
    let off_road = w.costs.hex[Side::German.seat() as usize][1][b.idx()].map(u32::from);
    assert_eq!(
        cost(&g, mech, a, b),
        off_road,
        "turn {}: the road is cut there",
        day - 1
    );
    g.edit().turn = day;
    assert_eq!(cost(&g, mech, a, b), Some(1), "turn {day}: the bridge stands, Road ½");
}

// ---- 1.2: the column shift example ----

/// A combat on `target` by German foot units from `from` (one stack per hex), against
/// `defenders` (US foot units), rolled; returns the shift the journal printed.
fn shift_of_combat(target: &str, from: &[Hex], g: &mut ArdennesII) -> u32 {
    let t = hex(g, target);
    let attackers = pick(g, from.len(), &[], foot(Side::German));
    let defender = pick(g, 1, &[], foot(Side::Allied))[0];
    put(g, defender, t);
    for (&u, &h) in attackers.iter().zip(from) {
        put(g, u, h);
    }
    attack(g, t, &attackers);
    assert_eq!(seat(g), ALLIED);
    // 3.2: in a City the defender must stand.
    assert_eq!(legal(g), vec![Action::Stand]);
    // The defender sees the odds before the dice, each shift with its rule.
    let told = g.describe(&Action::Stand);
    play(g, Action::Stand);
    let shift = last_shift(g);
    let terrain = g
        .world()
        .data
        .tables
        .tec
        .defender_shift(Side::Allied, &g.world().terrain_names[t.idx()]) as u32;
    let split = format!(
        "{terrain} column(s) left for the defender's terrain, {} for the hexsides attacked across (1.3)",
        shift - terrain
    );
    assert!(told.en.contains(&split), "{}", told.en);
    assert!(
        told.zh.contains(&format!("进攻所越格边左移 {} 列", shift - terrain)),
        "{}",
        told.zh
    );
    shift
}

/// The neighbours of `h` across hexsides with exactly these features (none for dry ones).
fn across(g: &ArdennesII, h: Hex, features: &[&str]) -> Vec<Hex> {
    g.world()
        .map
        .grid
        .neighbours(h)
        .filter(|&(d, _)| g.world().hexside_names(h, d) == features)
        .map(|(_, n)| n)
        .collect()
}

#[test]
fn the_column_shift_example_of_1_2_through_the_engine() {
    // Spa (B8.47) is City with woods: only the City counts, 2 left.
    let mut g = empty(3, Phase::Combat(Side::German));
    let spa = hex(&g, "B8.47");
    assert!(has(&g, spa, "city") && has(&g, spa, "woods"));
    let dry = across(&g, spa, &[]);
    assert_eq!(shift_of_combat("B8.47", &dry[..2], &mut g), 2, "City and woods: 2 left");

    // Huy (A18.49) is a City with a stream on one side: one stack across it adds 1.
    let mut g = empty(3, Phase::Combat(Side::German));
    let huy = hex(&g, "A18.49");
    let wet = across(&g, huy, &["stream"]);
    let dry = across(&g, huy, &[]);
    assert!(!wet.is_empty() && !dry.is_empty());
    assert_eq!(
        shift_of_combat("A18.49", &[wet[0], dry[0]], &mut g),
        3,
        "City + 1 stream stack"
    );

    // Every stack across a stream adds its own column: the first open hex of the map with
    // streams on two sides and a dry one.
    let mut g = empty(3, Phase::Combat(Side::German));
    let open = g
        .world()
        .map
        .grid
        .hexes()
        .find(|&h| {
            g.world().terrain_names[h.idx()] == ["open"]
                && across(&g, h, &["stream"]).len() >= 2
                && !across(&g, h, &[]).is_empty()
        })
        .expect("an open hex with streams on two sides");
    let open_id = g.world().map.grid.id(open).0;
    let wet = across(&g, open, &["stream"]);
    assert_eq!(
        shift_of_combat(&open_id, &wet[..2], &mut g),
        2,
        "two stream stacks, open ground"
    );
    let mut g = empty(3, Phase::Combat(Side::German));
    let dry = across(&g, open, &[]);
    assert_eq!(shift_of_combat(&open_id, &[wet[0], dry[0]], &mut g), 1);

    // The book's last case, City with woods and both stacks across streams, with the
    // engine's own names for these hexes and hexsides: 4.
    let w = &g.world();
    let stream_side = |h: Hex, n: Hex| w.hexside_names(h, w.map.grid.dir_to(h, n).expect("adjacent"));
    let a = stream_side(open, wet[0]);
    let b = stream_side(huy, across(&g, huy, &["stream"])[0]);
    let tec = &w.data.tables.tec;
    assert_eq!(
        tec.combat_shift(Side::Allied, &w.terrain_names[spa.idx()], &[&a, &b]),
        4
    );
}

// ---- 1.2: ZOC Bonds and moving adjacently ----

/// Posts P and Q two hexes apart in a straight line through M, on open ground.
fn line(g: &ArdennesII, m: Hex) -> (Hex, Hex) {
    (step(g, m, 0), step(g, m, opposite(0)))
}

#[test]
fn a_zoc_bond_costs_the_enemy_4_mp_not_4_plus_1() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let m = field(&g, 3, 0);
    let (p, q) = line(&g, m);
    let posts = pick(&g, 2, &[], bond_infantry(Side::Allied));
    let tank = pick(&g, 1, &[], mech_no_exploit(Side::German))[0];
    // X: next to M and to P, so moving X→M is also moving adjacently.
    let x = g
        .world()
        .map
        .grid
        .neighbours(m)
        .map(|(_, n)| n)
        .find(|&n| g.world().map.grid.adjacent(n, p) && n != q && n != p)
        .expect("x");
    put(&mut g, tank, x);
    let base = cost(&g, tank, x, m).expect("open ground");
    assert_eq!(base, 6, "Open, mech: 3 MP");
    put(&mut g, posts[0], p);
    put(&mut g, posts[1], q);
    let b = board(&g);
    assert_eq!(b.bond_hexes(Side::Allied), vec![m], "1.2: the hex between the posts");
    assert!(b.enemy_bond(Side::German, m) && !b.enemy_bond(Side::Allied, m));
    assert!(b.enemy_adjacent(Side::German, x), "X is next to a post");
    assert_eq!(cost(&g, tank, x, m), Some(base + 8), "TEC note 3 (A8): +4, not +4+1");

    // A one-step post binds nothing (1.2 (1)): the same move is only moving adjacently.
    g.edit().units[posts[1] as usize].reduced = true;
    assert!(board(&g).bond_hexes(Side::Allied).is_empty());
    assert_eq!(cost(&g, tank, x, m), Some(base + 2));
}

#[test]
fn a_post_in_a_city_forms_no_bond() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let world = g.world().clone();
    let grid = &world.map.grid;
    // A City with a straight line of two open hexes off it, and an open hex next to both.
    let (c, m, q, x) = grid
        .hexes()
        .filter(|&c| has(&g, c, "city"))
        .find_map(|c| {
            grid.neighbours(c).find_map(|(d, m)| {
                let q = grid.neighbour(m, d)?;
                let x = grid
                    .neighbours(m)
                    .map(|(_, n)| n)
                    .find(|&n| grid.adjacent(n, q) && plain(&g, n) && !grid.adjacent(n, c))?;
                (plain(&g, m) && plain(&g, q) && !g.world().water(c, d) && !g.world().water(m, d))
                    .then_some((c, m, q, x))
            })
        })
        .expect("a City with open ground beside it");
    let posts = pick(&g, 2, &[], bond_infantry(Side::Allied));
    let tank = pick(&g, 1, &[], mech_no_exploit(Side::German))[0];
    put(&mut g, tank, x);
    let base = cost(&g, tank, x, m).expect("open");
    put(&mut g, posts[0], c);
    put(&mut g, posts[1], q);
    let b = board(&g);
    assert!(
        b.bond_hexes(Side::Allied).is_empty(),
        "1.2 (7): no post in a City ({})",
        id(&g, c)
    );
    assert!(!b.enemy_bond(Side::German, m));
    assert_eq!(cost(&g, tank, x, m), Some(base + 2), "only moving adjacently: +1");
}

#[test]
fn moving_adjacently_costs_1_mp_from_a_hex_next_to_an_enemy_into_another() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let e = field(&g, 3, 0);
    let world = g.world().clone();
    let grid = &world.map.grid;
    let enemy = pick(&g, 1, &[], foot(Side::Allied))[0];
    let tank = pick(&g, 1, &[], mech_no_exploit(Side::German))[0];
    let x = step(&g, e, 0);
    let y = grid
        .neighbours(x)
        .map(|(_, n)| n)
        .find(|&n| n != e && grid.adjacent(n, e))
        .expect("y");
    let z = grid
        .neighbours(x)
        .map(|(_, n)| n)
        .find(|&n| grid.distance(n, e) == 2)
        .expect("z");
    put(&mut g, tank, x);
    let (base_y, base_z) = (cost(&g, tank, x, y).expect("open"), cost(&g, tank, x, z).expect("open"));
    put(&mut g, enemy, e);
    assert_eq!(
        cost(&g, tank, x, y),
        Some(base_y + 2),
        "next to the enemy into next to it: +1"
    );
    assert_eq!(cost(&g, tank, x, z), Some(base_z), "moving away costs nothing more");
    assert_eq!(
        cost(&g, tank, z, x),
        Some(base_z),
        "moving up to the enemy costs nothing more"
    );
    // The legal moves agree: with 3½ MP left, Y is out of reach, Z is not.
    let allowance = board(&g).allowance(tank);
    g.edit().units[tank as usize].spent = (allowance - 7) as u16;
    let l = legal(&g);
    assert!(l.contains(&Action::move_to(tank, z)));
    assert!(!l.contains(&Action::move_to(tank, y)));
    refused(&mut g, GERMAN, &Action::move_to(tank, y), "3.1");
}

// ---- 3.2: retreats into bonds ----

#[test]
fn a_retreat_into_a_bond_hex_stops_there_and_loses_a_step() {
    let mut g = empty(3, Phase::Combat(Side::Allied));
    let m = field(&g, 4, 0);
    let world = g.world().clone();
    let grid = &world.map.grid;
    let (p, q) = line(&g, m);
    // The defender next to M and P, not Q.
    let d = grid
        .neighbours(m)
        .map(|(_, n)| n)
        .find(|&n| grid.adjacent(n, p) && n != p && n != q)
        .expect("a defender hex");
    let posts = pick(&g, 2, &[], bond_infantry(Side::Allied));
    let tank = pick(&g, 1, &[], exploiter(Side::German))[0];
    put(&mut g, posts[0], p);
    put(&mut g, posts[1], q);
    put(&mut g, tank, d);
    assert_eq!(board(&g).bond_hexes(Side::Allied), vec![m]);
    attack(&mut g, d, &[posts[0]]);
    assert_eq!(seat(&g), GERMAN);
    assert_eq!(
        legal(&g),
        vec![Action::Stand, Action::Withdraw],
        "all mech, not DG: a choice"
    );
    play(&mut g, Action::Withdraw);
    assert_eq!(stage(&g), Some(Stage::Retreat));
    let to = retreats(&g);
    assert!(to.contains(&m), "the bond hex is a place to stop");
    for &h in &to {
        assert!(
            h == m || grid.distance(d, h) == 5,
            "{}: a Withdraw goes 5 hexes",
            id(&g, h)
        );
    }
    play(&mut g, Action::RetreatTo { to: m });
    let st = &g.state().units[tank as usize];
    assert_eq!(st.hex(), Some(m), "it stops in the bond");
    assert!(st.reduced, "and loses a step");
    let v = seen(&g, tank).expect("on the map");
    assert_eq!(
        (v["loc"].as_str(), v["reduced"].as_bool()),
        (Some(id(&g, m).as_str()), Some(true))
    );
}

#[test]
fn a_blocked_retreat_stays_put_and_loses_a_step() {
    let mut g = empty(3, Phase::Combat(Side::Allied));
    let d = field(&g, 2, 0);
    let ring: Vec<Hex> = g.world().map.grid.neighbours(d).map(|(_, n)| n).collect();
    let us = pick(&g, 6, &[], foot(Side::Allied));
    for (&u, &h) in us.iter().zip(&ring) {
        put(&mut g, u, h);
    }
    let tank = pick(&g, 1, &[], exploiter(Side::German))[0];
    put(&mut g, tank, d);
    attack(&mut g, d, &[us[0]]);
    play(&mut g, Action::Withdraw);
    assert_eq!(
        legal(&g),
        vec![Action::RetreatTo { to: d }],
        "blocked: only where it stands"
    );
    play(&mut g, Action::RetreatTo { to: d });
    assert!(g.state().units[tank as usize].reduced);
    assert_eq!(g.state().units[tank as usize].hex(), Some(d));
}

// ---- 3.5: barrage ----

#[test]
fn fire_needs_an_observer_within_2_hexes_and_the_target_in_range() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let t = field(&g, 1, 0);
    let gun = pick(&g, 1, &[], gun(Side::German, 4))[0];
    let range = def(&g, gun).range.expect("a range") as u32;
    let watcher = pick(&g, 1, &[], foot(Side::German))[0];
    let target_unit = pick(&g, 1, &[], foot(Side::Allied))[0];
    let world = g.world().clone();
    let at = |k: u32| ring(&world, t, k);
    put(&mut g, target_unit, t);
    put(&mut g, gun, at(3));
    put(&mut g, watcher, at(2));
    let fire = Action::Fire { unit: gun, target: t };
    assert!(legal(&g).contains(&fire), "observer 2 hexes away, target in range");
    put(&mut g, watcher, at(3));
    assert!(!legal(&g).contains(&fire), "3.5: no friendly unit within 2 hexes");
    refused(&mut g, GERMAN, &fire, "3.5");
    // Out of range, even with the observer next to the target.
    put(&mut g, watcher, at(1));
    put(&mut g, gun, at(range + 1));
    assert!(!legal(&g).contains(&fire), "3.5: beyond range {range}");
    put(&mut g, gun, at(range));
    assert!(legal(&g).contains(&fire), "at range {range}");
    // The artillery observes for itself.
    put(&mut g, watcher, at(5));
    put(&mut g, gun, at(2));
    assert!(legal(&g).contains(&fire), "3.5: artillery may observe for itself");
    // DG artillery may not fire (3.4).
    g.edit().units[gun as usize].dg = true;
    assert!(!legal(&g).contains(&fire));
}

#[test]
fn barrage_adds_1_per_extra_unit_in_the_target_hex() {
    for (occupants, drm) in [(1usize, 0), (3, 2)] {
        let mut g = empty(3, Phase::Movement(Side::German));
        let t = field(&g, 1, 0);
        let gun = pick(&g, 1, &[], gun(Side::German, 2))[0];
        let gh = ring(g.world(), t, 2);
        put(&mut g, gun, gh);
        for u in pick(&g, occupants, &[], foot(Side::Allied)) {
            put(&mut g, u, t);
        }
        let (die, modified, _) = fire(&mut g, gun, t);
        assert_eq!(
            modified,
            die + drm,
            "3.5: +1 per unit beyond the first ({occupants} units)"
        );
        assert!(g.state().units[gun as usize].fired);
        assert!(
            !legal(&g).contains(&Action::Fire { unit: gun, target: t }),
            "fires once"
        );
    }
}

#[test]
fn full_markers_halve_or_quarter_strength_and_multiply_with_dg() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let h = field(&g, 1, 0);
    let u = pick(&g, 1, &[], foot(Side::Allied))[0];
    put(&mut g, u, h);
    let face = def(&g, u).front;
    let (a, d) = (face.attack as u32 * EIGHTHS, face.defence as u32 * EIGHTHS);
    assert_eq!((board(&g).strength(u, true), board(&g).strength(u, false)), (a, d));
    mark(&mut g, h, Side::Allied, 2, 0);
    assert_eq!(board(&g).strength(u, false), d, "friendly markers: no effect");
    mark(&mut g, h, Side::German, 1, 0);
    assert_eq!(
        (board(&g).strength(u, true), board(&g).strength(u, false)),
        (a / 2, d / 2),
        "one Full: ½"
    );
    g.edit().units[u as usize].dg = true;
    assert_eq!(board(&g).strength(u, false), d / 4, "A5: DG ½ × barrage ½");
    g.edit().units[u as usize].dg = false;
    mark(&mut g, h, Side::German, 1, 0);
    assert_eq!(board(&g).strength(u, false), d / 4, "two Full: ¼");
    // Half markers count for nothing until reconciled (A4).
    g.edit().markers.clear();
    mark(&mut g, h, Side::German, 0, 3);
    assert_eq!(board(&g).strength(u, false), d);
}

#[test]
fn enemy_full_markers_cost_2_mp_to_enter_and_to_leave_friendly_ones_1_to_enter() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let x = field(&g, 2, 0);
    let y = step(&g, x, 0);
    let z = step(&g, y, 0);
    let tank = pick(&g, 1, &[], mech_no_exploit(Side::German))[0];
    put(&mut g, tank, x);
    let base = cost(&g, tank, x, y).expect("open");
    assert_eq!(cost(&g, tank, y, z), Some(base));
    mark(&mut g, y, Side::Allied, 1, 0);
    assert_eq!(cost(&g, tank, x, y), Some(base + 4), "enemy Full: +2 to enter");
    assert_eq!(cost(&g, tank, y, z), Some(base + 4), "and +2 to leave");
    mark(&mut g, y, Side::Allied, 1, 0);
    assert_eq!(cost(&g, tank, x, y), Some(base + 8), "two Full: +4");
    g.edit().markers.clear();
    mark(&mut g, y, Side::German, 2, 0);
    assert_eq!(
        cost(&g, tank, x, y),
        Some(base + 2),
        "friendly: +1 to enter, however many"
    );
    assert_eq!(cost(&g, tank, y, z), Some(base), "nothing to leave");
    // A unit that enters an enemy Full-marker hex may not overrun or exploit afterwards.
    g.edit().markers.clear();
    mark(&mut g, y, Side::Allied, 1, 0);
    play(&mut g, Action::move_to(tank, y));
    assert!(
        g.state().units[tank as usize].barraged,
        "3.5: barraged for the rest of the phase"
    );
}

#[test]
fn half_markers_are_reconciled_at_the_end_of_the_phase() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let two = field(&g, 1, 0);
    let one = field(&g, 1, 5);
    assert_ne!(two, one);
    mark(&mut g, two, Side::German, 0, 2);
    mark(&mut g, one, Side::German, 0, 1);
    let spot = field(&g, 1, 10);
    on_to_the_us_barrage_phase(&mut g, spot);
    let at = |h: Hex| g.state().markers.iter().find(|m| m.hex == h).map(|m| (m.full, m.half));
    assert_eq!(at(two), Some((1, 0)), "3.5: two Halves become one Full");
    let line = journal(&g)
        .into_iter()
        .find(|l| l.starts_with("3.5: Half marker at"))
        .expect("the lone Half rolls");
    let die = last_die(&line);
    let expect = if die >= 4 { Some((1, 0)) } else { None };
    assert_eq!(
        at(one),
        expect,
        "Half Reconciliation Table: 1–3 removed, 4–6 Full (die {die})"
    );
    assert!(
        g.state().markers.iter().all(|m| m.half == 0),
        "no Half outlives its phase"
    );
    let shown = g.view(None)["markers"].clone();
    assert!(shown
        .as_array()
        .expect("markers")
        .iter()
        .any(|m| m["hex"] == id(&g, two).as_str() && m["full"] == 1 && m["half"] == 0));
}

// ---- 3.2: combat ----

/// A German attack from the hex east of `t` (direction 1) by `attackers` on `defenders`
/// in `t`, up to the defender's choice.
fn to_stand_or_retreat(g: &mut ArdennesII, t: Hex, attackers: &[UnitId], defenders: &[UnitId]) {
    for &u in defenders {
        put(g, u, t);
    }
    let from: Vec<Hex> = g.world().map.grid.neighbours(t).map(|(_, n)| n).collect();
    for (i, &u) in attackers.iter().enumerate() {
        put(g, u, from[i % from.len()]);
    }
    attack(g, t, attackers);
    assert_eq!(stage(g), Some(Stage::StandOrRetreat));
    assert_eq!(seat(g), ALLIED);
}

#[test]
fn mandatory_stand_takes_withdraw_off_the_list() {
    let us_mech = |d: &sandtable_ardennes_ii::data::UnitDef| {
        d.side == Side::Allied && d.is_mech() && !d.is_artillery() && d.front.attack >= 1
    };
    let setup = |city: bool, f: &dyn Fn(&mut ArdennesII, UnitId, Hex)| {
        let mut g = empty(3, Phase::Combat(Side::German));
        let t = if city { hex(&g, "B20.34") } else { field(&g, 2, 0) };
        let atk = pick(&g, 1, &[], foot(Side::German));
        let def_unit = pick(&g, 1, &[], us_mech)[0];
        put(&mut g, def_unit, t);
        f(&mut g, def_unit, t);
        let dg = g.state().units[def_unit as usize].dg;
        to_stand_or_retreat(&mut g, t, &atk, &[def_unit]);
        g.edit().units[def_unit as usize].dg = dg;
        let l = legal(&g);
        (g, l)
    };
    let (_, l) = setup(false, &|_, _, _| {});
    assert_eq!(l, vec![Action::Stand, Action::Withdraw], "mech, not DG, open: a choice");
    let (mut g, l) = setup(false, &|g, u, _| g.edit().units[u as usize].dg = true);
    assert_eq!(l, vec![Action::Stand], "DG");
    refused(&mut g, ALLIED, &Action::Withdraw, "3.2");
    let (_, l) = setup(true, &|_, _, _| {});
    assert_eq!(l, vec![Action::Stand], "City (St. Vith)");
    let (_, l) = setup(false, &|g, _, t| mark(g, t, Side::German, 1, 0));
    assert_eq!(l, vec![Action::Stand], "under an enemy Full marker");
    let (_, l) = setup(false, &|g, _, t| {
        let walker = pick(g, 1, &[], foot(Side::Allied))[0];
        put(g, walker, t);
    });
    assert_eq!(l, vec![Action::Stand], "with a foot unit");
}

#[test]
fn the_attackers_first_loss_comes_from_its_strongest_unit() {
    let mut tried = 0;
    for seed in 0..200u64 {
        let mut g = empty(3, Phase::Combat(Side::German));
        let t = field(&g, 1, 0);
        let strong = units_where(&g, |d| d.side == Side::German && !d.is_artillery() && d.steps == 2)
            .into_iter()
            .max_by_key(|&u| def(&g, u).front.attack)
            .expect("a German unit");
        let best = def(&g, strong).front.attack;
        let weak = pick(&g, 1, &[strong], |d| {
            d.side == Side::German && !d.is_artillery() && d.front.attack >= 1 && d.front.attack < best
        })[0];
        let defenders = pick(&g, 3, &[], |d| {
            d.side == Side::Allied && d.movement == sandtable_ardennes_ii::data::Movement::Foot && d.front.defence >= 4
        });
        to_stand_or_retreat(&mut g, t, &[strong, weak], &defenders);
        g.edit().reseed(seed);
        play(&mut g, Action::Stand);
        if stage(&g) != Some(Stage::AttackerLoss) {
            continue;
        }
        tried += 1;
        assert_eq!(seat(&g), GERMAN);
        assert_eq!(
            legal(&g),
            vec![Action::Lose { unit: strong }],
            "SCS 8.0: the highest attack first"
        );
        refused(&mut g, GERMAN, &Action::Lose { unit: weak }, "3.2");
        play(&mut g, Action::Lose { unit: strong });
        assert!(g.state().units[strong as usize].reduced);
        if stage(&g) == Some(Stage::AttackerLoss) {
            // A second loss is the owner's choice.
            let l = legal(&g);
            assert!(l.contains(&Action::Lose { unit: weak }) && l.contains(&Action::Lose { unit: strong }));
        }
        if tried >= 3 {
            break;
        }
    }
    assert!(tried > 0, "some seed gives the attacker a loss at these odds");
}

/// A German attack by an exploit-capable unit and one without the bar on a US mech unit
/// that withdraws; returns the game at the advance, the units and the combat hex.
fn withdrawn(turn: u8) -> (ArdennesII, UnitId, UnitId, Hex) {
    let mut g = empty(turn, Phase::Combat(Side::German));
    let world = g.world().clone();
    let grid = &world.map.grid;
    // A combat hex on a road through open ground, with a road-less side as well.
    let t = grid
        .hexes()
        .filter(|&h| quiet_area(&g, h, 2) && !in_entry_area(&g, h))
        .find(|&h| {
            let roads = grid
                .neighbours(h)
                .filter(|&(d, _)| g.world().road_across(h, d).is_some())
                .count();
            (1..=4).contains(&roads)
        })
        .expect("a road through open ground");
    let ex = pick(&g, 1, &[], exploiter(Side::German))[0];
    let slow = pick(&g, 1, &[], mech_no_exploit(Side::German))[0];
    let defender = pick(&g, 1, &[], |d| {
        d.side == Side::Allied && d.is_mech() && !d.is_artillery() && d.front.attack >= 1
    })[0];
    put(&mut g, defender, t);
    // Attack from road-less sides.
    let from: Vec<Hex> = grid
        .neighbours(t)
        .filter(|&(d, _)| g.world().road_across(t, d).is_none())
        .map(|(_, n)| n)
        .collect();
    put(&mut g, ex, from[0]);
    put(&mut g, slow, from[1]);
    attack(&mut g, t, &[ex, slow]);
    let to = withdraw(&mut g);
    assert_eq!(grid.distance(t, to), 5, "a Withdraw goes 5 hexes");
    assert_eq!(g.state().units[defender as usize].hex(), Some(to));
    assert_eq!(stage(&g), Some(Stage::Advance));
    (g, ex, slow, t)
}

#[test]
fn advance_after_combat_two_hexes_along_a_road_for_exploit_capable_units_only() {
    let (mut g, ex, slow, t) = withdrawn(3);
    let l = legal(&g);
    assert!(l.contains(&Action::Advance { unit: ex, to: t }) && l.contains(&Action::Advance { unit: slow, to: t }));
    assert_eq!(
        l.iter().filter(|a| matches!(a, Action::Advance { .. })).count(),
        2,
        "the combat hex first"
    );
    play(&mut g, Action::Advance { unit: ex, to: t });
    let world = g.world().clone();
    let grid = &world.map.grid;
    let road: Vec<Hex> = grid
        .neighbours(t)
        .filter(|&(d, _)| g.world().road_across(t, d).is_some())
        .map(|(_, n)| n)
        .collect();
    let second: Vec<Hex> = legal(&g)
        .into_iter()
        .filter_map(|a| match a {
            Action::Advance { unit, to } if unit == ex => Some(to),
            _ => None,
        })
        .collect();
    let mut want = road.clone();
    want.sort();
    let mut got = second.clone();
    got.sort();
    assert_eq!(
        got, want,
        "3.2: the second hex along a road, the Withdraw counting as 2 or more"
    );
    play(&mut g, Action::Advance { unit: slow, to: t });
    assert!(
        !legal(&g)
            .iter()
            .any(|a| matches!(a, Action::Advance { unit, .. } if *unit == slow)),
        "without the bar: the combat hex only"
    );
    play(&mut g, Action::Advance { unit: ex, to: road[0] });
    assert_eq!(g.state().units[ex as usize].hex(), Some(road[0]));
    assert!(
        !legal(&g).iter().any(|a| matches!(a, Action::Advance { .. })),
        "two hexes at most"
    );
}

#[test]
fn no_german_two_hex_advance_and_no_german_exploitation_on_turn_1() {
    let (mut g, ex, _, t) = withdrawn(1);
    play(&mut g, Action::Advance { unit: ex, to: t });
    assert!(
        !legal(&g)
            .iter()
            .any(|a| matches!(a, Action::Advance { unit, .. } if *unit == ex)),
        "1.2, A12: German units are not exploit-capable on turn 1"
    );
    // A German unit free to exploit, far from the enemy.
    let runner = pick(&g, 1, &[ex], exploiter(Side::German))[0];
    let spot = field(&g, 1, 20);
    put(&mut g, runner, spot);
    let mut g2 = g.clone();
    // The combat phase ends with the advance (no other attack): on turn 1 the German
    // supply phase follows and the US player turn begins.
    play(&mut g, Action::EndAdvance);
    assert_eq!(
        g.phase(),
        Phase::Movement(Side::Allied),
        "4.3: no German exploitation on turn 1"
    );
    assert!(!journal(&g).iter().any(|l| l.starts_with("German exploitation")));
    assert!(journal(&g).iter().any(|l| l.starts_with("German supply")));
    // The same position on turn 2 stops in the German exploitation phase.
    g2.edit().turn = 2;
    play(&mut g2, Action::EndAdvance);
    assert_eq!(g2.phase(), Phase::Exploitation(Side::German));
    assert!(legal(&g2)
        .iter()
        .any(|a| matches!(a, Action::Move { unit, .. } if *unit == runner)));
}

// ---- 3.7: supply ----

#[test]
fn a_unit_cut_off_by_enemy_units_is_out_of_supply_then_recovers_when_back_in_supply() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let world = g.world().clone();
    let grid = &world.map.grid;
    let sources = board(&g).edge_sources(Side::German);
    let mut search = Search::new();
    let supplied = board(&g).supply_from(Side::German, &sources, &mut search);
    // A German hex in supply with six open neighbours, and another one far from it.
    let pocket = grid
        .hexes()
        .find(|&h| {
            supplied[h.idx()] && quiet(&g, h) && !g.world().friendly_edge(Side::German, h) && !in_entry_area(&g, h)
        })
        .expect("open ground in German supply");
    let safe = grid
        .hexes()
        .find(|&h| supplied[h.idx()] && plain(&g, h) && grid.distance(h, pocket) > 6)
        .expect("another hex in supply");
    let cut = pick(&g, 1, &[], foot(Side::German))[0];
    let fine = pick(&g, 1, &[cut], foot(Side::German))[0];
    put(&mut g, cut, pocket);
    put(&mut g, fine, safe);
    let ring: Vec<UnitId> = pick(&g, 6, &[], foot(Side::Allied));
    for (&u, (_, h)) in ring.iter().zip(grid.neighbours(pocket).collect::<Vec<_>>()) {
        put(&mut g, u, h);
    }
    run_to(&mut g, 3, Phase::Movement(Side::Allied));
    let (c, f) = (&g.state().units[cut as usize], &g.state().units[fine as usize]);
    assert!(
        c.out_of_supply && c.dg,
        "3.7: surrounded, out of supply in its supply phase: DG"
    );
    assert!(!f.out_of_supply && !f.dg);
    // The ring goes; DG stays through the pre-turn (the last supply phase found it out of
    // supply, A19), the next German supply phase finds it in supply, and the pre-turn after
    // that takes DG off (3.4).
    for u in ring {
        g.edit().units[u as usize].loc = Loc::Eliminated;
    }
    run_to(&mut g, 4, Phase::Movement(Side::German));
    assert!(
        g.state().units[cut as usize].dg,
        "still out of supply at its last supply phase"
    );
    run_to(&mut g, 4, Phase::Movement(Side::Allied));
    assert!(!g.state().units[cut as usize].out_of_supply && g.state().units[cut as usize].dg);
    run_to(&mut g, 5, Phase::Movement(Side::German));
    assert!(!g.state().units[cut as usize].dg, "3.4: DG recovery in the pre-turn");
}

// ---- 3.1: stacking ----

#[test]
fn overstacked_or_mixed_division_stacks_become_dg_at_the_end_of_the_phase() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let counters = &g.world().data.counters;
    let of = |g: &ArdennesII, f: u16| {
        units_where(g, |d| {
            d.side == Side::German && d.formation == Some(f) && !d.is_artillery()
        })
    };
    let big = (0..counters.formations.len() as u16)
        .find(|&f| of(&g, f).len() >= 7)
        .expect("a division of seven units");
    let div = of(&g, big);
    let others: Vec<UnitId> = (0..counters.formations.len() as u16)
        .filter(|&f| f != big)
        .filter_map(|f| of(&g, f).first().copied())
        .take(2)
        .collect();
    let (h4, h3, h2) = (field(&g, 1, 0), field(&g, 1, 30), field(&g, 1, 60));
    let four = div[..4].to_vec();
    let three = div[4..7].to_vec();
    for &u in &four {
        put(&mut g, u, h4);
    }
    for &u in &three {
        put(&mut g, u, h3);
    }
    for &u in &others {
        put(&mut g, u, h2);
    }
    // A fight elsewhere keeps the combat phase a decision.
    let a = field(&g, 1, 90);
    let e = pick(&g, 1, &[], foot(Side::Allied))[0];
    let taken = [&div[..], &others[..]].concat();
    let attacker = pick(&g, 1, &taken, foot(Side::German))[0];
    put(&mut g, attacker, a);
    let next = step(&g, a, 0);
    put(&mut g, e, next);
    assert_eq!(
        (board(&g).count(h4), board(&g).count(h3), board(&g).count(h2)),
        (4, 3, 2)
    );
    play(&mut g, Action::EndPhase);
    assert_eq!(g.phase(), Phase::Combat(Side::German));
    for &u in &four {
        assert!(g.state().units[u as usize].dg, "3.1: four units in a hex");
        assert_eq!(seen(&g, u).expect("on the map")["dg"], true);
    }
    for &u in &others {
        assert!(g.state().units[u as usize].dg, "3.1: two divisions in a hex");
    }
    for &u in &three {
        assert!(!g.state().units[u as usize].dg, "three of one division are fine");
    }
    assert!(!g.state().units[attacker as usize].dg);
}

// ---- refusals ----

#[test]
fn refusals_cite_a_rule_and_leave_the_game_unchanged() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let x = field(&g, 1, 0);
    let tank = pick(&g, 1, &[], mech_no_exploit(Side::German))[0];
    put(&mut g, tank, x);
    let far = g
        .world()
        .map
        .grid
        .hexes()
        .find(|&h| g.world().map.grid.distance(h, x) > 40)
        .expect("far away");
    let r = refused(&mut g, GERMAN, &Action::move_to(tank, far), "3.1");
    // The refusal says what stops the unit: the MP the cheapest route needs, or no route.
    assert!(r.text.en.contains("route"), "{}", r.text.en);
    let r = refused(&mut g, ALLIED, &Action::EndPhase, "2.1");
    assert!(r.text.en.contains("German"), "{}", r.text.en);
    refused(&mut g, GERMAN, &Action::AirStrike { target: x }, "3.5");
    let mut c = empty(3, Phase::Combat(Side::German));
    refused(&mut c, GERMAN, &Action::move_to(tank, x), "2.1");
}

//! Rules checked on positions built on the campaign map, where the map's own data (its rivers,
//! roads, towns and mountains) is what the rule meets: odds with nothing on either side
//! (10.3(4)), the second hex of an advance (10.7(1)), a line of communication along a mountain
//! road (3.3(3)), bridges and the banks of the major rivers (2.1(1)3, 9.2(3)); and the
//! campaign's first Soviet reinforcement (12.2).

mod common;
use common::*;
use sandtable_core::game::Game;
use sandtable_core::hex::Hex;
use sandtable_core::search::Search;
use sandtable_stalingrad_blitz::rules::Board;
use sandtable_stalingrad_blitz::state::{CombatStage, UnitList};
use sandtable_stalingrad_blitz::{Action, Side, StalingradBlitz};

const AXIS: u8 = 0;

/// A game on the campaign map (the embedded data) from `scenario_with`'s text.
fn campaign_position(turn: u8, units: &[(&str, &str)], tail: &str, seed: u64) -> StalingradBlitz {
    StalingradBlitz::from_text(&scenario_with(turn, "", units, tail), seed).expect("the position loads")
}

fn declare(g: &StalingradBlitz, target: &str, ids: &[&str]) -> Action {
    let mut v: Vec<u16> = ids.iter().map(|id| unit(g, id)).collect();
    v.sort_unstable();
    Action::Declare {
        target: hex(g, target),
        units: UnitList::from_slice(&v),
    }
}

// ---------------------------------------------------------------- 10.3(4) odds

/// 10.3(4): an attack below 1-1 is not allowed, and an attack strength of 0 is below 1-1
/// whatever the defence. The reduced Hungarian 6th Light Division (1-4) at 1604 faces Stary
/// Oskol (1704) across the Oskol: halved, 1 is 0 (1.0(2), 10.3(1)1). Stary Oskol holds nothing
/// but a level-1 fortress, defence 0 (14.2(1)): 0 against 0 is no attack at all, not 10-1.
#[test]
fn an_attack_strength_of_0_is_below_1_1_whatever_the_defence_10_3_4() {
    let d = sandtable_stalingrad_blitz::embedded_data().expect("the campaign data");
    let (from, town) = (d.map.grid.parse("1604").unwrap(), d.map.grid.parse("1704").unwrap());
    let dir = d.map.grid.dir_to(from, town).expect("neighbours");
    assert_ne!(
        d.map.side(from, dir) & d.s.river,
        0,
        "the Oskol runs between 1604 and 1704"
    );
    assert_eq!(d.map.place(town).map(|p| p.name_en.as_str()), Some("Stary Oskol"));

    let mut g = campaign_position(
        2,
        &[("hun-hq-2a", "1603"), ("hun-inf-6", "1604 reduced")],
        "[[fortress]]\nhex = \"1704\"\nlevel = 1\n",
        1,
    );
    execute(&mut g, "H2A");
    forced(&mut g);
    act(&mut g, Action::EndMovement);
    let attack = declare(&g, "1704", &["hun-inf-6"]);
    assert!(!legal(&g).contains(&attack), "0 against 0 is not offered as an attack");
    let r = g.check_action(AXIS, &attack).expect_err("refused");
    assert_eq!(r.rule, "10.3(4)", "{r}");
    assert!(r.text.en.contains("strength is 0"), "{}", r.text.en);
    assert!(r.text.zh.contains("攻击力为0"), "{}", r.text.zh);
    // A full-strength division (2, halved to 1) against the same fortress: 1 against 0 is the
    // 10-1 column, less the town's shift (A12, A26).
    let mut g = campaign_position(
        2,
        &[("hun-hq-2a", "1603"), ("hun-inf-6", "1604")],
        "[[fortress]]\nhex = \"1704\"\nlevel = 1\n",
        1,
    );
    execute(&mut g, "H2A");
    forced(&mut g);
    act(&mut g, Action::EndMovement);
    let attack = declare(&g, "1704", &["hun-inf-6"]);
    assert!(legal(&g).contains(&attack));
}

// ---------------------------------------------------------------- 10.7(1) advance

/// Two panzer divisions (12) attack a rifle division (2) on open ground at `target` from
/// `from` and `beside`: 6-1, die 6, 2RR: the division is gone, the hex vacated, and the
/// attackers come to advance (10.7).
fn advance_from(target: &str, from: &str, beside: &str, hq: &str) -> StalingradBlitz {
    let mut g = campaign_position(
        2,
        &[
            ("ger-hq-4pza", hq),
            ("ger-pz-9", from),
            ("ger-pz-11", beside),
            ("sov-rifle-45", target),
        ],
        "",
        1,
    );
    execute(&mut g, "4PzA");
    forced(&mut g);
    act(&mut g, Action::EndMovement);
    let attack = declare(&g, target, &["ger-pz-9", "ger-pz-11"]);
    act(&mut g, attack);
    rig_die(&mut g, 6);
    act(&mut g, Action::EndDeclare);
    forced(&mut g);
    assert_eq!(loc(&g, "sov-rifle-45"), sandtable_stalingrad_blitz::state::Loc::Pool);
    assert_eq!(combat(&g).stage, CombatStage::Advance);
    g
}

fn advance_options(g: &StalingradBlitz, id: &str) -> Vec<String> {
    let u = unit(g, id);
    let mut v: Vec<String> = legal(g)
        .iter()
        .filter_map(|a| match a {
            Action::Advance { unit, to } if *unit == u => Some(g.data().map.grid.id(*to).0),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

/// 10.7(1): "在战斗后推进途中,遇到大城市,镇,山地,浅森林,深森林,湿地格子或者大河,河格子边的时候,
/// 只能挺进1格": an advance that meets a city, town, mountain, forest or swamp hex, or a river
/// or major river hexside, goes one hex only; the TEC's advance column agrees (plain 2, forest
/// 1, town 1, river 1, major river 1). So a mechanised unit's second hex is open ground too,
/// entered across no river. 1409 is open ground; of its neighbours 1410 is Balakleya (a town),
/// 1310 forest, 1309 across the Seversky Donets; 1408 and 1510 are open.
#[test]
fn the_second_hex_of_an_advance_meets_no_town_forest_or_river_10_7_1() {
    let g = advance_from("1409", "1509", "1408", "1507");
    let d = g.data();
    let grid = &d.map.grid;
    let (t, h) = (d.t, |id: &str| grid.parse(id).unwrap());
    assert_ne!(d.map.terrain(h("1410")) & t.town, 0, "Balakleya");
    assert_ne!(d.map.terrain(h("1310")) & t.forest, 0);
    let dir = grid.dir_to(h("1409"), h("1309")).unwrap();
    assert_ne!(d.map.side(h("1409"), dir) & d.s.river, 0, "the Seversky Donets");
    // Into the vacated hex, or on over open ground: not back, not into the town, the forest
    // or across the river.
    assert_eq!(advance_options(&g, "ger-pz-9"), ["1408", "1409", "1510"]);
    assert_eq!(advance_options(&g, "ger-pz-11"), ["1409", "1509", "1510"]);
    // A refused second hex cites 10.7.
    let bad = Action::Advance {
        unit: unit(&g, "ger-pz-9"),
        to: h("1410"),
    };
    assert_eq!(g.check_action(AXIS, &bad).expect_err("refused").rule, "10.7");
}

/// 10.7(1): nor across a major river. 0513 is open ground beside the Dnieper, which flows
/// between it and 0512 and 0612 with no bridge on either hexside.
#[test]
fn the_second_hex_of_an_advance_is_not_across_a_major_river_10_7_1() {
    let g = advance_from("0513", "0514", "0413", "0515");
    let d = g.data();
    let grid = &d.map.grid;
    let h = |id: &str| grid.parse(id).unwrap();
    for across in ["0512", "0612"] {
        let dir = grid.dir_to(h("0513"), h(across)).unwrap();
        let bits = d.map.side(h("0513"), dir);
        assert_ne!(bits & d.s.major, 0, "the Dnieper runs between 0513 and {across}");
        assert_eq!(bits & (d.s.road | d.s.rail), 0, "no bridge between 0513 and {across}");
    }
    assert_eq!(advance_options(&g, "ger-pz-9"), ["0412", "0413", "0513", "0613"]);
}

// ---------------------------------------------------------------- 12.2 the Soviet track

/// 12.2: the campaign's first SOVIET REINF brings column 1 of the track, its last row
/// included: 2 NKVD-Mot 1-2-6 (mechanised: attack 1, defence 2, MA 6) with the HQ, 2 Tk,
/// 22 Rifle and 1 G-Rifle, 28 units in all; the pool holds the two NKVD units it asks for.
#[test]
fn the_first_soviet_reinforcement_brings_two_nkvd_mot_12_2() {
    let mut g = StalingradBlitz::new_game("campaign", 1).expect("the campaign loads");
    let d = g.data().clone();
    let nkvd = |u: usize| {
        let def = &d.units[u];
        def.side == sandtable_stalingrad_blitz::Side::Soviet && def.mech && def.full.label(true) == "1-2-6"
    };
    let in_pool = (0..d.units.len())
        .filter(|&u| nkvd(u) && g.state().units[u].loc == sandtable_stalingrad_blitz::state::Loc::Pool)
        .count();
    assert_eq!(in_pool, 2, "two NKVD-Mot 1-2-6 in the reserve pool");
    assert_eq!(g.state().track, 1);
    execute(&mut g, "SOVIET-REINF");
    assert_eq!(g.state().track, 2, "12.2(3): the marker moves on");
    // The HQ is chosen apart; the other 27 arrive at once.
    let arriving: Vec<usize> = g.state().arriving.iter().map(|&(u, _)| u as usize).collect();
    assert_eq!(arriving.len(), 27);
    assert_eq!(arriving.iter().filter(|&&u| nkvd(u)).count(), 2);
}

// ---------------------------------------------------------------- 3.3(3) LOC along a mountain road

/// 3.3(3): "连络线只有在道路经过的场合才能通过山岳格子. 不通过道路格子进入山岳格子的话, 在这个格子
/// 立即停止": a LOC passes mountain hexes only along a road; one that enters a mountain hex off
/// the road stops there. The 1st Mountain Division stands at 2833 on
/// the Sukhumi Military Road over the Klukhor pass (Cherkessk 2930 – 2830 – 2831 – 2832 – 2833,
/// the last three mountain hexes), with the railway at Cherkessk and every town Axis-held. Its
/// LOC runs up the road; a shorter way into 2832 off the road (which must stop there) does not
/// cut it. At SUPPLY it keeps its strength.
#[test]
fn a_loc_runs_up_a_mountain_road_past_a_cheaper_off_road_entry_3_3_3() {
    let mut g = campaign_position(2, &[("ger-mt-1", "2833")], "", 1);
    {
        let d = g.data().clone();
        let e = g.edit();
        for h in d.map.grid.hexes() {
            if d.is_urban[h.idx()] {
                e.state.control[h.idx()] = Some(Side::Axis);
            }
        }
    }
    let d = g.data().clone();
    let grid = &d.map.grid;
    let h = |id: &str| grid.parse(id).unwrap();
    let road: Vec<Hex> = ["2930", "2830", "2831", "2832", "2833"]
        .iter()
        .map(|id| h(id))
        .collect();
    for w in road.windows(2) {
        let dir = grid.dir_to(w[0], w[1]).unwrap();
        assert_ne!(d.map.side(w[0], dir) & d.s.road, 0, "the road runs {:?}", w);
    }
    for id in ["2831", "2832", "2833"] {
        assert_ne!(d.map.terrain(h(id)) & d.t.mountain, 0, "{id} is a mountain hex");
    }
    let reach = Board::new(g.data(), g.state()).trace_loc(Side::Axis, &mut Search::new());
    assert!(
        reach[h("2832").idx()] && reach[h("2833").idx()],
        "the LOC runs up the road"
    );
    assert_eq!(reach, reference_loc(&g, Side::Axis));
    let soviet = Board::new(g.data(), g.state()).trace_loc(Side::Soviet, &mut Search::new());
    assert_eq!(soviet, reference_loc(&g, Side::Soviet));
    execute(&mut g, "SUPPLY");
    assert!(!reduced(&g, "ger-mt-1"), "in supply along the Klukhor road");
}

/// The LOC traces of both sides agree with the reference at every SUPPLY chit of a random
/// campaign game.
#[test]
fn loc_traces_agree_with_the_reference_in_play_3_3() {
    let mut g = StalingradBlitz::new_game("campaign", 11).expect("the campaign loads");
    let mut rng = sandtable_core::chance::Rng::from_seed(11);
    let mut checked = 0;
    for _ in 0..3000 {
        match g.pending() {
            sandtable_core::game::Pending::Over => break,
            sandtable_core::game::Pending::Chance => {
                g.resolve_chance();
            }
            sandtable_core::game::Pending::Seat(seat) => {
                let l = legal(&g);
                let a = l[rng.below(l.len() as u32) as usize];
                g.apply(seat, &a).expect("a legal action");
            }
        }
        if matches!(step(&g), Some(sandtable_stalingrad_blitz::state::Step::Supply(_))) || checked == 0 {
            for side in [Side::Axis, Side::Soviet] {
                let got = Board::new(g.data(), g.state()).trace_loc(side, &mut Search::new());
                assert_eq!(got, reference_loc(&g, side), "{side:?}");
            }
            checked += 1;
        }
    }
    assert!(checked > 3, "{checked}");
}

/// The hexes to which `side` can trace a LOC (3.3), worked out apart from the engine's search:
/// a breadth-first walk over (hex, how it was entered) pairs, a hex entered off the road into
/// a mountain hex being one the LOC may end in but not go on from. Blocked (3.3(1)–(2)):
/// prohibited hexsides, all-sea and impassable hexes, enemy units, enemy-controlled towns and
/// cities, enemy ZOC without a friendly unit. Mountains (3.3(3)): into or out of a mountain hex
/// only along a road; into one off the road, the LOC ends there; out of one off the road into
/// other terrain, never. Soviet: no length limit (3.3(4)). Axis (3.3(5), A14): along railway
/// from a source as far as it runs, then at most 6 hexes, the unit's own hex counted.
fn reference_loc(g: &StalingradBlitz, side: Side) -> Vec<bool> {
    let d = g.data();
    let b = Board::new(d, g.state());
    let grid = &d.map.grid;
    let n = grid.len();
    let enemy = match side {
        Side::Axis => Side::Soviet,
        Side::Soviet => Side::Axis,
    };
    let passable = |h: Hex| {
        let water = d.map.terrain(h) & (d.t.sea | d.t.impassable) != 0;
        let enemy_town = d.is_urban[h.idx()] && g.state().control[h.idx()] == Some(enemy);
        let zoc = b.enemy_zoc(side, h) && !b.friends_in(side, h);
        !(water || b.enemy_in(side, h) || enemy_town || zoc)
    };
    let mountain = |h: Hex| d.map.terrain(h) & d.t.mountain != 0;
    // A step: None if barred, else whether the LOC may go on from `to`.
    let step = |from: Hex, to: Hex, rail_only: bool| -> Option<bool> {
        let dir = grid.dir_to(from, to)?;
        let bits = d.map.side(from, dir);
        if bits & d.s.prohibited != 0 || (rail_only && bits & d.s.rail == 0) || !passable(to) {
            return None;
        }
        let road = bits & d.s.road != 0;
        match (mountain(from), mountain(to), road) {
            (_, _, true) | (false, false, false) => Some(true),
            (true, false, false) => None,
            (_, true, false) => Some(false),
        }
    };
    // `go[h]`: reached able to go on; `end[h]`: reached only to end there. Railway steps cost
    // nothing, so along the railway everything connected is one layer.
    let walk = |sources: &[Hex], rail_only: bool, most: u32| -> (Vec<bool>, Vec<bool>) {
        let mut go = vec![false; n];
        let mut end = vec![false; n];
        let mut layer: Vec<Hex> = Vec::new();
        for &h in sources {
            if !go[h.idx()] {
                go[h.idx()] = true;
                layer.push(h);
            }
        }
        let mut k = 0;
        while !layer.is_empty() && k < most.max(1) {
            let mut next = Vec::new();
            let mut i = 0;
            while i < layer.len() {
                let from = layer[i];
                i += 1;
                for (_, to) in grid.neighbours(from) {
                    match step(from, to, rail_only) {
                        Some(true) if !go[to.idx()] => {
                            go[to.idx()] = true;
                            if rail_only {
                                layer.push(to);
                            } else {
                                next.push(to);
                            }
                        }
                        Some(false) => end[to.idx()] = true,
                        _ => {}
                    }
                }
            }
            if rail_only {
                break;
            }
            layer = next;
            k += 1;
        }
        (go, end)
    };
    let own_sources = match side {
        Side::Axis => &d.supply_axis,
        Side::Soviet => &d.supply_soviet,
    };
    let sources: Vec<Hex> = own_sources.iter().copied().filter(|&h| passable(h)).collect();
    let reached = |(go, end): (Vec<bool>, Vec<bool>)| -> Vec<bool> { (0..n).map(|i| go[i] || end[i]).collect() };
    match side {
        Side::Soviet => reached(walk(&sources, false, u32::MAX)),
        Side::Axis => {
            let (rail_go, _) = walk(&sources, true, 0);
            let on_rail: Vec<Hex> = grid.hexes().filter(|h| rail_go[h.idx()]).collect();
            reached(walk(&on_rail, false, 6))
        }
    }
}

// ---------------------------------------------------------------- 2.1(1)3, 9.2(3) bridges

/// The land hexes reachable from `from` without crossing `rivers` (major rivers or straits, by
/// name) or entering the sea: `from`'s bank of those rivers.
fn bank_of(d: &sandtable_stalingrad_blitz::data::Data, rivers: &[&str], from: Hex) -> Vec<bool> {
    let grid = &d.map.grid;
    let sides: Vec<(Hex, Hex)> = (d.map.side_lines.iter().filter(|l| rivers.contains(&l.name_en.as_str())))
        .flat_map(|l| l.hexes.chunks(2).map(|c| (c[0], c[1])))
        .collect();
    assert!(!sides.is_empty(), "{rivers:?} on the map");
    let cut = |a: Hex, b: Hex| sides.contains(&(a, b)) || sides.contains(&(b, a));
    let mut seen = vec![false; grid.len()];
    let mut queue = vec![from];
    seen[from.idx()] = true;
    while let Some(h) = queue.pop() {
        for (_, n) in grid.neighbours(h) {
            if !seen[n.idx()] && !cut(h, n) && d.map.terrain(n) & d.t.sea == 0 {
                seen[n.idx()] = true;
                queue.push(n);
            }
        }
    }
    seen
}

/// 2.1(1)3: "道路或者铁道线通过的河川格子被视为桥梁格": a river where a road or railway crosses is a
/// bridge, and a bridge lifts the major-river restrictions of 9.2(3) and 10.6(3)4. So a road or
/// railway may cross the Don, the Volga, the Dnieper or the Kerch Strait only where a bridge
/// stood in 1942 (the map's `bridge` hexsides, listed with their sources in
/// tools/mapgen/geo/bridges.csv), and never runs over the sea.
#[test]
fn roads_and_railways_cross_major_rivers_only_at_the_bridges_of_1942_2_1_1_3() {
    let d = sandtable_stalingrad_blitz::embedded_data().expect("the campaign data");
    let grid = &d.map.grid;
    let bridge = d.map.side_mask("bridge");
    assert_ne!(bridge, 0, "the map lists its bridges");
    let mut false_bridges = Vec::new();
    for p in &d.map.paths {
        for w in p.hexes.windows(2) {
            let dir = grid.dir_to(w[0], w[1]).expect("a path steps to a neighbour");
            let bits = d.map.side(w[0], dir);
            let sea = (d.map.terrain(w[0]) | d.map.terrain(w[1])) & d.t.sea != 0;
            if sea || (bits & d.s.major != 0 && bits & bridge == 0) {
                false_bridges.push(format!("{} {}/{}", p.name_en, grid.id(w[0]), grid.id(w[1])));
            }
        }
    }
    assert!(false_bridges.is_empty(), "{false_bridges:#?}");
    // Each listed bridge is a major-river hexside some path crosses; one over the Volga (at
    // Saratov), none over the Kerch Strait.
    let bridges: Vec<_> = d.map.side_lines.iter().filter(|l| l.kind == "bridge").collect();
    assert!(bridges.len() >= 5);
    let volga: Vec<(Hex, Hex)> = (d.map.side_lines.iter().filter(|l| l.name_en == "Volga"))
        .flat_map(|l| l.hexes.chunks(2).map(|c| (c[0], c[1])))
        .collect();
    let over_volga = bridges
        .iter()
        .filter(|b| {
            volga
                .iter()
                .any(|&(x, y)| (x, y) == (b.hexes[0], b.hexes[1]) || (y, x) == (b.hexes[0], b.hexes[1]))
        })
        .count();
    assert_eq!(over_volga, 1, "the Saratov railway bridge of 1935");
    for b in &bridges {
        let (x, y) = (b.hexes[0], b.hexes[1]);
        let dir = grid.dir_to(x, y).expect("neighbours");
        assert_ne!(d.map.side(x, dir) & d.s.major, 0, "{} is over a major river", b.name_en);
        let crossed = (d.map.paths.iter()).any(|p| {
            p.hexes
                .windows(2)
                .any(|w| (w[0], w[1]) == (x, y) || (w[0], w[1]) == (y, x))
        });
        assert!(crossed, "{} carries a road or railway", b.name_en);
        assert!(!b.name_en.contains("Kerch"));
    }
}

/// The towns on the Volga lie on their own bank: Saratov, Kamyshin, Dubovka, Stalingrad, Cherny
/// Yar and Yenotayevka on the right (west) bank, with the roads and the railway that join them;
/// Engels, Leninsk and Astrakhan on the left. Kalach lies on the Don's left bank, as Stalingrad
/// does; Nizhne-Chirskaya on the right.
#[test]
fn the_volga_towns_lie_on_their_own_bank() {
    let d = sandtable_stalingrad_blitz::embedded_data().expect("the campaign data");
    let place = |name: &str| {
        d.map
            .places
            .iter()
            .find(|p| p.name_en == name)
            .unwrap_or_else(|| panic!("{name} is on the map"))
            .hex
    };
    let right = bank_of(&d, &["Volga"], place("Stalingrad"));
    for town in ["Saratov", "Kamyshin", "Dubovka", "Cherny Yar", "Yenotayevka"] {
        assert!(right[place(town).idx()], "{town} is on Stalingrad's bank of the Volga");
    }
    for town in ["Engels", "Leninsk", "Astrakhan"] {
        assert!(!right[place(town).idx()], "{town} is across the Volga from Stalingrad");
    }
    // And Kalach on the Don's left bank, with Stalingrad: the road between them crosses no river.
    // (The Don's banks meet round the Sea of Azov through the Crimea but for the Kerch Strait.)
    let left = bank_of(&d, &["Don", "Kerch Strait"], place("Stalingrad"));
    assert!(left[place("Kalach (on the Don)").idx()]);
    assert!(!left[place("Nizhne-Chirskaya").idx()]);
}

/// 9.2(3): an unbridged major river is crossed only from the hex next to it, with all MP, and
/// the move ends across. A German motorised division at Stalingrad, with no enemy about, may
/// cross the Volga into a hex next to Stalingrad, and no farther: no road over the river lets
/// it drive on into the steppe beyond.
#[test]
fn a_motorised_division_at_stalingrad_crosses_the_volga_only_into_the_next_hex_9_2_3() {
    let mut g = campaign_position(2, &[("ger-hq-4pza", "3513"), ("ger-mot-16", "3613")], "", 1);
    execute(&mut g, "4PzA");
    forced(&mut g);
    let d = g.data().clone();
    let grid = &d.map.grid;
    let stalingrad = grid.parse("3613").unwrap();
    assert_eq!(d.map.place(stalingrad).map(|p| p.name_en.as_str()), Some("Stalingrad"));
    let west = bank_of(&d, &["Volga"], stalingrad);
    let u = unit(&g, "ger-mot-16");
    let across: Vec<String> = legal(&g)
        .iter()
        .filter_map(|a| match *a {
            Action::Move { unit, to, .. } if unit == u && !west[to.idx()] => Some(to),
            _ => None,
        })
        .filter(|&to| !grid.adjacent(stalingrad, to))
        .map(|to| grid.id(to).0)
        .collect();
    assert!(across.is_empty(), "hexes beyond the Volga in one move: {across:?}");
}

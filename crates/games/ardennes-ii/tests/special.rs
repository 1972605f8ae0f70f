//! The special rules and the readings of the book's ambiguous sentences, played on positions
//! built on the real map where the book puts the units: the rubber boats (4.2), observers
//! (3.5), bug-out (3.6), traffic-jam supply (3.1, 3.7), VP control (6.0), set-up DG and
//! artillery that retreats (3.4), the demolition unit (3.8), a stack into an empty traffic
//! jam and stacking at the end of every phase (3.1, SCS 5.0), on data editions 2 and 3.

mod common;

use common::*;
use sandtable_ardennes_ii::sequence::{Phase, Side};
use sandtable_ardennes_ii::state::{Loc, UnitId};
use sandtable_ardennes_ii::Action;
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::game::Game;

fn unit(g: &ArdennesII, id: &str) -> UnitId {
    g.world()
        .data
        .counters
        .index(id)
        .unwrap_or_else(|| panic!("no unit {id}"))
}

#[test]
fn kg_holtmeyer_mech_ma_infantry_crosses_the_our_in_rubber_boats() {
    // 7.1 sets Holtmeyer up DG at B21.20, on the Our (4.2: "第 2 装甲师的机械化 MA 步兵单位").
    let mut g = empty(1, Phase::Movement(Side::German));
    for id in ["ger-2pz-inf-holtm", "ger-2pz-inf-vcoch"] {
        let u = unit(&g, id);
        let at = hex(&g, if id.ends_with("holtm") { "B21.20" } else { "B21.19" });
        put(&mut g, u, at);
        g.edit().units[u as usize].dg = true;
    }
    let holtm = unit(&g, "ger-2pz-inf-holtm");
    let crossings: Vec<Action> = legal(&g)
        .into_iter()
        .filter(|a| matches!(a, Action::Boats { unit, .. } if *unit == holtm))
        .collect();
    assert!(!crossings.is_empty(), "4.2: Holtmeyer is offered the boats");
    let Action::Boats { to, .. } = crossings[0] else {
        unreachable!()
    };
    play(&mut g, crossings[0].clone());
    let st = &g.state().units[holtm as usize];
    assert_eq!(st.loc, Loc::Map(to));
    assert!(!st.dg, "4.2: a unit that crosses in boats loses DG");
    let vcoch = unit(&g, "ger-2pz-inf-vcoch");
    assert!(
        legal(&g)
            .iter()
            .any(|a| matches!(a, Action::Boats { unit, .. } if *unit == vcoch)),
        "4.2: von Cochenhausen too"
    );
}

#[test]
fn artillery_that_retreats_in_supply_is_not_made_dg() {
    // 3.4: artillery becomes DG when it "bugs out, retreats or fires while unable to trace
    // supply" (在无法追溯补给线时). The 9th Armored's CCA at B28.02 (7.1) withdraws in supply.
    let mut g = empty(2, Phase::Combat(Side::German));
    let t = hex(&g, "B28.02");
    let stack: Vec<UnitId> = ["us-9ad-arm-19", "us-9ad-cav-89", "us-9ad-arty"]
        .iter()
        .map(|id| unit(&g, id))
        .collect();
    for &u in &stack {
        put(&mut g, u, t);
    }
    let gun = stack[2];
    let attackers = pick(&g, 2, &[], foot(Side::German));
    let grid = g.world().map.grid.clone();
    // From hexes across no water and on the map's open side (north of the gun).
    let from: Vec<_> = grid
        .neighbours(t)
        .filter(|&(d, _)| !g.world().water(t, d))
        .map(|(_, n)| n)
        .collect();
    put(&mut g, attackers[0], from[0]);
    put(&mut g, attackers[1], from[1]);
    assert!(
        g.supply_now(Side::Allied)[t.idx()],
        "B28.02 traces supply to the US edge"
    );
    attack(&mut g, t, &attackers);
    let to = withdraw(&mut g);
    assert_eq!(g.state().units[gun as usize].hex(), Some(to));
    assert!(!g.state().units[gun as usize].dg, "3.4: in supply, the gun is not DG");
}

#[test]
fn german_units_in_their_own_traffic_jam_trace_supply_at_the_start_of_7_1() {
    // 3.1: an occupied jam is closed "to all other German units"; its occupants still trace
    // supply into it (3.7).
    let g = ArdennesII::new_game("campaign", 1).expect("7.1 starts");
    let supplied = g.supply_now(Side::German);
    let jam = |h: sandtable_core::hex::Hex| g.world().terrain_names[h.idx()].contains(&"traffic-jam");
    let out: Vec<String> = (0..g.state().units.len())
        .filter(|&i| g.world().data.counters.units[i].side == Side::German)
        .filter_map(|i| g.state().units[i].hex().map(|h| (i, h)))
        .filter(|&(_, h)| jam(h) && !supplied[h.idx()])
        .map(|(i, h)| format!("{} at {}", g.world().data.counters.units[i].id, id(&g, h)))
        .collect();
    assert!(out.is_empty(), "out of supply in their own jam: {out:?}");
}

#[test]
fn a_vp_hex_counts_at_the_turns_end_only_if_its_holder_traces_supply_then() {
    // 6.0: "控制的定义是, 在该时刻最后一个占领该 VP 格, 并可追溯补给线的玩家": Bastogne taken
    // in supply and then ringed counts nothing for the German at the end of the turn.
    let mut g = empty(5, Phase::Movement(Side::Allied));
    let bastogne = hex(&g, "B1.16");
    let german = pick(&g, 1, &[], foot(Side::German))[0];
    put(&mut g, german, bastogne);
    let ring = pick(&g, 6, &[], foot(Side::Allied));
    let grid = g.world().map.grid.clone();
    for (u, (_, n)) in ring.iter().zip(grid.neighbours(bastogne)) {
        put(&mut g, *u, n);
    }
    let i = g
        .world()
        .data
        .tables
        .vp_hexes
        .iter()
        .position(|v| v.hex == bastogne)
        .expect("Bastogne is a VP hex");
    g.edit().control[i] = Side::German;
    assert!(!g.supply_now(Side::German)[bastogne.idx()], "ringed");
    g.edit().set_phase(Phase::Supply(Side::Allied));
    let log = journal(&g);
    let end = log
        .iter()
        .rev()
        .find(|l| l.starts_with("End of turn"))
        .expect("the turn ended");
    assert!(end.starts_with("End of turn 5"), "{end}");
    assert!(end.contains("controls 0 VP"), "6.0: Bastogne does not count: {end}");
}

#[test]
fn german_units_the_7_1_set_up_prints_dg_are_dg_when_the_german_first_moves() {
    // 7.1 prints Werfer 16 (B35.33), Inf Rgt 316 (B35.05) and Pio 212 (B34.05) DG (混乱).
    let mut g = ArdennesII::new_game("campaign", 1).expect("7.1 starts");
    while g.pending() == sandtable_core::game::Pending::Chance {
        g.resolve_chance();
    }
    run_to(&mut g, 1, Phase::Movement(Side::German));
    let dg: Vec<UnitId> = g.scenario().setup.iter().filter(|p| p.dg).map(|p| p.unit).collect();
    assert!(!dg.is_empty(), "7.1 prints DG units");
    let recovered: Vec<&str> = dg
        .iter()
        .filter(|&&u| !g.state().units[u as usize].dg)
        .map(|&u| g.world().data.counters.units[u as usize].id.as_str())
        .collect();
    assert!(
        recovered.is_empty(),
        "recovered before the first German move: {recovered:?}"
    );
}

#[test]
fn knittel_and_1st_ss_inf_rgt_2_start_7_3_dg_from_their_traffic_jams() {
    // 7.3 prints "B38.38: 3-3-14 SS Pz Recon KG (Knittel)" and "B34.39: 4-4-12 SS Inf
    // Rgt(-)(2)" without 混乱, but on turn 2 a traffic jam makes DG a unit "在其中开始一个阶段"
    // (3.1), and both hexes are jams (RULINGS): they are DG from the first phase.
    let g = ArdennesII::new_game("peiper", 1).expect("7.3 starts");
    for id in ["ger-1ss-recon-knittel", "ger-1ss-inf-2"] {
        let u = unit(&g, id);
        let h = g.state().units[u as usize].hex().expect("on the map");
        assert!(has(&g, h, "traffic-jam"), "{id} sets up in a jam");
        assert!(g.state().units[u as usize].dg, "{id} is DG (3.1)");
    }
}

#[test]
fn dg_artillery_in_an_overstacked_stack_does_not_recover() {
    // 3.4: a stack removes DG only if it is not "超堆叠" (nor in a jam, nor mixing divisions);
    // artillery's free recovery (3.7) stands in for the supply condition only.
    let mut g = empty(5, Phase::Movement(Side::German));
    let bastogne = hex(&g, "B1.16");
    let gun = pick(&g, 1, &[], |d| d.side == Side::Allied && d.is_artillery())[0];
    let others = pick(&g, 3, &[gun], foot(Side::Allied));
    for &u in others.iter().chain([&gun]) {
        put(&mut g, u, bastogne);
    }
    g.edit().units[gun as usize].dg = true;
    assert!(g.supply_now(Side::Allied)[bastogne.idx()]);
    g.edit().set_phase(Phase::MarkerRemoval);
    assert!(
        g.state().units[gun as usize].dg,
        "3.4: overstacked, the gun keeps its DG"
    );
}

#[test]
fn an_off_road_gun_of_the_7_1_set_up_bugs_out_along_its_nearest_road() {
    // 3.6: "距离火炮单位起始位置至少有 8 个连续的道路格": the count starts on the road nearest
    // the gun (RULINGS). The first US gun of the 7.1 set-up standing off every road, with a
    // German unit of attack 2 next to it as a phase begins, has hexes to go to.
    let mut g = ArdennesII::new_game("campaign", 1).expect("7.1 starts");
    let world = g.world().clone();
    let grid = &world.map.grid;
    let on_road = |h: sandtable_core::hex::Hex| grid.neighbours(h).any(|(d, _)| world.road_across(h, d).is_some());
    let (gun, at) = g
        .scenario()
        .setup
        .iter()
        .filter(|p| world.data.counters.units[p.unit as usize].is_artillery())
        .filter(|p| world.data.counters.units[p.unit as usize].side == Side::Allied)
        .filter_map(|p| g.state().units[p.unit as usize].hex().map(|h| (p.unit, h)))
        .find(|&(_, h)| !on_road(h))
        .expect("7.1 sets US guns up off the roads");
    let enemy = g
        .state()
        .units
        .iter()
        .enumerate()
        .filter(|(i, st)| world.data.counters.units[*i].side == Side::German && st.hex().is_some())
        .map(|(i, _)| i as UnitId)
        .find(|&u| world.data.counters.units[u as usize].front.attack >= 2)
        .expect("a German unit");
    let next = grid
        .neighbours(at)
        .find(|&(d, n)| !g.state().units.iter().any(|st| st.hex() == Some(n)) && !world.water(at, d))
        .map(|(_, n)| n)
        .expect("a free hex next to the gun");
    put(&mut g, enemy, next);
    g.edit()
        .frames()
        .push(sandtable_ardennes_ii::frames::Frame::BugOut { queue: vec![gun] });
    let offered = legal(&g);
    assert!(
        offered
            .iter()
            .any(|a| matches!(a, Action::BugOut { unit, .. } if *unit == gun)),
        "{} at {} bugs out: {offered:?}",
        world.data.counters.units[gun as usize].id,
        id(&g, at)
    );
}

/// The 99th Infantry Division's artillery at its 7.1 hex (B26.44), in the US barrage phase,
/// with two infantry battalions of the division next to a hex 5 hexes away.
fn ninety_ninth_barrage() -> (ArdennesII, UnitId, [UnitId; 2], sandtable_core::hex::Hex) {
    let mut g = empty(3, Phase::UsBarrage);
    let gun = unit(&g, "us-99id-arty");
    let at = hex(&g, "B26.44");
    put(&mut g, gun, at);
    let grid = g.world().map.grid.clone();
    let t = grid
        .within(at, 5)
        .find(|&t| grid.distance(at, t) == 5 && grid.neighbours(t).count() == 6)
        .expect("a hex 5 away");
    let near: Vec<_> = grid.neighbours(t).map(|(_, n)| n).collect();
    let a = unit(&g, "us-99id-inf-a-393");
    let b = unit(&g, "us-99id-inf-b-393");
    put(&mut g, a, near[0]);
    put(&mut g, b, near[3]);
    // A second gun, so that the phase goes on after the first has fired.
    let other = pick(&g, 1, &[gun], |d| {
        d.side == Side::Allied && d.is_artillery() && !d.is_divarty()
    })[0];
    put(&mut g, other, near[1]);
    (g, gun, [a, b], t)
}

#[test]
fn the_player_chooses_the_observer_and_only_that_unit_is_frozen() {
    // 3.5: "目标格 2 格内必须有一个友方单位 … 被用作观测员的单位在被用作观测员后不能移动".
    let (mut g, gun, [a, b], t) = ninety_ninth_barrage();
    g.edit().set_edition(3);
    play(&mut g, Action::Fire { unit: gun, target: t });
    let offered = legal(&g);
    assert_eq!(
        offered,
        [Action::Observe { unit: a }, Action::Observe { unit: b }],
        "3.5: the US player chooses the observer"
    );
    refused(&mut g, ALLIED, &Action::Observe { unit: gun }, "3.5");
    play(&mut g, Action::Observe { unit: b });
    assert!(g.state().units[b as usize].observed, "the chosen observer is frozen");
    assert!(!g.state().units[a as usize].observed, "the other is not");
    assert_eq!(g.phase(), Phase::UsBarrage, "the die is rolled and the phase goes on");
}

#[test]
fn the_only_observer_is_taken_and_the_journal_names_it() {
    // 3.5: with one friendly unit within range of the target, it observes without a question,
    // and the journal says which unit is frozen.
    let (mut g, gun, [a, b], t) = ninety_ninth_barrage();
    g.edit().set_edition(3);
    g.edit().units[b as usize].loc = sandtable_ardennes_ii::state::Loc::Removed;
    play(&mut g, Action::Fire { unit: gun, target: t });
    assert!(g.state().units[a as usize].observed, "the only candidate observes");
    let name = &def(&g, a).name_en;
    assert!(
        journal(&g)
            .iter()
            .any(|l| l.contains("observes the barrage") && l.contains(name.as_str())),
        "the journal names {name}: {:?}",
        journal(&g)
    );
}

#[test]
fn on_data_edition_2_a_unit_that_can_no_longer_move_observes_before_one_that_can() {
    // Games begun on editions 1 and 2 keep the engine's pick, so that their records replay: of
    // the 99th's two battalions next to the target, the one that has stopped this phase (for a
    // demolition) observes, and the other stays free to move (RULINGS, "Data editions").
    let (mut g, gun, [a, b], t) = ninety_ninth_barrage();
    g.edit().set_edition(2);
    g.edit().set_phase(Phase::Movement(Side::Allied));
    g.edit().units[b as usize].stopped = true;
    play(&mut g, Action::Fire { unit: gun, target: t });
    assert!(
        !legal(&g).iter().any(|a| matches!(a, Action::Observe { .. })),
        "no choice on edition 2"
    );
    assert!(g.state().units[b as usize].observed, "the stopped unit observes");
    assert!(!g.state().units[a as usize].observed, "the other is not frozen");
}

#[test]
fn artillery_observes_for_itself_and_an_air_strike_freezes_nobody() {
    // 3.5: "火炮可以自行瞄准"; 2.2: "空袭 … 不需要任何观测员".
    let (mut g, gun, [a, b], _) = ninety_ninth_barrage();
    let at = g.state().units[gun as usize].hex().expect("on the map");
    let grid = g.world().map.grid.clone();
    let close = grid
        .within(at, 2)
        .find(|&h| grid.distance(at, h) == 2)
        .expect("a hex 2 away");
    put(&mut g, a, grid.neighbours(close).next().expect("a neighbour").1);
    play(
        &mut g,
        Action::Fire {
            unit: gun,
            target: close,
        },
    );
    assert!(!g.state().units[a as usize].observed, "the gun observed for itself");
    assert!(
        journal(&g).iter().any(|l| l.contains("observes its own barrage")),
        "the journal says the gun observed for itself"
    );
    g.edit().air_strikes = 1;
    let b_at = g.state().units[b as usize].hex().expect("on the map");
    play(&mut g, Action::AirStrike { target: b_at });
    assert!(
        !g.state().units[b as usize].observed,
        "2.2: an air strike freezes nobody"
    );
}

#[test]
fn air_supply_goes_on_any_hex_and_air_strikes_anywhere() {
    // 2.2: "将空袭算子以'补给面'朝上, 放置在地图上任何格内"; "空袭可以在地图上的任何地方使用".
    // An Air Supply marker on the empty hex B2.18 beside a Bastogne held by the 101st's
    // artillery; an air strike on an empty hex with no unit near it.
    let mut g = empty(5, Phase::AirSupply);
    let gun = pick(&g, 1, &[], |d| d.side == Side::Allied && d.is_artillery())[0];
    let bastogne = hex(&g, "B1.16");
    put(&mut g, gun, bastogne);
    g.edit().air_strikes = 2;
    let marker = hex(&g, "B2.18");
    play(&mut g, Action::AirSupply { hex: marker });
    assert_eq!(g.state().air_supply, [marker]);
    let mut g = empty(5, Phase::UsBarrage);
    let gun = pick(&g, 1, &[], |d| d.side == Side::Allied && d.is_artillery())[0];
    let at = hex(&g, "A10.10");
    put(&mut g, gun, at);
    g.edit().air_strikes = 2;
    let far = hex(&g, "B30.30");
    play(&mut g, Action::AirStrike { target: far });
    assert_eq!(g.state().air_strikes, 1, "the strike on {} was made", id(&g, far));
}

/// The US movement phase of turn 5 on data edition `edition`, two US infantry units next to
/// Hotton's demolition symbol (the book's A27.33), and the attempt made there: the game, the
/// two units.
fn a_demolition_at_hotton(edition: u8) -> (ArdennesII, [UnitId; 2]) {
    let mut g = empty(5, Phase::Movement(Side::Allied));
    g.edit().set_edition(edition);
    let symbol = hex(&g, "A27.33");
    let grid = g.world().map.grid.clone();
    let near: Vec<_> = grid.neighbours(symbol).map(|(_, n)| n).collect();
    let us = pick(&g, 2, &[], foot(Side::Allied));
    put(&mut g, us[0], near[0]);
    put(&mut g, us[1], near[3]);
    play(&mut g, Action::Demolish { symbol });
    (g, [us[0], us[1]])
}

#[test]
fn the_us_player_chooses_the_unit_that_stops_for_a_demolition() {
    // 3.8: the attempt at Hotton's bridges (the book's symbol A27.33) is made by a US unit
    // within 2 hexes of it, which stops: the US player picks which.
    let (mut g, us) = a_demolition_at_hotton(3);
    assert_eq!(
        legal(&g),
        [Action::Attempt { unit: us[0] }, Action::Attempt { unit: us[1] }],
        "3.8: the US player chooses"
    );
    let other = pick(&g, 1, &us, foot(Side::Allied))[0];
    let r = refused(&mut g, ALLIED, &Action::Attempt { unit: other }, "3.8");
    let range = g.world().data.tables.bridge_us_unit_range;
    assert!(r.text.en.contains(&format!("within {range} hexes")), "{}", r.text.en);
    play(&mut g, Action::Attempt { unit: us[1] });
    assert!(g.state().units[us[1] as usize].stopped, "the chosen unit stops");
    assert!(!g.state().units[us[0] as usize].stopped, "the other does not");
}

#[test]
fn on_data_edition_2_the_first_us_unit_found_stops_for_a_demolition() {
    // Games begun on editions 1 and 2 keep the engine's pick (RULINGS, "Data editions").
    let (g, us) = a_demolition_at_hotton(2);
    assert!(
        !legal(&g).iter().any(|a| matches!(a, Action::Attempt { .. })),
        "no choice on edition 2"
    );
    assert!(g.state().units[us[0] as usize].stopped, "the first found stops");
    assert!(!g.state().units[us[1] as usize].stopped, "the other does not");
}

#[test]
fn a_german_stack_moves_together_into_an_empty_traffic_jam() {
    // 3.1: "德军占据的交通堵塞格,对所有其他德军单位来说是禁入地形"; the designer's notes: "现在您
    // 可以移动堆叠到达您要去的的地方". Units move one at a time here: the stack's other units
    // follow the first into the jam it entered empty; no other German unit may (RULINGS).
    let (mut g, [first, second, strays, other], lane) = a_stack_at_a_jam(3);
    let j = lane.t;
    // One of the stack goes its own way first: it no longer moves with the stack.
    let away = moves_of(&g, strays)
        .into_iter()
        .find(|&h| h != j && h != lane.a && h != lane.s)
        .expect("somewhere else to go");
    play(&mut g, Action::move_to(first, j));
    assert!(g.state().units[first as usize].dg, "3.1: DG in the jam");
    assert!(
        moves_of(&g, second).contains(&j),
        "the stack's second unit follows it in"
    );
    play(&mut g, Action::move_to(strays, away));
    let r = refused(&mut g, GERMAN, &Action::move_to(strays, j), "3.1");
    assert!(r.text.en.contains("traffic jam"), "{}", r.text.en);
    refused(&mut g, GERMAN, &Action::move_to(other, j), "3.1");
    play(&mut g, Action::move_to(second, j));
    let st = &g.state().units[second as usize];
    assert_eq!(st.hex(), Some(j));
    assert!(st.dg, "3.1: DG in the jam");
}

#[test]
fn on_data_edition_2_an_occupied_traffic_jam_is_closed_to_the_rest_of_the_stack() {
    // Games begun on editions 1 and 2 keep the jam closed to every German unit but the first
    // (RULINGS, "Data editions").
    let (mut g, [first, second, ..], lane) = a_stack_at_a_jam(2);
    play(&mut g, Action::move_to(first, lane.t));
    assert!(!moves_of(&g, second).contains(&lane.t));
    refused(&mut g, GERMAN, &Action::move_to(second, lane.t), "3.1");
}

/// The 9th SS Panzer Division of the Goose Egg (7.4), set up "within 1 hex of B40.38", all
/// placed in B40.38 (10 units): whether they are DG when the German first moves.
fn goose_egg_overstacked(edition: u8) -> Vec<bool> {
    use sandtable_core::game::Pending;
    let mut g = ArdennesII::new_game("goose-egg", 1).expect("the Goose Egg starts");
    g.edit().set_edition(edition);
    let nine: Vec<UnitId> = (0..g.state().units.len() as UnitId)
        .filter(|&u| def(&g, u).id.starts_with("ger-9ss-"))
        .collect();
    let at = hex(&g, "B40.38");
    while g.pending() != Pending::Over && g.phase() == Phase::SetUp {
        let v = legal(&g);
        let a = v
            .iter()
            .find(|a| matches!(a, Action::Place { unit, at: h } if nine.contains(unit) && *h == at))
            .or(v.first())
            .expect("a placement")
            .clone();
        play(&mut g, a);
    }
    assert_eq!(
        nine.iter()
            .filter(|&&u| g.state().units[u as usize].hex() == Some(at))
            .count(),
        10,
        "all ten in B40.38"
    );
    let turn = g.state().turn;
    run_to(&mut g, turn, Phase::Movement(Side::German));
    nine.iter().map(|&u| g.state().units[u as usize].dg).collect()
}

#[test]
fn a_stack_overstacked_by_its_set_up_placements_is_dg_at_the_end_of_the_first_phase() {
    // 3.1: "在任何阶段结束时超堆叠 … 的单位变为 DG": at the end of any phase, the pre-turn's
    // included, not only those where units move or fight. On edition 2 the first check came
    // at the end of the German movement phase.
    assert!(
        goose_egg_overstacked(3).iter().all(|&dg| dg),
        "edition 3: DG before moving"
    );
    assert!(goose_egg_overstacked(2).iter().all(|&dg| !dg), "edition 2: not yet");
}

#[test]
fn arrivals_may_overstack_until_their_first_movement_phase_has_ended() {
    // SCS 5.0: arrivals may overstack when placed, provided the stack is legal by the end of
    // its first movement phase; 3.1 checks every phase's end (RULINGS). The 7th Armored
    // Division's six units arrive in Entry Area O on turn 2 (the Allied Arrival Schedule), all
    // placed in one hex, and stay there.
    let mut g = empty(1, Phase::Movement(Side::Allied));
    g.edit().set_edition(3);
    let seventh: Vec<UnitId> = [
        "us-7ad-cav-87",
        "us-7ad-arm-brown",
        "us-7ad-arm-erlen",
        "us-7ad-arm-wemple",
        "us-7ad-mech-chap",
        "us-7ad-mech-rhea",
    ]
    .iter()
    .map(|id| unit(&g, id))
    .collect();
    for &u in &seventh {
        g.edit().units[u as usize].loc = Loc::Waiting;
    }
    // A German unit far away, so that the German phases are decisions.
    let german = pick(&g, 1, &[], foot(Side::German))[0];
    let far = field(&g, 3, 0);
    put(&mut g, german, far);
    let dg = |g: &ArdennesII| seventh.iter().any(|&u| g.state().units[u as usize].dg);
    run_to(&mut g, 2, Phase::Movement(Side::German));
    let at = g.state().units[seventh[0] as usize].hex().expect("arrived");
    assert!(
        seventh.iter().all(|&u| g.state().units[u as usize].hex() == Some(at)),
        "the six in one hex"
    );
    assert!(!dg(&g), "not DG after the pre-turn");
    play(&mut g, Action::EndPhase);
    run_to(&mut g, 2, Phase::Movement(Side::Allied));
    assert!(!dg(&g), "not DG after the German phases");
    play(&mut g, Action::EndPhase);
    assert!(dg(&g), "3.1: DG once their first movement phase has ended overstacked");
}

/// Two US infantry units of two divisions and, on `extra`, a third of the first division, in
/// one hex of open ground outside every entry area, in the German movement phase of turn 3;
/// the first counts as arrived this turn (SCS 5.0). Whether each is DG once the phase ends.
fn an_arrival_stacked_with(edition: u8, mixed: bool, four: bool) -> Vec<bool> {
    let mut g = empty(3, Phase::Movement(Side::German));
    g.edit().set_edition(edition);
    let at = field(&g, 3, 0);
    assert!(!in_entry_area(&g, at));
    let first = pick(&g, 1, &[], |d| foot(Side::Allied)(d) && d.formation.is_some())[0];
    let division = def(&g, first).formation;
    let same = |d: &sandtable_ardennes_ii::data::UnitDef| foot(Side::Allied)(d) && d.formation == division;
    let other = |d: &sandtable_ardennes_ii::data::UnitDef| {
        foot(Side::Allied)(d) && d.formation.is_some() && d.formation != division
    };
    let mut stack = vec![first];
    if mixed {
        stack.extend(pick(&g, 1, &stack, other));
    } else {
        stack.extend(pick(&g, if four { 3 } else { 1 }, &stack, same));
    }
    for &u in &stack {
        put(&mut g, u, at);
    }
    g.edit().arrived.push(first);
    // A German unit far away, so that the German phase is a decision.
    let german = pick(&g, 1, &[], foot(Side::German))[0];
    let far = field(&g, 3, 5);
    put(&mut g, german, far);
    play(&mut g, Action::EndPhase);
    stack.iter().map(|&u| g.state().units[u as usize].dg).collect()
}

#[test]
fn an_arrival_is_spared_the_stacking_limit_but_not_divisional_integrity() {
    // SCS 5.0 spares arrivals only the limit: "may over-stack when placed, provided the stack is
    // legal by the end of its first Movement Phase"; 3.1 spares divisional integrity only to
    // "在入场区域中的增援" (reinforcements in entry areas). Out of an entry area, an arrival
    // stacked with another division's unit is DG at the phase's end (data edition 4).
    assert_eq!(
        an_arrival_stacked_with(4, true, false),
        [true, true],
        "3.1: mixed divisions"
    );
    assert_eq!(
        an_arrival_stacked_with(4, false, true),
        [false; 4],
        "SCS 5.0: overstacked, spared"
    );
    assert_eq!(
        an_arrival_stacked_with(4, false, false),
        [false, false],
        "a legal stack"
    );
    // Games begun on data edition 3 keep sparing both (RULINGS, "Data editions").
    assert_eq!(an_arrival_stacked_with(3, true, false), [false, false], "edition 3");
}

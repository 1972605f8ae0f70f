//! Disorganized units (3.4) and the barrage examples of 3.5 that the table-level tests of
//! `tests/data.rs` and the engine tests of `tests/rules.rs` leave open, played through the
//! engine on positions built on the real map: the book's DG example (MA 12, 8 MP spent), DG
//! halving attack and defence, no exploitation and no bug-out for DG units, DG recovery in
//! the pre-turn; the firing artillery's enemy-marker DRM, the hardest terrain of a hex of
//! several terrains, Half reconciliation beside Full markers.
//!
//! The map is looked up by terrain, never by hex id.

mod common;

use common::*;
use sandtable_ardennes_ii::sequence::{Phase, Side};
use sandtable_ardennes_ii::Action;
use sandtable_core::game::{Game, Pending};
use sandtable_core::hex::Hex;
use std::ops::RangeInclusive;

// ---- 3.4: DG ----

/// 3.4's example: "MA 12, with 8 MP spent when it becomes DG. Its MA becomes 6, and since it
/// has already spent 8 it cannot move further" — MP spent are not prorated. Played with a
/// German unit entering a traffic jam on turn 2 (3.1).
#[test]
fn the_book_example_ma_12_with_8_mp_spent_becomes_dg_and_moves_no_further_3_4() {
    let mut g = empty(2, Phase::Movement(Side::German));
    let Lane { a: f, t: j, .. } = jam_lane(&g);
    let tank = pick(&g, 1, &[], |d| {
        d.side == Side::German && d.is_mech() && !d.is_artillery() && d.front.ma == 12
    })[0];
    put(&mut g, tank, f);
    let d = g.world().map.grid.dir_to(f, j).expect("adjacent");
    let into_jam = board(&g).step_cost(tank, f, d, j).expect("the road into the jam");
    // 8 MP (16 half MP) spent on arriving in the jam.
    assert!(into_jam <= 16);
    g.edit().units[tank as usize].spent = (16 - into_jam) as u16;
    assert_eq!(board(&g).allowance(tank), 24, "MA 12");
    play(&mut g, Action::move_to(tank, j));
    let st = &g.state().units[tank as usize];
    assert_eq!((st.hex(), st.spent), (Some(j), 16), "8 MP spent in the jam");
    assert!(st.dg, "3.1: the jam makes it DG");
    assert_eq!(seen(&g, tank).expect("on the map")["dg"], true);
    assert_eq!(board(&g).allowance(tank), 12, "3.4: MA 6");
    assert!(
        moves_of(&g, tank).is_empty(),
        "3.4: 8 MP spent of an MA of 6: no further move (prorated, 2 MP would be left)"
    );
    assert!(!legal(&g)
        .iter()
        .any(|a| matches!(a, Action::Overrun { units, .. } if units.contains(&tank))));
}

/// 3.4: DG halves attack and defence (the combat roll shows the strengths used).
#[test]
fn dg_halves_attack_and_defence_3_4() {
    for (attacker_dg, defender_dg) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut g = empty(3, Phase::Combat(Side::German));
        let t = field(&g, 1, 0);
        let attacker = pick(&g, 1, &[], foot(Side::German))[0];
        let defender = pick(&g, 1, &[], foot(Side::Allied))[0];
        put(&mut g, defender, t);
        let from = step(&g, t, 0);
        put(&mut g, attacker, from);
        g.edit().units[attacker as usize].dg = attacker_dg;
        g.edit().units[defender as usize].dg = defender_dg;
        attack(&mut g, t, &[attacker]);
        play(&mut g, Action::Stand);
        let half = |dg: bool| if dg { 0.5 } else { 1.0 };
        let want = (
            def(&g, attacker).front.attack as f64 * half(attacker_dg),
            def(&g, defender).front.defence as f64 * half(defender_dg),
        );
        assert_eq!(
            last_strengths(&g),
            want,
            "DG attacker {attacker_dg}, DG defender {defender_dg}"
        );
    }
}

/// 3.4: DG units may not exploit; a unit that becomes DG during the exploitation phase loses
/// exploit capability at that moment and can do nothing more in the phase.
#[test]
fn a_dg_unit_does_not_exploit_and_one_made_dg_in_the_phase_stops_there_3_4() {
    // On turn 2 the traffic jams still work (3.1).
    let mut g = empty(2, Phase::Combat(Side::German));
    let Lane { a: f, t: j, .. } = jam_lane(&g);
    let world = g.world().clone();
    let grid = &world.map.grid;
    let runners = pick(&g, 2, &[], |d| exploiter(Side::German)(d) && !d.is_bond_infantry());
    let (runner, sleeper) = (runners[0], runners[1]);
    put(&mut g, runner, f);
    let rest = grid
        .hexes()
        .find(|&h| quiet(&g, h) && !in_entry_area(&g, h) && grid.distance(h, j) > 8)
        .expect("open ground");
    put(&mut g, sleeper, rest);
    g.edit().units[sleeper as usize].dg = true;
    let taken = [runner, sleeper];
    combat_phase_with_a_fight_elsewhere(&mut g, j, &taken);
    play(&mut g, Action::EndPhase);
    assert_eq!(g.phase(), Phase::Exploitation(Side::German));
    assert!(moves_of(&g, sleeper).is_empty(), "3.4: a DG unit does not exploit");
    assert!(moves_of(&g, runner).contains(&j));
    play(&mut g, Action::move_to(runner, j));
    let st = &g.state().units[runner as usize];
    assert!(st.dg && st.hex() == Some(j), "3.1: DG in the jam");
    assert!(
        board(&g).allowance(runner) > st.spent as u32,
        "it has MP left under the halved MA"
    );
    assert!(
        moves_of(&g, runner).is_empty(),
        "3.4: made DG in the exploitation phase, it can do nothing more"
    );
}

/// 3.4: DG units "take their DG status with them, but do not give it to other units that
/// later stack with them".
#[test]
fn dg_moves_with_the_unit_and_does_not_spread_to_its_new_stack_3_4() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let h = field(&g, 2, 0);
    let pair = pick(&g, 2, &[], |d| german_tank(d) && d.formation.is_none());
    let (dg, fresh) = (pair[0], pair[1]);
    put(&mut g, dg, h);
    g.edit().units[dg as usize].dg = true;
    let to = step(&g, h, 0);
    put(&mut g, fresh, to);
    play(&mut g, Action::move_to(dg, to));
    assert!(g.state().units[dg as usize].dg, "DG goes with the unit");
    assert!(!g.state().units[fresh as usize].dg, "and not to the unit it joins");
    assert_eq!(seen(&g, fresh).expect("on the map")["dg"], false);
}

/// 3.4, 3.6: "DG artillery cannot Bug Out": an enemy unit of printed attack 2 or more moving
/// next to non-DG artillery makes it bug out at that instant; next to DG artillery it does not.
#[test]
fn dg_artillery_does_not_bug_out_3_4_3_6() {
    for gun_dg in [false, true] {
        let mut g = empty(3, Phase::Movement(Side::German));
        let at = field(&g, 2, 0);
        let gun = pick(&g, 1, &[], |d| d.side == Side::Allied && d.is_artillery())[0];
        let tank = pick(&g, 1, &[], |d| german_tank(d) && d.front.attack >= 2)[0];
        put(&mut g, gun, at);
        g.edit().units[gun as usize].dg = gun_dg;
        let start = ring(g.world(), at, 3);
        put(&mut g, tank, start);
        let next_to = g
            .world()
            .map
            .grid
            .neighbours(at)
            .map(|(_, n)| n)
            .find(|&n| g.world().map.grid.distance(n, start) == 2)
            .expect("a hex next to the gun");
        play(&mut g, Action::move_to(tank, next_to));
        assert_eq!(g.state().units[tank as usize].hex(), Some(next_to));
        let l = legal(&g);
        if gun_dg {
            assert_eq!(g.pending(), Pending::Seat(GERMAN), "no bug-out: the German moves on");
            assert!(!l
                .iter()
                .any(|a| matches!(a, Action::BugOut { .. } | Action::StayPut { .. })));
            assert_eq!(g.state().units[gun as usize].hex(), Some(at));
        } else {
            assert_eq!(g.pending(), Pending::Seat(ALLIED), "3.6: the gun bugs out now");
            assert!(!l.is_empty());
            assert!(l
                .iter()
                .all(|a| matches!(a, Action::BugOut { unit, .. } | Action::StayPut { unit } if *unit == gun)));
        }
    }
}

/// 3.4 DG recovery: in the pre-turn a stack loses its DG unless it is out of supply, in a
/// traffic jam, overstacked or mixing divisions. Three DG units of one division in supply
/// recover; four of one division, and two of two divisions, stay DG. (Out of supply is
/// played in `tests/rules.rs`.)
#[test]
fn dg_recovery_in_the_pre_turn_spares_overstacked_and_mixed_stacks_3_4() {
    let mut g = empty(3, Phase::Exploitation(Side::Allied));
    let supplied = g.supply_now(Side::Allied);
    let world = g.world().clone();
    let grid = &world.map.grid;
    let counters = &world.data.counters;
    let spots: Vec<Hex> = {
        let mut v: Vec<Hex> = Vec::new();
        for h in grid.hexes() {
            if v.len() == 4 {
                break;
            }
            if supplied[h.idx()] && quiet(&g, h) && !in_entry_area(&g, h) && v.iter().all(|&o| grid.distance(o, h) > 4)
            {
                v.push(h);
            }
        }
        v
    };
    assert_eq!(spots.len(), 4, "open ground in US supply");
    let of = |f: u16| {
        units_where(&g, |d| {
            d.side == Side::Allied && d.formation == Some(f) && !d.is_artillery() && d.front.attack >= 1
        })
    };
    let big = (0..counters.formations.len() as u16)
        .find(|&f| of(f).len() >= 8)
        .expect("a US division of eight units");
    let other = (0..counters.formations.len() as u16)
        .find(|&f| f != big && !of(f).is_empty())
        .expect("another US division");
    let div = of(big);
    let three = div[..3].to_vec();
    let four = div[3..7].to_vec();
    let mixed = vec![div[7], of(other)[0]];
    for (units, h) in [(&three, spots[0]), (&four, spots[1]), (&mixed, spots[2])] {
        for &u in units.iter() {
            put(&mut g, u, h);
            g.edit().units[u as usize].dg = true;
        }
    }
    // A US unit free to exploit keeps the phase a decision.
    let taken = [&three[..], &four[..], &mixed[..]].concat();
    let runner = pick(&g, 1, &taken, |d| exploiter(Side::Allied)(d))[0];
    put(&mut g, runner, spots[3]);
    run_to(&mut g, 4, Phase::Movement(Side::German));
    for &u in &three {
        assert!(
            !g.state().units[u as usize].dg,
            "3.4: three of one division in supply recover"
        );
        assert_eq!(seen(&g, u).expect("on the map")["dg"], false);
    }
    for &u in &four {
        assert!(g.state().units[u as usize].dg, "3.4: overstacked, no recovery");
    }
    for &u in &mixed {
        assert!(g.state().units[u as usize].dg, "3.4: two divisions, no recovery");
    }
}

// ---- 3.5: barrage examples at the engine level ----

/// 3.5: "−1 to the roll for each enemy barrage marker in the firing artillery's hex";
/// friendly markers there have no effect.
#[test]
fn fire_from_under_enemy_full_markers_takes_1_per_marker_friendly_markers_nothing_3_5() {
    for (enemy_full, friendly_full, drm) in [(0u8, 0u8, 0), (1, 0, -1), (2, 0, -2), (0, 2, 0)] {
        let mut g = empty(3, Phase::Movement(Side::German));
        let t = field(&g, 1, 0);
        let gun = pick(&g, 1, &[], gun(Side::German, 2))[0];
        let target = pick(&g, 1, &[], foot(Side::Allied))[0];
        put(&mut g, target, t);
        let gh = ring(g.world(), t, 2);
        put(&mut g, gun, gh);
        if enemy_full > 0 {
            mark(&mut g, gh, Side::Allied, enemy_full, 0);
        }
        if friendly_full > 0 {
            mark(&mut g, gh, Side::German, friendly_full, 0);
        }
        assert!(
            legal(&g).contains(&Action::Fire { unit: gun, target: t }),
            "3.5: artillery may fire from a marked hex"
        );
        let (die, modified, _) = fire(&mut g, gun, t);
        assert_eq!(
            modified,
            die + drm,
            "{enemy_full} enemy and {friendly_full} friendly Full markers on the gun"
        );
    }
}

/// The TEC's Barrage Success Roll of one terrain, as the book prints it: the Half range and
/// the lowest roll for a Full (A3: the top range is open upward).
fn book_roll(terrain: &str) -> (RangeInclusive<i32>, i32) {
    match terrain {
        "city" => (5..=5, 6),
        "west-wall" | "slope" => (4..=5, 6),
        "village" | "woods" | "forest" | "marsh" => (4..=4, 5),
        "open" => (3..=4, 5),
        other => panic!("no barrage roll for {other}"),
    }
}

fn book_result(roll: &(RangeInclusive<i32>, i32), modified: i32) -> &'static str {
    if modified >= roll.1 {
        "Full"
    } else if roll.0.contains(&modified) {
        "Half"
    } else {
        "none"
    }
}

/// 3.5: "If the target hex has more than one terrain type, use the type whose success roll is
/// hardest": a City hex with open ground rolls as City, an open hex with a village as Village,
/// an open West Wall hex as West Wall when Germans hold it and as open ground when the US does
/// (1.3: the West Wall counts for German units only).
#[test]
fn a_hex_of_several_terrains_takes_the_hardest_barrage_roll_3_5() {
    let probe = empty(3, Phase::Movement(Side::German));
    let find = |names: &[&str]| {
        probe
            .world()
            .map
            .grid
            .hexes()
            .find(|&h| {
                let mut t = probe.world().terrain_names[h.idx()].clone();
                t.sort();
                let mut want = names.to_vec();
                want.sort();
                t == want && probe.world().map.grid.within(h, 2).count() == 19
            })
            .unwrap_or_else(|| panic!("a hex of {names:?}"))
    };
    // (target terrains, occupying side, the terrain whose roll applies, the rolls where the
    // hardest terrain and the easiest one differ).
    let cases: [(&[&str], Side, &str, &str); 4] = [
        (&["open", "city"], Side::Allied, "city", "open"),
        (&["open", "village"], Side::Allied, "village", "open"),
        (&["open", "west-wall"], Side::German, "west-wall", "open"),
        (&["open", "west-wall"], Side::Allied, "open", "open"),
    ];
    for (names, occupant, hardest, easiest) in cases {
        let t = find(names);
        let firer = occupant.enemy();
        let mut base = empty(3, Phase::Movement(firer));
        let gun = pick(&base, 1, &[], gun(firer, 2))[0];
        let target = pick(&base, 1, &[], foot(occupant))[0];
        put(&mut base, target, t);
        let gh = ring(base.world(), t, 2);
        put(&mut base, gun, gh);
        let roll = book_roll(hardest);
        let other = book_roll(easiest);
        let mut told_apart = false;
        for seed in 0..40u64 {
            let mut g = base.clone();
            g.edit().reseed(seed);
            let (die, modified, result) = fire(&mut g, gun, t);
            assert_eq!(modified, die, "one unit in the hex, no marker: no DRM");
            assert_eq!(
                result,
                book_result(&roll, modified),
                "{names:?} held by {occupant:?}: roll {modified} on the {hardest} row"
            );
            let marker = g.state().markers.iter().find(|m| m.hex == t).map(|m| (m.full, m.half));
            let want = match result {
                "Full" => Some((1, 0)),
                "Half" => Some((0, 1)),
                _ => None,
            };
            assert_eq!(marker, want, "the marker placed");
            told_apart |= book_result(&other, modified) != result;
        }
        assert!(
            hardest == easiest || told_apart,
            "{names:?}: some roll tells {hardest} from {easiest}"
        );
    }
}

/// 3.5 Half reconciliation: "Ignore Full markers in the hex when reconciling": a Half beside
/// a Full rolls as a lone Half, and three Halves beside a Full make exactly one more Full.
#[test]
fn half_reconciliation_ignores_the_full_markers_of_the_hex_3_5() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let lone = field(&g, 1, 0);
    let many = field(&g, 1, 40);
    assert_ne!(lone, many);
    mark(&mut g, lone, Side::German, 1, 1);
    mark(&mut g, many, Side::German, 1, 3);
    let spot = field(&g, 1, 80);
    on_to_the_us_barrage_phase(&mut g, spot);
    let marker = |h: Hex| g.state().markers.iter().find(|m| m.hex == h).map(|m| (m.full, m.half));
    assert_eq!(
        marker(many),
        Some((2, 0)),
        "three Halves make one Full, beside the Full"
    );
    let lines = journal(&g);
    let (lone_id, many_id) = (id(&g, lone), id(&g, many));
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with(&format!("3.5: Half marker at {many_id},"))),
        "no roll for two or more Halves"
    );
    let line = lines
        .iter()
        .find(|l| l.starts_with(&format!("3.5: Half marker at {lone_id},")))
        .expect("the Half beside the Full rolls as a lone Half");
    let die = last_die(line);
    let want = if die >= 4 { (2, 0) } else { (1, 0) };
    assert_eq!(marker(lone), Some(want), "Half Reconciliation Table: die {die}");
}

/// 3.1 with 3.4: traffic jams act on German units only, so a US stack in a jam hex recovers
/// in the pre-turn of turn 2 as anywhere else, while a German stack in one stays DG.
#[test]
fn only_german_stacks_stay_dg_in_a_traffic_jam_at_the_pre_turn_3_1_3_4() {
    let mut g = empty(1, Phase::Exploitation(Side::Allied));
    let grid = g.world().map.grid.clone();
    let jams: Vec<Hex> = grid
        .hexes()
        .filter(|&h| has(&g, h, "traffic-jam") && !in_entry_area(&g, h))
        .collect();
    let us = pick(&g, 1, &[], foot(Side::Allied))[0];
    let them = pick(&g, 1, &[], foot(Side::German))[0];
    let supplied = g.supply_now(Side::Allied);
    let us_jam = *jams
        .iter()
        .find(|&&h| supplied[h.idx()])
        .expect("a jam hex in US supply");
    let german_jam = *jams
        .iter()
        .find(|&&h| grid.distance(h, us_jam) > 2)
        .expect("a second jam hex away from the first");
    for (u, h) in [(us, us_jam), (them, german_jam)] {
        put(&mut g, u, h);
        g.edit().units[u as usize].dg = true;
    }
    let runner = pick(&g, 1, &[us], |d| exploiter(Side::Allied)(d))[0];
    let spot = field(&g, 3, 0);
    put(&mut g, runner, spot);
    run_to(&mut g, 2, Phase::Movement(Side::German));
    assert!(!g.state().units[us as usize].dg, "3.1: a jam does not hold US units");
    assert!(
        g.state().units[them as usize].dg,
        "3.4: a German stack in a jam stays DG"
    );
}

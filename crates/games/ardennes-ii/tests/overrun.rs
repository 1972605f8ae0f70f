//! Overruns (3.3) played through the engine on positions built on the real map: who may
//! overrun (Mechanized MA, not DG, not next to the enemy when the phase began, not in or
//! through an enemy Full-marker hex, once a phase, +2 MP left), where (along a Road or Track
//! across the hexside into the defender's hex, TEC note 2; not over a blown bridge, 3.8), when
//! (movement and exploitation phases, not combat), and what follows (the defender's
//! stand-or-retreat choice of 3.2, the emptied hex entered free, no advance after combat, moving
//! on with the MP left, several overruns of one hex by different stacks, friendly markers on
//! the defender only).
//!
//! The map is looked up by terrain, never by hex id, so that a regenerated map keeps these
//! tests meaningful.

mod common;

use common::*;
use sandtable_ardennes_ii::data::UnitDef;
use sandtable_ardennes_ii::sequence::{Phase, Side};
use sandtable_ardennes_ii::state::UnitId;
use sandtable_ardennes_ii::Action;
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::hex::Hex;

/// 3.3: "pay +2 MP for the Overrun"; the engine counts half MP.
const OVERRUN_MP: u32 = 2 * 2;

/// A US mechanized manoeuvre unit that forms no ZOC Post.
fn us_tank(d: &UnitDef) -> bool {
    d.side == Side::Allied && d.is_mech() && !d.is_artillery() && !d.is_bond_infantry() && d.front.attack >= 1
}

/// A German tank (without the exploit bar) at `s` of lane `l` and a US tank in its target
/// `t`; returns the two.
fn tank_and_enemy(g: &mut ArdennesII, l: Lane) -> (UnitId, UnitId) {
    let tank = pick(g, 1, &[], german_tank)[0];
    let enemy = pick(g, 1, &[], us_tank)[0];
    put(g, tank, l.s);
    put(g, enemy, l.t);
    (tank, enemy)
}

/// The overrun of `target` by `units` (3.3).
fn overrun(units: &[UnitId], target: Hex) -> Action {
    Action::Overrun {
        units: units.to_vec(),
        target,
    }
}

/// The overruns offered now, as (units, target).
fn overruns(g: &ArdennesII) -> Vec<(Vec<UnitId>, Hex)> {
    legal(g)
        .into_iter()
        .filter_map(|a| match a {
            Action::Overrun { units, target } => Some((units, target)),
            _ => None,
        })
        .collect()
}

fn overrun_by(g: &ArdennesII, u: UnitId) -> bool {
    overruns(g).iter().any(|(units, _)| units.contains(&u))
}

/// Half MP unit `u` has left.
fn left(g: &ArdennesII, u: UnitId) -> u32 {
    board(g).allowance(u) - g.state().units[u as usize].spent as u32
}

fn at(g: &ArdennesII, u: UnitId) -> Option<Hex> {
    g.state().units[u as usize].hex()
}

/// Plays the fight under way to its end: the defender stands (or withdraws, if `withdraw` and
/// it may), each loss from the first unit offered, each retreat to the first hex offered.
/// Returns every action offered on the way.
fn fight(g: &mut ArdennesII, withdraw: bool) -> Vec<Action> {
    let mut offered = Vec::new();
    for _ in 0..50 {
        if g.combat().is_none() {
            return offered;
        }
        let l = legal(g);
        offered.extend(l.iter().cloned());
        let a = if withdraw && l.contains(&Action::Withdraw) {
            Action::Withdraw
        } else if l.contains(&Action::Stand) {
            Action::Stand
        } else if l.contains(&Action::EndAdvance) {
            Action::EndAdvance
        } else {
            l[0].clone()
        };
        play(g, a);
    }
    panic!("the fight does not end");
}

// ---- who may overrun ----

/// 3.3: "An overrunning unit must have a Mechanized MA. Exploit capability is not required."
#[test]
fn only_units_of_mechanized_ma_overrun_and_the_exploit_bar_is_not_needed_3_3() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let l = open_lane(&g);
    let tank = pick(&g, 1, &[], german_tank)[0];
    assert!(!def(&g, tank).exploit);
    let walker = pick(&g, 1, &[], |d| foot(Side::German)(d) && !d.is_bond_infantry())[0];
    let enemy = pick(&g, 1, &[], us_tank)[0];
    put(&mut g, tank, l.s);
    put(&mut g, walker, l.s);
    put(&mut g, enemy, l.t);
    play(&mut g, Action::move_to(tank, l.a));
    play(&mut g, Action::move_to(walker, l.a));
    assert!(left(&g, walker) >= OVERRUN_MP, "the foot unit has the MP");
    assert_eq!(
        overruns(&g),
        vec![(vec![tank], l.t)],
        "3.3: the mechanized unit alone, though the foot unit stands with it"
    );
    refused(&mut g, GERMAN, &overrun(&[walker], l.t), "3.3");
    refused(&mut g, GERMAN, &overrun(&[tank, walker], l.t), "3.3");
    play(&mut g, overrun(&[tank], l.t));
    let c = g.combat().expect("the overrun is fought");
    assert!(c.overrun);
    assert_eq!(c.attackers, vec![tank]);
    assert_eq!(c.defenders, vec![enemy]);
}

/// 3.3 and 3.4: a DG unit may not overrun, though it has the MP.
#[test]
fn a_dg_unit_does_not_overrun_3_3_3_4() {
    for dg in [false, true] {
        let mut g = empty(3, Phase::Movement(Side::German));
        let l = open_lane(&g);
        let (tank, _) = tank_and_enemy(&mut g, l);
        g.edit().units[tank as usize].dg = dg;
        play(&mut g, Action::move_to(tank, l.a));
        assert!(left(&g, tank) >= OVERRUN_MP, "DG {dg}: 2 MP left");
        assert_eq!(overrun_by(&g, tank), !dg, "DG {dg}");
        if dg {
            refused(&mut g, GERMAN, &overrun(&[tank], l.t), "3.3");
        }
    }
}

/// 3.3: "not start the phase adjacent to an enemy unit": a US unit next to a German unit when
/// its movement phase begins moves away and may not overrun; one that began apart may.
#[test]
fn a_unit_next_to_an_enemy_when_the_phase_began_does_not_overrun_3_3() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let world = g.world().clone();
    let grid = &world.map.grid;
    // A lane, a second start hex `x` next to `a` and two from `t`, and a German unit's hex `e`
    // next to `x` but two from `a`, `s` and `t`.
    let (l, x, e) = open_lanes(&g)
        .into_iter()
        .find_map(|l| {
            grid.neighbours(l.a).map(|(_, n)| n).find_map(|x| {
                if x == l.s || grid.distance(x, l.t) != 2 || !plain(&g, x) {
                    return None;
                }
                let e = grid.neighbours(x).map(|(_, n)| n).find(|&e| {
                    grid.distance(e, l.a) == 2
                        && grid.distance(e, l.s) >= 2
                        && grid.distance(e, l.t) >= 2
                        && plain(&g, e)
                })?;
                Some((l, x, e))
            })
        })
        .expect("a lane with room beside it");
    let us = pick(&g, 2, &[], us_tank);
    let (late, fresh) = (us[0], us[1]);
    let germans = pick(&g, 2, &[], german_tank);
    let (defender, neighbour) = (germans[0], germans[1]);
    put(&mut g, late, x);
    put(&mut g, fresh, l.s);
    put(&mut g, defender, l.t);
    put(&mut g, neighbour, e);
    // The German player turn passes; the US movement phase begins with `late` next to a
    // German unit and `fresh` apart from every one.
    run_to(&mut g, 3, Phase::Movement(Side::Allied));
    assert_eq!(
        (at(&g, late), at(&g, fresh), at(&g, defender), at(&g, neighbour)),
        (Some(x), Some(l.s), Some(l.t), Some(e))
    );
    play(&mut g, Action::move_to(late, l.a));
    play(&mut g, Action::move_to(fresh, l.a));
    assert!(left(&g, late) >= OVERRUN_MP && left(&g, fresh) >= OVERRUN_MP);
    assert_eq!(
        overruns(&g),
        vec![(vec![fresh], l.t)],
        "3.3: the unit that began the phase next to the enemy is left out"
    );
    refused(&mut g, ALLIED, &overrun(&[late], l.t), "3.3");
    refused(&mut g, ALLIED, &overrun(&[late, fresh], l.t), "3.3");
}

/// 3.3: an overrun costs +2 MP (inventory A15: exactly 2, the terrain of the defender's hex
/// not paid), and is not offered to a unit with less than 2 MP left.
#[test]
fn an_overrun_costs_2_mp_and_needs_2_mp_left_3_3() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let l = open_lane(&g);
    let (tank, _) = tank_and_enemy(&mut g, l);
    play(&mut g, Action::move_to(tank, l.a));
    let allowance = board(&g).allowance(tank);
    let spent = g.state().units[tank as usize].spent as u32;
    assert!(overrun_by(&g, tank));
    // 1½ MP left: not enough.
    let mut short = g.clone();
    short.edit().units[tank as usize].spent = (allowance - OVERRUN_MP + 1) as u16;
    assert!(!overrun_by(&short, tank), "3.3: 1½ MP left");
    refused(&mut short, GERMAN, &overrun(&[tank], l.t), "3.3");
    // Exactly 2 MP left: enough, and the overrun takes them all.
    let mut just = g.clone();
    just.edit().units[tank as usize].spent = (allowance - OVERRUN_MP) as u16;
    assert!(overrun_by(&just, tank), "3.3: 2 MP left");
    play(&mut just, overrun(&[tank], l.t));
    assert_eq!(just.state().units[tank as usize].spent as u32, allowance);
    // With MP to spare, the overrun costs 2, whatever entering the hex would cost.
    play(&mut g, overrun(&[tank], l.t));
    assert_eq!(
        g.state().units[tank as usize].spent as u32,
        spent + OVERRUN_MP,
        "3.3: +2 MP"
    );
}

/// 3.3, TEC note 2: overruns only along a continuous Road or Track into the defender's hex;
/// from a neighbour of the hex without one across the hexside none is offered.
#[test]
fn an_overrun_follows_a_road_or_track_across_the_hexside_3_3_tec_note_2() {
    let probe = empty(3, Phase::Movement(Side::German));
    let all = open_lanes(&probe);
    let world = probe.world().clone();
    let grid = &world.map.grid;
    for kind in ["road", "track"] {
        let l = *all
            .iter()
            .find(|l| l.kind == kind)
            .unwrap_or_else(|| panic!("a {kind} into open ground"));
        let mut g = empty(3, Phase::Movement(Side::German));
        let (tank, _) = tank_and_enemy(&mut g, l);
        play(&mut g, Action::move_to(tank, l.a));
        assert_eq!(overruns(&g), vec![(vec![tank], l.t)], "along the {kind}");
    }
    // A neighbour of the target with no road or track across the shared hexside, reached from
    // a hex two from the target.
    let b = board(&probe);
    let (l, side_hex, start) = all
        .iter()
        .find_map(|l| {
            grid.neighbours(l.t).map(|(_, n)| n).find_map(|n| {
                let into_t = grid.dir_to(n, l.t).expect("adjacent");
                if b.road_link(n, into_t).is_some() || !plain(&probe, n) {
                    return None;
                }
                let p = grid
                    .neighbours(n)
                    .map(|(_, p)| p)
                    .find(|&p| grid.distance(p, l.t) == 2 && plain(&probe, p))?;
                Some((*l, n, p))
            })
        })
        .expect("a side of the target without a road");
    drop(b);
    let mut g = empty(3, Phase::Movement(Side::German));
    let tank = pick(&g, 1, &[], german_tank)[0];
    let enemy = pick(&g, 1, &[], us_tank)[0];
    put(&mut g, tank, start);
    put(&mut g, enemy, l.t);
    play(&mut g, Action::move_to(tank, side_hex));
    assert!(left(&g, tank) >= OVERRUN_MP);
    assert!(overruns(&g).is_empty(), "TEC note 2: no road across the hexside");
    refused(&mut g, GERMAN, &overrun(&[tank], l.t), "3.3");
}

/// 3.3, 3.8: a road whose bridge is blown is no road for an overrun.
#[test]
fn no_overrun_across_a_blown_bridge_3_3_3_8() {
    let mut g = empty(3, Phase::Movement(Side::Allied));
    let world = g.world().clone();
    let grid = &world.map.grid;
    let b = board(&g);
    let mech_ok = |h: Hex| mech_may_enter(&g, Side::Allied, h);
    // A US unit two hexes off, on the road to a bridge that a demolition symbol serves.
    let (s, a, t, symbol) = grid
        .hexes()
        .filter(|&a| !in_entry_area(&g, a) && mech_ok(a))
        .find_map(|a| {
            grid.neighbours(a).find_map(|(d, t)| {
                let i = g.world().side_symbol[a.idx()][d as usize]?;
                if !g.world().water(a, d) || b.road_link(a, d).is_none() || in_entry_area(&g, t) {
                    return None;
                }
                let s = grid.neighbours(a).map(|(_, n)| n).find(|&s| {
                    grid.distance(s, t) == 2
                        && mech_ok(s)
                        && !in_entry_area(&g, s)
                        && b.road_link(s, grid.dir_to(s, a).expect("adjacent")).is_some()
                })?;
                Some((s, a, t, g.world().demolitions[i as usize].0))
            })
        })
        .expect("a road bridge with a demolition symbol and a road up to it");
    drop(b);
    let tank = pick(&g, 1, &[], us_tank)[0];
    let enemy = pick(&g, 1, &[], german_tank)[0];
    put(&mut g, tank, s);
    put(&mut g, enemy, t);
    let mut blown = g.clone();
    play(&mut g, Action::move_to(tank, a));
    assert!(
        overruns(&g).contains(&(vec![tank], t)),
        "the bridge stands: the road carries the overrun"
    );
    blown.edit().blown.push(symbol);
    play(&mut blown, Action::move_to(tank, a));
    assert!(left(&blown, tank) >= OVERRUN_MP);
    assert!(!overrun_by(&blown, tank), "3.8: the bridge is blown");
    refused(&mut blown, ALLIED, &overrun(&[tank], t), "3.3");
}

/// 3.3, 3.5: a unit that enters an enemy Full-marker hex on its way, or ends its move in one,
/// may not overrun for the rest of the phase.
#[test]
fn no_overrun_after_entering_an_enemy_full_marker_hex_3_3_3_5() {
    let base = empty(3, Phase::Movement(Side::German));
    let world = base.world().clone();
    let grid = &world.map.grid;
    // A lane with a hex `p` behind `s`, three from the target.
    let (l, p) = open_lanes(&base)
        .into_iter()
        .find_map(|l| {
            let p = grid
                .neighbours(l.s)
                .map(|(_, n)| n)
                .find(|&p| grid.distance(p, l.t) == 3 && plain(&base, p))?;
            Some((l, p))
        })
        .expect("a lane with room behind it");
    let tank = pick(&base, 1, &[], german_tank)[0];
    let enemy = pick(&base, 1, &[], us_tank)[0];
    let setup = |marked: Option<Hex>| {
        let mut g = base.clone();
        put(&mut g, tank, p);
        put(&mut g, enemy, l.t);
        if let Some(h) = marked {
            mark(&mut g, h, Side::Allied, 1, 0);
        }
        g
    };
    // No marker: it may.
    let mut g = setup(None);
    play(&mut g, Action::move_to(tank, l.s));
    play(&mut g, Action::move_to(tank, l.a));
    assert!(overrun_by(&g, tank), "no marker on the way");
    // A US Full marker on the way, at `s`.
    let mut g = setup(Some(l.s));
    play(&mut g, Action::move_to(tank, l.s));
    play(&mut g, Action::move_to(tank, l.a));
    assert!(left(&g, tank) >= OVERRUN_MP);
    assert!(!overrun_by(&g, tank), "3.3: it entered an enemy barrage hex on its way");
    refused(&mut g, GERMAN, &overrun(&[tank], l.t), "3.3");
    // A US Full marker where it stops, next to the target.
    let mut g = setup(Some(l.a));
    play(&mut g, Action::move_to(tank, l.a));
    assert!(left(&g, tank) >= OVERRUN_MP);
    assert!(!overrun_by(&g, tank), "3.3: it stands in an enemy barrage hex");
    // A Half marker is no barrage hex until reconciled (A4).
    let mut g = base.clone();
    put(&mut g, tank, p);
    put(&mut g, enemy, l.t);
    mark(&mut g, l.a, Side::Allied, 0, 1);
    play(&mut g, Action::move_to(tank, l.a));
    assert!(overrun_by(&g, tank), "A4: a Half marker counts for nothing");
}

/// 3.3, 3.5: a unit that begins the phase in an enemy Full-marker hex may not overrun. In the
/// sequence of play (A1) enemy markers stand at a phase's start only in the German
/// exploitation phase (the US Barrage phase's markers), so it is played there.
#[test]
fn a_unit_that_begins_the_phase_under_an_enemy_full_marker_does_not_overrun_3_3() {
    let mut g = empty(3, Phase::Combat(Side::German));
    let ls = open_lanes(&g);
    let world = g.world().clone();
    let grid = &world.map.grid;
    let l1 = ls[0];
    let l2 = *ls
        .iter()
        .find(|l| grid.distance(l.t, l1.t) > 6)
        .expect("a second lane apart");
    let runners = pick(&g, 2, &[], exploiter(Side::German));
    let targets = pick(&g, 2, &[], us_tank);
    put(&mut g, runners[0], l1.s);
    put(&mut g, targets[0], l1.t);
    put(&mut g, runners[1], l2.s);
    put(&mut g, targets[1], l2.t);
    mark(&mut g, l1.s, Side::Allied, 1, 0);
    let taken = [&runners[..], &targets[..]].concat();
    combat_phase_with_a_fight_elsewhere(&mut g, l1.t, &taken);
    play(&mut g, Action::EndPhase);
    assert_eq!(g.phase(), Phase::Exploitation(Side::German));
    // The unit that began apart from the marker reaches its target and may overrun.
    play(&mut g, Action::move_to(runners[1], l2.a));
    assert!(overruns(&g).contains(&(vec![runners[1]], l2.t)));
    // The one that began under the US marker may neither move on (3.5) nor overrun.
    assert!(moves_of(&g, runners[0]).is_empty(), "3.5: no exploitation");
    assert!(!overrun_by(&g, runners[0]));
    refused(&mut g, GERMAN, &overrun(&[runners[0]], l1.t), "3.3");
}

// ---- what follows an overrun ----

/// 3.3 with 3.2: the defender of an overrun chooses to stand or retreat as in combat; a
/// stack of mechanized units, not DG, not in a City and not under the attacker's Full marker
/// may retreat 5 hexes. The emptied hex is entered at no extra MP, there is no advance after
/// combat (even for an exploit-capable unit after a retreat of 5), and the unit moves on with
/// what it has left but may not overrun again.
#[test]
fn a_withdrawn_defender_lets_the_overrunning_unit_in_free_and_it_moves_on_without_a_second_overrun_3_3() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let world = g.world().clone();
    let grid = &world.map.grid;
    let b = board(&g);
    // A lane whose target has a second road out of it, to a hex `r` clear of `s`.
    let (l, r) = open_lanes(&g)
        .into_iter()
        .find_map(|l| {
            let r = grid.neighbours(l.t).find_map(|(d, r)| {
                (r != l.a && b.road_link(l.t, d).is_some() && grid.distance(r, l.s) >= 2 && plain(&g, r)).then_some(r)
            })?;
            Some((l, r))
        })
        .expect("a road through the target");
    drop(b);
    let runner = pick(&g, 1, &[], |d| exploiter(Side::German)(d) && !d.is_bond_infantry())[0];
    let us = pick(&g, 2, &[], us_tank);
    let (defender, beyond) = (us[0], us[1]);
    put(&mut g, runner, l.s);
    put(&mut g, defender, l.t);
    put(&mut g, beyond, r);
    play(&mut g, Action::move_to(runner, l.a));
    let spent = g.state().units[runner as usize].spent as u32;
    play(&mut g, overrun(&[runner], l.t));
    assert_eq!(seat(&g), ALLIED, "the defender decides");
    assert_eq!(legal(&g), vec![Action::Stand, Action::Withdraw], "3.2: the choice");
    play(&mut g, Action::Withdraw);
    let retreats = retreats(&g);
    assert!(!retreats.is_empty());
    assert!(retreats.iter().all(|&h| grid.distance(h, l.t) == 5), "3.2: 5 hexes");
    let offered = fight(&mut g, false);
    assert!(g.combat().is_none(), "the overrun is over");
    assert!(
        !offered.iter().any(|a| matches!(a, Action::Advance { .. })),
        "3.3: no advance after combat, though the unit has the exploit bar: {offered:?}"
    );
    assert_eq!(at(&g, defender), Some(retreats[0]));
    assert_eq!(at(&g, runner), Some(l.t), "3.3: placed in the emptied hex");
    assert_eq!(
        g.state().units[runner as usize].spent as u32,
        spent + OVERRUN_MP,
        "3.3: at no additional MP"
    );
    assert!(left(&g, runner) >= OVERRUN_MP);
    assert!(
        !moves_of(&g, runner).is_empty(),
        "3.3: it may continue moving with its remaining MA"
    );
    assert!(board(&g).enemy_in(Side::German, r));
    assert!(!overrun_by(&g, runner), "3.3: not overrun again this phase");
    refused(&mut g, GERMAN, &overrun(&[runner], r), "3.3");
}

/// 3.3: a defender destroyed in an overrun leaves its hex to the overrunning unit, placed in
/// it at no extra MP ("if the attacker wins, it must enter").
#[test]
fn a_destroyed_defender_leaves_its_hex_to_the_overrunning_unit_3_3() {
    let mut base = empty(3, Phase::Movement(Side::German));
    let l = open_lane(&base);
    let strong = units_where(&base, |d| german_tank(d) && d.steps == 2)
        .into_iter()
        .max_by_key(|&u| def(&base, u).front.attack)
        .expect("a German tank");
    let weak = pick(&base, 1, &[], |d| foot(Side::Allied)(d) && d.steps == 1)[0];
    put(&mut base, strong, l.s);
    put(&mut base, weak, l.t);
    play(&mut base, Action::move_to(strong, l.a));
    let spent = base.state().units[strong as usize].spent as u32;
    play(&mut base, overrun(&[strong], l.t));
    assert_eq!(legal(&base), vec![Action::Stand], "3.2: a foot unit must stand");
    let mut found = false;
    for seed in 0..100u64 {
        let mut g = base.clone();
        g.edit().reseed(seed);
        let offered = fight(&mut g, false);
        if at(&g, weak).is_some() || at(&g, strong).is_none() {
            continue;
        }
        found = true;
        assert!(!offered.iter().any(|a| matches!(a, Action::Advance { .. })));
        assert_eq!(at(&g, strong), Some(l.t), "3.3: the attacker must enter");
        assert_eq!(g.state().units[strong as usize].spent as u32, spent + OVERRUN_MP);
        break;
    }
    assert!(found, "some roll destroys a one-step defender at these odds");
}

/// 3.3: if the defender is still in the hex the overrunning unit stays next to it and may
/// move on with its remaining MA, but not overrun again; another stack may overrun the same
/// hex in the same phase.
#[test]
fn a_defender_that_holds_keeps_its_hex_and_another_stack_may_overrun_it_again_3_3() {
    let mut base = empty(3, Phase::Movement(Side::German));
    let l = open_lane(&base);
    let pair = pick(&base, 2, &[], |d| german_tank(d) && d.steps == 2);
    let (first, second) = (pair[0], pair[1]);
    let wall = pick(&base, 3, &[], |d| {
        foot(Side::Allied)(d) && d.steps == 2 && d.front.defence >= 4 && d.formation.is_some()
    });
    put(&mut base, first, l.s);
    put(&mut base, second, l.s);
    for &u in &wall {
        put(&mut base, u, l.t);
    }
    play(&mut base, Action::move_to(first, l.a));
    let spent = base.state().units[first as usize].spent as u32;
    play(&mut base, overrun(&[first], l.t));
    assert_eq!(legal(&base), vec![Action::Stand], "3.2: foot units must stand");
    let mut found = false;
    for seed in 0..100u64 {
        let mut g = base.clone();
        g.edit().reseed(seed);
        let offered = fight(&mut g, false);
        if at(&g, first).is_none() || wall.iter().any(|&u| at(&g, u) != Some(l.t)) {
            continue;
        }
        found = true;
        assert!(!offered.iter().any(|a| matches!(a, Action::Advance { .. })));
        assert_eq!(at(&g, first), Some(l.a), "3.3: it stays next to the defender");
        assert_eq!(g.state().units[first as usize].spent as u32, spent + OVERRUN_MP);
        assert!(left(&g, first) >= OVERRUN_MP);
        assert!(!moves_of(&g, first).is_empty(), "3.3: it may move on");
        assert!(!overrun_by(&g, first), "3.3: once a phase");
        refused(&mut g, GERMAN, &overrun(&[first], l.t), "3.3");
        // Another stack overruns the same hex.
        play(&mut g, Action::move_to(second, l.a));
        assert_eq!(
            overruns(&g),
            vec![(vec![second], l.t)],
            "3.3: a different stack may try again"
        );
        play(&mut g, overrun(&[second], l.t));
        let c = g.combat().expect("the second overrun is fought");
        assert_eq!((c.attackers.clone(), c.target), (vec![second], l.t));
        break;
    }
    assert!(found, "some roll leaves both sides in place at these odds");
}

/// 3.3 with 3.2: the defender of an overrun must stand if it is DG, holds a foot unit, is in a
/// City, or is under an enemy (the attacker's) Full marker.
#[test]
fn the_mandatory_stand_cases_of_3_2_hold_in_an_overrun_3_3() {
    let probe = empty(3, Phase::Movement(Side::German));
    let open = open_lane(&probe);
    let city = *lanes_where(&probe, &|g, t| has(g, t, "city") && !in_entry_area(g, t), &|g, h| {
        mech_may_enter(g, Side::German, h) && !has(g, h, "traffic-jam") && !has(g, h, "city") && roomy(g, h)
    })
    .first()
    .expect("a road into a City");
    let choice = |l: Lane, f: &dyn Fn(&mut ArdennesII, UnitId)| {
        let mut g = empty(3, Phase::Movement(Side::German));
        let (tank, enemy) = tank_and_enemy(&mut g, l);
        f(&mut g, enemy);
        play(&mut g, Action::move_to(tank, l.a));
        play(&mut g, overrun(&[tank], l.t));
        assert_eq!(seat(&g), ALLIED);
        let offered = legal(&g);
        if offered == vec![Action::Stand] {
            refused(&mut g, ALLIED, &Action::Withdraw, "3.2");
        }
        offered
    };
    let both = vec![Action::Stand, Action::Withdraw];
    let stand = vec![Action::Stand];
    assert_eq!(choice(open, &|_, _| {}), both, "a mech unit in the open chooses");
    assert_eq!(choice(open, &|g, u| g.edit().units[u as usize].dg = true), stand, "DG");
    assert_eq!(
        choice(open, &|g, _| {
            // One foot unit of one step: no ZOC Post (1.2).
            let walker = pick(g, 1, &[], |d| foot(Side::Allied)(d) && d.steps == 1)[0];
            put(g, walker, open.t);
        }),
        stand,
        "with a foot unit"
    );
    assert_eq!(choice(city, &|_, _| {}), stand, "in a City");
    assert_eq!(
        choice(open, &|g, _| mark(g, open.t, Side::German, 1, 0)),
        stand,
        "under the attacker's Full marker"
    );
}

/// 3.3: "Friendly barrage markers apply normally to the defender, but do not affect the
/// attacker at all": a German Full marker on the target halves the US defence (and forbids
/// its retreat), one on the attacker's hex neither stops the overrun nor weakens it.
#[test]
fn friendly_markers_weaken_the_defender_and_not_the_attacker_3_3() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let l = open_lane(&g);
    let (tank, enemy) = tank_and_enemy(&mut g, l);
    mark(&mut g, l.a, Side::German, 1, 0);
    mark(&mut g, l.t, Side::German, 1, 0);
    play(&mut g, Action::move_to(tank, l.a));
    assert!(
        overruns(&g).contains(&(vec![tank], l.t)),
        "3.3: a friendly marker does not stop the overrun"
    );
    play(&mut g, overrun(&[tank], l.t));
    assert_eq!(legal(&g), vec![Action::Stand], "3.2: under an enemy marker");
    play(&mut g, Action::Stand);
    let (a, d) = last_strengths(&g);
    assert_eq!(a, def(&g, tank).front.attack as f64, "the attacker at full strength");
    assert_eq!(
        d,
        def(&g, enemy).front.defence as f64 / 2.0,
        "3.5: one enemy Full marker halves the defence"
    );
}

// ---- when ----

/// Sequence of play note [1], 3.3: overruns belong to the movement and exploitation phases;
/// in a combat phase the same position offers an attack and no overrun.
#[test]
fn overruns_come_in_movement_and_exploitation_phases_not_in_combat_3_3() {
    let probe = empty(3, Phase::Movement(Side::German));
    let l = open_lane(&probe);
    let runner = pick(&probe, 1, &[], |d| exploiter(Side::German)(d) && !d.is_bond_infantry())[0];
    let enemy = pick(&probe, 1, &[], us_tank)[0];
    // Movement.
    let mut g = empty(3, Phase::Movement(Side::German));
    put(&mut g, runner, l.s);
    put(&mut g, enemy, l.t);
    play(&mut g, Action::move_to(runner, l.a));
    assert!(overruns(&g).contains(&(vec![runner], l.t)), "movement phase");
    // Exploitation: the combat phase ends and the exploitation phase begins.
    let mut g = empty(3, Phase::Combat(Side::German));
    put(&mut g, runner, l.s);
    put(&mut g, enemy, l.t);
    combat_phase_with_a_fight_elsewhere(&mut g, l.t, &[runner, enemy]);
    assert!(overruns(&g).is_empty(), "none in the combat phase");
    play(&mut g, Action::EndPhase);
    assert_eq!(g.phase(), Phase::Exploitation(Side::German));
    play(&mut g, Action::move_to(runner, l.a));
    assert!(overruns(&g).contains(&(vec![runner], l.t)), "exploitation phase");
    play(&mut g, overrun(&[runner], l.t));
    assert!(g.combat().is_some_and(|c| c.overrun));
    // Combat: next to the enemy across the same road, an attack but no overrun.
    let mut g = empty(3, Phase::Combat(Side::German));
    put(&mut g, runner, l.a);
    put(&mut g, enemy, l.t);
    let l2 = legal(&g);
    assert!(l2.contains(&Action::Attack { target: l.t }));
    assert!(
        overruns(&g).is_empty(),
        "3.2: the combat phase has attacks, not overruns"
    );
    refused(&mut g, GERMAN, &overrun(&[runner], l.t), "3.3");
}

/// A German movement phase on turn 3 with `n` German tanks of no division moved together from
/// `s` to `a` of an open lane, and a US tank in `t`; returns the game, the lane, the tanks and
/// the US unit.
fn a_stack_next_to_an_enemy(n: usize) -> (ArdennesII, Lane, Vec<UnitId>, UnitId) {
    let mut g = empty(3, Phase::Movement(Side::German));
    let l = open_lane(&g);
    let tanks = pick(&g, n, &[], |d| german_tank(d) && d.formation.is_none());
    let enemy = pick(&g, 1, &[], us_tank)[0];
    for &u in &tanks {
        put(&mut g, u, l.s);
    }
    put(&mut g, enemy, l.t);
    for &u in &tanks {
        play(&mut g, Action::move_to(u, l.a));
    }
    (g, l, tanks, enemy)
}

/// A stack overruns together: the eligible units of a hex are offered as one stack and one by
/// one, and the stack's attack is the sum of its units'.
#[test]
fn a_stack_overruns_together_with_the_sum_of_its_attack_3_3() {
    let (mut g, l, pair, _) = a_stack_next_to_an_enemy(2);
    let mut offered = overruns(&g);
    offered.sort();
    let mut want = vec![(pair.clone(), l.t), (vec![pair[0]], l.t), (vec![pair[1]], l.t)];
    want.sort();
    assert_eq!(offered, want);
    play(&mut g, overrun(&pair, l.t));
    play(&mut g, Action::Stand);
    let (a, _) = last_strengths(&g);
    let sum: f64 = pair.iter().map(|&u| def(&g, u).front.attack as f64).sum();
    assert_eq!(a, sum);
    for &u in &pair {
        assert!(!overrun_by(&g, u), "both have overrun");
    }
}

// ---- entering the hex: traffic jams and enemy markers; zero-strength overruns ----

/// 3.1 with 3.3: "A Traffic Jam hex automatically makes DG any unit that enters it": an
/// overrunning German unit placed in an emptied jam hex on turn 2 enters it and becomes DG.
#[test]
fn an_overrunning_unit_placed_in_an_emptied_traffic_jam_becomes_dg_3_1_3_3() {
    let mut g = empty(2, Phase::Movement(Side::German));
    let l = jam_lane(&g);
    let (runner, _) = tank_and_enemy(&mut g, l);
    play(&mut g, Action::move_to(runner, l.a));
    assert_eq!(at(&g, runner), Some(l.a));
    play(&mut g, overrun(&[runner], l.t));
    assert_eq!(legal(&g), vec![Action::Stand, Action::Withdraw]);
    fight(&mut g, true);
    assert_eq!(at(&g, runner), Some(l.t), "3.3: placed in the emptied hex");
    assert!(g.state().units[runner as usize].dg, "3.1: it entered a traffic jam: DG");
}

/// 3.5 and 3.3: "Units that start in an enemy Full-marker hex, or enter one later, cannot
/// Overrun or Exploit for the rest of that phase": a German exploiting unit placed by its
/// overrun in a hex under a US Full marker (fired in the US Barrage phase at the US unit's own
/// hex, as 3.5 allows) has entered one, and exploits no further.
#[test]
fn an_overrunning_unit_placed_under_an_enemy_full_marker_exploits_no_further_3_5() {
    let mut g = empty(3, Phase::Combat(Side::German));
    let l = open_lane(&g);
    let runner = pick(&g, 1, &[], |d| exploiter(Side::German)(d) && !d.is_bond_infantry())[0];
    let enemy = pick(&g, 1, &[], us_tank)[0];
    put(&mut g, runner, l.s);
    put(&mut g, enemy, l.t);
    mark(&mut g, l.t, Side::Allied, 1, 0);
    combat_phase_with_a_fight_elsewhere(&mut g, l.t, &[runner, enemy]);
    play(&mut g, Action::EndPhase);
    assert_eq!(g.phase(), Phase::Exploitation(Side::German));
    play(&mut g, Action::move_to(runner, l.a));
    play(&mut g, overrun(&[runner], l.t));
    fight(&mut g, true);
    assert_eq!(at(&g, runner), Some(l.t), "placed in the emptied hex");
    assert!(left(&g, runner) > 0);
    assert!(
        moves_of(&g, runner).is_empty(),
        "3.5: it entered an enemy Full-marker hex: no more exploitation ({} moves offered)",
        moves_of(&g, runner).len()
    );
}

/// SCS 7.1 (RULINGS: "An attack of strength 0 cannot be made") with 3.3: mechanized artillery,
/// of attack 0, is not offered an overrun of its own. The position arises in play: a German
/// unit that withdraws before a US overrun ends its retreat next to a US gun along a road; the
/// gun did not begin the phase next to an enemy and did not move (3.6).
#[test]
fn artillery_of_attack_0_is_not_offered_an_overrun_of_its_own_3_3() {
    let mut base = empty(3, Phase::Movement(Side::Allied));
    let world = base.world().clone();
    let grid = &world.map.grid;
    let l = open_lane(&base);
    let tank = pick(&base, 1, &[], us_tank)[0];
    let enemy = pick(&base, 1, &[], german_tank)[0];
    let gun = pick(&base, 1, &[], |d| {
        d.side == Side::Allied && d.is_artillery() && d.is_mech() && d.front.attack == 0
    })[0];
    put(&mut base, tank, l.s);
    put(&mut base, enemy, l.t);
    // Where the German unit may withdraw to, and a road hex beside one of those hexes for the
    // gun: the first pair whose withdrawal hex is still offered with the gun in place.
    let withdrawn = |g: &ArdennesII| {
        let mut t = g.clone();
        play(&mut t, Action::move_to(tank, l.a));
        play(&mut t, overrun(&[tank], l.t));
        play(&mut t, Action::Withdraw);
        t
    };
    let probe = withdrawn(&base);
    let b = board(&probe);
    let candidates: Vec<(Hex, Hex)> = legal(&probe)
        .into_iter()
        .filter_map(|a| match a {
            Action::RetreatTo { to } => Some(to),
            _ => None,
        })
        .flat_map(|r| {
            grid.neighbours(r)
                .filter(|&(_, gh)| {
                    let into_r = grid.dir_to(gh, r).expect("adjacent");
                    b.road_link(gh, into_r).is_some()
                        && b.count(gh) == 0
                        && grid.distance(gh, l.t) >= 3
                        && grid.distance(gh, l.s) >= 2
                        && plain(&probe, gh)
                })
                .map(move |(_, gh)| (r, gh))
                .collect::<Vec<_>>()
        })
        .collect();
    drop(b);
    let (g, r) = candidates
        .into_iter()
        .find_map(|(r, gh)| {
            let mut g = base.clone();
            put(&mut g, gun, gh);
            let mut g = withdrawn(&g);
            legal(&g).contains(&Action::RetreatTo { to: r }).then(|| {
                play(&mut g, Action::RetreatTo { to: r });
                (g, r)
            })
        })
        .expect("a withdrawal hex with a road beside it for the gun");
    assert_eq!(at(&g, enemy), Some(r));
    assert!(g.combat().is_none());
    assert!(
        !overrun_by(&g, gun),
        "an attack of strength 0 cannot be made: {:?}",
        overruns(&g)
    );
}

/// 3.1 with 3.2 (found beside the overruns): a German unit advancing after combat into an
/// emptied traffic-jam hex on turn 2 enters it and becomes DG.
#[test]
fn a_unit_advancing_into_a_traffic_jam_becomes_dg_3_1_3_2() {
    let mut g = empty(2, Phase::Combat(Side::German));
    let l = jam_lane(&g);
    let attacker = pick(&g, 1, &[], german_tank)[0];
    let enemy = pick(&g, 1, &[], us_tank)[0];
    put(&mut g, attacker, l.a);
    put(&mut g, enemy, l.t);
    attack(&mut g, l.t, &[attacker]);
    withdraw(&mut g);
    assert!(legal(&g).contains(&Action::Advance {
        unit: attacker,
        to: l.t
    }));
    play(
        &mut g,
        Action::Advance {
            unit: attacker,
            to: l.t,
        },
    );
    assert_eq!(at(&g, attacker), Some(l.t));
    assert!(
        g.state().units[attacker as usize].dg,
        "3.1: it entered a traffic jam: DG"
    );
}

/// 3.2 with 3.5 and RULINGS (advance after combat: "not in or through an enemy Full-marker hex
/// this phase"): an exploit-capable German unit that advances into a combat hex under a US Full
/// marker has entered an enemy Full-marker hex and may not take the second hex.
#[test]
fn an_advance_into_a_combat_hex_under_an_enemy_full_marker_stops_there_3_2_3_5() {
    let mut g = empty(3, Phase::Combat(Side::German));
    let world = g.world().clone();
    let grid = &world.map.grid;
    let b = board(&g);
    let (l, onward) = open_lanes(&g)
        .into_iter()
        .find_map(|l| {
            let onward = grid
                .neighbours(l.t)
                .find_map(|(d, r)| (r != l.a && b.road_link(l.t, d).is_some() && plain(&g, r)).then_some(r))?;
            Some((l, onward))
        })
        .expect("a road through the combat hex");
    drop(b);
    let attacker = pick(&g, 1, &[], |d| exploiter(Side::German)(d) && !d.is_bond_infantry())[0];
    let enemy = pick(&g, 1, &[], us_tank)[0];
    put(&mut g, attacker, l.a);
    put(&mut g, enemy, l.t);
    mark(&mut g, l.t, Side::Allied, 1, 0);
    attack(&mut g, l.t, &[attacker]);
    withdraw(&mut g);
    play(
        &mut g,
        Action::Advance {
            unit: attacker,
            to: l.t,
        },
    );
    assert!(
        !legal(&g).contains(&Action::Advance {
            unit: attacker,
            to: onward
        }),
        "3.5: it entered an enemy Full-marker hex: {:?}",
        legal(&g)
    );
}

/// Which units of a hex overrun together is the owner's choice (3.3): of three eligible units,
/// every group of them is offered — the three, each pair and each one alone.
#[test]
fn any_group_of_a_hexs_eligible_units_may_overrun_together_3_3() {
    let (mut g, l, three, enemy) = a_stack_next_to_an_enemy(3);
    let mut offered = overruns(&g);
    offered.sort();
    let mut want: Vec<(Vec<UnitId>, Hex)> = (1..8u32)
        .map(|m| ((0..3).filter(|i| m & (1 << i) != 0).map(|i| three[i]).collect(), l.t))
        .collect();
    want.sort();
    assert_eq!(offered, want, "7 groups of 3 units");
    // Two of them overrun; the third may still overrun on its own afterwards.
    play(&mut g, overrun(&three[..2], l.t));
    play(&mut g, Action::Stand);
    while g.combat().is_some() {
        let v = legal(&g);
        play(&mut g, v[0].clone());
    }
    if at(&g, enemy) == Some(l.t) && at(&g, three[2]) == Some(l.a) {
        assert!(overrun_by(&g, three[2]), "the third unit has not overrun yet");
        assert!(!overrun_by(&g, three[0]) && !overrun_by(&g, three[1]));
    }
}

//! Procedures of the book played through the engine on hand-built positions: the XVIII
//! Airborne Corps drop (5.1), traffic jams (3.1), barrage at any hex (3.5) and bridge
//! demolition in the middle of German movement (3.8).

mod common;

use common::*;
use sandtable_ardennes_ii::sequence::{Phase, Side};
use sandtable_ardennes_ii::state::UnitId;
use sandtable_ardennes_ii::Action;
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::game::{Game, Pending};
use sandtable_core::hex::Hex;

fn unit(g: &ArdennesII, id: &str) -> UnitId {
    g.world()
        .data
        .counters
        .index(id)
        .unwrap_or_else(|| panic!("{id} is in the manifest"))
}

/// The hexes offered to the unit being placed now.
fn offered(g: &ArdennesII) -> (UnitId, Vec<Hex>) {
    let mut unit = None;
    let hexes = legal(g)
        .into_iter()
        .map(|a| match a {
            Action::Place { unit: u, at } => {
                unit = Some(u);
                at
            }
            other => panic!("a placement is pending, not {other:?}"),
        })
        .collect();
    (unit.expect("a placement"), hexes)
}

/// The Map A VP hexes.
fn map_a_vp(g: &ArdennesII) -> Vec<Hex> {
    g.world()
        .data
        .tables
        .vp_hexes
        .iter()
        .map(|v| v.hex)
        .filter(|&h| id(g, h).starts_with('A'))
        .collect()
}

/// A campaign position at the end of the German turn 3 with the 82nd and 101st Airborne due:
/// ending the German movement phase runs the engine on to the US movement phase, where they
/// are placed (5.1).
fn airborne_drop() -> ArdennesII {
    let mut g = empty(3, Phase::Movement(Side::German));
    let walker = pick(&g, 1, &[], foot(Side::German))[0];
    let h = field(&g, 1, 1);
    put(&mut g, walker, h);
    let due: Vec<UnitId> = g
        .world()
        .data
        .counters
        .units
        .iter()
        .enumerate()
        .filter(|(_, d)| d.id.starts_with("us-82ab-") || d.id.starts_with("us-101ab-"))
        .map(|(i, _)| i as UnitId)
        .collect();
    for &u in &due {
        g.edit().units[u as usize] = Default::default();
    }
    g.edit().airborne_due = due;
    play(&mut g, Action::EndPhase);
    assert_eq!(g.phase(), Phase::Movement(Side::Allied));
    assert_eq!(g.pending(), Pending::Seat(ALLIED));
    g
}

#[test]
fn each_airborne_division_keeps_to_one_group_of_5_1() {
    let mut g = airborne_drop();
    let grid = g.world().map.grid.clone();
    let within = |h: Hex, centres: &[Hex]| centres.iter().any(|&c| grid.distance(c, h) <= 3);
    let bastogne = hex(&g, "B1.16");
    let senonchamps = hex(&g, "A38.16");
    let vp_a = map_a_vp(&g);
    let (first, hexes) = offered(&g);
    assert!(def(&g, first).id.starts_with("us-82ab-"));
    // Before the division has dropped, every group is open.
    assert!(hexes
        .iter()
        .all(|&h| within(h, &vp_a) || within(h, &[bastogne, senonchamps])));
    assert!(hexes.contains(&bastogne));
    assert!(vp_a.iter().all(|v| hexes.contains(v)), "every Map A VP hex is open");
    // Drop the first unit next to a Map A VP hex that is far from every other Map A VP hex
    // and from Bastogne and Senonchamps.
    let lone = *vp_a
        .iter()
        .find(|&&v| {
            !within(v, &[bastogne, senonchamps]) && vp_a.iter().filter(|&&o| grid.distance(o, v) <= 12).count() == 1
        })
        .expect("a Map A VP hex standing alone");
    play(&mut g, Action::Place { unit: first, at: lone });
    // The division's group now holds `lone` and one other Map A VP hex: Bastogne's group is
    // closed to it, every Map A VP hex is still open as the second hex.
    let (second, hexes) = offered(&g);
    assert_eq!(def(&g, second).formation, def(&g, first).formation);
    assert!(
        !hexes.contains(&bastogne),
        "Bastogne is not in a group with {}",
        id(&g, lone)
    );
    assert!(hexes.iter().all(|&h| within(h, &vp_a)));
    let far = *vp_a
        .iter()
        .filter(|&&v| grid.distance(v, lone) > 8)
        .max_by_key(|&&v| grid.distance(v, lone))
        .expect("a second Map A VP hex far away");
    play(&mut g, Action::Place { unit: second, at: far });
    // Both hexes of the group are chosen: the rest of the division drops near them only.
    let (third, hexes) = offered(&g);
    assert_eq!(def(&g, third).formation, def(&g, first).formation);
    assert!(!hexes.is_empty());
    assert!(
        hexes.iter().all(|&h| within(h, &[lone, far])),
        "only near the chosen two"
    );
    refused_place(&mut g, third, bastogne);
    // The 101st chooses for itself: Bastogne is open to it.
    let mut g2 = g.clone();
    loop {
        let (u, hexes) = offered(&g2);
        if def(&g2, u).id.starts_with("us-101ab-") {
            assert!(hexes.contains(&bastogne), "the 101st may still use Bastogne's group");
            break;
        }
        play(&mut g2, Action::Place { unit: u, at: hexes[0] });
    }
}

/// The US placement of `u` at `at` is refused, citing a rule, and changes nothing.
fn refused_place(g: &mut ArdennesII, u: UnitId, at: Hex) {
    refusal(g, ALLIED, &Action::Place { unit: u, at });
}

#[test]
fn the_airborne_units_are_the_82nd_and_101st() {
    let g = airborne_drop();
    assert!(unit(&g, "us-82ab-arty") < g.state().units.len() as UnitId);
    assert_eq!(g.placing().len(), 18, "both divisions wait to drop");
}

#[test]
fn a_barrage_may_fall_on_any_observed_hex_in_range_even_an_empty_one() {
    let mut g = empty(3, Phase::Movement(Side::Allied));
    let t = field(&g, 1, 3);
    let world = g.world().clone();
    let grid = &world.map.grid;
    let at = |k: u32| ring(&world, t, k);
    let gun = pick(&g, 1, &[], gun(Side::Allied, 4))[0];
    let watcher = pick(&g, 1, &[], foot(Side::Allied))[0];
    let friend = pick(&g, 1, &[watcher], foot(Side::Allied))[0];
    let german = pick(&g, 1, &[], foot(Side::German))[0];
    put(&mut g, gun, at(3));
    put(&mut g, watcher, at(2));
    // The nearest German is far away: 3.5 still lets the US fire at the empty hex.
    let far = ring(&world, t, 12);
    put(&mut g, german, far);
    let fire = Action::Fire { unit: gun, target: t };
    assert!(legal(&g).contains(&fire), "3.5: an empty hex with an observer in range");
    // A hex with friendly units in it may be fired at too.
    put(&mut g, friend, t);
    assert!(legal(&g).contains(&fire), "3.5: a hex of friendly units");
    // 2.2: "空袭可以在地图上的任何地方使用": an air strike is offered anywhere, observed or
    // not, even at a hex far from every unit.
    g.edit().air_strikes = 2;
    let strike = Action::AirStrike { target: t };
    assert!(legal(&g).contains(&strike), "observed");
    let lonely = grid
        .hexes()
        .find(|&h| grid.distance(h, t) == 8 && grid.distance(h, far) >= 5)
        .expect("a hex away from everyone");
    assert!(legal(&g).contains(&Action::AirStrike { target: lonely }));
    let next_to_german = grid.neighbours(far).next().expect("a neighbour").1;
    assert!(
        legal(&g).contains(&Action::AirStrike { target: next_to_german }),
        "next to the enemy"
    );
    play(&mut g, fire);
    assert!(g.state().units[gun as usize].fired);
}

/// 3.8: "at any moment in any phase": as a German unit's move reaches a hex that would end the
/// chance to blow a primed bridge, the US may try; the move goes on afterwards, across the
/// bridge if it stands, and if it is blown the unit stops short of it with the MP it has left.
#[test]
fn a_german_unit_reaching_a_primed_bridge_lets_the_us_try_to_blow_it_and_goes_on_3_8() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let (symbol, start, halt, near, far) = bridge_approach(&g);
    let world = g.world().clone();
    let grid = &world.map.grid;
    let tank = pick(&g, 1, &[], exploiter(Side::German))[0];
    put(&mut g, tank, start);
    // A US unit within 2 hexes of the symbol, off the route and not next to it.
    let route = [start, halt, near, far];
    let guard_hex = grid
        .hexes()
        .find(|&h| grid.distance(h, symbol) <= 2 && route.iter().all(|&r| grid.distance(r, h) >= 2))
        .expect("room for the US unit");
    let guard = pick(&g, 1, &[], foot(Side::Allied))[0];
    put(&mut g, guard, guard_hex);
    let go = Action::move_to(tank, far);
    assert!(legal(&g).contains(&go), "the far bank is within reach");
    play(&mut g, go.clone());
    // The move waits on the road hex before the near bank: entering the near bank would end
    // the chance to blow.
    assert_eq!(g.state().units[tank as usize].hex(), Some(halt));
    assert_eq!(g.pending(), Pending::Seat(ALLIED), "the US decides");
    assert!(
        legal(&g).contains(&Action::Demolish { symbol }),
        "the US may blow it now"
    );
    assert!(journal(&g)
        .iter()
        .any(|l| l.starts_with("3.8") && l.contains("reaches")));
    // The US lets it pass: the move goes on across the bridge, without another decision.
    play(&mut g, Action::Pass);
    assert_eq!(g.state().units[tank as usize].hex(), Some(far), "the move went on");
    assert_eq!(g.pending(), Pending::Seat(GERMAN));
    // Other games: the US tries, and the bridge is blown or tested.
    let into_far = grid.dir_to(near, far).expect("the bridge's banks are neighbours");
    let (mut blown_seen, mut tested_seen) = (false, false);
    for seed in 0..40u64 {
        let mut g2 = empty(3, Phase::Movement(Side::German));
        put(&mut g2, tank, start);
        put(&mut g2, guard, guard_hex);
        play(&mut g2, Action::move_to(tank, far));
        g2.edit().reseed(seed);
        play(&mut g2, Action::Demolish { symbol });
        assert!(
            g2.state().units[guard as usize].stopped,
            "the demolishing unit stops (3.8)"
        );
        assert_eq!(
            g2.pending(),
            Pending::Seat(ALLIED),
            "the US may try other bridges or pass"
        );
        play(&mut g2, Action::Pass);
        let st = &g2.state().units[tank as usize];
        if g2.state().blown.contains(&symbol) {
            blown_seen = true;
            // The road no longer crosses: the move ends short of the far bank if the crossing
            // is now closed to it, and the unit keeps the MP it has not spent.
            if board(&g2).step_cost(tank, near, into_far, far).is_none() {
                assert_ne!(st.hex(), Some(far), "seed {seed}: the blown bridge stops the move");
            }
            assert!((st.spent as u32) < board(&g2).allowance(tank), "seed {seed}: MP left");
            assert_eq!(g2.pending(), Pending::Seat(GERMAN), "seed {seed}: the German moves on");
        } else {
            tested_seen = true;
            assert!(g2.state().tested.contains(&symbol));
            assert_eq!(st.hex(), Some(far), "seed {seed}: the bridge stands; the move went on");
        }
        if blown_seen && tested_seen {
            break;
        }
    }
    assert!(
        blown_seen && tested_seen,
        "both results of the Bridge Demolition Table were seen"
    );
}

/// 3.6: artillery bugs out "at that instant" an enemy unit of printed attack 2 or more moves
/// next to it: in the middle of the move, at the hex where the unit came next to it; then the
/// move goes on to its end.
#[test]
fn artillery_bugs_out_the_moment_a_moving_enemy_comes_next_to_it_3_6() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let at = field(&g, 3, 0);
    let world = g.world().clone();
    let grid = &world.map.grid;
    let gun = pick(&g, 1, &[], |d| d.side == Side::Allied && d.is_artillery())[0];
    let tank = pick(&g, 1, &[], |d| german_tank(d) && d.front.attack >= 2 && d.front.ma >= 8)[0];
    put(&mut g, gun, at);
    // The tank goes from two hexes away, through a hex next to the gun, to another hex two
    // hexes from it: the route is given, so it passes next to the gun on its way.
    let (start, by, to) = grid
        .within(at, 2)
        .filter(|&s| grid.distance(s, at) == 2)
        .find_map(|start| {
            grid.neighbours(start)
                .map(|(_, n)| n)
                .filter(|&n| grid.distance(n, at) == 1)
                .find_map(|by| {
                    grid.neighbours(by)
                        .map(|(_, n)| n)
                        .find(|&n| grid.distance(n, at) == 2 && grid.distance(n, start) == 2)
                        .map(|to| (start, by, to))
                })
        })
        .expect("a hex next to the gun, and one on either side of it");
    put(&mut g, tank, start);
    play(
        &mut g,
        Action::Move {
            unit: tank,
            to,
            via: vec![by].into(),
        },
    );
    assert_eq!(
        g.state().units[tank as usize].hex(),
        Some(by),
        "the move waits where it came next to the gun"
    );
    assert_eq!(g.pending(), Pending::Seat(ALLIED), "3.6: the gun bugs out now");
    let choice = legal(&g)[0].clone();
    assert!(matches!(choice, Action::BugOut { unit, .. } | Action::StayPut { unit } if unit == gun));
    play(&mut g, choice);
    assert_eq!(g.state().units[tank as usize].hex(), Some(to), "then the move goes on");
    assert_eq!(g.pending(), Pending::Seat(GERMAN));
    let log = journal(&g);
    let (s, b, t) = (id(&g, start), id(&g, by), id(&g, to));
    let first = log
        .iter()
        .position(|l| l.contains(&format!("{s} → {b}")))
        .expect("the first stretch");
    let bug = log.iter().position(|l| l.starts_with("3.6")).expect("the bug-out");
    let second = log
        .iter()
        .position(|l| l.contains(&format!("{b} → {t}")))
        .expect("the second stretch");
    assert!(first < bug && bug < second, "{log:?}");
}

/// A move may follow a route the player gives (every hex entered, in order), priced hex by
/// hex; a route that skips a hex, enters a hex twice, runs into an enemy unit or costs more
/// than the MP left is refused, saying why.
#[test]
fn a_move_follows_the_route_given_and_a_bad_route_is_refused_3_1() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let at = field(&g, 3, 1);
    let world = g.world().clone();
    let grid = &world.map.grid;
    let walker = pick(&g, 1, &[], foot(Side::German))[0];
    let enemy = pick(&g, 1, &[], foot(Side::Allied))[0];
    put(&mut g, walker, at);
    let a = step(&g, at, 0);
    let b = step(&g, a, 1);
    let far = ring(&world, at, 9);
    let routed = |to: Hex, via: Vec<Hex>| Action::Move {
        unit: walker,
        to,
        via: via.into(),
    };
    // Skipping a hex, and coming back to a hex.
    let beyond = step(&g, a, 0);
    let r = refused(&mut g, GERMAN, &routed(b, vec![beyond]), "3.1");
    assert!(r.text.en.contains("not next to"), "{}", r.text.en);
    refused(&mut g, GERMAN, &routed(a, vec![a]), "3.1");
    // Too far for the MP left.
    let line: Vec<Hex> = (1..9).map(|k| ring_toward(&g, at, far, k)).collect();
    let r = refused(&mut g, GERMAN, &routed(far, line), "3.1");
    assert!(r.text.en.contains("left"), "{}", r.text.en);
    // Into an enemy unit.
    put(&mut g, enemy, b);
    let r = refused(&mut g, GERMAN, &routed(b, vec![a]), "3.1");
    assert!(r.text.en.contains("enemy"), "{}", r.text.en);
    // A good route: the unit ends where it was sent, having gone the way it was told.
    let c = step(&g, at, 2);
    let d = step(&g, c, 1);
    assert!(grid.adjacent(d, at) || grid.distance(d, at) == 2);
    play(&mut g, routed(d, vec![c]));
    assert_eq!(g.state().units[walker as usize].hex(), Some(d));
    let (from, by) = (id(&g, at), id(&g, d));
    assert!(journal(&g).iter().any(|l| l.contains(&format!("{from} → {by}"))));
    // The refusal of a move names what stops the unit: here the enemy unit in the hex.
    let r = refused(&mut g, GERMAN, &Action::move_to(walker, b), "3.1");
    assert!(r.text.en.contains("enemy unit holds"), "{}", r.text.en);
}

/// The `k`-th hex on a line from `from` toward `to` (a neighbour nearer `to` each time).
fn ring_toward(g: &ArdennesII, from: Hex, to: Hex, k: usize) -> Hex {
    let grid = &g.world().map.grid;
    let mut h = from;
    for _ in 0..k {
        h = grid
            .neighbours(h)
            .map(|(_, n)| n)
            .min_by_key(|&n| (grid.distance(n, to), n))
            .expect("a neighbour");
    }
    h
}

#[test]
fn a_german_unit_entering_a_traffic_jam_becomes_dg_and_goes_on_with_half_its_allowance_3_1() {
    let mut g = empty(1, Phase::Movement(Side::German));
    let world = g.world().clone();
    let grid = &world.map.grid;
    let b = board(&g);
    // A jam hex with a road from a neighbour into it and a road on out of it.
    let (from, jam, beyond) = grid
        .hexes()
        .filter(|&h| has(&g, h, "traffic-jam"))
        .find_map(|jam| {
            let ins: Vec<Hex> = grid
                .neighbours(jam)
                .filter(|&(_, n)| grid.dir_to(n, jam).is_some_and(|d| b.road_link(n, d).is_some()))
                .map(|(_, n)| n)
                .filter(|&n| !has(&g, n, "traffic-jam"))
                .collect();
            let from = *ins.first()?;
            let beyond = ins
                .iter()
                .copied()
                .find(|&n| n != from && grid.distance(n, from) == 2)?;
            Some((from, jam, beyond))
        })
        .expect("a traffic jam on a through road");
    drop(b);
    let tank = pick(&g, 1, &[], |d| {
        d.side == Side::German && d.is_mech() && !d.is_artillery() && d.front.ma >= 8
    })[0];
    put(&mut g, tank, from);
    let ma = def(&g, tank).front.ma as u16;
    assert!(legal(&g).contains(&Action::move_to(tank, jam)));
    assert!(
        !legal(&g).contains(&Action::move_to(tank, beyond)) || {
            // `beyond` may be reachable round the jam; then not through it.
            let mut t = g.clone();
            play(&mut t, Action::move_to(tank, beyond));
            !t.state().units[tank as usize].dg
        },
        "a move through the jam in one go is not offered"
    );
    play(&mut g, Action::move_to(tank, jam));
    let st = &g.state().units[tank as usize];
    assert_eq!(st.hex(), Some(jam));
    assert!(st.dg, "3.1: entering a traffic jam makes the unit DG");
    let spent = st.spent;
    assert!(spent < ma, "the road into the jam costs less than half the allowance");
    // 3.4: DG halves the allowance (in half MP: `ma`), and MP spent are not prorated.
    let onward = moves_of(&g, tank);
    assert!(!onward.is_empty(), "it goes on with what is left of half its allowance");
    assert!(onward.contains(&beyond) || grid.distance(beyond, jam) == 1);
    let max = onward.iter().map(|&h| grid.distance(h, jam)).max().expect("moves");
    assert!(
        max as u16 <= ma - spent,
        "never farther than the half-MP left allows ({max} hexes, {} half MP)",
        ma - spent
    );
}

#[test]
fn units_of_zero_attack_strength_join_attacks_made_with_others_scs_7_1() {
    let mut g = empty(3, Phase::Combat(Side::German));
    let t = field(&g, 1, 5);
    let grid = g.world().map.grid.clone();
    let around: Vec<Hex> = grid.neighbours(t).map(|(_, n)| n).collect();
    let gun = pick(&g, 1, &[], |d| {
        d.side == Side::German && d.is_artillery() && d.front.attack == 0
    })[0];
    let rifle = pick(&g, 1, &[], foot(Side::German))[0];
    let defender = pick(&g, 1, &[], foot(Side::Allied))[0];
    put(&mut g, defender, t);
    put(&mut g, gun, around[0]);
    // Artillery alone: no attack can be made (strength 0).
    assert!(
        !legal(&g).contains(&Action::Attack { target: t }),
        "an attack of 0 cannot be made"
    );
    put(&mut g, rifle, around[3]);
    play(&mut g, Action::Attack { target: t });
    let l = legal(&g);
    assert!(l.contains(&Action::Join { unit: gun }), "the artillery may join");
    assert!(l.contains(&Action::Join { unit: rifle }));
    assert!(!l.contains(&Action::Resolve), "nobody has joined yet");
    play(&mut g, Action::Join { unit: gun });
    assert!(
        !legal(&g).contains(&Action::Resolve),
        "the artillery's 0 alone cannot attack"
    );
    play(&mut g, Action::Join { unit: rifle });
    assert!(legal(&g).contains(&Action::Resolve), "with the rifle unit it can");
    play(&mut g, Action::Resolve);
    assert!(g.state().units[gun as usize].attacked, "the artillery took part");
}

#[test]
fn across_the_gemuend_bridge_the_near_side_road_kind_counts_3_8() {
    let g = empty(3, Phase::Movement(Side::German));
    let west = hex(&g, "B22.15");
    let east = hex(&g, "B23.16");
    let grid = &g.world().map.grid;
    let to_west = grid.dir_to(east, west).expect("neighbours");
    let to_east = grid.dir_to(west, east).expect("neighbours");
    // The book's case: a Track from the west meets a Road from the east at the bridge.
    assert!(g.world().water(east, to_west), "the Our runs between them");
    assert_eq!(g.world().road_across(east, to_west), Some("track"));
    assert!((0..6u8).any(|d| d != to_west && g.world().road_across(east, d) == Some("road")));
    assert!((0..6u8).any(|d| d != to_east && g.world().road_across(west, d) == Some("track")));
    let b = board(&g);
    assert_eq!(b.road_link(east, to_west), Some("road"), "moving west: the Road rate");
    assert_eq!(b.road_link(west, to_east), Some("track"), "moving east: the Track rate");
    let tank = pick(&g, 1, &[], |d| {
        d.side == Side::German && d.is_mech() && !d.is_artillery()
    })[0];
    let road = g.world().costs.road[0][1] as u32;
    let track = g.world().costs.road[1][1] as u32;
    assert!(road < track);
    assert_eq!(b.step_cost(tank, east, to_west, west), Some(road));
    assert_eq!(b.step_cost(tank, west, to_east, east), Some(track));
}

/// `a` is refused with `rule`, in both languages, and the game is unchanged.
fn refused_with(g: &mut ArdennesII, a: &Action, rule: &str, words: &str) {
    let seat = seat(g);
    let r = refused(g, seat, a, rule);
    assert!(r.text.en.contains(words), "{a:?}: {}", r.text.en);
}

#[test]
fn out_of_turn_decisions_are_refused_with_what_is_awaited_and_its_rule() {
    let mut g = empty(3, Phase::Combat(Side::German));
    let t = field(&g, 1, 5);
    let around: Vec<Hex> = g.world().map.grid.neighbours(t).map(|(_, n)| n).collect();
    let rifle = pick(&g, 1, &[], foot(Side::German))[0];
    let gun = pick(&g, 1, &[], |d| {
        d.side == Side::German && d.is_artillery() && d.front.attack == 0
    })[0];
    let defender = pick(&g, 1, &[], foot(Side::Allied))[0];
    put(&mut g, defender, t);
    put(&mut g, rifle, around[0]);
    put(&mut g, gun, around[2]);
    refused_with(&mut g, &Action::Resolve, "3.2", "no attack is being set up");
    refused_with(&mut g, &Action::Stand, "3.2", "stand or retreat");
    refused_with(&mut g, &Action::RetreatTo { to: around[4] }, "3.2", "no retreat");
    refused_with(&mut g, &Action::EndAdvance, "3.2", "no advance");
    refused_with(&mut g, &Action::Pass, "3.8", "demolition");
    refused_with(&mut g, &Action::Resupply { unit: gun, roll: true }, "3.7", "Resupply");
    refused_with(&mut g, &Action::AirSupply { hex: t }, "2.2", "Air Supply");
    play(&mut g, Action::Attack { target: t });
    play(&mut g, Action::Join { unit: gun });
    refused_with(&mut g, &Action::Resolve, "3.2", "strength 0");
    refused_with(&mut g, &Action::EndPhase, "3.2", "attack under way");
}

#[test]
fn set_up_choices_come_in_a_set_up_phase_before_the_first_turn_scs_5_0() {
    let mut g = ArdennesII::new_game("goose-egg", 3).expect("the scenario starts");
    assert!(!g.placing().is_empty(), "the Goose Egg sets units up within N hexes");
    assert_eq!(g.phase(), Phase::SetUp);
    let log = journal(&g);
    assert!(log.iter().any(|l| l.contains("Set-up")), "{log:?}");
    let mut n = 0;
    while !g.placing().is_empty() {
        let (u, hexes) = offered(&g);
        play(&mut g, Action::Place { unit: u, at: hexes[0] });
        n += 1;
    }
    assert!(n > 0);
    assert_ne!(g.phase(), Phase::SetUp, "the first turn has begun");
    assert_eq!(g.state().turn, g.state().first_turn);
}

#[test]
fn a_player_written_scenario_keeps_units_in_its_own_playing_area_7_0() {
    // The Goose Egg under another name: its area is the book's, but no shipped scenario has
    // the name.
    let text = include_str!("../data/scenarios/goose-egg.toml").replace("id = \"goose-egg\"", "id = \"my-egg\"");
    let mut g = ArdennesII::from_scenario_text(&text, 5).expect("the scenario loads");
    let scenario = g.scenario().clone();
    let grid = g.world().map.grid.clone();
    let inside = |h: Hex| scenario.in_area(&grid, h);
    assert!(!inside(hex(&g, "B20.41")), "row 41 is outside the area");
    let mut rng = sandtable_core::chance::Rng::from_seed(5);
    let mut moves = 0;
    for _ in 0..400 {
        let Pending::Seat(seat) = g.pending() else { break };
        let l = legal(&g);
        for a in &l {
            match a {
                Action::Move { to, .. } | Action::Place { at: to, .. } => {
                    assert!(inside(*to), "{a:?} leaves the playing area");
                    moves += 1;
                }
                _ => {}
            }
        }
        let a = l[rng.below(l.len() as u32) as usize].clone();
        act(&mut g, seat, &a).expect("a listed action is accepted");
    }
    assert!(moves > 100, "moves were offered ({moves})");
}

//! Moves on the campaign map: a refused move names what stopped the unit, and the reason is
//! true of the map (9.2, 9.3, 3.1, the TEC); a move along a chosen route takes every town it
//! passes (3.4(2)).

mod common;
use common::*;
use sandtable_core::game::{Game, Pending, Rules};
use sandtable_core::hex::Hex;
use sandtable_core::search::{Search, Step};
use sandtable_stalingrad_blitz::state::{Route, Step as ExecStep};
use sandtable_stalingrad_blitz::{Action, Side, StalingradBlitz};

/// The campaign at its first movement segment: the Axis executes a chit first (16.0(1)).
/// With `no_soviets`, the Soviet units are taken off the map first (the towns east of the
/// start line stay Soviet, 3.4(1)).
fn campaign_moving(no_soviets: bool) -> StalingradBlitz {
    let mut g = StalingradBlitz::new_game("campaign", 3).expect("the campaign loads");
    if no_soviets {
        let soviets: Vec<usize> = (0..g.data().units.len())
            .filter(|&i| g.data().units[i].side == Side::Soviet)
            .collect();
        let e = g.edit();
        for i in soviets {
            e.state.units[i].loc = sandtable_stalingrad_blitz::state::Loc::Pool;
        }
    }
    // The Axis picks its chits; the Soviets theirs; 6A goes first.
    while !matches!(top(&g), Some(sandtable_stalingrad_blitz::Frame::Exec(_))) {
        let l = legal(&g);
        let first_6a = l
            .iter()
            .copied()
            .find(|a| matches!(a, Action::First { chit: Some(c) } if *c == chit(&g, "6A")));
        let a = first_6a.unwrap_or(l[0]);
        act(&mut g, a);
    }
    assert_eq!(step(&g), Some(&ExecStep::Move));
    g
}

fn mv(unit: u16, to: Hex) -> Action {
    Action::Move {
        unit,
        to,
        march: false,
        via: Route::default(),
    }
}

#[test]
fn every_refused_move_names_a_reason_the_map_bears_out() {
    let g = campaign_moving(false);
    let d = g.data().clone();
    let grid = &d.map.grid;
    let seat = match g.pending() {
        Pending::Seat(s) => s,
        p => panic!("{p:?}"),
    };
    let mut seen = std::collections::BTreeMap::new();
    let units: Vec<u16> = (0..d.units.len() as u16)
        .filter(|&u| g.state().units[u as usize].active && g.state().units[u as usize].hex().is_some())
        .collect();
    assert!(units.len() > 5);
    for &u in &units {
        let start = g.state().units[u as usize].hex().expect("on the map");
        for to in grid.hexes().filter(|&h| h != start && grid.distance(start, h) <= 7) {
            let Err(r) = g.check_action(seat, &mv(u, to)) else {
                continue;
            };
            *seen.entry(r.rule.clone()).or_insert(0) += 1;
            let hid = grid.id(to).0;
            let terrain = d.map.terrain(to);
            let sides: Vec<u32> = grid
                .neighbours(to)
                .map(|(dir, n)| d.map.side(n, (dir + 3) % 6))
                .collect();
            let enemy_there = g
                .state()
                .units
                .iter()
                .enumerate()
                .any(|(i, s)| s.hex() == Some(to) && d.units[i].side == Side::Soviet);
            match r.rule.as_str() {
                "3.1(2)" => assert!(enemy_there, "{hid}: {r}"),
                "3.1(1)" => assert!(
                    g.state().units.iter().filter(|s| s.hex() == Some(to)).count() >= 2,
                    "{hid}: {r}"
                ),
                "TEC" => assert!(
                    terrain & (d.t.sea | d.t.impassable) != 0 || sides.iter().any(|s| s & d.s.prohibited != 0),
                    "{hid}: {r}"
                ),
                "9.2(3)" => assert!(
                    sides
                        .iter()
                        .any(|s| s & d.s.major != 0 && s & (d.s.road | d.s.rail) == 0),
                    "{hid} has no unbridged major river hexside: {r}"
                ),
                "9.2(4)" => assert!(
                    terrain & d.t.mountain != 0
                        || grid.neighbours(to).any(|(_, n)| d.map.terrain(n) & d.t.mountain != 0),
                    "{hid} is not in or next to the mountains: {r}"
                ),
                "9.2" => {
                    // Nothing leads there: not even with MP enough.
                    let b = sandtable_stalingrad_blitz::rules::Board::new(g.data(), g.state());
                    let mut s = Search::new();
                    b.movement_within(u, false, start, 0, Some(u32::MAX / 4), &mut s);
                    assert!(s.cost(to).is_none(), "{hid}: {r}");
                }
                "9.2(5)" => {
                    // Out of reach for want of MP: with MP enough, the same rules get there.
                    let b = sandtable_stalingrad_blitz::rules::Board::new(g.data(), g.state());
                    let mut s = Search::new();
                    b.movement(u, false, &mut s);
                    assert!(s.cost(to).is_none(), "{hid}: {r}");
                    let side = d.units[u as usize].side;
                    s.run(grid, &[(start, 0)], u32::MAX, |from, dir, n| {
                        let bits = d.map.side(from, dir);
                        if bits & d.s.prohibited != 0
                            || d.map.terrain(n) & (d.t.sea | d.t.impassable) != 0
                            || b.enemy_in(side, n)
                        {
                            Step::Blocked(sandtable_core::search::Why::NONE)
                        } else {
                            Step::Go(1)
                        }
                    });
                    assert!(
                        s.cost(to).is_some(),
                        "{hid} cannot be reached at all, yet the refusal blames MP: {r}"
                    );
                }
                other => panic!("{hid}: an unexpected rule {other}: {r}"),
            }
        }
    }
    println!("{seen:?}");
    // The campaign's opening moves meet enemy units, rivers and the limits of MP.
    for rule in ["3.1(2)", "9.2(5)"] {
        assert!(seen.contains_key(rule), "no refusal under {rule}: {seen:?}");
    }
}

#[test]
fn a_move_through_a_chosen_town_takes_it_3_4_2() {
    // On the campaign map: a German unit, a Soviet-held town within its reach that its
    // cheapest route to somewhere further does not pass, and a route through the town.
    let g = campaign_moving(true);
    let d = g.data().clone();
    let grid = &d.map.grid;
    let seat = match g.pending() {
        Pending::Seat(s) => s,
        p => panic!("{p:?}"),
    };
    let legal = legal(&g);
    let mut found = None;
    'search: for a in &legal {
        let Action::Move {
            unit,
            to: town,
            march: false,
            ..
        } = *a
        else {
            continue;
        };
        if !d.is_urban[town.idx()] || g.state().control[town.idx()] == Some(Side::Axis) {
            continue;
        }
        for b in &legal {
            let Action::Move {
                unit: u2,
                to: dest,
                march: false,
                ..
            } = *b
            else {
                continue;
            };
            if u2 != unit || dest == town || !grid.adjacent(town, dest) {
                continue;
            }
            let via = Route::from_slice(&[town]).expect("one hex");
            let routed = Action::Move {
                unit,
                to: dest,
                march: false,
                via,
            };
            if g.check_action(seat, &routed).is_ok() {
                found = Some((unit, town, dest, routed));
                break 'search;
            }
        }
    }
    let (unit, town, dest, routed) = found.expect("a German unit with a town on a route it may take");
    // Moved straight to the destination, by the cheapest route, the town may stay Soviet;
    // routed through it, it is the Axis's.
    let mut h = g.clone();
    act(&mut h, routed);
    assert_eq!(h.state().units[unit as usize].hex(), Some(dest));
    assert_eq!(h.state().control[town.idx()], Some(Side::Axis), "{}", grid.id(town));
    let log: Vec<String> = h.journal(None).into_iter().map(|l| l.text.en).collect();
    let name = d.map.place(town).map(|p| p.name_en.clone()).unwrap_or_default();
    assert!(
        log.iter().any(|l| l.contains(&format!("takes control of {name}"))),
        "{log:?}"
    );
    // A route the unit cannot afford is refused, naming what stopped it.
    let far = grid
        .hexes()
        .find(|&x| grid.distance(x, dest) == 9 && d.map.terrain(x) & (d.t.sea | d.t.impassable) == 0)
        .expect("a far hex");
    let too_far = Action::Move {
        unit,
        to: far,
        march: false,
        via: Route::from_slice(&[town]).expect("one hex"),
    };
    let r = g.check_action(seat, &too_far).unwrap_err();
    assert!(
        r.rule.starts_with("9.") || r.rule.starts_with("3.") || r.rule == "TEC",
        "{r}"
    );
    // The typed form reads back.
    let typed = g.notation(&routed);
    assert!(typed.contains(" via "), "{typed}");
    assert_eq!(g.parse_notation(&typed), Some(routed));
}

//! 9.5 The events that place units or markers, on the August 1914 set-up: Guns of August (CP #1,
//! 5.7.4.3), Entrench (AP #12, CP #6, 5.7.4.4) and the digging it opens (11.2).

mod common;

use sandtable_core::game::{Game, Pending};
use sandtable_paths_of_glory::game::{Action, Frame, PathsOfGlory, Use, AP, CP};
use sandtable_paths_of_glory::state::{side_index, Fort, Location, Trench};
use sandtable_paths_of_glory::Side;

fn event(card: u8) -> Action {
    Action::Play { card, with: Use::Event }
}

/// Both sides pass the current action round with an Automatic Operation and no activation.
fn pass_round(g: &mut PathsOfGlory) {
    for seat in [CP, AP] {
        g.apply(seat, &Action::AutomaticOps).expect("auto ops");
        g.apply(seat, &Action::EndActivation).expect("nothing activated");
    }
}

/// A campaign at the CP's first action round of `turn`.
fn at_turn(turn: u8) -> PathsOfGlory {
    let mut g = common::first_round();
    g.pos.turn = turn;
    g
}

// ---- Guns of August (CP #1) ----

#[test]
fn guns_of_august_takes_liege_and_activates_three_armies_cp_1() {
    let mut g = common::first_round();
    common::give(&mut g, Side::Cp, 1);
    let liege = common::sp("liege");
    let koblenz = common::sp("koblenz");
    assert_eq!(g.pos.space(liege).fort, Fort::Intact);
    assert_eq!(g.pos.space(liege).control, Some(Side::Ap));
    assert!(g.legal_list().contains(&event(1)), "offered in round 1 of August 1914");
    g.apply(CP, &event(1)).expect("Guns of August");
    assert_eq!(g.pos.space(liege).fort, Fort::Destroyed, "the fort is destroyed");
    assert_eq!(g.pos.space(liege).control, Some(Side::Cp));
    for id in ["ge-army-1", "ge-army-2"] {
        assert_eq!(g.pos.units[common::unit(id)].loc, Location::Map(liege), "{id}");
    }
    assert_eq!(g.pos.units[common::unit("ge-army-3")].loc, Location::Map(koblenz));
    // 9.5.1.3: War Status 2; 9.5.1.2: the * card leaves the game.
    assert_eq!(g.pos.war_status[side_index(Side::Cp)], 2);
    assert!(g.pos.cards[side_index(Side::Cp)].removed.contains(&1));
    // The three armies' spaces are activated for combat, and the combats come now.
    let mut act = g.action.activated.clone();
    act.sort();
    let mut want = vec![(liege, true), (koblenz, true)];
    want.sort();
    assert_eq!(act, want);
    assert!(matches!(g.frames().last(), Some(Frame::Combats { side: Side::Cp })));
    let brussels = common::sp("brussels");
    assert!(
        g.legal_list().contains(&Action::Target { space: brussels }),
        "Brussels, next to Liege, may be attacked"
    );
}

#[test]
fn guns_of_august_only_in_the_first_action_round_of_august_1914_cp_1() {
    let mut g = common::first_round();
    common::give(&mut g, Side::Cp, 1);
    pass_round(&mut g);
    assert!(matches!(g.frames().last(), Some(Frame::Round { round: 2, .. })));
    let r = g.check_action(CP, &event(1)).expect_err("round 2");
    assert_eq!(r.rule, "CP #1", "{r:?}");
    assert!(!g.legal_list().contains(&event(1)));
    let mut g = at_turn(2);
    common::give(&mut g, Side::Cp, 1);
    let r = g.check_action(CP, &event(1)).expect_err("turn 2");
    assert_eq!(r.rule, "CP #1", "{r:?}");
}

#[test]
fn the_historical_cp_opens_with_guns_of_august_5_7_4_3() {
    let mut g = PathsOfGlory::new_game("historical", 3).expect("the Historical scenario");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    assert!(matches!(
        g.frames().last(),
        Some(Frame::Round {
            round: 1,
            side: Side::Cp
        })
    ));
    let r = g.check_action(CP, &Action::AutomaticOps).expect_err("forced");
    assert_eq!(r.rule, "5.7.4.3", "{r:?}");
    let r = g
        .check_action(
            CP,
            &Action::Play {
                card: 1,
                with: Use::Ops,
            },
        )
        .expect_err("for its event only");
    assert_eq!(r.rule, "5.7.4.3", "{r:?}");
    assert_eq!(*g.legal_list(), vec![event(1)], "the one legal action");
    g.apply(CP, &event(1)).expect("Guns of August");
    assert_eq!(g.pos.space(common::sp("liege")).fort, Fort::Destroyed);
}

#[test]
fn a_campaign_cp_need_not_open_with_guns_of_august() {
    let mut g = common::first_round();
    common::give(&mut g, Side::Cp, 1);
    g.check_action(CP, &Action::AutomaticOps)
        .expect("not forced outside 5.7");
}

// ---- Entrench (AP #12, CP #6) and digging (11.2) ----

#[test]
fn entrench_places_a_level_1_trench_by_a_supplied_army_ap_12() {
    let mut g = at_turn(2);
    pass_round_cp(&mut g);
    common::give(&mut g, Side::Ap, 12);
    g.apply(AP, &event(12)).expect("Entrench");
    assert!(g.pos.cards[side_index(Side::Ap)].removed.contains(&12));
    let places: Vec<_> = g
        .legal_list()
        .iter()
        .map(|a| match a {
            Action::Place { space } => *space,
            other => panic!("only places are offered: {other:?}"),
        })
        .collect();
    let verdun = common::sp("verdun");
    assert!(!places.contains(&verdun), "Verdun already holds a trench");
    let sedan = common::sp("sedan");
    assert!(places.contains(&sedan), "the French 5th Army in Sedan, no trench");
    let belfort = common::sp("belfort");
    assert!(!places.contains(&belfort), "corps only in Belfort");
    let paris = common::sp("paris");
    assert!(!places.contains(&paris), "Paris already holds a trench");
    // Every space offered holds an Allied army and no trench.
    for &s in &places {
        assert!(g.pos.space(s).trench.is_none());
        assert!(g.pos.units_in(s).any(|u| g.data().pieces[u].side == Side::Ap
            && g.data().pieces[u].kind == sandtable_paths_of_glory::data::Kind::Army));
    }
    let at = sedan;
    g.apply(AP, &Action::Place { space: at }).expect("the trench");
    assert_eq!(
        g.pos.space(at).trench,
        Some(Trench {
            side: Side::Ap,
            level: 1
        })
    );
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Cp, .. })));
    // 2022 9.5.1.1 note: the CP's Entrench is no longer an event.
    common::give(&mut g, Side::Cp, 6);
    let r = g.check_action(CP, &event(6)).expect_err("the second Entrench");
    assert_eq!(r.rule, "9.5.1.1", "{r:?}");
}

/// The CP passes its round so that the Allies act.
fn pass_round_cp(g: &mut PathsOfGlory) {
    g.apply(CP, &Action::AutomaticOps).expect("auto ops");
    g.apply(CP, &Action::EndActivation).expect("nothing activated");
}

#[test]
fn no_entrench_in_the_historical_first_turn_5_7_4_4() {
    let mut g = PathsOfGlory::new_game("historical", 3).expect("the Historical scenario");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    g.apply(CP, &event(1)).expect("Guns of August");
    g.apply(CP, &Action::EndCombat).expect("no combat");
    common::give(&mut g, Side::Ap, 12);
    let r = g.check_action(AP, &event(12)).expect_err("turn 1");
    assert_eq!(r.rule, "5.7.4.4", "{r:?}");
    // A campaign knows no such limit.
    let mut g = common::first_round();
    common::give(&mut g, Side::Cp, 6);
    g.check_action(CP, &event(6)).expect("the campaign's first turn");
}

#[test]
fn armies_dig_only_after_entrench_and_roll_after_movement_11_2() {
    let mut g = at_turn(2);
    common::give(&mut g, Side::Cp, 5);
    let koblenz = common::sp("koblenz");
    let army = common::unit("ge-army-2") as u16;
    // Koblenz holds the 2nd and 3rd Armies: 2 OPS to activate for movement.
    g.apply(
        CP,
        &Action::Play {
            card: 5,
            with: Use::Ops,
        },
    )
    .expect("OPS");
    g.apply(
        CP,
        &Action::Activate {
            space: koblenz,
            combat: false,
        },
    )
    .expect("activate Koblenz");
    if matches!(g.frames().last(), Some(Frame::Activation { .. })) {
        g.apply(CP, &Action::EndActivation).expect("done");
    }
    assert!(matches!(g.frames().last(), Some(Frame::Movement { .. })));
    let r = g
        .check_action(CP, &Action::Dig { unit: army })
        .expect_err("no Entrench yet");
    assert_eq!(r.rule, "11.2.1", "{r:?}");
    assert!(!g.legal_list().iter().any(|a| matches!(a, Action::Dig { .. })));

    // The same with the Allies' Entrench played: both sides may dig.
    let mut g2 = at_turn(2);
    common::give(&mut g2, Side::Cp, 5);
    let c = &mut g2.pos.cards[side_index(Side::Ap)];
    c.draw.retain(|&n| n != 12);
    c.hand.retain(|&n| n != 12);
    c.removed.push(12);
    g2.apply(
        CP,
        &Action::Play {
            card: 5,
            with: Use::Ops,
        },
    )
    .expect("OPS");
    g2.apply(
        CP,
        &Action::Activate {
            space: koblenz,
            combat: false,
        },
    )
    .expect("activate Koblenz");
    if matches!(g2.frames().last(), Some(Frame::Activation { .. })) {
        g2.apply(CP, &Action::EndActivation).expect("done");
    }
    assert!(g2.legal_list().contains(&Action::Dig { unit: army }));
    g2.apply(CP, &Action::Dig { unit: army }).expect("dig");
    let other = common::unit("ge-army-3") as u16;
    let r = g2
        .check_action(CP, &Action::Dig { unit: other })
        .expect_err("one a space");
    assert_eq!(r.rule, "11.2.1", "{r:?}");
    assert!(
        !g2.legal_list()
            .iter()
            .any(|a| matches!(a, Action::Move { units, .. } if units.contains(&army))),
        "the digging army does not move"
    );
    assert_eq!(g2.pos.space(koblenz).trench, None);
    g2.apply(CP, &Action::EndMovement).expect("end of movement");
    assert!(matches!(g2.frames().last(), Some(Frame::Dig { .. })));
    // The 2nd Army's LF is 3 (full): a 4 fails, nothing changes.
    let lf = g2.data().pieces[army as usize].full.lf;
    g2.apply_chance(&Action::Die { face: lf + 1 }).expect("the roll");
    assert_eq!(g2.pos.space(koblenz).trench, None);
}

#[test]
fn a_digging_roll_within_the_lf_makes_a_trench_and_a_second_raises_it_11_2_2() {
    let mut g = at_turn(2);
    let c = &mut g.pos.cards[side_index(Side::Cp)];
    c.draw.retain(|&n| n != 6);
    c.hand.retain(|&n| n != 6);
    c.removed.push(6);
    let koblenz = common::sp("koblenz");
    let army = common::unit("ge-army-2") as u16;
    for round in 0..2 {
        common::give(&mut g, Side::Cp, 5);
        g.apply(
            CP,
            &Action::Play {
                card: 5,
                with: Use::Ops,
            },
        )
        .expect("OPS");
        g.apply(
            CP,
            &Action::Activate {
                space: koblenz,
                combat: false,
            },
        )
        .expect("activate Koblenz");
        if matches!(g.frames().last(), Some(Frame::Activation { .. })) {
            g.apply(CP, &Action::EndActivation).expect("done");
        }
        g.apply(CP, &Action::Dig { unit: army }).expect("dig");
        g.apply(CP, &Action::EndMovement).expect("end of movement");
        g.apply_chance(&Action::Die { face: 1 }).expect("the roll");
        assert_eq!(
            g.pos.space(koblenz).trench,
            Some(Trench {
                side: Side::Cp,
                level: round + 1
            })
        );
        g.apply(AP, &Action::AutomaticOps).expect("auto ops");
        g.apply(AP, &Action::EndActivation).expect("nothing activated");
    }
    // 11.2.3: level 2 is the highest.
    common::give(&mut g, Side::Cp, 5);
    g.apply(
        CP,
        &Action::Play {
            card: 5,
            with: Use::Ops,
        },
    )
    .expect("OPS");
    g.apply(
        CP,
        &Action::Activate {
            space: koblenz,
            combat: false,
        },
    )
    .expect("activate Koblenz");
    if matches!(g.frames().last(), Some(Frame::Activation { .. })) {
        g.apply(CP, &Action::EndActivation).expect("done");
    }
    let r = g.check_action(CP, &Action::Dig { unit: army }).expect_err("level 2");
    assert_eq!(r.rule, "11.2.3", "{r:?}");
}

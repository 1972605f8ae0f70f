//! 9.5 The events that place units or markers, on the August 1914 set-up: Guns of August (CP #1,
//! 5.7.4.3), Entrench (AP #12, CP #6, 5.7.4.4) and the digging it opens (11.2).

use super::common;

use crate::game::{Action, Frame, PathsOfGlory, Use, AP, CP};
use crate::state::{side_index, Fort, Location, Trench};
use crate::Side;
use sandtable_core::game::{Game, Pending};

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
fn a_historical_game_begun_on_edition_1_keeps_its_opening_free() {
    use sandtable_core::driver::Game as _;
    let mut g = PathsOfGlory::new_game_edition("historical", 3, "1").expect("edition 1");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    g.check_action(CP, &Action::AutomaticOps)
        .expect("edition 1 records replay as they were played");
    let r = PathsOfGlory::new_game_edition("historical", 3, "9").expect_err("no edition 9");
    assert!(r.0.contains("edition 9"), "{r:?}");
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
        assert!(g
            .pos
            .units_in(s)
            .any(|u| g.data().pieces[u].side == Side::Ap && g.data().pieces[u].kind == crate::data::Kind::Army));
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

// ---- Reinforcements placed as the card says (9.5.3) ----

/// A campaign at the Allies' first action round of `turn` (the CP passed), with Turkey at war
/// if `turkey`, and `card` in the Allied hand.
fn allies_at(turn: u8, turkey: bool, card: u8) -> PathsOfGlory {
    let mut g = at_turn(turn);
    if turkey {
        let data = g.data();
        common::setup().enter(data, &mut g.pos, "tu", false, false);
        g.touch();
    }
    pass_round_cp(&mut g);
    common::give(&mut g, Side::Ap, card);
    g
}

/// The spaces a Place frame offers.
fn places(g: &PathsOfGlory) -> Vec<sandtable_core::graph::Space> {
    g.legal_list()
        .iter()
        .map(|a| match a {
            Action::Place { space } => *space,
            other => panic!("only places are offered: {other:?}"),
        })
        .collect()
}

fn removed(g: &mut PathsOfGlory, side: Side, card: u8) {
    common::give(g, side, card);
    let c = &mut g.pos.cards[side_index(side)];
    c.hand.retain(|&n| n != card);
    c.removed.push(card);
}

#[test]
fn the_mef_lands_on_a_beach_with_the_beachhead_marker_ap_31_9_5_3_5() {
    let mut g = allies_at(5, true, 31);
    let mef = common::unit("br-army-mef");
    g.apply(AP, &event(31)).expect("MEF");
    let beaches = places(&g);
    let mef1 = common::sp("mef1");
    // The four beaches, and London for an ordinary reinforcement (9.5.3.4).
    assert_eq!(beaches.len(), 5, "{beaches:?}");
    assert!(beaches.contains(&mef1) && beaches.contains(&common::sp("london")));
    assert_eq!(
        g.pos.space(mef1).control,
        None,
        "a beach is nobody's before the landing"
    );
    g.apply(AP, &Action::Place { space: mef1 }).expect("MEF 1");
    assert_eq!(g.pos.units[mef].loc, Location::Map(mef1));
    assert_eq!(g.pos.beachhead, Some(mef1));
    assert!(g.pos.ordinary_near_east.is_empty(), "landed as its card says");
    assert_eq!(g.pos.space(mef1).control, Some(Side::Ap));
    // 9.5.3.5: the beach is an Allied port for the MEF: it is in supply there.
    let data = g.data();
    let ctx = crate::supply::Context {
        open_beaches: &[mef1],
        ..Default::default()
    };
    assert!(crate::supply::in_supply(
        data,
        &g.pos,
        crate::supply::tracer_of(data, mef),
        mef1,
        &ctx
    ));
    assert!(g.pos.cards[side_index(Side::Ap)].removed.contains(&31));
    assert_eq!(g.pos.war_status[side_index(Side::Ap)], 1, "War Status 1 on AP #31");
    // 9.5.3.1: Britain once a turn: the ANA waits for another turn.
    pass_round(&mut g);
    common::give(&mut g, Side::Cp, 5);
    g.apply(
        CP,
        &Action::Play {
            card: 5,
            with: Use::Ops,
        },
    )
    .expect("OPS");
    g.apply(CP, &Action::EndActivation).expect("nothing");
    common::give(&mut g, Side::Ap, 41);
    let r = g.check_action(AP, &event(41)).expect_err("Britain again");
    assert_eq!(r.rule, "9.5.3.1", "{r:?}");
}

/// A game begun on data edition 2, before 9.5.3.4 was played, with `card` in the Allied hand.
fn allies_at_edition_2(turn: u8, turkey: bool, card: u8) -> PathsOfGlory {
    let mut g = allies_at(turn, turkey, card);
    g.scenario.edition = 2;
    g.touch();
    g
}

#[test]
fn the_mef_lands_only_with_turkey_at_war_and_no_salonika_else_in_london_9_5_2_4_1_9_5_3_4() {
    // As its card says: Turkey at war, Salonika not played (a game of edition 2 has no other way).
    let g = allies_at_edition_2(5, false, 31);
    let r = g.check_action(AP, &event(31)).expect_err("Turkey neutral");
    assert_eq!(r.rule, "AP #31", "{r:?}");
    let mut g = allies_at_edition_2(5, true, 31);
    g.check_action(AP, &event(31)).expect("Turkey at war");
    removed(&mut g, Side::Ap, 30);
    let r = g.check_action(AP, &event(31)).expect_err("after Salonika");
    assert_eq!(r.rule, "9.5.2.4.1", "{r:?}");
    // 9.5.3.4: ignoring the card, the MEF enters London as an ordinary army (2022: after
    // Salonika too).
    let london = common::sp("london");
    for (turkey, salonika) in [(false, false), (true, true)] {
        let mut g = allies_at(5, turkey, 31);
        if salonika {
            removed(&mut g, Side::Ap, 30);
        }
        g.apply(AP, &event(31)).expect("an ordinary reinforcement");
        let mef = common::unit("br-army-mef");
        assert_eq!(
            g.pos.units[mef].loc,
            Location::Map(london),
            "the only space: placed at once"
        );
        assert_eq!(g.pos.ordinary_near_east, vec![mef as u16]);
        assert_eq!(g.pos.beachhead, None, "no Beachhead marker");
        assert_eq!(
            g.pos.war_status[side_index(Side::Ap)],
            1,
            "War Status all the same (2022 9.5.3.4)"
        );
    }
    // 9.5.3.1: never in August 1914.
    let mut g = common::first_round();
    let data = g.data();
    common::setup().enter(data, &mut g.pos, "tu", false, false);
    common::give(&mut g, Side::Cp, 31);
    pass_round_cp(&mut g);
    common::give(&mut g, Side::Ap, 31);
    let r = g.check_action(AP, &event(31)).expect_err("August 1914");
    assert_eq!(r.rule, "9.5.3.1", "{r:?}");
}

#[test]
fn yudenitch_brings_the_caucasus_army_to_russia_on_the_near_east_map_ap_29() {
    let mut g = allies_at(5, true, 29);
    let cau = common::unit("ru-army-cau");
    g.apply(AP, &event(29)).expect("Yudenitch");
    let spaces = places(&g);
    assert!(!spaces.is_empty());
    for &s in &spaces {
        // On the Near East map as the card says; elsewhere a capital or supply source (9.5.3.4).
        let f = g.data().facts(s);
        assert_eq!(f.nation.as_deref(), Some("ru"));
        assert!(
            f.near_east || f.capital || f.supply_source,
            "{}",
            g.data().map.graph.space(s).id
        );
    }
    let tbilisi = common::sp("tbilisi");
    assert!(spaces.contains(&tbilisi), "{spaces:?}");
    assert!(
        !spaces.contains(&common::sp("kiev")),
        "Kiev is not on the Near East map"
    );
    g.apply(AP, &Action::Place { space: tbilisi }).expect("Tbilisi");
    assert_eq!(g.pos.units[cau].loc, Location::Map(tbilisi));
    assert!(g.pos.units[cau].full);
}

#[test]
fn allenby_comes_to_alexandria_only_after_sinai_pipeline_ap_50() {
    let mut g = allies_at_edition_2(12, true, 50);
    let r = g.check_action(AP, &event(50)).expect_err("no Sinai Pipeline");
    assert_eq!(r.rule, "AP #50", "{r:?}");
    removed(&mut g, Side::Ap, 49);
    g.apply(AP, &event(50)).expect("Allenby");
    let ne = common::unit("br-army-ne");
    assert_eq!(g.pos.units[ne].loc, Location::Map(common::sp("alexandria")));
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Cp, .. })));
    // 9.5.3.4: without Sinai Pipeline the Near East Army may still enter London, and with it
    // the player chooses.
    let mut g = allies_at(12, true, 50);
    g.apply(AP, &event(50)).expect("as an ordinary reinforcement");
    assert_eq!(g.pos.units[ne].loc, Location::Map(common::sp("london")));
    let mut g = allies_at(12, true, 50);
    removed(&mut g, Side::Ap, 49);
    g.apply(AP, &event(50)).expect("Allenby");
    assert_eq!(places(&g), {
        let mut v = vec![common::sp("alexandria"), common::sp("london")];
        v.sort();
        v
    });
    g.apply(
        AP,
        &Action::Place {
            space: common::sp("alexandria"),
        },
    )
    .expect("as the card says");
    assert_eq!(g.pos.units[ne].loc, Location::Map(common::sp("alexandria")));
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Cp, .. })));
}

#[test]
fn the_army_of_the_orient_enters_an_allied_salonika_ap_53() {
    let mut g = allies_at_edition_2(12, true, 53);
    let salonika = common::sp("salonika");
    let r = g.check_action(AP, &event(53)).expect_err("Greece neutral");
    assert_eq!(r.rule, "AP #53", "{r:?}");
    g.pos.spaces[salonika.idx()].control = Some(Side::Ap);
    g.touch();
    g.apply(AP, &event(53)).expect("Army of the Orient");
    let orient = common::unit("fr-army-orient");
    assert_eq!(g.pos.units[orient].loc, Location::Map(salonika));
}

#[test]
fn the_arab_northern_army_enters_arabia_once_turkey_is_at_war_ap_41() {
    let g = allies_at(12, false, 41);
    let r = g.check_action(AP, &event(41)).expect_err("Turkey neutral");
    assert_eq!(r.rule, "AP #41", "{r:?}");
    let mut g = allies_at(12, true, 41);
    g.apply(AP, &event(41)).expect("ANA");
    let ana = common::unit("ana-corps");
    assert_eq!(g.pos.units[ana].loc, Location::Map(common::sp("arabia")));
}

#[test]
fn the_senussi_enter_libya_unless_allied_units_are_there_cp_24() {
    let mut g = at_turn(12);
    let data = g.data();
    common::setup().enter(data, &mut g.pos, "tu", false, false);
    let libya = common::sp("libya");
    let br = common::unit("br-corps-1");
    let before = g.pos.units[br];
    g.pos.units[br] = crate::state::Unit {
        loc: Location::Map(libya),
        full: true,
    };
    g.touch();
    common::give(&mut g, Side::Cp, 24);
    let r = g.check_action(CP, &event(24)).expect_err("an Allied corps in Libya");
    assert_eq!(r.rule, "CP #24", "{r:?}");
    g.pos.units[br] = before;
    g.touch();
    g.apply(CP, &event(24)).expect("Libyan Revolt");
    let sn = common::unit("sn-corps");
    assert_eq!(g.pos.units[sn].loc, Location::Map(libya));
    assert_eq!(g.pos.space(libya).control, Some(Side::Cp));
}

// ---- Race to the Sea (CP #8) ----

#[test]
fn race_to_the_sea_opens_the_channel_ports_to_cp_moves_cp_8() {
    let mut g = common::first_round();
    let (brussels, ostend) = (common::sp("brussels"), common::sp("ostend"));
    let bef = common::unit("br-army-bef");
    g.pos.units[bef].loc = Location::Map(common::sp("calais"));
    let corps = common::unit("ge-corps-1");
    g.pos.units[corps] = crate::state::Unit {
        loc: Location::Map(brussels),
        full: true,
    };
    g.pos.spaces[brussels.idx()].control = Some(Side::Cp);
    // Liege taken, so that Brussels traces its supply through it.
    let liege = common::sp("liege");
    g.pos.spaces[liege.idx()].control = Some(Side::Cp);
    g.pos.spaces[liege.idx()].fort = Fort::Destroyed;
    g.touch();
    let corps = corps as u16;
    let activate_and_check = |g: &mut PathsOfGlory| {
        common::give(g, Side::Cp, 5);
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
                space: brussels,
                combat: false,
            },
        )
        .expect("activate Brussels");
        if matches!(g.frames().last(), Some(Frame::Activation { .. })) {
            g.apply(CP, &Action::EndActivation).expect("done");
        }
        g.check_action(
            CP,
            &Action::Move {
                from: brussels,
                units: vec![corps],
                to: ostend,
            },
        )
    };
    let r = activate_and_check(&mut g).expect_err("the ports closed");
    assert_eq!(r.rule, "11.1.9", "{r:?}");
    // The same round with Race to the Sea played first, in round 1.
    let mut g2 = common::first_round();
    g2.pos.units = g.pos.units.clone();
    g2.pos.spaces = g.pos.spaces.clone();
    g2.touch();
    common::give(&mut g2, Side::Cp, 8);
    g2.apply(CP, &event(8)).expect("Race to the Sea");
    assert!(g2.pos.cards[side_index(Side::Cp)].removed.contains(&8));
    g2.apply(AP, &Action::AutomaticOps).expect("auto ops");
    g2.apply(AP, &Action::EndActivation).expect("nothing");
    activate_and_check(&mut g2).expect("the ports open");
}

// ---- Salonika (AP #30) ----

#[test]
fn salonika_sets_up_greece_and_redeploys_up_to_three_corps_ap_30() {
    let mut g = allies_at(5, false, 30);
    let salonika = common::sp("salonika");
    assert_eq!(g.pos.space(salonika).control, None, "neutral Greece");
    g.apply(AP, &event(30)).expect("Salonika");
    // 9.5.2.4: the Greek corps are set up, Greece stays neutral; Salonika is open to the Allies.
    assert_eq!(
        g.pos.units[common::unit("gr-corps-1")].loc,
        Location::Map(common::sp("florina"))
    );
    assert!(g.pos.neutral.iter().any(|n| n == "gr"));
    assert_eq!(g.pos.space(salonika).control, Some(Side::Ap));
    // 2022 9.3.3: an SR play.
    assert_eq!(g.turn.last_sr[side_index(Side::Ap)], 1);
    let offered: Vec<u16> = g
        .legal_list()
        .iter()
        .filter_map(|a| match a {
            Action::Redeploy { unit } => Some(*unit),
            _ => None,
        })
        .collect();
    assert!(!offered.is_empty());
    for &u in &offered {
        let p = &g.data().pieces[u as usize];
        assert_eq!(p.kind, crate::data::Kind::Corps, "{}", p.id);
        assert!(
            matches!(p.nation, crate::data::Nation::Br | crate::data::Nation::Fr),
            "{}",
            p.id
        );
    }
    let ru = common::unit("ru-corps-1") as u16;
    let r = g
        .check_action(AP, &Action::Redeploy { unit: ru })
        .expect_err("a Russian corps");
    assert_eq!(r.rule, "AP #30", "{r:?}");
    let in_reserve: Vec<u16> = offered
        .iter()
        .copied()
        .filter(|&u| g.pos.units[u as usize].loc == Location::Reserve)
        .collect();
    assert!(!in_reserve.is_empty(), "a corps from the Reserve Box");
    let first = in_reserve[0];
    g.apply(AP, &Action::Redeploy { unit: first }).expect("to Salonika");
    assert_eq!(g.pos.units[first as usize].loc, Location::Map(salonika));
    assert!(matches!(g.frames().last(), Some(Frame::EventRedeploy { left: 2, .. })));
    g.apply(AP, &Action::EndRedeployment).expect("enough");
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Cp, .. })));
    assert!(g.pos.cards[side_index(Side::Ap)].removed.contains(&30));
}

#[test]
fn salonika_is_an_sr_play_9_3_3() {
    let mut g = allies_at(5, false, 30);
    common::give(&mut g, Side::Ap, 5);
    g.apply(AP, &Action::Play { card: 5, with: Use::Sr }).expect("SR");
    g.apply(AP, &Action::EndRedeployment).expect("nothing");
    pass_round_cp(&mut g);
    let r = g.check_action(AP, &event(30)).expect_err("the round after an SR play");
    assert_eq!(r.rule, "9.3.3", "{r:?}");
}

// ---- Landwehr (CP #5) ----

#[test]
fn landwehr_flips_reduced_units_with_two_points_at_once_cp_5() {
    use crate::game::Buy;
    let mut g = at_turn(2);
    common::give(&mut g, Side::Cp, 5);
    let army7 = common::unit("ge-army-7");
    let (c1, c3) = (common::unit("ge-corps-1"), common::unit("ge-corps-3"));
    assert!(!g.pos.units[army7].full && !g.pos.units[c1].full && !g.pos.units[c3].full);
    g.apply(CP, &event(5)).expect("Landwehr");
    assert!(matches!(g.frames().last(), Some(Frame::EventReplace { points: 2, .. })));
    // Only flips: an eliminated corps is not rebuilt.
    let elim = common::unit("ge-corps-4");
    g.pos.units[elim].loc = Location::Eliminated;
    g.touch();
    let r = g
        .check_action(
            CP,
            &Action::Buy {
                purchase: Buy::CorpsFull(elim as u16),
            },
        )
        .expect_err("an eliminated corps");
    assert_eq!(r.rule, "CP #5", "{r:?}");
    let flip = Action::Buy {
        purchase: Buy::FlipArmy(army7 as u16),
    };
    assert!(g.legal_list().contains(&flip));
    g.apply(CP, &flip).expect("the 7th Army");
    assert!(g.pos.units[army7].full);
    assert!(matches!(g.frames().last(), Some(Frame::EventReplace { points: 1, .. })));
    g.apply(
        CP,
        &Action::Buy {
            purchase: Buy::FlipCorps(c1 as u16, Some(c3 as u16)),
        },
    )
    .expect("two corps");
    assert!(g.pos.units[c1].full && g.pos.units[c3].full);
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })));
    assert!(g.pos.cards[side_index(Side::Cp)].removed.contains(&5));
}

// ---- Paris Taxis (AP #56, optional) ----

#[test]
fn paris_taxis_flip_a_french_army_by_paris_ap_56() {
    use crate::game::Buy;
    let mut g = allies_at(2, false, 56);
    let (sixth, fifth) = (common::unit("fr-army-6"), common::unit("fr-army-5"));
    assert!(!g.pos.units[sixth].full, "the 6th Army starts reduced in Paris");
    g.pos.units[fifth].full = false;
    g.touch();
    g.apply(AP, &event(56)).expect("Paris Taxis");
    let r = g
        .check_action(
            AP,
            &Action::Buy {
                purchase: Buy::FlipArmy(fifth as u16),
            },
        )
        .expect_err("Sedan is not next to Paris");
    assert_eq!(r.rule, "AP #56", "{r:?}");
    g.apply(
        AP,
        &Action::Buy {
            purchase: Buy::FlipArmy(sixth as u16),
        },
    )
    .expect("the 6th Army");
    assert!(g.pos.units[sixth].full);
    assert!(!g.pos.units[fifth].full);
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Cp, .. })));
}

// ---- War in Africa (CP #32) ----

#[test]
fn war_in_africa_costs_the_allies_a_british_corps_or_a_vp_cp_32() {
    for give_vp in [false, true] {
        let mut g = at_turn(5);
        common::give(&mut g, Side::Cp, 32);
        let vp = g.pos.vp;
        g.apply(CP, &event(32)).expect("War in Africa");
        assert!(matches!(
            g.frames().last(),
            Some(Frame::EventConcede { side: Side::Ap, .. })
        ));
        assert_eq!(g.pending(), Pending::Seat(AP), "the Allies choose");
        let legal = g.legal_list();
        assert!(legal.contains(&Action::Concede { unit: None }));
        let french = common::unit("fr-corps-1") as u16;
        let r = g
            .check_action(AP, &Action::Concede { unit: Some(french) })
            .expect_err("a French corps");
        assert_eq!(r.rule, "CP #32", "{r:?}");
        if give_vp {
            g.apply(AP, &Action::Concede { unit: None }).expect("the VP");
            assert_eq!(g.pos.vp, vp + 1);
        } else {
            let corps = legal
                .iter()
                .find_map(|a| match a {
                    Action::Concede { unit: Some(u) } => Some(*u),
                    _ => None,
                })
                .expect("a British corps in play");
            assert_eq!(g.data().pieces[corps as usize].nation, crate::data::Nation::Br);
            g.apply(AP, &Action::Concede { unit: Some(corps) }).expect("the corps");
            assert_eq!(g.pos.units[corps as usize].loc, Location::Removed);
            assert_eq!(g.pos.vp, vp);
        }
        assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })));
    }
}

// ---- Russian Cavalry (AP #57), Czech Legion (AP #60), Polish Restoration (CP #59) ----

#[test]
fn the_russian_cavalry_enter_together_by_a_russian_army_ap_57() {
    let mut g = allies_at(2, false, 57);
    g.apply(AP, &event(57)).expect("Russian Cavalry");
    let spaces = places(&g);
    assert!(!spaces.is_empty());
    for &s in &spaces {
        assert_eq!(g.data().facts(s).nation.as_deref(), Some("ru"));
        assert!(g.pos.units_in(s).count() <= 1, "room for both");
    }
    let at = spaces[0];
    g.apply(AP, &Action::Place { space: at }).expect("the cavalry");
    for id in ["ru-cavalry-1", "ru-cavalry-2"] {
        assert_eq!(g.pos.units[common::unit(id)].loc, Location::Map(at), "{id}");
    }
    // Once in play, the card is no longer an event.
    let mut g2 = allies_at(2, false, 57);
    g2.pos.units = g.pos.units.clone();
    g2.touch();
    let r = g2.check_action(AP, &event(57)).expect_err("in play");
    assert_eq!(r.rule, "AP #57", "{r:?}");
}

#[test]
fn the_czech_legion_needs_an_eliminated_austro_hungarian_corps_ap_60() {
    let mut g = allies_at(5, false, 60);
    // Before edition 7 (since then the Legion enters anyway: src/tests/edition7.rs).
    g.scenario.edition = 6;
    let r = g.check_action(AP, &event(60)).expect_err("none eliminated");
    assert_eq!(r.rule, "AP #60", "{r:?}");
    let ah = common::unit("ah-corps-1");
    g.pos.units[ah].loc = Location::Eliminated;
    g.touch();
    g.apply(AP, &event(60)).expect("Czech Legion");
    assert_eq!(g.pos.units[ah].loc, Location::Removed);
    assert_eq!(g.pos.units[common::unit("ru-czech-legion")].loc, Location::Reserve);
}

#[test]
fn polish_restoration_needs_warsaw_cp_59() {
    let mut g = at_turn(5);
    common::give(&mut g, Side::Cp, 59);
    let r = g.check_action(CP, &event(59)).expect_err("Warsaw Russian");
    assert_eq!(r.rule, "CP #59", "{r:?}");
    let warsaw = common::sp("warsaw");
    g.pos.spaces[warsaw.idx()].control = Some(Side::Cp);
    g.touch();
    let vp = g.pos.vp;
    g.apply(CP, &event(59)).expect("Polish Restoration");
    assert_eq!(g.pos.vp, vp - 1);
    for id in ["ge-polish-1", "ge-polish-2", "ge-polish-3"] {
        assert_eq!(g.pos.units[common::unit(id)].loc, Location::Reserve, "{id}");
    }
}

#[test]
fn the_mef_supplied_from_its_beachhead_costs_three_to_activate_9_2_7_1() {
    let mut g = allies_at(5, true, 31);
    g.apply(AP, &event(31)).expect("MEF");
    let mef1 = common::sp("mef1");
    g.apply(AP, &Action::Place { space: mef1 }).expect("MEF 1");
    // A British corps lands with it: 3 + 1 = 4 OPS (the book's example is 5 for two corps).
    let br = common::unit("br-corps-1");
    g.pos.units[br] = crate::state::Unit {
        loc: Location::Map(mef1),
        full: true,
    };
    g.touch();
    pass_round(&mut g);
    // Round 2: the CP passes; the Allies have 3 OPS, one short.
    pass_round_cp(&mut g);
    common::give(&mut g, Side::Ap, 12);
    g.apply(
        AP,
        &Action::Play {
            card: 12,
            with: Use::Ops,
        },
    )
    .expect("3 OPS");
    let r = g
        .check_action(
            AP,
            &Action::Activate {
                space: mef1,
                combat: false,
            },
        )
        .expect_err("4 OPS");
    assert_eq!(r.rule, "9.2.3", "{r:?}");
    assert!(r.message(sandtable_core::text::Lang::En).contains("costs 4"), "{r:?}");
}

#[test]
fn the_polish_corps_are_not_replaced_while_warsaw_is_allied_cp_59() {
    use crate::replacements::{check, Purchase};
    let mut g = at_turn(5);
    let warsaw = common::sp("warsaw");
    let pol = common::unit("ge-polish-1");
    g.pos.units[pol].loc = Location::Eliminated;
    let ctx = crate::placement::Context::default();
    assert_eq!(g.pos.space(warsaw).control, Some(Side::Ap));
    let r = check(g.data(), g.tables(), &g.pos, 5, Purchase::CorpsFull(pol), &ctx).expect_err("Warsaw Allied");
    assert_eq!(r.rule, "CP #59", "{r:?}");
    g.pos.spaces[warsaw.idx()].control = Some(Side::Cp);
    check(g.data(), g.tables(), &g.pos, 5, Purchase::CorpsFull(pol), &ctx).expect("Warsaw the CP's");
}

/// 9.5.3.4: a Near East army that entered as an ordinary reinforcement has lost its Near East
/// abilities: like any other army it may not go on the Near East map (11.3.1).
#[test]
fn an_ordinary_mef_in_london_may_not_redeploy_or_move_to_the_near_east_9_5_3_4() {
    let mut g = allies_at(5, true, 31);
    g.apply(AP, &event(31)).expect("MEF");
    g.apply(
        AP,
        &Action::Place {
            space: common::sp("london"),
        },
    )
    .expect("London");
    let mef = common::unit("br-army-mef");
    let data = g.data();
    assert!(!g.pos.may_enter_near_east(data, mef));
    let printed = allies_at(5, true, 31);
    assert!(printed.pos.may_enter_near_east(data, mef), "as printed it may");
    assert!(g.pos.may_enter_near_east(data, common::unit("br-army-ne")));
    // From Balikesir (the Allies', in this position) its move may not enter Bursa, on the
    // Near East map, though the printed MEF's could.
    let (balikesir, bursa) = (common::sp("balikesir"), common::sp("bursa"));
    let mut pos = g.pos.clone();
    for s in [balikesir, bursa] {
        pos.spaces[s.idx()].control = Some(Side::Ap);
        for u in 0..pos.units.len() {
            if pos.units[u].loc == Location::Map(s) {
                pos.units[u].loc = Location::Aside;
            }
        }
    }
    pos.units[mef].loc = Location::Map(balikesir);
    let ctx = crate::movement::Context::default();
    let reach = |pos: &crate::state::Position| -> Vec<sandtable_core::graph::Space> {
        crate::movement::destinations(data, pos, &[mef], balikesir, &ctx)
            .into_iter()
            .map(|(s, _)| s)
            .collect()
    };
    let mut printed_pos = pos.clone();
    printed_pos.ordinary_near_east.clear();
    assert!(reach(&printed_pos).contains(&bursa), "the printed MEF goes to Bursa");
    assert!(!reach(&pos).contains(&bursa), "{:?}", reach(&pos));
}

#[test]
fn the_army_of_the_orient_enters_paris_when_salonika_is_not_allied_9_5_3_4() {
    let mut g = allies_at(12, true, 53);
    g.apply(AP, &event(53)).expect("as an ordinary reinforcement");
    let orient = common::unit("fr-army-orient");
    let at = match g.pos.units[orient].loc {
        Location::Map(s) => s,
        other => {
            let offered = places(&g);
            assert!(offered.contains(&common::sp("paris")), "{offered:?}");
            g.apply(
                AP,
                &Action::Place {
                    space: common::sp("paris"),
                },
            )
            .expect("Paris");
            assert!(matches!(other, Location::Aside));
            common::sp("paris")
        }
    };
    let f = g.data().facts(at);
    assert_eq!(f.nation.as_deref(), Some("fr"));
    assert!(f.capital || f.supply_source);
    assert!(g.pos.ordinary_near_east.contains(&(orient as u16)));
}

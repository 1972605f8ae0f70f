//! What the game keeps between decisions or works out once for a whole list, on positions built
//! on the real map that reach the cases random campaigns do not: each compared with the rule's
//! own answer (the check asked of each action, a search made afresh).

use super::common;

use crate::game::{Action, Frame, PathsOfGlory, Use, AP, CP};
use crate::state::Location;
use crate::supply::{self, tracer_of, Context, Kept};
use crate::Side;
use sandtable_core::game::Game;

/// The Allies to act in their first action round of August 1914 (the CP's Automatic Operation
/// done), Turkey at war.
fn allies_to_act() -> PathsOfGlory {
    let mut g = common::first_round();
    g.apply(CP, &Action::AutomaticOps).unwrap();
    g.apply(CP, &Action::EndActivation).unwrap();
    g.pos.neutral.retain(|n| n != "tu");
    g.touch();
    g
}

/// Every activation of the map, for movement and for combat, is in the list made once a space
/// exactly when the check asked of it alone accepts it; returns how many it accepts.
fn activations_agree(g: &PathsOfGlory) -> usize {
    let legal = g.legal_list();
    let mut accepted = 0;
    for s in g.data().map.graph.space_indices() {
        for combat in [false, true] {
            let a = Action::Activate { space: s, combat };
            let ok = g.check_action(AP, &a).is_ok();
            assert_eq!(
                legal.contains(&a),
                ok,
                "{} for {}: the check says {:?}",
                g.data().map.graph.space(s).id,
                if combat { "combat" } else { "movement" },
                g.check_action(AP, &a)
            );
            accepted += ok as usize;
        }
    }
    accepted
}

/// 9.2.3, 16.4.5: after the Fall of the Tsar a combat activation pays one OPS per Russian unit,
/// movement one for the nationality. With two Russian corps in a space and 1 OPS (an Automatic
/// Operation, 8.1.3) the space may be activated for movement, not for combat; the list made
/// once a space (its two costs read together) says what the check says, space by space.
#[test]
fn after_the_fall_of_the_tsar_the_once_a_space_list_prices_combat_by_russian_units_9_2_3() {
    let mut g = allies_to_act();
    // The Fall of the Tsar played by the CP (16.4.5: it stays out of the deck).
    common::give(&mut g, Side::Cp, 52);
    let c = &mut g.pos.cards[0];
    c.hand.retain(|&n| n != 52);
    c.removed.push(52);
    let warsaw = common::sp("warsaw");
    for u in common::in_reserve(&g, "ru-corps", 2) {
        g.pos.units[u as usize].loc = Location::Map(warsaw);
    }
    g.touch();
    g.apply(AP, &Action::AutomaticOps).unwrap();
    assert!(matches!(g.frames().last(), Some(Frame::Activation { ops: 1, .. })));
    let by_move = Action::Activate {
        space: warsaw,
        combat: false,
    };
    let by_combat = Action::Activate {
        space: warsaw,
        combat: true,
    };
    assert!(g.check_action(AP, &by_move).is_ok());
    let r = g
        .check_action(AP, &by_combat)
        .expect_err("two Russian units cost 2 OPS for combat");
    assert_eq!(r.rule, "9.2.3");
    assert!(activations_agree(&g) > 10);
    assert!(!g.legal_list().contains(&by_combat));
}

/// 2022 15.2.5: in a Summer turn no combat into or out of a desert space. A British corps in
/// the Sinai facing a Turkish one in Gaza in Summer 1915 (turn 6) may be activated for movement
/// only; the list made once a space says what the check says, space by space.
#[test]
fn in_summer_the_once_a_space_list_keeps_desert_spaces_out_of_combat_2022_15_2_5() {
    let mut g = allies_to_act();
    let (sinai, gaza) = (common::sp("sinai"), common::sp("gaza"));
    let br = common::in_reserve(&g, "br-corps", 1)[0] as usize;
    g.pos.units[br].loc = Location::Map(sinai);
    g.pos.units[common::unit("tu-corps-1")].loc = Location::Map(gaza);
    g.pos.spaces[sinai.idx()].control = Some(Side::Ap);
    g.pos.spaces[gaza.idx()].control = Some(Side::Cp);
    g.pos.turn = 6;
    g.touch();
    g.apply(AP, &Action::AutomaticOps).unwrap();
    let r = g
        .check_action(
            AP,
            &Action::Activate {
                space: sinai,
                combat: true,
            },
        )
        .expect_err("summer");
    assert_eq!(r.rule, "2022 15.2.5");
    assert!(activations_agree(&g) > 10);
    assert!(g.legal_list().contains(&Action::Activate {
        space: sinai,
        combat: false
    }));
}

/// 11.3.1, 13.1: only the Near East armies go into the Near East. The British 1st Army and the
/// Near East Army in Cairo, their only ways out overland into the Near East: the NE Army may
/// redeploy, the 1st Army may not. The list that asks once for each class of unit keeps them
/// apart and says what the check says of every counter.
#[test]
fn the_redeployment_list_tells_a_near_east_army_from_another_11_3_1_13_1() {
    let mut g = allies_to_act();
    let cairo = common::sp("cairo");
    let (first, ne) = (common::unit("br-army-1"), common::unit("br-army-ne"));
    for u in [first, ne] {
        g.pos.units[u].loc = Location::Map(cairo);
    }
    g.touch();
    // Blockade (AP #2) for Strategic Redeployment.
    common::give(&mut g, Side::Ap, 2);
    g.apply(AP, &Action::Play { card: 2, with: Use::Sr }).unwrap();
    assert!(matches!(g.frames().last(), Some(Frame::Redeployment { .. })));
    assert!(g.check_action(AP, &Action::Redeploy { unit: ne as u16 }).is_ok());
    let r = g
        .check_action(AP, &Action::Redeploy { unit: first as u16 })
        .expect_err("the 1st Army has nowhere to go");
    assert_eq!(r.rule, "13.1");
    let legal = g.legal_list();
    let mut accepted = 0;
    for u in 0..g.data().pieces.len() {
        let a = Action::Redeploy { unit: u as u16 };
        let ok = g.check_action(AP, &a).is_ok();
        assert_eq!(legal.contains(&a), ok, "{}", g.data().pieces[u].id);
        accepted += ok as usize;
    }
    assert!(accepted > 10, "{accepted}");
}

/// 14.1.2, 14.2: supply is not traced through a space with enemy units. The Austro-Hungarian
/// corps in Timisvar in August 1914 traces its supply through Szeged only; a British corps put
/// in Szeged (its control unchanged, the CP's) cuts it. The kept floods, asked before and
/// after and once it has gone, say what a search made afresh says each time: the enemy's move drops the CP's floods
/// though no space changed control or fort.
#[test]
fn an_enemy_unit_that_cuts_a_line_drops_the_kept_floods_14_1_2() {
    let data = common::data();
    let mut pos = common::start();
    let (timisvar, szeged) = (common::sp("timisvar"), common::sp("szeged"));
    let ah = common::unit("ah-corps-4");
    assert_eq!(pos.units[ah].loc, Location::Map(timisvar));
    let kept = Kept::default();
    let with_kept = Context {
        kept: Some(&kept),
        ..Context::default()
    };
    let fresh = Context {
        kept: None,
        ..with_kept
    };
    let t = tracer_of(data, ah);
    assert!(supply::traced(data, &pos, t, timisvar, &fresh));
    assert!(supply::in_supply(data, &pos, t, timisvar, &with_kept));
    let control = pos.spaces[szeged.idx()].control;
    let br = (0..data.pieces.len())
        .find(|&u| data.pieces[u].id.starts_with("br-corps") && pos.units[u].loc == Location::Reserve)
        .expect("a British corps in reserve");
    pos.units[br].loc = Location::Map(szeged);
    assert_eq!(pos.spaces[szeged.idx()].control, control);
    assert!(
        !supply::traced(data, &pos, t, timisvar, &fresh),
        "Szeged held by the enemy"
    );
    assert!(
        !supply::in_supply(data, &pos, t, timisvar, &with_kept),
        "the kept flood"
    );
    // The British corps gone again to the Reserve Box: supplied again, kept as afresh.
    pos.units[br].loc = Location::Reserve;
    assert!(supply::traced(data, &pos, t, timisvar, &fresh));
    assert!(supply::in_supply(data, &pos, t, timisvar, &with_kept));
}

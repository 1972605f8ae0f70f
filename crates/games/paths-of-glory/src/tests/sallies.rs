//! 15.2.3: units besieging an enemy fort may attack another space only with the units beyond
//! what the siege needs (an army, or as many corps as the fort's LF, 15.2.1). On the August 1914
//! map: German armies besieging Liege's fort attack the French 5th Army in Sedan.

use super::common;

use crate::game::{Action, PathsOfGlory, CP};
use crate::state::{Fort, Location};
use crate::Side;
use sandtable_core::game::Game;

fn unit(g: &PathsOfGlory, id: &str) -> u16 {
    g.data().pieces.iter().position(|p| p.id == id).expect("a counter") as u16
}

/// The German armies named besiege Liege (its fort standing, the space the Allies'); Liege is
/// activated for combat with the Automatic Operation and Sedan targeted.
fn besieging_liege(armies: &[&str]) -> PathsOfGlory {
    let mut g = common::first_round();
    let liege = common::sp("liege");
    for id in armies {
        let u = unit(&g, id) as usize;
        g.pos.units[u].loc = Location::Map(liege);
        g.pos.units[u].full = true;
    }
    g.pos.spaces[liege.idx()].fort = Fort::Besieged;
    g.pos.spaces[liege.idx()].control = Some(Side::Ap);
    g.touch();
    g.apply(CP, &Action::AutomaticOps).unwrap();
    g.apply(
        CP,
        &Action::Activate {
            space: liege,
            combat: true,
        },
    )
    .unwrap();
    g
}

#[test]
fn of_two_armies_besieging_liege_one_may_attack_sedan_15_2_3() {
    let mut g = besieging_liege(&["ge-army-1", "ge-army-2"]);
    g.apply(
        CP,
        &Action::Target {
            space: common::sp("sedan"),
        },
    )
    .expect("one army is beyond the siege's need");
    g.apply(
        CP,
        &Action::Join {
            unit: unit(&g, "ge-army-1"),
        },
    )
    .expect("the 2nd Army keeps the siege");
    let r = g
        .check_action(
            CP,
            &Action::Join {
                unit: unit(&g, "ge-army-2"),
            },
        )
        .expect_err("the siege needs the last army");
    assert_eq!(r.rule, "15.2.3");
    assert!(!g.legal_list().contains(&Action::Join {
        unit: unit(&g, "ge-army-2")
    }));
    g.apply(CP, &Action::Resolve).expect("the 1st Army attacks");
    assert_eq!(g.action.sallied, vec![unit(&g, "ge-army-1")]);
}

#[test]
fn a_lone_army_besieging_liege_may_not_attack_sedan_but_may_attack_the_fort_15_2_3() {
    let g = besieging_liege(&["ge-army-1"]);
    let r = g
        .check_action(
            CP,
            &Action::Target {
                space: common::sp("sedan"),
            },
        )
        .expect_err("the siege needs the army");
    assert_eq!(r.rule, "15.2.3");
    assert!(r.text.en.contains("needed for their siege"), "{}", r.text.en);
    // 15.2.3: every unit in the space may attack the fort itself.
    g.check_action(
        CP,
        &Action::Target {
            space: common::sp("liege"),
        },
    )
    .expect("the besieged fort");
}

#[test]
fn a_game_begun_before_edition_3_lets_the_whole_siege_attack_elsewhere() {
    let mut g = besieging_liege(&["ge-army-1"]);
    g.scenario.edition = 2;
    g.touch();
    g.apply(
        CP,
        &Action::Target {
            space: common::sp("sedan"),
        },
    )
    .expect("as it was played");
    g.apply(
        CP,
        &Action::Join {
            unit: unit(&g, "ge-army-1"),
        },
    )
    .unwrap();
}

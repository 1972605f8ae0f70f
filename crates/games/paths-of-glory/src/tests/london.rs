//! 12.1.10: units in London attack only together with friendly units attacking from Belgium or
//! France, on the real map: a German corps in Calais, a British corps in London, a British corps
//! (or a French one) in Amiens.

use super::common;

use crate::game::{Action, PathsOfGlory, AP, CP};
use crate::state::Location;
use crate::Side;
use sandtable_core::game::Game;

/// The Allies' first action against a German corps in Calais, London and Amiens activated: a
/// British corps in London, a corps of `amiens` (a counter id prefix) in Amiens. Returns the
/// London and the Amiens corps.
fn against_calais(amiens: &str) -> (PathsOfGlory, usize, usize) {
    let (g, u) = common::allies_against_calais(3, &[("br-corps", "london"), (amiens, "amiens")], &["london", "amiens"]);
    (g, u[0] as usize, u[1] as usize)
}

#[test]
fn london_attacks_only_with_units_from_belgium_or_france_12_1_10() {
    let (mut g, london, amiens) = against_calais("br-corps");
    // The British corps of London joins only once the British from Amiens have.
    let r = g
        .check_action(AP, &Action::Join { unit: london as u16 })
        .expect_err("London alone");
    assert_eq!(r.rule, "12.1.10");
    g.apply(AP, &Action::Join { unit: amiens as u16 })
        .expect("the corps of Amiens joins");
    g.apply(AP, &Action::Join { unit: london as u16 })
        .expect("then the corps of London");
    g.apply(AP, &Action::Resolve).expect("with the British from Amiens");
}

#[test]
fn french_from_amiens_do_not_bring_in_london_s_british_12_1_10_12_1_9_1() {
    // 12.1.10 is met, but the two nationalities have no space in common (12.1.9.1).
    let (mut g, london, amiens) = against_calais("fr-corps");
    g.apply(AP, &Action::Join { unit: amiens as u16 })
        .expect("the French corps");
    let r = g
        .check_action(AP, &Action::Join { unit: london as u16 })
        .expect_err("a multinational attack from two spaces");
    assert_eq!(r.rule, "12.1.9.1");
}

#[test]
fn london_alone_may_not_attack_12_1_10() {
    let mut g = common::first_round();
    g.apply(CP, &Action::AutomaticOps).unwrap();
    g.apply(CP, &Action::EndActivation).unwrap();
    let sp = |id: &str| common::sp(id);
    let data = g.data();
    let br = (0..data.pieces.len())
        .find(|&u| data.pieces[u].id.starts_with("br-corps") && g.pos.units[u].loc == Location::Reserve)
        .unwrap();
    let ge = (0..data.pieces.len())
        .find(|&u| data.pieces[u].id.starts_with("ge-corps") && g.pos.units[u].loc == Location::Reserve)
        .unwrap();
    g.pos.units[br].loc = Location::Map(sp("london"));
    g.pos.units[ge].loc = Location::Map(sp("calais"));
    g.pos.spaces[sp("calais").idx()].control = Some(Side::Cp);
    g.touch();
    g.apply(AP, &Action::AutomaticOps).unwrap();
    g.apply(
        AP,
        &Action::Activate {
            space: sp("london"),
            combat: true,
        },
    )
    .expect("London");
    let r = g
        .check_action(AP, &Action::Target { space: sp("calais") })
        .expect_err("only London's units could attack");
    assert_eq!(r.rule, "12.1.10");
}

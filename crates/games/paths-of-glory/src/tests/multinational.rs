//! 12.1.9, 12.1.9.1: units of several nationalities attack together only when one attacking
//! space holds attackers of every nationality; other spaces add units of those nationalities. On
//! the real map: a German corps in Calais, attacked from Amiens and Ostend.

use super::common;

use crate::game::{Action, PathsOfGlory, AP};
use sandtable_core::game::Game;

/// The Allies' first action against a German corps in Calais: a French corps (and, if `both`, a
/// British corps) in Amiens, a British corps in Ostend, both activated. Returns the game, the
/// French corps, the British corps of Ostend and that of Amiens.
fn against_calais(edition: u8, both: bool) -> (PathsOfGlory, u16, u16, Option<u16>) {
    let mut place = vec![("fr-corps", "amiens"), ("br-corps", "ostend")];
    if both {
        place.push(("br-corps", "amiens"));
    }
    let (g, u) = common::allies_against_calais(edition, &place, &["amiens", "ostend"]);
    (g, u[0], u[1], u.get(2).copied())
}

#[test]
fn french_from_amiens_and_british_from_ostend_do_not_attack_together_12_1_9_1() {
    let (mut g, fr, br_ostend, _) = against_calais(3, false);
    g.apply(AP, &Action::Join { unit: fr }).expect("the French corps");
    let r = g
        .check_action(AP, &Action::Join { unit: br_ostend })
        .expect_err("no space holds both nationalities");
    assert_eq!(r.rule, "12.1.9.1");
    assert!(!g.legal_list().contains(&Action::Join { unit: br_ostend }));
    g.apply(AP, &Action::Resolve).expect("the French alone attack");
}

#[test]
fn with_both_nationalities_in_amiens_the_british_of_ostend_add_to_the_attack_12_1_9_1() {
    let (mut g, fr, br_ostend, br_amiens) = against_calais(3, true);
    let br_amiens = br_amiens.expect("a British corps in Amiens");
    // The British of Ostend first: the French may not join until the British of Amiens have.
    g.apply(AP, &Action::Join { unit: br_ostend }).expect("British alone");
    let r = g
        .check_action(AP, &Action::Join { unit: fr })
        .expect_err("French from Amiens beside British from Ostend only");
    assert_eq!(r.rule, "12.1.9.1");
    g.apply(AP, &Action::Join { unit: br_amiens })
        .expect("British of Amiens");
    g.apply(AP, &Action::Join { unit: fr }).expect("now Amiens holds both");
    g.apply(AP, &Action::Resolve).expect("a multinational attack");
    let b = g.action.battle.as_ref().expect("the combat");
    assert_eq!(b.attackers.len(), 3);
}

#[test]
fn a_game_begun_before_edition_3_keeps_its_multinational_attacks() {
    let (mut g, fr, br_ostend, _) = against_calais(2, false);
    g.apply(AP, &Action::Join { unit: fr }).unwrap();
    g.apply(AP, &Action::Join { unit: br_ostend })
        .expect("edition 2 replays as it was played");
}

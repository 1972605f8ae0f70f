//! 12.1.9, 12.1.9.1: units of several nationalities attack together only when one attacking
//! space holds attackers of every nationality; other spaces add units of those nationalities. On
//! the real map: a German corps in Calais, attacked from Amiens and Ostend.

mod common;

use sandtable_core::game::Game;
use sandtable_paths_of_glory::game::{Action, PathsOfGlory, Use, AP, CP};
use sandtable_paths_of_glory::state::Location;
use sandtable_paths_of_glory::Side;

/// Counters of the Reserve Box whose ids start so, in order.
fn in_reserve(g: &PathsOfGlory, prefix: &str, n: usize) -> Vec<u16> {
    let data = g.data();
    let found: Vec<u16> = (0..data.pieces.len())
        .filter(|&u| data.pieces[u].id.starts_with(prefix) && g.pos.units[u].loc == Location::Reserve)
        .map(|u| u as u16)
        .take(n)
        .collect();
    assert_eq!(found.len(), n, "{n} {prefix} in reserve");
    found
}

/// The Allies' action of round 1: a German corps in Calais; a French corps (and, if `both`, a
/// British corps) in Amiens, a British corps in Ostend; both spaces activated for combat and
/// Calais targeted. Returns the game, the French corps, the British corps of Ostend and that of
/// Amiens.
fn against_calais(edition: u8, both: bool) -> (PathsOfGlory, u16, u16, Option<u16>) {
    let mut g = common::first_round();
    g.scenario.edition = edition;
    g.apply(CP, &Action::AutomaticOps).unwrap();
    g.apply(CP, &Action::EndActivation).unwrap();
    let sp = common::sp;
    let fr = in_reserve(&g, "fr-corps", 1)[0];
    let br = in_reserve(&g, "br-corps", 2);
    let ge = in_reserve(&g, "ge-corps", 1)[0];
    g.pos.units[fr as usize].loc = Location::Map(sp("amiens"));
    g.pos.units[br[0] as usize].loc = Location::Map(sp("ostend"));
    if both {
        g.pos.units[br[1] as usize].loc = Location::Map(sp("amiens"));
    }
    g.pos.units[ge as usize].loc = Location::Map(sp("calais"));
    g.pos.spaces[sp("calais").idx()].control = Some(Side::Cp);
    common::give(&mut g, Side::Ap, 2);
    g.apply(
        AP,
        &Action::Play {
            card: 2,
            with: Use::Ops,
        },
    )
    .expect("4 OPS");
    for s in ["amiens", "ostend"] {
        g.apply(
            AP,
            &Action::Activate {
                space: sp(s),
                combat: true,
            },
        )
        .unwrap_or_else(|r| panic!("{s}: {}", r.text.en));
    }
    g.apply(AP, &Action::EndActivation).expect("done");
    g.apply(AP, &Action::Target { space: sp("calais") }).expect("Calais");
    (g, fr, br[0], both.then_some(br[1]))
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

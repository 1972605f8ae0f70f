//! 12.1.10: units in London attack only together with friendly units attacking from Belgium or
//! France, on the real map: a German corps in Calais, a British corps in London, a French corps
//! in Amiens.

mod common;

use sandtable_core::game::Game;
use sandtable_paths_of_glory::game::{Action, Use, AP, CP};
use sandtable_paths_of_glory::state::Location;
use sandtable_paths_of_glory::Side;

#[test]
fn london_attacks_only_with_units_from_belgium_or_france_12_1_10() {
    let mut g = common::first_round();
    g.apply(CP, &Action::AutomaticOps).unwrap();
    g.apply(CP, &Action::EndActivation).unwrap();
    let sp = |id: &str| common::sp(id);
    let data = g.data();
    let in_reserve = |prefix: &str, g: &sandtable_paths_of_glory::game::PathsOfGlory| {
        (0..data.pieces.len())
            .find(|&u| data.pieces[u].id.starts_with(prefix) && g.pos.units[u].loc == Location::Reserve)
            .unwrap_or_else(|| panic!("a {prefix} in reserve"))
    };
    let (br, fr, ge) = (
        in_reserve("br-corps", &g),
        in_reserve("fr-corps", &g),
        in_reserve("ge-corps", &g),
    );
    g.pos.units[br].loc = Location::Map(sp("london"));
    g.pos.units[fr].loc = Location::Map(sp("amiens"));
    g.pos.units[ge].loc = Location::Map(sp("calais"));
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
    g.apply(
        AP,
        &Action::Activate {
            space: sp("london"),
            combat: true,
        },
    )
    .expect("London");
    g.apply(
        AP,
        &Action::Activate {
            space: sp("amiens"),
            combat: true,
        },
    )
    .expect("Amiens");
    g.apply(AP, &Action::EndActivation).expect("done");
    g.apply(AP, &Action::Target { space: sp("calais") }).expect("Calais");
    // The British corps joins only once the French from Amiens have.
    let r = g
        .check_action(AP, &Action::Join { unit: br as u16 })
        .expect_err("London alone");
    assert_eq!(r.rule, "12.1.10");
    g.apply(AP, &Action::Join { unit: fr as u16 })
        .expect("the French corps joins");
    g.apply(AP, &Action::Join { unit: br as u16 })
        .expect("then the British corps");
    g.apply(AP, &Action::Resolve).expect("with the French from Amiens");
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

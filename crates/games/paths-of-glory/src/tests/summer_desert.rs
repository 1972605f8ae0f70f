//! 2022 15.2.5: no combat into or out of a desert space in a Summer turn, on the real map, with
//! a British corps and a Turkish one facing each other across the Sinai.

use super::common;

use crate::game::{Action, PathsOfGlory, AP, CP};
use crate::state::Location;
use crate::Side;
use sandtable_core::game::Game;

/// The Allies to act in `turn` with a British corps in `br_at` next to a Turkish corps in
/// `tu_at`, their Automatic Operation begun.
fn facing(turn: u8, br_at: &str, tu_at: &str) -> PathsOfGlory {
    let mut g = common::first_round();
    g.apply(CP, &Action::AutomaticOps).unwrap();
    g.apply(CP, &Action::EndActivation).unwrap();
    let (b, t) = (g.data().space(br_at).unwrap(), g.data().space(tu_at).unwrap());
    let data = g.data();
    let br = (0..data.pieces.len())
        .find(|&u| data.pieces[u].id.starts_with("br-corps") && g.pos.units[u].loc == Location::Reserve)
        .expect("a British corps in reserve");
    let tu = common::unit("tu-corps-1");
    g.pos.units[br].loc = Location::Map(b);
    g.pos.units[tu].loc = Location::Map(t);
    g.pos.spaces[b.idx()].control = Some(Side::Ap);
    g.pos.spaces[t.idx()].control = Some(Side::Cp);
    g.pos.neutral.retain(|n| n != "tu");
    g.pos.turn = turn;
    g.touch();
    g.apply(AP, &Action::AutomaticOps).unwrap();
    g
}

#[test]
fn no_combat_out_of_a_desert_space_in_summer_15_2_5() {
    // Turn 6 is Summer 1915: the corps in Sinai may move but not attack.
    let g = facing(6, "sinai", "gaza");
    let sinai = g.data().space("sinai").unwrap();
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
    assert!(g
        .check_action(
            AP,
            &Action::Activate {
                space: sinai,
                combat: false
            }
        )
        .is_ok());
    // Turn 5, Spring 1915: it may attack.
    let g = facing(5, "sinai", "gaza");
    assert!(g
        .check_action(
            AP,
            &Action::Activate {
                space: sinai,
                combat: true
            }
        )
        .is_ok());
}

#[test]
fn no_combat_into_a_desert_space_in_summer_15_2_5() {
    for (turn, allowed) in [(6, false), (7, true)] {
        let mut g = facing(turn, "port-said", "sinai");
        let (port_said, sinai) = (g.data().space("port-said").unwrap(), g.data().space("sinai").unwrap());
        g.apply(
            AP,
            &Action::Activate {
                space: port_said,
                combat: true,
            },
        )
        .expect("Port Said is not desert");
        let r = g.check_action(AP, &Action::Target { space: sinai });
        assert_eq!(r.is_ok(), allowed, "turn {turn}: {r:?}");
        if let Err(r) = r {
            assert_eq!(r.rule, "2022 15.2.5");
        }
    }
}

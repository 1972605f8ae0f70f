//! What the rules tests share: the shipped data, loaded once, and the check that damaged files
//! are refused with their reason.

#![allow(dead_code)]

use sandtable_core::graph::Space;
use sandtable_paths_of_glory::setup::Setup;
use sandtable_paths_of_glory::state::Position;
use sandtable_paths_of_glory::Data;
use std::fmt::Display;
use std::sync::OnceLock;

/// The shipped data, loaded once per test binary.
pub fn data() -> &'static Data {
    static D: OnceLock<Data> = OnceLock::new();
    D.get_or_init(|| Data::load().unwrap_or_else(|e| panic!("{e}")))
}

/// The shipped set-up.
pub fn setup() -> &'static Setup {
    static S: OnceLock<Setup> = OnceLock::new();
    S.get_or_init(|| Setup::load(data()).unwrap_or_else(|e| panic!("{e}")))
}

/// The position of August 1914 in the Historical scenario.
pub fn start() -> Position {
    setup().position(data(), true)
}

/// A space by id.
pub fn sp(id: &str) -> Space {
    data().space(id).unwrap_or_else(|| panic!("no space {id}"))
}

/// A counter's index by id.
pub fn unit(id: &str) -> usize {
    data()
        .pieces
        .iter()
        .position(|p| p.id == id)
        .unwrap_or_else(|| panic!("no counter {id}"))
}

/// Each damaged text (it must differ from `good`) is refused by `load` with an error that
/// names `why`.
pub fn refused<T, E: Display>(good: &str, cases: &[(String, &str)], load: impl Fn(&str) -> Result<T, E>) {
    for (text, why) in cases {
        assert_ne!(text, good, "the damage applies ({why})");
        match load(text) {
            Ok(_) => panic!("accepted a damaged file ({why})"),
            Err(e) => assert!(e.to_string().contains(why), "{why}: {e}"),
        }
    }
}

/// A new campaign at the CP's first action round of August 1914 (the Guns of August left out of
/// the hand, the cards dealt, the offensives rolled).
pub fn first_round() -> sandtable_paths_of_glory::game::PathsOfGlory {
    use sandtable_core::game::{Game, Pending};
    use sandtable_paths_of_glory::game::{Action, Frame, PathsOfGlory, CP};
    let mut g = PathsOfGlory::new_game("campaign", 1).expect("the campaign loads");
    g.apply(CP, &Action::GunsOfAugust { keep: false }).expect("the choice");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    assert!(matches!(
        g.frames().last(),
        Some(Frame::Round {
            round: 1,
            side: sandtable_paths_of_glory::Side::Cp
        })
    ));
    g
}

/// Puts a card of a side in its hand, from wherever it was (a test's position).
pub fn give(g: &mut sandtable_paths_of_glory::game::PathsOfGlory, side: sandtable_paths_of_glory::Side, card: u8) {
    let c = &mut g.pos.cards[sandtable_paths_of_glory::state::side_index(side)];
    for pile in [&mut c.draw, &mut c.hand, &mut c.discard, &mut c.removed, &mut c.face_up] {
        pile.retain(|&n| n != card);
    }
    c.hand.push(card);
    g.touch();
}

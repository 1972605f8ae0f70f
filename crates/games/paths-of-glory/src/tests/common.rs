//! What the rules tests share: the shipped data, loaded once, and the check that damaged files
//! are refused with their reason.

#![allow(dead_code)]

use crate::setup::Setup;
use crate::state::Position;
use crate::Data;
use sandtable_core::graph::Space;
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
pub fn first_round() -> crate::game::PathsOfGlory {
    first_round_of("campaign", 1)
}

/// [`first_round`] of a scenario, with a seed.
pub fn first_round_of(scenario: &str, seed: u64) -> crate::game::PathsOfGlory {
    use crate::game::{Action, Frame, PathsOfGlory, CP};
    use sandtable_core::game::{Game, Pending};
    let mut g = PathsOfGlory::new_game(scenario, seed).expect("the scenario loads");
    g.apply(CP, &Action::GunsOfAugust { keep: false }).expect("the choice");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    assert!(matches!(
        g.frames().last(),
        Some(Frame::Round {
            round: 1,
            side: crate::Side::Cp
        })
    ));
    g
}

/// Puts a card of a side in its hand, from wherever it was (a test's position).
pub fn give(g: &mut crate::game::PathsOfGlory, side: crate::Side, card: u8) {
    let c = &mut g.pos.cards[crate::state::side_index(side)];
    for pile in [&mut c.draw, &mut c.hand, &mut c.discard, &mut c.removed, &mut c.face_up] {
        pile.retain(|&n| n != card);
    }
    c.hand.push(card);
    g.touch();
}

/// The first `n` counters of the Reserve Box whose ids start with `prefix`.
pub fn in_reserve(g: &crate::game::PathsOfGlory, prefix: &str, n: usize) -> Vec<u16> {
    use crate::state::Location;
    let data = g.data();
    let found: Vec<u16> = (0..data.pieces.len())
        .filter(|&u| data.pieces[u].id.starts_with(prefix) && g.pos.units[u].loc == Location::Reserve)
        .map(|u| u as u16)
        .take(n)
        .collect();
    assert_eq!(found.len(), n, "{n} {prefix} in reserve");
    found
}

/// The Allies' first action of August 1914 against Calais: a German corps of the Reserve Box in
/// Calais, made the CP's; a counter of the Reserve Box for each `(id prefix, space)` of `place`
/// put there; Blockade (AP #2, 4 OPS) played for its OPS, each of `activate` activated for
/// combat, and Calais targeted. Returns the game and the counters placed, in order.
pub fn allies_against_calais(
    edition: u8,
    place: &[(&str, &str)],
    activate: &[&str],
) -> (crate::game::PathsOfGlory, Vec<u16>) {
    use crate::game::{Action, Use, AP, CP};
    use crate::state::Location;
    use crate::Side;
    use sandtable_core::game::Game;
    let mut g = first_round();
    g.scenario.edition = edition;
    g.apply(CP, &Action::AutomaticOps).unwrap();
    g.apply(CP, &Action::EndActivation).unwrap();
    let mut placed = Vec::new();
    for &(prefix, at) in place {
        let u = in_reserve(&g, prefix, 1)[0];
        g.pos.units[u as usize].loc = Location::Map(sp(at));
        placed.push(u);
    }
    let ge = in_reserve(&g, "ge-corps", 1)[0];
    g.pos.units[ge as usize].loc = Location::Map(sp("calais"));
    g.pos.spaces[sp("calais").idx()].control = Some(Side::Cp);
    give(&mut g, Side::Ap, 2);
    g.apply(
        AP,
        &Action::Play {
            card: 2,
            with: Use::Ops,
        },
    )
    .expect("4 OPS");
    for s in activate {
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
    (g, placed)
}

/// Plays on, the dice given in order and otherwise each seat's first legal choice, until `stop`
/// holds; `false` if the dice ran out or the game ended first.
pub fn play_until(
    g: &mut crate::game::PathsOfGlory,
    dice: &mut impl Iterator<Item = u8>,
    stop: impl Fn(&crate::game::PathsOfGlory) -> bool,
) -> bool {
    use crate::game::Action;
    use sandtable_core::game::{Game, Pending};
    while !stop(g) {
        match g.pending() {
            Pending::Chance => {
                let Some(face) = dice.next() else { return false };
                g.apply_chance(&Action::Die { face }).unwrap();
            }
            Pending::Seat(s) => {
                let first = g.legal_list()[0].clone();
                g.apply(s, &first).unwrap();
            }
            Pending::Over => return false,
        }
    }
    true
}

/// The August 1914 campaign at the CP's first action, the French 1st Army and 1st Corps placed
/// by `place` (Essen made the Allies', with a level-1 Allied trench or none), the German 1st
/// Army attacking Essen from Aachen by Automatic Operations with the two fire dice given; the
/// game is left where the defenders retreat, or else where the attacker advances or the combat
/// is over, with the French army and corps returned; `None` if the dice run out first.
pub fn beaten_in_essen(
    edition: u8,
    trench: bool,
    dice: [u8; 2],
    place: impl Fn(&mut crate::game::PathsOfGlory, u16, u16),
) -> Option<(crate::game::PathsOfGlory, u16, u16)> {
    use crate::game::{Action, Frame, CP};
    use crate::state::Trench;
    use crate::Side;
    use sandtable_core::game::Game;
    let mut g = first_round();
    g.scenario.edition = edition;
    let (essen, aachen) = (sp("essen"), sp("aachen"));
    let id = |id: &str| unit(id) as u16;
    let (army, corps) = (id("fr-army-1"), id("fr-corps-1"));
    place(&mut g, army, corps);
    g.pos.spaces[essen.idx()].control = Some(Side::Ap);
    g.pos.spaces[essen.idx()].trench = trench.then_some(Trench {
        side: Side::Ap,
        level: 1,
    });
    g.touch();
    automatic_attack_from(&mut g, aachen);
    g.apply(CP, &Action::Target { space: essen }).unwrap();
    g.apply(CP, &Action::Join { unit: id("ge-army-1") }).unwrap();
    g.apply(CP, &Action::Resolve).unwrap();
    let after = |g: &crate::game::PathsOfGlory| {
        g.action.battle.is_none()
            || matches!(
                g.frames().last(),
                Some(Frame::RetreatUnits { .. } | Frame::AdvanceUnits { .. })
            )
    };
    play_until(&mut g, &mut dice.into_iter(), after).then_some((g, army, corps))
}

/// The CP's Automatic Operation (8.1.3) activating `from` for combat.
pub fn automatic_attack_from(g: &mut crate::game::PathsOfGlory, from: Space) {
    use crate::game::{Action, CP};
    use sandtable_core::game::Game;
    g.apply(CP, &Action::AutomaticOps).unwrap();
    g.apply(
        CP,
        &Action::Activate {
            space: from,
            combat: true,
        },
    )
    .unwrap();
}

/// The card piles of a side are all its cards (a test of conservation).
pub fn cards_conserved(g: &crate::game::PathsOfGlory) -> Result<(), String> {
    for side in [crate::Side::Cp, crate::Side::Ap] {
        let c = &g.pos.cards[crate::state::side_index(side)];
        let mut all: Vec<u8> = c
            .draw
            .iter()
            .chain(&c.hand)
            .chain(&c.discard)
            .chain(&c.removed)
            .chain(&c.face_up)
            .copied()
            .collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        if all.len() != n {
            return Err(format!("{side:?} has a card in two places"));
        }
        let expected = crate::optional_cards::deck(g, side, &c.picked);
        if all != expected {
            return Err(format!(
                "{side:?} holds {} cards, its deck has {}",
                all.len(),
                expected.len()
            ));
        }
    }
    Ok(())
}

/// An action round of the Allies after the CP has passed its own with an Automatic Operation:
/// they play Blockade (AP #2, 4 OPS) for OPS, activate each of `spaces` (for combat when
/// `true`), and end their activation.
pub fn allies_activate(g: &mut crate::game::PathsOfGlory, spaces: &[(Space, bool)]) {
    use crate::game::{Action, Use, AP, CP};
    use sandtable_core::game::Game;
    g.apply(CP, &Action::AutomaticOps)
        .expect("the CP's automatic operation");
    g.apply(CP, &Action::EndActivation).expect("nothing activated");
    give(g, crate::Side::Ap, 2);
    g.apply(
        AP,
        &Action::Play {
            card: 2,
            with: Use::Ops,
        },
    )
    .expect("4 OPS");
    for &(space, combat) in spaces {
        g.apply(AP, &Action::Activate { space, combat })
            .unwrap_or_else(|r| panic!("activate: {}", r.text.en));
    }
    if g.legal_list().contains(&Action::EndActivation) {
        g.apply(AP, &Action::EndActivation).expect("done activating");
    }
}

/// The campaign's first round with Turkey at war, a British corps (br-corps-1) in Aqaba (made the
/// Allies', its fort destroyed), the Arab Northern Army in Beersheba (the CP's, its fort
/// destroyed), Sinai the Allies'; those three spaces emptied of their set-up (11.1.14).
pub fn ana_in_beersheba() -> crate::game::PathsOfGlory {
    use crate::state::{Fort, Location};
    let mut g = first_round();
    setup().enter(data(), &mut g.pos, "tu", false, false);
    for s in ["aqaba", "beersheba", "sinai"] {
        for u in g.pos.units_in(sp(s)).collect::<Vec<_>>() {
            g.pos.units[u].loc = Location::Aside;
        }
    }
    for (s, side) in [
        ("aqaba", crate::Side::Ap),
        ("beersheba", crate::Side::Cp),
        ("sinai", crate::Side::Ap),
    ] {
        g.pos.spaces[sp(s).idx()].control = Some(side);
    }
    for s in ["aqaba", "beersheba"] {
        g.pos.spaces[sp(s).idx()].fort = Fort::Destroyed;
    }
    g.pos.units[unit("br-corps-1")].loc = Location::Map(sp("aqaba"));
    g.pos.units[unit("ana-corps")].loc = Location::Map(sp("beersheba"));
    g.touch();
    g
}

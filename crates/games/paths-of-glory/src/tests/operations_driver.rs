//! 9.2, 11.0 and 12.0 carried out on the driver, on the August 1914 map: a move walked space by
//! space changes the hands of what it crosses, and a combat goes through its steps.

use super::common;

use crate::game::{Action, Frame, PathsOfGlory, CP};
use crate::state::{Fort, Location};
use crate::Side;
use sandtable_core::driver::Rules;
use sandtable_core::game::Game;

/// An Automatic Operation (1 OPS, 8.1.3) activating one space.
fn operate(
    g: &mut PathsOfGlory,
    space: sandtable_core::graph::Space,
    combat: bool,
) -> Result<(), sandtable_core::game::Refusal> {
    g.apply(CP, &Action::AutomaticOps)?;
    g.apply(CP, &Action::Activate { space, combat })
}

fn sp(g: &PathsOfGlory, id: &str) -> sandtable_core::graph::Space {
    g.data().space(id).expect("a space")
}

fn unit(g: &PathsOfGlory, id: &str) -> u16 {
    g.data().pieces.iter().position(|p| p.id == id).expect("a counter") as u16
}

/// 12.2.5: neither side plays a combat card (nor attempts a flank attack).
fn no_cards(g: &mut PathsOfGlory) {
    loop {
        match g.frames().last().cloned() {
            Some(Frame::CombatCards { side, .. }) => {
                let s = if side == Side::Cp { CP } else { crate::game::AP };
                g.apply(s, &Action::EndCombatCards).expect("no combat card");
            }
            Some(Frame::FlankChoice { .. }) => g.apply(CP, &Action::Flank { pinning: None }).expect("no flank"),
            _ => return,
        }
    }
}

fn journal_has(g: &PathsOfGlory, words: &str) -> bool {
    g.journal(None).iter().any(|l| l.text.en.contains(words))
}

#[test]
fn the_1st_army_takes_the_fort_of_liege_and_advances_into_it_12_4_6_and_12_7() {
    let mut g = common::first_round();
    let (aachen, liege) = (sp(&g, "aachen"), sp(&g, "liege"));
    let army = unit(&g, "ge-army-1");
    // 9.2.3: one nationality, 1 OPS; the Aachen space spends it all.
    operate(&mut g, aachen, true).expect("activated");
    assert!(
        matches!(g.frames().last(), Some(Frame::Combats { .. })),
        "no OPS left: on to combat"
    );
    g.apply(CP, &Action::Target { space: liege })
        .expect("a fort alone may be attacked");
    g.apply(CP, &Action::Join { unit: army }).expect("the 1st Army joins");
    g.apply(CP, &Action::Resolve).expect("resolve");
    no_cards(&mut g);
    // 12.3.1: one attacking space: no flank attack; the attacker's fire first.
    assert!(matches!(g.frames().last(), Some(Frame::BattleDie { .. })));
    g.apply_chance(&Action::Die { face: 6 }).expect("the CP's fire");
    g.apply_chance(&Action::Die { face: 1 }).expect("the fort's fire");
    // 12.2.9: the defender takes his losses first: the fort is the only step he has.
    assert!(matches!(g.frames().last(), Some(Frame::TakeLosses { side: Side::Ap })));
    let fort = Action::Lose {
        target: crate::game::LossTarget::Fort,
    };
    assert_eq!(g.legal_list().as_slice(), std::slice::from_ref(&fort));
    g.apply(crate::game::AP, &fort).expect("the fort's step");
    // Then the attacker: the fort's 1 is less than a step of the 1st Army (LF 3), so nothing
    // is taken (12.4.3: never more than the loss number).
    assert!(g.pos.units[army as usize].full);
    assert!(journal_has(&g, "CP takes 0 loss(es)"));
    assert_eq!(
        g.pos.space(liege).fort,
        Fort::Destroyed,
        "5 losses take the fort's whole LF 3"
    );
    // 2022 12.7.1: a fort attacked alone is advanced into only when destroyed.
    let advance = Action::Advance {
        unit: army,
        route: vec![liege],
    };
    assert!(g.legal_list().contains(&advance), "{:?}", g.legal_list());
    g.apply(CP, &advance).expect("the advance");
    assert_eq!(g.pos.units[army as usize].loc, Location::Map(liege));
    assert_eq!(
        g.pos.space(liege).control,
        Some(Side::Cp),
        "the space changes hands as the army enters"
    );
}

#[test]
fn a_move_changes_the_hands_of_the_spaces_it_walks_through_11_1() {
    let mut g = common::first_round();
    // A German space next to Allied ground without a fort, within a move.
    let data = g.data();
    let ctx = crate::movement::Context {
        turn: 1,
        ..Default::default()
    };
    let from = data
        .map
        .graph
        .space_indices()
        .find(|&s| {
            let units: Vec<usize> = g.pos.units_in(s).collect();
            units.len() == 1
                && data.pieces[units[0]].side == Side::Cp
                && crate::movement::destinations(data, &g.pos, &units, s, &ctx)
                    .iter()
                    .any(|&(to, _)| g.pos.space(to).control == Some(Side::Ap) && g.pos.space(to).fort == Fort::None)
        })
        .expect("a German unit that may step into Allied ground");
    operate(&mut g, from, false).expect("activated");
    let moves: Vec<Action> = g
        .legal_list()
        .iter()
        .filter(|a| {
            matches!(a, Action::Move { to, .. } if g.pos.space(*to).control == Some(Side::Ap) && g.pos.space(*to).fort == Fort::None)
        })
        .cloned()
        .collect();
    let Some(Action::Move { units, to, .. }) = moves
        .iter()
        .find(|a| matches!(a, Action::Move { units, .. } if units.len() == 1))
        .cloned()
    else {
        panic!("a move into Allied ground from Koblenz: {:?}", g.legal_list());
    };
    g.apply(
        CP,
        &moves
            .iter()
            .find(|a| matches!(a, Action::Move { units: u, to: t, .. } if *u == units && *t == to))
            .unwrap()
            .clone(),
    )
    .expect("the move");
    assert_eq!(g.pos.units[units[0] as usize].loc, Location::Map(to));
    assert_eq!(g.pos.space(to).control, Some(Side::Cp));
    // 11.1.1: the unit that moved is offered no second move.
    assert!(!g
        .legal_list()
        .iter()
        .any(|a| matches!(a, Action::Move { units: u, .. } if u.contains(&units[0]))));
}

/// A French army reduced and alone next to Aachen, for the 1st Army to attack.
fn french_army_next_to_aachen(g: &mut PathsOfGlory) -> (sandtable_core::graph::Space, u16) {
    let data = g.data();
    let aachen = sp(g, "aachen");
    let target = data
        .map
        .graph
        .exits(aachen)
        .iter()
        .map(|&(_, n)| n)
        .find(|&n| g.pos.units_in(n).count() == 0 && data.facts(n).fort == 0)
        .expect("an empty neighbour without a fort");
    let army = unit(g, "fr-army-1");
    g.pos.units[army as usize].loc = Location::Map(target);
    g.pos.units[army as usize].full = false;
    g.pos.spaces[target.idx()].control = Some(Side::Ap);
    g.touch();
    (target, army)
}

#[test]
fn the_corps_that_replaces_an_eliminated_army_stands_in_its_space_12_4_4() {
    let mut g = common::first_round();
    let (target, army) = french_army_next_to_aachen(&mut g);
    let data = g.data();
    let in_reserve = |g: &PathsOfGlory| {
        (0..data.pieces.len())
            .filter(|&u| data.pieces[u].id.starts_with("fr-corps") && g.pos.units[u].loc == Location::Reserve)
            .count()
    };
    let before = in_reserve(&g);
    let aachen = sp(&g, "aachen");
    operate(&mut g, aachen, true).expect("activated");
    g.apply(CP, &Action::Target { space: target }).expect("the target");
    g.apply(
        CP,
        &Action::Join {
            unit: unit(&g, "ge-army-1"),
        },
    )
    .expect("joins");
    g.apply(CP, &Action::Resolve).expect("resolve");
    no_cards(&mut g);
    g.apply_chance(&Action::Die { face: 3 }).expect("the CP's fire");
    g.apply_chance(&Action::Die { face: 1 }).expect("the French fire");
    while let Some(Frame::TakeLosses { side }) = g.frames().last().cloned() {
        let s = if side == Side::Cp { CP } else { crate::game::AP };
        let a = g.legal_list()[0].clone();
        g.apply(s, &a).expect("a loss step");
    }
    assert_ne!(
        g.pos.units[army as usize].loc,
        Location::Map(target),
        "the reduced army is eliminated"
    );
    assert_eq!(
        in_reserve(&g),
        before - 1,
        "one French corps comes from the Reserve Box"
    );
    let standing = (0..data.pieces.len()).any(|u| {
        data.pieces[u].id.starts_with("fr-corps")
            && matches!(g.pos.units[u].loc, Location::Map(s) if s == target || data.map.graph.adjacent(s, target))
    });
    assert!(standing, "the corps stands in the army's space (or retreated from it)");
}

#[test]
fn a_besieged_fort_is_attacked_by_its_besiegers_only_15_2_3() {
    let mut g = common::first_round();
    let (liege, aachen) = (sp(&g, "liege"), sp(&g, "aachen"));
    let besieger = unit(&g, "ge-army-2");
    g.pos.units[besieger as usize].loc = Location::Map(liege);
    g.pos.spaces[liege.idx()].fort = Fort::Besieged;
    g.touch();
    let mut outside = g.clone();
    operate(&mut g, liege, true).expect("the besiegers activated");
    g.apply(CP, &Action::Target { space: liege })
        .expect("the besiegers attack the fort");
    g.apply(CP, &Action::Join { unit: besieger })
        .expect("the besieger joins");
    operate(&mut outside, aachen, true).expect("Aachen activated");
    let r = outside
        .check_action(CP, &Action::Target { space: liege })
        .expect_err("not from outside");
    assert_eq!(r.rule, "15.2.3", "{r:?}");
}

#[test]
fn a_move_walked_space_by_space_takes_each_space_it_enters_11_1() {
    let mut g = common::first_round();
    // An Automatic Operation moving a German space whose units can step into Allied ground.
    let data = g.data();
    let from = data
        .map
        .graph
        .space_indices()
        .find(|&s| {
            g.pos
                .units_in(s)
                .next()
                .is_some_and(|u| data.pieces[u].side == Side::Cp)
                && data.map.graph.exits(s).iter().any(|&(_, n)| {
                    g.pos.space(n).control == Some(Side::Ap)
                        && g.pos.units_in(n).next().is_none()
                        && g.pos.space(n).fort == Fort::None
                })
        })
        .expect("a German space next to empty Allied ground");
    operate(&mut g, from, false).expect("activated");
    let begin = g
        .legal_list()
        .iter()
        .find(|a| matches!(a, Action::Begin { units, .. } if units.len() == 1))
        .cloned()
        .expect("a move space by space is offered");
    let Action::Begin { units, .. } = begin.clone() else {
        unreachable!()
    };
    g.apply(CP, &begin).expect("begin");
    // A step to a space not joined to this one is refused with its rule.
    let far = data.space("petrograd").expect("Petrograd");
    let r = g.check_action(CP, &Action::Step { to: far }).expect_err("not adjacent");
    assert!(r.rule.starts_with("11.1"), "{r:?}");
    // Halting where the move began is no move.
    assert_eq!(g.check_action(CP, &Action::Halt).expect_err("no move").rule, "11.1.3");
    let step = g
        .legal_list()
        .iter()
        .find(|a| matches!(a, Action::Step { to } if g.pos.space(*to).control == Some(Side::Ap)))
        .cloned()
        .expect("a step into Allied ground");
    let Action::Step { to } = step else { unreachable!() };
    g.apply(CP, &step).expect("the step");
    assert_eq!(
        g.pos.units[units[0] as usize].loc,
        Location::Map(to),
        "the unit stands there now"
    );
    assert_eq!(
        g.pos.space(to).control,
        Some(Side::Cp),
        "and the space is the CP's as it enters"
    );
    if g.legal_list().contains(&Action::Halt) {
        g.apply(CP, &Action::Halt).expect("the move ends");
        assert!(
            matches!(g.frames().last(), Some(Frame::Movement { .. })),
            "back to the other moves"
        );
    }
}

#[test]
fn units_out_of_supply_are_not_activated_14_3_1() {
    let mut g = common::first_round();
    // The 1st Army cut off at Orleans, in Allied ground far from any German line.
    let (orleans, army) = (sp(&g, "orleans"), unit(&g, "ge-army-1"));
    for u in g.pos.units_in(orleans).collect::<Vec<_>>() {
        g.pos.units[u].loc = Location::Reserve;
    }
    g.pos.units[army as usize].loc = Location::Map(orleans);
    g.touch();
    g.apply(CP, &Action::AutomaticOps).expect("1 OPS");
    for combat in [false, true] {
        let r = g
            .check_action(CP, &Action::Activate { space: orleans, combat })
            .expect_err("an army out of supply is not activated");
        assert_eq!(r.rule, "14.3.1", "{r:?}");
    }
    // A supplied German space is activated as before.
    g.apply(
        CP,
        &Action::Activate {
            space: sp(&g, "koblenz"),
            combat: false,
        },
    )
    .expect("Koblenz");
}

#[test]
fn german_units_do_not_attack_a_russian_fort_before_war_status_4_15_1_10() {
    let mut g = common::first_round();
    let (insterberg, kovno) = (sp(&g, "insterberg"), sp(&g, "kovno"));
    let mut later = g.clone();
    later.pos.war_status[0] = 4;
    later.touch();
    for g in [&mut g, &mut later] {
        operate(g, insterberg, true).expect("Insterberg");
    }
    let r = g
        .check_action(CP, &Action::Target { space: kovno })
        .expect_err("Kovno is a Russian fort");
    assert_eq!(r.rule, "15.1.10", "{r:?}");
    // At CP War Status 4 the Germans may.
    later
        .apply(CP, &Action::Target { space: kovno })
        .expect("the attack on Kovno");
}

//! 15.2 Sieges on the driver, on the August 1914 map: a siege takes the trench of the fort's
//! space like any entry (11.2.5), and ends when its besiegers have all gone (15.2.4).

use super::common;

use crate::game::{Action, PathsOfGlory, AP};
use crate::state::{Fort, Location, Trench};
use crate::Side;
use common::{sp, unit};
use sandtable_core::driver::Rules;
use sandtable_core::game::Game;

/// The Allies' action in a round of the campaign's first turn, played as turn 2 (15.1.12 bars
/// Russians from German forts in August 1914): the CP passes with an Automatic Operation, the
/// Allies play Blockade (AP #2, 4 OPS) for OPS, activate `from` for movement and move `units`
/// to `to`, and end their movement.
fn allies_move(g: &mut PathsOfGlory, from: &str, units: &[&str], to: &str) {
    common::allies_activate(g, &[(sp(from), false)]);
    let units = units.iter().map(|u| unit(u) as u16).collect();
    g.apply(
        AP,
        &Action::Move {
            from: sp(from),
            units,
            to: sp(to),
        },
    )
    .unwrap_or_else(|r| panic!("{from} to {to}: {}", r.text.en));
    g.apply(AP, &Action::EndMovement).expect("the move ends");
}

/// The Russian 1st Army in Insterberg (the German 8th Army and 2nd Corps set aside), before
/// Konigsberg's German fort and its level-1 trench (4.2), on turn 2.
fn before_konigsberg() -> PathsOfGlory {
    let mut g = common::first_round();
    g.pos.turn = 2;
    for id in ["ge-army-8", "ge-corps-2"] {
        g.pos.units[unit(id)].loc = Location::Aside;
    }
    g.pos.units[unit("ru-army-1")].loc = Location::Map(sp("insterberg"));
    g.pos.spaces[sp("insterberg").idx()].control = Some(Side::Ap);
    g.touch();
    assert_eq!(
        g.pos.space(sp("konigsberg")).trench,
        Some(Trench {
            side: Side::Cp,
            level: 1
        })
    );
    g
}

/// 11.2.5 (2022 11.2.4): an enemy unit entering a space removes its level-1 trench; the army
/// that enters Konigsberg to besiege its fort (15.2.1) is such a unit.
#[test]
fn besiegers_take_the_trench_of_the_forts_space_11_2_5() {
    let mut g = before_konigsberg();
    allies_move(&mut g, "insterberg", &["ru-army-1"], "konigsberg");
    let k = g.pos.space(sp("konigsberg"));
    assert_eq!(k.fort, Fort::Besieged);
    assert_eq!(k.control, Some(Side::Cp), "a besieged fort's space stays its side's");
    assert_eq!(k.trench, None, "the German level-1 trench is gone");
}

/// 15.2.4 (2022): a siege lasts while besiegers stay; once the last of them has left the fort's
/// space, the fort stands unbesieged at once, and a lone corps may not walk in (11.1.8).
#[test]
fn a_siege_ends_when_its_besiegers_leave_15_2_4() {
    let mut g = before_konigsberg();
    allies_move(&mut g, "insterberg", &["ru-army-1"], "konigsberg");
    assert_eq!(g.pos.space(sp("konigsberg")).fort, Fort::Besieged);
    allies_move(&mut g, "konigsberg", &["ru-army-1"], "insterberg");
    assert_eq!(g.pos.space(sp("konigsberg")).fort, Fort::Intact);
    // A Russian corps beside it may no longer enter: it alone cannot besiege an LF-3 fort.
    let corps = common::in_reserve(&g, "ru-corps", 1)[0];
    g.pos.units[corps as usize].loc = Location::Map(sp("insterberg"));
    g.touch();
    common::allies_activate(&mut g, &[(sp("insterberg"), false)]);
    let r = g
        .check_action(
            AP,
            &Action::Move {
                from: sp("insterberg"),
                units: vec![corps],
                to: sp("konigsberg"),
            },
        )
        .expect_err("a lone corps before an unbesieged fort");
    assert_eq!(r.rule, "11.1.8", "{}", r.text.en);
}

/// 15.2.4 (2022): besiegers may leave a besieged fort's space only all together or leaving a
/// siege behind: of the Russian 1st Army and a corps besieging Konigsberg (LF 3), the corps may
/// go, or both, but not the army alone.
#[test]
fn besiegers_leave_together_or_leave_a_siege_behind_15_2_4() {
    let mut g = before_konigsberg();
    let corps = common::in_reserve(&g, "ru-corps", 1)[0];
    g.pos.units[corps as usize].loc = Location::Map(sp("insterberg"));
    g.touch();
    let army = unit("ru-army-1") as u16;
    let both = ["ru-army-1", &g.data().pieces[corps as usize].id.clone()];
    allies_move(&mut g, "insterberg", &both, "konigsberg");
    assert_eq!(g.pos.space(sp("konigsberg")).fort, Fort::Besieged);
    common::allies_activate(&mut g, &[(sp("konigsberg"), false)]);
    let out = |units: Vec<u16>| Action::Move {
        from: sp("konigsberg"),
        units,
        to: sp("insterberg"),
    };
    let r = g
        .check_action(AP, &out(vec![army]))
        .expect_err("the corps alone is no siege");
    assert_eq!(r.rule, "15.2.4", "{}", r.text.en);
    assert!(!g.legal_list().contains(&out(vec![army])));
    let mut pair = vec![army, corps];
    pair.sort();
    for units in [vec![corps], pair] {
        g.check_action(AP, &out(units.clone()))
            .unwrap_or_else(|r| panic!("{units:?}: {}", r.text.en));
        assert!(g.legal_list().contains(&out(units)));
    }
}

/// Three reduced Russian corps besiege Konigsberg (LF 3), the Russian 1st Army set aside; the
/// game begun on data edition `edition`. In the Allies' next round they attack the fort they
/// besiege (15.2.3) with the two fire dice given (theirs, the fort's), and the game is left
/// once the combat is over.
fn corps_besieging_konigsberg_attack_it(edition: u8, dice: [u8; 2]) -> (PathsOfGlory, Vec<u16>) {
    let mut g = before_konigsberg();
    g.scenario.edition = edition;
    g.pos.units[unit("ru-army-1")].loc = Location::Aside;
    let corps = common::in_reserve(&g, "ru-corps", 3);
    for &c in &corps {
        g.pos.units[c as usize].loc = Location::Map(sp("insterberg"));
        g.pos.units[c as usize].full = false;
    }
    g.touch();
    let ids: Vec<String> = corps.iter().map(|&c| g.data().pieces[c as usize].id.clone()).collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    allies_move(&mut g, "insterberg", &ids, "konigsberg");
    assert_eq!(g.pos.space(sp("konigsberg")).fort, Fort::Besieged);
    common::allies_activate(&mut g, &[(sp("konigsberg"), true)]);
    g.apply(
        AP,
        &Action::Target {
            space: sp("konigsberg"),
        },
    )
    .unwrap();
    for &c in &corps {
        g.apply(AP, &Action::Join { unit: c }).unwrap();
    }
    g.apply(AP, &Action::Resolve).unwrap();
    assert!(common::play_until(&mut g, &mut dice.into_iter(), |g| g
        .action
        .battle
        .is_none()));
    (g, corps)
}

/// 2022 15.2.4 (data edition 6) "If combat losses … drop the besiegers below the 15.2.1
/// minimum, they stay put but the siege is broken: no surrender roll in the Siege Phase and no
/// supply tracing through the space. The siege resumes only when friendly units entering the
/// space bring the total back to the 15.2.1 requirement": the fire of Konigsberg's fort (1 loss)
/// eliminates one of the three reduced Russian corps besieging it and attacking it; the fort stands
/// unbesieged at once with the other two in its space, and a third corps walking in besieges it
/// again. A game begun on edition 5 keeps the siege to the Siege Phase.
#[test]
fn a_siege_broken_by_losses_ends_at_once_and_resumes_with_enough_15_2_4() {
    let (g, corps) = corps_besieging_konigsberg_attack_it(5, [2, 1]);
    let left = |g: &PathsOfGlory| {
        corps
            .iter()
            .filter(|&&c| g.pos.units[c as usize].loc == Location::Map(sp("konigsberg")))
            .count()
    };
    assert_eq!(left(&g), 2, "one corps lost");
    assert_eq!(g.pos.space(sp("konigsberg")).fort, Fort::Besieged, "edition 5");

    let (mut g, _) = corps_besieging_konigsberg_attack_it(crate::game::EDITION, [2, 1]);
    assert_eq!(left(&g), 2, "one corps lost");
    assert_eq!(g.pos.space(sp("konigsberg")).fort, Fort::Intact, "the siege is broken");
    assert!(g
        .journal(None)
        .iter()
        .any(|l| l.text.en.contains("Konigsberg") && l.text.en.contains("(15.2.4)")));
    // A fourth corps from Insterberg brings the besiegers back to three: the siege resumes.
    let fourth = common::in_reserve(&g, "ru-corps", 1)[0];
    g.pos.units[fourth as usize].loc = Location::Map(sp("insterberg"));
    g.touch();
    // The Allies' combats end; in the next round they move.
    g.apply(AP, &Action::EndCombat).expect("no more combats");
    common::allies_activate(&mut g, &[(sp("insterberg"), false)]);
    g.apply(
        AP,
        &Action::Move {
            from: sp("insterberg"),
            units: vec![fourth],
            to: sp("konigsberg"),
        },
    )
    .unwrap_or_else(|r| panic!("the fourth corps: {}", r.text.en));
    assert_eq!(g.pos.space(sp("konigsberg")).fort, Fort::Besieged);
}

/// Three full German corps in Metz attack the full French 1st Corps in Nancy (fort LF 2), the
/// game begun on data edition `edition`, with the fire dice given (the CP's, then the French);
/// the game is left where the CP may advance, or else where the combat is over. Also the corps.
fn corps_attack_nancy(edition: u8, dice: [u8; 2]) -> (PathsOfGlory, Vec<u16>) {
    let mut g = common::first_round();
    g.scenario.edition = edition;
    for s in ["metz", "nancy"] {
        for u in g.pos.units_in(sp(s)).collect::<Vec<_>>() {
            g.pos.units[u].loc = Location::Aside;
        }
    }
    let corps = common::in_reserve(&g, "ge-corps", 3);
    for &c in &corps {
        g.pos.units[c as usize].loc = Location::Map(sp("metz"));
    }
    g.pos.units[unit("fr-corps-1")].loc = Location::Map(sp("nancy"));
    g.pos.units[unit("fr-corps-1")].full = true;
    g.touch();
    common::automatic_attack_from(&mut g, sp("metz"));
    g.apply(crate::game::CP, &Action::Target { space: sp("nancy") })
        .unwrap();
    for &c in &corps {
        g.apply(crate::game::CP, &Action::Join { unit: c }).unwrap();
    }
    g.apply(crate::game::CP, &Action::Resolve).unwrap();
    let advancing = |g: &PathsOfGlory| {
        g.action.battle.is_none() || matches!(g.frames().last(), Some(crate::game::Frame::AdvanceUnits { .. }))
    };
    assert!(common::play_until(&mut g, &mut dice.into_iter(), advancing));
    (g, corps)
}

/// 12.6.5 "挺進部隊可以進入只有敵方要塞的區域,只要該部隊可以進行圍城" with 15.2.1, and 2022 12.7.6
/// "once enough advancers besiege a fort, other advancers may continue" (data edition 6): three
/// German corps eliminate the French corps in Nancy (fort LF 2) and lose a step; the two still
/// full may advance into Nancy one after the other and besiege its fort together. A game begun on
/// edition 5 counted only the corps advancing and those already advanced, so the first of them
/// could never go.
#[test]
fn corps_advancing_one_at_a_time_besiege_a_fort_together_12_6_5() {
    let advance_into_nancy = |c: u16| Action::Advance {
        unit: c,
        route: vec![sp("nancy")],
    };
    let (g, corps) = corps_attack_nancy(5, [3, 1]);
    let full: Vec<u16> = corps
        .iter()
        .copied()
        .filter(|&c| g.pos.units[c as usize].full)
        .collect();
    assert_eq!(full.len(), 2, "one corps took the French loss");
    assert!(!full.iter().any(|&c| g.legal_list().contains(&advance_into_nancy(c))));

    let (mut g, corps) = corps_attack_nancy(crate::game::EDITION, [3, 1]);
    assert_eq!(g.pos.space(sp("nancy")).fort, Fort::Intact);
    let full: Vec<u16> = corps
        .iter()
        .copied()
        .filter(|&c| g.pos.units[c as usize].full)
        .collect();
    for &c in &full {
        g.apply(crate::game::CP, &advance_into_nancy(c))
            .unwrap_or_else(|r| panic!("{c}: {}", r.text.en));
    }
    if g.action.battle.is_some() {
        g.apply(crate::game::CP, &Action::EndAdvance).expect("the advance ends");
    }
    assert!(g.action.battle.is_none());
    assert_eq!(g.pos.space(sp("nancy")).fort, Fort::Besieged);
}

/// 2022 12.7.6 with 15.2.4 (data edition 6): of the same two corps only one advances into
/// Nancy; once the combat is over it stands in the fort's space with too few to besiege it, and
/// the siege is broken.
#[test]
fn one_corps_advancing_alone_into_a_fort_leaves_no_siege_12_6_5() {
    let (mut g, corps) = corps_attack_nancy(crate::game::EDITION, [3, 1]);
    let c = corps.iter().copied().find(|&c| g.pos.units[c as usize].full).unwrap();
    g.apply(
        crate::game::CP,
        &Action::Advance {
            unit: c,
            route: vec![sp("nancy")],
        },
    )
    .unwrap_or_else(|r| panic!("{}", r.text.en));
    g.apply(crate::game::CP, &Action::EndAdvance).expect("the advance ends");
    assert!(g.action.battle.is_none());
    assert_eq!(g.pos.units[c as usize].loc, Location::Map(sp("nancy")));
    assert_eq!(g.pos.space(sp("nancy")).fort, Fort::Intact);
}

/// 2022 15.2.4 (data edition 6): a Russian corps alone in Konigsberg, whose siege is broken
/// (the fort stands unbesieged), and another in Insterberg. The second entering would make two
/// corps, too few against LF 3: the move is refused with 15.2.4, counting the one already there.
#[test]
fn too_few_to_resume_a_broken_siege_are_refused_with_15_2_4() {
    let mut g = before_konigsberg();
    g.pos.units[unit("ru-army-1")].loc = Location::Aside;
    let corps = common::in_reserve(&g, "ru-corps", 2);
    g.pos.units[corps[0] as usize].loc = Location::Map(sp("konigsberg"));
    g.pos.units[corps[1] as usize].loc = Location::Map(sp("insterberg"));
    g.touch();
    assert_eq!(g.pos.space(sp("konigsberg")).fort, Fort::Intact);
    common::allies_activate(&mut g, &[(sp("insterberg"), false)]);
    let r = g
        .apply(
            AP,
            &Action::Move {
                from: sp("insterberg"),
                units: vec![corps[1]],
                to: sp("konigsberg"),
            },
        )
        .expect_err("two corps cannot besiege LF 3");
    assert_eq!(r.rule, "15.2.4");
    assert!(r.text.en.contains("1 already there"), "{}", r.text.en);
    assert!(r.text.zh.contains("已在该处的1个"), "{}", r.text.zh);
}

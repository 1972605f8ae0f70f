//! 11.0 Movement on the real map, from the August 1914 position.

use super::common;

use crate::movement::{check, destinations, Context};
use crate::state::{Location, Position};
use crate::Side;
use common::{data, sp, start, unit};
use sandtable_core::graph::Space;

fn ids(d: &[(Space, u32)]) -> Vec<&'static str> {
    let mut v: Vec<&str> = d.iter().map(|&(s, _)| data().map.graph.space(s).id.as_str()).collect();
    v.sort();
    v
}

fn rule(pos: &Position, units: &[&str], from: &str, to: &str, ctx: &Context) -> String {
    let units: Vec<usize> = units.iter().map(|u| unit(u)).collect();
    match check(data(), pos, &units, sp(from), sp(to), ctx) {
        Ok(c) => format!("ok {c}"),
        Err(r) => {
            // Every refusal names the space in both languages.
            let info = data().map.graph.space(sp(to));
            assert!(r.text.en.contains(&info.name_en), "{r:?}");
            assert!(r.text.zh.contains(&info.name_zh), "{r:?}");
            r.rule
        }
    }
}

/// Puts a counter in a space (and gives the space to its side).
fn put(pos: &mut Position, id: &str, at: &str) {
    pos.units[unit(id)].loc = Location::Map(sp(at));
    pos.spaces[sp(at).idx()].control = Some(data().pieces[unit(id)].side);
}

/// The German 1st Army at Aachen (MF 3): each space costs 1 MP; it may enter Liege to besiege
/// its fort but go no farther that way (15.1.1); Brussels beyond holds the BEF (11.1.7).
#[test]
fn the_first_army_from_aachen_11_1() {
    let pos = start();
    let ctx = Context::default();
    let d = destinations(data(), &pos, &[unit("ge-army-1")], sp("aachen"), &ctx);
    let liege = d.iter().find(|&&(s, _)| s == sp("liege")).expect("Liege, to besiege");
    assert_eq!(liege.1, 1);
    assert!(d.iter().all(|&(_, c)| (1..=3).contains(&c)));
    assert!(!ids(&d).contains(&"brussels"));
    assert_eq!(rule(&pos, &["ge-army-1"], "aachen", "koblenz", &ctx), "ok 1");
    // Four spaces away is beyond its 3 MP (11.1.5).
    let far = data()
        .map
        .graph
        .space_indices()
        .find(|&s| {
            let c = destinations(data(), &pos, &[unit("ge-army-1")], sp("aachen"), &ctx);
            !c.iter().any(|&(t, _)| t == s)
                && data()
                    .map
                    .graph
                    .exits(s)
                    .iter()
                    .any(|&(_, n)| c.iter().any(|&(t, k)| t == n && k == 3))
                && pos.units_in(s).next().is_none()
                && pos.space(s).control == Some(Side::Cp)
                && data().facts(s).fort == 0
        })
        .expect("a free German space four steps away");
    let far_id = data().map.graph.space(far).id.as_str();
    assert_eq!(rule(&pos, &["ge-army-1"], "aachen", far_id, &ctx), "11.1.5");
    // Into enemy units: refused with the rule.
    assert_eq!(rule(&pos, &["ge-army-2"], "koblenz", "sedan", &ctx), "11.1.7");
}

/// 11.1.8, 15.2.1: a corps alone may not enter Liege (fort LF 3); three corps together may, and
/// must stop there.
#[test]
fn an_enemy_fort_only_with_enough_to_besiege_it_11_1_8() {
    let mut pos = start();
    let ctx = Context::default();
    for c in ["ge-corps-4", "ge-corps-5", "ge-corps-6"] {
        put(&mut pos, c, "aachen");
    }
    assert_eq!(rule(&pos, &["ge-corps-4"], "aachen", "liege", &ctx), "11.1.8");
    assert_eq!(
        rule(
            &pos,
            &["ge-corps-4", "ge-corps-5", "ge-corps-6"],
            "aachen",
            "liege",
            &ctx
        ),
        "ok 1"
    );
    // One corps named three times is still one corps; the two sides never move together.
    let c4 = unit("ge-corps-4");
    let why = check(data(), &pos, &[c4, c4, c4], sp("aachen"), sp("liege"), &ctx).unwrap_err();
    assert_eq!(why.rule, "11.1.1");
    let why = check(data(), &pos, &[c4, unit("be-army-1")], sp("aachen"), sp("liege"), &ctx).unwrap_err();
    assert_eq!(why.rule, "11.1.1");
    let why = check(data(), &pos, &[9999], sp("aachen"), sp("liege"), &ctx).unwrap_err();
    assert_eq!(why.rule, "11.1.1");
    // They stop at Liege: Sedan beyond is not reached through it.
    let d = destinations(
        data(),
        &pos,
        &[unit("ge-corps-4"), unit("ge-corps-5"), unit("ge-corps-6")],
        sp("aachen"),
        &ctx,
    );
    assert!(!ids(&d).contains(&"sedan") && ids(&d).contains(&"liege"));
}

/// 11.1.9: until Race to the Sea (or CP War Status 4) a CP unit may pass through Amiens, Calais
/// and Ostend but not end there; 11.1.6: nor end in a space with an Attack marker.
#[test]
fn where_a_move_may_not_end_11_1_6_and_11_1_9() {
    let mut pos = start();
    put(&mut pos, "ge-army-9", "cambrai");
    let closed = Context::default();
    assert_eq!(rule(&pos, &["ge-army-9"], "cambrai", "calais", &closed), "11.1.9");
    let d = destinations(data(), &pos, &[unit("ge-army-9")], sp("cambrai"), &closed);
    assert!(
        !ids(&d).contains(&"amiens") && ids(&d).contains(&"rouen"),
        "through Amiens to Rouen: {:?}",
        ids(&d)
    );
    let open = Context {
        channel_ports_open: true,
        ..Context::default()
    };
    assert_eq!(rule(&pos, &["ge-army-9"], "cambrai", "calais", &open), "ok 1");
    let marked = [sp("chateau-thierry")];
    let attack = Context {
        attack_marked: &marked,
        ..Context::default()
    };
    assert_eq!(
        rule(&pos, &["ge-army-9"], "cambrai", "chateau-thierry", &attack),
        "11.1.6"
    );
}

#[test]
fn lines_countries_and_the_near_east_11_1_4_to_11_3() {
    let mut pos = start();
    let ctx = Context::default();
    // London-Calais is a British line: a French corps may not take it.
    put(&mut pos, "fr-corps-4", "london");
    assert_eq!(rule(&pos, &["fr-corps-4"], "london", "calais", &ctx), "11.1.4");
    put(&mut pos, "br-corps-4", "london");
    assert_eq!(rule(&pos, &["br-corps-4"], "london", "calais", &ctx), "ok 1");
    // Italy is neutral in 1914.
    assert_eq!(rule(&pos, &["fr-corps-3"], "grenoble", "turin", &ctx), "11.1.11");
    // The BEF stays in Britain, France, Belgium and Germany.
    put(&mut pos, "br-army-bef", "grenoble");
    pos.spaces[sp("turin").idx()].control = Some(Side::Ap);
    assert_eq!(rule(&pos, &["br-army-bef"], "grenoble", "turin", &ctx), "11.1.17");
    // The Near East: a British army other than the MEF and NE may not go; a corps may.
    put(&mut pos, "br-army-1", "cairo");
    put(&mut pos, "br-corps-5", "cairo");
    assert_eq!(rule(&pos, &["br-army-1"], "cairo", "alexandria", &ctx), "11.3.1");
    assert_eq!(rule(&pos, &["br-corps-5"], "cairo", "alexandria", &ctx), "ok 1");
}

/// 15.1.12: on turn 1 no Russian unit goes into a German fort space; from turn 2 an army may,
/// to besiege it.
#[test]
fn no_russian_into_a_german_fort_on_turn_1_15_1_12() {
    let mut pos = start();
    pos.units[unit("ge-army-8")].loc = Location::Aside;
    pos.units[unit("ge-corps-2")].loc = Location::Aside;
    put(&mut pos, "ru-army-1", "insterberg");
    let t1 = Context {
        turn: 1,
        ..Context::default()
    };
    assert_eq!(rule(&pos, &["ru-army-1"], "insterberg", "konigsberg", &t1), "15.1.12");
    let t2 = Context {
        turn: 2,
        ..Context::default()
    };
    assert_eq!(rule(&pos, &["ru-army-1"], "insterberg", "konigsberg", &t2), "ok 1");
}

/// 15.1.12 (2022; the seed's 15.1.11 "俄國部隊在1914八月turn不能對德軍要塞進攻或進行圍城"): in
/// August 1914 no Russian unit attacks a space with a German fort, though German units stand in
/// it; from turn 2 it may.
#[test]
fn no_russian_attack_on_a_german_fort_space_in_august_1914_15_1_12() {
    let mut pos = start();
    put(&mut pos, "ge-army-8", "konigsberg");
    put(&mut pos, "ru-army-1", "insterberg");
    let may = |turn| {
        let ctx = Context {
            turn,
            german_fort_first: true,
            ..Context::default()
        };
        crate::movement::may_attack_across(
            data(),
            &pos,
            unit("ru-army-1"),
            &ctx,
            sp("insterberg"),
            sp("konigsberg"),
        )
    };
    assert!(!may(1), "turn 1");
    assert!(may(2), "turn 2");
}

/// 11.1.14 (2022 11.1.15) "ANA在進入同盟區域時不能轉化那個區域…當ANA離開該區時,該區立刻變回為同盟控制":
/// the Arab Northern Army takes no CP space: Medina (a Turkish VP space) is the CP's while the
/// ANA stands in it and after it leaves, and the VP do not move.
#[test]
fn the_ana_converts_no_space_it_enters_11_1_14() {
    use crate::game::{Action, AP};
    use sandtable_core::game::Game;
    let mut g = common::first_round();
    let data = g.data();
    common::setup().enter(data, &mut g.pos, "tu", false, false);
    let (arabia, medina) = (sp("arabia"), sp("medina"));
    g.pos.units[unit("ana-corps")].loc = Location::Map(arabia);
    g.pos.spaces[arabia.idx()].control = Some(Side::Ap);
    // Medina emptied of its Turkish set-up.
    let turks: Vec<usize> = g.pos.units_in(medina).collect();
    for u in turks {
        g.pos.units[u].loc = Location::Aside;
    }
    assert_eq!(g.pos.space(medina).control, Some(Side::Cp));
    g.touch();
    let vp = g.pos.vp;
    let ana = unit("ana-corps") as u16;
    let allies_move = |g: &mut crate::game::PathsOfGlory, from, to| {
        common::allies_activate(g, &[(from, false)]);
        g.apply(
            AP,
            &Action::Move {
                from,
                units: vec![ana],
                to,
            },
        )
        .unwrap_or_else(|r| panic!("{}", r.text.en));
        g.apply(AP, &Action::EndMovement).expect("the move ends");
    };
    allies_move(&mut g, arabia, medina);
    assert_eq!(g.pos.units[ana as usize].loc, Location::Map(medina));
    assert_eq!(g.pos.space(medina).control, Some(Side::Cp), "the ANA in Medina");
    assert_eq!(g.pos.vp, vp);
    allies_move(&mut g, medina, arabia);
    assert_eq!(g.pos.space(medina).control, Some(Side::Cp), "the ANA gone");
    assert_eq!(g.pos.vp, vp);
}

/// The campaign's first turn with Turkey at war, two Russian corps in the Caucasus (and one in
/// Odessa), a Turkish corps in Grozny, the CP to act.
fn russians_in_the_caucasus() -> (crate::game::PathsOfGlory, [u16; 3]) {
    let mut g = common::first_round();
    let data = g.data();
    common::setup().enter(data, &mut g.pos, "tu", false, false);
    let corps: Vec<u16> = common::in_reserve(&g, "ru-corps", 3);
    for (&c, at) in corps.iter().zip(["caucasus", "caucasus", "odessa"]) {
        g.pos.units[c as usize].loc = Location::Map(sp(at));
    }
    let grozny = sp("grozny");
    let turks: Vec<usize> = g.pos.units_in(grozny).collect();
    for u in turks {
        g.pos.units[u].loc = Location::Aside;
    }
    g.pos.units[unit("tu-corps-1")].loc = Location::Map(grozny);
    g.pos.spaces[grozny.idx()].control = Some(Side::Cp);
    g.touch();
    (g, [corps[0], corps[1], corps[2]])
}

/// 12.1.8, 2022 11.3.2: one Russian corps a turn crosses between the Caucasus and the Near East,
/// attacking included: two corps of the Caucasus may not attack Grozny together.
#[test]
fn one_russian_corps_a_turn_attacks_across_from_the_caucasus_12_1_8() {
    use crate::game::{Action, AP};
    use sandtable_core::game::Game;
    let (mut g, [a, b, _]) = russians_in_the_caucasus();
    common::allies_activate(&mut g, &[(sp("caucasus"), true)]);
    g.apply(AP, &Action::Target { space: sp("grozny") }).expect("Grozny");
    g.apply(AP, &Action::Join { unit: a }).expect("the first corps");
    let r = g
        .check_action(AP, &Action::Join { unit: b })
        .expect_err("a second corps across");
    assert_eq!(r.rule, "11.3.2", "{}", r.text.en);
    assert!(!g.legal_list().contains(&Action::Join { unit: b }));
}

/// 11.3.2: a move between the Caucasus and Odessa (or Uman) is no crossing into the Near East:
/// after a corps comes from Odessa, another may still go on to Poti.
#[test]
fn a_move_from_odessa_to_the_caucasus_is_no_crossing_11_3_2() {
    use crate::game::{Action, AP};
    use sandtable_core::game::Game;
    let (mut g, [a, _, c]) = russians_in_the_caucasus();
    common::allies_activate(&mut g, &[(sp("odessa"), false), (sp("caucasus"), false)]);
    g.apply(
        AP,
        &Action::Move {
            from: sp("odessa"),
            units: vec![c],
            to: sp("caucasus"),
        },
    )
    .unwrap_or_else(|r| panic!("{}", r.text.en));
    assert!(!g.turn.caucasus_crossed);
    g.apply(
        AP,
        &Action::Move {
            from: sp("caucasus"),
            units: vec![a],
            to: sp("poti"),
        },
    )
    .unwrap_or_else(|r| panic!("{}", r.text.en));
    assert!(g.turn.caucasus_crossed);
}

/// 2022 11.3.2 "by move, retreat or attack/advance": the corps that attacked Grozny across the
/// Caucasus crossing may advance into it on the same use; after that, no other Russian corps
/// crosses that turn.
#[test]
fn the_corps_that_attacked_across_may_advance_across_2022_11_3_2() {
    use crate::game::{Action, Frame, AP};
    use sandtable_core::game::Game;
    let (mut g, [a, _, _]) = russians_in_the_caucasus();
    // The Turk in Grozny is a reduced corps: the Russian fire eliminates it.
    g.pos.units[unit("tu-corps-1")].full = false;
    g.touch();
    common::allies_activate(&mut g, &[(sp("caucasus"), true)]);
    g.apply(AP, &Action::Target { space: sp("grozny") }).expect("Grozny");
    g.apply(AP, &Action::Join { unit: a }).expect("the first corps");
    g.apply(AP, &Action::Resolve).expect("resolve");
    let advanced = common::play_until(&mut g, &mut [6u8, 1, 6, 1].into_iter(), |g| {
        matches!(g.frames().last(), Some(Frame::AdvanceUnits { .. })) || g.action.battle.is_none()
    });
    assert!(advanced, "the dice ran out");
    let into_grozny = Action::Advance {
        unit: a,
        route: vec![sp("grozny")],
    };
    assert!(g.legal_list().contains(&into_grozny), "{:?}", g.legal_list());
    g.apply(AP, &into_grozny).expect("the advance");
    assert!(g.turn.caucasus_crossed);
}

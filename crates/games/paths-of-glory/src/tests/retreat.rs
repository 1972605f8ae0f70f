//! 12.5 Retreats on the real map, from the August 1914 position.

use super::common;

use crate::retreat::{check, routes, Context};
use crate::state::{Location, Position};
use crate::Side;
use common::{data, sp, start, unit};
use sandtable_core::graph::Space;

fn ids(r: &[Vec<Space>]) -> Vec<Vec<&'static str>> {
    r.iter()
        .map(|route| route.iter().map(|&s| data().map.graph.space(s).id.as_str()).collect())
        .collect()
}

/// The book's example (12.5.5): a unit retreating two spaces from Sedan may go through Cambrai
/// and end in Chateau-Thierry, next to Sedan.
#[test]
fn two_spaces_from_sedan_through_cambrai_to_chateau_thierry_12_5_5() {
    let pos = start();
    let fifth = unit("fr-army-5");
    let r = routes(data(), &pos, fifth, sp("sedan"), 2, &Context::default(), |_| 0);
    let route = vec![sp("cambrai"), sp("chateau-thierry")];
    assert!(r.contains(&route), "{:?}", ids(&r));
    check(data(), &pos, fifth, sp("sedan"), 2, &Context::default(), |_| 0, &route).unwrap();
    // Never back into the defending space, never into enemy units (Koblenz).
    for route in &r {
        assert!(!route.contains(&sp("sedan")) && !route.contains(&sp("koblenz")));
    }
    let why = check(
        data(),
        &pos,
        fifth,
        sp("sedan"),
        1,
        &Context::default(),
        |_| 0,
        &[sp("koblenz")],
    )
    .unwrap_err();
    assert_eq!(why.rule, "12.5.5");
    assert!(why.text.en.contains("Koblenz"), "{}", why.text.en);
    assert!(why.text.zh.contains("科布伦茨"), "{}", why.text.zh);
    // 2022 12.5.4: Montenegro's corps never retreats; it is eliminated.
    let mn = unit("mn-corps");
    assert!(routes(data(), &pos, mn, sp("cetinje"), 1, &Context::default(), |_| 0).is_empty());
    let any = data().map.graph.exits(sp("cetinje"))[0].1;
    let why = check(data(), &pos, mn, sp("cetinje"), 1, &Context::default(), |_| 0, &[any]).unwrap_err();
    assert_eq!(why.rule, "12.5.4");
    // A route of the wrong length.
    let why = check(
        data(),
        &pos,
        fifth,
        sp("sedan"),
        2,
        &Context::default(),
        |_| 0,
        &[sp("cambrai")],
    )
    .unwrap_err();
    assert_eq!(why.rule, "12.5.2");
}

/// The order of preference (2022 12.5.5): a German army retreating from Sedan (taken by the CP)
/// goes to Koblenz or Metz, friendly and in supply, not to the Allied spaces around it.
#[test]
fn friendly_spaces_in_supply_come_first_12_5_5() {
    let mut pos = start();
    let ninth = unit("ge-army-9");
    pos.units[unit("fr-army-5")].loc = Location::Aside;
    pos.units[ninth].loc = Location::Map(sp("sedan"));
    pos.spaces[sp("sedan").idx()].control = Some(Side::Cp);
    let r = routes(data(), &pos, ninth, sp("sedan"), 1, &Context::default(), |_| 0);
    assert_eq!(ids(&r), [["koblenz"], ["metz"]]);
    let why = check(
        data(),
        &pos,
        ninth,
        sp("sedan"),
        1,
        &Context::default(),
        |_| 0,
        &[sp("cambrai")],
    )
    .unwrap_err();
    assert_eq!(why.rule, "12.5.5");
    assert!(why.text.en.contains("friendly and in supply first"));
    // With Koblenz and Metz full, Cambrai (enemy-controlled, no enemy unit) is the way.
    let mut full = pos.clone();
    let mut aside = (0..data().pieces.len())
        .filter(|&i| data().pieces[i].id.starts_with("ge-") && full.units[i].loc == Location::Aside)
        .collect::<Vec<_>>()
        .into_iter();
    for s in ["koblenz", "metz"] {
        while full.units_in(sp(s)).count() < 3 {
            let i = aside.next().expect("a German counter aside");
            full.units[i].loc = Location::Map(sp(s));
        }
    }
    let r = routes(data(), &full, ninth, sp("sedan"), 1, &Context::default(), |_| 0);
    assert!(r.iter().all(|route| full.space(route[0]).control == Some(Side::Ap)));
    assert!(!r.is_empty());
    let why = check(
        data(),
        &full,
        ninth,
        sp("sedan"),
        1,
        &Context::default(),
        |_| 0,
        &[sp("metz")],
    )
    .unwrap_err();
    assert_eq!(why.rule, "10.1.1");
}

/// A full space may be passed through but not ended in (12.5.5, 10.1.1): Chateau-Thierry with
/// three French corps in it.
#[test]
fn through_a_full_space_but_not_into_one() {
    let mut pos = start();
    let fifth = unit("fr-army-5");
    let chateau = sp("chateau-thierry");
    let corps: Vec<usize> = (0..data().pieces.len())
        .filter(|&u| data().pieces[u].id.starts_with("fr-corps") && pos.units[u].loc == Location::Reserve)
        .take(3)
        .collect();
    for u in corps {
        pos.units[u].loc = Location::Map(chateau);
    }
    assert_eq!(pos.units_in(chateau).count(), 3);
    let r = routes(data(), &pos, fifth, sp("sedan"), 1, &Context::default(), |_| 0);
    assert!(!r.contains(&vec![chateau]));
    let r = routes(data(), &pos, fifth, sp("sedan"), 2, &Context::default(), |_| 0);
    assert!(r.iter().any(|route| route[0] == chateau), "passed through");
    assert!(r.iter().all(|route| route[1] != chateau));
}

/// A unit that cannot retreat the whole distance has no route (12.5.4: it is eliminated), even
/// if it could go one space.
#[test]
fn no_route_when_the_retreat_cannot_be_completed_12_5_4() {
    let mut pos: Position = start();
    let fifth = unit("fr-army-5");
    // A German corps in every neighbour of Sedan but Cambrai, and in every neighbour of Cambrai
    // but Sedan (the Allied units there set aside, the spaces given to the CP).
    let mut ge = (0..data().pieces.len())
        .filter(|&i| data().pieces[i].id.starts_with("ge-corps") && pos.units[i].loc != Location::Map(sp("sedan")))
        .collect::<Vec<_>>()
        .into_iter();
    let ring: Vec<Space> = data()
        .map
        .graph
        .exits(sp("sedan"))
        .iter()
        .map(|&(_, n)| n)
        .filter(|&n| n != sp("cambrai"))
        .chain(
            data()
                .map
                .graph
                .exits(sp("cambrai"))
                .iter()
                .map(|&(_, n)| n)
                .filter(|&n| n != sp("sedan")),
        )
        .collect();
    for n in ring {
        for i in pos.units_in(n).collect::<Vec<_>>() {
            pos.units[i].loc = Location::Aside;
        }
        if pos.units_in(n).next().is_none() {
            pos.units[ge.next().unwrap()].loc = Location::Map(n);
        }
        pos.spaces[n.idx()].control = Some(Side::Cp);
    }
    let r1 = routes(data(), &pos, fifth, sp("sedan"), 1, &Context::default(), |_| 0);
    assert_eq!(ids(&r1), [["cambrai"]]);
    let r2 = routes(data(), &pos, fifth, sp("sedan"), 2, &Context::default(), |_| 0);
    assert!(r2.is_empty(), "{:?}", ids(&r2));
}

/// 16.4.9 (2022): after Brest-Litovsk a Russian retreat neither enters a space holding other
/// Allied units nor leaves Russia, Germany, Turkey, Austria-Hungary and Romania: a Russian corps
/// beaten in Koblenz (the Allies' in this position) may not fall back on the French 5th Army in
/// Sedan, nor into Belgium.
#[test]
fn after_brest_litovsk_russians_retreat_apart_from_the_other_allies_16_4_9() {
    let mut pos = start();
    for id in ["ge-army-2", "ge-army-3"] {
        pos.units[unit(id)].loc = Location::Aside;
    }
    pos.spaces[sp("koblenz").idx()].control = Some(Side::Ap);
    let russian = unit("ru-corps-1");
    pos.units[russian].loc = Location::Map(sp("koblenz"));
    let before = routes(data(), &pos, russian, sp("koblenz"), 1, &Context::default(), |_| 0);
    assert!(before.contains(&vec![sp("sedan")]), "{:?}", ids(&before));
    let treaty = Context {
        movement: crate::movement::Context {
            brest_litovsk: true,
            ..Default::default()
        },
        ..Context::default()
    };
    let after = routes(data(), &pos, russian, sp("koblenz"), 1, &treaty, |_| 0);
    assert!(!after.is_empty(), "Frankfurt, in Germany, is open");
    for route in &after {
        assert!(
            !route.contains(&sp("sedan")) && !route.contains(&sp("liege")),
            "{:?}",
            ids(&after)
        );
    }
}

/// 12.5.5, 10.1.1: a unit that has already retreated into a space counts there once. The French
/// 1st Army and 1st Corps, beaten one space back out of Essen (a 2 to a 1), have only Kassel to
/// go to (Aachen is the attacker's, Bremen holds a German corps), and a French corps already
/// stands in Kassel: once the army is there, the corps may still end there, the third unit.
#[test]
fn a_unit_that_retreated_is_counted_once_against_the_stacking_limit_12_5_5() {
    use crate::game::{Action, AP};
    use sandtable_core::game::Game;
    let kassel = sp("kassel");
    let place = |g: &mut crate::game::PathsOfGlory, army: u16, corps: u16| {
        for u in [army, corps] {
            g.pos.units[u as usize].loc = Location::Map(sp("essen"));
            g.pos.units[u as usize].full = true;
        }
        let waiting = common::in_reserve(g, "fr-corps", 1)[0];
        g.pos.units[waiting as usize].loc = Location::Map(kassel);
        g.pos.spaces[kassel.idx()].control = Some(Side::Ap);
    };
    let (mut g, army, corps) = common::beaten_in_essen(5, false, [2, 1], place).expect("the dice");
    assert_eq!(g.action.battle.as_ref().and_then(|b| b.retreat), Some(1));
    let retreat = |unit| Action::Retreat {
        unit,
        route: vec![kassel],
    };
    g.apply(AP, &retreat(army)).expect("the army to Kassel");
    assert_eq!(g.pos.units_in(kassel).count(), 2);
    assert!(g.legal_list().contains(&retreat(corps)), "{:?}", g.legal_list());
    g.apply(AP, &retreat(corps))
        .expect("the corps to Kassel, the third unit there");
    assert_eq!(g.pos.units_in(kassel).count(), 3);
}

//! 17.0 Replacements and 9.5.3.3 army placement, on the August 1914 position.

use super::common;

use crate::placement::{army_spaces, Context};
use crate::replacements::{apply, check, Purchase};
use crate::state::Location;
use crate::tables::Tables;
use crate::Side;
use common::{data, sp, start, unit};

fn tables() -> Tables {
    Tables::load().expect("the tables load")
}

fn names(v: &[sandtable_core::graph::Space]) -> Vec<&'static str> {
    v.iter().map(|&s| data().map.graph.space(s).id.as_str()).collect()
}

#[test]
fn flipping_and_rebuilding_17_1_4() {
    let mut pos = start();
    let t = tables();
    let ctx = Context::default();
    // The reduced 7th Army at Mulhouse: 1 RP to flip.
    assert_eq!(
        check(data(), &t, &pos, 3, Purchase::FlipArmy(unit("ge-army-7")), &ctx),
        Ok(1)
    );
    apply(data(), &mut pos, Purchase::FlipArmy(unit("ge-army-7")));
    assert!(pos.units[unit("ge-army-7")].full);
    // Now full: refused.
    let why = check(data(), &t, &pos, 3, Purchase::FlipArmy(unit("ge-army-7")), &ctx).unwrap_err();
    assert_eq!(why.rule, "17.1.4");
    // Two eliminated corps back to the Reserve Box reduced, for 1 RP.
    pos.units[unit("ge-corps-4")].loc = Location::Eliminated;
    pos.units[unit("ge-corps-5")].loc = Location::Eliminated;
    let p = Purchase::CorpsReduced(unit("ge-corps-4"), Some(unit("ge-corps-5")));
    assert_eq!(check(data(), &t, &pos, 1, p, &ctx), Ok(1));
    apply(data(), &mut pos, p);
    assert_eq!(pos.units[unit("ge-corps-5")].loc, Location::Reserve);
    assert!(!pos.units[unit("ge-corps-5")].full);
    // One purchase, one nation's points.
    pos.units[unit("ah-corps-6")].loc = Location::Eliminated;
    pos.units[unit("ge-corps-6")].loc = Location::Eliminated;
    let why = check(
        data(),
        &t,
        &pos,
        3,
        Purchase::CorpsReduced(unit("ge-corps-6"), Some(unit("ah-corps-6"))),
        &ctx,
    )
    .unwrap_err();
    assert_eq!(why.rule, "17.1.1.1");
    // 17.1.7: the BEF never comes back.
    pos.units[unit("br-army-bef")].loc = Location::Eliminated;
    let why = check(
        data(),
        &t,
        &pos,
        3,
        Purchase::ArmyReduced(unit("br-army-bef"), sp("london")),
        &ctx,
    )
    .unwrap_err();
    assert_eq!(why.rule, "17.1.7");
}

/// 17.1.5, 9.5.3.3: a recreated army enters at its capital or a supply source of its nation.
#[test]
fn recreating_an_army_17_1_5() {
    let mut pos = start();
    let t = tables();
    let ctx = Context::default();
    pos.units[unit("ge-army-1")].loc = Location::Eliminated;
    assert_eq!(
        names(&army_spaces(data(), &pos, unit("ge-army-1"), &ctx)),
        ["essen", "berlin", "breslau"]
    );
    assert_eq!(
        check(
            data(),
            &t,
            &pos,
            2,
            Purchase::ArmyFull(unit("ge-army-1"), sp("berlin")),
            &ctx
        ),
        Ok(2)
    );
    let why = check(
        data(),
        &t,
        &pos,
        1,
        Purchase::ArmyFull(unit("ge-army-1"), sp("berlin")),
        &ctx,
    )
    .unwrap_err();
    assert!(why.text.en.contains("costs 2 RP; 1 left"), "{}", why.text.en);
    let why = check(
        data(),
        &t,
        &pos,
        2,
        Purchase::ArmyReduced(unit("ge-army-1"), sp("metz")),
        &ctx,
    )
    .unwrap_err();
    assert_eq!(why.rule, "17.1.5");
    // The French at Paris, and at Orleans only once Paris is full.
    pos.units[unit("fr-army-10")].loc = Location::Eliminated;
    assert_eq!(names(&army_spaces(data(), &pos, unit("fr-army-10"), &ctx)), ["paris"]);
    pos.units[unit("fr-corps-4")].loc = Location::Map(sp("paris"));
    pos.units[unit("fr-corps-5")].loc = Location::Map(sp("paris"));
    assert_eq!(names(&army_spaces(data(), &pos, unit("fr-army-10"), &ctx)), ["orleans"]);
    // An American army at any Allied French port.
    let us = names(&army_spaces(data(), &pos, unit("us-army-1"), &ctx));
    assert!(
        us.contains(&"cherbourg") && us.contains(&"le-havre") && !us.contains(&"paris"),
        "{us:?}"
    );
}

/// 17.1.6: the ANA is rebuilt in Arabia, not the Reserve Box.
#[test]
fn the_ana_comes_back_in_arabia_17_1_6() {
    let mut pos = start();
    let t = tables();
    let ctx = Context::default();
    pos.units[unit("ana-corps")].loc = Location::Eliminated;
    // Arabia is nobody's until Turkey enters.
    let why = check(data(), &t, &pos, 3, Purchase::CorpsFull(unit("ana-corps")), &ctx).unwrap_err();
    assert_eq!(why.rule, "17.1.6");
    pos.spaces[sp("arabia").idx()].control = Some(Side::Ap);
    assert_eq!(
        check(data(), &t, &pos, 3, Purchase::CorpsFull(unit("ana-corps")), &ctx),
        Ok(1)
    );
    apply(data(), &mut pos, Purchase::CorpsFull(unit("ana-corps")));
    assert_eq!(pos.units[unit("ana-corps")].loc, Location::Map(sp("arabia")));
}

/// 17.1.3: no RP spent while the nation's capital is the enemy's; Belgium is exempt.
#[test]
fn a_lost_capital_17_1_3() {
    let mut pos = start();
    let t = tables();
    let ctx = Context::default();
    pos.spaces[sp("paris").idx()].control = Some(Side::Cp);
    pos.units[unit("fr-corps-4")].loc = Location::Eliminated;
    let why = check(data(), &t, &pos, 3, Purchase::CorpsFull(unit("fr-corps-4")), &ctx).unwrap_err();
    assert_eq!(why.rule, "17.1.3");
    pos.spaces[sp("brussels").idx()].control = Some(Side::Cp);
    pos.units[unit("be-corps")].loc = Location::Eliminated;
    assert_eq!(
        check(data(), &t, &pos, 3, Purchase::CorpsFull(unit("be-corps")), &ctx),
        Ok(1)
    );
}

/// 2022 17.1.4.1: no replacement for a unit supplied only through another nation's sources: with
/// Turkey at war and Bulgaria neutral, a reduced German corps in Constantinople traces only to
/// Constantinople, a Turkish source; a reduced Turkish corps beside it is rebuilt.
#[test]
fn a_german_corps_supplied_only_through_constantinople_is_not_replaced_17_1_4_1() {
    let mut pos = start();
    common::setup().enter(data(), &mut pos, "tu", false, false);
    let t = tables();
    let constantinople = sp("constantinople");
    let (ge, tu) = (unit("ge-corps-6"), unit("tu-corps-1"));
    for u in [ge, tu] {
        pos.units[u].loc = Location::Map(constantinople);
        pos.units[u].full = false;
    }
    let ctx = Context {
        foreign_sources_barred: true,
        ..Context::default()
    };
    let why = check(data(), &t, &pos, 3, Purchase::FlipCorps(ge, None), &ctx).unwrap_err();
    assert_eq!(why.rule, "2022 17.1.4.1");
    assert!(check(data(), &t, &pos, 3, Purchase::FlipCorps(tu, None), &ctx).is_ok());
    // A game begun before data edition 3 replaces it.
    assert!(check(data(), &t, &pos, 3, Purchase::FlipCorps(ge, None), &Context::default()).is_ok());
}

//! 13.0 Strategic Redeployment on the real map, from the August 1914 position.

use super::common;

use crate::redeployment::{check, cost, destinations, Context, NearEastUsed, Place};
use crate::state::Location;
use crate::Side;
use common::{data, sp, start, unit};

fn id(p: &Place) -> &'static str {
    match p {
        Place::Map(s) => data().map.graph.space(*s).id.as_str(),
        Place::Reserve => "reserve",
    }
}

fn to(pos: &crate::state::Position, u: &str, ctx: &Context) -> Vec<&'static str> {
    destinations(data(), pos, unit(u), ctx).iter().map(id).collect()
}

#[test]
fn a_corps_costs_1_an_army_4_13_1_2() {
    assert_eq!(cost(data(), unit("ge-corps-1")), 1);
    assert_eq!(cost(data(), unit("ge-army-1")), 4);
}

/// 13.1.6: overland through friendly-controlled spaces free of enemy units; a Russian only
/// inside Russia; 13.1.9: a corps to the Reserve Box.
#[test]
fn overland_and_to_the_reserve_box_13_1_6_13_1_9() {
    let pos = start();
    let ctx = Context::default();
    let bremen_corps = to(&pos, "ge-corps-1", &ctx);
    assert!(bremen_corps.contains(&"breslau") && bremen_corps.contains(&"metz"));
    assert!(bremen_corps.contains(&"reserve"));
    assert!(!bremen_corps.contains(&"sedan"), "an Allied space");
    // The Austro-Hungarian and German spaces are one friendly network.
    assert!(bremen_corps.contains(&"vienna"));
    // An army never goes to the Reserve Box, nor by sea.
    let army = to(&pos, "ge-army-1", &ctx);
    assert!(!army.contains(&"reserve"));
    let why = check(data(), &pos, unit("ge-army-1"), Place::Reserve, &ctx).unwrap_err();
    assert_eq!(why.rule, "13.1.9");
    // A Russian corps stays inside Russia.
    for p in destinations(data(), &pos, unit("ru-corps-1"), &ctx) {
        if let Place::Map(s) = p {
            assert_eq!(data().facts(s).nation.as_deref(), Some("ru"), "{}", id(&p));
        }
    }
}

/// 13.1.7: a corps by sea from port to port; 13.2.1: one British corps a turn into or out of
/// the Near East that way.
#[test]
fn by_sea_and_the_near_east_13_1_7_13_2() {
    let pos = start();
    let ctx = Context::default();
    let port_said = to(&pos, "br-corps-1", &ctx);
    assert!(port_said.contains(&"london"), "{port_said:?}");
    let used = Context {
        near_east: NearEastUsed {
            british: true,
            ..NearEastUsed::default()
        },
        ..Context::default()
    };
    assert!(!to(&pos, "br-corps-1", &used).contains(&"london"));
    let why = check(data(), &pos, unit("br-corps-1"), Place::Map(sp("london")), &used).unwrap_err();
    assert_eq!(why.rule, "13.2");
    // Within the Near East it is free: Port Said to Cairo overland.
    assert!(to(&pos, "br-corps-1", &used).contains(&"cairo"));
}

/// 13.1.8: from the Reserve Box to a supplied space with a unit of the nationality, or a corps
/// to its capital or supply source; 13.1.10: not while the capital is the enemy's.
#[test]
fn from_the_reserve_box_13_1_8_13_1_10() {
    let mut pos = start();
    let ctx = Context::default();
    let fr = to(&pos, "fr-corps-4", &ctx);
    for s in ["verdun", "nancy", "paris", "grenoble", "belfort"] {
        assert!(fr.contains(&s), "{s}: {fr:?}");
    }
    assert!(!fr.contains(&"brussels"), "only British there");
    assert!(!fr.contains(&"lyon"), "no French unit, not the capital");
    // Belfort full (three units): not there.
    pos.units[unit("fr-corps-5")].loc = Location::Map(sp("belfort"));
    assert!(!to(&pos, "fr-corps-4", &ctx).contains(&"belfort"));
    // Paris in CP hands: no French corps leaves the Reserve Box.
    pos.spaces[sp("paris").idx()].control = Some(Side::Cp);
    assert!(to(&pos, "fr-corps-4", &ctx).is_empty());
    let why = check(data(), &pos, unit("fr-corps-4"), Place::Map(sp("verdun")), &ctx).unwrap_err();
    assert_eq!(why.rule, "13.1.11");
    // Belgium is exempt: its corps comes out to Antwerp while Brussels is lost.
    pos.spaces[sp("brussels").idx()].control = Some(Side::Cp);
    assert!(to(&pos, "be-corps", &ctx).contains(&"antwerp"));
    // A US corps to any Allied French port (with Paris Allied again).
    pos.spaces[sp("paris").idx()].control = Some(Side::Ap);
    pos.units[unit("us-corps-1")].loc = Location::Reserve;
    let us = to(&pos, "us-corps-1", &ctx);
    assert!(us.contains(&"cherbourg") && us.contains(&"le-havre"), "{us:?}");
}

/// 2022 13.1.11: Montenegro's corps goes only between Cetinje and the Reserve Box; 13.1.5: a
/// unit out of supply does not redeploy.
#[test]
fn montenegro_and_supply() {
    let mut pos = start();
    let ctx = Context::default();
    assert_eq!(to(&pos, "mn-corps", &ctx), ["reserve"]);
    pos.units[unit("mn-corps")].loc = Location::Reserve;
    assert_eq!(to(&pos, "mn-corps", &ctx), ["cetinje"]);
    // Szawli cut off: its corps may not redeploy.
    for &(_, n) in data().map.graph.exits(sp("szawli")) {
        pos.spaces[n.idx()].control = Some(Side::Cp);
    }
    assert!(to(&pos, "ru-corps-2", &ctx).is_empty());
    let why = check(data(), &pos, unit("ru-corps-2"), Place::Reserve, &ctx).unwrap_err();
    assert_eq!(why.rule, "13.1.5");
}

/// 2022 11.1.9 and 11.3.1 bind redeployment too: no CP unit into Amiens, Calais or Ostend before
/// Race to the Sea; no army but the Near East ones into the Near East.
#[test]
fn the_channel_ports_and_the_near_east_for_redeployment() {
    let mut pos = start();
    // The CP holds Liege (its fort fallen), Brussels (the BEF gone) and the Channel coast.
    pos.units[unit("br-army-bef")].loc = Location::Aside;
    pos.spaces[sp("liege").idx()].fort = crate::state::Fort::Destroyed;
    for s in ["liege", "brussels", "amiens", "calais", "ostend", "cambrai"] {
        pos.spaces[sp(s).idx()].control = Some(Side::Cp);
    }
    let closed = Context::default();
    let d = to(&pos, "ge-corps-1", &closed);
    assert!(
        d.contains(&"cambrai") && !d.contains(&"amiens") && !d.contains(&"calais"),
        "{d:?}"
    );
    let open = Context {
        channel_ports_open: true,
        ..Context::default()
    };
    assert!(to(&pos, "ge-corps-1", &open).contains(&"amiens"));
    // A British army at Port Said may not redeploy to Cairo; the British corps there may.
    pos.units[unit("br-army-1")].loc = Location::Map(sp("port-said"));
    assert!(!to(&pos, "br-army-1", &closed).contains(&"cairo"));
    assert!(to(&pos, "br-corps-1", &closed).contains(&"cairo"));
}

/// 16.4.9 (2022): after Brest-Litovsk neither Russians nor the other Allies pass through a space
/// the other holds: a British corps in Sedan reaches Frankfurt only through Koblenz, where a
/// Russian corps stands (the Germans gone from Koblenz, both spaces the Allies').
#[test]
fn after_brest_litovsk_no_redeployment_passes_through_a_space_the_russians_hold_16_4_9() {
    let mut pos = start();
    for id in ["ge-army-2", "ge-army-3"] {
        pos.units[unit(id)].loc = Location::Aside;
    }
    for s in ["koblenz", "frankfurt"] {
        pos.spaces[sp(s).idx()].control = Some(Side::Ap);
    }
    pos.units[unit("ru-corps-1")].loc = Location::Map(sp("koblenz"));
    pos.units[unit("br-corps-1")].loc = Location::Map(sp("sedan"));
    let before = Context::default();
    assert!(
        to(&pos, "br-corps-1", &before).contains(&"frankfurt"),
        "through Koblenz"
    );
    let ending_only = Context {
        brest_litovsk: true,
        ..Context::default()
    };
    let reach = to(&pos, "br-corps-1", &ending_only);
    assert!(!reach.contains(&"koblenz"), "never ends with the Russians");
    assert!(
        reach.contains(&"frankfurt"),
        "a game begun before edition 3 passes through"
    );
    let after = Context {
        brest_litovsk: true,
        brest_litovsk_through: true,
        ..Context::default()
    };
    let reach = to(&pos, "br-corps-1", &after);
    assert!(!reach.contains(&"frankfurt"), "{reach:?}");
    let why = check(data(), &pos, unit("br-corps-1"), Place::Map(sp("frankfurt")), &after).unwrap_err();
    assert_eq!(why.rule, "16.4.9");
    assert!(why.text.en.contains("pass through"), "{}", why.text.en);
}

/// 2022 13.1.12: no redeployment to or from the Reserve Box for a unit supplied only through
/// another nation's sources: with Turkey at war and Bulgaria neutral, a German corps in
/// Constantinople traces only to Constantinople, a Turkish source.
#[test]
fn a_german_corps_supplied_only_through_constantinople_stays_out_of_the_reserve_box_13_1_12() {
    let mut pos = start();
    common::setup().enter(data(), &mut pos, "tu", false, false);
    let constantinople = sp("constantinople");
    let ge = unit("ge-corps-6");
    pos.units[ge].loc = Location::Map(constantinople);
    let barred = Context {
        foreign_sources_barred: true,
        ..Context::default()
    };
    assert!(
        to(&pos, "ge-corps-6", &Context::default()).contains(&"reserve"),
        "as before edition 3"
    );
    assert!(!to(&pos, "ge-corps-6", &barred).contains(&"reserve"));
    let why = check(data(), &pos, ge, Place::Reserve, &barred).unwrap_err();
    assert_eq!(why.rule, "2022 13.1.12");
    // Nor does a German corps come out of the Reserve Box to join the German one there.
    let other = unit("ge-corps-7");
    pos.units[other].loc = Location::Reserve;
    let by_the_box =
        |pos: &crate::state::Position, ctx: &Context| to(pos, "ge-corps-7", ctx).contains(&"constantinople");
    assert!(
        by_the_box(&pos, &Context::default()),
        "{:?}",
        to(&pos, "ge-corps-7", &Context::default())
    );
    assert!(!by_the_box(&pos, &barred));
    // A Turkish corps there goes to the Reserve Box: Constantinople is its own source.
    let tu = unit("tu-corps-1");
    pos.units[tu].loc = Location::Map(constantinople);
    assert!(to(&pos, "tu-corps-1", &barred).contains(&"reserve"));
}

/// 2022 13.2.1 "ANA may neither SR to the Reserve Box nor sea-SR out of the NE": the ANA corps
/// in Port Said, where a British corps may sail for London, sails nowhere out of the Near East
/// (its overland way within it stays open).
#[test]
fn the_ana_never_sails_out_of_the_near_east_2022_13_2_1() {
    let mut pos = start();
    pos.units[unit("ana-corps")].loc = Location::Map(sp("port-said"));
    let ctx = Context {
        sieges_and_the_ana: true,
        ..Context::default()
    };
    let ana = to(&pos, "ana-corps", &ctx);
    assert!(to(&pos, "br-corps-1", &ctx).contains(&"london"));
    assert!(!ana.contains(&"london") && !ana.contains(&"reserve"), "{ana:?}");
    assert!(ana.contains(&"cairo"), "{ana:?}");
    let why = check(data(), &pos, unit("ana-corps"), Place::Map(sp("london")), &ctx).unwrap_err();
    assert_eq!(why.rule, "13.2");
}

/// 2022 13.1.5 "never out of it if that would end the siege": of the German 8th Army and 2nd
/// Corps besieging Warsaw's Russian fort (LF 2; Plock behind them taken), the corps may
/// redeploy away, the army may not (the corps alone is no siege), nor the last besieger.
#[test]
fn no_redeployment_ends_a_siege_2022_13_1_5() {
    let mut pos = start();
    let (warsaw, plock) = (sp("warsaw"), sp("plock"));
    let russians: Vec<usize> = pos.units_in(warsaw).chain(pos.units_in(plock)).collect();
    for u in russians {
        pos.units[u].loc = Location::Aside;
    }
    pos.spaces[plock.idx()].control = Some(Side::Cp);
    let (army, corps) = (unit("ge-army-8"), unit("ge-corps-2"));
    for u in [army, corps] {
        pos.units[u].loc = Location::Map(warsaw);
    }
    pos.spaces[warsaw.idx()].fort = crate::state::Fort::Besieged;
    pos.spaces[warsaw.idx()].trench = None;
    let ctx = Context {
        sieges_and_the_ana: true,
        ..Context::default()
    };
    assert!(to(&pos, "ge-corps-2", &ctx).contains(&"thorn"), "the corps may go");
    assert!(destinations(data(), &pos, army, &ctx).is_empty(), "the army may not");
    let why = check(data(), &pos, army, Place::Map(sp("thorn")), &ctx).unwrap_err();
    assert_eq!(why.rule, "13.1.5", "{}", why.text.en);
    pos.units[corps].loc = Location::Aside;
    assert!(destinations(data(), &pos, army, &ctx).is_empty(), "nor the last");
}

/// 11.1.14 "任何同盟區域 (除了被圍城的區域) 當ANA佔領時視為協約區域" (data edition 6): a British corps
/// in Aqaba (taken, its fort destroyed) redeploys through Beersheba, the CP's space the ANA
/// stands in, to the Allies' Sinai, but not to Beersheba itself; a game begun on edition 5 finds
/// no way through.
#[test]
fn a_redeployment_passes_through_the_space_the_ana_holds_11_1_14() {
    let mut g = common::ana_in_beersheba();
    let places = |g: &crate::game::PathsOfGlory| {
        let occupancy = crate::supply::Occupancy::of(data(), &g.pos);
        to(&g.pos, "br-corps-1", &crate::round::sr_context(g, &occupancy))
    };
    let now = places(&g);
    assert!(now.contains(&"sinai"), "{now:?}");
    let occupancy = crate::supply::Occupancy::of(data(), &g.pos);
    let ctx = crate::round::sr_context(&g, &occupancy);
    check(data(), &g.pos, unit("br-corps-1"), Place::Map(sp("sinai")), &ctx).expect("to Sinai");
    assert!(!now.contains(&"beersheba"), "{now:?}");
    g.scenario.edition = 5;
    assert!(!places(&g).contains(&"sinai"), "edition 5");
}

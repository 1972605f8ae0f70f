//! 14.0 Supply on the real map, from the August 1914 position and positions changed from it.

use super::common;

use crate::state::{Fort, Location, Position};
use crate::supply::{in_supply, tracer_of, Context, Tracer};
use crate::{Nation, Side};
use common::{data, sp, start, unit};
use sandtable_core::graph::Space;

fn supplied(pos: &Position, id: &str) -> bool {
    let i = unit(id);
    let Location::Map(at) = pos.units[i].loc else {
        panic!("{id} is not on the map")
    };
    in_supply(data(), pos, tracer_of(data(), i), at, &Context::default())
}

/// Gives every space next to `s` to `side`.
fn surround(pos: &mut Position, s: Space, side: Side) {
    for &(_, n) in data().map.graph.exits(s) {
        pos.spaces[n.idx()].control = Some(side);
    }
}

#[test]
fn every_unit_of_the_august_1914_set_up_is_in_supply() {
    let pos = start();
    for (i, u) in pos.units.iter().enumerate() {
        if let Location::Map(at) = u.loc {
            let p = &data().pieces[i];
            assert!(
                in_supply(data(), &pos, tracer_of(data(), i), at, &Context::default()),
                "{} at {} is out of supply",
                p.id,
                data().map.graph.space(at).id
            );
        }
    }
}

#[test]
fn a_unit_cut_off_by_enemy_control_is_out_of_supply_14_1_2() {
    let mut pos = start();
    assert!(supplied(&pos, "ru-army-1"));
    // Every space around Kovno in CP hands.
    surround(&mut pos, sp("kovno"), Side::Cp);
    assert!(!supplied(&pos, "ru-army-1"));
    // A German army there would trace through the same spaces to a CP source.
    pos.units[unit("ru-army-1")].loc = Location::Aside;
    pos.units[unit("ge-army-9")].loc = Location::Map(sp("kovno"));
    pos.spaces[sp("kovno").idx()].control = Some(Side::Cp);
    assert!(supplied(&pos, "ge-army-9"));
}

#[test]
fn enemy_units_block_a_supply_path_14_1_3() {
    let mut pos = start();
    // A Russian unit in every space next to Insterberg, control unchanged: the 8th Army
    // there has no way out.
    let ins = sp("insterberg");
    assert!(supplied(&pos, "ge-army-8"));
    for &(_, n) in data().map.graph.exits(ins) {
        let free = data()
            .pieces
            .iter()
            .enumerate()
            .find(|(i, p)| p.side == Side::Ap && p.nation == Nation::Ru && pos.units[*i].loc == Location::Aside)
            .map(|(i, _)| i)
            .expect("a Russian counter aside");
        pos.units[free].loc = Location::Map(n);
    }
    assert!(!supplied(&pos, "ge-army-8"), "every way out holds an enemy unit");
}

#[test]
fn besieged_forts_14_1_2_and_14_1_3() {
    let mut pos = start();
    // The 2nd Army at Koblenz: with Sedan, Liege, Aachen and Frankfurt in Allied hands its one
    // way home is through the German fort of Metz, and none once Metz is besieged.
    let koblenz = sp("koblenz");
    let metz = sp("metz");
    assert!(data().facts(metz).fort > 0 && data().facts(metz).faction == Side::Cp);
    for &(_, n) in data().map.graph.exits(koblenz) {
        if n != metz {
            pos.spaces[n.idx()].control = Some(Side::Ap);
        }
    }
    assert!(supplied(&pos, "ge-army-2"));
    pos.spaces[metz.idx()].fort = Fort::Besieged;
    assert!(!supplied(&pos, "ge-army-2"), "not through a besieged friendly fort");
    // An Allied path may go through a besieged German fort (Metz, held by the CP, besieged).
    let mut pos = start();
    let metz = sp("metz");
    pos.units[unit("ge-army-4")].loc = Location::Aside;
    pos.units[unit("ge-army-5")].loc = Location::Aside;
    pos.spaces[metz.idx()].fort = Fort::Besieged;
    assert_eq!(pos.space(metz).control, Some(Side::Cp));
    let t = Tracer::Unit {
        side: Side::Ap,
        nation: Nation::Fr,
        lines: Nation::Fr,
        beach: false,
    };
    // A French army beyond Metz, with every other way closed.
    let beyond = data()
        .map
        .graph
        .exits(metz)
        .iter()
        .map(|&(_, n)| n)
        .find(|&n| n != sp("nancy") && n != sp("verdun"))
        .expect("a space beyond Metz");
    let mut closed = pos.clone();
    for &(_, n) in data().map.graph.exits(beyond) {
        if n != metz {
            closed.spaces[n.idx()].control = Some(Side::Cp);
        }
    }
    closed.spaces[beyond.idx()].control = Some(Side::Ap);
    assert!(
        in_supply(data(), &closed, t, beyond, &Context::default()),
        "through the besieged enemy fort"
    );
    closed.spaces[metz.idx()].fort = Fort::Intact;
    assert!(!in_supply(data(), &closed, t, beyond, &Context::default()));
}

#[test]
fn by_sea_through_two_ports_at_most_14_1_4() {
    let pos = start();
    // The British corps at Basra: Basra is a port; by sea to London.
    assert!(supplied(&pos, "br-corps-3"));
    // Close every Allied port but Basra and London: still one sea leg.
    let mut closed = pos.clone();
    for s in data().map.graph.space_indices() {
        let id = data().map.graph.space(s).id.as_str();
        if data().facts(s).port_ap && id != "basra" && id != "london" {
            closed.spaces[s.idx()].fort = Fort::Besieged;
        }
    }
    assert!(supplied(&closed, "br-corps-3"));
    // Basra besieged: no port, and the land is cut off from London.
    closed.spaces[sp("basra").idx()].fort = Fort::Besieged;
    assert!(!supplied(&closed, "br-corps-3"));
    // Russians never trace by sea (2022 14.2.2): a Russian corps at Basra is out of supply.
    let t = Tracer::Unit {
        side: Side::Ap,
        nation: Nation::Ru,
        lines: Nation::Ru,
        beach: false,
    };
    assert!(!in_supply(data(), &pos, t, sp("basra"), &Context::default()));
}

#[test]
fn units_always_in_supply_14_1_5_and_14_1_6() {
    let mut pos = start();
    // Montenegro's corps at Cetinje with every neighbour in CP hands.
    surround(&mut pos, sp("cetinje"), Side::Cp);
    assert!(supplied(&pos, "mn-corps"));
    // A Serbian army inside Serbia, cut off: in supply; the same army outside Serbia: not.
    surround(&mut pos, sp("valjevo"), Side::Cp);
    assert!(supplied(&pos, "sb-army-2"));
    let sofia_way = sp("sofia");
    let t = tracer_of(data(), unit("sb-army-2"));
    pos.spaces[sofia_way.idx()].control = Some(Side::Ap);
    surround(&mut pos, sofia_way, Side::Cp);
    assert!(!in_supply(data(), &pos, t, sofia_way, &Context::default()));
}

/// 9.5.3.5: an MEF beach with the Beachhead marker is an Allied port for the MEF army and the
/// British and Australian corps (9.2.7.1), so the MEF landed at Gallipoli's beach traces by sea
/// to London; a French corps there does not.
#[test]
fn the_mef_beachhead_is_a_port_9_5_3_5() {
    let mut pos = start();
    let beach = data().map.space_set("mef-beaches")[0];
    pos.spaces[beach.idx()].control = Some(Side::Ap);
    pos.units[unit("br-army-mef")].loc = Location::Map(beach);
    let open = [beach];
    let ctx = Context {
        open_beaches: &open,
        ..Context::default()
    };
    let mef = tracer_of(data(), unit("br-army-mef"));
    assert!(in_supply(data(), &pos, mef, beach, &ctx));
    assert!(
        !in_supply(data(), &pos, mef, beach, &Context::default()),
        "no marker, no port"
    );
    let fr = tracer_of(data(), unit("fr-corps-4"));
    assert!(!in_supply(data(), &pos, fr, beach, &ctx));
}

/// 11.1.14 "任何同盟區域 (除了被圍城的區域) 當ANA佔領時視為協約區域" (2022 11.1.15; data edition 6): a
/// CP space the Arab Northern Army stands in counts as Allied while it is there. A British corps
/// in Aqaba (taken, its fort destroyed) traces supply through Beersheba (the CP's, its fort
/// destroyed) to the Allies' Sinai and Port Said while the ANA holds Beersheba, and not once
/// the ANA is back in Arabia. A game begun on edition 5 traces no supply through the ANA's space.
#[test]
fn other_allies_trace_supply_through_the_space_the_ana_holds_11_1_14() {
    let mut g = common::ana_in_beersheba();
    let corps = unit("br-corps-1");
    assert!(
        crate::operations::in_supply(&g, corps as u16),
        "through the ANA's Beersheba"
    );
    g.scenario.edition = 5;
    assert!(!crate::operations::in_supply(&g, corps as u16), "edition 5");
    g.scenario.edition = crate::game::EDITION;
    g.pos.units[unit("ana-corps")].loc = Location::Map(sp("arabia"));
    g.touch();
    assert!(
        !crate::operations::in_supply(&g, corps as u16),
        "Beersheba the CP's once more"
    );
}

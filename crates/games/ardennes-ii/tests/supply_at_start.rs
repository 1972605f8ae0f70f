//! Every unit the book sets up starts in supply (3.7; RULINGS "Set-ups in supply"), on the map
//! of today's data edition, and the hexes the book uses as road or supply points have a road:
//! what the 1944 secondary road net (data edition 3) gives. Games begun on editions 1 and 2 keep
//! the map they were begun on.

use sandtable_ardennes_ii::sequence::Side;
use sandtable_ardennes_ii::state::Loc;
use sandtable_ardennes_ii::world::World;
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::game::Game;

mod common;

/// The units of `g` set up on the map that cannot trace supply now, as "scenario unit hex".
fn out_of_supply(g: &ArdennesII) -> Vec<String> {
    let w = g.world();
    let mut out = Vec::new();
    for side in [Side::German, Side::Allied] {
        let supplied = g.supply_now(side);
        for (i, u) in g.state().units.iter().enumerate() {
            let def = &w.data.counters.units[i];
            if def.side != side {
                continue;
            }
            if let Loc::Map(h) = u.loc {
                if !supplied[h.idx()] {
                    out.push(format!("{} {} {}", g.state().scenario, def.id, w.map.grid.id(h).0));
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_unit_of_every_set_up_starts_in_supply() {
    let mut out = Vec::new();
    let mut placed = 0;
    for sc in common::SCENARIOS {
        let g = ArdennesII::new_game(sc, 7).expect("the scenario starts");
        placed += g.state().units.iter().filter(|u| matches!(u.loc, Loc::Map(_))).count();
        out.extend(out_of_supply(&g));
    }
    assert!(placed > 300, "only {placed} units set up on the map");
    assert!(out.is_empty(), "set up out of supply (3.7): {out:#?}");
}

#[test]
fn the_326th_vg_traces_supply_east_through_the_eifel() {
    let g = ArdennesII::new_game("campaign", 7).expect("the campaign starts");
    let supplied = g.supply_now(Side::German);
    for id in ["B27.53", "B27.51", "B28.49"] {
        let h = common::hex(&g, id);
        assert!(supplied[h.idx()], "7.1: the 326th VG at {id} traces supply");
    }
}

/// The hexes the book uses as road or supply points: 7.4's German source B24.39, 7.5's
/// B4.24, B12.20 and B12.22, and 7.6's A29.23 (where the German supply Roads "(非小径)" begin,
/// read for "A29.00", and the 9th Panzer Division's arrival), A40.32, A40.45 and A40.30 (the
/// arrival hexes of the 2nd SS Panzer Division, the 3rd Armored Division and the Führer
/// Begleit Brigade).
const ROAD_POINTS: [(&str, bool); 8] = [
    ("B24.39", false),
    ("B4.24", false),
    ("B12.20", false),
    ("B12.22", false),
    ("A29.23", true),
    ("A40.32", false),
    ("A40.45", false),
    ("A40.30", false),
];

/// The road points of [`ROAD_POINTS`] without a road (or without a Road where the book asks for
/// one) on world `w`.
fn roadless(w: &World) -> Vec<&'static str> {
    ROAD_POINTS
        .iter()
        .filter(|(id, road_only)| {
            let h = w.map.grid.parse(id).expect("a hex id");
            let mask = if *road_only { w.s.road } else { w.s.road | w.s.track };
            !w.map.any_side(h, mask)
        })
        .map(|(id, _)| *id)
        .collect()
}

#[test]
fn every_hex_the_book_uses_as_a_road_or_supply_point_has_a_road() {
    let w = World::shipped().expect("the shipped world");
    assert_eq!(roadless(&w), Vec::<&str>::new());
}

#[test]
fn games_of_editions_1_and_2_keep_the_map_before_the_secondary_roads() {
    for edition in ["1", "2"] {
        let g = ArdennesII::new_game_edition("campaign", 7, edition).expect("an earlier edition starts");
        assert_eq!(
            roadless(g.world()),
            ["B24.39", "B12.20", "B12.22", "A29.23", "A40.45", "A40.30"],
            "edition {edition}"
        );
        // On that map the 326th VG started out of supply; its record replays so.
        assert_eq!(
            out_of_supply(&g),
            [
                "campaign ger-326vg-inf-751 B28.49",
                "campaign ger-326vg-inf-752 B27.53",
                "campaign ger-326vg-inf-753 B27.51"
            ],
            "edition {edition}"
        );
    }
    let g = ArdennesII::new_game("campaign", 7).expect("the campaign starts");
    assert_eq!(g.world().map.hex_set("supply-german").len(), 55);
    let e2 = World::for_edition(2).expect("the map of edition 2");
    assert!(!std::sync::Arc::ptr_eq(g.world(), &e2), "a new game is on today's map");
    assert!(ArdennesII::new_game_edition("campaign", 7, "6").is_err());
}

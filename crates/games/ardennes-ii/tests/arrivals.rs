//! Reinforcements on the real map (2.2, SCS 5.0): every arrival of every scenario finds a hex
//! to enter, and Entry Area N reaches onto Map B, where 7.3 brings the 3rd Armored Division in.

mod common;

use common::*;
use sandtable_ardennes_ii::data::Location;
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::game::Game;

#[test]
fn every_scheduled_arrival_of_every_scenario_can_be_placed() {
    let mut lost = Vec::new();
    for sc in SCENARIOS {
        let g = ArdennesII::new_game(sc, 1).expect("the scenario starts");
        let grid = &g.world().map.grid;
        for (i, a) in g.scenario().arrivals.iter().enumerate() {
            if a.at == Location::Airborne {
                continue;
            }
            let hexes = g.arrival_hexes(i);
            if hexes.is_empty() {
                lost.push(format!("{sc} turn {} {:?}: {} unit(s)", a.turn, a.at, a.units.len()));
            }
            for h in hexes {
                assert!(g.scenario().in_area(grid, h), "{sc}: arrival {i} offered {}", id(&g, h));
            }
        }
    }
    assert!(lost.is_empty(), "arrivals with no hex to enter: {lost:#?}");
}

#[test]
fn the_3rd_armored_enters_7_3_at_area_n_on_map_b() {
    let g = ArdennesII::new_game("peiper", 1).expect("7.3 starts");
    let n = g.world().map.hex_sets.get("entry-N").cloned().unwrap_or_default();
    let hogan = g.world().data.counters.index("us-3ad-arm-hogan").expect("TF Hogan");
    let (i, a) = g
        .scenario()
        .arrivals
        .iter()
        .enumerate()
        .find(|(_, a)| a.units.contains(&hogan))
        .expect("7.3 brings TF Hogan");
    assert_eq!((a.turn, &a.at), (4, &Location::Areas(vec!['N'])));
    let hexes = g.arrival_hexes(i);
    assert!(!hexes.is_empty(), "Area N has hexes in 7.3's playing area");
    for h in hexes {
        assert!(n.contains(&h), "{} is a hex of Area N itself", id(&g, h));
        assert!(id(&g, h).starts_with('B'), "{} is on Map B", id(&g, h));
    }
}

#[test]
fn a_blocked_entry_area_enters_at_the_nearest_free_hexes_of_the_same_edge() {
    // 7.2 plays on Map B only; Area M (north edge of Map A above Huy) has no hex there, so the
    // 3rd Royal Tank Regiment's arrival enters on the north edge of Map B nearest it.
    let g = ArdennesII::new_game("breakthrough", 1).expect("7.2 starts");
    let (i, _) = g
        .scenario()
        .arrivals
        .iter()
        .enumerate()
        .find(|(_, a)| a.at == Location::Areas(vec!['M']))
        .expect("7.2 follows the schedule, which uses Area M");
    let ids: Vec<String> = g.arrival_hexes(i).iter().map(|&h| id(&g, h)).collect();
    assert_eq!(ids, ["B1.54", "B2.54", "B3.54", "B4.54"]);
}

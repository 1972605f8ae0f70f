//! 6.0: a VP hex is controlled by the player who last occupied it and could trace supply at
//! that moment — played on positions built on the map (RULINGS: VP control).

mod common;

use common::*;
use sandtable_ardennes_ii::sequence::{Phase, Side};
use sandtable_ardennes_ii::state::UnitId;
use sandtable_ardennes_ii::{Action, ArdennesII};
use sandtable_core::hex::Hex;

/// A VP hex of the campaign and a neighbour of it from which `unit` may move in, with the
/// index of the hex in the VP list; the unit is put on the neighbour.
fn approach(g: &mut ArdennesII, unit: UnitId) -> (usize, Hex, Hex) {
    let vps: Vec<Hex> = g.world().data.tables.vp_hexes.iter().map(|v| v.hex).collect();
    for (i, &v) in vps.iter().enumerate() {
        let near: Vec<Hex> = g.world().map.grid.neighbours(v).map(|(_, n)| n).collect();
        for x in near {
            if vps.contains(&x)
                || g.world().map.grid.neighbours(x).count() < 6
                || g.world().map.grid.neighbours(v).count() < 6
            {
                continue;
            }
            put(g, unit, x);
            if legal(g).contains(&Action::move_to(unit, v)) {
                return (i, v, x);
            }
        }
    }
    panic!("no VP hex to move into");
}

#[test]
fn a_vp_hex_occupied_in_supply_is_the_occupiers_at_once_and_stays_so_when_it_leaves() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let unit = pick(&g, 1, &[], foot(Side::German))[0];
    let (i, v, x) = approach(&mut g, unit);
    assert_eq!(g.state().control[i], Side::Allied, "7.1: every VP hex starts Allied");
    assert!(g.supply_now(Side::German)[v.idx()], "nothing cuts the German off here");
    play(&mut g, Action::move_to(unit, v));
    assert_eq!(g.phase(), Phase::Movement(Side::German), "still the same phase");
    assert_eq!(
        g.state().control[i],
        Side::German,
        "6.0: occupied in supply: German at that moment"
    );
    // Leaving again does not give the hex back: the Allies must occupy it.
    play(&mut g, Action::move_to(unit, x));
    assert_eq!(g.state().control[i], Side::German, "6.0: the last occupier keeps it");
    play(&mut g, Action::EndPhase);
    assert_eq!(
        g.state().control[i],
        Side::German,
        "6.0: and keeps it at the phase's end"
    );
}

#[test]
fn a_vp_hex_occupied_out_of_supply_stays_the_enemys() {
    let mut g = empty(3, Phase::Movement(Side::German));
    let unit = pick(&g, 1, &[], foot(Side::German))[0];
    let (i, v, x) = approach(&mut g, unit);
    // Allied units (none of them infantry, so no ZOC Bond forms) all round the two hexes:
    // the German in them can trace no supply (3.7: not into enemy units).
    let grid = &g.world().map.grid;
    let mut ring: Vec<Hex> = grid
        .neighbours(v)
        .chain(grid.neighbours(x))
        .map(|(_, n)| n)
        .filter(|&n| n != v && n != x)
        .collect();
    ring.sort();
    ring.dedup();
    let guards = pick(&g, ring.len(), &[unit], |d| {
        d.side == Side::Allied && !d.is_bond_infantry() && !d.is_artillery()
    });
    for (&u, &h) in guards.iter().zip(&ring) {
        put(&mut g, u, h);
    }
    assert!(!g.supply_now(Side::German)[x.idx()], "the ring cuts the German off");
    assert!(
        legal(&g).contains(&Action::move_to(unit, v)),
        "the unit may still move into the VP hex"
    );
    play(&mut g, Action::move_to(unit, v));
    assert_eq!(
        g.state().control[i],
        Side::Allied,
        "6.0: no supply at that moment, no control"
    );
    // Nor at the end of the phase, as it still cannot trace supply.
    play(&mut g, Action::EndPhase);
    assert_eq!(
        g.state().control[i],
        Side::Allied,
        "6.0: still cut off at the phase's end"
    );
}

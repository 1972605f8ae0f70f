//! Random play under the core's fuzz harness (`sandtable_core::fuzz`) in every scenario: no
//! dead end; every listed action passes its check and no other seat may take it; actions near
//! the chosen one — the same kind of action at the neighbouring hexes, for another unit, other
//! kinds at the same hex, the plain decisions of every procedure, ids that name no unit or hex —
//! pass the check exactly when they are listed, so the list and the rules' checks never part
//! ways; chance always has an outcome; the same seed and choices give the same game. And at
//! every step: a unit's steps never come back (1.2), no hex holds units of both sides, units
//! stand only in the playing area (7.0), and the procedure stack has the phase at its bottom.

mod common;

use common::SCENARIOS;
use proptest::prelude::*;
use sandtable_ardennes_ii::frames::Frame;
use sandtable_ardennes_ii::{Action, ArdennesII};
use sandtable_core::fuzz::Fuzz;
use sandtable_core::game::{Game, Rules};
use sandtable_core::hex::Hex;
use std::cell::Cell;

/// Actions near `a`, to probe the checks with.
fn near(g: &ArdennesII, a: &Action) -> Vec<Action> {
    let grid = &g.world().map.grid;
    let units = g.state().units.len() as u16;
    let mut out = vec![
        Action::EndPhase,
        Action::Pass,
        Action::Resolve,
        Action::CallOff,
        Action::Stand,
        Action::Withdraw,
        Action::EndAdvance,
        Action::Die { face: 3 },
        // Ids that name nothing: refused, never a panic.
        Action::move_to(units, Hex(0)),
        Action::move_to(0, Hex(u16::MAX)),
        Action::Place {
            unit: u16::MAX,
            at: Hex(0),
        },
        Action::Fire {
            unit: units,
            target: Hex(0),
        },
        Action::Overrun {
            units: Vec::new(),
            target: Hex(0),
        },
        Action::Overrun {
            units: vec![u16::MAX],
            target: Hex(u16::MAX),
        },
        Action::Demolish { symbol: Hex(u16::MAX) },
        Action::AirSupply { hex: Hex(u16::MAX) },
        Action::Join { unit: u16::MAX },
        Action::Lose { unit: u16::MAX },
        Action::RetreatTo { to: Hex(u16::MAX) },
    ];
    let neighbours = |h: Hex| -> Vec<Hex> {
        if h.idx() < grid.len() {
            grid.neighbours(h).map(|(_, n)| n).collect()
        } else {
            Vec::new()
        }
    };
    let at_hex = |out: &mut Vec<Action>, unit: u16, h: Hex| {
        out.extend([
            Action::move_to(unit, h),
            Action::Advance { unit, to: h },
            Action::BugOut { unit, to: h },
            Action::Place { unit, at: h },
            Action::Boats { unit, to: h },
            Action::Fire { unit, target: h },
            Action::Attack { target: h },
            Action::AirStrike { target: h },
            Action::RetreatTo { to: h },
            Action::Demolish { symbol: h },
            Action::AirSupply { hex: h },
        ]);
    };
    let for_unit = |out: &mut Vec<Action>, unit: u16| {
        out.extend([
            Action::Exit { unit },
            Action::StayPut { unit },
            Action::Join { unit },
            Action::Lose { unit },
            Action::Resupply { unit, roll: true },
            Action::Resupply { unit, roll: false },
            Action::Observe { unit },
            Action::Attempt { unit },
        ]);
    };
    match a {
        Action::Move { unit, to, .. }
        | Action::Advance { unit, to }
        | Action::BugOut { unit, to }
        | Action::Boats { unit, to }
        | Action::Place { unit, at: to }
        | Action::Fire { unit, target: to } => {
            at_hex(&mut out, *unit, *to);
            for n in neighbours(*to) {
                at_hex(&mut out, *unit, n);
            }
            let other = (*unit + 1) % units;
            at_hex(&mut out, other, *to);
            for_unit(&mut out, *unit);
            for_unit(&mut out, other);
        }
        Action::Overrun { units: group, target } => {
            let mut reversed = group.clone();
            reversed.reverse();
            out.push(Action::Overrun {
                units: reversed,
                target: *target,
            });
            if let Some(&first) = group.first() {
                out.push(Action::Overrun {
                    units: vec![first],
                    target: *target,
                });
            }
            for n in neighbours(*target) {
                out.push(Action::Overrun {
                    units: group.clone(),
                    target: n,
                });
            }
        }
        Action::Exit { unit }
        | Action::StayPut { unit }
        | Action::Join { unit }
        | Action::Lose { unit }
        | Action::Observe { unit }
        | Action::Attempt { unit }
        | Action::Resupply { unit, .. } => {
            for_unit(&mut out, *unit);
            for_unit(&mut out, (*unit + 1) % units);
        }
        Action::Attack { target }
        | Action::AirStrike { target }
        | Action::RetreatTo { to: target }
        | Action::Demolish { symbol: target }
        | Action::AirSupply { hex: target } => {
            for n in neighbours(*target) {
                at_hex(&mut out, 0, n);
            }
        }
        _ => {}
    }
    out
}

/// Steps on the map or still to come.
fn steps(g: &ArdennesII) -> u32 {
    g.state()
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| !u.gone())
        .map(|(i, u)| {
            if u.reduced {
                1
            } else {
                g.world().data.counters.units[i].steps as u32
            }
        })
        .sum()
}

/// The invariants that hold at every step, whatever the position.
fn invariant(g: &ArdennesII) -> Result<(), String> {
    let grid = &g.world().map.grid;
    let mut side_at = vec![None; grid.len()];
    for (i, u) in g.state().units.iter().enumerate() {
        let Some(h) = u.hex() else { continue };
        if h.idx() >= grid.len() {
            return Err(format!("unit {i} stands in hex {} off the map", h.0));
        }
        if !g.scenario().in_area(grid, h) {
            return Err(format!("unit {i} stands in {}, outside the playing area", grid.id(h).0));
        }
        let side = g.world().data.counters.units[i].side;
        match side_at[h.idx()] {
            Some(s) if s != side => return Err(format!("both sides in {}", grid.id(h).0)),
            _ => side_at[h.idx()] = Some(side),
        }
    }
    let frames = g.frames();
    if let Some(bottom) = frames.first() {
        match bottom {
            Frame::Phase { phase, .. } if *phase == g.phase() => {}
            other => return Err(format!("the bottom frame is {other:?}, not the phase {:?}", g.phase())),
        }
        if frames.iter().skip(1).any(|f| matches!(f, Frame::Phase { .. })) {
            return Err("a second phase frame".into());
        }
    }
    Ok(())
}

/// Fuzzes `scenario` over `seeds`, each game to `max` decisions, probing the checks around
/// the first `probe`.
fn fuzz(scenario: &str, seeds: std::ops::Range<u64>, max: u64, probe: u64) {
    let last = Cell::new(u32::MAX);
    let make = |seed: u64| {
        let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario starts");
        g.set_journal(false);
        last.set(u32::MAX);
        g
    };
    let invariants = |g: &ArdennesII| {
        invariant(g)?;
        // 1.2: no rebuilding; nothing comes back once gone.
        let now = steps(g);
        if now > last.get() {
            return Err(format!("steps came back ({} → {now})", last.get()));
        }
        last.set(now);
        Ok(())
    };
    let played = Fuzz {
        make: &make,
        max_decisions: max,
        near: &near,
        probe,
        invariant: &invariants,
    }
    .run(seeds)
    .unwrap_or_else(|e| panic!("{scenario}: {e}"));
    assert!(played.decisions > 0, "{scenario}: {played:?}");
}

#[test]
fn every_scenario_plays_randomly_and_its_list_and_checks_agree() {
    for (i, s) in SCENARIOS.iter().enumerate() {
        fuzz(s, 1 + i as u64..2 + i as u64, 250, 60);
    }
}

#[test]
fn the_goose_egg_plays_long_with_its_list_and_checks_agreeing() {
    fuzz("goose-egg", 1..3, 600, 150);
}

#[test]
fn the_bastogne_scenario_plays_with_its_list_and_checks_agreeing() {
    fuzz("bastogne", 7..8, 400, 100);
}

#[test]
fn the_campaign_plays_with_its_list_and_checks_agreeing() {
    fuzz("campaign", 11..12, 120, 30);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]
    /// Any seed of any scenario: the harness plays it, checks it, and plays the same choices
    /// again from the same seed to the same game.
    #[test]
    fn any_seed_plays_and_replays_to_the_same_game(seed in 0u64..1000, which in 0usize..6) {
        fuzz(SCENARIOS[which], seed..seed + 1, 120, 20);
    }
}

//! The legal lists that are built for every candidate at once (exits, 7.0; bridge demolitions,
//! 3.8; barrages and air strikes, 2.2, 3.5) list exactly the actions the rules' own check of
//! one action accepts: at every decision of random games in every scenario, each candidate is
//! listed if and only if `check_action` takes it.

mod common;

use common::*;
use sandtable_ardennes_ii::{Action, ArdennesII};
use sandtable_core::game::Game;

/// Compares the list with the check for every exit, demolition, barrage and (at every
/// `strikes_every`-th barrage decision) air strike candidate.
fn check(scenario: &str, seed: u64, decisions: usize, strikes_every: usize) {
    let mut seen = [0usize; 4];
    let mut barrage_decisions = 0;
    random_play(scenario, seed, decisions, |g: &ArdennesII, seat, legal, step, _| {
        let w = g.world();
        let grid = &w.map.grid;
        // The listed candidates, by kind (the movement list is long).
        let listed_here: Vec<&Action> = legal
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Action::Exit { .. } | Action::Demolish { .. } | Action::Fire { .. } | Action::AirStrike { .. }
                )
            })
            .collect();
        let agree = |a: Action, what: &str| {
            let listed = listed_here.contains(&&a);
            let accepted = g.check_action(seat, &a).is_ok();
            assert_eq!(
                listed, accepted,
                "{scenario} seed {seed} step {step}: {what} {a:?} listed {listed}, accepted by the check {accepted}"
            );
            listed
        };
        for u in 0..g.state().units.len() as u16 {
            seen[0] += usize::from(agree(Action::Exit { unit: u }, "exit"));
        }
        for (symbol, _) in &w.demolitions {
            seen[1] += usize::from(agree(Action::Demolish { symbol: *symbol }, "demolition"));
        }
        let barrage = legal
            .iter()
            .any(|a| matches!(a, Action::Fire { .. } | Action::AirStrike { .. }));
        if !barrage {
            return None;
        }
        for u in 0..g.state().units.len() as u16 {
            let def = &w.data.counters.units[u as usize];
            let (Some(range), Some(at)) = (def.range, g.state().units[u as usize].hex()) else {
                continue;
            };
            for t in grid.within(at, range as u32 + 1) {
                seen[2] += usize::from(agree(Action::Fire { unit: u, target: t }, "barrage"));
            }
        }
        barrage_decisions += 1;
        if barrage_decisions % strikes_every == 0 {
            for t in grid.hexes() {
                seen[3] += usize::from(agree(Action::AirStrike { target: t }, "air strike"));
            }
        }
        None
    });
    assert!(seen[2] > 0, "{scenario}: no barrage was compared");
}

#[test]
fn lists_built_at_once_list_what_the_checks_accept() {
    for (i, s) in SCENARIOS.iter().enumerate() {
        check(s, 300 + i as u64, 120, 6);
    }
}

#[test]
fn a_goose_egg_game_lists_what_the_checks_accept() {
    check("goose-egg", 11, 400, 10);
}

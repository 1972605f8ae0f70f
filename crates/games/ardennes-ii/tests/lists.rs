//! The legal lists that are built for every candidate at once (exits, 7.0; bridge demolitions,
//! 3.8; barrages and air strikes, 2.2, 3.5) list exactly the actions the rules' own check of
//! one action accepts: at every decision of random games in every scenario, each candidate is
//! listed if and only if `check_action` takes it. The overruns (3.3) likewise, over the hexes
//! where the state puts the phasing side's units.

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
        // At every fifth decision as well, so that a list that wrongly leaves every barrage
        // out is still compared.
        if !barrage && step % 5 != 0 {
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

/// 3.3: in the movement and exploitation phases of random games, every overrun the state's
/// own unit places allow (each group of a stack's units in counter order, or for more than five
/// the whole stack and each unit, against each adjacent hex holding the enemy) is listed if and
/// only if `check_action` takes it, and nothing else is listed.
fn check_overruns(scenario: &str, seed: u64, decisions: usize) -> usize {
    let mut seen = 0;
    random_play(scenario, seed, decisions, |g: &ArdennesII, seat, legal, step, _| {
        if !legal
            .iter()
            .any(|a| matches!(a, Action::Move { .. } | Action::Overrun { .. }))
        {
            return None;
        }
        let w = g.world();
        let grid = &w.map.grid;
        let units = &g.state().units;
        let side_of = |u: usize| w.data.counters.units[u].side.seat();
        let mut stacks: Vec<(sandtable_core::hex::Hex, Vec<u16>)> = Vec::new();
        for (u, st) in units.iter().enumerate() {
            let Some(h) = st.hex() else { continue };
            if side_of(u) != seat {
                continue;
            }
            match stacks.iter_mut().find(|(x, _)| *x == h) {
                Some((_, list)) => list.push(u as u16),
                None => stacks.push((h, vec![u as u16])),
            }
        }
        let mut candidates: Vec<Action> = Vec::new();
        for (h, stack) in &stacks {
            let n = stack.len();
            let groups: Vec<Vec<u16>> = if n <= 5 {
                (1..1u32 << n)
                    .map(|m| (0..n).filter(|i| m & (1 << i) != 0).map(|i| stack[i]).collect())
                    .collect()
            } else {
                std::iter::once(stack.clone())
                    .chain(stack.iter().map(|&u| vec![u]))
                    .collect()
            };
            for (_, target) in grid.neighbours(*h) {
                let enemy = units
                    .iter()
                    .enumerate()
                    .any(|(u, st)| st.hex() == Some(target) && side_of(u) != seat);
                if !enemy {
                    continue;
                }
                for g in &groups {
                    candidates.push(Action::Overrun {
                        units: g.clone(),
                        target,
                    });
                }
            }
        }
        for a in legal.iter().filter(|a| matches!(a, Action::Overrun { .. })) {
            assert!(
                candidates.contains(a),
                "{scenario} seed {seed} step {step}: {a:?} listed, but not an overrun of a stack the state places"
            );
        }
        for a in candidates {
            let listed = legal.contains(&a);
            let accepted = g.check_action(seat, &a).is_ok();
            assert_eq!(
                listed, accepted,
                "{scenario} seed {seed} step {step}: overrun {a:?} listed {listed}, accepted by the check {accepted}"
            );
            seen += usize::from(listed);
        }
        None
    });
    seen
}

#[test]
fn overruns_listed_are_the_ones_the_check_accepts_3_3() {
    let mut seen = 0;
    for (i, s) in SCENARIOS.iter().enumerate() {
        seen += check_overruns(s, 700 + i as u64, 300);
    }
    seen += check_overruns("goose-egg", 12, 600);
    assert!(seen > 0, "no overrun was compared");
}

//! The typed marks of the log (what each line did on the map): followed from where the units
//! stood, they lead to where the units stand, through random play on the real map with combat,
//! retreats, advances, losses, arrivals and the Arrival Schedule's removals.

mod common;

use common::act;
use sandtable_ardennes_ii::{Action, ArdennesII};
use sandtable_core::chance::Rng;
use sandtable_core::game::{follow_marks, Game, Pending, Rules};
use std::collections::{BTreeMap, BTreeSet};

/// Where each unit on the map stands: counter id → hex id.
fn positions(g: &ArdennesII) -> BTreeMap<String, String> {
    let w = g.world();
    g.state()
        .units
        .iter()
        .enumerate()
        .filter_map(|(i, st)| {
            st.hex()
                .map(|h| (w.data.counters.units[i].id.clone(), w.data.hex_id(h)))
        })
        .collect()
}

/// Plays `scenario` at random (ending phases often, so that turns go by) and checks the marks
/// against the units' moves after every decision; returns the kinds of mark seen.
fn play(scenario: &str, seed: u64, decisions: usize) -> BTreeSet<&'static str> {
    let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario starts");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    let mut at = positions(&g);
    let mut read = g.journal(None).len();
    let mut kinds = BTreeSet::new();
    let mut rng = Rng::from_seed(seed);
    let mut legal = Vec::new();
    for step in 0..decisions {
        let Pending::Seat(seat) = g.pending() else { break };
        g.legal_actions(&mut legal);
        // Fighting is sought out: an attack, an overrun or a barrage declared, then seen through.
        let fight: Vec<&Action> = legal
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Action::Attack { .. }
                        | Action::Overrun { .. }
                        | Action::Fire { .. }
                        | Action::Resolve
                        | Action::Stand
                        | Action::Advance { .. }
                )
            })
            .collect();
        let a = if !fight.is_empty() && rng.below(2) == 0 {
            fight[rng.below(fight.len() as u32) as usize].clone()
        } else if rng.below(5) == 0 {
            legal
                .iter()
                .find(|a| matches!(a, Action::EndPhase))
                .unwrap_or(&legal[0])
                .clone()
        } else {
            legal[rng.below(legal.len() as u32) as usize].clone()
        };
        act(&mut g, seat, &a).expect("legal");
        let lines = g.journal(None);
        follow_marks(&mut at, &lines[read..]).unwrap_or_else(|e| panic!("{scenario} step {step} after {a:?}: {e}"));
        kinds.extend(lines[read..].iter().flat_map(|l| l.marks.iter().map(|m| m.kind())));
        read = lines.len();
        assert_eq!(
            at,
            positions(&g),
            "{scenario} step {step} after {a:?}: the marks lead elsewhere"
        );
    }
    kinds
}

#[test]
fn the_marks_follow_every_unit_through_combat_retreats_advances_and_arrivals() {
    let mut kinds = play("goose-egg", 11, 2500);
    kinds.extend(play("bastogne", 12, 2500));
    for k in [
        "move",
        "attack",
        "step-lost",
        "eliminated",
        "retreat",
        "advance",
        "arrived",
        "barrage",
    ] {
        assert!(kinds.contains(k), "no {k} mark in {kinds:?}");
    }
}

//! The typed marks of the log (what each line did on the map): followed from where the units
//! stood, they lead to where the units stand, through random play on the real map with combat,
//! retreats, advances, losses, arrivals and the Arrival Schedule's removals.

use sandtable_ardennes_ii::{Action, ArdennesII};
use sandtable_core::chance::Rng;
use sandtable_core::fuzz::follow_marks_in_play;
use sandtable_core::game::Game;
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
    let mut rng = Rng::from_seed(seed);
    let mut pick = |_: &ArdennesII, legal: &[Action]| {
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
        if !fight.is_empty() && rng.below(2) == 0 {
            fight[rng.below(fight.len() as u32) as usize].clone()
        } else if rng.below(5) == 0 {
            legal
                .iter()
                .find(|a| matches!(a, Action::EndPhase))
                .unwrap_or(&legal[0])
                .clone()
        } else {
            legal[rng.below(legal.len() as u32) as usize].clone()
        }
    };
    follow_marks_in_play(&mut g, decisions, &positions, &mut pick).unwrap_or_else(|e| panic!("{scenario}: {e}"))
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

//! The typed marks of the log (what each line did on the map): followed from where the units
//! stood, they lead to where the units stand, through random play of the campaign on the real
//! map with combat, retreats, advances, losses, withdrawals and reinforcements.

use sandtable_core::chance::Rng;
use sandtable_core::fuzz::follow_marks_in_play;
use sandtable_core::game::Game;
use sandtable_stalingrad_blitz::{Action, StalingradBlitz};
use std::collections::{BTreeMap, BTreeSet};

/// Where each unit on the map stands: counter id → hex id.
fn positions(g: &StalingradBlitz) -> BTreeMap<String, String> {
    let d = g.data();
    g.state()
        .units
        .iter()
        .enumerate()
        .filter_map(|(i, st)| st.hex().map(|h| (d.units[i].id.clone(), d.map.grid.id(h).0)))
        .collect()
}

/// Plays `scenario` at random, seeking out combat, and checks the marks against the units'
/// moves after every decision; returns the kinds of mark seen.
fn play(scenario: &str, seed: u64, decisions: usize) -> BTreeSet<&'static str> {
    let mut g = StalingradBlitz::new_game(scenario, seed).expect("the scenario starts");
    let mut rng = Rng::from_seed(seed);
    let mut pick = |_: &StalingradBlitz, legal: &[Action]| {
        let fight: Vec<&Action> = legal
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Action::Declare { .. } | Action::EndDeclare | Action::Resolve { .. } | Action::Advance { .. }
                )
            })
            .collect();
        if !fight.is_empty() && rng.below(2) == 0 {
            *fight[rng.below(fight.len() as u32) as usize]
        } else {
            legal[rng.below(legal.len() as u32) as usize]
        }
    };
    follow_marks_in_play(&mut g, decisions, &positions, &mut pick).unwrap_or_else(|e| panic!("{scenario}: {e}"))
}

#[test]
fn the_marks_follow_every_unit_through_combat_retreats_advances_losses_and_withdrawals() {
    let mut kinds = play("campaign", 21, 3000);
    kinds.extend(play("campaign-free-setup", 22, 1500));
    for k in [
        "move",
        "attack",
        "step-lost",
        "eliminated",
        "retreat",
        "advance",
        "arrived",
        "withdrawn",
    ] {
        assert!(kinds.contains(k), "no {k} mark in {kinds:?}");
    }
}

//! The typed marks of the log (what each line did on the map): followed from where the units
//! stood, they lead to where the units stand, through random play of the campaign on the real
//! map with moves, combat, retreats, advances, losses, redeployments, arrivals and the
//! Attrition Phase.

use crate::game::{Action, PathsOfGlory};
use crate::state::Location;
use sandtable_core::chance::Rng;
use sandtable_core::fuzz::follow_marks_in_play;
use sandtable_core::game::Game;
use std::collections::{BTreeMap, BTreeSet};

/// Where each counter on the map stands: counter id → space id.
fn positions(g: &PathsOfGlory) -> BTreeMap<String, String> {
    let d = g.data();
    g.pos
        .units
        .iter()
        .enumerate()
        .filter_map(|(i, u)| match u.loc {
            Location::Map(s) => Some((d.pieces[i].id.clone(), d.map.graph.space(s).id.clone())),
            _ => None,
        })
        .collect()
}

/// Plays the campaign at random, seeking out combat and never accepting peace, and checks the
/// marks after every decision; returns the kinds of mark seen.
fn play(seed: u64, decisions: usize) -> BTreeSet<&'static str> {
    let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign starts");
    let mut rng = Rng::from_seed(seed);
    let mut pick = |_: &PathsOfGlory, legal: &[Action]| {
        let legal: Vec<&Action> = legal
            .iter()
            .filter(|a| !matches!(a, Action::AnswerPeace { accept: true } | Action::OfferPeace))
            .collect();
        let fight: Vec<&&Action> = legal
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Action::Target { .. } | Action::Join { .. } | Action::Resolve | Action::Advance { .. }
                )
            })
            .collect();
        if !fight.is_empty() && rng.below(3) > 0 {
            (**fight[rng.below(fight.len() as u32) as usize]).clone()
        } else {
            legal[rng.below(legal.len() as u32) as usize].clone()
        }
    };
    follow_marks_in_play(&mut g, decisions, &positions, &mut pick).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

#[test]
fn the_marks_follow_every_unit_through_moves_combat_losses_and_redeployments() {
    let mut kinds = BTreeSet::new();
    for seed in 0..4 {
        kinds.extend(play(seed, 1500));
    }
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
        assert!(kinds.contains(k), "no {k} mark in random play: {kinds:?}");
    }
}

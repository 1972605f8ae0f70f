//! The typed marks of the log (what each line did on the map): followed from where the units
//! stood, they lead to where the units stand, through random play of the campaign on the real
//! map with combat, retreats, advances, losses, withdrawals and reinforcements.

use sandtable_core::chance::Rng;
use sandtable_core::game::{follow_marks, Game, Pending, Rules};
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
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    let mut at = positions(&g);
    let mut read = g.journal(None).len();
    let mut kinds = BTreeSet::new();
    let mut legal = Vec::new();
    for step in 0..decisions {
        let Pending::Seat(seat) = g.pending() else { break };
        g.legal_actions(&mut legal);
        let fight: Vec<&Action> = legal
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Action::Declare { .. } | Action::EndDeclare | Action::Resolve { .. } | Action::Advance { .. }
                )
            })
            .collect();
        let a = if !fight.is_empty() && rng.below(2) == 0 {
            *fight[rng.below(fight.len() as u32) as usize]
        } else {
            legal[rng.below(legal.len() as u32) as usize]
        };
        g.apply(seat, &a).expect("legal");
        while g.pending() == Pending::Chance {
            g.resolve_chance();
        }
        if g.pending() == Pending::Over {
            // The seats' own lines (the chits each put in the cup) show to all now, out of turn.
            break;
        }
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

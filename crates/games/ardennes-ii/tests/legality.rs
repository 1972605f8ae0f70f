//! The engine accepts exactly the actions of its legal list. `apply` checks an action without
//! building the whole list (a move traces only its own unit's reach), so this compares the
//! two over random play: every listed action is accepted, and actions made up near the legal
//! ones (moves to other hexes, other units' moves, the phase end, stray kinds) are accepted
//! only when listed. A refused action leaves the game unchanged.

mod common;

use common::*;
use sandtable_ardennes_ii::{Action, ArdennesII};
use sandtable_core::chance::Rng;
use sandtable_core::game::Game;
use sandtable_core::hex::Hex;

/// Actions near the legal ones: a listed move sent to a neighbouring hex of its destination,
/// a unit's move sent for another unit, and the plain decisions of every phase.
fn candidates(g: &ArdennesII, legal: &[Action], rng: &mut Rng) -> Vec<Action> {
    let mut out = vec![
        Action::EndPhase,
        Action::Pass,
        Action::Resolve,
        Action::CallOff,
        Action::Stand,
        Action::Withdraw,
        Action::EndAdvance,
    ];
    for _ in 0..4 {
        let a = &legal[rng.below(legal.len() as u32) as usize];
        out.push(a.clone());
        if let Action::Move { unit, to, .. } | Action::Advance { unit, to } | Action::BugOut { unit, to } = a {
            let near: Vec<Hex> = g.world().map.grid.neighbours(*to).map(|(_, n)| n).collect();
            let other = near[rng.below(near.len() as u32) as usize];
            out.push(Action::move_to(*unit, other));
            let stranger = rng.below(g.state().units.len() as u32) as u16;
            out.push(Action::move_to(stranger, *to));
            out.push(Action::Exit { unit: stranger });
            out.push(Action::Attack { target: *to });
            out.push(Action::Fire {
                unit: *unit,
                target: *to,
            });
        }
    }
    out
}

fn check(scenario: &str, seed: u64, decisions: usize) {
    let mut checked = 0;
    random_play(scenario, seed, decisions, |g, seat, legal, _, rng| {
        let before = g.checksum();
        for a in candidates(g, legal, rng) {
            let mut trial = g.clone();
            let listed = legal.contains(&a);
            match trial.apply(seat, &a) {
                Ok(_) => assert!(listed, "{scenario} seed {seed}: accepted an unlisted action {a:?}"),
                Err(r) => {
                    assert!(!listed, "{scenario} seed {seed}: refused a listed action {a:?}: {r}");
                    assert_eq!(trial.checksum(), before, "a refusal changed the game");
                }
            }
            checked += 1;
        }
        None
    });
    assert!(checked > 100, "{scenario}: only {checked} actions compared");
}

#[test]
fn the_goose_egg_accepts_exactly_its_legal_list() {
    for seed in 1..=2 {
        check("goose-egg", seed, 150);
    }
}

#[test]
fn the_bastogne_scenario_accepts_exactly_its_legal_list() {
    check("bastogne", 7, 100);
}

#[test]
fn the_campaign_accepts_exactly_its_legal_list() {
    check("campaign", 11, 30);
}

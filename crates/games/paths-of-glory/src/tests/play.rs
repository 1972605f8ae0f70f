//! The game on the decision driver: random play of every scenario never panics, never reaches
//! a dead end, keeps the legal list and the checks in agreement, conserves every card and replays
//! the same; the stacking limit holds between decisions.

use super::common::cards_conserved;
use crate::game::{Action, PathsOfGlory};
use sandtable_core::driver::Rules;
use sandtable_core::fuzz::Fuzz;
use sandtable_core::game::Game;

/// Actions near a legal one, to probe the checks with: the same action on the neighbouring
/// units, spaces and cards.
fn near(_g: &PathsOfGlory, a: &Action) -> Vec<Action> {
    let mut out = Vec::new();
    match a {
        Action::Play { card, with } => {
            for c in [card.wrapping_sub(1), card.wrapping_add(1), 0, 200] {
                out.push(Action::Play { card: c, with: *with });
            }
        }
        Action::CombatCard { card } => {
            for c in [card.wrapping_sub(1), card.wrapping_add(1), 0, 255] {
                out.push(Action::CombatCard { card: c });
            }
        }
        Action::EndCombatCards => {
            for c in [1, 4, 39, 64] {
                out.push(Action::CombatCard { card: c });
            }
        }
        Action::Move { from, units, to } => {
            let sp =
                |s: sandtable_core::graph::Space, d: i32| sandtable_core::graph::Space((s.0 as i32 + d).max(0) as u16);
            out.push(Action::Move {
                from: *from,
                units: units.clone(),
                to: sp(*to, 1),
            });
            out.push(Action::Move {
                from: *from,
                units: units.clone(),
                to: sp(*to, -1),
            });
            out.push(Action::Move {
                from: sp(*from, 1),
                units: units.clone(),
                to: *to,
            });
            out.push(Action::Move {
                from: *from,
                units: units.iter().map(|u| u + 1).collect(),
                to: *to,
            });
            out.push(Action::Move {
                from: *from,
                units: vec![],
                to: *to,
            });
        }
        Action::Activate { space, combat } => {
            out.push(Action::Activate {
                space: sandtable_core::graph::Space(space.0 + 1),
                combat: *combat,
            });
            out.push(Action::Activate {
                space: *space,
                combat: !combat,
            });
        }
        Action::Join { unit } => {
            out.push(Action::Join { unit: unit + 1 });
            out.push(Action::Join {
                unit: unit.wrapping_sub(1),
            });
        }
        Action::Target { space } => {
            out.push(Action::Target {
                space: sandtable_core::graph::Space(space.0 + 1),
            });
            out.push(Action::Target {
                space: sandtable_core::graph::Space(9999),
            });
        }
        Action::Redeploy { unit } => {
            out.push(Action::Redeploy { unit: unit + 1 });
            out.push(Action::Redeploy { unit: 60000 });
        }
        _ => {}
    }
    out
}

fn invariant(g: &PathsOfGlory) -> Result<(), String> {
    cards_conserved(g)?;
    // Every legal action a seat may take reads back from its typed form, so that a typed
    // action the rules refuse is explained with the rule.
    if let sandtable_core::game::Pending::Seat(_) = g.pending() {
        for a in g.legal_list().iter() {
            let typed = g.notation(a);
            if g.parse_notation(&typed).as_ref() != Some(a) {
                return Err(format!("`{typed}` does not read back as {a:?}"));
            }
        }
    }
    // 10.1.2: the stacking limit holds whenever no move or redeployment is under way.
    if !g.frames().iter().any(|f| {
        matches!(
            f,
            crate::game::Frame::March { .. }
                | crate::game::Frame::Movement { .. }
                | crate::game::Frame::Redeployment { .. }
                | crate::game::Frame::RedeployUnit { .. }
        )
    }) {
        let faults = g.pos.faults(g.data());
        if !faults.is_empty() {
            return Err(faults.join("; "));
        }
    }
    Ok(())
}

fn fuzz(scenario: &'static str, seeds: std::ops::Range<u64>, max: u64) -> sandtable_core::fuzz::Played {
    let make = move |seed| PathsOfGlory::new_game(scenario, seed).expect("the scenario loads");
    Fuzz {
        make: &make,
        max_decisions: max,
        near: &near,
        probe: 400,
        invariant: &invariant,
    }
    .run(seeds)
    .unwrap_or_else(|e| panic!("{scenario}: {e}"))
}

#[test]
fn random_introductory_games_run_to_their_end() {
    let played = fuzz("introductory", 0..2, 20_000);
    assert_eq!(played.finished, 2, "{played:?}");
    assert!(played.chance > 60, "cards dealt and dice rolled: {played:?}");
}

#[test]
fn random_play_of_the_other_scenarios_holds_its_invariants() {
    for scenario in [
        "limited-war",
        "campaign",
        "historical",
        "limited-war-tournament",
        "campaign-tournament",
        "campaign-optional-cards",
        "campaign-picked-cards",
    ] {
        let played = fuzz(scenario, 0..1, 600);
        assert!(
            played.decisions >= 600 || played.finished == 1,
            "{scenario}: {played:?}"
        );
    }
}

/// The supply flood worked out for all spaces at once agrees with the search from one space, for
/// every counter's tracer, in positions reached by random play.
#[test]
fn the_supply_flood_agrees_with_the_search_from_each_space() {
    use crate::supply::{in_supply, tracer_of, Context, Supplied};
    let mut checked = 0;
    // A random game may end early (peace terms accepted, 16.5.2): more seeds until enough.
    for seed in 0..4 {
        if checked > 10_000 {
            break;
        }
        let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
        let mut rng = sandtable_core::chance::Rng::from_seed(seed);
        let mut decisions = 0u64;
        sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 900, |g: &PathsOfGlory| {
            decisions += 1;
            if !decisions.is_multiple_of(100) {
                return;
            }
            let data = g.data();
            let ctx = Context::default();
            let mut tracers: Vec<usize> = (0..data.pieces.len()).collect();
            tracers.dedup_by_key(|&mut u| (data.pieces[u].side, data.pieces[u].nation));
            for u in tracers {
                let t = tracer_of(data, u);
                let all = Supplied::new(data, &g.pos, t, &ctx);
                for s in data.map.graph.space_indices() {
                    assert_eq!(
                        all.at(data, s),
                        in_supply(data, &g.pos, t, s, &ctx),
                        "{} at {}",
                        data.pieces[u].id,
                        data.map.graph.space(s).id
                    );
                    checked += 1;
                }
            }
        })
        .expect("random play");
    }
    assert!(checked > 10_000, "{checked}");
}

/// Whole random campaigns and historical games (long: run with `--ignored --release`).
#[test]
#[ignore]
fn soak_whole_campaigns() {
    for scenario in ["campaign", "historical", "limited-war", "campaign-optional-cards"] {
        let played = fuzz(scenario, 0..3, 400_000);
        assert_eq!(played.finished, 3, "{scenario}: {played:?}");
    }
}

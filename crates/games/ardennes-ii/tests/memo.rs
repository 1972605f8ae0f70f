//! The memo (`src/memo.rs`) changes no answer: over random play in every scenario, the legal
//! list, the targets shown for it and the game after each action are the same whether the
//! position's layout, the units' reaches and the reaches of stacks moving together come from
//! the memo or are worked out afresh.

mod common;

use common::*;
use sandtable_ardennes_ii::rules::Board;
use sandtable_ardennes_ii::state::UnitId;
use sandtable_ardennes_ii::{Action, ArdennesII};
use sandtable_core::game::{Game, Rules};
use sandtable_core::search::Search;

/// The game as it would be with nothing remembered.
fn fresh(g: &ArdennesII) -> ArdennesII {
    let f = g.clone();
    f.state().memo.clear();
    f
}

fn check(scenario: &str, seed: u64, decisions: usize) {
    let mut cold = Vec::new();
    let mut moves_seen = 0;
    let mut stack_moves_seen = 0;
    let mut reaches_seen = 0;
    let mut search = Search::new();
    random_play(scenario, seed, decisions, |g, _, warm, step, _| {
        fresh(g).legal_actions(&mut cold);
        assert_eq!(warm, cold, "{scenario} seed {seed} step {step}: the legal lists differ");
        moves_seen += warm.iter().filter(|a| matches!(a, Action::Move { .. })).count();
        stack_moves_seen += warm.iter().filter(|a| matches!(a, Action::MoveStack { .. })).count();
        // Every unit's kept reach is the one a search finds afresh, in hex order.
        let b = Board::new(g.world(), g.state());
        for u in 0..g.state().units.len() {
            let u = u as UnitId;
            let kept = b.destinations(u, &mut search);
            assert_eq!(
                &kept[..],
                &b.reach_list(u, &mut search)[..],
                "{scenario} seed {seed} step {step}: unit {u}'s kept reach differs"
            );
            reaches_seen += kept.len();
        }
        if step % 10 == 0 {
            assert_eq!(
                g.targets(warm),
                fresh(g).targets(warm),
                "{scenario} seed {seed} step {step}: the targets differ"
            );
        }
        // The action drawn is applied afresh too, and must lead to the same game.
        Some(fresh(g))
    });
    assert!(reaches_seen > 0, "{scenario}: no reach was compared");
    assert!(moves_seen > 0, "{scenario}: no movement decision was compared");
    assert!(
        stack_moves_seen > 0,
        "{scenario}: no stack moving together was compared"
    );
}

#[test]
fn remembered_reaches_and_layouts_give_the_answers_worked_out_afresh() {
    for (i, s) in SCENARIOS.iter().enumerate() {
        check(s, 100 + i as u64, 120);
    }
}

#[test]
fn a_long_goose_egg_game_gives_the_same_answers_remembered_or_afresh() {
    check("goose-egg", 5, 600);
}

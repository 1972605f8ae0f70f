//! The memo (`src/memo.rs`) changes no answer: over random play in every scenario, the legal
//! list, the targets shown for it and the game after each action are the same whether the
//! position's layout and the units' reaches come from the memo or are worked out afresh.

use sandtable_ardennes_ii::{Action, ArdennesII};
use sandtable_core::chance::Rng;
use sandtable_core::game::{Game, Pending};

const SCENARIOS: [&str; 6] = [
    "campaign",
    "breakthrough",
    "peiper",
    "goose-egg",
    "bastogne",
    "spearpoint",
];

/// The game as it would be with nothing remembered.
fn fresh(g: &ArdennesII) -> ArdennesII {
    let f = g.clone();
    f.s.memo.clear();
    f
}

fn check(scenario: &str, seed: u64, decisions: usize) {
    let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario starts");
    g.set_journal(false);
    let mut rng = Rng::from_seed(seed);
    let (mut warm, mut cold) = (Vec::new(), Vec::new());
    let mut moves_seen = 0;
    for step in 0..decisions {
        let seat = match g.pending() {
            Pending::Over => break,
            Pending::Chance => {
                g.resolve_chance();
                continue;
            }
            Pending::Seat(seat) => seat,
        };
        g.legal_actions(&mut warm);
        fresh(&g).legal_actions(&mut cold);
        assert_eq!(warm, cold, "{scenario} seed {seed} step {step}: the legal lists differ");
        moves_seen += warm.iter().filter(|a| matches!(a, Action::Move { .. })).count();
        if step % 10 == 0 {
            assert_eq!(
                g.targets(&warm),
                fresh(&g).targets(&warm),
                "{scenario} seed {seed} step {step}: the targets differ"
            );
        }
        let a = warm[rng.below(warm.len() as u32) as usize].clone();
        let mut other = fresh(&g);
        g.apply(seat, &a).expect("a listed action is accepted");
        other.apply(seat, &a).expect("a listed action is accepted afresh");
        assert_eq!(
            g.checksum(),
            other.checksum(),
            "{scenario} seed {seed} step {step}: {a:?} led to different games"
        );
    }
    assert!(moves_seen > 0, "{scenario}: no movement decision was compared");
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

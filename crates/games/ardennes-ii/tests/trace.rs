//! The golden traces in `tests/traces/` replay on this build: every legal list, every number
//! the generator gave and every log line are what they were when the traces were recorded
//! (`sandtable_core::trace`; recorded by `crates/ai/tests/record_traces.rs`).

use sandtable_ardennes_ii::{Action, ArdennesII};
use sandtable_core::game::{Game, Pending, Rules};
use sandtable_core::trace::{from_text, legal_hash, replay, Line};
use std::path::PathBuf;

#[test]
fn golden_traces_replay() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/traces");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the traces folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "the traces are missing from {}", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a trace reads");
        let lines = from_text(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if let Err(e) = replay::<ArdennesII>(&lines) {
            failures.push(format!("{}: {e}", f.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Games begun on data edition 2 go on under its readings (RULINGS, "Data editions"): two
/// traces recorded on edition 2 (`tests/traces/edition-2/`, from before edition 3's observer
/// and demolition-unit choices, stacks into jams and stacking checks) replay on an edition-2
/// game with every legal list as it was, every recorded action accepted and the same winner.
#[test]
fn edition_2_traces_replay_on_edition_2() {
    replay_on_edition("2", |_| true);
}

/// Games begun on data edition 3 go on under its readings: two traces recorded on edition 3
/// (`tests/traces/edition-3/`, before stacks moved together and before edition 4's
/// divisional integrity for arrivals) replay on an edition-3 game with every legal list as it
/// was but for the stack moves edition 3 now offers too (SCS 6.0), every recorded action
/// accepted and the same winner.
#[test]
fn edition_3_traces_replay_on_edition_3() {
    replay_on_edition("3", |a| !matches!(a, Action::MoveStack { .. }));
}

/// Games begun on data edition 4 go on under its readings: two traces recorded on edition 4
/// (`tests/traces/edition-4/`, before edition 5's west and east edges of the playing area)
/// replay on an edition-4 game with every legal list as it was, every recorded action accepted
/// and the same winner.
#[test]
fn edition_4_traces_replay_on_edition_4() {
    replay_on_edition("4", |_| true);
}

/// Replays the traces of `tests/traces/edition-{edition}/` on a game of that edition, comparing
/// each legal list, its actions kept by `kept`, with the recorded one.
fn replay_on_edition(edition: &str, kept: impl Fn(&Action) -> bool) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/traces/edition-{edition}"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the edition's traces folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{}", dir.display());
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a trace reads");
        let lines = from_text(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let Some(Line::Head(head)) = lines.first() else {
            panic!("{}: no head", f.display())
        };
        let mut g = ArdennesII::new_game_edition(&head.scenario, head.seed, edition).expect("a known edition");
        g.set_journal(false);
        let mut legal = Vec::new();
        let mut ended = false;
        for (n, line) in lines.iter().enumerate() {
            let at = || format!("{} line {}", f.display(), n + 1);
            while g.pending() == Pending::Chance {
                g.resolve_chance();
            }
            match line {
                Line::Step(s) => {
                    let (Some(seat), Some(a)) = (s.seat, &s.action) else {
                        continue;
                    };
                    g.legal_actions(&mut legal);
                    legal.retain(&kept);
                    let want = s.legal.as_ref().expect("a decision lists its legal actions");
                    assert_eq!((legal.len(), legal_hash::<ArdennesII>(&legal)), *want, "{}", at());
                    let a: Action = serde_json::from_value(a.clone()).expect("the action reads");
                    g.apply(seat, &a).unwrap_or_else(|r| panic!("{}: {r}", at()));
                }
                Line::End(e) => {
                    assert_eq!(g.outcome().and_then(|o| o.winner), e.winner, "{}", at());
                    ended = true;
                }
                Line::Head(_) => {}
            }
        }
        assert!(ended, "{}: the trace has its end", f.display());
    }
}

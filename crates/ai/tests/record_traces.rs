//! Records the golden traces both games replay in their `tests/trace.rs`: fixed-seed games
//! between random and scripted players, kept decision by decision (see `sandtable_core::trace`).
//!
//! Run only when a rule change is meant to alter them, and say why in the commit:
//! `cargo test --release -p sandtable-ai --test record_traces -- --ignored`

use sandtable_ai::{ardennes, stalingrad, Agent, RandomAgent};
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::game::{Game, Rules};
use sandtable_core::trace::{record, to_text, Head};
use sandtable_stalingrad_blitz::StalingradBlitz;
use std::path::PathBuf;

fn agent<G: Game>(name: &str, scripted: impl Fn() -> Box<dyn Agent<G>>) -> Box<dyn Agent<G>> {
    match name {
        "scripted" => scripted(),
        _ => Box::new(RandomAgent),
    }
}

fn write<G: Game>(dir: &str, name: &str, head: Head, scripted: impl Fn() -> Box<dyn Agent<G>>) {
    let mut agents: Vec<Box<dyn Agent<G>>> = head.agents.iter().map(|a| agent(a, &scripted)).collect();
    let lines = record::<G>(head, &mut agents).unwrap_or_else(|e| panic!("{name}: {e}"));
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(dir)
        .join(format!("{name}.jsonl"));
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("the traces folder");
    std::fs::write(&path, to_text(&lines)).expect("the trace is written");
    println!("{}: {} lines", path.display(), lines.len());
}

fn head(game: &str, scenario: &str, seed: u64, agents: [&str; 2], max: u64) -> Head {
    Head {
        game: game.into(),
        scenario: scenario.into(),
        seed,
        agents: agents.iter().map(|a| a.to_string()).collect(),
        agent_seed: seed + 100,
        max_decisions: max,
    }
}

/// The traces, by file name: (scenario, seed, agents, decisions at most).
pub const STALINGRAD: &[(&str, &str, u64, [&str; 2], u64)] = &[
    ("campaign-random-1", "campaign", 1, ["random", "random"], 100_000),
    ("campaign-random-2", "campaign", 2, ["random", "random"], 100_000),
    (
        "campaign-scripted-axis-3",
        "campaign",
        3,
        ["scripted", "random"],
        100_000,
    ),
    (
        "campaign-scripted-soviet-4",
        "campaign",
        4,
        ["random", "scripted"],
        100_000,
    ),
    (
        "campaign-scripted-both-5",
        "campaign",
        5,
        ["scripted", "scripted"],
        100_000,
    ),
    (
        "free-setup-random-6",
        "campaign-free-setup",
        6,
        ["random", "random"],
        100_000,
    ),
    (
        "free-setup-scripted-7",
        "campaign-free-setup",
        7,
        ["scripted", "scripted"],
        100_000,
    ),
];

pub const ARDENNES: &[(&str, &str, u64, [&str; 2], u64)] = &[
    (
        "campaign-scripted-german-1",
        "campaign",
        1,
        ["scripted", "random"],
        1_500,
    ),
    (
        "campaign-scripted-allied-2",
        "campaign",
        2,
        ["random", "scripted"],
        1_500,
    ),
    (
        "breakthrough-scripted-3",
        "breakthrough",
        3,
        ["scripted", "scripted"],
        1_500,
    ),
    ("peiper-random-4", "peiper", 4, ["random", "random"], 2_000),
    ("peiper-scripted-5", "peiper", 5, ["scripted", "random"], 2_000),
    ("goose-egg-random-6", "goose-egg", 6, ["random", "random"], 3_000),
    ("goose-egg-scripted-7", "goose-egg", 7, ["scripted", "scripted"], 3_000),
    ("bastogne-random-8", "bastogne", 8, ["random", "random"], 3_000),
    ("bastogne-scripted-9", "bastogne", 9, ["random", "scripted"], 3_000),
    ("spearpoint-random-10", "spearpoint", 10, ["random", "random"], 3_000),
    (
        "spearpoint-scripted-11",
        "spearpoint",
        11,
        ["scripted", "random"],
        3_000,
    ),
];

#[test]
#[ignore = "records the golden traces again: only for a rule change, said in the commit"]
fn record_stalingrad_traces() {
    for &(name, scenario, seed, agents, max) in STALINGRAD {
        let h = head(StalingradBlitz::ID, scenario, seed, agents, max);
        write::<StalingradBlitz>("games/stalingrad-blitz/tests/traces", name, h, || {
            Box::new(stalingrad::Scripted::new())
        });
    }
}

#[test]
#[ignore = "records the golden traces again: only for a rule change, said in the commit"]
fn record_ardennes_traces() {
    for &(name, scenario, seed, agents, max) in ARDENNES {
        let h = head(ArdennesII::ID, scenario, seed, agents, max);
        write::<ArdennesII>("games/ardennes-ii/tests/traces", name, h, || {
            Box::new(ardennes::Scripted::new())
        });
    }
}

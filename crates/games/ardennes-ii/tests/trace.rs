//! The golden traces in `tests/traces/` replay on this build: every legal list, every number
//! the generator gave and every log line are what they were when the traces were recorded
//! (`sandtable_core::trace`; recorded by `crates/ai/tests/record_traces.rs`).

use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::trace::{from_text, replay};
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

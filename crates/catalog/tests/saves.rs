//! Save files written by earlier builds still load, replay and play on. `tests/fixtures/saves-v1`
//! holds saves written by the build whose save format was 1; each has beside it (`.expect.json`)
//! the decision it stood at then: who decides, and the legal actions as a set.

use sandtable_catalog::load_any;
use sandtable_core::game::Pending;
use std::path::{Path, PathBuf};

#[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Expect {
    pending: Pending,
    legal: usize,
    legal_hash: String,
}

fn fnv(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    format!("{h:016x}")
}

fn expect_of(session: &dyn sandtable_core::record::DynSession) -> Expect {
    let legal = session.legal();
    let mut forms: Vec<String> = legal.iter().map(|a| a.action.to_string()).collect();
    forms.sort_unstable();
    Expect {
        pending: session.pending(),
        legal: legal.len(),
        legal_hash: fnv(&forms.join("\n")),
    }
}

fn saves(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the fixtures folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && !p.to_string_lossy().ends_with(".expect.json"))
        .collect();
    files.sort();
    files
}

#[test]
fn format_1_saves_load_and_stand_at_the_same_decision() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/saves-v1");
    let files = saves(&dir);
    assert!(files.len() >= 5, "the saves are missing from {}", dir.display());
    for f in files {
        let text = std::fs::read_to_string(&f).expect("a save reads");
        let session = load_any(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let got = expect_of(session.as_ref());
        let expect_file = f.with_extension("expect.json");
        if std::env::var_os("SANDTABLE_WRITE_EXPECT").is_some() {
            std::fs::write(&expect_file, serde_json::to_string_pretty(&got).expect("json")).expect("written");
            continue;
        }
        let want: Expect = serde_json::from_str(&std::fs::read_to_string(&expect_file).expect("the expectation"))
            .expect("the expectation reads");
        assert_eq!(got, want, "{}", f.display());
        // What it writes now loads again, at the same decision.
        let again = load_any(&session.to_json()).unwrap_or_else(|e| panic!("{} saved again: {e}", f.display()));
        assert_eq!(expect_of(again.as_ref()), want, "{} saved again", f.display());
        // And play goes on from it.
        let mut session = again;
        if let Pending::Seat(seat) = session.pending() {
            let first = session.legal()[0].action.clone();
            session
                .act_json(seat, &first)
                .unwrap_or_else(|e| panic!("{}: the first legal action: {e}", f.display()));
        }
    }
}

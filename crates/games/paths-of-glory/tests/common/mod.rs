//! What the rules tests share: the shipped data, loaded once, and the check that damaged files
//! are refused with their reason.

#![allow(dead_code)]

use sandtable_core::graph::Space;
use sandtable_paths_of_glory::setup::Setup;
use sandtable_paths_of_glory::state::Position;
use sandtable_paths_of_glory::Data;
use std::fmt::Display;
use std::sync::OnceLock;

/// The shipped data, loaded once per test binary.
pub fn data() -> &'static Data {
    static D: OnceLock<Data> = OnceLock::new();
    D.get_or_init(|| Data::load().unwrap_or_else(|e| panic!("{e}")))
}

/// The shipped set-up.
pub fn setup() -> &'static Setup {
    static S: OnceLock<Setup> = OnceLock::new();
    S.get_or_init(|| Setup::load(data()).unwrap_or_else(|e| panic!("{e}")))
}

/// The position of August 1914 in the Historical scenario.
pub fn start() -> Position {
    setup().position(data(), true)
}

/// A space by id.
pub fn sp(id: &str) -> Space {
    data().space(id).unwrap_or_else(|| panic!("no space {id}"))
}

/// A counter's index by id.
pub fn unit(id: &str) -> usize {
    data()
        .pieces
        .iter()
        .position(|p| p.id == id)
        .unwrap_or_else(|| panic!("no counter {id}"))
}

/// Each damaged text (it must differ from `good`) is refused by `load` with an error that
/// names `why`.
pub fn refused<T, E: Display>(good: &str, cases: &[(String, &str)], load: impl Fn(&str) -> Result<T, E>) {
    for (text, why) in cases {
        assert_ne!(text, good, "the damage applies ({why})");
        match load(text) {
            Ok(_) => panic!("accepted a damaged file ({why})"),
            Err(e) => assert!(e.to_string().contains(why), "{why}: {e}"),
        }
    }
}

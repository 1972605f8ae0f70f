//! A scenario file a player writes (docs/formats.md, "Scenario files (Ardennes II)"): the phase
//! its first turn begins with, the air strikes left and the Freeze for a game begun after the
//! pre-turn, and barrage markers on the map, as the loader reads them and the game starts.

mod common;

use common::*;
use sandtable_ardennes_ii::sequence::{Phase, Side};
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::game::{Game, Pending};

const BASTOGNE: &str = include_str!("../data/scenarios/bastogne.toml");

/// The Bastogne scenario (7.5) under another name, with `header` added to its `[scenario]` and
/// `tail` at the end of the file.
fn written(header: &str, tail: &str) -> String {
    let text = BASTOGNE
        .replace("id = \"bastogne\"", "id = \"my-bastogne\"")
        .replace("schedule = false\n", &format!("schedule = false\n{header}\n"));
    format!("{text}\n{tail}\n")
}

/// The error a written scenario is refused with.
fn refused_file(header: &str, tail: &str) -> String {
    match ArdennesII::from_scenario_text(&written(header, tail), 1) {
        Ok(_) => panic!("accepted: {header} / {tail}"),
        Err(e) => e.0,
    }
}

#[test]
fn a_scenario_begins_at_the_phase_it_names_with_its_markers_strikes_and_freeze() {
    let text = written(
        "first_phase = \"us-movement\"\nstrikes_left = 2\nfrozen = true",
        "[[marker]]\nkind = \"barrage-full\"\nhex = \"B2.17\"\nside = \"german\"\n\n\
         [[marker]]\nkind = \"barrage-half\"\nhex = \"B3.17\"\nside = \"allied\"\ncount = 2",
    );
    let mut g = ArdennesII::from_scenario_text(&text, 3).expect("the scenario loads");
    // The set-up's own choices first (SCS 5.0), then the phase the file names.
    while !g.placing().is_empty() {
        let first = legal(&g)[0].clone();
        play(&mut g, first);
    }
    assert_eq!(g.phase(), Phase::Movement(Side::Allied));
    assert_eq!(g.state().turn, 4);
    assert_eq!(g.pending(), Pending::Seat(ALLIED), "the US player moves first");
    assert_eq!(g.state().air_strikes, 2, "2.2: the strikes left");
    assert!(g.state().frozen, "2.2: the Freeze has come");
    let at = |id: &str| hex(&g, id);
    let markers: Vec<(String, Side, u8, u8)> = g
        .state()
        .markers
        .iter()
        .map(|m| {
            (
                sandtable_core::hex::HexGrid::id(&g.world().map.grid, m.hex).0,
                m.side,
                m.full,
                m.half,
            )
        })
        .collect();
    assert_eq!(
        markers,
        [
            ("B2.17".to_string(), Side::German, 1, 0),
            ("B3.17".to_string(), Side::Allied, 0, 2)
        ]
    );
    // The German Full marker is on the map for the US units moving now (3.5).
    assert_eq!(board(&g).full_markers(at("B2.17"), Side::German), 1);
}

#[test]
fn without_a_first_phase_a_written_scenario_begins_with_the_pre_turn() {
    let g = ArdennesII::from_scenario_text(&written("", ""), 3).expect("the scenario loads");
    assert_eq!(
        g.phase().phasing(),
        None,
        "the pre-turn (or the set-up): {:?}",
        g.phase()
    );
    assert!(g.state().markers.is_empty());
    assert!(!g.state().frozen);
}

#[test]
fn a_scenario_file_with_a_bad_phase_or_marker_is_refused_with_the_reason() {
    let e = refused_file("first_phase = \"lunch\"", "");
    assert!(e.contains("first_phase `lunch` is unknown"), "{e}");
    // 4.3: no German exploitation on turn 1.
    let one = written("first_phase = \"german-exploitation\"", "").replace("first_turn = 4", "first_turn = 1");
    let e = ArdennesII::from_scenario_text(&one, 1).err().expect("refused").0;
    assert!(e.contains("turn 1 has no such phase"), "{e}");
    let e = refused_file("strikes_left = 2", "");
    assert!(e.contains("strikes_left"), "{e}");
    let e = refused_file("first_phase = \"weather\"\nstrikes_left = 2", "");
    assert!(e.contains("strikes_left"), "{e}");
    let e = refused_file("", "[[marker]]\nkind = \"barrage-full\"\nhex = \"B2.17\"");
    assert!(e.contains("needs the `side`"), "{e}");
    let e = refused_file(
        "",
        "[[marker]]\nkind = \"barrage-full\"\nhex = \"B2.17\"\nside = \"german\"\ncount = 0",
    );
    assert!(e.contains("`count` is 1 or more"), "{e}");
    let e = refused_file(
        "",
        "[[marker]]\nkind = \"bridge-blown\"\nhex = \"A37.23\"\nside = \"allied\"",
    );
    assert!(e.contains("barrage markers only"), "{e}");
    let e = refused_file(
        "",
        "[[marker]]\nkind = \"barrage-full\"\nhex = \"B30.40\"\nside = \"german\"",
    );
    assert!(e.contains("outside the playing area"), "{e}");
    let e = refused_file("", "[[marker]]\nkind = \"traffic-jam\"\nhex = \"B2.17\"");
    assert!(e.contains("traffic-jam"), "{e}");
}

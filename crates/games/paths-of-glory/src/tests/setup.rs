//! 4.0 Set-up: the Unit Setup against the counter manifest and the reinforcement cards, the
//! position it gives, and damaged set-up files refused.

use crate::setup::{Setup, SETUP_TOML};
use crate::state::{side_index, Fort, Location, Trench};
use crate::{Kind, Side};
use std::collections::BTreeMap;

use super::common;

use common::{data, setup};

/// Every corps counter of a nation is accounted for once: set up on the map or in a Reserve
/// Box, brought by a reinforcement card (by its printed label), or set up when its nation
/// enters the war. This is the supplement's count check (§6.13: GE 8 + 3 at start + 8 from cards
/// = 19, …) made against the three files.
#[test]
fn every_corps_is_set_up_or_brought_by_a_card_or_an_entry() {
    let d = data();
    let s = setup();
    let mut at_start: BTreeMap<String, usize> = BTreeMap::new();
    let corps_of = |id: &str| d.piece(id).filter(|p| p.kind == Kind::Corps).map(|p| p.label.clone());
    let places = s.place.iter().chain(s.entries.iter().flat_map(|e| e.place.iter()));
    for id in places
        .flat_map(|p| p.units.iter())
        .chain(&s.reserve_cp)
        .chain(&s.reserve_ap)
        .chain(s.entries.iter().flat_map(|e| e.reserve.iter()))
        .chain(
            s.entries
                .iter()
                .flat_map(|e| e.choose.iter().flat_map(|c| c.units.iter())),
        )
    {
        if let Some(label) = corps_of(id) {
            *at_start.entry(label).or_default() += 1;
        }
    }
    let mut by_cards: BTreeMap<String, usize> = BTreeMap::new();
    for c in &d.cards {
        for u in c.reinforcements.iter().flat_map(|r| r.units.iter()) {
            if u.contains("Corps") {
                *by_cards.entry(u.clone()).or_default() += 1;
            }
        }
    }
    let mut manifest: BTreeMap<String, usize> = BTreeMap::new();
    for p in d.pieces.iter().filter(|p| p.kind == Kind::Corps) {
        *manifest.entry(p.label.clone()).or_default() += 1;
    }
    for (label, n) in &manifest {
        let have = at_start.get(label).copied().unwrap_or(0) + by_cards.get(label).copied().unwrap_or(0);
        // The optional cards' corps (Russian Cavalry #57, the Czech Legion #60, Polish
        // Restoration #59) come by their own events, which the card data do not list as
        // reinforcements.
        if ["RU Cavalry Corps", "RU Czech Legion", "POL Corps"].contains(&label.as_str()) {
            continue;
        }
        assert_eq!(have, *n, "{label}: {have} set up or brought by cards, {n} counters");
    }
    // The supplement's figures for the start.
    let count = |prefix: &str, loc: Location| {
        let pos = s.position(d, true);
        d.pieces
            .iter()
            .zip(&pos.units)
            .filter(|(p, u)| p.id.starts_with(prefix) && std::mem::discriminant(&u.loc) == std::mem::discriminant(&loc))
            .count()
    };
    let on_map = Location::Map(sandtable_core::graph::Space(0));
    assert_eq!(
        (count("ge-corps", on_map), count("ge-corps", Location::Reserve)),
        (3, 8)
    );
    assert_eq!(
        (count("ah-corps", on_map), count("ah-corps", Location::Reserve)),
        (5, 4)
    );
    assert_eq!(
        (count("fr-corps", on_map), count("fr-corps", Location::Reserve)),
        (3, 7)
    );
    assert_eq!(
        (count("ru-corps", on_map), count("ru-corps", Location::Reserve)),
        (8, 5)
    );
    assert_eq!(count("sb-corps", Location::Reserve), 2);
}

#[test]
fn the_start_position_4_1_and_4_2() {
    let d = data();
    let pos = setup().position(d, true);
    assert!(pos.faults(d).is_empty(), "{:?}", pos.faults(d));
    assert_eq!((pos.vp, pos.war_status, pos.turn), (10, [0, 0], 1));
    let sp = |id: &str| d.space(id).unwrap();
    // Metz: the 4th and 5th Armies behind a CP trench.
    let metz: Vec<&str> = pos.units_in(sp("metz")).map(|i| d.pieces[i].id.as_str()).collect();
    assert_eq!(metz, ["ge-army-4", "ge-army-5"]);
    assert_eq!(
        pos.space(sp("metz")).trench,
        Some(Trench {
            side: Side::Cp,
            level: 1
        })
    );
    // Paris: the French 6th Army reduced, in its fort, behind a trench.
    let paris = sp("paris");
    let six = d.pieces.iter().position(|p| p.id == "fr-army-6").unwrap();
    assert_eq!(pos.units[six].loc, Location::Map(paris));
    assert!(!pos.units[six].full);
    assert_eq!(pos.space(paris).fort, Fort::Intact);
    // Neutral countries are nobody's; the belligerents' spaces their printed side's.
    assert_eq!(pos.space(sp("rome")).control, None);
    assert_eq!(pos.space(sp("constantinople")).control, None);
    assert_eq!(pos.space(sp("sofia")).control, None);
    // 2022 9.5.2.4: Kavala is Allied from the start, the rest of Greece neutral.
    assert_eq!(pos.space(sp("kavala")).control, Some(Side::Ap));
    assert_eq!(pos.space(sp("athens")).control, None);
    assert_eq!(pos.space(sp("belgrade")).control, Some(Side::Ap));
    assert_eq!(pos.space(sp("vienna")).control, Some(Side::Cp));
    // No Turkish, Italian or American unit is on the map yet.
    for (p, u) in d.pieces.iter().zip(&pos.units) {
        if ["tu-", "it-", "us-", "bu-", "ro-", "gr-"]
            .iter()
            .any(|x| p.id.starts_with(x))
        {
            assert_eq!(u.loc, Location::Aside, "{}", p.id);
        }
    }
    assert!(
        pos.cards[side_index(Side::Cp)].hand.is_empty(),
        "cards are dealt by chance (4.3)"
    );
}

/// 5.7.1: the Historical scenario adds the Strasbourg trench and removes Brussels's.
#[test]
fn the_historical_trenches_5_7_1() {
    let d = data();
    let sp = |id: &str| d.space(id).unwrap();
    let hist = setup().position(d, true);
    let other = setup().position(d, false);
    assert!(hist.space(sp("strasbourg")).trench.is_some());
    assert!(other.space(sp("strasbourg")).trench.is_none());
    assert!(hist.space(sp("brussels")).trench.is_none());
    assert_eq!(
        other.space(sp("brussels")).trench.map(|t| (t.side, t.level)),
        Some((Side::Ap, 1))
    );
    // Everything else is the same.
    let differ: Vec<&str> = d
        .map
        .graph
        .space_indices()
        .filter(|&s| hist.space(s) != other.space(s))
        .map(|s| d.map.graph.space(s).id.as_str())
        .collect();
    assert_eq!(differ, ["brussels", "strasbourg"]);
    assert_eq!(hist.units, other.units);
}

/// Turkey's entry (16.1.3.1) sets up all fourteen Turkish corps, each in a Turkish space.
#[test]
fn turkeys_entry_sets_up_every_turkish_corps() {
    let d = data();
    let tu = setup()
        .entries
        .iter()
        .find(|e| e.nation == "tu")
        .expect("Turkey's entry");
    let units: Vec<&String> = tu.place.iter().flat_map(|p| p.units.iter()).collect();
    let all = d.pieces.iter().filter(|p| p.id.starts_with("tu-corps")).count();
    assert_eq!(units.len(), all);
    for p in &tu.place {
        let s = d.space(&p.space).unwrap();
        assert_eq!(d.facts(s).nation.as_deref(), Some("tu"), "{}", p.space);
    }
}

#[test]
fn a_damaged_setup_is_refused_with_the_reason() {
    let d = data();
    let cases = [
        (
            SETUP_TOML.replacen("space = \"bremen\"", "space = \"bremerhaven\"", 1),
            "no space `bremerhaven`",
        ),
        (
            SETUP_TOML.replacen("units = [\"ge-army-1\"]", "units = [\"ge-army-2\"]", 1),
            "`ge-army-2` is set up twice",
        ),
        (
            SETUP_TOML.replacen("choose = { count = 4,", "choose = { count = 3,", 1),
            "entry `bu`: `choose` places 4 units, one to a space, not 3",
        ),
        (
            SETUP_TOML.replacen("reduced = [\"ge-corps-1\"]", "reduced = [\"ge-corps-9\"]", 1),
            "reduced but not set up",
        ),
        (
            SETUP_TOML.replacen("units = [\"ge-army-1\"]", "units = [\"fr-army-7\"]", 1),
            "space of the other side",
        ),
        (
            SETUP_TOML.replacen("\"be-corps\",", "\"ge-corps-12\",", 1),
            "the other side's Reserve Box",
        ),
        (
            SETUP_TOML.replacen("\"be-corps\",", "\"be-army-1\",", 1),
            "only corps wait in a Reserve Box",
        ),
        (SETUP_TOML.replacen("trench = 1\n", "trench = 3\n", 1), "level 1 or 2"),
        (
            SETUP_TOML.replacen("space = \"bremen\"", "space = 7", 1),
            "data/setup.toml",
        ),
    ];
    common::refused(SETUP_TOML, &cases, |t| Setup::from_text(t, d));
}

/// 16.1.3.1, 2022 11.1.13: Turkey's entry sets up its corps, makes its spaces the CP's,
/// Kermanshah the CP's and the rest of Persia the Allies', and brings Arabia and Libya into the
/// war; a second entry does nothing.
#[test]
fn turkey_enters_the_war() {
    let d = data();
    let mut pos = setup().position(d, true);
    let chosen = setup().enter(d, &mut pos, "tu", true, false).expect("Turkey enters");
    assert!(chosen.is_empty());
    let sp = |id: &str| d.space(id).unwrap();
    assert_eq!(pos.space(sp("constantinople")).control, Some(Side::Cp));
    assert_eq!(pos.space(sp("kermanshah")).control, Some(Side::Cp));
    assert_eq!(pos.space(sp("tabriz")).control, Some(Side::Ap));
    assert_eq!(pos.space(sp("arabia")).control, Some(Side::Ap));
    assert_eq!(pos.space(sp("libya")).control, Some(Side::Cp));
    assert!(pos.space(sp("baghdad")).trench.is_some());
    let turks = pos
        .units
        .iter()
        .zip(&d.pieces)
        .filter(|(u, p)| p.id.starts_with("tu-corps") && matches!(u.loc, Location::Map(_)))
        .count();
    assert_eq!(turks, 14);
    assert!(!pos.neutral.contains(&"tu".to_string()) && pos.neutral.contains(&"it".to_string()));
    assert!(
        setup().enter(d, &mut pos, "tu", true, false).is_none(),
        "already at war"
    );
    assert!(pos.faults(d).is_empty());
}

/// 9.5.2.1: Bulgaria sets up two corps in Sofia and lets the CP place four more, one in each of
/// four other Bulgarian spaces; Greece's limited entry (9.5.2.4) leaves Greece neutral.
#[test]
fn bulgaria_and_greece_enter() {
    let d = data();
    let mut pos = setup().position(d, true);
    let chosen = setup().enter(d, &mut pos, "bu", true, false).expect("Bulgaria enters");
    assert_eq!(chosen.len(), 4);
    let spaces = setup().choice_spaces(d, &pos, "bu");
    assert_eq!(spaces.len(), 6, "the seven Bulgarian spaces but Sofia");
    assert_eq!(pos.space(d.space("sofia").unwrap()).control, Some(Side::Cp));
    setup().enter(d, &mut pos, "gr", true, true).expect("Salonika");
    assert_eq!(pos.space(d.space("athens").unwrap()).control, None);
    assert!(pos.neutral.contains(&"gr".to_string()));
    let athens = pos.units_in(d.space("athens").unwrap()).count();
    assert_eq!(athens, 1, "the Greek corps stands in Athens, still neutral");
}

/// A new game is on the data edition this build names (its readings all in force), and a game
/// begun on an earlier edition keeps its number.
#[test]
fn a_new_game_is_on_this_builds_data_edition() {
    use crate::game::PathsOfGlory;
    use sandtable_core::game::Game;
    let edition: u8 = <PathsOfGlory as sandtable_core::driver::Rules>::DATA_EDITION
        .parse()
        .expect("a number");
    assert_eq!(
        PathsOfGlory::new_game("campaign", 1)
            .expect("the campaign")
            .scenario
            .edition,
        edition
    );
    let old = <PathsOfGlory as sandtable_core::driver::Rules>::setup_edition("campaign", 1, "3").expect("edition 3");
    assert_eq!(old.scenario.edition, 3);
}

/// Every game begins from the set-up's position made once (for the Historical scenario and for
/// the others): what the set-up makes afresh, a second game beginning as the first, and the two
/// positions not the same.
#[test]
fn every_game_begins_from_the_set_ups_position_made_afresh() {
    let sh = crate::game::shipped().expect("the shipped data load");
    for historical in [false, true] {
        let fresh = sh.setup.position(&sh.data, historical);
        assert_eq!(sh.start(historical), fresh, "historical {historical}");
        assert_eq!(sh.start(historical), fresh, "historical {historical}, again");
    }
    assert_ne!(
        sh.start(false),
        sh.start(true),
        "the Historical scenario sets up its own trenches"
    );
}

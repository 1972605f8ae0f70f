//! The set-up (4.0) made by the players: refusals of placements 4.0 forbids, each citing 4.0;
//! the dead-end guard; random set-ups of `campaign-free-setup` that always reach turn 1 with
//! every set-up unit placed and every constraint of 4.0 met (checked here on the final
//! position, from the map's hex sets and the counters, independently of the engine); and, on
//! a tiny map where every rule matters, the set of set-ups the legal actions can reach is
//! exactly the set of set-ups 4.0 allows.

mod common;
use common::*;
use proptest::prelude::*;
use sandtable_core::chance::Rng;
use sandtable_core::game::{Game, Pending, Rules};
use sandtable_stalingrad_blitz::data::{Data, Entry, Nation, UType};
use sandtable_stalingrad_blitz::scenario::CAMPAIGN_TOML;
use sandtable_stalingrad_blitz::state::{Frame, Loc, Select};
use sandtable_stalingrad_blitz::{Action, Hex, Side, StalingradBlitz};
use std::collections::{BTreeMap, BTreeSet};

fn free_setup(seed: u64) -> StalingradBlitz {
    StalingradBlitz::new_game("campaign-free-setup", seed).expect("the free set-up campaign loads")
}

/// The unit the set-up asks for now (the one every legal action places).
fn next_unit(g: &StalingradBlitz) -> u16 {
    match legal(g).first() {
        Some(Action::Place { unit, .. }) => *unit,
        other => panic!("not a set-up decision: {other:?}"),
    }
}

/// Places units (id, hex) in order, each of which must be the next asked for and legal.
fn place_all(g: &mut StalingradBlitz, list: &[(&str, &str)]) {
    for (id, h) in list {
        assert_eq!(next_unit(g), unit(g, id), "{id} is not the next unit to set up");
        let a = Action::Place {
            unit: unit(g, id),
            at: hex(g, h),
        };
        act(g, a);
    }
}

/// Tries a placement that must be refused; returns the rule and the English text.
fn refused(g: &StalingradBlitz, id: &str, h: &str) -> (String, String) {
    let a = Action::Place {
        unit: unit(g, id),
        at: hex(g, h),
    };
    assert!(!legal(g).contains(&a), "{id} at {h} is offered");
    let mut h2 = g.clone();
    let r = h2.apply(seat(g), &a).expect_err("the placement is refused");
    assert!(
        !r.text.zh.is_empty() && r.text.zh != r.text.en,
        "a Chinese text too: {r}"
    );
    (r.rule, r.text.en)
}

// ------------------------------------------------------------------ refusals

#[test]
fn the_free_setup_starts_with_the_axis_after_the_hqs() {
    let g = free_setup(1);
    assert_eq!(g.frames().last(), Some(&Frame::SetUp));
    assert_eq!(g.state().turn, 1);
    assert_eq!(seat(&g), Side::Axis.seat());
    // 4.0(2): every HQ is on its printed HQ hex already (one hex each: no choice).
    for (id, h) in [("ger-hq-4pza", "1202"), ("ger-hq-6a", "1208"), ("sov-hq-swf", "2207")] {
        assert_eq!(at(&g, id).as_deref(), Some(h), "{id}");
    }
    assert_eq!(next_unit(&g), unit(&g, "ger-pz-9"));
    // German mechanised units of the 4th Panzer Army: only its panzer-symbol hexes.
    let mut offered: Vec<String> = legal(&g)
        .iter()
        .map(|a| match a {
            Action::Place { at, .. } => g.data().map.grid.id(*at).0,
            _ => unreachable!(),
        })
        .collect();
    offered.sort();
    assert_eq!(offered, ["1201", "1301", "1303", "1401", "1402"]);
    // The terminal's board text lists them, with what stands next to them (the 4th Panzer
    // Army HQ at 1202).
    let board = g.board_text(None, sandtable_core::text::Lang::En);
    for h in offered
        .iter()
        .chain(["1202"].iter().map(|s| s.to_string()).collect::<Vec<_>>().iter())
    {
        assert!(board.contains(h.as_str()), "{h} missing from\n{board}");
    }
    // Nothing but the set-up until it is done.
    let mut h = g.clone();
    let r = h
        .apply(0, &Action::Pick { chit: 0 })
        .expect_err("no chits during the set-up");
    assert!(r.rule.starts_with("4.0"), "{r}");
}

#[test]
fn a_unit_off_its_armys_hexes_is_refused_citing_4_0() {
    let g = free_setup(1);
    // 1306 is a 6th Army hex with a panzer symbol, 1203 the Hungarian HQ hex, 2010 none.
    for h in ["1306", "1203", "2010"] {
        let (rule, text) = refused(&g, "ger-pz-9", h);
        assert_eq!(rule, "4.0(3)", "{h}: {text}");
        assert!(text.contains("4PzA"), "{text}");
    }
}

#[test]
fn a_german_mechanised_unit_off_a_panzer_symbol_is_refused() {
    let g = free_setup(1);
    // 1102 and 1302 are 4th Panzer Army hexes without a panzer symbol.
    for h in ["1102", "1302"] {
        let (rule, text) = refused(&g, "ger-pz-9", h);
        assert_eq!(rule, "4.0(3)");
        assert!(text.contains("panzer"), "{text}");
    }
}

#[test]
fn a_third_unit_in_a_hex_is_refused() {
    let mut g = free_setup(1);
    place_all(&mut g, &[("ger-pz-9", "1201"), ("ger-pz-11", "1201")]);
    let (rule, text) = refused(&g, "ger-pz-24", "1201");
    assert_eq!(rule, "4.0(3)");
    assert!(text.contains("at most 2"), "{text}");
    // An HQ counts (3.1(1)): the 4th Panzer Army HQ's hex takes one more unit only.
    place_all(
        &mut g,
        &[
            ("ger-pz-24", "1301"),
            ("ger-gd", "1303"),
            ("ger-mot-16", "1401"),
            ("ger-mot-3", "1402"),
            ("ger-inf-88", "1202"),
        ],
    );
    let (rule, _) = refused(&g, "ger-inf-377", "1202");
    assert_eq!(rule, "4.0(3)");
}

/// The 4th Panzer Army sets up; a Hungarian division stands in one of its hexes already, a
/// Hungarian HQ in another.
fn mixed() -> StalingradBlitz {
    let mut units: Vec<(&str, &str)> = vec![("ger-hq-4pza", "1202"), ("hun-inf-6", "1201"), ("hun-hq-2a", "1303")];
    for id in [
        "ger-pz-9",
        "ger-pz-11",
        "ger-pz-24",
        "ger-gd",
        "ger-mot-16",
        "ger-mot-3",
        "ger-inf-88",
        "ger-inf-377",
        "ger-inf-385",
        "ger-inf-387",
    ] {
        units.push((id, "set-up"));
    }
    StalingradBlitz::from_text(&scenario_with(1, "", &units, ""), 3).expect("the scenario loads")
}

#[test]
fn mixed_nationalities_are_refused_and_an_hq_may_join() {
    let g = mixed();
    assert_eq!(g.frames().last(), Some(&Frame::SetUp));
    let (rule, text) = refused(&g, "ger-pz-9", "1201");
    assert_eq!(rule, "4.0(3)");
    assert!(text.contains("nationality"), "{text}");
    // "司令部可": a German division may join the Hungarian HQ.
    assert!(legal(&g).contains(&Action::Place {
        unit: unit(&g, "ger-pz-9"),
        at: hex(&g, "1303"),
    }));
}

#[test]
fn units_are_set_up_in_order_and_only_set_up_units() {
    let g = free_setup(1);
    let (rule, text) = refused(&g, "ger-pz-11", "1201");
    assert_eq!(rule, "4.0");
    assert!(text.contains("9th Panzer"), "{text}");
    let (rule, _) = refused(&g, "ger-pz-6", "1201");
    assert_eq!(rule, "4.0(5)");
    // Soviet units wait for the Axis: it is not the Soviet player's decision.
    let a = Action::Place {
        unit: unit(&g, "sov-rifle-45"),
        at: hex(&g, "1501"),
    };
    assert!(g.clone().apply(Side::Soviet.seat(), &a).is_err());
}

#[test]
fn soviet_placements_follow_4_0_4() {
    let mut g = free_setup(2);
    while seat(&g) == Side::Axis.seat() {
        let a = legal(&g)[0];
        act(&mut g, a);
    }
    assert_eq!(next_unit(&g), unit(&g, "sov-rifle-45"));
    // 4.0(4)1: the Front Line only on front-line hexes, one to each.
    let (rule, _) = refused(&g, "sov-rifle-45", "2102");
    assert_eq!(rule, "4.0(4)1");
    place_all(&mut g, &[("sov-rifle-45", "1501")]);
    let (rule, text) = refused(&g, "sov-rifle-62", "1501");
    assert_eq!(rule, "4.0(4)1", "{text}");
    // Fill the front line, then the Second Line.
    while next_unit(&g) != unit(&g, "sov-tk-4") {
        let a = legal(&g)[0];
        act(&mut g, a);
    }
    // 4.0(4)2: not a town; an Axis-controlled town (Kharkov); a front-line town (A38); a town
    // that already holds a unit (the South-Western Front HQ's).
    for (h, what) in [
        ("2103", "town"),
        ("1208", "Soviet-controlled"),
        ("1707", "front-line"),
        ("2207", "stack"),
    ] {
        let (rule, text) = refused(&g, "sov-tk-4", h);
        assert_eq!(rule, "4.0(4)2", "{h}: {text}");
        assert!(text.contains(what), "{h}: {text}");
    }
    // Voronezh (2102) is fine.
    place_all(&mut g, &[("sov-tk-4", "2102")]);
    let (rule, text) = refused(&g, "sov-tk-13", "2102");
    assert_eq!(rule, "4.0(4)2");
    assert!(text.contains("stack"), "{text}");
}

/// The 4th Panzer Army with two infantry divisions fewer (in the pool): eight units for
/// seven empty hexes, so only one hex may take two.
fn short_army() -> StalingradBlitz {
    let mut units: Vec<(&str, &str)> = vec![("ger-hq-4pza", "1202")];
    for id in [
        "ger-pz-9",
        "ger-pz-11",
        "ger-pz-24",
        "ger-gd",
        "ger-mot-16",
        "ger-mot-3",
        "ger-inf-88",
        "ger-inf-377",
    ] {
        units.push((id, "set-up"));
    }
    StalingradBlitz::from_text(&scenario_with(1, "", &units, ""), 3).expect("the scenario loads")
}

#[test]
fn a_placement_that_would_leave_a_set_up_hex_empty_is_not_offered() {
    let mut g = short_army();
    place_all(&mut g, &[("ger-pz-9", "1201"), ("ger-pz-11", "1201")]);
    // The one spare unit is used: the 24th Panzer may no longer go where the 9th and 11th
    // stand, and the GD may not join the 24th, or the infantry could not fill 1102, 1302 and the
    // last panzer hexes.
    place_all(&mut g, &[("ger-pz-24", "1301")]);
    let (rule, text) = refused(&g, "ger-gd", "1301");
    assert_eq!(rule, "4.0(3)");
    assert!(text.contains("could not all be placed"), "{text}");
    // Going on, every hex is filled and the set-up ends.
    while matches!(g.frames().last(), Some(Frame::SetUp)) {
        let a = legal(&g)[0];
        act(&mut g, a);
    }
    for h in g.data().map.hex_set("axis-4PzA") {
        assert!(g.state().units.iter().any(|u| u.loc == Loc::Map(*h)), "{h:?} empty");
    }
}

#[test]
fn a_set_up_that_cannot_be_completed_is_refused_on_load() {
    // Eleven 6th Army units can fill its eight hexes; three cannot.
    let units = [
        ("ger-pz-3", "set-up"),
        ("ger-inf-44", "set-up"),
        ("ger-inf-62", "set-up"),
    ];
    let e = StalingradBlitz::from_text(&scenario_with(1, "", &units, ""), 1)
        .err()
        .expect("refused");
    assert!(e.0.contains("4.0"), "{}", e.0);
    // A unit without set-up information cannot be set up.
    let e = StalingradBlitz::from_text(&scenario_with(1, "", &[("ger-pz-6", "set-up")], ""), 1)
        .err()
        .expect("refused");
    assert!(e.0.contains("4.0(5)"), "{}", e.0);
}

// ------------------------------------------------------------------ the final position

/// The hexes of a named set.
fn set(d: &Data, name: &str) -> BTreeSet<Hex> {
    d.map.hex_set(name).iter().copied().collect()
}

/// Every constraint of 4.0 on a finished set-up, from the map and the counters alone: `setup`
/// are the units the players set up. Returns the first breach.
fn check_4_0(g: &StalingradBlitz, setup: &[u16]) -> Result<(), String> {
    let d = g.data();
    let id = |h: Hex| d.map.grid.id(h).0;
    let front = set(d, "soviet-front-line");
    let panzer = set(d, "panzer-symbol");
    let mut per_hex: BTreeMap<Hex, Vec<u16>> = BTreeMap::new();
    for (i, st) in g.state().units.iter().enumerate() {
        if let Loc::Map(h) = st.loc {
            per_hex.entry(h).or_default().push(i as u16);
        }
    }
    let mut armies: BTreeSet<String> = BTreeSet::new();
    let mut front_line_sets_up = false;
    for &u in setup {
        let def = &d.units[u as usize];
        let st = &g.state().units[u as usize];
        let Loc::Map(h) = st.loc else {
            return Err(format!("{} is not on the map", def.id));
        };
        if st.reduced {
            return Err(format!("{} is reduced (4.0(6))", def.id));
        }
        let ok = if def.utype == UType::Hq {
            set(d, &format!("hq-{}", def.chit.as_deref().unwrap())).contains(&h)
        } else if def.side == Side::Axis {
            let army = def.front.clone().expect("an Axis set-up unit has a start front");
            let in_army = set(d, &format!("axis-{army}")).contains(&h);
            armies.insert(army);
            in_army && !(def.nation == Nation::German && def.mech && !panzer.contains(&h))
        } else if def.entry == Entry::FrontLine {
            front_line_sets_up = true;
            front.contains(&h)
        } else {
            d.is_urban[h.idx()]
                && g.state().control[h.idx()] == Some(Side::Soviet)
                && !front.contains(&h)
                && per_hex[&h].len() == 1
        };
        if !ok {
            return Err(format!("{} stands in {} against 4.0", def.id, id(h)));
        }
    }
    for army in &armies {
        for h in set(d, &format!("axis-{army}")) {
            if !per_hex.contains_key(&h) {
                return Err(format!("{army} set-up hex {} is empty (4.0(3))", id(h)));
            }
        }
    }
    if front_line_sets_up {
        for &h in &front {
            let n = per_hex.get(&h).map_or(0, |l| {
                l.iter()
                    .filter(|&&u| d.units[u as usize].entry == Entry::FrontLine)
                    .count()
            });
            if n != 1 {
                return Err(format!("front-line hex {} has {n} Front Line units (4.0(4)1)", id(h)));
            }
        }
    }
    for (h, list) in &per_hex {
        if list.len() > 2 {
            return Err(format!("{} units in {} (3.1(1), 4.0(3))", list.len(), id(*h)));
        }
        let side = d.units[list[0] as usize].side;
        if list.iter().any(|&u| d.units[u as usize].side != side) {
            return Err(format!("both sides in {} (3.1(2))", id(*h)));
        }
        let nations: BTreeSet<String> = list
            .iter()
            .map(|&u| &d.units[u as usize])
            .filter(|def| def.side == Side::Axis && def.utype != UType::Hq)
            .map(|def| format!("{:?}", def.nation))
            .collect();
        if nations.len() > 1 {
            return Err(format!("{nations:?} share {} (4.0(3))", id(*h)));
        }
    }
    Ok(())
}

/// Random legal play through the set-up; checks each decision offers something. Returns the
/// number of decisions.
fn random_setup(g: &mut StalingradBlitz, seed: u64) -> usize {
    let mut rng = Rng::from_seed(seed);
    let mut l = Vec::new();
    let mut n = 0;
    while matches!(g.frames().last(), Some(Frame::SetUp)) {
        let Pending::Seat(s) = g.pending() else {
            panic!("the set-up waits for no seat")
        };
        g.legal_actions(&mut l);
        assert!(!l.is_empty(), "dead end in the set-up after {n} decisions");
        let a = l[rng.below(l.len() as u32) as usize];
        g.apply(s, &a).unwrap_or_else(|r| panic!("legal {a:?} refused: {r}"));
        n += 1;
    }
    n
}

/// The units the campaign scenario has on the map, by id.
fn campaign_on_map() -> BTreeSet<String> {
    let g = StalingradBlitz::new_game("campaign", 0).unwrap();
    assert!(CAMPAIGN_TOML.contains("[[unit]]"));
    g.state()
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| matches!(u.loc, Loc::Map(_)))
        .map(|(i, _)| g.data().units[i].id.clone())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    /// A random set-up always reaches turn 1 with the campaign's units on the map, every
    /// other unit where the campaign has it, and every constraint of 4.0 met.
    #[test]
    fn random_set_ups_reach_turn_one_conforming_to_4_0(seed in any::<u64>()) {
        let mut g = free_setup(seed);
        let setup: Vec<u16> = (0..g.state().units.len() as u16)
            .filter(|&u| g.state().units[u as usize].loc == Loc::SetUp)
            .collect();
        random_setup(&mut g, seed);
        prop_assert_eq!(g.state().turn, 1);
        prop_assert_eq!(g.frames().last(), Some(&Frame::Select(Select::SovietHq)));
        prop_assert!(g.state().units.iter().all(|u| u.loc != Loc::SetUp));
        let on_map: BTreeSet<String> = g.state().units.iter().enumerate()
            .filter(|(_, u)| matches!(u.loc, Loc::Map(_)))
            .map(|(i, _)| g.data().units[i].id.clone())
            .collect();
        prop_assert_eq!(on_map, campaign_on_map());
        let campaign = StalingradBlitz::new_game("campaign", seed).unwrap();
        for (i, u) in g.state().units.iter().enumerate() {
            if !matches!(u.loc, Loc::Map(_)) {
                prop_assert_eq!(u.loc, campaign.state().units[i].loc);
            }
        }
        prop_assert_eq!(&g.state().control, &campaign.state().control);
        check_4_0(&g, &setup).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn the_fixed_campaign_deployment_passes_the_same_checks() {
    // The checks above hold the free set-up to what the fixed deployment was built to meet.
    let g = StalingradBlitz::new_game("campaign", 0).unwrap();
    let setup: Vec<u16> = (0..g.state().units.len() as u16)
        .filter(|&u| g.data().units[u as usize].entry != Entry::Pool)
        .collect();
    check_4_0(&g, &setup).unwrap();
    // And they can fail.
    let mut bad = g.clone();
    let pz = unit(&g, "ger-pz-9");
    bad.edit().state.units[pz as usize].loc = Loc::Map(hex(&g, "1102"));
    assert!(check_4_0(&bad, &setup).is_err());
}

#[test]
fn a_game_after_a_random_set_up_plays_to_the_end() {
    let mut g = free_setup(11);
    random_setup(&mut g, 11);
    let n = random_play(&mut g, 11, 2_000_000);
    assert_eq!(g.pending(), Pending::Over, "after {n} decisions");
}

#[test]
fn every_set_up_action_is_accepted_exactly_when_offered() {
    // Around the next unit's hexes, `apply` refuses what the legal list does not offer, citing
    // 4.0 (or 3.1 for the other side's hexes), and accepts what it offers.
    let mut g = free_setup(5);
    let mut rng = Rng::from_seed(5);
    while matches!(g.frames().last(), Some(Frame::SetUp)) {
        let l = legal(&g);
        let u = next_unit(&g);
        let s = seat(&g);
        let mut hexes: BTreeSet<Hex> = BTreeSet::new();
        for a in &l {
            if let Action::Place { at, .. } = a {
                hexes.insert(*at);
                hexes.extend(g.data().map.grid.neighbours(*at).map(|(_, n)| n));
            }
        }
        for h in hexes {
            let a = Action::Place { unit: u, at: h };
            if l.contains(&a) {
                continue;
            }
            let r = g.clone().apply(s, &a).expect_err("a placement not offered is refused");
            assert!(r.rule.starts_with("4.0") || r.rule == "3.1(2)", "{r}");
        }
        // An offered one is accepted (`act` panics otherwise).
        let a = l[rng.below(l.len() as u32) as usize];
        act(&mut g, a);
    }
}

#[test]
fn a_free_set_up_game_replays_from_its_record() {
    use sandtable_core::record::{ScenarioSource, Session};
    let mut s = Session::<StalingradBlitz>::new(ScenarioSource::Shipped("campaign-free-setup".into()), 8).unwrap();
    let mut rng = Rng::from_seed(8);
    let mut l = Vec::new();
    for _ in 0..150 {
        let Pending::Seat(seat) = s.game.pending() else { break };
        s.game.legal_actions(&mut l);
        let a = l[rng.below(l.len() as u32) as usize];
        s.act(seat, &a).unwrap();
    }
    assert_ne!(s.game.frames().last(), Some(&Frame::SetUp));
    let again = Session::<StalingradBlitz>::replay(s.record.clone()).unwrap();
    assert_eq!(again.game.checksum(), s.game.checksum());
}

// ------------------------------------------------------------------ the tiny map

const SETUP_MAP: &str = include_str!("fixtures/setup-map.toml");

/// The set-up units on the tiny map.
const TINY: &[&str] = &[
    "ger-hq-4pza",
    "hun-hq-2a",
    "sov-hq-swf",
    "ger-pz-9",
    "ger-mot-16",
    "ger-inf-88",
    "hun-armor-1",
    "hun-inf-6",
    "sov-rifle-45",
    "sov-rifle-62",
    "sov-rifle-121",
    "sov-tk-4",
];

fn tiny(ids: &[&str]) -> StalingradBlitz {
    let units: Vec<(&str, &str)> = ids.iter().map(|&id| (id, "set-up")).collect();
    game_on(data_on(SETUP_MAP), 1, "", &units, "", 1)
}

type Deployment = BTreeMap<u16, Hex>;

fn deployment(g: &StalingradBlitz, units: &[u16]) -> Deployment {
    units
        .iter()
        .map(|&u| (u, g.state().units[u as usize].hex().unwrap()))
        .collect()
}

/// Every deployment reachable through the legal actions; panics at a dead end.
fn reachable(g: &StalingradBlitz, units: &[u16], out: &mut BTreeSet<Deployment>) {
    if !matches!(g.frames().last(), Some(Frame::SetUp)) {
        out.insert(deployment(g, units));
        return;
    }
    let l = legal(g);
    assert!(
        !l.is_empty(),
        "dead end:\n{}",
        g.summary(None, sandtable_core::text::Lang::En)
    );
    for a in l {
        let mut h = g.clone();
        act(&mut h, a);
        reachable(&h, units, out);
    }
}

#[test]
fn on_a_tiny_map_the_legal_set_ups_are_exactly_those_4_0_allows() {
    assert_eq!(legal_equals_allowed(TINY), 60);
    // A third Hungarian division needs the hex the Germans could also take (0204): the guard
    // must keep the German panzers off it from the start.
    let mut more = TINY.to_vec();
    more.push("hun-inf-7");
    assert_eq!(legal_equals_allowed(&more), 36);
    // A third German panzer division too: both nationalities would need 0204, which they may
    // not share, though there is room enough in numbers. The set-up cannot be done.
    more.push("ger-pz-11");
    let units: Vec<(&str, &str)> = more.iter().map(|&id| (id, "set-up")).collect();
    let e = StalingradBlitz::with_data(data_on(SETUP_MAP), &scenario_with(1, "", &units, ""), 1)
        .err()
        .expect("refused");
    assert!(e.0.contains("4.0"), "{}", e.0);
}

/// Checks that the set-ups legal play reaches are exactly those 4.0 allows; returns how many.
fn legal_equals_allowed(ids: &[&str]) -> usize {
    let g = tiny(ids);
    let units: Vec<u16> = ids.iter().map(|id| unit(&g, id)).collect();
    let mut got = BTreeSet::new();
    reachable(&g, &units, &mut got);
    // Every assignment of the units to land hexes of the map that meets 4.0.
    let land: Vec<Hex> = g
        .data()
        .map
        .grid
        .hexes()
        .filter(|&h| g.data().map.terrain(h) & g.data().t.sea == 0)
        .collect();
    let mut want = BTreeSet::new();
    let mut probe = g.clone();
    let mut pick = vec![0usize; units.len()];
    // A unit's hexes: those the map names for units like it, checked again by `check_4_0`.
    let names = |u: u16| -> Vec<Hex> {
        let def = &g.data().units[u as usize];
        let named: Vec<Hex> = if def.utype == UType::Hq {
            g.data()
                .map
                .hex_set(&format!("hq-{}", def.chit.as_deref().unwrap()))
                .to_vec()
        } else if def.side == Side::Axis {
            g.data()
                .map
                .hex_set(&format!("axis-{}", def.front.as_deref().unwrap()))
                .to_vec()
        } else if def.entry == Entry::FrontLine {
            g.data().map.hex_set("soviet-front-line").to_vec()
        } else {
            land.iter().copied().filter(|h| g.data().is_urban[h.idx()]).collect()
        };
        named
    };
    let options: Vec<Vec<Hex>> = units.iter().map(|&u| names(u)).collect();
    'all: loop {
        for (i, &u) in units.iter().enumerate() {
            probe.edit().state.units[u as usize].loc = Loc::Map(options[i][pick[i]]);
        }
        if check_4_0(&probe, &units).is_ok() {
            want.insert(deployment(&probe, &units));
        }
        for i in 0..units.len() {
            pick[i] += 1;
            if pick[i] < options[i].len() {
                continue 'all;
            }
            pick[i] = 0;
        }
        break;
    }
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want);
    want.len()
}

//! The data files against the rulebook: the set-ups of every scenario (Appendix A of the
//! inventory, counted by hand from the book), the Arrival Schedules (Appendix B), the CRT, the
//! TEC and its examples, the tables and the victory hexes; and the loader refusing bad data.

use sandtable_ardennes_ii::data::tables::{Demolition, HalfReconciliation, Resupply, VdhLanding};
use sandtable_ardennes_ii::data::{
    scs_grid, AirStrikeRule, Data, Edge, Exit, Landing, Location, Movement, Mp, Scenario, SupplySource, Texts,
    UnitType, Victory, VictoryResult, Weather,
};
use sandtable_ardennes_ii::sequence::Side;
use std::sync::OnceLock;

fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| Data::load().unwrap_or_else(|e| panic!("the shipped data must load: {e}")))
}

fn scenario(id: &str) -> &'static Scenario {
    data().scenario(id).unwrap_or_else(|| panic!("no scenario {id}"))
}

fn hex(id: &str) -> sandtable_core::hex::Hex {
    data().grid.parse(id).unwrap()
}

/// The placement of a unit in a scenario's set-up.
fn placed(s: &Scenario, id: &str) -> &'static sandtable_ardennes_ii::data::Placement {
    let d = data();
    let u = d.counters.index(id).unwrap_or_else(|| panic!("no unit {id}"));
    let s: &'static Scenario = scenario(&s.id);
    s.setup
        .iter()
        .find(|p| p.unit == u)
        .unwrap_or_else(|| panic!("{id} is not set up in {}", s.id))
}

fn at_hex(s: &Scenario, id: &str) -> String {
    match &placed(s, id).at {
        Location::Hex(h) | Location::Within { hex: h, .. } => data().hex_id(*h),
        other => panic!("{id}: {other:?}"),
    }
}

#[test]
fn the_shipped_data_loads() {
    let d = data();
    assert_eq!(d.counters.units.len(), 479);
    assert_eq!(d.counters.units.iter().filter(|u| u.side == Side::Allied).count(), 252);
    assert_eq!(d.counters.units.iter().filter(|u| u.side == Side::German).count(), 227);
    let ids: Vec<&str> = d.scenarios.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "campaign",
            "breakthrough",
            "peiper",
            "goose-egg",
            "bastogne",
            "spearpoint"
        ]
    );
    let rules: Vec<&str> = d.scenarios.iter().map(|s| s.rule.as_str()).collect();
    assert_eq!(rules, ["7.1", "7.2", "7.3", "7.4", "7.5", "7.6"]);
}

#[test]
fn every_unit_appears_in_the_campaign() {
    // Every counter of the later scenarios is one of the campaign's: set up or scheduled.
    let d = data();
    let c = scenario("campaign");
    for (i, u) in d.counters.units.iter().enumerate() {
        let i = i as u16;
        let in_campaign = c.setup.iter().any(|p| p.unit == i) || c.arrivals.iter().any(|a| a.units.contains(&i));
        assert!(in_campaign, "{} is not in 7.1", u.id);
    }
}

#[test]
fn setups_match_appendix_a() {
    // (scenario, Allied units, German units), counted from the book's set-up lines, one counter
    // per id in parentheses.
    let expect = [
        ("campaign", 58, 134),
        // 7.1's set-up without the two Allied units on Map A, which the errata makes
        // reinforcements.
        ("breakthrough", 56, 134),
        ("peiper", 21, 55),
        ("goose-egg", 22, 33),
        ("bastogne", 15, 24),
        ("spearpoint", 48, 32),
    ];
    let d = data();
    for (id, allied, german) in expect {
        let s = scenario(id);
        assert_eq!(s.setup_count(&d.counters, Side::Allied), allied, "{id}: Allied set-up");
        assert_eq!(s.setup_count(&d.counters, Side::German), german, "{id}: German set-up");
        for p in &s.setup {
            if let Location::Hex(h) = p.at {
                assert!(s.in_area(&d.grid, h), "{id}: {} set up outside the area", d.hex_id(h));
            }
        }
    }
}

#[test]
fn spot_checks_of_set_up_hexes_values_and_flags() {
    let d = data();
    let c = scenario("campaign");
    let u = |id: &str| d.unit(id).unwrap_or_else(|| panic!("no unit {id}"));

    // 7.1, Allied: 2nd Infantry Division's A/9 at B27.49, 3-5-10 foot infantry.
    assert_eq!(at_hex(c, "us-2id-inf-a-9"), "B27.49");
    assert_eq!(u("us-2id-inf-a-9").values(false), "3-5-10");
    assert_eq!(u("us-2id-inf-a-9").movement, Movement::Foot);
    // 9th Armored's Task Force Harper at B14.23, 4-3-14 armour.
    assert_eq!(at_hex(c, "us-9ad-arm-harper"), "B14.23");
    assert_eq!(u("us-9ad-arm-harper").values(false), "4-3-14");
    assert_eq!(u("us-9ad-arm-harper").utype, UnitType::Armor);
    // Arty Grp 402 at B21.29, [14]-1-16.
    assert_eq!(at_hex(c, "us-arty-402"), "B21.29");
    assert_eq!(u("us-arty-402").range, Some(14));
    assert_eq!(u("us-arty-402").values(false), "[14]-1-16");
    // 28th Infantry's companies: 1-1-10, one step.
    assert_eq!(at_hex(c, "us-28id-inf-k-110"), "B19.17");
    assert_eq!(u("us-28id-inf-k-110").steps, 1);

    // 7.1, German: the errata moves I/12 SS to B40.47.
    assert_eq!(at_hex(c, "ger-12ss-pz-i-12"), "B40.47");
    assert_eq!(u("ger-12ss-pz-i-12").values(false), "6-4-12");
    // Tiger Bn 501 with 1st SS at B40.40, 7-5-8.
    assert_eq!(at_hex(c, "ger-1ss-tiger-501"), "B40.40");
    assert_eq!(u("ger-1ss-tiger-501").values(false), "7-5-8");
    assert_eq!(u("ger-1ss-tiger-501").movement, Movement::Mech);
    // Knittel starts DG at B38.38; 12 VG's regiment 27 and pioneers both DG at B34.39.
    assert!(placed(c, "ger-1ss-recon-knittel").dg);
    assert_eq!(at_hex(c, "ger-12vg-inf-27"), "B34.39");
    assert!(placed(c, "ger-12vg-inf-27").dg && placed(c, "ger-12vg-pio-12").dg);
    assert!(!placed(c, "ger-12vg-inf-48").dg);
    // 2nd Panzer's DG stacks.
    for id in [
        "ger-2pz-recon-vbohm",
        "ger-2pz-pg-gutmn",
        "ger-2pz-pz-i-3",
        "ger-2pz-stg-38",
        "ger-2pz-inf-vcoch",
    ] {
        assert!(placed(c, id).dg, "{id} starts DG");
    }
    assert!(!placed(c, "ger-2pz-arty-74").dg);
    // Werfer 16 DG at B35.33, [4]-1-8.
    assert_eq!(at_hex(c, "ger-werfer-16"), "B35.33");
    assert!(placed(c, "ger-werfer-16").dg);
    assert_eq!(u("ger-werfer-16").values(false), "[4]-1-8");
    // 150 Pz Bde: three counters, X, Y, Z at B40.43.
    for id in ["ger-150pzb-inf-x", "ger-150pzb-inf-y", "ger-150pzb-inf-z"] {
        assert_eq!(at_hex(c, id), "B40.43");
    }

    // 7.3: B/394 reduced at B29.41; A/9 FJ reduced and moved to B31.37 (errata).
    let p = scenario("peiper");
    assert_eq!(at_hex(p, "us-99id-inf-b-394"), "B29.41");
    assert!(placed(p, "us-99id-inf-b-394").reduced);
    assert_eq!(at_hex(p, "ger-3fj-fj-a-9"), "B31.37");
    assert!(placed(p, "ger-3fj-fj-a-9").reduced);
    assert_eq!(at_hex(p, "ger-1ss-pg-iii-2"), "B31.38");

    // 7.4: 9th SS within 1 hex of B40.38; Hetz KG Renn at B24.37 (errata).
    let g = scenario("goose-egg");
    assert_eq!(
        placed(g, "ger-9ss-recon-recke").at,
        Location::Within {
            hex: hex("B40.38"),
            within: 1
        }
    );
    assert_eq!(at_hex(g, "ger-18vg-hetz-renn"), "B24.37");
    assert_eq!(at_hex(g, "us-arty-174"), "B20.34");

    // 7.5: the 101st around Bastogne; the divarty and Arty Grp 333 in Bastogne.
    let b = scenario("bastogne");
    assert_eq!(at_hex(b, "us-101ab-abn-a-502"), "A39.17");
    assert_eq!(at_hex(b, "us-101ab-arty"), "B1.16");
    assert_eq!(at_hex(b, "us-arty-333"), "B1.16");
    assert_eq!(u("us-101ab-arty").values(false), "[5]-1-8");

    // 7.6: 7th Armored's task forces all reduced; 87's reduced mark on the cavalry.
    let sp = scenario("spearpoint");
    for id in [
        "us-7ad-arm-erlen",
        "us-7ad-mech-rhea",
        "us-7ad-arm-brown",
        "us-7ad-mech-chap",
        "us-7ad-cav-87",
    ] {
        assert!(placed(sp, id).reduced, "{id} starts reduced in 7.6");
    }
    assert!(!placed(sp, "us-7ad-arty").reduced);
    assert_eq!(at_hex(sp, "ger-2ss-inf-4"), "A40.33");
    assert_eq!(at_hex(sp, "ger-lehr-recon-vfallois"), "A17.26");
    assert_eq!(u("uk-29ab-arm-3-rtr").values(false), "6-4-14");
}

#[test]
fn crt_cells_match_the_book() {
    let crt = &data().tables.crt;
    let cell = |col: &str, dice: i32| {
        let c = crt
            .columns
            .0
            .iter()
            .position(|r| r.label() == col)
            .unwrap_or_else(|| panic!("no column {col}"));
        crt.result(c, dice).label()
    };
    assert_eq!(crt.columns.len(), 10);
    assert_eq!(crt.rows.len(), 11, "two-dice totals 2 to 12");
    assert_eq!(cell("1-4", 2), "A2");
    assert_eq!(cell("1-4", 3), "A2");
    assert_eq!(cell("7-1", 2), "A1D1");
    assert_eq!(cell("1-1", 6), "-");
    assert_eq!(cell("2-1", 6), "A1D1");
    assert_eq!(cell("3-1", 7), "D1r1");
    assert_eq!(cell("4-1", 8), "D2r2");
    assert_eq!(cell("2-1", 9), "D2r1");
    assert_eq!(cell("1-2", 10), "D1r1");
    assert_eq!(cell("7-1", 11), "D2r6");
    assert_eq!(cell("7-1", 12), "D2r6");
    assert_eq!(cell("1-3", 12), "D1r1");
    assert_eq!(cell("6-1", 4), "D1r1");
    let r = crt.result(9, 10);
    assert_eq!((r.attacker_steps, r.defender_steps, r.retreat), (0, 2, 5));
    // Every retreat comes with a defender loss (inventory A32).
    for row in &crt.rows {
        for c in row {
            assert!(c.retreat == 0 || c.defender_steps > 0);
        }
    }
}

#[test]
fn the_column_shift_example_of_1_2() {
    let tec = &data().tables.tec;
    // A defender in a City hex that also holds woods: only the City counts, 2 left.
    let city_woods = ["city", "woods"];
    assert_eq!(tec.combat_shift(Side::Allied, &city_woods, &[&[], &[]]), 2);
    // Two attacking stacks, one across a stream: 3 left.
    assert_eq!(tec.combat_shift(Side::Allied, &city_woods, &[&["stream"], &[]]), 3);
    // Both across streams: 4 left.
    assert_eq!(
        tec.combat_shift(Side::Allied, &city_woods, &[&["stream"], &["stream"]]),
        4
    );
    // The Meuse shifts 2 per stack; the West Wall helps German defenders only.
    assert_eq!(tec.combat_shift(Side::German, &["west-wall"], &[&["meuse"]]), 3);
    assert_eq!(tec.combat_shift(Side::Allied, &["west-wall"], &[&["meuse"]]), 2);
    assert_eq!(tec.combat_shift(Side::Allied, &["open", "village"], &[&[]]), 0);
}

#[test]
fn the_stream_crossing_example_of_1_3_costs_8() {
    let tec = &data().tables.tec;
    // A mech unit crossing a stream along a Road with no bridge into a Road hex with Woods pays
    // the Woods (6) and the stream (2): the road does not carry it across the stream.
    assert_eq!(
        tec.entry_cost(Side::German, Movement::Mech, &["woods"], &["stream"], None),
        Some(Mp::whole(8))
    );
    // Across a bridge it stays on the Road: 1/2 MP.
    assert_eq!(
        tec.entry_cost(Side::German, Movement::Mech, &["woods"], &["stream"], Some("road")),
        Some(Mp::HALF)
    );
    // Foot: woods 2 + stream 1.
    assert_eq!(
        tec.entry_cost(Side::Allied, Movement::Foot, &["woods"], &["stream"], None),
        Some(Mp::whole(3))
    );
    // Forest is closed to mech units off the road; along a Track it costs 2.
    assert_eq!(
        tec.entry_cost(Side::German, Movement::Mech, &["forest"], &[], None),
        None
    );
    assert_eq!(
        tec.entry_cost(Side::German, Movement::Mech, &["forest"], &[], Some("track")),
        Some(Mp::whole(2))
    );
    // A river is closed to mech units, +2 to foot units; a village alone costs as Open.
    assert_eq!(
        tec.entry_cost(Side::Allied, Movement::Mech, &["open"], &["river"], None),
        None
    );
    assert_eq!(
        tec.entry_cost(Side::Allied, Movement::Foot, &["village"], &["river"], None),
        Some(Mp::whole(4))
    );
    // The dearest terrain of the hex counts (1.3 (a)).
    assert_eq!(
        tec.entry_cost(Side::Allied, Movement::Foot, &["open", "slope"], &[], None),
        Some(Mp::whole(3))
    );
    // An occupied Traffic Jam is closed to Germans even along a road, open to US units.
    let jam = ["occupied-traffic-jam", "open"];
    assert_eq!(
        tec.entry_cost(Side::German, Movement::Mech, &jam, &[], Some("road")),
        None
    );
    assert_eq!(
        tec.entry_cost(Side::Allied, Movement::Mech, &jam, &[], Some("road")),
        Some(Mp::HALF)
    );
    assert_eq!(tec.movement.enemy_zoc_bond, 4);
    assert_eq!(tec.movement.moving_adjacently, 1);
}

#[test]
fn barrage_rolls_and_markers() {
    let t = &data().tables;
    let open = t.tec.barrage_roll(None, &["open"]).unwrap();
    use sandtable_ardennes_ii::data::BarrageStrength::*;
    assert_eq!(open.result(2), None);
    assert_eq!(open.result(3), Some(Half));
    assert_eq!(open.result(5), Some(Full));
    assert_eq!(open.result(8), Some(Full));
    // The hardest terrain of the hex: City (5) 6 over Woods (4) 5-6.
    let city = t.tec.barrage_roll(None, &["woods", "city"]).unwrap();
    assert_eq!((city.half, city.full_from), ((5, 5), 6));
    // West Wall (4-5) 6 over Woods only with Germans in the hex.
    assert_eq!(
        t.tec
            .barrage_roll(Some(Side::German), &["woods", "west-wall"])
            .unwrap()
            .full_from,
        6
    );
    assert_eq!(
        t.tec
            .barrage_roll(Some(Side::Allied), &["woods", "west-wall"])
            .unwrap()
            .full_from,
        5
    );
    let one = t.enemy_marker_effect(1).unwrap();
    let many = t.enemy_marker_effect(5).unwrap();
    assert_eq!((one.attack.num, one.attack.den, one.mp), (1, 2, 2));
    assert_eq!((many.defence.num, many.defence.den, many.mp), (1, 4, 4));
    assert!(t.enemy_marker_effect(0).is_none());
    assert_eq!(t.friendly_marker_mp, 1);
    assert_eq!(t.half_reconciliation.roll(3), HalfReconciliation::Remove);
    assert_eq!(t.half_reconciliation.roll(4), HalfReconciliation::Full);
    assert_eq!((t.dg.attack.den, t.dg.defence.den, t.dg.ma.den), (2, 2, 2));
}

#[test]
fn one_die_tables() {
    let t = &data().tables;
    assert_eq!(t.artillery_resupply.roll(1), Resupply::Eliminate);
    assert_eq!(t.artillery_resupply.roll(3), Resupply::Stay);
    assert_eq!(t.artillery_resupply.roll(4), Resupply::RemoveDg);
    assert_eq!(t.weather.roll(3), Weather::NotFrozen);
    assert_eq!(t.weather.roll(4), Weather::Frozen);
    assert_eq!(t.weather_first_roll_turn, 8);
    assert_eq!(t.bridge_demolition.roll(2), Demolition::Tested);
    assert_eq!(t.bridge_demolition.roll(3), Demolition::Blown);
    assert_eq!(t.bridge_us_unit_range, 2);
    assert_eq!(t.von_der_heydte.roll(2), VdhLanding::Destroyed);
    assert_eq!(t.von_der_heydte.roll(3), VdhLanding::Lands);
    let a = &t.air_strikes;
    let full: Vec<u8> = (1..=6).map(|d| a.strikes(Weather::NotFrozen, d, false)).collect();
    assert_eq!(full, [0, 0, 0, 0, 2, 3]);
    let frozen: Vec<u8> = (1..=6).map(|d| a.strikes(Weather::Frozen, d, false)).collect();
    assert_eq!(frozen, [1, 2, 3, 4, 6, 8]);
    // Halved, rounded down (7.3-7.6).
    let half: Vec<u8> = (1..=6).map(|d| a.strikes(Weather::NotFrozen, d, true)).collect();
    assert_eq!(half, [0, 0, 0, 0, 1, 1]);
    let half: Vec<u8> = (1..=6).map(|d| a.strikes(Weather::Frozen, d, true)).collect();
    assert_eq!(half, [0, 1, 1, 2, 3, 4]);
}

#[test]
fn the_turn_record_track() {
    let t = &data().tables;
    assert_eq!(t.turns.len(), 16);
    for (i, turn) in t.turns.iter().enumerate() {
        assert_eq!(turn.day() as usize, 16 + i, "turn {} is {} Dec", turn.turn, 16 + i);
        assert_eq!(turn.weather_roll, turn.turn >= 8);
        assert_eq!(turn.traffic_jams, turn.turn <= 2);
        assert_eq!(turn.our_boats, turn.turn <= 2);
        assert_eq!(turn.german_exploitation, turn.turn != 1);
    }
    assert_eq!(t.turn(1).unwrap().weather, Some(Weather::NotFrozen));
    assert_eq!(t.turn(16).unwrap().date_en(), "31 December 1944");
    assert_eq!(t.turn(8).unwrap().date_zh(), "1944年12月23日");
}

#[test]
fn victory_hexes_and_levels() {
    let d = data();
    let t = &d.tables;
    assert_eq!(t.vp_hexes.len(), 39);
    assert_eq!(t.vp_hexes.iter().map(|v| v.vp as u32).sum::<u32>(), 68);
    let on = |sheet: char| {
        t.vp_hexes
            .iter()
            .filter(|v| v.id.starts_with(sheet))
            .collect::<Vec<_>>()
    };
    assert_eq!(on('A').len(), 18);
    assert_eq!(on('A').iter().map(|v| v.vp as u32).sum::<u32>(), 33);
    assert_eq!(on('B').len(), 21);
    assert_eq!(on('B').iter().map(|v| v.vp as u32).sum::<u32>(), 35);
    assert_eq!(t.vp_hex(hex("B1.16")).unwrap().vp, 5);
    assert_eq!(t.vp_hex(hex("B20.34")).unwrap().name_en, "St. Vith");
    assert_eq!(t.victory(26), Some(VictoryResult::Draw));
    assert_eq!(t.historical_vp, 26);
    assert_eq!(t.victory(33), Some(VictoryResult::GermanMajor));
    assert_eq!(t.victory(32), Some(VictoryResult::GermanMinor));
    assert_eq!(t.victory(24), Some(VictoryResult::Draw));
    assert_eq!(t.victory(23), Some(VictoryResult::AlliedMinor));
    assert_eq!(t.victory(18), Some(VictoryResult::AlliedMajor));
    assert_eq!(t.victory(0), Some(VictoryResult::AlliedMajor));
    // The inventory's subtotals: Map B rows >= 36 (7.3) 14 VP; Map A rows >= 23 (7.6) 31 VP.
    let vp_in = |s: &Scenario| -> u32 {
        t.vp_hexes
            .iter()
            .filter(|v| s.in_area(&d.grid, v.hex))
            .map(|v| v.vp as u32)
            .sum()
    };
    assert_eq!(vp_in(scenario("peiper")), 14);
    assert_eq!(vp_in(scenario("spearpoint")), 31);
}

#[test]
fn scenario_rules() {
    let d = data();
    let turns: Vec<(u8, u8, AirStrikeRule)> = d
        .scenarios
        .iter()
        .map(|s| (s.first_turn, s.last_turn, s.air_strikes))
        .collect();
    use AirStrikeRule::*;
    assert_eq!(
        turns,
        [
            (1, 16, Full),
            (1, 6, Full),
            (2, 6, Halved),
            (3, 7, Halved),
            (4, 11, Halved),
            (9, 12, Halved)
        ]
    );
    // Areas.
    let (c, p, g, b, sp) = (
        scenario("campaign"),
        scenario("peiper"),
        scenario("goose-egg"),
        scenario("bastogne"),
        scenario("spearpoint"),
    );
    assert!(c.in_area(&d.grid, hex("A1.46")) && c.in_area(&d.grid, hex("B40.02")));
    assert!(!scenario("breakthrough").in_area(&d.grid, hex("A40.40")));
    assert!(p.in_area(&d.grid, hex("B1.36")) && !p.in_area(&d.grid, hex("B1.35")));
    assert!(g.in_area(&d.grid, hex("B9.27")) && g.in_area(&d.grid, hex("B40.39")));
    assert!(!g.in_area(&d.grid, hex("B8.30")) && !g.in_area(&d.grid, hex("B20.40")));
    assert!(b.in_area(&d.grid, hex("A33.11")) && b.in_area(&d.grid, hex("B12.24")));
    assert!(
        !b.in_area(&d.grid, hex("A32.20")) && !b.in_area(&d.grid, hex("B13.20")) && !b.in_area(&d.grid, hex("B5.25"))
    );
    assert!(
        sp.in_area(&d.grid, hex("A1.23")) && !sp.in_area(&d.grid, hex("A29.22")) && !sp.in_area(&d.grid, hex("B1.30"))
    );
    // Victory.
    match &scenario("breakthrough").victory {
        Victory::VpLevels { exit_vp, exit_via, .. } => {
            assert_eq!(exit_vp.len(), 8);
            assert_eq!(exit_via, &[Exit::Area('O'), Exit::Edge(Edge::West)]);
        }
        v => panic!("7.2 victory {v:?}"),
    }
    match &p.victory {
        Victory::VpLevels { levels, exit_vp, .. } => {
            assert_eq!(exit_vp.len(), 3);
            let r = |vp| sandtable_ardennes_ii::data::tables::level_for(levels, vp);
            assert_eq!(r(10), Some(VictoryResult::GermanMajor));
            assert_eq!(r(9), Some(VictoryResult::Draw));
            assert_eq!(r(5), Some(VictoryResult::AlliedMajor));
        }
        v => panic!("7.3 victory {v:?}"),
    }
    match &g.victory {
        Victory::GermanHolds {
            hexes, exit_required, ..
        } => {
            assert_eq!(hexes, &[hex("B20.34"), hex("B21.29"), hex("B10.34")]);
            assert!(exit_required.is_empty());
        }
        v => panic!("7.4 victory {v:?}"),
    }
    match &b.victory {
        Victory::GermanHolds {
            hexes, exit_required, ..
        } => {
            assert_eq!(hexes, &[hex("B1.16")]);
            let goals: Vec<(u8, Option<u8>)> = exit_required.iter().map(|e| (e.units, e.by_turn)).collect();
            assert_eq!(goals, [(7, Some(8)), (4, Some(8))]);
        }
        v => panic!("7.5 victory {v:?}"),
    }
    assert_eq!(sp.victory, Victory::GermanVp { min_vp: 6 });
    assert_eq!(sp.initial_control(hex("A17.26")), Side::German);
    assert_eq!(sp.initial_control(hex("A34.27")), Side::German);
    assert_eq!(sp.initial_control(hex("A23.31")), Side::Allied);
    assert_eq!(b.markers.len(), 2);
    // Supply: 7.5's Germans trace to three hexes; 7.6's from A29.23 eastward.
    assert!(b.supply.contains(&SupplySource::Hexes {
        side: Side::German,
        hexes: vec![hex("B4.24"), hex("B12.20"), hex("B12.22")]
    }));
    assert!(sp
        .supply
        .iter()
        .any(|s| matches!(s, SupplySource::RoadOffEdge { from: Some((h, Edge::East)), .. } if *h == hex("A29.23"))));
}

/// Units arriving in a list of arrivals, by side.
fn arriving(arrivals: &[sandtable_ardennes_ii::data::Arrival], side: Side) -> usize {
    arrivals.iter().filter(|a| a.side == side).map(|a| a.units.len()).sum()
}

#[test]
fn arrivals_match_appendix_b() {
    let d = data();
    let s = &d.schedule;
    // Counted from the book's schedules: Allied 194 units (17, 36, 12, 2, 10, 52, 5, 37, 16, 7 on
    // turns 2-7, 8, 9, 10, 15), German 93 (4, 28, 14, 8, 10, 9, 14, 4, 1, 1 on turns 2-4, 6-8,
    // 10, 11, 13, 14).
    assert_eq!(arriving(&s.arrivals, Side::Allied), 194);
    assert_eq!(arriving(&s.arrivals, Side::German), 93);
    let per_turn = |side: Side| -> Vec<(u8, usize)> {
        let mut v: Vec<(u8, usize)> = Vec::new();
        for a in s.arrivals.iter().filter(|a| a.side == side) {
            match v.last_mut() {
                Some((t, n)) if *t == a.turn => *n += a.units.len(),
                _ => v.push((a.turn, a.units.len())),
            }
        }
        v
    };
    assert_eq!(
        per_turn(Side::Allied),
        [
            (2, 17),
            (3, 36),
            (4, 12),
            (5, 2),
            (6, 10),
            (7, 52),
            (8, 5),
            (9, 37),
            (10, 16),
            (15, 7)
        ]
    );
    assert_eq!(
        per_turn(Side::German),
        [
            (2, 4),
            (3, 28),
            (4, 14),
            (6, 8),
            (7, 10),
            (8, 9),
            (10, 14),
            (11, 4),
            (13, 1),
            (14, 1)
        ]
    );
    // Removals: 10th Armored but CCB's three teams on turn 9; 150 Pz Bde, StG 394 and 667,
    // Werfer 7 and 17, Arty Bde 410 on turn 13.
    let removed = |side: Side| -> usize {
        s.removals
            .iter()
            .filter(|r| r.side == side)
            .map(|r| r.units.len())
            .sum()
    };
    assert_eq!(removed(Side::Allied), 5);
    assert_eq!(removed(Side::German), 8);
    // 5.1: the two airborne divisions, 9 units each.
    let airborne: Vec<usize> = s
        .arrivals
        .iter()
        .filter(|a| a.at == Location::Airborne)
        .map(|a| a.units.len())
        .collect();
    assert_eq!(airborne, [9, 9]);
    assert_eq!(s.airborne.within, 3);
    assert_eq!(s.airborne.groups.len(), 2);
    // The two die-roll arrivals and von der Heydte.
    let rolls: Vec<(u8, Option<u8>)> = s
        .arrivals
        .iter()
        .filter(|a| a.arrives_on.is_some())
        .map(|a| (a.turn, a.arrives_on))
        .collect();
    assert_eq!(rolls, [(3, Some(5)), (14, Some(5))]);
    let vdh = s
        .arrivals
        .iter()
        .find(|a| a.landing == Some(Landing::VonDerHeydte))
        .unwrap();
    assert_eq!(
        (vdh.turn, &vdh.at),
        (
            2,
            &Location::Within {
                hex: hex("B17.49"),
                within: 1
            }
        )
    );
    // Choices of areas: "N or O", "G, H or I".
    assert!(s
        .arrivals
        .iter()
        .any(|a| a.turn == 7 && a.at == Location::Areas(vec!['G', 'H', 'I'])));
    // The two lines without a printed area say so.
    assert_eq!(s.arrivals.iter().filter(|a| a.note.is_some()).count(), 2);

    // The campaign uses the schedule whole.
    let c = scenario("campaign");
    assert_eq!(arriving(&c.arrivals, Side::Allied), 194);
    assert_eq!(arriving(&c.arrivals, Side::German), 93);
    // 7.2: the schedule, with 99 and 526 on turn 1 and 740 and 551 at B1.47 instead.
    let br = scenario("breakthrough");
    assert_eq!(arriving(&br.arrivals, Side::Allied), 196);
    let u740 = d.counters.index("us-arm-740").unwrap();
    let a740: Vec<_> = br.arrivals.iter().filter(|a| a.units.contains(&u740)).collect();
    assert_eq!(a740.len(), 1);
    assert_eq!(a740[0].at, Location::Hex(hex("B1.47")));
    // 7.3: Allied 2 + 20 + 11 + 2, German 1 + 13 + 9 + 3.
    let p = scenario("peiper");
    assert_eq!(arriving(&p.arrivals, Side::Allied), 35);
    assert_eq!(arriving(&p.arrivals, Side::German), 26);
    assert!(p.removals.is_empty());
    // 7.4: no Allied reinforcements; the 1st SS removed on turn 4.
    let g = scenario("goose-egg");
    assert_eq!(arriving(&g.arrivals, Side::Allied), 0);
    assert_eq!(arriving(&g.arrivals, Side::German), 3);
    assert_eq!(g.removals.len(), 1);
    assert_eq!(g.removals[0].turn, 4);
    assert_eq!(g.removals[0].units.len(), 10, "the whole 1st SS Panzer Division");
    // 7.5 and 7.6.
    let b = scenario("bastogne");
    assert_eq!(
        (arriving(&b.arrivals, Side::Allied), arriving(&b.arrivals, Side::German)),
        (2, 4)
    );
    assert!(b.arrivals.iter().any(|a| a.at
        == Location::Edge {
            sheet: 'A',
            edge: Edge::South
        }));
    let sp = scenario("spearpoint");
    assert_eq!(
        (
            arriving(&sp.arrivals, Side::Allied),
            arriving(&sp.arrivals, Side::German)
        ),
        (11, 17)
    );
}

#[test]
fn counter_conventions() {
    let d = data();
    for u in &d.counters.units {
        if u.is_artillery() {
            assert_eq!(u.steps, 1, "{}: artillery is 1 step", u.id);
            assert!(!u.exploit, "{}", u.id);
            assert!(u.range.is_some());
        }
        // The printed designation starts with the front values.
        assert!(
            u.printed.starts_with(&u.values(false)),
            "{}: {} vs {}",
            u.id,
            u.printed,
            u.values(false)
        );
        if let Some(r) = u.reduced {
            assert!(
                r.attack <= u.front.attack && r.defence <= u.front.defence && r.ma == u.front.ma,
                "{}",
                u.id
            );
        }
        if u.exploit {
            assert!(u.is_mech(), "{}: only mechanized units exploit here", u.id);
        }
    }
    let u = |id: &str| d.unit(id).unwrap();
    // ZOC Post infantry (1.2): glider and FJ infantry count, bicycles and pioneers do not.
    assert!(u("us-101ab-glider-a-327").is_bond_infantry());
    assert!(u("ger-3fj-fj-a-5").is_bond_infantry());
    assert!(u("ger-1ss-pg-iii-2").is_bond_infantry());
    assert!(!u("ger-12vg-bicycle-12-fus").is_bond_infantry());
    assert!(!u("ger-12vg-pio-12").is_bond_infantry());
    assert!(!u("ger-penal-xxiii").is_bond_infantry());
    // Divisional artillery belongs to a division; the Arty Grps are independent.
    assert!(u("us-2id-arty").is_divarty());
    assert!(u("ger-326vg-arty-326").is_divarty());
    assert!(!u("us-arty-333").is_divarty());
    // 150 Pz Bde's Inf KGs (2-3-12) are mechanized and exploit; a VG regiment is foot.
    assert!(u("ger-150pzb-inf-x").exploit);
    assert_eq!(u("ger-326vg-inf-752").movement, Movement::Foot);
    assert_eq!(u("ger-326vg-inf-752").values(true), "1-2-8");
    assert_eq!(u("ger-1ss-tiger-501").values(true), "4-3-8");
    // Units the set-ups print reduced have a second step.
    for s in &d.scenarios {
        for p in s.setup.iter().filter(|p| p.reduced) {
            assert_eq!(d.counters.units[p.unit as usize].steps, 2);
        }
    }
    // The formation of the attached Wehrmacht JgPz Bn 560 is the 12th SS.
    let f = u("ger-12ss-jgpz-560").formation.unwrap();
    assert_eq!(d.counters.formations[f as usize].id, "ger-12ss");
}

#[test]
fn the_map_shares_the_grid_when_it_is_there() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/map.toml");
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let map = sandtable_core::map::HexMap::from_toml(&text).expect("map.toml loads");
    assert_eq!(
        map.grid.spec(),
        scs_grid().spec(),
        "map.toml's grid must be the data's grid"
    );
    let d = data();
    // Every VP hex of the tables is a VP place of the map, worth as much.
    for v in &d.tables.vp_hexes {
        let h = map.grid.parse(&v.id).unwrap();
        let place = map
            .place(h)
            .unwrap_or_else(|| panic!("{} ({}) has no place on the map", v.id, v.name_en));
        assert!(place.tags.iter().any(|t| t == "vp"), "{} is not tagged vp", v.id);
        assert!(
            place.tags.contains(&format!("vp-{}", v.vp)),
            "{} is worth {} VP",
            v.id,
            v.vp
        );
    }
    // The map's terrains and roads are rows of the TEC.
    for t in map.terrain_names() {
        assert!(
            d.tables.tec.terrain.contains_key(t),
            "map terrain `{t}` is not a TEC row"
        );
    }
    for p in &map.paths {
        assert!(
            d.tables.tec.road.contains_key(&p.kind),
            "map path `{}` is not a TEC road",
            p.kind
        );
    }
    // Every entry area the arrivals name is on the map.
    for l in d.schedule.german_areas.iter().chain(&d.schedule.allied_areas) {
        assert!(
            !map.hex_set(&format!("entry-{l}")).is_empty(),
            "entry area {l} is not on the map"
        );
    }
}

// ------------------------------------------------------------------------------------ bad data

fn with_scenario(text: String) -> Result<Data, String> {
    let mut t = Texts::embedded();
    t.scenarios.push(("bad.toml", Box::leak(text.into_boxed_str())));
    Data::from_texts(&t).map_err(|e| e.to_string())
}

const HEAD: &str = r#"
[about]
source = "reconstructed"
basis = "a test"

[scenario]
id = "bad"
rule = "test"
name_en = "Bad"
name_zh = "坏"
first_turn = 1
last_turn = 2
air_strikes = "full"
schedule = false

[[supply]]
side = "german"
source = "friendly-edges"

[[supply]]
side = "allied"
source = "friendly-edges"

[victory]
kind = "vp-levels"
"#;

#[test]
fn a_good_test_scenario_loads() {
    let d = with_scenario(format!("{HEAD}\n[[unit]]\nid = \"us-2id-inf-a-9\"\nhex = \"B27.49\"\n")).unwrap();
    assert_eq!(d.scenario("bad").unwrap().setup.len(), 1);
}

#[test]
fn an_unknown_unit_is_refused() {
    let e = with_scenario(format!("{HEAD}\n[[unit]]\nid = \"us-nobody\"\nhex = \"B27.49\"\n")).unwrap_err();
    assert!(e.contains("bad.toml") && e.contains("us-nobody"), "{e}");
}

#[test]
fn a_bad_hex_id_is_refused() {
    for bad in ["2749", "B27-49", "C1.01", "B41.01", "B1.99"] {
        let e = with_scenario(format!("{HEAD}\n[[unit]]\nid = \"us-2id-inf-a-9\"\nhex = \"{bad}\"\n")).unwrap_err();
        assert!(e.contains(bad), "{bad}: {e}");
    }
}

#[test]
fn a_unit_placed_twice_or_both_placed_and_arriving_is_refused() {
    let e = with_scenario(format!(
        "{HEAD}\n[[unit]]\nid = \"us-2id-inf-a-9\"\nhex = \"B27.49\"\n\n[[unit]]\nid = \"us-2id-inf-a-9\"\nhex = \"B27.48\"\n"
    ))
    .unwrap_err();
    assert!(e.contains("twice"), "{e}");
    let e = with_scenario(format!(
        "{HEAD}\n[[unit]]\nid = \"us-2id-inf-a-9\"\nhex = \"B27.49\"\n\n[[arrival]]\nturn = 2\nside = \"allied\"\nareas = [\"O\"]\nunits = [\"us-2id-inf-a-9\"]\n"
    ))
    .unwrap_err();
    assert!(e.contains("arrives"), "{e}");
    // A German entry area for an Allied unit.
    let e = with_scenario(format!(
        "{HEAD}\n[[arrival]]\nturn = 2\nside = \"allied\"\nareas = [\"A\"]\nunits = [\"us-2id-inf-a-9\"]\n"
    ))
    .unwrap_err();
    assert!(e.contains("entry area"), "{e}");
    // A 1-step unit set up reduced.
    let e = with_scenario(format!(
        "{HEAD}\n[[unit]]\nid = \"us-28id-inf-k-110\"\nhex = \"B19.17\"\nreduced = true\n"
    ))
    .unwrap_err();
    assert!(e.contains("reduced"), "{e}");
}

#[test]
fn a_duplicate_unit_id_is_refused() {
    let mut t = Texts::embedded();
    let first = t.counters.find("[[unit]]").unwrap();
    let end = first + t.counters[first..].find("\n\n").unwrap();
    let dup = format!("{}\n\n{}", t.counters, &t.counters[first..end]);
    t.counters = Box::leak(dup.into_boxed_str());
    let e = Data::from_texts(&t).unwrap_err().to_string();
    assert!(e.starts_with("counters.toml") && e.contains("twice"), "{e}");
}

#[test]
fn bad_tables_are_refused() {
    let mut t = Texts::embedded();
    // A CRT row with one result too few.
    let bad = t.tables.replacen(
        "\"A2\", \"A2\",   \"A2\",   \"A2\",   \"A2\",   \"A2\",   \"A1\",   \"A1\",   \"A1D1\", \"A1D1\"",
        "\"A2\"",
        1,
    );
    assert_ne!(bad, t.tables);
    t.tables = Box::leak(bad.into_boxed_str());
    let e = Data::from_texts(&t).unwrap_err().to_string();
    assert!(e.starts_with("tables.toml") && e.contains("crt"), "{e}");
    // A die table that skips a roll.
    let mut t = Texts::embedded();
    let bad = t.tables.replacen(
        "{ die = \"2-3\", result = \"stay\" }",
        "{ die = \"3\", result = \"stay\" }",
        1,
    );
    assert_ne!(bad, t.tables);
    t.tables = Box::leak(bad.into_boxed_str());
    let e = Data::from_texts(&t).unwrap_err().to_string();
    assert!(e.contains("artillery_resupply"), "{e}");
    // A bad CRT result and a bad barrage roll.
    for (from, to) in [("\"D2r6\"", "\"X9\""), ("barrage = \"(5) 6\"", "barrage = \"5 or 6\"")] {
        let mut t = Texts::embedded();
        let bad = t.tables.replacen(from, to, 1);
        assert_ne!(bad, t.tables);
        t.tables = Box::leak(bad.into_boxed_str());
        assert!(Data::from_texts(&t).is_err(), "{to} is refused");
    }
}

#[test]
fn out_of_range_numbers_are_refused_not_overflowed() {
    for (from, to) in [
        ("foot = \"2\"\nmech = \"3\"", "foot = \"40000 1/2\"\nmech = \"3\""),
        ("barrage = \"(3-4) 5-6\"", "barrage = \"(3-255) 6\""),
        ("{ dice = \"11-12\"", "{ dice = \"11-300\""),
        (
            "{ die = \"4-6\", result = \"remove-dg\" }",
            "{ die = \"4-255\", result = \"remove-dg\" }",
        ),
        (
            "{ max = 18, result = \"allied-major\" }",
            "{ max = 4294967295, result = \"allied-major\" }",
        ),
    ] {
        let mut t = Texts::embedded();
        let bad = t.tables.replacen(from, to, 1);
        assert_ne!(bad, t.tables, "{from}");
        t.tables = Box::leak(bad.into_boxed_str());
        assert!(Data::from_texts(&t).is_err(), "{to} is refused");
    }
}

#[test]
fn garbage_never_panics() {
    for junk in ["", "[[unit]]", "x = ", "[scenario]\nid = 3", "\u{0}\u{1}"] {
        assert!(with_scenario(junk.to_string()).is_err());
        let mut t = Texts::embedded();
        t.counters = junk;
        assert!(Data::from_texts(&t).is_err());
        let mut t = Texts::embedded();
        t.tables = junk;
        assert!(Data::from_texts(&t).is_err());
        let mut t = Texts::embedded();
        t.arrivals = junk;
        assert!(Data::from_texts(&t).is_err());
    }
}

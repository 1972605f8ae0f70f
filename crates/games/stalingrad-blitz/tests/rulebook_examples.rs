//! The rulebook's own examples and tables, checked against the rules functions: movement costs
//! (9.2, 9.3), odds and shifts (10.3), the CRT (10.4), the reinforcement and withdrawal tables
//! (11.2, 12.2, 12.3) and the loss VP (15.0(2)).

mod common;
use common::*;
use sandtable_core::search::Search;
use sandtable_stalingrad_blitz::rules::{advance_may_continue, loss_vp, terrain_shift, Board};
use sandtable_stalingrad_blitz::StalingradBlitz;
use std::collections::BTreeMap;

/// Every hex `id` can reach, with its cost in half movement points (9.2; 9.3 if `march`).
fn reach(g: &StalingradBlitz, id: &str, march: bool) -> BTreeMap<String, u32> {
    let b = Board::new(g.data(), g.state());
    let mut s = Search::new();
    let mut out = BTreeMap::new();
    if b.movement(unit(g, id), march, &mut s).is_some() {
        for h in s.reached() {
            out.insert(g.data().map.grid.id(h).0, s.cost(h).unwrap());
        }
    }
    out
}

fn cost(g: &StalingradBlitz, id: &str, march: bool, to: &str) -> Option<u32> {
    reach(g, id, march).get(to).copied()
}

/// Whether the least-cost way into `to` must stop there.
fn must_stop(g: &StalingradBlitz, id: &str, to: &str) -> bool {
    let b = Board::new(g.data(), g.state());
    let mut s = Search::new();
    b.movement(unit(g, id), false, &mut s);
    s.stopped_at(hex(g, to))
}

fn small(units: &[(&str, &str)]) -> StalingradBlitz {
    small_game(2, units, 1)
}

fn rules_map(units: &[(&str, &str)]) -> StalingradBlitz {
    game_on(rules_data(), 2, "", units, "", 1)
}

// ---------------------------------------------------------------- 9.2 movement

#[test]
fn zoc_to_zoc_costs_five_mp_and_ends_the_move_9_2_2() {
    // The book's example: German infantry, MA 5, starts in enemy ZOC and moves into an
    // adjacent plain hex also in enemy ZOC: 1 + 2 (leave) + 2 (enter) = 5 MP. Every hex
    // beyond is out of reach. 0301's neighbours on the map are 0302 (the enemy), 0201 and
    // 0401, all in the enemy's ZOC.
    let g = small(&[("ger-inf-88", "0301"), ("sov-rifle-45", "0302")]);
    assert_eq!(g.data().units[unit(&g, "ger-inf-88") as usize].full.ma, 5);
    let r = reach(&g, "ger-inf-88", false);
    let expected: BTreeMap<String, u32> = [("0301", 0), ("0201", 10), ("0401", 10)]
        .into_iter()
        .map(|(h, c)| (h.to_string(), c))
        .collect();
    assert_eq!(r, expected);
}

#[test]
fn the_board_page_shows_the_examples_cost_on_the_hex_9_2_2() {
    // What a player sees when moving by clicking: the move names the unit and the hex, with
    // the 5 MP the example adds up.
    use sandtable_core::game::Rules;
    use sandtable_stalingrad_blitz::state::Action;
    let g = small(&[("ger-inf-88", "0301"), ("sov-rifle-45", "0302")]);
    let to = hex(&g, "0201");
    let t = g.targets(&[Action::Move {
        unit: unit(&g, "ger-inf-88"),
        to,
        march: false,
        via: Default::default(),
    }]);
    assert_eq!(t[0].units, vec!["ger-inf-88".to_string()]);
    assert_eq!(t[0].hexes, vec!["0201".to_string()]);
    let note = t[0].note.as_ref().expect("a move has a cost");
    assert_eq!((note.en.as_str(), note.zh.as_str()), ("5 MP", "5 移动力"));
}

#[test]
fn no_minimum_move_a_4_mp_unit_cannot_go_zoc_to_zoc_9_2_5() {
    // A Soviet rifle division (2-4) has only 4 MP: the 5 MP step is beyond it.
    let g = small(&[("sov-rifle-45", "0301"), ("ger-inf-88", "0302")]);
    let r = reach(&g, "sov-rifle-45", false);
    assert_eq!(r.len(), 1, "only its own hex: {r:?}");
}

#[test]
fn zoc_costs_on_entering_and_on_leaving_9_2_2() {
    // Open ground, rows 6-9. The Soviet unit at 1108 has 1007, 1008, 1107, 1109, 1207 and
    // 1208 in its ZOC. The German infantry at 0908 (outside it) touches 1007 and 1008.
    let g = small(&[("ger-inf-88", "0908"), ("sov-rifle-45", "1108")]);
    // Entering: 1 + 2.
    assert_eq!(cost(&g, "ger-inf-88", false, "1007"), Some(6));
    assert_eq!(cost(&g, "ger-inf-88", false, "1008"), Some(6));
    // Plain hexes outside ZOC: 1 each (0908-0907-1006).
    assert_eq!(cost(&g, "ger-inf-88", false, "1006"), Some(4));
    assert_eq!(cost(&g, "ger-inf-88", false, "0905"), Some(6), "0908-0907-0906-0905");
    // Leaving: 1 + 2 (the German starts in ZOC at 1007; 1006 and 0907 are outside it).
    let g = small(&[("ger-inf-88", "1007"), ("sov-rifle-45", "1108")]);
    assert_eq!(cost(&g, "ger-inf-88", false, "1006"), Some(6));
    assert_eq!(cost(&g, "ger-inf-88", false, "0907"), Some(6));
    assert_eq!(cost(&g, "ger-inf-88", false, "0906"), Some(8));
    // The enemy's own hex: never.
    assert_eq!(cost(&g, "ger-inf-88", false, "1108"), None);
}

#[test]
fn overlapping_zocs_count_once_3_2_2() {
    // 1007 is next to both Soviet units (1006 and 1107): entering it is still 1 + 2.
    let g = small(&[
        ("ger-inf-88", "0908"),
        ("sov-rifle-45", "1006"),
        ("sov-rifle-62", "1107"),
    ]);
    assert_eq!(cost(&g, "ger-inf-88", false, "1007"), Some(6));
}

#[test]
fn hqs_move_as_non_mechanised_units_2_22() {
    // An HQ (3-8) pays 1 MP for forest, like infantry.
    let g = small(&[("ger-hq-6a", "0304")]);
    assert!(!g.data().units[unit(&g, "ger-hq-6a") as usize].mech);
    assert_eq!(cost(&g, "ger-hq-6a", false, "0404"), Some(2));
}

#[test]
fn river_costs_one_more_9_2_1_3() {
    // The creek between 0602 and 0702: plain 1 + river 1.
    let g = small(&[("ger-inf-88", "0602"), ("ger-pz-9", "0603")]);
    assert_eq!(cost(&g, "ger-inf-88", false, "0702"), Some(4));
    assert_eq!(cost(&g, "ger-inf-88", false, "0703"), Some(4));
    // Along the same bank: 1 MP.
    assert_eq!(cost(&g, "ger-inf-88", false, "0601"), Some(2));
    assert_eq!(cost(&g, "ger-pz-9", false, "0703"), Some(4));
}

#[test]
fn forest_and_swamp_costs_by_mechanisation_9_2_5() {
    // Forest 0404: mechanised 2, non-mechanised 1. Forest + Woodtown 0403: the same (a town
    // uses the other terrain of its hex).
    let g = small(&[("ger-pz-9", "0304"), ("ger-inf-88", "0305")]);
    assert_eq!(cost(&g, "ger-pz-9", false, "0404"), Some(4));
    assert_eq!(cost(&g, "ger-pz-9", false, "0403"), Some(4));
    assert_eq!(cost(&g, "ger-inf-88", false, "0404"), Some(2));
    // Swamp + Marshtown 0904: mechanised 3, non-mechanised 2.
    let g = small(&[("ger-pz-9", "0903"), ("ger-inf-88", "1004")]);
    assert_eq!(cost(&g, "ger-pz-9", false, "0904"), Some(6));
    assert_eq!(cost(&g, "ger-inf-88", false, "0904"), Some(4));
    // Large city (Eastcity 0905, entered off the road from 0906): 1 MP (TEC).
    let g = small(&[("ger-pz-9", "0906")]);
    assert_eq!(cost(&g, "ger-pz-9", false, "0905"), Some(2));
}

#[test]
fn a_road_costs_one_mp_whatever_the_terrain_9_2_1_4() {
    // rules-map: the road 0205-0305 enters a forest, 0405-0505 a swamp.
    let g = rules_map(&[("ger-pz-9", "0205"), ("ger-pz-11", "0405"), ("ger-gd", "0504")]);
    assert_eq!(cost(&g, "ger-pz-9", false, "0305"), Some(2), "forest along the road");
    assert_eq!(cost(&g, "ger-pz-11", false, "0505"), Some(2), "swamp along the road");
    // The same swamp off the road: 3 MP for a mechanised unit (0504-0505; the way round by
    // 0404-0405 and the road costs as much).
    assert_eq!(cost(&g, "ger-gd", false, "0505"), Some(6), "swamp off the road");
    let t = g.data().map.terrain(hex(&g, "0505"));
    assert_eq!(sandtable_stalingrad_blitz::rules::terrain_mp(g.data(), t, true), 3);
    assert_eq!(sandtable_stalingrad_blitz::rules::terrain_mp(g.data(), t, false), 2);
}

#[test]
fn unbridged_major_river_only_from_the_start_with_all_mp_9_2_3() {
    // rules-map: a major river between columns 11 and 12; the only bridge (a railway) is at
    // 1106/1206, too far to matter for a crossing at row 2.
    let g = rules_map(&[("ger-inf-88", "1102"), ("ger-inf-377", "1002")]);
    // 1. Start adjacent, cross into the hex across with all MP, and stop there.
    assert_eq!(cost(&g, "ger-inf-88", false, "1202"), Some(10));
    assert!(must_stop(&g, "ger-inf-88", "1202"));
    assert_eq!(cost(&g, "ger-inf-88", false, "1302"), None, "no further after crossing");
    // A unit that did not start adjacent to the river cannot cross it.
    assert_eq!(cost(&g, "ger-inf-377", false, "1102"), Some(2));
    assert_eq!(cost(&g, "ger-inf-377", false, "1202"), None);
    assert_eq!(cost(&g, "ger-inf-377", false, "1201"), None);
}

#[test]
fn unbridged_major_river_never_from_zoc_to_zoc_9_2_3_2() {
    // The Soviet unit at 1201 has 1102 (the German's hex) and 1202 in its ZOC: no crossing
    // 1102 → 1202. 1103 → 1203 (not ZOC to ZOC) is still open to a unit starting at 1103.
    let g = rules_map(&[("ger-inf-88", "1102"), ("sov-rifle-45", "1201")]);
    assert_eq!(cost(&g, "ger-inf-88", false, "1202"), None);
    // From outside ZOC into ZOC across the river is allowed (still all MP).
    let g = rules_map(&[("ger-inf-88", "1103"), ("sov-rifle-45", "1303")]);
    assert_eq!(cost(&g, "ger-inf-88", false, "1203"), Some(10));
}

#[test]
fn a_bridge_lifts_the_major_river_restrictions_9_2_3_3() {
    // Road bridge on the small map (0605/0705): along the road, 1 MP, even from enemy ZOC to
    // enemy ZOC (the Soviet unit at 0706 has both 0605 and 0705 in its ZOC): 1 + 2 + 2.
    let g = small(&[("ger-inf-88", "0605"), ("sov-rifle-45", "0706")]);
    assert_eq!(cost(&g, "ger-inf-88", false, "0705"), Some(10));
    let g = small(&[("ger-inf-88", "0505")]);
    assert_eq!(
        cost(&g, "ger-inf-88", false, "0705"),
        Some(4),
        "0505-0605-0705 along the road"
    );
    // Railway bridge on the rules map (A2: terrain + 1, and the unit may go on).
    let g = rules_map(&[("ger-inf-88", "1006")]);
    assert_eq!(cost(&g, "ger-inf-88", false, "1206"), Some(2 + 4));
    assert_eq!(cost(&g, "ger-inf-88", false, "1306"), Some(2 + 4 + 2));
}

#[test]
fn mountains_only_by_road_9_2_4_1() {
    // rules-map: 0806 is a mountain on the road 0706-0806-0906; 0807 a mountain with no road.
    let g = rules_map(&[("ger-inf-88", "0706"), ("ger-inf-377", "0707")]);
    assert_eq!(
        cost(&g, "ger-inf-88", false, "0806"),
        Some(2),
        "along the road: an ordinary road hex"
    );
    assert_eq!(cost(&g, "ger-inf-88", false, "0906"), Some(4));
    assert_eq!(cost(&g, "ger-inf-88", false, "0807"), None, "no road into 0807");
    // 0707 touches both mountains: 0806 only by the road through 0706 (1 + 1), 0807 never.
    assert_eq!(cost(&g, "ger-inf-377", false, "0806"), Some(4));
    assert_eq!(cost(&g, "ger-inf-377", false, "0807"), None);
    // A unit in a mountain hex off the road cannot leave it (not a mountain division).
    let g = rules_map(&[("ger-inf-88", "0807")]);
    assert_eq!(reach(&g, "ger-inf-88", false).len(), 1);
}

#[test]
fn mountain_divisions_enter_with_all_mp_9_2_4_2() {
    let g = rules_map(&[("ger-mt-1", "0707")]);
    assert!(g.data().units[unit(&g, "ger-mt-1") as usize].is_mountain());
    assert_eq!(cost(&g, "ger-mt-1", false, "0807"), Some(10));
    assert!(must_stop(&g, "ger-mt-1", "0807"));
    // Not after moving first.
    let g = rules_map(&[("ger-mt-1", "0607")]);
    assert_eq!(cost(&g, "ger-mt-1", false, "0707"), Some(2));
    assert_eq!(cost(&g, "ger-mt-1", false, "0807"), None);
    // Not from enemy ZOC to enemy ZOC (the Soviet unit at 0708 has 0707 and 0807 in ZOC).
    let g = rules_map(&[("ger-mt-1", "0707"), ("sov-rifle-45", "0708")]);
    assert_eq!(cost(&g, "ger-mt-1", false, "0807"), None);
    // And it leaves a mountain hex off the road the same way.
    let g = rules_map(&[("ger-mt-1", "0807")]);
    assert_eq!(cost(&g, "ger-mt-1", false, "0707"), Some(10));
    // Allied mountain divisions too (counters.toml's note: Romanian Mt and the Alpini).
    let g = rules_map(&[("rum-mt-2", "0707")]);
    assert_eq!(cost(&g, "rum-mt-2", false, "0807"), Some(8), "MA 4: all of it");
}

// ---------------------------------------------------------------- 9.3 march formation

#[test]
fn march_formation_half_mp_per_road_hex_9_3() {
    // German infantry, MA 5, on the highway at 0105: ten road hexes, to 1105; not 1205.
    let g = small(&[("ger-inf-88", "0105")]);
    let m = reach(&g, "ger-inf-88", true);
    for (i, h) in [
        "0205", "0305", "0405", "0505", "0605", "0705", "0805", "0905", "1005", "1105",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(m.get(*h), Some(&(i as u32 + 1)), "{h}");
    }
    assert_eq!(m.get("1205"), None);
    // Only along the road.
    assert_eq!(m.get("0104"), None);
    assert_eq!(m.get("0204"), None);
    // Normal movement along the same road: 1 MP per hex, five hexes.
    let n = reach(&g, "ger-inf-88", false);
    assert_eq!(n.get("0605"), Some(&10));
    assert_eq!(n.get("0705"), None);
}

#[test]
fn march_formation_never_into_enemy_zoc_nor_an_enemy_hex_9_3_1_2() {
    // The Soviet unit at 0906 puts 0805, 0905 and 1005 (road hexes) in its ZOC: the march
    // stops at 0705.
    let g = small(&[("ger-inf-88", "0105"), ("sov-rifle-45", "0906")]);
    let m = reach(&g, "ger-inf-88", true);
    assert_eq!(m.get("0705"), Some(&6));
    assert_eq!(m.get("0805"), None);
    assert_eq!(m.get("1005"), None);
    // An enemy unit on the road itself: never entered, nor anything beyond it.
    let g = small(&[("ger-inf-88", "0105"), ("sov-rifle-45", "0905")]);
    let m = reach(&g, "ger-inf-88", true);
    assert_eq!(m.get("0705"), Some(&6));
    assert_eq!(m.get("0905"), None);
    assert_eq!(m.get("1105"), None);
}

#[test]
fn march_formation_needs_a_road_start_outside_enemy_zoc_and_no_railway_9_3() {
    // Starting in enemy ZOC: no march at all.
    let g = small(&[("ger-inf-88", "0305"), ("sov-rifle-45", "0306")]);
    assert!(reach(&g, "ger-inf-88", true).is_empty());
    // Starting off the road: none.
    let g = small(&[("ger-inf-88", "0304")]);
    assert!(reach(&g, "ger-inf-88", true).is_empty());
    // On the railway (0202, no road): railways cannot be used for march formation.
    let g = small(&[("ger-inf-88", "0202")]);
    assert!(reach(&g, "ger-inf-88", true).is_empty());
}

#[test]
fn march_moves_are_offered_where_normal_movement_does_not_reach_9_3() {
    let mut g = small(&[("ger-hq-6a", "0104"), ("ger-inf-88", "0105")]);
    execute(&mut g, "6A");
    let l = legal(&g);
    let u = unit(&g, "ger-inf-88");
    let to = |h: &str, march: bool| sandtable_stalingrad_blitz::Action::Move {
        unit: u,
        to: hex(&g, h),
        march,
        via: Default::default(),
    };
    assert!(l.contains(&to("1105", true)));
    assert!(l.contains(&to("0605", false)));
    assert!(!l.contains(&to("1205", true)));
    assert!(
        !l.contains(&to("0605", true)),
        "normal movement reaches 0605: no march move listed"
    );
}

// ---------------------------------------------------------------- 10.3 odds

#[test]
fn odds_examples_10_3_2() {
    let d = small_data();
    let cols = &d.crt.columns;
    let label = |a: u32, b: u32| cols.column(a, b).map(|c| cols.label(c));
    assert_eq!(label(15, 5).as_deref(), Some("3-1"));
    assert_eq!(label(26, 9).as_deref(), Some("2-1"));
    assert_eq!(label(12, 7).as_deref(), Some("1.5-1"));
    assert_eq!(label(18, 13).as_deref(), Some("1-1"));
    assert_eq!(label(25, 2).as_deref(), Some("10-1"));
    // Below 1-1: no column (10.3(4)).
    assert_eq!(label(4, 5), None);
    assert_eq!(cols.len(), 11);
}

#[test]
fn shift_examples_10_3_3() {
    let d = small_data();
    let cols = &d.crt.columns;
    let three = cols.column(15, 5).unwrap();
    assert_eq!(cols.label(cols.shift(three, -2).unwrap()), "1.5-1");
    let twelve = cols.column(12, 1).unwrap();
    assert_eq!(cols.label(cols.shift(twelve, -2).unwrap()), "8-1");
    // Past 1-1: not allowed.
    assert_eq!(cols.shift(cols.column(3, 2).unwrap(), -2), None);
}

#[test]
fn terrain_shifts_per_the_tec_a11() {
    let g = small(&[]);
    let sh = |h: &str| terrain_shift(g.data(), hex(&g, h));
    assert_eq!(sh("0101"), 0, "plain");
    assert_eq!(sh("0404"), 1, "forest");
    assert_eq!(sh("0403"), 2, "forest + town (the book's example)");
    assert_eq!(sh("0505"), 1, "town on plain");
    assert_eq!(sh("0904"), 2, "swamp + town");
    assert_eq!(sh("0905"), 2, "large city");
    assert_eq!(sh("0707"), 2, "mountain");
    let r = rules_map(&[]);
    assert_eq!(terrain_shift(r.data(), hex(&r, "0505")), 1, "swamp");
    assert_eq!(terrain_shift(r.data(), hex(&r, "0305")), 1, "forest with a road");
}

#[test]
fn forest_town_example_through_the_board_10_3_3() {
    // 6 against 2 is 3-1; Woodtown (forest + town) shifts it 2 left to 1.5-1.
    let g = small(&[("ger-pz-9", "0404"), ("sov-rifle-45", "0403")]);
    let b = Board::new(g.data(), g.state());
    let o = b.odds(hex(&g, "0403"), &[unit(&g, "ger-pz-9")]);
    assert_eq!((o.attack, o.defence, o.shifts), (6, 2, 2));
    assert_eq!(g.data().crt.columns.label(o.raw.unwrap()), "3-1");
    assert_eq!(g.data().crt.columns.label(o.column.unwrap()), "1.5-1");
    // An HQ (3) alone: 3-2 is 1.5-1, two shifts: below 1-1, not allowed (10.3(4)).
    let g = small(&[("ger-hq-4pza", "0404"), ("sov-rifle-45", "0403")]);
    let b = Board::new(g.data(), g.state());
    assert_eq!(b.odds(hex(&g, "0403"), &[unit(&g, "ger-hq-4pza")]).column, None);
}

#[test]
fn river_halves_only_the_crossing_units_once_on_their_total_10_3_1_1_a9() {
    // Target 0702 (Soviet rifle, 2) beyond the creek. 0601 and 0602 attack across it,
    // 0701 (same bank) does not.
    let g = small(&[
        ("ger-inf-88", "0601"),
        ("ger-inf-377", "0602"),
        ("ger-pz-9", "0701"),
        ("sov-rifle-45", "0702"),
    ]);
    let b = Board::new(g.data(), g.state());
    let t = hex(&g, "0702");
    let (i88, i377, pz) = (unit(&g, "ger-inf-88"), unit(&g, "ger-inf-377"), unit(&g, "ger-pz-9"));
    // (3 + 3) / 2 = 3 (rounded once, A9), not 1 + 1.
    let o = b.odds(t, &[i88, i377]);
    assert_eq!(o.attack, 3);
    assert!(o.halved);
    let o = b.odds(t, &[i88]);
    assert_eq!(o.attack, 1);
    // Mixed: 6 in full + 3.
    let o = b.odds(t, &[i88, i377, pz]);
    assert_eq!(o.attack, 9);
    let o = b.odds(t, &[pz]);
    assert_eq!(o.attack, 6);
    assert!(!o.halved);
    // Across a major river at a bridge: still halved (10.3(1)1, "with or without a bridge").
    let g = small(&[("ger-pz-9", "0605"), ("sov-rifle-45", "0705")]);
    let b = Board::new(g.data(), g.state());
    assert_eq!(b.odds(hex(&g, "0705"), &[unit(&g, "ger-pz-9")]).attack, 3);
}

#[test]
fn defence_sums_every_defender_and_retreated_units_add_nothing_10_3_1() {
    let mut g = small(&[
        ("ger-pz-9", "0808"),
        ("ger-pz-11", "0807"),
        ("sov-rifle-45", "0908"),
        ("sov-tk-4", "0908"),
    ]);
    let t = hex(&g, "0908");
    let atk = [unit(&g, "ger-pz-9"), unit(&g, "ger-pz-11")];
    let o = Board::new(g.data(), g.state()).odds(t, &atk);
    // Rifle 2 + tank corps defence 3 (mechanised: attack 4, defence 3).
    assert_eq!((o.attack, o.defence), (12, 5));
    assert_eq!(g.data().crt.columns.label(o.column.unwrap()), "2-1");
    // 10.3(1)2: a unit that retreated here in this combat segment adds no defence.
    let r = unit(&g, "sov-tk-4") as usize;
    g.edit().state.units[r].spent = true;
    let o = Board::new(g.data(), g.state()).odds(t, &atk);
    assert_eq!(o.defence, 2);
    assert_eq!(g.data().crt.columns.label(o.column.unwrap()), "6-1");
}

#[test]
fn a_level_2_fortress_adds_one_defence_14_2_1() {
    let tail = |level: u8| format!("[[fortress]]\nhex = \"0905\"\nlevel = {level}\n");
    for (level, defence) in [(1u8, 2u32), (2, 3)] {
        let g = StalingradBlitz::with_data(
            small_data(),
            &scenario_with(2, "", &[("ger-pz-9", "0805"), ("sov-rifle-45", "0905")], &tail(level)),
            1,
        )
        .unwrap();
        let o = Board::new(g.data(), g.state()).odds(hex(&g, "0905"), &[unit(&g, "ger-pz-9")]);
        assert_eq!(o.defence, defence, "level {level}");
    }
    // A lone level-1 fortress (A26): defence 0, so the 10+ column, then the city's 2 shifts.
    let g = StalingradBlitz::with_data(
        small_data(),
        &scenario_with(2, "", &[("ger-hq-4pza", "0805")], &tail(1)),
        1,
    )
    .unwrap();
    let o = Board::new(g.data(), g.state()).odds(hex(&g, "0905"), &[unit(&g, "ger-hq-4pza")]);
    assert_eq!(o.defence, 0);
    assert_eq!(g.data().crt.columns.label(o.column.unwrap()), "8-1");
}

#[test]
fn every_unit_in_a_fortress_hex_defends_14_2_3() {
    // Five Soviet rifle divisions in the level-1 fortress at Eastcity: 5 × 2 = 10 defence.
    let units = [
        ("ger-pz-9", "0805"),
        ("ger-pz-11", "0805"),
        ("sov-rifle-45", "0905"),
        ("sov-rifle-62", "0905"),
        ("sov-rifle-121", "0905"),
        ("sov-rifle-160", "0905"),
        ("sov-rifle-212", "0905"),
    ];
    let g = StalingradBlitz::with_data(
        small_data(),
        &scenario_with(2, "", &units, "[[fortress]]\nhex = \"0905\"\nlevel = 1\n"),
        1,
    )
    .unwrap();
    let b = Board::new(g.data(), g.state());
    assert_eq!(b.units_at(hex(&g, "0905")).len(), 5);
    let o = b.odds(hex(&g, "0905"), &[unit(&g, "ger-pz-9"), unit(&g, "ger-pz-11")]);
    assert_eq!(o.defence, 10);
}

// ---------------------------------------------------------------- 10.4 CRT

#[test]
fn every_crt_cell_follows_the_diagonal_10_4() {
    let d = small_data();
    let s = [
        "A2", "A1", "A1", "-", "-", "R", "R", "RR", "RR", "1RR", "1RR", "2RR", "2RR", "3RR", "3RR", "4RR",
    ];
    let labels: Vec<String> = (0..11).map(|c| d.crt.columns.label(c)).collect();
    assert_eq!(
        labels,
        ["1-1", "1.5-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1"]
    );
    for c in 0..11usize {
        for die in 1..=6i32 {
            let r = d.crt.result(c, die);
            assert_eq!(r.label(), s[c + die as usize - 1], "column {} die {die}", labels[c]);
        }
    }
    // The numbers behind the labels: 2RR is 2 steps and 2 hexes; A2 is two attacker steps.
    let r = d.crt.result(10, 2);
    assert_eq!((r.attacker_steps, r.defender_steps, r.retreat), (0, 2, 2));
    let r = d.crt.result(0, 1);
    assert_eq!((r.attacker_steps, r.defender_steps, r.retreat), (2, 0, 0));
    let r = d.crt.result(2, 4);
    assert_eq!((r.attacker_steps, r.defender_steps, r.retreat), (0, 0, 1));
}

// ---------------------------------------------------------------- 10.7 advance

#[test]
fn a_second_advance_hex_only_from_open_ground_not_across_a_river_10_7_1_a21() {
    let g = small(&[]);
    let may = |from: &str, to: &str| advance_may_continue(g.data(), hex(&g, from), hex(&g, to));
    assert!(may("0808", "0908"), "plain");
    assert!(!may("0304", "0404"), "forest");
    assert!(!may("1003", "0904"), "swamp + town");
    assert!(!may("0805", "0905"), "large city");
    assert!(!may("0405", "0505"), "town");
    assert!(!may("0708", "0707"), "mountain");
    assert!(!may("0602", "0702"), "across a river");
    assert!(!may("0605", "0705"), "across a major river, even at a bridge");
    assert!(may("0701", "0702"), "the same hex without the river");
}

// ---------------------------------------------------------------- tables

#[test]
fn axis_reinforcement_table_12_3() {
    let d = small_data();
    // The book's example: die 6 gives 1 Pz, 1 SS, 1 Inf and 1 Rum.
    assert_eq!(d.axis_reinf[5], [1, 1, 1, 0, 1, 0]);
    let all: Vec<[u8; 6]> = d.axis_reinf.clone();
    assert_eq!(
        all,
        vec![
            [0, 0, 0, 4, 3, 0],
            [0, 0, 0, 0, 3, 3],
            [0, 0, 1, 2, 2, 0],
            [0, 1, 1, 0, 2, 2],
            [1, 0, 0, 1, 2, 0],
            [1, 1, 1, 0, 1, 0]
        ]
    );
    let totals: Vec<u32> = all.iter().map(|r| r.iter().map(|&x| x as u32).sum()).collect();
    assert_eq!(totals, [7, 6, 5, 6, 4, 4]);
}

#[test]
fn withdrawal_table_11_2() {
    let d = small_data();
    // Die 4 / Pz is the OCR-damaged "12.49", read as 0 (A31).
    assert_eq!(
        d.withdrawal,
        vec![[1, 0, 2], [1, 0, 1], [0, 1, 2], [0, 1, 1], [0, 0, 2], [0, 0, 1]]
    );
}

/// 12.2: the track as the book prints it, every row: its last line is "NKVD-Mot 1-2-6 2 - - - -
/// - - - -", two NKVD motorised units at reinforcement number 1.
#[test]
fn soviet_track_column_totals_12_2() {
    let d = small_data();
    let totals: Vec<u32> = (0..9)
        .map(|col| d.soviet_track.iter().map(|(_, v)| v[col] as u32).sum())
        .collect();
    assert_eq!(totals, [28, 10, 17, 11, 15, 20, 21, 22, 19]);
    let by_type: Vec<u32> = d
        .soviet_track
        .iter()
        .map(|(_, v)| v.iter().map(|&x| x as u32).sum())
        .collect();
    // HQ, Tk, Mech, Cav, Rifle, G-Mech, G-Cav, G-Rifle, NKVD-Mot.
    assert_eq!(by_type, [3, 11, 3, 12, 109, 3, 2, 18, 2]);
    assert_eq!(by_type.iter().sum::<u32>(), 163);
    let (_, nkvd) = d.soviet_track.last().expect("the track's rows");
    assert_eq!(nkvd, &[2, 0, 0, 0, 0, 0, 0, 0, 0], "NKVD-Mot: 2 at number 1");
}

#[test]
fn loss_vp_per_unit_class_15_0_2() {
    let g = small(&[]);
    let vp = |id: &str| loss_vp(g.data(), unit(&g, id));
    assert_eq!(vp("ger-pz-9"), 2, "German mechanised");
    assert_eq!(vp("ger-mot-16"), 2, "German motorised (mechanised)");
    assert_eq!(vp("ger-ss-wik"), 2, "SS (mechanised)");
    assert_eq!(vp("ger-gd"), 2);
    assert_eq!(vp("ger-inf-88"), 1, "German non-mechanised");
    assert_eq!(vp("ger-mt-1"), 1);
    assert_eq!(vp("ger-jg-97"), 1);
    assert_eq!(vp("ger-pz-27"), 2, "single-step panzer");
    assert_eq!(vp("ger-hq-6a"), 2, "HQ");
    assert_eq!(vp("hun-hq-2a"), 2, "HQ (allied)");
    assert_eq!(vp("rum-inf-2"), 0, "allied");
    assert_eq!(vp("hun-armor-1"), 0, "allied mechanised");
    assert_eq!(vp("ita-mot-celere"), 0);
    assert_eq!(vp("sov-rifle-45"), 0, "Soviet units cost the Axis nothing");
    assert_eq!(vp("sov-hq-swf"), 0);
}

#[test]
fn the_turn_track_quotas_as_loaded_6_2() {
    let d = small_data();
    let q: Vec<(u8, u8, u8)> = d.turns.iter().map(|t| (t.su_com, t.ger_com, t.axis_rnf_com)).collect();
    assert_eq!(q.len(), 9);
    assert_eq!(
        q,
        [
            (2, 4, 2),
            (2, 5, 2),
            (3, 5, 2),
            (3, 5, 2),
            (3, 4, 3),
            (4, 4, 3),
            (4, 3, 3),
            (5, 3, 3),
            (6, 3, 3)
        ]
    );
}

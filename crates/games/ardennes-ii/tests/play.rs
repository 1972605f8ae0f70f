//! Playing on: a short scenario played to its end, the board drawn, the log and the view as
//! players read them, refusals of special actions. (Random play under the fuzz harness is in
//! `tests/fuzz.rs`.)

mod common;

use common::act;
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::chance::Rng;
use sandtable_core::game::{Game, Pending, Rules};

#[test]
fn a_short_scenario_plays_to_its_end_with_an_outcome() {
    let mut g = ArdennesII::new_game("goose-egg", 3).expect("7.4 starts");
    g.set_journal(false);
    let mut rng = Rng::from_seed(3);
    let mut legal = Vec::new();
    for _ in 0..200_000 {
        let Pending::Seat(seat) = g.pending() else { break };
        g.legal_actions(&mut legal);
        // End phases often, so the game moves on.
        let a = if rng.below(4) == 0 {
            legal
                .iter()
                .find(|a| matches!(a, sandtable_ardennes_ii::Action::EndPhase))
                .unwrap_or(&legal[0])
                .clone()
        } else {
            legal[rng.below(legal.len() as u32) as usize].clone()
        };
        act(&mut g, seat, &a).expect("legal");
    }
    assert_eq!(g.pending(), Pending::Over);
    assert!(g.outcome().is_some());
}

#[test]
fn the_board_joins_both_sheets_and_shows_bonds_markers_and_dg() {
    use sandtable_core::text::Lang;
    let mut g = ArdennesII::new_game("campaign", 5).expect("7.1 starts");
    // A barrage marker and a DG unit, to be drawn.
    let bastogne = g.world().map.grid.parse("B1.16").expect("Bastogne");
    g.edit().markers.push(sandtable_ardennes_ii::state::Markers {
        hex: bastogne,
        side: sandtable_ardennes_ii::sequence::Side::German,
        full: 1,
        half: 0,
    });
    let dg_unit = g
        .state()
        .units
        .iter()
        .position(|u| u.hex().is_some())
        .expect("a unit on the map");
    g.edit().units[dg_unit].dg = true;
    let svg = g.render_svg(None, Lang::En);
    for hex in ["A1.46", "A40.40", "B1.16", "B40.30"] {
        assert!(svg.contains(&format!("data-hex=\"{hex}\"")), "{hex} is drawn");
    }
    assert!(svg.contains(">1F</text>"), "the Full marker at Bastogne");
    assert!(svg.contains(" DG</text>"), "the DG unit");
    assert!(svg.contains(">ZOC</text>"), "the bonds of the start line");
}

#[test]
fn refused_special_actions_name_their_rule_and_change_nothing() {
    let mut g = ArdennesII::new_game("goose-egg", 2).expect("7.4 starts");
    let Pending::Seat(seat) = g.pending() else {
        panic!("someone decides")
    };
    let before = g.checksum();
    let grid = &g.world().map.grid;
    let hex = grid.parse("B20.34").expect("St. Vith");
    for (action, rule) in [
        (
            sandtable_ardennes_ii::Action::Overrun {
                units: vec![0],
                target: hex,
            },
            "3.3",
        ),
        (sandtable_ardennes_ii::Action::Demolish { symbol: hex }, "3.8"),
        (sandtable_ardennes_ii::Action::Boats { unit: 0, to: hex }, "4.2"),
        (sandtable_ardennes_ii::Action::Exit { unit: 0 }, "7.0"),
    ] {
        let refusal = g.apply(seat, &action).expect_err("not legal now");
        assert_eq!(refusal.rule, rule, "{action:?}");
        assert!(!refusal.text.zh.is_empty());
        assert_eq!(g.checksum(), before);
    }
}

/// The subpaths (one per hex) of the board's highlight drawn in `fill`.
fn shaded_hexes(svg: &str, fill: &str) -> usize {
    let Some(at) = svg.find(&format!("<path fill='{fill}' d='")) else {
        return 0;
    };
    let d = &svg[at..];
    let d = &d[..d.find("'/>").expect("the path ends")];
    d.matches('M').count()
}

#[test]
fn the_board_shades_the_hexes_outside_the_playing_area_7_0() {
    use sandtable_core::text::Lang;
    const OUTSIDE: &str = "rgba(90,90,90,0.55)";
    let g = ArdennesII::new_game("goose-egg", 1).expect("7.4 starts");
    let area = g.state().area.clone().expect("7.4 has a playing area");
    let outside = area.iter().filter(|in_area| !**in_area).count();
    assert!(outside > 0 && outside < area.len());
    assert_eq!(shaded_hexes(&g.render_svg(None, Lang::Zh), OUTSIDE), outside);
    // The shading never changes in a game: it is part of the map alone, not of the pieces.
    assert_eq!(shaded_hexes(&g.render_map(Lang::En), OUTSIDE), outside);
    assert_eq!(shaded_hexes(&g.render_pieces(None, Lang::En), OUTSIDE), 0);
    // The campaign plays on both maps whole: nothing is shaded.
    let g = ArdennesII::new_game("campaign", 1).expect("7.1 starts");
    assert!(g.state().area.is_none());
    assert_eq!(shaded_hexes(&g.render_svg(None, Lang::En), OUTSIDE), 0);
}

#[test]
fn the_log_follows_moves_and_placements_in_both_languages() {
    use sandtable_ardennes_ii::Action;
    let mut g = ArdennesII::new_game("goose-egg", 3).expect("7.4 starts");
    let mut legal = Vec::new();
    // The owners' set-up choices first (SCS 5.0), then the first move of the German turn.
    for _ in 0..100 {
        let Pending::Seat(seat) = g.pending() else {
            panic!("someone decides")
        };
        g.legal_actions(&mut legal);
        let a = legal[0].clone();
        let before = g.journal(None).len();
        act(&mut g, seat, &a).expect("a listed action");
        let lines = g.journal(None);
        match a {
            Action::Place { unit, at } | Action::Move { unit, to: at, .. } => {
                let name = &g.world().data.counters.units[unit as usize].name_en;
                let hex = g.world().data.hex_id(at);
                let line = lines[before..]
                    .iter()
                    .map(|l| &l.text)
                    .find(|t| t.en.contains(name.as_str()) && t.en.contains(&hex))
                    .unwrap_or_else(|| panic!("{a:?} is logged"));
                assert!(line.zh.contains(&hex) && line.zh != line.en, "{a:?}: {}", line.zh);
                if matches!(a, Action::Move { .. }) {
                    assert!(line.en.contains("MP") && line.zh.contains("移动力"), "{}", line.en);
                    return;
                }
            }
            _ => {}
        }
    }
    panic!("no move in the first 100 decisions");
}

/// The line paths of the board (rivers, roads, bridges…), one per drawn kind.
fn line_paths(svg: &str) -> usize {
    // The map's own lines are styled by class; those that come and go, with the pieces, inline.
    svg.matches("<path class=\"l").count() + svg.matches("<path style='stroke:").count()
}

#[test]
fn the_board_shows_bridges_german_bridges_from_their_day_and_demolitions_3_8() {
    use sandtable_core::text::Lang;
    let mut g = ArdennesII::new_game("campaign", 1).expect("7.1 starts");
    let built_days: std::collections::BTreeSet<u8> = g
        .world()
        .map
        .side_lines
        .iter()
        .filter_map(|l| l.kind.strip_prefix("built-bridge-turn-"))
        .map(|d| d.parse().expect("a day"))
        .collect();
    let first_day = *built_days.first().expect("German-built bridges on the map");
    assert!(first_day > 1, "none stands on turn 1");
    let on_turn_1 = g.render_svg(None, Lang::En);
    let map_on_turn_1 = g.render_map(Lang::En);
    g.edit().turn = 16;
    let on_turn_16 = g.render_svg(None, Lang::En);
    // The map alone does not change: the built bridges come with the pieces.
    assert_eq!(g.render_map(Lang::En), map_on_turn_1);
    assert_eq!(
        line_paths(&g.render_pieces(None, Lang::En)),
        built_days.len(),
        "the pieces carry the bridges built by turn 16"
    );
    assert_eq!(
        line_paths(&on_turn_16),
        line_paths(&on_turn_1) + built_days.len(),
        "each day's German bridges are drawn from that day"
    );
    // Every demolition symbol is marked, as its state stands, by a sign beside the counters
    // (charged ✹, blown ✕, tested ○), the same in both languages.
    let symbols = g.world().demolitions.len();
    assert_eq!(on_turn_1.matches(">✹</text>").count(), symbols);
    let (first, second) = (g.world().demolitions[0].0, g.world().demolitions[1].0);
    g.edit().blown.push(first);
    g.edit().tested.push(second);
    let zh = g.render_svg(None, Lang::Zh);
    assert_eq!(zh.matches(">✹</text>").count(), symbols - 2);
    assert_eq!(zh.matches(">✕</text>").count(), 1);
    assert_eq!(zh.matches(">○</text>").count(), 1);
}

/// The view sends each unit's printed values as `factors`, which the page reads, and still as
/// `values`.
#[test]
fn the_view_sends_each_units_factors_as_the_page_reads_them() {
    let g = ArdennesII::new_game("goose-egg", 1).expect("7.4 starts");
    let view = g.view(None);
    let units = view["units"].as_array().expect("the view lists units");
    assert!(!units.is_empty());
    for v in units {
        let id = v["id"].as_str().expect("an id");
        let i = g.world().data.counters.index(id).expect("a unit of the manifest") as usize;
        let def = &g.world().data.counters.units[i];
        let want = def.values(g.state().units[i].reduced);
        assert_eq!(v["factors"], want.as_str(), "{id}");
        assert_eq!(v["values"], v["factors"], "{id}");
    }
}

/// A game kept as a record (`sandtable_core::record`): every die is a step of its own, after
/// which nobody may take back what came before it; a move without dice may be taken back; the
/// record saved and loaded again is the same game.
#[test]
fn a_session_records_each_die_as_a_step_and_loads_again() {
    use sandtable_ardennes_ii::Action;
    use sandtable_core::record::{ScenarioSource, Session};
    let mut s = Session::<ArdennesII>::new(ScenarioSource::Shipped("goose-egg".into()), 4).expect("7.4 starts");
    let (mut rolled, mut undone) = (false, false);
    let mut legal = Vec::new();
    for i in 0..400usize {
        let Pending::Seat(seat) = s.game.pending() else { break };
        s.game.legal_actions(&mut legal);
        // Fire when offered (a die), otherwise go through the list.
        let a = legal
            .iter()
            .find(|a| matches!(a, Action::Fire { .. }))
            .unwrap_or(&legal[i % legal.len()])
            .clone();
        let before = s.record.entries.len();
        let sum = s.game.checksum();
        s.act(seat, &a).expect("a listed action");
        let dice = s.record.entries[before + 1..]
            .iter()
            .filter(|e| e.seat.is_none())
            .count();
        if dice > 0 {
            rolled = true;
            assert!(!s.can_undo(seat), "{a:?}: a die was rolled, nobody takes it back");
            assert!(s.record.entries[before + 1..].iter().all(|e| e.barrier));
        } else if matches!(a, Action::Move { .. }) && !undone && s.can_undo(seat) {
            let mut back = s.clone();
            back.undo(seat).expect("the move is taken back");
            assert_eq!(back.game.checksum(), sum, "{a:?} taken back");
            undone = true;
        }
        if rolled && undone && i > 100 {
            break;
        }
    }
    assert!(
        rolled && undone,
        "a die was rolled ({rolled}) and a move taken back ({undone})"
    );
    let again =
        Session::<ArdennesII>::from_json(&sandtable_core::record::DynSession::to_json(&s)).expect("the record loads");
    assert_eq!(again.game.checksum(), s.game.checksum());
    assert_eq!(again.game.pending(), s.game.pending());
}

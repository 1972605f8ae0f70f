//! The charts the page shows beside the board come from the game's own data, in both languages
//! (issue 11): the sequence of play from the game's phases, the CRT and TEC from its tables.

use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::driver::Rules;
use sandtable_core::game::Game;

#[test]
fn the_charts_are_the_games_tables_in_both_languages() {
    let g = ArdennesII::new_game("goose-egg", 1).expect("7.4 starts");
    let charts = g.charts();
    let ids: Vec<&str> = charts.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["play", "crt", "tec", "turns", "legend", "glossary"]);
    for c in &charts {
        assert!(!c.rows.is_empty(), "{}", c.id);
        for row in &c.rows {
            assert_eq!(row.len(), c.head.len(), "{}", c.id);
        }
        assert!(c.swatches.is_empty() || c.swatches.len() == c.rows.len(), "{}", c.id);
    }
    // Two dice: totals 2 to 12.
    assert_eq!(charts[1].rows.len(), 11);
    assert_eq!(charts[1].rows[0][0].en, "2");
    // The turn of a player's movement is listed for both sides.
    let play: Vec<&str> = charts[0].rows.iter().map(|r| r[0].en.as_str()).collect();
    assert!(play.iter().filter(|p| p.contains("movement")).count() >= 2, "{play:?}");
}

//! The charts the page shows beside the board come from the game's own data, in both languages
//! (issue 11): the CRT is the CRT the combat reads, die by die.

use sandtable_core::driver::Rules;
use sandtable_core::game::Game;
use sandtable_stalingrad_blitz::StalingradBlitz;

#[test]
fn the_charts_are_the_games_tables_in_both_languages() {
    let g = StalingradBlitz::new_game("campaign", 1).expect("the campaign loads");
    let charts = g.charts();
    let ids: Vec<&str> = charts.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "play",
            "crt",
            "tec",
            "turns",
            "soviet-reinf",
            "axis-reinf",
            "legend",
            "glossary"
        ]
    );
    for c in &charts {
        assert!(!c.rows.is_empty(), "{}", c.id);
        assert!(!c.title.en.is_empty() && !c.title.zh.is_empty(), "{}", c.id);
        for row in &c.rows {
            assert_eq!(row.len(), c.head.len(), "{}", c.id);
            assert!(
                row.iter().all(|t| !t.zh.is_empty() || t.en.is_empty()),
                "{}: {row:?}",
                c.id
            );
        }
        assert!(c.swatches.is_empty() || c.swatches.len() == c.rows.len(), "{}", c.id);
    }
    // The CRT: one row per face of the die, the 1-1 column's first row as the table has it.
    let crt = &charts[1];
    assert_eq!(crt.rows.len(), 6);
    assert_eq!(crt.head[1].en, "1-1");
    // Nine turns on the track.
    assert_eq!(charts[3].rows.len(), 9);
    // 12.2: the Soviet track has nine columns (reinforcement numbers), and its first brings an
    // HQ and the two NKVD motorised units of the track's last row.
    let track = &charts[4];
    assert_eq!(track.rows.len(), 9);
    let col = |name: &str| {
        track
            .head
            .iter()
            .position(|h| h.en == name)
            .unwrap_or_else(|| panic!("no {name} column"))
    };
    assert_eq!(track.rows[0][col("HQ")].en, "1");
    assert_eq!(track.rows[0][col("NKVD motorised unit")].en, "2");
    assert_eq!(track.rows[1][col("NKVD motorised unit")].en, "-");
    assert_eq!(track.head[col("Rifle division")].zh, "步兵师");
    // 12.3's example: a 6 gives one German panzer, one SS, one German infantry and one Romanian
    // division.
    let axis = &charts[5];
    assert_eq!(axis.rows.len(), 6);
    let six: Vec<&str> = axis.rows[5].iter().map(|c| c.en.as_str()).collect();
    assert_eq!(six, ["6", "1", "1", "1", "-", "1", "-"]);
}

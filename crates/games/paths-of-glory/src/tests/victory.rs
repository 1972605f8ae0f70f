//! 5.0 Victory: the VP spaces by scenario, captures, automatic victory and the end of a scenario.

use super::common;

use crate::tables::{Outcome, Tables};
use crate::victory::{at_end, automatic, capture, final_vp, is_vp_space, Ending};
use crate::Side;
use common::{data, sp};

fn count(historical: bool, side: Side) -> usize {
    data()
        .map
        .graph
        .space_indices()
        .filter(|&s| is_vp_space(data(), historical, s) && data().facts(s).faction == side)
        .count()
}

/// Supplement 6.17: 37 Allied and 28 CP VP spaces in the Historical scenario; without 5.7.2 Kovno,
/// Sedan, Amiens, Koblenz and Aachen are not VP spaces and Ahwaz, Venice, Minsk, Jerusalem and
/// Kharput are, which leaves both counts as they were.
#[test]
fn the_vp_spaces_5_7_2() {
    assert_eq!((count(true, Side::Ap), count(true, Side::Cp)), (37, 28));
    assert_eq!((count(false, Side::Ap), count(false, Side::Cp)), (37, 28));
    assert!(is_vp_space(data(), true, sp("sedan")) && !is_vp_space(data(), false, sp("sedan")));
    assert!(!is_vp_space(data(), true, sp("ahwaz")) && is_vp_space(data(), false, sp("ahwaz")));
}

#[test]
fn captures_move_the_vp_marker() {
    // The CP takes Paris: +1; the Allies take Metz: -1; Lyon is no VP space.
    assert_eq!(capture(data(), true, sp("paris"), Some(Side::Ap), Some(Side::Cp)), 1);
    assert_eq!(capture(data(), true, sp("metz"), Some(Side::Cp), Some(Side::Ap)), -1);
    assert_eq!(capture(data(), true, sp("lyon"), Some(Side::Ap), Some(Side::Cp)), 0);
    assert_eq!(capture(data(), false, sp("sedan"), Some(Side::Ap), Some(Side::Cp)), 0);
}

#[test]
fn automatic_victory_and_the_end_5_2_to_5_7() {
    let t = Tables::load().unwrap();
    assert_eq!(automatic(&t, 20), Some(Side::Cp));
    assert_eq!(automatic(&t, 0), Some(Side::Ap));
    assert_eq!(automatic(&t, 12), None);
    // 5.7.4.8, 5.7.4.9: +1 for each unplayed US army card, -2 without the Fall of the Tsar.
    let e = Ending {
        historical_adjustments: true,
        unplayed_us_army_cards: 2,
        tsar_fell: false,
        ..Ending::default()
    };
    assert_eq!(final_vp(12, &e), 12);
    // 13 with the Tsar fallen and no US army card unplayed is a CP win; the same 13 without the
    // Fall of the Tsar is 11, a draw, which in the Historical scenario the Allies win.
    let fell = Ending {
        historical_adjustments: true,
        tsar_fell: true,
        ..Ending::default()
    };
    assert_eq!(at_end(&t, "historical", 13, &fell, false), Some(Outcome::Win(Side::Cp)));
    let not_fell = Ending {
        tsar_fell: false,
        ..fell
    };
    assert_eq!(final_vp(13, &not_fell), 11);
    assert_eq!(
        at_end(&t, "historical", 13, &not_fell, false),
        Some(Outcome::Win(Side::Ap))
    );
    // 5.6.3: a tournament draw is an Allied win; the bid counts at the end (5.6.2).
    let plain = Ending::default();
    assert_eq!(at_end(&t, "limited-war", 14, &plain, false), Some(Outcome::Draw));
    assert_eq!(
        at_end(&t, "limited-war", 14, &plain, true),
        Some(Outcome::Win(Side::Ap))
    );
    let bid = Ending {
        bid: 3,
        ..Ending::default()
    };
    assert_eq!(at_end(&t, "limited-war", 14, &bid, false), Some(Outcome::Win(Side::Cp)));
    assert_eq!(at_end(&t, "no-such-scenario", 14, &plain, false), None);
}

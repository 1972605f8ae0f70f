//! 12.5.3: defenders in a trench (or a forest, desert, mountain or swamp) may take one more step
//! instead of retreating, on the August 1914 map.

use super::common;

use crate::game::{Action, Frame, PathsOfGlory, AP};
use crate::state::Location;
use sandtable_core::driver::Rules;
use sandtable_core::game::Game;

/// The French 1st Army and a French corps, both full, in Essen (clear, next to Aachen), with a
/// level-1 trench or none; the German 1st Army attacks them from Aachen and rolls a 6 to the
/// French 1; the game is left at the French retreat.
fn beaten_in_essen(trench: bool) -> (PathsOfGlory, u16, u16) {
    beaten_in_essen_with(trench, [6, 1], |g, army, corps| {
        for u in [army, corps] {
            g.pos.units[u as usize].loc = Location::Map(g.data().space("essen").unwrap());
            g.pos.units[u as usize].full = true;
        }
    })
    .expect("the French retreat")
}

/// The same, with the defenders placed by `place` (given the French 1st Army and 1st Corps)
/// and the two fire dice given; `None` if the game does not come to the defenders' retreat.
fn beaten_in_essen_with(
    trench: bool,
    dice: [u8; 2],
    place: impl Fn(&mut PathsOfGlory, u16, u16),
) -> Option<(PathsOfGlory, u16, u16)> {
    let edition = <PathsOfGlory as Rules>::DATA_EDITION.parse().unwrap();
    common::beaten_in_essen(edition, trench, dice, place)
        .filter(|(g, _, _)| matches!(g.frames().last(), Some(Frame::RetreatUnits { .. })))
}

#[test]
fn defenders_in_a_trench_cancel_their_retreat_with_one_more_step_12_5_3() {
    let (mut g, army, corps) = beaten_in_essen(true);
    let essen = g.data().space("essen").unwrap();
    let legal = g.legal_list();
    let stand: Vec<u16> = legal
        .iter()
        .filter_map(|a| match a {
            Action::StandFast { unit } => Some(*unit),
            _ => None,
        })
        .collect();
    assert!(!stand.is_empty(), "{legal:?}");
    assert!(
        legal.iter().any(|a| matches!(a, Action::Retreat { .. })),
        "retreating stays a choice"
    );
    // The step falls on the corps: reduced (or eliminated beside the army), the army stays.
    g.apply(AP, &Action::StandFast { unit: corps })
        .expect("the corps takes the step");
    assert_eq!(g.pos.units[army as usize].loc, Location::Map(essen), "no retreat");
    assert!(
        g.pos.units[corps as usize].loc != Location::Map(essen) || !g.pos.units[corps as usize].full,
        "the corps took the step"
    );
    assert!(!matches!(g.frames().last(), Some(Frame::RetreatUnits { .. })));
    assert!(g
        .journal(None)
        .iter()
        .any(|l| l.text.en.contains("to cancel the retreat (12.5.3)")));
}

#[test]
fn in_clear_ground_without_a_trench_the_defenders_retreat_12_5_3() {
    let (g, _, corps) = beaten_in_essen(false);
    assert!(!g.legal_list().iter().any(|a| matches!(a, Action::StandFast { .. })));
    let r = g
        .check_action(AP, &Action::StandFast { unit: corps })
        .expect_err("clear ground, no trench");
    assert_eq!(r.rule, "12.5.3");
}

/// A lone reduced French army in a trench in Essen; `reserve` French corps left in the Reserve
/// Box (the others set aside).
fn lone_reduced_army(reserve: bool) -> (PathsOfGlory, u16) {
    let place = |g: &mut PathsOfGlory, army: u16, _| {
        let essen = g.data().space("essen").unwrap();
        g.pos.units[army as usize].loc = Location::Map(essen);
        g.pos.units[army as usize].full = false;
        if !reserve {
            for u in 0..g.pos.units.len() {
                let p = &g.data().pieces[u];
                if p.nation == crate::data::Nation::Fr && g.pos.units[u].loc == Location::Reserve {
                    g.pos.units[u].loc = Location::Aside;
                }
            }
        }
    };
    // Dice with which the army, still standing, must retreat.
    for a in 1..=6 {
        for d in 1..=6 {
            if let Some((g, army, _)) = beaten_in_essen_with(true, [a, d], place) {
                if matches!(g.pos.units[army as usize].loc, Location::Map(_)) {
                    return (g, army);
                }
            }
        }
    }
    panic!("no dice leave the reduced army to retreat");
}

#[test]
fn a_lone_reduced_army_stands_fast_when_a_corps_comes_in_its_place_12_5_3_12_4_4() {
    let (mut g, army) = lone_reduced_army(true);
    let essen = g.data().space("essen").unwrap();
    assert!(
        g.legal_list().contains(&Action::StandFast { unit: army }),
        "{:?}",
        g.legal_list()
    );
    g.apply(AP, &Action::StandFast { unit: army })
        .expect("the army takes the step");
    // 12.4.4.1: out of supply in Essen (every space around is the CP's), the army leaves the
    // game; its corps comes all the same.
    assert_eq!(g.pos.units[army as usize].loc, Location::Removed);
    assert!(g
        .journal(None)
        .iter()
        .any(|l| l.text.en.contains("out of supply and leaves the game (12.4.4.1)")));
    let standing: Vec<&str> = (0..g.pos.units.len())
        .filter(|&u| g.pos.units[u].loc == Location::Map(essen))
        .map(|u| g.data().pieces[u].id.as_str())
        .collect();
    assert_eq!(standing.len(), 1, "{standing:?}");
    assert!(standing[0].starts_with("fr-corps"), "{standing:?}");
    assert!(g
        .journal(None)
        .iter()
        .any(|l| l.text.en.contains("in its army's place (12.4.4)")));
}

#[test]
fn a_lone_reduced_army_with_no_corps_in_reserve_must_retreat_12_5_3() {
    let (g, army) = lone_reduced_army(false);
    assert!(!g.legal_list().contains(&Action::StandFast { unit: army }));
    let r = g
        .check_action(AP, &Action::StandFast { unit: army })
        .expect_err("the last step");
    assert_eq!(r.rule, "12.5.3");
}

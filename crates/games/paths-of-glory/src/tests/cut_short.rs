//! A two-space retreat that can go one space only, on the August 1914 map: the units go that
//! space and are eliminated there (2022 12.5.4), and the advance may follow as far as it (2022
//! 12.7.4); defenders eliminated because they cannot retreat at all leave their space to the
//! advance (12.6.1, 12.6.2).

use super::common;

use crate::game::{Action, Frame, PathsOfGlory, AP, CP};
use crate::state::Location;
use crate::Side;
use sandtable_core::driver::Rules;
use sandtable_core::game::Game;

/// The French 1st Army and 1st Corps, full, in Essen, beaten two spaces back by the German 1st
/// Army (a 6 to a 1), with a German corps in each of `blocked`: Essen's ways out are Aachen
/// (the attacker's), Bremen (a German corps from the set-up) and Kassel; Kassel's are Frankfurt,
/// Hannover and Erfurt.
fn beaten_two_spaces(edition: u8, blocked: &[&str]) -> (PathsOfGlory, u16, u16) {
    let place = |g: &mut PathsOfGlory, army: u16, corps: u16| {
        for u in [army, corps] {
            g.pos.units[u as usize].loc = Location::Map(common::sp("essen"));
            g.pos.units[u as usize].full = true;
        }
        let mut corps = common::in_reserve(g, "ge-corps", blocked.len()).into_iter();
        for s in blocked {
            let c = corps.next().unwrap() as usize;
            g.pos.units[c].loc = Location::Map(common::sp(s));
            g.pos.spaces[common::sp(s).idx()].control = Some(Side::Cp);
        }
    };
    let (g, army, corps) = common::beaten_in_essen(edition, false, [6, 1], place).expect("the dice");
    let retreat = g.action.battle.as_ref().map(|b| b.retreat);
    assert!(
        matches!(retreat, None | Some(Some(2))),
        "a two-space retreat: {retreat:?}"
    );
    (g, army, corps)
}

fn retreats(g: &PathsOfGlory) -> Vec<(u16, Vec<&str>)> {
    g.legal_list()
        .iter()
        .filter_map(|a| match a {
            Action::Retreat { unit, route } => Some((
                *unit,
                route.iter().map(|&s| g.data().map.graph.space(s).id.as_str()).collect(),
            )),
            _ => None,
        })
        .collect()
}

fn advances(g: &PathsOfGlory) -> Vec<Vec<&str>> {
    let mut v: Vec<Vec<&str>> = g
        .legal_list()
        .iter()
        .filter_map(|a| match a {
            Action::Advance { route, .. } => {
                Some(route.iter().map(|&s| g.data().map.graph.space(s).id.as_str()).collect())
            }
            _ => None,
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn a_two_space_retreat_that_ends_after_one_space_lets_the_advance_follow_it_2022_12_7_4() {
    let (mut g, army, _) = beaten_two_spaces(4, &["frankfurt", "hannover", "erfurt"]);
    // Kassel is the only way out, and there is no second space beyond it. (The 6 took the
    // corps.)
    assert_eq!(retreats(&g), [(army, vec!["kassel"])]);
    let words = g.describe(&Action::Retreat {
        unit: army,
        route: vec![common::sp("kassel")],
    });
    assert!(
        words.en.ends_with("to Kassel and is eliminated there (2022 12.5.4)"),
        "{}",
        words.en
    );
    assert!(words.zh.contains("并在该处被消灭"), "{}", words.zh);
    g.apply(
        AP,
        &Action::Retreat {
            unit: army,
            route: vec![common::sp("kassel")],
        },
    )
    .expect("one space, then eliminated");
    // 2022 12.5.4: eliminated there, for good.
    assert_eq!(g.pos.units[army as usize].loc, Location::Removed);
    assert!(g
        .journal(None)
        .iter()
        .any(|l| l.text.en.contains("can go no farther and is eliminated")));
    // 2022 12.7.4: the German 1st Army may advance as far as Kassel.
    assert!(matches!(g.frames().last(), Some(Frame::AdvanceUnits { side }) if *side == Side::Cp));
    assert_eq!(advances(&g), [vec!["essen"], vec!["essen", "kassel"]]);
    let ge = common::unit("ge-army-1") as u16;
    g.apply(
        CP,
        &Action::Advance {
            unit: ge,
            route: vec![common::sp("essen"), common::sp("kassel")],
        },
    )
    .expect("the advance follows the retreat");
    assert_eq!(g.pos.units[ge as usize].loc, Location::Map(common::sp("kassel")));
}

#[test]
fn a_one_space_route_is_refused_while_two_spaces_can_be_retreated_12_5_4() {
    let (g, army, _) = beaten_two_spaces(4, &["frankfurt", "hannover"]);
    assert!(
        retreats(&g).iter().all(|(_, r)| r == &["kassel", "erfurt"]),
        "{:?}",
        retreats(&g)
    );
    let r = g
        .check_action(
            AP,
            &Action::Retreat {
                unit: army,
                route: vec![common::sp("kassel")],
            },
        )
        .expect_err("the whole distance can be retreated");
    assert_eq!(r.rule, "12.5.2");
}

#[test]
fn defenders_that_cannot_retreat_at_all_leave_their_space_to_the_advance_12_6_2() {
    let (g, army, corps) = beaten_two_spaces(4, &["kassel"]);
    // Nobody decides: they are eliminated where they stand (12.5.4).
    assert!(retreats(&g).is_empty());
    assert_eq!(g.pos.units[army as usize].loc, Location::Removed);
    assert_eq!(g.pos.units[corps as usize].loc, Location::Eliminated);
    assert_eq!(advances(&g), [vec!["essen"]]);
}

#[test]
fn a_game_begun_on_edition_3_eliminates_a_retreat_cut_short_in_place() {
    // Its record replays as it was played.
    let (g, army, corps) = beaten_two_spaces(3, &["frankfurt", "hannover", "erfurt"]);
    assert!(retreats(&g).is_empty());
    assert!(g
        .journal(None)
        .iter()
        .any(|l| l.text.en.contains("cannot retreat and is eliminated (12.5.4)")));
    assert_eq!(g.pos.units[army as usize].loc, Location::Removed);
    assert_eq!(g.pos.units[corps as usize].loc, Location::Eliminated);
    assert!(advances(&g).is_empty());
}

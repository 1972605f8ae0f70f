//! 12.4.4 on the August 1914 map, through the driver: which corps of the Reserve Box may replace
//! an eliminated army (12.4.4.3), and the army eliminated out of supply that leaves the game
//! (12.4.4.1).

use super::common;

use crate::game::{Action, Frame, PathsOfGlory, CP};
use crate::state::Location;
use crate::Side;
use sandtable_core::driver::Rules;
use sandtable_core::game::Game;

fn edition() -> u8 {
    <PathsOfGlory as Rules>::DATA_EDITION.parse().unwrap()
}

/// The German 1st Army attacks `target` (made the Allies') from Aachen by Automatic Operations,
/// the position first changed by `place`, the two fire dice given; the game is left once the
/// combat is over or the defenders retreat or stand fast; `None` if the dice run out first.
fn attacked_from_aachen(target: &str, dice: [u8; 2], place: impl Fn(&mut PathsOfGlory)) -> Option<PathsOfGlory> {
    attacked_by(&["ge-army-1"], target, dice, place, |_| {})
}

/// As [`attacked_from_aachen`], with the units `joining` from Aachen (placed there), and `watch`
/// shown every position on the way.
fn attacked_by(
    joining: &[&str],
    target: &str,
    dice: [u8; 2],
    place: impl Fn(&mut PathsOfGlory),
    watch: impl Fn(&PathsOfGlory),
) -> Option<PathsOfGlory> {
    let mut g = common::first_round();
    g.scenario.edition = edition();
    let (space, aachen) = (common::sp(target), common::sp("aachen"));
    place(&mut g);
    for id in joining {
        g.pos.units[common::unit(id)].loc = Location::Map(aachen);
    }
    g.pos.spaces[space.idx()].control = Some(Side::Ap);
    g.touch();
    common::automatic_attack_from(&mut g, aachen);
    g.apply(CP, &Action::Target { space }).unwrap();
    for id in joining {
        g.apply(
            CP,
            &Action::Join {
                unit: common::unit(id) as u16,
            },
        )
        .unwrap();
    }
    g.apply(CP, &Action::Resolve).unwrap();
    let after = |g: &PathsOfGlory| {
        watch(g);
        g.action.battle.is_none()
            || matches!(
                g.frames().last(),
                Some(Frame::RetreatUnits { .. } | Frame::AdvanceUnits { .. })
            )
    };
    common::play_until(&mut g, &mut dice.into_iter(), after).then_some(g)
}

/// A reduced army alone in `at`; of the Reserve Box's corps of its nation only those of
/// `reserve` stay (the others set aside).
fn lone_reduced(g: &mut PathsOfGlory, army: &str, at: &str, reserve: &[&str]) {
    let a = common::unit(army);
    let nation = g.data().pieces[a].nation;
    for u in 0..g.pos.units.len() {
        let p = &g.data().pieces[u];
        if p.nation == nation && p.kind == crate::data::Kind::Corps {
            g.pos.units[u].loc = if reserve.contains(&p.id.as_str()) {
                Location::Reserve
            } else if g.pos.units[u].loc == Location::Reserve {
                Location::Aside
            } else {
                g.pos.units[u].loc
            };
        }
    }
    g.pos.units[a].loc = Location::Map(common::sp(at));
    g.pos.units[a].full = false;
}

/// 12.4.4.3 "AUS、CND、PT和ANA Corps不能用來取代任何被消滅的英軍Army": the reduced British 1st Army,
/// in supply in Liege, is eliminated with only the CND corps in the Reserve Box: no corps of its
/// pool is left, so it leaves the game (12.4.4) and the CND corps stays in the Reserve Box.
#[test]
fn the_cnd_corps_never_replaces_a_british_army_12_4_4_3() {
    let g = attacked_from_aachen("liege", [6, 1], |g| {
        lone_reduced(g, "br-army-1", "liege", &["br-corps-cnd"]);
        assert!(crate::operations::in_supply(g, common::unit("br-army-1") as u16));
    })
    .expect("the combat is fought");
    assert_eq!(g.pos.units[common::unit("br-army-1")].loc, Location::Removed);
    assert_eq!(g.pos.units[common::unit("br-corps-cnd")].loc, Location::Reserve);
    assert!(!g
        .journal(None)
        .iter()
        .any(|l| l.text.en.contains("in its army's place (12.4.4)")));
}

/// 12.4.4.3 with 12.4.4: an ordinary British corps does replace the British 1st Army, ahead of
/// the AUS, CND and PT corps also in the Reserve Box.
#[test]
fn an_ordinary_british_corps_replaces_a_british_army_12_4_4_3() {
    let g = attacked_from_aachen("liege", [6, 1], |g| {
        lone_reduced(
            g,
            "br-army-1",
            "liege",
            &["br-corps-aus", "br-corps-cnd", "br-corps-pt", "br-corps-1"],
        );
    })
    .expect("the combat is fought");
    assert_eq!(g.pos.units[common::unit("br-army-1")].loc, Location::Eliminated);
    assert_ne!(g.pos.units[common::unit("br-corps-1")].loc, Location::Reserve);
    for id in ["br-corps-aus", "br-corps-cnd", "br-corps-pt"] {
        assert_eq!(g.pos.units[common::unit(id)].loc, Location::Reserve, "{id}");
    }
}

/// 12.4.4.1 "這個取代動作即使Army是OOS也可以執行,但OOS Army則永遠移出遊戲" (2022 12.4.7(3)): the reduced
/// French 1st Army, out of supply in Essen (every space around is the CP's), is eliminated: a
/// French corps still comes in its place, and the army leaves the game.
#[test]
fn an_army_eliminated_out_of_supply_leaves_the_game_12_4_4_1() {
    let g = attacked_from_aachen("essen", [6, 1], |g| {
        lone_reduced(g, "fr-army-1", "essen", &["fr-corps-1", "fr-corps-2"]);
        assert!(!crate::operations::in_supply(g, common::unit("fr-army-1") as u16));
    })
    .expect("the combat is fought");
    assert_eq!(g.pos.units[common::unit("fr-army-1")].loc, Location::Removed);
    assert!(
        ["fr-corps-1", "fr-corps-2"]
            .iter()
            .any(|id| g.pos.units[common::unit(id)].loc != Location::Reserve),
        "a French corps came in its place"
    );
    assert!(g
        .journal(None)
        .iter()
        .any(|l| l.text.en.contains("out of supply") && l.text.en.contains("12.4.4.1")));
}

/// 12.4.4.1: the same army in supply (in Liege) goes to the Eliminated box, to be rebuilt.
#[test]
fn an_army_eliminated_in_supply_may_be_rebuilt_12_4_4_1() {
    let g = attacked_from_aachen("liege", [6, 1], |g| {
        lone_reduced(g, "fr-army-1", "liege", &["fr-corps-1", "fr-corps-2"]);
        assert!(crate::operations::in_supply(g, common::unit("fr-army-1") as u16));
    })
    .expect("the combat is fought");
    assert_eq!(g.pos.units[common::unit("fr-army-1")].loc, Location::Eliminated);
}

/// 2022 12.4.4.2 (data edition 6): the corps an army with none left in the Reserve Box counts
/// is there only for "a loss number larger than can otherwise be applied". The reduced British
/// 1st Army and a full British corps hold Liege, with no corps of the army's pool in the
/// Reserve Box, and take 5: the army (3) and both steps of the corps (1 + 1) meet it, so no
/// corps is counted in the army's place and the real one may not be spared.
#[test]
fn no_corps_is_counted_where_real_units_meet_the_losses_12_4_4_2() {
    let counted_offered = std::cell::Cell::new(false);
    let g = attacked_by(
        &["ge-army-1"],
        "liege",
        [6, 1],
        |g| {
            lone_reduced(g, "br-army-1", "liege", &["br-corps-cnd"]);
            g.pos.units[common::unit("br-corps-1")].loc = Location::Map(common::sp("liege"));
            g.pos.units[common::unit("br-corps-1")].full = true;
        },
        |g| {
            if let Some(Frame::TakeLosses { side: Side::Ap }) = g.frames().last() {
                let l = &g.action.battle.as_ref().unwrap().losses.as_ref().unwrap().losses;
                counted_offered.set(counted_offered.get() || l.units().iter().any(|u| u.counted_only));
            }
        },
    )
    .expect("the combat is fought");
    assert!(
        !counted_offered.get(),
        "a corps was counted that real units made unneeded"
    );
    assert_eq!(g.pos.units[common::unit("br-army-1")].loc, Location::Removed);
    assert_eq!(g.pos.units[common::unit("br-corps-1")].loc, Location::Eliminated);
    assert_eq!(g.pos.units[common::unit("br-corps-cnd")].loc, Location::Reserve);
}

/// 2022 12.4.4.2 with 12.4.6 (data edition 6): the counted corps never keeps a fort standing.
/// The reduced British 1st Army alone in Liege (fort 3), no corps of its pool in the Reserve
/// Box, takes 7 from the German 1st and 2nd Armies: the army (3) and the fort (3) meet 6 of it;
/// the counted corps would meet only 5 (3 + 1 + 1) and leave the fort. The army leaves the game
/// and the fort is destroyed. Games begun on edition 5 count the corps.
#[test]
fn no_counted_corps_keeps_a_fort_standing_12_4_4_2() {
    for (edition, fort_falls) in [(edition(), true), (5, false)] {
        let g = attacked_by(
            &["ge-army-1", "ge-army-2"],
            "liege",
            [6, 1],
            |g| {
                g.scenario.edition = edition;
                lone_reduced(g, "br-army-1", "liege", &["br-corps-cnd"]);
            },
            |_| {},
        )
        .expect("the combat is fought");
        assert_eq!(g.pos.units[common::unit("br-army-1")].loc, Location::Removed);
        let fort = g.pos.space(common::sp("liege")).fort;
        assert_eq!(
            fort == crate::state::Fort::Destroyed,
            fort_falls,
            "edition {edition}: {fort:?}"
        );
    }
}

//! Units that retreated this action, on the August 1914 map: a space holding only such units may
//! not be attacked again (12.1.1); beside other units they add no CF and are eliminated by any
//! loss number (12.5.6).

use super::common;

use crate::game::{Action, Frame, PathsOfGlory, Use, CP};
use crate::state::Location;
use crate::Side;
use sandtable_core::driver::Rules as _;
use sandtable_core::game::{Game, Pending};

fn unit(g: &PathsOfGlory, id: &str) -> u16 {
    g.data().pieces.iter().position(|p| p.id == id).expect("a counter") as u16
}

fn sp(g: &PathsOfGlory, id: &str) -> sandtable_core::graph::Space {
    g.data().space(id).expect("a space")
}

fn play_until(g: &mut PathsOfGlory, dice: &mut impl Iterator<Item = u8>, stop: impl Fn(&PathsOfGlory) -> bool) {
    assert!(common::play_until(g, dice, stop), "the dice ran out or the game ended");
}

/// The French 1st Army and the French 1st Corps, full, in Essen; German corps in Hannover and
/// Frankfurt (the Bremen corps is there from the set-up), so that a one-space retreat from Essen
/// can only go to Kassel. The CP plays Reichstag Truce (4 OPS) and activates Aachen and Hannover
/// for combat; the German 1st Army attacks Essen from Aachen with the fire dice given.
fn attack_on_essen(edition: u8, attack_die: u8, defence_die: u8) -> PathsOfGlory {
    let mut g = common::first_round();
    g.scenario.edition = edition;
    let essen = sp(&g, "essen");
    for id in ["fr-army-1", "fr-corps-1"] {
        let u = unit(&g, id) as usize;
        g.pos.units[u].loc = Location::Map(essen);
        g.pos.units[u].full = true;
    }
    g.pos.spaces[essen.idx()].control = Some(Side::Ap);
    for (id, at) in [("ge-corps-2", "hannover"), ("ge-corps-3", "frankfurt")] {
        let u = unit(&g, id) as usize;
        g.pos.units[u].loc = Location::Map(sp(&g, at));
        g.pos.units[u].full = true;
    }
    common::give(&mut g, Side::Cp, 9);
    g.apply(
        CP,
        &Action::Play {
            card: 9,
            with: Use::Ops,
        },
    )
    .unwrap();
    for at in ["aachen", "hannover"] {
        g.apply(
            CP,
            &Action::Activate {
                space: sp(&g, at),
                combat: true,
            },
        )
        .unwrap();
    }
    g.apply(CP, &Action::EndActivation).unwrap();
    g.apply(CP, &Action::Target { space: essen }).unwrap();
    g.apply(
        CP,
        &Action::Join {
            unit: unit(&g, "ge-army-1"),
        },
    )
    .unwrap();
    g.apply(CP, &Action::Resolve).unwrap();
    let mut dice = [attack_die, defence_die].into_iter();
    play_until(&mut g, &mut dice, |g| {
        !matches!(
            g.frames().last(),
            Some(Frame::BattleDie { .. }) | Some(Frame::TakeLosses { .. })
        ) && g.pending() != Pending::Chance
            && !g.frames().iter().any(|f| matches!(f, Frame::CombatCards { .. }))
            && g.action
                .battle
                .as_ref()
                .is_none_or(|b| b.inflicted.iter().all(Option::is_some))
    });
    g
}

/// The attack on Essen with dice that make the French retreat one space, to Kassel, in a game
/// begun on data edition `edition`.
fn french_in_kassel_on(edition: u8) -> PathsOfGlory {
    for a in (1..=6).rev() {
        for d in 1..=6 {
            let mut g = attack_on_essen(edition, a, d);
            if g.action.battle.as_ref().and_then(|b| b.retreat) != Some(1) {
                continue;
            }
            let mut none = std::iter::empty();
            play_until(&mut g, &mut none, |g| {
                !g.frames()
                    .iter()
                    .any(|f| matches!(f, Frame::RetreatUnits { .. } | Frame::AdvanceUnits { .. }))
            });
            return g;
        }
    }
    panic!("no dice make a one-space retreat");
}

fn french_in_kassel() -> PathsOfGlory {
    french_in_kassel_on(3)
}

#[test]
fn a_space_holding_only_units_that_retreated_this_action_may_not_be_attacked_12_1_1() {
    let g = french_in_kassel();
    let kassel = sp(&g, "kassel");
    let french: Vec<u16> = ["fr-army-1", "fr-corps-1"].iter().map(|id| unit(&g, id)).collect();
    let there: Vec<u16> = french
        .iter()
        .copied()
        .filter(|&u| g.pos.units[u as usize].loc == Location::Map(kassel))
        .collect();
    assert!(!there.is_empty(), "the French retreated to Kassel");
    assert!(matches!(g.frames().last(), Some(Frame::Combats { .. })));
    let r = g
        .check_action(CP, &Action::Target { space: kassel })
        .expect_err("only retreated units in Kassel");
    assert_eq!(r.rule, "12.1.1");
    assert!(r.text.en.contains("retreated this action"), "{}", r.text.en);
    assert!(!g.legal_list().contains(&Action::Target { space: kassel }));
}

#[test]
fn beside_a_fresh_unit_retreated_units_add_no_cf_and_any_loss_eliminates_them_12_5_6() {
    let mut g = french_in_kassel();
    let kassel = sp(&g, "kassel");
    let retreated: Vec<u16> = ["fr-army-1", "fr-corps-1"]
        .iter()
        .map(|id| unit(&g, id))
        .filter(|&u| g.pos.units[u as usize].loc == Location::Map(kassel))
        .collect();
    // A fresh French corps beside them (a test's position).
    let fresh = unit(&g, "fr-corps-5");
    g.pos.units[fresh as usize].loc = Location::Map(kassel);
    g.pos.units[fresh as usize].full = true;
    g.touch();
    // The forecast counts the fresh corps' strength alone.
    let fresh_cf = g.data().pieces[fresh as usize].full.cf;
    let ap_line = |g: &PathsOfGlory| -> String {
        g.preview(&Action::Target { space: kassel })
            .into_iter()
            .map(|l| l.en)
            .find(|l| l.starts_with("AP: strength"))
            .expect("the defenders' fire")
    };
    assert!(
        ap_line(&g).starts_with(&format!("AP: strength {fresh_cf} ")),
        "{}",
        ap_line(&g)
    );
    let mut all = g.clone();
    all.action.retreated.clear();
    all.touch();
    assert!(
        !ap_line(&all).starts_with(&format!("AP: strength {fresh_cf} ")),
        "{}",
        ap_line(&all)
    );
    g.apply(CP, &Action::Target { space: kassel })
        .expect("a fresh unit is there");
    g.apply(
        CP,
        &Action::Join {
            unit: unit(&g, "ge-corps-2"),
        },
    )
    .unwrap();
    g.apply(CP, &Action::Resolve).unwrap();
    // A 6 for the Germans, a 1 for the Allies: the allocation of the Allied losses begins.
    let mut dice = [6u8, 1].into_iter();
    play_until(&mut g, &mut dice, |g| {
        matches!(g.frames().last(), Some(Frame::TakeLosses { side: Side::Ap })) || g.action.battle.is_none()
    });
    let b = g.action.battle.clone().expect("the combat goes on");
    let inflicted = b.inflicted[0].expect("the Germans fired");
    assert!(inflicted >= 1, "the Germans inflicted a loss");
    for &u in &retreated {
        assert!(
            matches!(g.pos.units[u as usize].loc, Location::Eliminated | Location::Removed),
            "{} is eliminated",
            g.data().pieces[u as usize].id
        );
    }
    assert!(g
        .journal(None)
        .iter()
        .any(|l| l.text.en.contains("eliminated at once (12.5.6)")));
    // The loss number is still the fresh corps' to take, whole.
    let t = b.losses.as_ref().expect("the allocation");
    assert_eq!(
        t.losses.remaining() + t.losses.taken(),
        inflicted,
        "the loss number is not reduced"
    );
    assert_eq!(g.pos.units[fresh as usize].loc, Location::Map(kassel));
}

#[test]
fn a_game_begun_on_edition_2_keeps_attacking_retreated_units() {
    // Its record replays as it was played: nothing is kept of the retreat.
    let g = french_in_kassel_on(2);
    assert!(g.action.retreated.is_empty());
    assert!(g
        .check_action(
            CP,
            &Action::Target {
                space: sp(&g, "kassel")
            }
        )
        .is_ok());
}

//! The readings games begun on data edition 7 follow, each with the same position on an earlier
//! edition keeping the former behaviour: the Introductory scenario's VP for `*` events (VP
//! Table), Romania and Italy discarded as combat cards (9.5.2.5), the Historical scenario's
//! German RP for Sedan (5.7.3), and the Grand Fleet played to thin the deck (2022 9.5.1.1 note).

use super::common;

use crate::game::{Action, Frame, PathsOfGlory, Use, AP, CP};
use crate::state::side_index;
use crate::war_status::Commitment;
use crate::Side;
use sandtable_core::game::Game;

fn event(card: u8) -> Action {
    Action::Play { card, with: Use::Event }
}

/// The Introductory scenario at the CP's first action round of turn 2, on `edition`.
fn introductory(edition: u8) -> PathsOfGlory {
    let mut g = common::first_round_of("introductory", 2);
    g.scenario.edition = edition;
    g.pos.turn = 2;
    g.touch();
    g
}

/// VP Table (supplement 6.6; seed 5.1.2 leaves the VP changes to the player aid's table): in the
/// Introductory scenario any CP `*` event +1 VP, any Allied `*` event −1, besides the card's own.
#[test]
fn introductory_star_events_score_a_vp_for_their_side() {
    let mut g = introductory(7);
    let vp = g.pos.vp;
    // CP #7 German Reinforcements: a `*` card with no VP of its own.
    common::give(&mut g, Side::Cp, 7);
    g.apply(CP, &event(7)).expect("German Reinforcements");
    assert_eq!(g.pos.vp, vp + 1, "the CP's `*` event");
    let berlin = common::sp("berlin");
    g.apply(CP, &Action::Place { space: berlin }).expect("Berlin");
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })));
    // AP #1 British Reinforcements: a `*` card with no VP of its own.
    common::give(&mut g, Side::Ap, 1);
    g.apply(AP, &event(1)).expect("British Reinforcements");
    assert_eq!(g.pos.vp, vp, "the Allies' `*` event");
}

/// A card that is not `*`, and a `*` card played for OPS, score nothing; nor does a `*` event
/// in the Campaign, nor in an Introductory game begun on edition 6.
#[test]
fn other_plays_and_earlier_editions_score_no_vp_for_star_events() {
    let mut g = introductory(7);
    let vp = g.pos.vp;
    common::give(&mut g, Side::Cp, 7);
    g.apply(
        CP,
        &Action::Play {
            card: 7,
            with: Use::Ops,
        },
    )
    .expect("OPS");
    assert_eq!(g.pos.vp, vp, "a `*` card for OPS");
    let mut g = introductory(6);
    common::give(&mut g, Side::Cp, 7);
    g.apply(CP, &event(7)).expect("German Reinforcements");
    assert_eq!(g.pos.vp, vp, "edition 6");
    let mut g = common::first_round();
    g.pos.turn = 2;
    let vp = g.pos.vp;
    common::give(&mut g, Side::Cp, 7);
    g.apply(CP, &event(7)).expect("German Reinforcements");
    assert_eq!(g.pos.vp, vp, "the Campaign");
}

/// The Campaign at the Allies' discard before drawing (phase G), Italy (AP #17) in their hand, the
/// CP at Total War and the Allies at `allies`, on `edition`.
fn allied_discard(allies: Commitment, edition: u8) -> PathsOfGlory {
    let mut g = common::first_round();
    g.scenario.edition = edition;
    g.pos.turn = 5;
    common::give(&mut g, Side::Ap, 17);
    g.commitment[side_index(Side::Cp)] = Commitment::Total;
    g.commitment[side_index(Side::Ap)] = allies;
    g.engine.push(Frame::DiscardCombatCards { side: Side::Ap });
    g.touch();
    assert!(g.pos.neutral.iter().any(|n| n == "it"));
    g
}

/// 9.5.2.5: while the CP is at Total War and the Allies are not, the Allies may "discard them
/// [Italy and Romania, cards 16 and 17] as if they were Combat Cards under 9.5.4.5" (= 9.5.4.6).
#[test]
fn the_allies_may_discard_italy_while_the_cp_alone_is_at_total_war_9_5_2_5() {
    let discard = Action::Discard { card: 17 };
    let mut g = allied_discard(Commitment::Limited, 7);
    assert!(g.legal_list().contains(&discard), "offered");
    g.apply(AP, &discard).expect("Italy discarded");
    let c = &g.pos.cards[side_index(Side::Ap)];
    assert!(c.discard.contains(&17) && !c.hand.contains(&17));
    // Once the Allies are at Total War too, it is an ordinary card again.
    let g = allied_discard(Commitment::Total, 7);
    let r = g.check_action(AP, &discard).expect_err("not a combat card");
    assert_eq!(r.rule, "9.5.4.6", "{r:?}");
    // A game begun on edition 6 keeps the combat cards alone.
    let g = allied_discard(Commitment::Limited, 6);
    assert!(g.check_action(AP, &discard).is_err());
}

/// Puts the game at its War Status Phase (6.0 E), then the Replacement Phase (F), and runs it
/// until a seat must decide.
fn run_war_status_phase(g: &mut PathsOfGlory) {
    let frames = g.engine.frames_mut();
    frames.clear();
    frames.extend([
        Frame::Replacement { side: Side::Cp },
        Frame::Replacement { side: Side::Ap },
        Frame::WarStatus,
    ]);
    g.touch();
    sandtable_core::driver::start(g);
}

/// A game of `scenario` on `edition`, turn 10, put at its War Status Phase (6.0 E) with the
/// CP at `cp` and each of `held` CP-controlled, run until the CP's Replacement segment (F.2);
/// the German RP the CP then has.
fn german_rp_at_phase_f(scenario: &str, edition: u8, cp: Commitment, held: &[&str]) -> u8 {
    use crate::data::RpPool;
    use crate::game::RP_POOLS;
    let mut g = PathsOfGlory::new_game(scenario, 1).expect("the scenario loads");
    g.scenario.edition = edition;
    g.pos.turn = 10;
    g.commitment[side_index(Side::Cp)] = cp;
    for s in held {
        g.pos.spaces[common::sp(s).idx()].control = Some(Side::Cp);
    }
    run_war_status_phase(&mut g);
    let ge = RP_POOLS.iter().position(|&p| p == RpPool::Ge).expect("the German pool");
    g.turn.rp[side_index(Side::Cp)][ge]
}

/// Historical 5.7.3 (supplement §2; the seed has no 5.7): "During Total War … the CP gets +1 GE
/// RP each turn if at the RP interphase it controls Sedan plus two other French or Belgian
/// spaces".
#[test]
fn the_cp_at_total_war_holding_sedan_and_two_more_gets_a_german_rp_5_7_3() {
    use Commitment::{Limited, Total};
    let three = ["sedan", "cambrai", "brussels"];
    assert_eq!(german_rp_at_phase_f("historical", 7, Total, &three), 1);
    // Sedan Allied, or one other space short: nothing.
    assert_eq!(
        german_rp_at_phase_f("historical", 7, Total, &["cambrai", "brussels", "verdun"]),
        0
    );
    assert_eq!(german_rp_at_phase_f("historical", 7, Total, &["sedan", "cambrai"]), 0);
    // Not at Total War; not the Historical scenario; a game begun on edition 6.
    assert_eq!(german_rp_at_phase_f("historical", 7, Limited, &three), 0);
    assert_eq!(german_rp_at_phase_f("campaign", 7, Total, &three), 0);
    assert_eq!(german_rp_at_phase_f("historical", 6, Total, &three), 0);
}

/// 5.7.3 "(i.e. once the CP has drawn its TW cards)": not in the War Status Phase in which the
/// CP reaches Total War (its Total War cards are drawn in phase G).
#[test]
fn no_sedan_rp_in_the_turn_the_cp_reaches_total_war_5_7_3() {
    let mut g = PathsOfGlory::new_game("historical", 1).expect("the scenario loads");
    g.pos.turn = 10;
    g.commitment[side_index(Side::Cp)] = Commitment::Limited;
    g.pos.war_status[side_index(Side::Cp)] = 11;
    for s in ["sedan", "cambrai", "brussels"] {
        g.pos.spaces[common::sp(s).idx()].control = Some(Side::Cp);
    }
    run_war_status_phase(&mut g);
    assert_eq!(
        g.commitment[side_index(Side::Cp)],
        Commitment::Total,
        "reached this phase"
    );
    assert!(g.turn.rp[side_index(Side::Cp)].iter().all(|&p| p == 0));
}

/// The Campaign at turn `turn` on `edition`, the CP's first action made (`cp`: an event, or an
/// Automatic Operation), the Allies to act with `card` in their hand.
fn allies_with(turn: u8, edition: u8, cp: Option<u8>, card: u8) -> PathsOfGlory {
    let mut g = common::first_round();
    g.scenario.edition = edition;
    g.pos.turn = turn;
    match cp {
        Some(n) => {
            common::give(&mut g, Side::Cp, n);
            g.apply(CP, &event(n)).expect("the CP's event");
        }
        None => {
            g.apply(CP, &Action::AutomaticOps).expect("auto ops");
            g.apply(CP, &Action::EndActivation).expect("nothing activated");
        }
    }
    common::give(&mut g, Side::Ap, card);
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })));
    g
}

/// 2022 9.5.1.1 note: "A card may be played as an event only for its War Status or to thin the
/// deck even when its effect is moot". Grand Fleet (AP #33): "If played in the Allied Action
/// Round immediately following the 'High Seas Fleet', cancel that card" is its effect, not a
/// condition of play: at any other time it may be played and only leaves the game.
#[test]
fn grand_fleet_may_be_played_to_thin_the_deck_2022_9_5_1_1() {
    // No High Seas Fleet this turn.
    let mut g = allies_with(6, 7, None, 33);
    let vp = g.pos.vp;
    assert!(g.legal_list().contains(&event(33)), "offered");
    g.apply(AP, &event(33)).expect("Grand Fleet");
    assert_eq!(g.pos.vp, vp, "nothing to cancel");
    assert!(g.pos.cards[side_index(Side::Ap)].removed.contains(&33));
    // The High Seas Fleet in an earlier round: its VP stays.
    let mut g = allies_with(6, 7, Some(25), 33);
    let vp = g.pos.vp;
    g.apply(AP, &Action::AutomaticOps).expect("auto");
    g.apply(AP, &Action::EndActivation).expect("nothing");
    g.apply(CP, &Action::AutomaticOps).expect("auto");
    g.apply(CP, &Action::EndActivation).expect("nothing");
    g.apply(AP, &event(33)).expect("Grand Fleet");
    assert_eq!(g.pos.vp, vp, "too late to cancel");
    // Right after it: its VP is taken back.
    let mut g = allies_with(6, 7, Some(25), 33);
    let vp = g.pos.vp;
    g.apply(AP, &event(33)).expect("Grand Fleet");
    assert_eq!(g.pos.vp, vp - 1, "cancelled");
    // A game begun on edition 6 keeps it to the action right after the High Seas Fleet.
    let g = allies_with(6, 6, None, 33);
    let r = g.check_action(AP, &event(33)).expect_err("edition 6");
    assert_eq!(r.rule, "AP #33", "{r:?}");
}

/// Czech Legion (AP #60): "Remove from the game 1 AH Corps from the CP Eliminated/Replacement
/// Box. Add the RU Czech Legion corps to the Allied Reserve Box." Read by the same 2022 9.5.1.1
/// note: with no Austro-Hungarian corps eliminated the first half is moot and the Legion enters.
#[test]
fn the_czech_legion_enters_with_no_austro_hungarian_corps_eliminated_2022_9_5_1_1() {
    use crate::state::Location;
    let mut g = allies_with(5, 7, None, 60);
    let removed = g.pos.units.iter().filter(|u| u.loc == Location::Removed).count();
    g.apply(AP, &event(60)).expect("Czech Legion");
    assert_eq!(g.pos.units[common::unit("ru-czech-legion")].loc, Location::Reserve);
    assert_eq!(
        g.pos.units.iter().filter(|u| u.loc == Location::Removed).count(),
        removed,
        "no corps leaves the game"
    );
    let g = allies_with(5, 6, None, 60);
    let r = g.check_action(AP, &event(60)).expect_err("edition 6");
    assert_eq!(r.rule, "AP #60", "{r:?}");
}

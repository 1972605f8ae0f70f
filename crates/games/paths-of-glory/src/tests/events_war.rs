//! Events of the war at large on the driver, on the August 1914 set-up: the collapse of Russia
//! (16.4), the entry of the United States (16.3), and the VP and economy events.

use super::common;

use crate::data::RpPool;
use crate::events;
use crate::game::{Action, Frame, PathsOfGlory, Use, AP, CP, RP_POOLS};
use crate::offensives::Offensive;
use crate::state::{side_index, Location};
use crate::war_status::{Commitment, Tsar, UsEntry};
use crate::{Nation, Side};
use sandtable_core::driver::Rules;
use sandtable_core::game::{Game, Pending};
use sandtable_core::text::Lang;

const CPI: usize = 0;
const API: usize = 1;

fn event(card: u8) -> Action {
    Action::Play { card, with: Use::Event }
}

/// A campaign at the CP's first action round of `turn`.
fn at_round(turn: u8) -> PathsOfGlory {
    let mut g = common::first_round();
    g.pos.turn = turn;
    g.touch();
    g
}

/// The same at the Allies' first action round (the CP made an Automatic Operation).
fn at_allied_round(turn: u8) -> PathsOfGlory {
    let mut g = at_round(turn);
    g.apply(CP, &Action::AutomaticOps).expect("auto ops");
    g.apply(CP, &Action::EndActivation).expect("nothing activated");
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })));
    g
}

/// Marks a `*` event as played: the card is out of the game.
fn played(g: &mut PathsOfGlory, side: Side, card: u8) {
    common::give(g, side, card);
    let c = &mut g.pos.cards[side_index(side)];
    c.hand.retain(|&n| n != card);
    c.removed.push(card);
    g.touch();
}

fn sp(g: &PathsOfGlory, id: &str) -> sandtable_core::graph::Space {
    g.data().space(id).unwrap_or_else(|| panic!("no space {id}"))
}

fn unit(g: &PathsOfGlory, id: &str) -> usize {
    g.data().pieces.iter().position(|p| p.id == id).expect("a counter")
}

/// The CP takes Russian VP spaces.
fn take(g: &mut PathsOfGlory, ids: &[&str]) {
    for id in ids {
        let s = sp(g, id);
        g.pos.spaces[s.idx()].control = Some(Side::Cp);
    }
    g.touch();
}

fn refusal(g: &PathsOfGlory, seat: sandtable_core::game::Seat, card: u8) -> sandtable_core::game::Refusal {
    let r = g.check_action(seat, &event(card)).expect_err("refused");
    assert!(!g.legal_list().contains(&event(card)), "a refused event is not offered");
    assert!(!r.message(Lang::Zh).is_empty());
    r
}

fn rp(g: &PathsOfGlory, side: Side, pool: RpPool) -> u8 {
    let k = RP_POOLS.iter().position(|&p| p == pool).expect("a pool");
    g.turn.rp[side_index(side)][k]
}

fn set_rp(g: &mut PathsOfGlory, side: Side, pool: RpPool, n: u8) {
    let k = RP_POOLS.iter().position(|&p| p == pool).expect("a pool");
    g.turn.rp[side_index(side)][k] = n;
}

/// Both sides pass the rest of the turn's action rounds with Automatic Operations, until the
/// Replacement Phase asks the Allies (they hold points) or the draw's discards come.
fn to_replacements(g: &mut PathsOfGlory) {
    loop {
        match g.pending() {
            Pending::Chance => {
                g.resolve_chance();
            }
            Pending::Seat(s) => {
                if matches!(
                    g.frames().last(),
                    Some(Frame::Replacement { .. } | Frame::DiscardCombatCards { .. })
                ) {
                    return;
                }
                let legal = g.legal_list();
                let pass = [Action::AutomaticOps, Action::EndActivation]
                    .into_iter()
                    .find(|a| legal.contains(a))
                    .unwrap_or_else(|| panic!("a way to pass: {legal:?}"));
                g.apply(s, &pass).expect("pass");
            }
            Pending::Over => panic!("the game ended"),
        }
    }
}

/// No Mandated Offensive for either side this turn (so that no penalty moves the VP).
fn no_offensives(g: &mut PathsOfGlory) {
    g.turn.offensive = [Some(Offensive::None), Some(Offensive::None)];
}

// ---- The collapse of Russia (16.4) ----

#[test]
fn tsar_takes_command_needs_three_russian_vp_spaces_16_4() {
    let mut g = at_round(6);
    common::give(&mut g, Side::Cp, 28);
    take(&mut g, &["warsaw", "lodz"]);
    let r = refusal(&g, CP, 28);
    assert_eq!(r.rule, "16.4", "{r:?}");
    assert!(r.message(Lang::En).contains("holds 2"), "{r:?}");
    take(&mut g, &["riga"]);
    assert_eq!(events::russian_track(&g).tsar, Tsar::TsarTakesCommandAllowed);
    g.apply(CP, &event(28)).expect("Tsar Takes Command");
    assert!(g.pos.cards[CPI].removed.contains(&28));
    assert_eq!(g.pos.war_status[CPI], 1, "War Status 1 printed on the card");
    assert_eq!(events::russian_track(&g).tsar, Tsar::TsarTakesCommand);
    // Not the Historical scenario: no OPS with the event (5.7.4.7).
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })));
}

#[test]
fn fall_of_the_tsar_needs_33_and_gives_3_vp_while_romania_is_neutral_16_4() {
    let mut g = at_round(10);
    common::give(&mut g, Side::Cp, 52);
    take(&mut g, &["warsaw", "lodz", "riga"]);
    g.pos.war_status = [15, 14];
    g.touch();
    // Tsar Takes Command not played.
    assert_eq!(refusal(&g, CP, 52).rule, "16.4");
    played(&mut g, Side::Cp, 28);
    // 29 + 3 = 32.
    let r = refusal(&g, CP, 52);
    assert!(r.message(Lang::En).contains("29 + 3"), "{r:?}");
    g.pos.war_status = [15, 15];
    g.touch();
    let vp = g.pos.vp;
    g.apply(CP, &event(52)).expect("Fall of the Tsar");
    assert_eq!(g.pos.vp, vp + 3, "1 VP, and 2 more while Romania is neutral");
    assert_eq!(g.pos.war.tsar_fell, Some((3, 10)), "the Tsar Fell marker");
    assert_eq!(events::russian_track(&g).tsar, Tsar::FallOfTheTsar);
    // Romania no longer enters.
    let mut g2 = g.clone();
    common::give(&mut g2, Side::Ap, 16);
    assert_eq!(refusal(&g2, AP, 16).rule, "16.4");
}

#[test]
fn fall_of_the_tsar_gives_1_vp_once_romania_is_at_war() {
    let mut g = at_round(10);
    common::give(&mut g, Side::Cp, 52);
    played(&mut g, Side::Cp, 28);
    take(&mut g, &["warsaw", "lodz", "riga"]);
    g.pos.war_status = [15, 15];
    g.pos.neutral.retain(|n| n != "ro");
    g.touch();
    let vp = g.pos.vp;
    g.apply(CP, &event(52)).expect("Fall of the Tsar");
    assert_eq!(g.pos.vp, vp + 1);
}

#[test]
fn bolshevik_revolution_waits_a_turn_and_one_more_russian_vp_space_16_4() {
    let mut g = at_round(10);
    common::give(&mut g, Side::Cp, 53);
    played(&mut g, Side::Cp, 28);
    played(&mut g, Side::Cp, 52);
    take(&mut g, &["warsaw", "lodz", "riga"]);
    g.pos.war.tsar_fell = Some((3, 10));
    g.touch();
    // The same turn as the fall, even with a fourth space.
    take(&mut g, &["kiev"]);
    assert_eq!(refusal(&g, CP, 53).rule, "16.4");
    // A later turn with no more spaces than when the Tsar fell.
    g.pos.turn = 11;
    let kiev = sp(&g, "kiev");
    g.pos.spaces[kiev.idx()].control = Some(Side::Ap);
    g.touch();
    assert_eq!(refusal(&g, CP, 53).rule, "16.4");
    take(&mut g, &["kiev"]);
    // 7.1.11: a Russian offensive in force is cancelled.
    g.turn.offensive[API] = Some(Offensive::Nation(Nation::Ru));
    g.apply(CP, &event(53)).expect("Bolshevik Revolution");
    assert_eq!(g.turn.offensive[API], Some(Offensive::None));
    assert_eq!(events::russian_track(&g).tsar, Tsar::BolshevikRevolution);
}

#[test]
fn after_bolshevik_revolution_one_russian_rp_a_turn_16_4() {
    let mut g = at_allied_round(5);
    no_offensives(&mut g);
    set_rp(&mut g, Side::Ap, RpPool::Ru, 3);
    let mut with = g.clone();
    played(&mut with, Side::Cp, 53);
    to_replacements(&mut g);
    to_replacements(&mut with);
    assert_eq!(rp(&g, Side::Ap, RpPool::Ru), 3);
    assert_eq!(rp(&with, Side::Ap, RpPool::Ru), 1);
}

#[test]
fn brest_litovsk_after_bolshevik_revolution_ends_russian_attacks_16_4_9() {
    let mut g = at_round(12);
    common::give(&mut g, Side::Cp, 45);
    assert_eq!(refusal(&g, CP, 45).rule, "16.4");
    played(&mut g, Side::Cp, 53);
    // A Russian corps stacked with the French in Paris is interned.
    let paris = sp(&g, "paris");
    let ru = unit(&g, "ru-corps-1");
    g.pos.units[ru].loc = Location::Map(paris);
    g.touch();
    g.apply(CP, &event(45)).expect("Brest-Litovsk");
    assert_eq!(g.pos.units[ru].loc, Location::Removed);
    assert!(events::ending(&g, false).brest_litovsk, "5.5.2's levels");
    // The Allies may not attack with Russians: a Russian space next to Germans.
    let data = g.data();
    let (from, target) = data
        .map
        .graph
        .space_indices()
        .filter(|&s| {
            let mut us = g.pos.units_in(s);
            us.next().is_some() && g.pos.units_in(s).all(|u| data.pieces[u].nation == Nation::Ru)
        })
        .find_map(|s| {
            data.map
                .graph
                .space_indices()
                .find(|&t| {
                    data.map.graph.adjacent(s, t) && g.pos.units_in(t).any(|u| data.pieces[u].nation == Nation::Ge)
                })
                .map(|t| (s, t))
        })
        .expect("Russians facing Germans in 1914");
    g.apply(AP, &Action::AutomaticOps).expect("auto ops");
    g.apply(
        AP,
        &Action::Activate {
            space: from,
            combat: true,
        },
    )
    .expect("activated");
    let r = g
        .check_action(AP, &Action::Target { space: target })
        .expect_err("no Russian attack");
    assert_eq!(r.rule, "16.4.9", "{r:?}");
}

// ---- The United States (16.3) ----

#[test]
fn zimmermann_telegram_needs_combined_war_status_30_16_3() {
    let mut g = at_allied_round(12);
    common::give(&mut g, Side::Ap, 54);
    g.pos.war_status = [15, 14];
    g.touch();
    let r = refusal(&g, AP, 54);
    assert_eq!(r.rule, "16.3");
    assert!(r.message(Lang::En).contains("now 29"), "{r:?}");
    g.pos.war_status = [15, 15];
    g.touch();
    assert_eq!(events::us_track(&g), UsEntry::ZimmermannAllowed);
    let vp = g.pos.vp;
    g.apply(AP, &event(54)).expect("Zimmermann Telegram");
    assert_eq!(g.pos.vp, vp - 1);
    assert_eq!(g.pos.war_status[API], 17, "War Status 2 printed on the card");
    assert_eq!(events::us_track(&g), UsEntry::Zimmermann);
    assert_eq!(g.pos.war.zimmermann, Some(12));
}

#[test]
fn the_historical_scenario_gives_zimmermann_its_ops_too_5_7_4_7() {
    let mut g = PathsOfGlory::new_game("historical", 1).expect("historical");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    // Guns of August out of the CP's hand, so that its first action is free (5.7.4.3).
    g.pos.cards[0].hand.retain(|&c| c != 1);
    g.touch();
    g.apply(CP, &Action::AutomaticOps).expect("auto ops");
    g.apply(CP, &Action::EndActivation).expect("nothing");
    common::give(&mut g, Side::Ap, 54);
    g.pos.war_status = [15, 15];
    g.touch();
    g.apply(AP, &event(54)).expect("Zimmermann Telegram");
    assert!(
        matches!(g.frames().last(), Some(Frame::Activation { side: Side::Ap, ops: 5 })),
        "{:?}",
        g.frames().last()
    );
}

#[test]
fn over_there_on_a_later_turn_then_us_rp_with_every_allied_rp_play_16_3_17_1_8() {
    let mut g = at_allied_round(13);
    common::give(&mut g, Side::Ap, 55);
    // Zimmermann not played.
    assert_eq!(refusal(&g, AP, 55).rule, "16.3");
    played(&mut g, Side::Ap, 54);
    g.pos.war.zimmermann = Some(13);
    g.touch();
    assert_eq!(refusal(&g, AP, 55).rule, "16.3", "not the same turn");
    g.pos.war.zimmermann = Some(12);
    g.touch();
    g.apply(AP, &event(55)).expect("Over There");
    assert_eq!(events::us_track(&g), UsEntry::OverThere);
    assert_eq!(g.pos.war.over_there, Some(13));
    // The CP's round 2, then an Allied card for RP gives its points and 1 US RP.
    g.apply(CP, &Action::AutomaticOps).expect("auto ops");
    g.apply(CP, &Action::EndActivation).expect("nothing");
    common::give(&mut g, Side::Ap, 2);
    let before = rp(&g, Side::Ap, RpPool::Us);
    g.apply(AP, &Action::Play { card: 2, with: Use::Rp }).expect("RP");
    assert_eq!(rp(&g, Side::Ap, RpPool::Us), before + 1);
}

#[test]
fn us_reinforcements_wait_for_a_turn_after_over_there_16_3() {
    let mut g = at_allied_round(14);
    common::give(&mut g, Side::Ap, 43);
    let r = refusal(&g, AP, 43);
    assert_eq!(r.rule, "16.3", "{r:?}");
    played(&mut g, Side::Ap, 54);
    played(&mut g, Side::Ap, 55);
    g.pos.war.zimmermann = Some(12);
    g.pos.war.over_there = Some(14);
    g.touch();
    assert_eq!(refusal(&g, AP, 43).rule, "16.3", "not on Over There's turn");
    g.pos.war.over_there = Some(13);
    g.touch();
    // U-Boats Unleashed holds them back until Convoy.
    played(&mut g, Side::Cp, 36);
    assert_eq!(refusal(&g, AP, 43).rule, "CP #36");
    played(&mut g, Side::Ap, 52);
    let army = unit(&g, "us-army-1");
    g.apply(AP, &event(43)).expect("USA Reinforcements");
    let reserve_us = g
        .pos
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| u.loc == Location::Reserve && g.data().pieces[*i].nation == Nation::Us)
        .count();
    assert_eq!(reserve_us, 2, "two US corps to the Reserve Box (9.5.3.2)");
    // 9.5.3.3: the US 1st Army enters at an Allied French port.
    let places: Vec<_> = g
        .legal_list()
        .iter()
        .map(|a| match a {
            Action::Place { space } => *space,
            other => panic!("only places: {other:?}"),
        })
        .collect();
    assert!(!places.is_empty());
    for &s in &places {
        let f = g.data().facts(s);
        assert!(f.nation.as_deref() == Some("fr") && f.port_ap, "{s:?}");
    }
    g.apply(AP, &Action::Place { space: places[0] }).expect("placed");
    assert_eq!(g.pos.units[army].loc, Location::Map(places[0]));
    // 5.7.4.8: one US army card is left unplayed.
    assert_eq!(events::ending(&g, true).unplayed_us_army_cards, 1);
}

#[test]
fn the_historical_adjustments_read_the_events_5_7_4_8_and_5_7_4_9() {
    let mut g = PathsOfGlory::new_game("historical", 1).expect("historical");
    let e = events::ending(&g, true);
    assert!(e.historical_adjustments && !e.tsar_fell);
    assert_eq!(e.unplayed_us_army_cards, 2);
    assert_eq!(crate::victory::final_vp(10, &e), 10);
    played(&mut g, Side::Cp, 52);
    played(&mut g, Side::Ap, 47);
    let e = events::ending(&g, true);
    assert!(e.tsar_fell);
    assert_eq!(e.unplayed_us_army_cards, 1);
    assert_eq!(crate::victory::final_vp(10, &e), 11);
    assert!(
        !events::ending(&g, false).historical_adjustments,
        "not for an automatic victory"
    );
}

#[test]
fn u_boats_and_hoffmann_wait_for_hl_take_command() {
    let mut g = at_round(12);
    common::give(&mut g, Side::Cp, 36);
    common::give(&mut g, Side::Cp, 37);
    assert_eq!(refusal(&g, CP, 36).rule, "CP #36");
    assert_eq!(refusal(&g, CP, 37).rule, "CP #37");
    played(&mut g, Side::Cp, 54);
    g.apply(CP, &event(37)).expect("Hoffmann");
    assert!(g.pos.cards[CPI].removed.contains(&37));
}

#[test]
fn convoy_after_u_boats_unleashed() {
    let mut g = at_allied_round(12);
    common::give(&mut g, Side::Ap, 52);
    assert_eq!(refusal(&g, AP, 52).rule, "AP #52");
    played(&mut g, Side::Cp, 36);
    let vp = g.pos.vp;
    g.apply(AP, &event(52)).expect("Convoy");
    assert_eq!(g.pos.vp, vp - 1);
}

// ---- VP and the economy ----

#[test]
fn blockade_costs_the_cp_a_vp_in_each_winter_war_status_phase() {
    for (turn, less) in [(4, 1), (5, 0)] {
        let mut g = at_allied_round(turn);
        no_offensives(&mut g);
        let mut with = g.clone();
        common::give(&mut with, Side::Ap, 2);
        with.apply(AP, &event(2)).expect("Blockade");
        let mut without = g.clone();
        without.apply(AP, &Action::AutomaticOps).expect("auto");
        without.apply(AP, &Action::EndActivation).expect("nothing");
        to_replacements(&mut with);
        to_replacements(&mut without);
        assert_eq!(with.pos.vp, without.pos.vp - less, "turn {turn}");
    }
}

#[test]
fn the_replacement_points_the_events_change() {
    let mut g = at_allied_round(6);
    no_offensives(&mut g);
    set_rp(&mut g, Side::Ap, RpPool::Br, 6);
    set_rp(&mut g, Side::Cp, RpPool::Ge, 2);
    let base = {
        let mut b = g.clone();
        to_replacements(&mut b);
        b
    };
    assert_eq!(rp(&base, Side::Ap, RpPool::Br), 6);
    // Rathenau, U-Boats Unleashed, and Zeppelin Raids this turn.
    let mut with = g.clone();
    played(&mut with, Side::Cp, 33);
    played(&mut with, Side::Cp, 36);
    with.turn.zeppelin_raids = true;
    to_replacements(&mut with);
    assert_eq!(rp(&with, Side::Cp, RpPool::Ge), rp(&base, Side::Cp, RpPool::Ge) + 1);
    assert_eq!(rp(&with, Side::Ap, RpPool::Br), 1, "6 − 1 − 4");
    // Independent Air Force and Convoy cancel them.
    let mut cancelled = g.clone();
    played(&mut cancelled, Side::Cp, 33);
    played(&mut cancelled, Side::Cp, 36);
    played(&mut cancelled, Side::Ap, 37);
    played(&mut cancelled, Side::Ap, 52);
    to_replacements(&mut cancelled);
    assert_eq!(rp(&cancelled, Side::Cp, RpPool::Ge), rp(&base, Side::Cp, RpPool::Ge));
    assert_eq!(rp(&cancelled, Side::Ap, RpPool::Br), 6);
}

#[test]
fn zeppelin_raids_are_for_this_turn_cp_27() {
    let mut g = at_round(6);
    common::give(&mut g, Side::Cp, 27);
    g.apply(CP, &event(27)).expect("Zeppelin Raids");
    assert!(g.turn.zeppelin_raids);
    assert_eq!(g.pos.war_status[CPI], 1);
}

#[test]
fn rape_of_belgium_after_guns_of_august() {
    let mut g = at_allied_round(2);
    common::give(&mut g, Side::Ap, 13);
    assert_eq!(refusal(&g, AP, 13).rule, "AP #13");
    played(&mut g, Side::Cp, 1);
    let vp = g.pos.vp;
    g.apply(AP, &event(13)).expect("Rape of Belgium");
    assert_eq!(g.pos.vp, vp - 1);
}

#[test]
fn lusitania_after_blockade_and_before_zimmermann() {
    let mut g = at_allied_round(6);
    common::give(&mut g, Side::Ap, 26);
    assert_eq!(refusal(&g, AP, 26).rule, "AP #26");
    played(&mut g, Side::Ap, 2);
    let mut late = g.clone();
    played(&mut late, Side::Ap, 54);
    assert_eq!(refusal(&late, AP, 26).rule, "AP #26");
    let vp = g.pos.vp;
    g.apply(AP, &event(26)).expect("Lusitania");
    assert_eq!(g.pos.vp, vp - 1);
}

#[test]
fn grand_fleet_answers_the_high_seas_fleet_in_the_next_allied_action() {
    let mut g = at_round(6);
    common::give(&mut g, Side::Cp, 25);
    common::give(&mut g, Side::Ap, 33);
    let vp = g.pos.vp;
    g.apply(CP, &event(25)).expect("High Seas Fleet");
    assert_eq!(g.pos.vp, vp + 1);
    let mut late = g.clone();
    g.apply(AP, &event(33)).expect("Grand Fleet");
    assert_eq!(g.pos.vp, vp);
    // Not in a later action, in a game begun before edition 7 (since then it may be played there
    // to thin the deck: src/tests/edition7.rs).
    late.scenario.edition = 6;
    late.apply(AP, &Action::AutomaticOps).expect("auto");
    late.apply(AP, &Action::EndActivation).expect("nothing");
    late.apply(CP, &Action::AutomaticOps).expect("auto");
    late.apply(CP, &Action::EndActivation).expect("nothing");
    assert_eq!(refusal(&late, AP, 33).rule, "AP #33");
}

#[test]
fn reichstag_truce_gives_a_vp_until_the_cp_is_at_total_war() {
    let mut g = at_round(3);
    common::give(&mut g, Side::Cp, 9);
    let mut total = g.clone();
    total.commitment[CPI] = Commitment::Total;
    total.touch();
    assert_eq!(refusal(&total, CP, 9).rule, "CP #9");
    let vp = g.pos.vp;
    g.apply(CP, &event(9)).expect("Reichstag Truce");
    assert_eq!(g.pos.vp, vp + 1);
    assert_eq!(g.pos.war_status[CPI], 1);
}

#[test]
fn fourteen_points_after_zimmermann_16_3_5() {
    let mut g = at_allied_round(14);
    common::give(&mut g, Side::Ap, 40);
    assert_eq!(refusal(&g, AP, 40).rule, "16.3.5");
    played(&mut g, Side::Ap, 54);
    let vp = g.pos.vp;
    g.apply(AP, &event(40)).expect("14 Points");
    assert_eq!(g.pos.vp, vp - 1);
}

#[test]
fn influenza_at_combined_war_status_30_stops_rp_plays() {
    let mut g = at_allied_round(14);
    common::give(&mut g, Side::Ap, 65);
    g.pos.war_status = [14, 15];
    g.touch();
    assert_eq!(refusal(&g, AP, 65).rule, "AP #65");
    g.pos.war_status = [15, 15];
    g.touch();
    g.apply(AP, &event(65)).expect("Influenza");
    common::give(&mut g, Side::Cp, 9);
    let r = g
        .check_action(CP, &Action::Play { card: 9, with: Use::Rp })
        .expect_err("no RP");
    assert_eq!(r.rule, "AP #65");
}

#[test]
fn prince_max_not_after_turn_16() {
    let mut g = at_round(17);
    common::give(&mut g, Side::Cp, 65);
    assert_eq!(refusal(&g, CP, 65).rule, "CP #65");
    g.pos.turn = 16;
    g.touch();
    g.apply(CP, &event(65)).expect("Prince Max");
    assert_eq!(g.pos.war_status[CPI], 3);
}

#[test]
fn french_mutiny_turns_a_french_offensive_into_a_mutiny_7_1_8() {
    let mut g = at_round(12);
    common::give(&mut g, Side::Cp, 47);
    g.turn.offensive[API] = Some(Offensive::Nation(Nation::Fr));
    g.apply(CP, &event(47)).expect("French Mutiny");
    assert_eq!(g.turn.offensive[API], Some(Offensive::FrenchMutiny));
    assert!(g.pos.cards[CPI].removed.contains(&47));
}

#[test]
fn every_event_of_the_module_has_its_text_in_both_languages() {
    for (side, cards) in [
        (Side::Cp, &[9u8, 25, 27, 28, 33, 36, 37, 45, 47, 52, 53, 65][..]),
        (Side::Ap, &[2u8, 13, 26, 33, 37, 38, 40, 43, 47, 52, 54, 55, 64, 65][..]),
    ] {
        for &c in cards {
            let t = events::text(common::data(), side, c).unwrap_or_else(|| panic!("{side:?} #{c}"));
            assert!(!t.en.is_empty() && !t.zh.is_empty());
        }
    }
}

// ---- Russian Desertions and peace terms ----

#[test]
fn russian_desertions_after_the_fall_of_the_tsar_reduce_four_russian_units_cp_63() {
    let mut g = at_round(12);
    common::give(&mut g, Side::Cp, 63);
    assert_eq!(refusal(&g, CP, 63).rule, "CP #63");
    played(&mut g, Side::Cp, 52);
    g.apply(CP, &event(63)).expect("Russian Desertions");
    assert!(matches!(g.frames().last(), Some(Frame::Desertions { left: 4 })));
    let legal = g.legal_list();
    let first = unit(&g, "ru-army-1");
    assert!(legal.contains(&Action::Reduce {
        unit: Some(first as u16)
    }));
    // Not a German unit.
    let german = unit(&g, "ge-army-8") as u16;
    let r = g
        .check_action(CP, &Action::Reduce { unit: Some(german) })
        .expect_err("not a Russian");
    assert_eq!(r.rule, "CP #63");
    g.apply(
        CP,
        &Action::Reduce {
            unit: Some(first as u16),
        },
    )
    .expect("reduced");
    assert!(!g.pos.units[first].full);
    assert!(matches!(g.frames().last(), Some(Frame::Desertions { left: 3 })));
    assert!(
        !g.legal_list().contains(&Action::Reduce {
            unit: Some(first as u16)
        }),
        "a reduced unit is not reduced again"
    );
    g.apply(CP, &Action::Reduce { unit: None }).expect("enough");
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })));
}

#[test]
fn the_cp_offers_peace_at_vp_11_and_a_refusal_means_a_roll_16_5() {
    let mut g = at_round(6);
    let r = g.check_action(CP, &Action::OfferPeace).expect_err("VP 10");
    assert_eq!(r.rule, "16.5.1", "{r:?}");
    g.pos.vp = 11;
    g.touch();
    assert!(g.legal_list().contains(&Action::OfferPeace));
    let mut accepted = g.clone();
    g.apply(CP, &Action::OfferPeace).expect("offered");
    assert!(matches!(g.frames().last(), Some(Frame::PeaceOffer { side: Side::Cp })));
    assert_eq!(g.pending(), Pending::Seat(AP), "the Allies answer");
    g.apply(AP, &Action::AnswerPeace { accept: false }).expect("refused");
    assert_eq!(g.pending(), Pending::Chance);
    g.resolve_chance();
    // 16.5.2: the CP table at Combined War Status 0–19: +1, +1, +1, 0, 0, −1.
    let face = g
        .journal(None)
        .iter()
        .rev()
        .find_map(|l| {
            l.text
                .en
                .strip_prefix("Peace Terms roll ")
                .and_then(|r| r[..1].parse::<i32>().ok())
        })
        .expect("the roll is told");
    let change = match face {
        1..=3 => 1,
        6 => -1,
        _ => 0,
    };
    assert_eq!(g.pos.vp, 11 + change, "face {face}");
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })));
    // Accepted: a draw.
    accepted.apply(CP, &Action::OfferPeace).expect("offered");
    accepted
        .apply(AP, &Action::AnswerPeace { accept: true })
        .expect("accepted");
    assert_eq!(accepted.pending(), Pending::Over);
    let o = accepted.outcome().expect("over");
    assert_eq!(o.winner, None, "a draw");
}

#[test]
fn no_peace_terms_in_the_historical_scenario_nor_for_the_cp_after_14_points() {
    let mut g = PathsOfGlory::new_game("historical", 1).expect("historical");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    g.pos.vp = 12;
    // Guns of August out of the CP's hand, so that its first action is free (5.7.4.3).
    g.pos.cards[0].hand.retain(|&c| c != 1);
    g.touch();
    let r = g.check_action(CP, &Action::OfferPeace).expect_err("historical");
    assert_eq!(r.rule, "5.7.2.1");
    let mut g = at_round(14);
    g.pos.vp = 12;
    played(&mut g, Side::Ap, 40);
    let r = g.check_action(CP, &Action::OfferPeace).expect_err("14 Points");
    assert_eq!(r.rule, "AP #40");
    // The Allies may, at VP 9 or less.
    let mut g = at_allied_round(14);
    g.pos.vp = 9;
    g.touch();
    assert!(g.legal_list().contains(&Action::OfferPeace));
}

#[test]
fn the_sixtus_affair_rolls_on_the_allied_table_at_0_to_19() {
    let mut g = at_allied_round(14);
    common::give(&mut g, Side::Ap, 62);
    g.pos.war_status = [15, 15];
    g.touch();
    g.apply(AP, &event(62)).expect("Sixtus");
    assert!(matches!(
        g.frames().last(),
        Some(Frame::PeaceRoll {
            side: Side::Ap,
            sixtus: true
        })
    ));
    let vp = g.pos.vp;
    g.resolve_chance();
    let face = g
        .journal(None)
        .iter()
        .rev()
        .find_map(|l| {
            l.text
                .en
                .strip_prefix("Peace Terms roll ")
                .and_then(|r| r[..1].parse::<i32>().ok())
        })
        .expect("the roll is told");
    // The 0–19 row: −1 on 1 to 3 (the 20+ row would give 0 on a 3), +1 on a 6.
    let change = match face {
        1..=3 => -1,
        6 => 1,
        _ => 0,
    };
    assert_eq!(g.pos.vp, vp + change, "face {face}");
}

#[test]
fn after_the_fall_of_the_tsar_a_russian_combat_activation_pays_per_unit_9_2_2() {
    let mut g = at_allied_round(10);
    // A Russian army and corps together.
    let army = unit(&g, "ru-army-1");
    let Location::Map(stack) = g.pos.units[army].loc else {
        panic!("the 1st Army is on the map in 1914")
    };
    let corps = unit(&g, "ru-corps-1");
    g.pos.units[corps].loc = Location::Map(stack);
    g.touch();
    let data = g.data();
    assert!(g.pos.units_in(stack).all(|u| data.pieces[u].nation == Nation::Ru));
    g.apply(AP, &Action::AutomaticOps).expect("1 OPS");
    let activate = Action::Activate {
        space: stack,
        combat: true,
    };
    assert!(g.check_action(AP, &activate).is_ok(), "one nationality, 1 OPS");
    played(&mut g, Side::Cp, 52);
    assert!(g.check_action(AP, &activate).is_err(), "one OPS a Russian unit");
    assert!(g
        .check_action(
            AP,
            &Action::Activate {
                space: stack,
                combat: false
            }
        )
        .is_ok());
}

/// The markers these events add to the position and the turn are left out of the state's
/// checksum while unset, so that a game recorded before them replays with its checksums: the
/// hash of the position is that of its former fields alone.
#[test]
fn unset_markers_leave_the_checksum_of_earlier_records_alone() {
    use sandtable_core::checksum::StateHasher;
    let hash = |v: &dyn Fn(&mut StateHasher)| {
        let mut h = StateHasher::new();
        v(&mut h);
        h.finish()
    };
    let mut g = at_round(3);
    let p = g.pos.clone();
    let former = (&p.units, &p.spaces, p.vp, p.war_status, p.turn, &p.neutral, &p.cards);
    assert_eq!(hash(&|h| h.add(&g.pos)), hash(&|h| h.add(&former)));
    g.pos.war.zimmermann = Some(3);
    assert_ne!(
        hash(&|h| h.add(&g.pos)),
        hash(&|h| h.add(&former)),
        "a marker set counts"
    );
    let t = g.turn.clone();
    g.turn.influenza = true;
    assert_ne!(hash(&|h| h.add(&g.turn)), hash(&|h| h.add(&t)));
}

#[test]
fn after_brest_litovsk_russians_and_other_allies_never_share_a_space_16_4_9() {
    let mut g = at_allied_round(12);
    let army = unit(&g, "ru-army-1");
    let Location::Map(from) = g.pos.units[army].loc else {
        panic!("the 1st Army is on the map in 1914")
    };
    let data = g.data();
    let to = data
        .map
        .graph
        .space_indices()
        .find(|&t| {
            data.map.graph.adjacent(from, t)
                && g.pos.units_in(t).next().is_none()
                && g.pos.space(t).control == Some(Side::Ap)
                && data.facts(t).nation.as_deref() == Some("ru")
        })
        .expect("an empty Russian space next to the 1st Army");
    // A British corps stands there.
    let corps = unit(&g, "br-corps-1");
    g.pos.units[corps].loc = Location::Map(to);
    g.touch();
    g.apply(AP, &Action::AutomaticOps).expect("1 OPS");
    g.apply(
        AP,
        &Action::Activate {
            space: from,
            combat: false,
        },
    )
    .expect("activated");
    let mv = Action::Move {
        from,
        units: vec![army as u16],
        to,
    };
    assert!(g.check_action(AP, &mv).is_ok(), "before the treaty");
    played(&mut g, Side::Cp, 45);
    let r = g.check_action(AP, &mv).expect_err("after the treaty");
    assert_eq!(r.rule, "16.4.9", "{r:?}");
}

/// Whole random games in which peace is never accepted (an accepted offer ends a random game
/// early, 16.5.2), so that the late war's events come up: no dead end, no panic, the cards
/// conserved at every step (long: run with `--ignored --release`).
#[test]
#[ignore]
fn soak_random_wars_without_an_accepted_peace() {
    use super::common::cards_conserved;
    let war_cards = [
        (Side::Cp, &[9u8, 25, 27, 28, 33, 36, 37, 45, 47, 52, 53, 65][..]),
        (Side::Ap, &[2u8, 13, 26, 33, 37, 38, 40, 43, 47, 52, 54, 55, 64, 65][..]),
    ];
    // Some games start with both War Status markers at 15, so that the Total War decks join on
    // turn 2 and the US and Russian tracks can move.
    let games = [("campaign", 1u64, 0u8), ("historical", 2, 0)]
        .into_iter()
        .chain((3..40).map(|seed| (if seed % 2 == 0 { "historical" } else { "campaign" }, seed, 15)));
    let mut seen: Vec<String> = Vec::new();
    for (scenario, seed, ws) in games {
        let mut g = PathsOfGlory::new_game(scenario, seed).expect("the scenario loads");
        g.pos.war_status = [ws, ws];
        g.touch();
        let mut rng = sandtable_core::chance::Rng::from_seed(seed);
        let mut decisions = 0u32;
        loop {
            match g.pending() {
                Pending::Over => break,
                Pending::Chance => {
                    g.resolve_chance();
                }
                Pending::Seat(s) => {
                    let legal: Vec<Action> = g
                        .legal_list()
                        .iter()
                        .filter(|a| !matches!(a, Action::AnswerPeace { accept: true }))
                        .cloned()
                        .collect();
                    assert!(
                        !legal.is_empty(),
                        "{scenario} {seed}: a dead end at {:?}",
                        g.frames().last()
                    );
                    let a = legal[rng.below(legal.len() as u32) as usize].clone();
                    g.apply(s, &a)
                        .unwrap_or_else(|r| panic!("{scenario} {seed}: {a:?} legal but refused: {r:?}"));
                    decisions += 1;
                    assert!(decisions < 2_000_000, "{scenario} {seed}: no end");
                }
            }
            cards_conserved(&g).unwrap_or_else(|e| panic!("{scenario} {seed}: {e}"));
        }
        let played: Vec<String> = war_cards
            .iter()
            .flat_map(|(side, cards)| {
                cards
                    .iter()
                    .filter(|&&c| g.pos.cards[side_index(*side)].removed.contains(&c))
                    .map(move |c| format!("{side:?}#{c}"))
            })
            .collect();
        eprintln!(
            "{scenario} {seed}: turn {}, VP {}, {decisions} decisions, war events played: {played:?}",
            g.pos.turn, g.pos.vp
        );
        seen.extend(played);
    }
    seen.sort();
    seen.dedup();
    eprintln!("war events played in some game: {seen:?}");
}

#[test]
fn a_french_attack_on_a_mutiny_turn_gives_the_cp_a_vp_once_7_1_8() {
    let mut g = at_allied_round(12);
    g.turn.offensive[API] = Some(Offensive::FrenchMutiny);
    let data = g.data();
    let french_only =
        |s| g.pos.units_in(s).next().is_some() && g.pos.units_in(s).all(|u| data.pieces[u].nation == Nation::Fr);
    let (from, target) = data
        .map
        .graph
        .space_indices()
        .filter(|&s| french_only(s))
        .find_map(|s| {
            data.map
                .graph
                .space_indices()
                .find(|&t| {
                    data.map.graph.adjacent(s, t)
                        && matches!(data.facts(t).nation.as_deref(), Some("fr" | "be" | "ge"))
                        && g.pos.units_in(t).any(|u| data.pieces[u].nation == Nation::Ge)
                })
                .map(|t| (s, t))
        })
        .expect("the French facing the Germans in 1914");
    let attacker = g.pos.units_in(from).next().expect("a French unit") as u16;
    g.apply(AP, &Action::AutomaticOps).expect("1 OPS");
    g.apply(
        AP,
        &Action::Activate {
            space: from,
            combat: true,
        },
    )
    .expect("activated");
    g.apply(AP, &Action::Target { space: target }).expect("the target");
    g.apply(AP, &Action::Join { unit: attacker }).expect("joins");
    let vp = g.pos.vp;
    g.apply(AP, &Action::Resolve).expect("resolve");
    assert_eq!(g.pos.vp, vp + 1, "the mutiny costs the Allies a VP");
    assert!(g.turn.offensive_met[API], "once for the turn");
}

#[test]
fn after_brest_litovsk_no_redeployment_puts_russians_with_other_allies_16_4_9() {
    use crate::redeployment::{check, Context, Place};
    let mut g = at_allied_round(12);
    let army = unit(&g, "ru-army-1");
    let Location::Map(by) = g.pos.units[army].loc else {
        panic!("the 1st Army is on the map in 1914")
    };
    let data = g.data();
    let to = data
        .map
        .graph
        .space_indices()
        .find(|&t| {
            data.map.graph.adjacent(by, t)
                && g.pos.units_in(t).next().is_none()
                && g.pos.space(t).control == Some(Side::Ap)
                && data.facts(t).nation.as_deref() == Some("ru")
        })
        .expect("an empty Russian space next to the 1st Army");
    let corps = unit(&g, "br-corps-1");
    g.pos.units[corps].loc = Location::Map(to);
    g.touch();
    // A Russian corps stacked with the 1st Army redeploys next door.
    let ru = unit(&g, "ru-corps-1");
    g.pos.units[ru].loc = Location::Map(by);
    let before = Context::default();
    assert!(
        check(data, &g.pos, ru, Place::Map(to), &before).is_ok(),
        "before the treaty"
    );
    let after = Context {
        brest_litovsk: true,
        ..Context::default()
    };
    let r = check(data, &g.pos, ru, Place::Map(to), &after).expect_err("after the treaty");
    assert_eq!(r.rule, "16.4.9", "{r:?}");
}

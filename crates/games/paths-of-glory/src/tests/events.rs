//! 9.5 Events on the driver: the reinforcement events (9.5.3) and the War Status number
//! (9.5.1.3), on the August 1914 set-up.

use super::common;

use crate::game::{Action, Frame, PathsOfGlory, Use, CP};
use crate::state::{side_index, Location};
use crate::Side;
use sandtable_core::game::Game;

/// A campaign at the CP's first action round of `turn`, with German Reinforcements (CP #7) in
/// the CP hand.
fn at_round(turn: u8) -> PathsOfGlory {
    let mut g = common::first_round();
    g.pos.turn = turn;
    common::give(&mut g, Side::Cp, 7);
    g
}

fn unit(g: &PathsOfGlory, id: &str) -> usize {
    g.data().pieces.iter().position(|p| p.id == id).expect("a counter")
}

#[test]
fn german_reinforcements_place_the_9th_army_9_5_3() {
    let mut g = at_round(2);
    let army = unit(&g, "ge-army-9");
    assert_eq!(g.pos.units[army].loc, Location::Aside);
    let play = Action::Play {
        card: 7,
        with: Use::Event,
    };
    assert!(g.legal_list().contains(&play), "the event is offered");
    g.apply(CP, &play).expect("the event");
    // 9.5.1.3: no War Status number on this card; 9.5.1.2: the * card leaves the game.
    assert_eq!(g.pos.war_status[side_index(Side::Cp)], 0);
    assert!(g.pos.cards[side_index(Side::Cp)].removed.contains(&7));
    // 9.5.3.3: the army enters at Berlin or a German supply source the CP holds.
    let places: Vec<String> = g
        .legal_list()
        .iter()
        .map(|a| match a {
            Action::Place { space } => g.data().map.graph.space(*space).id.clone(),
            other => panic!("only places are offered: {other:?}"),
        })
        .collect();
    assert!(places.contains(&"berlin".to_string()), "{places:?}");
    assert!(
        places
            .iter()
            .all(|id| g.data().facts(g.data().space(id).unwrap()).nation.as_deref() == Some("ge")),
        "{places:?}"
    );
    let berlin = g.data().space("berlin").unwrap();
    g.apply(CP, &Action::Place { space: berlin }).expect("Berlin");
    assert_eq!(g.pos.units[army].loc, Location::Map(berlin));
    assert!(
        matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })),
        "the Allies' round"
    );
}

#[test]
fn no_reinforcement_on_august_1914_9_5_3_1() {
    let g = at_round(1);
    let r = g
        .check_action(
            CP,
            &Action::Play {
                card: 7,
                with: Use::Event,
            },
        )
        .expect_err("refused");
    assert_eq!(r.rule, "9.5.3.1", "{r:?}");
    assert!(!g.legal_list().contains(&Action::Play {
        card: 7,
        with: Use::Event
    }));
}

#[test]
fn an_event_not_yet_played_is_refused_with_its_name() {
    let mut g = at_round(2);
    common::give(&mut g, Side::Cp, 1);
    let r = g
        .check_action(
            CP,
            &Action::Play {
                card: 1,
                with: Use::Event,
            },
        )
        .expect_err("refused");
    assert!(
        r.message(sandtable_core::text::Lang::En).contains("Guns of August"),
        "{r:?}"
    );
}

#[test]
fn british_reinforcements_send_the_corps_to_the_reserve_and_raise_the_war_status_9_5_1_3() {
    use crate::game::AP;
    let mut g = at_round(2);
    // The CP passes its round with an Automatic Operation and no activation.
    g.apply(CP, &Action::AutomaticOps).expect("auto ops");
    g.apply(CP, &Action::EndActivation).expect("nothing activated");
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })));
    common::give(&mut g, Side::Ap, 1);
    let reserve_before = g.pos.units.iter().filter(|u| u.loc == Location::Reserve).count();
    g.apply(
        AP,
        &Action::Play {
            card: 1,
            with: Use::Event,
        },
    )
    .expect("British Reinforcements");
    assert_eq!(
        g.pos.war_status[side_index(Side::Ap)],
        1,
        "War Status 1 printed on AP #1"
    );
    assert_eq!(g.pos.combined_war_status(), 1);
    let reserve_after = g.pos.units.iter().filter(|u| u.loc == Location::Reserve).count();
    assert_eq!(
        reserve_after,
        reserve_before + 1,
        "the BR corps goes to the Reserve Box"
    );
    let army = unit(&g, "br-army-2");
    assert!(matches!(g.frames().last(), Some(Frame::Reinforce { units, .. }) if units == &vec![army as u16]));
    assert!(g.pos.cards[side_index(Side::Ap)].removed.contains(&1));
}

#[test]
fn bulgaria_enters_its_corps_are_placed_by_choice_and_no_second_entry_that_turn_9_5_2() {
    use crate::game::AP;
    let mut g = at_round(5);
    common::give(&mut g, Side::Cp, 34);
    let sofia = g.data().space("sofia").expect("Sofia");
    assert_eq!(g.pos.space(sofia).control, None, "neutral Bulgaria is nobody's");
    g.apply(
        CP,
        &Action::Play {
            card: 34,
            with: Use::Event,
        },
    )
    .expect("Bulgaria");
    assert_eq!(g.pos.space(sofia).control, Some(Side::Cp), "Bulgaria is the CP's");
    assert!(!g.pos.neutral.iter().any(|n| n == "bu"));
    let log = sandtable_core::driver::Rules::journal(&g, None);
    assert!(
        log.iter()
            .any(|l| l.text.en == "Bulgaria enters the war (9.5.2.1)" && l.text.zh == "保加利亚参战(9.5.2.1)"),
        "the log names the nation in both languages"
    );
    assert_eq!(
        g.pos.war_status[side_index(Side::Cp)],
        2,
        "Bulgaria's War Status number"
    );
    // Four corps placed one at a time, each in an empty Bulgarian space.
    for _ in 0..4 {
        assert!(
            matches!(g.frames().last(), Some(Frame::EntryChoice { .. })),
            "{:?}",
            g.frames().last()
        );
        let legal = g.legal_list();
        let Some(Action::Place { space }) = legal.first().cloned() else {
            panic!("a place: {legal:?}");
        };
        assert_eq!(g.data().facts(space).nation.as_deref(), Some("bu"));
        assert_eq!(g.pos.units_in(space).count(), 0);
        g.apply(CP, &Action::Place { space }).expect("placed");
    }
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })));
    // 9.5.2.2: Italy may not enter the same turn.
    common::give(&mut g, Side::Ap, 17);
    let r = g
        .check_action(
            AP,
            &Action::Play {
                card: 17,
                with: Use::Event,
            },
        )
        .expect_err("refused");
    assert_eq!(r.rule, "9.5.2.2");
}

#[test]
fn italy_may_enter_by_its_event_while_the_cp_is_at_total_war_9_5_2_5() {
    use crate::game::AP;
    use crate::war_status::Commitment;
    let mut g = at_round(5);
    g.apply(CP, &Action::AutomaticOps).expect("auto ops");
    g.apply(CP, &Action::EndActivation).expect("nothing activated");
    common::give(&mut g, Side::Ap, 17);
    g.commitment[side_index(Side::Cp)] = Commitment::Total;
    g.touch();
    let ops = g
        .check_action(
            AP,
            &Action::Play {
                card: 17,
                with: Use::Ops,
            },
        )
        .expect_err("not for OPS");
    assert_eq!(ops.rule, "9.5.2.5");
    g.apply(
        AP,
        &Action::Play {
            card: 17,
            with: Use::Event,
        },
    )
    .expect("Italy enters by its event");
    assert!(!g.pos.neutral.iter().any(|n| n == "it"));
}

#[test]
fn a_reinforcement_is_refused_unless_all_its_armies_fit_together_9_5_3_1() {
    use crate::game::AP;
    let mut g = at_round(2);
    g.apply(CP, &Action::AutomaticOps).expect("auto ops");
    g.apply(CP, &Action::EndActivation).expect("nothing activated");
    // Russian Reinforcements (AP #11) bring the 9th and 10th Armies. Leave the Russians one
    // space to enter, with room for one army only.
    common::give(&mut g, Side::Ap, 11);
    let data = g.data();
    let ru9 = unit(&g, "ru-army-9");
    let ctx = crate::placement::Context::default();
    let spaces = crate::placement::army_spaces(data, &g.pos, ru9, &ctx);
    assert!(spaces.len() > 1, "{spaces:?}");
    let keep = spaces[0];
    for &s in &spaces[1..] {
        g.pos.spaces[s.idx()].control = Some(Side::Cp);
    }
    let ru_corps: Vec<usize> = (0..data.pieces.len())
        .filter(|&u| data.pieces[u].id.starts_with("ru-corps") && g.pos.units[u].loc == Location::Reserve)
        .collect();
    for &u in g.pos.units_in(keep).collect::<Vec<_>>().iter() {
        g.pos.units[u].loc = Location::Reserve;
    }
    for &u in &ru_corps[..2] {
        g.pos.units[u].loc = Location::Map(keep);
    }
    g.touch();
    assert_eq!(
        crate::placement::army_spaces(data, &g.pos, ru9, &ctx),
        vec![keep],
        "one space, one place left"
    );
    let r = g
        .check_action(
            AP,
            &Action::Play {
                card: 11,
                with: Use::Event,
            },
        )
        .expect_err("the two armies do not fit");
    assert_eq!(r.rule, "9.5.3.1", "{r:?}");
}

#[test]
fn combat_cards_discarded_in_phase_g_join_the_reshuffle_after_a_commitment_rise_16_1_3() {
    let mut g = at_round(2);
    // The CP at War Status 4 reaches Limited War in this turn's War Status Phase.
    g.pos.war_status[side_index(Side::Cp)] = 4;
    let data = g.data();
    let combat_card = data
        .cards
        .iter()
        .find(|c| c.side == Side::Cp && c.combat && c.deck == crate::Deck::Mobilization)
        .expect("a CP combat card")
        .number;
    common::give(&mut g, Side::Cp, combat_card);
    // Both sides pass their six rounds with Automatic Operations.
    loop {
        match g.pending() {
            sandtable_core::game::Pending::Chance => {
                g.resolve_chance();
            }
            sandtable_core::game::Pending::Seat(s) => {
                if matches!(g.frames().last(), Some(Frame::DiscardCombatCards { side: Side::Cp })) {
                    break;
                }
                let legal = g.legal_list();
                let pass = [
                    Action::AutomaticOps,
                    Action::EndActivation,
                    Action::EndReplacement,
                    Action::EndDiscard,
                ]
                .into_iter()
                .find(|a| legal.contains(a))
                .unwrap_or_else(|| panic!("a way to pass: {legal:?}"));
                g.apply(s, &pass).expect("pass");
            }
            sandtable_core::game::Pending::Over => panic!("the game ended"),
        }
    }
    assert!(
        g.pos.cards[side_index(Side::Cp)].draw.len() > 20,
        "the Limited War cards joined"
    );
    g.apply(CP, &Action::Discard { card: combat_card })
        .expect("the combat card discarded");
    g.apply(CP, &Action::EndDiscard).expect("the rest kept");
    let c = &g.pos.cards[side_index(Side::Cp)];
    assert!(
        !c.discard.contains(&combat_card),
        "reshuffled into the new draw pile, not left in the discards"
    );
    assert!(c.discard.is_empty(), "every discard joined the draw pile");
}

/// Every card's event has our own short text, in both languages (the hand panel shows it).
#[test]
fn every_card_has_its_event_text_in_both_languages() {
    let data = common::data();
    for c in &data.cards {
        let t = crate::events::text(data, c.side, c.number)
            .unwrap_or_else(|| panic!("{} {} has no event text", c.id, c.name_en));
        assert!(t.en.len() > 20 && t.zh.chars().count() > 8, "{}: {t:?}", c.id);
        assert!(
            t.zh.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)),
            "{}",
            c.id
        );
    }
    // A reinforcement's text names what it brings: the British 2nd Army and a corps (AP #1).
    let t = crate::events::text(data, crate::Side::Ap, 1).unwrap();
    assert!(
        t.en.contains("2nd Army") && t.en.contains("1 corps to the Reserve Box"),
        "{}",
        t.en
    );
}

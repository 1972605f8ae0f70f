//! 5.6 Tournaments: the bid settled at the start (5.6.1), counted at the end (5.6.2) but never
//! for automatic victory (5.6.2.1), a draw an Allied win (5.6.3), accepted peace a loss for both
//! (5.6.4).

use super::common::cards_conserved;
use crate::game::{Action, Frame, PathsOfGlory, Use, AP, CP};
use crate::state::side_index;
use crate::tournament::MAX_BID;
use crate::Side;
use sandtable_core::chance::Rng;
use sandtable_core::driver::Rules;
use sandtable_core::fuzz::Fuzz;
use sandtable_core::game::{Game, Pending};
use sandtable_core::text::Lang;

/// A tournament game with its bid dice rolled as given (CP's, AP's, and again on a tie).
fn rolled(scenario: &str, dice: &[u8]) -> PathsOfGlory {
    let mut g = PathsOfGlory::new_game(scenario, 1).expect("a tournament scenario");
    assert!(g.scenario.tournament);
    for &face in dice {
        assert_eq!(g.pending(), Pending::Chance);
        assert!(
            matches!(g.frames().last(), Some(Frame::BidDie { .. })),
            "{:?}",
            g.frames().last()
        );
        g.apply_chance(&Action::Die { face }).unwrap();
    }
    g
}

fn bids(g: &PathsOfGlory) -> Vec<(Side, u8)> {
    g.legal_list()
        .iter()
        .filter_map(|a| match a {
            Action::Bid { side, vp } => Some((*side, *vp)),
            _ => None,
        })
        .collect()
}

#[test]
fn both_tournament_scenarios_are_offered_and_start_with_the_bid_5_6_1() {
    let ids: Vec<String> = PathsOfGlory::scenarios().into_iter().map(|s| s.id).collect();
    for id in ["limited-war-tournament", "campaign-tournament"] {
        assert!(ids.contains(&id.to_string()), "{ids:?}");
        let g = PathsOfGlory::new_game(id, 3).unwrap();
        assert!(matches!(
            g.frames().last(),
            Some(Frame::BidDie { seat: 0, first: None })
        ));
        assert_eq!(g.scenario.cp_seat, CP);
        assert_eq!(g.scenario.bid, None);
    }
    // The plain scenarios have no bid.
    let g = PathsOfGlory::new_game("campaign", 3).unwrap();
    assert!(!g.scenario.tournament);
    assert!(!g.frames().iter().any(|f| matches!(f, Frame::BidDie { .. })));
}

#[test]
fn the_higher_roller_bids_first_and_a_tie_is_rolled_again_2022_5_6_1() {
    // A tie, then the second player rolls higher.
    let g = rolled("campaign-tournament", &[4, 4, 2, 5]);
    assert_eq!(g.pending(), Pending::Seat(1));
    assert!(g.journal(None).iter().any(|l| l.text.en.contains("rolled again")));
    let legal = g.legal_list();
    assert!(!legal.contains(&Action::AcceptBid), "nothing to accept yet");
    // Either side, from no VP to MAX_BID.
    let all: Vec<(Side, u8)> = [Side::Cp, Side::Ap]
        .into_iter()
        .flat_map(|s| (0..=MAX_BID).map(move |v| (s, v)))
        .collect();
    assert_eq!(bids(&g), all);
    let r = g.check_action(1, &Action::AcceptBid).expect_err("no bid yet");
    assert_eq!(r.rule, "2022 5.6.1");
    let r = g
        .check_action(
            1,
            &Action::Bid {
                side: Side::Ap,
                vp: MAX_BID + 1,
            },
        )
        .expect_err("past the cap");
    assert_eq!(r.rule, "2022 5.6.1");
    // Nobody has a side before the bid: the seats are players.
    assert_eq!(
        g.seat_side(0).map(|t| t.en),
        Some("Player 1, side not yet bid for".to_string())
    );
    let g = rolled("limited-war-tournament", &[6, 1]);
    assert_eq!(g.pending(), Pending::Seat(0));
}

/// The brief's case on the real scenario: the high roller (the second seat) names the Allies, the
/// other outbids for them, the first accepts, and the first seat plays the Allies.
fn outbid_for_the_allies() -> PathsOfGlory {
    let mut g = rolled("campaign-tournament", &[2, 5]);
    assert_eq!(g.pending(), Pending::Seat(1), "the high roller names first");
    g.apply(1, &Action::Bid { side: Side::Ap, vp: 2 })
        .expect("Player 2 wants the Allies, giving the CP 2 VP");
    // Player 1 accepts or offers more for the Allies; the CP is not on offer.
    assert_eq!(
        g.describe(&Action::AcceptBid).en,
        "Accept: play the Central Powers, the other player the Allies giving 2 VP to the Central Powers (2022 5.6.1)"
    );
    assert!(g.legal_list().contains(&Action::AcceptBid));
    assert_eq!(bids(&g), (3..=MAX_BID).map(|v| (Side::Ap, v)).collect::<Vec<_>>());
    for (side, vp, why) in [(Side::Cp, 5, "the other side"), (Side::Ap, 2, "no more VP")] {
        let r = g.check_action(0, &Action::Bid { side, vp }).expect_err(why);
        assert_eq!(r.rule, "2022 5.6.1");
    }
    g.apply(0, &Action::Bid { side: Side::Ap, vp: 3 })
        .expect("Player 1 outbids for the Allies");
    assert_eq!(bids(&g), (4..=MAX_BID).map(|v| (Side::Ap, v)).collect::<Vec<_>>());
    g.apply(1, &Action::AcceptBid).expect("Player 2 accepts");
    g
}

#[test]
fn the_outbidder_plays_the_side_he_bid_for_2022_5_6_1() {
    let mut g = outbid_for_the_allies();
    assert_eq!(g.scenario.cp_seat, 1);
    assert_eq!((g.side_of(0), g.side_of(1)), (Side::Ap, Side::Cp));
    assert_eq!((g.seat_of(Side::Ap), g.seat_of(Side::Cp)), (0, 1));
    assert_eq!(g.scenario.bid, Some(3), "3 VP to the CP");
    assert!(g.journal(None).iter().any(|l| l
        .text
        .en
        .contains("Player 2 accepts: Player 1 plays the Allies, Player 2 plays the Central Powers")));
    assert_eq!(
        g.seat_side(0).map(|t| t.en),
        Some("Player 1, Allied Powers".to_string())
    );
    assert_eq!(g.seat_side(1).map(|t| t.zh), Some("玩家2,同盟国".to_string()));
    // 4.3: the CP's choice of Guns of August is the second seat's now.
    assert_eq!(g.pending(), Pending::Seat(1));
    assert!(g.check_action(0, &Action::GunsOfAugust { keep: false }).is_err());
    g.apply(1, &Action::GunsOfAugust { keep: false })
        .expect("the CP's choice");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    // The hands: the Allied one is the first seat's, for its eyes only.
    let ap_hand = g.pos.cards[side_index(Side::Ap)].hand.clone();
    let cp_hand = g.pos.cards[side_index(Side::Cp)].hand.clone();
    assert_eq!(ap_hand.len(), 7);
    assert_eq!(g.seat_view(0).hand(), ap_hand.as_slice());
    assert_eq!(g.seat_view(0).side(), Side::Ap);
    assert_eq!(g.seat_view(1).hand(), cp_hand.as_slice());
    let ids = |seat| g.hand(seat).into_iter().map(|c| c.id).collect::<Vec<_>>();
    let ids_of = |side, hand: &[u8]| {
        hand.iter()
            .map(|&n| g.data().card(side, n).expect("a card").id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(0), ids_of(Side::Ap, &ap_hand));
    assert_eq!(ids(1), ids_of(Side::Cp, &cp_hand));
    assert_eq!(g.view(Some(0))["side"], "ap");
    assert_eq!(g.view(Some(1))["side"], "cp");
    assert!(g.view(Some(0))["ap_cards"]["hand"].is_array());
    assert!(g.view(Some(0))["cp_cards"]["hand"].is_null());
    assert!(g.view(Some(1))["ap_cards"]["hand"].is_null());
    let summary = g.summary(Some(0), Lang::En);
    assert!(summary.contains("you play the Allies"), "{summary}");
    assert!(g.summary(Some(1), Lang::Zh).contains("你执同盟国"));
    // 5.6.1.1: the bid waits for the end; the VP marker is the scenario's.
    assert_eq!(g.pos.vp, 10);
    assert!(summary.contains("VP 10 (bid +3 at the end, 5.6.2)"), "{summary}");
    assert_eq!(crate::events::ending(&g, false).bid, 3);
    // 8.1.2: the CP acts first in the action round, from the second seat; then the Allies from
    // the first.
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Cp, .. })));
    assert_eq!(g.pending(), Pending::Seat(1));
    g.apply(1, &Action::AutomaticOps).expect("the CP's action");
    g.apply(1, &Action::EndActivation).expect("nothing activated");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    assert!(matches!(g.frames().last(), Some(Frame::Round { side: Side::Ap, .. })));
    assert_eq!(g.pending(), Pending::Seat(0));
    let card = ap_hand[0];
    g.check_action(0, &Action::Play { card, with: Use::Ops })
        .expect("the Allied hand is the first seat's to play");
    assert!(g.check_action(1, &Action::Play { card, with: Use::Ops }).is_err());
}

#[test]
fn the_bid_for_the_central_powers_gives_the_allies_the_vp_2022_5_6_1() {
    let mut g = rolled("limited-war-tournament", &[6, 1]);
    g.apply(0, &Action::Bid { side: Side::Cp, vp: 0 })
        .expect("the CP for nothing");
    assert_eq!(bids(&g), (1..=MAX_BID).map(|v| (Side::Cp, v)).collect::<Vec<_>>());
    g.apply(1, &Action::Bid { side: Side::Cp, vp: 1 })
        .expect("the CP for 1 VP");
    g.apply(0, &Action::AcceptBid)
        .expect("Player 1 takes the Allies and the VP");
    assert_eq!(g.scenario.bid, Some(-1), "1 VP to the Allies");
    assert_eq!((g.side_of(0), g.side_of(1)), (Side::Ap, Side::Cp));
    // A bid of the most VP leaves only accepting.
    let mut g = rolled("limited-war-tournament", &[6, 1]);
    g.apply(
        0,
        &Action::Bid {
            side: Side::Ap,
            vp: MAX_BID,
        },
    )
    .unwrap();
    assert_eq!(*g.legal_list(), vec![Action::AcceptBid]);
    g.apply(1, &Action::AcceptBid).unwrap();
    assert_eq!(g.scenario.bid, Some(MAX_BID as i8));
    assert_eq!((g.side_of(0), g.side_of(1)), (Side::Ap, Side::Cp));
}

#[test]
fn the_bid_counts_at_the_end_and_a_tournament_draw_is_an_allied_win_5_6_2_5_6_3() {
    use crate::tables::{Outcome, Tables};
    use crate::victory::{at_end, automatic, Ending};
    let t = Tables::load().unwrap();
    // The Limited War: CP 17+, draw 13–16, Allies 12−.
    let none = Ending::default();
    assert_eq!(at_end(&t, "limited-war", 14, &none, false), Some(Outcome::Draw));
    assert_eq!(at_end(&t, "limited-war", 14, &none, true), Some(Outcome::Win(Side::Ap)));
    let to_cp = Ending { bid: 3, ..none };
    assert_eq!(
        at_end(&t, "limited-war", 14, &to_cp, true),
        Some(Outcome::Win(Side::Cp))
    );
    let to_ap = Ending { bid: -2, ..none };
    assert_eq!(
        at_end(&t, "limited-war", 14, &to_ap, true),
        Some(Outcome::Win(Side::Ap))
    );
    // 5.6.2.1: automatic victory reads the VP marker alone.
    assert_eq!(automatic(&t, 19), None);
}

#[test]
fn accepted_peace_terms_lose_a_tournament_for_both_5_6_4() {
    let mut g = rolled("campaign-tournament", &[6, 1]);
    g.apply(0, &Action::Bid { side: Side::Cp, vp: 0 }).unwrap();
    g.apply(1, &Action::AcceptBid).unwrap();
    assert_eq!(g.scenario.cp_seat, 0);
    g.apply(CP, &Action::GunsOfAugust { keep: false }).unwrap();
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    g.pos.vp = 11;
    g.touch();
    g.apply(CP, &Action::OfferPeace).expect("offered at VP 11");
    g.apply(AP, &Action::AnswerPeace { accept: true }).expect("accepted");
    let o = g.outcome().expect("over");
    assert_eq!(o.winner, None);
    assert!(o.text.en.contains("both players lose (16.5.2, 5.6.4)"), "{}", o.text.en);
}

/// Plays the bid with random legal actions until the sides are settled; it must end within a
/// hundred steps.
fn bid_at_random(g: &mut PathsOfGlory, seed: u64) {
    let mut rng = Rng::from_seed(seed);
    for _ in 0..100 {
        if g.sides_settled() {
            return;
        }
        match g.pending() {
            Pending::Chance => {
                g.resolve_chance();
            }
            Pending::Seat(s) => {
                let legal = g.legal_list();
                let a = legal[rng.below(legal.len() as u32) as usize].clone();
                g.apply(s, &a).unwrap();
            }
            Pending::Over => panic!("over during the bid"),
        }
    }
    panic!("the bidding did not end in a hundred steps");
}

#[test]
fn random_tournament_bidding_always_ends() {
    for seed in 0..20 {
        let mut g = PathsOfGlory::new_game("limited-war-tournament", seed).unwrap();
        bid_at_random(&mut g, seed);
        assert!(
            !g.frames()
                .iter()
                .any(|f| matches!(f, Frame::BidDie { .. } | Frame::Bid { .. })),
            "the bidding is over"
        );
        let bid = g.scenario.bid.expect("a bid was accepted");
        assert!((-(MAX_BID as i8)..=MAX_BID as i8).contains(&bid));
    }
}

/// Actions near a bid, to probe the checks with: the other side, a VP more or less, past the cap.
fn near(_g: &PathsOfGlory, a: &Action) -> Vec<Action> {
    match *a {
        Action::Bid { side, vp } => {
            let other = if side == Side::Cp { Side::Ap } else { Side::Cp };
            vec![
                Action::Bid { side: other, vp },
                Action::Bid {
                    side,
                    vp: vp.wrapping_sub(1),
                },
                Action::Bid { side, vp: vp + 1 },
                Action::Bid { side, vp: 255 },
                Action::AcceptBid,
            ]
        }
        Action::AcceptBid => vec![
            Action::Bid { side: Side::Cp, vp: 0 },
            Action::Bid { side: Side::Ap, vp: 0 },
        ],
        _ => Vec::new(),
    }
}

#[test]
fn random_play_of_the_tournaments_never_panics_nor_dead_ends_and_replays() {
    for scenario in ["limited-war-tournament", "campaign-tournament"] {
        let make = move |seed| PathsOfGlory::new_game(scenario, seed).expect("the scenario loads");
        let mut both = [false, false];
        for seed in 0..8 {
            let played = Fuzz {
                make: &make,
                max_decisions: 150,
                near: &near,
                probe: 150,
                invariant: &|g: &PathsOfGlory| cards_conserved(g),
            }
            .game(seed)
            .unwrap_or_else(|e| panic!("{scenario}: {e}"));
            assert!(played.decisions >= 150 || played.finished == 1, "{played:?}");
            // Which seat the CP went to, over the seeds.
            let mut g = make(seed);
            bid_at_random(&mut g, seed ^ 0x5eed);
            both[g.scenario.cp_seat as usize] = true;
        }
        assert_eq!(both, [true, true], "{scenario}: the CP went to either seat");
    }
}

#[test]
fn a_tournament_replays_from_its_record_with_its_sides() {
    use sandtable_core::record::{ScenarioSource, Session};
    let mut s =
        Session::<PathsOfGlory>::new(ScenarioSource::Shipped("limited-war-tournament".into()), 4).expect("a session");
    let mut rng = Rng::from_seed(9);
    for _ in 0..120 {
        let Pending::Seat(seat) = s.game.pending() else { break };
        let legal = s.game.legal_list();
        // The high roller (the first seat, with this seed) takes the Allies for nothing.
        let a = match s.game.frames().last() {
            Some(Frame::Bid { named: None, .. }) => Action::Bid { side: Side::Ap, vp: 0 },
            Some(Frame::Bid { named: Some(_), .. }) => Action::AcceptBid,
            _ => legal[rng.below(legal.len() as u32) as usize].clone(),
        };
        s.act(seat, &a).expect("legal");
    }
    assert!(s.game.sides_settled());
    assert_eq!(s.game.scenario.cp_seat, 1, "the sides are the other way round");
    let again = Session::<PathsOfGlory>::replay(s.record.clone()).expect("the record replays");
    assert_eq!(again.game.checksum(), s.game.checksum());
    assert_eq!(again.game.scenario.cp_seat, s.game.scenario.cp_seat);
    assert_eq!(again.game.summary(Some(0), Lang::En), s.game.summary(Some(0), Lang::En));
    let json = s.record.clone();
    let text = serde_json::to_string(&json).unwrap();
    assert!(text.contains("\"side\":\"ap\""), "the bid is recorded with its side");
}

/// 5.2.1: the automatic victory of the CP goes to the seat the bid gave the CP.
#[test]
fn the_winner_is_the_seat_that_won_the_bid_for_the_winning_side() {
    let mut g = outbid_for_the_allies();
    g.apply(1, &Action::GunsOfAugust { keep: false }).unwrap();
    g.pos.vp = 25;
    g.touch();
    let firsts = [
        Action::AutomaticOps,
        Action::EndActivation,
        Action::EndMovement,
        Action::EndCombat,
        Action::EndDiscard,
        Action::EndReplacement,
    ];
    for _ in 0..500 {
        match g.pending() {
            Pending::Over => break,
            Pending::Chance => {
                g.resolve_chance();
            }
            Pending::Seat(s) => {
                let legal = g.legal_list();
                let a = firsts.iter().find(|a| legal.contains(a)).unwrap_or(&legal[0]).clone();
                g.apply(s, &a).unwrap();
            }
        }
    }
    let o = g.outcome().expect("the CP wins at the first War Status Phase");
    assert_eq!(o.winner, Some(1), "{}", o.text.en);
}

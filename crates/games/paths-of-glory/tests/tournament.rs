//! 5.6 Tournaments: the bid settled at the start (5.6.1), counted at the end (5.6.2) but never
//! for automatic victory (5.6.2.1), a draw an Allied win (5.6.3), accepted peace a loss for both
//! (5.6.4).

mod common;

use sandtable_core::driver::Rules;
use sandtable_core::game::{Game, Pending};
use sandtable_paths_of_glory::game::{Action, Frame, PathsOfGlory, AP, CP};
use sandtable_paths_of_glory::Side;

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

fn bids(g: &PathsOfGlory) -> Vec<i8> {
    g.legal_list()
        .iter()
        .filter_map(|a| match a {
            Action::Bid { vp } => Some(*vp),
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
        assert!(matches!(g.frames().last(), Some(Frame::BidDie { side: Side::Cp, .. })));
        assert_eq!(g.scenario.bid, None);
    }
    // The plain scenarios have no bid.
    let g = PathsOfGlory::new_game("campaign", 3).unwrap();
    assert!(!g.scenario.tournament);
    assert!(!g.frames().iter().any(|f| matches!(f, Frame::BidDie { .. })));
}

#[test]
fn the_higher_roller_bids_first_and_a_tie_is_rolled_again_2022_5_6_1() {
    // A tie, then the Allies roll higher.
    let g = rolled("campaign-tournament", &[4, 4, 2, 5]);
    assert_eq!(g.pending(), Pending::Seat(AP));
    assert!(g.journal(None).iter().any(|l| l.text.en.contains("rolled again")));
    let legal = g.legal_list();
    assert!(!legal.contains(&Action::AcceptBid), "nothing to accept yet");
    assert_eq!(bids(&g), (-10..=10).collect::<Vec<i8>>());
    let r = g.check_action(AP, &Action::AcceptBid).expect_err("no bid yet");
    assert_eq!(r.rule, "5.6.1");
    let g = rolled("limited-war-tournament", &[6, 1]);
    assert_eq!(g.pending(), Pending::Seat(CP));
}

#[test]
fn each_answer_gives_ground_until_one_side_accepts_5_6_1() {
    let mut g = rolled("campaign-tournament", &[6, 1]);
    g.apply(CP, &Action::Bid { vp: 4 }).expect("the CP asks 4 VP");
    // The Allies accept or bid below 4.
    assert!(g.legal_list().contains(&Action::AcceptBid));
    assert_eq!(
        g.describe(&Action::AcceptBid).en,
        "Accept the bid: 4 VP to the CP (5.6.1)"
    );
    assert_eq!(bids(&g), (-10..=3).collect::<Vec<i8>>());
    let r = g
        .check_action(AP, &Action::Bid { vp: 5 })
        .expect_err("above the CP's own bid");
    assert_eq!(r.rule, "5.6.1");
    g.apply(AP, &Action::Bid { vp: -2 }).expect("the Allies ask 2");
    // The CP gives ground below its 4 and stays above the Allies' −2.
    assert_eq!(bids(&g), (-1..=3).collect::<Vec<i8>>());
    g.apply(CP, &Action::Bid { vp: 1 }).unwrap();
    assert_eq!(bids(&g), (-1..=0).collect::<Vec<i8>>());
    g.apply(AP, &Action::AcceptBid).expect("1 VP to the CP");
    assert_eq!(g.scenario.bid, Some(1));
    assert_eq!(
        sandtable_paths_of_glory::events::ending(&g, false).bid,
        1,
        "read at the end"
    );
    let summary = g.summary(Some(CP), sandtable_core::text::Lang::En);
    assert!(summary.contains("VP 10 (bid +1 at the end, 5.6.2)"), "{summary}");
    assert!(g.journal(None).iter().any(|l| l.text.en.contains("1 VP to the CP")));
    // On to the set-up's own first choice.
    assert!(matches!(g.frames().last(), Some(Frame::GunsOfAugust)));
}

#[test]
fn the_bid_counts_at_the_end_and_a_tournament_draw_is_an_allied_win_5_6_2_5_6_3() {
    use sandtable_paths_of_glory::tables::{Outcome, Tables};
    use sandtable_paths_of_glory::victory::{at_end, automatic, Ending};
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
    g.apply(CP, &Action::Bid { vp: 0 }).unwrap();
    g.apply(AP, &Action::AcceptBid).unwrap();
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

#[test]
fn random_tournament_bidding_always_ends() {
    for seed in 0..20 {
        let mut g = PathsOfGlory::new_game("limited-war-tournament", seed).unwrap();
        let mut rng = sandtable_core::chance::Rng::from_seed(seed);
        let mut steps = 0;
        while g
            .frames()
            .iter()
            .any(|f| matches!(f, Frame::BidDie { .. } | Frame::Bid { .. }))
        {
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
            steps += 1;
            assert!(steps < 100, "the bidding ends");
        }
        let bid = g.scenario.bid.expect("a bid was accepted");
        assert!((-10..=10).contains(&bid));
    }
}

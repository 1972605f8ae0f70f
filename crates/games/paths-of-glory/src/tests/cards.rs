//! The strategy cards' piles (9.1, 9.5.1.2, 9.5.4, 16.1.3, phase G): the decks by commitment
//! (supplement 6.16), and a property test that random play never loses or doubles a card.

use super::common;

use crate::cards::{
    add_group, count, discard_combat_cards, draw, end_of_turn, group, next_draw, play, starting_pile, Played,
};
use crate::{Deck, Side};
use common::data;
use proptest::prelude::*;

/// 6.16: 14, 20 and 21 basic cards a side in the three groups; 2, 4 and 4 optional ones.
#[test]
fn the_decks_by_commitment() {
    for side in [Side::Ap, Side::Cp] {
        let basic: Vec<usize> = [Deck::Mobilization, Deck::Limited, Deck::Total]
            .iter()
            .map(|&d| group(data(), side, d, false, &[]).len())
            .collect();
        assert_eq!(basic, [14, 20, 21], "{side:?}");
        let all: Vec<usize> = [Deck::Mobilization, Deck::Limited, Deck::Total]
            .iter()
            .map(|&d| group(data(), side, d, true, &[]).len())
            .collect();
        assert_eq!(all, [16, 24, 25], "{side:?}");
    }
}

/// 4.3: the CP may start with Guns of August in hand; the rest of its Mobilization cards are the
/// draw pile. 16.1.3: Limited War brings 20 cards and the discards back into the pile.
#[test]
fn the_opening_and_limited_war() {
    let mut cp = starting_pile(data(), Side::Cp, false, &[1]);
    assert_eq!((cp.hand.clone(), cp.draw.len()), (vec![1], 13));
    assert!(!cp.draw.contains(&1));
    // Six draws, then a card played as an event with a `*` and one for OPS.
    for _ in 0..6 {
        let n = next_draw(&mut cp, 7).unwrap()[0];
        assert!(draw(&mut cp, n));
    }
    assert!(next_draw(&mut cp, 7).is_none(), "a full hand draws nothing");
    let star = cp
        .hand
        .iter()
        .copied()
        .find(|&n| data().card(Side::Cp, n).unwrap().remove)
        .expect("a * card in hand");
    assert!(play(&mut cp, star, Played::Removed));
    let other = cp.hand[0];
    assert!(play(&mut cp, other, Played::Discarded));
    assert!(!play(&mut cp, other, Played::Discarded), "no longer in hand");
    add_group(&mut cp, data(), Side::Cp, Deck::Limited, false);
    assert_eq!(cp.draw.len(), 13 - 6 + 20 + 1);
    assert_eq!(cp.removed, [star]);
    assert_eq!(count(&cp), 14 + 20);
}

#[test]
fn only_combat_cards_are_discarded_before_drawing_9_5_4_6() {
    let mut ap = starting_pile(data(), Side::Ap, false, &[]);
    ap.hand = ap.draw.clone();
    ap.draw.clear();
    let combat: Vec<u8> = ap
        .hand
        .iter()
        .copied()
        .filter(|&n| data().card(Side::Ap, n).unwrap().combat)
        .collect();
    let plain = ap
        .hand
        .iter()
        .copied()
        .find(|&n| !data().card(Side::Ap, n).unwrap().combat)
        .unwrap();
    assert!(!discard_combat_cards(&mut ap, data(), Side::Ap, &[plain]));
    assert_eq!(ap.discard.len(), 0);
    let c = *combat
        .first()
        .expect("a combat card among the Allied Mobilization cards");
    assert!(discard_combat_cards(&mut ap, data(), Side::Ap, &[c]));
    assert_eq!(ap.discard, [c]);
}

#[derive(Clone, Debug)]
enum Op {
    Draw(prop::sample::Index),
    Play(prop::sample::Index, u8),
    EndTurn,
    Commit(bool),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<prop::sample::Index>().prop_map(Op::Draw),
        3 => (any::<prop::sample::Index>(), 0u8..3).prop_map(|(i, w)| Op::Play(i, w)),
        1 => Just(Op::EndTurn),
        1 => any::<bool>().prop_map(Op::Commit),
    ]
}

proptest! {
    /// Cards are conserved: whatever is drawn, played, kept face up, added or reshuffled, each
    /// card of the groups in play is in exactly one pile.
    #[test]
    fn no_card_is_lost_or_doubled(side in prop_oneof![Just(Side::Ap), Just(Side::Cp)], ops in prop::collection::vec(op(), 0..120)) {
        let mut c = starting_pile(data(), side, false, &[]);
        let mut total = 14;
        let (mut limited, mut total_war) = (false, false);
        for o in ops {
            match o {
                Op::Draw(i) => {
                    if let Some(pile) = next_draw(&mut c, 8) {
                        let n = pile[i.index(pile.len())];
                        prop_assert!(draw(&mut c, n));
                    }
                }
                Op::Play(i, w) => {
                    if !c.hand.is_empty() {
                        let n = c.hand[i.index(c.hand.len())];
                        let to = [Played::Discarded, Played::Removed, Played::FaceUp][w as usize];
                        prop_assert!(play(&mut c, n, to));
                    }
                }
                Op::EndTurn => end_of_turn(&mut c),
                Op::Commit(to_total) => {
                    if !limited {
                        add_group(&mut c, data(), side, Deck::Limited, false);
                        limited = true;
                        total += 20;
                    } else if to_total && !total_war {
                        add_group(&mut c, data(), side, Deck::Total, false);
                        total_war = true;
                        total += 21;
                    }
                }
            }
            prop_assert_eq!(count(&c), total);
            let mut all: Vec<u8> = c.draw.iter().chain(&c.hand).chain(&c.discard).chain(&c.removed).chain(&c.face_up).copied().collect();
            all.sort();
            let n = all.len();
            all.dedup();
            prop_assert_eq!(all.len(), n, "a card in two places");
        }
    }
}

/// Supplement 6.16 ("Adding More Paths"): in the Campaign with the optional cards, all ten a side
/// are dealt with their groups (#56 and #57 with the Mobilization cards) and the hands hold 8.
#[test]
fn the_campaign_with_the_optional_cards_deals_them_and_eight_card_hands() {
    use crate::game::{Action, PathsOfGlory, CP};
    use crate::state::side_index;
    use sandtable_core::game::{Game, Pending};
    let dealt = |scenario: &str| {
        let mut g = PathsOfGlory::new_game(scenario, 5).expect("a scenario");
        g.apply(CP, &Action::GunsOfAugust { keep: false }).unwrap();
        while g.pending() == Pending::Chance {
            g.resolve_chance();
        }
        g
    };
    let g = dealt("campaign-optional-cards");
    for side in [Side::Cp, Side::Ap] {
        let c = &g.pos.cards[side_index(side)];
        assert_eq!(c.hand.len(), 8, "{side:?}");
        let all: Vec<u8> = c.hand.iter().chain(&c.draw).copied().collect();
        assert!(all.contains(&56) && all.contains(&57), "{side:?}: {all:?}");
        assert_eq!(all.len(), 16, "14 Mobilization cards and 2 optional ones");
    }
    let plain = dealt("campaign");
    let c = &plain.pos.cards[side_index(Side::Cp)];
    assert_eq!(c.hand.len(), 7);
    assert!(!c.hand.iter().chain(&c.draw).any(|&n| n >= 56));
}

/// Supplement 6.16, the optional cards picked in secret: each side is asked about its ten in
/// turn, the CP first; one put in takes out a basic card of its group with the same OPS and SR
/// values, which is offered no more; the deck keeps its size and the hands hold seven; a group
/// joining later comes with its picks made.
#[test]
fn an_optional_card_picked_takes_the_place_of_a_basic_card_of_the_same_values() {
    use crate::cards::join_group;
    use crate::game::{Action, PathsOfGlory, AP, CP};
    use crate::state::{side_index, Cards};
    use sandtable_core::game::{Game, Pending};
    let mut g = PathsOfGlory::new_game("campaign-picked-cards", 3).expect("the scenario loads");
    assert_eq!(g.pending(), Pending::Seat(CP));
    // CP #57 Kaisertreu is 3 OPS / 4 SR, a Mobilization card: its partners are the basic
    // Mobilization cards of those values, Guns of August (#1) among them.
    let partners: Vec<u8> = g
        .legal_list()
        .iter()
        .filter_map(|a| match *a {
            Action::PutIn { card: 56, instead } => Some(instead),
            _ => None,
        })
        .collect();
    let withdrawal = data().card(Side::Cp, 56).expect("#56");
    assert!(!partners.is_empty());
    for &n in &partners {
        let c = data().card(Side::Cp, n).expect("a card");
        assert!(!c.optional && c.deck == Deck::Mobilization && (c.ops, c.sr) == (withdrawal.ops, withdrawal.sr));
    }
    let other = data()
        .cards
        .iter()
        .find(|c| c.side == Side::Cp && !c.optional && c.deck == Deck::Mobilization && c.ops != withdrawal.ops)
        .expect("a card of other values");
    let refused = g
        .apply(
            CP,
            &Action::PutIn {
                card: 56,
                instead: other.number,
            },
        )
        .expect_err("other values");
    assert_eq!(refused.rule, "supplement 6.16");
    g.apply(
        CP,
        &Action::PutIn {
            card: 56,
            instead: partners[0],
        },
    )
    .expect("put in");
    let draw = &g.pos.cards[side_index(Side::Cp)].draw;
    assert!(draw.contains(&56) && !draw.contains(&partners[0]) && draw.len() == 14);
    // Kaisertreu in place of Guns of August: the CP may then not start with it (4.3).
    g.apply(CP, &Action::PutIn { card: 57, instead: 1 })
        .expect("put in for Guns of August");
    for card in 58..=65 {
        assert!(g.legal_list().contains(&Action::LeaveOut { card }));
        g.apply(CP, &Action::LeaveOut { card }).expect("left out");
    }
    assert_eq!(g.pending(), Pending::Seat(AP));
    for card in 56..=65 {
        g.apply(AP, &Action::LeaveOut { card }).expect("left out");
    }
    let refused = g
        .apply(CP, &Action::GunsOfAugust { keep: true })
        .expect_err("Guns of August is out of the deck");
    assert_eq!(refused.rule, "4.3");
    g.apply(CP, &Action::GunsOfAugust { keep: false })
        .expect("seven at random");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    for side in [Side::Cp, Side::Ap] {
        let c = &g.pos.cards[side_index(side)];
        assert_eq!(c.hand.len(), 7, "{side:?}");
        assert_eq!(c.hand.len() + c.draw.len(), 14, "{side:?}");
    }
    super::common::cards_conserved(&g).expect("every card in one place");
    // A group joining with a pick made: CP #58 in place of a Limited War card of its values.
    let stavka = data().card(Side::Cp, 58).expect("#58");
    let out = data()
        .cards
        .iter()
        .find(|c| {
            c.side == Side::Cp && !c.optional && c.deck == stavka.deck && (c.ops, c.sr) == (stavka.ops, stavka.sr)
        })
        .expect("a partner");
    let mut cards = Cards {
        picked: vec![(58, out.number)],
        ..Cards::default()
    };
    join_group(&mut cards, data(), Side::Cp, Deck::Limited, false);
    assert!(cards.draw.contains(&58) && !cards.draw.contains(&out.number));
    assert_eq!(
        cards.draw.len(),
        group(data(), Side::Cp, Deck::Limited, false, &[]).len()
    );
}

//! 9.1, 9.5.1.2, 9.5.4, 16.1.3 and phase G of 6.0: each side's strategy cards. A side's deck
//! starts with its Mobilization cards and takes in the Limited War and Total War cards as its
//! commitment rises; a card played goes to the discards, or out of the game when it was a `*`
//! event; a combat card that won its combat is held face up until the turn ends (9.5.4.2,
//! 9.5.4.5); in phase G each side draws up to its hand size, the whole draw pile first and
//! only then the discards reshuffled.
//!
//! The draw pile is kept without an order: every draw is chance's pick among its cards (the
//! driver records it), so the order of a deck is nowhere to be read.

use crate::data::{Data, Deck, Side};
use crate::state::Cards;

/// The cards of one deck group of a side, by number, leaving out the optional cards unless
/// they are played with (`optional`, all ten) or picked (`picked`: the optional cards put in,
/// each with the basic card it took out, supplement 6.16).
pub fn group(data: &Data, side: Side, deck: Deck, optional: bool, picked: &[(u8, u8)]) -> Vec<u8> {
    let put_in = |n: u8| picked.iter().any(|&(card, _)| card == n);
    let taken_out = |n: u8| picked.iter().any(|&(_, out)| out == n);
    let mut v: Vec<u8> = data
        .cards
        .iter()
        .filter(|c| c.side == side && c.deck == deck)
        .filter(|c| {
            if c.optional {
                optional || put_in(c.number)
            } else {
                !taken_out(c.number)
            }
        })
        .map(|c| c.number)
        .collect();
    v.sort();
    v
}

/// 4.3: the draw pile at the start, the side's Mobilization cards (less any kept out, such as
/// Guns of August when the CP starts with it in hand).
pub fn starting_pile(data: &Data, side: Side, optional: bool, in_hand: &[u8]) -> Cards {
    Cards {
        draw: group(data, side, Deck::Mobilization, optional, &[])
            .into_iter()
            .filter(|n| !in_hand.contains(n))
            .collect(),
        hand: in_hand.to_vec(),
        ..Cards::default()
    }
}

/// 16.1.3, 16.1.4: a group joining the deck as the commitment rises; the draw pile and the
/// discards are then shuffled together (phase G), which for a pile without order means the
/// discards join the draw pile.
#[cfg(test)]
pub fn add_group(cards: &mut Cards, data: &Data, side: Side, deck: Deck, optional: bool) {
    join_group(cards, data, side, deck, optional);
    reshuffle(cards);
}

/// 16.1.3: a group's cards join the draw pile (the reshuffle comes in phase G, after the
/// combat-card discards: [`reshuffle`]).
pub fn join_group(cards: &mut Cards, data: &Data, side: Side, deck: Deck, optional: bool) {
    let joining = group(data, side, deck, optional, &cards.picked);
    cards.draw.extend(joining);
    cards.draw.sort();
    cards.draw.dedup();
}

/// Phase G after a commitment rose: the discards and the draw pile are shuffled together, which
/// for a pile without order means the discards join it.
pub fn reshuffle(cards: &mut Cards) {
    cards.draw.append(&mut cards.discard);
    cards.draw.sort();
}

/// What playing a card from the hand does to the piles (9.5.1.2): out of the game for a `*`
/// event, face up for a combat card kept after a won combat (9.5.4.2), else to the discards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    Discarded,
    Removed,
    FaceUp,
}

/// Takes a card out of the hand as played. `false` if it is not in the hand.
pub fn play(cards: &mut Cards, number: u8, to: Played) -> bool {
    let Some(at) = cards.hand.iter().position(|&n| n == number) else {
        return false;
    };
    cards.hand.remove(at);
    match to {
        Played::Discarded => cards.discard.push(number),
        Played::Removed => cards.removed.push(number),
        Played::FaceUp => cards.face_up.push(number),
    }
    true
}

/// 9.5.4.5: at the end of the turn every face-up combat card is discarded.
pub fn end_of_turn(cards: &mut Cards) {
    cards.discard.append(&mut cards.face_up);
}

/// 9.5.4.6: combat cards may be discarded from the hand before drawing (the only cards that
/// may). `false` if a card named is not a combat card in the hand, and then nothing changes.
pub fn discard_combat_cards(cards: &mut Cards, data: &Data, side: Side, numbers: &[u8]) -> bool {
    let ok = numbers
        .iter()
        .all(|&n| cards.hand.contains(&n) && data.card(side, n).is_some_and(|c| c.combat));
    if ok {
        for &n in numbers {
            play(cards, n, Played::Discarded);
        }
    }
    ok
}

/// Phase G: how many cards the side still draws to reach its hand size, and from where: the
/// draw pile while it has cards; when it is empty the discards become the draw pile (phase G:
/// the whole pile first, then the reshuffle). `None` when the hand is full or nothing is left
/// (a side short of cards starts the next turn short).
pub fn next_draw(cards: &mut Cards, hand_size: usize) -> Option<&[u8]> {
    if cards.hand.len() >= hand_size {
        return None;
    }
    if cards.draw.is_empty() {
        cards.draw.append(&mut cards.discard);
        cards.draw.sort();
    }
    (!cards.draw.is_empty()).then_some(&cards.draw[..])
}

/// Moves a card chance drew from the draw pile to the hand. `false` if it is not in the pile.
pub fn draw(cards: &mut Cards, number: u8) -> bool {
    let Some(at) = cards.draw.iter().position(|&n| n == number) else {
        return false;
    };
    cards.draw.remove(at);
    cards.hand.push(number);
    true
}

/// Every card of a side is in exactly one place: the total of the piles (a test of
/// conservation).
#[cfg(test)]
pub fn count(cards: &Cards) -> usize {
    cards.draw.len() + cards.hand.len() + cards.discard.len() + cards.removed.len() + cards.face_up.len()
}

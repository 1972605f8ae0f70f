//! Supplement 6.16, "Adding More Paths": the optional cards (#56–#65 of each side) picked in
//! secret. Before the first deal each side is asked about each of its ten optional cards in
//! turn: leave it out, or put it in and take out in its place a basic card of the same group
//! (Mobilization, Limited War, Total War) with the same OPS and SR values. The deck keeps its
//! size, so the hands hold seven (RULINGS.md). Only the side picking reads its picks; the other
//! learns an optional card is in play when it sees it played.

use crate::cards;
use crate::data::{Card, Data, Deck, Side};
use crate::game::{Action, Frame, PathsOfGlory};
use crate::state::side_index;
use crate::war_status::Commitment;
use sandtable_core::chance::Rng;
use sandtable_core::game::Refusal;
use sandtable_core::text::Text;

/// The first and last optional card numbers of each side's deck.
pub(crate) const FIRST: u8 = 56;
pub(crate) const LAST: u8 = 65;

/// The frames that ask each side about its optional cards, on the stack with the CP's on top:
/// the CP picks first, then the Allies.
pub(crate) fn start() -> [Frame; 2] {
    [
        Frame::PickOptional {
            side: Side::Ap,
            card: FIRST,
        },
        Frame::PickOptional {
            side: Side::Cp,
            card: FIRST,
        },
    ]
}

/// Whether `basic` may leave the deck for the optional card `optional`: a basic card of the
/// same side and group with the same OPS and SR values (supplement 6.16).
fn matches(optional: &Card, basic: &Card) -> bool {
    !basic.optional
        && basic.side == optional.side
        && basic.deck == optional.deck
        && basic.ops == optional.ops
        && basic.sr == optional.sr
}

/// The basic cards `side` may take out for its optional card `card`, less those already taken
/// out for another.
fn partners(data: &Data, picked: &[(u8, u8)], side: Side, card: u8) -> Vec<u8> {
    let Some(optional) = data.card(side, card) else {
        return Vec::new();
    };
    let mut v: Vec<u8> = data
        .cards
        .iter()
        .filter(|b| matches(optional, b) && !picked.iter().any(|&(_, out)| out == b.number))
        .map(|b| b.number)
        .collect();
    v.sort_unstable();
    v
}

pub(crate) fn candidates(g: &PathsOfGlory, side: Side, card: u8, out: &mut Vec<Action>) {
    out.push(Action::LeaveOut { card });
    let picked = &g.pos.cards[side_index(side)].picked;
    for instead in partners(g.data(), picked, side, card) {
        out.push(Action::PutIn { card, instead });
    }
}

pub(crate) fn check(g: &PathsOfGlory, side: Side, card: u8, action: &Action) -> Result<(), Refusal> {
    let (asked, instead) = match *action {
        Action::LeaveOut { card: c } => (c, None),
        Action::PutIn { card: c, instead } => (c, Some(instead)),
        _ => {
            return Err(PathsOfGlory::refuse(
                "supplement 6.16",
                "each optional card is now put in or left out",
                "现在须逐张决定可选卡加入或不加入",
            ))
        }
    };
    if asked != card {
        return Err(PathsOfGlory::refuse(
            "supplement 6.16",
            format!("the optional cards are picked in order: card #{card} is asked now"),
            format!("可选卡须按顺序决定:现在问的是 #{card}"),
        ));
    }
    match instead {
        Some(out) if !partners(g.data(), &g.pos.cards[side_index(side)].picked, side, card).contains(&out) => {
            Err(PathsOfGlory::refuse(
                "supplement 6.16",
                format!(
                    "an optional card takes the place of a basic card of its own group with the same OPS and SR values, not yet taken out: #{out} is not one for #{card}"
                ),
                format!("可选卡须替换同一组、行动点与战略调动值相同且尚未被替换的基本卡:#{out} 不能替换 #{card}"),
            ))
        }
        _ => Ok(()),
    }
}

pub(crate) fn carry_out(g: &mut PathsOfGlory, side: Side, card: u8, action: &Action) {
    let seat = g.seat_of(side);
    if let Action::PutIn { instead, .. } = *action {
        let c = &mut g.pos.cards[side_index(side)];
        c.picked.push((card, instead));
        // The Mobilization cards are in the draw pile already (4.3): the swap is made there.
        // Later groups take the picks in as they join (cards::group).
        if let Some(i) = c.draw.iter().position(|&n| n == instead) {
            c.draw[i] = card;
            c.draw.sort_unstable();
        }
        let (a, b) = (g.card_name(side, card), g.card_name(side, instead));
        let (en, zh) = (crate::sequence::side_en(side), crate::sequence::side_zh(side));
        g.journal.whisper(
            seat,
            || {
                Text::new(
                    format!("You put {} in your deck in place of {} (supplement 6.16)", a.en, b.en),
                    format!("你将{}加入牌组,替换{}(补充6.16)", a.zh, b.zh),
                )
            },
            || {
                Text::new(
                    format!(
                        "The {en} puts {} in its deck in place of {} (supplement 6.16)",
                        a.en, b.en
                    ),
                    format!("{zh}将{}加入牌组,替换{}(补充6.16)", a.zh, b.zh),
                )
            },
        );
    } else {
        let a = g.card_name(side, card);
        let (en, zh) = (crate::sequence::side_en(side), crate::sequence::side_zh(side));
        g.journal.whisper(
            seat,
            || {
                Text::new(
                    format!("You leave {} out of your deck (supplement 6.16)", a.en),
                    format!("你不将{}加入牌组(补充6.16)", a.zh),
                )
            },
            || {
                Text::new(
                    format!("The {en} leaves {} out of its deck (supplement 6.16)", a.en),
                    format!("{zh}不将{}加入牌组(补充6.16)", a.zh),
                )
            },
        );
    }
    if card < LAST {
        g.engine.push(Frame::PickOptional { side, card: card + 1 });
    } else {
        let (en, zh) = (crate::sequence::side_en(side), crate::sequence::side_zh(side));
        g.journal.say(|| {
            Text::new(
                format!("{en} has picked its optional cards in secret (supplement 6.16)"),
                format!("{zh}已秘密选定可选卡(补充6.16)"),
            )
        });
    }
}

/// The words of a pick, for the seat making it.
pub(crate) fn describe(g: &PathsOfGlory, side: Side, action: &Action) -> Option<Text> {
    match *action {
        Action::LeaveOut { card } => {
            let a = g.card_name(side, card);
            Some(Text::new(format!("Leave {} out", a.en), format!("不加入{}", a.zh)))
        }
        Action::PutIn { card, instead } => {
            let (a, b) = (g.card_name(side, card), g.card_name(side, instead));
            Some(Text::new(
                format!("Put {} in, taking {} out", a.en, b.en),
                format!("加入{},换出{}", a.zh, b.zh),
            ))
        }
        _ => None,
    }
}

/// A guess at `side`'s secret picks for a computer player of the other side (the core's
/// sampling hook): each optional card the other side has shown (in `public`: its discards,
/// removed and face-up cards) is in, each of the others in or out at even odds, each in the
/// place of a basic card not shown, at random. The cards shown take their places first, so
/// that each finds one (the card it truly took out was never shown).
pub(crate) fn guess(data: &Data, side: Side, public: &[u8], rng: &mut Rng) -> Vec<(u8, u8)> {
    let mut picked: Vec<(u8, u8)> = Vec::new();
    let (shown, unshown): (Vec<u8>, Vec<u8>) = (FIRST..=LAST).partition(|n| public.contains(n));
    for (card, shown) in shown
        .into_iter()
        .map(|n| (n, true))
        .chain(unshown.into_iter().map(|n| (n, false)))
    {
        if !shown && rng.below(2) == 0 {
            continue;
        }
        let free: Vec<u8> = partners(data, &picked, side, card)
            .into_iter()
            .filter(|n| !public.contains(n))
            .collect();
        if free.is_empty() {
            continue;
        }
        let instead = free[rng.below(free.len() as u32) as usize];
        picked.push((card, instead));
    }
    picked
}

/// `side`'s cards of the groups it has taken in, with its picks made: the deck every card of
/// the side is in (cards::group for each group).
pub(crate) fn deck(g: &PathsOfGlory, side: Side, picked: &[(u8, u8)]) -> Vec<u8> {
    let now = g.commitment[side_index(side)];
    let mut v: Vec<u8> = [
        (Deck::Mobilization, Commitment::Mobilization),
        (Deck::Limited, Commitment::Limited),
        (Deck::Total, Commitment::Total),
    ]
    .into_iter()
    .filter(|&(_, from)| now >= from)
    .flat_map(|(deck, _)| cards::group(g.data(), side, deck, g.scenario.optional_cards, picked))
    .collect();
    v.sort_unstable();
    v
}

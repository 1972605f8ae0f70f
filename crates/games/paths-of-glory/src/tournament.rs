//! 5.6 Tournaments: the Limited War and Campaign scenarios played for a VP bid (5.6.1). The bid
//! is settled at the start, over the board: a die for each side, rolled again on a tie (2022
//! 5.6.1); the higher roller's side names a bid, and the sides answer in turn until one accepts.
//! The bid is the VP added to the total when the game is over (5.6.2, never for automatic
//! victory, 5.6.2.1); a draw counts as an Allied win (5.6.3), and accepted peace terms lose the
//! game for both (5.6.4). See RULINGS.md, "Tournaments", for how the seats bear on the bidding.

use crate::data::Side;
use crate::game::{Action, Frame, PathsOfGlory};
use crate::sequence::{side_en, side_zh};
use sandtable_core::game::Refusal;
use sandtable_core::text::Text;

fn other(side: Side) -> Side {
    match side {
        Side::Cp => Side::Ap,
        Side::Ap => Side::Cp,
    }
}

/// The highest bid that may be named, either way: half the VP track (the CP wins automatically
/// at 20, the Allies at 0). A bid is the VP added to the total at the end: positive gives them to
/// the CP, negative to the Allies.
pub const MAX_BID: i8 = 10;

/// The bids `side` may name now: any from −[`MAX_BID`] to [`MAX_BID`] to open; then each side
/// gives ground on its own last bid and stays short of the other's (the CP bids lower than its
/// last, the Allies higher than theirs), so that the bidding ends.
fn open_bids(cp: Option<i8>, ap: Option<i8>) -> std::ops::RangeInclusive<i8> {
    ap.map_or(-MAX_BID, |a| a + 1)..=cp.map_or(MAX_BID, |c| c - 1)
}

/// The bid on the table for `side` to accept: the other side's last.
pub(crate) fn on_the_table(side: Side, cp: Option<i8>, ap: Option<i8>) -> Option<i8> {
    match side {
        Side::Cp => ap,
        Side::Ap => cp,
    }
}

pub(crate) fn candidates(frame: &Frame, out: &mut Vec<Action>) {
    if let Frame::Bid { side, cp, ap } = *frame {
        if on_the_table(side, cp, ap).is_some() {
            out.push(Action::AcceptBid);
        }
        out.extend(open_bids(cp, ap).map(|vp| Action::Bid { vp }));
    }
}

pub(crate) fn check(frame: &Frame, action: &Action) -> Result<(), Refusal> {
    let Frame::Bid { side, cp, ap } = *frame else {
        return Err(PathsOfGlory::refuse(
            "5.6.1",
            "no bid is being settled",
            "没有正在进行的竞标",
        ));
    };
    match *action {
        Action::AcceptBid if on_the_table(side, cp, ap).is_some() => Ok(()),
        Action::AcceptBid => Err(PathsOfGlory::refuse(
            "5.6.1",
            "no bid has been named yet: name one",
            "尚未有人出价:请出价",
        )),
        Action::Bid { vp } if open_bids(cp, ap).contains(&vp) => Ok(()),
        Action::Bid { .. } => {
            let r = open_bids(cp, ap);
            Err(PathsOfGlory::refuse(
                "5.6.1",
                format!(
                    "a bid here is from {:+} to {:+} VP: each side gives ground on its own last bid and stays short of the other's",
                    r.start(),
                    r.end()
                ),
                format!("此处出价须在{:+}到{:+}胜利点之间:每方须比自己上次让步,且不越过对方的出价", r.start(), r.end()),
            ))
        }
        _ => Err(PathsOfGlory::refuse(
            "5.6.1",
            "name a bid or accept one",
            "请出价或接受出价",
        )),
    }
}

/// The tournament's first frames: the dice of 5.6.1.
pub(crate) fn start() -> Frame {
    Frame::BidDie {
        side: Side::Cp,
        cp: None,
    }
}

/// 2022 5.6.1: a die for each side; the higher roller's side bids first, a tie is rolled again.
pub(crate) fn die(g: &mut PathsOfGlory, side: Side, cp: Option<u8>, face: u8) {
    match (side, cp) {
        (Side::Cp, _) => g.engine.push(Frame::BidDie {
            side: Side::Ap,
            cp: Some(face),
        }),
        (Side::Ap, Some(c)) if c == face => {
            g.journal.say(|| {
                Text::new(
                    format!("Both sides roll {face} for the bid: rolled again (5.6.1)"),
                    format!("双方竞标掷骰均为{face}:重掷(5.6.1)"),
                )
            });
            g.engine.push(start());
        }
        (Side::Ap, c) => {
            let c = c.unwrap_or(0);
            let first = if c > face { Side::Cp } else { Side::Ap };
            g.journal.say(|| {
                Text::new(
                    format!(
                        "Bid dice: CP {c}, AP {face}; {} names the first bid (5.6.1)",
                        side_en(first)
                    ),
                    format!("竞标掷骰:同盟国{c},协约国{face};{}先出价(5.6.1)", side_zh(first)),
                )
            });
            g.engine.push(Frame::Bid {
                side: first,
                cp: None,
                ap: None,
            });
        }
    }
}

pub(crate) fn carry_out(g: &mut PathsOfGlory, frame: Frame, action: &Action) {
    let Frame::Bid { side, cp, ap } = frame else {
        return;
    };
    match *action {
        Action::AcceptBid => {
            let vp = on_the_table(side, cp, ap).unwrap_or(0);
            g.scenario.bid = Some(vp);
            g.journal.say(|| {
                Text::new(
                    format!(
                        "{} accepts the bid: {} at the end of the game (5.6.2)",
                        side_en(side),
                        bid_en(vp)
                    ),
                    format!("{}接受出价:游戏结束时{}(5.6.2)", side_zh(side), bid_zh(vp)),
                )
            });
        }
        Action::Bid { vp } => {
            g.journal.say(|| {
                Text::new(
                    format!("{} bids {} (5.6.1)", side_en(side), bid_en(vp)),
                    format!("{}出价:{}(5.6.1)", side_zh(side), bid_zh(vp)),
                )
            });
            let (cp, ap) = match side {
                Side::Cp => (Some(vp), ap),
                Side::Ap => (cp, Some(vp)),
            };
            g.engine.push(Frame::Bid {
                side: other(side),
                cp,
                ap,
            });
        }
        _ => {}
    }
}

/// A bid in words: the VP it gives and to whom.
pub(crate) fn bid_en(vp: i8) -> String {
    match vp {
        0 => "no VP either way".to_string(),
        v if v > 0 => format!("{v} VP to the CP"),
        v => format!("{} VP to the Allies", -v),
    }
}

pub(crate) fn bid_zh(vp: i8) -> String {
    match vp {
        0 => "双方均不加胜利点".to_string(),
        v if v > 0 => format!("同盟国加{v}胜利点"),
        v => format!("协约国加{}胜利点", -v),
    }
}

//! 5.6 Tournaments: the Limited War and Campaign scenarios played for a bid that decides the
//! sides (2022 5.6.1; the seed's 5.6.2: the higher bidder plays the Allies). Each player rolls a
//! die (a tie is rolled again); the high roller names the side he wants and the VP he gives the
//! other side; the other player accepts, and plays the other side, or offers more VP to take
//! that same side; and so on until one accepts. The ceded VP count only when the game is over
//! (2022 5.6.1.1, the seed's 5.6.2.1: never for automatic victory); a draw counts as an Allied
//! win (5.6.3), and accepted peace terms lose the game for both (5.6.4). Until the bid is
//! accepted the seats are players, not sides: "Player 1" (seat 0) and "Player 2" (seat 1). See
//! RULINGS.md, "Tournaments".

use crate::data::Side;
use crate::game::{other, Action, Frame, PathsOfGlory};
use sandtable_core::game::{Refusal, Seat};
use sandtable_core::text::Text;

/// The most VP a bid may give: half the VP track (the CP wins automatically at 20, the Allies at
/// 0). 2022 5.6.1 allows any whole number; a bid past this would hand the game over.
pub const MAX_BID: u8 = 10;

/// The other player's seat.
fn other_seat(seat: Seat) -> Seat {
    1 - seat.min(1)
}

/// A player in words, by seat: seat 0 is "Player 1".
fn player_en(seat: Seat) -> String {
    format!("Player {}", seat + 1)
}

fn player_zh(seat: Seat) -> String {
    format!("玩家{}", seat + 1)
}

fn side_name_en(side: Side) -> &'static str {
    match side {
        Side::Cp => "the Central Powers",
        Side::Ap => "the Allies",
    }
}

fn side_name_zh(side: Side) -> &'static str {
    match side {
        Side::Cp => "同盟国",
        Side::Ap => "协约国",
    }
}

/// The VP a bid for `side` of `vp` adds to the total at the end: they go to the other side
/// (positive to the CP).
fn to_total(side: Side, vp: u8) -> i8 {
    let vp = vp.min(MAX_BID) as i8;
    match side {
        Side::Ap => vp,
        Side::Cp => -vp,
    }
}

/// The bids that may be named now: any side and 0 to [`MAX_BID`] VP to open; then the same side
/// only, for more VP than the bid on the table.
fn open_bids(named: Option<(Side, u8)>) -> impl Iterator<Item = (Side, u8)> {
    let (sides, from): (&'static [Side], u8) = match named {
        None => (&[Side::Cp, Side::Ap], 0),
        Some((Side::Cp, vp)) => (&[Side::Cp], vp.saturating_add(1)),
        Some((Side::Ap, vp)) => (&[Side::Ap], vp.saturating_add(1)),
    };
    sides.iter().flat_map(move |&s| (from..=MAX_BID).map(move |vp| (s, vp)))
}

pub(crate) fn candidates(frame: &Frame, out: &mut Vec<Action>) {
    if let Frame::Bid { named, .. } = *frame {
        if named.is_some() {
            out.push(Action::AcceptBid);
        }
        out.extend(open_bids(named).map(|(side, vp)| Action::Bid { side, vp }));
    }
}

pub(crate) fn check(frame: &Frame, action: &Action) -> Result<(), Refusal> {
    let Frame::Bid { named, .. } = *frame else {
        return Err(PathsOfGlory::refuse(
            "2022 5.6.1",
            "no bid is being settled",
            "没有正在进行的竞标",
        ));
    };
    match (action, named) {
        (Action::AcceptBid, Some(_)) => Ok(()),
        (Action::AcceptBid, None) => Err(PathsOfGlory::refuse(
            "2022 5.6.1",
            "no bid has been named yet: name the side you want and the VP you give",
            "尚未有人出价:请选择你要的阵营及让给对方的胜利点",
        )),
        (&Action::Bid { vp, .. }, _) if vp > MAX_BID => Err(PathsOfGlory::refuse(
            "2022 5.6.1",
            format!("a bid gives at most {MAX_BID} VP, half the VP track"),
            format!("出价最多让{MAX_BID}胜利点,即胜利点轨的一半"),
        )),
        (&Action::Bid { side, vp }, Some((s, on))) if side != s || vp <= on => Err(PathsOfGlory::refuse(
            "2022 5.6.1",
            format!(
                "the bid on the table is {} giving {on} VP: accept it, or offer more VP for {}",
                side_name_en(s),
                side_name_en(s)
            ),
            format!(
                "桌上的出价是{}让{on}胜利点:接受,或为{}出更高的价",
                side_name_zh(s),
                side_name_zh(s)
            ),
        )),
        (Action::Bid { .. }, _) => Ok(()),
        _ => Err(PathsOfGlory::refuse(
            "2022 5.6.1",
            "bid for a side or accept the bid",
            "请为阵营出价或接受出价",
        )),
    }
}

/// The tournament's first frame: the first player's die (2022 5.6.1).
pub(crate) fn start() -> Frame {
    Frame::BidDie { seat: 0, first: None }
}

/// 2022 5.6.1: a die for each player; the high roller bids first, a tie is rolled again.
pub(crate) fn die(g: &mut PathsOfGlory, seat: Seat, first: Option<u8>, face: u8) {
    match (seat, first) {
        (0, _) | (_, None) => g.engine.push(Frame::BidDie {
            seat: 1,
            first: Some(face),
        }),
        (_, Some(f)) if f == face => {
            g.journal.say(|| {
                Text::new(
                    format!("Both players roll {face} for the bid: rolled again (2022 5.6.1)"),
                    format!("双方竞标掷骰均为{face}:重掷(2022年版5.6.1)"),
                )
            });
            g.engine.push(start());
        }
        (_, Some(f)) => {
            let high: Seat = if f > face { 0 } else { 1 };
            g.journal.say(|| {
                Text::new(
                    format!(
                        "Bid dice: Player 1 {f}, Player 2 {face}; {} names the side he wants and the VP he gives (2022 5.6.1)",
                        player_en(high)
                    ),
                    format!(
                        "竞标掷骰:玩家1为{f},玩家2为{face};{}选择阵营并出价(2022年版5.6.1)",
                        player_zh(high)
                    ),
                )
            });
            g.engine.push(Frame::Bid {
                seat: high,
                named: None,
            });
        }
    }
}

pub(crate) fn carry_out(g: &mut PathsOfGlory, frame: Frame, action: &Action) {
    let Frame::Bid { seat, named } = frame else {
        return;
    };
    match (action, named) {
        (Action::AcceptBid, Some((side, vp))) => {
            // 5.6.1: the bidder plays the side he bid for; the one who accepts, the other.
            let bidder = other_seat(seat);
            g.scenario.cp_seat = if side == Side::Cp { bidder } else { seat };
            g.scenario.bid = Some(to_total(side, vp));
            g.journal.say(|| {
                Text::new(
                    format!(
                        "{} accepts: {} plays {}, {} plays {}; {} at the end of the game (2022 5.6.1, 5.6.1.1)",
                        player_en(seat),
                        player_en(bidder),
                        side_name_en(side),
                        player_en(seat),
                        side_name_en(other(side)),
                        given_en(side, vp)
                    ),
                    format!(
                        "{}接受:{}执{},{}执{};游戏结束时{}(2022年版5.6.1、5.6.1.1)",
                        player_zh(seat),
                        player_zh(bidder),
                        side_name_zh(side),
                        player_zh(seat),
                        side_name_zh(other(side)),
                        given_zh(side, vp)
                    ),
                )
            });
        }
        (&Action::Bid { side, vp }, _) => {
            g.journal.say(|| {
                Text::new(
                    format!(
                        "{} bids for {}, giving {} (2022 5.6.1)",
                        player_en(seat),
                        side_name_en(side),
                        given_en(side, vp)
                    ),
                    format!(
                        "{}为{}出价:{}(2022年版5.6.1)",
                        player_zh(seat),
                        side_name_zh(side),
                        given_zh(side, vp)
                    ),
                )
            });
            g.engine.push(Frame::Bid {
                seat: other_seat(seat),
                named: Some((side, vp)),
            });
        }
        // Refused by `check`: the frame stays.
        _ => g.engine.push(frame),
    }
}

/// A bid's action in words.
pub(crate) fn describe(g: &PathsOfGlory, action: &Action) -> Text {
    match (action, g.engine.top()) {
        (&Action::Bid { side, vp }, _) => Text::new(
            format!(
                "Play {}, giving {} (2022 5.6.1)",
                side_name_en(side),
                given_en(side, vp)
            ),
            format!("执{},{}(2022年版5.6.1)", side_name_zh(side), given_zh(side, vp)),
        ),
        (
            Action::AcceptBid,
            Some(&Frame::Bid {
                named: Some((side, vp)),
                ..
            }),
        ) => Text::new(
            format!(
                "Accept: play {}, the other player {} giving {} (2022 5.6.1)",
                side_name_en(other(side)),
                side_name_en(side),
                given_en(side, vp)
            ),
            format!(
                "接受:执{},对方执{}并{}(2022年版5.6.1)",
                side_name_zh(other(side)),
                side_name_zh(side),
                given_zh(side, vp)
            ),
        ),
        _ => Text::new("Accept the bid (2022 5.6.1)", "接受出价(2022年版5.6.1)"),
    }
}

/// The VP a bid for `side` gives, and to whom.
fn given_en(side: Side, vp: u8) -> String {
    match vp {
        0 => "no VP".to_string(),
        v => format!("{v} VP to {}", side_name_en(other(side))),
    }
}

fn given_zh(side: Side, vp: u8) -> String {
    match vp {
        0 => "不让胜利点".to_string(),
        v => format!("让{}{v}胜利点", side_name_zh(other(side))),
    }
}

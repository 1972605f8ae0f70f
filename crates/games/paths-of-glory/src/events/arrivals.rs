//! Events that put units or markers on the map or take them off: the reinforcements placed as
//! their card says (MEF, CAU, NE, Orient, ANA, Senussi), Guns of August, Entrench, Salonika,
//! Race to the Sea and the other events that add, restore or remove units.
//!
//! An event whose player chooses where its marker or units go pushes [`Frame::EventPlace`]:
//! [`event_spaces`] lists the spaces the card allows, [`event_place`] carries the choice out.

use crate::data::{Kind, Side};
use crate::game::{Action, Frame, PathsOfGlory};
use crate::state::{side_index, Fort, Location, Trench};
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// CP #1 Guns of August.
const GUNS_OF_AUGUST: u8 = 1;
/// AP #12 and CP #6 Entrench.
const ENTRENCH_AP: u8 = 12;
const ENTRENCH_CP: u8 = 6;

/// The Entrench card of a side.
fn entrench_card(side: Side) -> u8 {
    match side {
        Side::Ap => ENTRENCH_AP,
        Side::Cp => ENTRENCH_CP,
    }
}

/// The action round being played, if any.
fn round_now(g: &PathsOfGlory) -> Option<u8> {
    g.frames().iter().rev().find_map(|f| match f {
        Frame::Round { round, .. } => Some(*round),
        _ => None,
    })
}

/// A counter's index from its id.
fn counter(g: &PathsOfGlory, id: &str) -> Option<usize> {
    g.data().pieces.iter().position(|p| p.id == id)
}

/// Whether one of this module's events may be played now, and why not; `None` for another card.
pub(super) fn check(g: &PathsOfGlory, side: Side, card: u8) -> Option<Result<(), Refusal>> {
    Some(match (side, card) {
        (Side::Cp, GUNS_OF_AUGUST) => check_guns_of_august(g),
        (Side::Ap, ENTRENCH_AP) | (Side::Cp, ENTRENCH_CP) => check_entrench(g, side),
        _ => return None,
    })
}

/// Carries out one of this module's events; `false` for another card.
pub(super) fn carry_out(g: &mut PathsOfGlory, side: Side, card: u8) -> bool {
    match (side, card) {
        (Side::Cp, GUNS_OF_AUGUST) => guns_of_august(g),
        (Side::Ap, ENTRENCH_AP) | (Side::Cp, ENTRENCH_CP) => entrench(g, side, card),
        _ => return false,
    }
    true
}

/// Our short text of one of this module's events, in both languages.
pub(super) fn text(side: Side, card: u8) -> Option<Text> {
    let (en, zh) = match (side, card) {
        (Side::Cp, GUNS_OF_AUGUST) => (
            "First action round of August 1914 only. Liege's fort falls; the German 1st and 2nd Armies move into Liege, and the 1st, 2nd and 3rd Armies may attack at once.",
            "仅限1914年8月第一个行动轮。列日要塞被摧毁;德国第1、第2集团军进入列日,第1、2、3集团军随即可以进攻。",
        ),
        (Side::Ap, ENTRENCH_AP) | (Side::Cp, ENTRENCH_CP) => (
            "Dig a level-1 trench in one space holding a friendly army in supply. From now on both sides' armies may dig (11.2). Once one side has played it, the other side's Entrench is no longer an event.",
            "在一个有己方补给中集团军的区域放置1级战壕。此后双方集团军都可以挖掘战壕(11.2)。一方打出后,另一方的同名卡不再能作为事件打出。",
        ),
        _ => return None,
    };
    Some(Text::new(en, zh))
}

// ---- Guns of August (CP #1) ----

/// CP #1: only in the first action round of August 1914.
fn check_guns_of_august(g: &PathsOfGlory) -> Result<(), Refusal> {
    if g.pos.turn == 1 && round_now(g) == Some(1) {
        Ok(())
    } else {
        Err(PathsOfGlory::refuse(
            "CP #1",
            "Guns of August may only be played in the first action round of the August 1914 turn",
            "“八月炮火”只能在1914年8月回合的第一个行动轮打出",
        ))
    }
}

/// CP #1: Liege's fort is destroyed, the German 1st and 2nd Armies go there and the space
/// becomes the CP's; the spaces of the 1st, 2nd and 3rd Armies are activated for combat.
fn guns_of_august(g: &mut PathsOfGlory) {
    let data = g.data();
    let Some(liege) = data.space("liege") else { return };
    if data.facts(liege).fort > 0 {
        g.pos.spaces[liege.idx()].fort = Fort::Destroyed;
    }
    g.journal.say(|| {
        Text::new(
            "The fort of Liege is destroyed (CP #1 Guns of August)",
            "列日要塞被摧毁(同盟国#1八月炮火)",
        )
    });
    for id in ["ge-army-1", "ge-army-2"] {
        let Some(u) = counter(g, id) else { continue };
        if !matches!(g.pos.units[u].loc, Location::Map(_)) {
            continue;
        }
        g.pos.units[u].loc = Location::Map(liege);
        let n = g.unit_name(u as u16);
        g.journal.say(|| {
            Text::new(
                format!("{} is placed in Liege (CP #1)", n.en),
                format!("{}进入列日(同盟国#1)", n.zh),
            )
        });
    }
    if g.occupant(liege) == Some(Side::Cp) {
        let st = *g.pos.space(liege);
        g.pos.spaces[liege.idx()].control = Some(Side::Cp);
        g.pos.spaces[liege.idx()].trench = crate::trenches::entered(st.trench, Side::Cp);
        g.pos.vp += crate::victory::capture(data, g.scenario.historical, liege, st.control, Some(Side::Cp));
    }
    // The three armies are activated for combat: their spaces (9.2.5 activates spaces), which
    // in August 1914 hold only them.
    for id in ["ge-army-1", "ge-army-2", "ge-army-3"] {
        if let Some(s) = counter(g, id).and_then(|u| g.at(u)) {
            if !g.action.activated.contains(&(s, true)) {
                g.action.activated.push((s, true));
                let n = g.name(s);
                g.journal.say(|| {
                    Text::new(
                        format!("{} activated for combat (CP #1)", n.en),
                        format!("{}激活用于进攻(同盟国#1)", n.zh),
                    )
                });
            }
        }
    }
    if !g.action.activated.is_empty() {
        g.engine.push(Frame::Combats { side: Side::Cp });
    }
}

/// 5.7.4.3 (Historical): the CP's first action of the game is Guns of August played for its
/// event.
pub(crate) fn historical_first_action(g: &PathsOfGlory, side: Side, round: u8, action: &Action) -> Result<(), Refusal> {
    let forced = g.scenario.historical
        && side == Side::Cp
        && g.pos.turn == 1
        && round == 1
        && g.pos.cards[side_index(Side::Cp)].hand.contains(&GUNS_OF_AUGUST);
    let chosen = matches!(
        action,
        Action::Play {
            card: GUNS_OF_AUGUST,
            with: crate::game::Use::Event
        }
    );
    if forced && !chosen {
        return Err(PathsOfGlory::refuse(
            "5.7.4.3",
            "in the Historical scenario the CP's first action is Guns of August, played for its event",
            "历史剧本中同盟国的第一个行动必须是以事件打出“八月炮火”",
        ));
    }
    Ok(())
}

// ---- Entrench (AP #12, CP #6) ----

/// AP #12, CP #6: not in the Historical scenario's first turn (5.7.4.4); never once the other
/// side's Entrench was played (2022 9.5.1.1 note: only one player per game plays it).
fn check_entrench(g: &PathsOfGlory, side: Side) -> Result<(), Refusal> {
    if g.scenario.historical && g.pos.turn == 1 {
        return Err(PathsOfGlory::refuse(
            "5.7.4.4",
            "in the Historical scenario no Entrench event is played in the August 1914 turn",
            "历史剧本中1914年8月回合不能打出“挖掘战壕”事件",
        ));
    }
    let o = crate::game::other(side);
    if super::played(g, o, entrench_card(o)) {
        return Err(PathsOfGlory::refuse(
            "9.5.1.1",
            "the other side has played its Entrench: only one player per game plays the Entrench event",
            "对方已打出“挖掘战壕”:每局只有一方可以打出该事件",
        ));
    }
    Ok(())
}

/// AP #12, CP #6: armies may dig from now on (11.2.1); the player places a level-1 trench.
fn entrench(g: &mut PathsOfGlory, side: Side, card: u8) {
    g.journal.say(|| {
        Text::new(
            "From now on both sides' armies may dig trenches (11.2.1)",
            "此后双方集团军都可以挖掘战壕(11.2.1)",
        )
    });
    g.engine.push(Frame::EventPlace {
        side,
        card,
        units: Vec::new(),
    });
}

/// AP #12, CP #6: the spaces holding a friendly army in supply and no trench yet.
fn entrench_spaces(g: &PathsOfGlory, side: Side) -> Vec<Space> {
    let data = g.data();
    let mut v: Vec<Space> = (0..data.pieces.len())
        .filter(|&u| data.pieces[u].side == side && data.pieces[u].kind == Kind::Army)
        .filter(|&u| crate::operations::in_supply(g, u as u16))
        .filter_map(|u| g.at(u))
        .filter(|&s| g.pos.space(s).trench.is_none())
        .collect();
    v.sort();
    v.dedup();
    v
}

// ---- The choice of a space (Frame::EventPlace) ----

/// The spaces an event lets its player choose for its marker or the first of `units`.
pub(crate) fn event_spaces(g: &PathsOfGlory, side: Side, card: u8, _units: &[u16]) -> Vec<Space> {
    match (side, card) {
        (Side::Ap, ENTRENCH_AP) | (Side::Cp, ENTRENCH_CP) => entrench_spaces(g, side),
        _ => Vec::new(),
    }
}

/// Whether an event's player may choose this space.
pub(crate) fn check_event_place(
    g: &PathsOfGlory,
    side: Side,
    card: u8,
    units: &[u16],
    at: Space,
) -> Result<(), Refusal> {
    if event_spaces(g, side, card, units).contains(&at) {
        return Ok(());
    }
    let (rule, en, zh) = match (side, card) {
        (Side::Ap, ENTRENCH_AP) | (Side::Cp, ENTRENCH_CP) => (
            format!("{} #{card}", side_code(side)),
            "the trench goes in a space holding a friendly army in supply, with no trench yet",
            "战壕须放在有己方补给中集团军且尚无战壕的区域",
        ),
        _ => (
            "9.5".to_string(),
            "that space is not one the event allows",
            "该事件不允许选择这个区域",
        ),
    };
    Err(PathsOfGlory::refuse(&rule, en, zh))
}

/// The player's choice for an event: its marker or its first unit goes there.
pub(crate) fn event_place(g: &mut PathsOfGlory, side: Side, card: u8, _units: Vec<u16>, at: Option<Space>) {
    let Some(s) = at else { return };
    if let (Side::Ap, ENTRENCH_AP) | (Side::Cp, ENTRENCH_CP) = (side, card) {
        g.pos.spaces[s.idx()].trench = Some(Trench { side, level: 1 });
        let n = g.name(s);
        g.journal.say(|| {
            Text::new(
                format!("A level-1 trench is dug in {} ({} #{card})", n.en, side_code(side)),
                format!("{}获得1级战壕({} #{card})", n.zh, side_code(side)),
            )
        });
    }
}

/// What choosing a space does, for the action's description.
pub(crate) fn describe_event_place(g: &PathsOfGlory, side: Side, card: u8, _units: &[u16], at: Space) -> Text {
    let n = g.name(at);
    match (side, card) {
        (Side::Ap, ENTRENCH_AP) | (Side::Cp, ENTRENCH_CP) => {
            Text::new(format!("Level-1 trench in {}", n.en), format!("在{}放置1级战壕", n.zh))
        }
        _ => Text::new(format!("Place at {}", n.en), format!("放置于{}", n.zh)),
    }
}

fn side_code(side: Side) -> &'static str {
    match side {
        Side::Ap => "AP",
        Side::Cp => "CP",
    }
}

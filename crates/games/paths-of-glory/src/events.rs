//! 9.5 Events: a card played for its event does what it says, raises its side's War Status and
//! the Combined War Status by its number (9.5.1.3), and leaves the game if it is a `*` card
//! (9.5.1.2). So far the neutral entries of Italy, Romania, Greece and Bulgaria (9.5.2: one a
//! turn, both players together) and the reinforcement events (9.5.3) are played: each nation once a turn, never
//! on August 1914 (9.5.3.1), its corps to the Reserve Box (9.5.3.2) and its armies placed by the
//! player where 9.5.3.3 allows. The cards whose units are placed "as the card says" (the MEF,
//! NE, CAU and Orient armies, the ANA and Senussi corps) and the American ones (16.3) come with
//! the other events.

use crate::data::{Kind, Nation, Side};
use crate::game::{Frame, PathsOfGlory};
use crate::placement;
use crate::sequence::{side_en, side_zh};
use crate::state::{side_index, Location};
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// Counters a card places "as the card says", which the generic reinforcement does not.
const PLACED_AS_THE_CARD_SAYS: [&str; 6] = [
    "br-army-mef",
    "br-army-ne",
    "ru-army-cau",
    "fr-army-orient",
    "ana-corps",
    "sn-corps",
];

/// The counters a reinforcement card brings now: for each unit it lists, a counter of that
/// designation still aside (the corps of a designation are alike). `None` for a card that is not
/// a reinforcement.
fn reinforcements(g: &PathsOfGlory, side: Side, card: u8) -> Option<(Nation, Vec<usize>)> {
    let data = g.data();
    let r = data.card(side, card)?.reinforcements.as_ref()?;
    let mut taken: Vec<usize> = Vec::new();
    for label in &r.units {
        let found = (0..data.pieces.len()).find(|&i| {
            let p = &data.pieces[i];
            p.side == side
                && &p.label == label
                && (p.nation == r.nation || p.activates_as == Some(r.nation))
                && g.pos.units[i].loc == Location::Aside
                && !taken.contains(&i)
        });
        if let Some(i) = found {
            taken.push(i);
        }
    }
    Some((r.nation, taken))
}

/// 9.5.2.1: the cards that bring a neutral nation into the war, with its code.
fn neutral_entry(side: Side, card: u8) -> Option<&'static str> {
    match (side, card) {
        (Side::Ap, 16) => Some("ro"),
        (Side::Ap, 17) => Some("it"),
        (Side::Ap, 44) => Some("gr"),
        (Side::Cp, 34) => Some("bu"),
        _ => None,
    }
}

/// A country's name from its code, in both languages.
fn country(code: &str) -> Text {
    Nation::of_code(code).map_or_else(|| Text::new(code, code), Nation::name)
}

/// 9.5.2: whether a neutral entry may be played now.
fn check_entry(g: &PathsOfGlory, code: &str) -> Result<(), Refusal> {
    if !g.pos.neutral.iter().any(|n| n == code) {
        return Err(PathsOfGlory::refuse(
            "9.5.2.1",
            format!("{} is already at war", country(code).en),
            format!("{}已经参战", country(code).zh),
        ));
    }
    if g.turn.neutral_entry {
        return Err(PathsOfGlory::refuse(
            "9.5.2.2",
            "only one neutral nation enters the war a turn, both players together",
            "每回合双方合计只能有一个中立国参战",
        ));
    }
    Ok(())
}

/// Whether a card's event may be played now, and why not.
pub(crate) fn check(g: &PathsOfGlory, side: Side, card: u8) -> Result<(), Refusal> {
    let data = g.data();
    if data.card(side, card).is_some_and(|c| c.combat) {
        let name = g.card_name(side, card);
        return Err(PathsOfGlory::refuse(
            "9.5.4.1",
            format!(
                "{} is a combat card: its event is played during a combat (12.2.5), not for an action round",
                name.en
            ),
            format!("{}是战斗卡:其事件在会战中打出(12.2.5),不能作为行动轮的行动", name.zh),
        ));
    }
    if let Some(code) = neutral_entry(side, card) {
        return check_entry(g, code);
    }
    let Some((nation, units)) = reinforcements(g, side, card) else {
        let name = g.card_name(side, card);
        return Err(PathsOfGlory::refuse(
            "9.5.1",
            format!(
                "the event of {} is not yet played in Sandtable: play the card for OPS, SR or replacement points",
                name.en
            ),
            format!("沙盘尚未实现{}的事件:请将此牌用于作战、战略调动或补充点", name.zh),
        ));
    };
    let special = units
        .iter()
        .any(|&u| PLACED_AS_THE_CARD_SAYS.contains(&data.pieces[u].id.as_str()));
    if special || nation == Nation::Us {
        let name = g.card_name(side, card);
        return Err(PathsOfGlory::refuse(
            "9.5.3",
            format!(
                "the event of {} (its units placed as the card says, or American) is not yet played in Sandtable",
                name.en
            ),
            format!("沙盘尚未实现{}的事件(按卡牌说明放置或美国部队)", name.zh),
        ));
    }
    if g.pos.turn == 1 {
        return Err(PathsOfGlory::refuse(
            "9.5.3.1",
            "no reinforcement event in the August 1914 turn",
            "1914年8月回合不能打出增援事件",
        ));
    }
    if g.turn.reinforced.contains(&nation) {
        return Err(PathsOfGlory::refuse(
            "9.5.3.1",
            format!("{} has already been reinforced this turn", nation.name().en),
            format!("{}本回合已经增援过", nation.name().zh),
        ));
    }
    if units.is_empty() {
        return Err(PathsOfGlory::refuse(
            "9.5.3",
            "the units this card brings are already in play",
            "这张牌带来的单位已经在游戏中",
        ));
    }
    // 9.5.3.1 (2022): not unless all its armies can be placed, stacking included.
    let armies: Vec<u16> = units
        .iter()
        .filter(|&&u| data.pieces[u].kind == Kind::Army)
        .map(|&u| u as u16)
        .collect();
    if !all_placeable(g, &g.pos, &armies) {
        return Err(PathsOfGlory::refuse(
            "9.5.3.1",
            format!("{} has no legal space to place the armies", nation.name().en),
            format!("{}没有可以放置集团军的合法区域", nation.name().zh),
        ));
    }
    Ok(())
}

/// Plays the event of a card already taken from the hand.
pub(crate) fn carry_out(g: &mut PathsOfGlory, side: Side, card: u8) {
    let data = g.data();
    let Some(c) = data.card(side, card) else { return };
    // 9.5.1.3: the War Status number.
    if c.ws > 0 {
        let i = side_index(side);
        g.pos.war_status[i] = g.pos.war_status[i].saturating_add(c.ws);
        let (ws, now) = (c.ws, g.pos.war_status[i]);
        g.journal.say(|| {
            Text::new(
                format!("{} War Status +{ws}: {now} (9.5.1.3)", side_en(side)),
                format!("{}战争状态+{ws}:{now}(9.5.1.3)", side_zh(side)),
            )
        });
    }
    if let Some(code) = neutral_entry(side, card) {
        g.turn.neutral_entry = true;
        let (setup, historical) = (g.setup_data(), g.scenario.historical);
        let chosen = setup
            .enter(data, &mut g.pos, code, historical, false)
            .unwrap_or_default();
        g.journal.say(|| {
            Text::new(
                format!("{} enters the war (9.5.2.1)", country(code).en),
                format!("{}参战(9.5.2.1)", country(code).zh),
            )
        });
        let units: Vec<u16> = chosen
            .iter()
            .filter_map(|id| data.pieces.iter().position(|p| &p.id == id))
            .map(|u| u as u16)
            .collect();
        if !units.is_empty() {
            g.engine.push(Frame::EntryChoice {
                side,
                nation: code.to_string(),
                units,
            });
        }
        return;
    }
    let Some((nation, units)) = reinforcements(g, side, card) else {
        return;
    };
    g.turn.reinforced.push(nation);
    let mut armies = Vec::new();
    for u in units {
        let name = g.unit_name(u as u16);
        if data.pieces[u].kind == Kind::Corps {
            g.pos.units[u] = crate::state::Unit {
                loc: Location::Reserve,
                full: true,
            };
            g.journal.say(|| {
                Text::new(
                    format!("{} enters the Reserve Box (9.5.3.2)", name.en),
                    format!("{}进入预备队格(9.5.3.2)", name.zh),
                )
            });
        } else {
            armies.push(u as u16);
        }
    }
    if !armies.is_empty() {
        g.engine.push(Frame::Reinforce { side, units: armies });
    }
}

/// Whether all of `armies` can be placed where 9.5.3.3 allows, together (each taking room).
fn all_placeable(g: &PathsOfGlory, pos: &crate::state::Position, armies: &[u16]) -> bool {
    let Some((&first, rest)) = armies.split_first() else {
        return true;
    };
    let ctx = crate::sequence::placement_context(g);
    placement::army_spaces(g.data(), pos, first as usize, &ctx)
        .into_iter()
        .any(|s| {
            let mut after = pos.clone();
            after.units[first as usize].loc = Location::Map(s);
            all_placeable(g, &after, rest)
        })
}

/// The spaces the first of a reinforcement's armies may be placed in (9.5.3.3), leaving room for
/// the others (9.5.3.1).
pub(crate) fn spaces(g: &PathsOfGlory, units: &[u16]) -> Vec<Space> {
    let Some((&first, rest)) = units.split_first() else {
        return Vec::new();
    };
    placement::army_spaces(g.data(), &g.pos, first as usize, &crate::sequence::placement_context(g))
        .into_iter()
        .filter(|&s| {
            let mut after = g.pos.clone();
            after.units[first as usize].loc = Location::Map(s);
            all_placeable(g, &after, rest)
        })
        .collect()
}

/// Puts a unit entering the map in the space chosen for it (full strength), or leaves it out of
/// play when none was left, saying so under `rule`.
fn put(g: &mut PathsOfGlory, u: u16, at: Option<Space>, rule: &str) {
    let name = g.unit_name(u);
    match at {
        Some(s) => {
            g.pos.units[u as usize] = crate::state::Unit {
                loc: Location::Map(s),
                full: true,
            };
            let n = g.name(s);
            g.journal.say(|| {
                Text::new(
                    format!("{} enters at {} ({rule})", name.en, n.en),
                    format!("{}在{}进场({rule})", name.zh, n.zh),
                )
            });
        }
        None => g.journal.say(|| {
            Text::new(
                format!("{} has no legal space left and stays out of play ({rule})", name.en),
                format!("{}已无合法区域,留在场外({rule})", name.zh),
            )
        }),
    }
}

/// 9.5.3.3: the army is placed, the next one waits its turn.
pub(crate) fn place(g: &mut PathsOfGlory, side: Side, mut units: Vec<u16>, at: Option<Space>) {
    if units.is_empty() {
        return;
    }
    put(g, units.remove(0), at, "9.5.3.3");
    if !units.is_empty() {
        g.engine.push(Frame::Reinforce { side, units });
    }
}

/// The spaces a nation's unit placed by choice on its entry may go to (Bulgaria, Romania).
pub(crate) fn entry_spaces(g: &PathsOfGlory, nation: &str) -> Vec<Space> {
    g.setup_data().choice_spaces(g.data(), &g.pos, nation)
}

/// 9.5.2.1: the first unit of an entry's choice is placed, the next waits its turn.
pub(crate) fn place_entry(g: &mut PathsOfGlory, side: Side, nation: String, mut units: Vec<u16>, at: Option<Space>) {
    if units.is_empty() {
        return;
    }
    put(g, units.remove(0), at, "9.5.2.1");
    if !units.is_empty() {
        g.engine.push(Frame::EntryChoice { side, nation, units });
    }
}

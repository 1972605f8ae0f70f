//! 9.5 Events: a card played for its event does what it says (each kind of event in its own
//! module below), raises its side's War Status and the Combined War Status by its number
//! (9.5.1.3), and leaves the game if it is a `*` card (9.5.1.2). Combat cards (9.5.4) are played
//! in a combat, not here: `crate::combat_cards`.
//!
//! Each module answers for the cards it knows: `check` and `carry_out` give `None`/`false` for a
//! card that is not theirs, and `text` is our own short text of each card's event.

mod arrivals;
mod entries;
mod front;
mod reinforcements;
mod war;

pub(crate) use arrivals::{
    check_event_concede, check_event_place, check_event_redeploy, check_event_replace, counts_as_sr,
    describe_event_place, event_concede, event_concede_candidates, event_place, event_redeploy,
    event_redeploy_candidates, event_replace, event_replace_candidates, event_spaces, historical_first_action,
};
pub(crate) use entries::{entry_spaces, place_entry};
pub(crate) use front::{
    activation_events, activation_terms, activation_terms_read_activated, activation_terms_with, attack_barred,
    attack_declared, great_retreat_offered, oberost, retreat_before_combat, ActivationEvents,
};
pub(crate) use reinforcements::{place, spaces};
pub(crate) use war::{
    brest_litovsk_barred, brest_litovsk_refusal, check_peace_offer, mutiny_attack, offensive_events, offer_peace,
    over_there, replacement_points, tsar_fell, war_candidates, war_carry_out, war_check, war_status_vp,
};
pub use war::{ending, russian_track, us_track};

use crate::data::Side;
use crate::game::PathsOfGlory;
use crate::sequence::{side_en, side_zh};
use crate::state::{side_index, Location};
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// Whether a card's event may be played now, and why not.
pub(crate) fn check(g: &PathsOfGlory, side: Side, card: u8) -> Result<(), Refusal> {
    let data = g.data();
    if data.card(side, card).is_some_and(|c| c.combat) {
        return Err(PathsOfGlory::refuse_with("9.5.4.1", || {
            let name = g.card_name(side, card);
            Text::new(
                format!(
                    "{} is a combat card: its event is played during a combat (12.2.5), not for an action round",
                    name.en
                ),
                format!("{}是战斗卡:其事件在会战中打出(12.2.5),不能作为行动轮的行动", name.zh),
            )
        }));
    }
    let answer = entries::check(g, side, card)
        .or_else(|| reinforcements::check(g, side, card))
        .or_else(|| arrivals::check(g, side, card))
        .or_else(|| front::check(g, side, card))
        .or_else(|| war::check(g, side, card));
    answer.unwrap_or_else(|| {
        Err(PathsOfGlory::refuse_with("9.5.1", || {
            let name = g.card_name(side, card);
            Text::new(
                format!(
                    "the event of {} is not yet played in Sandtable: play the card for OPS, SR or replacement points",
                    name.en
                ),
                format!("沙盘尚未实现{}的事件:请将此牌用于作战、战略调动或补充点", name.zh),
            )
        }))
    })
}

/// Plays the event of a card already taken from the hand.
pub(crate) fn carry_out(g: &mut PathsOfGlory, side: Side, card: u8) {
    let Some(c) = g.data().card(side, card) else { return };
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
    // VP Table (supplement 6.6; seed 5.1.2 leaves the changes to the player aid's table): in the
    // Introductory scenario any `*` event moves the VP a step toward its side (edition 7).
    if c.remove && g.scenario.introductory && g.scenario.edition >= 7 {
        let by = if side == Side::Cp { 1 } else { -1 };
        g.pos.vp += by;
        let vp = g.pos.vp;
        g.journal.say(|| {
            Text::new(
                format!("An event marked * in the Introductory scenario: VP {by:+}, now {vp} (VP Table, 5.1.2)"),
                format!("体验剧本中标有*的事件:胜利点{by:+},现为{vp}(胜利点表,5.1.2)"),
            )
        });
    }
    let _ = entries::carry_out(g, side, card)
        || reinforcements::carry_out(g, side, card)
        || arrivals::carry_out(g, side, card)
        || front::carry_out(g, side, card)
        || war::carry_out(g, side, card);
}

/// Our short text of a card's event, in both languages; `None` where it is not yet written.
pub fn text(data: &crate::data::Data, side: Side, card: u8) -> Option<Text> {
    crate::combat_cards::text(side, card)
        .or_else(|| entries::text(side, card))
        .or_else(|| reinforcements::text(data, side, card))
        .or_else(|| arrivals::text(side, card))
        .or_else(|| front::text(side, card))
        .or_else(|| war::text(side, card))
}

/// Whether a side's `*` event has been played: it is out of the game (9.5.1.2). Every event
/// another card or rule waits for ("may only be played after …") is a `*` card.
pub(crate) fn played(g: &PathsOfGlory, side: Side, card: u8) -> bool {
    g.pos.cards[side_index(side)].removed.contains(&card)
}

/// Puts a unit entering the map in the space chosen for it (full strength), or leaves it out of
/// play when none was left, saying so under `rule`.
pub(super) fn put(g: &mut PathsOfGlory, u: u16, at: Option<Space>, rule: &str) {
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

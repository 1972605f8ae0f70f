//! 9.5.3 Reinforcement events: each nation once a turn, never in August 1914 (9.5.3.1), its
//! corps to the Reserve Box (9.5.3.2) and its armies placed by the player where 9.5.3.3 allows.
//! The cards whose units are placed "as the card says" (the MEF, NE, CAU and Orient armies, the
//! ANA and Senussi corps) are played in [`super::arrivals`]; the American ones wait for Over
//! There (16.3, `war::check_us_reinforcements`) and enter as any other.

use crate::data::{Kind, Nation, Side};
use crate::game::{Frame, PathsOfGlory};
use crate::placement;
use crate::state::Location;
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// The counters a reinforcement card brings now: for each unit it lists, a counter of that
/// designation still aside (the corps of a designation are alike). `None` for a card that is not
/// a reinforcement.
pub(super) fn reinforcements(g: &PathsOfGlory, side: Side, card: u8) -> Option<(Nation, Vec<usize>)> {
    let data = g.data();
    let r = data.card(side, card)?.reinforcements.as_ref()?;
    let mut taken: Vec<usize> = Vec::with_capacity(r.counters.len());
    // The counters of each designation the card lists (of its side and nation), in data order.
    for labelled in &r.counters {
        let found = labelled
            .iter()
            .map(|&i| usize::from(i))
            .find(|&i| g.pos.units.get(i).is_some_and(|u| u.loc == Location::Aside) && !taken.contains(&i));
        if let Some(i) = found {
            taken.push(i);
        }
    }
    Some((r.nation, taken))
}

/// 9.5.3: whether a reinforcement card's event may be played now, and why not; `None` for a card
/// that is not a reinforcement.
pub(super) fn check(g: &PathsOfGlory, side: Side, card: u8) -> Option<Result<(), Refusal>> {
    if super::arrivals::placed_as_the_card_says(side, card) {
        return None;
    }
    let (nation, units) = reinforcements(g, side, card)?;
    Some(check_units(g, nation, &units))
}

fn check_units(g: &PathsOfGlory, nation: Nation, units: &[usize]) -> Result<(), Refusal> {
    let data = g.data();
    // 16.3: the American cards wait for Over There (and Convoy after U-Boats Unleashed).
    if nation == Nation::Us {
        super::war::check_us_reinforcements(g)?;
    }
    check_turn(g, nation, units)?;
    // 9.5.3.1 (2022): not unless all its armies can be placed, stacking included.
    let armies: Vec<u16> = units
        .iter()
        .filter(|&&u| data.pieces[u].kind == Kind::Army)
        .map(|&u| u as u16)
        .collect();
    if !all_placeable(g, &mut Vec::new(), &armies) {
        return Err(PathsOfGlory::refuse(
            "9.5.3.1",
            format!("{} has no legal space to place the armies", nation.name().en),
            format!("{}没有可以放置集团军的合法区域", nation.name().zh),
        ));
    }
    Ok(())
}

/// 9.5.3.1: no reinforcement in August 1914, each nation once a turn; and a card whose units
/// are all in play brings nothing.
pub(super) fn check_turn(g: &PathsOfGlory, nation: Nation, units: &[usize]) -> Result<(), Refusal> {
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
    Ok(())
}

/// 9.5.3.2, 9.5.3.3: a reinforcement card's corps go to the Reserve Box and its armies wait to
/// be placed. `false` for a card that is not a reinforcement.
pub(super) fn carry_out(g: &mut PathsOfGlory, side: Side, card: u8) -> bool {
    if super::arrivals::placed_as_the_card_says(side, card) {
        return false;
    }
    let data = g.data();
    let Some((nation, units)) = reinforcements(g, side, card) else {
        return false;
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
    true
}

/// Whether all of `armies` can be placed where 9.5.3.3 allows, together (each taking room),
/// with the armies of `placed` already set down in their spaces.
fn all_placeable(g: &PathsOfGlory, placed: &mut Vec<Space>, armies: &[u16]) -> bool {
    let Some((&first, rest)) = armies.split_first() else {
        return true;
    };
    let ctx = crate::sequence::placement_context(g);
    // The last army: any space will do.
    if rest.is_empty() {
        return placement::any_army_space_after(g.data(), &g.pos, first as usize, &ctx, placed);
    }
    placement::army_spaces_after(g.data(), &g.pos, first as usize, &ctx, placed)
        .into_iter()
        .any(|s| {
            placed.push(s);
            let ok = all_placeable(g, placed, rest);
            placed.pop();
            ok
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
        .filter(|&s| all_placeable(g, &mut vec![s], rest))
        .collect()
}

/// 9.5.3.3: the army is placed, the next one waits its turn.
pub(crate) fn place(g: &mut PathsOfGlory, side: Side, mut units: Vec<u16>, at: Option<Space>) {
    if units.is_empty() {
        return;
    }
    super::put(g, units.remove(0), at, "9.5.3.3");
    if !units.is_empty() {
        g.engine.push(Frame::Reinforce { side, units });
    }
}

/// Our short text of the reinforcements' events, in both languages.
pub(super) fn text(data: &crate::data::Data, side: Side, card: u8) -> Option<Text> {
    let c = data.card(side, card)?;
    let r = c.reinforcements.as_ref()?;
    if super::arrivals::placed_as_the_card_says(side, card) || r.nation == Nation::Us {
        return None;
    }
    // The armies by name (the first counter of each designation), the corps counted.
    let mut armies: Vec<Text> = Vec::new();
    let mut corps = 0;
    for label in &r.units {
        let p = data.pieces.iter().find(|p| {
            p.side == side && &p.label == label && (p.nation == r.nation || p.activates_as == Some(r.nation))
        });
        match p {
            Some(p) if p.kind == Kind::Army => armies.push(Text::new(p.name_en.clone(), p.name_zh.clone())),
            Some(_) => corps += 1,
            None => {}
        }
    }
    let nation = r.nation.name();
    let mut en = format!("Reinforcements for {} (9.5.3):", nation.en);
    let mut zh = format!("{}增援(9.5.3):", nation.zh);
    if !armies.is_empty() {
        let (ae, az): (Vec<&str>, Vec<&str>) = armies.iter().map(|t| (t.en.as_str(), t.zh.as_str())).unzip();
        en.push_str(&format!(
            " {} placed in a capital or supply source of its own country (9.5.3.3);",
            ae.join(" and ")
        ));
        zh.push_str(&format!("{}放置在本国首都或补给源(9.5.3.3);", az.join("和")));
    }
    if corps > 0 {
        en.push_str(&format!(" {corps} corps to the Reserve Box (9.5.3.2);",));
        zh.push_str(&format!("{corps}个军进入预备队格(9.5.3.2);"));
    }
    en.push_str(" not in August 1914, once a turn for each nation (9.5.3.1).");
    zh.push_str("1914年8月不可打出,每个国家每回合一次(9.5.3.1)。");
    Some(Text::new(en, zh))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::Game;

    /// 9.5.3.1 as it was first worked out: each army set down in a copy of the position, the
    /// next one's spaces asked of that copy.
    fn placeable_in_copies(g: &PathsOfGlory, pos: &crate::state::Position, armies: &[u16]) -> bool {
        let Some((&first, rest)) = armies.split_first() else {
            return true;
        };
        let ctx = crate::sequence::placement_context(g);
        placement::army_spaces(g.data(), pos, first as usize, &ctx)
            .into_iter()
            .any(|s| {
                let mut after = pos.clone();
                after.units[first as usize].loc = Location::Map(s);
                placeable_in_copies(g, &after, rest)
            })
    }

    /// 9.5.3.1, 9.5.3.3: at every decision of random campaigns, for every reinforcement card of
    /// either side with armies to place, whether they can all be placed and where the first may
    /// go are what setting each army down in a copy of the position says; likewise with the
    /// card's armies in reverse order and with each army asked twice (more armies than room).
    #[test]
    fn the_armies_set_down_in_place_agree_with_copies_of_the_position_at_every_decision() {
        let (mut asked, mut placeable, mut full) = (0u64, 0u64, 0u64);
        for seed in 0..3 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 400, |g: &PathsOfGlory| {
                for side in [Side::Cp, Side::Ap] {
                    for card in g.data().cards.iter().filter(|c| c.side == side).map(|c| c.number) {
                        let Some((_, units)) = reinforcements(g, side, card) else {
                            continue;
                        };
                        let armies: Vec<u16> = units
                            .iter()
                            .filter(|&&u| g.data().pieces[u].kind == Kind::Army)
                            .map(|&u| u as u16)
                            .collect();
                        if armies.is_empty() {
                            continue;
                        }
                        let reversed: Vec<u16> = armies.iter().rev().copied().collect();
                        let twice: Vec<u16> = armies.iter().flat_map(|&a| [a, a]).collect();
                        for list in [&armies, &reversed, &twice] {
                            let copies = placeable_in_copies(g, &g.pos, list);
                            assert_eq!(all_placeable(g, &mut Vec::new(), list), copies, "{side:?} #{card}");
                            let first: Vec<Space> = placement::army_spaces(
                                g.data(),
                                &g.pos,
                                list[0] as usize,
                                &crate::sequence::placement_context(g),
                            )
                            .into_iter()
                            .filter(|&s| {
                                let mut after = g.pos.clone();
                                after.units[list[0] as usize].loc = Location::Map(s);
                                placeable_in_copies(g, &after, &list[1..])
                            })
                            .collect();
                            assert_eq!(spaces(g, list), first, "{side:?} #{card}");
                            asked += 1;
                            placeable += u64::from(copies);
                            full += u64::from(!copies && !first.is_empty());
                        }
                    }
                }
            })
            .expect("random play");
        }
        assert!(asked > 5_000 && placeable > 1_000, "{asked} {placeable} {full}");
    }
}

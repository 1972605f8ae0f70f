//! 11.2 Trenches: once a side has played Entrench, an army in a space activated for movement
//! may dig instead of moving (11.2.1); after movement a die per space: a roll no higher than the
//! army's LF places a level-1 trench or raises a level-1 to level 2 (11.2.2, 11.2.3). A trench
//! stays until an enemy unit enters: a level 1 is removed, a level 2 becomes the enemy's
//! level 1 (11.2.4–11.2.6).

use crate::data::Side;
use crate::state::Trench;

/// 11.2.2, 11.2.3: the trench after a digging roll of `die` (modified by `drm`, the optional
/// 11.2.9/2022 11.2.10 −1) by an army of loss factor `lf` of `side` in a space holding
/// `trench`. A failed roll changes nothing; a side digs only where no enemy trench is.
pub fn dig(trench: Option<Trench>, side: Side, lf: u8, die: u8, drm: i32) -> Option<Trench> {
    let success = die as i32 + drm <= lf as i32;
    match trench {
        _ if !success => trench,
        None => Some(Trench { side, level: 1 }),
        Some(Trench { side: s, level: 1 }) if s == side => Some(Trench { side, level: 2 }),
        other => other,
    }
}

/// 11.2.4–11.2.6: the trench once a unit of `entering` comes into the space: a level-1 enemy
/// trench is removed, a level-2 one becomes the entering side's level 1; its own stays.
pub fn entered(trench: Option<Trench>, entering: Side) -> Option<Trench> {
    match trench {
        Some(Trench { side, level: 2 }) if side != entering => Some(Trench {
            side: entering,
            level: 1,
        }),
        Some(Trench { side, .. }) if side != entering => None,
        kept => kept,
    }
}

// ---- Digging on the driver (11.2.1, 11.2.2) ----

use crate::data::{Kind, Nation};
use crate::game::{Action, Frame, PathsOfGlory};
use sandtable_core::game::Refusal;
use sandtable_core::text::Text;

/// 11.2.1: armies may dig once either side has played its Entrench event (AP #12, CP #6).
pub(crate) fn open(g: &PathsOfGlory) -> bool {
    crate::events::played(g, Side::Ap, 12) || crate::events::played(g, Side::Cp, 6)
}

/// 11.2.1: the armies of the spaces activated for movement that may dig now.
pub(crate) fn dig_candidates(g: &PathsOfGlory, side: Side, out: &mut Vec<Action>) {
    if !open(g) {
        return;
    }
    for &(s, combat) in &g.action.activated {
        if combat {
            continue;
        }
        // The side's units there (the enemy's would be refused): where they lie while a list is
        // made.
        for u in g.units_of_side(side, s) {
            let unit = u as u16;
            if g.data().pieces[u].kind == Kind::Army && check_dig(g, side, unit).is_ok() {
                out.push(Action::Dig { unit });
            }
        }
    }
}

/// 11.2.1, 11.2.3, 14.3.3: whether an army may dig instead of moving.
pub(crate) fn check_dig(g: &PathsOfGlory, side: Side, unit: u16) -> Result<(), Refusal> {
    fn refuse(rule: &str, en: impl Into<String>, zh: impl Into<String>) -> Refusal {
        PathsOfGlory::refuse(rule, en, zh)
    }
    if !open(g) {
        return Err(refuse(
            "11.2.1",
            "no army digs trenches until either side has played its Entrench event",
            "任一方打出“挖掘战壕”事件之前,集团军不能挖掘战壕",
        ));
    }
    let data = g.data();
    let Some(p) = data.pieces.get(unit as usize) else {
        return Err(refuse("11.2.1", "no such unit", "没有这个单位"));
    };
    if p.side != side {
        return Err(refuse("11.2.1", "that unit is the enemy's", "那是敌方单位"));
    }
    if p.kind != Kind::Army {
        return Err(refuse("11.2.1", "only an army digs trenches", "只有集团军可以挖掘战壕"));
    }
    let Some(s) = g.at(unit as usize) else {
        return Err(refuse("11.2.1", "that unit is not on the map", "该单位不在地图上"));
    };
    // The refusals below name the space or the army, written only when they may be read.
    let named = |rule: &str, en: &dyn Fn(&str) -> String, zh: &dyn Fn(&str) -> String| {
        PathsOfGlory::refuse_with(rule, || {
            let n = g.name(s);
            Text::new(en(&n.en), zh(&n.zh))
        })
    };
    if !g.action.activated.contains(&(s, false)) {
        return Err(named(
            "11.2.1",
            &|n| format!("{n} is not activated for movement"),
            &|n| format!("{n}未被激活用于移动"),
        ));
    }
    if g.action.moved.contains(&unit) {
        return Err(PathsOfGlory::refuse_with("11.2.1", || {
            Text::new(
                format!("{} has already moved or dug in this action", p.name_en),
                format!("{}本次行动已经移动或挖掘过", p.name_zh),
            )
        }));
    }
    if g.action.digging.iter().any(|&d| g.at(d as usize) == Some(s)) {
        return Err(named(
            "11.2.1",
            &|n| format!("an army already digs in {n}: one a space"),
            &|n| format!("{n}已有集团军在挖掘:每个区域一个"),
        ));
    }
    match g.pos.space(s).trench {
        Some(t) if t.side != side => {
            return Err(named(
                "11.2.3",
                &|n| format!("{n} holds an enemy trench: a space holds one trench marker"),
                &|n| format!("{n}有敌方战壕:每个区域只能有一个战壕标记"),
            ))
        }
        Some(t) if t.level >= 2 => {
            return Err(named(
                "11.2.3",
                &|n| format!("{n} already holds a level-2 trench, the highest"),
                &|n| format!("{n}已有2级战壕(最高等级)"),
            ))
        }
        _ => {}
    }
    if !crate::operations::in_supply(g, unit) {
        return Err(PathsOfGlory::refuse_with("14.3.3", || {
            Text::new(
                format!("{} is out of supply and cannot dig", p.name_en),
                format!("{}缺乏补给,不能挖掘战壕", p.name_zh),
            )
        }));
    }
    Ok(())
}

/// 11.2.1: the army digs instead of moving; its roll comes after all movement.
pub(crate) fn begin_dig(g: &mut PathsOfGlory, unit: u16) {
    g.action.digging.push(unit);
    g.action.moved.push(unit);
    let n = g.unit_name(unit);
    g.journal.say(|| {
        Text::new(
            format!("{} digs instead of moving (11.2.1)", n.en),
            format!("{}挖掘战壕而不移动(11.2.1)", n.zh),
        )
    });
}

/// 11.2.2: after all movement, a die for each army that dug.
pub(crate) fn rolls(g: &mut PathsOfGlory, side: Side) {
    for unit in std::mem::take(&mut g.action.digging).into_iter().rev() {
        g.engine.push(Frame::Dig { side, unit });
    }
}

/// 11.2.2, 11.2.3: a roll no higher than the army's LF places a level-1 trench or raises a
/// level 1 to level 2. 2022 11.2.10 (in force in the Historical scenario, 5.7.4.2): a German,
/// British, French or Italian unit that failed gets −1 to its next attempt.
pub(crate) fn roll(g: &mut PathsOfGlory, side: Side, unit: u16, face: u8) {
    let data = g.data();
    let (Some(p), Some(s)) = (data.pieces.get(unit as usize), g.at(unit as usize)) else {
        return;
    };
    let st = g.pos.units[unit as usize];
    let lf = if st.full { p.full.lf } else { p.reduced.lf };
    let optional = g.scenario.historical;
    let had_marker = optional && g.pos.dig_failed.contains(&unit);
    g.pos.dig_failed.retain(|&u| u != unit);
    let drm = if had_marker { -1 } else { 0 };
    let before = g.pos.space(s).trench;
    let after = dig(before, side, lf, face, drm);
    g.pos.spaces[s.idx()].trench = after;
    let n = g.name(s);
    let m = if had_marker { " −1 (11.2.10)" } else { "" };
    if after != before {
        let level = after.map_or(0, |t| t.level);
        g.journal.say(|| {
            Text::new(
                format!(
                    "Digging roll {face}{m} against LF {lf}: a level-{level} trench in {} (11.2.2)",
                    n.en
                ),
                format!("挖掘掷骰{face}{m},对比损失系数{lf}:{}获得{level}级战壕(11.2.2)", n.zh),
            )
        });
    } else {
        if optional && matches!(p.nation, Nation::Ge | Nation::Br | Nation::Fr | Nation::It) {
            g.pos.dig_failed.push(unit);
        }
        g.journal.say(|| {
            Text::new(
                format!("Digging roll {face}{m} against LF {lf}: no trench in {} (11.2.2)", n.en),
                format!("挖掘掷骰{face}{m},对比损失系数{lf}:{}未能挖成战壕(11.2.2)", n.zh),
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::Game;

    /// 11.2.1: at every Movement decision of random campaigns (Entrench played for both sides),
    /// the armies listed to dig, read from the side's units where they lie, are those of every
    /// counter in the spaces activated for movement that the check lets dig; and the check's
    /// refusals, words and all, are those it gives outside a list.
    #[test]
    fn the_armies_listed_to_dig_are_those_the_check_keeps_at_every_decision() {
        let (mut lists, mut digs, mut refused) = (0u64, 0u64, 0u64);
        for seed in 0..6 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 3_000, |g: &PathsOfGlory| {
                let Some(Frame::Movement { side }) = g.engine.top().cloned() else {
                    return;
                };
                let mut g = g.clone();
                for (s, card) in [(Side::Ap, 12), (Side::Cp, 6)] {
                    g.pos.cards[crate::state::side_index(s)].removed.push(card);
                }
                let mut listed = Vec::new();
                {
                    let _trust = g.kept.trust(g.data(), &g.pos);
                    let _listing = crate::game::Listing::begin();
                    dig_candidates(&g, side, &mut listed);
                }
                let mut kept = Vec::new();
                for &(s, combat) in &g.action.activated {
                    if combat {
                        continue;
                    }
                    for u in g.pos.units_in(s) {
                        let unit = u as u16;
                        match check_dig(&g, side, unit) {
                            Ok(()) if g.data().pieces[u].kind == Kind::Army => kept.push(Action::Dig { unit }),
                            Ok(()) => {}
                            Err(r) => {
                                assert!(!r.rule.is_empty() && !r.text.en.is_empty(), "{r:?}");
                                refused += 1;
                            }
                        }
                    }
                }
                assert_eq!(listed, kept);
                lists += 1;
                digs += listed.len() as u64;
            })
            .expect("random play");
        }
        assert!(lists > 200 && digs > 200 && refused > 100, "{lists} {digs} {refused}");
    }
}

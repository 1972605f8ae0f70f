//! 12.2 What a combat will be before its dice: the units on each side, each side's strength
//! (12.2.3), the Fire Table and column it reads and the shifts that move it (12.2.7), the
//! modifiers of its roll (12.2.6), the flank roll (12.3.3), and the loss number each die would
//! give (12.2.8). Shown before a combat is chosen, joined, resolved, flanked or carded.

use crate::combat::Fire;
use crate::game::{other, Action, Battle, Frame, PathsOfGlory};
use crate::operations::{attack_spaces, eligible_attackers, fire_drms, fire_of, fort_lf, new_battle};
use crate::sequence::{side_en, side_zh};
use crate::state::side_index;
use crate::Side;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// The combat an action would lead to, and whether its attackers are only those that may join.
fn battle_after(g: &PathsOfGlory, action: &Action) -> Option<(Battle, bool)> {
    let frame = g.engine.frames().last()?;
    match (frame, action) {
        (Frame::Combats { side }, &Action::Target { space }) => {
            let mut b = new_battle(g, *side, space);
            b.attackers = eligible_attackers(g, *side, space);
            Some((b, true))
        }
        (Frame::Designate { .. }, &Action::Join { unit }) => {
            let mut b = g.action.battle.clone()?;
            b.attackers.push(unit);
            Some((b, false))
        }
        (Frame::Designate { .. }, Action::Resolve)
        | (Frame::FlankChoice { .. }, Action::Flank { .. })
        | (Frame::CombatCards { .. }, Action::EndCombatCards) => Some((g.action.battle.clone()?, false)),
        (Frame::CombatCards { side, .. }, &Action::CombatCard { card }) => {
            let mut b = g.action.battle.clone()?;
            b.cards[side_index(*side)].push(card);
            Some((b, false))
        }
        _ => None,
    }
}

/// The lines of a combat's forecast before the action is taken; empty for other actions.
pub(crate) fn preview(g: &PathsOfGlory, action: &Action) -> Vec<Text> {
    let Some((b, may_join)) = battle_after(g, action) else {
        return Vec::new();
    };
    let flank = match action {
        Action::Flank { pinning } => *pinning,
        _ => None,
    };
    forecast(g, &b, may_join, flank)
}

/// The combat being fought, for everyone beside the actions: where, and who decides what now;
/// while its attackers are designated, its flank chosen and its cards played (12.2.1's steps
/// before the dice) its forecast as it stands; once its dice are rolled, the loss numbers and the
/// losses taken. Empty at any other decision.
pub(crate) fn battle_context(g: &PathsOfGlory) -> Vec<Text> {
    let (Some(frame), Some(b)) = (g.engine.frames().last(), g.action.battle.as_ref()) else {
        return Vec::new();
    };
    let space = g.name(b.defending);
    let (en, zh): (String, String) = match frame {
        Frame::Designate { .. } => (
            "designating the attackers (12.2.2)".into(),
            "指定进攻部队(12.2.2)".into(),
        ),
        Frame::FlankChoice { .. } => (
            "the attacker may attempt a flank attack (12.3)".into(),
            "进攻方可尝试挟击(12.3)".into(),
        ),
        Frame::CombatCards { side, .. } if *side == b.attacker => (
            "the attacker may play combat cards (12.2.5)".into(),
            "进攻方可打出战斗牌(12.2.5)".into(),
        ),
        Frame::CombatCards { .. } => (
            "the defender may play combat cards (12.2.5)".into(),
            "防守方可打出战斗牌(12.2.5)".into(),
        ),
        Frame::TakeLosses { side } => {
            let Some(l) = b.losses.as_ref().map(|t| &t.losses) else {
                return Vec::new();
            };
            let (taken, left) = (l.taken(), l.remaining());
            (
                format!(
                    "the {} takes its losses: {taken} taken, {left} to take (12.4)",
                    side_en(*side)
                ),
                format!("{}承受损失:已承受{taken},尚余{left}(12.4)", side_zh(*side)),
            )
        }
        Frame::RetreatUnits { .. } => ("the defender retreats (12.5)".into(), "防守方撤退(12.5)".into()),
        Frame::AdvanceUnits { .. } => ("the attacker may advance (12.7)".into(), "进攻方可推进(12.7)".into()),
        _ => return Vec::new(),
    };
    let mut out = vec![Text::new(
        format!("Combat at {} by the {}: {en}", space.en, side_en(b.attacker)),
        format!("{}进攻{}:{zh}", side_zh(b.attacker), space.zh),
    )];
    if b.inflicted.iter().all(Option::is_none) {
        out.extend(forecast(g, b, false, None));
        return out;
    }
    // 12.2.8, 12.2.10: what each side's fire inflicted, and what each has taken so far.
    let (a, d) = (b.attacker, other(b.attacker));
    let number = |s: Side| b.inflicted[side_index(s)].map_or("–".to_string(), |n| n.to_string());
    out.push(Text::new(
        format!(
            "Loss numbers: the {} inflicts {}, the {} {} (12.2.8); losses taken: {} {}, {} {} (12.2.10)",
            side_en(a),
            number(a),
            side_en(d),
            number(d),
            side_en(a),
            b.taken[side_index(a)],
            side_en(d),
            b.taken[side_index(d)]
        ),
        format!(
            "损失数:{}造成{},{}造成{}(12.2.8);已承受损失:{}{},{}{}(12.2.10)",
            side_zh(a),
            number(a),
            side_zh(d),
            number(d),
            side_zh(a),
            b.taken[side_index(a)],
            side_zh(d),
            b.taken[side_index(d)]
        ),
    ));
    out
}

/// A combat's forecast: its sides, terrain, each side's table, column, shifts and modifiers with
/// the loss number of each die, and, for a flank attempt pinned from `flank`, the flank roll.
fn forecast(g: &PathsOfGlory, b: &Battle, may_join: bool, flank: Option<Space>) -> Vec<Text> {
    let tables = g.tables();
    let space = g.name(b.defending);
    let mut defenders = g.units_named(&b.defenders);
    // 12.2.3: a fort fighting for the defender adds its strength.
    let fort = fort_lf(g, b);
    if fort > 0 {
        let sep = |s: &str, a: &str| if s.is_empty() { String::new() } else { a.to_string() };
        defenders = Text::new(
            format!("{}{}the fort ({fort})", defenders.en, sep(&defenders.en, ", ")),
            format!("{}{}要塞({fort})", defenders.zh, sep(&defenders.zh, "、")),
        );
    }
    let mut out = vec![Text::new(
        format!("Defending {}: {}", space.en, defenders.en),
        format!("防守{}:{}", space.zh, defenders.zh),
    )];
    let attackers = g.units_named(&b.attackers);
    out.push(if may_join {
        Text::new(
            format!("May attack (12.1): {}", attackers.en),
            format!("可参与进攻(12.1):{}", attackers.zh),
        )
    } else {
        Text::new(format!("Attacking: {}", attackers.en), format!("进攻:{}", attackers.zh))
    });
    let terrain = tables.terrain_of(g.data(), b.defending);
    let trench = g.pos.space(b.defending).trench.map(|t| t.level);
    let (te, tz) = match trench {
        Some(l) => (format!(", trench level {l}"), format!(",{l}级堑壕")),
        None => (String::new(), String::new()),
    };
    out.push(Text::new(
        format!("Terrain: {}{te} (Terrain Effects Chart, 12.2.7)", terrain.name_en),
        format!("地形:{}{tz}(地形效果表,12.2.7)", terrain.name_zh),
    ));
    for side in [b.attacker, other(b.attacker)] {
        let fire: Fire = fire_of(g, b, side);
        let drms = fire_drms(g, b, side);
        let drm: i32 = drms.iter().map(|d| d.0).sum();
        let shift = fire.column as i32 - fire.base as i32;
        let base = Fire {
            column: fire.base,
            ..fire
        }
        .label(tables);
        let col = fire.label(tables);
        let (se, sz) = if fire.column != fire.base {
            (
                format!(", shifted {shift:+} to {col}"),
                format!(
                    ",移{}栏至{col}",
                    if shift < 0 {
                        format!("左{}", -shift)
                    } else {
                        format!("右{shift}")
                    }
                ),
            )
        } else {
            (String::new(), String::new())
        };
        let (de, dz) = if drms.is_empty() {
            (String::new(), String::new())
        } else {
            (
                format!(
                    "; roll {drm:+} ({})",
                    drms.iter()
                        .map(|d| format!("{:+} {}", d.0, d.1.en))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                format!(
                    ";掷骰{drm:+}({})",
                    drms.iter()
                        .map(|d| format!("{:+} {}", d.0, d.1.zh))
                        .collect::<Vec<_>>()
                        .join("、")
                ),
            )
        };
        let by_die: Vec<String> = (1..=6).map(|d| fire.losses(tables, d, drm).to_string()).collect();
        out.push(Text::new(
            format!(
                "{}: strength {} on the {}, column {base}{se}{de} (12.2.3, 12.2.7). Loss number by die 1–6: {} (12.2.8)",
                side_en(side),
                fire.strength,
                fire.table.name_en(),
                by_die.join(" ")
            ),
            format!(
                "{}:战斗力{},{}{base}栏{sz}{dz}(12.2.3、12.2.7)。掷骰1–6的损失数:{}(12.2.8)",
                side_zh(side),
                fire.strength,
                fire.table.name_zh(),
                by_die.join(" ")
            ),
        ));
    }
    // 12.3.3: the flank roll, once the pinning space is known.
    if let Some(p) = flank {
        let from = attack_spaces(g, b);
        let drm = crate::combat::flank_drm(g.data(), &g.pos, b.attacker, &from, p, b.defending);
        out.push(Text::new(
            format!(
                "Flank roll {drm:+}: the attack is a flank attack on 4 or more, else the defender fires first (12.3.3)"
            ),
            format!("挟击掷骰{drm:+}:4或以上挟击成功,否则防守方先开火(12.3.3)"),
        ));
    }
    out
}

//! Events of the war at large: the VP and the economy (blockade, fleets, air raids), the entry
//! of the United States, the collapse of Russia, peace terms and the War Status events.
//!
//! Most of what these events leave in force is read from the cards out of the game (an event
//! played is a `*` card removed, 9.5.1.2); the tracks' markers that need a number or a turn are
//! in [`crate::war_status::WarMarkers`], the turn-long effects in the turn's record.

use super::played;
use crate::data::{Nation, RpPool, Side};
use crate::game::{Frame, PathsOfGlory, RP_POOLS};
use crate::offensives::Offensive;
use crate::state::{side_index, Location};
use crate::tables::Season;
use crate::victory;
use crate::war_status::{us_entry, Commitment, RussianFront, RussianTrack, Tsar, TsarEvent, UsEntry};
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

// The cards of this module, by side and printed number.
const REICHSTAG_TRUCE: u8 = 9;
const HIGH_SEAS_FLEET: u8 = 25;
const ZEPPELIN_RAIDS: u8 = 27;
const TSAR_TAKES_COMMAND: u8 = 28;
const RATHENAU: u8 = 33;
const U_BOATS: u8 = 36;
const HOFFMANN: u8 = 37;
const BREST_LITOVSK: u8 = 45;
const FRENCH_MUTINY: u8 = 47;
const FALL_OF_THE_TSAR: u8 = 52;
const BOLSHEVIK_REVOLUTION: u8 = 53;
const HL_TAKE_COMMAND: u8 = 54;
const RUSSIAN_DESERTIONS: u8 = 63;
const PRINCE_MAX: u8 = 65;
const GUNS_OF_AUGUST: u8 = 1;

const BLOCKADE: u8 = 2;
const RAPE_OF_BELGIUM: u8 = 13;
const LUSITANIA: u8 = 26;
const GRAND_FLEET: u8 = 33;
const INDEPENDENT_AIR_FORCE: u8 = 37;
const FOURTEEN_POINTS: u8 = 40;
const CONVOY: u8 = 52;
const ZIMMERMANN: u8 = 54;
const OVER_THERE: u8 = 55;
const SIXTUS_AFFAIR: u8 = 62;
const INFLUENZA: u8 = 65;
/// The US army cards of 5.7.4.8.
const US_ARMY_CARDS: [u8; 2] = [43, 47];

fn refuse(rule: &str, en: impl Into<String>, zh: impl Into<String>) -> Refusal {
    PathsOfGlory::refuse(rule, en, zh)
}

/// What the Russian track's conditions read now (16.4): the Russian VP spaces of the scenario
/// the CP controls, and whether it holds all of them but Baku.
pub(crate) fn russian_front(g: &PathsOfGlory) -> RussianFront {
    let data = g.data();
    let mut held = 0u8;
    let mut all_seven = true;
    let vp = victory::vp_spaces(data, g.scenario.historical);
    for s in data.map.graph.space_indices() {
        if data.facts(s).nation.as_deref() != Some("ru") || !vp(s) {
            continue;
        }
        let cp = g.pos.space(s).control == Some(Side::Cp);
        held += u8::from(cp);
        if !cp && data.map.graph.space(s).id != "baku" {
            all_seven = false;
        }
    }
    RussianFront {
        cp_russian_vp: held,
        all_seven,
        combined_war_status: g.pos.combined_war_status(),
        turn: g.pos.turn,
    }
}

/// The Russian Capitulation Track as it stands (16.4): the box of the last event played on it,
/// moved on to the "allowed" box its conditions give now.
pub fn russian_track(g: &PathsOfGlory) -> RussianTrack {
    let cp = |n| played(g, Side::Cp, n);
    let tsar = if cp(BREST_LITOVSK) {
        Tsar::BrestLitovsk
    } else if cp(BOLSHEVIK_REVOLUTION) {
        Tsar::BolshevikRevolution
    } else if cp(FALL_OF_THE_TSAR) {
        Tsar::FallOfTheTsar
    } else if cp(TSAR_TAKES_COMMAND) {
        Tsar::TsarTakesCommand
    } else {
        Tsar::GodSaveTheTsar
    };
    let mut t = RussianTrack {
        tsar,
        fell: g.pos.war.tsar_fell,
    };
    t.update(&russian_front(g));
    t
}

/// The US Commitment Track as it stands (16.3).
pub fn us_track(g: &PathsOfGlory) -> UsEntry {
    if played(g, Side::Ap, OVER_THERE) {
        UsEntry::OverThere
    } else if played(g, Side::Ap, ZIMMERMANN) {
        UsEntry::Zimmermann
    } else {
        us_entry(UsEntry::Neutral, g.pos.combined_war_status())
    }
}

/// 16.4.5: the Fall of the Tsar has been played.
pub(crate) fn tsar_fell(g: &PathsOfGlory) -> bool {
    played(g, Side::Cp, FALL_OF_THE_TSAR)
}

/// 17.1.8: after Over There every Allied card played for replacement points gives 1 US RP.
pub(crate) fn over_there(g: &PathsOfGlory) -> bool {
    played(g, Side::Ap, OVER_THERE)
}

/// The events that bear on the Mandated Offensive rolls (7.1.8, 7.1.9, 7.1.11): Hoffmann,
/// Bolshevik Revolution, French Mutiny.
pub(crate) fn offensive_events(g: &PathsOfGlory) -> (bool, bool, bool) {
    (
        played(g, Side::Cp, HOFFMANN),
        played(g, Side::Cp, BOLSHEVIK_REVOLUTION),
        played(g, Side::Cp, FRENCH_MUTINY),
    )
}

/// 7.1.8 (CP #47): on a French Mutiny turn the first attack by a French unit not stacked with
/// Americans, in France, Belgium or Germany, costs the Allies a VP; then the mutiny is over for
/// the turn (the marker reads "made").
pub(crate) fn mutiny_attack(g: &mut PathsOfGlory, b: &crate::game::Battle) {
    let i = side_index(Side::Ap);
    if b.attacker != Side::Ap || g.turn.offensive[i] != Some(Offensive::FrenchMutiny) || g.turn.offensive_met[i] {
        return;
    }
    let data = g.data();
    let alone = b.attackers.iter().any(|&u| {
        data.pieces[u as usize].nation == Nation::Fr
            && g.at(u as usize)
                .is_some_and(|s| !g.pos.units_in(s).any(|o| data.pieces[o].nation == Nation::Us))
    });
    if crate::offensives::mutiny_punishes(alone, data.facts(b.defending).nation.as_deref()) {
        g.turn.offensive_met[i] = true;
        vp(
            g,
            1,
            "French units attack on a French Mutiny turn (7.1.8)",
            "法军哗变回合法军发动进攻(7.1.8)",
        );
    }
}

/// 16.4.9 (CP #45): after the Treaty of Brest-Litovsk, Russian units attack no more, and the CP
/// attacks no space holding Russians, except Turkish units on the Near East map.
pub(crate) fn brest_litovsk_barred(g: &PathsOfGlory, unit: u16, space: Space) -> bool {
    if !played(g, Side::Cp, BREST_LITOVSK) {
        return false;
    }
    let data = g.data();
    let Some(p) = data.pieces.get(unit as usize) else {
        return false;
    };
    match p.side {
        Side::Ap => p.nation == Nation::Ru,
        Side::Cp => {
            g.pos.units_in(space).any(|d| data.pieces[d].nation == Nation::Ru)
                && !(p.nation == Nation::Tu && data.facts(space).near_east)
        }
    }
}

/// The refusal of an attack the Treaty of Brest-Litovsk forbids (16.4.9).
pub(crate) fn brest_litovsk_refusal() -> Refusal {
    refuse(
        "16.4.9",
        "CP #45 Treaty of Brest-Litovsk: Russian units no longer attack, and the CP attacks Russians only with Turkish units on the Near East map",
        "同盟国#45《布列斯特-立陶夫斯克条约》:俄军不再进攻;同盟国只能以土军在近东地图上进攻俄军",
    )
}

/// 16.3 (AP #38, #43, #47, #64): whether a US reinforcement may be played now: Over There on an
/// earlier turn, and not while U-Boats Unleashed stands uncancelled by Convoy.
pub(crate) fn check_us_reinforcements(g: &PathsOfGlory) -> Result<(), Refusal> {
    match g.pos.war.over_there {
        Some(t) if played(g, Side::Ap, OVER_THERE) && t < g.pos.turn => {}
        _ => {
            return Err(refuse(
                "16.3",
                "US reinforcements may only be played on a turn after Over There (AP #55)",
                "美国援军只能在“他们来了”(协约国#55)打出之后的回合打出",
            ))
        }
    }
    if played(g, Side::Cp, U_BOATS) && !played(g, Side::Ap, CONVOY) {
        return Err(refuse(
            "CP #36",
            "CP #36 U-Boats Unleashed: no US reinforcement until Convoy (AP #52) is played",
            "同盟国#36“无限制潜艇战”:在“护航”(协约国#52)打出之前不能打出美国援军",
        ));
    }
    Ok(())
}

/// The Allied action of the current round, if the Allies are acting: its number.
fn allied_round(g: &PathsOfGlory) -> Option<u8> {
    match g.frames().last() {
        Some(Frame::Round { round, side: Side::Ap }) => Some(*round),
        _ => None,
    }
}

fn needs_played(g: &PathsOfGlory, side: Side, card: u8, rule: &str) -> Result<(), Refusal> {
    if played(g, side, card) {
        return Ok(());
    }
    Err(PathsOfGlory::refuse_with(rule, || {
        let n = g.card_name(side, card);
        Text::new(
            format!("may only be played after {}", n.en),
            format!("只能在{}打出之后打出", n.zh),
        )
    }))
}

/// Whether one of this module's events may be played now, and why not; `None` for another card.
pub(super) fn check(g: &PathsOfGlory, side: Side, card: u8) -> Option<Result<(), Refusal>> {
    // The reason is written only when it may be read (not while a legal list is made).
    let track = |e: TsarEvent, text: &dyn Fn() -> (String, String)| {
        if russian_track(g).may_play(e) {
            Ok(())
        } else {
            Err(PathsOfGlory::refuse_with("16.4", || {
                let (en, zh) = text();
                Text::new(en, zh)
            }))
        }
    };
    // The Russian front as it stands, looked at only by the events that name it.
    let f = || russian_front(g);
    Some(match (side, card) {
        (Side::Cp, TSAR_TAKES_COMMAND) => track(TsarEvent::TsarTakesCommand, &|| {
            let f = f();
            (
                format!(
                    "Tsar Takes Command needs the CP to hold 3 Russian VP spaces (it holds {})",
                    f.cp_russian_vp
                ),
                format!("“沙皇亲征”需要同盟国控制3个俄国胜利点区域(现为{}个)", f.cp_russian_vp),
            )
        }),
        (Side::Cp, FALL_OF_THE_TSAR) => track(TsarEvent::FallOfTheTsar, &|| {
            let f = f();
            (
                format!(
                    "Fall of the Tsar needs Tsar Takes Command played and the Combined War Status plus the CP's Russian VP spaces at 33 (now {} + {})",
                    f.combined_war_status, f.cp_russian_vp
                ),
                format!(
                    "“沙皇倒台”需要已打出“沙皇亲征”,且双方战争状态之和加同盟国控制的俄国胜利点区域数达到33(现为{}+{})",
                    f.combined_war_status, f.cp_russian_vp
                ),
            )
        }),
        (Side::Cp, BOLSHEVIK_REVOLUTION) => track(TsarEvent::BolshevikRevolution, &|| {
            (
                "Bolshevik Revolution needs the Tsar fallen on an earlier turn and the CP holding more Russian VP spaces than then, or all seven but Baku".into(),
                "“布尔什维克革命”需要沙皇在之前的回合倒台,且同盟国控制的俄国胜利点区域多于当时,或控制除巴库外的全部七个".into(),
            )
        }),
        (Side::Cp, BREST_LITOVSK) => track(TsarEvent::BrestLitovsk, &|| {
            let n = g.card_name(Side::Cp, BOLSHEVIK_REVOLUTION);
            (
                format!("may only be played after {}", n.en),
                format!("只能在{}打出之后打出", n.zh),
            )
        }),
        (Side::Cp, RUSSIAN_DESERTIONS) => needs_played(g, Side::Cp, FALL_OF_THE_TSAR, "CP #63"),
        (Side::Cp, REICHSTAG_TRUCE) => {
            if g.commitment[side_index(Side::Cp)] == Commitment::Total {
                Err(refuse(
                    "CP #9",
                    "Reichstag Truce may not be played once the CP is at Total War",
                    "同盟国进入全面战争后不能打出“国会休战”",
                ))
            } else {
                Ok(())
            }
        }
        (Side::Cp, HIGH_SEAS_FLEET | ZEPPELIN_RAIDS | RATHENAU | FRENCH_MUTINY) => Ok(()),
        (Side::Cp, U_BOATS | HOFFMANN) => needs_played(g, Side::Cp, HL_TAKE_COMMAND, card_rule(side, card)),
        (Side::Cp, PRINCE_MAX) => {
            if g.pos.turn > 16 {
                Err(refuse(
                    "CP #65",
                    "Prince Max may not be played after turn 16",
                    "第16回合之后不能打出“马克斯亲王”",
                ))
            } else {
                Ok(())
            }
        }
        (Side::Ap, BLOCKADE | INDEPENDENT_AIR_FORCE | SIXTUS_AFFAIR) => Ok(()),
        (Side::Ap, RAPE_OF_BELGIUM) => needs_played(g, Side::Cp, GUNS_OF_AUGUST, "AP #13"),
        (Side::Ap, LUSITANIA) => needs_played(g, Side::Ap, BLOCKADE, "AP #26").and_then(|()| {
            if played(g, Side::Ap, ZIMMERMANN) {
                Err(refuse(
                    "AP #26",
                    "Lusitania may not be played after Zimmermann Telegram",
                    "“齐默尔曼电报”打出后不能打出“卢西塔尼亚号”",
                ))
            } else {
                Ok(())
            }
        }),
        // 2022 9.5.1.1 note: played to thin the deck at any time (edition 7); it cancels the High
        // Seas Fleet only right after it.
        (Side::Ap, GRAND_FLEET) if g.scenario.edition >= 7 => Ok(()),
        (Side::Ap, GRAND_FLEET) => match (allied_round(g), g.turn.high_seas_fleet) {
            (Some(r), Some(h)) if r == h => Ok(()),
            _ => Err(refuse(
                "AP #33",
                "Grand Fleet is played only in the Allied action right after the High Seas Fleet (CP #25)",
                "“大舰队”只能在“公海舰队”(同盟国#25)之后紧接的协约国行动中打出",
            )),
        },
        (Side::Ap, FOURTEEN_POINTS) => needs_played(g, Side::Ap, ZIMMERMANN, "16.3.5"),
        (Side::Ap, CONVOY) => needs_played(g, Side::Cp, U_BOATS, "AP #52"),
        (Side::Ap, ZIMMERMANN) => {
            if us_track(g) == UsEntry::ZimmermannAllowed {
                Ok(())
            } else {
                Err(refuse(
                    "16.3",
                    format!(
                        "Zimmermann Telegram needs a Combined War Status of 30 (now {})",
                        g.pos.combined_war_status()
                    ),
                    format!(
                        "“齐默尔曼电报”需要双方战争状态之和达到30(现为{})",
                        g.pos.combined_war_status()
                    ),
                ))
            }
        }
        (Side::Ap, OVER_THERE) => match g.pos.war.zimmermann {
            Some(t) if played(g, Side::Ap, ZIMMERMANN) && t < g.pos.turn => Ok(()),
            _ => Err(refuse(
                "16.3",
                "Over There may only be played on a turn after Zimmermann Telegram (AP #54)",
                "“他们来了”只能在“齐默尔曼电报”(协约国#54)打出之后的回合打出",
            )),
        },
        (Side::Ap, INFLUENZA) => {
            if g.pos.combined_war_status() >= 30 {
                Ok(())
            } else {
                Err(refuse(
                    "AP #65",
                    "Influenza needs a Combined War Status of 30",
                    "“大流感”需要双方战争状态之和达到30",
                ))
            }
        }
        _ => return None,
    })
}

/// The card itself as the rule a refusal cites ("CP #36").
fn card_rule(side: Side, card: u8) -> &'static str {
    match (side, card) {
        (Side::Cp, U_BOATS) => "CP #36",
        (Side::Cp, HOFFMANN) => "CP #37",
        _ => "9.5.1",
    }
}

/// Moves the VP marker (positive: toward the CP), saying why.
fn vp(g: &mut PathsOfGlory, by: i32, en: &str, zh: &str) {
    g.pos.vp += by;
    let now = g.pos.vp;
    g.journal.say(|| {
        Text::new(
            format!("{en}: VP {by:+}, now {now}"),
            format!("{zh}:胜利点{by:+},现为{now}"),
        )
    });
}

fn say(g: &mut PathsOfGlory, en: &str, zh: &str) {
    g.journal.say(|| Text::new(en, zh));
}

/// 5.7.4.7: in the Historical scenario the "yellow stripe" events give their OPS too, after
/// the event.
fn and_ops(g: &mut PathsOfGlory, side: Side, card: u8) {
    if !g.scenario.historical {
        return;
    }
    let ops = g.data().card(side, card).map_or(0, |c| c.ops);
    g.journal.say(|| {
        Text::new(
            format!("The event also gives its {ops} OPS (5.7.4.7)"),
            format!("该事件同时提供{ops}点作战(5.7.4.7)"),
        )
    });
    g.engine.push(Frame::Activation { side, ops });
}

/// Carries out one of this module's events; `false` for another card.
pub(super) fn carry_out(g: &mut PathsOfGlory, side: Side, card: u8) -> bool {
    match (side, card) {
        (Side::Cp, TSAR_TAKES_COMMAND) => {
            say(g, "The Tsar takes command of the army (16.4)", "沙皇亲自统帅军队(16.4)");
            and_ops(g, side, card);
        }
        (Side::Cp, FALL_OF_THE_TSAR) => {
            let f = russian_front(g);
            g.pos.war.tsar_fell = Some((f.cp_russian_vp, f.turn));
            let held = f.cp_russian_vp;
            g.journal.say(|| {
                Text::new(
                    format!("The Tsar falls; the Tsar Fell marker reads {held} Russian VP spaces (16.4)"),
                    format!("沙皇倒台;“沙皇倒台”标记记下{held}个俄国胜利点区域(16.4)"),
                )
            });
            let romania_neutral = g.pos.neutral.iter().any(|n| n == "ro");
            let by = if romania_neutral { 3 } else { 1 };
            vp(
                g,
                by,
                "Fall of the Tsar (16.4; 2 more while Romania is neutral)",
                "沙皇倒台(16.4;罗马尼亚仍中立时再加2)",
            );
            and_ops(g, side, card);
        }
        (Side::Cp, BOLSHEVIK_REVOLUTION) => {
            // 7.1.11: a Russian offensive in force is cancelled.
            let ap = side_index(Side::Ap);
            if g.turn.offensive[ap] == Some(Offensive::Nation(Nation::Ru)) {
                g.turn.offensive[ap] = Some(Offensive::None);
            }
            say(
                g,
                "The Bolsheviks take power: at most 1 Russian RP a turn, no Russian Mandated Offensive (16.4, 7.1.11)",
                "布尔什维克掌权:俄国每回合至多1点补充点,不再有俄国强制攻势(16.4、7.1.11)",
            );
            and_ops(g, side, card);
        }
        (Side::Cp, BREST_LITOVSK) => brest_litovsk(g),
        (Side::Cp, RUSSIAN_DESERTIONS) => {
            say(g, "Russian soldiers desert (CP #63)", "俄军士兵逃亡(同盟国#63)");
            g.engine.push(Frame::Desertions { left: 4 });
        }
        (Side::Ap, SIXTUS_AFFAIR) => {
            say(
                g,
                "The Sixtus Affair: the Allies roll on their Peace Terms table (AP #62)",
                "西克斯图斯事件:协约国在其和谈表上掷骰(协约国#62)",
            );
            g.engine.push(Frame::PeaceRoll {
                side: Side::Ap,
                sixtus: true,
            });
        }
        (Side::Cp, REICHSTAG_TRUCE) => vp(g, 1, "Reichstag Truce (CP #9)", "国会休战(同盟国#9)"),
        (Side::Cp, HIGH_SEAS_FLEET) => {
            g.turn.high_seas_fleet = allied_round(g);
            vp(g, 1, "The High Seas Fleet sorties (CP #25)", "公海舰队出击(同盟国#25)");
        }
        (Side::Cp, ZEPPELIN_RAIDS) => {
            g.turn.zeppelin_raids = true;
            say(
                g,
                "Zeppelins raid Britain: 4 British RP fewer in this turn's Replacement Phase (CP #27)",
                "齐柏林飞艇空袭英国:本回合补充阶段英国补充点减4(同盟国#27)",
            );
        }
        (Side::Cp, RATHENAU) => say(
            g,
            "Rathenau organises the war economy: 1 German RP more in each Replacement Phase (CP #33)",
            "拉特瑙组织战时经济:此后每个补充阶段德国补充点加1(同盟国#33)",
        ),
        (Side::Cp, U_BOATS) => say(
            g,
            "U-Boats unleashed: 1 British RP fewer in each Replacement Phase, no US reinforcement until Convoy (CP #36)",
            "无限制潜艇战:此后每个补充阶段英国补充点减1,“护航”之前不能打出美国援军(同盟国#36)",
        ),
        (Side::Cp, HOFFMANN) => say(
            g,
            "Hoffmann: +1 to every later CP Mandated Offensive roll (CP #37, 7.1.9)",
            "霍夫曼:此后同盟国强制攻势掷骰+1(同盟国#37、7.1.9)",
        ),
        (Side::Cp, FRENCH_MUTINY) => {
            // 7.1.8: a French offensive not yet made this turn mutinies at once.
            let ap = side_index(Side::Ap);
            if g.turn.offensive[ap] == Some(Offensive::Nation(Nation::Fr)) && !g.turn.offensive_met[ap] {
                g.turn.offensive[ap] = Some(Offensive::FrenchMutiny);
            }
            say(
            g,
            "The French army mutinies: a French Mandated Offensive no longer calls for an attack, and a French attack then costs the Allies a VP (CP #47, 7.1.8)",
            "法军哗变:此后法国强制攻势不再要求进攻,届时法军进攻则协约国失1胜利点(同盟国#47、7.1.8)",
            );
        }
        (Side::Cp, PRINCE_MAX) => say(
            g,
            "Prince Max becomes Chancellor (CP #65)",
            "马克斯亲王出任首相(同盟国#65)",
        ),
        (Side::Ap, BLOCKADE) => say(
            g,
            "The blockade tightens: 1 VP to the Allies in each Winter War Status Phase (AP #2)",
            "封锁收紧:此后每个冬季回合的战争状态阶段协约国得1胜利点(协约国#2)",
        ),
        (Side::Ap, RAPE_OF_BELGIUM) => vp(g, -1, "Rape of Belgium (AP #13)", "比利时暴行(协约国#13)"),
        (Side::Ap, LUSITANIA) => vp(g, -1, "Lusitania (AP #26)", "卢西塔尼亚号(协约国#26)"),
        // The action round under way is the High Seas Fleet's (always so before edition 7).
        (Side::Ap, GRAND_FLEET) if g.turn.high_seas_fleet != Some(crate::combat_cards::current_round(g)) => say(
            g,
            "No High Seas Fleet to answer in this action: Grand Fleet only leaves the game (AP #33, 2022 9.5.1.1)",
            "本行动无可迎击的公海舰队:“大舰队”仅移出游戏(协约国#33,2022 9.5.1.1)",
        ),
        (Side::Ap, GRAND_FLEET) => {
            g.turn.high_seas_fleet = None;
            vp(
                g,
                -1,
                "The Grand Fleet answers the High Seas Fleet, whose VP is cancelled (AP #33)",
                "大舰队迎击公海舰队,抵消其胜利点(协约国#33)",
            );
        }
        (Side::Ap, INDEPENDENT_AIR_FORCE) => say(
            g,
            "The Independent Air Force cancels Rathenau's German RP (AP #37)",
            "独立空军抵消拉特瑙的德国补充点(协约国#37)",
        ),
        (Side::Ap, FOURTEEN_POINTS) => vp(
            g,
            -1,
            "The Fourteen Points; only the Allies may offer peace terms from now on (AP #40)",
            "十四点和平原则;此后只有协约国可以提出和谈(协约国#40)",
        ),
        (Side::Ap, CONVOY) => vp(
            g,
            -1,
            "Convoys defeat the U-Boats, whose effects end (AP #52)",
            "护航击败潜艇,其效果结束(协约国#52)",
        ),
        (Side::Ap, ZIMMERMANN) => {
            g.pos.war.zimmermann = Some(g.pos.turn);
            vp(
                g,
                -1,
                "Zimmermann Telegram: the United States enter the war (16.3)",
                "齐默尔曼电报:美国参战(16.3)",
            );
            and_ops(g, side, card);
        }
        (Side::Ap, OVER_THERE) => {
            g.pos.war.over_there = Some(g.pos.turn);
            say(
                g,
                "Over There: US reinforcements from next turn, and 1 US RP with every Allied RP play (16.3, 17.1.8)",
                "他们来了:下回合起可打出美国援军,协约国每次打出补充点另得1点美国补充点(16.3、17.1.8)",
            );
            and_ops(g, side, card);
        }
        (Side::Ap, INFLUENZA) => {
            g.turn.influenza = true;
            say(
                g,
                "Influenza: no card may be played for replacement points for the rest of the turn (AP #65)",
                "大流感:本回合余下时间不能打出补充点(协约国#65)",
            );
        }
        _ => return false,
    }
    true
}

/// CP #45, 16.4.9: Russians outside Russia, Germany, Turkey, Austria-Hungary and Romania leave
/// the game, and so do Russians stacked with other Allied units (interned).
fn brest_litovsk(g: &mut PathsOfGlory) {
    say(
        g,
        "The Treaty of Brest-Litovsk: Russia leaves the war (16.4.9, 5.5.2)",
        "《布列斯特-立陶夫斯克条约》:俄国退出战争(16.4.9、5.5.2)",
    );
    let data = g.data();
    let gone: Vec<usize> = (0..data.pieces.len())
        .filter(|&u| data.pieces[u].nation == Nation::Ru)
        .filter(|&u| {
            let Some(s) = g.at(u) else { return false };
            let country = data.facts(s).nation.as_deref();
            let outside = !matches!(country, Some("ru" | "ge" | "tu" | "ah" | "ro"));
            let mixed = g
                .pos
                .units_in(s)
                .any(|o| data.pieces[o].side == Side::Ap && data.pieces[o].nation != Nation::Ru);
            outside || mixed
        })
        .collect();
    for u in gone {
        g.pos.units[u].loc = Location::Removed;
        let name = g.unit_name(u as u16);
        g.journal.say(|| {
            Text::new(
                format!("{} leaves the game (16.4.9)", name.en),
                format!("{}退出游戏(16.4.9)", name.zh),
            )
        });
    }
}

/// 6.0 E.1: the VP the events give in the War Status Phase: Blockade in Winter (AP #2).
pub(crate) fn war_status_vp(g: &mut PathsOfGlory) {
    let winter = g.tables().turn(g.pos.turn).is_some_and(|t| t.season == Season::Winter);
    if winter && played(g, Side::Ap, BLOCKADE) {
        vp(g, -1, "Blockade in Winter (AP #2)", "冬季封锁(协约国#2)");
    }
}

/// The index of a pool in the turn's replacement points.
fn pool(p: RpPool) -> usize {
    RP_POOLS.iter().position(|&q| q == p).unwrap_or(0)
}

/// 6.0 F: what the events do to the replacement points before they are spent: Rathenau's German
/// point (CP #33, none after AP #37), U-Boats' and the Zeppelins' British points (CP #36 until
/// AP #52, CP #27), and Bolshevik Revolution's cap of one Russian point (CP #53).
pub(crate) fn replacement_points(g: &mut PathsOfGlory) {
    let (cp, ap) = (side_index(Side::Cp), side_index(Side::Ap));
    let mut changes: Vec<(usize, RpPool, i32, &str, &str)> = Vec::new();
    if played(g, Side::Cp, RATHENAU) && !played(g, Side::Ap, INDEPENDENT_AIR_FORCE) {
        changes.push((
            cp,
            RpPool::Ge,
            1,
            "Walter Rathenau (CP #33)",
            "瓦尔特·拉特瑙(同盟国#33)",
        ));
    }
    if played(g, Side::Cp, U_BOATS) && !played(g, Side::Ap, CONVOY) {
        changes.push((
            ap,
            RpPool::Br,
            -1,
            "U-Boats Unleashed (CP #36)",
            "无限制潜艇战(同盟国#36)",
        ));
    }
    if g.turn.zeppelin_raids {
        changes.push((
            ap,
            RpPool::Br,
            -4,
            "Zeppelin Raids (CP #27)",
            "齐柏林飞艇空袭(同盟国#27)",
        ));
    }
    for (i, p, by, en, zh) in changes {
        let k = pool(p);
        let before = g.turn.rp[i][k];
        let now = (before as i32 + by).clamp(0, u8::MAX as i32) as u8;
        g.turn.rp[i][k] = now;
        let (ne, nz) = if p == RpPool::Ge {
            ("German", "德国")
        } else {
            ("British", "英国")
        };
        g.journal.say(|| {
            Text::new(
                format!("{en}: {ne} RP {before} → {now}"),
                format!("{zh}:{nz}补充点{before} → {now}"),
            )
        });
    }
    let ru = pool(RpPool::Ru);
    if played(g, Side::Cp, BOLSHEVIK_REVOLUTION) && g.turn.rp[ap][ru] > 1 {
        g.turn.rp[ap][ru] = 1;
        say(
            g,
            "Bolshevik Revolution: at most 1 Russian RP is spent this turn (CP #53)",
            "布尔什维克革命:本回合至多使用1点俄国补充点(同盟国#53)",
        );
    }
}

/// 5.5.2, 5.7.4.8, 5.7.4.9: what the end of a scenario reads from the events: Brest-Litovsk,
/// the US army cards never played, the Fall of the Tsar.
pub fn ending(g: &PathsOfGlory, adjust: bool) -> victory::Ending {
    victory::Ending {
        brest_litovsk: played(g, Side::Cp, BREST_LITOVSK),
        historical_adjustments: adjust && g.scenario.historical,
        unplayed_us_army_cards: US_ARMY_CARDS.iter().filter(|&&c| !played(g, Side::Ap, c)).count() as u8,
        tsar_fell: tsar_fell(g),
        // 5.6.2: the tournament bid, added at the end (never to automatic victory, 5.6.2.1).
        bid: g.scenario.bid.unwrap_or(0) as i32,
    }
}

/// Our short text of one of this module's events, in both languages.
pub(super) fn text(side: Side, card: u8) -> Option<Text> {
    let (en, zh) = match (side, card) {
        (Side::Cp, REICHSTAG_TRUCE) => ("+1 VP. Not once the CP is at Total War.", "胜利点+1。同盟国全面战争后不可打出。"),
        (Side::Cp, HIGH_SEAS_FLEET) => (
            "+1 VP, unless the Allies answer with Grand Fleet in their next action.",
            "胜利点+1,除非协约国在其下一行动中以“大舰队”回应。",
        ),
        (Side::Cp, ZEPPELIN_RAIDS) => (
            "4 British RP fewer (not below 0) in this turn's Replacement Phase.",
            "本回合补充阶段英国补充点减4(最低为0)。",
        ),
        (Side::Cp, TSAR_TAKES_COMMAND) => (
            "Needs 3 Russian VP spaces in CP hands. Moves the Russian Capitulation Track.",
            "需同盟国控制3个俄国胜利点区域。推进俄国投降轨。",
        ),
        (Side::Cp, RATHENAU) => (
            "1 German RP more in every Replacement Phase (until Independent Air Force).",
            "此后每个补充阶段德国补充点加1(直到“独立空军”)。",
        ),
        (Side::Cp, U_BOATS) => (
            "After H-L Take Command. 1 British RP fewer each turn, no US reinforcements, until Convoy.",
            "须在“兴登堡-鲁登道夫掌权”之后。直到“护航”前,每回合英国补充点减1,且不能打出美国援军。",
        ),
        (Side::Cp, HOFFMANN) => (
            "After H-L Take Command. +1 to the CP's later Mandated Offensive rolls.",
            "须在“兴登堡-鲁登道夫掌权”之后。此后同盟国强制攻势掷骰+1。",
        ),
        (Side::Cp, BREST_LITOVSK) => (
            "After Bolshevik Revolution. Russia is out: its units stop attacking and are not attacked (Turks in the Near East excepted). Campaign victory levels change.",
            "须在“布尔什维克革命”之后。俄国退出:俄军不再进攻也不被进攻(近东的土军除外)。战役胜利等级改变。",
        ),
        (Side::Cp, FRENCH_MUTINY) => (
            "A French Mandated Offensive now forbids French attacks: +1 VP if French units without Americans attack then.",
            "此后法国强制攻势改为禁止进攻:届时若有未与美军同格的法军进攻,胜利点+1。",
        ),
        (Side::Cp, FALL_OF_THE_TSAR) => (
            "Needs the track's Fall of the Tsar Allowed box. +1 VP (+3 while Romania is neutral); Russian combat activation costs 1 per unit.",
            "需俄国投降轨处于“沙皇倒台可行”格。胜利点+1(罗马尼亚中立时+3);俄军进攻激活每单位1点。",
        ),
        (Side::Cp, BOLSHEVIK_REVOLUTION) => (
            "Needs the track's Bolshevik Revolution Allowed box. At most 1 Russian RP a turn; no Russian Mandated Offensive.",
            "需俄国投降轨处于“布尔什维克革命可行”格。俄国每回合至多1点补充点;不再有俄国强制攻势。",
        ),
        (Side::Cp, PRINCE_MAX) => ("War Status +3. Not after turn 16.", "战争状态+3。第16回合后不可打出。"),
        (Side::Cp, RUSSIAN_DESERTIONS) => (
            "After Fall of the Tsar. The CP reduces up to four full-strength Russian units on the map.",
            "须在“沙皇倒台”之后。同盟国使地图上至多四个满编俄军单位减员。",
        ),
        (Side::Ap, SIXTUS_AFFAIR) => (
            "The Allies roll on their Peace Terms table as at a Combined War Status under 20; no offer, no draw.",
            "协约国按双方战争状态之和低于20在其和谈表上掷骰;这不是和谈提议,不能以平局结束。",
        ),
        (Side::Ap, BLOCKADE) => ("−1 VP in the War Status Phase of every Winter turn.", "此后每个冬季回合的战争状态阶段胜利点−1。"),
        (Side::Ap, RAPE_OF_BELGIUM) => ("After Guns of August. −1 VP.", "须在“八月炮火”之后。胜利点−1。"),
        (Side::Ap, LUSITANIA) => (
            "After Blockade, before Zimmermann Telegram. −1 VP.",
            "须在“封锁”之后、“齐默尔曼电报”之前。胜利点−1。",
        ),
        (Side::Ap, GRAND_FLEET) => (
            "In the Allied action right after High Seas Fleet: cancels its VP. At any other time it only leaves the game.",
            "在“公海舰队”之后紧接的协约国行动中打出:抵消其胜利点;其他时候打出仅移出游戏。",
        ),
        (Side::Ap, INDEPENDENT_AIR_FORCE) => ("Cancels Rathenau's German RP.", "抵消“拉特瑙”的德国补充点。"),
        (Side::Ap, 38 | 43 | 47 | 64) => (
            "After Over There (a later turn), not under U-Boats Unleashed: the US units it lists enter.",
            "须在“他们来了”之后的回合、且不在无限制潜艇战之下:所列美军进场。",
        ),
        (Side::Ap, FOURTEEN_POINTS) => (
            "After Zimmermann Telegram. −1 VP; only the Allies may offer peace terms from now on.",
            "须在“齐默尔曼电报”之后。胜利点−1;此后只有协约国可提出和谈。",
        ),
        (Side::Ap, CONVOY) => ("After U-Boats Unleashed: cancels it. −1 VP.", "须在“无限制潜艇战”之后:取消其效果。胜利点−1。"),
        (Side::Ap, ZIMMERMANN) => (
            "Needs a Combined War Status of 30. The US enters the war. −1 VP.",
            "需双方战争状态之和达到30。美国参战。胜利点−1。",
        ),
        (Side::Ap, OVER_THERE) => (
            "On a turn after Zimmermann Telegram. US reinforcements from next turn; every Allied RP play gives 1 US RP.",
            "须在“齐默尔曼电报”之后的回合。下回合起可打出美国援军;协约国每次打出补充点另得1点美国补充点。",
        ),
        (Side::Ap, INFLUENZA) => (
            "Needs a Combined War Status of 30. No card for RP for the rest of the turn.",
            "需双方战争状态之和达到30。本回合余下时间不能打出补充点。",
        ),
        _ => return None,
    };
    Some(Text::new(en, zh))
}

/// CP #63: the Russian units the CP may reduce: full strength, on the map.
fn deserters(g: &PathsOfGlory) -> Vec<u16> {
    let data = g.data();
    (0..data.pieces.len())
        .filter(|&u| data.pieces[u].nation == Nation::Ru && g.pos.units[u].full && g.at(u).is_some())
        .map(|u| u as u16)
        .collect()
}

/// The candidate actions of this module's frames.
pub(crate) fn war_candidates(g: &PathsOfGlory, frame: &Frame, out: &mut Vec<crate::game::Action>) {
    use crate::game::Action;
    match frame {
        Frame::Desertions { .. } => {
            out.extend(deserters(g).into_iter().map(|u| Action::Reduce { unit: Some(u) }));
            out.push(Action::Reduce { unit: None });
        }
        Frame::PeaceOffer { .. } => out.extend([
            Action::AnswerPeace { accept: true },
            Action::AnswerPeace { accept: false },
        ]),
        _ => {}
    }
}

/// Whether an action of this module's frames may be taken now.
pub(crate) fn war_check(g: &PathsOfGlory, frame: &Frame, action: &crate::game::Action) -> Result<(), Refusal> {
    use crate::game::Action;
    match (frame, action) {
        (Frame::Desertions { .. }, Action::Reduce { unit: None }) => Ok(()),
        (Frame::Desertions { .. }, Action::Reduce { unit: Some(u) }) => {
            if deserters(g).contains(u) {
                Ok(())
            } else {
                Err(refuse(
                    "CP #63",
                    "Russian Desertions reduces a full-strength Russian unit on the map",
                    "“俄军逃亡”只能使地图上的满编俄军单位减员",
                ))
            }
        }
        (Frame::PeaceOffer { .. }, Action::AnswerPeace { .. }) => Ok(()),
        _ => Err(refuse(
            "16.5",
            "that is not a choice of this step",
            "这不是当前步骤的选择",
        )),
    }
}

/// Carries out an action (or a die) of this module's frames.
pub(crate) fn war_carry_out(g: &mut PathsOfGlory, frame: Frame, action: Option<&crate::game::Action>) {
    use crate::game::Action;
    match (frame, action) {
        (Frame::Desertions { left }, Some(Action::Reduce { unit: Some(u) })) => {
            g.pos.units[*u as usize].full = false;
            let name = g.unit_name(*u);
            g.journal.say(|| {
                Text::new(
                    format!("{} is reduced by desertion (CP #63)", name.en),
                    format!("{}因逃亡而减员(同盟国#63)", name.zh),
                )
            });
            if left > 1 {
                g.engine.push(Frame::Desertions { left: left - 1 });
            }
        }
        (Frame::PeaceOffer { .. }, Some(Action::AnswerPeace { accept: true })) => {
            let text = if g.scenario.tournament {
                Text::new(
                    "Peace terms are accepted: in a tournament both players lose (16.5.2, 5.6.4)",
                    "和谈被接受:锦标赛中双方都算输(16.5.2、5.6.4)",
                )
            } else {
                Text::new(
                    "Peace terms are accepted: the game ends in a draw (16.5.2)",
                    "和谈被接受:游戏以平局结束(16.5.2)",
                )
            };
            crate::sequence::end_game(g, None, text);
        }
        (Frame::PeaceOffer { side }, Some(Action::AnswerPeace { accept: false })) => {
            say(g, "The peace terms are refused (16.5.2)", "和谈被拒绝(16.5.2)");
            g.engine.push(Frame::PeaceRoll { side, sixtus: false });
        }
        (Frame::PeaceRoll { side, sixtus }, Some(Action::Die { face })) => {
            let t = &g.tables().peace_terms;
            let table = if side == Side::Cp { &t.cp } else { &t.ap };
            let cws = if sixtus { 0 } else { g.pos.combined_war_status() };
            let by = i32::from(table.read(cws, *face));
            if by == 0 {
                g.journal.say(|| {
                    Text::new(
                        format!("Peace Terms roll {face}: no change (16.5.2)"),
                        format!("和谈掷骰{face}:无变化(16.5.2)"),
                    )
                });
            } else {
                vp(
                    g,
                    by,
                    &format!("Peace Terms roll {face} (16.5.2)"),
                    &format!("和谈掷骰{face}(16.5.2)"),
                );
            }
        }
        _ => {}
    }
}

/// 8.1.3, 16.5.1: whether a side may offer peace terms now: not in the Introductory (5.3.3) or
/// Historical (5.7.2.1) scenarios, the CP at VP 11 or more, the Allies at 9 or less, only the
/// Allies after 14 Points (AP #40).
pub(crate) fn check_peace_offer(g: &PathsOfGlory, side: Side) -> Result<(), Refusal> {
    if g.scenario.introductory || g.scenario.historical {
        return Err(refuse(
            if g.scenario.historical { "5.7.2.1" } else { "5.3.3" },
            "no peace terms in this scenario",
            "本剧本不使用和谈",
        ));
    }
    if side == Side::Cp && played(g, Side::Ap, FOURTEEN_POINTS) {
        return Err(refuse(
            "AP #40",
            "after 14 Points only the Allies may offer peace terms",
            "“十四点和平原则”之后只有协约国可以提出和谈",
        ));
    }
    let t = &g.tables().peace_terms;
    let vp = g.pos.vp;
    let ok = match side {
        Side::Cp => t.cp.vp_at_least.is_none_or(|v| vp >= v),
        Side::Ap => t.ap.vp_at_most.is_none_or(|v| vp <= v),
    };
    if ok {
        Ok(())
    } else {
        let (en, zh) = match side {
            Side::Cp => (
                "the CP may offer peace terms at VP 11 or more",
                "同盟国须在胜利点不低于11时提出和谈",
            ),
            Side::Ap => (
                "the Allies may offer peace terms at VP 9 or less",
                "协约国须在胜利点不高于9时提出和谈",
            ),
        };
        Err(PathsOfGlory::refuse_with("16.5.1", || {
            Text::new(format!("{en} (now {vp})"), format!("{zh}(现为{vp})"))
        }))
    }
}

/// 16.5.1: a side offers peace terms, its whole action; the other side answers.
pub(crate) fn offer_peace(g: &mut PathsOfGlory, side: Side, round: u8) {
    let (en, zh) = (crate::sequence::side_en(side), crate::sequence::side_zh(side));
    g.journal.say(|| {
        Text::new(
            format!("Round {round}: {en} offers peace terms (16.5)"),
            format!("第{round}行动轮:{zh}提出和谈(16.5)"),
        )
    });
    g.engine.push(Frame::PeaceOffer { side });
}

//! Events that change how the armies fight and move for a round, a turn or the rest of the game:
//! activation costs and stacking (Moltke, Falkenhayn, SUD Army, 11th Army, Everyone Into Battle),
//! the events other cards wait for (H-L Take Command, Landships, Sinai Pipeline), attacks barred
//! or helped (Oberost, Lloyd George, Stavka Timidity, Haig, Brusilov Offensive, Yanks and Tanks,
//! Kerensky Offensive, Great Retreat), the cards that see the other hand (Mata Hari, Cloak and
//! Dagger); and the OPS a card gives after its event (9.1.3, 5.7.4.7).

use crate::data::{Kind, Nation, Side};
use crate::game::{other, Frame, PathsOfGlory};
use crate::offensives::Offensive;
use crate::sequence::{side_en, side_zh};
use crate::state::side_index;
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// The cards of this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Card {
    Moltke,
    Falkenhayn,
    SudArmy,
    EleventhArmy,
    EveryoneIntoBattle,
    HlTakeCommand,
    Landships,
    SinaiPipeline,
    Oberost,
    LloydGeorge,
    StavkaTimidity,
    Haig,
    BrusilovOffensive,
    YanksAndTanks,
    KerenskyOffensive,
    GreatRetreat,
    MataHari,
    CloakAndDagger,
}

fn card_of(side: Side, n: u8) -> Option<Card> {
    use Card::*;
    Some(match (side, n) {
        (Side::Ap, 9) => Moltke,
        (Side::Cp, 13) => Falkenhayn,
        (Side::Cp, 10) => SudArmy,
        (Side::Cp, 29) => EleventhArmy,
        (Side::Ap, 51) => EveryoneIntoBattle,
        (Side::Cp, 54) => HlTakeCommand,
        (Side::Ap, 28) => Landships,
        (Side::Ap, 49) => SinaiPipeline,
        (Side::Cp, 11) => Oberost,
        (Side::Cp, 55) => LloydGeorge,
        (Side::Cp, 58) => StavkaTimidity,
        (Side::Cp, 61) => Haig,
        (Side::Ap, 46) => BrusilovOffensive,
        (Side::Ap, 35) => YanksAndTanks,
        (Side::Ap, 45) => KerenskyOffensive,
        (Side::Ap, 27) => GreatRetreat,
        (Side::Cp, 17) => MataHari,
        (Side::Ap, 23) => CloakAndDagger,
        _ => return None,
    })
}

// The card numbers other rules of this module read.
const MOLTKE: u8 = 9;
const FALKENHAYN: u8 = 13;
const SUD_ARMY: u8 = 10;
const ELEVENTH_ARMY: u8 = 29;
const OBEROST: u8 = 11;
const TSAR_TAKES_COMMAND: u8 = 28;
const FALL_OF_THE_TSAR: u8 = 52;
const BOLSHEVIK_REVOLUTION: u8 = 53;
/// Michael, Blücher, Peace Offensive (CP #49, #50, #51).
const GERMAN_OFFENSIVES: [u8; 3] = [49, 50, 51];

fn refuse(rule: &str, en: impl Into<String>, zh: impl Into<String>) -> Refusal {
    PathsOfGlory::refuse(rule, en, zh)
}

fn played(g: &PathsOfGlory, side: Side, card: u8) -> bool {
    super::played(g, side, card)
}

/// Whether one of this module's events may be played now, and why not; `None` for another card.
pub(super) fn check(g: &PathsOfGlory, side: Side, card: u8) -> Option<Result<(), Refusal>> {
    let c = card_of(side, card)?;
    let turn = g.pos.turn;
    Some(match c {
        // Turns 1 and 2 are August and September 1914.
        Card::Moltke if turn > 2 => Err(refuse(
            "AP #9",
            "Moltke may only be played in August or September 1914",
            "“毛奇”只能在1914年8月或9月打出",
        )),
        Card::Falkenhayn if turn <= 2 && !played(g, Side::Ap, MOLTKE) => Err(refuse(
            "CP #13",
            "in August and September 1914 Falkenhayn may only be played after Moltke (AP #9); from Fall 1914 at any time",
            "1914年8月与9月,“法金汉”只能在“毛奇”(协约#9)之后打出;1914年秋起不受限制",
        )),
        Card::EveryoneIntoBattle if !GERMAN_OFFENSIVES.iter().any(|&n| played(g, Side::Cp, n)) => Err(refuse(
            "AP #51",
            "Everyone Into Battle may only be played after Michael, Blücher or Peace Offensive (CP #49, #50, #51)",
            "“全员参战”只能在“米夏埃尔”、“布吕歇尔”或“和平攻势”(同盟#49、#50、#51)之后打出",
        )),
        Card::KerenskyOffensive if !played(g, Side::Cp, FALL_OF_THE_TSAR) => Err(refuse(
            "AP #45",
            "Kerensky Offensive may only be played after the Fall of the Tsar (CP #52)",
            "“克伦斯基攻势”只能在“沙皇倒台”(同盟#52)之后打出",
        )),
        Card::KerenskyOffensive if played(g, Side::Cp, BOLSHEVIK_REVOLUTION) => Err(refuse(
            "AP #45",
            "Kerensky Offensive may not be played after the Bolshevik Revolution (CP #53)",
            "“布尔什维克革命”(同盟#53)之后不能打出“克伦斯基攻势”",
        )),
        Card::StavkaTimidity if !played(g, Side::Cp, TSAR_TAKES_COMMAND) => Err(refuse(
            "CP #58",
            "Stavka Timidity may only be played after Tsar Takes Command (CP #28)",
            "“大本营怯战”只能在“沙皇亲征”(同盟#28)之后打出",
        )),
        _ => Ok(()),
    })
}

/// Carries out one of this module's events; `false` for another card.
pub(super) fn carry_out(g: &mut PathsOfGlory, side: Side, card: u8) -> bool {
    let Some(c) = card_of(side, card) else {
        return false;
    };
    let say = |g: &mut PathsOfGlory, en: &str, zh: &str| {
        let (en, zh) = (en.to_string(), zh.to_string());
        g.journal.say(|| Text::new(en, zh));
    };
    match c {
        Card::Moltke => say(
            g,
            "Moltke: until Falkenhayn, a CP activation in Belgium or France costs 1 OPS a unit (AP #9)",
            "毛奇:在“法金汉”之前,同盟国在比利时或法国每激活一个单位须1点作战(协约#9)",
        ),
        Card::Falkenhayn => say(
            g,
            "Falkenhayn: Moltke's activation costs end (CP #13)",
            "法金汉:“毛奇”的激活费用结束(同盟#13)",
        ),
        Card::SudArmy => say(
            g,
            "SUD Army: each action round, one AH unit with up to two German corps activates as one nationality (CP #10)",
            "南方集团军:每个行动轮,一个奥匈单位与至多两个德国军可作为同一国籍激活(同盟#10)",
        ),
        Card::EleventhArmy => say(
            g,
            "11th Army: the German 11th Army and the CP corps with it activate as one nationality (CP #29)",
            "第11集团军:德国第11集团军与同区域的同盟国军可作为同一国籍激活(同盟#29)",
        ),
        Card::EveryoneIntoBattle => {
            g.turn.everyone_into_battle = true;
            say(
                g,
                "Everyone Into Battle: this turn the Allies in Italy, France and Belgium activate as one nationality (AP #51)",
                "全员参战:本回合协约国在意大利、法国和比利时的部队作为同一国籍激活(协约#51)",
            )
        }
        Card::HlTakeCommand => {
            // 2022 7.1.10: a German offensive in force is cancelled at once.
            let i = side_index(Side::Cp);
            if g.turn.offensive[i] == Some(Offensive::Nation(Nation::Ge)) && !g.turn.offensive_met[i] {
                g.turn.offensive[i] = Some(Offensive::None);
                say(
                    g,
                    "The German Mandated Offensive is cancelled (7.1.10)",
                    "德国的强制攻势取消(7.1.10)",
                );
            }
            say(
                g,
                "H-L Take Command: Michael, Blücher, Peace Offensive, Hoffmann and U-Boats Unleashed may be played; Place of Execution no longer; a German Mandated Offensive reads None (CP #54, 7.1.10)",
                "兴登堡与鲁登道夫接掌指挥:可以打出“米夏埃尔”、“布吕歇尔”、“和平攻势”、“霍夫曼”与“无限制潜艇战”;“刑场”不再能打出;德国强制攻势视为无(同盟#54,7.1.10)",
            )
        }
        Card::Landships => {
            say(
                g,
                "Landships: Royal Tank Corps may be played (AP #28)",
                "陆地战舰:可以打出“皇家坦克军”(协约#28)",
            );
            yellow_stripe_operations(g, side, card);
        }
        Card::SinaiPipeline => say(
            g,
            "Sinai Pipeline: no more −3 to Allied attacks from Sinai; Allenby may be played (AP #49)",
            "西奈输水管:协约国自西奈发动的进攻不再−3;可以打出“艾伦比”(协约#49)",
        ),
        Card::Oberost => say(
            g,
            "Oberost: German units may attack spaces with Russian forts (CP #11, 15.1.10)",
            "东线总司令部:德军可以进攻有俄国要塞的区域(同盟#11,15.1.10)",
        ),
        Card::LloydGeorge => {
            g.turn.lloyd_george = true;
            say(
                g,
                "Lloyd George: no British attack on German units in a level-2 trench this turn (CP #55)",
                "劳合·乔治:本回合英军不能进攻二级壕沟中的德军(同盟#55)",
            )
        }
        Card::StavkaTimidity => {
            g.turn.stavka_timidity = true;
            say(
                g,
                "Stavka Timidity: no Russian attack on German units alone in a trench this turn (CP #58)",
                "大本营怯战:本回合俄军不能进攻壕沟中仅有德军的区域(同盟#58)",
            )
        }
        Card::Haig => {
            g.turn.haig = true;
            say(
                g,
                "Haig: this turn German units in a trench in France, Belgium or Germany do not retreat from a British attack (CP #61)",
                "黑格:本回合在法国、比利时或德国壕沟中的德军遭英军进攻时不撤退(同盟#61)",
            )
        }
        Card::BrusilovOffensive => {
            g.action.brusilov = true;
            g.action.brusilov_trench = true;
            say(
                g,
                "Brusilov Offensive: +1 to every Russian attack of this action; the first on non-German CP units alone ignores the trench (AP #46)",
                "勃鲁西洛夫攻势:本次行动俄军的每次进攻+1;第一次进攻仅有非德军同盟国部队的区域时无视壕沟(协约#46)",
            );
            operations(g, side, card);
        }
        Card::YanksAndTanks => {
            g.action.yanks_and_tanks = true;
            say(
                g,
                "Yanks and Tanks: +2 to every combat of this action with American units (AP #35)",
                "美国佬与坦克:本次行动有美军参加的每次会战+2(协约#35)",
            );
            operations(g, side, card);
        }
        Card::KerenskyOffensive => {
            g.action.kerensky = true;
            say(
                g,
                "Kerensky Offensive: +2 to the first Russian attack of this action on a space with AH, BU or TU units (AP #45)",
                "克伦斯基攻势:本次行动俄军第一次进攻有奥匈、保加利亚或土耳其部队的区域时+2(协约#45)",
            );
            operations(g, side, card);
        }
        Card::GreatRetreat => {
            g.turn.great_retreat = true;
            say(
                g,
                "Great Retreat: this turn Russian defenders may fall back a space before a combat (AP #27)",
                "大撤退:本回合俄军防守部队可以在会战前后撤一格(协约#27)",
            )
        }
        Card::MataHari | Card::CloakAndDagger => {
            see_the_other_hand(g, side, card);
            operations(g, side, card);
        }
    }
    true
}

/// Mata Hari (CP #17), Cloak and Dagger (AP #23): the other side's hand is shown to the player
/// who played the card, and to nobody else (9.1).
fn see_the_other_hand(g: &mut PathsOfGlory, side: Side, card: u8) {
    let o = other(side);
    let hand = g.pos.cards[side_index(o)].hand.clone();
    let names: Vec<Text> = hand.iter().map(|&n| g.card_name(o, n)).collect();
    let (en, zh): (Vec<&str>, Vec<&str>) = names.iter().map(|t| (t.en.as_str(), t.zh.as_str())).unzip();
    let (en, zh) = if hand.is_empty() {
        ("no card".to_string(), "没有牌".to_string())
    } else {
        (en.join(", "), zh.join("、"))
    };
    let rule = format!("{} #{card}", side_en(side));
    let rule_zh = format!("{}#{card}", if side == Side::Cp { "同盟" } else { "协约" });
    g.journal.whisper(
        g.seat_of(side),
        || {
            Text::new(
                format!("The {} hand: {en} ({rule})", side_en(o)),
                format!("{}的手牌:{zh}({rule_zh})", side_zh(o)),
            )
        },
        || {
            Text::new(
                format!("The {} sees the {} hand: {en} ({rule})", side_en(side), side_en(o)),
                format!("{}看到{}的手牌:{zh}({rule_zh})", side_zh(side), side_zh(o)),
            )
        },
    );
    let k = hand.len();
    g.journal.say(|| {
        Text::new(
            format!(
                "{} sees the {k} card(s) of the {} hand ({rule})",
                side_en(side),
                side_en(o)
            ),
            format!("{}查看{}的{k}张手牌({rule_zh})", side_zh(side), side_zh(o)),
        )
    });
    let seen = &mut g.turn.seen[side_index(side)];
    for n in hand {
        if !seen.contains(&n) {
            seen.push(n);
        }
    }
}

/// 9.1.3: a card whose event says "conduct Operations using this card" gives its OPS after the
/// event, in every scenario: an Activation with the card's OPS. Call it before pushing the
/// event's own frames, so that they come first.
pub(in crate::events) fn operations(g: &mut PathsOfGlory, side: Side, card: u8) {
    let ops = g.data().card(side, card).map_or(0, |c| c.ops);
    if ops > 0 {
        g.engine.push(Frame::Activation { side, ops });
    }
}

/// 5.7.4.7: in the Historical scenario, the yellow-stripe cards (Landships, Zimmermann
/// Telegram, Over There, Tsar Takes Command, Fall of the Tsar, Bolshevik Revolution) give their
/// OPS after the event, as [`operations`]; in the other scenarios nothing. Call it before pushing
/// the event's own frames.
pub(in crate::events) fn yellow_stripe_operations(g: &mut PathsOfGlory, side: Side, card: u8) {
    const YELLOW_STRIPE: [(Side, u8); 6] = [
        (Side::Ap, 28),
        (Side::Ap, 54),
        (Side::Ap, 55),
        (Side::Cp, 28),
        (Side::Cp, 52),
        (Side::Cp, 53),
    ];
    if g.scenario.historical && YELLOW_STRIPE.contains(&(side, card)) {
        operations(g, side, card);
    }
}

/// The CP events [`activation_terms`] reads (9.2.3), asked of once for a list of spaces.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ActivationEvents {
    /// Moltke (AP #9) played and Falkenhayn (CP #13) not.
    moltke: bool,
    /// 11th Army (CP #29) played.
    eleventh_army: bool,
    /// SUD Army (CP #10) played.
    sud_army: bool,
}

/// The events in force now that bear on activation costs.
pub(crate) fn activation_events(g: &PathsOfGlory) -> ActivationEvents {
    ActivationEvents {
        moltke: played(g, Side::Ap, MOLTKE) && !played(g, Side::Cp, FALKENHAYN),
        eleventh_army: played(g, Side::Cp, ELEVENTH_ARMY),
        sud_army: played(g, Side::Cp, SUD_ARMY),
    }
}

/// What the events in force do to a space's activation cost (9.2.3): nationalities counted as
/// one (`(from, to)`: units of `from` count as `to`), and whether it costs 1 OPS a unit (Moltke).
pub(crate) fn activation_terms(g: &PathsOfGlory, side: Side, s: Space) -> (Vec<(Nation, Nation)>, bool) {
    activation_terms_with(g, side, s, activation_events(g), None)
}

/// [`activation_terms`], with the events in force given ([`activation_events`]) and, when
/// already asked of, the side's units in the space (in data order, as the position lists them).
pub(crate) fn activation_terms_with(
    g: &PathsOfGlory,
    side: Side,
    s: Space,
    events: ActivationEvents,
    here: Option<&[u16]>,
) -> (Vec<(Nation, Nation)>, bool) {
    let data = g.data();
    let country = data.facts(s).nation.as_deref();
    let mut joined = Vec::new();
    match side {
        Side::Cp => {
            // Moltke (AP #9) until Falkenhayn (CP #13): 1 OPS a unit in Belgium and France.
            if events.moltke && matches!(country, Some("be" | "fr")) {
                return (joined, true);
            }
            // The stack, asked of only while one of its events is in play.
            let units = if events.eleventh_army || events.sud_army {
                match here {
                    Some(here) => here.iter().map(|&u| usize::from(u)).collect(),
                    None => g.units_of_side(side, s),
                }
            } else {
                Vec::new()
            };
            if events.eleventh_army && eleventh_army_stack(g, &units) {
                for n in [Nation::Ah, Nation::Tu, Nation::Bu, Nation::Sn] {
                    joined.push((n, Nation::Ge));
                }
            } else if events.sud_army
                && sud_army_stack(g, &units)
                && !g
                    .action
                    .activated
                    .iter()
                    .any(|&(t, _)| t != s && sud_army_stack(g, &cp_units(g, t)))
            {
                joined.push((Nation::Ge, Nation::Ah));
            }
        }
        Side::Ap => {
            if g.turn.everyone_into_battle && matches!(country, Some("it" | "fr" | "be")) {
                use Nation::*;
                for n in [Br, Ana, Us, Ru, It, Be, Sb, Mn, Ro, Gr] {
                    joined.push((n, Fr));
                }
            }
        }
    }
    (joined, false)
}

/// Whether [`activation_terms`] for `side` read the spaces already activated this action (SUD
/// Army, CP #10: one stack an action), so that a space's cost may change as others are
/// activated.
pub(crate) fn activation_terms_read_activated(g: &PathsOfGlory, side: Side) -> bool {
    side == Side::Cp && played(g, Side::Cp, SUD_ARMY)
}

fn cp_units(g: &PathsOfGlory, s: Space) -> Vec<usize> {
    g.pos
        .units_in(s)
        .filter(|&u| g.data().pieces[u].side == Side::Cp)
        .collect()
}

/// SUD Army (CP #10): one Austro-Hungarian unit and one or two German corps, nothing else.
fn sud_army_stack(g: &PathsOfGlory, units: &[usize]) -> bool {
    let data = g.data();
    let ah = units.iter().filter(|&&u| data.pieces[u].nation == Nation::Ah).count();
    let ge_corps = units
        .iter()
        .filter(|&&u| data.pieces[u].nation == Nation::Ge && data.pieces[u].kind == Kind::Corps)
        .count();
    ah == 1 && (1..=2).contains(&ge_corps) && ah + ge_corps == units.len()
}

/// 11th Army (CP #29): the German 11th Army with CP corps only.
fn eleventh_army_stack(g: &PathsOfGlory, units: &[usize]) -> bool {
    let data = g.data();
    units.iter().any(|&u| data.pieces[u].id == "ge-army-11")
        && units.len() > 1
        && units
            .iter()
            .all(|&u| data.pieces[u].id == "ge-army-11" || data.pieces[u].kind == Kind::Corps)
}

/// A British counter proper: not the AUS, CND or PT corps (2022 7.1.4, for Lloyd George).
fn british_proper(g: &PathsOfGlory, u: u16) -> bool {
    g.data().pieces[u as usize].british_proper()
}

/// The defending units in a space: the side's other than `attacker`.
fn defenders(g: &PathsOfGlory, attacker: Side, s: Space) -> Vec<usize> {
    let d = other(attacker);
    g.pos.units_in(s).filter(|&u| g.data().pieces[u].side == d).collect()
}

/// Whether a German offensive card (Michael, Blücher, Peace Offensive) has been played.
fn german_offensive_played(g: &PathsOfGlory) -> bool {
    GERMAN_OFFENSIVES.iter().any(|&n| played(g, Side::Cp, n))
}

/// Whether an event bars unit `u` from attacking space `s`, and why: Oberost's absence is 15.1.10
/// (read in `operations`); here Lloyd George (CP #55) and Stavka Timidity (CP #58).
pub(crate) fn attack_barred(g: &PathsOfGlory, u: u16, s: Space) -> Option<Refusal> {
    let data = g.data();
    let p = data.pieces.get(u as usize)?;
    let st = g.pos.space(s);
    let d = defenders(g, p.side, s);
    let german = |u: &usize| data.pieces[*u].nation == Nation::Ge;
    if p.side == Side::Ap
        && g.turn.lloyd_george
        && !german_offensive_played(g)
        && british_proper(g, u)
        && st.trench.is_some_and(|t| t.level >= 2)
        && d.iter().any(german)
    {
        return Some(refuse(
            "CP #55",
            format!(
                "Lloyd George: no British attack on German units in the level-2 trench of {} this turn",
                g.name(s).en
            ),
            format!("劳合·乔治:本回合英军不能进攻{}二级壕沟中的德军", g.name(s).zh),
        ));
    }
    if p.side == Side::Ap
        && g.turn.stavka_timidity
        && p.nation == Nation::Ru
        && st.trench.is_some()
        && !d.is_empty()
        && d.iter().all(german)
    {
        return Some(refuse(
            "CP #58",
            format!(
                "Stavka Timidity: no Russian attack on German units alone in the trench of {} this turn",
                g.name(s).en
            ),
            format!("大本营怯战:本回合俄军不能进攻{}壕沟中仅有德军的区域", g.name(s).zh),
        ));
    }
    None
}

/// Oberost (CP #11): German units may attack spaces with Russian forts (15.1.10).
pub(crate) fn oberost(g: &PathsOfGlory) -> bool {
    played(g, Side::Cp, OBEROST)
}

/// The attack is declared (12.2.2): what the events in force give it, settled now: Brusilov
/// Offensive, Yanks and Tanks, Kerensky Offensive, Haig.
pub(crate) fn attack_declared(g: &mut PathsOfGlory) {
    let Some(b) = g.action.battle.clone() else {
        return;
    };
    let data = g.data();
    let attackers: Vec<usize> = b.attackers.iter().map(|&u| u as usize).collect();
    let d = defenders(g, b.attacker, b.defending);
    let nation = |u: &usize, n: Nation| data.pieces[*u].nation == n;
    let a = side_index(b.attacker);
    let mut drm = [0i32; 2];
    let mut negated = false;
    let mut no_retreat = false;
    let mut lines: Vec<Text> = Vec::new();
    if b.attacker == Side::Ap {
        let russian = attackers.iter().any(|u| nation(u, Nation::Ru));
        if g.action.brusilov && russian {
            drm[a] += 1;
            lines.push(Text::new(
                "Brusilov Offensive: +1 to the Russian attack (AP #46)",
                "勃鲁西洛夫攻势:俄军进攻+1(协约#46)",
            ));
            if g.action.brusilov_trench && !d.is_empty() && !d.iter().any(|u| nation(u, Nation::Ge)) {
                g.action.brusilov_trench = false;
                negated = true;
                lines.push(Text::new(
                    "Brusilov Offensive: this attack ignores the trench (AP #46)",
                    "勃鲁西洛夫攻势:本次进攻无视壕沟(协约#46)",
                ));
            }
        }
        if g.action.yanks_and_tanks && attackers.iter().any(|u| nation(u, Nation::Us)) {
            drm[a] += 2;
            lines.push(Text::new(
                "Yanks and Tanks: +2 to the attack with American units (AP #35)",
                "美国佬与坦克:有美军参加的进攻+2(协约#35)",
            ));
        }
        if g.action.kerensky
            && russian
            && d.iter()
                .any(|u| nation(u, Nation::Ah) || nation(u, Nation::Bu) || nation(u, Nation::Tu))
        {
            g.action.kerensky = false;
            drm[a] += 2;
            lines.push(Text::new(
                "Kerensky Offensive: +2 to the Russian attack (AP #45)",
                "克伦斯基攻势:俄军进攻+2(协约#45)",
            ));
        }
        let country = data.facts(b.defending).nation.as_deref();
        if g.turn.haig
            && !german_offensive_played(g)
            && attackers.iter().any(|&u| british_proper(g, u as u16))
            && matches!(country, Some("fr" | "be" | "ge"))
            && g.pos.space(b.defending).trench.is_some()
            && !d.is_empty()
            && d.iter().all(|u| nation(u, Nation::Ge))
        {
            no_retreat = true;
            lines.push(Text::new(
                "Haig: the entrenched Germans do not retreat from this British attack (CP #61)",
                "黑格:壕沟中的德军不因这次英军进攻撤退(同盟#61)",
            ));
        }
    }
    if let Some(bb) = &mut g.action.battle {
        bb.event_drm = drm;
        bb.event_trench_negated = negated;
        bb.event_no_retreat = no_retreat;
    }
    for l in lines {
        g.journal.say(|| l.clone());
    }
}

/// Great Retreat (AP #27): whether the Allies may retreat the defenders of the attack just
/// declared before the combat: the event played this turn, the defenders all Russian.
pub(crate) fn great_retreat_offered(g: &PathsOfGlory) -> bool {
    let Some(b) = &g.action.battle else {
        return false;
    };
    let d = defenders(g, b.attacker, b.defending);
    g.turn.great_retreat
        && b.attacker == Side::Cp
        && !d.is_empty()
        && d.iter().all(|&u| g.data().pieces[u].nation == Nation::Ru)
}

/// Great Retreat (AP #27): the Russians fall back one space and no combat takes place; the
/// attacker's full-strength units may then advance (12.7).
pub(crate) fn retreat_before_combat(g: &mut PathsOfGlory) {
    let Some(b) = &mut g.action.battle else {
        return;
    };
    b.retreat = Some(1);
    let (side, defending) = (other(b.attacker), b.defending);
    let n = g.name(defending);
    g.journal.say(|| {
        Text::new(
            format!(
                "Great Retreat: the Russians in {} fall back a space; no combat (AP #27)",
                n.en
            ),
            format!("大撤退:{}的俄军后撤一格,不进行会战(协约#27)", n.zh),
        )
    });
    g.engine.push(Frame::RetreatUnits { side });
}

/// Our short text of one of this module's events, in both languages.
pub(super) fn text(side: Side, card: u8) -> Option<Text> {
    let (en, zh) = match card_of(side, card)? {
        Card::Moltke => (
            "AP #9: only in August or September 1914. Until Falkenhayn, a CP activation in Belgium or France costs 1 OPS a unit, not a space.",
            "协约#9:仅限1914年8月或9月。在“法金汉”之前,同盟国在比利时或法国的激活按单位而非区域计,每单位1点作战。",
        ),
        Card::Falkenhayn => (
            "CP #13: in August or September 1914 only after Moltke; from Fall 1914 at any time. Ends Moltke's costs; Place of Execution may then be played.",
            "同盟#13:1914年8月或9月须在“毛奇”之后;1914年秋起随时可打。结束“毛奇”的激活费用;此后可打出“刑场”。",
        ),
        Card::SudArmy => (
            "CP #10: for the rest of the game, each action round one stack of an AH unit with up to two German corps activates as one nationality.",
            "同盟#10:此后每个行动轮,一个由一个奥匈单位与至多两个德国军组成的堆叠可作为同一国籍激活。",
        ),
        Card::EleventhArmy => (
            "CP #29: for the rest of the game, the German 11th Army stacked with CP corps only activates with them as one nationality.",
            "同盟#29:此后德国第11集团军与仅由同盟国军组成的同区域部队作为同一国籍激活。",
        ),
        Card::EveryoneIntoBattle => (
            "AP #51: only after Michael, Blücher or Peace Offensive. This turn the Allied units in Italy, France and Belgium activate as one nationality.",
            "协约#51:须在“米夏埃尔”、“布吕歇尔”或“和平攻势”之后。本回合协约国在意大利、法国和比利时的部队作为同一国籍激活。",
        ),
        Card::HlTakeCommand => (
            "CP #54: Michael, Blücher, Peace Offensive, Hoffmann and U-Boats Unleashed may be played, Place of Execution no longer; a German Mandated Offensive reads None.",
            "同盟#54:此后可打出“米夏埃尔”、“布吕歇尔”、“和平攻势”、“霍夫曼”与“无限制潜艇战”,不能再打“刑场”;德国强制攻势视为无。",
        ),
        Card::Landships => (
            "AP #28: Royal Tank Corps may be played from now on. Historical scenario: then conduct operations with this card.",
            "协约#28:此后可打出“皇家坦克军”。历史剧本:随后用此牌进行作战。",
        ),
        Card::SinaiPipeline => (
            "AP #49: Allied attacks from Sinai no longer take −3 (the CP's still do; summer desert rules stay). Allenby may be played.",
            "协约#49:协约国自西奈的进攻不再−3(同盟国仍然;夏季沙漠规则不变)。此后可打出“艾伦比”。",
        ),
        Card::Oberost => (
            "CP #11: German units may from now on attack spaces with Russian forts.",
            "同盟#11:此后德军可以进攻有俄国要塞的区域。",
        ),
        Card::LloydGeorge => (
            "CP #55: this turn no British attack on German units in a level-2 trench, unless Michael, Blücher or Peace Offensive has been played.",
            "同盟#55:本回合英军不能进攻二级壕沟中的德军;“米夏埃尔”、“布吕歇尔”或“和平攻势”打出后失效。",
        ),
        Card::StavkaTimidity => (
            "CP #58: only after Tsar Takes Command. This turn no Russian attack on German units alone in a trench.",
            "同盟#58:须在“沙皇亲征”之后。本回合俄军不能进攻壕沟中仅有德军的区域。",
        ),
        Card::Haig => (
            "CP #61: this turn German units in a trench in France, Belgium or Germany do not retreat from a British attack; no effect after Michael, Blücher or Peace Offensive.",
            "同盟#61:本回合在法国、比利时或德国壕沟中的德军遭英军进攻时不撤退;“米夏埃尔”、“布吕歇尔”或“和平攻势”之后无效。",
        ),
        Card::BrusilovOffensive => (
            "AP #46: conduct operations with this card; +1 to every Russian attack of this action, and the first on non-German CP units alone ignores the trench.",
            "协约#46:用此牌进行作战;本次行动俄军的每次进攻+1,第一次进攻仅有非德军同盟国部队的区域时无视壕沟。",
        ),
        Card::YanksAndTanks => (
            "AP #35: conduct operations with this card; +2 to every combat of this action with American units.",
            "协约#35:用此牌进行作战;本次行动有美军参加的会战+2。",
        ),
        Card::KerenskyOffensive => (
            "AP #45: only after the Fall of the Tsar and before the Bolshevik Revolution. Conduct operations with this card; +2 to one Russian attack on AH, BU or TU units.",
            "协约#45:须在“沙皇倒台”之后、“布尔什维克革命”之前。用此牌进行作战;俄军对有奥匈、保加利亚或土耳其部队区域的一次进攻+2。",
        ),
        Card::GreatRetreat => (
            "AP #27: this turn Russian units attacked may fall back one space before the combat instead of fighting; the attacker's full-strength units may advance.",
            "协约#27:本回合遭进攻的俄军可在会战前后撤一格而不交战;进攻方满编部队可以推进。",
        ),
        Card::MataHari => (
            "CP #17: see the Allied hand, then conduct operations with this card.",
            "同盟#17:查看协约国的手牌,然后用此牌进行作战。",
        ),
        Card::CloakAndDagger => (
            "AP #23: see the CP hand, then conduct operations with this card.",
            "协约#23:查看同盟国的手牌,然后用此牌进行作战。",
        ),
    };
    Some(Text::new(en, zh))
}

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
/// CP #8 Race to the Sea.
const RACE_TO_THE_SEA: u8 = 8;
/// AP #30 Salonika.
const SALONIKA: u8 = 30;
/// AP #49 Sinai Pipeline.
const SINAI_PIPELINE: u8 = 49;
/// CP #5 Landwehr.
const LANDWEHR: u8 = 5;
/// AP #56 Paris Taxis (optional).
const PARIS_TAXIS: u8 = 56;
/// CP #32 War in Africa.
const WAR_IN_AFRICA: u8 = 32;
/// AP #57 Russian Cavalry, AP #60 Czech Legion, CP #59 Polish Restoration (optional).
const RUSSIAN_CAVALRY: u8 = 57;
const CZECH_LEGION: u8 = 60;
const POLISH_RESTORATION: u8 = 59;
const CAVALRY: [&str; 2] = ["ru-cavalry-1", "ru-cavalry-2"];
const POLISH: [&str; 3] = ["ge-polish-1", "ge-polish-2", "ge-polish-3"];

/// The reinforcement cards whose units go where the card says (9.5.3.2, 9.5.3.3): AP #29
/// Yudenitch (CAU Army), #31 MEF, #41 Arab Northern Army, #50 Allenby (NE Army), #53 Army of
/// the Orient, CP #24 Libyan Revolt (Senussi).
pub(super) fn placed_as_the_card_says(side: Side, card: u8) -> bool {
    matches!((side, card), (Side::Ap, 29 | 31 | 41 | 50 | 53) | (Side::Cp, 24))
}

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
        // 2022 9.5.1.1 note: playable for its War Status even once War Status 4 opened the ports.
        (Side::Cp, RACE_TO_THE_SEA) => Ok(()),
        (Side::Ap, SALONIKA) => check_salonika(g),
        (Side::Cp, LANDWEHR) | (Side::Ap, PARIS_TAXIS) | (Side::Cp, WAR_IN_AFRICA) => Ok(()),
        (Side::Ap, RUSSIAN_CAVALRY) => check_cavalry(g),
        (Side::Ap, CZECH_LEGION) => check_czech_legion(g),
        (Side::Cp, POLISH_RESTORATION) => check_polish_restoration(g),
        _ if placed_as_the_card_says(side, card) => check_placed(g, side, card),
        _ => return None,
    })
}

/// Carries out one of this module's events; `false` for another card.
pub(super) fn carry_out(g: &mut PathsOfGlory, side: Side, card: u8) -> bool {
    match (side, card) {
        (Side::Cp, GUNS_OF_AUGUST) => guns_of_august(g),
        (Side::Ap, ENTRENCH_AP) | (Side::Cp, ENTRENCH_CP) => entrench(g, side, card),
        (Side::Cp, RACE_TO_THE_SEA) => g.journal.say(|| {
            Text::new(
                "CP units may now end a move, a redeployment or an advance in Ostend, Calais and Amiens (11.1.9, 12.6.6)",
                "同盟国单位此后可以在奥斯坦德、加来和亚眠结束移动、战略调动或推进(11.1.9、12.6.6)",
            )
        }),
        (Side::Ap, SALONIKA) => salonika(g),
        (Side::Cp, WAR_IN_AFRICA) => g.engine.push(Frame::EventConcede {
            side: Side::Ap,
            card,
        }),
        (Side::Ap, RUSSIAN_CAVALRY) => {
            let units: Vec<u16> = CAVALRY.iter().filter_map(|id| counter(g, id)).map(|u| u as u16).collect();
            g.engine.push(Frame::EventPlace { side, card, units });
        }
        (Side::Ap, CZECH_LEGION) => czech_legion(g),
        (Side::Cp, POLISH_RESTORATION) => polish_restoration(g),
        (Side::Cp, LANDWEHR) | (Side::Ap, PARIS_TAXIS) => g.engine.push(Frame::EventReplace {
            side,
            card,
            points: if card == LANDWEHR { 2 } else { 1 },
        }),
        _ if placed_as_the_card_says(side, card) => place_as_the_card_says(g, side, card),
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
        (Side::Cp, RACE_TO_THE_SEA) => (
            "From now on CP units may end their moves, redeployments and advances in Ostend, Calais and Amiens.",
            "此后同盟国单位可以在奥斯坦德、加来和亚眠结束移动、战略调动和推进。",
        ),
        (Side::Ap, SALONIKA) => (
            "Greece's limited entry: the Greek corps are set up and stay neutral; Salonika becomes Allied. Redeploy up to 3 British or French corps, from the map or the Reserve Box, to Salonika. Counts as an SR play.",
            "希腊有限参战:希腊各军就位但仍中立;萨洛尼卡归协约国控制。可将至多3个英国或法国军从地图或预备队格战略调动至萨洛尼卡。视为打出战略调动。",
        ),
        (Side::Cp, LANDWEHR) => (
            "2 replacement points, spent at once to bring reduced CP units on the map back to full strength; not for eliminated units.",
            "获得2点补充点,立即用于将地图上减员的同盟国单位恢复满编;不能用于被消灭的单位。",
        ),
        (Side::Ap, PARIS_TAXIS) => (
            "1 replacement point, spent at once to bring a reduced French army in or next to Paris back to full strength.",
            "获得1点补充点,立即用于将巴黎或其相邻区域内一个减员的法国集团军恢复满编。",
        ),
        (Side::Cp, WAR_IN_AFRICA) => (
            "The Allies choose: a British corps leaves the game for good, or the CP gains 1 VP.",
            "由协约国选择:一个英国军永久移出游戏,或同盟国获得1胜利点。",
        ),
        (Side::Ap, RUSSIAN_CAVALRY) => (
            "Both Russian cavalry corps enter together in one space of Russia holding a Russian army in supply, within the stacking limit.",
            "两个俄国骑兵军一同在俄国境内一个有补给中俄国集团军的区域进场,不得超过堆叠上限。",
        ),
        (Side::Ap, CZECH_LEGION) => (
            "An Austro-Hungarian corps in the CP Eliminated box (if any) leaves the game; the Czech Legion corps joins the Allied Reserve Box.",
            "同盟国消灭区中的一个奥匈军(如有)移出游戏;捷克军团加入协约国预备队格。",
        ),
        (Side::Cp, POLISH_RESTORATION) => (
            "While the CP holds Warsaw: 1 VP to the Allies, and the three Polish corps join the CP Reserve Box, counting as German.",
            "同盟国控制华沙时:协约国获得1胜利点,三个波兰军加入同盟国预备队格,视为德军。",
        ),
        (Side::Ap, 29) => (
            "Russian reinforcement: the Caucasus Army enters in a supplied Allied space of Russia on the Near East map; or, ignoring that, in Russia's capital or a supply source as an ordinary army without its Near East abilities (9.5.3.4).",
            "俄国增援:高加索集团军在近东地图上俄国境内一个有补给的协约国区域进场;或不受此限,作为失去近东能力的普通集团军在俄国首都或补给源进场(9.5.3.4)。",
        ),
        (Side::Ap, 31) => (
            "British reinforcement, once Turkey is at war and before Salonika: the MEF Army lands on one of the four MEF beaches with the Beachhead marker, which serves as an Allied port (9.5.3.5); or, at any time, in London as an ordinary army without its Near East abilities (9.5.3.4).",
            "英国增援,须土耳其已参战且“萨洛尼卡”尚未打出:地中海远征军在四个滩头之一登陆并放置滩头标记,该区域视为协约国港口(9.5.3.5);或随时作为失去近东能力的普通集团军在伦敦进场(9.5.3.4)。",
        ),
        (Side::Ap, 41) => (
            "British reinforcement, once Turkey is at war: the Arab Northern Army corps enters in Arabia.",
            "英国增援,须土耳其已参战:阿拉伯北方军在阿拉伯进场。",
        ),
        (Side::Ap, 50) => (
            "British reinforcement, only after Sinai Pipeline: the Near East Army enters in Alexandria; or, at any time, in London as an ordinary army without its Near East abilities (9.5.3.4).",
            "英国增援,须“西奈输水管”已打出:近东集团军在亚历山大进场;或随时作为失去近东能力的普通集团军在伦敦进场(9.5.3.4)。",
        ),
        (Side::Ap, 53) => (
            "French reinforcement: the Army of the Orient enters in Salonika, if Salonika is Allied and has room; or, at any time, in Paris or a French supply source as an ordinary army without its Near East abilities (9.5.3.4).",
            "法国增援:东方集团军在萨洛尼卡进场,须萨洛尼卡为协约国控制且未满堆叠;或随时作为失去近东能力的普通集团军在巴黎或法国补给源进场(9.5.3.4)。",
        ),
        (Side::Cp, 24) => (
            "Turkish reinforcement, if no Allied unit is in Libya: the Senussi corps enters in Libya.",
            "土耳其增援,须利比亚没有协约国单位:赛努西军在利比亚进场。",
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
        && g.scenario.edition >= 2
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

// ---- Salonika (AP #30) ----

/// 2022 9.3.3: the events that count as an SR play.
pub(crate) fn counts_as_sr(side: Side, card: u8) -> bool {
    side == Side::Ap && card == SALONIKA
}

/// AP #30: as an SR play, not in the round after one within a turn (2022 9.3.3).
fn check_salonika(g: &PathsOfGlory) -> Result<(), Refusal> {
    let round = round_now(g).unwrap_or(0);
    if round > 1 && g.turn.last_sr[side_index(Side::Ap)] == round - 1 {
        return Err(PathsOfGlory::refuse(
            "9.3.3",
            "Salonika counts as an SR play: not in the round after one played for SR, within a turn",
            "“萨洛尼卡”视为战略调动:同一回合内不能紧接在战略调动的下一个行动轮打出",
        ));
    }
    Ok(())
}

/// AP #30: Greece's limited entry (9.5.2.4): its corps set up, neutral; Salonika opens to the
/// Allies; then up to three corps redeploy there.
fn salonika(g: &mut PathsOfGlory) {
    let data = g.data();
    if g.pos.neutral.iter().any(|n| n == "gr") {
        let (setup, historical) = (g.setup_data(), g.scenario.historical);
        let _ = setup.enter(data, &mut g.pos, "gr", historical, true);
        g.journal.say(|| {
            Text::new(
                "Greece's limited entry: the Greek corps are set up and stay neutral (9.5.2.4)",
                "希腊有限参战:希腊各军就位,仍保持中立(9.5.2.4)",
            )
        });
    }
    if let Some(s) = space_id(g, "salonika") {
        if g.pos.space(s).control.is_none() && g.occupant(s).is_none() {
            g.pos.spaces[s.idx()].control = Some(Side::Ap);
        }
    }
    g.engine.push(Frame::EventRedeploy {
        side: Side::Ap,
        card: SALONIKA,
        left: 3,
    });
}

/// AP #30: the corps that may redeploy to Salonika now: British or French, on the map or in
/// the Reserve Box, by the rules of SR (13.1), into room.
pub(crate) fn event_redeploy_candidates(g: &PathsOfGlory, side: Side, card: u8, out: &mut Vec<Action>) {
    if (side, card) == (Side::Ap, SALONIKA) {
        let data = g.data();
        for u in 0..data.pieces.len() {
            let p = &data.pieces[u];
            if p.side == side
                && p.kind == Kind::Corps
                && matches!(p.nation, crate::data::Nation::Br | crate::data::Nation::Fr)
            {
                out.push(Action::Redeploy { unit: u as u16 });
            }
        }
    }
    out.push(Action::EndRedeployment);
}

/// AP #30: whether this corps may redeploy to Salonika.
pub(crate) fn check_event_redeploy(g: &PathsOfGlory, side: Side, card: u8, action: &Action) -> Result<(), Refusal> {
    let unit = match action {
        Action::EndRedeployment => return Ok(()),
        Action::Redeploy { unit } => *unit as usize,
        _ => {
            return Err(PathsOfGlory::refuse(
                "13.1",
                "redeploy a corps, or end the redeployment",
                "战略调动一个军,或结束战略调动",
            ))
        }
    };
    let data = g.data();
    let rule = format!("{} #{card}", side_code(side));
    let Some(p) = data.pieces.get(unit) else {
        return Err(PathsOfGlory::refuse("13.1", "no such unit", "没有这个单位"));
    };
    if p.side != side || p.kind != Kind::Corps || !matches!(p.nation, crate::data::Nation::Br | crate::data::Nation::Fr)
    {
        return Err(PathsOfGlory::refuse(
            &rule,
            "only British or French corps redeploy to Salonika",
            "只有英国或法国的军可以战略调动至萨洛尼卡",
        ));
    }
    if g.action.moved.contains(&(unit as u16)) {
        return Err(PathsOfGlory::refuse(
            "13.1.3",
            format!("{} has already redeployed", p.name_en),
            format!("{}已经战略调动过", p.name_zh),
        ));
    }
    let Some(salonika) = space_id(g, "salonika") else {
        return Err(PathsOfGlory::refuse(
            &rule,
            "no Salonika on the map",
            "地图上没有萨洛尼卡",
        ));
    };
    if g.pos.units[unit].loc == Location::Map(salonika) {
        return Err(PathsOfGlory::refuse(
            &rule,
            format!("{} is already in Salonika", p.name_en),
            format!("{}已在萨洛尼卡", p.name_zh),
        ));
    }
    if !room(g, salonika) {
        return Err(PathsOfGlory::refuse(
            "10.1.1",
            "Salonika already holds 3 units",
            "萨洛尼卡已有3个单位",
        ));
    }
    // The card lets a corps go from the Reserve Box to Salonika though no unit of its nation
    // stands there (13.1.8): its capital held (13.1.10) and Salonika in supply for it.
    if g.pos.units[unit].loc == Location::Reserve {
        let supplied = crate::supply::in_supply(
            data,
            &g.pos,
            crate::supply::tracer_of(data, unit),
            salonika,
            &crate::sequence::supply_context(g),
        );
        if !g.pos.holds_capital(data, p.nation, side) {
            return Err(PathsOfGlory::refuse(
                "13.1.10",
                format!(
                    "{}'s capital is lost: no corps leaves its Reserve Box",
                    p.nation.name().en
                ),
                format!("{}首都失守:军不能离开预备队格", p.nation.name().zh),
            ));
        }
        if g.pos.space(salonika).control != Some(side) || !supplied {
            return Err(PathsOfGlory::refuse(
                "13.1.5",
                "Salonika must be Allied and in supply",
                "萨洛尼卡须为协约国控制且有补给",
            ));
        }
        return Ok(());
    }
    let occ = g.kept.occupancy(data, &g.pos);
    let ctx = crate::round::sr_context(g, &occ);
    crate::redeployment::check(data, &g.pos, unit, crate::redeployment::Place::Map(salonika), &ctx)
}

/// AP #30: the corps goes to Salonika; the next may follow.
pub(crate) fn event_redeploy(g: &mut PathsOfGlory, side: Side, card: u8, left: u8, action: &Action) {
    let Action::Redeploy { unit } = *action else { return };
    let Some(salonika) = space_id(g, "salonika") else {
        return;
    };
    let from = g.pos.units[unit as usize].loc;
    g.pos.units[unit as usize].loc = Location::Map(salonika);
    g.action.moved.push(unit);
    let n = g.unit_name(unit);
    let (fe, fz) = match from {
        Location::Map(s) => {
            let t = g.name(s);
            (t.en, t.zh)
        }
        _ => ("the Reserve Box".to_string(), "预备队格".to_string()),
    };
    g.journal.say(|| {
        Text::new(
            format!("{} redeploys from {fe} to Salonika (AP #30, 13.1)", n.en),
            format!("{}从{fz}战略调动至萨洛尼卡(协约国#30,13.1)", n.zh),
        )
    });
    if left > 1 && room(g, salonika) {
        g.engine.push(Frame::EventRedeploy {
            side,
            card,
            left: left - 1,
        });
    }
}

// ---- Landwehr (CP #5), Paris Taxis (AP #56) ----

/// The purchases an event's points may make: reduced units on the map flipped (17.1.4).
pub(crate) fn event_replace_candidates(g: &PathsOfGlory, side: Side, out: &mut Vec<Action>) {
    use crate::game::Buy;
    let data = g.data();
    let reduced: Vec<usize> = (0..data.pieces.len())
        .filter(|&u| data.pieces[u].side == side && !g.pos.units[u].full && g.at(u).is_some())
        .collect();
    for (k, &a) in reduced.iter().enumerate() {
        match data.pieces[a].kind {
            Kind::Army => out.push(Action::Buy {
                purchase: Buy::FlipArmy(a as u16),
            }),
            Kind::Corps => {
                out.push(Action::Buy {
                    purchase: Buy::FlipCorps(a as u16, None),
                });
                for &b in &reduced[k + 1..] {
                    if data.pieces[b].kind == Kind::Corps && data.pieces[b].rp == data.pieces[a].rp {
                        out.push(Action::Buy {
                            purchase: Buy::FlipCorps(a as u16, Some(b as u16)),
                        });
                    }
                }
            }
        }
    }
    out.push(Action::EndReplacement);
}

/// CP #5, AP #56: only flips of reduced units on the map, within the event's points, by the
/// replacement rules (17.1); Paris Taxis a French army in or next to Paris.
pub(crate) fn check_event_replace(
    g: &PathsOfGlory,
    side: Side,
    card: u8,
    points: u8,
    action: &Action,
) -> Result<(), Refusal> {
    use crate::replacements::Purchase;
    let purchase = match action {
        Action::EndReplacement => return Ok(()),
        Action::Buy { purchase } => purchase.purchase(),
        _ => {
            return Err(PathsOfGlory::refuse(
                "17.1",
                "flip a reduced unit, or end",
                "将一个减员单位恢复满编,或结束",
            ))
        }
    };
    let rule = format!("{} #{card}", side_code(side));
    if !matches!(purchase, Purchase::FlipArmy(_) | Purchase::FlipCorps(..)) {
        return Err(PathsOfGlory::refuse(
            &rule,
            "these points only flip reduced units on the map, never rebuild eliminated ones",
            "这些补充点只能将地图上的减员单位恢复满编,不能重建被消灭的单位",
        ));
    }
    let data = g.data();
    if purchase
        .units()
        .iter()
        .any(|&u| data.pieces.get(u).is_none_or(|p| p.side != side))
    {
        return Err(PathsOfGlory::refuse("17.1", "that unit is not yours", "那不是你的单位"));
    }
    if card == PARIS_TAXIS {
        let near_paris = |u: usize| {
            let p = &data.pieces[u];
            let paris = space_id(g, "paris");
            p.nation == crate::data::Nation::Fr
                && p.kind == Kind::Army
                && g.at(u)
                    .zip(paris)
                    .is_some_and(|(s, paris)| s == paris || data.map.graph.adjacent(s, paris))
        };
        if !purchase.units().iter().all(|&u| near_paris(u)) {
            return Err(PathsOfGlory::refuse(
                &rule,
                "Paris Taxis flip a reduced French army in or next to Paris",
                "“巴黎出租车”只能恢复巴黎或其相邻区域内的法国减员集团军",
            ));
        }
    }
    crate::replacements::check(
        data,
        g.tables(),
        &g.pos,
        points,
        purchase,
        &crate::sequence::placement_context(g),
    )
    .map(|_| ())
}

/// The flip is made; the points left may flip more.
pub(crate) fn event_replace(g: &mut PathsOfGlory, side: Side, card: u8, points: u8, action: &Action) {
    let Action::Buy { purchase } = action else { return };
    let p = purchase.purchase();
    let cost = crate::replacements::cost(g.tables(), p);
    crate::replacements::apply(g.data(), &mut g.pos, p);
    let what = crate::round::describe_buy(g, *purchase);
    let rule = format!("{} #{card}", side_code(side));
    g.journal
        .say(|| Text::new(format!("{} ({rule})", what.en), format!("{}({rule})", what.zh)));
    let left = points.saturating_sub(cost);
    if left > 0 {
        g.engine.push(Frame::EventReplace {
            side,
            card,
            points: left,
        });
    }
}

// ---- War in Africa (CP #32) ----

/// The British corps the Allies may give up: British counters in play (map, Reserve Box,
/// Eliminated box).
fn british_corps(g: &PathsOfGlory) -> Vec<u16> {
    let data = g.data();
    (0..data.pieces.len())
        .filter(|&u| {
            let p = &data.pieces[u];
            p.side == Side::Ap && p.kind == Kind::Corps && p.nation == crate::data::Nation::Br
        })
        .filter(|&u| {
            matches!(
                g.pos.units[u].loc,
                Location::Map(_) | Location::Reserve | Location::Eliminated
            )
        })
        .map(|u| u as u16)
        .collect()
}

pub(crate) fn event_concede_candidates(g: &PathsOfGlory, _side: Side, _card: u8, out: &mut Vec<Action>) {
    out.extend(british_corps(g).into_iter().map(|u| Action::Concede { unit: Some(u) }));
    out.push(Action::Concede { unit: None });
}

pub(crate) fn check_event_concede(g: &PathsOfGlory, _side: Side, card: u8, action: &Action) -> Result<(), Refusal> {
    match action {
        Action::Concede { unit: None } => Ok(()),
        Action::Concede { unit: Some(u) } if british_corps(g).contains(u) => Ok(()),
        _ => Err(PathsOfGlory::refuse(
            &format!("CP #{card}"),
            "give up a British corps in play, or the VP",
            "交出一个在场的英国军,或交出胜利点",
        )),
    }
}

/// CP #32: the Allies' choice is carried out.
pub(crate) fn event_concede(g: &mut PathsOfGlory, _side: Side, card: u8, action: &Action) {
    match action {
        Action::Concede { unit: Some(u) } => {
            g.pos.units[*u as usize].loc = Location::Removed;
            let n = g.unit_name(*u);
            g.journal.say(|| {
                Text::new(
                    format!("{} leaves the game (CP #{card})", n.en),
                    format!("{}移出游戏(同盟国#{card})", n.zh),
                )
            });
        }
        Action::Concede { unit: None } => {
            g.pos.vp += 1;
            let vp = g.pos.vp;
            g.journal.say(|| {
                Text::new(
                    format!("The CP gains 1 VP: {vp} (CP #{card})"),
                    format!("同盟国获得1胜利点:{vp}(同盟国#{card})"),
                )
            });
        }
        _ => {}
    }
}

// ---- Russian Cavalry (AP #57), Czech Legion (AP #60), Polish Restoration (CP #59) ----

/// AP #57: the spaces of Russia holding a Russian army in supply, with room for both corps.
fn cavalry_spaces(g: &PathsOfGlory) -> Vec<Space> {
    let data = g.data();
    let mut v: Vec<Space> = (0..data.pieces.len())
        .filter(|&u| {
            let p = &data.pieces[u];
            p.side == Side::Ap && p.kind == Kind::Army && p.nation == crate::data::Nation::Ru
        })
        .filter(|&u| crate::operations::in_supply(g, u as u16))
        .filter_map(|u| g.at(u))
        .filter(|&s| data.facts(s).nation.as_deref() == Some("ru") && g.pos.units_in(s).count() <= 1)
        .collect();
    v.sort();
    v.dedup();
    v
}

fn check_cavalry(g: &PathsOfGlory) -> Result<(), Refusal> {
    if CAVALRY
        .iter()
        .any(|id| counter(g, id).is_none_or(|u| g.pos.units[u].loc != Location::Aside))
    {
        return Err(PathsOfGlory::refuse(
            "AP #57",
            "the Russian cavalry corps are already in play",
            "俄国骑兵军已经在游戏中",
        ));
    }
    if cavalry_spaces(g).is_empty() {
        return Err(PathsOfGlory::refuse(
            "AP #57",
            "no space of Russia holds a Russian army in supply with room for both corps",
            "俄国境内没有一个区域有补给中的俄国集团军且容得下两个军",
        ));
    }
    Ok(())
}

/// AP #60: an Austro-Hungarian corps in the Eliminated box (they are alike: the first), and the
/// Czech Legion not yet in play.
fn eliminated_ah_corps(g: &PathsOfGlory) -> Option<usize> {
    let data = g.data();
    (0..data.pieces.len()).find(|&u| {
        let p = &data.pieces[u];
        p.nation == crate::data::Nation::Ah && p.kind == Kind::Corps && g.pos.units[u].loc == Location::Eliminated
    })
}

fn check_czech_legion(g: &PathsOfGlory) -> Result<(), Refusal> {
    if counter(g, "ru-czech-legion").is_none_or(|u| g.pos.units[u].loc != Location::Aside) {
        return Err(PathsOfGlory::refuse(
            "AP #60",
            "the Czech Legion is already in play",
            "捷克军团已经在游戏中",
        ));
    }
    // 2022 9.5.1.1 note (edition 7): with none eliminated the removal is moot, the Legion enters.
    if eliminated_ah_corps(g).is_none() && g.scenario.edition < 7 {
        return Err(PathsOfGlory::refuse(
            "AP #60",
            "no Austro-Hungarian corps is in the CP Eliminated box",
            "同盟国消灭区中没有奥匈军",
        ));
    }
    Ok(())
}

fn czech_legion(g: &mut PathsOfGlory) {
    if let Some(u) = eliminated_ah_corps(g) {
        g.pos.units[u].loc = Location::Removed;
        let n = g.unit_name(u as u16);
        g.journal.say(|| {
            Text::new(
                format!("{} leaves the game (AP #60)", n.en),
                format!("{}移出游戏(协约国#60)", n.zh),
            )
        });
    }
    if let Some(u) = counter(g, "ru-czech-legion") {
        to_reserve(g, u, "AP #60");
    }
}

fn to_reserve(g: &mut PathsOfGlory, u: usize, rule: &str) {
    g.pos.units[u] = crate::state::Unit {
        loc: Location::Reserve,
        full: true,
    };
    let n = g.unit_name(u as u16);
    g.journal.say(|| {
        Text::new(
            format!("{} enters the Reserve Box ({rule})", n.en),
            format!("{}进入预备队格({rule})", n.zh),
        )
    });
}

fn check_polish_restoration(g: &PathsOfGlory) -> Result<(), Refusal> {
    if space_id(g, "warsaw").is_none_or(|s| g.pos.space(s).control != Some(Side::Cp)) {
        return Err(PathsOfGlory::refuse(
            "CP #59",
            "Polish Restoration may only be played while the CP holds Warsaw",
            "同盟国控制华沙时才能打出“波兰复国”",
        ));
    }
    if POLISH
        .iter()
        .any(|id| counter(g, id).is_none_or(|u| g.pos.units[u].loc != Location::Aside))
    {
        return Err(PathsOfGlory::refuse(
            "CP #59",
            "the Polish corps are already in play",
            "波兰军已经在游戏中",
        ));
    }
    Ok(())
}

fn polish_restoration(g: &mut PathsOfGlory) {
    g.pos.vp -= 1;
    let vp = g.pos.vp;
    g.journal
        .say(|| Text::new(format!("VP −1: {vp} (CP #59)"), format!("胜利点−1:{vp}(同盟国#59)")));
    for id in POLISH {
        if let Some(u) = counter(g, id) {
            to_reserve(g, u, "CP #59");
        }
    }
}

// ---- Reinforcements placed as the card says (9.5.3.2, 9.5.3.3) ----

fn space_id(g: &PathsOfGlory, id: &str) -> Option<Space> {
    g.data().space(id)
}

/// Whether a space has room for one more unit (10.1.1).
fn room(g: &PathsOfGlory, s: Space) -> bool {
    g.pos.units_in(s).count() < 3
}

fn turkey_at_war(g: &PathsOfGlory) -> bool {
    !g.pos.neutral.iter().any(|n| n == "tu")
}

/// The spaces the card lets its unit `u` enter (9.5.3.3: within the stacking limit, in supply,
/// the side's and not besieged, unless the card says otherwise).
fn placed_spaces(g: &PathsOfGlory, side: Side, card: u8, u: usize) -> Vec<Space> {
    let data = g.data();
    let own = |s: Space| {
        let st = g.pos.space(s);
        st.control == Some(side) && st.fort != Fort::Besieged && room(g, s)
    };
    let enemy_free = |s: Space| g.occupant(s).is_none_or(|o| o == side) && room(g, s);
    let supplied = |s: Space| {
        crate::supply::in_supply(
            data,
            &g.pos,
            crate::supply::tracer_of(data, u),
            s,
            &crate::sequence::supply_context(g),
        )
    };
    let mut v: Vec<Space> = match (side, card) {
        // AP #29: any supplied space in Russia on the Near East map.
        (Side::Ap, 29) => data
            .map
            .graph
            .space_indices()
            .filter(|&s| data.facts(s).nation.as_deref() == Some("ru") && data.facts(s).near_east)
            .filter(|&s| own(s) && supplied(s))
            .collect(),
        // AP #31, 9.5.3.5: any of the four MEF beaches not held by the CP.
        (Side::Ap, 31) => data
            .map
            .space_set("mef-beaches")
            .iter()
            .copied()
            .filter(|&s| g.pos.space(s).control != Some(Side::Cp) && enemy_free(s))
            .collect(),
        // AP #41: Arabia, the ANA converting it (11.1.14); 14.1.5 keeps it supplied there.
        (Side::Ap, 41) => space_id(g, "arabia").into_iter().filter(|&s| enemy_free(s)).collect(),
        // AP #50: Alexandria.
        (Side::Ap, 50) => space_id(g, "alexandria")
            .into_iter()
            .filter(|&s| own(s) && supplied(s))
            .collect(),
        // AP #53: Salonika, if Allied.
        (Side::Ap, 53) => space_id(g, "salonika")
            .into_iter()
            .filter(|&s| own(s) && supplied(s))
            .collect(),
        // CP #24: Libya, with no Allied unit there (14.1.5: the Senussi need no supply line).
        (Side::Cp, 24) => space_id(g, "libya").into_iter().filter(|&s| enemy_free(s)).collect(),
        _ => Vec::new(),
    };
    v.sort();
    v.dedup();
    v
}

/// 9.5.3.4: the four Near East armies' cards (the Caucasus, MEF, Near East and Orient armies),
/// whose army may instead enter as an ordinary reinforcement (games begun on data edition 3 or
/// later).
fn near_east_army_card(g: &PathsOfGlory, side: Side, card: u8) -> bool {
    g.scenario.edition >= 3 && matches!((side, card), (Side::Ap, 29 | 31 | 50 | 53))
}

/// 9.5.3.4: where a Near East army may enter as an ordinary reinforcement, ignoring its card's
/// restrictions: its nation's capital or a friendly supply source of its nation, as 9.5.3.3
/// places any army, off the Near East map (it has lost its Near East abilities).
fn ordinary_spaces(g: &PathsOfGlory, side: Side, card: u8, u: usize) -> Vec<Space> {
    if !near_east_army_card(g, side, card) {
        return Vec::new();
    }
    let data = g.data();
    let mut v = crate::placement::army_spaces(data, &g.pos, u, &crate::sequence::placement_context(g));
    v.retain(|&s| !data.facts(s).near_east);
    v
}

/// Where the card itself places its unit now: none while the card's own condition fails.
fn card_spaces(g: &PathsOfGlory, side: Side, card: u8, u: usize) -> Vec<Space> {
    if card_condition(g, side, card).is_err() {
        return Vec::new();
    }
    placed_spaces(g, side, card, u)
}

/// Every space the card's unit may enter: as the card says, or as an ordinary reinforcement
/// (9.5.3.4).
fn entry_spaces(g: &PathsOfGlory, side: Side, card: u8, u: usize) -> Vec<Space> {
    let mut v = card_spaces(g, side, card, u);
    v.extend(ordinary_spaces(g, side, card, u));
    v.sort();
    v.dedup();
    v
}

/// 9.5.3.1 and each card's own condition (which 9.5.3.4 lets a Near East army ignore).
fn check_placed(g: &PathsOfGlory, side: Side, card: u8) -> Result<(), Refusal> {
    let Some((nation, units)) = super::reinforcements::reinforcements(g, side, card) else {
        return Ok(());
    };
    super::reinforcements::check_turn(g, nation, &units)?;
    if let Err(r) = card_condition(g, side, card) {
        if units.iter().all(|&u| ordinary_spaces(g, side, card, u).is_empty()) {
            return Err(r);
        }
    }
    if units.iter().any(|&u| entry_spaces(g, side, card, u).is_empty()) {
        return Err(PathsOfGlory::refuse(
            "9.5.3.1",
            "the card's unit has no legal space to enter (stacking, supply, control)",
            "这张牌的单位没有可以进场的合法区域(堆叠、补给或控制)",
        ));
    }
    Ok(())
}

/// The condition a card placing its unit itself sets (Turkey at war, Salonika, Sinai Pipeline,
/// Libya).
fn card_condition(g: &PathsOfGlory, side: Side, card: u8) -> Result<(), Refusal> {
    let card_rule = format!("{} #{card}", side_code(side));
    let refuse = |en: &str, zh: &str| Err(PathsOfGlory::refuse(&card_rule, en, zh));
    match (side, card) {
        (Side::Ap, 31 | 41) if !turkey_at_war(g) => {
            return refuse(
                "this card may only be played once Turkey is at war",
                "这张牌须在土耳其参战后才能打出",
            )
        }
        (Side::Ap, 31) if super::played(g, Side::Ap, SALONIKA) => {
            return Err(PathsOfGlory::refuse(
                "9.5.2.4.1",
                "the MEF event may not be played after Salonika",
                "“萨洛尼卡”打出后不能再打出地中海远征军事件",
            ))
        }
        (Side::Ap, 50) if !super::played(g, Side::Ap, SINAI_PIPELINE) => {
            return refuse(
                "Allenby may only be played after Sinai Pipeline",
                "“艾伦比”须在“西奈输水管”之后才能打出",
            )
        }
        (Side::Ap, 53) if space_id(g, "salonika").is_none_or(|s| g.pos.space(s).control != Some(Side::Ap)) => {
            return refuse(
                "the Army of the Orient enters only in an Allied Salonika",
                "东方集团军只能在协约国控制的萨洛尼卡进场",
            )
        }
        (Side::Cp, 24) if space_id(g, "libya").is_some_and(|s| g.occupant(s) == Some(Side::Ap)) => {
            return refuse(
                "Libyan Revolt may only be played while no Allied unit is in Libya",
                "利比亚有协约国单位时不能打出“利比亚起义”",
            )
        }
        _ => {}
    }
    Ok(())
}

/// The card's unit enters: where the card names one space, there; else the player chooses.
fn place_as_the_card_says(g: &mut PathsOfGlory, side: Side, card: u8) {
    let Some((nation, units)) = super::reinforcements::reinforcements(g, side, card) else {
        return;
    };
    g.turn.reinforced.push(nation);
    for u in units {
        let spaces = entry_spaces(g, side, card, u);
        if spaces.len() == 1 {
            arrive(g, side, card, u as u16, spaces[0]);
        } else {
            g.engine.push(Frame::EventPlace {
                side,
                card,
                units: vec![u as u16],
            });
        }
    }
}

/// A unit placed by its card enters at full strength; the space becomes its side's (the ANA
/// converts none, 11.1.14), and the MEF's beach takes the Beachhead marker (9.5.3.5).
fn arrive(g: &mut PathsOfGlory, side: Side, card: u8, u: u16, s: Space) {
    // 9.5.3.4: a Near East army entering elsewhere than its card says is an ordinary army.
    let ordinary = near_east_army_card(g, side, card) && !card_spaces(g, side, card, u as usize).contains(&s);
    if ordinary {
        super::put(g, u, Some(s), "9.5.3.4");
        g.pos.ordinary_near_east.push(u);
        let n = g.unit_name(u);
        g.journal.say(|| {
            Text::new(
                format!(
                    "{} enters as an ordinary reinforcement and loses its Near East abilities (9.5.3.4)",
                    n.en
                ),
                format!("{}作为普通增援进场,失去其近东能力(9.5.3.4)", n.zh),
            )
        });
        return;
    }
    let rule = format!("{} #{card}", side_code(side));
    super::put(g, u, Some(s), &rule);
    let st = *g.pos.space(s);
    if card == 31 && side == Side::Ap {
        g.pos.beachhead = Some(s);
        let n = g.name(s);
        g.journal.say(|| {
            Text::new(
                format!(
                    "The MEF Beachhead marker is placed in {}: an Allied port (9.5.3.5)",
                    n.en
                ),
                format!("{}放置地中海远征军滩头标记:视为协约国港口(9.5.3.5)", n.zh),
            )
        });
    }
    let converts = !(side == Side::Ap && card == 41);
    if converts && st.control != Some(side) && st.fort != Fort::Intact && st.fort != Fort::Besieged {
        g.pos.spaces[s.idx()].control = Some(side);
        g.pos.spaces[s.idx()].trench = crate::trenches::entered(st.trench, side);
        g.pos.vp += crate::victory::capture(g.data(), g.scenario.historical, s, st.control, Some(side));
    }
}

// ---- The choice of a space (Frame::EventPlace) ----

/// The spaces an event lets its player choose for its marker or the first of `units`.
pub(crate) fn event_spaces(g: &PathsOfGlory, side: Side, card: u8, units: &[u16]) -> Vec<Space> {
    match (side, card) {
        (Side::Ap, ENTRENCH_AP) | (Side::Cp, ENTRENCH_CP) => entrench_spaces(g, side),
        (Side::Ap, RUSSIAN_CAVALRY) => cavalry_spaces(g),
        _ if placed_as_the_card_says(side, card) => units
            .first()
            .map(|&u| entry_spaces(g, side, card, u as usize))
            .unwrap_or_default(),
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
        (Side::Ap, RUSSIAN_CAVALRY) => (
            "AP #57".to_string(),
            "both cavalry corps go to one space of Russia holding a Russian army in supply, with room for both",
            "两个骑兵军须进入俄国境内同一个有补给中俄国集团军且容得下两个军的区域",
        ),
        _ if placed_as_the_card_says(side, card) => (
            "9.5.3.3".to_string(),
            "the unit enters where its card says, within the stacking limit and in supply",
            "该单位须按卡牌所说进场,不超过堆叠上限且有补给",
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
pub(crate) fn event_place(g: &mut PathsOfGlory, side: Side, card: u8, units: Vec<u16>, at: Option<Space>) {
    if placed_as_the_card_says(side, card) {
        if let Some(&u) = units.first() {
            match at {
                Some(s) => arrive(g, side, card, u, s),
                None => super::put(g, u, None, "9.5.3.3"),
            }
        }
        return;
    }
    if (side, card) == (Side::Ap, RUSSIAN_CAVALRY) {
        for u in units {
            super::put(g, u, at, "AP #57");
        }
        return;
    }
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
pub(crate) fn describe_event_place(g: &PathsOfGlory, side: Side, card: u8, units: &[u16], at: Space) -> Text {
    let n = g.name(at);
    match (side, card) {
        (Side::Ap, RUSSIAN_CAVALRY) => Text::new(
            format!("Both cavalry corps enter at {}", n.en),
            format!("两个骑兵军在{}进场", n.zh),
        ),
        _ if placed_as_the_card_says(side, card) && !units.is_empty() => {
            let u = g.unit_name(units[0]);
            Text::new(
                format!("{} enters at {}", u.en, n.en),
                format!("{}在{}进场", u.zh, n.zh),
            )
        }
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

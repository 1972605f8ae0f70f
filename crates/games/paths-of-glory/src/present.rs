//! The board as a player sees it: the map of spaces and lines from the reference coordinates,
//! in our own colours, with each side's counters on their spaces and their names in the
//! player's language.

use crate::data::Side;
use crate::data::{Data, Nation};
use crate::state::{Fort, Location, Position};
use sandtable_core::game::{ActionKind, HandCard, Targets};
use sandtable_core::graph::Space;
use sandtable_core::render::{
    pick, put_pieces, render_point_base, render_point_pieces, ConnectionStyle, Counter, HexMark, NatoSymbol, PointStyle,
};
use sandtable_core::text::{Lang, Text};

/// The map's look: spaces by terrain, dashed lines by who may use them.
pub fn map_style(data: &Data) -> PointStyle {
    let t = |name: &str| data.map.terrain_mask(name);
    let l = data.lines;
    let dashed = |mask: u32, stroke: &str| ConnectionStyle {
        mask,
        stroke: stroke.into(),
        width: 2.0,
        dash: Some("6 4".into()),
    };
    PointStyle {
        spaces: vec![
            (t("forest"), "#a9c98f".into()),
            (t("swamp"), "#b7d3cc".into()),
            (t("desert"), "#ecd9a6".into()),
            (t("mountain"), "#cdb394".into()),
        ],
        connections: vec![
            dashed(l.only_br, "#b5651d"),
            dashed(l.only_it, "#2e8b57"),
            dashed(l.only_ru, "#6b8e23"),
            dashed(l.only_ana | l.only_tu, "#b8860b"),
            dashed(l.mef_beach, "#1f5fa8"),
        ],
        boxes: crate::board::boxes(data),
        band: crate::board::BAND,
    }
}

/// A nation's counter colours: background and ink.
fn colours(n: Nation) -> (&'static str, &'static str) {
    match n {
        Nation::Ge => ("#5f6b73", "#ffffff"),
        Nation::Ah => ("#b9b07a", "#1f1f1f"),
        Nation::Tu => ("#d8c25a", "#1f1f1f"),
        Nation::Bu => ("#8a9a5b", "#ffffff"),
        Nation::Sn => ("#d8c25a", "#1f1f1f"),
        Nation::Fr => ("#5b7fc4", "#ffffff"),
        Nation::Br | Nation::Ana => ("#c9a66b", "#1f1f1f"),
        Nation::Us => ("#6b8e4e", "#ffffff"),
        Nation::Ru => ("#7aa35a", "#1f1f1f"),
        Nation::It => ("#77b39b", "#1f1f1f"),
        Nation::Be => ("#d9c26f", "#1f1f1f"),
        Nation::Sb | Nation::Mn => ("#a05a5a", "#ffffff"),
        Nation::Ro => ("#a8a0cf", "#1f1f1f"),
        Nation::Gr => ("#8fb3d9", "#1f1f1f"),
    }
}

/// The counters on the map, as the board draws them: the designation, the factors of the side
/// showing (combat-loss-movement), reduced ones striped.
pub fn counters(data: &Data, pos: &Position, lang: Lang) -> Vec<Counter<Space>> {
    data.pieces
        .iter()
        .zip(&pos.units)
        .filter_map(|(p, u)| {
            let s = match u.loc {
                Location::Map(s) => s,
                // 13.1.3, 17.0: corps in the Reserve Box, units in the Eliminated/Replaceable box.
                Location::Reserve => holding_box(data, p.side, "reserve")?,
                Location::Eliminated => holding_box(data, p.side, "eliminated")?,
                Location::Aside | Location::Removed => return None,
            };
            let f = if u.full { p.full } else { p.reduced };
            let (fill, ink) = colours(p.nation);
            Some(Counter {
                hex: s,
                fill: fill.into(),
                ink: ink.into(),
                name: p.label.clone(),
                // Foot armies and corps of 1914-18; the size is in the label ("1 Army", "GE Corps").
                symbol: if p.id.contains("cavalry") {
                    NatoSymbol::Cavalry
                } else {
                    NatoSymbol::Infantry
                },
                factors: format!("{}-{}-{}", f.cf, f.lf, f.mf),
                reduced: !u.full,
                // Its name and the factors of the side showing, as a tooltip and the terminal read it.
                title: match (lang, u.full) {
                    (Lang::En, true) => format!("{} {}-{}-{}", p.name_en, f.cf, f.lf, f.mf),
                    (Lang::En, false) => format!("{} {}-{}-{} (reduced)", p.name_en, f.cf, f.lf, f.mf),
                    (Lang::Zh, true) => format!("{} {}-{}-{}", p.name_zh, f.cf, f.lf, f.mf),
                    (Lang::Zh, false) => format!("{} {}-{}-{}(减员)", p.name_zh, f.cf, f.lf, f.mf),
                },
                id: p.id.clone(),
            })
        })
        .collect()
}

/// A side's holding box of a kind ("reserve", "eliminated").
fn holding_box(data: &Data, side: Side, kind: &str) -> Option<Space> {
    let code = match side {
        Side::Cp => "cp",
        Side::Ap => "ap",
    };
    data.space(&format!("{code}-{kind}-box"))
}

fn title(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Paths of Glory",
        Lang::Zh => "光荣之路",
    }
}

/// What the spaces show that changes in play: a space held by the side that did not own it at
/// the start tinted in its colour (11.1.11), a trench's level ("T1", "T2", 11.2), a besieged
/// fort (◎, 15.2) and a destroyed one (✕, 15.1.8); each with the same said in words, and a
/// fort's value, for the page's hover and the terminal's map.
pub fn marks(data: &Data, pos: &Position, lang: Lang) -> Vec<HexMark<Space>> {
    let mut out = Vec::new();
    for (i, st) in pos.spaces.iter().enumerate() {
        let s = Space(i as u16);
        let facts = data.facts(s);
        let mut label = String::new();
        let mut note: Vec<String> = Vec::new();
        let held = st.control.filter(|&side| side != facts.faction);
        if let Some(side) = held {
            note.push(
                match side {
                    Side::Cp => pick(lang, "held by the Central Powers (11.1.11)", "同盟国控制(11.1.11)"),
                    Side::Ap => pick(lang, "held by the Allies (11.1.11)", "协约国控制(11.1.11)"),
                }
                .to_string(),
            );
        }
        if let Some(t) = st.trench {
            label.push_str(&format!("T{}", t.level));
            note.push(match lang {
                Lang::En => format!("trench level {} (11.2)", t.level),
                Lang::Zh => format!("{}级战壕(11.2)", t.level),
            });
        }
        let fort = facts.fort;
        match st.fort {
            Fort::Intact => note.push(match lang {
                Lang::En => format!("fort {fort} (15.0)"),
                Lang::Zh => format!("要塞{fort}(15.0)"),
            }),
            Fort::Besieged => {
                label.push('◎');
                note.push(match lang {
                    Lang::En => format!("fort {fort} besieged (15.2)"),
                    Lang::Zh => format!("要塞{fort}被围(15.2)"),
                });
            }
            Fort::Destroyed => {
                label.push('✕');
                note.push(match lang {
                    Lang::En => format!("fort {fort} destroyed (15.1.8)"),
                    Lang::Zh => format!("要塞{fort}已毁(15.1.8)"),
                });
            }
            Fort::None => {}
        }
        let fill = match held {
            Some(Side::Cp) => "#6b7780",
            Some(Side::Ap) => "#5b7fc4",
            None if !note.is_empty() => "none",
            None => continue,
        };
        out.push(HexMark {
            hex: s,
            fill: fill.into(),
            label,
            note: note.join(pick(lang, "; ", ";")),
        });
    }
    out
}

/// The map alone, the same all game long: spaces, lines, the holding boxes, the printed
/// symbols and the empty tracks.
pub fn render_map(g: &crate::game::PathsOfGlory, lang: Lang) -> String {
    let data = g.data();
    let decor = crate::board::decor(data, g.tables(), lang);
    render_point_base(&data.map.graph, &map_style(data), lang, title(lang), &decor)
}

/// The counters, the marks of the position and the tracks' markers.
pub fn render_pieces(g: &crate::game::PathsOfGlory, lang: Lang) -> String {
    let data = g.data();
    let markers = crate::board::markers(data, g.tables(), &crate::board::markers_of(g), lang);
    render_point_pieces(
        &data.map.graph,
        &map_style(data),
        &counters(data, &g.pos, lang),
        &marks(data, &g.pos, lang),
        &markers,
    )
}

/// The whole board in a language.
pub fn render(g: &crate::game::PathsOfGlory, lang: Lang) -> String {
    put_pieces(&render_map(g, lang), &render_pieces(g, lang))
}

/// What each legal action is about on the board (counters by id, spaces by id), how a page
/// takes it there, and the heading it is listed under.
pub(crate) fn targets(g: &crate::game::PathsOfGlory, actions: &[crate::game::Action]) -> Vec<Targets> {
    use crate::game::{Action, LossTarget, SrPlace, Use};
    use crate::sequence::{sid, uid};
    // The cards are the deciding side's.
    let side = match g.engine_top_who() {
        Some(seat) => g.side_of(seat),
        None => Side::Cp,
    };
    let card = |n: u8, t: Targets, en: String, zh: String| Targets {
        card: g.data().card(side, n).map(|c| c.id.clone()),
        note: Some(Text::new(en, zh)),
        ..t
    };
    // 2022 12.2.1 step 3: the attacker's first window, for the cards that act before the flank
    // attempt; step 5 the usual one.
    let cards_heading = match g.engine.top() {
        Some(crate::game::Frame::CombatCards { early: true, .. }) => (
            "Combat cards before the flank attempt (2022 12.2.1 step 3)",
            "侧翼攻击尝试之前的战斗卡(2022年版12.2.1第3步)",
        ),
        _ => ("Combat cards (12.2.5)", "战斗卡(12.2.5)"),
    };
    let at = |units: &[u16], spaces: &[Space], kind: ActionKind, en: &str, zh: &str| Targets {
        units: units.iter().map(|&u| uid(g, u)).collect(),
        hexes: spaces.iter().map(|&s| sid(g, s)).collect(),
        kind,
        group: Text::new(en, zh),
        ..Targets::default()
    };
    actions
        .iter()
        .map(|a| match a {
            Action::Play { card: n, with } => {
                let c = g.data().card(side, *n);
                let (ops, sr) = c.map_or((0, 0), |c| (c.ops, c.sr));
                let (en, zh) = match with {
                    Use::Ops => (format!("{ops} OPS"), format!("{ops}点作战")),
                    Use::Sr => (format!("{sr} SR"), format!("{sr}点战略调动")),
                    Use::Rp => ("replacement points".into(), "补充点".into()),
                    Use::Event => ("event".into(), "事件".into()),
                };
                card(
                    *n,
                    at(&[], &[], ActionKind::Other, "Play a card (9.0)", "出牌(9.0)"),
                    en,
                    zh,
                )
            }
            Action::Bid { .. } | Action::AcceptBid => {
                at(&[], &[], ActionKind::Other, "Tournament bid (5.6)", "锦标赛竞标(5.6)")
            }
            Action::AutomaticOps | Action::GunsOfAugust { .. } => {
                at(&[], &[], ActionKind::Other, "Play a card (9.0)", "出牌(9.0)")
            }
            Action::LeaveOut { .. } | Action::PutIn { .. } => at(
                &[],
                &[],
                ActionKind::Other,
                "Optional cards (supplement 6.16)",
                "可选卡(补充6.16)",
            ),
            // 9.2.3: what the activation costs.
            Action::Activate { space, combat } => {
                let cost = crate::operations::activation_cost(g, side, *space, *combat);
                Targets {
                    note: Some(Text::new(format!("{cost} OPS"), format!("{cost}点作战"))),
                    ..at(&[], &[*space], ActionKind::Other, "Activate (10.0)", "激活(10.0)")
                }
            }
            Action::EndActivation => at(&[], &[], ActionKind::Other, "Activate (10.0)", "激活(10.0)"),
            Action::Move { units, to, .. } => at(units, &[*to], ActionKind::Move, "Move (11.0)", "移动(11.0)"),
            Action::Begin { units, .. } => at(units, &[], ActionKind::Choose, "Move (11.0)", "移动(11.0)"),
            Action::Step { to } => at(&[], &[*to], ActionKind::Move, "Move (11.0)", "移动(11.0)"),
            Action::Halt | Action::EndMovement => at(&[], &[], ActionKind::Other, "Move (11.0)", "移动(11.0)"),
            Action::Concede { unit: Some(u) } => at(&[*u], &[], ActionKind::Choose, "Event (9.5)", "事件(9.5)"),
            Action::Concede { unit: None } => at(&[], &[], ActionKind::Other, "Event (9.5)", "事件(9.5)"),
            Action::Dig { unit } => at(
                &[*unit],
                &[],
                ActionKind::Choose,
                "Dig trenches (11.2)",
                "挖掘战壕(11.2)",
            ),
            Action::Target { space } => at(&[], &[*space], ActionKind::Attack, "Combat (12.0)", "战斗(12.0)"),
            Action::Join { unit } => at(&[*unit], &[], ActionKind::Choose, "Combat (12.0)", "战斗(12.0)"),
            Action::Flank { pinning: Some(s) } => at(&[], &[*s], ActionKind::Other, "Combat (12.0)", "战斗(12.0)"),
            Action::CombatCard { card: n } => card(
                *n,
                at(&[], &[], ActionKind::Other, cards_heading.0, cards_heading.1),
                "play in this combat".into(),
                "用于本次战斗".into(),
            ),
            Action::EndCombatCards => at(&[], &[], ActionKind::Other, cards_heading.0, cards_heading.1),
            // 12.2: resolving is the attack itself, confirmed on the defending space with the
            // forecast of its dice.
            Action::Resolve => {
                let defending: Vec<Space> = g.action.battle.iter().map(|b| b.defending).collect();
                at(&[], &defending, ActionKind::Attack, "Combat (12.0)", "战斗(12.0)")
            }
            Action::GreatRetreat { .. } => at(&[], &[], ActionKind::Other, "Great Retreat (AP #27)", "大撤退(协约#27)"),
            Action::Flank { pinning: None } | Action::EndCombat => {
                at(&[], &[], ActionKind::Other, "Combat (12.0)", "战斗(12.0)")
            }
            Action::Lose {
                target: LossTarget::Unit(u) | LossTarget::Stand(u),
            } => at(&[*u], &[], ActionKind::Choose, "Losses (12.4)", "损失(12.4)"),
            Action::Lose {
                target: LossTarget::Fort,
            } => at(&[], &[], ActionKind::Other, "Losses (12.4)", "损失(12.4)"),
            Action::StandFast { unit } => at(&[*unit], &[], ActionKind::Choose, "Retreat (12.5)", "撤退(12.5)"),
            Action::Retreat { unit, route } => match route.last() {
                Some(s) => at(&[*unit], &[*s], ActionKind::Move, "Retreat (12.5)", "撤退(12.5)"),
                None => at(&[*unit], &[], ActionKind::Choose, "Retreat (12.5)", "撤退(12.5)"),
            },
            Action::Advance { unit, route } => match route.last() {
                Some(s) => at(&[*unit], &[*s], ActionKind::Move, "Advance (12.6)", "前进(12.6)"),
                None => at(&[*unit], &[], ActionKind::Choose, "Advance (12.6)", "前进(12.6)"),
            },
            Action::EndAdvance => at(&[], &[], ActionKind::Other, "Advance (12.6)", "前进(12.6)"),
            Action::Redeploy { unit } => at(
                &[*unit],
                &[],
                ActionKind::Choose,
                "Strategic redeployment (13.0)",
                "战略调动(13.0)",
            ),
            Action::RedeployTo {
                place: SrPlace::Space(s),
            } => at(
                &[],
                &[*s],
                ActionKind::Place,
                "Strategic redeployment (13.0)",
                "战略调动(13.0)",
            ),
            Action::RedeployTo {
                place: SrPlace::Reserve,
            }
            | Action::EndRedeployment => at(
                &[],
                &[],
                ActionKind::Other,
                "Strategic redeployment (13.0)",
                "战略调动(13.0)",
            ),
            Action::Buy { .. } | Action::EndReplacement => {
                at(&[], &[], ActionKind::Other, "Replacements (17.0)", "补充(17.0)")
            }
            Action::Place { space } => at(
                &[],
                &[*space],
                ActionKind::Place,
                "Units entering the map (9.5.2.1, 9.5.3.3)",
                "部队进场(9.5.2.1、9.5.3.3)",
            ),
            Action::Discard { card: n } => card(
                *n,
                at(
                    &[],
                    &[],
                    ActionKind::Other,
                    "Combat cards discarded (9.5.4.6)",
                    "弃掉战斗卡(9.5.4.6)",
                ),
                "discard".into(),
                "弃掉".into(),
            ),
            Action::EndDiscard => at(
                &[],
                &[],
                ActionKind::Other,
                "Combat cards discarded (9.5.4.6)",
                "弃掉战斗卡(9.5.4.6)",
            ),
            Action::Reduce { unit: Some(u) } => at(
                &[*u],
                &[],
                ActionKind::Choose,
                "Russian Desertions (CP #63)",
                "俄军逃亡(同盟国#63)",
            ),
            Action::Reduce { unit: None } => at(
                &[],
                &[],
                ActionKind::Other,
                "Russian Desertions (CP #63)",
                "俄军逃亡(同盟国#63)",
            ),
            Action::OfferPeace | Action::AnswerPeace { .. } => {
                at(&[], &[], ActionKind::Other, "Peace terms (16.5)", "和谈(16.5)")
            }
            Action::Die { .. } | Action::Draw { .. } => Targets::default(),
        })
        .collect()
}

/// The cards `seat` holds, as it sees them: number and name, OPS, SR, the replacement points
/// by nation (9.1.1), whether it is a combat card, and its event in our words where written;
/// then the cards of the other hand an event showed it this turn and still there (Mata Hari,
/// CP #17; Cloak and Dagger, AP #23), marked `seen`.
pub(crate) fn hand(g: &crate::game::PathsOfGlory, seat: sandtable_core::game::Seat) -> Vec<HandCard> {
    use crate::state::side_index;
    let side = g.side_of(seat);
    let other = match side {
        crate::data::Side::Cp => crate::data::Side::Ap,
        crate::data::Side::Ap => crate::data::Side::Cp,
    };
    let mut out = cards_of(g, side, &g.pos.cards[side_index(side)].hand);
    let seen: Vec<u8> = g.pos.cards[side_index(other)]
        .hand
        .iter()
        .copied()
        .filter(|n| g.turn.seen[side_index(side)].contains(n))
        .collect();
    out.extend(
        cards_of(g, other, &seen)
            .into_iter()
            .map(|c| HandCard { seen: true, ..c }),
    );
    out
}

/// The cards numbered `numbers` of a side's deck, as a hand shows them.
fn cards_of(g: &crate::game::PathsOfGlory, side: crate::data::Side, numbers: &[u8]) -> Vec<HandCard> {
    numbers
        .iter()
        .filter_map(|&n| g.data().card(side, n))
        .map(|c| {
            let rp = &c.rp;
            let rp: Vec<String> = [
                ("A", rp.a),
                ("BR", rp.br),
                ("FR", rp.fr),
                ("IT", rp.it),
                ("RU", rp.ru),
                ("AH", rp.ah),
                ("BU", rp.bu),
                ("GE", rp.ge),
                ("TU", rp.tu),
            ]
            .iter()
            .filter(|(_, v)| *v > 0)
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
            let mut values = vec![
                (Text::new("OPS", "作战"), c.ops.to_string()),
                (Text::new("SR", "战略调动"), c.sr.to_string()),
                (
                    Text::new("RP", "补充点"),
                    if rp.is_empty() { "—".into() } else { rp.join(", ") },
                ),
            ];
            if c.combat {
                values.push((Text::new("combat card", "战斗卡"), "✓".into()));
            }
            if c.ws > 0 {
                values.push((Text::new("War Status", "战争状态"), format!("+{}", c.ws)));
            }
            HandCard {
                id: c.id.clone(),
                name: g.card_name(side, c.number),
                values,
                text: crate::events::text(g.data(), side, c.number),
                seen: false,
            }
        })
        .collect()
}

/// What the pending decision is about, beside the actions: while spaces are activated, the OPS
/// left and the spaces activated so far (9.2); while they move, the spaces activated for
/// movement and how many units have moved (11.1.1); while combats are chosen, the spaces
/// activated for combat and those attacked (12.1); during a combat, the combat
/// ([`crate::preview`]).
pub(crate) fn context(g: &crate::game::PathsOfGlory) -> Vec<Text> {
    use crate::game::Frame;
    let activated = &g.action.activated;
    // The spaces activated, for movement, for combat or both (`None`), by name.
    let names = |which: Option<bool>, lang: Lang| -> String {
        let words: Vec<String> = activated
            .iter()
            .filter(|&&(_, combat)| which.is_none_or(|w| w == combat))
            .map(|&(s, combat)| {
                let name = g.name(s);
                match (lang, which, combat) {
                    (Lang::En, None, false) => format!("{} (movement)", name.en),
                    (Lang::En, None, true) => format!("{} (combat)", name.en),
                    (Lang::Zh, None, false) => format!("{}(移动)", name.zh),
                    (Lang::Zh, None, true) => format!("{}(进攻)", name.zh),
                    (Lang::En, Some(_), _) => name.en,
                    (Lang::Zh, Some(_), _) => name.zh,
                }
            })
            .collect();
        words.join(pick(lang, ", ", "、"))
    };
    match g.engine.top() {
        Some(Frame::Activation { ops, .. }) => {
            let mut out = vec![Text::new(
                format!("Operations: {ops} OPS left to activate spaces with (9.2)"),
                format!("作战:尚余{ops}点作战可用于激活区域(9.2)"),
            )];
            if !activated.is_empty() {
                out.push(Text::new(
                    format!("Activated: {}", names(None, Lang::En)),
                    format!("已激活:{}", names(None, Lang::Zh)),
                ));
            }
            out
        }
        Some(Frame::Movement { .. }) => {
            let moved = g.action.moved.len();
            vec![Text::new(
                format!(
                    "Movement (11.1): activated for movement: {}; {moved} unit(s) moved so far",
                    names(Some(false), Lang::En)
                ),
                format!(
                    "移动(11.1):激活用于移动的区域:{};已移动{moved}个单位",
                    names(Some(false), Lang::Zh)
                ),
            )]
        }
        Some(Frame::Combats { .. }) => {
            let attacked = |lang: Lang| -> String {
                let words: Vec<String> = g
                    .action
                    .attacked_spaces
                    .iter()
                    .map(|&s| g.name(s).get(lang).to_string())
                    .collect();
                if words.is_empty() {
                    pick(lang, "none yet", "尚无").to_string()
                } else {
                    words.join(pick(lang, ", ", "、"))
                }
            };
            vec![Text::new(
                format!(
                    "Combat (12.1): activated for combat: {}; attacked so far: {}",
                    names(Some(true), Lang::En),
                    attacked(Lang::En)
                ),
                format!(
                    "战斗(12.1):激活用于进攻的区域:{};已进攻:{}",
                    names(Some(true), Lang::Zh),
                    attacked(Lang::Zh)
                ),
            )]
        }
        _ => crate::preview::battle_context(g),
    }
}

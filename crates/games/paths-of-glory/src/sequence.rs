//! 6.0 The Sequence of Play, on the core's decision driver: the set-up's deal (4.3), each turn's
//! phases (A Mandated Offensives, B six action rounds, C Attrition, D Sieges, E War Status,
//! F Replacements, G drawing cards, H the end of the turn), and the dispatch of every frame to
//! the module of its rule section.

use crate::attrition;
use crate::cards;
use crate::data::{Deck, RpPool, Side};
use crate::game::{other, Action, Frame, PathsOfGlory, Scenario, TurnRecord, Use, CP, RP_POOLS};
use crate::offensives::{self, Offensive};
use crate::sieges;
use crate::state::{side_index, Fort, Location, Position};
use crate::supply;
use crate::tables;
use crate::victory;
use crate::war_status::{self, Commitment};
use sandtable_core::driver::{Engine, Who};
use sandtable_core::game::{Journal, Outcome, Refusal, Seat, SetupError};
use sandtable_core::graph::Space;
use sandtable_core::text::{Lang, Text};

/// 4.1–4.3: a scenario's set-up, with the deal of the opening hands on the stack.
pub(crate) fn setup(scenario: &str, seed: u64) -> Result<PathsOfGlory, SetupError> {
    let sh = crate::game::shipped()?;
    // 5.6.1: the Limited War and the Campaign may be played as tournaments; the Campaign also
    // with the optional cards (supplement 6.16: all ten a side, with 8-card hands).
    // Or with some picked in secret by each side, each in place of a basic card.
    let (scenario, tournament, optional_cards, picked_cards) = match scenario {
        "limited-war-tournament" => ("limited-war", true, false, false),
        "campaign-tournament" => ("campaign", true, false, false),
        "campaign-optional-cards" => ("campaign", false, true, false),
        "campaign-picked-cards" => ("campaign", false, false, true),
        other => (other, false, false, false),
    };
    let levels = sh.tables.scenario(scenario).ok_or_else(|| {
        SetupError(format!(
            "paths-of-glory has no scenario `{scenario}` (introductory, limited-war, campaign, historical, limited-war-tournament, campaign-tournament, campaign-optional-cards, campaign-picked-cards)"
        ))
    })?;
    let historical = scenario == "historical";
    let mut pos = sh.start(historical);
    pos.vp = sh.tables.victory.vp_start;
    // 4.3, 5.7.4.3: in the Historical scenario the CP holds Guns of August and draws seven more
    // to its hand of eight (5.7.4.1).
    let in_hand: &[u8] = if historical { &[1] } else { &[] };
    pos.cards[side_index(Side::Cp)] = cards::starting_pile(&sh.data, Side::Cp, optional_cards, in_hand);
    pos.cards[side_index(Side::Ap)] = cards::starting_pile(&sh.data, Side::Ap, optional_cards, &[]);
    let mut frames = vec![
        Frame::Turn,
        Frame::Deal { side: Side::Ap },
        Frame::Deal { side: Side::Cp },
    ];
    if !historical {
        frames.push(Frame::GunsOfAugust);
    }
    if picked_cards {
        frames.extend(crate::optional_cards::start());
    }
    if tournament {
        frames.push(crate::tournament::start());
    }
    Ok(PathsOfGlory {
        sh,
        scenario: Scenario {
            id: scenario.to_string(),
            historical,
            introductory: scenario == "introductory",
            limited_war: scenario == "limited-war",
            last_turn: levels.last_turn,
            hand_size: if historical || optional_cards { 8 } else { 7 },
            edition: crate::game::EDITION,
            tournament,
            bid: None,
            cp_seat: CP,
            optional_cards,
            picked_cards,
        },
        pos,
        turn: TurnRecord::default(),
        action: Default::default(),
        commitment: [Commitment::Mobilization; 2],
        outcome: None,
        engine: Engine::new(seed, frames),
        journal: Journal::default(),
        kept: Default::default(),
    })
}

pub(crate) fn who(g: &PathsOfGlory, frame: &Frame) -> Who {
    match frame {
        Frame::BidDie { .. } => Who::Chance,
        Frame::Bid { seat, .. } => Who::Seat(*seat),
        Frame::GunsOfAugust => Who::Seat(g.seat_of(Side::Cp)),
        Frame::PickOptional { side, .. } => Who::Seat(g.seat_of(*side)),
        Frame::Deal { side } => {
            let c = &g.pos.cards[side_index(*side)];
            if c.hand.len() >= g.scenario.hand_size || (c.draw.is_empty() && c.discard.is_empty()) {
                Who::Auto
            } else {
                Who::Chance
            }
        }
        Frame::Offensive { .. } | Frame::BattleDie { .. } | Frame::Dig { .. } => Who::Chance,
        Frame::Siege { space } => {
            if crate::operations::siege_holds(g, *space) {
                Who::Chance
            } else {
                Who::Auto
            }
        }
        Frame::Round { side, .. }
        | Frame::Activation { side, .. }
        | Frame::Movement { side }
        | Frame::Marching { side, .. }
        | Frame::Combats { side }
        | Frame::Designate { side }
        | Frame::FlankChoice { side }
        | Frame::TakeLosses { side }
        | Frame::RetreatUnits { side }
        | Frame::AdvanceUnits { side }
        | Frame::Redeployment { side, .. }
        | Frame::RedeployUnit { side, .. }
        | Frame::Reinforce { side, .. }
        | Frame::EntryChoice { side, .. }
        | Frame::GreatRetreat { side }
        | Frame::EventPlace { side, .. }
        | Frame::EventRedeploy { side, .. }
        | Frame::EventReplace { side, .. }
        | Frame::EventConcede { side, .. } => Who::Seat(g.seat_of(*side)),
        Frame::Desertions { .. } => Who::Seat(g.seat_of(Side::Cp)),
        Frame::PeaceOffer { side } => Who::Seat(g.seat_of(other(*side))),
        Frame::PeaceRoll { .. } => Who::Chance,
        Frame::Replacement { side } => {
            if g.turn.rp[side_index(*side)].iter().any(|&p| p > 0) {
                Who::Seat(g.seat_of(*side))
            } else {
                Who::Auto
            }
        }
        // 12.2.5: asked whenever the side holds a card in hand or face up, so that the other
        // side cannot tell from the question whether it holds a combat card it may play.
        Frame::CombatCards { side, .. } => {
            let c = &g.pos.cards[side_index(*side)];
            if c.hand.is_empty() && c.face_up.is_empty() {
                Who::Auto
            } else {
                Who::Seat(g.seat_of(*side))
            }
        }
        // 9.5.4.6: asked whenever the hand holds a card, so that the other side cannot tell from
        // the question whether it holds a combat card.
        Frame::DiscardCombatCards { side } => {
            if !g.pos.cards[side_index(*side)].hand.is_empty() {
                Who::Seat(g.seat_of(*side))
            } else {
                Who::Auto
            }
        }
        Frame::Turn
        | Frame::March { .. }
        | Frame::Attrition
        | Frame::Sieges { .. }
        | Frame::WarStatus
        | Frame::EndTurn => Who::Auto,
    }
}

/// Candidate actions of a seat's frame; the legal list is those its check accepts, so the list
/// and the refusals come from the same rules.
pub(crate) fn legal(g: &PathsOfGlory, frame: &Frame, out: &mut Vec<Action>) {
    // The position stays as it is while the list is made: the kept supply maps answer for it
    // without comparing it with what they were made from at each question.
    let _trust = g.kept.trust(g.data(), &g.pos);
    // Only whether each candidate is refused counts here, not why.
    let _listing = crate::game::Listing::begin();
    // Room for most lists from the start, so that a long one is not copied as it grows.
    let mut candidates = Vec::with_capacity(32);
    match frame {
        Frame::Bid { .. } => crate::tournament::candidates(frame, &mut candidates),
        Frame::GunsOfAugust => candidates.extend([
            Action::GunsOfAugust { keep: true },
            Action::GunsOfAugust { keep: false },
        ]),
        Frame::PickOptional { side, card } => crate::optional_cards::candidates(g, *side, *card, &mut candidates),
        Frame::Round { side, .. } => crate::round::candidates(g, *side, &mut candidates),
        Frame::Redeployment { side, .. } => return crate::round::sr_legal(g, frame, *side, out),
        // The places of the rule functions the check uses (13.1 and the stacking limit), exactly.
        Frame::RedeployUnit { side, .. } => return crate::round::sr_candidates(g, frame, *side, out),
        Frame::Replacement { side } => crate::round::replacement_candidates(g, *side, &mut candidates),
        Frame::EntryChoice { nation, .. } => candidates.extend(
            crate::events::entry_spaces(g, nation)
                .into_iter()
                .map(|space| Action::Place { space }),
        ),
        Frame::Reinforce { units, .. } => candidates.extend(
            crate::events::spaces(g, units)
                .into_iter()
                .map(|space| Action::Place { space }),
        ),
        Frame::Desertions { .. } | Frame::PeaceOffer { .. } => crate::events::war_candidates(g, frame, &mut candidates),
        Frame::EventRedeploy { side, card, .. } => {
            crate::events::event_redeploy_candidates(g, *side, *card, &mut candidates)
        }
        Frame::EventReplace { side, .. } => crate::events::event_replace_candidates(g, *side, &mut candidates),
        Frame::EventConcede { side, card } => crate::events::event_concede_candidates(g, *side, *card, &mut candidates),
        Frame::EventPlace { side, card, units } => candidates.extend(
            crate::events::event_spaces(g, *side, *card, units)
                .into_iter()
                .map(|space| Action::Place { space }),
        ),
        Frame::DiscardCombatCards { side } => {
            for &n in &g.pos.cards[side_index(*side)].hand {
                candidates.push(Action::Discard { card: n });
            }
            candidates.push(Action::EndDiscard);
        }
        Frame::Activation { .. } => return crate::operations::activation_legal(g, frame, out),
        _ => {
            crate::operations::candidates(g, frame, &mut candidates);
            if crate::operations::exact(frame) {
                out.extend(candidates);
                return;
            }
        }
    }
    out.reserve(candidates.len());
    out.extend(candidates.into_iter().filter(|a| check(g, frame, a).is_ok()));
}

pub(crate) fn outcomes(g: &PathsOfGlory, frame: &Frame, out: &mut Vec<(Action, u32)>) {
    match frame {
        Frame::Deal { side } => {
            let c = &g.pos.cards[side_index(*side)];
            // Phase G: the whole draw pile first, then the discards reshuffled.
            let pile = if c.draw.is_empty() { &c.discard } else { &c.draw };
            out.extend(pile.iter().map(|&card| (Action::Draw { card }, 1)));
        }
        Frame::Offensive { .. }
        | Frame::BidDie { .. }
        | Frame::BattleDie { .. }
        | Frame::Siege { .. }
        | Frame::PeaceRoll { .. }
        | Frame::Dig { .. } => {
            out.extend((1..=6).map(|face| (Action::Die { face }, 1)));
        }
        _ => {}
    }
}

fn wrong_kind() -> Refusal {
    PathsOfGlory::refuse(
        "6.0",
        "that is not a choice of this step of the sequence of play",
        "这不是当前步骤的选择",
    )
}

pub(crate) fn check(g: &PathsOfGlory, frame: &Frame, action: &Action) -> Result<(), Refusal> {
    match (frame, action) {
        // 4.3: Guns of August can start in the hand only while it is in the deck (a CP that
        // picked an optional card in its place has it no more, supplement 6.16).
        (Frame::GunsOfAugust, Action::GunsOfAugust { keep: true })
            if !g.pos.cards[side_index(Side::Cp)].draw.contains(&1) =>
        {
            Err(PathsOfGlory::refuse(
                "4.3",
                "Guns of August is not in the Central Powers' deck: an optional card took its place (supplement 6.16)",
                "“八月炮火”不在同盟国牌组中:已被一张可选卡替换(补充6.16)",
            ))
        }
        (Frame::GunsOfAugust, Action::GunsOfAugust { .. }) => Ok(()),
        (Frame::PickOptional { side, card }, _) => crate::optional_cards::check(g, *side, *card, action),
        (Frame::Bid { .. }, _) => crate::tournament::check(frame, action),
        (Frame::Round { side, round }, _) => crate::round::check(g, *side, *round, action),
        (Frame::Redeployment { .. } | Frame::RedeployUnit { .. }, _) => crate::round::check_sr(g, frame, action),
        (Frame::Replacement { side }, _) => crate::round::check_replacement(g, *side, action),
        (Frame::DiscardCombatCards { side }, Action::Discard { card }) => {
            let ok = g.pos.cards[side_index(*side)].hand.contains(card)
                && (g.data().card(*side, *card).is_some_and(|c| c.combat)
                    || crate::round::discarded_as_combat_card(g, *side, *card));
            if ok {
                Ok(())
            } else {
                Err(PathsOfGlory::refuse(
                    "9.5.4.6",
                    "only a combat card in the hand may be discarded before drawing",
                    "抽牌前只能弃掉手中的战斗卡",
                ))
            }
        }
        (Frame::DiscardCombatCards { .. }, Action::EndDiscard) => Ok(()),
        (Frame::Desertions { .. } | Frame::PeaceOffer { .. }, _) => crate::events::war_check(g, frame, action),
        (Frame::EntryChoice { nation, .. }, Action::Place { space }) => {
            if crate::events::entry_spaces(g, nation).contains(space) {
                Ok(())
            } else {
                Err(PathsOfGlory::refuse(
                    "9.5.2.1",
                    "a unit set up by choice goes to an empty space of its nation that its set-up does not fill",
                    "自选部署的单位须放在本国未被部署填满的空区域",
                ))
            }
        }
        (Frame::EventRedeploy { side, card, .. }, _) => crate::events::check_event_redeploy(g, *side, *card, action),
        (Frame::EventConcede { side, card }, _) => crate::events::check_event_concede(g, *side, *card, action),
        (Frame::EventReplace { side, card, points }, _) => {
            crate::events::check_event_replace(g, *side, *card, *points, action)
        }
        (Frame::EventPlace { side, card, units }, Action::Place { space }) => {
            crate::events::check_event_place(g, *side, *card, units, *space)
        }
        (Frame::Reinforce { units, .. }, Action::Place { space }) => {
            match units.first() {
                Some(_) if crate::events::spaces(g, units).contains(space) => Ok(()),
                _ => Err(PathsOfGlory::refuse(
                    "9.5.3.3",
                    "an army enters at its nation's capital or a supply source of its nation its side holds, in supply, not besieged, within the stacking limit",
                    "集团军须在本国首都或己方控制的本国补给源进场,须有补给、未被围困且不超过堆叠上限",
                )),
            }
        }
        (
            Frame::Activation { .. }
            | Frame::Movement { .. }
            | Frame::Marching { .. }
            | Frame::Combats { .. }
            | Frame::Designate { .. }
            | Frame::FlankChoice { .. }
            | Frame::CombatCards { .. }
            | Frame::TakeLosses { .. }
            | Frame::RetreatUnits { .. }
            | Frame::AdvanceUnits { .. }
            | Frame::GreatRetreat { .. },
            _,
        ) => crate::operations::check(g, frame, action),
        _ => Err(wrong_kind()),
    }
}

pub(crate) fn carry_out(g: &mut PathsOfGlory, frame: Frame, action: Option<&Action>) {
    // What the sieges' end reads: the counters, the spaces and whether a combat is on. A step
    // that changed none of them leaves every siege as the step before left it (its own end of
    // sieges done), so that is not asked again.
    let reads = |g: &PathsOfGlory| (g.pos.units.stamp(), g.pos.spaces.stamp(), g.action.battle.is_none());
    let before = reads(g);
    carry_frame(g, frame, action);
    // 15.2.4: a siege its besiegers have all left ends with the step that took them away (data
    // edition 5).
    if g.scenario.edition >= 5 && reads(g) != before {
        crate::sieges::lift_abandoned(g);
    }
}

fn carry_frame(g: &mut PathsOfGlory, frame: Frame, action: Option<&Action>) {
    match (frame, action) {
        (Frame::BidDie { seat, first }, Some(&Action::Die { face })) => crate::tournament::die(g, seat, first, face),
        (f @ Frame::Bid { .. }, Some(a)) => crate::tournament::carry_out(g, f, a),
        (Frame::PickOptional { side, card }, Some(a)) => crate::optional_cards::carry_out(g, side, card, a),
        (Frame::GunsOfAugust, Some(Action::GunsOfAugust { keep })) => {
            // 4.3.1: the choice is told to the Allied player.
            if *keep && cards::draw(&mut g.pos.cards[side_index(Side::Cp)], 1) {
                g.journal.say(|| {
                    Text::new(
                        "The CP starts with Guns of August in hand (4.3)",
                        "同盟国以“八月炮火”作为起手牌(4.3)",
                    )
                });
            } else {
                g.journal.say(|| {
                    Text::new(
                        "The CP does not start with Guns of August (4.3)",
                        "同盟国不以“八月炮火”起手(4.3)",
                    )
                });
            }
        }
        (Frame::Deal { side }, Some(Action::Draw { card })) => {
            let size = g.scenario.hand_size;
            let c = &mut g.pos.cards[side_index(side)];
            if cards::next_draw(c, size).is_some() {
                cards::draw(c, *card);
            }
            // A card drawn again is unseen again (Mata Hari, Cloak and Dagger).
            g.turn.seen[side_index(other(side))].retain(|&k| k != *card);
            let (data, card) = (g.data(), *card);
            g.journal.whisper(
                g.seat_of(side),
                || {
                    let name = crate::game::card_name_in(data, side, card);
                    Text::new(format!("You draw {}", name.en), format!("你抽到{}", name.zh))
                },
                || {
                    let name = crate::game::card_name_in(data, side, card);
                    Text::new(
                        format!("The {} draws {}", side_en(side), name.en),
                        format!("{}抽到{}", side_zh(side), name.zh),
                    )
                },
            );
            g.engine.push(Frame::Deal { side });
        }
        (Frame::Deal { .. }, None) => {}
        (Frame::Turn, _) => begin_turn(g),
        (Frame::Offensive { side }, Some(Action::Die { face })) => offensive(g, side, *face),
        (Frame::Round { side, round }, Some(a)) => crate::round::carry_out(g, side, round, a),
        (f @ (Frame::Redeployment { .. } | Frame::RedeployUnit { .. }), Some(a)) => crate::round::carry_out_sr(g, f, a),
        (Frame::Replacement { side }, Some(a)) => crate::round::carry_out_replacement(g, side, a),
        (Frame::Replacement { .. }, None) => {}
        (Frame::EntryChoice { side, nation, units }, a) => {
            let at = match a {
                Some(Action::Place { space }) => Some(*space),
                _ => None,
            };
            crate::events::place_entry(g, side, nation, units, at)
        }
        (Frame::Reinforce { side, units }, a) => {
            let at = match a {
                Some(Action::Place { space }) => Some(*space),
                _ => None,
            };
            crate::events::place(g, side, units, at)
        }
        (Frame::EventRedeploy { side, card, left }, Some(a)) => crate::events::event_redeploy(g, side, card, left, a),
        (Frame::EventReplace { side, card, points }, Some(a)) => crate::events::event_replace(g, side, card, points, a),
        (Frame::EventConcede { side, card }, Some(a)) => crate::events::event_concede(g, side, card, a),
        (Frame::EventPlace { side, card, units }, a) => {
            let at = match a {
                Some(Action::Place { space }) => Some(*space),
                _ => None,
            };
            crate::events::event_place(g, side, card, units, at)
        }
        (Frame::Dig { side, unit }, Some(Action::Die { face })) => crate::trenches::roll(g, side, unit, *face),
        (Frame::DiscardCombatCards { side }, Some(Action::Discard { card })) => {
            // Checked: a combat card, or Romania or Italy held back (9.5.2.5).
            let data = g.data();
            let combat = data.card(side, *card).is_some_and(|c| c.combat);
            let hand = &mut g.pos.cards[side_index(side)];
            if combat {
                cards::discard_combat_cards(hand, data, side, &[*card]);
            } else {
                cards::play(hand, *card, cards::Played::Discarded);
            }
            let name = g.card_name(side, *card);
            let rule = if combat { "9.5.4.6" } else { "9.5.2.5" };
            g.journal.say(|| {
                Text::new(
                    format!("{} discards {} ({rule})", side_en(side), name.en),
                    format!("{}弃掉{}({rule})", side_zh(side), name.zh),
                )
            });
            g.engine.push(Frame::DiscardCombatCards { side });
        }
        // 2022 phase G: once the combat cards are discarded, a side whose commitment rose this
        // turn shuffles its discards into the draw pile (16.1.3).
        (Frame::DiscardCombatCards { side }, _) => {
            let i = side_index(side);
            if std::mem::take(&mut g.turn.reshuffle[i]) {
                cards::reshuffle(&mut g.pos.cards[i]);
            }
        }
        (f @ (Frame::Desertions { .. } | Frame::PeaceOffer { .. } | Frame::PeaceRoll { .. }), a) => {
            crate::events::war_carry_out(g, f, a)
        }
        (Frame::Attrition, _) => attrition_phase(g),
        (Frame::Sieges { after }, _) => next_siege(g, after),
        (Frame::Siege { space }, die) => siege(g, space, die),
        (Frame::WarStatus, _) => war_status_phase(g),
        (Frame::EndTurn, _) => end_turn(g),
        (f, a) => crate::operations::carry_out(g, f, a),
    }
}

pub(crate) fn side_en(side: Side) -> &'static str {
    match side {
        Side::Cp => "CP",
        Side::Ap => "AP",
    }
}

pub(crate) fn side_zh(side: Side) -> &'static str {
    match side {
        Side::Cp => "同盟国",
        Side::Ap => "协约国",
    }
}

/// 6.0: a turn begins: its phases go on the stack, the first on top.
fn begin_turn(g: &mut PathsOfGlory) {
    g.turn = TurnRecord::default();
    let t = g.pos.turn;
    if let Some(info) = g.tables().turn(t) {
        let (se, sz) = (info.season.name_en(), info.season.name_zh());
        let y = info.year;
        g.journal
            .heading(|| Text::new(format!("Turn {t}: {se} {y}"), format!("第{t}回合:{y}年{sz}")));
    }
    for f in [
        Frame::EndTurn,
        Frame::Deal { side: Side::Ap },
        Frame::DiscardCombatCards { side: Side::Ap },
        Frame::Deal { side: Side::Cp },
        Frame::DiscardCombatCards { side: Side::Cp },
        Frame::Replacement { side: Side::Cp },
        Frame::Replacement { side: Side::Ap },
        Frame::WarStatus,
        Frame::Sieges { after: None },
        Frame::Attrition,
        Frame::Round {
            round: 1,
            side: Side::Cp,
        },
        Frame::Offensive { side: Side::Ap },
        Frame::Offensive { side: Side::Cp },
    ] {
        g.engine.push(f);
    }
}

/// 7.1.1: a side's Mandated Offensive roll.
fn offensive(g: &mut PathsOfGlory, side: Side, face: u8) {
    let data = g.data();
    let capitals_lost = capitals_lost(data, &g.pos, g.scenario.edition);
    let ctx = offensives::Context {
        italy_at_war: !g.pos.neutral.iter().any(|n| n == "it"),
        turkey_at_war: !g.pos.neutral.iter().any(|n| n == "tu"),
        rome_lost: data
            .space("rome")
            .is_some_and(|r| g.pos.space(r).control == Some(Side::Cp)),
        historical_turn_1: g.scenario.historical && g.pos.turn == 1,
        hoffmann: crate::events::offensive_events(g).0,
        bolshevik_revolution: crate::events::offensive_events(g).1,
        french_mutiny: crate::events::offensive_events(g).2,
        capitals_lost: &capitals_lost,
        // 7.1.10: after H-L Take Command (CP #54) a German result reads None.
        hl_take_command: crate::events::played(g, Side::Cp, 54),
    };
    let o = offensives::roll(g.tables(), side, face, &ctx);
    g.turn.offensive[side_index(side)] = Some(o);
    let (en, zh) = offensive_words(o);
    g.journal.say(|| {
        Text::new(
            format!("{} Mandated Offensive roll {face}: {en} (7.1)", side_en(side)),
            format!("{}强制攻势掷骰{face}:{zh}(7.1)", side_zh(side)),
        )
    });
}

/// 2022 7.1.2 "If the rolled nation's capital is enemy-controlled (AH: both Vienna and
/// Budapest), that nation has no MO": the nations whose capitals the enemy holds, all of them. A
/// besieged capital is still its side's (15.1.9), unlike for 13.1.11 and 17.1.3
/// ([`Position::holds_capital`]); a nation with no capital on the map loses none. Games begun
/// before data edition 5 judged it as 17.1.3 does: any capital not held, or besieged.
pub(crate) fn capitals_lost(data: &crate::data::Data, pos: &Position, edition: u8) -> Vec<crate::data::Nation> {
    use crate::data::Nation;
    [
        Nation::Fr,
        Nation::Br,
        Nation::It,
        Nation::Ru,
        Nation::Ah,
        Nation::Tu,
        Nation::Ge,
    ]
    .into_iter()
    .filter(|&n| {
        if edition < 5 {
            return !pos.holds_capital(data, n, if n_side(n) { Side::Cp } else { Side::Ap });
        }
        let enemy = if n_side(n) { Side::Ap } else { Side::Cp };
        let mut capitals = data.map.graph.space_indices().filter(|&c| {
            let f = data.facts(c);
            f.capital && f.nation.as_deref() == Some(n.code())
        });
        capitals.next().is_some_and(|c| pos.space(c).control == Some(enemy))
            && capitals.all(|c| pos.space(c).control == Some(enemy))
    })
    .collect()
}

/// Whether a nation is one of the Central Powers.
fn n_side(n: crate::data::Nation) -> bool {
    use crate::data::Nation::*;
    matches!(n, Ge | Ah | Tu | Bu | Sn)
}

pub(crate) fn offensive_words(o: Offensive) -> (String, String) {
    match o {
        Offensive::Nation(n) => (
            format!("{} must attack", n.name().en),
            format!("{}必须进攻", n.name().zh),
        ),
        Offensive::AhAgainstItaly => ("AH must attack Italy".into(), "奥匈必须进攻意大利".into()),
        Offensive::FrenchMutiny => ("French Mutiny".into(), "法军哗变".into()),
        Offensive::None => ("none".into(), "无".into()),
    }
}

/// Where armies may enter (9.5.3.3, 17.1.5), as the position stands.
pub(crate) fn placement_context(g: &PathsOfGlory) -> crate::placement::Context<'_> {
    crate::placement::Context {
        supply: supply_context(g),
        // 17.1.5: Salonika (AP #30) played or Greece at war.
        salonika_played: crate::events::played(g, Side::Ap, 30) || !g.pos.neutral.iter().any(|n| n == "gr"),
        foreign_sources_barred: g.scenario.edition >= 3,
    }
}

/// The supply rules' context for the position as it stands: the MEF beach holding the
/// Beachhead marker is open (9.5.3.5); a CP space the ANA stands in counts as Allied (11.1.14,
/// data edition 6), and while it does supply is traced afresh rather than from the kept maps.
pub(crate) fn supply_context(g: &PathsOfGlory) -> supply::Context<'_> {
    let ana_space = ana_space(g);
    supply::Context {
        open_beaches: g.pos.beachhead.as_slice(),
        kept: if ana_space.is_some() { None } else { Some(&g.kept) },
        ana_space,
        ..supply::Context::default()
    }
}

/// 11.1.14 "任何同盟區域 (除了被圍城的區域) 當ANA佔領時視為協約區域" (2022 11.1.15): the CP space, not a
/// besieged one, that the ANA stands in, in games begun on data edition 6 or later.
fn ana_space(g: &PathsOfGlory) -> Option<Space> {
    if g.scenario.edition < 6 {
        return None;
    }
    let Location::Map(s) = g.pos.units.get(g.data().ana?)?.loc else {
        return None;
    };
    let st = g.pos.spaces.get(s.idx())?;
    (st.control == Some(Side::Cp) && st.fort != Fort::Besieged).then_some(s)
}

/// 6.0 C, 14.3: every unit out of supply is eliminated, then spaces change hands.
fn attrition_phase(g: &mut PathsOfGlory) {
    g.journal
        .heading(|| Text::new("Attrition Phase (6.0 C)", "消耗阶段(6.0 C)"));
    let a = {
        // The position stays as it is while the phase is worked out: the kept supply maps
        // answer for it without comparing it again at each question.
        let _trust = g.kept.trust(g.data(), &g.pos);
        attrition::attrition_of(g.data(), &g.pos, &supply_context(g), g.scenario.edition)
    };
    for &u in a.eliminated.iter().chain(&a.removed) {
        let (name, data, at) = (g.unit_name(u as u16), g.data(), g.at(u));
        g.journal.say_marked(
            || {
                Text::new(
                    format!("{} is out of supply and eliminated (14.3.5)", name.en),
                    format!("{}补给中断,被消灭(14.3.5)", name.zh),
                )
            },
            || {
                at.map(|s| sandtable_core::game::Mark::Eliminated {
                    unit: crate::operations::unit_id(data, u as u16),
                    at: crate::operations::space_id(data, s),
                })
            },
        );
    }
    let before: Vec<Option<Side>> = a.flipped.iter().map(|&s| g.pos.space(s).control).collect();
    attrition::apply(&mut g.pos, &a);
    for (&s, from) in a.flipped.iter().zip(before) {
        let to = g.pos.space(s).control;
        g.pos.vp += victory::capture(g.data(), g.scenario.historical, s, from, to);
        let name = g.name(s);
        g.journal.say(|| {
            Text::new(
                format!("{} changes hands (14.3.6)", name.en),
                format!("{}易手(14.3.6)", name.zh),
            )
        });
    }
}

/// 6.0 D: the next besieged fort after `after`, in map order, gets its roll.
fn next_siege(g: &mut PathsOfGlory, after: Option<Space>) {
    let data = g.data();
    let next = data
        .map
        .graph
        .space_indices()
        .filter(|&s| after.is_none_or(|a| s > a))
        .find(|&s| g.pos.space(s).fort == Fort::Besieged);
    if let Some(s) = next {
        g.engine.push(Frame::Sieges { after: Some(s) });
        g.engine.push(Frame::Siege { space: s });
    }
}

/// 15.2.4, 15.3: a siege lapses when the besiegers are too few; else a roll above the fort's LF
/// (modified by the turn) makes it fall.
fn siege(g: &mut PathsOfGlory, s: Space, die: Option<&Action>) {
    let name = g.name(s);
    let Some(Action::Die { face }) = die else {
        g.pos.spaces[s.idx()].fort = Fort::Intact;
        g.journal.say(|| {
            Text::new(
                format!("The siege of {} is lifted (15.2.4)", name.en),
                format!("{}的围城解除(15.2.4)", name.zh),
            )
        });
        return;
    };
    let lf = g.data().facts(s).fort;
    if sieges::falls(g.tables(), g.pos.turn, lf, *face) {
        let from = g.pos.space(s).control;
        let besieger = g.occupant(s);
        g.pos.spaces[s.idx()].fort = Fort::Destroyed;
        g.pos.spaces[s.idx()].control = besieger;
        g.pos.vp += victory::capture(g.data(), g.scenario.historical, s, from, besieger);
        g.journal.say(|| {
            Text::new(
                format!("Siege roll {face}: the fort of {} falls (15.3)", name.en),
                format!("围城掷骰{face}:{}要塞陷落(15.3)", name.zh),
            )
        });
    } else {
        g.journal.say(|| {
            Text::new(
                format!("Siege roll {face}: the fort of {} holds (15.3)", name.en),
                format!("围城掷骰{face}:{}要塞坚守(15.3)", name.zh),
            )
        });
    }
}

/// 6.0 E: the War Status Phase.
fn war_status_phase(g: &mut PathsOfGlory) {
    g.journal
        .heading(|| Text::new("War Status Phase (6.0 E)", "战争状态阶段(6.0 E)"));
    // 5.7.3: Total War counts once its cards are drawn, not in the phase that reaches it.
    let cp_at_total_war = g.commitment[side_index(Side::Cp)] == Commitment::Total;
    // E.1, 7.1.3: a Mandated Offensive not met costs its side a VP.
    for side in [Side::Cp, Side::Ap] {
        let i = side_index(side);
        if let Some(o) = g.turn.offensive[i] {
            let p = offensives::penalty(side, o, g.turn.offensive_met[i]);
            if p != 0 {
                g.pos.vp += p;
                g.journal.say(|| {
                    Text::new(
                        format!(
                            "{} did not make its Mandated Offensive: VP {p:+} (7.1.3)",
                            side_en(side)
                        ),
                        format!("{}未执行强制攻势:胜利点{p:+}(7.1.3)", side_zh(side)),
                    )
                });
            }
        }
    }
    // E.1: the VP of the events in force (Blockade).
    crate::events::war_status_vp(g);
    // 2022 9.5.2.5.1: a VP to the CP while Italy is neutral and the Allies are at Total War.
    if g.pos.neutral.iter().any(|n| n == "it") && g.commitment[side_index(Side::Ap)] == Commitment::Total {
        g.pos.vp += 1;
        g.journal.say(|| {
            Text::new(
                "Italy is neutral while the Allies are at Total War: VP +1 (9.5.2.5.1)",
                "协约国处于全面战争而意大利仍中立:胜利点+1(9.5.2.5.1)",
            )
        });
    }
    // E.2, 5.2: automatic victory.
    if let Some(side) = victory::automatic(g.tables(), g.pos.vp) {
        let vp = g.pos.vp;
        end_game(
            g,
            Some(side),
            Text::new(
                format!("{} win automatically at VP {vp} (5.2)", side_en(side)),
                format!("{}在胜利点{vp}时自动获胜(5.2)", side_zh(side)),
            ),
        );
        return;
    }
    // E.3, 16.2.1: an armistice ends the game.
    if war_status::armistice(g.pos.combined_war_status()) && !g.scenario.introductory {
        let o = final_outcome(g, true);
        end_game_with(g, o);
        return;
    }
    // E.4, 16.1: commitment rises from turn 2, never in the Introductory scenario (5.3.2).
    if g.pos.turn >= 2 && !g.scenario.introductory {
        for side in [Side::Cp, Side::Ap] {
            rise(g, side);
        }
        if g.scenario.limited_war && g.commitment.contains(&Commitment::Total) {
            // 5.4.1: the Limited War scenario ends when either side reaches Total War.
            let o = final_outcome(g, false);
            end_game_with(g, o);
            return;
        }
    }
    // Phase F's replacement points as the events change them.
    crate::events::replacement_points(g);
    if cp_at_total_war {
        sedan_rp(g);
    }
}

/// Historical 5.7.3 (supplement; the seed has no 5.7): during Total War the CP gets a German RP
/// each turn it holds Sedan and two other spaces of France or Belgium at the Replacement Phase
/// (games begun on edition 7 or later).
fn sedan_rp(g: &mut PathsOfGlory) {
    if !g.scenario.historical || g.scenario.edition < 7 {
        return;
    }
    let data = g.data();
    let Some(sedan) = data.space("sedan") else { return };
    let held = |s: Space| g.pos.spaces[s.idx()].control == Some(Side::Cp);
    let others = data
        .map
        .graph
        .space_indices()
        .filter(|&s| s != sedan && held(s))
        .filter(|&s| matches!(data.facts(s).nation.as_deref(), Some("fr" | "be")))
        .count();
    if !held(sedan) || others < 2 {
        return;
    }
    let ge = RP_POOLS.iter().position(|&p| p == RpPool::Ge).unwrap_or(0);
    let i = side_index(Side::Cp);
    g.turn.rp[i][ge] = g.turn.rp[i][ge].saturating_add(1);
    let now = g.turn.rp[i][ge];
    g.journal.say(|| {
        Text::new(
            format!("The CP at Total War holds Sedan and {others} other spaces of France or Belgium: German RP +1, now {now} (5.7.3)"),
            format!("同盟国处于全面战争并控制色当及法国、比利时另外{others}个区域:德国补充点+1,现为{now}(5.7.3)"),
        )
    });
}

/// 16.1.3, 16.1.4: a side whose War Status has reached a higher commitment adds that group of
/// its deck; the CP's Limited War brings Turkey in (16.1.3.1).
fn rise(g: &mut PathsOfGlory, side: Side) {
    let i = side_index(side);
    let now = war_status::commitment(g.pos.war_status[i]);
    while g.commitment[i] < now {
        let (next, deck, en, zh) = match g.commitment[i] {
            Commitment::Mobilization => (Commitment::Limited, Deck::Limited, "Limited War", "有限战争"),
            _ => (Commitment::Total, Deck::Total, "Total War", "全面战争"),
        };
        g.commitment[i] = next;
        let data = g.data();
        cards::join_group(&mut g.pos.cards[i], data, side, deck, g.scenario.optional_cards);
        g.turn.reshuffle[i] = true;
        g.journal.say(|| {
            Text::new(
                format!("{} reaches {en}: its cards join the deck (16.1)", side_en(side)),
                format!("{}达到{zh}:相应卡牌加入牌库(16.1)", side_zh(side)),
            )
        });
        if side == Side::Cp && next == Commitment::Limited {
            let (data, setup, historical) = (g.data(), g.setup_data(), g.scenario.historical);
            if setup.enter(data, &mut g.pos, "tu", historical, false).is_some() {
                g.journal
                    .say(|| Text::new("Turkey enters the war (16.1.3.1)", "土耳其参战(16.1.3.1)"));
            }
        }
    }
}

/// 6.0 H: face-up combat cards are discarded (9.5.4.5); the scenario ends after its last turn.
fn end_turn(g: &mut PathsOfGlory) {
    for c in &mut g.pos.cards {
        cards::end_of_turn(c);
    }
    if g.pos.turn >= g.scenario.last_turn {
        let o = final_outcome(g, true);
        end_game_with(g, o);
        return;
    }
    g.pos.turn += 1;
    g.engine.push(Frame::Turn);
}

/// The result at a scenario's end, read on its victory levels (5.3.4, 5.4.2, 5.5.2, 5.7).
fn final_outcome(g: &PathsOfGlory, adjust: bool) -> (Option<Side>, Text) {
    let ending = crate::events::ending(g, adjust);
    let vp = victory::final_vp(g.pos.vp, &ending);
    // 5.6.2, 5.6.3: a tournament's VP count the bid, and its draws are Allied wins.
    let (bid_en, bid_zh) = match g.scenario.bid {
        Some(b) if g.scenario.tournament => (
            format!(", the bid of {b:+} included (5.6.2)"),
            format!(",含竞标{b:+}(5.6.2)"),
        ),
        _ => (String::new(), String::new()),
    };
    let draw_level =
        victory::at_end(g.tables(), &g.scenario.id, g.pos.vp, &ending, false) == Some(tables::Outcome::Draw);
    let (why_en, why_zh) = if g.scenario.tournament && draw_level {
        (" (a draw counts as an Allied win, 5.6.3)", "(平局算协约国胜利,5.6.3)")
    } else {
        ("", "")
    };
    match victory::at_end(g.tables(), &g.scenario.id, g.pos.vp, &ending, g.scenario.tournament) {
        Some(tables::Outcome::Win(side)) => (
            Some(side),
            Text::new(
                format!(
                    "The scenario ends at VP {vp}{bid_en}: {} victory{why_en}",
                    side_en(side)
                ),
                format!("剧本结束,胜利点{vp}{bid_zh}:{}胜利{why_zh}", side_zh(side)),
            ),
        ),
        _ => (
            None,
            Text::new(
                format!("The scenario ends at VP {vp}: a draw"),
                format!("剧本结束,胜利点{vp}:平局"),
            ),
        ),
    }
}

fn end_game_with(g: &mut PathsOfGlory, (winner, text): (Option<Side>, Text)) {
    end_game(g, winner, text);
}

pub(crate) fn end_game(g: &mut PathsOfGlory, winner: Option<Side>, text: Text) {
    g.engine.frames_mut().clear();
    g.journal.heading(|| text.clone());
    g.outcome = Some(Outcome {
        winner: winner.map(|s| g.seat_of(s)),
        text,
    });
}

/// A space's id, for notation.
pub(crate) fn sid(g: &PathsOfGlory, s: Space) -> String {
    if s.idx() < g.data().map.graph.len() {
        g.data().map.graph.space(s).id.clone()
    } else {
        format!("#{}", s.0)
    }
}

/// A counter's id, for notation.
pub(crate) fn uid(g: &PathsOfGlory, u: u16) -> String {
    g.data()
        .pieces
        .get(u as usize)
        .map_or_else(|| format!("#{u}"), |p| p.id.clone())
}

pub(crate) fn describe(g: &PathsOfGlory, a: &Action) -> Text {
    let side = match g.engine.top().map(|f| who(g, f)) {
        Some(Who::Seat(s)) => g.side_of(s),
        _ => Side::Cp,
    };
    let t = |en: String, zh: String| Text::new(en, zh);
    match a {
        Action::Die { face } => t(format!("Die: {face}"), format!("骰子:{face}")),
        Action::Draw { card } => {
            let n = match g.engine.top() {
                Some(Frame::Deal { side }) => g.card_name(*side, *card),
                _ => Text::new(format!("card {card}"), format!("卡{card}")),
            };
            t(format!("Draw {}", n.en), format!("抽到{}", n.zh))
        }
        Action::Bid { .. } | Action::AcceptBid => crate::tournament::describe(g, a),
        Action::GunsOfAugust { keep: true } => t("Start with Guns of August in hand".into(), "以“八月炮火”起手".into()),
        Action::LeaveOut { .. } | Action::PutIn { .. } => {
            crate::optional_cards::describe(g, side, a).unwrap_or_default()
        }
        Action::GunsOfAugust { keep: false } => t("Draw seven cards at random".into(), "随机抽七张牌".into()),
        Action::Play { card, with } => {
            let n = g.card_name(side, *card);
            let c = g.data().card(side, *card);
            match with {
                Use::Ops => t(
                    format!("{}: {} OPS", n.en, c.map_or(0, |c| c.ops)),
                    format!("{}:{}点作战", n.zh, c.map_or(0, |c| c.ops)),
                ),
                Use::Sr => t(
                    format!("{}: {} SR", n.en, c.map_or(0, |c| c.sr)),
                    format!("{}:{}点战略调动", n.zh, c.map_or(0, |c| c.sr)),
                ),
                Use::Rp => t(format!("{}: replacement points", n.en), format!("{}:补充点", n.zh)),
                Use::Event => t(format!("{}: event", n.en), format!("{}:事件", n.zh)),
            }
        }
        Action::AutomaticOps => t("Automatic Operation (1 OPS)".into(), "自动作战(1点作战)".into()),
        Action::Activate { space, combat } => {
            let n = g.name(*space);
            if *combat {
                t(format!("Activate {} for combat", n.en), format!("激活{}用于进攻", n.zh))
            } else {
                t(
                    format!("Activate {} for movement", n.en),
                    format!("激活{}用于移动", n.zh),
                )
            }
        }
        Action::EndActivation => t("Done activating".into(), "结束激活".into()),
        Action::Move { from, units, to } => {
            let (f, d) = (g.name(*from), g.name(*to));
            let names: Vec<Text> = units.iter().map(|&u| g.unit_name(u)).collect();
            t(
                format!("{}: {} → {}", join(&names, Lang::En), f.en, d.en),
                format!("{}:{} → {}", join(&names, Lang::Zh), f.zh, d.zh),
            )
        }
        Action::EndMovement => t("End movement".into(), "结束移动".into()),
        Action::Begin { from, units } => {
            let f = g.name(*from);
            let names: Vec<Text> = units.iter().map(|&u| g.unit_name(u)).collect();
            t(
                format!("{}: move from {} space by space", join(&names, Lang::En), f.en),
                format!("{}:从{}逐格移动", join(&names, Lang::Zh), f.zh),
            )
        }
        Action::Step { to } => {
            let n = g.name(*to);
            t(format!("Step into {}", n.en), format!("进入{}", n.zh))
        }
        Action::Halt => t("End this move here".into(), "在此结束本次移动".into()),
        Action::Target { space } => {
            let n = g.name(*space);
            t(format!("Attack {}", n.en), format!("进攻{}", n.zh))
        }
        Action::EndCombat => t("No more attacks".into(), "结束进攻".into()),
        Action::Join { unit } => {
            let n = g.unit_name(*unit);
            t(format!("{} joins the attack", n.en), format!("{}加入进攻", n.zh))
        }
        Action::Resolve => t("Resolve the combat".into(), "结算会战".into()),
        Action::Flank { pinning: Some(s) } => {
            let n = g.name(*s);
            t(
                format!("Attempt a flank attack, pinning from {} (12.3)", n.en),
                format!("尝试挟击,由{}牵制(12.3)", n.zh),
            )
        }
        Action::Flank { pinning: None } => t("No flank attack".into(), "不挟击".into()),
        Action::CombatCard { card } => {
            let n = g.card_name(side, *card);
            match crate::combat_cards::text(side, *card) {
                Some(e) => t(format!("Play {} ({})", n.en, e.en), format!("打出{}({})", n.zh, e.zh)),
                None => t(format!("Play {}", n.en), format!("打出{}", n.zh)),
            }
        }
        Action::EndCombatCards => t("No (more) combat cards".into(), "不再打出战斗卡".into()),
        Action::Lose { target } => crate::operations::describe_loss(g, *target),
        Action::StandFast { unit } => {
            let n = g.unit_name(*unit);
            t(
                format!("{} takes one more step instead of retreating (12.5.3)", n.en),
                format!("{}多承受一步损失而不撤退(12.5.3)", n.zh),
            )
        }
        Action::Retreat { unit, route } | Action::Advance { unit, route } => {
            let n = g.unit_name(*unit);
            let r: Vec<Text> = route.iter().map(|&s| g.name(s)).collect();
            let (ve, vz) = if matches!(a, Action::Retreat { .. }) {
                ("retreats", "撤退")
            } else {
                ("advances", "推进")
            };
            // 2022 12.5.4: the first of two spaces, where the unit is eliminated.
            let cut_short = matches!(a, Action::Retreat { .. })
                && g.action.battle.as_ref().and_then(|b| b.retreat).unwrap_or(0) as usize > route.len();
            let (de, dz) = if cut_short {
                (
                    " and is eliminated there (2022 12.5.4)",
                    ",并在该处被消灭(2022年版12.5.4)",
                )
            } else {
                ("", "")
            };
            t(
                format!("{} {ve} to {}{de}", n.en, join(&r, Lang::En)),
                format!("{}{vz}至{}{dz}", n.zh, join(&r, Lang::Zh)),
            )
        }
        Action::EndAdvance => t("No (more) advance".into(), "不再推进".into()),
        Action::Redeploy { unit } => {
            let n = g.unit_name(*unit);
            t(format!("Redeploy {}", n.en), format!("战略调动{}", n.zh))
        }
        Action::RedeployTo { place } => match place {
            crate::game::SrPlace::Space(s) => {
                let n = g.name(*s);
                t(format!("to {}", n.en), format!("至{}", n.zh))
            }
            crate::game::SrPlace::Reserve => t("to the Reserve Box".into(), "至预备区".into()),
        },
        Action::EndRedeployment => t("End redeployment".into(), "结束战略调动".into()),
        Action::Buy { purchase } => crate::round::describe_buy(g, *purchase),
        Action::EndReplacement => t("Done with replacements".into(), "结束补充".into()),
        Action::Place { space } => match g.engine.top() {
            Some(Frame::EventPlace { side, card, units }) => {
                crate::events::describe_event_place(g, *side, *card, units, *space)
            }
            _ => {
                let n = g.name(*space);
                t(format!("Enter at {}", n.en), format!("在{}进场", n.zh))
            }
        },
        Action::Discard { card } => {
            let n = g.card_name(side, *card);
            t(format!("Discard {}", n.en), format!("弃掉{}", n.zh))
        }
        Action::EndDiscard => t("Keep the rest".into(), "保留其余".into()),
        Action::Reduce { unit: Some(u) } => {
            let n = g.unit_name(*u);
            t(
                format!("Reduce {} (CP #63)", n.en),
                format!("使{}减员(同盟国#63)", n.zh),
            )
        }
        Action::Reduce { unit: None } => t("No more desertions".into(), "不再减员".into()),
        Action::OfferPeace => t("Offer peace terms (16.5)".into(), "提出和谈(16.5)".into()),
        Action::AnswerPeace { accept: true } => t(
            "Accept the peace terms: the game ends in a draw (16.5.2)".into(),
            "接受和谈:游戏以平局结束(16.5.2)".into(),
        ),
        Action::AnswerPeace { accept: false } => t("Refuse the peace terms (16.5.2)".into(), "拒绝和谈(16.5.2)".into()),
        Action::GreatRetreat { retreat: true } => t(
            "Great Retreat: the Russians fall back a space, no combat (AP #27)".into(),
            "大撤退:俄军后撤一格,不进行会战(协约#27)".into(),
        ),
        Action::GreatRetreat { retreat: false } => t("Stand and fight".into(), "坚守应战".into()),
        Action::Concede { unit: Some(u) } => {
            let n = g.unit_name(*u);
            t(format!("Remove {} from the game", n.en), format!("将{}移出游戏", n.zh))
        }
        Action::Concede { unit: None } => t("The CP gains 1 VP".into(), "同盟国获得1胜利点".into()),
        Action::Dig { unit } => {
            let n = g.unit_name(*unit);
            t(
                format!("{} digs trenches instead of moving (11.2.1)", n.en),
                format!("{}挖掘战壕而不移动(11.2.1)", n.zh),
            )
        }
    }
}

fn join(names: &[Text], lang: Lang) -> String {
    let sep = match lang {
        Lang::En => ", ",
        Lang::Zh => "、",
    };
    names
        .iter()
        .map(|n| n.get(lang).to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

pub(crate) fn notation(g: &PathsOfGlory, a: &Action) -> String {
    let route = |r: &[Space]| r.iter().map(|&s| sid(g, s)).collect::<Vec<_>>().join(" ");
    match a {
        Action::Die { face } => format!("die {face}"),
        Action::Draw { card } => format!("draw {card}"),
        Action::Bid { side, vp } => format!("bid {} {vp}", if *side == Side::Cp { "cp" } else { "ap" }),
        Action::AcceptBid => "bid accept".to_string(),
        Action::GunsOfAugust { keep } => format!("guns-of-august {}", if *keep { "yes" } else { "no" }),
        Action::LeaveOut { card } => format!("optional {card} out"),
        Action::PutIn { card, instead } => format!("optional {card} in {instead}"),
        Action::Play { card, with } => format!(
            "{} {card}",
            match with {
                Use::Ops => "ops",
                Use::Sr => "sr",
                Use::Rp => "rp",
                Use::Event => "event",
            }
        ),
        Action::AutomaticOps => "auto".into(),
        Action::Activate { space, combat } => {
            format!(
                "activate {} {}",
                sid(g, *space),
                if *combat { "attack" } else { "move" }
            )
        }
        Action::EndActivation => "done".into(),
        Action::Move { from, units, to } => format!(
            "move {} {} {}",
            sid(g, *from),
            sid(g, *to),
            units.iter().map(|&u| uid(g, u)).collect::<Vec<_>>().join(" ")
        ),
        Action::EndMovement => "end-movement".into(),
        Action::Begin { from, units } => format!(
            "begin {} {}",
            sid(g, *from),
            units.iter().map(|&u| uid(g, u)).collect::<Vec<_>>().join(" ")
        ),
        Action::Step { to } => format!("step {}", sid(g, *to)),
        Action::Halt => "halt".into(),
        Action::Target { space } => format!("attack {}", sid(g, *space)),
        Action::EndCombat => "end-combat".into(),
        Action::Join { unit } => format!("join {}", uid(g, *unit)),
        Action::Resolve => "resolve".into(),
        Action::Flank { pinning } => match pinning {
            Some(s) => format!("flank {}", sid(g, *s)),
            None => "flank no".into(),
        },
        Action::CombatCard { card } => format!("cc {card}"),
        Action::EndCombatCards => "cc-done".into(),
        Action::Lose { target } => match target {
            crate::game::LossTarget::Unit(u) => format!("lose {}", uid(g, *u)),
            crate::game::LossTarget::Stand(i) => format!("lose stand-in-{i}"),
            crate::game::LossTarget::Fort => "lose fort".into(),
        },
        Action::StandFast { unit } => format!("stand {}", uid(g, *unit)),
        Action::Retreat { unit, route: r } => format!("retreat {} {}", uid(g, *unit), route(r)),
        Action::Advance { unit, route: r } => format!("advance {} {}", uid(g, *unit), route(r)),
        Action::EndAdvance => "end-advance".into(),
        Action::Redeploy { unit } => format!("sr {}", uid(g, *unit)),
        Action::RedeployTo { place } => match place {
            crate::game::SrPlace::Space(s) => format!("to {}", sid(g, *s)),
            crate::game::SrPlace::Reserve => "to reserve".into(),
        },
        Action::EndRedeployment => "end-sr".into(),
        Action::Buy { purchase } => format!("buy {}", serde_json::to_string(purchase).unwrap_or_default()),
        Action::EndReplacement => "end-replacement".into(),
        Action::Place { space } => format!("place {}", sid(g, *space)),
        Action::Discard { card } => format!("discard {card}"),
        Action::EndDiscard => "end-discard".into(),
        Action::Reduce { unit: Some(u) } => format!("reduce {}", uid(g, *u)),
        Action::Reduce { unit: None } => "reduce done".into(),
        Action::OfferPeace => "peace".into(),
        Action::AnswerPeace { accept } => format!("peace {}", if *accept { "accept" } else { "refuse" }),
        Action::GreatRetreat { retreat } => format!("great-retreat {}", if *retreat { "yes" } else { "no" }),
        Action::Dig { unit } => format!("dig {}", uid(g, *unit)),
        Action::Concede { unit: Some(u) } => format!("concede {}", uid(g, *u)),
        Action::Concede { unit: None } => "concede vp".into(),
    }
}

/// Reads a typed action ([`notation`]'s form) whether or not it is legal now, so that a
/// refusal can say why with its rule: spaces and counters by their ids, cards by number.
pub(crate) fn parse_notation(g: &PathsOfGlory, text: &str) -> Option<Action> {
    use crate::game::{LossTarget, SrPlace};
    let words: Vec<&str> = text.split_whitespace().collect();
    let space = |w: &str| g.data().map.graph.find(w);
    let unit = |w: &str| g.data().pieces.iter().position(|p| p.id == w).map(|i| i as u16);
    let units = |ws: &[&str]| -> Option<Vec<u16>> {
        let v: Option<Vec<u16>> = ws.iter().map(|w| unit(w)).collect();
        v.filter(|v| !v.is_empty())
    };
    let route = |ws: &[&str]| -> Option<Vec<Space>> { ws.iter().map(|w| space(w)).collect() };
    let number = |w: &str| w.parse::<u8>().ok();
    Some(match words.as_slice() {
        ["bid", "accept"] => Action::AcceptBid,
        ["bid", s, n] => Action::Bid {
            side: match *s {
                "cp" => Side::Cp,
                "ap" => Side::Ap,
                _ => return None,
            },
            vp: n.parse().ok()?,
        },
        ["guns-of-august", "yes"] => Action::GunsOfAugust { keep: true },
        ["guns-of-august", "no"] => Action::GunsOfAugust { keep: false },
        ["optional", card, "out"] => Action::LeaveOut {
            card: card.parse().ok()?,
        },
        ["optional", card, "in", instead] => Action::PutIn {
            card: card.parse().ok()?,
            instead: instead.parse().ok()?,
        },
        [w @ ("ops" | "sr" | "rp" | "event"), n] if number(n).is_some() => Action::Play {
            card: number(n)?,
            with: match *w {
                "ops" => Use::Ops,
                "sr" => Use::Sr,
                "rp" => Use::Rp,
                _ => Use::Event,
            },
        },
        ["auto"] => Action::AutomaticOps,
        ["activate", s, how @ ("attack" | "move")] => Action::Activate {
            space: space(s)?,
            combat: *how == "attack",
        },
        ["done"] => Action::EndActivation,
        ["move", from, to, rest @ ..] => Action::Move {
            from: space(from)?,
            to: space(to)?,
            units: units(rest)?,
        },
        ["end-movement"] => Action::EndMovement,
        ["begin", from, rest @ ..] => Action::Begin {
            from: space(from)?,
            units: units(rest)?,
        },
        ["step", to] => Action::Step { to: space(to)? },
        ["halt"] => Action::Halt,
        ["attack", s] => Action::Target { space: space(s)? },
        ["end-combat"] => Action::EndCombat,
        ["join", u] => Action::Join { unit: unit(u)? },
        ["resolve"] => Action::Resolve,
        ["flank", "no"] => Action::Flank { pinning: None },
        ["flank", s] => Action::Flank {
            pinning: Some(space(s)?),
        },
        ["cc", n] => Action::CombatCard { card: number(n)? },
        ["cc-done"] => Action::EndCombatCards,
        ["lose", "fort"] => Action::Lose {
            target: LossTarget::Fort,
        },
        ["lose", w] if w.starts_with("stand-in-") => Action::Lose {
            target: LossTarget::Stand(w["stand-in-".len()..].parse().ok()?),
        },
        ["lose", u] => Action::Lose {
            target: LossTarget::Unit(unit(u)?),
        },
        ["stand", u] => Action::StandFast { unit: unit(u)? },
        ["retreat", u, rest @ ..] => Action::Retreat {
            unit: unit(u)?,
            route: route(rest)?,
        },
        ["advance", u, rest @ ..] => Action::Advance {
            unit: unit(u)?,
            route: route(rest)?,
        },
        ["end-advance"] => Action::EndAdvance,
        ["sr", u] => Action::Redeploy { unit: unit(u)? },
        ["to", "reserve"] => Action::RedeployTo {
            place: SrPlace::Reserve,
        },
        ["to", s] => Action::RedeployTo {
            place: SrPlace::Space(space(s)?),
        },
        ["end-sr"] => Action::EndRedeployment,
        ["buy", ..] => Action::Buy {
            purchase: serde_json::from_str(text.trim().strip_prefix("buy")?.trim()).ok()?,
        },
        ["end-replacement"] => Action::EndReplacement,
        ["place", s] => Action::Place { space: space(s)? },
        ["discard", n] => Action::Discard { card: number(n)? },
        ["end-discard"] => Action::EndDiscard,
        ["reduce", "done"] => Action::Reduce { unit: None },
        ["reduce", u] => Action::Reduce { unit: Some(unit(u)?) },
        ["peace"] => Action::OfferPeace,
        ["peace", "accept"] => Action::AnswerPeace { accept: true },
        ["peace", "refuse"] => Action::AnswerPeace { accept: false },
        ["great-retreat", "yes"] => Action::GreatRetreat { retreat: true },
        ["great-retreat", "no"] => Action::GreatRetreat { retreat: false },
        ["dig", u] => Action::Dig { unit: unit(u)? },
        ["concede", "vp"] => Action::Concede { unit: None },
        ["concede", u] => Action::Concede { unit: Some(unit(u)?) },
        _ => return None,
    })
}

/// What a seat may see, as JSON: the position with the other side's hand as a count only.
pub(crate) fn view_json(g: &PathsOfGlory, seat: Option<Seat>) -> serde_json::Value {
    let over = g.engine.top().is_none();
    let cards_of = |side: Side| {
        let c = &g.pos.cards[side_index(side)];
        let sees = over || seat == Some(g.seat_of(side));
        let names = |v: &[u8]| -> Vec<serde_json::Value> {
            v.iter()
                .map(|&n| {
                    let card = g.data().card(side, n);
                    serde_json::json!({
                        "number": n,
                        "name_en": card.map(|c| c.name_en.as_str()),
                        "name_zh": card.map(|c| c.name_zh.as_str()),
                        "ops": card.map(|c| c.ops),
                        "sr": card.map(|c| c.sr),
                        "combat": card.map(|c| c.combat),
                    })
                })
                .collect()
        };
        let mut v = serde_json::json!({
            "hand": if sees { Some(names(&c.hand)) } else { None },
            "hand_size": c.hand.len(),
            "draw_pile": c.draw.len(),
            "discard": names(&c.discard),
            "removed": names(&c.removed),
            "face_up": names(&c.face_up),
        });
        // Supplement 6.16: the optional cards the side put in, each with the card it took out,
        // for the side alone.
        if sees && !c.picked.is_empty() {
            let picked: Vec<serde_json::Value> = c
                .picked
                .iter()
                .map(|&(card, instead)| serde_json::json!({"in": names(&[card])[0], "out": names(&[instead])[0]}))
                .collect();
            v["picked"] = serde_json::Value::Array(picked);
        }
        v
    };
    let units: Vec<serde_json::Value> = g
        .pos
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.loc != Location::Aside)
        .map(|(i, u)| {
            let p = &g.data().pieces[i];
            let f = if u.full { p.full } else { p.reduced };
            serde_json::json!({
                "id": p.id,
                "name_en": p.name_en,
                "name_zh": p.name_zh,
                "factors": format!("{}-{}-{}", f.cf, f.lf, f.mf),
                "loc": match u.loc {
                    Location::Map(s) => sid(g, s),
                    Location::Reserve => "reserve".into(),
                    Location::Eliminated => "eliminated".into(),
                    Location::Removed => "removed".into(),
                    Location::Aside => "aside".into(),
                },
                "full": u.full,
            })
        })
        .collect();
    let mut v = serde_json::json!({
        "scenario": g.scenario.id,
        "turn": g.pos.turn,
        "vp": g.pos.vp,
        "war_status": g.pos.war_status,
        "units": units,
        "cp_cards": cards_of(Side::Cp),
        "ap_cards": cards_of(Side::Ap),
    });
    // 5.6.1: in a tournament the seat's side is the bid's: named once it is settled.
    if g.scenario.tournament {
        v["side"] = match seat {
            Some(s) if g.sides_settled() => serde_json::json!(g.side_of(s)),
            _ => serde_json::Value::Null,
        };
    }
    v
}

pub(crate) fn summary(g: &PathsOfGlory, seat: Option<Seat>, lang: Lang) -> String {
    let round = g.engine.frames().iter().rev().find_map(|f| match f {
        Frame::Round { round, .. } => Some(*round),
        _ => None,
    });
    let own = seat.map(|s| g.pos.cards[side_index(g.side_of(s))].hand.len());
    let other_size = seat.map(|s| g.pos.cards[side_index(other(g.side_of(s)))].hand.len());
    // 5.6.2: a tournament's bid, once settled, counts at the end.
    let (bid_en, bid_zh) = match g.scenario.bid {
        Some(b) if g.scenario.tournament => (
            format!(" (bid {b:+} at the end, 5.6.2)"),
            format!("(结束时竞标{b:+},5.6.2)"),
        ),
        _ => (String::new(), String::new()),
    };
    // 5.6.1: in a tournament a seat is told the side the bid gave it.
    let (plays_en, plays_zh) = match seat {
        Some(s) if g.scenario.tournament && g.sides_settled() => match g.side_of(s) {
            Side::Cp => (", you play the Central Powers", ",你执同盟国"),
            Side::Ap => (", you play the Allies", ",你执协约国"),
        },
        Some(_) if g.scenario.tournament => (", sides not yet bid for (2022 5.6.1)", ",阵营尚待竞标(2022年版5.6.1)"),
        _ => ("", ""),
    };
    // 7.1: this turn's Mandated Offensives, each side's, and whether it is met.
    let mut offensives = (String::new(), String::new());
    if g.turn.offensive.iter().any(Option::is_some) {
        let each: Vec<(String, String)> = [Side::Cp, Side::Ap]
            .into_iter()
            .filter_map(|side| {
                let i = side_index(side);
                let (en, zh) = offensive_words(g.turn.offensive[i]?);
                let (me, mz) = if g.turn.offensive_met[i] {
                    (" (met)", ",已完成")
                } else {
                    ("", "")
                };
                Some((
                    format!("{}: {en}{me}", side_en(side)),
                    format!("{}({zh}{mz})", side_zh(side)),
                ))
            })
            .collect();
        offensives = (
            format!(
                "; Mandated Offensives (7.1) — {}",
                each.iter().map(|e| e.0.as_str()).collect::<Vec<_>>().join("; ")
            ),
            format!(
                ";强制攻势(7.1):{}",
                each.iter().map(|e| e.1.as_str()).collect::<Vec<_>>().join(",")
            ),
        );
    }
    let t = Text::new(
        format!(
            "Turn {}, {}VP {}{bid_en}, War Status CP {} / AP {}{}{plays_en}{}",
            g.pos.turn,
            round.map_or(String::new(), |r| format!("action round {r}, ")),
            g.pos.vp,
            g.pos.war_status[0],
            g.pos.war_status[1],
            match (own, other_size) {
                (Some(a), Some(b)) => format!(", your hand {a} card(s), the other's {b}"),
                _ => String::new(),
            },
            offensives.0
        ),
        format!(
            "第{}回合,{}胜利点{}{bid_zh},战争状态 同盟国{} / 协约国{}{}{plays_zh}{}",
            g.pos.turn,
            round.map_or(String::new(), |r| format!("第{r}行动轮,")),
            g.pos.vp,
            g.pos.war_status[0],
            g.pos.war_status[1],
            match (own, other_size) {
                (Some(a), Some(b)) => format!(",你的手牌{a}张,对方{b}张"),
                _ => String::new(),
            },
            offensives.1
        ),
    );
    t.get(lang).to_string()
}

#[cfg(test)]
mod listing_tests {
    use super::*;
    use sandtable_core::game::Game;

    /// At every decision of random campaigns, each candidate of an action round is refused while
    /// a legal list is made exactly when it is refused outside one, where the refusal names its
    /// rule and says why in both languages.
    #[test]
    fn a_refusal_is_written_out_only_where_it_may_be_read() {
        let mut refused = 0u64;
        // Enough games that the count does not hang on one's course (one may end early).
        for seed in 0..5 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 600, |g: &PathsOfGlory| {
                let Some(frame @ Frame::Round { side, .. }) = g.engine.top() else {
                    return;
                };
                let mut candidates = Vec::new();
                crate::round::candidates(g, *side, &mut candidates);
                for a in &candidates {
                    let outside = check(g, frame, a);
                    let inside = {
                        let _listing = crate::game::Listing::begin();
                        check(g, frame, a)
                    };
                    assert_eq!(outside.is_ok(), inside.is_ok(), "{a:?}");
                    if let Err(r) = outside {
                        assert!(
                            !r.rule.is_empty() && !r.text.en.is_empty() && !r.text.zh.is_empty(),
                            "{a:?}: {r:?}"
                        );
                        refused += 1;
                    }
                }
            })
            .expect("random play");
        }
        assert!(refused > 1_000, "{refused} refusals");
    }
}

//! 8.0 The Action Phase and 9.0 the uses of a card: in each of six action rounds a side plays a
//! card from its hand for its OPS (9.2), its SR (9.3, 13.0) or its replacement points (9.4), or
//! makes an Automatic Operation of 1 OPS (8.1.3); and 6.0 F, the Replacement Phase, where the
//! points gained are spent (17.0).

use crate::cards;
use crate::data::{Kind, RpPool, Side};
use crate::game::{Action, Buy, Frame, PathsOfGlory, SrPlace, Use, RP_POOLS};
use crate::placement;
use crate::redeployment::{self, Place};
use crate::replacements;
use crate::sequence::{side_en, side_zh};
use crate::state::{side_index, Location};
use crate::supply::Occupancy;
use crate::war_status::Commitment;
use sandtable_core::game::{Mark, Refusal};
use sandtable_core::text::Text;

pub(crate) fn candidates(g: &PathsOfGlory, side: Side, out: &mut Vec<Action>) {
    out.reserve(g.pos.cards[side_index(side)].hand.len() * 4 + 2);
    for &card in &g.pos.cards[side_index(side)].hand {
        for with in [Use::Ops, Use::Sr, Use::Rp, Use::Event] {
            out.push(Action::Play { card, with });
        }
    }
    out.push(Action::AutomaticOps);
    out.push(Action::OfferPeace);
}

pub(crate) fn check(g: &PathsOfGlory, side: Side, round: u8, action: &Action) -> Result<(), Refusal> {
    let i = side_index(side);
    crate::events::historical_first_action(g, side, round, action)?;
    match *action {
        Action::AutomaticOps => Ok(()),
        Action::OfferPeace => crate::events::check_peace_offer(g, side),
        Action::Play { card, with } => {
            if !g.pos.cards[i].hand.contains(&card) {
                return Err(PathsOfGlory::refuse(
                    "8.1.3",
                    "that card is not in your hand",
                    "这张牌不在你的手中",
                ));
            }
            let Some(c) = g.data().card(side, card) else {
                return Err(PathsOfGlory::refuse("9.1", "no such card", "没有这张牌"));
            };
            // 9.5.2.5: the Allies hold Romania and Italy back for their events while the CP is at
            // Total War and they are not.
            if with != Use::Event && held_back(g, side, card) {
                return Err(PathsOfGlory::refuse(
                    "9.5.2.5",
                    format!("{} may only be played for its event (or discarded) while the CP is at Total War and the Allies are not", c.name_en),
                    format!("同盟国处于全面战争而协约国尚未时,{}只能作为事件打出(或弃掉)", c.name_zh),
                ));
            }
            match with {
                Use::Ops => Ok(()),
                Use::Event => crate::events::check(g, side, card),
                // 9.3.3, 9.4.3: not in two rounds running within a turn.
                Use::Sr if round > 1 && g.turn.last_sr[i] == round - 1 => Err(PathsOfGlory::refuse(
                    "9.3.3",
                    "no card for SR in the round after one played for SR, within a turn",
                    "同一回合内不能在连续两个行动轮打出战略调动",
                )),
                Use::Rp if round > 1 && g.turn.last_rp[i] == round - 1 => Err(PathsOfGlory::refuse(
                    "9.4.3",
                    "no card for replacement points in the round after one played for them, within a turn",
                    "同一回合内不能在连续两个行动轮打出补充点",
                )),
                Use::Sr if c.sr == 0 => Err(PathsOfGlory::refuse(
                    "9.3.2",
                    "the card has no SR value",
                    "这张牌没有战略调动值",
                )),
                Use::Rp if g.turn.influenza => Err(PathsOfGlory::refuse(
                    "AP #65",
                    "AP #65 Influenza: no card may be played for replacement points for the rest of the turn",
                    "协约国#65“大流感”:本回合余下时间不能打出补充点",
                )),
                Use::Sr | Use::Rp => Ok(()),
            }
        }
        _ => Err(PathsOfGlory::refuse(
            "8.1.3",
            "an action round is a card played for OPS, SR, replacement points or its event, or an Automatic Operation",
            "行动轮须打出一张牌用于作战、战略调动、补充点或事件,或进行自动作战",
        )),
    }
}

/// 9.5.2.5: Romania and Italy (AP #16, #17) while the CP is at Total War and the Allies are not:
/// no OPS, SR nor RP.
fn held_back(g: &PathsOfGlory, side: Side, card: u8) -> bool {
    side == Side::Ap
        && [16, 17].contains(&card)
        && g.commitment[side_index(Side::Cp)] == Commitment::Total
        && g.commitment[side_index(Side::Ap)] < Commitment::Total
}

/// 9.5.2.5 ("or discard them as if they were Combat Cards under 9.5.4.5", i.e. 9.5.4.6): the
/// cards held back may be discarded before drawing, in games begun on edition 7 or later.
pub(crate) fn discarded_as_combat_card(g: &PathsOfGlory, side: Side, card: u8) -> bool {
    g.scenario.edition >= 7 && held_back(g, side, card)
}

pub(crate) fn carry_out(g: &mut PathsOfGlory, side: Side, round: u8, action: &Action) {
    g.action = Default::default();
    // 8.1.2: the CP first, then the Allies, six rounds.
    match side {
        Side::Cp => g.engine.push(Frame::Round { round, side: Side::Ap }),
        Side::Ap if round < 6 => g.engine.push(Frame::Round {
            round: round + 1,
            side: Side::Cp,
        }),
        Side::Ap => {}
    }
    let i = side_index(side);
    match *action {
        Action::AutomaticOps => {
            g.journal.say(|| {
                Text::new(
                    format!("Round {round}: {} makes an Automatic Operation (8.1.3)", side_en(side)),
                    format!("第{round}行动轮:{}进行自动作战(8.1.3)", side_zh(side)),
                )
            });
            g.engine.push(Frame::Activation { side, ops: 1 });
        }
        Action::OfferPeace => crate::events::offer_peace(g, side, round),
        Action::Play { card, with } => {
            let c = g.data().card(side, card);
            // 9.5.1.2: a `*` card played for its event leaves the game.
            let to = if with == Use::Event && c.is_some_and(|c| c.remove) {
                cards::Played::Removed
            } else {
                cards::Played::Discarded
            };
            cards::play(&mut g.pos.cards[i], card, to);
            let (ue, uz) = match with {
                Use::Ops => ("OPS", "作战"),
                Use::Sr => ("SR", "战略调动"),
                Use::Rp => ("replacement points", "补充点"),
                Use::Event => ("its event", "事件"),
            };
            let data = g.data();
            g.journal.say(|| {
                let name = crate::game::card_name_in(data, side, card);
                Text::new(
                    format!("Round {round}: {} plays {} for {ue}", side_en(side), name.en),
                    format!("第{round}行动轮:{}打出{}用于{uz}", side_zh(side), name.zh),
                )
            });
            match with {
                Use::Event => {
                    // 2022 9.3.3: Salonika counts as an SR play.
                    if crate::events::counts_as_sr(side, card) {
                        g.turn.last_sr[i] = round;
                    }
                    crate::events::carry_out(g, side, card)
                }
                Use::Ops => g.engine.push(Frame::Activation {
                    side,
                    ops: c.map_or(0, |c| c.ops),
                }),
                Use::Sr => {
                    g.turn.last_sr[i] = round;
                    g.engine.push(Frame::Redeployment {
                        side,
                        points: c.map_or(0, |c| c.sr),
                    });
                }
                Use::Rp => {
                    g.turn.last_rp[i] = round;
                    if let Some(c) = c {
                        let rp = c.rp;
                        // 9.4.1: Bulgaria, Italy and Turkey gain nothing while neutral.
                        let neutral = |code: &str| g.pos.neutral.iter().any(|n| n == code);
                        let (bu, it, tu) = (neutral("bu"), neutral("it"), neutral("tu"));
                        // 17.1.8: after Over There each Allied RP play gives 1 US RP.
                        let us = u8::from(side == Side::Ap && crate::events::over_there(g));
                        for (k, pool) in RP_POOLS.iter().enumerate() {
                            let n = match pool {
                                RpPool::Ge => rp.ge,
                                RpPool::Ah => rp.ah,
                                RpPool::Tu if tu => 0,
                                RpPool::Bu if bu => 0,
                                RpPool::It if it => 0,
                                RpPool::Tu => rp.tu,
                                RpPool::Bu => rp.bu,
                                RpPool::Fr => rp.fr,
                                RpPool::Br => rp.br,
                                RpPool::Ru => rp.ru,
                                RpPool::It => rp.it,
                                RpPool::Allied => rp.a,
                                RpPool::Us => us,
                            };
                            g.turn.rp[i][k] = g.turn.rp[i][k].saturating_add(n);
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

/// The context of a redeployment now.
pub(crate) fn sr_context<'a>(g: &'a PathsOfGlory, occupancy: &'a Occupancy) -> redeployment::Context<'a> {
    redeployment::Context {
        supply: crate::supply::Context {
            occupancy: Some(occupancy),
            ..crate::sequence::supply_context(g)
        },
        near_east: redeployment::NearEastUsed {
            british: g.turn.near_east_sr.british,
            russian: g.turn.near_east_sr.russian,
            central: g.turn.near_east_sr.central,
        },
        // 11.1.9, 12.6.6, 2022 13.1: Race to the Sea (CP #8) or CP War Status 4.
        channel_ports_open: g.pos.war_status[side_index(Side::Cp)] >= 4 || crate::events::played(g, Side::Cp, 8),
        italy_restricted: g.scenario.historical && g.commitment[side_index(Side::Ap)] < Commitment::Total,
        brest_litovsk: crate::events::played(g, Side::Cp, 45),
        brest_litovsk_through: crate::events::played(g, Side::Cp, 45) && g.scenario.edition >= 3,
        foreign_sources_barred: g.scenario.edition >= 3,
        sieges_and_the_ana: g.scenario.edition >= 5,
        floods: None,
    }
}

/// The units a side may think of redeploying with `points` left: on the map or in the Reserve
/// Box, not yet redeployed this action, affordable (13.1.2). The check then keeps those with
/// somewhere to go.
fn sr_units(g: &PathsOfGlory, side: Side, points: u8) -> Vec<u16> {
    let data = g.data();
    // One pass over the counters beside their pieces, the cheapest questions first.
    let mut out = Vec::new();
    for (u, (p, unit)) in data.pieces.iter().zip(&g.pos.units).enumerate() {
        if p.side == side
            && matches!(unit.loc, Location::Map(_) | Location::Reserve)
            && !g.action.moved.contains(&(u as u16))
            && redeployment::cost(data, u) <= points
        {
            out.push(u as u16);
        }
    }
    out
}

/// Where a unit may redeploy to (13.1) and end within the stacking limit (10.1.2), asked
/// afresh.
#[cfg(test)]
fn sr_places(g: &PathsOfGlory, unit: usize, ctx: &redeployment::Context, occ: &Occupancy) -> Vec<Place> {
    redeployment::destinations(g.data(), &g.pos, unit, ctx)
        .into_iter()
        .filter(|p| match p {
            Place::Map(s) => occ.count(*s) < 3,
            Place::Reserve => true,
        })
        .collect()
}

pub(crate) fn sr_candidates(g: &PathsOfGlory, frame: &Frame, side: Side, out: &mut Vec<Action>) {
    match *frame {
        Frame::Redeployment { points, .. } => {
            let units = sr_units(g, side, points);
            out.reserve(units.len() + 1);
            out.extend(units.into_iter().map(|unit| Action::Redeploy { unit }));
            out.push(Action::EndRedeployment);
        }
        Frame::RedeployUnit { unit, .. } => {
            let occ = g.kept.occupancy(g.data(), &g.pos);
            let ctx = sr_context(g, &occ);
            let places = redeployment::destinations(g.data(), &g.pos, unit as usize, &ctx);
            out.reserve(places.len());
            for p in places {
                // 10.1.2: within the stacking limit (`sr_places`).
                let place = match p {
                    Place::Map(s) if occ.count(s) < 3 => SrPlace::Space(s),
                    Place::Map(_) => continue,
                    Place::Reserve => SrPlace::Reserve,
                };
                out.push(Action::RedeployTo { place });
            }
        }
        _ => {}
    }
}

/// The redeployments of a Redeployment frame (13.1): its candidates the check keeps, asking
/// whether a unit has somewhere to go once for each class of unit ([`redeployment::Class`]).
pub(crate) fn sr_legal(g: &PathsOfGlory, frame: &Frame, side: Side, out: &mut Vec<Action>) {
    let Frame::Redeployment { points, .. } = *frame else {
        let mut candidates = Vec::new();
        sr_candidates(g, frame, side, &mut candidates);
        out.extend(candidates.into_iter().filter(|a| check_sr(g, frame, a).is_ok()));
        return;
    };
    // Who stands where and the context, once for the whole list.
    let occ = g.kept.occupancy(g.data(), &g.pos);
    // Each tracer's supplied spaces, once for the whole list.
    let floods = redeployment::Floods::default();
    let ctx = redeployment::Context {
        floods: Some(&floods),
        ..sr_context(g, &occ)
    };
    // The answers of the list before that still hold (the step before of the same SR card).
    let mut memo = redeployment::answers_kept(g.data(), &g.pos, side, &ctx);
    // The candidates (`sr_candidates`) the check keeps (`check_sr`): of the side, not yet
    // redeployed, affordable and on the map or in the Reserve Box as `sr_units` lists them (in
    // one pass over the counters, the cheapest questions first), then those that do not stay
    // neutral and have somewhere to go.
    let room = |p: Place| match p {
        Place::Map(s) => occ.count(s) < 3,
        Place::Reserve => true,
    };
    let data = g.data();
    for (u, (p, counter)) in data.pieces.iter().zip(g.pos.units.iter()).enumerate() {
        if !matches!(counter.loc, Location::Map(_) | Location::Reserve)
            || p.side != side
            || redeployment::cost(data, u) > points
            || g.action.moved.contains(&(u as u16))
        {
            continue;
        }
        // 9.5.2.4 (data edition 7): the Greek corps Salonika set up stay neutral.
        if g.scenario.edition >= 7 && g.pos.neutral_unit(data, u) {
            continue;
        }
        if redeployment::any_destination_of_class(data, &g.pos, u, &ctx, room, &mut memo) {
            out.push(Action::Redeploy { unit: u as u16 });
        }
    }
    out.push(Action::EndRedeployment);
    redeployment::keep_answers(g.data(), &g.pos, side, &ctx, memo);
}

pub(crate) fn check_sr(g: &PathsOfGlory, frame: &Frame, action: &Action) -> Result<(), Refusal> {
    match (frame.clone(), action) {
        (Frame::Redeployment { .. }, Action::EndRedeployment) => Ok(()),
        (Frame::Redeployment { side, points }, Action::Redeploy { unit }) => {
            let u = *unit as usize;
            let Some(p) = g.data().pieces.get(u) else {
                return Err(PathsOfGlory::refuse("13.1", "no such unit", "没有这个单位"));
            };
            if p.side != side {
                return Err(PathsOfGlory::refuse("13.1", "that unit is the enemy's", "那是敌方单位"));
            }
            // 9.5.2.4 (data edition 7): the Greek corps Salonika set up stay neutral.
            if g.scenario.edition >= 7 && g.pos.neutral_unit(g.data(), u) {
                return Err(PathsOfGlory::refuse(
                    "9.5.2.4",
                    format!(
                        "{} stays neutral until Greece enters the war: it does not redeploy",
                        p.name_en
                    ),
                    format!("{}在希腊参战前保持中立:不能战略调动", p.name_zh),
                ));
            }
            if g.action.moved.contains(unit) {
                return Err(PathsOfGlory::refuse(
                    "13.1.1",
                    "that unit has already redeployed in this action",
                    "该单位本次行动已经战略调动过",
                ));
            }
            if redeployment::cost(g.data(), u) > points {
                return Err(PathsOfGlory::refuse(
                    "13.1.2",
                    format!(
                        "{} costs {} SR points, {points} are left",
                        p.name_en,
                        redeployment::cost(g.data(), u)
                    ),
                    format!(
                        "{}需要{}点战略调动,只剩{points}点",
                        p.name_zh,
                        redeployment::cost(g.data(), u)
                    ),
                ));
            }
            if !matches!(g.pos.units[u].loc, Location::Map(_) | Location::Reserve) {
                return Err(PathsOfGlory::refuse(
                    "13.1.1",
                    "only a unit on the map or in the Reserve Box redeploys",
                    "只有地图上或预备队格中的单位可以战略调动",
                ));
            }
            // Somewhere to go, within the stacking limit: what `sr_places` lists, not empty.
            let room = |occ: &Occupancy, p: Place| match p {
                Place::Map(s) => occ.count(s) < 3,
                Place::Reserve => true,
            };
            let any = {
                let occ = g.kept.occupancy(g.data(), &g.pos);
                let ctx = sr_context(g, &occ);
                redeployment::any_destination(g.data(), &g.pos, u, &ctx, |p| room(&occ, p))
            };
            if any {
                Ok(())
            } else {
                Err(PathsOfGlory::refuse(
                    "13.1",
                    format!("{} has nowhere to redeploy to", p.name_en),
                    format!("{}没有可以战略调动的目的地", p.name_zh),
                ))
            }
        }
        (Frame::RedeployUnit { unit, .. }, Action::RedeployTo { place }) => {
            let to = match place {
                SrPlace::Space(s) if s.idx() < g.data().map.graph.len() => Place::Map(*s),
                SrPlace::Space(_) => return Err(PathsOfGlory::refuse("13.1", "no such space", "没有这个区域")),
                SrPlace::Reserve => Place::Reserve,
            };
            let occ = g.kept.occupancy(g.data(), &g.pos);
            redeployment::check(g.data(), &g.pos, unit as usize, to, &sr_context(g, &occ))?;
            // 10.1.2: no stacking limit on the way, but a redeployment ends within it.
            if let Place::Map(s) = to {
                if g.pos.units_in(s).count() >= 3 {
                    return Err(PathsOfGlory::refuse(
                        "10.1.1",
                        format!("{} already holds 3 units", g.name(s).en),
                        format!("{}已有3个单位", g.name(s).zh),
                    ));
                }
            }
            Ok(())
        }
        _ => Err(PathsOfGlory::refuse(
            "13.1",
            "in a redeployment, pick a unit, then where it goes",
            "战略调动时先选单位,再选目的地",
        )),
    }
}

pub(crate) fn carry_out_sr(g: &mut PathsOfGlory, frame: Frame, action: &Action) {
    match (frame, action) {
        (Frame::Redeployment { side, points }, Action::Redeploy { unit }) => {
            g.engine.push(Frame::RedeployUnit {
                side,
                points,
                unit: *unit,
            });
        }
        (Frame::RedeployUnit { side, points, unit }, Action::RedeployTo { place }) => {
            let u = unit as usize;
            let from = g.pos.units[u].loc;
            let to = match place {
                SrPlace::Space(s) => Place::Map(*s),
                SrPlace::Reserve => Place::Reserve,
            };
            // 13.2: only a redeployment across the Near East's edge uses an allowance up; who
            // stands where is asked only then.
            if redeployment::crosses_near_east(g.data(), &g.pos, u, to) {
                let occ = g.kept.occupancy(g.data(), &g.pos);
                let ctx = sr_context(g, &occ);
                let near = redeployment::near_east_use(g.data(), &g.pos, u, to, &ctx);
                g.turn.near_east_sr.british |= near.british;
                g.turn.near_east_sr.russian |= near.russian;
                g.turn.near_east_sr.central |= near.central;
            }
            g.pos.units[u].loc = match place {
                SrPlace::Space(s) => Location::Map(*s),
                SrPlace::Reserve => Location::Reserve,
            };
            g.action.moved.push(unit);
            let cost = redeployment::cost(g.data(), u);
            let (data, to) = (g.data(), g.pos.units[u].loc);
            g.journal.say_marked(
                || {
                    // The names, looked up only for a journal that keeps its lines.
                    let name = crate::game::unit_name_in(data, unit);
                    let ((fe, fz), (te, tz)) = (place_words(data, from), place_words(data, to));
                    Text::new(
                        format!("{} redeploys from {fe} to {te} (13.1)", name.en),
                        format!("{}从{fz}战略调动至{tz}(13.1)", name.zh),
                    )
                },
                || {
                    let (id, sp) = (crate::operations::unit_id(data, unit), |s| {
                        crate::operations::space_id(data, s)
                    });
                    match (from, to) {
                        (Location::Map(a), Location::Map(b)) => Some(Mark::Move {
                            unit: id,
                            from: sp(a),
                            to: sp(b),
                            path: Vec::new(),
                        }),
                        (_, Location::Map(b)) => Some(Mark::Arrived { unit: id, at: sp(b) }),
                        (Location::Map(a), _) => Some(Mark::Withdrawn { unit: id, at: sp(a) }),
                        _ => None,
                    }
                },
            );
            let left = points.saturating_sub(cost);
            if left > 0 {
                g.engine.push(Frame::Redeployment { side, points: left });
            }
        }
        _ => {}
    }
}

fn place_words(data: &crate::data::Data, loc: Location) -> (String, String) {
    match loc {
        Location::Map(s) => {
            let n = crate::game::space_name_in(data, s);
            (n.en, n.zh)
        }
        _ => ("the Reserve Box".into(), "预备队格".into()),
    }
}

/// The replacement points a side has left in the pool that rebuilds a counter.
fn points_for(g: &PathsOfGlory, side: Side, unit: usize) -> u8 {
    let Some(pool) = g.data().pieces.get(unit).and_then(|p| p.rp) else {
        return 0;
    };
    RP_POOLS
        .iter()
        .position(|&p| p == pool)
        .map_or(0, |k| g.turn.rp[side_index(side)][k])
}

pub(crate) fn replacement_candidates(g: &PathsOfGlory, side: Side, out: &mut Vec<Action>) {
    let data = g.data();
    let mine: Vec<usize> = (0..data.pieces.len())
        .filter(|&u| data.pieces[u].side == side && points_for(g, side, u) > 0)
        .collect();
    let reduced_corps: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|&u| {
            data.pieces[u].kind == Kind::Corps && matches!(g.pos.units[u].loc, Location::Map(_)) && !g.pos.units[u].full
        })
        .collect();
    let gone_corps: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|&u| data.pieces[u].kind == Kind::Corps && g.pos.units[u].loc == Location::Eliminated)
        .collect();
    let same_pool = |a: usize, b: usize| data.pieces[a].rp == data.pieces[b].rp;
    let mut buys = Vec::new();
    for &u in &mine {
        let p = &data.pieces[u];
        match (p.kind, g.pos.units[u].loc) {
            (Kind::Army, Location::Map(_)) if !g.pos.units[u].full => buys.push(replacements::Purchase::FlipArmy(u)),
            (Kind::Army, Location::Eliminated) => {
                for s in placement::army_spaces(data, &g.pos, u, &crate::sequence::placement_context(g)) {
                    buys.push(replacements::Purchase::ArmyReduced(u, s));
                    buys.push(replacements::Purchase::ArmyFull(u, s));
                }
            }
            _ => {}
        }
    }
    for (k, &a) in reduced_corps.iter().enumerate() {
        buys.push(replacements::Purchase::FlipCorps(a, None));
        for &b in &reduced_corps[k + 1..] {
            if same_pool(a, b) {
                buys.push(replacements::Purchase::FlipCorps(a, Some(b)));
            }
        }
        for &b in &gone_corps {
            if same_pool(a, b) {
                buys.push(replacements::Purchase::FlipCorpsAndCorpsReduced(a, b));
            }
        }
    }
    for (k, &a) in gone_corps.iter().enumerate() {
        buys.push(replacements::Purchase::CorpsFull(a));
        buys.push(replacements::Purchase::CorpsReduced(a, None));
        for &b in &gone_corps[k + 1..] {
            if same_pool(a, b) {
                buys.push(replacements::Purchase::CorpsReduced(a, Some(b)));
            }
        }
    }
    out.extend(buys.into_iter().map(|p| Action::Buy { purchase: Buy::of(p) }));
    out.push(Action::EndReplacement);
}

pub(crate) fn check_replacement(g: &PathsOfGlory, side: Side, action: &Action) -> Result<(), Refusal> {
    match action {
        Action::EndReplacement => Ok(()),
        Action::Buy { purchase } => {
            let p = purchase.purchase();
            let units = p.units();
            if units.iter().any(|&u| u >= g.data().pieces.len()) {
                return Err(PathsOfGlory::refuse("17.1", "no such unit", "没有这个单位"));
            }
            if units.iter().any(|&u| g.data().pieces[u].side != side) {
                return Err(PathsOfGlory::refuse("17.1", "that unit is the enemy's", "那是敌方单位"));
            }
            let points = points_for(g, side, units[0]);
            replacements::check(
                g.data(),
                g.tables(),
                &g.pos,
                points,
                p,
                &crate::sequence::placement_context(g),
            )
            .map(|_| ())
        }
        _ => Err(PathsOfGlory::refuse(
            "17.1",
            "in the Replacement Phase, buy a replacement or end",
            "补充阶段只能购买补充或结束",
        )),
    }
}

pub(crate) fn carry_out_replacement(g: &mut PathsOfGlory, side: Side, action: &Action) {
    let Action::Buy { purchase } = action else {
        return;
    };
    let p = purchase.purchase();
    let units = p.units();
    let cost = replacements::cost(g.tables(), p);
    if let Some(k) = g.data().pieces[units[0]]
        .rp
        .and_then(|pool| RP_POOLS.iter().position(|&q| q == pool))
    {
        let i = side_index(side);
        g.turn.rp[i][k] = g.turn.rp[i][k].saturating_sub(cost);
    }
    replacements::apply(g.data(), &mut g.pos, p);
    let what = describe_buy(g, *purchase);
    g.journal
        .say(|| Text::new(format!("{} (17.1)", what.en), format!("{}(17.1)", what.zh)));
    g.engine.push(Frame::Replacement { side });
}

pub(crate) fn describe_buy(g: &PathsOfGlory, b: Buy) -> Text {
    let p = b.purchase();
    let names: Vec<Text> = p.units().into_iter().map(|u| g.unit_name(u as u16)).collect();
    let en = names.iter().map(|n| n.en.as_str()).collect::<Vec<_>>().join(" and ");
    let zh = names.iter().map(|n| n.zh.as_str()).collect::<Vec<_>>().join("和");
    match p {
        replacements::Purchase::FlipArmy(_) | replacements::Purchase::FlipCorps(..) => {
            Text::new(format!("Rebuild {en} to full strength"), format!("将{zh}恢复满编"))
        }
        replacements::Purchase::CorpsFull(_) => Text::new(
            format!("{en} to the Reserve Box at full strength"),
            format!("{zh}以满编进入预备队格"),
        ),
        replacements::Purchase::CorpsReduced(..) => Text::new(
            format!("{en} to the Reserve Box reduced"),
            format!("{zh}以减员进入预备队格"),
        ),
        replacements::Purchase::FlipCorpsAndCorpsReduced(..) => Text::new(
            format!("Rebuild the first and return the second to the Reserve Box: {en}"),
            format!("恢复前者并使后者以减员进入预备队格:{zh}"),
        ),
        replacements::Purchase::ArmyReduced(_, s) | replacements::Purchase::ArmyFull(_, s) => {
            let at = g.name(s);
            let full = matches!(p, replacements::Purchase::ArmyFull(..));
            Text::new(
                format!(
                    "Recreate {en} at {}{}",
                    at.en,
                    if full { " at full strength" } else { ", reduced" }
                ),
                format!("在{}重建{zh}{}", at.zh, if full { "(满编)" } else { "(减员)" }),
            )
        }
    }
}

#[cfg(test)]
mod sr_tests {
    use super::*;
    use sandtable_core::game::Game;

    /// 13.1, 10.1.2: at every decision of random campaigns where a unit is to redeploy, the
    /// places listed for it, gathered in one list, are where it may go and end within the
    /// stacking limit, as listed and filtered apart.
    #[test]
    fn the_places_listed_for_a_redeploying_unit_are_those_asked_afresh_at_every_decision() {
        let (mut lists, mut places) = (0u64, 0u64);
        for seed in 0..6 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 400, |g: &PathsOfGlory| {
                let Some(frame @ Frame::RedeployUnit { side, unit, .. }) = g.engine.top().cloned() else {
                    return;
                };
                let mut listed = Vec::new();
                sr_candidates(g, &frame, side, &mut listed);
                let occ = g.kept.occupancy(g.data(), &g.pos);
                let fresh: Vec<Action> = sr_places(g, unit as usize, &sr_context(g, &occ), &occ)
                    .into_iter()
                    .map(|p| Action::RedeployTo {
                        place: match p {
                            Place::Map(s) => SrPlace::Space(s),
                            Place::Reserve => SrPlace::Reserve,
                        },
                    })
                    .collect();
                assert_eq!(listed, fresh, "turn {}", g.pos.turn);
                lists += 1;
                places += listed.len() as u64;
            })
            .expect("random play");
        }
        assert!(lists > 100 && places > 1_000, "{lists} lists, {places} places");
    }

    /// 13.1, 10.1.2: at every decision of random campaigns where a side redeploys, the list made
    /// from the answers kept from the list before (the step before of the same SR card, or any
    /// other) is the list made afresh; most lists after a step of a card keep most answers.
    #[test]
    fn the_redeployments_listed_from_the_answers_kept_are_those_listed_afresh_at_every_decision() {
        let (mut lists, mut kept, mut asked) = (0u64, 0u64, 0u64);
        for seed in 0..8 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            let mut before: Option<redeployment::Answers> = None;
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 600, |g: &PathsOfGlory| {
                let Some(frame @ Frame::Redeployment { side, .. }) = g.engine.top().cloned() else {
                    return;
                };
                redeployment::put_answers(None);
                let mut fresh = Vec::new();
                sr_legal(g, &frame, side, &mut fresh);
                asked += redeployment::take_answers().map_or(0, |a| a.len()) as u64;
                // How many answers the list before leaves standing.
                let occ = g.kept.occupancy(g.data(), &g.pos);
                redeployment::put_answers(before.clone());
                kept += redeployment::answers_kept(g.data(), &g.pos, side, &sr_context(g, &occ)).len() as u64;
                redeployment::put_answers(before.take());
                let mut listed = Vec::new();
                sr_legal(g, &frame, side, &mut listed);
                assert_eq!(listed, fresh, "turn {}", g.pos.turn);
                before = redeployment::take_answers();
                lists += 1;
            })
            .expect("random play");
        }
        assert!(
            lists > 200 && kept > asked / 4,
            "{lists} lists, {kept} answers kept of {asked}"
        );
    }

    /// 13.1, 10.1.2: at every decision of random campaigns where a side redeploys, the answers
    /// of its list kept for positions with one counter of the side moved elsewhere (on the map
    /// or to the Reserve Box), two moved, or one of the enemy moved, give the lists made afresh
    /// for those positions.
    #[test]
    fn the_answers_kept_give_the_lists_made_afresh_after_any_counter_moves_at_every_decision() {
        let (mut lists, mut kept, mut sieges) = (0u64, 0u64, 0u64);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) as usize) % n.max(1)
        };
        for seed in 0..16 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 2_000, |g: &PathsOfGlory| {
                let Some(frame @ Frame::Redeployment { side, .. }) = g.engine.top().cloned() else {
                    return;
                };
                redeployment::put_answers(None);
                sr_legal(g, &frame, side, &mut Vec::new());
                let answers = redeployment::take_answers();
                let data = g.data();
                let placed = |g: &PathsOfGlory, own: bool| -> Vec<usize> {
                    (0..data.pieces.len())
                        .filter(|&u| {
                            (data.pieces[u].side == side) == own
                                && matches!(g.pos.units[u].loc, Location::Map(_) | Location::Reserve)
                        })
                        .collect()
                };
                // Moves that bear on the answers: into the spaces next to the side's stacks (where
                // the places found mostly are), and out of the sieges the side holds (2022 13.1.5).
                for (own, moves, from_siege) in [(true, 1, false), (true, 1, true), (true, 2, false), (false, 1, false)]
                {
                    let mut moved = g.clone();
                    for _ in 0..moves {
                        let mut units = placed(&moved, own);
                        if from_siege {
                            units.retain(|&u| match moved.pos.units[u].loc {
                                Location::Map(s) => {
                                    let st = moved.pos.space(s);
                                    st.fort == crate::state::Fort::Besieged && st.control != Some(side)
                                }
                                _ => false,
                            });
                        }
                        let stacks: Vec<sandtable_core::graph::Space> = placed(&moved, true)
                            .into_iter()
                            .filter_map(|v| match moved.pos.units[v].loc {
                                Location::Map(s) => Some(s),
                                _ => None,
                            })
                            .collect();
                        if units.is_empty() || stacks.is_empty() {
                            continue;
                        }
                        sieges += from_siege as u64;
                        let u = units[next(units.len())];
                        let exits = data.map.graph.exits(stacks[next(stacks.len())]);
                        moved.pos.units[u].loc = match next(4) {
                            0 => Location::Reserve,
                            _ if exits.is_empty() => Location::Reserve,
                            1 => Location::Map(exits[0].1),
                            _ => Location::Map(exits[next(exits.len())].1),
                        };
                    }
                    let occ = moved.kept.occupancy(data, &moved.pos);
                    redeployment::put_answers(answers.clone());
                    kept += redeployment::answers_kept(data, &moved.pos, side, &sr_context(&moved, &occ)).len() as u64;
                    redeployment::put_answers(answers.clone());
                    let mut listed = Vec::new();
                    sr_legal(&moved, &frame, side, &mut listed);
                    redeployment::put_answers(None);
                    let mut fresh = Vec::new();
                    sr_legal(&moved, &frame, side, &mut fresh);
                    assert_eq!(listed, fresh, "turn {}, {moves} moved", g.pos.turn);
                    lists += 1;
                }
            })
            .expect("random play");
        }
        assert!(
            lists > 2_000 && kept > 20_000 && sieges > 20,
            "{lists} lists, {kept} answers kept, {sieges} moves out of a siege"
        );
    }

    /// 13.2: the allowances a redeployment uses up, from every place the unit may go listed
    /// with whether it is reached by sea or the Reserve Box.
    fn near_east_use_listed(g: &PathsOfGlory, unit: usize, to: Place, ctx: &redeployment::Context) -> [bool; 3] {
        let data = g.data();
        let ne = |p: Place| matches!(p, Place::Map(s) if data.facts(s).near_east);
        let from = match g.pos.units[unit].loc {
            Location::Map(s) => Place::Map(s),
            _ => Place::Reserve,
        };
        if ne(from) == ne(to) {
            return [false; 3];
        }
        let by_sea_or_reserve = redeployment::places_by_sea_or_reserve(data, &g.pos, unit, ctx)
            .iter()
            .filter(|&&(p, _)| p == to)
            .all(|&(_, sea)| sea);
        let p = &data.pieces[unit];
        let nation = match p.nation {
            crate::data::Nation::Ana => crate::data::Nation::Br,
            crate::data::Nation::Sn => crate::data::Nation::Tu,
            n => n,
        };
        match (p.side, nation) {
            (Side::Cp, crate::data::Nation::Tu) => [false; 3],
            (Side::Cp, _) => [false, false, true],
            (Side::Ap, crate::data::Nation::Ru) => [false, true, false],
            (Side::Ap, crate::data::Nation::Br) if by_sea_or_reserve => [true, false, false],
            _ => [false; 3],
        }
    }

    /// 13.2: at every decision of random campaigns where a unit is to redeploy, each place
    /// listed, once carried out, leaves the Near East allowances used up as asking of every
    /// redeployment which it uses up says; many redeployments cross the Near East's edge.
    #[test]
    fn the_near_east_allowances_used_are_those_every_redeployment_is_asked_at_every_decision() {
        let (mut moves, mut crossing) = (0u64, 0u64);
        for seed in 0..12 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 600, |g: &PathsOfGlory| {
                let Some(frame @ Frame::RedeployUnit { side, unit, .. }) = g.engine.top().cloned() else {
                    return;
                };
                let mut listed = Vec::new();
                sr_candidates(g, &frame, side, &mut listed);
                let occ = g.kept.occupancy(g.data(), &g.pos);
                let ctx = sr_context(g, &occ);
                for a in &listed {
                    let Action::RedeployTo { place } = a else { continue };
                    let to = match place {
                        SrPlace::Space(s) => Place::Map(*s),
                        SrPlace::Reserve => Place::Reserve,
                    };
                    let used = redeployment::near_east_use(g.data(), &g.pos, unit as usize, to, &ctx);
                    assert_eq!(
                        [used.british, used.russian, used.central],
                        near_east_use_listed(g, unit as usize, to, &ctx),
                        "turn {}",
                        g.pos.turn
                    );
                    let was = &g.turn.near_east_sr;
                    let asked = (
                        was.british | used.british,
                        was.russian | used.russian,
                        was.central | used.central,
                    );
                    let mut after = g.clone();
                    carry_out_sr(&mut after, frame.clone(), a);
                    let now = &after.turn.near_east_sr;
                    assert_eq!((now.british, now.russian, now.central), asked, "turn {}", g.pos.turn);
                    moves += 1;
                    crossing += (used.british || used.russian || used.central) as u64;
                }
            })
            .expect("random play");
        }
        assert!(
            moves > 10_000 && crossing > 100,
            "{moves} redeployments, {crossing} crossing"
        );
    }
}

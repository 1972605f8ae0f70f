//! 12.5 Retreats: where a defending unit may retreat one or two spaces (12.5.2) after losing a
//! combat. It may not enter a space with enemy units or an unbesieged enemy fort, nor a neutral
//! one, nor go back into the defending space, nor cross a dashed line its nationality may not
//! use, nor go by sea (12.5.5); it may pass through a full space but not end in one (10.1.1).
//! Each step goes to the best space the rules' order of preference offers (2022 12.5.5):
//! friendly and in supply, friendly and out of supply, enemy-controlled where it would be in
//! supply, enemy-controlled and out of supply; and a unit that can retreat the whole distance
//! must, rather than stop short and be eliminated. One that can go only the first of two
//! spaces goes it and is eliminated there (2022 12.5.4, 12.7.4), in games begun on data edition
//! 4 or later.

use crate::data::{Data, Nation};
use crate::movement::{self, unit_step};
use crate::state::{Location, Position};
use crate::supply::{self, in_supply, tracer_of, Occupancy};
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::search::Step;
use sandtable_core::text::Text;

/// 10.1.1: at most three units in a space.
const STACKING: usize = 3;

/// What bears on a retreat beyond the position: supply (for the order of preference) and the
/// rules of movement that bind retreats too (11.1.4 dashed lines and beaches, 11.1.17 the BEF,
/// 11.3 the Near East and the Caucasus crossing, 15.1.12).
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    pub supply: supply::Context<'a>,
    pub movement: movement::Context<'a>,
    /// 2022 12.5.4, 12.7.4: a unit that cannot retreat two spaces but can go one goes it and is
    /// eliminated there (games begun on data edition 4 or later); else it is eliminated where it
    /// stands.
    pub cut_short: bool,
}

/// Whether the unit may step from `from` into `s` on a retreat (12.5.5), whatever the order of
/// preference: a step a move could take and go on from (no enemy unit, no unbesieged enemy
/// fort, no neutral country, a line its nationality may use, the BEF's countries, the Near
/// East's and the Caucasus's limits), never back into the defending space or into a box.
fn may_step(data: &Data, pos: &Position, unit: usize, ctx: &Context, defending: Space, from: Space, s: Space) -> bool {
    may_step_in(data, pos, unit, ctx, defending, from, s, None)
}

/// [`may_step`], finding who stands where from `occupancy` ([`Occupancy::of`] `pos`) when
/// given, else in the position.
#[allow(clippy::too_many_arguments)]
fn may_step_in(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    defending: Space,
    from: Space,
    s: Space,
    occupancy: Option<&Occupancy>,
) -> bool {
    if s == defending || data.facts(s).is_box {
        return false;
    }
    let Some(c) = data.map.graph.connection(from, s) else {
        return false;
    };
    // A move may enter an unbesieged enemy fort it can besiege (Stop); a retreat never does.
    let step = match occupancy {
        Some(occ) => movement::unit_step_with(data, pos, unit, &ctx.movement, from, c, s, occ),
        None => unit_step(data, pos, unit, &ctx.movement, from, c, s),
    };
    matches!(step, Step::Go(_))
}

/// The preference of a space as a retreat step (2022 12.5.5), best first: 0 friendly and in
/// supply, 1 friendly, 2 enemy-controlled where the unit would be in supply, 3 enemy-controlled.
fn preference(data: &Data, pos: &Position, unit: usize, ctx: &Context, s: Space) -> u8 {
    let side = data.pieces[unit].side;
    let friendly = pos.space(s).control == Some(side);
    let supplied = in_supply(data, pos, tracer_of(data, unit), s, &ctx.supply);
    match (friendly, supplied) {
        (true, true) => 0,
        (true, false) => 1,
        (false, true) => 2,
        (false, false) => 3,
    }
}

/// Whether a retreat may end in a space (12.5.5, 10.1.1): the units there now, those of this
/// retreat that went before it among them (each is moved as it retreats), leave room for one
/// more; `counted_again` of them are counted a second time (games begun before data edition 5).
fn room(pos: &Position, s: Space, counted_again: usize) -> bool {
    pos.units.iter().filter(|u| u.loc == Location::Map(s)).count() + counted_again < STACKING
}

/// [`room`], with the units in each space counted in `occupancy` ([`Occupancy::of`] `pos`)
/// when given.
fn room_in(pos: &Position, s: Space, counted_again: usize, occupancy: Option<&Occupancy>) -> bool {
    match occupancy {
        Some(occ) => occ.count(s) + counted_again < STACKING,
        None => room(pos, s, counted_again),
    }
}

/// The routes a unit may retreat along from the defending space, each ending where the unit
/// stops: a route of `length` spaces if there is one, the best by the order of preference at
/// each step; none if it cannot retreat (12.5.4). With `ctx.cut_short`, a unit that cannot
/// complete a two-space retreat but can take its first step has one-space routes, the best
/// first spaces, at the end of which it is eliminated (2022 12.5.4, 12.7.4). `counted_again(s)`:
/// the units of this retreat in `s` counted twice (before data edition 5; from it, none).
pub fn routes(
    data: &Data,
    pos: &Position,
    unit: usize,
    defending: Space,
    length: u8,
    ctx: &Context,
    counted_again: impl Fn(Space) -> usize,
) -> Vec<Vec<Space>> {
    // Who stands where, found once for every step and space the routes ask of (11.1.7, 10.1.1).
    let occ = Occupancy::of(data, pos);
    routes_in(data, pos, unit, defending, length, ctx, counted_again, Some(&occ))
}

/// [`routes`], finding who stands where from `occupancy` ([`Occupancy::of`] `pos`) when
/// given, else in the position.
#[allow(clippy::too_many_arguments)]
fn routes_in(
    data: &Data,
    pos: &Position,
    unit: usize,
    defending: Space,
    length: u8,
    ctx: &Context,
    counted_again: impl Fn(Space) -> usize,
    occupancy: Option<&Occupancy>,
) -> Vec<Vec<Space>> {
    // 2022 12.5.4: a retreating Montenegrin corps is eliminated.
    match data.pieces.get(unit) {
        Some(p) if p.nation != Nation::Mn && pos.units.get(unit).is_some() => {}
        _ => return Vec::new(),
    }
    if defending.idx() >= data.map.graph.len() {
        return Vec::new();
    }
    let steps_from = |from: Space, back: Option<Space>| -> Vec<Space> {
        data.map
            .graph
            .exits(from)
            .iter()
            .map(|&(_, n)| n)
            .filter(|&n| Some(n) != back && may_step_in(data, pos, unit, ctx, defending, from, n, occupancy))
            .collect()
    };
    // The best of some candidates by preference.
    let best = |cands: Vec<Space>| -> Vec<Space> {
        let prefs: Vec<u8> = cands.iter().map(|&s| preference(data, pos, unit, ctx, s)).collect();
        let Some(&top) = prefs.iter().min() else {
            return Vec::new();
        };
        cands
            .into_iter()
            .zip(prefs)
            .filter(|&(_, p)| p == top)
            .map(|(s, _)| s)
            .collect()
    };
    let first = steps_from(defending, None);
    if length <= 1 {
        return best(
            first
                .into_iter()
                .filter(|&s| room_in(pos, s, counted_again(s), occupancy))
                .collect(),
        )
        .into_iter()
        .map(|s| vec![s])
        .collect();
    }
    // Two spaces: the first steps from which a second step exists, then the best second
    // steps from each chosen first. A first step may be full (passed through).
    let ends = |f: Space| -> Vec<Space> {
        steps_from(f, Some(defending))
            .into_iter()
            .filter(|&s| room_in(pos, s, counted_again(s), occupancy))
            .collect()
    };
    let through: Vec<Space> = first.iter().copied().filter(|&f| !ends(f).is_empty()).collect();
    if through.is_empty() {
        // No two-space route: the unit cannot complete its retreat (12.5.4). In the 2022
        // rules it goes as far as it can, one space, and is eliminated there (12.7.4 lets the
        // advance follow it); it ends nowhere, so a full space is no bar.
        if !ctx.cut_short {
            return Vec::new();
        }
        return best(first).into_iter().map(|s| vec![s]).collect();
    }
    let mut out = Vec::new();
    for f in best(through) {
        for e in best(ends(f)) {
            out.push(vec![f, e]);
        }
    }
    out
}

/// Why a retreat route is refused, or `Ok` if it is one of [`routes`].
#[allow(clippy::too_many_arguments)]
pub fn check(
    data: &Data,
    pos: &Position,
    unit: usize,
    defending: Space,
    length: u8,
    ctx: &Context,
    counted_again: impl Fn(Space) -> usize,
    route: &[Space],
) -> Result<(), Refusal> {
    let legal = routes(data, pos, unit, defending, length, ctx, &counted_again);
    if legal.iter().any(|r| r == route) {
        return Ok(());
    }
    if legal.is_empty() {
        return Err(Refusal::new(
            "12.5.4",
            Text::new(
                "this unit cannot retreat: it is eliminated (a Montenegrin corps always is, 2022 12.5.4)",
                "该单位无法撤退,将被消灭(黑山军撤退时总是被消灭,2022年版12.5.4)",
            ),
        ));
    }
    let name = |s: Space| data.map.graph.space(s).name_en.clone();
    let name_zh = |s: Space| data.map.graph.space(s).name_zh.clone();
    if route.len() != length as usize {
        if ctx.cut_short && legal.iter().all(|r| r.len() < length as usize) {
            return Err(Refusal::new(
                "2022 12.5.4",
                Text::new(
                    "this unit cannot retreat two spaces: it retreats one space and is eliminated there",
                    "该单位无法撤退两格:撤退一格后在该处被消灭",
                ),
            ));
        }
        return Err(Refusal::new(
            "12.5.2",
            Text::new(
                format!("the retreat is {length} space(s) long"),
                format!("撤退距离为{length}格"),
            ),
        ));
    }
    let mut at = defending;
    for (i, &s) in route.iter().enumerate() {
        if s.idx() >= data.map.graph.len() || !may_step(data, pos, unit, ctx, defending, at, s) {
            let (en, zh) = if s.idx() < data.map.graph.len() {
                (name(s), name_zh(s))
            } else {
                (String::from("?"), String::from("?"))
            };
            return Err(Refusal::new(
                "12.5.5",
                Text::new(
                    format!(
                        "a retreat may not go into {en} from there: enemy units, an enemy fort, a neutral country, a line or a place its units may not use, or the defending space"
                    ),
                    format!("撤退不能从该处进入{zh}:敌军单位、敌方要塞、中立国、该单位不能使用的连线或区域,或原守备区域"),
                ),
            ));
        }
        if i + 1 == route.len() && !room(pos, s, counted_again(s)) {
            return Err(Refusal::new(
                "10.1.1",
                Text::new(
                    format!("a retreat may not end in {}: it already holds three units", name(s)),
                    format!("撤退不能终止于{}:该区域已有三个单位", name_zh(s)),
                ),
            ));
        }
        at = s;
    }
    Err(Refusal::new(
        "12.5.5",
        Text::new(
            "a retreat goes to the best space it can: friendly and in supply first, then friendly, then enemy-controlled in supply, then enemy-controlled",
            "撤退须尽可能进入较优先的区域:先是有补给的友方区域,其次友方区域,其次有补给的敌方区域,最后敌方区域",
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::Game;

    /// 12.5: at every decision of random campaigns, the retreat routes of units on the map, of
    /// one space and of two, cut short or not, found with who stands where counted once are
    /// those found by asking the position at each step and space.
    #[test]
    fn retreat_routes_with_the_units_counted_once_are_those_found_afresh_at_every_decision() {
        let mut asked = 0u64;
        for seed in 0..2 {
            let mut g = crate::game::PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 200, |g: &crate::game::PathsOfGlory| {
                let (data, pos) = (g.data(), &g.pos);
                let occ = Occupancy::of(data, pos);
                for (unit, u) in pos.units.iter().enumerate().step_by(3) {
                    let Location::Map(defending) = u.loc else { continue };
                    for (length, cut_short) in [(1, false), (2, false), (2, true)] {
                        let ctx = Context {
                            supply: g.supply_context(),
                            movement: movement::Context {
                                turn: pos.turn,
                                open_beaches: pos.beachhead.as_slice(),
                                sieges_resume: true,
                                ..movement::Context::default()
                            },
                            cut_short,
                        };
                        let again = |s: Space| usize::from(s.idx().is_multiple_of(5));
                        assert_eq!(
                            routes_in(data, pos, unit, defending, length, &ctx, again, Some(&occ)),
                            routes_in(data, pos, unit, defending, length, &ctx, again, None),
                        );
                        asked += 1;
                    }
                }
            })
            .expect("random play");
        }
        assert!(asked > 10_000, "{asked}");
    }
}

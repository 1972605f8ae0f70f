//! 12.5 Retreats: where a defending unit may retreat one or two spaces (12.5.2) after losing a
//! combat. It may not enter a space with enemy units or an unbesieged enemy fort, nor a neutral
//! one, nor go back into the defending space, nor cross a dashed line its nationality may not
//! use, nor go by sea (12.5.5); it may pass through a full space but not end in one (10.1.1).
//! Each step goes to the best space the rules' order of preference offers (2022 12.5.5):
//! friendly and in supply, friendly and out of supply, enemy-controlled where it would be in
//! supply, enemy-controlled and out of supply; and a unit that can retreat the whole distance
//! must, rather than stop short and be eliminated.

use crate::data::{Data, Side};
use crate::state::{Fort, Location, Position};
use crate::supply::{in_supply, tracer_of, Context};
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// 10.1.1: at most three units in a space.
const STACKING: usize = 3;

/// Whether the unit may step into a space on a retreat (12.5.5), whatever the order of
/// preference: no enemy unit, no unbesieged enemy fort, not neutral, not the defending space.
fn may_enter(data: &Data, pos: &Position, side: Side, defending: Space, s: Space) -> bool {
    if s == defending || data.facts(s).is_box {
        return false;
    }
    let st = pos.space(s);
    if st.control.is_none() {
        return false;
    }
    let enemy_fort = data.facts(s).fort > 0 && data.facts(s).faction != side && st.fort == Fort::Intact;
    let enemy_units = pos
        .units
        .iter()
        .zip(&data.pieces)
        .any(|(u, p)| u.loc == Location::Map(s) && p.side != side);
    !enemy_fort && !enemy_units
}

/// Whether the unit may use the connection (11.1.4 for retreats: its dashed lines only; the
/// beach links only under the Beachhead marker).
fn may_cross(data: &Data, unit: usize, ctx: &Context, c: u16, a: Space, b: Space) -> bool {
    let f = data.map.features(c);
    let lines = data.lines;
    if f & lines.dashed() == 0 {
        return true;
    }
    if f & lines.mef_beach != 0 {
        return ctx.open_beaches.contains(&a) || ctx.open_beaches.contains(&b);
    }
    f & lines.for_nation(data.pieces[unit].line_nation()) != 0
}

/// The preference of a space as a retreat step (2022 12.5.5), best first: 0 friendly and in
/// supply, 1 friendly, 2 enemy-controlled where the unit would be in supply, 3 enemy-controlled.
fn preference(data: &Data, pos: &Position, unit: usize, ctx: &Context, s: Space) -> u8 {
    let side = data.pieces[unit].side;
    let friendly = pos.space(s).control == Some(side);
    let supplied = in_supply(data, pos, tracer_of(data, unit), s, ctx);
    match (friendly, supplied) {
        (true, true) => 0,
        (true, false) => 1,
        (false, true) => 2,
        (false, false) => 3,
    }
}

/// The units of the unit's side already in a space, with those `arriving` there before it.
fn room(pos: &Position, s: Space, arriving: usize) -> bool {
    pos.units.iter().filter(|u| u.loc == Location::Map(s)).count() + arriving < STACKING
}

/// The routes a unit may retreat along from the defending space, each ending where the unit
/// stops: a route of `length` spaces if there is one, the best by the order of preference at
/// each step; none if it cannot retreat (12.5.4). `arriving(s)` counts the units of this retreat
/// that already chose to end in `s`.
pub fn routes(
    data: &Data,
    pos: &Position,
    unit: usize,
    defending: Space,
    length: u8,
    ctx: &Context,
    arriving: impl Fn(Space) -> usize,
) -> Vec<Vec<Space>> {
    let side = data.pieces[unit].side;
    let steps_from = |from: Space, back: Option<Space>| -> Vec<Space> {
        data.map
            .graph
            .exits(from)
            .iter()
            .filter(|&&(c, n)| Some(n) != back && may_cross(data, unit, ctx, c, from, n))
            .map(|&(_, n)| n)
            .filter(|&n| may_enter(data, pos, side, defending, n))
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
        return best(first.into_iter().filter(|&s| room(pos, s, arriving(s))).collect())
            .into_iter()
            .map(|s| vec![s])
            .collect();
    }
    // Two spaces: the first steps from which a second step exists, then the best second
    // steps from each chosen first. A first step may be full (passed through).
    let ends = |f: Space| -> Vec<Space> {
        steps_from(f, Some(defending))
            .into_iter()
            .filter(|&s| room(pos, s, arriving(s)))
            .collect()
    };
    let through: Vec<Space> = first.iter().copied().filter(|&f| !ends(f).is_empty()).collect();
    if through.is_empty() {
        // No two-space route: the unit cannot complete its retreat (12.5.4).
        return Vec::new();
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
    arriving: impl Fn(Space) -> usize,
    route: &[Space],
) -> Result<(), Refusal> {
    let legal = routes(data, pos, unit, defending, length, ctx, &arriving);
    if legal.iter().any(|r| r == route) {
        return Ok(());
    }
    let name = |s: Space| data.map.graph.space(s).id.clone();
    if route.len() != length as usize {
        return Err(Refusal::new(
            "12.5.2",
            Text::new(
                format!("the retreat is {length} space(s) long"),
                format!("撤退距离为{length}格"),
            ),
        ));
    }
    let side = data.pieces[unit].side;
    let mut at = defending;
    for (i, &s) in route.iter().enumerate() {
        let link = data.map.graph.connection(at, s);
        if link.is_none_or(|c| !may_cross(data, unit, ctx, c, at, s)) {
            return Err(Refusal::new(
                "12.5.5",
                Text::new(
                    format!("{} is not next to {} by a line this unit may use", name(s), name(at)),
                    format!("{}与{}之间没有该单位可用的连线", name(s), name(at)),
                ),
            ));
        }
        if !may_enter(data, pos, side, defending, s) {
            return Err(Refusal::new(
                "12.5.5",
                Text::new(
                    format!(
                        "a retreat may not enter {}: enemy units, an enemy fort, a neutral country or the defending space",
                        name(s)
                    ),
                    format!("撤退不能进入{}:敌军单位、敌方要塞、中立国或原守备区域", name(s)),
                ),
            ));
        }
        if i + 1 == route.len() && !room(pos, s, arriving(s)) {
            return Err(Refusal::new(
                "10.1.1",
                Text::new(
                    format!("a retreat may not end in {}: it already holds three units", name(s)),
                    format!("撤退不能终止于{}:该区域已有三个单位", name(s)),
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

//! 9.5.3.3 Where an army enters the map, as a reinforcement or recreated by replacement points
//! (17.1.5): its nation's capital or a supply source of its nation that its side controls, not
//! a space whose fort is besieged, in supply, within the stacking limit; an American army at any
//! Allied French port; a French army at Orleans when Paris is full; the Belgian and Serbian
//! armies where 17.1.5 puts them.

use crate::data::{Data, Nation, Side};
use crate::state::{Fort, Position};
use crate::supply::{self, in_supply, tracer_of};
use sandtable_core::graph::Space;

/// What bears on a placement beyond the position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    pub supply: supply::Context<'a>,
    /// Salonika or Greece's entry has been played (17.1.5: a Serbian army may be recreated at
    /// Salonika).
    pub salonika_played: bool,
    /// 2022 17.1.4.1: no replacement for a unit supplied only through another nation's sources
    /// (games begun on data edition 3 or later).
    pub foreign_sources_barred: bool,
}

/// Whether `s` has room for one more unit (10.1.1), with the armies of `placed` already set
/// down in their spaces.
fn room(pos: &Position, placed: &[Space], s: Space, ctx: &Context) -> bool {
    // While a legal list is made, from the units of each space kept beside the game.
    let mut here = 0;
    let kept = ctx
        .supply
        .kept
        .is_some_and(|k| k.trusted_units_in(pos, s, &mut |_| here += 1));
    if !kept {
        here = pos.units_in(s).count();
    }
    here + placed.iter().filter(|&&p| p == s).count() < 3
}

/// The spaces an army may enter in (9.5.3.3, 17.1.5).
pub fn army_spaces(data: &Data, pos: &Position, unit: usize, ctx: &Context) -> Vec<Space> {
    army_spaces_after(data, pos, unit, ctx, &[])
}

/// [`army_spaces`] once other armies of the same side have been set down in `placed` (one
/// entry per army): they take room (10.1.1) and change nothing else an entry reads, since a
/// side's supply reads only where the enemy stands (14.1.2).
pub(crate) fn army_spaces_after(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    placed: &[Space],
) -> Vec<Space> {
    let Some(p) = data.pieces.get(unit).filter(|_| unit < pos.units.len()) else {
        return Vec::new();
    };
    let side = p.side;
    let ok = |s: Space| {
        let st = pos.space(s);
        st.control == Some(side)
            && st.fort != Fort::Besieged
            && room(pos, placed, s, ctx)
            && in_supply(data, pos, tracer_of(data, unit), s, &ctx.supply)
    };
    let by_id = |id: &str| data.space(id);
    let mut out: Vec<Space> = match p.nation {
        // 9.5.3.3: American armies at any Allied French port.
        Nation::Us => data
            .map
            .graph
            .space_indices()
            .filter(|&s| data.facts(s).port_ap && data.facts(s).nation.as_deref() == Some("fr"))
            .collect(),
        // 17.1.5: the Belgian army at Brussels, Ostend or Antwerp; Calais only when none of the
        // three will do.
        Nation::Be => {
            let three: Vec<Space> = ["brussels", "ostend", "antwerp"]
                .iter()
                .filter_map(|id| by_id(id))
                .collect();
            if three.iter().any(|&s| ok(s)) {
                three
            } else {
                by_id("calais").into_iter().collect()
            }
        }
        // 17.1.5: a Serbian army at Belgrade (not while Nis is the CP's) or, after Salonika or
        // Greece's entry, at an Allied Salonika.
        Nation::Sb => {
            let mut v = Vec::new();
            if by_id("nis").is_none_or(|nis| pos.space(nis).control != Some(Side::Cp)) {
                v.extend(by_id("belgrade"));
            }
            if ctx.salonika_played {
                v.extend(by_id("salonika"));
            }
            v
        }
        n => {
            let code = n.code();
            let mut v: Vec<Space> = data
                .map
                .graph
                .space_indices()
                .filter(|&s| {
                    let f = data.facts(s);
                    (f.capital || f.supply_source) && f.nation.as_deref() == Some(code)
                })
                .collect();
            // 9.5.3.3: a French army at Orleans when Paris is full, never while Paris is
            // besieged or the CP's.
            if n == Nation::Fr {
                if let (Some(paris), Some(orleans)) = (by_id("paris"), by_id("orleans")) {
                    let st = pos.space(paris);
                    if !room(pos, placed, paris, ctx) && st.control == Some(Side::Ap) && st.fort != Fort::Besieged {
                        v.push(orleans);
                    }
                }
            }
            v
        }
    };
    out.retain(|&s| ok(s));
    out.sort();
    out.dedup();
    out
}

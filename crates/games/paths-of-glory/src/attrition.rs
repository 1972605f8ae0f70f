//! The Attrition Phase (6.0 C, 14.3.5, 14.3.6): every unit out of supply is eliminated, both
//! sides at once, so no unit regains supply because an enemy unit went; an army so eliminated
//! leaves the game. Then every space a side controls that holds none of its units and cannot
//! trace supply to one of its sources passes to the other side, unless an undestroyed fort of
//! its own stands there; its trench goes with it (11.2.7).

use crate::data::{Data, Kind, Nation, Side};
use crate::state::{Fort, Location, Position, Trench};
use crate::supply::{tracer_of, Context, Occupancy, Supplied, Tracer};
use sandtable_core::graph::Space;

/// What the Attrition Phase does, worked out from one position before any of it is carried out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attrition {
    /// Corps eliminated (to the Eliminated/Replaceable box).
    pub eliminated: Vec<usize>,
    /// Armies eliminated and out of the game (14.3.5).
    pub removed: Vec<usize>,
    /// Spaces that pass to the other side (14.3.6).
    pub flipped: Vec<Space>,
}

fn other(side: Side) -> Side {
    match side {
        Side::Ap => Side::Cp,
        Side::Cp => Side::Ap,
    }
}

/// 14.1.8: Turkish units in Medina are in supply for attrition.
fn supplied_for_attrition(
    data: &Data,
    unit: usize,
    at: Space,
    supplied: &mut impl FnMut(Tracer, Space) -> bool,
) -> bool {
    let p = &data.pieces[unit];
    (p.nation == Nation::Tu && data.map.graph.space(at).id == "medina") || supplied(tracer_of(data, unit), at)
}

/// The Attrition Phase's effects on a position (14.3.5, 14.3.6).
#[cfg(test)]
pub fn attrition(data: &Data, pos: &Position, ctx: &Context) -> Attrition {
    attrition_of(data, pos, ctx, true)
}

/// 2022 11.1.12: while Italy is neutral, Albania's Allied spaces, and the Allied units in them,
/// trace attrition supply to Taranto: along Allied spaces free of CP units to a space joined to
/// Taranto (Valona, across the Italian line).
fn to_taranto(data: &Data, pos: &Position, at: Space) -> bool {
    let (Some(taranto), true) = (data.space("taranto"), pos.neutral.iter().any(|n| n == "it")) else {
        return false;
    };
    if data.facts(at).nation.as_deref() != Some("al") {
        return false;
    }
    let open =
        |s: Space| pos.space(s).control == Some(Side::Ap) && !pos.units_in(s).any(|u| data.pieces[u].side == Side::Cp);
    let mut seen = vec![false; data.map.graph.len()];
    let mut queue = vec![at];
    seen[at.idx()] = true;
    while let Some(s) = queue.pop() {
        if !open(s) {
            continue;
        }
        for &(_, n) in data.map.graph.exits(s) {
            if n == taranto {
                return true;
            }
            if !seen[n.idx()] {
                seen[n.idx()] = true;
                queue.push(n);
            }
        }
    }
    false
}

/// [`attrition`], with Albania's trace to Taranto (2022 11.1.12) or without it (`taranto`: games
/// begun before data edition 3).
pub(crate) fn attrition_of(data: &Data, pos: &Position, ctx: &Context, taranto: bool) -> Attrition {
    let mut out = Attrition::default();
    // Every space at once for each tracer (the same answers as a search from each space).
    let occupancy = Occupancy::of(data, pos);
    let ctx = &Context {
        occupancy: Some(&occupancy),
        ..*ctx
    };
    let mut floods: Vec<(Tracer, Supplied)> = Vec::new();
    let mut supplied = |t: Tracer, at: Space| -> bool {
        match floods.iter().position(|(k, _)| *k == t) {
            Some(i) => floods[i].1.at(data, at),
            None => {
                let f = Supplied::new(data, pos, t, ctx);
                let ok = f.at(data, at);
                floods.push((t, f));
                ok
            }
        }
    };
    for (i, u) in pos.units.iter().enumerate() {
        let Location::Map(at) = u.loc else { continue };
        let albanian = taranto && data.pieces[i].side == Side::Ap && to_taranto(data, pos, at);
        if !albanian && !supplied_for_attrition(data, i, at, &mut supplied) {
            match data.pieces[i].kind {
                Kind::Army => out.removed.push(i),
                Kind::Corps => out.eliminated.push(i),
            }
        }
    }
    let gone = |i: usize| out.eliminated.contains(&i) || out.removed.contains(&i);
    for s in data.map.graph.space_indices() {
        let st = pos.space(s);
        let Some(side) = st.control else { continue };
        let f = data.facts(s);
        // Serbian spaces change hands only when CP units enter them (2022 14.3.6); a neutral
        // country's spaces (Kavala, Allied from the start) are not at war.
        if f.is_box || f.nation.as_deref() == Some("sb") || pos.in_neutral_country(data, s) {
            continue;
        }
        if f.fort > 0 && f.faction == side && st.fort != Fort::Destroyed {
            continue;
        }
        let held = pos.units_in(s).any(|i| data.pieces[i].side == side && !gone(i));
        if held {
            continue;
        }
        let albanian = taranto && side == Side::Ap && to_taranto(data, pos, s);
        if !albanian && !supplied(Tracer::Space(side), s) {
            out.flipped.push(s);
        }
    }
    out
}

/// Carries out an Attrition Phase worked out by [`attrition`].
pub fn apply(pos: &mut Position, a: &Attrition) {
    for &i in &a.eliminated {
        pos.units[i].loc = Location::Eliminated;
    }
    for &i in &a.removed {
        pos.units[i].loc = Location::Removed;
    }
    for &s in &a.flipped {
        let st = &mut pos.spaces[s.idx()];
        let Some(side) = st.control else { continue };
        st.control = Some(other(side));
        // 11.2.7 (2022): a level-1 trench of the side that lost the space goes, a level-2 one
        // becomes the other side's level 1.
        st.trench = match st.trench {
            Some(Trench { side: t, level: 2 }) if t == side => Some(Trench {
                side: other(side),
                level: 1,
            }),
            Some(Trench { side: t, .. }) if t == side => None,
            kept => kept,
        };
    }
}

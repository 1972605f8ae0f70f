//! The Attrition Phase (6.0 C, 14.3.5, 14.3.6): every unit out of supply is eliminated, both
//! sides at once, so no unit regains supply because an enemy unit went; an army so eliminated
//! leaves the game. Then every space a side controls that holds none of its units and cannot
//! trace supply to one of its sources passes to the other side, unless an undestroyed fort of
//! its own stands there; its trench goes with it (11.2.7).

use crate::data::{Data, Kind, Nation, Side};
use crate::state::{side_index, Fort, Location, Position, Trench};
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
    attrition_of(data, pos, ctx, crate::game::EDITION)
}

/// 2022 11.1.12: while Italy is neutral, Albania's Allied spaces, and the Allied units in them,
/// trace attrition supply to Taranto: along Allied spaces free of CP units to a space joined to
/// Taranto (Valona, across the Italian line).
fn to_taranto(data: &Data, pos: &Position, at: Space) -> bool {
    if data.facts(at).nation.as_deref() != Some("al") {
        return false;
    }
    let (Some(taranto), true) = (data.space("taranto"), pos.neutral.iter().any(|n| n == "it")) else {
        return false;
    };
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

/// [`attrition`] for a game begun on data edition `edition`: with Albania's trace to Taranto
/// (2022 11.1.12) from edition 3, and sparing the neutral Greek corps (9.5.2.4) from edition 7.
pub(crate) fn attrition_of(data: &Data, pos: &Position, ctx: &Context, edition: u8) -> Attrition {
    let mut out = Attrition::default();
    let taranto = edition >= 3;
    // Every space at once for each tracer (the same answers as a search from each space).
    let occupancy = Occupancy::of(data, pos);
    let ctx = &Context {
        occupancy: Some(&occupancy),
        ..*ctx
    };
    let mut floods: Vec<(Tracer, Supplied)> = Vec::new();
    // The flood asked of last: the units, in data order, come nation by nation.
    let mut last: Option<(Tracer, usize)> = None;
    let mut supplied = |t: Tracer, at: Space| -> bool {
        let i = match last {
            Some((k, i)) if k == t => i,
            _ => {
                let i = floods.iter().position(|(k, _)| *k == t).unwrap_or_else(|| {
                    floods.push((t, Supplied::new(data, pos, t, ctx)));
                    floods.len() - 1
                });
                last = Some((t, i));
                i
            }
        };
        floods[i].1.at(data, at)
    };
    for (i, u) in pos.units.iter().enumerate() {
        let Location::Map(at) = u.loc else { continue };
        // 9.5.2.4: the Greek corps Salonika set up are no side's while Greece stays neutral.
        if edition >= 7 && pos.neutral_unit(data, i) {
            continue;
        }
        // Supply first: the trace to Taranto is asked only of the units out of it.
        let albanian = |i: usize| taranto && data.pieces[i].side == Side::Ap && to_taranto(data, pos, at);
        if !supplied_for_attrition(data, i, at, &mut supplied) && !albanian(i) {
            match data.pieces[i].kind {
                Kind::Army => out.removed.push(i),
                Kind::Corps => out.eliminated.push(i),
            }
        }
    }
    let held_by = held(data, pos, &out);
    for s in data.map.graph.space_indices() {
        let st = pos.space(s);
        let Some(side) = st.control else { continue };
        // Held or in supply: it stays (the cheap questions first; each below only skips).
        if held_by[side_index(side)][s.idx()] || supplied(Tracer::Space(side), s) {
            continue;
        }
        let f = data.facts(s);
        // Serbian spaces change hands only when CP units enter them (2022 14.3.6); a neutral
        // country's spaces (Kavala, Allied from the start) are not at war.
        if f.is_box || f.nation.as_deref() == Some("sb") || pos.in_neutral_country(data, s) {
            continue;
        }
        if f.fort > 0 && f.faction == side && st.fort != Fort::Destroyed {
            continue;
        }
        if !(taranto && side == Side::Ap && to_taranto(data, pos, s)) {
            out.flipped.push(s);
        }
    }
    out
}

/// Per side (by [`side_index`]), per space, whether one of the side's units stays there once
/// the units of `a` are eliminated (14.3.6): one pass over the counters.
fn held(data: &Data, pos: &Position, a: &Attrition) -> [Vec<bool>; 2] {
    let mut held_by = [vec![false; data.map.graph.len()], vec![false; data.map.graph.len()]];
    for (i, u) in pos.units.iter().enumerate() {
        let Location::Map(at) = u.loc else { continue };
        if !a.eliminated.contains(&i) && !a.removed.contains(&i) {
            if let Some(h) = held_by[side_index(data.pieces[i].side)].get_mut(at.idx()) {
                *h = true;
            }
        }
    }
    held_by
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::PathsOfGlory;
    use sandtable_core::game::Game;

    /// 14.3.6 as first worked out: the spaces that change hands, each space's units looked
    /// for among all the counters.
    fn flipped_by_search(data: &Data, pos: &Position, ctx: &Context, a: &Attrition) -> Vec<Space> {
        let gone = |i: usize| a.eliminated.contains(&i) || a.removed.contains(&i);
        let mut out = Vec::new();
        for s in data.map.graph.space_indices() {
            let st = pos.space(s);
            let Some(side) = st.control else { continue };
            let f = data.facts(s);
            if f.is_box || f.nation.as_deref() == Some("sb") || pos.in_neutral_country(data, s) {
                continue;
            }
            if f.fort > 0 && f.faction == side && st.fort != Fort::Destroyed {
                continue;
            }
            if pos.units_in(s).any(|i| data.pieces[i].side == side && !gone(i)) {
                continue;
            }
            let albanian = side == Side::Ap && to_taranto(data, pos, s);
            if !albanian && !crate::supply::traced(data, pos, Tracer::Space(side), s, ctx) {
                out.push(s);
            }
        }
        out
    }

    /// 14.3.5, 14.3.6: at every decision of random campaigns, the Attrition Phase worked out
    /// now (the held spaces from one pass over the counters, the kept floods) eliminates what a
    /// search from each unit's space eliminates and flips the spaces a search from each space
    /// flips.
    #[test]
    fn the_attrition_phase_agrees_with_a_search_from_each_space_at_every_decision() {
        let (mut phases, mut flipped) = (0u64, 0u64);
        // Flips are rare in random play: enough games that the count never hangs on one's course.
        for seed in 0..8 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 400, |g: &PathsOfGlory| {
                let (data, pos) = (g.data(), &g.pos);
                let a = attrition_of(data, pos, &g.supply_context(), g.scenario.edition);
                let fresh = Context::default();
                for (i, u) in pos.units.iter().enumerate() {
                    let Location::Map(at) = u.loc else { continue };
                    let stays = pos.neutral_unit(data, i)
                        || (data.pieces[i].side == Side::Ap && to_taranto(data, pos, at))
                        || supplied_for_attrition(data, i, at, &mut |t, s| {
                            crate::supply::traced(data, pos, t, s, &fresh)
                        });
                    assert_eq!(
                        !stays,
                        a.eliminated.contains(&i) || a.removed.contains(&i),
                        "{}",
                        data.pieces[i].id
                    );
                }
                assert_eq!(a.flipped, flipped_by_search(data, pos, &fresh, &a));
                let gone = |i: usize| a.eliminated.contains(&i) || a.removed.contains(&i);
                let held_by = held(data, pos, &a);
                for side in [Side::Cp, Side::Ap] {
                    for s in data.map.graph.space_indices() {
                        let by_search = pos.units_in(s).any(|i| data.pieces[i].side == side && !gone(i));
                        assert_eq!(held_by[side_index(side)][s.idx()], by_search, "{side:?}");
                    }
                }
                phases += 1;
                flipped += a.flipped.len() as u64;
            })
            .expect("random play");
        }
        assert!(phases > 500 && flipped > 20, "{phases} {flipped}");
    }
}

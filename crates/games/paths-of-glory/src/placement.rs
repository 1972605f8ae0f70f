//! 9.5.3.3 Where an army enters the map, as a reinforcement or recreated by replacement points
//! (17.1.5): its nation's capital or a supply source of its nation that its side controls, not
//! a space whose fort is besieged, in supply, within the stacking limit; an American army at any
//! Allied French port; a French army at Orleans when Paris is full; the Belgian and Serbian
//! armies where 17.1.5 puts them.

use crate::data::{Data, Nation, Side};
use crate::state::{side_index, Fort, Position};
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
    let mut out = Vec::new();
    visit_army_spaces(data, pos, unit, ctx, placed, &mut |s| {
        out.push(s);
        false
    });
    out.sort();
    out.dedup();
    out
}

/// Whether [`army_spaces_after`] lists any space: asked of the spaces one by one, stopping at
/// the first that will do.
pub(crate) fn any_army_space_after(data: &Data, pos: &Position, unit: usize, ctx: &Context, placed: &[Space]) -> bool {
    visit_army_spaces(data, pos, unit, ctx, placed, &mut |_| true)
}

/// Gives `visit` each space of [`army_spaces_after`] (in no order, a space perhaps more than
/// once) until it says stop (returns true), and says whether it did.
fn visit_army_spaces(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    placed: &[Space],
    visit: &mut dyn FnMut(Space) -> bool,
) -> bool {
    let Some(p) = data.pieces.get(unit).filter(|_| unit < pos.units.len()) else {
        return false;
    };
    let side = p.side;
    let t = tracer_of(data, unit);
    let ok = |s: Space| {
        let st = pos.space(s);
        st.control == Some(side)
            && st.fort != Fort::Besieged
            && room(pos, placed, s, ctx)
            && in_supply(data, pos, t, s, &ctx.supply)
    };
    let mut each = |s: Space| ok(s) && visit(s);
    let by_id = |id: &str| data.space(id);
    match p.nation {
        // 9.5.3.3: American armies at any Allied French port.
        Nation::Us => data.ports[side_index(Side::Ap)]
            .iter()
            .copied()
            .filter(|&s| data.facts(s).nation.as_deref() == Some("fr"))
            .any(each),
        // 17.1.5: the Belgian army at Brussels, Ostend or Antwerp; Calais only when none of the
        // three will do.
        Nation::Be => {
            let three: Vec<Space> = ["brussels", "ostend", "antwerp"]
                .iter()
                .filter_map(|id| by_id(id))
                .collect();
            if three.iter().any(|&s| ok(s)) {
                three.into_iter().any(each)
            } else {
                by_id("calais").into_iter().any(each)
            }
        }
        // 17.1.5: a Serbian army at Belgrade (not while Nis is the CP's) or, after Salonika or
        // Greece's entry, at an Allied Salonika.
        Nation::Sb => {
            if by_id("nis").is_none_or(|nis| pos.space(nis).control != Some(Side::Cp))
                && by_id("belgrade").is_some_and(&mut each)
            {
                return true;
            }
            ctx.salonika_played && by_id("salonika").is_some_and(each)
        }
        n => {
            let home = data.homes(n).iter().copied();
            // 9.5.3.3: a French army at Orleans when Paris is full, never while Paris is
            // besieged or the CP's.
            let mut orleans = None;
            if n == Nation::Fr {
                if let (Some(paris), Some(o)) = (by_id("paris"), by_id("orleans")) {
                    let st = pos.space(paris);
                    if !room(pos, placed, paris, ctx) && st.control == Some(Side::Ap) && st.fort != Fort::Besieged {
                        orleans = Some(o);
                    }
                }
            }
            home.chain(orleans).any(each)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Kind;
    use crate::game::PathsOfGlory;
    use sandtable_core::driver::Game;

    /// 9.5.3.3: at every decision of random campaigns, for every army of either side, with no
    /// army set down and with one set down in each space it may enter, whether it may enter
    /// anywhere, asked space by space, is what the list of its spaces says.
    #[test]
    fn whether_an_army_may_enter_anywhere_is_what_its_list_of_spaces_says_at_every_decision() {
        let (mut asked, mut some) = (0u64, 0u64);
        for seed in 0..3 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 300, |g: &PathsOfGlory| {
                let data = g.data();
                let ctx = crate::sequence::placement_context(g);
                for u in (0..data.pieces.len()).filter(|&u| data.pieces[u].kind == Kind::Army) {
                    let spaces = army_spaces(data, &g.pos, u, &ctx);
                    let mut placed = vec![Vec::new()];
                    placed.extend(spaces.iter().map(|&s| vec![s, s]));
                    for placed in &placed {
                        let listed = army_spaces_after(data, &g.pos, u, &ctx, placed);
                        assert_eq!(
                            any_army_space_after(data, &g.pos, u, &ctx, placed),
                            !listed.is_empty(),
                            "{} after {placed:?}",
                            data.pieces[u].id
                        );
                        asked += 1;
                        some += u64::from(!listed.is_empty());
                    }
                }
            })
            .expect("random play");
        }
        assert!(asked > 10_000 && some > 1_000, "{asked} {some}");
    }
}

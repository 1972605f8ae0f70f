//! 12.7 (seed 12.6) Advance: after a combat the attacker won, full-strength attacking units
//! may advance when every defender retreated or was eliminated (12.6.1): into the defending
//! space, and after a two-space retreat on into a space the retreating units passed through
//! (12.6.3) or as far as units eliminated after the first of two spaces reached (2022 12.7.4),
//! stopping on entering desert, forest, mountain or swamp (2022 12.7.3) or an enemy
//! fort they besiege (12.6.5, 15.1.1); never into enemy units (12.6.4); the Central Powers
//! into Amiens, Calais or Ostend only as the seed's 12.6.6 allows.

use crate::data::{Data, Nation, Side};
use crate::movement::{self, unit_step};
use crate::state::Location;
use crate::tables::Tables;
use sandtable_core::graph::Space;
use sandtable_core::search::Step;

/// How the defenders left the defending space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Vacated {
    /// Every defender was eliminated (12.6.2: the advance enters the defending space only).
    Eliminated,
    /// The defenders retreated along these `routes` (one space or two each); those that could
    /// go only the first of two spaces were eliminated in the spaces of `cut_short` (2022
    /// 12.5.4).
    Retreated {
        routes: Vec<Vec<Space>>,
        cut_short: Vec<Space>,
    },
    /// The attack was on a fort with no unit in it (2022 12.7.1: an advance only if it was
    /// destroyed).
    FortAlone { destroyed: bool },
}

/// What bears on an advance beyond the position: the rules of movement that name advances
/// (11.1.4 dashed lines, 11.1.17 the BEF, 11.3 the Near East and the Caucasus, 15.1.12,
/// 5.7.4.6), and whether Race to the Sea has opened the Channel ports (12.6.6).
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    pub movement: movement::Context<'a>,
}

/// The advance routes open to a unit from its space (one space or two), or none when it may
/// not advance. `enough_to_besiege(s)` says whether the advancing units together can besiege an
/// enemy fort in `s` (15.2.1).
#[allow(clippy::too_many_arguments)]
pub fn routes(
    data: &Data,
    tables: &Tables,
    pos: &crate::state::Position,
    unit: usize,
    defending: Space,
    vacated: &Vacated,
    ctx: &Context,
    enough_to_besiege: impl Fn(Space) -> bool,
) -> Vec<Vec<Space>> {
    let (Some(p), Some(u)) = (data.pieces.get(unit), pos.units.get(unit)) else {
        return Vec::new();
    };
    let Location::Map(from) = u.loc else {
        return Vec::new();
    };
    // 12.6.1: only full-strength units advance; 2022 12.7.1: never Montenegro's corps.
    if !u.full || p.nation == Nation::Mn || defending.idx() >= data.map.graph.len() {
        return Vec::new();
    }
    if let Vacated::FortAlone { destroyed: false } = vacated {
        return Vec::new();
    }
    // One step of the advance: whether it may be taken, and whether it stops there.
    let hop = |a: Space, b: Space, defending_space: bool| -> Option<bool> {
        let c = data.map.graph.connection(a, b)?;
        let id = data.map.graph.space(b).id.as_str();
        // 12.6.6: the Channel ports for the CP only as the defending space before Race to the
        // Sea or CP War Status 4.
        if p.side == Side::Cp
            && !defending_space
            && !ctx.movement.channel_ports_open
            && ["amiens", "calais", "ostend"].contains(&id)
        {
            return None;
        }
        match unit_step(data, pos, unit, &ctx.movement, a, c, b) {
            // 12.6.5: an enemy fort only if the advancers can besiege it, and no farther.
            Step::Blocked(w) if w == movement::FORT => enough_to_besiege(b).then_some(true),
            Step::Blocked(_) => None,
            Step::Stop(_) => Some(true),
            // 2022 12.7.3: desert, forest, mountain and swamp stop an advance.
            Step::Go(_) => Some(tables.terrain_of(data, b).advance_stops),
        }
    };
    let Some(stop) = hop(from, defending, true) else {
        return Vec::new();
    };
    let mut out = vec![vec![defending]];
    if stop {
        return out;
    }
    if let Vacated::Retreated { routes, cut_short } = vacated {
        // 12.6.3: the first of two spaces a retreat passed; 2022 12.7.4: as far as the last
        // space reached by units eliminated there.
        let mut seconds: Vec<Space> = routes
            .iter()
            .filter(|r| r.len() == 2)
            .map(|r| r[0])
            .chain(cut_short.iter().copied())
            .collect();
        seconds.sort();
        seconds.dedup();
        for s in seconds {
            if hop(defending, s, false).is_some() {
                out.push(vec![defending, s]);
            }
        }
    }
    out
}

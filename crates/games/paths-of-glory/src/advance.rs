//! 12.7 (seed 12.6) Advance: after a combat the attacker won, full-strength attacking units
//! may advance when every defender retreated or was eliminated (12.6.1): into the defending
//! space, and after a two-space retreat on into a space the retreating units passed through
//! (12.6.3), stopping on entering desert, forest, mountain or swamp (2022 12.7.3) or an enemy
//! fort they besiege (12.6.5, 15.1.1); never into enemy units (12.6.4); the Central Powers
//! into Amiens, Calais or Ostend only as the seed's 12.6.6 allows.

use crate::data::{Data, Nation, Side};
use crate::state::{Fort, Location, Position};
use crate::tables::Tables;
use sandtable_core::graph::Space;

/// How the defenders left the defending space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Vacated {
    /// Every defender was eliminated (12.6.2: the advance enters the defending space only).
    Eliminated,
    /// The defenders retreated along these routes (one space or two each).
    Retreated(Vec<Vec<Space>>),
}

/// What bears on an advance beyond the position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context {
    /// Race to the Sea played or CP War Status 4 or more (12.6.6).
    pub channel_ports_open: bool,
}

fn enemy_units(data: &Data, pos: &Position, side: Side, s: Space) -> bool {
    pos.units
        .iter()
        .zip(&data.pieces)
        .any(|(u, p)| u.loc == Location::Map(s) && p.side != side)
}

/// The advance routes open to a unit (one space or two), or none when it may not advance.
/// `enough_to_besiege(s)` says whether the advancing units can besiege an enemy fort in `s`.
#[allow(clippy::too_many_arguments)]
pub fn routes(
    data: &Data,
    tables: &Tables,
    pos: &Position,
    unit: usize,
    defending: Space,
    vacated: &Vacated,
    ctx: &Context,
    enough_to_besiege: impl Fn(Space) -> bool,
) -> Vec<Vec<Space>> {
    let p = &data.pieces[unit];
    let side = p.side;
    // 12.6.1: only full-strength units advance; 12.7.1: never Montenegro's corps.
    if !pos.units[unit].full || p.nation == Nation::Mn {
        return Vec::new();
    }
    // Whether the unit may enter a space, and whether it must stop there.
    let enter = |s: Space, defending_space: bool| -> Option<bool> {
        if enemy_units(data, pos, side, s) {
            return None;
        }
        let id = data.map.graph.space(s).id.as_str();
        if side == Side::Cp
            && !defending_space
            && !ctx.channel_ports_open
            && ["amiens", "calais", "ostend"].contains(&id)
        {
            return None;
        }
        let f = data.facts(s);
        let enemy_fort = f.fort > 0 && f.faction != side && pos.space(s).fort == Fort::Intact;
        if enemy_fort {
            // 12.6.5: only if the advancers can besiege it, and no farther.
            return enough_to_besiege(s).then_some(true);
        }
        Some(tables.terrain_of(data, s).advance_stops)
    };
    let Some(stop) = enter(defending, true) else {
        return Vec::new();
    };
    let mut out = vec![vec![defending]];
    if stop {
        return out;
    }
    if let Vacated::Retreated(routes) = vacated {
        let mut seconds: Vec<Space> = routes.iter().filter(|r| r.len() == 2).map(|r| r[0]).collect();
        seconds.sort();
        seconds.dedup();
        for s in seconds {
            if enter(s, false).is_some() {
                out.push(vec![defending, s]);
            }
        }
    }
    out
}

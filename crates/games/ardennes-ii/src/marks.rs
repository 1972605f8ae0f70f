//! The typed marks of the log ([`Mark`]): what a log line did on the map, by counter id and hex
//! id, so that a page draws moves, attacks and losses without reading the line's words.

use crate::state::{State, UnitId};
use crate::world::World;
use sandtable_core::game::Mark;
use sandtable_core::hex::Hex;

/// A counter's id (its `data-id` on the board).
pub(crate) fn unit(w: &World, u: UnitId) -> String {
    w.data.counters.units[u as usize].id.clone()
}

/// The hex a unit stands in, as its printed id.
pub(crate) fn at(w: &World, s: &State, u: UnitId) -> Option<String> {
    s.units[u as usize].hex().map(|h| w.data.hex_id(h))
}

/// Each of `units` moved (or retreated, or advanced, by `kind`) from `from` to `to`.
pub(crate) fn moved(
    w: &World,
    units: &[UnitId],
    from: Hex,
    to: Hex,
    kind: fn(String, String, String) -> Mark,
) -> Vec<Mark> {
    let (a, b) = (w.data.hex_id(from), w.data.hex_id(to));
    units.iter().map(|&u| kind(unit(w, u), a.clone(), b.clone())).collect()
}

pub(crate) fn mv(unit: String, from: String, to: String) -> Mark {
    Mark::Move {
        unit,
        from,
        to,
        path: Vec::new(),
    }
}

pub(crate) fn retreat(unit: String, from: String, to: String) -> Mark {
    Mark::Retreat {
        unit,
        from,
        to,
        path: Vec::new(),
    }
}

/// `units` attack `target` from the hexes they stand in.
pub(crate) fn attack(w: &World, s: &State, units: &[UnitId], target: Hex) -> Mark {
    let mut from: Vec<String> = Vec::new();
    for &u in units {
        if let Some(h) = at(w, s, u) {
            if !from.contains(&h) {
                from.push(h);
            }
        }
    }
    Mark::Attack {
        units: units.iter().map(|&u| unit(w, u)).collect(),
        from,
        at: w.data.hex_id(target),
    }
}

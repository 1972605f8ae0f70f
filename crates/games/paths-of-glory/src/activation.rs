//! 9.2 Operations: what it costs to activate a space for movement or combat. A space costs one
//! activation point per nationality of the combat units in it (9.2.3), counted whether or not
//! they then move or fight (9.2.4), with the book's exceptions: the British counters of every
//! kind are one nationality, Belgians count as British in the Channel ports, French and
//! Americans as one in France and Germany, the card events that join nationalities; after the
//! Fall of the Tsar a combat activation pays for every Russian unit (9.2.2, 16.4.5); an MEF army
//! supplied from its beachhead costs 3 and every other unit 1 (9.2.7.1).

use crate::data::{Nation, Piece};

/// What a space is activated for (9.2.5: one or the other, never both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Move,
    Combat,
}

/// The spaces where Belgian units may be activated as British (9.2.3).
const BELGIANS_AS_BRITISH: [&str; 4] = ["antwerp", "ostend", "calais", "amiens"];

/// What bears on a space's activation cost beyond the units in it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Where<'a> {
    /// The space's id.
    pub space: &'a str,
    /// The country it lies in (`fr`, `ge`, …), none for a beach or a box.
    pub country: Option<&'a str>,
    /// The Fall of the Tsar has been played (16.4.5).
    pub tsar_fell: bool,
    /// The MEF army here is supplied from the MEF Beachhead marker (9.2.7.1).
    pub mef_beachhead_supply: bool,
    /// Nationalities a card event lets activate as one this action (CP *Sud Army*, *11th
    /// Army*): each pair counts as its second.
    pub joined: &'a [(Nation, Nation)],
}

/// The nationality a unit is activated as (9.2.3): the British counters of every colour (AUS,
/// CND, PT, the ANA) as British, the Senussi as Turkish, Montenegro's corps as Serbian; Belgians
/// in the Channel ports as British; Americans in France or Germany as French; then any
/// card's joining.
fn activates_as(piece: &Piece, w: &Where) -> Nation {
    let mut n = piece.activation_nation();
    if n == Nation::Be && BELGIANS_AS_BRITISH.contains(&w.space) {
        n = Nation::Br;
    }
    if n == Nation::Us && matches!(w.country, Some("fr" | "ge")) {
        n = Nation::Fr;
    }
    for &(from, to) in w.joined {
        if n == from {
            n = to;
        }
    }
    n
}

/// The activation points a space costs, from the combat units in it (9.2.3, 9.2.4). A space with
/// no unit cannot be activated at all (9.2.6); this gives 0 for it.
pub fn cost(units: &[&Piece], purpose: Purpose, w: &Where) -> u8 {
    // 9.2.7.1: an MEF army supplied from its beachhead costs 3, every other unit 1.
    if w.mef_beachhead_supply && units.iter().any(|p| p.id == "br-army-mef") {
        return 3 + (units.len() as u8 - 1);
    }
    // The nationalities met, one bit each.
    let mut nations = 0u64;
    let mut russians = 0u8;
    for p in units {
        let n = activates_as(p, w);
        if n == Nation::Ru && w.tsar_fell && purpose == Purpose::Combat {
            // 16.4.5: one point per Russian unit for a combat activation.
            russians += 1;
        } else {
            nations |= 1 << (n as u32);
        }
    }
    nations.count_ones() as u8 + russians
}

//! The position: where every counter stands, who controls each space, its trench and its fort,
//! the VP and war status markers, and each side's cards. Plain data; the rules read and change
//! it.

use crate::data::{Data, Nation, Side};
use sandtable_core::graph::Space;
use serde::Serialize;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};

/// A list of the position that tells when it may have changed: it reads as a `Vec`, and each
/// time it is reached for change it takes a stamp no list had before. While its stamp is the one
/// they saw, the supply maps kept beside a game (`supply::Kept`) know it holds what they read
/// without reading it again. A clone keeps the stamp, as it keeps the items.
#[derive(Clone, Debug)]
pub struct Stamped<T> {
    items: Vec<T>,
    stamp: u64,
}

/// The next stamp, for the whole process: a list reached for change in one game never takes a
/// stamp another list already had, in that game or any other.
fn fresh_stamp() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl<T> Stamped<T> {
    /// The list's stamp: the same while nothing has reached it for change.
    pub fn stamp(&self) -> u64 {
        self.stamp
    }
}

impl<T> From<Vec<T>> for Stamped<T> {
    fn from(items: Vec<T>) -> Stamped<T> {
        Stamped {
            items,
            stamp: fresh_stamp(),
        }
    }
}

impl<T> Default for Stamped<T> {
    fn default() -> Stamped<T> {
        Stamped::from(Vec::new())
    }
}

impl<T> Deref for Stamped<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.items
    }
}

impl<T> DerefMut for Stamped<T> {
    /// Reached for change: a new stamp, whether or not anything then changes.
    fn deref_mut(&mut self) -> &mut Vec<T> {
        self.stamp = fresh_stamp();
        &mut self.items
    }
}

impl<'a, T> IntoIterator for &'a Stamped<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> std::slice::Iter<'a, T> {
        self.items.iter()
    }
}

/// A walk that may change the items: reached for change, a new stamp.
impl<'a, T> IntoIterator for &'a mut Stamped<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> std::slice::IterMut<'a, T> {
        self.iter_mut()
    }
}

/// Two lists are equal when their items are: the stamps only tell of changes.
impl<T: PartialEq> PartialEq for Stamped<T> {
    fn eq(&self, other: &Stamped<T>) -> bool {
        self.items == other.items
    }
}

impl<T: Eq> Eq for Stamped<T> {}

impl<T: Serialize> Serialize for Stamped<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.items.serialize(serializer)
    }
}

/// Where a counter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Location {
    /// Not yet in play: a reinforcement whose card has not been played, a neutral nation's unit.
    Aside,
    /// On the map, in a space.
    Map(Space),
    /// In its side's Reserve Box (corps only).
    Reserve,
    /// In the Eliminated/Replaceable box: replacement points may rebuild it (17.0).
    Eliminated,
    /// Out of the game for good (12.4.7).
    Removed,
}

/// One counter's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Unit {
    pub loc: Location,
    /// Full strength (false: reduced).
    pub full: bool,
}

/// A trench in a space: the side it belongs to and its level (11.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Trench {
    pub side: Side,
    pub level: u8,
}

/// A fort's state (15.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Fort {
    /// No fort in the space.
    None,
    Intact,
    /// Under siege by the enemy (15.2).
    Besieged,
    /// Destroyed (15.1.8: never rebuilt).
    Destroyed,
}

/// One space's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SpaceState {
    /// The side that controls it; none while its nation is neutral (11.1.11).
    pub control: Option<Side>,
    pub trench: Option<Trench>,
    pub fort: Fort,
}

/// One side's cards (9.1.2). The draw pile has no order: a draw is chance's pick among its
/// cards, so nothing about the order can leak. Cards are their printed numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Cards {
    /// The draw pile, in number order.
    pub draw: Vec<u8>,
    /// The hand, hidden from the other side.
    pub hand: Vec<u8>,
    pub discard: Vec<u8>,
    /// Out of the game (9.5.1.2, the `*` events).
    pub removed: Vec<u8>,
    /// Combat cards held face up after a won combat (9.5.4.2).
    pub face_up: Vec<u8>,
    /// The optional cards picked in secret, each with the basic card it took out of the deck
    /// (supplement 6.16, `optional_cards`). Hidden from the other side; not written
    /// unless some were picked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub picked: Vec<(u8, u8)>,
}

/// The position of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    /// Per counter, in data order.
    pub units: Stamped<Unit>,
    /// Per space, in map order.
    pub spaces: Stamped<SpaceState>,
    /// The VP marker (10 at start; may pass 0 or 20 within a turn, 5.1.2).
    pub vp: i32,
    /// Each side's War Status, indexed by [`side_index`].
    pub war_status: [u8; 2],
    pub turn: u8,
    /// The countries not yet at war (their codes): Italy, Bulgaria, Romania, Greece, Turkey and
    /// the lands that go with Turkey at the start (9.5.2, 16.1.3.1).
    pub neutral: Vec<String>,
    /// Each side's cards, indexed by [`side_index`].
    pub cards: [Cards; 2],
    // Events of the war at large (events::war).
    /// The markers of the US and Russian tracks that the events leave (16.3, 16.4). Left out of
    /// the state's checksum while empty, so that the records of games begun before it replay.
    #[serde(skip_serializing_if = "crate::war_status::WarMarkers::is_empty")]
    pub war: crate::war_status::WarMarkers,
    // Events that place units or markers (crate::events::arrivals) and trenches (11.2):
    /// The MEF beach holding the MEF Beachhead marker (9.5.3.5), if any. Not written while
    /// unset (the checksum of a game that never had one is what it was).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beachhead: Option<Space>,
    /// The units whose last digging roll failed (2022 11.2.10, the Historical scenario's
    /// 5.7.4.2): −1 to their next attempt.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dig_failed: Vec<u16>,
    /// The Near East armies that entered as ordinary reinforcements, at a capital or supply
    /// source of their nation (9.5.3.4): they have lost their Near East abilities. Not written
    /// while empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ordinary_near_east: Vec<u16>,
}

/// The index of a side in a `[_; 2]` of the position (Central Powers first: they act first).
pub fn side_index(side: Side) -> usize {
    match side {
        Side::Cp => 0,
        Side::Ap => 1,
    }
}

impl Position {
    /// Whether the counter may go on the Near East map (11.3.1): a corps, or one of the armies
    /// printed for it that did not enter as an ordinary reinforcement (9.5.3.4).
    pub fn may_enter_near_east(&self, data: &crate::data::Data, unit: usize) -> bool {
        let p = &data.pieces[unit];
        p.kind != crate::data::Kind::Army || (p.near_east && !self.ordinary_near_east.contains(&(unit as u16)))
    }

    /// The counters in a space, in data order.
    pub fn units_in(&self, s: Space) -> impl Iterator<Item = usize> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.loc == Location::Map(s))
            .map(|(i, _)| i)
    }

    /// The Combined War Status (16.2): both sides' together.
    pub fn combined_war_status(&self) -> u8 {
        self.war_status[0].saturating_add(self.war_status[1])
    }

    /// 9.5.2.4: whether unit `u` is one of the Greek corps Salonika sets up, while Greece stays
    /// neutral (the only units of a neutral nation the rules put on the map).
    pub fn neutral_unit(&self, data: &Data, u: usize) -> bool {
        data.pieces.get(u).is_some_and(|p| p.nation == Nation::Gr) && self.neutral.iter().any(|n| n == "gr")
    }

    /// Whether a space lies in a country not yet at war.
    pub fn in_neutral_country(&self, data: &Data, s: Space) -> bool {
        data.facts(s).nation.as_ref().is_some_and(|n| self.neutral.contains(n))
    }

    /// Whether a side holds all its nation's capitals on the map, none of them besieged
    /// (13.1.10/2022 13.1.11, 17.1.3: Austria-Hungary both Vienna and Budapest). A nation with no
    /// capital on the map (Russia, the United States) always does; Belgium and Serbia are exempt
    /// from both rules and always do.
    pub fn holds_capital(&self, data: &Data, nation: Nation, side: Side) -> bool {
        if matches!(nation, Nation::Be | Nation::Sb) {
            return true;
        }
        data.capitals_of(nation).iter().all(|&c| {
            let st = self.space(c);
            st.control == Some(side) && st.fort != Fort::Besieged
        })
    }

    /// 14.1.4, 13.1.7: whether a space is a port a side may use by sea: its own and not
    /// besieged; for the CP the ports of Germany and Russia, for the Allies the others
    /// (Constantinople only while Gallipoli is Allied).
    pub fn sea_port(&self, data: &Data, side: Side, s: Space) -> bool {
        let f = data.facts(s);
        let st = self.space(s);
        if st.control != Some(side) || st.fort == Fort::Besieged {
            return false;
        }
        match side {
            Side::Cp => f.port_cp,
            Side::Ap => {
                f.port_ap
                    && (data.map.graph.space(s).id != "constantinople"
                        || data
                            .space("gallipoli")
                            .is_some_and(|g| self.space(g).control == Some(Side::Ap)))
            }
        }
    }

    /// The state of a space.
    pub fn space(&self, s: Space) -> &SpaceState {
        &self.spaces[s.idx()]
    }

    /// The spaces holding more than three units (10.1.1), each said in words; empty when none
    /// does. The holding boxes have no limit.
    pub fn faults(&self, data: &Data) -> Vec<String> {
        let mut out = Vec::new();
        for s in data.map.graph.space_indices() {
            let n = self.units_in(s).count();
            if n > 3 && !data.facts(s).is_box {
                out.push(format!(
                    "{} holds {n} units (10.1.1: at most 3)",
                    data.map.graph.space(s).id
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list's stamp stays while it is only read or cloned, and moves whenever it is reached
    /// for change: an index written, a walk that may write, a push.
    #[test]
    fn a_list_takes_a_new_stamp_whenever_it_is_reached_for_change() {
        let mut units: Stamped<Unit> = vec![
            Unit {
                loc: Location::Aside,
                full: true,
            };
            3
        ]
        .into();
        let first = units.stamp();
        let read: usize = units.iter().filter(|u| u.full).count() + units.len();
        let clone = units.clone();
        assert_eq!((read, units.stamp(), clone.stamp()), (6, first, first));
        units[1].loc = Location::Reserve;
        let second = units.stamp();
        assert_ne!(second, first);
        assert_ne!(units, clone, "equal by their items only");
        for u in &mut units {
            u.full = false;
        }
        let third = units.stamp();
        assert!(third != second && third != first);
        units.push(Unit {
            loc: Location::Removed,
            full: false,
        });
        assert!(units.stamp() != third);
        // Another list never takes a stamp one had: a clone changed apart from its original.
        let mut other = clone.clone();
        other[0].full = false;
        assert!(![first, second, third, units.stamp()].contains(&other.stamp()));
    }
}

//! 11.2 Trenches: once a side has played Entrench, an army in a space activated for movement
//! may dig instead of moving (11.2.1); after movement a die per space: a roll no higher than the
//! army's LF places a level-1 trench or raises a level-1 to level 2 (11.2.2, 11.2.3). A trench
//! stays until an enemy unit enters: a level 1 is removed, a level 2 becomes the enemy's
//! level 1 (11.2.4–11.2.6).

use crate::data::Side;
use crate::state::Trench;

/// 11.2.2, 11.2.3: the trench after a digging roll of `die` (modified by `drm`, the optional
/// 11.2.9/2022 11.2.10 −1) by an army of loss factor `lf` of `side` in a space holding
/// `trench`. A failed roll changes nothing; a side digs only where no enemy trench is.
pub fn dig(trench: Option<Trench>, side: Side, lf: u8, die: u8, drm: i32) -> Option<Trench> {
    let success = die as i32 + drm <= lf as i32;
    match trench {
        _ if !success => trench,
        None => Some(Trench { side, level: 1 }),
        Some(Trench { side: s, level: 1 }) if s == side => Some(Trench { side, level: 2 }),
        other => other,
    }
}

/// 11.2.4–11.2.6: the trench once a unit of `entering` comes into the space: a level-1 enemy
/// trench is removed, a level-2 one becomes the entering side's level 1; its own stays.
pub fn entered(trench: Option<Trench>, entering: Side) -> Option<Trench> {
    match trench {
        Some(Trench { side, level: 2 }) if side != entering => Some(Trench {
            side: entering,
            level: 1,
        }),
        Some(Trench { side, .. }) if side != entering => None,
        kept => kept,
    }
}

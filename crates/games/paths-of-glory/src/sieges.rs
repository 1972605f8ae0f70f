//! 15.2, 15.3 Sieges: what it takes to besiege an enemy fort and keep the siege, and the
//! surrender roll of the Siege Phase.

use crate::tables::Tables;

/// 15.2.1: enough to besiege a fort of `fort_lf`: one army (any strength), or as many corps (any
/// strength) as its LF. The same holds for keeping a siege (15.2.4).
pub fn enough_to_besiege(armies: usize, corps: usize, fort_lf: u8) -> bool {
    armies >= 1 || corps >= fort_lf as usize
}

/// 15.3.2, 15.3.3: whether a besieged fort falls in the Siege Phase: the die, modified by the
/// turn's siege modifier (−2 in August and September 1914), above the fort's LF.
pub fn falls(tables: &Tables, turn: u8, fort_lf: u8, die: u8) -> bool {
    let drm = tables.turn(turn).map_or(0, |t| t.siege_drm as i32);
    die as i32 + drm > fort_lf as i32
}

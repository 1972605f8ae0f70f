//! 15.2, 15.3 Sieges: what it takes to besiege an enemy fort and keep the siege, and the
//! surrender roll of the Siege Phase.

use crate::game::PathsOfGlory;
use crate::state::Fort;
use crate::tables::Tables;
use sandtable_core::text::Text;

/// 15.2.1: enough to besiege a fort of `fort_lf`: one army (any strength), or as many corps (any
/// strength) as its LF. The same holds for keeping a siege (15.2.4).
pub fn enough_to_besiege(armies: usize, corps: usize, fort_lf: u8) -> bool {
    armies >= 1 || corps >= fort_lf as usize
}

/// 15.2.1 for some counters (indices into the data's pieces): whether they could besiege, or
/// keep besieging (15.2.4), a fort of `fort_lf`.
pub(crate) fn units_besiege(data: &crate::data::Data, units: impl IntoIterator<Item = usize>, fort_lf: u8) -> bool {
    let (armies, corps) = units.into_iter().fold((0, 0), |(a, c), u| {
        if data.pieces[u].kind == crate::data::Kind::Army {
            (a + 1, c)
        } else {
            (a, c + 1)
        }
    });
    enough_to_besiege(armies, corps, fort_lf)
}

/// 15.3.2, 15.3.3: whether a besieged fort falls in the Siege Phase: the die, modified by the
/// turn's siege modifier (−2 in August and September 1914), above the fort's LF.
pub fn falls(tables: &Tables, turn: u8, fort_lf: u8, die: u8) -> bool {
    let drm = tables.turn(turn).map_or(0, |t| t.siege_drm as i32);
    die as i32 + drm > fort_lf as i32
}

/// 15.2.4 (2022) "Units may leave a besieged fort's space only if, at round end, the fort is
/// either still besieged or no longer shares its space with friendly units": a siege whose
/// besiegers have all gone (moved, redeployed, retreated or eliminated) ends at once, and the
/// fort stands unbesieged again. (Run after every step of the game.)
pub(crate) fn lift_abandoned(g: &mut PathsOfGlory) {
    let data = g.data();
    for &s in &data.forts {
        let st = g.pos.spaces[s.idx()];
        if st.fort != Fort::Besieged || g.occupant(s).is_some_and(|side| Some(side) != st.control) {
            continue;
        }
        let i = s.idx();
        g.pos.spaces[i].fort = Fort::Intact;
        let n = g.name(s);
        g.journal.say(|| {
            Text::new(
                format!("The siege of {} ends: no besieger is left in it (15.2.4)", n.en),
                format!("{}的围城结束:已无围城部队(15.2.4)", n.zh),
            )
        });
    }
}

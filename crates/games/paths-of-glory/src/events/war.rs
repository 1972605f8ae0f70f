//! Events of the war at large: the VP and the economy (blockade, fleets, air raids), the entry
//! of the United States, the collapse of Russia, peace terms and the War Status events.

use crate::data::Side;
use crate::game::PathsOfGlory;
use sandtable_core::game::Refusal;
use sandtable_core::text::Text;

/// Whether one of this module's events may be played now, and why not; `None` for another card.
pub(super) fn check(_g: &PathsOfGlory, _side: Side, _card: u8) -> Option<Result<(), Refusal>> {
    None
}

/// Carries out one of this module's events; `false` for another card.
pub(super) fn carry_out(_g: &mut PathsOfGlory, _side: Side, _card: u8) -> bool {
    false
}

/// Our short text of one of this module's events, in both languages.
pub(super) fn text(_side: Side, _card: u8) -> Option<Text> {
    None
}

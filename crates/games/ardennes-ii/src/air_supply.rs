//! Air Supply (2.2, 3.7): in the pre-turn the US may turn air strikes into Air Supply markers,
//! each a supply source for US units within 5 hexes until the end of the US player turn.
//! Offered on the hexes of US units (RULINGS, A20).

use crate::sequence::{Phase, Side};
use crate::{Action, ArdennesII};
use sandtable_core::game::Refusal;
use sandtable_core::hex::Hex;
use sandtable_core::text;

impl ArdennesII {
    /// 2.2: the hexes an Air Supply marker may go on now: US units' hexes without one.
    fn air_supply_hexes(&self) -> Vec<Hex> {
        if self.s.air_strikes == 0 {
            return Vec::new();
        }
        let mut hexes: Vec<Hex> = self
            .units_of(Side::Allied)
            .filter_map(|u| self.s.units[u as usize].hex())
            .filter(|h| !self.s.air_supply.contains(h))
            .collect();
        hexes.sort();
        hexes.dedup();
        hexes
    }

    pub(crate) fn legal_air_supply(&self, out: &mut Vec<Action>) {
        out.extend(self.air_supply_hexes().into_iter().map(|hex| Action::AirSupply { hex }));
    }

    /// 2.2, 3.7: whether an Air Supply marker may go on `hex` now.
    pub(crate) fn may_air_supply(&self, hex: Hex) -> Result<(), Refusal> {
        if self.s.phase != Phase::AirSupply {
            return Err(Refusal::new(
                "2.2",
                text!(
                    "Air Supply is placed in the Air Supply phase, on a hex of US units, one air strike each",
                    "空中补给在空中补给阶段放置于美军单位所在格,每个消耗一次空袭"
                ),
            ));
        }
        if self.s.air_strikes == 0 {
            return Err(Refusal::new(
                "2.2",
                text!(
                    "each Air Supply marker costs an air strike, and none is left this turn",
                    "每个空中补给标记消耗一次空袭,本回合已无空袭"
                ),
            ));
        }
        if !self.air_supply_hexes().contains(&hex) {
            return Err(Refusal::new(
                "2.2",
                text!(
                    "an Air Supply marker goes on a hex of US units that has none yet",
                    "空中补给标记须放在尚无该标记的美军单位所在格"
                ),
            ));
        }
        Ok(())
    }

    /// One air strike becomes an Air Supply marker at `hex`.
    pub(crate) fn air_supply(&mut self, hex: Hex) {
        self.s.air_strikes = self.s.air_strikes.saturating_sub(1);
        self.s.air_supply.push(hex);
        let hid = self.w.data.hex_id(hex);
        self.journal
            .say(|| text!("2.2: an Air Supply marker at {hid}.", "2.2:在 {hid} 放置空中补给标记。"));
    }
}

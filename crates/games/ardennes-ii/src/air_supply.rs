//! Air Supply (2.2, 3.7): in the pre-turn the US may turn air strikes into Air Supply markers,
//! each a supply source for US units within 5 hexes until the end of the US player turn.
//! 2.2 "放置在地图上任何格内": offered on any hex of the playing area without one.

use crate::sequence::Phase;
use crate::{Action, ArdennesII};
use sandtable_core::game::Refusal;
use sandtable_core::hex::Hex;
use sandtable_core::text;

impl ArdennesII {
    /// 2.2 "放置在地图上任何格内": the hexes an Air Supply marker may go on now: any hex of the
    /// playing area without one (a second marker in a hex would add nothing).
    fn air_supply_hexes(&self) -> Vec<Hex> {
        if self.s.air_strikes == 0 {
            return Vec::new();
        }
        let grid = &self.w.map.grid;
        grid.hexes()
            .filter(|&h| self.scenario.in_area(grid, h) && !self.s.air_supply.contains(&h))
            .collect()
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
                    "Air Supply is placed in the Air Supply phase, on any hex, one air strike each",
                    "空中补给在空中补给阶段放置于任何格,每个消耗一次空袭"
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
                    "an Air Supply marker goes on a hex of the playing area that has none yet",
                    "空中补给标记须放在游戏区域内尚无该标记的格"
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

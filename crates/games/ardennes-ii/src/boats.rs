//! The 2nd Panzer Division's rubber boats (4.2): on the turns the turn track marks, its
//! mechanized infantry next to the Our when the phase began may cross it, ignoring the
//! prohibition, for all its MP, and loses DG. "Next to the river when the phase began" is
//! read as: it has spent no MP yet this phase (RULINGS).

use crate::rules::Board;
use crate::sequence::Side;
use crate::state::{Loc, UnitId};
use crate::{Action, ArdennesII};
use sandtable_core::game::Refusal;
use sandtable_core::hex::Hex;
use sandtable_core::text;
use sandtable_core::text::Text;

impl ArdennesII {
    /// 4.2: whether boats cross the Our on this turn.
    fn boat_turn(&self) -> bool {
        self.w
            .data
            .tables
            .turns
            .iter()
            .any(|t| t.turn == self.s.turn && t.our_boats)
    }

    /// 4.2: whether unit `u` (a valid id) is one that may cross in boats now.
    fn boat_unit(&self, u: UnitId) -> bool {
        let def = &self.w.data.counters.units[u as usize];
        let st = &self.s.units[u as usize];
        def.side == Side::German
            // 4.2 "机械化 MA 步兵单位": infantry of 1.2's list (any motorisation) with a
            // mechanized MA, whatever its type word (Holtmeyer and von Cochenhausen are
            // "Inf KG" with a black MA).
            && def.is_bond_infantry()
            && def.is_mech()
            && st.hex().is_some()
            && st.spent == 0
            && !st.stopped
            // The division's name looked up last, for the few units that pass the rest.
            && def.formation.is_some()
            && def.formation == self.w.data.counters.formation_index("ger-2pz")
    }

    /// The hexes across the Our from `u` without enemy units.
    fn boat_landings(&self, b: &Board, u: UnitId) -> Vec<Hex> {
        let Some(h) = self.s.units[u as usize].hex() else {
            return Vec::new();
        };
        self.w
            .map
            .grid
            .neighbours(h)
            .filter(|&(d, n)| self.w.our[h.idx()][d as usize] && !b.enemy_in(Side::German, n))
            .map(|(_, n)| n)
            .collect()
    }

    /// 4.2: the crossings in boats `side` may make now (in its movement phase).
    pub(crate) fn legal_boats(&self, side: Side, out: &mut Vec<Action>) {
        if side != Side::German || !self.boat_turn() {
            return;
        }
        let b = Board::new(&self.w, &self.s);
        for u in self.units_of(side) {
            if self.boat_unit(u) {
                out.extend(
                    self.boat_landings(&b, u)
                        .into_iter()
                        .map(|to| Action::Boats { unit: u, to }),
                );
            }
        }
    }

    /// 4.2: whether `unit` may cross the Our to `to` in boats now (in a movement phase of
    /// `side`).
    pub(crate) fn may_boat(&self, unit: UnitId, to: Hex, side: Side) -> Result<(), Refusal> {
        self.known_unit(unit)?;
        self.known_hex(to)?;
        let no = || {
            Err(Refusal::new(
                "4.2",
                text!(
                    "only 2nd Panzer Division infantry with a mechanized MA that has not moved may cross the Our in boats, on turns 1–2, into a hex without enemy units",
                    "只有尚未移动的第 2 装甲师机械化 MA 步兵单位可在第 1–2 回合乘橡皮艇渡过乌尔河,进入没有敌军单位的格"
                ),
            ))
        };
        if side != Side::German || !self.boat_turn() || !self.boat_unit(unit) {
            return no();
        }
        if !self.boat_landings(&Board::new(&self.w, &self.s), unit).contains(&to) {
            return no();
        }
        Ok(())
    }

    /// 4.2: `unit` crosses the Our to `to` (checked), with all its MP, and loses DG.
    pub(crate) fn boats(&mut self, unit: UnitId, to: Hex) {
        let allowance = Board::new(&self.w, &self.s).allowance(unit) as u16;
        let before = self.holder(to);
        let from = self.s.units[unit as usize].hex();
        self.s.set_loc(unit, Loc::Map(to));
        let st = &mut self.s.units[unit as usize];
        st.spent = allowance.max(1);
        st.moved = true;
        st.dg = false;
        let name = self.unit_text(unit);
        self.journal.say_marked(
            || {
                Text::new(
                    format!("4.2: {} crosses the Our in rubber boats.", name.en),
                    format!("4.2:{}乘橡皮艇渡过乌尔河。", name.zh),
                )
            },
            || {
                from.map(|from| crate::marks::moved(&self.w, &[unit], from, to, crate::marks::mv))
                    .unwrap_or_default()
            },
        );
        self.occupy(to, before);
    }
}

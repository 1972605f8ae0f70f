//! Victory (15.0): victory points for the VP hexes the Axis holds with a line of
//! communication, less those lost for units removed; the Axis wins at 85 at the end of a
//! turn, the Soviets if it has not by the end of turn 9.

use crate::data::Side;
use crate::rules::Board;
use crate::StalingradBlitz;
use sandtable_core::game::Outcome;
use sandtable_core::hex::Hex;
use sandtable_core::search::with_thread_search as with_search;
use sandtable_core::text;
use sandtable_core::text::Text;

impl StalingradBlitz {
    /// 15.0(1)–(2): 10 VP per VP hex the Axis controls and can trace a LOC to, less the VP
    /// lost for units removed by combat and supply.
    pub(crate) fn victory_points(&self) -> i32 {
        let held = self.vp_hexes_held().0.len();
        10 * held as i32 - self.s.loss_vp as i32
    }

    /// The VP hexes the Axis controls: those it can trace a LOC to, and those it cannot.
    pub fn vp_hexes_held(&self) -> (Vec<Hex>, Vec<Hex>) {
        let b = Board::new(&self.d, &self.s);
        let reach = with_search(|s| b.loc_reach(Side::Axis, s));
        self.d
            .vp_hexes
            .iter()
            .filter(|h| self.s.control[h.idx()] == Some(Side::Axis))
            .partition(|h| reach[h.idx()])
    }

    /// 15.0(1): the log's account of the VP hexes at a turn's end.
    pub(crate) fn tell_vp_hexes(&mut self) {
        if self.journal.off {
            return;
        }
        let (with, without) = self.vp_hexes_held();
        let names = |list: &[Hex], zh: bool| -> String {
            list.iter()
                .map(|&h| match self.d.map.place(h) {
                    Some(p) if zh => p.name_zh.clone(),
                    Some(p) => p.name_en.clone(),
                    None => self.d.map.grid.id(h).0,
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (a, b, c, e) = (
            names(&with, false),
            names(&with, true),
            names(&without, false),
            names(&without, true),
        );
        let loss = self.s.loss_vp;
        self.journal.say(|| {
            text!(
                "15.0(1): VP hexes held with a LOC: {a}; held but cut off: {c}; VP lost for units: {loss}.",
                "15.0(1):有连络线的VP格:{b};被切断的:{e};单位损失VP:{loss}。"
            )
        });
    }

    /// 15.0(3)–(4): who won, once the game is over.
    pub(crate) fn outcome_now(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let winner = self.s.winner;
        let text = match winner {
            Some(Side::Axis) => Text::new(
                format!("The Axis wins with {} VP (15.0(3)).", self.s.vp),
                format!("轴心国军以 {} VP 获胜(15.0(3))。", self.s.vp),
            ),
            Some(Side::Soviet) => Text::new(
                format!(
                    "The Soviet player wins: the Axis ended turn 9 with {} VP, short of 85 (15.0(4)).",
                    self.s.vp
                ),
                format!("苏军获胜:第9回合结束时轴心国军只有 {} VP,未达85(15.0(4))。", self.s.vp),
            ),
            None => Text::new("Drawn.", "平局。"),
        };
        Some(Outcome {
            winner: winner.map(Side::seat),
            text,
        })
    }
}

//! Blowing bridges (3.8, US only): a primed bridge — a demolition symbol without a Blown or
//! Tested marker — may be tried once a game, at any moment, while a US unit is within 2 hexes
//! of the symbol (that unit stops for the rest of the phase) and no German unit holds a hex of
//! the bridge; a German unit in the symbol's hex marks it Tested for good. One die on the
//! Bridge Demolition Table. "At any moment" is played as (RULINGS): before each German movement
//! phase, at any decision of the US movement and US barrage phases, and as a German unit
//! reaches a hex that would end the chance (a hex of the bridge, or the symbol's hex) in the
//! middle of its move, which goes on afterwards.

use crate::frames::{Frame, Roll};
use crate::rules::Board;
use crate::sequence::{Phase, Side};
use crate::state::UnitId;
use crate::{Action, ArdennesII};
use sandtable_core::game::Refusal;
use sandtable_core::hex::Hex;
use sandtable_core::text;
use sandtable_core::text::Text;

/// Why a demolition symbol cannot be tried now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unprimed {
    Blown,
    Tested,
    /// A German unit holds a hex of its bridges or the symbol's hex.
    GermanHeld,
    /// No US unit is within range of the symbol.
    NoUsUnit,
}

impl ArdennesII {
    /// 3.8: the US units that may make the attempt at demolition symbol `i` (those within
    /// range; those that can no longer move this phase first, then in counter order), or why
    /// none can.
    pub(crate) fn demolishers(&self, b: &Board, i: usize) -> Result<Vec<UnitId>, Unprimed> {
        self.demolisher(b, i)?;
        let symbol = self.w.demolitions[i].0;
        let range = self.w.data.tables.bridge_us_unit_range as u32;
        let mut v: Vec<UnitId> = self
            .units_of(Side::Allied)
            .filter(|&u| {
                self.s.units[u as usize]
                    .hex()
                    .is_some_and(|h| self.w.map.grid.distance(h, symbol) <= range)
            })
            .collect();
        v.sort_by_key(|&u| {
            let st = &self.s.units[u as usize];
            (!(st.moved || st.fired || st.observed || st.stopped), u)
        });
        Ok(v)
    }

    /// 3.8: a US unit that may make an attempt at demolition symbol `i` (the first found
    /// within range), or why none can.
    pub(crate) fn demolisher(&self, b: &Board, i: usize) -> Result<UnitId, Unprimed> {
        self.primed(b, i)?;
        let symbol = self.w.demolitions[i].0;
        let range = self.w.data.tables.bridge_us_unit_range as u32;
        self.units_of(Side::Allied)
            .find(|&u| {
                self.s.units[u as usize]
                    .hex()
                    .is_some_and(|h| self.w.map.grid.distance(h, symbol) <= range)
            })
            .ok_or(Unprimed::NoUsUnit)
    }

    /// 3.8: whether the bridges of demolition symbol `i` may still be tried, US units apart:
    /// not blown, not tried already, no German unit in the symbol's hex or at either end of
    /// its bridges.
    fn primed(&self, b: &Board, i: usize) -> Result<(), Unprimed> {
        let (symbol, pairs) = &self.w.demolitions[i];
        if self.s.blown.contains(symbol) {
            return Err(Unprimed::Blown);
        }
        if self.s.tested.contains(symbol) {
            return Err(Unprimed::Tested);
        }
        if pairs
            .iter()
            .any(|&(x, y)| b.side_at(x) == Some(Side::German) || b.side_at(y) == Some(Side::German))
            || b.side_at(*symbol) == Some(Side::German)
        {
            return Err(Unprimed::GermanHeld);
        }
        Ok(())
    }

    /// The demolition attempts the US may make now: where [`Self::demolisher`] finds a unit,
    /// the hexes the US units hold (as the layout keeps them) looked up for every symbol.
    pub(crate) fn legal_demolitions(&self, out: &mut Vec<Action>) {
        let b = Board::new(&self.w, &self.s);
        for (i, &(symbol, _)) in self.w.demolitions.iter().enumerate() {
            // A US unit within range: a hex near the symbol held by the US.
            let near = || {
                self.w.demolition_range[i]
                    .iter()
                    .any(|&h| b.side_at(h) == Some(Side::Allied))
            };
            if cfg!(test) && self.primed(&b, i).is_ok() {
                let range = self.w.data.tables.bridge_us_unit_range as u32;
                let grid = &self.w.map.grid;
                let us = b
                    .held_by(Side::Allied)
                    .iter()
                    .any(|&h| grid.distance(h, symbol) <= range);
                assert_eq!(near(), us, "a US unit within range of the symbol at {symbol:?}");
            }
            if self.primed(&b, i).is_ok() && near() {
                out.push(Action::Demolish { symbol });
            }
        }
    }

    /// 3.8: whether the US may try the bridges of `symbol` now (in a phase or a moment that
    /// allows it, checked by the caller).
    pub(crate) fn may_demolish(&self, symbol: Hex) -> Result<(), Refusal> {
        self.known_hex(symbol)?;
        let hid = self.w.data.hex_id(symbol);
        let Some(i) = self.w.demolitions.iter().position(|(h, _)| *h == symbol) else {
            return Err(Refusal::new(
                "3.8",
                text!("there is no demolition symbol at {hid}", "{hid} 没有炸药标志"),
            ));
        };
        let b = Board::new(&self.w, &self.s);
        let why = match self.demolisher(&b, i) {
            Ok(_) => return Ok(()),
            Err(Unprimed::Blown) => text!("the bridges at {hid} are blown already", "{hid} 的桥梁已被炸毁"),
            Err(Unprimed::Tested) => text!(
                "the bridges at {hid} were tried already (Tested): each is tried once a game",
                "{hid} 的桥梁已尝试过(已测试):每座桥每局只能尝试一次"
            ),
            Err(Unprimed::GermanHeld) => text!(
                "a German unit holds a hex of the bridges at {hid}",
                "德军单位占据 {hid} 桥梁所在的格"
            ),
            Err(Unprimed::NoUsUnit) => {
                let range = self.w.data.tables.bridge_us_unit_range;
                text!(
                    "no US unit is within {range} hexes of the demolition symbol at {hid}",
                    "{hid} 的炸药标志 {range} 格内没有美军单位"
                )
            }
        };
        Err(Refusal::new("3.8", why))
    }

    /// 3.8: refused outside the moments the US may blow bridges.
    pub(crate) fn no_demolition_now(&self) -> Refusal {
        Refusal::new(
            "3.8",
            text!(
                "the US tries to blow bridges in its movement and barrage phases, before German movement, and as a German unit reaches a primed bridge",
                "美军可在其移动阶段和射击阶段、德军移动之前,以及德军单位到达准备爆破的桥梁时尝试炸桥"
            ),
        )
    }

    /// Whether the US may try to blow bridges at a decision of `phase`.
    pub(crate) fn demolitions_in(phase: Phase) -> bool {
        matches!(phase, Phase::Movement(Side::Allied) | Phase::UsBarrage)
    }

    /// The US tries the bridges of `symbol` (checked): a US unit within range stops for the
    /// rest of the phase (3.8) — the only one, or the one the US player chooses (on data
    /// editions 1 and 2, the first found) —, then the die.
    pub(crate) fn demolish(&mut self, symbol: Hex) {
        let b = Board::new(&self.w, &self.s);
        let i = self.w.demolitions.iter().position(|(h, _)| *h == symbol);
        let candidates = if self.edition < 3 {
            // Data editions 1 and 2: the first US unit found within range (RULINGS).
            i.and_then(|i| self.demolisher(&b, i).ok()).into_iter().collect()
        } else {
            i.and_then(|i| self.demolishers(&b, i).ok()).unwrap_or_default()
        };
        drop(b);
        match candidates.as_slice() {
            [_, _, ..] => self.engine.push(Frame::Demolisher { symbol, candidates }),
            _ => self.attempt(symbol, candidates.first().copied()),
        }
    }

    /// 3.8: whether `unit` may make the attempt awaiting its US unit.
    pub(crate) fn may_attempt(&self, candidates: &[UnitId], unit: UnitId) -> Result<(), Refusal> {
        self.known_unit(unit)?;
        if candidates.contains(&unit) {
            return Ok(());
        }
        let range = self.w.data.tables.bridge_us_unit_range;
        Err(Refusal::new(
            "3.8",
            text!(
                "the attempt is made by a US unit within {range} hexes of the demolition symbol",
                "炸桥须由炸药标志 {range} 格内的美军单位进行"
            ),
        ))
    }

    /// 3.8: `unit` (checked) makes the attempt at `symbol` and stops for the rest of the
    /// phase; then the die.
    pub(crate) fn attempt(&mut self, symbol: Hex, unit: Option<UnitId>) {
        if let Some(u) = unit {
            self.s.units[u as usize].stopped = true;
        }
        self.engine.push(Frame::Roll(Roll::Demolition { symbol }));
    }

    /// 3.8: the Bridge Demolition Table: Blown or Tested.
    pub(crate) fn demolition_roll(&mut self, symbol: Hex, die: u8) {
        let hid = self.w.data.hex_id(symbol);
        if self.w.data.tables.bridge_demolition.roll(die as i32) == crate::data::tables::Demolition::Blown {
            self.s.blown.push(symbol);
            self.journal.say(|| {
                text!(
                    "3.8: demolition at {hid}, die {die}: bridge blown.",
                    "3.8:{hid} 炸桥,骰 {die}:桥梁被炸毁。"
                )
            });
        } else {
            self.s.tested.push(symbol);
            self.journal.say(|| {
                text!(
                    "3.8: demolition at {hid}, die {die}: failed (tested).",
                    "3.8:{hid} 炸桥,骰 {die}:失败(已测试)。"
                )
            });
        }
    }

    /// 3.8: the primed bridges a German unit about to enter `next` would end the chance to
    /// blow (`next` is a hex of the bridge, or its symbol's hex), which the US has not yet been
    /// offered for this unit this phase, by index.
    pub(crate) fn primed_ahead(&self, unit: UnitId, next: Hex) -> Vec<u16> {
        if self.unit_side(unit) != Side::German {
            return Vec::new();
        }
        let touching: Vec<usize> = (0..self.w.demolitions.len())
            .filter(|&i| {
                let (symbol, pairs) = &self.w.demolitions[i];
                (*symbol == next || pairs.iter().any(|&(x, y)| x == next || y == next))
                    && !self.s.approached.contains(&(unit, i as u16))
            })
            .collect();
        if touching.is_empty() {
            return Vec::new();
        }
        let b = Board::new(&self.w, &self.s);
        touching
            .into_iter()
            .filter(|&i| self.demolisher(&b, i).is_ok())
            .map(|i| i as u16)
            .collect()
    }

    /// 3.8: German unit `unit` at `at` reaches primed bridges: the US may blow them now, once
    /// for this unit and bridge this phase.
    pub(crate) fn bridge_ahead(&mut self, unit: UnitId, at: Hex, primed: &[u16]) {
        self.s.approached.extend(primed.iter().map(|&i| (unit, i)));
        let Some(&first) = primed.first() else { return };
        if self.journal.off {
            return;
        }
        let name = self.unit_text(unit);
        let at = self.w.data.hex_id(at);
        let bridge = self.w.data.hex_id(self.w.demolitions[first as usize].0);
        self.journal.say(|| {
            Text::new(
                format!(
                    "3.8: {} reaches {at} before the bridge of {bridge}: the US may blow it now.",
                    name.en
                ),
                format!("3.8:{}到达 {bridge} 的桥梁前的 {at}:美军现在可以尝试炸桥。", name.zh),
            )
        });
    }

    /// 3.8: a demolition symbol hex the Germans occupy is marked Tested for good.
    pub(crate) fn mark_captured_bridges(&mut self) {
        let b = Board::new(&self.w, &self.s);
        let captured: Vec<Hex> = self
            .w
            .demolitions
            .iter()
            .map(|(symbol, _)| *symbol)
            .filter(|h| b.side_at(*h) == Some(Side::German) && !self.s.blown.contains(h) && !self.s.tested.contains(h))
            .collect();
        drop(b);
        self.s.tested.extend(captured);
    }
}

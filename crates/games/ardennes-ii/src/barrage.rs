//! Barrage (3.5) and US air strikes (2.2): who may fire, at which hexes (any hex of the
//! playing area in range that an observer within 2 hexes watches — for divisional artillery
//! one of its own division; air strikes need no observer), the die and its modifiers, the Full
//! and Half markers placed, and the reconciliation of Half markers at the end of the phase.

use crate::frames::{Frame, Roll};
use crate::rules::Board;
use crate::sequence::Side;
use crate::state::{Markers, UnitId};
use crate::{Action, ArdennesII};
use sandtable_core::game::Refusal;
use sandtable_core::hex::Hex;
use sandtable_core::text;
use sandtable_core::text::Text;
use std::sync::Arc;

/// Why an air strike may not fall on a hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StrikeBar {
    /// Struck without an observer this phase already (3.5).
    StruckAlready,
}

/// The hexes of the observers among `posts` (of division `division` only, if given), in the
/// order of `posts`.
fn observing_posts(posts: &[(Hex, Option<u16>)], division: Option<u16>) -> impl Iterator<Item = Hex> + '_ {
    posts
        .iter()
        .filter(move |&&(_, f)| division.is_none_or(|d| f == Some(d)))
        .map(|&(h, _)| h)
}

impl ArdennesII {
    /// 3.5: the units that may observe a barrage at `target` by `side`: friendly units within
    /// 2 hexes (of the firing unit's own division for divisional artillery), those that can no
    /// longer move this phase first (they lose nothing by observing), then in counter order.
    pub(crate) fn observers(&self, side: Side, target: Hex, division: Option<u16>) -> Vec<UnitId> {
        let range = self.w.data.tables.barrage.observer_range as u32;
        let mut v: Vec<UnitId> = self
            .units_of(side)
            .filter(|&o| {
                self.s.units[o as usize]
                    .hex()
                    .is_some_and(|h| self.w.map.grid.distance(h, target) <= range)
                    && division.is_none_or(|d| self.w.data.counters.units[o as usize].formation == Some(d))
            })
            .collect();
        v.sort_by_key(|&o| {
            let st = &self.s.units[o as usize];
            (!(st.fired || st.observed || st.stopped), o)
        });
        v
    }

    /// 3.5: whether a barrage at `target` by `side` has an observer (of `division` only, if
    /// given): a friendly unit within 2 hexes.
    fn observer(&self, side: Side, target: Hex, division: Option<u16>) -> Option<UnitId> {
        let range = self.w.data.tables.barrage.observer_range as u32;
        self.units_of(side).find(|&o| {
            self.s.units[o as usize]
                .hex()
                .is_some_and(|h| self.w.map.grid.distance(h, target) <= range)
                && division.is_none_or(|d| self.w.data.counters.units[o as usize].formation == Some(d))
        })
    }

    /// The hex and formation of each unit of `side` on the map, in counter order: where
    /// observers stand (3.5).
    fn observer_posts(&self, side: Side) -> Vec<(Hex, Option<u16>)> {
        // [`Self::units_of`], into a list made once to the side's length.
        let units = &self.w.side_units[side.seat() as usize];
        let mut posts = Vec::with_capacity(units.len());
        for &o in units {
            if let Some(h) = self.s.units.get(o as usize).and_then(|st| st.hex()) {
                posts.push((h, self.w.data.counters.units[o as usize].formation));
            }
        }
        posts
    }

    /// 3.5: per hex, how many of the units of `side` standing at `posts`
    /// ([`Self::observer_posts`]; of division `division` only, if given) are within observer
    /// range of it: where [`Self::observer`] finds one (more than none), for every hex at once.
    /// Kept in the state's memo and counted again near the observers that moved.
    fn observed_from(&self, side: Side, posts: &[(Hex, Option<u16>)], division: Option<u16>) -> Arc<Vec<u16>> {
        self.s
            .memo
            .observed(&self.w, (side.seat(), division), observing_posts(posts, division))
    }

    /// Whether an observer watches each hex, worked out afresh: every hex within observer
    /// range of one of the hexes of `frontier` (the test of [`Self::observed_from`]).
    #[cfg(test)]
    fn observed_afresh(&self, mut frontier: Vec<Hex>) -> Vec<bool> {
        let grid = &self.w.map.grid;
        let range = self.w.data.tables.barrage.observer_range as u32;
        let mut on = vec![false; grid.len()];
        for &h in &frontier {
            on[h.idx()] = true;
        }
        let mut next = Vec::with_capacity(frontier.len() * 6);
        for _ in 0..range {
            next.clear();
            for &h in &frontier {
                for &n in grid.neighbour_row(h) {
                    if n != sandtable_core::hex::NO_HEX && !on[n as usize] {
                        on[n as usize] = true;
                        next.push(Hex(n));
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
        }
        on
    }

    /// The division whose units alone may observe for artillery `u` (divisional artillery).
    fn observing_division(&self, u: UnitId) -> Option<u16> {
        let def = &self.w.data.counters.units[u as usize];
        def.formation.filter(|_| def.is_divarty())
    }

    /// 3.4, 3.5: whether artillery `u` (a valid id) may fire at all now, for `side`.
    fn may_fire_unit(&self, u: UnitId, side: Side) -> Result<u32, Refusal> {
        let def = &self.w.data.counters.units[u as usize];
        let st = &self.s.units[u as usize];
        let no = |rule: &str, en: &str, zh: &str| {
            let name = self.unit_text(u);
            Refusal::new(
                rule,
                Text::new(format!("{}: {en}", name.en), format!("{}:{zh}", name.zh)),
            )
        };
        if def.side != side {
            return Err(no(
                "3.5",
                "only the firing side's artillery fires now",
                "现在只有射击方的火炮可以射击",
            ));
        }
        if st.hex().is_none() {
            return Err(no("1.2", "that unit is not on the map", "该单位不在地图上"));
        }
        let Some(range) = def.range else {
            return Err(no("3.5", "only artillery fires a barrage", "只有火炮可以射击"));
        };
        if st.dg {
            return Err(no("3.4", "DG artillery may not fire", "混乱的火炮不能射击"));
        }
        if st.moved {
            return Err(no(
                "3.5",
                "artillery that moved this phase may not fire",
                "本阶段已移动的火炮不能射击",
            ));
        }
        if st.fired {
            return Err(no("3.5", "it has fired this phase", "它本阶段已经射击过"));
        }
        Ok(range as u32)
    }

    /// 3.5: the barrages and air strikes `side` may make now.
    pub(crate) fn legal_barrage(&self, side: Side, out: &mut Vec<Action>) {
        self.legal_barrage_of(side, self.barrage_guns(side), out);
    }

    /// 3.5: the artillery of `side` that may fire now, with its hex and range (the checks of
    /// `may_fire_unit`, without building its refusals).
    pub(crate) fn barrage_guns(&self, side: Side) -> Vec<(UnitId, Hex, u32)> {
        self.w.artillery[side.seat() as usize]
            .iter()
            .filter_map(|&u| {
                let st = self.s.units.get(u as usize)?;
                let h = st.hex()?;
                if st.dg || st.moved || st.fired {
                    return None;
                }
                let range = self.may_fire_unit(u, side).ok()?;
                Some((u, h, range))
            })
            .collect()
    }

    /// At most how many barrages [`Self::legal_barrage`] lists for `side` with artillery
    /// `guns` ([`Self::barrage_guns`]): every hex in range of each, and every hex for an air
    /// strike.
    pub(crate) fn barrage_room(&self, side: Side, guns: &[(UnitId, Hex, u32)]) -> usize {
        let strikes = side == Side::Allied && self.s.air_strikes > 0;
        let fire: usize = guns
            .iter()
            .map(|&(_, h, range)| self.s.memo.within(&self.w, h, range).len())
            .sum();
        fire + if strikes { self.w.map.grid.len() } else { 0 }
    }

    /// [`Self::legal_barrage`] with artillery `guns` ([`Self::barrage_guns`]): most barrage
    /// phases of a random game have none left, and without guns or air strikes no observer
    /// need be looked for.
    pub(crate) fn legal_barrage_of(&self, side: Side, guns: Vec<(UnitId, Hex, u32)>, out: &mut Vec<Action>) {
        let strikes = side == Side::Allied && self.s.air_strikes > 0;
        if guns.is_empty() && !strikes {
            return;
        }
        let b = Board::new(&self.w, &self.s);
        let grid = &self.w.map.grid;
        let posts = self.observer_posts(side);
        let any = self.observed_from(side, &posts, None);
        let mut by_division: std::collections::HashMap<u16, Arc<Vec<u16>>> = Default::default();
        for (u, h, range) in guns {
            let observed = match self.observing_division(u) {
                Some(d) => by_division
                    .entry(d)
                    .or_insert_with(|| self.observed_from(side, &posts, Some(d))),
                None => &any,
            };
            for &t in self.s.memo.within(&self.w, h, range).iter() {
                if observed[t.idx()] > 0 && b.in_area(t) {
                    out.push(Action::Fire { unit: u, target: t });
                }
            }
        }
        // 2.2, 3.5: an air strike needs no observer and has no range ("可以在地图上的任何地方
        // 使用"); without an observer it strikes a hex once a phase.
        if strikes {
            out.reserve(grid.len());
            for t in grid.hexes().filter(|&t| b.in_area(t)) {
                if self.air_strike_target(any[t.idx()] > 0, t).is_ok() {
                    out.push(Action::AirStrike { target: t });
                }
            }
        }
    }

    /// 3.5: whether artillery `u` may fire at `target` now, for `side`.
    pub(crate) fn may_fire(&self, u: UnitId, target: Hex, side: Side) -> Result<(), Refusal> {
        self.known_unit(u)?;
        self.known_hex(target)?;
        let range = self.may_fire_unit(u, side)?;
        let b = Board::new(&self.w, &self.s);
        let hid = self.w.data.hex_id(target);
        if !b.in_area(target) {
            return Err(Refusal::new(
                "7.0",
                text!(
                    "{hid} is outside the scenario's playing area",
                    "{hid} 在剧本游戏区域之外"
                ),
            ));
        }
        let from = self.s.units[u as usize].hex().unwrap_or(target);
        if self.w.map.grid.distance(from, target) > range {
            return Err(Refusal::new(
                "3.5",
                text!(
                    "{hid} is beyond the artillery's range of {range}",
                    "{hid} 超出该火炮 {range} 格的射程"
                ),
            ));
        }
        let range = self.w.data.tables.barrage.observer_range;
        match self.observing_division(u) {
            Some(d) if self.observer(side, target, Some(d)).is_none() => Err(Refusal::new(
                "3.5",
                text!(
                    "divisional artillery needs an observer of its own division within {range} hexes of {hid}",
                    "师属火炮需要本师单位在 {hid} {range} 格内担任观测员"
                ),
            )),
            None if self.observer(side, target, None).is_none() => Err(Refusal::new(
                "3.5",
                text!(
                    "a barrage needs an observer within {range} hexes of {hid}",
                    "射击需要在 {hid} {range} 格内有观测员"
                ),
            )),
            _ => Ok(()),
        }
    }

    /// 2.2, 3.5: whether an air strike may fall on `t` (in the area), `observed` or not by a
    /// US unit: any hex, struck without an observer once a phase.
    fn air_strike_target(&self, observed: bool, t: Hex) -> Result<(), StrikeBar> {
        if observed {
            return Ok(());
        }
        if self.s.unobserved_strikes.contains(&t) {
            return Err(StrikeBar::StruckAlready);
        }
        Ok(())
    }

    /// 2.2, 3.5: whether the US may make an air strike on `target` now (in a US barrage phase,
    /// checked by the caller).
    pub(crate) fn may_air_strike(&self, target: Hex) -> Result<(), Refusal> {
        self.known_hex(target)?;
        if self.s.air_strikes == 0 {
            return Err(Refusal::new(
                "2.2",
                text!("the US has no air strike left this turn", "美军本回合已没有空袭"),
            ));
        }
        let b = Board::new(&self.w, &self.s);
        if !b.in_area(target) {
            let hid = self.w.data.hex_id(target);
            return Err(Refusal::new(
                "7.0",
                text!(
                    "{hid} is outside the scenario's playing area",
                    "{hid} 在剧本游戏区域之外"
                ),
            ));
        }
        let observed = self.observer(Side::Allied, target, None).is_some();
        let hid = self.w.data.hex_id(target);
        match self.air_strike_target(observed, target) {
            Ok(()) => Ok(()),
            Err(StrikeBar::StruckAlready) => Err(Refusal::new(
                "3.5",
                text!(
                    "without an observer a hex is struck from the air once a phase, and {hid} has been",
                    "无观测员时每格每阶段只能被空袭一次,{hid} 已被空袭过"
                ),
            )),
        }
    }

    /// 3.5: refused where no barrage may be fired.
    pub(crate) fn no_barrage_now(&self) -> Refusal {
        Refusal::new(
            "3.5",
            text!(
                "that barrage is not allowed: barrage is fired in a side's movement and barrage phase and the US barrage phase, air strikes by the US only",
                "不能进行该射击:射击只在一方的移动和射击阶段及美军射击阶段进行,空袭只属于美军"
            ),
        )
    }

    /// 3.5: one barrage (by an artillery unit, or a US air strike with `None`) at `target`
    /// (checked): the firing unit and the air strike are marked; the artillery's observer is
    /// the gun itself when it is within 2 hexes of the target ("火炮可以自行瞄准"), the only
    /// candidate, or the one its owner chooses (on data editions 1 and 2, the first of
    /// [`Self::observers`]: a unit that can no longer move if there is one); an air strike
    /// needs none and freezes nobody (2.2). Then the die.
    pub(crate) fn fire(&mut self, unit: Option<UnitId>, target: Hex) {
        let side = unit.map_or(Side::Allied, |u| self.unit_side(u));
        let observed = unit.is_none() && self.observer(side, target, None).is_some();
        match unit {
            Some(u) => {
                let st = &mut self.s.units[u as usize];
                st.fired = true;
                // 3.4, inventory A11: artillery that fires without supply becomes DG.
                if st.out_of_supply {
                    st.dg = true;
                }
            }
            None => {
                self.s.air_strikes = self.s.air_strikes.saturating_sub(1);
                if !observed {
                    self.s.unobserved_strikes.push(target);
                }
            }
        }
        let Some(gun) = unit else {
            self.barrage_die(None, side, target);
            return;
        };
        let own = self.s.units[gun as usize]
            .hex()
            .is_some_and(|h| self.w.map.grid.distance(h, target) <= self.w.data.tables.barrage.observer_range as u32);
        let candidates = if own {
            vec![gun]
        } else {
            self.observers(side, target, self.observing_division(gun))
        };
        match candidates.as_slice() {
            [] => self.barrage_die(Some(gun), side, target),
            // Data editions 1 and 2: the engine's pick, the first candidate (RULINGS).
            [o, ..] if self.edition < 3 => {
                self.s.units[*o as usize].observed = true;
                self.log_observer(gun, *o, target);
                self.barrage_die(Some(gun), side, target);
            }
            [o] => {
                self.s.units[*o as usize].observed = true;
                self.log_observer(gun, *o, target);
                self.barrage_die(Some(gun), side, target);
            }
            _ => self.engine.push(Frame::Observer {
                gun,
                target,
                candidates,
            }),
        }
    }

    /// 3.5: whether `unit` may observe the barrage awaiting its observer.
    pub(crate) fn may_observe(&self, candidates: &[UnitId], unit: UnitId) -> Result<(), Refusal> {
        self.known_unit(unit)?;
        if candidates.contains(&unit) {
            return Ok(());
        }
        let range = self.w.data.tables.barrage.observer_range;
        Err(Refusal::new(
            "3.5",
            text!(
                "the observer is a friendly unit within {range} hexes of the target (for divisional artillery, one of its own division)",
                "观测员须为目标格 {range} 格内的友方单位(师属火炮须为本师单位)"
            ),
        ))
    }

    /// 3.5: `observer` (checked) observes `gun`'s barrage at `target`: it may not move for the
    /// rest of the phase; then the die.
    pub(crate) fn observe(&mut self, gun: UnitId, target: Hex, observer: UnitId) {
        self.s.units[observer as usize].observed = true;
        let side = self.unit_side(gun);
        self.barrage_die(Some(gun), side, target);
    }

    /// 3.5: the journal names the observer the engine took for `gun`'s barrage at `target` (the
    /// gun itself, the only candidate, or on data editions 1 and 2 its pick); an observer the
    /// player chose is the player's own action.
    fn log_observer(&mut self, gun: UnitId, observer: UnitId, target: Hex) {
        if self.journal.off {
            return;
        }
        let hid = self.w.data.hex_id(target);
        let g = self.unit_text(gun);
        if observer == gun {
            self.journal.say(|| {
                Text::new(
                    format!("3.5: {} observes its own barrage at {hid}.", g.en),
                    format!("3.5:{}自行观测对 {hid} 的射击。", g.zh),
                )
            });
            return;
        }
        let o = self.unit_text(observer);
        self.journal.say(|| {
            Text::new(
                format!(
                    "3.5: {} observes the barrage of {} at {hid} and may not move for the rest of the phase.",
                    o.en, g.en
                ),
                format!("3.5:{}为{}对 {hid} 的射击担任观测员,本阶段不能再移动。", o.zh, g.zh),
            )
        });
    }

    /// 3.5: the barrage die of `gun` (or an air strike) at `target`, with its modifiers.
    fn barrage_die(&mut self, unit: Option<UnitId>, side: Side, target: Hex) {
        let b = Board::new(&self.w, &self.s);
        let occupants = b.count(target) as i32;
        let occupant = b.side_at(target);
        let from = unit.and_then(|u| self.s.units[u as usize].hex());
        let against = from.map_or(0, |h| b.full_markers(h, side.enemy()) as i32);
        drop(b);
        let rules = &self.w.data.tables.barrage;
        let drm =
            (occupants - 1).max(0) * rules.extra_unit_drm as i32 + against * rules.enemy_marker_at_artillery_drm as i32;
        self.engine.push(Frame::Roll(Roll::Barrage {
            side,
            target,
            drm,
            occupant,
        }));
    }

    /// 3.5: the barrage die: a Full marker, a Half marker or nothing, by the target's terrain.
    pub(crate) fn barrage_roll(&mut self, side: Side, target: Hex, drm: i32, occupant: Option<Side>, die: u8) {
        let roll = self
            .w
            .data
            .tables
            .tec
            .barrage_roll(occupant, &self.w.terrain_names[target.idx()]);
        let die = die as i32;
        let modified = die + drm;
        let result = roll.and_then(|r| r.result(modified));
        let hid = self.w.data.hex_id(target);
        let what = match result {
            Some(crate::data::BarrageStrength::Full) => text!("a Full marker", "完整标记"),
            Some(crate::data::BarrageStrength::Half) => text!("a Half marker", "半数标记"),
            None => text!("no effect", "无效果"),
        };
        self.journal.say_marked(
            || {
                Text::new(
                    format!("3.5: barrage at {hid}: die {die}, modified {modified}: {}.", what.en),
                    format!("3.5:射击 {hid}:骰 {die},修正后 {modified}:{}。", what.zh),
                )
            },
            || {
                [sandtable_core::game::Mark::Barrage {
                    units: Vec::new(),
                    from: Vec::new(),
                    at: hid.clone(),
                }]
            },
        );
        let Some(strength) = result else { return };
        let i = match self.s.markers.iter().position(|m| m.hex == target && m.side == side) {
            Some(i) => i,
            None => {
                self.s.markers.push(Markers {
                    hex: target,
                    side,
                    full: 0,
                    half: 0,
                });
                self.s.markers.len() - 1
            }
        };
        let m = &mut self.s.markers[i];
        match strength {
            crate::data::BarrageStrength::Full => m.full += 1,
            crate::data::BarrageStrength::Half => m.half += 1,
        }
    }

    /// 3.5: at the end of a barrage phase, two or more Half markers in a hex become one Full;
    /// a lone Half rolls on the Half Reconciliation Table (its die on the stack, in marker
    /// order). Half markers left are taken off when the phase closes.
    pub(crate) fn half_reconciliation(&mut self) {
        let mut rolls = Vec::new();
        for m in self.s.markers.iter_mut() {
            match m.half {
                0 => {}
                1 => rolls.push(Roll::HalfMarker {
                    hex: m.hex,
                    side: m.side,
                }),
                _ => {
                    m.full += 1;
                    m.half = 0;
                }
            }
        }
        for r in rolls.into_iter().rev() {
            self.engine.push(Frame::Roll(r));
        }
    }

    /// 3.5: the Half Reconciliation Table for the lone Half marker of `side` at `hex`.
    pub(crate) fn half_roll(&mut self, hex: Hex, side: Side, die: u8) {
        let full =
            self.w.data.tables.half_reconciliation.roll(die as i32) == crate::data::tables::HalfReconciliation::Full;
        if let Some(m) = self.s.markers.iter_mut().find(|m| m.hex == hex && m.side == side) {
            if full {
                m.full += 1;
            }
            m.half = 0;
        }
        let hid = self.w.data.hex_id(hex);
        self.journal.say(|| {
            text!(
                "3.5: Half marker at {hid}, die {die}.",
                "3.5:{hid} 的半数标记,骰 {die}。"
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::sequence::Side;
    use crate::ArdennesII;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::{play_randomly_watching, Game, Rules};

    /// The observed hexes the memo gives (3.5) are at every decision of random games those
    /// worked out afresh, for both sides, any observer and each division's own, while units
    /// move, die and arrive.
    #[test]
    fn the_kept_observed_hexes_are_the_ones_worked_out_afresh() {
        let (mut compared, mut changed) = (0, 0);
        for (scenario, seed, decisions) in [("campaign", 21, 700), ("goose-egg", 22, 600), ("peiper", 23, 400)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            let mut before = [Vec::new(), Vec::new()];
            play_randomly_watching(&mut g, &mut rng, decisions, |g| {
                for side in [Side::German, Side::Allied] {
                    let posts = g.observer_posts(side);
                    let mut divisions: Vec<Option<u16>> = posts.iter().map(|&(_, f)| f).collect();
                    divisions.sort_unstable();
                    divisions.dedup();
                    for d in std::iter::once(None).chain(divisions.into_iter().flatten().map(Some)) {
                        let kept: Vec<bool> = g.observed_from(side, &posts, d).iter().map(|&c| c > 0).collect();
                        let fresh = g.observed_afresh(super::observing_posts(&posts, d).collect());
                        assert!(kept == fresh, "{scenario} seed {seed}: {side:?}'s observers of {d:?}");
                        compared += 1;
                    }
                    let seat = side.seat() as usize;
                    changed += usize::from(before[seat] != posts);
                    before[seat] = posts;
                }
            })
            .expect("random play goes on");
        }
        assert!(
            compared > 10000 && changed > 500,
            "{compared} compared, {changed} changes of observers"
        );
    }

    /// The units of a side the world lists ([`ArdennesII::units_of`]) and its artillery are at
    /// every decision of random games those a look at every counter finds, in counter order:
    /// while units arrive, move, exit and are eliminated.
    #[test]
    fn the_listed_units_and_guns_are_those_of_every_counter() {
        let (mut compared, mut changed) = (0, 0);
        for (scenario, seed, decisions) in [("campaign", 31, 900), ("goose-egg", 32, 800), ("bastogne", 33, 500)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            let mut before = [Vec::new(), Vec::new()];
            play_randomly_watching(&mut g, &mut rng, decisions, |g| {
                for side in [Side::German, Side::Allied] {
                    let listed: Vec<_> = g.units_of(side).collect();
                    let every = g.units_of_every_counter(side);
                    assert_eq!(listed, every, "{scenario} seed {seed}: {side:?}'s units");
                    let guns: Vec<_> = g.w.artillery[side.seat() as usize]
                        .iter()
                        .copied()
                        .filter(|&u| g.s.units[u as usize].hex().is_some())
                        .collect();
                    let every_gun: Vec<_> = every
                        .iter()
                        .copied()
                        .filter(|&u| g.w.data.counters.units[u as usize].range.is_some())
                        .collect();
                    assert_eq!(guns, every_gun, "{scenario} seed {seed}: {side:?}'s artillery");
                    let seat = side.seat() as usize;
                    changed += usize::from(before[seat] != every);
                    before[seat] = every;
                    compared += 1;
                }
            })
            .expect("random play goes on");
        }
        assert!(
            compared > 2000 && changed > 20,
            "{compared} compared, {changed} changes"
        );
    }
}

//! Reinforcements (12.0) and the HQs that come back (13.0): the Soviet reinforcement track
//! (12.2), the Axis reinforcement table and the rail transport box (12.3, 12.4), and placing
//! what arrives on a railway hex (12.1).

use crate::data::{Nation, Side, SovietClass, UType};
use crate::rules::Board;
use crate::sequence::not_now;
use crate::state::*;
use crate::StalingradBlitz;
use sandtable_core::game::{Mark, Refusal};
use sandtable_core::hex::Hex;
use sandtable_core::search::with_thread_search as with_search;
use sandtable_core::text;
use sandtable_core::text::Text;
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    /// The last rail-entry trace asked for (12.1), with those of its hexes that hold no enemy
    /// unit and lie outside enemy ZOC. Both read only what the trace read (the enemy's hexes
    /// and the fortresses), so they hold as long as the trace is the one kept: only the room
    /// in each hex (3.1(1)) changes, and only where a unit came or went.
    static OPEN_ENTRIES: RefCell<Option<OpenEntries>> = const { RefCell::new(None) };
}

/// A rail-entry trace and its hexes open to placement but for the room in them, with the
/// room in each (3.1(1), 14.2(3)) as last looked at.
struct OpenEntries {
    trace: Arc<Vec<Hex>>,
    open: Vec<Hex>,
    /// Per hex of `open`, whether it had room for one more unit; and those that had, in the
    /// order of `open`.
    room: Vec<bool>,
    with_room: Vec<Hex>,
    /// Per hex of the map, its place in `open`, if it is there.
    at: Vec<u16>,
    /// The log of moves ([`State::moves`]) of the position the room was looked at in, and
    /// how much of it was read: only the hexes a move logged since left or entered can have
    /// filled or emptied.
    log: u64,
    seen: usize,
}

/// The units of the `n` for which `keep` holds, in unit order, in a list sized for all `n`
/// at once: it never grows.
fn units_where(n: usize, keep: impl Fn(usize) -> bool) -> Vec<UnitId> {
    let mut units = Vec::with_capacity(n);
    units.extend((0..n).filter(|&i| keep(i)).map(|i| i as UnitId));
    units
}

/// In [`OpenEntries::at`]: not an open hex.
const NOT_OPEN: u16 = u16::MAX;

pub(crate) const REINF_TYPES: [&str; 6] = ["Pz", "SS", "Inf", "Hun", "Rum", "It"];

/// 12.3: whether a unit is of Axis reinforcement table type `t` (pz, ss, inf, hun, rum, it).
pub(crate) fn reinf_matches(def: &crate::data::UnitDef, t: usize) -> bool {
    if def.side != Side::Axis || def.is_hq() {
        return false;
    }
    match t {
        0 => def.nation == Nation::German && def.utype == UType::Pz,
        1 => def.nation == Nation::German && def.utype == UType::Ss,
        // A23: German infantry includes mountain and Jäger divisions.
        2 => def.nation == Nation::German && matches!(def.utype, UType::Inf | UType::Mt | UType::Jg),
        // A22: any division of that nationality.
        3 => def.nation == Nation::Hungarian,
        4 => def.nation == Nation::Romanian,
        5 => def.nation == Nation::Italian,
        _ => false,
    }
}

impl StalingradBlitz {
    /// 12.2: the Soviet player receives the current column of the track, and any HQ waiting
    /// in its box (13.0(2)1). Returns the HQs still to choose.
    pub(crate) fn soviet_reinforcements(&mut self) -> u8 {
        let col = self.s.track as usize;
        let mut arriving: Vec<(UnitId, Loc)> = (0..self.s.units.len())
            .filter(|&i| self.s.units[i].loc == Loc::Track)
            .map(|i| (i as UnitId, Loc::Track))
            .collect();
        let mut hq_left = 0;
        if (1..=9).contains(&col) {
            let d = self.d.clone();
            for (class, counts) in &d.soviet_track {
                let want = counts[col - 1] as usize;
                if *class == SovietClass::Hq {
                    // The Soviet player chooses which HQs enter (a separate step).
                    hq_left = want as u8;
                    continue;
                }
                // Units of one class are alike: they come in manifest order.
                let pool: Vec<UnitId> = (0..self.s.units.len())
                    .filter(|&i| {
                        d.units[i].side == Side::Soviet
                            && self.s.units[i].loc == Loc::Pool
                            && SovietClass::of(d.units[i].utype) == Some(*class)
                    })
                    .map(|i| i as UnitId)
                    .take(want)
                    .collect();
                let lost = want - pool.len();
                if lost > 0 {
                    self.journal.say(|| {
                        let name = class.name();
                        Text::new(
                            format!("12.2(2): the pool lacks {lost} × {}; they are lost.", name.en),
                            format!("12.2(2):兵力池缺少 {lost} 个{},该增援失去。", name.zh),
                        )
                    });
                }
                arriving.extend(pool.into_iter().map(|u| (u, Loc::Pool)));
            }
        }
        for &(u, _) in &arriving {
            self.s.set_loc(u, Loc::Arriving);
            self.s.units[u as usize].reduced = false;
        }
        let n = arriving.len() + hq_left as usize;
        self.journal.say(|| {
            text!(
                "12.2: Soviet reinforcements, number {col}: {n} units.",
                "12.2:苏军增援第 {col} 号:{n} 个单位。"
            )
        });
        self.s.arriving = arriving;
        // 12.2(3): the marker advances one box.
        self.s.track = self.s.track.saturating_add(1);
        hq_left
    }

    pub(crate) fn soviet_hq_in_pool(&self) -> bool {
        (self.s.units.iter().zip(&self.d.units))
            .any(|(u, def)| u.loc == Loc::Pool && def.side == Side::Soviet && def.is_hq())
    }

    pub(crate) fn pool_units_of(&self, t: usize) -> impl Iterator<Item = UnitId> + '_ {
        (self.s.units.iter().zip(&self.d.units).enumerate())
            .filter(move |(_, (u, def))| u.loc == Loc::Pool && reinf_matches(def, t))
            .map(|(i, _)| i as UnitId)
    }

    /// Which Axis reinforcement table type (pz, ss, inf, hun, rum, it) a pool unit fills.
    pub(crate) fn reinf_type_index(&self, r: &AxisReinf, unit: UnitId) -> Option<usize> {
        (0..6).find(|&t| r.left[t] > 0 && reinf_matches(&self.d.units[unit as usize], t))
    }

    /// 12.3, 12.4: whether the Axis reinforcement step has nothing to choose: the next type
    /// the table calls for is missing from the pool or has no more units than called for, or
    /// the table is done and the rail box has nothing (or no more) to give.
    pub(crate) fn axis_reinf_forced(&self, r: &AxisReinf) -> bool {
        if let Some(t) = (0..6).find(|&t| r.left[t] > 0) {
            let have = self.pool_units_of(t).count();
            return have == 0 || have <= r.left[t] as usize;
        }
        let in_box = self.s.units.iter().any(|u| u.loc == Loc::RailBox);
        r.from_box == 0 || !in_box
    }

    /// 12.1: the railway hexes `unit` (the next to arrive) may be placed on.
    fn entry_hexes(&self, unit: UnitId) -> Vec<Hex> {
        let d = &self.d;
        let side = d.units[unit as usize].side;
        let b = Board::new(d, &self.s);
        let hexes = with_search(|s| b.rail_entry(side, s));
        let moves = &self.s.moves;
        OPEN_ENTRIES.with(|kept| {
            let mut kept = kept.borrow_mut();
            let k = match &mut *kept {
                Some(k) if Arc::ptr_eq(&k.trace, &hexes) => {
                    let logged = (k.log == moves.id()).then(|| moves.log().get(k.seen..)).flatten();
                    let mut changed = false;
                    let mut look = |r: &mut bool, h: Hex| {
                        let now = b.has_room(h, None);
                        changed |= *r != now;
                        *r = now;
                    };
                    match logged {
                        Some(moved) => {
                            for &(u, was) in moved {
                                for l in [was, self.s.units[u as usize].loc] {
                                    let Loc::Map(h) = l else { continue };
                                    if let Some(r) = k.room.get_mut(k.at[h.idx()] as usize) {
                                        look(r, h);
                                    }
                                }
                            }
                        }
                        None => {
                            for (r, &h) in k.room.iter_mut().zip(&k.open) {
                                look(r, h);
                            }
                        }
                    }
                    if changed {
                        k.with_room.clear();
                        let room = k.open.iter().zip(&k.room).filter(|&(_, &r)| r);
                        k.with_room.extend(room.map(|(&h, _)| h));
                    }
                    k
                }
                _ => {
                    let open: Vec<Hex> = (hexes.iter().copied())
                        .filter(|&h| !b.enemy_zoc(side, h) && !b.enemy_in(side, h))
                        .collect();
                    let mut at = vec![NOT_OPEN; d.map.grid.len()];
                    for (i, &h) in open.iter().enumerate() {
                        at[h.idx()] = i as u16;
                    }
                    let room: Vec<bool> = open.iter().map(|&h| b.has_room(h, None)).collect();
                    let with_room = (open.iter().zip(&room).filter(|&(_, &r)| r)).map(|(&h, _)| h).collect();
                    kept.insert(OpenEntries {
                        trace: hexes.clone(),
                        room,
                        with_room,
                        open,
                        at,
                        log: 0,
                        seen: 0,
                    })
                }
            };
            (k.log, k.seen) = (moves.id(), moves.log().len());
            k.with_room.clone()
        })
    }

    /// [`StalingradBlitz::entry_hexes`] worked out anew from a fresh trace, never kept.
    #[cfg(test)]
    fn entry_hexes_fresh(&self, side: Side) -> Vec<Hex> {
        let b = Board::fresh(&self.d, &self.s);
        let hexes = with_search(|s| b.trace_rail(side, s));
        (hexes.iter().copied())
            .filter(|&h| b.has_room(h, None) && !b.enemy_zoc(side, h) && !b.enemy_in(side, h))
            .collect()
    }

    /// 12.2–12.4: the units that may be chosen now: of the type the table calls for; then from
    /// the rail box; the Soviet HQs in the pool.
    fn reinforcement_choices(&self, e: &Exec) -> Vec<UnitId> {
        let d = &self.d;
        let n = self.s.units.len();
        match &e.step {
            Step::AxisReinf(r) => {
                if let Some(t) = (0..6).find(|&t| r.left[t] > 0) {
                    // 12.3: the Axis player chooses freely among pool units of the type.
                    units_where(n, |i| self.s.units[i].loc == Loc::Pool && reinf_matches(&d.units[i], t))
                } else if r.from_box > 0 {
                    // 12.4: up to two units from the rail transport box.
                    units_where(n, |i| self.s.units[i].loc == Loc::RailBox)
                } else {
                    Vec::new()
                }
            }
            // 12.2: the HQs in the pool the track's HQ entry may bring.
            Step::SovietReinf { .. } => units_where(n, |i| {
                d.units[i].side == Side::Soviet && d.units[i].is_hq() && self.s.units[i].loc == Loc::Pool
            }),
            _ => Vec::new(),
        }
    }

    pub(crate) fn legal_reinforcements(&self, e: &Exec, out: &mut Vec<Action>) {
        match &e.step {
            Step::Place => {
                if let Some(&(unit, _)) = self.s.arriving.first() {
                    out.extend(self.entry_hexes(unit).into_iter().map(|at| Action::Place { unit, at }));
                }
            }
            Step::AxisReinf(r) => {
                out.extend(
                    self.reinforcement_choices(e)
                        .into_iter()
                        .map(|unit| Action::Choose { unit }),
                );
                if !(0..6).any(|t| r.left[t] > 0) && r.from_box > 0 {
                    out.push(Action::EndChoose);
                }
            }
            _ => out.extend(
                self.reinforcement_choices(e)
                    .into_iter()
                    .map(|unit| Action::Choose { unit }),
            ),
        }
    }

    pub(crate) fn check_reinforcements(&self, e: &Exec, a: &Action) -> Result<(), Refusal> {
        match (&e.step, *a) {
            (Step::Place, Action::Place { unit, at }) => {
                let next = self.s.arriving.first().map(|&(u, _)| u);
                if next == Some(unit) && self.entry_hexes(unit).contains(&at) {
                    Ok(())
                } else {
                    Err(Refusal::new(
                        "12.1",
                        text!(
                            "reinforcements enter on a railway hex joined to a friendly supply source by rail with no enemy ZOC on the way, not in enemy ZOC nor an enemy-held city, with room to stack",
                            "增援必须放在经铁道连到己方连络源(途中无敌ZOC)的铁道格,不在敌ZOC或敌控城市,且不超过堆叠"
                        ),
                    ))
                }
            }
            (Step::AxisReinf(_) | Step::SovietReinf { .. }, Action::Choose { unit }) => {
                if self.reinforcement_choices(e).contains(&unit) {
                    Ok(())
                } else {
                    let rule = if matches!(e.step, Step::SovietReinf { .. }) {
                        "12.2"
                    } else {
                        "12.3"
                    };
                    Err(Refusal::new(
                        rule,
                        text!(
                            "that unit is not one the reinforcement table or track brings now",
                            "该单位不是增援表或增援轨道此时带来的单位"
                        ),
                    ))
                }
            }
            (Step::AxisReinf(r), Action::EndChoose) if !(0..6).any(|t| r.left[t] > 0) && r.from_box > 0 => Ok(()),
            _ => Err(not_now()),
        }
    }

    /// The reinforcement steps: a choice or a placement, or with none the step that follows by
    /// itself.
    pub(crate) fn reinforcement_step(&mut self, a: Option<&Action>) {
        let step = self.exec_mut().step.clone();
        match (step, a) {
            (Step::AxisReinf(mut r), None) => {
                // 12.3(2): a type the pool lacks is lost; one with no more units than called
                // for comes whole.
                #[allow(clippy::needless_range_loop)]
                for t in 0..6 {
                    if r.left[t] == 0 {
                        continue;
                    }
                    let have = self.pool_units_of(t).count();
                    if have == 0 {
                        let n = r.left[t];
                        self.journal.say(|| {
                            Text::new(
                                format!(
                                    "12.3(2): the pool has no {} for {n} reinforcement(s); lost.",
                                    REINF_TYPES[t]
                                ),
                                format!("12.3(2):兵力池没有{},{n} 个增援失去。", REINF_TYPES[t]),
                            )
                        });
                    } else {
                        let take: Vec<UnitId> = self.pool_units_of(t).collect();
                        for u in take {
                            self.s.set_loc(u, Loc::Arriving);
                            self.s.arriving.push((u, Loc::Pool));
                        }
                    }
                    r.left[t] = 0;
                    self.exec_mut().step = Step::AxisReinf(r);
                    return;
                }
                self.exec_mut().step = Step::Place;
            }
            (Step::AxisReinf(mut r), Some(&Action::Choose { unit })) => {
                let st = self.s.units[unit as usize];
                if st.loc == Loc::RailBox {
                    r.from_box = r.from_box.saturating_sub(1);
                } else if let Some(t) = self.reinf_type_index(&r, unit) {
                    r.left[t] -= 1;
                }
                // 12.4: units from the box keep their reduced side; 12.1(3) others full.
                self.s.set_loc(unit, Loc::Arriving);
                self.s.arriving.push((unit, st.loc));
                self.exec_mut().step = Step::AxisReinf(r);
            }
            (Step::AxisReinf(_), Some(Action::EndChoose)) => self.exec_mut().step = Step::Place,
            (Step::SovietReinf { hq_left }, None) => {
                if hq_left > 0 {
                    self.journal.say(|| {
                        text!(
                            "12.2(2): the pool has no HQ; {hq_left} lost.",
                            "12.2(2):兵力池没有司令部,{hq_left} 个失去。"
                        )
                    });
                }
                self.exec_mut().step = Step::Place;
            }
            (Step::SovietReinf { hq_left }, Some(&Action::Choose { unit })) => {
                self.s.set_loc(unit, Loc::Arriving);
                self.s.units[unit as usize].reduced = false;
                self.s.arriving.push((unit, Loc::Pool));
                self.exec_mut().step = Step::SovietReinf {
                    hq_left: hq_left.saturating_sub(1),
                };
            }
            (Step::Place, None) => {
                let Some(&(u, from)) = self.s.arriving.first() else {
                    self.finish_exec();
                    return;
                };
                // 12.1: nowhere to enter by rail: the unit goes back where it came from (the
                // pool, the rail box, or the track, 13.0(2)).
                self.s.set_loc(u, from);
                self.s.arriving.remove(0);
                let def = &self.d.units[u as usize];
                let (en, zh) = (def.name_en.clone(), def.name_zh.clone());
                self.journal.say(|| {
                    text!(
                        "12.1: no railway hex can receive {en}; it waits off the map.",
                        "12.1:没有可登场的铁道格,{zh}留在地图外。"
                    )
                });
            }
            (Step::Place, Some(&Action::Place { unit, at })) => {
                let s = self.d.units[unit as usize].side;
                self.s.set_loc(unit, Loc::Map(at));
                self.s.arriving.retain(|&(u, _)| u != unit);
                self.enter_hex(s, at);
                let d = &self.d;
                self.journal.say_marked(
                    || {
                        let def = &d.units[unit as usize];
                        let (en, zh, hid) = (&def.name_en, &def.name_zh, d.map.grid.id(at));
                        text!("12.1: {en} enters at {hid}.", "12.1:{zh}在{hid}登场。")
                    },
                    || {
                        [Mark::Arrived {
                            unit: d.units[unit as usize].id.clone(),
                            at: d.map.grid.id(at).0,
                        }]
                    },
                );
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::{play_randomly_watching, Game, Rules};

    /// The open entry hexes kept between placements follow the units that come and go by
    /// the moves logged since (3.1(1)): an empty entry hex two units enter is offered no
    /// more, and is offered again when one of them leaves; as the hexes worked out anew say.
    #[test]
    fn kept_entry_hexes_follow_the_units_that_come_and_go() {
        let mut g = StalingradBlitz::new_game("campaign", 1).expect("the campaign loads");
        let mut checked = 0;
        for side in [Side::Axis, Side::Soviet] {
            let d = g.data().clone();
            let of_side: Vec<UnitId> = (0..d.units.len())
                .filter(|&u| d.units[u].side == side)
                .map(|u| u as UnitId)
                .collect();
            let unit = of_side[0];
            let s = g.state();
            let empty =
                |h: Hex| !s.fortresses.iter().any(|f| f.hex == h) && s.units.iter().all(|u| u.loc != Loc::Map(h));
            let Some(h) = g.entry_hexes(unit).into_iter().find(|&h| empty(h)) else {
                continue;
            };
            let off_map = |&u: &UnitId| g.state().units[u as usize].hex().is_none();
            let spare: Vec<UnitId> = of_side.iter().copied().filter(off_map).take(2).collect();
            assert_eq!(spare.len(), 2, "{side:?}: two units off the map");
            for &u in &spare {
                g.s.set_loc(u, Loc::Map(h));
            }
            let full = g.entry_hexes(unit);
            assert_eq!(full, g.entry_hexes_fresh(side), "{side:?}: filled");
            assert!(!full.contains(&h), "{side:?}: a full hex offered");
            g.s.set_loc(spare[0], Loc::Pool);
            let room = g.entry_hexes(unit);
            assert_eq!(room, g.entry_hexes_fresh(side), "{side:?}: emptied");
            assert!(room.contains(&h), "{side:?}: a hex with room not offered");
            checked += 1;
        }
        assert!(checked > 0, "no side had an empty entry hex");
    }

    /// The entry hexes of the unit placed next, with the open ones kept between placements,
    /// are those worked out anew at every decision of random games where a unit is placed;
    /// for both sides, at other decisions too.
    #[test]
    fn kept_entry_hexes_are_fresh_ones() {
        let (mut placing, mut checked) = (0, 0);
        for seed in [1, 2] {
            let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
                let arriving = g.state().arriving.first().map(|&(u, _)| u);
                let units = arriving.into_iter().chain(
                    [Side::Axis, Side::Soviet]
                        .map(|side| (0..g.data().units.len()).find(|&u| g.data().units[u].side == side))
                        .into_iter()
                        .flatten()
                        .map(|u| u as UnitId)
                        .filter(|_| checked % 7 == 0),
                );
                for unit in units {
                    let side = g.data().units[unit as usize].side;
                    assert_eq!(g.entry_hexes(unit), g.entry_hexes_fresh(side), "unit {unit}");
                    placing += usize::from(Some(unit) == arriving);
                }
                checked += 1;
            })
            .expect("random play reaches the end");
        }
        assert!(placing > 100, "only {placing} placements checked");
    }
}

//! Movement (9.0): which moves are legal and why not, and a move carried out along its route;
//! and the movement searches kept from one decision to the next.
//!
//! Where a unit can go (9.2, 9.3) depends on its hex and its step, and on where the enemy
//! stands: enemy units and fortresses block (3.1(2)), their zones of control cost MP and
//! stop march formation (3.2, 9.2(2), 9.3(1)), and a fortress hex shields Soviet units from
//! enemy ZOC (14.2(2)). Friendly units moving change none of that (stacking is tested when
//! the moves are listed, not in the search). So in a movement segment each unit is searched
//! once, not once per decision. A unit's searches are kept ([`KeptSearch`], as the core's
//! `reach::ReachCache` keeps reaches) with its hex and step, and forgotten when an enemy unit
//! or a fortress comes, goes or changes within two hexes of where the searches went (a step
//! reads the hex it enters and, for ZOC, that hex's neighbours).

use crate::data::{Data, Side};
use crate::rules::{why, Board, MoveSearch, Searched};
use crate::state::{Action, Fortress, Loc, Route, State, UnitId};
use crate::StalingradBlitz;
use sandtable_core::game::{Mark, Refusal};
use sandtable_core::hex::{Hex, HexGrid, Orientation, Shifted};
use sandtable_core::reach;
use sandtable_core::search::{with_thread_search as with_search, Search};
use sandtable_core::text;
use sandtable_core::text::Text;
use std::cell::RefCell;
use std::collections::hash_map::{Entry, HashMap};
use std::sync::Arc;

impl StalingradBlitz {
    /// 9.0: every destination of every activated unit that has not moved, by its cheapest
    /// route.
    pub(crate) fn legal_moves(&self, out: &mut Vec<Action>) {
        // 3.1(1), 14.2(3): the room in each hex, from the kept layout's stacks.
        let room = Board::new(&self.d, &self.s);
        let all = self.moving_units();
        out.reserve(all.iter().map(|(_, m)| m.normal.hexes.len() + m.march_only.len()).sum());
        LISTS.with(|kept| {
            let kept = &mut *kept.borrow_mut();
            kept.check(&self.d, &self.s, &room);
            for (unit, m) in all {
                let slot = &mut kept.units[unit as usize];
                match slot {
                    Some((was, list)) if Arc::ptr_eq(was, &m) => out.extend_from_slice(list),
                    _ => {
                        let at = out.len();
                        unit_moves(&room, unit, &m, out, |h, has_room| {
                            kept.room[h.idx()] = if has_room { ROOM } else { FULL };
                        });
                        *slot = Some((m, out[at..].to_vec()));
                    }
                }
            }
        });
    }

    /// The activated units that have not moved, with their searches.
    fn moving_units(&self) -> Vec<(UnitId, Arc<UnitMoves>)> {
        let units = (0..self.s.units.len()).filter(|&i| {
            let st = &self.s.units[i];
            st.active && !st.moved && st.hex().is_some()
        });
        // The searches first, so that the list is sized once.
        let mut all: Vec<(UnitId, Arc<UnitMoves>)> = Vec::new();
        with_moves(&self.d, &self.s, units.map(|i| i as UnitId), |unit, m| {
            all.push((unit, m.clone()));
        });
        all
    }

    /// [`StalingradBlitz::legal_moves`] made anew, no unit's moves kept.
    #[cfg(test)]
    fn legal_moves_fresh(&self, out: &mut Vec<Action>) {
        let room = Board::fresh(&self.d, &self.s);
        for (unit, m) in self.moving_units() {
            unit_moves(&room, unit, &m, out, |_, _| {});
        }
    }

    /// 8.1, 9.0: whether `unit` may move now at all.
    fn may_move_unit(&self, unit: UnitId) -> Result<Hex, Refusal> {
        let r = |rule: &str, t| Err(Refusal::new(rule, t));
        let Some(def) = self.d.units.get(unit as usize) else {
            return r("9.0", text!("there is no such unit", "没有这个单位"));
        };
        let st = &self.s.units[unit as usize];
        let (en, zh) = (&def.name_en, &def.name_zh);
        let Some(at) = st.hex() else {
            return r("9.0", text!("{en} is not on the map", "{zh}不在地图上"));
        };
        if !st.active {
            return r(
                "8.1",
                text!("{en} was not activated by this command", "{zh}没有被本次命令激活"),
            );
        }
        if st.moved {
            return r(
                "8.1(3)",
                text!(
                    "{en} has already moved in this command execution",
                    "{zh}在本次命令中已经移动过"
                ),
            );
        }
        Ok(at)
    }

    /// 9.0–9.3: whether `unit` may move to `to` now, by its cheapest route (`march`: in march
    /// formation, where normal movement does not reach), and if not, what stops it.
    pub(crate) fn may_move(&self, unit: UnitId, to: Hex, march: bool, via: Route) -> Result<(), Refusal> {
        let start = self.may_move_unit(unit)?;
        let d = &self.d;
        if to.idx() >= d.map.grid.len() || via.as_slice().iter().any(|h| h.idx() >= d.map.grid.len()) {
            return Err(Refusal::new(
                "9.1",
                text!("that hex is not on the map", "该格不在地图上"),
            ));
        }
        let def = &d.units[unit as usize];
        let hid = d.map.grid.id(to);
        if to == start {
            return Err(Refusal::new(
                "9.0",
                Text::new(
                    format!("{} already stands in {hid}", def.name_en),
                    format!("{}已经在{hid}", def.name_zh),
                ),
            ));
        }
        if !via.is_empty() {
            self.route_path(unit, march, via, to)?;
        } else {
            let mut reached = (false, false);
            with_moves(d, &self.s, std::iter::once(unit), |_, m| {
                reached = (m.normal.hexes.contains(&to), m.march_only.contains(&to));
            });
            match (march, reached) {
                (false, (true, _)) | (true, (_, true)) => {}
                (true, (true, false)) => {
                    return Err(Refusal::new(
                        "9.3",
                        Text::new(
                            format!(
                                "{} reaches {hid} by normal movement: move it there without march formation",
                                def.name_en
                            ),
                            format!("{}以普通移动即可到达{hid}:不必用行军队形", def.name_zh),
                        ),
                    ))
                }
                _ => return Err(self.why_not_reached(unit, march, start, 0, to)),
            }
        }
        // 3.1(1), 3.1(3): stacking counts where the move ends.
        if !Board::new(d, &self.s).has_room(to, None) {
            return Err(Refusal::new(
                "3.1(1)",
                text!(
                    "{hid} already holds two units: at most 2 per hex at the end of movement",
                    "{hid}已有两个单位:移动结束时每格最多2个"
                ),
            ));
        }
        Ok(())
    }

    /// 9.0: the hexes a move through `via` passes, start and end included: the cheapest way
    /// from each hex of the route to the next, the MP spent carried along; or what stops it.
    fn route_path(&self, unit: UnitId, march: bool, via: Route, to: Hex) -> Result<Vec<Hex>, Refusal> {
        let start = self.may_move_unit(unit)?;
        let b = Board::new(&self.d, &self.s);
        let mut path = vec![start];
        let mut spent = 0;
        for (i, &next) in via.as_slice().iter().chain(std::iter::once(&to)).enumerate() {
            let at = *path.last().unwrap_or(&start);
            if next == at {
                continue;
            }
            let last = i == via.as_slice().len();
            let leg = with_search(|search| {
                if !b.movement_from(unit, march, at, spent, search) || search.cost(next).is_none() {
                    return None;
                }
                if last {
                    return Some(Ok((search.path(next)?, search.cost(next)?)));
                }
                // The move goes on from a waypoint: by the cheapest way that may go on from it.
                // A hex the unit can only reach by a step that must stop ends the move (9.2(3),
                // 9.2(4)).
                match (search.path_to_go_on(next), search.cost_to_go_on(next)) {
                    (Some(path), Some(cost)) => Some(Ok((path, cost))),
                    _ => Some(Err(())),
                }
            });
            match leg {
                Some(Ok((leg, cost))) => {
                    path.extend(leg.into_iter().skip(1));
                    spent = cost;
                }
                Some(Err(())) => {
                    let hid = self.d.map.grid.id(next);
                    return Err(Refusal::new(
                        "9.2",
                        text!(
                            "the move must stop in {hid} (a major river or mountain crossed with all MP): it cannot go on",
                            "移动必须在{hid}停止(用全部移动力渡过大河或进入山岳):不能继续"
                        ),
                    ));
                }
                None => return Err(self.why_not_reached(unit, march, at, spent, next)),
            }
        }
        Ok(path)
    }

    /// What stopped `unit`, moving on from `from` with `spent` half MP spent, short of `to`:
    /// the rule the search refused its step into `to` by, or its movement allowance.
    fn why_not_reached(&self, unit: UnitId, march: bool, from: Hex, spent: u32, to: Hex) -> Refusal {
        let d = &self.d;
        let b = Board::new(d, &self.s);
        let def = &d.units[unit as usize];
        let st = &self.s.units[unit as usize];
        let hid = d.map.grid.id(to);
        let (en, zh) = (&def.name_en, &def.name_zh);
        let (may, why) = with_search(|search| {
            let may = b.movement_from(unit, march, from, spent, search);
            (may, search.why(to))
        });
        if !may {
            return Refusal::new(
                "9.3(1)",
                text!(
                    "{en} may not use march formation: it must begin on a road hex outside enemy ZOC",
                    "{zh}不能使用行军队形:必须从敌ZOC外的道路格开始"
                ),
            );
        }
        let r = |rule: &str, t: Text| Refusal::new(rule, t);
        // Nothing refused on the way into `to` within the unit's MP: is it the MP, or does
        // nothing lead there at all?
        let why = match why {
            Some(w) => Some(w),
            None => {
                let (reached, why) = with_search(|search| {
                    b.movement_within(unit, march, from, spent, Some(u32::MAX / 4), search);
                    (search.cost(to).is_some(), search.why(to))
                });
                if !reached && why.is_none() {
                    return r(
                        "9.2",
                        text!(
                            "no way leads {en} to {hid}: enemy units, rivers or impassable terrain bar every route",
                            "{zh}没有路线可到{hid}:敌军、河流或不可通行地形阻断了所有路线"
                        ),
                    );
                }
                why
            }
        };
        match why {
            Some(why::PROHIBITED) => r(
                "TEC",
                text!("{en} cannot cross into {hid}: the hexside is impassable", "{zh}不能进入{hid}:该格边禁止通行"),
            ),
            Some(why::IMPASSABLE) => r(
                "TEC",
                text!("{hid} is all sea or impassable: units may not enter", "{hid}是全海或不可通行格,不能进入"),
            ),
            Some(why::ENEMY) => r("3.1(2)", text!("{hid} holds enemy units", "{hid}有敌军单位")),
            Some(why::MAJOR_RIVER) => r(
                "9.2(3)",
                text!(
                    "an unbridged major river may be crossed only from the start of the move into the hex across, with all MP, and never from enemy ZOC to enemy ZOC",
                    "无桥大河只能从移动开始时相邻的格用全部移动力渡过,且不能从敌ZOC到敌ZOC"
                ),
            ),
            Some(why::MOUNTAIN) => r(
                "9.2(4)",
                text!(
                    "mountain hexes may be entered or left only along a road (a mountain division with all its MP)",
                    "山岳格只能沿道路进出(山岳师用全部移动力)"
                ),
            ),
            Some(why::OFF_ROAD) => r(
                "9.3(1)",
                text!("march formation moves only along roads", "行军队形只能沿道路移动"),
            ),
            Some(why::MARCH_ZOC) => r(
                "9.3(1)",
                text!("march formation may not enter an enemy ZOC", "行军队形不能进入敌ZOC"),
            ),
            _ => {
                let ma = def.face(st.reduced).ma;
                r(
                    "9.2(5)",
                    text!(
                        "{en} cannot reach {hid} with its {ma} MP (terrain, rivers +1, enemy ZOC +2 to enter and +2 to leave)",
                        "{zh}用{ma}移动力到不了{hid}(地形、河流+1、进出敌ZOC各+2)"
                    ),
                )
            }
        }
    }

    /// 9.0: the move, hex by hex along its route: 3.4(2) every city or town it passes comes
    /// under its side's control.
    pub(crate) fn do_move(&mut self, unit: UnitId, to: Hex, march: bool, via: Route) {
        let side = self.d.units[unit as usize].side;
        let path = if via.is_empty() {
            let mut path = None;
            with_moves(&self.d, &self.s, std::iter::once(unit), |_, m| {
                let reach = if march { m.march.as_ref() } else { Some(&m.normal) };
                path = reach.and_then(|r| r.path(to));
            });
            path
        } else {
            self.route_path(unit, march, via, to).ok()
        };
        let path = path.unwrap_or_else(|| vec![to]);
        for &h in path.iter().skip(1) {
            self.enter_hex(side, h);
        }
        let from = self.s.units[unit as usize].hex();
        self.s.set_loc(unit, Loc::Map(to));
        self.s.units[unit as usize].moved = true;
        let d = &self.d;
        self.journal.say_marked(
            || {
                let def = &d.units[unit as usize];
                let g = &d.map.grid;
                let (en, zh) = (&def.name_en, &def.name_zh);
                let (a, b) = (from.map(|h| g.id(h).0).unwrap_or_default(), g.id(to).0);
                let how = if march {
                    text!(" in march formation", "(行军队形)")
                } else {
                    text!("", "")
                };
                Text::new(
                    format!("{en} moves {a} → {b}{}.", how.en),
                    format!("{zh}从{a}移动到{b}{}。", how.zh),
                )
            },
            || {
                let g = &d.map.grid;
                from.map(|from| Mark::Move {
                    unit: d.units[unit as usize].id.clone(),
                    from: g.id(from).0,
                    to: g.id(to).0,
                    path: if path.len() > 1 {
                        path.iter().map(|&h| g.id(h).0).collect()
                    } else {
                        Vec::new()
                    },
                })
            },
        );
    }

    /// 3.4(2), A16: a unit entering a city or town hex takes control of it for its side.
    pub(crate) fn enter_hex(&mut self, side: Side, h: Hex) {
        if (self.d.is_urban[h.idx()] || self.d.vp_hexes.contains(&h)) && self.s.control[h.idx()] != Some(side) {
            self.s.set_control(h, Some(side));
            if let Some(p) = self.d.map.place(h) {
                let (en, zh) = (&p.name_en, &p.name_zh);
                self.journal.say(|| {
                    let who = side.name();
                    Text::new(
                        format!("{} takes control of {en}.", who.en),
                        format!("{}控制了{zh}。", who.zh),
                    )
                });
            }
        }
    }
}

/// 9.0: the moves of `unit` with the searches `m`, to every hex they reach with room for one
/// more unit (3.1(1), 14.2(3)), by normal movement (9.2), then by march formation where normal
/// movement does not reach (9.3); `seen` is told the room found in each hex.
fn unit_moves(room: &Board, unit: UnitId, m: &UnitMoves, out: &mut Vec<Action>, mut seen: impl FnMut(Hex, bool)) {
    let normal = m
        .normal
        .hexes
        .iter()
        .filter(|&&to| to != m.start())
        .map(|&to| (to, false));
    let march = m.march_only.iter().map(|&to| (to, true));
    for (to, march) in normal.chain(march) {
        let has_room = room.has_room(to, None);
        seen(to, has_room);
        if has_room {
            out.push(Action::Move {
                unit,
                to,
                march,
                via: Route::default(),
            });
        }
    }
}

/// The moves of `unit` listed from the searches `m` ([`unit_moves`]), made again after the
/// room in `h`, a hex the searches reach, changed to `has_room` (3.1(1), 14.2(3)): the move
/// into `h` taken out, or put in its place among the others.
fn patch(unit: UnitId, m: &UnitMoves, list: &mut Vec<Action>, h: Hex, has_room: bool) {
    let start = m.start();
    if h == start {
        return;
    }
    let into = |a: &Action, x: Hex| matches!(a, Action::Move { to, .. } if *to == x);
    if !has_room {
        if let Some(i) = list.iter().position(|a| into(a, h)) {
            list.remove(i);
        }
        return;
    }
    // The hexes in the order `unit_moves` lists them; those listed before `h` come first.
    let normal = m.normal.hexes.iter().filter(|&&x| x != start).map(|&x| (x, false));
    let march = m.march_only.iter().map(|&x| (x, true));
    let mut at = 0;
    for (x, march) in normal.chain(march) {
        if x == h {
            list.insert(
                at,
                Action::Move {
                    unit,
                    to: h,
                    march,
                    via: Route::default(),
                },
            );
            return;
        }
        if list.get(at).is_some_and(|a| into(a, x)) {
            at += 1;
        }
    }
}

/// In [`KeptLists::room`]: not looked at since the lists were last begun again; room for one
/// more unit; no room.
const UNSEEN: u8 = 0;
const ROOM: u8 = 1;
const FULL: u8 = 2;

/// Each unit's moves as last listed, kept while its searches are the same, and patched
/// ([`patch`]) where the room in a hex they reach changes: a move fills or empties at most the
/// two hexes it leaves and enters (3.1(1)), and only a stack of two in a hex without a
/// fortress has no room (14.2(3)).
#[derive(Default)]
struct KeptLists {
    /// The serial number of the data, the log of moves read ([`State::moves`]) and how much
    /// of it, the fortresses.
    data: Option<u64>,
    log: u64,
    seen: usize,
    fortresses: Vec<Fortress>,
    /// Per hex, the room the kept lists found there.
    room: Vec<u8>,
    /// Per unit, the searches its list was made from and the list.
    units: Vec<Option<(Arc<UnitMoves>, Vec<Action>)>>,
}

thread_local! {
    static LISTS: RefCell<KeptLists> = RefCell::new(KeptLists::default());
}

impl KeptLists {
    /// Patches the lists that reach a hex whose room changed since the last check; forgets
    /// every list unless the position is the one last checked or one that followed from it.
    fn check(&mut self, d: &Data, s: &State, room: &Board) {
        let n = d.map.grid.len();
        let logged = (self.data == Some(d.serial) && self.log == s.moves.id() && self.fortresses == s.fortresses)
            .then(|| s.moves.log().get(self.seen..))
            .flatten();
        match logged {
            Some(moved) => {
                for &(u, was) in moved {
                    for l in [was, s.units[u as usize].loc] {
                        let Loc::Map(h) = l else { continue };
                        let at = self.room[h.idx()];
                        let now = if room.has_room(h, None) { ROOM } else { FULL };
                        if at == UNSEEN || at == now {
                            continue;
                        }
                        self.room[h.idx()] = now;
                        for (unit, slot) in self.units.iter_mut().enumerate() {
                            let Some((m, list)) = slot else { continue };
                            // A list made where the unit no longer stands is never given
                            // again: forgotten.
                            let st = &s.units[unit];
                            if st.hex() != Some(m.start()) {
                                *slot = None;
                                continue;
                            }
                            if !(m.normal.hexes.contains(&h) || m.march_only.contains(&h)) {
                                continue;
                            }
                            // The lists of the units that may move now are patched; the
                            // others, that may not be asked for again, are forgotten.
                            if st.active && !st.moved {
                                patch(unit as UnitId, m, list, h, now == ROOM);
                            } else {
                                *slot = None;
                            }
                        }
                    }
                }
            }
            None => {
                self.data = Some(d.serial);
                self.log = s.moves.id();
                self.fortresses.clone_from(&s.fortresses);
                self.room.clear();
                self.room.resize(n, UNSEEN);
                self.units.clear();
            }
        }
        self.seen = s.moves.log().len();
        if self.units.len() < s.units.len() {
            self.units.resize_with(s.units.len(), || None);
        }
    }
}

/// The hexes one search reached, in the order first reached, with the hex each was reached
/// from.
#[derive(Debug, PartialEq)]
pub(crate) struct Reach {
    pub hexes: Vec<Hex>,
    parents: Vec<Option<Hex>>,
}

impl Reach {
    fn of(search: &Search) -> Reach {
        let reached = search.reached();
        let mut hexes: Vec<Hex> = Vec::with_capacity(reached.size_hint().1.unwrap_or(0));
        hexes.extend(reached);
        let parents = hexes.iter().map(|&h| search.parent(h)).collect();
        Reach { hexes, parents }
    }

    /// The hexes and paths of the last search `m` made.
    fn of_unit_search(m: &MoveSearch) -> Reach {
        let hexes: Vec<Hex> = m.reached().collect();
        let parents = hexes.iter().map(|&h| m.parent(h)).collect();
        Reach { hexes, parents }
    }

    fn parent(&self, h: Hex) -> Option<Option<Hex>> {
        self.hexes.iter().position(|&x| x == h).map(|i| self.parents[i])
    }

    /// The path from the unit's hex to `to`, both included, as [`Search::path`] gives it.
    pub fn path(&self, to: Hex) -> Option<Vec<Hex>> {
        let mut at = self.parent(to)?;
        // Room for most routes from the start: the list seldom grows.
        let mut path = Vec::with_capacity(16);
        path.push(to);
        while let Some(p) = at {
            path.push(p);
            if path.len() > self.hexes.len() {
                break;
            }
            at = self.parent(p).flatten();
        }
        path.reverse();
        Some(path)
    }
}

/// One unit's movement searches from one hex.
#[derive(Debug, PartialEq)]
pub(crate) struct UnitMoves {
    start: Hex,
    /// Normal movement (9.2).
    pub normal: Reach,
    /// March formation (9.3), if the unit may use it from its hex.
    pub march: Option<Reach>,
    /// The hexes march formation reaches and normal movement does not, in march order.
    pub march_only: Vec<Hex>,
}

impl UnitMoves {
    pub fn start(&self) -> Hex {
        self.start
    }
}

/// What one side's searches read of the enemy: the hexes held by enemy units (in unit order,
/// as the board counts them) and the fortresses; and the searches made under them.
#[derive(Default)]
struct SideMoves {
    enemy: Vec<Hex>,
    fortresses: Vec<Fortress>,
    /// Where every unit stood when `enemy` was last worked out, and per hex whether an enemy
    /// unit stood there: a move of the side's own units between hexes with no enemy unit and
    /// no fortress changes nothing the searches read.
    locs: Vec<Loc>,
    enemy_here: Vec<bool>,
    /// The log of moves ([`State::moves`]) of the position last checked, and how much of it
    /// was read: the moves logged since are all that can have changed.
    log: u64,
    seen: usize,
    /// Per unit, its searches kept.
    units: Vec<Option<KeptSearch>>,
    /// What the side's steps read of the enemy in each hex ([`Board::move_flags`]), if
    /// `flags_fresh`: worked out again only when the enemy's hexes or the fortresses change.
    flags: Vec<u8>,
    flags_fresh: bool,
    /// The searches made under `flags`, by what they read of the unit ([`Alike`]): a unit
    /// alike another in the same hex (a stack of two of a kind, say) has the same moves. Made
    /// empty whenever `flags` are worked out again.
    alike: HashMap<Alike, (Arc<UnitMoves>, u32)>,
}

/// One unit's searches kept: the hex and step they were made for, and how far from the hex
/// they went.
struct KeptSearch {
    key: (Hex, bool),
    radius: u32,
    moves: Arc<UnitMoves>,
}

/// Forgets the searches a change at any of `changed` could alter: those of units within their
/// radius plus [`MARGIN`] of one of them (distances from `axial`, [`axial_table`]).
fn forget_near(units: &mut [Option<KeptSearch>], axial: &[(i32, i32)], grid: &HexGrid, changed: &[Hex]) {
    if changed.is_empty() {
        return;
    }
    let fast = axial.len() == grid.len();
    for slot in units {
        let Some(k) = slot else { continue };
        let (at, within) = (k.key.0, k.radius + MARGIN);
        let near = if fast {
            changed.iter().any(|&c| distance(axial, at, c) <= within)
        } else {
            changed.iter().any(|&c| grid.distance(at, c) <= within)
        };
        if near {
            *slot = None;
        }
    }
}

/// All that a unit's searches (9.2, 9.3) read of the unit itself, besides its side: its hex,
/// its movement allowance on the face it shows (8.1), whether it is mechanised (the TEC's
/// column) and whether it is a mountain division (9.2(4)2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Alike {
    start: Hex,
    ma: u8,
    mech: bool,
    mountain: bool,
}

impl Alike {
    fn of(d: &Data, s: &State, u: UnitId, start: Hex) -> Alike {
        let def = &d.units[u as usize];
        Alike {
            start,
            ma: def.face(s.units[u as usize].reduced).ma,
            mech: def.mech,
            mountain: def.is_mountain(),
        }
    }
}

impl SideMoves {
    /// Whether the enemy's hexes are still `enemy` in the position `s`, known without working
    /// them out: no enemy unit and no fortress changed, and the side's own units that moved
    /// left and entered hexes with no enemy unit and no fortress (where the side of a hex,
    /// the last unit's, could not be the enemy's before or after).
    fn unchanged(&self, d: &Data, s: &State, side: Side) -> bool {
        if self.locs.len() != s.units.len() || self.fortresses != s.fortresses {
            return false;
        }
        if self.log == s.moves.id() && self.seen <= s.moves.log().len() {
            return self.unchanged_since(d, s, side);
        }
        self.unchanged_by_all(d, s, side)
    }

    /// [`SideMoves::unchanged`] read from the moves logged since the last check: each of the
    /// side's own units, and every hex it was in and is in clear of enemy units and
    /// fortresses. `false` where a pass over every unit may still find nothing changed (a
    /// unit back where it was).
    fn unchanged_since(&self, d: &Data, s: &State, side: Side) -> bool {
        let clear = |l: Loc| match l {
            Loc::Map(h) => !self.enemy_here[h.idx()] && !s.fortresses.iter().any(|f| f.hex == h),
            _ => true,
        };
        (s.moves.log()[self.seen..].iter())
            .all(|&(u, was)| d.units[u as usize].side == side && clear(was) && clear(s.units[u as usize].loc))
    }

    /// [`SideMoves::unchanged`] by a pass over every unit.
    fn unchanged_by_all(&self, d: &Data, s: &State, side: Side) -> bool {
        let clear = |l: Loc| match l {
            Loc::Map(h) => !self.enemy_here[h.idx()] && !s.fortresses.iter().any(|f| f.hex == h),
            _ => true,
        };
        (self.locs.iter().zip(&s.units).enumerate())
            .all(|(i, (&was, u))| was == u.loc || (d.units[i].side == side && clear(was) && clear(u.loc)))
    }
}

/// How far around the hexes a search went a change can alter it: a step reads the hex it
/// enters (one beyond the reach) and that hex's neighbours (enemy ZOC, 9.2(2)).
const MARGIN: u32 = 2;

#[derive(Default)]
struct Memo {
    /// The serial number of the data the searches were made on.
    data: Option<u64>,
    sides: [SideMoves; 2],
    /// Scratch: the hexes the enemy holds.
    held: Vec<Hex>,
    /// Per hex, its axial coordinates ([`axial_table`]).
    axial: Vec<(i32, i32)>,
}

/// Per hex of `grid`, its axial coordinates, as the grid measures distances with them: from
/// its printed column and row, lifted by half the columns (flat hexes) or rows (pointy) as the
/// shifted lines lie. Empty if the distances they give from the first hex are not the grid's.
fn axial_table(grid: &HexGrid) -> Vec<(i32, i32)> {
    let spec = grid.spec();
    let shifted_even = matches!(spec.shifted, Shifted::Even);
    let lift = |line: i32| {
        if shifted_even {
            (line + 1).div_euclid(2)
        } else {
            line.div_euclid(2)
        }
    };
    let axial: Vec<(i32, i32)> = grid
        .hexes()
        .map(|h| {
            let (c, r) = grid.col_row(h);
            let (c, r) = (c as i32, r as i32);
            match spec.orientation {
                Orientation::Flat => (c, r - lift(c)),
                Orientation::Pointy => (c - lift(r), r),
            }
        })
        .collect();
    let first = Hex(0);
    let agrees = grid
        .hexes()
        .all(|h| distance(&axial, first, h) == grid.distance(first, h));
    if agrees {
        axial
    } else {
        Vec::new()
    }
}

/// The distance between two hexes, from their axial coordinates (`axial`, [`axial_table`]).
#[inline(always)]
fn distance(axial: &[(i32, i32)], a: Hex, b: Hex) -> u32 {
    let ((aq, ar), (bq, br)) = (axial[a.idx()], axial[b.idx()]);
    let (dq, dr) = (aq - bq, ar - br);
    dq.unsigned_abs().max(dr.unsigned_abs()).max((dq + dr).unsigned_abs())
}

/// How far from its start the farthest hex the searches `m` reach is: those normal movement
/// reaches and `march_only` (march formation reaches no others).
fn radius(axial: &[(i32, i32)], grid: &HexGrid, m: &UnitMoves) -> u32 {
    let start = m.start();
    let far = m.normal.hexes.iter().chain(&m.march_only).copied();
    if axial.len() != grid.len() {
        return reach::radius(grid, start, far);
    }
    let mut r = 0;
    for &h in &m.normal.hexes {
        r = r.max(distance(axial, start, h));
    }
    for &h in &m.march_only {
        r = r.max(distance(axial, start, h));
    }
    r
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

impl Memo {
    /// Makes the kept searches of `side` those of the position `s`: each kept unless the enemy
    /// or a fortress changed near where it went.
    fn check(&mut self, d: &Data, s: &State, side: Side) {
        if self.data != Some(d.serial) {
            *self = Memo {
                data: Some(d.serial),
                axial: axial_table(&d.map.grid),
                ..Memo::default()
            };
        }
        let m = &mut self.sides[side.seat() as usize];
        let unchanged = m.unchanged(d, s, side);
        (m.log, m.seen) = (s.moves.id(), s.moves.log().len());
        if unchanged {
            return;
        }
        // The hexes the enemy holds, by the board's owner of each: the last unit in it, then a
        // fortress for the Soviets.
        let b = Board::new(d, s);
        let enemy = Some(side.enemy());
        self.held.clear();
        let held = (s.units.iter().filter_map(|u| u.hex())).chain(s.fortresses.iter().map(|f| f.hex));
        self.held.extend(held.filter(|h| b.owner[h.idx()] == enemy));
        let m = &mut self.sides[side.seat() as usize];
        m.locs.clear();
        m.locs.extend(s.units.iter().map(|u| u.loc));
        m.enemy_here.clear();
        m.enemy_here.resize(d.map.grid.len(), false);
        for (i, u) in s.units.iter().enumerate() {
            if let (Loc::Map(h), true) = (u.loc, d.units[i].side != side) {
                m.enemy_here[h.idx()] = true;
            }
        }
        if m.enemy != self.held || m.fortresses != s.fortresses {
            let mut changed = reach::moved(&m.enemy, &self.held);
            let was: Vec<Hex> = (m.fortresses.iter())
                .filter(|f| !s.fortresses.contains(f))
                .map(|f| f.hex)
                .collect();
            let is: Vec<Hex> = (s.fortresses.iter())
                .filter(|f| !m.fortresses.contains(f))
                .map(|f| f.hex)
                .collect();
            changed.extend(was.into_iter().chain(is));
            forget_near(&mut m.units, &self.axial, &d.map.grid, &changed);
            m.flags_fresh = false;
            m.alike.clear();
            std::mem::swap(&mut m.enemy, &mut self.held);
            m.fortresses.clone_from(&s.fortresses);
        }
    }
}

/// Calls `f` with the movement searches of each of `units` (all on the map) in the position
/// `s`, made now or kept from before.
pub(crate) fn with_moves(
    d: &Data,
    s: &State,
    units: impl Iterator<Item = UnitId>,
    mut f: impl FnMut(UnitId, &Arc<UnitMoves>),
) {
    MEMO.with(|memo| {
        let memo = &mut *memo.borrow_mut();
        let mut checked = [false; 2];
        let mut board: Option<Board> = None;
        for u in units {
            let side = d.units[u as usize].side;
            if !checked[side.seat() as usize] {
                memo.check(d, s, side);
                checked[side.seat() as usize] = true;
            }
            let st = &s.units[u as usize];
            let Some(start) = st.hex() else { continue };
            let sm = &mut memo.sides[side.seat() as usize];
            let key = (start, st.reduced);
            let kept = sm
                .units
                .get(u as usize)
                .and_then(|k| k.as_ref())
                .filter(|k| k.key == key);
            let moves = match kept {
                Some(k) => k.moves.clone(),
                None => {
                    let b = board.get_or_insert_with(|| Board::new(d, s));
                    if !sm.flags_fresh {
                        b.move_flags(side, &mut sm.flags);
                        sm.flags_fresh = true;
                        sm.alike.clear();
                    }
                    // A unit alike one searched under the same flags moves as it does.
                    let (m, radius) = match sm.alike.entry(Alike::of(d, s, u, start)) {
                        Entry::Occupied(e) => e.get().clone(),
                        Entry::Vacant(e) => {
                            let m = Arc::new(search_unit(b, u, &sm.flags));
                            let radius = radius(&memo.axial, &d.map.grid, &m);
                            e.insert((m, radius)).clone()
                        }
                    };
                    if sm.units.len() <= u as usize {
                        sm.units.resize_with(u as usize + 1, || None);
                    }
                    let moves = m.clone();
                    sm.units[u as usize] = Some(KeptSearch { key, radius, moves });
                    m
                }
            };
            f(u, &moves);
        }
    });
}

thread_local! {
    static MOVE_SEARCH: RefCell<MoveSearch> = RefCell::new(MoveSearch::default());
}

/// 9.2, 9.3: both searches of a unit on the map, made over the map's table of steps
/// ([`Board::unit_search`]) with `flags`, what its side's steps read of the enemy in each hex
/// ([`Board::move_flags`]); by the core's search ([`search_unit_by_core`]) if the unit's MP
/// are beyond the dedicated search's cost lists. The answers are the same either way.
fn search_unit(b: &Board, u: UnitId, flags: &[u8]) -> UnitMoves {
    let moves = MOVE_SEARCH.with(|m| {
        let m = &mut *m.borrow_mut();
        let march = match b.unit_search(u, true, flags, m) {
            Searched::Reached => Some(Reach::of_unit_search(m)),
            Searched::NotAllowed => None,
            Searched::TooFar => return None,
        };
        if b.unit_search(u, false, flags, m) != Searched::Reached {
            return None;
        }
        let start = b.s.units[u as usize].hex()?;
        let normal = Reach::of_unit_search(m);
        // Still in `m`: the normal movement.
        let march_only = march
            .iter()
            .flat_map(|r| r.hexes.iter().copied())
            .filter(|&h| h != start && !m.has(h))
            .collect();
        Some(UnitMoves {
            start,
            normal,
            march,
            march_only,
        })
    });
    moves.unwrap_or_else(|| with_search(|search| search_unit_by_core(b, u, search)))
}

/// 9.2, 9.3: both searches of a unit on the map, by the core's search.
fn search_unit_by_core(b: &Board, u: UnitId, search: &mut Search) -> UnitMoves {
    let march = b.movement(u, true, search).map(|_| Reach::of(search));
    let start = b.movement(u, false, search).expect("the unit is on the map");
    let normal = Reach::of(search);
    // Still in `search`: the normal movement.
    let march_only = march
        .iter()
        .flat_map(|r| r.hexes.iter().copied())
        .filter(|&h| h != start && search.cost(h).is_none())
        .collect();
    UnitMoves {
        start,
        normal,
        march,
        march_only,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::{play_randomly_watching, Game, Rules};

    /// The searches kept between decisions (forgotten only near a change) are those made
    /// anew, for every unit on the map of both sides, at every decision of random games.
    #[test]
    fn kept_searches_are_fresh_searches() {
        for seed in [1, 2] {
            let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            let mut checked = 0;
            play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
                let (d, s) = (g.data(), g.state());
                let on_map = (0..s.units.len()).filter(|&i| s.units[i].hex().is_some());
                let b = Board::fresh(d, s);
                let mut flags = [Vec::new(), Vec::new()];
                for side in [Side::Axis, Side::Soviet] {
                    b.move_flags(side, &mut flags[side.seat() as usize]);
                }
                with_moves(d, s, on_map.map(|i| i as UnitId), |u, kept| {
                    let side = d.units[u as usize].side;
                    let fresh = search_unit(&b, u, &flags[side.seat() as usize]);
                    assert_eq!(**kept, fresh, "unit {u}: kept searches are stale");
                    checked += 1;
                });
            })
            .expect("random play reaches the end");
            assert!(checked > 10_000, "only {checked} searches checked");
        }
    }

    /// The axial coordinates worked out for the campaign map measure every distance as the
    /// grid does (the searches' radius is read from them).
    #[test]
    fn axial_distances_are_the_grids() {
        let g = StalingradBlitz::new_game("campaign", 1).expect("the campaign loads");
        let grid = &g.data().map.grid;
        let axial = axial_table(grid);
        assert_eq!(axial.len(), grid.len(), "the table fell back to the grid");
        for a in grid.hexes() {
            for b in grid.hexes().skip(a.idx() % 5).step_by(5) {
                assert_eq!(distance(&axial, a, b), grid.distance(a, b), "{a:?} {b:?}");
            }
        }
    }

    /// The movement list made from each unit's kept moves is the list made anew, at every
    /// decision of random campaign games where moves are listed.
    #[test]
    fn kept_move_lists_are_fresh_lists() {
        let mut listed = 0;
        for seed in [6, 7] {
            let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
                let (mut kept, mut fresh) = (Vec::new(), Vec::new());
                g.legal_moves(&mut kept);
                g.legal_moves_fresh(&mut fresh);
                assert_eq!(kept, fresh, "seed {seed}: a kept move list is stale");
                listed += (!fresh.is_empty()) as usize;
            })
            .expect("random play reaches the end");
        }
        assert!(listed > 400, "moves listed at only {listed} decisions");
    }

    /// Whenever the moves logged since the last check say that the enemy's hexes cannot have
    /// changed for a side's searches, a pass over every unit says so too: at every decision of
    /// random campaign games, for both sides, and the log is read at least as often as not.
    #[test]
    fn the_moves_logged_tell_what_a_pass_over_every_unit_tells() {
        let (mut by_log, mut decisions) = (0, 0);
        for seed in [4, 5] {
            let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
                let (d, s) = (g.data(), g.state());
                decisions += 1;
                MEMO.with(|memo| {
                    let memo = &mut *memo.borrow_mut();
                    for side in [Side::Axis, Side::Soviet] {
                        let m = &memo.sides[side.seat() as usize];
                        let logged = m.locs.len() == s.units.len()
                            && m.fortresses == s.fortresses
                            && m.log == s.moves.id()
                            && m.seen <= s.moves.log().len();
                        if logged && m.unchanged_since(d, s, side) {
                            by_log += 1;
                            assert!(m.unchanged_by_all(d, s, side), "{side:?}: the log missed a change");
                        }
                        memo.check(d, s, side);
                    }
                });
            })
            .expect("random play reaches the end");
        }
        assert!(
            by_log > decisions,
            "{by_log} checks by the log in {decisions} decisions"
        );
    }

    /// 14.2(2): a Soviet unit in a fortress hex next to an Axis unit is not in its ZOC, and
    /// leaves the hex without paying to leave one (9.2(2)); the search over the map's table
    /// of steps reads the fortress as the core's search does. A position built on the
    /// campaign map: an Axis unit put next to a Soviet unit, a fortress put under the Soviet.
    #[test]
    fn a_fortress_shields_the_unit_search_as_the_core_search() {
        let mut g = StalingradBlitz::new_game("campaign", 1).expect("the campaign loads");
        let d = g.data().clone();
        let s = g.state();
        let dd = &d;
        let on_map =
            |side: Side| (0..s.units.len()).filter(move |&i| dd.units[i].side == side && s.units[i].hex().is_some());
        let axis = on_map(Side::Axis).next().expect("an Axis unit on the map");
        let occupied: Vec<Hex> = s.units.iter().filter_map(|u| u.hex()).collect();
        let open = |h: Hex| d.map.terrain(h) & (d.t.sea | d.t.impassable) == 0 && !occupied.contains(&h);
        // A Soviet unit with an empty hex of open terrain next to it, across no prohibited
        // hexside, for the Axis unit.
        let (soviet, at, next) = on_map(Side::Soviet)
            .filter(|&i| d.units[i].full.ma >= 4)
            .find_map(|i| {
                let at = s.units[i].hex()?;
                let next = (d.map.grid.neighbours(at))
                    .find(|&(dir, n)| open(n) && d.map.side(at, dir) & d.s.prohibited == 0)?;
                Some((i as UnitId, at, next.1))
            })
            .expect("a Soviet unit with room next to it");
        let e = g.edit();
        e.state.units[axis].loc = Loc::Map(next);
        e.state.fortresses.push(Fortress { hex: at, level: 1 });
        let searches = |s: &State| {
            let b = Board::fresh(&d, s);
            let mut flags = Vec::new();
            b.move_flags(Side::Soviet, &mut flags);
            let want = with_search(|search| search_unit_by_core(&b, soviet, search));
            assert_eq!(
                search_unit(&b, soviet, &flags),
                want,
                "{:?} in {}",
                s.fortresses,
                d.map.grid.id(at)
            );
            want
        };
        let shielded = searches(g.state());
        g.edit().state.fortresses.clear();
        let in_zoc = searches(g.state());
        // The fortress made a difference: without it the unit pays to leave the ZOC.
        assert_ne!(shielded.normal, in_zoc.normal);
    }

    /// A unit's searches over the map's table of steps (9.2, 9.3) answer what the core's
    /// search answers: the same hexes in the same order, by the same paths, in normal
    /// movement and march formation; for one unit in four of both sides on the map (a
    /// different four each decision), at every decision of random campaign games.
    #[test]
    fn the_unit_search_is_the_core_search() {
        let (mut checked, mut marching, mut decisions) = (0, 0, 0);
        for seed in [3, 8] {
            let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
                let (d, s) = (g.data(), g.state());
                let b = Board::fresh(d, s);
                let mut flags = [Vec::new(), Vec::new()];
                for side in [Side::Axis, Side::Soviet] {
                    b.move_flags(side, &mut flags[side.seat() as usize]);
                }
                decisions += 1;
                for u in (decisions % 4..s.units.len()).step_by(4) {
                    if s.units[u].hex().is_none() {
                        continue;
                    }
                    let u = u as UnitId;
                    let want = with_search(|search| search_unit_by_core(&b, u, search));
                    let side = d.units[u as usize].side;
                    let got = search_unit(&b, u, &flags[side.seat() as usize]);
                    assert_eq!(got, want, "unit {u}, seed {seed}");
                    checked += 1;
                    marching += want.march.is_some() as usize;
                }
            })
            .expect("random play reaches the end");
        }
        assert!(
            checked > 20_000 && marching > 5_000,
            "{checked} units, {marching} marching"
        );
    }
}

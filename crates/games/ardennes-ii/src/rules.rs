//! Questions the rules ask of a position: who stands where, which hexes the ZOC Bonds hold,
//! where a unit can move and at what cost (and what bars a step), who can trace supply, how
//! strong a unit attacks or defends under DG and barrage markers. [`Board`] answers them from
//! a [`World`] and a [`State`], built fresh for each question; who stands where is worked out
//! only when a question needs it.

use crate::data::{Movement, UnitDef};
use crate::sequence::Side;
use crate::state::{State, UnitId};
use crate::world::{Bits, Steps, World};
use sandtable_core::bonds::{bonds, bonds_by_steps, Bond, BondBoard, Candidates};
use sandtable_core::hex::{Dir, Hex, NO_HEX};
use sandtable_core::search::{Search, Step, Why};
use std::cell::OnceCell;
use std::sync::Arc;

pub(crate) use sandtable_core::search::with_thread_search as with_search;

/// The buffers of the supply flood ([`Board::supply_from`]), kept per thread: sets of
/// hexes as bits ([`Bits`]).
#[derive(Default)]
struct SupplyFlood {
    /// The hexes the trace has reached to go on from, and the enemy's.
    seen: Bits,
    /// The hexes in supply.
    reached: Bits,
    /// The hexes reached by the last step, which the next one goes on from.
    front: Bits,
    /// Where the next step leads along road or track, and where off road.
    next_road: Bits,
    next_foot: Bits,
    /// 3.1: the traffic jams German units hold (a German trace, turns 1-2).
    jammed: Bits,
    /// The hexes one group of steps leaves ([`spread`]).
    moved: Bits,
    /// The steps along road or track today.
    road_steps: Steps,
    /// The road hexes reached, in the order reached.
    queue: Vec<u16>,
}

/// The hexes one of `steps` leads to from the hexes of `from`, into `to` (emptied first);
/// `moved` is a buffer.
fn spread(from: &[u64], steps: &Steps, to: &mut Bits, moved: &mut Bits) {
    let words = from.len();
    to.clear();
    to.resize(words, 0);
    for (k, set) in steps {
        // The hexes of `from` this group of steps leaves.
        moved.clear();
        moved.extend(from.iter().zip(set).map(|(a, b)| a & b));
        let (q, r) = (k.unsigned_abs() / 64, (k.unsigned_abs() % 64) as u32);
        if q >= words {
            continue;
        }
        if *k > 0 {
            // Bit p moves to p + k: word i + q takes word i shifted up, and the top of word
            // i - 1.
            let (src, dst) = (&moved[..words - q], &mut to[q..]);
            dst[0] |= src[0] << r;
            if r == 0 {
                for (t, &a) in dst.iter_mut().zip(src).skip(1) {
                    *t |= a;
                }
            } else {
                for (t, pair) in dst[1..].iter_mut().zip(src.windows(2)) {
                    *t |= (pair[1] << r) | (pair[0] >> (64 - r));
                }
            }
        } else {
            // Bit p moves to p - |k|: word i takes word i + q shifted down, and the bottom of
            // word i + q + 1.
            let (src, dst) = (&moved[q..], &mut to[..words - q]);
            let last = src.len() - 1;
            if r == 0 {
                for (t, &a) in dst.iter_mut().zip(src) {
                    *t |= a;
                }
            } else {
                for (t, pair) in dst.iter_mut().zip(src.windows(2)) {
                    *t |= (pair[0] >> r) | (pair[1] << (64 - r));
                }
                dst[last] |= src[last] >> r;
            }
        }
    }
}

thread_local! {
    static SUPPLY_FLOOD: std::cell::RefCell<SupplyFlood> = std::cell::RefCell::default();
}

/// What bars a step of movement ([`Board::step`]), kept by the movement search so that a
/// refused move can say what stopped the unit.
pub mod barred {
    use sandtable_core::search::Why;
    /// SCS 6.0: an enemy unit holds the hex.
    pub const ENEMY: Why = Why(1);
    /// 7.0: the hex is outside the scenario's playing area.
    pub const OUTSIDE: Why = Why(2);
    /// 3.6: artillery does not enter a hex next to an enemy unit.
    pub const ARTILLERY_NEAR_ENEMY: Why = Why(3);
    /// 3.1: a traffic jam German units hold is closed to other German units.
    pub const JAM_HELD: Why = Why(4);
    /// TEC: the hex's terrain is prohibited to the unit's kind of movement.
    pub const TERRAIN: Why = Why(5);
    /// TEC, 1.3: the hexside is prohibited to it, and no usable road crosses it.
    pub const HEXSIDE: Why = Why(6);
}

/// Strengths are counted in eighths, so that DG (½) and barrage (½, ¼) multiply exactly
/// (inventory A5: keep fractions; only the odds are rounded).
pub const EIGHTHS: u32 = 8;

/// A position seen through the rules.
pub struct Board<'a> {
    pub w: &'a World,
    pub s: &'a State,
    /// What the rules derive from where the units stand (shared by every board of the same
    /// position, see [`crate::memo`]), taken when first needed.
    l: OnceCell<Arc<Layout>>,
    /// 7.0: the playing area (`None`: the whole map).
    area: Option<&'a [bool]>,
    /// Every hexside's road link ([`Board::link`]), taken from the memo when first needed.
    roads: OnceCell<crate::memo::RoadLinks>,
    /// 3.5: per hex, what the barrage markers in it add to a step of each side's units (by
    /// seat), in half MP: entering it, leaving it. Taken from the memo when a search first
    /// needs it.
    marker_mp: OnceCell<crate::memo::MarkerMp>,
    /// Per side (by seat): whether the memo's kept reaches of the side were already checked
    /// against this position ([`crate::memo`]): a board's position does not change, so once
    /// is enough for the many units whose reach it is asked for.
    pub(crate) reaches_checked: std::cell::Cell<[bool; 2]>,
}

/// What a step of one unit's movement reads of a position (TEC, 1.3, 3.1, 3.5, 3.6):
/// [`Board::step`] with the board's tables taken out once, for the many steps of a search.
pub(crate) struct Pricing<'p, 'a> {
    b: &'p Board<'a>,
    u: UnitId,
    side: Side,
    side_at: &'p [Option<Side>],
    area: Option<&'a [bool]>,
    artillery: bool,
    /// The hexes next to the unit's enemy, the enemy ZOC Bond hexes for it.
    near_enemy: &'p [bool],
    bond: &'p [bool],
    links: &'p [[u8; 6]],
    /// Its kind of movement's costs off road: of entering each hex, of crossing each hexside.
    hex_cost: &'p [Option<u16>],
    side_cost: &'p [[Option<u16>; 6]],
    /// Along a Road and along a Track.
    road: [u32; 2],
    /// TEC: the extras in half MP for entering an enemy bond, for moving from one hex next to
    /// the enemy to another.
    zoc_bond: u32,
    adjacent: u32,
    /// 3.1: a German unit, on a turn with traffic jams.
    jams: bool,
    /// 3.5: with barrage markers on the map, per hex what they add to entering and to
    /// leaving it ([`Board::marker_mp`]).
    markers: Option<&'p [[[u16; 2]; 2]]>,
}

impl Pricing<'_, '_> {
    /// The half-MP cost of the step from `from` into `to` (direction `d`), or what bars it
    /// ([`barred`]). Inlined into the searches, which price every step out of every hex.
    #[inline(always)]
    pub(crate) fn step(&self, from: Hex, d: Dir, to: Hex) -> Result<u32, Why> {
        let (f, t) = (from.idx(), to.idx());
        let side = self.side;
        let held = self.side_at[t];
        if held == Some(side.enemy()) {
            return Err(barred::ENEMY);
        }
        if self.area.is_some_and(|a| !a[t]) {
            return Err(barred::OUTSIDE);
        }
        // 3.6: artillery may not voluntarily enter a hex adjacent to an enemy unit.
        if self.artillery && self.near_enemy[t] {
            return Err(barred::ARTILLERY_NEAR_ENEMY);
        }
        // 3.1: a traffic jam held by Germans is closed to other Germans, road or not; on data
        // edition 3, not to the units of the stack that moved into it together.
        if self.jams && held == Some(Side::German) && self.b.traffic_jam(to) && !self.b.with_jam_stack(self.u, to) {
            return Err(barred::JAM_HELD);
        }
        let base = match self.links[f][d as usize] {
            // 1.3 (a): along a continuous road only the road's cost.
            ROAD_LINK => self.road[0],
            TRACK_LINK => self.road[1],
            _ => {
                let hex = self.hex_cost[t].ok_or(barred::TERRAIN)?;
                let across = self.side_cost[f][d as usize].ok_or(barred::HEXSIDE)?;
                (hex + across) as u32
            }
        };
        // TEC note 3, inventory A8: an enemy bond costs +4, not +4 and +1.
        let situational = if self.bond[t] {
            self.zoc_bond
        } else if self.near_enemy[f] && self.near_enemy[t] {
            self.adjacent
        } else {
            0
        };
        let Some(mp) = self.markers else {
            return Ok(base + situational);
        };
        // 3.5: friendly markers cost to enter, enemy markers to enter and again to leave.
        let seat = side.seat() as usize;
        Ok(base + situational + mp[t][seat][0] as u32 + mp[f][seat][1] as u32)
    }
}

/// [`Board::link`]: no road may be followed across the hexside.
pub const NO_LINK: u8 = 0;
/// [`Board::link`]: a road may be followed across the hexside.
pub const ROAD_LINK: u8 = 1;
/// [`Board::link`]: a track (and no road) may be followed across the hexside.
pub const TRACK_LINK: u8 = 2;

/// What follows from where the units stand alone: which side holds each hex and with how
/// many units, the units of each hex, the hexes next to the enemy and the ZOC Bonds (1.2).
/// Built once per position and shared (see [`crate::memo`]); the next one is built in the
/// same memory, clearing only the hexes this one had set.
#[derive(Clone, Debug)]
pub struct Layout {
    /// A number no other layout the memo gave out has had (0 for one built outside it): what
    /// the memo's kept things compare to know that nothing moved since they looked, without
    /// holding the layout itself (so that it can be updated in place once nothing does).
    pub(crate) id: u64,
    /// Per unit: its hex index + 1 (0 off the map) times 2, plus 1 if reduced: the position
    /// this layout was built from.
    pub(crate) key: Vec<u32>,
    /// The side of the units in each hex (sides never share a hex).
    side_at: Vec<Option<Side>>,
    count: Vec<u8>,
    /// The units of hex `h` are `ids[first[h]..first[h] + count[h]]`, in unit order.
    first: Vec<u32>,
    ids: Vec<UnitId>,
    /// The hex of each unit of `ids` (so that `ids` is in hex order, then unit order).
    at: Vec<Hex>,
    /// Per side: whether each hex is an enemy ZOC Bond hex for that side's units.
    pub(crate) enemy_bond: [Vec<bool>; 2],
    /// Per side: the enemy ZOC Bond hexes for that side's units, in hex order.
    pub(crate) bond_hexes: [Vec<Hex>; 2],
    /// Per side: the hexes its units hold, in hex order.
    pub(crate) occupied: [Vec<Hex>; 2],
    /// Per side: whether each hex is adjacent to a unit of that side's enemy.
    near_enemy: [Vec<bool>; 2],
    /// Per side: the bonds its posts could hold (1.2), among which its ZOC Bonds are chosen:
    /// kept, and found again only near the hexes where units came or went.
    cands: [Candidates; 2],
}

/// Two layouts are equal if they say the same of the same position, whatever their numbers.
impl PartialEq for Layout {
    fn eq(&self, o: &Layout) -> bool {
        self.key == o.key
            && self.side_at == o.side_at
            && self.count == o.count
            && self.first == o.first
            && self.ids == o.ids
            && self.at == o.at
            && self.enemy_bond == o.enemy_bond
            && self.bond_hexes == o.bond_hexes
            && self.occupied == o.occupied
            && self.near_enemy == o.near_enemy
            && self.cands == o.cands
    }
}

/// How many units may have changed place or face for [`Layout::moved_from`] to update a
/// layout rather than build it afresh.
pub(crate) const MOVED_AT_MOST: usize = 16;

/// The key of a unit's place in a [`Layout`].
pub(crate) fn layout_key(u: &crate::state::UnitState) -> u32 {
    u.hex().map_or(0, |h| (h.0 as u32 + 1) * 2 + u32::from(u.reduced))
}

struct SideBonds<'b> {
    w: &'b World,
    s: &'b State,
    l: &'b Layout,
    count: &'b [u8],
    enemy: &'b [Hex],
    side: Side,
    /// The infantry steps of the side in each hex where it has some, in hex order (`None`:
    /// counted in each hex asked about, from its stack).
    infantry: Option<Vec<(Hex, u8)>>,
}

impl SideBonds<'_> {
    /// The side's infantry steps in `h` (1.2 (1)).
    fn steps(&self, h: Hex) -> u32 {
        if let Some(infantry) = &self.infantry {
            return match infantry.binary_search_by_key(&h, |&(x, _)| x) {
                Ok(i) => infantry[i].1 as u32,
                Err(_) => 0,
            };
        }
        let n = self.l.count[h.idx()] as usize;
        if n == 0 {
            return 0;
        }
        let first = self.l.first[h.idx()] as usize;
        self.l.ids[first..first + n]
            .iter()
            .map(|&u| {
                let def = &self.w.data.counters.units[u as usize];
                if def.side != self.side || !def.is_bond_infantry() {
                    0
                } else if self.s.units[u as usize].reduced {
                    1
                } else {
                    def.steps as u32
                }
            })
            .sum()
    }
}

impl BondBoard for SideBonds<'_> {
    fn is_post(&self, h: Hex) -> bool {
        // 1.2 (1), (7): 2 infantry steps, not in a City.
        self.steps(h) >= 2 && self.w.map.terrain(h) & self.w.t.city == 0
    }
    fn is_empty(&self, h: Hex) -> bool {
        self.count[h.idx()] == 0
    }
    fn bond_terrain(&self, h: Hex) -> bool {
        // Inventory A6: not terrain prohibited to foot units.
        self.w.costs.hex[self.side.seat() as usize][0][h.idx()].is_some()
    }
    fn bond_side(&self, a: Hex, b: Hex) -> bool {
        let Some(d) = self.w.map.grid.dir_to(a, b) else {
            return false;
        };
        self.w.costs.side[0][a.idx()][d as usize].is_some()
    }
    fn enemy_hexes(&self) -> &[Hex] {
        self.enemy
    }
    fn post_hexes(&self, _: &sandtable_core::hex::HexGrid) -> Vec<Hex> {
        let hexes = |infantry: &[(Hex, u8)]| infantry.iter().map(|&(h, _)| h).collect();
        match &self.infantry {
            Some(infantry) => hexes(infantry),
            None => hexes(&self.l.infantry(self.w, self.s)[self.side.seat() as usize]),
        }
    }
}

/// Each side's ZOC Bonds (by seat) in the position of `s`: found by the core's [`bonds`] and
/// by the search it replaced, which steps two hexes out of every post
/// ([`sandtable_core::bonds::bonds_by_steps`]), for the tests that check the two agree (1.2).
#[doc(hidden)]
pub fn bonds_both_ways(w: &World, s: &State) -> [(Vec<Bond>, Vec<Bond>); 2] {
    let l = Layout::build(w, s);
    let infantry = l.infantry(w, s);
    [Side::German, Side::Allied].map(|side| {
        let sb = l.side_bonds(w, s, side, Some(infantry[side.seat() as usize].clone()));
        (bonds(&w.map.grid, &sb), bonds_by_steps(&w.map.grid, &sb))
    })
}

impl Layout {
    /// An empty layout for a map of `n` hexes.
    fn empty(n: usize) -> Layout {
        Layout {
            id: 0,
            key: Vec::new(),
            side_at: vec![None; n],
            count: vec![0; n],
            first: vec![0; n],
            ids: Vec::new(),
            at: Vec::new(),
            enemy_bond: [vec![false; n], vec![false; n]],
            bond_hexes: [Vec::new(), Vec::new()],
            occupied: [Vec::new(), Vec::new()],
            near_enemy: [vec![false; n], vec![false; n]],
            cands: [Candidates::default(), Candidates::default()],
        }
    }

    /// The layout of the units of `s` on the map of `w`.
    pub fn build(w: &World, s: &State) -> Layout {
        Layout::build_in(w, s, None)
    }

    /// [`Layout::build`], in the memory of `old` (another position's layout on the same map)
    /// if there is one: only the hexes `old` set are cleared.
    pub(crate) fn build_in(w: &World, s: &State, old: Option<Layout>) -> Layout {
        let grid = &w.map.grid;
        let n = grid.len();
        let mut l = match old {
            Some(mut l) if l.side_at.len() == n => {
                for side in 0..2 {
                    for &h in &l.occupied[side] {
                        l.side_at[h.idx()] = None;
                        l.count[h.idx()] = 0;
                        l.first[h.idx()] = 0;
                        for (_, nb) in grid.neighbours(h) {
                            l.near_enemy[1 - side][nb.idx()] = false;
                        }
                    }
                    for &h in &l.bond_hexes[side] {
                        l.enemy_bond[side][h.idx()] = false;
                    }
                    l.occupied[side].clear();
                    l.bond_hexes[side].clear();
                }
                l.key.clear();
                l.ids.clear();
                l.at.clear();
                l
            }
            _ => Layout::empty(n),
        };
        let mut placed: Vec<(Hex, UnitId)> = Vec::with_capacity(s.units.len());
        for (i, u) in s.units.iter().enumerate() {
            l.key.push(layout_key(u));
            let Some(h) = u.hex() else { continue };
            let def = &w.data.counters.units[i];
            let side = def.side.seat() as usize;
            l.side_at[h.idx()] = Some(def.side);
            l.count[h.idx()] += 1;
            l.occupied[side].push(h);
            placed.push((h, i as UnitId));
        }
        // Each hex once, in hex order.
        for list in l.occupied.iter_mut() {
            list.sort_unstable();
            list.dedup();
        }
        // The units of each hex, in unit order.
        placed.sort_unstable();
        for (k, &(h, u)) in placed.iter().enumerate() {
            if k == 0 || placed[k - 1].0 != h {
                l.first[h.idx()] = k as u32;
            }
            l.ids.push(u);
            l.at.push(h);
        }
        // Units of the other side next to a held hex have an enemy adjacent.
        for side in [Side::German, Side::Allied] {
            let other = side.enemy().seat() as usize;
            for &h in &l.occupied[side.seat() as usize] {
                for (_, nb) in grid.neighbours(h) {
                    l.near_enemy[other][nb.idx()] = true;
                }
            }
        }
        l.find_bonds(w, s);
        l
    }

    /// The ZOC Bonds of both sides (1.2) of the units placed in this layout, into
    /// `enemy_bond` and `bond_hexes` (the ones there before cleared first).
    fn find_bonds(&mut self, w: &World, s: &State) {
        self.bonds_again(w, s, None);
    }

    /// The infantry steps of each side (by seat) in each hex where it has some, in hex order
    /// (`ids` is in hex order): what makes a ZOC Post (1.2 (1)).
    fn infantry(&self, w: &World, s: &State) -> [Vec<(Hex, u8)>; 2] {
        // Sized for every unit placed, so that neither list grows step by step.
        let mut infantry: [Vec<(Hex, u8)>; 2] =
            [Vec::with_capacity(self.ids.len()), Vec::with_capacity(self.ids.len())];
        for (&u, &h) in self.ids.iter().zip(&self.at) {
            let def = &w.data.counters.units[u as usize];
            if !def.is_bond_infantry() {
                continue;
            }
            let steps = if s.units[u as usize].reduced { 1 } else { def.steps };
            let list = &mut infantry[def.side.seat() as usize];
            match list.last_mut() {
                Some(last) if last.0 == h => last.1 += steps,
                _ => list.push((h, steps)),
            }
        }
        infantry
    }

    /// What the bond rules read of this layout for the posts of `side` (1.2).
    fn side_bonds<'b>(
        &'b self,
        w: &'b World,
        s: &'b State,
        side: Side,
        infantry: Option<Vec<(Hex, u8)>>,
    ) -> SideBonds<'b> {
        SideBonds {
            w,
            s,
            l: self,
            count: &self.count,
            enemy: &self.occupied[side.enemy().seat() as usize],
            side,
            infantry,
        }
    }

    /// The ZOC Bonds of both sides (1.2) found again: afresh (`moves` `None`), or from the
    /// bonds their posts could hold as kept, found again near the hexes where units came or
    /// went (`moves`: those hexes, and those of each side's units by seat).
    fn bonds_again(&mut self, w: &World, s: &State, moves: Option<(&[Hex], &[Vec<Hex>; 2])>) {
        let grid = &w.map.grid;
        // Found afresh, every post is looked for; found again, only the hexes near the moves
        // are asked about, each from its stack.
        let mut infantry = moves.is_none().then(|| self.infantry(w, s));
        for side in [Side::German, Side::Allied] {
            let seat = side.seat() as usize;
            let held_against = side.enemy().seat() as usize;
            let mut cands = std::mem::take(&mut self.cands[seat]);
            let sb = self.side_bonds(w, s, side, infantry.as_mut().map(|i| std::mem::take(&mut i[seat])));
            let again = match moves {
                None => {
                    cands = Candidates::build(grid, &sb);
                    true
                }
                Some((moved, by_side)) => cands.update(grid, &sb, moved, &by_side[held_against]),
            };
            let found: Vec<Hex> = if again {
                cands.bonds().into_iter().map(|b| b.hex).collect()
            } else {
                Vec::new()
            };
            self.cands[seat] = cands;
            if !again {
                continue;
            }
            for &h in &self.bond_hexes[held_against] {
                self.enemy_bond[held_against][h.idx()] = false;
            }
            self.bond_hexes[held_against].clear();
            for h in found {
                if !self.enemy_bond[held_against][h.idx()] {
                    self.enemy_bond[held_against][h.idx()] = true;
                    self.bond_hexes[held_against].push(h);
                }
            }
            self.bond_hexes[held_against].sort_unstable();
        }
    }

    /// The layout of the units of `s`, made from `prev` (the layout of a position on the same
    /// map where a few units stood elsewhere, or on their other face): `prev` copied into the
    /// memory of `old` (if there is one), then only the units whose place changed taken out of
    /// their old hexes and put into their new ones, and the ZOC Bonds found again. Built
    /// afresh ([`Layout::build_in`]) where many units moved, or where a hex would hold both
    /// sides.
    pub(crate) fn moved_from(prev: &Layout, old: Option<Layout>, w: &World, s: &State) -> Layout {
        let n = w.map.grid.len();
        let Some(changed) = prev.changed(w, s) else {
            return Layout::build_in(w, s, old);
        };
        let l = match old {
            Some(mut l) if l.side_at.len() == n => {
                l.copy_from(prev);
                l
            }
            _ => prev.clone(),
        };
        l.moved(w, s, &changed)
    }

    /// [`Layout::moved_from`] in this layout's own memory, when nothing else holds it: the
    /// units that moved are taken out and put in where they stand now, with no copy made.
    /// `logged`: the units that may have moved since this layout was made, if known (else
    /// every unit is looked at).
    pub(crate) fn move_on(self, w: &World, s: &State, logged: Option<&[UnitId]>) -> Layout {
        let changed = match logged {
            Some(units) if self.key.len() == s.units.len() && self.side_at.len() == w.map.grid.len() => {
                let mut changed: Vec<usize> = units
                    .iter()
                    .map(|&u| u as usize)
                    .filter(|&i| layout_key(&s.units[i]) != self.key[i])
                    .collect();
                changed.sort_unstable();
                changed.dedup();
                (changed.len() <= MOVED_AT_MOST).then_some(changed)
            }
            _ => self.changed(w, s),
        };
        match changed {
            Some(changed) => self.moved(w, s, &changed),
            None => Layout::build_in(w, s, Some(self)),
        }
    }

    /// The units whose place or face in `s` is not the one this layout has, if at most
    /// [`MOVED_AT_MOST`] and the layout is of the same map and units.
    fn changed(&self, w: &World, s: &State) -> Option<Vec<usize>> {
        if self.key.len() != s.units.len() || self.side_at.len() != w.map.grid.len() {
            return None;
        }
        let mut changed: Vec<usize> = Vec::new();
        for (i, (u, &k)) in s.units.iter().zip(&self.key).enumerate() {
            if layout_key(u) != k {
                if changed.len() == MOVED_AT_MOST {
                    return None;
                }
                changed.push(i);
            }
        }
        Some(changed)
    }

    /// This layout with units `changed` moved to where they stand in `s` and the ZOC Bonds
    /// they can touch found again; built afresh where a hex would hold both sides.
    fn moved(mut self, w: &World, s: &State, changed: &[usize]) -> Layout {
        let before: Vec<u32> = changed.iter().map(|&i| self.key[i]).collect();
        if self.shift(w, s, changed) {
            // The hexes units came to or left, all and by side (seat).
            let mut moved: Vec<Hex> = Vec::with_capacity(changed.len() * 2);
            let mut by_side: [Vec<Hex>; 2] = [Vec::new(), Vec::new()];
            for (&i, &was) in changed.iter().zip(&before) {
                let seat = w.data.counters.units[i].side.seat() as usize;
                for k in [was, self.key[i]] {
                    if k != 0 {
                        let h = Hex((k / 2 - 1) as u16);
                        moved.push(h);
                        by_side[seat].push(h);
                    }
                }
            }
            moved.sort_unstable();
            moved.dedup();
            self.bonds_again(w, s, Some((&moved, &by_side)));
            self
        } else {
            Layout::build_in(w, s, None)
        }
    }

    /// [`Layout::moved_from`]: units `changed` taken out of the hexes this layout has them in
    /// and put into their hexes in `s`, the ZOC Bonds left as they were; false if a hex would
    /// hold both sides (what [`Layout::build_in`] does then is left to it).
    fn shift(&mut self, w: &World, s: &State, changed: &[usize]) -> bool {
        let grid = &w.map.grid;
        let side_of = |u: usize| w.data.counters.units[u].side;
        // Where `ids` holds unit `u` of hex `h`, or would.
        let place = |l: &Layout, h: Hex, u: UnitId| {
            let first = l.at.partition_point(|&x| x < h);
            first + l.ids[first..first + l.count[h.idx()] as usize].partition_point(|&x| x < u)
        };
        // A hex whose units are not all of `side`.
        let mixed = |l: &Layout, h: Hex, side: Side| {
            let first = l.at.partition_point(|&x| x < h);
            l.ids[first..first + l.count[h.idx()] as usize]
                .iter()
                .any(|&o| side_of(o as usize) != side)
        };
        // Out of their old hexes first, then into their new ones.
        for &i in changed {
            let k = self.key[i];
            if k == 0 {
                continue;
            }
            let h = Hex((k / 2 - 1) as u16);
            let side = side_of(i);
            let seat = side.seat() as usize;
            if mixed(self, h, side) {
                return false;
            }
            let at = place(self, h, i as UnitId);
            if self.ids.get(at) != Some(&(i as UnitId)) {
                return false;
            }
            self.ids.remove(at);
            self.at.remove(at);
            self.count[h.idx()] -= 1;
            if self.count[h.idx()] == 0 {
                self.side_at[h.idx()] = None;
                self.first[h.idx()] = 0;
                if let Ok(j) = self.occupied[seat].binary_search(&h) {
                    self.occupied[seat].remove(j);
                }
                // The hexes next to it keep an enemy adjacent only if another hex of the
                // side is next to them.
                let other = side.enemy().seat() as usize;
                for (_, nb) in grid.neighbours(h) {
                    self.near_enemy[other][nb.idx()] =
                        grid.neighbours(nb).any(|(_, x)| self.side_at[x.idx()] == Some(side));
                }
            }
        }
        for &i in changed {
            let k = layout_key(&s.units[i]);
            self.key[i] = k;
            if k == 0 {
                continue;
            }
            let h = Hex((k / 2 - 1) as u16);
            let side = side_of(i);
            let seat = side.seat() as usize;
            if mixed(self, h, side) {
                return false;
            }
            let at = place(self, h, i as UnitId);
            self.ids.insert(at, i as UnitId);
            self.at.insert(at, h);
            if self.count[h.idx()] == 0 {
                self.side_at[h.idx()] = Some(side);
                if let Err(j) = self.occupied[seat].binary_search(&h) {
                    self.occupied[seat].insert(j, h);
                }
                let other = side.enemy().seat() as usize;
                for (_, nb) in grid.neighbours(h) {
                    self.near_enemy[other][nb.idx()] = true;
                }
            }
            self.count[h.idx()] += 1;
        }
        for k in 0..self.at.len() {
            if k == 0 || self.at[k - 1] != self.at[k] {
                self.first[self.at[k].idx()] = k as u32;
            }
        }
        true
    }

    /// This layout made a copy of `from`, in its own memory.
    fn copy_from(&mut self, from: &Layout) {
        fn copy<T: Copy>(to: &mut Vec<T>, from: &[T]) {
            to.clear();
            to.extend_from_slice(from);
        }
        copy(&mut self.key, &from.key);
        copy(&mut self.side_at, &from.side_at);
        copy(&mut self.count, &from.count);
        copy(&mut self.first, &from.first);
        copy(&mut self.ids, &from.ids);
        copy(&mut self.at, &from.at);
        for side in 0..2 {
            copy(&mut self.enemy_bond[side], &from.enemy_bond[side]);
            copy(&mut self.bond_hexes[side], &from.bond_hexes[side]);
            copy(&mut self.occupied[side], &from.occupied[side]);
            copy(&mut self.near_enemy[side], &from.near_enemy[side]);
            self.cands[side].clone_from(&from.cands[side]);
        }
    }

    /// Whether this layout is that of the units of `s`.
    pub(crate) fn fits(&self, s: &State) -> bool {
        self.key.len() == s.units.len() && s.units.iter().zip(&self.key).all(|(u, &k)| layout_key(u) == k)
    }
}

impl<'a> Board<'a> {
    /// The position of `s`, its layout taken from the state's memo when the units have not
    /// moved since it was built.
    pub fn new(w: &'a World, s: &'a State) -> Board<'a> {
        Board {
            w,
            s,
            l: OnceCell::new(),
            area: s.area.as_deref().map(|a| a.as_slice()),
            roads: OnceCell::new(),
            marker_mp: OnceCell::new(),
            reaches_checked: std::cell::Cell::new([false; 2]),
        }
    }

    /// [`Self::road_link`] of the hexside of `h` toward `d` as a code: [`NO_LINK`],
    /// [`ROAD_LINK`] or [`TRACK_LINK`]; looked up in a table of every hexside worked out
    /// once per turn and set of blown bridges (kept in the state's memo).
    #[inline]
    pub fn link(&self, h: Hex, d: Dir) -> u8 {
        self.roads()[h.idx()][d as usize]
    }

    /// The table of [`Self::link`], taken from the state's memo when first needed (the memo
    /// takes it before it locks itself to search, as it does the layout).
    pub(crate) fn roads(&self) -> &crate::memo::RoadLinks {
        self.roads.get_or_init(|| {
            // 1.3: the links with every bridge standing, less the bridges that do not stand
            // today or are blown (3.8).
            self.s.memo.roads(self.w, self.s, || {
                let mut links = self.w.links.clone();
                for &(h, d) in &self.w.bridged {
                    if !self.bridge_usable(h, d) {
                        links[h.idx()][d as usize] = NO_LINK;
                    }
                }
                links
            })
        })
    }

    pub(crate) fn layout(&self) -> &Arc<Layout> {
        self.l.get_or_init(|| self.s.memo.layout(self.w, self.s))
    }

    /// 7.0: whether `h` is in the scenario's playing area.
    pub fn in_area(&self, h: Hex) -> bool {
        self.area.is_none_or(|a| a[h.idx()])
    }

    pub fn def(&self, u: UnitId) -> &'a UnitDef {
        &self.w.data.counters.units[u as usize]
    }

    pub fn side_at(&self, h: Hex) -> Option<Side> {
        self.layout().side_at[h.idx()]
    }

    pub fn count(&self, h: Hex) -> u8 {
        self.layout().count[h.idx()]
    }

    /// The units in a hex, in unit order.
    pub fn stack(&self, h: Hex) -> &[UnitId] {
        let l = self.layout();
        let n = l.count[h.idx()] as usize;
        if n == 0 {
            return &[];
        }
        let first = l.first[h.idx()] as usize;
        &l.ids[first..first + n]
    }

    /// The units in a hex, in unit order.
    pub fn units_at(&self, h: Hex) -> Vec<UnitId> {
        self.stack(h).to_vec()
    }

    /// The hexes the units of `side` hold, in hex order.
    pub fn held_by(&self, side: Side) -> &[Hex] {
        &self.layout().occupied[side.seat() as usize]
    }

    pub fn enemy_in(&self, side: Side, h: Hex) -> bool {
        self.layout().side_at[h.idx()] == Some(side.enemy())
    }

    /// 1.2: a hex adjacent to a unit of the enemy of `side`.
    pub fn enemy_adjacent(&self, side: Side, h: Hex) -> bool {
        self.layout().near_enemy[side.seat() as usize][h.idx()]
    }

    /// 1.2: an enemy ZOC Bond hex for units of `side`.
    pub fn enemy_bond(&self, side: Side, h: Hex) -> bool {
        self.layout().enemy_bond[side.seat() as usize][h.idx()]
    }

    /// The ZOC Bond hexes `side`'s posts hold (1.2).
    pub fn bond_hexes(&self, side: Side) -> Vec<Hex> {
        let held_against = side.enemy().seat() as usize;
        self.w
            .map
            .grid
            .hexes()
            .filter(|h| self.layout().enemy_bond[held_against][h.idx()])
            .collect()
    }

    /// Full barrage markers in `h` fired by `by`.
    pub fn full_markers(&self, h: Hex, by: Side) -> u8 {
        self.s
            .markers
            .iter()
            .filter(|m| m.hex == h && m.side == by)
            .map(|m| m.full)
            .sum()
    }

    /// 3.5: the MP an enemy marker costs to enter or to leave `h` for units of `side`.
    fn enemy_marker_mp(&self, side: Side, h: Hex) -> u32 {
        let n = self.full_markers(h, side.enemy());
        self.marker_effect(n).map_or(0, |e| e.mp as u32)
    }

    fn marker_effect(&self, full: u8) -> Option<&'a crate::data::tables::MarkerEffect> {
        if full == 0 {
            return None;
        }
        let rows = &self.w.data.tables.enemy_markers;
        rows.iter().rev().find(|r| full >= r.full_markers)
    }

    /// Whether the road of the hexside of `h` toward `d` may be followed (1.3): a road or track
    /// crosses it, and if water runs along it, a bridge stands there today and is not blown.
    pub fn road_link(&self, h: Hex, d: Dir) -> Option<&'static str> {
        let road = self.w.road_across(h, d)?;
        if !self.w.water(h, d) {
            return Some(road);
        }
        if !self.bridge_usable(h, d) {
            return None;
        }
        Some(self.w.near_side_road(h, d, road))
    }

    /// 3.8: a bridge across this hexside stands on this turn and its demolition symbol has not
    /// blown it.
    pub fn bridge_usable(&self, h: Hex, d: Dir) -> bool {
        if !self.w.bridge(h, d, self.s.turn) {
            return false;
        }
        match self.w.side_symbol[h.idx()][d as usize] {
            Some(i) => !self.s.blown.contains(&self.w.demolitions[i as usize].0),
            None => true,
        }
    }

    /// 3.1: traffic jams exist on turns 1 and 2 only.
    pub fn jams_active(&self) -> bool {
        self.s.turn <= 2
    }

    pub fn traffic_jam(&self, h: Hex) -> bool {
        self.jams_active() && self.w.map.terrain(h) & self.w.t.traffic_jam != 0
    }

    /// The half-MP cost for unit `u` to step from `from` into `to` (direction `d`), or `None`
    /// if it may not (TEC, 1.3, 3.1, 3.5, 3.6).
    pub fn step_cost(&self, u: UnitId, from: Hex, d: Dir, to: Hex) -> Option<u32> {
        self.step(u, from, d, to).ok()
    }

    /// The half-MP cost for unit `u` to step from `from` into `to` (direction `d`), or what
    /// bars the step ([`barred`]).
    pub fn step(&self, u: UnitId, from: Hex, d: Dir, to: Hex) -> Result<u32, Why> {
        self.pricing(u).step(from, d, to)
    }

    /// What a step of unit `u` reads of this position, taken out once for a whole search.
    pub(crate) fn pricing(&self, u: UnitId) -> Pricing<'_, 'a> {
        let def = self.def(u);
        let side = def.side;
        let seat = side.seat() as usize;
        let m = match def.movement {
            Movement::Foot => 0,
            Movement::Mech => 1,
        };
        let l = self.layout();
        let costs = &self.w.costs;
        let extras = &self.w.data.tables.tec.movement;
        Pricing {
            b: self,
            u,
            side,
            side_at: &l.side_at,
            area: self.area,
            artillery: def.is_artillery(),
            near_enemy: &l.near_enemy[seat],
            bond: &l.enemy_bond[seat],
            links: self.roads(),
            hex_cost: &costs.hex[seat][m],
            side_cost: &costs.side[m],
            road: [costs.road[0][m] as u32, costs.road[1][m] as u32],
            zoc_bond: extras.enemy_zoc_bond as u32 * 2,
            adjacent: extras.moving_adjacently as u32 * 2,
            jams: side == Side::German && self.jams_active(),
            markers: self.marker_mp(),
        }
    }

    /// [`Board::marker_mp`]: for each hex with markers, for each side, [`Self::full_markers`]
    /// of its own side's and [`Self::enemy_marker_mp`] as a step prices them.
    /// `None` without markers on the map.
    pub(crate) fn marker_mp(&self) -> Option<&[[[u16; 2]; 2]]> {
        if self.s.markers.is_empty() {
            return None;
        }
        let mp = self
            .marker_mp
            .get_or_init(|| self.s.memo.marker_mp(self.w, self.s, || self.marker_mp_afresh()));
        Some(mp)
    }

    /// [`Board::marker_mp`] worked out afresh.
    pub(crate) fn marker_mp_afresh(&self) -> Vec<[[u16; 2]; 2]> {
        let mut mp = vec![[[0; 2]; 2]; self.w.map.grid.len()];
        let friendly = self.w.data.tables.friendly_marker_mp as u32 * 2;
        for m in &self.s.markers {
            for side in [Side::German, Side::Allied] {
                let enter = if self.full_markers(m.hex, side) > 0 {
                    friendly
                } else {
                    0
                };
                // 3.5: enemy markers cost to enter and again to leave.
                let enemy = self.enemy_marker_mp(side, m.hex) * 2;
                mp[m.hex.idx()][side.seat() as usize] = [(enter + enemy) as u16, enemy as u16];
            }
        }
        mp
    }

    /// [`Self::step`] read from the board question by question: the test of [`Pricing`].
    #[cfg(test)]
    pub(crate) fn step_by_rules(&self, u: UnitId, from: Hex, d: Dir, to: Hex) -> Result<u32, Why> {
        let def = self.def(u);
        let side = def.side;
        if self.enemy_in(side, to) {
            return Err(barred::ENEMY);
        }
        if !self.in_area(to) {
            return Err(barred::OUTSIDE);
        }
        // 3.6: artillery may not voluntarily enter a hex adjacent to an enemy unit.
        if def.is_artillery() && self.enemy_adjacent(side, to) {
            return Err(barred::ARTILLERY_NEAR_ENEMY);
        }
        let tec = &self.w.data.tables.tec;
        let m = match def.movement {
            Movement::Foot => 0,
            Movement::Mech => 1,
        };
        // 3.1: a traffic jam held by Germans is closed to other Germans, road or not; on data
        // edition 3, not to the units of the stack that moved into it together.
        if side == Side::German
            && self.traffic_jam(to)
            && self.side_at(to) == Some(Side::German)
            && !self.with_jam_stack(u, to)
        {
            return Err(barred::JAM_HELD);
        }
        let costs = &self.w.costs;
        let base = match self.link(from, d) {
            // 1.3 (a): along a continuous road only the road's cost.
            ROAD_LINK => costs.road[0][m] as u32,
            TRACK_LINK => costs.road[1][m] as u32,
            _ => {
                let hex = costs.hex[side.seat() as usize][m][to.idx()].ok_or(barred::TERRAIN)?;
                let across = costs.side[m][from.idx()][d as usize].ok_or(barred::HEXSIDE)?;
                (hex + across) as u32
            }
        };
        let extras = &tec.movement;
        // TEC note 3, inventory A8: an enemy bond costs +4, not +4 and +1.
        let situational = if self.enemy_bond(side, to) {
            extras.enemy_zoc_bond as u32 * 2
        } else if self.enemy_adjacent(side, from) && self.enemy_adjacent(side, to) {
            extras.moving_adjacently as u32 * 2
        } else {
            0
        };
        let friendly = if self.full_markers(to, side) > 0 {
            self.w.data.tables.friendly_marker_mp as u32 * 2
        } else {
            0
        };
        // 3.5: enemy markers cost to enter and again to leave.
        let enemy = (self.enemy_marker_mp(side, to) + self.enemy_marker_mp(side, from)) * 2;
        Ok(base + situational + friendly + enemy)
    }

    /// 3.1 (data edition 3): whether German unit `u` belongs to the stack moving together
    /// into the traffic jam at `jam` this phase, and the jam holds no other unit: it may
    /// follow the stack in (RULINGS).
    pub fn with_jam_stack(&self, u: UnitId, jam: Hex) -> bool {
        self.s
            .jam_stacks
            .iter()
            .any(|j| j.jam == jam && j.units.contains(&u) && self.stack(jam).iter().all(|o| j.units.contains(o)))
    }

    /// A unit's movement allowance in half MP: halved when DG (3.4; DG does not prorate MP
    /// already spent).
    pub fn allowance(&self, u: UnitId) -> u32 {
        let st = &self.s.units[u as usize];
        let ma = self.def(u).face(st.reduced).ma as u32 * 2;
        if st.dg {
            ma / 2
        } else {
            ma
        }
    }

    /// Every hex unit `u` can reach with the MP it has left, into `search` (costs in half MP).
    /// A traffic jam stops a German unit (3.1: it becomes DG on entering).
    pub fn reach(&self, u: UnitId, search: &mut Search) -> Option<Hex> {
        let st = &self.s.units[u as usize];
        let left = self.allowance(u).saturating_sub(st.spent as u32);
        self.reach_within(u, left, search)
    }

    /// Every hex unit `u` could reach from where it stands spending at most `limit` half MP,
    /// into `search`, with what barred each step refused ([`barred`]).
    pub fn reach_within(&self, u: UnitId, limit: u32, search: &mut Search) -> Option<Hex> {
        let start = self.s.units[u as usize].hex()?;
        let german = self.def(u).side == Side::German;
        let pricing = self.pricing(u);
        search.run(&self.w.map.grid, &[(start, 0)], limit, |from, d, to| {
            match pricing.step(from, d, to) {
                Err(why) => Step::Blocked(why),
                Ok(c) if german && self.traffic_jam(to) => Step::Stop(c),
                Ok(c) => Step::Go(c),
            }
        });
        Some(start)
    }

    /// SCS 6.0, 3.1 (data edition 3): the half-MP cost for the stack `units` moving together to
    /// step from `from` into `to`: the dearest of its units' costs, or the first unit (and what)
    /// a step barred to any of them bars (RULINGS, "A stack moving together").
    pub fn stack_step(&self, units: &[UnitId], from: Hex, d: Dir, to: Hex) -> Result<u32, (UnitId, Why)> {
        let mut most = 0;
        for &u in units {
            most = most.max(self.step(u, from, d, to).map_err(|why| (u, why))?);
        }
        Ok(most)
    }

    /// The half MP the stack `units` moving together has left: the fewest any of its units has
    /// left (RULINGS, "A stack moving together").
    pub fn stack_left(&self, units: &[UnitId]) -> u32 {
        units
            .iter()
            .map(|&u| self.allowance(u).saturating_sub(self.s.units[u as usize].spent as u32))
            .min()
            .unwrap_or(0)
    }

    /// Every hex the stack `units` moving together could reach from the hex of its first unit
    /// spending at most `limit` half MP, into `search`: each step priced at the dearest of its
    /// units' costs, barred if barred to any, a traffic jam stopping German units (3.1).
    pub fn reach_stack_within(&self, units: &[UnitId], limit: u32, search: &mut Search) -> Option<Hex> {
        let start = self.s.units[*units.first()? as usize].hex()?;
        let german = self.def(units[0]).side == Side::German;
        let pricings: Vec<Pricing> = units.iter().map(|&u| self.pricing(u)).collect();
        // [`Self::stack_step`], each unit's step priced from its tables.
        let stack_step = |from: Hex, d: Dir, to: Hex| -> Result<u32, Why> {
            let mut most = 0;
            for p in &pricings {
                most = most.max(p.step(from, d, to)?);
            }
            Ok(most)
        };
        search.run(&self.w.map.grid, &[(start, 0)], limit, |from, d, to| {
            match stack_step(from, d, to) {
                Err(why) => Step::Blocked(why),
                Ok(c) if german && self.traffic_jam(to) => Step::Stop(c),
                Ok(c) => Step::Go(c),
            }
        });
        Some(start)
    }

    /// The hexes the stack `units` moving together can enter with the MP it has left and
    /// their costs in half MP, in hex order (its own hex excluded): [`Self::stack_reach`],
    /// kept in the state's memo while nothing it depends on changes.
    pub fn stack_destinations(&self, units: &[UnitId], search: &mut Search) -> crate::memo::Reach {
        self.s.memo.stack_reach(self, units, search)
    }

    /// The hexes the stack `units` moving together can enter with the MP it has left and
    /// their costs in half MP, in hex order (its own hex excluded), worked out afresh.
    pub fn stack_reach(&self, units: &[UnitId], search: &mut Search) -> Vec<(Hex, u32)> {
        let start = self.reach_stack_within(units, self.stack_left(units), search);
        reached_from(start, search)
    }

    /// The hexes unit `u` can enter with the MP it has left and their costs in half MP, in hex
    /// order (its own hex excluded), worked out afresh: what [`Self::destinations`] keeps.
    pub fn reach_list(&self, u: UnitId, search: &mut Search) -> Vec<(Hex, u32)> {
        let start = self.reach(u, search);
        reached_from(start, search)
    }

    /// The hexes unit `u` can enter with the MP it has left and their costs in half MP, in hex
    /// order (its own hex excluded): [`Self::reach`], kept in the state's memo while nothing
    /// it depends on changes.
    pub fn destinations(&self, u: UnitId, search: &mut Search) -> crate::memo::Reach {
        self.s.memo.reach(self, u, search)
    }

    /// A unit's attack or defence in eighths: halved when DG (3.4), and by the enemy's Full
    /// markers in its hex (3.5), the two multiplied (inventory A5).
    pub fn strength(&self, u: UnitId, attack: bool) -> u32 {
        let st = &self.s.units[u as usize];
        let def = self.def(u);
        let face = def.face(st.reduced);
        let mut v = if attack { face.attack } else { face.defence } as u32 * EIGHTHS;
        if st.dg {
            v /= 2;
        }
        if let Some(h) = st.hex() {
            if let Some(e) = self.marker_effect(self.full_markers(h, def.side.enemy())) {
                let f = if attack { e.attack } else { e.defence };
                v = v * f.num as u32 / f.den.max(1) as u32;
            }
        }
        v
    }

    /// The supply hexes of `side` on the whole map: the road hexes of its friendly map edges
    /// (1.3).
    pub fn edge_sources(&self, side: Side) -> Vec<Hex> {
        let w = self.w;
        let road_mask = w.s.road | w.s.track;
        w.map
            .grid
            .hexes()
            .filter(|&h| w.friendly_edge(side, h) && w.map.any_side(h, road_mask))
            .collect()
    }

    /// 3.7: whether each hex is in supply for `side`: at most 5 hexes from a road that leads
    /// to one of `sources`, along a path that enters no enemy unit and no foot-prohibited hex or
    /// hexside unless a road crosses it. Two breadth-first floods over the map's neighbour
    /// rows and the kept table of road links, with buffers kept per thread (`search` is not
    /// used): the road hexes joined to a source (3.7 (A)), then up to 5 hexes off them.
    pub fn supply_from(&self, side: Side, sources: &[Hex], _search: &mut Search) -> Vec<bool> {
        let w = self.w;
        let grid = &w.map.grid;
        let n = grid.len();
        let words = n.div_ceil(64);
        let links = &self.roads()[..];
        let bond = &self.layout().enemy_bond[side.seat() as usize][..];
        let bit = |i: usize| (i / 64, 1u64 << (i % 64));
        let mut on = vec![false; n];
        SUPPLY_FLOOD.with(|f| {
            let f = &mut *f.borrow_mut();
            let SupplyFlood {
                seen,
                reached,
                front,
                next_road,
                next_foot,
                jammed,
                moved,
                road_steps,
                queue,
            } = f;
            for set in [&mut *seen, &mut *reached, &mut *jammed] {
                set.clear();
                set.resize(words, 0);
            }
            queue.clear();
            // No trace enters an enemy unit: its hexes count as seen from the start.
            for &h in self.held_by(side.enemy()) {
                if self.enemy_in(side, h) {
                    let (i, b) = bit(h.idx());
                    seen[i] |= b;
                }
            }
            for &h in sources {
                let (i, b) = bit(h.idx());
                if seen[i] & b == 0 {
                    seen[i] |= b;
                    queue.push(h.0);
                }
            }
            // 3.7 (A): along road or track, into no enemy unit and no enemy bond (A21); a
            // blown bridge is no link.
            let mut head = 0;
            while let Some(&from) = queue.get(head) {
                head += 1;
                let row = links[from as usize];
                for (code, &to) in row.iter().zip(grid.neighbour_row(Hex(from))) {
                    if *code == NO_LINK || to == NO_HEX {
                        continue;
                    }
                    let (i, b) = bit(to as usize);
                    if seen[i] & b != 0 || bond[to as usize] {
                        continue;
                    }
                    seen[i] |= b;
                    queue.push(to);
                }
            }
            for &h in queue.iter() {
                let (i, b) = bit(h as usize);
                reached[i] |= b;
            }
            self.road_steps(road_steps);
            // 3.1: a traffic jam German units hold is closed "to all other German units": the
            // German trace reaches its occupants off the road but goes no farther.
            if side == Side::German && self.jams_active() {
                for &h in self.held_by(Side::German) {
                    if self.side_at(h) == Some(Side::German) && self.traffic_jam(h) {
                        let (i, b) = bit(h.idx());
                        jammed[i] |= b;
                    }
                }
            }
            // Then at most 5 hexes from those roads, one step at a time for all the hexes
            // reached by the last: along road or track, or where foot units may go (the TEC's
            // P closes the rest).
            front.clone_from(reached);
            for _ in 0..5 {
                spread(front, road_steps, next_road, moved);
                spread(front, &w.costs.foot_steps[side.seat() as usize], next_foot, moved);
                let mut any = false;
                for i in 0..words {
                    let fresh = (next_road[i] | (next_foot[i] & !jammed[i])) & !seen[i];
                    reached[i] |= fresh | (next_foot[i] & jammed[i] & !seen[i]);
                    seen[i] |= fresh;
                    front[i] = fresh;
                    any |= fresh != 0;
                }
                if !any {
                    break;
                }
            }
            for (i, on) in on.iter_mut().enumerate() {
                let (w, b) = bit(i);
                *on = reached[w] & b != 0;
            }
        });
        self.air_supply_to(side, &mut on);
        on
    }

    /// The steps along road or track today ([`Self::link`]) into `out`: those of the map less
    /// its bridges that do not stand or are blown (3.8).
    pub(crate) fn road_steps(&self, out: &mut Steps) {
        let w = self.w;
        let grid = &w.map.grid;
        let links = &self.roads()[..];
        out.clone_from(&w.road_steps);
        for &(h, d) in &w.bridged {
            let to = grid.neighbour_row(h)[d as usize];
            if links[h.idx()][d as usize] == NO_LINK && to != NO_HEX {
                let k = to as isize - h.0 as isize;
                if let Some((_, set)) = out.iter_mut().find(|(o, _)| *o == k) {
                    set[h.idx() / 64] &= !(1 << (h.idx() % 64));
                }
            }
        }
    }

    /// 3.7 (B): US units within 5 hexes of an Air Supply marker, whatever lies between.
    fn air_supply_to(&self, side: Side, on: &mut [bool]) {
        if side == Side::Allied {
            let grid = &self.w.map.grid;
            for &m in &self.s.air_supply {
                for h in grid.hexes() {
                    if grid.distance(m, h) <= 5 {
                        on[h.idx()] = true;
                    }
                }
            }
        }
    }

    /// 3.7 (A): the road hexes that lead along continuous road to one of `sources` (the
    /// side's supply hexes: its map edges, or the scenario's) without obstruction: no enemy
    /// unit, no enemy bond (inventory A21), no blown bridge.
    #[cfg(test)]
    fn supplied_roads_by_search(&self, side: Side, sources: &[Hex], search: &mut Search) -> Vec<bool> {
        let w = self.w;
        let n = w.map.grid.len();
        let sources: Vec<(Hex, u32)> = sources
            .iter()
            .filter(|&&h| !self.enemy_in(side, h))
            .map(|&h| (h, 0))
            .collect();
        search.run_breadth_first(&w.map.grid, &sources, u32::MAX - 1, |from, d, to| {
            if self.link(from, d) == NO_LINK || self.enemy_in(side, to) || self.enemy_bond(side, to) {
                Step::Blocked(Why::NONE)
            } else {
                Step::Go(1)
            }
        });
        let mut on = vec![false; n];
        for h in search.reached() {
            on[h.idx()] = true;
        }
        on
    }

    /// [`Board::supply_from`] by the core's general search, step by step: the trace the flood
    /// is tested against.
    #[cfg(test)]
    pub(crate) fn supply_by_search(&self, side: Side, sources: &[Hex], search: &mut Search) -> Vec<bool> {
        let w = self.w;
        let roads = self.supplied_roads_by_search(side, sources, search);
        let sources: Vec<(Hex, u32)> = w.map.grid.hexes().filter(|h| roads[h.idx()]).map(|h| (h, 0)).collect();
        let foot_hex = &w.costs.hex[side.seat() as usize][0];
        let foot_side = &w.costs.side[0];
        search.run_breadth_first(&w.map.grid, &sources, 5, |from, d, to| {
            if self.enemy_in(side, to) {
                return Step::Blocked(Why::NONE);
            }
            // Closed to foot units (the TEC's P), unless a road crosses the hexside.
            let closed = foot_hex[to.idx()].is_none() || foot_side[from.idx()][d as usize].is_none();
            if closed && self.link(from, d) == NO_LINK {
                return Step::Blocked(Why::NONE);
            }
            // 3.1: a traffic jam German units hold is closed "to all other German units": the
            // trace reaches its own occupants but goes no farther off the road.
            if side == Side::German
                && self.traffic_jam(to)
                && self.side_at(to) == Some(Side::German)
                && self.link(from, d) == NO_LINK
            {
                return Step::Stop(1);
            }
            Step::Go(1)
        });
        let mut on = vec![false; w.map.grid.len()];
        for h in search.reached() {
            on[h.idx()] = true;
        }
        self.air_supply_to(side, &mut on);
        on
    }

    /// 3.7: whether `h` is within 5 hexes of an Air Supply marker.
    pub fn air_supplied(&self, h: Hex) -> bool {
        self.s.air_supply.iter().any(|&m| self.w.map.grid.distance(m, h) <= 5)
    }
}

/// The hexes a search from `start` reached, with their costs in half MP, in hex order, `start`
/// itself excluded; none when there was no search (`None`).
fn reached_from(start: Option<Hex>, search: &Search) -> Vec<(Hex, u32)> {
    let Some(start) = start else {
        return Vec::new();
    };
    let mut found: Vec<(Hex, u32)> = search
        .reached()
        .filter(|&h| h != start)
        .map(|h| (h, search.cost(h).unwrap_or(0)))
        .collect();
    found.sort_unstable();
    found
}

#[cfg(test)]
mod tests {
    use super::{barred, Board};
    use crate::state::UnitId;
    use crate::ArdennesII;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::{play_randomly_watching, Game, Rules};

    /// The price of every step near a unit ([`Board::step`], from the tables taken out once
    /// per unit) is at every decision of random games the one read from the board question by
    /// question (TEC, 1.3, 3.1, 3.5, 3.6): for a seventh of the units each decision in turn,
    /// every step out of every hex within 2 of it, barred or not, with barrage markers on the
    /// map and traffic jams on turns 1-2.
    #[test]
    fn a_step_priced_from_the_tables_taken_out_is_the_rules_price() {
        let (mut compared, mut refused, mut marked, mut jams) = (0, 0, 0, 0);
        for (scenario, seed, decisions) in [("campaign", 31, 600), ("goose-egg", 32, 500), ("peiper", 33, 300)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            let mut k = 0;
            play_randomly_watching(&mut g, &mut rng, decisions, |g| {
                let b = Board::new(&g.w, &g.s);
                let grid = &g.w.map.grid;
                k += 1;
                for u in (k % 7..g.s.units.len()).step_by(7) {
                    let Some(at) = g.s.units[u].hex() else { continue };
                    let u = u as UnitId;
                    for from in grid.within(at, 2) {
                        for (d, to) in grid.neighbours(from) {
                            let want = b.step_by_rules(u, from, d, to);
                            assert_eq!(
                                b.step(u, from, d, to),
                                want,
                                "{scenario} seed {seed}: unit {u} from {from:?} to {to:?}"
                            );
                            compared += 1;
                            refused += usize::from(want.is_err());
                            marked += usize::from(!g.s.markers.is_empty() && want.is_ok());
                            jams += usize::from(want == Err(barred::JAM_HELD));
                        }
                    }
                }
            })
            .expect("random play goes on");
        }
        assert!(
            compared > 100_000 && refused > 1000 && marked > 1000 && jams > 100,
            "{compared} steps, {refused} barred, {marked} with markers on the map, {jams} into held jams"
        );
    }
}

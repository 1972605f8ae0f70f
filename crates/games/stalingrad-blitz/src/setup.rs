//! The set-up (4.0) as decisions of the players, for scenarios that leave it to them (units
//! listed with `loc = "set-up"`): which hexes each set-up unit may take, the order in which the
//! units are set up, and the guard that keeps a set-up from running into a dead end.
//!
//! The order (4.0(2)–(4); RULINGS.md): every HQ on its printed HQ hex (4.0(2)), then the Axis
//! combat units (4.0(3)), then the Soviet Front Line (4.0(4)1), then the Soviet Second Line
//! (4.0(4)2); within each group in counter-manifest order. The player chooses each unit's hex.
//! Any complete set-up can be built in any order, so the fixed order takes no set-up away
//! from a player; it keeps every decision to one unit's hexes.
//!
//! The guard: a hex is offered only if all the units still to set up can then still be set
//! up with every constraint of 4.0 met — every Axis set-up hex holding a unit, every
//! front-line hex a front-line unit, at most two units a hex, one nationality a hex. Whether
//! they can is a flow problem (units to hexes, with lower and upper bounds on each hex), solved
//! exactly; nationality, which a flow cannot express, is settled by trying each nationality for
//! the hexes several could claim (none on the shipped map). The shipped map splits into small
//! independent parts (one per army, the front line, the towns behind it), and only the part the
//! unit belongs to is solved again for each hex; where a part holds one kind of unit (the Front
//! Line, the Second Line), counting needs against room is enough.

use crate::data::{Data, Entry, Nation, Side, UnitDef};
use crate::state::{Loc, State, UnitId};
use crate::StalingradBlitz;
use sandtable_core::game::{Mark, Refusal};
use sandtable_core::hex::Hex;
use sandtable_core::text;
use sandtable_core::text::Text;

/// Which part of 4.0 places a set-up unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SetupClass {
    /// 4.0(2): an HQ, on its printed HQ hex.
    Hq,
    /// 4.0(3): an Axis combat unit with a start front, on its army's set-up hexes.
    Army,
    /// 4.0(4)1: a Soviet "Front Line" unit, one on each front-line hex.
    FrontLine,
    /// 4.0(4)2: a Soviet "Second Line" unit, alone in a Soviet-controlled town or city.
    SecondLine,
}

/// The part of 4.0 that sets up a unit of this class.
pub fn setup_rule(class: Option<SetupClass>) -> &'static str {
    match class {
        Some(SetupClass::Hq) => "4.0(2)",
        Some(SetupClass::Army) => "4.0(3)",
        Some(SetupClass::FrontLine) => "4.0(4)1",
        Some(SetupClass::SecondLine) => "4.0(4)2",
        None => "4.0(5)",
    }
}

/// The set-up class of a counter from its entry information (2.21(2)4), if it has one.
pub fn setup_class(def: &UnitDef) -> Option<SetupClass> {
    match (def.side, def.entry) {
        (_, Entry::Setup) if def.is_hq() => Some(SetupClass::Hq),
        (Side::Axis, Entry::Setup) if def.front.is_some() => Some(SetupClass::Army),
        (Side::Soviet, Entry::FrontLine) => Some(SetupClass::FrontLine),
        (Side::Soviet, Entry::SecondLine) => Some(SetupClass::SecondLine),
        _ => None,
    }
}

// What may share a hex (3.1(2), 4.0(3), 4.0(4)2), as "modes" a hex can be in: the nationality
// of its Axis combat units, Soviet, or Soviet with a Second Line unit alone.
const GERMAN: u8 = 1;
const HUNGARIAN: u8 = 1 << 1;
const ROMANIAN: u8 = 1 << 2;
const ITALIAN: u8 = 1 << 3;
const AXIS_ANY: u8 = GERMAN | HUNGARIAN | ROMANIAN | ITALIAN;
const SOVIET: u8 = 1 << 4;
const SOVIET_ALONE: u8 = 1 << 5;
const ALL_MODES: u8 = AXIS_ANY | SOVIET | SOVIET_ALONE;

fn nation_mode(n: Nation) -> u8 {
    match n {
        Nation::German => GERMAN,
        Nation::Hungarian => HUNGARIAN,
        Nation::Romanian => ROMANIAN,
        Nation::Italian => ITALIAN,
        Nation::Soviet => SOVIET,
    }
}

/// The modes a unit may stand in: an Axis HQ with any Axis nationality ("司令部可", 4.0(3)),
/// an Axis combat unit with its own; a Soviet unit with Soviet units, a Second Line unit alone.
fn fits(def: &UnitDef) -> u8 {
    match (def.side, def.is_hq()) {
        (Side::Axis, true) => AXIS_ANY,
        (Side::Axis, false) => nation_mode(def.nation),
        (Side::Soviet, _) if setup_class(def) == Some(SetupClass::SecondLine) => SOVIET_ALONE,
        (Side::Soviet, _) => SOVIET,
    }
}

/// The modes a hex is left open to once the unit stands in it (a Second Line unit closes it).
fn leaves(def: &UnitDef) -> u8 {
    match fits(def) {
        SOVIET_ALONE => 0,
        m => m,
    }
}

/// Units of one set-up group are interchangeable for the set-up: the same class, the same
/// hexes, the same stacking rules (the German mechanised units of an army, say).
#[derive(Clone, Debug)]
pub struct SetupGroup {
    pub class: SetupClass,
    fits: u8,
    leaves: u8,
    /// The hexes the map names for the group (4.0(2)–(4)); Second Line units must also find
    /// the hex Soviet-controlled.
    pub hexes: Vec<Hex>,
}

/// The set-up groups of the counter manifest on a map, worked out once with the data.
#[derive(Clone, Debug, Default)]
pub struct SetupData {
    /// Per unit: its group, if it has set-up information.
    pub group_of: Vec<Option<u16>>,
    pub groups: Vec<SetupGroup>,
    /// Per hex: a front-line hex (4.0(4)1).
    pub front_line: Vec<bool>,
}

/// 4.0(2)–(4): the hexes the map names for a set-up unit: its HQ's printed HQ hex (hex set
/// `hq-<chit>`), its army's set-up hexes (`axis-<army>`; a German mechanised unit only those
/// with a panzer symbol, `panzer-symbol`), the front-line hexes (`soviet-front-line`), or for
/// the Second Line every town and city that is not a front-line hex (A38).
pub fn named_hexes(d: &Data, def: &UnitDef) -> Vec<Hex> {
    let m = &d.map;
    let land = |h: &Hex| m.terrain(*h) & (d.t.sea | d.t.impassable) == 0;
    let front = m.hex_set("soviet-front-line");
    let mut v: Vec<Hex> = match setup_class(def) {
        None => Vec::new(),
        Some(SetupClass::Hq) => m.hex_set(&format!("hq-{}", def.chit.as_deref().unwrap_or(""))).to_vec(),
        Some(SetupClass::Army) => {
            let army = m.hex_set(&format!("axis-{}", def.front.as_deref().unwrap_or("")));
            let panzer = m.hex_set("panzer-symbol");
            army.iter()
                .copied()
                .filter(|h| !(def.nation == Nation::German && def.mech) || panzer.contains(h))
                .collect()
        }
        Some(SetupClass::FrontLine) => front.to_vec(),
        Some(SetupClass::SecondLine) => m
            .grid
            .hexes()
            .filter(|h| d.is_urban[h.idx()] && !front.contains(h))
            .collect(),
    };
    v.retain(land);
    v.sort_unstable();
    v.dedup();
    v
}

impl SetupData {
    pub fn new(d: &Data) -> SetupData {
        let mut sd = SetupData {
            group_of: vec![None; d.units.len()],
            groups: Vec::new(),
            front_line: vec![false; d.map.grid.len()],
        };
        for h in d.map.hex_set("soviet-front-line") {
            sd.front_line[h.idx()] = true;
        }
        for (i, def) in d.units.iter().enumerate() {
            let Some(class) = setup_class(def) else { continue };
            let g = SetupGroup {
                class,
                fits: fits(def),
                leaves: leaves(def),
                hexes: named_hexes(d, def),
            };
            let at = sd
                .groups
                .iter()
                .position(|o| o.class == g.class && o.fits == g.fits && o.hexes == g.hexes);
            let at = at.unwrap_or_else(|| {
                sd.groups.push(g);
                sd.groups.len() - 1
            });
            sd.group_of[i] = Some(at as u16);
        }
        sd
    }
}

/// What a set-up must achieve, fixed when the scenario is read from the units it leaves to
/// the players.
#[derive(Clone, Debug, Default)]
pub struct SetupPlan {
    /// 4.0(3): hexes that must hold at least one unit: every set-up hex of every army that
    /// sets up units ("全部的初期配置格最低放置1枚单位").
    pub fill: Vec<Hex>,
    /// 4.0(4)1: hexes that must each receive a front-line unit, when the Front Line sets up.
    pub front: Vec<Hex>,
}

impl SetupPlan {
    pub fn new(d: &Data, units: &[crate::state::UnitState]) -> SetupPlan {
        let mut plan = SetupPlan::default();
        let land = |h: &Hex| d.map.terrain(*h) & (d.t.sea | d.t.impassable) == 0;
        let mut armies: Vec<&str> = Vec::new();
        for (i, st) in units.iter().enumerate() {
            if st.loc != Loc::SetUp {
                continue;
            }
            let def = &d.units[i];
            match setup_class(def) {
                Some(SetupClass::Army) => {
                    let army = def.front.as_deref().unwrap_or("");
                    if !armies.contains(&army) {
                        armies.push(army);
                        plan.fill
                            .extend(d.map.hex_set(&format!("axis-{army}")).iter().copied().filter(land));
                    }
                }
                Some(SetupClass::FrontLine) if plan.front.is_empty() => {
                    plan.front = d
                        .map
                        .hex_set("soviet-front-line")
                        .iter()
                        .copied()
                        .filter(land)
                        .collect();
                }
                _ => {}
            }
        }
        plan.fill.sort_unstable();
        plan.fill.dedup();
        plan
    }
}

/// The unit to set up next (4.0(2)–(4), in the order above), if any is left.
pub fn next_setup_unit(d: &Data, s: &State) -> Option<UnitId> {
    (0..s.units.len())
        .filter(|&i| s.units[i].loc == Loc::SetUp)
        .min_by_key(|&i| (setup_class(&d.units[i]), i))
        .map(|i| i as UnitId)
}

// ------------------------------------------------------------------------ the guard

/// What stands in a hex, as far as the set-up cares.
#[derive(Clone, Copy, Debug)]
struct Content {
    count: u8,
    /// The modes still open to the hex.
    modes: u8,
    /// It holds a front-line unit (4.0(4)1).
    front: bool,
}

impl Content {
    const EMPTY: Content = Content {
        count: 0,
        modes: ALL_MODES,
        front: false,
    };

    fn with(self, g: &SetupGroup) -> Content {
        Content {
            count: self.count + 1,
            modes: self.modes & g.leaves,
            front: self.front || g.class == SetupClass::FrontLine,
        }
    }

    /// How many units of group `g` the hex can still take (3.1(1), 4.0(3)–(4)).
    fn room_for(&self, g: &SetupGroup) -> u32 {
        if self.modes & g.fits == 0 {
            return 0;
        }
        let left = 2u32.saturating_sub(self.count as u32);
        match g.class {
            SetupClass::FrontLine if self.front => 0,
            SetupClass::FrontLine => left.min(1),
            SetupClass::SecondLine => (self.count == 0) as u32,
            _ => left,
        }
    }
}

/// A kind of unit still to set up: a set-up group and how many of it are left.
struct Kind {
    group: usize,
    count: u32,
    /// Indices (into `Problem::hexes`) of the hexes it may take by the map and city control.
    hexes: Vec<usize>,
    part: usize,
}

/// The set-up still to do, as a flow problem split into independent parts.
pub(crate) struct Problem<'a> {
    sd: &'a SetupData,
    kinds: Vec<Kind>,
    /// The hexes that matter: those some unit may take, and those that must be filled.
    hexes: Vec<Hex>,
    content: Vec<Content>,
    /// Per hex: must hold a unit (4.0(3)) / a front-line unit (4.0(4)1).
    fill: Vec<bool>,
    front: Vec<bool>,
    part_of_hex: Vec<usize>,
    parts: usize,
    /// Per part: its kinds and its hexes.
    part_kinds: Vec<Vec<usize>>,
    part_hexes: Vec<Vec<usize>>,
    /// Per map hex: its index in `hexes`, or `usize::MAX`.
    index: Vec<usize>,
    /// Most nationality choices tried for one part.
    max_choices: usize,
}

/// Most nationality choices tried for one part (see `Problem::part_feasible`).
const MAX_CHOICES: usize = 256;

impl<'a> Problem<'a> {
    pub(crate) fn new(d: &'a Data, s: &State, plan: &SetupPlan) -> Problem<'a> {
        let sd = &d.setup;
        let n = d.map.grid.len();
        let mut p = Problem {
            sd,
            kinds: Vec::new(),
            hexes: Vec::new(),
            content: Vec::new(),
            fill: Vec::new(),
            front: Vec::new(),
            part_of_hex: Vec::new(),
            parts: 0,
            part_kinds: Vec::new(),
            part_hexes: Vec::new(),
            index: vec![usize::MAX; n],
            max_choices: MAX_CHOICES,
        };
        let mut count = vec![0u32; sd.groups.len()];
        for (i, st) in s.units.iter().enumerate() {
            if st.loc == Loc::SetUp {
                if let Some(g) = sd.group_of[i] {
                    count[g as usize] += 1;
                }
            }
        }
        let add = |p: &mut Problem, h: Hex| -> usize {
            if p.index[h.idx()] == usize::MAX {
                p.index[h.idx()] = p.hexes.len();
                p.hexes.push(h);
            }
            p.index[h.idx()]
        };
        for (g, &c) in count.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let group = &sd.groups[g];
            let mut hexes = Vec::with_capacity(group.hexes.len());
            for &h in &group.hexes {
                // 4.0(4)2: Second Line units only in Soviet-controlled towns and cities.
                if group.class == SetupClass::SecondLine && s.control[h.idx()] != Some(Side::Soviet) {
                    continue;
                }
                hexes.push(add(&mut p, h));
            }
            p.kinds.push(Kind {
                group: g,
                count: c,
                hexes,
                part: 0,
            });
        }
        for &h in plan.fill.iter().chain(&plan.front) {
            add(&mut p, h);
        }
        p.content = vec![Content::EMPTY; p.hexes.len()];
        for (i, st) in s.units.iter().enumerate() {
            let Loc::Map(h) = st.loc else { continue };
            let at = p.index[h.idx()];
            if at == usize::MAX {
                continue;
            }
            let def = &d.units[i];
            let c = &mut p.content[at];
            c.count += 1;
            c.modes &= leaves(def);
            c.front |= setup_class(def) == Some(SetupClass::FrontLine);
        }
        p.fill = vec![false; p.hexes.len()];
        p.front = vec![false; p.hexes.len()];
        for &h in &plan.fill {
            p.fill[p.index[h.idx()]] = true;
        }
        for &h in &plan.front {
            p.front[p.index[h.idx()]] = true;
        }
        // The independent parts: kinds joined by the hexes they share.
        let k = p.kinds.len();
        let mut parent: Vec<usize> = (0..k + p.hexes.len()).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for (ki, kind) in p.kinds.iter().enumerate() {
            for &h in &kind.hexes {
                let (a, b) = (root(&mut parent, ki), root(&mut parent, k + h));
                parent[a] = b;
            }
        }
        let mut label = vec![usize::MAX; parent.len()];
        let mut part = |x: usize, parent: &mut [usize], parts: &mut usize| -> usize {
            let r = root(parent, x);
            if label[r] == usize::MAX {
                label[r] = *parts;
                *parts += 1;
            }
            label[r]
        };
        let mut parts = 0;
        for ki in 0..k {
            p.kinds[ki].part = part(ki, &mut parent, &mut parts);
        }
        p.part_of_hex = (0..p.hexes.len())
            .map(|h| part(k + h, &mut parent, &mut parts))
            .collect();
        p.parts = parts;
        p.part_kinds = vec![Vec::new(); parts];
        p.part_hexes = vec![Vec::new(); parts];
        for (ki, kind) in p.kinds.iter().enumerate() {
            p.part_kinds[kind.part].push(ki);
        }
        for (h, &part) in p.part_of_hex.iter().enumerate() {
            p.part_hexes[part].push(h);
        }
        p
    }

    fn kind_of(&self, group: u16) -> Option<usize> {
        self.kinds.iter().position(|k| k.group == group as usize)
    }

    /// Whether every unit still to set up can be set up (4.0).
    pub(crate) fn feasible(&self) -> bool {
        (0..self.parts).all(|part| self.part_feasible(part, None))
    }

    /// Whether `unit` may be set up in `h` now: the hex is one 4.0 allows it, with room and
    /// the right nationality, and every unit after it can still be set up.
    pub(crate) fn allows(&self, unit: UnitId, h: Hex) -> bool {
        let Some(group) = self.sd.group_of.get(unit as usize).copied().flatten() else {
            return false;
        };
        let Some(k) = self.kind_of(group) else { return false };
        let hi = match self.index.get(h.idx()) {
            Some(&i) if i != usize::MAX => i,
            _ => return false,
        };
        let g = &self.sd.groups[group as usize];
        if !self.kinds[k].hexes.contains(&hi) || self.content[hi].room_for(g) == 0 {
            return false;
        }
        self.part_feasible(self.kinds[k].part, Some((k, hi)))
    }

    /// The hexes of `hexes` where `unit` may be set up now: those `allows` allows. Where the
    /// unit's part holds its kind alone (the Front Line, the Second Line), the part's sums are
    /// made once and each hex changes only its own share.
    pub(crate) fn options(&self, unit: UnitId, hexes: &[Hex]) -> Vec<Hex> {
        let one_kind = self
            .sd
            .group_of
            .get(unit as usize)
            .copied()
            .flatten()
            .and_then(|g| self.kind_of(g).map(|k| (k, g)))
            .filter(|&(k, _)| self.part_kinds[self.kinds[k].part] == [k]);
        let Some((k, group)) = one_kind else {
            return hexes.iter().copied().filter(|&h| self.allows(unit, h)).collect();
        };
        let g = &self.sd.groups[group as usize];
        let mut in_kind = vec![false; self.hexes.len()];
        for &h in &self.kinds[k].hexes {
            in_kind[h] = true;
        }
        let mut sum = Terms::default();
        for &h in &self.part_hexes[self.kinds[k].part] {
            sum.add(self.one_kind_terms(h, self.content[h], Some(g), in_kind[h]));
        }
        let n = self.kinds[k].count - 1;
        hexes
            .iter()
            .copied()
            .filter(|&h| {
                let hi = self.index[h.idx()];
                if hi == usize::MAX || !in_kind[hi] || self.content[hi].room_for(g) == 0 {
                    return false;
                }
                let mut after = sum;
                after.remove(self.one_kind_terms(hi, self.content[hi], Some(g), true));
                after.add(self.one_kind_terms(hi, self.content[hi].with(g), Some(g), true));
                after.fits(n)
            })
            .collect()
    }

    /// One hex's share of a part with one kind of unit (`g`, which may take the hex if
    /// `in_kind`): whether it still needs a unit, the room it has for the kind, and whether it
    /// needs what the kind cannot give.
    fn one_kind_terms(&self, h: usize, c: Content, g: Option<&SetupGroup>, in_kind: bool) -> Terms {
        let room = match g {
            Some(g) if in_kind => c.room_for(g),
            _ => 0,
        };
        let need_front = self.front[h] && !c.front;
        let need = need_front || (self.fill[h] && c.count == 0);
        let front_ok = !need_front || g.is_some_and(|g| g.class == SetupClass::FrontLine);
        Terms {
            needed: need as u32,
            room,
            broken: (!front_ok || (need && room == 0)) as u32,
        }
    }

    /// Whether the units of one part can all be set up, after one unit of kind `placed.0` has
    /// been set up in hex `placed.1` if given.
    fn part_feasible(&self, part: usize, placed: Option<(usize, usize)>) -> bool {
        let v = After { p: self, placed };
        let kinds: Vec<usize> = self.part_kinds[part]
            .iter()
            .copied()
            .filter(|&k| v.count(k) > 0)
            .collect();
        let hexes = &self.part_hexes[part];

        // One kind (the Front Line, the Second Line, an army of one kind): it fits if the
        // hexes' needs and rooms bracket its number.
        if kinds.len() <= 1 {
            let kind = kinds.first().map(|&k| (k, &self.sd.groups[self.kinds[k].group]));
            let n = kind.map_or(0, |(k, _)| v.count(k));
            let mut in_kind = vec![false; self.hexes.len()];
            if let Some((k, _)) = kind {
                for &h in &self.kinds[k].hexes {
                    in_kind[h] = true;
                }
            }
            let mut sum = Terms::default();
            for &h in hexes {
                sum.add(self.one_kind_terms(h, v.content(h), kind.map(|(_, g)| g), in_kind[h]));
            }
            return sum.fits(n);
        }

        // Several kinds: the modes each hex could end in. An empty hex that could go more than
        // one way (two nationalities, or a Second Line unit and others) is "contested": each
        // way is tried in turn.
        let mut open = vec![0u8; self.hexes.len()];
        for &k in &kinds {
            let g = &self.sd.groups[self.kinds[k].group];
            for &h in &self.kinds[k].hexes {
                let c = v.content(h);
                if c.room_for(g) > 0 {
                    open[h] |= g.fits & c.modes;
                }
            }
        }
        let contested: Vec<usize> = hexes
            .iter()
            .copied()
            .filter(|&h| v.content(h).count == 0 && open[h].count_ones() >= 2)
            .collect();
        let ways = contested
            .iter()
            .try_fold(1usize, |acc, &h| acc.checked_mul(open[h].count_ones() as usize))
            .unwrap_or(usize::MAX);
        let mut single = vec![false; self.hexes.len()];
        if ways > self.max_choices {
            // Too many to try: each contested hex takes one unit at most, of any mode. That
            // finds fewer set-ups but never one that cannot be finished (one unit never mixes),
            // and after each placement it allowed it still finds the set-up it had found.
            for &h in &contested {
                single[h] = true;
            }
            return v.flow(&kinds, hexes, &open, &single);
        }
        let mut modes = open.clone();
        let mut choice = vec![0u32; contested.len()];
        loop {
            for (i, &h) in contested.iter().enumerate() {
                // The choice[i]-th mode open to the hex.
                let mut bits = open[h];
                for _ in 0..choice[i] {
                    bits &= bits - 1;
                }
                modes[h] = bits & bits.wrapping_neg();
            }
            if v.flow(&kinds, hexes, &modes, &single) {
                return true;
            }
            // The next combination.
            let mut i = 0;
            loop {
                if i == contested.len() {
                    return false;
                }
                choice[i] += 1;
                if choice[i] < open[contested[i]].count_ones() {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
        }
    }
}

/// Sums over the hexes of a part with one kind of unit.
#[derive(Clone, Copy, Debug, Default)]
struct Terms {
    needed: u32,
    room: u32,
    broken: u32,
}

impl Terms {
    fn add(&mut self, t: Terms) {
        self.needed += t.needed;
        self.room += t.room;
        self.broken += t.broken;
    }

    fn remove(&mut self, t: Terms) {
        self.needed -= t.needed;
        self.room -= t.room;
        self.broken -= t.broken;
    }

    /// Whether `n` units of the kind can meet every need within the room.
    fn fits(&self, n: u32) -> bool {
        self.broken == 0 && self.needed <= n && n <= self.room
    }
}

/// The problem as it would be after one more unit (of kind `placed.0`, in hex `placed.1`).
struct After<'p, 'a> {
    p: &'p Problem<'a>,
    placed: Option<(usize, usize)>,
}

impl After<'_, '_> {
    fn count(&self, k: usize) -> u32 {
        let c = self.p.kinds[k].count;
        match self.placed {
            Some((pk, _)) if pk == k => c - 1,
            _ => c,
        }
    }

    fn content(&self, h: usize) -> Content {
        match self.placed {
            Some((pk, ph)) if ph == h => self.p.content[h].with(&self.p.sd.groups[self.p.kinds[pk].group]),
            _ => self.p.content[h],
        }
    }

    /// 4.0(3): the hex must still receive a unit.
    fn need_fill(&self, h: usize) -> bool {
        self.p.fill[h] && self.content(h).count == 0
    }

    /// 4.0(4)1: the hex must still receive a front-line unit.
    fn need_front(&self, h: usize) -> bool {
        self.p.front[h] && !self.content(h).front
    }

    /// The flow: source → kind (exactly its number) → hex (its room) → sink, with at least
    /// one unit into each hex to fill and one front-line unit (through the hex's own
    /// front-line entrance) into each front-line hex to fill. A hex takes only the kinds that
    /// fit its modes, and one unit at most if `single`.
    fn flow(&self, kinds: &[usize], hexes: &[usize], modes: &[u8], single: &[bool]) -> bool {
        let p = self.p;
        // Nodes: source, sink, the kinds, then each hex and its front-line entrance.
        let (src, sink) = (0, 1);
        let base = 2 + kinds.len();
        let mut local = vec![usize::MAX; p.hexes.len()];
        for (i, &h) in hexes.iter().enumerate() {
            local[h] = i;
        }
        let hex_node = |h: usize| base + 2 * local[h];
        let front_node = |h: usize| base + 2 * local[h] + 1;
        let mut net = Bounded::new(base + 2 * hexes.len());
        for (i, &k) in kinds.iter().enumerate() {
            let n = self.count(k);
            net.edge(src, 2 + i, n, n);
            let g = &p.sd.groups[p.kinds[k].group];
            for &h in &p.kinds[k].hexes {
                let c = self.content(h);
                let mut room = if g.fits & modes[h] == 0 { 0 } else { c.room_for(g) };
                if single[h] {
                    room = room.min(1);
                }
                if room == 0 {
                    continue;
                }
                let to = if g.class == SetupClass::FrontLine {
                    front_node(h)
                } else {
                    hex_node(h)
                };
                net.edge(2 + i, to, 0, room);
            }
        }
        for &h in hexes {
            let c = self.content(h);
            let mut room = if modes[h] == SOVIET_ALONE {
                (c.count == 0) as u32
            } else {
                2u32.saturating_sub(c.count as u32)
            };
            if single[h] {
                room = room.min(1);
            }
            net.edge(front_node(h), hex_node(h), self.need_front(h) as u32, (!c.front) as u32);
            net.edge(hex_node(h), sink, self.need_fill(h) as u32, room);
        }
        net.feasible(src, sink)
    }
}

/// A flow network with lower and upper bounds on its edges, small enough for plain
/// augmenting paths.
struct Bounded {
    n: usize,
    to: Vec<usize>,
    cap: Vec<u32>,
    adj: Vec<Vec<usize>>,
    /// Per node: flow the lower bounds force in, less what they force out.
    excess: Vec<i64>,
    /// An edge must carry more than it can.
    broken: bool,
}

impl Bounded {
    fn new(n: usize) -> Bounded {
        Bounded {
            n,
            to: Vec::new(),
            cap: Vec::new(),
            adj: vec![Vec::new(); n + 2],
            excess: vec![0; n + 2],
            broken: false,
        }
    }

    fn arc(&mut self, a: usize, b: usize, cap: u32) {
        self.adj[a].push(self.to.len());
        self.to.push(b);
        self.cap.push(cap);
        self.adj[b].push(self.to.len());
        self.to.push(a);
        self.cap.push(0);
    }

    /// An edge carrying at least `low` and at most `high`.
    fn edge(&mut self, a: usize, b: usize, low: u32, high: u32) {
        if high < low {
            self.broken = true;
            return;
        }
        if high > low {
            self.arc(a, b, high - low);
        }
        self.excess[b] += low as i64;
        self.excess[a] -= low as i64;
    }

    /// Whether a flow from `src` to `sink` meets every bound (a circulation through an edge
    /// back from the sink to the source, found by a maximum flow between two extra nodes).
    fn feasible(mut self, src: usize, sink: usize) -> bool {
        if self.broken {
            return false;
        }
        let (ss, tt) = (self.n, self.n + 1);
        self.arc(sink, src, u32::MAX / 2);
        let mut want: i64 = 0;
        for v in 0..self.n {
            let e = self.excess[v];
            if e > 0 {
                self.arc(ss, v, e.min(u32::MAX as i64 / 4) as u32);
                want += e;
            } else if e < 0 {
                self.arc(v, tt, (-e).min(u32::MAX as i64 / 4) as u32);
            }
        }
        let mut got: i64 = 0;
        let mut prev = vec![usize::MAX; self.n + 2];
        let mut queue = Vec::with_capacity(self.n + 2);
        loop {
            prev.iter_mut().for_each(|p| *p = usize::MAX);
            queue.clear();
            queue.push(ss);
            let mut head = 0;
            let mut seen = vec![false; self.n + 2];
            seen[ss] = true;
            while head < queue.len() && !seen[tt] {
                let v = queue[head];
                head += 1;
                for &e in &self.adj[v] {
                    let w = self.to[e];
                    if self.cap[e] > 0 && !seen[w] {
                        seen[w] = true;
                        prev[w] = e;
                        queue.push(w);
                    }
                }
            }
            if !seen[tt] {
                break;
            }
            let mut push = u32::MAX;
            let mut v = tt;
            while v != ss {
                let e = prev[v];
                push = push.min(self.cap[e]);
                v = self.to[e ^ 1];
            }
            let mut v = tt;
            while v != ss {
                let e = prev[v];
                self.cap[e] -= push;
                self.cap[e ^ 1] += push;
                v = self.to[e ^ 1];
            }
            got += push as i64;
        }
        got == want
    }
}

// ------------------------------------------------------------------------ the game

impl StalingradBlitz {
    /// 4.0: the hexes the next set-up unit may take.
    pub(crate) fn legal_setup(&self, out: &mut Vec<crate::state::Action>) {
        let Some(u) = next_setup_unit(&self.d, &self.s) else {
            return;
        };
        let Some(g) = self.d.setup.group_of[u as usize] else {
            return;
        };
        let p = Problem::new(&self.d, &self.s, &self.meta.setup);
        for h in p.options(u, &self.d.setup.groups[g as usize].hexes) {
            out.push(crate::state::Action::Place { unit: u, at: h });
        }
    }

    /// Sets a unit up (4.0). City control stays as 3.4(1) has it: control changes only once
    /// the game has begun (3.4(2)).
    pub(crate) fn set_up(&mut self, unit: UnitId, at: Hex) {
        self.s.set_loc(unit, Loc::Map(at));
        let d = &self.d;
        let rule = setup_rule(setup_class(&d.units[unit as usize]));
        self.journal.say_marked(
            || {
                let def = &d.units[unit as usize];
                let (en, zh, hid) = (&def.name_en, &def.name_zh, d.map.grid.id(at));
                text!("{rule}: {en} sets up at {hid}.", "{rule}:{zh}配置在{hid}。")
            },
            || {
                [Mark::Arrived {
                    unit: d.units[unit as usize].id.clone(),
                    at: d.map.grid.id(at).0,
                }]
            },
        );
    }

    /// The set-up is done: the victory point count of the position (15.0) and turn 1.
    pub(crate) fn finish_setup(&mut self) {
        self.journal
            .say(|| text!("4.0: the set-up is complete.", "4.0:初期配置完毕。"));
        self.s.vp = self.victory_points();
        self.start_turn();
    }

    /// Starts the set-up phase if the scenario leaves units to set up.
    pub(crate) fn begin_setup(&mut self) -> bool {
        if !self.s.units.iter().any(|u| u.loc == Loc::SetUp) {
            return false;
        }
        self.journal.heading(|| text!("Set-up (4.0)", "游戏准备:初期配置(4.0)"));
        self.engine.push(crate::state::Frame::SetUp);
        true
    }

    /// 4.0: the player whose unit is set up next; when every unit is set up, turn 1 begins.
    pub(crate) fn who_sets_up(&self) -> sandtable_core::game::Who {
        match next_setup_unit(&self.d, &self.s) {
            Some(u) => sandtable_core::game::Who::Seat(self.d.units[u as usize].side.seat()),
            None => sandtable_core::game::Who::Auto,
        }
    }

    /// 4.0: whether the next unit may be set up in `at`; if not, the rule it breaks.
    pub(crate) fn check_setup(&self, a: &crate::state::Action) -> Result<(), Refusal> {
        let crate::state::Action::Place { unit, at } = *a else {
            return Err(Refusal::new(
                "4.0",
                text!(
                    "the set-up (4.0) comes before the first turn: place the set-up units first",
                    "游戏准备(4.0)在第1回合之前:请先配置初期配置单位"
                ),
            ));
        };
        let next = next_setup_unit(&self.d, &self.s);
        let allowed = next == Some(unit)
            && at.idx() < self.d.map.grid.len()
            && Problem::new(&self.d, &self.s, &self.meta.setup).allows(unit, at);
        if allowed {
            Ok(())
        } else {
            Err(self.setup_refusal(unit, at))
        }
    }

    /// Why `unit` may not be set up in `at` now, citing 4.0.
    pub(crate) fn setup_refusal(&self, unit: UnitId, at: Hex) -> Refusal {
        let d = &self.d;
        let r = |rule: &str, t: Text| Refusal::new(rule, t);
        let Some(def) = d.units.get(unit as usize) else {
            return r("4.0", text!("there is no such unit", "没有这个单位"));
        };
        let (en, zh) = (def.name_en.as_str(), def.name_zh.as_str());
        if self.s.units[unit as usize].loc != Loc::SetUp {
            return r(
                "4.0(5)",
                text!("{en} is not a unit waiting to be set up", "{zh}不是等待初期配置的单位"),
            );
        }
        if let Some(next) = next_setup_unit(d, &self.s) {
            if next != unit {
                let n = &d.units[next as usize];
                let (nen, nzh) = (&n.name_en, &n.name_zh);
                return r(
                    "4.0",
                    text!(
                        "units are set up one at a time in a fixed order (HQs, the Axis armies, the Soviet Front Line, the Second Line); the next is {nen}",
                        "初期配置按固定顺序逐个进行(司令部、轴心国各集团军、苏军第一线、第二线);下一个是{nzh}"
                    ),
                );
            }
        }
        if at.idx() >= d.map.grid.len() {
            return r("4.0", text!("that hex is not on the map", "该格不在地图上"));
        }
        let hid = d.map.grid.id(at).0;
        let list =
            |hexes: &[Hex]| -> String { hexes.iter().map(|&h| d.map.grid.id(h).0).collect::<Vec<_>>().join(" ") };
        let class = setup_class(def);
        let named = d.setup.group_of[unit as usize].map_or(&[][..], |g| &d.setup.groups[g as usize].hexes[..]);
        match class {
            Some(SetupClass::Hq) if !named.contains(&at) => {
                let l = list(named);
                return r(
                    "4.0(2)",
                    text!(
                        "{en} sets up on its HQ location printed on the map ({l})",
                        "{zh}必须配置在地图上印刷的司令部位置({l})"
                    ),
                );
            }
            Some(SetupClass::Army) => {
                let army = def.front.clone().unwrap_or_default();
                let army_hexes = d.map.hex_set(&format!("axis-{army}"));
                if !army_hexes.contains(&at) {
                    let l = list(army_hexes);
                    return r(
                        "4.0(3)",
                        text!(
                            "{en} sets up on the set-up hexes of its army {army} ({l})",
                            "{zh}必须配置在所属集团军{army}的初期配置格({l})"
                        ),
                    );
                }
                if !named.contains(&at) {
                    return r(
                        "4.0(3)",
                        text!(
                            "German mechanised units set up only on the panzer unit symbols; {hid} has none",
                            "德军机械化单位只能配置在装甲部队标记上;{hid}没有该标记"
                        ),
                    );
                }
            }
            Some(SetupClass::FrontLine) if !named.contains(&at) => {
                return r(
                    "4.0(4)1",
                    text!(
                        "Front Line units set up on the Soviet front-line set-up hexes; {hid} is not one",
                        "第一线部队必须配置在苏军初期配置格;{hid}不是"
                    ),
                );
            }
            Some(SetupClass::SecondLine) => {
                if !d.is_urban[at.idx()] {
                    return r(
                        "4.0(4)2",
                        text!(
                            "Second Line units set up in a town or city; {hid} is neither",
                            "第二线部队必须配置在镇或都市格;{hid}不是"
                        ),
                    );
                }
                if self.s.control[at.idx()] != Some(Side::Soviet) {
                    return r(
                        "4.0(4)2",
                        text!(
                            "Second Line units set up in a Soviet-controlled town or city (3.4(1)); {hid} is not Soviet-controlled",
                            "第二线部队必须配置在苏军支配的镇或都市(3.4(1));{hid}不归苏军支配"
                        ),
                    );
                }
                if d.setup.front_line[at.idx()] {
                    return r(
                        "4.0(4)2",
                        text!(
                            "{hid} is a front-line hex, which takes a Front Line unit (A38)",
                            "{hid}是第一线配置格,只能放第一线部队(A38)"
                        ),
                    );
                }
            }
            None => {
                return r(
                    "4.0(5)",
                    text!(
                        "{en} has no set-up information: it stays in the reserve pool",
                        "{zh}没有登场情报,留在预备兵力池"
                    ),
                );
            }
            _ => {}
        }
        if !named.contains(&at) {
            return r("4.0", text!("{en} may not set up in {hid}", "{zh}不能配置在{hid}"));
        }
        let here: Vec<usize> = (0..self.s.units.len())
            .filter(|&i| self.s.units[i].loc == Loc::Map(at))
            .collect();
        if here.iter().any(|&i| d.units[i].side != def.side) {
            return r("3.1(2)", text!("{hid} holds enemy units", "{hid}有敌军单位"));
        }
        match class {
            Some(SetupClass::SecondLine) if !here.is_empty() => {
                return r(
                    "4.0(4)2",
                    text!(
                        "Second Line units do not stack: {hid} already holds a unit",
                        "第二线部队不能堆叠:{hid}已有单位"
                    ),
                );
            }
            Some(SetupClass::FrontLine)
                if here
                    .iter()
                    .any(|&i| setup_class(&d.units[i]) == Some(SetupClass::FrontLine)) =>
            {
                return r(
                    "4.0(4)1",
                    text!(
                        "one Front Line unit to each front-line hex: {hid} has one",
                        "每个第一线配置格只放1个第一线部队:{hid}已有"
                    ),
                );
            }
            _ => {}
        }
        if here
            .iter()
            .any(|&i| setup_class(&d.units[i]) == Some(SetupClass::SecondLine))
        {
            return r(
                "4.0(4)2",
                text!(
                    "a Second Line unit stands alone: nothing may join it in {hid}",
                    "第二线部队不能堆叠:{hid}不能再放单位"
                ),
            );
        }
        if here.len() >= 2 {
            return r(
                "4.0(3)",
                text!(
                    "at most 2 units to a hex at set-up, HQs included (3.1(1)): {hid} is full",
                    "初期配置每格最多2个单位(含司令部,3.1(1)):{hid}已满"
                ),
            );
        }
        if def.side == Side::Axis && !def.is_hq() {
            if let Some(&o) = here
                .iter()
                .find(|&&i| !d.units[i].is_hq() && d.units[i].nation != def.nation)
            {
                let other = &d.units[o];
                let (oen, ozh) = (&other.name_en, &other.name_zh);
                return r(
                    "4.0(3)",
                    text!(
                        "Axis units stack only with units of their own nationality (an HQ may join): {oen} is in {hid}",
                        "轴心国军单位只能与同国籍单位堆叠(司令部可):{hid}有{ozh}"
                    ),
                );
            }
        }
        let rule = match def.side {
            Side::Axis => "4.0(3)",
            Side::Soviet => "4.0(4)",
        };
        r(
            rule,
            text!(
                "after {en} sets up in {hid}, the units still to set up could not all be placed with every set-up hex filled, at most 2 units to a hex and one nationality to a hex; choose another hex",
                "{zh}配置在{hid}后,剩余的单位将无法在每个初期配置格至少1个、每格最多2个且同国籍的条件下全部配置;请选择其他格"
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{CHITS_TOML, COUNTERS_TOML, TABLES_TOML, TURNS_TOML};
    use std::sync::Arc;

    const SETUP_MAP: &str = include_str!("../tests/fixtures/setup-map.toml");

    /// Every way of finishing the set-up under the guard with at most `max_choices`
    /// nationality choices: never a dead end, and every set-up reached valid.
    fn walk(d: &Data, s: &mut State, plan: &SetupPlan, max_choices: usize, leaves: &mut usize) {
        let Some(u) = next_setup_unit(d, s) else {
            let mut p = Problem::new(d, s, plan);
            p.max_choices = max_choices;
            assert!(p.feasible(), "a finished set-up leaves a set-up hex empty");
            for h in d.map.grid.hexes() {
                let here: Vec<&UnitDef> = (0..s.units.len())
                    .filter(|&i| s.units[i].loc == Loc::Map(h))
                    .map(|i| &d.units[i])
                    .collect();
                assert!(here.len() <= 2);
                let mut nations: Vec<Nation> = here.iter().filter(|u| !u.is_hq()).map(|u| u.nation).collect();
                nations.dedup();
                assert!(nations.len() <= 1, "{nations:?} share a hex");
            }
            *leaves += 1;
            return;
        };
        let mut p = Problem::new(d, s, plan);
        p.max_choices = max_choices;
        let g = d.setup.group_of[u as usize].unwrap() as usize;
        let options: Vec<Hex> = d.setup.groups[g]
            .hexes
            .iter()
            .copied()
            .filter(|&h| p.allows(u, h))
            .collect();
        assert_eq!(p.options(u, &d.setup.groups[g].hexes), options);
        assert!(!options.is_empty(), "dead end at {}", d.units[u as usize].id);
        for h in options {
            s.units[u as usize].loc = Loc::Map(h);
            walk(d, s, plan, max_choices, leaves);
            s.units[u as usize].loc = Loc::SetUp;
        }
    }

    #[test]
    fn the_fallback_for_many_contested_hexes_never_dead_ends() {
        let d = Arc::new(Data::load(SETUP_MAP, COUNTERS_TOML, CHITS_TOML, TURNS_TOML, TABLES_TOML).unwrap());
        for extra in [None, Some("hun-inf-7")] {
            let mut text = String::from(
                "[about]\nsource = \"reconstructed\"\nbasis = \"test\"\n[scenario]\nid = \"t\"\nname_en = \"T\"\nname_zh = \"T\"\n",
            );
            for id in [
                "ger-hq-4pza",
                "hun-hq-2a",
                "sov-hq-swf",
                "ger-pz-9",
                "ger-mot-16",
                "ger-inf-88",
                "hun-armor-1",
                "hun-inf-6",
                "sov-rifle-45",
                "sov-rifle-62",
                "sov-rifle-121",
                "sov-tk-4",
            ]
            .into_iter()
            .chain(extra)
            {
                text.push_str(&format!("[[unit]]\nid = \"{id}\"\nloc = \"set-up\"\n"));
            }
            let sc = crate::scenario::parse(&d, &text).unwrap();
            let (mut exact, mut fallback) = (0, 0);
            walk(&d, &mut sc.state.clone(), &sc.setup, MAX_CHOICES, &mut exact);
            walk(&d, &mut sc.state.clone(), &sc.setup, 0, &mut fallback);
            assert!(fallback > 0 && fallback <= exact, "{fallback} of {exact}");
        }
    }
}

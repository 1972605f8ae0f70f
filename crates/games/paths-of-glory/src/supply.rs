//! 14.0 Supply: a unit is in supply when it can trace a path from its space through
//! friendly-controlled spaces to a supply source of its nationality (14.1.2, 14.2), along solid
//! lines and the dashed lines its nationality may use, never into a space with enemy units or
//! under enemy control (a besieged enemy fort excepted), never through a besieged friendly fort
//! (14.1.2, 14.1.3), with at most one sea leg between two friendly ports its side may use
//! (14.1.4). Some units are always in supply (14.1.5, 14.1.6).

use crate::data::{Data, Nation, Side};
use crate::state::{side_index, Fort, Location, Position, SpaceState};
use sandtable_core::graph::Space;
use std::sync::{Arc, Mutex};

/// What bears on supply beyond the position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    /// The MEF beaches that hold the MEF Beachhead marker: only their beach links are open
    /// (11.1.10, 9.5.3.5).
    pub open_beaches: &'a [Space],
    /// Who has units where, worked out once for a caller asking of many spaces (`None`: look
    /// at the counters each time).
    pub occupancy: Option<&'a Occupancy>,
    /// The supply maps kept beside the game, answering for every space at once while what a
    /// trace reads of the position is unchanged (`None`: trace afresh each time).
    pub kept: Option<&'a Kept>,
    /// 11.1.14 (data edition 6): a CP space the Arab Northern Army stands in, not a besieged
    /// fort, which counts as Allied for the Allies' supply paths while it is there. Never set
    /// with `kept` (the kept maps do without it).
    pub ana_space: Option<Space>,
}

/// Which sides have units in each space, and how many units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occupancy(Vec<u8>, Vec<u8>);

impl Occupancy {
    pub fn of(data: &Data, pos: &Position) -> Occupancy {
        let mut v = vec![0u8; data.map.graph.len()];
        let mut n = vec![0u8; data.map.graph.len()];
        for (u, p) in pos.units.iter().zip(&data.pieces) {
            if let Location::Map(s) = u.loc {
                if let Some(x) = v.get_mut(s.idx()) {
                    *x |= side_bit(p.side);
                    n[s.idx()] = n[s.idx()].saturating_add(1);
                }
            }
        }
        Occupancy(v, n)
    }

    /// How many units stand in `s`.
    pub fn count(&self, s: Space) -> usize {
        self.1.get(s.idx()).map_or(0, |&n| n as usize)
    }

    /// Whether `side` has units in `s`.
    pub fn has(&self, side: Side, s: Space) -> bool {
        self.0.get(s.idx()).is_some_and(|&x| x & side_bit(side) != 0)
    }

    /// Whether `side` has units in the same spaces here as in `other`.
    fn same_for(&self, other: &Occupancy, side: Side) -> bool {
        let b = side_bit(side);
        self.0.len() == other.0.len() && self.0.iter().zip(&other.0).all(|(x, y)| x & b == y & b)
    }
}

fn other_side(side: Side) -> Side {
    match side {
        Side::Cp => Side::Ap,
        Side::Ap => Side::Cp,
    }
}

fn side_bit(side: Side) -> u8 {
    match side {
        Side::Cp => 1,
        Side::Ap => 2,
    }
}

/// Whether a space holds units of the side other than `side`.
pub(crate) fn enemy_units(data: &Data, pos: &Position, occupancy: Option<&Occupancy>, side: Side, s: Space) -> bool {
    match occupancy {
        Some(o) => o.has(if side == Side::Cp { Side::Ap } else { Side::Cp }, s),
        None => pos
            .units
            .iter()
            .zip(&data.pieces)
            .any(|(u, p)| u.loc == Location::Map(s) && p.side != side),
    }
}

/// Whose supply is traced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tracer {
    /// A unit of a nationality (its dashed-line nationality) on a side; `beach`: it may trace
    /// through an MEF beach holding the Beachhead marker as an Allied port (9.5.3.5: the MEF
    /// army and the British and Australian corps, 9.2.7.1).
    Unit {
        side: Side,
        nation: Nation,
        lines: Nation,
        beach: bool,
    },
    /// A space of a side in the Attrition Phase (14.2.5: to any source of its side; 11.1.4: across
    /// any dashed line of its side).
    Space(Side),
}

impl Tracer {
    fn side(self) -> Side {
        match self {
            Tracer::Unit { side, .. } | Tracer::Space(side) => side,
        }
    }
}

/// 14.2: whether a space is a supply source for the tracer (it must be friendly-controlled).
fn is_source(data: &Data, pos: &Position, t: Tracer, s: Space) -> bool {
    data.supply_sets.get(s.idx()).is_some_and(|&b| b & source_bits(t) != 0) && pos.space(s).control == Some(t.side())
}

/// The map's sets of supply sources a tracer draws on (14.2), as bits of
/// [`Data::supply_sets`] (the sets in the order of [`crate::data::SUPPLY_SETS`]).
fn source_bits(t: Tracer) -> u8 {
    const CP: u8 = 1; // supply-cp
    const RU_SB_RO: u8 = 2; // supply-ru-sb-ro
    const SB_SALONIKA: u8 = 4; // supply-sb-salonika
    const AP_OTHER: u8 = 8; // supply-ap-other
    match t {
        Tracer::Unit { side: Side::Cp, .. } | Tracer::Space(Side::Cp) => CP,
        Tracer::Unit {
            nation: Nation::Ru | Nation::Ro,
            ..
        } => RU_SB_RO,
        // 14.2.3: Salonika too for the Serbs.
        Tracer::Unit { nation: Nation::Sb, .. } => RU_SB_RO | SB_SALONIKA,
        Tracer::Unit { .. } => AP_OTHER,
        Tracer::Space(Side::Ap) => RU_SB_RO | SB_SALONIKA | AP_OTHER,
    }
}

/// Whether the tracer may take a connection (11.1.4, 14.1.3): a solid line, a dashed line of its
/// nationality, a beach link while its beach holds the Beachhead marker.
fn may_use(data: &Data, t: Tracer, ctx: &Context, connection: u16, a: Space, b: Space) -> bool {
    let f = data.map.features(connection);
    let lines = data.lines;
    if f & lines.dashed() == 0 {
        return true;
    }
    if f & lines.mef_beach != 0 {
        return ctx.open_beaches.contains(&a) || ctx.open_beaches.contains(&b);
    }
    match t {
        Tracer::Unit { lines: n, .. } => {
            let mut ok = f & lines.for_nation(n) != 0;
            // 14.1.3 (2022): Romanians and Serbs may use the Russian lines to the Russian sources.
            if matches!(n, Nation::Ro | Nation::Sb) {
                ok |= f & lines.only_ru != 0;
            }
            ok
        }
        // For attrition a space traces across the dashed lines of its side.
        Tracer::Space(Side::Cp) => f & lines.only_tu != 0,
        Tracer::Space(Side::Ap) => f & (lines.only_br | lines.only_it | lines.only_ru | lines.only_ana) != 0,
    }
}

/// Whether a supply path may enter a space (14.1.2, 14.1.3): under the tracer's control and not
/// a besieged friendly fort, or a besieged enemy fort; and holding no enemy unit.
fn may_enter(data: &Data, pos: &Position, ctx: &Context, side: Side, s: Space) -> bool {
    let st = pos.space(s);
    let fort_owner = data.facts(s).faction;
    let besieged = st.fort == Fort::Besieged;
    let open = match st.control {
        Some(c) if c == side => !(besieged && fort_owner == side),
        // 11.1.14: the ANA's space is the Allies' while it stands there.
        Some(_) if side == Side::Ap && ctx.ana_space == Some(s) => true,
        Some(_) => besieged && fort_owner != side,
        None => false,
    };
    open && !enemy_units(data, pos, ctx.occupancy, side, s)
}

/// 14.1.4: a port the tracer's side may trace through: friendly-controlled and not besieged;
/// for the CP the ports of Germany and Russia, for the Allies the others (Constantinople only
/// with Gallipoli Allied-controlled). Russians, Serbs and Romanians never trace by sea (2022
/// 14.2.2).
fn usable_port(data: &Data, pos: &Position, t: Tracer, ctx: &Context, s: Space) -> bool {
    let side = t.side();
    if matches!(
        t,
        Tracer::Unit {
            nation: Nation::Ru | Nation::Sb | Nation::Ro,
            ..
        }
    ) {
        return false;
    }
    // 9.5.3.5: an open MEF beach is an Allied port, for the units 9.2.7.1 names.
    if ctx.open_beaches.contains(&s) {
        let st = pos.space(s);
        return st.control == Some(side) && matches!(t, Tracer::Unit { beach: true, .. });
    }
    pos.sea_port(data, side, s)
}

/// 14.1.5, 14.1.6: units always in supply: Montenegro's anywhere, the ANA and the Senussi on
/// the Near East map (2022 14.1.5: elsewhere they trace normally), Serbs inside Serbia.
fn always_supplied(data: &Data, t: Tracer, at: Space) -> bool {
    match t {
        Tracer::Unit { nation, .. } => match nation {
            Nation::Mn => true,
            Nation::Ana | Nation::Sn => data.facts(at).near_east,
            Nation::Sb => data.facts(at).nation.as_deref() == Some("sb"),
            _ => false,
        },
        Tracer::Space(_) => false,
    }
}

/// Whether the tracer is in supply at `at` (14.1): from the kept supply map of its tracer
/// where the context has one, else by a search from `at`.
pub fn in_supply(data: &Data, pos: &Position, t: Tracer, at: Space, ctx: &Context) -> bool {
    // A friendly source of the tracer is supplied by itself, a flood's seed (14.2): no flood
    // needs making for it.
    if ctx.kept.is_some() && at.idx() < data.map.graph.len() && is_source(data, pos, t, at) {
        return true;
    }
    match ctx.kept {
        Some(kept) if at.idx() < data.map.graph.len() => kept.flood(data, pos, t, ctx.open_beaches).at(data, at),
        _ => traced(data, pos, t, at, ctx),
    }
}

/// Whether the tracer is in supply at `at` (14.1), by a search from `at` (the kept maps aside).
pub fn traced(data: &Data, pos: &Position, t: Tracer, at: Space, ctx: &Context) -> bool {
    traced_to(data, pos, t, at, ctx, |_| true)
}

/// Whether the tracer at `at` traces supply to a source `source` accepts (14.1): a search from
/// `at`.
fn traced_to(data: &Data, pos: &Position, t: Tracer, at: Space, ctx: &Context, source: impl Fn(Space) -> bool) -> bool {
    if always_supplied(data, t, at) {
        return true;
    }
    // Who stands where, once for the whole trace rather than once for each space it enters.
    let built;
    let ctx = match ctx.occupancy {
        Some(_) => ctx,
        None => {
            built = Occupancy::of(data, pos);
            &Context {
                open_beaches: ctx.open_beaches,
                occupancy: Some(&built),
                kept: None,
                ana_space: ctx.ana_space,
            }
        }
    };
    let n = data.map.graph.len();
    let side = t.side();
    // Breadth-first over (space, sea leg used).
    let mut seen = vec![[false; 2]; n];
    let mut queue: Vec<(Space, usize)> = vec![(at, 0)];
    seen[at.idx()][0] = true;
    let mut ports: Option<Vec<Space>> = None;
    while let Some((s, sea)) = queue.pop() {
        if is_source(data, pos, t, s) && source(s) {
            return true;
        }
        for &(c, next) in data.map.graph.exits(s) {
            if !seen[next.idx()][sea] && may_use(data, t, ctx, c, s, next) && may_enter(data, pos, ctx, side, next) {
                seen[next.idx()][sea] = true;
                queue.push((next, sea));
            }
        }
        // One sea leg, port to port (14.1.4). Every usable port reaches every other in one leg,
        // so a second leg could never reach anything the first does not.
        if sea == 0 && usable_port(data, pos, t, ctx, s) {
            let ps = ports.get_or_insert_with(|| usable_ports(data, pos, t, ctx));
            for &p in ps.iter() {
                if !seen[p.idx()][1] {
                    seen[p.idx()][1] = true;
                    queue.push((p, 1));
                }
            }
        }
    }
    false
}

/// Every space the tracer is in supply at, worked out at once (14.1): what [`in_supply`] says of
/// each space, for callers that ask of many spaces in one position (redeployments from the
/// Reserve Box, 13.1.8). Flooded backwards from the sources: a space is supplied when it is
/// always supplied, when a land path reaches a source, or when a land path reaches a usable port
/// and some usable port has a land path to a source (one sea leg joins any two ports, 14.1.4).
#[derive(Clone)]
pub struct Supplied {
    reach: Arc<Reach>,
    tracer: Tracer,
}

/// The spaces a flood from the sources reaches: by land, and, when some usable port is
/// supplied by land, by land to a usable port (one sea leg joins any two, 14.1.4).
struct Reach {
    supplied: Vec<bool>,
}

/// Per space, whether a supply path of `side` may enter it ([`may_enter`]): what every flood of
/// the side reads of the position, worked out once.
fn enterable(data: &Data, pos: &Position, ctx: &Context, side: Side) -> Vec<bool> {
    let built;
    let occupancy = match ctx.occupancy {
        Some(o) => o,
        None => {
            built = Occupancy::of(data, pos);
            &built
        }
    };
    // [`may_enter`] for every space in one pass over the spaces' states, facts and occupants.
    data.map
        .graph
        .space_indices()
        .map(|s| enterable_at(data, pos, ctx, occupancy, side, s))
        .collect()
}

/// [`enterable`]'s answer for `s`: it reads the space's state and facts and whether enemy units
/// stand in it, nothing else.
fn enterable_at(data: &Data, pos: &Position, ctx: &Context, occupancy: &Occupancy, side: Side, s: Space) -> bool {
    let enemy = side_bit(other_side(side));
    let (Some(st), Some(f)) = (pos.spaces.get(s.idx()), data.spaces.get(s.idx())) else {
        return false;
    };
    let besieged = st.fort == Fort::Besieged;
    let open = match st.control {
        Some(c) if c == side => !(besieged && f.faction == side),
        Some(_) if side == Side::Ap && ctx.ana_space == Some(s) => true,
        Some(_) => besieged && f.faction != side,
        None => false,
    };
    open && occupancy.0.get(s.idx()).is_none_or(|&x| x & enemy == 0)
}

/// Whether [`enterable`] and [`held`] of `side` in `pos` (whose occupancy is `occupancy`, whose
/// spaces read as `spaces`, [`Inputs::read`]) are `enter` and `held_was`, made for a position
/// whose occupancy was `occupancy_was` and whose spaces read as `spaces_was`: asked again only
/// of the spaces whose state or enemy units changed, the others' answers being those made.
#[allow(clippy::too_many_arguments)]
fn enter_and_held_unchanged(
    data: &Data,
    pos: &Position,
    ctx: &Context,
    (occupancy, occupancy_was): (&Occupancy, &Occupancy),
    (spaces, spaces_was): (&[u8], &[u8]),
    side: Side,
    enter: &[bool],
    held_was: &[u8],
) -> bool {
    let (n, p) = (data.map.graph.len(), pos.spaces.len());
    if enter.len() != n
        || held_was.len() != p
        || spaces.len() != p
        || spaces_was.len() != p
        || occupancy.0.len() != n
        || occupancy_was.0.len() != n
    {
        return enterable(data, pos, ctx, side) == enter && held(pos, side) == held_was;
    }
    let enemy = side_bit(other_side(side));
    // The answers asked again of a space whose state or enemy units changed.
    let same_at = |k: usize| same_at(data, pos, ctx, occupancy, side, enter, held_was, k);
    // Sixteen spaces at a time, side by side, looked into only when one of them changed: most
    // spaces are as they were.
    const SIDE_BY_SIDE: usize = 16;
    let m = n.min(p);
    let (now, was) = (&spaces[..m], &spaces_was[..m]);
    let (occ_now, occ_was) = (&occupancy.0[..m], &occupancy_was.0[..m]);
    let chunks = now.chunks_exact(SIDE_BY_SIDE).zip(was.chunks_exact(SIDE_BY_SIDE)).zip(
        occ_now
            .chunks_exact(SIDE_BY_SIDE)
            .zip(occ_was.chunks_exact(SIDE_BY_SIDE)),
    );
    for (c, ((a, b), (x, y))) in chunks.enumerate() {
        let mut changed = 0u32;
        for i in 0..SIDE_BY_SIDE {
            changed |= u32::from(a[i] != b[i] || (x[i] ^ y[i]) & enemy != 0) << i;
        }
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            if !same_at(c * SIDE_BY_SIDE + i) {
                return false;
            }
            changed &= changed - 1;
        }
    }
    // The spaces after the last whole sixteen, one by one.
    (m - m % SIDE_BY_SIDE..n.max(p)).all(|k| {
        let space_changed = k < p && spaces[k] != spaces_was[k];
        let enemy_changed = k < n && occupancy.0[k] & enemy != occupancy_was.0[k] & enemy;
        !(space_changed || enemy_changed) || same_at(k)
    })
}

/// [`enter_and_held_unchanged`] for a position whose spaces' states are those `enter` and
/// `held_was` were made for and whose occupancy differs from `occupancy_was` only in the spaces
/// of `touched` (indices): asked again only of those of them whose enemy units changed.
#[allow(clippy::too_many_arguments)]
fn enter_and_held_unchanged_at(
    data: &Data,
    pos: &Position,
    ctx: &Context,
    (occupancy, occupancy_was): (&Occupancy, &Occupancy),
    touched: &[u16],
    side: Side,
    enter: &[bool],
    held_was: &[u8],
) -> bool {
    let enemy = side_bit(other_side(side));
    touched.iter().all(|&k| {
        let k = usize::from(k);
        let (now, was) = (occupancy.0.get(k), occupancy_was.0.get(k));
        (now.is_some() && now.map(|x| x & enemy) == was.map(|x| x & enemy))
            || same_at(data, pos, ctx, occupancy, side, enter, held_was, k)
    })
}

/// Whether [`enterable`] and [`held`] of `side` in `pos` (whose occupancy is `occupancy`) are,
/// at the space of index `k`, those of `enter` and `held_was`.
#[allow(clippy::too_many_arguments)]
fn same_at(
    data: &Data,
    pos: &Position,
    ctx: &Context,
    occupancy: &Occupancy,
    side: Side,
    enter: &[bool],
    held_was: &[u8],
    k: usize,
) -> bool {
    let n = data.map.graph.len();
    let st = pos.spaces.get(k);
    (k >= n
        || enter
            .get(k)
            .is_some_and(|&e| enterable_at(data, pos, ctx, occupancy, side, Space(k as u16)) == e))
        && st.is_none_or(|st| held_was.get(k).is_some_and(|&h| held_of(st, side) == h))
}

/// Per space, what a flood of `side` reads of its state beside [`enterable`]: whether the side
/// controls it (a source, 14.2; a port, 14.1.4; an open MEF beach, 9.5.3.5; Gallipoli for
/// Constantinople's port) and whether its fort is besieged (a port, 14.1.4).
fn held(pos: &Position, side: Side) -> Vec<u8> {
    pos.spaces.iter().map(|st| held_of(st, side)).collect()
}

/// [`held`]'s entry for one space's state.
fn held_of(st: &SpaceState, side: Side) -> u8 {
    u8::from(st.control == Some(side)) | u8::from(st.fort == Fort::Besieged) << 1
}

/// The ports the tracer may trace through by sea ([`usable_port`]), in map order: only a port of
/// its side's kind or an open MEF beach can be one.
fn usable_ports(data: &Data, pos: &Position, t: Tracer, ctx: &Context) -> Vec<Space> {
    let printed = &data.ports[side_index(t.side())];
    let mut ports: Vec<Space> = printed
        .iter()
        .chain(
            ctx.open_beaches
                .iter()
                .filter(|b| b.idx() < data.map.graph.len() && !printed.contains(b)),
        )
        .copied()
        .filter(|&p| usable_port(data, pos, t, ctx, p))
        .collect();
    ports.sort_unstable();
    ports.dedup();
    ports
}

impl Supplied {
    pub fn new(data: &Data, pos: &Position, t: Tracer, ctx: &Context) -> Supplied {
        match ctx.kept {
            Some(kept) => kept.flood(data, pos, t, ctx.open_beaches),
            None => Supplied::without(data, pos, t, ctx, &[]),
        }
    }

    /// The flood from the tracer's sources other than those in `barred` (2022 13.1.12): what
    /// [`traced_to`] says of each space with those sources not counted.
    fn without(data: &Data, pos: &Position, t: Tracer, ctx: &Context, barred: &[Space]) -> Supplied {
        let enter = enterable(data, pos, ctx, t.side());
        Supplied::flooded(data, pos, t, ctx, barred, &enter)
    }

    /// [`Supplied::without`], with whether a path may enter each space ([`enterable`]) given.
    fn flooded(data: &Data, pos: &Position, t: Tracer, ctx: &Context, barred: &[Space], enter: &[bool]) -> Supplied {
        let n = data.map.graph.len();
        let side = t.side();
        let mut reach = vec![false; n];
        let mut queue: Vec<Space> = Vec::with_capacity(n);
        // What [`may_use`] asks of a connection, the tracer's own dashed lines worked out once.
        let (dashed, beach, own) = (data.lines.dashed(), data.lines.mef_beach, FloodKey::of(data, t).lines);
        let usable = |c: u16, a: Space, b: Space| {
            let f = data.map.features(c);
            f & dashed == 0
                || if f & beach != 0 {
                    ctx.open_beaches.contains(&a) || ctx.open_beaches.contains(&b)
                } else {
                    f & own != 0
                }
        };
        // The spaces with a land path (entering only spaces the tracer may enter) to a seed; a
        // seed counts itself. Seeds added later widen the same flood: the spaces with a path to
        // either set are those with a path to one of them.
        let flood = |reach: &mut Vec<bool>, queue: &mut Vec<Space>| {
            while let Some(y) = queue.pop() {
                // A path steps into `y` only if it may enter it.
                if !enter[y.idx()] {
                    continue;
                }
                for &(c, x) in data.map.graph.exits(y) {
                    if !reach[x.idx()] && usable(c, x, y) {
                        reach[x.idx()] = true;
                        queue.push(x);
                    }
                }
            }
        };
        for &s in &data.sources {
            if data.supply_sets[s.idx()] & source_bits(t) != 0
                && pos.space(s).control == Some(side)
                && !barred.contains(&s)
            {
                reach[s.idx()] = true;
                queue.push(s);
            }
        }
        flood(&mut reach, &mut queue);
        let ports = usable_ports(data, pos, t, ctx);
        // One sea leg joins any two usable ports (14.1.4): when one is supplied by land, every
        // space with a land path to a usable port is supplied.
        if ports.iter().any(|p| reach[p.idx()]) {
            for p in ports {
                if !reach[p.idx()] {
                    reach[p.idx()] = true;
                    queue.push(p);
                }
            }
            flood(&mut reach, &mut queue);
        }
        Supplied {
            reach: Arc::new(Reach { supplied: reach }),
            tracer: t,
        }
    }

    /// The same flood answering for another tracer whose [`FloodKey`] is the same.
    fn for_tracer(&self, t: Tracer) -> Supplied {
        Supplied {
            reach: self.reach.clone(),
            tracer: t,
        }
    }

    /// Whether the tracer is in supply at `at`, as [`in_supply`] says.
    pub fn at(&self, data: &Data, at: Space) -> bool {
        let (i, r) = (at.idx(), &*self.reach);
        i < r.supplied.len() && (always_supplied(data, self.tracer, at) || r.supplied[i])
    }
}

/// What a flood from the sources ([`Supplied::new`]) reads of a tracer, the units always in
/// supply aside (14.1.5, 14.1.6): its side, the sources it draws on (14.2), the dashed lines it
/// may take (11.1.4, 14.1.3), whether it may trace by sea (14.1.4, 2022 14.2.2) and whether
/// through an open MEF beach (9.5.3.5). Tracers with the same key flood alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FloodKey {
    side: Side,
    sources: u8,
    lines: u32,
    sea: bool,
    beach: bool,
    /// The sources not counted (2022 13.1.12), as bits of [`FOREIGN`]; 0 for a plain flood.
    barred: u8,
}

/// The sources 2022 13.1.12 may leave out, by their spaces' ids: bit `i` of
/// [`FloodKey::barred`] is `FOREIGN[i]`.
const FOREIGN: [&str; 5] = ["essen", "breslau", "sofia", "constantinople", "belgrade"];

/// [`foreign_sources`] as bits of [`FOREIGN`].
fn foreign_bits(nation: Nation) -> u8 {
    foreign_sources(nation)
        .iter()
        .map(|id| FOREIGN.iter().position(|f| f == id).map_or(0, |i| 1u8 << i))
        .fold(0, |a, b| a | b)
}

impl FloodKey {
    fn of(data: &Data, t: Tracer) -> FloodKey {
        let l = data.lines;
        let (lines, sea, beach) = match t {
            Tracer::Unit {
                nation,
                lines: n,
                beach,
                ..
            } => {
                let mut lines = l.for_nation(n);
                if matches!(n, Nation::Ro | Nation::Sb) {
                    lines |= l.only_ru;
                }
                (lines, !matches!(nation, Nation::Ru | Nation::Sb | Nation::Ro), beach)
            }
            Tracer::Space(Side::Cp) => (l.only_tu, true, false),
            Tracer::Space(Side::Ap) => (l.only_br | l.only_it | l.only_ru | l.only_ana, true, false),
        };
        FloodKey {
            side: t.side(),
            sources: source_bits(t),
            lines,
            sea,
            beach,
            barred: 0,
        }
    }
}

/// What a supply trace reads of the position (14.1.2, 14.1.4): where each counter stands, who
/// controls each space and its fort's state, each in a number ([`loc_code`], [`space_code`])
/// so that two positions compare as two runs of numbers.
#[derive(Default, PartialEq, Eq)]
struct Inputs {
    locs: Vec<u16>,
    spaces: Vec<u8>,
}

/// A counter's place as a number: its space's index on the map; one number above any index for
/// every box (off the map a counter is nothing a supply trace reads, 14.1), so that the number
/// is made without a branch.
fn loc_code(l: Location) -> u16 {
    match l {
        Location::Map(s) => s.0,
        _ => u16::MAX,
    }
}

/// A space's control and fort as a number: each a small number ([`Side`] and [`Fort`] by their
/// order, none of control 0), without a branch.
fn space_code(st: &SpaceState) -> u8 {
    let control = st.control.map_or(0, |side| side as u8 + 1);
    control << 2 | st.fort as u8
}

impl Inputs {
    /// Writes what `pos` holds into `self`, its buffers reused.
    fn read(&mut self, pos: &Position) {
        self.locs.clear();
        self.locs.extend(pos.units.iter().map(|u| loc_code(u.loc)));
        self.spaces.clear();
        self.spaces.extend(pos.spaces.iter().map(space_code));
    }

    /// [`Inputs::read`] into `self`, of the counters' places and the spaces' states those of
    /// `old` where `kept` says they are (`(counters, spaces)`: known to hold what `old` was read
    /// from), copied instead of read.
    fn read_beside(&mut self, pos: &Position, old: &Inputs, kept: (bool, bool)) {
        if kept.0 {
            self.locs.clone_from(&old.locs);
        } else {
            self.locs.clear();
            self.locs.extend(pos.units.iter().map(|u| loc_code(u.loc)));
        }
        if kept.1 {
            self.spaces.clone_from(&old.spaces);
        } else {
            self.spaces.clear();
            self.spaces.extend(pos.spaces.iter().map(space_code));
        }
    }

    /// Whether `pos` holds what `self` was read from: [`Inputs::read`] compared, the counters'
    /// places where they lie, the spaces' states read out into `spaces` (a buffer); of the
    /// counters and the spaces, those `kept` says hold what was read (`(counters, spaces)`)
    /// not compared.
    fn hold_for(&self, pos: &Position, spaces: &mut Vec<u8>, kept: (bool, bool)) -> bool {
        if !kept.0 && !same_codes(&pos.units, &self.locs, |u| loc_code(u.loc)) {
            return false;
        }
        if kept.1 {
            return true;
        }
        spaces.clear();
        spaces.extend(pos.spaces.iter().map(space_code));
        *spaces == self.spaces
    }
}

/// Whether the codes of `now` are `was`, in order: sixteen at a time, side by side, and the
/// rest one by one.
fn same_codes<T, C: Copy + PartialEq>(now: &[T], was: &[C], code: impl Fn(&T) -> C) -> bool {
    const SIDE_BY_SIDE: usize = 16;
    if now.len() != was.len() {
        return false;
    }
    let (mut a, mut b) = (now.chunks_exact(SIDE_BY_SIDE), was.chunks_exact(SIDE_BY_SIDE));
    for (x, y) in (&mut a).zip(&mut b) {
        let mut same = true;
        for i in 0..SIDE_BY_SIDE {
            same &= code(&x[i]) == y[i];
        }
        if !same {
            return false;
        }
    }
    a.remainder().iter().zip(b.remainder()).all(|(x, &y)| code(x) == y)
}

/// The maps kept for one position.
struct Maps {
    inputs: Inputs,
    /// The stamps of the position's units and spaces when `inputs` were last found to be what
    /// it holds ([`crate::state::Stamped`]): while they are the same, so are the inputs.
    stamps: (u64, u64),
    occupancy: Arc<Occupancy>,
    /// Per kind of flood and set of open MEF beaches, the spaces supplied.
    floods: Vec<(FloodKey, Vec<Space>, Supplied)>,
    /// Per side (by [`crate::state::side_index`]), once a flood of the side asked for it:
    /// [`enterable`] for that side, kept as long as the side's floods are.
    enter: [Option<Vec<bool>>; 2],
    /// Beside each `enter`, [`held`] for that side: with it, all that the side's floods read
    /// of the position.
    held: [Option<Vec<u8>>; 2],
    /// The units of each space in data order: the first of each space, and after each unit
    /// the next in its space ([`NO_UNIT`] ends a chain).
    first: Vec<u16>,
    next: Vec<u16>,
}

const NO_UNIT: u16 = u16::MAX;

/// [`Maps::first`] and [`Maps::next`].
type Chains = (Vec<u16>, Vec<u16>);

/// The chains of [`Maps::first`] and [`Maps::next`].
fn chains(data: &Data, pos: &Position) -> (Vec<u16>, Vec<u16>) {
    let mut first = vec![NO_UNIT; data.map.graph.len()];
    let mut next = vec![NO_UNIT; pos.units.len()];
    for (i, u) in pos.units.iter().enumerate().rev() {
        if let Location::Map(s) = u.loc {
            if let Some(f) = first.get_mut(s.idx()) {
                next[i] = *f;
                *f = i as u16;
            }
        }
    }
    (first, next)
}

/// [`chains`] and [`Occupancy::of`] of `pos`, whose counters' places read as `locs`
/// ([`Inputs::read`]), made from those of `old`: each counter whose place changed taken out of
/// its old space's chain and put into its new one's, in data order, and the spaces it left or
/// entered counted again, and those spaces ([`Touched`]). `None` (make them afresh) when more
/// than a few moved.
fn moved_from(data: &Data, pos: &Position, old: &Maps, locs: &[u16]) -> Option<(Chains, Occupancy, Touched)> {
    let was = &old.inputs.locs;
    let n = data.map.graph.len();
    let units = pos.units.len();
    // A code below the spaces' count is a space's (the boxes' codes are above any index).
    if was.len() != units
        || locs.len() != units
        || old.next.len() != units
        || old.first.len() != n
        || old.occupancy.0.len() != n
        || old.occupancy.1.len() != n
        || n >= usize::from(u16::MAX - 3)
        || units >= usize::from(NO_UNIT)
    {
        return None;
    }
    let mut moved = [0usize; FEW];
    let mut count = 0;
    for (u, (a, b)) in was.iter().zip(locs).enumerate() {
        if a != b {
            *moved.get_mut(count)? = u;
            count += 1;
        }
    }
    let (mut first, mut next) = (old.first.clone(), old.next.clone());
    let mut occupancy = Occupancy::clone(&old.occupancy);
    for &u in &moved[..count] {
        // Out of the old space's chain.
        let a = usize::from(was[u]);
        if a < n {
            if first[a] == u as u16 {
                first[a] = next[u];
            } else {
                let mut p = first[a];
                while p != NO_UNIT && next[usize::from(p)] != u as u16 {
                    p = next[usize::from(p)];
                }
                if p != NO_UNIT {
                    next[usize::from(p)] = next[u];
                }
            }
            next[u] = NO_UNIT;
        }
        // Into the new space's, after the units before it in data order.
        let b = usize::from(locs[u]);
        if b < n {
            if first[b] == NO_UNIT || usize::from(first[b]) > u {
                next[u] = first[b];
                first[b] = u as u16;
            } else {
                let mut p = usize::from(first[b]);
                while next[p] != NO_UNIT && usize::from(next[p]) < u {
                    p = usize::from(next[p]);
                }
                next[u] = next[p];
                next[p] = u as u16;
            }
        }
    }
    // The spaces left or entered, counted again from their chains.
    let mut touched = Touched::default();
    for &u in &moved[..count] {
        for s in [usize::from(was[u]), usize::from(locs[u])] {
            if s >= n {
                continue;
            }
            touched.spaces[touched.len] = s as u16;
            touched.len += 1;
            let (mut bits, mut here) = (0u8, 0u8);
            let mut i = first[s];
            while i != NO_UNIT {
                if let Some(p) = data.pieces.get(usize::from(i)) {
                    bits |= side_bit(p.side);
                    here = here.saturating_add(1);
                }
                i = next[usize::from(i)];
            }
            occupancy.0[s] = bits;
            occupancy.1[s] = here;
        }
    }
    Some(((first, next), occupancy, touched))
}

/// How many counters' moves [`moved_from`] patches the old maps for.
const FEW: usize = 8;

/// The spaces on the map that the counters [`moved_from`] patched for left or entered (a space
/// perhaps twice): the only ones whose occupancy may differ from the old maps'.
#[derive(Default)]
struct Touched {
    spaces: [u16; 2 * FEW],
    len: usize,
}

impl Touched {
    fn spaces(&self) -> &[u16] {
        &self.spaces[..self.len]
    }
}

/// Supply maps kept beside a game: who stands where, and each tracer's supplied spaces (each
/// flooded once, [`Supplied`]), answered again while the counters' places, the spaces'
/// control and their forts' states are those they were made from; any change there drops
/// them all. A clone starts empty.
#[derive(Default)]
pub struct Kept(Mutex<Slot>, Mutex<crate::operations::KeptOperations>);

#[derive(Default)]
struct Slot {
    maps: Option<Maps>,
    /// The address of the position the maps are known to be made from while a [`Trust`] holds
    /// it borrowed (0: none), so that they are not compared with it again.
    trusted: usize,
    /// Whether the maps have been compared with (or made from) the trusted position since the
    /// trust began: a list that never asks the maps never compares them.
    verified: bool,
    /// The data of the trusted position's game, to make the maps again at the first question.
    data: Option<&'static Data>,
    /// Buffers to read a position into before comparing it with the maps' inputs.
    scratch: Inputs,
}

/// While alive, the kept maps answer for the position it borrows without comparing it with
/// what they were made from: nothing can change a position while it is borrowed.
pub struct Trust<'a> {
    kept: &'a Kept,
    _pos: &'a Position,
}

impl Drop for Trust<'_> {
    fn drop(&mut self) {
        self.kept.lock().trusted = 0;
    }
}

impl Clone for Kept {
    fn clone(&self) -> Kept {
        Kept::default()
    }
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Kept")
    }
}

fn address(pos: &Position) -> usize {
    pos as *const Position as usize
}

impl Kept {
    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Beside the maps: what the lists of operations keep between decisions
    /// ([`crate::operations::KeptOperations`]).
    pub(crate) fn operations(&self) -> std::sync::MutexGuard<'_, crate::operations::KeptOperations> {
        self.1.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The maps for `pos`: those kept if they were made from what `pos` holds, else new ones.
    fn maps<'m>(slot: &'m mut Slot, data: &Data, pos: &Position) -> &'m mut Maps {
        let trusted = slot.trusted != 0 && slot.trusted == address(pos);
        let known = trusted && slot.verified && slot.maps.is_some();
        let stamps = (pos.units.stamp(), pos.spaces.stamp());
        let mut inputs = Inputs::default();
        // Which of the counters and the spaces were not reached for change since the maps last
        // read them: those hold what the maps read. The others are compared where they lie
        // first, and read out only when changed.
        let kept = slot
            .maps
            .as_ref()
            .map_or((false, false), |m| (m.stamps.0 == stamps.0, m.stamps.1 == stamps.1));
        let same = known
            || kept == (true, true)
            || match (&slot.maps, &mut slot.scratch) {
                (Some(m), scratch) => m.inputs.hold_for(pos, &mut scratch.spaces, kept),
                (None, _) => false,
            }
            || {
                inputs = std::mem::take(&mut slot.scratch);
                match &slot.maps {
                    Some(m) => inputs.read_beside(pos, &m.inputs, kept),
                    None => inputs.read(pos),
                }
                let same = slot.maps.as_ref().is_some_and(|m| m.inputs == inputs);
                if same {
                    slot.scratch = std::mem::take(&mut inputs);
                }
                same
            };
        if !same {
            // Made for another position: a trust given for the old maps no longer holds.
            if !trusted {
                slot.trusted = 0;
            }
            // From the old maps' chains and occupancy when few counters moved.
            let ((first, next), occupancy, touched) = match slot
                .maps
                .as_ref()
                .and_then(|old| moved_from(data, pos, old, &inputs.locs))
            {
                Some((chains, occupancy, touched)) => (chains, occupancy, Some(touched)),
                None => (chains(data, pos), Occupancy::of(data, pos), None),
            };
            // A flood reads of the position only where its side's paths may enter ([`enterable`])
            // and which spaces the side holds unbesieged ([`held`]: its sources and ports,
            // 14.1.4, 14.2): a side's floods stay true while those are unchanged, as when its
            // own units move, or the enemy's behind their lines.
            let (floods, enter, held) = match slot.maps.take() {
                Some(old) => {
                    let spaces_same = old.inputs.spaces == inputs.spaces;
                    let fresh = Context {
                        occupancy: Some(&occupancy),
                        ..Context::default()
                    };
                    let Maps {
                        inputs: old_inputs,
                        occupancy: old_occupancy,
                        floods: old_floods,
                        enter: old_enter,
                        held: old_held,
                        ..
                    } = old;
                    let mut enter = [None, None];
                    let mut held_now = [None, None];
                    let mut kept = [false; 2];
                    for (i, (e, h)) in old_enter.into_iter().zip(old_held).enumerate() {
                        let side = if i == 0 { Side::Cp } else { Side::Ap };
                        let (Some(e), Some(h)) = (e, h) else { continue };
                        // The same spaces' states and enemy units: the same at once; else
                        // what the floods read, asked again of the spaces changed (with the
                        // spaces' states the same and a few counters moved, only of the spaces
                        // they left or entered).
                        let unchanged = match (&touched, spaces_same) {
                            (Some(t), true) => enter_and_held_unchanged_at(
                                data,
                                pos,
                                &fresh,
                                (&occupancy, &old_occupancy),
                                t.spaces(),
                                side,
                                &e,
                                &h,
                            ),
                            _ => false,
                        };
                        if unchanged
                            || (spaces_same && old_occupancy.same_for(&occupancy, other_side(side)))
                            || enter_and_held_unchanged(
                                data,
                                pos,
                                &fresh,
                                (&occupancy, &old_occupancy),
                                (&inputs.spaces, &old_inputs.spaces),
                                side,
                                &e,
                                &h,
                            )
                        {
                            (enter[i], held_now[i], kept[i]) = (Some(e), Some(h), true);
                        }
                    }
                    let floods = old_floods
                        .into_iter()
                        .filter(|(k, _, _)| kept[side_index(k.side)])
                        .collect();
                    slot.scratch = old_inputs;
                    (floods, enter, held_now)
                }
                None => (Vec::new(), [None, None], [None, None]),
            };
            slot.maps = Some(Maps {
                inputs,
                stamps,
                occupancy: Arc::new(occupancy),
                floods,
                enter,
                held,
                first,
                next,
            });
        }
        if trusted {
            slot.verified = true;
        }
        let maps = slot.maps.as_mut().expect("just made");
        maps.stamps = stamps;
        maps
    }

    /// Makes the maps answer for `pos` unchecked while the returned guard borrows it.
    /// They are compared with it at the first question asked of them, if any.
    pub fn trust<'a>(&'a self, data: &'static Data, pos: &'a Position) -> Trust<'a> {
        let mut slot = self.lock();
        slot.trusted = address(pos);
        slot.verified = false;
        slot.data = Some(data);
        Trust { kept: self, _pos: pos }
    }

    /// While a [`Trust`] holds `pos`: gives `visit` the units in `s` in data order, as
    /// [`Position::units_in`] does, from the kept chains, and says true. Otherwise (or for a
    /// space off the map) gives nothing and says false: ask the position.
    pub fn trusted_units_in(&self, pos: &Position, s: Space, visit: &mut dyn FnMut(usize)) -> bool {
        let mut slot = self.lock();
        if slot.trusted == 0 || slot.trusted != address(pos) {
            return false;
        }
        // Not yet compared since the trust began: compared now (and made again if need be).
        let maps = match slot.data {
            Some(data) if !slot.verified => Kept::maps(&mut slot, data, pos),
            _ => match slot.maps.as_mut() {
                Some(maps) => maps,
                None => return false,
            },
        };
        let Some(&head) = maps.first.get(s.idx()) else {
            return false;
        };
        let mut u = head;
        while u != NO_UNIT {
            visit(u as usize);
            u = maps.next[u as usize];
        }
        true
    }

    /// Who stands where in `pos`.
    pub fn occupancy(&self, data: &Data, pos: &Position) -> Arc<Occupancy> {
        let mut slot = self.lock();
        Kept::maps(&mut slot, data, pos).occupancy.clone()
    }

    /// The spaces where the tracer is in supply in `pos`, with `open_beaches` holding the MEF
    /// Beachhead marker.
    pub fn flood(&self, data: &Data, pos: &Position, t: Tracer, open_beaches: &[Space]) -> Supplied {
        self.flood_without(data, pos, t, open_beaches, 0, &Vec::new)
    }

    /// The flood of [`Kept::flood`] from the sources other than `barred` (whose bits of
    /// [`FOREIGN`] are `bits`), kept as one more kind of flood.
    fn flood_without(
        &self,
        data: &Data,
        pos: &Position,
        t: Tracer,
        open_beaches: &[Space],
        bits: u8,
        barred: &dyn Fn() -> Vec<Space>,
    ) -> Supplied {
        let key = FloodKey {
            barred: bits,
            ..FloodKey::of(data, t)
        };
        let mut slot = self.lock();
        let maps = Kept::maps(&mut slot, data, pos);
        if let Some((_, _, f)) = maps
            .floods
            .iter()
            .find(|(k, b, _)| *k == key && b.as_slice() == open_beaches)
        {
            return f.for_tracer(t);
        }
        let ctx = Context {
            open_beaches,
            occupancy: Some(&maps.occupancy),
            kept: None,
            ana_space: None,
        };
        let side = side_index(t.side());
        maps.held[side].get_or_insert_with(|| held(pos, t.side()));
        let enter = maps.enter[side].get_or_insert_with(|| enterable(data, pos, &ctx, t.side()));
        let f = Supplied::flooded(data, pos, t, &ctx, &barred(), enter);
        maps.floods.push((key, open_beaches.to_vec(), f.clone()));
        f
    }
}

/// The tracer of a counter on the map (its side, nationality and dashed-line nationality).
pub fn tracer_of(data: &Data, unit: usize) -> Tracer {
    let p = &data.pieces[unit];
    Tracer::Unit {
        side: p.side,
        nation: p.nation,
        lines: p.line_nation(),
        beach: p.beach,
    }
}

/// 9.5.3.5, 9.2.7.1: whether a counter traces supply through an MEF beach holding the
/// Beachhead marker, as an Allied port: the MEF army and the British corps but the CND, PT and
/// BEF (worked out once, at load: [`crate::data::Piece::beach`]).
pub(crate) fn traces_by_beach(p: &crate::data::Piece) -> bool {
    p.id == "br-army-mef"
        || (p.kind == crate::data::Kind::Corps
            && p.nation == Nation::Br
            && !["br-corps-cnd", "br-corps-pt", "br-corps-bef"].contains(&p.id.as_str()))
}

/// Whether a unit at `at` traces its supply through `via` (Maude, AP #61: "tracing supply to
/// Basra"): a land path the unit may trace along leads from its space to `via`, and `via` is
/// itself in supply for it.
pub fn traces_through(data: &Data, pos: &Position, t: Tracer, at: Space, via: Space, ctx: &Context) -> bool {
    if !in_supply(data, pos, t, via, ctx) {
        return false;
    }
    let side = t.side();
    let mut seen = vec![false; data.map.graph.len()];
    let mut queue = vec![at];
    seen[at.idx()] = true;
    while let Some(s) = queue.pop() {
        if s == via {
            return true;
        }
        for &(c, next) in data.map.graph.exits(s) {
            if !seen[next.idx()] && may_use(data, t, ctx, c, s, next) && may_enter(data, pos, ctx, side, next) {
                seen[next.idx()] = true;
                queue.push(next);
            }
        }
    }
    false
}

/// 2022 13.1.12, 17.1.4.1: the supply sources of another nation that a nation's units may not
/// draw on for a redeployment to or from the Reserve Box, or for replacements: Sofia and
/// Constantinople for German and Austro-Hungarian units; Essen, Breslau and Sofia for Turkish
/// ones (the Senussi with them); Essen, Breslau and Constantinople for Bulgarian ones; Belgrade for
/// Russian and Romanian ones.
fn foreign_sources(nation: Nation) -> &'static [&'static str] {
    match nation {
        Nation::Ge | Nation::Ah => &["sofia", "constantinople"],
        Nation::Tu | Nation::Sn => &["essen", "breslau", "sofia"],
        Nation::Bu => &["essen", "breslau", "constantinople"],
        Nation::Ru | Nation::Ro => &["belgrade"],
        _ => &[],
    }
}

/// 2022 13.1.12, 17.1.4.1: whether the unit, at `at`, is in supply only through another
/// nation's sources: in supply, but not when those sources are not counted.
pub fn only_through_foreign_sources(data: &Data, pos: &Position, unit: usize, at: Space, ctx: &Context) -> bool {
    let nation = data.pieces[unit].nation;
    // The sources barred, looked up on the map only when a trace needs them.
    let barred = || -> Vec<Space> { foreign_sources(nation).iter().filter_map(|id| data.space(id)).collect() };
    let t = tracer_of(data, unit);
    if foreign_sources(nation).is_empty() || !in_supply(data, pos, t, at, ctx) {
        return false;
    }
    match ctx.kept {
        // The kept flood from the other sources, made once for every unit of the nationality.
        // (With none of them on the map, that flood is the plain one, which supplies `at`.)
        Some(kept) if at.idx() < data.map.graph.len() => !kept
            .flood_without(data, pos, t, ctx.open_beaches, foreign_bits(nation), &barred)
            .at(data, at),
        _ => {
            let barred = barred();
            !traced_to(data, pos, t, at, ctx, |s| !barred.contains(&s))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::PathsOfGlory;
    use sandtable_core::game::Game;

    /// 14.1.2: at every decision of random campaigns, against the position with one unit moved
    /// elsewhere or off the map (a few units each time, of both sides) and with one space's
    /// control or fort changed, whether the spaces each side's paths may enter and the spaces it
    /// holds are unchanged, asked only of the spaces whose state or enemy units changed, is what
    /// comparing them made afresh says.
    #[test]
    fn what_the_paths_may_enter_asked_again_where_changed_is_what_is_made_afresh() {
        let (mut same, mut changed, mut moved_changed) = (0u64, 0u64, 0u64);
        for seed in 0..2 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            let mut t = 0usize;
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 300, |g: &PathsOfGlory| {
                t += 1;
                let (data, pos) = (g.data(), &g.pos);
                let n = data.map.graph.len();
                let occupancy = Occupancy::of(data, pos);
                let ctx = Context::default();
                let mut inputs = Inputs::default();
                inputs.read(pos);
                // Each other position, with the spaces whose occupancy alone may differ when that
                // is all that differs (a unit moved: the spaces it left and entered).
                let mut others = Vec::new();
                for k in (t % 11..pos.units.len()).step_by(11) {
                    let mut was = pos.clone();
                    was.units[k].loc = match k % 3 {
                        0 => Location::Eliminated,
                        _ => Location::Map(Space(((k * 7 + t) % n) as u16)),
                    };
                    let touched: Vec<u16> = [was.units[k].loc, pos.units[k].loc]
                        .into_iter()
                        .filter_map(|l| match l {
                            Location::Map(s) => Some(s.0),
                            _ => None,
                        })
                        .collect();
                    others.push((was, Some(touched)));
                }
                let mut was = pos.clone();
                let s = (t * 13) % was.spaces.len();
                was.spaces[s].control = match was.spaces[s].control {
                    Some(Side::Cp) => Some(Side::Ap),
                    _ => Some(Side::Cp),
                };
                others.push((was.clone(), None));
                was.spaces[s].fort = Fort::Besieged;
                others.push((was, None));
                for (was, touched) in others {
                    let occupancy_was = Occupancy::of(data, &was);
                    let mut inputs_was = Inputs::default();
                    inputs_was.read(&was);
                    let ctx_was = Context {
                        occupancy: Some(&occupancy_was),
                        ..ctx
                    };
                    let ctx_now = Context {
                        occupancy: Some(&occupancy),
                        ..ctx
                    };
                    for side in [Side::Cp, Side::Ap] {
                        let (enter, held_was) = (enterable(data, &was, &ctx_was, side), held(&was, side));
                        let fresh = enterable(data, pos, &ctx_now, side) == enter && held(pos, side) == held_was;
                        assert_eq!(
                            enter_and_held_unchanged(
                                data,
                                pos,
                                &ctx_now,
                                (&occupancy, &occupancy_was),
                                (&inputs.spaces, &inputs_was.spaces),
                                side,
                                &enter,
                                &held_was,
                            ),
                            fresh,
                            "{side:?}"
                        );
                        if let Some(touched) = &touched {
                            assert_eq!(
                                enter_and_held_unchanged_at(
                                    data,
                                    pos,
                                    &ctx_now,
                                    (&occupancy, &occupancy_was),
                                    touched,
                                    side,
                                    &enter,
                                    &held_was,
                                ),
                                fresh,
                                "{side:?}, asked where a unit moved"
                            );
                            moved_changed += u64::from(!fresh);
                        }
                        if fresh {
                            same += 1;
                        } else {
                            changed += 1;
                        }
                    }
                }
            })
            .expect("random play");
        }
        assert!(
            same > 5_000 && changed > 1_000 && moved_changed > 100,
            "{same} {changed} {moved_changed}"
        );
    }

    /// 14.1: at every decision of random campaigns, whether the position holds what the inputs
    /// of the decision before were read from, compared where they lie ([`Inputs::hold_for`]), is
    /// what reading them out and comparing says; likewise for positions with one counter moved,
    /// one space's control changed or one fort besieged.
    #[test]
    fn the_inputs_compared_where_they_lie_are_those_read_out_at_every_decision() {
        let (mut same, mut changed) = (0u64, 0u64);
        for seed in 0..3 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            let mut before = Inputs::default();
            let mut t = 0usize;
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 400, |g: &PathsOfGlory| {
                t += 1;
                let pos = &g.pos;
                let n = g.data().map.graph.len();
                let mut now = Inputs::default();
                now.read(pos);
                // Each with what is known to hold what `pos` holds (`(counters, spaces)`).
                let mut others = vec![(std::mem::take(&mut before), (false, false))];
                let k = (t * 7) % pos.units.len();
                let mut was = pos.clone();
                was.units[k].loc = match was.units[k].loc {
                    Location::Map(_) => Location::Reserve,
                    _ => Location::Map(Space((t % n) as u16)),
                };
                let s = (t * 13) % pos.spaces.len();
                let mut flipped = pos.clone();
                flipped.spaces[s].control = match pos.spaces[s].control {
                    Some(Side::Cp) => Some(Side::Ap),
                    _ => Some(Side::Cp),
                };
                let mut besieged = pos.clone();
                besieged.spaces[s].fort = Fort::Besieged;
                for (other, kept) in [
                    (was, (false, true)),
                    (flipped, (true, false)),
                    (besieged, (true, false)),
                ] {
                    let mut read = Inputs::default();
                    read.read(&other);
                    others.push((read, (false, false)));
                    let mut read = Inputs::default();
                    read.read(&other);
                    others.push((read, kept));
                }
                for (inputs, kept) in &others {
                    let agreed = inputs.hold_for(pos, &mut Vec::new(), *kept);
                    assert_eq!(agreed, *inputs == now, "decision {t}, {kept:?}");
                    // Read beside them, what is known to hold copied: what reading says.
                    let mut beside = Inputs::default();
                    beside.read_beside(pos, inputs, *kept);
                    assert!(beside == now, "decision {t}, {kept:?}");
                    if agreed {
                        same += 1;
                    } else {
                        changed += 1;
                    }
                }
                before = now;
            })
            .expect("random play");
        }
        assert!(same > 300 && changed > 2_000, "{same} {changed}");
    }

    /// 14.1: at every decision of random campaigns, what the kept maps carry over from the
    /// positions before (each side's floods and the spaces its paths may enter, the occupancy,
    /// the units of each space) is what a fresh computation makes of the position now; then every
    /// unit's supply is asked, so that the next decision has floods to carry over.
    #[test]
    fn what_the_kept_maps_carry_over_is_made_afresh_at_every_decision() {
        let (mut floods, mut enters) = (0u64, 0u64);
        for seed in 0..3 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 400, |g: &PathsOfGlory| {
                let (data, pos) = (g.data(), &g.pos);
                {
                    let mut slot = g.kept.lock();
                    let maps = Kept::maps(&mut slot, data, pos);
                    let occupancy = Occupancy::of(data, pos);
                    assert!(*maps.occupancy == occupancy, "the occupancy");
                    assert!(
                        (maps.first.clone(), maps.next.clone()) == chains(data, pos),
                        "the units' chains"
                    );
                    let fresh = Context {
                        occupancy: Some(&occupancy),
                        ..Context::default()
                    };
                    for side in [Side::Cp, Side::Ap] {
                        let each: Vec<bool> = data
                            .map
                            .graph
                            .space_indices()
                            .map(|s| may_enter(data, pos, &fresh, side, s))
                            .collect();
                        assert!(
                            enterable(data, pos, &fresh, side) == each,
                            "{side:?} may enter, space by space"
                        );
                        if let Some(enter) = &maps.enter[side_index(side)] {
                            assert!(*enter == enterable(data, pos, &fresh, side), "{side:?} may enter");
                            enters += 1;
                        }
                        if let Some(h) = &maps.held[side_index(side)] {
                            assert!(*h == held(pos, side), "{side:?} holds");
                        }
                    }
                    for (key, beaches, f) in &maps.floods {
                        let barred: Vec<Space> = FOREIGN
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| key.barred & (1 << i) != 0)
                            .filter_map(|(_, id)| data.space(id))
                            .collect();
                        let ctx = Context {
                            open_beaches: beaches,
                            ..fresh
                        };
                        let made = Supplied::without(data, pos, f.tracer, &ctx, &barred);
                        assert!(made.reach.supplied == f.reach.supplied, "{key:?}");
                        floods += 1;
                    }
                }
                let ctx = crate::sequence::supply_context(g);
                for (u, unit) in pos.units.iter().enumerate() {
                    if let Location::Map(at) = unit.loc {
                        in_supply(data, pos, tracer_of(data, u), at, &ctx);
                        only_through_foreign_sources(data, pos, u, at, &ctx);
                    }
                }
            })
            .expect("random play");
        }
        assert!(
            floods > 3_000 && enters > 500,
            "{floods} floods, {enters} sets of spaces"
        );
    }
}

//! 13.0 Strategic Redeployment: a unit in supply moves any distance through friendly-controlled
//! spaces (13.1.5, 13.1.6), a corps by sea from port to port (13.1.7), to and from the Reserve
//! Box (13.1.8, 13.1.9), for 1 SR point a corps and 4 an army (13.1.2), with the limits on
//! Russians, capitals, Montenegro and the Near East (13.1.6, 13.1.10/2022 13.1.11, 13.2), the
//! Channel ports (2022 11.1.9) and Italy in the Historical scenario (5.7.4.6).

use crate::data::{Data, Kind, Nation, Side};
use crate::state::{Fort, Location, Position};
use crate::supply::{self, in_supply, tracer_of, Supplied};
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// Where a redeployment starts or ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    Map(Space),
    Reserve,
}

/// 13.1.2: what a unit's redeployment costs: 1 for a corps, 4 for an army.
pub fn cost(data: &Data, unit: usize) -> u8 {
    match data.pieces[unit].kind {
        Kind::Corps => 1,
        Kind::Army => 4,
    }
}

/// The Near East redeployments already made this turn (13.2).
#[derive(Clone, Copy, Debug, Default)]
pub struct NearEastUsed {
    /// A British corps by sea or the Reserve Box (13.2.1).
    pub british: bool,
    /// A Russian corps (13.2.2).
    pub russian: bool,
    /// A non-Turkish CP corps (13.2.3).
    pub central: bool,
}

/// What bears on a redeployment beyond the position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    pub supply: supply::Context<'a>,
    pub near_east: NearEastUsed,
    /// Race to the Sea played or CP War Status 4 or more (2022 11.1.9: no CP redeployment into
    /// Amiens, Calais or Ostend before).
    pub channel_ports_open: bool,
    /// The Historical scenario's 5.7.4.6 is in force (the Allies not yet at Total War).
    pub italy_restricted: bool,
    /// The Treaty of Brest-Litovsk has been played (16.4.9).
    pub brest_litovsk: bool,
    /// And bars passing through a space the other Allies hold, as well as ending there (games
    /// begun on data edition 3 or later).
    pub brest_litovsk_through: bool,
    /// 2022 13.1.12: no redeployment to or from the Reserve Box for a unit supplied only through
    /// another nation's sources (games begun on data edition 3 or later).
    pub foreign_sources_barred: bool,
    /// 2022 13.1.5: no redeployment ends a siege; 2022 13.2.1: the ANA never sails out of the
    /// Near East (games begun on data edition 5 or later).
    pub sieges_and_the_ana: bool,
    /// While one list of redeployments is made: each tracer's supplied spaces (14.1), asked of
    /// the supply maps once for the whole list; `None` to ask at each question.
    pub(crate) floods: Option<&'a Floods>,
}

/// Each tracer's supplied spaces ([`Supplied`]) in one position and context, made at the first
/// question: one list of redeployments asks the same few tracers again and again.
#[derive(Default)]
pub(crate) struct Floods(
    std::cell::RefCell<Vec<(supply::Tracer, Supplied)>>,
    /// [`Stands`] of the position, made at the first question (the Reserve Box's
    /// redeployments of every nationality read it, 13.1.8).
    std::cell::OnceCell<Stands>,
);

/// Who stands where, as the Reserve Box's redeployments ask it (13.1.8): per space, how many
/// units stand in it; per nationality printed, the spaces holding one of its units (one bit
/// each, `words` words a nationality, in the order of [`Nation`]).
struct Stands {
    all: Vec<u8>,
    own: Vec<u64>,
    words: usize,
}

impl Stands {
    fn of(data: &Data, pos: &Position) -> Stands {
        let n = data.map.graph.len();
        let words = n.div_ceil(64);
        let mut st = Stands {
            all: vec![0; n],
            own: vec![0; words * Nation::ALL.len()],
            words,
        };
        for (u, p) in pos.units.iter().zip(&data.pieces) {
            if let Location::Map(s) = u.loc {
                let Some(c) = st.all.get_mut(s.idx()) else { continue };
                *c = c.saturating_add(1);
                if let Some(w) = st.own.get_mut(p.nation as usize * words + s.idx() / 64) {
                    *w |= 1 << (s.idx() % 64);
                }
            }
        }
        st
    }

    /// The spaces holding a unit of the nationality printed.
    fn own(&self, n: Nation) -> &[u64] {
        self.own
            .get(n as usize * self.words..(n as usize + 1) * self.words)
            .unwrap_or(&[])
    }
}

impl std::fmt::Debug for Floods {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Floods")
    }
}

/// The supplied spaces of the tracer: from the list's floods when the context has them.
fn flood_of(data: &Data, pos: &Position, t: supply::Tracer, ctx: &Context) -> Supplied {
    let Some(floods) = ctx.floods else {
        return Supplied::new(data, pos, t, &ctx.supply);
    };
    if let Some((_, f)) = floods.0.borrow().iter().find(|(k, _)| *k == t) {
        return f.clone();
    }
    let f = Supplied::new(data, pos, t, &ctx.supply);
    floods.0.borrow_mut().push((t, f.clone()));
    f
}

/// 14.1: whether the unit is in supply at `at`, as [`in_supply`] says: from the list's floods
/// when the context has them and the supply maps are kept (a flood is then what `in_supply`
/// reads).
fn supplied_at(data: &Data, pos: &Position, unit: usize, at: Space, ctx: &Context) -> bool {
    let t = tracer(data, unit);
    match (ctx.floods, ctx.supply.kept) {
        (Some(floods), Some(_)) if at.idx() < data.map.graph.len() => {
            if let Some((_, f)) = floods.0.borrow().iter().find(|(k, _)| *k == t) {
                return f.at(data, at);
            }
            flood_of(data, pos, t, ctx).at(data, at)
        }
        _ => in_supply(data, pos, t, at, &ctx.supply),
    }
}

/// 16.4.9: after Brest-Litovsk Russians and the other Allies never share a space.
fn brest_litovsk_bars(data: &Data, pos: &Position, unit: usize, s: Space, ctx: &Context) -> bool {
    let p = &data.pieces[unit];
    ctx.brest_litovsk
        && p.side == Side::Ap
        && pos.units_in(s).any(|o| {
            data.pieces[o].side == Side::Ap && (data.pieces[o].nation == Nation::Ru) != (p.nation == Nation::Ru)
        })
}

/// The nationality a unit redeploys as (2022 13.x: ANA, AUS, CND and PT British, SN Turkish).
fn sr_nation(data: &Data, unit: usize) -> Nation {
    let p = &data.pieces[unit];
    match p.nation {
        Nation::Ana => Nation::Br,
        Nation::Sn => Nation::Tu,
        n => n,
    }
}

fn is_russian_space(data: &Data, s: Space) -> bool {
    data.facts(s).nation.as_deref() == Some("ru")
}

fn near_east(data: &Data, s: Space) -> bool {
    data.facts(s).near_east
}

/// A space a redeployment may pass through or end in (13.1.6): the side's, or a besieged enemy
/// fort's (2022 13.1.5); never one with enemy units; Russians only inside Russia. (The walks
/// ask [`Mover::open`]; this is what the tests hold it to.)
#[cfg(test)]
fn open_to(data: &Data, pos: &Position, unit: usize, ctx: &Context, s: Space) -> bool {
    open_to_as(data, pos, unit, ctx, s, false)
}

/// [`open_to`], with the CP space the ANA stands in counted as the Allies' when `ana_ours`
/// (11.1.14, data edition 6: a redeployment passes through it, but does not end there, where it
/// would leave an Allied unit in a CP space once the ANA goes).
#[cfg(test)]
fn open_to_as(data: &Data, pos: &Position, unit: usize, ctx: &Context, s: Space, ana_ours: bool) -> bool {
    let p = &data.pieces[unit];
    // 11.3.1: only the Near East armies go into the Near East.
    if !pos.may_enter_near_east(data, unit) && near_east(data, s) {
        return false;
    }
    // 5.7.4.6: until the Allies reach Total War only AH and IT armies go into or through Italy.
    if ctx.italy_restricted
        && p.kind == Kind::Army
        && !matches!(p.nation, Nation::Ah | Nation::It)
        && data.facts(s).nation.as_deref() == Some("it")
    {
        return false;
    }
    // 16.4.9: after Brest-Litovsk neither Russians nor the other Allies pass through a space the
    // other holds.
    if ctx.brest_litovsk_through && brest_litovsk_bars(data, pos, unit, s, ctx) {
        return false;
    }
    let st = pos.space(s);
    let f = data.facts(s);
    let ours = st.control == Some(p.side) || (ana_ours && p.side == Side::Ap && ctx.supply.ana_space == Some(s));
    let besieged_enemy_fort = f.fort > 0 && f.faction != p.side && st.fort == Fort::Besieged;
    let enemy = supply::enemy_units(data, pos, ctx.supply.occupancy, p.side, s);
    (ours || besieged_enemy_fort) && !enemy && !f.is_box && (p.nation != Nation::Ru || is_russian_space(data, s))
}

/// A port the unit's side may redeploy through by sea (13.1.7.1, 13.1.7.2).
fn port(data: &Data, pos: &Position, side: Side, s: Space) -> bool {
    pos.sea_port(data, side, s)
}

/// 13.1.10, 2022 13.1.11: a nation's corps may not go to or from the Reserve Box while its
/// capital (for Austria-Hungary either) is enemy-controlled or besieged; Belgium and Serbia are
/// exempt.
fn capital_open(data: &Data, pos: &Position, unit: usize) -> bool {
    pos.holds_capital(data, sr_nation(data, unit), data.pieces[unit].side)
}

/// What one unit's walk asks of the unit and the context at every space, worked out once for
/// the walk.
struct Mover {
    unit: usize,
    side: Side,
    /// Where it redeploys from.
    from: Place,
    /// 11.3.1: whether it may enter the Near East.
    near_east: bool,
    /// 5.7.4.6: whether Italy is closed to it (an army other than AH or IT before Total War).
    italy_closed: bool,
    russian: bool,
    /// 11.1.4: every dashed line's bits, and those of the dashed lines it may take.
    dashed: u32,
    own_lines: u32,
    /// Whether [`may_end`] may bar a space to it.
    ends_barred: bool,
}

impl Mover {
    fn of(data: &Data, pos: &Position, unit: usize, ctx: &Context) -> Mover {
        let p = &data.pieces[unit];
        Mover {
            unit,
            side: p.side,
            from: place_of(pos, unit),
            near_east: pos.may_enter_near_east(data, unit),
            italy_closed: ctx.italy_restricted && p.kind == Kind::Army && !matches!(p.nation, Nation::Ah | Nation::It),
            russian: p.nation == Nation::Ru,
            dashed: data.lines.dashed(),
            own_lines: data.lines.for_nation(p.line_nation()),
            ends_barred: (p.side == Side::Cp && !ctx.channel_ports_open)
                || (ctx.italy_restricted && p.kind == Kind::Army && p.nation == Nation::Ge),
        }
    }

    /// [`open_to_as`], the unit's part asked once for the walk.
    #[inline]
    fn open(&self, data: &Data, pos: &Position, ctx: &Context, s: Space, ana_ours: bool) -> bool {
        let f = data.facts(s);
        let st = pos.space(s);
        let ours =
            st.control == Some(self.side) || (ana_ours && self.side == Side::Ap && ctx.supply.ana_space == Some(s));
        let besieged_enemy_fort = f.fort > 0 && f.faction != self.side && st.fort == Fort::Besieged;
        (ours || besieged_enemy_fort)
            && !f.is_box
            && (self.near_east || !f.near_east)
            && !supply::enemy_units(data, pos, ctx.supply.occupancy, self.side, s)
            && (!self.italy_closed || f.nation.as_deref() != Some("it"))
            && (!self.russian || f.nation.as_deref() == Some("ru"))
            && !(ctx.brest_litovsk_through && brest_litovsk_bars(data, pos, self.unit, s, ctx))
    }
}

/// The spaces a unit on the map reaches overland (13.1.6), its own space aside, each given to
/// `visit` as it is reached; the walk stops when `visit` says so (returns true).
fn overland_of(
    data: &Data,
    pos: &Position,
    m: &Mover,
    from: Space,
    ctx: &Context,
    mut visit: impl FnMut(Space) -> bool,
) -> bool {
    let mef_beach = data.lines.mef_beach;
    // The spaces reached, a bit each: on the stack for a map of up to 512 spaces.
    let (mut small, mut large) = ([0u64; 8], Vec::new());
    let words = data.map.graph.len().div_ceil(64);
    let seen: &mut [u64] = if words <= small.len() {
        &mut small[..words]
    } else {
        large.resize(words, 0);
        &mut large
    };
    let bit = |s: Space| (s.idx() / 64, 1u64 << (s.idx() % 64));
    let (w, b) = bit(from);
    seen[w] |= b;
    let mut queue = Lifo::new();
    queue.push(from);
    while let Some(s) = queue.pop() {
        for &(c, n) in data.map.graph.exits(s) {
            let (w, b) = bit(n);
            if seen[w] & b != 0 {
                continue;
            }
            let f = data.map.features(c);
            let line_ok = if f & mef_beach != 0 {
                ctx.supply.open_beaches.contains(&n) || ctx.supply.open_beaches.contains(&s)
            } else {
                f & m.dashed == 0 || f & m.own_lines != 0
            };
            if line_ok && m.open(data, pos, ctx, n, true) {
                seen[w] |= b;
                queue.push(n);
                // 11.1.14: through the ANA's space, not to it.
                if ctx.supply.ana_space != Some(n) && visit(n) {
                    return true;
                }
            }
        }
    }
    false
}

/// [`overland_of`] as it was written before the walk asked the unit's part once: what the
/// tests hold it to.
#[cfg(test)]
fn overland(
    data: &Data,
    pos: &Position,
    unit: usize,
    from: Space,
    ctx: &Context,
    visit: &mut dyn FnMut(Space) -> bool,
) -> bool {
    let p = &data.pieces[unit];
    let lines = data.lines;
    // The spaces reached, a bit each: on the stack for a map of up to 512 spaces.
    let (mut small, mut large) = ([0u64; 8], Vec::new());
    let words = data.map.graph.len().div_ceil(64);
    let seen: &mut [u64] = if words <= small.len() {
        &mut small[..words]
    } else {
        large.resize(words, 0);
        &mut large
    };
    let bit = |s: Space| (s.idx() / 64, 1u64 << (s.idx() % 64));
    let (w, b) = bit(from);
    seen[w] |= b;
    let mut queue = Lifo::new();
    queue.push(from);
    while let Some(s) = queue.pop() {
        for &(c, n) in data.map.graph.exits(s) {
            let (w, b) = bit(n);
            if seen[w] & b != 0 {
                continue;
            }
            let f = data.map.features(c);
            let line_ok = if f & lines.mef_beach != 0 {
                ctx.supply.open_beaches.contains(&n) || ctx.supply.open_beaches.contains(&s)
            } else {
                f & lines.dashed() == 0 || f & lines.for_nation(p.line_nation()) != 0
            };
            if line_ok && open_to_as(data, pos, unit, ctx, n, true) {
                seen[w] |= b;
                queue.push(n);
                // 11.1.14: through the ANA's space, not to it.
                if ctx.supply.ana_space != Some(n) && visit(n) {
                    return true;
                }
            }
        }
    }
    false
}

/// Spaces waiting to be walked on from, the last put first taken: on the stack while it holds
/// up to [`LIFO_ON_STACK`] of them (a walk queues each space once).
struct Lifo {
    small: [Space; LIFO_ON_STACK],
    len: usize,
    large: Vec<Space>,
}

const LIFO_ON_STACK: usize = 64;

impl Lifo {
    fn new() -> Lifo {
        Lifo {
            small: [Space(0); LIFO_ON_STACK],
            len: 0,
            large: Vec::new(),
        }
    }

    fn push(&mut self, s: Space) {
        if self.len < LIFO_ON_STACK && self.large.is_empty() {
            self.small[self.len] = s;
            self.len += 1;
        } else {
            self.large.push(s);
        }
    }

    fn pop(&mut self) -> Option<Space> {
        if let Some(s) = self.large.pop() {
            return Some(s);
        }
        self.len = self.len.checked_sub(1)?;
        Some(self.small[self.len])
    }
}

/// 2022 13.1.5 "never out of it if that would end the siege": whether `unit`, besieging the
/// enemy fort of `from`, would leave too few of its side there to besiege it (15.2.1), or none.
fn ends_siege(data: &Data, pos: &Position, unit: usize, from: Space) -> bool {
    let st = pos.space(from);
    let side = data.pieces[unit].side;
    if st.fort != Fort::Besieged || st.control == Some(side) {
        return false;
    }
    let staying = pos.units_in(from).filter(|&u| u != unit && data.pieces[u].side == side);
    !crate::sieges::units_besiege(data, staying, data.facts(from).fort)
}

/// Whether the unit is held by a Near East limit when going from `a` to `b` (13.2), with
/// `by_sea_or_reserve` for a sea or Reserve Box redeployment.
fn near_east_limit(
    data: &Data,
    unit: usize,
    a: Place,
    b: Place,
    by_sea_or_reserve: bool,
    ctx: &Context,
) -> Option<Refusal> {
    near_east_held(data, unit, a, b, by_sea_or_reserve, ctx).then(|| {
        Refusal::new(
            "13.2",
            Text::new(
                "the Near East limits: one British corps a turn by sea or the Reserve Box, one Russian corps, one CP corps other than Turkish; no army, no other Allied corps by sea (nor the ANA)",
                "近东限制:每回合一个英国军可经海路或预备队格、一个俄国军、一个土耳其以外的同盟国军;集团军不可,其他协约国军(包括阿拉伯北方军)不可经海路",
            ),
        )
    })
}

/// Whether [`near_east_limit`] holds the unit: most redeployments stay on one side of the Near
/// East's edge, told at once.
#[inline]
fn near_east_held(data: &Data, unit: usize, a: Place, b: Place, by_sea_or_reserve: bool, ctx: &Context) -> bool {
    in_near_east(data, a) != in_near_east(data, b) && near_east_crossing_held(data, unit, by_sea_or_reserve, ctx)
}

/// Whether a place is in the Near East (13.2: the Reserve Box is not).
#[inline]
fn in_near_east(data: &Data, p: Place) -> bool {
    matches!(p, Place::Map(s) if near_east(data, s))
}

/// [`near_east_held`] for a redeployment across the Near East's edge.
fn near_east_crossing_held(data: &Data, unit: usize, by_sea_or_reserve: bool, ctx: &Context) -> bool {
    let p = &data.pieces[unit];
    let held = match (p.side, sr_nation(data, unit)) {
        // 13.2.3: Turkish units are free; one other CP corps a turn.
        (Side::Cp, Nation::Tu) => false,
        (Side::Cp, _) => ctx.near_east.central || p.kind == Kind::Army,
        // 13.2.2: one Russian corps a turn, never an army.
        (Side::Ap, Nation::Ru) => ctx.near_east.russian || p.kind == Kind::Army,
        // 13.2.1: one British corps (the AUS included, not the CND, PT or BEF) a turn by sea or
        // the Reserve Box; overland is free. 2022 13.2.1: the ANA, British for redeployment,
        // never sails out of the Near East.
        (Side::Ap, Nation::Br) if by_sea_or_reserve => {
            ctx.near_east.british
                || (ctx.sieges_and_the_ana && p.nation == Nation::Ana)
                || ["br-corps-cnd", "br-corps-pt", "br-corps-bef"].contains(&p.id.as_str())
        }
        (Side::Ap, Nation::Br) => false,
        // Other Allied corps never by sea or the Reserve Box.
        (Side::Ap, _) => by_sea_or_reserve,
    };
    held
}

/// 13.2: which of the Near East's once-a-turn allowances a legal redeployment of `unit` to `to`
/// uses up (none when it stays on one side of the Near East's edge, or is free).
pub fn near_east_use(data: &Data, pos: &Position, unit: usize, to: Place, ctx: &Context) -> NearEastUsed {
    let mut used = NearEastUsed::default();
    if !crosses_near_east(data, pos, unit, to) {
        return used;
    }
    // Only by sea or the Reserve Box when no overland way reaches it (asked only of a British
    // unit, the walk stopping at the first such way).
    let by_sea_or_reserve = || !visit_candidates(data, pos, unit, ctx, |p, sea| p == to && !sea);
    match (data.pieces[unit].side, sr_nation(data, unit)) {
        (Side::Cp, Nation::Tu) => {}
        (Side::Cp, _) => used.central = true,
        (Side::Ap, Nation::Ru) => used.russian = true,
        (Side::Ap, Nation::Br) if by_sea_or_reserve() => used.british = true,
        _ => {}
    }
    used
}

/// 13.2: whether a redeployment of `unit` to `to` crosses the Near East's edge (only such a one
/// may use up an allowance, [`near_east_use`]).
pub(crate) fn crosses_near_east(data: &Data, pos: &Position, unit: usize, to: Place) -> bool {
    let ne = |p: Place| matches!(p, Place::Map(s) if near_east(data, s));
    ne(place_of(pos, unit)) != ne(to) && unit < data.pieces.len()
}

/// Every place a unit may redeploy to (13.1), with no Near East or capital limit broken.
pub fn destinations(data: &Data, pos: &Position, unit: usize, ctx: &Context) -> Vec<Place> {
    if unit >= data.pieces.len() || unit >= pos.units.len() {
        return Vec::new();
    }
    // The spaces found, a bit each (on the stack for a map of up to 512 spaces), so that they
    // come out in order, each once, with the Reserve Box last: the order of [`Place`].
    let n = data.map.graph.len();
    let (mut small, mut large) = ([0u64; 8], Vec::new());
    let words = n.div_ceil(64);
    let found: &mut [u64] = if words <= small.len() {
        &mut small[..words]
    } else {
        large.resize(words, 0);
        &mut large
    };
    let (mut reserve, mut beyond) = (false, Vec::new());
    let from = place_of(pos, unit);
    // 13.2: which side of the Near East's edge it leaves from, asked once.
    let from_ne = in_near_east(data, from);
    visit_candidates(data, pos, unit, ctx, |to, sea_or_reserve| {
        if in_near_east(data, to) == from_ne || !near_east_crossing_held(data, unit, sea_or_reserve, ctx) {
            match to {
                Place::Map(s) if s.idx() < n => found[s.idx() / 64] |= 1 << (s.idx() % 64),
                Place::Map(_) => beyond.push(to),
                Place::Reserve => reserve = true,
            }
        }
        false
    });
    let count = found.iter().map(|w| w.count_ones() as usize).sum::<usize>();
    let mut out = Vec::with_capacity(count + beyond.len() + 1);
    for (w, &word) in found.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            out.push(Place::Map(Space((w * 64 + bits.trailing_zeros() as usize) as u16)));
            bits &= bits - 1;
        }
    }
    beyond.sort_unstable();
    beyond.dedup();
    out.extend(beyond);
    if reserve {
        out.push(Place::Reserve);
    }
    out
}

fn place_of(pos: &Position, unit: usize) -> Place {
    match pos.units[unit].loc {
        Location::Map(s) => Place::Map(s),
        _ => Place::Reserve,
    }
}

/// Whether a redeployment may end in a space (2022 11.1.9 for the CP's Channel ports; 5.7.4.6
/// for German armies in Trent, Villach and Trieste).
fn may_end(data: &Data, unit: usize, ctx: &Context, s: Space) -> bool {
    let p = &data.pieces[unit];
    let id = data.map.graph.space(s).id.as_str();
    if p.side == Side::Cp && !ctx.channel_ports_open && ["amiens", "calais", "ostend"].contains(&id) {
        return false;
    }
    !(ctx.italy_restricted
        && p.kind == Kind::Army
        && p.nation == Nation::Ge
        && ["trent", "villach", "trieste"].contains(&id))
}

/// [`candidates`], for tests elsewhere.
#[cfg(test)]
pub(crate) fn places_by_sea_or_reserve(data: &Data, pos: &Position, unit: usize, ctx: &Context) -> Vec<(Place, bool)> {
    candidates(data, pos, unit, ctx)
}

/// The places before the Near East limits, each with whether it is reached by sea or the
/// Reserve Box.
fn candidates(data: &Data, pos: &Position, unit: usize, ctx: &Context) -> Vec<(Place, bool)> {
    let mut out = Vec::new();
    visit_candidates(data, pos, unit, ctx, |to, sea| {
        out.push((to, sea));
        false
    });
    out
}

/// 2022 13.1.12: whether a redeployment between the Reserve Box and the map is barred because
/// the unit is supplied, in its space on the map, only through another nation's sources.
fn foreign_supply(data: &Data, pos: &Position, unit: usize, to: Place, ctx: &Context) -> bool {
    if !ctx.foreign_sources_barred {
        return false;
    }
    let on_map = match (place_of(pos, unit), to) {
        (Place::Reserve, Place::Map(s)) | (Place::Map(s), Place::Reserve) => s,
        _ => return false,
    };
    supply::only_through_foreign_sources(data, pos, unit, on_map, &ctx.supply)
}

/// Whether the unit may redeploy anywhere (13.1) with no Near East or capital limit broken, to
/// a place `room` accepts: what `destinations` followed by that filter says is not empty, found
/// without listing every place.
pub fn any_destination(data: &Data, pos: &Position, unit: usize, ctx: &Context, room: impl Fn(Place) -> bool) -> bool {
    if unit >= data.pieces.len() || unit >= pos.units.len() {
        return false;
    }
    let from = place_of(pos, unit);
    visit_candidates(data, pos, unit, ctx, |to, sea| {
        !near_east_held(data, unit, from, to, sea, ctx) && room(to)
    })
}

/// All that [`any_destination`] reads of the unit itself (the position, the context and the
/// filter aside): where it is; its side, nationality and kind (13.1.2, 13.1.6, 13.1.7, 13.1.9,
/// 13.2, 2022 11.1.9, 5.7.4.6, 16.4.9; its redeploying nationality, capital and foreign sources
/// follow from the nationality, 13.1.11, 2022 13.1.12); the dashed lines it may take (11.1.4);
/// whether it traces through an open MEF beach (9.5.3.5) and is one of the British corps the
/// Near East limit names (13.2.1); whether it may enter the Near East (11.3.1). Units alike in
/// all these have the same answer in one position with one context and filter, so a list of
/// redeployments asks once for each such class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Class {
    loc: Location,
    side: Side,
    nation: Nation,
    kind: Kind,
    lines: Nation,
    beach: bool,
    listed_british: bool,
    near_east: bool,
}

#[cfg(test)]
impl Class {
    pub(crate) fn of(data: &Data, pos: &Position, unit: usize) -> Option<Class> {
        let p = data.pieces.get(unit)?;
        let u = pos.units.get(unit)?;
        // Only a British unit, or one whose id says British, traces through a beach (9.5.3.5)
        // or is named by 13.2.1: the ids compared only then.
        let british = p.nation == Nation::Br || p.id.starts_with("br-");
        let beach = british
            && match tracer_of(data, unit) {
                supply::Tracer::Unit { beach, .. } => beach,
                supply::Tracer::Space(_) => false,
            };
        Some(Class {
            loc: u.loc,
            side: p.side,
            nation: p.nation,
            kind: p.kind,
            lines: p.line_nation(),
            beach,
            listed_british: british && ["br-corps-cnd", "br-corps-pt", "br-corps-bef"].contains(&p.id.as_str()),
            near_east: pos.may_enter_near_east(data, unit),
        })
    }
}

// The bits of a counter's [`crate::data::Piece::sr_fixed`]: its side, nationality, kind and
// dashed-line nationality, whether it traces through an open MEF beach and whether 13.2.1
// names it (all of its [`Class`] but where it is and whether it may enter the Near East), and
// its printed Near East flag (11.3.1).
const FIXED_CP: u16 = 1;
const FIXED_NATION: u16 = 1;
const FIXED_ARMY: u16 = 1 << 6;
const FIXED_LINES: u16 = 7;
const FIXED_BEACH: u16 = 1 << 12;
const FIXED_LISTED: u16 = 1 << 13;
const FIXED_NEAR_EAST_FLAG: u16 = 1 << 14;
/// The bits of [`Class`] among them.
const FIXED_CLASS: u16 = FIXED_NEAR_EAST_FLAG - 1;
const _: () = assert!(Nation::ALL.len() <= 32, "a nationality in five bits");

/// The part of a counter's [`Class`] fixed by the counter itself, packed (with its printed Near
/// East flag above it), worked out once at load.
pub(crate) fn fixed_class(p: &crate::data::Piece) -> u16 {
    let listed = ["br-corps-cnd", "br-corps-pt", "br-corps-bef"].contains(&p.id.as_str());
    // 9.5.3.5: the counters that trace through a beach (as [`tracer_of`] says).
    let beach = supply::traces_by_beach(p);
    let mut bits = (p.nation as u16) << FIXED_NATION | (p.line_nation() as u16) << FIXED_LINES;
    if p.side == Side::Cp {
        bits |= FIXED_CP;
    }
    if p.kind == Kind::Army {
        bits |= FIXED_ARMY;
    }
    if beach {
        bits |= FIXED_BEACH;
    }
    if listed && (p.nation == Nation::Br || p.id.starts_with("br-")) {
        bits |= FIXED_LISTED;
    }
    if p.near_east {
        bits |= FIXED_NEAR_EAST_FLAG;
    }
    bits
}

/// The tracer of a counter (what [`tracer_of`] says), its beach read from its fixed class.
fn tracer(data: &Data, unit: usize) -> supply::Tracer {
    let p = &data.pieces[unit];
    supply::Tracer::Unit {
        side: p.side,
        nation: p.nation,
        lines: p.line_nation(),
        beach: p.sr_fixed & FIXED_BEACH != 0,
    }
}

/// Where a counter stands, as a number: a space from [`FIRST_SPACE`] up.
fn loc_code(l: Location) -> u64 {
    match l {
        Location::Aside => 0,
        Location::Reserve => 1,
        Location::Eliminated => 2,
        Location::Removed => 3,
        Location::Map(s) => FIRST_SPACE + s.0 as u64,
    }
}

const FIRST_SPACE: u64 = 4;

/// A counter's [`Class`] packed into a number: two counters have the same key exactly when
/// they have the same class. Where it stands from bit 32 ([`loc_code`]), whether it may enter
/// the Near East at bit 14, below them the rest.
fn class_key(data: &Data, pos: &Position, unit: usize) -> Option<u64> {
    let p = data.pieces.get(unit)?;
    let u = pos.units.get(unit)?;
    // 11.3.1: as [`Position::may_enter_near_east`] says.
    let near_east = p.kind != Kind::Army
        || (p.sr_fixed & FIXED_NEAR_EAST_FLAG != 0 && !pos.ordinary_near_east.contains(&(unit as u16)));
    Some(loc_code(u.loc) << 32 | u64::from(near_east) << 14 | u64::from(p.sr_fixed & FIXED_CLASS))
}

/// The answers of a list of redeployments: for each class asked ([`class_key`]), whether it
/// has somewhere to go and the place that showed it.
pub(crate) type Memo = Vec<(u64, bool, Option<Place>)>;

/// [`any_destination`] asked once for each [`Class`] of unit: `memo` holds the answers given
/// so far, each with the place that showed it (the first place found), and must be used for
/// one position, context and filter only (or hold only answers still true there,
/// [`answers_kept`]).
pub(crate) fn any_destination_of_class(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    room: impl Fn(Place) -> bool,
    memo: &mut Memo,
) -> bool {
    let Some(class) = class_key(data, pos, unit) else {
        return false;
    };
    // The latest answers first: the counters of a class often follow one another in data order.
    if let Some(&(_, any, _)) = memo.iter().rev().find(|(c, _, _)| *c == class) {
        return any;
    }
    let found = first_destination(data, pos, unit, ctx, room);
    memo.push((class, found.is_some(), found));
    found.is_some()
}

/// The first place [`any_destination`] finds, if any.
fn first_destination(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    room: impl Fn(Place) -> bool,
) -> Option<Place> {
    if unit >= data.pieces.len() || unit >= pos.units.len() {
        return None;
    }
    let (from, mut found) = (place_of(pos, unit), None);
    let from_ne = in_near_east(data, from);
    visit_candidates(data, pos, unit, ctx, |to, sea| {
        let ok = (in_near_east(data, to) == from_ne || !near_east_crossing_held(data, unit, sea, ctx)) && room(to);
        if ok {
            found = Some(to);
        }
        ok
    });
    found
}

/// The answers of the last list of redeployments made on this thread, whether each class of
/// unit has somewhere to go within the stacking limit, each with the place that showed it, and
/// all that they read: the game's data, the side, the context's flags, the spaces' states, the
/// Near East armies turned ordinary (11.3.1) and where every counter stands (the supply maps
/// and who stands where follow from these).
#[derive(Clone, Default)]
pub(crate) struct Answers {
    data: usize,
    side: Option<Side>,
    flags: Flags,
    open_beaches: Vec<Space>,
    spaces: Vec<crate::state::SpaceState>,
    ordinary_near_east: Vec<u16>,
    locs: Vec<Location>,
    /// The stamps of the position's counters and spaces ([`crate::state::Stamped`]) when
    /// `locs` and `spaces` were read: while a list's stamp is the same, it holds what they hold.
    stamps: [u64; 2],
    memo: Memo,
}

/// What [`Answers`] keeps of the context's flags.
#[derive(Clone, Copy, Default, PartialEq)]
struct Flags {
    near_east: [bool; 3],
    channel_ports_open: bool,
    italy_restricted: bool,
    brest_litovsk: bool,
    brest_litovsk_through: bool,
    foreign_sources_barred: bool,
    sieges_and_the_ana: bool,
    ana_space: Option<Space>,
}

impl Flags {
    fn of(ctx: &Context) -> Flags {
        Flags {
            near_east: [ctx.near_east.british, ctx.near_east.russian, ctx.near_east.central],
            channel_ports_open: ctx.channel_ports_open,
            italy_restricted: ctx.italy_restricted,
            brest_litovsk: ctx.brest_litovsk,
            brest_litovsk_through: ctx.brest_litovsk_through,
            foreign_sources_barred: ctx.foreign_sources_barred,
            sieges_and_the_ana: ctx.sieges_and_the_ana,
            ana_space: ctx.supply.ana_space,
        }
    }
}

thread_local! {
    static ANSWERS: std::cell::RefCell<Answers> = std::cell::RefCell::new(Answers::default());
}

/// The answers of the last list of redeployments on this thread (within the stacking limit,
/// 10.1.2) that still hold for `pos`, to begin a list of `side`'s redeployments with: all of
/// them when it is the same position; when one counter of the side has moved since (as between
/// the steps of one SR card), only those found true by a place other than the two spaces it
/// left and entered, for a class standing elsewhere. Its move changed no control, fort or
/// enemy unit, so every walk, supply trace and sea lane is as it was, and every other space
/// holds what it held; nothing else is kept (nor anything after Brest-Litovsk, 16.4.9, where
/// the walks read the units they pass).
pub(crate) fn answers_kept(data: &Data, pos: &Position, side: Side, ctx: &Context) -> Memo {
    ANSWERS.with(|a| {
        let mut last = a.borrow_mut();
        let memo = std::mem::take(&mut last.memo);
        let same_inputs = last.data == data as *const Data as usize
            && last.side == Some(side)
            && last.flags == Flags::of(ctx)
            && last.open_beaches == ctx.supply.open_beaches
            && last.locs.len() == pos.units.len();
        if !same_inputs {
            return Vec::new();
        }
        // Where the counters stand, compared first: most lists are told apart by it at once.
        // A list whose stamp is the one they were read at is unchanged without comparing it;
        // else they are read again as they are compared (what [`keep_answers`] then keeps).
        let (mut moved, mut one) = (0usize, None);
        if last.stamps[0] != pos.units.stamp() {
            for (u, (was, now)) in last.locs.iter_mut().zip(pos.units.iter()).enumerate() {
                if *was != now.loc {
                    if moved == 0 {
                        one = Some((u, *was, now.loc));
                    }
                    moved += 1;
                    *was = now.loc;
                }
            }
            last.stamps[0] = pos.units.stamp();
        }
        if moved > 1
            || (last.stamps[1] != pos.spaces.stamp() && last.spaces != *pos.spaces)
            || last.ordinary_near_east != pos.ordinary_near_east
        {
            return Vec::new();
        }
        let Some((u, was, now)) = one else {
            return memo;
        };
        if ctx.brest_litovsk || data.pieces.get(u).is_none_or(|p| p.side != side) {
            return Vec::new();
        }
        // The spaces it left and entered (what stands in the Reserve Box no answer reads), by
        // their [`loc_code`].
        let (was, now) = (loc_code(was), loc_code(now));
        let touched = |l: u64| l >= FIRST_SPACE && (l == was || l == now);
        let place_touched = |p: Place| matches!(p, Place::Map(s) if touched(loc_code(Location::Map(s))));
        let mut memo = memo;
        memo.retain(|&(class, any, by)| any && !touched(class >> 32) && by.is_some_and(|p| !place_touched(p)));
        memo
    })
}

/// Keeps the answers of a list of `side`'s redeployments in `pos` for the next list on this
/// thread ([`answers_kept`]).
pub(crate) fn keep_answers(data: &Data, pos: &Position, side: Side, ctx: &Context, memo: Memo) {
    ANSWERS.with(|a| {
        let mut a = a.borrow_mut();
        a.data = data as *const Data as usize;
        a.side = Some(side);
        a.flags = Flags::of(ctx);
        a.open_beaches.clear();
        a.open_beaches.extend_from_slice(ctx.supply.open_beaches);
        // What is read again only when its stamp has moved.
        if a.stamps[1] != pos.spaces.stamp() {
            a.spaces.clear();
            a.spaces.extend_from_slice(&pos.spaces);
            a.stamps[1] = pos.spaces.stamp();
        }
        a.ordinary_near_east.clear();
        a.ordinary_near_east.extend_from_slice(&pos.ordinary_near_east);
        if a.stamps[0] != pos.units.stamp() {
            a.locs.clear();
            a.locs.extend(pos.units.iter().map(|u| u.loc));
            a.stamps[0] = pos.units.stamp();
        }
        a.memo = memo;
    });
}

#[cfg(test)]
impl Answers {
    /// How many classes they answer for.
    pub(crate) fn len(&self) -> usize {
        self.memo.len()
    }
}

/// Takes the answers kept on this thread ([`answers_kept`]), leaving none.
#[cfg(test)]
pub(crate) fn take_answers() -> Option<Answers> {
    let a = ANSWERS.with(|a| std::mem::take(&mut *a.borrow_mut()));
    a.side.is_some().then_some(a)
}

/// Puts answers to be kept on this thread ([`answers_kept`]).
#[cfg(test)]
pub(crate) fn put_answers(answers: Option<Answers>) {
    ANSWERS.with(|a| *a.borrow_mut() = answers.unwrap_or_default());
}

/// Gives `visit` each place before the Near East limits, with whether it is reached by sea or
/// the Reserve Box (a place may come more than once); stops when `visit` says so (returns
/// true), and says whether it did.
fn visit_candidates(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    mut visit: impl FnMut(Place, bool) -> bool,
) -> bool {
    if unit >= data.pieces.len() || unit >= pos.units.len() {
        return false;
    }
    let m = Mover::of(data, pos, unit, ctx);
    // 2022 13.1.12 is asked only of a redeployment between the Reserve Box and the map.
    let foreign_to_map = ctx.foreign_sources_barred && m.from == Place::Reserve;
    let foreign_to_reserve = ctx.foreign_sources_barred && m.from != Place::Reserve;
    visit_anywhere(data, pos, &m, ctx, |to, sea| {
        let ok = match to {
            Place::Map(s) => {
                let may = !m.ends_barred || may_end(data, unit, ctx, s);
                may && !brest_litovsk_bars(data, pos, unit, s, ctx)
                    && !(foreign_to_map && foreign_supply(data, pos, unit, to, ctx))
            }
            Place::Reserve => !(foreign_to_reserve && foreign_supply(data, pos, unit, to, ctx)),
        };
        ok && visit(to, sea)
    })
}

fn visit_anywhere(
    data: &Data,
    pos: &Position,
    m: &Mover,
    ctx: &Context,
    mut visit: impl FnMut(Place, bool) -> bool,
) -> bool {
    let unit = m.unit;
    let p = &data.pieces[unit];
    match pos.units[unit].loc {
        Location::Map(from) => {
            // 13.1.5: in supply to redeploy; never out of a siege it would end (2022).
            if !supplied_at(data, pos, unit, from, ctx) || (ctx.sieges_and_the_ana && ends_siege(data, pos, unit, from))
            {
                return false;
            }
            // 2022 13.1.11: Montenegro's corps only between Cetinje and the Reserve Box.
            if p.nation != Nation::Mn && overland_of(data, pos, m, from, ctx, |s| visit(Place::Map(s), false)) {
                return true;
            }
            // 13.1.7: a corps by sea, port to port; never a Russian (2022 13.1.6).
            if p.kind == Kind::Corps
                && p.nation != Nation::Ru
                && p.nation != Nation::Mn
                && port(data, pos, p.side, from)
            {
                // The side's ports printed, in map order: the only spaces [`port`] may say yes of.
                for &s in &data.ports[crate::state::side_index(p.side)] {
                    if s != from
                        && port(data, pos, p.side, s)
                        && m.open(data, pos, ctx, s, false)
                        && visit(Place::Map(s), true)
                    {
                        return true;
                    }
                }
            }
            // 13.1.9: a corps to the Reserve Box; not the ANA (2022 13.2.1); a Russian only from
            // inside Russia.
            p.kind == Kind::Corps
                && p.nation != Nation::Ana
                && (p.nation != Nation::Ru || is_russian_space(data, from))
                && capital_open(data, pos, unit)
                && visit(Place::Reserve, true)
        }
        Location::Reserve => visit_from_reserve(data, pos, m, ctx, visit),
        _ => false,
    }
}

/// [`visit_anywhere`] for a unit in the Reserve Box (13.1.8).
fn visit_from_reserve(
    data: &Data,
    pos: &Position,
    m: &Mover,
    ctx: &Context,
    mut visit: impl FnMut(Place, bool) -> bool,
) -> bool {
    let unit = m.unit;
    let p = &data.pieces[unit];
    if !capital_open(data, pos, unit) {
        return false;
    }
    let nation = sr_nation(data, unit);
    let t = tracer(data, unit);
    let supply = flood_of(data, pos, t, ctx);
    // Who stands where: for a list, worked out once for the whole list.
    let made;
    let stands = match ctx.floods {
        Some(f) => f.1.get_or_init(|| Stands::of(data, pos)),
        None => {
            made = Stands::of(data, pos);
            &made
        }
    };
    let n = data.map.graph.len();
    let all = |s: Space| stands.all.get(s.idx()).copied().unwrap_or(0);
    // 2022 13.1.11: Montenegro's corps only to Cetinje.
    if p.nation == Nation::Mn {
        return data.map.find("cetinje").is_some_and(|s| {
            s.idx() < n && all(s) < 3 && m.open(data, pos, ctx, s, false) && visit(Place::Map(s), true)
        });
    }
    // The spaces it may go to, a bit each (on the stack for a map of up to 512 spaces),
    // asked in map order: 13.1.8, a space with a unit of its nationality (printed: the
    // ANA and the Senussi, British and Turkish for redeployment, do not count); a corps
    // also to its nation's capital or supply source; a US corps to an Allied-held French
    // port; 2022 13.1.8, Salonika for Serbian corps, as their supply source.
    let (mut small, mut large) = ([0u64; 8], Vec::new());
    let words = n.div_ceil(64);
    let may: &mut [u64] = if words <= small.len() {
        &mut small[..words]
    } else {
        large.resize(words, 0);
        &mut large
    };
    let own = stands.own(nation);
    for (w, o) in may.iter_mut().zip(own) {
        *w |= o;
    }
    let mut add = |s: Space| {
        if let Some(w) = may.get_mut(s.idx() / 64) {
            *w |= 1 << (s.idx() % 64);
        }
    };
    if p.kind == Kind::Corps {
        data.homes(nation).iter().for_each(|&s| add(s));
    }
    let us_corps = nation == Nation::Us && p.kind == Kind::Corps;
    if us_corps {
        data.ports[crate::state::side_index(Side::Ap)]
            .iter()
            .filter(|&&s| data.facts(s).nation.as_deref() == Some("fr") && data.facts(s).port_ap)
            .for_each(|&s| add(s));
    }
    let salonika_set = if nation == Nation::Sb {
        data.map.space_set("supply-sb-salonika")
    } else {
        &[]
    };
    salonika_set.iter().for_each(|&s| add(s));
    for (w, &word) in may.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let s = Space((w * 64 + bits.trailing_zeros() as usize) as u16);
            bits &= bits - 1;
            if all(s) >= 3 {
                continue;
            }
            let with_own = own.get(w).is_some_and(|o| o & (1 << (s.idx() % 64)) != 0);
            let home = p.kind == Kind::Corps
                && (data.facts(s).capital || data.facts(s).supply_source)
                && data.facts(s).nation.as_deref() == Some(nation.code());
            let us_port = us_corps && data.facts(s).nation.as_deref() == Some("fr") && data.facts(s).port_ap;
            let salonika = salonika_set.contains(&s) && pos.space(s).control == Some(Side::Ap);
            // Whether the corps may enter the space at all, asked of the spaces it may go to.
            if (((with_own || home) && supply.at(data, s)) || us_port || salonika)
                && m.open(data, pos, ctx, s, false)
                && visit(Place::Map(s), true)
            {
                return true;
            }
        }
    }
    false
}

/// Whether a unit may redeploy to `to`, and why not (13.1, 13.2).
pub fn check(data: &Data, pos: &Position, unit: usize, to: Place, ctx: &Context) -> Result<(), Refusal> {
    let Some(u) = pos.units.get(unit) else {
        return Err(Refusal::new("13.1", Text::new("no such unit", "没有这个单位")));
    };
    if !matches!(u.loc, Location::Map(_) | Location::Reserve) {
        return Err(Refusal::new(
            "13.1.1",
            Text::new(
                "only a unit on the map or in the Reserve Box redeploys",
                "只有地图上或预备队格中的单位可以战略调动",
            ),
        ));
    }
    if let Place::Map(s) = to {
        if s.idx() < pos.spaces.len() && unit < data.pieces.len() && brest_litovsk_bars(data, pos, unit, s, ctx) {
            return Err(Refusal::new(
                "16.4.9",
                Text::new(
                    "after Brest-Litovsk Russians and the other Allies never share a space",
                    "《布列斯特-立陶夫斯克条约》后俄军与其他协约国部队不得同处一格",
                ),
            ));
        }
    }
    if let Location::Map(s) = u.loc {
        if ctx.sieges_and_the_ana && unit < data.pieces.len() && ends_siege(data, pos, unit, s) {
            return Err(Refusal::new(
                "13.1.5",
                Text::new(
                    "a besieger redeploys away only if those staying still besiege the fort: an army, or as many corps as its LF (2022 13.1.5)",
                    "围城部队只有在留下的部队仍足以围城(一个集团军,或与要塞损失系数相同数量的军)时才能战略调动离开(2022年版13.1.5)",
                ),
            ));
        }
    }
    let cands = candidates(data, pos, unit, ctx);
    let from = place_of(pos, unit);
    if let Some(&(_, sea)) = cands.iter().find(|&&(p, _)| p == to) {
        return match near_east_limit(data, unit, from, to, sea, ctx) {
            Some(r) => Err(r),
            None => Ok(()),
        };
    }
    if let Location::Map(s) = u.loc {
        if !in_supply(data, pos, tracer_of(data, unit), s, &ctx.supply) {
            return Err(Refusal::new(
                "13.1.5",
                Text::new("a unit out of supply may not redeploy", "缺乏补给的单位不能战略调动"),
            ));
        }
    }
    if (to == Place::Reserve || from == Place::Reserve) && !capital_open(data, pos, unit) {
        return Err(Refusal::new(
            "13.1.11",
            Text::new(
                "while its capital is enemy-controlled or besieged, no corps of a nation goes to or from the Reserve Box",
                "首都被敌方控制或围困时,该国的军不能进出预备队格",
            ),
        ));
    }
    if foreign_supply(data, pos, unit, to, ctx) {
        return Err(Refusal::new(
            "2022 13.1.12",
            Text::new(
                "a unit supplied only through another nation's sources does not redeploy to or from the Reserve Box",
                "只能经由他国补给源获得补给的单位不能战略调动进出预备队格",
            ),
        ));
    }
    if ctx.brest_litovsk_through {
        let passing = Context {
            brest_litovsk_through: false,
            ..*ctx
        };
        if candidates(data, pos, unit, &passing).iter().any(|&(p, _)| p == to) {
            return Err(Refusal::new(
                "16.4.9",
                Text::new(
                    "after Brest-Litovsk neither Russians nor the other Allies pass through a space the other holds, and there is no other way",
                    "《布列斯特-立陶夫斯克条约》后俄军与其他协约国部队都不得经过对方所在的区域,而别无他路",
                ),
            ));
        }
    }
    let (rule, en, zh) = match (from, to) {
        (Place::Map(_), Place::Reserve) => (
            "13.1.9",
            "only a corps goes to the Reserve Box",
            "只有军可以调入预备队格",
        ),
        (Place::Reserve, _) => (
            "13.1.8",
            "from the Reserve Box a unit goes to a supplied space holding a unit of its nationality (a corps also to its capital or a supply source of its nation), within the stacking limit",
            "从预备队格调出的单位须进入有补给且有同国籍单位的区域(军也可进入本国首都或补给源),且不超过堆叠上限",
        ),
        _ => (
            "13.1.6",
            "a redeployment goes through friendly-controlled spaces free of enemy units, along lines the unit may use (Russians inside Russia only), or by sea for a corps from port to port",
            "战略调动须经过没有敌军单位的友方控制区域,沿该单位可用的连线(俄军只能在俄国境内),或由军经海路从港口到港口",
        ),
    };
    Err(Refusal::new(rule, Text::new(en, zh)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::PathsOfGlory;
    use sandtable_core::game::Game;

    /// The places before the Near East limits as they were listed before the walk could stop at
    /// the first: every place gathered into lists, the units of each space listed for 13.1.8.
    fn listed(data: &Data, pos: &Position, unit: usize, ctx: &Context) -> Vec<(Place, bool)> {
        let p = &data.pieces[unit];
        let mut out = Vec::new();
        match pos.units[unit].loc {
            Location::Map(from) => {
                if !in_supply(data, pos, tracer_of(data, unit), from, &ctx.supply)
                    || (ctx.sieges_and_the_ana && ends_siege(data, pos, unit, from))
                {
                    return out;
                }
                if p.nation != Nation::Mn {
                    overland(data, pos, unit, from, ctx, &mut |s| {
                        out.push((Place::Map(s), false));
                        false
                    });
                }
                if p.kind == Kind::Corps
                    && p.nation != Nation::Ru
                    && p.nation != Nation::Mn
                    && port(data, pos, p.side, from)
                {
                    for s in data.map.graph.space_indices() {
                        if s != from && port(data, pos, p.side, s) && open_to(data, pos, unit, ctx, s) {
                            out.push((Place::Map(s), true));
                        }
                    }
                }
                if p.kind == Kind::Corps
                    && p.nation != Nation::Ana
                    && (p.nation != Nation::Ru || is_russian_space(data, from))
                    && capital_open(data, pos, unit)
                {
                    out.push((Place::Reserve, true));
                }
            }
            Location::Reserve => {
                if !capital_open(data, pos, unit) {
                    return out;
                }
                let nation = sr_nation(data, unit);
                let supply = Supplied::new(data, pos, tracer_of(data, unit), &ctx.supply);
                let mut in_space: Vec<Vec<usize>> = vec![Vec::new(); data.map.graph.len()];
                for (i, u) in pos.units.iter().enumerate() {
                    if let Location::Map(s) = u.loc {
                        in_space[s.idx()].push(i);
                    }
                }
                for s in data.map.graph.space_indices() {
                    if in_space[s.idx()].len() >= 3 || !open_to(data, pos, unit, ctx, s) {
                        continue;
                    }
                    if p.nation == Nation::Mn {
                        if data.map.graph.space(s).id == "cetinje" {
                            out.push((Place::Map(s), true));
                        }
                        continue;
                    }
                    let same: Vec<usize> = in_space[s.idx()]
                        .iter()
                        .copied()
                        .filter(|&i| sr_nation(data, i) == nation)
                        .collect();
                    let only_special = !same.is_empty()
                        && same
                            .iter()
                            .all(|&i| matches!(data.pieces[i].nation, Nation::Ana | Nation::Sn));
                    let supplied = supply.at(data, s);
                    let with_own = !same.is_empty() && !only_special && supplied;
                    let home = p.kind == Kind::Corps
                        && supplied
                        && data.facts(s).nation.as_deref() == Some(nation.code())
                        && (data.facts(s).capital || data.facts(s).supply_source);
                    let us_port = nation == Nation::Us
                        && p.kind == Kind::Corps
                        && data.facts(s).nation.as_deref() == Some("fr")
                        && data.facts(s).port_ap;
                    let salonika = nation == Nation::Sb
                        && data.map.space_set("supply-sb-salonika").contains(&s)
                        && pos.space(s).control == Some(Side::Ap);
                    if with_own || home || us_port || salonika {
                        out.push((Place::Map(s), true));
                    }
                }
            }
            _ => {}
        }
        out.retain(|&(to, _)| match to {
            Place::Map(s) => may_end(data, unit, ctx, s) && !brest_litovsk_bars(data, pos, unit, s, ctx),
            Place::Reserve => true,
        });
        out
    }

    /// 13.1: at every decision of random campaigns, for every unit on the map or in a Reserve
    /// Box, the places walked (stopping at none) are those listed before, and whether it has
    /// somewhere to go within the stacking limit (10.1.2), found by stopping at the first such
    /// place, is whether its list of destinations so filtered is not empty.
    #[test]
    fn the_walked_places_and_the_first_found_agree_with_the_lists_at_every_decision() {
        let (mut units, mut somewhere, mut nowhere, mut reserve) = (0u64, 0u64, 0u64, 0u64);
        for seed in 0..3 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 300, |g: &PathsOfGlory| {
                let data = g.data();
                let occ = g.kept.occupancy(data, &g.pos);
                let ctx = crate::round::sr_context(g, &occ);
                let room = |p: Place| match p {
                    Place::Map(s) => occ.count(s) < 3,
                    Place::Reserve => true,
                };
                for u in 0..data.pieces.len() {
                    if !matches!(g.pos.units[u].loc, Location::Map(_) | Location::Reserve) {
                        continue;
                    }
                    assert_eq!(
                        candidates(data, &g.pos, u, &ctx),
                        listed(data, &g.pos, u, &ctx),
                        "{}",
                        data.pieces[u].id
                    );
                    let all = destinations(data, &g.pos, u, &ctx);
                    // The places listed, less those the Near East limits hold, in order, each once.
                    let from = place_of(&g.pos, u);
                    let mut kept: Vec<Place> = listed(data, &g.pos, u, &ctx)
                        .into_iter()
                        .filter(|&(to, sea)| near_east_limit(data, u, from, to, sea, &ctx).is_none())
                        .map(|(to, _)| to)
                        .collect();
                    kept.sort();
                    kept.dedup();
                    assert_eq!(all, kept, "{}", data.pieces[u].id);
                    let any = all.iter().any(|&p| room(p));
                    assert_eq!(
                        any_destination(data, &g.pos, u, &ctx, room),
                        any,
                        "{}",
                        data.pieces[u].id
                    );
                    // A filter that refuses most places, so that the walk often finds none.
                    let box_only = |p: Place| p == Place::Reserve;
                    let to_box = all.contains(&Place::Reserve);
                    assert_eq!(
                        any_destination(data, &g.pos, u, &ctx, box_only),
                        to_box,
                        "{}",
                        data.pieces[u].id
                    );
                    nowhere += !to_box as u64;
                    units += 1;
                    somewhere += any as u64;
                    reserve += (g.pos.units[u].loc == Location::Reserve) as u64;
                }
            })
            .expect("random play");
        }
        assert!(
            units > 20_000 && somewhere > 1_000 && nowhere > 1_000 && reserve > 100,
            "{units} {somewhere} {nowhere} {reserve}"
        );
    }

    /// 13.1: at every decision of random campaigns, whether each unit has somewhere to go within
    /// the stacking limit, asked once for each class of unit, is what asking of the unit itself
    /// says; so too with filters that refuse most places (the Reserve Box only, empty spaces
    /// only), so that many units have nowhere to go; and most units are answered from an
    /// earlier one of their class.
    #[test]
    fn the_answer_asked_once_a_class_is_each_units_own_at_every_decision() {
        let (mut units, mut remembered, mut nowhere) = (0u64, 0u64, 0u64);
        for seed in 0..3 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 300, |g: &PathsOfGlory| {
                let data = g.data();
                let occ = g.kept.occupancy(data, &g.pos);
                let ctx = crate::round::sr_context(g, &occ);
                let room = |p: Place| match p {
                    Place::Map(s) => occ.count(s) < 3,
                    Place::Reserve => true,
                };
                let box_only = |p: Place| p == Place::Reserve;
                let empty = |p: Place| matches!(p, Place::Map(s) if occ.count(s) == 0);
                let filters: [&dyn Fn(Place) -> bool; 3] = [&room, &box_only, &empty];
                for filter in filters {
                    let mut memo = Vec::new();
                    for u in 0..data.pieces.len() {
                        if !matches!(g.pos.units[u].loc, Location::Map(_) | Location::Reserve) {
                            continue;
                        }
                        let known = memo.len();
                        let any = any_destination(data, &g.pos, u, &ctx, filter);
                        assert_eq!(
                            any_destination_of_class(data, &g.pos, u, &ctx, filter, &mut memo),
                            any,
                            "{}",
                            data.pieces[u].id
                        );
                        units += 1;
                        remembered += (memo.len() == known) as u64;
                        nowhere += !any as u64;
                    }
                }
            })
            .expect("random play");
        }
        assert!(
            units > 50_000 && remembered > units / 4 && nowhere > 5_000,
            "{units} {remembered} {nowhere}"
        );
    }

    /// 13.1.8: at every decision of random campaigns, the places of every unit found with what
    /// one list works out once (each tracer's flood, the units of each nationality per space),
    /// shared by all the units asked, are those listed afresh for each; so is whether it has
    /// somewhere to go.
    #[test]
    fn what_a_list_works_out_once_gives_each_units_places_at_every_decision() {
        let (mut units, mut reserve, mut places) = (0u64, 0u64, 0u64);
        for seed in 0..3 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 300, |g: &PathsOfGlory| {
                let data = g.data();
                let occ = g.kept.occupancy(data, &g.pos);
                let fresh = crate::round::sr_context(g, &occ);
                let once = Floods::default();
                let ctx = Context {
                    floods: Some(&once),
                    ..fresh
                };
                let room = |p: Place| match p {
                    Place::Map(s) => occ.count(s) < 3,
                    Place::Reserve => true,
                };
                for u in 0..data.pieces.len() {
                    if !matches!(g.pos.units[u].loc, Location::Map(_) | Location::Reserve) {
                        continue;
                    }
                    let listed = listed(data, &g.pos, u, &fresh);
                    assert_eq!(candidates(data, &g.pos, u, &ctx), listed, "{}", data.pieces[u].id);
                    assert_eq!(
                        destinations(data, &g.pos, u, &ctx),
                        destinations(data, &g.pos, u, &fresh),
                        "{}",
                        data.pieces[u].id
                    );
                    assert_eq!(
                        any_destination(data, &g.pos, u, &ctx, room),
                        any_destination(data, &g.pos, u, &fresh, room),
                        "{}",
                        data.pieces[u].id
                    );
                    units += 1;
                    places += listed.len() as u64;
                    if g.pos.units[u].loc == Location::Reserve {
                        reserve += 1;
                    }
                }
            })
            .expect("random play");
        }
        assert!(
            units > 50_000 && reserve > 5_000 && places > 500_000,
            "{units} {reserve} {places}"
        );
    }
}

#[cfg(test)]
mod class_tests {
    use super::*;
    use crate::game::PathsOfGlory;
    use sandtable_core::game::Game;

    /// 9.5.3.5, 13.2.1: every counter's class says whether it traces through a beach as its
    /// tracer does, and whether it is one of the British corps 13.2.1 names as its id does.
    #[test]
    fn every_counters_class_reads_the_beach_and_the_named_corps_as_the_tracer_and_ids_do() {
        let g = PathsOfGlory::new_game("campaign", 0).expect("the campaign loads");
        let data = g.data();
        let (mut beach, mut named) = (0, 0);
        for u in 0..data.pieces.len() {
            let class = Class::of(data, &g.pos, u).expect("a counter");
            let traced = matches!(tracer_of(data, u), supply::Tracer::Unit { beach: true, .. });
            let listed = ["br-corps-cnd", "br-corps-pt", "br-corps-bef"].contains(&data.pieces[u].id.as_str());
            assert_eq!(
                (class.beach, class.listed_british),
                (traced, listed),
                "{}",
                data.pieces[u].id
            );
            beach += traced as u32;
            named += listed as u32;
        }
        assert!(beach > 3 && named == 3, "{beach} {named}");
    }

    /// 13.1: every counter's tracer read from what was worked out at load is what [`tracer_of`]
    /// says; and at every decision of random campaigns two counters have the same class key
    /// exactly when they have the same [`Class`], so that a list asks once for each class.
    #[test]
    fn the_class_keys_tell_counters_apart_as_their_classes_do_at_every_decision() {
        use std::collections::HashMap;
        let (mut units, mut shared, mut near_east) = (0u64, 0u64, 0u64);
        for seed in 0..3 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let data = g.data();
            for u in 0..data.pieces.len() {
                assert_eq!(tracer(data, u), tracer_of(data, u), "{}", data.pieces[u].id);
            }
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 300, |g: &PathsOfGlory| {
                let data = g.data();
                let (mut by_key, mut by_class) = (HashMap::new(), HashMap::new());
                for u in 0..data.pieces.len() {
                    let key = class_key(data, &g.pos, u).expect("a counter");
                    let class = Class::of(data, &g.pos, u).expect("a counter");
                    assert_eq!(*by_key.entry(key).or_insert(class), class, "{}", data.pieces[u].id);
                    // (Classes told apart by how they are written out.)
                    assert_eq!(
                        *by_class.entry(format!("{class:?}")).or_insert(key),
                        key,
                        "{}",
                        data.pieces[u].id
                    );
                    units += 1;
                    near_east += u64::from(!class.near_east);
                }
                shared += (data.pieces.len() - by_key.len()) as u64;
            })
            .expect("random play");
        }
        assert!(
            units > 50_000 && shared > 10_000 && near_east > 1_000,
            "{units} {shared} {near_east}"
        );
    }
}

#[cfg(test)]
mod mover_tests {
    use super::*;
    use crate::game::PathsOfGlory;
    use sandtable_core::game::Game;

    /// 13.1.6: at every decision of random campaigns, for every fifth counter on the map or in a
    /// Reserve Box and every space, whether a walk may enter it with the unit's part asked once
    /// ([`Mover::open`]) is what [`open_to_as`] says, the ANA's space counted as the Allies' or
    /// not; the Historical scenario's Italy included.
    #[test]
    fn a_walk_enters_the_spaces_open_to_the_unit_at_every_decision() {
        let (mut asked, mut open) = (0u64, 0u64);
        for (scenario, seed) in [("campaign", 0), ("campaign", 1), ("historical", 2)] {
            let mut g = PathsOfGlory::new_game(scenario, seed).expect("the scenario loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            let mut t = 0usize;
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 250, |g: &PathsOfGlory| {
                t += 1;
                let data = g.data();
                let occ = g.kept.occupancy(data, &g.pos);
                let ctx = crate::round::sr_context(g, &occ);
                for u in (t % 5..data.pieces.len()).step_by(5) {
                    if !matches!(g.pos.units[u].loc, Location::Map(_) | Location::Reserve) {
                        continue;
                    }
                    let m = Mover::of(data, &g.pos, u, &ctx);
                    for s in data.map.graph.space_indices() {
                        for ana_ours in [false, true] {
                            let want = open_to_as(data, &g.pos, u, &ctx, s, ana_ours);
                            assert_eq!(m.open(data, &g.pos, &ctx, s, ana_ours), want, "{}", data.pieces[u].id);
                            asked += 1;
                            open += u64::from(want);
                        }
                    }
                }
            })
            .expect("random play");
        }
        assert!(asked > 1_000_000 && open > 100_000, "{asked} {open}");
    }
}

#[cfg(test)]
mod lifo_tests {
    use super::*;

    /// The spaces waiting in a walk come out as from a plain list, last put first taken, past
    /// the spaces it keeps on the stack too.
    #[test]
    fn the_walks_waiting_spaces_come_out_last_first_as_from_a_list() {
        let (mut lifo, mut list) = (Lifo::new(), Vec::new());
        let mut out = (Vec::new(), Vec::new());
        for i in 0..2000u16 {
            // Three in, one out, then all out at the end.
            lifo.push(Space(i));
            list.push(Space(i));
            if i % 3 == 2 {
                out.0.push(lifo.pop());
                out.1.push(list.pop());
            }
        }
        while let Some(s) = list.pop() {
            out.0.push(lifo.pop());
            out.1.push(Some(s));
        }
        assert_eq!(lifo.pop(), None);
        assert_eq!(out.0, out.1);
    }
}

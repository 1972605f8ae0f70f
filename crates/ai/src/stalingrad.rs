//! The scripted opponent for Stalingrad Blitz: rules of thumb a wargamer would use.
//!
//! - Selection: chits of HQs that are on the map and have units to command; the Soviet
//!   player takes SOVIET REINF while the track has columns left, then STAVKA; the Axis always
//!   takes AXIS REINF.
//! - Axis objectives: the VP hexes it does not hold, nearest first, with Voronezh and
//!   Stalingrad counted 6 hexes farther and Astrakhan, Grozny and Ordzhonikidze 12: the
//!   Caucasus towns, four VP hexes on one railway, win the game (15.0(3)).
//! - Axis lines of communication (3.3(5)): the agent traces the Axis LOC as the rules do,
//!   with how far off the railway it runs, so it knows where a unit would still be in supply.
//!   It follows the railways from the Axis supply sources to every VP hex by the line easiest
//!   to mend, and mends the breaks before anything else: a unit enters a Soviet-held town on
//!   them (3.4(2)), stands in a railway hex that Soviet ZOC would cut (3.3(1)), or moves next
//!   to Soviet units on or beside them until there is strength for 2-1. The lines to VP hexes
//!   it holds come first (all their breaks, most urgent where a VP hex is cut off now), then
//!   the first break on the line to each VP hex it wants; Soviet units two hexes or less from
//!   a held line are driven off after that. A unit out of reach of a break is
//!   brought closer for the next command.
//! - Axis movement otherwise: toward its objectives, never where no LOC would reach it if it
//!   can help it, within command range of an HQ that can activate it; one unit stays in each
//!   VP hex it holds and in each railway hex it holds against Soviet ZOC; HQs follow a little
//!   behind.
//! - Soviet movement: garrison the VP hexes the Axis is nearest to (two units a hex, three in a
//!   fortress), retake lost ones; a garrisoned hex is no longer a goal, so the rest of the army
//!   goes to the next. Neither side crowds a hex beyond its garrison: a fortress has no stacking
//!   limit (14.2(3)), but an army in one hex holds nothing else.
//! - Combat: attack at good odds (the Axis from 2-1, the Soviet from 3-1, one column less on a
//!   VP hex), Soviet units astride the Axis railways first, with as few units as give the best
//!   column; advance toward the objectives.
//! - Losses flip full-strength units before eliminating any, and spare HQs and panzers.
//! - Set-up (4.0), where the players make it: the Axis puts each unit in the hex of its army
//!   nearest the Soviet front-line hexes (which the Soviet player must fill, 4.0(4)1) within its
//!   HQ's command range; its panzers come first, so they take the front and the infantry fill
//!   in behind. The Soviet player puts its best Front Line units where the most Axis strength
//!   stands close, the weakest where the least does, and its Second Line in the towns that
//!   guard the VP hexes the Axis is nearest to, out of Axis ZOC.

use sandtable_core::chance::Rng;
use sandtable_core::game::{Agent, Seat};
use sandtable_core::hex::Hex;
use sandtable_core::search::{Search, Step as SearchStep};
use sandtable_stalingrad_blitz::data::{ChitClass, ChitKind, Nation, Side, UType};
use sandtable_stalingrad_blitz::rules::Board;
use sandtable_stalingrad_blitz::setup::{setup_class, SetupClass};
use sandtable_stalingrad_blitz::state::{Frame, Loc, FORTRESS};
use sandtable_stalingrad_blitz::{Action, SeatView, StalingradBlitz, UnitId};

// Weights of the rules of thumb. A unit's standing in a hex is scored in tenths of a hex: each
// hex nearer its objective is worth 10.

/// Ending a move where no LOC reaches costs as much as four hexes: the unit loses a step at
/// the next SUPPLY chit (11.1), and an Axis one costs VP when it goes (15.0(2)).
const NO_LOC_PENALTY: i32 = 40;
/// An Axis unit entering a VP hex it does not hold takes it (3.4(2)): worth a detour of 12
/// hexes.
const AXIS_GOAL_BONUS: i32 = 120;
/// An Axis combat unit beyond the command range of every HQ that could activate it (8.2, 8.3)
/// is stranded until one comes: worth 7 hexes.
const OUT_OF_COMMAND_PENALTY: i32 = 70;
/// The worst odds column each side attacks at (0 is 1-1, 1 is 1.5-1, 2 is 2-1, 3 is 3-1),
/// one column less on a VP hex. The Axis, which must not lose VP for units (15.0(2)), still
/// attacks at 2-1 (one roll in six costs it a step); the Soviet player waits for 3-1, where it
/// never does. Lower floors won no more games.
const AXIS_ODDS_FLOOR: i32 = 2;
const SOVIET_ODDS_FLOOR: i32 = 3;
/// Handicaps (hexes) on the Axis objectives; see [`axis_goal_handicap`]. Without them the
/// Axis spread over every objective and lost about one game in ten to random play; with them
/// about one in two hundred.
const LONE_GOAL_HANDICAP: u32 = 6;
const FAR_GOAL_HANDICAP: u32 = 12;
/// The only Axis unit in a VP hex the Axis holds, or in a railway hex of its lines that Soviet
/// ZOC would cut without it (3.3(1)), stays unless a move gains it seven hexes.
const HOLD_BONUS: i32 = 70;
/// Each unit beyond a hex's garrison costs as much as three hexes of distance.
const CROWDING_PENALTY: i32 = 30;

/// How many units a hex wants: two (the stacking limit, 3.1(1)), three in a fortress, which
/// has none (14.2(3)).
fn garrison(b: &Board, h: Hex) -> usize {
    if b.fortress[h.idx()] > 0 {
        3
    } else {
        2
    }
}

/// How much hangs on driving off a Soviet unit near an Axis railway (a break on the line to
/// a VP hex counts 10, or 40 when the hex is cut off now).
const THREAT_WEIGHT: i32 = 3;

/// Plays either side by rules of thumb.
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    search: Search,
}

impl Scripted {
    pub fn new() -> Scripted {
        Scripted::default()
    }
}

/// What the agent knows about the board for one decision.
struct Sight<'a> {
    g: &'a SeatView<'a>,
    side: Side,
    b: Board<'a>,
    /// Distance (hexes over land, ignoring units) to the side's objectives.
    to_goal: Vec<u32>,
    /// Distance to the nearest enemy unit.
    to_enemy: Vec<u32>,
    /// Hexes where a unit of the side would have a LOC.
    supplied: Vec<bool>,
    goals: Vec<Hex>,
    /// Axis only: its railways and what cuts them.
    lines: Lines,
}

fn land_distance(g: &SeatView, from: &[Hex], search: &mut Search) -> Vec<u32> {
    let sources: Vec<(Hex, u32)> = from.iter().map(|&h| (h, 0)).collect();
    land_distance_from(g, &sources, search)
}

/// Distance over land from the nearest of `sources`, each with a head start (or handicap).
fn land_distance_from(g: &SeatView, sources: &[(Hex, u32)], search: &mut Search) -> Vec<u32> {
    let d = g.data();
    search.run(&d.map.grid, sources, u32::MAX, |_, _, to| {
        if d.map.terrain(to) & (d.t.sea | d.t.impassable) != 0 {
            SearchStep::Blocked(sandtable_core::search::Why::NONE)
        } else {
            SearchStep::Go(1)
        }
    });
    (0..d.map.grid.len())
        .map(|i| search.cost(Hex(i as u16)).unwrap_or(999))
        .collect()
}

impl<'a> Sight<'a> {
    fn new(g: &'a SeatView<'a>, side: Side, search: &mut Search) -> Sight<'a> {
        let d = g.data();
        let b = g.board();
        let enemy_hexes: Vec<Hex> = d
            .map
            .grid
            .hexes()
            .filter(|h| b.owner[h.idx()] == Some(side.enemy()) && b.stacks.count(*h) > 0)
            .collect();
        let to_enemy = land_distance(g, &enemy_hexes, search);
        let goals: Vec<Hex> = match side {
            // The Axis goes for VP hexes it does not hold (the far ones handicapped).
            Side::Axis => d
                .vp_hexes
                .iter()
                .copied()
                .filter(|h| g.state().control[h.idx()] != Some(Side::Axis))
                .collect(),
            // The Soviet player holds the VP hexes the Axis is nearest to, and retakes lost ones;
            // a hex with its garrison is no longer a goal, so the rest go elsewhere.
            Side::Soviet => {
                let mut v: Vec<Hex> = d.vp_hexes.clone();
                v.sort_by_key(|h| to_enemy[h.idx()]);
                let lost: Vec<Hex> = v
                    .iter()
                    .copied()
                    .filter(|h| g.state().control[h.idx()] == Some(Side::Axis))
                    .collect();
                let mut held: Vec<Hex> = v
                    .into_iter()
                    .filter(|h| g.state().control[h.idx()] != Some(Side::Axis))
                    .take(4)
                    .filter(|&h| b.units_at(h).len() < garrison(&b, h))
                    .collect();
                held.extend(lost);
                held
            }
        };
        let to_goal = if goals.is_empty() {
            to_enemy.clone()
        } else {
            match side {
                Side::Axis => {
                    let sources: Vec<(Hex, u32)> = goals.iter().map(|&h| (h, axis_goal_handicap(g, h))).collect();
                    land_distance_from(g, &sources, search)
                }
                Side::Soviet => land_distance(g, &goals, search),
            }
        };
        let mut lines = Lines::default();
        let supplied: Vec<bool> = match side {
            Side::Axis => {
                let steps = axis_loc_steps(&b, search);
                lines = axis_lines(g, &b, &steps, search);
                d.map.grid.hexes().map(|h| loc_if_there(&b, &steps, h)).collect()
            }
            Side::Soviet => {
                // A unit standing in a hex opens it to its own LOC (3.3(1)): count a hex as
                // supplied when the LOC reaches it or a neighbour.
                let reach = b.loc_reach(side, search);
                let mut supplied = reach.to_vec();
                for h in d.map.grid.hexes() {
                    if !reach[h.idx()] && d.map.grid.neighbours(h).any(|(_, n)| reach[n.idx()]) {
                        supplied[h.idx()] = true;
                    }
                }
                supplied
            }
        };
        Sight {
            g,
            side,
            b,
            to_goal,
            to_enemy,
            supplied,
            goals,
            lines,
        }
    }

    /// How much the side likes `unit` standing in `h` (higher is better).
    fn place_score(&self, unit: UnitId, h: Hex) -> i32 {
        let d = self.g.data();
        let def = &d.units[unit as usize];
        let mut s = -(self.to_goal[h.idx()] as i32) * 10;
        if !self.supplied[h.idx()] {
            s -= NO_LOC_PENALTY;
        }
        let goal_here = self.goals.contains(&h);
        match self.side {
            Side::Axis => {
                if goal_here {
                    s += AXIS_GOAL_BONUS;
                }
                // Hold what was taken: one unit in each VP hex the Axis controls keeps it open
                // to the LOC (3.3(1)) and out of Soviet hands.
                if d.vp_hexes.contains(&h) && self.g.state().control[h.idx()] == Some(Side::Axis) {
                    let others = self.b.units_at(h).iter().any(|&u| u != unit);
                    if !others {
                        s += HOLD_BONUS;
                    }
                }
                // Hold the railway hexes of the lines to the VP hexes where Soviet ZOC would
                // cut them if the unit left (3.3(1)).
                if self.lines.corridor[h.idx()]
                    && self.b.enemy_zoc(Side::Axis, h)
                    && !self.b.units_at(h).iter().any(|&u| u != unit)
                {
                    s += HOLD_BONUS;
                }
                // Guard the railway towns the LOC runs through when Soviet units come near.
                if d.is_urban[h.idx()]
                    && d.has_rail[h.idx()]
                    && self.g.state().control[h.idx()] == Some(Side::Axis)
                    && self.to_enemy[h.idx()] <= 3
                    && !self.b.units_at(h).iter().any(|&u| u != unit)
                {
                    s += 45;
                }
                // Soviet-held towns block the Axis LOC (3.3(1)); those on a railway most.
                if d.is_urban[h.idx()] && self.g.state().control[h.idx()] != Some(Side::Axis) {
                    s += if d.has_rail[h.idx()] { 45 } else { 20 };
                }
                // Stay where an HQ of the unit's nationality can activate it again (8.2, 8.3).
                if !def.is_hq() && !self.in_command(unit, h) {
                    s -= OUT_OF_COMMAND_PENALTY;
                }
                // Close with the enemy, to attack in this activation.
                if !def.is_hq() && self.to_enemy[h.idx()] == 1 {
                    s += 12;
                }
                if def.is_hq() {
                    s = self.hq_score(unit, h);
                }
            }
            Side::Soviet => {
                let others = self.b.units_at(h).iter().filter(|&&u| u != unit).count();
                let wanted = others < garrison(&self.b, h);
                if goal_here && wanted {
                    s += 80;
                }
                if wanted && d.vp_hexes.contains(&h) && self.g.state().control[h.idx()] == Some(Side::Soviet) {
                    s += 30;
                }
                if def.is_hq() {
                    s = self.hq_score(unit, h);
                }
            }
        }
        // A fortress may hold any number of units (14.2(3)), but an army in one hex holds
        // nothing else: each unit beyond a garrison costs as much as three hexes.
        let crowd = self.b.units_at(h).iter().filter(|&&u| u != unit).count();
        let over = crowd.saturating_sub(garrison(&self.b, h).saturating_sub(1));
        s -= CROWDING_PENALTY * over as i32;
        s
    }
}

/// Whether a friendly HQ that can activate `unit` stands within (about) range of `h`.
fn in_command(g: &SeatView, unit: UnitId, h: Hex) -> bool {
    let d = g.data();
    let def = &d.units[unit as usize];
    g.state().units.iter().enumerate().any(|(i, st)| {
        let hq = &d.units[i];
        hq.is_hq()
            && hq.side == def.side
            && (hq.side == Side::Soviet || hq.nation == def.nation || def.nation == Nation::German)
            && st
                .hex()
                .is_some_and(|at| d.map.grid.distance(at, h) <= hq.range as u32 + 1)
    })
}

impl Sight<'_> {
    fn in_command(&self, unit: UnitId, h: Hex) -> bool {
        in_command(self.g, unit, h)
    }

    /// An HQ stands where it commands the most of its units (8.2), a little behind the front
    /// and in supply.
    fn hq_score(&self, hq: UnitId, h: Hex) -> i32 {
        let d = self.g.data();
        let hdef = &d.units[hq as usize];
        let commanded = self
            .g
            .state()
            .units
            .iter()
            .enumerate()
            .filter(|(i, st)| {
                let def = &d.units[*i];
                *i != hq as usize
                    && def.side == hdef.side
                    && !def.is_hq()
                    && (hdef.side == Side::Soviet || def.nation == hdef.nation)
                    && st
                        .hex()
                        .is_some_and(|at| d.map.grid.distance(at, h) <= hdef.range as u32)
            })
            .count() as i32;
        let mut s = commanded * 20 - (self.to_enemy[h.idx()] as i32 - 3).abs() * 6 - self.to_goal[h.idx()] as i32;
        if self.to_enemy[h.idx()] <= 1 {
            s -= 30;
        }
        if !self.supplied[h.idx()] {
            s -= 40;
        }
        s
    }
}

/// How much farther (hexes) a VP hex counts for the Axis than it is. Nine VP hexes make 90
/// (15.0): besides the four it starts with, Voroshilovgrad and Rostov lie on its way, and the
/// four Caucasus towns (Krasnodar, Novorossiysk, Maikop, Tuapse), close together behind Rostov
/// on one railway, make ten. Voronezh and Stalingrad stand alone against the Soviet rear, and
/// the far objectives (Astrakhan, Grozny, Ordzhonikidze) hang on long railways.
fn axis_goal_handicap(g: &SeatView, h: Hex) -> u32 {
    let name = g.data().map.place(h).map_or("", |p| p.name_en.as_str());
    match name {
        "Voronezh" | "Stalingrad" => LONE_GOAL_HANDICAP,
        "Astrakhan" | "Grozny" | "Ordzhonikidze" => FAR_GOAL_HANDICAP,
        _ => 0,
    }
}

// ------------------------------------------------------------------------ the Axis lines

/// How far (hexes) a unit may be sent toward a break in the Axis railways.
const APPROACH: u32 = 8;

/// Soviet units this close (hexes) to an Axis railway are a threat to it.
const THREAT: u32 = 2;

/// No Axis LOC reaches the hex.
const NO_LOC: u8 = u8::MAX;

/// 3.3(5), A14: the Axis LOC as the rules trace it, per hex the number of hexes it runs off the
/// railway to get there (0 on the railway, at most 6), or [`NO_LOC`]. The same trace as
/// [`Board::loc_reach`], which says only yes or no.
pub fn axis_loc_steps(b: &Board, search: &mut Search) -> Vec<u8> {
    let d = b.d;
    let passable = |h: Hex| loc_passable(b, h);
    let mountain = d.t.mountain;
    // 3.3(3): a LOC enters a mountain hex only along a road, or else stops there.
    let step = |from: Hex, dir: u8, to: Hex, rail_only: bool, unit: u32| -> SearchStep {
        let bits = d.map.side(from, dir);
        if bits & d.s.prohibited != 0 || (rail_only && bits & d.s.rail == 0) || !passable(to) {
            return SearchStep::Blocked(sandtable_core::search::Why::NONE);
        }
        let (tf, tt) = (d.map.terrain(from), d.map.terrain(to));
        if (tf | tt) & mountain != 0 && bits & d.s.road == 0 {
            if tf & mountain != 0 && tt & mountain == 0 {
                return SearchStep::Blocked(sandtable_core::search::Why::NONE);
            }
            return SearchStep::Stop(unit);
        }
        SearchStep::Go(unit)
    };
    let sources: Vec<(Hex, u32)> = d
        .supply_axis
        .iter()
        .filter(|&&h| passable(h))
        .map(|&h| (h, 0))
        .collect();
    search.run(&d.map.grid, &sources, u32::MAX, |f, dir, t| step(f, dir, t, true, 0));
    let rail: Vec<(Hex, u32)> = search
        .reached()
        .filter(|h| !search.stopped_at(*h))
        .map(|h| (h, 0))
        .collect();
    search.run(&d.map.grid, &rail, 6, |f, dir, t| step(f, dir, t, false, 1));
    let mut steps = vec![NO_LOC; d.map.grid.len()];
    for h in search.reached() {
        steps[h.idx()] = search.cost(h).unwrap_or(6) as u8;
    }
    steps
}

/// 3.3(1)–(2): whether an Axis LOC may pass through `h` now.
fn loc_passable(b: &Board, h: Hex) -> bool {
    let d = b.d;
    if d.map.terrain(h) & (d.t.sea | d.t.impassable) != 0 || b.enemy_in(Side::Axis, h) {
        return false;
    }
    if d.is_urban[h.idx()] && b.s.control[h.idx()] == Some(Side::Soviet) {
        return false;
    }
    // Soviet ZOC blocks it unless an Axis unit stands there.
    !b.enemy_zoc(Side::Axis, h) || b.friends_in(Side::Axis, h)
}

/// Why a hex on an Axis railway breaks the LOC, and what mends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repair {
    /// A Soviet-held town (3.3(1)): a unit passing through takes it back (3.4(2)).
    Enter,
    /// Soviet ZOC with no Axis unit in the hex (3.3(1)): a unit standing there opens it.
    Occupy,
    /// Soviet units in the hex: attack them and advance in.
    Attack,
}

/// The railways the Axis LOC to its VP hexes runs on, and what must be mended on them.
#[derive(Default)]
pub struct Lines {
    /// Per hex: on the railway to a VP hex the Axis holds.
    pub corridor: Vec<bool>,
    /// Hexes that cut a railway the Axis needs, with what mends each and how much hangs on it
    /// (most first).
    pub repairs: Vec<(Hex, Repair, i32)>,
}

/// What an Axis railway hex costs to use, for finding the line easiest to mend: a hex that
/// cuts the LOC counts as a detour of several hexes.
fn rail_price(b: &Board, h: Hex) -> u32 {
    match blockage(b, h) {
        None => 1,
        Some(Repair::Attack) => 12,
        Some(_) => 5,
    }
}

/// Whether (and why) an Axis LOC cannot pass `h` now (3.3(1)).
fn blockage(b: &Board, h: Hex) -> Option<Repair> {
    let d = b.d;
    if b.enemy_in(Side::Axis, h) {
        Some(Repair::Attack)
    } else if d.is_urban[h.idx()] && b.s.control[h.idx()] == Some(Side::Soviet) {
        Some(Repair::Enter)
    } else if b.enemy_zoc(Side::Axis, h) && !b.friends_in(Side::Axis, h) {
        Some(Repair::Occupy)
    } else {
        None
    }
}

/// The Axis railways to the VP hexes (all VP hexes stand on railways), by the line easiest to
/// mend, and the hexes to mend: every break on the line to a VP hex the Axis holds (most
/// urgent where the hex is cut off now), and the first break on the line to each VP hex it
/// wants, which is where its LOC must go next.
pub fn axis_lines(g: &SeatView, b: &Board, steps: &[u8], search: &mut Search) -> Lines {
    let d = g.data();
    let sources: Vec<(Hex, u32)> = d.supply_axis.iter().map(|&h| (h, 0)).collect();
    search.run(&d.map.grid, &sources, u32::MAX, |from, dir, to| {
        let bits = d.map.side(from, dir);
        if bits & d.s.rail == 0 || bits & d.s.prohibited != 0 || d.map.terrain(to) & (d.t.sea | d.t.impassable) != 0 {
            SearchStep::Blocked(sandtable_core::search::Why::NONE)
        } else {
            SearchStep::Go(rail_price(b, to))
        }
    });
    let mut lines = Lines {
        corridor: vec![false; d.map.grid.len()],
        repairs: Vec::new(),
    };
    let add = |h: Hex, why: Repair, w: i32, repairs: &mut Vec<(Hex, Repair, i32)>| match repairs
        .iter_mut()
        .find(|r| r.0 == h)
    {
        Some(r) => r.2 += w,
        None => repairs.push((h, why, w)),
    };
    for &v in &d.vp_hexes {
        let Some(path) = search.path(v) else { continue };
        let held = g.state().control[v.idx()] == Some(Side::Axis);
        let weight = match (held, steps[v.idx()] != NO_LOC) {
            (true, false) => 40,
            (true, true) => 10,
            (false, _) => 10,
        };
        for &h in &path {
            if held {
                lines.corridor[h.idx()] = true;
            }
            if let Some(why) = blockage(b, h) {
                add(h, why, weight, &mut lines.repairs);
                // Soviet ZOC is mended by standing in the hex or by driving off the units that
                // cast it.
                if why == Repair::Occupy {
                    for (_, n) in d.map.grid.neighbours(h) {
                        if b.enemy_in(Side::Axis, n) && b.stacks.count(n) > 0 {
                            add(n, Repair::Attack, weight / 2, &mut lines.repairs);
                        }
                    }
                }
                if !held {
                    break;
                }
            }
        }
    }
    // Soviet units two hexes or less from those railways can cut them at their next move:
    // drive them off while they are few.
    let mut near = lines.corridor.clone();
    for _ in 0..THREAT {
        let was = near.clone();
        for h in d.map.grid.hexes() {
            if was[h.idx()] {
                for (_, n) in d.map.grid.neighbours(h) {
                    near[n.idx()] = true;
                }
            }
        }
    }
    for h in d.map.grid.hexes() {
        if near[h.idx()] && b.enemy_in(Side::Axis, h) && b.stacks.count(h) > 0 {
            add(h, Repair::Attack, THREAT_WEIGHT, &mut lines.repairs);
        }
    }
    lines.repairs.sort_by_key(|r| std::cmp::Reverse(r.2));
    lines
}

/// Whether a unit standing in `h` would have an Axis LOC (it opens its own hex, 3.3(1), and
/// takes a Soviet town it enters, 3.4(2)).
fn loc_if_there(b: &Board, steps: &[u8], h: Hex) -> bool {
    let d = b.d;
    if steps[h.idx()] != NO_LOC {
        return true;
    }
    if d.map.terrain(h) & (d.t.sea | d.t.impassable) != 0 || b.enemy_in(Side::Axis, h) {
        return false;
    }
    d.map.grid.neighbours(h).any(|(dir, n)| {
        let bits = d.map.side(h, dir);
        let leaves_mountain = d.map.terrain(n) & d.t.mountain != 0 && bits & d.s.road == 0;
        steps[n.idx()] < 6 && bits & d.s.prohibited == 0 && !leaves_mountain
    })
}

impl Sight<'_> {
    /// Whether `unit` holds something where it stands: the only Axis unit in a VP hex the Axis
    /// holds, or in a hex of its railways that Soviet ZOC would cut without it (3.3(1)).
    fn pinned(&self, unit: UnitId) -> bool {
        let Some(h) = self.g.state().units[unit as usize].hex() else {
            return false;
        };
        let alone = self.b.units_at(h).len() == 1;
        let vp = self.g.data().vp_hexes.contains(&h) && self.g.state().control[h.idx()] == Some(Side::Axis);
        let line = self.lines.corridor[h.idx()] && self.b.enemy_zoc(Side::Axis, h);
        alone && (vp || line)
    }

    /// What `unit` adds to an attack on `target` from `from`: halved across a river (10.3(1)1).
    fn attack_from(&self, unit: UnitId, from: Hex, target: Hex) -> u32 {
        let d = self.g.data();
        let a = d.units[unit as usize]
            .face(self.g.state().units[unit as usize].reduced)
            .attack as u32;
        let across = d
            .map
            .grid
            .dir_to(from, target)
            .is_some_and(|dir| d.map.side(from, dir) & (d.s.river | d.s.major) != 0);
        if across {
            a / 2
        } else {
            a
        }
    }

    /// The attack strength that gives 2-1 on `target` after its terrain shifts (10.3).
    fn attack_needed(&self, target: Hex) -> u32 {
        let o = self.b.odds(target, &[]);
        let cols = &self.g.data().crt.columns;
        (1..=80)
            .find(|&a| {
                cols.column(a, o.defence)
                    .and_then(|c| cols.shift(c, -(o.shifts as i32)))
                    .is_some_and(|c| c >= 2)
            })
            .unwrap_or(u32::MAX)
    }

    /// The Axis mends its railways first (3.3): the move that takes back a Soviet town on them,
    /// stands in a hex Soviet ZOC cuts, or brings a unit next to Soviet units astride them
    /// until there is strength for 2-1.
    fn repair_move(&self, legal: &[Action]) -> Option<usize> {
        let d = self.g.data();
        for &(hex, why, _) in &self.lines.repairs {
            match why {
                Repair::Enter | Repair::Occupy => {
                    let best = pick_best(legal.iter().enumerate(), |a| match a {
                        Action::Move { unit, to, .. } if *to == hex && !self.pinned(*unit) => {
                            let def = &d.units[*unit as usize];
                            // Send the weakest: the strong go on to the objectives.
                            1000 - def.full.attack as i32 * 10 - if def.is_hq() { 500 } else { 0 }
                        }
                        _ => -1,
                    });
                    if let Some((i, k)) = best {
                        if k > 0 {
                            return Some(i);
                        }
                    }
                }
                Repair::Attack => {
                    let need = self.attack_needed(hex);
                    let ready = |u: UnitId| {
                        let st = &self.g.state().units[u as usize];
                        st.active && !st.attacked && d.units[u as usize].side == Side::Axis
                    };
                    let mut have = 0;
                    for (_, n) in d.map.grid.neighbours(hex) {
                        for &u in self.b.units_at(n) {
                            if ready(u) {
                                have += self.attack_from(u, n, hex);
                            }
                        }
                    }
                    if have >= need {
                        continue;
                    }
                    // The best move next to the target for each unit that could make one.
                    let mut offers: Vec<(UnitId, u32, usize)> = Vec::new();
                    for (i, a) in legal.iter().enumerate() {
                        let Action::Move { unit, to, .. } = a else { continue };
                        let Some(from) = self.g.state().units[*unit as usize].hex() else {
                            continue;
                        };
                        if !d.map.grid.adjacent(*to, hex)
                            || d.map.grid.adjacent(from, hex)
                            || self.pinned(*unit)
                            || d.units[*unit as usize].is_hq()
                            || !self.supplied[to.idx()]
                        {
                            continue;
                        }
                        let add = self.attack_from(*unit, *to, hex);
                        match offers.iter_mut().find(|o| o.0 == *unit) {
                            Some(o) if o.1 < add => *o = (*unit, add, i),
                            Some(_) => {}
                            None => offers.push((*unit, add, i)),
                        }
                    }
                    let could: u32 = offers.iter().map(|o| o.1).sum();
                    if have + could < need {
                        continue;
                    }
                    if let Some(o) = offers.iter().max_by_key(|o| o.1) {
                        return Some(o.2);
                    }
                }
            }
        }
        // No unit can mend a break at once: bring the nearest one closer for the next command.
        for &(hex, why, _) in &self.lines.repairs {
            let near: u32 = d
                .map
                .grid
                .hexes()
                .filter(|&n| d.map.grid.distance(n, hex) <= 2 && self.b.friends_in(Side::Axis, n))
                .flat_map(|n| self.b.units_at(n).iter().map(move |&u| (u, n)))
                .filter(|&(u, _)| !d.units[u as usize].is_hq())
                .map(|(u, n)| {
                    if why == Repair::Attack {
                        self.attack_from(u, n, hex)
                    } else {
                        1
                    }
                })
                .sum();
            let enough = if why == Repair::Attack {
                self.attack_needed(hex)
            } else {
                1
            };
            if near >= enough {
                continue;
            }
            let best = pick_best(legal.iter().enumerate(), |a| match a {
                Action::Move { unit, to, .. } if !self.pinned(*unit) && !d.units[*unit as usize].is_hq() => {
                    let Some(from) = self.g.state().units[*unit as usize].hex() else {
                        return -1;
                    };
                    let (was, now) = (d.map.grid.distance(from, hex), d.map.grid.distance(*to, hex));
                    if was > APPROACH || now >= was || !self.supplied[to.idx()] {
                        return -1;
                    }
                    1000 - was as i32 * 20 - now as i32
                }
                _ => -1,
            });
            if let Some((i, k)) = best {
                if k > 0 {
                    return Some(i);
                }
            }
        }
        None
    }

    /// Whether Soviet units in `h` stand on or next to the Axis railways.
    fn astride_lines(&self, h: Hex) -> bool {
        let d = self.g.data();
        self.lines.repairs.iter().any(|r| r.0 == h && r.1 == Repair::Attack)
            || std::iter::once(h)
                .chain(d.map.grid.neighbours(h).map(|(_, n)| n))
                .any(|n| self.lines.corridor[n.idx()])
    }
}

fn pick_best<T>(items: impl Iterator<Item = (usize, T)>, mut key: impl FnMut(&T) -> i32) -> Option<(usize, i32)> {
    let mut best: Option<(usize, i32)> = None;
    for (i, t) in items {
        let k = key(&t);
        if best.is_none_or(|(_, bk)| k > bk) {
            best = Some((i, k));
        }
    }
    best
}

impl Agent<StalingradBlitz> for Scripted {
    fn choose(&mut self, g: &SeatView<'_>, seat: Seat, legal: &[Action], rng: &mut Rng) -> usize {
        if legal.len() == 1 {
            return 0;
        }
        let side = Side::from_seat(seat);
        let d = g.data();
        let first = &legal[0];
        match first {
            Action::Pick { .. } | Action::NoExtra => return choose_pick(g, side, legal),
            Action::Place { .. } if matches!(g.frames().last(), Some(Frame::SetUp)) => {
                return self.choose_setup(g, side, legal)
            }
            Action::First { .. } => {
                // Open with a panzer army.
                return legal
                    .iter()
                    .position(
                        |a| matches!(a, Action::First { chit: Some(c) } if d.chits[*c as usize].id.contains("PzA")),
                    )
                    .unwrap_or(0);
            }
            _ => {}
        }
        let sight = Sight::new(g, side, &mut self.search);
        let end_index = legal.iter().position(|a| {
            matches!(
                a,
                Action::EndMovement | Action::EndDeclare | Action::EndAdvance | Action::EndChoose | Action::NoFortress
            )
        });
        // Movement: the move that improves a unit's standing most; stop when none does.
        if legal.iter().any(|a| matches!(a, Action::Move { .. })) {
            if side == Side::Axis {
                if let Some(i) = sight.repair_move(legal) {
                    return i;
                }
            }
            // Combat units first, HQs last, so an HQ moves to where its units now stand.
            for hq_turn in [false, true] {
                let best = pick_best(legal.iter().enumerate(), |a| match a {
                    Action::Move { unit, to, .. } if d.units[*unit as usize].is_hq() == hq_turn => {
                        let here = g.state().units[*unit as usize]
                            .hex()
                            .map_or(-9999, |h| sight.place_score(*unit, h));
                        sight.place_score(*unit, *to) - here
                    }
                    _ => 0,
                });
                if let Some((i, gain)) = best {
                    if gain > 0 {
                        return i;
                    }
                }
            }
            return end_index.unwrap_or(0);
        }
        // Declarations: the best column, with the fewest units; never take one back.
        if legal.iter().any(|a| {
            matches!(
                a,
                Action::Declare { .. } | Action::Undeclare { .. } | Action::EndDeclare
            )
        }) {
            let floor = match side {
                Side::Axis => AXIS_ODDS_FLOOR,
                Side::Soviet => SOVIET_ODDS_FLOOR,
            };
            let best = pick_best(legal.iter().enumerate(), |a| match a {
                Action::Declare { target, units } => {
                    let col = sight.b.odds(*target, units.as_slice()).column.map_or(-1, |c| c as i32);
                    let vp = d.vp_hexes.contains(target);
                    // Soviet units astride the Axis railways cut its LOC: clear them first.
                    let on_line = side == Side::Axis && sight.astride_lines(*target);
                    let need = if vp { floor - 1 } else { floor };
                    if col < need {
                        -1000
                    } else {
                        col * 100 - units.len() as i32 * 10 + if vp { 50 } else { 0 } + if on_line { 80 } else { 0 }
                    }
                }
                _ => -999,
            });
            return match best {
                Some((i, k)) if k > -999 => i,
                _ => end_index.unwrap_or(0),
            };
        }
        match first {
            Action::Resolve { .. } => 0,
            Action::Lose { .. } => pick_best(legal.iter().enumerate(), |a| match a {
                Action::Lose { unit } if *unit == FORTRESS => -5,
                Action::Lose { unit } => {
                    let def = &d.units[*unit as usize];
                    let st = &g.state().units[*unit as usize];
                    let flips = !st.reduced && def.reduced.is_some();
                    let mut k = if flips { 100 } else { 0 };
                    if def.is_hq() {
                        k -= 50;
                    }
                    if def.mech {
                        k -= 10;
                    }
                    k - def.face(st.reduced).attack as i32
                }
                _ => -999,
            })
            .map_or(0, |(i, _)| i),
            Action::Convert { .. } => {
                let hold = match g.combat() {
                    Some(c) => d.vp_hexes.contains(&c.target),
                    _ => false,
                };
                legal
                    .iter()
                    .position(|a| *a == Action::Convert { yes: hold })
                    .unwrap_or(0)
            }
            Action::Retreat { .. } => pick_best(legal.iter().enumerate(), |a| match a {
                Action::Retreat { unit, to } => sight.place_score(*unit, *to),
                _ => -999,
            })
            .map_or(0, |(i, _)| i),
            Action::Advance { .. } | Action::EndAdvance => {
                let best = pick_best(legal.iter().enumerate(), |a| match a {
                    Action::Advance { unit, to } => {
                        let here = g.state().units[*unit as usize]
                            .hex()
                            .map_or(-9999, |h| sight.place_score(*unit, h));
                        sight.place_score(*unit, *to) - here
                    }
                    _ => 0,
                });
                match best {
                    Some((i, gain)) if gain > 0 => i,
                    _ => end_index.unwrap_or(0),
                }
            }
            Action::Place { .. } => pick_best(legal.iter().enumerate(), |a| match a {
                Action::Place { unit, at } => sight.place_score(*unit, *at),
                _ => -999,
            })
            .map_or(0, |(i, _)| i),
            Action::Fortify { .. } | Action::NoFortress => pick_best(legal.iter().enumerate(), |a| match a {
                Action::Fortify { hex } => {
                    let vp = if d.vp_hexes.contains(hex) { 50 } else { 0 };
                    vp - sight.to_enemy[hex.idx()] as i32
                }
                _ => -999,
            })
            .map_or(0, |(i, _)| i),
            Action::Choose { .. } | Action::EndChoose => choose_unit(g, side, &sight, legal, end_index, rng),
            _ => end_index.unwrap_or(0),
        }
    }
}

impl Scripted {
    /// 4.0: the hex of the unit being set up. Every hex offered keeps the set-up completable,
    /// so the agent only says which it likes best.
    fn choose_setup(&mut self, g: &SeatView, side: Side, legal: &[Action]) -> usize {
        let d = g.data();
        let at = |a: &Action| match a {
            Action::Place { at, .. } => *at,
            _ => Hex(0),
        };
        let Action::Place { unit, .. } = legal[0] else {
            return 0;
        };
        let def = &d.units[unit as usize];
        let best = match (side, setup_class(def)) {
            // Axis: as near the Soviet front-line hexes as its army's hexes allow, where its HQ
            // can activate it (8.2). Panzers come first in each army and take the front.
            (Side::Axis, _) => {
                let front = land_distance(g, d.map.hex_set("soviet-front-line"), &mut self.search);
                pick_best(legal.iter().enumerate(), |a| {
                    let h = at(a);
                    let mut s = -(front[h.idx()] as i32) * 10;
                    if !def.is_hq() && !in_command(g, unit, h) {
                        s -= OUT_OF_COMMAND_PENALTY;
                    }
                    s
                })
            }
            // Front Line: the units still to set up ranked by quality, the hexes by the Axis
            // strength close to them; this unit takes the hex of its own rank.
            (Side::Soviet, Some(SetupClass::FrontLine)) => {
                let quality = |u: usize| {
                    let def = &d.units[u];
                    def.full.defence as i32 * if def.reduced.is_some() { 2 } else { 1 }
                };
                let mut units: Vec<usize> = (0..g.state().units.len())
                    .filter(|&u| {
                        g.state().units[u].loc == Loc::SetUp && setup_class(&d.units[u]) == Some(SetupClass::FrontLine)
                    })
                    .collect();
                units.sort_by_key(|&u| (-quality(u), u));
                let rank = units.iter().position(|&u| u == unit as usize).unwrap_or(0);
                let threat = |h: Hex| -> i32 {
                    g.state()
                        .units
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| d.units[*i].side == Side::Axis && !d.units[*i].is_hq())
                        .filter_map(|(i, st)| st.hex().map(|at| (i, d.map.grid.distance(at, h))))
                        .filter(|&(_, dist)| dist <= 2)
                        .map(|(i, dist)| d.units[i].full.attack as i32 * (3 - dist as i32))
                        .sum()
                };
                let mut hexes: Vec<(usize, i32)> = legal.iter().enumerate().map(|(i, a)| (i, threat(at(a)))).collect();
                hexes.sort_by_key(|&(i, t)| (-t, i));
                hexes.get(rank.min(hexes.len() - 1)).map(|&(i, _)| (i, 0))
            }
            // Second Line (and anything else): where the Soviet player wants its units, out of
            // the Axis ZOC.
            (Side::Soviet, _) => {
                let sight = Sight::new(g, side, &mut self.search);
                pick_best(legal.iter().enumerate(), |a| {
                    let h = at(a);
                    let zoc = if sight.to_enemy[h.idx()] <= 1 { 40 } else { 0 };
                    sight.place_score(unit, h) - zoc
                })
            }
        };
        best.map_or(0, |(i, _)| i)
    }
}

/// Units of `side` an HQ at `h` would command (range and nationality, 8.2–8.3).
fn command_value(g: &SeatView, hq: UnitId) -> usize {
    let d = g.data();
    let Some(at) = g.state().units[hq as usize].hex() else {
        return 0;
    };
    let hdef = &d.units[hq as usize];
    g.state()
        .units
        .iter()
        .enumerate()
        .filter(|(i, st)| {
            let def = &d.units[*i];
            def.side == hdef.side
                && (hdef.side == Side::Soviet || def.nation == hdef.nation)
                && st
                    .hex()
                    .is_some_and(|h| d.map.grid.distance(at, h) <= hdef.range as u32)
        })
        .count()
}

fn choose_pick(g: &SeatView, side: Side, legal: &[Action]) -> usize {
    let d = g.data();
    pick_best(legal.iter().enumerate(), |a| match a {
        Action::NoExtra => 0,
        Action::Pick { chit } => {
            let c = &d.chits[*chit as usize];
            match (c.kind, c.class) {
                (ChitKind::Reinf, ChitClass::SovietExtra) if g.state().track <= 9 => 500,
                (ChitKind::Reinf, ChitClass::SovietExtra) => 0,
                (ChitKind::Stavka, _) => 100,
                (ChitKind::Reinf, _) => 500,
                (ChitKind::Hq, _) => match c.hq {
                    Some(hq) if g.state().units[hq as usize].hex().is_some() => {
                        let panzer = if side == Side::Axis && c.id.contains("PzA") {
                            20
                        } else {
                            0
                        };
                        10 + command_value(g, hq) as i32 * 5 + panzer
                    }
                    _ => 1,
                },
                _ => 0,
            }
        }
        _ => 0,
    })
    .map_or(0, |(i, _)| i)
}

fn choose_unit(
    g: &SeatView,
    side: Side,
    sight: &Sight,
    legal: &[Action],
    end_index: Option<usize>,
    rng: &mut Rng,
) -> usize {
    let d = g.data();
    let step = g.exec().map(|e| e.step.clone());
    use sandtable_stalingrad_blitz::state::{Step, SupplyStage};
    match step {
        // STAVKA: the HQ with the most units to command.
        Some(Step::Stavka) => pick_best(legal.iter().enumerate(), |a| match a {
            Action::Choose { unit } => command_value(g, *unit) as i32,
            _ => -1,
        })
        .map_or(0, |(i, _)| i),
        // An allied HQ borrows the German units nearest the objectives.
        Some(Step::AlliedGerman { .. }) => pick_best(legal.iter().enumerate(), |a| match a {
            Action::Choose { unit } => g.state().units[*unit as usize]
                .hex()
                .map_or(-999, |h| -(sight.to_goal[h.idx()] as i32)),
            _ => -500,
        })
        .map_or(0, |(i, _)| i),
        // Withdrawal: give up the units farthest from the objectives (the box first).
        Some(Step::Supply(SupplyStage::Withdraw { .. })) => pick_best(legal.iter().enumerate(), |a| match a {
            Action::Choose { unit } => match g.state().units[*unit as usize].loc {
                Loc::RailBox => 1000,
                Loc::Map(h) => sight.to_goal[h.idx()] as i32,
                _ => 0,
            },
            _ => -1,
        })
        .map_or(0, |(i, _)| i),
        // The rail box: send only units stranded far from any objective and out of the fight.
        Some(Step::Supply(SupplyStage::RailBox)) => {
            let far = pick_best(legal.iter().enumerate(), |a| match a {
                Action::Choose { unit } => match g.state().units[*unit as usize].loc {
                    Loc::Map(h) if sight.to_enemy[h.idx()] > 12 && sight.to_goal[h.idx()] > 15 => {
                        sight.to_goal[h.idx()] as i32
                    }
                    _ => -1,
                },
                _ => -1,
            });
            match far {
                Some((i, k)) if k > 0 && side == Side::Axis => i,
                _ => end_index.unwrap_or(0),
            }
        }
        // Reinforcements: panzers first, then the strongest.
        Some(Step::AxisReinf(_)) => pick_best(legal.iter().enumerate(), |a| match a {
            Action::Choose { unit } => {
                let def = &d.units[*unit as usize];
                let st = &g.state().units[*unit as usize];
                let pz = if matches!(def.utype, UType::Pz | UType::Ss) {
                    10
                } else {
                    0
                };
                pz + def.face(st.reduced).attack as i32 + (rng.below(2) as i32)
            }
            _ => 0,
        })
        .map_or(0, |(i, _)| i),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::{Game, Pending, RandomAgent, Rules};

    /// The scripted agent beats random play on either side (the goal is nine games in ten;
    /// these seeds are won).
    #[test]
    fn scripted_beats_random_on_both_sides() {
        for seat in [0u8, 1] {
            for seed in 0..2 {
                let mut g = StalingradBlitz::new_game("campaign", seed).unwrap();
                g.set_journal(false);
                let mut agents: Vec<Box<dyn Agent<StalingradBlitz>>> =
                    vec![Box::new(RandomAgent), Box::new(RandomAgent)];
                agents[seat as usize] = Box::new(Scripted::new());
                let mut rng = Rng::from_seed(seed ^ 0xabc);
                sandtable_core::game::play_out(&mut g, &mut agents, &mut rng, 100_000).unwrap();
                assert_eq!(g.outcome().unwrap().winner, Some(seat), "seat {seat}, seed {seed}");
            }
        }
    }

    /// The scripted players spread their armies: a fortress has no stacking limit (14.2(3)),
    /// yet no hex ever holds more than a dozen units (before, the Soviet piled some 60 into
    /// one).
    #[test]
    fn scripted_players_do_not_pile_an_army_into_one_hex() {
        let mut g = StalingradBlitz::new_game("campaign", 0).unwrap();
        g.set_journal(false);
        let mut agents: Vec<Box<dyn Agent<StalingradBlitz>>> =
            vec![Box::new(Scripted::new()), Box::new(Scripted::new())];
        let mut rng = Rng::from_seed(0xabc);
        let mut legal = Vec::new();
        let mut biggest = 0;
        loop {
            match g.pending() {
                Pending::Over => break,
                Pending::Chance => {
                    g.resolve_chance();
                }
                Pending::Seat(s) => {
                    g.legal_actions(&mut legal);
                    let i = agents[s as usize].choose(&g.seat_view(s), s, &legal, &mut rng);
                    g.apply(s, &legal[i]).unwrap();
                }
            }
            let b = Board::new(g.data(), g.state());
            biggest = biggest.max(
                g.data()
                    .map
                    .grid
                    .hexes()
                    .map(|h| b.units_at(h).len())
                    .max()
                    .unwrap_or(0),
            );
        }
        assert!(biggest <= 12, "a hex held {biggest} units");
    }

    /// The same on the campaign with the set-up left to the players: the agent sets up and
    /// wins from there.
    #[test]
    fn scripted_sets_up_and_beats_random_on_both_sides() {
        for seat in [0u8, 1] {
            let seed = 3;
            let mut g = StalingradBlitz::new_game("campaign-free-setup", seed).unwrap();
            g.set_journal(false);
            let mut agents: Vec<Box<dyn Agent<StalingradBlitz>>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
            agents[seat as usize] = Box::new(Scripted::new());
            let mut rng = Rng::from_seed(seed ^ 0xabc);
            sandtable_core::game::play_out(&mut g, &mut agents, &mut rng, 100_000).unwrap();
            assert_eq!(g.outcome().unwrap().winner, Some(seat), "seat {seat}");
        }
    }

    /// The scripted set-up: Axis panzers face the front, the best Soviet Front Line division
    /// faces the most Axis strength, Second Line units stand out of Axis ZOC.
    #[test]
    fn the_scripted_set_up_is_sensible() {
        let mut g = StalingradBlitz::new_game("campaign-free-setup", 1).unwrap();
        g.set_journal(false);
        let mut agents: Vec<Box<dyn Agent<StalingradBlitz>>> =
            vec![Box::new(Scripted::new()), Box::new(Scripted::new())];
        let mut rng = Rng::from_seed(1);
        let mut legal = Vec::new();
        while matches!(g.frames().last(), Some(Frame::SetUp)) {
            let Pending::Seat(s) = g.pending() else { break };
            g.legal_actions(&mut legal);
            let i = agents[s as usize].choose(&g.seat_view(s), s, &legal, &mut rng);
            g.apply(s, &legal[i]).unwrap();
        }
        let d = g.data().clone();
        let mut search = Search::new();
        let front = land_distance(&g.seat_view(0), d.map.hex_set("soviet-front-line"), &mut search);
        let id = |u: usize| d.units[u].id.as_str();
        // Every German mechanised unit of an army stands at least as near the front as any of
        // that army's infantry.
        for (u, def) in d.units.iter().enumerate() {
            let Some(h) = g.state().units[u].hex() else { continue };
            if def.side != Side::Axis || def.is_hq() || !def.mech || def.nation != Nation::German {
                continue;
            }
            for (v, other) in d.units.iter().enumerate() {
                let Some(k) = g.state().units[v].hex() else { continue };
                if other.front == def.front && !other.mech && !other.is_hq() {
                    assert!(front[h.idx()] <= front[k.idx()] + 1, "{} behind {}", id(u), id(v));
                }
            }
        }
        // The 13th Guards Rifle Division (the best) faces at least as much as any other.
        let b = Board::new(&d, g.state());
        let pressure = |h: Hex| -> usize {
            d.map
                .grid
                .neighbours(h)
                .filter(|(_, n)| b.owner[n.idx()] == Some(Side::Axis))
                .count()
        };
        let guards = g.state().units[d.unit_index["sov-grifle-13"] as usize].hex().unwrap();
        assert!(pressure(guards) >= 1, "the Guards face no Axis unit");
        for (u, def) in d.units.iter().enumerate() {
            if def.entry == sandtable_stalingrad_blitz::data::Entry::SecondLine {
                let h = g.state().units[u].hex().unwrap();
                assert!(!b.enemy_zoc(Side::Soviet, h), "{} in Axis ZOC", id(u));
            }
        }
    }

    /// The agent's own Axis LOC trace reaches exactly the hexes the rules' trace does, along
    /// random games.
    #[test]
    fn axis_loc_steps_match_the_rules() {
        let mut search = Search::new();
        for seed in 0..3 {
            let mut g = StalingradBlitz::new_game("campaign", seed).unwrap();
            g.set_journal(false);
            let mut agents: [Box<dyn Agent<StalingradBlitz>>; 2] = [Box::new(Scripted::new()), Box::new(RandomAgent)];
            let mut rng = Rng::from_seed(seed);
            let mut legal = Vec::new();
            let mut n = 0;
            while let Pending::Seat(_) | Pending::Chance = g.pending() {
                if n % 50 == 0 {
                    let b = Board::new(g.data(), g.state());
                    let reach = b.loc_reach(Side::Axis, &mut search);
                    let steps = axis_loc_steps(&b, &mut search);
                    for h in g.data().map.grid.hexes() {
                        assert_eq!(reach[h.idx()], steps[h.idx()] != NO_LOC, "seed {seed}, decision {n}");
                    }
                }
                match g.pending() {
                    Pending::Chance => {
                        g.resolve_chance();
                    }
                    Pending::Seat(s) => {
                        g.legal_actions(&mut legal);
                        let i = agents[s as usize].choose(&g.seat_view(s), s, &legal, &mut rng);
                        g.apply(s, &legal[i]).unwrap();
                        n += 1;
                    }
                    Pending::Over => break,
                }
            }
        }
    }
}

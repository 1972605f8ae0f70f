//! The scripted opponent for Stalingrad Blitz: rules of thumb a wargamer would use.
//!
//! - Selection: chits of HQs that are on the map and have units to command; the Soviet
//!   player takes SOVIET REINF while the track has columns left, then STAVKA; the Axis always
//!   takes AXIS REINF.
//! - Axis movement: toward the nearest VP hex it does not hold, staying within reach of its
//!   lines of communication; HQs follow a little behind.
//! - Soviet movement: garrison the VP hexes the Axis is nearest to, retake lost ones.
//! - Combat: attack at good odds (the Axis from 2-1, the Soviet from 3-1, either from 1.5-1 on a
//!   VP hex), with as few units as give the best column; advance toward the objectives.
//! - Losses flip full-strength units before eliminating any, and spare HQs and panzers.

use sandtable_core::chance::Rng;
use sandtable_core::game::{Agent, Seat};
use sandtable_core::hex::Hex;
use sandtable_core::search::{Search, Step as SearchStep};
use sandtable_stalingrad_blitz::data::{ChitClass, ChitKind, Nation, Side, UType};
use sandtable_stalingrad_blitz::rules::Board;
use sandtable_stalingrad_blitz::state::{Loc, Phase, FORTRESS};
use sandtable_stalingrad_blitz::{Action, StalingradBlitz, UnitId};

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
    g: &'a StalingradBlitz,
    side: Side,
    b: Board<'a>,
    /// Distance (hexes over land, ignoring units) to the side's objectives.
    to_goal: Vec<u32>,
    /// Distance to the nearest enemy unit.
    to_enemy: Vec<u32>,
    /// Hexes the side can trace a LOC to.
    supplied: Vec<bool>,
    goals: Vec<Hex>,
}

fn land_distance(g: &StalingradBlitz, from: &[Hex], search: &mut Search) -> Vec<u32> {
    let d = &g.d;
    let sources: Vec<(Hex, u32)> = from.iter().map(|&h| (h, 0)).collect();
    search.run(&d.map.grid, &sources, u32::MAX, |_, _, to| {
        if d.map.terrain(to) & (d.t.sea | d.t.impassable) != 0 {
            SearchStep::Blocked
        } else {
            SearchStep::Go(1)
        }
    });
    (0..d.map.grid.len())
        .map(|i| search.cost(Hex(i as u16)).unwrap_or(999))
        .collect()
}

impl<'a> Sight<'a> {
    fn new(g: &'a StalingradBlitz, side: Side, search: &mut Search) -> Sight<'a> {
        let d = &g.d;
        let b = Board::new(d, &g.s);
        let enemy_hexes: Vec<Hex> = d
            .map
            .grid
            .hexes()
            .filter(|h| b.owner[h.idx()] == Some(side.enemy()) && b.stacks.count(*h) > 0)
            .collect();
        let to_enemy = land_distance(g, &enemy_hexes, search);
        let goals: Vec<Hex> = match side {
            // The Axis goes for VP hexes it does not hold.
            // The Axis goes for VP hexes it does not hold, and for whatever cuts its lines of
            // communication.
            Side::Axis => {
                let mut v: Vec<Hex> = d
                    .vp_hexes
                    .iter()
                    .copied()
                    .filter(|h| g.s.control[h.idx()] != Some(Side::Axis))
                    .collect();
                // What blocks the railway to those VP hexes: sweep it.
                if std::env::var("SWEEP").is_ok() {
                    let blockers = rail_blockers(g, &b, &v, search);
                    v.extend(blockers);
                }
                v
            }
            // The Soviet player holds the VP hexes the Axis is nearest to, and retakes lost ones.
            Side::Soviet => {
                let mut v: Vec<Hex> = d.vp_hexes.clone();
                v.sort_by_key(|h| to_enemy[h.idx()]);
                let lost: Vec<Hex> = v
                    .iter()
                    .copied()
                    .filter(|h| g.s.control[h.idx()] == Some(Side::Axis))
                    .collect();
                let mut held: Vec<Hex> = v
                    .into_iter()
                    .filter(|h| g.s.control[h.idx()] != Some(Side::Axis))
                    .take(4)
                    .collect();
                held.extend(lost);
                held
            }
        };
        let to_goal = if goals.is_empty() {
            to_enemy.clone()
        } else {
            land_distance(g, &goals, search)
        };
        // A unit standing in a hex opens it to its own LOC (3.3(1)): count a hex as supplied
        // when the LOC reaches it or a neighbour.
        let reach = b.loc_reach(side, search);
        let mut supplied = reach.clone();
        for h in d.map.grid.hexes() {
            if !reach[h.idx()] && d.map.grid.neighbours(h).any(|(_, n)| reach[n.idx()]) {
                supplied[h.idx()] = true;
            }
        }
        Sight {
            g,
            side,
            b,
            to_goal,
            to_enemy,
            supplied,
            goals,
        }
    }

    /// How much the side likes `unit` standing in `h` (higher is better).
    fn place_score(&self, unit: UnitId, h: Hex) -> i32 {
        let d = &self.g.d;
        let def = &d.units[unit as usize];
        let mut s = -(self.to_goal[h.idx()] as i32) * 10;
        if !self.supplied[h.idx()] {
            s -= if self.side == Side::Axis { knob("UNSUP", 40) } else { 40 };
        }
        let goal_here = self.goals.contains(&h);
        match self.side {
            Side::Axis => {
                if goal_here {
                    s += knob("GOAL_BONUS", 120);
                }
                // Hold what was taken: one unit in each VP hex the Axis controls keeps it open
                // to the LOC (3.3(1)) and out of Soviet hands.
                if d.vp_hexes.contains(&h) && self.g.s.control[h.idx()] == Some(Side::Axis) {
                    let others = self.b.units_at(h).iter().any(|&u| u != unit);
                    if !others {
                        s += 70;
                    }
                }
                // Guard the railway towns the LOC runs through when Soviet units come near.
                if d.is_urban[h.idx()]
                    && d.has_rail[h.idx()]
                    && self.g.s.control[h.idx()] == Some(Side::Axis)
                    && self.to_enemy[h.idx()] <= 3
                    && !self.b.units_at(h).iter().any(|&u| u != unit)
                {
                    s += 45;
                }
                // Soviet-held towns block the Axis LOC (3.3(1)); those on a railway most.
                if d.is_urban[h.idx()] && self.g.s.control[h.idx()] != Some(Side::Axis) {
                    s += if d.has_rail[h.idx()] { 45 } else { 20 };
                }
                // Stay where an HQ of the unit's nationality can activate it again (8.2, 8.3).
                if !def.is_hq() && !self.in_command(unit, h) {
                    s -= knob("COHESION", 70);
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
                if goal_here {
                    s += 80;
                }
                if d.vp_hexes.contains(&h) && self.g.s.control[h.idx()] == Some(Side::Soviet) {
                    s += 30;
                }
                if def.is_hq() {
                    s = self.hq_score(unit, h);
                }
            }
        }
        s
    }
}

impl Sight<'_> {
    /// Whether a friendly HQ that can activate `unit` stands within (about) range of `h`.
    fn in_command(&self, unit: UnitId, h: Hex) -> bool {
        let d = &self.g.d;
        let def = &d.units[unit as usize];
        self.g.s.units.iter().enumerate().any(|(i, st)| {
            let hq = &d.units[i];
            hq.is_hq()
                && hq.side == def.side
                && (hq.side == Side::Soviet || hq.nation == def.nation || def.nation == Nation::German)
                && st
                    .hex()
                    .is_some_and(|at| d.map.grid.distance(at, h) <= hq.range as u32 + 1)
        })
    }

    /// An HQ stands where it commands the most of its units (8.2), a little behind the front
    /// and in supply.
    fn hq_score(&self, hq: UnitId, h: Hex) -> i32 {
        let d = &self.g.d;
        let hdef = &d.units[hq as usize];
        let commanded = self
            .g
            .s
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

/// The Soviet-held towns and Soviet-occupied hexes on the railways that would carry the Axis
/// LOC (3.3(5)) to the VP hexes it wants, found by following the railway back from each VP hex
/// to the part of the network the Axis LOC already reaches.
pub fn rail_blockers(g: &StalingradBlitz, b: &Board, wanted: &[Hex], search: &mut Search) -> Vec<Hex> {
    let d = &g.d;
    let actual = b.loc_reach(Side::Axis, search);
    let seeds: Vec<(Hex, u32)> = d
        .map
        .grid
        .hexes()
        .filter(|h| actual[h.idx()] && d.has_rail[h.idx()])
        .map(|h| (h, 0))
        .collect();
    search.run(&d.map.grid, &seeds, u32::MAX, |from, dir, _| {
        if d.map.side(from, dir) & d.s.rail != 0 {
            SearchStep::Go(1)
        } else {
            SearchStep::Blocked
        }
    });
    let mut out = Vec::new();
    let held: Vec<Hex> = d
        .vp_hexes
        .iter()
        .copied()
        .filter(|h| g.s.control[h.idx()] == Some(Side::Axis))
        .collect();
    for &v in wanted.iter().chain(held.iter()) {
        if actual[v.idx()] {
            continue;
        }
        let Some(path) = search.path(v) else { continue };
        for h in path {
            let blocks = b.owner[h.idx()] == Some(Side::Soviet)
                || (d.is_urban[h.idx()] && g.s.control[h.idx()] != Some(Side::Axis));
            if blocks && !out.contains(&h) && !wanted.contains(&h) {
                out.push(h);
            }
        }
    }
    out
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
    fn choose(&mut self, g: &StalingradBlitz, seat: Seat, legal: &[Action], rng: &mut Rng) -> usize {
        if legal.len() == 1 {
            return 0;
        }
        let side = Side::from_seat(seat);
        let d = &g.d;
        let first = &legal[0];
        match first {
            Action::Pick { .. } | Action::NoExtra => return choose_pick(g, side, legal),
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
            // Combat units first, HQs last, so an HQ moves to where its units now stand.
            for hq_turn in [false, true] {
                let best = pick_best(legal.iter().enumerate(), |a| match a {
                    Action::Move { unit, to, .. } if d.units[*unit as usize].is_hq() == hq_turn => {
                        let here = g.s.units[*unit as usize]
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
            let floor = if side == Side::Axis { knob("AXIS_FLOOR", 1) } else { 3 };
            let best = pick_best(legal.iter().enumerate(), |a| match a {
                Action::Declare { target, units } => {
                    let col = sight.b.odds(*target, units.as_slice()).column.map_or(-1, |c| c as i32);
                    let vp = d.vp_hexes.contains(target);
                    // Soviet units astride the Axis railways cut its LOC: clear them first.
                    let on_line = side == Side::Axis
                        && std::iter::once(*target)
                            .chain(d.map.grid.neighbours(*target).map(|(_, n)| n))
                            .any(|h| d.has_rail[h.idx()] && sight.supplied[h.idx()]);
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
                    let st = &g.s.units[*unit as usize];
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
                let hold = match g.exec().map(|e| &e.step) {
                    Some(sandtable_stalingrad_blitz::state::Step::Combat(c)) => d.vp_hexes.contains(&c.target),
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
                        let here = g.s.units[*unit as usize]
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

/// Units of `side` an HQ at `h` would command (range and nationality, 8.2–8.3).
fn command_value(g: &StalingradBlitz, hq: UnitId) -> usize {
    let d = &g.d;
    let Some(at) = g.s.units[hq as usize].hex() else {
        return 0;
    };
    let hdef = &d.units[hq as usize];
    g.s.units
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

fn choose_pick(g: &StalingradBlitz, side: Side, legal: &[Action]) -> usize {
    let d = &g.d;
    pick_best(legal.iter().enumerate(), |a| match a {
        Action::NoExtra => 0,
        Action::Pick { chit } => {
            let c = &d.chits[*chit as usize];
            match (c.kind, c.class) {
                (ChitKind::Reinf, ChitClass::SovietExtra) if g.s.track <= 9 => 500,
                (ChitKind::Reinf, ChitClass::SovietExtra) => 0,
                (ChitKind::Stavka, _) => 100,
                (ChitKind::Reinf, _) => 500,
                (ChitKind::Hq, _) => match c.hq {
                    Some(hq) if g.s.units[hq as usize].hex().is_some() => {
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
    g: &StalingradBlitz,
    side: Side,
    sight: &Sight,
    legal: &[Action],
    end_index: Option<usize>,
    rng: &mut Rng,
) -> usize {
    let d = &g.d;
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
            Action::Choose { unit } => g.s.units[*unit as usize]
                .hex()
                .map_or(-999, |h| -(sight.to_goal[h.idx()] as i32)),
            _ => -500,
        })
        .map_or(0, |(i, _)| i),
        // Withdrawal: give up the units farthest from the objectives (the box first).
        Some(Step::Supply(SupplyStage::Withdraw { .. })) => pick_best(legal.iter().enumerate(), |a| match a {
            Action::Choose { unit } => match g.s.units[*unit as usize].loc {
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
                Action::Choose { unit } => match g.s.units[*unit as usize].loc {
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
                let st = &g.s.units[*unit as usize];
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

#[allow(dead_code)]
fn on_map_phase(g: &StalingradBlitz) -> bool {
    !matches!(g.s.phase, Phase::Over)
}

fn knob(name: &str, default: i32) -> i32 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

//! The scripted opponent for Ardennes II: rules of thumb a wargamer would use, fast enough for
//! many games a second.
//!
//! - Objectives: the German goes for the VP hexes of the playing area he does not control
//!   (the scenario's own hexes when it names them, 7.4, 7.5), and the units of a formation
//!   the scenario requires to exit (7.5) go for the exit edge; the Allied player holds every VP
//!   hex of the area and retakes those the German holds. Distances are movement costs from the
//!   objectives (TEC, roads, blown bridges), foot and mechanized apart.
//! - Movement: each unit moves at most once a phase, to the reachable hex that improves its
//!   standing most (nearer an objective, in supply, a VP hex taken or garrisoned, legal
//!   stacking, next to the enemy to attack it; Allied 2-step infantry two hexes from another
//!   ZOC Post, so a bond forms, 1.2). When no unit gains, the phase ends. Artillery fires first
//!   at the enemy stacks its side will attack (German) or that threaten its units (Allied),
//!   then moves; a good overrun (3.3) is taken when offered.
//! - Combat (3.2): attack the target with the best odds column computed as the engine
//!   computes it (attack and defence in eighths from [`Board::strength`], the CRT columns,
//!   terrain shifts), from 2-1 on a VP hex and 3-1 elsewhere, committing the units that raise
//!   the column most up to 5-1. As defender, retreat before combat from 3-1 or worse (unless
//!   holding a VP hex, then from 5-1); losses from the unit that loses least (after the
//!   forced first loss); retreats to hexes without a step loss; advance into vacated hexes that
//!   improve the unit's standing, VP hexes first.

use sandtable_ardennes_ii::data::{Exit, Victory};
use sandtable_ardennes_ii::rules::Board;
use sandtable_ardennes_ii::sequence::{Phase, Side};
use sandtable_ardennes_ii::state::{Stage, UnitId};
use sandtable_ardennes_ii::{Action, ArdennesII, SeatView};
use sandtable_core::chance::Rng;
use sandtable_core::game::{Agent, Seat};
use sandtable_core::hex::Hex;
use sandtable_core::search::{Search, Step};

/// No route to an objective.
const FAR: u32 = 10_000;
/// Standing in a hex out of supply (3.7: DG at the supply phase, and no control, 6.0).
const NO_SUPPLY: i32 = 60;
/// Entering a VP hex the side does not control: worth a detour of about 30 MP.
const TAKE_VP: i32 = 60;
/// The garrison of a VP hex the side controls.
const HOLD_VP: i32 = 50;
/// A stack the phase's end would make DG (3.1: over 3 units or mixed divisions).
const BAD_STACK: i32 = 400;
/// Odds columns (0 is 1-4, 4 is 2-1, 5 is 3-1, 7 is 5-1).
const COL_2_1: usize = 4;
const COL_3_1: usize = 5;
const COL_CAP: usize = 7;

/// Plays either side of Ardennes II by rules of thumb.
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    search: Search,
    plan: Option<Plan>,
}

impl Scripted {
    pub fn new() -> Scripted {
        Scripted::default()
    }
}

/// What the agent works out once per phase: the objectives' distances and the supply map.
#[derive(Clone, Debug)]
struct Plan {
    key: (String, u8, Phase, Side, Vec<Side>, usize),
    side: Side,
    /// Movement cost (half MP) to the nearest objective, `[foot, mech]`.
    goal: [Vec<u32>; 2],
    /// The same to the exit hexes, for the formations that must exit.
    exit: Option<[Vec<u32>; 2]>,
    exit_formations: Vec<u16>,
    /// Objectives: VP hexes the side wants to take.
    take: Vec<bool>,
    supplied: Vec<bool>,
    /// Hex distance to the nearest enemy unit.
    to_enemy: Vec<u32>,
    /// Targets attacked or called off this phase, not to be tried again.
    tried: Vec<Hex>,
    /// The hexes the side's units left by their own moves this turn: a unit does not go back
    /// to one (a player commits to a move; marching out in one phase and back in the next is
    /// no plan). Kept across the plans of a turn.
    left: Vec<(UnitId, Hex)>,
}

fn in_area(g: &ArdennesII, h: Hex) -> bool {
    g.scenario().in_area(&g.world().map.grid, h)
}

/// The control of the VP hex at `h`, if it is one.
fn control(g: &ArdennesII, h: Hex) -> Option<Side> {
    if g.world().vp[h.idx()] == 0 {
        return None;
    }
    g.world()
        .data
        .tables
        .vp_hexes
        .iter()
        .position(|v| v.hex == h)
        .map(|i| g.state().control[i])
}

impl Plan {
    fn new(g: &ArdennesII, side: Side, search: &mut Search) -> Plan {
        let w = g.world();
        let grid = &w.map.grid;
        let n = grid.len();
        let b = Board::new(w, g.state());
        let scenario = Some(g.scenario());
        // The hexes that matter for victory.
        let named: Option<Vec<Hex>> = match scenario.map(|s| &s.victory) {
            Some(Victory::GermanHolds { hexes, .. }) => Some(hexes.clone()),
            _ => None,
        };
        let vp_hexes: Vec<Hex> = w
            .data
            .tables
            .vp_hexes
            .iter()
            .map(|v| v.hex)
            .filter(|&h| in_area(g, h))
            .filter(|h| named.as_ref().is_none_or(|v| v.contains(h)))
            .collect();
        let mut take = vec![false; n];
        let mut goals: Vec<(Hex, u32)> = Vec::new();
        for &h in &vp_hexes {
            let ours = control(g, h) == Some(side);
            match side {
                Side::German => {
                    if !ours || b.enemy_in(side, h) {
                        take[h.idx()] = true;
                        // Bigger prizes count as nearer.
                        goals.push((h, 20u32.saturating_sub(4 * w.vp[h.idx()] as u32)));
                    }
                }
                Side::Allied => {
                    if !ours {
                        take[h.idx()] = true;
                    }
                    goals.push((h, 0));
                }
            }
        }
        if goals.is_empty() {
            // Everything held: close with the enemy.
            goals = grid.hexes().filter(|&h| b.enemy_in(side, h)).map(|h| (h, 0)).collect();
        }
        let goal = [
            distances(g, &b, side, 0, &goals, search),
            distances(g, &b, side, 1, &goals, search),
        ];
        // 7.5: formations that must exit, while they still can.
        let mut exit_formations = Vec::new();
        let mut exit = None;
        if side == Side::German {
            if let Some(Victory::GermanHolds {
                exit_required,
                exit_via,
                ..
            }) = scenario.map(|s| &s.victory)
            {
                for e in exit_required {
                    let out = (0..g.state().units.len())
                        .filter(|&i| {
                            g.state().units[i].exited_on().is_some()
                                && w.data.counters.units[i].formation == Some(e.formation)
                        })
                        .count();
                    // Only as many as the goal needs: the rest fight for the VP hexes.
                    if e.by_turn.is_none_or(|t| g.state().turn <= t) && out < e.units as usize {
                        exit_formations.push(e.formation);
                    }
                }
                if !exit_formations.is_empty() {
                    let hexes: Vec<(Hex, u32)> = grid
                        .hexes()
                        .filter(|&h| exit_via.iter().any(|e| is_exit(g, e, h)))
                        .map(|h| (h, 0))
                        .collect();
                    exit = Some([
                        distances(g, &b, side, 0, &hexes, search),
                        distances(g, &b, side, 1, &hexes, search),
                    ]);
                }
            }
        }
        let supplied = g.supply_now(side);
        let enemy: Vec<(Hex, u32)> = grid.hexes().filter(|&h| b.enemy_in(side, h)).map(|h| (h, 0)).collect();
        search.run_breadth_first(grid, &enemy, 30, |_, _, _| Step::Go(1));
        let to_enemy = (0..n).map(|i| search.cost(Hex(i as u16)).unwrap_or(99)).collect();
        Plan {
            key: key(g, side),
            side,
            goal,
            exit,
            exit_formations,
            take,
            supplied,
            to_enemy,
            tried: Vec::new(),
            left: Vec::new(),
        }
    }
}

/// What a plan depends on: it is worked out again when the phase, the control of a VP hex or
/// the number of units that left the map changes.
fn key(g: &ArdennesII, side: Side) -> (String, u8, Phase, Side, Vec<Side>, usize) {
    let exited = g.state().units.iter().filter(|u| u.exited_on().is_some()).count();
    (
        g.state().scenario.clone(),
        g.state().turn,
        g.phase(),
        side,
        g.state().control.clone(),
        exited,
    )
}

/// Whether a unit in `h` could leave the map by `e` (7.2, 7.3, 7.5).
fn is_exit(g: &ArdennesII, e: &Exit, h: Hex) -> bool {
    let grid = &g.world().map.grid;
    if !in_area(g, h) {
        return false;
    }
    match e {
        Exit::Area(letter) => g
            .world()
            .map
            .hex_sets
            .get(&format!("entry-{letter}"))
            .is_some_and(|v| v.contains(&h)),
        Exit::Edge(edge) => {
            use sandtable_ardennes_ii::data::Edge;
            let (c, r) = grid.col_row(h);
            let (dc, dr) = match edge {
                Edge::West => (-1, 0),
                Edge::East => (1, 0),
                Edge::North => (0, 1),
                Edge::South => (0, -1),
            };
            match grid.hex_at(c as i32 + dc, r as i32 + dr) {
                None => true,
                Some(n) => !in_area(g, n),
            }
        }
    }
}

/// Movement cost (half MP) from every hex to the nearest of `goals` for movement type `m`
/// (0 foot, 1 mech) within the playing area, enemy stacks and bonds counted as detours.
fn distances(g: &ArdennesII, b: &Board, side: Side, m: usize, goals: &[(Hex, u32)], search: &mut Search) -> Vec<u32> {
    let w = g.world();
    let grid = &w.map.grid;
    let area: Vec<bool> = grid.hexes().map(|h| in_area(g, h)).collect();
    search.run(grid, goals, u32::MAX - 1, |from, _, to| {
        // The unit walks from `to` into `from`.
        if !area[to.idx()] {
            return Step::Blocked(sandtable_core::search::Why::NONE);
        }
        let Some(back) = grid.dir_to(to, from) else {
            return Step::Blocked(sandtable_core::search::Why::NONE);
        };
        let cost = match b.road_link(to, back) {
            Some(road) => Some(w.costs.road[usize::from(road == "track")][m] as u32),
            None => match (
                w.costs.hex[side.seat() as usize][m][from.idx()],
                w.costs.side[m][to.idx()][back as usize],
            ) {
                (Some(h), Some(s)) => Some((h + s) as u32),
                _ => None,
            },
        };
        // Enemy stacks and their bonds are gone round where they can be (1.2).
        let around = if b.enemy_in(side, from) {
            24
        } else if b.enemy_bond(side, from) {
            8
        } else {
            0
        };
        match cost {
            Some(c) => Step::Go(c.max(1) + around),
            None => Step::Blocked(sandtable_core::search::Why::NONE),
        }
    });
    (0..grid.len())
        .map(|i| search.cost(Hex(i as u16)).unwrap_or(FAR))
        .collect()
}

/// What the agent reads of the position for one decision.
struct Sight<'a> {
    g: &'a ArdennesII,
    b: Board<'a>,
    plan: &'a Plan,
    side: Side,
    /// Friendly units per hex.
    ours: Vec<Vec<UnitId>>,
    /// Hexes of friendly ZOC Posts (2+ steps of bond infantry).
    posts: Vec<Hex>,
}

impl<'a> Sight<'a> {
    /// The half MP `u` may still spend this phase: none once it has fired, observed or stopped
    /// for a demolition (3.5, 3.8).
    fn move_left(&self, u: UnitId) -> u32 {
        let st = &self.g.state().units[u as usize];
        if st.fired || st.observed || st.stopped {
            return 0;
        }
        self.b.allowance(u).saturating_sub(st.spent as u32)
    }

    fn new(g: &'a ArdennesII, plan: &'a Plan) -> Sight<'a> {
        let side = plan.side;
        let b = Board::new(g.world(), g.state());
        let n = g.world().map.grid.len();
        let mut ours: Vec<Vec<UnitId>> = vec![Vec::new(); n];
        let mut steps = vec![0u8; n];
        for (i, st) in g.state().units.iter().enumerate() {
            let def = &g.world().data.counters.units[i];
            if def.side != side {
                continue;
            }
            if let Some(h) = st.hex() {
                ours[h.idx()].push(i as UnitId);
                if def.is_bond_infantry() {
                    steps[h.idx()] += if st.reduced { 1 } else { def.steps };
                }
            }
        }
        let posts = (0..n)
            .filter(|&i| steps[i] >= 2 && g.world().map.terrain(Hex(i as u16)) & g.world().t.city == 0)
            .map(|i| Hex(i as u16))
            .collect();
        Sight {
            g,
            b,
            plan,
            side,
            ours,
            posts,
        }
    }

    fn def(&self, u: UnitId) -> &'a sandtable_ardennes_ii::data::UnitDef {
        &self.g.world().data.counters.units[u as usize]
    }

    fn exits(&self, u: UnitId) -> bool {
        self.def(u)
            .formation
            .is_some_and(|f| self.plan.exit_formations.contains(&f))
            && self.plan.exit.is_some()
    }

    /// Whether `u` joining the stack in `h` would break the stacking rules (3.1).
    fn bad_stack(&self, u: UnitId, h: Hex) -> bool {
        let others = || self.ours[h.idx()].iter().copied().filter(move |&o| o != u);
        if others().count() >= 3 {
            return true;
        }
        let Some(f) = self.def(u).formation else { return false };
        others().any(|o| self.def(o).formation.is_some_and(|of| of != f))
    }

    /// How much the side likes `u` standing in `h` (higher is better).
    fn place(&self, u: UnitId, h: Hex) -> i32 {
        let def = self.def(u);
        let m = usize::from(def.is_mech());
        let i = h.idx();
        let plan = self.plan;
        let mut s = if self.exits(u) {
            let e = &plan.exit.as_ref().expect("exits")[m];
            -(e[i].min(FAR) as i32)
        } else {
            -(plan.goal[m][i].min(FAR) as i32)
        };
        if !plan.supplied[i] {
            s -= NO_SUPPLY;
        }
        if self.bad_stack(u, h) {
            s -= BAD_STACK;
        }
        if def.is_artillery() {
            // Within range of the enemy, behind the line.
            let range = def.range.unwrap_or(4) as i32;
            let d = plan.to_enemy[i] as i32;
            s = s / 4 - (d - (range - 1).max(2)).max(0) * 8 - if d <= 1 { 50 } else { 0 };
            return s;
        }
        let first_here = |h: Hex| self.ours[h.idx()].iter().all(|&o| o >= u);
        if plan.take[i] {
            s += TAKE_VP + 10 * self.g.world().vp[i] as i32;
        } else if self.g.world().vp[i] > 0 && control(self.g, h) == Some(self.side) && in_area(self.g, h) {
            // The first unit (by id) in a held VP hex is its garrison; the Allied player
            // stacks more there.
            if first_here(h) {
                s += HOLD_VP;
            } else if self.side == Side::Allied && self.ours[i].len() < 3 {
                s += 15;
            }
        }
        match self.side {
            Side::German => {
                if plan.to_enemy[i] == 1 && def.face(self.g.state().units[u as usize].reduced).attack > 0 {
                    s += 4;
                }
            }
            Side::Allied => {
                // 1.2: a line of ZOC Posts two hexes apart.
                let st = &self.g.state().units[u as usize];
                if def.is_bond_infantry()
                    && !st.reduced
                    && def.steps >= 2
                    && self.g.world().map.terrain(h) & self.g.world().t.city == 0
                {
                    let grid = &self.g.world().map.grid;
                    let partners = self
                        .posts
                        .iter()
                        .filter(|&&p| {
                            p != h
                                && grid.distance(p, h) == 2
                                && !self.ours[p.idx()].contains(&u)
                                && grid
                                    .neighbours(p)
                                    .any(|(_, mid)| grid.adjacent(mid, h) && self.b.count(mid) == 0)
                        })
                        .count()
                        .min(2);
                    if plan.to_enemy[i] <= 6 {
                        s += 8 * partners as i32;
                    }
                }
                // Weak units keep out of reach of strong enemies.
                if plan.to_enemy[i] == 1 && !plan.take[i] && self.g.world().vp[i] == 0 {
                    s -= 6;
                }
            }
        }
        s
    }

    fn here(&self, u: UnitId) -> i32 {
        self.g.state().units[u as usize]
            .hex()
            .map_or(-99_999, |h| self.place(u, h))
    }

    /// TEC note 1: may `u` in `from` attack `target` (it could enter it, or a road crosses)?
    /// The side's units that could attack `target` now.
    fn attackers(&self, target: Hex) -> Vec<UnitId> {
        let grid = &self.g.world().map.grid;
        let mut out = Vec::new();
        for (_, n) in grid.neighbours(target) {
            for &u in &self.ours[n.idx()] {
                if !self.g.state().units[u as usize].attacked
                    && self.b.strength(u, true) > 0
                    && self.g.may_attack_across(&self.b, u, n, target)
                {
                    out.push(u);
                }
            }
        }
        out
    }

    /// 3.2 (3): the odds column of `attackers` on `target`, as the engine works it out.
    fn column(&self, attackers: &[UnitId], target: Hex) -> usize {
        let defenders = self.b.units_at(target);
        if defenders.is_empty() {
            return 0;
        }
        self.g.odds_of(&self.b, attackers, &defenders, target).column
    }

    /// The worst column worth attacking `target` at.
    fn floor(&self, target: Hex) -> usize {
        let vp = self.g.world().vp[target.idx()] > 0 && in_area(self.g, target);
        match (self.side, vp) {
            (_, true) => COL_2_1,
            (Side::German, false) => COL_3_1,
            (Side::Allied, false) => COL_3_1,
        }
    }

    /// What losing a step of `u` costs.
    fn loss_cost(&self, u: UnitId) -> i32 {
        let def = self.def(u);
        let st = &self.g.state().units[u as usize];
        let face = def.face(st.reduced);
        let now = face.attack as i32 * 2 + face.defence as i32 + if def.is_artillery() { 6 } else { 0 };
        match (st.reduced, def.reduced) {
            (false, Some(r)) if def.steps >= 2 => now - (r.attack as i32 * 2 + r.defence as i32),
            _ => now + 4,
        }
    }
}

fn best<T>(items: impl Iterator<Item = (usize, T)>, mut key: impl FnMut(&T) -> Option<i32>) -> Option<(usize, i32)> {
    let mut out: Option<(usize, i32)> = None;
    for (i, t) in items {
        if let Some(k) = key(&t) {
            if out.is_none_or(|(_, bk)| k > bk) {
                out = Some((i, k));
            }
        }
    }
    out
}

impl Scripted {
    fn plan_for(&mut self, g: &ArdennesII, side: Side) -> &mut Plan {
        let k = key(g, side);
        if self.plan.as_ref().is_none_or(|p| p.key != k) {
            let mut plan = Plan::new(g, side, &mut self.search);
            if let Some(old) = self.plan.take() {
                // Same scenario, turn and side: the turn's moves are remembered.
                if (&old.key.0, old.key.1, old.key.3) == (&plan.key.0, plan.key.1, plan.key.3) {
                    plan.left = old.left;
                }
            }
            self.plan = Some(plan);
        }
        self.plan.as_mut().expect("just made")
    }
}

impl Agent<ArdennesII> for Scripted {
    fn choose(&mut self, view: &SeatView<'_>, seat: Seat, legal: &[Action], _rng: &mut Rng) -> usize {
        if legal.len() == 1 {
            return 0;
        }
        // Ardennes II hides nothing: the seat's view is the whole game.
        let g = view.game();
        let side = if seat == 0 { Side::German } else { Side::Allied };
        self.plan_for(g, side);
        let plan = self.plan.take().expect("planned");
        let (i, tried) = decide(g, &plan, legal);
        let mut plan = plan;
        if let Some(t) = tried {
            plan.tried.push(t);
        }
        if let Some(Action::Move { unit, .. } | Action::Boats { unit, .. }) = legal.get(i) {
            if let Some(from) = g.state().units[*unit as usize].hex() {
                plan.left.push((*unit, from));
            }
        }
        self.plan = Some(plan);
        i.min(legal.len() - 1)
    }
}

/// The choice among `legal`, and a target to note as tried.
fn decide(g: &ArdennesII, plan: &Plan, legal: &[Action]) -> (usize, Option<Hex>) {
    let sight = Sight::new(g, plan);
    let end = legal
        .iter()
        .position(|a| matches!(a, Action::EndPhase | Action::EndAdvance | Action::Pass))
        .unwrap_or(legal.len() - 1);
    if let Some(c) = g.combat() {
        return (combat_choice(&sight, c, legal, end), None);
    }
    match &legal[0] {
        Action::Place { .. } => {
            let i = best(legal.iter().enumerate(), |a| match a {
                Action::Place { unit, at } => Some(sight.place(*unit, *at)),
                _ => None,
            });
            return (i.map_or(0, |b| b.0), None);
        }
        Action::BugOut { .. } | Action::StayPut { .. } => {
            let i = best(legal.iter().enumerate(), |a| match a {
                Action::BugOut { unit, to } => Some(sight.place(*unit, *to)),
                _ => Some(-999_999),
            });
            return (i.map_or(0, |b| b.0), None);
        }
        // 3.5, 3.8: the observer, or the US unit that makes a demolition attempt, is frozen
        // for the rest of the phase: the candidate that loses least by it (one that can no
        // longer move, else the one with the fewest MP left), the first offered on a tie.
        Action::Observe { .. } | Action::Attempt { .. } => {
            let i = best(legal.iter().enumerate(), |a| match a {
                Action::Observe { unit } | Action::Attempt { unit } => Some(-(sight.move_left(*unit) as i32)),
                _ => None,
            });
            return (i.map_or(0, |b| b.0), None);
        }
        Action::Resupply { .. } => {
            return (
                legal
                    .iter()
                    .position(|a| matches!(a, Action::Resupply { roll: true, .. }))
                    .unwrap_or(0),
                None,
            )
        }
        _ => {}
    }
    if g.demolition_window() {
        // 3.8: blow what can be blown before the German moves.
        return (
            legal
                .iter()
                .position(|a| matches!(a, Action::Demolish { .. }))
                .unwrap_or(end),
            None,
        );
    }
    match g.phase() {
        Phase::AirSupply => (air_supply(&sight, legal, end), None),
        Phase::Combat(_) => {
            // 3.2 (1): the best target at good odds.
            let pick = best(legal.iter().enumerate(), |a| match a {
                Action::Attack { target } if !plan.tried.contains(target) => {
                    let col = sight.column(&sight.attackers(*target), *target);
                    (col >= sight.floor(*target)).then(|| {
                        col as i32 * 100
                            + if plan.take[target.idx()] { 150 } else { 0 }
                            + g.world().vp[target.idx()] as i32 * 10
                    })
                }
                _ => None,
            });
            match pick {
                Some((i, _)) => {
                    let t = match legal[i] {
                        Action::Attack { target } => Some(target),
                        _ => None,
                    };
                    (i, t)
                }
                None => (end, None),
            }
        }
        Phase::UsBarrage => (fire(&sight, legal).unwrap_or(end), None),
        Phase::Movement(_) | Phase::Exploitation(_) => (movement(&sight, legal, end), None),
        _ => (end, None),
    }
}

/// 2.2, 3.7: an Air Supply marker where the most US units are out of supply.
fn air_supply(sight: &Sight, legal: &[Action], end: usize) -> usize {
    let g = sight.g;
    let grid = &g.world().map.grid;
    let cut: Vec<Hex> = grid
        .hexes()
        .filter(|&h| !sight.ours[h.idx()].is_empty() && !sight.plan.supplied[h.idx()])
        .collect();
    if cut.is_empty() {
        return end;
    }
    best(legal.iter().enumerate(), |a| match a {
        Action::AirSupply { hex } => {
            Some(cut.iter().filter(|&&c| grid.distance(c, *hex) <= 5).count() as i32).filter(|&k| k > 0)
        }
        _ => None,
    })
    .map_or(end, |b| b.0)
}

/// 3.5: the barrage that helps most, if any: at enemy stacks next to the side's units.
fn fire(sight: &Sight, legal: &[Action]) -> Option<usize> {
    let g = sight.g;
    let grid = &g.world().map.grid;
    let side = sight.side;
    let value = |t: Hex| -> Option<i32> {
        if !sight.b.enemy_in(side, t) {
            return None;
        }
        let near: i32 = grid
            .neighbours(t)
            .map(|(_, n)| {
                sight.ours[n.idx()]
                    .iter()
                    .map(|&u| sight.def(u).face(g.state().units[u as usize].reduced).attack as i32)
                    .sum::<i32>()
            })
            .sum();
        let threat: i32 = sight
            .b
            .units_at(t)
            .iter()
            .map(|&u| sight.def(u).face(g.state().units[u as usize].reduced).attack as i32)
            .sum();
        let markers = sight.b.full_markers(t, side) as i32;
        let k = match (side, g.phase()) {
            // The German fires where he will attack.
            (Side::German, _) => near * 2 + if sight.plan.take[t.idx()] { 10 } else { 0 },
            // In the US barrage phase, at the Germans next to US units; in its own turn, where
            // it will attack.
            (Side::Allied, Phase::UsBarrage) => {
                if near > 0 || grid.neighbours(t).any(|(_, n)| !sight.ours[n.idx()].is_empty()) {
                    threat * 2 + 2
                } else {
                    0
                }
            }
            (Side::Allied, _) => near * 2 + if sight.plan.take[t.idx()] { 10 } else { 0 },
        };
        (k > 0).then_some(k - markers * 6)
    };
    best(legal.iter().enumerate(), |a| match a {
        Action::Fire { target, .. } => value(*target),
        Action::AirStrike { target } => value(*target).map(|k| k - 1),
        _ => None,
    })
    .filter(|b| b.1 > 0)
    .map(|b| b.0)
}

fn movement(sight: &Sight, legal: &[Action], end: usize) -> usize {
    let g = sight.g;
    // 7.5: exit what must exit.
    if let Some(i) = legal
        .iter()
        .position(|a| matches!(a, Action::Exit { unit } if sight.exits(*unit)))
    {
        return i;
    }
    // 3.3: an overrun at 4-1 or better.
    let over = best(legal.iter().enumerate(), |a| match a {
        Action::Overrun { units, target } => {
            let col = sight.column(units, *target);
            (col >= 6).then_some(col as i32 * 10 + units.len() as i32)
        }
        _ => None,
    });
    if let Some((i, _)) = over {
        return i;
    }
    // Combat units first, then the barrage, then the artillery that did not fire.
    // The legal list gives each unit's moves together: its standing where it is is worked
    // out once.
    let gain = |artillery: bool| {
        let mut here: Option<(UnitId, i32)> = None;
        best(legal.iter().enumerate(), |a| match a {
            Action::Move { unit, to, .. } | Action::Boats { unit, to } => {
                let st = &g.state().units[*unit as usize];
                if st.moved || sight.def(*unit).is_artillery() != artillery {
                    return None;
                }
                if sight.plan.left.contains(&(*unit, *to)) {
                    return None;
                }
                let now = match here {
                    Some((u, k)) if u == *unit => k,
                    _ => {
                        let k = sight.here(*unit);
                        here = Some((*unit, k));
                        k
                    }
                };
                Some(sight.place(*unit, *to) - now)
            }
            _ => None,
        })
        .filter(|b| b.1 > 0)
    };
    if let Some((i, _)) = gain(false) {
        return i;
    }
    if let Some(i) = fire(sight, legal) {
        return i;
    }
    if let Some((i, _)) = gain(true) {
        return i;
    }
    end
}

fn combat_choice(sight: &Sight, c: &sandtable_ardennes_ii::state::Combat, legal: &[Action], end: usize) -> usize {
    let g = sight.g;
    match c.stage {
        Stage::Commit => {
            let now = sight.column(&c.attackers, c.target);
            let mut with = c.attackers.clone();
            let join = best(legal.iter().enumerate(), |a| match a {
                Action::Join { unit } if sight.b.strength(*unit, true) > 0 => {
                    with.push(*unit);
                    let col = sight.column(&with, c.target);
                    with.pop();
                    Some(col as i32 * 100 - sight.b.strength(*unit, true) as i32 / 8)
                }
                _ => None,
            });
            if let Some((i, k)) = join {
                let col = (k + 99) / 100;
                // Below the odds that made it pick the target, every unit with some strength
                // joins, whether or not one more moves the column: the target was picked on the
                // column of all of them, so the attack is never called off for want of them.
                let short = now < sight.floor(c.target);
                if now < COL_CAP && (col as usize > now || short || c.attackers.is_empty()) {
                    return i;
                }
            }
            let go = !c.attackers.is_empty() && now >= sight.floor(c.target);
            let want = if go { Action::Resolve } else { Action::CallOff };
            legal.iter().position(|a| *a == want).unwrap_or(end)
        }
        Stage::StandOrRetreat => {
            let col = sight.column(&c.attackers, c.target);
            let holding = g.world().vp[c.target.idx()] > 0 && in_area(g, c.target);
            let flee = if holding { col >= 7 } else { col >= COL_3_1 };
            let want = if flee { Action::Withdraw } else { Action::Stand };
            legal.iter().position(|a| *a == want).unwrap_or(0)
        }
        Stage::AttackerLoss | Stage::DefenderLoss => best(legal.iter().enumerate(), |a| match a {
            Action::Lose { unit } => Some(-sight.loss_cost(*unit)),
            _ => None,
        })
        .map_or(0, |b| b.0),
        Stage::Retreat => {
            let lead = c
                .defenders
                .iter()
                .copied()
                .find(|&u| g.state().units[u as usize].hex().is_some());
            best(legal.iter().enumerate(), |a| match (a, lead) {
                (Action::RetreatTo { to }, Some(u)) => {
                    let loss = if sight.b.enemy_bond(sight.side, *to) { 500 } else { 0 };
                    Some(sight.place(u, *to) - loss)
                }
                _ => Some(-999_999),
            })
            .map_or(0, |b| b.0)
        }
        Stage::Advance => {
            let pick = best(legal.iter().enumerate(), |a| match a {
                Action::Advance { unit, to } => {
                    let k = sight.place(*unit, *to) - sight.here(*unit);
                    (k > 0 || sight.plan.take[to.idx()]).then_some(k)
                }
                _ => None,
            });
            pick.map_or(end, |b| b.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::{Game, Pending, RandomAgent, Rules};

    fn play(scenario: &str, seat: usize, seed: u64) -> (Option<u8>, u64) {
        let mut g = ArdennesII::new_game(scenario, seed).unwrap();
        g.set_journal(false);
        let mut agents: Vec<Box<dyn Agent<ArdennesII>>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
        agents[seat] = Box::new(Scripted::new());
        let mut rng = Rng::from_seed(seed ^ 0x5eed);
        let n = sandtable_core::game::play_out(&mut g, &mut agents, &mut rng, 100_000).unwrap();
        (g.outcome().and_then(|o| o.winner), n)
    }

    /// The scripted agent beats random play on either side of The Goose Egg (these seeds are
    /// won) and ends its phases rather than wandering.
    #[test]
    fn scripted_beats_random_in_the_goose_egg() {
        for seat in [0usize, 1] {
            let (winner, _) = play("goose-egg", seat, 1);
            assert_eq!(winner, Some(seat as u8), "seat {seat}");
        }
    }

    /// A scripted player that remembers nothing from one decision to the next, as one made
    /// afresh for every move would.
    struct Forgetful;

    impl Agent<ArdennesII> for Forgetful {
        fn choose(&mut self, view: &SeatView<'_>, seat: Seat, legal: &[Action], rng: &mut Rng) -> usize {
            Scripted::new().choose(view, seat, legal, rng)
        }
    }

    /// The agent's choices carry the game on without its memory: an attack it picks is made,
    /// not called off and picked again for ever (the attacks it tried are remembered only as
    /// a refinement).
    #[test]
    fn without_its_memory_the_scripted_agent_still_ends_its_phases() {
        let mut g = ArdennesII::new_game("bastogne", 11).unwrap();
        g.set_journal(false);
        let mut agents: Vec<Box<dyn Agent<ArdennesII>>> = vec![Box::new(Forgetful), Box::new(Forgetful)];
        let mut rng = Rng::from_seed(11);
        let n = sandtable_core::game::play_out(&mut g, &mut agents, &mut rng, 20_000).unwrap();
        assert!(g.outcome().is_some(), "the game ended ({n} decisions)");
    }

    /// Where the scripted player's units went back to a hex they had left earlier in the same
    /// turn, by their own moves (not retreats), in the first `turns` turns: `(turn, unit, hex)`.
    fn returns(scenario: &str, seat: usize, seed: u64, turns: u8) -> Vec<(u8, UnitId, Hex)> {
        let mut g = ArdennesII::new_game(scenario, seed).unwrap();
        g.set_journal(false);
        let mut agents: Vec<Box<dyn Agent<ArdennesII>>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
        agents[seat] = Box::new(Scripted::new());
        let mut rng = Rng::from_seed(seed);
        let mut left: Vec<Vec<Hex>> = vec![Vec::new(); g.state().units.len()];
        let mut turn = g.state().turn;
        let mut back = Vec::new();
        let last = turn + turns;
        while g.state().turn < last {
            match g.pending() {
                Pending::Over => break,
                Pending::Chance => {
                    g.resolve_chance();
                }
                Pending::Seat(s) => {
                    let legal = g.legal_list();
                    let i = agents[s as usize].choose(&g.seat_view(s), s, &legal, &mut rng);
                    let a = legal[i].clone();
                    let mover = match &a {
                        Action::Move { unit, .. } | Action::Boats { unit, .. } if s as usize == seat => Some(*unit),
                        _ => None,
                    };
                    let from = mover.and_then(|u| g.state().units[u as usize].hex());
                    g.apply(s, &a).unwrap();
                    if g.state().turn != turn {
                        turn = g.state().turn;
                        left.iter_mut().for_each(Vec::clear);
                    }
                    if let (Some(u), Some(from)) = (mover, from) {
                        if let Some(to) = g.state().units[u as usize].hex() {
                            if left[u as usize].contains(&to) {
                                back.push((turn, u, to));
                            }
                            left[u as usize].push(from);
                        }
                    }
                }
            }
        }
        back
    }

    /// The scripted player marched units back and forth within a turn (out in the movement
    /// phase, back in the exploitation phase): a unit it moves never goes back to a hex it left
    /// earlier that turn.
    #[test]
    fn the_scripted_player_does_not_march_units_back_and_forth() {
        // Games in which both sides' scripted players did so before.
        for (scenario, seat, seed) in [("goose-egg", 0, 5), ("peiper", 1, 1), ("spearpoint", 1, 1)] {
            let back = returns(scenario, seat, seed, 4);
            assert!(
                back.is_empty(),
                "{scenario} seat {seat}: back to where they came from: {back:?}"
            );
        }
    }

    /// 3.8 (data edition 3): of two US units next to Hotton's demolition symbol (A27.33), the
    /// one that has spent most of its move makes the attempt and stops, though the other comes
    /// first in counter order.
    #[test]
    fn the_unit_that_stops_for_a_demolition_is_the_one_with_least_move_left() {
        use sandtable_ardennes_ii::state::{Loc, UnitState};
        let mut g = ArdennesII::new_game("campaign", 7).unwrap();
        let symbol = g.world().map.grid.parse("A27.33").unwrap();
        let near: Vec<Hex> = g.world().map.grid.neighbours(symbol).map(|(_, n)| n).collect();
        let foot: Vec<UnitId> = (0..g.state().units.len() as UnitId)
            .filter(|&u| {
                let d = &g.world().data.counters.units[u as usize];
                d.side == Side::Allied && !d.is_mech() && !d.is_artillery()
            })
            .take(2)
            .collect();
        {
            let mut e = g.edit();
            for u in e.units.iter_mut() {
                *u = UnitState {
                    loc: Loc::Removed,
                    ..UnitState::default()
                };
            }
            e.turn = 5;
            e.markers.clear();
            e.airborne_due.clear();
            e.air_strikes = 0;
            e.set_edition(3);
            e.set_phase(Phase::Movement(Side::Allied));
            e.units[foot[0] as usize].loc = Loc::Map(near[0]);
            e.units[foot[1] as usize].loc = Loc::Map(near[3]);
        }
        // Half a MP left to the second.
        let ma = g.world().data.counters.units[foot[1] as usize].front.ma as u16;
        g.edit().units[foot[1] as usize].spent = ma * 2 - 1;
        g.apply(1, &Action::Demolish { symbol }).unwrap();
        let legal = g.legal_list();
        assert_eq!(
            legal[..],
            [Action::Attempt { unit: foot[0] }, Action::Attempt { unit: foot[1] }]
        );
        let i = Scripted::new().choose(&g.seat_view(1), 1, &legal, &mut Rng::from_seed(1));
        assert_eq!(legal[i], Action::Attempt { unit: foot[1] });
    }
}

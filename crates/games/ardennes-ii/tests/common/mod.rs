//! Positions built by hand on the real map, for the rules tests: a scenario is started, every
//! unit is taken off the board, and the units a test needs are put where it wants them, in the
//! phase it wants. Also what several test files share: the scenario list, the checks of a
//! refusal, the places looked up by terrain (open ground, overrun lanes), the fights played
//! through, the journal read back, and random play.

#![allow(dead_code)]

use sandtable_ardennes_ii::data::{Movement, UnitDef};
use sandtable_ardennes_ii::rules::Board;
use sandtable_ardennes_ii::sequence::{Phase, Side};
use sandtable_ardennes_ii::state::{Loc, Markers, UnitId, UnitState};
use sandtable_ardennes_ii::world::World;
use sandtable_ardennes_ii::{Action, ArdennesII};
use sandtable_core::chance::Rng;
use sandtable_core::game::{Game, Pending, Refusal, Rules};
use sandtable_core::hex::{Dir, Hex};

/// The German player's seat.
pub const GERMAN: u8 = 0;
/// The Allied player's seat.
pub const ALLIED: u8 = 1;

/// Every scenario of the game (7.1 to 7.6).
pub const SCENARIOS: [&str; 6] = [
    "campaign",
    "breakthrough",
    "peiper",
    "goose-egg",
    "bastogne",
    "spearpoint",
];

/// A campaign game on `turn`, in `phase`, with no unit on the map, no unit to come, no
/// pending placement, bug-out, demolition or combat, and no air strikes.
pub fn empty(turn: u8, phase: Phase) -> ArdennesII {
    let mut g = ArdennesII::new_game("campaign", 7).expect("the campaign starts");
    let mut e = g.edit();
    for u in e.units.iter_mut() {
        // Out of the game: neither on the map nor due as a reinforcement.
        *u = UnitState {
            loc: Loc::Removed,
            ..UnitState::default()
        };
    }
    e.turn = turn;
    e.markers.clear();
    e.airborne_due.clear();
    e.air_strikes = 0;
    e.air_supply.clear();
    e.attacked_hexes.clear();
    // Nothing in progress but the phase: no placement, bug-out, demolition or combat.
    e.set_phase(phase);
    drop(e);
    g
}

/// The hex of an SCS hex id.
pub fn hex(g: &ArdennesII, id: &str) -> Hex {
    g.world().map.grid.parse(id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

pub fn id(g: &ArdennesII, h: Hex) -> String {
    g.world().map.grid.id(h).0
}

/// Puts unit `u` on the map at `h`, full strength, not DG, fresh for the phase.
pub fn put(g: &mut ArdennesII, u: UnitId, h: Hex) {
    g.edit().units[u as usize] = UnitState {
        loc: Loc::Map(h),
        ..UnitState::default()
    };
}

pub fn def(g: &ArdennesII, u: UnitId) -> &UnitDef {
    &g.world().data.counters.units[u as usize]
}

/// The units of the manifest that satisfy `f`, in manifest order.
pub fn units_where(g: &ArdennesII, f: impl Fn(&UnitDef) -> bool) -> Vec<UnitId> {
    g.world()
        .data
        .counters
        .units
        .iter()
        .enumerate()
        .filter(|(_, d)| f(d))
        .map(|(i, _)| i as UnitId)
        .collect()
}

/// `n` distinct units of `side` satisfying `f`, not in `taken`.
pub fn pick(g: &ArdennesII, n: usize, taken: &[UnitId], f: impl Fn(&UnitDef) -> bool) -> Vec<UnitId> {
    let v: Vec<UnitId> = units_where(g, f)
        .into_iter()
        .filter(|u| !taken.contains(u))
        .take(n)
        .collect();
    assert_eq!(v.len(), n, "the manifest has {n} such units");
    v
}

/// Two-step infantry that forms ZOC Posts (1.2), on foot.
pub fn bond_infantry(side: Side) -> impl Fn(&UnitDef) -> bool {
    move |d| d.side == side && d.is_bond_infantry() && d.steps == 2 && d.movement == Movement::Foot
}

/// A mechanized, exploit-capable manoeuvre unit of two steps.
pub fn exploiter(side: Side) -> impl Fn(&UnitDef) -> bool {
    move |d| d.side == side && d.exploit && d.is_mech() && !d.is_artillery() && d.steps == 2 && d.front.attack >= 2
}

/// A mechanized manoeuvre unit without the exploit bar.
pub fn mech_no_exploit(side: Side) -> impl Fn(&UnitDef) -> bool {
    move |d| d.side == side && !d.exploit && d.is_mech() && !d.is_artillery() && d.front.attack >= 1
}

/// A foot manoeuvre unit.
pub fn foot(side: Side) -> impl Fn(&UnitDef) -> bool {
    move |d| d.side == side && d.movement == Movement::Foot && !d.is_artillery() && d.front.attack >= 1
}

/// Whether hex `h` has the named terrain.
pub fn has(g: &ArdennesII, h: Hex, terrain: &str) -> bool {
    g.world().terrain_names[h.idx()].contains(&terrain)
}

/// A hex of only open (or village) terrain: no woods, city, slope, traffic jam…
pub fn plain(g: &ArdennesII, h: Hex) -> bool {
    g.world().terrain_names[h.idx()]
        .iter()
        .all(|t| matches!(*t, "open" | "village"))
}

/// A hex of plain terrain all of whose neighbours are plain too, and whose hexsides carry no
/// water: a quiet field to stage a position in.
pub fn quiet(g: &ArdennesII, h: Hex) -> bool {
    let grid = &g.world().map.grid;
    plain(g, h)
        && grid.neighbours(h).count() == 6
        && grid
            .neighbours(h)
            .all(|(d, n)| plain(g, n) && !g.world().water(h, d) && grid.neighbours(n).count() == 6)
}

/// Hexes in a ring-2 neighbourhood of `h` that are all quiet.
pub fn quiet_area(g: &ArdennesII, h: Hex, radius: u32) -> bool {
    let grid = &g.world().map.grid;
    grid.hexes()
        .filter(|&x| grid.distance(h, x) <= radius)
        .all(|x| quiet(g, x))
        && grid.hexes().filter(|&x| grid.distance(h, x) <= radius).count()
            == 1 + 3 * radius as usize * (radius as usize + 1)
}

/// The neighbour of `h` toward `d`.
pub fn step(g: &ArdennesII, h: Hex, d: Dir) -> Hex {
    g.world().map.grid.neighbour(h, d).expect("a neighbour on the map")
}

pub fn board(g: &ArdennesII) -> Board<'_> {
    Board::new(g.world(), g.state())
}

pub fn legal(g: &ArdennesII) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// The seat deciding now.
pub fn seat(g: &ArdennesII) -> u8 {
    match g.pending() {
        Pending::Seat(s) => s,
        other => panic!("no seat decides now: {other:?}"),
    }
}

/// Takes `seat`'s action, then lets chance roll the dice it calls for, until someone must
/// decide: one decision as a player sees it.
pub fn act(g: &mut ArdennesII, seat: u8, a: &Action) -> Result<(), Refusal> {
    g.apply(seat, a)?;
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    Ok(())
}

/// Applies a legal action for the seat deciding now, and its dice; panics if refused.
pub fn play(g: &mut ArdennesII, a: Action) {
    let s = seat(g);
    act(g, s, &a).unwrap_or_else(|r| panic!("{a:?} refused: {} {}", r.rule, r.text.en));
}

/// Plays on (ending phases, passing, placing where first offered, not rolling for resupply)
/// until `phase` of `turn` is reached and someone decides in it.
pub fn run_to(g: &mut ArdennesII, turn: u8, phase: Phase) {
    for _ in 0..500 {
        if g.state().turn == turn
            && g.phase() == phase
            && g.combat().is_none()
            && matches!(g.pending(), Pending::Seat(_))
        {
            return;
        }
        let v = legal(g);
        let a = if v.contains(&Action::EndPhase) {
            Action::EndPhase
        } else if v.contains(&Action::Pass) {
            Action::Pass
        } else if v.contains(&Action::EndAdvance) {
            Action::EndAdvance
        } else if let Some(a) = v.iter().find(|a| matches!(a, Action::Resupply { roll: false, .. })) {
            a.clone()
        } else if let Some(a) = v.first() {
            a.clone()
        } else {
            panic!(
                "no decision on the way to {phase:?} of turn {turn}: at {:?} of turn {}",
                g.phase(),
                g.state().turn
            );
        };
        play(g, a);
    }
    panic!("{phase:?} of turn {turn} not reached");
}

/// Adds `full` Full and `half` Half barrage markers fired by `side` at `h`.
pub fn mark(g: &mut ArdennesII, h: Hex, side: Side, full: u8, half: u8) {
    g.edit().markers.push(Markers {
        hex: h,
        side,
        full,
        half,
    });
}

/// The journal's lines in English.
pub fn journal(g: &ArdennesII) -> Vec<String> {
    g.journal(None).into_iter().map(|l| l.text.en).collect()
}

/// A unit as everyone's view shows it (`None` if it is not on the map).
pub fn seen(g: &ArdennesII, u: UnitId) -> Option<serde_json::Value> {
    let id = &g.world().data.counters.units[u as usize].id;
    g.view(None)["units"]
        .as_array()
        .expect("the view lists units")
        .iter()
        .find(|v| v["id"] == id.as_str())
        .cloned()
}

// ---- refusals ----

/// Asserts that `seat` doing `a` is refused with a rule and a reason in both languages, and
/// leaves the game as it was, its journal too; returns the refusal.
pub fn refusal(g: &mut ArdennesII, seat: u8, a: &Action) -> Refusal {
    let before = g.checksum();
    let lines = journal(g).len();
    let r = g.apply(seat, a).expect_err("the action is refused");
    assert!(!r.rule.is_empty(), "{a:?}: no rule cited: {}", r.text.en);
    assert!(!r.text.en.is_empty() && !r.text.zh.is_empty());
    assert_eq!(g.checksum(), before, "{a:?}: a refused action changed the state");
    assert_eq!(journal(g).len(), lines, "{a:?}: a refused action wrote to the journal");
    r
}

/// Asserts that `seat` doing `a` is refused, citing `rule`, and leaves the game as it was;
/// returns the refusal.
pub fn refused(g: &mut ArdennesII, seat: u8, a: &Action, rule: &str) -> Refusal {
    let r = refusal(g, seat, a);
    assert_eq!(r.rule, rule, "{a:?}: {}", r.text.en);
    r
}

// ---- places, looked up by terrain ----

/// Whether `h` lies in an entry area (3.1: divisional integrity does not apply there).
pub fn in_entry_area(g: &ArdennesII, h: Hex) -> bool {
    g.world()
        .map
        .hex_sets
        .iter()
        .any(|(name, v)| name.starts_with("entry-") && v.contains(&h))
}

/// Whether `h` is within `radius` of an entry area or of either side's friendly map edge.
fn near_an_entry_or_edge(g: &ArdennesII, h: Hex, radius: u32) -> bool {
    g.world().map.grid.within(h, radius).any(|x| {
        in_entry_area(g, x) || g.world().friendly_edge(Side::Allied, x) || g.world().friendly_edge(Side::German, x)
    })
}

/// Whether a demolition symbol lies within 4 hexes of `h` (3.8: a German move would halt
/// before a primed bridge).
fn near_a_demolition(g: &ArdennesII, h: Hex) -> bool {
    g.world()
        .demolitions
        .iter()
        .any(|(symbol, _)| g.world().map.grid.distance(*symbol, h) <= 4)
}

/// Room to fight in: no entry area or friendly map edge within 6 hexes (a retreat before
/// combat runs 5), not near a map edge, and no demolition symbol within 4 hexes.
pub fn roomy(g: &ArdennesII, h: Hex) -> bool {
    g.world().map.grid.within(h, 6).count() == 1 + 3 * 6 * 7
        && !near_an_entry_or_edge(g, h, 6)
        && !near_a_demolition(g, h)
}

/// Open ground with room: the hex and everything within `radius` plain and without water, no
/// entry area or map edge within `radius` + 3 and no demolition symbol within 4 hexes (the
/// `skip` first such hexes passed over).
pub fn field(g: &ArdennesII, radius: u32, skip: usize) -> Hex {
    let grid = &g.world().map.grid;
    let room = radius as usize + 3;
    grid.hexes()
        .filter(|&h| {
            quiet_area(g, h, radius)
                && grid.within(h, radius + 3).count() == 1 + 3 * room * (room + 1)
                && !near_an_entry_or_edge(g, h, radius + 3)
                && !near_a_demolition(g, h)
        })
        .nth(skip)
        .expect("the map has open ground")
}

/// The first hex (in index order) of `w`'s map at distance `k` from `h`.
pub fn ring(w: &World, h: Hex, k: u32) -> Hex {
    let grid = &w.map.grid;
    grid.within(h, k)
        .find(|&x| grid.distance(h, x) == k)
        .expect("a hex at that distance")
}

/// Whether `side`'s mechanized units may enter `h` at all (its terrain is not P to them).
pub fn mech_may_enter(g: &ArdennesII, side: Side, h: Hex) -> bool {
    g.world().costs.hex[side.seat() as usize][1][h.idx()].is_some()
}

/// An overrun lane: the attacker starts at `s`, two hexes from the defender's hex `t`, and
/// reaches `a`, next to `t`, along a road; a Road or Track (`kind`) crosses the hexside from
/// `a` into `t`.
#[derive(Clone, Copy, Debug)]
pub struct Lane {
    pub s: Hex,
    pub a: Hex,
    pub t: Hex,
    pub kind: &'static str,
}

/// Every lane whose target satisfies `target` and whose `s` and `a` satisfy `approach`, one
/// per (target, `a`).
pub fn lanes_where(
    g: &ArdennesII,
    target: &dyn Fn(&ArdennesII, Hex) -> bool,
    approach: &dyn Fn(&ArdennesII, Hex) -> bool,
) -> Vec<Lane> {
    let grid = &g.world().map.grid;
    let b = board(g);
    let mut out = Vec::new();
    for t in grid.hexes() {
        if !target(g, t) {
            continue;
        }
        for (_, a) in grid.neighbours(t) {
            let into_t = grid.dir_to(a, t).expect("adjacent");
            let Some(kind) = b.road_link(a, into_t) else { continue };
            if !approach(g, a) {
                continue;
            }
            let s = grid.neighbours(a).map(|(_, n)| n).find(|&s| {
                grid.distance(s, t) == 2
                    && approach(g, s)
                    && b.road_link(s, grid.dir_to(s, a).expect("adjacent")).is_some()
            });
            if let Some(s) = s {
                out.push(Lane { s, a, t, kind });
            }
        }
    }
    out
}

/// Lanes in open ground with room around: the target and its neighbours plain and without
/// water, the approach plain.
pub fn open_lanes(g: &ArdennesII) -> Vec<Lane> {
    lanes_where(g, &|g, t| quiet(g, t) && roomy(g, t), &|g, h| {
        plain(g, h) && roomy(g, h)
    })
}

/// The first lane in open ground.
pub fn open_lane(g: &ArdennesII) -> Lane {
    *open_lanes(g).first().expect("a road through open ground")
}

/// The first lane into a German traffic jam (3.1) outside the entry areas, along hexes German
/// mechanized units may enter that are no jam themselves.
pub fn jam_lane(g: &ArdennesII) -> Lane {
    *lanes_where(g, &|g, t| has(g, t, "traffic-jam") && !in_entry_area(g, t), &|g, h| {
        mech_may_enter(g, Side::German, h) && !has(g, h, "traffic-jam") && !in_entry_area(g, h)
    })
    .first()
    .expect("a road into a traffic jam")
}

/// A German movement phase of turn 1 at the first road into a traffic jam (on `edition`):
/// three German mechanized units stacked next to the jam, a fourth two hexes out on the road.
pub fn a_stack_at_a_jam(edition: u8) -> (ArdennesII, [UnitId; 4], Lane) {
    let mut g = empty(1, Phase::Movement(Side::German));
    g.edit().set_edition(edition);
    let lane = jam_lane(&g);
    let us = pick(&g, 4, &[], |d| {
        d.side == Side::German && d.is_mech() && !d.is_artillery() && d.front.ma >= 8
    });
    for &u in &us[..3] {
        put(&mut g, u, lane.a);
    }
    put(&mut g, us[3], lane.s);
    (g, [us[0], us[1], us[2], us[3]], lane)
}

// ---- units ----

/// A primed bridge with a road across it and two road hexes leading to its near bank, none of
/// them a hex of any demolition: (symbol, start, halt hex, near bank, far bank).
pub fn bridge_approach(g: &ArdennesII) -> (Hex, Hex, Hex, Hex, Hex) {
    let w = g.world().clone();
    let b = board(g);
    let grid = &w.map.grid;
    let touched = |h: Hex| {
        w.demolitions
            .iter()
            .any(|(s, p)| *s == h || p.iter().any(|&(x, y)| x == h || y == h))
    };
    for (symbol, pairs) in &w.demolitions {
        for &(x, y) in pairs {
            for (near, far) in [(x, y), (y, x)] {
                let Some(d) = grid.dir_to(near, far) else { continue };
                if b.road_link(near, d).is_none() {
                    continue;
                }
                for (d1, halt) in grid.neighbours(near) {
                    let _ = d1;
                    let Some(dh) = grid.dir_to(halt, near) else { continue };
                    if touched(halt) || b.road_link(halt, dh).is_none() {
                        continue;
                    }
                    for (_, start) in grid.neighbours(halt) {
                        let Some(ds) = grid.dir_to(start, halt) else { continue };
                        if start != near && !touched(start) && b.road_link(start, ds).is_some() {
                            return (*symbol, start, halt, near, far);
                        }
                    }
                }
            }
        }
    }
    panic!("the map has a primed road bridge with a road leading to it");
}

/// Artillery of `side` of no division, of range `range` or more.
pub fn gun(side: Side, range: u8) -> impl Fn(&UnitDef) -> bool {
    move |d| d.side == side && d.is_artillery() && d.formation.is_none() && d.range.is_some_and(|r| r >= range)
}

/// A German mechanized unit without the exploit bar that forms no ZOC Post.
pub fn german_tank(d: &UnitDef) -> bool {
    mech_no_exploit(Side::German)(d) && !d.is_bond_infantry()
}

/// The hexes unit `u` is offered to move to.
pub fn moves_of(g: &ArdennesII, u: UnitId) -> Vec<Hex> {
    legal(g)
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { unit, to, .. } if unit == u => Some(to),
            _ => None,
        })
        .collect()
}

// ---- combat and barrage, played through ----

/// A fight far from `keep_clear` (a US and a German foot unit side by side in open ground with
/// room, none of `taken`, no unit already on the map within 2 hexes), so that a German combat
/// phase is a decision and ending it begins the German exploitation phase. The phase is the
/// caller's to set.
pub fn combat_phase_with_a_fight_elsewhere(g: &mut ArdennesII, keep_clear: Hex, taken: &[UnitId]) {
    let grid = &g.world().map.grid;
    let clear = |h: Hex| {
        g.state()
            .units
            .iter()
            .all(|u| u.hex().is_none_or(|x| grid.distance(x, h) > 2))
    };
    let spot = grid
        .hexes()
        .find(|&h| quiet(g, h) && roomy(g, h) && grid.distance(h, keep_clear) > 12 && clear(h))
        .expect("open ground far away");
    let them = pick(g, 1, taken, foot(Side::Allied))[0];
    let us = pick(g, 1, taken, foot(Side::German))[0];
    put(g, them, spot);
    put(g, us, step(g, spot, 0));
}

/// An attack on `target` by `attackers`, set up and resolved, up to the defender's choice.
pub fn attack(g: &mut ArdennesII, target: Hex, attackers: &[UnitId]) {
    play(g, Action::Attack { target });
    for &unit in attackers {
        play(g, Action::Join { unit });
    }
    play(g, Action::Resolve);
}

/// The defender withdraws (3.2) to the first hex offered; returns it.
pub fn withdraw(g: &mut ArdennesII) -> Hex {
    play(g, Action::Withdraw);
    let first = legal(g)[0].clone();
    let Action::RetreatTo { to } = first else {
        panic!("a retreat is due, not {first:?}")
    };
    play(g, first);
    to
}

/// The hexes offered for the retreat under way (3.2); panics if anything else is offered.
pub fn retreats(g: &ArdennesII) -> Vec<Hex> {
    legal(g)
        .into_iter()
        .map(|a| match a {
            Action::RetreatTo { to } => to,
            other => panic!("a retreat is due, not {other:?}"),
        })
        .collect()
}

/// The attack and defence strengths of the last combat roll, from the journal.
pub fn last_strengths(g: &ArdennesII) -> (f64, f64) {
    let line = journal(g)
        .into_iter()
        .rev()
        .find(|l| l.starts_with("3.2: ") && l.contains(" against "))
        .expect("a combat roll in the journal");
    let (a, d) = line["3.2: ".len()..].split_once(" against ").expect("a against d");
    let d = d.split(',').next().expect("d");
    (
        a.trim().parse().unwrap_or_else(|_| panic!("attack in `{line}`")),
        d.trim().parse().unwrap_or_else(|_| panic!("defence in `{line}`")),
    )
}

/// Fires `gun` at `t` and returns the die, the modified roll and the marker placed ("Full",
/// "Half" or "none"), from the journal.
pub fn fire(g: &mut ArdennesII, gun: UnitId, t: Hex) -> (i32, i32, &'static str) {
    play(g, Action::Fire { unit: gun, target: t });
    let line = journal(g)
        .into_iter()
        .rev()
        .find(|l| l.starts_with("3.5: barrage at"))
        .expect("the barrage roll");
    let num = |key: &str| -> i32 {
        let rest = &line[line.find(key).expect(key) + key.len()..];
        rest.split(|c: char| !c.is_ascii_digit() && c != '-')
            .find(|s| !s.is_empty())
            .and_then(|s| s.parse().ok())
            .expect("a number")
    };
    let result = if line.contains("a Full marker") {
        "Full"
    } else if line.contains("a Half marker") {
        "Half"
    } else {
        assert!(line.contains("no effect"), "{line}");
        "none"
    };
    (num("die "), num("modified "), result)
}

/// Ends the German movement phase into the US Barrage phase, reconciling the Half markers on
/// the way (3.5): a German foot unit put at `spot` and a US air strike keep that phase a
/// decision.
pub fn on_to_the_us_barrage_phase(g: &mut ArdennesII, spot: Hex) {
    let gu = pick(g, 1, &[], foot(Side::German))[0];
    put(g, gu, spot);
    g.edit().air_strikes = 1;
    play(g, Action::EndPhase);
    assert_eq!(g.phase(), Phase::UsBarrage);
}

/// The die a journal line ends with ("… die 4.").
pub fn last_die(line: &str) -> i32 {
    line.rsplit("die ")
        .next()
        .and_then(|s| s.trim_end_matches('.').parse().ok())
        .unwrap_or_else(|| panic!("a die in `{line}`"))
}

// ---- random play ----

/// Plays `decisions` random decisions of `scenario` from `seed`, with the journal off (a chance
/// event resolved on the way counts as one). Before each decision `look` is shown the game,
/// the seat deciding, its legal list (never empty), the decision's number and the random
/// source, from which it may draw before the action is drawn; it may return a twin of the game,
/// to which the same action is then applied and which must come out the same game.
pub fn random_play(
    scenario: &str,
    seed: u64,
    decisions: usize,
    mut look: impl FnMut(&ArdennesII, u8, &[Action], usize, &mut Rng) -> Option<ArdennesII>,
) {
    let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario starts");
    g.set_journal(false);
    let mut rng = Rng::from_seed(seed);
    let mut legal = Vec::new();
    for step in 0..decisions {
        let seat = match g.pending() {
            Pending::Over => break,
            Pending::Chance => {
                g.resolve_chance();
                continue;
            }
            Pending::Seat(seat) => seat,
        };
        g.legal_actions(&mut legal);
        assert!(
            !legal.is_empty(),
            "{scenario} seed {seed} step {step}: a decision with no legal action"
        );
        let twin = look(&g, seat, &legal, step, &mut rng);
        let a = legal[rng.below(legal.len() as u32) as usize].clone();
        g.apply(seat, &a)
            .unwrap_or_else(|r| panic!("{scenario} seed {seed} step {step}: the listed {a:?} is refused: {r}"));
        if let Some(mut twin) = twin {
            twin.apply(seat, &a)
                .unwrap_or_else(|r| panic!("{scenario} seed {seed} step {step}: the twin refuses {a:?}: {r}"));
            assert_eq!(
                g.checksum(),
                twin.checksum(),
                "{scenario} seed {seed} step {step}: {a:?} led to different games"
            );
        }
    }
}

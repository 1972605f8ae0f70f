//! Positions built by hand on the real map, for the rules tests: a scenario is started, every
//! unit is taken off the board, and the units a test needs are put where it wants them, in the
//! phase it wants.

#![allow(dead_code)]

use sandtable_ardennes_ii::data::{Movement, UnitDef};
use sandtable_ardennes_ii::flow::Action;
use sandtable_ardennes_ii::rules::Board;
use sandtable_ardennes_ii::sequence::{Phase, Side};
use sandtable_ardennes_ii::state::{Markers, UnitId, UnitState};
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::game::{Game, Pending};
use sandtable_core::hex::{Dir, Hex};

/// A campaign game on `turn`, in `phase`, with no unit on the map, no unit to come, no
/// pending placement, bug-out, demolition or combat, and no air strikes.
pub fn empty(turn: u8, phase: Phase) -> ArdennesII {
    let mut g = ArdennesII::new_game("campaign", 7).expect("the campaign starts");
    for u in g.s.units.iter_mut() {
        // Out of the game: neither on the map nor due as a reinforcement.
        *u = UnitState {
            gone: true,
            removed: true,
            ..UnitState::default()
        };
    }
    g.s.turn = turn;
    g.s.phase = phase;
    g.s.markers.clear();
    g.s.placing.clear();
    g.s.bug_outs.clear();
    g.s.resupply.clear();
    g.s.airborne_due.clear();
    g.s.demolition_window = false;
    g.s.combat = None;
    g.s.air_strikes = 0;
    g.s.air_supply.clear();
    g.s.attacked_hexes.clear();
    g.s.phase_done = false;
    g
}

/// The hex of an SCS hex id.
pub fn hex(g: &ArdennesII, id: &str) -> Hex {
    g.w.map.grid.parse(id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

pub fn id(g: &ArdennesII, h: Hex) -> String {
    g.w.map.grid.id(h).0
}

/// Puts unit `u` on the map at `h`, full strength, not DG, fresh for the phase.
pub fn put(g: &mut ArdennesII, u: UnitId, h: Hex) {
    g.s.units[u as usize] = UnitState {
        loc: Some(h),
        ..UnitState::default()
    };
}

pub fn def(g: &ArdennesII, u: UnitId) -> &UnitDef {
    &g.w.data.counters.units[u as usize]
}

/// The units of the manifest that satisfy `f`, in manifest order.
pub fn units_where(g: &ArdennesII, f: impl Fn(&UnitDef) -> bool) -> Vec<UnitId> {
    g.w.data
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
    g.w.terrain_names[h.idx()].contains(&terrain)
}

/// A hex of only open (or village) terrain: no woods, city, slope, traffic jam…
pub fn plain(g: &ArdennesII, h: Hex) -> bool {
    g.w.terrain_names[h.idx()]
        .iter()
        .all(|t| matches!(*t, "open" | "village"))
}

/// A hex of plain terrain all of whose neighbours are plain too, and whose hexsides carry no
/// water: a quiet field to stage a position in.
pub fn quiet(g: &ArdennesII, h: Hex) -> bool {
    let grid = &g.w.map.grid;
    plain(g, h)
        && grid.neighbours(h).count() == 6
        && grid
            .neighbours(h)
            .all(|(d, n)| plain(g, n) && !g.w.water(h, d) && grid.neighbours(n).count() == 6)
}

/// Hexes in a ring-2 neighbourhood of `h` that are all quiet.
pub fn quiet_area(g: &ArdennesII, h: Hex, radius: u32) -> bool {
    let grid = &g.w.map.grid;
    grid.hexes()
        .filter(|&x| grid.distance(h, x) <= radius)
        .all(|x| quiet(g, x))
        && grid.hexes().filter(|&x| grid.distance(h, x) <= radius).count()
            == 1 + 3 * radius as usize * (radius as usize + 1)
}

/// The neighbour of `h` toward `d`.
pub fn step(g: &ArdennesII, h: Hex, d: Dir) -> Hex {
    g.w.map.grid.neighbour(h, d).expect("a neighbour on the map")
}

pub fn board(g: &ArdennesII) -> Board<'_> {
    Board::new(&g.w, &g.s)
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

/// Applies a legal action for the seat deciding now; panics if refused.
pub fn play(g: &mut ArdennesII, a: Action) {
    let s = seat(g);
    g.apply(s, &a)
        .unwrap_or_else(|r| panic!("{a:?} refused: {} {}", r.rule, r.text.en));
}

/// Plays on (ending phases, passing, placing where first offered, not rolling for resupply)
/// until `phase` of `turn` is reached and someone decides in it.
pub fn run_to(g: &mut ArdennesII, turn: u8, phase: Phase) {
    for _ in 0..500 {
        if g.s.turn == turn && g.s.phase == phase && g.s.combat.is_none() && matches!(g.pending(), Pending::Seat(_)) {
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
                g.s.phase, g.s.turn
            );
        };
        play(g, a);
    }
    panic!("{phase:?} of turn {turn} not reached");
}

/// Adds `full` Full and `half` Half barrage markers fired by `side` at `h`.
pub fn mark(g: &mut ArdennesII, h: Hex, side: Side, full: u8, half: u8) {
    g.s.markers.push(Markers {
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
    let id = &g.w.data.counters.units[u as usize].id;
    g.view(None)["units"]
        .as_array()
        .expect("the view lists units")
        .iter()
        .find(|v| v["id"] == id.as_str())
        .cloned()
}

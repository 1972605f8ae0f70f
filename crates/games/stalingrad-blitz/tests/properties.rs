//! Properties of random legal play (few cases, small positions): it never panics, never stops
//! at a seat's decision without a legal action, always ends; every transition keeps the
//! pieces legal (land hexes, one side per hex, stacking at rest) and the step bookkeeping
//! honest (no unit on the map regains a step; units re-enter only from off the map, full
//! unless they come from the rail box; the Axis loss VP follow the removals); the same seed
//! and actions give the same checksums; and `record::Session` replays a game exactly.

mod common;
use common::*;
use proptest::prelude::*;
use sandtable_core::chance::Rng;
use sandtable_core::game::{Game, Pending, Rules};
use sandtable_core::record::{ScenarioSource, Session};
use sandtable_stalingrad_blitz::rules::{loss_vp, Board};
use sandtable_stalingrad_blitz::state::{Frame, Loc, Step, SupplyStage};
use sandtable_stalingrad_blitz::{Action, Side, StalingradBlitz};

/// Small positions on the small map: (units, extra scenario tables).
const POSITIONS: &[(&[(&str, &str)], &str)] = &[
    (SKIRMISH, ""),
    (
        &[
            ("ger-hq-4pza", "0404"),
            ("ger-pz-9", "0405"),
            ("ger-pz-11", "0304"),
            ("ger-inf-88", "0506"),
            ("ger-mt-1", "0606"),
            ("ger-hq-6a", "0203"),
            ("rum-hq-3a", "0308"),
            ("rum-inf-2", "0408"),
            ("ger-inf-377", "rail-box reduced"),
            ("ger-mot-16", "rail-box"),
            ("sov-hq-swf", "1004"),
            ("sov-rifle-45", "0905"),
            ("sov-rifle-62", "0905"),
            ("sov-rifle-121", "0905 reduced"),
            ("sov-tk-4", "0804"),
            ("sov-cav-110", "0807"),
            ("sov-hq-sthf", "track"),
        ],
        "[[fortress]]\nhex = \"0905\"\nlevel = 1\n",
    ),
    (
        &[
            ("ger-hq-17a", "0208"),
            ("ger-mt-4", "0308"),
            ("ger-inf-9", "0307"),
            ("ger-ss-wik", "0407"),
            ("hun-hq-2a", "0206"),
            ("hun-inf-6", "0306"),
            ("sov-hq-csf", "0908"),
            ("sov-rifle-160", "0808"),
            ("sov-rifle-212", "0709"),
            ("sov-gcav-6", "1009"),
            ("sov-rifle-51", "0806"),
        ],
        "",
    ),
    (
        &[
            ("ger-hq-4pza", "0807"),
            ("ger-pz-9", "0908"),
            ("ger-pz-11", "0909"),
            ("ger-pz-24", "0806"),
            ("ger-gd", "0808"),
            ("ger-inf-88", "0907"),
            ("sov-hq-swf", "1204"),
            ("sov-rifle-45", "1008"),
            ("sov-rifle-62", "1009"),
            ("sov-rifle-121", "1007"),
            ("sov-tk-4", "1106"),
            ("sov-rifle-160", "0905"),
            ("sov-hq-sthf", "1109"),
        ],
        "",
    ),
];

/// A random legal action, leaning towards a fight: moves that end next to the enemy, attacks,
/// and an early end of movement, so that combat, retreats and advances happen often.
fn choose(g: &StalingradBlitz, rng: &mut Rng, l: &[Action]) -> Action {
    let b = Board::new(g.data(), g.state());
    let contact: Vec<Action> = l
        .iter()
        .copied()
        .filter(|a| match a {
            Action::Move { unit, to, .. } => {
                let side = g.data().units[*unit as usize].side;
                g.data().map.grid.neighbours(*to).any(|(_, n)| b.enemy_in(side, n))
            }
            _ => false,
        })
        .collect();
    if !contact.is_empty() && rng.below(3) != 0 {
        return contact[rng.below(contact.len() as u32) as usize];
    }
    let attacks: Vec<Action> = l
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Declare { .. }))
        .collect();
    if !attacks.is_empty() && rng.below(4) != 0 {
        return attacks[rng.below(attacks.len() as u32) as usize];
    }
    if l.contains(&Action::EndMovement) && rng.below(3) == 0 {
        return Action::EndMovement;
    }
    l[rng.below(l.len() as u32) as usize]
}

/// Where every unit is and which side it shows, and the Axis loss VP.
#[derive(Clone, Debug)]
struct Snap {
    locs: Vec<Loc>,
    reduced: Vec<bool>,
    loss_vp: u16,
}

fn snap(g: &StalingradBlitz) -> Snap {
    Snap {
        locs: g.state().units.iter().map(|u| u.loc).collect(),
        reduced: g.state().units.iter().map(|u| u.reduced).collect(),
        loss_vp: g.state().loss_vp,
    }
}

/// 3.1: land hexes only, one side per hex, and (when nothing is moving: at a selection, a draw
/// or the end) no more than two units in a hex without a fortress.
fn check_position(g: &StalingradBlitz) -> Result<(), String> {
    let d = g.data();
    let b = Board::new(g.data(), g.state());
    let at_rest = matches!(g.frames().last(), Some(Frame::Select(_) | Frame::Draw) | None);
    for h in d.map.grid.hexes() {
        let here = b.units_at(h);
        if here.is_empty() {
            continue;
        }
        let id = d.map.grid.id(h).0;
        if d.map.terrain(h) & (d.t.sea | d.t.impassable) != 0 {
            return Err(format!("units on the sea or impassable hex {id}"));
        }
        let side = d.units[here[0] as usize].side;
        if here.iter().any(|&u| d.units[u as usize].side != side) {
            return Err(format!("both sides in {id} (3.1(2))"));
        }
        let fort = g.state().fortresses.iter().any(|f| f.hex == h);
        if fort && side == Side::Axis {
            return Err(format!("Axis units in the fortress hex {id}"));
        }
        if at_rest && !fort && here.len() > 2 {
            return Err(format!("{} units in {id} at rest (3.1(1))", here.len()));
        }
    }
    if let Pending::Seat(_) = g.pending() {
        if legal(g).is_empty() {
            return Err("a seat must act but has no legal action".into());
        }
    }
    Ok(())
}

/// One transition: no unit on the map regains a step; units leave and re-enter only by the
/// ways the rules have; the loss VP are exactly those of the Axis units removed by combat or
/// supply (15.0(2)).
fn check_transition(g: &StalingradBlitz, a: &Snap, b: &Snap, rail_box_choice: bool) -> Result<(), String> {
    let d = g.data();
    let mut vp = 0u16;
    for u in 0..a.locs.len() {
        let def = &d.units[u];
        let (la, lb, ra, rb) = (a.locs[u], b.locs[u], a.reduced[u], b.reduced[u]);
        let name = &def.id;
        let on = |l: Loc| matches!(l, Loc::Map(_));
        if lb == la && ra != rb && !on(la) && la != Loc::Arriving {
            return Err(format!("{name} changed sides off the map at {la:?}"));
        }
        if on(la) && on(lb) && ra && !rb {
            return Err(format!("{name} regained a step on the map"));
        }
        if matches!(la, Loc::Eliminated | Loc::Withdrawn) && lb != la {
            return Err(format!("{name} came back from {la:?} to {lb:?}"));
        }
        if !on(la) && la != Loc::Arriving && (on(lb) || lb == Loc::Arriving) {
            match la {
                Loc::RailBox if rb != ra => return Err(format!("{name} left the rail box on another side (12.4)")),
                Loc::Pool | Loc::Track if rb => return Err(format!("{name} re-entered from {la:?} reduced (12.1(3))")),
                Loc::RailBox | Loc::Pool | Loc::Track => {}
                other => return Err(format!("{name} re-entered from {other:?}")),
            }
        }
        if la == Loc::Arriving && on(lb) && ra != rb {
            return Err(format!("{name} changed sides while being placed"));
        }
        if on(la) && !on(lb) {
            match (def.side, def.is_hq(), lb) {
                (_, _, Loc::Arriving) => return Err(format!("{name} went from the map to the arrivals")),
                (Side::Soviet, true, Loc::Track) | (Side::Soviet, false, Loc::Pool) => {}
                (Side::Axis, _, Loc::Withdrawn) if !def.is_hq() => {}
                (Side::Axis, false, Loc::Eliminated) => vp += loss_vp(d, u as u16),
                (Side::Axis, true, Loc::RailBox) if !rail_box_choice => vp += loss_vp(d, u as u16),
                (Side::Axis, _, Loc::RailBox) if rail_box_choice => {}
                (side, hq, to) => return Err(format!("{name} ({side:?}, hq {hq}) left the map for {to:?}")),
            }
        }
    }
    if b.loss_vp != a.loss_vp + vp {
        return Err(format!(
            "loss VP went from {} to {}; the removals account for {vp}",
            a.loss_vp, b.loss_vp
        ));
    }
    Ok(())
}

/// A played game: each step is a seat's action or chance (`None`), with the checksum after it.
struct Trace {
    steps: Vec<Option<(u8, Action)>>,
    sums: Vec<u64>,
}

/// Random legal play to the end, checking every transition.
fn play_checked(g: &mut StalingradBlitz, seed: u64, max: usize) -> Result<Trace, String> {
    let mut rng = Rng::from_seed(seed ^ 0x5eed);
    let mut trace = Trace {
        steps: Vec::new(),
        sums: Vec::new(),
    };
    let mut l = Vec::new();
    check_position(g)?;
    for _ in 0..max {
        let before = snap(g);
        let rail_box_choice;
        match g.pending() {
            Pending::Over => {
                let o = g.outcome().ok_or("over without an outcome")?;
                if o.winner.is_none() {
                    return Err("the game ended without a winner".into());
                }
                return Ok(trace);
            }
            Pending::Chance => {
                rail_box_choice = false;
                g.resolve_chance();
                trace.steps.push(None);
            }
            Pending::Seat(seat) => {
                g.legal_actions(&mut l);
                let a = choose(g, &mut rng, &l);
                rail_box_choice =
                    matches!(a, Action::Choose { .. }) && matches!(step(g), Some(Step::Supply(SupplyStage::RailBox)));
                g.apply(seat, &a)
                    .map_err(|r| format!("legal action {a:?} refused: {r}"))?;
                trace.steps.push(Some((seat, a)));
            }
        }
        trace.sums.push(g.checksum());
        let after = snap(g);
        check_position(g).map_err(|e| {
            format!(
                "after step {}: {e}\n{}",
                trace.steps.len(),
                g.summary(None, sandtable_core::text::Lang::En)
            )
        })?;
        check_transition(g, &before, &after, rail_box_choice)
            .map_err(|e| format!("after step {} ({:?}): {e}", trace.steps.len(), trace.steps.last()))?;
    }
    Err(format!(
        "no end after {max} steps: {}",
        g.summary(None, sandtable_core::text::Lang::En)
    ))
}

/// Plays a trace again on a fresh game: every checksum must match.
fn replay(g: &mut StalingradBlitz, t: &Trace) -> Result<(), String> {
    for (i, (s, sum)) in t.steps.iter().zip(&t.sums).enumerate() {
        match s {
            None => {
                if g.pending() != Pending::Chance {
                    return Err(format!("step {i}: chance expected"));
                }
                g.resolve_chance();
            }
            Some((seat, a)) => {
                g.apply(*seat, a)
                    .map_err(|r| format!("step {i}: {a:?} refused on replay: {r}"))?;
            }
        }
        if g.checksum() != *sum {
            return Err(format!("step {i}: checksum differs on replay"));
        }
    }
    Ok(())
}

fn small_position(pos: usize, turn: u8, seed: u64) -> StalingradBlitz {
    let (units, tail) = POSITIONS[pos];
    game_on(small_data(), turn, "", units, tail, seed)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_play_on_the_small_map_keeps_the_rules(seed in any::<u64>(), pos in 0..POSITIONS.len(), turn in 1u8..=9) {
        let mut g = small_position(pos, turn, seed);
        let t = play_checked(&mut g, seed, 30_000).map_err(TestCaseError::fail)?;
        prop_assert_eq!(g.pending(), Pending::Over);
        // The same seed and the same actions: the same checksums, step by step.
        let mut h = small_position(pos, turn, seed);
        replay(&mut h, &t).map_err(TestCaseError::fail)?;
        prop_assert_eq!(h.checksum(), g.checksum());
    }
}

#[test]
fn a_whole_game_from_turn_one_keeps_the_rules() {
    for (pos, seed) in [(0usize, 1u64), (1, 2), (2, 3), (3, 4), (3, 5), (1, 6)] {
        let mut g = small_position(pos, 1, seed);
        if let Err(e) = play_checked(&mut g, seed, 100_000) {
            panic!("position {pos}, seed {seed}: {e}");
        }
        assert_eq!(g.pending(), Pending::Over);
        assert!(g.state().turn == 9 || g.state().winner == Some(Side::Axis));
    }
}

#[test]
fn the_campaign_plays_by_the_same_rules() {
    // A whole campaign game (about a thousand decisions, a few seconds).
    let Ok(mut g) = StalingradBlitz::new_game("campaign", 5) else {
        return;
    };
    let t = play_checked(&mut g, 5, 100_000).unwrap_or_else(|e| panic!("campaign: {e}"));
    assert_eq!(g.pending(), Pending::Over);
    let mut h = StalingradBlitz::new_game("campaign", 5).unwrap();
    replay(&mut h, &t).unwrap_or_else(|e| panic!("campaign replay: {e}"));
}

/// Random play through a `Session`, then a replay of its record (and of the record as JSON).
fn session_round_trip(source: ScenarioSource, seed: u64, steps: usize) {
    let Ok(mut s) = Session::<StalingradBlitz>::new(source, seed) else {
        return;
    };
    let mut rng = Rng::from_seed(seed);
    let mut l = Vec::new();
    for _ in 0..steps {
        let Pending::Seat(seat) = s.game.pending() else { break };
        s.game.legal_actions(&mut l);
        let a = l[rng.below(l.len() as u32) as usize];
        s.act(seat, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    }
    let again = Session::<StalingradBlitz>::replay(s.record.clone()).unwrap_or_else(|e| panic!("replay: {e}"));
    assert_eq!(again.game.checksum(), s.game.checksum());
    let json = serde_json::to_string(&s.record).unwrap();
    let loaded = Session::<StalingradBlitz>::from_json(&json).unwrap_or_else(|e| panic!("from_json: {e}"));
    assert_eq!(loaded.game.checksum(), s.game.checksum());
    assert_eq!(loaded.record, s.record);
}

#[test]
fn a_session_record_replays_to_the_same_checksum() {
    session_round_trip(ScenarioSource::Shipped("campaign".into()), 9, 250);
    // A player-written scenario on the embedded map, if these hexes exist on it.
    session_round_trip(ScenarioSource::Text(scenario(2, SKIRMISH)), 4, 400);
}

#[test]
fn the_transition_checks_can_fail() {
    // The checks above are only worth something if they reject what they should.
    let g = small_position(0, 2, 1);
    let a = snap(&g);
    let i = unit(&g, "ger-inf-88") as usize;
    // A unit on the map that regains a step.
    let mut r = a.clone();
    r.reduced[i] = true;
    assert!(check_transition(&g, &r, &a, false).is_err());
    // An Axis division removed without its loss VP, and with them.
    let mut b = a.clone();
    b.locs[i] = Loc::Eliminated;
    assert!(check_transition(&g, &a, &b, false).is_err());
    b.loss_vp += 1;
    assert!(check_transition(&g, &a, &b, false).is_ok());
    // A German unit back from the eliminated, or sent to the pool.
    assert!(check_transition(&g, &b, &a, false).is_err());
    let mut p = a.clone();
    p.locs[i] = Loc::Pool;
    assert!(check_transition(&g, &a, &p, false).is_err());
    // Overstacking at rest, and both sides in one hex.
    let here = g.state().units[i].loc;
    let (j, k, s) = (
        unit(&g, "ger-inf-377") as usize,
        unit(&g, "ger-pz-9") as usize,
        unit(&g, "sov-rifle-45") as usize,
    );
    let mut h = small_position(0, 2, 1);
    h.edit().state.units[j].loc = here;
    h.edit().state.units[k].loc = here;
    assert!(check_position(&h).is_err());
    let mut h = small_position(0, 2, 1);
    h.edit().state.units[s].loc = here;
    assert!(check_position(&h).is_err());
}

#[test]
#[ignore = "soak test: many random games (STALINGRAD_SOAK campaigns and games per small position, default 50); run with --ignored"]
fn soak_random_games() {
    let n: u64 = std::env::var("STALINGRAD_SOAK")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let mut failures = Vec::new();
    for seed in 0..n {
        if let Ok(mut g) = StalingradBlitz::new_game("campaign", seed) {
            if let Err(e) = play_checked(&mut g, seed, 200_000) {
                failures.push(format!("campaign, seed {seed}: {e}"));
            }
        }
        for pos in 0..POSITIONS.len() {
            let turn = 1 + (seed % 9) as u8;
            let mut g = small_position(pos, turn, seed);
            if let Err(e) = play_checked(&mut g, seed, 100_000) {
                failures.push(format!("position {pos}, turn {turn}, seed {seed}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

//! Fixed-seed random campaign games, pinned: the number of decisions, every legal list offered,
//! the state after every decision, the final checksum and the log. Work on the engine's speed
//! must not change any of them. The same play also checks that `apply` accepts exactly the
//! actions of the legal list, on actions near the legal ones.

mod common;
use common::*;
use sandtable_core::chance::Rng;
use sandtable_core::game::{checksum_of, Game, Pending};
use sandtable_core::hex::Hex;
use sandtable_stalingrad_blitz::state::UnitList;
use sandtable_stalingrad_blitz::{Action, StalingradBlitz};

/// What a game left behind.
#[derive(Debug, PartialEq, Eq)]
struct Trace {
    decisions: usize,
    /// FNV over the checksum of every legal list offered.
    legal: u64,
    /// FNV over the state checksum after every decision.
    states: u64,
    /// The final state checksum.
    last: u64,
    /// The checksum of the log's English text (0 when the log is off).
    log: u64,
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x100_0000_01b3)
}

/// Actions close to `a`: another unit, a neighbouring hex, a unit more or less.
fn near(g: &StalingradBlitz, a: &Action) -> Vec<Action> {
    let grid = &g.d.map.grid;
    let hexes = |h: Hex| -> Vec<Hex> { grid.neighbours(h).map(|(_, n)| n).collect() };
    let units = |u: u16| -> Vec<u16> { vec![u.wrapping_sub(1), u + 1, 0] };
    let mut out = Vec::new();
    match *a {
        Action::Pick { chit } => out.extend([chit + 1, chit.wrapping_sub(1)].map(|c| Action::Pick { chit: c })),
        Action::First { chit } => out.push(Action::First {
            chit: chit.map(|c| c + 1),
        }),
        Action::Choose { unit } => out.extend(units(unit).into_iter().map(|u| Action::Choose { unit: u })),
        Action::Move { unit, to, march } => {
            out.push(Action::Move {
                unit,
                to,
                march: !march,
            });
            out.extend(hexes(to).into_iter().map(|h| Action::Move { unit, to: h, march }));
            out.extend(units(unit).into_iter().map(|u| Action::Move { unit: u, to, march }));
        }
        Action::Declare { target, units: list } => {
            let s = list.as_slice();
            for i in 0..s.len() {
                let mut fewer = s.to_vec();
                fewer.remove(i);
                out.push(Action::Declare {
                    target,
                    units: UnitList::from_slice(&fewer),
                });
                let mut reversed = s.to_vec();
                reversed.reverse();
                out.push(Action::Declare {
                    target,
                    units: UnitList::from_slice(&reversed),
                });
            }
            for u in units(s[0]) {
                let mut more = s.to_vec();
                more.push(u);
                out.push(Action::Declare {
                    target,
                    units: UnitList::from_slice(&more),
                });
            }
            out.extend(
                hexes(target)
                    .into_iter()
                    .map(|h| Action::Declare { target: h, units: list }),
            );
        }
        Action::Undeclare { target } | Action::Resolve { target } => {
            out.extend(hexes(target).into_iter().map(|h| Action::Resolve { target: h }));
            out.extend(hexes(target).into_iter().map(|h| Action::Undeclare { target: h }));
        }
        Action::Lose { unit } => out.extend(units(unit).into_iter().map(|u| Action::Lose { unit: u })),
        Action::Retreat { unit, to } => out.extend(hexes(to).into_iter().map(|h| Action::Retreat { unit, to: h })),
        Action::Advance { unit, to } => out.extend(hexes(to).into_iter().map(|h| Action::Advance { unit, to: h })),
        Action::Place { unit, at } => {
            out.extend(hexes(at).into_iter().map(|h| Action::Place { unit, at: h }));
            out.extend(units(unit).into_iter().map(|u| Action::Place { unit: u, at }));
        }
        Action::Fortify { hex } => out.extend(hexes(hex).into_iter().map(|h| Action::Fortify { hex: h })),
        _ => {}
    }
    out.extend([
        Action::EndMovement,
        Action::EndDeclare,
        Action::EndChoose,
        Action::EndAdvance,
        Action::NoExtra,
        Action::NoFortress,
        Action::Convert { yes: true },
    ]);
    out
}

fn play(seed: u64, log: bool, probe: usize) -> Trace {
    let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
    g.set_journal(log);
    let mut rng = Rng::from_seed(seed);
    let mut legal = Vec::new();
    let mut t = Trace {
        decisions: 0,
        legal: 0xcbf2_9ce4_8422_2325,
        states: 0xcbf2_9ce4_8422_2325,
        last: 0,
        log: 0,
    };
    loop {
        match g.pending() {
            Pending::Over => break,
            Pending::Chance => g.resolve_chance(),
            Pending::Seat(seat) => {
                g.legal_actions(&mut legal);
                t.legal = mix(t.legal, checksum_of(&legal));
                let a = legal[rng.below(legal.len() as u32) as usize];
                if t.decisions < probe {
                    for b in near(&g, &a) {
                        let mut h = g.clone();
                        h.set_journal(false);
                        let ok = h.apply(seat, &b).is_ok();
                        assert_eq!(
                            ok,
                            legal.contains(&b),
                            "seed {seed}: apply({b:?}) at decision {}",
                            t.decisions
                        );
                        let other = 1 - seat;
                        assert!(g.clone().apply(other, &a).is_err(), "the other seat may not act");
                    }
                }
                g.apply(seat, &a).expect("a legal action");
                t.decisions += 1;
                t.states = mix(t.states, g.checksum());
            }
        }
    }
    t.last = g.checksum();
    if log {
        let text: Vec<String> = g.journal(None).into_iter().map(|l| l.text.en).collect();
        t.log = checksum_of(&text);
    }
    t
}

#[test]
fn fixed_seed_campaign_games_are_unchanged() {
    let got: Vec<Trace> = [(1, true), (2, false), (3, false)]
        .into_iter()
        .map(|(seed, log)| play(seed, log, 400))
        .collect();
    for t in &got {
        println!("{t:?}");
    }
    let want = [
        Trace {
            decisions: 512,
            legal: 16989785240366502935,
            states: 3114964698509957447,
            last: 11256262594331895474,
            log: 11376379117034111433,
        },
        Trace {
            decisions: 681,
            legal: 10363538389025866841,
            states: 1628716386711780266,
            last: 10624408063341335735,
            log: 0,
        },
        Trace {
            decisions: 517,
            legal: 703461661620276544,
            states: 231068370565837746,
            last: 14494456038812077186,
            log: 0,
        },
    ];
    assert_eq!(got, want);
}

#[test]
fn small_map_games_are_unchanged() {
    let mut sums = Vec::new();
    for seed in 0..10 {
        let mut g = small_game(1, SKIRMISH, seed);
        let n = random_play(&mut g, seed, 200_000);
        sums.push((n, g.checksum()));
    }
    println!("{sums:?}");
    assert_eq!(
        sums,
        vec![
            (264, 4733911392722888588),
            (225, 18274942682610114010),
            (280, 6254559038719000185),
            (227, 4367586868094521120),
            (224, 625282878141096246),
            (223, 955532232790020608),
            (189, 17955511804248856817),
            (291, 7898638952830086051),
            (231, 9746769172396503257),
            (230, 1211916879730267235),
        ]
    );
}

/// The LOC and rail-entry traces kept between decisions are those a new trace gives, at
/// every decision of random games, for both sides.
#[test]
fn kept_traces_are_fresh_traces() {
    use sandtable_core::search::Search;
    use sandtable_stalingrad_blitz::rules::Board;
    use sandtable_stalingrad_blitz::Side;
    let mut search = Search::new();
    for seed in [4, 5] {
        let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
        g.set_journal(false);
        let mut rng = Rng::from_seed(seed);
        let mut legal = Vec::new();
        loop {
            let b = Board::new(&g.d, &g.s);
            for side in [Side::Axis, Side::Soviet] {
                assert_eq!(b.loc_reach(side, &mut search), b.trace_loc(side, &mut search));
                assert_eq!(b.rail_entry(side, &mut search), b.trace_rail(side, &mut search));
            }
            match g.pending() {
                Pending::Over => break,
                Pending::Chance => g.resolve_chance(),
                Pending::Seat(seat) => {
                    g.legal_actions(&mut legal);
                    let a = legal[rng.below(legal.len() as u32) as usize];
                    g.apply(seat, &a).expect("a legal action");
                }
            }
        }
    }
}

//! Random play under the core's fuzz harness: no dead end, the legal list and the rules'
//! checks agreeing on actions near the ones taken (another unit, a neighbouring hex, a unit
//! more or less), no seat acting out of turn, replay deterministic; and the traces kept
//! between decisions always those a fresh trace gives.

mod common;
use common::*;
use sandtable_core::chance::Rng;
use sandtable_core::fuzz::Fuzz;
use sandtable_core::game::{Game, Pending, Rules};
use sandtable_core::hex::Hex;
use sandtable_stalingrad_blitz::state::UnitList;
use sandtable_stalingrad_blitz::{Action, StalingradBlitz};

/// Actions close to `a`: another unit, a neighbouring hex, a unit more or less.
fn near(g: &StalingradBlitz, a: &Action) -> Vec<Action> {
    let grid = &g.data().map.grid;
    let hexes = |h: Hex| -> Vec<Hex> { grid.neighbours(h).map(|(_, n)| n).collect() };
    let units = |u: u16| -> Vec<u16> { vec![u.wrapping_sub(1), u + 1, 0] };
    let mut out = Vec::new();
    match *a {
        Action::Pick { chit } => out.extend([chit + 1, chit.wrapping_sub(1)].map(|c| Action::Pick { chit: c })),
        Action::First { chit } => out.push(Action::First {
            chit: chit.map(|c| c + 1),
        }),
        Action::Choose { unit } => out.extend(units(unit).into_iter().map(|u| Action::Choose { unit: u })),
        Action::Move { unit, to, march, via } => {
            out.push(Action::Move {
                unit,
                to,
                march: !march,
                via,
            });
            out.extend(hexes(to).into_iter().map(|h| Action::Move {
                unit,
                to: h,
                march,
                via,
            }));
            out.extend(units(unit).into_iter().map(|u| Action::Move {
                unit: u,
                to,
                march,
                via,
            }));
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

#[test]
fn campaign_games_keep_list_and_checks_in_agreement() {
    let fuzz = Fuzz {
        make: &|seed| StalingradBlitz::new_game("campaign", seed).expect("the campaign loads"),
        max_decisions: 100_000,
        near: &near,
        probe: 300,
        invariant: &|_| Ok(()),
    };
    let played = fuzz.run(1..4).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played.finished, 3, "every campaign ends");
}

#[test]
fn small_map_games_keep_list_and_checks_in_agreement() {
    let fuzz = Fuzz {
        make: &|seed| small_game(1, SKIRMISH, seed),
        max_decisions: 100_000,
        near: &near,
        probe: 100_000,
        invariant: &|_| Ok(()),
    };
    let played = fuzz.run(0..10).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played.finished, 10);
    assert!(played.chance > 100, "chits drawn and dice rolled: {played:?}");
}

/// The layout, LOC and rail-entry traces kept between decisions are those worked out anew, at
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
            let b = Board::new(g.data(), g.state());
            assert!(*b == *Board::fresh(g.data(), g.state()), "the kept layout is stale");
            for side in [Side::Axis, Side::Soviet] {
                assert_eq!(*b.loc_reach(side, &mut search), b.trace_loc(side, &mut search));
                assert_eq!(*b.rail_entry(side, &mut search), b.trace_rail(side, &mut search));
            }
            match g.pending() {
                Pending::Over => break,
                Pending::Chance => {
                    g.resolve_chance();
                }
                Pending::Seat(seat) => {
                    g.legal_actions(&mut legal);
                    let a = legal[rng.below(legal.len() as u32) as usize];
                    g.apply(seat, &a).expect("a legal action");
                }
            }
        }
    }
}

//! Speed of the rules engine on the campaign: random-play decisions per second, one movement
//! search on the full map, and one whole random game. Results are reported in the README.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use sandtable_core::chance::Rng;
use sandtable_core::game::{play_randomly, Game, Rules};
use sandtable_core::search::Search;
use sandtable_stalingrad_blitz::rules::Board;
use sandtable_stalingrad_blitz::StalingradBlitz;
use std::time::{Duration, Instant};

/// Plays random legal actions; returns the number of seat decisions.
fn random_game(g: &mut StalingradBlitz, rng: &mut Rng, max: u64) -> u64 {
    play_randomly(g, rng, max).expect("random legal play never dead-ends")
}

fn new_game(seed: u64) -> StalingradBlitz {
    let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
    g.set_journal(false);
    g
}

fn bench(c: &mut Criterion) {
    // Decisions per second: 1,000 decisions of random play from the campaign start. A random
    // campaign game lasts some 500 to 700 decisions, so play goes on in fresh games (made
    // outside the timing) until exactly 1,000 decisions have been made.
    let mut group = c.benchmark_group("random-play");
    group.throughput(Throughput::Elements(1000));
    group.bench_function("1000 decisions", |b| {
        let mut seed = 0;
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut games: Vec<(StalingradBlitz, Rng)> = (0..4)
                    .map(|_| {
                        seed += 1;
                        (new_game(seed), Rng::from_seed(seed))
                    })
                    .collect();
                let start = Instant::now();
                let mut n = 0;
                for (g, rng) in &mut games {
                    n += random_game(g, rng, 1000 - n);
                    if n == 1000 {
                        break;
                    }
                }
                total += start.elapsed();
                assert_eq!(n, 1000, "four games make 1,000 decisions");
            }
            total
        })
    });
    group.finish();

    // One movement search: a panzer division's reachable hexes on the full map.
    let g = new_game(1);
    let unit = (0..g.data().units.len())
        .find(|&i| g.data().units[i].id.starts_with("ger-pz") && g.state().units[i].hex().is_some())
        .expect("a panzer division on the map") as u16;
    let mut search = Search::new();
    c.bench_function("movement search (one unit)", |b| {
        b.iter(|| {
            let board = Board::new(g.data(), g.state());
            board.movement(unit, false, &mut search);
            search.reached().count()
        })
    });
    c.bench_function("Axis line of communication (whole map)", |b| {
        b.iter(|| {
            let board = Board::new(g.data(), g.state());
            board
                .trace_loc(sandtable_stalingrad_blitz::Side::Axis, &mut search)
                .len()
        })
    });

    // One whole random game.
    let mut group = c.benchmark_group("whole-game");
    group.sample_size(10);
    group.bench_function("random game", |b| {
        let mut seed = 100;
        b.iter_batched(
            || {
                seed += 1;
                (new_game(seed), Rng::from_seed(seed))
            },
            |(mut g, mut rng)| random_game(&mut g, &mut rng, u64::MAX),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Speed of the rules engine: random-play decisions per second from the start of The Goose Egg
//! (7.4), one movement reach of a mechanized unit on the full map of the campaign (7.1), the
//! layout of the campaign's start position with its ZOC Bonds, and one whole random game of The
//! Goose Egg. Results are reported in the README.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use sandtable_ardennes_ii::rules::{Board, Layout};
use sandtable_ardennes_ii::sequence::Side;
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::chance::Rng;
use sandtable_core::game::{play_randomly, Game, Rules};
use sandtable_core::search::Search;
use std::time::{Duration, Instant};

/// Plays random legal actions; returns the number of seat decisions.
fn random_game(g: &mut ArdennesII, rng: &mut Rng, max: u64) -> u64 {
    play_randomly(g, rng, max).expect("random legal play never dead-ends")
}

fn new_game(scenario: &str, seed: u64) -> ArdennesII {
    let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
    g.set_journal(false);
    g
}

fn bench(c: &mut Criterion) {
    // Decisions per second: 1,000 decisions of random play from the start of The Goose Egg.
    // A random game of it lasts some 500 to 1,000 decisions, so play goes on in fresh games
    // (made outside the timing) until exactly 1,000 decisions have been made.
    let mut group = c.benchmark_group("random-play");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1000));
    group.bench_function("1000 decisions (goose-egg)", |b| {
        let mut seed = 0;
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut games: Vec<(ArdennesII, Rng)> = (0..6)
                    .map(|_| {
                        seed += 1;
                        (new_game("goose-egg", seed), Rng::from_seed(seed))
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
                assert_eq!(n, 1000, "six games make 1,000 decisions");
            }
            total
        })
    });
    group.finish();

    // One movement reach: every hex a German mechanized unit can reach at the campaign start,
    // on both map sheets — the unit that reaches farthest. The position's layout (stacks, ZOC
    // Bonds) is kept in the state's memo, as in play, and timed apart below.
    let g = new_game("campaign", 1);
    let mut search = Search::new();
    let reach = |u: u16, search: &mut Search| {
        Board::new(g.world(), g.state()).reach(u, search);
        search.reached().count()
    };
    let unit = (0..g.state().units.len() as u16)
        .filter(|&u| {
            let def = &g.world().data.counters.units[u as usize];
            def.side == Side::German
                && def.is_mech()
                && !def.is_artillery()
                && g.state().units[u as usize].hex().is_some()
        })
        .max_by_key(|&u| reach(u, &mut search))
        .expect("a German mechanized unit on the map");
    c.bench_function("movement reach (one mechanized unit, campaign)", |b| {
        b.iter(|| reach(unit, &mut search))
    });
    // The layout of a position: who stands where and the ZOC Bonds of both sides (1.2), worked
    // out when units have moved.
    c.bench_function("layout and ZOC Bonds (campaign start)", |b| {
        b.iter(|| Layout::build(g.world(), g.state()))
    });

    // One whole random game of The Goose Egg.
    let mut group = c.benchmark_group("whole-game");
    group.sample_size(10);
    group.bench_function("random game (goose-egg)", |b| {
        let mut seed = 100;
        b.iter_batched(
            || {
                seed += 1;
                (new_game("goose-egg", seed), Rng::from_seed(seed))
            },
            |(mut g, mut rng)| random_game(&mut g, &mut rng, u64::MAX),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

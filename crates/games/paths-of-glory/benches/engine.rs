//! Speed of the rules engine on the campaign: random-play decisions per second (a decision is one
//! seat's choice: a card use, a space activated, a move, a unit joining an attack, a loss step, a
//! redeployment, a purchase) and one whole random Introductory game. Results are in the README.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sandtable_core::chance::Rng;
use sandtable_core::game::{play_randomly, Game, Rules};
use sandtable_paths_of_glory::game::PathsOfGlory;
use std::time::{Duration, Instant};

fn new_game(scenario: &str, seed: u64) -> PathsOfGlory {
    let mut g = PathsOfGlory::new_game(scenario, seed).expect("the scenario loads");
    g.set_journal(false);
    g
}

fn bench(c: &mut Criterion) {
    // 1,000 decisions of random play from the campaign's start, in fresh games made outside the
    // timing as one ends.
    let mut group = c.benchmark_group("random-play");
    group.throughput(Throughput::Elements(1000));
    group.sample_size(10);
    group.bench_function("1000 decisions", |b| {
        let mut seed = 0;
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut n = 0;
                while n < 1000 {
                    seed += 1;
                    let mut g = new_game("campaign", seed);
                    let mut rng = Rng::from_seed(seed);
                    let start = Instant::now();
                    n += play_randomly(&mut g, &mut rng, 1000 - n).expect("random legal play never dead-ends");
                    total += start.elapsed();
                }
            }
            total
        })
    });
    group.finish();

    let mut group = c.benchmark_group("whole-game");
    group.sample_size(10);
    group.bench_function("introductory", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            let mut g = new_game("introductory", seed);
            let mut rng = Rng::from_seed(seed);
            play_randomly(&mut g, &mut rng, u64::MAX).expect("random legal play never dead-ends")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

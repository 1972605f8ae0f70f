//! Scripted against random on both sides: `cargo run --release -p sandtable-ai --example versus -- 20`.
use sandtable_ai::stalingrad::Scripted;
use sandtable_core::chance::Rng;
use sandtable_core::game::{play_out, Agent, Game, RandomAgent};
use sandtable_stalingrad_blitz::StalingradBlitz;

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    for scripted_seat in [0u8, 1] {
        let mut wins = 0;
        let mut decisions = 0;
        let t = std::time::Instant::now();
        for seed in 0..n {
            let mut g = StalingradBlitz::new_game("campaign", seed).unwrap();
            g.set_journal(false);
            let mut agents: Vec<Box<dyn Agent<StalingradBlitz>>> = if scripted_seat == 0 {
                vec![Box::new(Scripted::new()), Box::new(RandomAgent)]
            } else {
                vec![Box::new(RandomAgent), Box::new(Scripted::new())]
            };
            let mut rng = Rng::from_seed(seed ^ 0xabc);
            decisions += play_out(&mut g, &mut agents, &mut rng, 5_000_000).unwrap();
            let o = g.outcome().unwrap();
            if o.winner == Some(scripted_seat) {
                wins += 1;
            }
            if std::env::var("VERBOSE").is_ok() {
                println!("seed {seed}: {} vp {} loss {}", o.text.en, g.s.vp, g.s.loss_vp);
            }
        }
        println!(
            "scripted as seat {scripted_seat}: {wins}/{n} wins, {} decisions/game, {:.1}s",
            decisions / n,
            t.elapsed().as_secs_f64()
        );
    }
}

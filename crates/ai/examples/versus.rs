//! Scripted against random on both sides: `cargo run --release -p sandtable-ai --example versus -- 20`
//! plays seeds 0..20 (a second number gives the first seed); `SEAT=0` or `SEAT=1` plays one side
//! only, `VERBOSE=1` prints each game's VP at every turn end.
use sandtable_ai::stalingrad::Scripted;
use sandtable_core::chance::Rng;
use sandtable_core::game::{play_out, Agent, Game, RandomAgent, Rules};
use sandtable_stalingrad_blitz::StalingradBlitz;

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let first: u64 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let seats: Vec<u8> = match std::env::var("SEAT").ok().as_deref() {
        Some("0") => vec![0],
        Some("1") => vec![1],
        _ => vec![0, 1],
    };
    for scripted_seat in seats {
        let mut wins = 0;
        let mut decisions = 0;
        let t = std::time::Instant::now();
        for seed in first..first + n {
            let mut g = StalingradBlitz::new_game("campaign", seed).unwrap();
            g.set_journal(std::env::var("VERBOSE").is_ok());
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
                let vps: Vec<String> = g
                    .journal(None)
                    .iter()
                    .filter(|l| l.heading && l.text.en.starts_with("End of turn"))
                    .map(|l| {
                        l.text
                            .en
                            .split("has ")
                            .nth(1)
                            .unwrap_or("")
                            .split(' ')
                            .next()
                            .unwrap_or("")
                            .to_string()
                    })
                    .collect();
                println!(
                    "seed {seed}: winner {:?} loss {} VP by turn {}",
                    o.winner,
                    g.state().loss_vp,
                    vps.join(" ")
                );
            }
        }
        println!(
            "scripted as seat {scripted_seat}: {wins}/{n} wins, {} decisions/game, {:.1}s",
            decisions / n,
            t.elapsed().as_secs_f64()
        );
    }
}

//! Load benchmark: many games played at once against `sandtable serve` on loopback, reporting
//! the round-trip latency of an action (POST to answer, including the rules check, the
//! SQLite transaction with its fsync, and the new game document) as percentiles.
//!
//! ```sh
//! cargo run --release -p sandtable-server --example load -- [GAMES] [ACTIONS_PER_GAME] [THINK_MS]
//! ```
//!
//! Each game is a hotseat game of Stalingrad Blitz played by one client with random legal
//! actions, waiting THINK_MS (default 0) between actions as a player would; all games run
//! concurrently. Like the browser page, a client asks only for the log lines it lacks. The server runs in this process on its own runtime,
//! with its database in a fresh temporary folder.

use serde_json::{json, Value};
use std::time::{Duration, Instant};

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let per_game: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let think = Duration::from_millis(args.next().and_then(|a| a.parse().ok()).unwrap_or(0));

    let dir = std::env::temp_dir().join(format!("sandtable-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let hub = sandtable_server::open(&dir).expect("a data folder");
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let served = sandtable_server::serve(hub, "127.0.0.1:0".parse().expect("an address"), |bound| {
            let _ = tx.send(bound);
        });
        if let Err(e) = served.await {
            eprintln!("server: {e}");
        }
    });
    let addr = rx.await.expect("the server starts");
    let base = format!("http://{addr}");
    let client = reqwest::Client::new();

    let started = Instant::now();
    let mut tasks = Vec::new();
    for g in 0..games {
        let (client, base) = (client.clone(), base.clone());
        tasks.push(tokio::spawn(async move {
            play(&client, &base, g as u64, per_game, think).await
        }));
    }
    let mut latencies: Vec<Duration> = Vec::new();
    for t in tasks {
        latencies.extend(t.await.expect("a client task"));
    }
    let wall = started.elapsed();
    latencies.sort();
    let pct = |p: f64| {
        let i = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        latencies.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{games} concurrent games, {} ms between a game's actions: {} actions in {:.1} s ({:.0} actions/s)",
        think.as_millis(),
        latencies.len(),
        wall.as_secs_f64(),
        latencies.len() as f64 / wall.as_secs_f64()
    );
    println!(
        "action round trip: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(0.50),
        pct(0.90),
        pct(0.99),
        pct(1.0)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Creates one hotseat game and plays `n` random legal actions; the latency of each.
async fn play(client: &reqwest::Client, base: &str, seed: u64, n: usize, think: Duration) -> Vec<Duration> {
    let created: Value = client
        .post(format!("{base}/api/games"))
        .json(&json!({"game": "stalingrad-blitz", "seed": seed}))
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("JSON");
    let id = created["id"].as_str().expect("an id").to_string();
    let tokens = [
        created["tokens"]["axis"].as_str().expect("axis").to_string(),
        created["tokens"]["soviet"].as_str().expect("soviet").to_string(),
    ];
    let mut pick = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut out = Vec::with_capacity(n);
    let mut seat = 1usize;
    let mut doc: Value = client
        .get(format!("{base}/api/games/{id}"))
        .bearer_auth(&tokens[seat])
        .send()
        .await
        .expect("state")
        .json()
        .await
        .expect("JSON");
    for _ in 0..n {
        tokio::time::sleep(think).await;
        let journal = doc["journal_total"].as_u64().unwrap_or(0);
        // The document answered to the last action is the acting seat's: if the other seat
        // decides now, look with its token (not timed: a page does this on an update).
        let pending = doc["pending"]["seat"].as_u64();
        let Some(next) = pending else { break };
        if next as usize != seat {
            seat = next as usize;
            doc = client
                .get(format!("{base}/api/games/{id}?journal_from={journal}"))
                .bearer_auth(&tokens[seat])
                .send()
                .await
                .expect("state")
                .json()
                .await
                .expect("JSON");
        }
        let legal = doc["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            break;
        }
        pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let action = legal[(pick >> 33) as usize % legal.len()]["action"].clone();
        let t = Instant::now();
        let res = client
            .post(format!("{base}/api/games/{id}/actions?journal_from={journal}"))
            .bearer_auth(&tokens[seat])
            .json(&json!({"action": action}))
            .send()
            .await
            .expect("act");
        let status = res.status();
        doc = res.json().await.expect("JSON");
        out.push(t.elapsed());
        assert!(status.is_success(), "{status}: {doc}");
    }
    out
}

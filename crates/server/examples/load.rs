//! Load benchmark: many games played at once against `sandtable serve` on loopback, reporting
//! the round-trip latency of an action (POST to answer, including the rules check, the
//! SQLite transaction with its fsync, and the new game document) as percentiles, and the bytes
//! a page receives per action.
//!
//! ```sh
//! cargo run --release -p sandtable-server --example load -- [GAMES] [ACTIONS_PER_GAME] [THINK_MS] [GAME] [SCENARIO]
//! ```
//!
//! Each game is a hotseat game (GAME defaults to stalingrad-blitz, SCENARIO to the game's
//! first; `ardennes-ii campaign` plays the largest position) played by one client with random
//! legal actions, waiting THINK_MS (default 0) between actions as a player would; all games
//! run concurrently, their first actions spread over the first THINK_MS (as players who sat
//! down at different moments, not all acting in the same instant every time). The client asks for what the browser page asks for: gzip, the map once
//! per game (`map.svg`, which the browser then keeps), the game in the page form with only the
//! log lines it lacks (the pieces of the board come in it), actions by their place in the list,
//! and the game again with the other seat's token when the decision passes to it. Where the
//! list comes packed (an Ardennes II campaign's movement phase), the client picks an entry, and
//! when it is a counter's pack fetches its moves (`GET …/legal?pack=N`) as the page does when its
//! player clicks the counter; those fetches are timed apart. Like the page it asks for the
//! board's pieces as what changed since the version it has of that seat's view. Bytes are
//! counted as they cross the wire (gzip) and unpacked. The server runs in this process on its
//! own runtime, with its database in a fresh temporary folder.

use serde::Deserialize;
use serde_json::{json, Value};
use std::io::Read;
use std::time::{Duration, Instant};

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let per_game: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let think = Duration::from_millis(args.next().and_then(|a| a.parse().ok()).unwrap_or(0));
    let game = args.next().unwrap_or_else(|| "stalingrad-blitz".to_string());
    let scenario = args.next();

    let dir = std::env::temp_dir().join(format!("sandtable-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // One client creates every game here: no creation limit.
    let limits = sandtable_server::hub::Limits {
        games_per_client: usize::MAX,
        ..Default::default()
    };
    let hub = sandtable_server::open_with(&dir, limits).expect("a data folder");
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
        let (game, scenario) = (game.clone(), scenario.clone());
        tasks.push(tokio::spawn(async move {
            let mut c = Client {
                http: client,
                base,
                stats: Stats::default(),
            };
            // Players who sat down at different moments: game `g` of `games` first waits `g /
            // games` of the time between actions, so that the actions of all the games come
            // spread over each second, not all at once.
            let offset = think.mul_f64(g as f64 / games as f64);
            c.play(&game, scenario.as_deref(), g as u64, per_game, think, offset)
                .await;
            c.stats
        }));
    }
    let mut all = Stats::default();
    for t in tasks {
        all.add(t.await.expect("a client task"));
    }
    let wall = started.elapsed();
    let mut latencies = all.latencies.clone();
    latencies.sort();
    let pct = |p: f64| percentile(&latencies, p);
    let n = latencies.len().max(1) as f64;
    println!(
        "{game} {}: {games} concurrent games, {} ms between a game's actions: {} actions in {:.1} s ({:.0} actions/s)",
        scenario.as_deref().unwrap_or("(first scenario)"),
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
    println!(
        "bytes per action, gzip (unpacked): answer {:.0} ({:.0}), the page's fetches per version {:.0} ({:.0}), total {:.0} ({:.0})",
        all.answer.wire as f64 / n,
        all.answer.plain as f64 / n,
        all.follow.wire as f64 / n,
        all.follow.plain as f64 / n,
        (all.answer.wire + all.follow.wire) as f64 / n,
        (all.answer.plain + all.follow.plain) as f64 / n,
    );
    if !all.pack_latencies.is_empty() {
        let mut packs = all.pack_latencies.clone();
        packs.sort();
        println!(
            "a counter's pack of moves, {} fetched: p50 {:.2} ms, p99 {:.2} ms; {:.0} bytes gzip ({:.0} unpacked) each",
            packs.len(),
            percentile(&packs, 0.5),
            percentile(&packs, 0.99),
            all.packs.wire as f64 / packs.len() as f64,
            all.packs.plain as f64 / packs.len() as f64,
        );
    }
    println!(
        "once per game and language: {:.0} bytes gzip ({:.0} unpacked)",
        all.once.wire as f64 / games.max(1) as f64,
        all.once.plain as f64 / games.max(1) as f64
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `p` percentile (0 to 1) of sorted round trips, in ms.
fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// What the client reads of a game document (the rest is parsed and passed over).
#[derive(Deserialize)]
struct Doc {
    version: u64,
    pending: Pending,
    legal: Vec<Entry>,
    journal_total: u64,
}

/// An entry of the page form's legal list: an action (its place `i` given where the list is
/// packed) or a pack of one counter's moves.
#[derive(Deserialize)]
struct Entry {
    i: Option<usize>,
    pack: Option<usize>,
}

/// The actions of one pack (`GET …/legal`).
#[derive(Deserialize)]
struct Part {
    legal: Vec<Entry>,
}

#[derive(Deserialize)]
struct Pending {
    seat: Option<u64>,
}

/// Bytes received: as sent (gzip) and unpacked.
#[derive(Default, Clone, Copy)]
struct Bytes {
    wire: u64,
    plain: u64,
}

impl Bytes {
    fn add(&mut self, o: Bytes) {
        self.wire += o.wire;
        self.plain += o.plain;
    }
}

#[derive(Default)]
struct Stats {
    latencies: Vec<Duration>,
    /// The round trips of the fetches of a counter's pack of moves.
    pack_latencies: Vec<Duration>,
    /// The packs fetched.
    packs: Bytes,
    /// The answers to the actions.
    answer: Bytes,
    /// What the page fetches after an action's answer: the game as the next seat.
    follow: Bytes,
    /// What the page fetches once per game (the map).
    once: Bytes,
}

impl Stats {
    fn add(&mut self, o: Stats) {
        self.latencies.extend(o.latencies);
        self.pack_latencies.extend(o.pack_latencies);
        self.packs.add(o.packs);
        self.answer.add(o.answer);
        self.follow.add(o.follow);
        self.once.add(o.once);
    }
}

struct Client {
    http: reqwest::Client,
    base: String,
    stats: Stats,
}

/// A body read as the browser reads it: gzip on the wire, unpacked.
async fn read(res: reqwest::Response) -> (reqwest::StatusCode, Vec<u8>, Bytes) {
    let status = res.status();
    let zipped = res
        .headers()
        .get("content-encoding")
        .is_some_and(|v| v.as_bytes() == b"gzip");
    let wire = res.bytes().await.expect("a body");
    let plain = if zipped {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&wire[..])
            .read_to_end(&mut out)
            .expect("gzip");
        out
    } else {
        wire.to_vec()
    };
    let bytes = Bytes {
        wire: wire.len() as u64,
        plain: plain.len() as u64,
    };
    (status, plain, bytes)
}

impl Client {
    fn get(&self, path: &str, token: Option<&str>) -> reqwest::RequestBuilder {
        let req = self
            .http
            .get(format!("{}{path}", self.base))
            .header("accept-encoding", "gzip");
        match token {
            Some(t) => req.bearer_auth(t),
            None => req,
        }
    }

    async fn get_json<T: serde::de::DeserializeOwned>(&self, path: &str, token: &str) -> (T, Bytes) {
        let (status, body, bytes) = read(self.get(path, Some(token)).send().await.expect("state")).await;
        assert!(status.is_success(), "{status}");
        (serde_json::from_slice(&body).expect("JSON"), bytes)
    }

    /// The map, which the page fetches once per game and language and the browser keeps.
    async fn map(&mut self, id: &str) {
        let (status, _, bytes) = read(
            self.get(&format!("/api/games/{id}/map.svg?lang=en"), None)
                .send()
                .await
                .expect("map"),
        )
        .await;
        assert!(status.is_success(), "{status}");
        self.stats.once.add(bytes);
    }

    /// Creates one hotseat game and plays `n` random legal actions.
    async fn play(
        &mut self,
        game: &str,
        scenario: Option<&str>,
        seed: u64,
        n: usize,
        think: Duration,
        offset: Duration,
    ) {
        let mut req = json!({"game": game, "seed": seed, "hotseat": true});
        if let Some(s) = scenario {
            req["scenario"] = json!(s);
        }
        let created: Value = self
            .http
            .post(format!("{}/api/games", self.base))
            .json(&req)
            .send()
            .await
            .expect("create")
            .json()
            .await
            .expect("JSON");
        let id = created["id"].as_str().expect("an id").to_string();
        let (first, _): (Value, _) = self.get_json(&format!("/api/games/{id}?page=en"), "").await;
        let tokens: Vec<String> = first["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| {
                let seat = s["id"].as_str().expect("a seat id");
                created["tokens"][seat].as_str().expect("a token").to_string()
            })
            .collect();
        let mut pick = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut seat = first["pending"]["seat"].as_u64().unwrap_or(0) as usize;
        let mut doc: Doc = self
            .get_json(&format!("/api/games/{id}?page=en"), &tokens[seat])
            .await
            .0;
        self.map(&id).await;
        // The version of the pieces layer the page has of each seat's view: it asks for the
        // next layer as what changed since (`pieces_from`), as the page does.
        let mut pieces: Vec<Option<u64>> = vec![None; tokens.len()];
        pieces[seat] = Some(doc.version);
        let from =
            |pieces: &[Option<u64>], seat: usize| pieces[seat].map_or(String::new(), |v| format!("&pieces_from={v}"));
        tokio::time::sleep(offset).await;
        for _ in 0..n {
            tokio::time::sleep(think).await;
            let journal = doc.journal_total;
            // The document answered to the last action is the acting seat's: if the other seat
            // decides now, the page looks with its token (not timed).
            let Some(next) = doc.pending.seat else {
                break;
            };
            if next as usize != seat {
                seat = next as usize;
                let (d, bytes) = self
                    .get_json(
                        &format!("/api/games/{id}?page=en&journal_from={journal}{}", from(&pieces, seat)),
                        &tokens[seat],
                    )
                    .await;
                doc = d;
                pieces[seat] = Some(doc.version);
                self.stats.follow.add(bytes);
            }
            let legal = doc.legal.len();
            if legal == 0 {
                break;
            }
            pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let at = (pick >> 33) as usize % legal;
            let index = match doc.legal[at] {
                Entry { pack: Some(pack), .. } => {
                    let t = Instant::now();
                    let (part, bytes): (Part, _) = self
                        .get_json(
                            &format!("/api/games/{id}/legal?page=en&version={}&pack={pack}", doc.version),
                            &tokens[seat],
                        )
                        .await;
                    self.stats.pack_latencies.push(t.elapsed());
                    self.stats.packs.add(bytes);
                    pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let Some(one) = part.legal.get((pick >> 33) as usize % part.legal.len().max(1)) else {
                        break;
                    };
                    one.i.expect("a pack's action says its place")
                }
                Entry { i, .. } => i.unwrap_or(at),
            };
            let t = Instant::now();
            let res = self
                .http
                .post(format!(
                    "{}/api/games/{id}/actions?page=en&journal_from={journal}{}",
                    self.base,
                    from(&pieces, seat)
                ))
                .header("accept-encoding", "gzip")
                .bearer_auth(&tokens[seat])
                .json(&json!({"index": index, "version": doc.version}))
                .send()
                .await
                .expect("act");
            let (status, body, bytes) = read(res).await;
            self.stats.latencies.push(t.elapsed());
            self.stats.answer.add(bytes);
            assert!(status.is_success(), "{status}: {}", String::from_utf8_lossy(&body));
            doc = serde_json::from_slice(&body).expect("JSON");
            pieces[seat] = Some(doc.version);
        }
    }
}

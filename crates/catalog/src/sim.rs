//! Many games played by computer agents, as fast as the machine allows: how balanced a
//! scenario is, how long its games run, and — like a fuzzer — whether any seed leads the
//! rules into a dead end.
//!
//! Game `k` of a simulation uses the game seed `seed + k` and an agent generator derived from
//! that seed ([`agent_seed`]), so one game can be replayed alone. Games are handed out to the
//! threads one at a time in game order; every total is an integer sum, so the outcome counts
//! and the mean length are the same whatever the number of threads. Only the speed varies.

use crate::error::{refusal_text, CatalogError};
use sandtable_core::chance::Rng;
use sandtable_core::game::{play_out, Agent, Game, Pending};
use sandtable_core::record::ScenarioSource;
use sandtable_core::text::Text;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What to simulate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimSpec {
    pub scenario: ScenarioSource,
    /// How many games.
    pub games: u64,
    /// Game `k` uses the seed `seed + k` (wrapping).
    pub seed: u64,
    /// The agent of each seat, in seat order.
    pub agents: [String; 2],
    /// Worker threads (0 is taken as 1).
    pub threads: usize,
    /// A game still running after this many seat decisions is stopped and counted as
    /// unfinished.
    pub max_decisions: u64,
}

/// What a simulation found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimReport {
    pub games: u64,
    /// Games won, by seat id (every seat is listed, with 0 if it never won).
    pub wins: BTreeMap<String, u64>,
    pub draws: u64,
    /// Games stopped at the decision limit.
    pub unfinished: u64,
    /// Seat decisions per game, over all games.
    pub mean_decisions: f64,
    /// All seat decisions over the wall-clock time.
    pub decisions_per_second: f64,
    /// Wall-clock time.
    pub seconds: f64,
}

/// The seed of the agents' generator in the game with seed `game_seed`: a splitmix64 step, so
/// it is unrelated to the game's own stream but fixed by it. The command line's `play` uses it
/// too.
pub fn agent_seed(game_seed: u64) -> u64 {
    let mut z = game_seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The tally of some games.
#[derive(Default)]
struct Tally {
    wins: Vec<u64>,
    draws: u64,
    unfinished: u64,
    decisions: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        if self.wins.len() < other.wins.len() {
            self.wins.resize(other.wins.len(), 0);
        }
        for (a, b) in self.wins.iter_mut().zip(&other.wins) {
            *a += b;
        }
        self.draws += other.draws;
        self.unfinished += other.unfinished;
        self.decisions += other.decisions;
    }
}

/// Runs a simulation of game `G`. `progress` is called with the number of games finished so
/// far, from the worker threads.
pub(crate) fn run<G: Game>(
    spec: &SimSpec,
    make_agent: fn(&str) -> Option<Box<dyn Agent<G>>>,
    agent_names: &[&str],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimReport, CatalogError> {
    let seats = G::seats();
    if seats.len() != spec.agents.len() {
        return Err(CatalogError::Other(Text::new(
            format!(
                "{} has {} seats but {} agents were given",
                G::ID,
                seats.len(),
                spec.agents.len()
            ),
            format!(
                "{} 有 {} 个座位,却给了 {} 个电脑玩家",
                G::ID,
                seats.len(),
                spec.agents.len()
            ),
        )));
    }
    for name in &spec.agents {
        if make_agent(name).is_none() {
            return Err(CatalogError::UnknownAgent {
                game: G::ID.into(),
                found: name.clone(),
                known: agent_names.iter().map(|s| s.to_string()).collect(),
            });
        }
    }
    // Check the scenario once, so a bad one is one clear error rather than one per game.
    new_game::<G>(&spec.scenario, spec.seed).map_err(|e| {
        CatalogError::Other(Text::new(
            format!("cannot set up the game: {e}"),
            format!("无法布置游戏:{e}"),
        ))
    })?;

    let threads = spec.threads.max(1).min(spec.games.max(1) as usize);
    let next = AtomicU64::new(0);
    let finished = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let first_error: Mutex<Option<(u64, Text)>> = Mutex::new(None);
    let start = Instant::now();

    let worker = || {
        let mut tally = Tally {
            wins: vec![0; seats.len()],
            ..Tally::default()
        };
        // Games are claimed in order, so every game before a failing one has been claimed
        // and is played to its end: the error reported is the first in game order.
        while !stop.load(Ordering::Relaxed) {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= spec.games {
                break;
            }
            match play_one::<G>(spec, k, make_agent) {
                Ok((result, decisions)) => {
                    tally.decisions += decisions;
                    match result {
                        GameResult::Won(seat) => tally.wins[seat] += 1,
                        GameResult::Drawn => tally.draws += 1,
                        GameResult::Unfinished => tally.unfinished += 1,
                    }
                }
                Err(why) => {
                    let mut first = first_error.lock().unwrap_or_else(|p| p.into_inner());
                    if first.as_ref().is_none_or(|(j, _)| k < *j) {
                        *first = Some((k, why));
                    }
                    stop.store(true, Ordering::Relaxed);
                }
            }
            progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
        }
        tally
    };

    let mut total = Tally {
        wins: vec![0; seats.len()],
        ..Tally::default()
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
        for h in handles {
            // A worker never panics: each game runs under `catch_unwind`.
            if let Ok(t) = h.join() {
                total.add(&t);
            }
        }
    });
    let seconds = start.elapsed().as_secs_f64();

    if let Some((k, why)) = first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(CatalogError::SimGame {
            index: k,
            seed: spec.seed.wrapping_add(k),
            why,
        });
    }
    Ok(SimReport {
        games: spec.games,
        wins: seats
            .iter()
            .zip(&total.wins)
            .map(|(s, &n)| (s.id.to_string(), n))
            .collect(),
        draws: total.draws,
        unfinished: total.unfinished,
        mean_decisions: if spec.games == 0 {
            0.0
        } else {
            total.decisions as f64 / spec.games as f64
        },
        decisions_per_second: if seconds > 0.0 {
            total.decisions as f64 / seconds
        } else {
            0.0
        },
        seconds,
    })
}

/// How one game ended.
enum GameResult {
    Won(usize),
    Drawn,
    Unfinished,
}

fn new_game<G: Game>(scenario: &ScenarioSource, seed: u64) -> Result<G, String> {
    match scenario {
        ScenarioSource::Shipped(id) => G::new_game(id, seed),
        ScenarioSource::Text(text) => G::from_scenario_text(text, seed),
    }
    .map_err(|e| e.0)
}

/// Plays game `k` of the simulation; the error says why it could not be finished.
fn play_one<G: Game>(
    spec: &SimSpec,
    k: u64,
    make_agent: fn(&str) -> Option<Box<dyn Agent<G>>>,
) -> Result<(GameResult, u64), Text> {
    let seed = spec.seed.wrapping_add(k);
    let run = || -> Result<(GameResult, u64), Text> {
        let mut game = new_game::<G>(&spec.scenario, seed)
            .map_err(|e| Text::new(format!("cannot set up the game: {e}"), format!("无法布置游戏:{e}")))?;
        game.set_journal(false);
        let mut agents: Vec<Box<dyn Agent<G>>> = Vec::with_capacity(spec.agents.len());
        for name in &spec.agents {
            // Checked before the games start.
            agents.extend(make_agent(name));
        }
        let mut rng = Rng::from_seed(agent_seed(seed));
        let decisions = play_out(&mut game, &mut agents, &mut rng, spec.max_decisions).map_err(|r| refusal_text(&r))?;
        let result = match game.pending() {
            Pending::Over => match game.outcome().and_then(|o| o.winner) {
                Some(seat) if (seat as usize) < spec.agents.len() => GameResult::Won(seat as usize),
                Some(seat) => {
                    return Err(Text::new(
                        format!("the outcome names seat {seat}, which the game does not have"),
                        format!("结局指明的座位 {seat} 并不存在"),
                    ))
                }
                None => GameResult::Drawn,
            },
            _ => GameResult::Unfinished,
        };
        Ok((result, decisions))
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(r) => r,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(Text::new(
                format!("the rules code panicked (a bug): {what}"),
                format!("规则代码崩溃(程序错误):{what}"),
            ))
        }
    }
}

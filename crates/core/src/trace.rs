//! Golden traces: games played once and kept, decision by decision, so that a later build can
//! replay the same decisions and show that it offers the same legal actions, rolls the same
//! dice and writes the same log.
//!
//! A trace is a file of JSON lines: a [`Head`] (game, scenario, seed, the agents that chose),
//! then one [`Step`] per seat decision, then an [`End`]. A step holds the action taken, a hash
//! of the legal list it was taken from (as a set: the order of the list is not compared), every
//! number the game's generator gave from that action until the next decision (`[n, r]` for
//! each draw of `r` in `0..n`: a die, a chit from a cup) and a hash of the log lines both seats
//! read that it added.
//!
//! The engine may change its insides freely; a rule change that alters a trace is recorded
//! again, and the commit that does so says why.

use crate::chance::{tap, Rng};
use crate::game::{Agent, Game, Pending, Seat};
use serde::{Deserialize, Serialize};

/// What a trace is of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    pub game: String,
    pub scenario: String,
    pub seed: u64,
    /// The agents that chose, in seat order (`random`, `scripted`), with their generator's seed.
    pub agents: Vec<String>,
    pub agent_seed: u64,
    /// The trace stops after this many decisions.
    pub max_decisions: u64,
}

/// One seat decision and what followed it; or, with no seat, what happened before the first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<serde_json::Value>,
    /// The legal list the action was chosen from: its length and a hash of it as a set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal: Option<(usize, String)>,
    /// Every `[n, r]` the game's generator gave until the next decision.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chance: Vec<[u32; 2]>,
    /// A hash of the log lines both seats read that were added until the next decision.
    pub log: String,
}

/// How the trace ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct End {
    pub decisions: u64,
    pub over: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Seat>,
    /// A hash of the whole log each seat reads at the end, in seat order.
    pub logs: Vec<String>,
}

/// One line of a trace file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Line {
    Head(Head),
    Step(Step),
    End(End),
}

fn fnv(h: u64, bytes: &[u8]) -> u64 {
    let mut h = h;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

const FNV0: u64 = 0xcbf2_9ce4_8422_2325;

/// A hash of a legal list as a set of actions.
pub fn legal_hash<G: Game>(legal: &[G::Action]) -> String {
    let mut forms: Vec<String> = legal
        .iter()
        .map(|a| serde_json::to_string(a).unwrap_or_default())
        .collect();
    forms.sort_unstable();
    let mut h = FNV0;
    for f in &forms {
        h = fnv(h, f.as_bytes());
        h = fnv(h, b"\n");
    }
    format!("{h:016x}")
}

/// Reads the log as each seat sees it and hashes the lines added since the last call.
struct LogReader {
    seen: Vec<usize>,
}

impl LogReader {
    fn new(seats: usize) -> LogReader {
        LogReader { seen: vec![0; seats] }
    }

    fn added<G: Game>(&mut self, game: &G) -> String {
        let mut h = FNV0;
        for (seat, seen) in self.seen.iter_mut().enumerate() {
            let lines = game.journal(Some(seat as Seat));
            for l in lines.iter().skip(*seen) {
                h = fnv(h, if l.heading { b"#" } else { b"-" });
                h = fnv(h, l.text.en.as_bytes());
                h = fnv(h, l.text.zh.as_bytes());
                h = fnv(h, b"\n");
            }
            h = fnv(h, b"|");
            *seen = lines.len();
        }
        format!("{h:016x}")
    }

    fn whole<G: Game>(game: &G, seats: usize) -> Vec<String> {
        (0..seats)
            .map(|seat| {
                let mut h = FNV0;
                for l in game.journal(Some(seat as Seat)) {
                    h = fnv(h, if l.heading { b"#" } else { b"-" });
                    h = fnv(h, l.text.en.as_bytes());
                    h = fnv(h, l.text.zh.as_bytes());
                    h = fnv(h, b"\n");
                }
                format!("{h:016x}")
            })
            .collect()
    }
}

/// Runs chance until a seat must decide or the game is over.
fn run_chance<G: Game>(game: &mut G) {
    while game.pending() == Pending::Chance {
        game.resolve_chance();
    }
}

/// Plays a game with `agents` and keeps its trace.
pub fn record<G: Game>(head: Head, agents: &mut [Box<dyn Agent<G>>]) -> Result<Vec<Line>, String> {
    let seats = G::seats().len();
    tap::start();
    let mut game = G::new_game(&head.scenario, head.seed).map_err(|e| e.0)?;
    game.set_journal(true);
    let mut log = LogReader::new(seats);
    run_chance(&mut game);
    let mut lines = vec![
        Line::Head(head.clone()),
        Line::Step(Step {
            seat: None,
            action: None,
            legal: None,
            chance: tap::take(),
            log: log.added(&game),
        }),
    ];
    let mut rng = Rng::from_seed(head.agent_seed);
    let mut legal = Vec::new();
    let mut decisions = 0;
    while decisions < head.max_decisions {
        let Pending::Seat(seat) = game.pending() else { break };
        game.legal_actions(&mut legal);
        if legal.is_empty() {
            tap::stop();
            return Err(format!("dead end at decision {decisions}"));
        }
        let i = agents[seat as usize].choose(&game.seat_view(seat), seat, &legal, &mut rng);
        let action = legal[i.min(legal.len() - 1)].clone();
        // What the agents drew is theirs, not the game's.
        tap::take();
        game.apply(seat, &action)
            .map_err(|r| format!("decision {decisions}: {r}"))?;
        run_chance(&mut game);
        lines.push(Line::Step(Step {
            seat: Some(seat),
            action: Some(serde_json::to_value(&action).map_err(|e| e.to_string())?),
            legal: Some((legal.len(), legal_hash::<G>(&legal))),
            chance: tap::take(),
            log: log.added(&game),
        }));
        decisions += 1;
    }
    tap::stop();
    let over = game.pending() == Pending::Over;
    lines.push(Line::End(End {
        decisions,
        over,
        winner: game.outcome().and_then(|o| o.winner),
        logs: LogReader::whole(&game, seats),
    }));
    Ok(lines)
}

/// The trace as JSON lines.
pub fn to_text(lines: &[Line]) -> String {
    let mut s = String::new();
    for l in lines {
        s.push_str(&serde_json::to_string(l).unwrap_or_default());
        s.push('\n');
    }
    s
}

/// Reads a trace from JSON lines.
pub fn from_text(text: &str) -> Result<Vec<Line>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// Replays a trace on this build: the same actions, compared step by step. Returns the first
/// difference, said in words.
pub fn replay<G: Game>(lines: &[Line]) -> Result<(), String> {
    let Some(Line::Head(head)) = lines.first() else {
        return Err("a trace begins with its head".into());
    };
    let seats = G::seats().len();
    tap::start();
    let result = (|| {
        let mut game = G::new_game(&head.scenario, head.seed).map_err(|e| e.0)?;
        game.set_journal(true);
        let mut log = LogReader::new(seats);
        run_chance(&mut game);
        let mut legal = Vec::new();
        let mut decisions = 0u64;
        for (n, line) in lines.iter().enumerate().skip(1) {
            let at = |what: String| {
                format!(
                    "{} {} seed {}, line {}: {what}",
                    head.game,
                    head.scenario,
                    head.seed,
                    n + 1
                )
            };
            match line {
                Line::Head(_) => return Err(at("a second head".into())),
                Line::Step(want) if want.seat.is_none() => {
                    let got = Step {
                        seat: None,
                        action: None,
                        legal: None,
                        chance: tap::take(),
                        log: log.added(&game),
                    };
                    if got != *want {
                        return Err(at(format!("the opening differs:\n want {want:?}\n  got {got:?}")));
                    }
                }
                Line::Step(want) => {
                    let seat = want.seat.unwrap_or_default();
                    if game.pending() != Pending::Seat(seat) {
                        return Err(at(format!(
                            "seat {seat} should decide; pending is {:?}",
                            game.pending()
                        )));
                    }
                    game.legal_actions(&mut legal);
                    let got_legal = (legal.len(), legal_hash::<G>(&legal));
                    let action_json = want.action.clone().unwrap_or(serde_json::Value::Null);
                    let action: G::Action = serde_json::from_value(action_json.clone())
                        .map_err(|e| at(format!("the action {action_json} no longer reads: {e}")))?;
                    if want.legal.as_ref() != Some(&got_legal) {
                        let listed = legal.contains(&action);
                        return Err(at(format!(
                            "the legal list differs: want {:?}, got {got_legal:?} (the traced action {action_json} is {}listed)",
                            want.legal,
                            if listed { "" } else { "not " }
                        )));
                    }
                    tap::take();
                    game.apply(seat, &action)
                        .map_err(|r| at(format!("{action_json} refused: {r}")))?;
                    run_chance(&mut game);
                    let chance = tap::take();
                    if chance != want.chance {
                        return Err(at(format!(
                            "after {action_json} the generator gave {chance:?}, not {:?}",
                            want.chance
                        )));
                    }
                    let got_log = log.added(&game);
                    if got_log != want.log {
                        let recent: Vec<String> = game
                            .journal(Some(seat))
                            .iter()
                            .rev()
                            .take(6)
                            .map(|l| l.text.en.clone())
                            .collect();
                        return Err(at(format!(
                            "after {action_json} the log differs; its last lines now: {recent:#?}"
                        )));
                    }
                    decisions += 1;
                }
                Line::End(want) => {
                    let got = End {
                        decisions,
                        over: game.pending() == Pending::Over,
                        winner: game.outcome().and_then(|o| o.winner),
                        logs: LogReader::whole(&game, seats),
                    };
                    if got != *want {
                        return Err(at(format!("the end differs:\n want {want:?}\n  got {got:?}")));
                    }
                    return Ok(());
                }
            }
        }
        Err("the trace has no end line".into())
    })();
    tap::stop();
    result
}

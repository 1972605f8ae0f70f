//! The list of Sandtable's rule systems, with their types erased.
//!
//! Each rule system is its own Rust type (`StalingradBlitz: Game`), but the command line and
//! the server pick a game by its id at run time: from an argument, from the `game` field of a
//! save file, from a web request. This crate is the one place that knows every game: it turns
//! each into a [`GameEntry`] — its seats, scenarios and agents as plain data, plus the few
//! operations that need the game's type (start a session, load a save, ask an agent for a
//! move, run a simulation), compiled once per game by the generic [`entry`]. Adding a game
//! is one line in [`games`].

mod error;
mod sim;

pub use error::{record_error_text, refusal_text, CatalogError};
pub use sim::{agent_seed, SimReport, SimSpec};

use sandtable_ai::stalingrad::Scripted;
use sandtable_ai::RandomAgent;
use sandtable_ardennes_ii::ArdennesII;
use sandtable_core::chance::Rng;
use sandtable_core::game::{Agent, Game, Pending, ScenarioInfo, Seat, SeatInfo};
use sandtable_core::record::{DynSession, ScenarioSource, Session};
use sandtable_core::text::Text;
use sandtable_paths_of_glory::game::PathsOfGlory;
use sandtable_stalingrad_blitz::StalingradBlitz;
use serde::Serialize;
use std::sync::Arc;

/// Every rule system this build knows, in the order they are listed to players.
pub fn games() -> Vec<GameEntry> {
    BUILDS.iter().map(|(_, build)| build()).collect()
}

/// Builds one game's entry.
type Build = fn() -> GameEntry;

/// Each game's id with the function that builds its entry. Building an entry reads the game's
/// data (Ardennes II's map and counters, say), so [`find`] builds only the game asked for.
const BUILDS: [(&str, Build); 3] = [
    (<StalingradBlitz as sandtable_core::driver::Rules>::ID, stalingrad_blitz),
    (<ArdennesII as sandtable_core::driver::Rules>::ID, ardennes_ii),
    (<PathsOfGlory as sandtable_core::driver::Rules>::ID, paths_of_glory),
];

fn stalingrad_blitz() -> GameEntry {
    entry::<StalingradBlitz>(sandtable_ai::AGENTS, |name| match name {
        "random" => Some(Box::new(RandomAgent)),
        "scripted" => Some(Box::new(Scripted::default())),
        _ => None,
    })
}

fn ardennes_ii() -> GameEntry {
    entry::<ArdennesII>(sandtable_ai::AGENTS, |name| match name {
        "random" => Some(Box::new(RandomAgent)),
        "scripted" => Some(Box::new(sandtable_ai::ardennes::Scripted::new())),
        _ => None,
    })
}

/// Paths of Glory: computer players see only their own hand (the core's seat view).
fn paths_of_glory() -> GameEntry {
    entry::<PathsOfGlory>(sandtable_ai::AGENTS, |name| match name {
        "random" => Some(Box::new(RandomAgent)),
        "scripted" => Some(Box::new(sandtable_ai::glory::Scripted)),
        _ => None,
    })
}

/// The game with this id; the error lists the known ids. Only that game's entry is built.
pub fn find(id: &str) -> Result<GameEntry, CatalogError> {
    match BUILDS.iter().find(|(known, _)| *known == id) {
        Some((_, build)) => Ok(build()),
        None => Err(CatalogError::UnknownGame {
            found: id.to_string(),
            known: BUILDS.iter().map(|(known, _)| known.to_string()).collect(),
        }),
    }
}

/// Opens a save file of any game: reads its `game` field, then replays it with that game's
/// rules, checking every step and checksum.
pub fn load_any(json: &str) -> Result<Box<dyn DynSession>, CatalogError> {
    #[derive(serde::Deserialize)]
    struct Head {
        game: String,
    }
    let head: Head = serde_json::from_str(json)
        .map_err(|e| CatalogError::Record(sandtable_core::record::RecordError::Parse(e.to_string())))?;
    find(&head.game)?.load(json)
}

/// One rule system: what a player chooses from, and the operations that need its type.
#[derive(Clone, Serialize)]
pub struct GameEntry {
    pub id: &'static str,
    pub title: Text,
    pub seats: Vec<SeatInfo>,
    pub scenarios: Vec<ScenarioInfo>,
    /// The computer players this game offers, by name (`random`, `scripted`).
    pub agents: &'static [&'static str],
    #[serde(skip)]
    ops: Arc<dyn Ops>,
}

impl std::fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameEntry")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// Builds the entry of game `G`. `agents` are the names `make_agent` knows.
pub fn entry<G: Game>(agents: &'static [&'static str], make_agent: fn(&str) -> Option<Box<dyn Agent<G>>>) -> GameEntry {
    GameEntry {
        id: G::ID,
        title: G::title(),
        seats: G::seats(),
        scenarios: G::scenarios(),
        agents,
        ops: Arc::new(Typed::<G> { agents, make_agent }),
    }
}

impl GameEntry {
    /// A new game: `Session::new` of this game, type-erased.
    pub fn new_session(&self, scenario: ScenarioSource, seed: u64) -> Result<Box<dyn DynSession>, CatalogError> {
        if let ScenarioSource::Shipped(id) = &scenario {
            self.scenario(Some(id))?;
        }
        self.ops.new_session(scenario, seed)
    }

    /// Opens a save file of this game (replaying and checking it).
    pub fn load(&self, json: &str) -> Result<Box<dyn DynSession>, CatalogError> {
        self.ops.load(json)
    }

    /// Computer player `agent` for one seat of one game. Keep it for the game's length: what it
    /// works out (a plan, the attacks it has tried) carries from one decision to the next.
    pub fn agent(&self, agent: &str) -> Result<Box<dyn DynAgent>, CatalogError> {
        self.ops.agent(agent)
    }

    /// Plays `spec.games` games between computer players. `progress` is told how many games
    /// have finished, from the worker threads.
    pub fn sim(&self, spec: &SimSpec, progress: &(dyn Fn(u64) + Sync)) -> Result<SimReport, CatalogError> {
        self.ops.sim(spec, progress)
    }

    /// A shipped scenario by id, or the first listed when `id` is `None`.
    pub fn scenario(&self, id: Option<&str>) -> Result<&ScenarioInfo, CatalogError> {
        let found = match id {
            Some(id) => self.scenarios.iter().find(|s| s.id == id),
            None => self.scenarios.first(),
        };
        found.ok_or_else(|| CatalogError::UnknownScenario {
            game: self.id.to_string(),
            found: id.unwrap_or("").to_string(),
            known: self.scenarios.iter().map(|s| s.id.clone()).collect(),
        })
    }

    /// A seat by its id (`axis`) or its number as the engine counts seats (`0`, `1`, …).
    pub fn seat(&self, name: &str) -> Result<Seat, CatalogError> {
        let name = name.trim();
        let by_id = self.seats.iter().position(|s| s.id.eq_ignore_ascii_case(name));
        let by_number = name.parse::<usize>().ok().filter(|&n| n < self.seats.len());
        by_id
            .or(by_number)
            .and_then(|n| Seat::try_from(n).ok())
            .ok_or_else(|| CatalogError::UnknownSeat {
                game: self.id.to_string(),
                found: name.to_string(),
                known: self
                    .seats
                    .iter()
                    .enumerate()
                    .map(|(i, s)| format!("{} ({i})", s.id))
                    .collect(),
            })
    }

    /// The id of a seat (`axis`), or its number if the game has no such seat.
    pub fn seat_id(&self, seat: Seat) -> String {
        self.seats
            .get(seat as usize)
            .map(|s| s.id.to_string())
            .unwrap_or_else(|| seat.to_string())
    }

    /// The name of a seat in both languages.
    pub fn seat_name(&self, seat: Seat) -> Text {
        self.seats
            .get(seat as usize)
            .map(|s| s.name.clone())
            .unwrap_or_else(|| Text::new(format!("seat {seat}"), format!("座位 {seat}")))
    }

    /// Whether `agent` is one of this game's computer players.
    pub fn has_agent(&self, agent: &str) -> bool {
        self.agents.contains(&agent)
    }
}

/// A computer player of one game, type-erased: it chooses for the seat that must decide.
pub trait DynAgent: Send {
    /// The choice for the seat that must decide in `session`: an index into
    /// `session.legal()`.
    fn choose(&mut self, session: &dyn DynSession, rng: &mut Rng) -> Result<usize, CatalogError>;
}

impl<G: Game> DynAgent for Box<dyn Agent<G>> {
    fn choose(&mut self, session: &dyn DynSession, rng: &mut Rng) -> Result<usize, CatalogError> {
        let session = session.as_any().downcast_ref::<Session<G>>().ok_or_else(|| {
            CatalogError::Other(Text::new(
                format!("this session is a game of {}, not {}", session.game_id(), G::ID),
                format!("此对局是 {} 而不是 {}", session.game_id(), G::ID),
            ))
        })?;
        let Pending::Seat(seat) = session.game.pending() else {
            return Err(CatalogError::Other(Text::new(
                "no seat has a decision to make now",
                "现在没有座位需要做决定",
            )));
        };
        let mut legal = Vec::new();
        session.game.legal_actions(&mut legal);
        if legal.is_empty() {
            return Err(CatalogError::Other(Text::new(
                format!("dead end: seat {seat} has no legal action"),
                format!("死局:座位 {seat} 没有合法行动"),
            )));
        }
        let i = Agent::choose(self.as_mut(), &session.game.seat_view(seat), seat, &legal, rng);
        Ok(i.min(legal.len() - 1))
    }
}

/// The operations of [`GameEntry`] that need the game's type.
trait Ops: Send + Sync {
    fn new_session(&self, scenario: ScenarioSource, seed: u64) -> Result<Box<dyn DynSession>, CatalogError>;
    fn load(&self, json: &str) -> Result<Box<dyn DynSession>, CatalogError>;
    fn agent(&self, agent: &str) -> Result<Box<dyn DynAgent>, CatalogError>;
    fn sim(&self, spec: &SimSpec, progress: &(dyn Fn(u64) + Sync)) -> Result<SimReport, CatalogError>;
}

/// [`Ops`] for game `G`, monomorphized once per game.
struct Typed<G: Game> {
    agents: &'static [&'static str],
    make_agent: fn(&str) -> Option<Box<dyn Agent<G>>>,
}

impl<G: Game> Typed<G> {
    fn make_agent(&self, name: &str) -> Result<Box<dyn Agent<G>>, CatalogError> {
        (self.make_agent)(name).ok_or_else(|| CatalogError::UnknownAgent {
            game: G::ID.to_string(),
            found: name.to_string(),
            known: self.agents.iter().map(|s| s.to_string()).collect(),
        })
    }
}

impl<G: Game> Ops for Typed<G> {
    fn new_session(&self, scenario: ScenarioSource, seed: u64) -> Result<Box<dyn DynSession>, CatalogError> {
        Ok(Box::new(Session::<G>::new(scenario, seed)?))
    }

    fn load(&self, json: &str) -> Result<Box<dyn DynSession>, CatalogError> {
        Ok(Box::new(Session::<G>::from_json(json)?))
    }

    fn agent(&self, agent: &str) -> Result<Box<dyn DynAgent>, CatalogError> {
        Ok(Box::new(self.make_agent(agent)?))
    }

    fn sim(&self, spec: &SimSpec, progress: &(dyn Fn(u64) + Sync)) -> Result<SimReport, CatalogError> {
        sim::run::<G>(spec, self.make_agent, self.agents, progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_found_by_its_id_and_unknown_ids_list_the_known() {
        for g in games() {
            let found = find(g.id).expect("every listed game is found");
            // The entry `find` builds alone is the one listed: the same id, seats and scenarios.
            assert_eq!(found.id, g.id);
            assert_eq!(serde_json::to_value(&found).ok(), serde_json::to_value(&g).ok());
            assert!(!g.seats.is_empty() && !g.scenarios.is_empty());
        }
        let err = find("no-such-game").unwrap_err();
        assert!(err.message(sandtable_core::text::Lang::En).contains("stalingrad-blitz"));
    }

    #[test]
    fn seats_by_id_or_number() {
        let g = find("stalingrad-blitz").unwrap();
        assert_eq!(g.seat("axis").unwrap(), 0);
        assert_eq!(g.seat("Soviet").unwrap(), 1);
        assert_eq!(g.seat("1").unwrap(), 1);
        assert!(g.seat("2").is_err());
        assert!(g.seat("allies").is_err());
    }

    #[test]
    fn load_any_refuses_garbage_with_a_clear_error() {
        assert!(matches!(load_any("not json"), Err(CatalogError::Record(_))));
        assert!(matches!(
            load_any(r#"{"game":"chess"}"#),
            Err(CatalogError::UnknownGame { .. })
        ));
    }

    #[test]
    fn sessions_and_agent_moves_through_the_erased_entry() {
        let g = find("stalingrad-blitz").unwrap();
        let session = g.new_session(ScenarioSource::Shipped("campaign".into()), 3).unwrap();
        let mut rng = Rng::from_seed(agent_seed(3));
        for name in g.agents {
            let mut agent = g.agent(name).unwrap();
            let i = agent.choose(session.as_ref(), &mut rng).unwrap();
            assert!(i < session.legal().len());
        }
        assert!(g.agent("genius").is_err());
        // An agent of one game refuses a session of another.
        let other = find("ardennes-ii").unwrap();
        let mut agent = other.agent("random").unwrap();
        assert!(agent.choose(session.as_ref(), &mut rng).is_err());
        let again = load_any(&session.to_json()).unwrap();
        assert_eq!(again.record(), session.record());
        assert!(matches!(
            g.new_session(ScenarioSource::Shipped("nope".into()), 3),
            Err(CatalogError::UnknownScenario { .. })
        ));
    }

    /// A toy game: ten decisions alternating between two seats; the winner is the seed's
    /// parity; seeds ending in 3 (mod 5) reach a dead end at the fifth decision.
    #[derive(Clone)]
    struct Toy {
        engine: sandtable_core::game::Engine<u8, u8>,
        seed: u64,
    }

    impl sandtable_core::game::Rules for Toy {
        type Action = u8;
        /// The decisions made so far.
        type Frame = u8;
        type View<'a> = &'a Toy;
        const ID: &'static str = "toy";
        fn engine(&self) -> &sandtable_core::game::Engine<u8, u8> {
            &self.engine
        }
        fn engine_mut(&mut self) -> &mut sandtable_core::game::Engine<u8, u8> {
            &mut self.engine
        }
        fn seat_view(&self, _: Seat) -> &Toy {
            self
        }
        fn sample(view: &&Toy, _: &mut Rng) -> Toy {
            (*view).clone()
        }
        fn who(&self, n: &u8) -> sandtable_core::game::Who {
            sandtable_core::game::Who::Seat(n % 2)
        }
        fn legal(&self, n: &u8, out: &mut Vec<u8>) {
            if !(self.seed % 5 == 3 && *n == 4) {
                out.extend([0, 1]);
            }
        }
        fn check(&self, _: &u8, a: &u8) -> Result<(), sandtable_core::game::Refusal> {
            if *a <= 1 {
                Ok(())
            } else {
                Err(sandtable_core::game::Refusal::new("1", Text::new("0 or 1", "0或1")))
            }
        }
        fn carry_out(&mut self, n: u8, _: Option<&u8>) {
            if n + 1 < 10 {
                self.engine.push(n + 1);
            }
        }
        fn hash_state(&self, _: &mut sandtable_core::checksum::StateHasher) {}
        fn title() -> Text {
            Text::new("Toy", "玩具")
        }
        fn seats() -> Vec<SeatInfo> {
            vec![
                SeatInfo {
                    id: "odd",
                    name: Text::new("Odd", "奇"),
                },
                SeatInfo {
                    id: "even",
                    name: Text::new("Even", "偶"),
                },
            ]
        }
        fn scenarios() -> Vec<ScenarioInfo> {
            vec![]
        }
        fn setup(_: &str, seed: u64) -> Result<Self, sandtable_core::game::SetupError> {
            Ok(Toy {
                engine: sandtable_core::game::Engine::new(seed, vec![0]),
                seed,
            })
        }
        fn setup_from_text(text: &str, seed: u64) -> Result<Self, sandtable_core::game::SetupError> {
            Toy::setup(text, seed)
        }
        fn outcome(&self) -> Option<sandtable_core::game::Outcome> {
            self.engine.top().is_none().then(|| sandtable_core::game::Outcome {
                winner: Some((self.seed % 2) as Seat),
                text: Text::default(),
            })
        }
        fn describe(&self, a: &u8) -> Text {
            Text::new(a.to_string(), a.to_string())
        }
        fn notation(&self, a: &u8) -> String {
            a.to_string()
        }
        fn view(&self, _: Option<Seat>) -> serde_json::Value {
            serde_json::Value::Null
        }
        fn summary(&self, _: Option<Seat>, _: sandtable_core::text::Lang) -> String {
            String::new()
        }
        fn journal(&self, _: Option<Seat>) -> Vec<sandtable_core::game::JournalLine> {
            Vec::new()
        }
        fn set_journal(&mut self, _: bool) {}
        fn render_svg(&self, _: Option<Seat>, _: sandtable_core::text::Lang) -> String {
            String::new()
        }
    }

    fn toy() -> GameEntry {
        entry::<Toy>(&["random"], |name| match name {
            "random" => Some(Box::new(RandomAgent)),
            _ => None,
        })
    }

    fn spec(seed: u64, games: u64, threads: usize) -> SimSpec {
        SimSpec {
            scenario: ScenarioSource::Text(String::new()),
            games,
            seed,
            agents: ["random".into(), "random".into()],
            threads,
            max_decisions: 1000,
        }
    }

    #[test]
    fn sim_totals_do_not_depend_on_the_thread_count() {
        // Seeds 10, 11, 12: no dead end (10 % 5 = 0, 11 % 5 = 1, 12 % 5 = 2).
        let calls = std::sync::atomic::AtomicU64::new(0);
        let progress = |_: u64| {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        let one = toy().sim(&spec(10, 3, 1), &progress).unwrap();
        let three = toy().sim(&spec(10, 3, 3), &progress).unwrap();
        assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 6);
        assert_eq!(one.wins, three.wins);
        assert_eq!(one.wins["even"], 1); // seed 11
        assert_eq!(one.wins["odd"], 2);
        assert_eq!(one.mean_decisions, 10.0);
        assert_eq!((one.draws, one.unfinished), (0, 0));
        let short = SimSpec {
            max_decisions: 4,
            ..spec(10, 3, 2)
        };
        assert_eq!(toy().sim(&short, &progress).unwrap().unfinished, 3);
    }

    #[test]
    fn a_dead_end_stops_the_sim_with_the_first_failing_seed() {
        // Seeds 20..40: the first dead end is seed 23 (game 4), whatever the threads.
        for threads in [1, 2, 4] {
            match toy().sim(&spec(20, 20, threads), &|_| {}) {
                Err(CatalogError::SimGame { index, seed, .. }) => {
                    assert_eq!((index, seed), (3, 23), "{threads} threads");
                }
                other => panic!("expected a dead end, got {other:?}"),
            }
        }
        assert!(toy()
            .sim(
                &SimSpec {
                    agents: ["random".into(), "x".into()],
                    ..spec(0, 1, 1)
                },
                &|_| {}
            )
            .is_err());
    }

    #[test]
    fn agent_seeds_differ_from_game_seeds() {
        assert_ne!(agent_seed(1), 1);
        assert_ne!(agent_seed(1), agent_seed(2));
    }
}

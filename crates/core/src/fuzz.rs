//! Random play with its invariants checked at every step: the harness every game's property
//! tests and benchmarks share.
//!
//! At each decision it checks that:
//! - someone can act (a seat with an empty legal list is a dead end);
//! - every listed action passes the frame's own check, and no other seat may act;
//! - every listed action's words in one language are its words in both, that language's;
//! - actions near the chosen one (the game says which: another unit, a neighbouring hex) pass
//!   the check exactly when they are listed, so the list and the check never disagree;
//! - chance always has an outcome;
//! - the game's own invariants hold (steps conserved, cards conserved…).
//!
//! At the end of each game it plays the same choices again from the same seed and checks that
//! the state is the same, checksum for checksum: replay is deterministic.

use crate::chance::Rng;
use crate::game::{Game, Pending, Seat};
use crate::text::Lang;

/// What a fuzz run played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    pub games: u64,
    pub decisions: u64,
    pub chance: u64,
    /// Games that reached their end (the others stopped at the decision limit).
    pub finished: u64,
}

/// Actions near a legal one (another unit, a neighbouring hex), to probe a game's checks with.
pub type Near<'a, G> = &'a dyn Fn(&G, &<G as crate::driver::Rules>::Action) -> Vec<<G as crate::driver::Rules>::Action>;

/// How to fuzz a game.
pub struct Fuzz<'a, G: Game> {
    /// A new game for a seed.
    pub make: &'a dyn Fn(u64) -> G,
    /// At most this many decisions a game.
    pub max_decisions: u64,
    /// Actions near a legal one, to probe the check with (may be empty).
    pub near: Near<'a, G>,
    /// Probe the check around the first this-many decisions of each game.
    pub probe: u64,
    /// The game's own invariants, checked after every step.
    pub invariant: &'a dyn Fn(&G) -> Result<(), String>,
}

/// One step of a game, to replay it.
enum Step<A> {
    Seat(Seat, A),
    Chance(A),
}

impl<G: Game> Fuzz<'_, G> {
    /// Plays one random game from `seed`; returns what it played, or the first broken rule.
    pub fn game(&self, seed: u64) -> Result<Played, String> {
        let mut game = (self.make)(seed);
        let mut rng = Rng::from_seed(seed ^ 0x5eed);
        let mut played = Played {
            games: 1,
            ..Played::default()
        };
        let mut steps = Vec::new();
        let mut outcomes = Vec::new();
        let seats = G::seats().len() as Seat;
        let at = |played: &Played, what: String| format!("seed {seed}, decision {}: {what}", played.decisions);
        loop {
            (self.invariant)(&game).map_err(|e| at(&played, e))?;
            match game.pending() {
                Pending::Over => {
                    played.finished = 1;
                    break;
                }
                Pending::Chance => {
                    game.chance_outcomes(&mut outcomes);
                    if outcomes.iter().all(|(_, w)| *w == 0) {
                        return Err(at(&played, "chance has no outcome".into()));
                    }
                    let o = game
                        .resolve_chance()
                        .ok_or_else(|| at(&played, "chance did not act".into()))?;
                    steps.push(Step::Chance(o));
                    played.chance += 1;
                }
                Pending::Seat(seat) => {
                    if played.decisions >= self.max_decisions {
                        break;
                    }
                    let legal = game.legal_list();
                    if legal.is_empty() {
                        return Err(at(&played, format!("dead end: seat {seat} has no legal action")));
                    }
                    let a = legal[rng.below(legal.len() as u32) as usize].clone();
                    if played.decisions < self.probe {
                        for l in legal.iter() {
                            if let Err(r) = game.check_action(seat, l) {
                                return Err(at(&played, format!("{l:?} is listed but refused: {r}")));
                            }
                            // A page's one-language words are the words of the action.
                            let words = game.describe(l);
                            for lang in [Lang::En, Lang::Zh] {
                                let one = game.describe_in(l, lang);
                                if one != words.get(lang) {
                                    return Err(at(&played, format!("{l:?} reads {one:?} alone but {words:?} whole")));
                                }
                            }
                        }
                        for other in (0..seats).filter(|&s| s != seat) {
                            if game.check_action(other, &a).is_ok() {
                                return Err(at(&played, format!("seat {other} may take {a:?} out of turn")));
                            }
                        }
                        for b in (self.near)(&game, &a) {
                            let listed = legal.contains(&b);
                            let ok = game.check_action(seat, &b);
                            if ok.is_ok() != listed {
                                return Err(at(
                                    &played,
                                    format!("{b:?}: listed {listed}, but the check says {ok:?}"),
                                ));
                            }
                        }
                    }
                    game.apply(seat, &a)
                        .map_err(|r| at(&played, format!("{a:?} is listed but refused: {r}")))?;
                    steps.push(Step::Seat(seat, a));
                    played.decisions += 1;
                }
            }
        }
        // The same choices from the same seed make the same game.
        let mut again = (self.make)(seed);
        for (i, s) in steps.iter().enumerate() {
            let ok = match s {
                Step::Seat(seat, a) => again.apply(*seat, a).is_ok(),
                Step::Chance(o) => again.resolve_chance().as_ref() == Some(o),
            };
            if !ok {
                return Err(format!("seed {seed}: the replay parts ways at step {}", i + 1));
            }
        }
        if again.checksum() != game.checksum() {
            return Err(format!("seed {seed}: the replay ends in another state"));
        }
        Ok(played)
    }

    /// Plays a game for each seed; stops at the first broken rule.
    pub fn run(&self, seeds: std::ops::Range<u64>) -> Result<Played, String> {
        let mut total = Played::default();
        for seed in seeds {
            let p = self.game(seed)?;
            total.games += p.games;
            total.decisions += p.decisions;
            total.chance += p.chance;
            total.finished += p.finished;
        }
        Ok(total)
    }
}

/// Chooses an action of a game from its legal list.
pub type Pick<'a, G> =
    &'a mut dyn FnMut(&G, &[<G as crate::driver::Rules>::Action]) -> <G as crate::driver::Rules>::Action;

/// Plays up to `decisions` choices of `game`, `pick` choosing each from the legal list and
/// chance resolved as it comes, and checks after each that the marks of the new log lines
/// ([`crate::game::Mark`]), followed from where the units stood (`positions`: counter id → place
/// id), lead to where they stand. Returns the kinds of mark seen, or where the marks went
/// astray. Stops when the game ends (the last step is not checked: the seats' secrets open then).
pub fn follow_marks_in_play<G: Game>(
    game: &mut G,
    decisions: usize,
    positions: &dyn Fn(&G) -> std::collections::BTreeMap<String, String>,
    pick: Pick<'_, G>,
) -> Result<std::collections::BTreeSet<&'static str>, String> {
    while game.pending() == Pending::Chance {
        game.resolve_chance();
    }
    let mut at = positions(game);
    let mut read = game.journal(None).len();
    let mut kinds = std::collections::BTreeSet::new();
    let mut legal = Vec::new();
    for step in 0..decisions {
        let Pending::Seat(seat) = game.pending() else { break };
        game.legal_actions(&mut legal);
        let a = pick(game, &legal);
        game.apply(seat, &a)
            .map_err(|r| format!("step {step}: {a:?} refused: {r}"))?;
        while game.pending() == Pending::Chance {
            game.resolve_chance();
        }
        if game.pending() == Pending::Over {
            break;
        }
        let lines = game.journal(None);
        crate::game::follow_marks(&mut at, &lines[read..]).map_err(|e| format!("step {step} after {a:?}: {e}"))?;
        kinds.extend(lines[read..].iter().flat_map(|l| l.marks.iter().map(|m| m.kind())));
        read = lines.len();
        let now = positions(game);
        if at != now {
            let unit = at
                .keys()
                .chain(now.keys())
                .find(|u| at.get(*u) != now.get(*u))
                .cloned()
                .unwrap_or_default();
            return Err(format!(
                "step {step} after {a:?}: the marks lead {unit} to {:?}, it stands at {:?}",
                at.get(&unit),
                now.get(&unit)
            ));
        }
    }
    Ok(kinds)
}

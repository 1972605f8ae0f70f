//! The decision driver: the one place that answers, for every rule system, who decides now,
//! what they may do, and what happens when they do it.
//!
//! A game's state holds a stack of **procedure frames**: the turn's phase at the bottom, and
//! above it whatever that phase has started — a combat, a retreat, a move in progress, a window
//! in which the other side may react. Only the top frame is live. A game describes each kind of
//! frame with five answers ([`Rules`]):
//!
//! - [`Rules::who`]: who decides at this frame — a seat, chance, or nobody ([`Who::Auto`]: the
//!   frame runs by itself, as soon as it is on top);
//! - [`Rules::legal`]: a seat's legal actions here;
//! - [`Rules::outcomes`]: chance's outcomes here, each with its weight (a die: six outcomes of
//!   weight 1);
//! - [`Rules::check`]: whether one action is legal here and, if not, why not, with the rule;
//! - [`Rules::carry_out`]: the action's effects. The frame has been taken off the stack when
//!   this is called: the game pushes it back to keep it (changed or not), pushes new frames
//!   above it, or leaves it off to end it.
//!
//! The core does the rest, the same way for every game ([`Game`]): `pending` reads the top
//! frame; `legal_actions` lists them once per state and keeps the list; `apply` checks the
//! action with the frame's own check, carries it out, then runs the automatic frames until
//! someone must decide. Chance is resolved as an action like any other: its outcome is drawn
//! from the game's generator (which only the core touches), recorded, and carried out by the
//! same `carry_out`. So a search can list the dice and try each one ([`Game::apply_chance`]).
//!
//! An empty stack is a game over.
//!
//! [`crate::toy`] is a whole game of a few frames written this way, small enough to read in
//! one sitting: start there.

use crate::chance::Rng;
use crate::checksum::StateHasher;
use crate::game::{Chart, Outcome, Pending, Refusal, ScenarioInfo, Seat, SeatInfo, SetupError, Targets};
use crate::text::{Lang, Text};
use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;
use std::sync::{Arc, Mutex, OnceLock};

/// Who decides at a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// This seat chooses one of the frame's legal actions.
    Seat(Seat),
    /// Chance picks one of the frame's outcomes, by their weights.
    Chance,
    /// Nobody: the frame is carried out at once, with no action.
    Auto,
}

/// The core's part of a game's state: the procedure stack, the generator, and the legal list
/// worked out for the state as it is. A game keeps one in its state and hands it out through
/// [`Rules::engine`].
#[derive(Clone, Debug)]
pub struct Engine<A, F> {
    frames: Vec<F>,
    rng: Rng,
    /// Counts the changes of the state, so that what was worked out for one state is never
    /// taken for another's.
    version: u64,
    /// The legal actions of the pending decision, for `version`.
    legal: OnceLock<Arc<Vec<A>>>,
    /// The legal list of the state before, kept once the state changed, so that the next list
    /// can be made in it ([`Rules::legal_again`]).
    spare: Spare<A>,
}

/// The last legal list an engine made, once its state moved on: taken back to make the next
/// list in, if nobody else holds it by then. Never copied with the engine.
struct Spare<A>(Mutex<Option<Arc<Vec<A>>>>);

impl<A> Spare<A> {
    fn new() -> Spare<A> {
        Spare(Mutex::new(None))
    }

    fn slot(&mut self) -> &mut Option<Arc<Vec<A>>> {
        self.0.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    /// The list kept, if nothing else holds it; else an empty one.
    fn take(&self) -> Vec<A> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner()).take();
        kept.and_then(|l| Arc::try_unwrap(l).ok()).unwrap_or_default()
    }
}

impl<A> Clone for Spare<A> {
    fn clone(&self) -> Spare<A> {
        Spare::new()
    }
}

impl<A> Debug for Spare<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spare")
    }
}

impl<A, F: Serialize> Engine<A, F> {
    /// A game's engine: the procedure stack to begin with (bottom first) and the generator's seed.
    pub fn new(seed: u64, frames: Vec<F>) -> Engine<A, F> {
        Engine {
            frames,
            rng: Rng::from_seed(seed),
            version: 0,
            legal: OnceLock::new(),
            spare: Spare::new(),
        }
    }

    /// The procedure stack, bottom first.
    pub fn frames(&self) -> &[F] {
        &self.frames
    }

    /// The frame on top, the live one.
    pub fn top(&self) -> Option<&F> {
        self.frames.last()
    }

    /// Puts a frame on top.
    pub fn push(&mut self, frame: F) {
        self.frames.push(frame);
    }

    /// Takes the top frame off.
    pub fn pop(&mut self) -> Option<F> {
        self.frames.pop()
    }

    /// The procedure stack, to change a frame below the top (a combat's count of attacks, a
    /// phase's progress).
    pub fn frames_mut(&mut self) -> &mut Vec<F> {
        &mut self.frames
    }

    /// The number of changes the state has seen.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Says that the state changed outside the driver (a test building a position, a
    /// set-up): what was worked out for the old state is dropped.
    pub fn touch(&mut self) {
        self.version += 1;
        if let Some(old) = self.legal.take() {
            *self.spare.slot() = Some(old);
        }
    }

    /// The generator, read only (its position is part of the state).
    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    /// Gives the generator a new seed: for a game sampled for a computer player
    /// ([`Rules::sample`]), which must not foresee the real game's dice.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::from_seed(seed);
        self.touch();
    }

    /// Adds the stack and the generator to a checksum.
    pub fn hash_into(&self, h: &mut StateHasher) {
        h.add(&self.frames);
        h.add(&self.rng);
    }
}

/// A rule system, as its author writes it: its frames, its set-up, and what players read.
/// Everything about whose turn it is and what may be done now comes from the frames; the core
/// turns them into a [`Game`].
pub trait Rules: Clone + Send + Sync + 'static {
    /// One decision, or one outcome of chance. Small and cheap to copy; serializable so it can
    /// be recorded and sent.
    type Action: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + Sync;

    /// One procedure in progress (a phase, a combat, a move). Plain data.
    type Frame: Clone + Debug + Serialize + Send + Sync;

    /// The game id (`stalingrad-blitz`).
    const ID: &'static str;

    /// The edition of the game's data (map, counters, tables) this build plays new games on.
    /// A save records the edition it was made with; when data are corrected, the edition
    /// changes and games already begun go on with the data they began with, as long as the
    /// build still ships them ([`Rules::setup_edition`]).
    const DATA_EDITION: &'static str = "1";

    /// The rule that sets out the sequence of play ("5.0"), cited when a seat tries to act out
    /// of turn.
    const SEQUENCE_OF_PLAY: &'static str = "";

    /// Whether a seat's decision with only one legal action is taken at once, as part of the
    /// step before it. Then it is never asked, recorded or undone on its own.
    const TAKE_FORCED: bool = false;

    /// What one seat may know, as computer players read it: everything its player could see
    /// or remember, nothing hidden from it. A computer player decides from this and the legal
    /// list, never from the game itself, so a secret is out of its reach by construction.
    type View<'a>
    where
        Self: 'a;

    fn engine(&self) -> &Engine<Self::Action, Self::Frame>;
    fn engine_mut(&mut self) -> &mut Engine<Self::Action, Self::Frame>;

    /// Who decides at `frame` (the top of the stack).
    fn who(&self, frame: &Self::Frame) -> Who;

    /// The legal actions of a seat's decision at `frame`, appended to `out` (empty on entry).
    /// List them with the same rule functions [`Rules::check`] uses, so that the list and the
    /// check can never disagree.
    fn legal(&self, frame: &Self::Frame, out: &mut Vec<Self::Action>);

    /// [`Rules::legal`] into `out`, which holds the legal list of an earlier state of this game
    /// (the one made last, by this method) or is empty: a game whose lists run long may keep
    /// the parts of it that are still legal as they stand, in place. The list made must be
    /// exactly the one [`Rules::legal`] makes. By default `out` is emptied and the list made
    /// afresh.
    fn legal_again(&self, frame: &Self::Frame, out: &mut Vec<Self::Action>) {
        out.clear();
        self.legal(frame, out);
    }

    /// Whether a seat's decision at `frame` that has no legal action left is carried out with
    /// none (`carry_out(frame, None)`): a retreat with nowhere to go, a reinforcement with no
    /// hex to enter. Otherwise an empty legal list is a dead end, which is a bug.
    fn passes_when_empty(&self, _frame: &Self::Frame) -> bool {
        false
    }

    /// Chance's outcomes at `frame`, each with its weight, appended to `out` (empty on entry).
    fn outcomes(&self, _frame: &Self::Frame, _out: &mut Vec<(Self::Action, u32)>) {}

    /// Whether `action` is legal at `frame` and, if not, the rule it breaks and why. Must accept
    /// exactly the actions [`Rules::legal`] lists. Any value of the action type may come here
    /// (a crafted request, a damaged file): never index with it unchecked.
    fn check(&self, frame: &Self::Frame, action: &Self::Action) -> Result<(), Refusal>;

    /// Carries out `action` (`None` for an automatic frame) at `frame`, which is no longer on
    /// the stack: push it back to keep it, push others to start them.
    fn carry_out(&mut self, frame: Self::Frame, action: Option<&Self::Action>);

    /// What `seat` may know now.
    fn seat_view(&self, seat: Seat) -> Self::View<'_>;

    /// A whole game that agrees with everything `view` shows, what it hides (the other side's
    /// chits, a hand, the order of a deck) drawn at random: for a computer player that looks
    /// ahead. A game that hides nothing gives itself.
    fn sample(view: &Self::View<'_>, rng: &mut Rng) -> Self;

    /// Adds the game's own state (not the engine's) to a checksum.
    fn hash_state(&self, h: &mut StateHasher);

    /// The game's title in both languages.
    fn title() -> Text;

    /// The seats, in seat order.
    fn seats() -> Vec<SeatInfo>;

    /// The side `seat` plays as the game stands now, where the seat's name in [`Rules::seats`]
    /// does not say it (a game whose players bid for their sides, say): shown beside the seat's
    /// name. `None`, the default: the name says it.
    fn seat_side(&self, _seat: Seat) -> Option<Text> {
        None
    }

    /// The shipped scenarios.
    fn scenarios() -> Vec<ScenarioInfo>;

    /// A game set up from a shipped scenario, with its first frames on the stack. The core
    /// runs them up to the first decision ([`Game::new_game`]).
    fn setup(scenario: &str, seed: u64) -> Result<Self, SetupError>;

    /// A game set up from the text of a scenario file a player wrote
    /// ([`Game::from_scenario_text`]).
    fn setup_from_text(text: &str, seed: u64) -> Result<Self, SetupError>;

    /// [`Rules::setup`] on the data of an earlier `edition`, for a game begun on them.
    fn setup_edition(scenario: &str, seed: u64, edition: &str) -> Result<Self, SetupError> {
        if edition == Self::DATA_EDITION {
            Self::setup(scenario, seed)
        } else {
            Err(no_edition::<Self>(edition))
        }
    }

    /// [`Rules::setup_from_text`] on the data of an earlier `edition`.
    fn setup_from_text_edition(text: &str, seed: u64, edition: &str) -> Result<Self, SetupError> {
        if edition == Self::DATA_EDITION {
            Self::setup_from_text(text, seed)
        } else {
            Err(no_edition::<Self>(edition))
        }
    }

    /// The outcome, once the stack is empty.
    fn outcome(&self) -> Option<Outcome>;

    /// The action (or chance's outcome) in words, for lists and logs.
    fn describe(&self, action: &Self::Action) -> Text;

    /// The same words in one language only, for a page that shows one: a game whose legal
    /// lists run to thousands of actions writes only the language asked for.
    fn describe_in(&self, action: &Self::Action, lang: Lang) -> String {
        self.describe(action).into_lang(lang)
    }

    /// A short, unique, typeable form of a legal action (`move 0512 0714`).
    fn notation(&self, action: &Self::Action) -> String;

    /// Reads a typed action whether or not it is legal now, so that refusing it can say why
    /// and cite the rule. `None` if the text is not an action of this game at all.
    fn parse_notation(&self, _text: &str) -> Option<Self::Action> {
        None
    }

    /// What each of `actions` (legal actions of the pending decision) is about on the board.
    fn targets(&self, actions: &[Self::Action]) -> Vec<Targets> {
        vec![Targets::default(); actions.len()]
    }

    /// Which legal actions a page may receive only once their counters are picked: for an
    /// action that takes counters to a hex (a move), writes into `key` (empty on entry) what
    /// is the same for every action about exactly the same counters, and says `true`. Every
    /// other action says `false` and is listed whole. An Ardennes II campaign's movement phase
    /// so goes to a page as one entry for each counter or stack that can move, not as ten
    /// thousand moves ([`crate::record::DynSession::page_legal`]). By default nothing is.
    fn pack_key(&self, _action: &Self::Action, _key: &mut Vec<u32>) -> bool {
        false
    }

    /// What a player should read before committing `action`, a legal action of the pending
    /// decision, beyond its description: for an attack, the defender and its hex, each column
    /// shift with its rule, the odds column and the result of each die. Empty where there is
    /// nothing more to say.
    fn preview(&self, _action: &Self::Action) -> Vec<Text> {
        Vec::new()
    }

    /// What the pending decision is about, for everyone to read beside the actions, beyond the
    /// summary: a combat being fought, with its sides, columns and modifiers as they stand.
    /// Nothing secret. Empty where the decision speaks for itself.
    fn context(&self) -> Vec<Text> {
        Vec::new()
    }

    /// The cards `seat` holds, as it sees them ([`crate::game::HandCard`]); empty in a game
    /// without hands. Only for that seat: the server hands it to no one else.
    fn hand(&self, _seat: Seat) -> Vec<crate::game::HandCard> {
        Vec::new()
    }

    /// The game's charts for players, from its own data, in both languages ([`Chart`]): the
    /// same for every seat, nothing hidden in them.
    fn charts(&self) -> Vec<Chart> {
        Vec::new()
    }

    /// Whether taking this action is a secret from the other seats.
    fn is_secret(&self, _action: &Self::Action) -> bool {
        false
    }

    /// Everything hidden from `seat` now, as ids that stay the same while a thing stays
    /// hidden (a card in a hand, a chit in a cup), appended to `out`. When a step takes an id
    /// out of this list, something was revealed to `seat`, and nobody may undo back across it.
    fn hidden_from(&self, _seat: Seat, _out: &mut Vec<u64>) {}

    /// What `seat` may see of the state (`None`: a spectator).
    fn view(&self, seat: Option<Seat>) -> serde_json::Value;

    /// The situation in words for `seat`.
    fn summary(&self, seat: Option<Seat>, lang: Lang) -> String;

    /// The log lines `seat` may read (`None`: a spectator), oldest first.
    fn journal(&self, seat: Option<Seat>) -> Vec<crate::game::JournalLine>;

    /// Switches the human-readable log on or off (simulations run without it).
    fn set_journal(&mut self, on: bool);

    /// The map and counters as SVG, as `seat` may see them: the whole board, for a file or a
    /// client that draws it at once (a game that splits its board returns
    /// [`crate::render::put_pieces`] of [`Rules::render_map`] and [`Rules::render_pieces`]).
    fn render_svg(&self, seat: Option<Seat>, lang: Lang) -> String;

    /// The map alone, names in `lang`: what stays the same all game long (terrain, lines,
    /// names, a scenario's playing area), ending with the empty `<g class="pieces"></g>`
    /// ([`crate::render::render_hex_base`]). Nothing in it may depend on a seat or on the
    /// position, so that a page loads it once per game and language and keeps it. Empty for
    /// a game that draws no map.
    fn render_map(&self, _lang: Lang) -> String {
        String::new()
    }

    /// What changes on the map, as `seat` may see it: the `<g class="pieces">` to put in
    /// place of the empty one of [`Rules::render_map`] (counters, markers, highlights,
    /// [`crate::render::render_hex_pieces`]). Empty for a game that draws no map.
    fn render_pieces(&self, _seat: Option<Seat>, _lang: Lang) -> String {
        String::new()
    }

    /// The board around the current action as text, for a terminal.
    fn board_text(&self, _seat: Option<Seat>, _lang: Lang) -> String {
        String::new()
    }
}

/// The refusal of a game begun on data this build no longer ships.
fn no_edition<R: Rules>(edition: &str) -> SetupError {
    SetupError(format!(
        "this game of {} was begun on edition {edition} of its data, which this build no longer has (it plays edition {})",
        R::ID,
        R::DATA_EDITION
    ))
}

/// What [`Game::apply`] refuses when the action is not the seat's to take: who decides now.
fn not_your_decision<R: Rules>(pending: Pending) -> Refusal {
    let text = match pending {
        Pending::Over => crate::text!("the game is over", "游戏已经结束"),
        Pending::Chance => crate::text!("chance must act first", "须先由机运决定"),
        Pending::Seat(s) => {
            let name = R::seats().get(s as usize).map(|i| i.name.clone()).unwrap_or_default();
            Text::new(format!("{} decides now", name.en), format!("现在由{}做决定", name.zh))
        }
    };
    Refusal::new(R::SEQUENCE_OF_PLAY, text)
}

/// A rule system as everyone else uses it: the command line, the server, computer players,
/// tests. Every [`Rules`] is a `Game`; the methods here belong to the core and are the same
/// for every game.
pub trait Game: Rules {
    /// A new game from a shipped scenario, at its first decision.
    fn new_game(scenario: &str, seed: u64) -> Result<Self, SetupError> {
        let mut game = Self::setup(scenario, seed)?;
        start(&mut game);
        Ok(game)
    }

    /// A new game from the text of a scenario file a player wrote, at its first decision.
    fn from_scenario_text(text: &str, seed: u64) -> Result<Self, SetupError> {
        let mut game = Self::setup_from_text(text, seed)?;
        start(&mut game);
        Ok(game)
    }

    /// [`Game::new_game`] on the data of `edition` (a saved game's).
    fn new_game_edition(scenario: &str, seed: u64, edition: &str) -> Result<Self, SetupError> {
        let mut game = Self::setup_edition(scenario, seed, edition)?;
        start(&mut game);
        Ok(game)
    }

    /// [`Game::from_scenario_text`] on the data of `edition` (a saved game's).
    fn from_scenario_text_edition(text: &str, seed: u64, edition: &str) -> Result<Self, SetupError> {
        let mut game = Self::setup_from_text_edition(text, seed, edition)?;
        start(&mut game);
        Ok(game)
    }

    /// Who must act next.
    fn pending(&self) -> Pending {
        match self.engine().top() {
            None => Pending::Over,
            Some(f) => match self.who(f) {
                Who::Seat(s) => Pending::Seat(s),
                Who::Chance => Pending::Chance,
                // Automatic frames never stay on top between steps: `start` and every step
                // run them.
                Who::Auto => unreachable!("an automatic frame left on top; was the game started?"),
            },
        }
    }

    /// The legal actions of the pending decision, worked out once per state and kept.
    /// Empty when chance acts or the game is over. Made in the list of the state before, where
    /// nobody holds that any more ([`Rules::legal_again`]).
    fn legal_list(&self) -> Arc<Vec<Self::Action>> {
        self.engine()
            .legal
            .get_or_init(|| {
                let mut out = self.engine().spare.take();
                match self.engine().top() {
                    Some(f) if matches!(self.who(f), Who::Seat(_)) => Rules::legal_again(self, f, &mut out),
                    _ => out.clear(),
                }
                Arc::new(out)
            })
            .clone()
    }

    /// The legal actions of the pending decision, into `out` (cleared first).
    fn legal_actions(&self, out: &mut Vec<Self::Action>) {
        out.clear();
        out.extend_from_slice(&self.legal_list());
    }

    /// Whether `seat` may take `action` now, and why not.
    fn check_action(&self, seat: Seat, action: &Self::Action) -> Result<(), Refusal> {
        match self.engine().top() {
            Some(f) if self.who(f) == Who::Seat(seat) => self.check(f, action),
            _ => Err(not_your_decision::<Self>(self.pending())),
        }
    }

    /// Takes one action of `seat`: checked by its frame, carried out, then every automatic
    /// frame after it. A refused action changes nothing.
    fn apply(&mut self, seat: Seat, action: &Self::Action) -> Result<(), Refusal> {
        // The legal list, where it was worked out for this state, answers at once: it is made
        // by the same rule functions as the check, which is asked only to say why not.
        let listed = self.pending() == Pending::Seat(seat)
            && self.engine().legal.get().is_some_and(|legal| listed(legal, action));
        if !listed {
            self.check_action(seat, action)?;
        }
        let frame = self.engine_mut().pop().expect("a checked action has its frame");
        self.carry_out(frame, Some(action));
        settle(self);
        Ok(())
    }

    /// Chance's outcomes now, with their weights (empty unless chance is pending).
    fn chance_outcomes(&self, out: &mut Vec<(Self::Action, u32)>) {
        out.clear();
        if let Some(f) = self.engine().top() {
            if self.who(f) == Who::Chance {
                self.outcomes(f, out);
            }
        }
    }

    /// Lets chance act: draws an outcome from the game's generator, by weight, and carries it
    /// out. Returns the outcome, or `None` when chance is not pending.
    fn resolve_chance(&mut self) -> Option<Self::Action> {
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        let total: u64 = outcomes.iter().map(|(_, w)| *w as u64).sum();
        if total == 0 || total > u32::MAX as u64 {
            return None;
        }
        let mut r = self.engine_mut().rng.below(total as u32);
        let mut pick = outcomes.len() - 1;
        for (i, (_, w)) in outcomes.iter().enumerate() {
            if r < *w {
                pick = i;
                break;
            }
            r -= w;
        }
        let outcome = outcomes.swap_remove(pick).0;
        let frame = self.engine_mut().pop().expect("chance has its frame");
        self.carry_out(frame, Some(&outcome));
        settle(self);
        Some(outcome)
    }

    /// Carries out a chosen outcome of chance, without drawing on the generator: for a search
    /// that tries each die in turn. Refused unless it is one of the outcomes now.
    fn apply_chance(&mut self, outcome: &Self::Action) -> Result<(), Refusal> {
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        if !outcomes.iter().any(|(o, w)| o == outcome && *w > 0) {
            return Err(Refusal::new(
                "",
                crate::text!("not one of chance's outcomes now", "不是当前机运的可能结果"),
            ));
        }
        let frame = self.engine_mut().pop().expect("chance has its frame");
        self.carry_out(frame, Some(outcome));
        settle(self);
        Ok(())
    }

    /// A hash of the whole state (the game's own and the engine's), stable across runs and
    /// platforms.
    fn checksum(&self) -> u64 {
        let mut h = StateHasher::new();
        self.hash_state(&mut h);
        self.engine().hash_into(&mut h);
        h.finish()
    }

    /// Everything hidden from each seat now ([`Rules::hidden_from`]), seat by seat.
    fn hidden(&self) -> Vec<Vec<u64>> {
        (0..Self::seats().len() as Seat)
            .map(|s| {
                let mut out = Vec::new();
                self.hidden_from(s, &mut out);
                out.sort_unstable();
                out
            })
            .collect()
    }
}

impl<R: Rules> Game for R {}

/// Whether something hidden from some seat in `before` is no longer hidden in `after`.
pub fn revealed(before: &[Vec<u64>], after: &[Vec<u64>]) -> bool {
    before
        .iter()
        .zip(after)
        .any(|(b, a)| b.iter().any(|id| a.binary_search(id).is_err()))
}

/// Runs the automatic frames until a seat or chance must act or the game is over, forgetting
/// the old legal list on the way. With [`Rules::TAKE_FORCED`], a decision with a single answer
/// is taken at once; a decision with none that [`Rules::passes_when_empty`] is carried out
/// with none.
fn settle<R: Rules>(game: &mut R) {
    loop {
        game.engine_mut().touch();
        let Some(top) = game.engine().top() else { return };
        match game.who(top) {
            Who::Auto => {
                let frame = game.engine_mut().pop().expect("a top frame");
                game.carry_out(frame, None);
            }
            Who::Chance => return,
            Who::Seat(_) => {
                let passes = game.passes_when_empty(top);
                if !R::TAKE_FORCED && !passes {
                    return;
                }
                let legal = game.legal_list();
                let action = match legal.len() {
                    0 if passes => None,
                    1 if R::TAKE_FORCED => Some(legal[0].clone()),
                    _ => return,
                };
                let frame = game.engine_mut().pop().expect("a top frame");
                game.carry_out(frame, action.as_ref());
            }
        }
    }
}

/// Runs a game's automatic frames (and forced answers) up to its first decision: for a game
/// made some other way than [`Game::new_game`] (a test's position on its own map, say).
pub fn start<R: Rules>(game: &mut R) {
    settle(game);
}

/// Whether `action` is in `legal`: at once if it is one of the list's own entries (an agent
/// hands back the entry it picked from the list it was given, the driver's own), known by its
/// address; else by comparing it with each entry.
fn listed<A: PartialEq>(legal: &[A], action: &A) -> bool {
    legal.as_ptr_range().contains(&(action as *const A)) || legal.contains(action)
}

#[cfg(test)]
mod tests {
    use super::{listed, Rules};
    use crate::chance::Rng;
    use crate::game::{play_randomly_watching, Game};
    use crate::toy::Bridgehead;

    /// Whether an action is listed, told by its address or by comparing, is what comparing
    /// tells: for every entry of the legal list and for a copy of each (which is not one of
    /// the list's own entries), and for actions of other decisions, at every decision of
    /// random toy games.
    #[test]
    fn an_action_is_listed_by_its_address_as_by_comparing() {
        let (mut entries, mut others) = (0, 0);
        let mut earlier = Vec::new();
        for seed in 0..20 {
            let mut g = Bridgehead::new_game("bridgehead", seed).expect("the toy game starts");
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, 500, |g| {
                let legal = g.legal_list();
                for a in legal.iter() {
                    let copy = *a;
                    assert!(listed(&legal, a) && listed(&legal, &copy), "{a:?} is listed");
                    entries += 1;
                }
                for a in &earlier {
                    assert_eq!(listed(&legal, a), legal.contains(a), "{a:?}");
                    others += 1;
                }
                earlier = legal.to_vec();
            })
            .expect("random play reaches the end");
        }
        assert!(entries > 100 && others > 100, "{entries} entries, {others} others");
    }

    /// The legal list made in the list of the state before ([`Rules::legal_again`]) is at
    /// every decision of random toy games the list made afresh.
    #[test]
    fn a_legal_list_made_in_the_one_before_is_the_one_made_afresh() {
        let mut compared = 0;
        for seed in 0..20 {
            let mut g = Bridgehead::new_game("bridgehead", seed).expect("the toy game starts");
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, 500, |g| {
                let legal = g.legal_list();
                let mut fresh = Vec::new();
                Rules::legal(g, g.engine().top().expect("a decision"), &mut fresh);
                assert_eq!(*legal, fresh);
                compared += 1;
            })
            .expect("random play reaches the end");
        }
        assert!(compared > 100, "{compared} lists compared");
    }
}

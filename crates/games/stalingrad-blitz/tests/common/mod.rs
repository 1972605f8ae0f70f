//! Shared test helpers: the small fixture map, games on it, random play.
#![allow(dead_code)]

use sandtable_core::chance::Rng;
use sandtable_core::game::{Game, Pending, Rules};
use sandtable_stalingrad_blitz::data::Data;
use sandtable_stalingrad_blitz::{Action, StalingradBlitz};
use std::sync::Arc;

pub const SMALL_MAP: &str = include_str!("../fixtures/small-map.toml");

/// The real counters, chits, turns and tables on the small fixture map.
pub fn small_data() -> Arc<Data> {
    use sandtable_stalingrad_blitz::data::*;
    Arc::new(Data::load(SMALL_MAP, COUNTERS_TOML, CHITS_TOML, TURNS_TOML, TABLES_TOML).expect("fixture data loads"))
}

/// A scenario text with the given units on hexes, on the small map.
pub fn scenario(turn: u8, units: &[(&str, &str)]) -> String {
    let mut s = format!(
        "[about]\nsource = \"reconstructed\"\nbasis = \"test\"\n[scenario]\nid = \"test\"\nname_en = \"Test\"\nname_zh = \"测试\"\nturn = {turn}\n"
    );
    for (id, hex) in units {
        s.push_str(&format!("[[unit]]\nid = \"{id}\"\nhex = \"{hex}\"\n"));
    }
    s
}

pub fn small_game(turn: u8, units: &[(&str, &str)], seed: u64) -> StalingradBlitz {
    StalingradBlitz::with_data(small_data(), &scenario(turn, units), seed).expect("fixture scenario loads")
}

pub fn legal(g: &StalingradBlitz) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// Plays random legal actions to the end; returns the number of decisions.
pub fn random_play(g: &mut StalingradBlitz, seed: u64, max: usize) -> usize {
    let mut rng = Rng::from_seed(seed);
    sandtable_core::game::play_randomly(g, &mut rng, max as u64).unwrap_or_else(|r| {
        let at = g.summary(None, sandtable_core::text::Lang::En);
        panic!("random play stopped: {r} at {at}")
    }) as usize
}

/// A position on the small map with both sides in contact.
pub const SKIRMISH: &[(&str, &str)] = &[
    ("ger-hq-6a", "0304"),
    ("ger-inf-88", "0405"),
    ("ger-inf-377", "0406"),
    ("ger-pz-9", "0404"),
    ("sov-hq-swf", "1004"),
    ("sov-rifle-45", "0605"),
    ("sov-rifle-62", "0706"),
    ("sov-rifle-121", "0805"),
];

// ------------------------------------------------------------------ helpers for targeted tests

use sandtable_core::hex::Hex;
use sandtable_stalingrad_blitz::state::{Combat, Frame, Loc, Step, UnitId};

/// The second fixture map (roads through forest and swamp, a mountain road, a rail-only bridge
/// over a major river, a short Axis railway, nine Axis VP hexes): see the file's header.
pub const RULES_MAP: &str = include_str!("../fixtures/rules-map.toml");

/// The real counters, chits, turns and tables on another map.
pub fn data_on(map: &str) -> Arc<Data> {
    use sandtable_stalingrad_blitz::data::*;
    Arc::new(Data::load(map, COUNTERS_TOML, CHITS_TOML, TURNS_TOML, TABLES_TOML).expect("fixture data loads"))
}

pub fn rules_data() -> Arc<Data> {
    data_on(RULES_MAP)
}

/// A scenario text with more than `scenario` offers. `head` is extra `[scenario]` keys (say
/// `loss_vp = 6`); each unit is (id, place), where place is a hex ("0505") or an off-map place
/// (`pool`, `rail-box`, `track`, `eliminated`, `withdrawn`), optionally followed by ` reduced`;
/// `tail` is extra tables (`[[fortress]]`, `[[control]]`).
pub fn scenario_with(turn: u8, head: &str, units: &[(&str, &str)], tail: &str) -> String {
    let mut s = format!(
        "[about]\nsource = \"reconstructed\"\nbasis = \"test\"\n[scenario]\nid = \"test\"\nname_en = \"Test\"\nname_zh = \"测试\"\nturn = {turn}\n{head}\n"
    );
    for (id, place) in units {
        let mut words = place.split_whitespace();
        let at = words.next().expect("a place");
        let reduced = words.next() == Some("reduced");
        s.push_str(&format!("[[unit]]\nid = \"{id}\"\n"));
        if at.chars().all(|c| c.is_ascii_digit()) {
            s.push_str(&format!("hex = \"{at}\"\n"));
        } else {
            s.push_str(&format!("loc = \"{at}\"\n"));
        }
        if reduced {
            s.push_str("reduced = true\n");
        }
    }
    s.push_str(tail);
    s
}

/// A game on `d` from `scenario_with`.
pub fn game_on(d: Arc<Data>, turn: u8, head: &str, units: &[(&str, &str)], tail: &str, seed: u64) -> StalingradBlitz {
    StalingradBlitz::with_data(d, &scenario_with(turn, head, units, tail), seed).expect("fixture scenario loads")
}

pub fn unit(g: &StalingradBlitz, id: &str) -> UnitId {
    *g.data().unit_index.get(id).unwrap_or_else(|| panic!("no unit {id}"))
}

pub fn hex(g: &StalingradBlitz, id: &str) -> Hex {
    g.data()
        .map
        .grid
        .parse(id)
        .unwrap_or_else(|e| panic!("bad hex {id}: {e:?}"))
}

pub fn chit(g: &StalingradBlitz, id: &str) -> u8 {
    g.data().chit_index(id).unwrap_or_else(|| panic!("no chit {id}"))
}

pub fn loc(g: &StalingradBlitz, id: &str) -> Loc {
    g.state().units[unit(g, id) as usize].loc
}

pub fn at(g: &StalingradBlitz, id: &str) -> Option<String> {
    g.state().units[unit(g, id) as usize]
        .hex()
        .map(|h| g.data().map.grid.id(h).0)
}

pub fn reduced(g: &StalingradBlitz, id: &str) -> bool {
    g.state().units[unit(g, id) as usize].reduced
}

/// Makes `chit` the only chit in the cup and draws it (7.1), as if every other chit of the
/// turn had been drawn already; a die the chit calls for is rolled.
pub fn execute(g: &mut StalingradBlitz, chit_id: &str) {
    let c = chit(g, chit_id);
    {
        let e = g.edit();
        e.hidden.cup = vec![c];
        e.frames.truncate(1);
        e.frames.push(Frame::Draw);
    }
    draw(g);
}

/// Ends what is going on in the turn and comes to the cup (7.1): the next thing to happen is
/// a draw (or, with the cup empty, the end of the turn, which happens at once).
pub fn to_draw(g: &mut StalingradBlitz) {
    set_frames(g, vec![Frame::Draw]);
}

/// Puts `frames` on the turn (which stays at the bottom of the stack) in place of what was
/// going on, and runs what follows by itself.
pub fn set_frames(g: &mut StalingradBlitz, frames: Vec<Frame>) {
    {
        let e = g.edit();
        e.frames.truncate(1);
        e.frames.extend(frames);
    }
    g.settle();
}

/// Draws the next chit from the cup (7.1) and rolls any die it calls for.
pub fn draw(g: &mut StalingradBlitz) {
    if g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    roll_dice(g);
}

thread_local! {
    static RIGGED: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Makes the next die the game rolls show `die` (chance's outcome chosen, as a search would
/// choose it, instead of drawn from the generator).
pub fn rig_die(_g: &mut StalingradBlitz, die: u8) {
    RIGGED.with(|r| r.borrow_mut().push(die));
}

/// Rolls every die now due: a rigged face if there is one, else one from the generator.
pub fn roll_dice(g: &mut StalingradBlitz) {
    while let Some(Frame::Roll(_)) = g.frames().last() {
        match RIGGED.with(|r| r.borrow_mut().pop()) {
            Some(face) => g.apply_chance(&Action::Die { face }).expect("a die face"),
            None => {
                g.resolve_chance();
            }
        }
    }
}

/// The seat that must act now (panics if none must).
pub fn seat(g: &StalingradBlitz) -> u8 {
    match g.pending() {
        Pending::Seat(s) => s,
        p => panic!("no seat to act: {p:?}"),
    }
}

/// Applies an action for the seat that must act, which must accept it.
pub fn act(g: &mut StalingradBlitz, a: Action) {
    let s = seat(g);
    if let Err(r) = g.apply(s, &a) {
        panic!(
            "{a:?} refused: {r}\n{}",
            g.summary(None, sandtable_core::text::Lang::En)
        );
    }
    roll_dice(g);
}

/// The step of the command being executed.
pub fn step(g: &StalingradBlitz) -> Option<&Step> {
    g.exec().map(|e| &e.step)
}

/// The combat being resolved.
pub fn combat(g: &StalingradBlitz) -> &Combat {
    match g.combat() {
        Some(c) => c,
        None => panic!("no combat now: {:?}", g.frames().last()),
    }
}

/// The frame on top of the stack: what is going on.
pub fn top(g: &StalingradBlitz) -> Option<&Frame> {
    g.frames().last()
}

/// `act` as a method, so the action can be built from the game in the same call
/// (`g.play(Action::Pick { chit: chit(&g, "6A") })`).
pub trait Drive {
    fn play(&mut self, a: Action);
}

impl Drive for StalingradBlitz {
    fn play(&mut self, a: Action) {
        act(self, a)
    }
}

/// Takes every decision that has a single legal answer, as `settle` is meant to.
pub fn forced(g: &mut StalingradBlitz) {
    while let Pending::Seat(_) = g.pending() {
        let l = legal(g);
        if l.len() != 1 {
            break;
        }
        act(g, l[0]);
    }
}

//! The action record, replay, undo, save files and hidden information, exercised through a
//! toy game that lives only in this test: the hidden dice race.
//!
//! Two seats. At the start a die decides who picks first. Each round the seats secretly pick
//! a number 1–3 (a seat's pick is hidden from the other until both have picked; the second
//! pick reveals both), then the first picker rolls: chance rolls a d6 for each seat, and the
//! higher pick + roll scores 4 − its pick (ties score nothing). The first picker alternates.
//! First to the target (10 in the `standard` scenario) wins.

use proptest::prelude::*;
use sandtable_core::chance::Rng;
use sandtable_core::checksum::StateHasher;
use sandtable_core::game::{
    play_out, Agent, Engine, Game, Journal, JournalLine, Outcome, Pending, RandomAgent, Refusal, Rules, ScenarioInfo,
    Seat, SeatInfo, SetupError, Who,
};
use sandtable_core::record::{write_atomic, DynSession, Record, RecordError, ScenarioSource, Session, FORMAT};
use sandtable_core::text;
use sandtable_core::text::{Lang, Text};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// The toy game.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Act {
    Pick(u8),
    Roll,
    /// A face of a die (chance's outcome).
    Die(u8),
}

/// The procedures of the race, as they sit on the driver's stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
enum Stage {
    /// Chance decides who picks first.
    Start,
    /// The seats pick.
    Pick,
    /// Picks are revealed; the first picker must roll.
    Roll,
    /// Chance rolls the two dice, one at a time: the first one rolled, if any.
    Dice(Option<u8>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
struct Round {
    picks: [u8; 2],
    rolls: [u8; 2],
    scorer: Option<Seat>,
}

#[derive(Clone, Debug)]
struct DiceRace {
    engine: Engine<Act, Stage>,
    target: u32,
    scores: [u32; 2],
    round: u32,
    first: Seat,
    picks: [Option<u8>; 2],
    last: Option<Round>,
    winner: Option<Seat>,
    /// Not part of the checksum: the log may be off in simulations.
    journal: Journal,
}

/// The start of a secret journal line, followed by the seat.
const SECRET: &str = "secret pick of seat";

impl DiceRace {
    fn with_target(target: u32, seed: u64) -> DiceRace {
        let mut g = DiceRace {
            engine: Engine::new(seed, vec![Stage::Start]),
            target,
            scores: [0, 0],
            round: 0,
            first: 0,
            picks: [None, None],
            last: None,
            winner: None,
            journal: Journal::default(),
        };
        g.journal
            .heading(|| text!("Hidden dice race to {target}", "暗骰竞赛,先到{target}分"));
        g
    }

    /// The procedure on top, or `None` once the game is over.
    fn stage(&self) -> Option<Stage> {
        self.engine.top().copied()
    }

    fn parse_scenario(text: &str) -> Result<u32, SetupError> {
        let mut target = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let n = i + 1;
            let (key, value) = line
                .split_once('=')
                .ok_or_else(|| SetupError(format!("line {n}: expected `key = value`")))?;
            match key.trim() {
                "target" => {
                    if target.is_some() {
                        return Err(SetupError(format!("line {n}: `target` given twice")));
                    }
                    let t: u32 = value
                        .trim()
                        .parse()
                        .map_err(|_| SetupError(format!("line {n}: target must be a whole number")))?;
                    if !(1..=99).contains(&t) {
                        return Err(SetupError(format!("line {n}: target must be 1 to 99")));
                    }
                    target = Some(t);
                }
                other => return Err(SetupError(format!("line {n}: unknown key `{other}`"))),
            }
        }
        target.ok_or_else(|| SetupError("the scenario needs `target = N`".into()))
    }

    fn next_round(&mut self) {
        self.round += 1;
        let r = self.round;
        self.journal.heading(|| text!("Round {r}", "第{r}轮"));
        self.engine.push(Stage::Pick);
    }
}

impl Rules for DiceRace {
    type Action = Act;
    type Frame = Stage;
    /// A test game: its players see it whole.
    type View<'a> = &'a DiceRace;

    fn seat_view(&self, _: Seat) -> &DiceRace {
        self
    }

    fn sample(view: &&DiceRace, _: &mut Rng) -> DiceRace {
        (*view).clone()
    }

    const ID: &'static str = "hidden-dice-race";

    fn engine(&self) -> &Engine<Act, Stage> {
        &self.engine
    }

    fn engine_mut(&mut self) -> &mut Engine<Act, Stage> {
        &mut self.engine
    }

    fn who(&self, stage: &Stage) -> Who {
        match stage {
            Stage::Start | Stage::Dice(_) => Who::Chance,
            Stage::Pick if self.picks[self.first as usize].is_none() => Who::Seat(self.first),
            Stage::Pick => Who::Seat(1 - self.first),
            Stage::Roll => Who::Seat(self.first),
        }
    }

    fn legal(&self, stage: &Stage, out: &mut Vec<Act>) {
        match stage {
            Stage::Pick => out.extend([Act::Pick(1), Act::Pick(2), Act::Pick(3)]),
            Stage::Roll => out.push(Act::Roll),
            _ => {}
        }
    }

    fn outcomes(&self, stage: &Stage, out: &mut Vec<(Act, u32)>) {
        if let Stage::Start | Stage::Dice(_) = stage {
            out.extend((1..=6).map(|d| (Act::Die(d), 1)));
        }
    }

    fn check(&self, stage: &Stage, action: &Act) -> Result<(), Refusal> {
        match (stage, *action) {
            (Stage::Pick, Act::Pick(n)) if (1..=3).contains(&n) => Ok(()),
            (Stage::Pick, Act::Pick(_)) => Err(Refusal::new("4.1", text!("a pick must be 1, 2 or 3", "只能选1、2或3"))),
            (Stage::Pick, _) => Err(Refusal::new(
                "4.2",
                text!("both seats must pick before the dice are rolled", "双方选择后才能掷骰"),
            )),
            (Stage::Roll, Act::Roll) => Ok(()),
            (_, _) => Err(Refusal::new(
                "4.3",
                text!("the picks are revealed: roll the dice", "选择已公开:请掷骰"),
            )),
        }
    }

    fn carry_out(&mut self, stage: Stage, action: Option<&Act>) {
        let seat = match self.who(&stage) {
            Who::Seat(s) => s,
            _ => 0,
        };
        match (stage, action) {
            (Stage::Start, Some(&Act::Die(d))) => {
                self.first = if d % 2 == 1 { 0 } else { 1 };
                let first = self.first;
                self.journal
                    .say(|| text!("die {d}: seat {first} picks first", "骰子{d}:座位{first}先选"));
                self.next_round();
            }
            (Stage::Pick, Some(&Act::Pick(n))) => {
                self.picks[seat as usize] = Some(n);
                let said = || {
                    text!(
                        "secret pick of seat {seat}: {n}",
                        "secret pick of seat {seat}:{n}(暗选)"
                    )
                };
                self.journal.whisper(seat, said, said);
                match (self.picks[0], self.picks[1]) {
                    (Some(a), Some(b)) => {
                        self.journal.say(|| {
                            text!(
                                "picks revealed: seat 0 chose {a}, seat 1 chose {b}",
                                "公开选择:座位0选{a},座位1选{b}"
                            )
                        });
                        self.engine.push(Stage::Roll);
                    }
                    _ => {
                        self.journal.say(|| text!("seat {seat} has picked", "座位{seat}已选择"));
                        self.engine.push(Stage::Pick);
                    }
                }
            }
            (Stage::Roll, Some(Act::Roll)) => {
                self.journal.say(|| text!("seat {seat} rolls", "座位{seat}掷骰"));
                self.engine.push(Stage::Dice(None));
            }
            (Stage::Dice(None), Some(&Act::Die(d))) => self.engine.push(Stage::Dice(Some(d))),
            (Stage::Dice(Some(r0)), Some(&Act::Die(r1))) => {
                let picks = [self.picks[0].unwrap_or(0), self.picks[1].unwrap_or(0)];
                let rolls = [r0, r1];
                let totals = [picks[0] + rolls[0], picks[1] + rolls[1]];
                let scorer: Option<Seat> = match totals[0].cmp(&totals[1]) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                };
                if let Some(s) = scorer {
                    self.scores[s as usize] += 4 - picks[s as usize] as u32;
                }
                self.last = Some(Round { picks, rolls, scorer });
                let [s0, s1] = self.scores;
                self.journal
                    .say(|| text!("dice {r0} and {r1}; score {s0}–{s1}", "骰子{r0}和{r1};比分{s0}–{s1}"));
                self.picks = [None, None];
                if let Some(s) = scorer {
                    if self.scores[s as usize] >= self.target {
                        self.winner = Some(s);
                        self.journal.heading(|| text!("Seat {s} wins", "座位{s}获胜"));
                        return;
                    }
                }
                self.first = 1 - self.first;
                self.next_round();
            }
            _ => {}
        }
    }

    fn hash_state(&self, h: &mut StateHasher) {
        h.add(&(
            self.target,
            self.scores,
            self.round,
            self.first,
            self.picks,
            self.last,
            self.winner,
        ));
    }

    /// A seat's pick is hidden from the other until both have picked.
    fn hidden_from(&self, seat: Seat, out: &mut Vec<u64>) {
        if self.stage() == Some(Stage::Pick) && self.picks[1 - seat as usize].is_some() {
            out.push(1 - seat as u64);
        }
    }

    fn is_secret(&self, action: &Act) -> bool {
        matches!(action, Act::Pick(_))
    }

    fn title() -> Text {
        text!("Hidden dice race", "暗骰竞赛")
    }

    fn seats() -> Vec<SeatInfo> {
        vec![
            SeatInfo {
                id: "north",
                name: text!("North", "北"),
            },
            SeatInfo {
                id: "south",
                name: text!("South", "南"),
            },
        ]
    }

    fn scenarios() -> Vec<ScenarioInfo> {
        ["standard", "short"]
            .iter()
            .map(|id| ScenarioInfo {
                id: id.to_string(),
                name: text!("{id}", "{id}"),
                reconstructed: false,
                note: Text::default(),
            })
            .collect()
    }

    fn setup(scenario: &str, seed: u64) -> Result<Self, SetupError> {
        match scenario {
            "standard" => Ok(DiceRace::with_target(10, seed)),
            "short" => Ok(DiceRace::with_target(3, seed)),
            other => Err(SetupError(format!("no scenario `{other}`"))),
        }
    }

    fn setup_from_text(text: &str, seed: u64) -> Result<Self, SetupError> {
        Ok(DiceRace::with_target(DiceRace::parse_scenario(text)?, seed))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|w| Outcome {
            winner: Some(w),
            text: text!("seat {w} reached the target", "座位{w}达到目标"),
        })
    }

    fn describe(&self, action: &Act) -> Text {
        match action {
            Act::Pick(n) => text!("secretly pick {n}", "暗选{n}"),
            Act::Roll => text!("roll the dice", "掷骰"),
            Act::Die(d) => text!("die {d}", "骰子{d}"),
        }
    }

    fn notation(&self, action: &Act) -> String {
        match action {
            Act::Pick(n) => format!("pick {n}"),
            Act::Roll => "roll".into(),
            Act::Die(d) => format!("die {d}"),
        }
    }

    fn view(&self, seat: Option<Seat>) -> Value {
        let revealed = matches!(self.stage(), Some(Stage::Roll | Stage::Dice(_)));
        let my_pick = match seat {
            Some(s) if s < 2 => self.picks[s as usize],
            _ => None,
        };
        json!({
            "target": self.target,
            "scores": self.scores,
            "round": self.round,
            "first": self.first,
            "stage": self.stage(),
            "pending": self.pending(),
            "picked": [self.picks[0].is_some(), self.picks[1].is_some()],
            "my_pick": my_pick,
            "revealed": if revealed { json!(self.picks) } else { Value::Null },
            "last": self.last,
            "winner": self.winner,
        })
    }

    fn summary(&self, seat: Option<Seat>, lang: Lang) -> String {
        let mine = match seat {
            Some(s) if s < 2 => self.picks[s as usize].map(|p| format!(" (you picked {p})")),
            _ => None,
        }
        .unwrap_or_default();
        let [a, b] = self.scores;
        match lang {
            Lang::En => format!(
                "Round {}: {a}–{b} of {}; {:?}{mine}",
                self.round,
                self.target,
                self.pending()
            ),
            Lang::Zh => format!(
                "第{}轮:{a}–{b}(目标{});{:?}{mine}",
                self.round,
                self.target,
                self.pending()
            ),
        }
    }

    fn journal(&self, seat: Option<Seat>) -> Vec<JournalLine> {
        self.journal.for_seat(seat, self.winner.is_some())
    }

    fn set_journal(&mut self, on: bool) {
        self.journal.off = !on;
    }

    fn render_svg(&self, _seat: Option<Seat>, _lang: Lang) -> String {
        let [a, b] = self.scores;
        format!(r#"<svg xmlns="http://www.w3.org/2000/svg"><text>{a}–{b}</text></svg>"#)
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------------------

type S = Session<DiceRace>;

fn standard(seed: u64) -> S {
    match S::new(ScenarioSource::Shipped("standard".into()), seed) {
        Ok(s) => s,
        Err(e) => panic!("standard scenario: {e}"),
    }
}

fn load(text: &str) -> S {
    match S::from_json(text) {
        Ok(s) => s,
        Err(e) => panic!("a good save was refused: {e}"),
    }
}

fn load_err(text: &str) -> RecordError {
    match S::from_json(text) {
        Ok(_) => panic!("a damaged save was accepted:\n{text}"),
        Err(e) => e,
    }
}

fn legal(g: &DiceRace) -> Vec<Act> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// One seat decision chosen by `RandomAgent`; false once the game is over.
fn random_step(s: &mut S, rng: &mut Rng) -> bool {
    match s.game.pending() {
        Pending::Over => false,
        Pending::Chance => panic!("a session was left with chance pending"),
        Pending::Seat(seat) => {
            let l = legal(&s.game);
            let i = Agent::<DiceRace>::choose(&mut RandomAgent, &s.game.seat_view(seat), seat, &l, rng);
            if let Err(e) = s.act(seat, &l[i]) {
                panic!("a legal action was refused: {e}");
            }
            true
        }
    }
}

fn play_to_end(s: &mut S, rng: &mut Rng) {
    for _ in 0..100_000 {
        if !random_step(s, rng) {
            return;
        }
    }
    panic!("the game did not end");
}

/// Plays randomly until `want` holds (or panics).
fn advance_until(s: &mut S, rng: &mut Rng, want: impl Fn(&DiceRace) -> bool) {
    for _ in 0..10_000 {
        if want(&s.game) {
            return;
        }
        assert!(random_step(s, rng), "the game ended before the wanted state");
    }
    panic!("never reached the wanted state");
}

/// A round's start: nobody has picked yet and it is `seat`'s turn to pick.
fn round_start_for(seat: Seat) -> impl Fn(&DiceRace) -> bool {
    move |g| g.stage() == Some(Stage::Pick) && g.picks == [None, None] && g.pending() == Pending::Seat(seat)
}

fn finished(seed: u64, agent_seed: u64) -> S {
    let mut s = standard(seed);
    play_to_end(&mut s, &mut Rng::from_seed(agent_seed));
    s
}

fn save_value(s: &S) -> Value {
    serde_json::from_str(&DynSession::to_json(s)).expect("to_json writes JSON")
}

fn entries(v: &mut Value) -> &mut Vec<Value> {
    v["entries"].as_array_mut().expect("entries")
}

fn seat_entries(v: &Value, pred: impl Fn(&Value) -> bool) -> Vec<usize> {
    v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, e)| e.get("seat").is_some() && pred(e))
        .map(|(i, _)| i)
        .collect()
}

fn as_text(lines: &[JournalLine]) -> String {
    serde_json::to_string(lines).unwrap()
}

/// A fresh, empty directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!(
            "sandtable-record-test-{}-{tag}-{}-{nanos}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ---------------------------------------------------------------------------------------------
// The toy game itself and its scenario API.
// ---------------------------------------------------------------------------------------------

#[test]
fn scenarios_load_and_bad_scenario_text_is_refused() {
    let g = DiceRace::new_game("standard", 1).unwrap();
    assert_eq!(g.target, 10);
    assert_eq!(
        g.pending(),
        Pending::Chance,
        "a new game starts with the die for the first seat"
    );
    assert_eq!(DiceRace::new_game("short", 1).unwrap().target, 3);
    assert!(DiceRace::new_game("nonesuch", 1).is_err());
    assert_eq!(DiceRace::scenarios().len(), 2);

    let g = DiceRace::from_scenario_text("# a short race\ntarget = 4\n\n", 1).unwrap();
    assert_eq!(g.target, 4);
    for bad in [
        "",
        "# only a comment",
        "target = x",
        "target = 0",
        "target = 100",
        "speed = 3",
        "target 10",
        "target = 3\ntarget = 4",
    ] {
        let e = DiceRace::from_scenario_text(bad, 1)
            .err()
            .unwrap_or_else(|| panic!("`{bad}` was accepted"));
        assert!(!e.0.is_empty());
    }

    // Through the session: a bad scenario is a setup error, a good text scenario is kept whole
    // in the record and replays.
    match S::new(ScenarioSource::Text("target = many".into()), 1) {
        Err(RecordError::Setup(m)) => assert!(m.contains("whole number"), "{m}"),
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("bad scenario text accepted"),
    }
    assert!(matches!(
        S::new(ScenarioSource::Shipped("nonesuch".into()), 1),
        Err(RecordError::Setup(_))
    ));
    let mut s = S::new(ScenarioSource::Text("target = 3".into()), 9).unwrap();
    play_to_end(&mut s, &mut Rng::from_seed(9));
    assert_eq!(s.record.scenario, ScenarioSource::Text("target = 3".into()));
    let back = load(&s.to_json());
    assert_eq!(back.game.checksum(), s.game.checksum());
    assert!(back.game.scores.iter().any(|&x| x >= 3));
}

// ---------------------------------------------------------------------------------------------
// 1. Determinism.
// ---------------------------------------------------------------------------------------------

#[test]
fn same_seed_and_choices_give_the_same_record() {
    for (seed, agent) in [(1, 11), (2, 22), (77, 5)] {
        let a = finished(seed, agent);
        let b = finished(seed, agent);
        assert_eq!(a.record, b.record);
        assert_eq!(a.to_json(), b.to_json());
        assert_eq!(a.game.checksum(), b.game.checksum());
        assert_eq!(a.journal(None), b.journal(None));
        assert!(a.record.entries.len() > 10, "a whole game has many steps");

        // A different game seed: other dice, so another game, not only another seed field.
        let c = finished(seed + 1000, agent);
        assert_ne!(a.record.entries, c.record.entries);
        assert_ne!(a.game.checksum(), c.game.checksum());
        assert_ne!(as_text(&a.journal(None)), as_text(&c.journal(None)));
    }

    // The game alone is deterministic too, and its checksum does not depend on the log.
    let mut x = DiceRace::new_game("standard", 5).unwrap();
    let mut y = DiceRace::new_game("standard", 5).unwrap();
    y.set_journal(false);
    for g in [&mut x, &mut y] {
        let mut agents: Vec<Box<dyn Agent<DiceRace>>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
        play_out(g, &mut agents, &mut Rng::from_seed(3), 100_000).unwrap();
    }
    assert_eq!(x.checksum(), y.checksum());
    assert_eq!(
        y.journal(None).len(),
        1,
        "only the title, written before the log was switched off"
    );
    assert!(x.journal(None).len() > 10);
}

// ---------------------------------------------------------------------------------------------
// 2. Replay.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_save_replays_to_the_same_state_and_journal() {
    for (seed, agent, steps) in [(3, 4, 0), (3, 4, 1), (3, 4, 7), (8, 1, 25), (8, 1, usize::MAX)] {
        let mut s = standard(seed);
        let mut rng = Rng::from_seed(agent);
        for _ in 0..steps {
            if !random_step(&mut s, &mut rng) {
                break;
            }
        }
        let d: &dyn DynSession = &s;
        let text = d.to_json();
        let back = load(&text);
        assert_eq!(back.game.checksum(), s.game.checksum());
        assert_eq!(back.record, s.record);
        assert_eq!(back.to_json(), text, "saving a loaded game writes the same file");
        for seat in [None, Some(0), Some(1)] {
            assert_eq!(back.journal(seat), s.journal(seat));
            assert_eq!(back.view(seat), s.view(seat));
        }
        assert_eq!(back.pending(), s.pending());
        assert_eq!(back.outcome(), s.outcome());
        assert_eq!(back.legal().len(), s.legal().len());

        // The loaded game goes on exactly like the original.
        let (mut a, mut b) = (s.clone(), back);
        let (mut ra, mut rb) = (Rng::from_seed(99), Rng::from_seed(99));
        play_to_end(&mut a, &mut ra);
        play_to_end(&mut b, &mut rb);
        assert_eq!(a.record, b.record);
        assert_eq!(a.game.checksum(), b.game.checksum());
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Damaged saves.
// ---------------------------------------------------------------------------------------------

fn corrupt_at(e: &RecordError) -> usize {
    match e {
        RecordError::Corrupt { step, why } => {
            assert!(!why.is_empty());
            let msg = e.to_string();
            assert!(
                msg.contains(&format!("step {step}")),
                "message does not name the step: {msg}"
            );
            *step
        }
        other => panic!("expected a corrupt-step error, got: {other}"),
    }
}

#[test]
fn damaged_saves_are_refused_with_a_clear_error() {
    let s = finished(21, 12);
    let good = save_value(&s);
    let n = good["entries"].as_array().unwrap().len();
    assert!(n > 20);
    load(&good.to_string());

    // A changed checksum: refused at that very step.
    for k in [0, 1, n / 2, n - 1] {
        let mut v = good.clone();
        let sum = entries(&mut v)[k]["checksum"].as_str().unwrap().to_string();
        let flipped: String = sum
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i == 15 {
                    if c == '0' {
                        '1'
                    } else {
                        '0'
                    }
                } else {
                    c
                }
            })
            .collect();
        entries(&mut v)[k]["checksum"] = json!(flipped);
        let e = load_err(&v.to_string());
        assert_eq!(corrupt_at(&e), k + 1);
        assert!(e.to_string().contains(&flipped), "{e}");
    }

    // An action edited to an illegal one: refused at that step, with the rule it breaks.
    let picks = seat_entries(&good, |e| e["action"].get("Pick").is_some());
    let rolls = seat_entries(&good, |e| e["action"] == json!("Roll"));
    assert!(picks.len() > 4 && rolls.len() > 2);
    let k = picks[picks.len() / 2];
    let mut v = good.clone();
    entries(&mut v)[k]["action"] = json!({ "Pick": 9 });
    let e = load_err(&v.to_string());
    assert_eq!(corrupt_at(&e), k + 1);
    assert!(e.to_string().contains("4.1"), "the rule is named: {e}");
    // …to the other kind of action…
    let mut v = good.clone();
    entries(&mut v)[k]["action"] = json!("Roll");
    assert_eq!(corrupt_at(&load_err(&v.to_string())), k + 1);
    // …to another legal pick (the checksum catches it)…
    let mut v = good.clone();
    let was = v["entries"][k]["action"]["Pick"].as_u64().unwrap();
    entries(&mut v)[k]["action"] = json!({ "Pick": if was == 1 { 2 } else { 1 } });
    assert_eq!(corrupt_at(&load_err(&v.to_string())), k + 1);
    // …to something that is no action at all…
    let mut v = good.clone();
    entries(&mut v)[k]["action"] = json!({ "Jump": [1, 2] });
    let e = load_err(&v.to_string());
    assert_eq!(corrupt_at(&e), k + 1);
    // …or given to the other seat.
    let mut v = good.clone();
    let seat = v["entries"][k]["seat"].as_u64().unwrap();
    entries(&mut v)[k]["seat"] = json!(1 - seat);
    assert_eq!(corrupt_at(&load_err(&v.to_string())), k + 1);
    // A seat step without its action, a chance step with one.
    let mut v = good.clone();
    entries(&mut v)[k].as_object_mut().unwrap().remove("action");
    assert_eq!(corrupt_at(&load_err(&v.to_string())), k + 1);

    // Entries removed from the middle, one at a time (every kind of step), or duplicated.
    for k in [picks[2], picks[3], rolls[1], rolls[1] + 1, n / 2] {
        let mut v = good.clone();
        entries(&mut v).remove(k);
        corrupt_at(&load_err(&v.to_string()));
        let mut v = good.clone();
        let dup = v["entries"][k].clone();
        entries(&mut v).insert(k, dup);
        corrupt_at(&load_err(&v.to_string()));
    }
    // A step after the end of the game.
    let mut v = good.clone();
    let last = v["entries"][n - 1].clone();
    entries(&mut v).push(last);
    assert_eq!(corrupt_at(&load_err(&v.to_string())), n + 1);

    // Another seed: the first die differs, step 1 is refused.
    let mut v = good.clone();
    v["seed"] = json!(s.record.seed + 1);
    assert_eq!(corrupt_at(&load_err(&v.to_string())), 1);

    // A wrong game id.
    let mut v = good.clone();
    v["game"] = json!("stalingrad-blitz");
    match load_err(&v.to_string()) {
        e @ RecordError::WrongGame { .. } => {
            let m = e.to_string();
            assert!(m.contains("stalingrad-blitz") && m.contains(DiceRace::ID), "{m}");
        }
        e => panic!("wrong error: {e}"),
    }

    // A wrong format number.
    let mut v = good.clone();
    v["format"] = json!(FORMAT + 1);
    match load_err(&v.to_string()) {
        RecordError::Format(f) => assert_eq!(f, FORMAT + 1),
        e => panic!("wrong error: {e}"),
    }

    // A scenario edited into nonsense.
    let mut v = good.clone();
    v["scenario"] = json!({ "shipped": "nonesuch" });
    assert!(matches!(load_err(&v.to_string()), RecordError::Setup(_)));
    let mut v = good.clone();
    v["scenario"] = json!({ "text": "target = -1" });
    assert!(matches!(load_err(&v.to_string()), RecordError::Setup(_)));

    // Not a save file at all: truncated JSON, random bytes, an empty file, other JSON.
    let text = DynSession::to_json(&s);
    let mut junk = Vec::new();
    let mut r = Rng::from_seed(404);
    for _ in 0..4096 {
        junk.push(r.below(256) as u8);
    }
    let junk = String::from_utf8_lossy(&junk).into_owned();
    for bad in [
        &text[..text.len() / 2],
        &text[..text.len() - 1],
        junk.as_str(),
        "",
        "   \n",
        "null",
        "[]",
        "{}",
        "42",
        r#"{"format":1,"game":"hidden-dice-race"}"#,
    ] {
        match load_err(bad) {
            e @ RecordError::Parse(_) => assert!(e.to_string().starts_with("not a Sandtable save file"), "{e}"),
            e => panic!("wrong error for {bad:?}: {e}"),
        }
    }
}

/// A save whose barrier flag was cleared by hand would let a seat take back a reveal after
/// seeing the other seat's pick. Replay should refuse a step whose recorded barrier differs
/// from what applying the action reported.
#[test]
fn a_save_with_a_barrier_flag_cleared_is_refused() {
    let mut s = standard(4);
    let mut rng = Rng::from_seed(4);
    // Stop right after a reveal: the last entry is the second pick, a barrier.
    advance_until(&mut s, &mut rng, |g| g.stage() == Some(Stage::Roll));
    let revealer = 1 - s.game.first;
    assert!(s.record.entries.last().unwrap().barrier);
    assert!(!s.can_undo(revealer));
    let mut v = save_value(&s);
    let last = entries(&mut v).len() - 1;
    entries(&mut v)[last]["barrier"] = json!(false);
    match S::from_json(&v.to_string()) {
        Err(_) => {}
        Ok(mut cheat) => {
            let undone = cheat.undo(revealer).is_ok();
            panic!(
                "a save with a reveal's barrier cleared was accepted (and undo across the reveal succeeded: {undone})"
            );
        }
    }
}

/// A save cut just before its last chance step loads, but the game is then stuck on chance:
/// `Session::act` refuses every seat and nothing resolves the chance.
#[test]
fn a_save_cut_before_a_chance_step_is_refused_or_resolved() {
    let s = finished(6, 6);
    let mut v = save_value(&s);
    let roll = *seat_entries(&v, |e| e["action"] == json!("Roll")).first().unwrap();
    entries(&mut v).truncate(roll + 1);
    if let Ok(loaded) = S::from_json(&v.to_string()) {
        assert_ne!(
            loaded.pending(),
            Pending::Chance,
            "a loaded session was left with chance pending: no seat can act"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Refusals.
// ---------------------------------------------------------------------------------------------

#[test]
fn refused_actions_leave_the_state_unchanged_and_name_the_rule() {
    let mut s = standard(13);
    let mut rng = Rng::from_seed(13);
    for round in 0..3 {
        // At a round's start (Pick stage, nobody picked).
        advance_until(&mut s, &mut rng, |g| {
            g.stage() == Some(Stage::Pick) && g.picks == [None, None]
        });
        let Pending::Seat(seat) = s.game.pending() else {
            unreachable!()
        };
        let other = 1 - seat;
        let cases: Vec<(Seat, Act, &str)> = vec![
            (seat, Act::Pick(0), "4.1"),
            (seat, Act::Pick(4), "4.1"),
            (seat, Act::Pick(255), "4.1"),
            (seat, Act::Roll, "4.2"),
        ];
        for (who, act, rule) in cases {
            let (sum, len, view, log) = (
                s.game.checksum(),
                s.record.entries.len(),
                s.view(None),
                s.journal(Some(seat)),
            );
            match s.act(who, &act) {
                Err(RecordError::Refused(r)) => {
                    assert_eq!(r.rule, rule, "{act:?}");
                    assert!(r.message(Lang::En).starts_with(&format!("{rule}: ")));
                    assert!(r.message(Lang::Zh).starts_with(&format!("{rule}: ")));
                }
                Err(e) => panic!("wrong error: {e}"),
                Ok(_) => panic!("{act:?} accepted in round {round}"),
            }
            assert_eq!(s.game.checksum(), sum);
            assert_eq!(s.record.entries.len(), len);
            assert_eq!(s.view(None), view);
            assert_eq!(s.journal(Some(seat)), log);
        }
        // The other seat out of turn: the session refuses it, and so does the game itself,
        // saying who decides.
        let sum = s.game.checksum();
        let len = s.record.entries.len();
        assert!(matches!(s.act(other, &Act::Pick(2)), Err(RecordError::Refused(_))));
        assert_eq!((s.game.checksum(), s.record.entries.len()), (sum, len));
        let mut g = s.game.clone();
        let who = DiceRace::seats()[seat as usize].name.en.clone();
        assert_eq!(
            g.apply(other, &Act::Pick(2)).unwrap_err().text.en,
            format!("{who} decides now")
        );
        assert!(g.apply(7, &Act::Pick(2)).is_err());
        assert_eq!(g.checksum(), sum);

        // After the reveal: picking again is refused.
        s.act(seat, &Act::Pick(2)).unwrap();
        s.act(other, &Act::Pick(3)).unwrap();
        let sum = s.game.checksum();
        let len = s.record.entries.len();
        match s.act(seat, &Act::Pick(1)) {
            Err(RecordError::Refused(r)) => assert_eq!(r.rule, "4.3"),
            _ => panic!("a pick after the reveal was accepted"),
        }
        assert_eq!((s.game.checksum(), s.record.entries.len()), (sum, len));
    }

    // The game refuses during chance and after the end, unchanged.
    let mut g = DiceRace::new_game("standard", 1).unwrap();
    let sum = g.checksum();
    assert_eq!(g.apply(0, &Act::Pick(1)).unwrap_err().text.en, "chance must act first");
    assert_eq!(g.checksum(), sum);
    let mut s = finished(2, 2);
    let mut g = s.game.clone();
    let sum = g.checksum();
    assert_eq!(g.apply(0, &Act::Roll).unwrap_err().text.en, "the game is over");
    assert_eq!(g.checksum(), sum);
    let len = s.record.entries.len();
    assert!(s.act(0, &Act::Pick(1)).is_err() && s.act(1, &Act::Roll).is_err());
    assert_eq!((s.game.checksum(), s.record.entries.len()), (sum, len));
}

// ---------------------------------------------------------------------------------------------
// 5. Undo.
// ---------------------------------------------------------------------------------------------

#[test]
fn undo_takes_back_only_a_seats_own_last_unrevealed_action() {
    let mut s = standard(31);
    let mut rng = Rng::from_seed(31);
    // Nothing to undo at the start: the first step was the die.
    assert!(!s.can_undo(0) && !s.can_undo(1));
    assert!(matches!(s.undo(0), Err(RecordError::Undo(_))));

    for round in 0..4 {
        advance_until(&mut s, &mut rng, |g| {
            g.stage() == Some(Stage::Pick) && g.picks == [None, None]
        });
        let Pending::Seat(a) = s.game.pending() else {
            unreachable!()
        };
        let b = 1 - a;
        let before = s.clone();

        // The first pick is a's own and reveals nothing: a may take it back…
        s.act(a, &Act::Pick(3)).unwrap();
        assert!(!s.record.entries.last().unwrap().barrier);
        assert!(s.can_undo(a));
        // …but b may not undo a's action.
        assert!(!s.can_undo(b));
        let (sum, len) = (s.game.checksum(), s.record.entries.len());
        assert!(matches!(s.undo(b), Err(RecordError::Undo(_))));
        assert_eq!((s.game.checksum(), s.record.entries.len()), (sum, len));

        s.undo(a).unwrap();
        assert_eq!(s.game.checksum(), before.game.checksum(), "round {round}");
        assert_eq!(s.record, before.record);
        assert_eq!(s.journal(Some(a)), before.journal(Some(a)), "the whisper is gone too");
        assert_eq!(s.pending(), Pending::Seat(a));
        // Only one step back: the step before was chance.
        assert!(!s.can_undo(a));
        assert!(s.undo(a).is_err());
        assert_eq!(s.game.checksum(), before.game.checksum());

        // Pick again, differently; the game goes on from there.
        s.act(a, &Act::Pick(1)).unwrap();
        assert_eq!(s.view(Some(a))["my_pick"], json!(1));

        // The second pick reveals both: a barrier, nobody may undo.
        let revealed = s.act(b, &Act::Pick(2)).unwrap();
        assert!(revealed, "the core sees what the second pick revealed");
        assert!(!s.can_undo(a) && !s.can_undo(b));
        let sum = s.game.checksum();
        assert!(s.undo(b).is_err() && s.undo(a).is_err());
        assert_eq!(s.game.checksum(), sum);

        // The roll reveals nothing itself; the dice after it are barriers.
        let revealed = s.act(a, &Act::Roll).unwrap();
        assert!(!revealed);
        assert!(s.record.entries.last().is_some_and(|e| e.seat.is_none() && e.barrier));
        assert!(!s.can_undo(a) && !s.can_undo(b));
        assert!(s.undo(a).is_err() && s.undo(b).is_err());
        if s.game.pending() == Pending::Over {
            break;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 6. Typed actions.
// ---------------------------------------------------------------------------------------------

#[test]
fn act_typed_accepts_notation_and_numbers_and_refuses_the_rest() {
    let mut s = standard(17);
    let d: &mut dyn DynSession = &mut s;
    assert_eq!(d.game_id(), DiceRace::ID);
    let Pending::Seat(a) = d.pending() else {
        panic!("a seat picks first")
    };
    let b = 1 - a;
    let names: Vec<String> = d.legal().iter().map(|l| l.notation.clone()).collect();
    assert_eq!(names, ["pick 1", "pick 2", "pick 3"]);
    assert_eq!(d.legal()[1].action, json!({ "Pick": 2 }));
    assert_eq!(d.legal()[1].text.en, "secretly pick 2");

    for bad in [
        "pick 4",
        "pick",
        "jump",
        "",
        "0",
        "4",
        "-1",
        "99999999999999999999999",
        "roll",
    ] {
        let len = d.record().entries.len();
        match d.act_typed(a, bad) {
            Err(RecordError::Refused(r)) => assert!(!r.message(Lang::En).is_empty()),
            Err(e) => panic!("wrong error for {bad:?}: {e}"),
            Ok(()) => panic!("{bad:?} was accepted"),
        }
        assert_eq!(d.record().entries.len(), len);
        assert_eq!(d.pending(), Pending::Seat(a));
    }
    // The other seat cannot act, by text or number.
    assert!(d.act_typed(b, "pick 1").is_err());
    assert!(d.act_typed(b, "1").is_err());

    // By notation, with loose spacing and case.
    d.act_typed(a, "  PICK   2 ").unwrap();
    assert_eq!(d.record().entries.last().unwrap().action, Some(json!({ "Pick": 2 })));
    assert_eq!(d.view(Some(a))["my_pick"], json!(2));
    // By 1-based number.
    d.act_typed(b, "3").unwrap();
    assert_eq!(d.record().entries.last().unwrap().action, Some(json!({ "Pick": 3 })));
    assert_eq!(d.view(None)["revealed"], json!(if a == 0 { [2, 3] } else { [3, 2] }));
    // The roll is the only action now.
    assert_eq!(
        d.legal().iter().map(|l| l.notation.as_str()).collect::<Vec<_>>(),
        ["roll"]
    );
    assert!(d.act_typed(a, "2").is_err());
    assert!(d.act_typed(a, "pick 1").is_err());
    d.act_typed(a, "1").unwrap();
    assert!(matches!(d.pending(), Pending::Seat(_) | Pending::Over));

    // act_json: the JSON form, refused when malformed or illegal.
    if let Pending::Seat(x) = d.pending() {
        assert!(d.act_json(x, &json!("Fly")).is_err());
        assert!(d.act_json(x, &json!({ "Pick": 5 })).is_err());
        d.act_json(x, &json!({ "Pick": 1 })).unwrap();
        assert!(d.can_undo(x));
        d.undo(x).unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Atomic writes.
// ---------------------------------------------------------------------------------------------

#[test]
fn write_atomic_writes_whole_files_and_fails_cleanly() {
    let dir = TempDir::new("atomic");
    let path = dir.path().join("game.json");

    // A whole file, even a big one.
    let big: String = (0..200_000).map(|i| format!("{i},")).collect();
    write_atomic(&path, &big).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), big);
    assert_eq!(dir.names(), ["game.json"], "no temporary file is left behind");

    // Replaces an existing file completely (a shorter text leaves no tail).
    write_atomic(&path, "short").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "short");
    write_atomic(&path, "").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
    assert_eq!(dir.names(), ["game.json"]);

    // A save goes through it and loads again.
    let s = finished(5, 5);
    write_atomic(&path, &s.to_json()).unwrap();
    let back = load(&std::fs::read_to_string(&path).unwrap());
    assert_eq!(back.game.checksum(), s.game.checksum());
    assert_eq!(dir.names(), ["game.json"]);
    let saved = std::fs::read_to_string(&path).unwrap();

    // The target directory does not exist: an error, nothing created anywhere.
    let missing = dir.path().join("no-such-dir").join("game.json");
    assert!(write_atomic(&missing, "x").is_err());
    assert!(!dir.path().join("no-such-dir").exists());
    assert_eq!(dir.names(), ["game.json"]);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        saved,
        "the old file is untouched"
    );

    // The "directory" is the old save file itself: an error, the old file untouched.
    assert!(write_atomic(&path.join("inner.json"), "x").is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), saved);
    assert_eq!(dir.names(), ["game.json"]);

    // The target is a directory: an error, the directory and its content untouched, no
    // temporary file left.
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("keep"), "kept").unwrap();
    assert!(write_atomic(&sub, "x").is_err());
    assert_eq!(std::fs::read_to_string(sub.join("keep")).unwrap(), "kept");
    assert_eq!(dir.names(), ["game.json", "sub"]);
}

/// Two threads of one process (the server autosaving one game from two requests) write the
/// same file: each write must land whole, and none may fail.
#[test]
fn write_atomic_from_two_threads_never_mixes_or_fails() {
    let dir = TempDir::new("atomic-threads");
    let path = dir.path().join("game.json");
    let texts: Vec<String> = (0..4).map(|t| format!("{t}").repeat(1000 * (t + 1))).collect();
    let errors = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|sc| {
        let (path, errors, texts) = (&path, &errors, &texts);
        for t in texts {
            sc.spawn(move || {
                for _ in 0..300 {
                    if write_atomic(path, t).is_err() {
                        errors.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    }
                    if let Ok(now) = std::fs::read_to_string(path) {
                        assert!(
                            texts.contains(&now),
                            "a reader saw a mixed or partial file ({} bytes)",
                            now.len()
                        );
                    }
                }
            });
        }
    });
    assert_eq!(errors.into_inner(), 0, "concurrent writes failed");
    assert!(texts.contains(&std::fs::read_to_string(&path).unwrap()));
    assert_eq!(dir.names(), ["game.json"]);
}

// ---------------------------------------------------------------------------------------------
// 8. Simulations.
// ---------------------------------------------------------------------------------------------

#[test]
fn random_play_always_ends_with_a_winner() {
    let mut wins = [0u32; 2];
    for seed in 0..200u64 {
        let mut g = DiceRace::new_game("standard", seed).unwrap();
        if seed % 2 == 0 {
            g.set_journal(false);
        }
        let mut agents: Vec<Box<dyn Agent<DiceRace>>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
        let mut rng = Rng::from_seed(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let n = match play_out(&mut g, &mut agents, &mut rng, 100_000) {
            Ok(n) => n,
            Err(r) => panic!("seed {seed}: {r}"),
        };
        assert_eq!(g.pending(), Pending::Over, "seed {seed}");
        assert!(n >= 4, "seed {seed}: {n} decisions");
        let out = g
            .outcome()
            .unwrap_or_else(|| panic!("seed {seed}: over without an outcome"));
        let w = out.winner.unwrap_or_else(|| panic!("seed {seed}: no winner"));
        assert!(g.scores[w as usize] >= g.target && g.scores[1 - w as usize] < g.target);
        wins[w as usize] += 1;
    }
    assert!(wins[0] > 20 && wins[1] > 20, "both seats win sometimes: {wins:?}");

    // The decision cap stops a game early.
    let mut g = DiceRace::new_game("standard", 1).unwrap();
    let mut agents: Vec<Box<dyn Agent<DiceRace>>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
    assert_eq!(play_out(&mut g, &mut agents, &mut Rng::from_seed(1), 3).unwrap(), 3);
    assert!(matches!(g.pending(), Pending::Seat(_)));
}

// ---------------------------------------------------------------------------------------------
// 9. Hidden information.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_seats_pick_is_hidden_from_the_other_until_revealed() {
    let mut s = standard(50);
    let mut rng = Rng::from_seed(50);
    for round in 0..3 {
        advance_until(&mut s, &mut rng, round_start_for(0));
        let base = s.clone();
        let mut views1 = Vec::new();
        let mut views0 = Vec::new();
        for pick in 1..=3u8 {
            let mut t = base.clone();
            t.act(0, &Act::Pick(pick)).unwrap();
            let v1 = serde_json::to_string(&t.view(Some(1))).unwrap();
            let j1 = as_text(&t.journal(Some(1)));
            let spectator = serde_json::to_string(&t.view(None)).unwrap() + &as_text(&t.journal(None));
            for (what, text) in [
                ("view(Some(1))", &v1),
                ("journal(Some(1))", &j1),
                ("spectator", &spectator),
            ] {
                assert!(
                    !text.contains(&format!("{SECRET} 0")),
                    "round {round}: {what} shows seat 0's secret line: {text}"
                );
                assert!(
                    !text.contains(&format!("\"my_pick\":{pick}")),
                    "round {round}: {what}: {text}"
                );
            }
            assert!(!t.summary(Some(1), Lang::En).contains("picked"));
            assert!(!t.summary(Some(1), Lang::Zh).contains("picked"));
            // Seat 0 sees its own pick; seat 1 only that seat 0 has picked.
            assert_eq!(t.view(Some(0))["my_pick"], json!(pick));
            assert!(as_text(&t.journal(Some(0))).contains(&format!("{SECRET} 0: {pick}")));
            assert_eq!(t.view(Some(1))["picked"], json!([true, false]));
            views1.push((v1, j1, t.summary(Some(1), Lang::En), t.render_svg(Some(1), Lang::En)));
            views0.push(serde_json::to_string(&t.view(Some(0))).unwrap());
        }
        // Seat 1 cannot tell the three picks apart at all; seat 0 can.
        assert!(
            views1.iter().all(|v| *v == views1[0]),
            "round {round}: seat 1's view depends on seat 0's pick"
        );
        assert!(views0[0] != views0[1] && views0[1] != views0[2]);

        // Seat 1's own pick reveals both picks to everyone; seat 0's secret journal line
        // stays private until the end.
        s.act(0, &Act::Pick(2)).unwrap();
        s.act(1, &Act::Pick(1)).unwrap();
        assert_eq!(s.view(Some(1))["revealed"], json!([2, 1]));
        assert!(as_text(&s.journal(Some(1))).contains("seat 0 chose 2"));
        assert!(!as_text(&s.journal(Some(1))).contains(&format!("{SECRET} 0")));
        assert!(!as_text(&s.journal(Some(0))).contains(&format!("{SECRET} 1")));
    }

    // Finish the game: now every journal shows everything.
    play_to_end(&mut s, &mut Rng::from_seed(51));
    let all = s.journal(None);
    assert_eq!(s.journal(Some(0)), all);
    assert_eq!(s.journal(Some(1)), all);
    let text = as_text(&s.journal(Some(1)));
    let seat0_picks = s
        .record
        .entries
        .iter()
        .filter(|e| e.seat == Some(0) && e.action != Some(json!("Roll")))
        .count();
    assert!(seat0_picks > 3);
    assert_eq!(
        text.matches(&format!("{SECRET} 0")).count(),
        seat0_picks * 2,
        "every secret line, in both languages"
    );
    assert_eq!(
        text.matches(&format!("{SECRET} 1")).count(),
        (s.record
            .entries
            .iter()
            .filter(|e| e.seat == Some(1) && e.action != Some(json!("Roll")))
            .count())
            * 2
    );
}

// ---------------------------------------------------------------------------------------------
// A game whose action serializes to JSON `null`.
// ---------------------------------------------------------------------------------------------

/// Each seat in turn says "pass" (the unit action); after four passes the game is over.
#[derive(Clone, Debug)]
struct Passes {
    engine: Engine<(), u8>,
}

impl Rules for Passes {
    type Action = ();
    type View<'a> = &'a Passes;
    fn seat_view(&self, _: Seat) -> &Passes {
        self
    }
    fn sample(view: &&Passes, _: &mut Rng) -> Passes {
        (*view).clone()
    }
    /// The passes left.
    type Frame = u8;
    const ID: &'static str = "passes";
    fn engine(&self) -> &Engine<(), u8> {
        &self.engine
    }
    fn engine_mut(&mut self) -> &mut Engine<(), u8> {
        &mut self.engine
    }
    fn who(&self, left: &u8) -> Who {
        Who::Seat(left % 2)
    }
    fn legal(&self, _: &u8, out: &mut Vec<()>) {
        out.push(());
    }
    fn check(&self, _: &u8, _: &()) -> Result<(), Refusal> {
        Ok(())
    }
    fn carry_out(&mut self, left: u8, _: Option<&()>) {
        if left > 1 {
            self.engine.push(left - 1);
        }
    }
    fn hash_state(&self, _: &mut StateHasher) {}
    fn title() -> Text {
        text!("Passes", "过")
    }
    fn seats() -> Vec<SeatInfo> {
        DiceRace::seats()
    }
    fn scenarios() -> Vec<ScenarioInfo> {
        Vec::new()
    }
    fn setup(_: &str, seed: u64) -> Result<Self, SetupError> {
        Ok(Passes {
            engine: Engine::new(seed, vec![4]),
        })
    }
    fn setup_from_text(_: &str, seed: u64) -> Result<Self, SetupError> {
        Passes::setup("", seed)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.engine.top().is_none().then(|| Outcome {
            winner: None,
            text: text!("draw", "和"),
        })
    }
    fn describe(&self, _: &()) -> Text {
        text!("pass", "过")
    }
    fn notation(&self, _: &()) -> String {
        "pass".into()
    }
    fn view(&self, _: Option<Seat>) -> Value {
        json!(self.engine.top())
    }
    fn summary(&self, _: Option<Seat>, _: Lang) -> String {
        String::new()
    }
    fn journal(&self, _: Option<Seat>) -> Vec<JournalLine> {
        Vec::new()
    }
    fn set_journal(&mut self, _: bool) {}
    fn render_svg(&self, _: Option<Seat>, _: Lang) -> String {
        String::new()
    }
}

/// `Entry::action` is an `Option<Value>` with `#[serde(default)]`: an action whose JSON is
/// `null` is written as `"action": null` and read back as `None`, so the save is refused.
#[test]
fn a_save_of_a_game_whose_action_is_null_loads() {
    let mut s = Session::<Passes>::new(ScenarioSource::Shipped("any".into()), 1).unwrap();
    s.act(0, &()).unwrap();
    s.act(1, &()).unwrap();
    let text = DynSession::to_json(&s);
    let rec: Record = serde_json::from_str(&text).unwrap();
    assert_eq!(rec, s.record, "the record does not survive its own JSON");
    if let Err(e) = Session::<Passes>::from_json(&text) {
        panic!("a save of a legal game was refused: {e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Any mix of actions, refusals, undos and reloads keeps the record consistent.
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_record_always_replays_to_the_live_state(
        seed in 0u64..10_000,
        ops in prop::collection::vec((0u8..5, 0u8..8), 1..120),
    ) {
        let mut s = standard(seed);
        for (kind, arg) in ops {
            let (sum, len) = (s.game.checksum(), s.record.entries.len());
            let mut l = Vec::new();
            s.game.legal_actions(&mut l);
            match kind {
                0..=2 => {
                    if let Pending::Seat(seat) = s.game.pending() {
                        let a = l[arg as usize % l.len()];
                        prop_assert!(s.act(seat, &a).is_ok());
                        prop_assert!(s.record.entries.len() > len);
                    }
                }
                3 => {
                    let seat = arg % 2;
                    let a = if arg >= 6 { Act::Roll } else { Act::Pick(arg) };
                    let ok = s.game.pending() == Pending::Seat(seat) && l.contains(&a);
                    let r = s.act(seat, &a);
                    prop_assert_eq!(r.is_ok(), ok);
                    if !ok {
                        prop_assert_eq!((s.game.checksum(), s.record.entries.len()), (sum, len));
                    }
                }
                _ => {
                    let seat = arg % 2;
                    let could = s.can_undo(seat);
                    let r = s.undo(seat);
                    prop_assert_eq!(r.is_ok(), could);
                    if could {
                        prop_assert_eq!(s.record.entries.len(), len - 1);
                    } else {
                        prop_assert_eq!((s.game.checksum(), s.record.entries.len()), (sum, len));
                    }
                }
            }
            prop_assert!(s.game.pending() != Pending::Chance);
            let back = S::from_json(&DynSession::to_json(&s));
            prop_assert!(back.is_ok());
            let back = back.ok().unwrap();
            prop_assert_eq!(back.game.checksum(), s.game.checksum());
            prop_assert_eq!(back.journal(Some(0)), s.journal(Some(0)));
        }
    }
}

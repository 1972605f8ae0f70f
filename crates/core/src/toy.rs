//! *Bridgehead*: a whole game in a few frames, written on the decision driver
//! ([`crate::driver`]) the way every rule system in Sandtable is. Read this first.
//!
//! ## The rules
//!
//! - **T1 The map.** A road of seven spaces, 0 to 6. Space 6 is the town. A bridge joins
//!   spaces 3 and 4.
//! - **T2 Set-up.** Red's two companies, A and B, stand on space 0; Blue's platoon holds the
//!   town. Blue secretly decides whether the bridge is mined.
//! - **T3 Movement.** Each turn Red may move each company once, up to two spaces toward the
//!   town. No company may enter the town by moving, nor cross a blown bridge.
//! - **T4 The bridge.** When a company comes to space 3 and would cross, Blue may blow a mined
//!   bridge. The company stops on space 3; the bridge is gone for good.
//! - **T5 Combat.** Red's companies on space 5 may attack the town once a turn. Roll a die:
//!   1–2, the attack fails; 3–4, Blue chooses to retreat (giving up the town) or to stand and
//!   lose a step (a second step lost destroys the platoon); 5–6, Blue loses a step.
//! - **T6 Victory.** Red wins as soon as the town is empty; Blue wins if Red has not taken it
//!   by the end of turn 3.
//!
//! ## How it is written
//!
//! The state is plain data ([`Bridgehead`]) with an [`Engine`] inside. Each step of the
//! procedure is a [`Frame`]; the five answers of [`Rules`] are a `match` on it. Note:
//!
//! - **One check per rule.** [`Bridgehead::may_move`] says whether a move is legal and why not;
//!   the legal list is the moves it accepts, and `check` is the same function.
//! - **A move is walked space by space.** `Move` is a shorthand for "along the road to here"; a
//!   [`Frame::March`] takes one step each time it runs, and the bridge window (T4) opens on top
//!   of it at the step where the company reaches the bridge. When Blue has answered, the march
//!   goes on (or stops) from where it was.
//! - **Chance is a frame.** [`Frame::Roll`] lists the six faces of a die; the core draws one
//!   and hands it to `carry_out` like any action. Nothing here touches the generator.
//! - **Hidden information** is declared, not guarded by hand: whether the bridge is mined is
//!   hidden from Red ([`Rules::hidden_from`]) until Blue blows it, so blowing it is a step
//!   nobody may undo, and nobody had to say so.

use crate::checksum::StateHasher;
use crate::driver::{Engine, Rules, Who};
use crate::game::{Journal, JournalLine, Outcome, Refusal, ScenarioInfo, Seat, SeatInfo, SetupError};
use crate::text;
use crate::text::{Lang, Text};
use serde::{Deserialize, Serialize};

/// Red attacks; Blue defends.
pub const RED: Seat = 0;
pub const BLUE: Seat = 1;

/// The town (T1).
pub const TOWN: u8 = 6;
/// The bridge joins these two spaces (T1).
pub const BRIDGE: (u8, u8) = (3, 4);
/// The last turn (T6).
pub const LAST_TURN: u8 = 3;

/// One decision, or one face of a die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "do")]
pub enum Action {
    /// T2: Blue mines the bridge, or not (secret).
    Mine {
        mined: bool,
    },
    /// T3: move a company along the road to a space.
    Move {
        company: u8,
        to: u8,
    },
    EndMovement,
    /// T4: Blue blows the bridge, or lets the company cross.
    Blow {
        blow: bool,
    },
    /// T5: attack the town with every company on space 5, or not.
    Attack,
    EndCombat,
    /// A face of the combat die.
    Die {
        face: u8,
    },
    /// T5: Blue's answer to a 3–4.
    Retreat,
    Stand,
}

/// The procedures of a game, as they sit on the stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Frame {
    /// T2: Blue mines the bridge or not.
    SetUp,
    /// Plays a turn: pushes its phases, then ends it (automatic).
    Turn { turn: u8, begun: bool },
    /// T3: Red moves companies, one at a time.
    Movement,
    /// A company on its way: `route` is what is left to walk (automatic). `warned`: Blue has
    /// had the bridge window for the next step.
    March { company: u8, route: Vec<u8>, warned: bool },
    /// T4: the company stands on space 3 about to cross; Blue may blow the bridge. The march
    /// waits below.
    BridgeWindow { company: u8 },
    /// T5: Red attacks or not.
    Combat,
    /// T5: the combat die.
    Roll,
    /// T5: Blue retreats or stands on a 3–4.
    StandOrRetreat,
}

/// A game of Bridgehead: the board, the engine, the log.
#[derive(Clone, Debug)]
pub struct Bridgehead {
    engine: Engine<Action, Frame>,
    /// Where each company is; `None` once destroyed (never, here: kept for clarity).
    companies: [Option<u8>; 2],
    /// Which companies have moved this turn.
    moved: [bool; 2],
    /// Blue's platoon: steps left (2, 1, or 0: gone).
    platoon: u8,
    mined: bool,
    blown: bool,
    turn: u8,
    winner: Option<Seat>,
    journal: Journal,
}

impl Bridgehead {
    /// The spaces a company moves through to reach `to`, not counting where it stands.
    fn route(from: u8, to: u8) -> Vec<u8> {
        (from + 1..=to).collect()
    }

    /// T3: whether `company` may move to `to` now, and if not the rule it breaks.
    pub fn may_move(&self, company: u8, to: u8) -> Result<(), Refusal> {
        let Some(Some(at)) = self.companies.get(company as usize) else {
            return Err(Refusal::new("T2", text!("there is no such company", "没有这个连")));
        };
        if self.moved[company as usize] {
            return Err(Refusal::new(
                "T3",
                text!("that company has moved this turn", "该连本回合已经移动过"),
            ));
        }
        if to <= *at || to > at + 2 {
            return Err(Refusal::new(
                "T3",
                text!(
                    "a company moves one or two spaces toward the town",
                    "连每回合向城镇方向移动一到两格"
                ),
            ));
        }
        if to == TOWN {
            return Err(Refusal::new(
                "T3",
                text!(
                    "the town is taken by combat, not by moving",
                    "城镇只能通过战斗夺取,不能移动进入"
                ),
            ));
        }
        if self.blown && *at <= BRIDGE.0 && to >= BRIDGE.1 {
            return Err(Refusal::new("T4", text!("the bridge is blown", "桥已被炸毁")));
        }
        Ok(())
    }

    /// T5: the companies on space 5, who may attack.
    fn attackers(&self) -> Vec<u8> {
        (0..2).filter(|&c| self.companies[c as usize] == Some(5)).collect()
    }

    /// T5: Blue loses a step; T6: the town falls when the platoon is gone.
    fn lose_step(&mut self) {
        self.platoon = self.platoon.saturating_sub(1);
        let left = self.platoon;
        self.journal.say(|| {
            text!(
                "The platoon loses a step ({left} left).",
                "守军排损失一步(剩 {left} 步)。"
            )
        });
        if self.platoon == 0 {
            self.town_falls();
        }
    }

    /// T6: Red wins; the game ends (an empty stack).
    fn town_falls(&mut self) {
        self.winner = Some(RED);
        self.journal.say(|| text!("Red takes the town.", "红方夺取城镇。"));
        self.engine.frames_mut().clear();
    }

    fn name(company: u8) -> &'static str {
        ["A", "B"][company as usize % 2]
    }
}

/// What one seat of Bridgehead may know: everything, except that Red does not know whether the
/// bridge is mined until it is blown (T2, T4).
pub struct View<'a> {
    game: &'a Bridgehead,
    seat: Seat,
}

impl View<'_> {
    pub fn seat(&self) -> Seat {
        self.seat
    }
    pub fn turn(&self) -> u8 {
        self.game.turn
    }
    /// Where each company is.
    pub fn companies(&self) -> [Option<u8>; 2] {
        self.game.companies
    }
    /// Which companies have moved this turn.
    pub fn moved(&self) -> [bool; 2] {
        self.game.moved
    }
    /// The platoon's steps left.
    pub fn platoon(&self) -> u8 {
        self.game.platoon
    }
    pub fn blown(&self) -> bool {
        self.game.blown
    }
    /// Whether the bridge is mined, if this seat knows.
    pub fn mined(&self) -> Option<bool> {
        let knows = self.seat == BLUE || self.game.blown || self.game.engine.top().is_none();
        knows.then_some(self.game.mined)
    }
    /// The procedures in progress (nothing secret in them).
    pub fn frames(&self) -> &[Frame] {
        self.game.engine.frames()
    }
}

impl Rules for Bridgehead {
    type Action = Action;
    type Frame = Frame;
    type View<'a> = View<'a>;
    const ID: &'static str = "bridgehead";

    fn seat_view(&self, seat: Seat) -> View<'_> {
        View { game: self, seat }
    }

    /// What Red does not know, guessed: the mines, as likely there as not; and new dice.
    fn sample(view: &View<'_>, rng: &mut crate::chance::Rng) -> Bridgehead {
        let mut g = view.game.clone();
        if view.mined().is_none() {
            g.mined = rng.below(2) == 1;
        }
        g.engine.reseed(rng.word() as u64);
        g
    }

    fn engine(&self) -> &Engine<Action, Frame> {
        &self.engine
    }

    fn engine_mut(&mut self) -> &mut Engine<Action, Frame> {
        &mut self.engine
    }

    fn who(&self, frame: &Frame) -> Who {
        match frame {
            Frame::SetUp | Frame::BridgeWindow { .. } | Frame::StandOrRetreat => Who::Seat(BLUE),
            Frame::Movement | Frame::Combat => Who::Seat(RED),
            Frame::Roll => Who::Chance,
            Frame::Turn { .. } | Frame::March { .. } => Who::Auto,
        }
    }

    fn legal(&self, frame: &Frame, out: &mut Vec<Action>) {
        match frame {
            Frame::SetUp => out.extend([Action::Mine { mined: true }, Action::Mine { mined: false }]),
            Frame::Movement => {
                for company in 0..2 {
                    for to in 0..=TOWN {
                        if self.may_move(company, to).is_ok() {
                            out.push(Action::Move { company, to });
                        }
                    }
                }
                out.push(Action::EndMovement);
            }
            Frame::BridgeWindow { .. } => {
                if self.mined {
                    out.push(Action::Blow { blow: true });
                }
                out.push(Action::Blow { blow: false });
            }
            Frame::Combat => {
                if !self.attackers().is_empty() {
                    out.push(Action::Attack);
                }
                out.push(Action::EndCombat);
            }
            Frame::StandOrRetreat => out.extend([Action::Retreat, Action::Stand]),
            Frame::Roll | Frame::Turn { .. } | Frame::March { .. } => {}
        }
    }

    fn outcomes(&self, frame: &Frame, out: &mut Vec<(Action, u32)>) {
        if let Frame::Roll = frame {
            out.extend((1..=6).map(|face| (Action::Die { face }, 1)));
        }
    }

    fn check(&self, frame: &Frame, action: &Action) -> Result<(), Refusal> {
        match (frame, action) {
            (Frame::SetUp, Action::Mine { .. }) => Ok(()),
            (Frame::Movement, Action::Move { company, to }) => self.may_move(*company, *to),
            (Frame::Movement, Action::EndMovement) => Ok(()),
            (Frame::BridgeWindow { .. }, Action::Blow { blow: false }) => Ok(()),
            (Frame::BridgeWindow { .. }, Action::Blow { blow: true }) if self.mined => Ok(()),
            (Frame::BridgeWindow { .. }, Action::Blow { blow: true }) => {
                Err(Refusal::new("T4", text!("the bridge is not mined", "桥上没有布雷")))
            }
            (Frame::Combat, Action::Attack) if self.attackers().is_empty() => Err(Refusal::new(
                "T5",
                text!("no company stands on space 5", "没有连位于第5格"),
            )),
            (Frame::Combat, Action::Attack | Action::EndCombat) => Ok(()),
            (Frame::StandOrRetreat, Action::Retreat | Action::Stand) => Ok(()),
            _ => Err(Refusal::new(
                "",
                text!("that is not a decision of this moment", "这不是此刻的决定"),
            )),
        }
    }

    fn carry_out(&mut self, frame: Frame, action: Option<&Action>) {
        match (frame, action) {
            (Frame::SetUp, Some(&Action::Mine { mined })) => {
                self.mined = mined;
                self.journal.whisper(
                    BLUE,
                    || {
                        if mined {
                            text!("You mine the bridge.", "你在桥上布雷。")
                        } else {
                            text!("You leave the bridge unmined.", "你没有在桥上布雷。")
                        }
                    },
                    || {
                        if mined {
                            text!("Blue mines the bridge.", "蓝方在桥上布雷。")
                        } else {
                            text!("Blue leaves the bridge unmined.", "蓝方没有在桥上布雷。")
                        }
                    },
                );
                self.engine.push(Frame::Turn { turn: 1, begun: false });
            }
            (Frame::Turn { turn, begun: false }, None) => {
                // The turn stays below its phases and ends when they are done.
                self.turn = turn;
                self.moved = [false; 2];
                self.journal.heading(|| text!("Turn {turn}", "第{turn}回合"));
                self.engine.push(Frame::Turn { turn, begun: true });
                self.engine.push(Frame::Combat);
                self.engine.push(Frame::Movement);
            }
            (Frame::Turn { turn, begun: true }, None) => {
                if turn >= LAST_TURN {
                    self.winner = Some(BLUE);
                    self.journal
                        .say(|| text!("Blue holds the town: Blue wins (T6).", "蓝方守住城镇:蓝方获胜(T6)。"));
                } else {
                    self.engine.push(Frame::Turn {
                        turn: turn + 1,
                        begun: false,
                    });
                }
            }
            (Frame::Movement, Some(&Action::Move { company, to })) => {
                let from = self.companies[company as usize].unwrap_or(0);
                self.moved[company as usize] = true;
                self.engine.push(Frame::Movement);
                self.engine.push(Frame::March {
                    company,
                    route: Bridgehead::route(from, to),
                    warned: false,
                });
            }
            (Frame::Movement, Some(Action::EndMovement)) => {}
            (
                Frame::March {
                    company,
                    mut route,
                    warned,
                },
                None,
            ) => {
                let Some(&next) = route.first() else { return };
                let at = self.companies[company as usize].unwrap_or(0);
                // T4: at the bridge, Blue's window opens before the crossing, above the march.
                if (at, next) == BRIDGE && !self.blown && !warned {
                    self.engine.push(Frame::March {
                        company,
                        route,
                        warned: true,
                    });
                    self.engine.push(Frame::BridgeWindow { company });
                    return;
                }
                route.remove(0);
                self.companies[company as usize] = Some(next);
                let name = Bridgehead::name(company);
                self.journal
                    .say(|| text!("Company {name} moves to space {next}.", "{name}连移动到第{next}格。"));
                if !route.is_empty() {
                    self.engine.push(Frame::March {
                        company,
                        route,
                        warned: false,
                    });
                }
            }
            (Frame::BridgeWindow { company }, Some(&Action::Blow { blow: true })) => {
                self.blown = true;
                // The march below ends here.
                self.engine.pop();
                let name = Bridgehead::name(company);
                self.journal.say(|| {
                    text!(
                        "Blue blows the bridge; company {name} stops (T4).",
                        "蓝方炸毁了桥,{name}连停止移动(T4)。"
                    )
                });
            }
            // The march below goes on across the bridge.
            (Frame::BridgeWindow { .. }, Some(Action::Blow { blow: false })) => {}
            (Frame::Combat, Some(Action::Attack)) => {
                self.journal.say(|| text!("Red attacks the town.", "红方进攻城镇。"));
                self.engine.push(Frame::Roll);
            }
            (Frame::Combat, Some(Action::EndCombat)) => {}
            (Frame::Roll, Some(&Action::Die { face })) => {
                self.journal.say(|| text!("Die: {face}.", "骰子:{face}。"));
                match face {
                    1 | 2 => self.journal.say(|| text!("The attack fails.", "进攻失败。")),
                    3 | 4 => self.engine.push(Frame::StandOrRetreat),
                    _ => self.lose_step(),
                }
            }
            (Frame::StandOrRetreat, Some(Action::Retreat)) => {
                self.platoon = 0;
                self.journal.say(|| text!("The platoon retreats.", "守军排撤退。"));
                self.town_falls();
            }
            (Frame::StandOrRetreat, Some(Action::Stand)) => self.lose_step(),
            // `check` lets nothing else through.
            _ => {}
        }
    }

    fn hash_state(&self, h: &mut StateHasher) {
        h.add(&(
            self.companies,
            self.moved,
            self.platoon,
            self.mined,
            self.blown,
            self.turn,
            self.winner,
        ));
    }

    fn title() -> Text {
        Text::new("Bridgehead (a toy game)", "桥头堡(示例游戏)")
    }

    fn seats() -> Vec<SeatInfo> {
        vec![
            SeatInfo {
                id: "red",
                name: Text::new("Red", "红方"),
            },
            SeatInfo {
                id: "blue",
                name: Text::new("Blue", "蓝方"),
            },
        ]
    }

    fn scenarios() -> Vec<ScenarioInfo> {
        vec![ScenarioInfo {
            id: "bridgehead".into(),
            name: Text::new("Bridgehead", "桥头堡"),
            reconstructed: false,
            note: Text::default(),
        }]
    }

    fn setup(scenario: &str, seed: u64) -> Result<Bridgehead, SetupError> {
        if scenario != "bridgehead" {
            return Err(SetupError(format!("bridgehead has no scenario `{scenario}`")));
        }
        Ok(Bridgehead {
            engine: Engine::new(seed, vec![Frame::SetUp]),
            companies: [Some(0), Some(0)],
            moved: [false; 2],
            platoon: 2,
            mined: false,
            blown: false,
            turn: 0,
            winner: None,
            journal: Journal::default(),
        })
    }

    fn setup_from_text(text: &str, seed: u64) -> Result<Bridgehead, SetupError> {
        Bridgehead::setup(text.trim(), seed)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.engine.top().is_some() {
            return None;
        }
        Some(Outcome {
            winner: self.winner,
            text: match self.winner {
                Some(RED) => text!("Red takes the town.", "红方夺取城镇。"),
                _ => text!("Blue holds the town.", "蓝方守住城镇。"),
            },
        })
    }

    /// A page may receive each company's moves only once its player picks the company.
    fn pack_key(&self, action: &Action, key: &mut Vec<u32>) -> bool {
        match *action {
            Action::Move { company, .. } => key.push(u32::from(company)),
            _ => return false,
        }
        true
    }

    fn describe(&self, action: &Action) -> Text {
        match *action {
            Action::Mine { mined: true } => text!("Mine the bridge", "在桥上布雷"),
            Action::Mine { mined: false } => text!("Leave the bridge unmined", "不布雷"),
            Action::Move { company, to } => {
                let name = Bridgehead::name(company);
                text!("Move company {name} to space {to}", "{name}连移动到第{to}格")
            }
            Action::EndMovement => text!("End movement", "结束移动"),
            Action::Blow { blow: true } => text!("Blow the bridge", "炸桥"),
            Action::Blow { blow: false } => text!("Let them cross", "放其过桥"),
            Action::Attack => text!("Attack the town", "进攻城镇"),
            Action::EndCombat => text!("No attack", "不进攻"),
            Action::Die { face } => text!("Die: {face}", "骰子:{face}"),
            Action::Retreat => text!("Retreat", "撤退"),
            Action::Stand => text!("Stand and lose a step", "坚守并损失一步"),
        }
    }

    fn notation(&self, action: &Action) -> String {
        match *action {
            Action::Mine { mined } => format!("mine {}", if mined { "yes" } else { "no" }),
            Action::Move { company, to } => format!("move {} {to}", Bridgehead::name(company).to_lowercase()),
            Action::EndMovement => "end".into(),
            Action::Blow { blow } => format!("blow {}", if blow { "yes" } else { "no" }),
            Action::Attack => "attack".into(),
            Action::EndCombat => "no-attack".into(),
            Action::Die { face } => format!("die {face}"),
            Action::Retreat => "retreat".into(),
            Action::Stand => "stand".into(),
        }
    }

    /// T2: Blue's choice is secret.
    fn is_secret(&self, action: &Action) -> bool {
        matches!(action, Action::Mine { .. })
    }

    /// T2, T4: whether the bridge is mined, until it is blown or the game ends.
    fn hidden_from(&self, seat: Seat, out: &mut Vec<u64>) {
        if seat == RED && !self.blown && self.engine.top().is_some() {
            out.push(1);
        }
    }

    fn view(&self, seat: Option<Seat>) -> serde_json::Value {
        let sees_mines = seat == Some(BLUE) || self.blown || self.engine.top().is_none();
        serde_json::json!({
            "turn": self.turn,
            "companies": self.companies,
            "platoon": self.platoon,
            "blown": self.blown,
            "mined": if sees_mines { Some(self.mined) } else { None },
        })
    }

    fn summary(&self, _seat: Option<Seat>, lang: Lang) -> String {
        let t = text!(
            "Turn {}: companies at {:?}, platoon {} step(s).",
            "第{}回合:连位于 {:?},守军 {} 步。",
            self.turn,
            self.companies,
            self.platoon
        );
        t.get(lang).to_string()
    }

    fn journal(&self, seat: Option<Seat>) -> Vec<JournalLine> {
        self.journal.for_seat(seat, self.engine.top().is_none())
    }

    fn set_journal(&mut self, on: bool) {
        self.journal.off = !on;
    }

    fn render_svg(&self, _seat: Option<Seat>, _lang: Lang) -> String {
        String::new()
    }
}

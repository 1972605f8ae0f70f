//! Which decision each frame of the procedure stack asks for, which rule answers it, and what
//! is done with the answer: the five answers of the core's `Rules` (who, legal, outcomes,
//! check, carry out) for every frame of [`crate::frames`], each handed to the module of its
//! rule. Also what a refusal says when an action is not a decision of this moment.

use crate::frames::{Frame, PhaseStep, Roll};
use crate::sequence::{Phase, Side};
use crate::state::Stage;
use crate::{Action, ArdennesII};
use sandtable_core::driver::Who;
use sandtable_core::game::Refusal;
use sandtable_core::text;
use sandtable_core::text::Text;

/// The side whose player decides in a phase of decisions.
pub(crate) fn phase_player(phase: Phase) -> Option<Side> {
    match phase {
        Phase::Movement(s) | Phase::Combat(s) | Phase::Exploitation(s) => Some(s),
        Phase::UsBarrage | Phase::AirSupply => Some(Side::Allied),
        _ => None,
    }
}

impl ArdennesII {
    /// Who decides at `frame`.
    pub(crate) fn who_at(&self, frame: &Frame) -> Who {
        let seat = |side: Side| Who::Seat(side.seat());
        let first = |u: Option<&u16>| u.map_or(Who::Auto, |&u| seat(self.unit_side(u)));
        match frame {
            Frame::Phase {
                phase,
                step: PhaseStep::Play,
            } => phase_player(*phase).map_or(Who::Auto, seat),
            Frame::Phase { .. } | Frame::Arrivals { .. } | Frame::March(_) => Who::Auto,
            Frame::Place { queue } => first(queue.first().map(|p| &p.unit)),
            Frame::BugOut { queue } | Frame::Resupply { queue } => first(queue.first()),
            Frame::Demolitions => seat(Side::Allied),
            // 3.2: the attacker commits, takes its losses and advances; the defender stands or
            // retreats, takes its losses and retreats.
            Frame::Combat(c) => {
                let attacker = self.attacker_side();
                match c.stage {
                    Stage::Commit | Stage::AttackerLoss | Stage::Advance => seat(attacker),
                    Stage::StandOrRetreat | Stage::DefenderLoss | Stage::Retreat => seat(attacker.enemy()),
                }
            }
            Frame::Roll(_) => Who::Chance,
            Frame::Observer { gun, .. } => seat(self.unit_side(*gun)),
            Frame::Demolisher { .. } => seat(Side::Allied),
        }
    }

    /// The legal actions of the decision at `frame`.
    pub(crate) fn legal_at(&self, frame: &Frame, out: &mut Vec<Action>) {
        match frame {
            Frame::Phase {
                phase,
                step: PhaseStep::Play,
            } => self.legal_phase(*phase, out),
            Frame::Place { queue } => self.legal_placements(queue, out),
            Frame::BugOut { queue } => self.legal_bug_outs(queue, out),
            Frame::Demolitions => {
                self.legal_demolitions(out);
                out.push(Action::Pass);
            }
            Frame::Resupply { queue } => self.legal_resupply(queue, out),
            Frame::Combat(c) => self.legal_combat(c, out),
            Frame::Observer { candidates, .. } => {
                out.extend(candidates.iter().map(|&unit| Action::Observe { unit }));
            }
            Frame::Demolisher { candidates, .. } => {
                out.extend(candidates.iter().map(|&unit| Action::Attempt { unit }));
            }
            _ => {}
        }
    }

    /// [`Self::legal_at`] into `out`, which holds the legal list made last by this method or
    /// is empty: a movement or exploitation phase takes over the moves of the units whose reach
    /// is the one they were made from ([`Self::legal_moves`]).
    pub(crate) fn legal_again_at(&self, frame: &Frame, out: &mut Vec<Action>) {
        let last = self.s.memo.take_moves(out);
        match frame {
            Frame::Phase {
                phase: phase @ (Phase::Movement(_) | Phase::Exploitation(_)),
                step: PhaseStep::Play,
            } => {
                let moves = self.legal_phase_again(*phase, last, out);
                self.s.memo.keep_moves(out, moves);
            }
            _ => {
                out.clear();
                self.legal_at(frame, out);
            }
        }
    }

    /// Whether `a` is legal at `frame`, and if not the rule and why.
    pub(crate) fn check_at(&self, frame: &Frame, a: &Action) -> Result<(), Refusal> {
        match (frame, a) {
            (
                Frame::Phase {
                    phase,
                    step: PhaseStep::Play,
                },
                _,
            ) => self.check_phase(*phase, frame, a),
            (Frame::Place { queue }, Action::Place { unit, at }) => {
                self.known_unit(*unit)?;
                self.known_hex(*at)?;
                self.may_place(queue, *unit, *at)
            }
            (Frame::BugOut { queue }, Action::BugOut { unit, to }) => {
                self.known_unit(*unit)?;
                self.known_hex(*to)?;
                self.may_bug_out(queue, *unit, Some(*to))
            }
            (Frame::BugOut { queue }, Action::StayPut { unit }) => {
                self.known_unit(*unit)?;
                self.may_bug_out(queue, *unit, None)
            }
            (Frame::Demolitions, Action::Demolish { symbol }) => self.may_demolish(*symbol),
            (Frame::Demolitions, Action::Pass) => Ok(()),
            (Frame::Resupply { queue }, Action::Resupply { unit, .. }) => {
                self.known_unit(*unit)?;
                self.may_resupply(queue, *unit)
            }
            (Frame::Combat(c), _) => self.check_combat(c, a),
            (Frame::Observer { candidates, .. }, Action::Observe { unit }) => self.may_observe(candidates, *unit),
            (Frame::Demolisher { candidates, .. }, Action::Attempt { unit }) => self.may_attempt(candidates, *unit),
            _ => Err(self.not_now(frame, a)),
        }
    }

    /// Whether `a` is a decision of `phase` now (its player deciding, nothing else first).
    fn check_phase(&self, phase: Phase, frame: &Frame, a: &Action) -> Result<(), Refusal> {
        let moving = match phase {
            Phase::Movement(s) => Some((s, false)),
            Phase::Exploitation(s) => Some((s, true)),
            _ => None,
        };
        match (a, moving) {
            (Action::EndPhase, _) => Ok(()),
            (Action::Move { unit, to, via }, Some((side, exploitation))) => {
                self.may_move(*unit, *to, via, side, exploitation)
            }
            (Action::MoveStack { units, to, via }, Some((side, exploitation))) => {
                self.may_move_stack(units, *to, via, side, exploitation)
            }
            (Action::Exit { unit }, Some((side, exploitation))) => self.may_exit(*unit, side, exploitation),
            (Action::Overrun { units, target }, Some((side, exploitation))) => {
                self.may_overrun(units, *target, side, exploitation)
            }
            (Action::Boats { unit, to }, Some((side, false))) => self.may_boat(*unit, *to, side),
            (Action::Fire { unit, target }, _) => match phase.barrage_side() {
                Some(side) => self.may_fire(*unit, *target, side),
                None => Err(self.not_now(frame, a)),
            },
            (Action::AirStrike { target }, _) => match phase.barrage_side() {
                Some(Side::Allied) => self.may_air_strike(*target),
                Some(Side::German) => Err(Refusal::new(
                    "3.5",
                    text!(
                        "air strikes are the US player's (2.2), in his barrage phases",
                        "空袭属于美军(2.2),在其射击阶段进行"
                    ),
                )),
                None => Err(self.not_now(frame, a)),
            },
            (Action::Demolish { symbol }, _) if ArdennesII::demolitions_in(phase) => self.may_demolish(*symbol),
            (Action::Attack { target }, _) => match phase {
                Phase::Combat(side) => self.may_attack(side, *target),
                _ => Err(self.not_now(frame, a)),
            },
            (Action::AirSupply { hex }, _) => {
                self.known_hex(*hex)?;
                self.may_air_supply(*hex)
            }
            _ => Err(self.not_now(frame, a)),
        }
    }

    /// The refusal of `a`, not a decision at `frame`: its own rule and what it needs, and what
    /// is awaited now.
    fn not_now(&self, frame: &Frame, a: &Action) -> Refusal {
        if let Frame::Combat(c) = frame {
            return self.check_combat(c, a).err().unwrap_or_else(|| self.action_context(a));
        }
        let awaited = match frame {
            Frame::Place { .. } => Some(Refusal::new(
                "2.2",
                text!("place the units that arrive first", "请先放置到达的单位"),
            )),
            Frame::BugOut { .. } => Some(Refusal::new(
                "3.6",
                text!("the artillery must bug out first", "火炮须先完成逃跑"),
            )),
            Frame::Demolitions => Some(Refusal::new(
                "3.8",
                text!(
                    "the US decides on bridge demolitions first (demolish or pass)",
                    "美军须先决定是否炸桥(炸桥或放弃)"
                ),
            )),
            Frame::Resupply { .. } => Some(Refusal::new(
                "3.7",
                text!("the owner decides on artillery resupply first", "须先决定火炮补给"),
            )),
            Frame::Observer { .. } => Some(Refusal::new(
                "3.5",
                text!("choose the barrage's observer first", "请先选择本次射击的观测员"),
            )),
            Frame::Demolisher { .. } => Some(Refusal::new(
                "3.8",
                text!(
                    "choose the US unit that makes the demolition attempt first",
                    "请先选择进行炸桥的美军单位"
                ),
            )),
            _ => None,
        };
        match (awaited, a) {
            (Some(w), Action::EndPhase | Action::Pass) => w,
            (Some(w), _) => {
                let own = self.action_context(a);
                Refusal::new(
                    own.rule,
                    Text::new(
                        format!("{}; now: {}", own.text.en, w.text.en),
                        format!("{};现在:{}", own.text.zh, w.text.zh),
                    ),
                )
            }
            (None, _) => self.action_context(a),
        }
    }

    /// What an action needs, as a refusal for a moment that is not its own: its rule and when
    /// it is taken.
    pub(crate) fn action_context(&self, a: &Action) -> Refusal {
        let r = |rule: &str, t: Text| Refusal::new(rule, t);
        match a {
            Action::Move { .. } | Action::MoveStack { .. } => r(
                "2.1",
                text!("units move only in a movement or exploitation phase", "单位只能在移动或进击阶段移动"),
            ),
            Action::Fire { .. } | Action::AirStrike { .. } => self.no_barrage_now(),
            Action::Attack { .. } => r(
                "3.2",
                text!("attacks are made in a combat phase", "攻击在战斗阶段进行"),
            ),
            Action::Join { .. } | Action::Resolve | Action::CallOff => r(
                "3.2",
                text!(
                    "no attack is being set up: choose a hex to attack and the units that join first",
                    "现在没有正在组织的攻击:请先选择攻击的格和参加的单位"
                ),
            ),
            Action::Stand | Action::Withdraw => r(
                "3.2",
                text!(
                    "the defender chooses to stand or retreat only when an attack on it is set",
                    "只有在针对它的攻击确定后,防御方才选择坚守或撤退"
                ),
            ),
            Action::Lose { .. } => r("3.2", text!("no step loss is due now", "现在没有需要承受的军力损失")),
            Action::RetreatTo { .. } => r("3.2", text!("no retreat is due now", "现在没有需要执行的撤退")),
            Action::Advance { .. } | Action::EndAdvance => {
                r("3.2", text!("no advance after combat is due now", "现在没有战斗后推进"))
            }
            Action::Overrun { .. } => r(
                "3.3",
                text!(
                    "overruns are made in movement and exploitation phases, by the phasing player",
                    "突袭由行动方在移动和进击阶段进行"
                ),
            ),
            Action::Exit { .. } => self.no_exit(),
            Action::BugOut { .. } | Action::StayPut { .. } => self.no_bug_out_now(),
            Action::Place { .. } => r("2.2", text!("no unit is being placed now", "现在没有要放置的单位")),
            Action::Demolish { .. } => self.no_demolition_now(),
            Action::Pass => r(
                "3.8",
                text!("no bridge demolition is being decided now", "现在不是决定炸桥的时候"),
            ),
            Action::Boats { .. } => r(
                "4.2",
                text!(
                    "only 2nd Panzer Division mechanized infantry that has not moved may cross the Our in boats, on turns 1–2, in the German movement phase",
                    "只有尚未移动的第 2 装甲师机械化步兵可在第 1–2 回合的德军移动阶段乘橡皮艇渡过乌尔河"
                ),
            ),
            Action::AirSupply { .. } => r(
                "2.2",
                text!(
                    "Air Supply is placed in the Air Supply phase, on any hex, one air strike each",
                    "空中补给在空中补给阶段放置于任何格,每个消耗一次空袭"
                ),
            ),
            Action::Resupply { .. } => self.no_resupply_now(),
            Action::Attempt { .. } => {
                let range = self.w.data.tables.bridge_us_unit_range;
                r(
                    "3.8",
                    text!(
                        "a US unit is chosen for a demolition attempt only as the attempt is made, among those within {range} hexes of the symbol",
                        "炸桥单位只在尝试炸桥时从炸药标志 {range} 格内的美军单位中选择"
                    ),
                )
            }
            Action::Observe { .. } => {
                let range = self.w.data.tables.barrage.observer_range;
                r(
                    "3.5",
                    text!(
                        "an observer is chosen as a barrage is fired, among the friendly units within {range} hexes of its target",
                        "观测员在射击时从目标格 {range} 格内的友方单位中选择"
                    ),
                )
            }
            Action::EndPhase => r(
                "2.1",
                text!(
                    "this phase runs by itself; there is no phase for you to end now",
                    "本阶段自动进行,现在没有你可以结束的阶段"
                ),
            ),
            Action::Die { .. } => r(
                "2.1",
                text!("dice are rolled by the game, not chosen", "骰子由游戏掷出,不能选择"),
            ),
        }
    }

    /// Carries out `a` (`None` for a frame that runs by itself, or a die's face) at `frame`,
    /// which is off the stack.
    pub(crate) fn carry_out_at(&mut self, frame: Frame, a: Option<&Action>) {
        match (frame, a) {
            (Frame::Phase { phase, step }, None) => self.phase_step(phase, step),
            (Frame::Phase { phase, .. }, Some(a)) => self.play_phase(phase, a),
            (Frame::Place { queue }, Some(&Action::Place { unit, at })) => self.place(queue, unit, at),
            (Frame::BugOut { queue }, Some(&Action::BugOut { unit, to })) => self.bug_out(queue, unit, Some(to)),
            (Frame::BugOut { queue }, Some(&Action::StayPut { unit })) => self.bug_out(queue, unit, None),
            (Frame::Demolitions, Some(&Action::Demolish { symbol })) => {
                self.engine.push(Frame::Demolitions);
                self.demolish(symbol);
            }
            (Frame::Resupply { queue }, Some(&Action::Resupply { unit, roll })) => self.resupply(queue, unit, roll),
            (Frame::Arrivals { arrival, step, placing }, None) => self.arrivals(arrival, step, placing),
            (Frame::March(m), None) => self.march(m),
            (Frame::Combat(c), Some(a)) => self.combat_step(c, a),
            (Frame::Roll(r), Some(&Action::Die { face })) => self.roll(r, face),
            (Frame::Observer { gun, target, .. }, Some(&Action::Observe { unit })) => self.observe(gun, target, unit),
            (Frame::Demolisher { symbol, .. }, Some(&Action::Attempt { unit })) => self.attempt(symbol, Some(unit)),
            // Pass ends the demolition window; an empty queue is done.
            (Frame::Demolitions, Some(Action::Pass)) => {}
            (Frame::Place { queue }, None) if queue.is_empty() => {}
            (Frame::BugOut { queue } | Frame::Resupply { queue }, None) if queue.is_empty() => {}
            // `check` lets nothing else through; kept as it was.
            (frame, _) => self.engine.push(frame),
        }
    }

    /// A die's face for what it was rolled for.
    fn roll(&mut self, r: Roll, face: u8) {
        match r {
            Roll::Weather => self.weather(face),
            Roll::AirStrikes => self.air_strikes(face),
            Roll::Arrival { arrival } => self.arrival_roll(arrival, face),
            Roll::VonDerHeydte { arrival } => self.von_der_heydte(arrival, face),
            Roll::Barrage {
                side,
                target,
                drm,
                occupant,
            } => self.barrage_roll(side, target, drm, occupant, face),
            Roll::HalfMarker { hex, side } => self.half_roll(hex, side, face),
            Roll::Combat { first } => self.combat_die(first, face),
            Roll::Demolition { symbol } => self.demolition_roll(symbol, face),
            Roll::Resupply { unit } => self.resupply_roll(unit, face),
        }
    }
}

//! The turn (2.1, 2.2): each phase begun with its bookkeeping, the phases without decisions
//! worked through (weather, air strikes, marker removal, supply — their rules live in their
//! own modules), the phases of decisions ended when their player ends them or has nothing left
//! to do, the end of each phase (3.1 stacking, 3.5 Half markers, 3.8 captured bridges, 6.0
//! control) and the end of the turn (6.0 victory points).

use crate::frames::{ArrivalStep, Frame, PhaseStep, Roll};
use crate::movement::MoveList;
use crate::rules::Board;
use crate::sequence::{Phase, Side};
use crate::state::UnitId;
use crate::{Action, ArdennesII};
use sandtable_core::text;
use sandtable_core::text::Text;

/// The heading of a turn in the log: its number and date (5.11).
pub(crate) fn turn_heading(turn: u8) -> Text {
    let date = crate::sequence::date(turn);
    Text::new(
        format!("Turn {turn} ({})", date.en),
        format!("第{turn}回合({})", date.zh),
    )
}

/// A side's name in the log.
pub(crate) fn side_name(side: Side) -> Text {
    match side {
        Side::German => text!("German", "德军"),
        Side::Allied => text!("Allied", "盟军"),
    }
}

impl ArdennesII {
    /// Begins `phase`: the per-phase marks of every unit (MP, fire, adjacency to the enemy
    /// when the phase begins, 1.2; enemy markers at the start, 3.5; traffic jams, 3.1), then
    /// the phase on the stack with what must come first above it: the airborne drop (5.1),
    /// the US chance to blow bridges before German movement (3.8), artillery that bugs out
    /// (3.6).
    pub(crate) fn begin_phase(&mut self, phase: Phase) {
        self.s.phase = phase;
        let b = Board::new(&self.w, &self.s);
        let n = self.s.units.len();
        let (mut adjacent, mut barraged, mut jammed) = (vec![false; n], vec![false; n], vec![false; n]);
        for (i, u) in self.s.units.iter().enumerate() {
            if let Some(h) = u.hex() {
                let side = self.w.data.counters.units[i].side;
                adjacent[i] = b.enemy_adjacent(side, h);
                barraged[i] = b.full_markers(h, side.enemy()) > 0;
                jammed[i] = side == Side::German && b.traffic_jam(h);
            }
        }
        drop(b);
        for (i, u) in self.s.units.iter_mut().enumerate() {
            u.spent = 0;
            u.moved = false;
            u.fired = false;
            u.observed = false;
            u.attacked = false;
            u.stopped = false;
            u.adjacent_at_start = adjacent[i];
            u.barraged = barraged[i];
            // 3.1: a unit that starts a phase in a traffic jam is DG.
            if jammed[i] {
                u.dg = true;
            }
        }
        self.s.attacked_hexes.clear();
        self.s.unobserved_strikes.clear();
        self.s.approached.clear();
        self.s.jam_stacks.clear();
        let step = match phase {
            Phase::Movement(_) => PhaseStep::Play,
            Phase::UsBarrage | Phase::Combat(_) | Phase::Exploitation(_) | Phase::AirSupply => PhaseStep::Check,
            _ => PhaseStep::Work,
        };
        self.engine.push(Frame::Phase { phase, step });
        // 5.1: the airborne divisions are placed in the US movement phase.
        let drop = if phase == Phase::Movement(Side::Allied) {
            self.airborne_drop()
        } else {
            Vec::new()
        };
        // 3.8 (RULINGS): the US may blow bridges "at any moment": before each German movement.
        if phase == Phase::Movement(Side::German) {
            let mut any = Vec::new();
            self.legal_demolitions(&mut any);
            if !any.is_empty() {
                self.engine.push(Frame::Demolitions);
            }
        }
        // 3.6: artillery next to a strong enemy when a phase begins bugs out.
        let guns = self.threatened_artillery();
        if !guns.is_empty() {
            self.engine.push(Frame::BugOut { queue: guns });
        }
        if !drop.is_empty() {
            self.engine.push(Frame::Place { queue: drop });
        }
    }

    /// Carries out a step of `phase` that needs no decision.
    pub(crate) fn phase_step(&mut self, phase: Phase, step: PhaseStep) {
        match step {
            PhaseStep::Work => {
                self.engine.push(Frame::Phase {
                    phase,
                    step: PhaseStep::End,
                });
                self.phase_work(phase);
            }
            PhaseStep::Check => {
                // 2.1: a phase whose player has nothing left to do ends by itself.
                let step = if self.any_decision(phase) {
                    PhaseStep::Play
                } else {
                    PhaseStep::End
                };
                self.engine.push(Frame::Phase { phase, step });
            }
            PhaseStep::End => self.end_phase(phase),
            PhaseStep::Close => self.close_phase(phase),
            // A phase of decisions is played by `play_phase`; a phase without decisions left
            // at its decisions (by the edit door) does its work.
            PhaseStep::Play => self.phase_step(phase, PhaseStep::Work),
        }
    }

    /// The work of a phase without decisions (2.2, 2.1).
    fn phase_work(&mut self, phase: Phase) {
        match phase {
            // 2.2: from turn 8, until Frozen.
            Phase::Weather if self.s.turn >= self.w.data.tables.weather_first_roll_turn && !self.s.frozen => {
                self.engine.push(Frame::Roll(Roll::Weather));
            }
            Phase::AirStrikes => self.engine.push(Frame::Roll(Roll::AirStrikes)),
            Phase::Reinforcements => self.engine.push(Frame::Arrivals {
                arrival: 0,
                step: ArrivalStep::Look,
                placing: Vec::new(),
            }),
            Phase::MarkerRemoval => {
                // 2.2, 3.5: every barrage marker goes; 3.4: DG recovery — but not in the
                // scenario's first pre-turn, where the only DG is what the set-up prints: the
                // units start their first player turn DG (RULINGS).
                self.s.markers.clear();
                let resupply = self.dg_recovery(self.s.turn == self.s.first_turn);
                if !resupply.is_empty() {
                    self.engine.push(Frame::Resupply { queue: resupply });
                }
            }
            Phase::BarrageRemoval(side) => {
                // Inventory A1 (RULINGS): the non-phasing side's markers go.
                self.s.markers.retain(|m| m.side != side.enemy());
            }
            Phase::Supply(side) => {
                self.supply_phase(side);
                if side == Side::Allied {
                    // 3.7: Air Supply markers go at the end of the US player turn.
                    self.s.air_supply.clear();
                }
            }
            _ => {}
        }
    }

    /// The weather die (2.2).
    pub(crate) fn weather(&mut self, die: u8) {
        let w = self.w.data.tables.weather.roll(die as i32);
        self.s.frozen = w == crate::data::Weather::Frozen;
        let frozen = self.s.frozen;
        self.journal.say(|| {
            Text::new(
                format!(
                    "2.2: weather die {die}: {}.",
                    if frozen { "Frozen" } else { "not Frozen" }
                ),
                format!("2.2:天气骰 {die}:{}。", if frozen { "冰冻" } else { "未冰冻" }),
            )
        });
    }

    /// The US air strike die (2.2).
    pub(crate) fn air_strikes(&mut self, die: u8) {
        let weather = if self.s.frozen {
            crate::data::Weather::Frozen
        } else {
            crate::data::Weather::NotFrozen
        };
        let halved = self.scenario.air_strikes == crate::data::AirStrikeRule::Halved;
        self.s.air_strikes = self.w.data.tables.air_strikes.strikes(weather, die as i32, halved);
        let n = self.s.air_strikes;
        self.journal.say(|| {
            text!(
                "2.2: air strike die {die}: the US has {n} air strikes this turn.",
                "2.2:空袭骰 {die}:美军本回合有 {n} 次空袭。"
            )
        });
    }

    /// Whether the player of a phase of decisions has anything to do in it now.
    fn any_decision(&self, phase: Phase) -> bool {
        let mut out = Vec::new();
        match phase {
            Phase::Exploitation(side) => self.any_move(side, true),
            _ => {
                self.legal_phase(phase, &mut out);
                !out.is_empty()
            }
        }
    }

    /// The decisions of a phase, when nothing else comes first.
    pub(crate) fn legal_phase(&self, phase: Phase, out: &mut Vec<Action>) {
        match phase {
            Phase::Movement(_) | Phase::Exploitation(_) if out.is_empty() => {
                self.legal_phase_again(phase, None, out);
            }
            Phase::Movement(_) | Phase::Exploitation(_) => {
                let mut list = Vec::new();
                self.legal_phase_again(phase, None, &mut list);
                out.append(&mut list);
            }
            // 2.2: offered on the hexes of US units (RULINGS).
            Phase::AirSupply => {
                self.legal_air_supply(out);
                if !out.is_empty() {
                    out.push(Action::EndPhase);
                }
            }
            Phase::UsBarrage => {
                self.legal_barrage(Side::Allied, out);
                self.legal_demolitions(out);
                if !out.is_empty() {
                    out.push(Action::EndPhase);
                }
            }
            Phase::Combat(side) => {
                self.legal_attacks(side, out);
                if !out.is_empty() {
                    out.push(Action::EndPhase);
                }
            }
            _ => {}
        }
    }

    /// [`Self::legal_phase`] into `out`, which begins with the moves `last` says it does, or
    /// with anything if `last` is `None`: a movement or exploitation phase takes over the moves
    /// of the units whose reach is the one they were made from
    /// ([`Self::legal_moves`]). What its moves were made from.
    pub(crate) fn legal_phase_again(&self, phase: Phase, last: Option<MoveList>, out: &mut Vec<Action>) -> MoveList {
        match phase {
            Phase::Movement(side) => {
                // The long list of moves is made with room for the barrages listed after it.
                let guns = self.barrage_guns(side);
                let moves = self.legal_moves(side, false, self.barrage_room(side, &guns), last, out);
                self.legal_overruns(side, false, out);
                self.legal_boats(side, out);
                self.legal_barrage_of(side, guns, out);
                if side == Side::Allied {
                    self.legal_demolitions(out);
                }
                out.push(Action::EndPhase);
                moves
            }
            Phase::Exploitation(side) => {
                let moves = self.legal_moves(side, true, 0, last, out);
                self.legal_overruns(side, true, out);
                if !out.is_empty() {
                    out.push(Action::EndPhase);
                }
                moves
            }
            _ => {
                out.clear();
                self.legal_phase(phase, out);
                MoveList::default()
            }
        }
    }

    /// Carries out a decision of the phase's player (checked), the phase kept on the stack
    /// unless the decision ends it.
    pub(crate) fn play_phase(&mut self, phase: Phase, action: &Action) {
        if *action == Action::EndPhase {
            self.engine.push(Frame::Phase {
                phase,
                step: PhaseStep::End,
            });
            return;
        }
        // A movement phase can always be ended: its player decides again. Any other phase looks
        // again whether anything is left to do.
        let step = match phase {
            Phase::Movement(_) => PhaseStep::Play,
            _ => PhaseStep::Check,
        };
        self.engine.push(Frame::Phase { phase, step });
        match *action {
            Action::Move { unit, to, ref via } => self.start_march(&[unit], to, via),
            Action::MoveStack { ref units, to, ref via } => self.start_march(units, to, via),
            Action::Exit { unit } => self.exit(unit),
            Action::Overrun { ref units, target } => self.overrun(units, target),
            Action::Boats { unit, to } => self.boats(unit, to),
            Action::Fire { unit, target } => self.fire(Some(unit), target),
            Action::AirStrike { target } => self.fire(None, target),
            Action::Demolish { symbol } => self.demolish(symbol),
            Action::Attack { target } => self.attack(target),
            Action::AirSupply { hex } => self.air_supply(hex),
            _ => {}
        }
    }

    /// Ends a phase: 3.8 captured bridges, then 3.5 Half reconciliation in the barrage
    /// phases, before the rest of the end ([`Self::close_phase`]).
    fn end_phase(&mut self, phase: Phase) {
        self.mark_captured_bridges();
        self.engine.push(Frame::Phase {
            phase,
            step: PhaseStep::Close,
        });
        if phase.barrage_side().is_some() {
            self.half_reconciliation();
        }
    }

    /// The end of a phase after its Half markers: 3.1 stacking and 6.0 control at the end of
    /// the phases where units move or fight, then the next phase, or the end of the turn.
    fn close_phase(&mut self, phase: Phase) {
        // Half markers are gone at the end of their phase (3.5).
        self.s.markers.retain(|m| m.full > 0);
        let moving = matches!(
            phase,
            Phase::Movement(_) | Phase::UsBarrage | Phase::Combat(_) | Phase::Exploitation(_)
        );
        // 3.1, 3.4: overstacked or mixed stacks become DG at the end of any phase: on data
        // edition 3 every phase of the turn (the pre-turn's placements and the bug-outs as a
        // phase begins included), sparing this turn's arrivals until their side's first
        // movement phase has ended (SCS 5.0); before, the phases where units move or fight.
        if moving || (self.edition >= 3 && phase != Phase::SetUp) {
            self.stacking_dg();
        }
        if let Phase::Movement(side) = phase {
            self.s
                .arrived
                .retain(|&u| self.w.data.counters.units[u as usize].side != side);
        }
        if moving {
            self.update_control();
        }
        if phase == Phase::SetUp {
            self.journal.heading(|| turn_heading(self.s.turn));
        }
        // A scenario may begin its first turn at a later phase than the pre-turn's first.
        let next = match phase.next(self.s.turn) {
            Some(_) if phase == Phase::SetUp => self.scenario.first_phase.unwrap_or(Phase::FIRST),
            Some(next) => next,
            None => {
                if !self.end_turn() {
                    return;
                }
                Phase::FIRST
            }
        };
        self.journal.heading(|| next.name());
        self.begin_phase(next);
    }

    /// The end of the turn (6.0): control and victory points; the game ends after the
    /// scenario's last turn. Returns whether another turn follows.
    fn end_turn(&mut self) -> bool {
        self.update_control();
        // 6.0: a VP hex counts for the side that last occupied it and can trace supply to it
        // at that moment, the turn's end.
        let vp = self.german_vp_counted();
        self.s.vp_last = vp;
        self.s.vp_max = self.s.vp_max.max(vp);
        let turn = self.s.turn;
        self.journal.say(|| {
            text!(
                "End of turn {turn}: the German controls {vp} VP (6.0).",
                "第{turn}回合结束:德军控制 {vp} VP(6.0)。"
            )
        });
        if self.s.turn >= self.s.last_turn {
            return false;
        }
        self.s.turn += 1;
        self.journal.heading(|| turn_heading(self.s.turn));
        true
    }

    /// The side a unit belongs to.
    pub(crate) fn unit_side(&self, u: UnitId) -> Side {
        self.w.data.counters.units[u as usize].side
    }

    /// The units of `side` on the map, in counter order.
    pub(crate) fn units_of(&self, side: Side) -> impl Iterator<Item = UnitId> + '_ {
        self.w.side_units[side.seat() as usize]
            .iter()
            .copied()
            .filter(move |&u| self.s.units.get(u as usize).is_some_and(|st| st.hex().is_some()))
    }

    /// [`Self::units_of`] by a look at every counter (its test).
    #[cfg(test)]
    pub(crate) fn units_of_every_counter(&self, side: Side) -> Vec<UnitId> {
        (0..self.s.units.len() as UnitId)
            .filter(|&u| self.unit_side(u) == side && self.s.units[u as usize].hex().is_some())
            .collect()
    }
}

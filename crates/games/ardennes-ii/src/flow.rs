//! The game as a state machine: the set-up of a scenario, the phases of 2.1 run in order
//! (the automatic ones — weather, air strikes, reinforcements, marker removal, supply — by
//! the engine, with their dice in the log), the decisions of each phase and their legal
//! actions, and the combat procedure of 3.2 as an explicit stage in the state.

use crate::data::{Location, Scenario, Victory, VictoryResult};
use crate::rules::{Board, EIGHTHS};
use crate::sequence::{Phase, Side};
use crate::state::{Combat, Markers, Placing, Stage, State, UnitId, UnitState};
use crate::world::World;
use crate::ArdennesII;
use sandtable_core::chance::Rng;
use sandtable_core::game::{Outcome, Pending, Refusal};
use sandtable_core::hex::Hex;
use sandtable_core::search::Search;
use sandtable_core::text;
use sandtable_core::text::Text;
use serde::{Deserialize, Serialize};

/// One decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case")]
pub enum Action {
    /// SCS 6.0 with the TEC: move a unit to a hex it can reach with the MP it has left.
    Move {
        unit: UnitId,
        to: Hex,
    },
    /// 3.5: an artillery unit fires at a hex.
    Fire {
        unit: UnitId,
        target: Hex,
    },
    /// 2.2, 3.5: a US air strike on a hex.
    AirStrike {
        target: Hex,
    },
    /// End the phase (movement, barrage, combat, exploitation).
    EndPhase,
    /// 3.2 (1): attack this hex.
    Attack {
        target: Hex,
    },
    /// 3.2 (1): this unit joins the attack.
    Join {
        unit: UnitId,
    },
    /// 3.2 (1)–(4): the attack is set; on to the defender's choice and the dice.
    Resolve,
    /// Call off the attack before the defender has chosen.
    CallOff,
    /// 3.2 (2): the defender stands.
    Stand,
    /// 3.2 (2): the defender retreats 5 hexes before combat.
    Withdraw,
    /// 3.2 (5), SCS 8.0: this unit takes a step loss.
    Lose {
        unit: UnitId,
    },
    /// 3.2 (6): the defending stack retreats to this hex.
    RetreatTo {
        to: Hex,
    },
    /// 3.3: these units of one hex overrun the adjacent enemy hex along a road.
    Overrun {
        units: Vec<UnitId>,
        target: Hex,
    },
    /// 7.2, 7.3, 7.5: the unit leaves the map through an exit area or edge.
    Exit {
        unit: UnitId,
    },
    /// 3.6: the artillery bugs out to this hex (and becomes DG).
    BugOut {
        unit: UnitId,
        to: Hex,
    },
    /// 3.6, inventory A17: no hex qualifies; the artillery stays.
    StayPut {
        unit: UnitId,
    },
    /// Place a unit (set-up choice, reinforcement, 5.1 airborne drop) on one of its hexes.
    Place {
        unit: UnitId,
        at: Hex,
    },
    /// 3.8: the US tries to blow the bridges of this demolition symbol.
    Demolish {
        symbol: Hex,
    },
    /// 3.8: no (more) demolitions now.
    Pass,
    /// 4.2: a 2nd Panzer Division mechanized infantry unit crosses the Our in rubber boats,
    /// with all its MP, and loses DG.
    Boats {
        unit: UnitId,
        to: Hex,
    },
    /// 2.2, 3.7: turn one air strike into an Air Supply marker on this hex.
    AirSupply {
        hex: Hex,
    },
    /// 3.7: for DG artillery that cannot trace supply: roll on the Artillery Resupply Table
    /// (`roll`), or leave it DG.
    Resupply {
        unit: UnitId,
        roll: bool,
    },
    /// 3.2 (7): advance after combat.
    Advance {
        unit: UnitId,
        to: Hex,
    },
    EndAdvance,
}

pub(crate) use sandtable_core::search::with_thread_search as with_search;

/// The numbers of an attack (3.2): strengths in eighths, the leftward column shifts of the
/// defender's terrain and of the hexsides attacked across (1.3), and the CRT column they give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Odds {
    pub attack: u32,
    pub defence: u32,
    pub terrain: u32,
    pub hexsides: u32,
    pub column: usize,
}

/// Which movement actions to list (see `legal_moves_of`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    All,
    Unit(UnitId),
    /// Overruns and boat crossings only.
    Others,
    Any,
}

/// 5.1: every group an airborne division may choose: the listed hexes (Bastogne and
/// Senonchamps), or each choice of `count` VP hexes of a sheet (any two on Map A).
fn airborne_groups(w: &World) -> Vec<Vec<Hex>> {
    let grid = &w.map.grid;
    let mut out = Vec::new();
    for g in &w.data.schedule.airborne.groups {
        match g {
            crate::data::AirborneGroup::VpHexes { sheet, count } => {
                let mut vp: Vec<Hex> = w
                    .data
                    .tables
                    .vp_hexes
                    .iter()
                    .map(|v| v.hex)
                    .filter(|&h| crate::data::sheet_col_row(grid, h).0 == *sheet)
                    .collect();
                vp.sort();
                vp.dedup();
                choices(&vp, *count as usize, &mut Vec::new(), &mut out);
            }
            crate::data::AirborneGroup::Hexes(v) => out.push(v.clone()),
        }
    }
    out
}

/// Every choice of `k` items of `items`, in order, appended to `out`.
fn choices(items: &[Hex], k: usize, chosen: &mut Vec<Hex>, out: &mut Vec<Vec<Hex>>) {
    if chosen.len() == k || items.len() < k - chosen.len() {
        if chosen.len() == k {
            out.push(chosen.clone());
        }
        return;
    }
    for (i, &h) in items.iter().enumerate() {
        chosen.push(h);
        choices(&items[i + 1..], k, chosen, out);
        chosen.pop();
    }
}

/// 5.1: the hexes an airborne unit of a division may drop on, given where the division's units
/// dropped already: within 3 hexes of a group that every one of them is within 3 hexes of, so
/// that the division keeps to one group (both divisions may use the same one).
fn airborne_hexes(w: &World, s: &State, scenario: &Scenario, placed: &[Hex]) -> Vec<Hex> {
    let grid = &w.map.grid;
    let n = w.data.schedule.airborne.within as u32;
    let b = Board::new(w, s);
    let mut centres: Vec<Hex> = airborne_groups(w)
        .into_iter()
        .filter(|g| placed.iter().all(|&p| g.iter().any(|&c| grid.distance(c, p) <= n)))
        .flatten()
        .collect();
    centres.sort();
    centres.dedup();
    let mut v: Vec<Hex> = grid
        .hexes()
        .filter(|&h| !b.enemy_in(Side::Allied, h) && scenario.in_area(grid, h))
        .filter(|&h| centres.iter().any(|&c| grid.distance(c, h) <= n))
        .collect();
    v.sort_by_key(|&h| (centres.iter().map(|&c| grid.distance(c, h)).min(), h));
    v
}

/// The hexes a location offers its owner now, nearest first for "within" (SCS set-up
/// notation, 2.2, SCS 5.0, 5.1): in the playing area and not held by the enemy.
fn location_hexes(w: &World, s: &State, side: Side, scenario: &Scenario, loc: &Location) -> Vec<Hex> {
    let b = Board::new(w, s);
    let grid = &w.map.grid;
    let free = |h: &Hex| !b.enemy_in(side, *h) && scenario.in_area(grid, *h);
    let within = |centres: &[Hex], n: u32| -> Vec<Hex> {
        let mut v: Vec<Hex> = grid
            .hexes()
            .filter(|&h| centres.iter().any(|&c| grid.distance(c, h) <= n))
            .collect();
        v.sort_by_key(|&h| (centres.iter().map(|&c| grid.distance(c, h)).min(), h));
        v
    };
    let set = |name: &str| w.map.hex_sets.get(name).cloned().unwrap_or_default();
    let all: Vec<Hex> = match loc {
        Location::Hex(h) => vec![*h],
        Location::Within { hex, within: n } => within(&[*hex], *n as u32),
        Location::OneOf(v) => v.clone(),
        Location::Areas(letters) => letters.iter().flat_map(|l| set(&format!("entry-{l}"))).collect(),
        Location::Edge { sheet, edge } => set(&format!("edge-{}", format!("{edge:?}").to_lowercase()))
            .into_iter()
            .filter(|&h| crate::data::sheet_col_row(grid, h).0 == *sheet)
            .collect(),
        // 5.1: within 3 hexes of a hex of a group (before a division has chosen, any group).
        Location::Airborne => {
            let centres: Vec<Hex> = airborne_groups(w).into_iter().flatten().collect();
            within(&centres, w.data.schedule.airborne.within as u32)
        }
    };
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<Hex> = all.into_iter().filter(|h| free(h) && seen.insert(*h)).collect();
    if out.is_empty() {
        // Every hex held by the enemy: a free hex next to it (SCS 5.0, reconstructed).
        if let Location::Hex(h) = loc {
            out.extend(grid.neighbours(*h).map(|(_, n)| n).filter(|n| free(n)));
        }
    }
    out
}

impl ArdennesII {
    /// A game of `scenario` from its first turn.
    pub(crate) fn start(w: std::sync::Arc<World>, scenario: &Scenario, seed: u64) -> ArdennesII {
        let n = w.data.counters.units.len();
        let mut s = State {
            scenario: scenario.id.clone(),
            turn: scenario.first_turn,
            first_turn: scenario.first_turn,
            last_turn: scenario.last_turn,
            phase: Phase::FIRST,
            units: vec![UnitState::default(); n],
            markers: Vec::new(),
            frozen: false,
            air_strikes: 0,
            unobserved_strikes: Vec::new(),
            blown: Vec::new(),
            tested: Vec::new(),
            control: w
                .data
                .tables
                .vp_hexes
                .iter()
                .map(|v| scenario.initial_control(v.hex))
                .collect(),
            vp_max: 0,
            vp_last: 0,
            combat: None,
            attacked_hexes: Vec::new(),
            over: false,
            bug_outs: Vec::new(),
            placing: Vec::new(),
            airborne_due: Vec::new(),
            airborne_drop: Vec::new(),
            demolition_window: false,
            approached: Vec::new(),
            phase_done: false,
            air_supply: Vec::new(),
            resupply: Vec::new(),
            rng: Rng::from_seed(seed),
            area: (!scenario.area.is_empty()).then(|| {
                let grid = &w.map.grid;
                std::sync::Arc::new(grid.hexes().map(|h| scenario.in_area(grid, h)).collect())
            }),
            memo: Default::default(),
        };
        for m in &scenario.markers {
            match m.kind {
                crate::data::MarkerKind::BridgeBlown => s.blown.push(m.hex),
                crate::data::MarkerKind::BridgeTested => s.tested.push(m.hex),
            }
        }
        let mut placing = Vec::new();
        for p in &scenario.setup {
            let side = w.data.counters.units[p.unit as usize].side;
            let hexes = location_hexes(&w, &s, side, scenario, &p.at);
            let u = &mut s.units[p.unit as usize];
            u.reduced = p.reduced;
            u.dg = p.dg;
            match hexes.as_slice() {
                [] => {}
                [h] => u.loc = Some(*h),
                // SCS set-up notes: "w/i N" and the like are the owner's choice.
                _ => placing.push(Placing { unit: p.unit, hexes }),
            }
        }
        s.placing = placing;
        let mut g = ArdennesII {
            w,
            s,
            journal: Default::default(),
            scenario: std::sync::Arc::new(scenario.clone()),
            rolled: false,
        };
        if !g.s.placing.is_empty() {
            // SCS 5.0: the owners' set-up choices come before the first phase.
            g.s.phase = Phase::SetUp;
            g.journal.heading(|| Phase::SetUp.name());
        } else {
            g.journal.heading(|| g_turn_heading(g.s.turn));
        }
        g.begin_phase();
        g.settle();
        g
    }

    pub(crate) fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    fn d6(&mut self) -> u8 {
        self.rolled = true;
        self.s.rng.d6()
    }

    /// Who decides now.
    pub(crate) fn pending_seat(&self) -> Pending {
        if self.s.over {
            return Pending::Over;
        }
        if let Some(p) = self.s.placing.first() {
            return Pending::Seat(self.unit_side(p.unit).seat());
        }
        if let Some(&u) = self.s.bug_outs.first() {
            return Pending::Seat(self.unit_side(u).seat());
        }
        if self.s.demolition_window {
            return Pending::Seat(Side::Allied.seat());
        }
        if let Some(&u) = self.s.resupply.first() {
            return Pending::Seat(self.unit_side(u).seat());
        }
        if let Some(c) = &self.s.combat {
            let attacker = self.s.phase.phasing().unwrap_or(Side::German);
            let side = match c.stage {
                Stage::Commit | Stage::AttackerLoss | Stage::Advance => attacker,
                Stage::StandOrRetreat | Stage::DefenderLoss | Stage::Retreat => attacker.enemy(),
            };
            return Pending::Seat(side.seat());
        }
        match self.s.phase {
            Phase::UsBarrage | Phase::AirSupply => Pending::Seat(Side::Allied.seat()),
            Phase::Movement(s) | Phase::Combat(s) | Phase::Exploitation(s) => Pending::Seat(s.seat()),
            _ => Pending::Over,
        }
    }

    fn unit_side(&self, u: UnitId) -> Side {
        self.w.data.counters.units[u as usize].side
    }

    fn units_of(&self, side: Side) -> impl Iterator<Item = UnitId> + '_ {
        (0..self.s.units.len() as UnitId)
            .filter(move |&u| self.unit_side(u) == side && self.s.units[u as usize].hex().is_some())
    }

    /// Runs the phases that need no decision, until someone must decide or the game ends.
    pub(crate) fn settle(&mut self) {
        for _ in 0..200 {
            if self.s.over
                || self.s.combat.is_some()
                || !self.s.bug_outs.is_empty()
                || self.s.demolition_window
                || !self.s.resupply.is_empty()
                || !self.s.placing.is_empty()
            {
                return;
            }
            match self.s.phase {
                // A movement phase can always be ended: someone decides.
                Phase::Movement(_) => return,
                Phase::UsBarrage | Phase::Combat(_) | Phase::Exploitation(_) | Phase::AirSupply => {
                    if self.any_legal() {
                        return;
                    }
                    self.end_phase();
                }
                _ => {
                    // A decision the phase's work raised (a placement, a resupply choice)
                    // is taken within the phase, which then ends.
                    if !self.s.phase_done {
                        self.s.phase_done = true;
                        self.automatic_phase();
                        continue;
                    }
                    self.end_phase();
                }
            }
        }
    }

    /// The work of a phase without decisions.
    fn automatic_phase(&mut self) {
        let turn = self.s.turn;
        match self.s.phase {
            // 2.2: from turn 8, until Frozen.
            Phase::Weather if turn >= self.w.data.tables.weather_first_roll_turn && !self.s.frozen => {
                let die = self.d6();
                let w = self.w.data.tables.weather.roll(die as i32);
                self.s.frozen = w == crate::data::Weather::Frozen;
                self.journal.say(|| {
                    Text::new(
                        format!(
                            "2.2: weather die {die}: {}.",
                            if self.s.frozen { "Frozen" } else { "not Frozen" }
                        ),
                        format!("2.2:天气骰 {die}:{}。", if self.s.frozen { "冰冻" } else { "未冰冻" }),
                    )
                });
            }
            Phase::AirStrikes => {
                let die = self.d6();
                let weather = if self.s.frozen {
                    crate::data::Weather::Frozen
                } else {
                    crate::data::Weather::NotFrozen
                };
                let halved = self.scenario().air_strikes == crate::data::AirStrikeRule::Halved;
                self.s.air_strikes = self.w.data.tables.air_strikes.strikes(weather, die as i32, halved);
                let n = self.s.air_strikes;
                self.journal.say(|| {
                    text!(
                        "2.2: air strike die {die}: the US has {n} air strikes this turn.",
                        "2.2:空袭骰 {die}:美军本回合有 {n} 次空袭。"
                    )
                });
            }
            Phase::Reinforcements => self.reinforcements(),
            Phase::MarkerRemoval => {
                // 2.2, 3.5: every barrage marker goes; 3.4: DG recovery.
                self.s.markers.clear();
                self.dg_recovery();
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

    /// 2.2, SCS 5.0: this turn's arrivals and removals.
    fn reinforcements(&mut self) {
        let turn = self.s.turn;
        let scenario = self.scenario().clone();
        for a in scenario.arrivals.iter().filter(|a| a.turn == turn) {
            if let Some(n) = a.arrives_on {
                let die = self.d6();
                if die < n {
                    self.journal.say(|| {
                        text!(
                            "Arrival roll {die}: the units do not come.",
                            "抵达骰 {die}:部队未能抵达。"
                        )
                    });
                    continue;
                }
            }
            if a.landing.is_some() {
                // 4.1: the von der Heydte Success Table.
                let die = self.d6();
                if self.w.data.tables.von_der_heydte.roll(die as i32) == crate::data::tables::VdhLanding::Destroyed {
                    for &u in &a.units {
                        let st = &mut self.s.units[u as usize];
                        st.gone = true;
                        st.removed = true;
                    }
                    self.journal.say(|| {
                        text!(
                            "4.1: von der Heydte die {die}: the drop fails.",
                            "4.1:冯·德·海特骰 {die}:空降失败。"
                        )
                    });
                    continue;
                }
            }
            if a.at == Location::Airborne {
                // 5.1: placed in the US movement phase.
                self.s.airborne_due.extend(a.units.iter().copied());
                continue;
            }
            let hexes = location_hexes(&self.w, &self.s, a.side, &scenario, &a.at);
            for &u in &a.units {
                let st = &mut self.s.units[u as usize];
                if st.loc.is_some() || st.gone {
                    continue;
                }
                st.reduced = a.reduced;
                match hexes.as_slice() {
                    [] => {}
                    [h] => st.loc = Some(*h),
                    _ => self.s.placing.push(Placing {
                        unit: u,
                        hexes: hexes.clone(),
                    }),
                }
            }
            let k = a.units.len();
            self.journal.say(|| {
                text!(
                    "Reinforcements: {k} unit(s) arrive (2.2).",
                    "增援:{k} 个单位抵达(2.2)。"
                )
            });
        }
        for r in scenario.removals.iter().filter(|r| r.turn == turn) {
            for &u in &r.units {
                let st = &mut self.s.units[u as usize];
                st.gone = true;
                st.removed = true;
                st.loc = None;
            }
        }
    }

    /// 3.4: DG comes off a stack that is in supply (at its last supply phase), not in a traffic
    /// jam, not overstacked and not mixing divisions.
    fn dg_recovery(&mut self) {
        let b = Board::new(&self.w, &self.s);
        let supplied = with_search(|search| {
            [
                self.supply_map(&b, Side::German, search),
                self.supply_map(&b, Side::Allied, search),
            ]
        });
        let mut clear = Vec::new();
        let mut resupply = Vec::new();
        for h in self.w.map.grid.hexes() {
            let units = b.units_at(h);
            if units.is_empty() {
                continue;
            }
            // 3.7: Air Supply removes all US DG within 5 hexes.
            if b.side_at(h) == Some(Side::Allied) && b.air_supplied(h) {
                clear.extend(units);
                continue;
            }
            // 3.7: artillery comes out of DG free if it can trace supply; if not, its owner
            // chooses whether to roll on the Artillery Resupply Table.
            let (artillery, others): (Vec<UnitId>, Vec<UnitId>) = units
                .iter()
                .partition(|&&u| self.w.data.counters.units[u as usize].is_artillery());
            for u in artillery.into_iter().filter(|&u| self.s.units[u as usize].dg) {
                let side = self.unit_side(u);
                if supplied[side.seat() as usize][h.idx()] {
                    clear.push(u);
                } else {
                    resupply.push(u);
                }
            }
            // 3.1: traffic jams act on German units only.
            if self.stack_fault(&units) || (b.traffic_jam(h) && b.side_at(h) == Some(Side::German)) {
                continue;
            }
            if others.iter().any(|&u| self.s.units[u as usize].out_of_supply) {
                continue;
            }
            clear.extend(others);
        }
        drop(b);
        for u in clear {
            self.s.units[u as usize].dg = false;
        }
        self.s.resupply = resupply;
    }

    /// 3.1: more than 3 units, or units of more than one division (independents aside; not
    /// in an entry area, where divisional integrity does not apply).
    fn stack_fault(&self, units: &[UnitId]) -> bool {
        if units.len() > 3 {
            return true;
        }
        let in_entry_area = units
            .first()
            .and_then(|&u| self.s.units[u as usize].hex())
            .is_some_and(|h| {
                self.w
                    .map
                    .hex_sets
                    .iter()
                    .any(|(name, hexes)| name.starts_with("entry-") && hexes.contains(&h))
            });
        if in_entry_area {
            return false;
        }
        let mut division = None;
        for &u in units {
            if let Some(f) = self.w.data.counters.units[u as usize].formation {
                match division {
                    None => division = Some(f),
                    Some(d) if d != f => return true,
                    _ => {}
                }
            }
        }
        false
    }

    /// 3.7: the side's units trace supply; those that cannot become DG.
    fn supply_phase(&mut self, side: Side) {
        let supplied = with_search(|search| self.supply_map(&Board::new(&self.w, &self.s), side, search));
        let mut out = 0;
        for u in self.units_of(side).collect::<Vec<_>>() {
            let h = self.s.units[u as usize].hex().expect("on the map");
            let st = &mut self.s.units[u as usize];
            st.out_of_supply = !supplied[h.idx()];
            if st.out_of_supply {
                st.dg = true;
                out += 1;
            }
        }
        let name = side_name(side);
        self.journal.say(|| {
            Text::new(
                format!("3.7: {out} {} unit(s) out of supply become DG.", name.en),
                format!("3.7:{out} 个{}单位无补给,成为混乱。", name.zh),
            )
        });
    }

    /// 6.0: a VP hex belongs to the side that last occupied it and can trace supply then.
    fn update_control(&mut self) {
        let supplied = with_search(|search| {
            let b = Board::new(&self.w, &self.s);
            [
                self.supply_map(&b, Side::German, search),
                self.supply_map(&b, Side::Allied, search),
            ]
        });
        let b = Board::new(&self.w, &self.s);
        let holders: Vec<Option<Side>> = self
            .w
            .data
            .tables
            .vp_hexes
            .iter()
            .map(|v| {
                b.side_at(v.hex)
                    .filter(|side| supplied[side.seat() as usize][v.hex.idx()])
            })
            .collect();
        drop(b);
        for (i, holder) in holders.into_iter().enumerate() {
            if let Some(side) = holder {
                self.s.control[i] = side;
            }
        }
    }

    /// The German's VP now: the VP hexes in the playing area he controls.
    pub(crate) fn german_vp(&self) -> u32 {
        let scenario = self.scenario();
        self.w
            .data
            .tables
            .vp_hexes
            .iter()
            .zip(&self.s.control)
            .filter(|(v, c)| **c == Side::German && scenario.in_area(&self.w.map.grid, v.hex))
            .map(|(v, _)| v.vp as u32)
            .sum()
    }

    /// Ends the current phase: its end-of-phase rules, then the next phase (or turn).
    pub(crate) fn end_phase(&mut self) {
        let phase = self.s.phase;
        self.mark_captured_bridges();
        if phase.barrage_side().is_some() {
            self.half_reconciliation();
        }
        if matches!(
            phase,
            Phase::Movement(_) | Phase::UsBarrage | Phase::Combat(_) | Phase::Exploitation(_)
        ) {
            // 3.1, 3.4: overstacked or mixed stacks become DG at the end of any phase.
            let b = Board::new(&self.w, &self.s);
            let mut dg = Vec::new();
            for h in self.w.map.grid.hexes() {
                let units = b.units_at(h);
                if !units.is_empty() && self.stack_fault(&units) {
                    dg.extend(units);
                }
            }
            for u in dg {
                self.s.units[u as usize].dg = true;
            }
            self.update_control();
        }
        if phase == Phase::SetUp {
            self.journal.heading(|| g_turn_heading(self.s.turn));
        }
        match phase.next(self.s.turn) {
            Some(next) => self.s.phase = next,
            None => {
                self.end_turn();
                if self.s.over {
                    return;
                }
            }
        }
        self.journal.heading(|| self.s.phase.name());
        self.begin_phase();
    }

    fn end_turn(&mut self) {
        self.update_control();
        let vp = self.german_vp();
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
            self.s.over = true;
            return;
        }
        self.s.turn += 1;
        self.s.phase = Phase::FIRST;
        self.journal.heading(|| g_turn_heading(self.s.turn));
    }

    /// Start-of-phase bookkeeping: per-phase flags, adjacency at the start (1.2), enemy
    /// markers at the start (3.5), traffic jams (3.1).
    fn begin_phase(&mut self) {
        self.s.phase_done = false;
        let b = Board::new(&self.w, &self.s);
        let mut adjacent = vec![false; self.s.units.len()];
        let mut barraged = vec![false; self.s.units.len()];
        let mut jammed = vec![false; self.s.units.len()];
        for (i, u) in self.s.units.iter().enumerate() {
            if let Some(h) = u.hex() {
                let side = self.w.data.counters.units[i].side;
                adjacent[i] = b.enemy_adjacent(side, h);
                barraged[i] = b.full_markers(h, side.enemy()) > 0;
                jammed[i] = side == Side::German && b.traffic_jam(h);
            }
        }
        for (i, u) in self.s.units.iter_mut().enumerate() {
            u.spent = 0;
            u.moved = false;
            u.fired = false;
            u.observed = false;
            u.attacked = false;
            u.stopped = false;
            u.adjacent_at_start = adjacent[i];
            u.barraged = barraged[i];
            if jammed[i] {
                u.dg = true;
            }
        }
        self.s.attacked_hexes.clear();
        self.s.unobserved_strikes.clear();
        self.s.approached.clear();
        // 5.1: the airborne divisions are placed in the US movement phase.
        if self.s.phase == Phase::Movement(Side::Allied) && !self.s.airborne_due.is_empty() {
            let scenario = self.scenario().clone();
            let hexes = location_hexes(&self.w, &self.s, Side::Allied, &scenario, &Location::Airborne);
            self.s.airborne_drop = std::mem::take(&mut self.s.airborne_due);
            for u in self.s.airborne_drop.clone() {
                if !hexes.is_empty() && self.s.units[u as usize].loc.is_none() {
                    self.s.placing.push(Placing {
                        unit: u,
                        hexes: hexes.clone(),
                    });
                }
            }
        }
        // 3.8 (RULINGS): the US may blow bridges "at any moment": before each German movement.
        if self.s.phase == Phase::Movement(Side::German) {
            let mut any = Vec::new();
            self.legal_demolitions(&mut any);
            self.s.demolition_window = !any.is_empty();
        }
        // 3.6: artillery next to a strong enemy when a phase begins bugs out.
        let b = Board::new(&self.w, &self.s);
        let mut triggered = Vec::new();
        for u in 0..self.s.units.len() as UnitId {
            let Some(h) = self.s.units[u as usize].hex() else {
                continue;
            };
            let side = self.unit_side(u);
            let threat = self.units_of(side.enemy()).any(|e| {
                let eh = self.s.units[e as usize].hex().expect("on the map");
                self.w.map.grid.adjacent(eh, h) && self.printed_attack(e) >= 2 && self.may_attack_across(&b, e, eh, h)
            });
            if threat && self.must_bug_out(u) {
                triggered.push(u);
            }
        }
        drop(b);
        for u in triggered {
            if !self.s.bug_outs.contains(&u) {
                self.s.bug_outs.push(u);
            }
        }
    }

    /// 3.7 and the scenario's supply rules: where `side` can trace supply now.
    pub(crate) fn supply_map(&self, b: &Board, side: Side, search: &mut Search) -> Vec<bool> {
        let sources = self.supply_sources(b, side);
        b.supply_from(side, &sources, search)
    }

    /// The hexes `side` traces supply to: the scenario's sources (7.3–7.6), else its friendly
    /// map edges (1.3), within the playing area.
    fn supply_sources(&self, b: &Board, side: Side) -> Vec<Hex> {
        use crate::data::{RoadKind, SupplySource};
        let scenario = self.scenario();
        let grid = &self.w.map.grid;
        let listed: Vec<&SupplySource> = scenario.supply.iter().filter(|s| s.side() == side).collect();
        if listed.is_empty() {
            return b
                .edge_sources(side)
                .into_iter()
                .filter(|&h| scenario.in_area(grid, h))
                .collect();
        }
        let mut out = Vec::new();
        for source in listed {
            match source {
                SupplySource::FriendlyEdges { .. } => {
                    out.extend(b.edge_sources(side).into_iter().filter(|&h| scenario.in_area(grid, h)))
                }
                SupplySource::Hexes { hexes, .. } => out.extend(hexes.iter().copied()),
                SupplySource::RoadOffEdge {
                    edge,
                    road,
                    sheet,
                    from,
                    from_turn,
                    ..
                } => {
                    if from_turn.is_some_and(|t| self.s.turn < t) {
                        continue;
                    }
                    let mask = match road {
                        RoadKind::Road => self.w.s.road,
                        RoadKind::Any => self.w.s.road | self.w.s.track,
                    };
                    out.extend(grid.hexes().filter(|&h| {
                        self.on_area_edge(h, *edge)
                            && self.w.map.any_side(h, mask)
                            && sheet.is_none_or(|sh| crate::data::sheet_col_row(grid, h).0 == sh)
                            && from.is_none_or(|(start, toward)| {
                                let (c, r) = grid.col_row(h);
                                let (c0, r0) = grid.col_row(start);
                                match toward {
                                    crate::data::Edge::East => c >= c0,
                                    crate::data::Edge::West => c <= c0,
                                    crate::data::Edge::North => r >= r0,
                                    crate::data::Edge::South => r <= r0,
                                }
                            })
                    }));
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// 3.6: artillery bugs out unless DG.
    fn must_bug_out(&self, u: UnitId) -> bool {
        self.w.data.counters.units[u as usize].is_artillery() && !self.s.units[u as usize].dg
    }

    /// 3.6: a unit of printed attack 2 or more that moved along `path` (its own MP) makes the
    /// enemy artillery it came next to bug out, unless the hexside would bar its attack.
    fn bug_out_triggers(&mut self, mover: UnitId, path: &[Hex]) {
        if self.printed_attack(mover) < 2 {
            return;
        }
        let side = self.unit_side(mover);
        let guns: Vec<UnitId> = self.units_of(side.enemy()).filter(|&a| self.must_bug_out(a)).collect();
        if guns.is_empty() {
            return;
        }
        let b = Board::new(&self.w, &self.s);
        let mut triggered = Vec::new();
        for &p in path.iter().skip(1) {
            for &a in &guns {
                let ah = self.s.units[a as usize].hex().expect("on the map");
                if self.w.map.grid.adjacent(p, ah)
                    && self.may_attack_across(&b, mover, p, ah)
                    && !triggered.contains(&a)
                {
                    triggered.push(a);
                }
            }
        }
        drop(b);
        for a in triggered {
            if !self.s.bug_outs.contains(&a) {
                self.s.bug_outs.push(a);
            }
        }
    }

    /// 3.6: where artillery may bug out to: a hex at least 8 hexes of continuous road from its
    /// own (the route ignores enemy units and bonds), in supply, open to mechanized movement,
    /// with no enemy unit in or next to it.
    pub(crate) fn bug_out_hexes(&self, u: UnitId) -> Vec<Hex> {
        let Some(start) = self.s.units[u as usize].hex() else {
            return Vec::new();
        };
        let side = self.unit_side(u);
        with_search(|search| {
            let b = Board::new(&self.w, &self.s);
            let supplied = self.supply_map(&b, side, search);
            search.run_breadth_first(&self.w.map.grid, &[(start, 0)], u32::MAX - 1, |from, d, _| {
                if b.road_link(from, d).is_some() {
                    sandtable_core::search::Step::Go(1)
                } else {
                    sandtable_core::search::Step::Blocked(sandtable_core::search::Why::NONE)
                }
            });
            let mut out: Vec<Hex> = search
                .reached()
                .filter(|&h| {
                    search.cost(h).is_some_and(|c| c >= 8)
                        && supplied[h.idx()]
                        && self.w.costs.hex[side.seat() as usize][1][h.idx()].is_some()
                        && !b.enemy_in(side, h)
                        && !b.enemy_adjacent(side, h)
                        && self.scenario().in_area(&self.w.map.grid, h)
                })
                .collect();
            out.sort();
            out
        })
    }

    /// 3.5: at the end of a barrage phase, two or more Half markers in a hex become one Full;
    /// a lone Half rolls on the Half Reconciliation Table.
    fn half_reconciliation(&mut self) {
        let mut markers = std::mem::take(&mut self.s.markers);
        for m in markers.iter_mut() {
            match m.half {
                0 => {}
                1 => {
                    let die = self.d6();
                    if self.w.data.tables.half_reconciliation.roll(die as i32)
                        == crate::data::tables::HalfReconciliation::Full
                    {
                        m.full += 1;
                    }
                    let hid = self.w.data.hex_id(m.hex);
                    self.journal.say(|| {
                        text!(
                            "3.5: Half marker at {hid}, die {die}.",
                            "3.5:{hid} 的半数标记,骰 {die}。"
                        )
                    });
                }
                _ => m.full += 1,
            }
            m.half = 0;
        }
        markers.retain(|m| m.full > 0);
        self.s.markers = markers;
    }

    /// The legal actions now.
    pub(crate) fn legal_list(&self) -> Vec<Action> {
        let mut out = Vec::new();
        if self.s.over {
            return out;
        }
        if let Some(p) = self.s.placing.first() {
            let b = Board::new(&self.w, &self.s);
            let side = self.unit_side(p.unit);
            out.extend(
                p.hexes
                    .iter()
                    .filter(|&&h| !b.enemy_in(side, h))
                    .map(|&at| Action::Place { unit: p.unit, at }),
            );
            if out.is_empty() {
                // Every offered hex has been taken by the enemy since: the first one nearby.
                let first = p.hexes[0];
                out.extend(
                    self.w
                        .map
                        .grid
                        .neighbours(first)
                        .map(|(_, n)| n)
                        .filter(|&n| !b.enemy_in(side, n))
                        .map(|at| Action::Place { unit: p.unit, at }),
                );
            }
            if out.is_empty() {
                out.push(Action::Place {
                    unit: p.unit,
                    at: p.hexes[0],
                });
            }
            return out;
        }
        if let Some(&u) = self.s.bug_outs.first() {
            let to = self.bug_out_hexes(u);
            if to.is_empty() {
                out.push(Action::StayPut { unit: u });
            }
            out.extend(to.into_iter().map(|to| Action::BugOut { unit: u, to }));
            return out;
        }
        if self.s.demolition_window {
            self.legal_demolitions(&mut out);
            out.push(Action::Pass);
            return out;
        }
        if let Some(&u) = self.s.resupply.first() {
            out.push(Action::Resupply { unit: u, roll: true });
            out.push(Action::Resupply { unit: u, roll: false });
            return out;
        }
        if let Some(c) = &self.s.combat {
            self.legal_combat(c, &mut out);
            return out;
        }
        match self.s.phase {
            Phase::Movement(side) => {
                self.legal_moves(side, false, &mut out);
                self.legal_barrage(side, &mut out);
                if side == Side::Allied {
                    self.legal_demolitions(&mut out);
                }
                out.push(Action::EndPhase);
            }
            // 2.2: offered on the hexes of US units (RULINGS).
            Phase::AirSupply if self.s.air_strikes > 0 => {
                let mut hexes: Vec<Hex> = self
                    .units_of(Side::Allied)
                    .filter_map(|u| self.s.units[u as usize].hex())
                    .filter(|h| !self.s.air_supply.contains(h))
                    .collect();
                hexes.sort();
                hexes.dedup();
                out.extend(hexes.into_iter().map(|hex| Action::AirSupply { hex }));
                if !out.is_empty() {
                    out.push(Action::EndPhase);
                }
            }
            Phase::UsBarrage => {
                self.legal_barrage(Side::Allied, &mut out);
                self.legal_demolitions(&mut out);
                if !out.is_empty() {
                    out.push(Action::EndPhase);
                }
            }
            Phase::Combat(side) => {
                self.legal_attacks(side, &mut out);
                if !out.is_empty() {
                    out.push(Action::EndPhase);
                }
            }
            Phase::Exploitation(side) => {
                self.legal_moves(side, true, &mut out);
                if !out.is_empty() {
                    out.push(Action::EndPhase);
                }
            }
            _ => {}
        }
        out
    }

    /// 3.8: the US unit that would make an attempt at demolition symbol `i`: a US unit within
    /// range of the symbol, with no German unit on either hex of any bridge it serves.
    fn demolisher(&self, b: &Board, i: usize) -> Option<UnitId> {
        let (symbol, pairs) = &self.w.demolitions[i];
        if self.s.blown.contains(symbol) || self.s.tested.contains(symbol) {
            return None;
        }
        if pairs
            .iter()
            .any(|&(x, y)| b.side_at(x) == Some(Side::German) || b.side_at(y) == Some(Side::German))
            || b.side_at(*symbol) == Some(Side::German)
        {
            return None;
        }
        let range = self.w.data.tables.bridge_us_unit_range as u32;
        self.units_of(Side::Allied).find(|&u| {
            let h = self.s.units[u as usize].hex().expect("on the map");
            self.w.map.grid.distance(h, *symbol) <= range
        })
    }

    fn legal_demolitions(&self, out: &mut Vec<Action>) {
        let b = Board::new(&self.w, &self.s);
        for i in 0..self.w.demolitions.len() {
            if self.demolisher(&b, i).is_some() {
                out.push(Action::Demolish {
                    symbol: self.w.demolitions[i].0,
                });
            }
        }
    }

    /// 3.8: a demolition symbol hex the Germans occupy is marked Tested for good.
    fn mark_captured_bridges(&mut self) {
        let b = Board::new(&self.w, &self.s);
        let captured: Vec<Hex> = self
            .w
            .demolitions
            .iter()
            .map(|(symbol, _)| *symbol)
            .filter(|h| b.side_at(*h) == Some(Side::German) && !self.s.blown.contains(h) && !self.s.tested.contains(h))
            .collect();
        drop(b);
        self.s.tested.extend(captured);
    }

    /// SCS 11.0 with 1.2, 3.3, 3.4, 3.5, 4.3: may this unit exploit?
    fn may_exploit(&self, u: UnitId) -> bool {
        let st = &self.s.units[u as usize];
        let def = &self.w.data.counters.units[u as usize];
        def.exploit && !st.dg && !st.adjacent_at_start && !st.barraged && !self.german_on_turn_1(def.side)
    }

    /// 1.2, 4.3: German units are not exploit-capable on turn 1 (inventory A12).
    fn german_on_turn_1(&self, side: Side) -> bool {
        side == Side::German && self.s.turn == 1
    }

    fn legal_moves(&self, side: Side, exploitation: bool, out: &mut Vec<Action>) {
        self.legal_moves_of(side, exploitation, Which::All, out);
    }

    /// The movement (or exploitation) actions `which` asks for: all of them, those of one
    /// unit (to check a move without tracing every unit's reach), or the first one found (to
    /// learn whether the phase has any).
    fn legal_moves_of(&self, side: Side, exploitation: bool, which: Which, out: &mut Vec<Action>) {
        let b = Board::new(&self.w, &self.s);
        with_search(|search| {
            for u in self.units_of(side).collect::<Vec<_>>() {
                if which == Which::Others || matches!(which, Which::Unit(v) if v != u) {
                    continue;
                }
                let st = &self.s.units[u as usize];
                if st.observed || st.fired || st.stopped || (exploitation && !self.may_exploit(u)) {
                    continue;
                }
                let Some(start) = st.hex() else { continue };
                for &(to, _) in b.destinations(u, search).iter() {
                    out.push(Action::Move { unit: u, to });
                }
                if self.exit_hex(side, start) {
                    out.push(Action::Exit { unit: u });
                }
                if which == Which::Any && !out.is_empty() {
                    return;
                }
            }
        });
        if matches!(which, Which::Unit(_)) || (which == Which::Any && !out.is_empty()) {
            return;
        }
        self.legal_overruns(&b, side, exploitation, out);
        if !exploitation {
            self.legal_boats(&b, side, out);
        }
    }

    /// Whether `a` is one of the legal actions now: the list of [`Self::legal_list`], built
    /// only as far as `a` needs (a move traces the reach of its own unit alone).
    pub(crate) fn is_legal(&self, a: &Action) -> bool {
        let interrupted = !self.s.placing.is_empty()
            || !self.s.bug_outs.is_empty()
            || self.s.demolition_window
            || !self.s.resupply.is_empty()
            || self.s.combat.is_some();
        let (side, exploitation) = match self.s.phase {
            Phase::Movement(side) if !self.s.over && !interrupted => (side, false),
            Phase::Exploitation(side) if !self.s.over && !interrupted => (side, true),
            _ => return self.legal_list().contains(a),
        };
        let mut out = Vec::new();
        match a {
            Action::Move { unit, .. } | Action::Exit { unit } => {
                self.legal_moves_of(side, exploitation, Which::Unit(*unit), &mut out);
                out.contains(a)
            }
            Action::EndPhase if exploitation => {
                self.legal_moves_of(side, exploitation, Which::Any, &mut out);
                !out.is_empty()
            }
            _ => {
                self.legal_moves_of(side, exploitation, Which::Others, &mut out);
                if !exploitation {
                    self.legal_barrage(side, &mut out);
                    if side == Side::Allied {
                        self.legal_demolitions(&mut out);
                    }
                    out.push(Action::EndPhase);
                }
                out.contains(a)
            }
        }
    }

    /// Whether the phase's decision-maker has any legal action now.
    fn any_legal(&self) -> bool {
        match self.s.phase {
            Phase::Exploitation(side) if self.s.combat.is_none() => {
                let mut out = Vec::new();
                self.legal_moves_of(side, true, Which::Any, &mut out);
                !out.is_empty()
            }
            _ => !self.legal_list().is_empty(),
        }
    }

    /// 4.2: on turns 1–2 the 2nd Panzer Division's mechanized infantry next to the Our when
    /// the phase began may cross it, ignoring the P, for all its MP.
    fn legal_boats(&self, b: &Board, side: Side, out: &mut Vec<Action>) {
        let turn_allows = self
            .w
            .data
            .tables
            .turns
            .iter()
            .any(|t| t.turn == self.s.turn && t.our_boats);
        if side != Side::German || !turn_allows {
            return;
        }
        let Some(division) = self.w.data.counters.formation_index("ger-2pz") else {
            return;
        };
        for u in self.units_of(side).collect::<Vec<_>>() {
            let def = &self.w.data.counters.units[u as usize];
            let st = &self.s.units[u as usize];
            if def.formation != Some(division)
                || def.utype != crate::data::UnitType::MechInfantry
                || !def.is_mech()
                || st.spent > 0
                || st.stopped
            {
                continue;
            }
            let h = st.hex().expect("on the map");
            for (d, n) in self.w.map.grid.neighbours(h) {
                if self.w.our[h.idx()][d as usize] && !b.enemy_in(side, n) {
                    out.push(Action::Boats { unit: u, to: n });
                }
            }
        }
    }

    /// 3.3: may this unit overrun now? Mech MA, not DG, not next to the enemy when the phase
    /// began, not in or through an enemy barrage hex, not overrun already, 2 MP left.
    fn may_overrun(&self, b: &Board, u: UnitId, exploitation: bool) -> bool {
        let st = &self.s.units[u as usize];
        let def = &self.w.data.counters.units[u as usize];
        let mp = self.w.data.tables.tec.movement.overrun as u32 * 2;
        def.is_mech()
            && !st.dg
            && !st.adjacent_at_start
            && !st.barraged
            && !st.overran
            && !st.observed
            && !st.stopped
            && b.allowance(u).saturating_sub(st.spent as u32) >= mp
            && (!exploitation || self.may_exploit(u))
    }

    /// 3.3: overruns along a road into an adjacent enemy hex: the whole eligible stack of a
    /// hex, or one of its units.
    fn legal_overruns(&self, b: &Board, side: Side, exploitation: bool, out: &mut Vec<Action>) {
        let mut hexes: Vec<Hex> = self
            .units_of(side)
            .filter_map(|u| self.s.units[u as usize].hex())
            .collect();
        hexes.sort();
        hexes.dedup();
        for h in hexes {
            let eligible: Vec<UnitId> = b
                .units_at(h)
                .into_iter()
                .filter(|&u| self.may_overrun(b, u, exploitation))
                .collect();
            if eligible.is_empty() {
                continue;
            }
            // Which of them overrun together is the owner's choice: every group with some
            // attack strength (a zero-strength attack cannot be made, RULINGS), the whole
            // stack first. More than 5 eligible units (temporary stacking in movement, 3.1)
            // offer the whole stack and each unit alone.
            let n = eligible.len();
            let groups: Vec<Vec<UnitId>> = if n <= 5 {
                let mut masks: Vec<u32> = (1..1u32 << n).collect();
                masks.sort_by_key(|m| (std::cmp::Reverse(m.count_ones()), *m));
                masks
                    .into_iter()
                    .map(|m| (0..n).filter(|i| m & (1 << i) != 0).map(|i| eligible[i]).collect())
                    .collect()
            } else {
                std::iter::once(eligible.clone())
                    .chain(eligible.iter().map(|&u| vec![u]))
                    .collect()
            };
            let groups: Vec<Vec<UnitId>> = groups.into_iter().filter(|g| self.attack_strength(b, g) > 0).collect();
            for (d, t) in self.w.map.grid.neighbours(h) {
                if !b.enemy_in(side, t) || b.road_link(h, d).is_none() {
                    continue;
                }
                for g in &groups {
                    out.push(Action::Overrun {
                        units: g.clone(),
                        target: t,
                    });
                }
            }
        }
    }

    /// Whether `h` is a hex German units of this scenario may exit through (7.2, 7.3, 7.5).
    fn exit_hex(&self, side: Side, h: Hex) -> bool {
        if side != Side::German {
            return false;
        }
        let via = match &self.scenario().victory {
            Victory::VpLevels { exit_via, exit_vp, .. } if !exit_vp.is_empty() => exit_via,
            Victory::GermanHolds {
                exit_via,
                exit_required,
                ..
            } if !exit_required.is_empty() => exit_via,
            _ => return false,
        };
        via.iter().any(|e| match e {
            crate::data::Exit::Area(letter) => self
                .w
                .map
                .hex_sets
                .get(&format!("entry-{letter}"))
                .is_some_and(|v| v.contains(&h)),
            crate::data::Exit::Edge(edge) => self.on_area_edge(h, *edge),
        })
    }

    /// Whether `h` lies on this edge of the playing area: in the area, with the next hex beyond
    /// that edge off the map or out of the area.
    fn on_area_edge(&self, h: Hex, edge: crate::data::Edge) -> bool {
        use crate::data::Edge;
        let grid = &self.w.map.grid;
        let scenario = self.scenario();
        if !scenario.in_area(grid, h) {
            return false;
        }
        let (c, r) = grid.col_row(h);
        let beyond: Vec<(i32, i32)> = match edge {
            Edge::West => vec![
                (c as i32 - 1, r as i32),
                (c as i32 - 1, r as i32 + 1),
                (c as i32 - 1, r as i32 - 1),
            ],
            Edge::East => vec![
                (c as i32 + 1, r as i32),
                (c as i32 + 1, r as i32 + 1),
                (c as i32 + 1, r as i32 - 1),
            ],
            Edge::North => vec![(c as i32, r as i32 + 1)],
            Edge::South => vec![(c as i32, r as i32 - 1)],
        };
        beyond.iter().any(|&(bc, br)| match grid.hex_at(bc, br) {
            None => true,
            Some(n) => !grid.adjacent(h, n) || !scenario.in_area(grid, n),
        } && grid.hex_at(bc, br).is_none_or(|n| grid.adjacent(h, n)))
    }

    /// Whether a formation has exited enough units (by the end of the goal's turn, if any).
    fn exit_met(&self, goal: &crate::data::ExitGoal) -> bool {
        let n = (0..self.s.units.len())
            .filter(|&i| {
                let st = &self.s.units[i];
                st.exited
                    && goal.by_turn.is_none_or(|t| st.exited_on <= t)
                    && self.w.data.counters.units[i].formation == Some(goal.formation)
            })
            .count();
        n >= goal.units as usize
    }

    /// 3.5: the observer of a barrage at `target` by `side`: a friendly unit within 2 hexes
    /// (of the firing unit's own division for divisional artillery).
    fn observer(&self, b: &Board, side: Side, target: Hex, division: Option<u16>) -> Option<UnitId> {
        let range = self.w.data.tables.barrage.observer_range as u32;
        self.units_of(side).find(|&o| {
            let h = self.s.units[o as usize].hex().expect("on the map");
            b.w.map.grid.distance(h, target) <= range
                && division.is_none_or(|d| self.w.data.counters.units[o as usize].formation == Some(d))
        })
    }

    /// 3.5: the hexes within observer range of a unit of `side` (of division `division` only,
    /// if given).
    fn observed_hexes(&self, side: Side, division: Option<u16>) -> Vec<bool> {
        let grid = &self.w.map.grid;
        let range = self.w.data.tables.barrage.observer_range as u32;
        let mut on = vec![false; grid.len()];
        let mut frontier: Vec<Hex> = self
            .units_of(side)
            .filter(|&o| division.is_none_or(|d| self.w.data.counters.units[o as usize].formation == Some(d)))
            .filter_map(|o| self.s.units[o as usize].hex())
            .collect();
        for &h in &frontier {
            on[h.idx()] = true;
        }
        for _ in 0..range {
            let mut next = Vec::new();
            for &h in &frontier {
                for (_, n) in grid.neighbours(h) {
                    if !on[n.idx()] {
                        on[n.idx()] = true;
                        next.push(n);
                    }
                }
            }
            frontier = next;
        }
        on
    }

    /// 3.5: a barrage may fall on any hex of the playing area, with enemy units, friendly
    /// units or none; an observer and the range decide.
    fn legal_barrage(&self, side: Side, out: &mut Vec<Action>) {
        let b = Board::new(&self.w, &self.s);
        let grid = &self.w.map.grid;
        let any = self.observed_hexes(side, None);
        let mut by_division: std::collections::HashMap<u16, Vec<bool>> = Default::default();
        for u in self.units_of(side).collect::<Vec<_>>() {
            let def = &self.w.data.counters.units[u as usize];
            let st = &self.s.units[u as usize];
            let Some(range) = def.range else { continue };
            if st.dg || st.moved || st.fired {
                continue;
            }
            let h = st.hex().expect("on the map");
            let observed = match def.formation.filter(|_| def.is_divarty()) {
                Some(d) => by_division
                    .entry(d)
                    .or_insert_with(|| self.observed_hexes(side, Some(d))),
                None => &any,
            };
            for t in grid.within(h, range as u32) {
                if observed[t.idx()] && b.in_area(t) {
                    out.push(Action::Fire { unit: u, target: t });
                }
            }
        }
        // 2.2, 3.5: an air strike needs no observer and has no range; without an observer it
        // strikes a hex once a phase. Unobserved strikes are offered where they can matter: at
        // enemy units and the hexes next to them (RULINGS).
        if side == Side::Allied && self.s.air_strikes > 0 {
            for t in grid.hexes().filter(|&t| b.in_area(t)) {
                let offered = any[t.idx()] || b.enemy_in(side, t) || b.enemy_adjacent(side, t);
                if offered && (any[t.idx()] || !self.s.unobserved_strikes.contains(&t)) {
                    out.push(Action::AirStrike { target: t });
                }
            }
        }
    }

    /// TEC note 1: whether unit `u` in `from` may attack `target`: it could enter by movement,
    /// or a road or track crosses the hexside.
    pub fn may_attack_across(&self, b: &Board, u: UnitId, from: Hex, target: Hex) -> bool {
        let Some(d) = self.w.map.grid.dir_to(from, target) else {
            return false;
        };
        // A blown bridge takes the road's exemption away (3.8).
        if b.road_link(from, d).is_some() {
            return true;
        }
        let def = &self.w.data.counters.units[u as usize];
        let names = &self.w.terrain_names[target.idx()];
        let sides = self.w.hexside_names(from, d);
        self.w
            .data
            .tables
            .tec
            .entry_cost(def.side, def.movement, names, &sides, None)
            .is_some()
    }

    fn attackers_of(&self, b: &Board, side: Side, target: Hex) -> Vec<UnitId> {
        self.units_of(side)
            .filter(|&u| {
                let st = &self.s.units[u as usize];
                let h = st.hex().expect("on the map");
                // SCS 7.1: units of zero attack strength (artillery among them) may join an
                // attack made with others, and take its losses.
                !st.attacked && self.w.map.grid.adjacent(h, target) && self.may_attack_across(b, u, h, target)
            })
            .collect()
    }

    /// Whether `units` together attack with some strength (an attack of 0 cannot be made).
    fn attack_strength(&self, b: &Board, units: &[UnitId]) -> u32 {
        units.iter().map(|&u| b.strength(u, true)).sum()
    }

    fn legal_attacks(&self, side: Side, out: &mut Vec<Action>) {
        let b = Board::new(&self.w, &self.s);
        let mut targets: Vec<Hex> = self
            .units_of(side.enemy())
            .filter_map(|u| self.s.units[u as usize].hex())
            .filter(|h| !self.s.attacked_hexes.contains(h))
            .collect();
        targets.sort();
        targets.dedup();
        for t in targets {
            if self.attack_strength(&b, &self.attackers_of(&b, side, t)) > 0 {
                out.push(Action::Attack { target: t });
            }
        }
    }

    /// 3.2: the defender must stand if DG, under an enemy barrage marker, in a City, or with
    /// any foot unit.
    fn must_stand(&self, b: &Board, c: &Combat) -> bool {
        let w = &self.w;
        let defender = self.unit_side(c.defenders[0]);
        w.map.terrain(c.target) & w.t.city != 0
            || b.full_markers(c.target, defender.enemy()) > 0
            || c.defenders.iter().any(|&u| {
                self.s.units[u as usize].dg || w.data.counters.units[u as usize].movement == crate::data::Movement::Foot
            })
    }

    fn alive(&self, units: &[UnitId]) -> Vec<UnitId> {
        units
            .iter()
            .copied()
            .filter(|&u| self.s.units[u as usize].hex().is_some())
            .collect()
    }

    fn legal_combat(&self, c: &Combat, out: &mut Vec<Action>) {
        let b = Board::new(&self.w, &self.s);
        let side = self.s.phase.phasing().unwrap_or(Side::German);
        match c.stage {
            Stage::Commit => {
                for u in self.attackers_of(&b, side, c.target) {
                    if !c.attackers.contains(&u) {
                        out.push(Action::Join { unit: u });
                    }
                }
                if self.attack_strength(&b, &c.attackers) > 0 {
                    out.push(Action::Resolve);
                }
                out.push(Action::CallOff);
            }
            Stage::StandOrRetreat => {
                out.push(Action::Stand);
                if !self.must_stand(&b, c) {
                    out.push(Action::Withdraw);
                }
            }
            Stage::AttackerLoss => {
                let alive = self.alive(&c.attackers);
                // SCS 8.0 (series supplement): the first attacker loss from the unit with the
                // highest attack strength; later ones the owner's choice.
                let first = c.attacker_lost == 0;
                let best = alive.iter().map(|&u| self.printed_attack(u)).max().unwrap_or(0);
                for u in alive {
                    if !first || self.printed_attack(u) == best {
                        out.push(Action::Lose { unit: u });
                    }
                }
            }
            Stage::DefenderLoss => {
                for u in self.alive(&c.defenders) {
                    out.push(Action::Lose { unit: u });
                }
            }
            Stage::Retreat => {
                for (h, _) in self.retreat_options(&b, c) {
                    out.push(Action::RetreatTo { to: h });
                }
            }
            Stage::Advance => {
                for &(u, left) in &c.advancing {
                    let Some(h) = self.s.units[u as usize].hex() else {
                        continue;
                    };
                    if h != c.target {
                        if !b.enemy_in(side, c.target) {
                            out.push(Action::Advance { unit: u, to: c.target });
                        }
                    } else if left > 0 {
                        // 3.2: the second hex along a road (or track).
                        for (d, n) in self.w.map.grid.neighbours(h) {
                            if b.road_link(h, d).is_some()
                                && !b.enemy_in(side, n)
                                && self.scenario().in_area(&self.w.map.grid, n)
                            {
                                out.push(Action::Advance { unit: u, to: n });
                            }
                        }
                    }
                }
                out.push(Action::EndAdvance);
            }
        }
    }

    fn printed_attack(&self, u: UnitId) -> u8 {
        let st = &self.s.units[u as usize];
        self.w.data.counters.units[u as usize].face(st.reduced).attack
    }

    /// 3.2 (6) with the series retreat rules: each hex farther from the combat hex, never into
    /// an enemy unit or terrain any unit of the stack may not enter, in the playing area. A
    /// stack that enters an enemy ZOC Bond stops there and loses a step; one that cannot go
    /// the whole way is blocked and loses a step where it stops (RULINGS). The hexes it may
    /// end in, each with whether it loses a step there.
    pub(crate) fn retreat_options(&self, b: &Board, c: &Combat) -> Vec<(Hex, bool)> {
        let stack = self.alive(&c.defenders);
        let Some(&first) = stack.first() else { return Vec::new() };
        let side = self.unit_side(first);
        let grid = &self.w.map.grid;
        let origin = c.target;
        let enter = |from: Hex, to: Hex| -> bool {
            let Some(d) = grid.dir_to(from, to) else { return false };
            if b.enemy_in(side, to) || !self.scenario().in_area(grid, to) {
                return false;
            }
            let road = b.road_link(from, d);
            stack.iter().all(|&u| {
                let def = &self.w.data.counters.units[u as usize];
                self.w
                    .data
                    .tables
                    .tec
                    .entry_cost(
                        side,
                        def.movement,
                        &self.w.terrain_names[to.idx()],
                        &self.w.hexside_names(from, d),
                        road,
                    )
                    .is_some()
            })
        };
        let mut layer = vec![origin];
        let mut out = Vec::new();
        for k in 1..=c.retreat as u32 {
            let mut next = Vec::new();
            for &h in &layer {
                for (_, n) in grid.neighbours(h) {
                    if grid.distance(origin, n) != k || !enter(h, n) {
                        continue;
                    }
                    if b.enemy_bond(side, n) {
                        if !out.contains(&(n, true)) {
                            out.push((n, true));
                        }
                    } else if !next.contains(&n) {
                        next.push(n);
                    }
                }
            }
            if next.is_empty() {
                if out.is_empty() {
                    // Blocked: the stack stops where it is and loses a step.
                    out.extend(layer.iter().map(|&h| (h, true)));
                }
                out.sort();
                return out;
            }
            layer = next;
        }
        out.extend(layer.into_iter().map(|h| (h, false)));
        out.sort();
        out.dedup();
        out
    }

    /// Carries out one legal decision (checked by the caller), then gives each VP hex it
    /// occupied to the occupier that can trace supply at that moment (6.0).
    pub(crate) fn exec(&mut self, a: &Action) {
        let before = self.vp_holders();
        self.carry_out(a);
        self.occupy(&before);
    }

    /// The side holding each VP hex now, in the order of the VP hex list.
    fn vp_holders(&self) -> Vec<Option<Side>> {
        let b = Board::new(&self.w, &self.s);
        self.w.data.tables.vp_hexes.iter().map(|v| b.side_at(v.hex)).collect()
    }

    /// 6.0: a VP hex is controlled by the side that last occupied it and could trace supply
    /// at that moment. `before` is who held each VP hex before the last decision.
    fn occupy(&mut self, before: &[Option<Side>]) {
        let now = self.vp_holders();
        let mut supplied: [Option<Vec<bool>>; 2] = [None, None];
        for (i, (&was, &is)) in before.iter().zip(&now).enumerate() {
            let Some(side) = is else { continue };
            if was == Some(side) || self.s.control[i] == side {
                continue;
            }
            let map = &mut supplied[side.seat() as usize];
            if map.is_none() {
                *map = Some(with_search(|search| {
                    self.supply_map(&Board::new(&self.w, &self.s), side, search)
                }));
            }
            let hex = self.w.data.tables.vp_hexes[i].hex;
            if map.as_ref().is_some_and(|m| m[hex.idx()]) {
                self.s.control[i] = side;
            }
        }
    }

    /// Unit `u` comes into hex `h` other than by a move of its own (an advance, an overrun's
    /// entry, a retreat, a placement): a German unit entering a traffic jam on turns 1–2
    /// becomes DG (3.1, 3.4), and a unit entering a hex with an enemy Full marker may neither
    /// overrun nor exploit for the rest of the phase (3.5).
    fn enter(&mut self, u: UnitId, h: Hex) {
        let side = self.unit_side(u);
        let b = Board::new(&self.w, &self.s);
        let jam = side == Side::German && b.traffic_jam(h);
        let marked = b.full_markers(h, side.enemy()) > 0;
        drop(b);
        let st = &mut self.s.units[u as usize];
        st.loc = Some(h);
        st.dg |= jam;
        st.barraged |= marked;
    }

    fn carry_out(&mut self, a: &Action) {
        match *a {
            Action::Move { unit, to } => self.do_move(unit, to),
            Action::Fire { unit, target } => self.do_fire(Some(unit), target),
            Action::AirStrike { target } => self.do_fire(None, target),
            Action::EndPhase => self.end_phase(),
            Action::Attack { target } => {
                let b = Board::new(&self.w, &self.s);
                let defenders = b.units_at(target);
                self.s.combat = Some(Combat {
                    target,
                    attackers: Vec::new(),
                    defenders,
                    stage: Stage::Commit,
                    result: None,
                    attacker_losses: 0,
                    defender_losses: 0,
                    attacker_lost: 0,
                    retreat: 0,
                    voluntary: false,
                    overrun: false,
                    advancing: Vec::new(),
                });
            }
            Action::Join { unit } => {
                if let Some(c) = self.s.combat.as_mut() {
                    c.attackers.push(unit);
                }
            }
            Action::CallOff => {
                if let Some(c) = self.s.combat.take() {
                    let hid = self.w.data.hex_id(c.target);
                    self.journal
                        .say(|| text!("3.2: the attack on {hid} is called off.", "3.2:取消对 {hid} 的攻击。"));
                }
            }
            Action::Resolve => {
                if let Some(c) = self.s.combat.as_mut() {
                    c.stage = Stage::StandOrRetreat;
                }
                let hid = self.w.data.hex_id(self.s.combat.as_ref().map_or(Hex(0), |c| c.target));
                self.journal.say(|| text!("3.2: attack on {hid}.", "3.2:攻击 {hid}。"));
                let target = self.s.combat.as_ref().map(|c| c.target);
                if let Some(t) = target {
                    self.s.attacked_hexes.push(t);
                }
                let attackers = self.s.combat.as_ref().map(|c| c.attackers.clone()).unwrap_or_default();
                for u in attackers {
                    self.s.units[u as usize].attacked = true;
                }
            }
            Action::Stand => self.roll_combat(),
            Action::Withdraw => {
                if let Some(c) = self.s.combat.as_mut() {
                    c.voluntary = true;
                    c.retreat = 5;
                    c.stage = Stage::Retreat;
                }
                self.journal.say(|| {
                    text!(
                        "3.2: the defender retreats 5 hexes before combat.",
                        "3.2:防御方在战斗前撤退 5 格。"
                    )
                });
            }
            Action::Lose { unit } => {
                self.lose_step(unit);
                self.after_loss();
            }
            Action::RetreatTo { to } => self.do_retreat(to),
            Action::Advance { unit, to } => {
                self.enter(unit, to);
                // 3.1, 3.5: made DG by a traffic jam, or in an enemy Full-marker hex, it goes no
                // farther.
                let st = &self.s.units[unit as usize];
                if st.dg || st.barraged {
                    if let Some(c) = self.s.combat.as_mut() {
                        if let Some(e) = c.advancing.iter_mut().find(|e| e.0 == unit) {
                            e.1 = 0;
                        }
                    }
                }
                if !self.journal.off {
                    let (name, hid) = (self.unit_text(unit), self.w.data.hex_id(to));
                    self.journal.say(|| {
                        Text::new(
                            format!("3.2: {} advances to {hid}.", name.en),
                            format!("3.2:{}推进到 {hid}。", name.zh),
                        )
                    });
                }
                if let Some(c) = self.s.combat.as_mut() {
                    if let Some(e) = c.advancing.iter_mut().find(|e| e.0 == unit) {
                        if e.1 == 0 || to != c.target {
                            c.advancing.retain(|e| e.0 != unit);
                        } else {
                            e.1 -= 1;
                        }
                    }
                }
            }
            Action::EndAdvance => self.s.combat = None,
            Action::Overrun { ref units, target } => {
                let b = Board::new(&self.w, &self.s);
                let defenders = b.units_at(target);
                drop(b);
                let cost = self.w.data.tables.tec.movement.overrun as u16 * 2;
                for &u in units {
                    let st = &mut self.s.units[u as usize];
                    st.overran = true;
                    st.spent += cost;
                    st.moved = true;
                }
                let hid = self.w.data.hex_id(target);
                self.journal.say(|| text!("3.3: overrun of {hid}.", "3.3:突袭 {hid}。"));
                self.s.combat = Some(Combat {
                    target,
                    attackers: units.clone(),
                    defenders,
                    stage: Stage::StandOrRetreat,
                    result: None,
                    attacker_losses: 0,
                    defender_losses: 0,
                    attacker_lost: 0,
                    retreat: 0,
                    voluntary: false,
                    overrun: true,
                    advancing: Vec::new(),
                });
            }
            Action::BugOut { unit, to } => {
                self.s.bug_outs.retain(|&u| u != unit);
                let st = &mut self.s.units[unit as usize];
                st.loc = Some(to);
                st.dg = true;
                let name = self.unit_text(unit);
                let hid = self.w.data.hex_id(to);
                self.journal.say(|| {
                    Text::new(
                        format!("3.6: {} bugs out to {hid} and becomes DG.", name.en),
                        format!("3.6:{}逃跑到 {hid},成为混乱。", name.zh),
                    )
                });
            }
            Action::StayPut { unit } => {
                self.s.bug_outs.retain(|&u| u != unit);
                let name = if self.journal.off {
                    Text::new("", "")
                } else {
                    self.unit_text(unit)
                };
                self.journal.say(|| {
                    Text::new(
                        format!("3.6: {} has no hex to bug out to and stays.", name.en),
                        format!("3.6:{}没有可逃往的格,原地不动。", name.zh),
                    )
                });
            }
            Action::Pass => self.s.demolition_window = false,
            Action::Place { unit, at } => {
                self.s.placing.retain(|p| p.unit != unit);
                self.enter(unit, at);
                if !self.journal.off {
                    let (name, hid) = (self.unit_text(unit), self.w.data.hex_id(at));
                    self.journal.say(|| {
                        Text::new(
                            format!("{} is placed at {hid}.", name.en),
                            format!("{}放置于 {hid}。", name.zh),
                        )
                    });
                }
                if self.s.airborne_drop.contains(&unit) {
                    self.airborne_group_kept(unit);
                }
            }
            Action::Boats { unit, to } => {
                let allowance = Board::new(&self.w, &self.s).allowance(unit) as u16;
                let st = &mut self.s.units[unit as usize];
                st.loc = Some(to);
                st.spent = allowance.max(1);
                st.moved = true;
                st.dg = false;
                let name = self.unit_text(unit);
                self.journal.say(|| {
                    Text::new(
                        format!("4.2: {} crosses the Our in rubber boats.", name.en),
                        format!("4.2:{}乘橡皮艇渡过乌尔河。", name.zh),
                    )
                });
            }
            Action::AirSupply { hex } => {
                self.s.air_strikes = self.s.air_strikes.saturating_sub(1);
                self.s.air_supply.push(hex);
                let hid = self.w.data.hex_id(hex);
                self.journal
                    .say(|| text!("2.2: an Air Supply marker at {hid}.", "2.2:在 {hid} 放置空中补给标记。"));
            }
            Action::Resupply { unit, roll } => {
                self.s.resupply.retain(|&u| u != unit);
                if roll {
                    let die = self.d6();
                    let name = self.unit_text(unit);
                    match self.w.data.tables.artillery_resupply.roll(die as i32) {
                        crate::data::tables::Resupply::Eliminate => {
                            let st = &mut self.s.units[unit as usize];
                            st.gone = true;
                            st.loc = None;
                        }
                        crate::data::tables::Resupply::RemoveDg => self.s.units[unit as usize].dg = false,
                        crate::data::tables::Resupply::Stay => {}
                    }
                    self.journal.say(|| {
                        Text::new(
                            format!("3.7: artillery resupply for {}, die {die}.", name.en),
                            format!("3.7:{}的火炮空中补给,骰 {die}。", name.zh),
                        )
                    });
                }
            }
            Action::Demolish { symbol } => {
                let b = Board::new(&self.w, &self.s);
                let i = self.w.demolitions.iter().position(|(h, _)| *h == symbol);
                let unit = i.and_then(|i| self.demolisher(&b, i));
                drop(b);
                if let Some(u) = unit {
                    // 3.8: the unit stops for the rest of the phase.
                    self.s.units[u as usize].stopped = true;
                }
                let die = self.d6();
                let hid = self.w.data.hex_id(symbol);
                if self.w.data.tables.bridge_demolition.roll(die as i32) == crate::data::tables::Demolition::Blown {
                    self.s.blown.push(symbol);
                    self.journal.say(|| {
                        text!(
                            "3.8: demolition at {hid}, die {die}: bridge blown.",
                            "3.8:{hid} 炸桥,骰 {die}:桥梁被炸毁。"
                        )
                    });
                } else {
                    self.s.tested.push(symbol);
                    self.journal.say(|| {
                        text!(
                            "3.8: demolition at {hid}, die {die}: failed (tested).",
                            "3.8:{hid} 炸桥,骰 {die}:失败(已测试)。"
                        )
                    });
                }
            }
            Action::Exit { unit } => {
                let turn = self.s.turn;
                let st = &mut self.s.units[unit as usize];
                st.exited = true;
                st.exited_on = turn;
                st.gone = true;
                st.loc = None;
                let name = self.unit_text(unit);
                self.journal.say(|| {
                    Text::new(
                        format!("{} leaves the map (exit).", name.en),
                        format!("{}离开地图(撤出)。", name.zh),
                    )
                });
            }
        }
    }

    /// 3.8: a German unit about to enter a hex that would end the chance to blow a primed
    /// bridge (a hex of the bridge's hexside, or its demolition symbol's hex) halts on the hex
    /// before, and the US may blow the bridge "at any moment" before it goes on. Returns the
    /// index in `path` of the hex it halts on, and the demolition symbols (by index) concerned.
    fn bridge_halt(&self, b: &Board, unit: UnitId, path: &[Hex]) -> Option<(usize, Vec<u16>)> {
        if self.unit_side(unit) != Side::German {
            return None;
        }
        for (k, &h) in path.iter().enumerate().skip(1) {
            let primed: Vec<u16> = (0..self.w.demolitions.len())
                .filter(|&i| {
                    let (symbol, pairs) = &self.w.demolitions[i];
                    (*symbol == h || pairs.iter().any(|&(x, y)| x == h || y == h))
                        && !self.s.approached.contains(&(unit, i as u16))
                        && self.demolisher(b, i).is_some()
                })
                .map(|i| i as u16)
                .collect();
            if !primed.is_empty() {
                return Some((k - 1, primed));
            }
        }
        None
    }

    /// 3.8: the German unit halts at `at`; the US decides on demolitions.
    fn halt_before_bridge(&mut self, unit: UnitId, at: Hex, primed: &[u16]) {
        self.s.approached.extend(primed.iter().map(|&i| (unit, i)));
        self.s.demolition_window = true;
        let name = self.unit_text(unit);
        let at = self.w.data.hex_id(at);
        let bridge = self.w.data.hex_id(self.w.demolitions[primed[0] as usize].0);
        self.journal.say(|| {
            Text::new(
                format!(
                    "3.8: {} halts at {at} before the bridge of {bridge}: the US may blow it now.",
                    name.en
                ),
                format!("3.8:{} 在 {at} 停于 {bridge} 的桥梁前:美军现在可以尝试炸桥。", name.zh),
            )
        });
    }

    /// 5.1: once an airborne unit has dropped, the rest of its division may drop only near
    /// a group that holds every unit of the division dropped so far.
    fn airborne_group_kept(&mut self, unit: UnitId) {
        let units = &self.w.data.counters.units;
        let division = units[unit as usize].formation;
        let kin: Vec<UnitId> = self
            .s
            .airborne_drop
            .iter()
            .copied()
            .filter(|&u| units[u as usize].formation == division)
            .collect();
        let placed: Vec<Hex> = kin.iter().filter_map(|&u| self.s.units[u as usize].hex()).collect();
        let hexes = airborne_hexes(&self.w, &self.s, self.scenario(), &placed);
        for p in self.s.placing.iter_mut().filter(|p| kin.contains(&p.unit)) {
            p.hexes = hexes.clone();
        }
    }

    fn do_move(&mut self, unit: UnitId, to: Hex) {
        let side = self.unit_side(unit);
        // One look at the position before the unit moves serves the whole move.
        let (path, cost, halt, jam, enemy_marker) = {
            let b = Board::new(&self.w, &self.s);
            let (mut costs, mut path) = with_search(|search| {
                b.reach(unit, search);
                let path = search.path(to).unwrap_or_else(|| vec![to]);
                let costs: Vec<u32> = path.iter().map(|&h| search.cost(h).unwrap_or(0)).collect();
                (costs, path)
            });
            let halt = self.bridge_halt(&b, unit, &path);
            if let Some((k, _)) = &halt {
                path.truncate(k + 1);
                costs.truncate(k + 1);
            }
            let to = *path.last().expect("a path has its start");
            // 3.1: entering a traffic jam makes the unit DG.
            let jam = b.traffic_jam(to) && side == Side::German;
            // 3.3, A12: a unit that entered or passed through an enemy Full-marker hex.
            let enemy_marker = path.iter().skip(1).any(|&h| b.full_markers(h, side.enemy()) > 0);
            (path, *costs.last().expect("a cost per hex"), halt, jam, enemy_marker)
        };
        if let Some((k, primed)) = halt {
            self.halt_before_bridge(unit, path[k], &primed);
            if k == 0 {
                return;
            }
        }
        self.bug_out_triggers(unit, &path);
        let to = *path.last().expect("a path has its start");
        if !self.journal.off {
            let name = self.unit_text(unit);
            let (from, hid) = (self.w.data.hex_id(path[0]), self.w.data.hex_id(to));
            let mp = text::half_mp(cost);
            self.journal.say(|| {
                Text::new(
                    format!("{} moves {from} → {hid} ({}).", name.en, mp.en),
                    format!("{}移动 {from} → {hid}({})。", name.zh, mp.zh),
                )
            });
        }
        let st = &mut self.s.units[unit as usize];
        st.spent += cost as u16;
        st.moved = true;
        st.loc = Some(to);
        if jam {
            st.dg = true;
        }
        if enemy_marker {
            st.barraged = true;
        }
    }

    /// 3.5: one barrage (by an artillery unit, or a US air strike) at `target`.
    fn do_fire(&mut self, unit: Option<UnitId>, target: Hex) {
        let side = unit.map_or(Side::Allied, |u| self.unit_side(u));
        let b = Board::new(&self.w, &self.s);
        let division = unit.and_then(|u| {
            let def = &self.w.data.counters.units[u as usize];
            if def.is_divarty() {
                def.formation
            } else {
                None
            }
        });
        let observer = self.observer(&b, side, target, division);
        let occupants = b.count(target) as i32;
        let occupant_side = b.side_at(target);
        let from = unit.and_then(|u| self.s.units[u as usize].hex());
        let against = from.map_or(0, |h| b.full_markers(h, side.enemy()) as i32);
        let roll = self
            .w
            .data
            .tables
            .tec
            .barrage_roll(occupant_side, &self.w.terrain_names[target.idx()]);
        drop(b);
        match unit {
            Some(u) => {
                let st = &mut self.s.units[u as usize];
                st.fired = true;
                // 3.4, inventory A11: artillery that fires without supply becomes DG.
                if st.out_of_supply {
                    st.dg = true;
                }
            }
            None => {
                self.s.air_strikes = self.s.air_strikes.saturating_sub(1);
                if observer.is_none() {
                    self.s.unobserved_strikes.push(target);
                }
            }
        }
        if let Some(o) = observer {
            self.s.units[o as usize].observed = true;
        }
        let die = self.d6() as i32;
        let rules = &self.w.data.tables.barrage;
        let modified = die
            + (occupants - 1).max(0) * rules.extra_unit_drm as i32
            + against * rules.enemy_marker_at_artillery_drm as i32;
        let result = roll.and_then(|r| r.result(modified));
        let hid = self.w.data.hex_id(target);
        let what = match result {
            Some(crate::data::BarrageStrength::Full) => text!("a Full marker", "完整标记"),
            Some(crate::data::BarrageStrength::Half) => text!("a Half marker", "半数标记"),
            None => text!("no effect", "无效果"),
        };
        self.journal.say(|| {
            Text::new(
                format!("3.5: barrage at {hid}: die {die}, modified {modified}: {}.", what.en),
                format!("3.5:射击 {hid}:骰 {die},修正后 {modified}:{}。", what.zh),
            )
        });
        if let Some(strength) = result {
            let m = match self
                .s
                .markers
                .iter_mut()
                .position(|m| m.hex == target && m.side == side)
            {
                Some(i) => &mut self.s.markers[i],
                None => {
                    self.s.markers.push(Markers {
                        hex: target,
                        side,
                        full: 0,
                        half: 0,
                    });
                    self.s.markers.last_mut().expect("just pushed")
                }
            };
            match strength {
                crate::data::BarrageStrength::Full => m.full += 1,
                crate::data::BarrageStrength::Half => m.half += 1,
            }
        }
    }

    /// 3.2 (3)–(4): odds, shifts, two dice.
    /// 3.2, 1.3, SCS 7.3: the numbers of combat `c` as the CRT reads them.
    pub(crate) fn odds(&self, b: &Board, c: &Combat) -> Odds {
        self.odds_of(b, &c.attackers, &c.defenders, c.target)
    }

    /// 3.2, 1.3, SCS 7.3: the numbers of an attack by `attackers` on `defenders` in `target`
    /// as the CRT reads them (for players and agents weighing an attack before making it).
    pub fn odds_of(&self, b: &Board, attackers: &[UnitId], defenders: &[UnitId], target: Hex) -> Odds {
        let attack: u32 = attackers.iter().map(|&u| b.strength(u, true)).sum();
        let defence: u32 = defenders.iter().map(|&u| b.strength(u, false)).sum();
        let defender = defenders.first().map_or(Side::Allied, |&u| self.unit_side(u));
        let mut stacks: Vec<Hex> = attackers
            .iter()
            .filter_map(|&u| self.s.units[u as usize].hex())
            .collect();
        stacks.sort();
        stacks.dedup();
        let tec = &self.w.data.tables.tec;
        // 1.3 (b): each attacking stack adds the shift of the hexside it attacks across.
        let hexsides: u32 = stacks
            .iter()
            .filter_map(|&h| self.w.map.grid.dir_to(h, target).map(|d| (h, d)))
            .map(|(h, d)| tec.hexside_shift(&self.w.hexside_names(h, d)) as u32)
            .sum();
        let terrain = tec.defender_shift(defender, &self.w.terrain_names[target.idx()]) as u32;
        let crt = &self.w.data.tables.crt;
        let ladder = crt.columns.ladder(attack, defence).unwrap_or(0);
        let column = crt
            .columns
            .clamp(ladder - (terrain + hexsides).min(u8::MAX as u32) as i64);
        Odds {
            attack,
            defence,
            terrain,
            hexsides,
            column,
        }
    }

    fn roll_combat(&mut self) {
        let Some(c) = self.s.combat.clone() else { return };
        let b = Board::new(&self.w, &self.s);
        let Odds {
            attack,
            defence,
            terrain,
            hexsides,
            column: col,
        } = self.odds(&b, &c);
        let shift = terrain + hexsides;
        let crt = &self.w.data.tables.crt;
        drop(b);
        self.rolled = true;
        let die = self.s.rng.dice(2) as i32;
        let result = crt.result(col, die);
        let label = crt.columns.label(col);
        let (a8, d8) = (attack as f64 / EIGHTHS as f64, defence as f64 / EIGHTHS as f64);
        let res = result.label();
        self.journal.say(|| {
            text!(
                "3.2: {a8} against {d8}, {shift} column(s) left (1.3) → {label}; dice {die}: {res}.",
                "3.2:{a8} 对 {d8},左移 {shift} 列(1.3)→ {label};骰 {die}:{res}。"
            )
        });
        let atk_steps: u8 = c.attackers.iter().map(|&u| self.steps(u)).sum();
        let def_steps: u8 = c.defenders.iter().map(|&u| self.steps(u)).sum();
        if let Some(c) = self.s.combat.as_mut() {
            c.result = Some(result);
            c.attacker_losses = result.attacker_steps.min(atk_steps);
            c.defender_losses = result.defender_steps.min(def_steps);
            c.retreat = result.retreat;
            c.stage = Stage::AttackerLoss;
        }
        self.after_loss();
    }

    fn steps(&self, u: UnitId) -> u8 {
        let st = &self.s.units[u as usize];
        if st.hex().is_none() {
            0
        } else if st.reduced {
            1
        } else {
            self.w.data.counters.units[u as usize].steps
        }
    }

    fn lose_step(&mut self, u: UnitId) {
        let steps = self.steps(u);
        let name = if self.journal.off {
            Text::new("", "")
        } else {
            self.unit_text(u)
        };
        let st = &mut self.s.units[u as usize];
        if steps >= 2 {
            st.reduced = true;
        } else {
            st.gone = true;
            st.loc = None;
        }
        self.journal.say(|| {
            if steps >= 2 {
                Text::new(
                    format!("1.2: {} loses a step (reduced).", name.en),
                    format!("1.2:{}损失一个军力(翻为减员面)。", name.zh),
                )
            } else {
                Text::new(
                    format!("1.2: {} loses its last step and is eliminated.", name.en),
                    format!("1.2:{}损失最后一个军力,被消灭。", name.zh),
                )
            }
        });
        if let Some(c) = self.s.combat.as_mut() {
            match c.stage {
                Stage::AttackerLoss => {
                    c.attacker_losses = c.attacker_losses.saturating_sub(1);
                    c.attacker_lost += 1;
                }
                Stage::DefenderLoss => c.defender_losses = c.defender_losses.saturating_sub(1),
                _ => {}
            }
        }
    }

    /// Moves the combat on past the losses: retreat, then advance, then done.
    fn after_loss(&mut self) {
        let Some(c) = self.s.combat.clone() else { return };
        let stage = match c.stage {
            Stage::AttackerLoss if c.attacker_losses > 0 && !self.alive(&c.attackers).is_empty() => Stage::AttackerLoss,
            Stage::AttackerLoss | Stage::DefenderLoss
                if c.defender_losses > 0 && !self.alive(&c.defenders).is_empty() =>
            {
                Stage::DefenderLoss
            }
            _ if c.retreat > 0 && !self.alive(&c.defenders).is_empty() => Stage::Retreat,
            _ => return self.begin_advance(),
        };
        if let Some(c) = self.s.combat.as_mut() {
            c.stage = stage;
        }
    }

    fn do_retreat(&mut self, to: Hex) {
        let Some(c) = self.s.combat.clone() else { return };
        let b = Board::new(&self.w, &self.s);
        let loss = self.retreat_options(&b, &c).iter().any(|&(h, l)| h == to && l);
        drop(b);
        let stack = self.alive(&c.defenders);
        for &u in &stack {
            self.enter(u, to);
            // Inventory A11: artillery that retreats becomes DG.
            if self.w.data.counters.units[u as usize].is_artillery() {
                self.s.units[u as usize].dg = true;
            }
        }
        let hid = self.w.data.hex_id(to);
        if loss {
            // 3.2: a bond entered or a blocked retreat costs the stack a step: the unit with the
            // most steps takes it (RULINGS).
            if let Some(&u) = stack.iter().max_by_key(|&&u| (self.steps(u), std::cmp::Reverse(u))) {
                self.lose_step(u);
            }
            self.journal.say(|| {
                text!(
                    "3.2: the defender retreats to {hid} and loses a step.",
                    "3.2:防御方撤退到 {hid},损失一个军力。"
                )
            });
        } else {
            self.journal
                .say(|| text!("3.2: the defender retreats to {hid}.", "3.2:防御方撤退到 {hid}。"));
        }
        if let Some(c) = self.s.combat.as_mut() {
            c.retreat = 0;
        }
        self.begin_advance();
    }

    /// 3.2 (7): who may advance, and how far.
    fn begin_advance(&mut self) {
        let Some(c) = self.s.combat.clone() else { return };
        let b = Board::new(&self.w, &self.s);
        let side = self.s.phase.phasing().unwrap_or(Side::German);
        let retreated = c.voluntary || c.result.is_some_and(|r| r.retreat >= 2);
        let vacated = !b.enemy_in(side, c.target);
        drop(b);
        if c.overrun {
            // 3.3: no advance; if the hex was emptied the overrunning units enter it free.
            if vacated {
                for u in self.alive(&c.attackers) {
                    self.enter(u, c.target);
                }
            }
            self.s.combat = None;
            return;
        }
        // 3.6: artillery does not advance into a hex next to an enemy unit.
        let b = Board::new(&self.w, &self.s);
        let near_enemy = b.enemy_adjacent(side, c.target);
        drop(b);
        let advancing: Vec<(UnitId, u8)> = if vacated {
            self.alive(&c.attackers)
                .into_iter()
                .filter(|&u| !(near_enemy && self.w.data.counters.units[u as usize].is_artillery()))
                .map(|u| {
                    (
                        u,
                        // 3.2: hexes it may advance, the combat hex first.
                        if retreated && self.may_exploit_after_combat(u) {
                            2
                        } else {
                            1
                        },
                    )
                })
                .collect()
        } else {
            Vec::new()
        };
        if advancing.is_empty() {
            self.s.combat = None;
            return;
        }
        if let Some(c) = self.s.combat.as_mut() {
            c.advancing = advancing;
            c.stage = Stage::Advance;
        }
    }

    /// 1.2, inventory A12/A13: an exploit-capable unit not DG, not under enemy markers, not
    /// German on turn 1, may advance two hexes.
    fn may_exploit_after_combat(&self, u: UnitId) -> bool {
        let st = &self.s.units[u as usize];
        let def = &self.w.data.counters.units[u as usize];
        def.exploit && !st.dg && !st.barraged && !self.german_on_turn_1(def.side)
    }

    /// Why an action not in the legal list is refused.
    pub(crate) fn why_illegal(&self, a: &Action) -> Refusal {
        let r = |rule: &str, t: Text| Refusal::new(rule, t);
        match a {
            Action::Move { .. } if !matches!(self.s.phase, Phase::Movement(_) | Phase::Exploitation(_)) => {
                r("2.1", text!("units move only in a movement or exploitation phase", "单位只能在移动或进击阶段移动"))
            }
            Action::Move { .. } => r(
                "3.1",
                text!(
                    "that unit cannot reach that hex with the MP it has left (TEC costs, ZOC Bonds +4, moving adjacently +1, barrage markers), or may not move now",
                    "该单位剩余的移动力无法到达该格(地形效果表、ZOC 键 +4、沿相邻格移动 +1、射击标记),或现在不能移动"
                ),
            ),
            Action::Fire { .. } | Action::AirStrike { .. } => r(
                "3.5",
                text!(
                    "that barrage is not allowed: artillery must not be DG, must not have moved or fired this phase, must reach the hex and have an observer within 2 hexes of it",
                    "不能进行该射击:火炮不得混乱、本阶段不得已移动或射击,须在射程内且目标 2 格内有观测员"
                ),
            ),
            Action::Withdraw if self.s.combat.as_ref().is_some_and(|c| c.stage == Stage::StandOrRetreat) => r(
                "3.2",
                text!(
                    "the defender must stand: it is DG, under an enemy barrage marker, in a City, or has a foot unit",
                    "防御方必须坚守:混乱、处于敌方射击标记下、位于城市,或含有步行单位"
                ),
            ),
            Action::Lose { .. } => r(
                "3.2",
                text!(
                    "that unit cannot take this loss (the attacker's first loss comes from its strongest unit, SCS 8.0)",
                    "该单位不能承受此损失(攻击方的第一个损失须由攻击力最高的单位承受,SCS 8.0)"
                ),
            ),
            Action::Attack { .. } | Action::Join { .. } => r(
                "3.2",
                text!(
                    "that attack is not allowed: attackers must be next to the hex, not have attacked this phase, have attack strength and be able to cross the hexside (TEC note 1); each hex is attacked once a phase (SCS 7.1)",
                    "不能这样攻击:攻击单位须与目标相邻、本阶段未攻击过、有攻击力且能越过该格边(地形效果表注1);每格每阶段只能被攻击一次(SCS 7.1)"
                ),
            ),
            Action::Overrun { .. } => r(
                "3.3",
                text!(
                    "that overrun is not allowed: it needs mechanized units of one hex with some attack strength, not DG, not next to the enemy when the phase began, not in or through an enemy barrage hex, not overrun already, 2 MP left, and a road into the hex",
                    "不能这样突袭:须为同一格中有攻击力的机械化单位、未混乱、阶段开始时不与敌相邻、未进入或起始于敌方射击格、本阶段未突袭过、剩余 2 移动力,并沿道路进入该格"
                ),
            ),
            Action::BugOut { .. } | Action::StayPut { .. } => r(
                "3.6",
                text!(
                    "artillery bugs out only when triggered, to a hex 8 road hexes away, in supply, open to mechanized units and clear of the enemy",
                    "火炮只在触发时逃跑,目的格须沿道路相距至少 8 格、可追溯补给、机械化单位可进入且不与敌相邻"
                ),
            ),
            Action::Demolish { .. } => r(
                "3.8",
                text!(
                    "that bridge cannot be tried: it is blown or tested, no US unit is within 2 hexes of the symbol, or a German unit holds a hex of the bridge",
                    "不能尝试炸此桥:已炸毁或已测试、标志 2 格内没有美军单位,或德军占据桥梁所在格"
                ),
            ),
            Action::Boats { .. } => r(
                "4.2",
                text!(
                    "only 2nd Panzer Division mechanized infantry that has not moved may cross the Our in boats, on turns 1–2",
                    "只有尚未移动的第 2 装甲师机械化步兵可在第 1–2 回合乘橡皮艇渡过乌尔河"
                ),
            ),
            Action::Exit { .. } => r(
                "7.0",
                text!(
                    "only German units in the scenario's exit area or on its exit edge may leave the map",
                    "只有位于剧本撤出区域或撤出边缘的德军单位可以离开地图"
                ),
            ),
            Action::Place { .. } => r(
                "2.2",
                text!(
                    "that unit cannot be placed there: not one of its hexes, outside the playing area, or held by the enemy",
                    "该单位不能放在那里:不是其可放置格、在游戏区域外,或被敌军占据"
                ),
            ),
            Action::EndPhase | Action::Pass if !self.s.placing.is_empty() => r(
                "2.2",
                text!("place the units that arrive first", "请先放置到达的单位"),
            ),
            Action::EndPhase | Action::Pass if !self.s.bug_outs.is_empty() => {
                r("3.6", text!("the artillery must bug out first", "火炮须先完成逃跑"))
            }
            Action::EndPhase if self.s.demolition_window => r(
                "3.8",
                text!(
                    "the US decides on bridge demolitions first (demolish or pass)",
                    "美军须先决定是否炸桥(炸桥或放弃)"
                ),
            ),
            Action::EndPhase if self.s.combat.is_some() => r(
                "3.2",
                text!(
                    "finish the attack under way first (or call it off before the defender chooses)",
                    "请先完成进行中的攻击(或在防御方选择前取消)"
                ),
            ),
            Action::EndPhase => r(
                "2.1",
                text!(
                    "this phase runs by itself; there is no phase for you to end now",
                    "本阶段自动进行,现在没有你可以结束的阶段"
                ),
            ),
            Action::Pass => r("3.8", text!("no bridge demolition is being decided now", "现在不是决定炸桥的时候")),
            Action::Resolve
                if self
                    .s
                    .combat
                    .as_ref()
                    .is_some_and(|c| c.stage == Stage::Commit && !c.attackers.is_empty()) =>
            {
                r(
                    "3.2",
                    text!(
                        "an attack needs some attack strength: units of strength 0 only join others (SCS 7.1)",
                        "攻击需要攻击力:攻击力为 0 的单位只能随其他单位参加(SCS 7.1)"
                    ),
                )
            }
            Action::Resolve | Action::CallOff => r(
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
            Action::RetreatTo { .. } if self.s.combat.as_ref().is_some_and(|c| c.stage == Stage::Retreat) => r(
                "3.2",
                text!(
                    "the stack retreats together, each hex one farther from the combat hex, never into an enemy unit, out of the playing area or where a unit of it may not go",
                    "整个堆叠一起撤退,每一格都须离战斗格更远一格,不得进入敌军单位、游戏区域之外或堆叠中任一单位不能进入之处"
                ),
            ),
            Action::RetreatTo { .. } => r("3.2", text!("no retreat is due now", "现在没有需要执行的撤退")),
            Action::Advance { .. } | Action::EndAdvance
                if self.s.combat.as_ref().is_some_and(|c| c.stage == Stage::Advance) =>
            {
                r(
                    "3.2",
                    text!(
                        "an attacker advances into the emptied combat hex; an exploit-capable unit, after a retreat of 2 or more, one hex farther along a road",
                        "攻击单位推进到已空出的战斗格;具进击能力的单位在对方撤退 2 格或以上后,可再沿道路前进一格"
                    ),
                )
            }
            Action::Advance { .. } | Action::EndAdvance => {
                r("3.2", text!("no advance after combat is due now", "现在没有战斗后推进"))
            }
            Action::Resupply { .. } => r(
                "3.7",
                text!(
                    "only DG artillery that cannot trace supply rolls on the Artillery Resupply Table, when the engine asks",
                    "只有无法追溯补给的混乱火炮,在引擎询问时,才在火炮补给表上掷骰"
                ),
            ),
            Action::AirSupply { .. } => r(
                "2.2",
                text!(
                    "Air Supply is placed in the Air Supply phase, on a hex of US units, one air strike each",
                    "空中补给在空中补给阶段放置于美军单位所在格,每个消耗一次空袭"
                ),
            ),
        }
    }

    /// How the game ended (6.0, 7.x).
    pub(crate) fn outcome_now(&self) -> Option<Outcome> {
        if !self.s.over {
            return None;
        }
        let scenario = self.scenario();
        let held = |hexes: &[Hex]| {
            hexes.iter().all(|h| {
                self.w
                    .data
                    .tables
                    .vp_hexes
                    .iter()
                    .position(|v| v.hex == *h)
                    .is_some_and(|i| self.s.control[i] == Side::German)
            })
        };
        let (winner, text) = match &scenario.victory {
            Victory::VpLevels { levels, exit_vp, .. } => {
                // 7.2, 7.3: 1 VP more for each formation that exited enough units.
                let vp = self.s.vp_max + exit_vp.iter().filter(|g| self.exit_met(g)).count() as u32;
                match crate::data::tables::level_for(levels, vp) {
                    Some(VictoryResult::GermanMajor) => {
                        (Some(0), text!("German major victory ({vp} VP)", "德军大胜({vp} VP)"))
                    }
                    Some(VictoryResult::GermanMinor) => {
                        (Some(0), text!("German minor victory ({vp} VP)", "德军小胜({vp} VP)"))
                    }
                    Some(VictoryResult::AlliedMinor) => {
                        (Some(1), text!("Allied minor victory ({vp} VP)", "盟军小胜({vp} VP)"))
                    }
                    Some(VictoryResult::AlliedMajor) => {
                        (Some(1), text!("Allied major victory ({vp} VP)", "盟军大胜({vp} VP)"))
                    }
                    _ => (None, text!("Draw ({vp} VP)", "平局({vp} VP)")),
                }
            }
            Victory::GermanHolds {
                hexes, exit_required, ..
            } => {
                if held(hexes) && exit_required.iter().all(|g| self.exit_met(g)) {
                    (
                        Some(0),
                        text!("German victory: he holds the objectives", "德军胜利:控制全部目标"),
                    )
                } else {
                    (
                        Some(1),
                        text!(
                            "Allied victory: the objectives are not all German",
                            "盟军胜利:德军未能控制全部目标"
                        ),
                    )
                }
            }
            Victory::GermanVp { min_vp } => {
                let vp = self.german_vp();
                if vp >= *min_vp {
                    (Some(0), text!("German victory ({vp} VP)", "德军胜利({vp} VP)"))
                } else {
                    (
                        Some(1),
                        text!("Allied victory (German {vp} VP)", "盟军胜利(德军 {vp} VP)"),
                    )
                }
            }
        };
        Some(Outcome { winner, text })
    }
}

fn g_turn_heading(turn: u8) -> Text {
    let date = crate::sequence::date(turn);
    Text::new(
        format!("Turn {turn} ({})", date.en),
        format!("第{turn}回合({})", date.zh),
    )
}

pub(crate) fn side_name(side: Side) -> Text {
    match side {
        Side::German => text!("German", "德军"),
        Side::Allied => text!("Allied", "盟军"),
    }
}

//! Reinforcements (2.2, SCS 5.0): the turn's arrivals looked at one by one — an arrival that
//! comes only on a die roll, von der Heydte's drop and its Success Table (4.1), the units
//! placed at their hex or on their owner's choice, the airborne divisions kept for the US
//! movement phase (5.1) — then the Arrival Schedule's removals.

use crate::data::Location;
use crate::frames::{ArrivalStep, Frame, Roll};
use crate::setup::location_hexes;
use crate::state::{Loc, Placing};
use crate::ArdennesII;
use sandtable_core::text;

impl ArdennesII {
    /// Goes on with the turn's arrivals from `arrival` at `step`, until a die must be rolled
    /// or every arrival has been looked at.
    pub(crate) fn arrivals(&mut self, mut arrival: u16, mut step: ArrivalStep, mut placing: Vec<Placing>) {
        let turn = self.s.turn;
        let scenario = self.scenario.clone();
        loop {
            let i = arrival as usize;
            match step {
                ArrivalStep::Look => {
                    let Some(next) = (i..scenario.arrivals.len()).find(|&k| scenario.arrivals[k].turn == turn) else {
                        self.removals();
                        if !placing.is_empty() {
                            self.engine.push(Frame::Place { queue: placing });
                        }
                        return;
                    };
                    arrival = next as u16;
                    // 2.2: some units come only on a roll of the die.
                    if scenario.arrivals[next].arrives_on.is_some() {
                        self.engine.push(Frame::Arrivals {
                            arrival,
                            step: ArrivalStep::Landing,
                            placing,
                        });
                        self.engine.push(Frame::Roll(Roll::Arrival { arrival }));
                        return;
                    }
                    step = ArrivalStep::Landing;
                }
                ArrivalStep::Landing => {
                    // 4.1: von der Heydte's drop rolls on its Success Table.
                    if scenario.arrivals.get(i).is_some_and(|a| a.landing.is_some()) {
                        self.engine.push(Frame::Arrivals {
                            arrival,
                            step: ArrivalStep::Enter,
                            placing,
                        });
                        self.engine.push(Frame::Roll(Roll::VonDerHeydte { arrival }));
                        return;
                    }
                    step = ArrivalStep::Enter;
                }
                ArrivalStep::Enter => {
                    self.arrive(i, &mut placing);
                    arrival += 1;
                    step = ArrivalStep::Look;
                }
            }
        }
    }

    /// The arrivals frame below a die just rolled goes on with the next arrival: this one
    /// does not come.
    fn skip_arrival(&mut self) {
        if let Some(Frame::Arrivals { arrival, step, .. }) = self.engine.frames_mut().last_mut() {
            *arrival += 1;
            *step = ArrivalStep::Look;
        }
    }

    /// 2.2: the arrival die: below the number printed, the units never come.
    pub(crate) fn arrival_roll(&mut self, arrival: u16, die: u8) {
        let needed = self.scenario.arrivals.get(arrival as usize).and_then(|a| a.arrives_on);
        if needed.is_some_and(|n| die < n) {
            self.journal.say(|| {
                text!(
                    "Arrival roll {die}: the units do not come.",
                    "抵达骰 {die}:部队未能抵达。"
                )
            });
            self.skip_arrival();
        }
    }

    /// 4.1: the von der Heydte Success Table: on a failure the drop's units are removed.
    pub(crate) fn von_der_heydte(&mut self, arrival: u16, die: u8) {
        if self.w.data.tables.von_der_heydte.roll(die as i32) != crate::data::tables::VdhLanding::Destroyed {
            return;
        }
        let scenario = self.scenario.clone();
        for &u in scenario.arrivals.get(arrival as usize).map_or(&[][..], |a| &a.units) {
            self.s.set_loc(u, Loc::Removed);
        }
        self.journal.say(|| {
            text!(
                "4.1: von der Heydte die {die}: the drop fails.",
                "4.1:冯·德·海特骰 {die}:空降失败。"
            )
        });
        self.skip_arrival();
    }

    /// One arrival's units come on the map: at their hex if it has only one, otherwise to be
    /// placed by their owner (gathered in `placing`); the airborne divisions wait for the US
    /// movement phase (5.1).
    fn arrive(&mut self, i: usize, placing: &mut Vec<Placing>) {
        let scenario = self.scenario.clone();
        let Some(a) = scenario.arrivals.get(i) else { return };
        if a.at == Location::Airborne {
            self.s.airborne_due.extend(a.units.iter().copied());
            return;
        }
        let hexes = location_hexes(&self.w, &self.s, a.side, &scenario, &a.at, self.edition);
        if let Location::Areas(letters) = &a.at {
            // 2.2, SCS 5.0: a blocked entry area is logged with where its units enter instead.
            let area: Vec<sandtable_core::hex::Hex> = letters
                .iter()
                .flat_map(|l| {
                    self.w
                        .map
                        .hex_sets
                        .get(&format!("entry-{l}"))
                        .cloned()
                        .unwrap_or_default()
                })
                .collect();
            if !hexes.is_empty() && !hexes.iter().any(|h| area.contains(h)) {
                let areas: String = letters.iter().map(|l| l.to_string()).collect::<Vec<_>>().join("/");
                let grid = &self.w.map.grid;
                let ids: Vec<String> = hexes.iter().map(|&h| grid.id(h).0).collect();
                let ids = ids.join(", ");
                self.journal.say(|| {
                    text!(
                        "2.2, SCS 5.0: Entry Area {areas} is blocked (no hex of it is free in the playing area): its units enter at the nearest free hexes of the same edge ({ids}).",
                        "2.2、SCS 5.0:入场区域 {areas} 被阻(游戏区域内没有可用的格子):其部队改从同一边缘最近的可用格子进入({ids})。"
                    )
                });
            }
        }
        if hexes.is_empty() {
            let k = a.units.len();
            self.journal.say(|| {
                text!(
                    "2.2, SCS 5.0: no free hex to enter on that edge of the playing area: {k} unit(s) cannot arrive.",
                    "2.2、SCS 5.0:游戏区域该边缘没有可进入的空格:{k} 个单位无法抵达。"
                )
            });
        }
        for &u in &a.units {
            if self.s.units[u as usize].loc != Loc::Waiting {
                continue;
            }
            self.s.set_reduced(u, a.reduced);
            // SCS 5.0 (data edition 3): arrivals may overstack until their first movement
            // phase has ended (3.1, RULINGS).
            if self.edition >= 3 && !hexes.is_empty() {
                self.s.arrived.push(u);
            }
            match hexes.as_slice() {
                [] => {}
                [h] => self.s.set_loc(u, Loc::Map(*h)),
                _ => placing.push(Placing {
                    unit: u,
                    hexes: hexes.clone(),
                }),
            }
        }
        let k = if hexes.is_empty() { 0 } else { a.units.len() };
        self.journal.say_marked(
            || {
                text!(
                    "Reinforcements: {k} unit(s) arrive (2.2).",
                    "增援:{k} 个单位抵达(2.2)。"
                )
            },
            // Those placed at once; the others are marked where they are placed.
            || {
                let mut marks = Vec::new();
                if let [h] = hexes.as_slice() {
                    for &u in &a.units {
                        if self.s.units[u as usize].hex() == Some(*h) {
                            marks.push(sandtable_core::game::Mark::Arrived {
                                unit: crate::marks::unit(&self.w, u),
                                at: self.w.data.hex_id(*h),
                            });
                        }
                    }
                }
                marks
            },
        );
    }

    /// The hexes arrival `i` of the scenario would enter on the position now (2.2, SCS 5.0, a
    /// blocked entry area included); empty for the airborne drop of 5.1, placed later.
    pub fn arrival_hexes(&self, i: usize) -> Vec<sandtable_core::hex::Hex> {
        match self.scenario.arrivals.get(i) {
            Some(a) if a.at != Location::Airborne => {
                location_hexes(&self.w, &self.s, a.side, &self.scenario, &a.at, self.edition)
            }
            _ => Vec::new(),
        }
    }

    /// 2.2: the Arrival Schedule's removals of this turn: the units go whatever their state
    /// (a unit that left the map keeps counting as exited).
    fn removals(&mut self) {
        let turn = self.s.turn;
        let scenario = self.scenario.clone();
        for r in scenario.removals.iter().filter(|r| r.turn == turn) {
            for &u in &r.units {
                let at = crate::marks::at(&self.w, &self.s, u);
                if !matches!(self.s.units[u as usize].loc, Loc::Exited { .. }) {
                    self.s.set_loc(u, Loc::Removed);
                }
                // A unit taken off the map is logged, with its mark; one not on it goes unsaid.
                if let Some(at) = at.filter(|_| !self.journal.off) {
                    let name = self.unit_text(u);
                    self.journal.say_marked(
                        || {
                            sandtable_core::text::Text::new(
                                format!("2.2: the Arrival Schedule takes {} out of the game.", name.en),
                                format!("2.2:按抵达表,{}移出游戏。", name.zh),
                            )
                        },
                        || {
                            [sandtable_core::game::Mark::Withdrawn {
                                unit: crate::marks::unit(&self.w, u),
                                at,
                            }]
                        },
                    );
                }
            }
        }
    }
}

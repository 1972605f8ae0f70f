//! Combat (3.2 with SCS 7.0–10.0): attacks in the combat phase — the hex attacked, the units
//! that join, the defender's choice to stand or retreat before combat (and when it must
//! stand), the odds and the column shifts of terrain and hexsides (1.3), the two dice, the
//! step losses (the attacker's first from its strongest unit, SCS 8.0), the retreat and its
//! step lost in an enemy bond or when blocked, and the advance after combat. Overruns (3.3)
//! are fought the same way from the defender's choice on.

use crate::frames::{Frame, Roll};
use crate::rules::{with_search, Board, EIGHTHS};
use crate::sequence::Side;
use crate::state::{Combat, Loc, Stage, UnitId};
use crate::{Action, ArdennesII};
use sandtable_core::game::{Mark, Refusal};
use sandtable_core::hex::Hex;
use sandtable_core::text;
use sandtable_core::text::Text;

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

/// What bars an attack on a hex (3.2 (1), SCS 7.1, TEC note 1): see
/// [`ArdennesII::attack_bar`].
#[derive(Clone, Copy, Debug, PartialEq)]
enum AttackBar {
    NoEnemy,
    Attacked,
    NoStrength,
}

impl ArdennesII {
    /// The side attacking in the phase now (the phasing side).
    pub(crate) fn attacker_side(&self) -> Side {
        self.s.phase.phasing().unwrap_or(Side::German)
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

    /// The units of `side` that may take part in an attack on `target`: next to it, not yet
    /// attacking this phase, able to cross the hexside (SCS 7.1, TEC note 1). Units of zero
    /// attack strength (artillery among them) may join an attack made with others.
    pub(crate) fn attackers_of(&self, b: &Board, side: Side, target: Hex) -> Vec<UnitId> {
        self.units_of(side)
            .filter(|&u| {
                let st = &self.s.units[u as usize];
                st.hex().is_some_and(|h| {
                    !st.attacked && self.w.map.grid.adjacent(h, target) && self.may_attack_across(b, u, h, target)
                })
            })
            .collect()
    }

    /// The attack strength of `units` together in eighths (an attack of 0 cannot be made).
    pub(crate) fn attack_strength(&self, b: &Board, units: &[UnitId]) -> u32 {
        units.iter().map(|&u| b.strength(u, true)).sum()
    }

    /// 3.2 (1): the hexes `side` may attack now.
    pub(crate) fn legal_attacks(&self, side: Side, out: &mut Vec<Action>) {
        let b = Board::new(&self.w, &self.s);
        let mut targets: Vec<Hex> = self
            .units_of(side.enemy())
            .filter_map(|u| self.s.units[u as usize].hex())
            .collect();
        targets.sort();
        targets.dedup();
        for target in targets {
            if self.attack_barred(&b, side, target).is_none() {
                out.push(Action::Attack { target });
            }
        }
    }

    /// The attack strength in eighths of [`Self::attackers_of`] together, found in the
    /// stacks next to `target` instead of among every unit of the side.
    fn strength_next_to(&self, b: &Board, side: Side, target: Hex) -> u32 {
        let mut sum = 0;
        for (_, h) in self.w.map.grid.neighbours(target) {
            if b.side_at(h) != Some(side) {
                continue;
            }
            for &u in b.stack(h) {
                if !self.s.units[u as usize].attacked && self.may_attack_across(b, u, h, target) {
                    sum += b.strength(u, true);
                }
            }
        }
        sum
    }

    /// Which of the bars of [`Self::attack_bar`] stops `side` attacking `target` now, if one
    /// does, without writing out the refusal (the legal list asks this of every target).
    fn attack_barred(&self, b: &Board, side: Side, target: Hex) -> Option<AttackBar> {
        if !b.enemy_in(side, target) {
            Some(AttackBar::NoEnemy)
        } else if self.s.attacked_hexes.contains(&target) {
            Some(AttackBar::Attacked)
        } else if self.strength_next_to(b, side, target) == 0 {
            Some(AttackBar::NoStrength)
        } else {
            None
        }
    }

    /// Why `side` may not attack `target` now, if it may not.
    fn attack_bar(&self, b: &Board, side: Side, target: Hex) -> Result<(), Refusal> {
        let Some(bar) = self.attack_barred(b, side, target) else {
            return Ok(());
        };
        let hid = self.w.data.hex_id(target);
        Err(match bar {
            AttackBar::NoEnemy => Refusal::new(
                "3.2",
                text!(
                    "there is no enemy unit in {hid} to attack",
                    "{hid} 没有可攻击的敌军单位"
                ),
            ),
            AttackBar::Attacked => Refusal::new(
                "3.2",
                text!(
                    "{hid} has been attacked this phase: each hex once a combat phase (SCS 7.1)",
                    "{hid} 本阶段已被攻击过:每格每个战斗阶段只能被攻击一次(SCS 7.1)"
                ),
            ),
            AttackBar::NoStrength => Refusal::new(
                "3.2",
                text!(
                    "no unit with attack strength may attack {hid}: attackers must be next to it, not have attacked this phase and be able to cross the hexside (TEC note 1)",
                    "没有可攻击 {hid} 且有攻击力的单位:攻击单位须与其相邻、本阶段未攻击过且能越过该格边(地形效果表注1)"
                ),
            ),
        })
    }

    /// [`Self::attack_bar`] as it was written before [`Self::attack_barred`]: what the
    /// legal list's check is tested against.
    #[cfg(test)]
    pub(crate) fn attack_bar_as_written(&self, b: &Board, side: Side, target: Hex) -> Result<(), Refusal> {
        let hid = self.w.data.hex_id(target);
        if !b.enemy_in(side, target) {
            return Err(Refusal::new(
                "3.2",
                text!(
                    "there is no enemy unit in {hid} to attack",
                    "{hid} 没有可攻击的敌军单位"
                ),
            ));
        }
        if self.s.attacked_hexes.contains(&target) {
            return Err(Refusal::new(
                "3.2",
                text!(
                    "{hid} has been attacked this phase: each hex once a combat phase (SCS 7.1)",
                    "{hid} 本阶段已被攻击过:每格每个战斗阶段只能被攻击一次(SCS 7.1)"
                ),
            ));
        }
        if self.attack_strength(b, &self.attackers_of(b, side, target)) == 0 {
            return Err(Refusal::new(
                "3.2",
                text!(
                    "no unit with attack strength may attack {hid}: attackers must be next to it, not have attacked this phase and be able to cross the hexside (TEC note 1)",
                    "没有可攻击 {hid} 且有攻击力的单位:攻击单位须与其相邻、本阶段未攻击过且能越过该格边(地形效果表注1)"
                ),
            ));
        }
        Ok(())
    }

    /// 3.2 (1): whether `side` may attack `target` now.
    pub(crate) fn may_attack(&self, side: Side, target: Hex) -> Result<(), Refusal> {
        self.known_hex(target)?;
        self.attack_bar(&Board::new(&self.w, &self.s), side, target)
    }

    /// 3.2 (1): an attack on `target` (checked) is set up: its defenders are the units there.
    pub(crate) fn attack(&mut self, target: Hex) {
        let defenders = Board::new(&self.w, &self.s).units_at(target);
        self.engine.push(Frame::Combat(Combat {
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
        }));
    }

    /// 3.2: the defender must stand if DG, under an enemy barrage marker, in a City, or with
    /// any foot unit; the reason, if it must.
    fn must_stand(&self, b: &Board, c: &Combat) -> Option<Text> {
        let w = &self.w;
        let &first = c.defenders.first()?;
        let defender = self.unit_side(first);
        if w.map.terrain(c.target) & w.t.city != 0 {
            return Some(text!("it is in a City", "它位于城市"));
        }
        if b.full_markers(c.target, defender.enemy()) > 0 {
            return Some(text!("it is under an enemy barrage marker", "它处于敌方射击标记下"));
        }
        if c.defenders.iter().any(|&u| self.s.units[u as usize].dg) {
            return Some(text!("it is DG", "它处于混乱状态"));
        }
        if c.defenders
            .iter()
            .any(|&u| w.data.counters.units[u as usize].movement == crate::data::Movement::Foot)
        {
            return Some(text!("it has a foot unit", "它含有步行单位"));
        }
        None
    }

    /// The units of `units` still on the map.
    fn alive(&self, units: &[UnitId]) -> Vec<UnitId> {
        units
            .iter()
            .copied()
            .filter(|&u| self.s.units[u as usize].hex().is_some())
            .collect()
    }

    /// The decisions of the combat in progress, by its stage.
    pub(crate) fn legal_combat(&self, c: &Combat, out: &mut Vec<Action>) {
        let b = Board::new(&self.w, &self.s);
        let side = self.attacker_side();
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
                if self.must_stand(&b, c).is_none() {
                    out.push(Action::Withdraw);
                }
            }
            Stage::AttackerLoss | Stage::DefenderLoss => {
                out.extend(self.losers(c).into_iter().map(|unit| Action::Lose { unit }));
            }
            Stage::Retreat => {
                for (h, _) in self.retreat_options(&b, c) {
                    out.push(Action::RetreatTo { to: h });
                }
            }
            Stage::Advance => {
                out.extend(
                    self.advances(&b, c)
                        .into_iter()
                        .map(|(unit, to)| Action::Advance { unit, to }),
                );
                out.push(Action::EndAdvance);
            }
        }
    }

    /// Whether `a` is a decision of the combat in progress, and if not why.
    pub(crate) fn check_combat(&self, c: &Combat, a: &Action) -> Result<(), Refusal> {
        let b = Board::new(&self.w, &self.s);
        let side = self.attacker_side();
        match (c.stage, a) {
            (Stage::Commit, Action::Join { unit }) => {
                self.known_unit(*unit)?;
                if c.attackers.contains(unit) {
                    return Err(Refusal::new(
                        "3.2",
                        text!("that unit has joined already", "该单位已加入攻击"),
                    ));
                }
                if !self.attackers_of(&b, side, c.target).contains(unit) {
                    return Err(Refusal::new(
                        "3.2",
                        text!(
                            "that unit may not join: attackers are next to the hex, have not attacked this phase and can cross the hexside (TEC note 1)",
                            "该单位不能加入:攻击单位须与目标相邻、本阶段未攻击过且能越过该格边(地形效果表注1)"
                        ),
                    ));
                }
                Ok(())
            }
            (Stage::Commit, Action::Resolve) if c.attackers.is_empty() => Err(Refusal::new(
                "3.2",
                text!("no unit has joined the attack yet", "还没有单位加入攻击"),
            )),
            (Stage::Commit, Action::Resolve) if self.attack_strength(&b, &c.attackers) == 0 => Err(Refusal::new(
                "3.2",
                text!(
                    "an attack needs some attack strength: units of strength 0 only join others (SCS 7.1)",
                    "攻击需要攻击力:攻击力为 0 的单位只能随其他单位参加(SCS 7.1)"
                ),
            )),
            (Stage::Commit, Action::Resolve | Action::CallOff) => Ok(()),
            (Stage::StandOrRetreat, Action::Stand) => Ok(()),
            (Stage::StandOrRetreat, Action::Withdraw) => match self.must_stand(&b, c) {
                None => Ok(()),
                Some(why) => Err(Refusal::new(
                    "3.2",
                    Text::new(
                        format!("the defender must stand: {}", why.en),
                        format!("防御方必须坚守:{}", why.zh),
                    ),
                )),
            },
            (Stage::AttackerLoss | Stage::DefenderLoss, Action::Lose { unit }) => {
                self.known_unit(*unit)?;
                if self.losers(c).contains(unit) {
                    Ok(())
                } else {
                    Err(Refusal::new(
                        "3.2",
                        text!(
                            "that unit cannot take this loss (the attacker's first loss comes from its strongest unit, SCS 8.0)",
                            "该单位不能承受此损失(攻击方的第一个损失须由攻击力最高的单位承受,SCS 8.0)"
                        ),
                    ))
                }
            }
            (Stage::Retreat, Action::RetreatTo { to }) => {
                self.known_hex(*to)?;
                if self.retreat_options(&b, c).iter().any(|&(h, _)| h == *to) {
                    Ok(())
                } else {
                    Err(Refusal::new(
                        "3.2",
                        text!(
                            "the stack retreats together, each hex one farther from the combat hex, never into an enemy unit, out of the playing area or where a unit of it may not go",
                            "整个堆叠一起撤退,每一格都须离战斗格更远一格,不得进入敌军单位、游戏区域之外或堆叠中任一单位不能进入之处"
                        ),
                    ))
                }
            }
            (Stage::Advance, Action::Advance { unit, to }) => {
                self.known_unit(*unit)?;
                self.known_hex(*to)?;
                if self.advances(&b, c).contains(&(*unit, *to)) {
                    Ok(())
                } else {
                    Err(Refusal::new(
                        "3.2",
                        text!(
                            "an attacker advances into the emptied combat hex; an exploit-capable unit, after a retreat of 2 or more, one hex farther along a road",
                            "攻击单位推进到已空出的战斗格;具进击能力的单位在对方撤退 2 格或以上后,可再沿道路前进一格"
                        ),
                    ))
                }
            }
            (Stage::Advance, Action::EndAdvance) => Ok(()),
            _ => Err(self.not_now_in_combat(c, a)),
        }
    }

    /// What the combat in progress waits for, when `a` is not it.
    fn not_now_in_combat(&self, c: &Combat, a: &Action) -> Refusal {
        match a {
            Action::EndPhase | Action::Pass => Refusal::new(
                "3.2",
                text!(
                    "finish the attack under way first (or call it off before the defender chooses)",
                    "请先完成进行中的攻击(或在防御方选择前取消)"
                ),
            ),
            _ => {
                let awaited = match c.stage {
                    Stage::Commit => text!(
                        "the attacker commits units to the attack, resolves it or calls it off",
                        "攻击方正在投入攻击单位、进行攻击或取消攻击"
                    ),
                    Stage::StandOrRetreat => text!("the defender stands or retreats", "防御方选择坚守或撤退"),
                    Stage::AttackerLoss => text!("the attacker takes its step losses", "攻击方承受军力损失"),
                    Stage::DefenderLoss => text!("the defender takes its step losses", "防御方承受军力损失"),
                    Stage::Retreat => text!("the defender retreats", "防御方撤退"),
                    Stage::Advance => text!("the attacker advances after combat", "攻击方战后挺进"),
                };
                let own = self.action_context(a);
                Refusal::new(
                    own.rule,
                    Text::new(
                        format!("{}; now {}", own.text.en, awaited.en),
                        format!("{};现在{}", own.text.zh, awaited.zh),
                    ),
                )
            }
        }
    }

    /// The units that may take the next step loss: SCS 8.0 (series supplement), the first
    /// attacker loss from a unit with the highest attack strength, later ones the owner's
    /// choice; the defender's all the owner's choice.
    fn losers(&self, c: &Combat) -> Vec<UnitId> {
        match c.stage {
            Stage::AttackerLoss => {
                let alive = self.alive(&c.attackers);
                let first = c.attacker_lost == 0;
                let best = alive.iter().map(|&u| self.printed_attack(u)).max().unwrap_or(0);
                alive
                    .into_iter()
                    .filter(|&u| !first || self.printed_attack(u) == best)
                    .collect()
            }
            Stage::DefenderLoss => self.alive(&c.defenders),
            _ => Vec::new(),
        }
    }

    /// 3.2 (7): the advances open now: into the emptied combat hex, and for a unit that may go
    /// two hexes and stands in it, on along a road or track.
    fn advances(&self, b: &Board, c: &Combat) -> Vec<(UnitId, Hex)> {
        let side = self.attacker_side();
        let mut out = Vec::new();
        for &(u, left) in &c.advancing {
            let Some(h) = self.s.units[u as usize].hex() else {
                continue;
            };
            if h != c.target {
                if !b.enemy_in(side, c.target) {
                    out.push((u, c.target));
                }
            } else if left > 0 {
                // 3.2: the second hex along a road (or track).
                for (d, n) in self.w.map.grid.neighbours(h) {
                    if b.road_link(h, d).is_some() && !b.enemy_in(side, n) && self.scenario.in_area(&self.w.map.grid, n)
                    {
                        out.push((u, n));
                    }
                }
            }
        }
        out
    }

    /// Carries out a (checked) decision of combat `c`, taken off the stack: it is put back
    /// while it goes on.
    pub(crate) fn combat_step(&mut self, mut c: Combat, a: &Action) {
        match *a {
            Action::Join { unit } => {
                c.attackers.push(unit);
                self.engine.push(Frame::Combat(c));
            }
            Action::CallOff => {
                let hid = self.w.data.hex_id(c.target);
                self.journal
                    .say(|| text!("3.2: the attack on {hid} is called off.", "3.2:取消对 {hid} 的攻击。"));
            }
            Action::Resolve => {
                c.stage = Stage::StandOrRetreat;
                let hid = self.w.data.hex_id(c.target);
                self.journal.say_marked(
                    || text!("3.2: attack on {hid}.", "3.2:攻击 {hid}。"),
                    || [crate::marks::attack(&self.w, &self.s, &c.attackers, c.target)],
                );
                self.s.attacked_hexes.push(c.target);
                for &u in &c.attackers {
                    self.s.units[u as usize].attacked = true;
                }
                self.engine.push(Frame::Combat(c));
            }
            Action::Stand => {
                // 3.2 (3)–(4): the odds, then two dice, one after the other.
                self.engine.push(Frame::Combat(c));
                self.engine.push(Frame::Roll(Roll::Combat { first: None }));
            }
            Action::Withdraw => {
                c.voluntary = true;
                c.retreat = 5;
                c.stage = Stage::Retreat;
                self.journal.say(|| {
                    text!(
                        "3.2: the defender retreats 5 hexes before combat.",
                        "3.2:防御方在战斗前撤退 5 格。"
                    )
                });
                self.engine.push(Frame::Combat(c));
            }
            Action::Lose { unit } => {
                self.lose_step(&mut c, unit);
                self.after_loss(c);
            }
            Action::RetreatTo { to } => self.retreat(c, to),
            Action::Advance { unit, to } => self.advance(c, unit, to),
            // EndAdvance: the combat is over.
            _ => {}
        }
    }

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

    /// 3.2 (4): a combat die. The first is kept for the second; with the second, the result of
    /// the combat below on the stack.
    pub(crate) fn combat_die(&mut self, first: Option<u8>, die: u8) {
        let Some(first) = first else {
            self.engine.push(Frame::Roll(Roll::Combat { first: Some(die) }));
            return;
        };
        let Some(Frame::Combat(c)) = self.engine.pop() else {
            return;
        };
        self.combat_result(c, (first + die) as i32);
    }

    /// 3.2 (4)–(5): the CRT's result for the two dice `dice`, then the losses.
    fn combat_result(&mut self, mut c: Combat, dice: i32) {
        let b = Board::new(&self.w, &self.s);
        let Odds {
            attack,
            defence,
            terrain,
            hexsides,
            column: col,
        } = self.odds(&b, &c);
        drop(b);
        let shift = terrain + hexsides;
        let crt = &self.w.data.tables.crt;
        let result = crt.result(col, dice);
        let label = crt.columns.label(col);
        let (a8, d8) = (attack as f64 / EIGHTHS as f64, defence as f64 / EIGHTHS as f64);
        let res = result.label();
        self.journal.say(|| {
            text!(
                "3.2: {a8} against {d8}, {shift} column(s) left (1.3) → {label}; dice {dice}: {res}.",
                "3.2:{a8} 对 {d8},左移 {shift} 列(1.3)→ {label};骰 {dice}:{res}。"
            )
        });
        let atk_steps: u8 = c.attackers.iter().map(|&u| self.steps(u)).sum();
        let def_steps: u8 = c.defenders.iter().map(|&u| self.steps(u)).sum();
        c.result = Some(result);
        c.attacker_losses = result.attacker_steps.min(atk_steps);
        c.defender_losses = result.defender_steps.min(def_steps);
        c.retreat = result.retreat;
        c.stage = Stage::AttackerLoss;
        self.after_loss(c);
    }

    /// A unit's steps on the map (0 off it).
    pub(crate) fn steps(&self, u: UnitId) -> u8 {
        let st = &self.s.units[u as usize];
        if st.hex().is_none() {
            0
        } else if st.reduced {
            1
        } else {
            self.w.data.counters.units[u as usize].steps
        }
    }

    /// 1.2: unit `u` loses a step (flipped, or eliminated with its last), counted against the
    /// losses of combat `c` at its stage.
    fn lose_step(&mut self, c: &mut Combat, u: UnitId) {
        let steps = self.steps(u);
        let name = if self.journal.off {
            Text::new("", "")
        } else {
            self.unit_text(u)
        };
        let at = crate::marks::at(&self.w, &self.s, u);
        if steps >= 2 {
            self.s.set_reduced(u, true);
        } else {
            self.s.set_loc(u, Loc::Eliminated);
        }
        self.journal.say_marked(
            || {
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
            },
            || {
                let unit = crate::marks::unit(&self.w, u);
                at.map(|at| {
                    if steps >= 2 {
                        Mark::StepLost { unit: Some(unit), at }
                    } else {
                        Mark::Eliminated { unit, at }
                    }
                })
            },
        );
        match c.stage {
            Stage::AttackerLoss => {
                c.attacker_losses = c.attacker_losses.saturating_sub(1);
                c.attacker_lost += 1;
            }
            Stage::DefenderLoss => c.defender_losses = c.defender_losses.saturating_sub(1),
            _ => {}
        }
    }

    /// Moves the combat on past the losses: the attacker's, the defender's, the retreat, then
    /// the advance.
    fn after_loss(&mut self, mut c: Combat) {
        let stage = match c.stage {
            Stage::AttackerLoss if c.attacker_losses > 0 && !self.alive(&c.attackers).is_empty() => Stage::AttackerLoss,
            Stage::AttackerLoss | Stage::DefenderLoss
                if c.defender_losses > 0 && !self.alive(&c.defenders).is_empty() =>
            {
                Stage::DefenderLoss
            }
            _ if c.retreat > 0 && !self.alive(&c.defenders).is_empty() => Stage::Retreat,
            _ => return self.begin_advance(c),
        };
        c.stage = stage;
        self.engine.push(Frame::Combat(c));
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
            if b.enemy_in(side, to) || !self.scenario.in_area(grid, to) {
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

    /// 3.2 (6): the defending stack retreats to `to` (checked), losing a step there if it
    /// entered an enemy bond or was blocked; then the advance.
    fn retreat(&mut self, mut c: Combat, to: Hex) {
        let b = Board::new(&self.w, &self.s);
        let loss = self.retreat_options(&b, &c).iter().any(|&(h, l)| h == to && l);
        drop(b);
        let before = self.holder(to);
        let stack = self.alive(&c.defenders);
        // 3.4 (A11): artillery that retreats "while unable to trace supply" (在无法追溯补给线时)
        // becomes DG: traced from the hex it retreats from, as the retreat begins.
        let from = stack.first().and_then(|&u| self.s.units[u as usize].hex());
        let artillery = stack
            .iter()
            .any(|&u| self.w.data.counters.units[u as usize].is_artillery());
        let unsupplied = match (artillery, from) {
            (true, Some(h)) => {
                let side = self.unit_side(stack[0]);
                !with_search(|search| self.supply_map(&Board::new(&self.w, &self.s), side, search))[h.idx()]
            }
            _ => false,
        };
        for &u in &stack {
            self.enter(u, to);
            if unsupplied && self.w.data.counters.units[u as usize].is_artillery() {
                self.s.units[u as usize].dg = true;
            }
        }
        let hid = self.w.data.hex_id(to);
        let marks = match from {
            Some(from) if !self.journal.off => crate::marks::moved(&self.w, &stack, from, to, crate::marks::retreat),
            _ => Vec::new(),
        };
        if loss {
            // 3.2: a bond entered or a blocked retreat costs the stack a step: the unit with the
            // most steps takes it (RULINGS).
            if let Some(&u) = stack.iter().max_by_key(|&&u| (self.steps(u), std::cmp::Reverse(u))) {
                self.lose_step(&mut c, u);
            }
            self.journal.say_marked(
                || {
                    text!(
                        "3.2: the defender retreats to {hid} and loses a step.",
                        "3.2:防御方撤退到 {hid},损失一个军力。"
                    )
                },
                || marks,
            );
        } else {
            self.journal.say_marked(
                || text!("3.2: the defender retreats to {hid}.", "3.2:防御方撤退到 {hid}。"),
                || marks,
            );
        }
        c.retreat = 0;
        self.occupy(to, before);
        self.begin_advance(c);
    }

    /// 3.2 (7): who may advance, and how far. 3.3: an overrun does not advance; if the hex was
    /// emptied the overrunning units enter it free.
    fn begin_advance(&mut self, mut c: Combat) {
        let side = self.attacker_side();
        let b = Board::new(&self.w, &self.s);
        let retreated = c.voluntary || c.result.is_some_and(|r| r.retreat >= 2);
        let vacated = !b.enemy_in(side, c.target);
        // 3.6: artillery does not advance into a hex next to an enemy unit.
        let near_enemy = b.enemy_adjacent(side, c.target);
        drop(b);
        if c.overrun {
            if vacated {
                let before = self.holder(c.target);
                let movers = self.alive(&c.attackers);
                let marks: Vec<Mark> = movers
                    .iter()
                    .filter_map(|&u| {
                        let from = self.s.units[u as usize].hex().filter(|_| !self.journal.off)?;
                        let advance = |unit, from, to| Mark::Advance { unit, from, to };
                        crate::marks::moved(&self.w, &[u], from, c.target, advance).pop()
                    })
                    .collect();
                self.journal.mark_last(|| marks);
                for u in self.alive(&c.attackers) {
                    self.enter(u, c.target);
                }
                self.occupy(c.target, before);
            }
            return;
        }
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
            return;
        }
        c.advancing = advancing;
        c.stage = Stage::Advance;
        self.engine.push(Frame::Combat(c));
    }

    /// 1.2, inventory A12/A13: an exploit-capable unit not DG, not under enemy markers, not
    /// German on turn 1, may advance two hexes.
    fn may_exploit_after_combat(&self, u: UnitId) -> bool {
        let st = &self.s.units[u as usize];
        let def = &self.w.data.counters.units[u as usize];
        def.exploit && !st.dg && !st.barraged && !self.german_on_turn_1(def.side)
    }

    /// 3.2 (7): `unit` advances to `to` (checked).
    fn advance(&mut self, mut c: Combat, unit: UnitId, to: Hex) {
        let before = self.holder(to);
        let from = self.s.units[unit as usize].hex();
        self.enter(unit, to);
        // 3.1, 3.5: made DG by a traffic jam, or in an enemy Full-marker hex, it goes no farther.
        let st = &self.s.units[unit as usize];
        if st.dg || st.barraged {
            if let Some(e) = c.advancing.iter_mut().find(|e| e.0 == unit) {
                e.1 = 0;
            }
        }
        if !self.journal.off {
            let (name, hid) = (self.unit_text(unit), self.w.data.hex_id(to));
            let marks = match from {
                Some(from) => crate::marks::moved(&self.w, &[unit], from, to, |unit, from, to| Mark::Advance {
                    unit,
                    from,
                    to,
                }),
                None => Vec::new(),
            };
            self.journal.say_marked(
                || {
                    Text::new(
                        format!("3.2: {} advances to {hid}.", name.en),
                        format!("3.2:{}推进到 {hid}。", name.zh),
                    )
                },
                || marks,
            );
        }
        if let Some(e) = c.advancing.iter_mut().find(|e| e.0 == unit) {
            if e.1 == 0 || to != c.target {
                c.advancing.retain(|e| e.0 != unit);
            } else {
                e.1 -= 1;
            }
        }
        self.engine.push(Frame::Combat(c));
        self.occupy(to, before);
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Board;
    use crate::sequence::Side;
    use crate::ArdennesII;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::play_randomly_watching;
    use sandtable_core::game::{Game as _, Rules as _};

    /// At every decision of random games, for both sides and every hex of the map, the
    /// legal list's check of an attack says what the refusal as it was written says, and
    /// the refusal given now is that one, word for word.
    #[test]
    fn the_attack_check_is_the_refusal_as_written() {
        let (mut open, mut refused) = (0, 0);
        for (scenario, seed, decisions) in [("goose-egg", 2, 900), ("bastogne", 4, 600)] {
            let mut g = ArdennesII::new_game(scenario, seed).expect("the scenario loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, decisions, |g| {
                let b = Board::new(&g.w, &g.s);
                for side in [Side::German, Side::Allied] {
                    for h in g.w.map.grid.hexes() {
                        let want = g.attack_bar_as_written(&b, side, h);
                        assert_eq!(
                            g.attack_barred(&b, side, h).is_none(),
                            want.is_ok(),
                            "{scenario} {side:?} {h:?}"
                        );
                        match (g.attack_bar(&b, side, h), want) {
                            (Ok(()), Ok(())) => open += 1,
                            (Err(got), Err(want)) => {
                                assert_eq!(
                                    (got.rule, got.text.en, got.text.zh),
                                    (want.rule, want.text.en, want.text.zh)
                                );
                                refused += 1;
                            }
                            (got, want) => panic!("{scenario} {side:?} {h:?}: {got:?} against {want:?}"),
                        }
                    }
                }
            })
            .expect("random play goes on");
        }
        assert!(open > 100 && refused > 10_000, "{open} attacks open, {refused} refused");
    }
}

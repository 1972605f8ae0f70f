//! 12.4 Taking losses: a side meets the loss number its opponent rolled by removing steps, each
//! counting the Loss Factor printed on the side of the counter showing (12.4.2). It must meet as
//! much of the number as it can, never more (12.4.3); an army losing its last step is replaced
//! by a corps of its nation from the Reserve Box (12.4.4); an attack with British units or the
//! Russian CAU army takes its losses in a set order (12.4.5); a fort takes losses only once no
//! defending unit is left (12.4.6).
//!
//! The side takes its losses one step at a time; [`Losses::choices`] lists the steps the rules
//! allow next, and [`Losses::take`] removes one, refusing any other with the rule it breaks.

use sandtable_core::game::Refusal;
use sandtable_core::text::Text;
use std::collections::HashMap;

/// A combat unit that may take losses.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Loser {
    pub army: bool,
    pub full: bool,
    /// Loss Factor of the full-strength side.
    pub lf_full: u8,
    /// Loss Factor of the reduced side.
    pub lf_reduced: u8,
    /// An army: the Reserve Box pool its replacement corps comes from (12.4.4: its nation's
    /// corps; 12.4.4.3: only the BEF corps for the BEF army, an ordinary British corps for the
    /// MEF and BR NE armies). `None` for a corps, and for an army no corps may replace.
    pub pool: Option<usize>,
    /// 12.4.5: the unit's place in the attacker's loss order (1 first; units of one place
    /// come in the owner's choice); 0 for a unit outside it.
    pub priority: u8,
}

impl Loser {
    /// The LF the next step removes.
    fn lf(&self) -> u8 {
        if self.full {
            self.lf_full
        } else {
            self.lf_reduced
        }
    }
}

/// A corps waiting in the Reserve Box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReserveCorps {
    pub full: bool,
    pub lf_full: u8,
    pub lf_reduced: u8,
    /// 12.4.5: its place in the attacker's loss order once on the map (the BEF corps keeps
    /// its place when it replaces the BEF army), 0 for none.
    pub priority: u8,
}

/// The corps of one Reserve Box pool (12.4.4), and the corps that 12.4.4.2 counts in their
/// place when none is left.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Pool {
    pub corps: Vec<ReserveCorps>,
    /// The nation's full-strength corps (its LF full and reduced): what the loss number may
    /// count on when an army with no replacement corps is eliminated (12.4.4.2).
    pub standard: (u8, u8),
}

/// Where the next step is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Target {
    /// A unit, by its index in [`Losses::units`].
    Unit(usize),
    /// The fort of the space (12.4.6).
    Fort,
}

/// What became of a unit in the combat.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Fate {
    /// Still on the map (full or reduced).
    Standing,
    /// Eliminated.
    Eliminated,
    /// An army eliminated and replaced by the corps at this index of [`Losses::units`]
    /// (12.4.4).
    Replaced(usize),
    /// An army eliminated with no corps to replace it: removed from the game (12.4.4,
    /// 12.4.7(4)).
    Removed,
}

/// One unit in the allocation: a unit of the combat, a corps that came from the Reserve Box,
/// or the corps 12.4.4.2 counts for an army that had none.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Unit {
    pub loser: Loser,
    pub fate: Fate,
    /// A corps from the Reserve Box (12.4.4): the index of the army it replaced and of its
    /// pool's corps list.
    pub replaces: Option<(usize, usize)>,
    /// The corps 12.4.4.2 counts for an army removed for want of one: not a counter; it
    /// takes the losses a corps would have taken and leaves nothing on the map.
    pub counted_only: bool,
}

impl Unit {
    fn standing(&self) -> bool {
        self.fate == Fate::Standing
    }
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    pub target: Target,
    pub lf: u8,
    /// The unit (or fort) is eliminated by this step.
    pub eliminated: bool,
}

/// One side's losses in a combat, taken a step at a time.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Losses {
    units: Vec<Unit>,
    pools: Vec<Pool>,
    /// Corps already taken from each pool.
    used: Vec<usize>,
    fort: u8,
    fort_destroyed: bool,
    remaining: u8,
    taken: u8,
    /// 12.4.4.2: whether an army eliminated with no corps of its pool left counts the corps
    /// that would have replaced it. Follows from the game's data edition and the units, so it
    /// is not written into the state.
    #[serde(skip)]
    counts_missing_corps: bool,
}

impl Losses {
    /// The losses of `number` to meet with these units, the Reserve Box `pools` their armies
    /// draw on, and the fort's LF (0 for none, or a fort friendly to the attacker, which combat
    /// never touches: 12.4.6).
    pub fn new(units: Vec<Loser>, pools: Vec<Pool>, fort: u8, number: u8) -> Losses {
        let used = vec![0; pools.len()];
        Losses {
            units: units
                .into_iter()
                .map(|loser| Unit {
                    loser,
                    fate: Fate::Standing,
                    replaces: None,
                    counted_only: false,
                })
                .collect(),
            pools,
            used,
            fort,
            fort_destroyed: false,
            remaining: number,
            taken: 0,
            counts_missing_corps: true,
        }
    }

    /// 2022 12.4.4.2: the missing corps is counted only when it lets more of the loss number be
    /// met ("a loss number larger than can otherwise be applied … whenever the full result could
    /// have been met had a corps been available"): it never spares a unit that could take the
    /// step, nor a fort that could be destroyed. Without this, it is counted whenever an army
    /// with no corps left is eliminated (games begun before data edition 6).
    pub fn counting_missing_corps_only_when_needed(mut self) -> Losses {
        self.counts_missing_corps = false;
        let without = self.best();
        self.counts_missing_corps = true;
        let with = self.best();
        self.counts_missing_corps = with > without;
        self
    }

    /// Every unit of the allocation: the ones it began with, in their order, then the corps
    /// that replaced eliminated armies (and those 12.4.4.2 counted).
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The loss number still to meet.
    pub fn remaining(&self) -> u8 {
        self.remaining
    }

    /// The losses met so far.
    pub fn taken(&self) -> u8 {
        self.taken
    }

    pub fn fort_destroyed(&self) -> bool {
        self.fort_destroyed
    }

    /// Whether the allocation is over: no step the rules allow is left (the number met, or
    /// every possible step would go past it).
    pub fn done(&self) -> bool {
        // [`Losses::choices`] keeps at least one of the allowed steps (every total is at least
        // the 0 it starts from), so it is empty only when none is allowed.
        self.allowed().is_empty()
    }

    /// The most of the remaining loss number the side can still meet (12.4.3), under the loss
    /// order of 12.4.5.
    pub fn best(&self) -> u8 {
        self.clone().search(&mut HashMap::new())
    }

    /// The steps the rules allow next: under 12.4.5 the first place of the loss order that
    /// can take a step, else any step; of these only the ones after which the most of the
    /// number can still be met (12.4.3).
    pub fn choices(&self) -> Vec<Target> {
        let allowed = self.allowed();
        // One step allowed is the best of one (every total is at least the 0 it starts from).
        if allowed.len() == 1 {
            return allowed;
        }
        let mut memo = HashMap::new();
        let mut best = 0;
        let mut out = Vec::new();
        for t in allowed {
            let mut next = self.clone();
            let lf = next.step(t).lf;
            let total = lf + next.search(&mut memo);
            match total.cmp(&best) {
                std::cmp::Ordering::Greater => {
                    best = total;
                    out.clear();
                    out.push(t);
                }
                std::cmp::Ordering::Equal => out.push(t),
                std::cmp::Ordering::Less => {}
            }
        }
        out
    }

    /// Takes one step, or refuses it with the rule it breaks.
    pub fn take(&mut self, t: Target) -> Result<Taken, Refusal> {
        let choices = self.choices();
        if choices.contains(&t) {
            return Ok(self.step(t));
        }
        Err(self.why_not(t, &choices))
    }

    /// Whether [`Losses::take`] would take step `t`, with the steps the rules allow next
    /// ([`Losses::choices`]) asked already: nothing taken, the same refusal.
    pub(crate) fn may_take(&self, t: Target, choices: &[Target]) -> Result<(), Refusal> {
        if choices.contains(&t) {
            return Ok(());
        }
        Err(self.why_not(t, choices))
    }

    /// Why a step is not among the choices.
    fn why_not(&self, t: Target, choices: &[Target]) -> Refusal {
        let exists = match t {
            Target::Unit(i) => self.units.get(i).is_some_and(Unit::standing),
            Target::Fort => self.fort > 0 && !self.fort_destroyed,
        };
        if !exists {
            return Refusal::new(
                "12.4.2",
                Text::new(
                    "that unit takes no losses in this combat",
                    "该单位不在本次会战中承受损失",
                ),
            );
        }
        if choices.is_empty() {
            return Refusal::new(
                "12.4.3",
                Text::new(
                    format!(
                        "the losses are met: {} taken, no step fits the {} left",
                        self.taken, self.remaining
                    ),
                    format!(
                        "损失已承受完毕:已承受{},剩余{}不够任何一个步数",
                        self.taken, self.remaining
                    ),
                ),
            );
        }
        if t == Target::Fort {
            return Refusal::new(
                "12.4.6",
                Text::new(
                    "a fort takes losses only when no defending unit is left, and only its whole LF",
                    "只有在没有防守单位剩下时要塞才承受损失,且须承受其全部损失系数",
                ),
            );
        }
        let priority = self.priority_place();
        if priority > 0 && self.lf_of(t).is_some_and(|lf| lf <= self.remaining) {
            return Refusal::new(
                "12.4.5",
                Text::new(
                    "with British units or the Russian CAU army attacking, losses go first to the BEF army, then the BEF corps, then the MEF or CAU army, then the AUS or CND corps",
                    "进攻方含英国单位或俄国高加索集团军时,损失须依次由英国远征军集团军、英国远征军军、地中海远征军或高加索集团军、澳大利亚或加拿大军承受",
                ),
            );
        }
        let lf = self.lf_of(t).unwrap_or(0);
        if lf > self.remaining {
            return Refusal::new(
                "12.4.3",
                Text::new(
                    format!("that step counts {lf}, more than the {} left to meet", self.remaining),
                    format!("该步数计{lf},超过剩余应承受的{}", self.remaining),
                ),
            );
        }
        let mut next = self.clone();
        next.step(t);
        let reach = lf + next.best();
        Refusal::new(
            "12.4.3",
            Text::new(
                format!(
                    "after that step only {reach} of the {} left could be met; as much of the loss number as possible must be met",
                    self.remaining
                ),
                format!(
                    "承受该步数后剩余的{}中只能承受{reach};必须尽可能多地承受损失数",
                    self.remaining
                ),
            ),
        )
    }

    fn lf_of(&self, t: Target) -> Option<u8> {
        match t {
            Target::Unit(i) => self.units.get(i).filter(|u| u.standing()).map(|u| u.loser.lf()),
            Target::Fort => (self.fort > 0 && !self.fort_destroyed).then_some(self.fort),
        }
    }

    /// 12.4.5: the first place of the loss order holding a unit whose next step fits the
    /// remaining number; 0 when none does.
    fn priority_place(&self) -> u8 {
        self.units
            .iter()
            .filter(|u| u.standing() && u.loser.priority > 0 && u.loser.lf() <= self.remaining)
            .map(|u| u.loser.priority)
            .min()
            .unwrap_or(0)
    }

    /// The steps allowed before 12.4.3's "as much as possible" is applied.
    fn allowed(&self) -> Vec<Target> {
        if self.remaining == 0 {
            return Vec::new();
        }
        let fits = |u: &Unit| u.standing() && u.loser.lf() <= self.remaining;
        let place = self.priority_place();
        if place > 0 {
            // 12.4.5 overrides 12.4.3: the first place that can take a step must.
            return (0..self.units.len())
                .filter(|&i| fits(&self.units[i]) && self.units[i].loser.priority == place)
                .map(Target::Unit)
                .collect();
        }
        let mut out: Vec<Target> = (0..self.units.len())
            .filter(|&i| fits(&self.units[i]))
            .map(Target::Unit)
            .collect();
        // 12.4.6: the fort only once no defending unit stands, and only its whole LF.
        if self.fort > 0
            && !self.fort_destroyed
            && self.fort <= self.remaining
            && !self.units.iter().any(Unit::standing)
        {
            out.push(Target::Fort);
        }
        out
    }

    /// Removes one step, without checking it is allowed.
    fn step(&mut self, t: Target) -> Taken {
        let lf = self.lf_of(t).unwrap_or(0);
        self.remaining -= lf;
        self.taken += lf;
        let i = match t {
            Target::Fort => {
                self.fort_destroyed = true;
                return Taken {
                    target: t,
                    lf,
                    eliminated: true,
                };
            }
            Target::Unit(i) => i,
        };
        if self.units[i].loser.full {
            self.units[i].loser.full = false;
            return Taken {
                target: t,
                lf,
                eliminated: false,
            };
        }
        // The last step: a reduced army is replaced by a corps of its pool, full if there is
        // one, else reduced (12.4.4).
        let u = &self.units[i];
        if !u.loser.army || u.counted_only {
            self.units[i].fate = Fate::Eliminated;
        } else if let Some(p) = u.loser.pool.filter(|&p| p < self.pools.len()) {
            let pool = &self.pools[p];
            let left: Vec<usize> = (self.used[p]..pool.corps.len()).collect();
            // The pool's corps are taken in order, full ones first.
            let pick = left
                .iter()
                .copied()
                .find(|&k| pool.corps[k].full)
                .or_else(|| left.first().copied());
            if pick.is_none() && !self.counts_missing_corps {
                // 12.4.4: no corps left; the army is removed from the game.
                self.units[i].fate = Fate::Removed;
                return Taken {
                    target: t,
                    lf,
                    eliminated: true,
                };
            }
            let corps = match pick {
                Some(k) => {
                    // Keep the taken corps at the front of the list.
                    let pool = &mut self.pools[p];
                    let used = self.used[p];
                    pool.corps.swap(used, k);
                    self.used[p] += 1;
                    let c = pool.corps[used];
                    Unit {
                        loser: Loser {
                            army: false,
                            full: c.full,
                            lf_full: c.lf_full,
                            lf_reduced: c.lf_reduced,
                            pool: None,
                            priority: c.priority,
                        },
                        fate: Fate::Standing,
                        replaces: Some((i, used)),
                        counted_only: false,
                    }
                }
                None => {
                    // 12.4.4.2: no corps left; the army is removed from the game, and the
                    // loss number may count on the corps that would have replaced it.
                    let (lf_full, lf_reduced) = pool.standard;
                    Unit {
                        loser: Loser {
                            army: false,
                            full: true,
                            lf_full,
                            lf_reduced,
                            pool: None,
                            priority: 0,
                        },
                        fate: Fate::Standing,
                        replaces: None,
                        counted_only: true,
                    }
                }
            };
            let counted_only = corps.counted_only;
            self.units.push(corps);
            let at = self.units.len() - 1;
            self.units[i].fate = if counted_only {
                Fate::Removed
            } else {
                Fate::Replaced(at)
            };
        } else {
            self.units[i].fate = Fate::Removed;
        }
        Taken {
            target: t,
            lf,
            eliminated: true,
        }
    }

    /// The most of the remaining number that can be met from this position.
    fn search(&mut self, memo: &mut HashMap<Vec<u8>, u8>) -> u8 {
        if self.remaining == 0 {
            return 0;
        }
        let key = self.key();
        if let Some(&b) = memo.get(&key) {
            return b;
        }
        let mut best = 0;
        for t in self.allowed() {
            let mut next = self.clone();
            let lf = next.step(t).lf;
            best = best.max(lf + next.search(memo));
            if best == self.remaining {
                break;
            }
        }
        memo.insert(key, best);
        best
    }

    fn key(&self) -> Vec<u8> {
        let mut k = Vec::with_capacity(self.units.len() * 4 + self.used.len() + 2);
        for u in &self.units {
            k.push(match u.fate {
                Fate::Standing => 1 + u8::from(u.loser.full),
                _ => 0,
            });
            k.extend([u.loser.lf_full, u.loser.lf_reduced, u8::from(u.counted_only)]);
        }
        k.extend(self.used.iter().map(|&n| n as u8));
        k.push(u8::from(self.fort_destroyed));
        k.push(self.remaining);
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::Game;

    /// [`Losses::choices`] as it was made before: every allowed step searched.
    fn choices_afresh(l: &Losses) -> Vec<Target> {
        let mut memo = HashMap::new();
        let mut best = 0;
        let mut out = Vec::new();
        for t in l.allowed() {
            let mut next = l.clone();
            let lf = next.step(t).lf;
            let total = lf + next.search(&mut memo);
            if total > best {
                best = total;
                out.clear();
            }
            if total == best {
                out.push(t);
            }
        }
        out
    }

    /// 12.4: at every decision of random campaigns with losses being taken, and after each
    /// step of the allocation taken in turn from there, the steps allowed next are those found
    /// by searching every allowed step, and the allocation is over exactly when none is.
    #[test]
    fn losses_are_done_when_no_step_is_a_choice_at_every_decision() {
        let mut asked = 0u64;
        for seed in 0..4 {
            let mut g = crate::game::PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 600, |g: &crate::game::PathsOfGlory| {
                let Some(t) = g.action.battle.as_ref().and_then(|b| b.losses.as_ref()) else {
                    return;
                };
                let mut losses = t.losses.clone();
                for k in 0.. {
                    let choices = losses.choices();
                    assert_eq!(choices, choices_afresh(&losses));
                    assert_eq!(losses.done(), choices.is_empty());
                    asked += 1;
                    let Some(&c) = choices.get(k % choices.len().max(1)) else {
                        break;
                    };
                    losses.step(c);
                }
            })
            .expect("random play");
        }
        assert!(asked > 50, "{asked}");
    }
}

//! Activation (8.0): an HQ's command activates the units within its command range; STAVKA
//! lets the Soviet player choose the HQ (7.2(3)); an allied Axis HQ may take up to two German
//! units along (8.3(2)).

use crate::data::{Nation, Side};
use crate::sequence::not_now;
use crate::state::*;
use crate::StalingradBlitz;
use sandtable_core::game::Refusal;
use sandtable_core::text;
use sandtable_core::text::Text;

impl StalingradBlitz {
    /// 8.0–8.3: activate every eligible unit within the HQ's command range, measured now.
    pub(crate) fn activate(&mut self, hq: UnitId) {
        let d = self.d.clone();
        let hdef = &d.units[hq as usize];
        let Some(at) = self.s.units[hq as usize].hex() else {
            return;
        };
        let mut n = 0;
        for (i, st) in self.s.units.iter_mut().enumerate() {
            let def = &d.units[i];
            let Some(h) = st.hex() else { continue };
            let is_self = i == hq as usize;
            // 8.1(4): an HQ cannot activate other HQs; 8.2: pure hex distance ≤ range;
            // 8.3(1): an Axis HQ activates only its own nationality.
            let eligible = is_self
                || (def.side == hdef.side
                    && !def.is_hq()
                    && d.map.grid.distance(at, h) <= hdef.range as u32
                    && (hdef.side == Side::Soviet || def.nation == hdef.nation));
            if eligible {
                st.active = true;
                st.moved = false;
                st.attacked = false;
                n += 1;
            }
        }
        self.journal.say(|| {
            Text::new(
                format!("8.0: {} activates {n} units.", hdef.name_en),
                format!("8.0:{}激活了 {n} 个单位。", hdef.name_zh),
            )
        });
    }

    /// 7.2(3): whether STAVKA may activate `unit` (a Soviet HQ on the map).
    fn may_stavka(&self, unit: UnitId) -> Result<(), Refusal> {
        if (unit as usize) < self.d.units.len() && self.is_soviet_hq_on_map(unit) {
            Ok(())
        } else {
            Err(Refusal::new(
                "7.2(3)",
                text!(
                    "STAVKA activates a Soviet HQ on the map",
                    "红军大本营只能激活地图上的苏军司令部"
                ),
            ))
        }
    }

    /// 8.3(2): whether the allied HQ may take `unit` along: a German combat unit within its
    /// command range, not already active, while fewer than two are taken.
    fn may_take_along(&self, e: &Exec, picked: u8, unit: UnitId) -> Result<(), Refusal> {
        let refuse = |t: Text| Err(Refusal::new("8.3(2)", t));
        match self.take_along_allowed(e, picked, unit) {
            Ok(()) => Ok(()),
            Err(TakeAlong::NoSuchUnit) => refuse(text!("there is no such unit", "没有这个单位")),
            Err(TakeAlong::TwoTaken) => refuse(text!(
                "an allied HQ takes at most two German units along",
                "同盟军司令部最多带动两个德军单位"
            )),
            Err(TakeAlong::NotEligible) => {
                let def = &self.d.units[unit as usize];
                refuse(Text::new(
                    format!(
                        "{} is not a German combat unit within the HQ's command range that is not yet active",
                        def.name_en
                    ),
                    format!("{}不是司令部指挥范围内尚未激活的德军作战单位", def.name_zh),
                ))
            }
        }
    }

    /// 8.3(2): [`StalingradBlitz::may_take_along`]'s test, naming what fails without its words
    /// (the legal list asks it of every unit).
    fn take_along_allowed(&self, e: &Exec, picked: u8, unit: UnitId) -> Result<(), TakeAlong> {
        let Some(def) = self.d.units.get(unit as usize) else {
            return Err(TakeAlong::NoSuchUnit);
        };
        if picked >= 2 {
            return Err(TakeAlong::TwoTaken);
        }
        let st = &self.s.units[unit as usize];
        let range = e.hq.map(|hq| self.d.units[hq as usize].range as u32).unwrap_or(0);
        let at = e.hq.and_then(|hq| self.s.units[hq as usize].hex());
        let near = matches!((at, st.hex()), (Some(a), Some(h)) if self.d.map.grid.distance(a, h) <= range);
        if def.nation != Nation::German || def.is_hq() || st.active || !near {
            return Err(TakeAlong::NotEligible);
        }
        Ok(())
    }

    pub(crate) fn legal_activation(&self, e: &Exec, out: &mut Vec<Action>) {
        let n = self.d.units.len() as UnitId;
        match e.step {
            // 7.2(3): `may_stavka`'s test, without the words of its refusal.
            Step::Stavka => out.extend(
                (0..n)
                    .filter(|&u| self.is_soviet_hq_on_map(u))
                    .map(|unit| Action::Choose { unit }),
            ),
            Step::AlliedGerman { picked } => {
                out.extend(
                    (0..n)
                        .filter(|&u| self.take_along_allowed(e, picked, u).is_ok())
                        .map(|unit| Action::Choose { unit }),
                );
                out.push(Action::EndChoose);
            }
            _ => {}
        }
    }

    pub(crate) fn check_activation(&self, e: &Exec, a: &Action) -> Result<(), Refusal> {
        match (&e.step, *a) {
            (Step::Stavka, Action::Choose { unit }) => self.may_stavka(unit),
            (Step::AlliedGerman { picked }, Action::Choose { unit }) => self.may_take_along(e, *picked, unit),
            (Step::AlliedGerman { .. }, Action::EndChoose) => Ok(()),
            _ => Err(not_now()),
        }
    }

    /// The HQ STAVKA activates, or a German unit an allied HQ takes along, or no more.
    pub(crate) fn activation_choice(&mut self, a: &Action) {
        let step = self.exec_mut().step.clone();
        match (step, *a) {
            (Step::Stavka, Action::Choose { unit }) => {
                self.activate(unit);
                let e = self.exec_mut();
                e.hq = Some(unit);
                e.step = Step::Move;
            }
            (Step::AlliedGerman { picked }, Action::Choose { unit }) => {
                self.s.units[unit as usize].active = true;
                self.exec_mut().step = Step::AlliedGerman { picked: picked + 1 };
            }
            (Step::AlliedGerman { .. }, Action::EndChoose) => self.exec_mut().step = Step::Move,
            _ => {}
        }
    }
}

/// What 8.3(2) refuses an allied HQ's taking a unit along for.
enum TakeAlong {
    NoSuchUnit,
    TwoTaken,
    NotEligible,
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::chance::Rng;
    use sandtable_core::game::{play_randomly_watching, Game, Rules};

    /// 7.2(3): the STAVKA list is every unit `may_stavka` allows and no other, at every
    /// decision of random campaign games where STAVKA chooses.
    #[test]
    fn the_stavka_list_is_what_may_stavka_allows() {
        let mut asked = 0;
        for seed in 0..20 {
            let mut g = StalingradBlitz::new_game("campaign", seed).expect("the campaign loads");
            g.set_journal(false);
            let mut rng = Rng::from_seed(seed);
            play_randomly_watching(&mut g, &mut rng, u64::MAX, |g| {
                let Some(e) = g.exec().filter(|e| matches!(e.step, Step::Stavka)) else {
                    return;
                };
                let mut listed = Vec::new();
                g.legal_activation(e, &mut listed);
                let allowed: Vec<Action> = (0..g.d.units.len() as UnitId)
                    .filter(|&u| g.may_stavka(u).is_ok())
                    .map(|unit| Action::Choose { unit })
                    .collect();
                assert_eq!(listed, allowed, "seed {seed}");
                asked += 1;
            })
            .expect("random play reaches the end");
        }
        assert!(asked > 10, "STAVKA chose at only {asked} decisions");
    }
}

//! 15.2, 15.3 Sieges: what it takes to besiege an enemy fort and keep the siege, and the
//! surrender roll of the Siege Phase.

use crate::game::PathsOfGlory;
use crate::state::Fort;
use crate::tables::Tables;
use sandtable_core::text::Text;

/// 15.2.1: enough to besiege a fort of `fort_lf`: one army (any strength), or as many corps (any
/// strength) as its LF. The same holds for keeping a siege (15.2.4).
pub fn enough_to_besiege(armies: usize, corps: usize, fort_lf: u8) -> bool {
    armies >= 1 || corps >= fort_lf as usize
}

/// 15.2.1 for some counters (indices into the data's pieces): whether they could besiege, or
/// keep besieging (15.2.4), a fort of `fort_lf`.
pub(crate) fn units_besiege(data: &crate::data::Data, units: impl IntoIterator<Item = usize>, fort_lf: u8) -> bool {
    let (armies, corps) = units.into_iter().fold((0, 0), |(a, c), u| {
        if data.pieces[u].kind == crate::data::Kind::Army {
            (a + 1, c)
        } else {
            (a, c + 1)
        }
    });
    enough_to_besiege(armies, corps, fort_lf)
}

/// 15.3.2, 15.3.3: whether a besieged fort falls in the Siege Phase: the die, modified by the
/// turn's siege modifier (−2 in August and September 1914), above the fort's LF.
pub fn falls(tables: &Tables, turn: u8, fort_lf: u8, die: u8) -> bool {
    let drm = tables.turn(turn).map_or(0, |t| t.siege_drm as i32);
    die as i32 + drm > fort_lf as i32
}

/// 15.2.4 (2022) "Units may leave a besieged fort's space only if, at round end, the fort is
/// either still besieged or no longer shares its space with friendly units": a siege whose
/// besiegers have all gone (moved, redeployed, retreated or eliminated) ends at once, and the
/// fort stands unbesieged again. In games begun on data edition 6 or later a siege is also
/// broken at once when losses leave too few besiegers ("If combat losses … drop the besiegers
/// below the 15.2.1 minimum, they stay put but the siege is broken: no surrender roll in the
/// Siege Phase and no supply tracing through the space"): the fort stands unbesieged with
/// them in its space, until units entering it make enough again (11.1.8 with 15.2.1). A
/// combat's losses break a siege once the combat is over, so that advancers entering a fort's
/// space one at a time count together (2022 12.7.6). (Run after every step of the game.)
pub(crate) fn lift_abandoned(g: &mut PathsOfGlory) {
    let data = g.data();
    let broken_by_losses = g.scenario.edition >= 6 && g.action.battle.is_none();
    for &s in &data.forts {
        let st = g.pos.spaces[s.idx()];
        if st.fort != Fort::Besieged {
            continue;
        }
        let besiegers = g.occupant(s).filter(|&side| Some(side) != st.control);
        let too_few = besiegers.is_some() && broken_by_losses && !crate::operations::siege_holds(g, s);
        if besiegers.is_some() && !too_few {
            continue;
        }
        let i = s.idx();
        g.pos.spaces[i].fort = Fort::Intact;
        let n = g.name(s);
        if too_few {
            g.journal.say(|| {
                Text::new(
                    format!(
                        "The siege of {} is broken: too few besiegers are left, an army or as many corps as the fort's LF (15.2.4)",
                        n.en
                    ),
                    format!("{}的围城被打破:剩余围城部队不足一个集团军或与要塞损失系数相同数量的军(15.2.4)", n.zh),
                )
            });
        } else {
            g.journal.say(|| {
                Text::new(
                    format!("The siege of {} ends: no besieger is left in it (15.2.4)", n.en),
                    format!("{}的围城结束:已无围城部队(15.2.4)", n.zh),
                )
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::Game;

    /// 15.2.4: at every decision of random campaigns (data edition 5 and later), every siege
    /// stands as ending the abandoned ones would leave it: a step that changed no counter, no
    /// space and no combat is not followed by that question, and needs none.
    #[test]
    fn no_abandoned_siege_is_left_standing_at_any_decision() {
        let (mut decisions, mut besieged) = (0u64, 0u64);
        for seed in 0..16 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            assert!(g.scenario.edition >= 5);
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 1_500, |g: &PathsOfGlory| {
                let mut again = g.clone();
                lift_abandoned(&mut again);
                assert!(
                    again.pos.spaces == g.pos.spaces,
                    "a siege was left standing, seed {seed}"
                );
                decisions += 1;
                besieged += g.data().forts.iter().any(|&s| g.pos.space(s).fort == Fort::Besieged) as u64;
            })
            .expect("random play");
        }
        assert!(decisions > 5_000 && besieged > 500, "{decisions} {besieged}");
    }
}

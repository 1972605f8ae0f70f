//! 7.0 Mandated Offensives: the rolls on both tables and what meets an offensive.

use crate::offensives::{met_by, mutiny_punishes, penalty, roll, AttackSeen, Context, Offensive};
use crate::tables::Tables;
use crate::{Nation, Side};

fn rolls(side: Side, ctx: &Context) -> Vec<Offensive> {
    let t = Tables::load().unwrap();
    (1..=6).map(|d| roll(&t, side, d, ctx)).collect()
}

use Offensive::{AhAgainstItaly, FrenchMutiny, Nation as N, None as Nothing};

#[test]
fn the_rolls_of_august_1914() {
    // Italy and Turkey neutral: their results have no effect (7.1.2); AH(IT) is AH (7.1.6).
    let ctx = Context::default();
    assert_eq!(
        rolls(Side::Ap, &ctx),
        [
            N(Nation::Fr),
            N(Nation::Fr),
            N(Nation::Br),
            Nothing,
            Nothing,
            N(Nation::Ru)
        ]
    );
    assert_eq!(
        rolls(Side::Cp, &ctx),
        [N(Nation::Ah), N(Nation::Ah), Nothing, N(Nation::Ge), Nothing, Nothing]
    );
    // 5.7.4.5: the Historical scenario's first turn makes a British result French.
    let hist = Context {
        historical_turn_1: true,
        ..Context::default()
    };
    assert_eq!(rolls(Side::Ap, &hist)[2], N(Nation::Fr));
}

#[test]
fn later_in_the_war_7_1_6_to_7_1_11() {
    let at_war = Context {
        italy_at_war: true,
        turkey_at_war: true,
        ..Context::default()
    };
    assert_eq!(rolls(Side::Ap, &at_war)[3], N(Nation::It));
    assert_eq!(rolls(Side::Cp, &at_war)[1], AhAgainstItaly);
    assert_eq!(rolls(Side::Cp, &at_war)[2], N(Nation::Tu));
    // Rome in CP hands: AH(IT) is plain AH.
    let rome = Context {
        rome_lost: true,
        ..at_war
    };
    assert_eq!(rolls(Side::Cp, &rome)[1], N(Nation::Ah));
    // 7.1.9: Hoffmann's +1 turns a 3 into GE and a 4 into None.
    let hoffmann = Context {
        hoffmann: true,
        ..at_war
    };
    assert_eq!(rolls(Side::Cp, &hoffmann)[2], N(Nation::Ge));
    assert_eq!(rolls(Side::Cp, &hoffmann)[3], Nothing);
    // 7.1.8, 7.1.10, 7.1.11.
    let late = Context {
        french_mutiny: true,
        hl_take_command: true,
        bolshevik_revolution: true,
        ..at_war
    };
    assert_eq!(rolls(Side::Ap, &late)[0], FrenchMutiny);
    assert_eq!(rolls(Side::Ap, &late)[5], Nothing);
    assert_eq!(rolls(Side::Cp, &late)[3], Nothing);
}

/// 7.1.2 (2022): a nation whose capital is the enemy's has no offensive; the marker moves on.
#[test]
fn a_lost_capital_moves_the_marker_on() {
    let lost = [Nation::Fr];
    let ctx = Context {
        capitals_lost: &lost,
        ..Context::default()
    };
    assert_eq!(rolls(Side::Ap, &ctx)[0], N(Nation::Br));
    let lost = [Nation::Ah];
    let ctx = Context {
        capitals_lost: &lost,
        turkey_at_war: true,
        ..Context::default()
    };
    assert_eq!(rolls(Side::Cp, &ctx)[0], N(Nation::Tu));
}

#[test]
fn what_meets_an_offensive_7_1_3_to_7_1_7() {
    let ge = [Nation::Ge];
    let br = [Nation::Br];
    let fr = [Nation::Fr];
    let british_on_germans_in_france = AttackSeen {
        attackers: &br,
        british_proper: true,
        defenders: &ge,
        country: Some("fr"),
        ..AttackSeen::default()
    };
    assert!(met_by(N(Nation::Br), &british_on_germans_in_france));
    // 7.1.4: the AUS, CND, PT and ANA are not British for this.
    let dominions = AttackSeen {
        british_proper: false,
        ..british_on_germans_in_france.clone()
    };
    assert!(!met_by(N(Nation::Br), &dominions));
    // Not in Italy.
    let in_italy = AttackSeen {
        country: Some("it"),
        ..british_on_germans_in_france.clone()
    };
    assert!(!met_by(N(Nation::Br), &in_italy));
    // 7.1.5: Germans on the French in Belgium.
    let germans = AttackSeen {
        attackers: &ge,
        defenders: &fr,
        country: Some("be"),
        ..AttackSeen::default()
    };
    assert!(met_by(N(Nation::Ge), &germans));
    // 7.1.7: an AH offensive is met by any Austro-Hungarian attack.
    let ah = [Nation::Ah];
    let ru = [Nation::Ru];
    let ah_on_ru = AttackSeen {
        attackers: &ah,
        defenders: &ru,
        country: Some("ru"),
        ..AttackSeen::default()
    };
    assert!(met_by(N(Nation::Ah), &ah_on_ru));
    assert!(!met_by(AhAgainstItaly, &ah_on_ru));
    // E.1: +1 VP when the Allies fail, −1 when the CP fails; nothing for a mutiny or none.
    assert_eq!(penalty(Side::Ap, N(Nation::Fr), false), 1);
    assert_eq!(penalty(Side::Cp, N(Nation::Ge), false), -1);
    assert_eq!(penalty(Side::Cp, N(Nation::Ge), true), 0);
    assert_eq!(penalty(Side::Ap, FrenchMutiny, false), 0);
    // 7.1.8: the mutiny punishes a French attack in France, Belgium or Germany only.
    assert!(mutiny_punishes(true, Some("fr")));
    assert!(!mutiny_punishes(true, Some("it")));
    assert!(!mutiny_punishes(false, Some("fr")));
}

/// The Allies' first action of August 1914, their Mandated Offensive British, `attacker` (a
/// counter set aside or in reserve) in Amiens attacking a German corps in Calais with Blockade's
/// OPS; the game once the combat is over (first choices, the dice given).
fn british_offensive_against_calais(attacker: &str) -> crate::game::PathsOfGlory {
    use super::common;
    use crate::game::{Action, Frame, AP};
    use crate::state::Location;
    use sandtable_core::game::Game;
    let mut g = common::first_round();
    g.turn.offensive[crate::state::side_index(Side::Ap)] = Some(N(Nation::Br));
    g.turn.offensive_met[crate::state::side_index(Side::Ap)] = false;
    let (amiens, calais) = (common::sp("amiens"), common::sp("calais"));
    let attacker = common::unit(attacker);
    let here: Vec<usize> = g.pos.units_in(amiens).collect();
    for u in here {
        g.pos.units[u].loc = Location::Aside;
    }
    g.pos.units[attacker].loc = Location::Map(amiens);
    g.pos.units[attacker].full = true;
    let ge = common::in_reserve(&g, "ge-corps", 1)[0];
    g.pos.units[ge as usize].loc = Location::Map(calais);
    g.pos.spaces[calais.idx()].control = Some(Side::Cp);
    g.pos.spaces[amiens.idx()].control = Some(Side::Ap);
    g.touch();
    common::allies_activate(&mut g, &[(amiens, true)]);
    g.apply(AP, &Action::Target { space: calais }).expect("Calais");
    g.apply(AP, &Action::Join { unit: attacker as u16 }).expect("joins");
    g.apply(AP, &Action::Resolve).expect("resolve");
    let over = common::play_until(&mut g, &mut [3u8, 3, 3, 3].into_iter(), |g| {
        g.action.battle.is_none() && !matches!(g.frames().last(), Some(Frame::Designate { .. }))
    });
    assert!(over, "the dice ran out");
    g
}

/// 7.1.4, 2022 7.1.4 "AUS, CND, PT and ANA are not British for MOs": a British offensive is met
/// by a British corps attacking German units in France, not by the Canadian corps alone.
#[test]
fn the_canadian_corps_alone_meets_no_british_offensive_2022_7_1_4() {
    let ap = crate::state::side_index(Side::Ap);
    assert!(british_offensive_against_calais("br-corps-1").turn.offensive_met[ap]);
    assert!(!british_offensive_against_calais("br-corps-cnd").turn.offensive_met[ap]);
}

/// 2022 7.1.2 "If the rolled nation's capital is enemy-controlled (AH: both Vienna and
/// Budapest), that nation has no MO": Vienna alone taken leaves Austria-Hungary its offensive,
/// both take it; Paris besieged, still French, leaves France its offensive.
#[test]
fn a_capital_is_lost_to_the_offensives_when_the_enemy_holds_it_2022_7_1_2() {
    use super::common::{data, sp, start};
    use crate::state::Fort;
    let lost = |pos: &crate::state::Position| crate::sequence::capitals_lost(data(), pos, 5);
    let mut pos = start();
    assert!(lost(&pos).is_empty());
    pos.spaces[sp("vienna").idx()].control = Some(Side::Ap);
    assert!(!lost(&pos).contains(&Nation::Ah), "Budapest stands");
    pos.spaces[sp("budapest").idx()].control = Some(Side::Ap);
    assert!(lost(&pos).contains(&Nation::Ah), "both taken");
    let mut pos = start();
    pos.spaces[sp("paris").idx()].fort = Fort::Besieged;
    assert!(!lost(&pos).contains(&Nation::Fr), "besieged, not taken");
    pos.spaces[sp("paris").idx()].control = Some(Side::Cp);
    assert!(lost(&pos).contains(&Nation::Fr));
}

/// 7.1.6 "奧匈部隊必需攻擊…接受義大利補給的協約國軍": with Italy at war, a French army holding Trent
/// (its fort destroyed) traces its supply only through Verona or Asiago, in Italy: attacked
/// there it meets the AH(It) offensive; a French army in Nancy traces none through Italy.
#[test]
fn allied_units_supplied_through_italy_7_1_6() {
    use super::common::{data, setup, sp, start, unit};
    use crate::state::{Fort, Location};
    let mut pos = start();
    setup().enter(data(), &mut pos, "it", false, false);
    let trent = sp("trent");
    let here: Vec<usize> = pos.units_in(trent).collect();
    for u in here {
        pos.units[u].loc = Location::Aside;
    }
    pos.spaces[trent.idx()].control = Some(Side::Ap);
    pos.spaces[trent.idx()].fort = Fort::Destroyed;
    let army = unit("fr-army-1");
    pos.units[army].loc = Location::Map(trent);
    let through = |pos: &crate::state::Position, at| crate::operations::supplied_through_italy(data(), pos, army, at);
    assert!(through(&pos, trent));
    pos.units[army].loc = Location::Map(sp("nancy"));
    assert!(!through(&pos, sp("nancy")));
}

/// 7.1.6 through a whole combat: with Italy at war and the CP's offensive AH(It), an
/// Austro-Hungarian army in Innsbruck attacks Trent (the Allies', its fort destroyed), held by a
/// French army whose only supply runs through Verona or Asiago, in Italy: the offensive is met.
/// With Verona and Asiago the CP's, the army traces no supply through Italy and the same attack
/// meets nothing.
#[test]
fn an_attack_on_allies_supplied_through_italy_meets_ah_it_7_1_6() {
    use super::common::{self, data, setup, sp, unit};
    use crate::game::{Action, Frame, CP};
    use crate::state::{Fort, Location};
    use sandtable_core::game::Game;
    let cp = crate::state::side_index(Side::Cp);
    let attack = |italy_cut: bool| {
        let mut g = common::first_round();
        setup().enter(data(), &mut g.pos, "it", false, false);
        g.turn.offensive[cp] = Some(AhAgainstItaly);
        g.turn.offensive_met[cp] = false;
        let (innsbruck, trent) = (sp("innsbruck"), sp("trent"));
        for s in [innsbruck, trent] {
            for u in g.pos.units_in(s).collect::<Vec<_>>() {
                g.pos.units[u].loc = Location::Aside;
            }
        }
        g.pos.spaces[trent.idx()].control = Some(Side::Ap);
        g.pos.spaces[trent.idx()].fort = Fort::Destroyed;
        let (army, ah) = (unit("fr-army-1"), unit("ah-army-1"));
        g.pos.units[army].loc = Location::Map(trent);
        g.pos.units[ah].loc = Location::Map(innsbruck);
        g.pos.units[ah].full = true;
        if italy_cut {
            for s in ["verona", "asiago"] {
                for u in g.pos.units_in(sp(s)).collect::<Vec<_>>() {
                    g.pos.units[u].loc = Location::Aside;
                }
                g.pos.spaces[sp(s).idx()].control = Some(Side::Cp);
            }
        }
        g.touch();
        common::automatic_attack_from(&mut g, innsbruck);
        g.apply(CP, &Action::Target { space: trent }).expect("Trent");
        g.apply(CP, &Action::Join { unit: ah as u16 }).expect("joins");
        g.apply(CP, &Action::Resolve).expect("resolve");
        let over = common::play_until(&mut g, &mut [3u8, 3, 3, 3].into_iter(), |g| {
            g.action.battle.is_none() && !matches!(g.frames().last(), Some(Frame::Designate { .. }))
        });
        assert!(over, "the dice ran out");
        g.turn.offensive_met[cp]
    };
    assert!(attack(false), "a defender supplied through Italy");
    assert!(!attack(true), "a defender out of supply, Italy's spaces the CP's");
}

/// The summary every seat reads names this turn's offensives and which is met, in both languages.
#[test]
fn the_summary_names_the_offensives_of_the_turn_7_1() {
    use sandtable_core::driver::Rules;
    use sandtable_core::text::Lang;
    let mut g = super::common::first_round();
    g.turn.offensive = [Some(N(Nation::Ah)), Some(N(Nation::Fr))];
    g.turn.offensive_met = [false, true];
    let en = g.summary(None, Lang::En);
    assert!(
        en.ends_with("; Mandated Offensives (7.1) — CP: Austria-Hungary must attack; AP: France must attack (met)"),
        "{en}"
    );
    let zh = g.summary(None, Lang::Zh);
    assert!(
        zh.ends_with(";强制攻势(7.1):同盟国(奥匈必须进攻),协约国(法国必须进攻,已完成)"),
        "{zh}"
    );
    g.turn.offensive = [None, None];
    assert!(!g.summary(None, Lang::En).contains("Mandated"));
}

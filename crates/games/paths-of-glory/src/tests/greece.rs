//! 9.5.2.4 Greece's limited entry on the real map: the Greek corps Salonika (AP #30) sets up in
//! Florina, Larisa and Athens stay neutral until Greece enters the war (AP #44): no side
//! activates, moves, redeploys or attacks them, and attrition passes them by (data edition 7).

use super::common::{self, data, setup, sp, unit};

use crate::game::{Action, PathsOfGlory, Use, AP, CP};
use crate::state::Location;
use crate::Side;
use sandtable_core::game::Game;

/// The campaign's first round with Salonika's limited entry made: the Greek corps in Florina,
/// Larisa and Athens, Greece still neutral; the game begun on data edition `edition`.
fn after_salonika(edition: u8) -> PathsOfGlory {
    let mut g = common::first_round();
    g.scenario.edition = edition;
    setup().enter(data(), &mut g.pos, "gr", false, true);
    // The event opens Salonika to the Allies.
    g.pos.spaces[sp("salonika").idx()].control = Some(Side::Ap);
    g.touch();
    assert_eq!(g.pos.units[unit("gr-corps-1")].loc, Location::Map(sp("florina")));
    assert!(g.pos.neutral.iter().any(|n| n == "gr"), "Greece stays neutral");
    g
}

/// The Allies' action after the CP's Automatic Operation: Blockade (AP #2) played with `with`.
fn allies_play_blockade(g: &mut PathsOfGlory, with: Use) {
    g.apply(CP, &Action::AutomaticOps)
        .expect("the CP's automatic operation");
    g.apply(CP, &Action::EndActivation).expect("nothing activated");
    common::give(g, Side::Ap, 2);
    g.apply(AP, &Action::Play { card: 2, with }).expect("Blockade played");
}

/// 9.5.2.4 "兩個玩家都不能移動希臘部隊…希臘部隊只有在Greek Neutral Entry事件之後才可以移動": the
/// Allies may not activate Florina, where the first Greek corps stands; once Greece has entered
/// the war they may.
#[test]
fn the_neutral_greek_corps_are_not_activated_9_5_2_4() {
    let mut g = after_salonika(crate::game::EDITION);
    allies_play_blockade(&mut g, Use::Ops);
    let florina = Action::Activate {
        space: sp("florina"),
        combat: false,
    };
    let r = g.check_action(AP, &florina).expect_err("neutral");
    assert_eq!(r.rule, "9.5.2.4", "{}", r.text.en);
    assert!(!g.legal_list().contains(&florina));
    assert!(!g.legal_list().contains(&Action::Activate {
        space: sp("florina"),
        combat: true
    }));
    // Greece enters (AP #44): its corps are the Allies' to activate.
    let mut g = after_salonika(crate::game::EDITION);
    setup().enter(data(), &mut g.pos, "gr", false, false);
    g.touch();
    allies_play_blockade(&mut g, Use::Ops);
    assert!(g.legal_list().contains(&florina), "Greece at war");
}

/// 9.5.2.4 "也不能攻擊有希臘部隊的區域" (nor may either player attack spaces holding Greek
/// units): a Bulgarian corps in Monastir, activated for combat, may not attack Florina.
#[test]
fn nobody_attacks_the_neutral_greek_corps_9_5_2_4() {
    let mut g = after_salonika(crate::game::EDITION);
    setup().enter(data(), &mut g.pos, "bu", false, false);
    let monastir = sp("monastir");
    for u in g.pos.units_in(monastir).collect::<Vec<_>>() {
        g.pos.units[u].loc = Location::Aside;
    }
    let bulgarian = unit("bu-corps-1");
    g.pos.units[bulgarian].loc = Location::Map(monastir);
    g.pos.spaces[monastir.idx()].control = Some(Side::Cp);
    g.touch();
    common::automatic_attack_from(&mut g, monastir);
    g.apply(CP, &Action::EndActivation).ok();
    let target = Action::Target { space: sp("florina") };
    assert!(!g.legal_list().contains(&target), "{:?}", g.legal_list());
    let r = g.check_action(CP, &target).expect_err("neutral");
    assert_eq!(r.rule, "9.5.2.4", "{}", r.text.en);
}

/// 9.5.2.4: the Greek corps are not redeployed while Greece is neutral.
#[test]
fn the_neutral_greek_corps_are_not_redeployed_9_5_2_4() {
    let mut g = after_salonika(crate::game::EDITION);
    allies_play_blockade(&mut g, Use::Sr);
    let greek = unit("gr-corps-1") as u16;
    assert!(!g.legal_list().contains(&Action::Redeploy { unit: greek }));
    let r = g
        .check_action(AP, &Action::Redeploy { unit: greek })
        .expect_err("neutral");
    assert_eq!(r.rule, "9.5.2.4", "{}", r.text.en);
}

/// 9.5.2.4: the Greek corps in Larisa and Athens, whose spaces reach no Allied supply through
/// neutral Greece, stay on the map in the Attrition Phase (14.3.5); a game begun on edition 6
/// eliminates them there.
#[test]
fn attrition_passes_the_neutral_greek_corps_by_9_5_2_4() {
    for (edition, spared) in [(crate::game::EDITION, true), (6, false)] {
        let g = after_salonika(edition);
        let a = crate::attrition::attrition_of(data(), &g.pos, &g.supply_context(), edition);
        for id in ["gr-corps-2", "gr-corps-3"] {
            assert_eq!(!a.eliminated.contains(&unit(id)), spared, "{id} on edition {edition}");
        }
    }
}

//! Rules checked on positions built on the campaign map, where the map's own data (its rivers,
//! roads, towns and mountains) is what the rule meets: odds with nothing on either side
//! (10.3(4)).

mod common;
use common::*;
use sandtable_core::game::Game;
use sandtable_stalingrad_blitz::state::UnitList;
use sandtable_stalingrad_blitz::{Action, StalingradBlitz};

const AXIS: u8 = 0;

/// A game on the campaign map (the embedded data) from `scenario_with`'s text.
fn campaign_position(turn: u8, units: &[(&str, &str)], tail: &str, seed: u64) -> StalingradBlitz {
    StalingradBlitz::from_text(&scenario_with(turn, "", units, tail), seed).expect("the position loads")
}

fn declare(g: &StalingradBlitz, target: &str, ids: &[&str]) -> Action {
    let mut v: Vec<u16> = ids.iter().map(|id| unit(g, id)).collect();
    v.sort_unstable();
    Action::Declare {
        target: hex(g, target),
        units: UnitList::from_slice(&v),
    }
}

// ---------------------------------------------------------------- 10.3(4) odds

/// 10.3(4): an attack below 1-1 is not allowed, and an attack strength of 0 is below 1-1
/// whatever the defence. The reduced Hungarian 6th Light Division (1-4) at 1604 faces Stary
/// Oskol (1704) across the Oskol: halved, 1 is 0 (1.0(2), 10.3(1)1). Stary Oskol holds nothing
/// but a level-1 fortress, defence 0 (14.2(1)): 0 against 0 is no attack at all, not 10-1.
#[test]
fn an_attack_strength_of_0_is_below_1_1_whatever_the_defence_10_3_4() {
    let d = sandtable_stalingrad_blitz::embedded_data().expect("the campaign data");
    let (from, town) = (d.map.grid.parse("1604").unwrap(), d.map.grid.parse("1704").unwrap());
    let dir = d.map.grid.dir_to(from, town).expect("neighbours");
    assert_ne!(
        d.map.side(from, dir) & d.s.river,
        0,
        "the Oskol runs between 1604 and 1704"
    );
    assert_eq!(d.map.place(town).map(|p| p.name_en.as_str()), Some("Stary Oskol"));

    let mut g = campaign_position(
        2,
        &[("hun-hq-2a", "1603"), ("hun-inf-6", "1604 reduced")],
        "[[fortress]]\nhex = \"1704\"\nlevel = 1\n",
        1,
    );
    execute(&mut g, "H2A");
    forced(&mut g);
    act(&mut g, Action::EndMovement);
    let attack = declare(&g, "1704", &["hun-inf-6"]);
    assert!(!legal(&g).contains(&attack), "0 against 0 is not offered as an attack");
    let r = g.check_action(AXIS, &attack).expect_err("refused");
    assert_eq!(r.rule, "10.3(4)", "{r}");
    assert!(r.text.en.contains("strength is 0"), "{}", r.text.en);
    assert!(r.text.zh.contains("攻击力为0"), "{}", r.text.zh);
    // A full-strength division (2, halved to 1) against the same fortress: 1 against 0 is the
    // 10-1 column, less the town's shift (A12, A26).
    let mut g = campaign_position(
        2,
        &[("hun-hq-2a", "1603"), ("hun-inf-6", "1604")],
        "[[fortress]]\nhex = \"1704\"\nlevel = 1\n",
        1,
    );
    execute(&mut g, "H2A");
    forced(&mut g);
    act(&mut g, Action::EndMovement);
    let attack = declare(&g, "1704", &["hun-inf-6"]);
    assert!(legal(&g).contains(&attack));
}

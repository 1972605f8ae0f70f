//! 12.2: the forecast of a combat before its dice, on the August 1914 map, its figures read off
//! the Fire Tables of the player aid (supplement 6.3).

use super::common;

use crate::game::{Action, PathsOfGlory, CP};
use crate::state::{Location, Trench};
use crate::Side;
use sandtable_core::driver::Rules;
use sandtable_core::game::Game;

fn sp(g: &PathsOfGlory, id: &str) -> sandtable_core::graph::Space {
    g.data().space(id).expect("a space")
}

fn unit(g: &PathsOfGlory, id: &str) -> u16 {
    g.data().pieces.iter().position(|p| p.id == id).expect("a counter") as u16
}

/// One line of the forecast holds all of `words`.
fn says(lines: &[sandtable_core::text::Text], words: &[&str]) -> bool {
    lines.iter().any(|l| words.iter().all(|w| l.en.contains(w)))
}

#[test]
fn the_1st_army_against_the_fort_of_liege_before_the_dice_12_2() {
    let mut g = common::first_round();
    let (aachen, liege) = (sp(&g, "aachen"), sp(&g, "liege"));
    common::automatic_attack_from(&mut g, aachen);
    let lines = g.preview(&Action::Target { space: liege });
    assert!(says(&lines, &["Defending Liege", "the fort (3)"]), "{lines:#?}");
    assert!(says(&lines, &["May attack", "German 1st Army"]), "{lines:#?}");
    // The 1st Army's 5 on the Army table; the fort's 3 on the Corps table; clear terrain.
    assert!(
        says(
            &lines,
            &["CP: strength 5 on the Army table, column 5 ", "by die 1–6: 2 3 3 4 4 5"]
        ),
        "{lines:#?}"
    );
    assert!(
        says(
            &lines,
            &[
                "AP: strength 3 on the Corps table, column 3 ",
                "by die 1–6: 1 1 1 1 2 2"
            ]
        ),
        "{lines:#?}"
    );
    // The forecast changes nothing.
    g.apply(CP, &Action::Target { space: liege }).unwrap();
    let army = unit(&g, "ge-army-1");
    let lines = g.preview(&Action::Join { unit: army });
    assert!(says(&lines, &["Attacking: German 1st Army"]), "{lines:#?}");
    assert!(g.preview(&Action::EndActivation).is_empty());
}

#[test]
fn a_trench_shifts_both_columns_12_2_7() {
    let mut g = common::first_round();
    let aachen = sp(&g, "aachen");
    let liege = sp(&g, "liege");
    // The full French 5th Army in Liège behind a level 1 trench (attacker 1 left, defender 1
    // right), the fort's 3 beside it.
    let fr = unit(&g, "fr-army-5");
    g.pos.units[fr as usize].loc = Location::Map(liege);
    g.pos.units[fr as usize].full = true;
    g.pos.spaces[liege.idx()].trench = Some(Trench {
        side: Side::Ap,
        level: 1,
    });
    g.touch();
    common::automatic_attack_from(&mut g, aachen);
    let lines = g.preview(&Action::Target { space: liege });
    assert!(says(&lines, &["Terrain: Clear, trench level 1"]), "{lines:#?}");
    // CP: 5 → column 5, one left to 4: 2 2 3 3 4 4.
    assert!(
        says(
            &lines,
            &[
                "CP: strength 5 on the Army table, column 5, shifted -1 to 4",
                "2 2 3 3 4 4"
            ]
        ),
        "{lines:#?}"
    );
    let five = &g.data().pieces[fr as usize];
    let strength = five.full.cf as u32 + 3;
    assert!(
        says(
            &lines,
            &[
                &format!("AP: strength {strength} on the Army table, column 6-8, shifted +1 to 9-11"),
                "by die 1–6: 3 4 4 5 5 7"
            ]
        ),
        "{lines:#?}"
    );
}

/// While a combat's attackers are designated, its flank chosen and its cards played (12.2.1's
/// steps before the dice), everyone reads where it is fought, who decides now and its forecast
/// as it stands; after the dice, the loss numbers and who takes losses; while its dice are
/// rolled, nothing; before it and after it, the spaces activated for combat and attacked.
#[test]
fn the_combat_being_fought_is_told_beside_the_actions_12_2_1() {
    use sandtable_core::game::Pending;
    let mut g = common::first_round();
    let (aachen, liege) = (sp(&g, "aachen"), sp(&g, "liege"));
    common::automatic_attack_from(&mut g, aachen);
    // 12.1: choosing the combat, what is activated for combat and what is attacked.
    assert_eq!(
        g.context()[0].en,
        "Combat (12.1): activated for combat: Aachen; attacked so far: none yet"
    );
    g.apply(CP, &Action::Target { space: liege }).unwrap();
    let lines = g.context();
    assert!(
        says(
            &lines,
            &["Combat at Liege by the CP: designating the attackers (12.2.2)"]
        ),
        "{lines:#?}"
    );
    assert!(says(&lines, &["Defending Liege", "the fort (3)"]), "{lines:#?}");
    assert_eq!(lines[0].zh, "同盟国进攻列日:指定进攻部队(12.2.2)");
    g.apply(
        CP,
        &Action::Join {
            unit: unit(&g, "ge-army-1"),
        },
    )
    .unwrap();
    assert!(says(&g.context(), &["Attacking: German 1st Army"]));
    g.apply(CP, &Action::Resolve).unwrap();
    let mut steps = Vec::new();
    while let Pending::Seat(seat) = g.pending() {
        let lines = g.context();
        assert!(
            lines.len() > 3 && lines[0].en.starts_with("Combat at Liege by the CP: "),
            "{lines:#?}"
        );
        assert!(says(&lines, &["CP: strength 5 on the Army table"]), "{lines:#?}");
        steps.push(lines[0].en.clone());
        let next = g
            .legal_list()
            .iter()
            .find(|a| matches!(a, Action::EndCombatCards | Action::Flank { pinning: None }))
            .cloned()
            .expect("a way on without cards");
        g.apply(seat, &next).unwrap();
    }
    assert!(
        steps
            .iter()
            .any(|s| s.ends_with("the defender may play combat cards (12.2.5)")),
        "{steps:#?}"
    );
    assert_eq!(g.pending(), Pending::Chance);
    assert!(g.context().is_empty(), "the dice are being rolled");
    // After the dice (the CP's 6, the fort's 1), the loss numbers and who takes losses now,
    // until the combat is over.
    let mut dice = [6, 1].into_iter();
    let mut told = Vec::new();
    loop {
        match g.pending() {
            Pending::Chance => {
                let face = dice.next().expect("two fire dice");
                g.apply_chance(&Action::Die { face }).unwrap();
            }
            Pending::Seat(seat) => {
                let lines = g.context();
                if lines[0].en.starts_with("Combat (12.1)") {
                    // The next combat to choose: Liege is now among those attacked.
                    assert!(lines[0].en.ends_with("attacked so far: Liege"), "{lines:#?}");
                    break;
                }
                assert!(lines[0].en.starts_with("Combat at Liege by the CP: "), "{lines:#?}");
                assert!(says(&lines, &["Loss numbers: the CP inflicts "]), "{lines:#?}");
                told.push(lines[0].en.clone());
                let first = g.legal_list()[0].clone();
                g.apply(seat, &first).unwrap();
            }
            Pending::Over => panic!("the game is not over"),
        }
    }
    assert!(
        told.iter().any(|s| s.contains("the AP takes its losses: 0 taken, ")),
        "{told:#?}"
    );
}

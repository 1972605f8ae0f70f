//! The procedures through the Game API: refusals (and that they change nothing), command
//! selection (6.0), secrecy (6.1(3)), command execution and activation (7.0, 8.0, 13.0(3)),
//! retreats (10.6), the supply procedure (11.0), reinforcements (12.0), fortresses (14.0) and
//! the end of the game (15.0).

mod common;
use common::*;
use sandtable_core::game::{Game, Pending, Rules};
use sandtable_core::search::Search;
use sandtable_core::text::Lang;
use sandtable_stalingrad_blitz::rules::Board;
use sandtable_stalingrad_blitz::state::{
    AxisReinf, CombatStage, Exec, Frame, Loc, Select, Step, SupplyStage, UnitList, FORTRESS,
};
use sandtable_stalingrad_blitz::{Action, StalingradBlitz};

const AXIS: u8 = 0;
const SOVIET: u8 = 1;

fn declare(g: &StalingradBlitz, target: &str, ids: &[&str]) -> Action {
    let mut v: Vec<u16> = ids.iter().map(|id| unit(g, id)).collect();
    v.sort_unstable();
    Action::Declare {
        target: hex(g, target),
        units: UnitList::from_slice(&v),
    }
}

fn mv(g: &StalingradBlitz, id: &str, to: &str) -> Action {
    Action::Move {
        unit: unit(g, id),
        to: hex(g, to),
        march: false,
        via: Default::default(),
    }
}

fn active(g: &StalingradBlitz, id: &str) -> bool {
    g.state().units[unit(g, id) as usize].active
}

trait Refuse {
    /// Applies an action that must be refused; checks the rule cited and that nothing changed.
    fn refuse(&mut self, seat: u8, a: Action, rule: &str);
}

impl Refuse for StalingradBlitz {
    fn refuse(&mut self, seat: u8, a: Action, rule: &str) {
        let before = self.checksum();
        let view = self.view(None);
        match self.apply(seat, &a) {
            Ok(_) => panic!("{a:?} was accepted; expected a refusal under {rule}"),
            Err(r) => assert_eq!(r.rule, rule, "{a:?}: {r}"),
        }
        assert_eq!(self.checksum(), before, "a refused {a:?} changed the state");
        assert_eq!(self.view(None), view);
    }
}

// ---------------------------------------------------------------- refusals

#[test]
fn refused_actions_cite_the_rule_and_change_nothing() {
    // 6A (range 5) at 0304. 0403 is Woodtown (forest + town) with a Soviet rifle division.
    // The Romanian division at 0303 is in range but of another nationality (8.3(1)); the
    // German infantry at 1009 is out of range.
    let mut g = small_game(
        2,
        &[
            ("ger-hq-6a", "0304"),
            ("ger-pz-9", "0404"),
            ("ger-inf-88", "0405"),
            ("rum-inf-2", "0303"),
            ("ger-inf-377", "1009"),
            ("sov-rifle-45", "0403"),
            ("sov-hq-swf", "1204"),
        ],
        1,
    );
    execute(&mut g, "6A");
    assert_eq!(step(&g), Some(&Step::Move));
    assert_eq!(g.pending(), Pending::Seat(AXIS));
    // Not activated: out of range, other nationality.
    g.refuse(AXIS, mv(&g, "ger-inf-377", "1008"), "8.1");
    g.refuse(AXIS, mv(&g, "rum-inf-2", "0302"), "8.1");
    // Onto an enemy unit.
    g.refuse(AXIS, mv(&g, "ger-inf-88", "0403"), "3.1(2)");
    // Out of turn.
    g.refuse(SOVIET, Action::EndMovement, "5.0");
    // Declaring during movement.
    g.refuse(AXIS, declare(&g, "0403", &["ger-pz-9"]), "10.2(1)");
    // A unit moves once per command execution (8.1(3)).
    g.play(mv(&g, "ger-inf-88", "0406"));
    g.refuse(AXIS, mv(&g, "ger-inf-88", "0405"), "8.1(3)");
    g.play(Action::EndMovement);
    assert_eq!(step(&g), Some(&Step::Declare));
    // The HQ alone: 3 against 2 is 1.5-1, Woodtown's 2 shifts take it below 1-1.
    g.refuse(AXIS, declare(&g, "0403", &["ger-hq-6a"]), "10.3(4)");
    // With the panzer division: 9 against 2, 4-1, shifted to 2-1: allowed.
    assert!(legal(&g).contains(&declare(&g, "0403", &["ger-hq-6a", "ger-pz-9"])));
    // Not activated units cannot attack; empty hexes cannot be attacked.
    g.refuse(AXIS, declare(&g, "0403", &["rum-inf-2"]), "10.1(2)");
    g.refuse(AXIS, declare(&g, "0503", &["ger-pz-9"]), "10.0");
    g.play(declare(&g, "0403", &["ger-hq-6a", "ger-pz-9"]));
    // Each hex once per combat segment; each unit attacks once.
    g.refuse(AXIS, declare(&g, "0403", &["ger-pz-9"]), "10.1(3)");
    // Chance is not a seat.
    let mut h = small_game(2, SKIRMISH, 1);
    execute(&mut h, "6A");
    to_draw(&mut h);
    h.edit().hidden.cup = vec![chit(&h, "SUPPLY")];
    h.refuse(AXIS, Action::EndMovement, "5.0");
}

// ---------------------------------------------------------------- 6.0 selection

#[test]
fn selection_quotas_and_the_soviet_extra_slot_6_2() {
    // Turn 2: SU Com 2, GER Com 5, Axis/Rnf Com 2.
    let mut g = small_game(2, SKIRMISH, 7);
    assert_eq!(top(&g), Some(&Frame::Select(Select::SovietHq)));
    assert_eq!(g.pending(), Pending::Seat(SOVIET));
    let fronts = ["VrnzFront", "StrgFront", "CSFront", "SthFront", "SWFront", "SEFront"];
    let offered: Vec<Action> = fronts.iter().map(|c| Action::Pick { chit: chit(&g, c) }).collect();
    assert_eq!(
        legal(&g),
        offered,
        "6.2(1): the six Front chits, even those whose HQ is not on the map"
    );
    g.refuse(AXIS, Action::Pick { chit: chit(&g, "6A") }, "5.0");
    g.refuse(SOVIET, Action::Pick { chit: chit(&g, "6A") }, "6.2");
    g.refuse(
        SOVIET,
        Action::Pick {
            chit: chit(&g, "STAVKA"),
        },
        "6.2",
    );
    g.play(Action::Pick {
        chit: chit(&g, "SWFront"),
    });
    g.refuse(
        SOVIET,
        Action::Pick {
            chit: chit(&g, "SWFront"),
        },
        "6.2",
    );
    g.play(Action::Pick {
        chit: chit(&g, "SEFront"),
    });
    // The quota is met: now SOVIET REINF or STAVKA, or neither (6.2(2)).
    assert_eq!(top(&g), Some(&Frame::Select(Select::SovietExtra)));
    assert_eq!(
        legal(&g),
        vec![
            Action::Pick {
                chit: chit(&g, "SOVIET-REINF")
            },
            Action::Pick {
                chit: chit(&g, "STAVKA")
            },
            Action::NoExtra
        ]
    );
    g.refuse(
        SOVIET,
        Action::Pick {
            chit: chit(&g, "CSFront"),
        },
        "6.2",
    );
    g.play(Action::Pick {
        chit: chit(&g, "STAVKA"),
    });
    // Never both: the Soviet selection is over.
    assert_eq!(top(&g), Some(&Frame::Select(Select::AxisGer)));
    g.refuse(
        SOVIET,
        Action::Pick {
            chit: chit(&g, "SOVIET-REINF"),
        },
        "5.0",
    );
    g.refuse(
        AXIS,
        Action::Pick {
            chit: chit(&g, "SOVIET-REINF"),
        },
        "6.2",
    );
    // GER Com: both chits of a panzer army may go in (6.2(3)), no third.
    for c in ["1PzA", "1PzA"] {
        g.play(Action::Pick { chit: chit(&g, c) });
    }
    g.refuse(AXIS, Action::Pick { chit: chit(&g, "1PzA") }, "6.2");
    g.refuse(AXIS, Action::Pick { chit: chit(&g, "H2A") }, "6.2");
    for c in ["4PzA", "4PzA", "6A"] {
        g.play(Action::Pick { chit: chit(&g, c) });
    }
    assert_eq!(top(&g), Some(&Frame::Select(Select::AxisRnf)));
    g.refuse(AXIS, Action::Pick { chit: chit(&g, "17A") }, "6.2");
    g.play(Action::Pick { chit: chit(&g, "R3A") });
    g.play(Action::Pick {
        chit: chit(&g, "AXIS-REINF"),
    });
    // Turn 2: no 16.0(1) chit; straight to the draw, with SUPPLY added (6.2(4)).
    assert_eq!(top(&g), Some(&Frame::Draw));
    let mut cup: Vec<u8> = [
        "SWFront",
        "SEFront",
        "STAVKA",
        "1PzA",
        "1PzA",
        "4PzA",
        "4PzA",
        "6A",
        "R3A",
        "AXIS-REINF",
        "SUPPLY",
    ]
    .iter()
    .map(|c| chit(&g, c))
    .collect();
    cup.sort_unstable();
    let mut got = g.hidden().cup.clone();
    got.sort_unstable();
    assert_eq!(got, cup);
    let extras = g.hidden().picks[1]
        .iter()
        .filter(|&&c| c == chit(&g, "STAVKA") || c == chit(&g, "SOVIET-REINF"))
        .count();
    assert_eq!(extras, 1);
}

#[test]
fn turn_one_axis_chit_executed_first_16_0_1() {
    // Turn 1: SU Com 2, GER Com 4, Axis/Rnf Com 2; then the Axis may execute one of its chits
    // at once, outside the cup.
    let mut g = small_game(1, SKIRMISH, 3);
    g.play(Action::Pick {
        chit: chit(&g, "SWFront"),
    });
    g.play(Action::Pick {
        chit: chit(&g, "SthFront"),
    });
    g.play(Action::NoExtra);
    for c in ["6A", "1PzA", "4PzA", "17A", "H2A", "AXIS-REINF"] {
        g.play(Action::Pick { chit: chit(&g, c) });
    }
    assert_eq!(top(&g), Some(&Frame::Select(Select::AxisFirst)));
    let l = legal(&g);
    assert_eq!(l.len(), 7, "each of the six Axis chits, or none: {l:?}");
    assert!(l.contains(&Action::First { chit: None }));
    g.play(Action::First {
        chit: Some(chit(&g, "6A")),
    });
    // 6A (on the map at 0304) is being executed; it is not in the cup.
    assert_eq!(g.state().used, vec![chit(&g, "6A")]);
    assert!(g.exec().is_some_and(|e| e.chit == chit(&g, "6A")));
    assert_eq!(g.hidden().cup.len(), 2 + 6 + 1 - 1);
    assert!(!g.hidden().cup.contains(&chit(&g, "6A")));
    assert!(active(&g, "ger-inf-88"));
}

#[test]
fn the_other_seat_never_sees_your_picks_6_1_3() {
    let play = |axis: &[&str]| {
        let mut g = small_game(2, SKIRMISH, 11);
        g.set_journal(true);
        g.play(Action::Pick {
            chit: chit(&g, "SWFront"),
        });
        g.play(Action::Pick {
            chit: chit(&g, "CSFront"),
        });
        g.play(Action::NoExtra);
        for c in axis {
            g.play(Action::Pick { chit: chit(&g, c) });
        }
        assert_eq!(g.pending(), Pending::Chance);
        g
    };
    let a = play(&["1PzA", "1PzA", "4PzA", "4PzA", "6A", "H2A", "R3A"]);
    let b = play(&["6A", "17A", "1PzA", "4PzA", "4PzA", "It8A", "AXIS-REINF"]);
    // The Soviet seat and a spectator see nothing of the Axis picks.
    assert_eq!(a.view(Some(SOVIET)), b.view(Some(SOVIET)));
    assert_eq!(a.view(None), b.view(None));
    assert_eq!(a.summary(Some(SOVIET), Lang::En), b.summary(Some(SOVIET), Lang::En));
    assert_eq!(a.summary(Some(SOVIET), Lang::Zh), b.summary(Some(SOVIET), Lang::Zh));
    assert_eq!(a.journal(Some(SOVIET)), b.journal(Some(SOVIET)));
    assert_eq!(a.journal(None), b.journal(None));
    assert!(a.view(Some(SOVIET))["picks"]["axis"].is_null());
    // The Axis seat sees its own.
    assert_ne!(a.view(Some(AXIS)), b.view(Some(AXIS)));
    assert_eq!(a.view(Some(AXIS))["picks"]["axis"].as_array().map(|v| v.len()), Some(7));
    assert!(a.view(Some(AXIS))["picks"]["soviet"].is_null());
    // Nor the cup's contents: the same picks in another order give the same public view.
    let c = play(&["4PzA", "6A", "1PzA", "4PzA", "1PzA", "R3A", "H2A"]);
    assert_eq!(a.view(Some(SOVIET)), c.view(Some(SOVIET)));
}

// ---------------------------------------------------------------- 7.0, 8.0, 13.0 activation

#[test]
fn an_hq_chit_whose_hq_is_off_the_map_does_nothing_13_0_3() {
    // 1PzA is in the pool. Both its chits are in the cup; one is drawn.
    let mut g = small_game(2, SKIRMISH, 5);
    let before: Vec<Loc> = g.state().units.iter().map(|u| u.loc).collect();
    let c = chit(&g, "1PzA");
    g.edit().hidden.cup = vec![c, c];
    to_draw(&mut g);
    draw(&mut g);
    assert_eq!(top(&g), Some(&Frame::Draw), "no effect: on to the next draw");
    assert_eq!(g.state().used, vec![c]);
    assert_eq!(g.hidden().cup, vec![c]);
    assert!(g.state().units.iter().all(|u| !u.active));
    assert_eq!(g.state().units.iter().map(|u| u.loc).collect::<Vec<_>>(), before);
    // STAVKA with no Soviet HQ on the map: no effect either (7.2(3)).
    let mut g = small_game(2, &[("ger-hq-6a", "0304"), ("sov-rifle-45", "0605")], 5);
    let s = chit(&g, "STAVKA");
    g.edit().hidden.cup = vec![s, s];
    to_draw(&mut g);
    draw(&mut g);
    assert_eq!(top(&g), Some(&Frame::Draw));
    assert!(g.state().units.iter().all(|u| !u.active));
}

#[test]
fn stavka_activates_any_one_soviet_hq_7_2_3() {
    // SthFront (range 3) at 1008: the division at 1109 is in range, the one at 1004 is not.
    let mut g = small_game(
        2,
        &[
            ("sov-hq-swf", "1003"),
            ("sov-hq-sthf", "1008"),
            ("sov-rifle-45", "1004"),
            ("sov-rifle-62", "1109"),
        ],
        5,
    );
    assert_eq!(g.data().units[unit(&g, "sov-hq-sthf") as usize].range, 3);
    assert_eq!(g.data().map.grid.distance(hex(&g, "1008"), hex(&g, "1004")), 4);
    execute(&mut g, "STAVKA");
    assert_eq!(step(&g), Some(&Step::Stavka));
    assert_eq!(g.pending(), Pending::Seat(SOVIET));
    let l = legal(&g);
    assert_eq!(
        l,
        vec![
            Action::Choose {
                unit: unit(&g, "sov-hq-swf")
            },
            Action::Choose {
                unit: unit(&g, "sov-hq-sthf")
            }
        ]
    );
    g.play(Action::Choose {
        unit: unit(&g, "sov-hq-sthf"),
    });
    assert_eq!(step(&g), Some(&Step::Move));
    assert!(active(&g, "sov-hq-sthf") && active(&g, "sov-rifle-62"));
    assert!(!active(&g, "sov-hq-swf"), "8.1(4): an HQ does not activate another HQ");
    assert!(!active(&g, "sov-rifle-45"), "8.2: out of range");
}

#[test]
fn activation_by_range_and_nationality_8_2_8_3() {
    // 6A (range 5) at 0303. In range: 0308 (5 hexes), 0702 across the creek and in Soviet
    // ZOC (8.2(4)), the 4PzA HQ at 0304 and a Romanian division at 0302. Out of range: 0309.
    let mut g = small_game(
        2,
        &[
            ("ger-hq-6a", "0303"),
            ("ger-inf-88", "0308"),
            ("ger-inf-377", "0309"),
            ("ger-pz-9", "0702"),
            ("ger-hq-4pza", "0304"),
            ("rum-inf-2", "0302"),
            ("sov-rifle-45", "0802"),
        ],
        1,
    );
    let grid = &g.data().map.grid;
    let hq = hex(&g, "0303");
    assert_eq!(grid.distance(hq, hex(&g, "0308")), 5);
    assert_eq!(grid.distance(hq, hex(&g, "0309")), 6);
    assert!(grid.distance(hq, hex(&g, "0702")) <= 5);
    execute(&mut g, "6A");
    assert!(active(&g, "ger-hq-6a"), "the activated HQ itself");
    assert!(active(&g, "ger-inf-88"), "8.2: 5 hexes from a range-5 HQ");
    assert!(!active(&g, "ger-inf-377"), "8.2: 6 hexes");
    assert!(active(&g, "ger-pz-9"), "8.2(4): rivers and enemy ZOC do not matter");
    assert!(!active(&g, "ger-hq-4pza"), "8.1(4)");
    assert!(!active(&g, "rum-inf-2"), "8.3(1)");
    assert!(!active(&g, "sov-rifle-45"));
}

#[test]
fn an_allied_hq_may_activate_two_german_units_8_3_2() {
    // R3A (range 3) at 0606. Romanian and Hungarian divisions and German units around it.
    let mut g = small_game(
        2,
        &[
            ("rum-hq-3a", "0606"),
            ("rum-inf-2", "0607"),
            ("hun-inf-6", "0506"),
            ("ger-inf-88", "0608"),
            ("ger-pz-9", "0504"),
            ("ger-inf-377", "0908"),
            ("ger-hq-6a", "0507"),
            ("ger-inf-385", "1006"),
        ],
        1,
    );
    assert_eq!(g.data().map.grid.distance(hex(&g, "0606"), hex(&g, "1006")), 4);
    execute(&mut g, "R3A");
    assert!(active(&g, "rum-hq-3a") && active(&g, "rum-inf-2"));
    assert!(!active(&g, "hun-inf-6"), "8.3(1): not its nationality");
    assert_eq!(step(&g), Some(&Step::AlliedGerman { picked: 0 }));
    let mut offered: Vec<&str> = legal(&g)
        .iter()
        .filter_map(|a| match a {
            Action::Choose { unit } => Some(g.data().units[*unit as usize].id.as_str()),
            _ => None,
        })
        .collect();
    offered.sort_unstable();
    // German combat units within 3 hexes; no HQ, nothing at 4 hexes.
    assert_eq!(offered, ["ger-inf-377", "ger-inf-88", "ger-pz-9"]);
    assert!(legal(&g).contains(&Action::EndChoose));
    g.play(Action::Choose {
        unit: unit(&g, "ger-inf-88"),
    });
    g.play(Action::Choose {
        unit: unit(&g, "ger-pz-9"),
    });
    // Two chosen: on to movement, the third stays inactive.
    assert_eq!(step(&g), Some(&Step::Move));
    assert!(active(&g, "ger-inf-88") && active(&g, "ger-pz-9"));
    assert!(!active(&g, "ger-inf-377") && !active(&g, "ger-hq-6a"));
}

// ---------------------------------------------------------------- 10.6 retreat

/// The corner hex 1210 touches only 1209 and 1110.
fn corner_attack(extra: &[(&str, &str)], attackers: &[&str], die: u8) -> StalingradBlitz {
    let mut units = vec![("ger-hq-4pza", "0909"), ("ger-pz-9", "1110"), ("sov-rifle-45", "1210")];
    units.extend_from_slice(extra);
    let mut g = small_game(2, &units, 1);
    execute(&mut g, "4PzA");
    g.play(Action::EndMovement);
    g.play(declare(&g, "1210", attackers));
    rig_die(&mut g, die);
    g.play(Action::EndDeclare);
    g
}

#[test]
fn a_retreat_into_enemy_zoc_costs_a_step_10_6_4() {
    // 6 against 2, 3-1; die 3: R. The only hex to retreat into, 1209, is in the ZOC of the
    // panzer division at 1110.
    let mut g = corner_attack(&[], &["ger-pz-9"], 3);
    forced(&mut g);
    let c = combat(&g);
    assert_eq!((c.die, c.retreat, c.defender_steps), (3, 1, 0));
    assert_eq!(at(&g, "sov-rifle-45").as_deref(), Some("1209"));
    assert!(reduced(&g, "sov-rifle-45"), "10.6(4): one step for entering enemy ZOC");
    assert_eq!(c.stage, CombatStage::Advance);
    assert_eq!(g.pending(), Pending::Seat(AXIS));
    // The attacker may advance into the vacated hex (not on into the enemy at 1209).
    assert_eq!(
        legal(&g),
        vec![
            Action::Advance {
                unit: unit(&g, "ger-pz-9"),
                to: hex(&g, "1210")
            },
            Action::EndAdvance
        ]
    );
}

#[test]
fn a_unit_with_no_hex_to_retreat_into_is_eliminated_10_6_3() {
    // 12 against 2, 6-1; die 1: R. 1209 and 1110 both hold German units.
    let g = corner_attack(&[("ger-pz-11", "1209")], &["ger-pz-9", "ger-pz-11"], 1);
    let c = combat(&g);
    assert_eq!(c.retreat, 1);
    // A25: an eliminated Soviet combat unit returns to the pool.
    assert_eq!(loc(&g, "sov-rifle-45"), Loc::Pool);
    assert_eq!(g.state().loss_vp, 0);
    assert_eq!(c.stage, CombatStage::Advance);
    // An Axis unit in the same plight costs VP (15.0(2)): German infantry at 0101, whose
    // only neighbours 0102 and 0201 hold Soviet tank corps. 8 against 3, 2-1; die 4: R.
    let mut g = small_game(
        2,
        &[
            ("sov-hq-swf", "0302"),
            ("sov-tk-4", "0102"),
            ("sov-tk-13", "0201"),
            ("ger-inf-88", "0101"),
        ],
        1,
    );
    execute(&mut g, "SWFront");
    g.play(Action::EndMovement);
    g.play(declare(&g, "0101", &["sov-tk-4", "sov-tk-13"]));
    rig_die(&mut g, 4);
    g.play(Action::EndDeclare);
    let c = combat(&g);
    assert_eq!((c.retreat, c.defender_steps), (1, 0));
    assert_eq!(loc(&g, "ger-inf-88"), Loc::Eliminated);
    assert_eq!(g.state().loss_vp, 1);
}

#[test]
fn a_fortress_hex_is_not_affected_by_enemy_zoc_14_2_2() {
    let tail = "[[fortress]]\nhex = \"0905\"\nlevel = 1\n";
    let g = game_on(
        small_data(),
        2,
        "",
        &[("ger-pz-9", "0805"), ("sov-rifle-45", "0905")],
        tail,
        1,
    );
    let b = Board::new(g.data(), g.state());
    let (city, east) = (hex(&g, "0905"), hex(&g, "1005"));
    assert!(!b.enemy_zoc(sandtable_stalingrad_blitz::Side::Soviet, city));
    // The Soviet division leaves the fortress hex without paying to leave enemy ZOC.
    let mut s = Search::new();
    b.movement(unit(&g, "sov-rifle-45"), false, &mut s);
    assert_eq!(s.cost(east), Some(2));
    // Without the fortress: 1 + 2.
    let g = small_game(2, &[("ger-pz-9", "0805"), ("sov-rifle-45", "0905")], 1);
    let b = Board::new(g.data(), g.state());
    assert!(b.enemy_zoc(sandtable_stalingrad_blitz::Side::Soviet, city));
    b.movement(unit(&g, "sov-rifle-45"), false, &mut s);
    assert_eq!(s.cost(east), Some(6));
}

// ---------------------------------------------------------------- 11.0 supply

#[test]
fn axis_loc_runs_six_hexes_off_the_railway_3_3_5() {
    // rules-map: the Axis railway runs 0103-0303 from the source 0103; 0903 is 6 hexes from
    // its end, 1003 is 7. The Soviet LOC has no length limit (3.3(4)).
    let g = game_on(
        rules_data(),
        2,
        "",
        &[
            ("ger-mot-16", "0903"),
            ("ger-mot-3", "1003"),
            ("rum-inf-2", "1004"),
            ("ger-inf-88", "0907"),
            ("sov-rifle-45", "0101"),
        ],
        "",
        1,
    );
    let grid = &g.data().map.grid;
    let end = hex(&g, "0303");
    assert_eq!(grid.distance(end, hex(&g, "0903")), 6);
    assert_eq!(grid.distance(end, hex(&g, "1003")), 7);
    let near = |h: &str| {
        ["0103", "0203", "0303"]
            .iter()
            .map(|r| grid.distance(hex(&g, r), hex(&g, h)))
            .min()
            .unwrap()
    };
    assert_eq!(near("1004"), 7);
    assert_eq!(near("0907"), 7);
    let b = Board::new(g.data(), g.state());
    let mut s = Search::new();
    let axis = b.loc_reach(sandtable_stalingrad_blitz::Side::Axis, &mut s);
    assert!(axis[hex(&g, "0903").idx()], "6 hexes off the railway: in supply");
    assert!(!axis[hex(&g, "1003").idx()], "7 hexes: out of supply");
    assert!(!axis[hex(&g, "1004").idx()], "A14: allied units too");
    assert!(!axis[hex(&g, "0907").idx()]);
    let soviet = b.loc_reach(sandtable_stalingrad_blitz::Side::Soviet, &mut s);
    assert!(
        soviet[hex(&g, "0101").idx()],
        "13 hexes from the Soviet source, in supply"
    );
}

#[test]
fn units_without_a_loc_lose_one_step_at_the_supply_chit_11_1() {
    // rules-map. Out of supply: the motorised division at 1003 (7 hexes off the railway, full:
    // reduced), GD at 1004 (reduced: eliminated, −2 VP), the Soviet division at 0101 (its only
    // neighbours hold German units). In supply: the motorised division at 0903.
    let mut g = game_on(
        rules_data(),
        2,
        "",
        &[
            ("ger-mot-16", "0903"),
            ("ger-mot-3", "1003"),
            ("ger-gd", "1004 reduced"),
            ("ger-mot-29", "0102"),
            ("ger-mot-60", "0201"),
            ("sov-rifle-45", "0101"),
        ],
        "",
        1,
    );
    execute(&mut g, "SUPPLY");
    assert!(!reduced(&g, "ger-mot-16"));
    assert!(reduced(&g, "ger-mot-3"));
    assert_eq!(at(&g, "ger-mot-3").as_deref(), Some("1003"));
    assert_eq!(loc(&g, "ger-gd"), Loc::Eliminated);
    assert!(reduced(&g, "sov-rifle-45"));
    assert!(!reduced(&g, "ger-mot-29") && !reduced(&g, "ger-mot-60"));
    assert_eq!(g.state().loss_vp, 2, "15.0(2): GD removed by a supply check");
    // The procedure goes on to the rail box (11.3): the Axis decides.
    assert_eq!(step(&g), Some(&Step::Supply(SupplyStage::RailBox)));
}

#[test]
fn the_soviets_are_checked_first_11_1_1() {
    // rules-map. The Soviet division at 0102 puts the Axis source 0103 in its ZOC; its own
    // LOC is cut by the German motorised divisions at 0201 and 0202. Full, it survives the
    // Soviet check reduced and the Axis units then have no LOC; reduced, it is eliminated
    // first and the Axis source is free again.
    let units = |soviet: &'static str| vec![("ger-mot-16", "0201"), ("ger-mot-3", "0202"), ("sov-rifle-45", soviet)];
    let mut g = game_on(rules_data(), 2, "", &units("0102"), "", 1);
    execute(&mut g, "SUPPLY");
    assert!(reduced(&g, "sov-rifle-45"));
    assert!(reduced(&g, "ger-mot-16") && reduced(&g, "ger-mot-3"));
    let mut g = game_on(rules_data(), 2, "", &units("0102 reduced"), "", 1);
    execute(&mut g, "SUPPLY");
    assert_eq!(loc(&g, "sov-rifle-45"), Loc::Pool);
    assert!(!reduced(&g, "ger-mot-16") && !reduced(&g, "ger-mot-3"));
}

/// Makes the die rolled after the draw of the only chit in the cup show `die` (the supply
/// procedure's withdrawal roll, the Axis reinforcement roll).
fn rig_die_after_draw(g: &mut StalingradBlitz, die: u8) {
    rig_die(g, die);
}

#[test]
fn german_withdrawal_11_2() {
    // Die 1: 1 Pz and 2 Inf. Full-strength divisions first; mountain divisions count as Inf
    // (A23); units without a LOC cannot be withdrawn; motorised divisions never.
    let mut g = game_on(
        rules_data(),
        2,
        "",
        &[
            ("ger-pz-9", "0403"),
            ("ger-pz-11", "0404 reduced"),
            ("ger-inf-88", "0503"),
            ("ger-inf-377", "0504 reduced"),
            ("ger-mt-1", "0603"),
            ("ger-inf-385", "1003"),
            ("ger-mot-16", "0604"),
        ],
        "",
        1,
    );
    let c = chit(&g, "SUPPLY");
    g.edit().hidden.cup = vec![c];
    to_draw(&mut g);
    rig_die_after_draw(&mut g, 1);
    draw(&mut g);
    // 0 Pz left to choose (the only full one went at once); the Axis chooses between the two
    // full Inf with a LOC (1003 is out of supply: reduced, and without a LOC anyway).
    assert_eq!(loc(&g, "ger-pz-9"), Loc::Withdrawn);
    assert_eq!(
        step(&g),
        Some(&Step::Supply(SupplyStage::Withdraw {
            die: 1,
            left: [0, 0, 2]
        }))
    );
    let l = legal(&g);
    assert_eq!(
        l,
        vec![
            Action::Choose {
                unit: unit(&g, "ger-inf-88")
            },
            Action::Choose {
                unit: unit(&g, "ger-mt-1")
            }
        ]
    );
    g.play(Action::Choose {
        unit: unit(&g, "ger-mt-1"),
    });
    // Then the last full one is forced.
    assert_eq!(loc(&g, "ger-inf-88"), Loc::Withdrawn);
    assert_eq!(loc(&g, "ger-mt-1"), Loc::Withdrawn);
    assert!(g.state().units[unit(&g, "ger-inf-377") as usize].hex().is_some());
    assert!(g.state().units[unit(&g, "ger-pz-11") as usize].hex().is_some());
    assert_eq!(g.state().loss_vp, 0, "withdrawals cost no VP");
    assert_eq!(step(&g), Some(&Step::Supply(SupplyStage::RailBox)));
}

#[test]
fn rail_box_from_the_map_11_3() {
    // Any Axis unit with a LOC and not in enemy ZOC may go to the rail transport box.
    let mut g = game_on(
        rules_data(),
        2,
        "",
        &[
            ("ger-mot-16", "0403"),
            ("ger-mot-3", "0603"),
            ("ger-hq-6a", "0104"),
            ("ger-mot-29", "1003"),
            ("sov-rifle-45", "0703"),
        ],
        "",
        1,
    );
    execute(&mut g, "SUPPLY");
    assert_eq!(step(&g), Some(&Step::Supply(SupplyStage::RailBox)));
    let l = legal(&g);
    // 0603 is in the ZOC of the Soviet unit at 0703; 1003 has no LOC.
    assert_eq!(
        l,
        vec![
            Action::Choose {
                unit: unit(&g, "ger-hq-6a")
            },
            Action::Choose {
                unit: unit(&g, "ger-mot-16")
            },
            Action::EndChoose
        ]
    );
    g.play(Action::Choose {
        unit: unit(&g, "ger-mot-16"),
    });
    assert_eq!(loc(&g, "ger-mot-16"), Loc::RailBox);
    assert!(!reduced(&g, "ger-mot-16"));
    g.play(Action::EndChoose);
    assert_ne!(step(&g), Some(&Step::Supply(SupplyStage::RailBox)));
    assert_eq!(g.state().loss_vp, 0);
}

// ---------------------------------------------------------------- 12.0 reinforcements

fn axis_reinf_from_box(g: &mut StalingradBlitz) {
    // An AXIS REINF whose table result the pool could not fill: only the rail box is left.
    let c = chit(g, "AXIS-REINF");
    g.edit().state.used.push(c);
    set_frames(
        g,
        vec![
            Frame::Draw,
            Frame::Exec(Box::new(Exec {
                chit: c,
                side: sandtable_stalingrad_blitz::Side::Axis,
                hq: None,
                step: Step::AxisReinf(AxisReinf {
                    die: 2,
                    left: [0; 6],
                    from_box: 2,
                }),
                declared: Vec::new(),
                attacked: Vec::new(),
            })),
        ],
    );
}

#[test]
fn rail_box_units_enter_by_rail_keeping_their_side_two_at_most_12_4() {
    let mut g = game_on(
        small_data(),
        2,
        "",
        &[
            ("ger-inf-88", "rail-box reduced"),
            ("ger-pz-9", "rail-box"),
            ("ger-mot-16", "rail-box"),
            ("sov-rifle-45", "1004"),
        ],
        "",
        1,
    );
    axis_reinf_from_box(&mut g);
    assert_eq!(seat(&g), AXIS);
    g.play(Action::Choose {
        unit: unit(&g, "ger-inf-88"),
    });
    g.play(Action::Choose {
        unit: unit(&g, "ger-pz-9"),
    });
    // Two chosen: placement (12.1). The West railway: 0102, 0202, 0302, 0402.
    assert_eq!(step(&g), Some(&Step::Place));
    let hexes: Vec<String> = legal(&g)
        .iter()
        .map(|a| match a {
            Action::Place { at, .. } => g.data().map.grid.id(*at).0,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(hexes, ["0102", "0202", "0302", "0402"]);
    g.play(Action::Place {
        unit: unit(&g, "ger-inf-88"),
        at: hex(&g, "0202"),
    });
    g.play(Action::Place {
        unit: unit(&g, "ger-pz-9"),
        at: hex(&g, "0202"),
    });
    assert!(reduced(&g, "ger-inf-88"), "12.4: reduced units enter reduced");
    assert!(!reduced(&g, "ger-pz-9"));
    assert_eq!(loc(&g, "ger-mot-16"), Loc::RailBox, "no more than two per AXIS REINF");
}

#[test]
fn a_rail_box_unit_that_cannot_enter_stays_in_the_box_12_4() {
    // The Soviet division at 0201 puts the only Axis railway source, 0102, in its ZOC: no
    // railway hex can receive anything (12.1(1)).
    let mut g = game_on(
        small_data(),
        2,
        "",
        &[
            ("ger-pz-9", "rail-box"),
            ("ger-inf-88", "rail-box reduced"),
            ("sov-rifle-45", "0201"),
        ],
        "",
        1,
    );
    axis_reinf_from_box(&mut g);
    g.play(Action::Choose {
        unit: unit(&g, "ger-inf-88"),
    });
    g.play(Action::Choose {
        unit: unit(&g, "ger-pz-9"),
    });
    assert_eq!(loc(&g, "ger-inf-88"), Loc::RailBox);
    assert_eq!(
        loc(&g, "ger-pz-9"),
        Loc::RailBox,
        "a full-strength unit from the box must wait in the box, not join the pool"
    );
}

#[test]
fn a_track_hq_that_cannot_enter_waits_on_the_track_13_0_2() {
    // German units at 1203 and 1204 put both Soviet sources in enemy ZOC: no rail entry.
    let mut g = game_on(
        small_data(),
        2,
        "",
        &[("sov-hq-swf", "track"), ("ger-pz-9", "1203"), ("ger-pz-11", "1204")],
        "",
        1,
    );
    execute(&mut g, "SOVIET-REINF");
    // Column 1 brings an HQ from the pool too: the Soviet player chooses which (12.2).
    let choice = legal(&g)[0];
    assert!(matches!(choice, Action::Choose { .. }), "{choice:?}");
    g.play(choice);
    assert_eq!(g.state().track, 2);
    assert_eq!(loc(&g, "sov-hq-swf"), Loc::Track);
}

#[test]
fn soviet_reinforcements_by_rail_not_through_enemy_zoc_12_1_12_2() {
    // The East railway: 1202, 1102, 1002, 0902. The German unit at 1003 has 1002 (but not
    // 0902 nor 1102) in its ZOC. The Soviet division at 1002 keeps the ordinary LOC open to
    // 0902, but not the rail LOC for placement (12.1(1)); 1002 itself is in enemy ZOC (12.1(2)).
    let mut g = small_game(2, &[("ger-inf-88", "1003"), ("sov-rifle-45", "1002")], 1);
    {
        let b = Board::new(g.data(), g.state());
        let mut s = Search::new();
        assert!(!b.enemy_zoc(sandtable_stalingrad_blitz::Side::Soviet, hex(&g, "0902")));
        assert!(b.enemy_zoc(sandtable_stalingrad_blitz::Side::Soviet, hex(&g, "1002")));
        assert!(b.loc_reach(sandtable_stalingrad_blitz::Side::Soviet, &mut s)[hex(&g, "0902").idx()]);
        let mut entry: Vec<String> = b
            .rail_entry(sandtable_stalingrad_blitz::Side::Soviet, &mut s)
            .iter()
            .map(|&h| g.data().map.grid.id(h).0)
            .collect();
        entry.sort();
        assert_eq!(entry, ["1102", "1202"]);
    }
    let pool_before = g.state().units.iter().filter(|u| u.loc == Loc::Pool).count();
    execute(&mut g, "SOVIET-REINF");
    // 12.2(3): the marker moves on; column 1 is 28 units (HQ 1, Tk 2, Rifle 22, G-Rifle 1,
    // NKVD-Mot 2).
    assert_eq!(g.state().track, 2);
    // The Soviet player chooses which pool HQ the track brings.
    assert_eq!(step(&g), Some(&Step::SovietReinf { hq_left: 1 }));
    let choice = legal(&g)[0];
    g.play(choice);
    assert_eq!(step(&g), Some(&Step::Place));
    assert_eq!(g.state().arriving.len(), 28);
    while step(&g) == Some(&Step::Place) {
        let l = legal(&g);
        let hexes: Vec<String> = l
            .iter()
            .map(|a| match a {
                Action::Place { at, .. } => g.data().map.grid.id(*at).0,
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(hexes.iter().all(|h| h == "1102" || h == "1202"), "{hexes:?}");
        g.play(l[0]);
    }
    // Two hexes of two units each; the rest wait in the pool. Everything enters full.
    let on_map: Vec<_> = g
        .state()
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| g.data().units[*i].side == sandtable_stalingrad_blitz::Side::Soviet && u.hex().is_some())
        .collect();
    assert_eq!(on_map.len(), 5);
    assert!(on_map.iter().all(|(_, u)| !u.reduced));
    assert_eq!(
        g.state().units.iter().filter(|u| u.loc == Loc::Pool).count(),
        pool_before - 4
    );
}

// ---------------------------------------------------------------- 14.0 fortresses

fn fortress_sites(g: &StalingradBlitz) -> Vec<String> {
    legal(g)
        .iter()
        .filter_map(|a| match a {
            Action::Fortify { hex } => Some(g.data().map.grid.id(*hex).0),
            _ => None,
        })
        .collect()
}

#[test]
fn fortress_construction_14_1() {
    // Soviet-held: Northtown 0803 (next to the German unit at 0802), Marshtown 0904, Eastcity
    // 0905. Axis-held: Westtown, Woodtown. No German unit can be withdrawn or sent to the box.
    let mut g = small_game(2, &[("sov-rifle-45", "0803"), ("ger-mot-16", "0802")], 1);
    execute(&mut g, "SUPPLY");
    assert_eq!(step(&g), Some(&Step::Supply(SupplyStage::Fortress)));
    assert_eq!(g.pending(), Pending::Seat(SOVIET));
    assert_eq!(fortress_sites(&g), ["0904", "0905"], "14.1(1)-(2)");
    assert!(legal(&g).contains(&Action::NoFortress));
    g.play(Action::Fortify { hex: hex(&g, "0905") });
    // One level per supply procedure (14.1(3)): the procedure is over.
    assert!(step(&g).is_none());
    assert_eq!(
        (
            g.state().fortresses.len(),
            g.state().fortresses[0].level,
            g.state().fortress_markers_used
        ),
        (1, 1, 1)
    );
    // Next supply: raise Eastcity to level 2 (14.1(5)) or start Marshtown.
    execute(&mut g, "SUPPLY");
    assert_eq!(fortress_sites(&g), ["0904", "0905"]);
    g.play(Action::Fortify { hex: hex(&g, "0905") });
    assert_eq!((g.state().fortresses[0].level, g.state().fortress_markers_used), (2, 1));
    // Level 2 is the most (14.1(6)).
    execute(&mut g, "SUPPLY");
    assert_eq!(fortress_sites(&g), ["0904"]);
    g.play(Action::Fortify { hex: hex(&g, "0904") });
    assert_eq!(g.state().fortress_markers_used, 2);
    // Both markers used: only the level-1 fortress may still be raised.
    execute(&mut g, "SUPPLY");
    assert_eq!(fortress_sites(&g), ["0904"]);
    g.play(Action::NoFortress);
    // A marker removed from the map never comes back (14.3(3)): with Marshtown's fortress
    // gone and Eastcity at level 2, there is nothing to build and no decision.
    let m = hex(&g, "0904");
    g.edit().state.fortresses.retain(|f| f.hex != m);
    execute(&mut g, "SUPPLY");
    assert!(step(&g).is_none());
    assert_eq!(g.state().fortresses.len(), 1);
}

fn fortress_attack(level: u8, die: u8) -> StalingradBlitz {
    // 12 against 2 (+1 at level 2) in Eastcity: 6-1 (4-1 at level 2: 12-3), 2 shifts.
    let tail = format!("[[fortress]]\nhex = \"0905\"\nlevel = {level}\n");
    let mut g = game_on(
        small_data(),
        2,
        "",
        &[
            ("ger-hq-4pza", "0705"),
            ("ger-pz-9", "0805"),
            ("ger-pz-11", "0805"),
            ("sov-rifle-45", "0905"),
        ],
        &tail,
        1,
    );
    execute(&mut g, "4PzA");
    g.play(Action::EndMovement);
    g.play(declare(&g, "0905", &["ger-pz-9", "ger-pz-11"]));
    rig_die(&mut g, die);
    g.play(Action::EndDeclare);
    g
}

#[test]
fn a_fortress_may_turn_retreats_into_step_losses_14_2_5() {
    // Level 1: 12-2 is 6-1, two shifts: 4-1; die 6: 1RR. Held: 3 step losses, no retreat.
    let mut g = fortress_attack(1, 6);
    let c = combat(&g);
    assert_eq!(
        (
            g.data().crt.columns.label(c.column as usize).as_str(),
            c.defender_steps,
            c.retreat
        ),
        ("4-1", 1, 2)
    );
    assert_eq!(c.stage, CombatStage::Convert);
    assert_eq!(g.pending(), Pending::Seat(SOVIET), "the defender decides");
    assert_eq!(
        legal(&g),
        vec![Action::Convert { yes: true }, Action::Convert { yes: false }]
    );
    g.play(Action::Convert { yes: true });
    let c = combat(&g);
    assert_eq!(
        (c.stage, c.defender_steps, c.retreat),
        (CombatStage::DefenderLoss, 3, 0)
    );
    assert_eq!(
        legal(&g),
        vec![
            Action::Lose {
                unit: unit(&g, "sov-rifle-45")
            },
            Action::Lose { unit: FORTRESS }
        ]
    );
    g.play(Action::Lose { unit: FORTRESS });
    assert!(g.state().fortresses.is_empty());
    // Two more steps, both forced onto the division now.
    forced(&mut g);
    assert_eq!(loc(&g, "sov-rifle-45"), Loc::Pool);
    assert_eq!(
        g.state().fortress_markers_used,
        1,
        "14.3(3): the marker is gone for good"
    );
    assert_eq!(combat(&g).stage, CombatStage::Advance);
    // Not held: one step, then a two-hex retreat; the fortress stays (A26).
    let mut g = fortress_attack(1, 6);
    g.play(Action::Convert { yes: false });
    g.play(Action::Lose {
        unit: unit(&g, "sov-rifle-45"),
    });
    while matches!(g.combat(), Some(c) if c.stage == CombatStage::Retreat) {
        let l = legal(&g);
        assert!(l.iter().all(|a| matches!(a, Action::Retreat { .. })), "{l:?}");
        g.play(l[0]);
    }
    assert!(reduced(&g, "sov-rifle-45"));
    let now = at(&g, "sov-rifle-45").expect("on the map");
    assert_eq!(g.data().map.grid.distance(hex(&g, "0905"), hex(&g, &now)), 2);
    assert_eq!(g.state().fortresses.len(), 1);
    assert_eq!(g.state().fortresses[0].level, 1);
    // Level 2: 12-3 is 4-1, two shifts: 2-1; die 4: R becomes 1 step.
    let mut g = fortress_attack(2, 4);
    let c = combat(&g);
    assert_eq!(
        (
            g.data().crt.columns.label(c.column as usize).as_str(),
            c.defender_steps,
            c.retreat
        ),
        ("2-1", 0, 1)
    );
    g.play(Action::Convert { yes: true });
    assert_eq!((combat(&g).defender_steps, combat(&g).retreat), (1, 0));
}

// ---------------------------------------------------------------- 15.0 victory

#[test]
fn the_soviet_player_wins_at_the_end_of_turn_9_15_0_4() {
    let units = [("ger-hq-6a", "0304"), ("sov-hq-swf", "1204")];
    let mut g = small_game(9, &units, 1);
    g.edit().hidden.cup.clear();
    to_draw(&mut g);
    draw(&mut g);
    assert_eq!(g.pending(), Pending::Over);
    assert!(legal(&g).is_empty());
    let o = g.outcome().expect("over");
    assert_eq!(o.winner, Some(SOVIET));
    // Westtown is held with a LOC; Eastcity is Soviet: 10 VP.
    assert_eq!(g.state().vp, 10);
    // Turn 8 goes on to turn 9.
    let mut g = small_game(8, &units, 1);
    g.edit().hidden.cup.clear();
    to_draw(&mut g);
    draw(&mut g);
    assert_eq!(g.state().turn, 9);
    assert_eq!(g.outcome(), None);
}

#[test]
fn the_axis_wins_at_85_vp_at_the_end_of_any_turn_15_0_3() {
    // rules-map: nine Axis-held VP hexes with an Axis LOC (90 VP) and a tenth without one.
    for (loss, axis_wins) in [(5u16, true), (6, false)] {
        let mut g = game_on(
            rules_data(),
            3,
            &format!("loss_vp = {loss}"),
            &[("ger-hq-6a", "0104")],
            "",
            1,
        );
        g.edit().hidden.cup.clear();
        to_draw(&mut g);
        draw(&mut g);
        assert_eq!(g.state().vp, 90 - loss as i32);
        if axis_wins {
            assert_eq!(g.outcome().map(|o| o.winner), Some(Some(AXIS)), "{} VP", g.state().vp);
        } else {
            assert_eq!(g.outcome(), None, "{} VP", g.state().vp);
            assert_eq!(g.state().turn, 4);
        }
    }
}

#[test]
fn forced_decisions_are_taken_at_once() {
    // The defender's only retreat hex (see a_retreat_into_enemy_zoc_costs_a_step_10_6_4).
    let g = corner_attack(&[], &["ger-pz-9"], 3);
    assert_eq!(at(&g, "sov-rifle-45").as_deref(), Some("1209"));
    assert_ne!(g.pending(), Pending::Seat(SOVIET));
}

#[test]
fn an_overstacked_retreat_goes_one_hex_further_10_6_5() {
    // 1209 already holds two Soviet divisions: the retreating one enters it (a step for the
    // enemy ZOC) and must go on, to 1208 (nearer the Soviet source than 1109, and outside
    // enemy ZOC).
    let mut g = corner_attack(&[("sov-rifle-62", "1209"), ("sov-rifle-121", "1209")], &["ger-pz-9"], 3);
    forced(&mut g);
    assert_eq!(at(&g, "sov-rifle-45").as_deref(), Some("1208"));
    assert!(reduced(&g, "sov-rifle-45"), "one step for 1209, none for 1208");
    assert_eq!(combat(&g).stage, CombatStage::Advance);
}

#[test]
fn eliminated_hqs_go_to_the_track_and_the_rail_box_13_0_2() {
    // A Soviet HQ with nowhere to retreat: to the reinforcement track box.
    let units = [
        ("ger-hq-4pza", "0909"),
        ("ger-pz-9", "1110"),
        ("ger-pz-11", "1209"),
        ("sov-hq-swf", "1210"),
    ];
    let mut g = small_game(2, &units, 1);
    execute(&mut g, "4PzA");
    g.play(Action::EndMovement);
    g.play(declare(&g, "1210", &["ger-pz-9", "ger-pz-11"]));
    rig_die(&mut g, 1);
    g.play(Action::EndDeclare);
    forced(&mut g);
    assert_eq!(loc(&g, "sov-hq-swf"), Loc::Track);
    assert!(!reduced(&g, "sov-hq-swf"));
    // It comes back with the next SOVIET REINF, at full strength.
    let mut g = game_on(
        small_data(),
        2,
        "",
        &[("sov-hq-swf", "track"), ("ger-hq-6a", "0104")],
        "",
        1,
    );
    execute(&mut g, "SOVIET-REINF");
    assert_eq!(g.state().arriving.first().map(|a| a.0), Some(unit(&g, "sov-hq-swf")));
    // A German HQ: to the rail transport box, −2 VP (15.0(2)).
    let mut g = small_game(
        2,
        &[
            ("sov-hq-swf", "0302"),
            ("sov-tk-4", "0102"),
            ("sov-tk-13", "0201"),
            ("ger-hq-6a", "0101"),
        ],
        1,
    );
    execute(&mut g, "SWFront");
    g.play(Action::EndMovement);
    g.play(declare(&g, "0101", &["sov-tk-4", "sov-tk-13"]));
    rig_die(&mut g, 4);
    g.play(Action::EndDeclare);
    forced(&mut g);
    assert_eq!(loc(&g, "ger-hq-6a"), Loc::RailBox);
    assert_eq!(g.state().loss_vp, 2);
}

#[test]
fn attacker_step_losses_10_4_10_5() {
    // 6 against 3 + 3 is 1-1; die 1: A2. The panzer division flips, then goes (−2 VP).
    let mut g = small_game(
        2,
        &[
            ("ger-hq-4pza", "0707"),
            ("ger-pz-9", "0908"),
            ("sov-tk-4", "1008"),
            ("sov-tk-13", "1008"),
        ],
        1,
    );
    execute(&mut g, "4PzA");
    g.play(Action::EndMovement);
    g.play(declare(&g, "1008", &["ger-pz-9"]));
    rig_die(&mut g, 1);
    g.play(Action::EndDeclare);
    // One attack and one attacker: the resolution and both losses are forced, taken at once.
    let log: Vec<String> = g.journal(None).iter().map(|l| l.text.en.clone()).collect();
    assert!(log.iter().any(|l| l.contains("→ 1-1; die 1: A2")), "{log:?}");
    assert_eq!(loc(&g, "ger-pz-9"), Loc::Eliminated);
    assert_eq!(g.state().loss_vp, 2);
    assert!(!reduced(&g, "sov-tk-4") && !reduced(&g, "sov-tk-13"));
    // Two attackers and A1: the attacker chooses which one flips (10.5(2)).
    let mut g = small_game(
        2,
        &[
            ("ger-hq-4pza", "0707"),
            ("ger-pz-9", "0908"),
            ("ger-inf-88", "0909"),
            ("sov-tk-4", "1008"),
            ("sov-tk-13", "1008"),
        ],
        1,
    );
    execute(&mut g, "4PzA");
    g.play(Action::EndMovement);
    // 9 against 6: 1.5-1 (12-7 would be too); die 2: A1.
    g.play(declare(&g, "1008", &["ger-pz-9", "ger-inf-88"]));
    rig_die(&mut g, 2);
    g.play(Action::EndDeclare);
    assert_eq!(g.pending(), Pending::Seat(AXIS));
    assert_eq!(
        legal(&g),
        vec![
            Action::Lose {
                unit: unit(&g, "ger-pz-9")
            },
            Action::Lose {
                unit: unit(&g, "ger-inf-88")
            }
        ]
    );
    g.play(Action::Lose {
        unit: unit(&g, "ger-inf-88"),
    });
    assert!(reduced(&g, "ger-inf-88") && !reduced(&g, "ger-pz-9"));
    assert_eq!(g.state().loss_vp, 0);
}

/// 15 against 2 on open ground (0908): 7-1; die 6: 2RR, and the rifle division is gone.
/// Soviet 1008 is next to the vacated hex.
fn advance_position() -> StalingradBlitz {
    let mut g = small_game(
        2,
        &[
            ("ger-hq-4pza", "0706"),
            ("ger-pz-9", "0808"),
            ("ger-inf-88", "0807"),
            ("ger-pz-11", "0909"),
            ("sov-rifle-45", "0908"),
            ("sov-rifle-62", "1008"),
        ],
        1,
    );
    execute(&mut g, "4PzA");
    g.play(Action::EndMovement);
    g.play(declare(&g, "0908", &["ger-pz-9", "ger-inf-88", "ger-pz-11"]));
    rig_die(&mut g, 6);
    g.play(Action::EndDeclare);
    forced(&mut g);
    assert_eq!(loc(&g, "sov-rifle-45"), Loc::Pool);
    assert_eq!(combat(&g).stage, CombatStage::Advance);
    g
}

fn advance_options(g: &StalingradBlitz, id: &str) -> Vec<String> {
    let u = unit(g, id);
    let mut v: Vec<String> = legal(g)
        .iter()
        .filter_map(|a| match a {
            Action::Advance { unit, to } if *unit == u => Some(g.data().map.grid.id(*to).0),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

#[test]
fn advance_after_combat_10_7() {
    let mut g = advance_position();
    // Non-mechanised: the vacated hex only (10.7(1)1).
    assert_eq!(advance_options(&g, "ger-inf-88"), ["0908"]);
    // Mechanised: the vacated hex, or one more beyond it, enemy ZOC or not (10.7(3)), but not
    // back, and not into the enemy at 1008 (1007 is in its ZOC).
    assert_eq!(
        advance_options(&g, "ger-pz-9"),
        ["0807", "0907", "0908", "0909", "1007"]
    );
    assert_eq!(
        advance_options(&g, "ger-pz-11"),
        ["0807", "0808", "0907", "0908", "1007"]
    );
    g.play(Action::Advance {
        unit: unit(&g, "ger-pz-9"),
        to: hex(&g, "1007"),
    });
    assert_eq!(at(&g, "ger-pz-9").as_deref(), Some("1007"));
    // Each unit advances once; the others may still go, to other hexes (10.7(4)).
    assert!(advance_options(&g, "ger-pz-9").is_empty());
    assert_eq!(
        advance_options(&g, "ger-pz-11"),
        ["0807", "0808", "0907", "0908", "1007"]
    );
    g.play(Action::Advance {
        unit: unit(&g, "ger-pz-11"),
        to: hex(&g, "0907"),
    });
    assert_eq!(at(&g, "ger-pz-11").as_deref(), Some("0907"));
    // Into forest (0404): one hex only.
    let mut g = small_game(
        2,
        &[("ger-hq-4pza", "0304"), ("ger-pz-9", "0405"), ("sov-rifle-45", "0404")],
        1,
    );
    execute(&mut g, "4PzA");
    g.play(Action::EndMovement);
    g.play(declare(&g, "0404", &["ger-pz-9"]));
    // 6-2 is 3-1, forest: 2-1; die 6: RR.
    rig_die(&mut g, 6);
    g.play(Action::EndDeclare);
    while matches!(g.combat(), Some(c) if c.stage == CombatStage::Retreat) {
        let l = legal(&g);
        g.play(l[0]);
    }
    assert_eq!(advance_options(&g, "ger-pz-9"), ["0404"]);
}

#[test]
fn every_attacking_unit_may_advance_10_7_2() {
    let mut g = advance_position();
    g.play(Action::Advance {
        unit: unit(&g, "ger-inf-88"),
        to: hex(&g, "0908"),
    });
    assert_eq!(
        combat(&g).stage,
        CombatStage::Advance,
        "the other attackers may still advance"
    );
    assert!(advance_options(&g, "ger-pz-11").contains(&"0908".to_string()));
    g.play(Action::Advance {
        unit: unit(&g, "ger-pz-11"),
        to: hex(&g, "0908"),
    });
    assert_eq!(at(&g, "ger-pz-11").as_deref(), Some("0908"));
}

#[test]
fn a_unit_may_be_activated_again_by_another_chit_8_1_2() {
    // Both 1PzA chits in the cup: the infantry moves under each.
    let mut g = small_game(
        2,
        &[("ger-hq-1pza", "0104"), ("ger-inf-88", "0204"), ("sov-hq-swf", "1204")],
        1,
    );
    let c = chit(&g, "1PzA");
    g.edit().hidden.cup = vec![c, c];
    to_draw(&mut g);
    draw(&mut g);
    g.play(mv(&g, "ger-inf-88", "0304"));
    g.play(Action::EndMovement);
    assert_eq!(top(&g), Some(&Frame::Draw));
    assert!(!active(&g, "ger-inf-88"));
    draw(&mut g);
    assert!(active(&g, "ger-inf-88"));
    g.play(mv(&g, "ger-inf-88", "0404"));
    assert_eq!(at(&g, "ger-inf-88").as_deref(), Some("0404"));
}

#[test]
fn entering_a_city_takes_control_of_it_3_4_2() {
    // Eastcity starts Soviet (3.4(1)); a German unit that enters it takes it.
    let mut g = small_game(2, &[("ger-hq-4pza", "0705"), ("ger-pz-9", "0805")], 1);
    let city = hex(&g, "0905");
    assert_eq!(
        g.state().control[city.idx()],
        Some(sandtable_stalingrad_blitz::Side::Soviet)
    );
    execute(&mut g, "4PzA");
    g.play(mv(&g, "ger-pz-9", "0905"));
    assert_eq!(
        g.state().control[city.idx()],
        Some(sandtable_stalingrad_blitz::Side::Axis)
    );
}

#[test]
fn axis_reinforcement_table_and_missing_types_12_3() {
    // Die 6: 1 Pz, 1 SS, 1 Inf, 1 Rum. Every SS division is gone: that one is lost (12.3(2)).
    let mut units: Vec<(&str, &str)> = vec![("ger-hq-6a", "0104")];
    for ss in ["ger-ss-lssah", "ger-ss-wik", "ger-ss-dr", "ger-ss-tot"] {
        units.push((ss, "eliminated"));
    }
    let mut g = game_on(small_data(), 2, "", &units, "", 1);
    let c = chit(&g, "AXIS-REINF");
    g.edit().hidden.cup = vec![c];
    to_draw(&mut g);
    rig_die_after_draw(&mut g, 6);
    draw(&mut g);
    assert!(matches!(step(&g), Some(Step::AxisReinf(r)) if r.die == 6));
    // Any German panzer division in the pool (12.3: the player chooses freely).
    let pz: Vec<String> = legal(&g)
        .iter()
        .map(|a| match a {
            Action::Choose { unit } => g.data().units[*unit as usize].id.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert!(pz.iter().all(|id| id.starts_with("ger-pz-")), "{pz:?}");
    assert!(pz.contains(&"ger-pz-6".to_string()) && pz.contains(&"ger-pz-9".to_string()));
    g.play(Action::Choose {
        unit: unit(&g, "ger-pz-6"),
    });
    // Then Inf (mountain and Jäger divisions count, A23), no SS.
    let inf: Vec<String> = legal(&g)
        .iter()
        .filter_map(|a| match a {
            Action::Choose { unit } => Some(g.data().units[*unit as usize].id.clone()),
            _ => None,
        })
        .collect();
    assert!(
        inf.contains(&"ger-inf-46".to_string())
            && inf.contains(&"ger-mt-1".to_string())
            && inf.contains(&"ger-jg-97".to_string()),
        "{inf:?}"
    );
    assert!(!inf
        .iter()
        .any(|id| id.starts_with("ger-ss") || id.starts_with("ger-mot")));
    g.play(Action::Choose {
        unit: unit(&g, "ger-inf-46"),
    });
    // Then Rum: any Romanian division (A22), infantry included.
    g.play(Action::Choose {
        unit: unit(&g, "rum-inf-1"),
    });
    assert_eq!(step(&g), Some(&Step::Place));
    let arriving: Vec<&str> = g
        .state()
        .arriving
        .iter()
        .map(|&(u, _)| g.data().units[u as usize].id.as_str())
        .collect();
    assert_eq!(arriving, ["ger-pz-6", "ger-inf-46", "rum-inf-1"]);
}

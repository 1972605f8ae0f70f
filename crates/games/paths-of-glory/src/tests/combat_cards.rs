//! 9.5.4, 12.2.5: combat cards played in the steps of a combat on the driver, on positions
//! built from the August 1914 set-up: the attacker's trench-negating cards before the flank
//! attempt, then the attacker's and the defender's other cards; each card's condition and
//! effect; where the cards go once the combat is decided; 14.3.4.

use super::common;

use crate::combat::{Fire, Table};
use crate::game::{Action, Frame, PathsOfGlory, AP, CP};
use crate::state::{side_index, Location};
use crate::Side;
use sandtable_core::driver::{revealed, Rules};
use sandtable_core::game::{Game, Refusal, Seat};
use sandtable_core::graph::Space;
use sandtable_core::text::Lang;

fn sp(g: &PathsOfGlory, id: &str) -> Space {
    g.data().space(id).expect("a space")
}

fn unit(g: &PathsOfGlory, id: &str) -> u16 {
    g.data().pieces.iter().position(|p| p.id == id).expect("a counter") as u16
}

fn seat(side: Side) -> Seat {
    if side == Side::Cp {
        CP
    } else {
        AP
    }
}

fn journal_has(g: &PathsOfGlory, words: &str) -> bool {
    g.journal(None).iter().any(|l| l.text.en.contains(words))
}

fn top(g: &PathsOfGlory) -> Option<Frame> {
    g.frames().last().cloned()
}

/// The first round of August 1914 with `moves` made to the map (counter, space id) and the
/// hands emptied but for the cards given.
fn position(moves: &[(&str, &str)], cp: &[u8], ap: &[u8]) -> PathsOfGlory {
    let mut g = common::first_round();
    for (u, s) in moves {
        let (u, s) = (unit(&g, u), sp(&g, s));
        g.pos.units[u as usize].loc = Location::Map(s);
    }
    for (side, cards) in [(Side::Cp, cp), (Side::Ap, ap)] {
        let c = &mut g.pos.cards[side_index(side)];
        let hand = std::mem::take(&mut c.hand);
        c.draw.extend(hand);
        c.draw.sort();
        for &n in cards {
            common::give(&mut g, side, n);
        }
    }
    g.touch();
    g
}

/// The CP activates `from` for combat with an Automatic Operation, attacks `target` with
/// `units`, and resolves: the attacker's first combat-card step is next.
fn cp_attacks(g: &mut PathsOfGlory, from: &str, units: &[&str], target: &str) {
    let (from, target) = (sp(g, from), sp(g, target));
    g.apply(CP, &Action::AutomaticOps).expect("an automatic operation");
    g.apply(
        CP,
        &Action::Activate {
            space: from,
            combat: true,
        },
    )
    .expect("activated for combat");
    g.apply(CP, &Action::Target { space: target }).expect("a target");
    for u in units {
        let u = unit(g, u);
        g.apply(CP, &Action::Join { unit: u }).expect("joins");
    }
    g.apply(CP, &Action::Resolve).expect("resolve");
}

/// The CP passes its first round so that the Allies act, then the Allies attack as
/// [`cp_attacks`].
fn ap_attacks(g: &mut PathsOfGlory, from: &str, units: &[&str], target: &str) {
    g.apply(CP, &Action::AutomaticOps).expect("an automatic operation");
    g.apply(CP, &Action::EndActivation).expect("nothing activated");
    let (from, target) = (sp(g, from), sp(g, target));
    g.apply(AP, &Action::AutomaticOps).expect("an automatic operation");
    g.apply(
        AP,
        &Action::Activate {
            space: from,
            combat: true,
        },
    )
    .expect("activated for combat");
    g.apply(AP, &Action::Target { space: target }).expect("a target");
    for u in units {
        let u = unit(g, u);
        g.apply(AP, &Action::Join { unit: u }).expect("joins");
    }
    g.apply(AP, &Action::Resolve).expect("resolve");
}

/// Plays `card` in the combat-card step now open for `side`.
fn play(g: &mut PathsOfGlory, side: Side, card: u8) -> Result<(), Refusal> {
    g.apply(seat(side), &Action::CombatCard { card })
}

/// Ends combat-card steps and declines flank attacks until the next step of `side`'s cards
/// (`early` or not), or the dice.
fn until_step(g: &mut PathsOfGlory, side: Side, early: bool) {
    loop {
        match top(g) {
            Some(Frame::CombatCards { side: s, early: e }) if s == side && e == early => return,
            Some(Frame::CombatCards { side: s, .. }) => g.apply(seat(s), &Action::EndCombatCards).expect("no card"),
            Some(Frame::FlankChoice { .. }) => g.apply(CP, &Action::Flank { pinning: None }).expect("no flank"),
            other => panic!("no step of {side:?}'s combat cards: {other:?}"),
        }
    }
}

/// Ends the combat-card steps left and declines a flank attack: the dice come next.
fn to_dice(g: &mut PathsOfGlory) {
    loop {
        match top(g) {
            Some(Frame::CombatCards { side, .. }) => g.apply(seat(side), &Action::EndCombatCards).expect("no card"),
            Some(Frame::FlankChoice { side }) => {
                g.apply(seat(side), &Action::Flank { pinning: None }).expect("no flank")
            }
            Some(Frame::BattleDie { .. }) => return,
            other => panic!("not on the way to the dice: {other:?}"),
        }
    }
}

/// Takes every loss step the legal list offers first, until the losses are taken.
fn take_losses(g: &mut PathsOfGlory) {
    while let Some(Frame::TakeLosses { side }) = top(g) {
        let a = g.legal_list()[0].clone();
        g.apply(seat(side), &a).expect("a loss step");
    }
}

fn refusal_says(r: Result<(), Refusal>, rule: &str, en: &str, zh: &str) {
    let e = r.expect_err("refused");
    assert_eq!(e.rule, rule, "{}", e.message(Lang::En));
    assert!(e.message(Lang::En).contains(en), "{}", e.message(Lang::En));
    assert!(e.message(Lang::Zh).contains(zh), "{}", e.message(Lang::Zh));
}

/// The German 8th Army in Przemysl (the Austro-Hungarian 4th Army's place) next to the Russian
/// 5th Army in Lublin, a clear space without fort or trench.
const EIGHTH_AT_PRZEMYSL: [(&str, &str); 1] = [("ge-army-8", "przemysl")];

fn eighth_at_przemysl(cp: &[u8], ap: &[u8]) -> PathsOfGlory {
    let mut g = position(&EIGHTH_AT_PRZEMYSL, cp, ap);
    let ah = unit(&g, "ah-army-4");
    g.pos.units[ah as usize].loc = Location::Aside;
    g.touch();
    g
}

#[test]
fn both_sides_play_cards_in_order_each_shown_as_it_is_played_12_2_5() {
    // CP #3 Von Francois (German attack on Russians) and AP #4 Pleve (Russians in the combat).
    let mut g = eighth_at_przemysl(&[3], &[4]);
    cp_attacks(&mut g, "przemysl", &["ge-army-8"], "lublin");
    // 2022 12.2.1 step 3: the attacker first, for trench-negating cards only.
    assert!(
        matches!(
            top(&g),
            Some(Frame::CombatCards {
                side: Side::Cp,
                early: true
            })
        ),
        "{:?}",
        top(&g)
    );
    assert!(!g.legal_list().contains(&Action::CombatCard { card: 3 }));
    // The list says which window it is.
    let heading = |g: &PathsOfGlory| g.targets(&g.legal_list())[0].group.clone();
    assert!(
        heading(&g).en.contains("before the flank attempt"),
        "{}",
        heading(&g).en
    );
    assert!(heading(&g).zh.contains("侧翼攻击尝试之前"), "{}", heading(&g).zh);
    refusal_says(
        play(&mut g, Side::Cp, 3),
        "12.2.1",
        "only the attacker's cards that negate trenches",
        "无视壕沟",
    );
    // One attacking space: no flank attempt (12.3.1); then the attacker's other cards.
    until_step(&mut g, Side::Cp, false);
    assert!(g.legal_list().contains(&Action::CombatCard { card: 3 }));
    assert_eq!(heading(&g).en, "Combat cards (12.2.5)");
    let before = g.hidden();
    play(&mut g, Side::Cp, 3).expect("Von Francois");
    assert!(
        revealed(&before, &g.hidden()),
        "the card played is shown: an undo barrier"
    );
    assert!(g.pos.cards[side_index(Side::Cp)].face_up.contains(&3));
    assert!(journal_has(&g, "CP plays #3 Von Francois (12.2.5): CP #3"));
    refusal_says(
        play(&mut g, Side::Cp, 3),
        "9.5.4, CP #3",
        "already in play in this combat",
        "已在本次会战中打出",
    );
    g.apply(CP, &Action::EndCombatCards).expect("done");
    // Then the defender (9.5.4.1).
    assert!(
        matches!(
            top(&g),
            Some(Frame::CombatCards {
                side: Side::Ap,
                early: false
            })
        ),
        "{:?}",
        top(&g)
    );
    play(&mut g, Side::Ap, 4).expect("Pleve");
    g.apply(AP, &Action::EndCombatCards).expect("done");
    assert!(matches!(top(&g), Some(Frame::BattleDie { .. })));
    // Each side's roll gets its +1.
    g.apply_chance(&Action::Die { face: 5 }).expect("the CP's fire");
    g.apply_chance(&Action::Die { face: 1 }).expect("the Allies' fire");
    let t = g.tables();
    let fire = Fire::new(t, Table::Army, 5, 0);
    assert!(
        journal_has(
            &g,
            &format!("CP fires on the Army table, column {}, roll 5+1", fire.label(t))
        ),
        "{:?}",
        g.journal(None)
    );
    assert!(journal_has(&g, "AP fires on the Army table, column"));
    assert!(journal_has(&g, "roll 1+1"));
    assert_ne!(fire.losses(t, 5, 1), fire.losses(t, 5, 0), "the +1 changes the result");
    assert!(journal_has(
        &g,
        &format!("loss number {} (12.2.8)", fire.losses(t, 5, 1))
    ));
    take_losses(&mut g);
    // 12.2.10: the CP won: Von Francois stays face up (9.5.4.2); Pleve, a `*` card, leaves the
    // game.
    assert!(journal_has(&g, "the attacker wins"));
    assert_eq!(g.pos.cards[side_index(Side::Cp)].face_up, vec![3]);
    assert!(g.pos.cards[side_index(Side::Ap)].removed.contains(&4));
    assert!(g.pos.cards[side_index(Side::Ap)].face_up.is_empty());
}

#[test]
fn a_card_held_face_up_serves_once_an_action_round_9_5_4_4() {
    // AP #5 Putnik: the Serbs defend Belgrade with it, win, keep it face up; attacking in the
    // Allies' action of the same round, they may not use it again.
    let mut g = position(&[], &[], &[5]);
    cp_attacks(&mut g, "novi-sad", &["ah-army-5"], "belgrade");
    until_step(&mut g, Side::Ap, false);
    play(&mut g, Side::Ap, 5).expect("Putnik in 1914");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 1 }).expect("fire");
    g.apply_chance(&Action::Die { face: 6 }).expect("fire");
    take_losses(&mut g);
    assert!(journal_has(&g, "the defender wins"));
    assert_eq!(
        g.pos.cards[side_index(Side::Ap)].face_up,
        vec![5],
        "kept face up (9.5.4.2)"
    );
    while let Some(Frame::Combats { .. }) = top(&g) {
        g.apply(CP, &Action::EndCombat).expect("no more attacks");
    }
    let (belgrade, novi_sad) = (sp(&g, "belgrade"), sp(&g, "novi-sad"));
    g.apply(AP, &Action::AutomaticOps).expect("ops");
    g.apply(
        AP,
        &Action::Activate {
            space: belgrade,
            combat: true,
        },
    )
    .expect("activated");
    g.apply(AP, &Action::Target { space: novi_sad }).expect("target");
    let sb = unit(&g, "sb-army-1");
    g.apply(AP, &Action::Join { unit: sb }).expect("join");
    g.apply(AP, &Action::Resolve).expect("resolve");
    // The Allies hold a card face up: they are asked in their first step too.
    assert!(
        matches!(
            top(&g),
            Some(Frame::CombatCards {
                side: Side::Ap,
                early: true
            })
        ),
        "{:?}",
        top(&g)
    );
    until_step(&mut g, Side::Ap, false);
    assert!(!g.legal_list().contains(&Action::CombatCard { card: 5 }));
    refusal_says(
        play(&mut g, Side::Ap, 5),
        "9.5.4.4",
        "already been used in a combat this action round",
        "本行动轮已在一场会战中使用过",
    );
}

#[test]
fn a_card_held_face_up_is_discarded_by_the_loser_9_5_4_3() {
    let mut g = position(&[], &[], &[]);
    let c = &mut g.pos.cards[side_index(Side::Ap)];
    c.draw.retain(|&n| n != 5);
    c.face_up.push(5);
    g.touch();
    cp_attacks(&mut g, "novi-sad", &["ah-army-5"], "belgrade");
    until_step(&mut g, Side::Ap, false);
    assert!(g.legal_list().contains(&Action::CombatCard { card: 5 }));
    let before = g.hidden();
    play(&mut g, Side::Ap, 5).expect("Putnik, face up");
    assert!(!revealed(&before, &g.hidden()), "nothing hidden is shown");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 6 }).expect("fire");
    g.apply_chance(&Action::Die { face: 1 }).expect("fire");
    take_losses(&mut g);
    assert!(journal_has(&g, "the attacker wins"));
    let c = &g.pos.cards[side_index(Side::Ap)];
    assert!(c.face_up.is_empty() && c.discard.contains(&5), "{c:?}");
}

#[test]
fn nationality_season_and_side_conditions_are_refused_with_the_card_number_9_5_4_1_1() {
    // AP #18 Hurricane Barrage needs British attackers; AP #7 Severe Weather needs a mountain
    // in Fall or Winter (Belfort in August is not); AP #4 Pleve needs Russians.
    let mut g = position(&[], &[], &[4, 7, 18, 39]);
    cp_attacks(&mut g, "mulhouse", &["ge-army-7"], "belfort");
    until_step(&mut g, Side::Ap, false);
    refusal_says(
        play(&mut g, Side::Ap, 18),
        "9.5.4, AP #18",
        "is played by the attacker",
        "只能由进攻方打出",
    );
    refusal_says(
        play(&mut g, Side::Ap, 7),
        "9.5.4, AP #7",
        "only in a mountain space in Fall or Winter",
        "秋冬的山地区域",
    );
    refusal_says(
        play(&mut g, Side::Ap, 4),
        "9.5.4.1.1",
        "a unit of Russia must take part on your side",
        "俄",
    );
    // They Shall Not Pass: Belfort is a French fort space.
    play(&mut g, Side::Ap, 39).expect("They Shall Not Pass at Belfort");
    let legal = g.legal_list();
    assert_eq!(
        legal.as_slice(),
        &[Action::EndCombatCards],
        "nothing else is playable here"
    );
}

#[test]
fn severe_weather_gives_the_defender_two_in_a_winter_mountain_ap_7() {
    let mut g = position(&[], &[], &[7]);
    g.pos.turn = 4; // Winter 1915
    g.touch();
    cp_attacks(&mut g, "mulhouse", &["ge-army-7"], "belfort");
    until_step(&mut g, Side::Ap, false);
    play(&mut g, Side::Ap, 7).expect("Severe Weather in a winter mountain");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 1 }).expect("fire");
    g.apply_chance(&Action::Die { face: 3 }).expect("fire");
    assert!(journal_has(&g, "roll 3+2"));
}

#[test]
fn they_shall_not_pass_holds_verdun_and_stays_face_up_ap_39() {
    let mut g = position(&[], &[], &[39]);
    cp_attacks(&mut g, "metz", &["ge-army-4", "ge-army-5"], "verdun");
    until_step(&mut g, Side::Ap, false);
    play(&mut g, Side::Ap, 39).expect("They Shall Not Pass");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 6 }).expect("fire");
    g.apply_chance(&Action::Die { face: 1 }).expect("fire");
    take_losses(&mut g);
    assert!(journal_has(&g, "the attacker wins"));
    assert!(journal_has(&g, "A combat card cancels the defenders' retreat"));
    let verdun = sp(&g, "verdun");
    assert!(
        g.pos.units_in(verdun).any(|u| g.data().pieces[u].side == Side::Ap),
        "the French stay in Verdun"
    );
    assert!(!matches!(top(&g), Some(Frame::RetreatUnits { .. })));
    // 2022 12.2.11: the card works the other way round: kept after the Allies lost.
    assert_eq!(g.pos.cards[side_index(Side::Ap)].face_up, vec![39]);
}

#[test]
fn blucher_negates_the_trench_of_nancy_after_h_l_take_command_cp_50() {
    let mut g = position(&[], &[50], &[]);
    cp_attacks(&mut g, "strasbourg", &["ge-army-6"], "nancy");
    assert!(
        matches!(
            top(&g),
            Some(Frame::CombatCards {
                side: Side::Cp,
                early: true
            })
        ),
        "{:?}",
        top(&g)
    );
    refusal_says(
        play(&mut g, Side::Cp, 50),
        "9.5.4, CP #50",
        "only after the event H-L Take Command (#54)",
        "之后使用",
    );
    // H-L Take Command played: its card has left the game (9.5.1.2).
    let i = side_index(Side::Cp);
    g.pos.cards[i].draw.retain(|&n| n != 54);
    g.pos.cards[i].removed.push(54);
    g.touch();
    play(&mut g, Side::Cp, 50).expect("Blucher before the flank attempt");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 4 }).expect("fire");
    g.apply_chance(&Action::Die { face: 4 }).expect("fire");
    // Nancy: clear with a level-1 trench; the attacker reads the column of its strength with
    // no trench shift.
    let data = g.data();
    let t = g.tables();
    let nancy = sp(&g, "nancy");
    let terrain = t.terrain_of(data, nancy);
    let trench = t.trench(1).expect("level 1");
    let cf = data.pieces[unit(&g, "ge-army-6") as usize].full.cf as u32;
    let with = Fire::new(t, Table::Army, cf, terrain.attacker + trench.attacker).label(t);
    let without = Fire::new(t, Table::Army, cf, terrain.attacker).label(t);
    assert_ne!(with, without, "the trench shifts the attacker's column");
    assert!(
        journal_has(&g, &format!("CP fires on the Army table, column {without}, roll 4")),
        "{:?}",
        g.journal(None)
    );
}

#[test]
fn von_hutier_has_the_attacker_fire_first_cp_44() {
    let mut g = eighth_at_przemysl(&[44], &[]);
    cp_attacks(&mut g, "przemysl", &["ge-army-8"], "lublin");
    play(&mut g, Side::Cp, 44).expect("Von Hutier against Russians");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 3 }).expect("the CP's fire");
    // 12.2.7: sequential: the defender takes his losses before he fires.
    assert!(
        matches!(top(&g), Some(Frame::TakeLosses { side: Side::Ap })),
        "{:?}",
        top(&g)
    );
    take_losses(&mut g);
    assert!(matches!(top(&g), Some(Frame::BattleDie { .. })));
    // A `*` card leaves the game whoever wins.
    g.apply_chance(&Action::Die { face: 1 }).expect("the Allies' fire");
    take_losses(&mut g);
    assert!(g.pos.cards[side_index(Side::Cp)].removed.contains(&44));
}

#[test]
fn peace_offensive_costs_a_vp_when_nobody_advances_cp_51() {
    let mut g = eighth_at_przemysl(&[51], &[]);
    let i = side_index(Side::Cp);
    g.pos.cards[i].draw.retain(|&n| n != 54);
    g.pos.cards[i].removed.push(54);
    g.touch();
    let vp = g.pos.vp;
    cp_attacks(&mut g, "przemysl", &["ge-army-8"], "lublin");
    play(&mut g, Side::Cp, 51).expect("Peace Offensive");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 1 }).expect("fire");
    g.apply_chance(&Action::Die { face: 6 }).expect("fire");
    take_losses(&mut g);
    assert!(journal_has(&g, "the defender wins"));
    assert_eq!(g.pos.vp, vp - 1, "no advance: a VP to the Allies");
    assert!(g.pos.cards[i].removed.contains(&51));
}

#[test]
fn defenders_out_of_supply_get_no_combat_card_14_3_4() {
    let mut g = eighth_at_przemysl(&[], &[4]);
    // Lublin cut off: every space around it the CP's, none holding Allied units.
    let lublin = sp(&g, "lublin");
    let around: Vec<Space> = g.data().map.graph.exits(lublin).iter().map(|&(_, n)| n).collect();
    for n in around {
        for u in g.pos.units_in(n).collect::<Vec<_>>() {
            if g.data().pieces[u].side == Side::Ap {
                g.pos.units[u].loc = Location::Aside;
            }
        }
        g.pos.spaces[n.idx()].control = Some(Side::Cp);
    }
    g.touch();
    cp_attacks(&mut g, "przemysl", &["ge-army-8"], "lublin");
    until_step(&mut g, Side::Ap, false);
    refusal_says(play(&mut g, Side::Ap, 4), "14.3.4", "defends out of supply", "缺乏补给");
}

#[test]
fn every_combat_card_has_its_own_text_citing_its_number() {
    let data = common::data();
    let mut n = 0;
    for c in data.cards.iter().filter(|c| c.combat) {
        let t = crate::combat_cards::text(c.side, c.number).unwrap_or_else(|| panic!("no text for {}", c.name_en));
        let tag = format!("#{}", c.number);
        assert!(t.en.contains(&tag) && t.zh.contains(&tag), "{}: {}", c.name_en, t.en);
        assert!(!t.zh.is_empty());
        n += 1;
    }
    assert_eq!(n, 36);
    assert!(crate::combat_cards::text(Side::Ap, 1).is_none());
}

#[test]
fn a_french_attack_plays_phosgene_gas_and_not_pleve_ap_21() {
    let mut g = position(&[], &[], &[4, 21]);
    ap_attacks(&mut g, "nancy", &["fr-army-1"], "strasbourg");
    // The Allies attack: their first step, then (one space: no flank) their second.
    assert!(matches!(
        top(&g),
        Some(Frame::CombatCards {
            side: Side::Ap,
            early: true
        })
    ));
    until_step(&mut g, Side::Ap, false);
    refusal_says(
        play(&mut g, Side::Ap, 4),
        "9.5.4.1.1",
        "a unit of Russia must take part on your side",
        "俄",
    );
    play(&mut g, Side::Ap, 21).expect("Phosgene Gas for a French attack");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 2 }).expect("fire");
    assert!(journal_has(&g, "AP fires on the Army table"));
    assert!(journal_has(&g, "roll 2+1"));
}

#[test]
fn a_combat_card_is_not_played_for_its_event_in_an_action_round_9_5_4_1() {
    let mut g = position(&[], &[3], &[]);
    let r = g.apply(
        CP,
        &Action::Play {
            card: 3,
            with: crate::game::Use::Event,
        },
    );
    refusal_says(r, "9.5.4.1", "is a combat card", "是战斗卡");
    g.apply(
        CP,
        &Action::Play {
            card: 3,
            with: crate::game::Use::Ops,
        },
    )
    .expect("for its OPS it may");
}

/// The German 8th Army in Przemysl; two Russian corps instead of the 5th Army in Lublin.
fn corps_in_lublin(ap: &[u8]) -> PathsOfGlory {
    let mut g = eighth_at_przemysl(&[], ap);
    let lublin = sp(&g, "lublin");
    let ru5 = unit(&g, "ru-army-5");
    g.pos.units[ru5 as usize].loc = Location::Aside;
    for id in ["ru-corps-1", "ru-corps-2"] {
        let u = unit(&g, id);
        g.pos.units[u as usize].loc = Location::Map(lublin);
        g.pos.units[u as usize].full = true;
    }
    g.touch();
    g
}

/// The steps the two Russian corps have left (2 each at full strength).
fn corps_steps(g: &PathsOfGlory) -> usize {
    ["ru-corps-1", "ru-corps-2"]
        .iter()
        .map(|id| {
            let u = g.pos.units[unit(g, id) as usize];
            match u.loc {
                Location::Map(_) => 1 + u.full as usize,
                _ => 0,
            }
        })
        .sum()
}

#[test]
fn withdrawal_gives_back_a_corps_step_and_the_defenders_fall_back_2022_12_6() {
    let mut g = corps_in_lublin(&[6]);
    cp_attacks(&mut g, "przemysl", &["ge-army-8"], "lublin");
    until_step(&mut g, Side::Ap, false);
    play(&mut g, Side::Ap, 6).expect("Withdrawal");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 4 }).expect("the CP's fire");
    g.apply_chance(&Action::Die { face: 1 }).expect("the Russian fire");
    let lost_at_least = 1;
    take_losses(&mut g);
    let n: u8 = g
        .journal(None)
        .iter()
        .find_map(|l| {
            l.text
                .en
                .strip_prefix("AP takes ")
                .and_then(|r| r.split(' ').next())
                .and_then(|x| x.parse().ok())
        })
        .expect("the Allies' losses");
    assert!(n as usize >= lost_at_least, "a step to give back");
    assert!(
        journal_has(&g, "Withdrawal gives back a step of"),
        "{:?}",
        g.journal(None)
    );
    assert_eq!(corps_steps(&g), 4 - n as usize + 1, "one step given back");
    // 12.6.4: the corps left fall back one space.
    assert!(matches!(top(&g), Some(Frame::RetreatUnits { side: Side::Ap })));
    assert!(g
        .legal_list()
        .iter()
        .all(|a| matches!(a, Action::Retreat { route, .. } if route.len() == 1)));
    // A `*` card leaves the game.
    assert!(g.pos.cards[side_index(Side::Ap)].removed.contains(&6));
}

#[test]
fn withdrawal_falls_back_even_when_the_attacker_does_not_win_2022_12_6_4() {
    // The Russian 5th Army with a corps against a reduced German 8th Army.
    let mut g = eighth_at_przemysl(&[], &[6]);
    let (c, lublin, ge8) = (unit(&g, "ru-corps-1"), sp(&g, "lublin"), unit(&g, "ge-army-8"));
    g.pos.units[c as usize].loc = Location::Map(lublin);
    g.pos.units[ge8 as usize].full = false;
    g.touch();
    cp_attacks(&mut g, "przemysl", &["ge-army-8"], "lublin");
    until_step(&mut g, Side::Ap, false);
    play(&mut g, Side::Ap, 6).expect("Withdrawal");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 1 }).expect("the CP's fire");
    g.apply_chance(&Action::Die { face: 6 }).expect("the Russian fire");
    take_losses(&mut g);
    assert!(journal_has(&g, "the defender wins"), "{:?}", g.journal(None));
    assert!(matches!(top(&g), Some(Frame::RetreatUnits { side: Side::Ap })));
}

#[test]
fn wireless_intercepts_turns_a_failed_german_flank_attempt_into_a_success_cp_2() {
    // The Russian 5th Army in an empty clear space of Germany, the German 8th Army and a
    // German corps in two empty spaces next to it; a 3-OPS card (CP #6) activates both.
    let mut g = position(&[], &[2, 6], &[]);
    let data = g.data();
    let t = g.tables();
    let empty = |g: &PathsOfGlory, s: Space| {
        g.pos.units_in(s).next().is_none()
            && data.facts(s).fort == 0
            && data.facts(s).nation.as_deref() == Some("ge")
            && g.pos.space(s).trench.is_none()
    };
    let (target, a, b) = data
        .map
        .graph
        .space_indices()
        .filter(|&s| empty(&g, s) && t.terrain_of(data, s).id == "clear")
        .find_map(|s| {
            let n: Vec<Space> = data
                .map
                .graph
                .exits(s)
                .iter()
                .filter(|&&(c, n)| data.map.features(c) & data.lines.dashed() == 0 && empty(&g, n))
                .map(|&(_, n)| n)
                .collect();
            (n.len() >= 2).then(|| (s, n[0], n[1]))
        })
        .expect("a clear German space with two empty neighbours");
    let (ru5, ge8, corps) = (unit(&g, "ru-army-5"), unit(&g, "ge-army-8"), unit(&g, "ge-corps-2"));
    g.pos.units[ru5 as usize].loc = Location::Map(target);
    g.pos.spaces[target.idx()].control = Some(Side::Ap);
    g.pos.units[ge8 as usize].loc = Location::Map(a);
    g.pos.units[corps as usize].loc = Location::Map(b);
    g.touch();
    let (lublin, prz, second) = (target, a, b);
    g.apply(
        CP,
        &Action::Play {
            card: 6,
            with: crate::game::Use::Ops,
        },
    )
    .expect("OPS");
    for s in [prz, second] {
        g.apply(CP, &Action::Activate { space: s, combat: true })
            .expect("activated");
    }
    if matches!(top(&g), Some(Frame::Activation { .. })) {
        g.apply(CP, &Action::EndActivation).expect("done");
    }
    g.apply(CP, &Action::Target { space: lublin }).expect("target");
    for u in [ge8, corps] {
        g.apply(CP, &Action::Join { unit: u }).expect("joins");
    }
    g.apply(CP, &Action::Resolve).expect("resolve");
    // Before the flank attempt it is not yet playable.
    refusal_says(
        play(&mut g, Side::Cp, 2),
        "12.2.1",
        "only the attacker's cards that negate trenches",
        "无视壕沟",
    );
    g.apply(CP, &Action::EndCombatCards).expect("none yet");
    g.apply(CP, &Action::Flank { pinning: Some(prz) })
        .expect("a flank attempt");
    g.apply_chance(&Action::Die { face: 1 }).expect("the flank roll");
    assert!(journal_has(&g, "the flank attack fails"));
    play(&mut g, Side::Cp, 2).expect("Wireless Intercepts on Russians alone");
    to_dice(&mut g);
    // 12.3.3: as after a success, the attacker fires and the defender takes his losses first.
    g.apply_chance(&Action::Die { face: 3 }).expect("the CP's fire");
    assert!(
        matches!(top(&g), Some(Frame::TakeLosses { side: Side::Ap })),
        "{:?}",
        top(&g)
    );
}

#[test]
fn wireless_intercepts_needs_a_flank_attempt_cp_2() {
    let mut g = eighth_at_przemysl(&[2], &[]);
    cp_attacks(&mut g, "przemysl", &["ge-army-8"], "lublin");
    until_step(&mut g, Side::Cp, false);
    refusal_says(
        play(&mut g, Side::Cp, 2),
        "9.5.4, CP #2",
        "only after a flank attempt in this combat",
        "尝试挟击之后",
    );
}

/// A Turkish corps in Strasbourg in the German 6th Army's place, attacked by the French 1st
/// Army from Nancy.
fn turks_in_strasbourg(cp: &[u8]) -> PathsOfGlory {
    let mut g = position(&[("tu-corps-1", "strasbourg")], cp, &[]);
    let ge6 = unit(&g, "ge-army-6");
    g.pos.units[ge6 as usize].loc = Location::Aside;
    g.touch();
    ap_attacks(&mut g, "nancy", &["fr-army-1"], "strasbourg");
    until_step(&mut g, Side::Cp, false);
    g
}

#[test]
fn kemal_has_turkish_defenders_fire_on_the_army_table_cp_31() {
    let mut g = turks_in_strasbourg(&[31]);
    play(&mut g, Side::Cp, 31).expect("Kemal");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 3 }).expect("fire");
    g.apply_chance(&Action::Die { face: 3 }).expect("fire");
    assert!(journal_has(&g, "CP fires on the Army table"), "{:?}", g.journal(None));
    take_losses(&mut g);
    // One combat a turn: discarded even after a win (9.5.4.2), or after a loss.
    let c = &g.pos.cards[side_index(Side::Cp)];
    assert!(c.discard.contains(&31) && !c.face_up.contains(&31), "{c:?}");
}

#[test]
fn without_kemal_a_turkish_corps_fires_on_the_corps_table() {
    let mut g = turks_in_strasbourg(&[6]);
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 3 }).expect("fire");
    g.apply_chance(&Action::Die { face: 3 }).expect("fire");
    assert!(journal_has(&g, "CP fires on the Corps table"));
}

#[test]
fn turk_determination_gives_a_level_1_trench_cp_60() {
    let mut g = turks_in_strasbourg(&[60]);
    play(&mut g, Side::Cp, 60).expect("Turk Determination where there is no trench");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 3 }).expect("fire");
    let (data, t) = (g.data(), g.tables());
    let s = sp(&g, "strasbourg");
    let terrain = t.terrain_of(data, s);
    let trench = t.trench(1).expect("level 1");
    let cf = data.pieces[unit(&g, "fr-army-1") as usize].full.cf as u32;
    let with = Fire::new(t, Table::Army, cf, terrain.attacker + trench.attacker).label(t);
    let without = Fire::new(t, Table::Army, cf, terrain.attacker).label(t);
    assert_ne!(with, without);
    assert!(
        journal_has(&g, &format!("AP fires on the Army table, column {with}, roll 3")),
        "{:?}",
        g.journal(None)
    );
}

#[test]
fn german_cards_name_their_nationality_and_ground_cp_18_30_62() {
    // Fortified Machine Guns: Germans defending in a trench (Metz has one); Alpenkorps: a
    // German attack into or out of mountains; Achtung Panzer: into clear ground.
    let mut g = position(&[], &[18, 30, 62], &[]);
    ap_attacks(&mut g, "nancy", &["fr-army-1"], "metz");
    until_step(&mut g, Side::Cp, false);
    play(&mut g, Side::Cp, 18).expect("Fortified Machine Guns in Metz's trench");
    refusal_says(
        play(&mut g, Side::Cp, 30),
        "9.5.4, CP #30",
        "is played by the attacker",
        "进攻方",
    );
    let mut g = position(&[], &[30, 62], &[]);
    cp_attacks(&mut g, "mulhouse", &["ge-army-7"], "belfort");
    until_step(&mut g, Side::Cp, false);
    play(&mut g, Side::Cp, 30).expect("Alpenkorps into the mountain of Belfort");
    refusal_says(
        play(&mut g, Side::Cp, 62),
        "9.5.4, CP #62",
        "only against a clear space",
        "开阔区域",
    );
}

#[test]
fn alberich_calls_off_an_allied_attack_in_france_cp_64() {
    // The German 2nd Army in Sedan in the French 5th Army's place; the French 3rd Army attacks
    // it from Verdun with Phosgene Gas (AP #21).
    let mut g = position(&[("ge-army-2", "sedan")], &[64], &[21]);
    let (fr5, sedan) = (unit(&g, "fr-army-5"), sp(&g, "sedan"));
    g.pos.units[fr5 as usize].loc = Location::Aside;
    g.pos.spaces[sedan.idx()].control = Some(Side::Cp);
    g.touch();
    ap_attacks(&mut g, "verdun", &["fr-army-3"], "sedan");
    until_step(&mut g, Side::Ap, false);
    play(&mut g, Side::Ap, 21).expect("Phosgene Gas");
    g.apply(AP, &Action::EndCombatCards).expect("done");
    play(&mut g, Side::Cp, 64).expect("Alberich");
    g.apply(CP, &Action::EndCombatCards).expect("done");
    assert!(journal_has(&g, "The attack is called off"));
    assert!(!journal_has(&g, "fires on the"), "no fire");
    assert!(g.action.battle.is_none());
    let ap = &g.pos.cards[side_index(Side::Ap)];
    assert!(
        ap.hand.contains(&21) && ap.face_up.is_empty(),
        "Phosgene Gas counts as not played: {ap:?}"
    );
    assert!(g.pos.cards[side_index(Side::Cp)].removed.contains(&64));
}

#[test]
fn alberich_only_in_france_or_belgium_cp_64() {
    let mut g = position(&[], &[64], &[]);
    ap_attacks(&mut g, "nancy", &["fr-army-1"], "strasbourg");
    until_step(&mut g, Side::Cp, false);
    refusal_says(
        play(&mut g, Side::Cp, 64),
        "9.5.4, CP #64",
        "only against an Allied attack in France or Belgium",
        "法国或比利时",
    );
}

#[test]
fn maude_needs_british_units_supplied_through_basra_ap_61() {
    // A British corps in Nancy (the French armies' place) is supplied from London by land.
    let mut g = position(&[("br-corps-1", "nancy")], &[], &[61]);
    for id in ["fr-army-1", "fr-army-2"] {
        let u = unit(&g, id);
        g.pos.units[u as usize].loc = Location::Aside;
    }
    g.touch();
    ap_attacks(&mut g, "nancy", &["br-corps-1"], "strasbourg");
    until_step(&mut g, Side::Ap, false);
    refusal_says(
        play(&mut g, Side::Ap, 61),
        "9.5.4, AP #61",
        "only for British units tracing their supply through Basra",
        "巴士拉",
    );
}

#[test]
fn a_british_corps_at_qurna_traces_its_supply_through_basra() {
    use crate::supply::{tracer_of, traces_through, Context};
    let g = position(&[("br-corps-1", "qurna")], &[], &[]);
    let mut pos = g.pos.clone();
    let (qurna, basra, nancy) = (sp(&g, "qurna"), sp(&g, "basra"), sp(&g, "nancy"));
    pos.spaces[qurna.idx()].control = Some(Side::Ap);
    pos.spaces[basra.idx()].control = Some(Side::Ap);
    let t = tracer_of(g.data(), unit(&g, "br-corps-1") as usize);
    let ctx = Context::default();
    assert!(traces_through(g.data(), &pos, t, qurna, basra, &ctx));
    assert!(!traces_through(g.data(), &pos, t, nancy, basra, &ctx));
    // Basra in the CP's hands: no.
    pos.spaces[basra.idx()].control = Some(Side::Cp);
    assert!(!traces_through(g.data(), &pos, t, qurna, basra, &ctx));
}

/// The record of a game marks the play of a card from the hand as an undo barrier (the driver
/// sees a hidden card shown), and "no more cards" as a step that may be undone.
#[test]
fn a_card_played_from_the_hand_cannot_be_undone_but_passing_can() {
    use sandtable_core::record::{ScenarioSource, Session};
    let base = Session::<PathsOfGlory>::new(ScenarioSource::Shipped("campaign".into()), 1).expect("a session");
    let mut s = Session {
        game: eighth_at_przemysl(&[3, 6], &[]),
        record: base.record,
    };
    let (prz, lublin) = (sp(&s.game, "przemysl"), sp(&s.game, "lublin"));
    let ge8 = unit(&s.game, "ge-army-8");
    for a in [
        Action::AutomaticOps,
        Action::Activate {
            space: prz,
            combat: true,
        },
        Action::Target { space: lublin },
        Action::Join { unit: ge8 },
        Action::Resolve,
    ] {
        s.act(CP, &a).expect("legal");
    }
    assert!(!s.act(CP, &Action::EndCombatCards).expect("none before the flank step"));
    assert!(s.can_undo(CP), "passing shows nothing");
    assert!(s.act(CP, &Action::CombatCard { card: 3 }).expect("Von Francois"));
    assert!(!s.can_undo(CP), "the card was shown: no undo across it");
}

#[test]
fn on_equal_loss_numbers_both_sides_discard_12_2_10() {
    let mut g = eighth_at_przemysl(&[3], &[]);
    cp_attacks(&mut g, "przemysl", &["ge-army-8"], "lublin");
    until_step(&mut g, Side::Cp, false);
    play(&mut g, Side::Cp, 3).expect("Von Francois");
    to_dice(&mut g);
    // The CP's roll of 1 (+1) and an Allied roll giving the same loss number.
    let t = g.tables();
    let data = g.data();
    let cp = Fire::new(t, Table::Army, 5, 0).losses(t, 1, 1);
    let ru = data.pieces[unit(&g, "ru-army-5") as usize].full.cf as u32;
    let face = (1..=6u8)
        .find(|&f| Fire::new(t, Table::Army, ru, 0).losses(t, f, 0) == cp)
        .expect("a roll that ties");
    g.apply_chance(&Action::Die { face: 1 }).expect("fire");
    g.apply_chance(&Action::Die { face }).expect("fire");
    take_losses(&mut g);
    assert!(journal_has(&g, "both sides lose"), "{:?}", g.journal(None));
    let c = &g.pos.cards[side_index(Side::Cp)];
    assert!(c.discard.contains(&3) && c.face_up.is_empty(), "{c:?}");
}

#[test]
fn after_withdrawal_a_corps_takes_the_loss_it_can_2022_12_6_9() {
    let mut g = eighth_at_przemysl(&[], &[6]);
    let (c, lublin) = (unit(&g, "ru-corps-1"), sp(&g, "lublin"));
    g.pos.units[c as usize].loc = Location::Map(lublin);
    g.touch();
    cp_attacks(&mut g, "przemysl", &["ge-army-8"], "lublin");
    until_step(&mut g, Side::Ap, false);
    play(&mut g, Side::Ap, 6).expect("Withdrawal");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 6 }).expect("fire");
    g.apply_chance(&Action::Die { face: 1 }).expect("fire");
    assert!(matches!(top(&g), Some(Frame::TakeLosses { side: Side::Ap })));
    let army = unit(&g, "ru-army-5");
    let lose_army = Action::Lose {
        target: crate::game::LossTarget::Unit(army),
    };
    let lose_corps = Action::Lose {
        target: crate::game::LossTarget::Unit(c),
    };
    assert!(!g.legal_list().contains(&lose_army), "{:?}", g.legal_list());
    assert!(g.legal_list().contains(&lose_corps));
    refusal_says(g.apply(AP, &lose_army), "12.6.9", "goes to a corps", "须由军承受");
}

#[test]
fn an_attack_wholly_from_sinai_rolls_three_less_12_2_6() {
    // Turkey at war; a Turkish corps in Sinai attacks a British corps in Port Said.
    let mut g = position(&[("tu-corps-1", "sinai"), ("br-corps-1", "port-said")], &[6], &[]);
    let data = g.data();
    common::setup().enter(data, &mut g.pos, "tu", false, false);
    let (sinai, port_said) = (sp(&g, "sinai"), sp(&g, "port-said"));
    let tu = unit(&g, "tu-corps-1");
    g.pos.units[tu as usize].loc = Location::Map(sinai);
    g.pos.units[tu as usize].full = true;
    g.pos.spaces[sinai.idx()].control = Some(Side::Cp);
    g.pos.spaces[port_said.idx()].control = Some(Side::Ap);
    g.touch();
    cp_attacks(&mut g, "sinai", &["tu-corps-1"], "port-said");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 5 }).expect("fire");
    assert!(journal_has(&g, "roll 5-3"), "{:?}", g.journal(None));
}

/// Puts a card of a side out of the game, as its event played (9.5.1.2).
fn event_played(g: &mut PathsOfGlory, side: Side, n: u8) {
    let c = &mut g.pos.cards[side_index(side)];
    for pile in [&mut c.draw, &mut c.hand, &mut c.discard, &mut c.face_up] {
        pile.retain(|&k| k != n);
    }
    c.removed.push(n);
    g.touch();
}

#[test]
fn backs_to_the_wall_needs_a_british_army_in_france_ap_63() {
    // The BEF army in Sedan in the French 5th Army's place, attacked from Koblenz.
    let mut g = position(&[("br-army-bef", "sedan")], &[], &[63]);
    let fr5 = unit(&g, "fr-army-5");
    g.pos.units[fr5 as usize].loc = Location::Aside;
    g.touch();
    cp_attacks(&mut g, "koblenz", &["ge-army-2", "ge-army-3"], "sedan");
    until_step(&mut g, Side::Ap, false);
    play(&mut g, Side::Ap, 63).expect("Backs to the Wall");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 6 }).expect("fire");
    g.apply_chance(&Action::Die { face: 1 }).expect("fire");
    take_losses(&mut g);
    assert!(journal_has(&g, "the attacker wins"), "{:?}", g.journal(None));
    assert!(journal_has(&g, "A combat card cancels the defenders' retreat"));
    assert!(!matches!(top(&g), Some(Frame::RetreatUnits { .. })));
    // French armies in Verdun: refused.
    let mut g = position(&[], &[], &[63]);
    cp_attacks(&mut g, "metz", &["ge-army-4"], "verdun");
    until_step(&mut g, Side::Ap, false);
    refusal_says(play(&mut g, Side::Ap, 63), "9.5.4.1.1", "Britain", "英");
}

#[test]
fn michael_negates_the_trench_and_adds_one_cp_49() {
    let mut g = position(&[], &[49], &[]);
    event_played(&mut g, Side::Cp, 54);
    cp_attacks(&mut g, "strasbourg", &["ge-army-6"], "nancy");
    play(&mut g, Side::Cp, 49).expect("Michael");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 2 }).expect("fire");
    let (data, t) = (g.data(), g.tables());
    let terrain = t.terrain_of(data, sp(&g, "nancy"));
    let cf = data.pieces[unit(&g, "ge-army-6") as usize].full.cf as u32;
    let without = Fire::new(t, Table::Army, cf, terrain.attacker).label(t);
    assert!(
        journal_has(&g, &format!("CP fires on the Army table, column {without}, roll 2+1")),
        "{:?}",
        g.journal(None)
    );
}

#[test]
fn place_of_execution_between_falkenhayn_and_h_l_take_command_cp_26() {
    let mut g = position(&[], &[26], &[]);
    cp_attacks(&mut g, "metz", &["ge-army-4"], "verdun");
    until_step(&mut g, Side::Cp, false);
    refusal_says(
        play(&mut g, Side::Cp, 26),
        "9.5.4, CP #26",
        "only after the event Falkenhayn (#13)",
        "法金汉",
    );
    event_played(&mut g, Side::Cp, 13);
    event_played(&mut g, Side::Cp, 54);
    refusal_says(
        play(&mut g, Side::Cp, 26),
        "9.5.4, CP #26",
        "not after the event H-L Take Command (#54)",
        "之后不能使用",
    );
    let c = &mut g.pos.cards[side_index(Side::Cp)];
    c.removed.retain(|&n| n != 54);
    g.touch();
    play(&mut g, Side::Cp, 26).expect("Place of Execution on Verdun, a French fort space");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 3 }).expect("fire");
    assert!(journal_has(&g, "roll 3+2"));
}

#[test]
fn british_trench_cards_mine_attack_and_royal_tank_corps_ap_36_48() {
    // A British corps in Nancy (the French armies' place) attacks Metz and its trench.
    let mut g = position(&[("br-corps-1", "nancy")], &[], &[36, 48]);
    for id in ["fr-army-1", "fr-army-2"] {
        let u = unit(&g, id);
        g.pos.units[u as usize].loc = Location::Aside;
    }
    g.touch();
    ap_attacks(&mut g, "nancy", &["br-corps-1"], "metz");
    refusal_says(
        play(&mut g, Side::Ap, 48),
        "9.5.4, AP #48",
        "only after the event Landships (#28)",
        "陆地战舰",
    );
    event_played(&mut g, Side::Ap, 28);
    refusal_says(
        play(&mut g, Side::Ap, 48),
        "9.5.4, AP #48",
        "only against a clear space of France or Belgium",
        "法国或比利时",
    );
    until_step(&mut g, Side::Ap, false);
    play(&mut g, Side::Ap, 36).expect("Mine Attack on Metz's trench");
    to_dice(&mut g);
    g.apply_chance(&Action::Die { face: 4 }).expect("fire");
    g.apply_chance(&Action::Die { face: 4 }).expect("fire");
    assert!(journal_has(&g, "roll 4+1"));
    take_losses(&mut g);
    // One combat a turn: discarded whoever won (9.5.4.2).
    let c = &g.pos.cards[side_index(Side::Ap)];
    assert!(c.discard.contains(&36) && c.face_up.is_empty(), "{c:?}");
}

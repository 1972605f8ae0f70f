//! 9.5 The events of the front, played through the driver from a seat's hand on the August 1914
//! set-up: activation costs (Moltke, Falkenhayn, SUD Army, 11th Army, Everyone Into Battle), the
//! events other cards wait for (H-L Take Command, Landships, Sinai Pipeline), attacks barred or
//! helped (Oberost, Lloyd George, Brusilov Offensive, Yanks and Tanks, Kerensky Offensive, Great
//! Retreat), and the cards that see the other hand (Mata Hari, Cloak and Dagger).

use super::common;

use crate::game::{Action, Frame, PathsOfGlory, Use, AP, CP};
use crate::offensives::Offensive;
use crate::state::{side_index, Fort, Location, Trench};
use crate::{Nation, Side};
use sandtable_core::driver::{revealed, Rules};
use sandtable_core::game::{Game, Refusal, Seat};
use sandtable_core::graph::Space;

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

fn top(g: &PathsOfGlory) -> Option<Frame> {
    g.frames().last().cloned()
}

fn journal_has(g: &PathsOfGlory, who: Option<Seat>, words: &str) -> bool {
    g.journal(who).iter().any(|l| l.text.en.contains(words))
}

/// The first action round of August 1914 (campaign) with the hands emptied but for the cards
/// given, and `moves` made to the map (counter, space id).
fn game(cp: &[u8], ap: &[u8], moves: &[(&str, &str)]) -> PathsOfGlory {
    let mut g = common::first_round();
    for (side, cards) in [(Side::Cp, cp), (Side::Ap, ap)] {
        let c = &mut g.pos.cards[side_index(side)];
        let hand = std::mem::take(&mut c.hand);
        c.draw.extend(hand);
        c.draw.sort();
        for &n in cards {
            common::give(&mut g, side, n);
        }
    }
    for (u, s) in moves {
        let (u, s) = (unit(&g, u), sp(&g, s));
        g.pos.units[u as usize].loc = Location::Map(s);
    }
    g.touch();
    g
}

/// A space taken by the CP in a test's position: its control, and its fort destroyed.
fn take(g: &mut PathsOfGlory, id: &str) {
    let s = sp(g, id);
    g.pos.spaces[s.idx()].control = Some(Side::Cp);
    if g.data().facts(s).fort > 0 {
        g.pos.spaces[s.idx()].fort = Fort::Destroyed;
    }
    g.touch();
}

fn event(card: u8) -> Action {
    Action::Play { card, with: Use::Event }
}

/// The side whose action round it is passes it: an Automatic Operation activating nothing.
fn pass(g: &mut PathsOfGlory, side: Side) {
    g.apply(seat(side), &Action::AutomaticOps).expect("auto ops");
    g.apply(seat(side), &Action::EndActivation).expect("nothing activated");
}

/// Plays a card's event from the hand; for the Allies the CP passes its round first.
fn play_event(g: &mut PathsOfGlory, side: Side, card: u8) -> Result<(), Refusal> {
    if side == Side::Ap && matches!(top(g), Some(Frame::Round { side: Side::Cp, .. })) {
        pass(g, Side::Cp);
    }
    g.apply(seat(side), &event(card))
}

/// The OPS left on the Activation frame on top.
fn ops_left(g: &PathsOfGlory) -> Option<u8> {
    match top(g) {
        Some(Frame::Activation { ops, .. }) => Some(ops),
        _ => None,
    }
}

/// Activates a space with `ops` OPS from an Activation frame the side has on top, and gives the
/// OPS left (None when the activation used them all).
fn activate(g: &mut PathsOfGlory, side: Side, id: &str, combat: bool) -> Result<Option<u8>, Refusal> {
    let space = sp(g, id);
    g.apply(seat(side), &Action::Activate { space, combat })?;
    Ok(ops_left(g))
}

/// The side plays a card of 4 OPS from its hand for OPS (CP #9 Reichstag Truce, AP #1 British
/// Reinforcements).
fn four_ops(g: &mut PathsOfGlory, side: Side) {
    let card = if side == Side::Cp { 9 } else { 1 };
    common::give(g, side, card);
    let ops = g.data().card(side, card).expect("a card").ops;
    assert_eq!(ops, 4, "card {card} gives 4 OPS");
    g.apply(seat(side), &Action::Play { card, with: Use::Ops })
        .expect("OPS");
}

// ---- Activation ----

#[test]
fn moltke_makes_cp_activation_in_belgium_cost_a_unit_until_falkenhayn() {
    let mut g = game(&[13], &[9], &[("ge-army-1", "liege"), ("ge-army-2", "liege")]);
    take(&mut g, "liege");
    let before = g.clone();
    play_event(&mut g, Side::Ap, 9).expect("Moltke in August 1914");
    assert!(g.pos.cards[side_index(Side::Ap)].removed.contains(&9));
    // Round 2: two German armies in Liege cost 2 OPS now, 1 without Moltke.
    four_ops(&mut g, Side::Cp);
    assert_eq!(activate(&mut g, Side::Cp, "liege", false).unwrap(), Some(2));
    let mut b = before;
    pass(&mut b, Side::Cp);
    pass(&mut b, Side::Ap);
    four_ops(&mut b, Side::Cp);
    assert_eq!(activate(&mut b, Side::Cp, "liege", false).unwrap(), Some(3));
    // A space of Germany is not touched: Metz's two German armies cost 1.
    assert_eq!(activate(&mut g, Side::Cp, "metz", false).unwrap(), Some(1));
    // Falkenhayn ends it.
    let mut f = game(&[13], &[9], &[("ge-army-1", "liege"), ("ge-army-2", "liege")]);
    take(&mut f, "liege");
    play_event(&mut f, Side::Ap, 9).expect("Moltke");
    play_event(&mut f, Side::Cp, 13).expect("Falkenhayn after Moltke");
    assert_eq!(f.pos.war_status[side_index(Side::Cp)], 2, "Falkenhayn's War Status 2");
    pass(&mut f, Side::Ap);
    four_ops(&mut f, Side::Cp);
    assert_eq!(activate(&mut f, Side::Cp, "liege", false).unwrap(), Some(3));
}

#[test]
fn moltke_only_in_august_or_september_1914() {
    let mut g = game(&[], &[9], &[]);
    g.pos.turn = 3;
    pass(&mut g, Side::Cp);
    let r = g.check_action(AP, &event(9)).expect_err("Fall 1914");
    assert_eq!(r.rule, "AP #9", "{r:?}");
    assert!(!g.legal_list().contains(&event(9)));
}

#[test]
fn falkenhayn_waits_for_moltke_in_1914_summer_but_not_from_fall() {
    let g = game(&[13], &[], &[]);
    let r = g.check_action(CP, &event(13)).expect_err("no Moltke yet");
    assert_eq!(r.rule, "CP #13", "{r:?}");
    let mut fall = game(&[13], &[], &[]);
    fall.pos.turn = 3;
    fall.touch();
    fall.apply(CP, &event(13)).expect("from Fall 1914");
}

#[test]
fn sud_army_joins_one_ah_and_german_corps_stack_an_action_round() {
    let moves = [("ge-corps-3", "cracow"), ("ge-corps-2", "tarnow")];
    let mut g = game(&[10], &[], &moves);
    let mut before = g.clone();
    g.apply(CP, &event(10)).expect("SUD Army");
    pass(&mut g, Side::Ap);
    four_ops(&mut g, Side::Cp);
    assert_eq!(
        activate(&mut g, Side::Cp, "cracow", false).unwrap(),
        Some(3),
        "one nationality"
    );
    // A second stack in the same action pays for both nationalities.
    assert_eq!(activate(&mut g, Side::Cp, "tarnow", false).unwrap(), Some(1));
    // Without the event, two nationalities.
    four_ops(&mut before, Side::Cp);
    assert_eq!(activate(&mut before, Side::Cp, "cracow", false).unwrap(), Some(2));
}

#[test]
fn the_11th_army_activates_with_the_cp_corps_in_its_space() {
    let moves = [("ge-army-11", "cracow")];
    let mut g = game(&[29], &[], &moves);
    let mut before = g.clone();
    g.apply(CP, &event(29)).expect("11th Army");
    pass(&mut g, Side::Ap);
    four_ops(&mut g, Side::Cp);
    assert_eq!(activate(&mut g, Side::Cp, "cracow", true).unwrap(), Some(3));
    four_ops(&mut before, Side::Cp);
    assert_eq!(activate(&mut before, Side::Cp, "cracow", true).unwrap(), Some(2));
}

#[test]
fn everyone_into_battle_waits_for_a_german_offensive_then_joins_the_allies_in_belgium() {
    let moves = [("fr-army-5", "brussels")];
    let mut g = game(&[], &[51], &moves);
    pass(&mut g, Side::Cp);
    let r = g.check_action(AP, &event(51)).expect_err("no Michael yet");
    assert_eq!(r.rule, "AP #51", "{r:?}");
    let mut before = g.clone();
    // Michael (CP #49) has been played: it is out of the game.
    g.pos.cards[side_index(Side::Cp)].draw.retain(|&n| n != 49);
    g.pos.cards[side_index(Side::Cp)].removed.push(49);
    g.touch();
    g.apply(AP, &event(51)).expect("Everyone Into Battle");
    assert!(g.turn.everyone_into_battle);
    // Next round the BEF and the French 5th Army in Brussels cost 1, not 2.
    pass(&mut g, Side::Cp);
    four_ops(&mut g, Side::Ap);
    assert_eq!(activate(&mut g, Side::Ap, "brussels", false).unwrap(), Some(3));
    four_ops(&mut before, Side::Ap);
    assert_eq!(activate(&mut before, Side::Ap, "brussels", false).unwrap(), Some(2));
}

// ---- The events other cards wait for ----

#[test]
fn hl_take_command_cancels_a_german_offensive_and_lets_michael_be_played() {
    let mut g = game(&[54, 49], &[], &[]);
    g.turn.offensive[side_index(Side::Cp)] = Some(Offensive::Nation(Nation::Ge));
    let mut before = g.clone();
    g.apply(CP, &event(54)).expect("H-L Take Command");
    assert_eq!(g.turn.offensive[side_index(Side::Cp)], Some(Offensive::None), "7.1.10");
    assert_eq!(g.pos.war_status[side_index(Side::Cp)], 2);
    pass(&mut g, Side::Ap);
    // Round 2: a German attack from Metz on Nancy; Michael is offered before the flank attempt.
    for h in [&mut g, &mut before] {
        h.apply(CP, &Action::AutomaticOps).expect("auto");
        let (metz, nancy) = (sp(h, "metz"), sp(h, "nancy"));
        h.apply(
            CP,
            &Action::Activate {
                space: metz,
                combat: true,
            },
        )
        .expect("Metz");
        h.apply(CP, &Action::Target { space: nancy }).expect("Nancy");
        let a = unit(h, "ge-army-4");
        h.apply(CP, &Action::Join { unit: a }).expect("joins");
        h.apply(CP, &Action::Resolve).expect("resolve");
        assert!(matches!(
            top(h),
            Some(Frame::CombatCards {
                side: Side::Cp,
                early: true
            })
        ));
    }
    assert!(
        g.legal_list().contains(&Action::CombatCard { card: 49 }),
        "Michael after H-L"
    );
    let r = before
        .check_action(CP, &Action::CombatCard { card: 49 })
        .expect_err("Michael before H-L");
    assert!(
        r.message(sandtable_core::text::Lang::En).contains("H-L Take Command"),
        "{r:?}"
    );
}

#[test]
fn landships_lets_royal_tank_corps_be_played_and_gives_its_ops_in_the_historical_scenario() {
    let mut g = game(&[], &[28, 48], &[("ge-army-1", "liege")]);
    take(&mut g, "liege");
    let before = g.clone();
    play_event(&mut g, Side::Ap, 28).expect("Landships");
    assert!(g.pos.cards[side_index(Side::Ap)].removed.contains(&28));
    // 5.7.4.7 holds in the Historical scenario only: no OPS in the campaign.
    assert!(matches!(
        top(&g),
        Some(Frame::Round {
            side: Side::Cp,
            round: 2
        })
    ));
    let mut hist = before.clone();
    hist.scenario.historical = true;
    hist.touch();
    play_event(&mut hist, Side::Ap, 28).expect("Landships");
    assert_eq!(ops_left(&hist), Some(4), "the card's 4 OPS after the event");
    assert!(matches!(top(&hist), Some(Frame::Activation { side: Side::Ap, .. })));
    // Royal Tank Corps: a British attack on clear Liege, in Belgium.
    let bef = unit(&g, "br-army-bef");
    let (brussels, liege) = (sp(&hist, "brussels"), sp(&hist, "liege"));
    hist.apply(
        AP,
        &Action::Activate {
            space: brussels,
            combat: true,
        },
    )
    .expect("Brussels");
    hist.apply(AP, &Action::EndActivation).expect("no more");
    hist.apply(AP, &Action::Target { space: liege }).expect("Liege");
    hist.apply(AP, &Action::Join { unit: bef }).expect("joins");
    hist.apply(AP, &Action::Resolve).expect("resolve");
    assert!(matches!(
        top(&hist),
        Some(Frame::CombatCards {
            side: Side::Ap,
            early: true
        })
    ));
    hist.apply(AP, &Action::CombatCard { card: 48 })
        .expect("Royal Tank Corps after Landships");
}

#[test]
fn sinai_pipeline_is_played_and_leaves_the_game() {
    let mut g = game(&[], &[49], &[]);
    play_event(&mut g, Side::Ap, 49).expect("Sinai Pipeline");
    assert!(g.pos.cards[side_index(Side::Ap)].removed.contains(&49));
    assert!(journal_has(&g, None, "Allenby may be played"));
}

// ---- Attacks barred or helped ----

#[test]
fn oberost_lets_the_germans_attack_a_russian_fort_15_1_10() {
    let mut g = game(&[11], &[], &[]);
    let mut before = g.clone();
    g.apply(CP, &event(11)).expect("Oberost");
    assert_eq!(g.pos.war_status[side_index(Side::Cp)], 1);
    pass(&mut g, Side::Ap);
    let kovno = sp(&g, "kovno");
    for h in [&mut g, &mut before] {
        h.apply(CP, &Action::AutomaticOps).expect("auto");
        let insterberg = sp(h, "insterberg");
        h.apply(
            CP,
            &Action::Activate {
                space: insterberg,
                combat: true,
            },
        )
        .expect("Insterberg");
    }
    let r = before
        .check_action(CP, &Action::Target { space: kovno })
        .expect_err("a Russian fort");
    assert_eq!(r.rule, "15.1.10");
    g.apply(CP, &Action::Target { space: kovno }).expect("after Oberost");
}

/// Liege held by the CP with the German 1st Army in a level-2 trench, the BEF next to it in
/// Brussels, `cards` in the CP hand.
fn liege_entrenched(cp: &[u8]) -> PathsOfGlory {
    let mut g = game(cp, &[], &[("ge-army-1", "liege")]);
    take(&mut g, "liege");
    let liege = sp(&g, "liege");
    g.pos.spaces[liege.idx()].trench = Some(Trench {
        side: Side::Cp,
        level: 2,
    });
    g.touch();
    g
}

#[test]
fn lloyd_george_bars_british_attacks_on_germans_in_a_level_2_trench() {
    let mut g = liege_entrenched(&[55]);
    let mut without = g.clone();
    g.apply(CP, &event(55)).expect("Lloyd George");
    assert!(g.turn.lloyd_george);
    pass(&mut without, Side::Cp);
    let liege = sp(&g, "liege");
    for h in [&mut g, &mut without] {
        h.apply(AP, &Action::AutomaticOps).expect("auto");
        let brussels = sp(h, "brussels");
        h.apply(
            AP,
            &Action::Activate {
                space: brussels,
                combat: true,
            },
        )
        .expect("Brussels");
    }
    let mut michael = g.clone();
    let r = g
        .check_action(AP, &Action::Target { space: liege })
        .expect_err("Lloyd George");
    assert_eq!(r.rule, "CP #55", "{r:?}");
    without.apply(AP, &Action::Target { space: liege }).expect("no event");
    // Michael played cancels it.
    michael.pos.cards[side_index(Side::Cp)].removed.push(49);
    michael.pos.cards[side_index(Side::Cp)].draw.retain(|&n| n != 49);
    michael.touch();
    michael
        .apply(AP, &Action::Target { space: liege })
        .expect("after Michael");
}

/// The Allies attack `target` from `from` with `units` in the Activation frame on top, and
/// resolve.
fn ap_attack(g: &mut PathsOfGlory, from: &str, units: &[&str], target: &str) {
    let (from, target) = (sp(g, from), sp(g, target));
    g.apply(
        AP,
        &Action::Activate {
            space: from,
            combat: true,
        },
    )
    .expect("activated");
    if matches!(top(g), Some(Frame::Activation { .. })) {
        g.apply(AP, &Action::EndActivation).expect("end");
    }
    g.apply(AP, &Action::Target { space: target }).expect("target");
    for u in units {
        let u = unit(g, u);
        g.apply(AP, &Action::Join { unit: u }).expect("joins");
    }
    g.apply(AP, &Action::Resolve).expect("resolve");
}

#[test]
fn brusilov_offensive_gives_its_ops_and_helps_every_russian_attack() {
    let mut g = game(&[], &[46], &[]);
    play_event(&mut g, Side::Ap, 46).expect("Brusilov Offensive");
    assert_eq!(g.pos.war_status[side_index(Side::Ap)], 2);
    assert_eq!(ops_left(&g), Some(4), "conduct operations with the card");
    // Kovno's 1st Army on the Germans in Insterberg: +1, the trench stands (Germans).
    ap_attack(&mut g, "kovno", &["ru-army-1"], "insterberg");
    let b = g.action.battle.clone().expect("a battle");
    assert_eq!(b.event_drm[side_index(Side::Ap)], 1);
    assert!(!b.event_trench_negated);
    assert!(journal_has(&g, None, "Brusilov Offensive: +1"));
}

#[test]
fn brusilov_offensive_negates_the_trench_of_an_attack_on_non_germans() {
    let mut g = game(&[], &[46], &[]);
    play_event(&mut g, Side::Ap, 46).expect("Brusilov Offensive");
    ap_attack(&mut g, "dubno", &["ru-army-3"], "tarnopol");
    let b = g.action.battle.clone().expect("a battle");
    assert_eq!(b.event_drm[side_index(Side::Ap)], 1);
    assert!(b.event_trench_negated, "Austro-Hungarians alone");
    assert!(!g.action.brusilov_trench, "used once");
}

#[test]
fn yanks_and_tanks_adds_2_to_an_attack_with_americans() {
    let mut g = game(&[], &[35], &[("ge-army-1", "liege"), ("us-corps-1", "brussels")]);
    take(&mut g, "liege");
    play_event(&mut g, Side::Ap, 35).expect("Yanks and Tanks");
    assert_eq!(ops_left(&g), Some(4));
    ap_attack(&mut g, "brussels", &["us-corps-1"], "liege");
    let b = g.action.battle.clone().expect("a battle");
    assert_eq!(b.event_drm[side_index(Side::Ap)], 2);
}

#[test]
fn kerensky_offensive_between_the_fall_of_the_tsar_and_the_bolshevik_revolution() {
    let mut g = game(&[], &[45], &[]);
    pass(&mut g, Side::Cp);
    let r = g.check_action(AP, &event(45)).expect_err("the Tsar reigns");
    assert_eq!(r.rule, "AP #45");
    g.pos.cards[side_index(Side::Cp)].removed.push(52);
    g.pos.cards[side_index(Side::Cp)].draw.retain(|&n| n != 52);
    g.touch();
    let mut late = g.clone();
    late.pos.cards[side_index(Side::Cp)].removed.push(53);
    late.pos.cards[side_index(Side::Cp)].draw.retain(|&n| n != 53);
    late.touch();
    let r = late.check_action(AP, &event(45)).expect_err("after the revolution");
    assert_eq!(r.rule, "AP #45");
    g.apply(AP, &event(45)).expect("Kerensky Offensive");
    assert_eq!(ops_left(&g), Some(3));
    ap_attack(&mut g, "dubno", &["ru-army-3"], "tarnopol");
    let b = g.action.battle.clone().expect("a battle");
    assert_eq!(b.event_drm[side_index(Side::Ap)], 2, "on Austro-Hungarians");
    assert!(!g.action.kerensky, "one attack only");
}

/// A space next to Insterberg without a fort (Memel), with a Russian corps in it, Allied.
fn russian_next_to_insterberg(g: &mut PathsOfGlory) -> Space {
    let insterberg = sp(g, "insterberg");
    let data = g.data();
    let s = data
        .map
        .graph
        .exits(insterberg)
        .iter()
        .map(|&(_, n)| n)
        .find(|&n| data.facts(n).fort == 0 && g.pos.units_in(n).next().is_none())
        .expect("an empty space next to Insterberg");
    let c = unit(g, "ru-corps-1");
    g.pos.units[c as usize].loc = Location::Map(s);
    g.pos.spaces[s.idx()].control = Some(Side::Ap);
    g.touch();
    s
}

fn cp_attack_from_insterberg(g: &mut PathsOfGlory, target: Space) {
    g.apply(CP, &Action::AutomaticOps).expect("auto");
    let insterberg = sp(g, "insterberg");
    g.apply(
        CP,
        &Action::Activate {
            space: insterberg,
            combat: true,
        },
    )
    .expect("Insterberg");
    g.apply(CP, &Action::Target { space: target }).expect("target");
    let a = unit(g, "ge-army-8");
    g.apply(CP, &Action::Join { unit: a }).expect("joins");
    g.apply(CP, &Action::Resolve).expect("resolve");
}

#[test]
fn great_retreat_lets_the_russians_fall_back_before_the_combat() {
    // The CP holds a card, so that its combat-card step is asked (12.2.5).
    let mut g = game(&[3], &[27], &[]);
    let target = russian_next_to_insterberg(&mut g);
    let mut without = g.clone();
    play_event(&mut g, Side::Ap, 27).expect("Great Retreat");
    assert!(g.turn.great_retreat);
    let mut stand = g.clone();
    cp_attack_from_insterberg(&mut g, target);
    assert!(matches!(top(&g), Some(Frame::GreatRetreat { side: Side::Ap })));
    g.apply(AP, &Action::GreatRetreat { retreat: true }).expect("fall back");
    // The corps retreats one space; no fire.
    while let Some(Frame::RetreatUnits { .. }) = top(&g) {
        let a = g.legal_list().first().cloned().expect("a retreat");
        if let Action::Retreat { route, .. } = &a {
            assert_eq!(route.len(), 1, "one space");
        }
        g.apply(AP, &a).expect("retreat");
    }
    let corps = unit(&g, "ru-corps-1");
    assert_ne!(g.pos.units[corps as usize].loc, Location::Map(target));
    assert!(!journal_has(&g, None, "fires on"), "no combat");
    // Standing: the combat goes on to the combat cards.
    pass(&mut stand, Side::Cp);
    pass(&mut stand, Side::Ap);
    cp_attack_from_insterberg(&mut stand, target);
    stand
        .apply(AP, &Action::GreatRetreat { retreat: false })
        .expect("stand");
    assert!(matches!(
        top(&stand),
        Some(Frame::CombatCards {
            side: Side::Cp,
            early: true
        })
    ));
    // Without the event, no such choice.
    cp_attack_from_insterberg(&mut without, target);
    assert!(matches!(
        top(&without),
        Some(Frame::CombatCards {
            side: Side::Cp,
            early: true
        })
    ));
    let r = without
        .check_action(AP, &Action::GreatRetreat { retreat: true })
        .expect_err("not offered");
    assert!(!r.rule.is_empty());
}

// ---- Seeing the other hand ----

#[test]
fn mata_hari_shows_the_allied_hand_to_the_cp_only_then_gives_its_ops() {
    let mut g = game(&[17], &[2, 4, 9], &[]);
    let hidden = g.hidden();
    g.apply(CP, &event(17)).expect("Mata Hari");
    assert_eq!(ops_left(&g), Some(2), "conduct operations with the card");
    let names: Vec<String> = [2u8, 4, 9]
        .iter()
        .map(|&n| g.data().card(Side::Ap, n).expect("a card").name_en.clone())
        .collect();
    for n in &names {
        assert!(journal_has(&g, Some(CP), n), "the CP reads {n}");
        assert!(!journal_has(&g, None, n), "a spectator does not read {n}");
    }
    assert!(journal_has(&g, None, "sees the 3 card(s) of the AP hand"));
    // The Allied cards are shown to the CP: nobody undoes back across it.
    assert!(revealed(&hidden, &g.hidden()));
    // The CP's hand panel shows them apart, marked seen; the Allies' own shows nothing of it.
    let seen: Vec<String> = g.hand(CP).into_iter().filter(|c| c.seen).map(|c| c.name.en).collect();
    assert_eq!(seen.len(), 3, "{seen:?}");
    for n in &names {
        assert!(seen.iter().any(|s| s.contains(n.as_str())), "{n} in {seen:?}");
    }
    assert!(g.hand(AP).iter().all(|c| !c.seen));
    // A card seen that leaves the hand is no longer shown.
    let ap = &mut g.pos.cards[side_index(Side::Ap)];
    ap.hand.retain(|&n| n != 2);
    ap.discard.push(2);
    assert_eq!(g.hand(CP).iter().filter(|c| c.seen).count(), 2);
}

#[test]
fn cloak_and_dagger_shows_the_cp_hand_to_the_allies() {
    let mut g = game(&[3, 15], &[23], &[]);
    play_event(&mut g, Side::Ap, 23).expect("Cloak and Dagger");
    assert_eq!(ops_left(&g), Some(2));
    let n = g.data().card(Side::Cp, 15).expect("a card").name_en.clone();
    assert!(journal_has(&g, Some(AP), &n));
    assert!(!journal_has(&g, None, &n));
    assert!(
        !journal_has(&g, Some(CP), "The CP hand: "),
        "the CP is not told its own hand"
    );
}

#[test]
fn every_event_of_the_front_has_its_text_in_both_languages() {
    for (side, n) in [
        (Side::Ap, 9),
        (Side::Cp, 13),
        (Side::Cp, 10),
        (Side::Cp, 29),
        (Side::Ap, 51),
        (Side::Cp, 54),
        (Side::Ap, 28),
        (Side::Ap, 49),
        (Side::Cp, 11),
        (Side::Cp, 55),
        (Side::Ap, 46),
        (Side::Ap, 35),
        (Side::Ap, 45),
        (Side::Ap, 27),
        (Side::Cp, 17),
        (Side::Ap, 23),
    ] {
        let t = crate::events::text(common::data(), side, n).unwrap_or_else(|| panic!("{side:?} #{n}"));
        assert!(t.en.contains(&format!("#{n}")) && !t.zh.is_empty(), "{side:?} #{n}");
    }
}

/// The Russian 1st Army in Kovno may attack the Germans in Insterberg, which have a trench.
fn insterberg_entrenched(cp: &[u8]) -> PathsOfGlory {
    let mut g = game(cp, &[], &[]);
    let insterberg = sp(&g, "insterberg");
    g.pos.spaces[insterberg.idx()].trench = Some(Trench {
        side: Side::Cp,
        level: 1,
    });
    g.touch();
    g
}

fn ap_targets(g: &mut PathsOfGlory, from: &str, target: &str) -> Result<(), Refusal> {
    g.apply(AP, &Action::AutomaticOps).expect("auto");
    let (from, target) = (sp(g, from), sp(g, target));
    g.apply(
        AP,
        &Action::Activate {
            space: from,
            combat: true,
        },
    )
    .expect("activated");
    g.apply(AP, &Action::Target { space: target })
}

#[test]
fn stavka_timidity_waits_for_the_tsar_then_bars_russian_attacks_on_entrenched_germans() {
    let mut g = insterberg_entrenched(&[58]);
    let r = g
        .check_action(CP, &event(58))
        .expect_err("the Tsar has not taken command");
    assert_eq!(r.rule, "CP #58");
    g.pos.cards[side_index(Side::Cp)].removed.push(28);
    g.pos.cards[side_index(Side::Cp)].draw.retain(|&n| n != 28);
    g.touch();
    let mut without = g.clone();
    g.apply(CP, &event(58)).expect("Stavka Timidity");
    assert!(g.turn.stavka_timidity);
    assert!(
        !g.pos.cards[side_index(Side::Cp)].removed.contains(&58),
        "not a * card: discarded"
    );
    let mut mixed = g.clone();
    let r = ap_targets(&mut g, "kovno", "insterberg").expect_err("Germans alone in a trench");
    assert_eq!(r.rule, "CP #58", "{r:?}");
    pass(&mut without, Side::Cp);
    ap_targets(&mut without, "kovno", "insterberg").expect("no event");
    // A mixed CP stack may be attacked.
    let ah = unit(&mixed, "ah-corps-1");
    let insterberg = sp(&mixed, "insterberg");
    mixed.pos.units[ah as usize].loc = Location::Map(insterberg);
    mixed.touch();
    ap_targets(&mut mixed, "kovno", "insterberg").expect("Austro-Hungarians with them");
}

#[test]
fn haig_keeps_entrenched_germans_from_retreating_before_a_british_attack() {
    let mut g = liege_entrenched(&[61]);
    g.apply(CP, &event(61)).expect("Haig");
    assert!(g.turn.haig);
    let mut michael = g.clone();
    michael.pos.cards[side_index(Side::Cp)].removed.push(49);
    michael.pos.cards[side_index(Side::Cp)].draw.retain(|&n| n != 49);
    michael.touch();
    for h in [&mut g, &mut michael] {
        h.apply(AP, &Action::AutomaticOps).expect("auto");
        ap_attack(h, "brussels", &["br-army-bef"], "liege");
    }
    let b = g.action.battle.clone().expect("a battle");
    assert!(b.event_no_retreat);
    assert!(crate::combat_cards::effects(&b).no_retreat);
    let b = michael.action.battle.clone().expect("a battle");
    assert!(!b.event_no_retreat, "no effect after Michael");
}

#[test]
fn the_state_of_a_game_without_these_events_is_written_as_before() {
    // Saves check a checksum of the state after each step: the records of the front's events
    // are not written while unset, so a game that never played them hashes as it did.
    let g = game(&[], &[], &[]);
    let turn = serde_json::to_value(&g.turn).expect("the turn");
    let action = serde_json::to_value(&g.action).expect("the action");
    for key in ["everyone_into_battle", "lloyd_george", "great_retreat", "seen", "haig"] {
        assert!(turn.get(key).is_none(), "{key} in {turn}");
    }
    for key in ["brusilov", "yanks_and_tanks", "kerensky"] {
        assert!(action.get(key).is_none(), "{key} in {action}");
    }
    let mut played = g.clone();
    played.turn.great_retreat = true;
    assert_ne!(played.checksum(), g.checksum(), "a record set counts");
}

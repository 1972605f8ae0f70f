//! 12.0 Combat: the Fire Tables read as the rulebook's worked examples read them, the terrain
//! and trench shifts, the winner and the retreat length, and losses taken as 12.4 requires
//! (the rulebook's 12.4.3 and 12.4.4.2 examples, the 12.4.5 loss order, the fort of 12.4.6),
//! with a property test that any allocation the rules allow meets the most that can be met.

use super::common;

use crate::combat::{
    flank_drm, flank_succeeds, may_flank, retreat_length, shifts, sinai_drm, winner, Attack, Fire, Table, Winner,
};
use crate::losses::{Fate, Loser, Losses, Pool, ReserveCorps, Target};
use crate::state::Location;
use crate::tables::{Outcome, Tables};
use crate::Side;
use common::{data, sp, start, unit};
use proptest::prelude::*;
use sandtable_core::graph::Space;
use std::sync::OnceLock;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::load().expect("the shipped tables load"))
}

/// The loss number a strength reads on a table for a die, with no shift or modifier.
fn read(table: Table, strength: u32, die: u8) -> u8 {
    Fire::new(tables(), table, strength, 0).losses(tables(), die, 0)
}

/// The rulebook's worked combat examples (2022 edition, 12.2) read off the Fire Tables.
#[test]
fn the_rulebooks_examples_read_the_fire_tables_12_2_8() {
    // An army attack of 15 that rolls 2 inflicts 5.
    assert_eq!(read(Table::Army, 15, 2), 5);
    // A defence of 3 with an army in it, rolling 3, inflicts 2.
    assert_eq!(read(Table::Army, 3, 3), 2);
    // The 6–8 column: a 3 and a 4 both inflict 4.
    assert_eq!(read(Table::Army, 7, 3), 4);
    assert_eq!(read(Table::Army, 8, 4), 4);
    assert_eq!(Fire::new(tables(), Table::Army, 6, 0).label(tables()), "6-8");
    // The 12–14 column rolling 6 inflicts 7 (no loss number is ever 6).
    assert_eq!(read(Table::Army, 13, 6), 7);
    // A corps alone (strength 1) rolling 4 inflicts 1.
    assert_eq!(read(Table::Corps, 1, 4), 1);
}

#[test]
fn the_fire_table_is_chosen_by_the_firing_units_and_the_roll_is_kept_between_1_and_6_12_2_7() {
    assert_eq!(Table::for_units(true), Table::Army);
    assert_eq!(Table::for_units(false), Table::Corps);
    // A fort or corps firing 0 reads the Corps table's 0 column: only a 5 or 6 hits.
    assert_eq!(read(Table::Corps, 0, 4), 0);
    assert_eq!(read(Table::Corps, 0, 5), 1);
    // The Army table has no 0 column: 0 reads its 1 column (2022 12.3.4.1).
    let f = Fire::new(tables(), Table::Army, 0, 0);
    assert_eq!(f.label(tables()), "1");
    // Strengths above the last column read it: 8+ on the Corps table, 16+ on the Army table.
    assert_eq!(Fire::new(tables(), Table::Corps, 30, 0).label(tables()), "8+");
    assert_eq!(Fire::new(tables(), Table::Army, 40, 0).label(tables()), "16+");
    // A modified roll below 1 counts as 1, above 6 as 6 (12.2.8).
    let f = Fire::new(tables(), Table::Army, 10, 0);
    assert_eq!(f.losses(tables(), 1, -3), read(Table::Army, 10, 1));
    assert_eq!(f.losses(tables(), 6, 2), read(Table::Army, 10, 6));
    assert_eq!(f.losses(tables(), 2, 1), read(Table::Army, 10, 3));
}

#[test]
fn terrain_and_trench_shifts_add_up_and_stop_at_the_tables_ends_12_2_7() {
    let t = tables();
    let mountain = t.terrain("mountain").unwrap();
    let clear = t.terrain("clear").unwrap();
    // A level-1 trench in a mountain space: the attacker 2 columns left, the defender 1 right.
    let s = shifts(mountain, t.trench(1), true);
    assert_eq!((s.attacker, s.defender), (-2, 1));
    // A level-2 trench in the open: 2 left and 1 right.
    let s = shifts(clear, t.trench(2), true);
    assert_eq!((s.attacker, s.defender), (-2, 1));
    // A trench that does not count (a fort alone, a negating card) leaves the terrain's.
    let s = shifts(mountain, t.trench(2), false);
    assert_eq!((s.attacker, s.defender), (-1, 0));
    // 9 on the Army table is 9-11; 2 left is 5.
    assert_eq!(Fire::new(t, Table::Army, 9, -2).label(t), "5");
    // Shifts past either end read the end column (2022 12.2.8).
    assert_eq!(Fire::new(t, Table::Army, 2, -3).label(t), "1");
    assert_eq!(Fire::new(t, Table::Corps, 7, 3).label(t), "8+");
}

#[test]
fn the_terrain_effects_chart_says_where_a_retreat_may_be_cancelled_and_an_advance_stops() {
    let t = tables();
    for id in ["mountain", "swamp", "forest", "desert"] {
        let r = t.terrain(id).unwrap();
        assert!(r.cancel_retreat, "12.5.3: {id}");
        assert!(r.advance_stops, "12.7.3: {id}");
    }
    let clear = t.terrain("clear").unwrap();
    assert!(!clear.cancel_retreat && !clear.advance_stops && clear.flank);
    // 12.3.1: no flank attack into swamp or mountain.
    assert!(!t.terrain("swamp").unwrap().flank && !t.terrain("mountain").unwrap().flank);
    assert!(t.terrain("desert").unwrap().summer_no_combat);
}

#[test]
fn the_winner_and_the_retreat_length_12_2_10_and_12_5_2() {
    assert_eq!(winner(3, 2), Winner::Attacker);
    assert_eq!(winner(1, 2), Winner::Defender);
    assert_eq!(winner(2, 2), Winner::Neither);
    assert_eq!(retreat_length(3, 2), Some(1));
    assert_eq!(retreat_length(4, 1), Some(2));
    assert_eq!(retreat_length(2, 2), None);
    assert_eq!(retreat_length(1, 3), None);
    // 2022 12.2.7: −3 when every attacker is in Sinai; the Pipeline lifts it for the Allies.
    assert_eq!(sinai_drm(true, false, true), -3);
    assert_eq!(sinai_drm(true, true, true), 0);
    assert_eq!(sinai_drm(true, true, false), -3);
    assert_eq!(sinai_drm(false, true, false), 0);
}

#[test]
fn the_mandated_offensive_tables_7_1() {
    let mo = &tables().mandated_offensive;
    let ap: Vec<&str> = (1..=6).map(|d| mo.ap.read(d)).collect();
    assert_eq!(ap, ["fr", "fr", "br", "it", "it", "ru"]);
    let cp: Vec<&str> = (1..=6).map(|d| mo.cp.read(d)).collect();
    assert_eq!(cp, ["ah", "ah-it", "tu", "ge", "none", "none"]);
    // 7.1.9: Hoffmann's +1 makes a 6 a 7, read as None.
    assert_eq!(mo.cp.read(7), "none");
}

#[test]
fn victory_levels_5_3_to_5_7() {
    let t = tables();
    let intro = t.scenario("introductory").unwrap();
    assert_eq!(intro.last_turn, 3);
    assert_eq!(intro.outcome(14, false), Outcome::Win(Side::Cp));
    assert_eq!(intro.outcome(13, false), Outcome::Draw);
    assert_eq!(intro.outcome(10, false), Outcome::Win(Side::Ap));
    let limited = t.scenario("limited-war").unwrap();
    assert_eq!(limited.last_turn, 10);
    assert_eq!(limited.outcome(17, false), Outcome::Win(Side::Cp));
    assert_eq!(limited.outcome(13, false), Outcome::Draw);
    assert_eq!(limited.outcome(12, false), Outcome::Win(Side::Ap));
    let campaign = t.scenario("campaign").unwrap();
    // 5.5.2: 11 wins for the CP once Brest-Litovsk is played; 13 without it.
    assert_eq!(campaign.outcome(11, true), Outcome::Win(Side::Cp));
    assert_eq!(campaign.outcome(10, true), Outcome::Draw);
    assert_eq!(campaign.outcome(12, false), Outcome::Draw);
    assert_eq!(campaign.outcome(13, false), Outcome::Win(Side::Cp));
    assert_eq!(campaign.outcome(9, false), Outcome::Win(Side::Ap));
    // 5.7: in the Historical scenario the Allies win every draw.
    let historical = t.scenario("historical").unwrap();
    assert_eq!(historical.outcome(12, false), Outcome::Win(Side::Ap));
    assert_eq!(historical.outcome(13, false), Outcome::Win(Side::Cp));
    assert_eq!(
        (t.victory.cp_automatic, t.victory.ap_automatic, t.victory.vp_start),
        (20, 0, 10)
    );
}

#[test]
fn the_turn_track_and_the_peace_terms_tables() {
    let t = tables();
    assert_eq!(t.turns.len(), 20);
    // 15.3.3: siege rolls −2 in August and September 1914 only.
    let siege: Vec<i8> = t.turns.iter().map(|x| x.siege_drm).collect();
    assert_eq!(&siege[..3], &[-2, -2, 0]);
    assert!(siege[2..].iter().all(|&d| d == 0));
    // Winter turns are every fourth, from turn 4.
    let winters: Vec<u8> = t
        .turns
        .iter()
        .filter(|x| x.season.name_en() == "Winter")
        .map(|x| x.turn)
        .collect();
    assert_eq!(winters, [4, 8, 12, 16, 20]);
    assert_eq!(t.turn(20).unwrap().year, 1919);
    // 16.5: a CP offer refused, rolled at Combined War Status 25: a 3 gives nothing, a 1 +1 VP.
    assert_eq!(t.peace_terms.cp.read(25, 3), 0);
    assert_eq!(t.peace_terms.cp.read(10, 3), 1);
    assert_eq!(t.peace_terms.ap.read(25, 6), 1);
    assert_eq!(t.peace_terms.ap.read(0, 1), -1);
}

#[test]
fn a_damaged_tables_file_is_refused_with_the_reason() {
    let good = crate::tables::TABLES_TOML;
    let cases = [
        // A loss number that falls as the strength rises.
        (
            good.replacen("  [0, 0, 0, 1, 1, 1, 1, 1, 2],", "  [0, 0, 0, 1, 1, 0, 1, 1, 2],", 1),
            "fire.corps: row 1 falls",
        ),
        // A row cut short.
        (
            good.replacen("  [2, 3, 4, 4, 5, 5, 7, 7, 7, 7],", "  [2, 3, 4, 4, 5, 5, 7, 7, 7],", 1),
            "fire.army",
        ),
        // A terrain of the map missing from the chart.
        (good.replacen("id = \"swamp\"", "id = \"marsh\"", 1), "no `swamp`"),
        // A face that names no box.
        (
            good.replacen("faces = [\"fr\", \"fr\",", "faces = [\"fr\", \"xx\",", 1),
            "face `xx` is no box",
        ),
        // Levels the wrong way round.
        (
            good.replacen("cp_at_least = 14", "cp_at_least = 9", 1),
            "must lie below",
        ),
        // A number written as text.
        (
            good.replacen("last_turn = 3", "last_turn = \"3\"", 1),
            "data/tables.toml",
        ),
    ];
    common::refused(good, &cases, Tables::from_text);
}

/// A Central Powers attack from `from` on `defending`.
fn cp<const N: usize>(from: [Space; N], any_army: bool, defending: Space, trench_counts: bool) -> Attack<'static> {
    Attack {
        attacker: Side::Cp,
        from: Vec::leak(from.to_vec()),
        any_army,
        defending,
        trench_counts,
    }
}

/// 12.3 on the August 1914 position: the Germans attack Sedan (forest, no trench) from Koblenz
/// and Metz. Metz is joined by solid lines to Verdun and Nancy, which French armies hold;
/// Koblenz touches no Allied unit (Liege holds only its fort). So with Metz pinning, Koblenz
/// gives +1; with Koblenz pinning, nothing.
#[test]
fn a_flank_attack_on_sedan_12_3() {
    let pos = start();
    let (koblenz, metz, sedan) = (sp("koblenz"), sp("metz"), sp("sedan"));
    may_flank(data(), &pos, tables(), &cp([koblenz, metz], true, sedan, true)).unwrap();
    assert_eq!(flank_drm(data(), &pos, Side::Cp, &[koblenz, metz], metz, sedan), 1);
    assert_eq!(flank_drm(data(), &pos, Side::Cp, &[koblenz, metz], koblenz, sedan), 0);
    // An Allied unit at Liege: Koblenz now touches the enemy too.
    let mut held = pos.clone();
    held.units[unit("be-corps")].loc = Location::Map(sp("liege"));
    assert_eq!(flank_drm(data(), &held, Side::Cp, &[koblenz, metz], metz, sedan), 0);
    // 12.3.3: a modified 4 succeeds, a 3 fails.
    assert!(flank_succeeds(3, 1) && !flank_succeeds(3, 0));
    // 12.3.1's conditions, each refused with the rule.
    let refused = |r: Result<(), sandtable_core::game::Refusal>, what: &str| {
        let e = r.unwrap_err();
        assert_eq!(e.rule, "12.3.1");
        assert!(e.text.en.contains(what), "{}", e.text.en);
        assert!(!e.text.zh.is_empty());
    };
    refused(
        may_flank(data(), &pos, tables(), &cp([metz], true, sedan, true)),
        "two spaces",
    );
    refused(
        may_flank(data(), &pos, tables(), &cp([koblenz, metz], false, sedan, true)),
        "army",
    );
    // Verdun has a trench (unless a card negates it).
    let verdun = sp("verdun");
    refused(
        may_flank(data(), &pos, tables(), &cp([metz, sedan], true, verdun, true)),
        "trench",
    );
    let mut open = pos.clone();
    open.spaces[verdun.idx()].trench = None;
    may_flank(data(), &open, tables(), &cp([metz, sedan], true, verdun, true)).unwrap();
    may_flank(data(), &pos, tables(), &cp([metz, sedan], true, verdun, false)).unwrap();
    // Liege: a fort with no unit in it.
    refused(
        may_flank(
            data(),
            &pos,
            tables(),
            &cp([koblenz, sp("aachen")], true, sp("liege"), true),
        ),
        "fort",
    );
    // A mountain space.
    let mountain = data()
        .map
        .graph
        .space_indices()
        .find(|&s| tables().terrain_of(data(), s).id == "mountain")
        .expect("a mountain space");
    refused(
        may_flank(data(), &pos, tables(), &cp([koblenz, metz], true, mountain, true)),
        "mountain",
    );
}

/// 15.3's table: a fort of LF 1 falls on 2–6 (4–6 in turns 1–2), LF 2 on 3–6 (5–6), LF 3 on 4–6
/// (6).
#[test]
fn the_siege_table_15_3() {
    use crate::sieges::{enough_to_besiege, falls};
    let t = tables();
    let falls_on = |turn: u8, lf: u8| -> Vec<u8> { (1..=6).filter(|&d| falls(t, turn, lf, d)).collect() };
    assert_eq!(falls_on(3, 1), [2, 3, 4, 5, 6]);
    assert_eq!(falls_on(3, 2), [3, 4, 5, 6]);
    assert_eq!(falls_on(3, 3), [4, 5, 6]);
    assert_eq!(falls_on(1, 1), [4, 5, 6]);
    assert_eq!(falls_on(2, 2), [5, 6]);
    assert_eq!(falls_on(2, 3), [6]);
    // 15.2.1: Verdun (LF 3): one army or three corps.
    assert!(enough_to_besiege(1, 0, 3));
    assert!(enough_to_besiege(0, 3, 3));
    assert!(!enough_to_besiege(0, 2, 3));
}

// ---- 12.4 Taking losses ----

fn army(full: bool, lf: u8, pool: usize) -> Loser {
    Loser {
        army: true,
        full,
        lf_full: lf,
        lf_reduced: lf,
        pool: Some(pool),
        priority: 0,
    }
}

fn corps(full: bool) -> Loser {
    Loser {
        army: false,
        full,
        lf_full: 1,
        lf_reduced: 1,
        pool: None,
        priority: 0,
    }
}

fn reserve(full: usize, reduced: usize) -> Pool {
    let c = |full| ReserveCorps {
        full,
        lf_full: 1,
        lf_reduced: 1,
        priority: 0,
    };
    Pool {
        corps: std::iter::repeat_n(c(true), full)
            .chain(std::iter::repeat_n(c(false), reduced))
            .collect(),
        standard: (1, 1),
    }
}

/// Takes steps while there is exactly one choice, and returns the choices where it stops.
fn take_forced(l: &mut Losses) -> Vec<Target> {
    loop {
        let c = l.choices();
        if c.len() != 1 {
            return c;
        }
        l.take(c[0]).unwrap();
    }
}

/// The rulebook's example: a full French army (LF 3) and a reduced one (LF 3) take 5 losses.
/// The reduced army is eliminated (3) and replaced by a corps, which takes 2 steps (1 + 1) and
/// is eliminated; the full army is untouched, since a step of it (3) would leave 2 that no step
/// of 3 can meet.
#[test]
fn the_rulebooks_example_five_losses_on_two_french_armies_12_4_3() {
    let mut l = Losses::new(vec![army(true, 3, 0), army(false, 3, 0)], vec![reserve(1, 0)], 0, 5);
    assert_eq!(l.best(), 5);
    assert_eq!(l.choices(), [Target::Unit(1)]);
    // The full army's step is refused with the rule and the reason, in both languages.
    let why = l.take(Target::Unit(0)).unwrap_err();
    assert_eq!(why.rule, "12.4.3");
    assert!(why.text.en.contains("only 3 of the 5"), "{}", why.text.en);
    assert!(why.text.zh.contains("必须尽可能多地承受损失数"));
    let t = l.take(Target::Unit(1)).unwrap();
    assert!(t.eliminated && t.lf == 3);
    // The corps from the Reserve Box stands in the army's place (12.4.4).
    assert_eq!(l.units()[1].fate, Fate::Replaced(2));
    assert_eq!(l.units()[2].replaces, Some((1, 0)));
    assert_eq!(take_forced(&mut l), []);
    assert_eq!(l.taken(), 5);
    assert_eq!(l.units()[0].fate, Fate::Standing);
    assert!(l.units()[0].loser.full, "the full army is untouched");
    assert_eq!(l.units()[2].fate, Fate::Eliminated);
    assert!(l.done());
}

/// 2022 12.4.4.2: a reduced army (LF 3) and a full corps (LF 1) take 4 with no corps in the
/// Reserve Box: the real corps takes the last step; the one the army would have had is not
/// counted, where it used to be offered in its place.
#[test]
fn the_missing_corps_is_counted_only_when_needed_12_4_4_2() {
    let lone = || Losses::new(vec![army(false, 3, 0), corps(true)], vec![reserve(0, 0)], 0, 4);
    let mut always = lone();
    always.take(Target::Unit(0)).unwrap();
    assert_eq!(always.choices(), [Target::Unit(1), Target::Unit(2)]);
    let mut l = lone().counting_missing_corps_only_when_needed();
    l.take(Target::Unit(0)).unwrap();
    assert_eq!(l.units()[0].fate, Fate::Removed);
    assert_eq!(l.units().len(), 2, "no corps counted");
    assert_eq!(l.choices(), [Target::Unit(1)]);
    assert_eq!(take_forced(&mut l), []);
    assert_eq!(l.taken(), 4);
}

/// 12.4.4: with no full corps in the Reserve Box a reduced one replaces the army.
#[test]
fn a_reduced_corps_replaces_the_army_when_no_full_one_is_left_12_4_4() {
    let mut l = Losses::new(vec![army(false, 3, 0)], vec![reserve(0, 2)], 0, 4);
    l.take(Target::Unit(0)).unwrap();
    assert!(!l.units()[1].loser.full);
    assert_eq!(take_forced(&mut l), []);
    assert_eq!(l.taken(), 4);
}

/// 12.4.4.2: two full armies of LF 3 take 7 losses with no corps in the Reserve Box: one army
/// is eliminated and removed from the game, counted as if a corps had taken the rest; the
/// same for two armies of LF 2 and 5 losses. The book's cases stay so when the corps is counted
/// only where it is needed (2022 12.4.4.2).
#[test]
fn two_armies_with_no_corps_in_reserve_12_4_4_2() {
    for (lf, number, only_when_needed) in [(3, 7, false), (2, 5, false), (3, 7, true), (2, 5, true)] {
        let mut l = Losses::new(
            vec![army(true, lf, 0), army(true, lf, 0)],
            vec![reserve(0, 0)],
            0,
            number,
        );
        if only_when_needed {
            l = l.counting_missing_corps_only_when_needed();
        }
        assert_eq!(l.best(), number, "LF {lf}: the whole {number} is met");
        // Either army may be the one; then every step goes to it.
        assert_eq!(l.choices(), [Target::Unit(0), Target::Unit(1)]);
        l.take(Target::Unit(1)).unwrap();
        assert_eq!(
            l.choices(),
            [Target::Unit(1)],
            "LF {lf}: the same army until it is gone"
        );
        assert_eq!(take_forced(&mut l), []);
        assert_eq!(l.taken(), number);
        assert_eq!(l.units()[1].fate, Fate::Removed);
        assert!(l.units()[0].loser.full);
        assert!(
            l.units()[2].counted_only,
            "the corps counted in its place is no counter"
        );
    }
}

/// 12.4.5: an attack with British units takes its losses in the set order even where 12.4.3
/// would choose otherwise; a unit whose step is larger than what is left passes the loss on.
#[test]
fn british_attackers_take_losses_in_the_set_order_12_4_5() {
    let bef_army = Loser {
        priority: 1,
        ..army(true, 2, 0)
    };
    let bef_corps = Loser {
        priority: 2,
        ..corps(true)
    };
    let aus_corps = Loser {
        priority: 4,
        ..corps(true)
    };
    let other = corps(true);
    // A loss of 1: the BEF army's step (2) is too large, so the BEF corps takes it.
    let mut l = Losses::new(
        vec![bef_army.clone(), bef_corps.clone(), aus_corps.clone(), other.clone()],
        vec![reserve(0, 0)],
        0,
        1,
    );
    assert_eq!(l.choices(), [Target::Unit(1)]);
    let why = l.take(Target::Unit(3)).unwrap_err();
    assert_eq!(why.rule, "12.4.5");
    // A loss of 3: the BEF army first (2), then with 1 left the BEF corps.
    let mut l = Losses::new(vec![bef_army, bef_corps, aus_corps, other], vec![reserve(0, 0)], 0, 3);
    assert_eq!(l.choices(), [Target::Unit(0)]);
    l.take(Target::Unit(0)).unwrap();
    assert_eq!(l.choices(), [Target::Unit(1)]);
}

/// 12.4.5 with 12.4.4.3: the BEF corps that replaces the BEF army keeps its place in the loss
/// order, ahead of the AUS corps.
#[test]
fn the_bef_corps_keeps_its_place_when_it_replaces_the_bef_army() {
    let bef_army = Loser {
        priority: 1,
        full: false,
        ..army(true, 2, 0)
    };
    let aus = Loser {
        priority: 4,
        ..corps(true)
    };
    let bef_pool = Pool {
        corps: vec![ReserveCorps {
            full: true,
            lf_full: 1,
            lf_reduced: 1,
            priority: 2,
        }],
        standard: (1, 1),
    };
    let mut l = Losses::new(vec![bef_army, aus], vec![bef_pool], 0, 3);
    assert_eq!(l.choices(), [Target::Unit(0)]);
    l.take(Target::Unit(0)).unwrap();
    // The BEF corps now stands where the army was, and takes the next loss before the AUS.
    assert_eq!(l.choices(), [Target::Unit(2)]);
    // An army naming a pool that does not exist is removed, never a panic.
    let lost = Loser {
        pool: Some(7),
        full: false,
        ..army(true, 3, 0)
    };
    let mut l = Losses::new(vec![lost], vec![], 0, 3);
    l.take(Target::Unit(0)).unwrap();
    assert_eq!(l.units()[0].fate, Fate::Removed);
}

/// 12.4.6: a fort takes losses only once no defending unit stands, and then only its whole LF.
#[test]
fn a_fort_takes_losses_only_when_its_defenders_are_gone_12_4_6() {
    // A lone fort of 2 and 3 losses: the fort is destroyed (2), 1 is left unmet.
    let mut l = Losses::new(vec![], vec![], 2, 3);
    assert_eq!(l.choices(), [Target::Fort]);
    l.take(Target::Fort).unwrap();
    assert!(l.fort_destroyed() && l.done());
    // A lone fort of 3 and 2 losses: the fort ignores them.
    assert!(Losses::new(vec![], vec![], 3, 2).done());
    // A corps (2 steps) in a fort of 2, 4 losses: the corps goes, then the fort.
    let mut l = Losses::new(vec![corps(true)], vec![], 2, 4);
    let why = l.take(Target::Fort).unwrap_err();
    assert_eq!(why.rule, "12.4.6");
    assert_eq!(take_forced(&mut l), []);
    assert!(l.fort_destroyed());
    assert_eq!(l.taken(), 4);
    // The same with 3 losses: the corps goes (2) and the fort ignores the last.
    let mut l = Losses::new(vec![corps(true)], vec![], 2, 3);
    assert_eq!(take_forced(&mut l), []);
    assert!(!l.fort_destroyed());
    assert_eq!(l.taken(), 2);
}

fn loser_strategy() -> impl Strategy<Value = Loser> {
    (any::<bool>(), any::<bool>(), 1u8..=3, 0u8..=1, 0u8..=4).prop_map(|(is_army, full, lf, pool, priority)| Loser {
        army: is_army,
        full,
        lf_full: if is_army { lf } else { 1 },
        lf_reduced: if is_army { lf } else { 1 },
        pool: is_army.then_some(pool as usize),
        priority: if priority > 2 { 0 } else { priority },
    })
}

proptest! {
    /// Any allocation made of the steps the rules allow meets exactly the most that could be
    /// met at the start, never more than the loss number, and every step of it is one the
    /// rules allow.
    #[test]
    fn every_allowed_allocation_meets_the_most_that_can_be_met(
        units in prop::collection::vec(loser_strategy(), 0..6),
        pools in (0usize..3, 0usize..2, 0usize..3, 0usize..2),
        fort in 0u8..=3,
        number in 0u8..=8,
        picks in prop::collection::vec(any::<prop::sample::Index>(), 20),
    ) {
        let pools = vec![reserve(pools.0, pools.1), reserve(pools.2, pools.3)];
        let mut l = Losses::new(units, pools, fort, number);
        let best = l.best();
        prop_assert!(best <= number);
        for pick in picks {
            let c = l.choices();
            if c.is_empty() {
                break;
            }
            let t = c[pick.index(c.len())];
            l.take(t).unwrap();
            prop_assert_eq!(l.taken() + l.best(), best, "a step the rules allow keeps the best in reach");
        }
        if l.done() {
            prop_assert_eq!(l.taken(), best);
        }
        prop_assert!(l.taken() <= number);
    }
}

/// 12.4.4: a corps of the Reserve Box taking a step in the place of an eliminated army is
/// named, in the losses' choices, by the army it replaced; the corps 12.4.4.2 counts for an
/// army with none is named by its rule. Seeded random campaigns, every such choice met.
#[test]
fn a_replacing_corps_is_named_by_the_army_it_replaced() {
    use crate::game::{Action, LossTarget, PathsOfGlory};
    use sandtable_core::game::Game;
    let (mut replacing, mut counted) = (0, 0);
    for seed in 0..12 {
        let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
        let mut rng = sandtable_core::chance::Rng::from_seed(seed);
        sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 3_000, |g: &PathsOfGlory| {
            for a in g.legal_list().iter() {
                let Action::Lose {
                    target: LossTarget::Stand(i),
                } = *a
                else {
                    continue;
                };
                let text = crate::operations::describe_loss(g, LossTarget::Stand(i));
                let l = g
                    .action
                    .battle
                    .as_ref()
                    .and_then(|b| b.losses.as_ref())
                    .expect("losses");
                let unit = &l.losses.units()[i as usize];
                match unit.replaces {
                    Some((army, _)) => {
                        let name = g.unit_name(l.counters[army].expect("an army's counter"));
                        assert_eq!(l.losses.units()[army].fate, Fate::Replaced(i as usize));
                        assert!(text.en.contains(&format!("in place of the {}", name.en)), "{}", text.en);
                        assert!(text.zh.contains(&format!("替代{}", name.zh)), "{}", text.zh);
                        replacing += 1;
                    }
                    None => {
                        assert!(unit.counted_only);
                        assert!(text.en.contains("12.4.4.2") && text.zh.contains("12.4.4.2"));
                        counted += 1;
                    }
                }
            }
        })
        .expect("random play");
    }
    assert!(replacing > 0, "no replacing corps met ({counted} counted-only)");
}

//! 9.2 activation costs on the real counters, and the War Status tracks of 16.0.

use crate::activation::{cost, Purpose, Where};
use crate::war_status::{
    armistice, commitment, us_entry, Commitment, RussianFront, RussianTrack, Tsar, TsarEvent, UsEntry,
};
use crate::{Nation, Piece};

use super::common;

use common::data;

fn pieces(ids: &[&str]) -> Vec<&'static Piece> {
    ids.iter()
        .map(|id| data().piece(id).unwrap_or_else(|| panic!("no counter {id}")))
        .collect()
}

/// The first counter of a nation and kind whose id starts so.
fn first(prefix: &str) -> &'static str {
    &data()
        .pieces
        .iter()
        .find(|p| p.id.starts_with(prefix))
        .unwrap_or_else(|| panic!("no counter {prefix}*"))
        .id
}

/// A space of the map, with the country the map gives it.
fn at(space: &'static str) -> Where<'static> {
    let s = data().space(space).unwrap_or_else(|| panic!("no space {space}"));
    Where {
        space,
        country: data().facts(s).nation.as_deref(),
        ..Where::default()
    }
}

#[test]
fn one_point_per_nationality_9_2_3() {
    let ge = first("ge-army");
    let ah = first("ah-army");
    let ge_corps = first("ge-corps");
    // A German army and corps: one nationality.
    assert_eq!(cost(&pieces(&[ge, ge_corps]), Purpose::Move, &at("metz")), 1);
    // German and Austro-Hungarian: two, for movement and combat alike (9.2.4: even if only one
    // of them then moves).
    assert_eq!(cost(&pieces(&[ge, ah]), Purpose::Combat, &at("cracow")), 2);
    // No unit, no activation.
    assert_eq!(cost(&[], Purpose::Move, &at("metz")), 0);
}

#[test]
fn the_books_exceptions_9_2_3() {
    let br = first("br-army");
    let be = first("be-army");
    let fr = first("fr-army");
    let us = first("us-corps");
    let ru = first("ru-army");
    // Belgians with the British: one nationality in Antwerp, Ostend, Calais, Amiens; two
    // elsewhere.
    for s in ["antwerp", "ostend", "calais", "amiens"] {
        assert_eq!(cost(&pieces(&[br, be]), Purpose::Combat, &at(s)), 1, "{s}");
    }
    assert_eq!(cost(&pieces(&[br, be]), Purpose::Combat, &at("brussels")), 2);
    // French and Americans: one in France or Germany, two in Italy.
    assert_eq!(cost(&pieces(&[fr, us]), Purpose::Move, &at("nancy")), 1);
    assert_eq!(cost(&pieces(&[fr, us]), Purpose::Move, &at("metz")), 1);
    assert_eq!(cost(&pieces(&[fr, us]), Purpose::Move, &at("venice")), 2);
    // The ANA corps activates as British (its data says so: 11.1.4).
    assert_eq!(cost(&pieces(&[br, "ana-corps"]), Purpose::Move, &at("medina")), 1);
    // Montenegro's corps as Serbian, the Senussi as Turkish.
    let sb = first("sb-army");
    assert_eq!(cost(&pieces(&[sb, "mn-corps"]), Purpose::Combat, &at("cetinje")), 1);
    let tu = first("tu-corps");
    assert_eq!(cost(&pieces(&[tu, "sn-corps"]), Purpose::Combat, &at("libya")), 1);
    // A card's joining (Sud Army: German and Austro-Hungarian as one).
    let ge = first("ge-army");
    let ah = first("ah-army");
    let joined = [(Nation::Ah, Nation::Ge)];
    let w = Where {
        joined: &joined,
        ..at("lemberg")
    };
    assert_eq!(cost(&pieces(&[ge, ah]), Purpose::Combat, &w), 1);
    // After the Fall of the Tsar a combat activation pays one point per Russian unit (16.4.5);
    // movement costs as before.
    let ru2 = data()
        .pieces
        .iter()
        .filter(|p| p.id.starts_with("ru-corps"))
        .nth(1)
        .unwrap()
        .id
        .as_str();
    let ru_corps = first("ru-corps");
    let fell = Where {
        tsar_fell: true,
        ..at("riga")
    };
    assert_eq!(cost(&pieces(&[ru, ru_corps, ru2]), Purpose::Combat, &fell), 3);
    assert_eq!(cost(&pieces(&[ru, ru_corps, ru2]), Purpose::Move, &fell), 1);
    assert_eq!(cost(&pieces(&[ru, ru_corps]), Purpose::Combat, &at("riga")), 1);
}

/// 9.2.7.1's example: the MEF army and two other corps supplied from the beachhead cost 5.
#[test]
fn the_mef_beachhead_9_2_7_1() {
    let br_corps = first("br-corps");
    let aus = data()
        .pieces
        .iter()
        .find(|p| p.label.contains("AUS"))
        .map(|p| p.id.as_str())
        .expect("an AUS corps");
    let w = Where {
        mef_beachhead_supply: true,
        ..at("gallipoli")
    };
    assert_eq!(cost(&pieces(&["br-army-mef", br_corps, aus]), Purpose::Combat, &w), 5);
    // Supplied otherwise, the British counters are one nationality.
    let w = Where {
        mef_beachhead_supply: false,
        ..w
    };
    assert_eq!(cost(&pieces(&["br-army-mef", br_corps, aus]), Purpose::Combat, &w), 1);
}

#[test]
fn commitment_and_armistice_16_1_16_2() {
    assert_eq!(commitment(0), Commitment::Mobilization);
    assert_eq!(commitment(3), Commitment::Mobilization);
    assert_eq!(commitment(4), Commitment::Limited);
    assert_eq!(commitment(10), Commitment::Limited);
    assert_eq!(commitment(11), Commitment::Total);
    assert!(!armistice(39));
    assert!(armistice(40));
}

#[test]
fn the_us_commitment_track_16_3() {
    assert_eq!(us_entry(UsEntry::Neutral, 29), UsEntry::Neutral);
    assert_eq!(us_entry(UsEntry::Neutral, 30), UsEntry::ZimmermannAllowed);
    // The track never goes back.
    assert_eq!(us_entry(UsEntry::ZimmermannAllowed, 12), UsEntry::ZimmermannAllowed);
    assert_eq!(us_entry(UsEntry::OverThere, 45), UsEntry::OverThere);
}

#[test]
fn the_russian_capitulation_track_16_4() {
    let mut t = RussianTrack::default();
    let mut f = RussianFront {
        cp_russian_vp: 2,
        all_seven: false,
        combined_war_status: 20,
        turn: 6,
    };
    t.update(&f);
    assert_eq!(t.tsar, Tsar::GodSaveTheTsar);
    assert!(!t.may_play(TsarEvent::TsarTakesCommand));
    assert!(!t.play(TsarEvent::TsarTakesCommand, &f), "not yet allowed");
    // Three Russian VP spaces: Tsar Takes Command may be played; lose one and it may not.
    f.cp_russian_vp = 3;
    t.update(&f);
    assert!(t.may_play(TsarEvent::TsarTakesCommand));
    f.cp_russian_vp = 2;
    t.update(&f);
    assert_eq!(t.tsar, Tsar::GodSaveTheTsar);
    f.cp_russian_vp = 4;
    t.update(&f);
    assert!(t.play(TsarEvent::TsarTakesCommand, &f));
    // Fall of the Tsar at Combined War Status + Russian VP 33, not 32.
    f.combined_war_status = 28;
    t.update(&f);
    assert_eq!(t.tsar, Tsar::TsarTakesCommand);
    f.combined_war_status = 29;
    t.update(&f);
    assert_eq!(t.tsar, Tsar::FallOfTheTsarAllowed);
    assert!(t.play(TsarEvent::FallOfTheTsar, &f));
    assert_eq!(t.fell, Some((4, 6)));
    // Bolshevik Revolution: on a later turn, with more Russian VP than at the fall.
    f.cp_russian_vp = 5;
    t.update(&f);
    assert_eq!(t.tsar, Tsar::FallOfTheTsar, "not on the turn the Tsar fell");
    f.turn = 7;
    t.update(&f);
    assert_eq!(t.tsar, Tsar::BolshevikRevolutionAllowed);
    f.cp_russian_vp = 4;
    t.update(&f);
    assert_eq!(t.tsar, Tsar::FallOfTheTsar, "falls back while neither condition holds");
    f.all_seven = true;
    t.update(&f);
    assert!(t.may_play(TsarEvent::BolshevikRevolution));
    assert!(!t.may_play(TsarEvent::BrestLitovsk));
    assert!(t.play(TsarEvent::BolshevikRevolution, &f));
    assert!(t.play(TsarEvent::BrestLitovsk, &f));
    assert_eq!(t.tsar, Tsar::BrestLitovsk);
}

/// 9.2: while a card's OPS are spent, everyone reads how many are left and what is activated, and
/// each activation lists what it costs (9.2.3), in both languages; then, while the activated
/// spaces move (11.1), what moves.
#[test]
fn the_ops_left_and_each_activations_cost_are_told_9_2() {
    use crate::game::{Action, Use, CP};
    use sandtable_core::driver::Rules;
    use sandtable_core::game::Game;
    let mut g = common::first_round();
    common::give(&mut g, crate::Side::Cp, 2);
    assert!(g.context().is_empty(), "no card played yet");
    g.apply(
        CP,
        &Action::Play {
            card: 2,
            with: Use::Ops,
        },
    )
    .unwrap();
    let lines = g.context();
    assert_eq!(lines[0].en, "Operations: 2 OPS left to activate spaces with (9.2)");
    assert_eq!(lines.len(), 1, "nothing activated yet: {lines:#?}");
    let legal = g.legal_list().to_vec();
    let notes = g.targets(&legal);
    let koblenz = common::sp("koblenz");
    let i = legal
        .iter()
        .position(|a| {
            *a == Action::Activate {
                space: koblenz,
                combat: false,
            }
        })
        .expect("Koblenz may be activated for movement");
    let note = notes[i].note.clone().expect("a cost");
    assert_eq!((note.en.as_str(), note.zh.as_str()), ("1 OPS", "1点作战"));
    g.apply(CP, &legal[i]).unwrap();
    let lines = g.context();
    assert_eq!(lines[0].en, "Operations: 1 OPS left to activate spaces with (9.2)");
    assert_eq!(lines[1].en, "Activated: Koblenz (movement)");
    assert_eq!(lines[1].zh, "已激活:科布伦茨(移动)");
    // 11.1: while the activated spaces move, what is activated for movement and how many moved.
    g.apply(CP, &Action::EndActivation).unwrap();
    let lines = g.context();
    assert_eq!(
        lines[0].en, "Movement (11.1): activated for movement: Koblenz; 0 unit(s) moved so far",
        "{lines:#?}"
    );
    assert_eq!(lines[0].zh, "移动(11.1):激活用于移动的区域:科布伦茨;已移动0个单位");
}

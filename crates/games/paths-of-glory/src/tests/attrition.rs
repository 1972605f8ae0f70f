//! The Attrition Phase (14.3.5, 14.3.6) on the real map.

use super::common;

use crate::attrition::{apply, attrition, Attrition};
use crate::state::{Location, Position, Trench};
use crate::supply::Context;
use crate::Side;
use common::{data, sp, start, unit};
use sandtable_core::graph::Space;

fn surround(pos: &mut Position, s: Space, side: Side) {
    for &(_, n) in data().map.graph.exits(s) {
        pos.spaces[n.idx()].control = Some(side);
    }
}

#[test]
fn nothing_happens_in_august_1914() {
    assert_eq!(attrition(data(), &start(), &Context::default()), Attrition::default());
}

/// Szawli (no fort) cut off: its Russian corps is eliminated, to be rebuilt; the space passes to
/// the CP. Kovno cut off too: its army leaves the game, but its fort keeps the space Russian.
#[test]
fn units_out_of_supply_go_and_their_spaces_change_hands_14_3() {
    let mut pos = start();
    let (szawli, kovno) = (sp("szawli"), sp("kovno"));
    surround(&mut pos, szawli, Side::Cp);
    surround(&mut pos, kovno, Side::Cp);
    pos.spaces[szawli.idx()].control = Some(Side::Ap);
    pos.spaces[kovno.idx()].control = Some(Side::Ap);
    pos.spaces[szawli.idx()].trench = Some(Trench {
        side: Side::Ap,
        level: 2,
    });
    let a = attrition(data(), &pos, &Context::default());
    assert_eq!(a.eliminated, [unit("ru-corps-2")]);
    assert_eq!(a.removed, [unit("ru-army-1")]);
    assert!(a.flipped.contains(&szawli));
    assert!(data().facts(kovno).fort > 0);
    assert!(!a.flipped.contains(&kovno), "a friendly fort keeps the space");
    apply(&mut pos, &a);
    assert_eq!(pos.units[unit("ru-corps-2")].loc, Location::Eliminated);
    assert_eq!(pos.units[unit("ru-army-1")].loc, Location::Removed);
    assert_eq!(pos.space(szawli).control, Some(Side::Cp));
    // 11.2.7: the Russian level-2 trench becomes a CP level-1 trench.
    assert_eq!(
        pos.space(szawli).trench,
        Some(Trench {
            side: Side::Cp,
            level: 1
        })
    );
}

/// Both sides at once (14.3.5): two units cutting each other off both go.
#[test]
fn both_sides_at_once() {
    let mut pos = start();
    // A German corps at Szawli, behind the Russians, and the Russian corps of Szawli moved to
    // Tannenberg, behind the Germans; each space surrounded by the other side.
    pos.units[unit("ru-corps-2")].loc = Location::Map(sp("tannenberg"));
    pos.units[unit("ge-corps-4")].loc = Location::Map(sp("szawli"));
    pos.spaces[sp("tannenberg").idx()].control = Some(Side::Ap);
    pos.spaces[sp("szawli").idx()].control = Some(Side::Cp);
    surround(&mut pos, sp("tannenberg"), Side::Cp);
    surround(&mut pos, sp("szawli"), Side::Ap);
    let a = attrition(data(), &pos, &Context::default());
    assert!(a.eliminated.contains(&unit("ru-corps-2")) && a.eliminated.contains(&unit("ge-corps-4")));
}

/// 14.1.5: Montenegro's corps is always in supply; 14.3.6 (2022): Serbian spaces change hands
/// only when CP units enter them.
#[test]
fn montenegro_and_serbia() {
    let mut pos = start();
    surround(&mut pos, sp("cetinje"), Side::Cp);
    surround(&mut pos, sp("valjevo"), Side::Cp);
    pos.units[unit("sb-army-2")].loc = Location::Aside;
    let a = attrition(data(), &pos, &Context::default());
    assert!(!a.eliminated.contains(&unit("mn-corps")));
    assert!(!a.flipped.contains(&sp("valjevo")));
    assert!(!a.flipped.contains(&sp("cetinje")));
}

/// 2022 11.1.12: while Italy is neutral, Albania's Allied spaces and units trace attrition
/// supply to Taranto, across the Valona–Taranto line: cut off by land (every other neighbour of
/// Tirana and Valona the CP's), an Allied corps in Tirana and both spaces stay; a CP corps in
/// Valona cuts Tirana from Taranto.
#[test]
fn albania_traces_attrition_supply_to_taranto_while_italy_is_neutral_11_1_12() {
    let mut pos = start();
    let (tirana, valona) = (sp("tirana"), sp("valona"));
    assert!(pos.neutral.iter().any(|n| n == "it"), "Italy neutral in August 1914");
    for s in [tirana, valona] {
        for &(_, n) in data().map.graph.exits(s) {
            if n != tirana && n != valona && n != sp("taranto") {
                pos.spaces[n.idx()].control = Some(Side::Cp);
            }
        }
        pos.spaces[s.idx()].control = Some(Side::Ap);
    }
    let corps = unit("fr-corps-8");
    pos.units[corps].loc = Location::Map(tirana);
    let a = attrition(data(), &pos, &Context::default());
    assert!(!a.eliminated.contains(&corps), "{a:?}");
    assert!(!a.flipped.contains(&tirana) && !a.flipped.contains(&valona), "{a:?}");
    // A CP corps in Valona: Tirana's way to Taranto is cut.
    pos.units[unit("ge-corps-5")].loc = Location::Map(valona);
    pos.spaces[valona.idx()].control = Some(Side::Cp);
    let a = attrition(data(), &pos, &Context::default());
    assert!(a.eliminated.contains(&corps), "{a:?}");
}

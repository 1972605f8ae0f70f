//! The board: the August 1914 position drawn in both languages.

mod common;

use common::{data, start};
use sandtable_core::text::Lang;
use sandtable_paths_of_glory::present::{counters, render};
use sandtable_paths_of_glory::state::Location;

#[test]
fn the_august_1914_board_in_both_languages() {
    let pos = start();
    let on_map = pos.units.iter().filter(|u| matches!(u.loc, Location::Map(_))).count();
    assert_eq!(counters(data(), &pos, Lang::En).len(), on_map);
    let en = render(data(), &pos, Lang::En);
    let zh = render(data(), &pos, Lang::Zh);
    for s in ["Paris", "Constantinople", "Petrograd"] {
        assert!(en.contains(s), "{s}");
    }
    for s in ["巴黎", "伦敦", "坦能堡"] {
        assert!(zh.contains(s), "{s}");
    }
    // Every counter on the map is drawn once, by its id.
    for (p, u) in data().pieces.iter().zip(&pos.units) {
        let drawn = en.matches(&format!("data-id=\"{}\"", p.id)).count();
        assert_eq!(drawn, usize::from(matches!(u.loc, Location::Map(_))), "{}", p.id);
    }
    // The reduced French 6th Army at Paris is drawn striped.
    let six = counters(data(), &pos, Lang::En)
        .into_iter()
        .find(|c| c.id == "fr-army-6")
        .unwrap();
    assert!(six.reduced && six.factors == "2-3-3", "{six:?}");
}

//! The board: the August 1914 position drawn in both languages, the holding boxes and the
//! tracks under the map with their markers.

use super::common;

use crate::present::{counters, render};
use crate::state::{Fort, Location};
use crate::Side;
use common::{data, first_round, sp, unit};
use sandtable_core::text::Lang;

/// The rectangles of a group of the SVG (`<g class="NAME">` up to its end), each with the first
/// text drawn after it: (x, y, width, height, text).
fn boxes_in(svg: &str, class: &str) -> Vec<(f64, f64, f64, f64, String)> {
    let start = svg
        .find(&format!("<g class=\"{class}\">"))
        .unwrap_or_else(|| panic!("no {class}"));
    let group = &svg[start..];
    let group = &group[..group.find("<g class='pieces'>").unwrap_or(group.len())];
    let mut out = Vec::new();
    for part in group.split("<rect ").skip(1) {
        let attr = |name: &str| -> Option<f64> {
            let key = format!("{name}=\"");
            let at = if part.starts_with(&key) {
                0
            } else {
                part.find(&format!(" {key}"))? + 1
            };
            let v = &part[at + key.len()..];
            v[..v.find('"')?].parse().ok()
        };
        let (Some(x), Some(y), Some(w), Some(h)) = (attr("x"), attr("y"), attr("width"), attr("height")) else {
            continue;
        };
        let text = part
            .find("<text")
            .and_then(|t| {
                let t = &part[t..];
                let open = t.find('>')? + 1;
                Some(t[open..open + t[open..].find('<')?].to_string())
            })
            .unwrap_or_default();
        out.push((x, y, w, h, text));
    }
    out
}

/// The track markers drawn: (centre x, centre y, label).
fn markers(svg: &str) -> Vec<(f64, f64, String)> {
    svg.split("<g class='marker'><circle ")
        .skip(1)
        .map(|m| {
            let num = |name: &str| {
                let v = &m[m.find(&format!("{name}='")).unwrap() + name.len() + 2..];
                v[..v.find('\'').unwrap()].parse::<f64>().unwrap()
            };
            let t = &m[m.find("<text").unwrap()..];
            let open = t.find('>').unwrap() + 1;
            (
                num("cx"),
                num("cy"),
                t[open..open + t[open..].find('<').unwrap()].to_string(),
            )
        })
        .collect()
}

/// The number printed in the track box a marker stands in.
fn box_under(svg: &str, (x, y): (f64, f64)) -> String {
    let inside: Vec<_> = boxes_in(svg, "tracks")
        .into_iter()
        .filter(|b| x > b.0 && x < b.0 + b.2 && y > b.1 && y < b.1 + b.3 && b.3 < 100.0)
        .collect();
    assert_eq!(inside.len(), 1, "one box under ({x}, {y}): {inside:?}");
    inside[0].4.clone()
}

#[test]
fn the_august_1914_board_in_both_languages() {
    let g = first_round();
    let pos = &g.pos;
    let shown = pos
        .units
        .iter()
        .filter(|u| matches!(u.loc, Location::Map(_) | Location::Reserve | Location::Eliminated))
        .count();
    assert_eq!(counters(data(), pos, Lang::En).len(), shown);
    let en = render(&g, Lang::En);
    let zh = render(&g, Lang::Zh);
    for s in [
        "Paris",
        "Constantinople",
        "Petrograd",
        "Turn Record Track (6.0)",
        "Near East",
    ] {
        assert!(en.contains(s), "{s}");
    }
    for s in ["巴黎", "伦敦", "坦能堡", "回合记录轨(6.0)", "俄国投降轨(16.4)"] {
        assert!(zh.contains(s), "{s}");
    }
    // Every counter on the map or in a holding box is drawn once, by its id.
    for (p, u) in data().pieces.iter().zip(&pos.units) {
        let drawn = en.matches(&format!("data-id='{}'", p.id)).count();
        let shown = matches!(u.loc, Location::Map(_) | Location::Reserve | Location::Eliminated);
        assert_eq!(drawn, usize::from(shown), "{}", p.id);
    }
    // The reduced French 6th Army at Paris is drawn striped.
    let six = counters(data(), pos, Lang::En)
        .into_iter()
        .find(|c| c.id == "fr-army-6")
        .unwrap();
    assert!(six.reduced && six.factors == "2-3-3", "{six:?}");
    // Its tooltip names it with the factors showing, and says it is reduced, in both languages.
    assert_eq!(six.title, "French 6th Army 2-3-3 (reduced)");
    let zh_six = counters(data(), pos, Lang::Zh)
        .into_iter()
        .find(|c| c.id == "fr-army-6")
        .unwrap();
    assert!(zh_six.title.ends_with(" 2-3-3(减员)"), "{}", zh_six.title);
    // An army of 1914 is foot, not armour.
    assert_eq!(six.symbol, sandtable_core::render::NatoSymbol::Infantry);
}

#[test]
fn corps_in_reserve_and_eliminated_units_are_drawn_in_their_sides_boxes() {
    let mut g = first_round();
    let be = unit("be-army-1");
    g.pos.units[be].loc = Location::Eliminated;
    let in_reserve: Vec<usize> = (0..g.pos.units.len())
        .filter(|&u| g.pos.units[u].loc == Location::Reserve)
        .collect();
    assert!(in_reserve.iter().any(|&u| data().pieces[u].side == Side::Ap));
    assert!(in_reserve.iter().any(|&u| data().pieces[u].side == Side::Cp));
    let svg = render(&g, Lang::En);
    let group_of = |u: usize| {
        let at = svg.find(&format!("data-id='{}'", data().pieces[u].id)).unwrap();
        let open = svg[..at].rfind("<g class='stack").unwrap();
        let tag = &svg[open..at];
        tag[tag.find("data-space='").unwrap() + 12..]
            [..tag[tag.find("data-space='").unwrap() + 12..].find('\'').unwrap()]
            .to_string()
    };
    for u in in_reserve {
        let side = match data().pieces[u].side {
            Side::Cp => "cp",
            Side::Ap => "ap",
        };
        assert_eq!(group_of(u), format!("{side}-reserve-box"), "{}", data().pieces[u].id);
    }
    assert_eq!(group_of(be), "ap-eliminated-box");
}

#[test]
fn each_track_marker_stands_in_the_box_of_its_value() {
    let mut g = first_round();
    g.pos.turn = 5;
    g.pos.vp = 13;
    g.pos.war_status = [4, 11];
    g.touch();
    let svg = render(&g, Lang::En);
    let m = markers(&svg);
    let find = |label: &str| {
        let found: Vec<_> = m.iter().filter(|x| x.2 == label).collect();
        assert_eq!(found.len(), 1, "one {label} marker: {m:?}");
        (found[0].0, found[0].1)
    };
    assert_eq!(box_under(&svg, find("Turn")), "5");
    assert_eq!(box_under(&svg, find("13")), "13");
    assert_eq!(box_under(&svg, find("CP")), "4");
    assert_eq!(box_under(&svg, find("AP")), "11");
    assert_eq!(box_under(&svg, find("Σ")), "15");
    // The US track opens at a Combined War Status of 30 (16.3).
    assert_eq!(box_under(&svg, find("US")), "1");
    g.pos.war_status = [14, 16];
    g.touch();
    let svg = render(&g, Lang::En);
    let us = markers(&svg).into_iter().find(|x| x.2 == "US").unwrap();
    assert_eq!(box_under(&svg, (us.0, us.1)), "2");
    // The Russian Capitulation Track: Tsar Takes Command (CP #28) played, the third box (16.4).
    let russia = |g: &crate::game::PathsOfGlory| {
        let svg = render(g, Lang::En);
        let m = markers(&svg).into_iter().find(|x| x.2 == "Russia").unwrap();
        box_under(&svg, (m.0, m.1))
    };
    assert_eq!(russia(&g), "1");
    g.pos.cards[0].hand.retain(|&c| c != 28);
    g.pos.cards[0].draw.retain(|&c| c != 28);
    g.pos.cards[0].removed.push(28);
    g.touch();
    assert_eq!(russia(&g), "3");
    // Markers sharing a box do not cover each other.
    g.pos.war_status = [0, 0];
    g.touch();
    let svg = render(&g, Lang::En);
    let ws: Vec<_> = markers(&svg)
        .into_iter()
        .filter(|x| ["CP", "AP", "Σ"].contains(&x.2.as_str()))
        .collect();
    assert_eq!(ws.len(), 3);
    for (i, a) in ws.iter().enumerate() {
        assert_eq!(box_under(&svg, (a.0, a.1)), "0");
        for b in &ws[i + 1..] {
            assert!((a.0 - b.0).hypot(a.1 - b.1) >= 23.0, "{a:?} and {b:?} overlap");
        }
    }
}

/// What the spaces' marks say in words, for the page's hover and the terminal's map: who holds a
/// space its owner lost (11.1.11), its trench (11.2) and its fort (15.0, 15.2, 15.1.8), in both
/// languages; a space with nothing to say is not marked.
#[test]
fn the_marks_say_who_holds_a_space_its_trench_and_its_fort() {
    let mut g = first_round();
    let note = |g: &crate::game::PathsOfGlory, id: &str, lang: Lang| {
        let m = crate::present::marks(data(), &g.pos, lang)
            .into_iter()
            .find(|m| m.hex == sp(id));
        m.map(|m| m.note)
    };
    assert_eq!(note(&g, "liege", Lang::En).as_deref(), Some("fort 3 (15.0)"));
    assert_eq!(note(&g, "brussels", Lang::En).as_deref(), Some("trench level 1 (11.2)"));
    assert_eq!(note(&g, "koblenz", Lang::En), None, "a German space held by Germany");
    let liege = sp("liege").0 as usize;
    g.pos.spaces[liege].control = Some(Side::Cp);
    g.pos.spaces[liege].fort = Fort::Besieged;
    assert_eq!(
        note(&g, "liege", Lang::En).as_deref(),
        Some("held by the Central Powers (11.1.11); fort 3 besieged (15.2)")
    );
    assert_eq!(
        note(&g, "liege", Lang::Zh).as_deref(),
        Some("同盟国控制(11.1.11);要塞3被围(15.2)")
    );
    g.pos.spaces[liege].fort = Fort::Destroyed;
    assert_eq!(
        note(&g, "liege", Lang::En).as_deref(),
        Some("held by the Central Powers (11.1.11); fort 3 destroyed (15.1.8)")
    );
    // The drawing carries the note on the space's mark.
    assert!(render(&g, Lang::Zh).contains("data-mark='liege' data-note='同盟国控制(11.1.11);要塞3已毁(15.1.8)'"));
}

//! The printed board around the spaces, in our own art: the symbols on the spaces (VP spaces
//! and capitals 5.7.2, forts 15.0, supply sources 14.2), the frame of the Near East section
//! (11.3), a key, and the tracks under the map with their markers: the Turn Record Track (6.0),
//! the VP track (5.1, automatic victory at 0 and 20, 5.2), the War Status track (16.1: Limited
//! War at 4, Total War at 11, the US track opening at 30, the armistice at 40), the US
//! Commitment Track (16.3) and the Russian Capitulation Track (16.4).
//!
//! The base drawing ([`decor`]) never changes; the markers ([`markers`]) are drawn with the
//! pieces.

use crate::data::{Data, Side};
use crate::game::PathsOfGlory;
use crate::state::side_index;
use crate::tables::Tables;
use crate::war_status::{Tsar, UsEntry};
use sandtable_core::graph::Space;
use sandtable_core::render::{pick, point_frame, Esc, PointFrame};
use sandtable_core::text::Lang;
use std::fmt::Write;

/// Height of the band under the map that holds the tracks.
pub const BAND: f64 = 420.0;
/// Left and right margins of the tracks.
const SIDE: f64 = 20.0;
/// The rows of the band: top of each track's boxes, below the map.
const TURN_ROW: f64 = 40.0;
const VP_ROW: f64 = 120.0;
const WS_ROW: f64 = 200.0;
const US_ROW: f64 = 300.0;
/// Height of a track's boxes.
const CELL_H: f64 = 52.0;

/// A track of `n` boxes across the width, its row's top at `top` under the map: the left
/// edge and width of box `i`.
fn cell(frame: &PointFrame, n: usize, i: usize) -> (f64, f64) {
    let w = (frame.width - 2.0 * SIDE) / n as f64;
    (SIDE + w * i as f64, w)
}

/// The boxes of the US Commitment Track, in order, with their names.
const US_BOXES: [(UsEntry, &str, &str); 4] = [
    (UsEntry::Neutral, "US neutral", "美国中立"),
    (
        UsEntry::ZimmermannAllowed,
        "Zimmermann Telegram allowed",
        "可打齐默尔曼电报",
    ),
    (
        UsEntry::Zimmermann,
        "Zimmermann Telegram: US at war",
        "齐默尔曼电报:美国参战",
    ),
    (
        UsEntry::OverThere,
        "Over There: US reinforcements",
        "“到那边去”:美国增援",
    ),
];

/// The boxes of the Russian Capitulation Track, in order, with their names.
const TSAR_BOXES: [(Tsar, &str, &str); 8] = [
    (Tsar::GodSaveTheTsar, "God Save the Tsar", "天佑沙皇"),
    (
        Tsar::TsarTakesCommandAllowed,
        "Tsar Takes Command allowed",
        "可打沙皇亲政",
    ),
    (Tsar::TsarTakesCommand, "Tsar Takes Command", "沙皇亲政"),
    (Tsar::FallOfTheTsarAllowed, "Fall of the Tsar allowed", "可打沙皇倒台"),
    (Tsar::FallOfTheTsar, "Fall of the Tsar", "沙皇倒台"),
    (
        Tsar::BolshevikRevolutionAllowed,
        "Bolshevik Revolution allowed",
        "可打布尔什维克革命",
    ),
    (Tsar::BolshevikRevolution, "Bolshevik Revolution", "布尔什维克革命"),
    (Tsar::BrestLitovsk, "Treaty of Brest-Litovsk", "布列斯特-立托夫斯克条约"),
];

/// The unchanging drawing: symbols on the spaces, the Near East frame, the key and the empty
/// tracks.
pub fn decor(data: &Data, tables: &Tables, lang: Lang) -> String {
    let frame = point_frame(&data.map.graph);
    let mut out = String::with_capacity(64 * 1024);
    near_east_frame(&mut out, data, &frame, lang);
    symbols(&mut out, data, &frame);
    tracks(&mut out, tables, &frame, lang);
    out
}

/// 11.3: a frame around the spaces of the Near East section, named.
fn near_east_frame(out: &mut String, data: &Data, frame: &PointFrame, lang: Lang) {
    let pts: Vec<(f64, f64)> = data
        .map
        .graph
        .space_indices()
        .filter(|&s| data.facts(s).near_east)
        .filter_map(|s| frame.centres.get(s.idx()).copied())
        .collect();
    if pts.is_empty() {
        return;
    }
    let x0 = pts.iter().map(|p| p.0).fold(f64::MAX, f64::min) - 70.0;
    let y0 = pts.iter().map(|p| p.1).fold(f64::MAX, f64::min) - 60.0;
    let x1 = pts.iter().map(|p| p.0).fold(f64::MIN, f64::max) + 70.0;
    let y1 = pts.iter().map(|p| p.1).fold(f64::MIN, f64::max) + 50.0;
    let _ = writeln!(
        out,
        "<g class=\"ne\"><rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"14\" \
         fill=\"none\" stroke=\"#8a6d3b\" stroke-width=\"3\" stroke-dasharray=\"14 8\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"22\" font-weight=\"bold\" fill=\"#8a6d3b\">{} (11.3)</text></g>",
        x1 - x0,
        y1 - y0,
        x0 + 12.0,
        y0 - 10.0,
        pick(lang, "Near East", "近东")
    );
}

/// The printed symbols of each space, at its box's corners: a star on a VP space (a ringed one
/// on a capital), the fort's value in a dark square, a supply source's ring.
fn symbols(out: &mut String, data: &Data, frame: &PointFrame) {
    out.push_str("<g class=\"sym-map\">\n");
    for s in data.map.graph.space_indices() {
        let f = data.facts(s);
        let Some(&(x, y)) = frame.centres.get(s.idx()) else {
            continue;
        };
        if f.is_box {
            continue;
        }
        // The space's box is 92 by 62 (the core's size), centred on (x, y).
        let (left, top, right, bottom) = (x - 46.0, y - 31.0, x + 46.0, y + 31.0);
        if f.vp {
            let _ = write!(
                out,
                "<use href=\"#star\" x=\"{:.1}\" y=\"{:.1}\"/>",
                left + 8.0,
                top + 8.0
            );
        }
        if f.capital {
            let _ = write!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"7.5\" fill=\"none\" stroke=\"#600\" stroke-width=\"1.4\"/>",
                left + 8.0,
                top + 8.0
            );
        }
        if f.fort > 0 {
            let colour = match f.faction {
                Side::Cp => "#3d4449",
                Side::Ap => "#27406b",
            };
            let _ = write!(
                out,
                "<g transform=\"translate({:.1} {:.1})\"><path d=\"M0 0h4v3h3v-3h4v3h3v-3h4v16h-18z\" fill=\"{colour}\"/>\
                 <text x=\"9\" y=\"13.5\" font-size=\"10\" font-weight=\"bold\" fill=\"#fff\" text-anchor=\"middle\">{}</text></g>",
                left + 2.0,
                bottom - 18.0,
                f.fort
            );
        }
        if f.supply_source {
            let _ = write!(
                out,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"6\" fill=\"#fff\" stroke=\"#b22\" stroke-width=\"2.2\"/>",
                right - 9.0,
                top + 9.0
            );
        }
    }
    out.push_str("\n</g>\n");
}

/// The empty tracks under the map, each with its title and the rule it follows.
fn tracks(out: &mut String, tables: &Tables, frame: &PointFrame, lang: Lang) {
    let y = frame.height;
    out.push_str("<g class=\"tracks\">\n");
    let _ = writeln!(
        out,
        "<rect x=\"0\" y=\"{:.1}\" width=\"{:.1}\" height=\"{BAND}\" fill=\"#ece4d0\"/>",
        y, frame.width
    );
    let title = |out: &mut String, row: f64, en: &str, zh: &str| {
        let _ = writeln!(
            out,
            "<text x=\"{SIDE}\" y=\"{:.1}\" font-size=\"15\" font-weight=\"bold\" fill=\"#333\">{}</text>",
            y + row - 6.0,
            Esc(pick(lang, en, zh))
        );
    };
    // A box: its number at the top left, its name at the bottom left, room for markers between.
    let boxed = |out: &mut String, left: f64, w: f64, row: f64, fill: &str, top: &str, bottom: &str| {
        let _ = writeln!(
            out,
            "<g><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{CELL_H}\" fill=\"{fill}\" stroke=\"#555\" stroke-width=\"1\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" font-weight=\"bold\" fill=\"#222\">{}</text>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#333\">{}</text></g>",
            left + 1.0,
            y + row,
            w - 2.0,
            left + 5.0,
            y + row + 14.0,
            Esc(top),
            left + 5.0,
            y + row + CELL_H - 5.0,
            Esc(bottom)
        );
    };

    // 6.0: the Turn Record Track.
    title(out, TURN_ROW, "Turn Record Track (6.0)", "回合记录轨(6.0)");
    let turns = &tables.turns;
    for (i, t) in turns.iter().enumerate() {
        let (left, w) = cell(frame, turns.len(), i);
        let season = pick(lang, t.season.name_en(), t.season.name_zh());
        let when = match lang {
            Lang::En => format!("{season} {}", t.year),
            Lang::Zh => format!("{}年{season}", t.year),
        };
        boxed(out, left, w, TURN_ROW, "#f7f3e8", &t.turn.to_string(), &when);
    }

    // 5.1, 5.2: the VP track, with the automatic victories at its ends.
    title(
        out,
        VP_ROW,
        "Victory Points (5.1; automatic victory 5.2)",
        "胜利点(5.1;自动胜利5.2)",
    );
    let v = tables.victory;
    for (i, vp) in (0..=20).enumerate() {
        let (left, w) = cell(frame, 21, i);
        let (fill, note) = if vp <= v.ap_automatic {
            ("#c9d6ee", pick(lang, "Allied win", "协约国胜"))
        } else if vp >= v.cp_automatic {
            ("#d3d6d8", pick(lang, "CP win", "同盟国胜"))
        } else {
            ("#f7f3e8", "")
        };
        boxed(out, left, w, VP_ROW, fill, &vp.to_string(), note);
    }

    // 16.1, 16.2.1, 16.3: the War Status track.
    title(
        out,
        WS_ROW,
        "War Status (16.1: Limited War 4, Total War 11; 16.3: 30; armistice 16.2.1: 40)",
        "战争状态(16.1:有限战争4,全面战争11;16.3:30;停战16.2.1:40)",
    );
    for ws in 0..=40u8 {
        let (left, w) = cell(frame, 41, ws as usize);
        let (fill, note) = match ws {
            4 => ("#e8dfc4", pick(lang, "Limited", "有限")),
            11 => ("#e2cfa8", pick(lang, "Total", "全面")),
            30 => ("#dfe8d4", pick(lang, "US", "美国")),
            40 => ("#e6c9c9", pick(lang, "Armistice", "停战")),
            _ => ("#f7f3e8", ""),
        };
        boxed(out, left, w, WS_ROW, fill, &ws.to_string(), note);
    }

    // 16.3 and 16.4, side by side.
    let half = (frame.width - 2.0 * SIDE) / 2.0 - 20.0;
    title(out, US_ROW, "US Commitment Track (16.3)", "美国参战轨(16.3)");
    for (i, (_, en, zh)) in US_BOXES.iter().enumerate() {
        let w = half / US_BOXES.len() as f64;
        boxed(
            out,
            SIDE + w * i as f64,
            w,
            US_ROW,
            "#eef0e4",
            &(i + 1).to_string(),
            pick(lang, en, zh),
        );
    }
    let right = SIDE + half + 40.0;
    let _ = writeln!(
        out,
        "<text x=\"{right:.1}\" y=\"{:.1}\" font-size=\"15\" font-weight=\"bold\" fill=\"#333\">{}</text>",
        y + US_ROW - 6.0,
        Esc(pick(lang, "Russian Capitulation Track (16.4)", "俄国投降轨(16.4)"))
    );
    for (i, (_, en, zh)) in TSAR_BOXES.iter().enumerate() {
        let w = half / TSAR_BOXES.len() as f64;
        boxed(
            out,
            right + w * i as f64,
            w,
            US_ROW,
            "#f0e6e6",
            &(i + 1).to_string(),
            pick(lang, en, zh),
        );
    }

    // The key of the symbols on the spaces.
    let ky = y + US_ROW + CELL_H + 30.0;
    let _ = writeln!(
        out,
        "<g class=\"key\" font-size=\"13\" fill=\"#222\">\
         <use href=\"#star\" x=\"{:.1}\" y=\"{:.1}\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>\
         <circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"7.5\" fill=\"none\" stroke=\"#600\" stroke-width=\"1.4\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>\
         <path transform=\"translate({:.1} {:.1})\" d=\"M0 0h4v3h3v-3h4v3h3v-3h4v16h-18z\" fill=\"#3d4449\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>\
         <circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"6\" fill=\"#fff\" stroke=\"#b22\" stroke-width=\"2.2\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>\
         <text x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
        SIDE + 8.0,
        ky,
        SIDE + 20.0,
        ky + 5.0,
        Esc(pick(lang, "VP space (5.7.2)", "胜利点区域(5.7.2)")),
        SIDE + 260.0,
        ky,
        SIDE + 274.0,
        ky + 5.0,
        Esc(pick(lang, "capital (13.1.10)", "首都(13.1.10)")),
        SIDE + 480.0,
        ky - 9.0,
        SIDE + 504.0,
        ky + 5.0,
        Esc(pick(lang, "fort and its value (15.0)", "要塞及其值(15.0)")),
        SIDE + 760.0,
        ky,
        SIDE + 774.0,
        ky + 5.0,
        Esc(pick(lang, "supply source (14.2)", "补给源(14.2)")),
        SIDE + 1000.0,
        ky + 5.0,
        Esc(pick(
            lang,
            "T1, T2: trench level (11.2) · ◎ besieged fort (15.2) · ✕ destroyed fort (15.1.8) · tinted space: held by the other side",
            "T1、T2:堑壕等级(11.2) · ◎ 被围要塞(15.2) · ✕ 被毁要塞(15.1.8) · 着色区域:由对方控制",
        )),
    );
    out.push_str("</g>\n");
}

/// Where the tracks' markers stand now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Markers {
    pub turn: u8,
    pub vp: i32,
    /// Each side's War Status, by side index.
    pub war_status: [u8; 2],
    pub us: UsEntry,
    pub tsar: Tsar,
}

/// The markers of a game.
pub fn markers_of(g: &PathsOfGlory) -> Markers {
    Markers {
        turn: g.pos.turn,
        vp: g.pos.vp,
        war_status: g.pos.war_status,
        us: crate::events::us_track(g),
        tsar: crate::events::russian_track(g).tsar,
    }
}

/// The markers on the tracks, each a round counter with its name, several in one box side by
/// side.
pub fn markers(data: &Data, tables: &Tables, m: &Markers, lang: Lang) -> String {
    let frame = point_frame(&data.map.graph);
    let y = frame.height;
    let turns = tables.turns.len().max(1);
    let mut placed: Vec<(f64, f64, f64, &str, &str, String)> = Vec::new();
    let mut put = |row: f64, left: f64, w: f64, fill: &'static str, ink: &'static str, label: String| {
        placed.push((row, left, w, fill, ink, label));
    };
    let t = (m.turn as usize).clamp(1, turns) - 1;
    let (l, w) = cell(&frame, turns, t);
    put(TURN_ROW, l, w, "#222", "#fff", pick(lang, "Turn", "回合").into());
    let vp = m.vp.clamp(0, 20) as usize;
    let (l, w) = cell(&frame, 21, vp);
    put(VP_ROW, l, w, "#b8860b", "#fff", format!("{}", m.vp));
    let cp = m.war_status[side_index(Side::Cp)];
    let ap = m.war_status[side_index(Side::Ap)];
    for (ws, fill, en, zh) in [
        (cp, "#5f6b73", "CP", "同盟"),
        (ap, "#5b7fc4", "AP", "协约"),
        (cp.saturating_add(ap), "#7a3b3b", "Σ", "合计"),
    ] {
        let (l, w) = cell(&frame, 41, ws.min(40) as usize);
        put(WS_ROW, l, w, fill, "#fff", pick(lang, en, zh).into());
    }
    let half = (frame.width - 2.0 * SIDE) / 2.0 - 20.0;
    if let Some(i) = US_BOXES.iter().position(|b| b.0 == m.us) {
        let w = half / US_BOXES.len() as f64;
        put(
            US_ROW,
            SIDE + w * i as f64,
            w,
            "#6b8e4e",
            "#fff",
            pick(lang, "US", "美国").into(),
        );
    }
    if let Some(i) = TSAR_BOXES.iter().position(|b| b.0 == m.tsar) {
        let w = half / TSAR_BOXES.len() as f64;
        let right = SIDE + half + 40.0;
        put(
            US_ROW,
            right + w * i as f64,
            w,
            "#7aa35a",
            "#111",
            pick(lang, "Russia", "俄国").into(),
        );
    }
    let mut out = String::from("<g class='track-markers'>\n");
    for (k, &(row, left, w, fill, ink, ref label)) in placed.iter().enumerate() {
        // Markers sharing a box stand side by side, the group centred right of the number.
        let shared = |p: &&(f64, f64, f64, &str, &str, String)| p.0 == row && p.1 == left;
        let before = placed[..k].iter().filter(shared).count() as f64;
        let all = placed.iter().filter(shared).count() as f64;
        let r = 11.5;
        let cx = left + w / 2.0 + 8.0 + (before - (all - 1.0) / 2.0) * (2.0 * r + 1.0);
        let cy = y + row + CELL_H / 2.0 - 1.0;
        let _ = writeln!(
            out,
            "<g class='marker'><circle cx='{cx:.1}' cy='{cy:.1}' r='{r}' fill='{fill}' stroke='#000' stroke-width='1.2'/>\
             <text x='{cx:.1}' y='{:.1}' font-size='{}' font-weight='bold' fill='{ink}' text-anchor='middle'>{}</text></g>",
            cy + 3.0,
            if label.chars().count() > 4 { 6.5 } else { 8.0 },
            Esc(label)
        );
    }
    out.push_str("</g>\n");
    out
}

/// The holding boxes and their sizes, in the data's units, for the map style.
pub fn boxes(data: &Data) -> Vec<(Space, f64, f64)> {
    data.map
        .graph
        .space_indices()
        .filter(|&s| data.facts(s).is_box)
        .map(|s| {
            let w = data.map.number(s, "w").unwrap_or(200) as f64;
            let h = data.map.number(s, "h").unwrap_or(120) as f64;
            (s, w, h)
        })
        .collect()
}

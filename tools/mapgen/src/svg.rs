//! A picture of the map for a person to look at (not part of the map data): hexes coloured
//! by terrain, rivers on hexsides, the start line, railways and roads, places and set-up hexes.

use crate::assemble::{Camp, Map};
use sandtable_core::hex::RowDirection;
use std::fmt::Write;

const SCALE: f64 = 24.0;

/// The fill of a hex, from the first terrain name its character stands for.
fn colour(map: &Map, c: char) -> &'static str {
    let name = map
        .layout
        .legend
        .iter()
        .find(|(k, _)| *k == c)
        .and_then(|(_, names)| names.first())
        .map_or("", String::as_str);
    match name {
        "sea" => "#9cc3e6",
        "mountain" => "#b89f7a",
        "slope" => "#c8a878",
        "impassable" => "#f4f4f4",
        "swamp" | "marsh" => "#9fd1b5",
        "forest" => "#5f9e55",
        "woods" => "#a6cf8a",
        _ => "#eef0cf",
    }
}

pub fn to_svg(map: &Map) -> String {
    let w = &map.world;
    let mut out = String::new();
    let (mut maxx, mut maxy) = (0.0f64, 0.0f64);
    let mut miny = f64::INFINITY;
    for h in w.grid.hexes() {
        let c = w.centre(h);
        maxx = maxx.max(c.0);
        maxy = maxy.max(c.1);
        miny = miny.min(c.1);
    }
    // Maps whose rows grow northward are drawn with the north up: y is flipped.
    let flip = w.grid.spec().row_direction == RowDirection::Up;
    let fy = |y: f64| if flip { maxy + miny - y } else { y };
    let _ = writeln!(
        out,
        "<svg xmlns='http://www.w3.org/2000/svg' width='{:.0}' height='{:.0}' font-family='sans-serif'>",
        (maxx + 1.5) * SCALE,
        (maxy + 1.5) * SCALE
    );
    out.push_str("<rect width='100%' height='100%' fill='white'/>\n");
    let pt = |p: (f64, f64)| format!("{:.1},{:.1}", p.0 * SCALE, fy(p.1) * SCALE);
    for h in w.grid.hexes() {
        let pts: Vec<String> = w.corners(h).into_iter().map(pt).collect();
        let stroke = match map.control[h.idx()] {
            Some(Camp::Axis) => "#c8b8a8",
            _ => "#b8b8b8",
        };
        let _ = writeln!(
            out,
            "<polygon points='{}' fill='{}' stroke='{stroke}' stroke-width='0.6'/>",
            pts.join(" "),
            colour(map, map.terrain[h.idx()])
        );
    }
    for (name, hexes) in &map.sets {
        let colour = if name == "soviet-front-line" {
            "#d00000"
        } else if name.starts_with("axis-") {
            "#303030"
        } else {
            continue;
        };
        for &h in hexes {
            let c = w.centre(h);
            let _ = writeln!(
                out,
                "<circle cx='{:.1}' cy='{:.1}' r='{:.1}' fill='none' stroke='{colour}' stroke-width='1.5'/>",
                c.0 * SCALE,
                fy(c.1) * SCALE,
                0.36 * SCALE
            );
            if let Some(army) = name.strip_prefix("axis-") {
                let _ = writeln!(
                    out,
                    "<text x='{:.1}' y='{:.1}' font-size='6' text-anchor='middle' fill='#303030'>{army}</text>",
                    c.0 * SCALE,
                    (fy(c.1) + 0.3) * SCALE
                );
            }
        }
    }
    for p in &map.paths {
        let pts: Vec<String> = p.hexes.iter().map(|&h| pt(w.centre(h))).collect();
        let style = match p.kind.as_str() {
            "railway" => "stroke='#202020' stroke-width='1.6'",
            "track" => "stroke='#b05a00' stroke-width='0.9' stroke-dasharray='2,2'",
            _ => "stroke='#b05a00' stroke-width='1.4' stroke-dasharray='4,2'",
        };
        let _ = writeln!(out, "<polyline points='{}' fill='none' {style}/>", pts.join(" "));
    }
    for l in &map.side_lines {
        let style = match l.kind.as_str() {
            "major-river" | "meuse" => "stroke='#1050d0' stroke-width='4'",
            "start-line" => "stroke='#e00000' stroke-width='3' stroke-dasharray='6,3'",
            "stream" => "stroke='#60a0ff' stroke-width='1.4'",
            "bridge" => "stroke='#000000' stroke-width='1' stroke-dasharray='1,3'",
            "border" => "stroke='#6a3d8f' stroke-width='1.6' stroke-dasharray='5,3'",
            k if k.starts_with("built-bridge") => "stroke='#c00000' stroke-width='2' stroke-dasharray='2,2'",
            _ => "stroke='#3080ff' stroke-width='2.2'",
        };
        for &s in &l.sides {
            if let Some((a, b)) = w.side_ends(s) {
                let _ = writeln!(
                    out,
                    "<line x1='{:.1}' y1='{:.1}' x2='{:.1}' y2='{:.1}' {style} stroke-linecap='round'/>",
                    a.0 * SCALE,
                    fy(a.1) * SCALE,
                    b.0 * SCALE,
                    fy(b.1) * SCALE
                );
            }
        }
    }
    for (name, hexes) in &map.sets {
        if !name.starts_with("supply-")
            && !name.starts_with("hq-")
            && name != "panzer-symbol"
            && !name.starts_with("entry-")
            && name != "demolition"
        {
            continue;
        }
        for &h in hexes {
            let c = w.centre(h);
            let (label, fill) = if let Some(area) = name.strip_prefix("entry-") {
                (area, "#a000a0")
            } else if name == "demolition" {
                ("✱", "#d00000")
            } else if name == "supply-allied" || name == "supply-german" {
                continue;
            } else if name == "supply-axis" {
                ("S", "#404040")
            } else if name == "supply-soviet" {
                ("S", "#d00000")
            } else if name == "panzer-symbol" {
                ("◆", "#303030")
            } else {
                (name.trim_start_matches("hq-"), "#6000a0")
            };
            let dy = if name.starts_with("hq-") { -0.25 } else { 0.1 };
            let _ = writeln!(
                out,
                "<text x='{:.1}' y='{:.1}' font-size='8' font-weight='bold' text-anchor='middle' fill='{fill}'>{label}</text>",
                c.0 * SCALE,
                (fy(c.1) + dy) * SCALE
            );
        }
    }
    for p in &map.places {
        let c = w.centre(p.hex);
        let r = if p.class == "city" {
            4.0
        } else if p.class == "village" && !p.vp {
            1.6
        } else {
            2.2
        };
        let fill = if p.vp { "#e0a000" } else { "#000000" };
        let _ = writeln!(
            out,
            "<circle cx='{:.1}' cy='{:.1}' r='{r}' fill='{fill}'/>",
            c.0 * SCALE,
            fy(c.1) * SCALE
        );
        if p.rank > 2 {
            let _ = writeln!(
                out,
                "<text x='{:.1}' y='{:.1}' font-size='4' fill='#404040'>{}</text>",
                c.0 * SCALE + 2.0,
                fy(c.1) * SCALE - 1.5,
                p.name_en.replace('&', "&amp;").replace('<', "&lt;")
            );
            continue;
        }
        let _ = writeln!(
            out,
            "<text x='{:.1}' y='{:.1}' font-size='{}'>{}</text>",
            c.0 * SCALE + 3.0,
            fy(c.1) * SCALE - 2.0,
            if p.rank <= 2 { 8 } else { 6 },
            p.name_en.replace('&', "&amp;").replace('<', "&lt;")
        );
    }
    for h in w.grid.hexes() {
        let (c, r) = w.grid.col_row(h);
        if c % 5 == 0 && r % 5 == 0 {
            let p = w.centre(h);
            let _ = writeln!(
                out,
                "<text x='{:.1}' y='{:.1}' font-size='5' fill='#808080' text-anchor='middle'>{}</text>",
                p.0 * SCALE,
                (fy(p.1) + 0.42) * SCALE,
                map.id(h)
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// A plain-text picture: one character per hex, places as their first letter (upper case for
/// cities), the map's terrain characters elsewhere.
pub fn to_ascii(map: &Map) -> String {
    let g = &map.world.grid;
    let (cols, rows) = (g.spec().cols[1] as i32, g.spec().rows[1] as i32);
    let mut out = String::new();
    out.push_str("    ");
    for c in 1..=cols {
        out.push(char::from_digit((c % 10) as u32, 10).unwrap_or('?'));
    }
    out.push('\n');
    for r in 1..=rows {
        let _ = write!(out, "{r:02}  ");
        for c in 1..=cols {
            let h = g.hex_at(c, r).expect("on the grid");
            let ch = match map.places.iter().find(|p| p.hex == h) {
                Some(p) => {
                    let first = p.name_en.chars().next().unwrap_or('?');
                    if p.class == "city" {
                        first.to_ascii_uppercase()
                    } else {
                        first.to_ascii_lowercase()
                    }
                }
                None => map.terrain[h.idx()],
            };
            out.push(ch);
        }
        out.push('\n');
    }
    out
}

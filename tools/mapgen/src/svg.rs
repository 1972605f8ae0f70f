//! A picture of the map for a person to look at (not part of the map data): hexes coloured
//! by terrain, rivers on hexsides, the start line, railways and roads, places and set-up hexes.

use crate::assemble::{Camp, Map};
use std::fmt::Write;

const SCALE: f64 = 24.0;

fn colour(c: char) -> &'static str {
    match c {
        '~' => "#9cc3e6",
        'm' => "#b89f7a",
        '#' => "#f4f4f4",
        's' => "#9fd1b5",
        'f' => "#5f9e55",
        _ => "#eef0cf",
    }
}

pub fn to_svg(map: &Map) -> String {
    let w = &map.world;
    let mut out = String::new();
    let (mut maxx, mut maxy) = (0.0f64, 0.0f64);
    for h in w.grid.hexes() {
        let c = w.centre(h);
        maxx = maxx.max(c.0);
        maxy = maxy.max(c.1);
    }
    let _ = writeln!(
        out,
        "<svg xmlns='http://www.w3.org/2000/svg' width='{:.0}' height='{:.0}' font-family='sans-serif'>",
        (maxx + 1.5) * SCALE,
        (maxy + 1.5) * SCALE
    );
    out.push_str("<rect width='100%' height='100%' fill='white'/>\n");
    let pt = |p: (f64, f64)| format!("{:.1},{:.1}", p.0 * SCALE, p.1 * SCALE);
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
            colour(map.terrain[h.idx()])
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
                c.1 * SCALE,
                0.36 * SCALE
            );
            if let Some(army) = name.strip_prefix("axis-") {
                let _ = writeln!(
                    out,
                    "<text x='{:.1}' y='{:.1}' font-size='6' text-anchor='middle' fill='#303030'>{army}</text>",
                    c.0 * SCALE,
                    (c.1 + 0.3) * SCALE
                );
            }
        }
    }
    for p in &map.paths {
        let pts: Vec<String> = p.hexes.iter().map(|&h| pt(w.centre(h))).collect();
        let style = if p.kind == "railway" {
            "stroke='#202020' stroke-width='1.6'"
        } else {
            "stroke='#b05a00' stroke-width='1.4' stroke-dasharray='4,2'"
        };
        let _ = writeln!(out, "<polyline points='{}' fill='none' {style}/>", pts.join(" "));
    }
    for l in &map.side_lines {
        let style = match l.kind.as_str() {
            "major-river" => "stroke='#1050d0' stroke-width='4'",
            "start-line" => "stroke='#e00000' stroke-width='3' stroke-dasharray='6,3'",
            _ => "stroke='#3080ff' stroke-width='2.2'",
        };
        for &s in &l.sides {
            if let Some((a, b)) = w.side_ends(s) {
                let _ = writeln!(
                    out,
                    "<line x1='{:.1}' y1='{:.1}' x2='{:.1}' y2='{:.1}' {style} stroke-linecap='round'/>",
                    a.0 * SCALE,
                    a.1 * SCALE,
                    b.0 * SCALE,
                    b.1 * SCALE
                );
            }
        }
    }
    for (name, hexes) in &map.sets {
        if !name.starts_with("supply-") && !name.starts_with("hq-") && name != "panzer-symbol" {
            continue;
        }
        for &h in hexes {
            let c = w.centre(h);
            let (label, fill) = if name == "supply-axis" {
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
                (c.1 + dy) * SCALE
            );
        }
    }
    for p in &map.places {
        let c = w.centre(p.hex);
        let r = if p.class == "city" { 4.0 } else { 2.2 };
        let fill = if p.vp { "#e0a000" } else { "#000000" };
        let _ = writeln!(
            out,
            "<circle cx='{:.1}' cy='{:.1}' r='{r}' fill='{fill}'/>",
            c.0 * SCALE,
            c.1 * SCALE
        );
        let _ = writeln!(
            out,
            "<text x='{:.1}' y='{:.1}' font-size='{}'>{}</text>",
            c.0 * SCALE + 3.0,
            c.1 * SCALE - 2.0,
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
                (p.1 + 0.42) * SCALE,
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

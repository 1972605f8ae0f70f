//! Writes the map file as TOML text, laid out for reading: one terrain row per line, long
//! lists of hexes and hexsides wrapped.

use crate::assemble::{Camp, Map};
use sandtable_core::hex::{IdFormat, Orientation, RowDirection, Shifted};
use std::fmt::Write;

/// What differs between the maps the tool writes, beside their content: the opening comment,
/// the scale, the terrain legend (each character with its terrain names, in the order written)
/// and the comment above the terrain rows.
pub struct Layout {
    pub header: String,
    pub scale_km: f64,
    pub legend: Vec<(char, Vec<String>)>,
    pub rows_comment: String,
}

/// A TOML basic string.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A list of strings, `per_line` to a line, indented.
fn list(items: &[String], per_line: usize) -> String {
    if items.len() <= per_line {
        let inner: Vec<String> = items.iter().map(|s| quote(s)).collect();
        return format!("[{}]", inner.join(", "));
    }
    let mut out = String::from("[\n");
    for chunk in items.chunks(per_line) {
        let inner: Vec<String> = chunk.iter().map(|s| quote(s)).collect();
        let _ = writeln!(out, "  {},", inner.join(", "));
    }
    out.push(']');
    out
}

pub fn to_toml(map: &Map, basis: &str) -> String {
    let g = &map.world.grid;
    let spec = g.spec();
    let lay = &map.layout;
    let mut out = String::new();
    out.push_str(&lay.header);
    out.push_str("[about]\nsource = \"reconstructed\"\n");
    let basis = basis.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let _ = writeln!(out, "basis = \"\"\"\n{basis}\"\"\"");
    let _ = writeln!(out, "scale_km = {:.1}\n", lay.scale_km);
    out.push_str("[grid]\n");
    match &spec.id_format {
        IdFormat::Xxyy { digits } => {
            let _ = writeln!(out, "id_format = {{ kind = \"xxyy\", digits = {digits} }}");
        }
        IdFormat::Sheets {
            letters,
            cols_per_sheet,
        } => {
            let _ = writeln!(
                out,
                "id_format = {{ kind = \"sheets\", letters = {}, cols_per_sheet = {cols_per_sheet} }}",
                quote(letters)
            );
        }
    }
    let orientation = match spec.orientation {
        Orientation::Flat => "flat",
        Orientation::Pointy => "pointy",
    };
    let shifted = match spec.shifted {
        Shifted::Even => "even",
        Shifted::Odd => "odd",
    };
    let row_direction = match spec.row_direction {
        RowDirection::Down => "down",
        RowDirection::Up => "up",
    };
    let _ = writeln!(out, "orientation = \"{orientation}\"");
    let _ = writeln!(out, "shifted = \"{shifted}\"\nrow_direction = \"{row_direction}\"");
    let (c0, c1) = (spec.cols[0] as i32, spec.cols[1] as i32);
    let (r0, r1) = (spec.rows[0] as i32, spec.rows[1] as i32);
    let _ = writeln!(out, "cols = [{c0}, {c1}]\nrows = [{r0}, {r1}]\n");
    out.push_str("[terrain]\nlegend = { ");
    let legend: Vec<String> = lay
        .legend
        .iter()
        .map(|(c, names)| {
            let names: Vec<String> = names.iter().map(|n| quote(n)).collect();
            format!("{} = [{}]", quote(&c.to_string()), names.join(", "))
        })
        .collect();
    out.push_str(&legend.join(", "));
    out.push_str(" }\n");
    let _ = writeln!(out, "{}", lay.rows_comment);
    out.push_str("rows = [\n");
    for r in r0..=r1 {
        let row: String = (c0..=c1)
            .map(|c| map.terrain[g.hex_at(c, r).expect("on the grid").idx()])
            .collect();
        let _ = writeln!(out, "  {}, # {r:02}", quote(&row));
    }
    out.push_str("]\n");

    let mut places: Vec<_> = map.places.iter().collect();
    places.sort_by_key(|p| p.hex);
    for p in places {
        out.push_str("\n[[place]]\n");
        let _ = writeln!(out, "hex = {}", quote(&map.id(p.hex)));
        let _ = writeln!(out, "name_en = {}", quote(&p.name_en));
        let _ = writeln!(out, "name_zh = {}", quote(&p.name_zh));
        let _ = writeln!(out, "terrain = [{}]", quote(&p.class));
        let mut tags = Vec::new();
        if p.vp {
            tags.push("vp".to_string());
        }
        match p.control {
            Some(Camp::Axis) => tags.push("control-axis".into()),
            Some(Camp::Soviet) => tags.push("control-soviet".into()),
            None => {}
        }
        tags.extend(p.extra_tags.iter().cloned());
        let _ = writeln!(out, "tags = {}", list(&tags, 8));
        let _ = writeln!(out, "source = {}", quote(&p.source));
    }

    for l in &map.side_lines {
        if l.sides.is_empty() {
            continue;
        }
        out.push_str("\n[[side_line]]\n");
        let _ = writeln!(out, "kind = {}", quote(&l.kind));
        let _ = writeln!(out, "name_en = {}", quote(&l.name_en));
        let _ = writeln!(out, "name_zh = {}", quote(&l.name_zh));
        let sides: Vec<String> = l
            .sides
            .iter()
            .map(|&(a, b)| format!("{}/{}", map.id(a), map.id(b)))
            .collect();
        let _ = writeln!(out, "sides = {}", list(&sides, 8));
    }

    // The bridges over major rivers (tools/mapgen/geo/bridges.csv): the only hexsides where a
    // railway or road crosses one.
    for b in &map.bridges {
        out.push_str("\n[[side_line]]\n");
        let _ = writeln!(out, "kind = \"bridge\"");
        let _ = writeln!(out, "name_en = {}", quote(&b.name_en));
        let _ = writeln!(out, "name_zh = {}", quote(&b.name_zh));
        let _ = writeln!(out, "sides = [\"{}/{}\"]", map.id(b.side.0), map.id(b.side.1));
    }

    for p in &map.paths {
        out.push_str("\n[[path]]\n");
        let _ = writeln!(out, "kind = {}", quote(&p.kind));
        let _ = writeln!(out, "name_en = {}", quote(&p.name_en));
        let _ = writeln!(out, "name_zh = {}", quote(&p.name_zh));
        let hexes: Vec<String> = p.hexes.iter().map(|&h| map.id(h)).collect();
        let _ = writeln!(out, "hexes = {}", list(&hexes, 12));
    }

    for (name, hexes) in &map.sets {
        out.push_str("\n[[hex_set]]\n");
        let _ = writeln!(out, "name = {}", quote(name));
        let hexes: Vec<String> = hexes.iter().map(|&h| map.id(h)).collect();
        let _ = writeln!(out, "hexes = {}", list(&hexes, 12));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(quote("斯大林格勒"), "\"斯大林格勒\"");
    }
}

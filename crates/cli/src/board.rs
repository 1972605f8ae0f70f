//! The board in the terminal, for any game: the map's hexes, or its spaces and the lines between
//! them, and the pieces are read from the same SVG the browser shows (`data-hex` outlines;
//! `data-space` boxes with their `data-name` and lines with the `data-a` and `data-b` they join;
//! counters in `<g class="stack">` with their `data-id`, short label and `<title>`), so a new game
//! needs no code here.

use std::collections::BTreeMap;

/// One hex of the map: its printed id and its centre in the drawing.
#[derive(Clone, Debug)]
pub struct Cell {
    pub id: String,
    pub x: f64,
    pub y: f64,
}

/// The hexes of a map, with their size.
#[derive(Clone, Debug, Default)]
pub struct Hexes {
    pub cells: Vec<Cell>,
    /// Centre to corner.
    pub radius: f64,
}

/// One counter on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub id: String,
    /// The label printed on the counter (`9Cav`, `R3A`).
    pub label: String,
    /// Its name with its values (`Romanian 9th Cavalry Division (2-5)`).
    pub title: String,
}

/// The value of `attr="…"` (or `attr='…'`, as the pieces layer quotes) in `tag`.
fn attr<'a>(tag: &'a str, attr: &str) -> Option<&'a str> {
    let key = format!(" {attr}=");
    let at = tag.find(&key)? + key.len();
    let quote = tag[at..].chars().next().filter(|&q| q == '"' || q == '\'')?;
    let start = at + 1;
    let len = tag[start..].find(quote)?;
    Some(&tag[start..start + len])
}

/// The corners of an SVG path made of `M`, `l`, `h`, `v`, `L`, `H`, `V` and `z`.
fn corners(d: &str) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut cur = String::new();
    for ch in d.chars() {
        if ch.is_ascii_alphabetic() {
            if !cur.is_empty() {
                tokens.push(std::mem::take(&mut cur));
            }
            tokens.push(ch.to_string());
        } else if ch == '-' {
            if !cur.is_empty() && !cur.ends_with('e') {
                tokens.push(std::mem::take(&mut cur));
            }
            cur.push(ch);
        } else if ch == ' ' || ch == ',' {
            if !cur.is_empty() {
                tokens.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(ch);
        }
    }
    if !cur.is_empty() {
        tokens.push(cur);
    }
    let (mut x, mut y) = (0.0, 0.0);
    let mut cmd = 'M';
    let mut nums: Vec<f64> = Vec::new();
    let flush = |cmd: char, nums: &mut Vec<f64>, x: &mut f64, y: &mut f64, out: &mut Vec<(f64, f64)>| {
        match cmd {
            'M' | 'L' => {
                for p in nums.chunks(2).filter(|p| p.len() == 2) {
                    (*x, *y) = (p[0], p[1]);
                    out.push((*x, *y));
                }
            }
            'm' | 'l' => {
                for p in nums.chunks(2).filter(|p| p.len() == 2) {
                    (*x, *y) = (*x + p[0], *y + p[1]);
                    out.push((*x, *y));
                }
            }
            'h' => nums.iter().for_each(|d| {
                *x += d;
                out.push((*x, *y));
            }),
            'H' => nums.iter().for_each(|d| {
                *x = *d;
                out.push((*x, *y));
            }),
            'v' => nums.iter().for_each(|d| {
                *y += d;
                out.push((*x, *y));
            }),
            'V' => nums.iter().for_each(|d| {
                *y = *d;
                out.push((*x, *y));
            }),
            _ => {}
        }
        nums.clear();
    };
    for t in tokens {
        match t.parse::<f64>() {
            Ok(n) => nums.push(n),
            Err(_) => {
                flush(cmd, &mut nums, &mut x, &mut y, &mut out);
                cmd = t.chars().next().unwrap_or('z');
            }
        }
    }
    flush(cmd, &mut nums, &mut x, &mut y, &mut out);
    // A closed outline ends where it began.
    if out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    out
}

/// The hexes of a map SVG (`sandtable render`, `map.svg`); none for a map without hexes.
pub fn hexes(map_svg: &str) -> Hexes {
    let mut cells = Vec::new();
    let mut radius: f64 = 0.0;
    for part in map_svg.split('<').skip(1) {
        if !part.starts_with("path") {
            continue;
        }
        let tag = &part[..part.find('>').unwrap_or(part.len())];
        let (Some(id), Some(d)) = (attr(tag, "data-hex"), attr(tag, "d")) else {
            continue;
        };
        let pts = corners(d);
        if pts.len() < 3 {
            continue;
        }
        let n = pts.len() as f64;
        let x = pts.iter().map(|p| p.0).sum::<f64>() / n;
        let y = pts.iter().map(|p| p.1).sum::<f64>() / n;
        let r = pts
            .iter()
            .map(|p| ((p.0 - x).powi(2) + (p.1 - y).powi(2)).sqrt())
            .fold(0.0, f64::max);
        radius = radius.max(r);
        cells.push(Cell {
            id: id.to_string(),
            x,
            y,
        });
    }
    Hexes { cells, radius }
}

/// One space of a point-to-point map: its id and its name as the map prints it.
#[derive(Clone, Debug)]
pub struct Place {
    pub id: String,
    pub name: String,
}

/// The spaces of a point-to-point map and the lines joining them (by index into `places`).
#[derive(Clone, Debug, Default)]
pub struct Spaces {
    pub places: Vec<Place>,
    pub lines: Vec<(usize, usize)>,
}

impl Spaces {
    /// How many lines out of `centre` the farthest of `targets` (space ids) is; `None` if
    /// `centre` is no space or none of `targets` can be reached.
    pub fn lines_out<'a>(&self, centre: &str, targets: impl IntoIterator<Item = &'a String>) -> Option<u32> {
        let dist = self.distances(self.find(centre)?, u32::MAX);
        targets
            .into_iter()
            .filter_map(|t| self.places.iter().position(|p| &p.id == t))
            .filter_map(|i| (dist[i] != u32::MAX).then_some(dist[i]))
            .max()
    }

    /// Each space's number of lines from `from` (`u32::MAX` beyond `radius`), and the spaces
    /// reached in order, nearest first.
    fn distances_in_order(&self, from: usize, radius: u32) -> (Vec<u32>, Vec<usize>) {
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); self.places.len()];
        for &(a, b) in &self.lines {
            next[a].push(b);
            next[b].push(a);
        }
        let mut dist = vec![u32::MAX; self.places.len()];
        dist[from] = 0;
        let mut order = vec![from];
        let mut i = 0;
        while i < order.len() {
            let s = order[i];
            i += 1;
            if dist[s] == radius {
                continue;
            }
            for &t in &next[s] {
                if dist[t] == u32::MAX {
                    dist[t] = dist[s] + 1;
                    order.push(t);
                }
            }
        }
        (dist, order)
    }

    fn distances(&self, from: usize, radius: u32) -> Vec<u32> {
        self.distances_in_order(from, radius).0
    }

    /// The spaces a line joins to `s`.
    fn next_to(&self, s: usize) -> impl Iterator<Item = usize> + '_ {
        self.lines
            .iter()
            .filter_map(move |&(a, b)| (a == s).then_some(b).or((b == s).then_some(a)))
    }

    /// A space named by its id or by its name (either case).
    fn find(&self, what: &str) -> Option<usize> {
        let what = what.trim();
        self.places
            .iter()
            .position(|p| p.id.eq_ignore_ascii_case(what))
            .or_else(|| {
                self.places
                    .iter()
                    .position(|p| p.name.to_lowercase() == what.to_lowercase())
            })
    }
}

/// The spaces and lines of a point-to-point map SVG; none for a hex map.
pub fn spaces(map_svg: &str) -> Spaces {
    let mut places = Vec::new();
    let mut ends = Vec::new();
    for part in map_svg.split('<').skip(1) {
        let tag = &part[..part.find('>').unwrap_or(part.len())];
        if tag.starts_with("rect") {
            if let Some(id) = attr(tag, "data-space") {
                let name = attr(tag, "data-name").map_or_else(|| id.to_string(), unescape);
                places.push(Place {
                    id: id.to_string(),
                    name,
                });
            }
        } else if tag.starts_with("path") {
            if let (Some(a), Some(b)) = (attr(tag, "data-a"), attr(tag, "data-b")) {
                ends.push((a.to_string(), b.to_string()));
            }
        }
    }
    let index: BTreeMap<&str, usize> = places.iter().enumerate().map(|(i, p)| (p.id.as_str(), i)).collect();
    let lines = ends
        .iter()
        .filter_map(|(a, b)| Some((*index.get(a.as_str())?, *index.get(b.as_str())?)))
        .collect();
    Spaces { places, lines }
}

/// What the pieces layer of a point-to-point map says of its spaces in words (who holds one,
/// its trench, its fort: each mark's `data-note`), by space id.
pub fn space_notes(svg: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = svg;
    while let Some(at) = rest.find(" data-mark=") {
        let open = rest[..at].rfind('<').unwrap_or(0);
        let tag = &rest[open..at + rest[at..].find('>').unwrap_or(rest.len() - at)];
        if let (Some(space), Some(note)) = (attr(tag, "data-mark"), attr(tag, "data-note")) {
            out.insert(space.to_string(), unescape(note));
        }
        rest = &rest[at + 1..];
    }
    out
}

/// The spaces within `radius` lines of `centre` (an id or a name), nearest first: each with
/// the spaces its lines go to, what the position says of it (`notes`), its counters and the
/// note of `marked` (by space id). `None` if there is no such space.
pub fn around_spaces(
    map: &Spaces,
    stacks: &BTreeMap<String, Vec<Piece>>,
    notes: &BTreeMap<String, String>,
    centre: &str,
    radius: u32,
    marked: &BTreeMap<String, String>,
) -> Option<String> {
    let c = map.find(centre)?;
    let (_, order) = map.distances_in_order(c, radius);
    let mut out = Vec::new();
    for s in order {
        let p = &map.places[s];
        let mut to: Vec<&str> = map.next_to(s).map(|t| map.places[t].name.as_str()).collect();
        to.sort_unstable();
        let mark = if marked.contains_key(&p.id) { "*" } else { "" };
        let head = if s == c {
            format!("[{}]{mark} ({})", p.name, p.id)
        } else {
            format!("{}{mark} ({})", p.name, p.id)
        };
        let mut line = format!("{head} → {}", to.join(", "));
        if let Some(note) = notes.get(&p.id) {
            line.push_str(&format!("\n    {note}"));
        }
        if let Some(here) = stacks.get(&p.id) {
            let units: Vec<String> = here.iter().map(|u| format!("{} [{}]", u.title, u.id)).collect();
            line.push_str(&format!("\n    {}", units.join("; ")));
        }
        if let Some(note) = marked.get(&p.id) {
            line.push_str(format!("\n    * {note}").trim_end());
        }
        out.push(line);
    }
    Some(out.join("\n"))
}

/// Undoes the escaping of SVG text.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The counters of a pieces layer (or a whole board), by hex, in drawing order.
pub fn pieces(svg: &str) -> BTreeMap<String, Vec<Piece>> {
    let mut out: BTreeMap<String, Vec<Piece>> = BTreeMap::new();
    let mut hex: Option<String> = None;
    let mut rest = svg;
    let is_counter = |class: &str| class == "ctr" || class.starts_with("ctr ");
    while let Some(at) = rest.find("<g class=") {
        rest = &rest[at..];
        let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
        let class = attr(tag, "class").unwrap_or_default();
        if class == "stack" || class == "stack box" {
            hex = attr(tag, "data-hex")
                .or_else(|| attr(tag, "data-space"))
                .map(str::to_string);
        } else if is_counter(class) {
            if let (Some(h), Some(id)) = (hex.clone(), attr(tag, "data-id")) {
                let body = &rest[tag.len()..];
                let end = ["<g class=\"ctr", "<g class='ctr"]
                    .iter()
                    .filter_map(|open| body.find(open))
                    .min()
                    .unwrap_or(body.len());
                let body = &body[..end];
                let between = |open: &str, close: &str| -> String {
                    body.find(open)
                        .and_then(|s| {
                            let from = s + open.len();
                            let from = from + body[from..].find('>')? + 1;
                            let to = from + body[from..].find(close)?;
                            Some(unescape(&body[from..to]))
                        })
                        .unwrap_or_default()
                };
                let title = between("<title", "</title>");
                let label = between("<text", "</text>");
                out.entry(h).or_default().push(Piece {
                    id: id.to_string(),
                    label,
                    title,
                });
            }
        }
        rest = &rest[1..];
    }
    out
}

/// How many columns `s` takes in a terminal (CJK characters take two).
pub fn width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            if ('\u{1100}'..='\u{115f}').contains(&c)
                || ('\u{2e80}'..='\u{a4cf}').contains(&c)
                || ('\u{ac00}'..='\u{d7a3}').contains(&c)
                || ('\u{f900}'..='\u{faff}').contains(&c)
                || ('\u{fe30}'..='\u{fe4f}').contains(&c)
                || ('\u{ff00}'..='\u{ff60}').contains(&c)
                || ('\u{ffe0}'..='\u{ffe6}').contains(&c)
            {
                2
            } else {
                1
            }
        })
        .sum()
}

/// `s` cut to at most `w` columns and padded to exactly `w`.
fn fit(s: &str, w: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let cw = width(&c.to_string());
        if used + cw > w {
            break;
        }
        out.push(c);
        used += cw;
    }
    out.push_str(&" ".repeat(w - used));
    out
}

/// The board within `radius` hexes of `centre`, drawn as staggered columns: each hex shows
/// its id, the label of its top counter and how many more are there (`+2`), `*` when it is
/// one of `marked` (with the note after it, as `3 MP`). Then the counters of each hex by name.
/// `None` if there is no such hex.
pub fn around(
    map: &Hexes,
    stacks: &BTreeMap<String, Vec<Piece>>,
    centre: &str,
    radius: u32,
    marked: &BTreeMap<String, String>,
) -> Option<String> {
    let c = map.cells.iter().find(|c| c.id.eq_ignore_ascii_case(centre))?;
    let r = map.radius.max(1.0);
    // Neighbouring centres are √3·r apart.
    let reach = (radius as f64) * 3f64.sqrt() * r * 1.05;
    let near: Vec<&Cell> = map
        .cells
        .iter()
        .filter(|h| ((h.x - c.x).powi(2) + (h.y - c.y).powi(2)).sqrt() <= reach)
        .collect();
    // Columns 1.5·r apart, half rows √3·r/2 apart.
    let col = |h: &Cell| ((h.x - c.x) / (1.5 * r)).round() as i64;
    let row = |h: &Cell| ((h.y - c.y) / (3f64.sqrt() * r / 2.0)).round() as i64;
    let (c0, c1) = (
        near.iter().map(|h| col(h)).min().unwrap_or(0),
        near.iter().map(|h| col(h)).max().unwrap_or(0),
    );
    let (r0, r1) = (
        near.iter().map(|h| row(h)).min().unwrap_or(0),
        near.iter().map(|h| row(h)).max().unwrap_or(0),
    );
    const W: usize = 16;
    let mut lines = Vec::new();
    for rr in r0..=r1 {
        let mut line = String::new();
        let mut any = false;
        for cc in c0..=c1 {
            let cell = near.iter().find(|h| col(h) == cc && row(h) == rr);
            let text = match cell {
                Some(h) => {
                    any = true;
                    let here = stacks.get(&h.id);
                    let top = here.and_then(|p| p.first()).map_or(".".to_string(), |p| {
                        let more = here.map_or(0, |p| p.len().saturating_sub(1));
                        if more > 0 {
                            format!("{}+{more}", p.label)
                        } else {
                            p.label.clone()
                        }
                    });
                    let mark = if marked.contains_key(&h.id) { "*" } else { "" };
                    if h.id == c.id {
                        format!("[{}]{mark}{top}", h.id)
                    } else {
                        format!("{}{mark} {top}", h.id)
                    }
                }
                None => String::new(),
            };
            line.push_str(&fit(&text, W));
        }
        if any {
            lines.push(line.trim_end().to_string());
        }
    }
    let mut out = lines.join("\n");
    let mut listed: Vec<&Cell> = near.clone();
    listed.sort_by(|a, b| a.id.cmp(&b.id));
    for h in listed {
        let mut parts: Vec<String> = Vec::new();
        if let Some(p) = stacks.get(&h.id) {
            parts.extend(p.iter().map(|p| format!("{} [{}]", p.title, p.id)));
        }
        if let Some(note) = marked.get(&h.id) {
            parts.push(format!("* {note}").trim_end().to_string());
        }
        if !parts.is_empty() {
            out.push_str(&format!("\n  {}: {}", h.id, parts.join("; ")));
        }
    }
    Some(out)
}

/// The labels the board writes on hexes (barrage markers, ZOC Bonds, demolition charges, …),
/// each with the hexes it is written on: read from the `<g class="ml">` labels of a pieces
/// layer, each placed at the hex whose centre is nearest.
pub fn hex_labels(map: &Hexes, pieces_svg: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let Some(start) = ["<g class='ml'>", "<g class=\"ml\">"]
        .iter()
        .find_map(|open| pieces_svg.find(open))
    else {
        return out;
    };
    let body = &pieces_svg[start..];
    let body = &body[..body.find("</g>").unwrap_or(body.len())];
    for part in body.split("<text").skip(1) {
        let tag = &part[..part.find('>').unwrap_or(0)];
        let (Some(x), Some(y)) = (
            attr(tag, "x").and_then(|v| v.parse::<f64>().ok()),
            attr(tag, "y").and_then(|v| v.parse::<f64>().ok()),
        ) else {
            continue;
        };
        let text = part[tag.len()..].trim_start_matches('>');
        let label = unescape(&text[..text.find("</text>").unwrap_or(text.len())]);
        if label.trim().is_empty() {
            continue;
        }
        let nearest = map.cells.iter().min_by(|a, b| {
            let da = (a.x - x).powi(2) + (a.y - y).powi(2);
            let db = (b.x - x).powi(2) + (b.y - y).powi(2);
            da.total_cmp(&db)
        });
        let Some(cell) = nearest else { continue };
        match out.iter_mut().find(|(l, _)| *l == label) {
            Some((_, hexes)) => hexes.push(cell.id.clone()),
            None => out.push((label, vec![cell.id.clone()])),
        }
    }
    for (_, hexes) in &mut out {
        hexes.sort();
        hexes.dedup();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hexes_and_pieces_are_read_from_the_svg() {
        let map = r#"<svg><path class="t0" data-hex="0101" d="M80 76l-15 26h-30l-15-26l15-26h30z"/><path class="t0" data-hex="0102" d="M80 127.9l-15 26h-30l-15-26l15-26h30z"/><path class="t1" data-hex="0201" d="M125 102l-15 26h-30l-15-26l15-26h30z"/></svg>"#;
        let h = hexes(map);
        assert_eq!(h.cells.len(), 3);
        assert!((h.cells[0].x - 50.0).abs() < 1e-6 && (h.cells[0].y - 76.0).abs() < 1e-6);
        assert!((h.radius - 30.0).abs() < 0.1);
        let svg = r#"<g class="pieces"><g class="stack" data-hex="0102" data-count="2"><g class="ctr" data-id="a-1"><title>First &amp; best (2-5)</title><rect/><text x="1">A1</text></g><g class="ctr reduced" data-id="b-2"><title>Second (1-1)</title><text>B2</text></g></g></g>"#;
        let p = pieces(svg);
        assert_eq!(p["0102"].len(), 2);
        assert_eq!(p["0102"][0].title, "First & best (2-5)");
        assert_eq!(p["0102"][1].label, "B2");
        let marked = BTreeMap::from([("0201".to_string(), "3 MP".to_string())]);
        let text = around(&h, &p, "0101", 1, &marked).expect("the hex exists");
        assert!(text.contains("[0101]"), "{text}");
        assert!(text.contains("0102 A1+1"), "{text}");
        assert!(text.contains("0201*"), "{text}");
        assert!(text.contains("0201: * 3 MP"), "{text}");
        assert!(around(&h, &p, "9999", 1, &marked).is_none());
        assert!(spaces(map).places.is_empty(), "a hex map has no spaces");
        assert_eq!(width("第1装甲"), 7);
    }

    /// A point-to-point map: Kiev – Kharkov – Rostov in a line, a stack in Kharkov; within one
    /// line of Kiev are Kiev and Kharkov, within two Rostov too.
    #[test]
    fn spaces_and_their_lines_are_read_from_the_svg() {
        let map = r#"<svg><g class="ln"><path d="M0 0L10 0" data-a="kiev" data-b="kharkov"/><path class="c0" d="M10 0L20 0" data-a="kharkov" data-b="rostov"/></g><g class="sp"><rect data-space="kiev" x="0" data-name="Kiev"/><rect data-space="kharkov" x="1" data-name="Kharkov"/><rect data-space="rostov" x="2" data-name="Rostov &lt;on Don&gt;"/></g></svg>"#;
        let m = spaces(map);
        assert_eq!(m.places.len(), 3);
        assert_eq!(m.lines, [(0, 1), (1, 2)]);
        assert_eq!(m.places[2].name, "Rostov <on Don>");
        assert!(hexes(map).cells.is_empty(), "a point-to-point map has no hexes");
        let svg = r#"<g class="pieces"><g class='mk'><rect x='1' fill='#000' data-mark='kharkov' data-note='held by &lt;them&gt;; trench level 1'/><rect x='2' fill='#000'/></g><g class='stack' data-space='kharkov' data-count='1'><g class='ctr' data-id='su-1'><title>1st Guards (4-3)</title><text>1 Gd</text></g></g></g>"#;
        let p = pieces(svg);
        assert_eq!(p["kharkov"][0].label, "1 Gd");
        let notes = space_notes(svg);
        assert_eq!(notes.len(), 1);
        let marked = BTreeMap::from([("kharkov".to_string(), "move 2".to_string())]);
        let one = around_spaces(&m, &p, &notes, "Kiev", 1, &marked).expect("found by name");
        assert_eq!(
            one,
            "[Kiev] (kiev) → Kharkov\nKharkov* (kharkov) → Kiev, Rostov <on Don>\n    held by <them>; trench level 1\n    1st Guards (4-3) [su-1]\n    * move 2"
        );
        let two = around_spaces(&m, &p, &notes, "kiev", 2, &marked).expect("found by id");
        assert!(two.ends_with("Rostov <on Don> (rostov) → Kharkov"), "{two}");
        assert!(around_spaces(&m, &p, &notes, "moscow", 1, &marked).is_none());
        let targets = ["rostov".to_string(), "kharkov".to_string()];
        assert_eq!(m.lines_out("kiev", &targets), Some(2));
        assert_eq!(m.lines_out("kiev", &["kiev".to_string()]), Some(0));
        assert_eq!(m.lines_out("moscow", &targets), None);
    }
}

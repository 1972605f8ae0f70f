//! The map and its counters drawn as SVG, once for every game.
//!
//! Players judge a wargame by its board, and every rule system needs the same drawing: hexes
//! in their terrain colours with the printed ids, rivers on hexsides, roads and railways from
//! centre to centre, towns and cities with their names, and counters with NATO symbols. So
//! the drawing lives here; a game only chooses colours and symbols ([`MapStyle`]) and says
//! which counters stand where ([`Counter`]) and which hexes to highlight ([`HexMark`]).
//!
//! The output is one self-contained SVG document, kept small because the full maps have
//! thousands of hexes: coordinates rounded to a tenth of a pixel, one `<style>` block, layers
//! grouped in `<g>` elements with classes, shared shapes defined once and placed with `<use>`.
//! Every hex outline carries `data-hex` (its printed id) and every counter `data-id`, so a
//! browser can tell what was clicked. Hexes are about 60 pixels wide.

use crate::graph::{PointMap, Space};
use crate::hex::{Hex, Orientation, RowDirection};
use crate::map::HexMap;
use crate::text::Lang;
use std::collections::{BTreeMap, VecDeque};
use std::fmt::{self, Write};

/// Appends formatted text to a `String` (which cannot fail).
macro_rules! w {
    ($out:expr, $($arg:tt)*) => {{
        let _ = write!($out, $($arg)*);
    }};
}

/// How one terrain is painted.
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainStyle {
    /// The terrain name, as the map file spells it.
    pub terrain: String,
    /// Fill colour of the hexes with this terrain. Entries are painted in list order, so a
    /// later entry ("forest") paints over an earlier one ("plain") in a hex that has both.
    pub fill: String,
    /// A symbol drawn in every hex with this terrain (smaller, side by side, where a hex has
    /// several), so the terrain still shows where a later entry paints over its fill.
    pub symbol: Option<TerrainSymbol>,
}

impl TerrainStyle {
    pub fn new(terrain: &str, fill: &str, symbol: Option<TerrainSymbol>) -> TerrainStyle {
        TerrainStyle {
            terrain: terrain.into(),
            fill: fill.into(),
            symbol,
        }
    }
}

/// Symbols drawn over a hex's fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TerrainSymbol {
    /// Dots of tree tops (forest).
    Trees,
    /// Tufts of reeds (swamp, marsh).
    Marsh,
    /// Mountain peaks.
    Peaks,
    /// A large cross (impassable).
    Cross,
}

/// Where a line feature is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// On the hexside shared by the two hexes of each pair in [`HexMap::side_lines`] (rivers,
    /// major rivers, a start line).
    Hexside,
    /// From hex centre to hex centre along [`HexMap::paths`] (roads).
    Path,
    /// Like [`LineKind::Path`], with cross-ties (railways).
    Railway,
    /// A short bar across the hexside of each pair in [`HexMap::side_lines`], along the line
    /// from one hex centre to the other (bridges).
    Crossing,
}

/// How one line feature (a side line or path kind of the map file) is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct LineStyle {
    /// The `kind` of the map file's side lines or paths.
    pub feature: String,
    pub stroke: String,
    /// Width in pixels (a hex is about 60 pixels wide).
    pub width: f64,
    /// An SVG dash pattern such as `"6 3"`.
    pub dash: Option<String>,
    pub kind: LineKind,
}

impl LineStyle {
    pub fn new(feature: &str, stroke: &str, width: f64, dash: Option<&str>, kind: LineKind) -> LineStyle {
        LineStyle {
            feature: feature.into(),
            stroke: stroke.into(),
            width,
            dash: dash.map(Into::into),
            kind,
        }
    }
}

/// A mark drawn beside the places that carry a tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagMark {
    /// A red star (victory points).
    Star,
    /// A small flag (a supply source).
    Flag { color: String },
    /// A ring (any other objective).
    Ring { color: String },
}

/// Everything a game chooses about how its hex map looks. Lines and terrains are drawn in list
/// order; names the map does not use are ignored.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapStyle {
    pub terrains: Vec<TerrainStyle>,
    pub lines: Vec<LineStyle>,
    /// The terrain that makes a hex a city (drawn as a large square).
    pub city_terrain: Option<String>,
    /// The terrain that makes a hex a town (drawn as a small circle).
    pub town_terrain: Option<String>,
    /// Marks for place tags, such as `("vp", TagMark::Star)`.
    pub tag_marks: Vec<(String, TagMark)>,
}

/// The unit symbol inside a counter's NATO box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NatoSymbol {
    /// A cross.
    Infantry,
    /// An ellipse (tank track).
    Armor,
    /// Motorised or mechanised: cross and ellipse.
    Mechanized,
    /// One diagonal.
    Cavalry,
    /// Mountain infantry: the cross with a triangle.
    Mountain,
    /// A flag on its staff.
    Headquarters,
    /// A battlement.
    Fortress,
    /// A solid dot (artillery).
    Artillery,
    /// Not a unit: a ring and no box.
    Marker,
    /// No symbol and no box.
    None,
}

/// A counter on the map: `Counter` on a hex map, `Counter<Space>` on a point-to-point map.
#[derive(Clone, Debug, PartialEq)]
pub struct Counter<N = Hex> {
    /// The hex (or, on a point-to-point map, the space) it stands in.
    pub hex: N,
    /// Background colour (by nationality).
    pub fill: String,
    /// Colour of the frame, symbol and text.
    pub ink: String,
    /// Printed above the symbol.
    pub name: String,
    pub symbol: NatoSymbol,
    /// Printed below the symbol, as `"3-4-6"`.
    pub factors: String,
    /// The reduced side: drawn with a diagonal stripe and the class `reduced`.
    pub reduced: bool,
    /// Tooltip.
    pub title: String,
    /// The `data-id` attribute, for the browser.
    pub id: String,
}

/// A highlighted hex (or space): reachable hexes, a chosen target and so on.
#[derive(Clone, Debug, PartialEq)]
pub struct HexMark<N = Hex> {
    /// The hex (or, on a point-to-point map, the space).
    pub hex: N,
    /// Colour laid half-transparent over the hex.
    pub fill: String,
    /// A short text in the middle of the hex (a cost, say); may be empty.
    pub label: String,
    /// What the mark means, in words of the board's language ("held by the Allies; trench
    /// level 1"); may be empty. A point-to-point map writes it on the space's mark as
    /// `data-note`, for the page's hover and the terminal's map.
    pub note: String,
}

/// How a point-to-point map looks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PointStyle {
    /// Space fills by terrain bits: the last entry whose mask meets a space's terrain paints
    /// it; spaces that match none are white.
    pub spaces: Vec<(u32, String)>,
    /// Connection strokes: the last entry whose mask meets a connection's features draws it;
    /// connections that match none are plain grey lines.
    pub connections: Vec<ConnectionStyle>,
    /// Holding boxes off the map's lines (a reserve, the eliminated units): each space drawn
    /// as a box of its own size in pixels, its counters side by side in rows instead of stacked.
    pub boxes: Vec<(Space, f64, f64)>,
    /// Height of a band under the map left for what the game draws there (its tracks).
    pub band: f64,
}

/// Where a point-to-point map puts things, for a game drawing its own marks on it: each space's
/// centre, the map's size without the band under it, and the scale from the data's units.
#[derive(Clone, Debug, PartialEq)]
pub struct PointFrame {
    pub centres: Vec<(f64, f64)>,
    pub width: f64,
    pub height: f64,
    pub scale: f64,
}

/// The frame a map is drawn in (see [`PointFrame`]).
pub fn point_frame(map: &PointMap) -> PointFrame {
    let lay = PointLayout::new(map);
    PointFrame {
        centres: lay.centres,
        width: lay.width,
        height: lay.height,
        scale: lay.scale,
    }
}

/// How the connections with some feature bits are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct ConnectionStyle {
    pub mask: u32,
    pub stroke: String,
    pub width: f64,
    pub dash: Option<String>,
}

/// Width of a hex in pixels.
const HEX_WIDTH: f64 = 60.0;
/// Side of a counter in pixels: 0.6 of the hex width.
const COUNTER: f64 = 36.0;
/// The size of place names on a hex map, in pixels (`.nm text`).
const NAME_FONT: f64 = 9.5;
/// How far each next counter of a stack is shifted up and right, at most.
const STACK_STEP: f64 = 4.0;
const MARGIN: f64 = 20.0;
/// Height of the band above the map that holds the title.
const TITLE_BAND: f64 = 30.0;
/// Point-to-point maps: size of a space's box, and the least distance between two spaces.
const BOX_W: f64 = 92.0;
const BOX_H: f64 = 62.0;
const MIN_SPACING: f64 = 112.0;

/// Draws a hex map with its counters and highlighted hexes, names in `lang`, `title` on top.
pub fn render_hex_map(
    map: &HexMap,
    style: &MapStyle,
    counters: &[Counter],
    marks: &[HexMark],
    lang: Lang,
    title: &str,
) -> String {
    let lay = HexLayout::new(map);
    let mut out = String::with_capacity(map.grid.len() * 150 + 8192);
    write_hex_base(&mut out, map, style, &lay, marks, lang, title);
    write_counters(&mut out, counters, "data-hex", |h| {
        Some((lay.centres.get(h.idx()).copied()?, map.grid.id(h).0))
    });
    out.push_str("</svg>");
    out
}

/// The map alone, as it stays all game: terrain, lines, names, and the highlights that do not
/// change (`fixed_marks`: a scenario's playing area, say). It ends with an empty
/// `<g class="pieces">`, the place of what [`render_hex_pieces`] draws. A page loads it once
/// per game and language and keeps it.
pub fn render_hex_base(map: &HexMap, style: &MapStyle, fixed_marks: &[HexMark], lang: Lang, title: &str) -> String {
    let lay = HexLayout::new(map);
    let mut out = String::with_capacity(map.grid.len() * 150 + 8192);
    write_hex_base(&mut out, map, style, &lay, fixed_marks, lang, title);
    out.push_str(EMPTY_PIECES);
    out.push_str("\n</svg>");
    out
}

/// What changes on the map from one step to the next: the lines that come and go (`lines`, a
/// bridge built on a given day; drawn with their style inline), the highlighted hexes and
/// their labels, and the counters, as one `<g class="pieces">` to put in place of the one in
/// [`render_hex_base`] ([`put_pieces`]).
pub fn render_hex_pieces(map: &HexMap, lines: &[LineStyle], counters: &[Counter], marks: &[HexMark]) -> String {
    let lay = HexLayout::new(map);
    let at = |h: Hex| lay.centres.get(h.idx()).copied();
    let mut out = String::with_capacity(counters.len() * 400 + marks.len() * 60 + 256);
    out.push_str("<g class='pieces'>\n");
    if !lines.is_empty() {
        write_changing_lines(&mut out, map, &lay, lines);
    }
    write_marks(&mut out, &lay, marks);
    write_mark_labels(&mut out, marks, at);
    write_counters(&mut out, counters, "data-hex", |h| Some((at(h)?, map.grid.id(h).0)));
    out.push_str("</g>");
    out
}

/// The whole board: the map alone ([`render_hex_base`]) with the pieces
/// ([`render_hex_pieces`]) in the place it keeps for them.
pub fn put_pieces(base: &str, pieces: &str) -> String {
    base.replacen(EMPTY_PIECES, pieces, 1)
}

/// The empty layer that ends the map alone, where the pieces go.
pub const EMPTY_PIECES: &str = "<g class=\"pieces\"></g>";

/// The highlighted hexes, those of one colour in one path, in the order each colour first
/// appears (a scenario's shaded out-of-play area can be thousands of hexes).
fn write_marks(out: &mut String, lay: &HexLayout, marks: &[HexMark]) {
    out.push_str("<g class='mk'>\n");
    let mut fills: Vec<&str> = Vec::new();
    for m in marks {
        if !fills.contains(&m.fill.as_str()) {
            fills.push(&m.fill);
        }
    }
    for fill in fills {
        w!(out, "<path fill='{}' d='", Esc(fill));
        for c in marks
            .iter()
            .filter(|m| m.fill == fill)
            .filter_map(|m| lay.centres.get(m.hex.idx()).copied())
        {
            lay.outline(out, c);
        }
        out.push_str("'/>\n");
    }
    out.push_str("</g>\n");
}

/// The labels of highlighted hexes.
fn write_mark_labels(out: &mut String, marks: &[HexMark], at: impl Fn(Hex) -> Option<(f64, f64)>) {
    out.push_str("<g class='ml'>\n");
    for m in marks.iter().filter(|m| !m.label.is_empty()) {
        if let Some((x, y)) = at(m.hex) {
            // A sign of one character stands on the hex's right, beside any counter in it and
            // clear of the place's name; a word in the middle.
            let x = if m.label.chars().count() == 1 { x + 23.5 } else { x };
            w!(out, "<text x='{}' y='{}'>{}</text>\n", N(x), N(y + 4.0), Esc(&m.label));
        }
    }
    out.push_str("</g>\n");
}

/// The path data of the lines of one style: hexside lines along the sides, crossings over
/// them, paths and railways from centre to centre. Empty if the map has none.
fn line_data(map: &HexMap, lay: &HexLayout, ls: &LineStyle) -> String {
    let at = |h: Hex| lay.centres.get(h.idx()).copied();
    let mut d = PathData::default();
    match ls.kind {
        LineKind::Hexside => {
            for line in map.side_lines.iter().filter(|l| l.kind == ls.feature) {
                for pair in line.hexes.chunks_exact(2) {
                    if let (Some(a), Some(b)) = (at(pair[0]), at(pair[1])) {
                        let (p, q) = hexside(a, b, lay.radius);
                        d.segment(p, q);
                    }
                }
            }
        }
        LineKind::Crossing => {
            for line in map.side_lines.iter().filter(|l| l.kind == ls.feature) {
                for pair in line.hexes.chunks_exact(2) {
                    if let (Some(a), Some(b)) = (at(pair[0]), at(pair[1])) {
                        // From 30% to 70% of the way between the centres: over the hexside.
                        let along = |t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
                        d.segment(along(0.3), along(0.7));
                    }
                }
            }
        }
        LineKind::Path | LineKind::Railway => {
            for line in map.paths.iter().filter(|l| l.kind == ls.feature && l.hexes.len() >= 2) {
                d.polyline(line.hexes.iter().filter_map(|&h| at(h)));
            }
        }
    }
    d.finish()
}

/// Lines that come and go during a game (a bridge that enters service on a given day), drawn
/// in the pieces layer with their style written on each path, as the map's style block does
/// not know them.
fn write_changing_lines(out: &mut String, map: &HexMap, lay: &HexLayout, lines: &[LineStyle]) {
    out.push_str("<g class='ln'>\n");
    for ls in lines {
        let d = line_data(map, lay, ls);
        if d.is_empty() {
            continue;
        }
        w!(
            out,
            "<path style='stroke:{};stroke-width:{}",
            Css(&ls.stroke),
            N(ls.width)
        );
        if let Some(dash) = &ls.dash {
            w!(out, ";stroke-dasharray:{};stroke-linecap:butt", Css(dash));
        } else if ls.kind == LineKind::Crossing {
            out.push_str(";stroke-linecap:butt");
        }
        w!(out, "' d='{d}'/>\n");
        if ls.kind == LineKind::Railway {
            let ties = ls.width * 2.5 + 3.0;
            w!(
                out,
                "<path style='stroke:{};stroke-width:{};stroke-dasharray:1.5 7;stroke-linecap:butt' d='{d}'/>\n",
                Css(&ls.stroke),
                N(ties)
            );
        }
    }
    out.push_str("</g>\n");
}

/// Everything of a hex map but the counters, with `marks`, without the closing tag.
fn write_hex_base(
    out: &mut String,
    map: &HexMap,
    style: &MapStyle,
    lay: &HexLayout,
    marks: &[HexMark],
    lang: Lang,
    title: &str,
) {
    let grid = &map.grid;
    let at = |h: Hex| lay.centres.get(h.idx()).copied();
    open_svg(out, lay.width, lay.height, lang);

    out.push_str("<style>");
    out.push_str(COMMON_CSS);
    out.push_str(HEX_CSS);
    for (i, t) in style.terrains.iter().enumerate() {
        w!(out, ".t{i}{{fill:{}}}", Css(&t.fill));
    }
    for (i, l) in style.lines.iter().enumerate() {
        w!(out, ".ln .l{i}{{stroke:{};stroke-width:{}", Css(&l.stroke), N(l.width));
        if let Some(dash) = &l.dash {
            // Round caps would lengthen the dashes until they closed the gaps.
            w!(out, ";stroke-dasharray:{};stroke-linecap:butt", Css(dash));
        } else if l.kind == LineKind::Crossing {
            out.push_str(";stroke-linecap:butt");
        }
        out.push('}');
        if l.kind == LineKind::Railway {
            // Cross-ties: a wide stroke dashed into short bars across the line.
            let ties = l.width * 2.5 + 3.0;
            w!(
                out,
                ".ln .r{i}{{stroke:{};stroke-width:{};stroke-dasharray:1.5 7;stroke-linecap:butt}}",
                Css(&l.stroke),
                N(ties)
            );
        }
    }
    out.push_str("</style>\n");
    out.push_str(DEFS);
    write_title(out, lay.width, lay.height, title);

    // Hex outlines, filled by the last terrain entry each hex has.
    let masks: Vec<u32> = style.terrains.iter().map(|t| map.terrain_mask(&t.terrain)).collect();
    out.push_str("<g class=\"hx\">\n");
    for h in grid.hexes() {
        out.push_str("<path");
        if let Some(i) = masks.iter().rposition(|&m| m & map.terrain(h) != 0) {
            w!(out, " class=\"t{i}\"");
        }
        w!(out, " data-hex=\"{}\" d=\"", Esc(&grid.id(h).0));
        lay.outline(out, lay.centres[h.idx()]);
        out.push_str("\"/>\n");
    }
    out.push_str("</g>\n");

    // Terrain symbols; several in one hex are drawn smaller, side by side.
    out.push_str("<g class=\"sy\">\n");
    for h in grid.hexes() {
        let (x, y) = lay.centres[h.idx()];
        let symbols: Vec<TerrainSymbol> = (style.terrains.iter().zip(&masks))
            .filter(|(_, &m)| m & map.terrain(h) != 0)
            .filter_map(|(t, _)| t.symbol)
            .collect();
        let n = symbols.len();
        for (k, symbol) in symbols.into_iter().enumerate() {
            let id = symbol_id(symbol);
            if n == 1 {
                w!(out, "<use href=\"#{id}\" x=\"{}\" y=\"{}\"/>\n", N(x), N(y));
            } else {
                let dx = (k as f64 - (n - 1) as f64 / 2.0) * 16.0;
                w!(
                    out,
                    "<use href=\"#{id}\" transform=\"translate({} {}) scale(.6)\"/>\n",
                    N(x + dx),
                    N(y + 3.0)
                );
            }
        }
    }
    out.push_str("</g>\n");

    // Rivers and other hexside lines, roads and railways.
    out.push_str("<g class=\"ln\">\n");
    for (i, ls) in style.lines.iter().enumerate() {
        let d = line_data(map, lay, ls);
        if d.is_empty() {
            continue;
        }
        w!(out, "<path class=\"l{i}\" d=\"{d}\"/>\n");
        if ls.kind == LineKind::Railway {
            w!(out, "<path class=\"r{i}\" d=\"{d}\"/>\n");
        }
    }
    out.push_str("</g>\n");

    // Highlights.
    write_marks(out, lay, marks);

    // Printed hex ids, at the top of each hex.
    out.push_str("<g class=\"id\">\n");
    for h in grid.hexes() {
        let (x, y) = lay.centres[h.idx()];
        w!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>\n",
            N(x),
            N(y - 0.32 * lay.scale),
            Esc(&grid.id(h).0)
        );
    }
    out.push_str("</g>\n");

    // Towns, cities and the marks of place tags.
    let city = style.city_terrain.as_deref().map_or(0, |t| map.terrain_mask(t));
    let town = style.town_terrain.as_deref().map_or(0, |t| map.terrain_mask(t));
    out.push_str("<g class=\"pl\">\n");
    for h in grid.hexes() {
        let (x, y) = lay.centres[h.idx()];
        if map.terrain(h) & city != 0 {
            w!(
                out,
                "<rect class=\"city\" x=\"{}\" y=\"{}\" width=\"11\" height=\"11\"/>\n",
                N(x - 5.5),
                N(y - 5.5)
            );
        } else if map.terrain(h) & town != 0 {
            w!(
                out,
                "<circle class=\"town\" cx=\"{}\" cy=\"{}\" r=\"3.6\"/>\n",
                N(x),
                N(y)
            );
        }
    }
    for place in &map.places {
        let Some((x, y)) = at(place.hex) else { continue };
        let tagged = style.tag_marks.iter().filter(|(tag, _)| place.tags.contains(tag));
        for (k, (_, mark)) in tagged.enumerate() {
            // Beside the counter: left, right, then a row lower.
            let side = if k % 2 == 0 { -1.0 } else { 1.0 };
            write_tag_mark(out, mark, x + side * 22.0, y + (k / 2) as f64 * 11.0);
        }
    }
    out.push_str("</g>\n");

    // Place names, at the bottom of the hex.
    out.push_str("<g class=\"nm\">\n");
    for place in &map.places {
        if let Some((x, y)) = at(place.hex) {
            let name = pick(lang, &place.name_en, &place.name_zh);
            // No wider than the gap to the next name in its row (two columns away on flat
            // hexes, the next hex on pointy ones), so that names never run into each other.
            let room = match map.grid.spec().orientation {
                Orientation::Flat => 1.6 * lay.scale,
                Orientation::Pointy => 0.95 * lay.scale,
            };
            let size = fit_font(name, NAME_FONT, room);
            let style = if size < NAME_FONT {
                format!(" style=\"font-size:{}px\"", N(size))
            } else {
                String::new()
            };
            w!(
                out,
                "<text x=\"{}\" y=\"{}\"{style}>{}</text>\n",
                N(x),
                N(y + 0.49 * lay.scale),
                Esc(name)
            );
        }
    }
    out.push_str("</g>\n");

    write_mark_labels(out, marks, at);
}

/// Draws a point-to-point map: spaces as boxes with their names, connections as lines,
/// counters stacked in their spaces: the map alone ([`render_point_base`]) with the pieces
/// ([`render_point_pieces`]) in the place it keeps for them.
///
/// Space positions are pixels with y growing downward; the map is shifted into the margins,
/// and spread out if two spaces stand closer than their boxes allow.
pub fn render_point_map(
    map: &PointMap,
    style: &PointStyle,
    counters: &[Counter<Space>],
    marks: &[HexMark<Space>],
    lang: Lang,
    title: &str,
) -> String {
    put_pieces(
        &render_point_base(map, style, lang, title, ""),
        &render_point_pieces(map, style, counters, marks, ""),
    )
}

/// A point-to-point map alone, as it stays all game: the connections, the spaces coloured by
/// terrain and their names. It ends with an empty `<g class="pieces">`, the place of what
/// [`render_point_pieces`] draws; a page loads it once per game and language and keeps it.
pub fn render_point_base(map: &PointMap, style: &PointStyle, lang: Lang, title: &str, decor: &str) -> String {
    let lay = PointLayout::new(map);
    let at = |s: Space| lay.centres.get(s.idx()).copied();
    let mut out = String::with_capacity(map.spaces.len() * 400 + decor.len() + 8192);
    let height = lay.height + style.band;
    open_svg(&mut out, lay.width, height, lang);

    out.push_str("<style>");
    out.push_str(COMMON_CSS);
    out.push_str(POINT_CSS);
    for (i, c) in style.connections.iter().enumerate() {
        w!(out, ".ln .c{i}{{stroke:{};stroke-width:{}", Css(&c.stroke), N(c.width));
        if let Some(dash) = &c.dash {
            w!(out, ";stroke-dasharray:{};stroke-linecap:butt", Css(dash));
        }
        out.push('}');
    }
    out.push_str("</style>\n");
    out.push_str(DEFS);
    write_title(&mut out, lay.width, height, title);

    out.push_str("<g class=\"ln\">\n");
    for c in &map.connections {
        let (Some(a), Some(b)) = (at(c.a), at(c.b)) else {
            continue;
        };
        match style.connections.iter().rposition(|s| s.mask & c.features != 0) {
            Some(i) => w!(out, "<path class=\"c{i}\""),
            None => w!(out, "<path"),
        }
        w!(
            out,
            " d=\"M{} {}L{} {}\" data-a=\"{}\" data-b=\"{}\"/>\n",
            N(a.0),
            N(a.1),
            N(b.0),
            N(b.1),
            Esc(&map.spaces[c.a.idx()].id),
            Esc(&map.spaces[c.b.idx()].id)
        );
    }
    out.push_str("</g>\n");

    out.push_str("<g class=\"sp\">\n");
    for (i, (s, &(x, y))) in map.spaces.iter().zip(&lay.centres).enumerate() {
        let fill = style.spaces.iter().rev().find(|(m, _)| m & s.terrain != 0);
        let fill = fill.map_or("#fff", |(_, f)| f.as_str());
        let (w, h) = lay.box_size(style, Space(i as u16));
        w!(
            out,
            "<rect data-space=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\" fill=\"{}\" data-name=\"{}\"/>\n",
            Esc(&s.id),
            N(x - w / 2.0),
            N(y - h / 2.0),
            N(w),
            N(h),
            Esc(fill),
            Esc(pick(lang, &s.name_en, &s.name_zh))
        );
    }
    out.push_str("</g>\n");

    out.push_str("<g class=\"nm\">\n");
    for (i, (s, &(x, y))) in map.spaces.iter().zip(&lay.centres).enumerate() {
        let name = pick(lang, &s.name_en, &s.name_zh);
        let (_, h) = lay.box_size(style, Space(i as u16));
        w!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>\n",
            N(x),
            N(y - h / 2.0 + 12.0),
            Esc(name)
        );
    }
    out.push_str("</g>\n");
    out.push_str(decor);
    out.push_str(EMPTY_PIECES);
    out.push_str("\n</svg>");
    out
}

/// What changes on a point-to-point map: the marked spaces with their labels and the
/// counters, as one `<g class="pieces">` to put in place of the one in [`render_point_base`]
/// ([`put_pieces`]).
pub fn render_point_pieces(
    map: &PointMap,
    style: &PointStyle,
    counters: &[Counter<Space>],
    marks: &[HexMark<Space>],
    decor: &str,
) -> String {
    let lay = PointLayout::new(map);
    let at = |s: Space| lay.centres.get(s.idx()).copied();
    let mut out = String::with_capacity(counters.len() * 400 + marks.len() * 120 + decor.len() + 256);
    out.push_str("<g class='pieces'>\n");
    out.push_str("<g class='mk'>\n");
    for m in marks {
        if let Some((x, y)) = at(m.hex) {
            w!(
                out,
                "<rect x='{}' y='{}' width='{BOX_W}' height='{BOX_H}' rx='5' fill='{}'",
                N(x - BOX_W / 2.0),
                N(y - BOX_H / 2.0),
                Esc(&m.fill)
            );
            if let (false, Some(space)) = (m.note.is_empty(), map.spaces.get(m.hex.idx())) {
                w!(out, " data-mark='{}' data-note='{}'", Esc(&space.id), Esc(&m.note));
            }
            out.push_str("/>\n");
        }
    }
    out.push_str("</g>\n");

    out.push_str("<g class='ml'>\n");
    for m in marks.iter().filter(|m| !m.label.is_empty()) {
        if let Some((x, y)) = at(m.hex) {
            let right = x + BOX_W / 2.0 - 4.0;
            w!(
                out,
                "<text x='{}' y='{}' text-anchor='end'>{}</text>\n",
                N(right),
                N(y + 10.0),
                Esc(&m.label)
            );
        }
    }
    out.push_str("</g>\n");

    out.push_str(decor);
    // Counters sit below the name; in a holding box, side by side.
    let in_box = |c: &&Counter<Space>| style.boxes.iter().any(|b| b.0 == c.hex);
    let (boxed, stacked): (Vec<&Counter<Space>>, Vec<&Counter<Space>>) = counters.iter().partition(in_box);
    write_counters(&mut out, stacked, "data-space", |h| {
        let (x, y) = at(h)?;
        Some(((x, y + 6.0), map.spaces.get(h.idx())?.id.clone()))
    });
    for &(space, ..) in &style.boxes {
        let here: Vec<&Counter<Space>> = boxed.iter().copied().filter(|c| c.hex == space).collect();
        let (Some((x, y)), Some(info)) = (at(space), map.spaces.get(space.idx())) else {
            continue;
        };
        if here.is_empty() {
            continue;
        }
        let (w, h) = lay.box_size(style, space);
        let per_row = (((w - 8.0) / (COUNTER + 4.0)).floor() as usize).max(1);
        w!(
            out,
            "<g class='stack box' data-space='{}' data-count='{}'>\n",
            Esc(&info.id),
            here.len()
        );
        for (k, c) in here.iter().enumerate() {
            let (row, col) = (k / per_row, k % per_row);
            let cx = x - w / 2.0 + 6.0 + col as f64 * (COUNTER + 4.0);
            let cy = y - h / 2.0 + 18.0 + row as f64 * (COUNTER + 4.0);
            write_counter(&mut out, c, cx, cy);
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>");
    out
}

/// Styles shared by both kinds of map.
const COMMON_CSS: &str = concat!(
    "text{font-family:'Noto Sans CJK SC','Source Han Sans SC','PingFang SC','Microsoft YaHei',sans-serif}",
    ".bg{fill:#f6f2e7}",
    ".ttl{font-size:18px;font-weight:bold;fill:#222}",
    ".ln path{fill:none;stroke:#777;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}",
    ".mk{fill-opacity:.45}",
    ".nm text{font-size:9.5px;font-weight:bold;fill:#111;text-anchor:middle;",
    "paint-order:stroke;stroke:#fff;stroke-width:2.6px;stroke-linejoin:round}",
    ".ml text{font-size:11px;font-weight:bold;fill:#000;text-anchor:middle;",
    "paint-order:stroke;stroke:#fff;stroke-width:2.5px;stroke-linejoin:round}",
    ".ctr text{fill:currentColor;text-anchor:middle}",
    ".ctr .f{font-weight:bold}",
    ".face{stroke:currentColor;stroke-width:.8}",
    ".stripe{fill:currentColor;fill-opacity:.3}",
    ".sym{fill:none;stroke:currentColor;stroke-width:1}",
    ".sym .solid{fill:currentColor;stroke:none}",
    ".sc circle{fill:#fff;stroke:#111;stroke-width:1}",
    ".sc text{font-size:8px;font-weight:bold;fill:#111;text-anchor:middle}",
);

const HEX_CSS: &str = concat!(
    ".hx{fill:#fbf8ef;stroke:#555;stroke-opacity:.45;stroke-width:.6}",
    ".id text{font-size:7.5px;fill:#777;text-anchor:middle}",
    ".city{fill:#222;stroke:#fff;stroke-width:1.2}",
    ".town{fill:#222;stroke:#fff;stroke-width:1}",
);

const POINT_CSS: &str = ".sp rect{stroke:#333;stroke-width:1.2}.pieces .mk,.pieces .ml{pointer-events:none}";

/// Shapes placed with `<use>`: terrain symbols (drawn a little below the hex centre, clear of
/// the hex id) and the star and flag of place tags.
const DEFS: &str = concat!(
    "<defs>",
    "<g id=\"trees\" fill=\"#2e6b2e\" fill-opacity=\".8\">",
    "<circle cx=\"-10\" cy=\"5\" r=\"3.2\"/><circle cx=\"0\" cy=\"1\" r=\"3.2\"/><circle cx=\"10\" cy=\"5\" r=\"3.2\"/>",
    "<circle cx=\"-5\" cy=\"11\" r=\"3.2\"/><circle cx=\"5\" cy=\"11\" r=\"3.2\"/></g>",
    "<path id=\"marsh\" fill=\"none\" stroke=\"#2b5d8a\" stroke-width=\"1\" stroke-linecap=\"round\" ",
    "d=\"M-15 5h9M-13 5l-1-4M-10.5 5v-5M-8 5l1-4M4 5h9M6 5l-1-4M8.5 5v-5M11 5l1-4",
    "M-6 13h9M-4 13l-1-4M-1.5 13v-5M1 13l1-4\"/>",
    "<path id=\"peaks\" fill=\"#8a6a45\" fill-opacity=\".35\" stroke=\"#5b3d1e\" stroke-width=\"1.2\" ",
    "stroke-linejoin=\"round\" d=\"M-15 12L-6-3 3 12ZM-2 12L7 0 15 12Z\"/>",
    "<path id=\"cross\" stroke=\"#9a1b1b\" stroke-width=\"2.5\" stroke-linecap=\"round\" ",
    "d=\"M-11-8L11 14M11-8L-11 14\"/>",
    "<path id=\"star\" fill=\"#d42020\" stroke=\"#600\" stroke-width=\".6\" ",
    "d=\"M0-5.5L1.4-1.9 5.2-1.7 2.2.7 3.2 4.4 0 2.3-3.2 4.4-2.2.7-5.2-1.7-1.4-1.9Z\"/>",
    "<g id=\"flag\"><path d=\"M-3 6V-6\" stroke=\"#222\" stroke-width=\"1.2\"/>",
    "<path d=\"M-3-6h8l-2 2.5 2 2.5h-8Z\" stroke=\"#222\" stroke-width=\".5\"/></g>",
    "</defs>\n",
);

fn symbol_id(symbol: TerrainSymbol) -> &'static str {
    match symbol {
        TerrainSymbol::Trees => "trees",
        TerrainSymbol::Marsh => "marsh",
        TerrainSymbol::Peaks => "peaks",
        TerrainSymbol::Cross => "cross",
    }
}

fn open_svg(out: &mut String, width: f64, height: f64, lang: Lang) {
    let lang = match lang {
        Lang::Zh => "zh",
        Lang::En => "en",
    };
    let (w, h) = (N(width.ceil()), N(height.ceil()));
    w!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" lang=\"{lang}\">\n"
    );
}

fn write_title(out: &mut String, width: f64, height: f64, title: &str) {
    w!(
        out,
        "<rect class=\"bg\" width=\"{}\" height=\"{}\"/>\n",
        N(width.ceil()),
        N(height.ceil())
    );
    w!(
        out,
        "<text class=\"ttl\" x=\"{MARGIN}\" y=\"{}\">{}</text>\n",
        MARGIN + 16.0,
        Esc(title)
    );
}

fn write_tag_mark(out: &mut String, mark: &TagMark, x: f64, y: f64) {
    match mark {
        TagMark::Star => w!(out, "<use href=\"#star\" x=\"{}\" y=\"{}\"/>\n", N(x), N(y)),
        TagMark::Flag { color } => {
            w!(
                out,
                "<use href=\"#flag\" x=\"{}\" y=\"{}\" fill=\"{}\"/>\n",
                N(x),
                N(y),
                Esc(color)
            );
        }
        TagMark::Ring { color } => w!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n",
            N(x),
            N(y),
            Esc(color)
        ),
    }
}

/// The name in `lang`, or in the other language if that one is missing.
pub fn pick<'a>(lang: Lang, en: &'a str, zh: &'a str) -> &'a str {
    let (first, second) = match lang {
        Lang::Zh => (zh, en),
        Lang::En => (en, zh),
    };
    if first.is_empty() {
        second
    } else {
        first
    }
}

/// Where the hexes of a map go on the page.
struct HexLayout {
    /// Hex centres in pixels, by hex index.
    centres: Vec<(f64, f64)>,
    /// Pixels between neighbouring centres.
    scale: f64,
    /// Pixels from a centre to a corner (also the length of a hexside).
    radius: f64,
    /// The outline as a relative path: the first corner's offset from the centre, then the
    /// steps to the other corners, in tenths of a pixel.
    first_corner: (i64, i64),
    steps: String,
    width: f64,
    height: f64,
}

impl HexLayout {
    fn new(map: &HexMap) -> HexLayout {
        let grid = &map.grid;
        let spec = grid.spec();
        let s3 = 3f64.sqrt();
        // In the grid's frame neighbouring centres are 1 apart, so a corner is 1/sqrt(3) from
        // the centre. Flat hexes are two corner radii wide, pointy ones one centre spacing.
        let (width_units, first_angle) = match spec.orientation {
            Orientation::Flat => (2.0 / s3, 0f64),
            Orientation::Pointy => (1.0, 30f64),
        };
        let scale = HEX_WIDTH / width_units;
        let radius = scale / s3;
        let corners: Vec<(i64, i64)> = (0..6)
            .map(|i| {
                let a = (first_angle + 60.0 * i as f64).to_radians();
                (tenths(radius * a.cos()), tenths(radius * a.sin()))
            })
            .collect();
        // Flat hexes give `l-15 26h-30l-15-26l15-26h30z`.
        let mut steps = String::new();
        for i in 1..6 {
            let (dx, dy) = (corners[i].0 - corners[i - 1].0, corners[i].1 - corners[i - 1].1);
            if dy == 0 {
                w!(steps, "h{}", T(dx));
            } else if dx == 0 {
                w!(steps, "v{}", T(dy));
            } else {
                // A minus sign separates two numbers as well as a space does.
                w!(steps, "l{}{}{}", T(dx), if dy < 0 { "" } else { " " }, T(dy));
            }
        }
        steps.push('z');
        let half_w = HEX_WIDTH / 2.0;
        let half_h = match spec.orientation {
            Orientation::Flat => scale / 2.0,
            Orientation::Pointy => radius,
        };

        let raw: Vec<(f64, f64)> = grid.hexes().map(|h| grid.centre(h)).collect();
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y) in &raw {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        let top = MARGIN + TITLE_BAND;
        // Row 01 at the bottom: the grid's y grows upward on the page.
        let flip = spec.row_direction == RowDirection::Up;
        let centres = raw
            .iter()
            .map(|&(x, y)| {
                let down = if flip { y1 - y } else { y - y0 };
                (MARGIN + half_w + (x - x0) * scale, top + half_h + down * scale)
            })
            .collect();
        HexLayout {
            centres,
            scale,
            radius,
            first_corner: corners[0],
            steps,
            width: 2.0 * (MARGIN + half_w) + (x1 - x0) * scale,
            height: top + 2.0 * half_h + (y1 - y0) * scale + MARGIN,
        }
    }

    /// Appends the path data of a hex outline centred at `c`.
    fn outline(&self, out: &mut String, c: (f64, f64)) {
        let x = tenths(c.0) + self.first_corner.0;
        let y = tenths(c.1) + self.first_corner.1;
        w!(out, "M{} {}{}", T(x), T(y), self.steps);
    }
}

/// The ends of the hexside between neighbouring hexes centred at `a` and `b`: it crosses the
/// middle of the line between the centres at a right angle and is one corner radius long.
fn hexside(a: (f64, f64), b: (f64, f64), radius: f64) -> ((f64, f64), (f64, f64)) {
    let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy);
    let (px, py) = (-dy / len * radius / 2.0, dx / len * radius / 2.0);
    ((mx + px, my + py), (mx - px, my - py))
}

/// Where the spaces of a point-to-point map go on the page.
struct PointLayout {
    centres: Vec<(f64, f64)>,
    width: f64,
    height: f64,
    scale: f64,
}

impl PointLayout {
    fn new(map: &PointMap) -> PointLayout {
        let pts: Vec<(f64, f64)> = map.spaces.iter().map(|s| (s.x, s.y)).collect();
        let mut closest = f64::MAX;
        for (i, a) in pts.iter().enumerate() {
            for b in &pts[i + 1..] {
                let d = (a.0 - b.0).hypot(a.1 - b.1);
                if d > 1e-9 {
                    closest = closest.min(d);
                }
            }
        }
        let k = if closest < MIN_SPACING {
            MIN_SPACING / closest
        } else {
            1.0
        };
        let x0 = pts.iter().map(|p| p.0).fold(f64::MAX, f64::min);
        let y0 = pts.iter().map(|p| p.1).fold(f64::MAX, f64::min);
        let top = MARGIN + TITLE_BAND;
        let centres: Vec<(f64, f64)> = pts
            .iter()
            .map(|&(x, y)| (MARGIN + BOX_W / 2.0 + (x - x0) * k, top + BOX_H / 2.0 + (y - y0) * k))
            .collect();
        let x1 = centres.iter().map(|p| p.0).fold(MARGIN + BOX_W / 2.0, f64::max);
        let y1 = centres.iter().map(|p| p.1).fold(top + BOX_H / 2.0, f64::max);
        PointLayout {
            centres,
            width: x1 + BOX_W / 2.0 + MARGIN,
            height: y1 + BOX_H / 2.0 + MARGIN,
            scale: k,
        }
    }

    /// A space's box: a holding box at its own size, any other space the usual size.
    fn box_size(&self, style: &PointStyle, s: Space) -> (f64, f64) {
        match style.boxes.iter().find(|b| b.0 == s) {
            Some(&(_, w, h)) => (w, h),
            None => (BOX_W, BOX_H),
        }
    }
}

/// Draws the counters, stacked per hex (first in the slice at the bottom), each stack in a
/// `<g class="stack">` whose attribute `place_attr` names the hex or space. `place` says where a
/// hex or space is and its printed id, `None` if it is not on the map.
fn write_counters<'a, N: Copy + Ord + 'a>(
    out: &mut String,
    counters: impl IntoIterator<Item = &'a Counter<N>>,
    place_attr: &str,
    place: impl Fn(N) -> Option<((f64, f64), String)>,
) {
    let mut stacks: BTreeMap<N, Vec<&Counter<N>>> = BTreeMap::new();
    for c in counters {
        stacks.entry(c.hex).or_default().push(c);
    }
    out.push_str("<g class='cs'>\n");
    for (hex, stack) in &stacks {
        let Some(((x, y), id)) = place(*hex) else { continue };
        let n = stack.len();
        w!(out, "<g class='stack' {place_attr}='{}' data-count='{n}'>\n", Esc(&id));
        let step = if n > 1 {
            STACK_STEP.min(12.0 / (n - 1) as f64)
        } else {
            0.0
        };
        for (k, c) in stack.iter().enumerate() {
            // Each next counter is shifted up and right; the stack as a whole stays centred.
            let shift = (k as f64 - (n - 1) as f64 / 2.0) * step;
            write_counter(out, c, x - COUNTER / 2.0 + shift, y - COUNTER / 2.0 - shift);
        }
        if n > 1 {
            // How many pieces the stack holds, on the top counter's upper right corner: a stack
            // looks like its top counter.
            let top = (n - 1) as f64 / 2.0 * step;
            let (cx, cy) = (x + COUNTER / 2.0 + top - 1.0, y - COUNTER / 2.0 - top + 1.0);
            let r = if n >= 10 { 7.0 } else { 6.0 };
            w!(
                out,
                "<g class='sc'><circle cx='{}' cy='{}' r='{}'/><text x='{}' y='{}'>{n}</text></g>\n",
                N(cx),
                N(cy),
                N(r),
                N(cx),
                N(cy + 2.8)
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
}

/// Draws one counter with its top left corner at (`x`, `y`), in a 36-pixel square frame.
fn write_counter<N>(out: &mut String, c: &Counter<N>, x: f64, y: f64) {
    let class = if c.reduced { "ctr reduced" } else { "ctr" };
    w!(
        out,
        "<g class='{class}' data-id='{}' transform='translate({} {})' color='{}'>",
        Esc(&c.id),
        N(x),
        N(y),
        Esc(&c.ink)
    );
    if !c.title.is_empty() {
        w!(out, "<title>{}</title>", Esc(&c.title));
    }
    w!(
        out,
        "<rect class='face' width='36' height='36' rx='2' fill='{}'/>",
        Esc(&c.fill)
    );
    if c.reduced {
        out.push_str("<path class='stripe' d='M0 31L31 0h5v5L5 36H0z'/>");
    }
    out.push_str(nato_symbol(c.symbol));
    if !c.name.is_empty() {
        let size = fit_font(&c.name, 6.5, 33.0);
        w!(
            out,
            "<text x='18' y='8.5' font-size='{}'>{}</text>",
            N(size),
            Esc(&c.name)
        );
    }
    if !c.factors.is_empty() {
        let size = fit_font(&c.factors, 9.0, 34.0);
        w!(
            out,
            "<text class='f' x='18' y='32.5' font-size='{}'>{}</text>",
            N(size),
            Esc(&c.factors)
        );
    }
    out.push_str("</g>\n");
}

/// The NATO box and unit symbol, in the counter's frame (box 18 by 12 at (9, 11)).
fn nato_symbol(symbol: NatoSymbol) -> &'static str {
    match symbol {
        NatoSymbol::Infantry => concat!(
            "<g class='sym'><rect x='9' y='11' width='18' height='12'/>",
            "<path d='M9 11L27 23M27 11L9 23'/></g>"
        ),
        NatoSymbol::Armor => concat!(
            "<g class='sym'><rect x='9' y='11' width='18' height='12'/>",
            "<ellipse cx='18' cy='17' rx='6' ry='3.4'/></g>"
        ),
        NatoSymbol::Mechanized => concat!(
            "<g class='sym'><rect x='9' y='11' width='18' height='12'/>",
            "<path d='M9 11L27 23M27 11L9 23'/><ellipse cx='18' cy='17' rx='6' ry='3.4'/></g>"
        ),
        NatoSymbol::Cavalry => concat!(
            "<g class='sym'><rect x='9' y='11' width='18' height='12'/>",
            "<path d='M9 23L27 11'/></g>"
        ),
        NatoSymbol::Mountain => concat!(
            "<g class='sym'><rect x='9' y='11' width='18' height='12'/>",
            "<path d='M9 11L27 23M27 11L9 23'/><path class='solid' d='M14 23L18 18.5 22 23z'/></g>"
        ),
        NatoSymbol::Headquarters => concat!(
            "<g class='sym'><rect x='9' y='11' width='18' height='12'/>",
            "<path d='M13 21.5V13'/><path class='solid' d='M13 13h9v4.5h-9z'/></g>"
        ),
        NatoSymbol::Fortress => concat!(
            "<g class='sym'><rect x='9' y='11' width='18' height='12'/>",
            "<path class='solid' d='M12 21V14h2v2h2v-2h2v2h2v-2h2v2h2v-2V21z'/></g>"
        ),
        NatoSymbol::Artillery => concat!(
            "<g class='sym'><rect x='9' y='11' width='18' height='12'/>",
            "<circle class='solid' cx='18' cy='17' r='2.6'/></g>"
        ),
        NatoSymbol::Marker => "<g class='sym'><circle cx='18' cy='17' r='5.5'/></g>",
        NatoSymbol::None => "",
    }
}

/// A font size no larger than `max` at which `text` is at most `room` pixels wide, by a rough
/// estimate (Chinese characters are one em wide, others a little over half).
fn fit_font(text: &str, max: f64, room: f64) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|ch| if (ch as u32) >= 0x2E80 { 1.0 } else { 0.58 })
        .sum();
    if ems * max <= room {
        max
    } else {
        (room / ems).max(3.5)
    }
}

/// Collects path data. Each hexside joins the chain before it when it touches either end of
/// that chain, so a river's sides make one smooth line.
#[derive(Default)]
struct PathData {
    d: String,
    chain: VecDeque<(i64, i64)>,
}

impl PathData {
    fn segment(&mut self, p: (f64, f64), q: (f64, f64)) {
        let (p, q) = (in_tenths(p), in_tenths(q));
        let (front, back) = (self.chain.front().copied(), self.chain.back().copied());
        if back == Some(p) {
            self.chain.push_back(q);
        } else if back == Some(q) {
            self.chain.push_back(p);
        } else if front == Some(q) {
            self.chain.push_front(p);
        } else if front == Some(p) {
            self.chain.push_front(q);
        } else {
            self.flush();
            self.chain.extend([p, q]);
        }
    }

    fn polyline(&mut self, points: impl Iterator<Item = (f64, f64)>) {
        self.flush();
        self.chain.extend(points.map(in_tenths));
        self.flush();
    }

    /// Writes out the chain being built.
    fn flush(&mut self) {
        for (k, p) in self.chain.drain(..).enumerate() {
            w!(self.d, "{}{} {}", if k == 0 { 'M' } else { 'L' }, T(p.0), T(p.1));
        }
    }

    /// The path data (empty if nothing was added).
    fn finish(mut self) -> String {
        self.flush();
        self.d
    }
}

/// A length in tenths of a pixel.
fn tenths(v: f64) -> i64 {
    (v * 10.0).round() as i64
}

fn in_tenths(p: (f64, f64)) -> (i64, i64) {
    (tenths(p.0), tenths(p.1))
}

/// Writes tenths of a pixel as a short decimal (`125` as `12.5`, `120` as `12`).
struct T(i64);

impl fmt::Display for T {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 0 {
            f.write_char('-')?;
        }
        let a = self.0.unsigned_abs();
        if a.is_multiple_of(10) {
            write!(f, "{}", a / 10)
        } else {
            write!(f, "{}.{}", a / 10, a % 10)
        }
    }
}

/// Writes a number rounded to a tenth.
struct N(f64);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        T(tenths(self.0)).fmt(f)
    }
}

/// Writes text with the XML special characters escaped and characters XML forbids dropped.
pub struct Esc<'a>(pub &'a str);

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The text between the characters that need something else is written in runs.
        let mut run = 0;
        for (i, ch) in self.0.char_indices() {
            let instead = match ch {
                '&' => "&amp;",
                '<' => "&lt;",
                '>' => "&gt;",
                '"' => "&quot;",
                '\'' => "&#39;",
                '\t' | '\n' | '\r' => continue,
                c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => "",
                _ => continue,
            };
            f.write_str(&self.0[run..i])?;
            f.write_str(instead)?;
            run = i + ch.len_utf8();
        }
        f.write_str(&self.0[run..])
    }
}

/// Writes a CSS value (a colour, a dash pattern) keeping only the characters such values use,
/// so a game's string cannot break out of the style block.
struct Css<'a>(&'a str);

impl fmt::Display for Css<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for ch in self.0.chars() {
            if ch.is_ascii_alphanumeric() || "#(),.% -".contains(ch) {
                f.write_char(ch)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Connection, Space, SpaceInfo};

    const SMALL: &str = r#"
[about]
source = "reconstructed"
basis = "a test map"

[grid]
id_format = { kind = "xxyy", digits = 2 }
orientation = "flat"
shifted = "even"
row_direction = "down"
cols = [1, 4]
rows = [1, 3]

[terrain]
legend = { "." = ["plain"], "f" = ["plain", "forest"], "~" = ["sea"] }
rows = ["..f~", ".ff~", "...~"]

[[place]]
hex = "0102"
name_en = "Town"
name_zh = "镇"
terrain = ["town"]
tags = ["vp"]

[[place]]
hex = "0303"
name_en = "Rock & <Roll>"
name_zh = "石城"
terrain = ["city"]
tags = ["vp", "supply"]

[[side_line]]
kind = "river"
name_en = "Creek"
sides = ["0101/0201", "0102/0201"]

[[side_line]]
kind = "start-line"
sides = ["0302/0303"]

[[path]]
kind = "road"
hexes = ["0101", "0201", "0301"]

[[path]]
kind = "railway"
hexes = ["0103", "0203", "0303"]
"#;

    fn small(row_direction: &str) -> HexMap {
        HexMap::from_toml(&SMALL.replace("\"down\"", &format!("\"{row_direction}\""))).unwrap()
    }

    fn style() -> MapStyle {
        let terrain = TerrainStyle::new;
        let line = LineStyle::new;
        MapStyle {
            terrains: vec![
                terrain("plain", "#f4efd8", None),
                terrain("forest", "#b7d39b", Some(TerrainSymbol::Trees)),
                terrain("sea", "#9cc3e6", None),
            ],
            lines: vec![
                line("river", "#2d6fc0", 3.0, None, LineKind::Hexside),
                line("road", "#a0522d", 2.0, None, LineKind::Path),
                line("railway", "#222", 1.5, None, LineKind::Railway),
                line("start-line", "#d00", 3.0, Some("7 4"), LineKind::Hexside),
            ],
            city_terrain: Some("city".into()),
            town_terrain: Some("town".into()),
            tag_marks: vec![
                ("vp".into(), TagMark::Star),
                ("supply".into(), TagMark::Flag { color: "#c00".into() }),
            ],
        }
    }

    fn counter(map: &HexMap, hex: &str, id: &str, factors: &str, reduced: bool) -> Counter {
        Counter {
            hex: map.grid.parse(hex).unwrap(),
            fill: "#9ab".into(),
            ink: "#000".into(),
            name: format!("{id} Pz"),
            symbol: NatoSymbol::Armor,
            factors: factors.into(),
            reduced,
            title: format!("{id} \"Panzer\""),
            id: id.into(),
        }
    }

    /// Checks that every element is closed in order and every `&` starts an entity.
    fn assert_well_formed(svg: &str) {
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        assert!(svg.ends_with("</svg>"));
        assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
        let mut open: Vec<&str> = Vec::new();
        let mut rest = svg;
        while let Some(start) = rest.find('<') {
            let end = start + rest[start..].find('>').expect("an unclosed tag");
            let tag = &rest[start + 1..end];
            assert!(!tag.contains('<'), "`<` inside a tag: {tag}");
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(open.pop(), Some(name), "closing {name}");
            } else if !tag.ends_with('/') {
                open.push(tag.split_whitespace().next().unwrap());
            }
            rest = &rest[end + 1..];
        }
        assert!(open.is_empty(), "never closed: {open:?}");
        for (i, _) in svg.match_indices('&') {
            let entity = &svg[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                    .iter()
                    .any(|e| entity.starts_with(e)),
                "bare & at {i}"
            );
        }
    }

    #[test]
    fn draws_every_hex_with_its_id_and_terrain() {
        let map = small("down");
        let svg = render_hex_map(&map, &style(), &[], &[], Lang::En, "Test map");
        assert_well_formed(&svg);
        assert_eq!(svg.matches("data-hex=\"").count(), map.grid.len());
        for h in map.grid.hexes() {
            let id = map.grid.id(h).0;
            assert!(svg.contains(&format!("data-hex=\"{id}\"")), "{id}");
            assert!(svg.contains(&format!(">{id}</text>")), "{id}");
        }
        // The forest entry paints over plain; sea hexes take the third colour.
        assert!(svg.contains("<path class=\"t1\" data-hex=\"0301\""));
        assert!(svg.contains("<path class=\"t0\" data-hex=\"0101\""));
        assert!(svg.contains("<path class=\"t2\" data-hex=\"0401\""));
        assert!(svg.contains(".t1{fill:#b7d39b}"));
        assert_eq!(svg.matches("href=\"#trees\"").count(), 3);
        assert!(svg.contains(">Test map</text>"));
        assert!(svg.contains("viewBox=\"0 0 "));
    }

    #[test]
    fn names_places_in_the_language_asked() {
        let map = small("down");
        let en = render_hex_map(&map, &style(), &[], &[], Lang::En, "Map");
        let zh = render_hex_map(&map, &style(), &[], &[], Lang::Zh, "地图");
        assert_well_formed(&en);
        assert_well_formed(&zh);
        assert!(en.contains(">Town</text>") && !en.contains(">镇</text>"));
        assert!(zh.contains(">镇</text>") && !zh.contains(">Town</text>"));
        assert!(zh.contains(">石城</text>"));
        // Escaped, never raw.
        assert!(en.contains(">Rock &amp; &lt;Roll&gt;</text>"));
        assert!(!en.contains("<Roll>"));
        // A town circle, a city square, two VP stars and one supply flag.
        assert_eq!(en.matches("class=\"town\"").count(), 1);
        assert_eq!(en.matches("class=\"city\"").count(), 1);
        assert_eq!(en.matches("href=\"#star\"").count(), 2);
        assert_eq!(en.matches("href=\"#flag\"").count(), 1);
    }

    #[test]
    fn draws_rivers_on_hexsides_and_roads_between_centres() {
        let map = small("down");
        let svg = render_hex_map(&map, &style(), &[], &[], Lang::En, "Map");
        let lay = HexLayout::new(&map);
        let c = |id: &str| lay.centres[map.grid.parse(id).unwrap().idx()];
        // The two river sides meet at a corner of 0201, so the river is one line of 3 points.
        let (p, q) = hexside(c("0101"), c("0201"), lay.radius);
        let (r, s) = hexside(c("0102"), c("0201"), lay.radius);
        let mut d = PathData::default();
        d.segment(p, q);
        d.segment(r, s);
        let d = d.finish();
        assert_eq!(d.matches('M').count(), 1);
        assert_eq!(d.matches('L').count(), 2);
        assert!(svg.contains(&format!("<path class=\"l0\" d=\"{d}\"/>")));
        // The ends of a hexside are corners of both hexes.
        for end in [p, q] {
            for centre in [c("0101"), c("0201")] {
                let dist = (end.0 - centre.0).hypot(end.1 - centre.1);
                assert!((dist - lay.radius).abs() < 1e-9);
            }
        }
        // The road runs through the centres; the railway has ties; the start line is dashed.
        let (a, b) = (c("0101"), c("0301"));
        assert!(svg.contains(&format!("<path class=\"l1\" d=\"M{} {}L", N(a.0), N(a.1))));
        assert!(svg.contains(&format!("L{} {}\"/>", N(b.0), N(b.1))));
        assert!(svg.contains("<path class=\"l2\" d=") && svg.contains("<path class=\"r2\" d="));
        assert!(svg.contains("<path class=\"l3\" d="));
        assert!(svg.contains(".ln .l3{stroke:#d00;stroke-width:3;stroke-dasharray:7 4"));
    }

    #[test]
    fn draws_counters_stacked_with_factors_and_reduced_sides() {
        let map = small("down");
        let counters = [
            counter(&map, "0202", "a", "3-4-6", false),
            counter(&map, "0202", "b", "2-2-6", true),
            counter(&map, "0103", "c", "5-5", false),
        ];
        let marks = [HexMark {
            hex: map.grid.parse("0302").unwrap(),
            fill: "#ff0".into(),
            label: "2".into(),
            note: String::new(),
        }];
        let svg = render_hex_map(&map, &style(), &counters, &marks, Lang::En, "Map");
        assert_well_formed(&svg);
        for f in ["3-4-6", "2-2-6", "5-5"] {
            assert!(svg.contains(&format!(">{f}</text>")), "{f}");
        }
        for id in ["a", "b", "c"] {
            assert_eq!(svg.matches(&format!("data-id='{id}'")).count(), 1);
        }
        // One group per stack, naming its hex, for a page that opens stacks on click.
        assert!(svg.contains("<g class='stack' data-hex='0202' data-count='2'>"));
        assert!(svg.contains("<g class='stack' data-hex='0103' data-count='1'>"));
        assert_eq!(svg.matches("class='stack'").count(), 2);
        // The stack of two says so on its top counter; a lone counter has no count.
        assert_eq!(svg.matches("<g class='sc'>").count(), 1);
        assert!(svg.contains(">2</text></g>"));
        assert_eq!(svg.matches("class='ctr reduced'").count(), 1);
        assert_eq!(svg.matches("class='stripe'").count(), 1);
        assert!(svg.contains("<title>b &quot;Panzer&quot;</title>"));
        assert!(svg.contains("<ellipse"));
        // The second counter of the stack sits up and right of the first.
        let lay = HexLayout::new(&map);
        let (x, y) = lay.centres[map.grid.parse("0202").unwrap().idx()];
        let half = COUNTER / 2.0;
        let first = format!("translate({} {})", N(x - half - 2.0), N(y - half + 2.0));
        let second = format!("translate({} {})", N(x - half + 2.0), N(y - half - 2.0));
        let (i, j) = (svg.find(&first).unwrap(), svg.find(&second).unwrap());
        assert!(i < j, "the top counter is drawn last");
        // The highlight and its label.
        assert!(svg.contains("<path fill='#ff0' d='M"));
        assert!(svg.contains(">2</text>"));
    }

    #[test]
    fn the_map_alone_and_its_pieces_make_the_whole_map() {
        let map = small("down");
        let counters = [
            counter(&map, "0202", "a", "3-4-6", false),
            counter(&map, "0103", "c", "5-5", false),
        ];
        let marks = [HexMark {
            hex: map.grid.parse("0302").unwrap(),
            fill: "#ff0".into(),
            label: "2".into(),
            note: String::new(),
        }];
        let base = render_hex_base(&map, &style(), &[], Lang::En, "Map");
        assert_well_formed(&base);
        // The map alone is the same whatever stands on it, and holds no counter.
        assert!(!base.contains("data-id="));
        assert!(base.contains("<g class=\"pieces\"></g>"));
        let pieces = render_hex_pieces(&map, &[], &counters, &marks);
        assert!(pieces.starts_with("<g class='pieces'>") && pieces.ends_with("</g>"));
        assert_eq!(pieces.matches("data-id=").count(), 2);
        assert!(pieces.contains("fill='#ff0'") && pieces.contains(">2</text>"));
        // Put together, they draw what the whole map draws: every hex, counter and mark.
        let whole = put_pieces(&base, &pieces);
        assert_well_formed(&whole);
        let full = render_hex_map(&map, &style(), &counters, &marks, Lang::En, "Map");
        for needle in [
            "data-id='a'",
            "data-id='c'",
            "fill='#ff0'",
            ">2</text>",
            "data-hex='0302'",
        ] {
            assert_eq!(whole.matches(needle).count(), full.matches(needle).count(), "{needle}");
        }
        // A line that comes and goes (here the map's river, drawn as if built later) is drawn
        // with the pieces, its style written on the path, in the same place as on the map.
        let river = style().lines[0].clone();
        let with_river = render_hex_pieces(&map, std::slice::from_ref(&river), &counters, &marks);
        assert_well_formed(&put_pieces(&base, &with_river));
        let d = line_data(&map, &HexLayout::new(&map), &river);
        assert!(!d.is_empty(), "the test map has a river");
        assert!(
            with_river.contains(&format!("<path style='stroke:#2d6fc0;stroke-width:3' d='{d}'/>")),
            "{with_river}"
        );
        assert!(base.contains(&format!("<path class=\"l0\" d=\"{d}\"/>")));
    }

    #[test]
    fn rows_growing_up_put_row_one_at_the_bottom() {
        for (dir, one_below) in [("up", true), ("down", false)] {
            let map = small(dir);
            let lay = HexLayout::new(&map);
            let y = |id: &str| lay.centres[map.grid.parse(id).unwrap().idx()].1;
            assert_eq!(y("0101") > y("0103"), one_below, "{dir}");
            // Every hex lies inside the drawing, below the title band.
            for &(x, y) in &lay.centres {
                assert!(x - HEX_WIDTH / 2.0 >= MARGIN - 0.01 && x + HEX_WIDTH / 2.0 <= lay.width - MARGIN + 0.01);
                assert!(y - lay.scale / 2.0 >= MARGIN + TITLE_BAND - 0.01);
                assert!(y + lay.scale / 2.0 <= lay.height - MARGIN + 0.01);
            }
        }
        // A flat hex is 60 pixels wide.
        let lay = HexLayout::new(&small("down"));
        assert!((2.0 * lay.radius - HEX_WIDTH).abs() < 1e-9);
    }

    #[test]
    fn numbers_and_text_are_written_compactly_and_safely() {
        assert_eq!(N(12.0).to_string(), "12");
        assert_eq!(N(12.34).to_string(), "12.3");
        assert_eq!(N(-0.04).to_string(), "0");
        assert_eq!(N(-0.25).to_string(), "-0.3");
        assert_eq!(Esc("a<b>&\"c'\u{1}").to_string(), "a&lt;b&gt;&amp;&quot;c&#39;");
        assert_eq!(Css("red;}</style>").to_string(), "redstyle");
        assert_eq!(Css("rgb(1, 2, 3)").to_string(), "rgb(1, 2, 3)");
        assert_eq!(fit_font("3-4-6", 9.0, 34.0), 9.0);
        assert!(fit_font("Großdeutschland", 6.5, 33.0) < 6.5);
    }

    #[test]
    fn draws_point_to_point_maps() {
        let space = |id: &str, en: &str, zh: &str, terrain, x, y| SpaceInfo {
            id: id.into(),
            name_en: en.into(),
            name_zh: zh.into(),
            terrain,
            x,
            y,
        };
        let map = PointMap::new(
            vec![
                space("kiev", "Kiev", "基辅", 1, 0.0, 0.0),
                space("kharkov", "Kharkov", "哈尔科夫", 0, 1.0, 0.0),
                space("rostov", "Rostov <on Don>", "罗斯托夫", 0, 1.0, 1.0),
            ],
            vec![
                Connection {
                    a: Space(0),
                    b: Space(1),
                    features: 2,
                },
                Connection {
                    a: Space(1),
                    b: Space(2),
                    features: 0,
                },
            ],
        )
        .unwrap();
        let style = PointStyle {
            spaces: vec![(1, "#fdd".into())],
            connections: vec![ConnectionStyle {
                mask: 2,
                stroke: "#333".into(),
                width: 3.0,
                dash: None,
            }],
            ..PointStyle::default()
        };
        let mk = |space: u16, id: &str, reduced| Counter {
            hex: Space(space),
            fill: "#c66".into(),
            ink: "#fff".into(),
            name: "1 Gd".into(),
            symbol: NatoSymbol::Infantry,
            factors: "4-3".into(),
            reduced,
            title: String::new(),
            id: id.into(),
        };
        let counters = [mk(0, "x", false), mk(0, "y", true), mk(9, "off-map", false)];
        let marks = [
            HexMark {
                hex: Space(2),
                fill: "#0f0".into(),
                label: "1".into(),
                note: "held by <them>".into(),
            },
            HexMark {
                hex: Space(1),
                fill: "#0f0".into(),
                label: String::new(),
                note: String::new(),
            },
        ];
        let en = render_point_map(&map, &style, &counters, &marks, Lang::En, "Front");
        let zh = render_point_map(&map, &style, &counters, &marks, Lang::Zh, "战线");
        assert_well_formed(&en);
        assert_well_formed(&zh);
        assert!(en.contains(">Kiev</text>") && zh.contains(">基辅</text>"));
        assert!(en.contains(">Rostov &lt;on Don&gt;</text>"));
        // A space names itself in the map's language, for the page to show on hover.
        assert!(en.contains("data-name=\"Rostov &lt;on Don&gt;\"") && zh.contains("data-name=\"基辅\""));
        assert_eq!(en.matches("<rect data-space=").count(), 3);
        assert!(en.contains("data-space=\"kiev\"") && en.contains("fill=\"#fdd\""));
        let lines = &en[en.find("<g class=\"ln\">").unwrap()..];
        let lines = &lines[..lines.find("</g>").unwrap()];
        assert_eq!(lines.matches("<path class=\"c0\" d=\"M").count(), 1);
        assert_eq!(lines.matches("<path d=\"M").count(), 1);
        // Each line names the spaces it joins, for a reader of the drawing (the terminal's map).
        assert_eq!(lines.matches(" data-a=\"").count(), 2);
        assert_eq!(en.matches("data-id=").count(), 2, "the counter off the map is left out");
        assert!(en.contains("<g class='stack' data-space='kiev'"));
        assert_eq!(en.matches("ctr reduced").count(), 1);
        // A mark's note is written on it by the space's id, for the page's hover and the
        // terminal; a mark without one names nothing.
        assert!(en.contains(" data-mark='rostov' data-note='held by &lt;them&gt;'/>"));
        assert_eq!(en.matches("data-mark=").count(), 1);
        // Spaces given 1 apart are spread out so their boxes do not overlap.
        let lay = PointLayout::new(&map);
        assert!((lay.centres[1].0 - lay.centres[0].0 - MIN_SPACING).abs() < 1e-9);

        // A holding box is drawn at its size with its counters in a row,
        // not stacked; the band under the map and the game's own drawings are in place.
        let boxed = PointStyle {
            boxes: vec![(Space(2), 200.0, 100.0)],
            band: 100.0,
            ..style.clone()
        };
        let in_box = [
            mk(2, "a", false),
            mk(2, "b", false),
            mk(2, "c", true),
            mk(0, "x", false),
        ];
        let base = render_point_base(&map, &boxed, Lang::En, "Front", "<g class=\"tracks\"></g>");
        let pieces = render_point_pieces(&map, &boxed, &in_box, &[], "<g class=\"markers\"></g>");
        let frame = point_frame(&map);
        let (w, h) = (200.0, 100.0);
        assert!(base.contains(&format!(
            "data-space=\"rostov\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
            N(frame.centres[2].0 - w / 2.0),
            N(frame.centres[2].1 - h / 2.0),
            N(w),
            N(h)
        )));
        assert!(base.contains(&format!("height=\"{}\"", N((frame.height + 100.0).ceil()))));
        assert!(base.contains("<g class=\"tracks\"></g>") && pieces.contains("<g class=\"markers\"></g>"));
        assert!(pieces.contains("<g class='stack box' data-space='rostov' data-count='3'>"));
        let ys: Vec<&str> = ["a", "b", "c"]
            .iter()
            .map(|id| {
                let at = pieces.find(&format!("data-id='{id}' transform='translate(")).unwrap();
                let t = &pieces[at..];
                let t = &t[t.find('(').unwrap() + 1..t.find(')').unwrap()];
                t.split(' ').nth(1).unwrap()
            })
            .collect();
        assert!(ys.iter().all(|y| *y == ys[0]), "side by side in one row: {ys:?}");
        assert_eq!(pieces.matches("<g class='stack' data-space='kiev'").count(), 1);
        assert_well_formed(&put_pieces(&base, &pieces));
    }
}

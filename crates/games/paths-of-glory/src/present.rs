//! The board as a player sees it: the map of spaces and lines from the reference coordinates,
//! in our own colours, with each side's counters on their spaces and their names in the
//! player's language.

use crate::data::{Data, Kind, Nation};
use crate::state::{Location, Position};
use sandtable_core::graph::Space;
use sandtable_core::render::{render_point_map, ConnectionStyle, Counter, HexMark, NatoSymbol, PointStyle};
use sandtable_core::text::Lang;

/// The map's look: spaces by terrain, dashed lines by who may use them.
pub fn map_style(data: &Data) -> PointStyle {
    let t = |name: &str| data.map.terrain_mask(name);
    let l = data.lines;
    let dashed = |mask: u32, stroke: &str| ConnectionStyle {
        mask,
        stroke: stroke.into(),
        width: 2.0,
        dash: Some("6 4".into()),
    };
    PointStyle {
        spaces: vec![
            (t("forest"), "#a9c98f".into()),
            (t("swamp"), "#b7d3cc".into()),
            (t("desert"), "#ecd9a6".into()),
            (t("mountain"), "#cdb394".into()),
        ],
        connections: vec![
            dashed(l.only_br, "#b5651d"),
            dashed(l.only_it, "#2e8b57"),
            dashed(l.only_ru, "#6b8e23"),
            dashed(l.only_ana | l.only_tu, "#b8860b"),
            dashed(l.mef_beach, "#1f5fa8"),
        ],
    }
}

/// A nation's counter colours: background and ink.
fn colours(n: Nation) -> (&'static str, &'static str) {
    match n {
        Nation::Ge => ("#5f6b73", "#ffffff"),
        Nation::Ah => ("#b9b07a", "#1f1f1f"),
        Nation::Tu => ("#d8c25a", "#1f1f1f"),
        Nation::Bu => ("#8a9a5b", "#ffffff"),
        Nation::Sn => ("#d8c25a", "#1f1f1f"),
        Nation::Fr => ("#5b7fc4", "#ffffff"),
        Nation::Br | Nation::Ana => ("#c9a66b", "#1f1f1f"),
        Nation::Us => ("#6b8e4e", "#ffffff"),
        Nation::Ru => ("#7aa35a", "#1f1f1f"),
        Nation::It => ("#77b39b", "#1f1f1f"),
        Nation::Be => ("#d9c26f", "#1f1f1f"),
        Nation::Sb | Nation::Mn => ("#a05a5a", "#ffffff"),
        Nation::Ro => ("#a8a0cf", "#1f1f1f"),
        Nation::Gr => ("#8fb3d9", "#1f1f1f"),
    }
}

/// The counters on the map, as the board draws them: the designation, the factors of the side
/// showing (combat-loss-movement), reduced ones striped.
pub fn counters(data: &Data, pos: &Position, lang: Lang) -> Vec<Counter<Space>> {
    data.pieces
        .iter()
        .zip(&pos.units)
        .filter_map(|(p, u)| {
            let Location::Map(s) = u.loc else { return None };
            let f = if u.full { p.full } else { p.reduced };
            let (fill, ink) = colours(p.nation);
            Some(Counter {
                hex: s,
                fill: fill.into(),
                ink: ink.into(),
                name: p.label.clone(),
                symbol: match p.kind {
                    Kind::Army => NatoSymbol::Armor,
                    Kind::Corps => NatoSymbol::Infantry,
                },
                factors: format!("{}-{}-{}", f.cf, f.lf, f.mf),
                reduced: !u.full,
                title: match lang {
                    Lang::En => p.name_en.clone(),
                    Lang::Zh => p.name_zh.clone(),
                },
                id: p.id.clone(),
            })
        })
        .collect()
}

/// The whole board in a language.
pub fn render(data: &Data, pos: &Position, lang: Lang) -> String {
    let title = match lang {
        Lang::En => "Paths of Glory",
        Lang::Zh => "光荣之路",
    };
    let marks: Vec<HexMark<Space>> = Vec::new();
    render_point_map(
        &data.map.graph,
        &map_style(data),
        &counters(data, pos, lang),
        &marks,
        lang,
        title,
    )
}

//! Hex maps as data: terrain per hex (more than one terrain per hex allowed), features on
//! hexsides (rivers, bridges, prohibited sides), connections across hexsides (roads,
//! railways), named places and named sets of hexes.
//!
//! Terrain and hexside feature names belong to the game: the map file names them, the core
//! turns every name into one bit of a mask, and the game asks for the masks it cares about
//! once, when it loads. The file format is documented in `docs/formats.md`. Point-to-point
//! maps have a file format of their own, in [`crate::space_map`]; the `[about]` block
//! ([`About`]) and the errors ([`MapError`]) are shared.

use crate::hex::{opposite, GridSpec, Hex, HexGrid};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where a data file's content comes from (DESIGN.md, point 7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provenance {
    /// Taken from the rulebook (the basis names the rule or table).
    Rulebook,
    /// A public fact (the basis names the source).
    Reference,
    /// Authored here because the rulebook lacks it (the basis says on what).
    Reconstructed,
}

/// The `[about]` block every data file starts with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct About {
    pub source: Provenance,
    pub basis: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_km: Option<f64>,
}

/// The map file as written on disk.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    pub about: About,
    pub grid: GridSpec,
    pub terrain: TerrainRows,
    #[serde(default, rename = "place")]
    pub places: Vec<PlaceEntry>,
    #[serde(default, rename = "side_line")]
    pub side_lines: Vec<SideLine>,
    #[serde(default, rename = "path")]
    pub paths: Vec<PathEntry>,
    #[serde(default, rename = "hex_set")]
    pub hex_sets: Vec<HexSetEntry>,
}

/// Terrain as a character picture: `legend` maps each character to the terrain names of a
/// hex, `rows` holds one string per printed row, one character per printed column.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRows {
    pub legend: BTreeMap<String, Vec<String>>,
    pub rows: Vec<String>,
}

/// A named place: a town or city, a supply source, a victory hex.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceEntry {
    pub hex: String,
    pub name_en: String,
    pub name_zh: String,
    /// Terrain the place adds to its hex (for example `town` or `city`).
    #[serde(default)]
    pub terrain: Vec<String>,
    /// Game-defined tags (for example `vp`, `supply-soviet`).
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub source: String,
}

/// A chain of hexsides carrying one feature (a river, a major river, a prohibited side).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideLine {
    pub kind: String,
    #[serde(default)]
    pub name_en: String,
    #[serde(default)]
    pub name_zh: String,
    /// Hexsides as `"AAAA/BBBB"`, the two hexes the side separates.
    pub sides: Vec<String>,
}

/// A connection running from hex to hex (a road, a railway): every hexside it crosses gets
/// the feature `kind`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathEntry {
    pub kind: String,
    #[serde(default)]
    pub name_en: String,
    #[serde(default)]
    pub name_zh: String,
    pub hexes: Vec<String>,
}

/// A named list of hexes for the game's own use (set-up hexes, supply sources, entry areas).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexSetEntry {
    pub name: String,
    pub hexes: Vec<String>,
}

/// A place on a loaded map.
#[derive(Clone, Debug, Serialize)]
pub struct Place {
    pub hex: Hex,
    pub name_en: String,
    pub name_zh: String,
    pub tags: Vec<String>,
}

/// A named line on a loaded map, kept for drawing (rivers, roads, railways).
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    pub kind: String,
    pub name_en: String,
    pub name_zh: String,
    /// For paths: the hexes in order. For hexside lines: pairs of hexes, flattened.
    pub hexes: Vec<Hex>,
}

/// A loaded hex map.
#[derive(Clone, Debug)]
pub struct HexMap {
    pub grid: HexGrid,
    pub about: About,
    terrain_names: Vec<String>,
    side_names: Vec<String>,
    terrain: Vec<u32>,
    sides: Vec<[u32; 6]>,
    pub places: Vec<Place>,
    place_at: Vec<u16>,
    pub side_lines: Vec<Line>,
    pub paths: Vec<Line>,
    pub hex_sets: BTreeMap<String, Vec<Hex>>,
}

/// A map file that cannot be used, with the place in the file that is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("map data: {0}")]
pub struct MapError(pub String);

fn intern(names: &mut Vec<String>, name: &str) -> Result<u32, MapError> {
    if let Some(i) = names.iter().position(|n| n == name) {
        return Ok(1 << i);
    }
    if names.len() >= 32 {
        return Err(MapError(format!(
            "more than 32 distinct names; `{name}` is one too many"
        )));
    }
    names.push(name.to_string());
    Ok(1 << (names.len() - 1))
}

impl HexMap {
    /// Reads a map from the text of a map file.
    pub fn from_toml(text: &str) -> Result<HexMap, MapError> {
        let file: MapFile = toml::from_str(text).map_err(|e| MapError(e.to_string()))?;
        HexMap::from_file(file)
    }

    /// Builds a map from a parsed map file, checking every hex id and hexside.
    pub fn from_file(file: MapFile) -> Result<HexMap, MapError> {
        let grid = HexGrid::new(file.grid.clone()).map_err(MapError)?;
        let n = grid.len();
        let mut terrain_names = Vec::new();
        let mut side_names = Vec::new();
        let mut legend: BTreeMap<char, u32> = BTreeMap::new();
        for (ch, names) in &file.terrain.legend {
            let mut chars = ch.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(MapError(format!("terrain legend key `{ch}` must be one character")));
            };
            let mut mask = 0;
            for name in names {
                mask |= intern(&mut terrain_names, name)?;
            }
            legend.insert(c, mask);
        }
        let (c0, c1) = (file.grid.cols[0] as i32, file.grid.cols[1] as i32);
        let (r0, r1) = (file.grid.rows[0] as i32, file.grid.rows[1] as i32);
        if file.terrain.rows.len() != (r1 - r0 + 1) as usize {
            return Err(MapError(format!(
                "terrain has {} rows; the grid has {}",
                file.terrain.rows.len(),
                r1 - r0 + 1
            )));
        }
        let mut terrain = vec![0u32; n];
        for (ri, line) in file.terrain.rows.iter().enumerate() {
            let chars: Vec<char> = line.chars().collect();
            if chars.len() != (c1 - c0 + 1) as usize {
                return Err(MapError(format!(
                    "terrain row {} has {} characters; the grid has {} columns",
                    r0 + ri as i32,
                    chars.len(),
                    c1 - c0 + 1
                )));
            }
            for (ci, ch) in chars.iter().enumerate() {
                let mask = *legend
                    .get(ch)
                    .ok_or_else(|| MapError(format!("terrain row {}: `{ch}` is not in the legend", r0 + ri as i32)))?;
                let h = grid.hex_at(c0 + ci as i32, r0 + ri as i32).expect("inside the grid");
                terrain[h.idx()] = mask;
            }
        }
        let parse = |s: &str, what: &str| grid.parse(s).map_err(|e| MapError(format!("{what}: {e}")));
        let mut places = Vec::new();
        let mut place_at = vec![u16::MAX; n];
        for p in &file.places {
            let h = parse(&p.hex, &format!("place {}", p.name_en))?;
            for t in &p.terrain {
                terrain[h.idx()] |= intern(&mut terrain_names, t)?;
            }
            if place_at[h.idx()] != u16::MAX {
                return Err(MapError(format!("two places in hex {}", p.hex)));
            }
            place_at[h.idx()] = places.len() as u16;
            places.push(Place {
                hex: h,
                name_en: p.name_en.clone(),
                name_zh: p.name_zh.clone(),
                tags: p.tags.clone(),
            });
        }
        let mut sides = vec![[0u32; 6]; n];
        let mut side_lines = Vec::new();
        for line in &file.side_lines {
            let bit = intern(&mut side_names, &line.kind)?;
            let mut hexes = Vec::new();
            for s in &line.sides {
                let what = format!("{} `{}` hexside {s}", line.kind, line.name_en);
                let (a, b) = s
                    .split_once('/')
                    .ok_or_else(|| MapError(format!("{what}: write it as AAAA/BBBB")))?;
                let (a, b) = (parse(a, &what)?, parse(b, &what)?);
                let d = grid
                    .dir_to(a, b)
                    .ok_or_else(|| MapError(format!("{what}: the hexes are not adjacent")))?;
                sides[a.idx()][d as usize] |= bit;
                sides[b.idx()][opposite(d) as usize] |= bit;
                hexes.extend([a, b]);
            }
            side_lines.push(Line {
                kind: line.kind.clone(),
                name_en: line.name_en.clone(),
                name_zh: line.name_zh.clone(),
                hexes,
            });
        }
        let mut paths = Vec::new();
        for path in &file.paths {
            let bit = intern(&mut side_names, &path.kind)?;
            let what = format!("{} `{}`", path.kind, path.name_en);
            let hexes = path
                .hexes
                .iter()
                .map(|s| parse(s, &what))
                .collect::<Result<Vec<_>, _>>()?;
            for w in hexes.windows(2) {
                let d = grid.dir_to(w[0], w[1]).ok_or_else(|| {
                    MapError(format!(
                        "{what}: {} and {} are not adjacent",
                        grid.id(w[0]),
                        grid.id(w[1])
                    ))
                })?;
                sides[w[0].idx()][d as usize] |= bit;
                sides[w[1].idx()][opposite(d) as usize] |= bit;
            }
            paths.push(Line {
                kind: path.kind.clone(),
                name_en: path.name_en.clone(),
                name_zh: path.name_zh.clone(),
                hexes,
            });
        }
        let mut hex_sets = BTreeMap::new();
        for set in &file.hex_sets {
            let hexes = set
                .hexes
                .iter()
                .map(|s| parse(s, &format!("hex set {}", set.name)))
                .collect::<Result<Vec<_>, _>>()?;
            if hex_sets.insert(set.name.clone(), hexes).is_some() {
                return Err(MapError(format!("hex set `{}` appears twice", set.name)));
            }
        }
        Ok(HexMap {
            grid,
            about: file.about,
            terrain_names,
            side_names,
            terrain,
            sides,
            places,
            place_at,
            side_lines,
            paths,
            hex_sets,
        })
    }

    /// The mask of a terrain name (0 if the map never uses it).
    pub fn terrain_mask(&self, name: &str) -> u32 {
        self.terrain_names.iter().position(|n| n == name).map_or(0, |i| 1 << i)
    }

    /// The mask of a hexside feature name (0 if the map never uses it).
    pub fn side_mask(&self, name: &str) -> u32 {
        self.side_names.iter().position(|n| n == name).map_or(0, |i| 1 << i)
    }

    /// Terrain names used on this map, in bit order.
    pub fn terrain_names(&self) -> &[String] {
        &self.terrain_names
    }

    /// Terrain bits of a hex.
    #[inline]
    pub fn terrain(&self, h: Hex) -> u32 {
        self.terrain[h.idx()]
    }

    /// Feature bits of the hexside of `h` in direction `d`.
    #[inline]
    pub fn side(&self, h: Hex, d: u8) -> u32 {
        self.sides[h.idx()][d as usize]
    }

    /// Whether any hexside of `h` carries one of the features in `mask` (a road or railway
    /// running through the hex, for example).
    pub fn any_side(&self, h: Hex, mask: u32) -> bool {
        self.sides[h.idx()].iter().any(|s| s & mask != 0)
    }

    /// The place in a hex, if any.
    pub fn place(&self, h: Hex) -> Option<&Place> {
        let i = self.place_at[h.idx()];
        (i != u16::MAX).then(|| &self.places[i as usize])
    }

    /// A named hex set (empty if the map has none of that name).
    pub fn hex_set(&self, name: &str) -> &[Hex] {
        self.hex_sets.get(name).map_or(&[], |v| v.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
legend = { "." = ["plain"], "f" = ["forest"], "~" = ["sea"] }
rows = ["..f~", ".ff~", "...~"]

[[place]]
hex = "0102"
name_en = "Town"
name_zh = "镇"
terrain = ["town"]
tags = ["vp"]

[[side_line]]
kind = "river"
name_en = "Creek"
sides = ["0101/0201", "0102/0201"]

[[path]]
kind = "road"
hexes = ["0101", "0201", "0301"]

[[hex_set]]
name = "start"
hexes = ["0103"]
"#;

    #[test]
    fn loads_a_small_map() {
        let m = HexMap::from_toml(SMALL).unwrap();
        let g = &m.grid;
        let town = g.parse("0102").unwrap();
        assert_ne!(m.terrain(town) & m.terrain_mask("town"), 0);
        assert_ne!(m.terrain(town) & m.terrain_mask("plain"), 0);
        assert_eq!(m.place(town).unwrap().name_en, "Town");
        let a = g.parse("0101").unwrap();
        let b = g.parse("0201").unwrap();
        let d = g.dir_to(a, b).unwrap();
        assert_ne!(m.side(a, d) & m.side_mask("river"), 0);
        assert_ne!(m.side(b, opposite(d)) & m.side_mask("road"), 0);
        assert!(m.any_side(g.parse("0301").unwrap(), m.side_mask("road")));
        assert!(!m.any_side(g.parse("0103").unwrap(), m.side_mask("road")));
        assert_eq!(m.hex_set("start").len(), 1);
        assert_eq!(m.terrain_mask("nothing"), 0);
    }

    #[test]
    fn rejects_bad_maps_with_a_reason() {
        let bad = SMALL.replace("\"...~\"]", "\"..~\"]");
        assert!(HexMap::from_toml(&bad).unwrap_err().0.contains("row 3"));
        let bad = SMALL.replace("0102/0201", "0102/0301");
        assert!(HexMap::from_toml(&bad).unwrap_err().0.contains("not adjacent"));
        let bad = SMALL.replace("\"0103\"]", "\"0109\"]");
        assert!(HexMap::from_toml(&bad).unwrap_err().0.contains("off the map"));
        let bad = SMALL.replace("\"...~\"]", "\"..X~\"]");
        assert!(HexMap::from_toml(&bad).unwrap_err().0.contains("legend"));
    }
}

//! Point-to-point maps as data: spaces with their names, terrain and drawing position,
//! connections between two spaces with their features (a dashed line only some nationalities
//! may use, say), named sets of spaces (holding boxes, sections of the map such as the Near
//! East), and per space the flags and properties a game reads (a capital, a port, a nation).
//!
//! As in hex maps ([`crate::map`]), terrain and connection feature names belong to the game:
//! the file's `[legend]` lists them, the core turns each into one bit of a mask in the order
//! listed, and the game asks for the masks it cares about once, when it loads. The file format
//! is documented in `docs/formats.md`; a file that cannot be used is refused with the line of
//! the entry that is wrong.

use crate::graph::{Connection, PointMap, Space, SpaceInfo};
use crate::map::{About, MapError};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use toml::Spanned;

/// The map file as written on disk. Entries carry their place in the file (`Spanned`) so
/// that errors can name the line.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpaceMapFile {
    pub about: About,
    #[serde(default)]
    pub legend: Legend,
    #[serde(default, rename = "space")]
    pub spaces: Vec<Spanned<SpaceEntry>>,
    #[serde(default, rename = "connection")]
    pub connections: Vec<Spanned<ConnectionEntry>>,
    #[serde(default, rename = "space_set")]
    pub space_sets: Vec<Spanned<SpaceSetEntry>>,
}

/// The map's key: every terrain a space may have and every feature a connection may have.
/// Each name becomes one bit, in the order listed (at most 32 of each).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Legend {
    #[serde(default)]
    pub terrain: Vec<String>,
    #[serde(default)]
    pub features: Vec<String>,
}

/// A space: a town, a fortress, a holding box.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpaceEntry {
    /// The id other entries (and scenarios) name the space by.
    pub id: String,
    pub name_en: String,
    pub name_zh: String,
    /// Terrain names from the legend; none for clear terrain, if the game has no name for it.
    #[serde(default)]
    pub terrain: Vec<String>,
    /// Drawing position in pixels, y growing downward.
    pub x: f64,
    pub y: f64,
    /// Game-defined marks (for example `capital`, `port`).
    #[serde(default)]
    pub flags: Vec<String>,
    /// Game-defined values (for example `nation = "fr"`, `vp = 1`).
    #[serde(default)]
    pub properties: BTreeMap<String, PropertyValue>,
}

/// A connection between two spaces.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectionEntry {
    pub a: String,
    pub b: String,
    /// Feature names from the legend.
    #[serde(default)]
    pub features: Vec<String>,
}

/// A named list of spaces for the game's own use (the holding boxes, a section of the map).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpaceSetEntry {
    pub name: String,
    pub spaces: Vec<Spanned<String>>,
}

/// The value of a space's property: a whole number or a text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum PropertyValue {
    Number(i64),
    Text(String),
}

impl<'de> Deserialize<'de> for PropertyValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PropertyValue, D::Error> {
        struct Value;
        impl Visitor<'_> for Value {
            type Value = PropertyValue;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number or a text")
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<PropertyValue, E> {
                Ok(PropertyValue::Number(v))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<PropertyValue, E> {
                i64::try_from(v)
                    .map(PropertyValue::Number)
                    .map_err(|_| E::custom(format!("{v} is too large")))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<PropertyValue, E> {
                Ok(PropertyValue::Text(v.to_string()))
            }
        }
        d.deserialize_any(Value)
    }
}

/// A loaded point-to-point map: the graph the searches walk, and what the file says beside it.
#[derive(Clone, Debug)]
pub struct SpaceMap {
    pub about: About,
    /// Spaces and connections, in file order: the first `[[space]]` is `Space(0)`, the first
    /// `[[connection]]` is connection 0.
    pub graph: PointMap,
    terrain_names: Vec<String>,
    feature_names: Vec<String>,
    flags: Vec<Vec<String>>,
    properties: Vec<BTreeMap<String, PropertyValue>>,
    pub space_sets: BTreeMap<String, Vec<Space>>,
}

/// The bits of a legend list: one per name, in order. Refuses repeated names and more than 32.
fn legend_bits(names: &[String], what: &str) -> Result<BTreeMap<String, u32>, MapError> {
    if names.len() > 32 {
        return Err(MapError(format!(
            "legend: {} {what} names; a map has at most 32",
            names.len()
        )));
    }
    let mut bits = BTreeMap::new();
    for (i, name) in names.iter().enumerate() {
        if name.trim().is_empty() {
            return Err(MapError(format!("legend: an empty {what} name")));
        }
        if bits.insert(name.clone(), 1u32 << i).is_some() {
            return Err(MapError(format!("legend: {what} `{name}` is listed twice")));
        }
    }
    Ok(bits)
}

/// The mask of a list of names, each of which must be in the legend.
fn mask_of(names: &[String], bits: &BTreeMap<String, u32>, what: &str, entry: &str) -> Result<u32, MapError> {
    let mut mask = 0;
    for name in names {
        mask |= bits
            .get(name)
            .ok_or_else(|| MapError(format!("{entry}: {what} `{name}` is not in the legend")))?;
    }
    Ok(mask)
}

impl SpaceMap {
    /// Reads a map from the text of a point-to-point map file, checking every entry.
    pub fn from_toml(text: &str) -> Result<SpaceMap, MapError> {
        let file: SpaceMapFile = toml::from_str(text).map_err(|e| MapError(e.to_string()))?;
        let lines = crate::text::Lines::new(text);
        let line = |offset: usize| lines.at(offset);
        let terrain_bits = legend_bits(&file.legend.terrain, "terrain")?;
        let feature_bits = legend_bits(&file.legend.features, "feature")?;

        // Spaces, with the line each id was given on.
        let mut ids: BTreeMap<&str, (Space, usize)> = BTreeMap::new();
        let mut spaces = Vec::with_capacity(file.spaces.len());
        let mut flags = Vec::with_capacity(file.spaces.len());
        let mut properties = Vec::with_capacity(file.spaces.len());
        for entry in &file.spaces {
            let at = line(entry.span().start);
            let s = entry.get_ref();
            let what = format!("line {at}: space `{}`", s.id);
            if s.id.trim().is_empty() {
                return Err(MapError(format!("line {at}: a space with an empty id")));
            }
            if ids.len() >= u16::MAX as usize - 1 {
                return Err(MapError(format!("{what}: a map has at most {} spaces", u16::MAX - 1)));
            }
            if let Some(&(_, first)) = ids.get(s.id.as_str()) {
                return Err(MapError(format!(
                    "{what}: the id is taken by the space on line {first}"
                )));
            }
            if !s.x.is_finite() || !s.y.is_finite() {
                return Err(MapError(format!("{what}: x and y must be numbers")));
            }
            ids.insert(&s.id, (Space(spaces.len() as u16), at));
            spaces.push(SpaceInfo {
                id: s.id.clone(),
                name_en: s.name_en.clone(),
                name_zh: s.name_zh.clone(),
                terrain: mask_of(&s.terrain, &terrain_bits, "terrain", &what)?,
                x: s.x,
                y: s.y,
            });
            flags.push(s.flags.clone());
            properties.push(s.properties.clone());
        }
        let find = |id: &str, at: usize, what: &str| -> Result<Space, MapError> {
            ids.get(id)
                .map(|&(s, _)| s)
                .ok_or_else(|| MapError(format!("line {at}: {what}: there is no space `{id}`")))
        };

        // Connections, each pair of spaces once.
        let mut joined: BTreeMap<(Space, Space), usize> = BTreeMap::new();
        let mut connections = Vec::with_capacity(file.connections.len());
        for entry in &file.connections {
            let at = line(entry.span().start);
            let c = entry.get_ref();
            let what = format!("connection {} – {}", c.a, c.b);
            let (a, b) = (find(&c.a, at, &what)?, find(&c.b, at, &what)?);
            if a == b {
                return Err(MapError(format!("line {at}: {what} joins a space to itself")));
            }
            if let Some(first) = joined.insert((a.min(b), a.max(b)), at) {
                return Err(MapError(format!(
                    "line {at}: {what}: these spaces are already joined on line {first}"
                )));
            }
            connections.push(Connection {
                a,
                b,
                features: mask_of(&c.features, &feature_bits, "feature", &format!("line {at}: {what}"))?,
            });
        }
        let graph = PointMap::new(spaces, connections).map_err(MapError)?;

        // Named sets.
        let mut space_sets = BTreeMap::new();
        for entry in &file.space_sets {
            let at = line(entry.span().start);
            let set = entry.get_ref();
            let what = format!("space set `{}`", set.name);
            let mut members = Vec::with_capacity(set.spaces.len());
            for id in &set.spaces {
                let s = find(id.get_ref(), line(id.span().start), &what)?;
                if members.contains(&s) {
                    return Err(MapError(format!(
                        "line {}: {what} lists `{}` twice",
                        line(id.span().start),
                        id.get_ref()
                    )));
                }
                members.push(s);
            }
            if space_sets.insert(set.name.clone(), members).is_some() {
                return Err(MapError(format!("line {at}: {what} appears twice")));
            }
        }

        Ok(SpaceMap {
            about: file.about,
            graph,
            terrain_names: file.legend.terrain,
            feature_names: file.legend.features,
            flags,
            properties,
            space_sets,
        })
    }

    /// The mask of a terrain name (0 if the legend does not list it).
    pub fn terrain_mask(&self, name: &str) -> u32 {
        self.terrain_names.iter().position(|n| n == name).map_or(0, |i| 1 << i)
    }

    /// The mask of a connection feature name (0 if the legend does not list it).
    pub fn feature_mask(&self, name: &str) -> u32 {
        self.feature_names.iter().position(|n| n == name).map_or(0, |i| 1 << i)
    }

    /// Terrain names of the legend, in bit order.
    pub fn terrain_names(&self) -> &[String] {
        &self.terrain_names
    }

    /// Connection feature names of the legend, in bit order.
    pub fn feature_names(&self) -> &[String] {
        &self.feature_names
    }

    /// The space with a given id.
    pub fn find(&self, id: &str) -> Option<Space> {
        self.graph.find(id)
    }

    /// Terrain bits of a space.
    #[inline]
    pub fn terrain(&self, s: Space) -> u32 {
        self.graph.spaces[s.idx()].terrain
    }

    /// Feature bits of a connection (by its index, as the searches give it).
    #[inline]
    pub fn features(&self, connection: u16) -> u32 {
        self.graph.connections[connection as usize].features
    }

    /// The flags of a space, as the file lists them.
    pub fn flags(&self, s: Space) -> &[String] {
        &self.flags[s.idx()]
    }

    /// Whether a space has a flag.
    pub fn has_flag(&self, s: Space, flag: &str) -> bool {
        self.flags[s.idx()].iter().any(|f| f == flag)
    }

    /// A property of a space, if the file gives it.
    pub fn property(&self, s: Space, key: &str) -> Option<&PropertyValue> {
        self.properties[s.idx()].get(key)
    }

    /// A property of a space that is a whole number.
    pub fn number(&self, s: Space, key: &str) -> Option<i64> {
        match self.property(s, key)? {
            PropertyValue::Number(n) => Some(*n),
            PropertyValue::Text(_) => None,
        }
    }

    /// A property of a space that is a text.
    pub fn text(&self, s: Space, key: &str) -> Option<&str> {
        match self.property(s, key)? {
            PropertyValue::Text(t) => Some(t),
            PropertyValue::Number(_) => None,
        }
    }

    /// A named space set (empty if the map has none of that name).
    pub fn space_set(&self, name: &str) -> &[Space] {
        self.space_sets.get(name).map_or(&[], |v| v.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Topology;
    use crate::map::Provenance;
    use crate::search::{Search, Step};

    /// Ten spaces of a western front and one holding box.
    const SMALL: &str = r#"
[about]
source = "reconstructed"
basis = "a test map"

[legend]
terrain = ["clear", "forest", "mountain"]
features = ["british-only"]

[[space]]
id = "london"
name_en = "London"
name_zh = "伦敦"
terrain = ["clear"]
x = 180
y = 540
flags = ["capital", "port"]
properties = { nation = "br", vp = 0 }

[[space]]
id = "cherbourg"
name_en = "Cherbourg"
name_zh = "瑟堡"
x = 100
y = 675
flags = ["port"]
properties = { nation = "fr" }

[[space]]
id = "le-havre"
name_en = "Le Havre"
name_zh = "勒阿弗尔"
x = 200
y = 680
flags = ["port"]
properties = { nation = "fr", vp = 1 }

[[space]]
id = "amiens"
name_en = "Amiens"
name_zh = "亚眠"
x = 320
y = 660
properties = { nation = "fr", vp = 1 }

[[space]]
id = "paris"
name_en = "Paris"
name_zh = "巴黎"
x = 340
y = 760
flags = ["capital"]
properties = { nation = "fr", vp = 1, fort = 3 }

[[space]]
id = "sedan"
name_en = "Sedan"
name_zh = "色当"
terrain = ["forest"]
x = 470
y = 700

[[space]]
id = "verdun"
name_en = "Verdun"
name_zh = "凡尔登"
x = 520
y = 760
properties = { fort = 3 }

[[space]]
id = "metz"
name_en = "Metz"
name_zh = "梅斯"
x = 580
y = 760
properties = { nation = "ge", fort = 3 }

[[space]]
id = "liege"
name_en = "Liège"
name_zh = "列日"
terrain = ["forest"]
x = 500
y = 600
properties = { nation = "be", fort = 3 }

[[space]]
id = "brussels"
name_en = "Brussels"
name_zh = "布鲁塞尔"
x = 420
y = 580
flags = ["capital"]
properties = { nation = "be" }

[[space]]
id = "ap-reserve"
name_en = "Allied Reserve Box"
name_zh = "协约国预备队区"
x = 60
y = 900

[[connection]]
a = "london"
b = "cherbourg"
features = ["british-only"]

[[connection]]
a = "london"
b = "le-havre"
features = ["british-only"]

[[connection]]
a = "cherbourg"
b = "le-havre"

[[connection]]
a = "le-havre"
b = "amiens"

[[connection]]
a = "amiens"
b = "paris"

[[connection]]
a = "amiens"
b = "brussels"

[[connection]]
a = "paris"
b = "sedan"

[[connection]]
a = "paris"
b = "verdun"

[[connection]]
a = "sedan"
b = "verdun"

[[connection]]
a = "verdun"
b = "metz"

[[connection]]
a = "sedan"
b = "liege"

[[connection]]
a = "brussels"
b = "liege"

[[space_set]]
name = "boxes"
spaces = ["ap-reserve"]

[[space_set]]
name = "belgium"
spaces = [
  "brussels",
  "liege",
]
"#;

    #[test]
    fn loads_a_small_map() {
        let m = SpaceMap::from_toml(SMALL).unwrap();
        assert_eq!(m.about.source, Provenance::Reconstructed);
        assert_eq!(m.graph.len(), 11);
        assert_eq!(m.graph.connections.len(), 12);
        let (london, paris, sedan) = (
            m.find("london").unwrap(),
            m.find("paris").unwrap(),
            m.find("sedan").unwrap(),
        );
        assert_eq!(london, Space(0), "spaces are numbered in file order");
        assert_eq!(m.graph.space(paris).name_zh, "巴黎");
        assert_eq!(m.terrain(london), m.terrain_mask("clear"));
        assert_eq!(m.terrain(paris), 0, "no terrain named");
        assert_eq!(m.terrain(sedan), m.terrain_mask("forest"));
        assert_eq!(m.terrain_mask("mountain"), 4, "bits in legend order");
        assert_eq!(m.terrain_mask("swamp"), 0);
        // Connections keep file order and their features.
        let dashed = m.feature_mask("british-only");
        assert_eq!(m.graph.connection(london, m.find("le-havre").unwrap()), Some(1));
        assert_eq!(m.features(1), dashed);
        assert_eq!(m.features(2), 0);
        assert!(m.graph.adjacent(m.find("verdun").unwrap(), m.find("metz").unwrap()));
        assert!(!m.graph.adjacent(paris, m.find("metz").unwrap()));
        // Flags and properties.
        assert!(m.has_flag(paris, "capital") && !m.has_flag(sedan, "capital"));
        assert_eq!(m.flags(london), ["capital", "port"]);
        assert_eq!(m.number(paris, "fort"), Some(3));
        assert_eq!(m.text(paris, "nation"), Some("fr"));
        assert_eq!(m.number(paris, "nation"), None);
        assert_eq!(m.property(sedan, "fort"), None);
        // Sets; the box has no connections.
        let reserve = m.find("ap-reserve").unwrap();
        assert_eq!(m.space_set("boxes"), [reserve]);
        assert_eq!(
            m.space_set("belgium"),
            [m.find("brussels").unwrap(), m.find("liege").unwrap()]
        );
        assert!(m.space_set("near-east").is_empty());
        assert!(m.graph.exits(reserve).is_empty());
        // A search that keeps off the British-only connections: Cherbourg by Le Havre only.
        let mut s: Search<Space> = Search::new();
        s.run(&m.graph, &[(paris, 0)], u32::MAX, |_, c, _| {
            if m.features(c) & dashed != 0 {
                Step::Blocked(crate::search::Why::NONE)
            } else {
                Step::Go(1)
            }
        });
        assert_eq!(s.cost(m.find("cherbourg").unwrap()), Some(3));
        assert_eq!(s.cost(london), None);
        assert_eq!(s.cost(reserve), None);
        assert_eq!(s.cost(m.find("liege").unwrap()), Some(2));
    }

    /// A ring of 300 spaces in the file format: every connection keeps its index in the file,
    /// and the search is told that index, however far past 255.
    #[test]
    fn three_hundred_connections_keep_their_indices() {
        let mut text =
            String::from("[about]\nsource = \"reconstructed\"\nbasis = \"a ring\"\n\n[legend]\nfeatures = [\"odd\"]\n");
        for i in 0..300 {
            text += &format!("\n[[space]]\nid = \"s{i}\"\nname_en = \"S{i}\"\nname_zh = \"地{i}\"\nx = {i}\ny = 0\n");
        }
        for i in 0..300 {
            let odd = if i % 2 == 1 { "features = [\"odd\"]\n" } else { "" };
            text += &format!("\n[[connection]]\na = \"s{i}\"\nb = \"s{}\"\n{odd}", (i + 1) % 300);
        }
        let m = SpaceMap::from_toml(&text).unwrap();
        assert_eq!(m.graph.connections.len(), 300);
        let mut seen = vec![0; 300];
        for s in m.graph.space_indices() {
            let i = s.0;
            m.graph.for_each_neighbour(s, |c, n| {
                // Space i has connection i (to i + 1) and connection i - 1 (from i - 1).
                let want = if n.0 == (i + 1) % 300 { i } else { (i + 299) % 300 };
                assert_eq!(c, want, "space {i} to {}", n.0);
                assert_eq!(m.features(c) != 0, c % 2 == 1);
                seen[c as usize] += 1;
            });
        }
        assert!(seen.iter().all(|&k| k == 2));
    }

    #[test]
    fn rejects_bad_maps_with_the_line() {
        let err = |text: &str| SpaceMap::from_toml(text).unwrap_err().0;
        let line_of = |needle: &str| SMALL[..SMALL.find(needle).unwrap()].matches('\n').count() + 1;

        // An unknown space in a connection.
        let bad = SMALL.replace("a = \"verdun\"\nb = \"metz\"", "a = \"verdun\"\nb = \"mets\"");
        let at = line_of("a = \"verdun\"\nb = \"metz\"") - 1;
        assert_eq!(
            err(&bad),
            format!("line {at}: connection verdun – mets: there is no space `mets`")
        );
        // The same id twice.
        let bad = SMALL.replace("id = \"verdun\"", "id = \"sedan\"");
        let first = line_of("id = \"sedan\"") - 1;
        let again = line_of("id = \"verdun\"") - 1;
        assert_eq!(
            err(&bad),
            format!("line {again}: space `sedan`: the id is taken by the space on line {first}")
        );
        // A space joined to itself.
        let bad = SMALL.replace("a = \"sedan\"\nb = \"liege\"", "a = \"sedan\"\nb = \"sedan\"");
        let at = line_of("a = \"sedan\"\nb = \"liege\"") - 1;
        assert_eq!(
            err(&bad),
            format!("line {at}: connection sedan – sedan joins a space to itself")
        );
        // The same two spaces joined twice, the second time the other way round.
        let bad = SMALL.replace("a = \"brussels\"\nb = \"liege\"", "a = \"le-havre\"\nb = \"london\"");
        let first = line_of("a = \"london\"\nb = \"le-havre\"") - 1;
        let again = line_of("a = \"brussels\"\nb = \"liege\"") - 1;
        assert_eq!(
            err(&bad),
            format!("line {again}: connection le-havre – london: these spaces are already joined on line {first}")
        );
        // Names missing from the legend.
        let bad = SMALL.replace("terrain = [\"forest\"]\nx = 470", "terrain = [\"forrest\"]\nx = 470");
        let at = line_of("id = \"sedan\"") - 1;
        assert_eq!(
            err(&bad),
            format!("line {at}: space `sedan`: terrain `forrest` is not in the legend")
        );
        let bad = SMALL.replacen(
            "features = [\"british-only\"]\n\n[[connection]]",
            "features = [\"dashed\"]\n\n[[connection]]",
            1,
        );
        assert!(err(&bad).contains("connection london – cherbourg: feature `dashed` is not in the legend"));
        let bad = SMALL.replace(
            "features = [\"british-only\"]\n\n[[space]]",
            "features = [\"british-only\", \"british-only\"]\n\n[[space]]",
        );
        assert_eq!(err(&bad), "legend: feature `british-only` is listed twice");
        // A set naming a space that is not there, and one listing a space twice: the line of the member.
        let bad = SMALL.replace("  \"liege\",\n]", "  \"lille\",\n]");
        let at = line_of("  \"liege\",\n]");
        assert_eq!(
            err(&bad),
            format!("line {at}: space set `belgium`: there is no space `lille`")
        );
        let bad = SMALL.replace("  \"liege\",\n]", "  \"brussels\",\n]");
        assert_eq!(
            err(&bad),
            format!("line {at}: space set `belgium` lists `brussels` twice")
        );
        let bad = SMALL.replace("name = \"belgium\"", "name = \"boxes\"");
        assert!(err(&bad).contains("space set `boxes` appears twice"));
        // What the TOML reader refuses comes with its line too: a property that is neither a
        // number nor a text, a misspelt key, a missing name, a position that is not a number.
        let bad = SMALL.replace("properties = { fort = 3 }", "properties = { fort = 3.5 }");
        let e = err(&bad);
        assert!(
            e.contains(&format!("line {}", line_of("properties = { fort = 3 }"))),
            "{e}"
        );
        assert!(e.contains("expected a whole number or a text"), "{e}");
        let bad = SMALL.replace(
            "features = [\"british-only\"]\n\n[[connection]]",
            "feature = [\"british-only\"]\n\n[[connection]]",
        );
        assert!(err(&bad).contains("unknown field `feature`"));
        let bad = SMALL.replace("name_zh = \"色当\"\n", "");
        assert!(err(&bad).contains("missing field `name_zh`"));
        let bad = SMALL.replace("x = 470", "x = nan");
        assert!(err(&bad).contains("space `sedan`: x and y must be numbers"));
        let bad = SMALL.replace("id = \"sedan\"", "id = \" \"");
        assert!(err(&bad).contains("a space with an empty id"));
    }
}

//! The game's data files, loaded and checked once: the map, the counters, the chits, the turn
//! track and the rulebook's tables. Files live in `data/` and are embedded in the binary; a
//! scenario file may be supplied by a player (see `scenario.rs`).

use sandtable_core::combat::{CombatTable, OddsColumns};
use sandtable_core::hex::Hex;
use sandtable_core::map::{About, HexMap};
use serde::Deserialize;
use std::collections::BTreeMap;

pub const MAP_TOML: &str = include_str!("../data/map.toml");
pub const COUNTERS_TOML: &str = include_str!("../data/counters.toml");
pub const CHITS_TOML: &str = include_str!("../data/chits.toml");
pub const TURNS_TOML: &str = include_str!("../data/turns.toml");
pub const TABLES_TOML: &str = include_str!("../data/tables.toml");

/// The two sides. Seat 0 is the Axis, seat 1 the Soviet player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Axis,
    Soviet,
}

impl Side {
    pub fn seat(self) -> u8 {
        match self {
            Side::Axis => 0,
            Side::Soviet => 1,
        }
    }
    pub fn from_seat(seat: u8) -> Side {
        if seat == 0 {
            Side::Axis
        } else {
            Side::Soviet
        }
    }
    pub fn enemy(self) -> Side {
        match self {
            Side::Axis => Side::Soviet,
            Side::Soviet => Side::Axis,
        }
    }
    pub fn name(self) -> sandtable_core::text::Text {
        match self {
            Side::Axis => sandtable_core::text::Text::new("Axis", "轴心国军"),
            Side::Soviet => sandtable_core::text::Text::new("Soviet", "苏军"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Nation {
    German,
    Hungarian,
    Romanian,
    Italian,
    Soviet,
}

/// Unit types of 2.21 (and the inventory's abbreviations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UType {
    Hq,
    Pz,
    Mot,
    Gd,
    Ss,
    Inf,
    Mt,
    Jg,
    Armor,
    Cav,
    Rifle,
    GRifle,
    GCav,
    Tk,
    Mech,
    GMech,
    /// The NKVD motorised units of the Soviet track's last row (12.2).
    NkvdMot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Entry {
    Setup,
    FrontLine,
    SecondLine,
    Pool,
}

/// Printed factors of one face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Face {
    pub attack: u8,
    pub defence: u8,
    pub ma: u8,
}

impl Face {
    fn parse(s: &str) -> Option<(Face, bool)> {
        let n: Vec<u8> = s.split('-').map(|p| p.trim().parse().ok()).collect::<Option<_>>()?;
        match n.as_slice() {
            [c, m] => Some((
                Face {
                    attack: *c,
                    defence: *c,
                    ma: *m,
                },
                false,
            )),
            [a, d, m] => Some((
                Face {
                    attack: *a,
                    defence: *d,
                    ma: *m,
                },
                true,
            )),
            _ => None,
        }
    }

    pub fn label(&self, mech: bool) -> String {
        if mech {
            format!("{}-{}-{}", self.attack, self.defence, self.ma)
        } else {
            format!("{}-{}", self.attack, self.ma)
        }
    }
}

/// One counter of the manifest.
#[derive(Clone, Debug)]
pub struct UnitDef {
    pub id: String,
    pub name: String,
    pub name_zh: String,
    pub name_en: String,
    pub side: Side,
    pub nation: Nation,
    pub utype: UType,
    pub front: Option<String>,
    pub entry: Entry,
    pub full: Face,
    pub reduced: Option<Face>,
    /// 2.21(2)5: mechanised exactly when the counter has separate attack and defence.
    pub mech: bool,
    pub range: u8,
    pub chit: Option<String>,
    /// Its name with its factors, full face then reduced (`6th Army (4-6)`), written once
    /// when the counters are read: the board's pieces title every counter with it.
    labels: [sandtable_core::text::Text; 2],
}

impl UnitDef {
    /// Its name with the factors of the face shown, in both languages.
    pub fn label(&self, reduced: bool) -> &sandtable_core::text::Text {
        &self.labels[usize::from(reduced)]
    }

    fn write_labels(&mut self) {
        self.labels = [false, true].map(|reduced| {
            let f = self.face(reduced).label(self.mech);
            sandtable_core::text::Text::new(format!("{} ({f})", self.name_en), format!("{}({f})", self.name_zh))
        });
    }

    pub fn is_hq(&self) -> bool {
        self.utype == UType::Hq
    }
    /// Mountain divisions (9.2(4)2): German and allied `mt`.
    pub fn is_mountain(&self) -> bool {
        self.utype == UType::Mt
    }
    pub fn face(&self, reduced: bool) -> Face {
        if reduced {
            self.reduced.unwrap_or(self.full)
        } else {
            self.full
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitRow {
    id: String,
    name: String,
    name_zh: String,
    name_en: String,
    side: Side,
    nation: Nation,
    #[serde(rename = "type")]
    utype: UType,
    #[serde(default)]
    front: Option<String>,
    entry: Entry,
    full: String,
    #[serde(default)]
    reduced: Option<String>,
    #[serde(default)]
    range: Option<u8>,
    #[serde(default)]
    chit: Option<String>,
}

#[derive(Deserialize)]
struct CountersFile {
    about: About,
    unit: Vec<UnitRow>,
}

/// What a chit does when drawn (7.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChitKind {
    Hq,
    Stavka,
    Reinf,
    Supply,
}

/// The selection class of a chit (6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChitClass {
    SuCom,
    SovietExtra,
    GerCom,
    AxisRnfCom,
    Supply,
}

#[derive(Clone, Debug)]
pub struct ChitDef {
    pub id: String,
    pub side: Option<Side>,
    pub class: ChitClass,
    pub kind: ChitKind,
    pub hq: Option<u16>,
    pub count: u8,
    pub name_zh: String,
    pub name_en: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChitRow {
    id: String,
    side: String,
    class: ChitClass,
    kind: ChitKind,
    #[serde(default)]
    hq: Option<String>,
    count: u8,
    name_zh: String,
    name_en: String,
}

#[derive(Deserialize)]
struct ChitsFile {
    #[allow(dead_code)]
    about: About,
    chit: Vec<ChitRow>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnDef {
    pub number: u8,
    pub date_en: String,
    pub date_zh: String,
    pub su_com: u8,
    pub ger_com: u8,
    pub axis_rnf_com: u8,
}

#[derive(Deserialize)]
struct TurnsFile {
    about: About,
    turn: Vec<TurnDef>,
}

/// One CRT cell (10.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CrtResult {
    /// Steps the attacker loses (Ax).
    pub attacker_steps: u8,
    /// Steps the defender loses (the x of xRR).
    pub defender_steps: u8,
    /// Hexes the defender retreats (R = 1, RR = 2).
    pub retreat: u8,
}

impl CrtResult {
    fn parse(s: &str) -> Option<CrtResult> {
        let s = s.trim();
        let none = CrtResult {
            attacker_steps: 0,
            defender_steps: 0,
            retreat: 0,
        };
        if s == "-" {
            return Some(none);
        }
        if let Some(n) = s.strip_prefix('A') {
            return Some(CrtResult {
                attacker_steps: n.parse().ok()?,
                ..none
            });
        }
        let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
        let rest = &s[digits.len()..];
        let retreat = match rest {
            "R" => 1,
            "RR" => 2,
            _ => return None,
        };
        let defender_steps = if digits.is_empty() { 0 } else { digits.parse().ok()? };
        Some(CrtResult {
            attacker_steps: 0,
            defender_steps,
            retreat,
        })
    }

    pub fn label(&self) -> String {
        if self.attacker_steps > 0 {
            format!("A{}", self.attacker_steps)
        } else if self.retreat == 0 {
            "-".into()
        } else {
            let r = if self.retreat == 1 { "R" } else { "RR" };
            if self.defender_steps > 0 {
                format!("{}{r}", self.defender_steps)
            } else {
                r.into()
            }
        }
    }
}

/// One row of the Terrain Effects Chart.
#[derive(Clone, Copy, Debug, Deserialize, Default)]
pub struct TecRow {
    pub mp_mech: u8,
    pub mp_foot: u8,
    pub shift: u8,
    pub advance: u8,
}

#[derive(Clone, Copy, Debug, Deserialize)]
pub struct SideCosts {
    pub river_mp: u8,
    pub road_mp: u8,
    pub march_half_mp: u8,
    pub zoc_enter_mp: u8,
    pub zoc_leave_mp: u8,
}

#[derive(Deserialize)]
struct CrtRows {
    columns: Vec<String>,
    rows: Vec<Vec<String>>,
}

#[derive(Deserialize)]
struct TypedRows {
    types: Vec<String>,
    rows: Vec<Vec<u8>>,
}

#[derive(Deserialize)]
struct TablesFile {
    #[allow(dead_code)]
    about: About,
    crt: CrtRows,
    withdrawal: TypedRows,
    axis_reinforcements: TypedRows,
    soviet_track: BTreeMap<String, Vec<u8>>,
    terrain: BTreeMap<String, TecRow>,
    hexsides: SideCosts,
}

/// Terrain bits of the map.
#[derive(Clone, Copy, Debug)]
pub struct Terrain {
    pub plain: u32,
    pub forest: u32,
    pub swamp: u32,
    pub mountain: u32,
    pub sea: u32,
    pub impassable: u32,
    pub town: u32,
    pub city: u32,
}

/// Hexside bits of the map.
#[derive(Clone, Copy, Debug)]
pub struct Sides {
    pub river: u32,
    pub major: u32,
    pub road: u32,
    pub rail: u32,
    pub prohibited: u32,
}

/// Everything that does not change during a game.
#[derive(Debug)]
pub struct Data {
    pub map: HexMap,
    pub t: Terrain,
    pub s: Sides,
    pub units: Vec<UnitDef>,
    pub unit_index: BTreeMap<String, u16>,
    pub counters_about: About,
    pub turns: Vec<TurnDef>,
    pub turns_about: About,
    pub chits: Vec<ChitDef>,
    pub crt: CombatTable<CrtResult>,
    /// [die-1][pz, ss, inf]
    pub withdrawal: Vec<[u8; 3]>,
    /// [die-1][pz, ss, inf, hun, rum, it]
    pub axis_reinf: Vec<[u8; 6]>,
    /// (type, counts per reinforcement number 1..=9)
    pub soviet_track: Vec<(SovietClass, Vec<u8>)>,
    pub tec: BTreeMap<String, TecRow>,
    pub costs: SideCosts,
    /// Per hex: a city or town (3.4).
    pub is_urban: Vec<bool>,
    /// Per hex: a road runs through it (9.3(1)1).
    pub has_road: Vec<bool>,
    /// Per hex: a railway runs through it (12.1).
    pub has_rail: Vec<bool>,
    /// Per hex: the MP to enter it by its terrain alone, `[foot, mechanised]` (9.2(5)); the
    /// TEC read once, by [`crate::rules::terrain_mp`].
    pub enter_mp: [Vec<u8>; 2],
    /// Per hex: the defender's terrain shifts (10.3(3)), by [`crate::rules::terrain_shift`].
    pub shift: Vec<u8>,
    /// Per hex and direction: what a LOC step across that hexside is by the map alone (3.3),
    /// by [`crate::rules::loc_sides`].
    pub loc_sides: Vec<[u8; 6]>,
    /// [`Data::loc_sides`] as bits a column at a time, with what else the LOC floods read
    /// of the map, by [`crate::rules::loc_bits`].
    pub loc_bits: crate::rules::LocBits,
    /// Per hex and direction: what a step of normal movement across that hexside is by the
    /// map alone (9.2), `[foot, mechanised]`, by [`crate::rules::move_sides`].
    pub move_sides: [Vec<[u16; 6]>; 2],
    /// Per hex: the directions (bit `dir`) a step of march formation may take by the map
    /// alone (9.3(1)), by [`crate::rules::march_sides`].
    pub march_sides: Vec<u8>,
    /// Per hex: the directions (bit `dir`) a rail-entry trace may step along railway by the
    /// map alone (12.1(1)), by [`crate::rules::rail_sides`].
    pub rail_sides: Vec<u8>,
    /// A number no other data loaded by this process has: what the engine keeps of its own
    /// work between decisions is marked with it, so it is never used on other data.
    pub serial: u64,
    pub vp_hexes: Vec<Hex>,
    pub supply_axis: Vec<Hex>,
    pub supply_soviet: Vec<Hex>,
    /// The set-up groups and the hexes 4.0 names for each (for scenarios that leave the
    /// set-up to the players).
    pub setup: crate::setup::SetupData,
}

/// The classes of the Soviet reinforcement track (12.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum SovietClass {
    Hq,
    Tk,
    Mech,
    Cav,
    Rifle,
    GMech,
    GCav,
    GRifle,
    NkvdMot,
}

impl SovietClass {
    pub fn of(t: UType) -> Option<SovietClass> {
        Some(match t {
            UType::Hq => SovietClass::Hq,
            UType::Tk => SovietClass::Tk,
            UType::Mech => SovietClass::Mech,
            UType::Cav => SovietClass::Cav,
            UType::Rifle => SovietClass::Rifle,
            UType::GMech => SovietClass::GMech,
            UType::GCav => SovietClass::GCav,
            UType::GRifle => SovietClass::GRifle,
            UType::NkvdMot => SovietClass::NkvdMot,
            _ => return None,
        })
    }

    /// The class as the reinforcement track prints it, in both languages.
    pub fn name(self) -> sandtable_core::text::Text {
        let (en, zh) = match self {
            SovietClass::Hq => ("HQ", "司令部"),
            SovietClass::Tk => ("tank corps", "坦克军"),
            SovietClass::Mech => ("mechanized corps", "机械化军"),
            SovietClass::Cav => ("cavalry", "骑兵"),
            SovietClass::Rifle => ("rifle division", "步兵师"),
            SovietClass::GMech => ("Guards mechanized corps", "近卫机械化军"),
            SovietClass::GCav => ("Guards cavalry", "近卫骑兵"),
            SovietClass::GRifle => ("Guards rifle division", "近卫步兵师"),
            SovietClass::NkvdMot => ("NKVD motorised unit", "内务人民委员部摩托化部队"),
        };
        sandtable_core::text::Text::new(en, zh)
    }
}

fn err(file: &str, msg: impl std::fmt::Display) -> String {
    format!("{file}: {msg}")
}

impl Data {
    /// Loads the embedded data files.
    pub fn embedded() -> Result<Data, String> {
        Data::load(MAP_TOML, COUNTERS_TOML, CHITS_TOML, TURNS_TOML, TABLES_TOML)
    }

    /// The data of an earlier edition this build still ships, for games begun on it
    /// (`data/edition-N/` holds the files that have changed since; the rest are today's).
    pub fn edition(edition: &str) -> Option<Result<Data, String>> {
        match edition {
            // Before the 1942 bridges and river banks, and the track's NKVD-Mot row.
            "1" => Some(Data::load(
                include_str!("../data/edition-1/map.toml"),
                include_str!("../data/edition-1/counters.toml"),
                CHITS_TOML,
                TURNS_TOML,
                include_str!("../data/edition-1/tables.toml"),
            )),
            _ => None,
        }
    }

    pub fn load(map: &str, counters: &str, chits: &str, turns: &str, tables: &str) -> Result<Data, String> {
        let map = HexMap::from_toml(map).map_err(|e| err("map.toml", e))?;
        let tm = |n: &str| map.terrain_mask(n);
        let t = Terrain {
            plain: tm("plain"),
            forest: tm("forest"),
            swamp: tm("swamp"),
            mountain: tm("mountain"),
            sea: tm("sea"),
            impassable: tm("impassable"),
            town: tm("town"),
            city: tm("city"),
        };
        let sm = |n: &str| map.side_mask(n);
        let s = Sides {
            river: sm("river"),
            major: sm("major-river"),
            road: sm("road"),
            rail: sm("railway"),
            prohibited: sm("prohibited"),
        };

        let cf: CountersFile = toml::from_str(counters).map_err(|e| err("counters.toml", e))?;
        let mut units = Vec::new();
        let mut unit_index = BTreeMap::new();
        for r in cf.unit {
            let (full, mech) = Face::parse(&r.full)
                .ok_or_else(|| err("counters.toml", format!("{}: bad factors `{}`", r.id, r.full)))?;
            let reduced = match &r.reduced {
                Some(s) => Some(
                    Face::parse(s)
                        .ok_or_else(|| err("counters.toml", format!("{}: bad reduced factors `{s}`", r.id)))?
                        .0,
                ),
                None => None,
            };
            if r.utype == UType::Hq && (r.range.is_none() || r.chit.is_none()) {
                return Err(err("counters.toml", format!("HQ {} needs `range` and `chit`", r.id)));
            }
            if unit_index.insert(r.id.clone(), units.len() as u16).is_some() {
                return Err(err("counters.toml", format!("unit id {} appears twice", r.id)));
            }
            units.push(UnitDef {
                id: r.id,
                name: r.name,
                name_zh: r.name_zh,
                name_en: r.name_en,
                side: r.side,
                nation: r.nation,
                utype: r.utype,
                front: r.front,
                entry: r.entry,
                full,
                reduced,
                mech,
                range: r.range.unwrap_or(0),
                chit: r.chit,
                labels: Default::default(),
            });
            if let Some(u) = units.last_mut() {
                u.write_labels();
            }
        }

        let chf: ChitsFile = toml::from_str(chits).map_err(|e| err("chits.toml", e))?;
        let mut chit_defs = Vec::new();
        for c in chf.chit {
            let side = match c.side.as_str() {
                "axis" => Some(Side::Axis),
                "soviet" => Some(Side::Soviet),
                "common" => None,
                other => return Err(err("chits.toml", format!("{}: unknown side `{other}`", c.id))),
            };
            let hq = match &c.hq {
                Some(id) => Some(
                    *unit_index
                        .get(id)
                        .ok_or_else(|| err("chits.toml", format!("{}: no unit `{id}`", c.id)))?,
                ),
                None => None,
            };
            if c.kind == ChitKind::Hq && hq.is_none() {
                return Err(err("chits.toml", format!("HQ chit {} names no HQ", c.id)));
            }
            chit_defs.push(ChitDef {
                id: c.id,
                side,
                class: c.class,
                kind: c.kind,
                hq,
                count: c.count,
                name_zh: c.name_zh,
                name_en: c.name_en,
            });
        }

        let tf: TurnsFile = toml::from_str(turns).map_err(|e| err("turns.toml", e))?;
        if tf.turn.len() != 9 || tf.turn.iter().enumerate().any(|(i, t)| t.number as usize != i + 1) {
            return Err(err("turns.toml", "the turn track has turns 1 to 9, in order (5.0)"));
        }

        let tab: TablesFile = toml::from_str(tables).map_err(|e| err("tables.toml", e))?;
        let labels: Vec<&str> = tab.crt.columns.iter().map(|s| s.as_str()).collect();
        let columns = OddsColumns::parse(&labels).ok_or_else(|| err("tables.toml", "bad CRT column"))?;
        let rows = tab
            .crt
            .rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| CrtResult::parse(c).ok_or_else(|| err("tables.toml", format!("bad CRT cell `{c}`"))))
                    .collect()
            })
            .collect::<Result<Vec<Vec<_>>, _>>()?;
        let crt = CombatTable {
            columns,
            die_min: 1,
            rows,
        };
        crt.check().map_err(|e| err("tables.toml", e))?;
        let six = |rows: &Vec<Vec<u8>>, n: usize, what: &str| -> Result<(), String> {
            if rows.len() != 6 || rows.iter().any(|r| r.len() != n) {
                return Err(err("tables.toml", format!("{what}: 6 rows of {n} numbers")));
            }
            Ok(())
        };
        if tab.withdrawal.types != ["pz", "ss", "inf"] {
            return Err(err("tables.toml", "withdrawal types must be pz, ss, inf"));
        }
        six(&tab.withdrawal.rows, 3, "withdrawal")?;
        if tab.axis_reinforcements.types != ["pz", "ss", "inf", "hun", "rum", "it"] {
            return Err(err(
                "tables.toml",
                "axis_reinforcements types must be pz, ss, inf, hun, rum, it",
            ));
        }
        six(&tab.axis_reinforcements.rows, 6, "axis_reinforcements")?;
        let withdrawal = tab.withdrawal.rows.iter().map(|r| [r[0], r[1], r[2]]).collect();
        let axis_reinf = tab
            .axis_reinforcements
            .rows
            .iter()
            .map(|r| [r[0], r[1], r[2], r[3], r[4], r[5]])
            .collect();
        // 12.2: every row the book prints, in its order; a row of another name is refused, so
        // none is read and then forgotten.
        let track_rows = [
            ("hq", SovietClass::Hq),
            ("tk", SovietClass::Tk),
            ("mech", SovietClass::Mech),
            ("cav", SovietClass::Cav),
            ("rifle", SovietClass::Rifle),
            ("g-mech", SovietClass::GMech),
            ("g-cav", SovietClass::GCav),
            ("g-rifle", SovietClass::GRifle),
            ("nkvd-mot", SovietClass::NkvdMot),
        ];
        if let Some(other) = (tab.soviet_track.keys()).find(|k| !track_rows.iter().any(|(name, _)| name == k)) {
            return Err(err("tables.toml", format!("soviet_track has an unknown row `{other}`")));
        }
        let mut soviet_track = Vec::new();
        for (name, class) in track_rows {
            let row = tab
                .soviet_track
                .get(name)
                .ok_or_else(|| err("tables.toml", format!("soviet_track lacks `{name}`")))?;
            if row.len() != 9 {
                return Err(err("tables.toml", format!("soviet_track `{name}` needs 9 numbers")));
            }
            soviet_track.push((class, row.clone()));
        }
        for need in ["plain", "forest", "swamp", "mountain", "town", "city"] {
            if !tab.terrain.contains_key(need) {
                return Err(err("tables.toml", format!("the terrain chart lacks `{need}`")));
            }
        }

        let n = map.grid.len();
        let is_urban = (0..n)
            .map(|i| map.terrain(Hex(i as u16)) & (t.town | t.city) != 0)
            .collect();
        let has_road = (0..n).map(|i| map.any_side(Hex(i as u16), s.road)).collect();
        let has_rail = (0..n).map(|i| map.any_side(Hex(i as u16), s.rail)).collect();
        let vp_hexes = map
            .places
            .iter()
            .filter(|p| p.tags.iter().any(|t| t == "vp"))
            .map(|p| p.hex)
            .collect();
        let supply_axis = map.hex_set("supply-axis").to_vec();
        let supply_soviet = map.hex_set("supply-soviet").to_vec();
        if supply_axis.is_empty() || supply_soviet.is_empty() {
            return Err(err(
                "map.toml",
                "both sides need supply sources (hex sets supply-axis, supply-soviet)",
            ));
        }
        let mut d = Data {
            map,
            t,
            s,
            units,
            unit_index,
            counters_about: cf.about,
            turns: tf.turn,
            turns_about: tf.about,
            chits: chit_defs,
            crt,
            withdrawal,
            axis_reinf,
            soviet_track,
            tec: tab.terrain,
            costs: tab.hexsides,
            is_urban,
            has_road,
            has_rail,
            vp_hexes,
            supply_axis,
            supply_soviet,
            enter_mp: [Vec::new(), Vec::new()],
            shift: Vec::new(),
            loc_sides: Vec::new(),
            loc_bits: Default::default(),
            move_sides: [Vec::new(), Vec::new()],
            march_sides: Vec::new(),
            rail_sides: Vec::new(),
            setup: crate::setup::SetupData::default(),
            serial: {
                static LOADED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
                LOADED.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            },
        };
        for mech in [false, true] {
            d.enter_mp[mech as usize] = d
                .map
                .grid
                .hexes()
                .map(|h| crate::rules::terrain_mp(&d, d.map.terrain(h), mech) as u8)
                .collect();
        }
        d.shift = d.map.grid.hexes().map(|h| crate::rules::terrain_shift(&d, h)).collect();
        d.loc_sides = crate::rules::loc_sides(&d);
        d.loc_bits = crate::rules::loc_bits(&d).map_err(|e| err("map.toml", e))?;
        d.move_sides = [false, true].map(|mech| crate::rules::move_sides(&d, mech));
        d.march_sides = crate::rules::march_sides(&d);
        d.rail_sides = crate::rules::rail_sides(&d);
        d.setup = crate::setup::SetupData::new(&d);
        Ok(d)
    }

    pub fn chit_index(&self, id: &str) -> Option<u8> {
        self.chits.iter().position(|c| c.id == id).map(|i| i as u8)
    }

    pub fn tec(&self, name: &str) -> TecRow {
        self.tec.get(name).copied().unwrap_or_default()
    }
}

//! The game's tables (`data/tables.toml`): the Fire Tables (12.2.7), the Terrain Effects Chart,
//! the Mandated Offensive tables (7.1), the Peace Terms tables (16.5), the Replacement Cost
//! table (17.1), the Turn Record Track and each scenario's victory levels (5.0). Loaded and
//! checked once; a damaged file is refused with its line and the reason, never a panic.

use crate::data::{DataError, Side};
use sandtable_core::combat::FireTable;
use sandtable_core::map::About;
use serde::Deserialize;

pub const TABLES_TOML: &str = include_str!("../data/tables.toml");
const TABLES_FILE: &str = "data/tables.toml";

/// The two Fire Tables (12.2.7): a cell is the loss number the other side takes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireTables {
    pub corps: FireTable<u8>,
    pub army: FireTable<u8>,
}

/// One row of the Terrain Effects Chart.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    pub id: String,
    pub name_en: String,
    pub name_zh: String,
    /// The column shift of the attacker's fire into it (negative: left).
    pub attacker: i32,
    /// The column shift of the defender's fire from it.
    pub defender: i32,
    /// 12.5.3: the defender may take one more step instead of retreating.
    pub cancel_retreat: bool,
    /// 12.7.3: an advance stops on entering it.
    pub advance_stops: bool,
    /// 12.3.1: a flank attack may be made into it.
    pub flank: bool,
    /// No combat into or out of it on Summer turns.
    pub summer_no_combat: bool,
}

/// A trench level's column shifts (15.1, the Terrain Effects Chart).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trench {
    pub level: u8,
    pub attacker: i32,
    pub defender: i32,
    /// 12.5.3: the defender may take one more step instead of retreating.
    pub cancel_retreat: bool,
    /// 12.3.1: a flank attack may be made into it.
    pub flank: bool,
}

/// One side's Mandated Offensive table (7.1): the boxes left to right and the box each face
/// of the die reads.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoTable {
    pub boxes: Vec<String>,
    pub faces: Vec<String>,
}

impl MoTable {
    /// The box a modified roll reads: below 1 as 1, above 6 as 6 (a CP 7 with Hoffmann, 7.1.9).
    pub fn read(&self, roll: i32) -> &str {
        &self.faces[(roll.clamp(1, 6) - 1) as usize]
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoTables {
    pub ap: MoTable,
    pub cp: MoTable,
}

/// One row of a Peace Terms table: from this Combined War Status up, the VP change each face
/// gives (positive: toward the Central Powers).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeaceRow {
    pub from: u8,
    pub faces: Vec<i8>,
}

/// One side's Peace Terms table (16.5) with the VP level its offer needs.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeaceTable {
    #[serde(default)]
    pub vp_at_least: Option<i32>,
    #[serde(default)]
    pub vp_at_most: Option<i32>,
    pub rows: Vec<PeaceRow>,
}

impl PeaceTable {
    /// The VP change a die face gives at a Combined War Status.
    pub fn read(&self, combined_war_status: u8, face: u8) -> i8 {
        let row = self
            .rows
            .iter()
            .rev()
            .find(|r| r.from <= combined_war_status)
            .unwrap_or(&self.rows[0]);
        row.faces[(face.clamp(1, 6) - 1) as usize]
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeaceTables {
    pub ap: PeaceTable,
    pub cp: PeaceTable,
}

/// One purchase of the Replacement Cost table (17.1).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replacement {
    pub id: String,
    pub rp: u8,
    pub name_en: String,
    pub name_zh: String,
}

/// The season printed on the Turn Record Track.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Season {
    August,
    September,
    Fall,
    Winter,
    Spring,
    Summer,
}

impl Season {
    pub fn name_en(self) -> &'static str {
        match self {
            Season::August => "August",
            Season::September => "September",
            Season::Fall => "Fall",
            Season::Winter => "Winter",
            Season::Spring => "Spring",
            Season::Summer => "Summer",
        }
    }

    pub fn name_zh(self) -> &'static str {
        match self {
            Season::August => "八月",
            Season::September => "九月",
            Season::Fall => "秋季",
            Season::Winter => "冬季",
            Season::Spring => "春季",
            Season::Summer => "夏季",
        }
    }
}

/// One turn of the Turn Record Track.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    pub turn: u8,
    pub season: Season,
    pub year: u16,
    /// 15.3.3: the siege roll's modifier (−2 in August and September 1914).
    #[serde(default)]
    pub siege_drm: i8,
}

/// The VP track's automatic-victory levels (5.2) and the start (10).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryTrack {
    pub cp_automatic: i32,
    pub ap_automatic: i32,
    pub vp_start: i32,
}

/// Victory levels at a scenario's end: CP from `cp_at_least` up, the Allies at `ap_at_most`
/// or less, a draw between.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Levels {
    pub cp_at_least: i32,
    pub ap_at_most: i32,
}

/// A scenario's end and victory levels (5.3–5.7).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioLevels {
    pub id: String,
    pub rule: String,
    pub last_turn: u8,
    pub cp_at_least: i32,
    pub ap_at_most: i32,
    /// 5.5.2: the levels once the Treaty of Brest-Litovsk has been played.
    #[serde(default)]
    pub brest_litovsk: Option<Levels>,
    /// 5.7: the side every draw goes to.
    #[serde(default)]
    pub draw_to: Option<Side>,
}

/// How a scenario ends on the VP track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Side),
    Draw,
}

impl ScenarioLevels {
    /// The levels in force (5.5.2: by whether Brest-Litovsk was played).
    pub fn levels(&self, brest_litovsk_played: bool) -> Levels {
        match (brest_litovsk_played, self.brest_litovsk) {
            (true, Some(l)) => l,
            _ => Levels {
                cp_at_least: self.cp_at_least,
                ap_at_most: self.ap_at_most,
            },
        }
    }

    /// The result of a VP total at the scenario's end (5.3.4, 5.4.2, 5.5.2, 5.7).
    pub fn outcome(&self, vp: i32, brest_litovsk_played: bool) -> Outcome {
        let l = self.levels(brest_litovsk_played);
        if vp >= l.cp_at_least {
            Outcome::Win(Side::Cp)
        } else if vp <= l.ap_at_most {
            Outcome::Win(Side::Ap)
        } else {
            match self.draw_to {
                Some(side) => Outcome::Win(side),
                None => Outcome::Draw,
            }
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TablesFile {
    about: About,
    fire: FireTables,
    terrain: Vec<Terrain>,
    trench: Vec<Trench>,
    mandated_offensive: MoTables,
    peace_terms: PeaceTables,
    replacement: Vec<Replacement>,
    turn: Vec<Turn>,
    victory: VictoryTrack,
    scenario: Vec<ScenarioLevels>,
}

/// Every table of the game.
#[derive(Clone, Debug)]
pub struct Tables {
    pub about: About,
    pub fire: FireTables,
    pub terrain: Vec<Terrain>,
    pub trench: Vec<Trench>,
    pub mandated_offensive: MoTables,
    pub peace_terms: PeaceTables,
    pub replacement: Vec<Replacement>,
    pub turns: Vec<Turn>,
    pub victory: VictoryTrack,
    pub scenarios: Vec<ScenarioLevels>,
}

impl Tables {
    /// The tables embedded in the binary.
    pub fn load() -> Result<Tables, DataError> {
        Tables::from_text(TABLES_TOML)
    }

    /// Reads and checks the tables from a file's text.
    pub fn from_text(text: &str) -> Result<Tables, DataError> {
        let err = |message: String| DataError {
            file: TABLES_FILE,
            message,
        };
        let f: TablesFile = toml::from_str(text).map_err(|e| err(e.to_string().trim_end().to_string()))?;
        for (name, t) in [("corps", &f.fire.corps), ("army", &f.fire.army)] {
            t.check().map_err(|e| err(format!("fire.{name}: {e}")))?;
            if t.die_min != 1 || t.rows.len() != 6 {
                return Err(err(format!("fire.{name}: a row for each face of one die, from 1")));
            }
            // 12.2.8: a loss number is never lowered by a higher roll or a larger strength.
            for (r, row) in t.rows.iter().enumerate() {
                for c in 1..row.len() {
                    if row[c] < row[c - 1] {
                        return Err(err(format!(
                            "fire.{name}: row {} falls from column {c} to {}",
                            r + 1,
                            c + 1
                        )));
                    }
                }
                if r > 0 && row.iter().zip(&t.rows[r - 1]).any(|(a, b)| a < b) {
                    return Err(err(format!("fire.{name}: row {} is below row {r}", r + 1)));
                }
            }
        }
        if f.fire.corps.columns.ranges()[0].low != 0 {
            return Err(err("fire.corps: the Corps table starts at a strength of 0".into()));
        }
        for id in ["clear", "mountain", "swamp", "forest", "desert"] {
            if !f.terrain.iter().any(|t| t.id == id) {
                return Err(err(format!("the Terrain Effects Chart has no `{id}`")));
            }
        }
        for (i, t) in f.terrain.iter().enumerate() {
            if f.terrain[..i].iter().any(|u| u.id == t.id) {
                return Err(err(format!("terrain `{}` is listed twice", t.id)));
            }
        }
        if f.trench.len() != 2 || f.trench.iter().enumerate().any(|(i, t)| t.level as usize != i + 1) {
            return Err(err("trench levels 1 and 2, in order".into()));
        }
        for (side, t) in [("ap", &f.mandated_offensive.ap), ("cp", &f.mandated_offensive.cp)] {
            if t.faces.len() != 6 {
                return Err(err(format!("mandated_offensive.{side}: six faces")));
            }
            if let Some(x) = t.faces.iter().find(|x| !t.boxes.contains(x)) {
                return Err(err(format!("mandated_offensive.{side}: face `{x}` is no box")));
            }
            if t.boxes.last().map(String::as_str) != Some("none") {
                return Err(err(format!("mandated_offensive.{side}: the last box is `none`")));
            }
        }
        for (side, t) in [("ap", &f.peace_terms.ap), ("cp", &f.peace_terms.cp)] {
            if t.rows.is_empty() || t.rows[0].from != 0 || t.rows.iter().any(|r| r.faces.len() != 6) {
                return Err(err(format!("peace_terms.{side}: rows of six faces, the first from 0")));
            }
            if t.rows.windows(2).any(|w| w[1].from <= w[0].from) {
                return Err(err(format!("peace_terms.{side}: rows in rising order")));
            }
        }
        if f.turn.iter().enumerate().any(|(i, t)| t.turn as usize != i + 1) {
            return Err(err("turns numbered from 1, in order".into()));
        }
        for s in &f.scenario {
            if s.last_turn == 0 || s.last_turn as usize > f.turn.len() {
                return Err(err(format!("scenario `{}`: no turn {}", s.id, s.last_turn)));
            }
            for l in std::iter::once(s.levels(false)).chain(s.brest_litovsk) {
                if l.ap_at_most >= l.cp_at_least {
                    return Err(err(format!(
                        "scenario `{}`: the Allied level must lie below the CP's",
                        s.id
                    )));
                }
            }
        }
        Ok(Tables {
            about: f.about,
            fire: f.fire,
            terrain: f.terrain,
            trench: f.trench,
            mandated_offensive: f.mandated_offensive,
            peace_terms: f.peace_terms,
            replacement: f.replacement,
            turns: f.turn,
            victory: f.victory,
            scenarios: f.scenario,
        })
    }

    /// A row of the Terrain Effects Chart by id (`clear` for a space with no terrain).
    pub fn terrain(&self, id: &str) -> Option<&Terrain> {
        self.terrain.iter().find(|t| t.id == id)
    }

    /// The Terrain Effects Chart's row for a space of the map: its terrain, or clear.
    pub fn terrain_of(&self, data: &crate::data::Data, s: sandtable_core::graph::Space) -> &Terrain {
        let bits = data.map.terrain(s);
        let names = data.map.terrain_names();
        let id = (0..names.len())
            .find(|&i| bits & (1 << i) != 0)
            .map_or("clear", |i| names[i].as_str());
        self.terrain(id)
            .or_else(|| self.terrain("clear"))
            .expect("the chart has a clear row (checked on loading)")
    }

    /// A trench level's shifts (levels 1 and 2).
    pub fn trench(&self, level: u8) -> Option<Trench> {
        self.trench.iter().copied().find(|t| t.level == level)
    }

    /// A turn of the Turn Record Track.
    pub fn turn(&self, turn: u8) -> Option<&Turn> {
        self.turns.get((turn as usize).checked_sub(1)?)
    }

    /// A scenario's levels by id.
    pub fn scenario(&self, id: &str) -> Option<&ScenarioLevels> {
        self.scenarios.iter().find(|s| s.id == id)
    }
}

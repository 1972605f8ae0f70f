//! The game's data files, loaded and checked once: the counters (`data/counters.toml`), the
//! rulebook's tables (`data/tables.toml`), the campaign Arrival Schedules
//! (`data/arrivals.toml`) and the six scenarios of 7.0 (`data/scenarios/*.toml`). The files are
//! embedded in the binary; `data/README.md` documents their formats, and `docs/formats.md` the
//! scenario files.
//!
//! Loading refuses bad data with a message naming the file and what is wrong (an unknown unit,
//! a unit listed twice, a hex id that is not `A12.34`, a table of the wrong shape); it never
//! panics. Hex ids are read on the grid of the two map sheets ([`scs_grid`]), which the map
//! file (`data/map.toml`) must share.

pub mod counters;
pub mod scenario;
pub mod tables;

pub use counters::{
    AddOn, Counters, Face, Formation, FormationKind, Movement, Nation, Size, UnitDef, UnitType, Variant,
};
pub use scenario::{
    AirStrikeRule, AirborneGroup, Area, Arrival, Control, Edge, Exit, ExitGoal, Landing, Location, Marker, MarkerKind,
    Placement, Removal, RoadKind, Scenario, Schedule, Span, SupplySource, Victory,
};
pub use tables::{
    BarrageRoll, BarrageStrength, Cost, CrtResult, DieTable, Frac, Mp, SideCost, Tables, Tec, TurnDef, VictoryLevel,
    VictoryResult, VpHex, Weather,
};

use sandtable_core::hex::{GridSpec, Hex, HexGrid, IdFormat, Orientation, RowDirection, Shifted};
use std::fmt;

pub const COUNTERS_TOML: &str = include_str!("../data/counters.toml");
pub const TABLES_TOML: &str = include_str!("../data/tables.toml");
pub const ARRIVALS_TOML: &str = include_str!("../data/arrivals.toml");

/// The scenarios of 7.0, in the book's order: (file name, text). A scenario may take its set-up
/// from one before it (7.2 from 7.1).
pub const SCENARIO_FILES: [(&str, &str); 6] = [
    ("campaign.toml", include_str!("../data/scenarios/campaign.toml")),
    ("breakthrough.toml", include_str!("../data/scenarios/breakthrough.toml")),
    ("peiper.toml", include_str!("../data/scenarios/peiper.toml")),
    ("goose-egg.toml", include_str!("../data/scenarios/goose-egg.toml")),
    ("bastogne.toml", include_str!("../data/scenarios/bastogne.toml")),
    ("spearpoint.toml", include_str!("../data/scenarios/spearpoint.toml")),
];

/// Columns on each map sheet: Map A's east edge (A40) joins Map B's west edge (B1), the rows
/// aligned (SCS series supplement 1.4).
pub const COLS_PER_SHEET: u16 = 40;

/// The hex grid of the two sheets, A west of B: SCS ids `A12.34` (sheet, column, row), flat-topped
/// hexes in columns numbered west to east, rows numbered south to north, even columns half a hex
/// north (Gemünd's bridge joins B22.15 and B23.16), rows 00 to 54 (the book names A29.00 and
/// rows up to 54).
pub fn scs_grid() -> HexGrid {
    HexGrid::new(grid_spec()).expect("the SCS grid spec is valid")
}

/// The [`GridSpec`] of [`scs_grid`], which `data/map.toml` must repeat.
pub fn grid_spec() -> GridSpec {
    GridSpec {
        id_format: IdFormat::Sheets {
            letters: "AB".into(),
            cols_per_sheet: COLS_PER_SHEET,
        },
        orientation: Orientation::Flat,
        shifted: Shifted::Even,
        row_direction: RowDirection::Up,
        cols: [1, 2 * COLS_PER_SHEET],
        rows: [0, 54],
    }
}

/// Bad data: which file, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    pub file: String,
    pub message: String,
}

impl DataError {
    pub fn new(file: &str, message: impl fmt::Display) -> DataError {
        DataError {
            file: file.to_string(),
            message: message.to_string(),
        }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for DataError {}

/// The texts of the data files, for [`Data::from_texts`].
#[derive(Clone, Debug)]
pub struct Texts<'a> {
    pub counters: &'a str,
    pub tables: &'a str,
    pub arrivals: &'a str,
    /// (file name, text), in an order where a scenario's `setup_from` comes before it.
    pub scenarios: Vec<(&'a str, &'a str)>,
}

impl Texts<'static> {
    /// The embedded files.
    pub fn embedded() -> Texts<'static> {
        Texts {
            counters: COUNTERS_TOML,
            tables: TABLES_TOML,
            arrivals: ARRIVALS_TOML,
            scenarios: SCENARIO_FILES.to_vec(),
        }
    }
}

/// Everything the data files hold, checked.
#[derive(Debug)]
pub struct Data {
    /// The grid hex ids are read on.
    pub grid: HexGrid,
    pub counters: Counters,
    pub tables: Tables,
    /// The campaign Arrival Schedules (7.1, 7.2).
    pub schedule: Schedule,
    pub scenarios: Vec<Scenario>,
}

impl Data {
    /// Loads the embedded data files.
    pub fn load() -> Result<Data, DataError> {
        Data::from_texts(&Texts::embedded())
    }

    /// Loads data files from their texts.
    pub fn from_texts(texts: &Texts) -> Result<Data, DataError> {
        let grid = scs_grid();
        let counters = Counters::parse(texts.counters)?;
        let tables = Tables::parse(texts.tables, &grid)?;
        let schedule = Schedule::parse(texts.arrivals, &grid, &counters, &tables)?;
        let mut data = Data {
            grid,
            counters,
            tables,
            schedule,
            scenarios: Vec::new(),
        };
        for (file, text) in &texts.scenarios {
            let s = data.scenario_from_text(file, text)?;
            if data.scenarios.iter().any(|o| o.id == s.id) {
                return Err(DataError::new(file, format!("a second scenario with id `{}`", s.id)));
            }
            data.scenarios.push(s);
        }
        Ok(data)
    }

    /// Reads and checks a scenario file (shipped or a player's) against the loaded data. Its
    /// `setup_from` may name any scenario already loaded.
    pub fn scenario_from_text(&self, file: &str, text: &str) -> Result<Scenario, DataError> {
        Scenario::parse(file, text, self)
    }

    pub fn scenario(&self, id: &str) -> Option<&Scenario> {
        self.scenarios.iter().find(|s| s.id == id)
    }

    /// The unit with this id.
    pub fn unit(&self, id: &str) -> Option<&UnitDef> {
        self.counters.get(id)
    }

    /// The printed id of a hex (`B20.34`).
    pub fn hex_id(&self, h: Hex) -> String {
        self.grid.id(h).0
    }
}

/// Reads a hex id on the grid, or says which file and what was wrong.
pub(crate) fn parse_hex(grid: &HexGrid, file: &str, context: &str, text: &str) -> Result<Hex, DataError> {
    grid.parse(text)
        .map_err(|e| DataError::new(file, format!("{context}: {e}")))
}

/// The sheet letter, the column on the sheet and the row of a hex.
pub fn sheet_col_row(grid: &HexGrid, h: Hex) -> (char, u16, u16) {
    let (c, r) = grid.col_row(h);
    let sheet = (c.max(1) - 1) / COLS_PER_SHEET;
    let letter = if sheet == 0 { 'A' } else { 'B' };
    (letter, c - sheet * COLS_PER_SHEET, r)
}

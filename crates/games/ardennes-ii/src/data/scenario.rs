//! Scenarios (7.0, `data/scenarios/*.toml`) and the campaign Arrival Schedules
//! (`data/arrivals.toml`): where every unit sets up, what arrives when and where, what is
//! removed, the playing area, the supply sources and the victory conditions.

use super::counters::Counters;
use super::tables::{check_levels, Tables, VictoryLevel};
use super::{parse_hex, sheet_col_row, Data, DataError};
use crate::sequence::Side;
use sandtable_core::hex::{Hex, HexGrid};
use sandtable_core::map::About;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

const SCHEDULE_FILE: &str = "arrivals.toml";

/// A map edge, or a direction along one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Edge {
    North,
    South,
    East,
    West,
}

/// Which roads count (1.2): a Road only (大路, "Road, not Track"), or any road (Road or Track).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoadKind {
    Road,
    Any,
}

/// How many air strikes the US gets (2.2): the table's result, or half of it rounded down
/// (7.3-7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AirStrikeRule {
    Full,
    Halved,
}

/// Markers a scenario places (2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MarkerKind {
    BridgeBlown,
    BridgeTested,
    /// 3.5: a Full barrage marker of `side` (as many as `count`).
    BarrageFull,
    /// 3.5: a Half barrage marker of `side` (as many as `count`).
    BarrageHalf,
}

/// A roll an arriving unit makes on landing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Landing {
    /// 4.1: the von der Heydte Success Table.
    VonDerHeydte,
}

/// A span of columns or rows, inclusive, either end open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Span {
    #[serde(default)]
    pub from: Option<u16>,
    #[serde(default)]
    pub to: Option<u16>,
}

impl Span {
    pub fn contains(&self, n: u16) -> bool {
        self.from.is_none_or(|f| n >= f) && self.to.is_none_or(|t| n <= t)
    }
}

/// One rectangle of a playing area: columns and rows of one sheet (7.0: "Map B rows xx.36 and
/// north", "east of 33.xx").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Area {
    pub sheet: char,
    pub cols: Span,
    pub rows: Span,
}

impl Area {
    pub fn contains(&self, grid: &HexGrid, h: Hex) -> bool {
        let (sheet, col, row) = sheet_col_row(grid, h);
        sheet == self.sheet && self.cols.contains(col) && self.rows.contains(row)
    }
}

/// Where a unit sets up or arrives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Location {
    Hex(Hex),
    /// SCS "w/i N": any hex within N hexes of the hex.
    Within {
        hex: Hex,
        within: u8,
    },
    /// One of these hexes, the owner's choice.
    OneOf(Vec<Hex>),
    /// One of these entry areas, the owner's choice (2.2, SCS 5.0).
    Areas(Vec<char>),
    /// Any hex along this edge of the playing area on this sheet (the sheet's own edge where
    /// the area reaches it; 7.5's "south edge of Map A" is the area's row 11, inventory A25).
    Edge {
        sheet: char,
        edge: Edge,
    },
    /// 5.1: within range of a chosen group, in the US Movement Phase ([`Schedule::airborne`]).
    Airborne,
}

impl Location {
    /// The hexes named, for area checks.
    fn hexes(&self) -> Vec<Hex> {
        match self {
            Location::Hex(h) | Location::Within { hex: h, .. } => vec![*h],
            Location::OneOf(v) => v.clone(),
            _ => Vec::new(),
        }
    }
}

/// A unit on the map at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Placement {
    /// Index into [`Counters::units`].
    pub unit: u16,
    pub at: Location,
    pub reduced: bool,
    pub dg: bool,
}

/// Units that arrive together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Arrival {
    pub turn: u8,
    pub side: Side,
    pub at: Location,
    pub units: Vec<u16>,
    /// Roll one die: on this number or more the units arrive, otherwise never.
    pub arrives_on: Option<u8>,
    pub landing: Option<Landing>,
    pub reduced: bool,
    /// Why this entry reads as it does, where the book is silent.
    pub note: Option<String>,
}

/// Units taken out of the game (2.2: whatever their state, even if dead).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Removal {
    pub turn: u8,
    pub side: Side,
    /// The formation named, if the removal is of a formation.
    pub formation: Option<u16>,
    pub units: Vec<u16>,
}

/// A 5.1 airborne group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum AirborneGroup {
    /// Any `count` VP hexes on the sheet.
    VpHexes {
        sheet: char,
        count: u8,
    },
    Hexes(Vec<Hex>),
}

/// 5.1: the 82nd and 101st Airborne Divisions' placement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Airborne {
    /// Each unit within this many hexes of one hex of the division's group.
    pub within: u8,
    pub groups: Vec<AirborneGroup>,
}

/// Where a side may trace supply (3.7, scenario rules).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum SupplySource {
    /// The side's friendly map edges (1.3) within the playing area.
    FriendlyEdges { side: Side },
    /// Roads of `road` kind leaving the playing area across its `edge` (on `sheet` only, if
    /// given); only from edge hex `from` onward in direction `toward`, if given; only from
    /// turn `from_turn`, if given.
    RoadOffEdge {
        side: Side,
        edge: Edge,
        road: RoadKind,
        sheet: Option<char>,
        from: Option<(Hex, Edge)>,
        from_turn: Option<u8>,
    },
    /// These hexes.
    Hexes { side: Side, hexes: Vec<Hex> },
}

impl SupplySource {
    pub fn side(&self) -> Side {
        match self {
            SupplySource::FriendlyEdges { side }
            | SupplySource::RoadOffEdge { side, .. }
            | SupplySource::Hexes { side, .. } => *side,
        }
    }
}

/// Where exiting units leave the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Exit {
    Area(char),
    Edge(Edge),
}

/// German units of a formation that must exit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ExitGoal {
    pub formation: u16,
    pub units: u8,
    /// By the end of this turn.
    pub by_turn: Option<u8>,
}

/// A scenario's victory conditions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Victory {
    /// 6.0: the German's highest end-of-turn VP total on these levels, plus 1 VP for each
    /// formation in `exit_vp` that exits enough units through `exit_via` (7.2, 7.3).
    VpLevels {
        levels: Vec<VictoryLevel>,
        exit_vp: Vec<ExitGoal>,
        exit_via: Vec<Exit>,
    },
    /// The German wins if at the end of the game he controls every one of `hexes` and has
    /// met every exit goal; otherwise the Allies win (7.4, 7.5).
    GermanHolds {
        hexes: Vec<Hex>,
        exit_required: Vec<ExitGoal>,
        exit_via: Vec<Exit>,
    },
    /// The German wins if at the end of the game he controls VP hexes worth `min_vp`; otherwise
    /// the Allies win (7.6).
    GermanVp { min_vp: u32 },
}

/// A scenario-placed marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Marker {
    pub kind: MarkerKind,
    pub hex: Hex,
    /// The side that fired a barrage marker.
    pub side: Option<Side>,
    /// How many barrage markers (1 for a bridge marker).
    pub count: u8,
}

/// A VP hex controlled at the start by a side other than the default (the Allies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Control {
    pub hex: Hex,
    pub side: Side,
}

/// A scenario, checked and resolved: its set-up complete (a `setup_from` applied) and its
/// arrivals complete (the Arrival Schedules merged in when it uses them).
#[derive(Clone, Debug)]
pub struct Scenario {
    pub id: String,
    /// The book's number, `7.1`.
    pub rule: String,
    pub name_en: String,
    pub name_zh: String,
    pub about: About,
    pub first_turn: u8,
    pub last_turn: u8,
    /// The phase of the first turn the game begins with (after any set-up placements): the
    /// pre-turn's first unless the file names another; the phases before it are not played.
    pub first_phase: Option<crate::sequence::Phase>,
    /// The US air strikes left on the first turn, for a game beginning after the pre-turn's
    /// air-strike roll (2.2).
    pub strikes_left: u8,
    /// 2.2: the Freeze has come already.
    pub frozen: bool,
    pub air_strikes: AirStrikeRule,
    /// The Arrival Schedules apply (7.1, 7.2).
    pub uses_schedule: bool,
    /// The playing area: a union of rectangles; empty means both maps whole.
    pub area: Vec<Area>,
    pub supply: Vec<SupplySource>,
    pub victory: Victory,
    pub control: Vec<Control>,
    pub markers: Vec<Marker>,
    pub setup: Vec<Placement>,
    /// By turn.
    pub arrivals: Vec<Arrival>,
    /// By turn.
    pub removals: Vec<Removal>,
}

impl Scenario {
    /// Whether a hex is in the playing area.
    pub fn in_area(&self, grid: &HexGrid, h: Hex) -> bool {
        self.area.is_empty() || self.area.iter().any(|a| a.contains(grid, h))
    }

    /// The side controlling a VP hex at the start (the Allies unless listed, inventory A22).
    pub fn initial_control(&self, h: Hex) -> Side {
        self.control
            .iter()
            .find(|c| c.hex == h)
            .map(|c| c.side)
            .unwrap_or(Side::Allied)
    }

    /// The German units' set-up and the Allied units' set-up, counted.
    pub fn setup_count(&self, counters: &Counters, side: Side) -> usize {
        self.setup
            .iter()
            .filter(|p| counters.units[p.unit as usize].side == side)
            .count()
    }
}

// ------------------------------------------------------------------------------------ files

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArrivalRow {
    turn: u8,
    side: Side,
    #[serde(default)]
    areas: Vec<String>,
    #[serde(default)]
    hex: Option<String>,
    #[serde(default)]
    within: Option<u8>,
    #[serde(default)]
    hexes: Vec<String>,
    #[serde(default)]
    edge: Option<Edge>,
    #[serde(default)]
    sheet: Option<String>,
    #[serde(default)]
    placement: Option<String>,
    units: Vec<String>,
    #[serde(default)]
    arrives_on: Option<u8>,
    #[serde(default)]
    landing: Option<Landing>,
    #[serde(default)]
    reduced: bool,
    #[serde(default)]
    note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RemovalRow {
    turn: u8,
    side: Side,
    #[serde(default)]
    units: Vec<String>,
    #[serde(default)]
    formation: Option<String>,
    #[serde(default)]
    except: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryAreasRow {
    german: Vec<String>,
    allied: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupRow {
    #[serde(default)]
    vp_hexes_on: Option<String>,
    #[serde(default)]
    count: Option<u8>,
    #[serde(default)]
    hexes: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AirborneRow {
    within: u8,
    groups: Vec<GroupRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArrivalsFile {
    about: About,
    entry_areas: EntryAreasRow,
    airborne: AirborneRow,
    #[serde(default)]
    arrival: Vec<ArrivalRow>,
    #[serde(default)]
    removal: Vec<RemovalRow>,
}

/// The campaign Arrival Schedules (7.1, 7.2), and what every arrival list shares: the entry
/// areas and the 5.1 airborne groups.
#[derive(Clone, Debug)]
pub struct Schedule {
    pub about: About,
    /// Entry area letters of each side (printed on the map).
    pub german_areas: Vec<char>,
    pub allied_areas: Vec<char>,
    pub airborne: Airborne,
    pub arrivals: Vec<Arrival>,
    pub removals: Vec<Removal>,
}

/// What reading arrivals and set-ups needs.
struct Ctx<'a> {
    file: &'a str,
    grid: &'a HexGrid,
    counters: &'a Counters,
    german_areas: &'a [char],
    allied_areas: &'a [char],
    last_turn: u8,
}

fn sheet_letter(file: &str, context: &str, s: &str) -> Result<char, DataError> {
    match s.trim() {
        "A" | "a" => Ok('A'),
        "B" | "b" => Ok('B'),
        _ => Err(DataError::new(
            file,
            format!("{context}: `{s}` is not a map sheet (A or B)"),
        )),
    }
}

fn area_letter(s: &str) -> Option<char> {
    let mut c = s.trim().chars();
    let l = c.next()?;
    (c.next().is_none() && l.is_ascii_uppercase()).then_some(l)
}

impl Ctx<'_> {
    fn err(&self, m: impl std::fmt::Display) -> DataError {
        DataError::new(self.file, m)
    }

    fn hex(&self, context: &str, s: &str) -> Result<Hex, DataError> {
        parse_hex(self.grid, self.file, context, s)
    }

    fn unit(&self, context: &str, id: &str) -> Result<u16, DataError> {
        self.counters
            .index(id)
            .ok_or_else(|| self.err(format!("{context}: no unit `{id}` in counters.toml")))
    }

    fn units_of_side(&self, context: &str, ids: &[String], side: Side) -> Result<Vec<u16>, DataError> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let u = self.unit(context, id)?;
            if self.counters.units[u as usize].side != side {
                return Err(self.err(format!("{context}: `{id}` is not a unit of this side")));
            }
            if out.contains(&u) {
                return Err(self.err(format!("{context}: `{id}` is listed twice")));
            }
            out.push(u);
        }
        Ok(out)
    }

    fn turn(&self, context: &str, turn: u8) -> Result<(), DataError> {
        if !(1..=self.last_turn).contains(&turn) {
            return Err(self.err(format!(
                "{context}: turn {turn} is not on the turn track (1-{})",
                self.last_turn
            )));
        }
        Ok(())
    }

    fn arrival(&self, r: &ArrivalRow) -> Result<Arrival, DataError> {
        let ctx = format!(
            "arrival on turn {} ({})",
            r.turn,
            r.units.first().map(|s| s.as_str()).unwrap_or("no units")
        );
        self.turn(&ctx, r.turn)?;
        if r.units.is_empty() {
            return Err(self.err(format!("{ctx}: no units")));
        }
        let units = self.units_of_side(&ctx, &r.units, r.side)?;
        let kinds = [
            !r.areas.is_empty(),
            r.hex.is_some(),
            !r.hexes.is_empty(),
            r.edge.is_some(),
            r.placement.is_some(),
        ];
        if kinds.iter().filter(|k| **k).count() != 1 {
            return Err(self.err(format!(
                "{ctx}: give exactly one of `areas`, `hex`, `hexes`, `edge` or `placement`"
            )));
        }
        if r.within.is_some() && r.hex.is_none() {
            return Err(self.err(format!("{ctx}: `within` goes with `hex`")));
        }
        if r.sheet.is_some() && r.edge.is_none() {
            return Err(self.err(format!("{ctx}: `sheet` goes with `edge`")));
        }
        let at = if !r.areas.is_empty() {
            let allowed = match r.side {
                Side::German => self.german_areas,
                Side::Allied => self.allied_areas,
            };
            let mut v = Vec::new();
            for a in &r.areas {
                let l = area_letter(a)
                    .filter(|l| allowed.contains(l))
                    .ok_or_else(|| self.err(format!("{ctx}: `{a}` is not an entry area of this side")))?;
                v.push(l);
            }
            Location::Areas(v)
        } else if let Some(h) = &r.hex {
            let hex = self.hex(&ctx, h)?;
            match r.within {
                Some(0) | None => Location::Hex(hex),
                Some(w) => Location::Within { hex, within: w },
            }
        } else if !r.hexes.is_empty() {
            Location::OneOf(r.hexes.iter().map(|h| self.hex(&ctx, h)).collect::<Result<_, _>>()?)
        } else if let Some(edge) = r.edge {
            let sheet = r
                .sheet
                .as_deref()
                .ok_or_else(|| self.err(format!("{ctx}: an `edge` needs its `sheet`")))?;
            Location::Edge {
                sheet: sheet_letter(self.file, &ctx, sheet)?,
                edge,
            }
        } else {
            match r.placement.as_deref() {
                Some("airborne") => Location::Airborne,
                other => {
                    return Err(self.err(format!(
                        "{ctx}: placement `{}` is unknown (the only one is `airborne`, 5.1)",
                        other.unwrap_or("")
                    )))
                }
            }
        };
        if let Some(n) = r.arrives_on {
            if !(2..=6).contains(&n) {
                return Err(self.err(format!("{ctx}: arrives_on is a die roll from 2 to 6")));
            }
        }
        if r.reduced {
            for &u in &units {
                let def = &self.counters.units[u as usize];
                if def.reduced.is_none() {
                    return Err(self.err(format!("{ctx}: `{}` has no reduced side", def.id)));
                }
            }
        }
        Ok(Arrival {
            turn: r.turn,
            side: r.side,
            at,
            units,
            arrives_on: r.arrives_on,
            landing: r.landing,
            reduced: r.reduced,
            note: r.note.clone(),
        })
    }

    fn removal(&self, r: &RemovalRow) -> Result<Removal, DataError> {
        let ctx = format!("removal on turn {}", r.turn);
        self.turn(&ctx, r.turn)?;
        let (formation, units) = match &r.formation {
            Some(f) => {
                if !r.units.is_empty() {
                    return Err(self.err(format!("{ctx}: give `formation` (with `except`) or `units`, not both")));
                }
                let fi = self
                    .counters
                    .formation_index(f)
                    .ok_or_else(|| self.err(format!("{ctx}: no formation `{f}`")))?;
                if self.counters.formations[fi as usize].side != r.side {
                    return Err(self.err(format!("{ctx}: `{f}` is not a formation of this side")));
                }
                let except = self.units_of_side(&ctx, &r.except, r.side)?;
                for &u in &except {
                    if self.counters.units[u as usize].formation != Some(fi) {
                        return Err(self.err(format!(
                            "{ctx}: `{}` is not a unit of `{f}`",
                            self.counters.units[u as usize].id
                        )));
                    }
                }
                let units: Vec<u16> = self
                    .counters
                    .formation_units(fi)
                    .filter(|u| !except.contains(u))
                    .collect();
                (Some(fi), units)
            }
            None => {
                if !r.except.is_empty() {
                    return Err(self.err(format!("{ctx}: `except` goes with `formation`")));
                }
                if r.units.is_empty() {
                    return Err(self.err(format!("{ctx}: no units")));
                }
                (None, self.units_of_side(&ctx, &r.units, r.side)?)
            }
        };
        Ok(Removal {
            turn: r.turn,
            side: r.side,
            formation,
            units,
        })
    }
}

fn by_turn_arrivals(v: &mut [Arrival]) {
    v.sort_by_key(|a| a.turn);
}

/// Checks that no unit arrives twice.
fn check_once(file: &str, arrivals: &[Arrival], counters: &Counters) -> Result<(), DataError> {
    let mut seen = HashSet::new();
    for a in arrivals {
        for &u in &a.units {
            if !seen.insert(u) {
                return Err(DataError::new(
                    file,
                    format!("`{}` arrives twice", counters.units[u as usize].id),
                ));
            }
        }
    }
    Ok(())
}

impl Schedule {
    pub fn parse(text: &str, grid: &HexGrid, counters: &Counters, tables: &Tables) -> Result<Schedule, DataError> {
        let f: ArrivalsFile = toml::from_str(text).map_err(|e| DataError::new(SCHEDULE_FILE, e))?;
        let err = |m: String| DataError::new(SCHEDULE_FILE, m);
        let letters = |v: &[String], side: &str| -> Result<Vec<char>, DataError> {
            let mut out = Vec::new();
            for a in v {
                let l =
                    area_letter(a).ok_or_else(|| err(format!("entry_areas.{side}: `{a}` is not a capital letter")))?;
                if out.contains(&l) {
                    return Err(err(format!("entry_areas.{side}: `{a}` twice")));
                }
                out.push(l);
            }
            Ok(out)
        };
        let german_areas = letters(&f.entry_areas.german, "german")?;
        let allied_areas = letters(&f.entry_areas.allied, "allied")?;
        if let Some(l) = german_areas.iter().find(|l| allied_areas.contains(l)) {
            return Err(err(format!("entry area {l} belongs to both sides")));
        }
        let mut groups = Vec::new();
        for g in &f.airborne.groups {
            match (&g.vp_hexes_on, g.count, g.hexes.is_empty()) {
                (Some(s), Some(n), true) if n > 0 => groups.push(AirborneGroup::VpHexes {
                    sheet: sheet_letter(SCHEDULE_FILE, "airborne group", s)?,
                    count: n,
                }),
                (None, None, false) => groups.push(AirborneGroup::Hexes(
                    g.hexes
                        .iter()
                        .map(|h| parse_hex(grid, SCHEDULE_FILE, "airborne group", h))
                        .collect::<Result<_, _>>()?,
                )),
                _ => return Err(err("an airborne group is `vp_hexes_on` with `count`, or `hexes`".into())),
            }
        }
        if groups.is_empty() || f.airborne.within == 0 {
            return Err(err("airborne: 5.1 needs its groups and a distance".into()));
        }
        let ctx = Ctx {
            file: SCHEDULE_FILE,
            grid,
            counters,
            german_areas: &german_areas,
            allied_areas: &allied_areas,
            last_turn: tables.turns.len() as u8,
        };
        let mut arrivals = f
            .arrival
            .iter()
            .map(|r| ctx.arrival(r))
            .collect::<Result<Vec<_>, _>>()?;
        by_turn_arrivals(&mut arrivals);
        check_once(SCHEDULE_FILE, &arrivals, counters)?;
        let mut removals = f
            .removal
            .iter()
            .map(|r| ctx.removal(r))
            .collect::<Result<Vec<_>, _>>()?;
        removals.sort_by_key(|r| r.turn);
        Ok(Schedule {
            about: f.about,
            german_areas,
            allied_areas,
            airborne: Airborne {
                within: f.airborne.within,
                groups,
            },
            arrivals,
            removals,
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    id: String,
    rule: String,
    name_en: String,
    name_zh: String,
    first_turn: u8,
    last_turn: u8,
    #[serde(default)]
    first_phase: Option<String>,
    #[serde(default)]
    strikes_left: Option<u8>,
    #[serde(default)]
    frozen: bool,
    air_strikes: AirStrikeRule,
    schedule: bool,
    #[serde(default)]
    setup_from: Option<String>,
    #[serde(default)]
    setup_except: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AreaRow {
    sheet: String,
    #[serde(default)]
    cols: Span,
    #[serde(default)]
    rows: Span,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SupplyRow {
    side: Side,
    source: String,
    #[serde(default)]
    edge: Option<Edge>,
    #[serde(default)]
    road: Option<RoadKind>,
    #[serde(default)]
    sheet: Option<String>,
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    toward: Option<Edge>,
    #[serde(default)]
    from_turn: Option<u8>,
    #[serde(default)]
    hexes: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExitRow {
    formation: String,
    units: u8,
    #[serde(default)]
    by_turn: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VictoryRow {
    kind: String,
    #[serde(default)]
    levels: Option<Vec<VictoryLevel>>,
    #[serde(default)]
    exit_via: Vec<String>,
    #[serde(default)]
    exit_vp: Vec<ExitRow>,
    #[serde(default)]
    exit_required: Vec<ExitRow>,
    #[serde(default)]
    hexes: Vec<String>,
    #[serde(default)]
    min_vp: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ControlRow {
    hex: String,
    side: Side,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkerRow {
    kind: MarkerKind,
    hex: String,
    #[serde(default)]
    side: Option<Side>,
    #[serde(default)]
    count: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitRow {
    id: String,
    hex: String,
    #[serde(default)]
    within: Option<u8>,
    #[serde(default)]
    reduced: bool,
    #[serde(default)]
    dg: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    about: About,
    scenario: Header,
    #[serde(default)]
    area: Vec<AreaRow>,
    supply: Vec<SupplyRow>,
    victory: VictoryRow,
    #[serde(default)]
    control: Vec<ControlRow>,
    #[serde(default)]
    marker: Vec<MarkerRow>,
    #[serde(default)]
    unit: Vec<UnitRow>,
    #[serde(default)]
    arrival: Vec<ArrivalRow>,
    #[serde(default)]
    removal: Vec<RemovalRow>,
}

impl Scenario {
    /// Reads and checks a scenario file against loaded data.
    pub fn parse(file: &str, text: &str, data: &Data) -> Result<Scenario, DataError> {
        let f: ScenarioFile = toml::from_str(text).map_err(|e| DataError::new(file, e))?;
        let err = |m: String| DataError::new(file, m);
        let grid = &data.grid;
        let counters = &data.counters;
        let h = &f.scenario;
        let last_turn = data.tables.turns.len() as u8;
        if !(1..=h.last_turn).contains(&h.first_turn) || h.last_turn > last_turn {
            return Err(err(format!(
                "turns {} to {}: a scenario runs forward within the turn track (1-{last_turn})",
                h.first_turn, h.last_turn
            )));
        }
        let ctx = Ctx {
            file,
            grid,
            counters,
            german_areas: &data.schedule.german_areas,
            allied_areas: &data.schedule.allied_areas,
            last_turn,
        };

        // The playing area.
        let mut area = Vec::new();
        for a in &f.area {
            let sheet = sheet_letter(file, "area", &a.sheet)?;
            for (what, s) in [("cols", a.cols), ("rows", a.rows)] {
                if let (Some(x), Some(y)) = (s.from, s.to) {
                    if x > y {
                        return Err(err(format!("area {sheet}: {what} from {x} to {y}")));
                    }
                }
            }
            area.push(Area {
                sheet,
                cols: a.cols,
                rows: a.rows,
            });
        }
        let in_area = |hx: Hex| area.is_empty() || area.iter().any(|a| a.contains(grid, hx));
        let outside = |hx: Hex, what: &str| err(format!("{what}: {} is outside the playing area", grid.id(hx)));

        // Supply sources.
        let mut supply = Vec::new();
        for s in &f.supply {
            let ctx_s = format!("supply `{}`", s.source);
            let extra = |allowed: &[&str]| -> Result<(), DataError> {
                let present = [
                    ("edge", s.edge.is_some()),
                    ("road", s.road.is_some()),
                    ("sheet", s.sheet.is_some()),
                    ("from", s.from.is_some()),
                    ("toward", s.toward.is_some()),
                    ("from_turn", s.from_turn.is_some()),
                    ("hexes", !s.hexes.is_empty()),
                ];
                for (k, p) in present {
                    if p && !allowed.contains(&k) {
                        return Err(err(format!("{ctx_s}: `{k}` does not go with this source")));
                    }
                }
                Ok(())
            };
            supply.push(match s.source.as_str() {
                "friendly-edges" => {
                    extra(&[])?;
                    SupplySource::FriendlyEdges { side: s.side }
                }
                "road-off-edge" => {
                    extra(&["edge", "road", "sheet", "from", "toward", "from_turn"])?;
                    let edge = s.edge.ok_or_else(|| err(format!("{ctx_s}: needs `edge`")))?;
                    let road = s
                        .road
                        .ok_or_else(|| err(format!("{ctx_s}: needs `road` (road or any)")))?;
                    let from = match (&s.from, s.toward) {
                        (Some(hx), Some(t)) => Some((ctx.hex(&ctx_s, hx)?, t)),
                        (None, None) => None,
                        _ => return Err(err(format!("{ctx_s}: `from` and `toward` go together"))),
                    };
                    SupplySource::RoadOffEdge {
                        side: s.side,
                        edge,
                        road,
                        sheet: s.sheet.as_deref().map(|x| sheet_letter(file, &ctx_s, x)).transpose()?,
                        from,
                        from_turn: s.from_turn,
                    }
                }
                "hexes" => {
                    extra(&["hexes"])?;
                    if s.hexes.is_empty() {
                        return Err(err(format!("{ctx_s}: no hexes")));
                    }
                    SupplySource::Hexes {
                        side: s.side,
                        hexes: s.hexes.iter().map(|x| ctx.hex(&ctx_s, x)).collect::<Result<_, _>>()?,
                    }
                }
                other => {
                    return Err(err(format!(
                        "supply source `{other}` is unknown (friendly-edges, road-off-edge, hexes)"
                    )))
                }
            });
        }
        for side in [Side::German, Side::Allied] {
            if !supply.iter().any(|s| s.side() == side) {
                return Err(err(format!("no supply source for the {side:?} side")));
            }
        }

        // Victory.
        let v = &f.victory;
        let exits = |rows: &[ExitRow]| -> Result<Vec<ExitGoal>, DataError> {
            rows.iter()
                .map(|r| {
                    let fi = counters
                        .formation_index(&r.formation)
                        .ok_or_else(|| err(format!("victory: no formation `{}`", r.formation)))?;
                    if counters.formations[fi as usize].side != Side::German {
                        return Err(err(format!("victory: `{}` is not German", r.formation)));
                    }
                    if r.units == 0 {
                        return Err(err(format!("victory: `{}` must exit at least one unit", r.formation)));
                    }
                    Ok(ExitGoal {
                        formation: fi,
                        units: r.units,
                        by_turn: r.by_turn,
                    })
                })
                .collect()
        };
        let exit_via = v
            .exit_via
            .iter()
            .map(|e| {
                let bad = || {
                    err(format!(
                        "victory: exit `{e}` is not `area:X` or `edge:west` (north, south, east)"
                    ))
                };
                match e.split_once(':') {
                    Some(("area", l)) => area_letter(l).map(Exit::Area).ok_or_else(bad),
                    Some(("edge", d)) => match d {
                        "north" => Ok(Exit::Edge(Edge::North)),
                        "south" => Ok(Exit::Edge(Edge::South)),
                        "east" => Ok(Exit::Edge(Edge::East)),
                        "west" => Ok(Exit::Edge(Edge::West)),
                        _ => Err(bad()),
                    },
                    _ => Err(bad()),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let vp_hexes = |hexes: &[String]| -> Result<Vec<Hex>, DataError> {
            hexes
                .iter()
                .map(|x| {
                    let hx = ctx.hex("victory", x)?;
                    if data.tables.vp_hex(hx).is_none() {
                        return Err(err(format!("victory: {x} is not a VP hex")));
                    }
                    Ok(hx)
                })
                .collect()
        };
        let only = |allowed: &[&str]| -> Result<(), DataError> {
            let present = [
                ("levels", v.levels.is_some()),
                ("exit_via", !v.exit_via.is_empty()),
                ("exit_vp", !v.exit_vp.is_empty()),
                ("exit_required", !v.exit_required.is_empty()),
                ("hexes", !v.hexes.is_empty()),
                ("min_vp", v.min_vp.is_some()),
            ];
            for (k, p) in present {
                if p && !allowed.contains(&k) {
                    return Err(err(format!("victory `{}`: `{k}` does not go with it", v.kind)));
                }
            }
            Ok(())
        };
        let victory = match v.kind.as_str() {
            "vp-levels" => {
                only(&["levels", "exit_via", "exit_vp"])?;
                let levels = match &v.levels {
                    Some(l) => {
                        check_levels(l, "victory.levels").map_err(err)?;
                        l.clone()
                    }
                    None => data.tables.victory_levels.clone(),
                };
                Victory::VpLevels {
                    levels,
                    exit_vp: exits(&v.exit_vp)?,
                    exit_via: exit_via.clone(),
                }
            }
            "german-holds" => {
                only(&["hexes", "exit_via", "exit_required"])?;
                if v.hexes.is_empty() {
                    return Err(err("victory `german-holds`: no hexes".into()));
                }
                Victory::GermanHolds {
                    hexes: vp_hexes(&v.hexes)?,
                    exit_required: exits(&v.exit_required)?,
                    exit_via: exit_via.clone(),
                }
            }
            "german-vp" => {
                only(&["min_vp"])?;
                Victory::GermanVp {
                    min_vp: v
                        .min_vp
                        .ok_or_else(|| err("victory `german-vp`: needs `min_vp`".into()))?,
                }
            }
            other => {
                return Err(err(format!(
                    "victory kind `{other}` is unknown (vp-levels, german-holds, german-vp)"
                )))
            }
        };
        let has_goals = match &victory {
            Victory::VpLevels { exit_vp, .. } => !exit_vp.is_empty(),
            Victory::GermanHolds { exit_required, .. } => !exit_required.is_empty(),
            Victory::GermanVp { .. } => false,
        };
        if has_goals && exit_via.is_empty() {
            return Err(err("victory: exit goals need `exit_via`".into()));
        }

        // Control and markers.
        let mut control = Vec::new();
        for c in &f.control {
            let hx = ctx.hex("control", &c.hex)?;
            if data.tables.vp_hex(hx).is_none() {
                return Err(err(format!("control: {} is not a VP hex", c.hex)));
            }
            if control.iter().any(|o: &Control| o.hex == hx) {
                return Err(err(format!("control: {} twice", c.hex)));
            }
            control.push(Control { hex: hx, side: c.side });
        }
        let mut markers = Vec::new();
        for m in &f.marker {
            let hex = ctx.hex("marker", &m.hex)?;
            let barrage = matches!(m.kind, MarkerKind::BarrageFull | MarkerKind::BarrageHalf);
            match (barrage, m.side, m.count) {
                (true, None, _) => {
                    return Err(err(format!(
                        "marker at {}: a barrage marker needs the `side` that fired it (german | allied)",
                        m.hex
                    )))
                }
                (true, _, Some(0)) => return Err(err(format!("marker at {}: `count` is 1 or more", m.hex))),
                (false, Some(_), _) | (false, _, Some(_)) => {
                    return Err(err(format!(
                        "marker at {}: `side` and `count` belong to barrage markers only",
                        m.hex
                    )))
                }
                _ => {}
            }
            if barrage && !in_area(hex) {
                return Err(outside(hex, "marker"));
            }
            if barrage
                && markers
                    .iter()
                    .any(|o: &Marker| o.hex == hex && o.kind == m.kind && o.side == m.side)
            {
                return Err(err(format!("marker at {}: listed twice (use `count`)", m.hex)));
            }
            markers.push(Marker {
                kind: m.kind,
                hex,
                side: m.side,
                count: m.count.unwrap_or(1),
            });
        }

        // The first phase, and the state of the pre-turn it may skip.
        let first_phase = match &h.first_phase {
            None => None,
            Some(id) => {
                let phase = crate::sequence::Phase::from_id(id).ok_or_else(|| {
                    err(format!(
                        "first_phase `{id}` is unknown (weather, air-strikes, air-supply, reinforcements, marker-removal, german-barrage-removal, german-movement, us-barrage, german-combat, german-exploitation, german-supply, us-barrage-removal, us-movement, us-combat, us-exploitation, us-supply)"
                    ))
                })?;
                if !crate::sequence::Phase::of_turn(h.first_turn).contains(&phase) {
                    return Err(err(format!(
                        "first_phase `{id}`: turn {} has no such phase (4.3: no German exploitation on turn 1)",
                        h.first_turn
                    )));
                }
                Some(phase)
            }
        };
        if let Some(n) = h.strikes_left {
            let after_roll = first_phase.is_some_and(|p| {
                let order = crate::sequence::Phase::of_turn(h.first_turn);
                let at = |q| order.iter().position(|&o| o == q);
                at(p) > at(crate::sequence::Phase::AirStrikes)
            });
            if !after_roll {
                return Err(err(format!(
                    "strikes_left = {n}: the air strikes are rolled in the pre-turn (2.2); only a scenario whose first_phase comes after the air-strike roll may set them"
                )));
            }
        }

        // The set-up.
        let mut setup: Vec<Placement> = Vec::new();
        match &h.setup_from {
            Some(base) => {
                let b = data
                    .scenario(base)
                    .ok_or_else(|| err(format!("setup_from: no scenario `{base}` loaded before this one")))?;
                let mut except = Vec::new();
                for id in &h.setup_except {
                    let u = ctx.unit("setup_except", id)?;
                    if !b.setup.iter().any(|p| p.unit == u) {
                        return Err(err(format!("setup_except: `{id}` is not in the set-up of `{base}`")));
                    }
                    except.push(u);
                }
                setup.extend(b.setup.iter().filter(|p| !except.contains(&p.unit)).cloned());
            }
            None => {
                if !h.setup_except.is_empty() {
                    return Err(err("setup_except goes with setup_from".into()));
                }
            }
        }
        for r in &f.unit {
            let u = ctx.unit("set-up", &r.id)?;
            let hx = ctx.hex(&format!("set-up of {}", r.id), &r.hex)?;
            if r.reduced && counters.units[u as usize].reduced.is_none() {
                return Err(err(format!("set-up: `{}` has no reduced side (1 step)", r.id)));
            }
            setup.push(Placement {
                unit: u,
                at: match r.within {
                    Some(0) | None => Location::Hex(hx),
                    Some(w) => Location::Within { hex: hx, within: w },
                },
                reduced: r.reduced,
                dg: r.dg,
            });
        }
        let mut placed: HashMap<u16, usize> = HashMap::new();
        let mut hex_side: HashMap<Hex, Side> = HashMap::new();
        for (i, p) in setup.iter().enumerate() {
            let def = &counters.units[p.unit as usize];
            if placed.insert(p.unit, i).is_some() {
                return Err(err(format!("set-up: `{}` is placed twice", def.id)));
            }
            for hx in p.at.hexes() {
                if !in_area(hx) {
                    return Err(outside(hx, &format!("set-up of {}", def.id)));
                }
            }
            if let Location::Hex(hx) = p.at {
                if let Some(s) = hex_side.insert(hx, def.side) {
                    if s != def.side {
                        return Err(err(format!("set-up: both sides in {}", grid.id(hx))));
                    }
                }
            }
        }

        // Arrivals and removals.
        let own = f
            .arrival
            .iter()
            .map(|r| ctx.arrival(r))
            .collect::<Result<Vec<_>, _>>()?;
        check_once(file, &own, counters)?;
        for a in &own {
            if a.turn < h.first_turn || a.turn > h.last_turn {
                return Err(err(format!(
                    "an arrival on turn {}, outside turns {}-{}",
                    a.turn, h.first_turn, h.last_turn
                )));
            }
            for hx in a.at.hexes() {
                if !in_area(hx) {
                    return Err(outside(hx, &format!("arrival on turn {}", a.turn)));
                }
            }
            if let Location::Edge { sheet, .. } = a.at {
                if !area.is_empty() && !area.iter().any(|x| x.sheet == sheet) {
                    return Err(err(format!(
                        "an arrival on an edge of Map {sheet}, outside the playing area"
                    )));
                }
            }
        }
        let mut arrivals = Vec::new();
        if h.schedule {
            let mine: HashSet<u16> = own.iter().flat_map(|a| a.units.iter().copied()).collect();
            for a in &data.schedule.arrivals {
                let mut a = a.clone();
                a.units.retain(|u| !mine.contains(u));
                if !a.units.is_empty() {
                    arrivals.push(a);
                }
            }
        }
        arrivals.extend(own);
        by_turn_arrivals(&mut arrivals);
        for a in &arrivals {
            for u in &a.units {
                if placed.contains_key(u) {
                    return Err(err(format!(
                        "`{}` is in the set-up and arrives on turn {}",
                        counters.units[*u as usize].id, a.turn
                    )));
                }
            }
        }
        let mut removals = Vec::new();
        if h.schedule {
            removals.extend(data.schedule.removals.iter().cloned());
        }
        for r in &f.removal {
            let r = ctx.removal(r)?;
            if r.turn < h.first_turn || r.turn > h.last_turn {
                return Err(err(format!(
                    "a removal on turn {}, outside turns {}-{}",
                    r.turn, h.first_turn, h.last_turn
                )));
            }
            removals.push(r);
        }
        removals.sort_by_key(|r| r.turn);

        Ok(Scenario {
            id: h.id.clone(),
            rule: h.rule.clone(),
            name_en: h.name_en.clone(),
            name_zh: h.name_zh.clone(),
            about: f.about,
            first_turn: h.first_turn,
            last_turn: h.last_turn,
            first_phase,
            strikes_left: h.strikes_left.unwrap_or(0),
            frozen: h.frozen,
            air_strikes: h.air_strikes,
            uses_schedule: h.schedule,
            area,
            supply,
            victory,
            control,
            markers,
            setup,
            arrivals,
            removals,
        })
    }
}

//! The rulebook's tables (`data/tables.toml`): the CRT (3.2), the Terrain Effects Chart (1.3,
//! 3.5), barrage markers and Half Reconciliation (3.5), DG (3.4), Artillery Resupply (3.7),
//! Weather and US Air Strikes (2.2), Bridge Demolition (3.8), von der Heydte (4.1), the Turn
//! Record Track and victory (6.0).
//!
//! The TEC is kept by terrain name, as the chart prints its rows; [`Tec::entry_cost`],
//! [`Tec::combat_shift`] and [`Tec::barrage_roll`] read it the way 1.3 says a hex of several
//! terrains is read.

use super::{parse_hex, DataError};
use crate::data::counters::Movement;
use crate::sequence::Side;
use sandtable_core::combat::{CombatTable, OddsColumns};
use sandtable_core::hex::{Hex, HexGrid};
use sandtable_core::map::About;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

const FILE: &str = "tables.toml";

fn err(m: impl fmt::Display) -> DataError {
    DataError::new(FILE, m)
}

// ------------------------------------------------------------------------------------ CRT

/// One cell of the Combat Results Table (3.2): `A#` the attacker loses # steps, `D#` the
/// defender loses # steps, `r#` the defender retreats # hexes (inventory A32); `-` nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrtResult {
    pub attacker_steps: u8,
    pub defender_steps: u8,
    pub retreat: u8,
}

impl CrtResult {
    /// Reads `A2`, `A1D1`, `D1`, `D2r3`, `-`.
    pub fn parse(s: &str) -> Option<CrtResult> {
        let s = s.trim();
        if s == "-" || s == "–" {
            return Some(CrtResult::default());
        }
        let mut r = CrtResult::default();
        let mut rest = s;
        let mut last = 0u8;
        let mut seen = false;
        while !rest.is_empty() {
            let tag = rest.chars().next()?;
            let order = match tag {
                'A' => 1,
                'D' => 2,
                'r' => 3,
                _ => return None,
            };
            if order <= last {
                return None;
            }
            last = order;
            let digits: String = rest[1..].chars().take_while(|c| c.is_ascii_digit()).collect();
            if digits.is_empty() {
                return None;
            }
            let n: u8 = digits.parse().ok()?;
            match tag {
                'A' => r.attacker_steps = n,
                'D' => r.defender_steps = n,
                _ => r.retreat = n,
            }
            rest = &rest[1 + digits.len()..];
            seen = true;
        }
        // A retreat comes with a defender loss on this table; a bare `r#` is not a result.
        (seen && !(r.retreat > 0 && r.defender_steps == 0)).then_some(r)
    }

    /// The cell as printed.
    pub fn label(&self) -> String {
        let mut s = String::new();
        if self.attacker_steps > 0 {
            s += &format!("A{}", self.attacker_steps);
        }
        if self.defender_steps > 0 {
            s += &format!("D{}", self.defender_steps);
        }
        if self.retreat > 0 {
            s += &format!("r{}", self.retreat);
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CrtRow {
    dice: String,
    results: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CrtFile {
    columns: Vec<String>,
    rows: Vec<CrtRow>,
}

/// Reads `"4"`, `"2-3"` or `"3+"` (up to `top`) as an inclusive range within 1..=`top`.
fn range(s: &str, top: u8) -> Option<(u8, u8)> {
    let s = s.trim();
    let (lo, hi): (u8, u8) = if let Some(lo) = s.strip_suffix('+') {
        (lo.trim().parse().ok()?, top)
    } else {
        match s.split_once('-') {
            Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
            None => {
                let n = s.parse().ok()?;
                (n, n)
            }
        }
    };
    (1 <= lo && lo <= hi && hi <= top).then_some((lo, hi))
}

fn parse_crt(f: &CrtFile) -> Result<CombatTable<CrtResult>, DataError> {
    let labels: Vec<&str> = f.columns.iter().map(|s| s.as_str()).collect();
    let columns = OddsColumns::parse(&labels).ok_or_else(|| err("crt: a column is not odds such as `3-1` or `1-4`"))?;
    let mut rows: Vec<Vec<CrtResult>> = Vec::new();
    let mut next = 2u8;
    for row in &f.rows {
        let (lo, hi) = range(&row.dice, 12).ok_or_else(|| err(format!("crt: bad dice `{}`", row.dice)))?;
        if lo != next || hi > 12 {
            return Err(err(format!(
                "crt: the rows must cover two-dice totals 2 to 12 in order; `{}` should start at {next}",
                row.dice
            )));
        }
        if row.results.len() != columns.len() {
            return Err(err(format!(
                "crt: row `{}` has {} results for {} columns",
                row.dice,
                row.results.len(),
                columns.len()
            )));
        }
        let cells = row
            .results
            .iter()
            .map(|c| CrtResult::parse(c).ok_or_else(|| err(format!("crt: bad result `{c}` in row `{}`", row.dice))))
            .collect::<Result<Vec<_>, _>>()?;
        for _ in lo..=hi {
            rows.push(cells.clone());
        }
        next = hi + 1;
    }
    if next != 13 {
        return Err(err("crt: the rows must cover two-dice totals 2 to 12"));
    }
    let crt = CombatTable {
        columns,
        die_min: 2,
        rows,
    };
    crt.check().map_err(err)?;
    Ok(crt)
}

// ------------------------------------------------------------------------------------ MP

/// Movement points, counted in halves (a Road costs ½ MP).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Mp(pub u16);

impl Mp {
    pub const HALF: Mp = Mp(1);

    pub fn whole(n: u16) -> Mp {
        Mp(n.saturating_mul(2))
    }

    /// Reads `"2"`, `"1/2"`, `"1 1/2"`.
    pub fn parse(s: &str) -> Option<Mp> {
        let s = s.trim();
        if s == "1/2" || s == "½" {
            return Some(Mp(1));
        }
        if let Some((w, h)) = s.split_once(' ') {
            if h.trim() == "1/2" {
                return w.parse::<u16>().ok()?.checked_mul(2)?.checked_add(1).map(Mp);
            }
            return None;
        }
        s.parse::<u16>().ok()?.checked_mul(2).map(Mp)
    }
}

impl std::ops::Add for Mp {
    type Output = Mp;
    fn add(self, o: Mp) -> Mp {
        Mp(self.0.saturating_add(o.0))
    }
}

impl fmt::Display for Mp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => f.write_str("½"),
            (w, 1) => write!(f, "{w}½"),
            (w, _) => write!(f, "{w}"),
        }
    }
}

/// The cost of entering a hex for its terrain (TEC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Cost {
    Mp(Mp),
    /// P: may not be entered (except along a road, 1.3 (a)).
    Prohibited,
    /// "Other terrain": the hex's other terrain decides.
    Other,
}

impl Cost {
    fn parse(s: &str) -> Option<Cost> {
        match s.trim() {
            "P" => Some(Cost::Prohibited),
            "other" => Some(Cost::Other),
            t => Mp::parse(t).map(Cost::Mp),
        }
    }
}

/// The cost of crossing a hexside (TEC): MP added, or prohibited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SideCost {
    Add(Mp),
    Prohibited,
}

impl SideCost {
    fn parse(s: &str) -> Option<SideCost> {
        match s.trim() {
            "P" => Some(SideCost::Prohibited),
            t => Mp::parse(t.strip_prefix('+')?).map(SideCost::Add),
        }
    }
}

// ------------------------------------------------------------------------------------ TEC

/// The Barrage Success Roll of a terrain (3.5): a modified roll from `half.0` to `half.1`
/// places a Half marker, one of `full_from` or more a Full marker, anything less nothing
/// (inventory A3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BarrageRoll {
    pub half: (u8, u8),
    pub full_from: u8,
}

/// The marker a barrage places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BarrageStrength {
    Half,
    Full,
}

impl BarrageRoll {
    /// Reads the chart's `"(3-4) 5-6"`, `"(5) 6"`.
    pub fn parse(s: &str) -> Option<BarrageRoll> {
        let s = s.trim();
        let (half, full) = s.strip_prefix('(')?.split_once(')')?;
        let half = range(half, 6)?;
        let (full_from, full_to) = range(full, 6)?;
        (half.1 + 1 == full_from && full_to == 6).then_some(BarrageRoll { half, full_from })
    }

    /// The marker a modified roll places, if any.
    pub fn result(&self, modified_roll: i32) -> Option<BarrageStrength> {
        if modified_roll >= self.full_from as i32 {
            Some(BarrageStrength::Full)
        } else if modified_roll >= self.half.0 as i32 {
            Some(BarrageStrength::Half)
        } else {
            None
        }
    }

    /// Harder rolls sort higher: a higher Full threshold, then a higher Half threshold.
    fn difficulty(&self) -> (u8, u8) {
        (self.full_from, self.half.0)
    }
}

/// One in-hex row of the TEC.
#[derive(Clone, Debug)]
pub struct TerrainRow {
    pub name_en: String,
    pub name_zh: String,
    pub foot: Cost,
    pub mech: Cost,
    /// Columns left for a defender in the hex.
    pub shift: u8,
    /// `None`: "other terrain".
    pub barrage: Option<BarrageRoll>,
    /// Applies to German units only (West Wall 1.3; Traffic Jams 3.1).
    pub german_only: bool,
    /// Entering, or starting a phase in, the hex makes a unit DG (Traffic Jam, 3.1).
    pub dg: bool,
    /// Prohibited even along a road (an occupied Traffic Jam, 3.1).
    pub blocks_roads: bool,
}

/// A road row: the cost of a hex entered along it.
#[derive(Clone, Debug)]
pub struct RoadRow {
    pub name_en: String,
    pub name_zh: String,
    pub foot: Mp,
    pub mech: Mp,
}

/// A hexside row.
#[derive(Clone, Debug)]
pub struct HexsideRow {
    pub name_en: String,
    pub name_zh: String,
    pub foot: SideCost,
    pub mech: SideCost,
    /// Columns left for each attacking stack attacking across it.
    pub shift: u8,
}

/// MP added by the situation (TEC, 3.3).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementExtras {
    /// Entering an enemy ZOC Bond hex (instead of `moving_adjacently`, TEC note 3).
    pub enemy_zoc_bond: u8,
    /// From a hex adjacent to an enemy unit into another such hex (TEC note 3, 1.2).
    pub moving_adjacently: u8,
    /// Entering a hex with friendly barrage markers, however many (TEC note 4).
    pub friendly_barrage: u8,
    /// An overrun (3.3).
    pub overrun: u8,
}

/// The Terrain Effects Chart.
#[derive(Clone, Debug)]
pub struct Tec {
    pub terrain: BTreeMap<String, TerrainRow>,
    pub road: BTreeMap<String, RoadRow>,
    pub hexside: BTreeMap<String, HexsideRow>,
    pub movement: MovementExtras,
}

/// The TEC rows the rules name; the chart must have them all.
pub const TERRAIN_ROWS: [&str; 13] = [
    "open",
    "traffic-jam",
    "occupied-traffic-jam",
    "west-wall",
    "city",
    "village",
    "point-of-interest",
    "woods",
    "forest",
    "marsh",
    "slope",
    "entry-area",
    "national-border",
];
pub const ROAD_ROWS: [&str; 2] = ["road", "track"];
pub const HEXSIDE_ROWS: [&str; 4] = ["sea-line", "meuse", "river", "stream"];

impl Tec {
    fn applies(row: &TerrainRow, side: Side) -> bool {
        !row.german_only || side == Side::German
    }

    /// The rows of `terrains` that apply to `side`; unknown names have no effect.
    fn rows<'a>(&'a self, side: Side, terrains: &'a [&'a str]) -> impl Iterator<Item = &'a TerrainRow> + 'a {
        terrains
            .iter()
            .filter_map(|t| self.terrain.get(*t))
            .filter(move |r| Self::applies(r, side))
    }

    /// The defender's in-hex shift, in columns left (1.3 (b)): the single terrain of the hex
    /// that favours the defender most. West Wall counts only for German defenders (1.3).
    pub fn defender_shift(&self, defender: Side, terrains: &[&str]) -> u8 {
        self.rows(defender, terrains).map(|r| r.shift).max().unwrap_or(0)
    }

    /// The shift of one attacking stack attacking across a hexside with these features
    /// (1.3: hexside terrain affects only the stacks attacking across it).
    pub fn hexside_shift(&self, features: &[&str]) -> u8 {
        features
            .iter()
            .filter_map(|f| self.hexside.get(*f))
            .map(|r| r.shift)
            .max()
            .unwrap_or(0)
    }

    /// All the terrain column shifts of one combat, in columns left (1.2's example, 1.3 (b)):
    /// the defender's best in-hex shift, plus each attacking stack's hexside shift.
    /// `stacks` holds, per attacking stack, the features of the hexside it attacks across.
    pub fn combat_shift(&self, defender: Side, defender_terrains: &[&str], stacks: &[&[&str]]) -> u8 {
        let hexsides: u32 = stacks.iter().map(|s| self.hexside_shift(s) as u32).sum();
        (self.defender_shift(defender, defender_terrains) as u32 + hexsides).min(u8::MAX as u32) as u8
    }

    /// The MP a unit of `side` with this MA type pays to enter a hex with `terrains` across a
    /// hexside with `hexside` features, before the situation's extras (bonds, adjacency,
    /// barrage markers); `None` if it may not. `road` is the road type the move follows across
    /// this hexside into the hex (a usable bridge included), if it moves along a continuous
    /// road: then the road's cost is paid and the hex's other terrain and the hexside are
    /// ignored (1.3 (a)). Otherwise the hex costs its single dearest terrain (a hex with none
    /// that costs is Open) plus every hexside cost (1.3 (a)); a road crossing a stream or
    /// river without a bridge is such a move (1.3).
    pub fn entry_cost(
        &self,
        side: Side,
        movement: Movement,
        terrains: &[&str],
        hexside: &[&str],
        road: Option<&str>,
    ) -> Option<Mp> {
        let pick = |r: &TerrainRow| match movement {
            Movement::Foot => r.foot,
            Movement::Mech => r.mech,
        };
        if self
            .rows(side, terrains)
            .any(|r| r.blocks_roads && pick(r) == Cost::Prohibited)
        {
            return None;
        }
        if let Some(road) = road {
            let r = self.road.get(road)?;
            return Some(match movement {
                Movement::Foot => r.foot,
                Movement::Mech => r.mech,
            });
        }
        let mut base: Option<Mp> = None;
        for r in self.rows(side, terrains) {
            match pick(r) {
                Cost::Prohibited => return None,
                Cost::Mp(mp) => base = Some(base.map_or(mp, |b| b.max(mp))),
                Cost::Other => {}
            }
        }
        let mut cost = match base {
            Some(mp) => mp,
            None => match pick(self.terrain.get("open")?) {
                Cost::Mp(mp) => mp,
                _ => return None,
            },
        };
        for f in hexside {
            if let Some(r) = self.hexside.get(*f) {
                match match movement {
                    Movement::Foot => r.foot,
                    Movement::Mech => r.mech,
                } {
                    SideCost::Prohibited => return None,
                    SideCost::Add(mp) => cost = cost + mp,
                }
            }
        }
        Some(cost)
    }

    /// The Barrage Success Roll for a target hex (3.5): the hardest of its terrains (a hex with
    /// none listed is Open). `occupant` is the side of the units in the hex, if any: the West
    /// Wall counts only for German occupants (1.3).
    pub fn barrage_roll(&self, occupant: Option<Side>, terrains: &[&str]) -> Option<BarrageRoll> {
        let side = occupant.unwrap_or(Side::Allied);
        self.rows(side, terrains)
            .filter_map(|r| r.barrage)
            .max_by_key(|b| b.difficulty())
            .or_else(|| self.terrain.get("open").and_then(|r| r.barrage))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFileRow {
    name_en: String,
    name_zh: String,
    foot: String,
    mech: String,
    shift: u8,
    barrage: String,
    #[serde(default)]
    german_only: bool,
    #[serde(default)]
    dg: bool,
    #[serde(default)]
    blocks_roads: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoadFileRow {
    name_en: String,
    name_zh: String,
    foot: String,
    mech: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HexsideFileRow {
    name_en: String,
    name_zh: String,
    foot: String,
    mech: String,
    shift: u8,
}

fn parse_tec(f: &TablesFile) -> Result<Tec, DataError> {
    let mut terrain = BTreeMap::new();
    for (name, r) in &f.terrain {
        let cost = |s: &str, which: &str| {
            Cost::parse(s).ok_or_else(|| {
                err(format!(
                    "terrain `{name}`: bad {which} cost `{s}` (a number, 1/2, P or other)"
                ))
            })
        };
        let barrage = if r.barrage.trim() == "other" {
            None
        } else {
            Some(BarrageRoll::parse(&r.barrage).ok_or_else(|| {
                err(format!(
                    "terrain `{name}`: bad barrage roll `{}` (as \"(3-4) 5-6\" or other)",
                    r.barrage
                ))
            })?)
        };
        terrain.insert(
            name.clone(),
            TerrainRow {
                name_en: r.name_en.clone(),
                name_zh: r.name_zh.clone(),
                foot: cost(&r.foot, "foot")?,
                mech: cost(&r.mech, "mech")?,
                shift: r.shift,
                barrage,
                german_only: r.german_only,
                dg: r.dg,
                blocks_roads: r.blocks_roads,
            },
        );
    }
    let mut road = BTreeMap::new();
    for (name, r) in &f.road {
        let mp = |s: &str| Mp::parse(s).ok_or_else(|| err(format!("road `{name}`: bad cost `{s}`")));
        road.insert(
            name.clone(),
            RoadRow {
                name_en: r.name_en.clone(),
                name_zh: r.name_zh.clone(),
                foot: mp(&r.foot)?,
                mech: mp(&r.mech)?,
            },
        );
    }
    let mut hexside = BTreeMap::new();
    for (name, r) in &f.hexside {
        let c = |s: &str| SideCost::parse(s).ok_or_else(|| err(format!("hexside `{name}`: bad cost `{s}` (+n or P)")));
        hexside.insert(
            name.clone(),
            HexsideRow {
                name_en: r.name_en.clone(),
                name_zh: r.name_zh.clone(),
                foot: c(&r.foot)?,
                mech: c(&r.mech)?,
                shift: r.shift,
            },
        );
    }
    for (what, need, have) in [
        (
            "terrain",
            &TERRAIN_ROWS[..],
            terrain.keys().cloned().collect::<Vec<_>>(),
        ),
        ("road", &ROAD_ROWS[..], road.keys().cloned().collect()),
        ("hexside", &HEXSIDE_ROWS[..], hexside.keys().cloned().collect()),
    ] {
        for n in need {
            if !have.iter().any(|h| h == n) {
                return Err(err(format!("the Terrain Effects Chart lacks the {what} row `{n}`")));
            }
        }
    }
    if !matches!(terrain["open"].foot, Cost::Mp(_)) || !matches!(terrain["open"].mech, Cost::Mp(_)) {
        return Err(err(
            "terrain `open` needs MP costs: it is what a hex with no other terrain costs",
        ));
    }
    if terrain["open"].barrage.is_none() {
        return Err(err("terrain `open` needs a barrage roll"));
    }
    Ok(Tec {
        terrain,
        road,
        hexside,
        movement: f.movement,
    })
}

// ------------------------------------------------------------------------------------ barrage, DG

/// A multiplier such as ½ or ¼.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Frac {
    pub num: u8,
    pub den: u8,
}

impl Frac {
    pub fn parse(s: &str) -> Option<Frac> {
        let (n, d) = s.trim().split_once('/')?;
        let f = Frac {
            num: n.trim().parse().ok()?,
            den: d.trim().parse().ok()?,
        };
        (f.den > 0 && f.num <= f.den).then_some(f)
    }
}

/// The effect of enemy Full markers in a hex (3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkerEffect {
    /// This row applies from this many Full markers on (the last row: "or more").
    pub full_markers: u8,
    pub attack: Frac,
    pub defence: Frac,
    /// MP added to enter the hex, and again to leave it.
    pub mp: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkerEffectRow {
    full_markers: u8,
    attack: String,
    defence: String,
    mp: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BarrageMarkersFile {
    enemy: Vec<MarkerEffectRow>,
    friendly_mp: u8,
}

/// Barrage numbers (3.5).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarrageRules {
    /// Added to the roll per unit in the target hex beyond the first.
    pub extra_unit_drm: i8,
    /// Added to the roll per enemy barrage marker in the firing artillery's hex.
    pub enemy_marker_at_artillery_drm: i8,
    /// An observer is a friendly unit within this many hexes of the target.
    pub observer_range: u8,
    /// Air strikes on one hex with no observer (2.2, 3.5, inventory A2).
    pub air_strikes_per_hex_without_observer: u8,
}

/// DG multipliers (3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DgEffects {
    pub attack: Frac,
    pub defence: Frac,
    pub ma: Frac,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DgFile {
    attack: String,
    defence: String,
    ma: String,
}

// ------------------------------------------------------------------------------------ die tables

/// A one-die table: each roll 1-6 gives exactly one result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DieTable<R> {
    /// (lowest roll, highest roll, result), in order.
    pub rows: Vec<(u8, u8, R)>,
}

impl<R: Copy> DieTable<R> {
    /// The result of a roll (clamped to 1-6).
    pub fn roll(&self, die: i32) -> R {
        let d = die.clamp(1, 6) as u8;
        self.rows
            .iter()
            .find(|(lo, hi, _)| (*lo..=*hi).contains(&d))
            .map(|r| r.2)
            .unwrap_or(self.rows[0].2)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DieRow<R> {
    die: String,
    result: R,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DieFile<R> {
    rows: Vec<DieRow<R>>,
}

fn die_table<R: Copy>(name: &str, rows: &[DieRow<R>]) -> Result<DieTable<R>, DataError> {
    let mut out = Vec::new();
    let mut next = 1u8;
    for r in rows {
        let (lo, hi) = range(&r.die, 6).ok_or_else(|| err(format!("{name}: bad die `{}`", r.die)))?;
        if lo != next || hi > 6 {
            return Err(err(format!(
                "{name}: the rows must cover the die 1 to 6 in order; `{}` should start at {next}",
                r.die
            )));
        }
        out.push((lo, hi, r.result));
        next = hi + 1;
    }
    if next != 7 {
        return Err(err(format!("{name}: the rows must cover the die 1 to 6")));
    }
    Ok(DieTable { rows: out })
}

/// Half Reconciliation Table (3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HalfReconciliation {
    /// Remove the Half marker.
    Remove,
    /// Replace it with a Full marker.
    Full,
}

/// Artillery Resupply Table (3.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Resupply {
    /// The artillery unit is removed.
    Eliminate,
    /// The unit and its DG remain.
    Stay,
    /// Its DG is removed.
    RemoveDg,
}

/// The weather (2.2): only the onset of the Freeze is modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Weather {
    NotFrozen,
    Frozen,
}

/// Bridge Demolition Table (3.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Demolition {
    /// Failure: a Bridge Tested marker.
    Tested,
    /// Success: a Bridge Blown marker.
    Blown,
}

/// von der Heydte Success Table (4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VdhLanding {
    /// vdH is removed from the game.
    Destroyed,
    Lands,
}

/// US Air Strike Table (2.2).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AirStrikes {
    pub not_frozen: [u8; 6],
    pub frozen: [u8; 6],
}

impl AirStrikes {
    /// Air strike points for a roll under this weather; `halved` for scenarios 7.3-7.6
    /// (rounded down).
    pub fn strikes(&self, weather: Weather, die: i32, halved: bool) -> u8 {
        let i = (die.clamp(1, 6) - 1) as usize;
        let n = match weather {
            Weather::NotFrozen => self.not_frozen[i],
            Weather::Frozen => self.frozen[i],
        };
        if halved {
            n / 2
        } else {
            n
        }
    }
}

// ------------------------------------------------------------------------------------ turns, victory

/// One box of the Turn Record Track: one day of December 1944 (1.1).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnDef {
    pub turn: u8,
    /// ISO date, `1944-12-16`.
    pub date: String,
    /// The weather printed on the track (turn 1: Not Frozen).
    #[serde(default)]
    pub weather: Option<Weather>,
    /// The Weather Table is rolled this turn, until a Frozen result (2.2).
    #[serde(default)]
    pub weather_roll: bool,
    /// Traffic Jams exist (3.1: turns 1 and 2).
    #[serde(default)]
    pub traffic_jams: bool,
    /// 2nd Panzer Division's rubber boats may cross the Our (4.2: turns 1 and 2).
    #[serde(default)]
    pub our_boats: bool,
    /// The German Exploitation Phase takes place (4.3: not on turn 1).
    #[serde(default = "yes")]
    pub german_exploitation: bool,
}

fn yes() -> bool {
    true
}

impl TurnDef {
    /// The day of December 1944.
    pub fn day(&self) -> u8 {
        self.date.rsplit('-').next().and_then(|d| d.parse().ok()).unwrap_or(0)
    }

    pub fn date_en(&self) -> String {
        format!("{} December 1944", self.day())
    }

    pub fn date_zh(&self) -> String {
        format!("1944年12月{}日", self.day())
    }
}

/// A level of a victory table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VictoryResult {
    GermanMajor,
    GermanMinor,
    Draw,
    AlliedMinor,
    AlliedMajor,
}

/// One row of a victory table: VP from `min` to `max` (either open).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryLevel {
    #[serde(default)]
    pub min: Option<u32>,
    #[serde(default)]
    pub max: Option<u32>,
    pub result: VictoryResult,
}

/// Checks that levels, highest first, cover every VP total once; `what` names them.
pub fn check_levels(levels: &[VictoryLevel], what: &str) -> Result<(), String> {
    let first = levels.first().ok_or(format!("{what}: no levels"))?;
    if first.max.is_some() {
        return Err(format!("{what}: the first (highest) level must have no `max`"));
    }
    for w in levels.windows(2) {
        let lo = w[0]
            .min
            .ok_or(format!("{what}: only the last level may have no `min`"))?;
        if w[1].max.and_then(|m| m.checked_add(1)) != Some(lo) {
            return Err(format!(
                "{what}: the level below {lo} VP must end at {}; levels go highest first without gaps",
                lo.saturating_sub(1)
            ));
        }
    }
    let last = levels.last().unwrap_or(first);
    if last.min.unwrap_or(0) != 0 {
        return Err(format!("{what}: the last level must reach down to 0 VP (no `min`)"));
    }
    for l in levels {
        if let (Some(a), Some(b)) = (l.min, l.max) {
            if a > b {
                return Err(format!("{what}: a level from {a} to {b}"));
            }
        }
    }
    Ok(())
}

/// The result of a VP total on levels checked by [`check_levels`].
pub fn level_for(levels: &[VictoryLevel], vp: u32) -> Option<VictoryResult> {
    levels
        .iter()
        .find(|l| l.min.is_none_or(|m| vp >= m) && l.max.is_none_or(|m| vp <= m))
        .map(|l| l.result)
}

/// A VP hex (6.0).
#[derive(Clone, Debug)]
pub struct VpHex {
    pub hex: Hex,
    /// The printed id, `B1.16`.
    pub id: String,
    pub name_en: String,
    pub name_zh: String,
    pub vp: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VpHexRow {
    hex: String,
    name_en: String,
    name_zh: String,
    vp: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VictoryFile {
    historical_vp: u32,
    levels: Vec<VictoryLevel>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WeatherFile {
    first_roll_turn: u8,
    rows: Vec<DieRow<Weather>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DemolitionFile {
    us_unit_range: u8,
    rows: Vec<DieRow<Demolition>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TablesFile {
    about: About,
    crt: CrtFile,
    terrain: BTreeMap<String, TerrainFileRow>,
    road: BTreeMap<String, RoadFileRow>,
    hexside: BTreeMap<String, HexsideFileRow>,
    movement: MovementExtras,
    barrage_markers: BarrageMarkersFile,
    barrage: BarrageRules,
    half_reconciliation: DieFile<HalfReconciliation>,
    dg: DgFile,
    artillery_resupply: DieFile<Resupply>,
    weather: WeatherFile,
    air_strikes: AirStrikes,
    bridge_demolition: DemolitionFile,
    von_der_heydte: DieFile<VdhLanding>,
    turn: Vec<TurnDef>,
    victory: VictoryFile,
    vp_hex: Vec<VpHexRow>,
}

/// Every table of the book, checked.
#[derive(Clone, Debug)]
pub struct Tables {
    pub about: About,
    /// 3.2: rows are two-dice totals from 2.
    pub crt: CombatTable<CrtResult>,
    pub tec: Tec,
    /// 3.5: by number of enemy Full markers, the last row for that many or more.
    pub enemy_markers: Vec<MarkerEffect>,
    /// 3.5: +MP to enter a hex with friendly markers.
    pub friendly_marker_mp: u8,
    pub barrage: BarrageRules,
    pub half_reconciliation: DieTable<HalfReconciliation>,
    pub dg: DgEffects,
    pub artillery_resupply: DieTable<Resupply>,
    pub weather: DieTable<Weather>,
    /// 2.2: the Weather Table is rolled from this turn on.
    pub weather_first_roll_turn: u8,
    pub air_strikes: AirStrikes,
    pub bridge_demolition: DieTable<Demolition>,
    /// 3.8: a US unit within this many hexes of the demolition symbol.
    pub bridge_us_unit_range: u8,
    pub von_der_heydte: DieTable<VdhLanding>,
    pub turns: Vec<TurnDef>,
    /// 6.0, highest first.
    pub victory_levels: Vec<VictoryLevel>,
    pub historical_vp: u32,
    pub vp_hexes: Vec<VpHex>,
}

impl Tables {
    pub fn parse(text: &str, grid: &HexGrid) -> Result<Tables, DataError> {
        let f: TablesFile = toml::from_str(text).map_err(err)?;
        let crt = parse_crt(&f.crt)?;
        let tec = parse_tec(&f)?;
        let mut enemy_markers = Vec::new();
        for (i, r) in f.barrage_markers.enemy.iter().enumerate() {
            if r.full_markers as usize != i + 1 {
                return Err(err("barrage_markers.enemy: rows for 1, 2, ... Full markers, in order"));
            }
            let frac = |s: &str| Frac::parse(s).ok_or_else(|| err(format!("barrage_markers: bad multiplier `{s}`")));
            enemy_markers.push(MarkerEffect {
                full_markers: r.full_markers,
                attack: frac(&r.attack)?,
                defence: frac(&r.defence)?,
                mp: r.mp,
            });
        }
        if enemy_markers.is_empty() {
            return Err(err("barrage_markers.enemy: no rows"));
        }
        let frac = |s: &str| Frac::parse(s).ok_or_else(|| err(format!("dg: bad multiplier `{s}`")));
        let dg = DgEffects {
            attack: frac(&f.dg.attack)?,
            defence: frac(&f.dg.defence)?,
            ma: frac(&f.dg.ma)?,
        };
        for (i, t) in f.turn.iter().enumerate() {
            if t.turn as usize != i + 1 {
                return Err(err("the turn track lists turns 1, 2, 3, ... in order"));
            }
            let ok = t.date.len() == 10 && t.date.starts_with("1944-12-") && (1..=31).contains(&t.day());
            if !ok {
                return Err(err(format!(
                    "turn {}: date `{}` is not a December 1944 day (1944-12-DD)",
                    t.turn, t.date
                )));
            }
        }
        if f.turn.is_empty() {
            return Err(err("the turn track has no turns"));
        }
        let last_turn = f.turn.len() as u8;
        if !(1..=last_turn).contains(&f.weather.first_roll_turn) {
            return Err(err("weather.first_roll_turn is not a turn of the track"));
        }
        check_levels(&f.victory.levels, "victory.levels").map_err(err)?;
        let mut vp_hexes: Vec<VpHex> = Vec::new();
        for r in &f.vp_hex {
            let hex = parse_hex(grid, FILE, &format!("VP hex {}", r.name_en), &r.hex)?;
            if vp_hexes.iter().any(|v| v.hex == hex) {
                return Err(err(format!("VP hex {} is listed twice", r.hex)));
            }
            if r.vp == 0 {
                return Err(err(format!("VP hex {} is worth no VP", r.hex)));
            }
            vp_hexes.push(VpHex {
                hex,
                id: r.hex.clone(),
                name_en: r.name_en.clone(),
                name_zh: r.name_zh.clone(),
                vp: r.vp,
            });
        }
        Ok(Tables {
            about: f.about,
            crt,
            tec,
            enemy_markers,
            friendly_marker_mp: f.barrage_markers.friendly_mp,
            barrage: f.barrage,
            half_reconciliation: die_table("half_reconciliation", &f.half_reconciliation.rows)?,
            dg,
            artillery_resupply: die_table("artillery_resupply", &f.artillery_resupply.rows)?,
            weather: die_table("weather", &f.weather.rows)?,
            weather_first_roll_turn: f.weather.first_roll_turn,
            air_strikes: f.air_strikes,
            bridge_demolition: die_table("bridge_demolition", &f.bridge_demolition.rows)?,
            bridge_us_unit_range: f.bridge_demolition.us_unit_range,
            von_der_heydte: die_table("von_der_heydte", &f.von_der_heydte.rows)?,
            turns: f.turn,
            victory_levels: f.victory.levels,
            historical_vp: f.victory.historical_vp,
            vp_hexes,
        })
    }

    /// The enemy-marker effect of `full` enemy Full markers (3.5); `None` for none.
    pub fn enemy_marker_effect(&self, full: u8) -> Option<MarkerEffect> {
        if full == 0 {
            return None;
        }
        self.enemy_markers
            .iter()
            .rev()
            .find(|m| full >= m.full_markers)
            .copied()
    }

    /// The 6.0 result of the German's highest VP total.
    pub fn victory(&self, vp: u32) -> Option<VictoryResult> {
        level_for(&self.victory_levels, vp)
    }

    pub fn turn(&self, turn: u8) -> Option<&TurnDef> {
        self.turns.get((turn as usize).checked_sub(1)?)
    }

    /// The VP hex at `hex`, if it is one.
    pub fn vp_hex(&self, hex: Hex) -> Option<&VpHex> {
        self.vp_hexes.iter().find(|v| v.hex == hex)
    }
}

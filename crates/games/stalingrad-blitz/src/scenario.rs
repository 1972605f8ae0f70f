//! Scenarios: the pieces on their hexes, the turn, the markers. The shipped campaign is in
//! `data/scenarios/`, once with its set-up made and once with the set-up left to the players
//! (units with `loc = "set-up"`, placed by them before the first turn under 4.0); players may
//! write their own in the same format (docs/formats.md). Every unit a scenario does not list
//! is in the reserve force pool (4.0(5)).

use crate::data::{Data, Side};
use crate::setup::{named_hexes, setup_class, Problem, SetupPlan};
use crate::state::{Fortress, Loc, State, UnitState};
use sandtable_core::map::About;
use serde::Deserialize;

pub const CAMPAIGN_TOML: &str = include_str!("../data/scenarios/campaign.toml");
pub const CAMPAIGN_FREE_SETUP_TOML: &str = include_str!("../data/scenarios/campaign-free-setup.toml");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub about: About,
    pub scenario: ScenarioHead,
    #[serde(default, rename = "unit")]
    pub units: Vec<UnitPlacement>,
    #[serde(default, rename = "fortress")]
    pub fortresses: Vec<FortressRow>,
    #[serde(default, rename = "control")]
    pub control: Vec<ControlRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioHead {
    pub id: String,
    pub name_en: String,
    pub name_zh: String,
    #[serde(default = "one")]
    pub turn: u8,
    #[serde(default = "one")]
    pub track: u8,
    #[serde(default)]
    pub loss_vp: u16,
    #[serde(default)]
    pub fortress_markers_used: u8,
    /// The phase the first turn begins with: `selection` (6.0, the default) or `execution`
    /// (7.0), with the chits of `cup` in the cup and those of `used` already executed (7.1(4)).
    #[serde(default)]
    pub phase: Option<String>,
    #[serde(default)]
    pub cup: Vec<String>,
    #[serde(default)]
    pub used: Vec<String>,
}

fn one() -> u8 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitPlacement {
    pub id: String,
    #[serde(default)]
    pub hex: Option<String>,
    /// Off-map places: `pool`, `rail-box`, `track`, `eliminated`, `withdrawn`; or `set-up`:
    /// its player sets it up before the first turn (4.0).
    #[serde(default)]
    pub loc: Option<String>,
    #[serde(default)]
    pub reduced: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FortressRow {
    pub hex: String,
    pub level: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControlRow {
    pub hex: String,
    pub side: Side,
}

/// A scenario read and checked against the data.
pub struct Scenario {
    pub id: String,
    pub name_en: String,
    pub name_zh: String,
    pub about: About,
    pub state: State,
    /// What the players' set-up must achieve (empty when nothing is left to set up).
    pub setup: SetupPlan,
    /// `Some(cup)` when the first turn begins with command execution (7.0): the chits in the
    /// cup (a secret of the game, 6.1(3)); the executed ones are in `state.used`.
    pub cup: Option<Vec<u8>>,
}

/// 6.2, 7.1(4): a turn that begins with command execution. The chits in the cup and those
/// already executed must together be a selection 6.2 allows for that turn: the turn's SU Com
/// Front chits, at most one of SOVIET REINF and STAVKA, the GER Com and Axis/Rnf Com chits, and
/// the SUPPLY chit; no chit more often than there are counters of it.
fn command_execution(d: &Data, turn: u8, cup: &[String], used: &[String]) -> Result<(Vec<u8>, Vec<u8>), String> {
    use crate::data::ChitClass;
    let index = |id: &String| {
        d.chit_index(id)
            .ok_or_else(|| format!("scenario: no command chit `{id}` (2.23)"))
    };
    let cup: Vec<u8> = cup.iter().map(index).collect::<Result<_, _>>()?;
    let used: Vec<u8> = used.iter().map(index).collect::<Result<_, _>>()?;
    let mut count = vec![0u8; d.chits.len()];
    for &c in cup.iter().chain(used.iter()) {
        count[c as usize] += 1;
        let def = &d.chits[c as usize];
        if count[c as usize] > def.count {
            return Err(format!(
                "scenario: command chit `{}` is in the cup or used more often than its {} counter(s) (2.23)",
                def.id, def.count
            ));
        }
    }
    let td = &d.turns[(turn - 1) as usize];
    let of = |class: ChitClass| -> (usize, usize) {
        let taken = d
            .chits
            .iter()
            .enumerate()
            .filter(|(_, c)| c.class == class)
            .map(|(i, _)| count[i] as usize)
            .sum();
        let there: usize = d
            .chits
            .iter()
            .filter(|c| c.class == class)
            .map(|c| c.count as usize)
            .sum();
        (taken, there)
    };
    for (class, quota, rule, what) in [
        (ChitClass::SuCom, td.su_com, "6.2(1)", "Soviet Front (SU Com)"),
        (ChitClass::GerCom, td.ger_com, "6.2(3)", "German (GER Com)"),
        (ChitClass::AxisRnfCom, td.axis_rnf_com, "6.2(3)", "Axis/Rnf Com"),
    ] {
        let (taken, there) = of(class);
        let quota = (quota as usize).min(there);
        if taken != quota {
            return Err(format!(
                "scenario: turn {turn} takes {quota} {what} chit(s) in the cup or used, not {taken} ({rule})"
            ));
        }
    }
    if of(ChitClass::SovietExtra).0 > 1 {
        return Err("scenario: SOVIET REINF and STAVKA cannot both be selected (6.2(2))".into());
    }
    let (supply, there) = of(ChitClass::Supply);
    if supply != there {
        return Err("scenario: the SUPPLY chit is always in the cup or used (6.2(4))".into());
    }
    Ok((cup, used))
}

pub fn parse(d: &Data, text: &str) -> Result<Scenario, String> {
    let f: ScenarioFile = toml::from_str(text).map_err(|e| format!("scenario: {e}"))?;
    let h = f.scenario;
    if !(1..=9).contains(&h.turn) {
        return Err("scenario: turn must be 1 to 9 (5.0)".into());
    }
    if h.fortress_markers_used > 2 || f.fortresses.len() > 2 {
        return Err("scenario: there are only 2 fortress markers (14.3(3))".into());
    }
    let n = d.map.grid.len();
    let mut units: Vec<UnitState> = vec![UnitState::at(Loc::Pool); d.units.len()];
    let mut seen = vec![false; d.units.len()];
    for p in &f.units {
        let i = *d
            .unit_index
            .get(&p.id)
            .ok_or_else(|| format!("scenario: no unit `{}` in the counter manifest", p.id))? as usize;
        if seen[i] {
            return Err(format!("scenario: unit `{}` is listed twice", p.id));
        }
        seen[i] = true;
        let loc = match (&p.hex, p.loc.as_deref()) {
            (Some(hex), None) => {
                let h = d
                    .map
                    .grid
                    .parse(hex)
                    .map_err(|e| format!("scenario: unit `{}`: {e}", p.id))?;
                if d.map.terrain(h) & (d.t.sea | d.t.impassable) != 0 {
                    return Err(format!("scenario: unit `{}` is on a sea or impassable hex {hex}", p.id));
                }
                Loc::Map(h)
            }
            (None, Some("pool")) => Loc::Pool,
            (None, Some("rail-box")) => Loc::RailBox,
            (None, Some("track")) => Loc::Track,
            (None, Some("eliminated")) => Loc::Eliminated,
            (None, Some("withdrawn")) => Loc::Withdrawn,
            (None, Some("set-up")) => {
                // 4.0(2)–(4): only units with entry information set up, on hexes the map names.
                let def = &d.units[i];
                if setup_class(def).is_none() {
                    return Err(format!(
                        "scenario: unit `{}` has no set-up information (4.0(5)) and cannot be set up",
                        p.id
                    ));
                }
                if named_hexes(d, def).is_empty() {
                    return Err(format!(
                        "scenario: the map names no set-up hex for unit `{}` (4.0(2)–(4))",
                        p.id
                    ));
                }
                if p.reduced {
                    return Err(format!("scenario: unit `{}` sets up at full strength (4.0(6))", p.id));
                }
                Loc::SetUp
            }
            _ => {
                return Err(format!(
                    "scenario: unit `{}` needs either `hex` or `loc` (pool, rail-box, track, eliminated, withdrawn, set-up)",
                    p.id
                ))
            }
        };
        if p.reduced && d.units[i].reduced.is_none() {
            return Err(format!("scenario: unit `{}` has no reduced side (2.21(3))", p.id));
        }
        units[i] = UnitState {
            reduced: p.reduced,
            ..UnitState::at(loc)
        };
    }
    // 3.1: stacking and sides on every hex.
    let mut per_hex: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, u) in units.iter().enumerate() {
        if let Loc::Map(h) = u.loc {
            per_hex[h.idx()].push(i);
        }
    }
    let mut fortresses = Vec::new();
    for fr in &f.fortresses {
        let h = d
            .map
            .grid
            .parse(&fr.hex)
            .map_err(|e| format!("scenario: fortress: {e}"))?;
        if !(1..=2).contains(&fr.level) {
            return Err("scenario: a fortress is level 1 or 2 (14.1(6))".into());
        }
        fortresses.push(Fortress {
            hex: h,
            level: fr.level,
        });
    }
    for (hi, list) in per_hex.iter().enumerate() {
        let fort = fortresses.iter().any(|f| f.hex.idx() == hi);
        if list.len() > 2 && !fort {
            let id = d.map.grid.id(sandtable_core::hex::Hex(hi as u16));
            return Err(format!(
                "scenario: {} units in hex {id}; at most 2 (3.1(1))",
                list.len()
            ));
        }
        if list.iter().any(|&i| d.units[i].side != d.units[list[0]].side) {
            let id = d.map.grid.id(sandtable_core::hex::Hex(hi as u16));
            return Err(format!("scenario: Axis and Soviet units share hex {id} (3.1(2))"));
        }
    }
    // 3.4(1): initial control from the map, then the scenario's changes.
    let mut control = vec![None; n];
    for p in &d.map.places {
        if p.tags.iter().any(|t| t == "control-axis") {
            control[p.hex.idx()] = Some(Side::Axis);
        } else if p.tags.iter().any(|t| t == "control-soviet") {
            control[p.hex.idx()] = Some(Side::Soviet);
        }
    }
    for c in &f.control {
        let h = d
            .map
            .grid
            .parse(&c.hex)
            .map_err(|e| format!("scenario: control: {e}"))?;
        control[h.idx()] = Some(c.side);
    }
    let plan = SetupPlan::new(d, &units);
    let (cup, used) = match h.phase.as_deref() {
        None | Some("selection") if h.cup.is_empty() && h.used.is_empty() => (None, Vec::new()),
        None | Some("selection") => return Err("scenario: `cup` and `used` need `phase = \"execution\"` (7.0)".into()),
        Some("execution") => {
            // 4.0: the set-up comes before turn 1's command selection.
            if units.iter().any(|u| u.loc == Loc::SetUp) {
                return Err(
                    "scenario: units left to set up (4.0) need the game to begin with command selection".into(),
                );
            }
            let (cup, used) = command_execution(d, h.turn, &h.cup, &h.used)?;
            (Some(cup), used)
        }
        Some(other) => {
            return Err(format!(
                "scenario: unknown phase `{other}`: selection (6.0) or execution (7.0)"
            ))
        }
    };
    let state = State {
        turn: h.turn,
        units,
        control,
        fortress_markers_used: h.fortress_markers_used.max(fortresses.len() as u8),
        fortresses,
        track: h.track.max(1),
        loss_vp: h.loss_vp,
        used,
        arriving: Vec::new(),
        vp: 0,
        winner: None,
        moves: Default::default(),
    };
    // 4.0: a set-up left to the players must be one they can complete.
    if !Problem::new(d, &state, &plan).feasible() {
        return Err("scenario: the units left to set up cannot all be placed as 4.0 requires (every set-up hex filled, at most 2 units to a hex, one nationality to a hex, one Front Line unit to each front-line hex, Second Line units alone in Soviet-held towns)".into());
    }
    Ok(Scenario {
        id: h.id,
        name_en: h.name_en,
        name_zh: h.name_zh,
        about: f.about,
        state,
        setup: plan,
        cup,
    })
}

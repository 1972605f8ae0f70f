//! The counter manifest (`data/counters.toml`): every unit of the set-ups and arrival lists,
//! with the values printed on its counter (1.2, 2.2) and the formation it belongs to (3.1).

use super::DataError;
use crate::sequence::Side;
use sandtable_core::map::{About, Provenance};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

const FILE: &str = "counters.toml";

/// Counter ownership (1.2): the Allied nations and the three German services.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Nation {
    Us,
    British,
    Belgian,
    Wehrmacht,
    WaffenSs,
    Luftwaffe,
}

/// What a formation is; all of them count as a "division" for divisional integrity (3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FormationKind {
    Division,
    Brigade,
    Regiment,
    Group,
}

/// A division (or brigade, regiment, group) of 3.1: its units share a colour code; units of
/// two formations in one hex at the end of a phase become DG.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Formation {
    pub id: String,
    pub side: Side,
    pub nation: Nation,
    pub kind: FormationKind,
    pub name_en: String,
    pub name_zh: String,
}

/// Unit types of the symbol chart (2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnitType {
    /// Armor or Panzer, with its variants.
    Armor,
    ArmoredRecon,
    Bicycle,
    /// Infantry of any motorization, including airborne, glider and Fallschirmjäger.
    Infantry,
    /// Mechanized or Panzer infantry.
    MechInfantry,
    Penal,
    Ost,
    Ersatz,
    MachineGun,
    Pioneer,
    Artillery,
    /// Werfer: treated as artillery.
    RocketArtillery,
}

/// Armour variants (2.3: historical interest only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    TankDestroyer,
    Tiger,
    Jagdpanzer,
    Sturmgeschutz,
    Jagdtiger,
    Sturmtiger,
    Brummbar,
    Hetzer,
}

/// Add-on symbols (2.3): historical only, but airborne and glider infantry count as infantry
/// for ZOC Posts (1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AddOn {
    Airborne,
    Glider,
}

/// The size in the unit's designation (`Bn(+)`, `Rgt(-)`, `KG`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Size {
    #[serde(rename = "co")]
    Company,
    #[serde(rename = "bn")]
    Battalion,
    #[serde(rename = "bn+")]
    BattalionPlus,
    #[serde(rename = "rgt")]
    Regiment,
    #[serde(rename = "rgt-")]
    RegimentMinus,
    #[serde(rename = "bde")]
    Brigade,
    #[serde(rename = "grp")]
    Group,
    #[serde(rename = "kg")]
    Kampfgruppe,
    #[serde(rename = "tf")]
    TaskForce,
    #[serde(rename = "tm")]
    Team,
}

/// The MA colour (1.2): black = mechanized, white = foot. Each has its own TEC costs; only
/// mechanized units overrun (3.3); a stack with a foot unit must stand (3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Movement {
    Foot,
    Mech,
}

/// One face of a counter. Artillery prints no attack (2.2): its attack is 0 and its range is
/// on the [`UnitDef`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Face {
    pub attack: u8,
    pub defence: u8,
    pub ma: u8,
}

impl Face {
    /// Reads `"3-5-10"` (attack-defence-MA) or `"[7]-1-16"` ([range]-defence-MA, with the range).
    pub fn parse(s: &str) -> Option<(Face, Option<u8>)> {
        let s = s.trim();
        let (range, rest) = match s.strip_prefix('[') {
            Some(r) => {
                let (range, rest) = r.split_once("]-")?;
                (Some(range.parse().ok()?), rest)
            }
            None => (None, s),
        };
        let n: Vec<u8> = rest.split('-').map(|p| p.parse().ok()).collect::<Option<_>>()?;
        match (range, n.as_slice()) {
            (None, [a, d, m]) => Some((
                Face {
                    attack: *a,
                    defence: *d,
                    ma: *m,
                },
                None,
            )),
            (Some(_), [d, m]) => Some((
                Face {
                    attack: 0,
                    defence: *d,
                    ma: *m,
                },
                range,
            )),
            _ => None,
        }
    }
}

/// One counter.
#[derive(Clone, Debug)]
pub struct UnitDef {
    pub id: String,
    pub side: Side,
    pub nation: Nation,
    /// Index into [`Counters::formations`]; `None` for an independent unit (3.1).
    pub formation: Option<u16>,
    /// The designation as the book prints it, as `3-5-10 Inf Bn(+) (A/9)`.
    pub printed: String,
    pub name_en: String,
    pub name_zh: String,
    pub utype: UnitType,
    pub variant: Option<Variant>,
    pub addon: Option<AddOn>,
    pub size: Size,
    pub front: Face,
    /// The back of a 2-step unit (1.2); `None` for a 1-step unit (blank back).
    pub reduced: Option<Face>,
    /// Artillery range in hexes (2.2, 3.5).
    pub range: Option<u8>,
    pub steps: u8,
    pub movement: Movement,
    /// The yellow bar (1.2): may advance 2 hexes after combat and move in Exploitation.
    pub exploit: bool,
    pub note: Option<String>,
    /// Its names with its values, `Name (3-5-10)`, full strength then reduced: written once,
    /// for the texts that name it ([`UnitDef::label`]).
    labels: [(String, String); 2],
}

impl UnitDef {
    /// Artillery or rocket artillery (2.2, 2.3).
    pub fn is_artillery(&self) -> bool {
        matches!(self.utype, UnitType::Artillery | UnitType::RocketArtillery)
    }

    /// Infantry that counts for a ZOC Post (1.2): regular infantry of any motorization,
    /// mechanized infantry, airborne and glider infantry; not bicycle, penal, Ersatz, Ost,
    /// machine-gun or pioneer units.
    pub fn is_bond_infantry(&self) -> bool {
        matches!(self.utype, UnitType::Infantry | UnitType::MechInfantry)
    }

    /// Divisional artillery (3.1, 3.5: needs an observer of its own division): artillery that
    /// belongs to a formation (RULINGS.md).
    pub fn is_divarty(&self) -> bool {
        self.is_artillery() && self.formation.is_some()
    }

    pub fn is_mech(&self) -> bool {
        self.movement == Movement::Mech
    }

    /// The face showing: the back if `reduced` and the unit has one.
    pub fn face(&self, reduced: bool) -> Face {
        if reduced {
            self.reduced.unwrap_or(self.front)
        } else {
            self.front
        }
    }

    /// Its names in English and Chinese with its values as printed on the face shown:
    /// `Infantry Regiment 190 (2-3-8)`.
    pub fn label(&self, reduced: bool) -> (&str, &str) {
        let (en, zh) = &self.labels[usize::from(reduced)];
        (en, zh)
    }

    /// The values as printed: `3-5-10`, or `[7]-1-16` for artillery.
    pub fn values(&self, reduced: bool) -> String {
        let f = self.face(reduced);
        // Made at its full length at once: a legal list names a unit in each of its moves.
        let mut s = String::with_capacity(12);
        let _ = match self.range {
            Some(r) => write!(s, "[{r}]-{}-{}", f.defence, f.ma),
            None => write!(s, "{}-{}-{}", f.attack, f.defence, f.ma),
        };
        s
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitRow {
    id: String,
    side: Side,
    nation: Nation,
    #[serde(default)]
    formation: Option<String>,
    printed: String,
    name_en: String,
    name_zh: String,
    #[serde(rename = "type")]
    utype: UnitType,
    #[serde(default)]
    variant: Option<Variant>,
    #[serde(default)]
    addon: Option<AddOn>,
    size: Size,
    front: String,
    #[serde(default)]
    reduced: Option<String>,
    steps: u8,
    movement: Movement,
    exploit: bool,
    #[serde(default)]
    note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CountersFile {
    about: About,
    fields: BTreeMap<String, Provenance>,
    formation: Vec<Formation>,
    unit: Vec<UnitRow>,
}

/// The fields of a unit row, for `[fields]`.
const FIELDS: [&str; 15] = [
    "front",
    "printed",
    "side",
    "formation",
    "name_zh",
    "name_en",
    "type",
    "size",
    "variant",
    "addon",
    "steps",
    "reduced",
    "movement",
    "exploit",
    "nation",
];

/// The counter manifest, checked.
#[derive(Clone, Debug)]
pub struct Counters {
    pub about: About,
    /// Where each unit field comes from (`rulebook`, `reference`, `reconstructed`).
    pub fields: BTreeMap<String, Provenance>,
    pub formations: Vec<Formation>,
    pub units: Vec<UnitDef>,
    unit_index: HashMap<String, u16>,
    formation_index: HashMap<String, u16>,
}

impl Counters {
    pub fn parse(text: &str) -> Result<Counters, DataError> {
        let err = |m: String| DataError::new(FILE, m);
        let file: CountersFile = toml::from_str(text).map_err(|e| DataError::new(FILE, e))?;
        for k in file.fields.keys() {
            if !FIELDS.contains(&k.as_str()) {
                return Err(err(format!("[fields] names `{k}`, which is not a unit field")));
            }
        }
        let mut formation_index = HashMap::new();
        for (i, f) in file.formation.iter().enumerate() {
            if formation_index.insert(f.id.clone(), i as u16).is_some() {
                return Err(err(format!("formation id `{}` appears twice", f.id)));
            }
        }
        let mut units = Vec::with_capacity(file.unit.len());
        let mut unit_index = HashMap::new();
        for r in file.unit {
            let id = r.id.clone();
            let (front, range) =
                Face::parse(&r.front).ok_or_else(|| err(format!("unit {id}: bad front values `{}`", r.front)))?;
            let artillery = matches!(r.utype, UnitType::Artillery | UnitType::RocketArtillery);
            if artillery != range.is_some() {
                return Err(err(format!(
                    "unit {id}: artillery prints [range]-defence-MA and other units attack-defence-MA (2.2), not `{}`",
                    r.front
                )));
            }
            let reduced = match &r.reduced {
                Some(s) => {
                    let (face, rr) =
                        Face::parse(s).ok_or_else(|| err(format!("unit {id}: bad reduced values `{s}`")))?;
                    if rr.is_some() {
                        return Err(err(format!(
                            "unit {id}: a reduced side is attack-defence-MA, not `{s}`"
                        )));
                    }
                    Some(face)
                }
                None => None,
            };
            match (r.steps, reduced.is_some()) {
                (1, false) | (2, true) => {}
                (1, true) => {
                    return Err(err(format!(
                        "unit {id}: a 1-step unit has a blank back (1.2), no `reduced`"
                    )))
                }
                (2, false) => {
                    return Err(err(format!(
                        "unit {id}: a 2-step unit needs its `reduced` values (1.2)"
                    )))
                }
                (n, _) => return Err(err(format!("unit {id}: {n} steps; units have 1 or 2 (1.2)"))),
            }
            if artillery && r.steps != 1 {
                return Err(err(format!("unit {id}: artillery has 1 step (designer's notes)")));
            }
            let formation = match &r.formation {
                Some(f) => {
                    let i = *formation_index
                        .get(f)
                        .ok_or_else(|| err(format!("unit {id}: no formation `{f}`")))?;
                    if file.formation[i as usize].side != r.side {
                        return Err(err(format!("unit {id}: its formation `{f}` belongs to the other side")));
                    }
                    Some(i)
                }
                None => None,
            };
            if unit_index.insert(id.clone(), units.len() as u16).is_some() {
                return Err(err(format!("unit id `{id}` appears twice")));
            }
            units.push(UnitDef {
                id: r.id,
                side: r.side,
                nation: r.nation,
                formation,
                printed: r.printed,
                name_en: r.name_en,
                name_zh: r.name_zh,
                utype: r.utype,
                variant: r.variant,
                addon: r.addon,
                size: r.size,
                front,
                reduced,
                range,
                steps: r.steps,
                movement: r.movement,
                exploit: r.exploit,
                note: r.note,
                labels: Default::default(),
            });
            let unit = units.last_mut().expect("just pushed");
            unit.labels = [false, true].map(|reduced| {
                let v = unit.values(reduced);
                (format!("{} ({v})", unit.name_en), format!("{}({v})", unit.name_zh))
            });
        }
        if units.len() >= u16::MAX as usize {
            return Err(err("too many units".into()));
        }
        Ok(Counters {
            about: file.about,
            fields: file.fields,
            formations: file.formation,
            units,
            unit_index,
            formation_index,
        })
    }

    /// The index of the unit with this id.
    pub fn index(&self, id: &str) -> Option<u16> {
        self.unit_index.get(id).copied()
    }

    pub fn get(&self, id: &str) -> Option<&UnitDef> {
        self.index(id).map(|i| &self.units[i as usize])
    }

    /// The index of the formation with this id.
    pub fn formation_index(&self, id: &str) -> Option<u16> {
        self.formation_index.get(id).copied()
    }

    /// The units of a formation, by index.
    pub fn formation_units(&self, formation: u16) -> impl Iterator<Item = u16> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.formation == Some(formation))
            .map(|(i, _)| i as u16)
    }
}

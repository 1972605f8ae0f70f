//! 4.0 Game set-up: the Unit Setup every scenario starts from in August 1914 (4.2), with the
//! Historical scenario's trench changes (5.7.1), the markers at start (4.1.1), and what each
//! neutral nation sets up when it enters the war (`data/setup.toml`). The cards are dealt by
//! chance, in the game's first frames (4.3).

use crate::data::{Data, DataError, Side};
use crate::state::{Cards, Fort, Location, Position, SpaceState, Trench, Unit};
use sandtable_core::graph::Space;
use sandtable_core::map::About;
use serde::Deserialize;

pub const SETUP_TOML: &str = include_str!("../data/setup.toml");
const SETUP_FILE: &str = "data/setup.toml";

/// The countries neutral at the start of every scenario: their spaces are nobody's until they
/// enter the war (9.5.2, 16.1.3.1; Persia with Turkey, 11.1.13; Arabia with Turkey too).
pub const NEUTRAL_AT_START: [&str; 7] = ["it", "bu", "ro", "gr", "tu", "pe", "ar"];

/// Spaces that are nobody's at the start though their country is at war: Libya, which the war
/// reaches with Turkey's entry, and the MEF beaches, which open with the MEF Beachhead marker
/// (9.5.3.5, 11.1.10).
pub const NOBODYS_AT_START: [&str; 5] = ["libya", "mef1", "mef2", "mef3", "mef4"];

/// Spaces of a neutral country that are Allied from the start: Kavala (2022 9.5.2.4).
pub const ALLIED_AT_START: [&str; 1] = ["kavala"];

/// Which scenarios a set-up line applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Only {
    /// The Historical scenario (5.7.1.1, 5.7.1.3).
    Historical,
    /// Every scenario but the Historical one (5.7.1.2).
    NotHistorical,
}

/// One space of a set-up.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub space: String,
    #[serde(default)]
    pub units: Vec<String>,
    #[serde(default)]
    pub reduced: Vec<String>,
    #[serde(default)]
    pub trench: u8,
    #[serde(default)]
    pub trench_in: Option<Only>,
}

impl Place {
    /// Whether its trench is dug in this scenario.
    fn trench_here(&self, historical: bool) -> bool {
        self.trench > 0
            && match self.trench_in {
                None => true,
                Some(Only::Historical) => historical,
                Some(Only::NotHistorical) => !historical,
            }
    }
}

/// Units the entering side places, one in each of `count` other spaces of its choice.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choose {
    pub count: u8,
    pub units: Vec<String>,
}

/// What a neutral nation sets up when it enters the war.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub nation: String,
    #[expect(
        dead_code,
        reason = "the file's note of the rule that sets the entry up, for its readers"
    )]
    pub rule: String,
    pub place: Vec<Place>,
    #[serde(default)]
    pub reserve: Vec<String>,
    #[serde(default)]
    pub choose: Option<Choose>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Reserve {
    cp: Vec<String>,
    ap: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupFile {
    about: About,
    place: Vec<Place>,
    reserve: Reserve,
    entry: Vec<Entry>,
}

/// The set-up file, read and checked against the map and the counters.
#[derive(Clone, Debug)]
pub struct Setup {
    #[expect(dead_code, reason = "the file's source and basis, for its readers")]
    pub about: About,
    pub place: Vec<Place>,
    pub reserve_cp: Vec<String>,
    pub reserve_ap: Vec<String>,
    pub entries: Vec<Entry>,
}

impl Setup {
    /// The set-up embedded in the binary.
    pub fn load(data: &Data) -> Result<Setup, DataError> {
        Setup::from_text(SETUP_TOML, data)
    }

    /// Reads and checks a set-up: every space and counter exists, no counter is set up twice,
    /// a counter is set up by its own side (a neutral's by its nation's entry), a reduced one is
    /// among its space's units.
    pub fn from_text(text: &str, data: &Data) -> Result<Setup, DataError> {
        let err = |message: String| DataError {
            file: SETUP_FILE,
            message,
        };
        let f: SetupFile = toml::from_str(text).map_err(|e| err(e.to_string().trim_end().to_string()))?;
        let mut seen: Vec<&str> = Vec::new();
        let mut check_place = |p: &'_ Place, nation: Option<&str>| -> Result<(), DataError> {
            let s = data
                .space(&p.space)
                .ok_or_else(|| err(format!("no space `{}`", p.space)))?;
            if p.trench > 2 {
                return Err(err(format!("{}: a trench is level 1 or 2", p.space)));
            }
            for r in &p.reduced {
                if !p.units.contains(r) {
                    return Err(err(format!("{}: `{r}` is reduced but not set up there", p.space)));
                }
            }
            let faction = data.facts(s).faction;
            for u in &p.units {
                let piece = data
                    .piece(u)
                    .ok_or_else(|| err(format!("{}: no counter `{u}`", p.space)))?;
                if piece.side != faction {
                    return Err(err(format!(
                        "{}: `{u}` is set up in a space of the other side",
                        p.space
                    )));
                }
                if let Some(n) = nation {
                    if piece.nation.code() != n {
                        return Err(err(format!("{}: `{u}` is not of {n}", p.space)));
                    }
                }
                if seen.contains(&u.as_str()) {
                    return Err(err(format!("`{u}` is set up twice")));
                }
                seen.push(piece.id.as_str());
            }
            Ok(())
        };
        for p in &f.place {
            check_place(p, None)?;
        }
        for e in &f.entry {
            for p in &e.place {
                check_place(p, Some(&e.nation))?;
            }
        }
        let mut all_reserve: Vec<(&str, Side)> = f.reserve.cp.iter().map(|u| (u.as_str(), Side::Cp)).collect();
        all_reserve.extend(f.reserve.ap.iter().map(|u| (u.as_str(), Side::Ap)));
        for e in &f.entry {
            if let Some(c) = e.choose.as_ref().filter(|c| usize::from(c.count) != c.units.len()) {
                return Err(err(format!(
                    "entry `{}`: `choose` places {} units, one to a space, not {}",
                    e.nation,
                    c.units.len(),
                    c.count
                )));
            }
            let side = match data
                .map
                .graph
                .space_indices()
                .find(|&s| data.facts(s).nation.as_deref() == Some(&e.nation))
            {
                Some(s) => data.facts(s).faction,
                None => return Err(err(format!("entry `{}`: no space of that nation", e.nation))),
            };
            all_reserve.extend(e.reserve.iter().map(|u| (u.as_str(), side)));
            all_reserve.extend(
                e.choose
                    .iter()
                    .flat_map(|c| c.units.iter().map(move |u| (u.as_str(), side))),
            );
        }
        for (u, side) in all_reserve {
            let piece = data.piece(u).ok_or_else(|| err(format!("no counter `{u}`")))?;
            if piece.side != side {
                return Err(err(format!("`{u}` is in the other side's Reserve Box")));
            }
            if piece.kind != crate::data::Kind::Corps {
                return Err(err(format!("`{u}`: only corps wait in a Reserve Box")));
            }
            if seen.contains(&u) {
                return Err(err(format!("`{u}` is set up twice")));
            }
            seen.push(&piece.id);
        }
        Ok(Setup {
            about: f.about,
            place: f.place,
            reserve_cp: f.reserve.cp,
            reserve_ap: f.reserve.ap,
            entries: f.entry,
        })
    }

    /// The position at the start of a scenario (4.1.1, 4.2): the units on their spaces and in
    /// the Reserve Boxes, every other counter aside; each space controlled by the side whose
    /// units stand in it, else by its printed side unless its nation is neutral; the trenches
    /// (the Historical scenario's, 5.7.1, when `historical`); the forts intact; VP 10, War
    /// Status 0, turn 1; the cards not yet dealt.
    pub fn position(&self, data: &Data, historical: bool) -> Position {
        let mut units = vec![
            Unit {
                loc: Location::Aside,
                full: true,
            };
            data.pieces.len()
        ];
        let index = |id: &str| data.pieces.iter().position(|p| p.id == id);
        let mut spaces: Vec<SpaceState> = data
            .map
            .graph
            .space_indices()
            .map(|s| {
                let f = data.facts(s);
                let neutral = f.nation.as_deref().is_some_and(|n| NEUTRAL_AT_START.contains(&n))
                    || NOBODYS_AT_START.contains(&data.map.graph.space(s).id.as_str());
                let neutral = neutral && !ALLIED_AT_START.contains(&data.map.graph.space(s).id.as_str());
                SpaceState {
                    control: (!neutral).then_some(f.faction),
                    trench: None,
                    fort: if f.fort > 0 { Fort::Intact } else { Fort::None },
                }
            })
            .collect();
        for p in &self.place {
            let Some(s) = data.space(&p.space) else { continue };
            for u in &p.units {
                if let Some(i) = index(u) {
                    units[i] = Unit {
                        loc: Location::Map(s),
                        full: !p.reduced.contains(u),
                    };
                }
            }
            // 11.1.13: a space is controlled by the side whose units occupy it (Basra, a
            // Persian space, is British from the start).
            if let Some(first) = p.units.first().and_then(|u| data.piece(u)) {
                spaces[s.idx()].control = Some(first.side);
            }
            if p.trench_here(historical) {
                spaces[s.idx()].trench = Some(Trench {
                    side: data.facts(s).faction,
                    level: p.trench,
                });
            }
        }
        for u in self.reserve_cp.iter().chain(&self.reserve_ap) {
            if let Some(i) = index(u) {
                units[i].loc = Location::Reserve;
            }
        }
        Position {
            units: units.into(),
            spaces: spaces.into(),
            vp: 10,
            war_status: [0, 0],
            turn: 1,
            neutral: NEUTRAL_AT_START.iter().map(|n| n.to_string()).collect(),
            cards: [Cards::default(), Cards::default()],
            war: Default::default(),
            beachhead: None,
            dig_failed: Vec::new(),
            ordinary_near_east: Vec::new(),
        }
    }

    /// A neutral nation enters the war (9.5.2.1; Turkey with the CP's Limited War, 16.1.3.1):
    /// its units are set up, its corps go to their side's Reserve Box, its spaces become its
    /// side's, its trenches are dug (the Historical ones when `historical`). Turkey brings
    /// Persia (Kermanshah, coded Turkish, to the CP; the rest to the Allies, 2022 11.1.13),
    /// Arabia and Libya with it. Greece's limited entry (Salonika, 9.5.2.4) sets up its units but
    /// leaves Greece neutral. Returns the units the entering side places one to a space of its
    /// choice among the nation's other spaces (Bulgaria, Romania), or `None` for a nation with
    /// no entry or not neutral.
    pub fn enter(
        &self,
        data: &Data,
        pos: &mut Position,
        nation: &str,
        historical: bool,
        limited: bool,
    ) -> Option<Vec<String>> {
        let entry = self.entries.iter().find(|e| e.nation == nation)?;
        if !pos.neutral.iter().any(|n| n == nation) {
            return None;
        }
        let index = |id: &str| data.pieces.iter().position(|p| p.id == id);
        for p in &entry.place {
            let Some(s) = data.space(&p.space) else { continue };
            for u in &p.units {
                if let Some(i) = index(u) {
                    pos.units[i].loc = Location::Map(s);
                    pos.units[i].full = !p.reduced.contains(u);
                }
            }
            if p.trench_here(historical) {
                pos.spaces[s.idx()].trench = Some(Trench {
                    side: data.facts(s).faction,
                    level: p.trench,
                });
            }
        }
        for u in &entry.reserve {
            if let Some(i) = index(u) {
                pos.units[i].loc = Location::Reserve;
            }
        }
        if limited {
            return Some(Vec::new());
        }
        // With Turkey come Persia, Arabia and Libya.
        let mut countries = vec![nation.to_string()];
        if nation == "tu" {
            countries.extend(["pe", "ar"].map(String::from));
        }
        pos.neutral.retain(|n| !countries.contains(n));
        for s in data.map.graph.space_indices() {
            let f = data.facts(s);
            let id = data.map.graph.space(s).id.as_str();
            let of_it = f.nation.as_ref().is_some_and(|n| countries.contains(n)) || (nation == "tu" && id == "libya");
            if of_it && pos.space(s).control.is_none() {
                pos.spaces[s.idx()].control = Some(f.faction);
            }
        }
        Some(entry.choose.as_ref().map(|c| c.units.clone()).unwrap_or_default())
    }

    /// The spaces a unit of a nation's entry placed by choice may go to: the nation's spaces
    /// other than those its set-up fills, with no unit in them yet.
    pub fn choice_spaces(&self, data: &Data, pos: &Position, nation: &str) -> Vec<Space> {
        let Some(entry) = self.entries.iter().find(|e| e.nation == nation) else {
            return Vec::new();
        };
        data.map
            .graph
            .space_indices()
            .filter(|&s| {
                data.facts(s).nation.as_deref() == Some(nation)
                    && !entry.place.iter().any(|p| data.space(&p.space) == Some(s))
                    && pos.units_in(s).next().is_none()
            })
            .collect()
    }
}

//! The game's data files, loaded and checked once: the map (`data/map.toml`, the core's
//! point-to-point format), the counters (`data/pieces.toml`) and the strategy cards
//! (`data/cards.toml`). The files are embedded in the binary; `data/README.md` says what each
//! holds and where it comes from.
//!
//! Loading refuses bad data with a message naming the file, the line and what is wrong (an
//! unknown space, a piece id used twice, a card number out of range, a reinforcement naming no
//! counter); it never panics.

use sandtable_core::graph::Space;
use sandtable_core::map::About;
use sandtable_core::space_map::SpaceMap;
use sandtable_core::text::Lines;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use toml::Spanned;

pub const MAP_TOML: &str = include_str!("../data/map.toml");
pub const PIECES_TOML: &str = include_str!("../data/pieces.toml");
pub const CARDS_TOML: &str = include_str!("../data/cards.toml");

/// Why a data file was refused: the file and, in the message, the line and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    pub file: &'static str,
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for DataError {}

/// The two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The Allied Powers (协约国).
    Ap,
    /// The Central Powers (同盟国).
    Cp,
}

/// The nationality printed on a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Nation {
    Ge,
    Ah,
    Tu,
    Bu,
    /// The Senussi corps.
    Sn,
    Fr,
    /// British, with the BEF, AUS, CND and PT counters.
    Br,
    /// The Arab Northern Army corps.
    Ana,
    Us,
    Ru,
    It,
    Be,
    Sb,
    Mn,
    Ro,
    Gr,
}

impl Nation {
    /// The nation's name in both languages, for what players read.
    pub fn name(self) -> sandtable_core::text::Text {
        let (en, zh) = match self {
            Nation::Ge => ("Germany", "德国"),
            Nation::Ah => ("Austria-Hungary", "奥匈"),
            Nation::Tu => ("Turkey", "土耳其"),
            Nation::Bu => ("Bulgaria", "保加利亚"),
            Nation::Sn => ("the Senussi", "赛努西"),
            Nation::Fr => ("France", "法国"),
            Nation::Br => ("Britain", "英国"),
            Nation::Ana => ("the Arab Northern Army", "阿拉伯北方军"),
            Nation::Us => ("the United States", "美国"),
            Nation::Ru => ("Russia", "俄国"),
            Nation::It => ("Italy", "意大利"),
            Nation::Be => ("Belgium", "比利时"),
            Nation::Sb => ("Serbia", "塞尔维亚"),
            Nation::Mn => ("Montenegro", "黑山"),
            Nation::Ro => ("Romania", "罗马尼亚"),
            Nation::Gr => ("Greece", "希腊"),
        };
        sandtable_core::text::Text::new(en, zh)
    }

    /// Every nation, in order.
    pub const ALL: [Nation; 16] = [
        Nation::Ge,
        Nation::Ah,
        Nation::Tu,
        Nation::Bu,
        Nation::Sn,
        Nation::Fr,
        Nation::Br,
        Nation::Ana,
        Nation::Us,
        Nation::Ru,
        Nation::It,
        Nation::Be,
        Nation::Sb,
        Nation::Mn,
        Nation::Ro,
        Nation::Gr,
    ];

    /// The nation of a code (`it`), if it is one.
    pub fn of_code(code: &str) -> Option<Nation> {
        Nation::ALL.into_iter().find(|n| n.code() == code)
    }

    /// The code the data files use.
    pub fn code(self) -> &'static str {
        match self {
            Nation::Ge => "ge",
            Nation::Ah => "ah",
            Nation::Tu => "tu",
            Nation::Bu => "bu",
            Nation::Sn => "sn",
            Nation::Fr => "fr",
            Nation::Br => "br",
            Nation::Ana => "ana",
            Nation::Us => "us",
            Nation::Ru => "ru",
            Nation::It => "it",
            Nation::Be => "be",
            Nation::Sb => "sb",
            Nation::Mn => "mn",
            Nation::Ro => "ro",
            Nation::Gr => "gr",
        }
    }
}

/// Army or corps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Army,
    Corps,
}

/// One side of a counter: combat, loss and movement factors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Factors {
    pub cf: u8,
    pub lf: u8,
    pub mf: u8,
}

/// Which replacement points rebuild a counter (17.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RpPool {
    Ge,
    Ah,
    Tu,
    Bu,
    Fr,
    Br,
    Us,
    Ru,
    It,
    /// The Allied "A" points of the minor Allies (17.1.1.1).
    Allied,
}

/// A counter.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    pub id: String,
    pub side: Side,
    pub nation: Nation,
    /// The nationality it counts as for activation and multinational attacks, if not its own.
    #[serde(default)]
    pub activates_as: Option<Nation>,
    /// The nationality it counts as on a dashed line, if not its own.
    #[serde(default)]
    pub lines_as: Option<Nation>,
    pub kind: Kind,
    /// The printed designation ("1 Army", "BR Corps"); identical corps share it.
    pub label: String,
    pub name_en: String,
    pub name_zh: String,
    pub full: Factors,
    pub reduced: Factors,
    /// A dotted counter: never rebuilt, out of the game when eliminated.
    #[serde(default)]
    pub not_replaceable: bool,
    /// May enter and attack on the Near East map (11.3.1); corps carry no flag.
    #[serde(default)]
    pub near_east: bool,
    /// The replacement points that rebuild it; none for a counter never rebuilt.
    #[serde(default)]
    pub rp: Option<RpPool>,
    /// What a redeployment reads of the counter itself, worked out at load (13.1, 13.2: its
    /// side, nationality, kind, dashed lines, MEF beach, whether 13.2.1 names it, its Near East
    /// flag), packed by [`crate::redeployment::fixed_class`].
    #[serde(skip)]
    pub(crate) sr_fixed: u16,
    /// Whether it traces supply through an MEF beach holding the Beachhead marker (9.5.3.5),
    /// worked out at load by [`crate::supply::traces_by_beach`].
    #[serde(skip)]
    pub(crate) beach: bool,
}

impl Piece {
    /// A British counter proper: not the AUS, CND or PT corps, British otherwise (2022 7.1.4
    /// "AUS, CND, PT and ANA are not British for MOs", and for Lloyd George).
    pub fn british_proper(&self) -> bool {
        self.nation == Nation::Br && !["br-corps-aus", "br-corps-cnd", "br-corps-pt"].contains(&self.id.as_str())
    }

    /// The nationality for activation and multinational attacks.
    pub fn activation_nation(&self) -> Nation {
        self.activates_as.unwrap_or(self.nation)
    }

    /// The nationality a dashed line must allow for this counter to use it.
    pub fn line_nation(&self) -> Nation {
        self.lines_as.unwrap_or(self.nation)
    }
}

/// The group of a side's deck a card belongs to, entering with the war commitment (16.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Deck {
    Mobilization,
    Limited,
    Total,
}

/// A card's replacement point box (9.4.1): points per nationality, `a` for the Allied minors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RpBox {
    #[serde(default)]
    pub a: u8,
    #[serde(default)]
    pub br: u8,
    #[serde(default)]
    pub fr: u8,
    #[serde(default)]
    pub it: u8,
    #[serde(default)]
    pub ru: u8,
    #[serde(default)]
    pub ah: u8,
    #[serde(default)]
    pub bu: u8,
    #[serde(default)]
    pub ge: u8,
    #[serde(default)]
    pub tu: u8,
}

/// The counters a reinforcement event brings (9.5.3): the nation's reinforcement slot and the
/// printed designations of the units.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reinforcements {
    pub nation: Nation,
    pub units: Vec<String>,
    /// For each of `units`, the counters of the card's side that bear that designation and
    /// belong to the nation (or activate as it), in data order: found once, as the cards are read.
    #[serde(skip)]
    pub counters: Vec<Vec<u16>>,
}

/// A strategy card. No event text: that is written apart, in our own words.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub id: String,
    pub side: Side,
    /// The number printed on the card, 1–65 within its side's deck.
    pub number: u8,
    pub deck: Deck,
    /// One of the optional cards, 56–65.
    #[serde(default)]
    pub optional: bool,
    pub name_en: String,
    pub name_zh: String,
    pub ops: u8,
    pub sr: u8,
    /// The `*`: out of the game once played as an event (9.5.1.2).
    #[serde(default)]
    pub remove: bool,
    /// A combat card (9.5.4).
    #[serde(default)]
    pub combat: bool,
    /// The War Status number (9.5.1.3); 0 if none.
    #[serde(default)]
    pub ws: u8,
    pub rp: RpBox,
    #[serde(default)]
    pub reinforcements: Option<Reinforcements>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PiecesFile {
    about: About,
    #[serde(rename = "piece")]
    pieces: Vec<Spanned<Piece>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardsFile {
    about: About,
    #[serde(rename = "card")]
    cards: Vec<Spanned<Card>>,
}

/// What the map says of one space, read once from its flags and properties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpaceFacts {
    /// The country code (`fr`, `tu`, `pe`, …); none for the MEF beaches and the boxes.
    pub nation: Option<String>,
    /// The side that controls it at start, or when its nation enters the war; owns its fort.
    pub faction: Side,
    /// The fort value (its CF and LF), 0 if none.
    pub fort: u8,
    pub vp: bool,
    pub capital: bool,
    /// A supply symbol; who may draw on it is in the `supply-*` space sets (14.2).
    pub supply_source: bool,
    /// A port the Allies may use.
    pub port_ap: bool,
    /// A port the Central Powers may use.
    pub port_cp: bool,
    /// In the Near East section (11.3), Constantinople and Bursa included.
    pub near_east: bool,
    /// One of the four off-map holding boxes (no connections).
    pub is_box: bool,
}

/// The connection features of the map legend, as masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineMasks {
    pub only_br: u32,
    pub only_it: u32,
    pub only_ru: u32,
    pub mef_beach: u32,
    pub only_ana: u32,
    pub only_tu: u32,
}

impl LineMasks {
    /// Every restriction: a connection with any of these bits is a dashed line.
    pub fn dashed(&self) -> u32 {
        self.only_br | self.only_it | self.only_ru | self.mef_beach | self.only_ana | self.only_tu
    }

    /// The bit a nationality needs on a dashed line, 0 if it has none of its own.
    pub fn for_nation(&self, n: Nation) -> u32 {
        match n {
            Nation::Br => self.only_br,
            Nation::It => self.only_it,
            Nation::Ru => self.only_ru,
            Nation::Ana => self.only_ana,
            Nation::Tu => self.only_tu,
            _ => 0,
        }
    }
}

/// All the game's data.
#[derive(Clone, Debug)]
pub struct Data {
    pub map: SpaceMap,
    /// Per space, in map order.
    pub spaces: Vec<SpaceFacts>,
    pub lines: LineMasks,
    pub pieces_about: About,
    pub pieces: Vec<Piece>,
    pub cards_about: About,
    pub cards: Vec<Card>,
    /// Per space, the supply-source sets of the map it belongs to (14.2), one bit each in the
    /// order of [`SUPPLY_SETS`]: what a supply trace asks of every space it enters.
    pub supply_sets: Vec<u8>,
    /// The spaces with a fort printed (15.1), in map order.
    pub forts: Vec<Space>,
    /// The spaces printed as a capital, in map order.
    pub capitals: Vec<Space>,
    /// The Arab Northern Army's counter (11.1.14), if the counter mix has it.
    pub ana: Option<usize>,
    /// Per nation (by its order in [`Nation`]), the spaces of its own printed as a capital or a
    /// supply source, in map order: where its armies enter (9.5.3.3).
    homes: Vec<Vec<Space>>,
    /// Per nation (by its order in [`Nation`]), its spaces printed as a capital, in map order.
    capitals_of: Vec<Vec<Space>>,
    /// The spaces in some set of supply sources (a bit of [`Data::supply_sets`]), in map order.
    pub sources: Vec<Space>,
    /// Per side (by [`crate::state::side_index`]), the spaces printed as its kind of port
    /// (14.1.4), in map order.
    pub ports: [Vec<Space>; 2],
    /// Per side (by [`crate::state::side_index`]), per printed number, where the card stands in
    /// [`Data::cards`] (one more than its index; 0 for no card): [`Data::card`] without a search.
    card_at: [Vec<u16>; 2],
}

/// The map's sets of supply sources (14.2), in the order of [`Data::supply_sets`]' bits.
pub const SUPPLY_SETS: [&str; 4] = ["supply-cp", "supply-ru-sb-ro", "supply-sb-salonika", "supply-ap-other"];

fn toml_error(file: &'static str, e: toml::de::Error) -> DataError {
    // The reader's message names the line and column.
    DataError {
        file,
        message: e.to_string().trim_end().to_string(),
    }
}

impl Data {
    /// A nation's own spaces printed as a capital or a supply source, in map order (9.5.3.3).
    pub fn homes(&self, n: Nation) -> &[Space] {
        self.homes.get(n as usize).map_or(&[], Vec::as_slice)
    }

    /// A nation's own spaces printed as a capital, in map order.
    pub fn capitals_of(&self, n: Nation) -> &[Space] {
        self.capitals_of.get(n as usize).map_or(&[], Vec::as_slice)
    }

    /// The data embedded in the binary.
    pub fn load() -> Result<Data, DataError> {
        Data::from_texts(MAP_TOML, PIECES_TOML, CARDS_TOML)
    }

    /// Reads and checks the three files from their texts.
    pub fn from_texts(map: &str, pieces: &str, cards: &str) -> Result<Data, DataError> {
        let (map, spaces, lines) = load_map(map)?;
        let (pieces_about, mut pieces) = load_pieces(pieces)?;
        for p in &mut pieces {
            p.beach = crate::supply::traces_by_beach(p);
            p.sr_fixed = crate::redeployment::fixed_class(p);
        }
        let (cards_about, cards) = load_cards(cards, &pieces)?;
        let mut supply_sets = vec![0u8; map.graph.len()];
        for (bit, name) in SUPPLY_SETS.iter().enumerate() {
            for s in map.space_set(name) {
                if let Some(b) = supply_sets.get_mut(s.idx()) {
                    *b |= 1 << bit;
                }
            }
        }
        let forts = map.graph.space_indices().filter(|s| spaces[s.idx()].fort > 0).collect();
        let capitals = map.graph.space_indices().filter(|s| spaces[s.idx()].capital).collect();
        let ana = pieces.iter().position(|p| p.nation == Nation::Ana);
        let (mut homes, mut capitals_of) = (vec![Vec::new(); Nation::ALL.len()], vec![Vec::new(); Nation::ALL.len()]);
        for s in map.graph.space_indices() {
            let f = &spaces[s.idx()];
            let Some(n) = f.nation.as_deref().and_then(Nation::of_code) else {
                continue;
            };
            if let (true, Some(h)) = (f.capital || f.supply_source, homes.get_mut(n as usize)) {
                h.push(s);
            }
            if let (true, Some(c)) = (f.capital, capitals_of.get_mut(n as usize)) {
                c.push(s);
            }
        }
        let sources = map
            .graph
            .space_indices()
            .filter(|s| supply_sets[s.idx()] != 0)
            .collect();
        let ports = [
            map.graph.space_indices().filter(|s| spaces[s.idx()].port_cp).collect(),
            map.graph.space_indices().filter(|s| spaces[s.idx()].port_ap).collect(),
        ];
        let mut card_at = [Vec::new(), Vec::new()];
        for (i, c) in cards.iter().enumerate() {
            let at = &mut card_at[crate::state::side_index(c.side)];
            let n = c.number as usize;
            if at.len() <= n {
                at.resize(n + 1, 0);
            }
            // The first card of a number, as a search in order finds it.
            if at[n] == 0 {
                at[n] = u16::try_from(i + 1).unwrap_or(0);
            }
        }
        Ok(Data {
            card_at,
            homes,
            capitals_of,
            sources,
            ports,
            supply_sets,
            forts,
            capitals,
            ana,
            map,
            spaces,
            lines,
            pieces_about,
            pieces,
            cards_about,
            cards,
        })
    }

    /// The space with a given id.
    pub fn space(&self, id: &str) -> Option<Space> {
        self.map.find(id)
    }

    /// What the map says of a space.
    pub fn facts(&self, s: Space) -> &SpaceFacts {
        &self.spaces[s.idx()]
    }

    /// The card of a side with a printed number.
    pub fn card(&self, side: Side, number: u8) -> Option<&Card> {
        let at = self.card_at[crate::state::side_index(side)]
            .get(number as usize)
            .copied()
            .unwrap_or(0);
        match at.checked_sub(1).and_then(|i| self.cards.get(i as usize)) {
            Some(c) if c.side == side && c.number == number => Some(c),
            // No card of that number (or the list changed since it was read): searched for.
            _ => self.cards.iter().find(|c| c.side == side && c.number == number),
        }
    }

    /// The counter with a given id.
    pub fn piece(&self, id: &str) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.id == id)
    }
}

const MAP_FILE: &str = "data/map.toml";
const PIECES_FILE: &str = "data/pieces.toml";
const CARDS_FILE: &str = "data/cards.toml";

fn load_map(text: &str) -> Result<(SpaceMap, Vec<SpaceFacts>, LineMasks), DataError> {
    let err = |message: String| DataError {
        file: MAP_FILE,
        message,
    };
    let map = SpaceMap::from_toml(text).map_err(|e| err(e.0))?;
    // The line of each space entry, for the checks below.
    let line_of = |id: &str| {
        let needle = format!("id = \"{id}\"");
        text.find(&needle).map_or(0, |at| Lines::new(text).at(at))
    };
    let mut masks = [0u32; 6];
    for (mask, name) in masks
        .iter_mut()
        .zip(["only-br", "only-it", "only-ru", "mef-beach", "only-ana", "only-tu"])
    {
        *mask = map.feature_mask(name);
        if *mask == 0 {
            return Err(err(format!("the legend lacks the connection feature `{name}`")));
        }
    }
    let lines = LineMasks {
        only_br: masks[0],
        only_it: masks[1],
        only_ru: masks[2],
        mef_beach: masks[3],
        only_ana: masks[4],
        only_tu: masks[5],
    };
    const FLAGS: [&str; 5] = ["supply-source", "port-ap", "port-cp", "capital", "vp"];
    let mut spaces = Vec::with_capacity(map.graph.len());
    for s in map.graph.space_indices() {
        let id = &map.graph.space(s).id;
        let what = |m: &str| err(format!("line {}: space `{id}`: {m}", line_of(id)));
        if let Some(f) = map.flags(s).iter().find(|f| !FLAGS.contains(&f.as_str())) {
            return Err(what(&format!("unknown flag `{f}`")));
        }
        let faction = match map.text(s, "faction") {
            Some("ap") => Side::Ap,
            Some("cp") => Side::Cp,
            _ => return Err(what("faction must be \"ap\" or \"cp\"")),
        };
        let where_ = map.text(s, "map");
        if !matches!(where_, Some("europe" | "near-east" | "box")) {
            return Err(what("map must be \"europe\", \"near-east\" or \"box\""));
        }
        let fort = match map.property(s, "fort") {
            None => 0,
            Some(_) => match map.number(s, "fort") {
                Some(n @ 1..=3) => n as u8,
                _ => return Err(what("fort must be 1, 2 or 3")),
            },
        };
        let vp = map.has_flag(s, "vp");
        if vp != (map.number(s, "vp") == Some(1)) {
            return Err(what("the `vp` flag and the property vp = 1 must go together"));
        }
        let nation = match map.property(s, "nation") {
            None => None,
            Some(_) => Some(
                map.text(s, "nation")
                    .ok_or_else(|| what("nation must be a text"))?
                    .to_string(),
            ),
        };
        spaces.push(SpaceFacts {
            nation,
            faction,
            fort,
            vp,
            capital: map.has_flag(s, "capital"),
            supply_source: map.has_flag(s, "supply-source"),
            port_ap: map.has_flag(s, "port-ap"),
            port_cp: map.has_flag(s, "port-cp"),
            near_east: where_ == Some("near-east"),
            is_box: where_ == Some("box"),
        });
    }
    for (s, f) in map.graph.space_indices().zip(&spaces) {
        if f.is_box && !map.graph.exits(s).is_empty() {
            let id = &map.graph.space(s).id;
            return Err(err(format!("line {}: the box `{id}` has connections", line_of(id))));
        }
    }
    Ok((map, spaces, lines))
}

fn load_pieces(text: &str) -> Result<(About, Vec<Piece>), DataError> {
    let err = |at: usize, m: String| DataError {
        file: PIECES_FILE,
        message: format!("line {at}: {m}"),
    };
    let file: PiecesFile = toml::from_str(text).map_err(|e| toml_error(PIECES_FILE, e))?;
    let mut first: BTreeMap<String, usize> = BTreeMap::new();
    let mut pieces = Vec::with_capacity(file.pieces.len());
    let lines = Lines::new(text);
    for entry in file.pieces {
        let at = lines.at(entry.span().start);
        let p = entry.into_inner();
        if p.id.trim().is_empty() {
            return Err(err(at, "a piece with an empty id".into()));
        }
        if let Some(line) = first.insert(p.id.clone(), at) {
            return Err(err(
                at,
                format!("piece `{}`: the id is taken by the piece on line {line}", p.id),
            ));
        }
        if p.name_en.trim().is_empty() || p.name_zh.trim().is_empty() {
            return Err(err(at, format!("piece `{}`: a name is empty", p.id)));
        }
        if p.full.lf == 0 || p.reduced.lf == 0 {
            return Err(err(at, format!("piece `{}`: a loss factor of 0", p.id)));
        }
        if p.reduced.cf > p.full.cf || p.reduced.mf > p.full.mf {
            return Err(err(
                at,
                format!("piece `{}`: the reduced side is stronger than the full side", p.id),
            ));
        }
        let cp = matches!(p.nation, Nation::Ge | Nation::Ah | Nation::Tu | Nation::Bu | Nation::Sn);
        if cp != (p.side == Side::Cp) {
            return Err(err(
                at,
                format!("piece `{}`: nation `{}` is not of its side", p.id, p.nation.code()),
            ));
        }
        pieces.push(p);
    }
    Ok((file.about, pieces))
}

fn load_cards(text: &str, pieces: &[Piece]) -> Result<(About, Vec<Card>), DataError> {
    let err = |at: usize, m: String| DataError {
        file: CARDS_FILE,
        message: format!("line {at}: {m}"),
    };
    let file: CardsFile = toml::from_str(text).map_err(|e| toml_error(CARDS_FILE, e))?;
    let mut first: BTreeMap<(Side, u8), usize> = BTreeMap::new();
    let mut ids: BTreeMap<String, usize> = BTreeMap::new();
    let mut cards = Vec::with_capacity(file.cards.len());
    let lines = Lines::new(text);
    for entry in file.cards {
        let at = lines.at(entry.span().start);
        let c = entry.into_inner();
        let what = format!("card `{}`", c.id);
        if let Some(line) = ids.insert(c.id.clone(), at) {
            return Err(err(at, format!("{what}: the id is taken by the card on line {line}")));
        }
        if !(1..=65).contains(&c.number) {
            return Err(err(at, format!("{what}: number {} is not 1–65", c.number)));
        }
        if let Some(line) = first.insert((c.side, c.number), at) {
            return Err(err(
                at,
                format!("{what}: number {} of its side is taken on line {line}", c.number),
            ));
        }
        if c.optional != (c.number >= 56) {
            return Err(err(at, format!("{what}: the optional cards are 56–65")));
        }
        if !matches!((c.ops, c.sr), (2, 2) | (3, 4) | (4, 4) | (5, 5)) {
            return Err(err(
                at,
                format!("{what}: OPS/SR {}/{} is not 2/2, 3/4, 4/4 or 5/5", c.ops, c.sr),
            ));
        }
        if c.name_en.trim().is_empty() || c.name_zh.trim().is_empty() {
            return Err(err(at, format!("{what}: a name is empty")));
        }
        let mut c = c;
        let side = c.side;
        if let Some(r) = &mut c.reinforcements {
            if r.units.is_empty() {
                return Err(err(at, format!("{what}: reinforcements with no units")));
            }
            let mut counters = Vec::with_capacity(r.units.len());
            for u in &r.units {
                let labelled: Vec<u16> = pieces
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| {
                        p.side == side && &p.label == u && (p.nation == r.nation || p.activates_as == Some(r.nation))
                    })
                    .map(|(i, _)| i as u16)
                    .collect();
                if labelled.is_empty() {
                    return Err(err(
                        at,
                        format!("{what}: no {} counter is labelled `{u}`", r.nation.code()),
                    ));
                }
                counters.push(labelled);
            }
            r.counters = counters;
        }
        cards.push(c);
    }
    Ok((file.about, cards))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Data::homes`] is indexed by a nation's order, which [`Nation::ALL`] must keep.
    #[test]
    fn every_nation_stands_at_its_order_in_all() {
        for (i, n) in Nation::ALL.into_iter().enumerate() {
            assert_eq!(n as usize, i, "{n:?}");
        }
    }

    /// [`Data::card`] from its index finds, for every side and number, the card a search of the
    /// list in order finds, and none where there is none.
    #[test]
    fn a_card_found_by_its_number_is_the_one_the_list_holds() {
        let data = Data::load().unwrap_or_else(|e| panic!("{e}"));
        let mut found = 0;
        for side in [Side::Ap, Side::Cp] {
            for n in 0..=u8::MAX {
                let searched = data.cards.iter().find(|c| c.side == side && c.number == n);
                assert_eq!(
                    data.card(side, n).map(|c| c as *const Card),
                    searched.map(|c| c as *const Card),
                    "{side:?} #{n}"
                );
                found += usize::from(searched.is_some());
            }
        }
        assert_eq!(found, data.cards.len(), "every card is found by its side and number");
        // Found by the index, not by the search it falls back on.
        for (i, c) in data.cards.iter().enumerate() {
            let at = data.card_at[crate::state::side_index(c.side)].get(c.number as usize);
            assert_eq!(at.copied(), Some(i as u16 + 1), "{:?} #{}", c.side, c.number);
        }
    }

    #[test]
    fn lines_count_from_one() {
        assert_eq!(Lines::new("a\nb\nc").at(0), 1);
        assert_eq!(Lines::new("a\nb\nc").at(2), 2);
        assert_eq!(Lines::new("a\nb\nc").at(99), 3);
    }
}

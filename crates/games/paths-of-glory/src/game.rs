//! The game on the core's decision driver: its state, its procedure frames, its actions, and
//! what each seat may know. The rules themselves live in their sections' modules; the
//! sequence of play (6.0) in `sequence`, the action round's card plays (8.0, 9.0) in
//! `round`, operations (9.2, 11.0, 12.0) in `operations`. This module only
//! dispatches on the frame.

use crate::data::{Data, Side};
use crate::losses::{Losses, Target};
use crate::offensives::Offensive;
use crate::replacements::Purchase;
use crate::setup::Setup;
use crate::state::{side_index, Location, Position};
use crate::tables::Tables;
use sandtable_core::chance::Rng;
use sandtable_core::checksum::StateHasher;
use sandtable_core::driver::{Engine, Rules, Who};
use sandtable_core::game::{Journal, JournalLine, Mark, Outcome, Refusal, ScenarioInfo, Seat, SeatInfo, SetupError};
use sandtable_core::graph::Space;
use sandtable_core::text::{Lang, Text};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The Central Powers' seat, but in a tournament game, where the players bid for their sides
/// (5.6.1; [`PathsOfGlory::seat_of`]); they act first in every round (8.1.2).
pub const CP: Seat = 0;
/// The Allies' seat, but in a tournament game ([`PathsOfGlory::seat_of`]).
pub const AP: Seat = 1;

/// The other side.
pub fn other(side: Side) -> Side {
    match side {
        Side::Cp => Side::Ap,
        Side::Ap => Side::Cp,
    }
}

/// The game's data, tables and set-up, loaded once from the files built into the program.
pub(crate) struct Shipped {
    pub data: Data,
    pub tables: Tables,
    pub setup: Setup,
    /// The set-up's position ([`Setup::position`]) as every game begins it: the other
    /// scenarios' and the Historical scenario's, each made at the first game that asks.
    starts: [OnceLock<crate::state::Position>; 2],
}

impl Shipped {
    /// [`Setup::position`] of the shipped data, for the Historical scenario or the others.
    pub(crate) fn start(&self, historical: bool) -> crate::state::Position {
        self.starts[usize::from(historical)]
            .get_or_init(|| self.setup.position(&self.data, historical))
            .clone()
    }
}

pub(crate) fn shipped() -> Result<&'static Shipped, SetupError> {
    static S: OnceLock<Result<Shipped, String>> = OnceLock::new();
    S.get_or_init(|| {
        let data = Data::load().map_err(|e| e.to_string())?;
        let tables = Tables::load().map_err(|e| e.to_string())?;
        let setup = Setup::load(&data).map_err(|e| e.to_string())?;
        Ok(Shipped {
            data,
            tables,
            setup,
            starts: Default::default(),
        })
    })
    .as_ref()
    .map_err(|e| SetupError(format!("paths-of-glory: {e}")))
}

/// The scenario being played (5.3–5.7).
#[derive(Clone, Debug, Serialize)]
pub struct Scenario {
    pub id: String,
    /// 5.7: the Historical scenario's rules.
    pub historical: bool,
    /// 5.3.2: no commitment rises, no peace terms.
    pub introductory: bool,
    /// 5.4.1: the game ends when either side reaches Total War.
    pub limited_war: bool,
    pub last_turn: u8,
    /// 9.1.4, 5.7.4.1: 8 in the Historical scenario, else 7.
    pub hand_size: usize,
    // Events that place units or markers (crate::events::arrivals):
    /// The data edition the game began on (1 to 7; [`Rules::DATA_EDITION`] says what each
    /// changed): edition 1 games, begun before 5.7.4.3
    /// was enforced, keep the CP's Historical opening free; games begun before edition 3 do
    /// without 12.1.1's and 12.5.6's limits on units that retreated this action; games begun
    /// before edition 4 eliminate a retreat cut short in place (2022 12.5.4, 12.7.4); so that
    /// their records replay.
    pub edition: u8,
    /// 5.6: a tournament game: the bid settled at the start, a draw an Allied win (5.6.3),
    /// accepted peace terms a loss for both (5.6.4). Not written unless so.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub tournament: bool,
    /// 5.6.2: the VP the bid adds to the total at the end (positive to the CP), once settled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bid: Option<i8>,
    /// 5.6.1: the seat playing the CP, [`CP`] but where a tournament's bid gave the CP to the
    /// other player. Not written unless so.
    #[serde(skip_serializing_if = "is_cp_seat")]
    pub cp_seat: Seat,
    /// The optional cards (#56–#65 of each side) are dealt with their groups, and the hands
    /// hold 8 (supplement 6.16). Not written unless so.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub optional_cards: bool,
    /// Each side picks in secret which optional cards to put in, each in place of a basic card
    /// (supplement 6.16, `optional_cards`); 7-card hands. Not written unless so.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub picked_cards: bool,
}

fn is_cp_seat(seat: &Seat) -> bool {
    *seat == CP
}

/// The four uses of a card in an action round (9.1.3), and the action round's other choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Use {
    Ops,
    Sr,
    Rp,
    Event,
}

/// One decision, or one outcome of chance. Units are counter indices, spaces map indices, cards
/// their printed numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "do")]
pub enum Action {
    /// A die's face (MO, flank, fire, siege).
    Die {
        face: u8,
    },
    /// Chance deals a card from a side's draw pile.
    Draw {
        card: u8,
    },
    /// 4.3: the CP starts with Guns of August in its hand, or not.
    GunsOfAugust {
        keep: bool,
    },
    /// Supplement 6.16: an optional card left out of the deck.
    LeaveOut {
        card: u8,
    },
    /// Supplement 6.16: an optional card put in the deck, taking out the basic card `instead`.
    PutIn {
        card: u8,
        instead: u8,
    },
    /// 8.1.3: play a card from the hand for one of its uses.
    Play {
        card: u8,
        with: Use,
    },
    /// 8.1.3: an Automatic Operation of 1 OPS, playing no card.
    AutomaticOps,
    /// 5.6.1 (2022): bid for a side in a tournament: play `side`, giving the other side `vp` VP
    /// at the end of the game.
    Bid {
        side: Side,
        vp: u8,
    },
    /// 5.6.1: accept the bid on the table, and play the side the other player bid for not.
    AcceptBid,
    /// 9.2.5: activate a space for movement or for combat.
    Activate {
        space: Space,
        combat: bool,
    },
    /// 9.2.8: no more spaces to activate.
    EndActivation,
    /// 11.1: units of one space move together to a space, along the cheapest route.
    Move {
        from: Space,
        units: Vec<u16>,
        to: Space,
    },
    EndMovement,
    /// 11.1: units of one space begin a move walked space by space.
    Begin {
        from: Space,
        units: Vec<u16>,
    },
    /// 11.1: the moving units step into an adjacent space.
    Step {
        to: Space,
    },
    /// 11.1: the moving units end their move where they stand.
    Halt,
    /// 12.1.3: a combat against a space.
    Target {
        space: Space,
    },
    EndCombat,
    /// 12.2.2: a unit joins the combat being designated.
    Join {
        unit: u16,
    },
    /// 12.2.2: the attackers are designated; on to the combat.
    Resolve,
    /// 12.2.4, 12.3.2: attempt a flank attack with this space pinning, or not (`None`).
    Flank {
        pinning: Option<Space>,
    },
    /// 12.2.5: play a combat card, from the hand or held face up (9.5.4).
    CombatCard {
        card: u8,
    },
    /// 12.2.5: no (more) combat cards in this step.
    EndCombatCards,
    /// 12.4: one step of losses.
    Lose {
        target: LossTarget,
    },
    /// 12.5.3: a defender in a trench or in ground that allows it takes one more step, and the
    /// retreat is cancelled.
    StandFast {
        unit: u16,
    },
    /// 12.5: a defending unit retreats along a route (the spaces after the defending one).
    Retreat {
        unit: u16,
        route: Vec<Space>,
    },
    /// 12.7: an attacking unit advances along a route.
    Advance {
        unit: u16,
        route: Vec<Space>,
    },
    EndAdvance,
    /// 13.1: a unit to redeploy.
    Redeploy {
        unit: u16,
    },
    /// 13.1: where it goes.
    RedeployTo {
        place: SrPlace,
    },
    EndRedeployment,
    /// 17.1.4: a purchase of the Replacement Cost table.
    Buy {
        purchase: Buy,
    },
    EndReplacement,
    /// 9.5.3.3: where a reinforcing army enters.
    Place {
        space: Space,
    },
    /// 9.5.4.6: a combat card discarded before drawing.
    Discard {
        card: u8,
    },
    EndDiscard,
    // Events of the war at large (events::war).
    /// CP #63 Russian Desertions: a Russian unit to reduce, or `None` to stop.
    Reduce {
        unit: Option<u16>,
    },
    /// 8.1.3, 16.5.1: offer peace terms, the whole action.
    OfferPeace,
    /// 16.5.2: the other side accepts the peace terms offered, or refuses them.
    AnswerPeace {
        accept: bool,
    },
    /// Great Retreat (AP #27): the Russian defenders fall back a space before the combat, or
    /// stand and fight.
    GreatRetreat {
        retreat: bool,
    },
    // Events that place units or markers (crate::events::arrivals) and trenches (11.2):
    /// 11.2.1: an army of a space activated for movement digs instead of moving.
    Dig {
        unit: u16,
    },
    /// An event's loss the player chooses (CP #32 War in Africa): a unit removed from the game,
    /// or (`None`) the VP instead.
    Concede {
        unit: Option<u16>,
    },
}

/// Where a loss step is taken (12.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LossTarget {
    /// A counter.
    Unit(u16),
    /// A corps that came from the Reserve Box to replace an army in this combat: its index in
    /// the losses' list.
    Stand(u16),
    /// The defending space's fort (12.4.6).
    Fort,
}

/// A place a unit redeploys to (13.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SrPlace {
    Space(Space),
    Reserve,
}

/// A replacement purchase (17.1.4), as an action names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Buy {
    FlipArmy(u16),
    FlipCorps(u16, Option<u16>),
    CorpsFull(u16),
    CorpsReduced(u16, Option<u16>),
    FlipCorpsAndCorpsReduced(u16, u16),
    ArmyReduced(u16, Space),
    ArmyFull(u16, Space),
}

impl Buy {
    pub(crate) fn purchase(self) -> Purchase {
        let u = |i: u16| i as usize;
        match self {
            Buy::FlipArmy(a) => Purchase::FlipArmy(u(a)),
            Buy::FlipCorps(a, b) => Purchase::FlipCorps(u(a), b.map(u)),
            Buy::CorpsFull(a) => Purchase::CorpsFull(u(a)),
            Buy::CorpsReduced(a, b) => Purchase::CorpsReduced(u(a), b.map(u)),
            Buy::FlipCorpsAndCorpsReduced(a, b) => Purchase::FlipCorpsAndCorpsReduced(u(a), u(b)),
            Buy::ArmyReduced(a, s) => Purchase::ArmyReduced(u(a), s),
            Buy::ArmyFull(a, s) => Purchase::ArmyFull(u(a), s),
        }
    }

    pub(crate) fn of(p: Purchase) -> Buy {
        let u = |i: usize| i as u16;
        match p {
            Purchase::FlipArmy(a) => Buy::FlipArmy(u(a)),
            Purchase::FlipCorps(a, b) => Buy::FlipCorps(u(a), b.map(u)),
            Purchase::CorpsFull(a) => Buy::CorpsFull(u(a)),
            Purchase::CorpsReduced(a, b) => Buy::CorpsReduced(u(a), b.map(u)),
            Purchase::FlipCorpsAndCorpsReduced(a, b) => Buy::FlipCorpsAndCorpsReduced(u(a), u(b)),
            Purchase::ArmyReduced(a, s) => Buy::ArmyReduced(u(a), s),
            Purchase::ArmyFull(a, s) => Buy::ArmyFull(u(a), s),
        }
    }
}

/// One procedure in progress. Plain data: what the procedure remembers is in the frame or in
/// the game's records of the turn and the action ([`TurnRecord`], [`ActionRecord`]).
#[derive(Clone, Debug, Serialize)]
pub enum Frame {
    /// 5.6.1 (2022): a player's die for the tournament bid, seat by seat; `first` the first
    /// seat's, once rolled.
    BidDie { seat: Seat, first: Option<u8> },
    /// 5.6.1: `seat` bids for a side or accepts the bid on the table: `named`, the side bid for and
    /// the VP the other player last offered for it (`None`: the high roller's first bid).
    Bid { seat: Seat, named: Option<(Side, u8)> },
    /// 4.3: the CP decides whether to start with Guns of August.
    GunsOfAugust,
    /// Supplement 6.16: a side puts its optional card `card` in its deck or leaves it out.
    PickOptional { side: Side, card: u8 },
    /// 4.3, phase G: chance deals a side's cards until its hand is full or nothing is left.
    Deal { side: Side },
    /// 6.0: a turn begins; its phases are pushed above it.
    Turn,
    /// 7.1.1: a side's Mandated Offensive roll.
    Offensive { side: Side },
    /// 8.1: a side's action in an action round (1–6).
    Round { round: u8, side: Side },
    /// 9.2: activating spaces with the OPS left.
    Activation { side: Side, ops: u8 },
    /// 9.2.8, 11.0: moving the units of spaces activated for movement.
    Movement { side: Side },
    /// 11.1: a move the player walks space by space: the units, where the move began, where
    /// they stand, the MP spent, and whether they must stop here.
    Marching {
        side: Side,
        units: Vec<u16>,
        origin: Space,
        at: Space,
        spent: u32,
        stopped: bool,
    },
    /// 11.1: a move walked one space at a time along its route.
    March {
        side: Side,
        units: Vec<u16>,
        route: Vec<Space>,
    },
    /// 9.2.9, 12.1: choosing the next combat.
    Combats { side: Side },
    /// 12.2.2: designating the attackers of the combat against the battle's space.
    Designate { side: Side },
    /// 12.2.4: the attacker may attempt a flank attack.
    FlankChoice { side: Side },
    /// 12.2.5 (2022 12.2.1 steps 3 and 5): a side plays combat cards; `early` is the attacker's
    /// step before the flank attempt, for the cards that negate trenches.
    CombatCards { side: Side, early: bool },
    /// A die of the battle (12.3.3 flank, 12.2.8 fire).
    BattleDie { roll: BattleRoll },
    /// 12.4: a side takes the losses its opponent inflicted, a step at a time.
    TakeLosses { side: Side },
    /// 12.5: the defender retreats its units.
    RetreatUnits { side: Side },
    /// 12.7: the attacker may advance.
    AdvanceUnits { side: Side },
    /// 13.1: redeploying with the SR points left.
    Redeployment { side: Side, points: u8 },
    /// 13.1: where the chosen unit goes.
    RedeployUnit { side: Side, points: u8, unit: u16 },
    /// 9.5.3.3: placing the armies of a reinforcement, the first of `units` now.
    Reinforce { side: Side, units: Vec<u16> },
    /// 9.5.2.1: placing the units of an entering nation set up by choice, the first now.
    EntryChoice {
        side: Side,
        nation: String,
        units: Vec<u16>,
    },
    /// 6.0 C: the Attrition Phase.
    Attrition,
    /// 6.0 D, 15.3: a siege roll for a besieged fort.
    Siege { space: Space },
    /// 6.0 D: finds the next besieged fort to roll for.
    Sieges { after: Option<Space> },
    /// 6.0 E: the War Status Phase.
    WarStatus,
    /// 6.0 F: a side spends its replacement points.
    Replacement { side: Side },
    /// 9.5.4.6: a side may discard combat cards before drawing.
    DiscardCombatCards { side: Side },
    /// 6.0 H: the turn ends.
    EndTurn,
    // Events of the war at large (events::war).
    /// CP #63 Russian Desertions: the CP reduces up to `left` more Russian units.
    Desertions { left: u8 },
    /// 16.5.2: the side offered peace terms by `side` answers.
    PeaceOffer { side: Side },
    /// 16.5.2: `side` rolls on its Peace Terms table after a refused offer; `sixtus` for AP #62
    /// The Sixtus Affair (the Allied table read at a Combined War Status of 0–19).
    PeaceRoll { side: Side, sixtus: bool },
    /// Great Retreat (AP #27): the Allies may retreat the Russian defenders before the combat.
    GreatRetreat { side: Side },
    // Events that place units or markers (crate::events::arrivals) and trenches (11.2):
    /// 9.5: where an event puts its marker or the first of `units` (the card says where).
    EventPlace { side: Side, card: u8, units: Vec<u16> },
    /// 11.2.2: the digging roll of an army that entrenched instead of moving.
    Dig { side: Side, unit: u16 },
    /// An event's redeployment (AP #30 Salonika): `left` more units may go.
    EventRedeploy { side: Side, card: u8, left: u8 },
    /// An event's replacement points spent at once on reduced units (CP #5 Landwehr, AP #56
    /// Paris Taxis).
    EventReplace { side: Side, card: u8, points: u8 },
    /// `side` chooses what another side's event costs it (CP #32 War in Africa).
    EventConcede { side: Side, card: u8 },
}

/// Which die of a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BattleRoll {
    Flank,
    /// A side's fire (12.2.8).
    Fire(Side),
}

/// A step of a combat still to come (12.2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BattleStep {
    /// 12.2.8: a side rolls its fire.
    Fire(Side),
    /// 12.2.9: a side takes the losses its opponent inflicted.
    Losses(Side),
    /// 12.2.10–12.2.12: the winner, the retreat, the advance.
    Outcome,
}

/// What the turn remembers (reset in phase A).
#[derive(Clone, Debug, Default, Serialize)]
pub struct TurnRecord {
    /// Each side's Mandated Offensive (7.1), and whether it was met.
    pub offensive: [Option<Offensive>; 2],
    pub offensive_met: [bool; 2],
    /// The round of each side's last SR and RP play (9.3.3, 9.4.3), 0 for none.
    pub last_sr: [u8; 2],
    pub last_rp: [u8; 2],
    /// Replacement points gained this turn, per side and pool (9.4.1), in the order of
    /// [`crate::data::RpPool`]'s list [`RP_POOLS`].
    pub rp: [[u8; RP_POOLS.len()]; 2],
    /// A Russian corps has crossed between the Caucasus and the Near East (11.3.2).
    pub caucasus_crossed: bool,
    /// Redeployments of the Near East limits (13.2).
    pub near_east_sr: NearEastSr,
    /// A side whose commitment rose this turn reshuffles its discards in phase G (16.1.3).
    pub reshuffle: [bool; 2],
    /// A neutral nation has entered the war this turn (9.5.2.2).
    pub neutral_entry: bool,
    /// The nations reinforced by an event this turn (9.5.3.1).
    pub reinforced: Vec<crate::data::Nation>,
    /// The combat cards used this turn: side index, card, action round (2022 9.5.4.4: a card
    /// held face up affects one combat an action round).
    pub cc_used: Vec<(u8, u8, u8)>,
    // Events of the war at large (events::war). Each is left out of the state's checksum while
    // unset, so that the records of games begun before them replay.
    /// The action round in which the High Seas Fleet sortied (CP #25): Grand Fleet (AP #33)
    /// answers it in the Allies' action of that round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_seas_fleet: Option<u8>,
    /// Zeppelin Raids (CP #27) was played: 4 British RP fewer in this turn's Replacement Phase.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub zeppelin_raids: bool,
    /// Influenza (AP #65) was played: no card for replacement points for the rest of the turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub influenza: bool,
    // Events of the front (`events::front`). Not written while unset, so that the state, and its
    // checksum, of a game that never played them is what it was (saves replay).
    /// Everyone Into Battle (AP #51): the Allies in Italy, France and Belgium activate as one
    /// nationality this turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub everyone_into_battle: bool,
    /// Lloyd George (CP #55): no British attack on German units in a level-2 trench this turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub lloyd_george: bool,
    /// Stavka Timidity (CP #58): no Russian attack on German units alone in a trench this turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stavka_timidity: bool,
    /// Haig (CP #61): German units in a trench in France, Belgium or Germany do not retreat from
    /// a British attack this turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub haig: bool,
    /// Great Retreat (AP #27): Russian defenders attacked this turn may retreat before combat.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub great_retreat: bool,
    /// The cards of the other side's hand each side has seen this turn (Mata Hari, CP #17;
    /// Cloak and Dagger, AP #23), by side index: no longer hidden from it while they stay there.
    #[serde(skip_serializing_if = "no_card_seen")]
    pub seen: [Vec<u8>; 2],
}

fn no_card_seen(seen: &[Vec<u8>; 2]) -> bool {
    seen.iter().all(Vec::is_empty)
}

fn no_modifier(drm: &[i32; 2]) -> bool {
    *drm == [0, 0]
}

/// The replacement point pools, in the order [`TurnRecord::rp`] keeps them.
pub const RP_POOLS: [crate::data::RpPool; 10] = {
    use crate::data::RpPool::*;
    [Ge, Ah, Tu, Bu, Fr, Br, Us, Ru, It, Allied]
};

/// What the action in progress remembers (reset at each action round).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ActionRecord {
    /// Spaces activated, and for combat or not (9.2.5).
    pub activated: Vec<(Space, bool)>,
    /// Units that have moved (11.1.1: once an action).
    pub moved: Vec<u16>,
    /// Units that have attacked (12.1.5).
    pub attacked: Vec<u16>,
    /// Spaces attacked (2022 12.1.6: once an action).
    pub attacked_spaces: Vec<Space>,
    /// Units that retreated this action (12.1.1, 12.5.6; games begun on edition 3 or later).
    /// Not written while empty (the checksum of an earlier game is what it was).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub retreated: Vec<u16>,
    /// Units that attacked out of a space where they besiege an enemy fort into another space
    /// this action (15.2.3; games begun on edition 3 or later). Not written while empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sallied: Vec<u16>,
    /// The Allies' Near East combat activation this round (9.2.7).
    pub near_east_combat: bool,
    /// The combat being fought.
    pub battle: Option<Battle>,
    // Events of the front (`events::front`), for the action the card's OPS are spent in; not
    // written while unset (the checksum of a game that never played them is what it was).
    /// Brusilov Offensive (AP #46): +1 to every Russian attack; the trench of one attack on
    /// non-German CP units alone is negated (`true` while not yet used).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub brusilov: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub brusilov_trench: bool,
    /// Yanks and Tanks (AP #35): +2 to every combat with an American unit.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub yanks_and_tanks: bool,
    /// Kerensky Offensive (AP #45): +2 to one Russian attack on a space with AH, BU or TU
    /// units (`true` while not yet used).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub kerensky: bool,
    // Trenches (11.2, crate::trenches):
    /// The armies digging instead of moving this action (11.2.1), rolled for after movement.
    /// Not written while empty (the checksum of an action without digging is what it was).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub digging: Vec<u16>,
}

/// 13.2: the Near East redeployments already made this turn.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct NearEastSr {
    pub british: bool,
    pub russian: bool,
    pub central: bool,
}

/// A combat in progress (12.2).
#[derive(Clone, Debug, Serialize)]
pub struct Battle {
    pub attacker: Side,
    pub defending: Space,
    /// The attacking units (12.2.2) and the spaces they attack from.
    pub attackers: Vec<u16>,
    /// The defending units at the start of the combat.
    pub defenders: Vec<u16>,
    /// Whether each of them was then at full strength (Withdrawal, 2022 12.6.3).
    pub defenders_full: Vec<bool>,
    /// 12.3: the pinning space of a flank attempt, once chosen.
    pub pinning: Option<Space>,
    /// 12.3: `Some(true)` a flank attack succeeded, `Some(false)` it failed.
    pub flank: Option<bool>,
    /// What is left of the combat's steps (12.2.1), the next first.
    pub steps: Vec<BattleStep>,
    /// The loss number each side's fire inflicts on the other, once rolled (by side index).
    pub inflicted: [Option<u8>; 2],
    /// The losses each side took (by side index): what decides the winner (12.2.10).
    pub taken: [u8; 2],
    /// The side taking losses now, and its allocation.
    pub losses: Option<LossTaking>,
    /// Whether the defending fort was destroyed (12.4.6).
    pub fort_destroyed: bool,
    /// Retreat length once the attacker has won (12.5.2).
    pub retreat: Option<u8>,
    /// The routes the defenders took (12.7: the advance may follow them).
    pub retreat_routes: Vec<Vec<Space>>,
    /// Whether every defender was eliminated.
    pub defenders_gone: bool,
    /// Attackers that advanced.
    pub advanced: Vec<u16>,
    /// The combat cards each side uses in this combat (by side index), played from the hand or
    /// held face up (12.2.5).
    pub cards: [Vec<u8>; 2],
    /// Those of them played from the hand (by side index).
    pub from_hand: [Vec<u8>; 2],
    // Events of the front (`events::front`), settled when the attack is declared; not written
    // while unset (the checksum of a game that never played them is what it was).
    /// The modifier an event gives each side's fire (by side index).
    #[serde(skip_serializing_if = "no_modifier")]
    pub event_drm: [i32; 2],
    /// An event negates the defending space's trench (Brusilov Offensive, AP #46).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub event_trench_negated: bool,
    /// An event cancels the defenders' retreat (Haig, CP #61).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub event_no_retreat: bool,
    /// The spaces where defenders that could go only the first of two spaces were eliminated
    /// (2022 12.5.4; 12.7.4 lets the advance follow them); not written while empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cut_short: Vec<Space>,
    /// The defending armies out of supply when the combat began (2022 14.1.1.2): eliminated in
    /// it, they leave the game (12.4.4.1, 2022 12.4.7(3)). Not written while empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub out_of_supply: Vec<u16>,
}

/// One side's losses in a combat, with the counter behind each unit of the allocation.
#[derive(Clone, Debug, Serialize)]
pub struct LossTaking {
    pub side: Side,
    pub losses: Losses,
    /// The counter of each unit of `Losses::units`, `None` for a corps 12.4.4.2 counts only.
    pub counters: Vec<Option<u16>>,
    /// The counters of each Reserve Box pool, in the pool's order.
    pub pool_counters: Vec<Vec<u16>>,
}

impl LossTaking {
    /// The action naming a step of the allocation.
    pub(crate) fn target_of(&self, t: Target) -> LossTarget {
        match t {
            Target::Fort => LossTarget::Fort,
            Target::Unit(i) => match self.counters.get(i).copied().flatten() {
                Some(c) if self.losses.units()[i].replaces.is_none() => LossTarget::Unit(c),
                _ => LossTarget::Stand(i as u16),
            },
        }
    }

    /// The step an action names.
    pub(crate) fn target(&self, t: LossTarget) -> Option<Target> {
        match t {
            LossTarget::Fort => Some(Target::Fort),
            LossTarget::Stand(i) => ((i as usize) < self.losses.units().len()).then_some(Target::Unit(i as usize)),
            LossTarget::Unit(c) => self
                .counters
                .iter()
                .enumerate()
                .position(|(i, &k)| k == Some(c) && self.losses.units()[i].replaces.is_none())
                .map(Target::Unit),
        }
    }
}

/// A game of Paths of Glory.
#[derive(Clone)]
pub struct PathsOfGlory {
    pub(crate) sh: &'static Shipped,
    pub scenario: Scenario,
    pub pos: Position,
    pub turn: TurnRecord,
    pub action: ActionRecord,
    /// Each side's war commitment (16.1): the groups of its deck in play.
    pub commitment: [crate::war_status::Commitment; 2],
    pub(crate) outcome: Option<Outcome>,
    pub(crate) engine: Engine<Action, Frame>,
    pub(crate) journal: Journal,
    /// Supply maps kept for the position as it is (14.1): no part of the state.
    pub(crate) kept: crate::supply::Kept,
}

impl std::fmt::Debug for PathsOfGlory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PathsOfGlory")
            .field("scenario", &self.scenario.id)
            .field("turn", &self.pos.turn)
            .finish()
    }
}

impl PathsOfGlory {
    pub fn data(&self) -> &'static Data {
        &self.sh.data
    }

    /// What bears on supply now beyond the position (the MEF Beachhead, 9.5.3.5), with the
    /// supply maps kept for the position.
    pub fn supply_context(&self) -> crate::supply::Context<'_> {
        crate::sequence::supply_context(self)
    }

    pub fn tables(&self) -> &'static Tables {
        &self.sh.tables
    }

    pub(crate) fn setup_data(&self) -> &'static Setup {
        &self.sh.setup
    }

    /// Says the position was changed outside the rules (a test building a position): what was
    /// worked out for the old one is dropped.
    pub fn touch(&mut self) {
        self.engine.touch();
    }

    /// The frames in progress, bottom first.
    pub fn frames(&self) -> &[Frame] {
        self.engine.frames()
    }

    /// A space's name in both languages.
    pub(crate) fn name(&self, s: Space) -> Text {
        space_name_in(self.data(), s)
    }

    /// A counter's name in both languages.
    /// What the counters did on the map since `before` (their states then), as the log's marks:
    /// a counter that came onto the map arrived, one that left it was eliminated (to the
    /// Eliminated box or out of the game) or withdrawn (to a holding box or aside), one that
    /// changed spaces moved, one reduced in place lost a step. For rules that move counters
    /// without a move of their own (replacements, a nation's set-up, an event's placements).
    pub(crate) fn marks_since(&self, before: &[crate::state::Unit]) -> Vec<sandtable_core::game::Mark> {
        use crate::operations::{space_id, unit_id};
        use sandtable_core::game::Mark;
        let data = self.data();
        let mut out = Vec::new();
        for (u, (was, now)) in before.iter().zip(&self.pos.units).enumerate() {
            let unit = || unit_id(data, u as u16);
            match (was.loc, now.loc) {
                (Location::Map(a), Location::Map(b)) if a != b => out.push(Mark::Move {
                    unit: unit(),
                    from: space_id(data, a),
                    to: space_id(data, b),
                    path: Vec::new(),
                }),
                (Location::Map(a), Location::Map(_)) if was.full && !now.full => out.push(Mark::StepLost {
                    unit: Some(unit()),
                    at: space_id(data, a),
                }),
                (Location::Map(a), Location::Eliminated | Location::Removed) => out.push(Mark::Eliminated {
                    unit: unit(),
                    at: space_id(data, a),
                }),
                (Location::Map(a), Location::Reserve | Location::Aside) => out.push(Mark::Withdrawn {
                    unit: unit(),
                    at: space_id(data, a),
                }),
                (w, Location::Map(b)) if !matches!(w, Location::Map(_)) => out.push(Mark::Arrived {
                    unit: unit(),
                    at: space_id(data, b),
                }),
                _ => {}
            }
        }
        out
    }

    /// Counters' names, joined.
    pub(crate) fn units_named(&self, units: &[u16]) -> Text {
        let t: Vec<Text> = units.iter().map(|&u| self.unit_name(u)).collect();
        Text::new(
            t.iter().map(|t| t.en.as_str()).collect::<Vec<_>>().join(", "),
            t.iter().map(|t| t.zh.as_str()).collect::<Vec<_>>().join("、"),
        )
    }

    pub(crate) fn unit_name(&self, u: u16) -> Text {
        unit_name_in(self.data(), u)
    }

    /// A card's name in both languages.
    pub(crate) fn card_name(&self, side: Side, n: u8) -> Text {
        card_name_in(self.data(), side, n)
    }

    /// The seat that decides now, if a seat does.
    pub(crate) fn engine_top_who(&self) -> Option<Seat> {
        match self.engine.top().map(|f| crate::sequence::who(self, f)) {
            Some(Who::Seat(s)) => Some(s),
            _ => None,
        }
    }

    /// The side a seat plays: the one place that says it (5.6.1: in a tournament the bid
    /// decides; before it is settled the first seat stands for the CP, with no hand yet).
    pub fn side_of(&self, seat: Seat) -> Side {
        if seat == self.scenario.cp_seat {
            Side::Cp
        } else {
            Side::Ap
        }
    }

    /// The seat playing a side.
    pub fn seat_of(&self, side: Side) -> Seat {
        match side {
            Side::Cp => self.scenario.cp_seat,
            Side::Ap => 1 - self.scenario.cp_seat.min(1),
        }
    }

    /// Whether the players know their sides: always but in a tournament whose bid is not yet
    /// settled (5.6.1).
    pub fn sides_settled(&self) -> bool {
        !self.scenario.tournament || self.scenario.bid.is_some()
    }

    /// The units of a side in a space, in data order: while a legal list is made from the
    /// units of each space kept beside the game ([`crate::supply::Kept::trusted_units_in`]),
    /// otherwise by a pass over the counters.
    pub(crate) fn units_of_side(&self, side: Side, s: Space) -> Vec<usize> {
        let data = self.data();
        let mut out = Vec::new();
        let mut add = |u: usize| {
            if data.pieces[u].side == side {
                out.push(u);
            }
        };
        if !self.kept.trusted_units_in(&self.pos, s, &mut add) {
            self.pos.units_in(s).for_each(add);
        }
        out
    }

    /// A counter's space, if it is on the map.
    pub(crate) fn at(&self, u: usize) -> Option<Space> {
        match self.pos.units.get(u).map(|x| x.loc) {
            Some(Location::Map(s)) => Some(s),
            _ => None,
        }
    }

    /// The side occupying a space with units, if any (10.1.3: never both).
    pub(crate) fn occupant(&self, s: Space) -> Option<Side> {
        self.pos.units_in(s).next().map(|u| self.data().pieces[u].side)
    }

    pub(crate) fn refuse(rule: &str, en: impl Into<String>, zh: impl Into<String>) -> Refusal {
        if listing() {
            return unread_refusal();
        }
        Refusal::new(rule, Text::new(en, zh))
    }

    /// [`PathsOfGlory::refuse`] with the text written only when it may be read: while a legal
    /// list is made, a refused candidate is left out and its reason never shown.
    pub(crate) fn refuse_with(rule: &str, text: impl FnOnce() -> Text) -> Refusal {
        if listing() {
            return unread_refusal();
        }
        Refusal::new(rule, text())
    }
}

/// [`PathsOfGlory::card_name`] from the data alone: for a journal's line, written only if it
/// is read.
pub(crate) fn card_name_in(data: &Data, side: Side, n: u8) -> Text {
    match data.card(side, n) {
        Some(c) => Text::new(format!("#{n} {}", c.name_en), format!("#{n}{}", c.name_zh)),
        None => Text::new(format!("card {n}"), format!("卡{n}")),
    }
}

/// [`PathsOfGlory::name`] from the data alone.
pub(crate) fn space_name_in(data: &Data, s: Space) -> Text {
    if s.idx() < data.map.graph.len() {
        let i = data.map.graph.space(s);
        Text::new(i.name_en.clone(), i.name_zh.clone())
    } else {
        Text::new(format!("space {}", s.0), format!("区域{}", s.0))
    }
}

/// [`PathsOfGlory::unit_name`] from the data alone.
pub(crate) fn unit_name_in(data: &Data, u: u16) -> Text {
    match data.pieces.get(u as usize) {
        Some(p) => Text::new(p.name_en.clone(), p.name_zh.clone()),
        None => Text::new(format!("unit {u}"), format!("单位{u}")),
    }
}

thread_local! {
    /// How many legal lists are being made on this thread ([`Listing`]).
    static LISTING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// While alive, a legal list is being made on this thread: the checks it asks only say yes or
/// no, so a refusal's rule and text are not written ([`PathsOfGlory::refuse`]).
pub(crate) struct Listing(());

impl Listing {
    pub(crate) fn begin() -> Listing {
        LISTING.with(|n| n.set(n.get() + 1));
        Listing(())
    }
}

impl Drop for Listing {
    fn drop(&mut self) {
        LISTING.with(|n| n.set(n.get().saturating_sub(1)));
    }
}

/// Whether a legal list is being made on this thread, so that no refusal is read.
pub(crate) fn listing() -> bool {
    LISTING.with(|n| n.get() > 0)
}

/// A refusal made while a legal list is made: only its being a refusal counts.
fn unread_refusal() -> Refusal {
    Refusal::new(String::new(), Text::new(String::new(), String::new()))
}

/// What one seat may know: the map, the tracks, its own hand, the size of the other's; never
/// the other's cards or the order of a draw pile (which has none).
pub struct View<'a> {
    game: &'a PathsOfGlory,
    seat: Seat,
}

impl View<'_> {
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The side the seat plays (5.6.1: in a tournament, the one the bid gave it).
    pub fn side(&self) -> Side {
        self.game.side_of(self.seat)
    }

    /// Whether the sides are settled (5.6.1: not while a tournament's bid goes on).
    pub fn sides_settled(&self) -> bool {
        self.game.sides_settled()
    }

    /// The position with every card the seat may not see left out: the other side's hand is
    /// empty here (its size is [`View::other_hand_size`]), and both draw piles too (their
    /// contents are [`View::unseen`] together with the other hand).
    pub fn position(&self) -> Position {
        let mut pos = self.game.pos.clone();
        let other = side_index(other(self.side()));
        pos.cards[other].hand.clear();
        pos.cards[other].picked.clear();
        for c in &mut pos.cards {
            c.draw.clear();
        }
        pos
    }

    /// The seat's own hand.
    pub fn hand(&self) -> &[u8] {
        &self.game.pos.cards[side_index(self.side())].hand
    }

    pub fn other_hand_size(&self) -> usize {
        self.game.pos.cards[side_index(other(self.side()))].hand.len()
    }

    /// The other side's cards the seat cannot place: its hand and its draw pile together, in
    /// number order. With optional cards picked in secret (supplement 6.16) that is every card
    /// of its groups in play, optional or basic, that it has not shown: some of them it holds.
    pub fn unseen(&self) -> Vec<u8> {
        let o = other(self.side());
        let c = &self.game.pos.cards[side_index(o)];
        let mut v: Vec<u8> = if self.game.scenario.picked_cards {
            let every: Vec<(u8, u8)> = (crate::optional_cards::FIRST..=crate::optional_cards::LAST)
                .map(|n| (n, 0))
                .collect();
            let shown = shown(c);
            crate::optional_cards::deck(self.game, o, &every)
                .into_iter()
                .filter(|n| !shown.contains(n))
                .collect()
        } else {
            c.hand.iter().chain(&c.draw).copied().collect()
        };
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The seat's own draw pile (it knows which cards are left in it, not their order).
    pub fn own_draw_pile(&self) -> &[u8] {
        &self.game.pos.cards[side_index(self.side())].draw
    }

    pub fn turn(&self) -> &TurnRecord {
        &self.game.turn
    }

    pub fn action(&self) -> &ActionRecord {
        &self.game.action
    }

    pub fn frames(&self) -> &[Frame] {
        self.game.engine.frames()
    }

    pub fn data(&self) -> &'static Data {
        self.game.data()
    }

    /// The scenario being played, which both players know (5.3–5.7).
    pub fn scenario(&self) -> &Scenario {
        &self.game.scenario
    }

    /// Whether a space is a VP space in the scenario being played (5.7.2).
    pub fn is_vp_space(&self, s: Space) -> bool {
        crate::victory::is_vp_space(self.data(), self.game.scenario.historical, s)
    }

    /// The scenario's victory levels at its end (5.3.4, 5.4.2, 5.5.2, 5.7): the least VP of a CP
    /// win and the most of an Allied one, before the Treaty of Brest-Litovsk.
    pub fn victory_levels(&self) -> Option<(i32, i32)> {
        let l = self.game.tables().scenario(&self.game.scenario.id)?;
        Some((l.cp_at_least, l.ap_at_most))
    }
}

/// The cards of a side everyone has seen: its discards, those out of the game and those face
/// up.
fn shown(c: &crate::state::Cards) -> Vec<u8> {
    c.discard.iter().chain(&c.removed).chain(&c.face_up).copied().collect()
}

/// The data edition new games begin on ([`Rules::DATA_EDITION`] as a number).
pub(crate) const EDITION: u8 = 7;

/// The number of data edition `edition` (1 to 7); an edition this build does not know is
/// refused.
fn edition_number(edition: &str) -> Result<u8, SetupError> {
    match edition {
        "1" => Ok(1),
        "2" => Ok(2),
        "3" => Ok(3),
        "4" => Ok(4),
        "5" => Ok(5),
        "6" => Ok(6),
        "7" => Ok(7),
        other => Err(SetupError(format!(
            "this game of paths-of-glory was begun on edition {other} of its data, which this build does not have (it plays editions 1 to 7)"
        ))),
    }
}

/// The ids [`Rules::hidden_from`] gives a card in a hand.
fn card_id(side: Side, n: u8) -> u64 {
    (side_index(side) as u64) << 8 | n as u64
}

impl Rules for PathsOfGlory {
    type Action = Action;
    type Frame = Frame;
    type View<'a> = View<'a>;
    const ID: &'static str = "paths-of-glory";
    /// Edition 2: the Historical scenario's CP opens with Guns of August for its event (5.7.4.3);
    /// a game begun on edition 1 keeps its opening free. Edition 3: units that retreated this
    /// action may not be attacked alone (12.1.1) and fight no more (12.5.6); attackers of several
    /// nationalities need a space holding them all (12.1.9.1); besiegers attack elsewhere only
    /// with the units the siege does not need (15.2.3); Near East armies may enter as ordinary
    /// reinforcements (9.5.3.4); Albania traces attrition supply to Taranto (11.1.12); units
    /// supplied only through another nation's sources neither use the Reserve Box nor are
    /// replaced (13.1.12, 17.1.4.1). Edition 4: a unit that can go only the first of two
    /// spaces of a retreat goes it and is eliminated there, and the advance may follow it (2022
    /// 12.5.4, 12.7.4); defenders all eliminated for want of a retreat leave their space to the
    /// advance (12.6.2). Edition 5: sieges take the space's trench and end when their
    /// besiegers leave or would be too few (11.2.5, 2022 15.2.4, 13.1.5); a retreating unit
    /// counts once where it ends (12.5.5); no Russian attack on a German fort's space in August
    /// 1914 (15.1.12); the Caucasus crossing one a turn by move, attack, retreat or advance
    /// (11.3.2, 12.1.8); the ANA converts no space and never sails out of the Near East
    /// (11.1.14, 2022 13.2.1); the offensives' British, capitals and Italian supply (2022 7.1.2,
    /// 7.1.4, 7.1.6); the corps that replace an army and armies eliminated out of supply
    /// (12.4.4.1, 12.4.4.3). Edition 6: the corps an army with none left counts only when
    /// real units and the fort cannot meet as much of the loss number (2022 12.4.4.2); a siege
    /// broken by losses ends at once, and units entering count with those there (2022 15.2.4);
    /// advancers into a fort's space count with those yet to advance, not those gone elsewhere
    /// (12.6.5, 2022 12.7.6); the Allies trace supply and redeploy through the CP space the ANA
    /// stands in (11.1.14). Edition 7: the Greek corps Salonika sets up stay neutral until
    /// Greece enters: no side moves, redeploys, activates or attacks them, and attrition spares
    /// them (9.5.2.4); in the Introductory scenario a `*` event moves the VP a step toward its
    /// side (VP Table); while the CP alone is at Total War the Allies may discard Romania and
    /// Italy before drawing (9.5.2.5); in the Historical scenario the CP at Total War gets a
    /// German RP a turn for Sedan and two other French or Belgian spaces (5.7.3); Grand Fleet
    /// and Czech Legion may be played where their effect is moot (2022 9.5.1.1 note).
    const DATA_EDITION: &'static str = "7";
    const SEQUENCE_OF_PLAY: &'static str = "6.0";

    fn engine(&self) -> &Engine<Action, Frame> {
        &self.engine
    }

    fn engine_mut(&mut self) -> &mut Engine<Action, Frame> {
        &mut self.engine
    }

    fn seat_view(&self, seat: Seat) -> View<'_> {
        View { game: self, seat }
    }

    /// The other side's hand dealt at random from the cards the seat cannot place, and new dice.
    fn sample(view: &View<'_>, rng: &mut Rng) -> PathsOfGlory {
        let mut g = view.game.clone();
        let o = side_index(other(view.side()));
        let mut unseen = view.unseen();
        if g.scenario.picked_cards {
            // Supplement 6.16: the other side's picks guessed too, and its unseen cards those
            // of the deck they make that it has not shown.
            let side = other(view.side());
            let shown = shown(&g.pos.cards[o]);
            let picked = crate::optional_cards::guess(g.data(), side, &shown, rng);
            unseen = crate::optional_cards::deck(&g, side, &picked)
                .into_iter()
                .filter(|n| !shown.contains(n))
                .collect();
            g.pos.cards[o].picked = picked;
        }
        let n = g.pos.cards[o].hand.len();
        let mut hand = Vec::with_capacity(n);
        for _ in 0..n {
            if unseen.is_empty() {
                break;
            }
            let k = rng.below(unseen.len() as u32) as usize;
            hand.push(unseen.swap_remove(k));
        }
        unseen.sort_unstable();
        g.pos.cards[o].hand = hand;
        g.pos.cards[o].draw = unseen;
        g.engine.reseed(rng.word() as u64);
        g
    }

    fn who(&self, frame: &Frame) -> Who {
        crate::sequence::who(self, frame)
    }

    fn legal(&self, frame: &Frame, out: &mut Vec<Action>) {
        crate::sequence::legal(self, frame, out)
    }

    fn passes_when_empty(&self, frame: &Frame) -> bool {
        matches!(
            frame,
            Frame::RetreatUnits { .. }
                | Frame::Reinforce { .. }
                | Frame::EntryChoice { .. }
                | Frame::Desertions { .. }
                | Frame::EventPlace { .. }
        )
    }

    fn outcomes(&self, frame: &Frame, out: &mut Vec<(Action, u32)>) {
        crate::sequence::outcomes(self, frame, out)
    }

    fn check(&self, frame: &Frame, action: &Action) -> Result<(), Refusal> {
        crate::sequence::check(self, frame, action)
    }

    fn carry_out(&mut self, frame: Frame, action: Option<&Action>) {
        // A march walks the route its move's line already marked.
        if self.journal.off || matches!(frame, Frame::March { .. }) {
            return crate::sequence::carry_out(self, frame, action);
        }
        // The log's marks: where a rule moved counters without marking its line (a nation's
        // set-up, replacements, an event's placements), what changed is marked on the last line.
        let (before, from) = (self.pos.units.clone(), self.journal.written());
        crate::sequence::carry_out(self, frame, action);
        let marked: Vec<String> = self
            .journal
            .marks_from(from)
            .filter_map(|m| match m {
                Mark::Move { unit, .. }
                | Mark::Retreat { unit, .. }
                | Mark::Advance { unit, .. }
                | Mark::Eliminated { unit, .. }
                | Mark::Withdrawn { unit, .. }
                | Mark::Arrived { unit, .. }
                | Mark::StepLost { unit: Some(unit), .. } => Some(unit.clone()),
                _ => None,
            })
            .collect();
        let rest: Vec<Mark> = self
            .marks_since(&before)
            .into_iter()
            .filter(|m| {
                let (Mark::Move { unit, .. }
                | Mark::Eliminated { unit, .. }
                | Mark::Withdrawn { unit, .. }
                | Mark::Arrived { unit, .. }
                | Mark::StepLost { unit: Some(unit), .. }) = m
                else {
                    return true;
                };
                !marked.contains(unit)
            })
            .collect();
        if !rest.is_empty() {
            self.journal.mark_last_public(|| rest);
        }
    }

    fn hash_state(&self, h: &mut StateHasher) {
        h.add(&self.scenario);
        h.add(&self.pos);
        h.add(&self.turn);
        h.add(&self.action);
    }

    fn title() -> Text {
        Text::new("Paths of Glory", "光荣之路")
    }

    fn seats() -> Vec<SeatInfo> {
        vec![
            SeatInfo {
                id: "cp",
                name: Text::new("Central Powers", "同盟国"),
            },
            SeatInfo {
                id: "ap",
                name: Text::new("Allied Powers", "协约国"),
            },
        ]
    }

    /// 5.6.1: in a tournament the players bid for their sides, so a seat is a player, and its
    /// side is named as the bid left it.
    fn seat_side(&self, seat: Seat) -> Option<Text> {
        if !self.scenario.tournament {
            return None;
        }
        let n = seat + 1;
        Some(if !self.sides_settled() {
            Text::new(
                format!("Player {n}, side not yet bid for"),
                format!("玩家{n},阵营尚待竞标"),
            )
        } else {
            match self.side_of(seat) {
                Side::Cp => Text::new(format!("Player {n}, Central Powers"), format!("玩家{n},同盟国")),
                Side::Ap => Text::new(format!("Player {n}, Allied Powers"), format!("玩家{n},协约国")),
            }
        })
    }

    fn scenarios() -> Vec<ScenarioInfo> {
        let note = Text::new(
            "Map, counters, cards and set-up from the published game's data; every card's event is played, with peace terms and the tournament bid (5.6).",
            "地图、算子、卡牌与部署取自已出版游戏的数据;全部卡牌事件、和谈与锦标赛竞标(5.6)均已实现。",
        );
        [
            (
                "introductory",
                "Introductory (Aug 1914 – Fall 1914)",
                "入门剧本(1914年8月至秋)",
            ),
            ("limited-war", "Limited War (to Summer 1916)", "有限战争(至1916年夏)"),
            ("campaign", "Campaign (to Winter 1919)", "战役剧本(至1919年冬)"),
            ("historical", "Historical (to Winter 1919)", "历史剧本(至1919年冬)"),
            (
                "limited-war-tournament",
                "Limited War, tournament (a VP bid)",
                "有限战争,锦标赛(胜利点竞标)",
            ),
            (
                "campaign-tournament",
                "Campaign, tournament (a VP bid)",
                "战役剧本,锦标赛(胜利点竞标)",
            ),
            (
                "campaign-optional-cards",
                "Campaign with the optional cards (8-card hands)",
                "战役剧本,加入可选卡牌(手牌8张)",
            ),
            (
                "campaign-picked-cards",
                "Campaign with optional cards picked in secret (7-card hands)",
                "战役剧本,秘密挑选可选卡牌(手牌7张)",
            ),
        ]
        .into_iter()
        .map(|(id, en, zh)| ScenarioInfo {
            id: id.into(),
            name: Text::new(en, zh),
            reconstructed: false,
            note: note.clone(),
        })
        .collect()
    }

    fn setup(scenario: &str, seed: u64) -> Result<PathsOfGlory, SetupError> {
        crate::sequence::setup(scenario, seed)
    }

    fn setup_from_text(text: &str, seed: u64) -> Result<PathsOfGlory, SetupError> {
        crate::sequence::setup(text.trim(), seed)
    }

    fn setup_edition(scenario: &str, seed: u64, edition: &str) -> Result<PathsOfGlory, SetupError> {
        let mut g = crate::sequence::setup(scenario, seed)?;
        g.scenario.edition = edition_number(edition)?;
        Ok(g)
    }

    fn setup_from_text_edition(text: &str, seed: u64, edition: &str) -> Result<PathsOfGlory, SetupError> {
        Self::setup_edition(text.trim(), seed, edition)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.engine.top().is_some() {
            return None;
        }
        self.outcome.clone()
    }

    fn describe(&self, action: &Action) -> Text {
        crate::sequence::describe(self, action)
    }

    fn notation(&self, action: &Action) -> String {
        crate::sequence::notation(self, action)
    }

    fn parse_notation(&self, text: &str) -> Option<Action> {
        crate::sequence::parse_notation(self, text)
    }

    /// 9.1: a card in a hand is hidden from the other side until it is played.
    /// Supplement 6.16: the picks of optional cards are each side's secret.
    fn is_secret(&self, action: &Action) -> bool {
        matches!(action, Action::LeaveOut { .. } | Action::PutIn { .. })
    }

    fn hidden_from(&self, seat: Seat, out: &mut Vec<u64>) {
        if self.engine.top().is_none() {
            return;
        }
        let o = other(self.side_of(seat));
        // Mata Hari (CP #17), Cloak and Dagger (AP #23): the cards seen are shown.
        let seen = &self.turn.seen[side_index(self.side_of(seat))];
        out.extend(
            self.pos.cards[side_index(o)]
                .hand
                .iter()
                .filter(|n| !seen.contains(n))
                .map(|&n| card_id(o, n)),
        );
    }

    fn view(&self, seat: Option<Seat>) -> serde_json::Value {
        crate::sequence::view_json(self, seat)
    }

    fn summary(&self, seat: Option<Seat>, lang: Lang) -> String {
        crate::sequence::summary(self, seat, lang)
    }

    fn journal(&self, seat: Option<Seat>) -> Vec<JournalLine> {
        self.journal.for_seat(seat, self.engine.top().is_none())
    }

    fn set_journal(&mut self, on: bool) {
        self.journal.off = !on;
    }

    fn render_svg(&self, _seat: Option<Seat>, lang: Lang) -> String {
        crate::present::render(self, lang)
    }

    fn targets(&self, actions: &[Action]) -> Vec<sandtable_core::game::Targets> {
        crate::present::targets(self, actions)
    }

    /// 12.2: a combat's strengths, columns, modifiers and loss numbers before its dice.
    fn preview(&self, action: &Action) -> Vec<Text> {
        crate::preview::preview(self, action)
    }

    /// 9.2: the OPS left while spaces are activated; 12.2.1: the combat being fought.
    fn context(&self) -> Vec<Text> {
        crate::present::context(self)
    }

    /// 9.1: a seat's own hand, for that seat only.
    fn hand(&self, seat: Seat) -> Vec<sandtable_core::game::HandCard> {
        crate::present::hand(self, seat)
    }

    fn render_map(&self, lang: Lang) -> String {
        crate::present::render_map(self, lang)
    }

    /// Nothing on the map is secret (9.1: only the hands are), so every seat sees the same.
    fn render_pieces(&self, _seat: Option<Seat>, lang: Lang) -> String {
        crate::present::render_pieces(self, lang)
    }
}

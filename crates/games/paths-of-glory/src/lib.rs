//! GMT's 光荣之路 (*Paths of Glory*) for Sandtable, on the core's decision driver ([`game`]:
//! the frames and actions; [`sequence`]: the sequence of play, 6.0). Its data: the point-to-point
//! map, the counters and the strategy cards ([`data`]) and the tables ([`tables`]), loaded from
//! the files in `data/`; the position ([`state`]) and the set-up every scenario starts from
//! ([`setup`]). The rules, one module to a section: victory ([`victory`]), the card piles
//! ([`cards`]) and the optional cards picked in secret (`optional_cards`), the mandated
//! offensives ([`offensives`]), what activating a space costs ([`activation`]), movement
//! ([`movement`]), trenches ([`trenches`]), strategic redeployment ([`redeployment`]), how each
//! side fires and who wins a combat ([`combat`]) with its combat cards ([`combat_cards`]), how
//! losses are taken ([`losses`]), retreats ([`retreat`]) and advances ([`advance`]), supply
//! ([`supply`]), attrition ([`attrition`]), sieges ([`sieges`]), replacements
//! ([`replacements`]) and where armies enter ([`placement`]), the war status tracks
//! ([`war_status`]) and the card events ([`events`]).

pub mod activation;
pub mod advance;
pub mod attrition;
mod board;
pub mod cards;
pub mod combat;
pub mod combat_cards;
pub mod data;
pub mod events;
pub mod game;
pub mod losses;
pub mod movement;
pub mod offensives;
mod operations;
mod optional_cards;
pub mod placement;
pub mod present;
mod preview;
pub mod redeployment;
pub mod replacements;
pub mod retreat;
mod round;
pub mod sequence;
pub mod setup;
pub mod sieges;
pub mod state;
pub mod supply;
pub mod tables;
pub mod tournament;
pub mod trenches;
pub mod victory;
pub mod war_status;

pub use data::{
    Card, Data, DataError, Deck, Factors, Kind, LineMasks, Nation, Piece, Reinforcements, RpBox, RpPool, Side,
    SpaceFacts,
};

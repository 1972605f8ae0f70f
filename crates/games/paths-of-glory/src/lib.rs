//! GMT's 光荣之路 (*Paths of Glory*) for Sandtable. So far its data: the point-to-point map, the
//! counters and the strategy cards ([`data`]) and the tables ([`tables`]), loaded from the
//! files in `data/`; the position ([`state`]) and the set-up every scenario starts from
//! ([`setup`]); of the rules, victory ([`victory`]), the card piles ([`cards`]), the mandated
//! offensives ([`offensives`]), what activating a space costs ([`activation`]), movement
//! ([`movement`]), trenches ([`trenches`]), strategic redeployment ([`redeployment`]), how each
//! side fires and who wins a combat ([`combat`]), how losses are taken ([`losses`]), retreats
//! ([`retreat`]) and advances ([`advance`]), supply ([`supply`]), attrition ([`attrition`]),
//! sieges ([`sieges`]), replacements ([`replacements`]) and where armies enter ([`placement`]),
//! and the war status tracks ([`war_status`]). The rest of the rules (the sequence of play on
//! the core's decision driver, the card events, the scenarios) come later; this crate is not
//! yet in the catalog of playable games.

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
mod tournament;
pub mod trenches;
pub mod victory;
pub mod war_status;

pub use data::{
    Card, Data, DataError, Deck, Factors, Kind, LineMasks, Nation, Piece, Reinforcements, RpBox, RpPool, Side,
    SpaceFacts,
};

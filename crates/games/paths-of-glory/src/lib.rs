//! GMT's 光荣之路 (*Paths of Glory*) for Sandtable, on the core's decision driver ([`game`]:
//! the frames and actions; `sequence`: the sequence of play, 6.0). Its data: the point-to-point
//! map, the counters and the strategy cards ([`data`]) and the tables (`tables`), loaded from
//! the files in `data/`; the position ([`state`]) and the set-up every scenario starts from
//! (`setup`). The rules, one module to a section: victory (`victory`), the card piles
//! (`cards`) and the optional cards picked in secret (`optional_cards`), the mandated
//! offensives (`offensives`), what activating a space costs (`activation`), movement
//! (`movement`), trenches (`trenches`), strategic redeployment (`redeployment`), how each
//! side fires and who wins a combat (`combat`) with its combat cards (`combat_cards`), how
//! losses are taken (`losses`), retreats (`retreat`) and advances (`advance`), supply
//! (`supply`), attrition (`attrition`), sieges (`sieges`), replacements
//! (`replacements`) and where armies enter (`placement`), the war status tracks
//! (`war_status`) and the card events (`events`).
//!
//! Outside the crate a game is its [`game::PathsOfGlory`] on the core's driver, its [`data`] and
//! its position ([`state`]); the rule sections are private, and their tests are in `src/tests`.

mod activation;
mod advance;
mod attrition;
mod board;
mod cards;
mod combat;
mod combat_cards;
pub mod data;
mod events;
pub mod game;
mod losses;
mod movement;
mod offensives;
mod operations;
mod optional_cards;
mod placement;
mod present;
mod preview;
mod redeployment;
mod replacements;
mod retreat;
mod round;
mod sequence;
mod setup;
mod sieges;
pub mod state;
mod supply;
mod tables;
mod tournament;
mod trenches;
mod victory;
mod war_status;

pub use data::{
    Card, Data, DataError, Deck, Factors, Kind, LineMasks, Nation, Piece, Reinforcements, RpBox, RpPool, Side,
    SpaceFacts,
};
pub use offensives::Offensive;

#[cfg(test)]
mod tests;

//! GMT's 光荣之路 (*Paths of Glory*) for Sandtable. So far its data: the point-to-point map,
//! the counters and the strategy cards ([`data`]) and the tables ([`tables`]), loaded from the
//! files in `data/`; of the rules, how each side fires and who wins a combat ([`combat`]) and
//! how losses are taken ([`losses`]). The rest of the rules come later; this crate is not yet in
//! the catalog of playable games.

pub mod combat;
pub mod data;
pub mod losses;
pub mod tables;

pub use data::{
    Card, Data, DataError, Deck, Factors, Kind, LineMasks, Nation, Piece, Reinforcements, RpBox, RpPool, Side,
    SpaceFacts,
};

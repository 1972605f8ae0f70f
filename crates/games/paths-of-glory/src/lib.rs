//! GMT's 光荣之路 (*Paths of Glory*) for Sandtable. So far its data: the point-to-point map,
//! the counters and the strategy cards ([`data`]), loaded from the files in `data/`. The rules
//! come later (issue 13); this crate is not yet in the catalog of playable games.

pub mod data;

pub use data::{
    Card, Data, DataError, Deck, Factors, Kind, LineMasks, Nation, Piece, Reinforcements, RpBox, RpPool, Side,
    SpaceFacts,
};

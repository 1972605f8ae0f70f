//! Sandtable's engine core.
//!
//! Everything that more than one rule system needs lives here, once: hex grids with printed
//! ids and hexside features, point-to-point maps, the map files of both, searches over flat
//! arrays with a cost function the game supplies, combat tables with odds columns and fire
//! tables with strength columns, a portable seeded generator,
//! the [`game::Game`] trait every rule system implements, and the action record with its
//! checksums, replay and undo.

pub mod bonds;
pub mod chance;
pub mod checksum;
pub mod combat;
pub mod driver;
pub mod fuzz;
pub mod game;
pub mod graph;
pub mod hex;
pub mod los;
pub mod map;
pub mod move_log;
pub mod reach;
pub mod record;
pub mod render;
pub mod search;
pub mod space_map;
pub mod stack;
pub mod text;
pub mod toy;
pub mod trace;

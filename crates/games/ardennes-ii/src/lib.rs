//! MMP's Standard Combat Series game 阿登 II (Ardennes II) as a Sandtable rule system.
//!
//! Rules source: the Chinese rulebook (`shared/seeds/ardennes-ii.zh.txt`) with the SCS series
//! rules it relies on; readings of ambiguous rules are in `RULINGS.md`. The map, the counter
//! values the set-ups do not print and the scenario data live in `data/` as plain files, each
//! saying where its content comes from.
pub mod bonds;
pub mod data;
pub mod sequence;

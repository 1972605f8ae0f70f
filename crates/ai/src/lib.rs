//! Computer opponents. Every agent plays through the same [`Agent`] interface a person's
//! choices go through: it sees the legal actions of the pending decision and picks one.
//!
//! - `random`: uniform among the legal actions (core's [`RandomAgent`]), for tests and as a
//!   baseline.
//! - `scripted`: a rule-of-thumb opponent per game ([`stalingrad::Scripted`],
//!   [`ardennes::Scripted`], [`glory::Scripted`]).

pub use sandtable_core::game::{Agent, RandomAgent};

pub mod ardennes;
pub mod glory;
pub mod stalingrad;

/// The agent names every game offers.
pub const AGENTS: &[&str] = &["random", "scripted"];

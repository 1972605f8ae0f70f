//! The rules tests: the rulebook's examples, each rule section's cases on positions of the real
//! map, every card's event, and random play's invariants (no panic, no dead end, cards
//! conserved, secrecy, replay).

mod advance;
mod attrition;
mod board;
mod cards;
mod combat;
mod combat_cards;
mod common;
mod cut_short;
mod data;
mod edition7;
mod events;
mod events_arrivals;
mod events_front;
mod events_war;
mod greece;
mod kept;
mod kept_cases;
mod london;
mod losses;
mod marks;
mod movement;
mod multinational;
mod offensives;
mod operations;
mod operations_driver;
mod play;
mod preview;
mod redeployment;
mod replacements;
mod retreat;
mod retreated;
mod sallies;
mod saves;
mod secrecy;
mod setup;
mod sieges;
mod stand_fast;
mod summer_desert;
mod supply;
mod tournament;
mod trenches;
mod victory;

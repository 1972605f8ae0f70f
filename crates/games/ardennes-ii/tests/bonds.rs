//! The ZOC Bonds (1.2) the core finds among the posts within two columns of each post are
//! those the search it replaced finds stepping two hexes out of every post: at every decision
//! of random games in every scenario, for both sides.

mod common;

use common::*;
use sandtable_ardennes_ii::rules::bonds_both_ways;
use sandtable_ardennes_ii::ArdennesII;

fn check(scenario: &str, seed: u64, decisions: usize) -> usize {
    let mut bonds_seen = 0;
    random_play(scenario, seed, decisions, |g: &ArdennesII, _, _, step, _| {
        for (seat, (found, by_steps)) in bonds_both_ways(g.world(), g.state()).into_iter().enumerate() {
            assert_eq!(
                found, by_steps,
                "{scenario} seed {seed} step {step}: seat {seat}'s bonds differ"
            );
            bonds_seen += found.len();
        }
        None
    });
    bonds_seen
}

#[test]
fn the_bonds_found_by_column_are_those_found_stepping_out_of_every_post() {
    let mut seen = 0;
    for (i, s) in SCENARIOS.iter().enumerate() {
        seen += check(s, 300 + i as u64, 150);
    }
    seen += check("campaign", 7, 600);
    assert!(seen > 1000, "only {seen} bonds compared");
}

//! Games begun on an earlier data edition go on under its readings: records of random games
//! saved by the build before data edition 5's corrections (sieges, retreats, the Caucasus
//! crossing, the ANA, the offensives, the corps that replace an army) replay on this build, step
//! by step, every checksum as recorded. Each of them stopped replaying, at the step where one of
//! those corrections changed the game, until the corrections were kept for edition 5 games.
//! Records saved by the edition 5 and 6 builds replay in the same way on later editions.

use crate::game::PathsOfGlory;
use sandtable_core::record::Session;

fn replays(name: &str, edition: u8, text: &str) {
    let session = Session::<PathsOfGlory>::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(session.game.scenario.edition, edition, "{name}");
}

#[test]
fn games_saved_on_edition_4_replay() {
    replays("campaign 6", 4, include_str!("saves/edition-4-campaign-6.json"));
    replays("limited war 5", 4, include_str!("saves/edition-4-limited-war-5.json"));
    replays("historical 4", 4, include_str!("saves/edition-4-historical-4.json"));
}

#[test]
fn games_saved_on_edition_6_replay() {
    // A campaign in which the Allies played Salonika: its neutral Greek corps were then
    // eliminated by attrition and redeployed, as edition 6 allowed.
    replays("campaign 11", 6, include_str!("saves/edition-6-campaign-11.json"));
    replays("introductory 2", 6, include_str!("saves/edition-6-introductory-2.json"));
}

#[test]
fn games_saved_on_edition_5_replay() {
    replays("campaign 6", 5, include_str!("saves/edition-5-campaign-6.json"));
    replays("limited war 5", 5, include_str!("saves/edition-5-limited-war-5.json"));
}

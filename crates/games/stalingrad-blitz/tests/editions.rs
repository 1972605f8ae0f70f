//! Data editions: a game goes on with the data it began on. Edition 2 corrected the map (roads
//! and railways cross the major rivers only at the bridges of 1942) and the Soviet track (the
//! NKVD-Mot row); games begun on edition 1 keep its map and counters, so their moves replay.

use sandtable_core::game::{Game, Rules};
use sandtable_core::record::{DynSession, Record, ScenarioSource, Session};
use sandtable_stalingrad_blitz::StalingradBlitz;

/// Whether a road joins the two hexes (ids) on a game's map.
fn road_between(g: &StalingradBlitz, a: &str, b: &str) -> bool {
    let d = g.data();
    let (a, b) = (d.map.grid.parse(a).unwrap(), d.map.grid.parse(b).unwrap());
    let dir = d.map.grid.dir_to(a, b).expect("neighbours");
    d.map.side(a, dir) & d.s.road != 0
}

#[test]
fn a_game_goes_on_with_the_data_it_began_on() {
    assert_eq!(StalingradBlitz::DATA_EDITION, "2");
    let today = StalingradBlitz::new_game("campaign", 1).unwrap();
    let first = StalingradBlitz::new_game_edition("campaign", 1, "1").unwrap();
    // Edition 1's road out of Stalingrad ran straight over the Volga at 3613/3714.
    assert!(road_between(&first, "3613", "3714"));
    assert!(!road_between(&today, "3613", "3714"));
    // Edition 1 had no NKVD-Mot counters.
    let nkvd = |g: &StalingradBlitz| g.data().units.iter().filter(|u| u.id.contains("nkvd-mot")).count();
    assert_eq!((nkvd(&first), nkvd(&today)), (0, 2));
    // An edition this build does not ship is refused, not guessed.
    assert!(StalingradBlitz::new_game_edition("campaign", 1, "0").is_err());
}

#[test]
fn a_save_keeps_its_edition() {
    let mut s = Session::<StalingradBlitz>::new(ScenarioSource::Shipped("campaign".into()), 3).unwrap();
    assert_eq!(s.record.edition, "2");
    let mut rng = sandtable_core::chance::Rng::from_seed(3);
    for _ in 0..40 {
        let sandtable_core::game::Pending::Seat(seat) = s.game.pending() else {
            break;
        };
        let l = s.game.legal_list();
        let a = l[rng.below(l.len() as u32) as usize];
        s.act(seat, &a).unwrap();
    }
    let text = DynSession::to_json(&s);
    assert!(text.contains("\"edition\": \"2\""));
    let back = Session::<StalingradBlitz>::from_json(&text).unwrap();
    assert_eq!(back.game.checksum(), s.game.checksum());
    // The same record said to be of edition 1 is played on edition 1's data, whose counters
    // differ: its checksums no longer match, and the save is refused.
    let mut old: Record = serde_json::from_str(&text).unwrap();
    old.edition = "1".into();
    let e = Session::<StalingradBlitz>::replay(old).err().expect("refused");
    assert!(e.to_string().contains("step 1"), "{e}");
}

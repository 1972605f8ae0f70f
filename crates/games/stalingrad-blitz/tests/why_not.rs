//! A click the rules refuse is explained where the player made it (issue 11): the page asks
//! `record::why_not` about the counters and the hex clicked, and the game's own check answers
//! with the rule.

mod common;
use common::*;
use sandtable_core::game::{Game, Pending, Rules};
use sandtable_core::record::why_not;
use sandtable_stalingrad_blitz::{Action, StalingradBlitz};

/// The campaign at its first movement: the first action taken until a unit may move.
fn first_movement() -> StalingradBlitz {
    let mut g = StalingradBlitz::new_game("campaign", 3).expect("the campaign loads");
    for _ in 0..100 {
        let l = legal(&g);
        if l.iter().any(|a| matches!(a, Action::Move { .. })) {
            return g;
        }
        match g.pending() {
            Pending::Seat(seat) => g.apply(seat, &l[0]).expect("a legal action"),
            Pending::Chance => {
                g.resolve_chance();
            }
            Pending::Over => break,
        }
    }
    panic!("no unit came to move");
}

#[test]
fn a_click_the_rules_refuse_is_answered_with_the_rule() {
    let g = first_movement();
    let Pending::Seat(seat) = g.pending() else {
        panic!("a seat decides")
    };
    let list = legal(&g);
    let targets = g.targets(&list);
    let mover = targets
        .iter()
        .find(|t| t.units.len() == 1 && t.hexes.len() == 1)
        .expect("a move");
    let unit = mover.units[0].clone();

    // A hex it reaches: legal, so nothing to explain.
    assert_eq!(why_not(&g, seat, std::slice::from_ref(&unit), &mover.hexes[0]), None);
    // A corner of the map far beyond its movement points (9.2).
    let far = why_not(&g, seat, std::slice::from_ref(&unit), "0101").expect("a refusal");
    assert!(far.rule.starts_with("9.2"), "{far}");
    assert!(far.text.en.contains("0101") && far.text.zh.contains("0101"), "{far}");
    // A unit of the same side that no command activated (8.1), clicked where it stands.
    let other = g
        .view(None)
        .get("units")
        .and_then(|u| u.as_array())
        .and_then(|units| {
            units.iter().find_map(|u| {
                let id = u.get("id")?.as_str()?;
                let hex = u.get("loc")?.as_str()?;
                let side = u.get("side")?.as_str()?;
                (side == "axis" && !targets.iter().any(|t| t.units.iter().any(|x| x == id)))
                    .then(|| (id.to_string(), hex.to_string()))
            })
        })
        .expect("an Axis unit that cannot move");
    let idle = why_not(&g, seat, std::slice::from_ref(&other.0), &other.1).expect("a refusal");
    assert_eq!(idle.rule, "8.1", "{idle}");
    // A hex off the map: nothing to say.
    assert_eq!(why_not(&g, seat, &[unit], "9999"), None);
}

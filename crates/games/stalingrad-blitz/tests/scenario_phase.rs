//! A scenario file may begin its first turn in command execution (7.0), with the cup and the
//! chits already executed given; the loader holds that selection to 6.2.

mod common;
use common::*;
use sandtable_core::driver::Rules;
use sandtable_core::game::{Game, Pending};
use sandtable_stalingrad_blitz::state::Frame;
use sandtable_stalingrad_blitz::{Action, Side, StalingradBlitz};

/// Turn 3 takes 3 Front chits, 5 German and 2 Axis/Rnf chits (the turn track), and SUPPLY.
const CUP: &str = r#"phase = "execution"
cup = ["StrgFront", "SWFront", "1PzA", "4PzA", "4PzA", "6A", "R3A", "SUPPLY"]
used = ["CSFront", "1PzA", "H2A"]"#;

fn units() -> Vec<(&'static str, &'static str)> {
    vec![("ger-pz-16", "1207"), ("sov-hq-strgf", "2412")]
}

fn load(head: &str) -> Result<StalingradBlitz, String> {
    StalingradBlitz::from_text(&scenario_with(3, head, &units(), ""), 5).map_err(|e| e.0)
}

fn ids(g: &StalingradBlitz, chits: &[u8]) -> Vec<String> {
    let mut v: Vec<String> = chits.iter().map(|&c| g.data().chits[c as usize].id.clone()).collect();
    v.sort();
    v
}

#[test]
fn a_game_may_begin_with_the_cup_filled() {
    let g = load(CUP).expect("the scenario loads");
    assert_eq!(g.state().turn, 3);
    // The next thing to happen is chance drawing from the cup (7.1(1)).
    assert_eq!(g.frames().last(), Some(&Frame::Draw));
    assert_eq!(g.pending(), Pending::Chance);
    assert_eq!(
        ids(&g, &g.hidden().cup),
        ["1PzA", "4PzA", "4PzA", "6A", "R3A", "SUPPLY", "SWFront", "StrgFront"]
    );
    // 7.1(4): the executed chits lie face up and are not drawn again.
    assert_eq!(ids(&g, &g.state().used), ["1PzA", "CSFront", "H2A"]);
    // 6.1(3): each side's selection is its own secret, as if it had made it.
    assert_eq!(
        ids(&g, g.seat_view(Side::Soviet.seat()).my_picks()),
        ["CSFront", "SWFront", "StrgFront"]
    );
    assert_eq!(
        ids(&g, g.seat_view(Side::Axis.seat()).my_picks()),
        ["1PzA", "1PzA", "4PzA", "4PzA", "6A", "H2A", "R3A"]
    );
    // 6.2(2): the log does not tell whether a Soviet extra chit went in.
    let log = format!("{:?}", g.journal(None));
    assert!(
        log.contains("Chits in the cup: 8 (9 if the Soviet player put in"),
        "{log}"
    );
}

#[test]
fn the_drawn_chits_are_the_cup_and_the_turn_ends_when_it_is_empty() {
    let mut g = load(CUP).expect("the scenario loads");
    let cup = ids(&g, &g.hidden().cup);
    let mut drawn = Vec::new();
    // Each command is ended at once where it may be (placements and supply take their first
    // choice).
    while g.state().turn == 3 {
        match g.pending() {
            Pending::Chance => {
                let before = g.state().used.len();
                draw(&mut g);
                if let Some(&c) = g.state().used.get(before) {
                    drawn.push(c);
                }
            }
            Pending::Seat(_) => {
                let l = legal(&g);
                let end = l
                    .iter()
                    .find(|a| matches!(a, Action::EndChoose | Action::EndMovement | Action::EndDeclare));
                act(&mut g, *end.unwrap_or(&l[0]));
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(ids(&g, &drawn), cup);
}

#[test]
fn a_selection_6_2_forbids_is_refused() {
    for (head, rule) in [
        // Two Front chits where turn 3 takes three.
        (
            r#"phase = "execution"
cup = ["StrgFront", "1PzA", "4PzA", "4PzA", "6A", "R3A", "SUPPLY"]
used = ["CSFront", "1PzA", "H2A"]"#,
            "6.2(1)",
        ),
        // SOVIET REINF and STAVKA both.
        (
            r#"phase = "execution"
cup = ["StrgFront", "SWFront", "1PzA", "4PzA", "4PzA", "6A", "R3A", "SUPPLY", "STAVKA", "SOVIET-REINF"]
used = ["CSFront", "1PzA", "H2A"]"#,
            "6.2(2)",
        ),
        // No SUPPLY chit.
        (
            r#"phase = "execution"
cup = ["StrgFront", "SWFront", "1PzA", "4PzA", "4PzA", "6A", "R3A"]
used = ["CSFront", "1PzA", "H2A"]"#,
            "6.2(4)",
        ),
        // Three 1PzA chits: there are two.
        (
            r#"phase = "execution"
cup = ["StrgFront", "SWFront", "1PzA", "1PzA", "4PzA", "6A", "R3A", "SUPPLY"]
used = ["CSFront", "1PzA", "H2A"]"#,
            "2.23",
        ),
        // An unknown chit.
        (
            r#"phase = "execution"
cup = ["Stalin"]"#,
            "2.23",
        ),
        // A cup for a game that begins with command selection.
        (r#"cup = ["SUPPLY"]"#, "7.0"),
        (r#"phase = "combat""#, "7.0"),
    ] {
        let e = load(head).err().unwrap_or_else(|| panic!("accepted: {head}"));
        assert!(e.contains(rule), "{head}: {e}");
    }
    // A set-up left to the players comes before turn 1's selection (4.0).
    let e = StalingradBlitz::from_text(
        &scenario_with(1, r#"phase = "execution""#, &[("ger-pz-9", "set-up")], ""),
        1,
    )
    .err()
    .expect("refused");
    assert!(e.0.contains("4.0"), "{}", e.0);
}

//! What a seat may know (6.1(3)): a computer player's view of two games that differ only in
//! the other side's secret chits is the same, and the games sampled from a view agree with all
//! it shows while guessing the rest.

mod common;
use common::*;
use sandtable_core::chance::Rng;
use sandtable_core::game::{Game, Pending, Rules};
use sandtable_stalingrad_blitz::{Action, Side, StalingradBlitz};

/// The campaign after the Soviet selection, with the Soviets having put in the Front chits
/// the `pick`-th way; then the Axis picks the same.
fn after_soviet_picks(pick: usize) -> StalingradBlitz {
    let mut g = StalingradBlitz::new_game("campaign", 9).expect("the campaign loads");
    while g.pending() == Pending::Seat(Side::Soviet.seat()) {
        let l = legal(&g);
        act(&mut g, l[pick % l.len()]);
    }
    g
}

/// Everything the Axis seat's view shows, as text.
fn axis_sees(g: &StalingradBlitz) -> String {
    let v = g.seat_view(Side::Axis.seat());
    format!(
        "{:?}|{:?}|{:?}|{}|{:?}",
        v.state(),
        v.frames(),
        v.my_picks(),
        v.cup_len(),
        g.legal_list()
    )
}

#[test]
fn the_axis_view_does_not_tell_the_soviet_picks() {
    let a = after_soviet_picks(0);
    let b = after_soviet_picks(1);
    assert_ne!(a.hidden().picks, b.hidden().picks, "two different Soviet selections");
    assert_eq!(axis_sees(&a), axis_sees(&b));
    // The Soviet view does differ: it holds the Soviet's own chits.
    assert_ne!(
        a.seat_view(Side::Soviet.seat()).my_picks(),
        b.seat_view(Side::Soviet.seat()).my_picks()
    );
}

/// Two games in which the Soviet player did and did not put an extra chit in (6.2(2)), the
/// Axis then choosing alike: until the extra chit is drawn, the Axis view is the same.
#[test]
fn the_axis_view_does_not_tell_whether_an_extra_chit_went_in() {
    let play = |extra: bool| {
        let mut g = StalingradBlitz::new_game("campaign", 9).expect("the campaign loads");
        while let Pending::Seat(seat) = g.pending() {
            let l = legal(&g);
            if seat == Side::Axis.seat() && !g.hidden().cup.is_empty() {
                break;
            }
            let a = if seat == Side::Soviet.seat() && l.contains(&Action::NoExtra) {
                let pick = l.iter().find(|a| matches!(a, Action::Pick { .. }));
                if extra {
                    *pick.expect("an extra chit to pick")
                } else {
                    Action::NoExtra
                }
            } else {
                l[0]
            };
            act(&mut g, a);
        }
        g
    };
    let (with, without) = (play(true), play(false));
    assert!(!with.hidden().cup.is_empty(), "the cup is filled");
    assert_eq!(with.hidden().cup.len(), without.hidden().cup.len() + 1);
    // Compared whole, reported short (the views are long).
    let same = axis_sees(&with) == axis_sees(&without);
    assert!(
        same,
        "the Axis view tells whether the Soviet player put an extra chit in"
    );
}

#[test]
fn samples_agree_with_the_view_and_guess_the_rest() {
    // Into the command execution phase, chits in the cup.
    let mut g = after_soviet_picks(2);
    let mut rng = Rng::from_seed(4);
    while g.pending() == Pending::Seat(Side::Axis.seat()) && g.hidden().cup.is_empty() {
        let l = legal(&g);
        act(&mut g, l[rng.below(l.len() as u32) as usize]);
    }
    assert!(!g.hidden().cup.is_empty(), "the cup is filled");
    let view = g.seat_view(Side::Axis.seat());
    let mut soviet_guesses = std::collections::BTreeSet::new();
    for _ in 0..30 {
        let s = StalingradBlitz::sample(&view, &mut rng);
        let v = s.seat_view(Side::Axis.seat());
        assert_eq!(format!("{:?}", v.state()), format!("{:?}", view.state()));
        assert_eq!(v.frames(), view.frames());
        assert_eq!(v.my_picks(), view.my_picks());
        assert_eq!(v.cup_len(), view.cup_len());
        assert_ne!(
            s.engine().rng(),
            g.engine().rng(),
            "a sample must not foresee the real draws"
        );
        // The cup holds the Axis chits and SUPPLY as they are, and Soviet ones of the right kind.
        let mut cup = s.hidden().cup.clone();
        cup.sort_unstable();
        let mut real = g.hidden().cup.clone();
        real.sort_unstable();
        let axis: Vec<u8> = cup
            .iter()
            .copied()
            .filter(|&c| g.data().chits[c as usize].side != Some(Side::Soviet))
            .collect();
        let real_axis: Vec<u8> = real
            .iter()
            .copied()
            .filter(|&c| g.data().chits[c as usize].side != Some(Side::Soviet))
            .collect();
        assert_eq!(axis, real_axis);
        let classes = |cup: &[u8]| -> Vec<String> {
            let mut v: Vec<String> = cup
                .iter()
                .filter(|&&c| g.data().chits[c as usize].side == Some(Side::Soviet))
                .map(|&c| format!("{:?}", g.data().chits[c as usize].class))
                .collect();
            v.sort();
            v
        };
        assert_eq!(classes(&cup), classes(&real));
        soviet_guesses.insert(s.hidden().picks[Side::Soviet.seat() as usize].clone());
        // A sample plays on like a game.
        let mut s = s;
        s.set_journal(false);
        let n = random_play(&mut s, 1, 50);
        assert!(n > 0);
    }
    assert!(soviet_guesses.len() > 1, "the Soviet chits are guessed, not known");
}

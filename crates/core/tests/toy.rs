//! The toy game of the driver's documentation (`sandtable_core::toy`), played: its rules, a
//! move interrupted where it happens, chance as outcomes, undo barriers the core finds by
//! itself, and random play under the fuzz harness.

use sandtable_core::fuzz::Fuzz;
use sandtable_core::game::{Game, Pending, Rules};
use sandtable_core::record::{ScenarioSource, Session};
use sandtable_core::toy::{Action, Bridgehead, Frame, BLUE, RED};

fn game(seed: u64) -> Bridgehead {
    Bridgehead::new_game("bridgehead", seed).expect("the toy game starts")
}

fn session(seed: u64) -> Session<Bridgehead> {
    Session::new(ScenarioSource::Shipped("bridgehead".into()), seed).expect("the toy game starts")
}

#[test]
fn blue_sets_up_then_red_moves() {
    let mut g = game(1);
    assert_eq!(g.pending(), Pending::Seat(BLUE));
    assert_eq!(g.legal_list().len(), 2);
    g.apply(BLUE, &Action::Mine { mined: true }).unwrap();
    // Turn 1 began by itself: its frame waits below the two phases.
    assert_eq!(
        g.engine().frames(),
        &[Frame::Turn { turn: 1, begun: true }, Frame::Combat, Frame::Movement]
    );
    assert_eq!(g.pending(), Pending::Seat(RED));
    let legal = g.legal_list();
    // Each company may go to space 1 or 2, or Red ends movement.
    assert_eq!(legal.len(), 5, "{legal:?}");
}

#[test]
fn one_check_says_why_and_the_list_is_what_it_accepts() {
    let mut g = game(1);
    g.apply(BLUE, &Action::Mine { mined: false }).unwrap();
    let refused = g.apply(RED, &Action::Move { company: 0, to: 3 }).unwrap_err();
    assert_eq!(refused.rule, "T3");
    assert_eq!(
        g.apply(RED, &Action::Move { company: 7, to: 1 }).unwrap_err().rule,
        "T2"
    );
    assert_eq!(
        g.apply(BLUE, &Action::EndMovement).unwrap_err().text.en,
        "Red decides now"
    );
    for to in 0..=6 {
        let listed = g.legal_list().contains(&Action::Move { company: 1, to });
        assert_eq!(listed, g.may_move(1, to).is_ok(), "space {to}");
    }
}

/// Moves company A to space 3 in two turns and starts its crossing.
fn to_the_bridge(g: &mut Bridgehead) {
    g.apply(RED, &Action::Move { company: 0, to: 2 }).unwrap();
    g.apply(RED, &Action::EndMovement).unwrap();
    g.apply(RED, &Action::EndCombat).unwrap();
    g.apply(RED, &Action::Move { company: 0, to: 4 }).unwrap();
}

#[test]
fn the_bridge_window_opens_in_the_middle_of_the_move_and_the_move_goes_on() {
    let mut g = game(2);
    g.apply(BLUE, &Action::Mine { mined: true }).unwrap();
    to_the_bridge(&mut g);
    // A stands on space 3 (the first step was taken), and the march waits under Blue's window.
    assert_eq!(g.pending(), Pending::Seat(BLUE));
    assert!(matches!(g.engine().top(), Some(Frame::BridgeWindow { company: 0 })));
    assert!(matches!(
        g.engine().frames()[g.engine().frames().len() - 2],
        Frame::March { company: 0, .. }
    ));
    assert_eq!(g.view(None)["companies"][0], 3);
    // Blue lets them cross: the rest of the move is played.
    g.apply(BLUE, &Action::Blow { blow: false }).unwrap();
    assert_eq!(g.view(None)["companies"][0], 4);
    assert_eq!(g.pending(), Pending::Seat(RED));
}

#[test]
fn blowing_the_bridge_stops_the_move_and_reveals_the_mines_so_it_cannot_be_undone() {
    let mut s = session(3);
    s.act(BLUE, &Action::Mine { mined: true }).unwrap();
    assert_eq!(
        s.game.view(Some(RED))["mined"],
        serde_json::Value::Null,
        "Red does not know"
    );
    s.act(RED, &Action::Move { company: 0, to: 2 }).unwrap();
    assert!(s.can_undo(RED), "an ordinary move can be taken back");
    s.act(RED, &Action::EndMovement).unwrap();
    s.act(RED, &Action::EndCombat).unwrap();
    s.act(RED, &Action::Move { company: 0, to: 4 }).unwrap();
    let revealed = s.act(BLUE, &Action::Blow { blow: true }).unwrap();
    assert!(revealed, "the core saw the mines revealed");
    assert!(!s.can_undo(BLUE));
    assert_eq!(s.game.view(Some(RED))["mined"], true);
    assert_eq!(s.game.view(None)["companies"][0], 3, "A stopped before the bridge");
    // Next turn, nobody may cross.
    s.act(RED, &Action::EndMovement).unwrap();
    s.act(RED, &Action::EndCombat).unwrap();
    assert_eq!(
        s.game.apply(RED, &Action::Move { company: 0, to: 4 }).unwrap_err().rule,
        "T4"
    );
}

#[test]
fn chance_lists_its_outcomes_and_a_search_may_try_each() {
    let mut g = game(4);
    g.apply(BLUE, &Action::Mine { mined: false }).unwrap();
    // Two turns to space 5 for A, crossing unopposed.
    to_the_bridge(&mut g);
    g.apply(BLUE, &Action::Blow { blow: false }).unwrap();
    g.apply(RED, &Action::EndMovement).unwrap();
    g.apply(RED, &Action::EndCombat).unwrap();
    g.apply(RED, &Action::Move { company: 0, to: 5 }).unwrap();
    g.apply(RED, &Action::EndMovement).unwrap();
    g.apply(RED, &Action::Attack).unwrap();
    assert_eq!(g.pending(), Pending::Chance);
    let mut outcomes = Vec::new();
    g.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 6);
    assert!(outcomes.iter().all(|(_, w)| *w == 1));
    // Each face, tried on a copy: 1–2 fail, 3–4 ask Blue, 5–6 cost a step.
    let after: Vec<Pending> = outcomes
        .iter()
        .map(|(o, _)| {
            let mut h = g.clone();
            h.apply_chance(o).unwrap();
            h.pending()
        })
        .collect();
    assert_eq!(after[2], Pending::Seat(BLUE));
    assert_eq!(after[3], Pending::Seat(BLUE));
    assert!(g.clone().apply_chance(&Action::Die { face: 7 }).is_err());
    // Trying a face draws nothing from the generator; the real roll still comes from it.
    let before = g.engine().rng().clone();
    let mut h = g.clone();
    h.apply_chance(&Action::Die { face: 6 }).unwrap();
    assert_eq!(h.engine().rng(), &before);
    let rolled = g.resolve_chance().expect("a face");
    assert!(matches!(rolled, Action::Die { face: 1..=6 }));
    assert_ne!(g.engine().rng(), &before);
}

#[test]
fn the_record_holds_every_outcome_and_replays() {
    let mut s = session(5);
    let mut rng = sandtable_core::chance::Rng::from_seed(5);
    while let Pending::Seat(seat) = s.game.pending() {
        let legal = s.game.legal_list();
        let a = legal[rng.below(legal.len() as u32) as usize];
        s.act(seat, &a).unwrap();
    }
    let chance: Vec<_> = s.record.entries.iter().filter(|e| e.seat.is_none()).collect();
    assert!(chance.iter().all(|e| e.barrier && e.action.is_some()));
    let text = sandtable_core::record::DynSession::to_json(&s);
    let back = Session::<Bridgehead>::from_json(&text).expect("the record replays");
    assert_eq!(back.game.checksum(), s.game.checksum());
    // A chance outcome edited in the file is caught.
    if let Some(i) = s.record.entries.iter().position(|e| e.seat.is_none()) {
        let mut bad = s.record.clone();
        let face = bad.entries[i]
            .action
            .as_ref()
            .and_then(|a| a["face"].as_u64())
            .unwrap_or(1);
        bad.entries[i].action = Some(serde_json::json!({"do": "die", "face": face % 6 + 1}));
        assert!(Session::<Bridgehead>::replay(bad).is_err());
    }
}

#[test]
fn random_play_under_the_fuzz_harness() {
    let near = |_: &Bridgehead, a: &Action| -> Vec<Action> {
        match *a {
            Action::Move { company, to } => vec![
                Action::Move { company, to: to + 1 },
                Action::Move {
                    company,
                    to: to.wrapping_sub(1),
                },
                Action::Move {
                    company: 1 - company,
                    to,
                },
                Action::Move { company: 9, to },
            ],
            _ => vec![Action::Attack, Action::Blow { blow: true }, Action::Stand],
        }
    };
    let fuzz = Fuzz {
        make: &game,
        max_decisions: 1_000,
        near: &near,
        probe: 1_000,
        invariant: &|g: &Bridgehead| {
            let v = g.view(None);
            let platoon = v["platoon"].as_u64().unwrap_or(9);
            if platoon > 2 {
                return Err(format!("the platoon has {platoon} steps"));
            }
            Ok(())
        },
    };
    let played = fuzz.run(0..300).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played.finished, 300, "every game ends");
    assert!(played.chance > 0);
}

#[test]
fn a_seat_sees_only_what_it_may_and_samples_agree_with_it() {
    let mut g = game(6);
    g.apply(BLUE, &Action::Mine { mined: true }).unwrap();
    assert_eq!(g.seat_view(RED).mined(), None, "Red does not know");
    assert_eq!(g.seat_view(BLUE).mined(), Some(true));
    // Samples for Red agree with all Red sees, and guess the rest both ways.
    let mut rng = sandtable_core::chance::Rng::from_seed(1);
    let view = g.seat_view(RED);
    let samples: Vec<Bridgehead> = (0..40).map(|_| Bridgehead::sample(&view, &mut rng)).collect();
    for s in &samples {
        let v = s.seat_view(RED);
        assert_eq!(
            (v.companies(), v.platoon(), v.turn(), v.blown()),
            (view.companies(), view.platoon(), view.turn(), view.blown())
        );
        assert_eq!(s.engine().frames(), g.engine().frames());
        assert_ne!(
            s.engine().rng(),
            g.engine().rng(),
            "a sample must not foresee the real dice"
        );
    }
    let mined: Vec<bool> = samples
        .iter()
        .map(|s| s.seat_view(BLUE).mined() == Some(true))
        .collect();
    assert!(mined.contains(&true) && mined.contains(&false));
    // Blue's samples keep the truth: Blue knows it.
    let blue = g.seat_view(BLUE);
    assert!((0..10).all(|_| Bridgehead::sample(&blue, &mut rng).seat_view(BLUE).mined() == Some(true)));
}

#[test]
fn a_long_list_goes_to_a_page_with_each_companys_moves_packed() {
    use sandtable_core::record::{DynSession, PageEntry};
    use sandtable_core::text::Lang;
    let mut s = session(1);
    s.act(BLUE, &Action::Mine { mined: false }).unwrap();
    // Red's list: company A to space 1 or 2, company B the same, and the end of movement.
    let whole = s.legal_choices(Lang::En);
    let texts: Vec<&str> = whole.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts.len(), 5, "{texts:?}");
    // Shorter than the length from which lists are packed: whole, each action in its place.
    let short = s.page_legal(Lang::En, 6);
    assert_eq!(short.len(), 5);
    for (k, e) in short.iter().enumerate() {
        let PageEntry::Action { index, choice } = e else {
            panic!("a pack in a short list: {e:?}")
        };
        assert_eq!((*index, choice.text.as_str()), (k, texts[k]));
    }
    // As long: each company's moves are one pack where its first move stood.
    let packed = s.page_legal(Lang::En, 5);
    let [PageEntry::Pack(a), PageEntry::Pack(b), PageEntry::Action { index: 4, choice }] = &packed[..] else {
        panic!("{packed:?}")
    };
    assert_eq!((a.pack, a.count, b.pack, b.count), (0, 2, 1, 2));
    assert_eq!(choice.text, "End movement");
    // Each pack holds its company's moves, at their places in the whole list; with the actions
    // listed whole they are the list, each once.
    let mut places = vec![4];
    for (pack, name) in [(0, "company A"), (1, "company B")] {
        let moves = s.page_pack(Lang::En, 5, Some(pack));
        assert_eq!(moves.len(), 2);
        for (i, c) in moves {
            assert_eq!(c.text, texts[i]);
            assert!(c.text.contains(name), "{} in pack {pack}", c.text);
            places.push(i);
        }
    }
    places.sort();
    assert_eq!(places, [0, 1, 2, 3, 4]);
    assert!(s.page_pack(Lang::En, 5, Some(2)).is_empty());
    assert!(
        s.page_pack(Lang::En, 6, Some(0)).is_empty(),
        "a list that short has no packs"
    );
    let all: Vec<usize> = s.page_pack(Lang::En, 5, None).into_iter().map(|(i, _)| i).collect();
    assert_eq!(all, [0, 1, 2, 3, 4]);
}

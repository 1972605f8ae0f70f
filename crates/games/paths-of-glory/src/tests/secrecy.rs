//! 9.1: a hand is secret. Two games that differ only in the Allied hand give the Central Powers
//! and a spectator the same bytes on every channel the game has: the view, the log, the board,
//! the summary, the legal list and its words, the refusals; and the view computer players get
//! holds no card of the other hand.

use super::common;

use crate::game::{Action, PathsOfGlory, Use, AP, CP};
use crate::state::side_index;
use crate::Side;
use sandtable_core::chance::Rng;
use sandtable_core::driver::Rules;
use sandtable_core::game::{Game, Pending, Seat};
use sandtable_core::text::Lang;

/// Everything `seat` (or a spectator) is shown, as one string.
fn shown(g: &PathsOfGlory, seat: Option<Seat>) -> String {
    let mut out = String::new();
    out += &g.view(seat).to_string();
    for l in g.journal(seat) {
        out += &format!("{}|{}\n", l.text.en, l.text.zh);
    }
    for lang in [Lang::En, Lang::Zh] {
        out += &g.render_svg(seat, lang);
        out += &g.summary(seat, lang);
    }
    if let (Some(s), Pending::Seat(p)) = (seat, g.pending()) {
        if s == p {
            for a in g.legal_list().iter() {
                let d = g.describe(a);
                out += &format!("{}|{}|{}\n", g.notation(a), d.en, d.zh);
            }
        }
        // What a probe of the other hand's cards is told.
        for card in 1..=70u8 {
            let r = g.check_action(s, &Action::Play { card, with: Use::Ops });
            out += &format!("{card}:{:?}\n", r.err().map(|e| e.message(Lang::En)));
            let r = g.check_action(s, &Action::CombatCard { card });
            out += &format!("cc {card}:{:?}\n", r.err().map(|e| e.message(Lang::En)));
        }
    }
    out
}

/// A copy of the game with one Allied card in hand swapped for one of the Allied draw pile.
fn swapped(g: &PathsOfGlory) -> PathsOfGlory {
    let mut h = g.clone();
    let c = &mut h.pos.cards[side_index(Side::Ap)];
    assert!(!c.hand.is_empty() && !c.draw.is_empty(), "cards to swap");
    std::mem::swap(&mut c.hand[0], &mut c.draw[0]);
    c.draw.sort();
    h
}

#[test]
fn the_allied_hand_never_shows_to_the_central_powers_or_a_spectator() {
    let mut a = PathsOfGlory::new_game("campaign", 7).expect("the campaign loads");
    // Play to the first action round: the Guns of August choice, the deal, the offensives.
    a.apply(CP, &Action::GunsOfAugust { keep: false }).expect("the choice");
    while a.pending() == Pending::Chance {
        a.resolve_chance();
    }
    let mut b = swapped(&a);
    assert_ne!(a.checksum(), b.checksum(), "the games differ");
    let mut rng = Rng::from_seed(3);
    let mut compared = 0;
    // The CP plays the same in both games while it is the CP's turn.
    for _ in 0..60 {
        for seat in [Some(CP), None] {
            assert_eq!(shown(&a, seat), shown(&b, seat), "seat {seat:?}");
            compared += 1;
        }
        match a.pending() {
            Pending::Seat(CP) => {
                let legal = a.legal_list();
                let act = legal[rng.below(legal.len() as u32) as usize].clone();
                a.apply(CP, &act).expect("legal in a");
                b.apply(CP, &act).expect("legal in b");
            }
            _ => break,
        }
    }
    assert!(compared >= 4, "{compared}");
    // The view a computer player of the CP reads has no Allied card in hand.
    let v = a.seat_view(CP);
    assert_eq!(v.position().cards[side_index(Side::Ap)].hand, Vec::<u8>::new());
    assert!(v.position().cards.iter().all(|c| c.draw.is_empty()));
    assert_eq!(v.other_hand_size(), a.pos.cards[side_index(Side::Ap)].hand.len());
    // The Allies see their own hand.
    assert_eq!(
        a.seat_view(AP).hand(),
        a.pos.cards[side_index(Side::Ap)].hand.as_slice()
    );
}

#[test]
fn a_sample_deals_the_unseen_cards_and_keeps_what_the_seat_knows() {
    let mut g = PathsOfGlory::new_game("campaign", 11).expect("the campaign loads");
    g.apply(CP, &Action::GunsOfAugust { keep: true }).expect("the choice");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    let view = g.seat_view(CP);
    let mut rng = Rng::from_seed(5);
    let mut differs = false;
    for _ in 0..20 {
        let s = PathsOfGlory::sample(&view, &mut rng);
        let (real, guess) = (&g.pos.cards[side_index(Side::Ap)], &s.pos.cards[side_index(Side::Ap)]);
        assert_eq!(guess.hand.len(), real.hand.len());
        let mut all_real: Vec<u8> = real.hand.iter().chain(&real.draw).copied().collect();
        let mut all_guess: Vec<u8> = guess.hand.iter().chain(&guess.draw).copied().collect();
        all_real.sort();
        all_guess.sort();
        assert_eq!(all_real, all_guess, "the unseen cards are dealt, none made up");
        assert_eq!(
            s.pos.cards[side_index(Side::Cp)],
            g.pos.cards[side_index(Side::Cp)],
            "the own cards stay"
        );
        assert_eq!(s.pos.units, g.pos.units);
        differs |= guess.hand != real.hand;
    }
    assert!(differs, "the samples guess the hand");
}

#[test]
fn playing_a_card_reveals_it_and_nobody_undoes_across_that() {
    let mut g = PathsOfGlory::new_game("campaign", 2).expect("the campaign loads");
    g.apply(CP, &Action::GunsOfAugust { keep: false }).expect("the choice");
    while g.pending() == Pending::Chance {
        g.resolve_chance();
    }
    assert_eq!(g.pending(), Pending::Seat(CP));
    let before = g.hidden();
    let card = g.pos.cards[side_index(Side::Cp)].hand[0];
    g.apply(CP, &Action::Play { card, with: Use::Ops })
        .expect("a card for OPS");
    let after = g.hidden();
    assert!(
        sandtable_core::driver::revealed(&before, &after),
        "the card played is revealed"
    );
}

/// 12.2.5: a combat card the defender holds and may play shows to nobody before it is played:
/// two games that differ only in one Allied card, Pleve (AP #4, playable for the Russians
/// defending Lublin) in one and a card that is no combat card in the other, give the Central
/// Powers and a spectator the same bytes through the whole combat up to the Allies' choice, and
/// after they play none.
#[test]
fn a_combat_card_held_in_hand_does_not_show_before_it_is_played() {
    use crate::game::Frame;
    use crate::state::Location;
    let mut a = common::first_round();
    let data = a.data();
    let id = |s: &str| data.pieces.iter().position(|p| p.id == s).expect("a counter");
    let (prz, lublin) = (
        data.space("przemysl").expect("a space"),
        data.space("lublin").expect("a space"),
    );
    a.pos.units[id("ge-army-8")].loc = Location::Map(prz);
    a.pos.units[id("ah-army-4")].loc = Location::Aside;
    // Pleve in the Allied hand in place of one of its cards.
    let ap = side_index(Side::Ap);
    if !a.pos.cards[ap].hand.contains(&4) {
        let out = a.pos.cards[ap].hand.remove(0);
        a.pos.cards[ap].draw.push(out);
        a.pos.cards[ap].draw.sort();
        common::give(&mut a, Side::Ap, 4);
    }
    a.touch();
    let mut b = a.clone();
    let plain = *b.pos.cards[ap]
        .draw
        .iter()
        .find(|&&n| !data.card(Side::Ap, n).expect("a card").combat)
        .expect("a card that is no combat card");
    let c = &mut b.pos.cards[ap];
    c.hand.retain(|&n| n != 4);
    c.hand.push(plain);
    c.draw.retain(|&n| n != plain);
    c.draw.push(4);
    c.draw.sort();
    b.touch();
    let eighth = id("ge-army-8") as u16;
    let same = |a: &PathsOfGlory, b: &PathsOfGlory| {
        for seat in [Some(CP), None] {
            assert_eq!(
                shown(a, seat),
                shown(b, seat),
                "seat {seat:?} at {:?}",
                a.frames().last()
            );
        }
    };
    for act in [
        Action::AutomaticOps,
        Action::Activate {
            space: prz,
            combat: true,
        },
        Action::Target { space: lublin },
        Action::Join { unit: eighth },
        Action::Resolve,
        Action::EndCombatCards,
        Action::EndCombatCards,
    ] {
        same(&a, &b);
        a.apply(CP, &act).expect("legal in a");
        b.apply(CP, &act).expect("legal in b");
    }
    // The Allies' step: asked in both games.
    assert!(matches!(
        a.frames().last(),
        Some(Frame::CombatCards { side: Side::Ap, .. })
    ));
    assert_eq!(a.pending(), Pending::Seat(AP));
    assert_eq!(b.pending(), Pending::Seat(AP));
    same(&a, &b);
    assert!(a.legal_list().contains(&Action::CombatCard { card: 4 }));
    assert!(!b.legal_list().contains(&Action::CombatCard { card: 4 }));
    a.apply(AP, &Action::EndCombatCards).expect("none");
    b.apply(AP, &Action::EndCombatCards).expect("none");
    same(&a, &b);
}

/// Supplement 6.16: which optional cards a side picked, and for which basic cards, is its
/// secret. Two games whose Allies picked differently show the Central Powers and a spectator
/// the same bytes on every channel until the game is over, and a sample for a computer player
/// of the CP guesses the Allied picks rather than reading them.
#[test]
fn the_optional_cards_a_side_picks_stay_its_secret() {
    let mut a = PathsOfGlory::new_game("campaign-picked-cards", 4).expect("the scenario loads");
    // The CP picks first: all ten left out, the same in both games.
    for card in 56..=65 {
        a.apply(CP, &Action::LeaveOut { card }).expect("the CP leaves it out");
    }
    let mut b = a.clone();
    // The Allies: Paris Taxis (#56) in, in one game in place of a basic card, in the other left
    // out; the rest left out.
    let instead = a
        .legal_list()
        .iter()
        .find_map(|x| match *x {
            Action::PutIn { card: 56, instead } => Some(instead),
            _ => None,
        })
        .expect("a basic card of the same values");
    assert!(a.is_secret(&Action::PutIn { card: 56, instead }) && a.is_secret(&Action::LeaveOut { card: 56 }));
    a.apply(AP, &Action::PutIn { card: 56, instead }).expect("put in");
    b.apply(AP, &Action::LeaveOut { card: 56 }).expect("left out");
    for card in 57..=65 {
        a.apply(AP, &Action::LeaveOut { card }).expect("left out");
        b.apply(AP, &Action::LeaveOut { card }).expect("left out");
    }
    assert_ne!(a.checksum(), b.checksum(), "the games differ");
    for seat in [Some(CP), None] {
        assert_eq!(shown(&a, seat), shown(&b, seat), "seat {seat:?}");
    }
    // The Allies read their own pick.
    assert_ne!(shown(&a, Some(AP)), shown(&b, Some(AP)));
    assert!(a.view(Some(AP))["ap_cards"]["picked"][0]["in"]["number"] == 56);
    assert!(a.view(Some(CP))["ap_cards"]["picked"].is_null());
    // A computer player of the CP sees no Allied pick, and its samples guess them.
    let view = a.seat_view(CP);
    assert!(view.position().cards[side_index(Side::Ap)].picked.is_empty());
    assert!(view.unseen().contains(&56) && view.unseen().contains(&instead));
    let mut rng = Rng::from_seed(9);
    let mut guesses = std::collections::BTreeSet::new();
    for _ in 0..30 {
        let s = PathsOfGlory::sample(&view, &mut rng);
        let real = &a.pos.cards[side_index(Side::Ap)];
        let guess = &s.pos.cards[side_index(Side::Ap)];
        assert_eq!(guess.hand.len(), real.hand.len());
        assert_eq!(guess.hand.len() + guess.draw.len(), real.hand.len() + real.draw.len());
        super::common::cards_conserved(&s).expect("a guess is a whole deck");
        assert_eq!(s.pos.cards[side_index(Side::Cp)], a.pos.cards[side_index(Side::Cp)]);
        guesses.insert(guess.picked.clone());
    }
    assert!(guesses.len() > 5, "the picks are guessed, not read: {guesses:?}");
}

/// 5.6.1: in a tournament the bid decides who holds which hand: with the Allies bid to the first
/// seat, the Allied hand shows to that seat only, never to the second (the CP now) nor to a
/// spectator.
#[test]
fn in_a_tournament_a_hand_shows_only_to_the_seat_the_bid_gave_it() {
    let mut a = PathsOfGlory::new_game("campaign-tournament", 7).expect("the tournament loads");
    for face in [6, 1] {
        a.apply_chance(&Action::Die { face }).expect("a bid die");
    }
    a.apply(0, &Action::Bid { side: Side::Ap, vp: 1 })
        .expect("the Allies for 1 VP");
    a.apply(1, &Action::AcceptBid).expect("accepted");
    let (allies, central) = (0, 1);
    assert_eq!(a.seat_of(Side::Ap), allies);
    a.apply(central, &Action::GunsOfAugust { keep: false })
        .expect("the CP's choice");
    while a.pending() == Pending::Chance {
        a.resolve_chance();
    }
    let mut b = swapped(&a);
    assert_ne!(
        shown(&a, Some(allies)),
        shown(&b, Some(allies)),
        "the Allies see their own hand"
    );
    let mut rng = Rng::from_seed(5);
    let mut compared = 0;
    for _ in 0..60 {
        for seat in [Some(central), None] {
            assert_eq!(shown(&a, seat), shown(&b, seat), "seat {seat:?}");
            compared += 1;
        }
        match a.pending() {
            Pending::Seat(s) if s == central => {
                let legal = a.legal_list();
                let act = legal[rng.below(legal.len() as u32) as usize].clone();
                a.apply(central, &act).expect("legal in a");
                b.apply(central, &act).expect("legal in b");
            }
            _ => break,
        }
    }
    assert!(compared >= 4, "{compared}");
    let ap = side_index(Side::Ap);
    assert_eq!(a.seat_view(central).position().cards[ap].hand, Vec::<u8>::new());
    assert_eq!(a.seat_view(allies).hand(), a.pos.cards[ap].hand.as_slice());
    assert_eq!(a.hidden()[central as usize].len(), a.pos.cards[ap].hand.len());
    assert_eq!(
        a.hidden()[allies as usize].len(),
        a.pos.cards[side_index(Side::Cp)].hand.len()
    );
}

/// A finished game's log is everyone's: each side's draws, hidden while it went on, are then
/// told in that side's name, not as "You draw" to a spectator or to the other side.
#[test]
fn once_the_game_is_over_the_draws_are_told_in_each_sides_name() {
    use sandtable_core::game::{play_out, Agent, RandomAgent};
    let mut g = PathsOfGlory::new_game("introductory", 3).expect("the scenario loads");
    g.set_journal(true);
    let mut agents: Vec<Box<dyn Agent<PathsOfGlory>>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
    play_out(&mut g, &mut agents, &mut Rng::from_seed(3), 20_000).expect("random play");
    assert_eq!(g.pending(), Pending::Over, "the game ends");
    let read = |seat| -> Vec<String> { g.journal(seat).into_iter().map(|l| l.text.en).collect() };
    let spectator = read(None);
    assert!(spectator.iter().any(|l| l.starts_with("The CP draws #")));
    assert!(spectator.iter().any(|l| l.starts_with("The AP draws #")));
    assert!(
        !spectator.iter().any(|l| l.starts_with("You ")),
        "no line speaks to a spectator"
    );
    // Each side still reads its own draws in its own words, the other's in that side's name.
    let cp = read(Some(CP));
    assert!(cp.iter().any(|l| l.starts_with("You draw #")) && cp.iter().any(|l| l.starts_with("The AP draws #")));
    assert!(!cp.iter().any(|l| l.starts_with("The CP draws #")));
}

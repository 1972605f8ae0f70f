mod common;
use common::*;
use sandtable_core::game::{Game, Pending, Rules};

#[test]
fn random_games_on_the_small_map_end() {
    for seed in 0..20 {
        let mut g = small_game(1, SKIRMISH, seed);
        let n = random_play(&mut g, seed, 200_000);
        assert_eq!(g.pending(), Pending::Over, "seed {seed} after {n} decisions");
    }
}

#[test]
#[ignore]
fn print_a_game() {
    let mut g = small_game(1, SKIRMISH, 3);
    g.set_journal(true);
    let n = random_play(&mut g, 3, 200_000);
    for l in g.journal(None) {
        println!("{}{}", if l.heading { "## " } else { "   " }, l.text.en);
    }
    println!("{n} decisions");
}

#[test]
fn random_campaign_games_end() {
    use sandtable_stalingrad_blitz::StalingradBlitz;
    for seed in 0..3 {
        let mut g = StalingradBlitz::new_game("campaign", seed).expect("campaign loads");
        let n = random_play(&mut g, seed, 2_000_000);
        assert_eq!(g.pending(), Pending::Over, "seed {seed} after {n} decisions");
    }
}

#[test]
fn every_legal_action_reads_back_from_its_notation() {
    use sandtable_stalingrad_blitz::StalingradBlitz;
    let mut g = StalingradBlitz::new_game("campaign", 7).expect("campaign loads");
    let mut rng = sandtable_core::chance::Rng::from_seed(7);
    let mut legal = Vec::new();
    for _ in 0..400 {
        match g.pending() {
            Pending::Over => break,
            Pending::Chance => {
                g.resolve_chance();
            }
            Pending::Seat(seat) => {
                g.legal_actions(&mut legal);
                for a in &legal {
                    let typed = g.notation(a);
                    assert_eq!(g.parse_notation(&typed).as_ref(), Some(a), "`{typed}`");
                }
                let a = legal[rng.below(legal.len() as u32) as usize];
                g.apply(seat, &a).expect("legal");
            }
        }
    }
}

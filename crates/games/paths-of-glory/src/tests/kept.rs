//! What the game keeps between decisions or works out once for a whole list answers as the
//! computation it replaced, at every decision of random games.

use crate::game::PathsOfGlory;
use crate::state::Location;
use crate::supply::{self, tracer_of, Context, Occupancy};
use sandtable_core::game::Game;

/// Plays random campaign games, calling `check` at every decision; returns the decisions seen.
fn every_decision(seeds: std::ops::Range<u64>, max: u64, mut check: impl FnMut(&PathsOfGlory)) -> u64 {
    let mut seen = 0;
    for seed in seeds {
        let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
        let mut rng = sandtable_core::chance::Rng::from_seed(seed);
        sandtable_core::game::play_randomly_watching(&mut g, &mut rng, max, |g: &PathsOfGlory| {
            seen += 1;
            check(g);
        })
        .expect("random play");
    }
    seen
}

/// 14.1: the supply maps kept beside the game (flooded once per tracer, kept while the counters'
/// places, control and forts are unchanged) say what a search from each unit's space says, and
/// the kept count of units per space is the count made afresh.
#[test]
fn the_kept_supply_maps_agree_with_a_fresh_trace_at_every_decision() {
    let mut checked = 0u64;
    let mut n = 0u64;
    let decisions = every_decision(0..3, 400, |g| {
        n += 1;
        let data = g.data();
        let kept = g.supply_context();
        assert!(kept.kept.is_some(), "the game's supply context has its kept maps");
        let fresh = Context { kept: None, ..kept };
        let mut asked = Vec::new();
        // Half the decisions asked while the maps are trusted for the position (as while a legal
        // list is made), half with the maps compared with it at each question.
        let _trust = n
            .is_multiple_of(2)
            .then(|| kept.kept.expect("kept").trust(data, &g.pos));
        for (u, unit) in g.pos.units.iter().enumerate() {
            let Location::Map(at) = unit.loc else { continue };
            let t = tracer_of(data, u);
            if asked.contains(&(t, at)) {
                continue;
            }
            asked.push((t, at));
            assert_eq!(
                supply::in_supply(data, &g.pos, t, at, &kept),
                supply::traced(data, &g.pos, t, at, &fresh),
                "{} at {}",
                data.pieces[u].id,
                data.map.graph.space(at).id
            );
            checked += 1;
        }
        let occ = kept.kept.expect("kept").occupancy(data, &g.pos);
        assert!(*occ == Occupancy::of(data, &g.pos), "the kept occupancy");
    });
    assert!(
        decisions > 300 && checked > 10_000,
        "{decisions} decisions, {checked} traces"
    );
}

/// 14.1: tracers of different nationalities that flood alike share one kept flood; for every
/// tracer of the counters, at every space, the shared flood says what a search from the space
/// says (every 25th decision of random campaigns).
#[test]
fn the_shared_floods_agree_with_a_fresh_trace_from_every_space() {
    let mut n = 0u64;
    let mut checked = 0u64;
    every_decision(0..3, 400, |g| {
        n += 1;
        if !n.is_multiple_of(25) {
            return;
        }
        let data = g.data();
        let kept = g.supply_context();
        let fresh = Context { kept: None, ..kept };
        let mut tracers = Vec::new();
        for u in 0..data.pieces.len() {
            let t = tracer_of(data, u);
            if !tracers.contains(&t) {
                tracers.push(t);
            }
        }
        for side in [crate::data::Side::Cp, crate::data::Side::Ap] {
            tracers.push(supply::Tracer::Space(side));
        }
        for &t in &tracers {
            for s in data.map.graph.space_indices() {
                assert_eq!(
                    supply::in_supply(data, &g.pos, t, s, &kept),
                    supply::traced(data, &g.pos, t, s, &fresh),
                    "{t:?} at {}",
                    data.map.graph.space(s).id
                );
                checked += 1;
            }
        }
    });
    assert!(checked > 100_000, "{checked}");
}

/// 10.1: while a legal list is made, the units of each space kept beside the game are those the
/// position lists, in the same order; outside it the kept lists are not offered.
#[test]
fn the_kept_units_of_each_space_are_the_positions_at_every_decision() {
    let mut spaces = 0u64;
    every_decision(0..3, 400, |g| {
        let data = g.data();
        let kept = g.supply_context().kept.expect("kept");
        let s0 = data.map.graph.space_indices().next().expect("a space");
        assert!(!kept.trusted_units_in(&g.pos, s0, &mut |_| ()), "untrusted");
        let _trust = kept.trust(data, &g.pos);
        for s in data.map.graph.space_indices() {
            let mut listed = Vec::new();
            assert!(kept.trusted_units_in(&g.pos, s, &mut |u| listed.push(u)));
            assert_eq!(
                listed,
                g.pos.units_in(s).collect::<Vec<_>>(),
                "{}",
                data.map.graph.space(s).id
            );
            spaces += 1;
        }
    });
    assert!(spaces > 100_000, "{spaces}");
}

/// 2022 13.1.12: whether a unit is supplied only through another nation's sources, answered
/// from a kept flood from its other sources, is what a search from its space says with those
/// sources not counted: for one unit of each nationality, at every space (every 10th decision of
/// random campaigns).
#[test]
fn the_kept_floods_without_foreign_sources_agree_with_a_fresh_trace() {
    let mut n = 0u64;
    let (mut checked, mut only_foreign) = (0u64, 0u64);
    every_decision(0..3, 400, |g| {
        n += 1;
        if !n.is_multiple_of(10) {
            return;
        }
        let data = g.data();
        let kept = g.supply_context();
        let fresh = Context { kept: None, ..kept };
        let mut units: Vec<usize> = Vec::new();
        for u in 0..data.pieces.len() {
            if !units.iter().any(|&v| tracer_of(data, v) == tracer_of(data, u)) {
                units.push(u);
            }
        }
        for &u in &units {
            for s in data.map.graph.space_indices() {
                let by_flood = supply::only_through_foreign_sources(data, &g.pos, u, s, &kept);
                assert_eq!(
                    by_flood,
                    supply::only_through_foreign_sources(data, &g.pos, u, s, &fresh),
                    "{} at {}",
                    data.pieces[u].id,
                    data.map.graph.space(s).id
                );
                checked += 1;
                only_foreign += by_flood as u64;
            }
        }
    });
    assert!(checked > 100_000 && only_foreign > 1_000, "{checked} {only_foreign}");
}

/// 13.1.10, 17.1.4: whether a side holds a nation's capitals, asked of the map's list of
/// capitals, is what a pass over every space says, for every nation with counters and both
/// sides, at every decision of random campaigns.
#[test]
fn the_capitals_held_agree_with_a_pass_over_every_space_at_every_decision() {
    let (mut asked, mut lost) = (0u64, 0u64);
    every_decision(0..3, 400, |g| {
        let data = g.data();
        let mut nations: Vec<crate::data::Nation> = data.pieces.iter().map(|p| p.nation).collect();
        nations.dedup();
        for &nation in &nations {
            for side in [crate::data::Side::Cp, crate::data::Side::Ap] {
                let every_space = matches!(nation, crate::data::Nation::Be | crate::data::Nation::Sb)
                    || data.map.graph.space_indices().all(|c| {
                        let f = data.facts(c);
                        let st = g.pos.space(c);
                        !f.capital
                            || f.nation.as_deref() != Some(nation.code())
                            || (st.control == Some(side) && st.fort != crate::state::Fort::Besieged)
                    });
                let held = g.pos.holds_capital(data, nation, side);
                assert_eq!(held, every_space, "{nation:?} {side:?}");
                asked += 1;
                lost += !held as u64;
            }
        }
    });
    assert!(asked > 10_000 && lost > 1_000, "{asked} {lost}");
}

/// 13.1, 14.1: the redeployments listed with each tracer's supplied spaces made once for the
/// whole list are the candidates the check accepts asking the supply maps at each question, at
/// every decision of random campaigns.
#[test]
fn the_redeployments_listed_with_floods_made_once_are_those_the_check_accepts() {
    let (mut lists, mut units) = (0u64, 0u64);
    every_decision(0..6, 400, |g| {
        let Some(frame @ crate::game::Frame::Redeployment { side, .. }) = g.engine.top().cloned() else {
            return;
        };
        let mut listed = Vec::new();
        crate::round::sr_legal(g, &frame, side, &mut listed);
        let mut candidates = Vec::new();
        crate::round::sr_candidates(g, &frame, side, &mut candidates);
        candidates.retain(|a| crate::round::check_sr(g, &frame, a).is_ok());
        assert_eq!(listed, candidates, "turn {}", g.pos.turn);
        lists += 1;
        units += listed.len() as u64;
    });
    assert!(lists > 100 && units > 1_000, "{lists} lists, {units} redeployments");
}

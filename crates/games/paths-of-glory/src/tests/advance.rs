//! 12.7 (seed 12.6) Advance on the real map.

use super::common;

use crate::advance::{routes, Context, Vacated};
use crate::movement;
use crate::state::Fort;
use crate::state::{Location, Position};
use crate::tables::Tables;
use crate::Side;
use common::{data, sp, start, unit};
use sandtable_core::graph::Space;

fn tables() -> Tables {
    Tables::load().expect("the tables load")
}

fn ports(open: bool) -> Context<'static> {
    Context {
        movement: movement::Context {
            channel_ports_open: open,
            turn: 3,
            ..movement::Context::default()
        },
    }
}

/// Puts a German army in a space next to the defending one (the space the CP's, its fort, if
/// any, destroyed).
fn attacker_at(pos: &mut Position, id: &str, at: &str) {
    pos.units[unit(id)].loc = Location::Map(sp(at));
    pos.spaces[sp(at).idx()].control = Some(Side::Cp);
    if data().facts(sp(at)).fort > 0 {
        pos.spaces[sp(at).idx()].fort = Fort::Destroyed;
    }
}

fn ids(r: &[Vec<Space>]) -> Vec<Vec<&'static str>> {
    r.iter()
        .map(|route| route.iter().map(|&s| data().map.graph.space(s).id.as_str()).collect())
        .collect()
}

/// The Germans from Liege beat the BEF at Brussels (clear), which retreated two spaces through
/// Cambrai (clear) to Amiens: a full-strength German army may advance into Brussels and on into
/// Cambrai, not beyond; after a one-space retreat only into Brussels; after the defenders were
/// eliminated, only into Brussels.
#[test]
fn advancing_after_brussels_12_6() {
    let mut pos: Position = start();
    pos.units[unit("br-army-bef")].loc = Location::Aside;
    attacker_at(&mut pos, "ge-army-2", "liege");
    let t = tables();
    let ctx = ports(true);
    let two = Vacated::Retreated {
        routes: vec![vec![sp("cambrai"), sp("amiens")]],
        cut_short: vec![],
    };
    let r = routes(data(), &t, &pos, unit("ge-army-2"), sp("brussels"), &two, &ctx, |_| {
        true
    });
    assert_eq!(ids(&r), [vec!["brussels"], vec!["brussels", "cambrai"]]);
    let one = Vacated::Retreated {
        routes: vec![vec![sp("cambrai")]],
        cut_short: vec![],
    };
    let r = routes(data(), &t, &pos, unit("ge-army-2"), sp("brussels"), &one, &ctx, |_| {
        true
    });
    assert_eq!(ids(&r), [vec!["brussels"]]);
    let r = routes(
        data(),
        &t,
        &pos,
        unit("ge-army-2"),
        sp("brussels"),
        &Vacated::Eliminated,
        &ctx,
        |_| true,
    );
    assert_eq!(ids(&r), [vec!["brussels"]]);
    // A reduced unit does not advance (12.6.1).
    pos.units[unit("ge-army-2")].full = false;
    assert!(
        routes(data(), &t, &pos, unit("ge-army-2"), sp("brussels"), &two, &ctx, |_| {
            true
        })
        .is_empty()
    );
    pos.units[unit("ge-army-2")].full = true;
    // 12.6.6: before Race to the Sea the CP may not advance into Ostend, which was not the
    // defending space.
    let via_ostend = Vacated::Retreated {
        routes: vec![vec![sp("ostend"), sp("calais")]],
        cut_short: vec![],
    };
    let closed = ports(false);
    let r = routes(
        data(),
        &t,
        &pos,
        unit("ge-army-2"),
        sp("brussels"),
        &via_ostend,
        &closed,
        |_| true,
    );
    assert_eq!(ids(&r), [vec!["brussels"]]);
    let r = routes(
        data(),
        &t,
        &pos,
        unit("ge-army-2"),
        sp("brussels"),
        &via_ostend,
        &ctx,
        |_| true,
    );
    assert_eq!(ids(&r), [vec!["brussels"], vec!["brussels", "ostend"]]);
    // Sedan is forest: an advance into it stops there (2022 12.7.3).
    pos.units[unit("fr-army-5")].loc = Location::Aside;
    let r = routes(data(), &t, &pos, unit("ge-army-2"), sp("sedan"), &two, &ctx, |_| true);
    assert_eq!(ids(&r), [vec!["sedan"]]);
    // From a space not next to the defending one there is no advance.
    let r = routes(data(), &t, &pos, unit("ge-army-3"), sp("brussels"), &two, &ctx, |_| {
        true
    });
    assert!(r.is_empty());
}

/// 12.7.3: an advance stops on entering forest, mountain, swamp or desert; 12.6.5: an enemy fort
/// only if the advancers can besiege it, and no farther; 2022 12.7.1: after an attack on a fort
/// alone, only if the fort was destroyed.
#[test]
fn where_an_advance_stops() {
    let pos = start();
    let t = tables();
    let ctx = ports(false);
    // Liege's fort (Allied, intact), attacked from Koblenz.
    let v = Vacated::Eliminated;
    assert_eq!(
        routes(data(), &t, &pos, unit("ge-army-2"), sp("liege"), &v, &ctx, |_| true),
        [vec![sp("liege")]]
    );
    let r = routes(data(), &t, &pos, unit("ge-corps-1"), sp("liege"), &v, &ctx, |_| false);
    assert!(r.is_empty(), "a corps that cannot besiege it");
    let alone = Vacated::FortAlone { destroyed: false };
    assert!(routes(data(), &t, &pos, unit("ge-army-2"), sp("liege"), &alone, &ctx, |_| true).is_empty());
    let mut fallen = pos.clone();
    fallen.spaces[sp("liege").idx()].fort = Fort::Destroyed;
    let gone = Vacated::FortAlone { destroyed: true };
    assert_eq!(
        routes(data(), &t, &fallen, unit("ge-army-2"), sp("liege"), &gone, &ctx, |_| {
            true
        }),
        [vec![sp("liege")]]
    );
}

/// 11.1.4: dashed lines bind an advance: a German army may not follow Russians along a line
/// only Russians may use.
#[test]
fn an_advance_keeps_to_the_lines_11_1_4() {
    let mut pos = start();
    let t = tables();
    let ctx = ports(true);
    let ru_line = data()
        .map
        .graph
        .space_indices()
        .flat_map(|s| data().map.graph.exits(s).iter().map(move |&(c, n)| (s, c, n)))
        .find(|&(_, c, _)| data().map.features(c) & data().lines.only_ru != 0)
        .expect("a Russian-only line");
    let (a, _, b) = ru_line;
    // Defending space a (emptied, Allied), retreat along the Russian line into b and beyond.
    for i in pos.units_in(a).collect::<Vec<_>>() {
        pos.units[i].loc = Location::Aside;
    }
    pos.spaces[a.idx()].control = Some(Side::Ap);
    let next = data()
        .map
        .graph
        .exits(a)
        .iter()
        .map(|&(_, n)| n)
        .find(|&n| n != b)
        .expect("another neighbour");
    for i in pos.units_in(next).collect::<Vec<_>>() {
        pos.units[i].loc = Location::Aside;
    }
    pos.units[unit("ge-army-2")].loc = Location::Map(next);
    pos.spaces[next.idx()].control = Some(Side::Cp);
    pos.spaces[next.idx()].fort = Fort::Destroyed;
    pos.spaces[a.idx()].fort = Fort::Destroyed;
    pos.spaces[b.idx()].control = Some(Side::Ap);
    for i in pos.units_in(b).collect::<Vec<_>>() {
        pos.units[i].loc = Location::Aside;
    }
    let beyond = data().map.graph.exits(b)[0].1;
    let v = Vacated::Retreated {
        routes: vec![vec![b, beyond]],
        cut_short: vec![],
    };
    let r = routes(data(), &t, &pos, unit("ge-army-2"), a, &v, &ctx, |_| true);
    assert!(!t.terrain_of(data(), a).advance_stops, "the advance could go on from a");
    assert_eq!(r, [vec![a]], "{:?}", ids(&r));
}

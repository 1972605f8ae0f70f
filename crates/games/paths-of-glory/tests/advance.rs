//! 12.7 (seed 12.6) Advance on the real map.

mod common;

use common::{data, sp, start, unit};
use sandtable_core::graph::Space;
use sandtable_paths_of_glory::advance::{routes, Context, Vacated};
use sandtable_paths_of_glory::state::{Location, Position};
use sandtable_paths_of_glory::tables::Tables;
use sandtable_paths_of_glory::Side;

fn tables() -> Tables {
    Tables::load().expect("the tables load")
}

fn ids(r: &[Vec<Space>]) -> Vec<Vec<&'static str>> {
    r.iter()
        .map(|route| route.iter().map(|&s| data().map.graph.space(s).id.as_str()).collect())
        .collect()
}

/// The Germans beat the BEF at Brussels (clear), which retreated two spaces through Cambrai
/// (clear) to Amiens: a full-strength German army may advance into Brussels and on into Cambrai,
/// not beyond; after a one-space retreat only into Brussels; after the defenders were
/// eliminated, only into Brussels.
#[test]
fn advancing_after_brussels_12_6() {
    let mut pos: Position = start();
    pos.units[unit("br-army-bef")].loc = Location::Aside;
    let t = tables();
    let ctx = Context {
        channel_ports_open: true,
    };
    let two = Vacated::Retreated(vec![vec![sp("cambrai"), sp("amiens")]]);
    let r = routes(data(), &t, &pos, unit("ge-army-2"), sp("brussels"), &two, &ctx, |_| {
        true
    });
    assert_eq!(ids(&r), [vec!["brussels"], vec!["brussels", "cambrai"]]);
    let one = Vacated::Retreated(vec![vec![sp("cambrai")]]);
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
    let via_ostend = Vacated::Retreated(vec![vec![sp("ostend"), sp("calais")]]);
    let closed = Context {
        channel_ports_open: false,
    };
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
}

/// 12.7.3: an advance stops on entering forest, mountain, swamp or desert; 12.6.5: an enemy fort
/// only if the advancers can besiege it, and no farther.
#[test]
fn where_an_advance_stops() {
    let pos = start();
    let t = tables();
    let ctx = Context::default();
    let stopping = data()
        .map
        .graph
        .space_indices()
        .find(|&s| {
            t.terrain_of(data(), s).advance_stops
                && pos.space(s).control == Some(Side::Ap)
                && pos.units_in(s).next().is_none()
                && data().facts(s).fort == 0
        })
        .expect("an empty Allied forest, mountain, swamp or desert space");
    let beyond = data().map.graph.exits(stopping)[0].1;
    let v = Vacated::Retreated(vec![vec![beyond, data().map.graph.exits(beyond)[0].1]]);
    let r = routes(data(), &t, &pos, unit("ge-army-2"), stopping, &v, &ctx, |_| true);
    assert_eq!(r, [vec![stopping]]);
    // Liege's fort (Allied, intact): in only if the advancers can besiege it.
    let v = Vacated::Eliminated;
    assert_eq!(
        routes(data(), &t, &pos, unit("ge-army-2"), sp("liege"), &v, &ctx, |_| true),
        [vec![sp("liege")]]
    );
    assert!(routes(data(), &t, &pos, unit("ge-army-2"), sp("liege"), &v, &ctx, |_| false).is_empty());
}

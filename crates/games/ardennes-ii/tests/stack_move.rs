//! A stack moving together (SCS 6.0, 3.1; data edition 3): the units of one hex move as one
//! along one route, each step costing every unit what it costs the unit it costs most, with the
//! MP of the unit with the fewest left; a German stack entering an empty traffic jam together
//! holds it, closed to every other German unit. Positions built on the real map.

mod common;

use common::*;
use sandtable_ardennes_ii::sequence::{Phase, Side};
use sandtable_ardennes_ii::state::UnitId;
use sandtable_ardennes_ii::Action;
use sandtable_core::game::{Game, Rules};
use sandtable_core::hex::Hex;

fn together(units: &[UnitId], to: Hex) -> Action {
    Action::MoveStack {
        units: units.into(),
        to,
        via: Default::default(),
    }
}

#[test]
fn a_stack_enters_an_empty_traffic_jam_together_and_holds_it() {
    // 3.1: "德军占据的交通堵塞格,对所有其他德军单位来说是禁入地形"; the designer's notes: "现在
    // 您可以移动堆叠到达您要去的的地方". The three units move in together, each DG there, and
    // the fourth German unit may not follow.
    let (mut g, [a, b, c, other], lane) = a_stack_at_a_jam(3);
    let stack = [a, b, c];
    assert!(
        legal(&g).contains(&together(&stack, lane.t)),
        "the whole stack is offered the jam"
    );
    play(&mut g, together(&stack, lane.t));
    for u in stack {
        let st = &g.state().units[u as usize];
        assert_eq!(st.hex(), Some(lane.t), "{}", def(&g, u).id);
        assert!(st.dg, "3.1: DG in the jam");
        assert!(st.moved);
    }
    let spent: Vec<u16> = stack.iter().map(|&u| g.state().units[u as usize].spent).collect();
    assert!(
        spent.iter().all(|&s| s == spent[0] && s > 0),
        "one price for all: {spent:?}"
    );
    let r = refused(&mut g, GERMAN, &Action::move_to(other, lane.t), "3.1");
    assert!(r.text.en.contains("traffic jam"), "{}", r.text.en);
    assert!(
        journal(&g)
            .iter()
            .any(|l| l.starts_with("The stack of") && l.contains("moves together")),
        "the journal says the stack moved together"
    );
}

#[test]
fn a_stack_pays_its_dearest_units_cost_and_has_its_fewest_mp() {
    // SCS 6.0 (RULINGS, "A stack moving together"): a foot and a mechanized unit entering a
    // hex whose cost differs for them both pay the dearer; the stack goes no farther than the
    // unit with the fewest MP left could.
    let mut g = empty(3, Phase::Movement(Side::German));
    let foot_u = pick(&g, 1, &[], foot(Side::German))[0];
    let mech_u = pick(&g, 1, &[foot_u], |d| {
        d.side == Side::German && d.is_mech() && !d.is_artillery() && d.front.ma >= 10
    })[0];
    let grid = g.world().map.grid.clone();
    // A step on the map that costs the two kinds of unit different MP (a track, woods…).
    let (from, to, costs) = grid
        .hexes()
        .filter(|&h| roomy(&g, h))
        .find_map(|h| {
            let b = board(&g);
            grid.neighbours(h).find_map(|(d, n)| {
                let f = b.step_cost(foot_u, h, d, n)?;
                let m = b.step_cost(mech_u, h, d, n)?;
                (f != m).then_some((h, n, (f, m)))
            })
        })
        .expect("a step whose cost differs for foot and mechanized units");
    put(&mut g, foot_u, from);
    put(&mut g, mech_u, from);
    play(&mut g, together(&[foot_u, mech_u], to));
    let dearer = costs.0.max(costs.1) as u16;
    for u in [foot_u, mech_u] {
        let st = &g.state().units[u as usize];
        assert_eq!((st.hex(), st.spent), (Some(to), dearer), "{}", def(&g, u).id);
    }
    // The foot unit has spent all but one half MP: the stack can pay no step dearer than that.
    let mut g2 = empty(3, Phase::Movement(Side::German));
    put(&mut g2, foot_u, from);
    put(&mut g2, mech_u, from);
    let allowance = board(&g2).allowance(foot_u) as u16;
    g2.edit().units[foot_u as usize].spent = allowance - 1;
    assert!(
        moves_of(&g2, mech_u).contains(&to),
        "the mechanized unit alone could go"
    );
    let r = refused(&mut g2, GERMAN, &together(&[mech_u, foot_u], to), "3.1");
    assert!(r.text.en.contains("the stack of"), "{}", r.text.en);
    assert!(r.text.zh.contains("堆叠"), "{}", r.text.zh);
}

#[test]
fn a_stack_goes_only_where_every_unit_may() {
    // 3.6: artillery may not enter a hex next to an enemy unit; moving with infantry does not
    // take it there.
    let mut g = empty(3, Phase::Movement(Side::German));
    let at = field(&g, 3, 0);
    let grid = g.world().map.grid.clone();
    let gun = pick(&g, 1, &[], |d| d.side == Side::German && d.is_artillery())[0];
    let inf = pick(&g, 1, &[gun], foot(Side::German))[0];
    put(&mut g, gun, at);
    put(&mut g, inf, at);
    let next = grid.neighbours(at).next().expect("a neighbour").1;
    let beyond = grid
        .neighbours(next)
        .map(|(_, n)| n)
        .find(|&n| grid.distance(at, n) == 2)
        .expect("a hex two out");
    let enemy = pick(&g, 1, &[], foot(Side::Allied))[0];
    put(&mut g, enemy, beyond);
    assert!(moves_of(&g, inf).contains(&next), "the infantry alone may go");
    let r = refused(&mut g, GERMAN, &together(&[inf, gun], next), "3.6");
    assert!(r.text.en.contains("artillery"), "{}", r.text.en);
}

#[test]
fn a_stack_move_is_refused_with_its_rule() {
    let (mut g, [a, b, _, other], lane) = a_stack_at_a_jam(3);
    // One unit is not a stack.
    let r = refused(&mut g, GERMAN, &together(&[a], lane.t), "SCS 6.0");
    assert!(r.text.en.contains("two units or more"), "{}", r.text.en);
    // Units of two hexes do not move together.
    let r = refused(&mut g, GERMAN, &together(&[a, other], lane.t), "SCS 6.0");
    assert!(r.text.en.contains("one hex"), "{}", r.text.en);
    // A unit named twice.
    refused(&mut g, GERMAN, &together(&[a, a], lane.t), "SCS 6.0");
    // A unit that fired may not move (3.5), with or without its stack.
    g.edit().units[b as usize].fired = true;
    refused(&mut g, GERMAN, &together(&[a, b], lane.t), "3.5");
    // A unit id that is no counter.
    refused(&mut g, GERMAN, &together(&[a, 9999], lane.t), "1.2");
    // Games begun on data editions 1 and 2 move units one at a time.
    let (mut g, [a, b, ..], lane) = a_stack_at_a_jam(2);
    assert!(!legal(&g).iter().any(|x| matches!(x, Action::MoveStack { .. })));
    let r = refused(&mut g, GERMAN, &together(&[a, b], lane.t), "SCS 6.0");
    assert!(r.text.en.contains("edition 2"), "{}", r.text.en);
}

#[test]
fn a_stack_follows_the_route_it_is_given() {
    // A route typed hex by hex, read back from its notation.
    let mut g = empty(3, Phase::Movement(Side::German));
    let at = field(&g, 3, 0);
    let grid = g.world().map.grid.clone();
    let two = pick(&g, 2, &[], foot(Side::German));
    for &u in &two {
        put(&mut g, u, at);
    }
    let (d, first) = grid.neighbours(at).next().expect("a neighbour");
    let second = step(&g, first, d);
    let a = Action::MoveStack {
        units: two.clone().into(),
        to: second,
        via: vec![first].into(),
    };
    let typed = g.notation(&a);
    assert!(typed.starts_with("move-stack "), "{typed}");
    assert_eq!(g.parse_notation(&typed), Some(a.clone()), "{typed}");
    let plain = together(&two, second);
    assert_eq!(g.parse_notation(&g.notation(&plain)), Some(plain));
    play(&mut g, a);
    for &u in &two {
        assert_eq!(g.state().units[u as usize].hex(), Some(second));
    }
    // A route that skips a hex is refused.
    let mut g = empty(3, Phase::Movement(Side::German));
    for &u in &two {
        put(&mut g, u, at);
    }
    let third = step(&g, second, d);
    let skip = Action::MoveStack {
        units: two.clone().into(),
        to: third,
        via: vec![first].into(),
    };
    refused(&mut g, GERMAN, &skip, "3.1");
}

#[test]
fn a_stack_reaching_a_primed_bridge_lets_the_us_try_once_for_the_stack() {
    // 3.8: the US may blow a primed bridge as German units reach it, once for each German unit
    // and bridge in a phase. A stack moving together reaches it as one: offered if any of its
    // units has not been offered it yet (here its first unit was, alone, earlier this phase).
    let mut g = empty(3, Phase::Movement(Side::German));
    let (symbol, start, halt, near, far) = bridge_approach(&g);
    let world = g.world().clone();
    let grid = &world.map.grid;
    let two = pick(&g, 2, &[], exploiter(Side::German));
    for &u in &two {
        put(&mut g, u, start);
    }
    let route = [start, halt, near, far];
    let guard_hex = grid
        .hexes()
        .find(|&h| grid.distance(h, symbol) <= 2 && route.iter().all(|&r| grid.distance(r, h) >= 2))
        .expect("room for the US unit");
    let guard = pick(&g, 1, &[], foot(Side::Allied))[0];
    put(&mut g, guard, guard_hex);
    let i = world
        .demolitions
        .iter()
        .position(|(h, _)| *h == symbol)
        .expect("the symbol") as u16;
    g.edit().approached.push((two[0], i));
    let go = together(&two, far);
    assert!(legal(&g).contains(&go), "the far bank is within the stack's reach");
    play(&mut g, go);
    for &u in &two {
        assert_eq!(
            g.state().units[u as usize].hex(),
            Some(halt),
            "the stack waits before the bridge"
        );
    }
    assert!(
        legal(&g).contains(&Action::Demolish { symbol }),
        "the US may blow it now"
    );
    play(&mut g, Action::Pass);
    for &u in &two {
        assert_eq!(g.state().units[u as usize].hex(), Some(far), "the move went on");
    }
}

#[test]
fn part_of_a_stack_is_offered_where_it_may_go_together() {
    // The legal list offers only the whole group of a hex; a page whose player picks two of the
    // three asks the core's `reach` for where those two may go together: the jam, which they
    // hold (3.1), is among them, and every one of them the game's check accepts.
    let (g, [a, b, c, _], lane) = a_stack_at_a_jam(3);
    let ids = |us: &[UnitId]| us.iter().map(|&u| def(&g, u).id.clone()).collect::<Vec<_>>();
    let two = sandtable_core::record::reach(&g, GERMAN, &ids(&[a, b]));
    assert!(two.contains(&together(&[a, b], lane.t)), "{two:?}");
    for m in &two {
        let Action::MoveStack { units, .. } = m else {
            panic!("not a stack move: {m:?}")
        };
        assert_eq!(units, &vec![a, b], "{m:?}");
        assert!(g.check_action(GERMAN, m).is_ok(), "{m:?}");
    }
    // The whole group is in the legal list already; a counter alone is no stack; the US seat
    // may move none of them.
    assert!(sandtable_core::record::reach(&g, GERMAN, &ids(&[a, b, c])).is_empty());
    assert!(sandtable_core::record::reach(&g, GERMAN, &ids(&[a])).is_empty());
    assert!(sandtable_core::record::reach(&g, ALLIED, &ids(&[a, b])).is_empty());
}

#[test]
fn moves_read_the_same_in_a_list_and_on_a_page() {
    // A move in words, whole (the log, the terminal) and in one language (a page's legal list):
    // "Move <unit> to <hex>", the stack's units named one after the other, the route chosen after
    // "by"; in Chinese the units first.
    let (g, [a, b, c, other], lane) = a_stack_at_a_jam(3);
    let name = |u: UnitId| g.unit_text(u);
    let hex = |h: Hex| g.world().data.hex_id(h);
    let (s, t) = (hex(lane.s), hex(lane.t));
    let cases = [
        (
            together(&[a, b, c], lane.t),
            format!("Move {}, {}, {} together to {t}", name(a).en, name(b).en, name(c).en),
            format!("{}、{}、{}一起移动到 {t}", name(a).zh, name(b).zh, name(c).zh),
        ),
        (
            Action::move_to(other, lane.t),
            format!("Move {} to {t}", name(other).en),
            format!("{}移动到 {t}", name(other).zh),
        ),
        (
            Action::Move {
                unit: other,
                to: lane.t,
                via: vec![lane.s].into(),
            },
            format!("Move {} to {t} by {s}", name(other).en),
            format!("{}经 {s} 移动到 {t}", name(other).zh),
        ),
        (
            Action::MoveStack {
                units: vec![a, b].into(),
                to: lane.t,
                via: vec![lane.s, lane.a].into(),
            },
            format!(
                "Move {}, {} together to {t} by {s} {}",
                name(a).en,
                name(b).en,
                hex(lane.a)
            ),
            format!("{}、{}一起经 {s} {} 移动到 {t}", name(a).zh, name(b).zh, hex(lane.a)),
        ),
    ];
    for (action, en, zh) in cases {
        let whole = g.describe(&action);
        assert_eq!((whole.en.as_str(), whole.zh.as_str()), (en.as_str(), zh.as_str()));
        assert_eq!(g.describe_in(&action, sandtable_core::text::Lang::En), en);
        assert_eq!(g.describe_in(&action, sandtable_core::text::Lang::Zh), zh);
    }
}

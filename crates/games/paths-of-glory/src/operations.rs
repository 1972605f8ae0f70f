//! 9.2 Operations, carried out: activating spaces (9.2.3–9.2.7), moving the units of spaces
//! activated for movement, one move walked space by space (11.0), then the combats of spaces
//! activated for combat, each through its steps (12.2.1): designating the attackers, the flank
//! attempt (12.3), the fire of each side (12.2.7, 12.2.8), the losses a step at a time (12.4),
//! the winner (12.2.10), the retreat (12.5) and the advance (12.7).

use crate::activation::{self, Purpose};
use crate::advance::{self, Vacated};
use crate::combat::{self, Fire, Table};
use crate::data::{Kind, Nation, Side};
use crate::game::{other, Action, Battle, BattleRoll, BattleStep, Frame, LossTaking, LossTarget, PathsOfGlory};
use crate::losses::{Fate, Loser, Losses, Pool, ReserveCorps};
use crate::movement;
use crate::offensives;
use crate::retreat;
use crate::sequence::{side_en, side_zh};
use crate::state::{side_index, Fort, Location};
use crate::trenches;
use crate::victory;
use crate::war_status::Commitment;
use sandtable_core::game::{Mark, Refusal};
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// 10.1.1: at most three units in a space.
const STACKING: usize = 3;

fn refuse(rule: &str, en: impl Into<String>, zh: impl Into<String>) -> Refusal {
    PathsOfGlory::refuse(rule, en, zh)
}

fn valid(g: &PathsOfGlory, s: Space) -> bool {
    s.idx() < g.data().map.graph.len()
}

/// The units of a side in a space, as counter numbers.
fn units_of(g: &PathsOfGlory, side: Side, s: Space) -> Vec<u16> {
    let mut out = Vec::new();
    units_into(g, side, s, &mut out);
    out
}

/// [`units_of`], written into `out` (cleared first): for a caller asking of many spaces.
fn units_into(g: &PathsOfGlory, side: Side, s: Space, out: &mut Vec<u16>) {
    out.clear();
    let data = g.data();
    let mut add = |u: usize| {
        if data.pieces[u].side == side {
            out.push(u as u16);
        }
    };
    // While a legal list is made, from the units of each space kept beside the game.
    if !g.kept.trusted_units_in(&g.pos, s, &mut add) {
        g.pos.units_in(s).for_each(add);
    }
}

/// The rules of movement in force now; `attack_marked` are the spaces activated for combat.
fn movement_context<'a>(g: &'a PathsOfGlory, attack_marked: &'a [Space]) -> movement::Context<'a> {
    movement::Context {
        attack_marked,
        // 9.5.3.5, 11.1.10: the beach holding the MEF Beachhead marker.
        open_beaches: g.pos.beachhead.as_slice(),
        // 11.1.9, 12.6.6, 2022 13.1: Race to the Sea (CP #8) or CP War Status 4.
        channel_ports_open: g.pos.war_status[side_index(Side::Cp)] >= 4 || crate::events::played(g, Side::Cp, 8),
        turn: g.pos.turn,
        german_fort_first: g.scenario.edition >= 5,
        sieges_resume: g.scenario.edition >= 6,
        caucasus_crossed: g.turn.caucasus_crossed,
        tsar_fell: crate::events::tsar_fell(g),
        brest_litovsk: crate::events::played(g, Side::Cp, 45),
        italy_restricted: g.scenario.historical && g.commitment[side_index(Side::Ap)] < Commitment::Total,
    }
}

fn activated(g: &PathsOfGlory, combat: bool) -> Vec<Space> {
    g.action
        .activated
        .iter()
        .filter(|&&(_, c)| c == combat)
        .map(|&(s, _)| s)
        .collect()
}

/// 9.2.3: what activating a space costs, for combat or for movement.
pub(crate) fn activation_cost(g: &PathsOfGlory, side: Side, s: Space, combat: bool) -> u8 {
    let (movement, combat_cost) = activation_costs(g, side, s);
    if combat {
        combat_cost
    } else {
        movement
    }
}

/// 9.2.3: what activating a space costs for movement and for combat, the space's units and the
/// events' terms read once for both.
fn activation_costs(g: &PathsOfGlory, side: Side, s: Space) -> (u8, u8) {
    activation_costs_of(g, side, s, &units_of(g, side, s), None)
}

/// [`activation_costs`] with the side's units in the space given, and the events in force when
/// already asked of for a list ([`crate::events::activation_events`], and whether the Tsar
/// has fallen).
fn activation_costs_of(
    g: &PathsOfGlory,
    side: Side,
    s: Space,
    here: &[u16],
    events: Option<(crate::events::ActivationEvents, bool)>,
) -> (u8, u8) {
    let data = g.data();
    // The pieces, on the stack for a stack within the limit (10.1.1).
    let mut few;
    let many: Vec<&crate::data::Piece>;
    let units: &[&crate::data::Piece] = match data.pieces.first() {
        Some(p0) if here.len() <= STACKING + 1 => {
            few = [p0; STACKING + 1];
            for (slot, &u) in few.iter_mut().zip(here) {
                *slot = &data.pieces[u as usize];
            }
            &few[..here.len()]
        }
        _ => {
            many = here.iter().map(|&u| &data.pieces[u as usize]).collect();
            &many
        }
    };
    let f = data.facts(s);
    // The events in force: nationalities joined (SUD Army, 11th Army, Everyone Into Battle) and
    // Moltke's cost per unit.
    let ((joined, per_unit), tsar_fell) = match events {
        Some((events, tsar_fell)) => (
            crate::events::activation_terms_with(g, side, s, events, Some(here)),
            tsar_fell,
        ),
        None => (crate::events::activation_terms(g, side, s), crate::events::tsar_fell(g)),
    };
    if per_unit {
        return (units.len() as u8, units.len() as u8);
    }
    let w = activation::Where {
        space: &data.map.graph.space(s).id,
        country: f.nation.as_deref(),
        tsar_fell,
        joined: &joined,
        mef_beachhead_supply: mef_beachhead_supply(g, side, s),
    };
    let movement = activation::cost(units, Purpose::Move, &w);
    // 16.4.5: only after the Fall of the Tsar does a combat activation cost otherwise (a point
    // per Russian unit); before it both purposes cost alike.
    let combat = if tsar_fell {
        activation::cost(units, Purpose::Combat, &w)
    } else {
        movement
    };
    (movement, combat)
}

/// What the lists of operations keep between decisions, beside the game, never part of its
/// state: the Activation frames' spaces ([`KeptActivations`]) and the Movement frames' searches
/// ([`KeptMoves`]).
#[derive(Default)]
pub(crate) struct KeptOperations {
    activations: KeptActivations,
    moves: KeptMoves,
}

/// What a Movement frame's list found of each stack's move (11.1), with all that the searches
/// read of the position beside them: kept while that stays the same, as when the side's own
/// units move out of and into spaces without an enemy fort, so that the next list asks again
/// only of stacks not searched yet.
#[derive(Default)]
pub(crate) struct KeptMoves {
    side: Option<Side>,
    /// Each counter's place and strength (11.1.7, 11.1.5: the enemy's places, the MF).
    units: Vec<crate::state::Unit>,
    /// Per space, whether it is neutral (11.1.11) and its fort's state (11.1.8, 15.2).
    spaces: Vec<(bool, Fort)>,
    /// 9.5.3.4: the armies that entered as ordinary reinforcements.
    ordinary_near_east: Vec<u16>,
    /// The rules of movement in force ([`movement_context`]): the spaces activated for combat,
    /// the open beaches, and the rest.
    attack_marked: Vec<Space>,
    open_beaches: Vec<Space>,
    rules: MovementRules,
    /// Per stack searched (its space and units), the spaces it may end its move in, with the
    /// MP each costs.
    stacks: Vec<KeptStack>,
    /// The state the last list was made at: the engine's count of changes and the stamps of the
    /// position's counters and spaces, so that a move carried out at that very state walks the
    /// route its search kept (11.1.2).
    listed: Option<(u64, u64, u64)>,
}

impl KeptMoves {
    /// The route of the move of `units` from `from` to `to` as the list made at the state `g`
    /// stands at kept it ([`movement::route_of`]), if it was made there and searched the stack.
    fn route(&self, g: &PathsOfGlory, side: Side, from: Space, units: &[u16], to: Space) -> Option<Vec<Space>> {
        if self.side != Some(side) || self.listed != Some(listed_at(g)) {
            return None;
        }
        let (_, _, _, parents) = self.stacks.iter().find(|(f, u, _, _)| *f == from && u == units)?;
        movement::route_of(parents, from, to)
    }
}

/// The state a list is made at ([`KeptMoves::listed`]).
fn listed_at(g: &PathsOfGlory) -> (u64, u64, u64) {
    (g.engine.version(), g.pos.units.stamp(), g.pos.spaces.stamp())
}

/// A stack searched: its space, its units, the spaces it may end its move in with the MP each
/// costs, and the search's paths ([`movement::Parents`]).
type KeptStack = (Space, Vec<u16>, Vec<(Space, u32)>, movement::Parents);

/// The plain rules of a movement context ([`movement_rules`]).
type MovementRules = (bool, u8, bool, bool, bool, bool, bool, bool);

/// The plain rules of a movement context, to compare.
fn movement_rules(ctx: &movement::Context) -> MovementRules {
    (
        ctx.channel_ports_open,
        ctx.turn,
        ctx.german_fort_first,
        ctx.sieges_resume,
        ctx.caucasus_crossed,
        ctx.tsar_fell,
        ctx.brest_litovsk,
        ctx.italy_restricted,
    )
}

impl KeptMoves {
    /// Whether the searches kept answer for `side`'s stacks in `g` under `ctx`: every counter
    /// that moved or changed is the side's, with its strength, from and to spaces without an
    /// enemy fort (11.1.8, 15.2.1 with 2022 15.2.4 read the units there), the spaces' neutrality
    /// and forts and the rules the same, and no Brest-Litovsk (16.4.9 reads who stands where).
    fn hold(&self, g: &PathsOfGlory, side: Side, ctx: &movement::Context) -> bool {
        let data = g.data();
        let enemy_fort = |l: Location| match l {
            Location::Map(s) => data.facts(s).fort > 0 && data.facts(s).faction != side,
            _ => false,
        };
        self.side == Some(side)
            && !ctx.brest_litovsk
            && self.units.len() == g.pos.units.len()
            && self
                .units
                .iter()
                .zip(&g.pos.units)
                .zip(&data.pieces)
                .all(|((was, now), p)| {
                    was == now
                        || (p.side == side && was.full == now.full && !enemy_fort(was.loc) && !enemy_fort(now.loc))
                })
            && self.spaces.len() == g.pos.spaces.len()
            && self
                .spaces
                .iter()
                .zip(&g.pos.spaces)
                .all(|(&(neutral, fort), st)| neutral == st.control.is_none() && fort == st.fort)
            && self.ordinary_near_east == g.pos.ordinary_near_east
            && self.attack_marked == ctx.attack_marked
            && self.open_beaches == ctx.open_beaches
            && self.rules == movement_rules(ctx)
    }

    /// Made afresh for `side` in `g` under `ctx`, no stack searched yet; or, with `keep`, the
    /// stacks kept and what they read brought up to the position.
    fn reset(&mut self, g: &PathsOfGlory, side: Side, ctx: &movement::Context, keep: bool) {
        if !keep {
            self.stacks.clear();
            self.side = Some(side);
            self.spaces.clear();
            self.spaces
                .extend(g.pos.spaces.iter().map(|st| (st.control.is_none(), st.fort)));
            self.ordinary_near_east.clone_from(&g.pos.ordinary_near_east);
            self.attack_marked.clear();
            self.attack_marked.extend_from_slice(ctx.attack_marked);
            self.open_beaches.clear();
            self.open_beaches.extend_from_slice(ctx.open_beaches);
            self.rules = movement_rules(ctx);
        }
        self.listed = None;
        self.units.clone_from(&g.pos.units);
    }
}

/// What the Activation frames of one card's OPS ask of the spaces holding the side's units,
/// kept between its decisions (9.2): while the OPS are spent nothing changes but the spaces
/// activated (9.2.5) and the OPS left, so whether each space may be activated at all and its
/// costs stay what they were. Kept beside the game, never part of its state.
#[derive(Default)]
pub(crate) struct KeptActivations {
    /// The engine's count of changes when the spaces were asked of, for this side, with the
    /// spaces activated then.
    version: u64,
    side: Option<Side>,
    activated: Vec<(Space, bool)>,
    /// Each space holding the side's units, in map order: whether it may be activated (9.2,
    /// 14.3.1, 9.2.6; false once activated, 9.2.5) and its costs for movement and for combat.
    spaces: Vec<(Space, bool, (u8, u8))>,
}

/// The activations of an Activation frame (9.2): the candidates the check keeps, what the
/// check asks of a space alike for movement and combat (its units, their supply, whether it is
/// already activated, the costs) asked once for both, and once for all the decisions of one
/// card's OPS ([`KeptActivations`]).
pub(crate) fn activation_legal(g: &PathsOfGlory, frame: &Frame, out: &mut Vec<Action>) {
    let Frame::Activation { side, ops } = *frame else {
        return;
    };
    let version = g.engine.version();
    // Kept only for the frame the game stands at.
    let live = matches!(g.engine.top(), Some(&Frame::Activation { side: s, ops: o }) if s == side && o == ops);
    let mut all = g.kept.operations();
    let kept = &mut all.activations;
    // The decision after one that activated a space at this frame (one change since, the
    // activation, which is all an Activation frame's decision changes), with costs that do
    // not read what is activated.
    let follows = live
        && kept.side == Some(side)
        && kept.version.checked_add(1) == Some(version)
        && g.action.activated.len() == kept.activated.len() + 1
        && g.action.activated.starts_with(&kept.activated)
        && !crate::events::activation_terms_read_activated(g, side);
    if !follows {
        activation_spaces(g, side, &mut kept.spaces);
    }
    if live {
        kept.version = version;
        kept.side = Some(side);
        kept.activated.clone_from(&g.action.activated);
    } else {
        kept.side = None;
    }
    out.reserve(2 * kept.spaces.len() + 1);
    // 9.2.7: whether the Allies have activated a Near East space for combat this round.
    let near_east_done = side == Side::Ap && g.action.activated.iter().any(|&(s, c)| c && near_east_limited(g, s));
    // 2022 15.2.5: whether this is a Summer turn, asked once for every space.
    let summer = summer_turn(g);
    for &(space, open, costs) in &kept.spaces {
        // 9.2.5.
        if !open || g.action.activated.iter().any(|&(s, _)| s == space) {
            continue;
        }
        for combat in [false, true] {
            let ok =
                // 2022 15.2.5.
                !(combat && summer && summer_desert(g, space))
                // 9.2.3.
                && (if combat { costs.1 } else { costs.0 }) <= ops
                // 9.2.7.
                && !(combat && near_east_done && near_east_limited(g, space));
            if ok {
                out.push(Action::Activate { space, combat });
            }
        }
    }
    out.push(Action::EndActivation);
}

/// [`activation_cost`] as the list made at this very state kept it ([`KeptActivations`]), if
/// it was made and lists the space.
fn kept_activation_cost(g: &PathsOfGlory, side: Side, space: Space, combat: bool) -> Option<u8> {
    let all = g.kept.operations();
    let kept = &all.activations;
    if kept.side != Some(side) || kept.version != g.engine.version() || kept.activated != g.action.activated {
        return None;
    }
    kept.spaces
        .iter()
        .find(|&&(s, open, _)| s == space && open)
        .map(|&(_, _, (movement, combat_cost))| if combat { combat_cost } else { movement })
}

/// The spaces of [`KeptActivations::spaces`], asked of afresh: the candidates of an
/// Activation frame, each space's units, their supply and its costs.
fn activation_spaces(g: &PathsOfGlory, side: Side, spaces: &mut Vec<(Space, bool, (u8, u8))>) {
    spaces.clear();
    let data = g.data();
    // The spaces holding the side's units, in map order, from who stands where (a unit off the
    // map's spaces has nothing to activate: 9.2).
    let occ = g.kept.occupancy(data, &g.pos);
    // The side's units in the space asked of, one buffer for the whole list.
    let mut here: Vec<u16> = Vec::new();
    // 14.1: each tracer's supplied spaces, asked of the kept maps once for the whole list.
    let ctx = crate::sequence::supply_context(g);
    let mut floods: Vec<(crate::supply::Tracer, crate::supply::Supplied)> = Vec::new();
    // 9.2.3, 16.4.5: the events bearing on the costs, asked of once for the whole list.
    let events = (crate::events::activation_events(g), crate::events::tsar_fell(g));
    let mut supplied_here = |u: u16| -> bool {
        let Some(at) = g.at(u as usize) else { return false };
        let t = crate::supply::tracer_of(data, u as usize);
        match floods.iter().find(|(k, _)| *k == t) {
            Some((_, f)) => f.at(data, at),
            None => {
                let f = crate::supply::Supplied::new(data, &g.pos, t, &ctx);
                let ok = f.at(data, at);
                floods.push((t, f));
                ok
            }
        }
    };
    for space in data.map.graph.space_indices().filter(|&s| occ.has(side, s)) {
        // 9.2, 14.3.1, 9.2.6, 9.2.5.
        units_into(g, side, space, &mut here);
        let open = !all_neutral(g, &here)
            && here.iter().any(|&u| supplied_here(u))
            && !g.action.activated.iter().any(|&(s, _)| s == space);
        let costs = if open {
            activation_costs_of(g, side, space, &here, Some(events))
        } else {
            (0, 0)
        };
        spaces.push((space, open, costs));
    }
}

/// 9.2.7.1: the MEF army in `s` draws its supply from the MEF Beachhead: in supply with the
/// beach open, not without it.
fn mef_beachhead_supply(g: &PathsOfGlory, side: Side, s: Space) -> bool {
    let data = g.data();
    g.pos.beachhead.is_some()
        && units_of(g, side, s).iter().any(|&u| {
            let t = crate::supply::tracer_of(data, u as usize);
            let ctx = crate::sequence::supply_context(g);
            data.pieces[u as usize].id == "br-army-mef"
                && crate::supply::in_supply(data, &g.pos, t, s, &ctx)
                && !crate::supply::in_supply(
                    data,
                    &g.pos,
                    t,
                    s,
                    &crate::supply::Context {
                        open_beaches: &[],
                        ..ctx
                    },
                )
        })
}

/// Whether [`candidates`] lists exactly the legal actions of the frame, made with the rule
/// functions its check uses (the destinations of the movement rules and the stacking limit; the
/// joining attackers' checks; the retreat routes and the stand-fast rule), so that they need not
/// be checked one by one.
pub(crate) fn exact(frame: &Frame) -> bool {
    matches!(
        frame,
        Frame::Movement { .. } | Frame::Designate { .. } | Frame::RetreatUnits { .. }
    )
}

pub(crate) fn candidates(g: &PathsOfGlory, frame: &Frame, out: &mut Vec<Action>) {
    let data = g.data();
    match *frame {
        Frame::Activation { side, .. } => {
            // The spaces holding the side's units, in map order, from who stands where (a unit
            // off the map's spaces has nothing to activate: 9.2).
            let occ = g.kept.occupancy(data, &g.pos);
            // Two actions a space, and the end, in a list made once to its length.
            out.reserve(2 * data.map.graph.space_indices().filter(|&s| occ.has(side, s)).count() + 1);
            for space in data.map.graph.space_indices().filter(|&s| occ.has(side, s)) {
                out.push(Action::Activate { space, combat: false });
                out.push(Action::Activate { space, combat: true });
            }
            out.push(Action::EndActivation);
        }
        Frame::Movement { side } => {
            let marked = activated(g, true);
            let ctx = movement_context(g, &marked);
            // Who stands where, asked once for every stack's search (11.1.7); one buffer for
            // each stack's units and one for its destinations.
            let mut occ = None;
            let (mut idx, mut reached) = (Vec::new(), Vec::new());
            // The stacks searched for the list before, while what they read is unchanged.
            let mut all = g.kept.operations();
            let kept = &mut all.moves;
            let holds = kept.hold(g, side, &ctx);
            kept.reset(g, side, &ctx, holds);
            // 10.1.1: the side's units in each space reached, counted once for every stack.
            let mut there: Vec<u8> = Vec::new();
            let mut here = Vec::new();
            for from in activated(g, false) {
                let free: Vec<u16> = units_of(g, side, from)
                    .into_iter()
                    .filter(|u| !g.action.moved.contains(u) && supplied(g, *u))
                    .collect();
                for mask in 1u32..(1 << free.len()) {
                    let units: Vec<u16> = (0..free.len())
                        .filter(|k| mask & (1 << k) != 0)
                        .map(|k| free[k])
                        .collect();
                    if breaks_siege(g, side, from, &units) {
                        continue;
                    }
                    idx.clear();
                    idx.extend(units.iter().map(|&u| u as usize));
                    match kept.stacks.iter().find(|(f, u, _, _)| *f == from && *u == units) {
                        Some((_, _, dests, _)) => reached.clone_from(dests),
                        None => {
                            let occ = occ.get_or_insert_with(|| g.kept.occupancy(data, &g.pos));
                            let mut parents = Vec::new();
                            movement::destinations_into(
                                data,
                                &g.pos,
                                &idx,
                                from,
                                &ctx,
                                occ,
                                &mut reached,
                                Some(&mut parents),
                            );
                            kept.stacks.push((from, units.clone(), reached.clone(), parents));
                        }
                    }
                    let mut any = false;
                    for &(to, _) in &reached {
                        if there.is_empty() {
                            there.resize(data.map.graph.len(), u8::MAX);
                        }
                        let n = match there.get_mut(to.idx()) {
                            Some(n) if *n != u8::MAX => usize::from(*n),
                            Some(n) => {
                                // All the units there, when none is the enemy's (as where a
                                // move may end, 11.1.7).
                                let occ = occ.get_or_insert_with(|| g.kept.occupancy(data, &g.pos));
                                let count = if occ.has(other(side), to) {
                                    units_into(g, side, to, &mut here);
                                    here.len()
                                } else {
                                    occ.count(to)
                                };
                                *n = count.min(usize::from(u8::MAX - 1)) as u8;
                                count
                            }
                            None => units_of(g, side, to).len(),
                        };
                        // As [`fits`].
                        if n + units.len() > STACKING {
                            continue;
                        }
                        any = true;
                        out.push(Action::Move {
                            from,
                            units: units.clone(),
                            to,
                        });
                    }
                    // The same move walked space by space, when it can end somewhere.
                    if any {
                        out.push(Action::Begin { from, units });
                    }
                }
            }
            kept.listed = Some(listed_at(g));
            crate::trenches::dig_candidates(g, side, out);
            out.push(Action::EndMovement);
        }
        Frame::Marching { at, .. } => {
            out.extend(data.map.graph.exits(at).iter().map(|&(_, to)| Action::Step { to }));
            out.push(Action::Halt);
        }
        Frame::Combats { side } => {
            let mut targets = Vec::new();
            // Who stands where, asked once for every space's question.
            let occ = g.kept.occupancy(data, &g.pos);
            for from in activated(g, true) {
                for &(_, n) in data.map.graph.exits(from) {
                    if defensible_in(g, &occ, other(side), n) {
                        targets.push(n);
                    }
                }
                if besieged_by(g, side, from) {
                    targets.push(from);
                }
            }
            targets.sort();
            targets.dedup();
            out.extend(targets.into_iter().map(|space| Action::Target { space }));
            out.push(Action::EndCombat);
        }
        Frame::Designate { side } => {
            if let Some(b) = &g.action.battle {
                // 12.1.1: the attackers that may join, found once for every unit's check.
                let eligible = eligible_attackers(g, side, b.defending);
                for from in activated(g, true) {
                    if from == b.defending || data.map.graph.adjacent(from, b.defending) {
                        out.extend(
                            units_of(g, side, from)
                                .into_iter()
                                .filter(|&unit| check_join(g, side, unit, Some(&eligible)).is_ok())
                                .map(|unit| Action::Join { unit }),
                        );
                    }
                }
                if check(g, frame, &Action::Resolve).is_ok() {
                    out.push(Action::Resolve);
                }
            }
        }
        Frame::FlankChoice { .. } => {
            if let Some(b) = &g.action.battle {
                out.extend(
                    attack_spaces(g, b)
                        .into_iter()
                        .map(|s| Action::Flank { pinning: Some(s) }),
                );
            }
            out.push(Action::Flank { pinning: None });
        }
        Frame::GreatRetreat { .. } => {
            out.push(Action::GreatRetreat { retreat: true });
            out.push(Action::GreatRetreat { retreat: false });
        }
        Frame::CombatCards { side, .. } => {
            let c = &g.pos.cards[side_index(side)];
            out.extend(c.hand.iter().chain(&c.face_up).map(|&card| Action::CombatCard { card }));
            out.push(Action::EndCombatCards);
        }
        Frame::TakeLosses { .. } => {
            if let Some(t) = g.action.battle.as_ref().and_then(|b| b.losses.as_ref()) {
                out.extend(
                    t.losses
                        .choices()
                        .into_iter()
                        .map(|c| Action::Lose { target: t.target_of(c) }),
                );
            }
        }
        Frame::RetreatUnits { side } => {
            // 12.5.1: the defenders' units; their routes are those the check accepts (12.5).
            if let Some(b) = g.action.battle.as_ref().filter(|b| b.attacker != side) {
                if may_stand_fast(g, b) {
                    out.extend(
                        units_of(g, side, b.defending)
                            .into_iter()
                            .filter(|&u| stand_fast_step(g, b, u))
                            .map(|unit| Action::StandFast { unit }),
                    );
                }
                for u in units_of(g, side, b.defending) {
                    for route in retreat_routes(g, b, u) {
                        out.push(Action::Retreat { unit: u, route });
                    }
                }
            }
        }
        Frame::AdvanceUnits { .. } => {
            if let Some(b) = &g.action.battle {
                for &u in &b.attackers {
                    if b.advanced.contains(&u) {
                        continue;
                    }
                    for route in advance_routes(g, b, u) {
                        out.push(Action::Advance { unit: u, route });
                    }
                }
                out.push(Action::EndAdvance);
            }
        }
        _ => {}
    }
}

/// 14.3.1, 14.3.4: whether a counter on the map is in supply.
pub(crate) fn in_supply(g: &PathsOfGlory, u: u16) -> bool {
    supplied(g, u)
}

/// 14.3.1: whether a counter on the map is in supply (an out-of-supply unit neither moves nor
/// attacks, though its space may be activated for the others, 2022 9.2.4 notes).
fn supplied(g: &PathsOfGlory, u: u16) -> bool {
    let data = g.data();
    match g.at(u as usize) {
        Some(at) => crate::supply::in_supply(
            data,
            &g.pos,
            crate::supply::tracer_of(data, u as usize),
            at,
            &crate::sequence::supply_context(g),
        ),
        None => false,
    }
}

fn out_of_supply(g: &PathsOfGlory, u: u16) -> Refusal {
    let n = g.unit_name(u);
    refuse(
        "14.3.1",
        format!("{} is out of supply: it neither moves nor attacks", n.en),
        format!("{}缺乏补给:不能移动也不能进攻", n.zh),
    )
}

/// 9.5.2.4 (data edition 7): whether `units`, not none, are all of a nation not yet at war (the
/// Greek corps Salonika set up): "neither player may move Greek units … nor attack spaces
/// holding Greek units".
fn all_neutral(g: &PathsOfGlory, units: &[u16]) -> bool {
    g.scenario.edition >= 7 && !units.is_empty() && units.iter().all(|&u| g.pos.neutral_unit(g.data(), u as usize))
}

/// The refusal for the neutral Greek corps in `s` (9.5.2.4): `what` they may not be.
fn neutral_refusal(g: &PathsOfGlory, s: Space, en: &str, zh: &str) -> Refusal {
    refuse(
        "9.5.2.4",
        format!(
            "the Greek corps in {} stay neutral until Greece enters the war: {en}",
            g.name(s).en
        ),
        format!("{}的希腊军在希腊参战前保持中立:{zh}", g.name(s).zh),
    )
}

/// 10.1.1: whether `n` more units of a side fit in a space.
fn fits(g: &PathsOfGlory, side: Side, s: Space, n: usize) -> bool {
    units_of(g, side, s).len() + n <= STACKING
}

/// Whether a space holds something of `defender` to attack: its units, or its fort standing
/// (12.1.3, 15.1.6).
fn defensible(g: &PathsOfGlory, defender: Side, s: Space) -> bool {
    // The defender's units there, read where they lie: whether any, and whether all are
    // neutral ([`all_neutral`]).
    let data = g.data();
    let (mut any, mut neutral) = (false, true);
    let mut visit = |u: usize| {
        if data.pieces[u].side == defender {
            any = true;
            neutral = neutral && g.pos.neutral_unit(data, u);
        }
    };
    if !g.kept.trusted_units_in(&g.pos, s, &mut visit) {
        g.pos.units_in(s).for_each(&mut visit);
    }
    (any && !(g.scenario.edition >= 7 && neutral))
        || (g.pos.space(s).fort != Fort::None
            && g.pos.space(s).fort != Fort::Destroyed
            && g.pos.space(s).control == Some(defender)
            && g.data().facts(s).fort > 0)
}

/// [`defensible`] with who stands where given: a space without the defender's units holds only
/// its fort to attack, and one with them, in games begun before data edition 7 (no neutral
/// Greek corps, 9.5.2.4), holds them.
fn defensible_in(g: &PathsOfGlory, occ: &crate::supply::Occupancy, defender: Side, s: Space) -> bool {
    if !occ.has(defender, s) {
        g.pos.space(s).fort != Fort::None
            && g.pos.space(s).fort != Fort::Destroyed
            && g.pos.space(s).control == Some(defender)
            && g.data().facts(s).fort > 0
    } else if g.scenario.edition < 7 {
        true
    } else {
        defensible(g, defender, s)
    }
}

/// The spaces the battle's attackers come from.
pub(crate) fn attack_spaces(g: &PathsOfGlory, b: &Battle) -> Vec<Space> {
    let mut v: Vec<Space> = b.attackers.iter().filter_map(|&u| g.at(u as usize)).collect();
    v.sort();
    v.dedup();
    v
}

fn retreat_context<'a>(g: &'a PathsOfGlory, marked: &'a [Space]) -> retreat::Context<'a> {
    retreat::Context {
        supply: crate::sequence::supply_context(g),
        movement: movement_context(g, marked),
        // 2022 12.5.4, 12.7.4 (data edition 4).
        cut_short: g.scenario.edition >= 4,
    }
}

fn retreat_routes(g: &PathsOfGlory, b: &Battle, u: u16) -> Vec<Vec<Space>> {
    let Some(length) = b.retreat else {
        return Vec::new();
    };
    let ctx = retreat_context(g, &[]);
    retreat::routes(g.data(), &g.pos, u as usize, b.defending, length, &ctx, |s| {
        arriving(g, b, s)
    })
}

/// The units of this retreat counted a second time where they ended, beside their counters
/// there, in games begun before data edition 5 (12.5.5: from edition 5 each counts once).
fn arriving(g: &PathsOfGlory, b: &Battle, s: Space) -> usize {
    if g.scenario.edition >= 5 {
        return 0;
    }
    b.retreat_routes.iter().filter(|r| r.last() == Some(&s)).count()
}

fn vacated(b: &Battle) -> Vacated {
    if b.defenders.is_empty() {
        Vacated::FortAlone {
            destroyed: b.fort_destroyed,
        }
    } else if b.defenders_gone {
        Vacated::Eliminated
    } else {
        Vacated::Retreated {
            routes: b.retreat_routes.clone(),
            cut_short: b.cut_short.clone(),
        }
    }
}

fn advance_routes(g: &PathsOfGlory, b: &Battle, u: u16) -> Vec<Vec<Space>> {
    if !b.defenders_gone && b.retreat_routes.is_empty() && b.cut_short.is_empty() && !b.defenders.is_empty() {
        return Vec::new();
    }
    let data = g.data();
    let mut ctx = advance::Context {
        movement: movement_context(g, &[]),
    };
    // 2022 11.3.2 "attack/advance": a Russian corps that attacked across the Caucasus crossing
    // advances across on the same use of it.
    if g.scenario.edition >= 5
        && g.at(u as usize)
            .is_some_and(|at| movement::russian_crossing(data, u as usize, &[at, b.defending]))
    {
        ctx.movement.caucasus_crossed = false;
    }
    // 12.6.5, 15.2.1: the advancers that may besiege an enemy fort in `s` together. Games begun
    // before data edition 6 count this unit and every unit that advanced, wherever it went;
    // from edition 6 this unit, those that advanced into `s`, and the full-strength attackers
    // yet to advance (2022 12.7.6 "once enough advancers besiege a fort, other advancers may
    // continue"; if fewer stop there, the siege is broken when the combat ends, 15.2.4).
    let counted = |a: u16, s: Space| {
        if a == u {
            true
        } else if b.advanced.contains(&a) {
            g.scenario.edition < 6 || g.at(a as usize) == Some(s)
        } else {
            g.scenario.edition >= 6 && g.pos.units[a as usize].full && g.at(a as usize).is_some()
        }
    };
    let routes = advance::routes(
        data,
        g.tables(),
        &g.pos,
        u as usize,
        b.defending,
        &vacated(b),
        &ctx,
        |s| {
            let advancers = b.attackers.iter().filter(|&&a| counted(a, s)).map(|&a| a as usize);
            crate::sieges::units_besiege(data, advancers, data.facts(s).fort)
        },
    );
    // 12.7.1: within the stacking limit where the advance ends.
    routes
        .into_iter()
        .filter(|r| r.last().is_some_and(|&s| units_of(g, b.attacker, s).len() < STACKING))
        .collect()
}

pub(crate) fn check(g: &PathsOfGlory, frame: &Frame, action: &Action) -> Result<(), Refusal> {
    let data = g.data();
    match (frame, action) {
        (&Frame::Activation { .. }, Action::EndActivation) => Ok(()),
        (&Frame::Activation { side, ops }, &Action::Activate { space, combat }) => {
            if !valid(g, space) {
                return Err(refuse("9.2", "no such space", "没有这个区域"));
            }
            if combat && summer_desert(g, space) {
                return Err(refuse(
                    "2022 15.2.5",
                    format!("{} is desert: no combat out of it in a Summer turn", g.name(space).en),
                    format!("{}是沙漠:夏季回合不能由此进攻", g.name(space).zh),
                ));
            }
            let here = units_of(g, side, space);
            if all_neutral(g, &here) {
                return Err(neutral_refusal(
                    g,
                    space,
                    "no side activates them",
                    "任何一方都不能激活",
                ));
            }
            if !here.is_empty() && !here.iter().any(|&u| supplied(g, u)) {
                return Err(refuse(
                    "14.3.1",
                    format!(
                        "every unit in {} is out of supply: none may be activated",
                        g.name(space).en
                    ),
                    format!("{}的所有单位都缺乏补给:不能激活", g.name(space).zh),
                ));
            }
            if here.is_empty() {
                return Err(refuse(
                    "9.2.6",
                    "only a space holding your units may be activated (a fort alone is not occupied)",
                    "只有有己方单位的区域可以激活(只有要塞不算)",
                ));
            }
            if g.action.activated.iter().any(|&(s, _)| s == space) {
                return Err(refuse(
                    "9.2.5",
                    "that space is already activated, for movement or for combat, not both",
                    "该区域已经激活,移动与进攻不能兼得",
                ));
            }
            let cost = activation_cost(g, side, space, combat);
            if cost > ops {
                return Err(refuse(
                    "9.2.3",
                    format!("activating {} costs {cost} OPS, {ops} are left", g.name(space).en),
                    format!("激活{}需要{cost}点作战,只剩{ops}点", g.name(space).zh),
                ));
            }
            // 9.2.7: the Allies activate one Near East space a round for combat (the BR NE army's
            // space is exempt).
            if combat
                && side == Side::Ap
                && near_east_limited(g, space)
                && g.action.activated.iter().any(|&(s, c)| c && near_east_limited(g, s))
            {
                return Err(refuse(
                    "9.2.7",
                    "the Allies activate only one Near East space a round for combat",
                    "协约国每轮只能激活一个近东区域用于进攻",
                ));
            }
            Ok(())
        }
        (&Frame::Movement { .. }, Action::EndMovement) => Ok(()),
        (&Frame::Movement { side }, &Action::Dig { unit }) => crate::trenches::check_dig(g, side, unit),
        (&Frame::Movement { side }, Action::Move { from, units, to }) => {
            if !valid(g, *from) || !valid(g, *to) {
                return Err(refuse("11.1", "no such space", "没有这个区域"));
            }
            if !g.action.activated.contains(&(*from, false)) {
                return Err(refuse(
                    "9.2.8",
                    format!("{} is not activated for movement", g.name(*from).en),
                    format!("{}未被激活用于移动", g.name(*from).zh),
                ));
            }
            if units.is_empty() || units.windows(2).any(|w| w[0] >= w[1]) {
                return Err(refuse(
                    "11.1.1",
                    "name the moving units once each, in order",
                    "须按顺序列出各移动单位,每个一次",
                ));
            }
            for u in units {
                let Some(p) = data.pieces.get(*u as usize) else {
                    return Err(refuse("11.1", "no such unit", "没有这个单位"));
                };
                if p.side != side {
                    return Err(refuse("11.1", "that unit is the enemy's", "那是敌方单位"));
                }
                if g.pos
                    .units
                    .get(*u as usize)
                    .is_some_and(|x| x.loc == Location::Map(*from))
                    && !supplied(g, *u)
                {
                    return Err(out_of_supply(g, *u));
                }
                if g.action.moved.contains(u) {
                    return Err(refuse(
                        "11.1.1",
                        format!("{} has already moved in this action", p.name_en),
                        format!("{}本次行动已经移动过", p.name_zh),
                    ));
                }
            }
            if breaks_siege(g, side, *from, units) {
                return Err(refuse(
                    "15.2.4",
                    format!(
                        "besiegers leave {} all together or leave a siege behind: an army, or as many corps as the fort's LF",
                        g.name(*from).en
                    ),
                    format!(
                        "围城部队须全部离开{},或留下足以围城的部队:一个集团军,或与要塞损失系数相同数量的军",
                        g.name(*from).zh
                    ),
                ));
            }
            let marked = activated(g, true);
            let idx: Vec<usize> = units.iter().map(|&u| u as usize).collect();
            movement::check(data, &g.pos, &idx, *from, *to, &movement_context(g, &marked))?;
            if !fits(g, side, *to, units.len()) {
                return Err(refuse(
                    "10.1.1",
                    format!("{} would hold more than 3 units", g.name(*to).en),
                    format!("{}将超过3个单位", g.name(*to).zh),
                ));
            }
            Ok(())
        }
        (&Frame::Movement { side }, Action::Begin { from, units }) => {
            let marked = activated(g, true);
            let ctx = movement_context(g, &marked);
            if units.is_empty() {
                return Err(refuse("11.1.1", "no unit to move", "没有要移动的单位"));
            }
            // The checks of a move to somewhere, with no end named yet.
            let anywhere = movement::destinations(
                data,
                &g.pos,
                &units.iter().map(|&u| u as usize).collect::<Vec<_>>(),
                *from,
                &ctx,
            );
            match anywhere.iter().find(|&&(to, _)| fits(g, side, to, units.len())) {
                Some(&(to, _)) => check(
                    g,
                    frame,
                    &Action::Move {
                        from: *from,
                        units: units.clone(),
                        to,
                    },
                ),
                None => Err(refuse(
                    "11.1",
                    "these units have nowhere they may end a move",
                    "这些单位没有可以结束移动的区域",
                )),
            }
        }
        (
            &Frame::Marching {
                side,
                ref units,
                origin,
                at,
                spent,
                stopped,
            },
            Action::Step { to },
        ) => {
            if stopped {
                return Err(refuse(
                    "15.2.1",
                    "the units stop where they besiege an enemy fort",
                    "围攻敌方要塞的单位须停止",
                ));
            }
            let idx: Vec<usize> = units.iter().map(|&u| u as usize).collect();
            let marked = activated(g, true);
            let ctx = movement_context(g, &marked);
            // Who stands where, asked once for the step and the search beyond it (11.1.7).
            let occ = g.kept.occupancy(data, &g.pos);
            let stop = movement::step_check_with(data, &g.pos, &idx, at, *to, spent, &ctx, &occ)?;
            let may_end_there = *to != origin
                && movement::may_stop(data, &g.pos, &idx, at, *to, &ctx).is_ok()
                && fits(g, side, *to, units.len());
            let goes_on = !stop
                && movement::ends_from_with(data, &g.pos, &idx, at, *to, origin, spent + 1, &ctx, &occ)
                    .into_iter()
                    .any(|n| fits(g, side, n, units.len()));
            if may_end_there || goes_on {
                Ok(())
            } else {
                Err(refuse(
                    "11.1",
                    format!(
                        "from {} the units could neither stop nor go on to a space they may end in",
                        g.name(*to).en
                    ),
                    format!(
                        "进入{}后这些单位既不能停下,也无法继续前往可以结束移动的区域",
                        g.name(*to).zh
                    ),
                ))
            }
        }
        (
            &Frame::Marching {
                side,
                ref units,
                origin,
                at,
                ..
            },
            Action::Halt,
        ) => {
            if at == origin {
                return Err(refuse("11.1.3", "a move goes to another space", "移动须进入另一个区域"));
            }
            let idx: Vec<usize> = units.iter().map(|&u| u as usize).collect();
            let marked = activated(g, true);
            movement::may_stop(data, &g.pos, &idx, at, at, &movement_context(g, &marked))?;
            if units_of(g, side, at).len() > STACKING {
                return Err(refuse(
                    "10.1.1",
                    format!("{} would hold more than 3 units", g.name(at).en),
                    format!("{}将超过3个单位", g.name(at).zh),
                ));
            }
            Ok(())
        }
        (&Frame::Combats { .. }, Action::EndCombat) => Ok(()),
        (&Frame::Combats { side }, &Action::Target { space }) => {
            if !valid(g, space) {
                return Err(refuse("12.1", "no such space", "没有这个区域"));
            }
            // 12.1.10: a combat needs an attacker outside London.
            let london = data.space("london");
            // The attackers before 15.1.10, found once for the eligible ones and for the three
            // refusals below.
            let barred = attackers_but_fort_bar(g, side, space);
            let able = eligible_of(g, side, space, barred.clone());
            if !able.is_empty() && able.iter().all(|&u| g.at(u as usize) == london) {
                return Err(refuse(
                    "12.1.10",
                    "units in London attack only together with friendly units attacking from Belgium or France",
                    "伦敦的部队只能与从比利时或法国进攻的友军一同进攻",
                ));
            }
            if summer_desert(g, space) {
                return Err(refuse(
                    "2022 15.2.5",
                    format!("{} is desert: no combat into it in a Summer turn", g.name(space).en),
                    format!("{}是沙漠:夏季回合不能进攻该区域", g.name(space).zh),
                ));
            }
            if g.action.attacked_spaces.contains(&space) {
                return Err(refuse(
                    "12.1.6",
                    format!("{} has already been attacked in this action", g.name(space).en),
                    format!("{}本次行动已经被进攻过", g.name(space).zh),
                ));
            }
            if all_neutral(g, &units_of(g, other(side), space)) {
                return Err(neutral_refusal(g, space, "nobody attacks them", "任何一方都不能进攻"));
            }
            if !defensible(g, other(side), space) {
                return Err(refuse(
                    "12.1.3",
                    format!("{} holds no enemy unit or fort", g.name(space).en),
                    format!("{}没有敌方单位或要塞", g.name(space).zh),
                ));
            }
            if only_retreated(g, other(side), space) {
                return Err(refuse(
                    "12.1.1",
                    format!(
                        "the only units in {} retreated this action: they may not be attacked again",
                        g.name(space).en
                    ),
                    format!("{}只有本次行动中撤退过的单位:不能再次进攻", g.name(space).zh),
                ));
            }
            let besieging_outside = besieged_by(g, side, space) && !activated(g, true).contains(&space);
            if besieging_outside
                || (g.pos.space(space).fort == Fort::Besieged
                    && units_of(g, other(side), space).is_empty()
                    && !besieged_by(g, side, space))
            {
                return Err(refuse(
                    "15.2.3",
                    format!(
                        "the besieged fort of {} is attacked only by the units besieging it, their space activated for combat",
                        g.name(space).en
                    ),
                    format!("被围的{}要塞只能由围城部队进攻,且其所在区域须激活用于进攻", g.name(space).zh),
                ));
            }
            // The attackers asked of above, for the three refusals below.
            let none_eligible = able.is_empty();
            if none_eligible {
                if barred.iter().any(|&u| crate::events::brest_litovsk_barred(g, u, space)) {
                    return Err(crate::events::brest_litovsk_refusal());
                }
                if let Some(r) = barred.iter().find_map(|&u| attack_barred(g, u, space)) {
                    return Err(r);
                }
                if barred.iter().any(|&u| siege_needs(g, side, u, space)) {
                    return Err(refuse(
                        "15.2.3",
                        format!(
                            "the units that could attack {} are all needed for their siege",
                            g.name(space).en
                        ),
                        format!("可以进攻{}的单位都是围城所需", g.name(space).zh),
                    ));
                }
            }
            if none_eligible && !barred.is_empty() {
                return Err(refuse(
                    "15.1.10",
                    format!(
                        "until OberOst or CP War Status 4, German units do not attack {}, a Russian fort",
                        g.name(space).en
                    ),
                    format!(
                        "在“东线总司令部”打出或同盟国战争状态达到4之前,德军不能进攻俄国要塞{}",
                        g.name(space).zh
                    ),
                ));
            }
            if none_eligible {
                return Err(refuse(
                    "12.1.3",
                    format!(
                        "no unit of a space activated for combat may attack {}",
                        g.name(space).en
                    ),
                    format!("没有激活用于进攻的单位可以进攻{}", g.name(space).zh),
                ));
            }
            Ok(())
        }
        (&Frame::Designate { side }, &Action::Join { unit }) => check_join(g, side, unit, None),
        (&Frame::Designate { .. }, Action::Resolve) => match &g.action.battle {
            Some(b) if !b.attackers.is_empty() && !london_alone(g, b) => Ok(()),
            Some(b) if !b.attackers.is_empty() => Err(refuse(
                "12.1.10",
                "units in London attack only together with friendly units attacking from Belgium or France",
                "伦敦的部队只能与从比利时或法国进攻的友军一同进攻",
            )),
            _ => Err(refuse(
                "12.2.2",
                "at least one unit must attack",
                "至少须有一个单位进攻",
            )),
        },
        (&Frame::FlankChoice { .. }, Action::Flank { pinning: None }) => Ok(()),
        (&Frame::FlankChoice { side }, Action::Flank { pinning: Some(s) }) => {
            let Some(b) = &g.action.battle else {
                return Err(refuse("12.3", "no combat", "没有会战"));
            };
            let from = attack_spaces(g, b);
            if !from.contains(s) {
                return Err(refuse(
                    "12.3.2",
                    "the pinning space is one of the attacking spaces",
                    "牵制区域须是发动进攻的区域之一",
                ));
            }
            combat::may_flank(data, &g.pos, g.tables(), &attack_of(g, b, side, &from))
        }
        (&Frame::GreatRetreat { .. }, Action::GreatRetreat { retreat: false }) => Ok(()),
        (&Frame::GreatRetreat { side }, Action::GreatRetreat { retreat: true }) => {
            let Some(b) = &g.action.battle else {
                return Err(refuse("AP #27", "no combat", "没有会战"));
            };
            // The Russians must fall back one space: each of them needs a way back.
            let mut one = b.clone();
            one.retreat = Some(1);
            match units_of(g, side, b.defending)
                .into_iter()
                .find(|&u| retreat_routes(g, &one, u).is_empty())
            {
                Some(u) => {
                    let n = g.unit_name(u);
                    Err(refuse(
                        "AP #27",
                        format!("Great Retreat: {} has no space to fall back to", n.en),
                        format!("大撤退:{}没有可以后撤的区域", n.zh),
                    ))
                }
                None => Ok(()),
            }
        }
        (&Frame::CombatCards { .. }, Action::EndCombatCards) => Ok(()),
        (&Frame::CombatCards { side, early }, &Action::CombatCard { card }) => {
            let Some(b) = &g.action.battle else {
                return Err(refuse("12.2.5", "no combat", "没有会战"));
            };
            crate::combat_cards::check(g, b, side, card, early)
        }
        (&Frame::TakeLosses { .. }, Action::Lose { target }) => {
            let Some(t) = g.action.battle.as_ref().and_then(|b| b.losses.as_ref()) else {
                return Err(refuse("12.4", "no losses to take", "没有要承受的损失"));
            };
            let Some(step) = t.target(*target) else {
                return Err(refuse(
                    "12.4.2",
                    "that unit takes no losses in this combat",
                    "该单位不在本次会战中承受损失",
                ));
            };
            // The steps the rules allow next, asked once for the step and for 2022 12.6.9.
            let choices = t.losses.choices();
            t.losses.may_take(step, &choices)?;
            // 2022 12.6.9: after Withdrawal, losses that may go to a corps go to a corps.
            let b = g.action.battle.as_ref();
            let withdrawing = b.is_some_and(|b| t.side != b.attacker && crate::combat_cards::effects(b).withdrawal);
            let army = |x: crate::losses::Target| match x {
                crate::losses::Target::Unit(i) => t.losses.units()[i].loser.army,
                crate::losses::Target::Fort => false,
            };
            let corps_possible = choices
                .into_iter()
                .any(|x| matches!(x, crate::losses::Target::Unit(i) if !t.losses.units()[i].loser.army));
            if withdrawing && army(step) && corps_possible {
                return Err(refuse(
                    "12.6.9",
                    "with Withdrawal played, a loss that a corps can take goes to a corps (2022 12.6.9)",
                    "打出“撤退”后,能由军承受的损失须由军承受(2022年版12.6.9)",
                ));
            }
            Ok(())
        }
        (&Frame::RetreatUnits { .. }, &Action::StandFast { unit }) => {
            let Some(b) = &g.action.battle else {
                return Err(refuse("12.5", "no retreat", "没有撤退"));
            };
            if !may_stand_fast(g, b) {
                return Err(refuse(
                    "12.5.3",
                    "only defenders in a trench, forest, desert, mountain or swamp may cancel their retreat with one more step, and only before any of them has retreated (not after Withdrawal)",
                    "只有位于堑壕、森林、沙漠、山地或沼泽的防守部队可以多承受一步损失以取消撤退,且须在任何部队撤退之前(“撤退”卡后不可)",
                ));
            }
            if g.at(unit as usize) != Some(b.defending)
                || data.pieces.get(unit as usize).is_none_or(|p| p.side == b.attacker)
            {
                return Err(refuse("12.5.3", "that unit is not a defender", "该单位不是防守单位"));
            }
            if !stand_fast_step(g, b, unit) {
                return Err(refuse(
                    "12.5.3",
                    "the retreat is cancelled only if a defender survives the step: a full-strength unit or a reduced corps beside other defenders takes it",
                    "须有防守部队在承受这一步后存留才能取消撤退:由满编单位或有其他防守部队同在的减员军承受",
                ));
            }
            Ok(())
        }
        (&Frame::RetreatUnits { .. }, Action::Retreat { unit, route }) => {
            let Some(b) = &g.action.battle else {
                return Err(refuse("12.5", "no retreat", "没有撤退"));
            };
            if g.at(*unit as usize) != Some(b.defending) || data.pieces[*unit as usize].side == b.attacker {
                return Err(refuse(
                    "12.5.1",
                    "that unit is not a defender left to retreat",
                    "该单位不是待撤退的防守单位",
                ));
            }
            let ctx = retreat_context(g, &[]);
            retreat::check(
                data,
                &g.pos,
                *unit as usize,
                b.defending,
                b.retreat.unwrap_or(0),
                &ctx,
                |s| arriving(g, b, s),
                route,
            )
        }
        (&Frame::AdvanceUnits { .. }, Action::EndAdvance) => Ok(()),
        (&Frame::AdvanceUnits { .. }, Action::Advance { unit, route }) => {
            let Some(b) = &g.action.battle else {
                return Err(refuse("12.7", "no advance", "没有推进"));
            };
            if !b.attackers.contains(unit) || b.advanced.contains(unit) {
                return Err(refuse(
                    "12.7.1",
                    "only an attacker of this combat that has not advanced may advance",
                    "只有本次会战中尚未推进的进攻单位可以推进",
                ));
            }
            if advance_routes(g, b, *unit).contains(route) {
                Ok(())
            } else if route.iter().any(|&s| {
                valid(g, s)
                    && data.facts(s).fort > 0
                    && g.pos.space(s).fort == Fort::Intact
                    && g.pos.space(s).control != Some(b.attacker)
            }) {
                Err(refuse(
                    "12.6.5",
                    "advancing units enter an enemy fort's space only if they can besiege it: an army, or as many corps as its LF, with the full-strength attackers yet to advance (15.2.1)",
                    "推进单位只有能够围城时才可进入敌方要塞所在区域:一个集团军,或连同尚未推进的满编进攻单位共有与要塞损失系数相同数量的军(15.2.1)",
                ))
            } else {
                Err(refuse(
                    "12.7.1",
                    "a full-strength attacker advances into the vacated space, or on along a retreat route, within the stacking limit and where it may move",
                    "满编进攻单位可推进入空出的区域,或沿撤退路线继续,须不超过堆叠上限且为其可进入之处",
                ))
            }
        }
        _ => Err(refuse(
            "9.2",
            "that is not a choice of this step of the operation",
            "这不是本次作战当前步骤的选择",
        )),
    }
}

/// 12.2.2: whether `unit` may join the combat being designated; `eligible`: the units
/// [`eligible_attackers`] of its defending space, when already found for a whole list.
fn check_join(g: &PathsOfGlory, side: Side, unit: u16, eligible: Option<&[u16]>) -> Result<(), Refusal> {
    let data = g.data();
    let Some(b) = &g.action.battle else {
        return Err(refuse("12.2.2", "no combat is being designated", "没有正在指定的会战"));
    };
    if b.attackers.contains(&unit) {
        return Err(refuse("12.2.2", "that unit has already joined", "该单位已经加入"));
    }
    if (unit as usize) < data.pieces.len() && g.at(unit as usize) == data.space("london") {
        let mut with = b.clone();
        with.attackers.push(unit);
        if london_alone(g, &with) {
            return Err(refuse(
                    "12.1.10",
                    "units in London attack only together with friendly units attacking from Belgium or France: let those join first",
                    "伦敦的部队只能与从比利时或法国进攻的友军一同进攻:请先让这些部队加入",
                ));
        }
    }
    if g.data().pieces.get(unit as usize).is_some_and(|p| p.side == side)
        && g.at(unit as usize).is_some()
        && !supplied(g, unit)
    {
        return Err(out_of_supply(g, unit));
    }
    if g.scenario.edition >= 3 && (unit as usize) < data.pieces.len() && g.at(unit as usize).is_some() {
        let mut with = b.attackers.clone();
        with.push(unit);
        if !multinational_together(g, &with) {
            return Err(refuse(
                    "12.1.9.1",
                    "units of several nationalities attack together only when one attacking space holds attackers of every one of them: let those join first",
                    "多国部队共同进攻时,须有一个进攻区域包含所有参战国籍的进攻单位:请先让这些单位加入",
                ));
        }
    }
    if (unit as usize) < g.data().pieces.len() {
        if let Some(r) = attack_barred(g, unit, b.defending) {
            return Err(r);
        }
    }
    if (unit as usize) < data.pieces.len() && siege_needs(g, side, unit, b.defending) {
        return Err(refuse(
                "15.2.3",
                "the siege needs this unit: besiegers attack another space only with the units beyond an army or as many corps as the fort's LF",
                "围城需要该单位:围城部队只能以超出围城所需(一个集团军或与要塞损失系数相同数量的军)的单位进攻其他区域",
            ));
    }
    if (unit as usize) < g.data().pieces.len() && russian_fort_barred(g, unit, b.defending) {
        return Err(refuse(
            "15.1.10",
            "until OberOst or CP War Status 4, German units do not attack a Russian fort",
            "在“东线总司令部”打出或同盟国战争状态达到4之前,德军不能进攻俄国要塞",
        ));
    }
    if (unit as usize) < g.data().pieces.len() && crate::events::brest_litovsk_barred(g, unit, b.defending) {
        return Err(crate::events::brest_litovsk_refusal());
    }
    if g.scenario.edition >= 5
        && g.turn.caucasus_crossed
        && g.at(unit as usize)
            .is_some_and(|at| movement::russian_crossing(data, unit as usize, &[at, b.defending]))
    {
        return Err(refuse(
                "11.3.2",
                "one Russian corps a turn crosses between the Caucasus and the Near East, by move, attack, retreat or advance (12.1.8), and one has this turn",
                "每回合只有一个俄国军可在高加索与近东之间穿越(移动、进攻、撤退或推进,12.1.8),本回合已有",
            ));
    }
    let eligible = match eligible {
        Some(e) => e.contains(&unit),
        None => eligible_attackers(g, side, b.defending).contains(&unit),
    };
    if eligible {
        Ok(())
    } else {
        Err(refuse(
                "12.1.1",
                "only a unit in an adjacent space activated for combat, that has not attacked this action, may join, across a line its nationality may use",
                "只有相邻且被激活用于进攻、本次行动尚未进攻的单位可以加入,且须经其国籍可用的连线",
            ))
    }
}

/// 9.2.7: a space the Allies' Near East combat limit counts (Constantinople and Bursa with it),
/// unless it holds the BR NE army.
fn near_east_limited(g: &PathsOfGlory, s: Space) -> bool {
    let data = g.data();
    let id = data.map.graph.space(s).id.as_str();
    // 9.2.7: the Beachhead's space does not count either.
    (data.facts(s).near_east || ["constantinople", "bursa"].contains(&id))
        && g.pos.beachhead != Some(s)
        && !units_of(g, Side::Ap, s)
            .iter()
            .any(|&u| data.pieces[u as usize].id == "br-army-ne")
}

/// Whether `side`'s units besiege the enemy fort in `s` (15.2).
fn besieged_by(g: &PathsOfGlory, side: Side, s: Space) -> bool {
    g.pos.space(s).fort == Fort::Besieged && g.pos.space(s).control != Some(side) && !units_of(g, side, s).is_empty()
}

/// 12.2.2: a combat against `space` as it is designated, its defenders those in the space now.
pub(crate) fn new_battle(g: &PathsOfGlory, side: Side, space: Space) -> Battle {
    let defenders = units_of(g, other(side), space);
    let defenders_full = defenders.iter().map(|&u| g.pos.units[u as usize].full).collect();
    Battle {
        defenders_full,
        attacker: side,
        defending: space,
        attackers: Vec::new(),
        defenders,
        pinning: None,
        flank: None,
        steps: Vec::new(),
        inflicted: [None; 2],
        taken: [0; 2],
        losses: None,
        fort_destroyed: false,
        retreat: None,
        retreat_routes: Vec::new(),
        cut_short: Vec::new(),
        defenders_gone: false,
        advanced: Vec::new(),
        cards: [Vec::new(), Vec::new()],
        from_hand: [Vec::new(), Vec::new()],
        event_drm: [0; 2],
        event_trench_negated: false,
        event_no_retreat: false,
        out_of_supply: Vec::new(),
    }
}

/// 2022 14.1.1.2 "supply for combat is judged at the start of each combat": the defending armies
/// then out of supply, which leave the game if the combat eliminates them (12.4.4.1).
fn armies_out_of_supply(g: &PathsOfGlory, b: &Battle) -> Vec<u16> {
    let data = g.data();
    b.defenders
        .iter()
        .copied()
        .filter(|&u| data.pieces[u as usize].kind == Kind::Army && !supplied(g, u))
        .collect()
}

/// Where an army or corps eliminated in the combat `b` goes: out of the game when it is never
/// replaced, or an army out of supply at the combat's start (12.4.4.1 "OOS Army則永遠移出遊戲");
/// else to the Eliminated box.
fn eliminated_to(g: &PathsOfGlory, b: &Battle, u: u16) -> Location {
    if g.data().pieces[u as usize].not_replaceable || b.out_of_supply.contains(&u) {
        Location::Removed
    } else {
        Location::Eliminated
    }
}

/// The units that may join a combat against `space` (12.1.1, 12.1.3, 12.1.5, 12.1.8): those
/// of adjacent spaces activated for combat, or, against a fort they besiege, the besiegers of a
/// space activated for combat (15.2.3).
pub(crate) fn eligible_attackers(g: &PathsOfGlory, side: Side, space: Space) -> Vec<u16> {
    eligible_of(g, side, space, attackers_but_fort_bar(g, side, space))
}

/// [`eligible_attackers`] from the attackers before 15.1.10 ([`attackers_but_fort_bar`]),
/// found already.
fn eligible_of(g: &PathsOfGlory, side: Side, space: Space, mut out: Vec<u16>) -> Vec<u16> {
    out.retain(|&u| {
        !russian_fort_barred(g, u, space)
            && !crate::events::brest_litovsk_barred(g, u, space)
            && attack_barred(g, u, space).is_none()
            && !siege_needs(g, side, u, space)
    });
    out
}

/// Lloyd George (CP #55) and Stavka Timidity (CP #58): why an attack by `u` on `s` is barred
/// this turn ([`crate::events::attack_barred`]), asked of only on a turn one of them is in force
/// (each bars nothing on any other turn).
fn attack_barred(g: &PathsOfGlory, u: u16, s: Space) -> Option<Refusal> {
    if !g.turn.lloyd_george && !g.turn.stavka_timidity {
        return None;
    }
    crate::events::attack_barred(g, u, s)
}

/// 15.2.3 ("只有部隊數量在超過圍城所需的時候,才可以攻擊鄰近的區域"): units besieging an enemy
/// fort attack another space only with the units the siege does not need: whether `u` joining
/// an attack on `space`, beside the attackers already joined and the units that sallied
/// earlier this action, would leave too few in its space to besiege the fort (15.2.1: an army,
/// or as many corps as its LF). Games begun before data edition 3 do without the limit.
fn siege_needs(g: &PathsOfGlory, side: Side, u: u16, space: Space) -> bool {
    let Some(from) = g.at(u as usize) else {
        return false;
    };
    if g.scenario.edition < 3 || from == space || !besieged_by(g, side, from) {
        return false;
    }
    let joined: &[u16] = g.action.battle.as_ref().map_or(&[], |b| &b.attackers);
    let data = g.data();
    let staying: Vec<u16> = units_of(g, side, from)
        .into_iter()
        .filter(|v| *v != u && !joined.contains(v) && !g.action.sallied.contains(v))
        .collect();
    !crate::sieges::units_besiege(data, staying.iter().map(|&v| v as usize), data.facts(from).fort)
}

/// 15.2.4 (2022) "Units may leave a besieged fort's space only if, at round end, the fort is
/// either still besieged or no longer shares its space with friendly units": whether `units`
/// leaving `from`, where their side besieges the fort, would leave some of its units behind but
/// too few to besiege it (15.2.1). Refused at the move (no later move of the round is counted
/// on to make the siege whole again).
fn breaks_siege(g: &PathsOfGlory, side: Side, from: Space, units: &[u16]) -> bool {
    if g.scenario.edition < 5 || !besieged_by(g, side, from) {
        return false;
    }
    let data = g.data();
    let staying: Vec<u16> = units_of(g, side, from)
        .into_iter()
        .filter(|u| !units.contains(u))
        .collect();
    !staying.is_empty()
        && !crate::sieges::units_besiege(data, staying.iter().map(|&u| u as usize), data.facts(from).fort)
}

/// 15.1.10: until OberOst or CP War Status 4, German units do not attack a space with a Russian
/// fort standing (they may besiege it).
fn russian_fort_barred(g: &PathsOfGlory, u: u16, space: Space) -> bool {
    let data = g.data();
    let f = data.facts(space);
    data.pieces[u as usize].nation == Nation::Ge
        && f.fort > 0
        && f.nation.as_deref() == Some("ru")
        && matches!(g.pos.space(space).fort, Fort::Intact | Fort::Besieged)
        && g.pos.war_status[side_index(Side::Cp)] < 4
        && !crate::events::oberost(g)
}

/// [`eligible_attackers`] before 15.1.10.
fn attackers_but_fort_bar(g: &PathsOfGlory, side: Side, space: Space) -> Vec<u16> {
    let data = g.data();
    let marked = activated(g, true);
    if besieged_by(g, side, space) {
        if !marked.contains(&space) {
            return Vec::new();
        }
        return units_of(g, side, space)
            .into_iter()
            .filter(|u| !g.action.attacked.contains(u) && supplied(g, *u))
            .collect();
    }
    let ctx = movement_context(g, &[]);
    // Who stands where, asked once for every unit's step across (11.1.7).
    let mut occ = None;
    let mut out = Vec::new();
    for &from in &marked {
        if !data.map.graph.adjacent(from, space) {
            continue;
        }
        for u in units_of(g, side, from) {
            if !g.action.attacked.contains(&u)
                && movement::may_attack_across_with(
                    data,
                    &g.pos,
                    u as usize,
                    &ctx,
                    from,
                    space,
                    occ.get_or_insert_with(|| g.kept.occupancy(data, &g.pos)),
                )
                && supplied(g, u)
            {
                out.push(u);
            }
        }
    }
    out
}

fn attack_of<'a>(g: &PathsOfGlory, b: &Battle, side: Side, from: &'a [Space]) -> combat::Attack<'a> {
    combat::Attack {
        attacker: side,
        from,
        any_army: b
            .attackers
            .iter()
            .any(|&u| g.data().pieces[u as usize].kind == Kind::Army),
        defending: b.defending,
        trench_counts: !crate::combat_cards::effects(b).trench_negated,
    }
}

/// Whether a besieged fort's siege holds (15.2.4: enough besiegers left).
pub(crate) fn siege_holds(g: &PathsOfGlory, s: Space) -> bool {
    let data = g.data();
    let at = Location::Map(s);
    // The first counter there in data order is the occupant's ([`PathsOfGlory::occupant`]);
    // its side's units there are read on from it, in one walk over the counters.
    let Some(first) = g.pos.units.iter().position(|u| u.loc == at) else {
        return false;
    };
    let side = data.pieces[first].side;
    if g.pos.space(s).control == Some(side) {
        return false;
    }
    let units = g.pos.units[first..]
        .iter()
        .zip(first..)
        .filter(|&(u, i)| u.loc == at && data.pieces[i].side == side)
        .map(|(_, i)| i);
    crate::sieges::units_besiege(data, units, data.facts(s).fort)
}

pub(crate) fn carry_out(g: &mut PathsOfGlory, frame: Frame, action: Option<&Action>) {
    match (frame, action) {
        (Frame::Activation { side, ops }, Some(&Action::Activate { space, combat })) => {
            let cost =
                kept_activation_cost(g, side, space, combat).unwrap_or_else(|| activation_cost(g, side, space, combat));
            g.action.activated.push((space, combat));
            let (pe, pz) = if combat {
                ("combat", "进攻")
            } else {
                ("movement", "移动")
            };
            let data = g.data();
            g.journal.say(|| {
                let n = crate::game::space_name_in(data, space);
                Text::new(
                    format!("{} activated for {pe} ({cost} OPS)", n.en),
                    format!("{}激活用于{pz}({cost}点作战)", n.zh),
                )
            });
            let left = ops.saturating_sub(cost);
            if left > 0 {
                g.engine.push(Frame::Activation { side, ops: left });
            } else {
                end_activation(g, side);
            }
        }
        (Frame::Activation { side, .. }, Some(Action::EndActivation)) => end_activation(g, side),
        (Frame::Movement { side }, Some(Action::Move { from, units, to })) => {
            // 11.1.2: the route the list's search kept, when the list was made at this state.
            let kept = g.kept.operations().moves.route(g, side, *from, units, *to);
            let route = kept.unwrap_or_else(|| {
                let marked = activated(g, true);
                let idx: Vec<usize> = units.iter().map(|&u| u as usize).collect();
                movement::route(g.data(), &g.pos, &idx, *from, *to, &movement_context(g, &marked)).unwrap_or_default()
            });
            g.action.moved.extend(units.iter().copied());
            let data = g.data();
            let (from, to) = (*from, *to);
            g.journal.say_marked(
                || {
                    // The names, looked up only for a journal that keeps its lines.
                    let names: Vec<String> = units.iter().map(|&u| crate::game::unit_name_in(data, u).en).collect();
                    let names_zh: Vec<String> = units.iter().map(|&u| crate::game::unit_name_in(data, u).zh).collect();
                    let (f, t) = (
                        crate::game::space_name_in(data, from),
                        crate::game::space_name_in(data, to),
                    );
                    Text::new(
                        format!(
                            "{} {} from {} to {}",
                            names.join(", "),
                            if names.len() == 1 { "moves" } else { "move" },
                            f.en,
                            t.en
                        ),
                        format!("{}从{}移动至{}", names_zh.join("、"), f.zh, t.zh),
                    )
                },
                || {
                    let path: Vec<String> = std::iter::once(from)
                        .chain(route.iter().copied())
                        .map(|s| space_id(data, s))
                        .collect();
                    units
                        .iter()
                        .map(|&u| Mark::Move {
                            unit: unit_id(data, u),
                            from: space_id(data, from),
                            to: space_id(data, to),
                            path: path.clone(),
                        })
                        .collect::<Vec<_>>()
                },
            );
            g.engine.push(Frame::Movement { side });
            if !route.is_empty() {
                g.engine.push(Frame::March {
                    side,
                    units: units.clone(),
                    route,
                });
            }
        }
        (Frame::Movement { side }, Some(Action::Begin { from, units })) => {
            g.action.moved.extend(units.iter().copied());
            g.engine.push(Frame::Movement { side });
            g.engine.push(Frame::Marching {
                side,
                units: units.clone(),
                origin: *from,
                at: *from,
                spent: 0,
                stopped: false,
            });
        }
        (Frame::Movement { side }, Some(&Action::Dig { unit })) => {
            crate::trenches::begin_dig(g, unit);
            g.engine.push(Frame::Movement { side });
        }
        // 11.2.2: after all movement, the digging rolls.
        (Frame::Movement { side }, _) => crate::trenches::rolls(g, side),
        (
            Frame::Marching {
                side,
                units,
                origin,
                at,
                spent,
                ..
            },
            Some(Action::Step { to }),
        ) => {
            let idx: Vec<usize> = units.iter().map(|&u| u as usize).collect();
            let marked = activated(g, true);
            let stop = movement::step_check(g.data(), &g.pos, &idx, at, *to, spent, &movement_context(g, &marked))
                .unwrap_or(true);
            march(g, side, units.clone(), vec![*to]);
            let (data, from, next) = (g.data(), at, *to);
            let (names, t) = (g.units_named(&units), g.name(next));
            g.journal.say_marked(
                || {
                    Text::new(
                        format!(
                            "{} {} {} (11.1)",
                            names.en,
                            if units.len() == 1 { "enters" } else { "enter" },
                            t.en
                        ),
                        format!("{}进入{}(11.1)", names.zh, t.zh),
                    )
                },
                || {
                    units
                        .iter()
                        .map(|&u| Mark::Move {
                            unit: unit_id(data, u),
                            from: space_id(data, from),
                            to: space_id(data, next),
                            path: vec![space_id(data, from), space_id(data, next)],
                        })
                        .collect::<Vec<_>>()
                },
            );
            g.engine.push(Frame::Marching {
                side,
                units,
                origin,
                at: *to,
                spent: spent + 1,
                stopped: stop,
            });
        }
        (Frame::Marching { units, origin, at, .. }, Some(Action::Halt)) => {
            let names: Vec<String> = units.iter().map(|&u| g.unit_name(u).en).collect();
            let names_zh: Vec<String> = units.iter().map(|&u| g.unit_name(u).zh).collect();
            let (f, t) = (g.name(origin), g.name(at));
            g.journal.say(|| {
                Text::new(
                    format!(
                        "{} {} from {} to {}",
                        names.join(", "),
                        if names.len() == 1 { "moves" } else { "move" },
                        f.en,
                        t.en
                    ),
                    format!("{}从{}移动至{}", names_zh.join("、"), f.zh, t.zh),
                )
            });
        }
        (Frame::March { side, units, route }, None) => march(g, side, units, route),
        (Frame::Combats { side }, Some(&Action::Target { space })) => {
            let mut b = new_battle(g, side, space);
            // 12.4.4.1 (data edition 5).
            if g.scenario.edition >= 5 {
                b.out_of_supply = armies_out_of_supply(g, &b);
            }
            g.action.battle = Some(b);
            g.engine.push(Frame::Combats { side });
            g.engine.push(Frame::Designate { side });
        }
        (Frame::Combats { .. }, _) => {}
        (Frame::Designate { side }, Some(&Action::Join { unit })) => {
            // 12.1.8: a Russian corps attacking across uses the turn's Caucasus crossing (data
            // edition 5).
            if let (Some(b), Some(at), true) = (&g.action.battle, g.at(unit as usize), g.scenario.edition >= 5) {
                if movement::russian_crossing(g.data(), unit as usize, &[at, b.defending]) {
                    g.turn.caucasus_crossed = true;
                }
            }
            if let Some(b) = &mut g.action.battle {
                b.attackers.push(unit);
            }
            g.engine.push(Frame::Designate { side });
        }
        (Frame::Designate { side }, Some(Action::Resolve)) => resolve(g, side),
        (Frame::FlankChoice { side }, Some(Action::Flank { pinning })) => {
            if let Some(b) = &mut g.action.battle {
                b.pinning = *pinning;
            }
            if pinning.is_some() {
                g.engine.push(Frame::BattleDie {
                    roll: BattleRoll::Flank,
                });
            } else {
                g.engine.push(Frame::CombatCards { side, early: false });
            }
        }
        (Frame::GreatRetreat { .. }, Some(&Action::GreatRetreat { retreat: true })) => {
            crate::events::retreat_before_combat(g)
        }
        (Frame::GreatRetreat { side }, _) => g.engine.push(Frame::CombatCards {
            side: other(side),
            early: true,
        }),
        (Frame::CombatCards { side, early }, Some(&Action::CombatCard { card })) => {
            play_combat_card(g, side, card);
            g.engine.push(Frame::CombatCards { side, early });
        }
        (Frame::CombatCards { side, early }, _) => combat_cards_done(g, side, early),
        (Frame::BattleDie { roll }, Some(&Action::Die { face })) => battle_die(g, roll, face),
        (Frame::TakeLosses { side }, Some(Action::Lose { target })) => lose(g, side, *target),
        (Frame::RetreatUnits { .. }, Some(&Action::StandFast { unit })) => {
            let n = g.unit_name(unit);
            let i = unit as usize;
            let stays = g.pos.units[i].full;
            let army = g.data().pieces[i].kind == Kind::Army;
            let at = g.at(i);
            let mut replaced_by = None;
            let mut gone_oos = false;
            if stays {
                g.pos.units[i].full = false;
            } else {
                // 12.4.4: a reduced army eliminated gives way to a corps of its pool, or leaves
                // the game for want of one.
                // 12.4.4.1: an army out of supply at the combat's start leaves the game, its
                // corps coming all the same.
                let stand_in = if army { stand_in_corps(g, unit) } else { None };
                let b = g.action.battle.as_ref();
                gone_oos = b.is_some_and(|b| b.out_of_supply.contains(&unit));
                g.pos.units[i].loc = match b {
                    _ if army && stand_in.is_none() => Location::Removed,
                    Some(b) => eliminated_to(g, b, unit),
                    None if g.data().pieces[i].not_replaceable => Location::Removed,
                    None => Location::Eliminated,
                };
                g.pos.units[i].full = true;
                if let (Some(c), Some(s)) = (stand_in, at) {
                    g.pos.units[c as usize].loc = Location::Map(s);
                    replaced_by = Some(c);
                }
            }
            let (we, wz) = if stays {
                ("is reduced", "减员")
            } else {
                ("is eliminated", "被消灭")
            };
            g.journal.say(|| {
                Text::new(
                    format!("{} {we} to cancel the retreat (12.5.3)", n.en),
                    format!("{}{wz}以取消撤退(12.5.3)", n.zh),
                )
            });
            if gone_oos {
                g.journal.say(|| out_of_supply_gone(&n));
            }
            if let Some(c) = replaced_by {
                let cn = g.unit_name(c);
                g.journal.say(|| {
                    Text::new(
                        format!("{} comes from the Reserve Box in its army's place (12.4.4)", cn.en),
                        format!("{}从预备队格补上集团军的位置(12.4.4)", cn.zh),
                    )
                });
            }
            end_battle(g);
        }
        (Frame::RetreatUnits { side }, Some(Action::Retreat { unit, route }))
            if g.action.battle.as_ref().and_then(|b| b.retreat).unwrap_or(0) as usize > route.len() =>
        {
            // 2022 12.5.4, 12.7.4: the first of two spaces, and no farther: eliminated there.
            let to = *route.last().unwrap_or(&Space(0));
            let from = g.action.battle.as_ref().map(|b| b.defending);
            eliminate(g, *unit);
            if let Some(b) = &mut g.action.battle {
                b.cut_short.push(to);
            }
            let (n, t) = (g.unit_name(*unit), g.name(to));
            let (data, u) = (g.data(), *unit);
            g.journal.say_marked(
                || {
                    Text::new(
                        format!(
                            "{} retreats to {}, can go no farther and is eliminated (2022 12.5.4)",
                            n.en, t.en
                        ),
                        format!("{}撤退至{},无法再退,被消灭(2022年版12.5.4)", n.zh, t.zh),
                    )
                },
                || {
                    let mut marks: Vec<Mark> = from
                        .map(|from| Mark::Retreat {
                            unit: unit_id(data, u),
                            from: space_id(data, from),
                            to: space_id(data, to),
                            path: vec![space_id(data, from), space_id(data, to)],
                        })
                        .into_iter()
                        .collect();
                    marks.push(Mark::Eliminated {
                        unit: unit_id(data, u),
                        at: space_id(data, to),
                    });
                    marks
                },
            );
            if from.is_some_and(|d| !units_of(g, side, d).is_empty()) {
                g.engine.push(Frame::RetreatUnits { side });
            } else {
                after_retreat(g);
            }
        }
        (Frame::RetreatUnits { side }, Some(Action::Retreat { unit, route })) => {
            let to = *route.last().unwrap_or(&Space(0));
            let from = g.action.battle.as_ref().map(|b| b.defending);
            // 12.1.8: a retreat across uses the turn's Caucasus crossing (data edition 5).
            if let (Some(f), true) = (from, g.scenario.edition >= 5) {
                let path: Vec<Space> = std::iter::once(f).chain(route.iter().copied()).collect();
                if movement::russian_crossing(g.data(), *unit as usize, &path) {
                    g.turn.caucasus_crossed = true;
                }
            }
            g.pos.units[*unit as usize].loc = Location::Map(to);
            // 12.1.1, 12.5.6: the unit retreated this action.
            if g.scenario.edition >= 3 {
                g.action.retreated.push(*unit);
            }
            // 12.5.5: a retreating unit takes only the space it ends in.
            enter(g, side, to);
            if let Some(b) = &mut g.action.battle {
                b.retreat_routes.push(route.clone());
            }
            let (n, t) = (g.unit_name(*unit), g.name(to));
            let (data, u) = (g.data(), *unit);
            g.journal.say_marked(
                || {
                    Text::new(
                        format!("{} retreats to {} (12.5)", n.en, t.en),
                        format!("{}撤退至{}(12.5)", n.zh, t.zh),
                    )
                },
                || {
                    from.map(|from| Mark::Retreat {
                        unit: unit_id(data, u),
                        from: space_id(data, from),
                        to: space_id(data, to),
                        path: std::iter::once(from)
                            .chain(route.iter().copied())
                            .map(|s| space_id(data, s))
                            .collect(),
                    })
                },
            );
            let left = from.is_some_and(|d| !units_of(g, side, d).is_empty());
            if left {
                g.engine.push(Frame::RetreatUnits { side });
            } else {
                after_retreat(g);
            }
        }
        (Frame::RetreatUnits { side }, None) => {
            // 12.5.4: a unit that cannot retreat is eliminated.
            if let Some(b) = &mut g.action.battle {
                // 12.6.1, 12.6.2: when none of them retreated, every defender was eliminated,
                // and the attackers may advance into their space (data edition 4; earlier
                // games let nobody advance).
                if g.scenario.edition >= 4 && b.retreat_routes.is_empty() && b.cut_short.is_empty() {
                    b.defenders_gone = true;
                }
            }
            if let Some(d) = g.action.battle.as_ref().map(|b| b.defending) {
                for u in units_of(g, side, d) {
                    eliminate(g, u);
                    let (n, data) = (g.unit_name(u), g.data());
                    g.journal.say_marked(
                        || {
                            Text::new(
                                format!("{} cannot retreat and is eliminated (12.5.4)", n.en),
                                format!("{}无法撤退,被消灭(12.5.4)", n.zh),
                            )
                        },
                        || {
                            [Mark::Eliminated {
                                unit: unit_id(data, u),
                                at: space_id(data, d),
                            }]
                        },
                    );
                }
            }
            after_retreat(g);
        }
        (Frame::AdvanceUnits { side }, Some(Action::Advance { unit, route })) => {
            let to = *route.last().unwrap_or(&Space(0));
            let from = g.at(*unit as usize);
            // 2022 11.3.2: an advance across uses the turn's Caucasus crossing (data edition 5).
            if let (Some(f), true) = (from, g.scenario.edition >= 5) {
                let path: Vec<Space> = std::iter::once(f).chain(route.iter().copied()).collect();
                if movement::russian_crossing(g.data(), *unit as usize, &path) {
                    g.turn.caucasus_crossed = true;
                }
            }
            g.pos.units[*unit as usize].loc = Location::Map(to);
            for &s in route {
                enter(g, side, s);
            }
            if let Some(b) = &mut g.action.battle {
                b.advanced.push(*unit);
            }
            let (n, t) = (g.unit_name(*unit), g.name(to));
            let (data, u) = (g.data(), *unit);
            g.journal.say_marked(
                || {
                    Text::new(
                        format!("{} advances to {} (12.7)", n.en, t.en),
                        format!("{}推进至{}(12.7)", n.zh, t.zh),
                    )
                },
                || {
                    from.map(|from| Mark::Advance {
                        unit: unit_id(data, u),
                        from: space_id(data, from),
                        to: space_id(data, to),
                    })
                },
            );
            g.engine.push(Frame::AdvanceUnits { side });
        }
        (Frame::AdvanceUnits { .. }, _) => end_battle(g),
        _ => {}
    }
}

/// 9.2.8, 9.2.9: movement of the spaces activated for it, then their combats.
fn end_activation(g: &mut PathsOfGlory, side: Side) {
    if g.action.activated.iter().any(|&(_, c)| c) {
        g.engine.push(Frame::Combats { side });
    }
    if g.action.activated.iter().any(|&(_, c)| !c) {
        g.engine.push(Frame::Movement { side });
    }
}

/// One step of a move: the units enter the next space of their route (11.1).
fn march(g: &mut PathsOfGlory, side: Side, units: Vec<u16>, mut route: Vec<Space>) {
    if route.is_empty() {
        return;
    }
    let next = route.remove(0);
    let from = g.at(units[0] as usize);
    for &u in &units {
        g.pos.units[u as usize].loc = Location::Map(next);
    }
    // 11.3.2: a Russian corps crossing between the Caucasus and the Near East (before data
    // edition 5, any Russian move into or out of the Caucasus space counted).
    if let Some(f) = from {
        let crossing = if g.scenario.edition >= 5 {
            units
                .iter()
                .any(|&u| movement::russian_crossing(g.data(), u as usize, &[f, next]))
        } else {
            g.data().space("caucasus").is_some_and(|cau| {
                (f == cau) != (next == cau) && units.iter().any(|&u| g.data().pieces[u as usize].nation == Nation::Ru)
            })
        };
        if crossing {
            g.turn.caucasus_crossed = true;
        }
    }
    enter(g, side, next);
    if !route.is_empty() {
        g.engine.push(Frame::March { side, units, route });
    }
}

/// What a side's units entering a space do there: an enemy fort standing is besieged (15.2.1),
/// else the space becomes theirs (a VP space moves the VP, 5.1.2), and an enemy trench is
/// removed or taken over (11.2.5, 11.2.6).
fn enter(g: &mut PathsOfGlory, side: Side, s: Space) {
    let data = g.data();
    let st = *g.pos.space(s);
    if st.control == Some(side) {
        return;
    }
    if st.fort == Fort::Intact && data.facts(s).fort > 0 {
        g.pos.spaces[s.idx()].fort = Fort::Besieged;
        // 11.2.5, 11.2.6: besiegers are enemy units in the space; its trench goes (or turns)
        // (data edition 5).
        if g.scenario.edition >= 5 {
            g.pos.spaces[s.idx()].trench = trenches::entered(st.trench, side);
        }
        let n = g.name(s);
        g.journal.say(|| {
            Text::new(
                format!("The fort of {} is besieged (15.2)", n.en),
                format!("{}要塞被围(15.2)", n.zh),
            )
        });
        return;
    }
    if st.fort == Fort::Besieged {
        return;
    }
    // 11.1.14 (2022 11.1.15): the ANA converts no CP space; one only it holds stays the CP's,
    // and so is the CP's again the moment it leaves. Its trench goes as for any enemy entry.
    let ana = |u: usize| data.pieces[u].nation == Nation::Ana;
    if g.scenario.edition >= 5 && side == Side::Ap && g.pos.units_in(s).any(ana) && g.pos.units_in(s).all(ana) {
        g.pos.spaces[s.idx()].trench = trenches::entered(st.trench, side);
        return;
    }
    // 9.5.3.5: a CP unit entering the MEF Beachhead's space removes the marker.
    if side == Side::Cp && g.pos.beachhead == Some(s) {
        g.pos.beachhead = None;
    }
    g.pos.spaces[s.idx()].control = Some(side);
    g.pos.spaces[s.idx()].trench = trenches::entered(st.trench, side);
    g.pos.vp += victory::capture(data, g.scenario.historical, s, st.control, Some(side));
}

/// 12.2.2 done: the attackers are marked as having attacked; on to the attacker's first
/// combat-card step (2022 12.2.1 step 3), then the flank choice or the fire.
fn resolve(g: &mut PathsOfGlory, side: Side) {
    let Some(b) = g.action.battle.clone() else {
        return;
    };
    g.action.attacked.extend(b.attackers.iter().copied());
    g.action.attacked_spaces.push(b.defending);
    // 15.2.3: besiegers attacking another space are no longer the siege's.
    if g.scenario.edition >= 3 {
        let sallied: Vec<u16> = b
            .attackers
            .iter()
            .copied()
            .filter(|&u| {
                g.at(u as usize)
                    .is_some_and(|s| s != b.defending && besieged_by(g, side, s))
            })
            .collect();
        g.action.sallied.extend(sallied);
    }
    let (n, k) = (g.name(b.defending), b.attackers.len());
    let data = g.data();
    let stand: Vec<(u16, Option<Space>)> = b.attackers.iter().map(|&u| (u, g.at(u as usize))).collect();
    g.journal.say_marked(
        || {
            Text::new(
                format!("{} attacks {} with {k} unit(s) (12.2)", side_en(side), n.en),
                format!("{}以{k}个单位进攻{}(12.2)", side_zh(side), n.zh),
            )
        },
        || {
            let mut from: Vec<String> = Vec::new();
            for s in stand.iter().filter_map(|x| x.1) {
                let id = space_id(data, s);
                if !from.contains(&id) {
                    from.push(id);
                }
            }
            [Mark::Attack {
                units: stand.iter().map(|x| unit_id(data, x.0)).collect(),
                from,
                at: space_id(data, b.defending),
            }]
        },
    );
    note_offensive(g, side, &b);
    crate::events::attack_declared(g);
    // Great Retreat (AP #27): the Allies say whether the Russians fall back before the combat.
    if crate::events::great_retreat_offered(g) {
        g.engine.push(Frame::GreatRetreat { side: other(side) });
        return;
    }
    // 2022 12.2.1 step 3: the attacker's trench-negating cards come before the flank attempt.
    g.engine.push(Frame::CombatCards { side, early: true });
}

/// 12.2.5: a combat card is played: from the hand it is shown and put face up in front of its
/// player until the combat is decided; a card held face up is used again.
fn play_combat_card(g: &mut PathsOfGlory, side: Side, card: u8) {
    let i = side_index(side);
    let round = crate::combat_cards::current_round(g);
    let from_hand = g.pos.cards[i].hand.contains(&card);
    if from_hand {
        crate::cards::play(&mut g.pos.cards[i], card, crate::cards::Played::FaceUp);
        if let Some(b) = &mut g.action.battle {
            b.from_hand[i].push(card);
        }
    }
    g.turn.cc_used.push((i as u8, card, round));
    let flank = crate::combat_cards::makes_flank_succeed(side, card);
    if let Some(b) = &mut g.action.battle {
        b.cards[i].push(card);
        if flank {
            b.flank = Some(true);
        }
    }
    let name = g.card_name(side, card);
    let what = crate::combat_cards::text(side, card).unwrap_or_else(|| Text::new("", ""));
    g.journal.say(|| {
        Text::new(
            format!("{} plays {} (12.2.5): {}", side_en(side), name.en, what.en),
            format!("{}打出{}(12.2.5):{}", side_zh(side), name.zh, what.zh),
        )
    });
}

/// The end of a side's combat-card step: after the attacker's first step the flank attempt
/// (12.2.4), after the attacker's second the defender's (12.2.5), then the fire.
fn combat_cards_done(g: &mut PathsOfGlory, side: Side, early: bool) {
    let Some(b) = g.action.battle.clone() else {
        return;
    };
    if early {
        let from = attack_spaces(g, &b);
        if combat::may_flank(g.data(), &g.pos, g.tables(), &attack_of(g, &b, side, &from)).is_ok() {
            g.engine.push(Frame::FlankChoice { side });
        } else {
            g.engine.push(Frame::CombatCards { side, early: false });
        }
    } else if side == b.attacker {
        g.engine.push(Frame::CombatCards {
            side: other(side),
            early: false,
        });
    } else if crate::combat_cards::effects(&b).cancelled {
        call_off(g);
    } else {
        start_fire(g, b.attacker);
    }
}

/// Alberich (CP #64): the attack is called off before any fire; the attacker's combat cards
/// count as not played: those from the hand go back to it, those held face up stay so and may
/// serve again this action round. The defender's cards are settled as a winner's.
fn call_off(g: &mut PathsOfGlory) {
    let Some(b) = g.action.battle.clone() else {
        return;
    };
    let a = side_index(b.attacker);
    let round = crate::combat_cards::current_round(g);
    for &n in &b.cards[a] {
        if b.from_hand[a].contains(&n) {
            let c = &mut g.pos.cards[a];
            c.face_up.retain(|&k| k != n);
            c.hand.push(n);
        }
        g.turn
            .cc_used
            .retain(|&(s, c, r)| !(s == a as u8 && c == n && r == round));
    }
    if let Some(bb) = &mut g.action.battle {
        bb.cards[a].clear();
    }
    g.journal.say(|| {
        Text::new(
            "The attack is called off; the attacker's combat cards count as not played (CP #64)",
            "进攻被取消;进攻方的战斗卡视为未打出(同盟#64)",
        )
    });
    settle_combat_cards(g, combat::Winner::Defender);
    end_battle(g);
}

/// 12.2.10, 9.5.4.2, 9.5.4.3: where each combat card of the battle goes once the winner is
/// known: the winner keeps his face up, the loser discards his (both on equal numbers); a `*`
/// card leaves the game and a card for one combat a turn is discarded even after a win.
/// They Shall Not Pass (AP #39) works the other way round (2022 12.2.11): it stays face up
/// after a combat the Allies lose and is discarded after one they win.
fn settle_combat_cards(g: &mut PathsOfGlory, w: combat::Winner) {
    let Some(b) = g.action.battle.clone() else {
        return;
    };
    for side in [b.attacker, other(b.attacker)] {
        let i = side_index(side);
        let won = match w {
            combat::Winner::Attacker => side == b.attacker,
            combat::Winner::Defender => side != b.attacker,
            combat::Winner::Neither => false,
        };
        for &n in &b.cards[i] {
            let data = g.data();
            let reversed = side == Side::Ap && n == 39;
            let keep = if reversed { !won } else { won };
            let to = if data.card(side, n).is_some_and(|c| c.remove) {
                Some(crate::cards::Played::Removed)
            } else if !keep || crate::combat_cards::once_a_turn(side, n) {
                Some(crate::cards::Played::Discarded)
            } else {
                None
            };
            let name = g.card_name(side, n);
            let c = &mut g.pos.cards[i];
            match to {
                Some(pile) => {
                    c.face_up.retain(|&k| k != n);
                    let (en, zh) = if pile == crate::cards::Played::Removed {
                        c.removed.push(n);
                        ("leaves the game (9.5.4.2)", "移出游戏(9.5.4.2)")
                    } else {
                        c.discard.push(n);
                        ("is discarded (9.5.4.3)", "弃掉(9.5.4.3)")
                    };
                    g.journal
                        .say(|| Text::new(format!("{} {en}", name.en), format!("{}{zh}", name.zh)));
                }
                None => g.journal.say(|| {
                    Text::new(
                        format!("{} stays face up (9.5.4.2)", name.en),
                        format!("{}面朝上保留(9.5.4.2)", name.zh),
                    )
                }),
            }
        }
    }
}

/// 7.1.3–7.1.7: whether this attack meets the side's Mandated Offensive.
fn note_offensive(g: &mut PathsOfGlory, side: Side, b: &Battle) {
    let i = side_index(side);
    let Some(o) = g.turn.offensive[i] else {
        return;
    };
    if o == offensives::Offensive::FrenchMutiny {
        crate::events::mutiny_attack(g, b);
        return;
    }
    let data = g.data();
    let attackers: Vec<Nation> = b.attackers.iter().map(|&u| data.pieces[u as usize].nation).collect();
    let defenders: Vec<Nation> = b.defenders.iter().map(|&u| data.pieces[u as usize].nation).collect();
    let seen = offensives::AttackSeen {
        attackers: &attackers,
        // 2022 7.1.4: the AUS, CND and PT corps are not British for offensives.
        // Before data edition 5 every counter of British nationality was British here.
        british_proper: b.attackers.iter().any(|&u| {
            let p = &data.pieces[u as usize];
            p.british_proper() || (g.scenario.edition < 5 && p.nation == Nation::Br)
        }),
        turkish_not_senussi: attackers.contains(&Nation::Tu),
        defenders: &defenders,
        country: data.facts(b.defending).nation.as_deref(),
        supplied_through_italy: o == offensives::Offensive::AhAgainstItaly
            && g.scenario.edition >= 5
            && b.defenders
                .iter()
                .any(|&u| supplied_through_italy(data, &g.pos, u as usize, b.defending)),
    };
    if offensives::met_by(o, &seen) {
        g.turn.offensive_met[i] = true;
    }
}

/// 7.1.6 "接受義大利補給的協約國軍": whether an Allied unit other than Italian, at `at`, traces its
/// supply through Italy: in supply, and out of it once Italy's spaces are closed to its path.
pub(crate) fn supplied_through_italy(
    data: &crate::data::Data,
    pos: &crate::state::Position,
    unit: usize,
    at: Space,
) -> bool {
    let p = &data.pieces[unit];
    if p.side != Side::Ap || p.nation == Nation::It {
        return false;
    }
    let t = crate::supply::tracer_of(data, unit);
    let ctx = crate::supply::Context::default();
    if !crate::supply::in_supply(data, pos, t, at, &ctx) {
        return false;
    }
    let mut closed = pos.clone();
    for s in data.map.graph.space_indices() {
        if data.facts(s).nation.as_deref() == Some("it") {
            closed.spaces[s.idx()].control = None;
        }
    }
    !crate::supply::in_supply(data, &closed, t, at, &ctx)
}

/// 12.2.7, 12.2.8, 12.2.9: the order of fire and losses: at once without a flank attack (the
/// defender takes his losses first), the attacker first after a successful flank attack, the
/// defender first after a failed one (12.3.3).
fn start_fire(g: &mut PathsOfGlory, side: Side) {
    let d = other(side);
    // Von Hutier (CP #44): the attacker fires first, as after a successful flank attack.
    let first = g
        .action
        .battle
        .as_ref()
        .is_some_and(|b| crate::combat_cards::effects(b).attacker_fires_first);
    let order = if first {
        Some(true)
    } else {
        g.action.battle.as_ref().and_then(|b| b.flank)
    };
    let steps = match order {
        None => vec![
            BattleStep::Fire(side),
            BattleStep::Fire(d),
            BattleStep::Losses(d),
            BattleStep::Losses(side),
            BattleStep::Outcome,
        ],
        Some(true) => vec![
            BattleStep::Fire(side),
            BattleStep::Losses(d),
            BattleStep::Fire(d),
            BattleStep::Losses(side),
            BattleStep::Outcome,
        ],
        Some(false) => vec![
            BattleStep::Fire(d),
            BattleStep::Losses(side),
            BattleStep::Fire(side),
            BattleStep::Losses(d),
            BattleStep::Outcome,
        ],
    };
    if let Some(b) = &mut g.action.battle {
        b.steps = steps;
    }
    next_step(g);
}

/// Carries the combat on to its next step.
fn next_step(g: &mut PathsOfGlory) {
    let Some(b) = &mut g.action.battle else {
        return;
    };
    if b.steps.is_empty() {
        return;
    }
    match b.steps.remove(0) {
        BattleStep::Fire(side) => g.engine.push(Frame::BattleDie {
            roll: BattleRoll::Fire(side),
        }),
        BattleStep::Losses(side) => start_losses(g, side),
        BattleStep::Outcome => outcome(g),
    }
}

/// The units of a side firing or taking losses in the battle: the attackers still on the map
/// where they attacked from, the defenders still in the defending space.
/// The units fighting on a side: the attackers still on the map, or the units in the
/// defending space but those that retreated there this action (12.5.6: they add no CF and take
/// no share of the loss number).
fn combatants(g: &PathsOfGlory, b: &Battle, side: Side) -> Vec<u16> {
    if side == b.attacker {
        b.attackers
            .iter()
            .copied()
            .filter(|&u| matches!(g.pos.units[u as usize].loc, Location::Map(_)))
            .collect()
    } else {
        let mut units = units_of(g, side, b.defending);
        units.retain(|u| !g.action.retreated.contains(u));
        units
    }
}

/// 12.1.1: whether every unit of `side` in the space retreated this action (and there is one).
fn only_retreated(g: &PathsOfGlory, side: Side, s: Space) -> bool {
    let units = units_of(g, side, s);
    !units.is_empty() && units.iter().all(|u| g.action.retreated.contains(u))
}

/// 12.5.6: a loss number of 1 or more eliminates the units that retreated into the defending
/// space this action, at once, to the Eliminated box and without a replacement corps; they do
/// not count against the loss number.
fn eliminate_retreated(g: &mut PathsOfGlory, b: &Battle, number: u8) {
    if number == 0 {
        return;
    }
    let side = other(b.attacker);
    let gone: Vec<u16> = units_of(g, side, b.defending)
        .into_iter()
        .filter(|u| g.action.retreated.contains(u))
        .collect();
    for u in gone {
        let i = u as usize;
        g.pos.units[i].loc = eliminated_to(g, b, u);
        g.pos.units[i].full = true;
        let n = g.unit_name(u);
        g.journal.say(|| {
            Text::new(
                format!("{} retreated this action and is eliminated at once (12.5.6)", n.en),
                format!("{}本次行动中已撤退,立即被消灭(12.5.6)", n.zh),
            )
        });
        if b.out_of_supply.contains(&u) {
            g.journal.say(|| out_of_supply_gone(&n));
        }
    }
}

/// The defending fort's strength when it fights for the defender (12.2.3, 15.1).
pub(crate) fn fort_lf(g: &PathsOfGlory, b: &Battle) -> u8 {
    let st = g.pos.space(b.defending);
    let defender = other(b.attacker);
    if matches!(st.fort, Fort::Intact | Fort::Besieged) && st.control == Some(defender) {
        g.data().facts(b.defending).fort
    } else {
        0
    }
}

/// 12.2.6: the modifiers of a side's fire roll, each with what gives it: the combat cards in
/// play, and the attack made wholly from Sinai.
pub(crate) fn fire_drms(g: &PathsOfGlory, b: &Battle, side: Side) -> Vec<(i32, Text)> {
    let mut out = Vec::new();
    let cards = crate::combat_cards::effects(b).drm[side_index(side)];
    if cards != 0 {
        out.push((
            cards,
            Text::new(
                "combat cards and events (12.2.5, 12.2.6)",
                "战斗卡与事件(12.2.5、12.2.6)",
            ),
        ));
    }
    // 12.2.6 (2022 12.2.7): −3 to an attack made wholly from Sinai, unless the Allies
    // attack after Sinai Pipeline (AP #49, a `*` event: out of the game once played).
    if side == b.attacker {
        let sinai = g.data().space("sinai");
        let all_in_sinai = sinai.is_some() && combatants(g, b, side).iter().all(|&u| g.at(u as usize) == sinai);
        let pipeline = crate::events::played(g, Side::Ap, 49);
        let d = combat::sinai_drm(all_in_sinai, side == Side::Ap, pipeline);
        if d != 0 {
            out.push((d, Text::new("attacking from Sinai (12.2.6)", "从西奈进攻(12.2.6)")));
        }
    }
    out
}

/// 12.2.3, 12.2.7: a side's fire before its die.
pub(crate) fn fire_of(g: &PathsOfGlory, b: &Battle, side: Side) -> Fire {
    let data = g.data();
    let units = combatants(g, b, side);
    let mut strength: u32 = units
        .iter()
        .map(|&u| {
            let p = &data.pieces[u as usize];
            if g.pos.units[u as usize].full {
                p.full.cf as u32
            } else {
                p.reduced.cf as u32
            }
        })
        .sum();
    if side != b.attacker {
        strength += fort_lf(g, b) as u32;
    }
    let cards = crate::combat_cards::effects(b);
    let any_army = units.iter().any(|&u| data.pieces[u as usize].kind == Kind::Army);
    // Kemal (CP #31): the Turkish defenders fire on the Army table.
    let table = Table::for_units(any_army || cards.army_table[side_index(side)]);
    let trench_counts = !units_of(g, other(b.attacker), b.defending).is_empty() && !cards.trench_negated;
    let mut trench = g.pos.space(b.defending).trench.and_then(|t| g.tables().trench(t.level));
    // Turk Determination (CP #60): a level-1 trench where there is none.
    if cards.trench_level1 && trench.is_none() {
        trench = g.tables().trench(1);
    }
    let shifts = combat::shifts(g.tables().terrain_of(data, b.defending), trench, trench_counts);
    let shift = if side == b.attacker {
        shifts.attacker
    } else {
        shifts.defender
    };
    Fire::new(g.tables(), table, strength, shift)
}

fn battle_die(g: &mut PathsOfGlory, roll: BattleRoll, face: u8) {
    let Some(b) = g.action.battle.clone() else {
        return;
    };
    match roll {
        BattleRoll::Flank => {
            let from = attack_spaces(g, &b);
            let drm = b.pinning.map_or(0, |p| {
                combat::flank_drm(g.data(), &g.pos, b.attacker, &from, p, b.defending)
            });
            let ok = combat::flank_succeeds(face, drm);
            if let Some(bb) = &mut g.action.battle {
                bb.flank = Some(ok);
            }
            g.journal.say(|| {
                if ok {
                    Text::new(
                        format!("Flank roll {face}{drm:+}: the flank attack succeeds (12.3.3)"),
                        format!("挟击掷骰{face}{drm:+}:挟击成功(12.3.3)"),
                    )
                } else {
                    Text::new(
                        format!("Flank roll {face}{drm:+}: the flank attack fails (12.3.3)"),
                        format!("挟击掷骰{face}{drm:+}:挟击失败(12.3.3)"),
                    )
                }
            });
            g.engine.push(Frame::CombatCards {
                side: b.attacker,
                early: false,
            });
        }
        BattleRoll::Fire(side) => {
            let fire = fire_of(g, &b, side);
            let drm: i32 = fire_drms(g, &b, side).iter().map(|d| d.0).sum();
            let n = fire.losses(g.tables(), face, drm);
            if let Some(bb) = &mut g.action.battle {
                bb.inflicted[side_index(side)] = Some(n);
            }
            let (tn_en, tn_zh) = (fire.table.name_en(), fire.table.name_zh());
            let col = fire.label(g.tables());
            g.journal.say(|| {
                Text::new(
                    format!(
                        "{} fires on the {tn_en}, column {col}, roll {face}{}: loss number {n} (12.2.8)",
                        side_en(side),
                        if drm != 0 { format!("{drm:+}") } else { String::new() }
                    ),
                    format!(
                        "{}使用{tn_zh}{col}栏开火,掷骰{face}{}:损失数{n}(12.2.8)",
                        side_zh(side),
                        if drm != 0 { format!("{drm:+}") } else { String::new() }
                    ),
                )
            });
            next_step(g);
        }
    }
}

/// 12.4: a side's allocation of the losses the other side inflicted.
fn start_losses(g: &mut PathsOfGlory, side: Side) {
    let Some(b) = g.action.battle.clone() else {
        return;
    };
    let number = b.inflicted[side_index(other(side))].unwrap_or(0);
    if side != b.attacker {
        eliminate_retreated(g, &b, number);
    }
    let data = g.data();
    let units = combatants(g, &b, side);
    let british_attack = side == b.attacker
        && units.iter().any(|&u| {
            let p = &data.pieces[u as usize];
            p.nation == Nation::Br || p.id == "ru-army-cau"
        });
    // 12.4.4, 12.4.4.3: each army draws its replacement corps from a pool of its nation's corps
    // in the Reserve Box (the BEF army only the BEF corps).
    let mut pool_keys: Vec<String> = Vec::new();
    let mut pools: Vec<Pool> = Vec::new();
    let mut pool_counters: Vec<Vec<u16>> = Vec::new();
    let mut losers = Vec::new();
    let mut counters = Vec::new();
    for &u in &units {
        let p = &data.pieces[u as usize];
        let pool = (p.kind == Kind::Army).then(|| {
            let key = pool_key(p);
            match pool_keys.iter().position(|k| *k == key) {
                Some(i) => i,
                None => {
                    let corps = replacement_pool(g, u);
                    let standard = (0..data.pieces.len())
                        .map(|c| &data.pieces[c])
                        .find(|q| q.kind == Kind::Corps && q.nation == p.nation)
                        .map_or((0, 0), |q| (q.full.lf, q.reduced.lf));
                    pools.push(Pool {
                        corps: corps
                            .iter()
                            .map(|&c| {
                                let q = &data.pieces[c as usize];
                                ReserveCorps {
                                    full: g.pos.units[c as usize].full,
                                    lf_full: q.full.lf,
                                    lf_reduced: q.reduced.lf,
                                    priority: if british_attack { loss_priority(&q.id) } else { 0 },
                                }
                            })
                            .collect(),
                        standard,
                    });
                    pool_counters.push(corps);
                    pool_keys.push(key);
                    pool_keys.len() - 1
                }
            }
        });
        losers.push(Loser {
            army: p.kind == Kind::Army,
            full: g.pos.units[u as usize].full,
            lf_full: p.full.lf,
            lf_reduced: p.reduced.lf,
            pool,
            priority: if british_attack { loss_priority(&p.id) } else { 0 },
        });
        counters.push(Some(u));
    }
    let fort = if side == b.attacker { 0 } else { fort_lf(g, &b) };
    let mut losses = Losses::new(losers, pools, fort, number);
    // 2022 12.4.4.2 (data edition 6).
    if g.scenario.edition >= 6 {
        losses = losses.counting_missing_corps_only_when_needed();
    }
    if let Some(bb) = &mut g.action.battle {
        bb.losses = Some(LossTaking {
            side,
            losses,
            counters,
            pool_counters,
        });
    }
    losses_go_on(g, side);
}

/// The Reserve Box pool an army's replacement corps comes from (12.4.4.3: the BEF's own).
fn pool_key(p: &crate::data::Piece) -> String {
    if p.id.ends_with("-bef") {
        "bef".to_string()
    } else {
        p.nation.code().to_string()
    }
}

/// 12.4.4, 12.4.4.3: the corps in the Reserve Box that may replace the army `army` when it is
/// eliminated: of its nation (the BEF army only the BEF corps, and no other army the BEF's;
/// never the AUS, CND, PT or ANA corps).
fn replacement_pool(g: &PathsOfGlory, army: u16) -> Vec<u16> {
    let data = g.data();
    let p = &data.pieces[army as usize];
    // The BEF's own pool ([`pool_key`]).
    let bef = p.id.ends_with("-bef");
    // Each counter with its place, those in the Reserve Box asked of further.
    data.pieces
        .iter()
        .zip(g.pos.units.iter())
        .enumerate()
        .filter(|&(_, (q, u))| {
            u.loc == Location::Reserve
                && q.kind == Kind::Corps
                && q.side == p.side
                && !(g.scenario.edition >= 5 && never_replaces_an_army(&q.id))
                && if bef {
                    q.id.ends_with("-bef")
                } else {
                    q.nation == p.nation && !q.id.ends_with("-bef")
                }
        })
        .map(|(c, _)| c as u16)
        .collect()
}

/// 12.4.4.3 "AUS、CND、PT和ANA Corps不能用來取代任何被消滅的英軍Army" (2022: "AUS, CND, PT, ANA
/// never replace an army").
fn never_replaces_an_army(id: &str) -> bool {
    matches!(id, "br-corps-aus" | "br-corps-cnd" | "br-corps-pt" | "ana-corps")
}

/// 12.5.3 with 12.4.4: the corps that stands in for a reduced army taking the step: a full one
/// of its pool if any, else a reduced one.
fn stand_in_corps(g: &PathsOfGlory, army: u16) -> Option<u16> {
    let pool = replacement_pool(g, army);
    pool.iter()
        .copied()
        .find(|&c| g.pos.units[c as usize].full)
        .or_else(|| pool.first().copied())
}

/// 12.4.5: a unit's place in the loss order of an attack with British units or the CAU army.
fn loss_priority(id: &str) -> u8 {
    match id {
        "br-army-bef" => 1,
        "br-corps-bef" => 2,
        "br-army-mef" | "ru-army-cau" => 3,
        "br-corps-aus" | "br-corps-cnd" => 4,
        _ => 0,
    }
}

/// The next step of losses, or the allocation done.
fn losses_go_on(g: &mut PathsOfGlory, side: Side) {
    let done = g
        .action
        .battle
        .as_ref()
        .and_then(|b| b.losses.as_ref())
        .is_none_or(|t| t.losses.done());
    if done {
        apply_losses(g);
        next_step(g);
    } else {
        g.engine.push(Frame::TakeLosses { side });
    }
}

fn lose(g: &mut PathsOfGlory, side: Side, target: LossTarget) {
    if let Some(t) = g.action.battle.as_mut().and_then(|b| b.losses.as_mut()) {
        if let Some(step) = t.target(target) {
            let _ = t.losses.take(step);
        }
    }
    losses_go_on(g, side);
}

/// 12.4.4.1: the line for an army eliminated out of supply.
fn out_of_supply_gone(name: &Text) -> Text {
    Text::new(
        format!("{} is eliminated out of supply and leaves the game (12.4.4.1)", name.en),
        format!("{}在补给中断时被消灭,永久移出游戏(12.4.4.1)", name.zh),
    )
}

/// 12.4: what the allocation did, put on the map.
fn apply_losses(g: &mut PathsOfGlory) {
    let Some(b) = g.action.battle.as_mut() else {
        return;
    };
    let Some(t) = b.losses.take() else {
        return;
    };
    let side = t.side;
    b.taken[side_index(side)] = t.losses.taken();
    let defending = b.defending;
    let attacker = b.attacker;
    let out_of_supply = b.out_of_supply.clone();
    if t.losses.fort_destroyed() {
        b.fort_destroyed = true;
    }
    let data = g.data();
    // Each line with what it did on the map.
    let mut lines: Vec<(Text, Option<Mark>)> = Vec::new();
    // Where each counter stood before any of them left (a corps takes its army's space).
    let stood: Vec<Option<Space>> = t.counters.iter().map(|c| c.and_then(|a| g.at(a as usize))).collect();
    for (i, unit) in t.losses.units().iter().enumerate() {
        let counter = match unit.replaces {
            Some((army, k)) => {
                let pool = t.losses.units()[army].loser.pool.unwrap_or(0);
                t.pool_counters.get(pool).and_then(|v| v.get(k)).copied()
            }
            None if unit.counted_only => None,
            None => t.counters.get(i).copied().flatten(),
        };
        let Some(c) = counter else { continue };
        let ci = c as usize;
        let name = g.unit_name(c);
        let (id, here) = (unit_id(data, c), g.at(ci).map(|s| space_id(data, s)));
        match unit.fate {
            Fate::Standing => {
                if let Some((army, _)) = unit.replaces {
                    // 12.4.4: the corps takes the army's place.
                    let at = stood.get(army).copied().flatten();
                    if let Some(s) = at {
                        g.pos.units[ci].loc = Location::Map(s);
                    }
                    lines.push((
                        Text::new(
                            format!("{} comes from the Reserve Box in its army's place (12.4.4)", name.en),
                            format!("{}从预备队格补上集团军的位置(12.4.4)", name.zh),
                        ),
                        at.map(|s| Mark::Arrived {
                            unit: id,
                            at: space_id(data, s),
                        }),
                    ));
                } else if g.pos.units[ci].full && !unit.loser.full {
                    lines.push((
                        Text::new(format!("{} is reduced", name.en), format!("{}减员", name.zh)),
                        here.map(|at| Mark::StepLost { unit: Some(id), at }),
                    ));
                }
                g.pos.units[ci].full = unit.loser.full;
            }
            Fate::Eliminated | Fate::Replaced(_) => {
                // 12.4.4.1: an army out of supply at the combat's start leaves the game; its
                // replacement corps comes all the same.
                let oos = out_of_supply.contains(&c);
                lines.push((
                    if oos {
                        out_of_supply_gone(&name)
                    } else {
                        Text::new(format!("{} is eliminated", name.en), format!("{}被消灭", name.zh))
                    },
                    here.map(|at| Mark::Eliminated { unit: id, at }),
                ));
                g.pos.units[ci].loc = if data.pieces[ci].not_replaceable || oos {
                    Location::Removed
                } else {
                    Location::Eliminated
                };
                g.pos.units[ci].full = true;
            }
            Fate::Removed => {
                lines.push((
                    Text::new(
                        format!("{} is eliminated and out of the game (12.4.4)", name.en),
                        format!("{}被消灭并移出游戏(12.4.4)", name.zh),
                    ),
                    here.map(|at| Mark::Eliminated { unit: id, at }),
                ));
                g.pos.units[ci].loc = Location::Removed;
            }
        }
    }
    // Army slots whose replacement corps came on: the army counter itself leaves (done above
    // through its Replaced fate).
    if t.losses.fort_destroyed() {
        g.pos.spaces[defending.idx()].fort = Fort::Destroyed;
        let n = g.name(defending);
        lines.push((
            Text::new(
                format!("The fort of {} is destroyed (12.4.6)", n.en),
                format!("{}要塞被摧毁(12.4.6)", n.zh),
            ),
            Some(Mark::StepLost {
                unit: None,
                at: space_id(data, defending),
            }),
        ));
        // 15.1.8: with no defender left the space passes to the attacker's side.
        if units_of(g, other(attacker), defending).is_empty() && !units_of(g, attacker, defending).is_empty() {
            enter(g, attacker, defending);
        }
    }
    let taken = t.losses.taken();
    g.journal.say(|| {
        Text::new(
            format!("{} takes {taken} loss(es) (12.4)", side_en(side)),
            format!("{}承受{taken}点损失(12.4)", side_zh(side)),
        )
    });
    for (text, mark) in lines {
        g.journal.say_marked(|| text, || mark);
    }
}

/// 12.2.10–12.2.12: the winner; a defender beaten by an attacker with a full-strength unit left
/// retreats (12.5.1); the attacker may advance into a space left empty.
fn outcome(g: &mut PathsOfGlory) {
    let Some(b) = g.action.battle.clone() else {
        return;
    };
    let by_attacker = b.inflicted[side_index(b.attacker)].unwrap_or(0);
    let by_defender = b.inflicted[side_index(other(b.attacker))].unwrap_or(0);
    let w = combat::winner(by_attacker, by_defender);
    settle_combat_cards(g, w);
    let no_retreat = crate::combat_cards::effects(&b).no_retreat;
    let (we, wz) = match w {
        combat::Winner::Attacker => ("the attacker wins", "进攻方获胜"),
        combat::Winner::Defender => ("the defender wins", "防守方获胜"),
        combat::Winner::Neither => ("both sides lose", "双方皆负"),
    };
    g.journal.say(|| {
        Text::new(
            format!("Loss numbers {by_attacker} to {by_defender}: {we} (12.2.10)"),
            format!("损失数{by_attacker}比{by_defender}:{wz}(12.2.10)"),
        )
    });
    let defender = other(b.attacker);
    let withdrawal = crate::combat_cards::effects(&b).withdrawal;
    if withdrawal {
        give_back_a_step(g, &b);
    }
    let left = units_of(g, defender, b.defending);
    // 2022 12.6.4, 12.6.5: after Withdrawal the defenders fall back one space whoever won, and
    // nothing cancels it.
    if withdrawal && !left.is_empty() {
        g.journal.say(|| {
            Text::new(
                "Withdrawal: the defenders fall back one space (2022 12.6.4)",
                "撤退:防守部队后撤一格(2022年版12.6.4)",
            )
        });
        if let Some(bb) = &mut g.action.battle {
            bb.retreat = Some(1);
        }
        g.engine.push(Frame::RetreatUnits { side: defender });
        return;
    }
    let full_attacker = combatants(g, &b, b.attacker)
        .iter()
        .any(|&u| g.pos.units[u as usize].full);
    if let Some(bb) = &mut g.action.battle {
        bb.defenders_gone = !b.defenders.is_empty() && left.is_empty();
    }
    // They Shall Not Pass (AP #39), Backs to the Wall (AP #63): no retreat for losing.
    if w == combat::Winner::Attacker && full_attacker && no_retreat && !left.is_empty() {
        g.journal.say(|| {
            Text::new(
                "A combat card cancels the defenders' retreat (2022 12.2.11)",
                "战斗卡取消了防守方的撤退(2022年版12.2.11)",
            )
        });
    }
    if w != combat::Winner::Attacker || !full_attacker || (no_retreat && !left.is_empty()) {
        // Seed 12.6.1: the attacker may advance whenever the defenders are all eliminated (or a
        // fort attacked alone was destroyed, 2022 12.7.1), whoever won.
        let emptied = (!b.defenders.is_empty() && left.is_empty()) || (b.defenders.is_empty() && b.fort_destroyed);
        if emptied {
            after_retreat(g);
        } else {
            end_battle(g);
        }
        return;
    }
    if !left.is_empty() {
        let length = combat::retreat_length(by_attacker, by_defender);
        if let Some(bb) = &mut g.action.battle {
            bb.retreat = length;
        }
        g.engine.push(Frame::RetreatUnits { side: defender });
        return;
    }
    after_retreat(g);
}

/// Withdrawal (AP #6, CP #56; 2022 12.6.3, 12.6.6, 12.6.8): one step the defending units lost
/// is given back: a corps step if a corps lost one (a corps eliminated comes back reduced in the
/// space), else the step of an army reduced in the combat. An army eliminated is not given back
/// (12.6.8 read as: an army that left the map stays gone).
fn give_back_a_step(g: &mut PathsOfGlory, b: &Battle) {
    let data = g.data();
    let lost = |g: &PathsOfGlory, u: u16, was_full: bool| -> Option<bool> {
        let now = g.pos.units[u as usize];
        match now.loc {
            Location::Map(s) if s == b.defending => (was_full && !now.full).then_some(true),
            Location::Eliminated | Location::Removed => Some(false),
            _ => None,
        }
    };
    let pick = |kind: Kind, g: &PathsOfGlory| {
        b.defenders.iter().zip(&b.defenders_full).find_map(|(&u, &was_full)| {
            (data.pieces[u as usize].kind == kind)
                .then(|| lost(g, u, was_full).map(|on_map| (u, on_map)))
                .flatten()
        })
    };
    let (u, on_map) = match pick(Kind::Corps, g) {
        Some(x) => x,
        None => match pick(Kind::Army, g) {
            Some((u, true)) => (u, true),
            _ => return,
        },
    };
    let unit = &mut g.pos.units[u as usize];
    if on_map {
        unit.full = true;
    } else {
        unit.loc = Location::Map(b.defending);
        unit.full = false;
    }
    let (n, data) = (g.unit_name(u), g.data());
    g.journal.say_marked(
        || {
            Text::new(
                format!("Withdrawal gives back a step of {} (2022 12.6.3)", n.en),
                format!("撤退卡退还{}的一步损失(2022年版12.6.3)", n.zh),
            )
        },
        || {
            (!on_map).then(|| Mark::Arrived {
                unit: unit_id(data, u),
                at: space_id(data, b.defending),
            })
        },
    );
}

fn after_retreat(g: &mut PathsOfGlory) {
    let Some(b) = g.action.battle.clone() else {
        return;
    };
    let can = b.attackers.iter().any(|&u| !advance_routes(g, &b, u).is_empty());
    if can {
        g.engine.push(Frame::AdvanceUnits { side: b.attacker });
    } else {
        end_battle(g);
    }
}

fn end_battle(g: &mut PathsOfGlory) {
    // Peace Offensive (CP #51): a VP to the Allies unless an attacker advanced into the space.
    if let Some(b) = g.action.battle.take() {
        if crate::combat_cards::effects(&b).peace_offensive
            && !b.attackers.iter().any(|&u| g.at(u as usize) == Some(b.defending))
        {
            g.pos.vp -= 1;
            g.journal.say(|| {
                Text::new(
                    "No attacker advanced into the space: 1 VP to the Allies (CP #51)",
                    "没有进攻部队推进入该区域:协约方得1胜利点(同盟#51)",
                )
            });
        }
    }
}

/// Eliminates a unit that cannot retreat (12.5.4): a corps to the Eliminated box, or out of the
/// game when it is never replaced; an army out of the game.
fn eliminate(g: &mut PathsOfGlory, u: u16) {
    let i = u as usize;
    // 12.4.7(1) (2022): an army that cannot retreat leaves the game.
    g.pos.units[i].loc = if g.data().pieces[i].not_replaceable || g.data().pieces[i].kind == Kind::Army {
        Location::Removed
    } else {
        Location::Eliminated
    };
    g.pos.units[i].full = true;
}

pub(crate) fn describe_loss(g: &PathsOfGlory, t: LossTarget) -> Text {
    match t {
        LossTarget::Unit(u) => {
            let n = g.unit_name(u);
            Text::new(format!("{} takes a step", n.en), format!("{}承受一步损失", n.zh))
        }
        LossTarget::Stand(i) => {
            // 12.4.4: a corps of the Reserve Box in the place of an eliminated army, named by
            // that army; 12.4.4.2: the corps counted for an army that had none.
            let army = g.action.battle.as_ref().and_then(|b| b.losses.as_ref()).and_then(|l| {
                let (army, _) = l.losses.units().get(i as usize)?.replaces?;
                l.counters.get(army).copied().flatten()
            });
            match army {
                Some(a) => {
                    let n = g.unit_name(a);
                    Text::new(
                        format!("The corps from the Reserve Box in place of the {} takes a step", n.en),
                        format!("替代{}的预备军承受一步损失", n.zh),
                    )
                }
                None => Text::new(
                    "The corps counted for an army with none to replace it takes a step (12.4.4.2)",
                    "为无军可替的集团军计算的军承受一步损失(12.4.4.2)",
                ),
            }
        }
        LossTarget::Fort => Text::new("The fort takes the loss", "要塞承受损失"),
    }
}

/// A counter's id, for the log's marks.
pub(crate) fn unit_id(data: &crate::data::Data, u: u16) -> String {
    data.pieces
        .get(u as usize)
        .map_or_else(|| format!("#{u}"), |p| p.id.clone())
}

/// A space's id, for the log's marks.
pub(crate) fn space_id(data: &crate::data::Data, s: Space) -> String {
    if s.idx() < data.map.graph.len() {
        data.map.graph.space(s).id.clone()
    } else {
        format!("#{}", s.0)
    }
}

/// 12.5.3: whether the defenders may cancel their retreat with one more step: they stand in a
/// trench (a level-1 one by Turk Determination included, not one a card negated) or in ground
/// the Terrain Effects Chart allows, none of them has retreated yet, and the retreat follows a
/// lost combat (not Withdrawal's, 2022 12.6.4, nor Great Retreat's fall-back before the fire).
fn may_stand_fast(g: &PathsOfGlory, b: &Battle) -> bool {
    let cards = crate::combat_cards::effects(b);
    // Great Retreat's fall-back (AP #27) comes before any fire: it is the defender's own choice.
    let fought = b.inflicted[side_index(b.attacker)].is_some();
    if !fought || !b.retreat_routes.is_empty() || !b.cut_short.is_empty() || cards.withdrawal {
        return false;
    }
    let tables = g.tables();
    let trench = if cards.trench_negated {
        None
    } else {
        g.pos
            .space(b.defending)
            .trench
            .and_then(|t| tables.trench(t.level))
            .or_else(|| cards.trench_level1.then(|| tables.trench(1)).flatten())
    };
    tables.terrain_of(g.data(), b.defending).cancel_retreat || trench.is_some_and(|t| t.cancel_retreat)
}

/// 12.5.3 (2022: the step may not be the last remaining one): whether the extra step may fall on
/// `u` with a defender left standing: a full-strength unit is reduced; a reduced unit is
/// eliminated while other defenders stay, or, a reduced army, while a corps from the Reserve Box
/// comes in its place (12.4.4).
fn stand_fast_step(g: &PathsOfGlory, b: &Battle, u: u16) -> bool {
    let i = u as usize;
    if g.pos.units[i].full || units_of(g, other(b.attacker), b.defending).len() > 1 {
        return true;
    }
    g.data().pieces[i].kind == Kind::Army && stand_in_corps(g, u).is_some()
}

/// 2022 15.2.5 (the Terrain Effects Chart's desert row): in a Summer turn no combat goes into or
/// out of a desert space.
fn summer_desert(g: &PathsOfGlory, s: Space) -> bool {
    summer_turn(g) && g.tables().terrain_of(g.data(), s).summer_no_combat
}

/// 2022 15.2.5: whether this is a Summer turn.
fn summer_turn(g: &PathsOfGlory) -> bool {
    g.tables()
        .turn(g.pos.turn)
        .is_some_and(|t| t.season == crate::tables::Season::Summer)
}

/// 12.1.10: units attacking from London with no friendly unit attacking from a space of Belgium
/// or France in the same combat.
/// 12.1.9, 12.1.9.1 (2022 12.1.11): attackers of more than one nationality (2022 12.1.11.2:
/// ANA, AUS, CND and PT count as British, SN as Turkish, MN as Serbian) attack together only
/// when one of their spaces holds attackers of every nationality taking part; the other spaces
/// add units of those nationalities.
fn multinational_together(g: &PathsOfGlory, attackers: &[u16]) -> bool {
    let data = g.data();
    let nation = |u: u16| data.pieces[u as usize].activation_nation();
    let mut nations: Vec<Nation> = attackers.iter().map(|&u| nation(u)).collect();
    nations.sort();
    nations.dedup();
    if nations.len() <= 1 {
        return true;
    }
    attackers.iter().filter_map(|&u| g.at(u as usize)).any(|s| {
        nations
            .iter()
            .all(|&n| attackers.iter().any(|&u| g.at(u as usize) == Some(s) && nation(u) == n))
    })
}

fn london_alone(g: &PathsOfGlory, b: &Battle) -> bool {
    let data = g.data();
    let london = data.space("london");
    let from: Vec<Space> = b.attackers.iter().filter_map(|&u| g.at(u as usize)).collect();
    london.is_some_and(|l| from.contains(&l))
        && !from
            .iter()
            .any(|&s| matches!(data.facts(s).nation.as_deref(), Some("be" | "fr")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::Game;

    /// 9.2.3: at every Activation decision of random campaigns, the cost of each activation
    /// listed, as the list kept it for carrying it out, is the cost asked of afresh.
    #[test]
    fn the_kept_costs_of_the_activations_listed_are_those_asked_afresh() {
        let mut asked = 0u64;
        for seed in 0..8 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 3_000, |g: &PathsOfGlory| {
                let Some(Frame::Activation { side, .. }) = g.engine.top().cloned() else {
                    return;
                };
                for a in g.legal_list().iter() {
                    if let &Action::Activate { space, combat } = a {
                        let kept = kept_activation_cost(g, side, space, combat);
                        assert_eq!(kept, Some(activation_cost(g, side, space, combat)), "{a:?}");
                        asked += 1;
                    }
                }
            })
            .expect("random play");
        }
        assert!(asked > 1_000, "{asked}");
    }

    /// 11.1, 12.2.2, 12.5: at every decision of random campaigns whose frame's candidates are
    /// listed exactly (a move, the attackers joining, a retreat), they are the candidates the
    /// check keeps, one by one.
    #[test]
    fn the_exact_candidates_are_those_the_check_keeps_at_every_decision() {
        let mut seen = [0u64; 3];
        for seed in 0..24 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 3_000, |g: &PathsOfGlory| {
                let Some(frame) = g.engine.top().cloned().filter(exact) else {
                    return;
                };
                let _trust = g.kept.trust(g.data(), &g.pos);
                let mut listed = Vec::new();
                candidates(g, &frame, &mut listed);
                // Every action of the kind the frame takes that might be legal, kept by the check.
                let mut kept = Vec::new();
                match (&frame, &g.action.battle) {
                    (&Frame::Designate { side }, Some(b)) => {
                        for from in activated(g, true) {
                            if from == b.defending || g.data().map.graph.adjacent(from, b.defending) {
                                kept.extend(units_of(g, side, from).into_iter().map(|unit| Action::Join { unit }));
                            }
                        }
                        kept.push(Action::Resolve);
                    }
                    (&Frame::RetreatUnits { side }, Some(b)) => {
                        for u in units_of(g, side, b.defending) {
                            kept.push(Action::StandFast { unit: u });
                        }
                        for u in units_of(g, side, b.defending) {
                            for route in retreat_routes(g, b, u) {
                                kept.push(Action::Retreat { unit: u, route });
                            }
                        }
                    }
                    _ => kept.clone_from(&listed),
                }
                kept.retain(|a| check(g, &frame, a).is_ok());
                assert_eq!(listed, kept, "{frame:?}");
                seen[match frame {
                    Frame::Movement { .. } => 0,
                    Frame::Designate { .. } => 1,
                    _ => 2,
                }] += 1;
            })
            .expect("random play");
        }
        assert!(seen[0] > 100 && seen[1] > 50 && seen[2] > 10, "{seen:?}");
    }

    /// 11.1: at every Movement decision of random campaigns, the moves listed with the
    /// searches kept from the lists before are those listed afresh (a copy of the game keeps
    /// nothing); and many lists find the kept searches still true.
    #[test]
    fn the_moves_listed_with_kept_searches_are_those_listed_afresh_at_every_decision() {
        let (mut lists, mut held) = (0u64, 0u64);
        for seed in 0..24 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 3_000, |g: &PathsOfGlory| {
                let Some(frame @ Frame::Movement { side }) = g.engine.top().cloned() else {
                    return;
                };
                let marked = activated(g, true);
                if g.kept.operations().moves.hold(g, side, &movement_context(g, &marked)) {
                    held += 1;
                }
                let mut listed = Vec::new();
                {
                    let _trust = g.kept.trust(g.data(), &g.pos);
                    candidates(g, &frame, &mut listed);
                }
                let fresh = g.clone();
                let mut afresh = Vec::new();
                {
                    let _trust = fresh.kept.trust(fresh.data(), &fresh.pos);
                    candidates(&fresh, &frame, &mut afresh);
                }
                assert_eq!(listed, afresh, "{frame:?}");
                lists += 1;
            })
            .expect("random play");
        }
        assert!(lists > 200 && held > 50, "{lists} {held}");
    }

    /// 11.1.2: at every Movement decision of random campaigns, the route of each move listed,
    /// told from the search its list kept (some kept from lists before), is the route searched
    /// afresh; and a list made at an earlier state tells no route.
    #[test]
    fn the_routes_kept_by_the_list_are_those_searched_afresh_at_every_decision() {
        let (mut routes, mut held, mut stale) = (0u64, 0u64, 0u64);
        for seed in 0..24 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            let mut before: Vec<Action> = Vec::new();
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 3_000, |g: &PathsOfGlory| {
                let Some(frame @ Frame::Movement { side }) = g.engine.top().cloned() else {
                    return;
                };
                let marked = activated(g, true);
                let ctx = movement_context(g, &marked);
                for a in &before {
                    let Action::Move { from, units, to } = a else { continue };
                    assert_eq!(
                        g.kept.operations().moves.route(g, side, *from, units, *to),
                        None,
                        "{a:?}"
                    );
                    stale += 1;
                }
                if g.kept.operations().moves.hold(g, side, &ctx) {
                    held += 1;
                }
                let mut listed = Vec::new();
                {
                    let _trust = g.kept.trust(g.data(), &g.pos);
                    candidates(g, &frame, &mut listed);
                }
                for a in &listed {
                    let Action::Move { from, units, to } = a else { continue };
                    let kept = g.kept.operations().moves.route(g, side, *from, units, *to);
                    let idx: Vec<usize> = units.iter().map(|&u| u as usize).collect();
                    let fresh = movement::route(g.data(), &g.pos, &idx, *from, *to, &ctx);
                    assert!(fresh.is_some(), "{a:?}");
                    assert_eq!(kept, fresh, "{a:?}");
                    routes += 1;
                }
                before = listed;
            })
            .expect("random play");
        }
        assert!(
            routes > 10_000 && held > 50 && stale > 10_000,
            "{routes} {held} {stale}"
        );
    }

    /// 12.1.3: at every decision of random campaigns, whether each space holds something of
    /// each side to attack, read where the units lie, is what its units listed say.
    #[test]
    fn what_may_be_attacked_is_what_the_units_listed_say_at_every_decision() {
        let mut asked = 0u64;
        for seed in 0..4 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 3_000, |g: &PathsOfGlory| {
                let _trust = g.kept.trust(g.data(), &g.pos);
                for s in g.data().map.graph.space_indices() {
                    for side in [Side::Cp, Side::Ap] {
                        let units = units_of(g, side, s);
                        let listed = (!units.is_empty() && !all_neutral(g, &units))
                            || (g.pos.space(s).fort != Fort::None
                                && g.pos.space(s).fort != Fort::Destroyed
                                && g.pos.space(s).control == Some(side)
                                && g.data().facts(s).fort > 0);
                        assert_eq!(defensible(g, side, s), listed, "{side:?} {s:?}");
                        asked += 1;
                    }
                }
            })
            .expect("random play");
        }
        assert!(asked > 100_000, "{asked}");
    }

    /// 9.2: at every Activation decision of random campaigns, the game's own legal list (what
    /// is kept of the spaces from the card's decision before, when one was) is the candidates
    /// the check keeps, one by one; and most decisions after an activation use what was kept.
    #[test]
    fn the_activations_kept_between_one_cards_decisions_are_those_the_check_keeps() {
        let (mut lists, mut following) = (0u64, 0u64);
        for seed in 0..4 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            let mut before: Option<(u64, usize)> = None;
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 2_000, |g: &PathsOfGlory| {
                let Some(frame @ Frame::Activation { .. }) = g.engine.top().cloned() else {
                    before = None;
                    return;
                };
                let (version, activated) = (g.engine.version(), g.action.activated.len());
                if before.is_some_and(|(v, a)| v + 1 == version && a + 1 == activated) {
                    following += 1;
                }
                before = Some((version, activated));
                let listed = g.legal_list();
                let mut fresh = Vec::new();
                {
                    let _trust = g.kept.trust(g.data(), &g.pos);
                    candidates(g, &frame, &mut fresh);
                    fresh.retain(|a| check(g, &frame, a).is_ok());
                }
                assert_eq!(*listed, fresh, "{frame:?}");
                lists += 1;
            })
            .expect("random play");
        }
        assert!(lists > 200 && following > 60, "{lists} {following}");
    }

    /// 9.2.3, 16.4.5: at every decision of random campaigns, each space's costs for movement
    /// and for combat are those of its units priced for each purpose apart, before and after
    /// the Fall of the Tsar (CP #52).
    #[test]
    fn the_costs_of_both_purposes_are_those_priced_apart_at_every_decision() {
        let (mut asked, mut apart) = (0u64, 0u64);
        for seed in 0..3 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 1_000, |g: &PathsOfGlory| {
                let mut fell = g.clone();
                if !crate::events::tsar_fell(&fell) {
                    fell.pos.cards[side_index(Side::Cp)].removed.push(52);
                }
                for g in [g, &fell] {
                    let data = g.data();
                    for side in [Side::Cp, Side::Ap] {
                        for s in data.map.graph.space_indices() {
                            let here = units_of(g, side, s);
                            if here.is_empty() {
                                continue;
                            }
                            let pieces: Vec<&crate::data::Piece> =
                                here.iter().map(|&u| &data.pieces[u as usize]).collect();
                            let (joined, per_unit) = crate::events::activation_terms(g, side, s);
                            let w = activation::Where {
                                space: &data.map.graph.space(s).id,
                                country: data.facts(s).nation.as_deref(),
                                tsar_fell: crate::events::tsar_fell(g),
                                joined: &joined,
                                mef_beachhead_supply: mef_beachhead_supply(g, side, s),
                            };
                            let priced = if per_unit {
                                (here.len() as u8, here.len() as u8)
                            } else {
                                (
                                    activation::cost(&pieces, Purpose::Move, &w),
                                    activation::cost(&pieces, Purpose::Combat, &w),
                                )
                            };
                            assert_eq!(activation_costs(g, side, s), priced, "{side:?} {s:?}");
                            asked += 1;
                            apart += u64::from(priced.0 != priced.1);
                        }
                    }
                }
            })
            .expect("random play");
        }
        assert!(asked > 100_000 && apart > 1_000, "{asked} {apart}");
    }

    /// 11.1, 10.1.1: at every Movement decision of random campaigns, the moves listed are those
    /// of every stack of free units searched afresh to each space it may end in, the units
    /// already there counted one by one within the stacking limit.
    #[test]
    fn the_moves_listed_are_those_searched_afresh_within_the_stacking_limit() {
        let (mut lists, mut moves) = (0u64, 0u64);
        for seed in 0..8 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 3_000, |g: &PathsOfGlory| {
                let Some(frame @ Frame::Movement { side }) = g.engine.top().cloned() else {
                    return;
                };
                let mut listed = Vec::new();
                {
                    let _trust = g.kept.trust(g.data(), &g.pos);
                    candidates(g, &frame, &mut listed);
                }
                listed.retain(|a| matches!(a, Action::Move { .. }));
                let marked = activated(g, true);
                let ctx = movement_context(g, &marked);
                let mut afresh = Vec::new();
                for from in activated(g, false) {
                    let free: Vec<u16> = units_of(g, side, from)
                        .into_iter()
                        .filter(|u| !g.action.moved.contains(u) && supplied(g, *u))
                        .collect();
                    for mask in 1u32..(1 << free.len()) {
                        let units: Vec<u16> = (0..free.len())
                            .filter(|k| mask & (1 << k) != 0)
                            .map(|k| free[k])
                            .collect();
                        if breaks_siege(g, side, from, &units) {
                            continue;
                        }
                        let idx: Vec<usize> = units.iter().map(|&u| u as usize).collect();
                        for (to, _) in movement::destinations(g.data(), &g.pos, &idx, from, &ctx) {
                            if units_of(g, side, to).len() + units.len() <= STACKING {
                                afresh.push(Action::Move {
                                    from,
                                    units: units.clone(),
                                    to,
                                });
                            }
                        }
                    }
                }
                assert_eq!(listed, afresh, "{frame:?}");
                lists += 1;
                moves += listed.len() as u64;
            })
            .expect("random play");
        }
        assert!(lists > 200 && moves > 10_000, "{lists} {moves}");
    }

    /// Lloyd George (CP #55), Stavka Timidity (CP #58): at every decision of random campaigns,
    /// on the turn as it is and with each event in force, whether an attack of each unit on the
    /// map on its own and each adjacent space is barred is what the events say.
    #[test]
    fn the_attacks_barred_are_those_the_events_bar_at_every_decision() {
        let (mut asked, mut barred) = (0u64, [0u64; 2]);
        for seed in 0..4 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 1_500, |g: &PathsOfGlory| {
                let (mut lloyd, mut stavka) = (g.clone(), g.clone());
                lloyd.turn.lloyd_george = true;
                stavka.turn.stavka_timidity = true;
                // Level-2 trenches everywhere, for the bars to meet.
                for g in [&mut lloyd, &mut stavka] {
                    for st in &mut g.pos.spaces {
                        st.trench = Some(crate::state::Trench {
                            side: Side::Cp,
                            level: 2,
                        });
                    }
                }
                for g in [g, &lloyd, &stavka] {
                    let data = g.data();
                    for u in 0..data.pieces.len() as u16 {
                        let Some(at) = g.at(u as usize) else { continue };
                        let spaces = std::iter::once(at).chain(data.map.graph.exits(at).iter().map(|&(_, n)| n));
                        for s in spaces {
                            let kept = attack_barred(g, u, s).map(|r| r.rule);
                            let events = crate::events::attack_barred(g, u, s).map(|r| r.rule);
                            assert_eq!(kept, events, "{u} {s:?}");
                            asked += 1;
                            match kept.as_deref() {
                                Some("CP #55") => barred[0] += 1,
                                Some(_) => barred[1] += 1,
                                None => {}
                            }
                        }
                    }
                }
            })
            .expect("random play");
        }
        assert!(asked > 100_000 && barred.iter().all(|&n| n > 100), "{asked} {barred:?}");
    }

    /// 12.1.3: at every decision of random games of each data edition, whether each space holds
    /// something of each side to attack, told from who stands where, is what its units say.
    #[test]
    fn what_may_be_attacked_told_from_who_stands_where_is_what_the_units_say_at_every_decision() {
        let mut asked = 0u64;
        for seed in 0..2 {
            for edition in [6, 7] {
                let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
                g.scenario.edition = edition;
                let mut rng = sandtable_core::chance::Rng::from_seed(seed);
                sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 1_000, |g: &PathsOfGlory| {
                    let _trust = g.kept.trust(g.data(), &g.pos);
                    let occ = g.kept.occupancy(g.data(), &g.pos);
                    for s in g.data().map.graph.space_indices() {
                        for side in [Side::Cp, Side::Ap] {
                            assert_eq!(
                                defensible_in(g, &occ, side, s),
                                defensible(g, side, s),
                                "{side:?} {s:?}"
                            );
                            asked += 1;
                        }
                    }
                })
                .expect("random play");
            }
        }
        assert!(asked > 100_000, "{asked}");
    }

    /// 15.2.4: at every decision of random campaigns, whether the siege of each fort's space
    /// holds is what its occupant's units there say.
    #[test]
    fn whether_a_siege_holds_is_what_the_occupants_units_say_at_every_decision() {
        let (mut asked, mut held) = (0u64, 0u64);
        for seed in 0..4 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 3_000, |g: &PathsOfGlory| {
                for s in g.data().map.graph.space_indices() {
                    let said = g.occupant(s).is_some_and(|side| {
                        g.pos.space(s).control != Some(side)
                            && crate::sieges::units_besiege(
                                g.data(),
                                units_of(g, side, s).iter().map(|&u| u as usize),
                                g.data().facts(s).fort,
                            )
                    });
                    assert_eq!(siege_holds(g, s), said, "{s:?}");
                    asked += 1;
                    held += u64::from(said);
                }
            })
            .expect("random play");
        }
        assert!(asked > 100_000 && held > 100, "{asked} {held}");
    }

    /// 12.4: at every TakeLosses decision of random campaigns, whether each step (each unit,
    /// one past them and the fort) may be taken, told from the steps the rules allow asked
    /// once, is what taking it says, the refusal word for word.
    #[test]
    fn the_steps_that_may_be_taken_are_those_taking_them_says_at_every_decision() {
        let (mut asked, mut taken) = (0u64, 0u64);
        for seed in 0..24 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 3_000, |g: &PathsOfGlory| {
                let Some(t) = g.action.battle.as_ref().and_then(|b| b.losses.as_ref()) else {
                    return;
                };
                let choices = t.losses.choices();
                let steps = (0..=t.losses.units().len())
                    .map(crate::losses::Target::Unit)
                    .chain([crate::losses::Target::Fort]);
                for step in steps {
                    let may = t.losses.may_take(step, &choices);
                    assert_eq!(may, t.losses.clone().take(step).map(|_| ()), "{step:?}");
                    asked += 1;
                    taken += u64::from(may.is_ok());
                }
            })
            .expect("random play");
        }
        assert!(asked > 500 && taken > 200, "{asked} {taken}");
    }

    /// 12.4.4, 12.4.4.3: at every decision of random campaigns, each army's replacement pool
    /// is the corps of its side in the Reserve Box of its own pool, in data order, asked of
    /// counter by counter.
    #[test]
    fn the_replacement_pools_are_the_corps_asked_of_one_by_one_at_every_decision() {
        let (mut asked, mut found) = (0u64, 0u64);
        for seed in 0..3 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 2_000, |g: &PathsOfGlory| {
                let data = g.data();
                for (army, p) in data.pieces.iter().enumerate() {
                    if p.kind != Kind::Army {
                        continue;
                    }
                    let key = pool_key(p);
                    let one_by_one: Vec<u16> = (0..data.pieces.len())
                        .filter(|&c| {
                            let q = &data.pieces[c];
                            q.kind == Kind::Corps
                                && q.side == p.side
                                && g.pos.units[c].loc == Location::Reserve
                                && !(g.scenario.edition >= 5 && never_replaces_an_army(&q.id))
                                && pool_key(q) == key
                                && (key == "bef" || !q.id.ends_with("-bef"))
                        })
                        .map(|c| c as u16)
                        .collect();
                    let pool = replacement_pool(g, army as u16);
                    assert_eq!(pool, one_by_one, "{}", p.id);
                    asked += 1;
                    found += pool.len() as u64;
                }
            })
            .expect("random play");
        }
        assert!(asked > 10_000 && found > 10_000, "{asked} {found}");
    }

    /// 9.2: at every decision of random campaigns, for each side and each number of OPS from 1
    /// to 5, the activations listed asking once a space for both purposes are the candidates
    /// the check keeps, one by one.
    #[test]
    fn the_activations_asked_once_a_space_are_those_the_check_keeps_at_every_decision() {
        let (mut lists, mut kept, mut refused) = (0u64, 0u64, 0u64);
        for seed in 0..3 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 300, |g: &PathsOfGlory| {
                let _trust = g.kept.trust(g.data(), &g.pos);
                for side in [Side::Cp, Side::Ap] {
                    for ops in 1..=5 {
                        let frame = Frame::Activation { side, ops };
                        let mut listed = Vec::new();
                        candidates(g, &frame, &mut listed);
                        let n = listed.len() as u64;
                        listed.retain(|a| check(g, &frame, a).is_ok());
                        let mut once = Vec::new();
                        activation_legal(g, &frame, &mut once);
                        assert_eq!(once, listed, "{side:?} {ops} OPS");
                        lists += 1;
                        kept += listed.len() as u64;
                        refused += n - listed.len() as u64;
                    }
                }
            })
            .expect("random play");
        }
        assert!(
            lists > 5_000 && kept > 100_000 && refused > 5_000,
            "{lists} {kept} {refused}"
        );
    }
}

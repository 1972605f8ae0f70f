//! 11.0 Movement: where a stack of units moving together may go from an activated space. Every
//! space costs 1 MP (11.1.2), a move follows the lines and may not use more MP than the slowest
//! unit's MF (11.1.3, 11.1.5); the rules that stop a step are checked at the step, with the
//! reason kept so a refused destination names what stopped the move: enemy units (11.1.7), an
//! enemy fort the stack cannot besiege (11.1.8, 15.1.1), neutral countries (11.1.11), dashed
//! lines and beaches (11.1.4, 11.1.10), the BEF's countries (11.1.17), the Near East (11.3);
//! a few rules forbid only ending a move somewhere (11.1.6, 11.1.9, 5.7.4.6).

use crate::data::{Data, Kind, Nation, Side};
use crate::state::{Fort, Location, Position};
use crate::supply::Occupancy;
use sandtable_core::game::Refusal;
use sandtable_core::graph::{Space, SpaceInfo};
use sandtable_core::search::{with_thread_space_search, Search, Step, Why};
use sandtable_core::text::Text;

/// What bears on a move beyond the position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    /// Spaces holding an Attack marker this round (11.1.6).
    pub attack_marked: &'a [Space],
    /// MEF beaches with the Beachhead marker (11.1.10).
    pub open_beaches: &'a [Space],
    /// 15.1.12 bars a German fort's space in August 1914 before its German units make it a
    /// space to attack (games begun on data edition 5 or later).
    pub german_fort_first: bool,
    /// 2022 15.2.4: units entering an enemy fort's space where their side's units already
    /// stand (a siege broken by losses) besiege it with them (games begun on data edition 6
    /// or later).
    pub sieges_resume: bool,
    /// Race to the Sea played or CP War Status 4 or more (11.1.9).
    pub channel_ports_open: bool,
    /// The turn (15.1.12: no Russian unit into a German fort space on turn 1).
    pub turn: u8,
    /// A Russian corps has already crossed between the Caucasus and the Near East this turn
    /// (11.3.2).
    pub caucasus_crossed: bool,
    /// The Fall of the Tsar has been played (11.3.2: no Russian move across then).
    pub tsar_fell: bool,
    /// The Historical scenario's 5.7.4.6 is in force (the Allies not yet at Total War).
    pub italy_restricted: bool,
    /// The Treaty of Brest-Litovsk has been played (16.4.9).
    pub brest_litovsk: bool,
}

/// Why a step was refused: the rule, in a code the search keeps.
mod why {
    use sandtable_core::search::Why;
    pub const ENEMY_UNITS: Why = Why(1);
    pub const FORT: Why = Why(2);
    pub const NEUTRAL: Why = Why(3);
    pub const LINE: Why = Why(4);
    pub const BEACH: Why = Why(5);
    pub const BEF: Why = Why(6);
    pub const NEAR_EAST: Why = Why(7);
    pub const CAUCASUS: Why = Why(8);
    pub const GERMAN_FORT_TURN_1: Why = Why(9);
    pub const ITALY: Why = Why(10);
    pub const BOX: Why = Why(11);
    pub const BREST_LITOVSK: Why = Why(12);
    pub const FORT_BROKEN_SIEGE: Why = Why(13);
}

/// The refusal for a step code, naming the space; `there`: the moving side's units already in it.
fn refusal(w: Why, info: &SpaceInfo, there: usize) -> Refusal {
    let (en_name, zh_name) = (&info.name_en, &info.name_zh);
    let (rule, en, zh) = match w {
        why::ENEMY_UNITS => ("11.1.7", format!("{en_name} holds enemy units"), format!("{zh_name}有敌军单位")),
        why::FORT => (
            "11.1.8",
            format!("{en_name} has an enemy fort these units cannot besiege (an army, or as many corps as its LF)"),
            format!("{zh_name}有敌方要塞,这些单位不能围城(须一个集团军或与要塞损失系数相同数量的军)"),
        ),
        why::FORT_BROKEN_SIEGE => (
            "15.2.4",
            format!("{en_name} has an enemy fort whose siege is broken: these units and the {there} already there are too few to besiege it again (an army, or as many corps as its LF)"),
            format!("{zh_name}有围城已被打破的敌方要塞:这些单位加上已在该处的{there}个单位仍不足以重新围城(须一个集团军或与要塞损失系数相同数量的军)"),
        ),
        why::NEUTRAL => ("11.1.11", format!("{en_name} is in a neutral country"), format!("{zh_name}属于中立国")),
        why::LINE => (
            "11.1.4",
            format!("the dashed line into {en_name} is closed to these units' nationality"),
            format!("通往{zh_name}的虚线不允许这些单位的国籍通过"),
        ),
        why::BEACH => (
            "11.1.10",
            format!("{en_name} is an MEF beach without the Beachhead marker"),
            format!("{zh_name}是没有登陆场标记的地中海远征军登陆区域"),
        ),
        why::BEF => (
            "11.1.17",
            format!("the BEF may not go to {en_name}, outside Britain, France, Belgium and Germany"),
            format!("英国远征军不能进入英国、法国、比利时和德国以外的{zh_name}"),
        ),
        why::NEAR_EAST => (
            "11.3.1",
            format!("{en_name} is in the Near East, where only the CAU, MEF, NE, Orient, YLD and AoI armies may go (not one that entered as an ordinary reinforcement, 9.5.3.4)"),
            format!("{zh_name}位于近东,只有高加索、地中海远征军、近东、东方、雷霆和伊拉克集团军可以进入(作为普通增援进场者除外,9.5.3.4)"),
        ),
        why::CAUCASUS => (
            "11.3.2",
            format!("no Russian army, and one Russian corps a turn (none after the Fall of the Tsar), moves between the Caucasus and {en_name}"),
            format!("俄国集团军不能在高加索与{zh_name}之间移动,每回合只有一个俄国军可以(沙皇倒台后不可)"),
        ),
        why::GERMAN_FORT_TURN_1 => (
            "15.1.12",
            format!("on turn 1 no Russian unit goes into {en_name}, a German fort"),
            format!("第1回合俄军不能进入德国要塞{zh_name}"),
        ),
        why::ITALY => (
            "5.7.4.6",
            format!("until the Allies reach Total War only Austro-Hungarian and Italian armies go into Italy ({en_name})"),
            format!("协约国达到全面战争之前,只有奥匈和意大利集团军可以进入意大利({zh_name})"),
        ),
        why::BREST_LITOVSK => (
            "16.4.9",
            format!("after Brest-Litovsk Russians stay in Russia, Germany, Turkey, Austria-Hungary and Romania, and Russians and the other Allies never share a space ({en_name})"),
            format!("《布列斯特-立陶夫斯克条约》后俄军只能留在俄国、德国、土耳其、奥匈和罗马尼亚,且俄军与其他协约国部队不得同处一格({zh_name})"),
        ),
        _ => ("11.1.3", format!("{en_name} is off the map's lines"), format!("{zh_name}不在地图连线上")),
    };
    Refusal::new(rule, Text::new(en, zh))
}

/// The countries the BEF may be in (2022 11.1.17; seed 11.1.15).
const BEF_COUNTRIES: [&str; 4] = ["br", "fr", "be", "ge"];

/// A stack moving together from one space.
struct Stack<'a> {
    data: &'a Data,
    units: &'a [usize],
    side: Side,
}

impl Stack<'_> {
    fn pieces(&self) -> impl Iterator<Item = &crate::data::Piece> + '_ {
        self.units.iter().map(|&i| &self.data.pieces[i])
    }

    /// 15.2.1: one army, or as many corps as the fort's LF.
    fn can_besiege(&self, fort_lf: u8) -> bool {
        crate::sieges::units_besiege(self.data, self.units.iter().copied(), fort_lf)
    }

    /// 15.2.1 in the fort's space `to`: with `with_those_there`, the stack's side's units
    /// already in it count too (2022 15.2.4 "The siege resumes only when friendly units entering
    /// the space bring the total back to the 15.2.1 requirement").
    fn can_besiege_in(&self, pos: &Position, to: Space, fort_lf: u8, with_those_there: bool) -> bool {
        if !with_those_there {
            return self.can_besiege(fort_lf);
        }
        crate::sieges::units_besiege(
            self.data,
            self.units.iter().copied().chain(self.own_units_in(pos, to)),
            fort_lf,
        )
    }

    /// The stack's side's units in `to`.
    fn own_units_in<'p>(&'p self, pos: &'p Position, to: Space) -> impl Iterator<Item = usize> + 'p {
        pos.units_in(to).filter(move |&u| self.data.pieces[u].side == self.side)
    }

    fn mf(&self, pos: &Position) -> u8 {
        self.units
            .iter()
            .map(|&i| {
                let p = &self.data.pieces[i];
                if pos.units[i].full {
                    p.full.mf
                } else {
                    p.reduced.mf
                }
            })
            .min()
            .unwrap_or(0)
    }
}

/// What every step of one stack's move asks, worked out once before the move is searched: the
/// stack's nationalities and kinds, the spaces some rules name, and, for a search, where enemy
/// units stand.
struct Walk<'a> {
    st: &'a Stack<'a>,
    /// 11.1.4: the dashed-line bits the stack's nationalities need (each a single bit of the
    /// legend), and whether a unit of a nationality with no line of its own is in it.
    line_need: u32,
    line_none: bool,
    /// 11.1.17: the BEF is in the stack.
    bef: bool,
    /// 11.3.1: a unit of the stack may not enter the Near East.
    near_east_barred: bool,
    /// 15.1.12, 11.3.2: a Russian unit is in the stack.
    russian: bool,
    /// 11.3.2: the stack may not cross between the Caucasus and Grozny or Poti: a Russian
    /// stack of an army, of more than one unit, or after a crossing this turn or the Fall of
    /// the Tsar.
    caucasus_barred: bool,
    caucasus: Option<Space>,
    /// Grozny and Poti, the spaces across from the Caucasus.
    across: [Option<Space>; 2],
    /// 5.7.4.6: an army of the stack other than Austro-Hungarian or Italian.
    italy_barred: bool,
    /// 11.1.7: where enemy units stand.
    enemy: Enemy<'a>,
}

/// Where a walk finds enemy units (11.1.7).
enum Enemy<'a> {
    /// Looked for in the position at each step.
    Look,
    /// For each space, whether enemy units stand in it, found at once for every step.
    Spaces(Vec<bool>),
    /// Who stands where, made once for a whole list of moves: the enemy is the other side.
    Occupancy(&'a Occupancy, Side),
}

impl<'a> Walk<'a> {
    /// The walk of `st`; with `search`, the enemy's spaces found at once for every step.
    fn new(st: &'a Stack<'a>, pos: &Position, ctx: &Context, search: bool) -> Walk<'a> {
        let data = st.data;
        let enemy = if search {
            let mut enemy = vec![false; data.map.graph.len()];
            for (u, p) in pos.units.iter().zip(&data.pieces) {
                if let Location::Map(s) = u.loc {
                    if p.side != st.side {
                        enemy[s.idx()] = true;
                    }
                }
            }
            Enemy::Spaces(enemy)
        } else {
            Enemy::Look
        };
        Walk::with_enemy(st, pos, ctx, enemy)
    }

    /// The walk of `st`, finding enemy units as `enemy` says.
    fn with_enemy(st: &'a Stack<'a>, pos: &Position, ctx: &Context, enemy: Enemy<'a>) -> Walk<'a> {
        let data = st.data;
        let russian = st.pieces().any(|p| p.nation == Nation::Ru);
        let caucasus_barred = russian
            && (ctx.tsar_fell
                || ctx.caucasus_crossed
                || st.units.len() > 1
                || st.pieces().any(|p| p.kind == Kind::Army));
        Walk {
            st,
            line_need: st.pieces().fold(0, |m, p| m | data.lines.for_nation(p.line_nation())),
            line_none: st.pieces().any(|p| data.lines.for_nation(p.line_nation()) == 0),
            bef: st.pieces().any(|p| p.id.ends_with("-bef")),
            near_east_barred: st.units.iter().any(|&i| !pos.may_enter_near_east(data, i)),
            russian,
            caucasus_barred,
            // 11.3.2: the crossing's spaces, looked up only for the Russians it bars (they are
            // read only then).
            caucasus: caucasus_barred.then(|| data.space("caucasus")).flatten(),
            across: if caucasus_barred {
                [data.space("grozny"), data.space("poti")]
            } else {
                [None, None]
            },
            italy_barred: st
                .pieces()
                .any(|p| p.kind == Kind::Army && !matches!(p.nation, Nation::Ah | Nation::It)),
            enemy,
        }
    }

    /// 11.1.4: whether a unit of the stack may not use a dashed line of `features` (each
    /// nationality's line a single bit of the legend).
    fn line_barred(&self, data: &Data, features: u32) -> bool {
        features & data.lines.dashed() != 0 && (self.line_none || self.line_need & !features != 0)
    }

    /// Whether units of the stack's side already stand in `to` (2022 15.2.4), from who stands
    /// where when the walk has it.
    fn own_in(&self, pos: &Position, to: Space) -> bool {
        match &self.enemy {
            Enemy::Occupancy(occ, side) => occ.has(*side, to),
            _ => self.st.own_units_in(pos, to).next().is_some(),
        }
    }

    /// Whether enemy units stand in `to` (11.1.7).
    fn enemy_in(&self, pos: &Position, to: Space) -> bool {
        match &self.enemy {
            Enemy::Spaces(enemy) => enemy[to.idx()],
            Enemy::Occupancy(occ, side) => occ.has(crate::game::other(*side), to),
            Enemy::Look => pos
                .units
                .iter()
                .zip(&self.st.data.pieces)
                .any(|(u, p)| u.loc == Location::Map(to) && p.side != self.st.side),
        }
    }
}

/// 11.1.10: whether a step along a connection of `features` into `to` (of facts `f`) lands
/// on an MEF beach. The beaches have no country (data.rs), so only such a space is looked for
/// among them.
fn beach(data: &Data, f: &crate::data::SpaceFacts, features: u32, to: Space) -> bool {
    features & data.lines.mef_beach != 0 || (f.nation.is_none() && data.map.space_set("mef-beaches").contains(&to))
}

/// The price of one step of the stack (the rules checked at the step).
fn step(w: &Walk, pos: &Position, ctx: &Context, from: Space, c: u16, to: Space) -> Step {
    let st = w.st;
    let data = st.data;
    let f = data.facts(to);
    let features = data.map.features(c);
    if f.is_box {
        return Step::Blocked(why::BOX);
    }
    if beach(data, f, features, to) {
        let open = ctx.open_beaches.contains(&to) || ctx.open_beaches.contains(&from);
        if !open {
            return Step::Blocked(why::BEACH);
        }
    } else if w.line_barred(data, features) {
        return Step::Blocked(why::LINE);
    }
    let st_to = pos.space(to);
    if st_to.control.is_none() {
        return Step::Blocked(why::NEUTRAL);
    }
    let country = f.nation.as_deref();
    if w.bef && !country.is_some_and(|n| BEF_COUNTRIES.contains(&n)) {
        return Step::Blocked(why::BEF);
    }
    if f.near_east && w.near_east_barred {
        return Step::Blocked(why::NEAR_EAST);
    }
    if w.caucasus_barred && caucasus_crossing(w.caucasus, w.across, from, to) {
        return Step::Blocked(why::CAUCASUS);
    }
    if ctx.italy_restricted && w.italy_barred && country == Some("it") {
        return Step::Blocked(why::ITALY);
    }
    if ctx.brest_litovsk && brest_litovsk_bars(st, pos, country, to) {
        return Step::Blocked(why::BREST_LITOVSK);
    }
    // 15.1.12: not into, nor against, a German fort's space in August 1914, whoever stands in
    // it; so before the enemy units that would make it a space to attack (data edition 5).
    let german_fort_turn_1 =
        ctx.turn == 1 && w.russian && f.fort > 0 && f.faction != st.side && f.nation.as_deref() == Some("ge");
    if german_fort_turn_1 && ctx.german_fort_first {
        return Step::Blocked(why::GERMAN_FORT_TURN_1);
    }
    if w.enemy_in(pos, to) {
        return Step::Blocked(why::ENEMY_UNITS);
    }
    if f.fort > 0 && f.faction != st.side {
        if german_fort_turn_1 {
            return Step::Blocked(why::GERMAN_FORT_TURN_1);
        }
        // 2022 15.2.4: the side's units already there, asked of only where the siege may
        // resume (with none there, the stack besieges alone).
        let own_there = ctx.sieges_resume && st_to.fort == Fort::Intact && w.own_in(pos, to);
        match st_to.fort {
            Fort::Intact if st.can_besiege_in(pos, to, f.fort, own_there) => return Step::Stop(1),
            // 2022 15.2.4: the siege resumes only when the units entering bring those there to
            // the 15.2.1 measure.
            Fort::Intact if own_there => return Step::Blocked(why::FORT_BROKEN_SIEGE),
            Fort::Intact => return Step::Blocked(why::FORT),
            _ => {}
        }
    }
    Step::Go(1)
}

/// 16.4.9: after Brest-Litovsk Russians go only into Russia, Germany, Turkey, Austria-Hungary
/// and Romania, and neither Russians nor other Allied units pass through or stop in a space the
/// other holds.
fn brest_litovsk_bars(st: &Stack, pos: &Position, country: Option<&str>, to: Space) -> bool {
    let russian = |p: &crate::data::Piece| p.side == Side::Ap && p.nation == Nation::Ru;
    let (ru_moving, others_moving) = (
        st.pieces().any(russian),
        st.pieces().any(|p| p.side == Side::Ap && !russian(p)),
    );
    let there = pos.units_in(to).map(|u| &st.data.pieces[u]);
    let (ru_there, others_there) = there.fold((false, false), |(r, o), p| {
        (r || russian(p), o || (p.side == Side::Ap && !russian(p)))
    });
    (ru_moving && (others_there || !matches!(country, Some("ru" | "ge" | "tu" | "ah" | "ro"))))
        || (others_moving && ru_there)
}

/// Why a stack may not end its move in a space it can reach, if it may not (11.1.6, 11.1.9,
/// 5.7.4.6).
fn may_end(st: &Stack, ctx: &Context, at: Space) -> Result<(), Refusal> {
    let Some(rule) = end_barred(st, ctx, at) else {
        return Ok(());
    };
    let info = st.data.map.graph.space(at);
    let (en, zh) = (&info.name_en, &info.name_zh);
    let (rule, text) = match rule {
        EndBar::AttackMarked => (
            "11.1.6",
            Text::new(
                format!("a move may pass through {en}, which holds an Attack marker, but not end there"),
                format!("移动可以经过有攻击标记的{zh},但不能停在那里"),
            ),
        ),
        EndBar::ChannelPorts => (
            "11.1.9",
            Text::new(
                format!("until Race to the Sea or CP War Status 4, CP units may pass through {en} but not end there"),
                format!("在“奔向大海”打出或同盟国战争状态达到4之前,同盟国单位可以经过{zh}但不能停在那里"),
            ),
        ),
        EndBar::Italy => (
            "5.7.4.6",
            Text::new(
                format!("until the Allies reach Total War no German army ends a move in {en}"),
                format!("协约国达到全面战争之前,德国集团军不能停在{zh}"),
            ),
        ),
    };
    Err(Refusal::new(rule, text))
}

/// The rule that bars a stack from ending its move in a space ([`may_end`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum EndBar {
    /// 11.1.6.
    AttackMarked,
    /// 11.1.9.
    ChannelPorts,
    /// 5.7.4.6.
    Italy,
}

/// Which rule, if any, bars the stack from ending its move in `at`: [`may_end`] without its
/// words, for the lists that only keep the spaces allowed.
fn end_barred(st: &Stack, ctx: &Context, at: Space) -> Option<EndBar> {
    if ctx.attack_marked.contains(&at) {
        return Some(EndBar::AttackMarked);
    }
    let id = || st.data.map.graph.space(at).id.as_str();
    if st.side == Side::Cp && !ctx.channel_ports_open && ["amiens", "calais", "ostend"].contains(&id()) {
        return Some(EndBar::ChannelPorts);
    }
    if ctx.italy_restricted
        && ["trent", "villach", "trieste"].contains(&id())
        && st.pieces().any(|p| p.kind == Kind::Army && p.nation == Nation::Ge)
    {
        return Some(EndBar::Italy);
    }
    None
}

/// The stack of `units` in `from`, or why these units cannot move together: none, a counter that
/// does not exist, one named twice, units of both sides, or units not all in `from` (11.1.1).
fn stack_of<'a>(data: &'a Data, pos: &Position, units: &'a [usize], from: Space) -> Result<Stack<'a>, Refusal> {
    let no = |en: &str, zh: &str| Err(Refusal::new("11.1.1", Text::new(en, zh)));
    let Some(&first) = units.first() else {
        return no("no unit to move", "没有要移动的单位");
    };
    if units.iter().any(|&i| i >= data.pieces.len()) || from.idx() >= data.map.graph.len() {
        return no("no such unit or space", "没有这个单位或区域");
    }
    if units.iter().enumerate().any(|(k, u)| units[..k].contains(u)) {
        return no("a unit is named twice", "同一个单位被列出两次");
    }
    let side = data.pieces[first].side;
    if units.iter().any(|&i| data.pieces[i].side != side) {
        return no("units of both sides never move together", "双方的单位不能一起移动");
    }
    if units
        .iter()
        .any(|&i| pos.units.get(i).map(|u| u.loc) != Some(Location::Map(from)))
    {
        return no(
            "the units moving together must all start in the same space",
            "一起移动的单位必须从同一区域出发",
        );
    }
    Ok(Stack { data, units, side })
}

/// One step of one unit as a move prices it: what advances (12.7) and retreats (12.5) check on
/// the way, the rules of movement that name them (11.1.4, 11.1.17, 11.3, 15.1.12, 5.7.4.6).
pub(crate) fn unit_step(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    from: Space,
    c: u16,
    to: Space,
) -> Step {
    unit_step_in(data, pos, unit, ctx, from, c, to, None)
}

/// [`unit_step`], finding the enemy from `occupancy` ([`Occupancy::of`] `pos`): for a list
/// that asks it of many steps.
#[allow(clippy::too_many_arguments)]
pub(crate) fn unit_step_with(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    from: Space,
    c: u16,
    to: Space,
    occupancy: &Occupancy,
) -> Step {
    unit_step_in(data, pos, unit, ctx, from, c, to, Some(occupancy))
}

/// [`unit_step`], finding the enemy from `occupancy` ([`Occupancy::of`] `pos`) when given,
/// else in the position.
#[allow(clippy::too_many_arguments)]
fn unit_step_in(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    from: Space,
    c: u16,
    to: Space,
    occupancy: Option<&Occupancy>,
) -> Step {
    let units = [unit];
    let st = Stack {
        data,
        units: &units,
        side: data.pieces[unit].side,
    };
    let walk = match occupancy {
        Some(occ) => Walk::with_enemy(&st, pos, ctx, Enemy::Occupancy(occ, st.side)),
        None => Walk::new(&st, pos, ctx, false),
    };
    step(&walk, pos, ctx, from, c, to)
}

/// Codes of [`unit_step`]'s refusals that advances and retreats treat apart.
pub(crate) const FORT: Why = why::FORT;

/// The spaces a stack moving together from `from` may end its move in, with the MP each costs
/// (11.1); none when the units cannot move together ([`check`] says why).
pub fn destinations(data: &Data, pos: &Position, units: &[usize], from: Space, ctx: &Context) -> Vec<(Space, u32)> {
    let Ok(st) = stack_of(data, pos, units, from) else {
        return Vec::new();
    };
    with_thread_space_search(|s| {
        search(&st, pos, from, ctx, s);
        s.reached()
            .filter(|&n| n != from && end_barred(&st, ctx, n).is_none())
            .map(|n| (n, s.cost(n).unwrap_or(0)))
            .collect()
    })
}

fn search(st: &Stack, pos: &Position, from: Space, ctx: &Context, s: &mut Search<Space>) {
    let mf = st.mf(pos) as u32;
    let walk = Walk::new(st, pos, ctx, true);
    s.run(&st.data.map.graph, &[(from, 0)], mf, |a, c, b| {
        step(&walk, pos, ctx, a, c, b)
    });
}

/// [`destinations`] written into `out` (cleared first), with who stands where in `pos` given
/// (`occupancy`, [`Occupancy::of`] it): for a list that asks it of many stacks. With `parents`,
/// the search's paths written there too ([`Parents`], [`route_of`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn destinations_into(
    data: &Data,
    pos: &Position,
    units: &[usize],
    from: Space,
    ctx: &Context,
    occupancy: &Occupancy,
    out: &mut Vec<(Space, u32)>,
    parents: Option<&mut Parents>,
) {
    out.clear();
    let Ok(st) = stack_of(data, pos, units, from) else {
        return;
    };
    let mf = st.mf(pos) as u32;
    let walk = Walk::with_enemy(&st, pos, ctx, Enemy::Occupancy(occupancy, st.side));
    with_thread_space_search(|s| {
        s.run(&data.map.graph, &[(from, 0)], mf, |a, c, b| {
            step(&walk, pos, ctx, a, c, b)
        });
        out.extend(
            s.reached()
                .filter(|&n| n != from && end_barred(&st, ctx, n).is_none())
                .map(|n| (n, s.cost(n).unwrap_or(0))),
        );
        if let Some(parents) = parents {
            parents.clear();
            // Every destination and the start, at least: made once to about its length.
            parents.reserve(out.len() + 1);
            parents.extend(s.reached().map(|n| (n, s.parent(n), s.parent_to_go_on(n))));
        }
    });
}

/// Each space a stack's search reached, with the space its cheapest arrival came from and the
/// space its cheapest arrival that may go on came from ([`destinations_into`]).
pub(crate) type Parents = Vec<(Space, Option<Space>, Option<Space>)>;

/// [`route`] told from the `parents` of the search of the same stack from `from` in the same
/// position: the spaces after `from` on the path of the cheapest arrival at `to` (11.1.2).
/// `None` when `to` was not reached; the caller knows the move legal.
pub(crate) fn route_of(
    parents: &[(Space, Option<Space>, Option<Space>)],
    from: Space,
    to: Space,
) -> Option<Vec<Space>> {
    let find = |n: Space| parents.iter().find(|&&(m, _, _)| m == n);
    let &(_, first, _) = find(to)?;
    let mut path = vec![to];
    let mut p = first;
    while let Some(n) = p {
        path.push(n);
        if path.len() > parents.len() + 1 {
            return None;
        }
        p = find(n)?.2;
    }
    path.reverse();
    Some(path.into_iter().filter(|&n| n != from).collect())
}

/// One step of a move walked space by space (11.1): the stack in `at`, having spent `spent` MP,
/// steps into `to`. `Ok(true)` when it must stop there (an enemy fort it will besiege, 15.2.1),
/// `Ok(false)` when it may go on; else what stops the step.
pub fn step_check(
    data: &Data,
    pos: &Position,
    units: &[usize],
    at: Space,
    to: Space,
    spent: u32,
    ctx: &Context,
) -> Result<bool, Refusal> {
    step_check_in(data, pos, units, at, to, spent, ctx, None)
}

/// [`step_check`] with who stands where in `pos` given (`occupancy`, [`Occupancy::of`] it).
#[allow(clippy::too_many_arguments)]
pub(crate) fn step_check_with(
    data: &Data,
    pos: &Position,
    units: &[usize],
    at: Space,
    to: Space,
    spent: u32,
    ctx: &Context,
    occupancy: &Occupancy,
) -> Result<bool, Refusal> {
    step_check_in(data, pos, units, at, to, spent, ctx, Some(occupancy))
}

/// [`step_check`], finding the enemy from `occupancy` when given, else in the position.
#[allow(clippy::too_many_arguments)]
fn step_check_in(
    data: &Data,
    pos: &Position,
    units: &[usize],
    at: Space,
    to: Space,
    spent: u32,
    ctx: &Context,
    occupancy: Option<&Occupancy>,
) -> Result<bool, Refusal> {
    let st = stack_of(data, pos, units, at)?;
    if to.idx() >= data.map.graph.len() {
        return Err(Refusal::new("11.1.3", Text::new("no such space", "没有这个区域")));
    }
    let info = data.map.graph.space(to);
    let Some(c) = data.map.graph.connection(at, to) else {
        return Err(Refusal::new(
            "11.1.3",
            Text::new(
                format!("{} is not joined to this space by a line", info.name_en),
                format!("{}与此区域之间没有连线", info.name_zh),
            ),
        ));
    };
    if spent + 1 > st.mf(pos) as u32 {
        return Err(Refusal::new(
            "11.1.5",
            Text::new(
                format!("these units have spent their {} MP", st.mf(pos)),
                format!("这些单位已用完{}点移动力", st.mf(pos)),
            ),
        ));
    }
    let walk = match occupancy {
        Some(occ) => Walk::with_enemy(&st, pos, ctx, Enemy::Occupancy(occ, st.side)),
        None => Walk::new(&st, pos, ctx, false),
    };
    match step(&walk, pos, ctx, at, c, to) {
        Step::Go(_) => Ok(false),
        Step::Stop(_) => Ok(true),
        // While a legal list is made only the refusal counts, not its words.
        Step::Blocked(_) if crate::game::listing() => Err(crate::game::PathsOfGlory::refuse("", "", "")),
        Step::Blocked(w) => Err(refusal(w, info, st.own_units_in(pos, to).count())),
    }
}

/// The spaces a stack standing in `stand` may still end its move in from `at` (its move begun
/// in `origin`, `spent` MP used on reaching `at`), `at` and `origin` aside: what a move walked
/// step by step may go on to. (The game asks it with who stands where given,
/// [`ends_from_with`]; this form, looking for the enemy in the position, is what that is
/// compared with.)
#[cfg(test)]
#[allow(clippy::too_many_arguments)]
pub fn ends_from(
    data: &Data,
    pos: &Position,
    units: &[usize],
    stand: Space,
    at: Space,
    origin: Space,
    spent: u32,
    ctx: &Context,
) -> Vec<Space> {
    ends_from_in(data, pos, units, stand, at, origin, spent, ctx, None)
}

/// [`ends_from`] with who stands where in `pos` given (`occupancy`, [`Occupancy::of`] it).
#[allow(clippy::too_many_arguments)]
pub(crate) fn ends_from_with(
    data: &Data,
    pos: &Position,
    units: &[usize],
    stand: Space,
    at: Space,
    origin: Space,
    spent: u32,
    ctx: &Context,
    occupancy: &Occupancy,
) -> Vec<Space> {
    ends_from_in(data, pos, units, stand, at, origin, spent, ctx, Some(occupancy))
}

/// [`ends_from`], finding the enemy from `occupancy` when given, else in the position.
#[allow(clippy::too_many_arguments)]
fn ends_from_in(
    data: &Data,
    pos: &Position,
    units: &[usize],
    stand: Space,
    at: Space,
    origin: Space,
    spent: u32,
    ctx: &Context,
    occupancy: Option<&Occupancy>,
) -> Vec<Space> {
    let Ok(st) = stack_of(data, pos, units, stand) else {
        return Vec::new();
    };
    let budget = (st.mf(pos) as u32).saturating_sub(spent);
    let walk = match occupancy {
        Some(occ) => Walk::with_enemy(&st, pos, ctx, Enemy::Occupancy(occ, st.side)),
        None => Walk::new(&st, pos, ctx, true),
    };
    with_thread_space_search(|s| {
        s.run(&data.map.graph, &[(at, 0)], budget, |a, c, b| {
            step(&walk, pos, ctx, a, c, b)
        });
        s.reached()
            .filter(|&n| n != at && n != origin && end_barred(&st, ctx, n).is_none())
            .collect()
    })
}

/// Whether the stack standing in `stand` may end its move in `at` (11.1.6, 11.1.9, 5.7.4.6).
pub fn may_stop(
    data: &Data,
    pos: &Position,
    units: &[usize],
    stand: Space,
    at: Space,
    ctx: &Context,
) -> Result<(), Refusal> {
    let st = stack_of(data, pos, units, stand)?;
    may_end(&st, ctx, at)
}

/// The cheapest route of a legal move, the spaces after `from` in order (the last is `to`):
/// the route a move walks space by space (11.1.2: every space costs 1 MP). `None` when the move
/// is not legal ([`check`] says why).
pub fn route(
    data: &Data,
    pos: &Position,
    units: &[usize],
    from: Space,
    to: Space,
    ctx: &Context,
) -> Option<Vec<Space>> {
    // What `check` accepts, told from the one search that also gives the path.
    let st = stack_of(data, pos, units, from).ok()?;
    if to.idx() >= data.map.graph.len() || to == from {
        return None;
    }
    with_thread_space_search(|s| {
        search(&st, pos, from, ctx, s);
        s.cost(to)?;
        may_end(&st, ctx, to).ok()?;
        s.path(to).map(|p| p.into_iter().filter(|&n| n != from).collect())
    })
}

/// 11.3.2: whether a step between `a` and `b` crosses between the Caucasus space and the Near
/// East (Grozny or Poti), the crossing one Russian corps a turn may make, by move, attack,
/// retreat or advance (12.1.8, 2022 11.3.2). Uman and Odessa are no crossing.
pub(crate) fn crosses_caucasus(data: &Data, a: Space, b: Space) -> bool {
    caucasus_crossing(data.space("caucasus"), [data.space("grozny"), data.space("poti")], a, b)
}

/// 11.3.2: whether the step between `a` and `b` joins the Caucasus space `cau` and one of the
/// spaces `across` from it.
fn caucasus_crossing(cau: Option<Space>, across: [Option<Space>; 2], a: Space, b: Space) -> bool {
    let across = |s: Space| across.contains(&Some(s));
    cau.is_some_and(|cau| (a == cau && across(b)) || (b == cau && across(a)))
}

/// Whether a Russian unit taking the steps of `path` (each space after the one before) makes
/// the Caucasus crossing (11.3.2).
pub(crate) fn russian_crossing(data: &Data, unit: usize, path: &[Space]) -> bool {
    data.pieces.get(unit).is_some_and(|p| p.nation == Nation::Ru)
        && path.windows(2).any(|w| crosses_caucasus(data, w[0], w[1]))
}

/// 12.1.8, 11.3, 15.1.12: whether a unit may attack from `from` into the adjacent `to`: along a
/// line its nationality may use, into the Near East only if it may go there, no Russian into a
/// German fort on turn 1. Enemy units and an enemy fort in `to` are what an attack is for.
/// (The game asks it with who stands where given, [`may_attack_across_with`]; this form,
/// looking for the enemy in the position, is what that is compared with.)
#[cfg(test)]
pub(crate) fn may_attack_across(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    from: Space,
    to: Space,
) -> bool {
    may_attack_across_in(data, pos, unit, ctx, from, to, None)
}

/// [`may_attack_across`] with who stands where in `pos` given (`occupancy`, [`Occupancy::of`]
/// it).
pub(crate) fn may_attack_across_with(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    from: Space,
    to: Space,
    occupancy: &Occupancy,
) -> bool {
    may_attack_across_in(data, pos, unit, ctx, from, to, Some(occupancy))
}

/// [`may_attack_across`], finding the enemy from `occupancy` when given, else in the position.
fn may_attack_across_in(
    data: &Data,
    pos: &Position,
    unit: usize,
    ctx: &Context,
    from: Space,
    to: Space,
    occupancy: Option<&Occupancy>,
) -> bool {
    let Some(c) = data.map.graph.connection(from, to) else {
        return false;
    };
    match unit_step_in(data, pos, unit, ctx, from, c, to, occupancy) {
        Step::Go(_) | Step::Stop(_) => true,
        Step::Blocked(w) => w == why::ENEMY_UNITS || w == why::FORT,
    }
}

/// Whether the stack may move from `from` to `to`, and if not, what stops it.
pub fn check(
    data: &Data,
    pos: &Position,
    units: &[usize],
    from: Space,
    to: Space,
    ctx: &Context,
) -> Result<u32, Refusal> {
    let st = stack_of(data, pos, units, from)?;
    if to.idx() >= data.map.graph.len() {
        return Err(Refusal::new("11.1.3", Text::new("no such space", "没有这个区域")));
    }
    let info = data.map.graph.space(to);
    with_thread_space_search(|s| {
        search(&st, pos, from, ctx, s);
        match s.cost(to) {
            Some(c) if to != from => may_end(&st, ctx, to).map(|()| c),
            Some(_) => Err(Refusal::new(
                "11.1.3",
                Text::new("a move goes to another space", "移动须进入另一个区域"),
            )),
            None => match s.why(to) {
                Some(w) => Err(refusal(w, info, st.own_units_in(pos, to).count())),
                None => Err(Refusal::new(
                    "11.1.5",
                    Text::new(
                        format!("{} is beyond these units' {} MP", info.name_en, st.mf(pos)),
                        format!("{}超出这些单位的{}点移动力", info.name_zh, st.mf(pos)),
                    ),
                )),
            },
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::Game;

    /// 11.1.10, 11.1.4: along every connection of the map, for each counter alone and for
    /// stacks of a few, whether the step lands on a beach and whether a dashed line bars it
    /// are what the MEF beach set and each unit's line bit say.
    #[test]
    fn beaches_and_dashed_lines_are_those_the_beach_set_and_each_units_line_say() {
        let g = crate::game::PathsOfGlory::new_game("campaign", 0).expect("the campaign loads");
        let (data, pos) = (g.data(), &g.pos);
        let beaches = data.map.space_set("mef-beaches");
        assert!(!beaches.is_empty());
        assert!(beaches.iter().all(|&b| data.facts(b).nation.is_none()));
        let n = data.pieces.len();
        let mut stacks: Vec<Vec<usize>> = (0..n).map(|u| vec![u]).collect();
        stacks.extend((0..n).map(|u| vec![u, (u * 7 + 3) % n, (u * 13 + 5) % n]));
        let ctx = Context::default();
        let (mut seen_beach, mut seen_barred) = (0, 0);
        for units in &stacks {
            let side = data.pieces[units[0]].side;
            let st = Stack { data, units, side };
            let walk = Walk::new(&st, pos, &ctx, false);
            let bits: Vec<u32> = st.pieces().map(|p| data.lines.for_nation(p.line_nation())).collect();
            for a in data.map.graph.space_indices() {
                for &(c, b) in data.map.graph.exits(a) {
                    let features = data.map.features(c);
                    let was_beach = features & data.lines.mef_beach != 0 || beaches.contains(&b);
                    assert_eq!(beach(data, data.facts(b), features, b), was_beach);
                    let was_barred = features & data.lines.dashed() != 0 && bits.iter().any(|&bit| features & bit == 0);
                    assert_eq!(walk.line_barred(data, features), was_barred);
                    seen_beach += was_beach as u32;
                    seen_barred += was_barred as u32;
                }
            }
        }
        assert!(seen_beach > 0 && seen_barred > 0);
    }

    /// [`route`] as it was made before: the move checked ([`check`]), then searched again for
    /// its path.
    fn route_checked_then_searched(
        data: &Data,
        pos: &Position,
        units: &[usize],
        from: Space,
        to: Space,
        ctx: &Context,
    ) -> Option<Vec<Space>> {
        check(data, pos, units, from, to, ctx).ok()?;
        let st = stack_of(data, pos, units, from).ok()?;
        with_thread_space_search(|s| {
            search(&st, pos, from, ctx, s);
            s.path(to).map(|p| p.into_iter().filter(|&n| n != from).collect())
        })
    }

    /// 11.1: at every decision of random campaigns, the route of a move from each of a few
    /// spaces, by all the side's units there and by each alone, to every space it may end in,
    /// to a few it may not and to its own space, is the route of the move checked and then
    /// searched again (none when the check refuses it).
    #[test]
    fn a_route_is_the_route_of_the_move_checked_then_searched_at_every_decision() {
        let (mut routes, mut refused) = (0u64, 0u64);
        for seed in 0..2 {
            let mut g = crate::game::PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            let mut n = 0u64;
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 250, |g: &crate::game::PathsOfGlory| {
                n += 1;
                let (data, pos) = (g.data(), &g.pos);
                // The spaces activated for combat, and on every other decision a few more, so
                // that moves that may pass but not end somewhere come often (11.1.6, 11.1.9).
                let mut marked: Vec<Space> = g.action.activated.iter().filter(|a| a.1).map(|a| a.0).collect();
                if !n.is_multiple_of(2) {
                    marked.extend(data.map.graph.space_indices().step_by(5));
                }
                let ctx = Context {
                    attack_marked: &marked,
                    open_beaches: pos.beachhead.as_slice(),
                    channel_ports_open: n.is_multiple_of(4),
                    turn: pos.turn,
                    german_fort_first: true,
                    sieges_resume: true,
                    ..Context::default()
                };
                let stacks = data.map.graph.space_indices().filter_map(|s| {
                    let here: Vec<usize> = pos.units_in(s).collect();
                    let side = data.pieces.get(*here.first()?)?.side;
                    let own: Vec<usize> = here.into_iter().filter(|&u| data.pieces[u].side == side).collect();
                    Some((s, own))
                });
                for (from, own) in stacks.step_by(7).take(6) {
                    let mut each: Vec<Vec<usize>> = own.iter().map(|&u| vec![u]).collect();
                    each.push(own.clone());
                    for units in each {
                        let mut to: Vec<Space> = destinations(data, pos, &units, from, &ctx)
                            .into_iter()
                            .map(|(s, _)| s)
                            .collect();
                        to.extend(data.map.graph.space_indices().step_by(37));
                        to.extend(marked.iter().copied());
                        to.extend(["amiens", "calais", "ostend"].iter().filter_map(|id| data.space(id)));
                        to.push(from);
                        for to in to {
                            let r = route(data, pos, &units, from, to, &ctx);
                            assert_eq!(r, route_checked_then_searched(data, pos, &units, from, to, &ctx));
                            match r {
                                Some(_) => routes += 1,
                                None => refused += 1,
                            }
                        }
                    }
                }
            })
            .expect("random play");
        }
        assert!(routes > 10_000 && refused > 10_000, "{routes} {refused}");
    }

    /// 11.1, 11.1.7: at every decision of random campaigns, the destinations of a move from each
    /// space with units, by all the side's units there and by each alone, found with who stands
    /// where kept beside the game, are those found looking for the enemy in the position.
    #[test]
    fn destinations_found_with_the_kept_occupancy_are_those_found_afresh_at_every_decision() {
        let (mut stacks, mut found) = (0u64, 0u64);
        let mut reached = Vec::new();
        for seed in 0..2 {
            let mut g = crate::game::PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 250, |g: &crate::game::PathsOfGlory| {
                let (data, pos) = (g.data(), &g.pos);
                let ctx = Context {
                    open_beaches: pos.beachhead.as_slice(),
                    turn: pos.turn,
                    german_fort_first: true,
                    sieges_resume: true,
                    ..Context::default()
                };
                let _trust = g.kept.trust(data, pos);
                let occ = g.kept.occupancy(data, pos);
                for from in data.map.graph.space_indices() {
                    let here: Vec<usize> = pos.units_in(from).collect();
                    let Some(side) = here.first().map(|&u| data.pieces[u].side) else {
                        continue;
                    };
                    let own: Vec<usize> = here.into_iter().filter(|&u| data.pieces[u].side == side).collect();
                    let mut each: Vec<Vec<usize>> = own.iter().map(|&u| vec![u]).collect();
                    each.push(own.clone());
                    for units in each {
                        destinations_into(data, pos, &units, from, &ctx, &occ, &mut reached, None);
                        assert_eq!(reached, destinations(data, pos, &units, from, &ctx));
                        stacks += 1;
                        found += reached.len() as u64;
                    }
                }
            })
            .expect("random play");
        }
        assert!(stacks > 20_000 && found > 200_000, "{stacks} {found}");
    }

    /// 2022 15.2.4: at every decision of random campaigns, whether a walk with who stands where
    /// kept beside the game finds the stack's side's units in each space is what the position
    /// says.
    #[test]
    fn the_own_units_found_with_the_kept_occupancy_are_those_in_the_position_at_every_decision() {
        let (mut asked, mut there) = (0u64, 0u64);
        for seed in 0..2 {
            let mut g = crate::game::PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 500, |g: &crate::game::PathsOfGlory| {
                let (data, pos) = (g.data(), &g.pos);
                let ctx = Context::default();
                let occ = g.kept.occupancy(data, pos);
                // A stack of one counter of each side: what is asked reads only its side.
                for side in [Side::Cp, Side::Ap] {
                    let Some(u) = data.pieces.iter().position(|p| p.side == side) else {
                        continue;
                    };
                    let p = &data.pieces[u];
                    let units = [u];
                    let st = Stack {
                        data,
                        units: &units,
                        side: p.side,
                    };
                    let walk = Walk::with_enemy(&st, pos, &ctx, Enemy::Occupancy(&occ, p.side));
                    for s in data.map.graph.space_indices() {
                        let own = walk.own_in(pos, s);
                        assert_eq!(own, st.own_units_in(pos, s).next().is_some(), "{u} {s:?}");
                        asked += 1;
                        there += u64::from(own);
                    }
                }
            })
            .expect("random play");
        }
        assert!(asked > 100_000 && there > 10_000, "{asked} {there}");
    }

    /// 11.1: at every decision of random campaigns, a step of all the side's units of each
    /// space with units into each space next to it, and the spaces they may end in beyond it,
    /// checked with who stands where kept beside the game, are those checked looking for the
    /// enemy in the position (the refusals word for word).
    #[test]
    fn steps_checked_with_the_kept_occupancy_are_those_checked_afresh_at_every_decision() {
        let (mut steps, mut refused, mut ends) = (0u64, 0u64, 0u64);
        for seed in 0..2 {
            let mut g = crate::game::PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 400, |g: &crate::game::PathsOfGlory| {
                let (data, pos) = (g.data(), &g.pos);
                let ctx = Context {
                    open_beaches: pos.beachhead.as_slice(),
                    turn: pos.turn,
                    german_fort_first: true,
                    sieges_resume: true,
                    ..Context::default()
                };
                let occ = g.kept.occupancy(data, pos);
                for from in data.map.graph.space_indices() {
                    let here: Vec<usize> = pos.units_in(from).collect();
                    let Some(side) = here.first().map(|&u| data.pieces[u].side) else {
                        continue;
                    };
                    let units: Vec<usize> = here.into_iter().filter(|&u| data.pieces[u].side == side).collect();
                    for &(_, to) in data.map.graph.exits(from) {
                        let with = step_check_with(data, pos, &units, from, to, 0, &ctx, &occ);
                        assert_eq!(
                            with,
                            step_check(data, pos, &units, from, to, 0, &ctx),
                            "{from:?} {to:?}"
                        );
                        steps += 1;
                        refused += u64::from(with.is_err());
                        let beyond = ends_from_with(data, pos, &units, from, to, from, 1, &ctx, &occ);
                        assert_eq!(
                            beyond,
                            ends_from(data, pos, &units, from, to, from, 1, &ctx),
                            "{from:?} {to:?}"
                        );
                        ends += beyond.len() as u64;
                    }
                }
            })
            .expect("random play");
        }
        assert!(
            steps > 50_000 && refused > 5_000 && ends > 100_000,
            "{steps} {refused} {ends}"
        );
    }

    /// 12.1.8: at every decision of random campaigns, whether each unit on the map may attack
    /// from its space into each space next to it, told with who stands where kept beside the
    /// game, is what looking for the enemy in the position says.
    #[test]
    fn attacks_across_told_with_the_kept_occupancy_are_those_told_afresh_at_every_decision() {
        let (mut asked, mut may) = (0u64, 0u64);
        for seed in 0..2 {
            let mut g = crate::game::PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 400, |g: &crate::game::PathsOfGlory| {
                let (data, pos) = (g.data(), &g.pos);
                let ctx = Context {
                    open_beaches: pos.beachhead.as_slice(),
                    turn: pos.turn,
                    german_fort_first: true,
                    sieges_resume: true,
                    ..Context::default()
                };
                let occ = g.kept.occupancy(data, pos);
                for u in 0..data.pieces.len() {
                    let Some(Location::Map(from)) = pos.units.get(u).map(|x| x.loc) else {
                        continue;
                    };
                    for &(_, to) in data.map.graph.exits(from) {
                        let with = may_attack_across_with(data, pos, u, &ctx, from, to, &occ);
                        assert_eq!(with, may_attack_across(data, pos, u, &ctx, from, to), "{u} {to:?}");
                        asked += 1;
                        may += u64::from(with);
                    }
                }
            })
            .expect("random play");
        }
        assert!(asked > 100_000 && may > 10_000, "{asked} {may}");
    }
}

//! 17.0 Replacements: in the Replacement Phase each nation spends the replacement points (RP)
//! its cards gave it this turn on the purchases of the Replacement Cost table (17.1.4): flipping
//! reduced units on the map to full strength, bringing eliminated corps back to the Reserve Box,
//! recreating eliminated armies where a reinforcement would enter (17.1.5). Dotted units never
//! come back (17.1.7); the Allied minors use the Allied "A" points only (17.1.1.1); a nation
//! whose capital is the enemy's or besieged spends nothing (17.1.3).

use crate::data::{Data, Kind, Nation};
use crate::placement::{self, army_spaces};
use crate::state::{Location, Position};
use crate::supply::{in_supply, only_through_foreign_sources, tracer_of};
use crate::tables::Tables;
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// One purchase of the Replacement Cost table (17.1.4), with the counters it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purchase {
    /// A reduced army on the map to full strength.
    FlipArmy(usize),
    /// One or two reduced corps on the map to full strength.
    FlipCorps(usize, Option<usize>),
    /// An eliminated corps to the Reserve Box at full strength.
    CorpsFull(usize),
    /// One or two eliminated corps to the Reserve Box, reduced.
    CorpsReduced(usize, Option<usize>),
    /// A reduced corps on the map to full, and an eliminated corps to the Reserve Box reduced.
    FlipCorpsAndCorpsReduced(usize, usize),
    /// An eliminated army recreated in a space, reduced.
    ArmyReduced(usize, Space),
    /// An eliminated army recreated in a space, at full strength.
    ArmyFull(usize, Space),
}

impl Purchase {
    /// The Replacement Cost table's row (`data/tables.toml`).
    fn row(self) -> &'static str {
        match self {
            Purchase::FlipArmy(_) => "flip-army",
            Purchase::FlipCorps(..) => "flip-two-corps",
            Purchase::CorpsFull(_) => "corps-to-reserve-full",
            Purchase::CorpsReduced(..) => "two-corps-to-reserve-reduced",
            Purchase::FlipCorpsAndCorpsReduced(..) => "flip-corps-and-corps-to-reserve",
            Purchase::ArmyReduced(..) => "army-reduced",
            Purchase::ArmyFull(..) => "army-full",
        }
    }

    /// The counters it takes.
    pub fn units(self) -> Vec<usize> {
        match self {
            Purchase::FlipArmy(a) | Purchase::CorpsFull(a) | Purchase::ArmyReduced(a, _) | Purchase::ArmyFull(a, _) => {
                vec![a]
            }
            Purchase::FlipCorps(a, b) | Purchase::CorpsReduced(a, b) => std::iter::once(a).chain(b).collect(),
            Purchase::FlipCorpsAndCorpsReduced(a, b) => vec![a, b],
        }
    }
}

/// The RP a purchase costs, from the table (17.1.4).
pub fn cost(tables: &Tables, purchase: Purchase) -> u8 {
    tables
        .replacement
        .iter()
        .find(|r| r.id == purchase.row())
        .map_or(u8::MAX, |r| r.rp)
}

fn refuse(rule: &str, en: impl Into<String>, zh: impl Into<String>) -> Refusal {
    Refusal::new(rule, Text::new(en, zh))
}

/// Checks one purchase against the rules and the points left in the pool it draws on, and gives
/// its cost.
pub fn check(
    data: &Data,
    tables: &Tables,
    pos: &Position,
    points: u8,
    purchase: Purchase,
    ctx: &placement::Context,
) -> Result<u8, Refusal> {
    let units = purchase.units();
    if units.iter().any(|&u| u >= data.pieces.len()) {
        return Err(refuse("17.1", "no such unit", "没有这个单位"));
    }
    if units.len() == 2 && units[0] == units[1] {
        return Err(refuse(
            "17.1.4",
            "one purchase takes two different units",
            "一次购买须用两个不同的单位",
        ));
    }
    // One pool pays for the whole purchase.
    let pool = data.pieces[units[0]].rp;
    for &u in &units {
        let p = &data.pieces[u];
        // 17.1.7: dotted units are never replaced.
        let Some(rp) = p.rp.filter(|_| !p.not_replaceable) else {
            return Err(refuse(
                "17.1.7",
                format!("{} is never replaced", p.name_en),
                format!("{}不能补充", p.name_zh),
            ));
        };
        if Some(rp) != pool {
            return Err(refuse(
                "17.1.1.1",
                "one purchase draws on one nation's points",
                "一次购买只能使用一个国家的补充点",
            ));
        }
        // CP #59 Polish Restoration: the Polish corps are not replaced while Warsaw is Allied.
        if p.label == "POL Corps"
            && data
                .space("warsaw")
                .is_some_and(|w| pos.space(w).control == Some(crate::data::Side::Ap))
        {
            return Err(refuse(
                "CP #59",
                format!("{} is not replaced while Warsaw is Allied", p.name_en),
                format!("华沙为协约国控制时,{}不能补充", p.name_zh),
            ));
        }
        if !pos.holds_capital(data, p.nation, p.side) {
            return Err(refuse(
                "17.1.3",
                format!(
                    "{}'s capital is the enemy's or besieged: it spends no replacement points",
                    p.nation.name().en
                ),
                format!("{}的首都被敌方控制或围困:不能使用补充点", p.nation.name().zh),
            ));
        }
    }
    let on_map_reduced = |u: usize, kind: Kind| -> Result<(), Refusal> {
        let p = &data.pieces[u];
        let Location::Map(at) = pos.units[u].loc else {
            return Err(refuse(
                "17.1.4",
                format!("{} is not on the map", p.name_en),
                format!("{}不在地图上", p.name_zh),
            ));
        };
        if p.kind != kind || pos.units[u].full {
            return Err(refuse(
                "17.1.4",
                format!(
                    "{} is not a reduced {} on the map",
                    p.name_en,
                    if kind == Kind::Army { "army" } else { "corps" }
                ),
                format!(
                    "{}不是地图上的减员{}",
                    p.name_zh,
                    if kind == Kind::Army { "集团军" } else { "军" }
                ),
            ));
        }
        if !in_supply(data, pos, tracer_of(data, u), at, &ctx.supply) {
            return Err(refuse(
                "17.1.4",
                format!("{} is out of supply", p.name_en),
                format!("{}缺乏补给", p.name_zh),
            ));
        }
        if ctx.foreign_sources_barred && only_through_foreign_sources(data, pos, u, at, &ctx.supply) {
            return Err(refuse(
                "2022 17.1.4.1",
                format!(
                    "{} is supplied only through another nation's sources: it is not replaced",
                    p.name_en
                ),
                format!("{}只能经由他国补给源获得补给:不能补充", p.name_zh),
            ));
        }
        Ok(())
    };
    let eliminated = |u: usize, kind: Kind| -> Result<(), Refusal> {
        let p = &data.pieces[u];
        if pos.units[u].loc != Location::Eliminated || p.kind != kind {
            return Err(refuse(
                "17.1.4",
                format!(
                    "{} is not an eliminated {}",
                    p.name_en,
                    if kind == Kind::Army { "army" } else { "corps" }
                ),
                format!(
                    "{}不是被消灭的{}",
                    p.name_zh,
                    if kind == Kind::Army { "集团军" } else { "军" }
                ),
            ));
        }
        Ok(())
    };
    // 17.1.6: a rebuilt ANA corps goes to the Arabia space, which must be Allied and have room.
    let arabia_open = || {
        data.space("arabia")
            .is_some_and(|s| pos.space(s).control == Some(crate::data::Side::Ap) && pos.units_in(s).count() < 3)
    };
    for &u in &units {
        let rebuilt = matches!(purchase, Purchase::CorpsFull(_) | Purchase::CorpsReduced(..))
            || matches!(purchase, Purchase::FlipCorpsAndCorpsReduced(_, b) if b == u);
        if rebuilt && data.pieces[u].nation == Nation::Ana && !arabia_open() {
            return Err(refuse(
                "17.1.6",
                "the ANA is rebuilt in the Arabia space, which must be Allied and have room",
                "阿拉伯北方军须在阿拉伯区域重建,该区域须为协约国控制且有堆叠空间",
            ));
        }
    }
    match purchase {
        Purchase::FlipArmy(a) => on_map_reduced(a, Kind::Army)?,
        Purchase::FlipCorps(a, b) => {
            on_map_reduced(a, Kind::Corps)?;
            if let Some(b) = b {
                on_map_reduced(b, Kind::Corps)?;
            }
        }
        Purchase::CorpsFull(a) => eliminated(a, Kind::Corps)?,
        Purchase::CorpsReduced(a, b) => {
            eliminated(a, Kind::Corps)?;
            if let Some(b) = b {
                eliminated(b, Kind::Corps)?;
            }
        }
        Purchase::FlipCorpsAndCorpsReduced(a, b) => {
            on_map_reduced(a, Kind::Corps)?;
            eliminated(b, Kind::Corps)?;
        }
        Purchase::ArmyReduced(a, at) | Purchase::ArmyFull(a, at) => {
            eliminated(a, Kind::Army)?;
            if !army_spaces(data, pos, a, ctx).contains(&at) {
                return Err(refuse(
                    "17.1.5",
                    "a recreated army enters where a reinforcement would: its capital or a supply source of its nation, friendly, supplied, not besieged, with room",
                    "重建的集团军须像增援部队一样放置:本国首都或本国补给源,须为友方控制、有补给、未被围困且有堆叠空间",
                ));
            }
        }
    }
    let c = cost(tables, purchase);
    if c > points {
        return Err(refuse(
            "17.1.4",
            format!("it costs {c} RP; {points} left"),
            format!("需要{c}点补充点,仅剩{points}点"),
        ));
    }
    Ok(c)
}

/// Carries out a purchase [`check`] allowed. A rebuilt ANA corps goes to Arabia (17.1.6).
pub fn apply(data: &Data, pos: &mut Position, purchase: Purchase) {
    match purchase {
        Purchase::FlipArmy(a) => pos.units[a].full = true,
        Purchase::FlipCorps(a, b) => {
            for u in std::iter::once(a).chain(b) {
                pos.units[u].full = true;
            }
        }
        Purchase::CorpsFull(a) => {
            pos.units[a].loc = rebuilt_to(data, a);
            pos.units[a].full = true;
        }
        Purchase::CorpsReduced(a, b) => {
            for u in std::iter::once(a).chain(b) {
                pos.units[u].loc = rebuilt_to(data, u);
                pos.units[u].full = false;
            }
        }
        Purchase::FlipCorpsAndCorpsReduced(a, b) => {
            pos.units[a].full = true;
            pos.units[b].loc = rebuilt_to(data, b);
            pos.units[b].full = false;
        }
        Purchase::ArmyReduced(a, at) => {
            pos.units[a].loc = Location::Map(at);
            pos.units[a].full = false;
        }
        Purchase::ArmyFull(a, at) => {
            pos.units[a].loc = Location::Map(at);
            pos.units[a].full = true;
        }
    }
}

/// Where a rebuilt corps goes: the Reserve Box, or Arabia for the ANA (17.1.6).
fn rebuilt_to(data: &Data, unit: usize) -> Location {
    match data.space("arabia") {
        Some(s) if data.pieces[unit].nation == Nation::Ana => Location::Map(s),
        _ => Location::Reserve,
    }
}

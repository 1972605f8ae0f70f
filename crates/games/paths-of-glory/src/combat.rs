//! 12.0 Combat: how each side fires (12.2.3, 12.2.7, 12.2.8), who wins (12.2.10) and how far
//! the defender retreats (12.5.2). Both sides fire; each reads its own Fire Table with its own
//! strength, shifted by the defending space's terrain and trenches, and the result is the loss
//! number the other side takes (12.4.1).

use crate::data::{Data, Side};
use crate::state::{Location, Position};
use crate::tables::{Tables, Terrain, Trench};
use sandtable_core::combat::FireTable;
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// Which Fire Table a side fires on (12.2.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// All of the side's firing units are corps (or a fort fires alone).
    Corps,
    /// One or more of its firing units is an army, reduced or not.
    Army,
}

impl Table {
    /// 12.2.7: the Army table as soon as one firing unit is an army, else the Corps table.
    pub fn for_units(any_army: bool) -> Table {
        if any_army {
            Table::Army
        } else {
            Table::Corps
        }
    }

    pub fn name_en(self) -> &'static str {
        match self {
            Table::Corps => "Corps table",
            Table::Army => "Army table",
        }
    }

    pub fn name_zh(self) -> &'static str {
        match self {
            Table::Corps => "军火力表",
            Table::Army => "集团军火力表",
        }
    }
}

/// What the defending space does to the fire of each side (the Terrain Effects Chart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Shifts {
    /// The attacker's column shift (negative: left).
    pub attacker: i32,
    /// The defender's column shift.
    pub defender: i32,
}

/// The column shifts a defending space gives (12.2.7): its terrain's and its trench's, added
/// together. A trench counts only while combat units defend it: a space holding only a fort
/// ignores its trench (15.1.6), and so does a combat in which a card negated it (12.2.4).
pub fn shifts(terrain: &Terrain, trench: Option<Trench>, trench_counts: bool) -> Shifts {
    let mut s = Shifts {
        attacker: terrain.attacker,
        defender: terrain.defender,
    };
    if let (Some(t), true) = (trench, trench_counts) {
        s.attacker += t.attacker;
        s.defender += t.defender;
    }
    s
}

/// One side's fire, worked out before its die is rolled: the table, the column its strength
/// falls in, and the column after the shifts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fire {
    pub table: Table,
    pub strength: u32,
    /// The column the strength falls in, before any shift.
    pub base: usize,
    /// The column read, after the shifts, kept on the table (12.2.8 in 2022: a shift past an
    /// end is ignored).
    pub column: usize,
}

impl Fire {
    /// 12.2.7: the column of `strength` on `table`, shifted by `shift` columns.
    ///
    /// The Army table has no column below 1: a strength of 0 reads its first column (a
    /// Corps-table 0 read on the Army table becomes column 1, 2022 12.3.4.1).
    pub fn new(tables: &Tables, table: Table, strength: u32, shift: i32) -> Fire {
        let t = fire_table(tables, table);
        let s = i32::try_from(strength).unwrap_or(i32::MAX);
        let base = t.columns.column(s).unwrap_or(0);
        Fire {
            table,
            strength,
            base,
            column: t.columns.shift(base, shift),
        }
    }

    /// The column as printed.
    pub fn label(&self, tables: &Tables) -> String {
        fire_table(tables, self.table).columns.label(self.column)
    }

    /// 12.2.8: the loss number a die gives, after the die roll modifiers; the modified roll
    /// is kept between 1 and 6.
    pub fn losses(&self, tables: &Tables, die: u8, drm: i32) -> u8 {
        fire_table(tables, self.table).result(self.column, (die as i32 + drm).clamp(1, 6))
    }
}

fn fire_table(tables: &Tables, table: Table) -> &FireTable<u8> {
    match table {
        Table::Corps => &tables.fire.corps,
        Table::Army => &tables.fire.army,
    }
}

/// 12.2.10: who wins a combat. The side that inflicted the larger loss number wins; on equal
/// numbers both lose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    Attacker,
    Defender,
    /// Equal losses: both count as losers and discard their combat cards.
    Neither,
}

/// 12.2.10: the winner from the loss numbers each side inflicted.
pub fn winner(inflicted_by_attacker: u8, inflicted_by_defender: u8) -> Winner {
    use std::cmp::Ordering::*;
    match inflicted_by_attacker.cmp(&inflicted_by_defender) {
        Greater => Winner::Attacker,
        Less => Winner::Defender,
        Equal => Winner::Neither,
    }
}

/// 12.5.2: how many spaces the defender retreats when the attacker wins: one for a difference
/// of one in the loss numbers, two for any larger difference. `None` when the attacker did not
/// win (no retreat).
pub fn retreat_length(inflicted_by_attacker: u8, inflicted_by_defender: u8) -> Option<u8> {
    match inflicted_by_attacker.checked_sub(inflicted_by_defender)? {
        0 => None,
        1 => Some(1),
        _ => Some(2),
    }
}

/// 12.2.7 (2022): the attacker's die roll modifier when every attacking unit stands in Sinai:
/// −3, unless the attacker is the Allies and Sinai Pipeline has been played.
pub fn sinai_drm(all_attackers_in_sinai: bool, allied_attack: bool, pipeline_played: bool) -> i32 {
    if all_attackers_in_sinai && !(allied_attack && pipeline_played) {
        -3
    } else {
        0
    }
}

fn other(side: Side) -> Side {
    match side {
        Side::Ap => Side::Cp,
        Side::Cp => Side::Ap,
    }
}

/// Whether a space holds units of `side` (12.3.2: a space holding only a fort is not
/// occupied).
fn occupied_by(data: &Data, pos: &Position, side: Side, s: Space) -> bool {
    pos.units
        .iter()
        .zip(&data.pieces)
        .any(|(u, p)| u.loc == Location::Map(s) && p.side == side)
}

/// A combat as the flank rules see it.
#[derive(Clone, Copy, Debug)]
pub struct Attack<'a> {
    pub attacker: Side,
    /// The spaces the attacking units come from.
    pub from: &'a [Space],
    /// Whether an army is among the attackers.
    pub any_army: bool,
    pub defending: Space,
    /// Whether the defending space's trench counts (a card may negate it, 12.2.4).
    pub trench_counts: bool,
}

/// 12.3.1: whether the attacker may attempt a flank attack: from two or more spaces, with at
/// least one army, into a space that is neither swamp nor mountain, holds no trench (or one a
/// card negated: 2022 12.3.1 note) and is not a fort with no unit in it.
pub fn may_flank(data: &Data, pos: &Position, tables: &Tables, a: &Attack) -> Result<(), Refusal> {
    let no = |en: &str, zh: &str| Err(Refusal::new("12.3.1", Text::new(en, zh)));
    if a.from.len() < 2 {
        return no(
            "a flank attack comes from two spaces or more",
            "挟击须从两个以上的区域发动",
        );
    }
    if !a.any_army {
        return no(
            "a flank attack needs an army among the attackers",
            "挟击须至少有一个集团军参加",
        );
    }
    if !tables.terrain_of(data, a.defending).flank {
        return no("no flank attack into swamp or mountain", "不能对沼泽或山地区域进行挟击");
    }
    let trench = pos.space(a.defending).trench.and_then(|t| tables.trench(t.level));
    if a.trench_counts && trench.is_some_and(|t| !t.flank) {
        return no("no flank attack into a trench", "不能对有壕沟的区域进行挟击");
    }
    if data.facts(a.defending).fort > 0 && !occupied_by(data, pos, other(a.attacker), a.defending) {
        return no(
            "no flank attack on a fort with no unit in it (15.1.6)",
            "不能对没有部队防守的要塞进行挟击(15.1.6)",
        );
    }
    Ok(())
}

/// 12.3.2: the flank roll's modifier: +1 for every attacking space other than the pinning one
/// that no solid line joins to a space the enemy occupies, the defending space aside (a space
/// holding only an enemy fort is not occupied; dashed lines do not count, 2022 12.3.2 note).
pub fn flank_drm(
    data: &Data,
    pos: &Position,
    attacker: Side,
    attacking: &[Space],
    pinning: Space,
    defending: Space,
) -> i32 {
    let enemy = other(attacker);
    let dashed = data.lines.dashed();
    attacking
        .iter()
        .filter(|&&s| s != pinning)
        .filter(|&&s| {
            !data
                .map
                .graph
                .exits(s)
                .iter()
                .any(|&(c, n)| n != defending && data.map.features(c) & dashed == 0 && occupied_by(data, pos, enemy, n))
        })
        .count() as i32
}

/// 12.3.3: the flank attack succeeds on a modified roll of 4 or more.
pub fn flank_succeeds(die: u8, drm: i32) -> bool {
    die as i32 + drm >= 4
}

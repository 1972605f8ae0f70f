//! Combat tables: odds columns (including fractional ones such as 1.5-1), the rule "take the
//! column nearest the ratio without exceeding it", column shifts, and results as data.

use serde::{Deserialize, Serialize};

/// One odds column, `attack : defence` written as `num / den` (1.5-1 is `3 / 2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ratio {
    pub num: u32,
    pub den: u32,
}

impl Ratio {
    /// Reads `"3-1"`, `"1.5-1"`, `"1-2"`.
    pub fn parse(s: &str) -> Option<Ratio> {
        let (a, d) = s.trim().split_once('-')?;
        let frac = |t: &str| -> Option<(u32, u32)> {
            match t.split_once('.') {
                Some((i, f)) => {
                    let scale = 10u32.checked_pow(f.len() as u32)?;
                    Some((i.parse::<u32>().ok()? * scale + f.parse::<u32>().ok()?, scale))
                }
                None => Some((t.parse().ok()?, 1)),
            }
        };
        let (an, ad) = frac(a)?;
        let (dn, dd) = frac(d)?;
        (an > 0 && dn > 0).then_some(Ratio {
            num: an * dd,
            den: dn * ad,
        })
    }

    /// Whether `attack : defence` is at least this ratio.
    #[inline]
    pub fn met_by(self, attack: u32, defence: u32) -> bool {
        attack as u64 * self.den as u64 >= self.num as u64 * defence as u64
    }

    /// Printed form, as `1.5-1`.
    pub fn label(self) -> String {
        if self.den == 1 {
            format!("{}-1", self.num)
        } else if self.num == 1 {
            format!("1-{}", self.den)
        } else {
            let v = self.num as f64 / self.den as f64;
            format!("{v}-1")
        }
    }
}

/// The odds columns of a table, lowest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OddsColumns(pub Vec<Ratio>);

impl OddsColumns {
    /// Reads column labels such as `["1-1", "1.5-1", "2-1"]`.
    pub fn parse(labels: &[&str]) -> Option<OddsColumns> {
        labels
            .iter()
            .map(|l| Ratio::parse(l))
            .collect::<Option<Vec<_>>>()
            .map(OddsColumns)
    }

    /// The highest column whose ratio the strengths meet: the column nearest the ratio
    /// without exceeding it. `None` if even the lowest column is not met. A defence of 0
    /// meets every column.
    pub fn column(&self, attack: u32, defence: u32) -> Option<usize> {
        self.0.iter().rposition(|r| r.met_by(attack, defence))
    }

    /// Shifts a column: negative is left (worse for the attacker). Shifting left past the
    /// first column gives `None`; shifting right past the last stays on the last.
    pub fn shift(&self, col: usize, by: i32) -> Option<usize> {
        let c = col as i32 + by;
        if c < 0 {
            None
        } else {
            Some((c as usize).min(self.0.len() - 1))
        }
    }

    /// Where `attack : defence` falls on the table's ladder of columns continued past both
    /// ends by whole ratios (below a first column of 1-4: 1-5, 1-6, …; above a last of 7-1:
    /// 8-1, 9-1, …), as a signed position: the column index inside the table, negative below
    /// it, `len()` and up above it. Rounded for the defender as [`OddsColumns::column`] is, so
    /// 5 : 12 is 1-3 and 11 : 4 is 2-1. For series (SCS) that shift the odds first and keep
    /// them on the table afterwards ([`OddsColumns::clamp`]); `None` for no attack strength.
    pub fn ladder(&self, attack: u32, defence: u32) -> Option<i64> {
        if attack == 0 || self.0.is_empty() {
            return None;
        }
        if let Some(col) = self.column(attack, defence) {
            let last = self.0.len() - 1;
            let top = self.0[last];
            if col == last && top.den == 1 {
                // Beyond the last column: one more position per whole ratio above it.
                let above = match defence {
                    0 => i64::from(u32::MAX),
                    d => i64::from(attack / d).saturating_sub(i64::from(top.num)),
                };
                return Some(last as i64 + above.max(0));
            }
            return Some(col as i64);
        }
        // Below the first column (1-n): 1-m with m = ⌈defence / attack⌉ sits m - n positions lower.
        let first = self.0[0];
        let m = i64::from(defence.div_ceil(attack));
        Some(-(m - i64::from(first.den.max(1))).max(1))
    }

    /// A ladder position kept on the table: below the first column is the first, above the
    /// last is the last.
    pub fn clamp(&self, pos: i64) -> usize {
        pos.clamp(0, self.0.len().saturating_sub(1) as i64) as usize
    }

    pub fn label(&self, col: usize) -> String {
        self.0[col].label()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A results table: one row per die total (from `die_min`), one result per column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatTable<R> {
    pub columns: OddsColumns,
    pub die_min: i32,
    pub rows: Vec<Vec<R>>,
}

impl<R: Clone> CombatTable<R> {
    /// The result for a die total (clamped into the table) on a column.
    pub fn result(&self, col: usize, die: i32) -> R {
        let last = self.rows.len() as i32 - 1;
        let r = (die - self.die_min).clamp(0, last) as usize;
        self.rows[r][col].clone()
    }

    /// Checks the table is rectangular and matches its columns.
    pub fn check(&self) -> Result<(), String> {
        if self.rows.is_empty() {
            return Err("combat table has no rows".into());
        }
        for (i, row) in self.rows.iter().enumerate() {
            if row.len() != self.columns.len() {
                return Err(format!(
                    "combat table row {i} has {} cells, not {}",
                    row.len(),
                    self.columns.len()
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_goes_on_past_both_ends_and_clamps_after_shifts() {
        let scs = OddsColumns::parse(&["1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1"]).unwrap();
        // Rounded for the defender: 11 : 4 is 2-1, 5 : 12 is 1-3.
        assert_eq!(scs.ladder(11, 4), Some(4));
        assert_eq!(scs.ladder(5, 12), Some(1));
        // 10-1 two columns left is 8-1: still the last column once clamped.
        let ten = scs.ladder(10, 1).unwrap();
        assert_eq!(ten, 12);
        assert_eq!(scs.clamp(ten - 2), 9);
        assert_eq!(scs.clamp(ten - 4), 8, "10-1 four left is 6-1");
        // 1-6 is two below 1-4; one right is still off the table, so 1-4.
        let low = scs.ladder(1, 6).unwrap();
        assert_eq!(low, -2);
        assert_eq!(scs.clamp(low + 1), 0);
        assert_eq!(scs.clamp(low + 3), 1);
        assert_eq!(scs.ladder(0, 3), None);
        // No defence: far above the table, so the last column whatever the shifts.
        assert_eq!(scs.clamp(scs.ladder(3, 0).unwrap() - 20), 9);
    }

    fn cols() -> OddsColumns {
        OddsColumns::parse(&[
            "1-1", "1.5-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1",
        ])
        .unwrap()
    }

    #[test]
    fn nearest_column_not_exceeding() {
        let c = cols();
        let l = |a, d| c.column(a, d).map(|i| c.label(i));
        assert_eq!(l(15, 5).as_deref(), Some("3-1"));
        assert_eq!(l(26, 9).as_deref(), Some("2-1"));
        assert_eq!(l(12, 7).as_deref(), Some("1.5-1"));
        assert_eq!(l(18, 13).as_deref(), Some("1-1"));
        assert_eq!(l(25, 2).as_deref(), Some("10-1"));
        assert_eq!(l(4, 5), None);
        assert_eq!(l(3, 0).as_deref(), Some("10-1"));
    }

    #[test]
    fn shifts() {
        let c = cols();
        let three = c.column(15, 5).unwrap();
        assert_eq!(c.label(c.shift(three, -2).unwrap()), "1.5-1");
        let ten = c.column(12, 1).unwrap();
        assert_eq!(c.label(c.shift(ten, -2).unwrap()), "8-1");
        assert_eq!(c.shift(0, -1), None);
        assert_eq!(c.shift(10, 3), Some(10));
        assert_eq!(Ratio::parse("1-2").unwrap().label(), "1-2");
        assert_eq!(Ratio::parse("x-2"), None);
    }
}

//! Combat tables: odds columns (including fractional ones such as 1.5-1), the rule "take the
//! column nearest the ratio without exceeding it", column shifts, and results as data.
//!
//! Not every game picks its column by odds. Fire tables pick it by the firing strength
//! (Paths of Glory: columns such as `1`, `2`, `6-8`, `16+`) or by fire minus defence (SS
//! Panzer: `-2`, `+1`), then shift it left or right and keep it on the table
//! ([`StrengthColumns`]). Both kinds of column head the same results table, [`CombatTable`]:
//! one row per die roll, one result per column.

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

/// One strength column: the strengths from `low` to `high` (both included), or from `low` up
/// when `high` is `None`. Strengths may be negative (a differential, fire minus defence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthRange {
    pub low: i32,
    pub high: Option<i32>,
}

impl StrengthRange {
    /// Reads a column label: `"5"` (one strength), `"6-8"` (a range; `"6–8"` with an en dash
    /// too), `"16+"` (that strength and up), `"-2"` and `"+1"` (signed, for differentials),
    /// `"-5--3"` (a range of negative ones).
    pub fn parse(label: &str) -> Result<StrengthRange, String> {
        let text = label.trim().replace('–', "-");
        let number = |t: &str| -> Result<i32, String> {
            t.trim()
                .parse::<i32>()
                .map_err(|_| format!("strength column `{label}` is not a strength such as `5`, `6-8` or `16+`"))
        };
        if let Some(low) = text.strip_suffix('+') {
            return Ok(StrengthRange {
                low: number(low)?,
                high: None,
            });
        }
        // A dash after the first character separates a range; one in front is a minus sign.
        match text.get(1..).and_then(|rest| rest.find('-')).map(|i| i + 1) {
            Some(dash) => {
                let (low, high) = (number(&text[..dash])?, number(&text[dash + 1..])?);
                if high < low {
                    return Err(format!("strength column `{label}` runs backward"));
                }
                Ok(StrengthRange { low, high: Some(high) })
            }
            None => {
                let n = number(&text)?;
                Ok(StrengthRange { low: n, high: Some(n) })
            }
        }
    }

    /// Printed form: `5`, `6-8`, `16+`.
    pub fn label(self) -> String {
        match self.high {
            None => format!("{}+", self.low),
            Some(h) if h == self.low => format!("{h}"),
            Some(h) => format!("{}-{h}", self.low),
        }
    }
}

/// The strength columns of a fire table, lowest first: each starts right after the one before
/// it ends, and only the last may be open (`16+`). In a file they are written as their labels,
/// `["1", "2", "3", "4", "5", "6-8", "9-11", "12-14", "15", "16+"]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<String>", into = "Vec<String>")]
pub struct StrengthColumns(Vec<StrengthRange>);

impl StrengthColumns {
    /// Checks that the columns follow each other without gap or overlap, only the last open.
    pub fn new(columns: Vec<StrengthRange>) -> Result<StrengthColumns, String> {
        if columns.is_empty() {
            return Err("a fire table has no strength columns".into());
        }
        for (i, w) in columns.windows(2).enumerate() {
            let (before, col) = (w[0], w[1]);
            let Some(end) = before.high else {
                return Err(format!(
                    "strength column {} (`{}`) is open, but only the last column may be",
                    i + 1,
                    before.label()
                ));
            };
            if end.checked_add(1) != Some(col.low) {
                return Err(format!(
                    "strength column {} (`{}`) does not start right after column {} (`{}`)",
                    i + 2,
                    col.label(),
                    i + 1,
                    before.label()
                ));
            }
        }
        Ok(StrengthColumns(columns))
    }

    /// Reads column labels such as `["1", "2", "6-8", "16+"]`.
    pub fn parse<S: AsRef<str>>(labels: &[S]) -> Result<StrengthColumns, String> {
        let columns = labels
            .iter()
            .map(|l| StrengthRange::parse(l.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        StrengthColumns::new(columns)
    }

    /// The columns, lowest first.
    pub fn ranges(&self) -> &[StrengthRange] {
        &self.0
    }

    /// The column a strength fires on: the one whose range holds it. `None` below the first
    /// column; above a last column that is not open, the last column.
    pub fn column(&self, strength: i32) -> Option<usize> {
        self.0.iter().rposition(|r| r.low <= strength)
    }

    /// Shifts a column: negative is left, positive right. Past either end it stays on the
    /// leftmost or rightmost column.
    pub fn shift(&self, col: usize, by: i32) -> usize {
        (col as i64 + i64::from(by)).clamp(0, self.0.len() as i64 - 1) as usize
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

impl TryFrom<Vec<String>> for StrengthColumns {
    type Error = String;

    fn try_from(labels: Vec<String>) -> Result<StrengthColumns, String> {
        StrengthColumns::parse(&labels)
    }
}

impl From<StrengthColumns> for Vec<String> {
    fn from(columns: StrengthColumns) -> Vec<String> {
        columns.0.iter().map(|r| r.label()).collect()
    }
}

impl TableColumns for StrengthColumns {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn label(&self, col: usize) -> String {
        self.0[col].label()
    }
}

/// What a results table needs to know of its columns, whatever picks them (odds or strength).
pub trait TableColumns {
    /// Number of columns.
    fn len(&self) -> usize;
    /// A column as printed.
    fn label(&self, col: usize) -> String;
    /// Whether there are no columns.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl TableColumns for OddsColumns {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn label(&self, col: usize) -> String {
        self.0[col].label()
    }
}

/// A results table: one row per die total (from `die_min`), one result per column. The
/// columns are odds ratios ([`OddsColumns`], the default) or strengths ([`StrengthColumns`],
/// see [`FireTable`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatTable<R, C = OddsColumns> {
    pub columns: C,
    pub die_min: i32,
    pub rows: Vec<Vec<R>>,
}

/// A fire table: a results table whose column is picked by the firing strength.
pub type FireTable<R> = CombatTable<R, StrengthColumns>;

impl<R: Clone, C: TableColumns> CombatTable<R, C> {
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

    /// Columns as the Paths of Glory Army table heads them (the strengths only; the results
    /// below are made up for the test).
    fn army() -> StrengthColumns {
        StrengthColumns::parse(&["1", "2", "3", "4", "5", "6-8", "9-11", "12-14", "15", "16+"]).unwrap()
    }

    #[test]
    fn the_column_holds_the_strength() {
        let c = army();
        let l = |s| c.column(s).map(|i| c.label(i));
        assert_eq!(l(0), None, "below the first column");
        assert_eq!(l(-3), None);
        assert_eq!(l(1).as_deref(), Some("1"));
        assert_eq!(l(5).as_deref(), Some("5"));
        assert_eq!(l(6).as_deref(), Some("6-8"));
        assert_eq!(l(8).as_deref(), Some("6-8"));
        assert_eq!(l(9).as_deref(), Some("9-11"));
        assert_eq!(l(14).as_deref(), Some("12-14"));
        assert_eq!(l(15).as_deref(), Some("15"));
        assert_eq!(l(16).as_deref(), Some("16+"));
        assert_eq!(l(99).as_deref(), Some("16+"));
        // A table starting at 0 (a corps table, say) and one whose last column is closed.
        let corps = StrengthColumns::parse(&["0", "1", "2", "3", "4", "5", "6", "7", "8+"]).unwrap();
        assert_eq!(corps.column(0), Some(0));
        assert_eq!(corps.column(12), Some(8));
        let closed = StrengthColumns::parse(&["1-2", "3-4"]).unwrap();
        assert_eq!(closed.column(9), Some(1), "above a closed last column: the last");
        // Differentials, as SS Panzer's fire table has them.
        let diff = StrengthColumns::parse(&["-5--3", "-2", "-1", "0", "+1", "+2", "3+"]).unwrap();
        assert_eq!(diff.column(-6), None);
        assert_eq!(diff.column(-4).map(|i| diff.label(i)).as_deref(), Some("-5--3"));
        assert_eq!(diff.column(-2), Some(1));
        assert_eq!(diff.column(1).map(|i| diff.label(i)).as_deref(), Some("1"));
        assert_eq!(diff.column(7), Some(6));
    }

    #[test]
    fn strength_shifts_stay_on_the_table() {
        let c = army();
        let eight = c.column(8).unwrap();
        assert_eq!(c.label(c.shift(eight, -1)), "5");
        assert_eq!(c.label(c.shift(eight, 2)), "12-14");
        assert_eq!(c.shift(eight, -20), 0, "past the leftmost column: the leftmost");
        assert_eq!(c.shift(eight, 20), 9, "past the rightmost column: the rightmost");
        assert_eq!(c.shift(0, i32::MIN), 0);
        assert_eq!(c.shift(9, i32::MAX), 9);
    }

    #[test]
    fn strength_labels_are_checked() {
        let err = |labels: &[&str]| StrengthColumns::parse(labels).unwrap_err();
        assert_eq!(
            err(&["1", "x"]),
            "strength column `x` is not a strength such as `5`, `6-8` or `16+`"
        );
        assert_eq!(err(&["8-6"]), "strength column `8-6` runs backward");
        assert_eq!(
            err(&["1", "2", "4-5"]),
            "strength column 3 (`4-5`) does not start right after column 2 (`2`)"
        );
        assert_eq!(
            err(&["1-3", "3-5"]),
            "strength column 2 (`3-5`) does not start right after column 1 (`1-3`)"
        );
        assert_eq!(
            err(&["1", "2+", "3"]),
            "strength column 2 (`2+`) is open, but only the last column may be"
        );
        assert_eq!(err(&[]), "a fire table has no strength columns");
        assert!(StrengthColumns::parse(&["", "1"]).is_err());
        assert!(StrengthColumns::parse(&["+"]).is_err());
        assert!(StrengthColumns::parse(&["6-"]).is_err());
        assert!(StrengthColumns::parse(&["é"]).is_err());
        // A printed en dash reads as a range.
        assert_eq!(StrengthColumns::parse(&["1-5", "6–8"]).unwrap().label(1), "6-8");
        assert_eq!(
            StrengthRange::parse(" 16+ ").unwrap(),
            StrengthRange { low: 16, high: None }
        );
    }

    /// A fire table read from a data file: the columns by their labels, one row of losses per
    /// die roll, the roll kept between 1 and 6.
    #[test]
    fn a_fire_table_from_a_file() {
        #[derive(Deserialize)]
        struct Tables {
            fire: FireTable<u8>,
        }
        let text = r#"
[fire]
columns = ["1", "2", "3-4", "5+"]
die_min = 1
rows = [
  [0, 0, 1, 1],
  [0, 1, 1, 2],
  [1, 1, 2, 2],
  [1, 1, 2, 3],
  [1, 2, 3, 3],
  [1, 2, 3, 4],
]
"#;
        let t: Tables = toml::from_str(text).unwrap();
        let fire = t.fire;
        fire.check().unwrap();
        let col = fire.columns.shift(fire.columns.column(4).unwrap(), -1);
        assert_eq!(fire.columns.label(col), "2");
        assert_eq!(fire.result(col, 3), 1);
        assert_eq!(fire.result(fire.columns.column(9).unwrap(), 6), 4);
        assert_eq!(fire.result(0, 0), 0, "a roll under 1 counts as 1");
        assert_eq!(fire.result(3, 9), 4, "a roll over 6 counts as 6");
        // Written back, the columns are their labels again.
        assert_eq!(Vec::<String>::from(fire.columns.clone()), ["1", "2", "3-4", "5+"]);
        // Bad labels are refused while reading, with the reason.
        let bad = text.replace("\"3-4\"", "\"4-5\"");
        let e = toml::from_str::<Tables>(&bad).err().unwrap().to_string();
        assert!(
            e.contains("strength column 3 (`4-5`) does not start right after column 2 (`2`)"),
            "{e}"
        );
        // A row too short is found by check().
        let short = FireTable {
            columns: army(),
            die_min: 1,
            rows: vec![vec![0u8; 9]],
        };
        assert_eq!(short.check().unwrap_err(), "combat table row 0 has 9 cells, not 10");
    }
}

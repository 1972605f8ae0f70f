//! A small reader for the comma-separated files in the reference folder and in `geo/`
//! (RFC 4180: quoted fields, doubled quotes inside them; the first line is the header).

use std::path::Path;

/// A CSV file: its header and its rows, every row as long as the header.
pub struct Table {
    pub name: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn read(path: &Path) -> Result<Table, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Table::parse(&path.display().to_string(), &text)
    }

    pub fn parse(name: &str, text: &str) -> Result<Table, String> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut records = Vec::new();
        let mut field = String::new();
        let mut record: Vec<String> = Vec::new();
        let mut quoted = false;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if quoted {
                match c {
                    '"' if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    '"' => quoted = false,
                    _ => field.push(c),
                }
                continue;
            }
            match c {
                '"' if field.is_empty() => quoted = true,
                ',' => record.push(std::mem::take(&mut field)),
                '\r' => {}
                '\n' => {
                    record.push(std::mem::take(&mut field));
                    records.push(std::mem::take(&mut record));
                }
                _ => field.push(c),
            }
        }
        if quoted {
            return Err(format!("{name}: a quoted field is not closed"));
        }
        if !field.is_empty() || !record.is_empty() {
            record.push(field);
            records.push(record);
        }
        records.retain(|r| !(r.len() == 1 && r[0].trim().is_empty()));
        let mut it = records.into_iter();
        let header = it.next().ok_or_else(|| format!("{name}: empty file"))?;
        let mut rows = Vec::new();
        for (i, r) in it.enumerate() {
            if r.len() != header.len() {
                return Err(format!(
                    "{name}: line {} has {} fields; the header has {}",
                    i + 2,
                    r.len(),
                    header.len()
                ));
            }
            rows.push(r);
        }
        Ok(Table {
            name: name.to_string(),
            header,
            rows,
        })
    }

    /// The index of a column, or an error naming the file.
    pub fn col(&self, name: &str) -> Result<usize, String> {
        self.header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("{}: no column `{name}`", self.name))
    }

    /// Checks that the header is exactly `cols`.
    pub fn expect_header(&self, cols: &[&str]) -> Result<(), String> {
        if self.header.iter().map(String::as_str).eq(cols.iter().copied()) {
            Ok(())
        } else {
            Err(format!("{}: the header must be `{}`", self.name, cols.join(",")))
        }
    }
}

/// Parses a number field, naming the file and line when it is not one.
pub fn num(table: &Table, row: usize, col: usize) -> Result<f64, String> {
    let s = table.rows[row][col].trim();
    s.parse()
        .map_err(|_| format!("{}: line {}: `{s}` is not a number", table.name, row + 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields_and_commas() {
        let t = Table::parse("t", "a,b\n\"x, y\",\"say \"\"hi\"\"\"\n1,2\n").unwrap();
        assert_eq!(t.rows[0], ["x, y", "say \"hi\""]);
        assert_eq!(t.rows[1], ["1", "2"]);
        assert!(Table::parse("t", "a,b\n1\n").is_err());
    }
}

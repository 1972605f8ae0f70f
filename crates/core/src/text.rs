//! Bilingual text: everything a player reads comes in Chinese and English.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A language a player reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Zh,
    #[default]
    En,
}

impl Lang {
    /// Reads `zh`/`en` (and locale strings such as `zh_CN.UTF-8`).
    pub fn parse(s: &str) -> Option<Lang> {
        let s = s.trim().to_ascii_lowercase();
        if s.starts_with("zh") {
            Some(Lang::Zh)
        } else if s.starts_with("en") || s == "c" || s == "posix" || s.is_empty() {
            Some(Lang::En)
        } else {
            None
        }
    }
}

/// A sentence in both languages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

impl Text {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Text {
        Text {
            en: en.into(),
            zh: zh.into(),
        }
    }

    /// The text in one language.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::Zh => &self.zh,
            Lang::En => &self.en,
        }
    }

    /// The text in `lang`, the other dropped.
    pub fn into_lang(self, lang: Lang) -> String {
        match lang {
            Lang::Zh => self.zh,
            Lang::En => self.en,
        }
    }

    /// Joins two texts with a separator in each language.
    pub fn join(&self, sep: &str, other: &Text) -> Text {
        Text {
            en: format!("{}{sep}{}", self.en, other.en),
            zh: format!("{}{sep}{}", self.zh, other.zh),
        }
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} / {}", self.en, self.zh)
    }
}

/// Builds a [`Text`] from two format strings sharing arguments:
/// `text!("Move to {h}", "移动到{h}")`.
#[macro_export]
macro_rules! text {
    ($en:literal, $zh:literal $(,)?) => {
        $crate::text::Text { en: format!($en), zh: format!($zh) }
    };
    ($en:literal, $zh:literal, $($arg:tt)*) => {
        $crate::text::Text { en: format!($en, $($arg)*), zh: format!($zh, $($arg)*) }
    };
}

/// Movement points counted in halves, as players read them: `3½ MP` / `3½ 移动力`.
pub fn half_mp(halves: u32) -> Text {
    // The costs a move can have, written once: a legal list notes thousands.
    static FEW: std::sync::OnceLock<Vec<Text>> = std::sync::OnceLock::new();
    if let Some(t) = FEW
        .get_or_init(|| (0..64).map(write_half_mp).collect())
        .get(halves as usize)
    {
        return t.clone();
    }
    write_half_mp(halves)
}

fn write_half_mp(halves: u32) -> Text {
    let whole = (halves / 2).to_string();
    let half = if halves % 2 == 1 { "½" } else { "" };
    Text::new(concat(&[&whole, half, " MP"]), concat(&[&whole, half, " 移动力"]))
}

/// The pieces written one after the other, in a string made once at its length: for the texts
/// of a legal list of thousands of actions, where `format!` would grow each string step by step.
pub fn concat(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        s.push_str(p);
    }
    s
}

#[cfg(test)]
mod half_mp_tests {
    #[test]
    fn halves_read_as_players_write_them() {
        assert_eq!(super::half_mp(7).en, "3½ MP");
        assert_eq!(super::half_mp(10).zh, "5 移动力");
        assert_eq!(super::half_mp(63).en, "31½ MP");
        assert_eq!(super::half_mp(64).en, "32 MP");
        assert_eq!(super::half_mp(301).zh, "150½ 移动力");
    }
}

/// The lines of a text, found once, so that the line of many byte offsets (the entries of a
/// data file, for its error messages) is looked up rather than counted from the start each time.
pub struct Lines {
    /// The byte offset of each line break.
    breaks: Vec<usize>,
    len: usize,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        Lines {
            breaks: text
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i)
                .collect(),
            len: text.len(),
        }
    }

    /// The line (from 1) of a byte offset; an offset past the end is on the last line.
    pub fn at(&self, offset: usize) -> usize {
        let end = offset.min(self.len);
        // The line breaks before `end`.
        self.breaks.partition_point(|&b| b < end) + 1
    }
}

#[cfg(test)]
mod lines_tests {
    use super::Lines;

    #[test]
    fn the_line_of_every_offset_is_the_count_of_breaks_before_it_plus_one() {
        for text in ["", "a", "\n", "a\nb\nc", "\n\nab\n\ncd\n", "ab\r\nc\n", "名\n字\n"] {
            let lines = Lines::new(text);
            for offset in 0..text.len() + 3 {
                let end = offset.min(text.len());
                let counted = text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1;
                assert_eq!(lines.at(offset), counted, "{text:?} at {offset}");
            }
        }
    }
}

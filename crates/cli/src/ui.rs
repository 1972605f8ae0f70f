//! How the command line talks to a player: in Chinese or English, on stdout for results and
//! stderr for errors, never with a Rust panic.
//!
//! Everything a player reads goes through [`Text`] (both languages) and is printed in the
//! language chosen with `--lang` or, failing that, from the locale (`LC_ALL`, `LC_MESSAGES`,
//! `LANG`: `zh*` is Chinese, anything else English). A command that fails returns a
//! [`Failure`], which `main` prints as one clear line and turns into a non-zero exit code.

use sandtable_catalog::CatalogError;
use sandtable_core::game::JournalLine;
use sandtable_core::text::{Lang, Text};
use std::io::Write;

/// Builds a [`Text`] from an English and a Chinese format string sharing arguments.
macro_rules! tr {
    ($en:literal, $zh:literal $(,)?) => {
        sandtable_core::text::Text { en: format!($en), zh: format!($zh) }
    };
    ($en:literal, $zh:literal, $($arg:tt)*) => {
        sandtable_core::text::Text { en: format!($en, $($arg)*), zh: format!($zh, $($arg)*) }
    };
}
pub(crate) use tr;

/// Prints a line on stdout. A closed pipe (`sandtable legal f | head`) ends the program
/// quietly instead of panicking as `println!` would.
macro_rules! out {
    () => { $crate::ui::emit(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::ui::emit(format_args!("{}\n", format_args!($($arg)*))) };
}
pub(crate) use out;

/// Writes to stdout; see [`out!`].
pub fn emit(args: std::fmt::Arguments) {
    let mut stdout = std::io::stdout().lock();
    if stdout.write_fmt(args).and_then(|_| stdout.flush()).is_err() {
        std::process::exit(0);
    }
}

/// Prints a prompt (no newline) and flushes it.
pub fn prompt(text: &str) {
    emit(format_args!("{text}"));
}

/// The language from the locale: `LC_ALL`, then `LC_MESSAGES`, then `LANG` (the first that
/// is set and not empty); `zh*` means Chinese, anything else English.
pub fn lang_from_env() -> Lang {
    for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
        if let Ok(v) = std::env::var(var) {
            if !v.trim().is_empty() {
                return lang_of(&v);
            }
        }
    }
    Lang::En
}

/// `zh*` is Chinese, anything else English.
pub fn lang_of(s: &str) -> Lang {
    if s.trim().to_ascii_lowercase().starts_with("zh") {
        Lang::Zh
    } else {
        Lang::En
    }
}

/// The language named by `--lang` in raw arguments, for messages printed before (or instead
/// of) a successful parse of the command line.
pub fn lang_from_args(args: &[std::ffi::OsString]) -> Option<Lang> {
    let mut it = args.iter().map(|a| a.to_string_lossy());
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        if a == "--lang" {
            return it.next().map(|v| lang_of(&v));
        }
        if let Some(v) = a.strip_prefix("--lang=") {
            return Some(lang_of(v));
        }
    }
    None
}

/// A command that did not do what was asked: the message, in both languages, and the exit
/// code.
#[derive(Debug)]
pub struct Failure {
    pub text: Text,
    pub code: u8,
}

impl Failure {
    /// A failure with exit code 1.
    pub fn new(text: Text) -> Failure {
        Failure { text, code: 1 }
    }

    /// Puts `context` in front of the message: "cannot open x.json: …".
    pub fn context(self, context: Text) -> Failure {
        Failure {
            text: Text::new(
                format!("{}: {}", context.en, self.text.en),
                format!("{}:{}", context.zh, self.text.zh),
            ),
            code: self.code,
        }
    }
}

impl From<CatalogError> for Failure {
    fn from(e: CatalogError) -> Failure {
        Failure::new(e.text())
    }
}

/// A result whose error a player reads.
pub type CmdResult<T = ()> = Result<T, Failure>;

/// Prints log lines, headings set off from the rest.
pub fn print_journal(lines: &[JournalLine], lang: Lang) {
    for l in lines {
        if l.heading {
            out!("== {} ==", l.text.get(lang));
        } else {
            out!("  {}", l.text.get(lang));
        }
    }
}

/// The lines of `after` that are new since `before` (both as one seat reads the log). Lines
/// hidden from the seat before may have opened since (at the end of a game everything is
/// shown), so `before` is found as a subsequence of `after`, not only as its prefix.
pub fn new_lines(before: &[JournalLine], after: &[JournalLine]) -> Vec<JournalLine> {
    if after.len() >= before.len() && after[..before.len()] == *before {
        return after[before.len()..].to_vec();
    }
    let mut matched = 0;
    let mut end = 0;
    for (i, line) in after.iter().enumerate() {
        if matched < before.len() && *line == before[matched] {
            matched += 1;
            end = i + 1;
        }
    }
    after[end..].to_vec()
}

/// Prints a text block (a summary, the board) unless it is empty.
pub fn print_block(text: &str) {
    let text = text.trim_end();
    if !text.is_empty() {
        out!("{text}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> JournalLine {
        JournalLine {
            heading: false,
            text: Text::new(s, s),
            marks: Vec::new(),
        }
    }

    #[test]
    fn new_lines_after_a_prefix_and_after_hidden_lines_open() {
        let before = vec![line("a"), line("b")];
        let after = vec![line("a"), line("b"), line("c")];
        assert_eq!(new_lines(&before, &after), vec![line("c")]);
        // A whispered line `x` opened when the game ended.
        let after = vec![line("a"), line("x"), line("b"), line("c"), line("d")];
        assert_eq!(new_lines(&before, &after), vec![line("c"), line("d")]);
    }

    #[test]
    fn languages_from_locales_and_arguments() {
        assert_eq!(lang_of("zh_CN.UTF-8"), Lang::Zh);
        assert_eq!(lang_of("en_US.UTF-8"), Lang::En);
        assert_eq!(lang_of("C"), Lang::En);
        let args: Vec<std::ffi::OsString> = ["sandtable", "games", "--lang", "zh"].iter().map(Into::into).collect();
        assert_eq!(lang_from_args(&args), Some(Lang::Zh));
        let args: Vec<std::ffi::OsString> = ["sandtable", "--lang=en"].iter().map(Into::into).collect();
        assert_eq!(lang_from_args(&args), Some(Lang::En));
    }
}

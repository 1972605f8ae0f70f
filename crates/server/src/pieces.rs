//! The board's pieces layer sent as what changed (docs/api.md, "pieces_delta"): a page that has
//! the layer of an earlier version says so (`pieces_from`), and receives the new layer as runs
//! of the lines it has and the new lines between them. A move in a movement phase changes a
//! few stacks of a layer of some thousand lines.

use sandtable_core::game::Seat;
use sandtable_core::text::Lang;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

/// A pieces layer as last sent for one seat's view in one language.
pub struct Kept {
    version: usize,
    you: Option<Seat>,
    lang: Lang,
    text: Arc<str>,
}

/// The layers a game keeps: the last one sent for each seat's view and language, at most this
/// many (the oldest goes first).
const KEPT: usize = 4;

/// Keeps `text`, the layer of `version` as `you` sees it in `lang`, in place of the one kept for
/// that view before; answers that one if it was of version `from`.
pub fn keep(
    kept: &mut Vec<Kept>,
    version: usize,
    you: Option<Seat>,
    lang: Lang,
    text: Arc<str>,
    from: Option<usize>,
) -> Option<Arc<str>> {
    let before = kept
        .iter()
        .position(|k| k.you == you && k.lang == lang)
        .map(|i| kept.remove(i));
    if kept.len() >= KEPT {
        kept.remove(0);
    }
    kept.push(Kept {
        version,
        you,
        lang,
        text,
    });
    before.filter(|k| Some(k.version) == from).map(|k| k.text)
}

/// One step of rebuilding the new layer: a run of the old layer's lines (the first and how
/// many), or a line of the new one.
#[derive(Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Step {
    Old([usize; 2]),
    New(String),
}

/// A line shorter than this is sent as itself rather than as a run of one old line (`</g>`).
const SHORT: usize = 16;

/// The steps that make `new` from `old`, both split at `\n` and joined again by it: each line
/// of `new` found in `old` extends the run before it when it follows it there, else starts a
/// run where that line first stands.
pub fn delta(old: &str, new: &str) -> Vec<Step> {
    let lines: Vec<&str> = old.split('\n').collect();
    let mut at: HashMap<&str, usize> = HashMap::with_capacity(lines.len());
    for (i, l) in lines.iter().enumerate().rev() {
        at.insert(l, i);
    }
    let mut steps: Vec<Step> = Vec::new();
    for line in new.split('\n') {
        if let Some(Step::Old([first, n])) = steps.last_mut() {
            if lines.get(*first + *n) == Some(&line) {
                *n += 1;
                continue;
            }
        }
        match at.get(line) {
            Some(&i) if line.len() >= SHORT => steps.push(Step::Old([i, 1])),
            _ => steps.push(Step::New(line.to_string())),
        }
    }
    steps
}

/// The layer of a page document: whole, or as the steps from the layer of version `from`.
pub enum Pieces {
    Whole(Arc<str>),
    Delta { from: usize, steps: Vec<Step> },
}

/// The layer `text` of `version` for the page of `you` in `lang` that has the layer of version
/// `from` (if any): as steps when the game kept that one, else whole.
pub fn for_page(
    kept: &std::sync::Mutex<Vec<Kept>>,
    version: usize,
    you: Option<Seat>,
    lang: Lang,
    text: String,
    from: Option<usize>,
) -> Pieces {
    let text: Arc<str> = text.into();
    let mut kept = kept.lock().unwrap_or_else(|p| p.into_inner());
    match (from, keep(&mut kept, version, you, lang, text.clone(), from)) {
        (Some(from), Some(old)) => Pieces::Delta {
            from,
            steps: delta(&old, &text),
        },
        _ => Pieces::Whole(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a page does with the steps.
    fn rebuild(old: &str, steps: &[Step]) -> String {
        let lines: Vec<&str> = old.split('\n').collect();
        let mut out: Vec<&str> = Vec::new();
        for s in steps {
            match s {
                Step::Old([first, n]) => out.extend(&lines[*first..first + n]),
                Step::New(l) => out.push(l),
            }
        }
        out.join("\n")
    }

    #[test]
    fn a_layer_is_rebuilt_from_the_one_before_and_what_changed() {
        let old = "<g class='pieces'>\n<g class='stack' data-hex='A1'>one counter here</g>\n</g>\n<g class='stack' data-hex='A2'>another counter there</g>\n<path d='a long marker line'/>\n</g>\n";
        let cases = [
            old.to_string(),
            old.replace("A2", "A3"),
            old.replace("<path d='a long marker line'/>\n", ""),
            format!("{old}<g class='stack' data-hex='B9'>a new stack at the end</g>"),
            format!("<g class='x'>\n{old}"),
            old.lines().rev().collect::<Vec<_>>().join("\n"),
            String::new(),
        ];
        for new in &cases {
            let steps = delta(old, new);
            assert_eq!(&rebuild(old, &steps), new);
        }
        // Nothing changed: one run of every line.
        assert_eq!(delta(old, old), [Step::Old([0, old.split('\n').count()])]);
        // A stack moved: the lines around it are runs, the changed one is sent.
        let moved = old.replace("A2", "A3");
        let steps = delta(old, &moved);
        let sent: Vec<&str> = steps
            .iter()
            .filter_map(|s| if let Step::New(l) = s { Some(l.as_str()) } else { None })
            .collect();
        assert_eq!(sent, ["<g class='stack' data-hex='A3'>another counter there</g>"]);
    }

    #[test]
    fn each_view_keeps_its_last_layer_and_gives_it_back_for_its_version() {
        let mut kept = Vec::new();
        let text = |s: &str| Arc::<str>::from(s);
        assert_eq!(keep(&mut kept, 1, Some(0), Lang::En, text("a"), Some(0)), None);
        assert_eq!(keep(&mut kept, 1, Some(1), Lang::En, text("b"), None), None);
        // The other seat's, or the other language's, is not this view's.
        assert_eq!(keep(&mut kept, 2, Some(0), Lang::Zh, text("c"), Some(1)), None);
        assert_eq!(
            keep(&mut kept, 2, Some(0), Lang::En, text("d"), Some(1)).as_deref(),
            Some("a")
        );
        // Only for the version asked from.
        assert_eq!(keep(&mut kept, 3, Some(0), Lang::En, text("e"), Some(1)), None);
        for v in 0..10 {
            keep(&mut kept, v, None, Lang::En, text("f"), None);
            keep(&mut kept, v, Some(v as Seat % 2), Lang::Zh, text("g"), None);
        }
        assert!(kept.len() <= KEPT);
    }
}

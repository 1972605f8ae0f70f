//! `sandtable play`: a whole game in the terminal, against the computer or hot-seat.
//!
//! At every decision of a human seat the player sees the situation, the board around the
//! action and the numbered legal actions, and types a number or a notation — or one of the
//! few commands (`u` undo, `l` log, `s` save, `q` quit, `?` help). A computer seat acts at
//! once and its action is printed. Input is read line by line from stdin, so a game can be
//! piped in for tests; the end of the input quits cleanly.

use crate::args::{Opponent, PlayArgs};
use crate::board;
use crate::file_cmds::{note_suffix, print_outcome, print_reconstructed_note, refused, seat_label, undo_last};
use crate::saves::{self, Save};
use crate::ui::{new_lines, out, print_block, print_journal, prompt, tr, CmdResult, Failure};
use sandtable_catalog::{agent_seed, find, CatalogError, DynAgent, GameEntry};
use sandtable_core::chance::Rng;
use sandtable_core::game::{ActionKind, Pending, Seat};
use sandtable_core::record::{DynSession, LegalAction, RecordError};
use sandtable_core::text::{Lang, Text};
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// A game being played in the terminal.
struct Play {
    entry: GameEntry,
    session: Box<dyn DynSession>,
    lang: Lang,
    /// The seats the computer plays.
    computer: Vec<Seat>,
    /// The human's seat against the computer (`None` hot-seat: everyone is human).
    human: Option<Seat>,
    agent: String,
    /// The computer player of each computer seat, kept for the whole game.
    agents: Vec<(Seat, Box<dyn DynAgent>)>,
    rng: Rng,
    /// Saved after every action (`--save`).
    autosave: Option<PathBuf>,
    /// Where `s` saves without a file name: `--save`, or the last file saved to.
    save_to: Option<PathBuf>,
    /// Actions taken since the last save.
    dirty: bool,
    /// The notation of each action number shown (number 1 first), kept while one seat goes
    /// on deciding: a number always names the action it was shown with, and one whose action
    /// is no longer legal is refused rather than taken for another.
    numbers: Vec<String>,
    numbered_for: Option<Seat>,
    /// The numbers of the other seats, kept while this one decides.
    kept: std::collections::HashMap<Seat, Vec<String>>,
    /// The unit whose actions are listed, picked by typing its id: a hex typed then takes
    /// its action there.
    focus: Option<String>,
    /// The map's hexes, read once from its drawing (for `map`).
    hexes: Option<board::Hexes>,
    /// The spaces and lines of a point-to-point map, read once.
    spaces: Option<board::Spaces>,
}

type Input<'a> = std::io::Lines<std::io::StdinLock<'a>>;

/// One line of input, or `None` at the end of the input (or if it cannot be read).
fn read_line(input: &mut Input) -> Option<String> {
    match input.next() {
        Some(Ok(line)) => Some(line),
        _ => None,
    }
}

pub fn run(args: &PlayArgs, lang: Lang) -> CmdResult {
    let (entry, session, fresh) = match &args.load {
        Some(path) => {
            let Save { entry, session } = saves::open(path)?;
            (entry, session, false)
        }
        None => {
            // Without a game id, the first game of the catalog.
            let entry = match args.game.as_deref() {
                Some(game) => find(game)?,
                None => sandtable_catalog::games()
                    .into_iter()
                    .next()
                    .ok_or_else(|| Failure::new(tr!("this build has no games", "此版本没有任何游戏")))?,
            };
            let session = saves::start(&entry, &args.scenario, args.seed)?;
            (entry, session, true)
        }
    };

    let ai = args
        .ai
        .clone()
        .unwrap_or_else(|| entry.agents.last().map_or("random", |a| a).to_string());
    let (computer, human) = match args.vs {
        Opponent::Ai => {
            if !entry.has_agent(&ai) {
                return Err(CatalogError::UnknownAgent {
                    game: entry.id.to_string(),
                    found: ai.clone(),
                    known: entry.agents.iter().map(|s| s.to_string()).collect(),
                }
                .into());
            }
            let human = match args.side.as_deref() {
                Some(s) => entry.seat(s)?,
                None => 0,
            };
            let computer = (0..entry.seats.len())
                .filter_map(|s| Seat::try_from(s).ok())
                .filter(|&s| s != human)
                .collect();
            (computer, Some(human))
        }
        Opponent::Human => (Vec::new(), None),
    };

    if let Some(path) = &args.save {
        let same_as_loaded = args.load.as_deref().is_some_and(|l| same_file(l, path));
        if path.exists() && !same_as_loaded {
            let p = path.display();
            return Err(Failure::new(tr!(
                "{p} already exists; continue it with --load {p} --save {p}, or choose another file",
                "{p} 已存在;可用 --load {p} --save {p} 继续该局,或换一个文件名"
            )));
        }
    }

    let seed = session.record().seed;
    let agents = computer
        .iter()
        .map(|&seat| entry.agent(&ai).map(|a| (seat, a)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut play = Play {
        entry,
        session,
        lang,
        computer,
        human,
        agent: ai.clone(),
        agents,
        rng: Rng::from_seed(agent_seed(seed)),
        autosave: args.save.clone(),
        save_to: args.save.clone().or_else(|| args.load.clone()),
        dirty: false,
        numbers: Vec::new(),
        numbered_for: None,
        kept: Default::default(),
        focus: None,
        hexes: None,
        spaces: None,
    };
    play.intro(
        fresh,
        args.scenario.scenario.as_deref(),
        args.scenario.scenario_file.is_some(),
    );
    if play.autosave.is_some() {
        play.autosave_now();
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    play.main_loop(&mut input)
}

/// Whether two paths name the same file (both existing), or are spelled the same.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

impl Play {
    fn say(&self, text: Text) {
        out!("{}", text.get(self.lang));
    }

    fn warn(&self, failure: &Failure) {
        out!("! {}", failure.text.get(self.lang));
    }

    fn label(&self, seat: Seat) -> String {
        seat_label(&self.entry, self.session.as_ref(), seat, self.lang)
    }

    /// Whose view the log and the situation are shown from when `seat` decides.
    fn viewer(&self, deciding: Seat) -> Seat {
        self.human.unwrap_or(deciding)
    }

    fn intro(&self, fresh: bool, scenario: Option<&str>, from_file: bool) {
        let lang = self.lang;
        let record = self.session.record();
        let seed = record.seed;
        out!("{}", self.entry.title.get(lang));
        if fresh {
            self.say(tr!("Seed: {seed}", "种子:{seed}"));
            if !from_file {
                let id = self.entry.scenario(scenario).map(|s| s.id.clone()).ok();
                print_reconstructed_note(&self.entry, id.as_deref(), lang);
            }
        }
        match self.human {
            Some(h) => {
                let me = self.label(h);
                let them: Vec<String> = self.computer.iter().map(|&s| self.label(s)).collect();
                let them = them.join(", ");
                let agent = &self.agent;
                self.say(tr!(
                    "You play {me}; the computer ({agent}) plays {them}.",
                    "你执 {me};电脑({agent})执 {them}。"
                ));
            }
            None => self.say(tr!(
                "Hot-seat: every seat is played at this keyboard.",
                "轮流对战:所有座位都在本键盘上操作。"
            )),
        }
        self.say(help_text());
    }

    fn main_loop(&mut self, input: &mut Input) -> CmdResult {
        let mut show = true;
        loop {
            match self.session.pending() {
                Pending::Over => {
                    out!();
                    print_outcome(self.session.as_ref(), self.lang);
                    if self.dirty && self.autosave.is_none() {
                        self.offer_save(input);
                    }
                    return Ok(());
                }
                Pending::Chance => {
                    // A session always lets chance act before it returns.
                    return Err(Failure::new(tr!(
                        "the game stopped where chance must act (a bug)",
                        "游戏停在需要随机事件的地方(程序错误)"
                    )));
                }
                Pending::Seat(seat) if self.computer.contains(&seat) => {
                    self.computer_move(seat)?;
                    show = true;
                }
                Pending::Seat(seat) => {
                    if show {
                        self.show_decision(seat);
                        show = false;
                    }
                    // A seat whose side a bid decided says it in the prompt too.
                    match self.session.seat_side(seat) {
                        Some(side) => prompt(&format!("{} ({})> ", self.entry.seat_id(seat), side.get(self.lang))),
                        None => prompt(&format!("{}> ", self.entry.seat_id(seat))),
                    }
                    let Some(line) = read_line(input) else {
                        out!();
                        self.end_of_input();
                        return Ok(());
                    };
                    match self.human_line(seat, line.trim(), input) {
                        Step::Again => {}
                        Step::Changed => show = true,
                        Step::Show => show = true,
                        Step::Quit => return Ok(()),
                    }
                }
            }
        }
    }

    /// Handles one line typed at a human decision.
    fn human_line(&mut self, seat: Seat, line: &str, input: &mut Input) -> Step {
        let legal = self.session.legal();
        if line.is_empty() {
            return Step::Show;
        }
        // `#N` is always action number N.
        if let Some(n) = line.strip_prefix('#').and_then(|n| n.trim().parse::<i64>().ok()) {
            return self.take_number(seat, n, &legal);
        }
        // Once a unit is picked, one of its hexes (hex ids may be numbers too: `1513`).
        if let Some(unit) = self.focus.clone() {
            let its_hex = legal.iter().any(|a| {
                a.targets.units.first() == Some(&unit) && a.targets.hexes.iter().any(|h| h.eq_ignore_ascii_case(line))
            });
            if its_hex {
                return self.unit_at(seat, &unit, line, &legal);
            }
        }
        // A number names the action it was shown with.
        if let Ok(n) = line.parse::<i64>() {
            // Numbers are shown without a leading zero; hex ids such as `0101` have one.
            let shown = usize::try_from(n).is_ok_and(|n| n >= 1 && n <= self.numbers.len())
                && !(line.len() > 1 && line.starts_with('0'));
            let on_map = self.on_map(line);
            if let (false, true, Some(unit)) = (shown, on_map, self.focus.clone()) {
                return self.unit_at(seat, &unit, line, &legal);
            }
            return self.take_number(seat, n, &legal);
        }
        // A legal action by its notation first, so no game's notation is shadowed by a command.
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
        if let Some(action) = legal.iter().find(|a| norm(&a.notation) == norm(line)).cloned() {
            return self.take(seat, &action);
        }
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or("").to_lowercase();
        let rest: Vec<&str> = words.collect();
        match command.as_str() {
            "?" | "h" | "help" => {
                self.say(help_text());
                return Step::Again;
            }
            "q" | "quit" | "exit" => {
                if self.dirty && self.autosave.is_none() {
                    self.offer_save(input);
                } else if let Some(p) = &self.autosave {
                    let p = p.display();
                    self.say(tr!("The game is saved in {p}.", "游戏已保存在 {p}。"));
                }
                return Step::Quit;
            }
            "u" | "undo" => {
                return match self.undo() {
                    Ok(()) => Step::Changed,
                    Err(f) => {
                        self.warn(&f);
                        Step::Again
                    }
                }
            }
            "l" | "log" => {
                let all = self.session.journal(Some(self.viewer(seat)));
                let n = if rest.first() == Some(&"all") { all.len() } else { 30 };
                print_journal(&all[all.len().saturating_sub(n)..], self.lang);
                return Step::Again;
            }
            "s" | "save" => {
                let target = match rest.as_slice() {
                    [] => self.save_to.clone(),
                    words => Some(PathBuf::from(words.join(" "))),
                };
                match target {
                    Some(path) => {
                        self.save_as(&path);
                    }
                    None => {
                        prompt(tr!("File name: ", "文件名:").get(self.lang));
                        if let Some(name) = read_line(input).filter(|n| !n.trim().is_empty()) {
                            self.save_as(Path::new(name.trim()));
                        }
                    }
                }
                return Step::Again;
            }
            "m" | "map" => {
                self.print_map(seat, &rest, &legal);
                return Step::Again;
            }
            "b" | "back" | ".." => {
                self.focus = None;
                return Step::Show;
            }
            _ => {}
        }
        // A unit's id: its actions.
        if let Some(unit) = legal
            .iter()
            .filter_map(|a| a.targets.units.first())
            .find(|u| u.eq_ignore_ascii_case(line))
            .cloned()
        {
            self.focus = Some(unit.clone());
            self.show_unit(&unit, &legal);
            return Step::Again;
        }
        // A hex, once a unit is picked: its action there.
        if let Some(unit) = self.focus.clone() {
            let on_map = self.on_map(line);
            if on_map {
                return self.unit_at(seat, &unit, line, &legal);
            }
        }
        self.try_typed(seat, line, line)
    }

    /// The picked unit's action at hex `line`: taken if there is one, listed if several, else
    /// the rules' reason why it cannot act there.
    fn unit_at(&mut self, seat: Seat, unit: &str, line: &str, legal: &[LegalAction]) -> Step {
        {
            let unit = unit.to_string();
            let mine: Vec<&LegalAction> = legal
                .iter()
                .filter(|a| a.targets.units.first() == Some(&unit))
                .collect();
            let there: Vec<&LegalAction> = mine
                .iter()
                .copied()
                .filter(|a| a.targets.hexes.iter().any(|h| h.eq_ignore_ascii_case(line)))
                .collect();
            match there.as_slice() {
                [one] => {
                    let one = (*one).clone();
                    return self.take(seat, &one);
                }
                [] => {}
                several => {
                    let n = several.len();
                    self.say(tr!(
                        "{n} actions of {unit} concern {line}; type the number of one:",
                        "{unit} 有 {n} 个行动涉及 {line};请输入其中一个的编号:"
                    ));
                    for a in several {
                        self.print_action(a);
                    }
                    return Step::Again;
                }
            }
            // Not one of its hexes: the rules say why.
            {
                let template = mine.iter().find(|a| {
                    matches!(a.targets.kind, ActionKind::Move | ActionKind::Attack) && !a.targets.hexes.is_empty()
                });
                if let Some(t) = template {
                    let hex = &t.targets.hexes[0];
                    let typed: Vec<String> = t
                        .notation
                        .split_whitespace()
                        .map(|w| if w == hex { line.to_string() } else { w.to_string() })
                        .collect();
                    return self.try_typed(seat, &typed.join(" "), line);
                }
            }
        }
        self.try_typed(seat, line, line)
    }

    /// Acts on `typed` (the notation of an action that is not in the list): the rules refuse
    /// it with their reason and rule, or, if it reads as no action at all, says so.
    fn try_typed(&mut self, seat: Seat, typed: &str, line: &str) -> Step {
        let viewer = self.viewer(seat);
        let before = self.session.journal(Some(viewer));
        match self.session.act_typed(seat, typed) {
            Ok(()) => {
                out!("{}: {typed}", self.label(seat));
                print_journal(&new_lines(&before, &self.session.journal(Some(viewer))), self.lang);
                self.after_change();
                Step::Changed
            }
            Err(RecordError::Refused(r))
                if !r.rule.is_empty() || !r.text.en.contains("is not one of the legal actions") =>
            {
                self.warn(&refused(RecordError::Refused(r)));
                Step::Again
            }
            Err(_) => {
                self.warn(&Failure::new(tr!(
                    "`{line}` is neither a legal action nor a command (type ? for help; press Enter to list the actions again)",
                    "“{line}”既不是合法行动也不是命令(输入 ? 查看帮助;按回车重新列出行动)"
                )));
                Step::Again
            }
        }
    }

    /// Action number `n` as it was shown in this run of decisions.
    fn take_number(&mut self, seat: Seat, n: i64, legal: &[LegalAction]) -> Step {
        let max = self.numbers.len();
        let Some(notation) = usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| self.numbers.get(i))
            .cloned()
        else {
            self.warn(&Failure::new(tr!(
                "`{n}` is not a number between 1 and {max}",
                "“{n}”不是 1 到 {max} 之间的编号"
            )));
            return Step::Again;
        };
        match legal.iter().find(|a| a.notation == notation).cloned() {
            Some(action) => self.take(seat, &action),
            None => {
                self.warn(&Failure::new(tr!(
                    "number {n} was `{notation}`, which is not legal any more (the list has changed); here is the list as it is now",
                    "编号 {n} 是“{notation}”,它已不再合法(列表已变);以下是当前的列表"
                )));
                Step::Show
            }
        }
    }

    /// Takes a legal action and prints what it did.
    fn take(&mut self, seat: Seat, action: &LegalAction) -> Step {
        let viewer = self.viewer(seat);
        let before = self.session.journal(Some(viewer));
        if let Err(e) = self.session.act_json(seat, &action.action) {
            self.warn(&refused(e));
            return Step::Again;
        }
        out!(
            "{}: {} — {}",
            self.label(seat),
            action.notation,
            action.text.get(self.lang)
        );
        print_journal(&new_lines(&before, &self.session.journal(Some(viewer))), self.lang);
        self.after_change();
        Step::Changed
    }

    /// Numbers the actions of `legal` not yet numbered, after those of the same seat's
    /// earlier decisions; a new seat deciding starts again from 1.
    fn renumber(&mut self, seat: Seat, legal: &[LegalAction]) {
        // Each seat keeps its numbers while the other seats act in between (the computer's
        // replies); they start again from 1 when none of them is legal any more (a new kind
        // of decision).
        if self.numbered_for != Some(seat) {
            if let Some(before) = self.numbered_for {
                self.kept.insert(before, std::mem::take(&mut self.numbers));
            }
            self.numbers = self.kept.remove(&seat).unwrap_or_default();
            self.numbered_for = Some(seat);
        }
        let known: std::collections::HashSet<String> = self.numbers.iter().cloned().collect();
        if !legal.iter().any(|a| known.contains(&a.notation)) {
            self.numbers.clear();
        }
        let known: std::collections::HashSet<String> = self.numbers.iter().cloned().collect();
        for a in legal {
            if !known.contains(&a.notation) {
                self.numbers.push(a.notation.clone());
            }
        }
    }

    fn number(&self, notation: &str) -> usize {
        self.numbers.iter().position(|n| n == notation).map_or(0, |i| i + 1)
    }

    fn print_action(&self, a: &LegalAction) {
        let text = a.text.get(self.lang);
        let note = note_suffix(a, text, self.lang);
        out!("  {:>5}. {}  {text}{note}", self.number(&a.notation), a.notation);
    }

    /// The counters' names on the board, by id.
    fn unit_names(&self, seat: Seat) -> std::collections::HashMap<String, String> {
        let pieces = board::pieces(&self.session.render_pieces(Some(self.viewer(seat)), self.lang));
        pieces.into_values().flatten().map(|p| (p.id, p.title)).collect()
    }

    /// The legal actions as the page lists them: under their headings, and where a heading
    /// holds many actions of units, by unit (type a unit's id to list its actions).
    fn print_grouped(&self, seat: Seat, legal: &[LegalAction]) {
        let lang = self.lang;
        let mut groups: Vec<(String, Vec<&LegalAction>)> = Vec::new();
        for a in legal {
            let heading = a.targets.group.get(lang).to_string();
            match groups.iter_mut().find(|(h, _)| *h == heading) {
                Some((_, list)) => list.push(a),
                None => groups.push((heading, vec![a])),
            }
        }
        let big = legal.len() > 40;
        let names = if big { self.unit_names(seat) } else { Default::default() };
        for (heading, list) in groups {
            if !heading.is_empty() {
                out!("{heading}:");
            }
            let (by_unit, single): (Vec<&LegalAction>, Vec<&LegalAction>) = list
                .iter()
                .partition(|a| big && !a.targets.units.is_empty() && a.targets.kind != ActionKind::Other);
            if !by_unit.is_empty() {
                let mut units: Vec<(&str, usize)> = Vec::new();
                for a in &by_unit {
                    let u = a.targets.units[0].as_str();
                    match units.iter_mut().find(|(x, _)| *x == u) {
                        Some((_, n)) => *n += 1,
                        None => units.push((u, 1)),
                    }
                }
                let k = units.len();
                self.say(tr!(
                    "  {k} units; type a unit's id to list its actions, then a number or a hex:",
                    "  共 {k} 个单位;输入单位代号列出其行动,再输入编号或格号:"
                ));
                for (u, n) in units {
                    let name = names.get(u).map(String::as_str).unwrap_or("");
                    out!("    {u:<18} {name}  — {}", tr!("{n} actions", "{n} 个行动").get(lang));
                }
            }
            for a in single {
                self.print_action(a);
            }
        }
    }

    /// The actions of one unit, by kind, numbered.
    fn show_unit(&self, unit: &str, legal: &[LegalAction]) {
        let mine: Vec<&LegalAction> = legal
            .iter()
            .filter(|a| a.targets.units.first().map(String::as_str) == Some(unit))
            .collect();
        let n = mine.len();
        self.say(tr!(
            "{unit}: {n} actions (type a number, or a hex or space to take its action there; `map` shows them on the board, `back` the whole list):",
            "{unit}:共 {n} 个行动(输入编号,或输入格号或区域执行该处的行动;`map` 在地图上显示,`back` 回到完整列表):"
        ));
        for kind in [
            ActionKind::Move,
            ActionKind::Attack,
            ActionKind::Place,
            ActionKind::Choose,
            ActionKind::Other,
        ] {
            let of_kind: Vec<&&LegalAction> = mine.iter().filter(|a| a.targets.kind == kind).collect();
            if of_kind.is_empty() {
                continue;
            }
            let heading = of_kind[0].targets.group.get(self.lang).to_string();
            out!("{heading}:");
            // Many actions each at one hex: the first in full, then number, hex and note.
            let one_hex = of_kind.iter().all(|a| a.targets.hexes.len() == 1);
            if of_kind.len() > 12 && one_hex {
                self.print_action(of_kind[0]);
                let items: Vec<String> = of_kind
                    .iter()
                    .map(|a| {
                        let note = a
                            .targets
                            .note
                            .as_ref()
                            .map(|n| n.get(self.lang).to_string())
                            .unwrap_or_default();
                        let item = format!("{:>5} {} {note}", self.number(&a.notation), a.targets.hexes[0]);
                        format!("{item:<24}")
                    })
                    .collect();
                for chunk in items.chunks(5) {
                    out!("  {}", chunk.concat().trim_end());
                }
            } else {
                for a in of_kind {
                    self.print_action(a);
                }
            }
        }
    }

    fn hexes(&mut self) -> &board::Hexes {
        if self.hexes.is_none() {
            self.hexes = Some(board::hexes(&self.session.render_map(self.lang)));
        }
        self.hexes.get_or_insert_with(board::Hexes::default)
    }

    fn spaces(&mut self) -> &board::Spaces {
        if self.spaces.is_none() {
            self.spaces = Some(board::spaces(&self.session.render_map(self.lang)));
        }
        self.spaces.get_or_insert_with(board::Spaces::default)
    }

    /// Whether `id` is a hex or a space of the map.
    fn on_map(&mut self, id: &str) -> bool {
        self.hexes().cells.iter().any(|c| c.id.eq_ignore_ascii_case(id))
            || self.spaces().places.iter().any(|p| p.id.eq_ignore_ascii_case(id))
    }

    /// `map [HEX] [RADIUS]`: the board around a hex or a space (the picked unit's, else the first
    /// of the actions), with the picked unit's destinations marked.
    fn print_map(&mut self, seat: Seat, args: &[&str], legal: &[LegalAction]) {
        let point_to_point = self.hexes().cells.is_empty() && !self.spaces().places.is_empty();
        let radius = args
            .iter()
            .find_map(|a| a.parse::<u32>().ok().filter(|r| *r <= 12))
            .unwrap_or(if point_to_point { 1 } else { 3 });
        let pieces_svg = self.session.render_pieces(Some(self.viewer(seat)), self.lang);
        let pieces = board::pieces(&pieces_svg);
        let hex_arg = if point_to_point {
            // A space's name may be of several words ("Brest Litovsk").
            let words: Vec<&str> = args.iter().copied().filter(|a| a.parse::<u32>().is_err()).collect();
            (!words.is_empty()).then(|| words.join(" "))
        } else {
            args.iter()
                .find(|a| a.parse::<u32>().map_or(true, |r| r > 12))
                .map(|s| s.to_string())
        };
        let unit_hex = self.focus.as_ref().and_then(|u| {
            pieces
                .iter()
                .find(|(_, list)| list.iter().any(|p| &p.id == u))
                .map(|(h, _)| h.clone())
        });
        let first = legal.iter().find_map(|a| a.targets.hexes.first().cloned());
        let Some(centre) = hex_arg.or(unit_hex).or(first) else {
            self.warn(&Failure::new(if point_to_point {
                tr!(
                    "which space? type map SPACE (and how many lines out, 1 if left out)",
                    "哪个区域?请输入 map 区域(可加连线数,缺省为 1)"
                )
            } else {
                tr!(
                    "which hex? type map HEX (and a radius, 3 if left out)",
                    "哪一格?请输入 map 格号(可加半径,缺省为 3)"
                )
            }));
            return;
        };
        let mut marked = std::collections::BTreeMap::new();
        if let Some(u) = &self.focus {
            for a in legal.iter().filter(|a| a.targets.units.first() == Some(u)) {
                for h in &a.targets.hexes {
                    let note = a.targets.note.as_ref().map(|n| n.get(self.lang).to_string());
                    marked.insert(
                        h.clone(),
                        format!("{} {}", self.number(&a.notation), note.unwrap_or_default()),
                    );
                }
            }
        }
        let lang = self.lang;
        if point_to_point {
            // Without a number given, far enough to show every space the picked unit may go to.
            let given = args.iter().any(|a| a.parse::<u32>().is_ok_and(|r| r <= 12));
            let radius = match self.spaces().lines_out(&centre, marked.keys()) {
                Some(far) if !given => far.clamp(1, 6),
                _ => radius,
            };
            let notes = board::space_notes(&pieces_svg);
            match board::around_spaces(self.spaces(), &pieces, &notes, &centre, radius, &marked) {
                Some(text) => {
                    out!(
                        "{}",
                        tr!(
                            "The board within {radius} line(s) of {centre} (each space with the spaces its lines go to, who holds it if not its owner, its trench and fort, and its counters; * where the picked unit may act, with its number):",
                            "{centre} 周围 {radius} 条连线内的局面(每个区域及其连线通往的区域、非原属方的控制、战壕与要塞,以及算子;* 为所选单位可行动之处,附编号):"
                        )
                        .get(lang)
                    );
                    print_block(&text);
                }
                None => self.warn(&Failure::new(tr!(
                    "there is no space {centre} on this map",
                    "地图上没有 {centre} 这一区域"
                ))),
            }
            return;
        }
        if self.hexes().cells.is_empty() {
            self.warn(&Failure::new(tr!("this game draws no map", "该游戏没有地图")));
            return;
        }
        match board::around(self.hexes(), &pieces, &centre, radius, &marked) {
            Some(text) => {
                out!(
                    "{}",
                    tr!(
                        "The board within {radius} hexes of {centre} (id, top counter, +more; * where the picked unit may act, with its number):",
                        "{centre} 周围 {radius} 格内的局面(格号、最上面的算子、+其余数目;* 为所选单位可行动之处,附编号):"
                    )
                    .get(lang)
                );
                print_block(&text);
            }
            None => self.warn(&Failure::new(tr!(
                "there is no hex {centre} on this map",
                "地图上没有 {centre} 这一格"
            ))),
        }
    }

    fn show_decision(&mut self, seat: Seat) {
        let lang = self.lang;
        out!();
        out!("{}", "-".repeat(72));
        let viewer = self.viewer(seat);
        print_block(&self.session.summary(Some(viewer), lang));
        let board = self.session.board_text(Some(viewer), lang);
        if !board.trim().is_empty() {
            out!();
            print_block(&board);
        }
        // What the decision is about (a combat being fought), as it stands.
        let context = self.session.context();
        if !context.is_empty() {
            out!();
            for line in &context {
                print_block(line.get(lang));
            }
        }
        out!();
        let legal = self.session.legal();
        self.renumber(seat, &legal);
        let who = self.label(seat);
        let n = legal.len();
        let actions = if n == 1 { "action" } else { "actions" };
        self.say(tr!(
            "{who} to decide — {n} legal {actions}:",
            "轮到 {who} 决定 —— 共 {n} 个合法行动:"
        ));
        match self.focus.clone() {
            Some(u) if legal.iter().any(|a| a.targets.units.first() == Some(&u)) => self.show_unit(&u, &legal),
            _ => {
                self.focus = None;
                self.print_grouped(seat, &legal);
            }
        }
    }

    fn computer_move(&mut self, seat: Seat) -> CmdResult {
        let agent = &mut self
            .agents
            .iter_mut()
            .find(|(s, _)| *s == seat)
            .ok_or_else(|| {
                Failure::new(tr!(
                    "no computer player for this seat (a bug)",
                    "此座位没有电脑玩家(程序错误)"
                ))
            })?
            .1;
        let i = agent.choose(self.session.as_ref(), &mut self.rng)?;
        let legal = self.session.legal();
        let Some(action) = legal.get(i) else {
            return Err(Failure::new(tr!(
                "the computer player chose an action that is not in the list (a bug)",
                "电脑玩家选择了列表之外的行动(程序错误)"
            )));
        };
        let viewer = self.human.unwrap_or(seat);
        let before = self.session.journal(Some(viewer));
        self.session.act_json(seat, &action.action).map_err(refused)?;
        let seen = new_lines(&before, &self.session.journal(Some(viewer)));
        let who = self.label(seat);
        // The action itself is shown unless it is a secret (a chit put in the cup); then the
        // human reads only what the log lets them.
        if !action.secret {
            self.say(tr!(
                "Computer ({who}): {} — {}",
                "电脑({who}):{} — {}",
                action.notation,
                action.text.get(self.lang)
            ));
        } else {
            self.say(tr!("Computer ({who}) has chosen.", "电脑({who})已做出选择。"));
        }
        print_journal(&seen, self.lang);
        self.after_change();
        Ok(())
    }

    /// Takes back the human's last action. Against the computer, the computer's replies
    /// since are taken back with it (all of them must be undoable).
    fn undo(&mut self) -> CmdResult {
        let Some(human) = self.human else {
            let (seat, undone) = undo_last(self.session.as_mut())?;
            self.report_undo(seat, undone);
            self.after_change();
            return Ok(());
        };
        let entries = &self.session.record().entries;
        let mut i = entries.len();
        while i > 0 && !entries[i - 1].barrier && entries[i - 1].seat.is_some_and(|s| self.computer.contains(&s)) {
            i -= 1;
        }
        let mine = i > 0 && entries[i - 1].seat == Some(human) && !entries[i - 1].barrier;
        if !mine {
            return Err(Failure::new(tr!(
                "nothing to undo: your last action is behind a die roll, a draw or a reveal, or you have not acted yet",
                "无法撤销:你的最后一步之后已经掷骰、抽取或公开了信息,或者你还没有行动"
            )));
        }
        let steps = entries.len() - (i - 1);
        let mut last = None;
        for _ in 0..steps {
            last = Some(undo_last(self.session.as_mut())?);
        }
        if let Some((seat, undone)) = last {
            self.report_undo(seat, undone);
        }
        self.after_change();
        Ok(())
    }

    fn report_undo(&self, seat: Seat, undone: Option<sandtable_core::record::LegalAction>) {
        let who = self.label(seat);
        match undone {
            Some(a) => self.say(tr!(
                "Undone: {who}: {} — {}",
                "已撤销:{who}:{} — {}",
                a.notation,
                a.text.get(self.lang)
            )),
            None => self.say(tr!("Undone: the last action of {who}.", "已撤销 {who} 的最后一步。")),
        }
    }

    /// After an action or an undo: save if asked to.
    fn after_change(&mut self) {
        self.dirty = true;
        if self.autosave.is_some() {
            self.autosave_now();
        }
    }

    fn autosave_now(&mut self) {
        if let Some(path) = self.autosave.clone() {
            match saves::write(&path, self.session.as_ref()) {
                Ok(()) => self.dirty = false,
                Err(f) => self.warn(&f),
            }
        }
    }

    /// Saves to `path`, refusing to overwrite a file that is not this game's own.
    fn save_as(&mut self, path: &Path) -> bool {
        let ours = self.save_to.as_deref().is_some_and(|p| same_file(p, path));
        if path.exists() && !ours {
            let p = path.display();
            self.warn(&Failure::new(tr!(
                "{p} already exists and is not this game's file; choose another name",
                "{p} 已存在且不是本局的文件;请换一个文件名"
            )));
            return false;
        }
        match saves::write(path, self.session.as_ref()) {
            Ok(()) => {
                let p = path.display();
                self.say(tr!("Saved to {p}.", "已保存到 {p}。"));
                self.save_to = Some(path.to_path_buf());
                self.dirty = false;
                true
            }
            Err(f) => {
                self.warn(&f);
                false
            }
        }
    }

    /// Before quitting with unsaved actions: asks for a file name (Enter: don't save).
    fn offer_save(&mut self, input: &mut Input) {
        loop {
            let question = match &self.save_to {
                Some(p) => {
                    let p = p.display();
                    tr!(
                        "Save to {p} before quitting? y = yes, Enter = no, or type another file name: ",
                        "退出前保存到 {p} 吗?y = 保存,回车 = 不保存,或输入其他文件名:"
                    )
                }
                None => tr!(
                    "Save before quitting? Type a file name, or press Enter to quit without saving: ",
                    "退出前要保存吗?输入文件名,或按回车不保存退出:"
                ),
            };
            prompt(question.get(self.lang));
            let Some(line) = read_line(input) else {
                out!();
                self.say(tr!("Not saved.", "未保存。"));
                return;
            };
            let line = line.trim();
            if line.is_empty() {
                self.say(tr!("Not saved.", "未保存。"));
                return;
            }
            let yes = ["y", "yes", "是"].contains(&line.to_lowercase().as_str());
            let path = match (&self.save_to, yes) {
                (Some(p), true) => p.clone(),
                _ => PathBuf::from(line),
            };
            if self.save_as(&path) {
                return;
            }
        }
    }

    fn end_of_input(&mut self) {
        match (&self.autosave, self.dirty) {
            (Some(p), _) => {
                let p = p.display();
                self.say(tr!(
                    "End of input. The game is saved in {p}.",
                    "输入结束。游戏已保存在 {p}。"
                ));
            }
            (None, true) => self.say(tr!("End of input; the game was not saved.", "输入结束;游戏未保存。")),
            (None, false) => self.say(tr!("End of input.", "输入结束。")),
        }
    }
}

/// What a typed line did.
enum Step {
    /// Nothing changed: prompt again.
    Again,
    /// An action or an undo: show the new decision.
    Changed,
    /// Show the decision again.
    Show,
    Quit,
}

fn help_text() -> Text {
    tr!(
        "Type the number or the notation of an action, or a unit's id to list its actions and then a hex or space to take its action there (#N is action N where a hex id reads as a number). A number keeps its action while you go on deciding; one whose action is no longer legal is refused. Commands: map [HEX|SPACE] [RADIUS] the board around a hex or space, back the whole list, u undo, l log (l all: the whole log), s [FILE] save, q quit, ? help; Enter lists the actions again.",
        "输入行动的编号或写法,或输入单位代号列出其行动,再输入格号或区域执行该处的行动(格号与编号相混时,#N 表示第 N 号行动)。你连续决定期间编号始终指同一行动;已不合法的编号会被拒绝。命令:map [格号|区域] [半径] 显示某格或区域周围的局面,back 回到完整列表,u 撤销,l 日志(l all:全部日志),s [文件] 保存,q 退出,? 帮助;回车重新列出行动。"
    )
}

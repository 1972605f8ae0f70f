//! The commands that work on one save file, one step at a time: `new`, `show`, `legal`,
//! `act`, `undo`, `render` and `replay`. They let a player (or a script, or play by mail)
//! run a whole game from the shell, and every one of them refuses rather than writes a
//! damaged or illegal state: a save is only ever rewritten after the action was accepted.

use crate::args::NewArgs;
use crate::saves::{self, deciding, viewer, Save};
use crate::ui::{new_lines, out, print_block, print_journal, tr, CmdResult, Failure};
use sandtable_catalog::{find, GameEntry};
use sandtable_core::game::{Pending, Seat};
use sandtable_core::record::{DynSession, RecordError};
use sandtable_core::text::Lang;
use std::path::Path;

/// `new`: a new save file.
pub fn new(args: &NewArgs, lang: Lang) -> CmdResult {
    let entry = find(&args.game)?;
    let path = args.output.as_path();
    if path.exists() && !args.force {
        let p = path.display();
        return Err(Failure::new(tr!(
            "{p} already exists; choose another file or add --force to overwrite it",
            "{p} 已存在;请换一个文件名,或加 --force 覆盖"
        )));
    }
    let session = saves::start(&entry, &args.scenario, args.seed)?;
    let seed = session.record().seed;
    saves::write(path, session.as_ref())?;

    let p = path.display();
    let scenario = match &args.scenario.scenario_file {
        Some(f) => f.display().to_string(),
        None => entry
            .scenario(args.scenario.scenario.as_deref())
            .map(|s| s.id.clone())
            .unwrap_or_default(),
    };
    let title = entry.title.get(lang);
    out!(
        "{}",
        tr!(
            "Wrote {p}: {title}, scenario {scenario}, seed {seed}.",
            "已写入 {p}:{title},剧本 {scenario},种子 {seed}。"
        )
        .get(lang)
    );
    print_reconstructed_note(
        &entry,
        args.scenario.scenario_file.is_none().then_some(scenario.as_str()),
        lang,
    );
    out!();
    print_block(&session.summary(deciding(session.as_ref()), lang));
    out!();
    out!(
        "{}",
        tr!("Next: sandtable legal {p}", "下一步:sandtable legal {p}").get(lang)
    );
    Ok(())
}

/// Tells the player when a shipped scenario rests on reconstructed data.
pub fn print_reconstructed_note(entry: &GameEntry, scenario: Option<&str>, lang: Lang) {
    let Some(info) = scenario.and_then(|id| entry.scenarios.iter().find(|s| s.id == id)) else {
        return;
    };
    if info.reconstructed {
        out!("{}{}", tr!("Note: ", "注意:").get(lang), info.note.get(lang));
    }
}

/// Who a seat is, for messages: "axis (Axis)"; where a bid decided the seat's side (a Paths of
/// Glory tournament), the game's words for it in place of the seat's name: "cp (Player 1,
/// Allied Powers)".
pub fn seat_label(entry: &GameEntry, session: &dyn DynSession, seat: Seat, lang: Lang) -> String {
    let id = entry.seat_id(seat);
    let name = match session.seat_side(seat) {
        Some(side) => side,
        None => entry.seat_name(seat),
    };
    let name = name.get(lang);
    if name.eq_ignore_ascii_case(&id) {
        id
    } else if lang == Lang::Zh {
        // The name first in Chinese: the id is what is typed (`--side german`).
        format!("{name}({id})")
    } else {
        format!("{id} ({name})")
    }
}

/// Prints the outcome if the game is over.
pub fn print_outcome(session: &dyn DynSession, lang: Lang) {
    if let Some(o) = session.outcome() {
        out!("{}{}", tr!("Game over: ", "游戏结束:").get(lang), o.text.get(lang));
    }
}

/// `show`: the situation and the last log lines.
pub fn show(file: &Path, as_seat: Option<&str>, lines: usize, lang: Lang) -> CmdResult {
    let Save { entry, session } = saves::open(file)?;
    let seat = viewer(&entry, as_seat, deciding(session.as_ref()))?;
    let who = match seat {
        Some(s) => seat_label(&entry, session.as_ref(), s, lang),
        None => tr!("spectator", "旁观者").get(lang).to_string(),
    };
    out!(
        "{} — {}",
        entry.title.get(lang),
        tr!("as {who}", "视角:{who}").get(lang)
    );
    let summary = session.summary(seat, lang);
    print_block(&summary);
    // The summary of a finished game may already say how it ended.
    if session.outcome().is_some_and(|o| !summary.contains(o.text.get(lang))) {
        print_outcome(session.as_ref(), lang);
    }
    let status = status_lines(session.as_ref(), seat, lang);
    if !status.is_empty() {
        out!();
        for line in status {
            out!("{line}");
        }
    }
    // What the pending decision is about (a combat being fought), as it stands.
    let context = session.context();
    if !context.is_empty() {
        out!();
        for line in &context {
            print_block(line.get(lang));
        }
    }
    let journal = session.journal(seat);
    let tail = &journal[journal.len().saturating_sub(lines)..];
    if !tail.is_empty() {
        out!();
        out!("{}", tr!("Latest log:", "最近日志:").get(lang));
        print_journal(tail, lang);
    }
    Ok(())
}

/// What the board shows besides the counters in their hexes, in words: the labels on hexes
/// (barrage markers, ZOC Bonds, demolition charges), the units marked DG, the units off the
/// map by where they are (a rail box, the turn track) and a reserve pool. Read from the game's
/// own view and board, so any game that writes them gets them listed.
pub fn status_lines(session: &dyn DynSession, seat: Option<sandtable_core::game::Seat>, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    let zh = lang == Lang::Zh;
    let view = session.view(seat);
    let name = |u: &serde_json::Value| -> String {
        let n = u[if zh { "name_zh" } else { "name_en" }]
            .as_str()
            .or_else(|| u["id"].as_str())
            .unwrap_or("?")
            .to_string();
        let values = u["factors"].as_str().map(|f| format!(" ({f})")).unwrap_or_default();
        format!("{n}{values}")
    };
    let units = view["units"].as_array().cloned().unwrap_or_default();
    let map_svg = session.render_map(lang);
    let map = crate::board::hexes(&map_svg);
    // A hex, or a space of a point-to-point map.
    let on_map =
        |loc: &str| map.cells.iter().any(|c| c.id == loc) || map_svg.contains(&format!("data-space=\"{loc}\""));
    // Units marked DG, with their hex.
    let dg: Vec<String> = units
        .iter()
        .filter(|u| u["dg"] == serde_json::json!(true))
        .map(|u| format!("{} @{}", name(u), u["loc"].as_str().unwrap_or("?")))
        .collect();
    if !dg.is_empty() {
        out.push(format!(
            "{} ({}): {}",
            tr!("DG", "混乱(DG)").get(lang),
            dg.len(),
            dg.join("; ")
        ));
    }
    // Units somewhere other than a hex, by place.
    let place = |key: &str| -> String {
        match key {
            "rail-box" => tr!("Rail box", "铁路运输框"),
            "track" => tr!("On the turn track", "回合记录表上"),
            "arriving" => tr!("Arriving", "即将到达"),
            "set-up" => tr!("To be set up", "待布置"),
            "pool" => tr!("Reserve pool", "预备池"),
            "reserve" => tr!("Reserve Box", "预备队区"),
            "eliminated" => tr!("Eliminated", "已被消灭"),
            "removed" => tr!("Removed from the game", "已移出游戏"),
            other => sandtable_core::text::Text::new(other, other),
        }
        .get(lang)
        .to_string()
    };
    let mut off: Vec<(String, Vec<String>)> = Vec::new();
    for u in &units {
        let Some(loc) = u["loc"].as_str() else { continue };
        if on_map(loc) {
            continue;
        }
        match off.iter_mut().find(|(l, _)| l == loc) {
            Some((_, list)) => list.push(name(u)),
            None => off.push((loc.to_string(), vec![name(u)])),
        }
    }
    if let Some(pool) = view["pool"].as_array().filter(|p| !p.is_empty()) {
        off.push(("pool".into(), pool.iter().map(name).collect()));
    }
    for (loc, list) in off {
        out.push(format!("{} ({}): {}", place(&loc), list.len(), list.join("; ")));
    }
    // Labels on hexes.
    let labels = crate::board::hex_labels(&map, &session.render_pieces(seat, lang));
    if !labels.is_empty() {
        out.push(tr!("Marked hexes:", "标记的格子:").get(lang).to_string());
        // What each mark means, from the game's own legend (its first column the sign).
        let charts = session.charts();
        let legend = charts.iter().find(|c| c.id == "legend");
        for (label, hexes) in labels {
            let meaning = legend
                .and_then(|c| c.rows.iter().find(|r| r.first().is_some_and(|s| s.en == label)))
                .and_then(|r| r.get(1))
                .map(|t| format!(" — {}", t.get(lang)))
                .unwrap_or_default();
            out.push(format!("  {label} ({}){meaning}: {}", hexes.len(), hexes.join(" ")));
        }
    }
    out
}

/// `legal`: the legal actions of the pending decision.
pub fn legal(file: &Path, json: bool, lang: Lang) -> CmdResult {
    let Save { entry, session } = saves::open(file)?;
    let pending = session.pending();
    let legal = session.legal();
    if json {
        let actions: Vec<serde_json::Value> = legal
            .iter()
            .enumerate()
            .map(|(i, a)| {
                // What the web API gives of each action too: the counters and hexes it is
                // about, the note for the hex (a movement cost), how it is taken, its heading.
                serde_json::json!({
                    "number": i + 1,
                    "notation": a.notation,
                    "text": a.text,
                    "action": a.action,
                    "secret": a.secret,
                    "units": a.targets.units,
                    "hexes": a.targets.hexes,
                    "note": a.targets.note,
                    "kind": a.targets.kind,
                    "group": a.targets.group,
                })
            })
            .collect();
        let value = serde_json::json!({
            "game": entry.id,
            "pending": pending,
            "seat": deciding(session.as_ref()).map(|s| entry.seat_id(s)),
            "actions": actions,
            "outcome": session.outcome(),
        });
        out!("{}", serde_json::to_string_pretty(&value).unwrap_or_default());
        return Ok(());
    }
    match pending {
        Pending::Seat(seat) => {
            let who = seat_label(&entry, session.as_ref(), seat, lang);
            let n = legal.len();
            let actions = if n == 1 { "action" } else { "actions" };
            out!(
                "{}",
                tr!(
                    "{who} to decide — {n} legal {actions}:",
                    "轮到 {who} 决定 —— 共 {n} 个合法行动:"
                )
                .get(lang)
            );
            print_legal(&legal, lang);
        }
        Pending::Over => print_outcome(session.as_ref(), lang),
        Pending::Chance => out!("{}", tr!("Chance acts next.", "下一步由随机事件决定。").get(lang)),
    }
    Ok(())
}

/// Prints numbered legal actions: number, notation, words.
pub fn print_legal(legal: &[sandtable_core::record::LegalAction], lang: Lang) {
    let width = legal
        .iter()
        .map(|a| a.notation.chars().count())
        .max()
        .unwrap_or(0)
        .min(32);
    let digits = legal.len().to_string().len();
    for (i, a) in legal.iter().enumerate() {
        let text = a.text.get(lang);
        let note = note_suffix(a, text, lang);
        out!("  {:>digits$}. {:<width$}  {text}{note}", i + 1, a.notation);
    }
}

/// The note the page shows beside an action's button (its cost, say), as ` (note)`, unless the
/// action's words already say it.
pub fn note_suffix(a: &sandtable_core::record::LegalAction, text: &str, lang: Lang) -> String {
    a.targets
        .note
        .as_ref()
        .map(|n| n.get(lang))
        .filter(|n| !text.contains(n))
        .map(|n| format!(" ({n})"))
        .unwrap_or_default()
}

/// The message of a refused action (with its rule, where the rules give one).
pub fn refused(e: RecordError) -> Failure {
    Failure::from(sandtable_catalog::CatalogError::Record(e))
}

/// `act`: one action of the seat that must decide.
pub fn act(file: &Path, words: &[String], lang: Lang) -> CmdResult {
    let Save { entry, mut session } = saves::open(file)?;
    let Some(seat) = deciding(session.as_ref()) else {
        let text = match session.outcome() {
            Some(o) => sandtable_core::text::Text::new(
                format!("the game is over, no action can be taken: {}", o.text.en),
                format!("游戏已结束,不能再行动:{}", o.text.zh),
            ),
            None => tr!("no seat has a decision to make", "现在没有座位需要做决定"),
        };
        return Err(Failure::new(text));
    };
    let typed = words.join(" ");
    let before = session.journal(Some(seat));
    let legal = session.legal();
    let result = if typed.trim_start().starts_with('{') {
        // The JSON form of an action (as `legal --json` prints it): the rules check it
        // themselves, so a refusal cites the rule it breaks.
        let value: serde_json::Value = serde_json::from_str(&typed).map_err(|e| {
            Failure::new(tr!(
                "`{typed}` is not a valid JSON action: {e}",
                "“{typed}”不是有效的 JSON 行动:{e}"
            ))
        })?;
        session.act_json(seat, &value)
    } else {
        session.act_typed(seat, &typed)
    };
    result.map_err(refused)?;
    saves::write(file, session.as_ref())?;

    let chosen = chosen_action(&legal, &typed).or_else(|| {
        let value: serde_json::Value = serde_json::from_str(&typed).ok()?;
        legal.iter().find(|a| a.action == value)
    });
    let who = seat_label(&entry, session.as_ref(), seat, lang);
    match chosen {
        Some(a) => out!("{who}: {} — {}", a.notation, a.text.get(lang)),
        None => out!("{who}: {typed}"),
    }
    print_journal(&new_lines(&before, &session.journal(Some(seat))), lang);
    out!();
    print_block(&session.summary(Some(seat), lang));
    print_outcome(session.as_ref(), lang);
    Ok(())
}

/// The legal action a typed line named (as `act_typed` reads it: a 1-based number or the
/// notation, case and spacing aside).
pub fn chosen_action<'a>(
    legal: &'a [sandtable_core::record::LegalAction],
    typed: &str,
) -> Option<&'a sandtable_core::record::LegalAction> {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    let want = norm(typed);
    match want.parse::<usize>() {
        Ok(n) => n.checked_sub(1).and_then(|i| legal.get(i)),
        Err(_) => legal.iter().find(|a| norm(&a.notation) == want),
    }
}

/// Takes back the last action of the seat that took it. Returns that seat and the action
/// undone (as it now appears among the legal actions), if it can be found.
pub fn undo_last(session: &mut dyn DynSession) -> CmdResult<(Seat, Option<sandtable_core::record::LegalAction>)> {
    let last = session.record().entries.last().cloned();
    let Some(seat) = last.as_ref().and_then(|e| e.seat) else {
        return Err(Failure::new(tr!(
            "nothing to undo: no action has been taken since the last die roll or draw",
            "无法撤销:上次掷骰或抽取之后还没有人行动"
        )));
    };
    session
        .undo(seat)
        .map_err(|e| Failure::from(sandtable_catalog::CatalogError::Record(e)))?;
    let action = last.and_then(|e| e.action);
    let undone = session.legal().into_iter().find(|a| Some(&a.action) == action.as_ref());
    Ok((seat, undone))
}

/// `undo`: takes back the last action, if allowed.
pub fn undo(file: &Path, lang: Lang) -> CmdResult {
    let Save { entry, mut session } = saves::open(file)?;
    let (seat, undone) = undo_last(session.as_mut())?;
    saves::write(file, session.as_ref())?;
    let who = seat_label(&entry, session.as_ref(), seat, lang);
    match undone {
        Some(a) => out!(
            "{}",
            tr!(
                "Undone: {who}: {} — {}",
                "已撤销:{who}:{} — {}",
                a.notation,
                a.text.get(lang)
            )
            .get(lang)
        ),
        None => out!(
            "{}",
            tr!("Undone: the last action of {who}.", "已撤销 {who} 的最后一步。").get(lang)
        ),
    }
    out!();
    print_block(&session.summary(Some(seat), lang));
    Ok(())
}

/// `render`: the map as SVG.
pub fn render(file: &Path, output: &Path, as_seat: Option<&str>, lang: Lang) -> CmdResult {
    let Save { entry, session } = saves::open(file)?;
    let seat = viewer(&entry, as_seat, deciding(session.as_ref()))?;
    let svg = session.render_svg(seat, lang);
    sandtable_core::record::write_atomic(output, &svg).map_err(|e| {
        let p = output.display();
        Failure::new(tr!("cannot write {p}: {e}", "无法写入 {p}:{e}"))
    })?;
    let p = output.display();
    if svg.is_empty() {
        eprintln!(
            "{}",
            tr!(
                "warning: {} cannot draw its map yet; {p} is empty",
                "警告:{} 还不能绘制地图;{p} 为空",
                entry.id
            )
            .get(lang)
        );
    } else {
        out!("{}", tr!("Wrote {p}.", "已写入 {p}。").get(lang));
    }
    Ok(())
}

/// `replay`: replays the record, checking every checksum; prints the log unless only
/// verifying.
pub fn replay(file: &Path, verify: bool, as_seat: Option<&str>, lang: Lang) -> CmdResult {
    let text = saves::read_text(file)?;
    let session = match sandtable_catalog::load_any(&text) {
        Ok(s) => s,
        Err(e) => {
            let p = file.display();
            return Err(Failure::from(e).context(tr!("replay of {p} failed", "重演 {p} 失败")));
        }
    };
    let entry = find(session.game_id())?;
    let steps = session.record().entries.len();
    if !verify {
        let seat = viewer(&entry, as_seat, None)?;
        print_journal(&session.journal(seat), lang);
        print_outcome(session.as_ref(), lang);
        out!();
    }
    out!(
        "{}",
        tr!("ok: {steps} steps verified", "ok:已验证 {steps} 步").get(lang)
    );
    Ok(())
}

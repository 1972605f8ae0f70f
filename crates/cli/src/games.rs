//! `sandtable games`: what this build can play — each game with its seats, its scenarios
//! (and which of them rest on reconstructed data, with the note that says what was
//! reconstructed), and its computer players.

use crate::ui::{out, tr, CmdResult, Failure};
use sandtable_catalog::games;
use sandtable_core::text::Lang;

pub fn run(json: bool, lang: Lang) -> CmdResult {
    let all = games();
    if json {
        let text = serde_json::to_string_pretty(&all)
            .map_err(|e| Failure::new(tr!("cannot write the list as JSON: {e}", "无法把列表写成 JSON:{e}")))?;
        out!("{text}");
        return Ok(());
    }
    for (i, g) in all.iter().enumerate() {
        if i > 0 {
            out!();
        }
        out!("{}  {}", g.id, g.title.get(lang));
        let seats: Vec<String> = g
            .seats
            .iter()
            .enumerate()
            .map(|(n, s)| format!("{} ({n}, {})", s.id, s.name.get(lang)))
            .collect();
        out!("  {}{}", tr!("seats: ", "座位:").get(lang), seats.join(", "));
        out!("  {}", tr!("scenarios:", "剧本:").get(lang));
        for s in &g.scenarios {
            let mark = if s.reconstructed {
                tr!("  [reconstructed data]", "  [重建数据]").get(lang).to_string()
            } else {
                String::new()
            };
            out!("    {}  {}{mark}", s.id, s.name.get(lang));
            if !s.note.get(lang).is_empty() {
                out!("      {}", s.note.get(lang));
            }
        }
        out!(
            "  {}{}",
            tr!("computer players: ", "电脑玩家:").get(lang),
            g.agents.join(", ")
        );
    }
    Ok(())
}

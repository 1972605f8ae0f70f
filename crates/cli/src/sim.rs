//! `sandtable sim`: many games between computer players, to see how a scenario plays out
//! (who wins how often, how long games run, how fast the engine is) and to shake out dead
//! ends, which stop the run with the seed that reproduces them.

use crate::args::SimArgs;
use crate::saves;
use crate::ui::{out, tr, CmdResult, Failure};
use sandtable_catalog::{find, SimSpec};
use sandtable_core::record::ScenarioSource;
use sandtable_core::text::Lang;
use std::io::IsTerminal;

pub fn run(args: &SimArgs, lang: Lang) -> CmdResult {
    let entry = find(&args.game)?;
    let source = saves::scenario_source(
        &entry,
        args.scenario.scenario.as_deref(),
        args.scenario.scenario_file.as_deref(),
    )?;
    let seats = entry.seats.len();
    // The game's agents are listed weakest first: the last is its strongest.
    let strongest = entry.agents.last().map_or("random", |a| a).to_string();
    let agents: Vec<String> = match args.agents.as_slice() {
        [] => vec![strongest; seats],
        [one] => vec![one.trim().to_string(); seats],
        many => many.iter().map(|a| a.trim().to_string()).collect(),
    };
    let agents: [String; 2] = agents.try_into().map_err(|given: Vec<String>| {
        let n = given.len();
        Failure::new(tr!(
            "--agents needs one computer player per seat ({seats} for {}), separated by commas; {n} given",
            "--agents 需要为每个座位各指定一个电脑玩家({} 需要 {seats} 个,用逗号分隔);实际给了 {n} 个",
            entry.id
        ))
    })?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let seed = args.seed.unwrap_or_else(saves::clock_seed);
    let spec = SimSpec {
        scenario: source,
        games: args.games,
        seed,
        agents: agents.clone(),
        threads,
        max_decisions: args.max_decisions,
    };

    let bar = if args.json || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else {
        let bar = indicatif::ProgressBar::new(args.games);
        // Placeholders for indicatif, not for `format!`.
        let template = sandtable_core::text::Text::new(
            "{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})",
            "{bar:40} {pos}/{len} 局  {elapsed_precise}(剩余 {eta})",
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(template.get(lang)) {
            bar.set_style(style);
        }
        bar
    };
    let progress = |done: u64| bar.set_position(done);
    let result = entry.sim(&spec, &progress);
    bar.finish_and_clear();
    let report = result?;

    let agent_of: serde_json::Map<String, serde_json::Value> = entry
        .seats
        .iter()
        .zip(&agents)
        .map(|(s, a)| (s.id.to_string(), serde_json::Value::from(a.as_str())))
        .collect();
    if args.json {
        let mut value = serde_json::to_value(&report).unwrap_or_default();
        if let Some(obj) = value.as_object_mut() {
            obj.insert("agents".into(), serde_json::Value::Object(agent_of));
            obj.insert("seed".into(), seed.into());
        }
        out!("{value}");
        return Ok(());
    }

    let scenario = match &spec.scenario {
        ScenarioSource::Shipped(id) => id.clone(),
        ScenarioSource::Text(_) => args
            .scenario
            .scenario_file
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
    };
    let games = report.games;
    let last = seed.wrapping_add(games.saturating_sub(1));
    let who: Vec<String> = entry
        .seats
        .iter()
        .zip(&agents)
        .map(|(s, a)| format!("{} {a}", s.id))
        .collect();
    let who = who.join(", ");
    let id = entry.id;
    out!(
        "{}",
        tr!(
            "{id} — {scenario}: {games} games, seeds {seed}–{last}, agents {who}, {threads} threads",
            "{id} —— {scenario}:{games} 局,种子 {seed}–{last},电脑玩家 {who},{threads} 个线程"
        )
        .get(lang)
    );
    let pct = |n: u64| {
        if games == 0 {
            0.0
        } else {
            100.0 * n as f64 / games as f64
        }
    };
    // Where the players bid for their sides (a Paths of Glory tournament), a seat is not one
    // side from game to game: its wins are the agent's that sat there, named by the seat.
    let bid_for = entry
        .new_session(spec.scenario.clone(), seed)
        .is_ok_and(|s| s.seat_side(0).is_some());
    for (i, s) in entry.seats.iter().enumerate() {
        let n = report.wins.get(s.id).copied().unwrap_or(0);
        let name = if bid_for {
            let agent = &agents[i];
            tr!("seat {} ({agent})", "座位 {}({agent})", i + 1)
                .get(lang)
                .to_string()
        } else {
            entry.seat_name(i as u8).get(lang).to_string()
        };
        out!(
            "  {:<22} {n:>8}  {:>5.1}%",
            tr!("{name} wins", "{name}胜").get(lang),
            pct(n)
        );
    }
    out!(
        "  {:<22} {:>8}  {:>5.1}%",
        tr!("draws", "平局").get(lang),
        report.draws,
        pct(report.draws)
    );
    let max = args.max_decisions;
    out!(
        "  {:<22} {:>8}  {:>5.1}%  {}",
        tr!("unfinished", "未完成").get(lang),
        report.unfinished,
        pct(report.unfinished),
        tr!("(stopped after {max} decisions)", "(超过 {max} 个决定即停止)").get(lang)
    );
    let mean = report.mean_decisions;
    let speed = report.decisions_per_second;
    let secs = report.seconds;
    out!(
        "{}",
        tr!(
            "mean length: {mean:.1} decisions per game",
            "平均长度:每局 {mean:.1} 个决定"
        )
        .get(lang)
    );
    out!(
        "{}",
        tr!(
            "speed: {speed:.0} decisions per second ({secs:.2} s)",
            "速度:每秒 {speed:.0} 个决定(用时 {secs:.2} 秒)"
        )
        .get(lang)
    );
    Ok(())
}

//! The `sandtable` binary as a player and a script use it: every command run as a process,
//! on save files in a fresh temporary folder. What matters here is what the player sees —
//! exit codes, messages, files left untouched after a refusal — not the rules, which the
//! game crates test.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

/// A fresh folder under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("sandtable-cli-test-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temporary folder");
        TempDir(dir)
    }

    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn command(lang_env: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sandtable"));
    c.env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", lang_env)
        .stdin(Stdio::null());
    c
}

/// Runs `sandtable --lang en ARGS…`.
fn run(args: &[&str]) -> Output {
    command("C")
        .arg("--lang")
        .arg("en")
        .args(args)
        .output()
        .expect("run sandtable")
}

/// Runs `sandtable ARGS…` with `input` on stdin.
fn run_with_input(args: &[&str], input: &str) -> Output {
    let mut child = command("C")
        .arg("--lang")
        .arg("en")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sandtable");
    // The program may quit before reading everything; a closed pipe is fine.
    let _ = child.stdin.take().expect("stdin").write_all(input.as_bytes());
    child.wait_with_output().expect("wait for sandtable")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The command succeeded.
fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "failed: {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        stdout(o),
        stderr(o)
    );
}

/// The command failed cleanly: non-zero exit, a message, no panic.
fn fails_cleanly(o: &Output) -> String {
    let err = stderr(o);
    assert!(!o.status.success(), "should have failed:\n{}", stdout(o));
    assert!(!err.contains("panicked"), "panicked:\n{err}");
    assert!(err.contains("error"), "no error message:\n{err}");
    err
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// A new game in `dir`, seed 1.
fn new_game(dir: &TempDir, name: &str) -> PathBuf {
    let file = dir.path(name);
    ok(&run(&["new", "stalingrad-blitz", "--seed", "1", "-o", path_str(&file)]));
    file
}

fn legal_json(file: &Path) -> serde_json::Value {
    let o = run(&["legal", path_str(file), "--json"]);
    ok(&o);
    serde_json::from_str(&stdout(&o)).expect("legal --json prints JSON")
}

#[test]
fn games_json_lists_stalingrad_blitz() {
    let o = run(&["games", "--json"]);
    ok(&o);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let games = v.as_array().expect("an array of games");
    let sb = games
        .iter()
        .find(|g| g["id"] == "stalingrad-blitz")
        .expect("stalingrad-blitz is listed");
    assert_eq!(sb["seats"][0]["id"], "axis");
    assert_eq!(sb["scenarios"][0]["id"], "campaign");
    assert!(sb["scenarios"][0]["reconstructed"].is_boolean());

    let o = run(&["games"]);
    ok(&o);
    assert!(stdout(&o).contains("stalingrad-blitz"));
}

#[test]
fn new_legal_act_by_number_and_by_notation_change_the_file() {
    let dir = TempDir::new("act");
    let file = new_game(&dir, "game.json");
    let start = std::fs::read(&file).expect("the save exists");
    let record: serde_json::Value = serde_json::from_slice(&start).expect("the save is JSON");
    assert_eq!(record["game"], "stalingrad-blitz");
    assert_eq!(record["seed"], 1);

    // `new` refuses to overwrite without --force.
    let o = run(&["new", "stalingrad-blitz", "-o", path_str(&file)]);
    fails_cleanly(&o);
    assert_eq!(std::fs::read(&file).unwrap(), start);

    let legal = legal_json(&file);
    assert!(!legal["actions"].as_array().unwrap().is_empty());
    let o = run(&["legal", path_str(&file)]);
    ok(&o);
    assert!(stdout(&o).contains(" 1. "));

    // By number.
    let o = run(&["act", path_str(&file), "1"]);
    ok(&o);
    let after_number = std::fs::read(&file).unwrap();
    assert_ne!(after_number, start);

    // By notation, as `legal` prints it (several words).
    let legal = legal_json(&file);
    let notation = legal["actions"][0]["notation"]
        .as_str()
        .expect("a notation")
        .to_string();
    let mut args = vec!["act", path_str(&file)];
    args.extend(notation.split(' '));
    let o = run(&args);
    ok(&o);
    assert!(stdout(&o).contains(&notation));
    let after_notation = std::fs::read(&file).unwrap();
    assert_ne!(after_notation, after_number);

    let o = run(&["show", path_str(&file)]);
    ok(&o);
    assert!(!stdout(&o).trim().is_empty());
}

#[test]
fn an_illegal_action_is_refused_and_the_file_is_unchanged() {
    let dir = TempDir::new("illegal");
    let file = new_game(&dir, "game.json");
    let before = std::fs::read(&file).unwrap();
    for typed in [
        &["no", "such", "action"][..],
        &["9999"],
        &["0"],
        &["{\"do\":\"nonsense\"}"],
        &["{broken"],
    ] {
        let mut args = vec!["act", path_str(&file)];
        args.extend_from_slice(typed);
        let err = fails_cleanly(&run(&args));
        assert!(err.len() > "error: ".len(), "a reason is given: {err}");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            before,
            "the file changed after {typed:?}"
        );
    }
    // An action of the game that the rules forbid now is refused with the rule it breaks: the
    // Soviet player decides first, and a German chit is not one of its choices (6.2).
    let err = fails_cleanly(&run(&["act", path_str(&file), "pick", "1PzA"]));
    assert!(err.contains("6.2"), "the rule is cited: {err}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // The reason is in Chinese too.
    let o = command("zh_CN.UTF-8")
        .args(["act", path_str(&file), "9999"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(stderr(&o).contains("错误"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn undo_takes_back_the_last_action() {
    let dir = TempDir::new("undo");
    let file = new_game(&dir, "game.json");
    let before = std::fs::read(&file).unwrap();
    ok(&run(&["act", path_str(&file), "1"]));
    let o = run(&["undo", path_str(&file)]);
    ok(&o);
    assert!(stdout(&o).contains("Undone"));
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // Nothing left to undo.
    fails_cleanly(&run(&["undo", path_str(&file)]));
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn corrupt_saves_give_a_clear_error_and_no_panic() {
    let dir = TempDir::new("corrupt");
    let file = new_game(&dir, "game.json");
    ok(&run(&["act", path_str(&file), "1"]));
    let good = std::fs::read_to_string(&file).unwrap();

    // An edited checksum.
    let mut record: serde_json::Value = serde_json::from_str(&good).unwrap();
    let entries = record["entries"].as_array_mut().unwrap();
    let sum = entries[0]["checksum"].as_str().unwrap().to_string();
    let flipped = if sum.starts_with('0') { "1" } else { "0" };
    entries[0]["checksum"] = format!("{flipped}{}", &sum[1..]).into();
    let edited = serde_json::to_string_pretty(&record).unwrap();

    let mut other_format: serde_json::Value = serde_json::from_str(&good).unwrap();
    other_format["format"] = 999.into();
    let mut other_game: serde_json::Value = serde_json::from_str(&good).unwrap();
    other_game["game"] = "chess".into();

    let cases = [
        ("edited.json", edited),
        ("truncated.json", good[..good.len() / 2].to_string()),
        ("garbage.json", "this is not a save file \u{1F47E}".to_string()),
        ("empty.json", String::new()),
        ("format.json", other_format.to_string()),
        ("game.json", other_game.to_string()),
    ];
    for (name, text) in cases {
        let bad = dir.path(&format!("bad-{name}"));
        std::fs::write(&bad, &text).unwrap();
        for cmd in ["show", "legal", "replay"] {
            let err = fails_cleanly(&run(&[cmd, path_str(&bad)]));
            assert!(
                err.contains(path_str(&bad)) || err.contains("step"),
                "{cmd} {name}: {err}"
            );
        }
        fails_cleanly(&run(&["act", path_str(&bad), "1"]));
        assert_eq!(std::fs::read_to_string(&bad).unwrap(), text, "{name} was changed");
    }
    let err = fails_cleanly(&run(&["show", path_str(&dir.path("bad-edited.json"))]));
    assert!(err.contains("step 1"), "names the step: {err}");

    // A file that is not there, or not text.
    fails_cleanly(&run(&["show", path_str(&dir.path("missing.json"))]));
    let binary = dir.path("binary.json");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x80]).unwrap();
    fails_cleanly(&run(&["legal", path_str(&binary)]));
}

#[test]
fn replay_verify_passes_on_a_good_file_and_fails_on_an_edited_one() {
    let dir = TempDir::new("replay");
    let file = new_game(&dir, "game.json");
    ok(&run(&["act", path_str(&file), "1"]));
    ok(&run(&["act", path_str(&file), "1"]));
    let o = run(&["replay", path_str(&file), "--verify"]);
    ok(&o);
    let steps = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&file).unwrap()).unwrap()["entries"]
        .as_array()
        .unwrap()
        .len();
    assert!(
        stdout(&o).contains(&format!("ok: {steps} steps verified")),
        "{}",
        stdout(&o)
    );

    // Change the action of the second step to another legal-looking one.
    let text = std::fs::read_to_string(&file).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(&text).unwrap();
    let last = record["entries"].as_array().unwrap().len() - 1;
    record["entries"][last]["checksum"] = "0123456789abcdef".into();
    let edited = dir.path("edited.json");
    std::fs::write(&edited, serde_json::to_string_pretty(&record).unwrap()).unwrap();
    let err = fails_cleanly(&run(&["replay", path_str(&edited), "--verify"]));
    assert!(err.contains(&format!("step {}", last + 1)), "{err}");
}

/// Where a bid settles the sides (Paths of Glory 2022 5.6.1), a seat plays either side from one
/// game to the next: `sim` names its wins by the seat and its agent, not by a side.
#[test]
fn sim_names_a_tournaments_wins_by_seat_and_agent() {
    let sim = |scenario: &str| {
        let o = run(&[
            "--lang",
            "en",
            "sim",
            "paths-of-glory",
            "--scenario",
            scenario,
            "--games",
            "1",
            "--agents",
            "random,random",
            "--threads",
            "1",
            "--max-decisions",
            "40",
        ]);
        ok(&o);
        stdout(&o)
    };
    let bid = sim("limited-war-tournament");
    assert!(
        bid.contains("seat 1 (random) wins") && bid.contains("seat 2 (random) wins"),
        "{bid}"
    );
    assert!(!bid.contains("Central Powers wins"), "{bid}");
    let fixed = sim("limited-war");
    assert!(
        fixed.contains("Central Powers wins") && fixed.contains("Allied Powers wins"),
        "{fixed}"
    );
}

#[test]
fn sim_prints_the_json_keys_and_totals_do_not_depend_on_threads() {
    let sim = |threads: &str| {
        let o = run(&[
            "sim",
            "stalingrad-blitz",
            "--games",
            "4",
            "--seed",
            "7",
            "--json",
            "--agents",
            "random,random",
            "--threads",
            threads,
            // Short games keep the test fast; they count as unfinished.
            "--max-decisions",
            "60",
        ]);
        ok(&o);
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
        v
    };
    let one = sim("1");
    for key in ["games", "wins", "draws", "mean_decisions", "decisions_per_second"] {
        assert!(one.get(key).is_some(), "missing {key}: {one}");
    }
    assert_eq!(one["games"], 4);
    assert!(one["wins"]["axis"].is_u64() && one["wins"]["soviet"].is_u64());
    let two = sim("2");
    for key in ["games", "wins", "draws", "unfinished", "mean_decisions"] {
        assert_eq!(one[key], two[key], "{key} differs with 2 threads");
    }

    // Unknown agents and games are refused.
    fails_cleanly(&run(&[
        "sim",
        "stalingrad-blitz",
        "--games",
        "1",
        "--agents",
        "random,genius",
    ]));
    fails_cleanly(&run(&["sim", "no-such-game", "--games", "1"]));
}

#[test]
fn play_with_piped_input_quits_cleanly() {
    let o = run_with_input(&["play", "stalingrad-blitz", "--seed", "2"], "q\n");
    ok(&o);
    assert!(!stderr(&o).contains("panicked"));
    assert!(stdout(&o).contains("legal actions"), "{}", stdout(&o));

    // End of input quits too, and --save keeps the game after every action.
    let dir = TempDir::new("play");
    let save = dir.path("played.json");
    let o = run_with_input(
        &[
            "play",
            "stalingrad-blitz",
            "--seed",
            "2",
            "--vs",
            "human",
            "--save",
            path_str(&save),
        ],
        "1\nnot an action\n2\nu\nl\n",
    );
    ok(&o);
    assert!(stdout(&o).contains("not an action"));
    ok(&run(&["replay", path_str(&save), "--verify"]));
    let entries = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&save).unwrap()).unwrap()
        ["entries"]
        .as_array()
        .unwrap()
        .len();
    assert!(entries >= 1);
}

#[test]
fn render_writes_an_svg() {
    let dir = TempDir::new("render");
    let file = new_game(&dir, "game.json");
    let svg = dir.path("map.svg");
    ok(&run(&["render", path_str(&file), "-o", path_str(&svg)]));
    let text = std::fs::read_to_string(&svg).expect("the map was written");
    if !text.is_empty() {
        assert!(text.trim_start().starts_with("<svg"), "{}", &text[..text.len().min(80)]);
    }
    ok(&run(&[
        "render",
        path_str(&file),
        "-o",
        path_str(&svg),
        "--as",
        "spectator",
    ]));
    fails_cleanly(&run(&[
        "render",
        path_str(&file),
        "-o",
        path_str(&svg),
        "--as",
        "allies",
    ]));
}

#[test]
fn messages_follow_the_locale_and_lang() {
    let o = command("zh_CN.UTF-8").args(["games"]).output().unwrap();
    ok(&o);
    assert!(stdout(&o).contains("剧本"), "{}", stdout(&o));
    let o = command("zh_CN.UTF-8").args(["--lang", "en", "games"]).output().unwrap();
    ok(&o);
    assert!(stdout(&o).contains("scenarios"), "{}", stdout(&o));
    let o = command("C").args(["show", "/no/such/file.json"]).output().unwrap();
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
    let o = command("C")
        .args(["--lang", "zh", "show", "/no/such/file.json"])
        .output()
        .unwrap();
    assert!(stderr(&o).starts_with("错误:"), "{}", stderr(&o));
}

#[test]
fn a_save_with_crafted_actions_is_refused_without_a_panic() {
    // A save whose actions were edited to name what does not exist (unit 9999, hex 65535, a
    // negative chit, a declaration of unit 9999): every command refuses it, naming the step.
    let dir = TempDir::new("crafted");
    let file = new_game(&dir, "game.json");
    for _ in 0..8 {
        ok(&run(&["act", path_str(&file), "1"]));
    }
    let good: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let steps = good["entries"].as_array().unwrap().len();
    let mut cases = Vec::new();
    for n in 0..steps {
        let Some(action) = good["entries"][n]["action"].as_object() else {
            continue;
        };
        for (key, value) in action {
            if !value.is_number() {
                continue;
            }
            for crafted in [serde_json::json!(9999), serde_json::json!(65535), serde_json::json!(-1)] {
                let mut bad = good.clone();
                bad["entries"][n]["action"][key] = crafted;
                cases.push((n + 1, bad));
            }
        }
        let mut declare = good.clone();
        declare["entries"][n]["action"] = serde_json::json!({"do": "declare", "target": 0, "units": [9999]});
        cases.push((n + 1, declare));
    }
    assert!(cases.len() > 10);
    for (i, (step, bad)) in cases.iter().enumerate() {
        let path = dir.path(&format!("crafted-{i}.json"));
        let text = serde_json::to_string_pretty(bad).unwrap();
        std::fs::write(&path, &text).unwrap();
        let err = fails_cleanly(&run(&["replay", path_str(&path), "--verify"]));
        assert!(err.contains(&format!("step {step}")), "names step {step}: {err}");
        fails_cleanly(&run(&["act", path_str(&path), "1"]));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "the file was changed");
    }
}

#[test]
fn play_keeps_action_numbers_and_refuses_a_stale_one() {
    // Picking chit 1, then typing 1 again (from the list as it was): refused, saying what
    // number 1 was, rather than taken for another chit. Number 2 still names its chit.
    let o = run_with_input(
        &["play", "stalingrad-blitz", "--seed", "2", "--vs", "human"],
        "1\n1\n2\nq\n\n",
    );
    ok(&o);
    let out = stdout(&o);
    assert!(
        out.contains("number 1 was `pick VrnzFront`, which is not legal any more"),
        "{out}"
    );
    assert!(out.contains("soviet: pick StrgFront"), "{out}");
    let o = command("C")
        .args([
            "--lang",
            "zh",
            "play",
            "stalingrad-blitz",
            "--seed",
            "2",
            "--vs",
            "human",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().expect("stdin").write_all("1\n1\nq\n\n".as_bytes())?;
            c.wait_with_output()
        })
        .expect("run sandtable");
    assert!(
        stdout(&o).contains("编号 1 是“pick VrnzFront”,它已不再合法"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn play_picks_a_unit_then_a_hex_shows_the_map_and_explains_a_refusal() {
    // A save at the first movement decision.
    let dir = TempDir::new("unit-hex");
    let file = new_game(&dir, "game.json");
    let mut mover = None;
    for _ in 0..40 {
        let legal = legal_json(&file);
        mover = legal["actions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["kind"] == "move")
            .map(|a| {
                (
                    a["units"][0].as_str().unwrap().to_string(),
                    a["hexes"][0].as_str().unwrap().to_string(),
                )
            });
        if mover.is_some() {
            break;
        }
        ok(&run(&["act", path_str(&file), "1"]));
    }
    let (unit, hex) = mover.expect("a movement decision within 40 actions");
    // `legal --json` gives each move's cost, as the web API does.
    let legal = legal_json(&file);
    let first_move = legal["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "move")
        .unwrap();
    assert!(
        first_move["note"]["en"].as_str().is_some_and(|n| n.contains("MP")),
        "{first_move}"
    );
    assert!(
        first_move["note"]["zh"].as_str().is_some_and(|n| !n.is_empty()),
        "{first_move}"
    );
    assert!(first_move["group"]["en"].is_string(), "{first_move}");
    let o = run_with_input(
        &["play", "--load", path_str(&file), "--vs", "human"],
        &format!("{unit}\nmap\n0101\n{hex}\nq\n\n"),
    );
    ok(&o);
    let out = stdout(&o);
    // The long list is grouped by unit, the unit's own actions listed when it is typed.
    assert!(out.contains("type a unit's id to list its actions"), "{out}");
    assert!(out.contains(&format!("{unit}: ")), "{out}");
    // The board around the unit, its destinations marked.
    assert!(out.contains("The board within 3 hexes of"), "{out}");
    assert!(out.contains('*'), "{out}");
    // A hex it cannot reach: the rules' reason with the rule number.
    assert!(out.contains("! 9."), "the refusal names its rule: {out}");
    // Its destination: the move is taken.
    assert!(out.contains(&format!(": move {unit} {hex}")), "{out}");
}

#[test]
fn show_lists_what_the_board_marks_and_the_units_off_the_map() {
    let dir = TempDir::new("show-status");
    let ardennes = dir.path("a.json");
    ok(&run(&[
        "new",
        "ardennes-ii",
        "--scenario",
        "goose-egg",
        "--seed",
        "1",
        "-o",
        path_str(&ardennes),
    ]));
    let o = run(&["show", path_str(&ardennes)]);
    ok(&o);
    let out = stdout(&o);
    assert!(out.contains("Marked hexes:"), "{out}");
    assert!(out.contains("  ZOC ("), "the ZOC Bond hexes: {out}");
    assert!(
        out.contains("  ✹ (19) — bridge demolition symbol, charged (3.8): "),
        "the demolition charges, with what their sign means: {out}"
    );
    // The campaign begins with German units DG (7.1).
    let campaign = dir.path("c.json");
    ok(&run(&[
        "new",
        "ardennes-ii",
        "--scenario",
        "campaign",
        "--seed",
        "1",
        "-o",
        path_str(&campaign),
    ]));
    let o = run(&["show", path_str(&campaign)]);
    ok(&o);
    assert!(stdout(&o).contains("DG ("), "{}", stdout(&o));
    let stalingrad = new_game(&dir, "s.json");
    let o = run(&["show", path_str(&stalingrad)]);
    ok(&o);
    assert!(stdout(&o).contains("Reserve pool ("), "{}", stdout(&o));
    let o = command("C")
        .args(["--lang", "zh", "show", path_str(&stalingrad)])
        .output()
        .expect("run sandtable");
    assert!(stdout(&o).contains("预备池 ("), "{}", stdout(&o));
    // A unit in the rail box, from a scenario file that puts it there.
    let shipped = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/stalingrad-blitz/data/scenarios/campaign.toml"),
    )
    .unwrap();
    let scenario = dir.path("rail.toml");
    std::fs::write(
        &scenario,
        format!("{shipped}\n[[unit]]\nid = \"ger-pz-6\"\nloc = \"rail-box\"\n"),
    )
    .unwrap();
    let railed = dir.path("rail.json");
    ok(&run(&[
        "new",
        "stalingrad-blitz",
        "--scenario-file",
        path_str(&scenario),
        "-o",
        path_str(&railed),
    ]));
    let o = run(&["show", path_str(&railed)]);
    ok(&o);
    assert!(
        stdout(&o).contains("Rail box (1): 6th Panzer Division"),
        "{}",
        stdout(&o)
    );
    // An Ardennes position a designer wrote: Bastogne (7.5) begun in the US movement phase,
    // a German Full barrage marker on B2.17 (docs/formats.md).
    let bastogne = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../games/ardennes-ii/data/scenarios/bastogne.toml"),
    )
    .unwrap()
    .replace(
        "schedule = false\n",
        "schedule = false\nfirst_phase = \"us-movement\"\n",
    );
    let scenario = dir.path("bastogne.toml");
    std::fs::write(
        &scenario,
        format!("{bastogne}\n[[marker]]\nkind = \"barrage-full\"\nhex = \"B2.17\"\nside = \"german\"\n"),
    )
    .unwrap();
    let written = dir.path("bastogne.json");
    ok(&run(&[
        "new",
        "ardennes-ii",
        "--scenario-file",
        path_str(&scenario),
        "-o",
        path_str(&written),
    ]));
    let o = run(&["show", path_str(&written)]);
    ok(&o);
    let out = stdout(&o);
    assert!(out.contains("Turn 4 of 11 (19 December 1944), US movement"), "{out}");
    assert!(out.contains("1F (1): B2.17"), "the barrage marker: {out}");
}

#[test]
fn a_tournament_seat_is_named_by_the_side_its_bid_gave_it() {
    // Paths of Glory 5.6.1: the players bid for their sides, and the seat's label follows.
    let dir = TempDir::new("bid");
    let file = dir.path("bid.json");
    let p = path_str(&file);
    ok(&run(&[
        "new",
        "paths-of-glory",
        "--scenario",
        "limited-war-tournament",
        "--seed",
        "1",
        "-o",
        p,
    ]));
    let o = run(&["show", p]);
    ok(&o);
    assert!(stdout(&o).contains("side not yet bid for"), "{}", stdout(&o));
    ok(&run(&["act", p, "bid", "ap", "1"]));
    ok(&run(&["act", p, "bid", "accept"]));
    // The CP's seat now decides Guns of August (4.3); it is named by its side.
    let o = run(&["show", p]);
    ok(&o);
    assert!(stdout(&o).contains(", Central Powers)"), "{}", stdout(&o));
    let o = run(&["legal", p]);
    ok(&o);
    assert!(stdout(&o).contains(", Central Powers)"), "{}", stdout(&o));
}

#[test]
fn legal_prints_each_action_with_its_note() {
    // The OPS an activation costs (9.2.3) is the note beside its button on the page.
    let dir = TempDir::new("pog-legal");
    let file = dir.path("pog.json");
    let p = path_str(&file);
    ok(&run(&["new", "paths-of-glory", "--seed", "1", "-o", p]));
    ok(&run(&["act", p, "guns-of-august", "no"]));
    let legal = legal_json(&file);
    let ops = legal["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .find_map(|a| {
            a["notation"]
                .as_str()
                .filter(|n| n.starts_with("ops "))
                .map(str::to_string)
        })
        .expect("a card can be played for OPS");
    let mut args = vec!["act", p];
    args.extend(ops.split(' '));
    ok(&run(&args));
    let o = run(&["legal", p]);
    ok(&o);
    let out = stdout(&o);
    assert!(out.contains("Activate Mulhouse for movement (1 OPS)"), "{out}");
    let o = command("C")
        .args(["--lang", "zh", "legal", p])
        .output()
        .expect("run sandtable");
    ok(&o);
    assert!(stdout(&o).contains("(1点作战)"), "{}", stdout(&o));
}

#[test]
fn play_shows_a_point_to_point_map_around_a_space() {
    // Paths of Glory's map is of spaces and lines: `map SPACE [LINES]` lists the spaces that
    // many lines out, each with where its lines go and its counters.
    let dir = TempDir::new("pog-map");
    let file = dir.path("pog.json");
    let p = path_str(&file);
    ok(&run(&["new", "paths-of-glory", "--seed", "1", "-o", p]));
    let o = run_with_input(
        &["play", "--load", p, "--vs", "human"],
        "map metz\nmap brest litovsk 2\nmap atlantis\nq\n\n",
    );
    ok(&o);
    let out = stdout(&o);
    assert!(out.contains("The board within 1 line(s) of metz"), "{out}");
    assert!(
        out.contains("[Metz] (metz) → Koblenz, Nancy, Sedan, Strasbourg, Verdun"),
        "{out}"
    );
    assert!(out.contains("German 5th Army 5-3-3 [ge-army-5]"), "{out}");
    assert!(out.contains("Verdun (verdun) → "), "one line out: {out}");
    assert!(!out.contains("Paris (paris)"), "two lines out of Metz: {out}");
    // A name of two words, two lines out.
    assert!(out.contains("The board within 2 line(s) of brest litovsk"), "{out}");
    assert!(out.contains("[Brest Litovsk] (brest-litovsk)"), "{out}");
    assert!(out.contains("! there is no space atlantis on this map"), "{out}");
}

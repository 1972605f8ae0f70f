//! `sandtable-mapgen`: builds the hex maps of Game Journal's 激斗!斯大林格勒电击战 (Stalingrad
//! Blitz) and of MMP's SCS 阿登 II (Ardennes II, `--game ardennes-ii`, see `ardennes.rs`) from real
//! geography, with one set of rasterizing code (`raster.rs`, `geo.rs`) and one writer.
//!
//! The rulebook has no map, so the map is *reconstructed*: this tool rasterizes the reference
//! geography (`shared/reference/geography`: GeoNames towns, river and railway lines, the
//! Caucasus polygon) and the authored inputs in `tools/mapgen/geo/` (coasts, forests, swamps,
//! roads, the 28 June 1942 start line, supply sources, set-up rules, hand corrections) onto the
//! core's hex grid, and writes `crates/games/stalingrad-blitz/data/map.toml`. The map file is
//! generated: to change the map, change the inputs and run the tool again, so every hex can be
//! traced back to a source or a stated judgement.
//!
//! Method, in short:
//! - Projection: equirectangular around 47.5°N, 30 km a hex, into the frame of
//!   `HexGrid::centre` (neighbouring centres 1 apart). All hex geometry is the core's.
//! - Terrain: sample points spread over each hex; a hex is sea when more than half of it is
//!   water, and takes a land feature (impassable, mountain, swamp, forest, in that order) when
//!   its centre is inside the polygon or the polygon covers at least half of its land.
//! - Rivers and the start line: a hexside gets the line when the line crosses the segment
//!   joining the two hex centres; taken in order these crossings form a connected chain.
//! - Railways and roads: from the hex of each point to the next, the shortest hex path that
//!   stays closest to the straight segment, on land (no sea or impassable hex), crossing the
//!   Don, the Volga, the Dnieper or the Kerch Strait only at a bridge of 1942 that carries it
//!   (`geo/bridges.csv`): a road or railway over a river makes a bridge in the rules (2.1(1)3),
//!   so a line that zig-zags over a major river would make false bridges.
//! - Places: the hex holding the GeoNames coordinate; one place per hex (the more important
//!   one stays). Control comes from the side of the start line.
//!
//! Usage: `cargo run -p sandtable-mapgen -- [--game stalingrad-blitz|ardennes-ii]
//! [--reference DIR] [--geo DIR] [--out FILE] [--svg FILE] [--ascii FILE] [--force]`. Without
//! `--out` the game's committed map is replaced.

mod ardennes;
mod ardennes_checks;
mod assemble;
mod checks;
mod csv;
mod geo;
mod raster;
mod svg;
mod write;

use sandtable_core::map::HexMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Game {
    StalingradBlitz,
    ArdennesII,
}

struct Args {
    game: Game,
    reference: PathBuf,
    geo: PathBuf,
    out: PathBuf,
    svg: Option<PathBuf>,
    ascii: Option<PathBuf>,
    force: bool,
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn parse_args() -> Result<Args, String> {
    let root = repo_root();
    let mut a = Args {
        game: Game::StalingradBlitz,
        reference: root.join("../shared/reference/geography"),
        geo: root.join("tools/mapgen/geo"),
        out: PathBuf::new(),
        svg: None,
        ascii: None,
        force: false,
    };
    let mut out = None;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().map(PathBuf::from).ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--game" => {
                a.game = match value()?.to_str() {
                    Some("stalingrad-blitz") => Game::StalingradBlitz,
                    Some("ardennes-ii") => Game::ArdennesII,
                    other => return Err(format!("unknown game {other:?}: stalingrad-blitz or ardennes-ii")),
                }
            }
            "--reference" => a.reference = value()?,
            "--geo" => a.geo = value()?,
            "--out" => out = Some(value()?),
            "--svg" => a.svg = Some(value()?),
            "--ascii" => a.ascii = Some(value()?),
            "--force" => a.force = true,
            "-h" | "--help" => {
                return Err(
                    "usage: sandtable-mapgen [--game stalingrad-blitz|ardennes-ii] [--reference DIR] [--geo DIR] \
                     [--out FILE] [--svg FILE] [--ascii FILE] [--force]"
                        .into(),
                )
            }
            other => return Err(format!("unknown argument `{other}` (try --help)")),
        }
    }
    a.out = out.unwrap_or_else(|| root.join(committed_map(a.game)));
    Ok(a)
}

/// Where each game's map lives in the repository.
fn committed_map(game: Game) -> &'static str {
    match game {
        Game::StalingradBlitz => "crates/games/stalingrad-blitz/data/map.toml",
        Game::ArdennesII => "crates/games/ardennes-ii/data/map.toml",
    }
}

/// Builds a game's map and its text.
fn generate(game: Game, reference: &Path, geo: &Path) -> Result<(assemble::Map, String), String> {
    let (map, basis) = match game {
        Game::StalingradBlitz => (assemble::build(reference, geo)?, BASIS),
        Game::ArdennesII => (ardennes::build(reference, geo)?, ardennes::BASIS),
    };
    let text = write::to_toml(&map, basis);
    Ok((map, text))
}

/// Runs a game's checks on the map as the core loaded it.
fn check(game: Game, map: &assemble::Map, hm: &HexMap) -> checks::Report {
    match game {
        Game::StalingradBlitz => checks::run(map, hm),
        Game::ArdennesII => ardennes_checks::run(map, hm),
    }
}

const BASIS: &str = "\
Reconstructed: the rulebook has no map. Generated by tools/mapgen (sandtable-mapgen) from real geography; \
do not edit by hand: edit the inputs in tools/mapgen/geo/ and regenerate.
- Towns and cities: coordinates from GeoNames (https://www.geonames.org/), licensed under Creative Commons \
Attribution 4.0 (CC BY 4.0), via shared/reference/geography/stalingrad-places.csv; three more (Sochi, Sukhumi, \
Kutaisi) from general knowledge. Names in name_en are the 1942 forms. A place is the hex holding its \
coordinate; where two fall in one hex the more important one is kept.
- Rivers, railways and the Greater Caucasus polygon: shared/reference/geography (ordered points, many of them \
knowledge-grade, low confidence). A hexside carries a river where the river line crosses the segment between \
the two hex centres; a river stops at the sea. Major rivers (大河): Don, Volga, Dnieper (a judgement); all \
others are rivers (川). A river hexside crossed by a road or railway is a bridge (inventory A1), so roads and \
railways keep to the bank they run along and cross a major river or the Kerch Strait only where a bridge stood \
in 1942 (tools/mapgen/geo/bridges.csv, each with its source; the side lines of kind `bridge` below): the Don \
at Semiluki, Liski, Rychkovsky, Kalach and Rostov, the Volga at Saratov, the Dnieper at Kremenchug, \
Dnepropetrovsk and Zaporozhye. Where a town stands on the bank of a major river, the river is drawn past the \
far side of the town's hex (tools/mapgen/geo/banks.csv and overrides.csv), up to half a hex off its channel.
- Coasts of the Black Sea, the Sea of Azov (with the Sivash) and the Caspian, forests, swamps, the impassable \
Elbrus–Shkhara crest, the main roads of 1942, a few railways to the map edges, the start line, supply sources \
and set-up hexes: authored in tools/mapgen/geo/ from general geographic and historical knowledge (source \
`knowledge`, low confidence). A hex is sea when more than half of it is water; it takes a land feature when \
its centre is in the polygon or the polygon covers half of its land.
- Projection: equirectangular around 47.5°N, 30 km from hex centre to hex centre (the rulebook says 20–30 km), \
hex 0101 centred on 52.0°N 32.4°E; flat-topped hexes, even columns half a hex south.
- Start line: the front of 28 June 1942 (start of Operation Blue): east of Kursk past Tim, east of Belgorod \
and Volchansk, the Oskol below Kupyansk, the Donets past Izyum and Slavyansk, east of Artyomovsk and \
Debaltsevo to the Mius and the Sea of Azov east of Taganrog; the Kerch Strait. The Crimea is Axis-held \
(Sevastopol, besieged on 28 June, fell on 4 July; the game does not model the siege). Every town and city \
is tagged control-axis or control-soviet by its side of the line.
- Judgement calls: which places are large cities and VP hexes (the four Axis-controlled VP hexes are Kursk, \
Kharkov, Stalino and Sevastopol); the Crimean mountains drawn as forest, not mountain; set-up hexes of each \
army, panzer symbols, HQ hexes and supply sources placed after the historical deployment, not copied from a \
game map.
";

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("mapgen: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> Result<bool, String> {
    let (map, text) = generate(args.game, &args.reference, &args.geo)?;
    // The core must accept the file before it replaces the old one.
    let hm = HexMap::from_toml(&text).map_err(|e| format!("the core refuses the generated map: {e}"))?;

    let summary = match args.game {
        Game::StalingradBlitz => checks::summary(&map, &hm),
        Game::ArdennesII => ardennes_checks::summary(&map, &hm),
    };
    for line in summary {
        println!("{line}");
    }
    if !map.notes.is_empty() {
        println!("\nnotes ({}):", map.notes.len());
        for n in &map.notes {
            println!("  {n}");
        }
    }
    if !map.warnings.is_empty() {
        println!("\nwarnings ({}):", map.warnings.len());
        for w in &map.warnings {
            println!("  {w}");
        }
    }
    let report = check(args.game, &map, &hm);
    println!("\nchecks:");
    for l in &report.lines {
        println!("{l}");
    }
    if let Some(p) = &args.svg {
        std::fs::write(p, svg::to_svg(&map)).map_err(|e| format!("{}: {e}", p.display()))?;
        println!("\npicture: {}", p.display());
    }
    if let Some(p) = &args.ascii {
        std::fs::write(p, svg::to_ascii(&map)).map_err(|e| format!("{}: {e}", p.display()))?;
        println!("ascii: {}", p.display());
    }
    if report.failures > 0 && !args.force {
        println!(
            "\n{} check(s) failed: {} not written (use --force to write it anyway)",
            report.failures,
            args.out.display()
        );
        return Ok(false);
    }
    write_atomically(&args.out, &text)?;
    // Read back what is on disk, as the game will.
    let disk = std::fs::read_to_string(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    HexMap::from_toml(&disk).map_err(|e| format!("{}: {e}", args.out.display()))?;
    println!(
        "\nwrote {} ({} bytes); it loads with HexMap::from_toml",
        args.out.display(),
        disk.len()
    );
    Ok(report.failures == 0)
}

/// Writes to a temporary file beside the target and renames it over the target, so the map
/// file is never half written.
fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
    }
    let tmp = path.with_extension("toml.tmp");
    let result = (|| {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", path.display())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The map in the repository is what the tool makes from the inputs (nobody edited it by
    /// hand, nobody forgot to regenerate), the core loads it, and every check passes.
    fn committed_map_is_generated(game: Game, command: &str) {
        let root = repo_root();
        let reference = root.join("../shared/reference/geography");
        if !reference.exists() {
            eprintln!("skipped: no reference geography at {}", reference.display());
            return;
        }
        let (map, text) = generate(game, &reference, &root.join("tools/mapgen/geo")).unwrap();
        let hm = HexMap::from_toml(&text).unwrap();
        let report = check(game, &map, &hm);
        let failed: Vec<&String> = report.lines.iter().filter(|l| l.contains("FAIL")).collect();
        assert!(failed.is_empty(), "{failed:#?}");
        let committed = root.join(committed_map(game));
        let on_disk = std::fs::read_to_string(&committed).unwrap();
        assert!(
            on_disk == text,
            "{} is not what tools/mapgen makes from its inputs: run `{command}`",
            committed.display()
        );
    }

    #[test]
    fn the_committed_map_is_generated_from_the_inputs_and_passes_the_checks() {
        committed_map_is_generated(Game::StalingradBlitz, "cargo run -p sandtable-mapgen");
    }

    #[test]
    fn the_committed_ardennes_map_is_generated_from_the_inputs_and_passes_the_checks() {
        committed_map_is_generated(Game::ArdennesII, "cargo run -p sandtable-mapgen -- --game ardennes-ii");
    }
}

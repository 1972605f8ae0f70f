//! The `sandtable` command line: every rule system of this build, from the shell.
//!
//! `main` only decides the language, parses the arguments and hands each command to its
//! module; a command that fails returns a message in both languages, printed here in the
//! chosen one, with a non-zero exit code. Nothing a player types or a file contains can make
//! the program panic.

mod args;
mod board;
mod file_cmds;
mod games;
mod play;
mod saves;
mod serve;
mod sim;
mod ui;

use args::{Cli, Command, LangArg};
use clap::Parser;
use sandtable_core::text::Lang;
use std::process::ExitCode;
use ui::tr;

fn main() -> ExitCode {
    let raw: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let guessed = ui::lang_from_args(&raw).unwrap_or_else(ui::lang_from_env);
    let cli = match Cli::try_parse_from(&raw) {
        Ok(cli) => cli,
        Err(e) => {
            let code = e.exit_code();
            let _ = e.print();
            if code != 0 && guessed == Lang::Zh {
                eprintln!("命令行参数有误;用 sandtable --help 查看用法。");
            }
            return ExitCode::from(u8::try_from(code).unwrap_or(2));
        }
    };
    let lang = match cli.lang {
        Some(LangArg::Zh) => Lang::Zh,
        Some(LangArg::En) => Lang::En,
        None => ui::lang_from_env(),
    };
    match run(cli.command, lang) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("{}{}", tr!("error: ", "错误:").get(lang), f.text.get(lang));
            ExitCode::from(f.code)
        }
    }
}

fn run(command: Command, lang: Lang) -> ui::CmdResult {
    match command {
        Command::Games { json } => games::run(json, lang),
        Command::New(args) => file_cmds::new(&args, lang),
        Command::Show { file, as_seat, lines } => file_cmds::show(&file, as_seat.as_deref(), lines, lang),
        Command::Legal { file, json } => file_cmds::legal(&file, json, lang),
        Command::Act { file, action } => file_cmds::act(&file, &action, lang),
        Command::Undo { file } => file_cmds::undo(&file, lang),
        Command::Play(args) => play::run(&args, lang),
        Command::Render { file, output, as_seat } => file_cmds::render(&file, &output, as_seat.as_deref(), lang),
        Command::Sim(args) => sim::run(&args, lang),
        Command::Serve {
            addr,
            data,
            games_per_client,
            computer_games_per_client,
        } => {
            let limits = sandtable_server::hub::Limits {
                games_per_client,
                computer_games_per_client,
                ..Default::default()
            };
            serve::run(addr, &data, limits, lang)
        }
        Command::Replay { file, verify, as_seat } => file_cmds::replay(&file, verify, as_seat.as_deref(), lang),
    }
}

/// Many short-lived lists a decision: a faster allocator than the system's (see Cargo.toml).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

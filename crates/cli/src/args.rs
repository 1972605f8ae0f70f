//! The command line's grammar: every command, argument and option, declared once with clap.
//!
//! Help texts carry both languages ("English / 中文") because the help is read before any
//! language is chosen.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Sandtable (沙盘): board wargames with every rule enforced.
/// 沙盘:执行全部规则的桌面兵棋引擎。
#[derive(Debug, Parser)]
#[command(name = "sandtable", version, propagate_version = true, args_override_self = true)]
pub struct Cli {
    /// Language of every message: zh or en (default: from LC_ALL / LC_MESSAGES / LANG).
    /// 输出语言:zh 或 en(默认依据 LC_ALL / LC_MESSAGES / LANG)。
    #[arg(long, global = true, value_enum)]
    pub lang: Option<LangArg>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    Zh,
    En,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the games, their seats, scenarios and computer players.
    /// 列出游戏及其座位、剧本与电脑玩家。
    Games {
        /// Print JSON. 输出 JSON。
        #[arg(long)]
        json: bool,
    },

    /// Start a new game in a save file.
    /// 开始新游戏并写入存档文件。
    New(NewArgs),

    /// Show the situation and the latest log lines of a save file.
    /// 显示存档的局势与最近的日志。
    Show {
        /// The save file. 存档文件。
        file: PathBuf,
        /// Whose view: a seat id (axis), its number (0, 1…) or `spectator`. Default: the seat
        /// that must decide now — a local save file belongs to whoever holds it.
        /// 以谁的视角:座位名(axis)、编号(0、1…)或 spectator。默认为当前需要决定的座位。
        #[arg(long = "as", value_name = "SEAT")]
        as_seat: Option<String>,
        /// How many log lines to show. 显示的日志行数。
        #[arg(long, default_value_t = 10)]
        lines: usize,
    },

    /// List the legal actions of the pending decision, numbered.
    /// 列出当前决定的全部合法行动(带编号)。
    Legal {
        /// The save file. 存档文件。
        file: PathBuf,
        /// Print JSON. 输出 JSON。
        #[arg(long)]
        json: bool,
    },

    /// Take an action for the seat that must decide, by its notation or its number.
    /// 为当前需要决定的座位执行行动(写法或编号)。
    Act {
        /// The save file. 存档文件。
        file: PathBuf,
        /// The action as `legal` prints it (`move g48 1207`), its number, or its JSON form
        /// from `legal --json`; the words are joined with spaces.
        /// 行动的写法(如 legal 所示)、编号,或 legal --json 给出的 JSON 形式。
        #[arg(required = true, num_args = 1.., value_name = "ACTION")]
        action: Vec<String>,
    },

    /// Take back the last action, where the rules of undo allow it.
    /// 撤销最后一步(在允许撤销时)。
    Undo {
        /// The save file. 存档文件。
        file: PathBuf,
    },

    /// Play in the terminal, against the computer or hot-seat.
    /// 在终端里对战电脑或双人轮流对战。
    Play(PlayArgs),

    /// Draw the map of a save file as SVG.
    /// 把存档的地图画成 SVG。
    Render {
        /// The save file. 存档文件。
        file: PathBuf,
        /// The SVG file to write. 要写入的 SVG 文件。
        #[arg(short = 'o', long = "output", value_name = "SVG")]
        output: PathBuf,
        /// Whose view (see `show`). 以谁的视角(同 show)。
        #[arg(long = "as", value_name = "SEAT")]
        as_seat: Option<String>,
    },

    /// Play many games between computer players and report the outcomes.
    /// 让电脑玩家对战多局并报告结果。
    Sim(SimArgs),

    /// Serve Sandtable to browsers: games stored in DIR, played at the printed address.
    /// 启动网页服务:对局存于 DIR,在打印出的地址游玩。
    Serve {
        /// Address to listen on. 监听地址。
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// Folder of the games' database (created on first run). 对局数据库所在目录(首次运行时创建)。
        #[arg(long, value_name = "DIR", default_value = "sandtable-data")]
        data: PathBuf,
        /// Games one address may create per hour. 每个地址每小时可创建的对局数。
        #[arg(long, value_name = "N", default_value_t = 30)]
        games_per_client: usize,
        /// Of those, games between computers only. 其中仅电脑参与的对局数。
        #[arg(long, value_name = "N", default_value_t = 3)]
        computer_games_per_client: usize,
    },

    /// Replay a save file step by step, checking every checksum; print its log.
    /// 逐步重演存档并核对每个校验和;打印其日志。
    Replay {
        /// The save file. 存档文件。
        file: PathBuf,
        /// Only verify: print "ok: N steps verified" or the step that failed.
        /// 只核对:打印验证通过的步数或失败的步骤。
        #[arg(long)]
        verify: bool,
        /// Whose log to print (default: spectator). 打印谁可读的日志(默认旁观者)。
        #[arg(long = "as", value_name = "SEAT")]
        as_seat: Option<String>,
    },
}

/// Where a new game's scenario comes from.
#[derive(Debug, Args)]
pub struct ScenarioArgs {
    /// A shipped scenario (default: the first listed by `games`).
    /// 内置剧本(默认为 games 列出的第一个)。
    #[arg(long, value_name = "S")]
    pub scenario: Option<String>,
    /// A scenario file you wrote; its text is kept in the save.
    /// 自己编写的剧本文件;其内容保存在存档中。
    #[arg(long, value_name = "PATH", conflicts_with = "scenario")]
    pub scenario_file: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The game id (see `sandtable games`). 游戏名(见 sandtable games)。
    pub game: String,
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The seed of the game's dice and draws (default: from the clock, printed).
    /// 骰子与抽取的种子(默认取自时钟并打印)。
    #[arg(long)]
    pub seed: Option<u64>,
    /// The save file to write. 要写入的存档文件。
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Overwrite FILE if it exists. 覆盖已存在的文件。
    #[arg(long)]
    pub force: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Opponent {
    /// The computer takes the other seats. 电脑执掌其他座位。
    Ai,
    /// Everyone at this keyboard (hot-seat). 所有座位轮流使用本键盘。
    Human,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game id (see `sandtable games`; default: the first listed). 游戏名(见 sandtable games;默认为列出的第一个)。
    pub game: Option<String>,
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The seed (default: from the clock, printed). 种子(默认取自时钟并打印)。
    #[arg(long)]
    pub seed: Option<u64>,
    /// Go on with a saved game instead of starting one. 继续一局已保存的游戏。
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "scenario", "scenario_file", "seed"])]
    pub load: Option<PathBuf>,
    /// Against the computer or hot-seat. 对战电脑或双人轮流。
    #[arg(long = "vs", value_enum, default_value_t = Opponent::Ai)]
    pub vs: Opponent,
    /// The computer player (see `games`; default: the game's strongest).
    /// 电脑玩家(见 games;默认该游戏最强的一个)。
    #[arg(long, value_name = "AGENT")]
    pub ai: Option<String>,
    /// Your seat against the computer (default: the first). 对战电脑时你的座位(默认第一个)。
    #[arg(long, value_name = "SEAT")]
    pub side: Option<String>,
    /// Save to FILE after every action. 每步之后保存到该文件。
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SimArgs {
    /// The game id (see `sandtable games`). 游戏名(见 sandtable games)。
    pub game: String,
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// How many games. 对局数。
    #[arg(long)]
    pub games: u64,
    /// Game k uses seed S+k (default: from the clock, printed). 第 k 局使用种子 S+k(默认取自时钟)。
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// The computer player of each seat, in seat order (one name: all seats; default: the
    /// game's strongest for every seat).
    /// 各座位的电脑玩家,按座位顺序(只给一个则全部相同;默认各座位均为该游戏最强的一个)。
    #[arg(long, value_delimiter = ',', value_name = "A,B")]
    pub agents: Vec<String>,
    /// Worker threads (default: one per core). 线程数(默认每核一个)。
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Stop a game after this many decisions and count it unfinished.
    /// 一局超过此决定数即停止并记为未完成。
    #[arg(long, default_value_t = 20_000, value_name = "M")]
    pub max_decisions: u64,
    /// Print one JSON object. 输出一个 JSON 对象。
    #[arg(long)]
    pub json: bool,
}

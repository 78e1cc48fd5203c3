//! `cargo xtask bench`: the benchmarks behind the README's figures, and the README's tables
//! written from what they print, never typed.
//!
//! Every benchmark prints, beside what it says to a person, one line a figure:
//!
//! ```text
//! FIGURE othello.fixed.nodes_per_s=3894 nodes/s
//! ```
//!
//! the figure's key, `=`, its value and the rest of the line (the unit, and what the number
//! needs to be read). The ignored `bench_` tests of `compiler/tests/*_device.rs` and the
//! strength tests print theirs; the figures xtask takes itself (perft, `analyze`, build times)
//! it prints the same way. [`BENCHES`] lists every benchmark with the figures it must print and
//! what each is, and the README's table of each figure's kind holds a row a figure: what it is,
//! its value, the command that printed it and the day it ran. A run of some benchmarks
//! (`--only`) replaces their rows and keeps the others' with their own dates.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// A table of the README written by `cargo xtask bench`: its name in the markers and for
/// `--only`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Table {
    /// Measured on the simulated chips (simavr, QEMU): cycles, nodes a second, stacks.
    Simulator,
    /// Measured on the host: perft, `analyze`, the device's search in self-play.
    Host,
    /// `gamec build`'s times.
    BuildTimes,
}

impl Table {
    pub const ALL: [Table; 3] = [Table::Simulator, Table::Host, Table::BuildTimes];

    /// The name in the README's markers.
    pub fn name(self) -> &'static str {
        match self {
            Table::Simulator => "simulator",
            Table::Host => "host",
            Table::BuildTimes => "build times",
        }
    }

    /// The name `--only` takes.
    pub fn slug(self) -> &'static str {
        match self {
            Table::Simulator => "simulator",
            Table::Host => "host",
            Table::BuildTimes => "build-times",
        }
    }

    /// The README's line before the table.
    pub fn begin(self) -> String {
        format!("<!-- figures: {}, written by `cargo xtask bench`; do not edit -->", self.name())
    }
}

/// How a benchmark runs.
pub enum Run {
    /// The command as written (leading `NAME=value` words its environment), run from the top
    /// of the workspace; its figures are the `FIGURE` lines of its standard output.
    Command(&'static str),
    /// `gamec perft` on the host, timed by xtask.
    Perft,
    /// `gamec analyze`, `generate`, `check` and a rebuild on the host, timed by xtask.
    Cli,
    /// `gamec build`'s cold, second-game and after-an-edit times.
    BuildTimes,
}

/// A benchmark: its name for `--only`, the table its figures go to, how it runs and the
/// figures it prints, each a key and what the README's row calls it.
pub struct Bench {
    pub name: &'static str,
    pub table: Table,
    pub run: Run,
    pub figures: &'static [(&'static str, &'static str)],
}

impl Bench {
    /// The command a row names: the one run, or the xtask command for what xtask times itself.
    pub fn command(&self) -> String {
        match self.run {
            Run::Command(c) => c.to_string(),
            _ => format!("cargo xtask bench --only {}", self.name),
        }
    }
}

const OTHELLO_FIXED_PROFILE: &[(&str, &str)] = &[
    ("othello.fixed.profile.1", "Othello, fixed positions: where the cycles go, the first function"),
    ("othello.fixed.profile.2", "Othello, fixed positions: where the cycles go, the second"),
    ("othello.fixed.profile.3", "Othello, fixed positions: where the cycles go, the third"),
    ("othello.fixed.profile.4", "Othello, fixed positions: where the cycles go, the fourth"),
    ("othello.fixed.profile.5", "Othello, fixed positions: where the cycles go, the fifth"),
    ("othello.fixed.profile.6", "Othello, fixed positions: where the cycles go, the sixth"),
    ("othello.fixed.profile.7", "Othello, fixed positions: where the cycles go, the seventh"),
];

/// Every benchmark `cargo xtask bench` runs, in the order it runs them, but for the sizes
/// table (`cargo xtask figures`, figures.rs).
pub const BENCHES: &[Bench] = &[
    Bench {
        name: "build-times",
        table: Table::BuildTimes,
        run: Run::BuildTimes,
        figures: &[
            (
                "build.cold_s",
                "`gamec build` of Silver Dollar on the ATtiny84A, cold: an empty shared target (core, the \
                 runtime, avr-device's generator and the build dependencies), crates already downloaded",
            ),
            ("build.second_game_s", "a second game's first build on that chip (Nim after Silver Dollar)"),
            ("build.after_edit_s", "a rebuild after an edit of the game file"),
        ],
    },
    Bench {
        name: "silver-dollar",
        table: Table::Simulator,
        run: Run::Command(
            "cargo test -q -p gamec --test silver_dollar_device bench_device_reply_cycles_and_stack_depth -- \
             --ignored --nocapture",
        ),
        figures: &[
            (
                "silver_dollar.worst_reply_cycles",
                "Silver Dollar, ATtiny84A in simavr: the device's slowest reply over four games against \
                 random moves, from the first look-up in the solved table after GO to the new position \
                 handed to the display",
            ),
            ("silver_dollar.worst_reply_ms", "Silver Dollar: that reply at the board's 8 MHz"),
            ("silver_dollar.replies", "Silver Dollar: device replies measured"),
            (
                "silver_dollar.deepest_stack",
                "Silver Dollar: the deepest stack seen (the lowest stack pointer that held for three \
                 instructions, sampled after every instruction)",
            ),
            ("silver_dollar.ram_with_stack", "Silver Dollar: static RAM with that stack"),
        ],
    },
    Bench {
        name: "othello-fixed",
        table: Table::Simulator,
        run: Run::Command(
            "PROFILE=1 cargo test -q -p gamec --test othello_device bench_search_on_fixed_positions -- \
             --ignored --nocapture",
        ),
        figures: &[
            (
                "othello.fixed.nodes_per_s",
                "Othello, ATmega16 at 10 MHz in simavr: the search's speed on the fixed midgame positions \
                 (plies 20-38 of a seeded random game), 2 s each (a hand-written C engine: 3,459 nodes/s)",
            ),
            ("othello.fixed.depth_mean", "Othello, fixed positions: depth completed, the mean"),
            ("othello.fixed.depth_min", "Othello, fixed positions: depth completed, the least"),
            ("othello.fixed.depth_max", "Othello, fixed positions: depth completed, the most"),
            OTHELLO_FIXED_PROFILE[0],
            OTHELLO_FIXED_PROFILE[1],
            OTHELLO_FIXED_PROFILE[2],
            OTHELLO_FIXED_PROFILE[3],
            OTHELLO_FIXED_PROFILE[4],
            OTHELLO_FIXED_PROFILE[5],
            OTHELLO_FIXED_PROFILE[6],
        ],
    },
    Bench {
        name: "othello-game",
        table: Table::Simulator,
        run: Run::Command(
            "PROFILE=1 cargo test -q -p gamec --test othello_device bench_search_on_the_device -- --ignored \
             --nocapture",
        ),
        figures: &[
            (
                "othello.game.nodes_per_s",
                "Othello, ATmega16 in simavr, a game over the serial line at the 2 s clock: the search's \
                 speed over device moves 6 to 15",
            ),
            ("othello.game.depth_min", "Othello, a game: depth reached on those moves, the least"),
            ("othello.game.depth_max", "Othello, a game: depth reached on those moves, the most"),
            ("othello.game.slowest_move_ms", "Othello, a game: the slowest device move"),
            ("othello.game.nodes_in_2s", "Othello, a game: nodes searched in 2 s (the strength benchmark's budget)"),
            ("othello.game.deepest_stack", "Othello, a game: the deepest stack seen"),
            ("othello.game.ram_with_stack", "Othello, a game: static RAM with that stack"),
            ("othello.game.profile.1", "Othello, a game: where the cycles go, the first function"),
            ("othello.game.profile.2", "Othello, a game: where the cycles go, the second"),
            ("othello.game.profile.3", "Othello, a game: where the cycles go, the third"),
            ("othello.game.profile.4", "Othello, a game: where the cycles go, the fourth"),
            ("othello.game.profile.5", "Othello, a game: where the cycles go, the fifth"),
            ("othello.game.profile.6", "Othello, a game: where the cycles go, the sixth"),
            ("othello.game.profile.7", "Othello, a game: where the cycles go, the seventh"),
        ],
    },
    Bench {
        name: "tictactoe",
        table: Table::Simulator,
        run: Run::Command(
            "cargo test -q -p gamec --test tictactoe_device bench_sizes_and_replies -- --ignored --nocapture",
        ),
        figures: &[
            (
                "tictactoe.slowest_reply_ms",
                "Tic-tac-toe, ATmega16 in simavr, a game against random moves: the device's slowest reply \
                 (a table look-up per legal move), from the host's line to the device's move",
            ),
            ("tictactoe.deepest_stack", "Tic-tac-toe: the deepest stack seen"),
            ("tictactoe.ram_with_stack", "Tic-tac-toe: static RAM with that stack"),
        ],
    },
    Bench {
        name: "connect-four",
        table: Table::Simulator,
        run: Run::Command(
            "cargo test -q -p gamec --test connect_four_device bench_search_on_the_device -- --ignored --nocapture",
        ),
        figures: &[
            (
                "connect_four.nodes_per_s",
                "Connect Four, ATmega16 in simavr, a game against random drops at the 2 s clock: the \
                 search's speed",
            ),
            ("connect_four.depth_min", "Connect Four: depth reached per move, the least"),
            ("connect_four.depth_max", "Connect Four: depth reached per move, the most"),
            ("connect_four.deepest_stack", "Connect Four: the deepest stack seen"),
            ("connect_four.ram_with_stack", "Connect Four: static RAM with that stack"),
        ],
    },
    Bench {
        name: "nim",
        table: Table::Simulator,
        run: Run::Command("cargo test -q -p gamec --test nim_device bench_sizes_and_stack -- --ignored --nocapture"),
        figures: &[
            ("nim.deepest_stack", "Nim, ATtiny84A in simavr, a game won by perfect play: the deepest stack seen"),
            ("nim.ram_with_stack", "Nim: static RAM with that stack"),
        ],
    },
    Bench {
        name: "binario",
        table: Table::Simulator,
        run: Run::Command(
            "cargo test -q -p gamec --test binario_device bench_sizes_stack_and_refresh -- --ignored --nocapture",
        ),
        figures: &[
            (
                "binario.deepest_stack",
                "Binario, ATmega128 in simavr, over the intro, a tableau's EEPROM read, turns and presses: \
                 the deepest stack seen",
            ),
            (
                "binario.ram_with_stack",
                "Binario: the ATmega64's static RAM with that stack (the author's assembly: 211 B)",
            ),
            (
                "binario.column_ms",
                "Binario: the matrix's refresh, the median time from one column to the next (sampled every \
                 10 µs)",
            ),
            ("binario.column_hz", "Binario: columns a second"),
            ("binario.pictures_per_s", "Binario: full pictures a second (16 columns, red and green)"),
            (
                "binario.longest_column_ms",
                "Binario: the longest time between two columns (the first, from reset to the first tick, \
                 included)",
            ),
        ],
    },
    Bench {
        name: "set-search",
        table: Table::Simulator,
        run: Run::Command(
            "cargo test -q -p gamec --test set_device bench_instructions_per_search -- --ignored --nocapture",
        ),
        figures: &[
            (
                "set.search12.gamec",
                "Set, Cortex-M4 in QEMU: instructions per search for 12 cards, gamec's search (the mean over 8 \
                 fixed tables, counted by a QEMU plugin)",
            ),
            (
                "set.search12.seed_os",
                "Set, 12 cards: the seed's triple loop, arm-none-eabi-gcc -Os, counted the same way",
            ),
            ("set.search12.seed_o2", "Set, 12 cards: the seed's, -O2"),
            ("set.search12.fewer", "Set, 12 cards: the seed's -Os over gamec's"),
            ("set.search21.gamec", "Set, 21 cards: gamec's search (the mean over 8 fixed tables)"),
            ("set.search21.seed_os", "Set, 21 cards: the seed's, -Os"),
            ("set.search21.seed_o2", "Set, 21 cards: the seed's, -O2"),
            ("set.search21.fewer", "Set, 21 cards: the seed's -Os over gamec's"),
        ],
    },
    Bench {
        name: "set-stack",
        table: Table::Simulator,
        run: Run::Command("cargo test -q -p gamec --test set_device bench_sizes_and_stack -- --ignored --nocapture"),
        figures: &[
            (
                "set.deepest_stack",
                "Set, STM32F405 in QEMU, a session of 21 cards and every command: the deepest stack seen (the \
                 lowest store below the statics)",
            ),
            ("set.ram_with_stack", "Set: static RAM with that stack"),
        ],
    },
    Bench {
        name: "perft",
        table: Table::Host,
        run: Run::Perft,
        figures: &[
            ("perft.othello.s", "Othello's rules, `gamec perft games/othello.game --depth 10` (release build)"),
            ("perft.othello.leaves_per_s", "Othello's perft: leaves a second"),
            (
                "perft.connect_four.s",
                "Connect Four, `gamec perft games/connect_four.game --depth 8` (the general engine; finished \
                 games count as leaves)",
            ),
            ("perft.connect_four.leaves_per_s", "Connect Four's perft: leaves a second"),
            ("perft.checkers.s", "English draughts on the rule core, `gamec perft games/checkers.game --depth 8`"),
            ("perft.checkers.leaves_per_s", "Draughts' perft: leaves a second"),
            (
                "perft.othello_c.s",
                "The reference: a plain bitboard Othello perft in C (`xtask/bench/othello_perft.c`, `cc -O2`), \
                 depth 10, the same counts",
            ),
            ("perft.othello_c.leaves_per_s", "The C reference's perft: leaves a second"),
        ],
    },
    Bench {
        name: "cli",
        table: Table::Host,
        run: Run::Cli,
        figures: &[
            ("analyze.tictactoe.ms", "`gamec analyze games/tictactoe.game`, solving on the host (the mean of 5)"),
            ("analyze.nim.ms", "`gamec analyze games/nim.game` (the mean of 5)"),
            ("analyze.silver_dollar.ms", "`gamec analyze games/silver_dollar.game` (the mean of 5)"),
            (
                "analyze.binario.ms_per_tableau",
                "`gamec analyze games/binario.game`: each tableau's solutions and difficulty",
            ),
            ("generate.binario.ms_per_tableau", "`gamec generate games/binario.game --count 8 --seed 2018`, a tableau"),
            (
                "check.silver_dollar.ms",
                "`gamec check` of Silver Dollar with its board, which solves the game for its lints (the mean \
                 of 5)",
            ),
            ("build.unchanged_ms", "`gamec build` of Silver Dollar with nothing changed (the mean of 5)"),
        ],
    },
    Bench {
        name: "othello-strength",
        table: Table::Host,
        run: Run::Command("cargo test -q --release -p gamec-hosted --test strength -- --ignored --nocapture"),
        figures: &[(
            "othello.strength.won",
            "Othello: the device's search with a node budget a move (`NODES`, by default what the game \
             benchmark searched in 2 s when it was set) and the firmware's depth cap, against the seed's AI, \
             host games alternating colours after six random opening plies",
        )],
    },
    Bench {
        name: "strength-checkers",
        table: Table::Host,
        run: Run::Command(
            // 100 games a pairing, not 200: a game of draughts takes about 5 s (the 200 games of this
            // command took 1,087 s on 2026-12-07), so the 400 of two pairings of 200 would take over
            // half an hour.
            "STRENGTH_GAME=checkers STRENGTH_GAMES=100 cargo test -q --release -p gamec --test rule_core_games \
             strength -- --ignored --nocapture",
        ),
        figures: &[
            (
                "strength.checkers.random",
                "English draughts, the device's search on the rule core (deepening from one ply within \
                 50,000 nodes a move, the default evaluation) in host self-play against a random player (a \
                 game unfinished after 300 plies is not won; the bar: 99%)",
            ),
            ("strength.checkers.greedy", "Draughts against a one-ply greedy player (the bar: 90%)"),
        ],
    },
    Bench {
        name: "strength-breakthrough",
        table: Table::Host,
        run: Run::Command(
            "STRENGTH_GAME=breakthrough cargo test -q --release -p gamec --test rule_core_games strength -- \
             --ignored --nocapture",
        ),
        figures: &[
            ("strength.breakthrough.random", "Breakthrough 6 x 6, the same, against a random player"),
            ("strength.breakthrough.greedy", "Breakthrough against a one-ply greedy player"),
        ],
    },
    Bench {
        name: "strength-kalah",
        table: Table::Host,
        run: Run::Command(
            "STRENGTH_GAME=kalah cargo test -q --release -p gamec --test rule_core_games strength -- --ignored \
             --nocapture",
        ),
        figures: &[
            ("strength.kalah.random", "Kalah (6, 4), the same, against a random player"),
            (
                "strength.kalah.greedy",
                "Kalah against a one-ply greedy player (a sowing game's greedy player scores a move that \
                 keeps its turn from its own side)",
            ),
        ],
    },
    Bench {
        name: "strength-oware",
        table: Table::Host,
        run: Run::Command(
            "STRENGTH_GAME=oware cargo test -q --release -p gamec --test rule_core_games strength -- --ignored \
             --nocapture",
        ),
        figures: &[
            ("strength.oware.random", "Oware, the same, against a random player"),
            ("strength.oware.greedy", "Oware against a one-ply greedy player"),
        ],
    },
];

/// The name `--only` takes for the sizes table, which `cargo xtask figures` writes.
pub const SIZES: &str = "sizes";

/// A figure as a benchmark printed it.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub key: String,
    /// The number and the rest of its line: `3894 nodes/s`.
    pub value: String,
}

/// The figure on a line a benchmark printed, if it is one: `FIGURE key=value unit`.
pub fn parse(line: &str) -> Option<Figure> {
    let (key, value) = line.trim().strip_prefix("FIGURE ")?.split_once('=')?;
    let (key, value) = (key.trim(), value.trim());
    (!key.is_empty() && !key.contains(' ') && !value.is_empty())
        .then(|| Figure { key: key.to_string(), value: value.to_string() })
}

/// Prints a figure xtask measured itself, as a benchmark prints one.
fn print(figures: &mut Vec<Figure>, key: &str, value: String) {
    println!("FIGURE {key}={value}");
    figures.push(Figure { key: key.to_string(), value });
}

/// Today's date (UTC), as the rows carry it: `2026-12-07`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    // Days since 1970-01-01 to the civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// A row of a figures table: what the figure is, its value, the command that printed it and
/// the day it ran.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub what: String,
    pub value: String,
    pub command: String,
    pub date: String,
}

pub const HEADER: &str = "| figure | value | command | measured |\n|---|---|---|---|\n";

impl Row {
    fn render(&self) -> String {
        format!("| {} | {} | `{}` | {} |\n", self.what, self.value, self.command, self.date)
    }

    /// A row of the table as written, less its header.
    fn read(line: &str) -> Option<Row> {
        let cells: Vec<&str> = line.trim().strip_prefix('|')?.strip_suffix('|')?.split(" | ").map(str::trim).collect();
        let [what, value, command, date] = cells[..] else { return None };
        if what == "figure" || what.starts_with("---") {
            return None;
        }
        Some(Row {
            what: what.to_string(),
            value: value.to_string(),
            command: command.trim_matches('`').to_string(),
            date: date.to_string(),
        })
    }
}

/// The text between a table's begin marker and the end marker after it, if the README has both.
pub fn between<'a>(readme: &'a str, begin: &str) -> Option<&'a str> {
    let start = readme.find(begin)? + begin.len();
    let end = readme[start..].find(crate::figures::END)?;
    Some(&readme[start..start + end])
}

/// The rows of `table` in the README.
pub fn rows(readme: &str, table: Table) -> Vec<Row> {
    between(readme, &table.begin()).map(|t| t.lines().filter_map(Row::read).collect()).unwrap_or_default()
}

/// `table` with the figures of `measured` (printed by `bench` today) in place of their rows,
/// every other row as it was, in the order of [`BENCHES`]; a figure neither measured nor in the
/// README has no row (the xtask test says so).
pub fn merged(readme: &str, table: Table, measured: &[(&Bench, Vec<Figure>)], date: &str) -> String {
    let old = rows(readme, table);
    let mut out = String::from(HEADER);
    for bench in BENCHES.iter().filter(|b| b.table == table) {
        let new = measured.iter().find(|(b, _)| b.name == bench.name).map(|(_, f)| f);
        for (key, what) in bench.figures {
            let row = match new.and_then(|f| f.iter().find(|f| f.key == *key)) {
                Some(f) => Some(Row {
                    what: what.to_string(),
                    value: f.value.clone(),
                    command: bench.command(),
                    date: date.to_string(),
                }),
                None => old.iter().find(|r| r.what == *what).cloned(),
            };
            if let Some(row) = row {
                out.push_str(&row.render());
            }
        }
    }
    out
}

/// `readme` with the text between `begin` and the end marker after it replaced by `table`.
pub fn replaced(readme: &str, begin: &str, table: &str) -> Result<String, String> {
    let end = crate::figures::END;
    let missing = || format!("README.md lacks the markers {begin} and {end} after it");
    let start = readme.find(begin).ok_or_else(missing)? + begin.len();
    let stop = start + readme[start..].find(end).ok_or_else(missing)?;
    Ok(format!("{}\n{table}{}", &readme[..start], &readme[stop..]))
}

/// Writes the figures of `measured` into README.md's tables.
fn write(root: &Path, measured: &[(&Bench, Vec<Figure>)]) -> Result<(), String> {
    let path = root.join("README.md");
    let mut readme = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let date = today();
    for table in Table::ALL {
        if measured.iter().any(|(b, _)| b.table == table) {
            let rows = merged(&readme, table, measured, &date);
            readme = replaced(&readme, &table.begin(), &rows)?;
        }
    }
    std::fs::write(&path, readme).map_err(|e| e.to_string())
}

/// Runs a benchmark's command, passing its output on, and returns the figures it printed.
fn run_command(root: &Path, command: &str) -> Result<Vec<Figure>, String> {
    let mut cmd = None::<Command>;
    let mut env = Vec::new();
    for w in command.split_whitespace() {
        match (&mut cmd, w.split_once('=')) {
            (None, Some((name, value))) if name.chars().all(|c| c.is_ascii_uppercase() || c == '_') => {
                env.push((name, value))
            }
            (None, _) => cmd = Some(Command::new(w)),
            (Some(c), _) => {
                c.arg(w);
            }
        }
    }
    let mut cmd = cmd.ok_or("an empty command")?;
    cmd.envs(env).current_dir(root).stdout(Stdio::piped());
    eprintln!("$ {command}");
    let mut child = cmd.spawn().map_err(|e| format!("{command}: {e}"))?;
    let mut figures = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.map_err(|e| format!("{command}: {e}"))?;
        println!("{line}");
        figures.extend(parse(&line));
    }
    let status = child.wait().map_err(|e| format!("{command}: {e}"))?;
    if !status.success() {
        return Err(format!("{command} failed: {status}"));
    }
    Ok(figures)
}

/// Runs `gamec` with `args` from the top of the workspace, failing unless it succeeds; its
/// standard output.
fn gamec(root: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new(root.join("target/release/gamec"))
        .args(args)
        .current_dir(root)
        .output()
        .map_err(|e| format!("gamec: {e}"))?;
    if !out.status.success() {
        return Err(format!("gamec {} failed:\n{}", args.join(" "), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Milliseconds a run of `gamec args`, the mean of `runs`.
fn mean_ms(root: &Path, args: &[&str], runs: u32) -> Result<f64, String> {
    let started = std::time::Instant::now();
    for _ in 0..runs {
        gamec(root, args)?;
    }
    Ok(started.elapsed().as_secs_f64() * 1000.0 / f64::from(runs))
}

fn perft(root: &Path) -> Result<Vec<Figure>, String> {
    let mut figures = Vec::new();
    let mut othello = None;
    for (name, game, depth) in
        [("othello", "othello", "10"), ("connect_four", "connect_four", "8"), ("checkers", "checkers", "8")]
    {
        let file = format!("games/{game}.game");
        eprintln!("$ gamec perft {file} --depth {depth}");
        let started = std::time::Instant::now();
        let out = gamec(root, &["perft", &file, "--depth", depth])?;
        let seconds = started.elapsed().as_secs_f64();
        print!("{out}");
        let leaves = leaves_of(&out).ok_or_else(|| format!("gamec perft {file}: no count of leaves in\n{out}"))?;
        perft_figures(&mut figures, name, leaves, seconds);
        if name == "othello" {
            othello = Some(out);
        }
    }
    // The plain C bitboard, built here and timed the same way: its counts must be gamec's.
    let bin = root.join("target/othello_perft");
    let source = root.join("xtask/bench/othello_perft.c");
    eprintln!("$ cc -O2 -o {} {}", bin.display(), source.display());
    let built = Command::new("cc").arg("-O2").arg("-o").arg(&bin).arg(&source).status();
    if !built.is_ok_and(|s| s.success()) {
        return Err(format!("cc could not build {}", source.display()));
    }
    let started = std::time::Instant::now();
    let out = Command::new(&bin).arg("10").output().map_err(|e| format!("{}: {e}", bin.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    let out = String::from_utf8_lossy(&out.stdout).into_owned();
    print!("{out}");
    let counts =
        |text: &str| -> Vec<String> { text.lines().filter(|l| l.starts_with("depth")).map(String::from).collect() };
    if othello.as_deref().map(counts) != Some(counts(&out)) {
        return Err(format!("the C reference's counts differ from gamec's:\n{out}"));
    }
    let leaves = leaves_of(&out).ok_or_else(|| format!("the C reference: no count of leaves in\n{out}"))?;
    perft_figures(&mut figures, "othello_c", leaves, seconds);
    Ok(figures)
}

/// The leaves of a perft's last line, `24571284 leaves in 1.42 s ...`.
fn leaves_of(out: &str) -> Option<f64> {
    out.lines().find_map(|l| l.split_once(" leaves in ").and_then(|(n, _)| n.trim().parse().ok()))
}

/// A perft's figures, timed here as a whole run: its time and leaves a second.
fn perft_figures(figures: &mut Vec<Figure>, name: &str, leaves: f64, seconds: f64) {
    print(figures, &format!("perft.{name}.s"), format!("{seconds:.2} s for {leaves} leaves"));
    let millions = leaves / seconds / 1e6;
    let digits = if millions < 10.0 { 2 } else { 1 };
    print(figures, &format!("perft.{name}.leaves_per_s"), format!("{millions:.digits$} M leaves/s"));
}

fn cli(root: &Path) -> Result<Vec<Figure>, String> {
    let mut figures = Vec::new();
    for game in ["tictactoe", "nim", "silver_dollar"] {
        let ms = mean_ms(root, &["analyze", &format!("games/{game}.game")], 5)?;
        print(&mut figures, &format!("analyze.{game}.ms"), format!("{ms:.1} ms"));
    }
    // A puzzle's tableaux: solved and graded by analyze, made by generate; per tableau.
    let tableaux = std::fs::read_to_string(root.join("games/binario.game"))
        .map_err(|e| e.to_string())?
        .lines()
        .filter(|l| l.trim_start().starts_with("setup fixed"))
        .count()
        .max(1);
    let ms = mean_ms(root, &["analyze", "games/binario.game"], 1)? / tableaux as f64;
    print(&mut figures, "analyze.binario.ms_per_tableau", format!("{ms:.1} ms a tableau ({tableaux} tableaux)"));
    let ms = mean_ms(root, &["generate", "games/binario.game", "--count", "8", "--seed", "2018"], 1)? / 8.0;
    print(&mut figures, "generate.binario.ms_per_tableau", format!("{ms:.1} ms a tableau"));
    let board = "boards/silver_dollar_attiny84.board";
    let ms = mean_ms(root, &["check", "games/silver_dollar.game", "--board", board], 5)?;
    print(&mut figures, "check.silver_dollar.ms", format!("{ms:.1} ms"));
    let out = root.join("target/bench-cli");
    let out = out.to_str().ok_or("a path that is not UTF-8")?;
    gamec(root, &["build", "games/silver_dollar.game", "--board", board, "-o", out])?;
    let ms = mean_ms(root, &["build", "games/silver_dollar.game", "--board", board, "-o", out], 5)?;
    print(&mut figures, "build.unchanged_ms", format!("{ms:.0} ms"));
    Ok(figures)
}

/// How long `gamec build` takes: a cold build (a chip's first, into an empty shared target),
/// a second game's first build on that chip, and a rebuild after an edit of the game file.
/// Wall-clock seconds on this machine.
pub fn build_times(root: &Path) -> Result<Vec<Figure>, String> {
    let scratch = root.join("target/bench-build-times");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let edited = scratch.join("silver_dollar.game");
    let text = std::fs::read_to_string(root.join("games/silver_dollar.game")).map_err(|e| e.to_string())?;
    std::fs::write(&edited, &text).map_err(|e| e.to_string())?;
    let timed = |game: &Path, board: &str| -> Result<f64, String> {
        let start = std::time::Instant::now();
        crate::run(
            Command::new(root.join("target/release/gamec"))
                .arg("build")
                .arg(game)
                .args(["--board", board, "-o"])
                .arg(scratch.join("out"))
                .env("GAMEC_TARGET_DIR", scratch.join("target"))
                .current_dir(root),
        )?;
        Ok(start.elapsed().as_secs_f64())
    };
    let cold = timed(&edited, "boards/silver_dollar_attiny84.board")?;
    let second = timed(&root.join("games/nim.game"), "boards/nim_silver_dollar_attiny84.board")?;
    std::fs::write(&edited, text.replace("idle 30 s", "idle 40 s")).map_err(|e| e.to_string())?;
    let edit = timed(&edited, "boards/silver_dollar_attiny84.board")?;
    println!(
        "build times (ATtiny84A): cold {cold:.1} s, a second game's first build {second:.1} s, \
         a rebuild after an edit {edit:.1} s"
    );
    let mut figures = Vec::new();
    print(&mut figures, "build.cold_s", format!("{cold:.1} s"));
    print(&mut figures, "build.second_game_s", format!("{second:.1} s"));
    print(&mut figures, "build.after_edit_s", format!("{edit:.1} s"));
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(figures)
}

/// The benchmarks `only` names (a benchmark's name or a table's; all of them when empty), and
/// whether it names the sizes table.
pub fn selected(only: &[String]) -> Result<(Vec<&'static Bench>, bool), String> {
    if only.is_empty() {
        return Ok((BENCHES.iter().collect(), true));
    }
    let mut benches: Vec<&Bench> = Vec::new();
    let mut sizes = false;
    for name in only {
        let table = Table::ALL.into_iter().find(|t| t.slug() == name);
        let named: Vec<&Bench> = BENCHES.iter().filter(|b| b.name == name || Some(b.table) == table).collect();
        if name == SIZES {
            sizes = true;
        } else if named.is_empty() {
            return Err(format!("no benchmark or table {name}; `cargo xtask bench --list` lists them"));
        }
        benches.extend(named);
    }
    // In the order they run, each once.
    Ok((BENCHES.iter().filter(|b| benches.iter().any(|n| n.name == b.name)).collect(), sizes))
}

/// What `--list` prints: every table and its benchmarks, each with its command.
pub fn list() -> String {
    let mut out = format!("{SIZES}: the sizes table, `cargo xtask figures`\n");
    for table in Table::ALL {
        out.push_str(&format!("{}: the {} table\n", table.slug(), table.name()));
        for b in BENCHES.iter().filter(|b| b.table == table) {
            out.push_str(&format!("  {}: {}\n", b.name, b.command()));
        }
    }
    out
}

/// Runs `benches` one after the other, writing each one's figures into README.md as soon as it
/// has printed them all, so that a long run keeps what it measured; goes on past a failure
/// and reports every failure at the end.
pub fn run(root: &Path, benches: &[&'static Bench]) -> Result<(), String> {
    let mut failed = Vec::new();
    let mut took = Vec::new();
    for &bench in benches {
        let started = std::time::Instant::now();
        let figures = match bench.run {
            Run::Command(c) => run_command(root, c),
            Run::Perft => perft(root),
            Run::Cli => cli(root),
            Run::BuildTimes => build_times(root),
        };
        took.push((bench.name, started.elapsed().as_secs_f64()));
        let figures = match figures {
            Ok(f) => f,
            Err(e) => {
                eprintln!("bench {}: {e}", bench.name);
                failed.push(bench.name);
                continue;
            }
        };
        let missing: Vec<&str> =
            bench.figures.iter().map(|(k, _)| *k).filter(|k| !figures.iter().any(|f| f.key == *k)).collect();
        if !missing.is_empty() {
            eprintln!("bench {}: no figure {} printed", bench.name, missing.join(", "));
            failed.push(bench.name);
        }
        // What it did print goes in, the rest stays as it was.
        write(root, &[(bench, figures)])?;
        eprintln!(
            "bench {}: {:.0} s, README.md's {} table written",
            bench.name,
            took.last().unwrap().1,
            bench.table.name()
        );
    }
    for (name, seconds) in &took {
        eprintln!("  {name}: {seconds:.0} s");
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("benchmarks failed: {}", failed.join(", ")))
    }
}

/// The README's path, for the tests.
#[cfg(test)]
fn readme_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_line_is_its_key_and_the_rest_of_the_line() {
        assert_eq!(
            parse("FIGURE othello.fixed.nodes_per_s=3894 nodes/s"),
            Some(Figure { key: "othello.fixed.nodes_per_s".into(), value: "3894 nodes/s".into() })
        );
        assert_eq!(parse("  nodes per second: 3894"), None);
        assert_eq!(parse("FIGURE a key=1"), None);
        assert_eq!(parse("FIGURE key="), None);
    }

    #[test]
    fn every_key_and_every_row_is_named_once() {
        let mut keys: Vec<&str> = BENCHES.iter().flat_map(|b| b.figures.iter().map(|(k, _)| *k)).collect();
        let mut whats: Vec<&str> = BENCHES.iter().flat_map(|b| b.figures.iter().map(|(_, w)| *w)).collect();
        let mut names: Vec<&str> = BENCHES.iter().map(|b| b.name).collect();
        for v in [&mut keys, &mut whats, &mut names] {
            let n = v.len();
            v.sort_unstable();
            v.dedup();
            assert_eq!(v.len(), n, "a key, a row's text or a benchmark named twice");
        }
        assert!(whats.iter().all(|w| !w.contains('|')), "a row's text with a bar breaks the table");
        // A table named as a benchmark is that benchmark's alone.
        for table in Table::ALL {
            if let Some(b) = BENCHES.iter().find(|b| b.name == table.slug()) {
                assert!(BENCHES.iter().filter(|o| o.table == table).all(|o| o.name == b.name), "{}", b.name);
            }
        }
    }

    #[test]
    fn only_takes_a_benchmark_or_a_table() {
        let names = |only: &[&str]| {
            let (b, sizes) = selected(&only.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
            (b.iter().map(|b| b.name).collect::<Vec<_>>(), sizes)
        };
        assert_eq!(names(&["nim"]), (vec!["nim"], false));
        assert_eq!(names(&["build-times", "sizes"]), (vec!["build-times"], true));
        assert_eq!(names(&["nim", "silver-dollar", "nim"]), (vec!["silver-dollar", "nim"], false));
        let (host, _) = names(&["host"]);
        assert!(host.contains(&"perft") && host.contains(&"strength-oware") && !host.contains(&"nim"));
        assert_eq!(names(&[]).0.len(), BENCHES.len());
        assert!(selected(&["nope".to_string()]).is_err());
    }

    #[test]
    fn a_run_of_one_benchmark_keeps_the_other_rows() {
        let nim = BENCHES.iter().find(|b| b.name == "nim").unwrap();
        let tictactoe = BENCHES.iter().find(|b| b.name == "tictactoe").unwrap();
        let old = Row {
            what: tictactoe.figures[0].1.into(),
            value: "8.4 ms".into(),
            command: tictactoe.command(),
            date: "2026-01-01".into(),
        };
        let stale = Row {
            what: nim.figures[0].1.into(),
            value: "1 B".into(),
            command: nim.command(),
            date: "2026-01-01".into(),
        };
        let begin = Table::Simulator.begin();
        let readme =
            format!("text\n{begin}\n{HEADER}{}{}{}\nafter\n", old.render(), stale.render(), crate::figures::END);
        let figures = vec![
            Figure { key: "nim.deepest_stack".into(), value: "75 B".into() },
            Figure { key: "nim.ram_with_stack".into(), value: "106 B".into() },
        ];
        let table = merged(&readme, Table::Simulator, &[(nim, figures)], "2026-12-07");
        let new = replaced(&readme, &begin, &table).unwrap();
        let rows = rows(&new, Table::Simulator);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0], old, "tic-tac-toe's row kept, in the benchmarks' order");
        assert_eq!((rows[1].value.as_str(), rows[1].date.as_str()), ("75 B", "2026-12-07"));
        assert_eq!(rows[2].command, nim.command());
        assert!(new.starts_with("text\n") && new.ends_with(&format!("{}\nafter\n", crate::figures::END)));
    }

    #[test]
    fn the_date_is_a_civil_date() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20") && &d[4..5] == "-" && &d[7..8] == "-");
    }

    /// Every figure a benchmark prints has its row in the README's table, and every row is a
    /// figure's, with its value, command and date: a benchmark or a figure added without
    /// `cargo xtask bench --only NAME` run fails here.
    #[test]
    fn the_readme_tables_hold_every_figure_of_the_benchmarks() {
        let readme = std::fs::read_to_string(readme_path()).unwrap();
        let mut missing = Vec::new();
        for table in Table::ALL {
            assert!(between(&readme, &table.begin()).is_some(), "README.md has the {} table's markers", table.name());
            let rows = rows(&readme, table);
            let want: Vec<(&Bench, &str)> = BENCHES
                .iter()
                .filter(|b| b.table == table)
                .flat_map(|b| b.figures.iter().map(move |(_, w)| (b, *w)))
                .collect();
            for (bench, what) in &want {
                match rows.iter().find(|r| r.what == *what) {
                    Some(r) => {
                        assert_eq!(r.command, bench.command(), "the command of {what}");
                        assert!(!r.value.is_empty() && r.date.len() == 10, "the value and date of {what}");
                    }
                    None => missing.push(format!("{} ({})", what, bench.name)),
                }
            }
            for r in &rows {
                assert!(want.iter().any(|(_, w)| *w == r.what), "a row no benchmark prints: {}", r.what);
            }
        }
        assert!(missing.is_empty(), "rows missing, run `cargo xtask bench --only NAME`:\n{}", missing.join("\n"));
    }

    /// The numbers a generated table holds: of the sizes table its figures (not the games,
    /// boards and chips), of the others the values.
    fn generated_numbers(readme: &str) -> Vec<String> {
        let mut cells = Vec::new();
        if let Some(t) = between(readme, crate::figures::BEGIN) {
            for l in t.lines().filter(|l| l.starts_with("| ")) {
                cells.extend(l.split('|').skip(4).map(str::to_string));
            }
        }
        for table in Table::ALL {
            cells.extend(rows(readme, table).into_iter().map(|r| r.value));
        }
        let mut numbers: Vec<String> =
            cells.iter().flat_map(|c| numbers(c)).filter(significant).map(|(n, _)| n).collect();
        numbers.sort();
        numbers.dedup();
        numbers
    }

    /// The numbers of a text, thousands' commas taken out, each with its offset: digits with
    /// commas between groups and a decimal part, not part of a word (`atmega16`, `E0015`), of a
    /// date (`2026-11-28`) or of a version.
    fn numbers(text: &str) -> Vec<(String, usize)> {
        let b = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if !b[i].is_ascii_digit() {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_digit()
                    || ((b[i] == b',' || b[i] == b'.') && i + 1 < b.len() && b[i + 1].is_ascii_digit()))
            {
                i += 1;
            }
            let before = start.checked_sub(1).map(|j| b[j]);
            let after = b.get(i).copied();
            let word = |c: Option<u8>| c.is_some_and(|c| c.is_ascii_alphabetic() || c == b'_');
            let dated = |c: Option<u8>| c == Some(b'-') || c == Some(b'.') || c == Some(b'/');
            if !word(before) && !word(after) && !dated(before) && !dated(after) {
                out.push((text[start..i].replace(',', ""), start));
            }
        }
        out
    }

    /// A number that says something measured: three significant digits or more (`23.7`,
    /// `163`, `3894`), where a count of games or cards (`200`, `12`) is a setting.
    fn significant((n, _): &(String, usize)) -> bool {
        let digits = n.replace('.', "");
        digits.trim_start_matches('0').trim_end_matches('0').len() >= 3
    }

    /// The README outside its generated tables and its code: what a person wrote.
    fn prose(readme: &str) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        let (mut code, mut generated) = (false, false);
        for (i, line) in readme.lines().enumerate() {
            if line.starts_with("```") {
                code = !code;
                continue;
            }
            if line.starts_with("<!-- figures: ") {
                generated = true;
            }
            if line.starts_with(crate::figures::END) {
                generated = false;
                continue;
            }
            if !code && !generated {
                // Inline code is a command or a name, not a figure.
                let text: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
                out.push((i + 1, text));
            }
        }
        out
    }

    /// Numbers of the prose that are no measurement and may equal one by chance: a count the
    /// rules give, a setting of a benchmark.
    const NOT_FIGURES: &[&str] = &["perft 225, 50,400, 11,239,200", "every 997 cycles"];

    /// Units of what a chip has, not of what a benchmark measures: `384 KB of SRAM`, `168 MHz`.
    const CHIP_UNITS: &[&str] = &[" KB", " KiB", " MB", " MHz", " kHz"];

    /// No figure of a generated table is typed into the README's prose, where it would go stale
    /// when the benchmarks are run again: the prose points at the tables. A number of three
    /// significant digits or more that a table holds, found in the prose, fails here.
    #[test]
    fn the_readme_prose_repeats_no_generated_figure() {
        let readme = std::fs::read_to_string(readme_path()).unwrap();
        let generated = generated_numbers(&readme);
        assert!(generated.len() > 50, "the tables hold their figures: {generated:?}");
        let mut found = Vec::new();
        for (line, text) in prose(&readme) {
            let text = NOT_FIGURES.iter().fold(text, |t, n| t.replace(n, ""));
            for (n, at) in numbers(&text) {
                let after = &text[at..].trim_start_matches(|c: char| c.is_ascii_digit() || c == ',' || c == '.');
                if generated.contains(&n) && !CHIP_UNITS.iter().any(|u| after.starts_with(u)) {
                    found.push(format!("README.md:{line}: {n}: {}", text.trim()));
                }
            }
        }
        assert!(
            found.is_empty(),
            "figures of the generated tables typed by hand; point at the table:\n{}",
            found.join("\n")
        );
    }

    #[test]
    fn numbers_are_read_whole_and_apart_from_names_and_dates() {
        let got: Vec<String> = numbers("flash 3,370 B, 0.69 ms on the atmega16 (2026-11-28), E0015 and 12 cards.")
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(got, ["3370", "0.69", "12"]);
        assert!(significant(&("23.7".into(), 0)) && significant(&("163".into(), 0)));
        assert!(
            !significant(&("200".into(), 0)) && !significant(&("12".into(), 0)) && !significant(&("0.8".into(), 0))
        );
    }
}

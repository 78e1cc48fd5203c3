//! `cargo xtask`: developer commands that need more than cargo itself.
//!
//! `build` and `test` first make sure the machine has what the firmware needs (Debian's AVR
//! toolchain and simavr's build dependencies, nightly's `rust-src`), so they work on a fresh
//! machine that has only rustup, cargo, gcc and apt.

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Install what building and testing firmware needs (apt packages, nightly rust-src).
    Setup,
    /// Build every game in games/ on its default board (boards/<game>_*.board) into build/.
    Build,
    /// Run the whole test suite, firmware in the simulator included.
    Test,
    /// rustfmt and clippy, as CI would.
    Lint,
    /// The benchmarks behind the README's figures (simulator cycles, stack depth, perft).
    Bench,
}

const APT_PACKAGES: &[&str] =
    &["gcc-avr", "avr-libc", "binutils-avr", "simavr", "libelf-dev", "clang", "pkg-config", "libzstd-dev"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("$ {cmd:?}");
    let status = cmd.status().map_err(|e| format!("{cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed: {status}"))
    }
}

fn have(program: &str) -> bool {
    Command::new("sh").arg("-c").arg(format!("command -v {program}")).output().is_ok_and(|o| o.status.success())
}

fn setup() -> Result<(), String> {
    let missing_apt =
        !have("avr-gcc") || !have("simavr") || !Path::new("/usr/include/libelf.h").exists() || !have("clang");
    if missing_apt {
        let sudo = if have("sudo") && std::env::var("USER").is_ok_and(|u| u != "root") { "sudo " } else { "" };
        run(Command::new("sh").arg("-c").arg(format!(
            "{sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive {sudo}apt-get install -y -qq {}",
            APT_PACKAGES.join(" ")
        )))?;
    }
    let components = Command::new("rustup")
        .args(["component", "list", "--installed", "--toolchain", "nightly"])
        .output()
        .map_err(|e| format!("rustup: {e}"))?;
    if !String::from_utf8_lossy(&components.stdout).contains("rust-src") {
        run(Command::new("rustup").args(["component", "add", "rust-src", "--toolchain", "nightly"]))?;
    }
    Ok(())
}

/// Each game with its default board: the first `boards/<game>_*.board`.
fn games_and_boards() -> Result<Vec<(PathBuf, PathBuf)>, String> {
    let list = |dir: &str, ext: &str| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == ext)).collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    let boards = list("boards", "board");
    let mut pairs = Vec::new();
    for game in list("games", "game") {
        let stem = game.file_stem().unwrap().to_string_lossy().to_string();
        let board = boards
            .iter()
            .find(|b| b.file_stem().unwrap().to_string_lossy().starts_with(&format!("{stem}_")))
            .ok_or(format!("no default board boards/{stem}_*.board for {}", game.display()))?;
        pairs.push((game, board.clone()));
    }
    Ok(pairs)
}

fn build() -> Result<(), String> {
    setup()?;
    run(Command::new("cargo").args(["build", "--release", "-q", "-p", "gamec"]).current_dir(root()))?;
    let gamec = root().join("target/release/gamec");
    for (game, board) in games_and_boards()? {
        run(Command::new(&gamec)
            .arg("build")
            .arg(&game)
            .arg("--board")
            .arg(&board)
            .arg("-o")
            .arg("build")
            .current_dir(root()))?;
    }
    eprintln!("firmware written to {}/build/<game>-<board>.elf and .hex", root().display());
    Ok(())
}

fn bench() -> Result<(), String> {
    build()?;
    run(Command::new("cargo")
        .args([
            "test",
            "-q",
            "-p",
            "gamec",
            "--test",
            "silver_dollar_device",
            "bench",
            "--",
            "--ignored",
            "--nocapture",
        ])
        .current_dir(root()))?;
    for test in ["othello_device", "tictactoe_device", "connect_four_device", "nim_device"] {
        run(Command::new("cargo")
            .args(["test", "-q", "-p", "gamec", "--test", test, "bench", "--", "--ignored", "--nocapture"])
            .current_dir(root()))?;
    }
    run(Command::new("cargo")
        .args(["test", "-q", "--release", "-p", "gamec-hosted", "--test", "strength", "--", "--ignored", "--nocapture"])
        .current_dir(root()))?;
    let gamec = root().join("target/release/gamec");
    run(Command::new(&gamec).args(["perft", "games/othello.game", "--depth", "10"]).current_dir(root()))?;
    run(Command::new(&gamec).args(["perft", "games/connect_four.game", "--depth", "8"]).current_dir(root()))?;
    // Solving on the host: analyze explores and values every reachable position.
    for game in ["games/tictactoe.game", "games/nim.game", "games/silver_dollar.game"] {
        let started = std::time::Instant::now();
        let runs = 5;
        for _ in 0..runs {
            let out = Command::new(&gamec).args(["analyze", game]).current_dir(root()).output().map_err(|e| e.to_string())?;
            if !out.status.success() {
                return Err(format!("gamec analyze {game} failed"));
            }
        }
        eprintln!("gamec analyze {game}: {:.1} ms per run (mean of {runs})", started.elapsed().as_secs_f64() * 1000.0 / runs as f64);
    }
    for args in [
        &["check", "games/silver_dollar.game", "boards/silver_dollar_attiny84.board"][..],
        &["build", "games/silver_dollar.game", "--board", "boards/silver_dollar_attiny84.board", "-o", "build"][..],
    ] {
        let started = std::time::Instant::now();
        let runs = 5;
        for _ in 0..runs {
            let out = Command::new(&gamec).args(args).current_dir(root()).output().map_err(|e| e.to_string())?;
            if !out.status.success() {
                return Err(format!("gamec {args:?} failed"));
            }
        }
        eprintln!(
            "gamec {}: {:.1} ms per run (mean of {runs})",
            args[0],
            started.elapsed().as_secs_f64() * 1000.0 / runs as f64
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Cmd::Setup => setup(),
        Cmd::Build => build(),
        Cmd::Test => {
            setup().and_then(|()| run(Command::new("cargo").args(["test", "--workspace"]).current_dir(root())))
        }
        Cmd::Bench => setup().and_then(|()| bench()),
        Cmd::Lint => run(Command::new("cargo").args(["fmt", "--all", "--check"]).current_dir(root())).and_then(|()| {
            run(Command::new("cargo")
                .args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])
                .current_dir(root()))
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

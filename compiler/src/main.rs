//! The `gamec` command line: check, analyze and build game and board files.

use clap::{Parser, Subcommand};
use gamec::analyze::Analysis;
use gamec::driver;
use gamec::Error;
use gamec_dsl::Sources;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "gamec", version, about = "Compile declarative logic games to microcontroller firmware")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Parse, resolve and lint game and board files; a game and a board given together are
    /// also checked as a pair.
    Check { files: Vec<PathBuf> },
    /// Print what the compiler proves about a game's rules.
    Analyze { game: PathBuf },
    /// Generate and build the firmware for a game on a board.
    Build {
        game: PathBuf,
        #[arg(long)]
        board: PathBuf,
        /// Where the ELF and HEX files go.
        #[arg(short, long, default_value = "build")]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut sources = Sources::new();
    let result = match cli.command {
        Cmd::Check { files } => check(&mut sources, &files),
        Cmd::Analyze { game } => analyze(&mut sources, &game),
        Cmd::Build { game, board, out } => build(&mut sources, &game, &board, &out),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Diagnostics(d)) => {
            eprint!("{}", sources.render(&d));
            let errors = d.iter().filter(|d| d.is_error()).count();
            eprintln!("error: {errors} error(s) found");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn check(sources: &mut Sources, files: &[PathBuf]) -> Result<(), Error> {
    let ids = files.iter().map(|f| driver::read(sources, f)).collect::<Result<Vec<_>, _>>()?;
    gamec::check(sources, &ids)?;
    println!("ok: {} file(s) checked", ids.len());
    Ok(())
}

fn analyze(sources: &mut Sources, game: &std::path::Path) -> Result<(), Error> {
    let id = driver::read(sources, game)?;
    let def = gamec_dsl::load_game(sources, id)?;
    print!("{}", Analysis::new(&def));
    Ok(())
}

fn build(
    sources: &mut Sources,
    game: &std::path::Path,
    board: &std::path::Path,
    out: &std::path::Path,
) -> Result<(), Error> {
    let built = driver::build(sources, game, board, out)?;
    println!("wrote {}", built.elf.display());
    println!("wrote {}", built.hex.display());
    print!("{}", built.report);
    Ok(())
}

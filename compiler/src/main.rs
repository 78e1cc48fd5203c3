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
    /// Count move paths from the start position (passes are plies, finished games leaves).
    Perft {
        game: PathBuf,
        #[arg(long, default_value_t = 6)]
        depth: u32,
    },
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
        Cmd::Perft { game, depth } => perft(&mut sources, &game, depth),
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
    print!("{}", Analysis::new(&def, id)?);
    Ok(())
}

fn perft(sources: &mut Sources, game: &std::path::Path, depth: u32) -> Result<(), Error> {
    let id = driver::read(sources, game)?;
    let def = gamec_dsl::load_game(sources, id)?;
    let Some(rules) = gamec::grid_rules::GridRules::new(&def) else {
        let d = gamec_dsl::Diagnostic::error("E0006", "perft is supported for grid games of placement")
            .with_label(gamec_dsl::Label::primary(id, def.board.span(), "this board"))
            .with_help("for line games, `gamec analyze` counts every state");
        return Err(Error::Diagnostics(vec![d]));
    };
    let mut total = 0;
    let started = std::time::Instant::now();
    for d in 1..=depth {
        let n = rules.perft(&rules.start, d);
        total += n;
        println!("depth {d:>2}: {n}");
    }
    let secs = started.elapsed().as_secs_f64();
    println!("{total} leaves in {secs:.2} s ({:.1} M leaves/s)", total as f64 / secs.max(1e-9) / 1e6);
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

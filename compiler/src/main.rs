//! The `gamec` command line: check, analyze and build game and board files.

mod card_console;
mod host_helper;
mod qemu_ports;
mod terminal;

use clap::{Parser, Subcommand};
use gamec::analyze::Analysis;
use gamec::driver;
use gamec::Error;
use gamec_dsl::Code;
use gamec_dsl::Sources;
use std::path::PathBuf;
use std::process::ExitCode;

/// Writes to standard output; a reader that has gone away (`gamec perft ... | head`) ends the
/// command quietly, as `print!` would not: it panics on a closed pipe.
fn write_out(args: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing the output: {e}");
        std::process::exit(1);
    }
}

macro_rules! out {
    ($($t:tt)*) => { write_out(format_args!($($t)*)) };
}

macro_rules! outln {
    ($($t:tt)*) => { write_out(format_args!("{}\n", format_args!($($t)*))) };
}

#[derive(Parser)]
#[command(name = "gamec", version, about = "Compile declarative logic games to microcontroller firmware")]
struct Cli {
    /// How diagnostics are given: `human` (rustc's style, in colour on a terminal) or `json`
    /// (a JSON object a line on standard output, for editors and scripts).
    #[arg(long, global = true, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum MessageFormat {
    Human,
    Json,
}

/// The message format the command line asked for, read where diagnostics are printed.
static MESSAGE_FORMAT: std::sync::OnceLock<MessageFormat> = std::sync::OnceLock::new();

#[derive(Subcommand)]
enum Cmd {
    /// Parse, resolve and lint game and board files, each on its own; with `--board`, each
    /// game is also checked with that board, as `build` and `play` would pair them.
    Check {
        files: Vec<PathBuf>,
        /// Check each game with this board.
        #[arg(long)]
        board: Option<PathBuf>,
    },
    /// Print what the compiler proves about a game's rules.
    Analyze { game: PathBuf },
    /// Count move paths from the start position (passes are plies, finished games leaves).
    Perft {
        game: PathBuf,
        #[arg(long, default_value_t = 6)]
        depth: u32,
    },
    /// Print new starts for a puzzle, each with exactly one solution, as `setup fixed` blocks.
    Generate {
        game: PathBuf,
        /// At most 10,000: each start may take 40 tries, and the tries are counted in a word.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(..=10_000))]
        count: u16,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only starts of this level: 1 deduction alone, 2 with trials, 3 a guess needed.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=3))]
        difficulty: Option<u8>,
    },
    /// Write every card's code as a Data Matrix sticker (SVG), and a sheet of them all.
    Stickers {
        game: PathBuf,
        #[arg(short, long, default_value = "build/stickers")]
        out: PathBuf,
    },
    /// Draw a board's wiring as SVG: the chip's pins and what each drives. Written to standard
    /// output, or with `-o` to a file.
    Draw {
        board: PathBuf,
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Run the tests the game files carry (`test "name" { ... }`).
    Test { games: Vec<PathBuf> },
    /// Build the firmware and program the board with it: avrdude for AVR (the EEPROM image
    /// too, where the board has one), probe-rs for an STM32F405, OpenOCD for the AT32F437 and
    /// the LM3S6965.
    Flash {
        game: PathBuf,
        #[arg(long)]
        board: PathBuf,
        /// avrdude's programmer (`-c`, by default the board file's `programmer` or `usbasp`),
        /// or probe-rs's `--probe`.
        #[arg(long)]
        programmer: Option<String>,
        /// The port the programmer is on (avrdude's `-P`; by default the board file's).
        #[arg(long)]
        port: Option<String>,
        /// Print the commands, and run none.
        #[arg(long)]
        dry_run: bool,
        #[arg(short, long, default_value = "build")]
        out: PathBuf,
    },
    /// Say what a diagnostic's code means and what usually fixes it (`gamec explain E0005`).
    Explain { code: String },
    /// Check (or, with `--board`, build) the game again each time the game or board file is
    /// saved, printing the diagnostics, or the sizes and budgets. Ctrl-C stops.
    Watch {
        game: PathBuf,
        #[arg(long)]
        board: Option<PathBuf>,
        #[arg(short, long, default_value = "build")]
        out: PathBuf,
    },
    /// Print the completion script of a shell (`gamec completions bash > ~/.local/share/bash-completion/completions/gamec`).
    Completions { shell: clap_complete::Shell },
    /// Play a game at the terminal. Without a board: the rules on the host against the
    /// device's strategy, moves typed in the game's notation (`moves` lists them). With
    /// `--board`: the board's firmware, built, run in a simulator and drawn in the terminal.
    Play {
        game: PathBuf,
        /// Build for this board and play its firmware in simavr (AVR) or QEMU (Cortex-M).
        #[arg(long)]
        board: Option<PathBuf>,
        /// The deal of a random setup and the device's ties (by default from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Where the built firmware goes, with `--board`.
        #[arg(short, long, default_value = "build")]
        out: PathBuf,
        /// With a serial game's board: gamec speaks the protocol, and the person types moves
        /// alone (their side picked when asked, the device's moves acknowledged).
        #[arg(long, requires = "board")]
        host: bool,
        /// Play in the browser instead: a page on localhost runs the AVR firmware in avr8js,
        /// the board drawn as `gamec draw` draws it, reloaded after every save.
        #[arg(long, requires = "board")]
        web: bool,
        /// The page's port on localhost, with `--web` (0: any free port; the URL is printed).
        #[arg(long, default_value_t = 8080, requires = "web")]
        port: u16,
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
    /// Run the language server on stdin and stdout, for editors.
    Lsp,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _ = MESSAGE_FORMAT.set(cli.message_format);
    let mut sources = Sources::new();
    let result = match cli.command {
        Cmd::Check { files, board } => check(&mut sources, &files, board.as_deref()),
        Cmd::Analyze { game } => analyze(&mut sources, &game),
        Cmd::Perft { game, depth } => perft(&mut sources, &game, depth),
        Cmd::Test { games } => test(&mut sources, &games),
        Cmd::Stickers { game, out } => stickers(&mut sources, &game, &out),
        Cmd::Draw { board, out } => draw(&mut sources, &board, out.as_deref()),
        Cmd::Generate { game, count, seed, difficulty } => {
            generate(&mut sources, &game, &gamec::generate::Request { count: count.into(), seed, difficulty })
        }
        Cmd::Build { game, board, out } => build(&mut sources, &game, &board, &out),
        Cmd::Lsp => gamec::lsp::run(),
        Cmd::Explain { code } => explain(&code),
        Cmd::Watch { game, board, out } => watch(&game, board.as_deref(), &out),
        Cmd::Flash { game, board, programmer, port, dry_run, out } => {
            flash(&mut sources, &game, &board, &out, &driver::Programmer { name: programmer, port }, dry_run)
        }
        Cmd::Completions { shell } => {
            use clap::CommandFactory;
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "gamec", &mut script);
            out!("{}", String::from_utf8_lossy(&script));
            Ok(())
        }
        Cmd::Play { game, board: None, seed, .. } => play(&mut sources, &game, seed),
        Cmd::Play { game, board: Some(board), out, web: true, port, .. } => {
            let serve = gamec::web::Serve { game, board, out, port };
            gamec::web::serve(serve, |url| outln!("gamec play: the board runs at {url} (Ctrl-C stops)"))
        }
        Cmd::Play { game, board: Some(board), out, host, .. } => play_board(&mut sources, &game, &board, &out, host),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Diagnostics(d)) => {
            print_diagnostics(&sources, &d);
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

/// Diagnostics to standard error: in colour on a terminal, plain when piped; or, with
/// `--message-format json`, a JSON object a line on standard output.
fn print_diagnostics(sources: &Sources, d: &[gamec_dsl::Diagnostic]) {
    use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
    use std::io::IsTerminal;
    if MESSAGE_FORMAT.get() == Some(&MessageFormat::Json) {
        for diag in d {
            outln!("{}", json(sources, diag));
        }
        return;
    }
    if std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
        let mut out = StandardStream::stderr(ColorChoice::Auto);
        if sources.render_in_colour(d, &mut out).is_ok() {
            return;
        }
    }
    eprint!("{}", sources.render(d));
}

/// A diagnostic as JSON: its code, level, message, help and notes, and each label's file,
/// lines and columns (from 1) and bytes.
fn json(sources: &Sources, d: &gamec_dsl::Diagnostic) -> String {
    let labels: Vec<serde_json::Value> = d
        .labels
        .iter()
        .map(|l| {
            let (line, column) = sources.line_column(l.file, l.span.start);
            let (end_line, end_column) = sources.line_column(l.file, l.span.end);
            serde_json::json!({
                "file": sources.name(l.file), "line": line, "column": column,
                "end_line": end_line, "end_column": end_column,
                "byte_start": l.span.start, "byte_end": l.span.end,
                "primary": l.primary, "message": l.message,
            })
        })
        .collect();
    let level = if d.is_error() { "error" } else { "warning" };
    serde_json::json!({
        "code": d.code.as_str(), "level": level, "message": d.message,
        "help": d.help, "notes": d.notes, "labels": labels,
    })
    .to_string()
}

fn explain(code: &str) -> Result<(), Error> {
    let c = Code::parse(code.trim()).ok_or_else(|| Error::UnknownCode(code.to_string()))?;
    outln!("{c}: {}", c.meaning());
    if let Some(fix) = c.fix() {
        outln!("\nWhat to do: {fix}");
    }
    Ok(())
}

fn check(sources: &mut Sources, files: &[PathBuf], board: Option<&std::path::Path>) -> Result<(), Error> {
    let is_board = |f: &PathBuf| f.extension().is_some_and(|e| e == "board");
    // A game and a board side by side: which pairs were meant is a guess, so none is made.
    if board.is_none() && files.iter().any(is_board) && !files.iter().all(is_board) {
        return Err(Error::Usage(
            "a game and a board given side by side are not paired: name the board with `--board` \
             (`gamec check GAME --board BOARD`, as `build` and `play` take it), or check the files \
             of each kind on their own"
                .into(),
        ));
    }
    let ids = files.iter().map(|f| driver::read(sources, f)).collect::<Result<Vec<_>, _>>()?;
    let board = board.map(|b| driver::read(sources, b)).transpose()?;
    // Each file on its own, or each game with the board.
    let (mut warnings, mut errors) = (Vec::new(), Vec::new());
    for &id in &ids {
        let pair: Vec<_> = std::iter::once(id).chain(board).collect();
        match gamec::check(sources, &pair) {
            Ok(w) => warnings.extend(w),
            Err(d) => errors.extend(d),
        }
    }
    if !errors.is_empty() {
        errors.extend(warnings);
        return Err(Error::Diagnostics(errors));
    }
    if !warnings.is_empty() {
        print_diagnostics(sources, &warnings);
    }
    outln!("ok: {} file(s) checked", ids.len() + board.iter().count());
    Ok(())
}

fn analyze(sources: &mut Sources, game: &std::path::Path) -> Result<(), Error> {
    let id = driver::read(sources, game)?;
    let def = gamec_dsl::load_game(sources, id)?;
    // A line game dealt at random: what the setup constraints leave, as the seed counts it.
    if def.rules.setup.is_random() && gamec::rules::Rules::new(&def).is_some() {
        out!("{}", Analysis::new(&def, id)?);
    }
    out!("{}", gamec::analyze::Facts::new(&def));
    Ok(())
}

/// Checks or builds on every save of the files, for ever: a failed round prints its
/// diagnostics and waits for the next save.
fn watch(game: &std::path::Path, board: Option<&std::path::Path>, out: &std::path::Path) -> Result<(), Error> {
    let files: Vec<&std::path::Path> = std::iter::once(game).chain(board).collect();
    let stamp = |f: &std::path::Path| std::fs::metadata(f).and_then(|m| m.modified()).ok();
    let mut seen: Vec<Option<std::time::SystemTime>> = Vec::new();
    loop {
        let now: Vec<_> = files.iter().map(|f| stamp(f)).collect();
        if now != seen {
            seen = now;
            let mut sources = Sources::new();
            let round = match board {
                Some(b) => build(&mut sources, game, b, out),
                None => check(&mut sources, &[game.to_path_buf()], None),
            };
            match round {
                Ok(()) => {}
                Err(Error::Diagnostics(d)) => {
                    print_diagnostics(&sources, &d);
                    eprintln!("error: {} error(s) found", d.iter().filter(|d| d.is_error()).count());
                }
                Err(e) => eprintln!("error: {e}"),
            }
            outln!(
                "watching {} for changes (Ctrl-C stops)",
                files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(" and ")
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
}

/// Builds the firmware and programs the board with it, or with `dry_run` says how.
fn flash(
    sources: &mut Sources,
    game: &std::path::Path,
    board: &std::path::Path,
    out: &std::path::Path,
    programmer: &driver::Programmer,
    dry_run: bool,
) -> Result<(), Error> {
    let built = driver::build(sources, game, board, out)?;
    let commands = driver::flash_commands(&built, &programmer.or_board(&built.target)).map_err(Error::Flash)?;
    for cmd in &commands {
        // As a shell reads it: an argument with a space in single quotes.
        let words: Vec<String> =
            cmd.iter().map(|w| if w.contains(' ') { format!("'{w}'") } else { w.clone() }).collect();
        outln!("{}", words.join(" "));
        if dry_run {
            continue;
        }
        let status = std::process::Command::new(&cmd[0])
            .args(&cmd[1..])
            .status()
            .map_err(|e| Error::Flash(format!("cannot run {}: {e} (`cargo xtask setup` installs avrdude)", cmd[0])))?;
        if !status.success() {
            return Err(Error::Flash(format!("{} exited with {status}", cmd[0])));
        }
    }
    Ok(())
}

/// Builds the firmware and plays it in a simulator, the board drawn in the terminal.
fn play_board(
    sources: &mut Sources,
    game: &std::path::Path,
    board: &std::path::Path,
    out: &std::path::Path,
    host: bool,
) -> Result<(), Error> {
    let built = driver::build(sources, game, board, out)?;
    let title = format!(
        "gamec play: {} on {}",
        game.file_stem().unwrap_or_default().to_string_lossy(),
        board.file_stem().unwrap_or_default().to_string_lossy()
    );
    // A Cortex-M image runs in its chip's QEMU machine (the AT32F437's on the STM32F405's,
    // its stack moved into the RAM that machine maps, in a copy): refused here, with the
    // figures, where none can.
    let sim = match built.target.chip.arch {
        gamec::chips::Arch::CortexM(_) => Some(driver::sim_image(&built)?),
        gamec::chips::Arch::Avr(_) => None,
    };
    // A game of cards has two lines, the console and the scanner: typed cards feed the latter.
    if let Some(ports) = &built.target.cards {
        let Some((image, qemu)) = sim.as_ref().filter(|(_, q)| q.usarts) else {
            return Err(Error::Play(format!("no simulator runs the {}'s USARTs", built.target.chip.name)));
        };
        let id = driver::read(sources, game)?;
        let deck = gamec_dsl::load_game(sources, id)?.cards.expect("a game bound to a cards board has cards");
        return card_console::play(image, qemu, ports, &deck).map_err(Error::Play);
    }
    let speaker = match host {
        true => Some(speaker(sources, game)?),
        false => None,
    };
    terminal::play(&built.elf, sim.as_ref(), &built.target, &title, speaker).map_err(Error::Play)
}

/// `play --host`: what gamec says for the person, who plays the side the device does not.
fn speaker(sources: &mut Sources, game: &std::path::Path) -> Result<host_helper::Speaker, Error> {
    let id = driver::read(sources, game)?;
    let def = gamec_dsl::load_game(sources, id)?;
    let Some(serial) = &def.interface.serial else {
        return Err(Error::Play(
            "`--host` speaks a serial game's protocol, and this game has no `controls serial`".into(),
        ));
    };
    let device = def.device.strategy.as_ref().and_then(|s| s.player).unwrap_or(1 - def.rules.first);
    Ok(host_helper::Speaker::new(serial, 1 - device.min(1)))
}

fn play(sources: &mut Sources, game: &std::path::Path, seed: Option<u64>) -> Result<(), Error> {
    use gamec::play::{HostGame, Reply};
    use std::io::{BufRead, Write};
    let id = driver::read(sources, game)?;
    let def = gamec_dsl::load_game(sources, id)?;
    let errors: Vec<_> = gamec::lints::lint(&def, id).into_iter().filter(|d| d.is_error()).collect();
    if !errors.is_empty() {
        return Err(Error::Diagnostics(errors));
    }
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    });
    let mut g = HostGame::new(&def, seed).map_err(Error::Play)?;
    let names = &g.engine.player_names;
    match g.device {
        Some(d) => outln!(
            "{}: the device plays {}; type your moves, `moves` to list them, `quit` to stop.",
            def.name.node,
            names[d as usize]
        ),
        None => outln!("{}: type your moves, `moves` to list them, `quit` to stop.", def.name.node),
    }
    let mut lines = std::io::stdin().lock().lines();
    let mut moved = true;
    loop {
        if std::mem::take(&mut moved) {
            outln!("{}", g.engine.show(&g.state));
        }
        if let Some(o) = g.outcome() {
            outln!("game over: {}", g.verdict(o));
            return Ok(());
        }
        if g.device_to_move() {
            if let Some(m) = g.device_move() {
                outln!("device plays {m}");
            }
            moved = true;
            continue;
        }
        out!("{} to move> ", g.engine.player_names[g.state.to_move as usize]);
        let _ = std::io::stdout().flush();
        let Some(Ok(line)) = lines.next() else {
            outln!("");
            return Ok(());
        };
        match line.trim() {
            "" => {}
            "quit" | "q" => return Ok(()),
            "moves" | "?" => outln!("legal: {}", g.legal().join(", ")),
            text => match g.person(text) {
                Reply::Played => moved = true,
                Reply::Denied(why) => outln!("denied: {why}"),
            },
        }
    }
}

fn generate(sources: &mut Sources, game: &std::path::Path, req: &gamec::generate::Request) -> Result<(), Error> {
    let id = driver::read(sources, game)?;
    let def = gamec_dsl::load_game(sources, id)?;
    out!("{}", gamec::generate::generate(&def, id, req).map_err(|d| Error::Diagnostics(vec![d]))?);
    Ok(())
}

fn stickers(sources: &mut Sources, game: &std::path::Path, out: &std::path::Path) -> Result<(), Error> {
    let id = driver::read(sources, game)?;
    let def = gamec_dsl::load_game(sources, id)?;
    let stickers = gamec::stickers::stickers(&def, id).map_err(|d| Error::Diagnostics(vec![d]))?;
    for s in &stickers {
        driver::write(&out.join(&s.file), s.svg.as_bytes())?;
    }
    outln!("wrote {} stickers and the sheet to {}", stickers.len() - 1, out.display());
    Ok(())
}

/// `gamec draw`: the board's wiring as SVG, to `out` or to standard output.
fn draw(sources: &mut Sources, board: &std::path::Path, out: Option<&std::path::Path>) -> Result<(), Error> {
    let id = driver::read(sources, board)?;
    let svg = gamec::draw::board_svg(sources, id).map_err(Error::Diagnostics)?;
    match out {
        Some(path) => {
            driver::write(path, svg.as_bytes())?;
            outln!("wrote {}", path.display());
        }
        None => out!("{svg}"),
    }
    Ok(())
}

fn perft(sources: &mut Sources, game: &std::path::Path, depth: u32) -> Result<(), Error> {
    let id = driver::read(sources, game)?;
    let def = gamec_dsl::load_game(sources, id)?;
    if let Some(cards) = &def.cards {
        let d = gamec_dsl::Diagnostic::error(Code::E0006, "perft counts move paths; a game of cards has no moves")
            .with_label(gamec_dsl::Label::primary(id, cards.span, "a game of cards"))
            .with_help("`gamec analyze` counts the deck and its groups");
        return Err(Error::Diagnostics(vec![d]));
    }
    // Grid games of capturing placement have a fast bitboard reading, tested against the engine.
    let fast = gamec::grid_rules::GridRules::new(&def);
    let engine = gamec::engine::Engine::new(&def);
    let starts = gamec::analyze::starts(&engine, &def);
    let Some(start) = starts.first().filter(|_| starts.len() == 1) else {
        let d = gamec_dsl::Diagnostic::error(
            Code::E0006,
            "perft counts from one start position; this game deals one at random",
        )
        .with_label(gamec_dsl::Label::primary(id, def.rules.board.span(), "this board"))
        .with_help("`gamec analyze` counts every state reachable from every start");
        return Err(Error::Diagnostics(vec![d]));
    };
    let mut total: u64 = 0;
    let started = std::time::Instant::now();
    for d in 1..=depth {
        let n = match &fast {
            Some(rules) => rules.perft(&rules.start, d),
            None => engine.perft(start, d),
        };
        total = total.saturating_add(n);
        outln!("depth {d:>2}: {n}");
        // Finished games count as leaves at every depth below them, so once no path of `d`
        // plies is still being played, every deeper depth counts these leaves again: stop,
        // whatever depth was asked for.
        let open = match &fast {
            Some(rules) => goes_on(&rules.start, d, &|p| rules.plies(p), &|p, m| rules.play(p, m)),
            None => goes_on(start, d, &|s| engine.plies(s), &|s, m| engine.play(s, m)),
        };
        if !open {
            outln!("every game is over within {d} plies: deeper depths count the same {n} leaves");
            break;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    outln!("{total} leaves in {secs:.2} s ({:.1} M leaves/s)", total as f64 / secs.max(1e-9) / 1e6);
    Ok(())
}

/// Whether some path of exactly `depth` plies from `p` is still being played. It stops at the
/// first such path, so it costs little while the tree grows, and one perft of `depth` when it
/// has stopped growing.
fn goes_on<P, M: Copy>(p: &P, depth: u32, plies: &dyn Fn(&P) -> Vec<M>, play: &dyn Fn(&P, M) -> P) -> bool {
    let moves = plies(p);
    !moves.is_empty() && (depth == 0 || moves.iter().any(|&m| goes_on(&play(p, m), depth - 1, plies, play)))
}

fn test(sources: &mut Sources, games: &[PathBuf]) -> Result<(), Error> {
    let (mut passed, mut failed) = (0, 0);
    for path in games {
        let id = driver::read(sources, path)?;
        let def = gamec_dsl::load_game(sources, id)?;
        for run in gamec::game_tests::run(&def, id) {
            if run.passed() {
                passed += 1;
                outln!("test {}: {} ... ok", path.display(), run.name);
            } else {
                failed += 1;
                outln!("test {}: {} ... FAILED", path.display(), run.name);
                print_diagnostics(sources, &run.failures);
            }
        }
    }
    outln!("{passed} passed, {failed} failed");
    if failed > 0 {
        Err(Error::TestsFailed(failed))
    } else {
        Ok(())
    }
}

fn build(
    sources: &mut Sources,
    game: &std::path::Path,
    board: &std::path::Path,
    out: &std::path::Path,
) -> Result<(), Error> {
    let built = driver::build(sources, game, board, out)?;
    if !built.target.warnings.is_empty() {
        print_diagnostics(sources, &built.target.warnings);
    }
    outln!("wrote {}", built.elf.display());
    outln!("wrote {}", built.hex.display());
    outln!("wrote {}", built.hex.with_extension("bin").display());
    if let Some(e) = &built.eeprom {
        outln!("wrote {} and {}", e.display(), e.with_extension("hex").display());
    }
    out!("{}", built.report);
    Ok(())
}

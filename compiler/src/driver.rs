//! The I/O shell around the pure compiler: reads files, writes the generated crate, runs
//! cargo on it, and turns the ELF into HEX with a size report. The CLI is a thin layer on this.

use crate::analyze::Analysis;
use crate::bind::{self, Target};
use crate::codegen::{self, ScaffoldInputs};
use crate::stack_depth::{avr_stack_depth, thumb_stack_depth, Limit, Priorities, Reentry, StackDepth, Unbounded};
use crate::Error;
use gamec_dsl::{FileId, GameDef, Sources};
use object::read::elf::{ElfFile32, ProgramHeader};
use object::{Object, ObjectSection};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Reads a file into `sources`.
pub fn read(sources: &mut Sources, path: &Path) -> Result<FileId, Error> {
    let text =
        std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.display().to_string(), source })?;
    Ok(sources.add(path.display().to_string(), text))
}

pub fn write(path: &Path, contents: &[u8]) -> Result<(), Error> {
    let io = |source| Error::Io { path: path.display().to_string(), source };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    // Leave unchanged files alone so cargo's incremental build stays warm.
    if std::fs::read(path).is_ok_and(|old| old == contents) {
        return Ok(());
    }
    std::fs::write(path, contents).map_err(io)
}

/// Flash and RAM an image uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    pub text: u32,
    pub data: u32,
    pub bss: u32,
}

impl Sizes {
    pub fn flash(&self) -> u32 {
        self.text + self.data
    }
    pub fn ram(&self) -> u32 {
        self.data + self.bss
    }
}

/// What `gamec build` produced.
pub struct Built {
    pub elf: PathBuf,
    pub hex: PathBuf,
    /// The EEPROM's image (raw; an Intel HEX of it lies beside it), for boards that have one.
    pub eeprom: Option<PathBuf>,
    pub sizes: Sizes,
    /// The deepest stack, bounded from the machine code as the report says, where it has a
    /// bound.
    pub stack: Option<u32>,
    pub target: Target,
    pub report: String,
}

/// The runtime crate's path, found next to this crate's sources.
fn runtime_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../runtime")
        .canonicalize()
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime"))
}

/// Loads a game and a board and binds them.
pub fn load_pair(
    sources: &mut Sources,
    game_path: &Path,
    board_path: &Path,
) -> Result<(GameDef, gamec_dsl::BoardDef, Target, FileId), Error> {
    let gf = read(sources, game_path)?;
    let bf = read(sources, board_path)?;
    let game = gamec_dsl::load_game(sources, gf);
    let board = gamec_dsl::load_board(sources, bf);
    let (game, board) = match (game, board) {
        (Ok(g), Ok(b)) => (g, b),
        (g, b) => {
            let mut d = g.err().unwrap_or_default();
            d.extend(b.err().unwrap_or_default());
            return Err(Error::Diagnostics(d));
        }
    };
    let lints: Vec<_> = crate::lints::lint(&game, gf).into_iter().filter(|d| d.is_error()).collect();
    if !lints.is_empty() {
        return Err(Error::Diagnostics(lints));
    }
    let target = bind::bind(&game, gf, &board, bf)?;
    Ok((game, board, target, gf))
}

/// Generates, builds and measures the firmware for a game on a board.
pub fn build(sources: &mut Sources, game_path: &Path, board_path: &Path, out: &Path) -> Result<Built, Error> {
    let (game, board, target, game_file) = load_pair(sources, game_path, board_path)?;
    std::fs::create_dir_all(out).map_err(|source| Error::Io { path: out.display().to_string(), source })?;
    let out = &out.canonicalize().map_err(|source| Error::Io { path: out.display().to_string(), source })?;
    // Line games of slides are solved by their own reader; every other game carries its rules
    // (the core's table, a search, a puzzle's solutions) in its own module.
    let analysis = if target.plays_slides(&game) { Some(Analysis::new(&game, game_file)?) } else { None };
    let name = format!("{}-{}", game.name.node, board.name.node).replace('_', "-");
    let crate_dir = out.join("crates").join(&name);
    let inputs = ScaffoldInputs {
        crate_name: name.clone(),
        runtime_path: runtime_path().display().to_string(),
        game_path: game_path.display().to_string(),
        board_path: board_path.display().to_string(),
    };
    for f in codegen::firmware_crate(&game, &board, analysis.as_ref(), &target, &inputs, sources.text(game_file)) {
        write(&crate_dir.join(&f.path), f.contents.as_bytes())?;
    }
    // The chip's shared target compiles; the ELF is copied out under cargo's lock, so that a
    // build of the same crate name elsewhere cannot swap it before it is read.
    let artifacts = out.join("target");
    build_crate(&crate_dir, &shared_target_dir(target.chip), Some(&artifacts))?;
    // rustc names AVR executables `.elf`, Arm ones without an extension.
    let built = match target.chip.arch {
        crate::chips::Arch::Avr(_) => format!("{name}.elf"),
        crate::chips::Arch::CortexM(_) => name.clone(),
    };
    let built_elf = artifacts.join(built);
    let elf_bytes =
        std::fs::read(&built_elf).map_err(|source| Error::Io { path: built_elf.display().to_string(), source })?;
    let sizes = sizes(&elf_bytes)?;
    let stem = format!("{}-{}", game.name.node, board.name.node);
    let elf = out.join(format!("{stem}.elf"));
    let hex = out.join(format!("{stem}.hex"));
    write(&elf, &elf_bytes)?;
    write(&hex, intel_hex(&elf_bytes)?.as_bytes())?;
    write(&out.join(format!("{stem}.bin")), &flash_image(&elf_bytes)?)?;
    // The setups of a board with an EEPROM go into it, as the chip's programmer writes them.
    let eeprom = match target.cursor.as_ref().and_then(|c| c.eeprom) {
        Some(_) => {
            let image = crate::bind::cursor::eeprom_image(&game);
            let (bin, hex) = (out.join(format!("{stem}.eeprom.bin")), out.join(format!("{stem}.eeprom.hex")));
            write(&bin, &image)?;
            write(&hex, bytes_hex(&image)?.as_bytes())?;
            Some(bin)
        }
        None => None,
    };
    let depth = codegen::search_depth(&game, &target);
    let mut target = target;
    target.warnings.extend(crate::shallow_search(&game, &target, game_file));
    let stack = stack_bound(&elf_bytes, &target, &recursion_limits(&game, &target));
    let report = size_report(&sizes, stack.as_ref(), depth, &target);
    check_budget(&sizes, stack.as_ref(), &target).map_err(|e| Error::TooBig(format!("{e}\n{report}")))?;
    let stack = stack.and_then(|s| s.ok()).map(|d| d.bytes);
    Ok(Built { elf, hex, eeprom, sizes, stack, target, report })
}

/// The image a Cortex-M build runs in its chip's QEMU machine (`chips::CortexM::sim`), and
/// that machine: the built ELF itself where the machine maps as much RAM as the chip has.
/// Where it maps less (the AT32F437's image on QEMU's STM32F405), a copy beside the ELF,
/// `<stem>.<machine>.elf`, with only its initial stack pointer (the vector table's first word)
/// moved down to the top of the RAM the machine maps, and only where the firmware's static RAM
/// and the stack's bound from the build fit below it. The ELF, HEX and raw image a person
/// flashes are never touched.
pub fn sim_image(built: &Built) -> Result<(PathBuf, crate::chips::Qemu), Error> {
    let chip = built.target.chip;
    let (crate::chips::Arch::CortexM(m), Some(qemu)) = (chip.arch, chip.qemu()) else {
        return Err(Error::Play(format!("no simulator runs the {}'s image", chip.name)));
    };
    let top = m.ram_origin + chip.ram;
    if top <= qemu.ram_top {
        return Ok((built.elf.clone(), qemu));
    }
    let (room, statics) = (qemu.ram_top - m.ram_origin, built.sizes.ram());
    let kb = |b: u32| b / 1024;
    let Some(stack) = built.stack else {
        return Err(Error::Play(format!(
            "QEMU's {} maps {} KB of the {}'s {} KB of RAM, and its image runs there only with its stack \
             moved below that, where the build bounds the stack: this firmware's stack has no bound",
            qemu.machine,
            kb(room),
            chip.name,
            kb(chip.ram)
        )));
    };
    if statics + stack > room {
        return Err(Error::Play(format!(
            "QEMU's {} maps {} KB of the {}'s {} KB of RAM ({room} B), and this firmware needs {} B there: \
             {statics} B of static RAM and a stack bounded at {stack} B",
            qemu.machine,
            kb(room),
            chip.name,
            kb(chip.ram),
            statics + stack
        )));
    }
    let elf =
        std::fs::read(&built.elf).map_err(|source| Error::Io { path: built.elf.display().to_string(), source })?;
    let moved = initial_sp_moved(&elf, m.flash_origin, top, qemu.ram_top).map_err(Error::Play)?;
    let stem = built.elf.file_stem().unwrap_or_default().to_string_lossy();
    let copy = built.elf.with_file_name(format!("{stem}.{}.elf", qemu.machine));
    write(&copy, &moved)?;
    Ok((copy, qemu))
}

/// `elf` with its initial stack pointer, the word at `vectors` (the vector table, at the
/// flash's origin) that must read `from`, changed to `to`. Refused where another word the
/// image loads holds `from` too: start-up code that loaded the stack's top itself
/// (cortex-m-rt's `set-sp` or `paint-stack`) would put the stack back where the machine has
/// no RAM.
pub fn initial_sp_moved(elf: &[u8], vectors: u32, from: u32, to: u32) -> Result<Vec<u8>, String> {
    let file = ElfFile32::<object::Endianness>::parse(elf).map_err(|e| format!("unreadable ELF: {e}"))?;
    let endian = file.endian();
    let mut at = None;
    let mut others = 0;
    for ph in file.elf_program_headers() {
        if ph.p_type(endian) != object::elf::PT_LOAD || ph.p_filesz(endian) == 0 {
            continue;
        }
        let (paddr, offset, size) = (ph.p_paddr(endian), ph.p_offset(endian), ph.p_filesz(endian));
        let data =
            elf.get(offset as usize..).and_then(|d| d.get(..size as usize)).ok_or("a segment past the file's end")?;
        // Every word the segment loads at an address of a whole word.
        for j in ((4 - paddr % 4) as usize % 4..data.len().saturating_sub(3)).step_by(4) {
            if u32::from_le_bytes(data[j..j + 4].try_into().unwrap()) != from {
                continue;
            }
            match paddr + j as u32 == vectors {
                true => at = Some(offset as usize + j),
                false => others += 1,
            }
        }
    }
    let Some(at) = at else {
        return Err(format!(
            "the image's vector table at {vectors:#010x} does not begin with the stack's top, {from:#010x}"
        ));
    };
    if others > 0 {
        return Err(format!(
            "the image holds the stack's top, {from:#010x}, in {others} word(s) besides its vector table: \
             moving only the initial stack pointer would not move the stack"
        ));
    }
    let mut moved = elf.to_vec();
    moved[at..at + 4].copy_from_slice(&to.to_le_bytes());
    Ok(moved)
}

/// Where the generated crates of a chip are compiled: one cargo target a chip, shared by every
/// game built for it and by every output folder, so that only a chip's first build compiles
/// `core` and the runtime. `GAMEC_TARGET_DIR` moves it; by default it is the workspace's
/// `target/firmware/`. (A chip each: the chips of one Rust target differ in their rustflags,
/// which would rebuild each other's `core` in one folder.)
pub fn shared_target_dir(chip: &crate::chips::Chip) -> PathBuf {
    let base = match std::env::var_os("GAMEC_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => runtime_path().join("../target/firmware"),
    };
    base.join(chip.name)
}

/// Builds a generated firmware crate (release, with the nightly toolchain its `.cargo/config.toml`
/// needs) into `target_dir`.
pub fn cargo_build(crate_dir: &Path, target_dir: &Path) -> Result<(), Error> {
    build_crate(crate_dir, target_dir, None)
}

/// Builds a crate into `target_dir`, copying its executable into `artifacts` if given, and
/// says each crate cargo compiles as it starts it (a chip's first build takes minutes).
fn build_crate(crate_dir: &Path, target_dir: &Path, artifacts: Option<&Path>) -> Result<(), Error> {
    let mut cmd = Command::new("cargo");
    cmd.arg("+nightly").arg("build").arg("--release").current_dir(crate_dir).env("CARGO_TARGET_DIR", target_dir);
    if let Some(dir) = artifacts {
        cmd.args(["-Z", "unstable-options", "--artifact-dir"]).arg(dir);
    }
    cmd.env("CARGO_TARGET_AVR_NONE_LINKER", avr_linker(target_dir)?);
    // A parent cargo (tests, xtask) leaks its toolchain choice; the firmware needs nightly.
    for var in [
        "RUSTC",
        "RUSTC_WRAPPER",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTUP_TOOLCHAIN",
        "CARGO_BUILD_TARGET",
        "RUSTDOC",
        "CARGO_MAKEFLAGS",
        "CARGO_TERM_PROGRESS_WHEN",
    ] {
        cmd.env_remove(var);
    }
    cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| Error::Build(format!("cannot run cargo: {e}")))?;
    let (mut said, mut dependencies) = (String::new(), false);
    if let Some(stderr) = child.stderr.take() {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
            match line.trim_start().strip_prefix("Compiling ") {
                // The steps a person waits on, a line each: the crates of a chip's first
                // build (about a hundred, avr-device's generator among them) as one.
                Some(what) => match what.split(' ').next().unwrap_or(what) {
                    "core" => eprintln!("  compiling core for the chip"),
                    "gamec-runtime" => eprintln!("  compiling gamec's runtime"),
                    name if crate_dir.ends_with(name) => eprintln!("  compiling {name}"),
                    _ if !dependencies => {
                        dependencies = true;
                        eprintln!("  compiling dependencies (a chip's first build: a few minutes)");
                    }
                    _ => {}
                },
                // Cargo's resolution of a new crate's lock file, and its summary: not news.
                None if ["Finished ", "Updating ", "Locking ", "Adding "]
                    .iter()
                    .any(|w| line.trim_start().starts_with(w)) => {}
                None => {
                    said.push_str(&line);
                    said.push('\n');
                }
            }
        }
    }
    let status = child.wait().map_err(|e| Error::Build(format!("cargo did not finish: {e}")))?;
    // A chip's flash or RAM too small is a size, measured by the linker: said as one.
    if let Some(over) = linker_overflow(&said) {
        return Err(Error::TooBig(over));
    }
    eprint!("{said}");
    if !status.success() {
        return Err(Error::Build(format!("cargo build of {} exited with {status}", crate_dir.display())));
    }
    Ok(())
}

/// The linker of AVR firmware: avr-gcc, less the `-no-pie` that rustc gives every gcc-like
/// linker and that avr-gcc 5 (Debian's) does not know. Without it rustc links twice, the
/// second time without the flag, after logging a warning that reads like a failure.
fn avr_linker(target_dir: &Path) -> Result<PathBuf, Error> {
    let path = target_dir.join("avr-gcc-linker");
    let script = "#!/bin/sh\n\
        # @generated by gamec: avr-gcc, less the -no-pie rustc passes it (avr-gcc 5 knows no such flag).\n\
        for arg do\n  shift\n  [ \"$arg\" = -no-pie ] || set -- \"$@\" \"$arg\"\ndone\n\
        exec avr-gcc \"$@\"\n";
    write(&path, script.as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(|source| Error::Io { path: path.display().to_string(), source })?;
    }
    Ok(path)
}

/// The linker's "region `text' overflowed by N bytes", as a refusal with the figure.
fn linker_overflow(stderr: &str) -> Option<String> {
    let at = stderr.find("region `")?;
    let rest = &stderr[at + "region `".len()..];
    let region = &rest[..rest.find('\'')?];
    let bytes = rest.split("overflowed by ").nth(1)?.split(' ').next()?;
    let what = if region == "text" { "flash" } else { region };
    Some(format!("the firmware needs {bytes} B more {what} than the chip has (the linker's count)"))
}

/// Section sizes of an AVR or Cortex-M ELF: flash holds code, constants (and on Cortex-M the
/// vector table) and .data's initial values; RAM holds .data and .bss.
pub fn sizes(elf: &[u8]) -> Result<Sizes, Error> {
    let file = object::File::parse(elf).map_err(|e| Error::Build(format!("unreadable ELF: {e}")))?;
    let mut s = Sizes { text: 0, data: 0, bss: 0 };
    for sec in file.sections() {
        let size = sec.size() as u32;
        match sec.name().unwrap_or("") {
            ".text" | ".rodata" | ".progmem" | ".vector_table" => s.text += size,
            ".data" => s.data += size,
            ".bss" | ".noinit" | ".uninit" => s.bss += size,
            _ => {}
        }
    }
    Ok(s)
}

/// The bytes a programmer writes to flash: the ELF's loaded segments at their load addresses,
/// from the lowest, with gaps erased (0xFF).
pub fn flash_image(elf: &[u8]) -> Result<Vec<u8>, Error> {
    let segments = loaded_segments(elf)?;
    let start = segments.iter().map(|&(a, _)| a).min().unwrap_or(0);
    let end = segments.iter().map(|&(a, d)| a + d.len() as u32).max().unwrap_or(0);
    let mut image = vec![0xFF; (end - start) as usize];
    for (addr, data) in segments {
        let at = (addr - start) as usize;
        image[at..at + data.len()].copy_from_slice(data);
    }
    Ok(image)
}

/// The ELF's segments that hold bytes to load, each at its load (physical) address.
fn loaded_segments(elf: &[u8]) -> Result<Vec<(u32, &[u8])>, Error> {
    let file = ElfFile32::<object::Endianness>::parse(elf).map_err(|e| Error::Build(format!("unreadable ELF: {e}")))?;
    let endian = file.endian();
    let mut segments = Vec::new();
    for ph in file.elf_program_headers() {
        if ph.p_type(endian) != object::elf::PT_LOAD || ph.p_filesz(endian) == 0 {
            continue;
        }
        let data = ph.data(endian, elf).map_err(|_| Error::Build("bad segment".into()))?;
        segments.push((ph.p_paddr(endian), data));
    }
    Ok(segments)
}

/// Intel HEX of the ELF's loadable segments at their load (physical) addresses.
pub fn intel_hex(elf: &[u8]) -> Result<String, Error> {
    let mut records = Vec::new();
    for (base, data) in loaded_segments(elf)? {
        for (i, chunk) in data.chunks(16).enumerate() {
            let addr = base + (i * 16) as u32;
            if (addr >> 16) != ((addr.saturating_sub(16)) >> 16) || i == 0 {
                records.push(ihex::Record::ExtendedLinearAddress((addr >> 16) as u16));
            }
            records.push(ihex::Record::Data { offset: addr as u16, value: chunk.to_vec() });
        }
    }
    records.push(ihex::Record::EndOfFile);
    ihex::create_object_file_representation(&records).map_err(|e| Error::Build(format!("HEX: {e}")))
}

/// Bytes from address 0 as Intel HEX.
pub fn bytes_hex(bytes: &[u8]) -> Result<String, Error> {
    let mut records: Vec<ihex::Record> = bytes
        .chunks(16)
        .enumerate()
        .map(|(i, chunk)| ihex::Record::Data { offset: (i * 16) as u16, value: chunk.to_vec() })
        .collect();
    records.push(ihex::Record::EndOfFile);
    ihex::create_object_file_representation(&records).map_err(|e| Error::Build(format!("HEX: {e}")))
}

/// The deepest stack the firmware can reach, bounded from its machine code, with the recursion
/// `limits` vouched for (AVR: Cortex-M firmware has no search). `Err` says why there is no
/// bound.
fn stack_bound(elf: &[u8], t: &Target, limits: &[Limit]) -> Option<Result<StackDepth, Unbounded>> {
    match t.chip.arch {
        // A call pushes a 3-byte return address above 128 KiB of flash.
        crate::chips::Arch::Avr(avr) => {
            Some(avr_stack_depth(elf, if t.chip.flash > 128 * 1024 { 3 } else { 2 }, avr.sp_bytes, limits))
        }
        // The runtime's Cortex-M glue sets no priority, so its handlers keep the reset value
        // and never preempt one another. The chips gamec knows are Cortex-M4F, whose start-up
        // code enables the FPU: exception frames may be the extended ones. Pointers reach
        // formatting's `dyn Write` and the card table's callbacks, none of which starts again
        // while it runs: no value formats itself, and no callback calls back into its caller.
        crate::chips::Arch::CortexM(_) => {
            Some(thumb_stack_depth(elf, Priorities::Shared, true, Reentry::Never, limits))
        }
    }
}

/// What the runtime vouches for about the firmware's recursion: its search, if it has one, goes
/// as deep as the plies the codegen writes into `board::SEARCH_DEPTH`; the rule core's walk,
/// as deep as the game's programs let it.
pub fn recursion_limits(game: &GameDef, target: &Target) -> Vec<Limit> {
    let mut limits: Vec<Limit> = match codegen::search_depth(game, target) {
        Some(depth) => gamec_runtime::search::recursion_limits(depth)
            .iter()
            .map(|n| Limit {
                function: n.function.into(),
                activations: n.most,
                under: n.under.map(|(g, k)| (g.into(), k)),
            })
            .collect(),
        None => Vec::new(),
    };
    // The rule core's walk recurses through a game's programs, as deep as the runtime states.
    if target.rules_core.is_some() {
        let nesting =
            crate::engine::Engine::new(game).with_game(|g| gamec_runtime::rules::run_nesting(g.rules.actions));
        if let Some(most) = nesting {
            limits.push(Limit { function: gamec_runtime::rules::RUN.into(), activations: most, under: None });
        }
    }
    limits
}

/// A call chain for people, a call a line: each function by its shortest name (its type and
/// method, generics and module paths left out) unless two functions of the chain would share
/// it, and a run of one function (a recursion) written once, with its count.
fn chain(path: &[String]) -> String {
    let short: Vec<String> = path.iter().map(|f| short_name(f)).collect();
    let name = |i: usize| {
        let clash = path.iter().zip(&short).any(|(f, s)| *s == short[i] && *f != path[i]);
        if clash {
            path[i].clone()
        } else {
            short[i].clone()
        }
    };
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < path.len() {
        let run = path[i..].iter().take_while(|f| **f == path[i]).count();
        out.push(if run > 1 { format!("{} (x{run})", name(i)) } else { name(i) });
        i += run;
    }
    out.iter().map(|f| format!("\n    > {f}")).collect::<String>().replacen("\n    > ", "\n      ", 1)
}

/// A demangled Rust path as people say it: generic arguments dropped, each path its last
/// segment (`<gamec_runtime::session::Session<..>>::run::<..>` is `Session::run`, and
/// `<my_game::Board as gamec_runtime::session::Io>::millis` is `<Board as Io>::millis`).
fn short_name(f: &str) -> String {
    // Generic arguments: a `<` right after a name or `::` opens them.
    let mut plain = String::new();
    let mut depth = 0;
    let mut prev = ' ';
    for c in f.chars() {
        match c {
            '<' if depth > 0 || prev.is_alphanumeric() || prev == '_' || prev == ':' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ => plain.push(c),
        }
        prev = c;
    }
    let plain = plain.replace("::::", "::").trim_end_matches("::").replace(":: ", " ");
    // Each path's last segment; a free function keeps its module (`search::negamax`).
    let segment = |p: &str| -> String {
        let parts: Vec<&str> = p.split("::").filter(|s| !s.is_empty()).collect();
        parts[parts.len().saturating_sub(1)..].join("::")
    };
    let qualified = plain.starts_with('<');
    let (head, method) = match plain.rfind(">::") {
        Some(at) if qualified => (&plain[1..at], Some(&plain[at + 3..])),
        _ => (plain.as_str(), None),
    };
    match method {
        Some(m) => match head.split_once(" as ") {
            Some((ty, tr)) => format!("<{} as {}>::{m}", segment(ty), segment(tr)),
            None => format!("{}::{m}", segment(head)),
        },
        None => {
            let parts: Vec<&str> = head.split("::").collect();
            parts[parts.len().saturating_sub(2)..].join("::")
        }
    }
}

/// The flash, RAM and stack report; `search_depth` is the firmware's deepest search ply, whose
/// recursion the stack's bound may rely on.
pub fn size_report(
    s: &Sizes,
    stack: Option<&Result<StackDepth, Unbounded>>,
    search_depth: Option<u8>,
    t: &Target,
) -> String {
    let pct = |used: u32, of: u32| 100.0 * used as f64 / of as f64;
    let mut out = format!(
        "flash: {:>6} B of {:>6} B ({:.1}%)   [.text {} + .data {}]\nram:   {:>6} B of {:>6} B ({:.1}%)   [.data {} + .bss {}]\n",
        s.flash(), t.chip.flash, pct(s.flash(), t.chip.flash), s.text, s.data,
        s.ram(), t.chip.ram, pct(s.ram(), t.chip.ram), s.data, s.bss
    );
    match stack {
        Some(Ok(d)) => {
            let how = if d.recursion.is_empty() {
                String::new()
            } else {
                let calls: Vec<String> = d.recursion.iter().map(Limit::to_string).collect();
                let depth = search_depth.map_or(String::new(), |d| format!(", a search of {d} plies"));
                format!(" and the runtime's word on its recursion ({}{depth})", calls.join(", "))
            };
            out += &format!(
                "stack: {:>6} B at most ({} B of it an interrupt's), bounded from the machine code{how}; deepest:{}\n",
                d.bytes,
                d.interrupt_bytes,
                chain(&d.path)
            );
            out += &format!("ram with stack: {} B of {} B\n", s.ram() + d.bytes, t.chip.ram);
        }
        Some(Err(why)) => {
            out += &format!("stack: no bound from the machine code ({why}); measure it in the simulator\n")
        }
        None => out += "stack: not bounded here (measured in QEMU by the benches)\n",
    }
    if let Some(b) = t.budget_flash {
        out += &format!("budget flash: {} B of {b} B\n", s.flash());
    }
    if let Some(b) = t.budget_ram {
        match stack {
            Some(Ok(d)) => out += &format!("budget ram:   {} B of {b} B (static and stack)\n", s.ram() + d.bytes),
            _ => out += &format!("budget ram:   {} B of {b} B (static only: the stack has no bound)\n", s.ram()),
        }
    }
    if let Some(b) = t.budget_stack {
        match stack {
            Some(Ok(d)) => out += &format!("budget stack: {} B of {b} B\n", d.bytes),
            _ => out += &format!("budget stack: no bound to check against {b} B\n"),
        }
    }
    out
}

/// The chip's memories and the board's budgets. RAM counts the stack where it has a bound
/// (a search's with the recursion the runtime states); a budget of the stack needs one.
pub fn check_budget(s: &Sizes, stack: Option<&Result<StackDepth, Unbounded>>, t: &Target) -> Result<(), Error> {
    if let (Some(limit), Some(Err(why))) = (t.budget_stack, stack) {
        return Err(Error::TooBig(format!("the board's stack budget of {limit} B cannot be checked: {why}")));
    }
    if let (Some(limit), None) = (t.budget_stack, stack) {
        return Err(Error::TooBig(format!(
            "the board's stack budget of {limit} B cannot be checked: no bound of the stack was worked out"
        )));
    }
    let stack = match stack {
        Some(Ok(d)) => d.bytes,
        _ => 0,
    };
    let limits = [
        (s.flash(), t.chip.flash, "flash", "the chip's"),
        (s.ram() + stack, t.chip.ram, "RAM (static and stack)", "the chip's"),
        (s.flash(), t.budget_flash.unwrap_or(u32::MAX), "flash", "the board's budget of"),
        (s.ram() + stack, t.budget_ram.unwrap_or(u32::MAX), "RAM (static and stack)", "the board's budget of"),
        (stack, t.budget_stack.unwrap_or(u32::MAX), "stack (bounded from the machine code)", "the board's budget of"),
    ];
    for (used, limit, what, whose) in limits {
        if used > limit {
            return Err(Error::TooBig(format!("the firmware needs {used} B of {what}, over {whose} {limit} B")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::linker_overflow;

    #[test]
    fn a_linker_s_overflow_is_a_size_with_its_figure() {
        let ld = "ld: x.elf section `.text' will not fit in region `text'\nld: region `text' overflowed by 850 bytes\n";
        assert_eq!(
            linker_overflow(ld).as_deref(),
            Some("the firmware needs 850 B more flash than the chip has (the linker's count)")
        );
        assert_eq!(linker_overflow("error: mismatched types"), None);
    }
}

/// How a board is programmed: the programmer (avrdude's `-c`, or a probe) and the port it is
/// on, where the command line names them.
#[derive(Debug, Clone, Default)]
pub struct Programmer {
    pub name: Option<String>,
    pub port: Option<String>,
}

impl Programmer {
    /// The command line's choices, and the board file's `programmer` where it leaves one out.
    pub fn or_board(&self, target: &Target) -> Programmer {
        let (name, port) = target.programmer.clone().unzip();
        Programmer { name: self.name.clone().or(name), port: self.port.clone().or(port.flatten()) }
    }
}

/// The commands that write a built firmware (and a board's EEPROM image) to the chip: avrdude
/// for AVR, probe-rs for a Cortex-M it knows, else OpenOCD with the chip's board files. Each command is its program and arguments.
pub fn flash_commands(built: &Built, programmer: &Programmer) -> Result<Vec<Vec<String>>, String> {
    match built.target.chip.arch {
        crate::chips::Arch::Avr(avr) => {
            let mut cmd: Vec<String> = vec!["avrdude".into(), "-c".into()];
            // A USBasp is the hobbyist's usual programmer; the seed boards' is named on the line.
            cmd.push(programmer.name.clone().unwrap_or_else(|| "usbasp".into()));
            cmd.extend(["-p".into(), avr.avrdude.into()]);
            if let Some(port) = &programmer.port {
                cmd.extend(["-P".into(), port.clone()]);
            }
            cmd.extend(["-U".into(), format!("flash:w:{}:i", built.hex.display())]);
            if let Some(eeprom) = &built.eeprom {
                cmd.extend(["-U".into(), format!("eeprom:w:{}:i", eeprom.with_extension("hex").display())]);
            }
            Ok(vec![cmd])
        }
        crate::chips::Arch::CortexM(m) => {
            let Some(chip) = m.probe_rs else {
                let Some(configs) = m.openocd else {
                    return Err(format!(
                        "no tool gamec knows programs the {}: write {} at 0x{:08X} with the maker's tool",
                        built.target.chip.name,
                        built.elf.with_extension("bin").display(),
                        m.flash_origin
                    ));
                };
                let mut cmd = vec!["openocd".to_string()];
                for cfg in configs {
                    cmd.extend(["-f".to_string(), cfg.to_string()]);
                }
                cmd.extend(["-c".to_string(), format!("program {} verify reset exit", built.elf.display())]);
                return Ok(vec![cmd]);
            };
            let mut probe = Vec::new();
            if let Some(name) = &programmer.name {
                probe = vec!["--probe".to_string(), name.clone()];
            }
            let download = [vec!["probe-rs".into(), "download".into(), "--chip".into(), chip.into()], probe.clone()]
                .concat()
                .into_iter()
                .chain([built.elf.display().to_string()])
                .collect();
            let reset = [vec!["probe-rs".into(), "reset".into(), "--chip".into(), chip.into()], probe].concat();
            Ok(vec![download, reset])
        }
    }
}

//! Measuring Cortex-M firmware in QEMU for the benchmarks: the plugin `insn_window.c`, built
//! with the host's gcc, counts the instructions between two marker functions and the lowest
//! store into the stack; C references are built with arm-none-eabi-gcc for the same core.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the tests build things.
pub fn out_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/gamec-tests")
}

fn run(cmd: &mut Command) {
    let status = cmd.status().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(status.success(), "{cmd:?} failed: {status}");
}

/// The plugin, built once.
pub fn plugin() -> PathBuf {
    let so = out_dir().join("insn_window.so");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/qemu/insn_window.c");
    std::fs::create_dir_all(out_dir()).unwrap();
    run(Command::new("gcc").args(["-shared", "-fPIC", "-O2", "-fvisibility=hidden", "-o"]).arg(&so).arg(&src));
    so
}

/// The address of a symbol of an ELF (without the Thumb bit).
pub fn symbol(elf: &Path, name: &str) -> u64 {
    use object::{Object, ObjectSymbol};
    let bytes = std::fs::read(elf).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let sym = file.symbols().find(|s| s.name() == Ok(name)).unwrap_or_else(|| panic!("{name} in {}", elf.display()));
    sym.address() & !1
}

/// QEMU's arguments that load the plugin with `args` and send its report to `log`.
pub fn plugin_args(args: &[(&str, u64)], log: &Path) -> Vec<String> {
    let mut spec = plugin().display().to_string();
    for (k, v) in args {
        spec += &format!(",{k}={v:#x}");
    }
    vec!["-plugin".into(), spec, "-d".into(), "plugin".into(), "-D".into(), log.display().to_string()]
}

/// The windows' instruction counts in a plugin's log, in order.
pub fn windows(log: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(log).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("window ")?.split(": ").nth(1)?.strip_suffix(" instructions")?.parse().ok())
        .collect()
}

/// The lowest stack address a plugin's log saw written.
pub fn stack_low(log: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(log).unwrap();
    text.lines().filter_map(|l| u64::from_str_radix(l.strip_prefix("stack: low 0x")?, 16).ok()).min()
}

/// Compiles `c` for the Cortex-M4 with hard floats at `-O<level>` into an object whose only
/// global symbols are its entry points, renamed with `_<level>` after them (so that several
/// levels link into one firmware).
pub fn cortex_m4_object(c: &Path, level: &str, entry_points: &[&str]) -> PathBuf {
    let obj = out_dir().join(format!("{}-O{level}.o", c.file_stem().unwrap().to_string_lossy()));
    let mut gcc = Command::new("arm-none-eabi-gcc");
    gcc.args(["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16", "-fvisibility=hidden"])
        .arg(format!("-O{level}"));
    for e in entry_points {
        gcc.arg(format!("-D{e}={e}_{level}"));
    }
    run(gcc.arg("-c").arg(c).arg("-o").arg(&obj));
    run(Command::new("arm-none-eabi-objcopy").arg("--localize-hidden").arg(&obj));
    obj
}

/// The newlib archive for the same core, for what the C references call (qsort).
pub fn cortex_m4_libc() -> PathBuf {
    let out = Command::new("arm-none-eabi-gcc")
        .args(["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16", "-print-file-name=libc.a"])
        .output()
        .expect("arm-none-eabi-gcc runs (`cargo xtask setup` installs it)");
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

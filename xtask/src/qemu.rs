//! gamec's own qemu-system-arm, which runs the STM32F405's and the AT32F437's buttons, lights
//! and cursor boards: Debian's QEMU 7.2 source (the version Debian ships, its tarball pinned by
//! checksum) with the model of the STM32F4's GPIO ports and the fixes in `xtask/qemu/`, built
//! for Arm's system emulation alone into `target/gamec-qemu/`, where `gamec play` and the tests
//! look for it (`sim::cortex::qemu_binary`). Debian's own qemu-system-arm still runs the rest.

use crate::{apt_install, have, run};
use std::path::Path;
use std::process::Command;

/// Debian bookworm's QEMU source, as its `qemu_7.2+dfsg-7` packages are built from.
const TARBALL: &str = "qemu_7.2+dfsg.orig.tar.xz";
const URL: &str = "http://deb.debian.org/debian/pool/main/q/qemu/qemu_7.2+dfsg.orig.tar.xz";
const SHA256: &str = "91aca71520040edc40b8d437aa3004dae614f58e286cf653ee8996c07af2962f";

/// What building it needs beyond a C compiler.
const BUILD_PACKAGES: &[&str] =
    &["meson", "ninja-build", "libglib2.0-dev", "libpixman-1-dev", "libfdt-dev", "zlib1g-dev", "patch", "curl"];

/// The files of `xtask/qemu/` that make gamec's QEMU what it is: a change to any rebuilds it.
const SOURCES: &[&str] = &["stm32f4_gpio.patch", "stm32f4_gpio.c", "stm32f4_gpio.h"];

/// Builds gamec's qemu-system-arm unless the one in `target/gamec-qemu/` was built from the
/// same sources. A few minutes on two cores.
pub fn setup(root: &Path) -> Result<(), String> {
    let ours = root.join("xtask/qemu");
    let dest = root.join("target/gamec-qemu");
    let mut stamp = format!("{SHA256}\n");
    for f in SOURCES {
        let text = std::fs::read_to_string(ours.join(f)).map_err(|e| format!("xtask/qemu/{f}: {e}"))?;
        stamp.push_str(&format!("{f} {:016x}\n", fnv1a(text.as_bytes())));
    }
    let (binary, stamp_file) = (dest.join("qemu-system-arm"), dest.join("built-from"));
    if binary.is_file() && std::fs::read_to_string(&stamp_file).is_ok_and(|s| s == stamp) {
        return Ok(());
    }
    eprintln!("building gamec's qemu-system-arm (the STM32F4's GPIO ports modelled) into {}", dest.display());
    let headers = ["/usr/include/libfdt.h", "/usr/include/pixman-1", "/usr/include/glib-2.0"];
    if !["meson", "ninja", "patch", "curl"].iter().all(|p| have(p)) || !headers.iter().all(|h| Path::new(h).exists()) {
        apt_install(BUILD_PACKAGES)?;
    }
    let src = dest.join("src");
    std::fs::create_dir_all(&src).map_err(|e| format!("{}: {e}", src.display()))?;
    let tarball = src.join(TARBALL);
    if !tarball.is_file() || sha256(&tarball)? != SHA256 {
        run(Command::new("curl").args(["-sSfL", "-o"]).arg(&tarball).arg(URL))?;
        let sum = sha256(&tarball)?;
        if sum != SHA256 {
            return Err(format!("{URL}: sha256 {sum}, expected {SHA256}"));
        }
    }
    let tree = src.join("qemu-7.2.0");
    let _ = std::fs::remove_dir_all(&tree);
    run(Command::new("tar").arg("xf").arg(&tarball).arg("-C").arg(&src))?;
    for (file, to) in [("stm32f4_gpio.c", "hw/gpio"), ("stm32f4_gpio.h", "include/hw/gpio")] {
        std::fs::copy(ours.join(file), tree.join(to).join(file)).map_err(|e| format!("{file}: {e}"))?;
    }
    run(Command::new("patch").args(["-p1", "-s", "-i"]).arg(ours.join("stm32f4_gpio.patch")).current_dir(&tree))?;
    let build = tree.join("build");
    std::fs::create_dir_all(&build).map_err(|e| format!("{}: {e}", build.display()))?;
    run(Command::new("../configure")
        .args([
            "--target-list=arm-softmmu",
            "--without-default-features",
            "--disable-docs",
            "--disable-tools",
            "--disable-werror",
            "--disable-install-blobs",
            // The player reads the pins' timeline from QEMU's trace log (`-d trace:...`).
            "--enable-trace-backends=log",
        ])
        .current_dir(&build))?;
    run(Command::new("ninja").arg("qemu-system-arm").current_dir(&build))?;
    std::fs::copy(build.join("qemu-system-arm"), &binary).map_err(|e| format!("{}: {e}", binary.display()))?;
    std::fs::write(&stamp_file, stamp).map_err(|e| format!("{}: {e}", stamp_file.display()))?;
    // The source tree and its objects (some 300 MB) served their turn.
    let _ = std::fs::remove_dir_all(&tree);
    Ok(())
}

fn sha256(file: &Path) -> Result<String, String> {
    let out = Command::new("sha256sum").arg(file).output().map_err(|e| format!("sha256sum: {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout).split_whitespace().next().unwrap_or_default().to_string())
}

/// A 64-bit FNV-1a hash: enough to tell one version of a source file from another.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

//! `gamec flash --dry-run` prints the exact commands that program a board: avrdude for AVR
//! (the EEPROM image too where the board has one), the programmer and its port from the board
//! file unless the command line names them, probe-rs for an STM32F405, OpenOCD for the
//! AT32F437 and the LM3S6965. Each AVR chip's part number is
//! one avrdude knows.

use std::process::Command;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn dry_run(game: &str, board: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let out_dir = root().join("target/gamec-tests/flash");
    std::fs::create_dir_all(&out_dir).unwrap();
    // gamec names the files by the folder's canonical path.
    let out_dir = out_dir.canonicalize().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gamec"))
        .args(["flash", game, "--board", board, "--dry-run", "-o"])
        .arg(&out_dir)
        .args(extra)
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let commands: String = stdout.lines().filter(|l| !l.starts_with("wrote ")).map(|l| format!("{l}\n")).collect();
    let commands = commands.replace(&format!("{}/", out_dir.display()), "OUT/");
    (out.status.code(), commands, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn avrdude_writes_the_flash_and_the_eeprom_and_probe_rs_an_stm32() {
    let (code, cmds, err) = dry_run(
        "games/silver_dollar.game",
        "boards/silver_dollar_attiny84.board",
        &["--programmer", "avrisp", "--port", "/dev/ttyUSB0"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        cmds,
        "avrdude -c avrisp -p t84 -P /dev/ttyUSB0 -U flash:w:OUT/silver_dollar-silver_dollar_attiny84.hex:i\n"
    );
    assert!(root().join("target/gamec-tests/flash/silver_dollar-silver_dollar_attiny84.hex").exists());
    let (code, cmds, err) = dry_run("games/binario.game", "boards/binario_atmega128.board", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        cmds,
        "avrdude -c usbasp -p m128 -U flash:w:OUT/binario-binario_atmega128.hex:i \
         -U eeprom:w:OUT/binario-binario_atmega128.eeprom.hex:i\n"
    );
    // The STK500's board names its programmer and port; the command line's port wins.
    let (code, cmds, err) = dry_run("games/othello.game", "boards/othello_stk500_atmega16.board", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        cmds,
        "avrdude -c stk500v2 -p m16 -P /dev/ttyUSB0 -U flash:w:OUT/othello-othello_stk500_atmega16.hex:i\n"
    );
    let (code, cmds, err) =
        dry_run("games/othello.game", "boards/othello_stk500_atmega16.board", &["--port", "/dev/ttyACM0"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(cmds.starts_with("avrdude -c stk500v2 -p m16 -P /dev/ttyACM0 "), "{cmds}");
    let (code, cmds, err) = dry_run("games/nim.game", "boards/nim_netduinoplus2.board", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        cmds,
        "probe-rs download --chip STM32F405RGTx OUT/nim-nim_netduinoplus2.elf\nprobe-rs reset --chip STM32F405RGTx\n"
    );
    // Where probe-rs has no target, OpenOCD: Artery's for the AT32F437, mainline's board file
    // for the EK-LM3S6965.
    let (code, cmds, err) = dry_run("games/set.game", "boards/set_at_start_f437.board", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        cmds,
        "openocd -f interface/atlink.cfg -f target/at32f437xx.cfg -c 'program OUT/set-set_at_start_f437.elf verify reset exit'\n"
    );
    let (code, cmds, err) = dry_run("games/silver_dollar.game", "boards/silver_dollar_lm3s6965.board", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        cmds,
        "openocd -f board/ek-lm3s6965.cfg -c 'program OUT/silver_dollar-silver_dollar_lm3s6965.elf verify reset exit'\n"
    );
}

/// Every AVR chip's part number is in avrdude's list (where avrdude is installed: `cargo xtask
/// setup` installs it).
#[test]
fn every_avr_chip_is_a_part_avrdude_knows() {
    let Ok(out) = Command::new("avrdude").args(["-p", "?"]).output() else {
        eprintln!("no avrdude here: `cargo xtask setup` installs it");
        return;
    };
    let parts = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    for chip in gamec::chips::CHIPS {
        if let gamec::chips::Arch::Avr(avr) = chip.arch {
            let listed = parts.lines().any(|l| l.split_whitespace().next() == Some(avr.avrdude));
            assert!(listed, "avrdude knows no part {} for the {}", avr.avrdude, chip.name);
        }
    }
}

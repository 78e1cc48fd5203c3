//! Snapshots of the generated firmware crate for Silver Dollar on its board, and of the board
//! lints' diagnostics. The generated crate is also built and run: see silver_dollar_device.rs.

use gamec::analyze::Analysis;
use gamec::codegen::{self, Origin, ScaffoldInputs};
use gamec_dsl::Sources;

fn root(rel: &str) -> String {
    format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn silver_dollar_crate() {
    for f in silver_dollar_files("boards/silver_dollar_attiny84.board") {
        insta::assert_snapshot!(f.path.replace(['/', '.'], "_"), f.contents);
    }
}

/// The same game's buttons and lights on a Cortex-M: its board module and entry point.
#[test]
fn silver_dollar_on_a_cortex_m_crate() {
    for f in silver_dollar_files("boards/silver_dollar_lm3s6965.board") {
        if f.path.starts_with("src/main") || f.path.starts_with("src/board") {
            insta::assert_snapshot!(format!("cortex_m_{}", f.path.replace(['/', '.'], "_")), f.contents);
        }
    }
}

/// Lights Out with a cursor on the LM3S6965: the main loop every chip shares, from
/// `cortex_m_rt`'s entry, SysTick showing the matrix and sampling the encoders.
#[test]
fn a_cursor_game_on_a_cortex_m_crate() {
    let (game, board) = ("games/lights_out.game", "boards/lights_out_lm3s6965.board");
    let mut sources = Sources::new();
    let gf = sources.add(game, std::fs::read_to_string(root(game)).unwrap());
    let bf = sources.add(board, std::fs::read_to_string(root(board)).unwrap());
    let def = gamec_dsl::load_game(&sources, gf).unwrap();
    let board_def = gamec_dsl::load_board(&sources, bf).unwrap();
    let target = gamec::bind::bind(&def, gf, &board_def, bf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let inputs = ScaffoldInputs {
        crate_name: "lights-out".into(),
        runtime_path: "../runtime".into(),
        game_path: game.into(),
        board_path: board.into(),
    };
    for f in codegen::firmware_crate(&def, &board_def, None, &target, &inputs, sources.text(gf)) {
        assert!(f.contents.contains("@generated"), "{} is not marked", f.path);
        if f.path.starts_with("src/main") || f.path.starts_with("src/board") {
            insta::assert_snapshot!(format!("cortex_cursor_{}", f.path.replace(['/', '.'], "_")), f.contents);
        }
    }
}

/// A 93C46 on a Cortex-M board: the glue drives none, so the build keeps the setups in flash
/// and says so (W0026), and the pair checks.
#[test]
fn a_93c46_on_a_cortex_m_board_is_warned_of_and_the_setups_kept_in_flash() {
    let (game, board) = ("games/binario.game", "boards/binario_lm3s6965.board");
    let text = std::fs::read_to_string(root(board)).unwrap();
    let with_eeprom = text.replacen(
        "    speaker = PG0",
        "    eeprom tableaux = 93c46 cs PB2, sk PB3, di PB4, do PB5
    speaker = PG0",
        1,
    );
    assert_ne!(with_eeprom, text, "fixture");
    let mut sources = Sources::new();
    let gf = sources.add(game, std::fs::read_to_string(root(game)).unwrap());
    let bf = sources.add(board, with_eeprom);
    let warnings = gamec::check(&sources, &[gf, bf]).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let out = sources.render(&warnings);
    assert!(
        out.contains("warning[W0026]: gamec's glue for the lm3s6965 drives no 93C46: the setups are kept in flash"),
        "{out}"
    );
    let def = gamec_dsl::load_game(&sources, gf).unwrap();
    let board_def = gamec_dsl::load_board(&sources, bf).unwrap();
    let target = gamec::bind::bind(&def, gf, &board_def, bf).unwrap();
    assert!(target.cursor.is_some_and(|c| c.eeprom.is_none()), "the setups in flash");
}

/// Silver Dollar's firmware crate for `board`, every file marked as generated.
fn silver_dollar_files(board_path: &str) -> Vec<codegen::GeneratedFile> {
    let mut sources = Sources::new();
    let gf =
        sources.add("games/silver_dollar.game", std::fs::read_to_string(root("games/silver_dollar.game")).unwrap());
    let bf = sources.add(board_path, std::fs::read_to_string(root(board_path)).unwrap());
    let game = gamec_dsl::load_game(&sources, gf).unwrap();
    let board = gamec_dsl::load_board(&sources, bf).unwrap();
    let target = gamec::bind::bind(&game, gf, &board, bf).unwrap();
    let analysis = Analysis::new(&game, gf).unwrap();
    let inputs = ScaffoldInputs {
        crate_name: "silver-dollar".into(),
        runtime_path: "../runtime".into(),
        game_path: "games/silver_dollar.game".into(),
        board_path: board_path.into(),
    };
    let files = codegen::firmware_crate(&game, &board, Some(&analysis), &target, &inputs, sources.text(gf));
    for f in &files {
        assert!(f.contents.contains("@generated"), "{} is not marked", f.path);
    }
    files
}

fn lint(game: &str, board: &str) -> String {
    let mut sources = Sources::new();
    let gf =
        sources.add("games/silver_dollar.game", std::fs::read_to_string(root("games/silver_dollar.game")).unwrap());
    let text = std::fs::read_to_string(root("boards/silver_dollar_attiny84.board")).unwrap();
    let (from, to) = board.split_once("=>").unwrap();
    assert!(text.contains(from.trim()), "fixture: {from}");
    let bf = sources.add("bad.board", text.replacen(from.trim(), to.trim(), 1));
    let _ = game;
    match gamec::check(&sources, &[gf, bf]) {
        Ok(_) => panic!("expected a lint for {board}"),
        Err(d) => sources.render(&d),
    }
}

#[test]
fn board_lints() {
    let cases = [
        ("pin_used_twice", "button go = PA6 pullup => button go = PB0 pullup"),
        ("pin_not_on_chip", "button move[5] = PA7 pullup => button move[5] = PB7 pullup"),
        ("reserved_pin", "button move[5] = PA7 pullup => button move[5] = PB3 pullup"),
        ("missing_button", "button move[5] = PA7 pullup =>"),
        ("unknown_control", "button go = PA6 pullup => button stop = PA6 pullup"),
        ("index_out_of_range", "button move[5] = PA7 pullup => button move[6] = PA7 pullup"),
        ("timer_claimed_twice", "speaker = PA5, timer1 => speaker = PA5, timer0"),
        ("speaker_not_timer_output", "speaker = PA5, timer1 => speaker = PA4, timer1"),
        ("no_speaker", "speaker = PA5, timer1 =>"),
        ("unknown_chip", "chip attiny84a => chip attiny9000"),
        ("led_count", "12 = PA3 > PA0 =>"),
        ("no_pullup", "button go = PA6 pullup => button go = PA6"),
        ("note_out_of_tune", "clock 8 MHz internal => clock 40 kHz internal"),
    ];
    for (name, case) in cases {
        insta::assert_snapshot!(name, lint("", case));
    }
}

#[test]
fn malformed_files_exit_1_with_a_diagnostic_and_never_panic() {
    let dir = std::env::temp_dir().join("gamec-cli-test");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.game");
    std::fs::write(&bad, "game g {\n  players a, b\n  first c\n}\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gamec")).arg("check").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("bad.game:3:9"), "{err}");
    assert!(err.contains("error[E0004]"), "{err}");
    assert!(err.contains("help:"), "{err}");
}

#[test]
fn the_tutorial_game_and_board_check_as_a_pair_and_analyze() {
    let doc = std::fs::read_to_string(root("docs/language.md")).unwrap();
    let block = |fence: &str, name: &str| -> String {
        let start = doc.find(&format!("```{fence}\n// ")).filter(|_| fence == "game").unwrap_or(0);
        let start = if fence == "board" { doc.find(&format!("```board\nboard {name}")).unwrap() } else { start };
        let body = &doc[start + fence.len() + 4..];
        body[..body.find("```").unwrap()].to_string()
    };
    let mut sources = Sources::new();
    let gf = sources.add("three_coins.game", block("game", "three_coins"));
    let bf = sources.add("three_coins_attiny84.board", block("board", "three_coins_attiny84"));
    gamec::check(&sources, &[gf, bf]).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let game = gamec_dsl::load_game(&sources, gf).unwrap();
    let a = Analysis::new(&game, gf).unwrap();
    assert_eq!(a.placements, 56, "C(8, 3)");
    assert_eq!(a.strategy_perfect, Some(true));
}

#[test]
fn grid_game_module() {
    let mut sources = Sources::new();
    let path = "games/othello.game";
    let gf = sources.add(path, std::fs::read_to_string(root(path)).unwrap());
    let game = gamec_dsl::load_game(&sources, gf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    // As an AVR chip gets it (its search on a byte board), and as the host and 32-bit chips do.
    let code = codegen::grid_module(
        &game,
        Origin::of(&sources, gf),
        codegen::Representation::ByteBoard { roomy: false, multiplies: true },
    );
    assert!(code.contains("@generated") && code.contains("impl InPlace for Searched"));
    insta::assert_snapshot!("grid_game_rs", code);
    let code = codegen::grid_module(&game, Origin::of(&sources, gf), codegen::Representation::Bitboards);
    assert!(!code.contains("Searched"));
    insta::assert_snapshot!("grid_game_rs_bitboards", code);
}

/// A game's rule core as data (checkers: kinds, jumps that chain and must be taken,
/// promotion). Compiled for the host and played against the engine in
/// compiler/hosted/tests/rule_core_agrees.rs.
#[test]
fn rule_core_module() {
    let mut sources = Sources::new();
    let path = "games/checkers.game";
    let gf = sources.add(path, std::fs::read_to_string(root(path)).unwrap());
    let game = gamec_dsl::load_game(&sources, gf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let code = codegen::rules_module(&game, Origin::of(&sources, gf));
    assert!(code.contains("@generated") && code.contains("pub static GAME: Game<'static, Ops>"));
    insta::assert_snapshot!("rules_rs_checkers", code);
}

/// The serial game's crate: its board wiring and the session entry point (the game module is
/// `grid_game_rs` above). Built and played over the UART in othello_device.rs.
#[test]
fn othello_serial_crate() {
    let mut sources = Sources::new();
    let (gp, bp) = ("games/othello.game", "boards/othello_stk500_atmega16.board");
    let gf = sources.add(gp, std::fs::read_to_string(root(gp)).unwrap());
    let bf = sources.add(bp, std::fs::read_to_string(root(bp)).unwrap());
    let game = gamec_dsl::load_game(&sources, gf).unwrap();
    let board = gamec_dsl::load_board(&sources, bf).unwrap();
    let target = gamec::bind::bind(&game, gf, &board, bf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let s = target.serial.as_ref().unwrap();
    // 10 MHz / (16 * (64 + 1)) = 9615 baud, 0.16% fast: what the seed's UBRR of 64 gives.
    assert_eq!((s.ubrr, s.u2x), (64, false));
    let inputs = ScaffoldInputs {
        crate_name: "othello".into(),
        runtime_path: "../runtime".into(),
        game_path: gp.into(),
        board_path: bp.into(),
    };
    for f in codegen::firmware_crate(&game, &board, None, &target, &inputs, sources.text(gf)) {
        assert!(f.contents.contains("@generated"), "{} is not marked", f.path);
        if f.path != "src/game.rs" {
            insta::assert_snapshot!(format!("othello_{}", f.path.replace(['/', '.'], "_")), f.contents);
        }
    }
}

/// The Set solver's crate for the AT-START-F437: the cards module with its derived search, the
/// Cortex-M entry point, the board's USARTs, and the Cortex-M scaffold. Run in QEMU (on the
/// netduinoplus2 board) in set_device.rs.
#[test]
fn set_cards_crate() {
    let mut sources = Sources::new();
    let (gp, bp) = ("games/set.game", "boards/set_at_start_f437.board");
    let gf = sources.add(gp, std::fs::read_to_string(root(gp)).unwrap());
    let bf = sources.add(bp, std::fs::read_to_string(root(bp)).unwrap());
    let game = gamec_dsl::load_game(&sources, gf).unwrap();
    let board = gamec_dsl::load_board(&sources, bf).unwrap();
    let target = gamec::bind::bind(&game, gf, &board, bf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let inputs = ScaffoldInputs {
        crate_name: "set".into(),
        runtime_path: "../runtime".into(),
        game_path: gp.into(),
        board_path: bp.into(),
    };
    for f in codegen::firmware_crate(&game, &board, None, &target, &inputs, sources.text(gf)) {
        assert!(f.contents.contains("@generated"), "{} is not marked", f.path);
        insta::assert_snapshot!(format!("set_{}", f.path.replace(['/', '.'], "_")), f.contents);
    }
}

#[test]
fn serial_board_lints() {
    let gp = "games/othello.game";
    let text = std::fs::read_to_string(root("boards/othello_stk500_atmega16.board")).unwrap();
    let cases = [
        ("serial_missing", "serial usart 9600 baud", ""),
        ("serial_rate_off", "serial usart 9600 baud", "serial usart 230400 baud"),
        ("serial_unknown_port", "serial usart 9600 baud", "serial usart1 9600 baud"),
        ("lamp_missing", "led draw = PB3 active low", ""),
        ("lamp_on_serial_pin", "led draw = PB3 active low", "led draw = PD1 active low"),
        ("tick_missing", "tick timer1", ""),
    ];
    for (name, from, to) in cases {
        assert!(text.contains(from), "fixture: {from}");
        let mut s = Sources::new();
        let gf = s.add(gp, std::fs::read_to_string(root(gp)).unwrap());
        let bf = s.add("bad.board", text.replacen(from, to, 1));
        let out = match gamec::check(&s, &[gf, bf]) {
            Ok(_) => panic!("expected a lint for {name}"),
            Err(d) => s.render(&d),
        };
        insta::assert_snapshot!(name, out);
    }
}

#[test]
fn games_the_chip_cannot_run() {
    let othello = std::fs::read_to_string(root("games/othello.game")).unwrap();
    let start = othello.find("  // The seed's command set").unwrap();
    let end = othello.rfind('}').unwrap();
    let no_serial = format!("{}{}", &othello[..start], &othello[end..]).replace("strategy device", "strategy white");
    let silver = std::fs::read_to_string(root("games/silver_dollar.game")).unwrap();
    let atmega16 = "boards/othello_stk500_atmega16.board";
    // A serial board: the buttons and lights the game is played with are not on it.
    let serial = "boards/nim_netduinoplus2.board";
    for (name, game, board, code) in [
        ("grid_game_without_serial", no_serial, atmega16, "E0119"),
        ("button_game_on_a_board_without_them", silver, serial, "E0105"),
    ] {
        let mut s = Sources::new();
        let gf = s.add("game.game", game);
        let bf = s.add(board, std::fs::read_to_string(root(board)).unwrap());
        let out = match gamec::check(&s, &[gf, bf]) {
            Ok(_) => panic!("expected {code} for {name}"),
            Err(d) => s.render(&d),
        };
        assert!(out.contains(code), "{out}");
        insta::assert_snapshot!(name, out);
    }
}

/// A cursor needs a matrix on the board (a device the board lacks, E0105) and cells to move
/// over (heaps have none: the game's own check says so, E0006).
#[test]
fn a_cursor_without_a_matrix_or_cells_to_point_at() {
    let hexapawn = std::fs::read_to_string(root("games/hexapawn.game")).unwrap();
    let nim = std::fs::read_to_string(root("games/nim.game")).unwrap();
    let from = nim.find("  controls {").unwrap();
    let nim_cursor = format!(
        "{}  controls {{\n    across -> cursor across\n    down -> cursor down\n    go -> commit\n  }}\n}}\n",
        &nim[..from],
    );
    for (game, board, code) in [
        (hexapawn, "boards/tictactoe_stk500_atmega16.board", "E0105"),
        (nim_cursor, "boards/hexapawn_atmega128.board", "E0006"),
    ] {
        let mut s = Sources::new();
        let gf = s.add("game.game", game);
        let bf = s.add(board, std::fs::read_to_string(root(board)).unwrap());
        let out = match gamec::check(&s, &[gf, bf]) {
            Ok(_) => panic!("expected {code} on {board}"),
            Err(d) => s.render(&d),
        };
        assert!(out.contains(&format!("error[{code}]")), "{out}");
    }
}

/// A display refreshed at 500 Hz ticks every 2 ms: the board glue counts two milliseconds a
/// tick, so the game's times (idle, tunes, debouncing) stay in milliseconds.
#[test]
fn a_500_hz_display_counts_two_milliseconds_a_tick() {
    let mut sources = Sources::new();
    let gf =
        sources.add("games/silver_dollar.game", std::fs::read_to_string(root("games/silver_dollar.game")).unwrap());
    let text = std::fs::read_to_string(root("boards/silver_dollar_attiny84.board")).unwrap();
    assert!(text.contains("refresh 1000 Hz"));
    let bf = sources.add("boards/silver_dollar_500hz.board", text.replacen("refresh 1000 Hz", "refresh 500 Hz", 1));
    let game = gamec_dsl::load_game(&sources, gf).unwrap();
    let board = gamec_dsl::load_board(&sources, bf).unwrap();
    let target = gamec::bind::bind(&game, gf, &board, bf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let inputs = ScaffoldInputs {
        crate_name: "silver-dollar".into(),
        runtime_path: "../runtime".into(),
        game_path: "games/silver_dollar.game".into(),
        board_path: "boards/silver_dollar_500hz.board".into(),
    };
    let analysis = Analysis::new(&game, gf).unwrap();
    let files = codegen::firmware_crate(&game, &board, Some(&analysis), &target, &inputs, sources.text(gf));
    let board_rs = files.iter().find(|f| f.path == "src/board.rs").unwrap();
    insta::assert_snapshot!("board_rs_500_hz", board_rs.contents);
}

/// Dawson's Kayles with buttons and lights on the rule core: the front module (each control's
/// action, the person's side, the cell each light shows), the board with its search limits,
/// and the app loop over the core's turn machine. Run in simavr in dawsons_kayles_device.rs.
#[test]
fn buttons_on_the_rule_core_crate() {
    let mut sources = Sources::new();
    let (gp, bp) = ("games/dawsons_kayles.game", "boards/dawsons_kayles_atmega128.board");
    let gf = sources.add(gp, std::fs::read_to_string(root(gp)).unwrap());
    let bf = sources.add(bp, std::fs::read_to_string(root(bp)).unwrap());
    let game = gamec_dsl::load_game(&sources, gf).unwrap();
    let board = gamec_dsl::load_board(&sources, bf).unwrap();
    let target = gamec::bind::bind(&game, gf, &board, bf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    assert!(target.rules_core.is_some() && target.serial.is_none(), "played with buttons on the core");
    let inputs = ScaffoldInputs {
        crate_name: "dawsons_kayles".into(),
        runtime_path: "../runtime".into(),
        game_path: gp.into(),
        board_path: bp.into(),
    };
    for f in codegen::firmware_crate(&game, &board, None, &target, &inputs, sources.text(gf)) {
        assert!(f.contents.contains("@generated"), "{} is not marked", f.path);
        if ["src/front.rs", "src/main.rs", "src/board.rs"].contains(&f.path.as_str()) {
            insta::assert_snapshot!(format!("dawsons_kayles_{}", f.path.replace(['/', '.'], "_")), f.contents);
        }
    }
}

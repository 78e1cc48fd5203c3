//! Variants of Silver Dollar that passed `gamec check` and then failed: a setup no placement
//! meets, a constant beyond the line, and slides both ways, which let play cycle. Each is now a
//! diagnostic at the line to change (or, for a constant that still leaves setups, a correct
//! comparison), from the library and from the CLI with exit code 1.

use gamec::analyze::Analysis;
use gamec::codegen::Origin;
use gamec::rules::{Rules, Slide};
use gamec::solve::Solution;
use gamec_dsl::Sources;

const GAME: &str = "games/silver_dollar.game";

fn root(rel: &str) -> String {
    format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// Silver Dollar with `from` replaced by `to`.
fn variant(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(root(GAME)).unwrap();
    assert!(text.contains(from), "fixture: {from}");
    text.replacen(from, to, 1)
}

/// What `Analysis::new` says of a variant, rendered.
fn analysis_error(text: String) -> String {
    let mut sources = Sources::new();
    let id = sources.add(GAME, text);
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    match Analysis::new(&game, id) {
        Ok(_) => panic!("expected a diagnostic"),
        Err(d) => sources.render(&d),
    }
}

/// Runs the CLI on a variant written to a file; returns the exit code and stderr.
fn cli(name: &str, text: &str, args: &[&str]) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("gamec-variants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.game"));
    std::fs::write(&path, text).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_gamec"));
    for a in args {
        cmd.arg(if *a == "GAME" { path.as_os_str() } else { a.as_ref() });
    }
    let out = cmd.output().unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

const UNREACHABLE: (&str, &str) = ("leftmost(dollar) >= 11", "leftmost(dollar) >= 13");
const BEYOND_A_BYTE: (&str, &str) = ("leftmost(dollar) >= 11", "leftmost(dollar) >= 267");
const BACK: (&str, &str) = (
    "action step = slide dollar toward right by 1.. over empty",
    "action step = slide dollar toward right by 1.. over empty\n  action back = slide dollar toward left by 1.. over empty",
);

#[test]
fn a_setup_no_placement_meets_is_a_diagnostic_at_its_require() {
    let out = analysis_error(variant(UNREACHABLE.0, UNREACHABLE.1));
    assert!(out.contains("games/silver_dollar.game:16:5"), "{out}");
    insta::assert_snapshot!("no_setup", out);
    for cmd in ["analyze", "check"] {
        let (code, err) = cli("unreachable", &variant(UNREACHABLE.0, UNREACHABLE.1), &[cmd, "GAME"]);
        assert_eq!(code, Some(1), "gamec {cmd}: {err}");
        assert!(err.contains("no placement of the pieces satisfies the setup"), "gamec {cmd}: {err}");
        assert!(err.contains("unreachable.game:16:"), "gamec {cmd}: {err}");
        assert!(err.contains("help:"), "gamec {cmd}: {err}");
    }
}

#[test]
fn a_winnable_requirement_no_setup_meets_is_a_diagnostic_too() {
    // The one placement with every dollar on cell 8 or above (12 down to 8) is the first
    // player's win, and the device moves second.
    let text = variant("leftmost(dollar) >= 11", "rightmost(dollar) >= 8").replacen(
        "require winnable by first",
        "require winnable by device",
        1,
    );
    let out = analysis_error(text);
    assert!(out.contains("games/silver_dollar.game:17:5"), "{out}");
    insta::assert_snapshot!("no_setup_winnable", out);
}

#[test]
fn a_constant_beyond_the_line_is_compared_as_a_number() {
    // `>= 267` once became `>= 11` on the device (267 as a byte); now no placement meets it.
    let out = analysis_error(variant(BEYOND_A_BYTE.0, BEYOND_A_BYTE.1));
    assert!(out.contains("E0016") && out.contains(":16:5"), "{out}");
    // `<= 267` holds everywhere: the generated filter knows it, where a wrapped byte would
    // have compared with 11. (The highest cell against a constant compares the cells' mask
    // with a floor: `>= 11` is the mask at least 1 << 10.)
    let mut sources = Sources::new();
    let id = sources.add(GAME, variant("leftmost(dollar) >= 11", "leftmost(dollar) <= 267"));
    let game = gamec_dsl::load_game(&sources, id).unwrap();
    let a = Analysis::new(&game, id).unwrap();
    assert_eq!(a.setups_before_winnable, a.placements);
    let code = gamec::codegen::game_module(&game, &a, None, Origin::of(&sources, id));
    assert!(code.contains("true && mover_wins(pos)"), "{code}");
    let id = sources.add(GAME, variant("leftmost(dollar) >= 11", "leftmost(dollar) >= 11"));
    let game = gamec_dsl::load_game(&sources, id).unwrap();
    let code = gamec::codegen::game_module(&game, &Analysis::new(&game, id).unwrap(), None, Origin::of(&sources, id));
    assert!(code.contains("pos >= 1024 && mover_wins(pos)"), "{code}");
    // Two constants: decided by the compiler.
    let id = sources.add(GAME, variant("leftmost(dollar) >= 11", "300 > 299"));
    let game = gamec_dsl::load_game(&sources, id).unwrap();
    let code = gamec::codegen::game_module(&game, &Analysis::new(&game, id).unwrap(), None, Origin::of(&sources, id));
    assert!(code.contains("(true) && mover_wins(pos)") || code.contains("true && mover_wins(pos)"), "{code}");
}

#[test]
fn slides_both_ways_are_a_diagnostic_at_the_actions_not_a_stack_overflow() {
    let out = analysis_error(variant(BACK.0, BACK.1));
    assert!(out.contains("E0019"), "{out}");
    assert!(out.contains(":21:3") && out.contains("22 │   action back"), "{out}");
    assert_eq!(out.matches("part of a cycle of play").count(), 2, "both actions are labelled: {out}");
    insta::assert_snapshot!("cycle", out);
    let (code, err) = cli("cycle", &variant(BACK.0, BACK.1), &["analyze", "GAME"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("cycle.game:21:3"), "{err}");
    // `build` stops at the diagnostic, before any cargo run.
    let dir = std::env::temp_dir().join(format!("gamec-variants-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("cycle.game");
    std::fs::write(&game, variant(BACK.0, BACK.1)).unwrap();
    let board = std::path::PathBuf::from(root("boards/silver_dollar_attiny84.board"));
    match gamec::driver::build(&mut Sources::new(), &game, &board, &dir.join("out")) {
        Err(gamec::Error::Diagnostics(d)) => assert!(d.iter().any(|d| d.is_error()), "{d:?}"),
        Err(e) => panic!("expected diagnostics, got {e}"),
        Ok(_) => panic!("a cycling game built"),
    }
}

#[test]
fn the_solver_finds_a_cycle_without_recursing() {
    // One piece on 16 cells, one cell either way: every position is on a cycle.
    let slide = |step| Slide { step, min: 1, max: 1, over_empty: true };
    let rules = Rules {
        cells: 16,
        pieces: 1,
        numbered_from_right: false,
        slides: vec![slide(1), slide(-1)],
        last_mover_wins: true,
    };
    let cycle = Solution::try_solve(&rules).err().expect("play cycles");
    let mut pos = cycle.positions[0];
    for (i, m) in cycle.moves.iter().enumerate() {
        assert_eq!(pos, cycle.positions[i]);
        assert!(rules.moves(pos).contains(m), "each move of the cycle is legal");
        pos = Rules::apply(pos, *m);
    }
    assert_eq!(pos, cycle.positions[0], "and play is back where it began");
    // One way only: solved, as before.
    let rules = Rules { slides: vec![slide(-1)], ..rules };
    let solution = Solution::try_solve(&rules).expect("one-way play ends");
    // Cell index i is i moves from the end: the mover wins when that is odd.
    assert!((0..16).all(|i| solution.mover_wins(1 << i) == (i % 2 == 1)));
}

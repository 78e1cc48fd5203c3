//! Every game's own tests (`test "..." { ... }` in its file) pass, and a wrong expectation
//! fails at its line with the position shown.

use gamec_dsl::Sources;

fn run(path: &str, text: &str) -> (usize, Vec<String>) {
    let mut sources = Sources::new();
    let id = sources.add(path, text.to_string());
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let runs = gamec::game_tests::run(&game, id);
    let failures = runs.iter().filter(|r| !r.passed()).map(|r| sources.render(&r.failures)).collect();
    (runs.len(), failures)
}

fn games() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [root.join("../games"), root.join("tests/games")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "game") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_game_carries_tests_and_they_pass() {
    for path in games() {
        let text = std::fs::read_to_string(&path).unwrap();
        // A game of cards has no moves for `test` blocks to play: its search is tested
        // against enumeration (hosted/tests/cards_agree.rs) and on its device (set_device.rs).
        if text.contains("\n    cards {") {
            continue;
        }
        let (count, failures) = run(&path.display().to_string(), &text);
        assert!(count >= 3, "{} carries {count} tests", path.display());
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

#[test]
fn a_wrong_expectation_fails_at_its_line() {
    let path = format!("{}/../games/tictactoe.game", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    for (from, to, says) in [
        ("expect cross wins", "expect nought wins", "cross wins, not nought wins"),
        ("expect illegal B2", "expect illegal A1", "`A1` is legal"),
        ("expect device plays C1", "expect device plays A3", "the device may play `C1`"),
        ("moves B2\n    expect illegal", "moves B2, B2\n    expect illegal", "`B2` is not a legal move here"),
    ] {
        assert!(text.contains(from), "fixture: {from}");
        let (_, failures) = run("ttt.game", &text.replacen(from, to, 1));
        assert_eq!(failures.len(), 1, "{to}");
        assert!(failures[0].contains(says) && failures[0].contains("ttt.game:"), "{}", failures[0]);
    }
}

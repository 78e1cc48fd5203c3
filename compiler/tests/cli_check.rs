//! The command line people guess: `gamec check` names a board as `build` and `play` do, with
//! `--board` (files side by side are each checked on their own, and a game beside a board is
//! refused with that hint, never paired by guess), and `gamec completions` completes it all.

use std::process::Command;

fn gamec(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gamec"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

#[test]
fn a_board_is_named_with_board_and_a_game_beside_a_board_is_refused() {
    let (code, text) = gamec(&["check", "games/tictactoe.game", "--board", "boards/tictactoe_stk500_atmega16.board"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("ok: 2 file(s) checked"), "{text}");
    // The pair is checked: a game the board cannot serve is refused with it, not alone.
    let (code, text) = gamec(&["check", "games/silver_dollar.game", "--board", "boards/nim_netduinoplus2.board"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("E0105") && text.contains("has no button on this board"), "{text}");
    let (code, text) = gamec(&["check", "games/tictactoe.game", "boards/tictactoe_stk500_atmega16.board"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("--board"), "the hint names the flag: {text}");
    // Files of one kind, each on its own: no board is checked against another file's game.
    let (code, text) = gamec(&["check", "boards/tictactoe_stk500_atmega16.board", "boards/nim_netduinoplus2.board"]);
    assert_eq!(code, Some(0), "{text}");
}

/// `gamec completions SHELL` prints a completion script that knows the commands and flags.
#[test]
fn completions_know_the_commands_and_the_board_flag() {
    for shell in ["bash", "zsh", "fish"] {
        let (code, text) = gamec(&["completions", shell]);
        assert_eq!(code, Some(0), "{text}");
        for word in ["check", "build", "play", "--board"] {
            assert!(text.contains(word), "{shell} completes {word}");
        }
    }
}

/// `--message-format json`: a JSON object a diagnostic on standard output, its code, help and
/// each label's line and column, for editors and scripts.
#[test]
fn diagnostics_as_json_lines() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/gamec-tests/json");
    std::fs::create_dir_all(&dir).unwrap();
    let game = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/tictactoe.game")).unwrap();
    let bad = game.replacen("  first ", "  frist ", 1).replacen("  pieces ", "  peices ", 1);
    let path = dir.join("bad.game");
    std::fs::write(&path, &bad).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gamec"))
        .args(["--message-format", "json", "check"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (d, word, meant) in [(&lines[0], "frist", "first"), (&lines[1], "peices", "pieces")] {
        let line = bad.lines().position(|l| l.trim_start().starts_with(word)).unwrap() + 1;
        assert_eq!(d["code"], "E0001");
        assert_eq!(d["level"], "error");
        assert_eq!(d["labels"][0]["line"], line as u64, "{d}");
        assert_eq!(d["labels"][0]["column"], 3, "{d}");
        assert_eq!(d["help"], format!("did you mean `{meant}`?"), "{d}");
    }
}

/// `gamec watch` checks the game again on every save: a mistake saved is reported, its fix
/// saved is ok again, and the command keeps watching through both.
#[test]
fn watch_checks_each_save_and_keeps_watching() {
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;
    use std::time::{Duration, Instant};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/gamec-tests/watch");
    std::fs::create_dir_all(&dir).unwrap();
    let good = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/tictactoe.game")).unwrap();
    let path = dir.join("watched.game");
    std::fs::write(&path, &good).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamec"))
        .arg("watch")
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel::<String>();
    for stream in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    let until = |what: &str| {
        let end = Instant::now() + Duration::from_secs(60);
        let mut seen = Vec::new();
        while Instant::now() < end {
            if let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
                let done = line.contains(what);
                seen.push(line);
                if done {
                    return seen.join("\n");
                }
            }
        }
        panic!("no {what:?}: {}", seen.join("\n"));
    };
    // Standard output and error arrive on two threads: each round is waited for by its own
    // words, not by the order of lines.
    until("ok: 1 file(s) checked");
    until("watching");
    std::fs::write(&path, good.replacen("  first ", "  frist ", 1)).unwrap();
    until("did you mean `first`?");
    std::fs::write(&path, &good).unwrap();
    until("ok: 1 file(s) checked");
    assert!(child.try_wait().unwrap().is_none(), "still watching");
    let _ = child.kill();
    let _ = child.wait();
}

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
    assert!(text.contains("E0114"), "{text}");
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

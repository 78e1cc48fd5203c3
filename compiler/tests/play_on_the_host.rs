//! `gamec play` without a board, driven as a person at a terminal would: ask for the legal
//! moves, type one, read the device's answer. The device's answers are checked against the
//! engine, an illegal move must be denied with the position unchanged, and a perfect device
//! must never lose.

use gamec::engine::{Engine, Outcome};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};

fn root(p: &str) -> String {
    format!("{}/../{p}", env!("CARGO_MANIFEST_DIR"))
}

/// A `gamec play` process, its output read a character at a time up to each prompt.
struct Terminal {
    child: Child,
    stdin: ChildStdin,
    out: BufReader<std::process::ChildStdout>,
}

impl Terminal {
    fn start(game: &str, seed: u64) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamec"))
            .args(["play", &root(game), "--seed", &seed.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("gamec runs");
        let stdin = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        Terminal { child, stdin, out }
    }

    /// Everything up to the next prompt (`... to move> `), or to the end of the output.
    fn until_prompt(&mut self) -> String {
        let mut text = String::new();
        let mut byte = [0u8];
        while !text.ends_with("to move> ") {
            match self.out.read(&mut byte) {
                Ok(1) => text.push(byte[0] as char),
                _ => break,
            }
        }
        text
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The legal moves the terminal lists.
    fn legal(&mut self) -> Vec<String> {
        self.send("moves");
        let mut line = String::new();
        self.out.read_line(&mut line).unwrap();
        let listed = line.strip_prefix("legal: ").unwrap_or_else(|| panic!("a list of moves, not {line:?}"));
        // The rest of the prompt that follows the list.
        let rest = self.until_prompt();
        assert!(rest.ends_with("to move> "), "{rest}");
        listed.trim().split(", ").map(str::to_string).collect()
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn load(game: &str) -> gamec_dsl::GameDef {
    let mut sources = gamec_dsl::Sources::new();
    let f = sources.add(game, std::fs::read_to_string(root(game)).unwrap());
    gamec_dsl::load_game(&sources, f).unwrap()
}

/// Plays tic-tac-toe as cross by random legal moves, one illegal try a turn: the device
/// (nought, perfect) answers legally every time and never loses.
#[test]
fn tic_tac_toe_against_the_perfect_device_at_the_terminal() {
    let def = load("games/tictactoe.game");
    let engine = Engine::new(&def);
    for seed in 1..=4u64 {
        let mut t = Terminal::start("games/tictactoe.game", seed);
        let mut state = engine.fixed_start(&def);
        let mut rng = seed;
        t.until_prompt();
        let mut text: String;
        loop {
            let legal = t.legal();
            let expected: Vec<String> = engine.plies(&state).into_iter().map(|m| engine.move_name(m)).collect();
            assert_eq!(legal, expected, "the terminal lists the engine's moves");
            // A move on a taken cell, or off the board, is denied and changes nothing.
            t.send("D9");
            let denied = t.until_prompt();
            assert!(denied.starts_with("denied: "), "{denied}");
            assert_eq!(t.legal(), expected, "the position is unchanged after a denial");
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = &legal[(rng >> 33) as usize % legal.len()];
            t.send(pick);
            state = engine.play(&state, engine.parse_move(&state, pick).unwrap());
            text = t.until_prompt();
            if let Some(at) = text.find("device plays ") {
                let name = text[at + "device plays ".len()..].lines().next().unwrap().trim().to_string();
                let m = engine.parse_move(&state, &name).unwrap_or_else(|e| panic!("{name}: {}", e.message));
                assert!(engine.plies(&state).contains(&m), "{name} is legal");
                state = engine.play(&state, m);
            }
            if engine.outcome(&state).is_some() || engine.plies(&state).is_empty() {
                break;
            }
        }
        let over = text.lines().find(|l| l.starts_with("game over: ")).unwrap_or_else(|| panic!("{text}"));
        assert_ne!(over, "game over: you win", "seed {seed}");
        match engine.outcome(&state) {
            Some(Outcome::Win(p)) => {
                assert_eq!(over, "game over: the device wins", "{} won", engine.player_names[p as usize])
            }
            _ => assert_eq!(over, "game over: a draw"),
        }
    }
}

/// A game whose device searches (Othello): every answer is legal, and `quit` ends the
/// program at once with success.
#[test]
fn othello_against_the_searching_device_and_quit() {
    let def = load("games/othello.game");
    let engine = Engine::new(&def);
    let mut t = Terminal::start("games/othello.game", 5);
    let mut state = engine.fixed_start(&def);
    t.until_prompt();
    for _ in 0..3 {
        let legal = t.legal();
        t.send(&legal[0]);
        state = engine.play(&state, engine.parse_move(&state, &legal[0]).unwrap());
        let text = t.until_prompt();
        let at = text.find("device plays ").unwrap_or_else(|| panic!("{text}"));
        let name = text[at + "device plays ".len()..].lines().next().unwrap().trim().to_string();
        let m = engine.parse_move(&state, &name).unwrap();
        assert!(engine.plies(&state).contains(&m), "{name} is legal");
        state = engine.play(&state, m);
    }
    t.send("quit");
    let status = t.child.wait().unwrap();
    assert!(status.success());
}

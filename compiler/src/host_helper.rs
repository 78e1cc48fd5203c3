//! `gamec play --board --host`: gamec speaks a serial game's protocol for the person, who
//! types moves alone. A typed move goes out after the protocol's play command, the side the
//! person plays is picked when the firmware asks, and whatever the firmware awaits (its own
//! move, a result) is acknowledged. Lines that begin with one of the protocol's commands go
//! out as typed, so every command stays at hand.

use gamec_dsl::{CommandArgDef, SayPart, SerialDef, SessionAction, SessionEvent, TextPart};

/// What gamec says for the person, read from the game's protocol.
#[derive(Debug, Clone)]
pub struct Speaker {
    /// Command words, to pass lines that begin with one through as they are.
    words: Vec<String>,
    /// The play commands: a move named by its cells, or a placement's cell, or a drop's column.
    play_move: Option<String>,
    play_cell: Option<String>,
    play_column: Option<String>,
    pass: Option<String>,
    ack: Option<String>,
    /// The side command and the word of the side the person plays, and the prompt it answers.
    side: Option<(String, String, String)>,
    /// How each response the firmware then waits on begins: its last line's text before any
    /// placeholder.
    awaited: Vec<String>,
}

impl Speaker {
    /// The speaker of `p`, the person playing `person` (a player's index).
    pub fn new(p: &SerialDef, person: usize) -> Speaker {
        let word = |f: &dyn Fn(&SessionAction, &CommandArgDef) -> bool| {
            p.commands.iter().find(|c| f(&c.action, &c.arg)).map(|c| c.word.clone())
        };
        let side = p.commands.iter().find_map(|c| match (&c.action, &c.arg) {
            (SessionAction::HostPlaysSide, CommandArgDef::Side(sides)) => {
                let mine = sides.iter().find(|(_, i)| *i == person)?;
                let prompt = p.say(SessionEvent::PickSide).and_then(|s| last_line_start(&s.parts))?;
                Some((c.word.clone(), mine.0.clone(), prompt))
            }
            _ => None,
        });
        Speaker {
            words: p.commands.iter().map(|c| c.word.clone()).collect(),
            play_move: word(&|a, _| matches!(a, SessionAction::PlayMove)),
            play_cell: word(&|a, arg| matches!(a, SessionAction::Play(_)) && *arg == CommandArgDef::Cell),
            play_column: word(&|a, arg| matches!(a, SessionAction::Play(_)) && *arg == CommandArgDef::Column),
            pass: word(&|a, _| matches!(a, SessionAction::Pass)),
            ack: word(&|a, _| matches!(a, SessionAction::Ack)),
            side,
            awaited: p
                .says
                .iter()
                .filter(|s| s.parts.contains(&SayPart::Await))
                .filter_map(|s| last_line_start(&s.parts))
                .collect(),
        }
    }

    /// The line to send for what the person typed.
    pub fn typed(&self, line: &str) -> String {
        let line = line.trim();
        let first = line.split_whitespace().next().unwrap_or("");
        if self.words.iter().any(|w| w.eq_ignore_ascii_case(first)) {
            return line.to_string();
        }
        let play = match line {
            _ if line.eq_ignore_ascii_case("pass") => return self.pass.clone().unwrap_or_else(|| line.to_string()),
            // A letter alone is a column, where the game drops.
            _ if line.len() == 1 && line.chars().all(|c| c.is_ascii_alphabetic()) => {
                self.play_column.as_ref().or(self.play_move.as_ref())
            }
            _ => self.play_move.as_ref().or(self.play_cell.as_ref()),
        };
        match play {
            Some(word) => format!("{word} {line}"),
            None => line.to_string(),
        }
    }

    /// What to answer a line the firmware sent, if anything: the person's side when asked for
    /// it, the acknowledgement when the firmware waits for one.
    pub fn heard(&self, line: &str) -> Option<String> {
        if let Some((word, side, prompt)) = &self.side {
            if line.starts_with(prompt.as_str()) {
                return Some(format!("{word} {side}"));
            }
        }
        let waits = self.awaited.iter().any(|start| line.starts_with(start.as_str()));
        waits.then(|| self.ack.clone()).flatten()
    }
}

/// How a response's last line begins: its text up to its first placeholder, if any text.
fn last_line_start(parts: &[SayPart]) -> Option<String> {
    let text = parts.iter().rev().find_map(|p| match p {
        SayPart::Line(t) => Some(t),
        _ => None,
    })?;
    let start: String = text
        .iter()
        .map_while(|t| match t {
            TextPart::Text(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    (!start.is_empty()).then_some(start)
}

/// A serial game's firmware in its QEMU machine with gamec speaking its protocol for the
/// person: what the firmware says is printed, what it asks is answered, and typed moves go out
/// as commands.
pub fn in_qemu(elf: &std::path::Path, qemu: &gamec::chips::Qemu, usart: &str, speaker: Speaker) -> Result<(), String> {
    use std::io::{BufRead, Write};
    let mut machine = crate::qemu_ports::Machine::boot(elf, qemu, &[usart])?;
    let mut to_board = machine.ports.pop().expect("the USART asked for");
    let (from_board, answers) = (to_board.try_clone(), to_board.try_clone());
    let (from_board, mut answers) = (from_board.map_err(|e| e.to_string())?, answers.map_err(|e| e.to_string())?);
    let listener = speaker.clone();
    std::thread::spawn(move || {
        crate::qemu_ports::echo_lines(from_board, |line| {
            if let Some(answer) = listener.heard(line) {
                println!("> {answer}");
                let _ = answers.write_all(format!("{answer}\r").as_bytes());
            }
        })
    });
    eprintln!("the firmware runs in qemu-system-arm: type your moves (gamec speaks the protocol), `quit` to stop");
    let gone = |e: std::io::Error| format!("the firmware stopped answering: {e}");
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim() == "quit" {
            break;
        }
        let sent = speaker.typed(&line);
        println!("> {sent}");
        to_board.write_all(format!("{sent}\r").as_bytes()).map_err(gone)?;
    }
    Ok(())
}

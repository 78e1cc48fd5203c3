//! `gamec play --board` for a game of cards: the firmware in qemu-system-arm, its console on
//! the terminal and its scanner fed by typed cards. A line `scan CARD` is turned into the
//! card's code, sent on the scanner's USART as a scanner sends it (the code's bytes, low
//! first, then the board's suffix); every other line goes to the console.

use crate::qemu_ports::Machine;
use gamec::bind::cards::CardsTarget;
use gamec_dsl::CardsDef;
use std::io::{BufRead, Write};
use std::net::TcpStream;
use std::path::Path;

/// Runs `image` in its QEMU machine with `ports` (the console's and the scanner's) until the
/// person types `quit` or ends the input.
pub fn play(image: &Path, qemu: &gamec::chips::Qemu, ports: &CardsTarget, deck: &CardsDef) -> Result<(), String> {
    let mut machine = Machine::boot(image, qemu, &[ports.console.port.name, ports.scanner.port.name])?;
    let (mut to_scanner, mut to_console) = (machine.ports.pop().unwrap(), machine.ports.pop().unwrap());
    let from_console = to_console.try_clone().map_err(|e| e.to_string())?;
    std::thread::spawn(move || crate::qemu_ports::echo_lines(from_console, |_| {}));
    eprintln!("the firmware runs in qemu-system-arm: type the console's commands, `scan CARD` to scan a card");
    eprintln!("(its code, or its values: `scan {}`), `quit` to stop", example(deck));
    serve(&mut to_console, &mut to_scanner, &ports.scanner.suffix, deck)
}

/// Reads the person's lines until `quit` or the end of the input.
fn serve(console: &mut TcpStream, scanner: &mut TcpStream, suffix: &[u8], deck: &CardsDef) -> Result<(), String> {
    let gone = |e: std::io::Error| format!("the firmware stopped answering: {e}");
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        match line.trim().strip_prefix("scan ") {
            _ if line.trim() == "quit" => break,
            Some(card) => match code(deck, card) {
                Ok(code) => {
                    let mut frame = code.to_le_bytes()[..code_bytes(deck)].to_vec();
                    frame.extend_from_slice(suffix);
                    scanner.write_all(&frame).map_err(gone)?;
                    // A frame ends when the line falls quiet: scans pasted together stay apart.
                    let gap = gamec_runtime::card_table::FRAME_GAP_MS;
                    std::thread::sleep(std::time::Duration::from_millis(3 * u64::from(gap)));
                }
                Err(why) => eprintln!("{why}"),
            },
            None => console.write_all(format!("{line}\r").as_bytes()).map_err(gone)?,
        }
    }
    Ok(())
}

/// The bytes a card's code takes: as many as its attributes' bits need.
fn code_bytes(deck: &CardsDef) -> usize {
    let bits = deck.attributes.iter().map(|a| u32::from(a.lo) + u32::from(a.width)).max().unwrap_or(8);
    bits.div_ceil(8).clamp(1, 4) as usize
}

/// The code of `card`: a number (`57`, `0x39`), or one value of every attribute in any order.
pub fn code(deck: &CardsDef, card: &str) -> Result<u32, String> {
    let card = card.trim();
    let number = match card.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => card.parse().ok(),
    };
    if let Some(n) = number {
        return Ok(n);
    }
    let mut code = 0u32;
    for a in &deck.attributes {
        let named: Vec<usize> = card
            .split_whitespace()
            .filter_map(|w| a.values.iter().position(|v| v.node.eq_ignore_ascii_case(w)))
            .collect();
        let [value] = named[..] else {
            let values: Vec<&str> = a.values.iter().map(|v| v.node.as_str()).collect();
            return Err(format!("name one {} of {} (or the card's code)", a.name.node, values.join(", ")));
        };
        code |= (value as u32) << a.lo;
    }
    Ok(code)
}

/// A card named by its values: every attribute's first.
fn example(deck: &CardsDef) -> String {
    let first: Vec<&str> = deck.attributes.iter().filter_map(|a| a.values.first()).map(|v| v.node.as_str()).collect();
    first.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck() -> CardsDef {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../games/set.game")).unwrap();
        let mut sources = gamec_dsl::Sources::new();
        let id = sources.add("set.game", text);
        gamec_dsl::load_game(&sources, id).unwrap().cards.unwrap()
    }

    #[test]
    fn a_card_is_named_by_its_code_or_one_value_of_each_attribute() {
        let deck = deck();
        assert_eq!(code(&deck, "57"), Ok(57));
        assert_eq!(code(&deck, "0x39"), Ok(0x39));
        let first = example(&deck);
        assert_eq!(code(&deck, &first), Ok(0), "every attribute's first value is 0");
        // The same values in another order name the same card.
        let reversed: Vec<&str> = first.split(' ').rev().collect();
        assert_eq!(code(&deck, &reversed.join(" ")), Ok(0));
        assert!(code(&deck, "nothing at all").is_err());
        assert_eq!(code_bytes(&deck), 1);
    }
}

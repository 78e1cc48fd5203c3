//! Games on the rule core with a random setup (compiler/tests/games/kayles_dealt.game: seven
//! pins dealt on a line of ten, only deals the device wins kept; kayles_dealt_wide.game, 791
//! such deals, more than a byte numbers), served over the serial line of qemu-system-arm's
//! netduinoplus2 (a test board with a serial port): every game starts from one of the deals
//! the compiler found, the deals differ from game to game, and the device, playing the solved
//! game, wins every one.

#[allow(dead_code)]
mod qemu;
#[allow(dead_code)]
#[path = "support/serial_host.rs"]
mod serial_host;

use gamec::engine::Outcome;
use serial_host::Host;
use std::collections::HashSet;

const BOARD: &str = "compiler/tests/boards/serial_netduinoplus2.board";

fn glyph(content: u8) -> char {
    match content {
        0 => '.',
        1 => '|',
        other => panic!("content {other}"),
    }
}

/// A move in the engine's notation for a line (`3-4`) as the serial board names its cells
/// (`C1-D1`), and back.
fn lettered(name: &str) -> String {
    let cell = |n: &str| format!("{}1", (b'A' + n.parse::<u8>().unwrap() - 1) as char);
    name.split('-').map(cell).collect::<Vec<_>>().join("-")
}

fn numbered(name: &str) -> String {
    let cell = |c: &str| (c.as_bytes()[0] - b'A' + 1).to_string();
    name.split('-').map(cell).collect::<Vec<_>>().join("-")
}

/// The row of a line's board dump, read as the cells it shows.
fn cells_shown(h: &mut Host) -> Vec<u8> {
    let row = h.line();
    let glyphs: Vec<char> = row[1..].chars().filter(|c| *c != ' ').collect();
    glyphs.iter().map(|&g| if g == '|' { 1 } else { 0 }).collect()
}

#[test]
fn every_game_starts_from_a_deal_the_compiler_found_and_the_device_wins_it() {
    let seen = deals_played("compiler/tests/games/kayles_dealt.game", 8);
    assert!(seen.len() > 1, "eight games dealt {} start(s)", seen.len());
}

#[test]
fn deals_past_the_255th_are_dealt_too() {
    let seen = deals_played("compiler/tests/games/kayles_dealt_wide.game", 12);
    assert!(seen.iter().any(|&k| k > 255), "twelve games dealt only deals {seen:?}");
}

/// Plays `games` games of `game` over the serial line, each from the deal the device shows,
/// to the device's win; the deals' indices among those the compiler found.
fn deals_played(game: &str, games: usize) -> HashSet<usize> {
    let def = serial_host::load(game);
    let cols = def.rules.columns_and_rows().expect("a line").0;
    let header = format!(" {}", (0..cols).map(|c| format!(" {}", (b'A' + c as u8) as char)).collect::<String>());
    let header = header.as_str();
    let mut h = Host::boot(game, BOARD, header);
    let deals = gamec::analyze::dealt_starts(&h.engine, &def);
    assert!(deals.len() > 1, "several deals");
    let mut seen = HashSet::new();
    for game in 0..games {
        if game > 0 {
            h.send("NG");
            h.expect(header);
        }
        let shown = cells_shown(&mut h);
        let k = deals.iter().position(|d| d.cells == shown).unwrap_or_else(|| panic!("{shown:?} is no deal"));
        h.state = deals[k].clone();
        seen.insert(k);
        h.expect("Your move");
        loop {
            let moves = h.engine.plies(&h.state);
            let m = moves[h.random(moves.len())];
            h.send(&format!("MV {}", lettered(&h.engine.move_name(m))));
            h.play(m);
            h.expect("OK");
            let line = h.line();
            let text = line.strip_prefix("MM ").unwrap_or_else(|| panic!("the device answers, not {line:?}"));
            h.device_move(&format!("MM {}", numbered(text)));
            h.send("OK");
            match h.line().as_str() {
                line if line == header => {
                    h.board(header, glyph);
                    h.expect("Your move");
                }
                "WN" => {
                    assert_eq!(h.engine.outcome(&h.state), Some(Outcome::Win(1)), "the device won");
                    h.send("OK");
                    break;
                }
                other => panic!("{other}"),
            }
        }
    }
    seen
}

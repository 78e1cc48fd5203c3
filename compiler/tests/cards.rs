//! Games of cards: what `analyze` proves of Set's deck, and the refusals of decks that cannot
//! mean anything, each at its line with a hint.

#[path = "support/checking.rs"]
mod checking;

use checking::check;
use gamec_dsl::Sources;

fn set_text() -> String {
    std::fs::read_to_string(format!("{}/../games/set.game", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn analyze_counts_the_deck_and_its_sets() {
    let mut sources = Sources::new();
    let id = sources.add("set.game", set_text());
    let game = gamec_dsl::load_game(&sources, id).unwrap();
    let facts = gamec::analyze::Facts::new(&game).to_string();
    assert!(facts.contains("deck:                               81 cards"), "{facts}");
    assert!(facts.contains("sets of 3 in the deck:              1080"), "{facts}");
    assert!(facts.contains("any 2 cards determine the last"), "{facts}");
}

#[test]
fn decks_that_cannot_mean_anything_are_refused_at_their_line() {
    let text = set_text();
    let cases = [
        (
            "quantity = one, two, three at bits 1..0",
            "quantity = one, two, three, four, five at bits 1..0",
            "5 values do not fit in 2 bits",
        ),
        (
            "filling = empty, solid, striped at bits 3..2",
            "filling = empty, solid, striped at bits 2..1",
            "these bits hold another attribute too",
        ),
        ("table 21 as 3 x 7", "table 21 as 4 x 5", "laid out as rows times columns"),
        (
            "every attribute is all same or all different",
            "colour is all different and hue is all same",
            "unknown attribute `hue`",
        ),
    ];
    for (from, to, message) in cases {
        assert!(text.contains(from), "fixture: {from}");
        let (ok, out) = check(&text.replacen(from, to, 1));
        assert!(!ok, "{to}");
        assert!(out.contains(message) && out.contains("game.game:") && out.contains("help:"), "{to}:\n{out}");
    }
}

/// The modules an SVG sticker draws, read back from its rectangles: a grid of `side` modules,
/// the quiet zone stripped.
fn read_back(svg: &str) -> (Vec<bool>, usize) {
    let side: usize = svg.split("viewBox=\"0 0 ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let inner = side - 2;
    let mut bits = vec![false; inner * inner];
    for rect in svg.split("<rect x=\"").skip(1) {
        let x: f64 = rect.split('"').next().unwrap().parse().unwrap();
        let y: f64 = rect.split("y=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
        bits[(y as usize - 1) * inner + (x as usize - 1)] = true;
    }
    (bits, inner)
}

#[test]
fn every_card_has_a_sticker_a_decoder_reads_back_as_its_code() {
    let mut sources = Sources::new();
    let id = sources.add("set.game", set_text());
    let game = gamec_dsl::load_game(&sources, id).unwrap();
    let stickers = gamec::stickers::stickers(&game, id).unwrap();
    assert_eq!(stickers.len(), 82, "81 cards and the sheet");
    let deck = gamec::cards::Deck::new(game.cards.as_ref().unwrap());
    for (code, sticker) in deck.cards().into_iter().zip(&stickers) {
        assert!(sticker.file.starts_with(&format!("{code:03}-")), "{}", sticker.file);
        assert!(sticker.svg.contains(&format!("<title>{}</title>", deck.name(code))));
        let (bits, width) = read_back(&sticker.svg);
        let data = datamatrix::DataMatrix::decode(&bits, width).expect("a readable symbol");
        assert_eq!(data, vec![code as u8], "{}", sticker.file);
    }
    let sheet = &stickers[81];
    assert_eq!(sheet.file, "sheet.svg");
    assert_eq!(sheet.svg.matches("<text").count(), 81);
}

/// The set game with a board: boards that do not give it its two serial devices are refused
/// at their line, and the shipped boards pass.
#[test]
fn a_card_game_needs_a_console_and_a_scanner_on_its_board() {
    let pair = |board: &str| {
        let mut sources = Sources::new();
        let g = sources.add("set.game", set_text());
        let b = sources.add("b.board", board.to_string());
        match gamec::check(&sources, &[g, b]) {
            Ok(_) => (true, String::new()),
            Err(d) => (false, sources.render(&d)),
        }
    };
    let base = "board b {\n  chip stm32f405\n  clock 168 MHz internal\n";
    let cases = [
        ("  serial usart1 115200 baud for console\n", "E0117", "no serial port to the game's scanner"),
        ("  serial usart1 115200 baud for console\n  serial usart1 9600 baud for scanner\n", "E0117", "share a serial port"),
        ("  serial usart1 115200 baud for console\n  serial usart9 9600 baud for scanner\n", "E0108", "no serial port `usart9`"),
        ("  serial usart1 115200 baud for console\n  serial usart2 9600 baud for scanner\n  serial usart3 9600 baud for printer\n", "E0117", "no serial device `printer`"),
        ("  serial usart1 115200 baud for console\n  serial usart2 9600 baud for scanner suffix 300\n", "E0005", "a suffix byte is 0 to 255"),
    ];
    for (ports, code, why) in cases {
        let (ok, out) = pair(&format!("{base}{ports}}}\n"));
        assert!(!ok, "{ports}");
        assert!(out.contains(code) && out.contains(why) && out.contains("b.board:"), "{ports}: {out}");
    }
    let (ok, out) = pair(&format!(
        "{base}  serial usart1 115200 baud for console\n  serial usart2 9600 baud for scanner suffix cr lf\n}}\n"
    ));
    assert!(ok, "{out}");
    // A card game on an AVR chip, whose glue drives one serial port: the scanner has none.
    let (ok, out) =
        pair("board b {\n  chip atmega16\n  clock 8 MHz crystal\n  serial usart 9600 baud for console\n}\n");
    assert!(!ok && out.contains("E0117") && out.contains("no serial port to the game's scanner"), "{out}");
    for board in ["boards/set_at_start_f437.board", "boards/set_netduinoplus2.board", "boards/set_lm3s6965.board"] {
        let text = std::fs::read_to_string(format!("{}/../{board}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let (ok, out) = pair(&text);
        assert!(ok, "{board}: {out}");
    }
}

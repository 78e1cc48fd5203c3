//! Games of cards: what `analyze` proves of Set's deck, and the refusals of decks that cannot
//! mean anything, each at its line with a hint.

#[path = "support/checking.rs"]
mod checking;

use checking::check;
use gamec_dsl::Sources;

fn set_text() -> String {
    std::fs::read_to_string(format!("{}/hosted/fixtures/set.game", env!("CARGO_MANIFEST_DIR"))).unwrap()
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

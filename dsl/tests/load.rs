//! The shipped game and board files load without diagnostics.

use gamec_dsl::{load, Definition, Sources};

fn load_path(path: &str) -> Definition {
    let text = std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut sources = Sources::new();
    let id = sources.add(path, text);
    load(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
}

#[test]
fn silver_dollar_game_loads() {
    let Definition::Game(g) = load_path("games/silver_dollar.game") else { panic!("not a game") };
    assert_eq!(g.rules.board.cells(), 12);
    assert_eq!(g.rules.piece.count, 5);
    assert!(
        matches!(g.rules.moves[0].kind, gamec_dsl::MoveKind::Slide { step: -1, .. }),
        "toward right is toward cell 1"
    );
    assert_eq!(g.interface.tunes.len(), 4);
}

#[test]
fn silver_dollar_board_loads() {
    let Definition::Board(b) = load_path("boards/silver_dollar_attiny84.board") else { panic!("not a board") };
    assert_eq!(b.clock_hz, 8_000_000);
    assert_eq!(b.displays[0].leds.len(), 12);
    assert_eq!(b.buttons.len(), 6);
}

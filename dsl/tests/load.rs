//! The shipped game and board files load without diagnostics.

use gamec_dsl::{load, Definition, Setups, Sources};

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

/// A game starts one way, said once: dealt at random under its constraints, or from fixed
/// setups (none: an empty board), a heap game's sizes in its one setup.
#[test]
fn each_game_says_once_how_it_starts() {
    let game = |path: &str| match load_path(path) {
        Definition::Game(g) => g,
        Definition::Board(_) => panic!("{path} is not a game"),
    };
    let silver_dollar = game("games/silver_dollar.game");
    assert!(silver_dollar.rules.setup.is_random());
    assert!(!silver_dollar.rules.setup.require().is_empty());
    assert!(silver_dollar.rules.setup.fixed().is_empty() && silver_dollar.rules.fixed_shared().is_empty());

    let binario = game("games/binario.game");
    assert!(!binario.rules.setup.is_random() && binario.rules.setup.require().is_empty());
    assert!(binario.rules.setup.fixed().len() > 1, "tableaux to choose from");

    let nim = game("games/nim.game");
    assert!(matches!(nim.rules.setup, Setups::Fixed(ref s) if s.len() == 1));
    assert_eq!(nim.rules.fixed_heaps(), [3, 4, 5]);
    assert_eq!(nim.rules.lights(), 12);

    let tictactoe = game("games/tictactoe.game");
    assert!(matches!(tictactoe.rules.setup, Setups::Fixed(ref s) if s.is_empty()), "an empty board");
    assert!(tictactoe.rules.fixed_pieces().is_empty());

    let othello = game("games/othello.game");
    let start: Vec<usize> = othello.rules.fixed_pieces().iter().map(|(_, cells)| cells.len()).collect();
    assert_eq!(start, [2, 2]);
}

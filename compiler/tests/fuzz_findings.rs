//! Defects the fuzz targets (compiler/fuzz) and the generated-game property tests found,
//! each as the smallest input that shows it, held to what the game file says.

use gamec::cards::Deck;
use gamec_dsl::Sources;

fn load(text: &str) -> gamec_dsl::GameDef {
    let mut sources = Sources::new();
    let id = sources.add("finding.game", text.to_string());
    gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
}

/// Found by the generated games of cards (compiler/hosted/tests/cards_agree.rs): in a group of
/// two, an attribute of two values under `all same or all different` holds for any pair, so one
/// card does not determine the other; the search worked out only the `same` card, and missed
/// every pair that differs there.
#[test]
fn pairs_that_differ_in_a_two_valued_same_or_different_attribute_are_groups() {
    let game = load(
        "game pairs {
  cards {
    p0 = p0v0, p0v1 at bits 1..0
    p1 = p1v0, p1v1, p1v2 at bits 3..2
  }
  table 15 as 3 x 5
  group g = 2 cards where p0 is all same or all different and p1 is all same
}
",
    );
    let deck = Deck::new(game.cards.as_ref().unwrap());
    let table = [0, 1, 4, 5, 8, 9];
    assert_eq!(deck.groups_by_enumeration(&table), [[0, 1], [2, 3], [4, 5]]);
    assert_eq!(deck.groups(&table), deck.groups_by_enumeration(&table));
    assert!(!deck.determined());
}

/// Found by the `test` fuzz target after 7,477,243 executions: a test's position of heap sizes
/// in a game on a line was accepted, its sizes taken for pieces, and showing the position (for
/// a failed `expect`) indexed a cell state the game does not have. Sizes are for heaps only.
#[test]
fn heap_sizes_in_a_test_of_a_game_without_heaps_are_refused_at_the_number() {
    let text = "game line {
  players human, device
  first human
  board line 12
  pieces dollar x 2
  setup fixed { dollar at 12, 10 }
  action step = slide dollar toward right by 1.. over empty
  end { no moves -> mover wins }
  test \"sizes\" {
    from { heaps 0, 0, 3 }
    expect legal 3:1
  }
}
";
    let mut sources = Sources::new();
    let id = sources.add("finding.game", text.to_string());
    let errors = gamec_dsl::load_game(&sources, id).expect_err("heap sizes on a line are refused");
    let rendered = sources.render(&errors);
    assert_eq!(errors.len(), 1, "{rendered}");
    assert_eq!(errors[0].code, "E0006", "{rendered}");
    assert!(rendered.contains("finding.game:10:18") && rendered.contains("from { dollar at ... }"), "{rendered}");
    // What the fuzzer ran, with the refusal in place: `gamec test` reports and never panics.
    assert!(gamec::check(&sources, &[id]).is_err());
}

/// Found by the `test` fuzz target after 5,219,485 executions (a timeout): a puzzle whose
/// conditions prune nothing until the grid is full (every column one run of eight, and rows
/// distinct, which such columns never allow) kept `gamec check` searching for ever. The
/// solver now gives up after a budget of work, and `check` says so at the start (E0024). The
/// `firmware` target timed out on the same search after 711,986 executions (a Binario whose
/// rows want three reds of eight), which the budget now ends within half a second.
#[test]
fn a_puzzle_whose_solutions_only_a_full_grid_decides_is_refused_not_searched_for_ever() {
    let text = "game binario {
    players solver
    board grid 5 x 8
    states red, green
    action paint = cycle free cell through red, green, empty
    end {
        run(any in each column) == 8
            and rows distinct and columns distinct
            -> solver wins
    }
}
";
    let mut sources = Sources::new();
    let id = sources.add("finding.game", text.to_string());
    let errors = gamec::check(&sources, &[id]).unwrap_err();
    let rendered = sources.render(&errors);
    assert!(rendered.contains("error[E0024]: the setup's solutions could not be decided"), "{rendered}");
    let facts = gamec::analyze::Facts::new(&load(text)).to_string();
    assert!(facts.contains("not decided within 300,000 judgements"), "{facts}");
    // `gamec generate` searches for a winning filling the same way, and gives up alike.
    let game = load(text);
    let engine = gamec::engine::Engine::new(&game);
    let puzzle = gamec::engine::puzzle::Puzzle::new(&engine).unwrap();
    let mut n = 1u64;
    assert_eq!(
        puzzle.generate(&game, &mut || {
            n = n.wrapping_mul(6364136223846793005).wrapping_add(1);
            n
        }),
        None
    );
}

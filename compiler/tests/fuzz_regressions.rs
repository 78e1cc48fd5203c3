//! Inputs on which the fuzzer (`cargo xtask fuzz`, compiler/fuzz) found `gamec::check` to
//! panic, minimized. Each must get diagnostics, rendered, and no panic.

use gamec_dsl::Sources;

/// Checks one game file and renders what `check` says, as the fuzz target does.
fn check_and_render(game: &str) {
    let mut sources = Sources::new();
    let id = sources.add("fuzz.game", game.to_string());
    let diagnostics = gamec::check(&sources, &[id]).unwrap_or_else(|errors| errors);
    sources.render(&diagnostics);
}

/// A serial game whose feedback answers `event`.
fn serial_game_on(event: &str) -> String {
    format!(
        r#"game g {{
  players a, b
  first a
  board grid 3 x 3
  pieces p per player
  action put = place p on empty
  end {{ full -> draw }}
  strategy b = random
  controls serial {{
    "MV" cell -> play put
    "OK" -> ack
  }}
  feedback serial {{
    on {event} -> "You win"
  }}
}}
"#
    )
}

/// Found 2026-11-22 after 1.25 million executions (the fuzzer had turned Connect Four's
/// `on win host` into `on  winhost`). The grammar read `winhost` as `win host` (its words
/// needed no space between them, and could have a comment), but the parser named the event by
/// its text, so lowering met a name it did not know: `unreachable!` in dsl/src/lower_serial.rs.
/// Now the words must stand apart, and `winhost` is a syntax error.
#[test]
fn serial_event_words_run_together_or_split_by_a_comment() {
    for event in ["winhost", "toolate", "your // a comment\n turn", "win host"] {
        check_and_render(&serial_game_on(event));
    }
}

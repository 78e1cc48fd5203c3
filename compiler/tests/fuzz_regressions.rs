//! Inputs on which the fuzzer (`cargo xtask fuzz`, compiler/fuzz) found `gamec::check` to
//! panic, minimized. Each must get exactly the diagnostics it deserves (or none), rendered, and
//! no panic.

use gamec_dsl::{Diagnostic, SessionEvent, Sources};

/// Checks one game file as the fuzz target does: its diagnostics (errors or warnings), rendered,
/// and whether it was accepted.
fn check_and_render(game: &str) -> (Result<Vec<Diagnostic>, Vec<Diagnostic>>, String) {
    let mut sources = Sources::new();
    let id = sources.add("fuzz.game", game.to_string());
    let result = gamec::check(&sources, &[id]);
    let rendered = match &result {
        Ok(d) | Err(d) => sources.render(d),
    };
    (result, rendered)
}

/// A serial game, complete but for what its feedback says `on event`.
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
    on unknown -> "ER"
    on denied -> "IL"
    on device moves -> "MM {{cell}}"
    on {event} -> "You win"
    show board = text {{ a "A", b "B", empty ".", legal "*" }}
  }}
}}
"#
    )
}

/// Found 2026-11-22 after 1.25 million executions (the fuzzer had turned Connect Four's
/// `on win host` into `on  winhost`). The grammar read `winhost` as `win host` (its words
/// needed no space between them, and could have a comment), but the parser named the event by
/// its text, so lowering met a name it did not know: `unreachable!` in dsl/src/lower_serial.rs.
/// Now the words must stand apart, and `winhost` is a syntax error; words apart, with a space
/// or a comment between them, are the event.
#[test]
fn serial_event_words_run_together_or_split_by_a_comment() {
    for run_together in ["winhost", "toolate"] {
        let (result, out) = check_and_render(&serial_game_on(run_together));
        let errors = result.expect_err(run_together);
        assert_eq!(errors.len(), 1, "{out}");
        assert_eq!(errors[0].code, "E0001", "{out}");
        // At the event, line 17 column 8: `    on winhost`.
        assert!(out.contains("fuzz.game:17:8"), "{out}");
        assert!(
            out.contains(&format!("expected an event such as `your turn` or `device moves`, found `{run_together}`"))
        );
    }
    for (apart, event) in [("your // a comment\n turn", SessionEvent::YourTurn), ("win host", SessionEvent::WinHost)] {
        let text = serial_game_on(apart);
        let (result, out) = check_and_render(&text);
        assert!(result.is_ok_and(|warnings| warnings.is_empty()), "{apart:?}: {out}");
        let mut sources = Sources::new();
        let id = sources.add("fuzz.game", text);
        let game = gamec_dsl::load_game(&sources, id).unwrap();
        let says = &game.interface.serial.unwrap().says;
        assert!(says.iter().any(|s| s.event == event), "{apart:?} is {event:?}");
    }
}

/// Found 2026-11-26 by the `test` and `firmware` targets within 6,000 executions: a fixed
/// number of shared pieces on heaps (`pieces dollar x 5` with `board heaps 3`) was refused
/// (E0006), and lowering then clamped the count to the cells of the layout, none for heaps:
/// `clamp(1, 0)` panicked.
#[test]
fn shared_pieces_counted_out_on_heaps_are_refused_without_a_panic() {
    let (result, out) = check_and_render(
        "game nim {
  players human, device
  first human
  pieces dollar x 5
  board heaps 3
}
",
    );
    let errors = result.expect_err("shared pieces on heaps");
    assert!(errors.iter().any(|d| d.code == "E0006"), "{out}");
    assert!(out.contains("fuzz.game:4:"), "{out}");
}

/// Found by the `analyze` target (2026-11-27, at 9fe6a18, after 2.2 million executions): a
/// cell whose row is past the grid by billions overflowed the index's multiplication before
/// the row was found out of range.
#[test]
fn a_cell_far_past_the_grid_is_refused_at_its_column() {
    let (result, out) = check_and_render(
        "game g {
  players a, b
  first a
  board grid 8 x 8
  pieces p per player
  setup fixed { a at A4294967295 }
  action put = place p on empty
  end { full -> draw }
}
",
    );
    let errors = result.expect_err("a cell off the grid");
    assert!(errors.iter().any(|d| d.code == "E0005"), "{out}");
    assert!(out.contains("fuzz.game:6:22"), "{out}");
}

/// Found by the `firmware` target, which renders a large game's crate after `check`'s steps
/// less the rule lints: Binario whose ending no filling can meet (three reds a row, four a
/// column, and runs bounded from below, which prune little). Rendering its EEPROM image searched each tableau for a solution with no budget, for
/// tens of seconds each in the fuzzing build; now within `check`'s budget, an unsolvable
/// tableau left erased.
#[test]
fn an_eeprom_image_of_tableaux_without_a_solution_is_left_erased() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("games/binario.game")).unwrap();
    let text = text.replacen("count(red in each row) == 4", "count(red in each row) == 3", 1).replacen(
        "run(any in each row) <= 2 and run(any in each column) <= 2",
        "run(any in each row) <= 3 and run(any in each column) >= 2",
        1,
    );
    let mut sources = Sources::new();
    let id = sources.add("fuzz.game", text);
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    assert!(gamec::check(&sources, &[id]).is_err(), "check refuses tableaux without a solution");
    let image = gamec::bind::cursor::eeprom_image(&game);
    assert!(image.iter().all(|&b| b == 0xFF), "{image:?}");
}

/// The `analyze` fuzz target's slowest input (10 s in a debug build): a game of one player on a
/// line, dealt 2,002 starts at random, each searched for a winning line from scratch. The
/// positions seen to lose are now remembered across the starts (0.2 s); each start's answer
/// must be the one a search of that start alone gives.
#[test]
fn the_starts_of_a_one_player_game_share_what_their_searches_learn() {
    use gamec::engine::one_player::{winning_line, winning_lines};
    // Five in a row can be made from every start; six (the fuzzer's input) from none.
    for (run, wins) in [(5, true), (6, false)] {
        let game = format!(
            "game lone {{
  players human
  board line 14 numbered from right
  pieces dollar x 5
  setup random {{ require leftmost(dollar) >= 11 }}
  action step = slide dollar toward right by 1.. over empty
  end {{
    line of {run} -> mover wins
    full -> draw
  }}
}}"
        );
        let mut sources = Sources::new();
        let id = sources.add("lone.game", game);
        let def = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
        let engine = gamec::engine::Engine::new(&def);
        let starts = gamec::analyze::starts(&engine, &def);
        assert!(starts.len() > 500, "{} starts", starts.len());
        let shared = winning_lines(&engine, &starts, 1_000_000);
        assert!(shared.iter().all(|l| matches!(l, Ok(Some(_))) == wins), "line of {run}: every start won is {wins}");
        for (i, s) in starts.iter().enumerate().step_by(37) {
            let alone = winning_line(&engine, s, 1_000_000);
            assert_eq!(alone.as_ref().map(Option::is_some), shared[i].as_ref().map(Option::is_some), "start {i}");
            if let Ok(Some(line)) = &shared[i] {
                let end = line.iter().fold(s.clone(), |p, &m| engine.play(&p, m));
                assert_eq!(engine.outcome(&end), Some(gamec::engine::Outcome::Win(0)), "start {i}: the line wins");
            }
        }
    }
}

/// Found 2026-11-27 by the `check` target within 45,000 executions of a clean clone's CI run:
/// after a syntax error the parser sets the statement aside to look for more, and blanked it a
/// space a character; a character of two bytes or more then moved every later position, and
/// the next error's span split a character. Now a space a byte: positions stay put.
#[test]
fn a_statement_set_aside_keeps_later_positions_where_they_were() {
    let game = "game g {\n  frist é ü ☃\n  peices x\n}\n";
    let (result, out) = check_and_render(game);
    let errors = result.expect_err("two syntax errors");
    assert_eq!(errors.len(), 2, "{out}");
    for d in &errors {
        for l in &d.labels {
            assert!(game.get(l.span.start..l.span.end).is_some(), "{:?} in {out}", l.span);
        }
    }
    assert!(out.contains("fuzz.game:3:3") && out.contains("did you mean `pieces`?"), "{out}");
}

//! Malformed game and board files: each gets a diagnostic with file:line:col, a caret, a code
//! and a hint (snapshots), and no input makes the front end panic.

use gamec_dsl::{load, Sources};

fn diagnose(name: &str, text: &str) -> String {
    let mut sources = Sources::new();
    let id = sources.add(name, text);
    match load(&sources, id) {
        Ok(_) => panic!("{name} should not load"),
        Err(d) => {
            let out = sources.render(&d);
            assert!(out.contains(&format!("{name}:")), "a location: {out}");
            assert!(out.contains("help:"), "a hint: {out}");
            out
        }
    }
}

const GOOD_GAME: &str = include_str!("../../games/silver_dollar.game");
const GOOD_BOARD: &str = include_str!("../../boards/silver_dollar_attiny84.board");

fn game_with(from: &str, to: &str) -> String {
    assert!(GOOD_GAME.contains(from), "fixture: {from}");
    GOOD_GAME.replacen(from, to, 1)
}

fn board_with(from: &str, to: &str) -> String {
    assert!(GOOD_BOARD.contains(from), "fixture: {from}");
    GOOD_BOARD.replacen(from, to, 1)
}

#[test]
fn malformed_game_files() {
    let cases = [
        ("missing_brace", game_with("  tune beep { A4/150 }", "  tune beep { A4/150 ")),
        ("misspelt_keyword", game_with("  pieces dollar x 5", "  peices dollar x 5")),
        ("bad_note", game_with("tune beep { A4/150 }", "tune beep { H4/150 }")),
        ("note_without_duration", game_with("tune beep { A4/150 }", "tune beep { A4 }")),
        ("garbage_at_the_end", format!("{GOOD_GAME}\n}}")),
        ("duplicate_statement", game_with("  first human", "  first human\n  first device")),
        ("missing_players", game_with("  players human, device\n", "")),
        ("missing_board", game_with("  board line 12 numbered from right\n", "")),
        ("missing_action", game_with("  action step = slide dollar toward right by 1.. over empty\n", "")),
        ("unknown_player", game_with("  first human", "  first alice")),
        ("unknown_piece", game_with("slide dollar toward", "slide coin toward")),
        ("unknown_tune", game_with("on denied -> tune beep", "on denied -> tune bleep")),
        ("unknown_action", game_with("extend step(dollar[i])", "extend hop(dollar[i])")),
        ("unknown_wake_control", game_with("wake go", "wake stop")),
        ("zero_step_slide", game_with("by 1.. over", "by 0.. over")),
        ("line_too_long", game_with("board line 12", "board line 65")),
        ("per_piece_control_without_index", game_with("move[i] -> extend", "move -> extend")),
        ("three_players", game_with("players human, device", "players human, device, cat")),
        ("slide_on_a_grid", game_with("board line 12 numbered from right", "board grid 4 x 4")),
    ];
    for (name, text) in cases {
        insta::assert_snapshot!(name, diagnose("bad.game", &text));
    }
}

#[test]
fn malformed_board_files() {
    let cases = [
        ("pin_without_bit", board_with("button go = PA6 pullup", "button go = PX pullup")),
        ("pin_bit_out_of_range", board_with("button go = PA6 pullup", "button go = PA9 pullup")),
        ("led_pin_outside_display", board_with("12 = PA3 > PA0", "12 = PA3 > PA5")),
        ("leds_with_a_gap", board_with("    6 = PA1 > PA2\n", "")),
        ("duplicate_button", board_with("button go = PA6 pullup", "button go = PA6 pullup\n  button go = PA7 pullup")),
        ("missing_chip", board_with("  chip attiny84a\n", "")),
        ("led_anode_is_cathode", board_with("12 = PA3 > PA0", "12 = PA3 > PA3")),
        ("duplicate_stack_budget", board_with("stack 56", "stack 56, stack 80")),
        ("unknown_budget_kind", board_with("ram 128", "eeprom 128")),
    ];
    for (name, text) in cases {
        insta::assert_snapshot!(name, diagnose("bad.board", &text));
    }
}

#[test]
fn no_prefix_of_a_valid_file_panics() {
    for text in [GOOD_GAME, GOOD_BOARD] {
        for end in (0..text.len()).step_by(3).filter(|&i| text.is_char_boundary(i)) {
            let mut sources = Sources::new();
            let id = sources.add("prefix", &text[..end]);
            let result = load(&sources, id);
            if let Err(d) = result {
                // Rendering must not panic either, whatever the span.
                let _ = sources.render(&d);
            }
        }
    }
}

#[test]
fn malformed_evaluations() {
    let grid = |strategy_and_eval: &str| {
        format!(
            "game g {{\n  players black, white\n  first black\n  board grid 8 x 8\n  pieces disc per player\n  setup fixed {{ black at D5, E4\n white at D4, E5 }}\n  action place = place disc on empty capturing flanked lines in 8 directions\n  pass when no moves\n  end {{ neither can move -> most pieces wins }}\n{strategy_and_eval}\n}}\n"
        )
    };
    // A search without an eval block scores positions by the default evaluation.
    let mut sources = Sources::new();
    let id = sources.add("good.game", grid("  strategy white = search, deepening"));
    assert!(gamec_dsl::load_game(&sources, id).is_ok(), "a search needs no eval block");
    let cases = [
        ("eval_without_else", grid("  strategy white = search\n  eval { when empty > 10: 1 * pieces }")),
        ("eval_weight_too_big", grid("  strategy white = search\n  eval { else: 1000 * corners }")),
        ("eval_unknown_feature", grid("  strategy white = search\n  eval { else: 3 * stability }")),
        ("cell_off_the_grid", grid("").replace("black at D5, E4", "black at D5, J4")),
    ];
    for (name, text) in cases {
        insta::assert_snapshot!(name, diagnose("bad.game", &text));
    }
}

const KALAH: &str = include_str!("../../games/kalah.game");

#[test]
fn malformed_sowing() {
    let kalah = |from: &str, to: &str| {
        assert!(KALAH.contains(from), "fixture: {from}");
        KALAH.replacen(from, to, 1)
    };
    let cases = [
        ("sowing_off_pits", kalah("board pits 6 per side with stores", "board heaps 6")),
        ("sowing_into_a_store_without_stores", kalah("board pits 6 per side with stores", "board pits 6 per side")),
        ("again_without_sowing_into_the_store", kalah("sow from own pit, into own store,", "sow from own pit,")),
        ("capture_range_of_zero", kalah("capturing opposite", "capturing 0..3")),
        ("too_many_pits", kalah("pits 6 per side", "pits 13 per side")),
        ("too_many_seeds", kalah("setup fixed { pits 4 }", "setup fixed { pits 40 }")),
        ("misspelt_sowing_option", kalah("capturing opposite", "capturing oposite")),
    ];
    for (name, text) in cases {
        insta::assert_snapshot!(name, diagnose("bad.game", &text));
    }
}

const OTHELLO: &str = include_str!("../../games/othello.game");
const OTHELLO_BOARD: &str = include_str!("../../boards/othello_stk500_atmega16.board");

#[test]
fn malformed_serial_protocols() {
    let with = |from: &str, to: &str| {
        assert!(OTHELLO.contains(from), "fixture: {from}");
        OTHELLO.replacen(from, to, 1)
    };
    let cases = [
        ("serial_unknown_action", with("\"MV\" cell -> play place", "\"MV\" cell -> play drop")),
        ("serial_wrong_argument", with("\"PS\" -> pass", "\"PS\" cell -> pass")),
        ("serial_no_move_command", with("\"MV\" cell -> play place", "")),
        ("serial_unknown_placeholder", with("\"MM {cell}\"", "\"MM {square}\"")),
        ("serial_cell_outside_device_moves", with("\"MP\"", "\"MP {cell}\"")),
        ("serial_duplicate_command", with("\"NG\" -> new game", "\"AT\" -> new game")),
        ("serial_missing_unknown", with("on unknown -> \"ER\"", "")),
        ("serial_glyph_missing", with("legal \"V\"", "legal \"VV\"")),
        ("serial_move_for_a_named_action", with("\"MV\" cell -> play place", "\"MV\" move -> play place")),
        ("serial_cell_for_any_move", with("\"MV\" cell -> play place", "\"MV\" cell -> play")),
        ("serial_glyph_of_no_kind", with("black \"B\",", "black king \"B\",")),
        ("serial_unclosed_string", with("\"Type your move\"", "\"Type your move")),
        ("serial_control_character", with("\"Type your move\"", "\"Type\tyour move\"")),
    ];
    for (name, text) in cases {
        insta::assert_snapshot!(name, diagnose("bad.game", &text));
    }
}

#[test]
fn no_prefix_of_the_serial_files_panics() {
    for text in [OTHELLO, OTHELLO_BOARD] {
        for end in (0..text.len()).step_by(5).filter(|&i| text.is_char_boundary(i)) {
            let mut sources = Sources::new();
            let id = sources.add("prefix", &text[..end]);
            if let Err(d) = load(&sources, id) {
                let _ = sources.render(&d);
            }
        }
    }
}

/// A missing statement's example fits the file: a grid game is shown a placement of its own
/// piece (not a slide of another game's), and a heap game is shown a removal.
#[test]
fn missing_statements_are_shown_examples_that_fit_the_game() {
    let grid = "game g {\n  players a, b\n  first a\n  board grid 3 x 3\n  pieces mark per player\n  end { no moves -> draw }\n}\n";
    let out = diagnose("grid.game", grid);
    assert!(out.contains("`action put = place mark on empty`"), "{out}");
    let heaps = "game h {\n  players a, b\n  first a\n  board heaps 2\n  setup fixed { heaps 1, 2 }\n  action take = remove 1.. from heap\n  end { no moves -> mover loses }\n}\n";
    let out = diagnose("heaps.game", heaps);
    assert!(out.contains("`pieces counter`"), "{out}");
}

/// E0003 in a grid game: the missing action's example places the file's own piece (not a
/// slide, nor a piece of another game), and without a `pieces` statement a neutral one.
#[test]
fn a_missing_action_in_a_grid_game_is_shown_the_files_own_piece() {
    let grid = "game g {\n  players red, blue\n  first red\n  board grid 4 x 4\n  pieces disc per player\n  end { no moves -> mover loses }\n}\n";
    let out = diagnose("grid.game", grid);
    assert!(out.contains("error[E0003]: game `g` has no `action` statement"), "{out}");
    assert!(out.contains("`action put = place disc on empty`"), "{out}");
    assert!(!out.contains("slide") && !out.contains("dollar"), "{out}");
    let bare = grid.replace("  pieces disc per player\n", "");
    let out = diagnose("bare.game", &bare);
    assert!(out.contains("`pieces token per player`") && out.contains("`action put = place token on empty`"), "{out}");
    // No shipped game's pieces in either.
    for shipped in ["dollar", "stone", "mark", "pawn", "peg", "seed"] {
        assert!(!out.contains(&format!(" {shipped} ")), "{shipped}: {out}");
    }
}

/// Every hint that gives an example writes it with the file's names (its players, controls
/// and board), never with a shipped game's.
#[test]
fn hints_give_examples_in_the_files_own_names() {
    // `first`: one of the file's players.
    let no_first = "game g {\n  players red, blue\n  board grid 3 x 3\n  pieces disc per player\n  action put = place disc on empty\n  end { full -> draw }\n}\n";
    let out = diagnose("first.game", no_first);
    assert!(out.contains("add, for example: `first red`"), "{out}");

    // A search on a line: the strategy's own player.
    let line = game_with("strategy device = perfect, ties random", "strategy human = search");
    let out = diagnose("line.game", &line);
    assert!(out.contains("`strategy human = perfect, ties random`"), "{out}");

    // A per-piece control cannot wake the device: the file's single controls.
    let out = diagnose("wake.game", &game_with("wake go", "wake move"));
    assert!(out.contains("name a single control: go"), "{out}");

    // An idle time out of range: the file's own wake control.
    let out = diagnose("idle.game", &game_with("idle 30 s -> sleep, wake go", "idle 0 ms -> sleep, wake go"));
    assert!(out.contains("`idle 30 s -> sleep, wake go`"), "{out}");

    // An unknown feature: a region of the board's own cells (its corners cut away).
    let othello = include_str!("../../games/othello.game");
    let cut = othello
        .replacen("board grid 8 x 8", "board grid 8 x 8 without A1, H8", 1)
        .replacen("region corners = A1, H1, A8, H8", "region corners = H1, A8", 1)
        .replacen("6 * mobility +", "6 * stability + 1 * mobility +", 1);
    assert_ne!(cut, othello, "fixture");
    let out = diagnose("cut.game", &cut);
    assert!(out.contains("`region stability = B1, G8`"), "{out}");

    // A serial board without `show board`: every glyph the file's game needs, by its names.
    let tictactoe = include_str!("../../games/tictactoe.game");
    let renamed = tictactoe.replace("cross", "sun").replace("nought", "moon");
    let shown = "    show board = text { sun \"X\", moon \"O\", empty \"-\", legal \".\" }\n";
    assert!(renamed.contains(shown), "fixture");
    let out = diagnose("serial.game", &renamed.replacen(shown, "", 1));
    assert!(out.contains("`show board = text { sun \"S\", moon \"M\", empty \".\", legal \"*\" }`"), "{out}");
    assert!(!out.contains("black"), "{out}");
}

/// Three mistakes on three lines: three diagnostics in one run, each at its line, the
/// misspelt keywords answered with the word meant, and nothing after them made up.
#[test]
fn every_syntax_error_of_a_file_is_reported_with_suggestions() {
    let text = game_with("  first human", "  frist human")
        .replacen("  pieces dollar x 5", "  peices dollar x 5", 1)
        .replacen("  board line 12", "  board lin 12", 1);
    let mut sources = Sources::new();
    let id = sources.add("three.game", text.clone());
    let d = load(&sources, id).expect_err("three mistakes");
    assert_eq!(d.len(), 3, "{}", sources.render(&d));
    let out = sources.render(&d);
    for (word, meant) in [("frist", "first"), ("peices", "pieces"), ("lin", "line")] {
        let line = text.lines().position(|l| l.split_whitespace().any(|w| w == word)).unwrap() + 1;
        assert!(out.contains(&format!("three.game:{line}:")), "{word} at line {line}: {out}");
        assert!(
            out.contains(&format!("did you mean `{meant}`?")) || out.contains(&format!("`{meant}")),
            "{word}: {out}"
        );
    }
    // A block left open: one error, not one for every statement after it.
    let open = game_with("  tune beep { A4/150 }", "  tune beep { A4/150 ");
    let id = sources.add("open.game", open);
    assert_eq!(load(&sources, id).expect_err("an open block").len(), 1);
    // A misspelt keyword of a board file gets the board's word.
    let board = board_with("  clock", "  clok");
    let id = sources.add("b.board", board);
    let out = sources.render(&load(&sources, id).expect_err("a misspelt clock"));
    assert!(out.contains("did you mean `clock`?"), "{out}");
}

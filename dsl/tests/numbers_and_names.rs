//! Small edits of shipped games that once loaded as something else than they say, or panicked
//! in a build with overflow checks: numbers whose products or comparisons wrapped, scores past a
//! finished game's, and names given twice. Each must be one diagnostic with its code at the
//! offending token (file, line, column), a note where it helps and a hint.

use gamec_dsl::{load, Diagnostic, Sources};

const SET: &str = include_str!("../../games/set.game");
const OTHELLO: &str = include_str!("../../games/othello.game");
const NIM: &str = include_str!("../../games/nim.game");

/// `text` with the first `from` replaced by `to`.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "fixture: {from}");
    text.replacen(from, to, 1)
}

/// The 1-based line and column of `token` inside the first `context` of `text` (the context
/// makes the token unique), as diagnostics print them, and its byte offset.
fn position(text: &str, context: &str, token: &str) -> (usize, usize, usize) {
    let at = text.find(context).unwrap_or_else(|| panic!("no {context}"))
        + context.find(token).unwrap_or_else(|| panic!("no {token} in {context}"));
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, col, at)
}

/// The diagnostics of a file that must not load, and their rendering.
fn refused(text: &str) -> (Vec<Diagnostic>, String) {
    let mut sources = Sources::new();
    let id = sources.add("bad.game", text.to_string());
    match load(&sources, id) {
        Ok(_) => panic!("should not load:\n{text}"),
        Err(d) => {
            let out = sources.render(&d);
            (d, out)
        }
    }
}

/// Asserts one error of `code`, whose first label is at `token` in `context`, and returns the
/// rendering.
fn one_error_at(text: &str, code: &str, context: &str, token: &str) -> String {
    let (d, out) = refused(text);
    assert_eq!(d.len(), 1, "one diagnostic:\n{out}");
    assert_eq!(d[0].code, code, "{out}");
    let (line, col, _) = position(text, context, token);
    assert!(out.contains(&format!("bad.game:{line}:{col}")), "at {line}:{col}:\n{out}");
    assert!(out.contains("help:"), "a hint:\n{out}");
    out
}

fn loads(text: &str) {
    let mut sources = Sources::new();
    let id = sources.add("good.game", text.to_string());
    if let Err(d) = load(&sources, id) {
        panic!("should load:\n{}", sources.render(&d));
    }
}

#[test]
fn a_table_whose_rows_times_columns_wrap_is_refused_at_the_number() {
    // 4 x 1073741827 is 12 in 32 bits: the release build accepted it with 1073741827 columns,
    // a debug build panicked.
    let text = edit(SET, "table 21 as 3 x 7", "table 12 as 4 x 1073741827");
    let out = one_error_at(&text, "E0005", "4 x 1073741827", "1073741827");
    assert!(out.contains("4 x 1073741827 is 4,294,967,308"), "{out}");
    assert!(out.contains("lay 12 cards out as 1 x 12, 2 x 6, 3 x 4"), "{out}");
    // And a plain mismatch, at its larger factor.
    let text = edit(SET, "table 21 as 3 x 7", "table 21 as 3 x 8");
    one_error_at(&text, "E0005", "3 x 8", "8");
    let text = edit(SET, "table 21 as 3 x 7", "table 82 as 2 x 41");
    one_error_at(&text, "E0005", "table 82", "82");
}

#[test]
fn bits_past_any_code_are_refused_at_the_number() {
    // The number saturates when read; the field's width was worked out from it first.
    let text = edit(SET, "at bits 1..0", "at bits 99999999999..0");
    one_error_at(&text, "E0005", "bits 99999999999", "99999999999");
    let text = edit(SET, "at bits 1..0", "at bits 0..4294967295");
    one_error_at(&text, "E0005", "0..4294967295", "4294967295");
}

/// Asserts that the second label of the one diagnostic of `text`, the note, is at `token` in
/// `context`.
fn note_at(text: &str, context: &str, token: &str) {
    let (d, out) = refused(text);
    let (_, _, at) = position(text, context, token);
    let note = d[0].labels.get(1).unwrap_or_else(|| panic!("a note:\n{out}"));
    assert!(!note.primary && note.span.start == at, "the note at the first:\n{out}");
    assert!(out.contains("first given here"), "{out}");
}

#[test]
fn a_value_given_twice_in_an_attribute_is_refused_at_the_second() {
    let text = edit(SET, "quantity = one, two, three", "quantity = one, two, one");
    one_error_at(&text, "E0002", "one at bits", "one");
    note_at(&text, "= one", "one");
    // Two attributes may share value names.
    loads(&edit(SET, "filling = empty, solid, striped", "filling = one, solid, striped"));
}

#[test]
fn a_side_choice_given_twice_is_refused_at_the_second() {
    let text = edit(OTHELLO, r#"side { "B" = black, "W" = white }"#, r#"side { "B" = black, "B" = white }"#);
    let out = one_error_at(&text, "E0002", r#""B" = white"#, r#""B""#);
    note_at(&text, r#""B" = black"#, r#""B""#);
    // The hint names the game's own players.
    assert!(out.contains(r#"help: give each side its own text: `side { "B" = black, "W" = white }`"#), "{out}");
    // Two texts for one side are fine: the host may type either.
    loads(&edit(OTHELLO, r#"side { "B" = black, "W" = white }"#, r#"side { "B" = black, "X" = black, "W" = white }"#));
}

#[test]
fn an_eval_comparison_with_a_number_its_feature_never_reaches_is_refused_at_the_number() {
    // Each wrapped in the 16-bit comparison the firmware makes: to > -32768, > -1, < -25536.
    for (from, to, number) in [
        ("when empty > 40", "when empty > 32768", "32768"),
        ("when empty > 40", "when empty > 4294967295", "4294967295"),
        ("when empty > 12", "when mobility < 40000", "40000"),
        ("when empty > 40", "when empty > 65", "65"),
        ("when empty > 40", "when corners >= 5", "5"),
    ] {
        let out = one_error_at(&edit(OTHELLO, from, to), "E0005", to, number);
        assert!(out.contains("never more than"), "{out}");
    }
    // The most a feature reaches is a fair comparison.
    loads(&edit(OTHELLO, "when empty > 40", "when empty >= 64"));
    loads(&edit(OTHELLO, "when empty > 40", "when corners < 4"));
}

#[test]
fn an_eval_that_can_reach_a_finished_games_score_is_refused() {
    // Each weight is within 100, but three of pieces reach 19,200 on 64 cells.
    let text = edit(OTHELLO, "else: 2 * pieces + 40 * corners", "else: 100 * pieces + 100 * pieces + 100 * pieces");
    let out = one_error_at(&text, "E0023", "else: 100 * pieces + 100", "else");
    assert!(out.contains("up to 19,200 either way, past the 15,999"), "{out}");
    assert!(out.contains("`100 * pieces`, reaches 6,400 (the board has 64 cells)"), "{out}");

    // 5,000 bare terms of mobility: 320,000, far past 16 bits.
    let many = vec!["mobility"; 5000].join(" + ");
    let text = edit(OTHELLO, "else: 2 * pieces + 40 * corners", &format!("else: {many}"));
    let out = one_error_at(&text, "E0023", "else: mobility", "else");
    assert!(out.contains("up to 320,000"), "{out}");

    // The limit itself: 16,000 is a finished game's score, 15,996 is not.
    let at = |x: u32| format!("else: 100 * pieces + 100 * mobility + 100 * edges + 100 * corners + {x} * x_squares");
    let text = edit(OTHELLO, "else: 2 * pieces + 40 * corners", &at(100));
    let out = one_error_at(&text, "E0023", "else: 100 * pieces + 100 * mobility", "else");
    assert!(out.contains("up to 16,000"), "{out}");
    loads(&edit(OTHELLO, "else: 2 * pieces + 40 * corners", &at(99)));

    // Connect Four's lines: 69 fours on 7 x 6; 100 of each side's threes reach 6,900.
    let c4 = include_str!("../../games/connect_four.game");
    loads(c4);
    let text = edit(
        c4,
        "else: 8 * lines(3 of 4) + 2 * lines(2 of 4) + 3 * centre",
        "else: 100 * lines(3 of 4) + 100 * lines(2 of 4) + 100 * lines(1 of 4)",
    );
    let out = one_error_at(&text, "E0023", "else: 100 * lines", "else");
    assert!(out.contains("up to 20,700"), "{out}");
    assert!(out.contains("the board has 69 lines of 4 cells"), "{out}");
}

#[test]
fn a_removal_of_more_than_a_heap_holds_is_refused_at_the_number() {
    // The heaps firmware keeps a removal's bounds in bytes: 257 became 1, a legal move the
    // rules never allow.
    let text = edit(NIM, "remove 1.. from heap", "remove 257.. from heap");
    let out = one_error_at(&text, "E0005", "remove 257", "257");
    assert!(out.contains("a heap holds at most 31 counters, so no removal takes 257"), "{out}");
    loads(&edit(NIM, "remove 1.. from heap", "remove 31.. from heap"));
    loads(&edit(NIM, "remove 1.. from heap", "remove 1..1000 from heap"));
}

#[test]
fn a_side_command_stays_within_the_byte_its_table_counts_it_in() {
    // The command table writes a side word's length, and all the choices' bytes, in a byte
    // each: a 300-character word, or 26 choices of 8, wrapped and the table was walked wrong.
    let long = "B".repeat(300);
    let text = edit(OTHELLO, r#"side { "B" = black"#, &format!(r#"side {{ "{long}" = black"#));
    let out = one_error_at(&text, "E0012", &format!(r#""{long}""#), "\"");
    assert!(out.contains("a side's word is 1 to 8 printable characters"), "{out}");
    let text = edit(OTHELLO, r#"side { "B" = black"#, r#"side { "B B" = black"#);
    one_error_at(&text, "E0012", r#""B B""#, "\"");

    let many: Vec<String> = (0..26).map(|i| format!("\"{}{}\" = black", (b'A' + i) as char, "BLACKXX")).collect();
    let text = edit(OTHELLO, r#"side { "B" = black"#, &format!("side {{ {}", many.join(", ")));
    let out = one_error_at(&text, "E0005", &many[16], "\"");
    assert!(out.contains("a side command offers at most 16 choices, not 27"), "{out}");
    // Sixteen words of eight are fine.
    let sixteen: Vec<String> = many[..15].to_vec();
    loads(&edit(OTHELLO, r#"side { "B" = black"#, &format!("side {{ {}", sixteen.join(", "))));
}

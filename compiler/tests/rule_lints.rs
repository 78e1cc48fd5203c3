//! Lints that play the rules: each unusual but loadable game gets its diagnostic at the
//! statement to change (snapshots), and `check` refuses the errors.

#[path = "support/checking.rs"]
mod checking;

use checking::check;

fn shipped(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../games/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn altered(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "fixture: {from}");
    text.replacen(from, to, 1)
}

#[test]
fn errors_are_refused_at_their_line() {
    let ttt = shipped("tictactoe.game");
    let cases = [
        (
            "capture_game_without_a_legal_move",
            altered(&ttt, "place mark on empty", "place mark on empty capturing flanked lines in 8 directions"),
        ),
        (
            "perfect_on_a_game_too_big",
            altered(&shipped("connect_four.game"), "strategy device = search, deepening, order by eval", "strategy device = perfect"),
        ),
        (
            "cycling_slides_with_a_solved_table",
            altered(
                &shipped("silver_dollar.game"),
                "  action step = slide dollar toward right by 1.. over empty\n",
                "  action step = slide dollar toward right by 1.. over empty\n  action back = slide dollar toward left by 1 over empty\n",
            ),
        ),
        ("no_setup_exists", altered(&shipped("silver_dollar.game"), "leftmost(dollar) >= 11", "leftmost(dollar) >= 13")),
        ("line_longer_than_the_grid", altered(&ttt, "line of 3", "line of 4")),
        ("no_moves_with_passing", altered(&ttt, "  end {", "  pass when no moves\n  end {\n    no moves -> mover loses")),
    ];
    for (name, text) in cases {
        let (ok, out) = check(&text);
        assert!(!ok, "{name} should be refused:\n{out}");
        assert!(out.contains("game.game:") && out.contains("help:"), "{out}");
        insta::assert_snapshot!(name, out);
    }
}

#[test]
fn warnings_pass_with_their_diagnostic() {
    let ttt = shipped("tictactoe.game");
    let (ok, out) = check(&altered(&ttt, "    full -> draw\n", ""));
    assert!(ok, "{out}");
    insta::assert_snapshot!("positions_no_ending_covers", out);
    let (ok, out) =
        check(&altered(&ttt, "    full -> draw\n", "    full -> draw\n    count(mover) >= 6 -> next wins\n"));
    assert!(ok, "{out}");
    insta::assert_snapshot!("an_ending_that_never_decides", out);
    let sd = shipped("silver_dollar.game");
    let (ok, out) = check(&altered(&sd, "by 1.. over empty", "by 2.. over empty"));
    assert!(ok, "{out}");
    insta::assert_snapshot!("a_move_buttons_cannot_enter", out);
}

#[test]
fn the_shipped_games_check_clean() {
    for name in ["silver_dollar.game", "othello.game", "tictactoe.game", "connect_four.game", "nim.game"] {
        let (ok, out) = check(&shipped(name));
        assert!(ok && out.is_empty(), "{name}: {out}");
    }
}

//! Puzzles written as constraints: the solver's counts against a plain Binario solver written
//! here, tableaux that `check` refuses at their line, and `gamec generate`'s starts proved.

#[path = "support/checking.rs"]
mod checking;

use checking::check;
use gamec::engine::puzzle::Puzzle;
use gamec::engine::{Engine, State, STRIDE};
use gamec_dsl::{content, GameDef, Sources};

fn test_game(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/games/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn load(text: &str) -> GameDef {
    let mut sources = Sources::new();
    let id = sources.add("game.game", text.to_string());
    gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
}

/// The oracle: Binario on an n x n grid by plain backtracking, cell by cell, with the rules
/// written out (half red in every line, no three alike, no two lines alike). `givens` maps a
/// cell (row, column) to red (true) or green. Counts solutions, stopping at `limit`.
fn oracle_count(n: usize, givens: &[((usize, usize), bool)], limit: usize) -> usize {
    fn ok_line(line: &[Option<bool>], n: usize) -> bool {
        let reds = line.iter().filter(|c| **c == Some(true)).count();
        let greens = line.iter().filter(|c| **c == Some(false)).count();
        let three = line.windows(3).any(|w| w[0].is_some() && w[0] == w[1] && w[1] == w[2]);
        reds <= n / 2 && greens <= n / 2 && !three
    }
    fn distinct(lines: &[Vec<Option<bool>>]) -> bool {
        let full: Vec<&Vec<Option<bool>>> = lines.iter().filter(|l| l.iter().all(Option::is_some)).collect();
        full.iter().enumerate().all(|(i, a)| full[..i].iter().all(|b| a != b))
    }
    fn go(g: &mut Vec<Vec<Option<bool>>>, n: usize, i: usize, limit: usize, found: &mut usize) {
        if *found >= limit {
            return;
        }
        if i == n * n {
            *found += 1;
            return;
        }
        let (r, c) = (i / n, i % n);
        let choices: Vec<bool> = match g[r][c] {
            Some(v) => vec![v],
            None => vec![true, false],
        };
        let given = g[r][c].is_some();
        for v in choices {
            g[r][c] = Some(v);
            let row = g[r].clone();
            let col: Vec<Option<bool>> = (0..n).map(|k| g[k][c]).collect();
            let cols: Vec<Vec<Option<bool>>> = (0..n).map(|cc| (0..n).map(|k| g[k][cc]).collect()).collect();
            if ok_line(&row, n) && ok_line(&col, n) && distinct(g) && distinct(&cols) {
                go(g, n, i + 1, limit, found);
            }
            if !given {
                g[r][c] = None;
            }
        }
    }
    let mut g = vec![vec![None; n]; n];
    for &((r, c), red) in givens {
        g[r][c] = Some(red);
    }
    let mut found = 0;
    go(&mut g, n, 0, limit, &mut found);
    found
}

/// A start's givens as the oracle reads them.
fn givens(s: &State) -> Vec<((usize, usize), bool)> {
    let (red, green) = (content::state(0), content::state(1));
    (0..s.cells.len())
        .filter(|&i| s.cells[i] == red || s.cells[i] == green)
        .map(|i| ((i / STRIDE, i % STRIDE), s.cells[i] == red))
        .collect()
}

fn starts(game: &GameDef, engine: &Engine) -> Vec<State> {
    game.rules.setup.fixed().iter().map(|s| engine.start_of(game, s)).collect()
}

#[test]
fn the_solver_counts_as_the_oracle_does_on_every_tableau_and_on_tableaux_with_a_given_less() {
    for (file, n) in [("binario6.game", 6), ("binario_rules.game", 8)] {
        let game = load(&test_game(file));
        let engine = Engine::new(&game);
        let puzzle = Puzzle::new(&engine).expect("a puzzle");
        for start in starts(&game, &engine) {
            let g = givens(&start);
            assert_eq!(puzzle.solutions(&start, 2).len(), oracle_count(n, &g, 2), "{file}\n{}", engine.show(&start));
            assert_eq!(puzzle.solutions(&start, 2).len(), 1, "shipped tableaux are unique");
            // Taking a given away can leave one solution or open a second: both readings agree.
            for drop in (0..g.len()).step_by(3) {
                let mut fewer = start.clone();
                let ((r, c), _) = g[drop];
                fewer.cells[r * STRIDE + c] = content::EMPTY;
                fewer.given &= !(1 << (r * STRIDE + c));
                let mut rest = g.clone();
                rest.remove(drop);
                assert_eq!(
                    puzzle.solutions(&fewer, 2).len(),
                    oracle_count(n, &rest, 2),
                    "{file}\n{}",
                    engine.show(&fewer)
                );
            }
        }
    }
}

#[test]
fn a_solution_satisfies_the_rules_and_playing_it_wins() {
    let game = load(&test_game("binario6.game"));
    let engine = Engine::new(&game);
    let puzzle = Puzzle::new(&engine).unwrap();
    for start in starts(&game, &engine) {
        let solution = puzzle.solutions(&start, 1).remove(0);
        assert_eq!(oracle_count(6, &givens(&solution), 2), 1);
        // Entered a press at a time from the start, the solution ends the game, won.
        let mut s = start.clone();
        for m in puzzle.moves_to(&start, &solution) {
            assert!(engine.plies(&s).contains(&m), "{m:?} is legal until the end");
            s = engine.play(&s, m);
        }
        assert_eq!(s.cells, solution.cells);
        assert_eq!(engine.outcome(&s), Some(gamec::engine::Outcome::Win(0)));
        assert!(engine.plies(&s).is_empty(), "a solved puzzle takes no more moves");
    }
}

#[test]
fn check_refuses_a_tableau_with_two_solutions_or_none_at_its_line() {
    let text = test_game("binario6.game");
    // Tableau g2 without its givens at C2 and A3: a second filling appears.
    let two = text.replacen("red at C2, A3, C4, D4, E6, F6", "red at C4, D4, E6, F6", 1);
    assert_ne!(two, text);
    let (ok, out) = check(&two);
    assert!(!ok);
    assert!(out.contains("error[E0021]: setup \"g2\" has more than one solution"), "{out}");
    assert!(out.contains("game.game:18:5"), "points at the tableau: {out}");
    assert!(out.contains("one solution:") && out.contains("another:"), "shows both: {out}");
    // Three reds in a row among the givens of g1: no filling can win.
    let none = text.replacen("red at D1, E3, F3", "red at D1, D3, E3, F3", 1);
    let (ok, out) = check(&none);
    assert!(!ok);
    assert!(out.contains("error[E0020]: setup \"g1\" has no solution"), "{out}");
    assert!(out.contains("game.game:14:5"), "{out}");
}

#[test]
fn several_setups_are_named_and_names_differ() {
    let text = test_game("binario6.game");
    let unnamed = text.replacen("setup fixed \"g2\"", "setup fixed", 1);
    let (ok, out) = check(&unnamed);
    assert!(!ok && out.contains("names each"), "{out}");
    let twice = text.replacen("setup fixed \"g2\"", "setup fixed \"g1\"", 1);
    let (ok, out) = check(&twice);
    assert!(!ok && out.contains("E0002"), "{out}");
}

#[test]
fn generated_starts_are_proved_unique_reproducible_and_of_the_level_asked() {
    let text = test_game("binario6.game");
    let game = load(&text);
    let mut sources = Sources::new();
    let id = sources.add("binario6.game", text.clone());
    let req = |seed, difficulty| gamec::generate::Request { count: 4, seed, difficulty };
    let out = gamec::generate::generate(&game, id, &req(11, None)).unwrap();
    assert_eq!(out, gamec::generate::generate(&game, id, &req(11, None)).unwrap(), "the seed decides");
    assert_ne!(out, gamec::generate::generate(&game, id, &req(12, None)).unwrap());
    // Pasted into the game in place of its own tableaux, they pass `check`.
    let head = &text[..text.find("    setup fixed").unwrap()];
    let blocks: String = out.lines().filter(|l| !l.starts_with("//")).map(|l| format!("    {l}\n")).collect();
    let pasted = format!("{head}{blocks}}}\n");
    let (ok, diags) = check(&pasted);
    assert!(ok, "{diags}\n{pasted}");
    let pasted = load(&pasted);
    let engine = Engine::new(&pasted);
    let puzzle = Puzzle::new(&engine).unwrap();
    for start in starts(&pasted, &engine) {
        assert_eq!(oracle_count(6, &givens(&start), 2), 1);
    }
    let level1 = gamec::generate::generate(&game, id, &req(5, Some(1)));
    if let Ok(level1) = level1 {
        let game1 = load(&format!(
            "{head}{}}}\n",
            level1.lines().filter(|l| !l.starts_with("//")).map(|l| format!("    {l}\n")).collect::<String>()
        ));
        let e1 = Engine::new(&game1);
        let p1 = Puzzle::new(&e1).unwrap();
        assert!(starts(&game1, &e1).iter().all(|s| p1.difficulty(s).level == 1));
    }
    let _ = puzzle;
}

#[test]
fn a_start_one_cell_short_of_its_solution_is_level_one() {
    let game = load(&test_game("binario6.game"));
    let engine = Engine::new(&game);
    let puzzle = Puzzle::new(&engine).unwrap();
    let start = &starts(&game, &engine)[0];
    let solution = puzzle.solutions(start, 1).remove(0);
    let mut nearly = solution.clone();
    nearly.given = !0;
    nearly.cells[0] = content::EMPTY;
    nearly.given &= !1;
    let d = puzzle.difficulty(&nearly);
    assert_eq!((d.open, d.by_singles, d.level), (1, 1, 1));
    assert!(puzzle.difficulty(start).level >= 2, "the shipped g1 needs more than singles");
}

#[test]
fn a_puzzle_without_controls_is_refused_on_a_board_saying_so() {
    let text = test_game("binario_rules.game");
    let board =
        std::fs::read_to_string(format!("{}/../boards/tictactoe_stk500_atmega16.board", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    let mut sources = Sources::new();
    let g = sources.add("binario_rules.game", text);
    let b = sources.add("board.board", board);
    let err = gamec::check(&sources, &[g, b]).unwrap_err();
    let out = sources.render(&err);
    assert!(out.contains("E0119") && out.contains("no controls"), "{out}");
}

#[test]
fn binario_with_a_tableau_altered_to_two_solutions_is_refused_at_its_line() {
    let path = format!("{}/../games/binario.game", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let (ok, _) = check(&text);
    assert!(ok, "the shipped tableaux are each proved unique");
    // Tableau 3's first line of givens, one cell at a time taken away until a second
    // solution opens: check names the tableau at its line and shows both.
    let at = text.find("setup fixed \"3\"").unwrap();
    let line_no = text[..at].matches('\n').count() + 1;
    let givens_start = at + text[at..].find(" at ").unwrap() + 4;
    let givens_end = givens_start + text[givens_start..].find('\n').unwrap();
    let cells: Vec<&str> = text[givens_start..givens_end].split(", ").collect();
    let mut refused = None;
    for drop in 0..cells.len() {
        let kept: Vec<&str> = cells.iter().enumerate().filter(|(i, _)| *i != drop).map(|(_, c)| *c).collect();
        let altered = format!("{}{}{}", &text[..givens_start], kept.join(", "), &text[givens_end..]);
        let (ok, out) = check(&altered);
        if !ok {
            refused = Some(out);
            break;
        }
    }
    let out = refused.expect("some given of tableau 3 is needed for a unique solution");
    assert!(out.contains("error[E0021]: setup \"3\" has more than one solution"), "{out}");
    assert!(out.contains(&format!("game.game:{line_no}:5")), "at the tableau's line {line_no}: {out}");
}

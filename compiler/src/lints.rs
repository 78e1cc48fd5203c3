//! Lints that need the rules played, not only read: a start where nobody can move, a solved
//! strategy on a game too big to solve, play that can cycle forever, positions where nobody
//! can move and no ending says who won. Each points at the statement to change.

use crate::analyze::starts;
use crate::engine::one_player::Toggles;
use crate::engine::puzzle::Puzzle;
use crate::engine::solve::{self, MAX_STATES};
use crate::engine::{Engine, State};
use gamec_dsl::Code;
use gamec_dsl::{Diagnostic, FileId, GameDef, Label, StrategyKind};

/// Errors and warnings for a game that loaded; the caller tells them apart by severity.
pub fn lint(game: &GameDef, file: FileId) -> Vec<Diagnostic> {
    // A game of cards has no moves to play: its deck and group are checked as they load.
    if game.cards.is_some() {
        return Vec::new();
    }
    let mut out = unplayable_actions(game, file);
    out.extend(unenterable_steps(game, file));
    let engine = Engine::new(game);
    let starts = starts(&engine, game);
    if starts.is_empty() {
        // Random setups whose plain constraints no placement meets: point at the comparison
        // that, with those before it, leaves none.
        let span = first_empty_comparison(&engine, game).unwrap_or(game.name.span);
        out.push(
            Diagnostic::error(Code::E0016, "no placement of the pieces satisfies the setup")
                .with_label(Label::primary(file, span, "no position meets this"))
                .with_help("loosen the setup's requirements so that at least one start exists"),
        );
        return out;
    }
    if starts.iter().all(|s| engine.plies(s).is_empty()) {
        let span = game.rules.moves.first().map_or(game.rules.board.span(), |m| m.span);
        let why = match engine.outcome(&starts[0]) {
            Some(_) => "an ending already holds at the start",
            None => "the player to move has no legal move at the start",
        };
        out.push(
            Diagnostic::error(Code::E0017, format!("the game is over before it begins: {why}"))
                .with_label(Label::primary(file, span, "no legal move from the start"))
                .with_label(Label::secondary(file, game.rules.board.span(), "on this board"))
                .with_help("check the setup and the actions' conditions: the first player needs a move"),
        );
        return out;
    }
    if let Some(puzzle) = Puzzle::new(&engine) {
        out.extend(puzzle_starts(game, file, &engine, &puzzle, &starts));
        return out;
    }
    if let Some(toggles) = Toggles::new(&engine) {
        out.extend(toggle_starts(game, file, &toggles, &starts));
        return out;
    }
    let wants_table = game.device.strategy.as_ref().is_some_and(|s| s.kind == StrategyKind::Perfect);
    match solve::explore(&engine, &starts, MAX_STATES) {
        Err(too_big) => {
            if let Some(s) = game.device.strategy.as_ref().filter(|_| wants_table) {
                out.push(
                    Diagnostic::error(
                        Code::E0018,
                        format!("the game has more than {} reachable positions, too many to solve", too_big.explored),
                    )
                    .with_label(Label::primary(file, s.span, "perfect play needs the game solved"))
                    .with_note(format!("gamec solves games of up to {MAX_STATES} reachable positions"))
                    .with_help("use `search` with an `eval`, or `random`"),
                );
            }
        }
        Ok(solved) => {
            if crate::analyze::winnable_starts(&engine, game, &solved, &starts).is_empty() {
                let span = game
                    .rules
                    .setup
                    .require()
                    .iter()
                    .find_map(|c| match c {
                        gamec_dsl::Constraint::Winnable { span, .. } => Some(*span),
                        _ => None,
                    })
                    .unwrap_or(game.name.span);
                out.push(
                    Diagnostic::error(Code::E0016, "no placement of the pieces satisfies the setup")
                        .with_label(Label::primary(file, span, "no start that meets the rest is won by this player"))
                        .with_help("drop or loosen a requirement so that at least one start exists"),
                );
            }
            if solved.cycling > 0 {
                let span = game.rules.moves.first().map_or(game.name.span, |m| m.span);
                let d = if game.rules.line().is_some() {
                    // Line games are solved as won or lost (a bit a position) for their setups
                    // and the device's table, which needs play that always ends.
                    Diagnostic::error(
                        Code::E0019,
                        "play can cycle forever, which a line game's won-or-lost solution cannot",
                    )
                } else {
                    Diagnostic::warning(Code::W0019, "play can cycle forever")
                };
                out.push(
                    d.with_label(Label::primary(file, span, "these moves can return to an earlier position"))
                        .with_note(format!(
                            "from {} reachable positions neither side can force the game to end",
                            solved.cycling
                        ))
                        .with_help("let every move go one way only (a one-way slide, a placement, a removal), or add an ending that stops repetition"),
                );
            }
            // An ending that decides no reachable position is dead text, or a mistake.
            let mut decides = vec![false; game.rules.endings.len()];
            for s in &solved.states {
                if let Some(i) = engine.ending(s) {
                    decides[i] = true;
                }
            }
            for (e, _) in game.rules.endings.iter().zip(&decides).filter(|(_, d)| !**d) {
                out.push(
                    Diagnostic::warning(Code::W0022, "this ending never decides a game")
                        .with_label(Label::primary(
                            file,
                            e.span,
                            "holds in no reachable position, or only after an earlier ending",
                        ))
                        .with_note(format!("checked on all {} reachable positions", solved.len()))
                        .with_help("remove it, or reorder the endings so that it can apply"),
                );
            }
            if solved.stuck > 0 {
                let span = game.rules.endings.last().map_or(game.name.span, |e| e.span);
                out.push(
                    Diagnostic::warning(Code::W0020, "some positions leave nobody a move and no ending says who won")
                        .with_label(Label::primary(file, span, "no ending covers them"))
                        .with_note(format!("{} reachable positions; they count as draws", solved.stuck))
                        .with_help("add an ending such as `no moves -> mover wins` or `full -> draw`"),
                );
            }
        }
    }
    out
}

/// Button controls enter a move a step a press, and every press must leave a legal move:
/// an action whose shortest move is longer than one step, or a slide that jumps over pieces,
/// cannot be entered that way.
fn unenterable_steps(game: &GameDef, file: FileId) -> Vec<Diagnostic> {
    use gamec_dsl::{ControlAction, MoveKind};
    let mut out = Vec::new();
    for c in &game.interface.controls {
        let ControlAction::Extend { action } = c.action else { continue };
        let Some(m) = game.rules.moves.get(action) else { continue };
        let why = match m.kind {
            MoveKind::Slide { min, .. } | MoveKind::Remove { min, .. } if min > 1 => {
                format!("its shortest move is {min} steps, and the first press makes one")
            }
            MoveKind::Slide { over_empty: false, .. } => {
                "it jumps over pieces, and a press that lands on one is denied".to_string()
            }
            _ => continue,
        };
        out.push(
            Diagnostic::warning(
                Code::W0023,
                format!("the control `{}` cannot enter every move of `{}`", c.name.node, m.name.node),
            )
            .with_label(Label::primary(file, m.span, why))
            .with_help("a press adds one step to the move: let the action take single steps (`by 1..`, `over empty`)"),
        );
    }
    out
}

/// Actions no control of the game enters: the person at the device could never play them.
fn unplayable_actions(game: &GameDef, file: FileId) -> Vec<Diagnostic> {
    use gamec_dsl::{ControlAction, SessionAction};
    let has_controls = !game.interface.controls.is_empty() || game.interface.serial.is_some();
    if !has_controls {
        return Vec::new();
    }
    // A cursor's commits enter any move of a game on cells (a grid, or a line as one row),
    // the cells it names a press each.
    let cursor = game.interface.controls.iter().any(|c| matches!(c.action, ControlAction::Cursor { .. }))
        && game.interface.controls.iter().any(|c| c.action == ControlAction::Commit)
        && game.rules.columns_and_rows().is_some();
    let entered = |i: usize| {
        cursor
            || game.interface.controls.iter().any(|c| c.action == ControlAction::Extend { action: i })
            || game
                .interface
                .serial
                .iter()
                .flat_map(|s| &s.commands)
                .any(|c| matches!(c.action, SessionAction::PlayMove) || c.action == SessionAction::Play(i))
    };
    game.rules
        .moves
        .iter()
        .enumerate()
        .filter(|&(i, _)| !entered(i))
        .map(|(_, m)| {
            Diagnostic::warning(Code::W0021, format!("no control enters the action `{}`", m.name.node))
                .with_label(Label::primary(file, m.span, "only the device can play this"))
                .with_help(if game.interface.serial.is_some() {
                    format!("add a command such as `\"MV\" cell -> play {}`", m.name.node)
                } else {
                    format!("add a control such as `move[i] -> extend {}(PIECE[i])`", m.name.node)
                })
        })
        .collect()
}

/// The first `require` comparison after which no placement of the pieces is left.
fn first_empty_comparison(engine: &Engine, game: &GameDef) -> Option<gamec_dsl::Span> {
    let rules = crate::rules::Rules::new(game)?;
    let mut left: Vec<u16> = engine
        .placements(game.rules.piece.count)
        .iter()
        .map(|s| s.cells.iter().enumerate().fold(0u16, |m, (i, &v)| m | ((v as u16) << i)))
        .collect();
    for c in game.rules.setup.require() {
        if let gamec_dsl::Constraint::Compare { span, .. } = c {
            left.retain(|&p| rules.meets(p, c).unwrap_or(true));
            if left.is_empty() {
                return Some(*span);
            }
        }
    }
    None
}

/// A puzzle's every start has exactly one solution: none is a puzzle that cannot be done, two
/// one that a player can finish in a way the device would call wrong.
/// A toggle puzzle's starts that no presses can clear.
fn toggle_starts(game: &GameDef, file: FileId, toggles: &Toggles, starts: &[State]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, _) in starts.iter().enumerate().filter(|(_, s)| toggles.solve(s).is_none()) {
        let setup = game.rules.setup.fixed().get(i);
        let span = setup.map_or(game.rules.board.span(), |s| s.span);
        let name = match setup.and_then(|s| s.name.as_ref()) {
            Some(n) => format!("setup \"{}\"", n.node),
            None => "the setup".to_string(),
        };
        let d = Diagnostic::error(Code::E0020, format!("{name} has no solution"))
            .with_label(Label::primary(file, span, "no set of presses clears it"))
            .with_note("presses commute and undo themselves, so the starts that can be cleared are exactly the sums of presses");
        let d = match game.rules.endings.first() {
            Some(e) => d.with_label(Label::secondary(file, e.span, "the ending no press can reach")),
            None => d,
        };
        out.push(
            d.with_help("change the lit cells: a start made by pressing cells of a cleared board is always solvable"),
        );
    }
    out
}

fn puzzle_starts(game: &GameDef, file: FileId, engine: &Engine, puzzle: &Puzzle, starts: &[State]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, start) in starts.iter().enumerate() {
        let setup = game.rules.setup.fixed().get(i);
        let span = setup.map_or(game.rules.board.span(), |s| s.span);
        let name = match setup.and_then(|s| s.name.as_ref()) {
            Some(n) => format!("setup \"{}\"", n.node),
            None => "the setup".to_string(),
        };
        let Ok(solutions) = puzzle.try_solutions(start, 2) else {
            out.push(
                Diagnostic::error(Code::E0024, format!("{name}'s solutions could not be decided"))
                    .with_label(Label::primary(file, span, "this start"))
                    .with_note(format!(
                        "the solver gave up after {} judgements of partial fillings",
                        gamec_dsl::thousands(crate::engine::puzzle::WORK)
                    ))
                    .with_help(
                        "give more cells, or add conditions that rule out fillings early (counts per row or column)",
                    ),
            );
            continue;
        };
        match solutions.as_slice() {
            [] => {
                let d = Diagnostic::error(Code::E0020, format!("{name} has no solution")).with_label(Label::primary(
                    file,
                    span,
                    "no filling of its open cells wins",
                ));
                let d = match game.rules.endings.iter().find(|e| matches!(e.result, gamec_dsl::EndResult::Wins(_))) {
                    Some(e) => d.with_label(Label::secondary(file, e.span, "the givens contradict this ending")),
                    None => d,
                };
                out.push(d.with_help("change or remove a given so that the puzzle can be solved"));
            }
            [_] => {}
            [a, b, ..] => {
                let differ: Vec<String> = engine
                    .cell_list
                    .iter()
                    .filter(|&&c| a.cells[c as usize] != b.cells[c as usize])
                    .map(|&c| engine.cell_name(c))
                    .collect();
                out.push(
                    Diagnostic::error(Code::E0021, format!("{name} has more than one solution"))
                        .with_label(Label::primary(file, span, "these givens leave a choice"))
                        .with_note(format!("one solution:\n{}", engine.show(a)))
                        .with_note(format!("another:\n{}", engine.show(b)))
                        .with_help(format!("give one more cell, such as {}, to tell them apart", differ.join(" or "))),
                );
            }
        }
    }
    out
}

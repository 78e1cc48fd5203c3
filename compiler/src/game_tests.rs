//! The tests a game file carries (`test "name" { ... }`), run on the host by the engine: each
//! failure is a diagnostic at the move or expectation that did not hold.

use crate::analyze::starts;
use crate::engine::solve::{explore, MAX_STATES};
use crate::engine::{Engine, Move, Outcome, State};
use gamec_dsl::ast::Ident;
use gamec_dsl::Code;
use gamec_dsl::{Diagnostic, ExpectDef, FileId, GameDef, Label, SetupDef, Span, StrategyKind, TestDef};

/// One test's name and what went wrong (nothing, when it passed).
pub struct TestRun {
    pub name: String,
    pub failures: Vec<Diagnostic>,
}

impl TestRun {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Runs every test in the game file.
pub fn run(game: &GameDef, file: FileId) -> Vec<TestRun> {
    let engine = Engine::new(game);
    game.tests
        .iter()
        .map(|t| TestRun {
            name: t.name.node.clone(),
            failures: run_one(game, &engine, file, t).err().into_iter().collect(),
        })
        .collect()
}

fn fail(file: FileId, span: Span, message: String, label: &str, help: String) -> Diagnostic {
    Diagnostic::error(Code::T0001, message).with_label(Label::primary(file, span, label.to_string())).with_help(help)
}

fn start(game: &GameDef, engine: &Engine, t: &TestDef) -> Option<State> {
    let Some(p) = &t.from else {
        return (!game.rules.setup.is_random()).then(|| engine.fixed_start(game));
    };
    if !p.heaps.is_empty() {
        let mut cells = vec![0u8; engine.len];
        for (slot, &n) in cells.iter_mut().zip(&p.heaps) {
            *slot = n as u8;
        }
        return Some(State { cells, to_move: p.to_move as u8, passed: false, given: 0 });
    }
    // A position written out is a setup of its own: what it fills is given.
    let setup = SetupDef {
        name: None,
        pieces: p.cells.clone(),
        kinds: p.kinds.clone(),
        shared: p.shared.clone(),
        states: p.states.clone(),
        heaps: Vec::new(),
        span: t.name.span,
    };
    Some(State { to_move: p.to_move as u8, ..engine.start_of(game, &setup) })
}

fn run_one(game: &GameDef, engine: &Engine, file: FileId, t: &TestDef) -> Result<(), Diagnostic> {
    let Some(mut s) = start(game, engine, t) else {
        return Err(fail(
            file,
            t.name.span,
            "the game deals its start at random, so the test needs a position".into(),
            "no position",
            "write one: `from { PIECE at CELL, ... }`".into(),
        ));
    };
    for m in &t.moves {
        let mv = engine.parse_move(&s, &m.node).map_err(|e| {
            fail(file, m.span, e.message, "cannot be played", format!("the position here:\n{}", engine.show(&s)))
        })?;
        s = engine.play(&s, mv);
    }
    for e in &t.expects {
        expect(game, engine, file, &s, &e.node, e.span)?;
    }
    Ok(())
}

fn names(engine: &Engine, moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|&m| engine.move_name(m).to_uppercase()).collect();
    v.sort();
    v
}

fn written(list: &[Ident]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|m| m.node.to_uppercase()).collect();
    v.sort();
    v.dedup();
    v
}

fn expect(
    game: &GameDef,
    engine: &Engine,
    file: FileId,
    s: &State,
    e: &ExpectDef,
    span: Span,
) -> Result<(), Diagnostic> {
    let plies = engine.plies(s);
    let legal = names(engine, &plies);
    // No move at all is said in words, not as a line that ends in a space.
    let moves = if legal.is_empty() { "none".to_string() } else { legal.join(" ") };
    let here = || format!("the position here:\n{}legal moves: {moves}", engine.show(s));
    match e {
        ExpectDef::Legal(list) => {
            if written(list) != legal {
                return Err(fail(file, span, "the legal moves differ".into(), "expected these", here()));
            }
        }
        ExpectDef::Illegal(list) => {
            if let Some(m) = written(list).into_iter().find(|m| legal.contains(m)) {
                return Err(fail(file, span, format!("`{m}` is legal"), "expected illegal", here()));
            }
        }
        ExpectDef::NotOver => {
            if plies.is_empty() {
                return Err(fail(file, span, "the game is over".into(), "expected play to go on", here()));
            }
        }
        ExpectDef::Result(r) => {
            let expected = engine.result(s, *r);
            let got = engine.outcome(s);
            if got != Some(expected) {
                let said = match got {
                    None if plies.is_empty() => "nobody can move and no ending holds".to_string(),
                    None => "the game is not over".to_string(),
                    Some(o) => describe(engine, o),
                };
                return Err(fail(
                    file,
                    span,
                    format!("{said}, not {}", describe(engine, expected)),
                    "expected this",
                    here(),
                ));
            }
        }
        ExpectDef::Device(list) => {
            let chooses =
                device_choices(game, engine, s).map_err(|why| fail(file, span, why, "cannot be checked", here()))?;
            let chooses = names(engine, &chooses);
            let allowed = written(list);
            if let Some(m) = chooses.iter().find(|m| !allowed.contains(m)) {
                return Err(fail(
                    file,
                    span,
                    format!("the device may play `{m}`"),
                    "expected only these",
                    format!("the device chooses among {}\n{}", chooses.join(" "), here()),
                ));
            }
        }
    }
    Ok(())
}

fn describe(engine: &Engine, o: Outcome) -> String {
    match o {
        Outcome::Draw => "a draw".into(),
        Outcome::Win(p) => format!("{} wins", engine.player_names[p as usize]),
    }
}

/// Every reply the device's strategy may choose in `s`.
fn device_choices(game: &GameDef, engine: &Engine, s: &State) -> Result<Vec<Move>, String> {
    let strategy = game.device.strategy.as_ref().ok_or("the game declares no strategy for the device")?;
    match strategy.kind {
        StrategyKind::Random => Ok(engine.plies(s)),
        StrategyKind::Perfect => {
            let mut from = starts(engine, game);
            from.push(s.clone());
            let solved = explore(engine, &from, MAX_STATES)
                .map_err(|t| format!("the game has more than {} positions, too many to solve", t.explored))?;
            let best = engine.best_plies(&solved, s);
            Ok(if strategy.ties_random { best } else { best.into_iter().take(1).collect() })
        }
        StrategyKind::Search => {
            Err("the device's search depends on its clock; `expect device` checks solved and random strategies".into())
        }
    }
}

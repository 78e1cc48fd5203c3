//! Facts the compiler proves about a game's rules, printed by `gamec analyze` and used by
//! code generation (the setup filter and the device's table).

use crate::engine::one_player::{self, Toggles};
use crate::engine::puzzle::{Difficulty, Puzzle};
use crate::engine::solve::{self as general, TooBig, Value};
use crate::engine::{Engine, Shape, State};
use crate::rules::{Pos, Rules};
use crate::solve::{self, Solution};
use gamec_dsl::Code;
use gamec_dsl::{Constraint, Diagnostic, FileId, GameDef, Label, StrategyKind};
use std::fmt;

pub struct Analysis {
    pub rules: Rules,
    pub solution: Solution,
    /// Every placement of the pieces.
    pub placements: usize,
    /// Placements meeting every setup constraint: the starts the device deals.
    pub setups: Vec<Pos>,
    /// Placements meeting the constraints that do not need solving.
    pub setups_before_winnable: usize,
    /// Setups the first player wins with perfect play.
    pub first_player_wins: usize,
    /// Positions reachable by legal play from the setups.
    pub reachable: usize,
    /// Reachable positions with at least one move where the mover can force a win.
    pub reachable_wins: usize,
    /// Whether the device's declared strategy picks a winning move in every reachable
    /// position that has one.
    pub strategy_perfect: Option<bool>,
}

impl Analysis {
    /// Solves a line game; other games get a diagnostic pointing at their board.
    pub fn new(game: &GameDef, file: FileId) -> Result<Analysis, Vec<Diagnostic>> {
        let Some(rules) = Rules::new(game) else {
            return Err(vec![Diagnostic::error(
                Code::E0006,
                "solving is supported for line games that end when the mover has no move",
            )
            .with_label(Label::primary(file, game.rules.board.span(), "this board"))
            .with_help("for grid games, `gamec perft` counts move paths; search strategies come next")]);
        };
        let solution = Solution::try_solve(&rules).map_err(|c| vec![cycle_diagnostic(game, file, &rules, &c)])?;
        let placements: Vec<Pos> = rules.placements().collect();
        let plain: Vec<Pos> = placements
            .iter()
            .copied()
            .filter(|&p| game.rules.setup.require().iter().all(|c| rules.meets(p, c).unwrap_or(true)))
            .collect();
        let setups: Vec<Pos> = plain
            .iter()
            .copied()
            .filter(|&p| {
                game.rules.setup.require().iter().all(|c| match c {
                    // At the start the first player is to move.
                    Constraint::Winnable { player, .. } => solution.mover_wins(p) == (*player == game.rules.first),
                    _ => true,
                })
            })
            .collect();
        if setups.is_empty() {
            return Err(vec![no_setup_diagnostic(game, file, &rules, &solution)]);
        }
        let first_player_wins = setups.iter().filter(|&&p| solution.mover_wins(p)).count();
        let reach = solve::reachable(&rules, &setups);
        let reachable_wins = reach.iter().filter(|&&p| solution.mover_wins(p)).count();
        let strategy_perfect = game.device.strategy.as_ref().map(|s| match s.kind {
            // The device consults the solved table, which covers every placement.
            StrategyKind::Perfect => reach.iter().all(|&p| {
                let moves = rules.moves(p);
                !solution.mover_wins(p) || moves.iter().any(|&m| !solution.mover_wins(Rules::apply(p, m)))
            }),
            // Search is refused on line games by the front end; it proves nothing here.
            StrategyKind::Search => false,
            // Random play is perfect only if no reachable winning position has a losing move.
            StrategyKind::Random => reach.iter().all(|&p| {
                !solution.mover_wins(p) || rules.moves(p).iter().all(|&m| !solution.mover_wins(Rules::apply(p, m)))
            }),
        });
        Ok(Analysis {
            placements: placements.len(),
            setups_before_winnable: plain.len(),
            first_player_wins,
            reachable: reach.len(),
            reachable_wins,
            strategy_perfect,
            setups,
            rules,
            solution,
        })
    }
}

/// Why no setup exists: the first requirement that, with those before it, leaves no placement
/// of the pieces. The device deals at random until every requirement holds, so without this it
/// would deal forever.
fn no_setup_diagnostic(game: &GameDef, file: FileId, rules: &Rules, solution: &Solution) -> Diagnostic {
    let holds = |p: Pos, c: &Constraint| match c {
        // At the start the first player is to move.
        Constraint::Winnable { player, .. } => solution.mover_wins(p) == (*player == game.rules.first),
        Constraint::Compare { .. } => rules.meets(p, c).unwrap_or(true),
    };
    let span = |c: &Constraint| match c {
        Constraint::Winnable { span, .. } | Constraint::Compare { span, .. } => *span,
    };
    let mut left: Vec<Pos> = rules.placements().collect();
    let total = left.len();
    let mut d = Diagnostic::error(Code::E0016, "no placement of the pieces satisfies the setup");
    for (i, c) in game.rules.setup.require().iter().enumerate() {
        left.retain(|&p| holds(p, c));
        if !left.is_empty() {
            continue;
        }
        let label =
            if i == 0 { "no placement meets this" } else { "no placement meets this and the requirements before it" };
        d = d.with_label(Label::primary(file, span(c), label));
        for before in &game.rules.setup.require()[..i] {
            d = d.with_label(Label::secondary(file, span(before), "together with this"));
        }
        let help = match c {
            Constraint::Winnable { player, .. } => format!(
                "no start that meets the other requirements is won by {} with perfect play; drop or loosen one",
                game.rules.players.get(*player).map_or("that player", |p| p.node.as_str())
            ),
            Constraint::Compare { .. } => format!(
                "the cells of this line are numbered 1 to {}; loosen the requirement so that some placement meets it",
                rules.cells
            ),
        };
        d = d.with_help(help);
        break;
    }
    d.with_note(format!(
        "the device deals the {} pieces at random among the {total} placements until every requirement holds",
        rules.pieces
    ))
}

/// Play that can return to a position: the actions whose moves make the cycle, with the cycle
/// as an example. The solver scores positions won or lost, which needs a game that always ends.
fn cycle_diagnostic(game: &GameDef, file: FileId, rules: &Rules, cycle: &solve::Cycle) -> Diagnostic {
    let mut used = std::collections::BTreeSet::new();
    for (&pos, m) in cycle.positions.iter().zip(&cycle.moves) {
        for (i, s) in rules.slides.iter().enumerate() {
            if (s.min..=s.max).any(|steps| s.target(rules.cells, pos, m.from, steps) == Some(m.to)) {
                used.insert(i);
            }
        }
    }
    let mut d = Diagnostic::error(Code::E0019, "play can go on forever: these moves can return to a position");
    for &i in &used {
        // A game the line reading reads slides in every action: slide i is action i.
        if let Some(a) = game.rules.moves.get(i) {
            d = d.with_label(Label::primary(file, a.span, "part of a cycle of play"));
        }
    }
    if let Some(s) = game.device.strategy.as_ref().filter(|s| s.kind == StrategyKind::Perfect) {
        d = d.with_label(Label::secondary(file, s.span, "solving needs a game that always ends"));
    }
    let cells = |p: Pos| {
        let on: Vec<String> = (0..rules.cells).filter(|c| p & (1 << c) != 0).map(|c| (c + 1).to_string()).collect();
        on.join(", ")
    };
    let steps: Vec<String> = cycle.moves.iter().map(|m| format!("{} to {}", m.from + 1, m.to + 1)).collect();
    d.with_note(format!(
        "for example, with pieces on cells {}: {}, and the position repeats",
        cells(cycle.positions[0]),
        steps.join(", then ")
    ))
    .with_help(
        "the compiler solves line games as won or lost, which needs play that always ends: \
         let every slide move pieces the same way along the line",
    )
}

impl fmt::Display for Analysis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "placements of the pieces:           {}", self.placements)?;
        writeln!(f, "meeting the plain setup rules:      {}", self.setups_before_winnable)?;
        writeln!(f, "setups (all constraints):           {}", self.setups.len())?;
        writeln!(f, "setups the first player wins:       {}", self.first_player_wins)?;
        writeln!(f, "reachable states:                   {}", self.reachable)?;
        writeln!(f, "reachable states the mover wins:    {}", self.reachable_wins)?;
        match self.strategy_perfect {
            Some(true) => writeln!(f, "device strategy:                    perfect"),
            Some(false) => writeln!(f, "device strategy:                    not perfect"),
            None => writeln!(f, "device strategy:                    none declared"),
        }
    }
}

/// What `gamec analyze` proves about any game, read by the general engine.
pub struct Facts {
    pub places: String,
    pub starts: usize,
    /// `Err` when the game has more positions than the solver explores.
    /// The game tree solved, for games of two players (`None` for puzzles).
    pub solved: Option<Result<SolvedFacts, TooBig>>,
    /// Moves per position and plies per game, over seeded random games (not for puzzles).
    pub playouts: Option<Playouts>,
    /// For a puzzle, each start's solutions and difficulty.
    pub puzzle: Vec<StartFacts>,
    /// For a game of one player that is not a filling of cells, each start's shortest known
    /// solution (the fewest presses of a toggle puzzle, else the first line a search finds).
    pub lines: Vec<LineFacts>,
    /// For a game of cards: the deck and its groups.
    pub cards: Option<CardFacts>,
    pub strategy: Option<StrategyKind>,
}

/// A start of a one-player game and how it is solved.
pub struct LineFacts {
    pub name: Option<String>,
    /// The moves in order; `Ok(None)` when none wins, `Err(n)` when `n` positions were searched
    /// without deciding.
    pub line: Result<Option<Vec<String>>, usize>,
    /// The fewest moves there are (a toggle puzzle's presses), or merely a line found.
    pub fewest: bool,
}

/// The most positions the search for a one-player game's winning line remembers.
pub const LINE_SEARCH_LIMIT: usize = 1_000_000;

/// Each start of a one-player game that is not a filling of cells, solved.
pub fn one_player_lines(engine: &Engine, game: &GameDef, starts: &[State]) -> Vec<LineFacts> {
    let names = |i: usize| game.rules.setup.fixed().get(i).and_then(|s| s.name.as_ref()).map(|n| n.node.clone());
    let named = |cells: Vec<u8>| cells.into_iter().map(|c| engine.cell_name(c)).collect::<Vec<_>>();
    if let Some(t) = Toggles::new(engine) {
        return starts
            .iter()
            .enumerate()
            .map(|(i, s)| LineFacts { name: names(i), line: Ok(t.solve(s).map(|p| named(p.cells))), fewest: true })
            .collect();
    }
    one_player::winning_lines(engine, starts, LINE_SEARCH_LIMIT)
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let line = line.map(|l| l.map(|moves| moves.into_iter().map(|m| engine.move_name(m)).collect()));
            LineFacts { name: names(i), line, fewest: false }
        })
        .collect()
}

pub struct SolvedFacts {
    pub reachable: usize,
    pub finished: usize,
    /// The start's value for the first player (the worst over the starts of a random setup).
    pub start: Value,
    pub max_moves: usize,
    pub mean_moves: f64,
    pub cycling: usize,
    pub stuck: usize,
}

/// A deck of cards and the groups in it.
pub struct CardFacts {
    pub deck: u64,
    /// Groups among all the deck's cards, or why they were not counted (too many combinations
    /// to try).
    pub groups: Result<usize, String>,
    pub name: String,
    pub size: u32,
    /// Whether K-1 cards determine the last, so the search completes and looks up.
    pub derived: bool,
}

/// One start of a puzzle, solved.
pub struct StartFacts {
    /// The setup's name, if it has one.
    pub name: Option<String>,
    /// Winning fillings found, stopping at two; `Err` when the solver gave up.
    pub solutions: Result<usize, crate::engine::puzzle::Undecided>,
    pub difficulty: Difficulty,
}

pub struct Playouts {
    pub games: usize,
    pub mean_moves: f64,
    pub mean_length: f64,
    pub longest: usize,
    /// The most moves any turn of the games offered.
    pub most_moves: usize,
}

impl Facts {
    /// The facts of a game of one player, whose positions are not all listed.
    fn unsolved(
        engine: &Engine,
        starts: usize,
        puzzle: Vec<StartFacts>,
        lines: Vec<LineFacts>,
        strategy: Option<StrategyKind>,
    ) -> Facts {
        let places = places(engine);
        Facts { places, starts, solved: None, playouts: None, puzzle, lines, strategy, cards: None }
    }

    pub fn new(game: &GameDef) -> Facts {
        if let Some(cards) = &game.cards {
            let deck = crate::cards::Deck::new(cards);
            // Counted before listing: a deck's groups are every K (or K-1) of its cards.
            let size = cards.deck_size();
            let tries = deck.tries(size);
            let groups = if tries <= crate::cards::MOST_TRIED {
                Ok(deck.groups(&deck.cards()).len())
            } else {
                let k = if deck.determined() { cards.group.size.saturating_sub(1) } else { cards.group.size };
                let n = if tries == u64::MAX { "more than 2^64".to_string() } else { gamec_dsl::thousands(tries) };
                Err(format!(
                    "not counted: {n} combinations of {k} of the {} cards, more than the {} `analyze` tries",
                    gamec_dsl::thousands(size),
                    gamec_dsl::thousands(crate::cards::MOST_TRIED)
                ))
            };
            return Facts {
                places: format!("a table of {} cards, {} x {}", cards.capacity, cards.rows, cards.cols),
                starts: 0,
                solved: None,
                playouts: None,
                puzzle: Vec::new(),
                lines: Vec::new(),
                strategy: None,
                cards: Some(CardFacts {
                    deck: size,
                    groups,
                    name: cards.group.name.node.clone(),
                    size: cards.group.size,
                    derived: deck.determined(),
                }),
            };
        }
        let engine = Engine::new(game);
        let starts = starts(&engine, game);
        let strategy = game.device.strategy.as_ref().map(|s| s.kind);
        if let Some(puzzle) = Puzzle::new(&engine) {
            // A puzzle without a setup starts on an empty board: one start, no name.
            let puzzle = starts
                .iter()
                .enumerate()
                .map(|(i, s)| StartFacts {
                    name: game.rules.setup.fixed().get(i).and_then(|setup| setup.name.as_ref()).map(|n| n.node.clone()),
                    solutions: puzzle.try_solutions(s, 2).map(|f| f.len()),
                    difficulty: puzzle.difficulty(s),
                })
                .collect();
            return Facts::unsolved(&engine, starts.len(), puzzle, Vec::new(), strategy);
        }
        if engine.players == 1 && Toggles::new(&engine).is_some() {
            // Presses commute: the positions are too many to list and need not be.
            let lines = one_player_lines(&engine, game, &starts);
            return Facts::unsolved(&engine, starts.len(), Vec::new(), lines, strategy);
        }
        let lines = if engine.players == 1 { one_player_lines(&engine, game, &starts) } else { Vec::new() };
        let mut dealt = starts.len();
        let solved = general::explore(&engine, &starts, general::MAX_STATES).map(|s| {
            let open: Vec<usize> = (0..s.len()).filter(|&i| !s.terminal[i]).map(|i| s.children[i].len()).collect();
            let deals = winnable_starts(&engine, game, &s, &starts);
            dealt = deals.len();
            let start = deals
                .iter()
                .filter_map(|st| s.value(&engine, st))
                // The worst start for the first player: a quick loss, a draw, a long win.
                .min_by_key(|v| match *v {
                    Value::Loss(d) => (0, d as i32),
                    Value::Draw => (1, 0),
                    Value::Win(d) => (2, -(d as i32)),
                })
                .unwrap_or(Value::Draw);
            SolvedFacts {
                reachable: s.len(),
                finished: s.terminal.iter().filter(|&&t| t).count(),
                start,
                max_moves: open.iter().copied().max().unwrap_or(0),
                mean_moves: open.iter().sum::<usize>() as f64 / open.len().max(1) as f64,
                cycling: s.cycling,
                stuck: s.stuck,
            }
        });
        Facts {
            places: places(&engine),
            starts: dealt,
            solved: Some(solved),
            playouts: Some(playouts(&engine, &starts, 200)),
            puzzle: Vec::new(),
            lines,
            strategy,
            cards: None,
        }
    }
}

fn places(engine: &Engine) -> String {
    match engine.shape {
        Shape::Line { cells, .. } => format!("a line of {cells} cells"),
        Shape::Grid { cols, rows } => format!("a grid of {cols} x {rows} cells"),
        Shape::Heaps { pits: Some(p), .. } => {
            format!("{} pits a side{}", p.per_side, if p.stores { " and a store" } else { "" })
        }
        Shape::Heaps { heaps, .. } => format!("{heaps} heaps"),
    }
}

/// The positions a game starts from: the fixed setup, or every placement a random setup may
/// deal (constraints that need no solving applied).
pub fn starts(engine: &Engine, game: &GameDef) -> Vec<State> {
    if game.rules.setup.fixed().len() > 1 {
        return game.rules.setup.fixed().iter().map(|s| engine.start_of(game, s)).collect();
    }
    if !game.rules.setup.is_random() {
        return vec![engine.fixed_start(game)];
    }
    let rules = Rules::new(game);
    engine
        .placements(game.rules.piece.count)
        .into_iter()
        .filter(|s| {
            let pos = s.cells.iter().enumerate().fold(0u16, |m, (i, &v)| m | ((v as u16) << i));
            rules.as_ref().is_none_or(|r| game.rules.setup.require().iter().all(|c| r.meets(pos, c).unwrap_or(true)))
        })
        .collect()
}

/// The starts a device deals from: every start, or where the setup requires a player to be
/// able to win, those that player wins (the game solved to know; every start if it is too big,
/// which `check` refuses with E0018).
pub fn dealt_starts(engine: &Engine, game: &GameDef) -> Vec<State> {
    let starts = starts(engine, game);
    let winnable = game.rules.setup.require().iter().any(|c| matches!(c, Constraint::Winnable { .. }));
    if !winnable {
        return starts;
    }
    match general::explore(engine, &starts, general::MAX_STATES) {
        Ok(solved) => winnable_starts(engine, game, &solved, &starts),
        Err(_) => starts,
    }
}

/// The starts that also meet the setup's `winnable` requirements, by the solved values.
pub fn winnable_starts(engine: &Engine, game: &GameDef, solved: &general::Solved, starts: &[State]) -> Vec<State> {
    starts
        .iter()
        .filter(|s| {
            game.rules.setup.require().iter().all(|c| match c {
                Constraint::Winnable { player, .. } => {
                    let wins = matches!(solved.value(engine, s), Some(Value::Win(_)));
                    wins == (*player == game.rules.first)
                }
                Constraint::Compare { .. } => true,
            })
        })
        .cloned()
        .collect()
}

/// Seeded random games from the starts: how long games run and how many moves a turn offers.
pub fn playouts(engine: &Engine, starts: &[State], games: usize) -> Playouts {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let (mut plies_total, mut moves_total, mut longest, mut most_moves) = (0usize, 0usize, 0usize, 0usize);
    for _ in 0..games {
        let mut s = starts[next(starts.len().max(1)).min(starts.len().saturating_sub(1))].clone();
        let mut length = 0;
        // Games that can cycle are cut off; the cap is far above any real game's length.
        while length < 10_000 {
            let plies = engine.plies(&s);
            if plies.is_empty() {
                break;
            }
            moves_total += plies.len();
            most_moves = most_moves.max(plies.len());
            s = engine.play(&s, plies[next(plies.len())]);
            length += 1;
        }
        plies_total += length;
        longest = longest.max(length);
    }
    Playouts {
        games,
        mean_moves: moves_total as f64 / plies_total.max(1) as f64,
        mean_length: plies_total as f64 / games.max(1) as f64,
        longest,
        most_moves,
    }
}

impl fmt::Display for Facts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "places:                             {}", self.places)?;
        if let Some(c) = &self.cards {
            writeln!(f, "deck:                               {} cards", c.deck)?;
            let groups = match &c.groups {
                Ok(n) => n.to_string(),
                Err(why) => why.clone(),
            };
            writeln!(f, "{:<36}{groups}", format!("{}s of {} in the deck:", c.name, c.size))?;
            let how = if c.derived {
                format!("any {} cards determine the last: each {} completed and looked up", c.size - 1, c.size - 1)
            } else {
                format!("every {} cards tried", c.size)
            };
            return writeln!(f, "search:                             {how}");
        }
        writeln!(f, "start positions:                    {}", self.starts)?;
        for (i, p) in self.puzzle.iter().enumerate() {
            let name = p.name.clone().unwrap_or_else(|| (i + 1).to_string());
            let solutions = match p.solutions {
                Ok(0) => "no solution".to_string(),
                Ok(1) => "one solution".to_string(),
                Ok(_) => "more than one solution".to_string(),
                Err(_) => {
                    format!("not decided within {} judgements", gamec_dsl::thousands(crate::engine::puzzle::WORK))
                }
            };
            let d = &p.difficulty;
            let level = match d.level {
                1 => "deduction alone (level 1)".to_string(),
                2 => "deduction with trials (level 2)".to_string(),
                _ => "needs a guess (level 3)".to_string(),
            };
            writeln!(
                f,
                "start {name:<29} {solutions}; {} open cells, {} by single deductions; {level}",
                d.open, d.by_singles
            )?;
        }
        for (i, l) in self.lines.iter().enumerate() {
            let name = l.name.clone().unwrap_or_else(|| (i + 1).to_string());
            let how = match &l.line {
                Ok(Some(moves)) => {
                    let n = moves.len();
                    let what = if l.fewest { "at fewest" } else { "found by search:" };
                    format!("solved in {n} move{} {what} {}", if n == 1 { "" } else { "s" }, moves.join(" "))
                }
                Ok(None) => "no solution".to_string(),
                Err(n) => format!("not decided: {} positions searched", gamec_dsl::thousands(*n as u64)),
            };
            writeln!(f, "start {name:<29} {how}")?;
        }
        match &self.solved {
            None => {}
            Some(Ok(s)) => {
                writeln!(f, "reachable states:                   {}", s.reachable)?;
                writeln!(f, "finished states:                    {}", s.finished)?;
                let worst = if self.starts > 1 { " (the worst start)" } else { "" };
                writeln!(f, "start under perfect play:           {}{worst}", s.start.describe())?;
                writeln!(
                    f,
                    "moves per position:                 {:.2} on average, {} at most",
                    s.mean_moves, s.max_moves
                )?;
                if s.cycling > 0 {
                    writeln!(f, "states where play can cycle:        {}", s.cycling)?;
                }
                if s.stuck > 0 {
                    writeln!(
                        f,
                        "states where nobody can move:       {} (no ending holds there; scored a draw)",
                        s.stuck
                    )?;
                }
            }
            Some(Err(t)) => {
                writeln!(f, "reachable states:                   more than {} (too many to solve)", t.explored)?;
            }
        }
        if let Some(p) = &self.playouts {
            writeln!(
                f,
                "random games ({}):                 {:.1} plies on average, {} at most; {:.2} moves a turn",
                p.games, p.mean_length, p.longest, p.mean_moves
            )?;
        }
        let strategy = match (self.strategy, &self.solved) {
            (None, _) => "none declared".to_string(),
            (Some(StrategyKind::Perfect), Some(Ok(_))) => "perfect (solved)".to_string(),
            (Some(StrategyKind::Perfect), _) => "perfect, but the game is too big to solve".to_string(),
            (Some(StrategyKind::Search), _) => "search".to_string(),
            (Some(StrategyKind::Random), _) => "random".to_string(),
        };
        writeln!(f, "device strategy:                    {strategy}")
    }
}

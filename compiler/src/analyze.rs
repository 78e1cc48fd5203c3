//! Facts the compiler proves about a game's rules, printed by `gamec analyze` and used by
//! code generation (the setup filter and the device's table).

use crate::rules::{Pos, Rules};
use crate::solve::{self, Solution};
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
                "E0006",
                "solving is supported for line games that end when the mover has no move",
            )
            .with_label(Label::primary(file, game.board.span(), "this board"))
            .with_help("for grid games, `gamec perft` counts move paths; search strategies come next")]);
        };
        let solution = Solution::solve(&rules);
        let placements: Vec<Pos> = rules.placements().collect();
        let plain: Vec<Pos> = placements
            .iter()
            .copied()
            .filter(|&p| game.setup.iter().all(|c| rules.meets(p, c).unwrap_or(true)))
            .collect();
        let setups: Vec<Pos> = plain
            .iter()
            .copied()
            .filter(|&p| {
                game.setup.iter().all(|c| match c {
                    // At the start the first player is to move.
                    Constraint::Winnable { player, .. } => solution.mover_wins(p) == (*player == game.first),
                    _ => true,
                })
            })
            .collect();
        let first_player_wins = setups.iter().filter(|&&p| solution.mover_wins(p)).count();
        let reach = solve::reachable(&rules, &setups);
        let reachable_wins = reach.iter().filter(|&&p| solution.mover_wins(p)).count();
        let strategy_perfect = game.strategy.as_ref().map(|s| match s.kind {
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

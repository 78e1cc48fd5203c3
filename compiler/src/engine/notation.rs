//! Moves and positions written as a person reads them: `B2` for a piece put on a grid cell,
//! `C` for a drop into column C, `12-9` for a slide between line cells, `2:3` for three
//! counters taken from heap 2, `pass`.

use super::{Engine, Move, Shape, State};
use std::fmt::Write;

/// A move that is not legal, or not a move at all, where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotationError {
    pub message: String,
}

impl Engine {
    /// A cell's name: `D5` on a grid, its number from 1 on a line.
    pub fn cell_name(&self, cell: u8) -> String {
        match self.shape {
            Shape::Grid { .. } => {
                format!("{}{}", (b'A' + (cell as usize % self.stride) as u8) as char, cell as usize / self.stride + 1)
            }
            _ => (cell + 1).to_string(),
        }
    }

    pub fn move_name(&self, m: Move) -> String {
        match m {
            Move::Pass => "pass".into(),
            Move::Put { action, cell } => match self.moves[action as usize] {
                gamec_dsl::MoveKind::Drop => ((b'A' + (cell as usize % self.stride) as u8) as char).to_string(),
                _ => self.cell_name(cell),
            },
            Move::Slide { from, to } => format!("{}-{}", from + 1, to + 1),
            Move::Take { heap, count } => format!("{}:{}", heap + 1, count),
            Move::Path(p) => {
                // A run of one is its cell alone, not `3-3`.
                let mut cells = p.cells().to_vec();
                cells.dedup();
                cells.iter().map(|&c| self.cell_name(c)).collect::<Vec<_>>().join("-")
            }
        }
    }

    /// The legal ply in `s` written as `text`.
    pub fn parse_move(&self, s: &State, text: &str) -> Result<Move, NotationError> {
        let plies = self.plies(s);
        if let Some(m) = plies.iter().find(|&&m| self.move_name(m).eq_ignore_ascii_case(text)) {
            return Ok(*m);
        }
        let legal: Vec<String> = plies.iter().map(|&m| self.move_name(m)).collect();
        let message = if legal.is_empty() {
            format!("`{text}` cannot be played: the game is over")
        } else {
            format!("`{text}` is not a legal move here; legal: {}", legal.join(" "))
        };
        Err(NotationError { message })
    }

    /// The position as text: a grid's rows from row 1 down (as the serial board dumps print
    /// them), `.` for empty and the players' initials; a line's cells left to right; heaps'
    /// sizes.
    pub fn show(&self, s: &State) -> String {
        let initial = |name: Option<&String>| name.and_then(|n| n.chars().next()).unwrap_or('?');
        let glyph = |v: u8| match (v, gamec_runtime::rules::content::kind_and_owner(v)) {
            (0, _) => '.',
            (_, Some((kind, owner))) if self.per_player => {
                // A further kind of piece in capitals, beside the first kind in small letters.
                let c = initial(self.player_names.get(owner as usize));
                if kind == 0 {
                    c
                } else {
                    c.to_ascii_uppercase()
                }
            }
            (1, _) => 'o',
            (v, _) => initial(self.state_names.get(v.wrapping_sub(gamec_dsl::content::state(0)) as usize)),
        };
        let mut out = String::new();
        match self.shape {
            Shape::Grid { cols, rows } => {
                for r in 0..rows as usize {
                    let cell = |c: usize| r * self.stride + c;
                    let row: String = (0..cols as usize)
                        .map(|c| if self.cut.contains(&(cell(c) as u8)) { ' ' } else { glyph(s.cells[cell(c)]) })
                        .collect();
                    let _ = writeln!(out, "{:>2} {row}", r + 1);
                }
            }
            Shape::Line { cells, numbered_from_right } => {
                let mut line: Vec<char> = (0..cells as usize).map(|i| glyph(s.cells[i])).collect();
                if numbered_from_right {
                    line.reverse();
                }
                let _ = writeln!(out, "{}", line.into_iter().collect::<String>());
            }
            Shape::Heaps { .. } => {
                let sizes: Vec<String> = s.cells.iter().map(u8::to_string).collect();
                let _ = writeln!(out, "heaps {}", sizes.join(", "));
            }
        }
        out
    }
}

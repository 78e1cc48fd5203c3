//! Lowering pieces that move by themselves: their kinds, the directions they go, steps, jumps
//! and rides, promotion, and boards with cells cut away.

use super::{cell_index, Ctx};
use crate::ast::Spanned;
use crate::ast::{self, Direction, Target, Travel};
use crate::model::{Directions, Goal, GridBoard, Layout, MoveKind, PieceDef, RegionDef, TravelDef};
use crate::Code;
use crate::Span;

/// The most kinds of piece a game may declare (the rule core numbers them in a byte).
const MAX_KINDS: usize = 8;

/// Compass bits, from north clockwise, as the rule core numbers them.
const N: u8 = 1;
const NE: u8 = 2;
const E: u8 = 4;
const SE: u8 = 8;
const S: u8 = 16;
const SW: u8 = 32;
const W: u8 = 64;
const NW: u8 = 128;

/// The further kinds of a `pieces` statement, each named once.
pub(super) fn kinds(ctx: &mut Ctx, first: &ast::Ident, kinds: &[ast::Ident]) -> Vec<ast::Ident> {
    let mut out: Vec<ast::Ident> = Vec::new();
    for k in kinds {
        if k.node == first.node || out.iter().any(|o| o.node == k.node) {
            let prev =
                if k.node == first.node { first.span } else { out.iter().find(|o| o.node == k.node).unwrap().span };
            ctx.duplicate(&format!("piece {}", k.node), prev, k.span);
        } else if out.len() + 1 == MAX_KINDS {
            ctx.err(
                Code::E0005,
                k.span,
                format!("a game has at most {MAX_KINDS} kinds of piece"),
                "one too many",
                "use fewer kinds",
            );
        } else {
            out.push(k.clone());
        }
    }
    out
}

/// The grid less the cells `without` names.
pub(super) fn cut_away(ctx: &mut Ctx, mut grid: GridBoard, cut: &[ast::Ident]) -> GridBoard {
    let whole = Layout::Grid(grid.clone());
    for c in cut {
        if let Some(i) = cell_index(ctx, c, &whole) {
            if grid.cut.contains(&i) {
                ctx.err(
                    Code::E0002,
                    c.span,
                    format!("cell {} is cut away twice", c.node),
                    "again here",
                    "name it once",
                );
            }
            grid.cut.push(i);
        }
    }
    grid.cut.sort_unstable();
    grid.cut.dedup();
    let left = grid.cols * grid.rows - grid.cut.len() as u32;
    if left < 2 {
        ctx.err(
            Code::E0005,
            grid.span,
            format!("the board keeps {left} cell{} after the cut", if left == 1 { "" } else { "s" }),
            "too few cells",
            "cut away fewer cells",
        );
    }
    grid
}

/// Direction words as compass bits.
pub(super) fn directions(ctx: &mut Ctx, words: &Spanned<Vec<Direction>>, layout: &Layout) -> Directions {
    let mut d = Directions { bits: 0, relative: false };
    for w in &words.node {
        let (bits, relative) = match w {
            Direction::Forward => (N, true),
            Direction::Backward => (S, true),
            Direction::Sideways => (E | W, false),
            Direction::Left => (W, false),
            Direction::Right => (E, false),
            Direction::Orthogonally => (N | E | S | W, false),
            Direction::Diagonally => (NE | SE | SW | NW, false),
            Direction::DiagonallyForward => (NE | NW, true),
            Direction::DiagonallyBackward => (SE | SW, true),
            Direction::Any => (0xff, false),
        };
        d.bits |= bits;
        d.relative |= relative;
    }
    if matches!(layout, Layout::Line(_)) && d.bits & !(E | W) != 0 {
        ctx.err(
            Code::E0006,
            words.span,
            "a line goes only left and right",
            "no such direction on a line",
            "write `left`, `right` or `sideways`",
        );
    }
    d
}

/// `remove MIN..MAX adjacent PIECE`: a run of pieces along a line, taken off.
pub(super) fn adjacent(
    ctx: &mut Ctx,
    sp: Span,
    min: &ast::Int,
    max: Option<&ast::Int>,
    piece: &PieceDef,
    layout: &Layout,
) -> Option<MoveKind> {
    let Layout::Line(line) = layout else {
        ctx.err(
            Code::E0006,
            sp,
            "pieces next to each other are taken off along a line",
            "a removal of a run",
            "use `board line N`; on heaps, `remove 1.. from heap`",
        );
        return None;
    };
    if piece.per_player {
        let help = format!("give the pieces a number: `pieces {} x {}`", piece.name.node, line.cells);
        ctx.err(Code::E0006, sp, "a run of pieces taken off is of shared pieces", "whose pieces?", help);
        return None;
    }
    if min.node == 0 || min.node > line.cells {
        ctx.err(
            Code::E0005,
            min.span,
            format!("a run is 1 to {} pieces on this line, not {}", line.cells, min.node),
            "out of range",
            format!("write `remove 1..2 adjacent {}`", piece.name.node),
        );
        return None;
    }
    if ctx.empty_removal(min, max) {
        return None;
    }
    Some(MoveKind::RemoveRun { min: min.node, max: max.map(|m| m.node.min(line.cells)) })
}

/// `promote A to B on PLACE` statements: the kind each promotes from, to, and where.
pub(super) fn promotions(
    ctx: &mut Ctx,
    piece: &PieceDef,
    regions: &[RegionDef],
    items: &[(Span, &ast::Ident, &ast::Ident, &Option<ast::Ident>)],
) -> Vec<(u8, u8, Goal)> {
    let mut out: Vec<(u8, u8, Goal)> = Vec::new();
    let names: Vec<&str> = std::iter::once(&piece.name).chain(&piece.kinds).map(|k| k.node.as_str()).collect();
    for (sp, from, to, on) in items {
        let kind = |ctx: &mut Ctx, k: &ast::Ident| {
            let found = piece.kind(&k.node).filter(|_| piece.per_player);
            if found.is_none() {
                ctx.unknown("piece", k, &names);
            }
            found
        };
        let (Some(f), Some(t)) = (kind(ctx, from), kind(ctx, to)) else { continue };
        let goal = match on {
            None => Goal::FarRow,
            Some(r) => match regions.iter().position(|d| d.name.node == r.node) {
                Some(i) => Goal::Region(i),
                None => {
                    let known: Vec<&str> = regions.iter().map(|d| d.name.node.as_str()).collect();
                    ctx.unknown("region", r, &known);
                    continue;
                }
            },
        };
        if f == t {
            ctx.err(
                Code::E0005,
                *sp,
                format!("`{}` would promote to itself", from.node),
                "the same kind",
                "name another kind",
            );
        } else if out.iter().any(|(o, _, _)| *o == f) {
            ctx.err(
                Code::E0002,
                from.span,
                format!("`{}` is promoted twice", from.node),
                "again here",
                "promote each kind once",
            );
        } else {
            out.push((f, t, goal));
        }
    }
    out
}

/// `[must] step|jump|ride PIECE DIRECTIONS [over TARGET] to TARGET [, capturing] [, chained]`.
pub(super) fn travel(
    ctx: &mut Ctx,
    sp: Span,
    mechanic: &ast::Mechanic,
    piece: &PieceDef,
    layout: &Layout,
    promotions: &[(u8, u8, Goal)],
) -> Option<TravelDef> {
    let ast::Mechanic::Travel { how, piece: p, directions: words, over, to, capturing, chained, .. } = mechanic else {
        return None;
    };
    if matches!(layout, Layout::Heaps(_)) {
        ctx.err(Code::E0006, sp, "heaps have no cells to move on", "a piece's move", "use `remove 1.. from heap`");
        return None;
    }
    if !piece.per_player {
        ctx.err(
            Code::E0006,
            sp,
            "a piece that moves by itself belongs to a player",
            "whose piece?",
            format!("give each player their own: `pieces {} per player`", p.node),
        );
        return None;
    }
    let Some(kind) = piece.kind(&p.node) else {
        let names: Vec<&str> = std::iter::once(&piece.name).chain(&piece.kinds).map(|k| k.node.as_str()).collect();
        ctx.unknown("piece", p, &names);
        return None;
    };
    let directions = directions(ctx, words, layout);
    let verb = match how.node {
        Travel::Step => "step",
        Travel::Jump => "jump",
        Travel::Ride => "ride",
    };
    let over = match (how.node, over) {
        (Travel::Jump, None) => {
            ctx.err(
                Code::E0005,
                how.span,
                "a jump leaps over a cell",
                "over what?",
                "write `over enemy` (or `own`, `any`)",
            );
            return None;
        }
        (Travel::Step, Some(o)) => {
            let help = "a step has nothing to pass over: write `jump` to leap, or leave `over` out";
            ctx.err(Code::E0005, o.span, "a step moves to the next cell", "nothing to pass over", help);
            Target::Empty
        }
        (_, Some(o)) => o.node,
        (_, None) => Target::Empty,
    };
    if matches!(to.node, Target::Own | Target::Any) {
        ctx.err(
            Code::E0005,
            to.span,
            "a piece cannot land on its own side's piece",
            "a landing",
            "land on `empty`, `enemy` (taking it) or `empty or enemy`",
        );
    }
    for (given, what) in [(capturing, "capturing"), (chained, "chained")] {
        if let Some(s) = given.filter(|_| how.node != Travel::Jump) {
            let help = format!("a {verb} takes what it lands on; `{what}` goes with `jump`");
            ctx.err(Code::E0005, s, format!("`{what}` is for jumps"), "not a jump", help);
        }
    }
    let promote = promotions.iter().find(|(f, _, _)| *f == kind).map(|&(_, t, g)| (t, g));
    Some(TravelDef {
        how: how.node,
        kind,
        directions,
        over,
        to: to.node,
        capturing: capturing.is_some(),
        chained: chained.is_some(),
        promote,
    })
}

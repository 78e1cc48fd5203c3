//! A game's actions: each move form checked against the board and the pieces it names, and
//! lowered to a [`MoveKind`].

use super::{travel, Ctx, EndScope, MAX_HEAP};
use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
use crate::Span;

/// What the actions need to know of the rest of the game.
pub(super) struct Scope<'s> {
    pub layout: &'s Layout,
    pub piece: &'s PieceDef,
    pub states: &'s [ast::Ident],
    pub promotions: &'s [(u8, u8, Goal)],
    pub end: &'s EndScope<'s>,
}

/// The actions, lowered.
pub(super) struct Lowered<'a> {
    pub moves: Vec<MoveDef>,
    /// Every action's name, refused ones too (their diagnostic is given).
    pub names: Vec<&'a ast::Ident>,
}

pub(super) fn lower<'a>(
    ctx: &mut Ctx,
    actions: &[(Span, &'a ast::Ident, &'a ast::Mechanic)],
    scope: &Scope,
    check_piece: &dyn Fn(&mut Ctx, &ast::Ident),
) -> Lowered<'a> {
    let mut moves: Vec<MoveDef> = Vec::new();
    let mut action_names: Vec<&ast::Ident> = Vec::new();
    for (sp, name, mechanic) in actions {
        if let Some(prev) = action_names.iter().find(|n| n.node == name.node) {
            let first = prev.span;
            ctx.duplicate(&format!("action {}", name.node), first, name.span);
            continue;
        }
        action_names.push(name);
        let kind = match mechanic {
            ast::Mechanic::Slide { piece: p, toward, min, max, over_empty } => {
                check_piece(ctx, p);
                match slide(ctx, *sp, (toward, min, max.as_ref(), *over_empty), scope) {
                    Some(kind) => kind,
                    None => continue,
                }
            }
            ast::Mechanic::Cycle { free, neighbours, through } => {
                match cycle(ctx, *sp, *free, neighbours.as_ref(), through, scope) {
                    Some(kind) => kind,
                    None => continue,
                }
            }
            ast::Mechanic::Place { piece: p, capturing, .. } => {
                check_piece(ctx, p);
                match place(ctx, *sp, capturing.as_ref(), scope) {
                    Some(kind) => kind,
                    None => continue,
                }
            }
            ast::Mechanic::Drop { piece: p } => {
                check_piece(ctx, p);
                if !matches!(scope.layout, Layout::Grid(_)) || !scope.piece.per_player {
                    ctx.err(
                        Code::E0006,
                        *sp,
                        "dropping puts a player's own piece into a column of a grid",
                        "a drop",
                        "use a `board grid C x R` and `pieces NAME per player`",
                    );
                    continue;
                }
                MoveKind::Drop
            }
            ast::Mechanic::Remove { min, max, adjacent: Some(p) } => {
                check_piece(ctx, p);
                match travel::adjacent(ctx, *sp, min, max.as_ref(), scope.piece, scope.layout) {
                    Some(kind) => kind,
                    None => continue,
                }
            }
            ast::Mechanic::Remove { min, max, adjacent: None } => {
                if !matches!(scope.layout, Layout::Heaps(_)) {
                    ctx.err(
                        Code::E0006,
                        *sp,
                        "only heaps have counters to remove",
                        "a removal",
                        "write `board heaps 3`",
                    );
                    continue;
                }
                if min.node == 0 {
                    ctx.err(
                        Code::E0005,
                        min.span,
                        "a removal takes at least one",
                        "zero",
                        "write `remove 1.. from heap`",
                    );
                } else if min.node > MAX_HEAP {
                    // The firmware keeps the bounds in bytes: 257 would have become 1.
                    ctx.err(
                        Code::E0005,
                        min.span,
                        format!("a heap holds at most {MAX_HEAP} counters, so no removal takes {}", min.node),
                        "more than a heap holds",
                        format!("take 1 to {MAX_HEAP}: `remove 1.. from heap`"),
                    );
                }
                ctx.empty_removal(min, max.as_ref());
                MoveKind::Remove { min: min.node.max(1), max: max.as_ref().map(|m| m.node.max(min.node.max(1))) }
            }
            ast::Mechanic::Sow { into_store, again, capture, skipping_origin } => {
                let options = super::sow::Options {
                    into_store: *into_store,
                    again: *again,
                    capture: capture.as_ref(),
                    skipping_origin: *skipping_origin,
                };
                match super::sow::lower(ctx, *sp, scope.layout, options) {
                    Some(kind) => kind,
                    None => continue,
                }
            }
            ast::Mechanic::Travel { .. } => {
                match travel::travel(ctx, *sp, mechanic, scope.piece, scope.layout, scope.promotions) {
                    Some(t) => MoveKind::Travel(t),
                    None => continue,
                }
            }
        };
        let must = matches!(mechanic, ast::Mechanic::Travel { must: true, .. });
        let condition = match mechanic {
            ast::Mechanic::Place { condition, .. } => super::lower_conditions(ctx, scope.end, condition),
            _ => Vec::new(),
        };
        moves.push(MoveDef { name: (*name).clone(), kind, must, condition, span: *sp });
    }
    Lowered { moves, names: action_names }
}

/// A `slide`: on a line, of shared pieces, by at least one cell.
fn slide(
    ctx: &mut Ctx,
    sp: Span,
    (toward, min, max, over_empty): (&ast::Ident, &ast::Int, Option<&ast::Int>, bool),
    scope: &Scope,
) -> Option<MoveKind> {
    let Layout::Line(line) = scope.layout else {
        ctx.err(
            Code::E0006,
            sp,
            "slides are supported on lines only",
            "a slide",
            "on a grid, use `place` or `drop`; on heaps, `remove`",
        );
        return None;
    };
    if scope.piece.per_player {
        ctx.err(
            Code::E0006,
            sp,
            "slides move shared pieces",
            "a slide",
            format!("give the pieces a number: `pieces {} x 5`", scope.piece.name.node),
        );
    }
    if min.node == 0 {
        ctx.err(Code::E0005, min.span, "a slide moves at least one cell", "zero steps", "write `by 1..`");
    }
    if let Some(max) = max {
        if max.node < min.node {
            ctx.err(
                Code::E0005,
                max.span,
                "the step range is empty",
                "smaller than the lower bound",
                format!("write `by {}..{}` or leave the upper bound out", min.node, min.node),
            );
        }
    }
    Some(MoveKind::Slide {
        step: line.step_toward(toward.node == "right"),
        min: min.node.max(1),
        max: max.as_ref().map(|m| m.node.max(min.node.max(1))),
        over_empty,
    })
}

/// A `cycle` of a cell (and perhaps its neighbours) through states: on cells, through
/// states the game declares, each once.
fn cycle(
    ctx: &mut Ctx,
    sp: Span,
    free: bool,
    neighbours: Option<&Spanned<Vec<ast::Direction>>>,
    through: &[ast::Ident],
    scope: &Scope,
) -> Option<MoveKind> {
    if matches!(scope.layout, Layout::Heaps(_)) {
        ctx.err(Code::E0006, sp, "heaps have no cells to cycle", "a cycle", "use `remove 1.. from heap`");
        return None;
    }
    let cells = scope.layout.cells();
    if free && cells > 64 {
        // The givens a `free` cycle passes by are a 64-bit set.
        ctx.err(
            Code::E0006,
            sp,
            format!("`cycle free` keeps to boards of at most 64 cells, not {cells}"),
            "free cells",
            "use a grid of at most 64 cells, or leave `free` out",
        );
    }
    let mut order: Vec<u8> = Vec::new();
    for t in through {
        let value = match t.node.as_str() {
            "empty" => Some(content::EMPTY),
            n => scope.states.iter().position(|s| s.node == n).map(content::state),
        };
        match value {
            None => {
                let mut names: Vec<&str> = scope.states.iter().map(|s| s.node.as_str()).collect();
                names.push("empty");
                ctx.unknown("state", t, &names);
            }
            Some(v) if order.contains(&v) => ctx.err(
                Code::E0002,
                t.span,
                format!("`{}` comes twice in the cycle", t.node),
                "again here",
                "name each state once",
            ),
            Some(v) => order.push(v),
        }
    }
    let around = neighbours.map(|d| travel::directions(ctx, d, scope.layout));
    Some(MoveKind::Cycle { free, order: CycleOrder::new(&order), around })
}

/// A `place`ment of a player's own piece, perhaps capturing flanked lines on a grid.
fn place(ctx: &mut Ctx, sp: Span, capturing: Option<&ast::Int>, scope: &Scope) -> Option<MoveKind> {
    if !scope.piece.per_player {
        ctx.err(
            Code::E0006,
            sp,
            "placing puts down a player's own piece",
            "a placement",
            format!("give each player their own pieces: `pieces {} per player`", scope.piece.name.node),
        );
    }
    match capturing {
        None => Some(MoveKind::Place { capture: None }),
        Some(directions) => {
            if !matches!(scope.layout, Layout::Grid(_)) {
                ctx.err(
                    Code::E0006,
                    sp,
                    "placing with capture is supported on grids only",
                    "a placement",
                    "on a line, use `place` without capturing, or `slide`",
                );
                return None;
            }
            if directions.node != 4 && directions.node != 8 {
                ctx.err(
                    Code::E0005,
                    directions.span,
                    format!("captures run in 4 or 8 directions, not {}", directions.node),
                    "directions",
                    "write `in 8 directions` (with diagonals) or `in 4 directions`",
                );
            }
            Some(MoveKind::Place { capture: Some(directions.node as u8) })
        }
    }
}

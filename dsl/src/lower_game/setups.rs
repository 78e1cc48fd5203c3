//! A game's setups: fixed ones (pieces, states or heap sizes, named when there are several),
//! or one dealt at random under the file's constraints.

use super::statements::{FixedRef, SetupRef};
use super::{place_pieces, quantity, Ctx, MAX_DEALT, MAX_SEEDS};
use crate::ast;
use crate::model::*;
use crate::Code;
use crate::Span;

/// What the setups need to know of the rest of the game.
pub(super) struct Scope<'s> {
    pub players: &'s [ast::Ident],
    pub piece: &'s PieceDef,
    pub states: &'s [ast::Ident],
    pub layout: &'s Layout,
}

/// The setups: fixed ones, or a deal at random where the game's shared pieces have no fixed
/// start (with `setup random`'s constraints, or none).
pub(super) fn lower(
    ctx: &mut Ctx,
    fixed_setups: &[(Span, FixedRef)],
    setup: Option<(Span, SetupRef)>,
    scope: &Scope,
    find_player: &dyn Fn(&mut Ctx, &ast::Ident) -> Option<usize>,
    check_piece: &dyn Fn(&mut Ctx, &ast::Ident),
) -> Setups {
    let setups = fixed_ones(ctx, fixed_setups, scope);
    let require = dealt(ctx, fixed_setups, setup, scope, find_player, check_piece);
    // Shared pieces are dealt unless a setup places them: a fixed setup of a line's shared
    // pieces places every one (E0005 above), and only a line has them.
    if setups.is_empty() && scope.piece.count > 0 {
        Setups::Random { require }
    } else {
        Setups::Fixed(setups)
    }
}

/// The fixed setups, the first of them the start when nobody chooses.
fn fixed_ones(ctx: &mut Ctx, fixed_setups: &[(Span, FixedRef)], scope: &Scope) -> Vec<SetupDef> {
    let mut setups: Vec<SetupDef> = Vec::new();
    for (sp, (name, placements, _, _)) in fixed_setups {
        let placed = place_pieces(ctx, scope.players, scope.piece, scope.states, scope.layout, placements);
        let pieces_ok = scope.piece.per_player || scope.piece.count == 0 || !matches!(scope.layout, Layout::Line(_));
        if !pieces_ok && placed.shared.len() != scope.piece.count as usize {
            ctx.err(
                Code::E0005,
                *sp,
                format!("the setup places {} of the {} pieces", placed.shared.len(), scope.piece.count),
                "fixed setup",
                format!("place every piece: `{} at ...` with {} cells", scope.piece.name.node, scope.piece.count),
            );
        }
        if fixed_setups.len() > 1 && name.is_none() {
            ctx.err(
                Code::E0005,
                *sp,
                "a game with several setups names each, so the player can choose",
                "no name",
                "write `setup fixed \"1\" { ... }`",
            );
        }
        if let Some(prev) =
            setups.iter().find(|d| d.name.as_ref().zip(name.as_ref()).is_some_and(|(a, b)| a.node == b.node))
        {
            let first = prev.span;
            ctx.duplicate(&format!("setup \"{}\"", name.as_ref().map_or("", |n| n.node.as_str())), first, *sp);
        }
        setups.push(SetupDef {
            name: (*name).clone(),
            pieces: placed.owned,
            kinds: placed.kinds,
            shared: placed.shared,
            states: placed.states,
            heaps: Vec::new(),
            span: *sp,
        });
    }
    if let Some((sp, (_, _, heaps, pits))) = fixed_setups.first() {
        let sp = *sp;
        // `pits N` off a board of pits is reported; the sizes are then not checked again.
        let Some(heaps) = &pit_sizes(ctx, scope.layout, heaps, pits) else {
            return setups;
        };
        if fixed_setups.len() > 1 && matches!(scope.layout, Layout::Heaps(_)) {
            ctx.err(
                Code::E0006,
                fixed_setups[1].0,
                "several setups are supported on lines and grids",
                "a second setup",
                "keep one `setup fixed { heaps ... }`",
            );
        }
        match scope.layout {
            Layout::Heaps(h) => {
                if heaps.len() != h.heaps as usize {
                    ctx.err(
                        Code::E0005,
                        sp,
                        format!("the setup gives {} heap sizes for {} heaps", heaps.len(), h.heaps),
                        "fixed setup",
                        format!("give one size per heap: `heaps {}`", vec!["3"; h.heaps as usize].join(", ")),
                    );
                }
                setups[0].heaps = super::heap_sizes(ctx, scope.layout, sp, heaps);
            }
            _ => {
                if let Some(n) = heaps.first() {
                    ctx.err(Code::E0006, n.span, "only heaps have sizes", "heap sizes", "write `board heaps N`");
                }
            }
        }
    } else if let Layout::Heaps(h) = scope.layout {
        ctx.err(
            Code::E0003,
            h.span,
            "heaps need their sizes at the start",
            "no fixed setup",
            "add, for example: `setup fixed { heaps 3, 4, 5 }`",
        );
    }
    setups
}

/// A random setup's constraints (none for a fixed start).
fn dealt(
    ctx: &mut Ctx,
    fixed_setups: &[(Span, FixedRef)],
    setup: Option<(Span, SetupRef)>,
    scope: &Scope,
    find_player: &dyn Fn(&mut Ctx, &ast::Ident) -> Option<usize>,
    check_piece: &dyn Fn(&mut Ctx, &ast::Ident),
) -> Vec<Constraint> {
    // Setup constraints.
    if let Layout::Line(l) = scope.layout {
        if l.cells > MAX_DEALT && scope.piece.count > 0 && !scope.piece.per_player && fixed_setups.is_empty() {
            let sp = setup.map_or(l.span, |(sp, _)| sp);
            ctx.err(
                Code::E0006,
                sp,
                format!("a start is dealt at random on lines of at most {MAX_DEALT} cells, not {}", l.cells),
                "dealt at random",
                "give the start: `setup fixed { ... }`",
            );
        }
    }
    let mut constraints = Vec::new();
    if let (Some((fixed_span, _)), Some((random_span, _))) = (fixed_setups.first(), setup) {
        let fixed_span = *fixed_span;
        let (first, again) =
            if fixed_span.start < random_span.start { (fixed_span, random_span) } else { (random_span, fixed_span) };
        ctx.duplicate("setup", first, again);
    }
    if let Some((sp, (kind, requires))) = setup {
        if kind.node != "random" {
            ctx.err(Code::E0006, kind.span, "only `setup random` is supported", "here", "write `setup random { ... }`");
        } else if !matches!(scope.layout, Layout::Line(_)) || scope.piece.per_player {
            ctx.err(
                Code::E0006,
                sp,
                "a random setup deals shared pieces on a line",
                "random setup",
                "give the start: `setup fixed { ... }`",
            );
        }
        for r in requires.iter() {
            match &r.node {
                ast::Require::Winnable { player } => {
                    if let Some(p) = find_player(ctx, player) {
                        constraints.push(Constraint::Winnable { player: p, span: r.span });
                    }
                }
                ast::Require::Compare { lhs, op, rhs } => {
                    let l = quantity(ctx, lhs, check_piece);
                    let rr = quantity(ctx, rhs, check_piece);
                    if let (Some(lhs), Some(rhs)) = (l, rr) {
                        constraints.push(Constraint::Compare { lhs, op: op.node, rhs, span: r.span });
                    }
                }
            }
        }
    }
    constraints
}

/// A fixed setup's heap sizes: as listed, or on pits `pits N`, N in every pit and none in the
/// stores.
fn pit_sizes(ctx: &mut Ctx, layout: &Layout, heaps: &[ast::Int], pits: &Option<ast::Int>) -> Option<Vec<ast::Int>> {
    let Some(n) = pits else { return Some(heaps.to_vec()) };
    let Layout::Heaps(HeapsBoard { pits: Some(ring), .. }) = layout else {
        ctx.err(Code::E0006, n.span, "only a board of pits has pits", "pit sizes", "write `board pits 6 per side`");
        return None;
    };
    if let Some(h) = heaps.first() {
        ctx.err(Code::E0006, h.span, "the setup gives both pits and heap sizes", "heap sizes", "keep one of them");
    }
    let side = (0..ring.side()).map(|k| if k < ring.per_side { n.clone() } else { ast::Int::new(0, n.span) });
    Some(side.clone().chain(side).collect())
}

/// On pits, every counter of the board fits a pit's byte: at most [`MAX_SEEDS`] in all.
pub(super) fn seeds_fit(ctx: &mut Ctx, sp: Span, heaps: &[ast::Int]) {
    let total: u64 = heaps.iter().map(|n| u64::from(n.node)).sum();
    if total > u64::from(MAX_SEEDS) {
        ctx.err(
            Code::E0005,
            sp,
            format!("the pits hold {total} counters in all, more than the {MAX_SEEDS} a board of pits may hold"),
            "too many counters",
            "put fewer counters in each pit",
        );
    }
}

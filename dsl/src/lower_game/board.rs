//! What a game is played on and with: its board (a line, a grid perhaps cut, heaps), its
//! regions, the states a cell may hold, and its pieces.

use super::statements::PiecesRef;
use super::{cell_index, example_pieces, travel, Ctx, MAX_CELLS, MAX_GRID, MAX_HEAPS, MAX_PITS};
use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
use crate::Span;

/// The `board` statement (`cards`: a game of cards needs none).
pub(super) fn layout(
    ctx: &mut Ctx,
    board: Option<(Span, &ast::BoardShape)>,
    game: &ast::Game,
    cards: bool,
    missing: &dyn Fn(&mut Ctx, &str, &str),
) -> Layout {
    match board {
        Some((sp, ast::BoardShape::Line { cells, numbered_from })) => {
            if cells.node < 2 || cells.node > MAX_CELLS {
                ctx.err(
                    Code::E0005,
                    cells.span,
                    format!("a line has 2 to {MAX_CELLS} cells, not {}", cells.node),
                    "out of range",
                    format!("use a number from 2 to {MAX_CELLS}"),
                );
            }
            Layout::Line(LineBoard {
                cells: cells.node.clamp(2, MAX_CELLS),
                numbered_from_right: numbered_from.as_ref().is_some_and(|s| s.node == "right"),
                span: sp,
            })
        }
        Some((sp, ast::BoardShape::Grid { cols, rows, cut })) => {
            for n in [cols, rows] {
                if !(2..=MAX_GRID).contains(&n.node) {
                    ctx.err(
                        Code::E0005,
                        n.span,
                        format!("a grid has 2 to {MAX_GRID} columns and rows, not {}", n.node),
                        "out of range",
                        format!("use a number from 2 to {MAX_GRID}"),
                    );
                }
            }
            let grid = GridBoard {
                cols: cols.node.clamp(2, MAX_GRID),
                rows: rows.node.clamp(2, MAX_GRID),
                cut: Vec::new(),
                span: sp,
            };
            Layout::Grid(travel::cut_away(ctx, grid, cut))
        }
        Some((sp, ast::BoardShape::Heaps { heaps })) => {
            if !(1..=MAX_HEAPS).contains(&heaps.node) {
                ctx.err(
                    Code::E0005,
                    heaps.span,
                    format!("a game has 1 to {MAX_HEAPS} heaps, not {}", heaps.node),
                    "out of range",
                    format!("use a number from 1 to {MAX_HEAPS}"),
                );
            }
            Layout::Heaps(HeapsBoard { heaps: heaps.node.clamp(1, MAX_HEAPS), pits: None, span: sp })
        }
        Some((sp, ast::BoardShape::Pits { per_side, stores })) => {
            if !(1..=MAX_PITS).contains(&per_side.node) {
                ctx.err(
                    Code::E0005,
                    per_side.span,
                    format!("a side has 1 to {MAX_PITS} pits, not {}", per_side.node),
                    "out of range",
                    format!("use a number from 1 to {MAX_PITS}"),
                );
            }
            let pits = PitsBoard { per_side: per_side.node.clamp(1, MAX_PITS), stores: *stores };
            Layout::Heaps(HeapsBoard { heaps: 2 * pits.side(), pits: Some(pits), span: sp })
        }
        None => {
            if !cards {
                missing(ctx, "board", "board line 12");
            }
            Layout::Line(LineBoard { cells: 2, numbered_from_right: false, span: game.name.span })
        }
    }
}

/// The `region` statements, each a set of cells named once.
pub(super) fn regions(
    ctx: &mut Ctx,
    regions_ast: &[(Span, &ast::Ident, &Vec<ast::Ident>)],
    layout: &Layout,
) -> Vec<RegionDef> {
    let mut regions: Vec<RegionDef> = Vec::new();
    for (sp, name, cell_names) in regions_ast {
        if let Some(prev) = regions.iter().find(|r| r.name.node == name.node) {
            let first = prev.name.span;
            ctx.duplicate(&format!("region {}", name.node), first, name.span);
            continue;
        }
        // Heaps that are not pits have no cells to name: said once a region, not a cell.
        if let (Layout::Heaps(HeapsBoard { pits: None, .. }), Some(first)) = (layout, cell_names.first()) {
            let help = "a region names cells of a line or a grid, or pits of `board pits N per side`";
            ctx.err(Code::E0006, first.span, "heaps have no cells to gather in a region", "a cell", help);
            continue;
        }
        let mut at: Vec<u8> = Vec::new();
        for c in cell_names.iter() {
            if let Some(i) = cell_index(ctx, c, layout) {
                if !at.contains(&i) {
                    at.push(i);
                }
            }
        }
        regions.push(RegionDef { name: (*name).clone(), cells: at, span: *sp });
    }
    regions
}

/// The `states` statement: names that clash with nothing, at most `content::MAX_STATES`.
pub(super) fn states(
    ctx: &mut Ctx,
    states_item: Option<(Span, &Vec<ast::Ident>)>,
    players: &[ast::Ident],
    pieces: Option<(Span, PiecesRef)>,
) -> Vec<ast::Ident> {
    let mut states: Vec<ast::Ident> = Vec::new();
    for name in states_item.map(|(_, s)| s.as_slice()).unwrap_or_default() {
        let clash = ["empty", "any", "mover", "next"].contains(&name.node.as_str())
            || players.iter().any(|p| p.node == name.node)
            || pieces.is_some_and(|(_, (kind, kinds, _))| {
                kind.node == name.node || kinds.iter().any(|k| k.node == name.node)
            });
        if clash {
            ctx.err(
                Code::E0005,
                name.span,
                format!("`{}` already names something else", name.node),
                "taken",
                "give the state a name of its own, not a player's, the piece's, `empty` or `any`",
            );
        } else if let Some(prev) = states.iter().find(|s| s.node == name.node) {
            let first = prev.span;
            ctx.duplicate(&format!("state {}", name.node), first, name.span);
        } else if states.len() == content::MAX_STATES {
            ctx.err(
                Code::E0005,
                name.span,
                format!("a game declares at most {} states", content::MAX_STATES),
                "one too many",
                "use fewer states",
            );
        } else {
            states.push(name.clone());
        }
    }
    states
}

/// The `pieces` statement, checked against the board (`slides_any`: some action slides).
#[allow(clippy::too_many_arguments)] // the statement, then what it is checked against
pub(super) fn piece(
    ctx: &mut Ctx,
    pieces: Option<(Span, PiecesRef)>,
    layout: &Layout,
    states: &[ast::Ident],
    slides_any: bool,
    game: &ast::Game,
    cards: bool,
    missing: &dyn Fn(&mut Ctx, &str, &str),
) -> PieceDef {
    let cells = layout.cells();
    let piece = match pieces {
        Some((_, (kind, _, ast::Supply::Shared(count)))) => {
            if !matches!(layout, Layout::Line(_)) {
                ctx.err(
                    Code::E0006,
                    count.span,
                    "a fixed number of shared pieces is supported on lines only",
                    "shared pieces",
                    match layout {
                        Layout::Heaps(_) => format!("heaps hold counters: `pieces {}`", kind.node),
                        _ => format!("on a grid, give each player their own: `pieces {} per player`", kind.node),
                    },
                );
            } else if count.node == 0 || count.node > cells || (count.node == cells && slides_any) {
                // Pieces that slide need an empty cell to go to; pins knocked down do not.
                ctx.err(
                    Code::E0005,
                    count.span,
                    format!("{} pieces do not fit on a line of {cells} cells with room to move", count.node),
                    "piece count",
                    format!("use 1 to {} pieces", cells - 1),
                );
            }
            PieceDef {
                name: kind.clone(),
                count: count.node.clamp(1, cells.max(1)),
                per_player: false,
                kinds: Vec::new(),
            }
        }
        Some((sp, (kind, kinds, ast::Supply::PerPlayer))) => {
            if matches!(layout, Layout::Heaps(_)) {
                ctx.err(
                    Code::E0006,
                    sp,
                    "heaps hold counters that belong to nobody",
                    "per player",
                    format!("write `pieces {}`", kind.node),
                );
            }
            PieceDef { name: kind.clone(), count: 0, per_player: true, kinds: travel::kinds(ctx, kind, kinds) }
        }
        Some((sp, (kind, _, ast::Supply::Counters))) => {
            if !matches!(layout, Layout::Heaps(_)) {
                ctx.err(
                    Code::E0006,
                    sp,
                    "pieces on cells need an owner or a number",
                    "how many, whose?",
                    format!("write `pieces {0} per player` or `pieces {0} x 5`", kind.node),
                );
            }
            PieceDef { name: kind.clone(), count: 0, per_player: false, kinds: Vec::new() }
        }
        // A game whose cells hold only states has no pieces.
        None if !states.is_empty() => PieceDef {
            name: Spanned::new(String::new(), game.name.span),
            count: 0,
            per_player: false,
            kinds: Vec::new(),
        },
        None => {
            if !cards {
                missing(ctx, "pieces", &example_pieces(layout));
            }
            PieceDef {
                name: Spanned::new(String::new(), game.name.span),
                count: 1,
                per_player: false,
                kinds: Vec::new(),
            }
        }
    };
    if let Some((_, (_, kinds, supply))) = pieces {
        if !kinds.is_empty() && !matches!(supply, ast::Supply::PerPlayer) {
            let names: Vec<&str> = kinds.iter().map(|k| k.node.as_str()).collect();
            ctx.err(
                Code::E0006,
                kinds[0].span,
                "kinds of piece belong to players",
                "a further kind",
                format!("give each player their own: `pieces {}, {} per player`", piece.name.node, names.join(", ")),
            );
        }
    }
    piece
}

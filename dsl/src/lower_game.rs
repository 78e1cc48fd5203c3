//! Resolution of a game's syntax tree into a [`GameDef`]: names, types and required items.

use crate::ast::{self, Spanned};
use crate::model::*;
use crate::{thousands, Diagnostic, FileId, Label, Span};

/// Widest line the runtime's cell sets hold.
pub const MAX_CELLS: u32 = 64;
/// The longest line whose start is dealt at random: every placement is listed to deal one.
pub const MAX_DEALT: u32 = 16;
/// Widest and tallest grid: one 64-bit board.
pub const MAX_GRID: u32 = 16;

/// Most heaps, and most counters in one heap.
pub const MAX_HEAPS: u32 = 8;
pub const MAX_HEAP: u32 = 31;

mod controls;
mod feedback;
mod travel;

/// `D5` on a grid: column letter from A, row number from 1, as a cell index row * stride +
/// column.
fn grid_cell(name: &str, layout: &Layout) -> Option<u8> {
    let Layout::Grid(g) = layout else { return None };
    let col = name.as_bytes()[0].checked_sub(b'A')? as u32;
    let row = name[1..].parse::<u32>().ok()?.checked_sub(1)?;
    // Lazily: a row past the grid (`A4294967295`) would overflow the multiplication.
    (col < g.cols && row < g.rows).then(|| (row * g.stride() + col) as u8)
}

/// A cell as a file writes it: `D5` on a grid, a number from 1 on a line; its index.
fn cell_index(ctx: &mut Ctx, c: &ast::Ident, layout: &Layout) -> Option<u8> {
    match layout {
        Layout::Grid(g) => {
            let found = c.node.as_bytes()[0].is_ascii_uppercase().then(|| grid_cell(&c.node, layout)).flatten();
            if found.is_none() {
                ctx.err(
                    "E0005",
                    c.span,
                    format!("`{}` is not a cell of a {} x {} grid", c.node, g.cols, g.rows),
                    "no such cell",
                    format!("columns are A to {}, rows 1 to {}", (b'A' + g.cols as u8 - 1) as char, g.rows),
                );
            }
            if found.is_some_and(|i| g.cut.contains(&i)) {
                ctx.err(
                    "E0005",
                    c.span,
                    format!("`{}` is cut away from the board", c.node),
                    "not on the board",
                    "use a cell the board keeps",
                );
                return None;
            }
            found
        }
        Layout::Line(l) => {
            let found = c.node.parse::<u32>().ok().filter(|n| (1..=l.cells).contains(n)).map(|n| (n - 1) as u8);
            if found.is_none() {
                ctx.err(
                    "E0005",
                    c.span,
                    format!("`{}` is not a cell of a line of {}", c.node, l.cells),
                    "no such cell",
                    format!("cells of a line are numbered 1 to {}", l.cells),
                );
            }
            found
        }
        Layout::Heaps(_) => {
            ctx.err("E0006", c.span, "heaps have no cells", "a cell", "set the heaps' sizes with `heaps 3, 4, 5`");
            None
        }
    }
}

struct Ctx {
    file: FileId,
    diags: Vec<Diagnostic>,
}

impl Ctx {
    fn err(&mut self, code: &'static str, span: Span, msg: impl Into<String>, label: &str, help: impl Into<String>) {
        self.diags
            .push(Diagnostic::error(code, msg).with_label(Label::primary(self.file, span, label)).with_help(help));
    }

    fn duplicate(&mut self, what: &str, first: Span, again: Span) {
        self.diags.push(
            Diagnostic::error("E0002", format!("`{what}` is given twice"))
                .with_label(Label::primary(self.file, again, "given again here"))
                .with_label(Label::secondary(self.file, first, "first given here"))
                .with_help(format!("keep one `{what}` statement")),
        );
    }

    /// Reports a removal's range whose upper bound is below its lower one; true if it is.
    fn empty_removal(&mut self, min: &ast::Int, max: Option<&ast::Int>) -> bool {
        let Some(max) = max.filter(|m| m.node < min.node) else { return false };
        self.err(
            "E0005",
            max.span,
            "the range is empty",
            "smaller than the lower bound",
            format!("write `remove {}..{}` or leave the upper bound out", min.node, min.node),
        );
        true
    }

    fn unknown(&mut self, kind: &str, name: &ast::Ident, known: &[&str]) {
        let help = if known.is_empty() {
            format!("declare the {kind} first")
        } else {
            format!("the {kind}s declared are: {}", known.join(", "))
        };
        self.err(
            "E0004",
            name.span,
            format!("unknown {kind} `{}`", name.node),
            &format!("no {kind} of this name"),
            help,
        );
    }
}

/// Keeps the first of a statement that may appear once, reporting the others.
fn once<T>(ctx: &mut Ctx, what: &str, slot: &mut Option<(Span, T)>, span: Span, value: T) {
    match slot {
        Some((first, _)) => {
            let first = *first;
            ctx.duplicate(what, first, span)
        }
        None => *slot = Some((span, value)),
    }
}

/// A `pieces` statement: the piece, its further kinds, and who has how many.
type PiecesRef<'a> = (&'a ast::Ident, &'a Vec<ast::Ident>, &'a ast::Supply);
type FixedRef<'a> = (&'a Option<Spanned<String>>, &'a Vec<ast::Placement>, &'a Vec<ast::Int>);
type GroupRef<'a> = (&'a ast::Ident, &'a ast::Int, &'a Vec<Spanned<ast::GroupRule>>);
type SetupRef<'a> = (&'a ast::Ident, &'a Vec<Spanned<ast::Require>>);
type StrategyRef<'a> = (&'a ast::Ident, &'a ast::Ident, &'a Option<ast::Ident>, bool, bool);

pub fn lower(file: FileId, game: &ast::Game) -> Result<GameDef, Vec<Diagnostic>> {
    let mut ctx = Ctx { file, diags: Vec::new() };
    let mut players: Option<(Span, &Vec<ast::Ident>)> = None;
    let mut first: Option<(Span, &ast::Ident)> = None;
    let mut board: Option<(Span, &ast::BoardShape)> = None;
    let mut pieces: Option<(Span, PiecesRef)> = None;
    let mut promotions = Vec::new();
    let mut setup: Option<(Span, SetupRef)> = None;
    let mut end: Option<(Span, &Vec<ast::Ending>)> = None;
    let mut pass: Option<(Span, ())> = None;
    let mut fixed_setups: Vec<(Span, FixedRef)> = Vec::new();
    let mut states_item: Option<(Span, &Vec<ast::Ident>)> = None;
    let mut regions_ast = Vec::new();
    let mut tests_ast = Vec::new();
    let mut strategy: Option<(Span, StrategyRef)> = None;
    let mut eval: Option<(Span, &Vec<ast::EvalCase>)> = None;
    let mut controls: Option<(Span, &Vec<Spanned<ast::ControlItem>>)> = None;
    let mut feedback: Option<(Span, &Vec<Spanned<ast::FeedbackItem>>)> = None;
    let mut serial_controls: Option<(Span, &Vec<ast::Command>)> = None;
    let mut serial_feedback: Option<(Span, &Vec<Spanned<ast::SerialFeedbackItem>>)> = None;
    let mut actions = Vec::new();
    let mut tunes_ast = Vec::new();
    let mut fonts_ast: Vec<&ast::Glyph> = Vec::new();
    let mut cards_ast: Option<(Span, &Vec<ast::Attribute>)> = None;
    let mut table_ast: Option<(Span, (&ast::Int, &ast::Int, &ast::Int))> = None;
    let mut group_ast: Option<(Span, GroupRef)> = None;

    for item in &game.items {
        let sp = item.span;
        match &item.node {
            ast::GameItem::Players(p) => once(&mut ctx, "players", &mut players, sp, p),
            ast::GameItem::First(f) => once(&mut ctx, "first", &mut first, sp, f),
            ast::GameItem::Board(b) => once(&mut ctx, "board", &mut board, sp, b),
            ast::GameItem::Region { name, cells } => regions_ast.push((sp, name, cells)),
            ast::GameItem::Pieces { kind, kinds, supply } => {
                once(&mut ctx, "pieces", &mut pieces, sp, (kind, kinds, supply))
            }
            ast::GameItem::Promote { from, to, on } => promotions.push((sp, from, to, on)),
            ast::GameItem::Setup { kind, requires } => once(&mut ctx, "setup", &mut setup, sp, (kind, requires)),
            ast::GameItem::End(endings) => once(&mut ctx, "end", &mut end, sp, endings),
            ast::GameItem::Pass => once(&mut ctx, "pass", &mut pass, sp, ()),
            ast::GameItem::FixedSetup { name, placements, heaps, .. } => {
                fixed_setups.push((sp, (name, placements, heaps)))
            }
            ast::GameItem::States(s) => once(&mut ctx, "states", &mut states_item, sp, s),
            ast::GameItem::Eval(cases) => once(&mut ctx, "eval", &mut eval, sp, cases),
            ast::GameItem::Strategy { player, kind, ties, deepening, order_by_eval } => {
                once(&mut ctx, "strategy", &mut strategy, sp, (player, kind, ties, *deepening, *order_by_eval))
            }
            ast::GameItem::Controls(c) => once(&mut ctx, "controls", &mut controls, sp, c),
            ast::GameItem::Feedback(f) => once(&mut ctx, "feedback", &mut feedback, sp, f),
            ast::GameItem::SerialControls(c) => once(&mut ctx, "controls serial", &mut serial_controls, sp, c),
            ast::GameItem::SerialFeedback(f) => once(&mut ctx, "feedback serial", &mut serial_feedback, sp, f),
            ast::GameItem::Action { name, mechanic } => actions.push((sp, name, mechanic)),
            ast::GameItem::Tune { name, notes } => tunes_ast.push((name, notes)),
            ast::GameItem::Test(t) => tests_ast.push(t),
            ast::GameItem::Font(glyphs) => fonts_ast.extend(glyphs.iter()),
            ast::GameItem::Cards(attrs) => once(&mut ctx, "cards", &mut cards_ast, sp, attrs),
            ast::GameItem::Table { capacity, rows, cols } => {
                once(&mut ctx, "table", &mut table_ast, sp, (capacity, rows, cols))
            }
            ast::GameItem::Group { name, size, rules } => {
                once(&mut ctx, "group", &mut group_ast, sp, (name, size, rules))
            }
        }
    }

    let missing = |ctx: &mut Ctx, what: &str, example: &str| {
        ctx.diags.push(
            Diagnostic::error("E0003", format!("game `{}` has no `{what}` statement", game.name.node))
                .with_label(Label::primary(file, game.name.span, format!("`{what}` is required")))
                .with_help(format!("add, for example: `{example}`")),
        );
    };

    // Players and turn order.
    let player_list: Vec<ast::Ident> = match players {
        Some((sp, p)) => {
            if p.len() > 2 {
                ctx.err(
                    "E0005",
                    sp,
                    format!("a game has one player (a puzzle) or two, found {}", p.len()),
                    "here",
                    "write `players human, device`",
                );
            }
            for (i, a) in p.iter().enumerate() {
                if p[..i].iter().any(|b| b.node == a.node) {
                    ctx.err(
                        "E0002",
                        a.span,
                        format!("player `{}` is named twice", a.node),
                        "again here",
                        "give each player its own name",
                    );
                }
            }
            p.clone()
        }
        None => {
            if cards_ast.is_none() {
                missing(&mut ctx, "players", "players human, device");
            }
            Vec::new()
        }
    };
    let player_names: Vec<&str> = player_list.iter().map(|p| p.node.as_str()).collect();
    let find_player = |ctx: &mut Ctx, name: &ast::Ident| -> Option<usize> {
        if name.node == "first" {
            return first.and_then(|(_, f)| player_list.iter().position(|p| p.node == f.node));
        }
        let found = player_list.iter().position(|p| p.node == name.node);
        if found.is_none() {
            ctx.unknown("player", name, &player_names);
        }
        found
    };
    let first_index = match first {
        Some((_, f)) => find_player(&mut ctx, f).unwrap_or(0),
        // A puzzle's one player always moves.
        None if player_list.len() == 1 => 0,
        None => {
            if cards_ast.is_none() {
                missing(&mut ctx, "first", "first human");
            }
            0
        }
    };

    // The board.
    let layout = match board {
        Some((sp, ast::BoardShape::Line { cells, numbered_from })) => {
            if cells.node < 2 || cells.node > MAX_CELLS {
                ctx.err(
                    "E0005",
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
                        "E0005",
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
            Layout::Grid(travel::cut_away(&mut ctx, grid, cut))
        }
        Some((sp, ast::BoardShape::Heaps { heaps })) => {
            if !(1..=MAX_HEAPS).contains(&heaps.node) {
                ctx.err(
                    "E0005",
                    heaps.span,
                    format!("a game has 1 to {MAX_HEAPS} heaps, not {}", heaps.node),
                    "out of range",
                    format!("use a number from 1 to {MAX_HEAPS}"),
                );
            }
            Layout::Heaps(HeapsBoard { heaps: heaps.node.clamp(1, MAX_HEAPS), span: sp })
        }
        None => {
            if cards_ast.is_none() {
                missing(&mut ctx, "board", "board line 12");
            }
            Layout::Line(LineBoard { cells: 2, numbered_from_right: false, span: game.name.span })
        }
    };
    let cells = layout.cells();

    // Regions.
    let mut regions: Vec<RegionDef> = Vec::new();
    for (sp, name, cell_names) in &regions_ast {
        if let Some(prev) = regions.iter().find(|r| r.name.node == name.node) {
            let first = prev.name.span;
            ctx.duplicate(&format!("region {}", name.node), first, name.span);
            continue;
        }
        let mut at: Vec<u8> = Vec::new();
        for c in cell_names.iter() {
            if let Some(i) = cell_index(&mut ctx, c, &layout) {
                if !at.contains(&i) {
                    at.push(i);
                }
            }
        }
        regions.push(RegionDef { name: (*name).clone(), cells: at, span: *sp });
    }

    // States a cell may hold.
    let mut states: Vec<ast::Ident> = Vec::new();
    for name in states_item.map(|(_, s)| s.as_slice()).unwrap_or_default() {
        let clash = ["empty", "any", "mover", "next"].contains(&name.node.as_str())
            || player_list.iter().any(|p| p.node == name.node)
            || pieces.is_some_and(|(_, (kind, kinds, _))| {
                kind.node == name.node || kinds.iter().any(|k| k.node == name.node)
            });
        if clash {
            ctx.err(
                "E0005",
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
                "E0005",
                name.span,
                format!("a game declares at most {} states", content::MAX_STATES),
                "one too many",
                "use fewer states",
            );
        } else {
            states.push(name.clone());
        }
    }

    // Pieces.
    let slides_any = actions.iter().any(|(_, _, m)| matches!(m, ast::Mechanic::Slide { .. }));
    let piece = match pieces {
        Some((_, (kind, _, ast::Supply::Shared(count)))) => {
            if !matches!(layout, Layout::Line(_)) {
                ctx.err(
                    "E0006",
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
                    "E0005",
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
                    "E0006",
                    sp,
                    "heaps hold counters that belong to nobody",
                    "per player",
                    format!("write `pieces {}`", kind.node),
                );
            }
            PieceDef { name: kind.clone(), count: 0, per_player: true, kinds: travel::kinds(&mut ctx, kind, kinds) }
        }
        Some((sp, (kind, _, ast::Supply::Counters))) => {
            if !matches!(layout, Layout::Heaps(_)) {
                ctx.err(
                    "E0006",
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
            if cards_ast.is_none() {
                missing(&mut ctx, "pieces", &example_pieces(&layout));
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
                "E0006",
                kinds[0].span,
                "kinds of piece belong to players",
                "a further kind",
                format!("give each player their own: `pieces {}, {} per player`", piece.name.node, names.join(", ")),
            );
        }
    }
    let promotions = travel::promotions(&mut ctx, &piece, &regions, &promotions);
    let check_piece = |ctx: &mut Ctx, name: &ast::Ident| {
        if pieces.is_some() && name.node != piece.name.node {
            ctx.unknown("piece", name, &[piece.name.node.as_str()]);
        }
    };

    let end_scope = EndScope {
        per_player: piece.per_player,
        players: &player_list,
        piece: &piece.name.node,
        states: &states,
        regions: &regions,
        layout: &layout,
        pass: pass.is_some(),
    };

    // Actions.
    let mut slides: Vec<SlideDef> = Vec::new();
    let mut places: Vec<PlaceDef> = Vec::new();
    let mut moves: Vec<MoveDef> = Vec::new();
    let mut action_names: Vec<&ast::Ident> = Vec::new();
    for (sp, name, mechanic) in &actions {
        if let Some(prev) = action_names.iter().find(|n| n.node == name.node) {
            let first = prev.span;
            ctx.duplicate(&format!("action {}", name.node), first, name.span);
            continue;
        }
        action_names.push(name);
        let kind = match mechanic {
            ast::Mechanic::Slide { piece: p, toward, min, max, over_empty } => {
                check_piece(&mut ctx, p);
                let Layout::Line(line) = &layout else {
                    ctx.err(
                        "E0006",
                        *sp,
                        "slides are supported on lines only",
                        "a slide",
                        "on a grid, use `place` or `drop`; on heaps, `remove`",
                    );
                    continue;
                };
                if piece.per_player {
                    ctx.err(
                        "E0006",
                        *sp,
                        "slides move shared pieces",
                        "a slide",
                        format!("give the pieces a number: `pieces {} x 5`", piece.name.node),
                    );
                }
                if min.node == 0 {
                    ctx.err("E0005", min.span, "a slide moves at least one cell", "zero steps", "write `by 1..`");
                }
                if let Some(max) = max {
                    if max.node < min.node {
                        ctx.err(
                            "E0005",
                            max.span,
                            "the step range is empty",
                            "smaller than the lower bound",
                            format!("write `by {}..{}` or leave the upper bound out", min.node, min.node),
                        );
                    }
                }
                let slide = SlideDef {
                    name: (*name).clone(),
                    step: line.step_toward(toward.node == "right"),
                    min: min.node.max(1),
                    max: max.as_ref().map(|m| m.node.max(min.node.max(1))),
                    over_empty: *over_empty,
                    span: *sp,
                };
                let kind =
                    MoveKind::Slide { step: slide.step, min: slide.min, max: slide.max, over_empty: slide.over_empty };
                slides.push(slide);
                kind
            }
            ast::Mechanic::Cycle { free, neighbours, through } => {
                if matches!(layout, Layout::Heaps(_)) {
                    ctx.err("E0006", *sp, "heaps have no cells to cycle", "a cycle", "use `remove 1.. from heap`");
                    continue;
                }
                if *free && cells > 64 {
                    // The givens a `free` cycle passes by are a 64-bit set.
                    ctx.err(
                        "E0006",
                        *sp,
                        format!("`cycle free` keeps to boards of at most 64 cells, not {cells}"),
                        "free cells",
                        "use a grid of at most 64 cells, or leave `free` out",
                    );
                }
                let mut order: Vec<u8> = Vec::new();
                for t in through {
                    let value = match t.node.as_str() {
                        "empty" => Some(content::EMPTY),
                        n => states.iter().position(|s| s.node == n).map(content::state),
                    };
                    match value {
                        None => {
                            let mut names: Vec<&str> = states.iter().map(|s| s.node.as_str()).collect();
                            names.push("empty");
                            ctx.unknown("state", t, &names);
                        }
                        Some(v) if order.contains(&v) => ctx.err(
                            "E0002",
                            t.span,
                            format!("`{}` comes twice in the cycle", t.node),
                            "again here",
                            "name each state once",
                        ),
                        Some(v) => order.push(v),
                    }
                }
                let around = neighbours.as_ref().map(|d| travel::directions(&mut ctx, d, &layout));
                MoveKind::Cycle { free: *free, order: CycleOrder::new(&order), around }
            }
            ast::Mechanic::Place { piece: p, capturing, .. } => {
                check_piece(&mut ctx, p);
                if !piece.per_player {
                    ctx.err(
                        "E0006",
                        *sp,
                        "placing puts down a player's own piece",
                        "a placement",
                        format!("give each player their own pieces: `pieces {} per player`", piece.name.node),
                    );
                }
                match capturing {
                    None => MoveKind::Place { capture: None },
                    Some(directions) => {
                        if !matches!(layout, Layout::Grid(_)) {
                            ctx.err(
                                "E0006",
                                *sp,
                                "placing with capture is supported on grids only",
                                "a placement",
                                "on a line, use `place` without capturing, or `slide`",
                            );
                            continue;
                        }
                        if directions.node != 4 && directions.node != 8 {
                            ctx.err(
                                "E0005",
                                directions.span,
                                format!("captures run in 4 or 8 directions, not {}", directions.node),
                                "directions",
                                "write `in 8 directions` (with diagonals) or `in 4 directions`",
                            );
                        }
                        let directions = directions.node as u8;
                        places.push(PlaceDef { name: (*name).clone(), directions, span: *sp });
                        MoveKind::Place { capture: Some(directions) }
                    }
                }
            }
            ast::Mechanic::Drop { piece: p } => {
                check_piece(&mut ctx, p);
                if !matches!(layout, Layout::Grid(_)) || !piece.per_player {
                    ctx.err(
                        "E0006",
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
                check_piece(&mut ctx, p);
                match travel::adjacent(&mut ctx, *sp, min, max.as_ref(), &piece, &layout) {
                    Some(kind) => kind,
                    None => continue,
                }
            }
            ast::Mechanic::Remove { min, max, adjacent: None } => {
                if !matches!(layout, Layout::Heaps(_)) {
                    ctx.err("E0006", *sp, "only heaps have counters to remove", "a removal", "write `board heaps 3`");
                    continue;
                }
                if min.node == 0 {
                    ctx.err("E0005", min.span, "a removal takes at least one", "zero", "write `remove 1.. from heap`");
                } else if min.node > MAX_HEAP {
                    // The firmware keeps the bounds in bytes: 257 would have become 1.
                    ctx.err(
                        "E0005",
                        min.span,
                        format!("a heap holds at most {MAX_HEAP} counters, so no removal takes {}", min.node),
                        "more than a heap holds",
                        format!("take 1 to {MAX_HEAP}: `remove 1.. from heap`"),
                    );
                }
                ctx.empty_removal(min, max.as_ref());
                MoveKind::Remove { min: min.node.max(1), max: max.as_ref().map(|m| m.node.max(min.node.max(1))) }
            }
            ast::Mechanic::Travel { .. } => {
                match travel::travel(&mut ctx, *sp, mechanic, &piece, &layout, &promotions) {
                    Some(t) => MoveKind::Travel(t),
                    None => continue,
                }
            }
        };
        let must = matches!(mechanic, ast::Mechanic::Travel { must: true, .. });
        let condition = match mechanic {
            ast::Mechanic::Place { condition, .. } => lower_conditions(&mut ctx, &end_scope, condition),
            _ => Vec::new(),
        };
        moves.push(MoveDef { name: (*name).clone(), kind, must, condition, span: *sp });
    }
    // Actions that were declared but refused above already have their diagnostic.
    if action_names.is_empty() && cards_ast.is_none() {
        missing(&mut ctx, "action", &example_action(&layout, &piece.name.node));
    }

    // A fixed setup.
    let (mut fixed, mut fixed_shared) = (Vec::new(), Vec::new());
    let mut fixed_heaps = Vec::new();
    let mut setups: Vec<SetupDef> = Vec::new();
    for (sp, (name, placements, _)) in &fixed_setups {
        let placed = place_pieces(&mut ctx, &player_list, &piece, &states, &layout, placements);
        let pieces_ok = piece.per_player || piece.count == 0 || !matches!(layout, Layout::Line(_));
        if !pieces_ok && placed.shared.len() != piece.count as usize {
            ctx.err(
                "E0005",
                *sp,
                format!("the setup places {} of the {} pieces", placed.shared.len(), piece.count),
                "fixed setup",
                format!("place every piece: `{} at ...` with {} cells", piece.name.node, piece.count),
            );
        }
        if fixed_setups.len() > 1 && name.is_none() {
            ctx.err(
                "E0005",
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
        if setups.is_empty() {
            (fixed, fixed_shared) = (placed.owned.clone(), placed.shared.clone());
        }
        setups.push(SetupDef {
            name: (*name).clone(),
            pieces: placed.owned,
            kinds: placed.kinds,
            shared: placed.shared,
            states: placed.states,
            span: *sp,
        });
    }
    if let Some((sp, (_, _, heaps))) = fixed_setups.first() {
        let sp = *sp;
        if fixed_setups.len() > 1 && matches!(layout, Layout::Heaps(_)) {
            ctx.err(
                "E0006",
                fixed_setups[1].0,
                "several setups are supported on lines and grids",
                "a second setup",
                "keep one `setup fixed { heaps ... }`",
            );
        }
        match &layout {
            Layout::Heaps(h) => {
                if heaps.len() != h.heaps as usize {
                    ctx.err(
                        "E0005",
                        sp,
                        format!("the setup gives {} heap sizes for {} heaps", heaps.len(), h.heaps),
                        "fixed setup",
                        format!("give one size per heap: `heaps {}`", vec!["3"; h.heaps as usize].join(", ")),
                    );
                }
                for n in heaps.iter() {
                    if n.node > MAX_HEAP {
                        ctx.err(
                            "E0005",
                            n.span,
                            format!("a heap holds at most {MAX_HEAP} counters, not {}", n.node),
                            "too many",
                            format!("use 0 to {MAX_HEAP}"),
                        );
                    }
                    fixed_heaps.push(n.node.min(MAX_HEAP));
                }
            }
            _ => {
                if let Some(n) = heaps.first() {
                    ctx.err("E0006", n.span, "only heaps have sizes", "heap sizes", "write `board heaps N`");
                }
            }
        }
    } else if let Layout::Heaps(h) = &layout {
        ctx.err(
            "E0003",
            h.span,
            "heaps need their sizes at the start",
            "no fixed setup",
            "add, for example: `setup fixed { heaps 3, 4, 5 }`",
        );
    }

    // Setup constraints.
    if let Layout::Line(l) = &layout {
        if l.cells > MAX_DEALT && piece.count > 0 && !piece.per_player && fixed_setups.is_empty() {
            let sp = setup.map_or(l.span, |(sp, _)| sp);
            ctx.err(
                "E0006",
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
            ctx.err("E0006", kind.span, "only `setup random` is supported", "here", "write `setup random { ... }`");
        } else if !matches!(layout, Layout::Line(_)) || piece.per_player {
            ctx.err(
                "E0006",
                sp,
                "a random setup deals shared pieces on a line",
                "random setup",
                "give the start: `setup fixed { ... }`",
            );
        }
        for r in requires.iter() {
            match &r.node {
                ast::Require::Winnable { player } => {
                    if let Some(p) = find_player(&mut ctx, player) {
                        constraints.push(Constraint::Winnable { player: p, span: r.span });
                    }
                }
                ast::Require::Compare { lhs, op, rhs } => {
                    let l = quantity(&mut ctx, lhs, &check_piece);
                    let rr = quantity(&mut ctx, rhs, &check_piece);
                    if let (Some(lhs), Some(rhs)) = (l, rr) {
                        constraints.push(Constraint::Compare { lhs, op: op.node, rhs, span: r.span });
                    }
                }
            }
        }
    }

    let endings = match end {
        Some((_, endings)) => endings.iter().filter_map(|e| lower_ending(&mut ctx, &end_scope, e)).collect(),
        None => {
            if cards_ast.is_none() {
                missing(&mut ctx, "end", "end { no moves -> mover wins }");
            }
            Vec::new()
        }
    };
    let end = firmware_end(&endings);

    // In a serial game where the host picks its side, `device` names whichever side is left.
    let host_picks_side = serial_controls
        .is_some_and(|(_, cs)| cs.iter().any(|c| matches!(c.action.node, ast::SessionAction::HostPlaysSide)));
    let strategy = strategy.and_then(|(sp, (player, kind, ties, deepening, order_by_eval))| {
        let p = if host_picks_side && player.node == "device" && !player_list.iter().any(|p| p.node == "device") {
            None
        } else {
            Some(find_player(&mut ctx, player)?)
        };
        let kind = match kind.node.as_str() {
            "perfect" => StrategyKind::Perfect,
            "search" => StrategyKind::Search,
            _ => StrategyKind::Random,
        };
        if kind != StrategyKind::Search && (deepening || order_by_eval) {
            ctx.err(
                "E0005",
                sp,
                "`deepening` and `order by eval` are options of a search",
                "not a search",
                format!("write `strategy {} = {}` alone, or make it a `search`", player.node, kind_name(kind)),
            );
        }
        if kind != StrategyKind::Perfect && ties.is_some() {
            ctx.err(
                "E0005",
                sp,
                "`ties` says how a solved strategy chooses among equally good moves",
                "not a solved strategy",
                "drop `ties`, or make the strategy `perfect`",
            );
        }
        if let (StrategyKind::Search, Layout::Line(_)) = (kind, &layout) {
            ctx.err(
                "E0006",
                sp,
                "search is supported on grid games",
                "a line game",
                "line games are small enough to solve: `strategy device = perfect, ties random`",
            );
        }
        Some(StrategyDef {
            player: p,
            kind,
            ties_random: ties.as_ref().is_none_or(|t| t.node == "random"),
            deepening,
            order_by_eval,
            span: sp,
        })
    });
    let reach = |f: Feature| f.reach(&layout, &piece, &moves, &regions);
    let eval = eval.map(|(sp, cases)| lower_eval(&mut ctx, sp, cases, &regions, &reach));

    // Tunes come before controls and feedback, which refer to them.
    let mut tunes: Vec<TuneDef> = Vec::new();
    for (name, notes) in &tunes_ast {
        if let Some(prev) = tunes.iter().find(|t| t.name.node == name.node) {
            let first = prev.name.span;
            ctx.duplicate(&format!("tune {}", name.node), first, name.span);
            continue;
        }
        let mut out = Vec::new();
        for n in notes.iter() {
            let midi = match parse_pitch(&n.node.pitch.node) {
                Ok(m) => m,
                Err(why) => {
                    ctx.err(
                        "E0008",
                        n.node.pitch.span,
                        format!("`{}` is not a note: {why}", n.node.pitch.node),
                        "not a note",
                        "notes are C..B, an optional # or b, and an octave 0..9, such as `F#5`",
                    );
                    None
                }
            };
            if n.node.millis.node == 0 || n.node.millis.node > 10_000 {
                ctx.err(
                    "E0005",
                    n.node.millis.span,
                    "a note lasts 1 to 10000 ms",
                    "out of range",
                    "give the duration in milliseconds",
                );
            }
            out.push(NoteDef { midi, millis: n.node.millis.node.clamp(1, 10_000), span: n.span });
        }
        tunes.push(TuneDef { name: (*name).clone(), notes: out });
    }
    let tune_names: Vec<String> = tunes.iter().map(|t| t.name.node.clone()).collect();
    let tune_names: Vec<&str> = tune_names.iter().map(String::as_str).collect();

    // Controls.
    let (control_defs, idle) = controls::lower(&mut ctx, controls, &layout, &check_piece, &moves, &action_names);

    // The font comes before the feedback, whose texts it spells.
    let font = lower_font(&mut ctx, &fonts_ast);

    // Feedback.
    let names = feedback::Names {
        states: &states,
        players: &player_list,
        per_player: piece.per_player,
        font: &font,
        tunes: &tunes,
        tune_names: &tune_names,
        find_player: &find_player,
    };
    let feedback::Lowered { views, events, cursor, intro } = feedback::lower(&mut ctx, feedback, &names);

    // Serial controls and feedback.
    let serial = match (serial_controls, serial_feedback) {
        // A game may carry both: each board binds the interface its devices serve.
        (Some((sp, cs)), Some((_, fs))) => {
            let scope = crate::lower_serial::Scope {
                file,
                players: &player_list,
                kinds: &piece.kinds,
                moves: &moves,
                pass: pass.is_some(),
            };
            Some(crate::lower_serial::lower(&scope, cs, fs, sp, &mut ctx.diags))
        }
        (Some((sp, _)), None) | (None, Some((sp, _))) => {
            ctx.err(
                "E0012",
                sp,
                "serial controls and serial feedback come together",
                "only one of them",
                "a game over a serial line needs both `controls serial` and `feedback serial`",
            );
            None
        }
        (None, None) => None,
    };

    // Tests are read against the rules: once the rules have errors, theirs would only repeat them.
    let tests = if ctx.diags.is_empty() {
        tests_ast.iter().map(|t| lower_test(&mut ctx, first_index, &player_list, &piece, &states, &layout, t)).collect()
    } else {
        Vec::new()
    };

    let cards = lower_cards(&mut ctx, cards_ast, table_ast, group_ast);

    if ctx.diags.is_empty() {
        Ok(GameDef {
            name: game.name.clone(),
            players: player_list,
            states,
            setups,
            first: first_index,
            board: layout,
            regions,
            piece,
            setup: constraints,
            fixed_setup: fixed,
            fixed_shared,
            fixed_heaps,
            moves,
            actions: slides,
            places,
            pass: pass.is_some(),
            endings,
            end,
            strategy,
            eval,
            controls: control_defs,
            idle,
            views,
            events,
            tunes,
            serial,
            tests,
            cursor,
            intro,
            font,
            cards,
        })
    } else {
        Err(ctx.diags)
    }
}

fn feature(ctx: &mut Ctx, f: &ast::FeatureRef, regions: &[RegionDef]) -> Feature {
    let name = match f {
        ast::FeatureRef::Named(name) => name,
        ast::FeatureRef::Lines { have, of, .. } => {
            if !(2..=8).contains(&of.node) || have.node == 0 || have.node > of.node {
                ctx.err(
                    "E0005",
                    f.span(),
                    format!("`lines({} of {})` counts nothing", have.node, of.node),
                    "lines",
                    "lines are 2 to 8 cells long and hold 1 to all of them: `lines(3 of 4)`",
                );
            }
            return Feature::Lines { have: have.node.clamp(1, 8) as u8, of: of.node.clamp(2, 8) as u8 };
        }
    };
    match name.node.as_str() {
        "pieces" => Feature::Pieces,
        "mobility" => Feature::Mobility,
        "empty" => Feature::Empty,
        n => match regions.iter().position(|r| r.name.node == n) {
            Some(i) => Feature::Region(i),
            None => {
                let mut known = vec!["pieces", "mobility", "empty"];
                known.extend(regions.iter().map(|r| r.name.node.as_str()));
                ctx.err(
                    "E0004",
                    name.span,
                    format!("unknown feature `{}`", name.node),
                    "not a feature",
                    format!(
                        "an evaluation weighs {}; declare a region to weigh the pieces on it: `region {} = A1, H8`",
                        known.join(", "),
                        name.node
                    ),
                );
                Feature::Pieces
            }
        },
    }
}

/// What `OWNER at CELL, ...` lines put on the board.
#[derive(Default)]
struct Placed {
    /// Each player's pieces: player index and cells.
    owned: Vec<(usize, Vec<u8>)>,
    /// Pieces of a further kind: player, kind and cells.
    kinds: Vec<(usize, u8, Vec<u8>)>,
    /// Shared pieces' cells.
    shared: Vec<u8>,
    /// States: state index and cells.
    states: Vec<(usize, Vec<u8>)>,
}

/// Pieces and states placed by `OWNER at CELL, ...` lines.
fn place_pieces(
    ctx: &mut Ctx,
    players: &[ast::Ident],
    piece: &PieceDef,
    states: &[ast::Ident],
    layout: &Layout,
    placements: &[ast::Placement],
) -> Placed {
    let mut placed = Placed::default();
    let mut taken: Vec<(u8, Span)> = Vec::new();
    for pl in placements {
        let is_shared = !piece.per_player && piece.count > 0 && pl.owner.node == piece.name.node;
        let player = players.iter().position(|p| p.node == pl.owner.node).filter(|_| piece.per_player);
        let state = states.iter().position(|s| s.node == pl.owner.node);
        if !is_shared && player.is_none() && state.is_none() {
            let mut names: Vec<&str> = Vec::new();
            if piece.per_player {
                names.extend(players.iter().map(|p| p.node.as_str()));
            } else if piece.count > 0 {
                names.push(&piece.name.node);
            }
            names.extend(states.iter().map(|s| s.node.as_str()));
            ctx.err(
                "E0004",
                pl.owner.span,
                format!("`{}` is no player, piece or state of this game", pl.owner.node),
                "unknown",
                format!("cells hold one of: {}", names.join(", ")),
            );
            continue;
        }
        if matches!(layout, Layout::Heaps(_)) {
            ctx.err("E0006", pl.owner.span, "heaps have no cells", "here", "write `heaps 3, 4, 5`");
            continue;
        }
        let mut at = Vec::new();
        for c in &pl.cells {
            let Some(i) = cell_index(ctx, c, layout) else { continue };
            if let Some((_, prev)) = taken.iter().find(|(t, _)| *t == i) {
                let d = Diagnostic::error("E0002", format!("cell {} is given two pieces", c.node))
                    .with_label(Label::primary(ctx.file, c.span, "again here"))
                    .with_label(Label::secondary(ctx.file, *prev, "first here"))
                    .with_help("a cell holds one piece");
                ctx.diags.push(d);
                continue;
            }
            taken.push((i, c.span));
            at.push(i);
        }
        match (player, state) {
            (Some(p), _) => match pl.kind.as_ref() {
                None => placed.owned.push((p, at)),
                Some(k) => match piece.kind(&k.node) {
                    Some(0) => placed.owned.push((p, at)),
                    Some(kind) => placed.kinds.push((p, kind, at)),
                    None => {
                        let mut names = vec![piece.name.node.as_str()];
                        names.extend(piece.kinds.iter().map(|k| k.node.as_str()));
                        ctx.unknown("piece", k, &names);
                    }
                },
            },
            (None, Some(k)) => placed.states.push((k, at)),
            (None, None) => placed.shared.extend(at),
        }
    }
    placed
}

fn kind_name(k: StrategyKind) -> &'static str {
    match k {
        StrategyKind::Perfect => "perfect",
        StrategyKind::Random => "random",
        StrategyKind::Search => "search",
    }
}

/// A `pieces` statement that fits the game's board, for a hint.
fn example_pieces(layout: &Layout) -> String {
    match layout {
        Layout::Line(_) => "pieces token x 3".into(),
        Layout::Grid(_) => "pieces stone per player".into(),
        Layout::Heaps(_) => "pieces counter".into(),
    }
}

/// An action that fits the game's board and moves its own piece (`piece`, or an example name
/// when the file gives none), for a hint.
fn example_action(layout: &Layout, piece: &str) -> String {
    match layout {
        Layout::Line(_) => {
            format!(
                "action step = slide {} toward right by 1.. over empty",
                if piece.is_empty() { "token" } else { piece }
            )
        }
        Layout::Grid(_) => format!("action put = place {} on empty", if piece.is_empty() { "stone" } else { piece }),
        Layout::Heaps(_) => "action take = remove 1.. from heap".into(),
    }
}

fn lower_test(
    ctx: &mut Ctx,
    first: usize,
    players: &[ast::Ident],
    piece: &PieceDef,
    states: &[ast::Ident],
    layout: &Layout,
    t: &ast::Test,
) -> TestDef {
    let from = t.from.as_ref().map(|f| {
        let placed = place_pieces(ctx, players, piece, states, layout, &f.placements);
        let to_move = match &f.to_move {
            None => first,
            Some(p) => players.iter().position(|q| q.node == p.node).unwrap_or_else(|| {
                let names: Vec<&str> = players.iter().map(|p| p.node.as_str()).collect();
                ctx.unknown("player", p, &names);
                0
            }),
        };
        match layout {
            Layout::Heaps(h) if f.heaps.len() != h.heaps as usize => ctx.err(
                "E0005",
                f.span,
                format!("the position gives {} heap sizes for {} heaps", f.heaps.len(), h.heaps),
                "position",
                "give one size per heap: `heaps 1, 0, 2`",
            ),
            // Found by fuzzing `gamec test`: a line's cells took the sizes as pieces.
            Layout::Heaps(_) => {}
            _ => {
                if let Some(n) = f.heaps.first() {
                    let help = format!("place pieces: `from {{ {} at ... }}`", piece.name.node);
                    ctx.err("E0006", n.span, "only heaps have sizes", "heap sizes", help);
                }
            }
        }
        let heaps = f.heaps.iter().map(|n| n.node.min(MAX_HEAP)).collect();
        PositionDef {
            cells: placed.owned,
            kinds: placed.kinds,
            shared: placed.shared,
            states: placed.states,
            heaps,
            to_move,
        }
    });
    let expects = t
        .expects
        .iter()
        .filter_map(|e| {
            let node = match &e.node {
                ast::Expect::Legal(m) => ExpectDef::Legal(m.clone()),
                ast::Expect::Illegal(m) => ExpectDef::Illegal(m.clone()),
                ast::Expect::NotOver => ExpectDef::NotOver,
                ast::Expect::Device(m) => ExpectDef::Device(m.clone()),
                ast::Expect::Result(r) => ExpectDef::Result(match r {
                    ast::EndResult::Draw => EndResult::Draw,
                    ast::EndResult::Most { most, wins } => EndResult::Most { most: *most, wins: *wins },
                    ast::EndResult::Who { who, wins } => {
                        let w = match who.node.as_str() {
                            "mover" => Whose::Mover,
                            "next" => Whose::Next,
                            n => match players.iter().position(|p| p.node == n) {
                                Some(p) => Whose::Player(p),
                                None => {
                                    let names: Vec<&str> = players.iter().map(|p| p.node.as_str()).collect();
                                    ctx.unknown("player", who, &names);
                                    return None;
                                }
                            },
                        };
                        if *wins {
                            EndResult::Wins(w)
                        } else {
                            EndResult::Loses(w)
                        }
                    }
                }),
            };
            Some(Spanned::new(node, e.span))
        })
        .collect();
    if t.expects.is_empty() {
        ctx.err(
            "E0003",
            t.name.span,
            format!("test \"{}\" expects nothing", t.name.node),
            "no `expect`",
            "add what must hold, for example `expect not over` or `expect legal A1, B2`",
        );
    }
    TestDef { name: t.name.clone(), from, moves: t.moves.clone(), expects }
}

/// What an ending's names can refer to.
struct EndScope<'a> {
    per_player: bool,
    players: &'a [ast::Ident],
    piece: &'a str,
    states: &'a [ast::Ident],
    regions: &'a [RegionDef],
    layout: &'a Layout,
    pass: bool,
}

fn whose(ctx: &mut Ctx, scope: &EndScope, name: &ast::Ident, pieces_allowed: bool) -> Option<Whose> {
    match name.node.as_str() {
        "mover" => return Some(Whose::Mover),
        "next" => return Some(Whose::Next),
        n if pieces_allowed && n == scope.piece => return Some(Whose::All),
        _ => {}
    }
    if let Some(p) = scope.players.iter().position(|p| p.node == name.node) {
        return Some(Whose::Player(p));
    }
    let mut known = vec!["mover", "next"];
    known.extend(scope.players.iter().map(|p| p.node.as_str()));
    if pieces_allowed {
        known.extend(Some(scope.piece).filter(|p| !p.is_empty()));
        known.extend(scope.states.iter().map(|s| s.node.as_str()));
        known.push("any");
    }
    ctx.err(
        "E0004",
        name.span,
        format!("unknown player `{}`", name.node),
        "not a player",
        format!("write one of: {}", known.join(", ")),
    );
    None
}

fn lower_count(ctx: &mut Ctx, scope: &EndScope, c: &ast::CountExpr) -> Option<Count> {
    let (run, w, place, span) = match c {
        ast::CountExpr::Int(n) => return Some(Count::Const(n.node)),
        ast::CountExpr::Count { run, whose, scope, span } => (run, whose, scope, span),
    };
    let what = match w.node.as_str() {
        "any" => What::Any,
        n => match scope.states.iter().position(|s| s.node == n) {
            Some(k) => What::State(k),
            None => What::Pieces(whose(ctx, scope, w, true)?),
        },
    };
    let lines_only = |ctx: &mut Ctx, sp: Span| {
        if matches!(scope.layout, Layout::Heaps(_)) {
            ctx.err("E0006", sp, "heaps have no rows or columns", "here", "count a heap's counters: `count(mover)`");
        }
    };
    let place = match place {
        None => Scope::Board,
        Some(ast::ScopeRef::EachRow(sp)) => {
            lines_only(ctx, *sp);
            Scope::EachRow
        }
        Some(ast::ScopeRef::EachColumn(sp)) => {
            lines_only(ctx, *sp);
            Scope::EachColumn
        }
        Some(ast::ScopeRef::Region(r)) => match scope.regions.iter().position(|d| d.name.node == r.node) {
            Some(i) => Scope::Region(i),
            None => {
                let names: Vec<&str> = scope.regions.iter().map(|d| d.name.node.as_str()).collect();
                ctx.unknown("region", r, &names);
                return None;
            }
        },
    };
    if *run && !matches!(place, Scope::EachRow | Scope::EachColumn) {
        ctx.err(
            "E0005",
            *span,
            "a run is measured along rows or columns",
            "no rows or columns",
            format!("write `run({} in each row)` or `run({} in each column)`", w.node, w.node),
        );
        return None;
    }
    Some(match (what, place, *run) {
        (What::Pieces(whose), Scope::Board, false) => Count::Pieces { whose, region: None },
        (What::Pieces(whose), Scope::Region(r), false) => Count::Pieces { whose, region: Some(r) },
        (what, scope, run) => Count::Cells { what, scope, run },
    })
}

/// The conditions of an ending or a `where` clause.
fn lower_conditions(ctx: &mut Ctx, scope: &EndScope, conditions: &[Spanned<ast::Condition>]) -> Vec<Condition> {
    conditions.iter().filter_map(|c| lower_condition(ctx, scope, c)).collect()
}

fn lower_condition(ctx: &mut Ctx, scope: &EndScope, c: &Spanned<ast::Condition>) -> Option<Condition> {
    Some(match &c.node {
        ast::Condition::InARow { k, directions } => {
            let longest = match scope.layout {
                Layout::Grid(g) => g.cols.max(g.rows),
                Layout::Line(l) => l.cells,
                Layout::Heaps(_) => 0,
            };
            if k.node < 2 || k.node > longest {
                ctx.err(
                    "E0015",
                    k.span,
                    format!("no line of {} fits this board, so this ending can never happen", k.node),
                    "never holds",
                    format!("a line of 2 to {longest} fits"),
                );
                return None;
            }
            let d = directions.as_ref().map_or(8, |d| d.node);
            if d != 4 && d != 8 {
                let span = directions.as_ref().map_or(c.span, |d| d.span);
                ctx.err(
                    "E0005",
                    span,
                    format!("lines run in 4 or 8 directions, not {d}"),
                    "directions",
                    "write `in 4 directions` (rows and columns) or `in 8 directions` (diagonals too)",
                );
            }
            Condition::InARow { k: k.node as u8, directions: d as u8 }
        }
        ast::Condition::Full => {
            if matches!(scope.layout, Layout::Heaps(_)) {
                ctx.err("E0015", c.span, "heaps are never full", "never holds", "use `no moves`");
                return None;
            }
            Condition::Full
        }
        ast::Condition::NoMoves => {
            if scope.pass {
                ctx.err(
                    "E0015",
                    c.span,
                    "with `pass when no moves` a player without a move passes, so this ending never happens",
                    "never holds",
                    "write `neither can move -> ...`",
                );
                return None;
            }
            Condition::NoMoves
        }
        ast::Condition::NeitherCanMove => Condition::NeitherCanMove,
        ast::Condition::Distinct { rows } => {
            if !matches!(scope.layout, Layout::Grid(_)) {
                ctx.err(
                    "E0006",
                    c.span,
                    "only a grid has rows and columns to tell apart",
                    "not a grid",
                    "use `board grid C x R`",
                );
                return None;
            }
            Condition::Distinct { rows: *rows }
        }
        ast::Condition::Compare { lhs, op, rhs } => {
            let l = lower_count(ctx, scope, lhs);
            let r = lower_count(ctx, scope, rhs);
            let (lhs, rhs) = (l?, r?);
            let lines = |x: &Count| match x {
                Count::Cells { scope: s @ (Scope::EachRow | Scope::EachColumn), .. } => Some(*s),
                _ => None,
            };
            if let (Some(a), Some(b)) = (lines(&lhs), lines(&rhs)) {
                if a != b {
                    ctx.err(
                        "E0005",
                        c.span,
                        "a row's count is compared with a row's, a column's with a column's",
                        "rows and columns mixed",
                        "compare two counts over `each row`, or two over `each column`",
                    );
                    return None;
                }
            }
            Condition::Compare { lhs, op: op.node, rhs }
        }
    })
}

fn lower_ending(ctx: &mut Ctx, scope: &EndScope, e: &ast::Ending) -> Option<EndingDef> {
    let conditions = lower_conditions(ctx, scope, &e.conditions);
    if conditions.len() != e.conditions.len() {
        return None;
    }
    let result = match &e.result.node {
        ast::EndResult::Draw => EndResult::Draw,
        ast::EndResult::Most { .. } if !scope.per_player => {
            ctx.err(
                "E0015",
                e.result.span,
                "the pieces belong to nobody, so no player ever has more of them",
                "always a draw",
                "give each player their own pieces (`pieces NAME per player`), or name the winner: `mover wins`",
            );
            return None;
        }
        ast::EndResult::Most { most, wins } => EndResult::Most { most: *most, wins: *wins },
        ast::EndResult::Who { who, wins } => {
            let w = whose(ctx, scope, who, false)?;
            if *wins {
                EndResult::Wins(w)
            } else {
                EndResult::Loses(w)
            }
        }
    };
    Some(EndingDef { conditions, result, span: e.span })
}

/// The endings in a shape the firmware runtime plays today: one ending, either "the player
/// without a move has lost (or won)" or "when neither can move, most (or fewest) pieces wins".
fn firmware_end(endings: &[EndingDef]) -> Option<EndDef> {
    let [only] = endings else { return None };
    match (only.conditions.as_slice(), only.result) {
        ([Condition::NoMoves], EndResult::Wins(Whose::Mover) | EndResult::Loses(Whose::Next)) => {
            Some(EndDef::NoMoves { last_mover_wins: true })
        }
        ([Condition::NoMoves], EndResult::Loses(Whose::Mover) | EndResult::Wins(Whose::Next)) => {
            Some(EndDef::NoMoves { last_mover_wins: false })
        }
        ([Condition::NeitherCanMove], EndResult::Most { most, wins }) => {
            Some(EndDef::NeitherCanMove { most_wins: most == wins })
        }
        _ => None,
    }
}

/// Largest weight an evaluation term may have, so sums stay well inside 16 bits.
const MAX_WEIGHT: i64 = 100;

/// A feature as the file writes it, for messages.
fn feature_text(f: &ast::FeatureRef) -> String {
    match f {
        ast::FeatureRef::Named(n) => n.node.clone(),
        ast::FeatureRef::Lines { have, of, .. } => format!("lines({} of {})", have.node, of.node),
    }
}

/// The evaluation's cases, checked against what the game can count: a comparison with a
/// number its feature never reaches is refused (the firmware compares in 16 bits, so such a
/// number would wrap), and so is a case whose score could reach a finished game's.
fn lower_eval(
    ctx: &mut Ctx,
    span: Span,
    cases: &[ast::EvalCase],
    regions: &[RegionDef],
    reach: &dyn Fn(Feature) -> Reach,
) -> EvalDef {
    let mut out = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let when = c.when.as_ref().map(|(f, op, n)| {
            let feature = feature(ctx, f, regions);
            let r = reach(feature);
            if n.node > r.most {
                let name = feature_text(f);
                ctx.err(
                    "E0005",
                    n.span,
                    format!("`{name}` is never more than {} in this game, so it never reaches {}", r.most, n.node),
                    &format!("beyond {}", r.most),
                    format!("{}: compare `{name}` with a number from 0 to {}, or drop the condition", r.why, r.most),
                );
            }
            // Within the feature's reach, so within 16 bits.
            (feature, op.node, n.node.min(r.most) as i32)
        });
        if when.is_none() && i + 1 != cases.len() {
            ctx.err(
                "E0005",
                c.span,
                "`else` must be the last case",
                "cases after it never apply",
                "move `else` to the end",
            );
        }
        let mut terms = Vec::new();
        // The most the case can score either way: each weight times its feature's reach.
        let mut bound: u64 = 0;
        let mut biggest: Option<(u64, String, Reach)> = None;
        for (w, f) in &c.terms {
            if w.abs() > MAX_WEIGHT {
                ctx.err(
                    "E0005",
                    f.span(),
                    format!("a weight is at most {MAX_WEIGHT} either way, not {w}"),
                    "weight",
                    "scale the weights down together",
                );
            }
            let w = (*w).clamp(-MAX_WEIGHT, MAX_WEIGHT) as i16;
            let feature = feature(ctx, f, regions);
            let r = reach(feature);
            let part = u64::from(w.unsigned_abs()) * u64::from(r.most);
            bound = bound.saturating_add(part);
            if biggest.as_ref().is_none_or(|(b, _, _)| part > *b) {
                biggest = Some((part, format!("{w} * {}", feature_text(f)), r));
            }
            terms.push((w, feature));
        }
        if bound > u64::from(EVAL_LIMIT) {
            let mut d = Diagnostic::error(
                "E0023",
                format!(
                    "this case can score up to {} either way, past the {} a search's score may reach",
                    thousands(bound),
                    thousands(u64::from(EVAL_LIMIT))
                ),
            )
            .with_label(Label::primary(ctx.file, c.span, format!("up to {}", thousands(bound))))
            .with_note(format!(
                "a finished game scores {} and beyond; the most a case scores is the sum of each weight times \
                 the most its feature counts in this game",
                thousands(u64::from(EVAL_LIMIT) + 1)
            ));
            if let Some((part, term, r)) = biggest {
                d = d.with_note(format!("the largest term, `{term}`, reaches {} ({})", thousands(part), r.why));
            }
            ctx.diags.push(d.with_help(format!(
                "scale the weights down together, by {} or more",
                bound.div_ceil(u64::from(EVAL_LIMIT))
            )));
        }
        out.push(EvalCaseDef { when, terms });
    }
    if cases.last().is_some_and(|c| c.when.is_some()) {
        ctx.err(
            "E0005",
            span,
            "an `eval` ends with an `else` case",
            "no `else`",
            "add `else: ...` as the last case so every position gets a score",
        );
    }
    EvalDef { cases: out, span }
}

fn quantity(ctx: &mut Ctx, e: &ast::Expr, check_piece: &dyn Fn(&mut Ctx, &ast::Ident)) -> Option<Quantity> {
    match e {
        ast::Expr::Int(i) => Some(Quantity::Const(i.node)),
        ast::Expr::Call { func, arg, .. } => {
            check_piece(ctx, arg);
            match func.node.as_str() {
                "leftmost" => Some(Quantity::Leftmost),
                "rightmost" => Some(Quantity::Rightmost),
                _ => {
                    ctx.err(
                        "E0004",
                        func.span,
                        format!("unknown function `{}`", func.node),
                        "not a setup function",
                        "setup constraints can use `leftmost(piece)` and `rightmost(piece)`",
                    );
                    None
                }
            }
        }
    }
}

/// Parses `C5`, `F#4`, `Bb3`, `rest` into a MIDI number (`None` for a rest).
pub fn parse_pitch(s: &str) -> Result<Option<u8>, &'static str> {
    if s == "rest" {
        return Ok(None);
    }
    let b = s.as_bytes();
    let base: i32 = match b[0] {
        b'C' => 0,
        b'D' => 2,
        b'E' => 4,
        b'F' => 5,
        b'G' => 7,
        b'A' => 9,
        b'B' => 11,
        _ => return Err("the letter must be A to G"),
    };
    let (acc, oct) = match b.len() {
        2 => (0, b[1]),
        _ => (if b[1] == b'#' { 1 } else { -1 }, b[2]),
    };
    let octave = (oct - b'0') as i32;
    Ok(Some((12 * (octave + 1) + base + acc).clamp(0, 127) as u8))
}

/// A step or blink time: 1 ms to 10 s.
fn step_ms(ctx: &mut Ctx, d: &Spanned<u32>) -> u32 {
    if d.node == 0 || d.node > 10_000 {
        ctx.err("E0005", d.span, "a step or blink lasts 1 to 10000 ms", "out of range", "for example `80 ms`");
    }
    d.node.clamp(1, 10_000)
}

/// Glyphs drawn as rows of `#` (lit) and `.`: one character each, all rows as wide, at most 8
/// rows, turned into columns.
fn lower_font(ctx: &mut Ctx, glyphs: &[&ast::Glyph]) -> Vec<GlyphDef> {
    let mut out: Vec<GlyphDef> = Vec::new();
    for g in glyphs {
        let mut chars = g.name.node.chars();
        let (Some(name), None) = (chars.next(), chars.next()) else {
            ctx.err(
                "E0005",
                g.name.span,
                "a glyph names one character",
                "not one character",
                "write `glyph \"B\" { ... }`",
            );
            continue;
        };
        if out.iter().any(|o| o.name == name) {
            ctx.err("E0002", g.name.span, format!("glyph `{name}` is drawn twice"), "again here", "keep one");
            continue;
        }
        let width = g.rows.first().map_or(0, |r| r.node.chars().count());
        let bad =
            g.rows.iter().find(|r| r.node.chars().count() != width || r.node.chars().any(|c| c != '#' && c != '.'));
        if let Some(r) = bad {
            ctx.err(
                "E0005",
                r.span,
                "every row of a glyph is as wide as the first, made of `#` and `.`",
                "this row",
                "draw lit cells with `#` and dark ones with `.`",
            );
            continue;
        }
        if g.rows.len() > 8 || width == 0 || width > 8 {
            ctx.err("E0005", g.span, "a glyph has 1 to 8 rows of 1 to 8 columns", "this glyph", "draw it smaller");
            continue;
        }
        let columns = (0..width)
            .map(|c| {
                g.rows
                    .iter()
                    .enumerate()
                    .fold(0u8, |m, (r, row)| m | u8::from(row.node.chars().nth(c) == Some('#')) << r)
            })
            .collect();
        out.push(GlyphDef { name, columns, span: g.span });
    }
    out
}

/// A card game's deck, table and group, checked: bit fields that hold their values without
/// overlapping, a table that is its rows times its columns, a group that fits on it.
fn lower_cards(
    ctx: &mut Ctx,
    cards: Option<(Span, &Vec<ast::Attribute>)>,
    table: Option<(Span, (&ast::Int, &ast::Int, &ast::Int))>,
    group: Option<(Span, GroupRef)>,
) -> Option<CardsDef> {
    let (span, attrs) = cards?;
    let mut attributes: Vec<AttributeDef> = Vec::new();
    let mut used: u32 = 0;
    for a in attrs {
        if attributes.iter().any(|b| b.name.node == a.name.node) {
            ctx.err(
                "E0002",
                a.name.span,
                format!("attribute `{}` is given twice", a.name.node),
                "again here",
                "name each attribute once",
            );
            continue;
        }
        for (i, v) in a.values.iter().enumerate() {
            if let Some(first) = a.values[..i].iter().find(|u| u.node == v.node) {
                ctx.diags.push(
                    Diagnostic::error("E0002", format!("attribute `{}` has the value `{}` twice", a.name.node, v.node))
                        .with_label(Label::primary(ctx.file, v.span, "given again here"))
                        .with_label(Label::secondary(ctx.file, first.span, "first given here"))
                        .with_help(format!(
                            "a card names its value by word, so each of `{}`'s values needs a word of its own",
                            a.name.node
                        )),
                );
            }
        }
        let (hi, lo) = (a.bits.0.node.max(a.bits.1.node), a.bits.0.node.min(a.bits.1.node));
        if hi > 31 {
            let at = if a.bits.0.node >= a.bits.1.node { a.bits.0.span } else { a.bits.1.span };
            ctx.err("E0005", at, "a card's code has bits 0 to 31", "out of range", "use bits 0 to 31");
            continue;
        }
        // At most 32, now that `hi` is a bit of the code.
        let width = hi - lo + 1;
        if (a.values.len() as u64) > 1u64 << width {
            ctx.err(
                "E0005",
                a.span,
                format!("{} values do not fit in {width} bits", a.values.len()),
                "too many values",
                format!("give the attribute {} bits", 64 - (a.values.len() as u64 - 1).leading_zeros()),
            );
        }
        let mask = (((1u64 << width) - 1) as u32) << lo;
        if used & mask != 0 {
            ctx.err(
                "E0005",
                a.bits.0.span,
                "these bits hold another attribute too",
                "overlapping",
                "give each attribute bits of its own",
            );
        }
        used |= mask;
        attributes.push(AttributeDef {
            name: a.name.clone(),
            values: a.values.clone(),
            lo: lo as u8,
            width: width as u8,
        });
    }
    let Some((_, (capacity, rows, cols))) = table else {
        ctx.err("E0003", span, "cards need a table", "no `table`", "add, for example, `table 12 as 3 x 4`");
        return None;
    };
    // Rows times columns, in arithmetic that cannot wrap: 4 x 1073741827 is no 12.
    let laid_out = u64::from(rows.node) * u64::from(cols.node);
    if capacity.node == 0 || capacity.node > 81 {
        ctx.err(
            "E0005",
            capacity.span,
            format!("a table holds 1 to 81 cards, not {}", capacity.node),
            "out of range",
            "for example `table 12 as 3 x 4`",
        );
    } else if laid_out != u64::from(capacity.node) {
        // At the number that makes the product wrong: the larger factor, which is the one
        // out of range when the product is past any table.
        let at = if cols.node >= rows.node { cols } else { rows };
        let divisors: Vec<String> = (1..=capacity.node)
            .filter(|&r| capacity.node.is_multiple_of(r))
            .map(|r| format!("{r} x {}", capacity.node / r))
            .collect();
        ctx.diags.push(
            Diagnostic::error(
                "E0005",
                format!(
                    "a table of {} cards is laid out as rows times columns, and {} x {} is {}",
                    capacity.node,
                    rows.node,
                    cols.node,
                    thousands(laid_out)
                ),
            )
            .with_label(Label::primary(
                ctx.file,
                at.span,
                format!("{} x {} is not {}", rows.node, cols.node, capacity.node),
            ))
            .with_label(Label::secondary(ctx.file, capacity.span, "the cards the table holds"))
            .with_help(format!("lay {} cards out as {}", capacity.node, divisors.join(", "))),
        );
    }
    let Some((gsp, (name, size, rules))) = group else {
        ctx.err(
            "E0003",
            span,
            "cards need a `group` to find",
            "no `group`",
            "add, for example, `group set = 3 cards where every attribute is all same or all different`",
        );
        return None;
    };
    if size.node < 2 || size.node > capacity.node.min(8) {
        ctx.err(
            "E0005",
            size.span,
            "a group has 2 cards or more, at most 8 and no more than the table holds",
            "group size",
            "for example `3 cards`",
        );
    }
    let mut per: Vec<Option<ast::Relation>> = vec![None; attributes.len()];
    for r in rules {
        match &r.node.attribute {
            None => per.iter_mut().for_each(|p| *p = Some(r.node.relation)),
            Some(a) => match attributes.iter().position(|b| b.name.node == a.node) {
                Some(i) => per[i] = Some(r.node.relation),
                None => {
                    let names: Vec<&str> = attributes.iter().map(|b| b.name.node.as_str()).collect();
                    ctx.unknown("attribute", a, &names);
                }
            },
        }
    }
    for (i, rel) in per.iter().enumerate() {
        if *rel == Some(ast::Relation::AllDifferent) && attributes[i].values.len() < size.node as usize {
            ctx.err(
                "E0015",
                gsp,
                format!(
                    "{} cards cannot all differ in `{}`, which has {} values",
                    size.node,
                    attributes[i].name.node,
                    attributes[i].values.len()
                ),
                "never holds",
                "use `all same or all different`, or a smaller group",
            );
        }
    }
    Some(CardsDef {
        attributes,
        capacity: capacity.node,
        rows: rows.node,
        cols: cols.node,
        group: GroupDef { name: name.clone(), size: size.node, rules: per, span: gsp },
        span,
    })
}

//! Resolution of a game's syntax tree into a [`GameDef`]: names, types and required items.

use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
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
/// Most pits a side of a board of pits.
pub const MAX_PITS: u32 = 12;
/// Most counters on a board of pits, in all its pits and stores: a pit's count is a byte.
pub const MAX_SEEDS: u32 = 255;

/// Whether the board is a ring of pits.
pub(crate) fn is_pits(layout: &Layout) -> bool {
    matches!(layout, Layout::Heaps(HeapsBoard { pits: Some(_), .. }))
}

/// Heap sizes as a setup or a test's position gives them (`sp`), each within what a heap may
/// hold, and on pits all of them within what a board of pits may.
fn heap_sizes(ctx: &mut Ctx, layout: &Layout, sp: Span, heaps: &[ast::Int]) -> Vec<u32> {
    let most = most_in_heap(layout);
    for n in heaps.iter().filter(|n| n.node > most) {
        let msg = format!("a heap holds at most {most} counters, not {}", n.node);
        ctx.err(Code::E0005, n.span, msg, "too many", format!("use 0 to {most}"));
    }
    if is_pits(layout) {
        setups::seeds_fit(ctx, sp, heaps);
    }
    heaps.iter().map(|n| n.node.min(most)).collect()
}

/// The most counters one heap may hold in a setup or a test's position: a pit may hold all
/// the board's counters.
pub(crate) fn most_in_heap(layout: &Layout) -> u32 {
    if is_pits(layout) {
        MAX_SEEDS
    } else {
        MAX_HEAP
    }
}

mod actions;
mod board;
mod cards;
mod controls;
mod feedback;
mod setups;
mod sow;
mod statements;
mod travel;

use statements::Statements;

/// `D5` on a grid: column letter from A, row number from 1, as a cell index row * stride +
/// column.
fn grid_cell(name: &str, layout: &Layout) -> Option<u8> {
    let Layout::Grid(g) = layout else { return None };
    let col = name.as_bytes()[0].checked_sub(b'A')? as u32;
    let row = name[1..].parse::<u32>().ok()?.checked_sub(1)?;
    // Lazily: a row past the grid (`A4294967295`) would overflow the multiplication.
    (col < g.cols && row < g.rows).then(|| (row * g.stride() + col) as u8)
}

/// A cell as a file writes it: `D5` on a grid, a number from 1 on a line or a ring of pits;
/// its index.
fn cell_index(ctx: &mut Ctx, c: &ast::Ident, layout: &Layout) -> Option<u8> {
    match layout {
        Layout::Grid(g) => {
            let found = c.node.as_bytes()[0].is_ascii_uppercase().then(|| grid_cell(&c.node, layout)).flatten();
            if found.is_none() {
                ctx.err(
                    Code::E0005,
                    c.span,
                    format!("`{}` is not a cell of a {} x {} grid", c.node, g.cols, g.rows),
                    "no such cell",
                    format!("columns are A to {}, rows 1 to {}", (b'A' + g.cols as u8 - 1) as char, g.rows),
                );
            }
            if found.is_some_and(|i| g.cut.contains(&i)) {
                ctx.err(
                    Code::E0005,
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
                    Code::E0005,
                    c.span,
                    format!("`{}` is not a cell of a line of {}", c.node, l.cells),
                    "no such cell",
                    format!("cells of a line are numbered 1 to {}", l.cells),
                );
            }
            found
        }
        // A board of pits names its pits and stores by their numbers along the ring, so that
        // a region can gather a side's pits or a store.
        Layout::Heaps(HeapsBoard { heaps, pits: Some(_), .. }) => {
            let found = c.node.parse::<u32>().ok().filter(|n| (1..=*heaps).contains(n)).map(|n| (n - 1) as u8);
            if found.is_none() {
                let msg = format!("`{}` is not a pit of a ring of {heaps}", c.node);
                ctx.err(
                    Code::E0005,
                    c.span,
                    msg,
                    "no such pit",
                    format!("pits are numbered 1 to {heaps} along the ring"),
                );
            }
            found
        }
        Layout::Heaps(_) => {
            ctx.err(Code::E0006, c.span, "heaps have no cells", "a cell", "set the heaps' sizes with `heaps 3, 4, 5`");
            None
        }
    }
}

struct Ctx {
    file: FileId,
    diags: Vec<Diagnostic>,
}

impl Ctx {
    fn err(&mut self, code: Code, span: Span, msg: impl Into<String>, label: &str, help: impl Into<String>) {
        self.diags
            .push(Diagnostic::error(code, msg).with_label(Label::primary(self.file, span, label)).with_help(help));
    }

    fn duplicate(&mut self, what: &str, first: Span, again: Span) {
        self.diags.push(
            Diagnostic::error(Code::E0002, format!("`{what}` is given twice"))
                .with_label(Label::primary(self.file, again, "given again here"))
                .with_label(Label::secondary(self.file, first, "first given here"))
                .with_help(format!("keep one `{what}` statement")),
        );
    }

    /// Reports a removal's range whose upper bound is below its lower one; true if it is.
    fn empty_removal(&mut self, min: &ast::Int, max: Option<&ast::Int>) -> bool {
        let Some(max) = max.filter(|m| m.node < min.node) else { return false };
        self.err(
            Code::E0005,
            max.span,
            "the range is empty",
            "smaller than the lower bound",
            format!("write `remove {}..{}` or leave the upper bound out", min.node, min.node),
        );
        true
    }

    fn unknown(&mut self, kind: &str, name: &ast::Ident, known: &[&str]) {
        let help = match crate::suggest::closest(&name.node, known.iter().copied()) {
            Some(near) => format!("did you mean `{near}`? The {kind}s declared are: {}", known.join(", ")),
            None if known.is_empty() => format!("declare the {kind} first"),
            None => format!("the {kind}s declared are: {}", known.join(", ")),
        };
        self.err(
            Code::E0004,
            name.span,
            format!("unknown {kind} `{}`", name.node),
            &format!("no {kind} of this name"),
            help,
        );
    }
}

pub fn lower(file: FileId, game: &ast::Game) -> Result<GameDef, Vec<Diagnostic>> {
    let mut ctx = Ctx { file, diags: Vec::new() };
    let st: Statements = statements::collect(&mut ctx, game);
    // A game of cards needs none of the statements of a game on a board.
    let cards = st.cards_ast.is_some();

    let missing = |ctx: &mut Ctx, what: &str, example: &str| missing(ctx, game, what, example);

    // Players and turn order.
    let players = Players::lower(&mut ctx, st.players, st.first, cards, &missing);
    let (player_list, first_index) = (players.list.clone(), players.first);
    let find_player = |ctx: &mut Ctx, name: &ast::Ident| players.find(ctx, name);

    // The board.
    let layout = board::layout(&mut ctx, st.board, game, cards, &missing);

    // Regions.
    let regions = board::regions(&mut ctx, &st.regions_ast, &layout);

    // States a cell may hold.
    let states = board::states(&mut ctx, st.states_item, &player_list, st.pieces);

    // Pieces.
    let slides_any = st.actions.iter().any(|(_, _, m)| matches!(m, ast::Mechanic::Slide { .. }));
    let piece = board::piece(&mut ctx, st.pieces, &layout, &states, slides_any, game, cards, &missing);
    let promotions = travel::promotions(&mut ctx, &piece, &regions, &st.promotions);
    let check_piece = |ctx: &mut Ctx, name: &ast::Ident| {
        if st.pieces.is_some() && name.node != piece.name.node {
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
        pass: st.pass.is_some(),
    };

    // Actions.
    let scope =
        actions::Scope { layout: &layout, piece: &piece, states: &states, promotions: &promotions, end: &end_scope };
    let actions::Lowered { moves, names: action_names } = actions::lower(&mut ctx, &st.actions, &scope, &check_piece);
    // Actions that were declared but refused above already have their diagnostic.
    if action_names.is_empty() && !cards {
        missing(&mut ctx, "action", &example_action(&layout, &piece.name.node));
    }

    // The setups: fixed ones, or one dealt at random under constraints.
    let scope = setups::Scope { players: &player_list, piece: &piece, states: &states, layout: &layout };
    let setup = setups::lower(&mut ctx, &st.fixed_setups, st.setup, &scope, &find_player, &check_piece);

    let endings = match st.end {
        Some((_, endings)) => endings.iter().filter_map(|e| lower_ending(&mut ctx, &end_scope, e)).collect(),
        None => {
            if !cards {
                missing(&mut ctx, "end", "end { no moves -> mover wins }");
            }
            Vec::new()
        }
    };

    let strategy = lower_strategy(&mut ctx, st.strategy, st.serial_controls, &players, &layout);
    let reach = |f: Feature| f.reach(&layout, &piece, &moves, &regions);
    let eval = st.eval.map(|(sp, cases)| lower_eval(&mut ctx, sp, cases, (&regions, &layout), &reach));

    let rules = RulesScope {
        file,
        layout: &layout,
        piece: &piece,
        states: &states,
        player_list: &player_list,
        moves: &moves,
        action_names: &action_names,
        setups: setup.fixed().len().max(1),
        find_player: &find_player,
        check_piece: &check_piece,
    };
    let Interfaces { tunes, controls, idle, font, views, events, cursor, intro, serial } =
        interfaces(&mut ctx, &st, &rules);

    // Tests are read against the rules: once the rules have errors, theirs would only repeat them.
    let tests = if ctx.diags.is_empty() {
        st.tests_ast
            .iter()
            .map(|t| lower_test(&mut ctx, first_index, &player_list, &piece, &states, &layout, t))
            .collect()
    } else {
        Vec::new()
    };

    let cards = cards::lower(&mut ctx, st.cards_ast, st.table_ast, st.group_ast);

    if ctx.diags.is_empty() {
        let rules = RulesDef {
            players: player_list,
            states,
            first: first_index,
            board: layout,
            regions,
            piece,
            setup,
            moves,
            pass: st.pass.is_some(),
            endings,
        };
        let device = DeviceDef { strategy, eval };
        let interface = InterfaceDef { controls, idle, views, events, tunes, serial, cursor, intro, font };
        Ok(GameDef { name: game.name.clone(), rules, device, interface, tests, cards })
    } else {
        Err(ctx.diags)
    }
}

/// What a person plays the game with, lowered: tunes, controls, the font, feedback and the
/// serial protocol (they refer to the rules' names, never the reverse).
struct Interfaces {
    tunes: Vec<TuneDef>,
    controls: Vec<ControlDef>,
    idle: Option<IdleDef>,
    font: Vec<GlyphDef>,
    views: Vec<ViewDef>,
    events: Vec<EventDef>,
    cursor: Option<CursorDef>,
    intro: Vec<SceneDef>,
    serial: Option<SerialDef>,
}

/// The rules' names the interfaces refer to.
struct RulesScope<'r> {
    file: FileId,
    layout: &'r Layout,
    piece: &'r PieceDef,
    states: &'r [ast::Ident],
    player_list: &'r [ast::Ident],
    moves: &'r [MoveDef],
    action_names: &'r [&'r ast::Ident],
    setups: usize,
    find_player: &'r dyn Fn(&mut Ctx, &ast::Ident) -> Option<usize>,
    check_piece: &'r dyn Fn(&mut Ctx, &ast::Ident),
}

fn interfaces(ctx: &mut Ctx, st: &Statements, r: &RulesScope) -> Interfaces {
    let RulesScope { file, layout, piece, states, player_list, moves, action_names, setups, find_player, check_piece } =
        *r;
    // Tunes come before controls and feedback, which refer to them.
    let tunes = lower_tunes(ctx, &st.tunes_ast);
    let tune_names: Vec<String> = tunes.iter().map(|t| t.name.node.clone()).collect();
    let tune_names: Vec<&str> = tune_names.iter().map(String::as_str).collect();

    // Controls.
    let (control_defs, idle) = controls::lower(ctx, st.controls, layout, check_piece, moves, action_names);

    // The font comes before the feedback, whose texts it spells.
    let font = lower_font(ctx, &st.fonts_ast);

    // Feedback.
    let names = feedback::Names {
        states,
        players: player_list,
        per_player: piece.per_player,
        font: &font,
        tunes: &tunes,
        tune_names: &tune_names,
        find_player,
        piece: &piece.name.node,
    };
    let feedback::Lowered { views, events, cursor, intro } = feedback::lower(ctx, st.feedback, &names);

    // Serial controls and feedback.
    let serial_scope = crate::lower_serial::Scope {
        file,
        players: player_list,
        kinds: &piece.kinds,
        moves,
        pass: st.pass.is_some(),
        states,
        pieces: st.pieces.is_some(),
        shared_piece: (st.pieces.is_some() && !piece.per_player).then_some(piece.name.node.as_str()),
        heaps: matches!(layout, Layout::Heaps(_)),
        setups,
    };
    let serial = lower_serial(ctx, st.serial_controls, st.serial_feedback, &serial_scope);

    Interfaces { tunes, controls: control_defs, idle, font, views, events, cursor, intro, serial }
}

fn feature(ctx: &mut Ctx, f: &ast::FeatureRef, regions: &[RegionDef], layout: &Layout) -> Feature {
    let name = match f {
        ast::FeatureRef::Named(name) => name,
        ast::FeatureRef::Lines { have, of, .. } => {
            if !(2..=8).contains(&of.node) || have.node == 0 || have.node > of.node {
                ctx.err(
                    Code::E0005,
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
                let help = match example_cells(layout) {
                    Some(cells) => format!(
                        "an evaluation weighs {}; declare a region to weigh the pieces on it: `region {} = {cells}`",
                        known.join(", "),
                        name.node
                    ),
                    None => format!("an evaluation weighs {}", known.join(", ")),
                };
                ctx.err(Code::E0004, name.span, format!("unknown feature `{}`", name.node), "not a feature", help);
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
                Code::E0004,
                pl.owner.span,
                format!("`{}` is no player, piece or state of this game", pl.owner.node),
                "unknown",
                format!("cells hold one of: {}", names.join(", ")),
            );
            continue;
        }
        if matches!(layout, Layout::Heaps(_)) {
            ctx.err(Code::E0006, pl.owner.span, "heaps have no cells", "here", "write `heaps 3, 4, 5`");
            continue;
        }
        let mut at = Vec::new();
        for c in &pl.cells {
            let Some(i) = cell_index(ctx, c, layout) else { continue };
            if let Some((_, prev)) = taken.iter().find(|(t, _)| *t == i) {
                let d = Diagnostic::error(Code::E0002, format!("cell {} is given two pieces", c.node))
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

/// Two cells of the board as the file writes them (its first and its last), for a hint's
/// example; `None` on heaps, which have no cells.
fn example_cells(layout: &Layout) -> Option<String> {
    match layout {
        Layout::Grid(g) => {
            let stride = g.stride();
            let name = |i: u32| format!("{}{}", (b'A' + (i % stride) as u8) as char, i / stride + 1);
            let mut kept = (0..g.rows)
                .flat_map(|r| (0..g.cols).map(move |c| r * stride + c))
                .filter(|&i| !g.cut.contains(&(i as u8)));
            let first = kept.next()?;
            Some(format!("{}, {}", name(first), name(kept.next_back().unwrap_or(first))))
        }
        Layout::Line(l) => Some(format!("1, {}", l.cells)),
        Layout::Heaps(HeapsBoard { heaps, pits: Some(_), .. }) => Some(format!("1, {heaps}")),
        Layout::Heaps(_) => None,
    }
}

/// A `pieces` statement that fits the game's board, for a hint.
fn example_pieces(layout: &Layout) -> String {
    match layout {
        Layout::Line(_) => "pieces token x 3".into(),
        Layout::Grid(_) => "pieces token per player".into(),
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
        Layout::Grid(_) => format!("action put = place {} on empty", if piece.is_empty() { "token" } else { piece }),
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
                Code::E0005,
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
                    ctx.err(Code::E0006, n.span, "only heaps have sizes", "heap sizes", help);
                }
            }
        }
        let heaps = heap_sizes(ctx, layout, f.span, &f.heaps);
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
            Code::E0003,
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
        Code::E0004,
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
            ctx.err(
                Code::E0006,
                sp,
                "heaps have no rows or columns",
                "here",
                "count a heap's counters: `count(mover)`",
            );
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
            Code::E0005,
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
                    Code::E0015,
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
                    Code::E0005,
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
                ctx.err(Code::E0015, c.span, "heaps are never full", "never holds", "use `no moves`");
                return None;
            }
            Condition::Full
        }
        ast::Condition::NoMoves => {
            if scope.pass {
                ctx.err(
                    Code::E0015,
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
                    Code::E0006,
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
                        Code::E0005,
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
        // On pits, the counters on a side are its player's.
        ast::EndResult::Most { .. } if !scope.per_player && !is_pits(scope.layout) => {
            ctx.err(
                Code::E0015,
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
    (regions, layout): (&[RegionDef], &Layout),
    reach: &dyn Fn(Feature) -> Reach,
) -> EvalDef {
    let mut out = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let when = c.when.as_ref().map(|(f, op, n)| {
            let feature = feature(ctx, f, regions, layout);
            let r = reach(feature);
            if n.node > r.most {
                let name = feature_text(f);
                ctx.err(
                    Code::E0005,
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
                Code::E0005,
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
                    Code::E0005,
                    f.span(),
                    format!("a weight is at most {MAX_WEIGHT} either way, not {w}"),
                    "weight",
                    "scale the weights down together",
                );
            }
            let w = (*w).clamp(-MAX_WEIGHT, MAX_WEIGHT) as i16;
            let feature = feature(ctx, f, regions, layout);
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
                Code::E0023,
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
            Code::E0005,
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
                        Code::E0004,
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
        ctx.err(Code::E0005, d.span, "a step or blink lasts 1 to 10000 ms", "out of range", "for example `80 ms`");
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
                Code::E0005,
                g.name.span,
                "a glyph names one character",
                "not one character",
                "write `glyph \"B\" { ... }`",
            );
            continue;
        };
        if out.iter().any(|o| o.name == name) {
            ctx.err(Code::E0002, g.name.span, format!("glyph `{name}` is drawn twice"), "again here", "keep one");
            continue;
        }
        let width = g.rows.first().map_or(0, |r| r.node.chars().count());
        let bad =
            g.rows.iter().find(|r| r.node.chars().count() != width || r.node.chars().any(|c| c != '#' && c != '.'));
        if let Some(r) = bad {
            ctx.err(
                Code::E0005,
                r.span,
                "every row of a glyph is as wide as the first, made of `#` and `.`",
                "this row",
                "draw lit cells with `#` and dark ones with `.`",
            );
            continue;
        }
        if g.rows.len() > 8 || width == 0 || width > 8 {
            ctx.err(Code::E0005, g.span, "a glyph has 1 to 8 rows of 1 to 8 columns", "this glyph", "draw it smaller");
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

/// E0003: a statement the game needs is missing; `example` is built from the game.
fn missing(ctx: &mut Ctx, game: &ast::Game, what: &str, example: &str) {
    ctx.diags.push(
        Diagnostic::error(Code::E0003, format!("game `{}` has no `{what}` statement", game.name.node))
            .with_label(Label::primary(ctx.file, game.name.span, format!("`{what}` is required")))
            .with_help(format!("add, for example: `{example}`")),
    );
}

/// The players, in turn order, and who moves first.
struct Players<'a> {
    list: Vec<ast::Ident>,
    first: usize,
    /// The `first` statement's player, which `first` names in a test.
    first_named: Option<&'a ast::Ident>,
}

impl<'a> Players<'a> {
    /// The `players` and `first` statements (`cards`: a game of cards needs neither).
    fn lower(
        ctx: &mut Ctx,
        players: Option<(Span, &Vec<ast::Ident>)>,
        first: Option<(Span, &'a ast::Ident)>,
        cards: bool,
        missing: &dyn Fn(&mut Ctx, &str, &str),
    ) -> Players<'a> {
        let list: Vec<ast::Ident> = match players {
            Some((sp, p)) => {
                if p.len() > 2 {
                    ctx.err(
                        Code::E0005,
                        sp,
                        format!("a game has one player (a puzzle) or two, found {}", p.len()),
                        "here",
                        format!("write `players {}, {}`", p[0].node, p[1].node),
                    );
                }
                for (i, a) in p.iter().enumerate() {
                    if p[..i].iter().any(|b| b.node == a.node) {
                        ctx.err(
                            Code::E0002,
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
                if !cards {
                    missing(ctx, "players", "players human, device");
                }
                Vec::new()
            }
        };
        let mut players = Players { list, first: 0, first_named: first.map(|(_, f)| f) };
        players.first = match first {
            Some((_, f)) => players.find(ctx, f).unwrap_or(0),
            // A puzzle's one player always moves.
            None if players.list.len() == 1 => 0,
            None => {
                if !cards {
                    let example = format!("first {}", players.list.first().map_or("human", |p| p.node.as_str()));
                    missing(ctx, "first", &example);
                }
                0
            }
        };
        players
    }

    /// The player `name` names (`first`: the one who moves first), or E0004.
    fn find(&self, ctx: &mut Ctx, name: &ast::Ident) -> Option<usize> {
        if name.node == "first" {
            return self.first_named.and_then(|f| self.list.iter().position(|p| p.node == f.node));
        }
        let found = self.list.iter().position(|p| p.node == name.node);
        if found.is_none() {
            let names: Vec<&str> = self.list.iter().map(|p| p.node.as_str()).collect();
            ctx.unknown("player", name, &names);
        }
        found
    }
}

/// The device's strategy. In a serial game where the host picks its side, `device` names
/// whichever side is left.
fn lower_strategy(
    ctx: &mut Ctx,
    strategy: Option<(Span, statements::StrategyRef)>,
    serial_controls: Option<(Span, &Vec<ast::Command>)>,
    players: &Players,
    layout: &Layout,
) -> Option<StrategyDef> {
    let host_picks_side = serial_controls
        .is_some_and(|(_, cs)| cs.iter().any(|c| matches!(c.action.node, ast::SessionAction::HostPlaysSide)));
    strategy.and_then(|(sp, (player, kind, ties, deepening, order_by_eval))| {
        let p = if host_picks_side && player.node == "device" && !players.list.iter().any(|p| p.node == "device") {
            None
        } else {
            Some(players.find(ctx, player)?)
        };
        let kind = match kind.node.as_str() {
            "perfect" => StrategyKind::Perfect,
            "search" => StrategyKind::Search,
            _ => StrategyKind::Random,
        };
        if kind != StrategyKind::Search && (deepening || order_by_eval) {
            ctx.err(
                Code::E0005,
                sp,
                "`deepening` and `order by eval` are options of a search",
                "not a search",
                format!("write `strategy {} = {}` alone, or make it a `search`", player.node, kind_name(kind)),
            );
        }
        if kind != StrategyKind::Perfect && ties.is_some() {
            ctx.err(
                Code::E0005,
                sp,
                "`ties` says how a solved strategy chooses among equally good moves",
                "not a solved strategy",
                "drop `ties`, or make the strategy `perfect`",
            );
        }
        if let (StrategyKind::Search, Layout::Line(_)) = (kind, layout) {
            ctx.err(
                Code::E0006,
                sp,
                "search is supported on grid games",
                "a line game",
                format!("line games are small enough to solve: `strategy {} = perfect, ties random`", player.node),
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
    })
}

/// The `tune` statements, each named once, their notes in range.
fn lower_tunes(ctx: &mut Ctx, tunes_ast: &[(&ast::Ident, &Vec<Spanned<ast::Note>>)]) -> Vec<TuneDef> {
    let mut tunes: Vec<TuneDef> = Vec::new();
    for (name, notes) in tunes_ast {
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
                        Code::E0008,
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
                    Code::E0005,
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
    tunes
}

/// A serial game's `controls serial` and `feedback serial`, which come together.
fn lower_serial(
    ctx: &mut Ctx,
    controls: Option<(Span, &Vec<ast::Command>)>,
    feedback: Option<(Span, &Vec<Spanned<ast::SerialFeedbackItem>>)>,
    scope: &crate::lower_serial::Scope,
) -> Option<SerialDef> {
    match (controls, feedback) {
        // A game may carry both: each board binds the interface its devices serve.
        (Some((sp, cs)), Some((_, fs))) => Some(crate::lower_serial::lower(scope, cs, fs, sp, &mut ctx.diags)),
        (Some((sp, _)), None) | (None, Some((sp, _))) => {
            ctx.err(
                Code::E0012,
                sp,
                "serial controls and serial feedback come together",
                "only one of them",
                "a game over a serial line needs both `controls serial` and `feedback serial`",
            );
            None
        }
        (None, None) => None,
    }
}

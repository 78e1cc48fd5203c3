//! A game file's statements gathered by kind before they are lowered: a statement a game
//! may have once is kept (a second one reported), the others listed in the file's order.

use super::Ctx;
use crate::ast::{self, Spanned};
use crate::Span;

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
pub(super) type PiecesRef<'a> = (&'a ast::Ident, &'a Vec<ast::Ident>, &'a ast::Supply);
pub(super) type FixedRef<'a> =
    (&'a Option<Spanned<String>>, &'a Vec<ast::Placement>, &'a Vec<ast::Int>, &'a Option<ast::Int>);
pub(super) type GroupRef<'a> = (&'a ast::Ident, &'a ast::Int, &'a Vec<Spanned<ast::GroupRule>>);
pub(super) type SetupRef<'a> = (&'a ast::Ident, &'a Vec<Spanned<ast::Require>>);
pub(super) type StrategyRef<'a> = (&'a ast::Ident, &'a ast::Ident, &'a Option<ast::Ident>, bool, bool);

/// The statements of one game.
pub(super) struct Statements<'a> {
    pub players: Option<(Span, &'a Vec<ast::Ident>)>,
    pub first: Option<(Span, &'a ast::Ident)>,
    pub board: Option<(Span, &'a ast::BoardShape)>,
    pub pieces: Option<(Span, PiecesRef<'a>)>,
    pub promotions: Vec<(Span, &'a ast::Ident, &'a ast::Ident, &'a Option<ast::Ident>)>,
    pub setup: Option<(Span, SetupRef<'a>)>,
    pub end: Option<(Span, &'a Vec<ast::Ending>)>,
    pub pass: Option<(Span, ())>,
    pub fixed_setups: Vec<(Span, FixedRef<'a>)>,
    pub states_item: Option<(Span, &'a Vec<ast::Ident>)>,
    pub regions_ast: Vec<(Span, &'a ast::Ident, &'a Vec<ast::Ident>)>,
    pub tests_ast: Vec<&'a ast::Test>,
    pub strategy: Option<(Span, StrategyRef<'a>)>,
    pub eval: Option<(Span, &'a Vec<ast::EvalCase>)>,
    pub controls: Option<(Span, &'a Vec<Spanned<ast::ControlItem>>)>,
    pub feedback: Option<(Span, &'a Vec<Spanned<ast::FeedbackItem>>)>,
    pub serial_controls: Option<(Span, &'a Vec<ast::Command>)>,
    pub serial_feedback: Option<(Span, &'a Vec<Spanned<ast::SerialFeedbackItem>>)>,
    pub actions: Vec<(Span, &'a ast::Ident, &'a ast::Mechanic)>,
    pub tunes_ast: Vec<(&'a ast::Ident, &'a Vec<Spanned<ast::Note>>)>,
    pub fonts_ast: Vec<&'a ast::Glyph>,
    pub cards_ast: Option<(Span, &'a Vec<ast::Attribute>)>,
    pub table_ast: Option<(Span, (&'a ast::Int, &'a ast::Int, &'a ast::Int))>,
    pub group_ast: Option<(Span, GroupRef<'a>)>,
}

/// The statements of `game`, with a diagnostic for each one given twice.
pub(super) fn collect<'a>(ctx: &mut Ctx, game: &'a ast::Game) -> Statements<'a> {
    let mut st = Statements {
        players: None,
        first: None,
        board: None,
        pieces: None,
        promotions: Vec::new(),
        setup: None,
        end: None,
        pass: None,
        fixed_setups: Vec::new(),
        states_item: None,
        regions_ast: Vec::new(),
        tests_ast: Vec::new(),
        strategy: None,
        eval: None,
        controls: None,
        feedback: None,
        serial_controls: None,
        serial_feedback: None,
        actions: Vec::new(),
        tunes_ast: Vec::new(),
        fonts_ast: Vec::new(),
        cards_ast: None,
        table_ast: None,
        group_ast: None,
    };
    for item in &game.items {
        let sp = item.span;
        match &item.node {
            ast::GameItem::Players(p) => once(ctx, "players", &mut st.players, sp, p),
            ast::GameItem::First(f) => once(ctx, "first", &mut st.first, sp, f),
            ast::GameItem::Board(b) => once(ctx, "board", &mut st.board, sp, b),
            ast::GameItem::Region { name, cells } => st.regions_ast.push((sp, name, cells)),
            ast::GameItem::Pieces { kind, kinds, supply } => {
                once(ctx, "pieces", &mut st.pieces, sp, (kind, kinds, supply))
            }
            ast::GameItem::Promote { from, to, on } => st.promotions.push((sp, from, to, on)),
            ast::GameItem::Setup { kind, requires } => once(ctx, "setup", &mut st.setup, sp, (kind, requires)),
            ast::GameItem::End(endings) => once(ctx, "end", &mut st.end, sp, endings),
            ast::GameItem::Pass => once(ctx, "pass", &mut st.pass, sp, ()),
            ast::GameItem::FixedSetup { name, placements, heaps, pits, .. } => {
                st.fixed_setups.push((sp, (name, placements, heaps, pits)))
            }
            ast::GameItem::States(s) => once(ctx, "states", &mut st.states_item, sp, s),
            ast::GameItem::Eval(cases) => once(ctx, "eval", &mut st.eval, sp, cases),
            ast::GameItem::Strategy { player, kind, ties, deepening, order_by_eval } => {
                once(ctx, "strategy", &mut st.strategy, sp, (player, kind, ties, *deepening, *order_by_eval))
            }
            ast::GameItem::Controls(c) => once(ctx, "controls", &mut st.controls, sp, c),
            ast::GameItem::Feedback(f) => once(ctx, "feedback", &mut st.feedback, sp, f),
            ast::GameItem::SerialControls(c) => once(ctx, "controls serial", &mut st.serial_controls, sp, c),
            ast::GameItem::SerialFeedback(f) => once(ctx, "feedback serial", &mut st.serial_feedback, sp, f),
            ast::GameItem::Action { name, mechanic } => st.actions.push((sp, name, mechanic)),
            ast::GameItem::Tune { name, notes } => st.tunes_ast.push((name, notes)),
            ast::GameItem::Test(t) => st.tests_ast.push(t),
            ast::GameItem::Font(glyphs) => st.fonts_ast.extend(glyphs.iter()),
            ast::GameItem::Cards(attrs) => once(ctx, "cards", &mut st.cards_ast, sp, attrs),
            ast::GameItem::Table { capacity, rows, cols } => {
                once(ctx, "table", &mut st.table_ast, sp, (capacity, rows, cols))
            }
            ast::GameItem::Group { name, size, rules } => {
                once(ctx, "group", &mut st.group_ast, sp, (name, size, rules))
            }
        }
    }
    st
}

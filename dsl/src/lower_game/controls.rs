//! A game's `controls`: what each button or encoder does, and the idle time and the control
//! that wakes the device, checked against the game's pieces and actions.

use super::Ctx;
use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
use crate::Span;

/// What a control's action is checked against: the game's layout, pieces and actions.
struct Scope<'a> {
    layout: &'a Layout,
    check_piece: &'a dyn Fn(&mut Ctx, &ast::Ident),
    moves: &'a [MoveDef],
    action_names: &'a [&'a ast::Ident],
}

/// The controls' definitions in the file's order, and the idle time with the control that
/// wakes from it.
pub(super) fn lower(
    ctx: &mut Ctx,
    controls: Option<(Span, &Vec<Spanned<ast::ControlItem>>)>,
    layout: &Layout,
    check_piece: &dyn Fn(&mut Ctx, &ast::Ident),
    moves: &[MoveDef],
    action_names: &[&ast::Ident],
) -> (Vec<ControlDef>, Option<IdleDef>) {
    let scope = Scope { layout, check_piece, moves, action_names };
    let mut control_defs: Vec<ControlDef> = Vec::new();
    let mut idle = None;
    let mut idle_wake: Option<&ast::Ident> = None;
    for c in controls.iter().flat_map(|(_, items)| items.iter()) {
        match &c.node {
            ast::ControlItem::Idle { after, wake } => {
                if idle.is_some() {
                    ctx.err(Code::E0002, c.span, "`idle` is given twice", "again here", "keep one `idle` statement");
                    continue;
                }
                if after.node == 0 || after.node > 3_600_000 {
                    let wake = wake.as_ref().map(|w| format!(", wake {}", w.node)).unwrap_or_default();
                    ctx.err(
                        Code::E0005,
                        after.span,
                        "an idle time is 1 ms to 1 hour",
                        "out of range",
                        format!("for example `idle 30 s -> sleep{wake}`"),
                    );
                }
                idle_wake = wake.as_ref();
                idle = Some(IdleDef { after_ms: after.node.clamp(1, 3_600_000), wake: None, span: c.span });
            }
            ast::ControlItem::Bind { name, index, action } => {
                if let Some(first) = control_defs.iter().find(|d| d.name.node == name.node) {
                    let first = first.name.span;
                    ctx.duplicate(&format!("control {}", name.node), first, name.span);
                    continue;
                }
                if let Some(action) = control_action(ctx, &scope, name, index.as_ref(), action) {
                    control_defs.push(ControlDef { name: name.clone(), per_piece: index.is_some(), action });
                }
            }
        }
    }
    if let (Some(idle), Some(wake)) = (idle.as_mut(), idle_wake) {
        idle.wake = wake_control(ctx, &control_defs, wake);
    }
    if let (false, Some((sp, _))) = (control_defs.iter().any(|c| c.action == ControlAction::Commit), controls) {
        ctx.err(Code::E0010, sp, "no control commits a move", "controls", "add one: `CONTROL -> commit`");
    }
    (control_defs, idle)
}

/// What control `name` (`name[index]`, a control a piece) does; `None` where it names no
/// action a control can take, with the error said.
fn control_action(
    ctx: &mut Ctx,
    scope: &Scope,
    name: &ast::Ident,
    index: Option<&ast::Ident>,
    action: &ast::ControlAction,
) -> Option<ControlAction> {
    let no_index = |ctx: &mut Ctx, what: &str| {
        if let Some(i) = index {
            ctx.err(
                Code::E0009,
                i.span,
                format!("`{what}` takes no index"),
                "index here",
                format!("write `{} -> {what}`", name.node),
            );
        }
    };
    Some(match action {
        ast::ControlAction::Cursor { across } => {
            no_index(ctx, "cursor");
            cursor_on(ctx, scope.layout, name, *across);
            ControlAction::Cursor { across: *across }
        }
        ast::ControlAction::Restart => {
            no_index(ctx, "restart");
            ControlAction::Restart
        }
        ast::ControlAction::Commit => {
            no_index(ctx, "commit");
            ControlAction::Commit
        }
        ast::ControlAction::Extend { action, piece, index: arg } => {
            return extend(ctx, scope, name, index, action, piece, arg);
        }
    })
}

/// Checks that a cursor can go where `layout` has cells: along a line, over a grid.
fn cursor_on(ctx: &mut Ctx, layout: &Layout, name: &ast::Ident, across: bool) {
    match layout {
        Layout::Grid(_) => {}
        // A line is a grid of one row: the cursor goes along it.
        Layout::Line(_) if across => {}
        Layout::Line(_) => ctx.err(
            Code::E0006,
            name.span,
            "a line has one row: its cursor moves across only",
            "no rows to go down",
            "drop this control, or write `cursor across`",
        ),
        Layout::Heaps(_) => {
            ctx.err(Code::E0006, name.span, "a cursor moves over cells", "heaps", "on heaps, use `extend` controls")
        }
    }
}

/// `name[index] -> extend action(piece[arg])`: the action whose moves from the piece (or heap)
/// the control's index counts are entered a press at a time.
fn extend(
    ctx: &mut Ctx,
    scope: &Scope,
    name: &ast::Ident,
    index: Option<&ast::Ident>,
    action: &ast::Ident,
    piece: &ast::Ident,
    arg: &ast::Ident,
) -> Option<ControlAction> {
    // On heaps the control picks a heap: `take(heap[i])`.
    if !(matches!(scope.layout, Layout::Heaps(_)) && piece.node == "heap") {
        (scope.check_piece)(ctx, piece);
    }
    match index {
        Some(i) if i.node == arg.node => {}
        Some(i) => ctx.err(
            Code::E0009,
            arg.span,
            format!("index `{}` is not the control's index `{}`", arg.node, i.node),
            "different index",
            format!("write `{}[{}]`", piece.node, i.node),
        ),
        None => ctx.err(
            Code::E0009,
            name.span,
            "a control that extends a piece's move needs an index",
            "one control per piece",
            format!("write `{}[{}] -> ...`", name.node, arg.node),
        ),
    }
    // Any action: each press enters its next move from the piece (one more cell of a slide,
    // one more counter from a heap, the pin and then the pair).
    if let Some(a) = scope.moves.iter().position(|m| m.name.node == action.node) {
        return Some(ControlAction::Extend { action: a });
    }
    // An action declared but refused has its diagnostic already.
    if !scope.action_names.iter().any(|n| n.node == action.node) {
        let names: Vec<&str> = scope.action_names.iter().map(|n| n.node.as_str()).collect();
        ctx.unknown("action", action, &names);
    }
    None
}

/// The control that wakes the device from idle, by its index among `controls`: a single
/// control, not one of a piece's.
fn wake_control(ctx: &mut Ctx, controls: &[ControlDef], wake: &ast::Ident) -> Option<usize> {
    match controls.iter().position(|c| c.name.node == wake.node) {
        Some(w) if !controls[w].per_piece => Some(w),
        Some(_) => {
            let single: Vec<&str> = controls.iter().filter(|c| !c.per_piece).map(|c| c.name.node.as_str()).collect();
            let help = match single.as_slice() {
                [] => "name a single control (`CONTROL -> commit`), not one of a piece's".to_string(),
                names => format!("name a single control: {}", names.join(", ")),
            };
            ctx.err(
                Code::E0009,
                wake.span,
                "a per-piece control cannot wake the device",
                "one of several buttons",
                help,
            );
            None
        }
        None => {
            let names: Vec<&str> = controls.iter().map(|c| c.name.node.as_str()).collect();
            ctx.unknown("control", wake, &names);
            None
        }
    }
}

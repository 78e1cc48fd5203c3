//! A game's `controls`: what each button or encoder does, and the idle time and the control
//! that wakes the device, checked against the game's pieces and actions.

use super::Ctx;
use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
use crate::Span;

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
    let mut control_defs: Vec<ControlDef> = Vec::new();
    let mut idle = None;
    let mut idle_wake: Option<&ast::Ident> = None;
    if let Some((_, items)) = controls {
        for c in items.iter() {
            match &c.node {
                ast::ControlItem::Idle { after, wake } => {
                    if idle.is_some() {
                        ctx.err(
                            Code::E0002,
                            c.span,
                            "`idle` is given twice",
                            "again here",
                            "keep one `idle` statement",
                        );
                        continue;
                    }
                    if after.node == 0 || after.node > 3_600_000 {
                        ctx.err(
                            Code::E0005,
                            after.span,
                            "an idle time is 1 ms to 1 hour",
                            "out of range",
                            "for example `idle 30 s -> sleep, wake go`",
                        );
                    }
                    idle_wake = wake.as_ref();
                    idle = Some(IdleDef { after_ms: after.node.clamp(1, 3_600_000), wake: None, span: c.span });
                }
                ast::ControlItem::Bind { name, index, action } => {
                    if control_defs.iter().any(|d| d.name.node == name.node) {
                        let first = control_defs.iter().find(|d| d.name.node == name.node).unwrap().name.span;
                        ctx.duplicate(&format!("control {}", name.node), first, name.span);
                        continue;
                    }
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
                    let action = match action {
                        ast::ControlAction::Cursor { across } => {
                            no_index(ctx, "cursor");
                            match layout {
                                Layout::Grid(_) => {}
                                // A line is a grid of one row: the cursor goes along it.
                                Layout::Line(_) if *across => {}
                                Layout::Line(_) => ctx.err(
                                    Code::E0006,
                                    name.span,
                                    "a line has one row: its cursor moves across only",
                                    "no rows to go down",
                                    "drop this control, or write `cursor across`",
                                ),
                                Layout::Heaps(_) => ctx.err(
                                    Code::E0006,
                                    name.span,
                                    "a cursor moves over cells",
                                    "heaps",
                                    "on heaps, use `extend` controls",
                                ),
                            }
                            ControlAction::Cursor { across: *across }
                        }
                        ast::ControlAction::Restart => {
                            no_index(ctx, "restart");
                            ControlAction::Restart
                        }
                        ast::ControlAction::Commit => {
                            if let Some(i) = index {
                                ctx.err(
                                    Code::E0009,
                                    i.span,
                                    "`commit` takes no index",
                                    "index here",
                                    format!("write `{} -> commit`", name.node),
                                );
                            }
                            ControlAction::Commit
                        }
                        ast::ControlAction::Extend { action, piece: p, index: arg } => {
                            // On heaps the control picks a heap: `take(heap[i])`.
                            if !(matches!(layout, Layout::Heaps(_)) && p.node == "heap") {
                                check_piece(ctx, p);
                            }
                            match index {
                                Some(i) if i.node == arg.node => {}
                                Some(i) => ctx.err(
                                    Code::E0009,
                                    arg.span,
                                    format!("index `{}` is not the control's index `{}`", arg.node, i.node),
                                    "different index",
                                    format!("write `{}[{}]`", p.node, i.node),
                                ),
                                None => ctx.err(
                                    Code::E0009,
                                    name.span,
                                    "a control that extends a piece's move needs an index",
                                    "one control per piece",
                                    format!("write `{}[{}] -> ...`", name.node, arg.node),
                                ),
                            }
                            let extendable = |m: &MoveDef| {
                                m.name.node == action.node
                                    && matches!(m.kind, MoveKind::Slide { .. } | MoveKind::Remove { .. })
                            };
                            match moves.iter().position(extendable) {
                                Some(a) => ControlAction::Extend { action: a },
                                None => {
                                    if !action_names.iter().any(|n| n.node == action.node) {
                                        let names: Vec<&str> = action_names.iter().map(|n| n.node.as_str()).collect();
                                        ctx.unknown("action", action, &names);
                                    } else {
                                        ctx.err(
                                            Code::E0009,
                                            action.span,
                                            format!(
                                                "`extend` moves a piece further along a slide or takes one more from a heap; `{}` does neither",
                                                action.node
                                            ),
                                            "not a slide or a removal",
                                            "name a `slide` or `remove` action here",
                                        );
                                    }
                                    continue;
                                }
                            }
                        }
                    };
                    control_defs.push(ControlDef { name: name.clone(), per_piece: index.is_some(), action });
                }
            }
        }
    }
    if let (Some(idle), Some(wake)) = (idle.as_mut(), idle_wake) {
        match control_defs.iter().position(|c| c.name.node == wake.node) {
            Some(w) if !control_defs[w].per_piece => idle.wake = Some(w),
            Some(_) => ctx.err(
                Code::E0009,
                wake.span,
                "a per-piece control cannot wake the device",
                "one of several buttons",
                "name a single control such as `go`",
            ),
            None => {
                let names: Vec<&str> = control_defs.iter().map(|c| c.name.node.as_str()).collect();
                ctx.unknown("control", wake, &names);
            }
        }
    }
    if let (false, Some((sp, _))) = (control_defs.iter().any(|c| c.action == ControlAction::Commit), controls) {
        ctx.err(Code::E0010, sp, "no control commits a move", "controls", "add `go -> commit`");
    }

    (control_defs, idle)
}

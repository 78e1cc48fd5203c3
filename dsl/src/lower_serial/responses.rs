//! `feedback serial`: what the device sends for each event, its texts' placeholders checked,
//! and the responses a host cannot do without.

use super::{text, Glyphs, Lowering, Scope};
use crate::ast;
use crate::model::*;
use crate::{Code, Span};

/// Each event's response, and the board's glyphs as written (where the block shows them).
pub(super) fn responses(
    l: &mut Lowering,
    feedback: &[ast::Spanned<ast::SerialFeedbackItem>],
) -> (Vec<SayDef>, Option<(Span, Glyphs)>) {
    let mut says: Vec<SayDef> = Vec::new();
    let mut glyphs: Option<(Span, Glyphs)> = None;
    for f in feedback {
        match &f.node {
            ast::SerialFeedbackItem::BoardText(g) => {
                if glyphs.is_some() {
                    l.err(Code::E0002, f.span, "`show board` is given twice", "again here", "keep one");
                }
                glyphs = Some((f.span, g.clone()));
            }
            ast::SerialFeedbackItem::Say { event, items } => {
                let Some(kind) = SessionEvent::ALL.into_iter().find(|e| e.name() == event.node) else {
                    unreachable!("the grammar admits only known events")
                };
                if says.iter().any(|s| s.event == kind) {
                    l.err(Code::E0002, event.span, "this event already has a response", "again here", "keep one");
                    continue;
                }
                let parts = items.iter().filter_map(|item| part(l, item, kind)).collect();
                says.push(SayDef { event: kind, parts, span: f.span });
            }
        }
    }
    (says, glyphs)
}

/// One part of a response to `event`; `None` (with its diagnostic) for a text that cannot be.
fn part(l: &mut Lowering, item: &ast::Spanned<ast::SayItem>, event: SessionEvent) -> Option<SayPart> {
    Some(match &item.node {
        ast::SayItem::Board => SayPart::Board,
        ast::SayItem::Await => SayPart::Await,
        ast::SayItem::Light(name) => SayPart::Light(name.clone()),
        ast::SayItem::Text(t) => match text(t, event) {
            Ok(line) => SayPart::Line(line),
            Err((why, help)) => {
                l.err(Code::E0012, item.span, why, "in this text", help);
                return None;
            }
        },
    })
}

/// The responses a host needs: to a line it cannot read, to a move refused, and in a game of
/// two players to the device's move.
pub(super) fn required(l: &mut Lowering, scope: &Scope, says: &[SayDef], span: Span) {
    // A game of one player has no device to move.
    let device = (scope.players.len() > 1).then_some((SessionEvent::DeviceMoves, "\"MM {cell}\", await"));
    let required = [(SessionEvent::Unknown, "\"ER\""), (SessionEvent::Denied, "\"IL\"")].into_iter().chain(device);
    for (required, example) in required {
        if !says.iter().any(|s| s.event == required) {
            l.err(
                Code::E0012,
                span,
                format!("the serial feedback says nothing `on {}`", required.name()),
                "feedback serial",
                &format!("the host needs an answer here: add, for example, `on {} -> {example}`", required.name()),
            );
        }
    }
}

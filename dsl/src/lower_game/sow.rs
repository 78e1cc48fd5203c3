//! Sowing (`sow from own pit, ...`): checked against the board of pits it needs, and lowered to
//! a [`SowDef`].

use super::Ctx;
use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
use crate::Span;

/// The options of a `sow`, as the parser kept them.
pub(super) struct Options<'a> {
    pub into_store: Option<Span>,
    pub again: Option<Span>,
    pub capture: Option<&'a Spanned<ast::SowCapture>>,
    pub skipping_origin: Option<Span>,
}

/// A sowing on `layout`, or `None` (with its diagnostic) where the board or an option cannot
/// take it.
pub(super) fn lower(ctx: &mut Ctx, sp: Span, layout: &Layout, o: Options) -> Option<MoveKind> {
    let Layout::Heaps(HeapsBoard { pits: Some(ring), .. }) = layout else {
        let help = "write `board pits 6 per side with stores`";
        ctx.err(Code::E0006, sp, "sowing goes round a board of pits", "a sowing", help);
        return None;
    };
    // What goes into a store needs one: the mover's own sowing, another move, a capture.
    let needs_store = [(o.into_store, "sowing into a store"), (o.again, "moving again from a store")]
        .into_iter()
        .chain([(o.capture.map(|c| c.span), "a capture, which goes to the mover's store")])
        .find_map(|(opt, what)| opt.map(|s| (s, what)));
    if let (false, Some((s, what))) = (ring.stores, needs_store) {
        let help = "write `board pits 6 per side with stores`";
        ctx.err(Code::E0006, s, format!("{what} needs stores"), "no stores on this board", help);
        return None;
    }
    if let (Some(s), None) = (o.again, o.into_store) {
        let help = "add `, into own store` before it";
        ctx.err(
            Code::E0006,
            s,
            "a last counter can end in the mover's store only if the store is sown into",
            "never",
            help,
        );
        return None;
    }
    let capture = match o.capture.map(|c| &c.node) {
        None => SowCaptureDef::Nothing,
        Some(ast::SowCapture::Opposite) => SowCaptureDef::Opposite,
        Some(ast::SowCapture::Making { min, max }) => {
            let max = max.as_ref().map_or(super::MAX_SEEDS, |m| m.node);
            if min.node == 0 || max < min.node || max > super::MAX_SEEDS {
                let msg =
                    format!("a capture takes a pit of 1 to {} counters, in a range from low to high", super::MAX_SEEDS);
                ctx.err(Code::E0005, min.span, msg, "this range", "write the counts that capture: `capturing 2..3`");
                return None;
            }
            SowCaptureDef::Making { min: min.node, max }
        }
    };
    Some(MoveKind::Sow(SowDef {
        into_store: o.into_store.is_some(),
        skip_origin: o.skipping_origin.is_some(),
        again: o.again.is_some(),
        capture,
    }))
}

//! A game of cards: what a card is (attributes in bit fields of its code), the table that
//! holds them, and the group of cards to find.

use super::statements::GroupRef;
use super::Ctx;
use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
use crate::{thousands, Diagnostic, Label, Span};

/// A card game's deck, table and group, checked: bit fields that hold their values without
/// overlapping, a table that is its rows times its columns, a group that fits on it.
pub(super) fn lower(
    ctx: &mut Ctx,
    cards: Option<(Span, &Vec<ast::Attribute>)>,
    table: Option<(Span, (&ast::Int, &ast::Int, &ast::Int))>,
    group: Option<(Span, GroupRef)>,
) -> Option<CardsDef> {
    let (span, attrs) = cards?;
    let attributes = attributes(ctx, attrs);
    let Some((_, (capacity, rows, cols))) = table else {
        ctx.err(Code::E0003, span, "cards need a table", "no `table`", "add, for example, `table 12 as 3 x 4`");
        return None;
    };
    check_layout(ctx, capacity, rows, cols);
    let Some((gsp, (name, size, rules))) = group else {
        ctx.err(
            Code::E0003,
            span,
            "cards need a `group` to find",
            "no `group`",
            "add, for example, `group NAME = 3 cards where every attribute is all same or all different`",
        );
        return None;
    };
    if size.node < 2 || size.node > capacity.node.min(8) {
        ctx.err(
            Code::E0005,
            size.span,
            "a group has 2 cards or more, at most 8 and no more than the table holds",
            "group size",
            "for example `3 cards`",
        );
    }
    let per = group_rules(ctx, &attributes, gsp, size, rules);
    Some(CardsDef {
        attributes,
        capacity: capacity.node,
        rows: rows.node,
        cols: cols.node,
        group: GroupDef { name: name.clone(), size: size.node, rules: per, span: gsp },
        span,
    })
}

/// The attributes, each named once, their values named once, their bits in the code apart.
fn attributes(ctx: &mut Ctx, attrs: &[ast::Attribute]) -> Vec<AttributeDef> {
    let mut attributes: Vec<AttributeDef> = Vec::new();
    let mut used: u32 = 0;
    for a in attrs {
        if attributes.iter().any(|b| b.name.node == a.name.node) {
            ctx.err(
                Code::E0002,
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
                    Diagnostic::error(
                        Code::E0002,
                        format!("attribute `{}` has the value `{}` twice", a.name.node, v.node),
                    )
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
            ctx.err(Code::E0005, at, "a card's code has bits 0 to 31", "out of range", "use bits 0 to 31");
            continue;
        }
        // At most 32, now that `hi` is a bit of the code.
        let width = hi - lo + 1;
        if (a.values.len() as u64) > 1u64 << width {
            ctx.err(
                Code::E0005,
                a.span,
                format!("{} values do not fit in {width} bits", a.values.len()),
                "too many values",
                format!("give the attribute {} bits", 64 - (a.values.len() as u64 - 1).leading_zeros()),
            );
        }
        let mask = (((1u64 << width) - 1) as u32) << lo;
        if used & mask != 0 {
            ctx.err(
                Code::E0005,
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
    attributes
}

/// The table's rows times columns must be the cards it holds.
fn check_layout(ctx: &mut Ctx, capacity: &ast::Int, rows: &ast::Int, cols: &ast::Int) {
    // Rows times columns, in arithmetic that cannot wrap: 4 x 1073741827 is no 12.
    let laid_out = u64::from(rows.node) * u64::from(cols.node);
    if capacity.node == 0 || capacity.node > 81 {
        ctx.err(
            Code::E0005,
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
                Code::E0005,
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
}

/// The group's rule for each attribute, the ones that can never hold refused.
fn group_rules(
    ctx: &mut Ctx,
    attributes: &[AttributeDef],
    gsp: Span,
    size: &ast::Int,
    rules: &[Spanned<ast::GroupRule>],
) -> Vec<Option<ast::Relation>> {
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
                Code::E0015,
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
    per
}

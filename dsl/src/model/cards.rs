//! A game of cards: the deck's attributes, the table, and the group of cards to find.

use crate::ast::Ident;
use crate::Span;

/// A deck of cards, one of every combination of the attributes' values, and the table they
/// are laid on.
#[derive(Debug, Clone)]
pub struct CardsDef {
    pub attributes: Vec<AttributeDef>,
    /// Cards the table holds, in `rows` rows of `cols`.
    pub capacity: u32,
    pub rows: u32,
    pub cols: u32,
    pub group: GroupDef,
    pub span: Span,
}

impl CardsDef {
    /// Cards in the deck (one for every combination of the attributes' values), counted
    /// without listing them; saturates far beyond any deck worth listing.
    pub fn deck_size(&self) -> u64 {
        self.attributes.iter().fold(1u64, |n, a| n.saturating_mul(a.values.len() as u64))
    }
}

/// An attribute: its values, numbered from 0 in the order written, held in `width` bits of the
/// card's code from bit `lo`.
#[derive(Debug, Clone)]
pub struct AttributeDef {
    pub name: Ident,
    pub values: Vec<Ident>,
    pub lo: u8,
    pub width: u8,
}

impl AttributeDef {
    /// The field's bits, shifted down to bit 0: all 32 of them for a field as wide as the code,
    /// where `(1 << width) - 1` would overflow.
    pub fn mask(&self) -> u32 {
        u32::MAX >> (32 - u32::from(self.width).clamp(1, 32))
    }
}

/// `group NAME = K cards where ...`: what makes K cards of the table a group.
#[derive(Debug, Clone)]
pub struct GroupDef {
    pub name: Ident,
    pub size: u32,
    /// Per attribute (index into `attributes`), how its values relate across the group;
    /// attributes no rule names are free.
    pub rules: Vec<Option<crate::ast::Relation>>,
    pub span: Span,
}

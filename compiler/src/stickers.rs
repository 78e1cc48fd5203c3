//! `gamec stickers`: every card's code as a Data Matrix symbol in SVG, named by the card, and
//! one printable sheet of them all with their names, for gluing on the cards so a scanner can
//! read them. The symbols come from the datamatrix crate; only the drawing is ours.

use crate::cards::Deck;
use datamatrix::{DataMatrix, SymbolList};
use gamec_dsl::Code;
use gamec_dsl::{Diagnostic, FileId, GameDef, Label};
use std::fmt::Write;

/// Millimetres a module, and the quiet zone around a symbol in modules.
const MODULE_MM: f64 = 1.0;
const QUIET: usize = 1;

/// One file to write: its name and its contents.
pub struct Sticker {
    pub file: String,
    pub svg: String,
}

/// The bytes a card's code puts in its symbol (as a scanner hands them on): little-endian,
/// as many as the code's bits need.
pub fn payload(deck: &Deck, code: u32) -> Vec<u8> {
    let bits = deck.def.attributes.iter().map(|a| a.lo as u32 + a.width as u32).max().unwrap_or(8);
    code.to_le_bytes()[..bits.div_ceil(8) as usize].to_vec()
}

/// The dark modules of a card's symbol, row by row, and its width.
pub fn modules(deck: &Deck, code: u32) -> (Vec<bool>, usize) {
    let symbol = DataMatrix::encode(&payload(deck, code), SymbolList::default().enforce_square())
        .expect("a few bytes always fit a Data Matrix");
    let bitmap = symbol.bitmap();
    (bitmap.bits().to_vec(), bitmap.width())
}

fn symbol_svg(out: &mut String, bits: &[bool], width: usize, x: f64, y: f64) {
    for (i, _) in bits.iter().enumerate().filter(|(_, &b)| b) {
        let (mx, my) = ((i % width + QUIET) as f64, (i / width + QUIET) as f64);
        let _ = write!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="{MODULE_MM}" height="{MODULE_MM}"/>"#,
            x + mx * MODULE_MM,
            y + my * MODULE_MM
        );
    }
}

/// Each card's sticker (`CODE-NAME.svg`) and the sheet (`sheet.svg`), or why there are none.
pub fn stickers(game: &GameDef, file: FileId) -> Result<Vec<Sticker>, Diagnostic> {
    let Some(cards) = &game.cards else {
        return Err(Diagnostic::error(Code::E0022, "only a game of cards has stickers")
            .with_label(Label::primary(file, game.name.span, "no `cards` here"))
            .with_help("stickers are for games with `cards { ... }`"));
    };
    let deck = Deck::new(cards);
    let mut out = Vec::new();
    let mut sheet = String::new();
    let per_row = 6;
    let cell = 40.0;
    for (i, code) in deck.cards().into_iter().enumerate() {
        let (bits, width) = modules(&deck, code);
        let side = (width + 2 * QUIET) as f64 * MODULE_MM;
        let name = deck.name(code);
        let mut svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{side}mm" height="{side}mm" viewBox="0 0 {side} {side}"><title>{name}</title><rect width="{side}" height="{side}" fill="white"/><g fill="black">"#
        );
        symbol_svg(&mut svg, &bits, width, 0.0, 0.0);
        svg.push_str("</g></svg>\n");
        out.push(Sticker { file: format!("{code:03}-{}.svg", name.replace(' ', "-")), svg });
        let (x, y) = ((i % per_row) as f64 * cell, (i / per_row) as f64 * cell);
        let _ = write!(sheet, r#"<g fill="black">"#);
        symbol_svg(&mut sheet, &bits, width, x + 5.0, y + 2.0);
        let _ = write!(
            sheet,
            r#"</g><text x="{:.1}" y="{:.1}" font-size="3" font-family="sans-serif">{name}</text>"#,
            x + 2.0,
            y + side + 6.0
        );
    }
    let rows = out.len().div_ceil(per_row);
    let (w, h) = (per_row as f64 * cell, rows as f64 * cell);
    out.push(Sticker {
        file: "sheet.svg".into(),
        svg: format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="white"/>{sheet}</svg>
"#
        ),
    });
    Ok(out)
}

//! The names a file declares (regions, actions, pieces, players ...) and where each is used:
//! go to definition, find references, and the names hover and completion offer.
//!
//! Declarations are read from the file's tokens by the grammar's declaring forms (`region
//! NAME =`, `players A, B`, `tune NAME {` ...), not from the parsed tree: the tree exists only
//! for a file without errors, and while a person types the file is seldom without one. A test
//! holds the scan to the parser's own reading (the model's spans) on every shipped file.

use gamec_dsl::Span;

/// What a name names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Game,
    Board,
    Player,
    Piece,
    PieceType,
    State,
    Region,
    Action,
    Setup,
    Test,
    Tune,
    Control,
    View,
    Attribute,
    CardValue,
    Group,
    Display,
    Lamp,
    Encoder,
    Eeprom,
    SerialPort,
}

impl Kind {
    /// How a hover says it: "a region".
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Game => "the game",
            Kind::Board => "the board",
            Kind::Player => "a player",
            Kind::Piece => "the piece",
            Kind::PieceType => "a kind of piece",
            Kind::State => "a state a cell may hold",
            Kind::Region => "a region",
            Kind::Action => "an action",
            Kind::Setup => "a fixed setup",
            Kind::Test => "a test",
            Kind::Tune => "a tune",
            Kind::Control => "a control",
            Kind::View => "a view the feedback shows",
            Kind::Attribute => "a card attribute",
            Kind::CardValue => "a card attribute's value",
            Kind::Group => "a group of cards",
            Kind::Display => "a display",
            Kind::Lamp => "a lamp (`led`)",
            Kind::Encoder => "an encoder",
            Kind::Eeprom => "an EEPROM",
            Kind::SerialPort => "a serial port",
        }
    }

    /// Names a game and a board share: a game's controls are the board's buttons, its views
    /// the board's displays, its `light NAME` the board's lamps.
    pub fn crosses_files(self) -> bool {
        matches!(self, Kind::Control | Kind::View | Kind::Display | Kind::Lamp)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Word,
    Int,
    Str,
    Punct,
}

/// A token of the text: comments are skipped, so nothing in one is taken for a name.
#[derive(Debug, Clone, Copy)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

/// A declaration: the name, what it names, and the span of the name (a string's without its
/// quotes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub kind: Kind,
    pub span: Span,
}

/// The tokens of `text`, as the grammar splits it: words (names and keywords), numbers,
/// strings in double quotes (ended by the line's end when unclosed), `->`, `..` and single
/// punctuation.
pub fn tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let kind = if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if text[i..].starts_with("//") {
            i += text[i..].find('\n').unwrap_or(text.len() - i);
            continue;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            i += run(&bytes[i..], |b| b.is_ascii_alphanumeric() || b == b'_');
            TokenKind::Word
        } else if c.is_ascii_digit() {
            i += run(&bytes[i..], |b| b.is_ascii_digit());
            TokenKind::Int
        } else if c == b'"' {
            let rest = &text[i + 1..];
            i += 1 + rest.find(['"', '\n']).map_or(rest.len(), |e| e + usize::from(rest.as_bytes()[e] == b'"'));
            TokenKind::Str
        } else {
            let two = text[i..].starts_with("->") || text[i..].starts_with("..");
            // One character, however many bytes it takes (a stray `é` is punctuation here).
            i += if two { 2 } else { text[i..].chars().next().map_or(1, char::len_utf8) };
            TokenKind::Punct
        };
        out.push(Token { kind, span: Span::new(start, i) });
    }
    out
}

fn run(bytes: &[u8], f: impl Fn(u8) -> bool) -> usize {
    bytes.iter().position(|&b| !f(b)).unwrap_or(bytes.len())
}

/// Every declaration in `text`, in the order written.
pub fn definitions(text: &str) -> Vec<Symbol> {
    let toks = tokens(text);
    let t = Tokens { text, toks: &toks };
    let mut out = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        if tok.kind == TokenKind::Word {
            declarations_at(&t, i, &mut out);
        }
    }
    out
}

/// The tokens with their text, read by position.
struct Tokens<'a> {
    text: &'a str,
    toks: &'a [Token],
}

impl Tokens<'_> {
    fn str(&self, i: usize) -> &str {
        self.toks.get(i).map_or("", |t| &self.text[t.span.start..t.span.end])
    }
    fn is(&self, i: usize, kind: TokenKind) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == kind)
    }
    fn symbol(&self, i: usize, kind: Kind) -> Symbol {
        let span = self.toks[i].span;
        let span = if self.toks[i].kind == TokenKind::Str {
            // The name inside the quotes (an unclosed string: to the end of its line).
            let closed = span.end > span.start + 1 && self.text[..span.end].ends_with('"');
            Span::new(span.start + 1, if closed { span.end - 1 } else { span.end })
        } else {
            span
        };
        Symbol { name: self.text[span.start..span.end].to_string(), kind, span }
    }
    /// The word at `i` followed by `next`: `region NAME =`.
    fn word_then(&self, i: usize, next: &str) -> bool {
        self.is(i, TokenKind::Word) && self.str(i + 1) == next
    }
    /// The index of the `}` closing the `{` at `open` (or the last token).
    fn block_end(&self, open: usize) -> usize {
        let mut depth = 0;
        for (j, tok) in self.toks.iter().enumerate().skip(open) {
            match &self.text[tok.span.start..tok.span.end] {
                "{" => depth += 1,
                "}" if depth <= 1 => return j,
                "}" => depth -= 1,
                _ => {}
            }
        }
        self.toks.len()
    }
}

/// The declarations a statement starting at word `i` makes, by the grammar's forms.
fn declarations_at(t: &Tokens, i: usize, out: &mut Vec<Symbol>) {
    let n = i + 1;
    let named = |next: &str| t.word_then(n, next);
    match t.str(i) {
        // `game NAME {` and `board NAME {` (a game's `board grid 8 x 8` names nothing).
        "game" if named("{") => out.push(t.symbol(n, Kind::Game)),
        "board" if named("{") => out.push(t.symbol(n, Kind::Board)),
        "players" => list(t, n, Kind::Player, out),
        "states" => list(t, n, Kind::State, out),
        // Not `most pieces wins`, nor `pieces` as an eval's feature (`10 * pieces`).
        "pieces" if !matches!(t.str(i.wrapping_sub(1)), "most" | "fewest" | "*" | "+" | "-" | ":") => {
            let first = out.len();
            list(t, n, Kind::PieceType, out);
            if let Some(s) = out.get_mut(first) {
                s.kind = Kind::Piece;
            }
        }
        "region" if named("=") => out.push(t.symbol(n, Kind::Region)),
        "action" if named("=") => out.push(t.symbol(n, Kind::Action)),
        "group" if named("=") => out.push(t.symbol(n, Kind::Group)),
        "tune" if named("{") => out.push(t.symbol(n, Kind::Tune)),
        "setup" if t.str(n) == "fixed" && t.is(n + 1, TokenKind::Str) => out.push(t.symbol(n + 1, Kind::Setup)),
        "test" if t.is(n, TokenKind::Str) => out.push(t.symbol(n, Kind::Test)),
        // `show board = text { ... }` is the serial board's glyphs, not a view.
        "show" if named("=") && t.str(n) != "board" => out.push(t.symbol(n, Kind::View)),
        "display" if named("=") => out.push(t.symbol(n, Kind::Display)),
        "led" if named("=") => out.push(t.symbol(n, Kind::Lamp)),
        "encoder" if named("=") => out.push(t.symbol(n, Kind::Encoder)),
        "eeprom" if named("=") => out.push(t.symbol(n, Kind::Eeprom)),
        "serial" if t.is(n, TokenKind::Word) && t.is(n + 1, TokenKind::Int) => out.push(t.symbol(n, Kind::SerialPort)),
        "controls" if t.str(n) == "{" => controls(t, n, out),
        "cards" if t.str(n) == "{" => attributes(t, n, out),
        _ => {}
    }
}

/// `NAME, NAME, ...` from token `i`.
fn list(t: &Tokens, mut i: usize, kind: Kind, out: &mut Vec<Symbol>) {
    while t.is(i, TokenKind::Word) {
        out.push(t.symbol(i, kind));
        if t.str(i + 1) != "," {
            return;
        }
        i += 2;
    }
}

/// A `controls { ... }` block: each `NAME ->` or `NAME[i] ->` names a control; `idle 30 s ->`
/// does not (a word after a number is a unit).
fn controls(t: &Tokens, open: usize, out: &mut Vec<Symbol>) {
    for j in open + 1..t.block_end(open) {
        let arrow = if t.str(j + 1) == "[" { j + 4 } else { j + 1 };
        if t.is(j, TokenKind::Word) && t.str(arrow) == "->" && !t.is(j.wrapping_sub(1), TokenKind::Int) {
            out.push(t.symbol(j, Kind::Control));
        }
    }
}

/// A `cards { ... }` block: `NAME = VALUE, VALUE ... at bits H..L`.
fn attributes(t: &Tokens, open: usize, out: &mut Vec<Symbol>) {
    for j in open + 1..t.block_end(open) {
        if t.word_then(j, "=") {
            out.push(t.symbol(j, Kind::Attribute));
            list(t, j + 2, Kind::CardValue, out);
        }
    }
}

/// Every use of `name` in `text` as a word outside comments and strings, the declaration
/// among them.
pub fn references(text: &str, name: &str) -> Vec<Span> {
    tokens(text)
        .into_iter()
        .filter(|t| t.kind == TokenKind::Word && &text[t.span.start..t.span.end] == name)
        .map(|t| t.span)
        .collect()
}

/// The word (letters, digits, `_`) around byte `offset`, if the offset is in one or at its end.
pub fn word_at(text: &str, offset: usize) -> Option<(Span, &str)> {
    let offset = super::positions::floor_boundary(text, offset);
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let start = text[..offset].char_indices().rev().take_while(|&(_, c)| is_word(c)).last().map_or(offset, |(i, _)| i);
    let end = offset + text[offset..].find(|c: char| !is_word(c)).unwrap_or(text.len() - offset);
    (end > start).then(|| (Span::new(start, end), &text[start..end]))
}

/// Whether byte `offset` is inside a comment or a string, where no word names anything.
pub fn in_comment_or_string(text: &str, offset: usize) -> bool {
    let offset = super::positions::floor_boundary(text, offset);
    // Neither comments nor strings run over a line's end: the line alone says.
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let mut in_string = false;
    for (i, c) in text[line_start..offset].char_indices() {
        match c {
            '"' => in_string = !in_string,
            '/' if !in_string && text[line_start + i..].starts_with("//") => return true,
            _ => {}
        }
    }
    in_string
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamec_dsl::{Definition, Sources};

    /// What the parser itself declares in a file, from the model's spans.
    fn model_symbols(def: &Definition) -> Vec<(String, Kind, Span)> {
        let mut out = Vec::new();
        let mut add = |kind, name: &gamec_dsl::ast::Spanned<String>| out.push((name.node.clone(), kind, name.span));
        match def {
            Definition::Game(g) => {
                add(Kind::Game, &g.name);
                g.rules.players.iter().for_each(|p| add(Kind::Player, p));
                g.rules.states.iter().for_each(|s| add(Kind::State, s));
                g.rules.regions.iter().for_each(|r| add(Kind::Region, &r.name));
                add(Kind::Piece, &g.rules.piece.name);
                g.rules.piece.kinds.iter().for_each(|k| add(Kind::PieceType, k));
                g.rules.moves.iter().for_each(|m| add(Kind::Action, &m.name));
                g.rules.setup.fixed().iter().filter_map(|s| s.name.as_ref()).for_each(|s| add(Kind::Setup, s));
                g.tests.iter().for_each(|t| add(Kind::Test, &t.name));
                g.interface.controls.iter().for_each(|c| add(Kind::Control, &c.name));
                g.interface.views.iter().for_each(|v| add(Kind::View, &v.name));
                g.interface.tunes.iter().for_each(|t| add(Kind::Tune, &t.name));
                if let Some(cards) = &g.cards {
                    for a in &cards.attributes {
                        add(Kind::Attribute, &a.name);
                        a.values.iter().for_each(|v| add(Kind::CardValue, v));
                    }
                    add(Kind::Group, &cards.group.name);
                }
            }
            Definition::Board(b) => {
                add(Kind::Board, &b.name);
                b.displays.iter().for_each(|d| add(Kind::Display, &d.name));
                b.matrix.iter().for_each(|m| add(Kind::Display, &m.name));
                b.leds.iter().for_each(|l| add(Kind::Lamp, &l.name));
                b.encoders.iter().for_each(|e| add(Kind::Encoder, &e.name));
                b.eeprom.iter().for_each(|e| add(Kind::Eeprom, &e.name));
                b.serial.iter().chain(&b.serial_roles).for_each(|s| add(Kind::SerialPort, &s.port));
            }
        }
        out
    }

    /// The scan agrees with the parser on every game and board the project ships: the same
    /// names, kinds and spans (strings' spans compared without their quotes).
    #[test]
    fn the_scan_finds_what_the_parser_declares_in_every_shipped_file() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files: Vec<_> = ["games", "boards"]
            .iter()
            .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap())
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(files.len() > 20, "the shipped files are found");
        let mut compared = 0;
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut sources = Sources::new();
            let id = sources.add(path.display().to_string(), text.clone());
            let def = gamec_dsl::load(&sources, id).unwrap_or_else(|_| panic!("{} loads", path.display()));
            let quoted = |s: Span| text[..s.start].ends_with('"') && text[s.end..].starts_with('"');
            let mut scanned: Vec<_> = definitions(&text)
                .into_iter()
                .map(|s| {
                    (s.name, s.kind, if quoted(s.span) { Span::new(s.span.start - 1, s.span.end + 1) } else { s.span })
                })
                .collect();
            // A game of states alone has no piece, and the model a name for it nobody wrote.
            let mut model: Vec<_> = model_symbols(&def)
                .into_iter()
                .filter(|(n, _, s)| {
                    text.get(s.start..s.end) == Some(n)
                        || text.get(s.start..s.end).is_some_and(|t| t.trim_matches('"') == n)
                })
                .collect();
            scanned.sort_by_key(|s| (s.2.start, s.1));
            model.sort_by_key(|s| (s.2.start, s.1));
            assert_eq!(scanned, model, "{}", path.display());
            compared += model.len();
        }
        assert!(compared > 300, "{compared} declarations compared");
    }

    #[test]
    fn a_broken_file_still_declares_what_it_can() {
        let text = "game g {\n  players red, blue\n  region home = A1, A2\n  action go = plac\n  tune t {";
        let names: Vec<_> = definitions(text).into_iter().map(|s| (s.name, s.kind)).collect();
        assert_eq!(
            names,
            [
                ("g".into(), Kind::Game),
                ("red".into(), Kind::Player),
                ("blue".into(), Kind::Player),
                ("home".into(), Kind::Region),
                ("go".into(), Kind::Action),
                ("t".into(), Kind::Tune),
            ]
        );
    }

    #[test]
    fn references_skip_comments_and_strings() {
        let text = "region home = A1 // home again\ntest \"home\" { from { x at home } }";
        let refs = references(text, "home");
        assert_eq!(refs, [Span::new(7, 11), Span::new(text.rfind("home").unwrap(), text.rfind("home").unwrap() + 4)]);
        assert!(in_comment_or_string(text, text.find("again").unwrap()));
        assert!(in_comment_or_string(text, text.find("\"home").unwrap() + 2));
        assert!(!in_comment_or_string(text, 8));
    }

    #[test]
    fn no_text_makes_the_scan_panic() {
        for text in ["", "\"", "//", "é\"x", "controls {", "cards { a = ", "pieces", "setup fixed \"", "x[", "\"é"] {
            let _ = definitions(text);
            for i in 0..=text.len() + 1 {
                let _ = word_at(text, i);
                let _ = in_comment_or_string(text, i);
            }
        }
    }
}

//! `show board = text { ... }`: the glyph of each player's pieces (and their further kinds),
//! of the shared piece, of each cell state, of an empty cell and of a legal one, and that none
//! the board needs is missing.

use super::{Glyphs, Lowering, Scope};
use crate::ast;
use crate::{Code, Span};

/// The board's glyphs, as the session prints them.
pub(super) struct Table {
    pub pieces: Vec<u8>,
    pub empty: u8,
    pub legal: u8,
    /// The further kinds' glyphs: the first player's and the second's of each kind.
    pub kinds: Vec<u8>,
    pub states: Vec<u8>,
}

/// Which glyphs the file gave.
struct Seen {
    /// The players', then `empty` and `legal`.
    slots: Vec<bool>,
    states: Vec<bool>,
    kinds: Vec<bool>,
    /// The shared piece's.
    piece: bool,
}

/// Whether the players' pieces each need a glyph: where there are pieces (a game of states
/// alone has none for them to show) and they are not shared.
fn players_need(scope: &Scope) -> bool {
    (scope.pieces || scope.states.is_empty()) && scope.shared_piece.is_none()
}

/// Who needs a glyph, for the hints: the players where their pieces need one (or the piece,
/// where pieces are shared), each state, `empty` and `legal`; on heaps, the piece alone.
fn needed(scope: &Scope) -> String {
    needed_names(scope).join(", ")
}

/// What needs a glyph, by name.
fn needed_names<'s>(scope: &'s Scope) -> Vec<&'s str> {
    match (scope.heaps, scope.shared_piece) {
        (true, piece) => piece.into_iter().collect(),
        (false, piece) => scope
            .players
            .iter()
            .filter(|_| players_need(scope))
            .map(|n| n.node.as_str())
            .chain(piece)
            .chain(scope.states.iter().map(|n| n.node.as_str()))
            .chain(["empty", "legal"])
            .collect(),
    }
}

/// A `show board` that gives everything of the game a glyph: `empty` and `legal` as the board
/// shows them without one, every other name its initial (or a digit where that is taken).
fn example_board(scope: &Scope) -> String {
    let mut used: Vec<u8> = vec![b'.', b'*'];
    let glyphs: Vec<String> = needed_names(scope)
        .into_iter()
        .map(|name| {
            let g = match name {
                "empty" => b'.',
                "legal" => b'*',
                _ => {
                    let initial = name.bytes().next().map(|b| b.to_ascii_uppercase());
                    let g = initial.filter(|b| b.is_ascii_alphabetic() && !used.contains(b));
                    g.unwrap_or_else(|| (b'1'..=b'9').find(|d| !used.contains(d)).unwrap_or(b'?'))
                }
            };
            used.push(g);
            format!("{name} \"{}\"", g as char)
        })
        .collect();
    format!("add, for example: `show board = text {{ {} }}`", glyphs.join(", "))
}

/// The glyphs `shown` gives, every one checked, and an error where one the board needs is
/// missing (or `show board` is).
pub(super) fn table(l: &mut Lowering, scope: &Scope, shown: Option<(Span, Glyphs)>, span: Span) -> Table {
    let players = scope.players.len();
    let mut t = Table {
        pieces: vec![b'?'; players],
        empty: b'.',
        legal: b'*',
        kinds: vec![b'?'; 2 * scope.kinds.len()],
        states: vec![b'?'; scope.states.len()],
    };
    let needed = needed(scope);
    let Some((gspan, g)) = shown else {
        let help = example_board(scope);
        l.err(Code::E0012, span, "the serial feedback does not say how the board is shown", "feedback serial", &help);
        return t;
    };
    let mut seen = Seen {
        slots: vec![false; players + 2],
        states: vec![false; scope.states.len()],
        kinds: vec![false; 2 * scope.kinds.len()],
        piece: false,
    };
    for (who, kind, glyph) in &g {
        if glyph.node.len() != 1 || !glyph.node.as_bytes()[0].is_ascii_graphic() && glyph.node != " " {
            l.err(Code::E0012, glyph.span, "a board glyph is one printable character", "here", "for example \"B\"");
            continue;
        }
        let ch = glyph.node.as_bytes()[0];
        match kind {
            Some(kind) => kind_glyph(l, scope, &mut t, &mut seen, who, kind, ch),
            None => glyph_of(l, scope, &mut t, &mut seen, who, ch, &needed),
        }
    }
    complete(l, scope, &seen, gspan, &needed);
    t
}

/// `PLAYER KIND "G"`: a further kind's glyph for one player.
fn kind_glyph(
    l: &mut Lowering,
    scope: &Scope,
    t: &mut Table,
    seen: &mut Seen,
    who: &ast::Ident,
    kind: &ast::Ident,
    ch: u8,
) {
    let player = scope.players.iter().position(|p| p.node == who.node);
    let k = scope.kinds.iter().position(|k| k.node == kind.node);
    match (player, k) {
        (Some(p), Some(k)) if p < 2 => {
            t.kinds[2 * k + p] = ch;
            seen.kinds[2 * k + p] = true;
        }
        (Some(_), Some(_)) => {}
        (None, _) => {
            let help = format!("a kind's glyph follows a player: {}", scope.player_names().join(", "));
            l.err(Code::E0004, who.span, format!("`{}` is not a player", who.node), "unknown", &help);
        }
        (_, None) => {
            let names: Vec<&str> = scope.kinds.iter().map(|k| k.node.as_str()).collect();
            let help = match names.is_empty() {
                true => "this game's pieces have one kind: give the player's glyph alone".to_string(),
                false => format!("the further kinds are: {}", names.join(", ")),
            };
            l.err(Code::E0004, kind.span, format!("`{}` is not a further kind of piece", kind.node), "unknown", &help);
        }
    }
}

/// `WHO "G"`: a state's, the shared piece's, a player's, `empty`'s or `legal`'s glyph.
fn glyph_of(l: &mut Lowering, scope: &Scope, t: &mut Table, seen: &mut Seen, who: &ast::Ident, ch: u8, needed: &str) {
    if let Some(k) = scope.states.iter().position(|s| s.node == who.node) {
        t.states[k] = ch;
        seen.states[k] = true;
        return;
    }
    if scope.shared_piece == Some(who.node.as_str()) {
        t.pieces.fill(ch);
        seen.piece = true;
        return;
    }
    let players = scope.players.len();
    let slot = match who.node.as_str() {
        "empty" => players,
        "legal" => players + 1,
        name => match scope.players.iter().position(|p| p.node == name) {
            Some(i) => i,
            None => {
                let msg = format!("`{name}` is neither a player, a piece, a state, `empty` nor `legal`");
                l.err(Code::E0004, who.span, msg, "unknown", &format!("give a glyph to each of: {needed}"));
                return;
            }
        },
    };
    seen.slots[slot] = true;
    match slot {
        s if s < players => t.pieces[s] = ch,
        s if s == players => t.empty = ch,
        _ => t.legal = ch,
    }
}

/// An error for a further kind without its glyph, and one for any other glyph the board needs
/// and the file does not give.
fn complete(l: &mut Lowering, scope: &Scope, seen: &Seen, gspan: Span, needed: &str) {
    let player_names = scope.player_names();
    if let Some(missing) = seen.kinds.iter().position(|s| !s) {
        let kind = &scope.kinds[missing / 2].node;
        l.err(
            Code::E0012,
            gspan,
            format!("the {kind} of {} needs a glyph", player_names.get(missing % 2).copied().unwrap_or("?")),
            "incomplete",
            &format!(
                "give each player's `{kind}` a glyph, such as `{} {kind} \"K\"`",
                player_names.first().copied().unwrap_or("PLAYER")
            ),
        );
    }
    // A game of states alone has no pieces for its players' glyphs to show; shared pieces have
    // one glyph; heaps show nothing else.
    let players = scope.players.len();
    let missing = match scope.heaps {
        true => !seen.piece,
        false => {
            (players_need(scope) && seen.slots[..players].iter().any(|s| !s))
                || (scope.shared_piece.is_some() && scope.pieces && !seen.piece)
                || seen.slots[players..].iter().any(|s| !s)
                || seen.states.contains(&false)
        }
    };
    if missing {
        l.err(
            Code::E0012,
            gspan,
            "every player with pieces (or the shared piece), every state, `empty` and `legal` need a glyph",
            "incomplete",
            &format!("give a glyph to each of: {needed}"),
        );
    }
}

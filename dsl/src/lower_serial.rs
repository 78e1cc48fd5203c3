//! Resolution of a game's `controls serial` and `feedback serial` blocks into a [`SerialDef`]:
//! command words, their arguments and actions, and what the device sends for each event.

use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
use crate::{Diagnostic, FileId, Label, Span};

/// `show board = text { ... }` as written: who, and the glyph's text.
type Glyphs = Vec<(ast::Ident, Option<ast::Ident>, Spanned<String>)>;

/// Longest command word: the session matches words at the start of a short line buffer.
const MAX_WORD: usize = 8;

/// Most choices of a side command: with words of at most 8 bytes, their arguments stay within
/// the byte the command table counts them in.
const MAX_SIDES: usize = 16;

/// What the serial blocks may refer to in the rest of the game.
pub struct Scope<'a> {
    pub file: FileId,
    pub players: &'a [ast::Ident],
    /// The further kinds of a player's piece (`pieces man, king per player`: `king`).
    pub kinds: &'a [ast::Ident],
    /// The game's actions; `play` takes a placement or a drop.
    pub moves: &'a [MoveDef],
    pub pass: bool,
    /// The states a cell may hold, each shown by a glyph of its own.
    pub states: &'a [ast::Ident],
    /// Whether the game declares pieces: a game of states alone gives its players no glyph.
    pub pieces: bool,
    /// The piece's name where pieces belong to nobody (a line's pins, heaps' counters): one
    /// glyph, under that name, shows them whoever is to move.
    pub shared_piece: Option<&'a str>,
    /// The cells are heaps: the board is shown a heap a line, by the piece's glyph alone.
    pub heaps: bool,
    /// The game's starts, which `new game` may pick by number.
    pub setups: usize,
}

pub fn lower(
    scope: &Scope,
    controls: &[ast::Command],
    feedback: &[Spanned<ast::SerialFeedbackItem>],
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> SerialDef {
    let file = scope.file;
    let mut err = |code: Code, span: Span, msg: String, label: &str, help: &str| {
        diags.push(Diagnostic::error(code, msg).with_label(Label::primary(file, span, label)).with_help(help));
    };
    let player_names: Vec<&str> = scope.players.iter().map(|p| p.node.as_str()).collect();

    let mut commands: Vec<CommandDef> = Vec::new();
    // Diagnostics with a note at an earlier span, which `err` does not write.
    let mut twice: Vec<Diagnostic> = Vec::new();
    for c in controls {
        let word = &c.word.node;
        if word.is_empty() || word.len() > MAX_WORD || !word.bytes().all(|b| b.is_ascii_graphic()) {
            err(
                Code::E0012,
                c.word.span,
                format!("`{word}` cannot be a command word"),
                "here",
                "a command word is 1 to 8 printable characters without spaces, such as \"MV\"",
            );
            continue;
        }
        if commands.iter().any(|d| &d.word == word) {
            err(Code::E0002, c.word.span, format!("command \"{word}\" is given twice"), "again here", "keep one");
            continue;
        }
        let arg = match c.arg.as_ref().map(|a| &a.node) {
            None => CommandArgDef::None,
            Some(ast::CommandArg::Cell) => CommandArgDef::Cell,
            Some(ast::CommandArg::Move) => CommandArgDef::Move,
            Some(ast::CommandArg::Column) => CommandArgDef::Column,
            Some(ast::CommandArg::Number { min, max }) => {
                if min.node > max.node || max.node > 255 {
                    err(
                        Code::E0005,
                        max.span,
                        "a number argument is a range within 0..255".into(),
                        "here",
                        "write `number 1..9`",
                    );
                }
                CommandArgDef::Number { min: min.node, max: max.node }
            }
            Some(ast::CommandArg::Side(choices)) => {
                let mut out = Vec::new();
                // The command table keeps a side command's arguments after a byte of their
                // length: a word's length and text and its player each, so the words are short
                // like command words and the choices few.
                if choices.len() > MAX_SIDES {
                    err(
                        Code::E0005,
                        choices[MAX_SIDES].0.span,
                        format!("a side command offers at most {MAX_SIDES} choices, not {}", choices.len()),
                        "one too many",
                        &format!("give each side one or two words: `side {{ {} }}`", side_texts(scope.players)),
                    );
                }
                for (i, (text, player)) in choices.iter().enumerate() {
                    if text.node.is_empty()
                        || text.node.len() > MAX_WORD
                        || !text.node.bytes().all(|b| b.is_ascii_graphic())
                    {
                        err(
                            Code::E0012,
                            text.span,
                            format!("\"{}\" cannot be a side's word", text.node),
                            "here",
                            "a side's word is 1 to 8 printable characters without spaces, such as \"B\"",
                        );
                        continue;
                    }
                    // The host types the text: two choices of one text leave the second unreachable.
                    if let Some((first, _)) = choices[..i].iter().find(|(t, _)| t.node == text.node) {
                        twice.push(
                            Diagnostic::error(Code::E0002, format!("the side choice \"{}\" is given twice", text.node))
                                .with_label(Label::primary(file, text.span, "given again here"))
                                .with_label(Label::secondary(file, first.span, "first given here"))
                                .with_help(format!(
                                    "give each side its own text: `side {{ {} }}`",
                                    side_texts(scope.players)
                                )),
                        );
                        continue;
                    }
                    match scope.players.iter().position(|p| p.node == player.node) {
                        Some(i) => out.push((text.node.clone(), i)),
                        None => err(
                            Code::E0004,
                            player.span,
                            format!("unknown player `{}`", player.node),
                            "no player of this name",
                            &format!("the players declared are: {}", player_names.join(", ")),
                        ),
                    }
                }
                CommandArgDef::Side(out)
            }
        };
        let expects = |arg: &CommandArgDef| match &c.action.node {
            ast::SessionAction::Play(None) => matches!(arg, CommandArgDef::Move),
            ast::SessionAction::Play(Some(name)) => {
                let drop = scope.moves.iter().any(|m| m.name.node == name.node && m.kind == MoveKind::Drop);
                matches!((arg, drop), (CommandArgDef::Cell, false) | (CommandArgDef::Column, true))
            }
            ast::SessionAction::HostPlaysSide => matches!(arg, CommandArgDef::Side(_)),
            ast::SessionAction::MoveTime { .. } => matches!(arg, CommandArgDef::Number { .. }),
            // A new game from the start numbered, or from the one played last.
            ast::SessionAction::NewGame => matches!(arg, CommandArgDef::None | CommandArgDef::Number { .. }),
            _ => matches!(arg, CommandArgDef::None),
        };
        if !expects(&arg) {
            let want = match &c.action.node {
                ast::SessionAction::Play(Some(name))
                    if scope.moves.iter().any(|m| m.name.node == name.node && m.kind == MoveKind::Drop) =>
                {
                    "`column` (a drop goes into a column)"
                }
                ast::SessionAction::Play(Some(_)) => "`cell` (or `move` with `play` alone, for any move)",
                ast::SessionAction::Play(None) => "`move` (a move as the cells it goes through, `C3-D4`)",
                ast::SessionAction::HostPlaysSide => "`side { ... }`",
                ast::SessionAction::MoveTime { .. } => "`number MIN..MAX`",
                ast::SessionAction::NewGame => "no argument, or `number 1..N` for the setup to start from",
                _ => "no argument",
            };
            err(
                Code::E0012,
                c.action.span,
                "this action does not take that argument".into(),
                "the action",
                &format!("this action takes {want}"),
            );
            continue;
        }
        let action = match &c.action.node {
            ast::SessionAction::Ping => SessionAction::Ping,
            ast::SessionAction::Ack => SessionAction::Ack,
            ast::SessionAction::Retry => SessionAction::Retry,
            ast::SessionAction::Restart => SessionAction::Restart,
            ast::SessionAction::HostPlaysSide => SessionAction::HostPlaysSide,
            ast::SessionAction::NewGame => {
                if let CommandArgDef::Number { min, max } = arg {
                    if min == 0 || max as usize > scope.setups {
                        err(
                            Code::E0005,
                            c.action.span,
                            format!("the game has {} setup(s), numbered from 1", scope.setups),
                            "new game from a setup by its number",
                            &format!("write `number 1..{}`", scope.setups),
                        );
                    }
                }
                SessionAction::NewGame
            }
            ast::SessionAction::EndGame => SessionAction::EndGame,
            ast::SessionAction::Pass => SessionAction::Pass,
            ast::SessionAction::MoveTime { default } => {
                if let CommandArgDef::Number { min, max } = arg {
                    if !(min..=max).contains(&default.node) || min == 0 {
                        err(
                            Code::E0005,
                            default.span,
                            format!("move times must be at least 1 s, and the default within {min}..{max}"),
                            "out of range",
                            "for example `default 2`",
                        );
                    }
                }
                SessionAction::MoveTime { default: default.node }
            }
            ast::SessionAction::Play(None) => SessionAction::PlayMove,
            ast::SessionAction::Play(Some(name)) => match scope
                .moves
                .iter()
                .position(|m| m.name.node == name.node && matches!(m.kind, MoveKind::Place { .. } | MoveKind::Drop))
            {
                Some(i) => SessionAction::Play(i),
                None => {
                    let names: Vec<&str> = scope
                        .moves
                        .iter()
                        .filter(|m| matches!(m.kind, MoveKind::Place { .. } | MoveKind::Drop))
                        .map(|m| m.name.node.as_str())
                        .collect();
                    err(
                        Code::E0004,
                        name.span,
                        format!("unknown action `{}`", name.node),
                        "no placing action of this name",
                        &format!("the placing actions declared are: {}", names.join(", ")),
                    );
                    continue;
                }
            },
        };
        commands.push(CommandDef { word: word.clone(), arg, action, span: c.span });
    }

    let needs = |what: SessionAction| {
        commands.iter().any(|c| std::mem::discriminant(&c.action) == std::mem::discriminant(&what))
    };
    let mut missing = Vec::new();
    // The example fits the game: a placement by its name on a cell, else any move by its cells.
    let placing = scope.moves.iter().find(|m| matches!(m.kind, MoveKind::Place { .. }));
    let play_example =
        placing.map_or("\"MV\" move -> play".to_string(), |m| format!("\"MV\" cell -> play {}", m.name.node));
    if !needs(SessionAction::Play(0)) && !needs(SessionAction::PlayMove) {
        missing.push(("command that plays a move", play_example.as_str()));
    }
    if scope.pass && !needs(SessionAction::Pass) {
        missing.push(("command to pass (the rules let a player pass)", "\"PS\" -> pass"));
    }
    if !needs(SessionAction::Ack) {
        missing.push(("command that acknowledges", "\"OK\" -> ack"));
    }
    for (what, example) in missing {
        err(
            Code::E0012,
            span,
            format!("the serial controls have no {what}"),
            "controls serial",
            &format!("add, for example: `{example}`"),
        );
    }

    let mut says: Vec<SayDef> = Vec::new();
    let mut glyphs: Option<(Span, Glyphs)> = None;
    for f in feedback {
        match &f.node {
            ast::SerialFeedbackItem::BoardText(g) => {
                if glyphs.is_some() {
                    err(Code::E0002, f.span, "`show board` is given twice".into(), "again here", "keep one");
                }
                glyphs = Some((f.span, g.clone()));
            }
            ast::SerialFeedbackItem::Say { event, items } => {
                let Some(kind) = SessionEvent::ALL.into_iter().find(|e| e.name() == event.node) else {
                    unreachable!("the grammar admits only known events")
                };
                if says.iter().any(|s| s.event == kind) {
                    err(Code::E0002, event.span, "this event already has a response".into(), "again here", "keep one");
                    continue;
                }
                let mut parts = Vec::new();
                for item in items {
                    parts.push(match &item.node {
                        ast::SayItem::Board => SayPart::Board,
                        ast::SayItem::Await => SayPart::Await,
                        ast::SayItem::Light(name) => SayPart::Light(name.clone()),
                        ast::SayItem::Text(t) => match text(t, kind) {
                            Ok(line) => SayPart::Line(line),
                            Err((why, help)) => {
                                err(Code::E0012, item.span, why, "in this text", help);
                                continue;
                            }
                        },
                    });
                }
                says.push(SayDef { event: kind, parts, span: f.span });
            }
        }
    }
    // A game of one player has no device to move.
    let device = (scope.players.len() > 1).then_some((SessionEvent::DeviceMoves, "\"MM {cell}\", await"));
    let required = [(SessionEvent::Unknown, "\"ER\""), (SessionEvent::Denied, "\"IL\"")].into_iter().chain(device);
    for (required, example) in required {
        if !says.iter().any(|s| s.event == required) {
            err(
                Code::E0012,
                span,
                format!("the serial feedback says nothing `on {}`", required.name()),
                "feedback serial",
                &format!("the host needs an answer here: add, for example, `on {} -> {example}`", required.name()),
            );
        }
    }

    let mut piece_glyphs = vec![b'?'; scope.players.len()];
    let (mut empty_glyph, mut legal_glyph) = (b'.', b'*');
    let mut kind_glyphs = vec![b'?'; 2 * scope.kinds.len()];
    let mut state_glyphs = vec![b'?'; scope.states.len()];
    // Who needs a glyph, for the hints: the players where there are pieces (or the piece,
    // where pieces are shared), each state, `empty` and `legal`; on heaps, the piece alone.
    let players_need = (scope.pieces || scope.states.is_empty()) && scope.shared_piece.is_none();
    let needed: Vec<&str> = match (scope.heaps, scope.shared_piece) {
        (true, piece) => piece.into_iter().collect(),
        (false, piece) => scope
            .players
            .iter()
            .filter(|_| players_need)
            .map(|n| n.node.as_str())
            .chain(piece)
            .chain(scope.states.iter().map(|n| n.node.as_str()))
            .chain(["empty", "legal"])
            .collect(),
    };
    let needed = needed.join(", ");
    let mut piece_seen = false;
    match glyphs {
        None => err(
            Code::E0012,
            span,
            "the serial feedback does not say how the board is shown".into(),
            "feedback serial",
            "add, for example: `show board = text { black \"B\", white \"W\", empty \"-\", legal \"V\" }`",
        ),
        Some((gspan, g)) => {
            let mut seen = vec![false; scope.players.len() + 2];
            let mut states_seen = vec![false; scope.states.len()];
            let mut kinds_seen = vec![false; 2 * scope.kinds.len()];
            for (who, kind, glyph) in &g {
                if glyph.node.len() != 1 || !glyph.node.as_bytes()[0].is_ascii_graphic() && glyph.node != " " {
                    err(
                        Code::E0012,
                        glyph.span,
                        "a board glyph is one printable character".into(),
                        "here",
                        "for example \"B\"",
                    );
                    continue;
                }
                let ch = glyph.node.as_bytes()[0];
                if let Some(kind) = kind {
                    let player = scope.players.iter().position(|p| p.node == who.node);
                    let k = scope.kinds.iter().position(|k| k.node == kind.node);
                    match (player, k) {
                        (Some(p), Some(k)) if p < 2 => {
                            let slot = 2 * k + p;
                            kind_glyphs[slot] = ch;
                            kinds_seen[slot] = true;
                        }
                        (Some(_), Some(_)) => {}
                        (None, _) => err(
                            Code::E0004,
                            who.span,
                            format!("`{}` is not a player", who.node),
                            "unknown",
                            &format!("a kind's glyph follows a player: {}", player_names.join(", ")),
                        ),
                        (_, None) => {
                            let names: Vec<&str> = scope.kinds.iter().map(|k| k.node.as_str()).collect();
                            let help = match names.is_empty() {
                                true => "this game's pieces have one kind: give the player's glyph alone".to_string(),
                                false => format!("the further kinds are: {}", names.join(", ")),
                            };
                            err(
                                Code::E0004,
                                kind.span,
                                format!("`{}` is not a further kind of piece", kind.node),
                                "unknown",
                                &help,
                            )
                        }
                    }
                    continue;
                }
                if let Some(k) = scope.states.iter().position(|s| s.node == who.node) {
                    state_glyphs[k] = ch;
                    states_seen[k] = true;
                    continue;
                }
                if scope.shared_piece == Some(who.node.as_str()) {
                    piece_glyphs.fill(ch);
                    piece_seen = true;
                    continue;
                }
                let slot = match who.node.as_str() {
                    "empty" => scope.players.len(),
                    "legal" => scope.players.len() + 1,
                    name => match scope.players.iter().position(|p| p.node == name) {
                        Some(i) => i,
                        None => {
                            err(
                                Code::E0004,
                                who.span,
                                format!("`{name}` is neither a player, a piece, a state, `empty` nor `legal`"),
                                "unknown",
                                &format!("give a glyph to each of: {needed}"),
                            );
                            continue;
                        }
                    },
                };
                seen[slot] = true;
                match slot {
                    s if s < scope.players.len() => piece_glyphs[s] = ch,
                    s if s == scope.players.len() => empty_glyph = ch,
                    _ => legal_glyph = ch,
                }
            }
            if let Some(missing) = kinds_seen.iter().position(|s| !s) {
                err(
                    Code::E0012,
                    gspan,
                    format!(
                        "the {} of {} needs a glyph",
                        scope.kinds[missing / 2].node,
                        player_names.get(missing % 2).copied().unwrap_or("?")
                    ),
                    "incomplete",
                    &format!(
                        "give each player's `{}` a glyph, such as `{} {} \"K\"`",
                        scope.kinds[missing / 2].node,
                        player_names.first().copied().unwrap_or("black"),
                        scope.kinds[missing / 2].node
                    ),
                );
            }
            // A game of states alone has no pieces for its players' glyphs to show; shared
            // pieces have one glyph; heaps show nothing else.
            let missing = match scope.heaps {
                true => !piece_seen,
                false => {
                    (players_need && seen[..scope.players.len()].iter().any(|s| !s))
                        || (scope.shared_piece.is_some() && scope.pieces && !piece_seen)
                        || seen[scope.players.len()..].iter().any(|s| !s)
                        || states_seen.contains(&false)
                }
            };
            if missing {
                err(
                    Code::E0012,
                    gspan,
                    "every player with pieces (or the shared piece), every state, `empty` and `legal` need a glyph"
                        .into(),
                    "incomplete",
                    &format!("give a glyph to each of: {needed}"),
                );
            }
        }
    }

    diags.append(&mut twice);
    SerialDef { commands, says, piece_glyphs, empty_glyph, legal_glyph, kind_glyphs, state_glyphs, span }
}

/// One choice a player, for a hint: `"B" = black, "W" = white` from the players' initials,
/// or their whole names where the initials agree.
fn side_texts(players: &[ast::Ident]) -> String {
    let initial = |p: &ast::Ident| p.node.chars().next().map_or(String::new(), |c| c.to_uppercase().to_string());
    let initials: Vec<String> = players.iter().map(initial).collect();
    let distinct = initials.iter().enumerate().all(|(i, a)| !initials[..i].contains(a));
    players
        .iter()
        .zip(&initials)
        .map(|(p, i)| format!("\"{}\" = {}", if distinct { i.clone() } else { p.node.to_uppercase() }, p.node))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Splits a reply's text at its `{...}` placeholders.
/// A text's parts, or what is wrong with it and a hint.
fn text(t: &str, event: SessionEvent) -> Result<Vec<TextPart>, (String, &'static str)> {
    // Bytes below a space are the response scripts' opcodes, and a line ends with CR LF anyway.
    if t.bytes().any(|b| b < b' ' || b == 0x7F) {
        return Err((
            "a reply holds printable characters only (no tabs or control characters)".into(),
            "write spaces instead; each text is sent as one line ended by CR LF",
        ));
    }
    let placeholder =
        |why: String| (why, "placeholders are `{cell}` and `{column}` (in `device moves`), `{device}` and `{host}`");
    let mut parts = Vec::new();
    let mut rest = t;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(TextPart::Text(rest[..open].to_string()));
        }
        let close = rest[open..].find('}').ok_or_else(|| placeholder("a `{` is not closed".into()))? + open;
        parts.push(match &rest[open + 1..close] {
            "cell" if event == SessionEvent::DeviceMoves => TextPart::Cell,
            "cell" => return Err(placeholder("`{cell}` is known only in `device moves`".into())),
            "column" if event == SessionEvent::DeviceMoves => TextPart::Column,
            "column" => return Err(placeholder("`{column}` is known only in `device moves`".into())),
            "device" => TextPart::Count { device: true },
            "host" => TextPart::Count { device: false },
            other => return Err(placeholder(format!("unknown placeholder `{{{other}}}`"))),
        });
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(TextPart::Text(rest.to_string()));
    }
    Ok(parts)
}

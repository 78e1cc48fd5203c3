//! `controls serial`: each command's word, its argument and its action, checked against the
//! game, and the commands a session cannot do without.

use super::{side_texts, Lowering, Scope};
use crate::ast;
use crate::model::*;
use crate::{Code, Diagnostic, Label, Span};

/// Longest command word: the session matches words at the start of a short line buffer.
const MAX_WORD: usize = 8;

/// Most choices of a side command: with words of at most 8 bytes, their arguments stay within
/// the byte the command table counts them in.
const MAX_SIDES: usize = 16;

/// Whether `word` can be typed as a command's word or a side's: 1 to 8 printable characters.
fn typeable(word: &str) -> bool {
    !word.is_empty() && word.len() <= MAX_WORD && word.bytes().all(|b| b.is_ascii_graphic())
}

/// Command `c`, or `None` (with its diagnostic) where its word, argument or action cannot be;
/// `earlier` are the commands before it.
pub(super) fn command(l: &mut Lowering, scope: &Scope, c: &ast::Command, earlier: &[CommandDef]) -> Option<CommandDef> {
    let word = &c.word.node;
    if !typeable(word) {
        let help = "a command word is 1 to 8 printable characters without spaces, such as \"MV\"";
        l.err(Code::E0012, c.word.span, format!("`{word}` cannot be a command word"), "here", help);
        return None;
    }
    if earlier.iter().any(|d| &d.word == word) {
        l.err(Code::E0002, c.word.span, format!("command \"{word}\" is given twice"), "again here", "keep one");
        return None;
    }
    let arg = argument(l, scope, c);
    if let Err(want) = takes(scope, &c.action.node, &arg) {
        let help = format!("this action takes {want}");
        l.err(Code::E0012, c.action.span, "this action does not take that argument", "the action", &help);
        return None;
    }
    let action = action(l, scope, &c.action, &arg)?;
    Some(CommandDef { word: word.clone(), arg, action, span: c.span })
}

/// A command's argument, its numbers' ranges and side choices checked.
fn argument(l: &mut Lowering, scope: &Scope, c: &ast::Command) -> CommandArgDef {
    match c.arg.as_ref().map(|a| &a.node) {
        None => CommandArgDef::None,
        Some(ast::CommandArg::Cell) => CommandArgDef::Cell,
        Some(ast::CommandArg::Move) => CommandArgDef::Move,
        Some(ast::CommandArg::Column) => CommandArgDef::Column,
        Some(ast::CommandArg::Number { min, max }) => {
            if min.node > max.node || max.node > 255 {
                let (lo, hi) = (min.node.min(max.node).min(255), min.node.max(max.node).min(255));
                l.err(
                    Code::E0005,
                    max.span,
                    "a number argument is a range within 0..255",
                    "here",
                    &format!("write `number {lo}..{hi}`"),
                );
            }
            CommandArgDef::Number { min: min.node, max: max.node }
        }
        Some(ast::CommandArg::Side(choices)) => CommandArgDef::Side(side_choices(l, scope, choices)),
    }
}

/// A side command's choices: each word, and the player it picks.
fn side_choices(l: &mut Lowering, scope: &Scope, choices: &[(ast::Ident, ast::Ident)]) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    // The command table keeps a side command's arguments after a byte of their length: a
    // word's length and text and its player each, so the words are short like command words
    // and the choices few.
    if choices.len() > MAX_SIDES {
        l.err(
            Code::E0005,
            choices[MAX_SIDES].0.span,
            format!("a side command offers at most {MAX_SIDES} choices, not {}", choices.len()),
            "one too many",
            &format!("give each side one or two words: `side {{ {} }}`", side_texts(scope.players)),
        );
    }
    for (i, (text, player)) in choices.iter().enumerate() {
        if !typeable(&text.node) {
            let help = "a side's word is 1 to 8 printable characters without spaces, such as \"B\"";
            l.err(Code::E0012, text.span, format!("\"{}\" cannot be a side's word", text.node), "here", help);
            continue;
        }
        // The host types the text: two choices of one text leave the second unreachable.
        if let Some((first, _)) = choices[..i].iter().find(|(t, _)| t.node == text.node) {
            l.twice.push(
                Diagnostic::error(Code::E0002, format!("the side choice \"{}\" is given twice", text.node))
                    .with_label(Label::primary(l.file, text.span, "given again here"))
                    .with_label(Label::secondary(l.file, first.span, "first given here"))
                    .with_help(format!("give each side its own text: `side {{ {} }}`", side_texts(scope.players))),
            );
            continue;
        }
        match scope.players.iter().position(|p| p.node == player.node) {
            Some(i) => out.push((text.node.clone(), i)),
            None => l.err(
                Code::E0004,
                player.span,
                format!("unknown player `{}`", player.node),
                "no player of this name",
                &format!("the players declared are: {}", scope.player_names().join(", ")),
            ),
        }
    }
    out
}

/// Whether `action` takes `arg`; if not, what it takes, in words.
fn takes(scope: &Scope, action: &ast::SessionAction, arg: &CommandArgDef) -> Result<(), &'static str> {
    let drop = |name: &ast::Ident| scope.moves.iter().any(|m| m.name.node == name.node && m.kind == MoveKind::Drop);
    let (fits, want) = match action {
        ast::SessionAction::Play(None) => {
            (matches!(arg, CommandArgDef::Move), "`move` (a move as the cells it goes through, `C3-D4`)")
        }
        ast::SessionAction::Play(Some(name)) if drop(name) => {
            (matches!(arg, CommandArgDef::Column), "`column` (a drop goes into a column)")
        }
        ast::SessionAction::Play(Some(_)) => {
            (matches!(arg, CommandArgDef::Cell), "`cell` (or `move` with `play` alone, for any move)")
        }
        ast::SessionAction::HostPlaysSide => (matches!(arg, CommandArgDef::Side(_)), "`side { ... }`"),
        ast::SessionAction::MoveTime { .. } => (matches!(arg, CommandArgDef::Number { .. }), "`number MIN..MAX`"),
        // A new game from the start numbered, or from the one played last.
        ast::SessionAction::NewGame => (
            matches!(arg, CommandArgDef::None | CommandArgDef::Number { .. }),
            "no argument, or `number 1..N` for the setup to start from",
        ),
        _ => (matches!(arg, CommandArgDef::None), "no argument"),
    };
    if fits {
        Ok(())
    } else {
        Err(want)
    }
}

/// A command's action, its numbers checked against the game; `None` for a `play` of an action
/// that places nothing.
fn action(
    l: &mut Lowering,
    scope: &Scope,
    action: &ast::Spanned<ast::SessionAction>,
    arg: &CommandArgDef,
) -> Option<SessionAction> {
    Some(match &action.node {
        ast::SessionAction::Ping => SessionAction::Ping,
        ast::SessionAction::Ack => SessionAction::Ack,
        ast::SessionAction::Retry => SessionAction::Retry,
        ast::SessionAction::Restart => SessionAction::Restart,
        ast::SessionAction::HostPlaysSide => SessionAction::HostPlaysSide,
        ast::SessionAction::EndGame => SessionAction::EndGame,
        ast::SessionAction::Pass => SessionAction::Pass,
        ast::SessionAction::NewGame => {
            if let CommandArgDef::Number { min, max } = *arg {
                if min == 0 || max as usize > scope.setups {
                    l.err(
                        Code::E0005,
                        action.span,
                        format!("the game has {} setup(s), numbered from 1", scope.setups),
                        "new game from a setup by its number",
                        &format!("write `number 1..{}`", scope.setups),
                    );
                }
            }
            SessionAction::NewGame
        }
        ast::SessionAction::MoveTime { default } => {
            if let CommandArgDef::Number { min, max } = *arg {
                if !(min..=max).contains(&default.node) || min == 0 {
                    l.err(
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
        ast::SessionAction::Play(Some(name)) => {
            let placing = |m: &&MoveDef| matches!(m.kind, MoveKind::Place { .. } | MoveKind::Drop);
            match scope.moves.iter().position(|m| m.name.node == name.node && placing(&m)) {
                Some(i) => SessionAction::Play(i),
                None => {
                    let names: Vec<&str> = scope.moves.iter().filter(placing).map(|m| m.name.node.as_str()).collect();
                    l.err(
                        Code::E0004,
                        name.span,
                        format!("unknown action `{}`", name.node),
                        "no placing action of this name",
                        &format!("the placing actions declared are: {}", names.join(", ")),
                    );
                    return None;
                }
            }
        }
    })
}

/// The commands no session can do without: one that plays a move, one that passes where the
/// rules pass, one that acknowledges.
pub(super) fn required(l: &mut Lowering, scope: &Scope, commands: &[CommandDef], span: Span) {
    let has = |what: SessionAction| {
        commands.iter().any(|c| std::mem::discriminant(&c.action) == std::mem::discriminant(&what))
    };
    let mut missing = Vec::new();
    // The example fits the game: a placement by its name on a cell, else any move by its cells.
    let placing = scope.moves.iter().find(|m| matches!(m.kind, MoveKind::Place { .. }));
    let play_example =
        placing.map_or("\"MV\" move -> play".to_string(), |m| format!("\"MV\" cell -> play {}", m.name.node));
    if !has(SessionAction::Play(0)) && !has(SessionAction::PlayMove) {
        missing.push(("command that plays a move", play_example.as_str()));
    }
    if scope.pass && !has(SessionAction::Pass) {
        missing.push(("command to pass (the rules let a player pass)", "\"PS\" -> pass"));
    }
    if !has(SessionAction::Ack) {
        missing.push(("command that acknowledges", "\"OK\" -> ack"));
    }
    for (what, example) in missing {
        let help = format!("add, for example: `{example}`");
        l.err(Code::E0012, span, format!("the serial controls have no {what}"), "controls serial", &help);
    }
}

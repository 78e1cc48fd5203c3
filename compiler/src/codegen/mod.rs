//! Code generation: one `quote!` renderer per generated Rust file, formatted by prettyplease
//! and marked `@generated`, plus minijinja templates for the crate's non-Rust scaffolding.

mod board;
mod buttons_core;
mod cards;
mod cards_firmware;
mod cortex_buttons;
mod cortex_cursor;
mod cortex_session;
mod cursor_firmware;
mod game;
mod grid_game;
mod grid_mailbox;
pub use grid_game::Representation;
mod heaps_game;
mod main_rs;
mod origin;
mod protocol;
mod rules;
mod scaffold;

use crate::analyze::Analysis;
use crate::bind::Target;
use gamec_dsl::{BoardDef, GameDef, InterfaceDef};

pub use origin::Origin;
pub use scaffold::ScaffoldInputs;

/// One file of the generated firmware crate, relative to the crate's root.
#[derive(Debug, Clone)]
pub struct GeneratedFile {
    pub path: String,
    pub contents: String,
}

/// The game module alone: target-independent, also compiled for the host. Its items quote
/// the lines of `origin`, the game file, that they come from.
pub fn game_module(game: &GameDef, analysis: &Analysis, target: Option<&Target>, origin: Origin) -> String {
    format_rust(game::render(game, analysis, target, origin), origin.path)
}

/// The module of a grid game: rules, start and evaluation, with its search's positions held
/// as `repr` says.
pub fn grid_module(game: &GameDef, origin: Origin, repr: Representation) -> String {
    format_rust(grid_game::render(game, origin, repr), origin.path)
}

/// Whether a grid game's search can hold its positions a byte a cell (a flanking game whose
/// evaluation the byte board can read).
pub fn byte_board_applies(game: &GameDef) -> bool {
    grid_mailbox::applies(game)
}

/// How a grid game's search holds positions on the target's chip: a byte a cell on 8-bit AVR
/// chips, where 64-bit boards cost a loop a shift; 64-bit boards elsewhere.
pub fn representation(target: &Target) -> Representation {
    match target.chip.arch {
        // Room to spend on speed beyond what a 16 KB chip (the ATmega16) holds.
        crate::chips::Arch::Avr(avr) => {
            Representation::ByteBoard { roomy: target.chip.flash > 16 * 1024, multiplies: avr.multiplies }
        }
        crate::chips::Arch::CortexM(_) => Representation::Bitboards,
    }
}

/// The module of a puzzle played with a cursor: its colours, cycle, show, font and (with a
/// target) tunes.
pub fn puzzle_module(game: &GameDef, target: Option<&Target>, origin: Origin) -> String {
    format_rust(cursor_firmware::game_module(game, target, origin), origin.path)
}

/// A game's rule core as constant data for the runtime's `rules` module: the general reading
/// of any game's moves and endings, which the host's engine runs too.
pub fn rules_module(game: &GameDef, origin: Origin) -> String {
    format_rust(rules::render(game, origin), origin.path)
}

/// The module of a game of cards: its code's fields and the generated search for groups.
pub fn cards_module(game: &GameDef, origin: Origin) -> String {
    format_rust(cards::render(game, origin), origin.path)
}

/// The module of a game of heaps: its lights, removals, start and solved table, and with a
/// target its feedback.
pub fn heaps_module(game: &GameDef, target: Option<&Target>, origin: Origin) -> String {
    format_rust(heaps_game::render(game, target, origin), origin.path)
}

/// Whether the firmware's search holds positions a byte a cell.
fn byte_board(game: &GameDef, target: &Target) -> bool {
    game.rules.grid().is_some()
        && matches!(representation(target), Representation::ByteBoard { .. })
        && grid_mailbox::applies(game)
}

/// The deepest ply of the device's search, `board::SEARCH_DEPTH` in the firmware crate, for
/// firmware that has one (a serial session, a duel with a cursor): it bounds the search's
/// recursion, and so its stack.
pub fn search_depth(game: &GameDef, target: &Target) -> Option<u8> {
    let searches = target.cards.is_none()
        && match &target.cursor {
            Some(cursor) => cursor.duel.as_ref().is_some_and(|d| d.device.is_some()),
            None => target.serial.is_some(),
        };
    searches.then(|| board::search_limits(target, byte_board(game, target)).1)
}

/// The whole firmware crate. Line games come with their analysis (the solved strategy);
/// `game_text` is the text of the game file at `inputs.game_path`, quoted in the game module.
pub fn firmware_crate(
    game: &GameDef,
    board: &BoardDef,
    analysis: Option<&Analysis>,
    target: &Target,
    inputs: &ScaffoldInputs,
    game_text: &str,
) -> Vec<GeneratedFile> {
    let source = format!("{} and {}", inputs.game_path, inputs.board_path);
    let origin = Origin::new(&inputs.game_path, game_text);
    let byte_board = byte_board(game, target);
    if target.cards.is_some() {
        let mut files = vec![
            GeneratedFile { path: "src/game.rs".into(), contents: cards_module(game, origin) },
            GeneratedFile {
                path: "src/board.rs".into(),
                contents: format_rust(cards_firmware::board_module(target), &inputs.board_path),
            },
            GeneratedFile {
                path: "src/main.rs".into(),
                contents: format_rust(cards_firmware::main_module(game, target), &source),
            },
        ];
        files.extend(scaffold::render(board, target, inputs));
        return files;
    }
    if let Some(cursor) = &target.cursor {
        let mut files = Vec::new();
        match cursor.duel {
            Some(_) => {
                // The rules as the serial firmware has them, without its protocol.
                let rules =
                    GameDef { interface: InterfaceDef { serial: None, ..game.interface.clone() }, ..game.clone() };
                let contents = match target.rules_core.is_some() {
                    true => {
                        format_rust(rules::render_served(&rules, origin, target.core_table.as_deref()), origin.path)
                    }
                    false => grid_module(&rules, origin, representation(target)),
                };
                files.push(GeneratedFile { path: "src/game.rs".into(), contents });
                let front = cursor_firmware::duel_front_module(game, target, origin);
                files.push(GeneratedFile { path: "src/front.rs".into(), contents: format_rust(front, origin.path) });
            }
            None => files.push(GeneratedFile {
                path: "src/game.rs".into(),
                contents: puzzle_module(game, Some(target), origin),
            }),
        }
        let (board_rs, main_rs) = match target.chip.arch {
            crate::chips::Arch::Avr(_) => {
                (cursor_firmware::board_module(target, byte_board), cursor_firmware::main_module(game, target))
            }
            crate::chips::Arch::CortexM(_) => {
                (cortex_cursor::board_module(target, byte_board), cortex_cursor::main_module(game, target))
            }
        };
        files.push(GeneratedFile { path: "src/board.rs".into(), contents: format_rust(board_rs, &inputs.board_path) });
        files.push(GeneratedFile { path: "src/main.rs".into(), contents: format_rust(main_rs, &source) });
        files.extend(scaffold::render(board, target, inputs));
        return files;
    }
    let game_rs = match analysis {
        _ if target.rules_core.is_some() => {
            format_rust(rules::render_served(game, origin, target.core_table.as_deref()), origin.path)
        }
        _ if game.rules.heaps().is_some() => heaps_module(game, Some(target), origin),
        Some(a) if game.rules.grid().is_none() => game_module(game, a, Some(target), origin),
        _ => grid_module(game, origin, representation(target)),
    };
    let cortex = matches!(target.chip.arch, crate::chips::Arch::CortexM(_));
    let (board_rs, main_rs) = if target.serial.is_some() && cortex {
        (cortex_session::board_module(target, byte_board), cortex_session::main_module(target))
    } else if target.serial.is_some() {
        (board::render_serial(target, byte_board), main_rs::render_session(target))
    } else if cortex {
        (cortex_buttons::board_module(target), cortex_buttons::main_module(target))
    } else {
        (board::render(target), main_rs::render(target))
    };
    let front = (target.rules_core.is_some() && target.serial.is_none()).then(|| GeneratedFile {
        path: "src/front.rs".into(),
        contents: format_rust(buttons_core::front_module(game, target, origin), origin.path),
    });
    let mut files = vec![
        GeneratedFile { path: "src/game.rs".into(), contents: game_rs },
        GeneratedFile { path: "src/board.rs".into(), contents: format_rust(board_rs, &inputs.board_path) },
        GeneratedFile { path: "src/main.rs".into(), contents: format_rust(main_rs, &source) },
    ];
    files.extend(front);
    files.extend(scaffold::render(board, target, inputs));
    files
}

fn format_rust(tokens: proc_macro2::TokenStream, source: &str) -> String {
    let file: syn::File = syn::parse2(tokens).expect("generated code parses");
    format!("// @generated by gamec from {source}. Do not edit.\n{}", prettyplease::unparse(&file))
}

/// A comparison operator as Rust tokens.
fn comparison(op: gamec_dsl::CmpOp) -> proc_macro2::TokenStream {
    use gamec_dsl::CmpOp;
    match op {
        CmpOp::Ge => quote::quote!(>=),
        CmpOp::Le => quote::quote!(<=),
        CmpOp::Eq => quote::quote!(==),
        CmpOp::Ne => quote::quote!(!=),
        CmpOp::Gt => quote::quote!(>),
        CmpOp::Lt => quote::quote!(<),
    }
}

/// A number as an unsuffixed literal (`5`, not `5u8`): its type comes from the const, field
/// or parameter it goes into.
fn int<N: TryInto<i128>>(n: N) -> proc_macro2::Literal {
    proc_macro2::Literal::i128_unsuffixed(n.try_into().ok().expect("an integer of at most 64 bits"))
}

/// Raw bytes as a byte-string literal dereferenced to an array (`*b"\x1F\x00"`), every byte in
/// hex and sixteen to a line.
fn raw_bytes(bytes: &[u8]) -> proc_macro2::TokenStream {
    let line = |chunk: &[u8]| chunk.iter().map(|b| format!("\\x{b:02X}")).collect::<String>();
    let text = if bytes.len() <= 16 {
        format!("*b\"{}\"", line(bytes))
    } else {
        // A backslash before a line break skips the break and the next line's indentation.
        let lines: Vec<String> = bytes.chunks(16).map(line).collect();
        format!("*b\"\\\n    {}\"", lines.join("\\\n    "))
    };
    text.parse().expect("a byte string")
}

/// Names for constants: `prefix` and each name in capitals, with a number added where names
/// differ only in case (`click` and `CLICK`).
fn upper_idents<'a>(prefix: &str, names: impl Iterator<Item = &'a str>) -> Vec<proc_macro2::Ident> {
    let bases: Vec<String> = names.map(str::to_uppercase).collect();
    let mut taken: Vec<String> = Vec::new();
    for base in &bases {
        let mut name = base.clone();
        let mut n = 2;
        // Neither a name already given nor another's own name.
        while taken.contains(&name) || (name != *base && bases.contains(&name)) {
            name = format!("{base}_{n}");
            n += 1;
        }
        taken.push(name);
    }
    taken.iter().map(|n| quote::format_ident!("{prefix}{n}")).collect()
}

//! Generates the game module of every `games/*.game` for the host, as the firmware gets it,
//! and of a few variants of Silver Dollar that exercise the code generator's corners.

#[path = "../tests/support/random_games.rs"]
mod random_games;

use gamec::analyze::Analysis;
use gamec::codegen::Origin;
use std::fmt::Write;
use std::path::Path;

/// A variant of a game (and, where its module needs one, of its board): the module's name
/// and the text replaced in each file.
struct Variant {
    name: &'static str,
    game: (&'static str, &'static [(&'static str, &'static str)]),
    board: Option<(&'static str, &'static [(&'static str, &'static str)])>,
}

const SILVER_DOLLAR: &str = "games/silver_dollar.game";
const SILVER_DOLLAR_BOARD: &str = "boards/silver_dollar_attiny84.board";

const VARIANTS: &[Variant] = &[
    // Eight dollars on sixteen cells: the most positions a line has (C(16, 8) = 12870), and
    // more pieces than the ranking's short Pascal row holds. No board has buttons enough.
    Variant {
        name: "variant_eight_of_sixteen",
        game: (
            SILVER_DOLLAR,
            &[
                ("board line 12", "board line 16"),
                ("pieces dollar x 5", "pieces dollar x 8"),
                ("leftmost(dollar) >= 11", "leftmost(dollar) >= 15"),
            ],
        ),
        board: None,
    },
    // Two dollars, each with two buttons: `move` slides it any distance, `hop` one or two
    // cells, so that the second control's own action shows.
    Variant {
        name: "variant_two_controls",
        game: (
            SILVER_DOLLAR,
            &[
                ("pieces dollar x 5", "pieces dollar x 2"),
                (
                    "action step = slide dollar toward right by 1.. over empty",
                    "action step = slide dollar toward right by 1.. over empty\n  \
                     action hop = slide dollar toward right by 1..2 over empty",
                ),
                (
                    "move[i] -> extend step(dollar[i])",
                    "move[i] -> extend step(dollar[i])\n    hop[i] -> extend hop(dollar[i])",
                ),
            ],
        ),
        board: Some((
            SILVER_DOLLAR_BOARD,
            &[
                ("button move[3] = PB2 pullup", "button hop[1] = PB2 pullup"),
                ("button move[4] = PA4 pullup", "button hop[2] = PA4 pullup"),
                ("button move[5] = PA7 pullup", ""),
            ],
        )),
    },
    // Tunes whose names differ only in case, each its own static.
    Variant {
        name: "variant_tunes_in_case",
        game: (
            SILVER_DOLLAR,
            &[
                ("tune click { C6/8 }", "tune click { C6/8 }\n  tune CLICK { C7/8 }"),
                ("on accepted -> tune click", "on accepted -> tune CLICK"),
            ],
        ),
        board: Some((SILVER_DOLLAR_BOARD, &[])),
    },
];

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dirs = [root.join("games")];
    let out = std::env::var("OUT_DIR").unwrap();
    let mut index = String::new();
    let mut paths = Vec::new();
    for dir in &dirs {
        println!("cargo:rerun-if-changed={}", dir.display());
        paths.extend(std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()));
    }
    println!("cargo:rerun-if-changed={}", root.join(SILVER_DOLLAR_BOARD).display());
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "game")) {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let source = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let code = module(&source, text, None);
        write_module(&out, &mut index, &name, &code);
    }
    for v in VARIANTS {
        let game = variant(&root, v.game);
        let board = v.board.map(|b| (b.0, variant(&root, b)));
        let source = format!("{} ({})", v.game.0, v.name);
        let code = module(&source, game, board);
        write_module(&out, &mut index, v.name, &code);
    }
    generated_games(&out, &mut index);
    std::fs::write(Path::new(&out).join("games.rs"), index).unwrap();
}

/// Games of the general parts from the property tests' generator that `check` accepts with
/// their board: their modules, and a test per module comparing it with the engine.
fn generated_games(out: &str, index: &mut String) {
    println!("cargo:rerun-if-changed=../tests/support/random_games.rs");
    let (mut grids, mut heaps) = (0, 0);
    let mut cases = String::new();
    for i in 0..400 {
        if grids >= 8 && heaps >= 4 {
            break;
        }
        let g = random_games::generate(0x00C0_FFEE, i);
        let want = match g.kind {
            random_games::Kind::Grid => grids < 8,
            random_games::Kind::Heaps => heaps < 4,
            random_games::Kind::Line => false,
        };
        let mut sources = gamec_dsl::Sources::new();
        let gf = sources.add(format!("generated_{i}.game"), g.game.clone());
        let bf = sources.add(format!("generated_{i}.board"), g.board.clone());
        if !want || gamec::check(&sources, &[gf, bf]).is_err() {
            continue;
        }
        let name = format!("generated_{i}");
        let code = module(&format!("generated_{i}.game"), g.game.clone(), None);
        write_module(out, index, &name, &code);
        let check = if g.kind == random_games::Kind::Grid { "agree_grid" } else { "agree_heaps" };
        let rules = format!("gamec_hosted::{name}::Rules");
        let heaps_arg =
            if g.kind == random_games::Kind::Grid { String::new() } else { format!(", &gamec_hosted::{name}::HEAPS") };
        writeln!(
            cases,
            "#[test]
fn {name}() {{
    {check}::<{rules}>({:?}{heaps_arg});
}}",
            g.game
        )
        .unwrap();
        match g.kind {
            random_games::Kind::Grid => grids += 1,
            _ => heaps += 1,
        }
    }
    std::fs::write(Path::new(out).join("generated_cases.rs"), cases).unwrap();
}

/// A file's text with each replacement made; every replaced text must be there.
fn variant(root: &Path, (path, replace): (&str, &[(&str, &str)])) -> String {
    let mut text = std::fs::read_to_string(root.join(path)).unwrap();
    for (from, to) in replace {
        assert!(text.contains(from), "{path} no longer contains `{from}`: update compiler/hosted/build.rs");
        text = text.replacen(from, to, 1);
    }
    text
}

/// The game module of a game, bound to a board if one is given (its feedback and controls).
fn module(source: &str, game_text: String, board: Option<(&str, String)>) -> String {
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(source.to_string(), game_text);
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let origin = Origin::of(&sources, id);
    if game.grid().is_some() {
        return gamec::codegen::grid_module(&game, origin);
    }
    if game.heaps().is_some() {
        return gamec::codegen::heaps_module(&game, None, origin);
    }
    let target = board.map(|(path, text)| {
        let bf = sources.add(path.to_string(), text);
        let board = gamec_dsl::load_board(&sources, bf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
        gamec::bind::bind(&game, id, &board, bf).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
    });
    let analysis = Analysis::new(&game, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    gamec::codegen::game_module(&game, &analysis, target.as_ref(), Origin::of(&sources, id))
}

fn write_module(out: &str, index: &mut String, name: &str, code: &str) {
    let file = Path::new(out).join(format!("{name}.rs"));
    std::fs::write(&file, code).unwrap();
    // `#[path]` rather than `include!`, which cannot take the module's inner attributes.
    writeln!(index, "#[path = {:?}]\npub mod {name};", file.display().to_string()).unwrap();
}

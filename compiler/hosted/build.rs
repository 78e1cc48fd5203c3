//! Generates the game module of every `games/*.game` for the host, as the firmware gets it,
//! of the test inputs in `fixtures/` that exercise the code generator's corners (each with its
//! board where it has one), and of games the property tests' generator makes.

// Puzzles have no firmware to host yet: their generator goes unused here.
#[allow(dead_code)]
#[path = "../tests/support/random_games.rs"]
mod random_games;

use gamec::analyze::Analysis;
use gamec::codegen::Origin;
use std::fmt::Write;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = std::env::var("OUT_DIR").unwrap();
    let mut index = String::new();
    modules(&root, "games", "", &out, &mut index);
    modules(&root, "compiler/hosted/fixtures", "fixture_", &out, &mut index);
    generated_games(&out, &mut index);
    rule_core_modules(&root, &out, &mut index);
    std::fs::write(Path::new(&out).join("games.rs"), index).unwrap();
}

/// The module of every `.game` in `dir`, named after the file (with `prefix`), bound to the
/// board of the same name beside it where there is one (its feedback and controls).
fn modules(root: &Path, dir: &str, prefix: &str, out: &str, index: &mut String) {
    let dir = root.join(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let relative = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "game")) {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let board = path.with_extension("board");
        let board = board.exists().then(|| (relative(&board), std::fs::read_to_string(&board).unwrap()));
        let text = std::fs::read_to_string(path).unwrap();
        let code = module(&relative(path), text, board.as_ref().map(|(p, t)| (p.as_str(), t.clone())));
        write_module(out, index, &format!("{prefix}{name}"), &code);
        // The fixtures as a roomy chip gets them (tallied regions, the last ply walked); the
        // generated games below as a lean one.
        if let Some(code) = byte_board_module(&relative(path), std::fs::read_to_string(path).unwrap(), true) {
            write_module(out, index, &format!("{prefix}{name}_byte_board"), &code);
        }
    }
}

/// A grid game's module as an 8-bit chip gets it, its search on a byte a cell, where that
/// representation applies (`roomy` as on a chip with flash to spare): compiled here to be
/// checked against the 64-bit boards.
fn byte_board_module(source: &str, game_text: String, roomy: bool) -> Option<String> {
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(source.to_string(), game_text);
    let game = gamec_dsl::load_game(&sources, id).ok()?;
    (game.rules.grid().is_some() && gamec::codegen::byte_board_applies(&game)).then(|| {
        gamec::codegen::grid_module(
            &game,
            Origin::of(&sources, id),
            gamec::codegen::Representation::ByteBoard { roomy, multiplies: true },
        )
    })
}

/// Games of the general parts from the property tests' generator that `check` accepts with
/// their board: their modules, and a test per module comparing it with the engine.
fn generated_games(out: &str, index: &mut String) {
    println!("cargo:rerun-if-changed=../tests/support/random_games.rs");
    let (mut grids, mut heaps, mut flanking) = (0, 0, 0);
    let mut cases = String::new();
    for i in 0..400 {
        if grids >= 8 && heaps >= 4 && flanking >= 3 {
            break;
        }
        let g = random_games::generate(0x00C0_FFEE, i);
        // Besides the first eight grid games, three that an AVR chip searches on a byte board.
        let byte_board = byte_board_module(&format!("generated_{i}.game"), g.game.clone(), false);
        let want = match g.kind {
            random_games::Kind::Grid => grids < 8 || (byte_board.is_some() && flanking < 3),
            random_games::Kind::Heaps => heaps < 4,
            random_games::Kind::Line | random_games::Kind::Puzzle | random_games::Kind::Cards => false,
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
        // A searched game's evaluation, too, against the engine's reading of `eval`.
        let eval = if g.game.contains("eval {") {
            format!("\n    agree_eval::<{rules}>({:?});", g.game)
        } else {
            String::new()
        };
        writeln!(
            cases,
            "#[test]
fn {name}() {{
    {check}::<{rules}>({:?}{heaps_arg});{eval}
}}",
            g.game
        )
        .unwrap();
        // A flanking game searched on the byte board an AVR chip would get: its module that way
        // too, and a test that both search alike.
        if let Some(code) = byte_board {
            flanking += 1;
            write_module(out, index, &format!("{name}_byte_board"), &code);
            writeln!(
                cases,
                "#[test]
fn {name}_byte_board() {{
    byte_board_agrees::<{rules}, gamec_hosted::{name}_byte_board::Rules>({:?});
    agree_grid::<gamec_hosted::{name}_byte_board::Rules>({:?});
}}",
                g.game, g.game
            )
            .unwrap();
        }
        match g.kind {
            random_games::Kind::Grid => grids += 1,
            _ => heaps += 1,
        }
    }
    std::fs::write(Path::new(out).join("generated_cases.rs"), cases).unwrap();
    generated_cards(out, index);
}

/// Games of cards from the property tests' generator that `check` accepts: their modules, and
/// a test per module holding its search for groups and its test of a code to the compiler's
/// reading of the deck (tests/cards_agree.rs).
fn generated_cards(out: &str, index: &mut String) {
    let mut cases = String::new();
    let mut made = 0;
    for i in 0..100 {
        if made >= 12 {
            break;
        }
        let g = random_games::generate_cards(0x00CA_2D5E, i);
        let mut sources = gamec_dsl::Sources::new();
        let gf = sources.add(format!("generated_cards_{i}.game"), g.game.clone());
        if gamec::check(&sources, &[gf]).is_err() {
            continue;
        }
        let name = format!("generated_cards_{i}");
        write_module(out, index, &name, &module(&format!("{name}.game"), g.game.clone(), None));
        writeln!(
            cases,
            "#[test]
fn {name}() {{
    use gamec_hosted::{name} as m;
    let groups = |table: &[u32], found: &mut dyn FnMut(Vec<usize>)| {{
        let codes: Vec<m::Code> = table.iter().map(|&c| m::Code::try_from(c).unwrap()).collect();
        m::groups(&codes, &mut |g| found(g.iter().map(|&i| usize::from(i)).collect()));
    }};
    agree_cards({:?}, &groups, m::is_card_code);
}}",
            g.game
        )
        .unwrap();
        made += 1;
    }
    assert!(made >= 6, "the generator made only {made} games of cards that check accepts");
    std::fs::write(Path::new(out).join("generated_cards_cases.rs"), cases).unwrap();
}

/// The rule core of every game in `games/` and `compiler/tests/games/` (cards aside), as the
/// runtime plays it, and a test per game holding it to the engine (tests/rule_core_agrees.rs).
fn rule_core_modules(root: &Path, out: &str, index: &mut String) {
    let mut cases = String::new();
    for dir in ["games", "compiler/tests/games"] {
        let dir = root.join(dir);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "game")) {
            let text = std::fs::read_to_string(path).unwrap();
            let mut sources = gamec_dsl::Sources::new();
            let source = path.strip_prefix(root).unwrap_or(path).display().to_string();
            let id = sources.add(source, text.clone());
            let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
            if game.cards.is_some() {
                continue;
            }
            let name = format!("core_{}", path.file_stem().unwrap().to_string_lossy());
            rule_core_case(out, index, &mut cases, &name, &game, Origin::of(&sources, id), &text);
        }
    }
    // Games of moving pieces from the property tests' generator that `check` accepts alone.
    let mut made = 0;
    for i in 0..40 {
        let g = random_games::generate_moving(0x00C0_2E5A, i);
        let mut sources = gamec_dsl::Sources::new();
        let id = sources.add(format!("moving_{i}.game"), g.game.clone());
        if made >= 8 || gamec::check(&sources, &[id]).is_err() {
            continue;
        }
        let game = gamec_dsl::load_game(&sources, id).unwrap();
        let name = format!("core_moving_{i}");
        rule_core_case(out, index, &mut cases, &name, &game, Origin::of(&sources, id), &g.game);
        made += 1;
    }
    assert!(made >= 6, "the generator made only {made} games of moving pieces that check accepts");
    std::fs::write(Path::new(out).join("rule_core_cases.rs"), cases).unwrap();
}

/// A game's rule core as a module, and its test against the engine.
fn rule_core_case(
    out: &str,
    index: &mut String,
    cases: &mut String,
    name: &str,
    game: &gamec_dsl::GameDef,
    origin: Origin,
    text: &str,
) {
    write_module(out, index, name, &gamec::codegen::rules_module(game, origin));
    writeln!(
        cases,
        "#[test]
fn {name}() {{
    use gamec_hosted::{name} as m;
    agree_core(&m::GAME, m::START, m::FIRST, {text:?});
}}"
    )
    .unwrap();
}

/// The game module of a game, bound to a board if one is given (its feedback and controls).
fn module(source: &str, game_text: String, board: Option<(&str, String)>) -> String {
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(source.to_string(), game_text);
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let origin = Origin::of(&sources, id);
    if game.cards.is_some() {
        return gamec::codegen::cards_module(&game, origin);
    }
    if game.rules.players.len() == 1 {
        return gamec::codegen::puzzle_module(&game, None, origin);
    }
    // A grid game the placements' reading cannot play is played on the rule core.
    if game.rules.grid().is_some() && gamec::bind::on_the_rule_core(&game) {
        return gamec::codegen::rules_module(&game, origin);
    }
    if game.rules.grid().is_some() {
        return gamec::codegen::grid_module(&game, origin, gamec::codegen::Representation::Bitboards);
    }
    // Heaps with lights; pits, sown, are played on the rule core.
    if game.rules.heaps().is_some_and(|h| h.pits.is_none()) {
        return gamec::codegen::heaps_module(&game, None, origin);
    }
    // A line game that is not of slides (Kayles' pins) is played on the rule core too.
    if game.rules.heaps().is_some() || gamec::rules::Rules::new(&game).is_none() {
        return gamec::codegen::rules_module(&game, origin);
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

//! Every ```game and ```board example in docs/language.md loads without a diagnostic, and every
//! diagnostic code the compiler gives has a row in its tables.

use gamec_dsl::{load, Sources};

fn blocks(kind: &str) -> Vec<String> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/language.md")).unwrap();
    let fence = format!("```{kind}\n");
    let mut out = Vec::new();
    let mut rest = doc.as_str();
    while let Some(start) = rest.find(&fence) {
        let body = &rest[start + fence.len()..];
        let end = body.find("```").expect("closed fence");
        out.push(body[..end].to_string());
        rest = &body[end..];
    }
    out
}

#[test]
fn every_example_in_the_language_reference_loads() {
    let examples: Vec<(String, String)> = blocks("game")
        .into_iter()
        .map(|b| ("game", b))
        .chain(blocks("board").into_iter().map(|b| ("board", b)))
        .map(|(k, b)| (k.to_string(), b))
        .collect();
    assert!(examples.len() >= 3, "the reference has examples");
    for (i, (kind, text)) in examples.iter().enumerate() {
        let mut sources = Sources::new();
        let id = sources.add(format!("docs example {i} ({kind})"), text.clone());
        if let Err(d) = load(&sources, id) {
            panic!("{}", sources.render(&d));
        }
    }
}

/// The rows of docs/language.md's tables of diagnostics: code, meaning, and what to do where
/// the table has that column.
fn reference_rows() -> Vec<(String, String, Option<String>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let doc = std::fs::read_to_string(root.join("docs/language.md")).unwrap();
    let section = &doc[doc.find("## Diagnostics").unwrap()..doc.find("## Tutorial 1").unwrap()];
    let mut fixes = false;
    let mut rows = Vec::new();
    for line in section.lines() {
        if line.starts_with("| code |") {
            fixes = line.contains("what to do");
        }
        let Some(row) = line.strip_prefix("| ").and_then(|l| l.strip_suffix(" |")) else { continue };
        let Some((code, rest)) = row.split_once(" | ") else { continue };
        if code.len() != 5 || !code[1..].bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let (meaning, fix) = match fixes {
            true => rest.rsplit_once(" | ").map(|(m, f)| (m.to_string(), Some(f.to_string()))).unwrap(),
            false => (rest.to_string(), None),
        };
        rows.push((code.to_string(), meaning, fix));
    }
    rows
}

#[test]
fn every_diagnostic_code_is_the_reference_s_row_word_for_word() {
    let rows = reference_rows();
    for code in gamec_dsl::Code::ALL {
        let row = rows.iter().find(|(c, _, _)| c == code.as_str());
        let (_, meaning, fix) = row.unwrap_or_else(|| panic!("{code} has no row in docs/language.md"));
        assert_eq!(meaning, code.meaning(), "{code}: the meaning in docs/language.md and in dsl/src/codes.rs");
        assert_eq!(fix.as_deref(), code.fix(), "{code}: what to do, in docs/language.md and in dsl/src/codes.rs");
    }
    for (code, _, _) in &rows {
        assert!(gamec_dsl::Code::parse(code).is_some(), "{code} is in docs/language.md but no diagnostic has it");
    }
}

/// The introduction counts the games that ship and names each: a game added to `games/`
/// without a word in the introduction fails here.
#[test]
fn the_introduction_names_every_game_that_ships() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/language.md")).unwrap();
    let games: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
        .collect();
    let words = ["", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve"];
    let teens = ["Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen", "Twenty"];
    let count = words.iter().chain(&teens).nth(games.len()).expect("a count the test can spell");
    let sentence = format!("{count} games ship in `games/`");
    let at = doc.find(&sentence).unwrap_or_else(|| panic!("the introduction says \"{sentence}\""));
    // The list runs to the end of its paragraph; a file's name, its words spaced, is in it
    // (`dawsons_kayles` as "Dawson's Kayles", `set` as "the Set solver").
    let list = doc[at..].split("\n\n").next().unwrap().to_lowercase().replace(['\n', '\''], " ").replace("- ", "-");
    let list = list.replace(" s ", "s ");
    for g in &games {
        let name = g.replace('_', " ").replace("tictactoe", "tic-tac-toe");
        assert!(list.contains(&name), "docs/language.md's introduction does not name {g}:\n{list}");
    }
}

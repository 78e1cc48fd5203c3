//! Generates the game module of every `games/*.game` for the host, as the firmware gets it.

use gamec::analyze::Analysis;
use std::fmt::Write;
use std::path::Path;

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
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "game")) {
        println!("cargo:rerun-if-changed={}", path.display());
        let mut sources = gamec_dsl::Sources::new();
        let id = sources.add(path.display().to_string(), std::fs::read_to_string(path).unwrap());
        let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let source = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        let code = if game.grid().is_some() {
            gamec::codegen::grid_module(&game, &source)
        } else {
            let analysis = Analysis::new(&game, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
            gamec::codegen::game_module(&game, &analysis, None, &source)
        };
        let file = Path::new(&out).join(format!("{name}.rs"));
        std::fs::write(&file, code).unwrap();
        // `#[path]` rather than `include!`, which cannot take the module's inner attributes.
        writeln!(index, "#[path = {:?}]\npub mod {name};", file.display().to_string()).unwrap();
    }
    std::fs::write(Path::new(&out).join("games.rs"), index).unwrap();
}

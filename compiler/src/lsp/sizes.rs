//! The size of the game's last build, as an inlay hint at its `game` line: read from the ELF
//! `gamec build` wrote (`build/GAME-BOARD.elf`), its sections summed as the build's report sums
//! them, so the figures are the last build's, never an estimate.

use super::positions::LineIndex;
use super::{names, Doc};
use gamec_dsl::thousands;
use lsp_types::{InlayHint, InlayHintLabel, InlayHintTooltip, Position};
use std::path::{Path, PathBuf};

/// The hint for `doc`, a game file at `path`: one figure a board it was built for, found in a
/// `build/` folder of the workspace (`root`), beside the file or beside its folder.
pub fn hint(doc: &Doc, path: Option<&Path>, root: Option<&Path>) -> Option<InlayHint> {
    let game = names::definitions(&doc.text).into_iter().find(|s| s.kind == names::Kind::Game)?;
    let mut dirs: Vec<PathBuf> = root.map(|r| r.join("build")).into_iter().collect();
    if let Some(dir) = path.and_then(Path::parent) {
        dirs.extend([dir.join("build"), dir.join("../build")]);
    }
    let mut dirs: Vec<PathBuf> = dirs.into_iter().filter_map(|d| d.canonicalize().ok()).collect();
    dirs.sort();
    dirs.dedup();
    let saved = path.and_then(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    let mut figures = Vec::new();
    let mut elfs = Vec::new();
    for elf in dirs.iter().flat_map(|d| builds(d, &game.name)) {
        let Some(sizes) = std::fs::read(&elf).ok().and_then(|b| crate::driver::sizes(&b).ok()) else { continue };
        let board = elf.file_stem().and_then(|s| s.to_str()).map_or("", |s| &s[game.name.len() + 1..]).to_string();
        let built = std::fs::metadata(&elf).and_then(|m| m.modified()).ok();
        let stale = matches!((built, saved), (Some(b), Some(s)) if b < s);
        figures.push(format!(
            "{board}: flash {} B, RAM {} B{}",
            thousands(sizes.flash().into()),
            thousands(sizes.ram().into()),
            if stale { " (before the file's last save)" } else { "" }
        ));
        elfs.push(elf.display().to_string());
    }
    if figures.is_empty() {
        return None;
    }
    let index = LineIndex::new(&doc.text);
    let line = index.position(game.span.end).line;
    let end = doc.text[game.span.end..].find('\n').map_or(doc.text.len(), |i| game.span.end + i);
    Some(InlayHint {
        position: Position::new(line, index.position(end).character),
        label: InlayHintLabel::String(format!("last build: {}", figures.join("; "))),
        kind: None,
        text_edits: None,
        tooltip: Some(InlayHintTooltip::String(format!(
            "flash is .text and .data, RAM the static .data and .bss (the stack not counted), as `gamec build` \
             reports them, from {}",
            elfs.join(", ")
        ))),
        padding_left: Some(true),
        padding_right: None,
        data: None,
    })
}

/// The ELFs `gamec build` wrote for game `name` in `dir`: `NAME-BOARD.elf`, sorted.
fn builds(dir: &Path, name: &str) -> Vec<PathBuf> {
    let prefix = format!("{name}-");
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "elf"))
        .filter(|p| {
            p.file_stem().and_then(|s| s.to_str()).is_some_and(|s| s.starts_with(&prefix) && !s.ends_with(".eeprom"))
        })
        .collect();
    found.sort();
    found
}

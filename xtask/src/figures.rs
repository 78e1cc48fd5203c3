//! `cargo xtask figures`: the README's table of every board's firmware sizes, written from
//! what `gamec build` prints for each game on each of its boards (`boards/<game>_*.board`),
//! between the README's markers, so that the table is measured, never typed.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The README's lines around the generated table (the end line closes every generated table).
pub const BEGIN: &str = "<!-- figures: sizes, written by `cargo xtask figures`; do not edit -->";
pub const END: &str = "<!-- /figures -->";

/// One firmware's figures, as `gamec build` printed them.
struct Sizes {
    game: String,
    board: String,
    chip: String,
    flash: String,
    ram: String,
    stack: String,
    with_stack: String,
}

/// The files of `root/dir` ending in `.ext`, in name order.
pub fn listed(root: &Path, dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == ext)).collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Every game with each of its boards, by the boards' names: `boards/<game>_*.board`.
pub fn pairs(root: &Path) -> Vec<(PathBuf, PathBuf)> {
    let stem = |p: &PathBuf| p.file_stem().unwrap().to_string_lossy().to_string();
    let (games, boards) = (listed(root, "games", "game"), listed(root, "boards", "board"));
    let mut out = Vec::new();
    for board in &boards {
        // The longest game name the board's begins with: `dawsons_kayles_...` is not Kayles'.
        let game =
            games.iter().filter(|g| stem(board).starts_with(&format!("{}_", stem(g)))).max_by_key(|g| stem(g).len());
        if let Some(game) = game {
            out.push((game.clone(), board.clone()));
        }
    }
    out
}

/// The value after `label` on the line of `report` that starts with it: `2796 B`.
fn figure(report: &str, label: &str) -> String {
    report
        .lines()
        .find_map(|l| l.strip_prefix(label))
        .map(|rest| rest.split(" of ").next().unwrap_or("").split(" at most").next().unwrap_or("").trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "-".into())
}

/// Builds every game on each of its boards with `gamec` and writes the table into README.md.
pub fn write(root: &Path, gamec: &Path) -> Result<(), String> {
    let out = root.join("target/figures");
    let mut rows = Vec::new();
    for (game, board) in pairs(root) {
        let built = Command::new(gamec)
            .arg("build")
            .arg(&game)
            .arg("--board")
            .arg(&board)
            .arg("-o")
            .arg(&out)
            .current_dir(root)
            .output()
            .map_err(|e| format!("gamec: {e}"))?;
        let report = String::from_utf8_lossy(&built.stdout).into_owned();
        if !built.status.success() {
            return Err(format!(
                "gamec build {} --board {}:\n{}{}",
                game.display(),
                board.display(),
                report,
                String::from_utf8_lossy(&built.stderr)
            ));
        }
        let name = |p: &PathBuf| p.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&board).map_err(|e| e.to_string())?;
        let chip = text.lines().find_map(|l| l.trim().strip_prefix("chip ")).unwrap_or("?").trim().to_string();
        rows.push(Sizes {
            game: name(&game),
            board: name(&board),
            chip,
            flash: figure(&report, "flash:"),
            ram: figure(&report, "ram:"),
            stack: figure(&report, "stack:"),
            with_stack: figure(&report, "ram with stack:"),
        });
        eprintln!("figures: {} on {}", name(&game), name(&board));
    }
    let mut table = String::from(
        "| game | board | chip | flash | static RAM | stack bound | RAM with stack |\n|---|---|---|---|---|---|---|\n",
    );
    for r in &rows {
        table.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} | {} |\n",
            r.game, r.board, r.chip, r.flash, r.ram, r.stack, r.with_stack
        ));
    }
    let readme = root.join("README.md");
    let text = std::fs::read_to_string(&readme).map_err(|e| e.to_string())?;
    let new = crate::bench::replaced(&text, BEGIN, &table)?;
    std::fs::write(&readme, new).map_err(|e| e.to_string())?;
    eprintln!("figures: {} rows written to README.md", rows.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_goes_with_the_longest_game_name_it_begins_with() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let pairs = pairs(&root);
        let named = |b: &str| pairs.iter().find(|(_, board)| board.ends_with(format!("{b}.board"))).map(|(g, _)| g);
        assert!(named("dawsons_kayles_atmega128").unwrap().ends_with("dawsons_kayles.game"));
        assert!(named("kayles_atmega16").unwrap().ends_with("kayles.game"));
        assert!(named("nim_silver_dollar_attiny84").unwrap().ends_with("nim.game"));
    }

    /// The README's table has a row for every game on each of its boards and no other: a
    /// board added without `cargo xtask figures` run fails here.
    #[test]
    fn the_readme_table_has_a_row_for_every_board() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
        let table = crate::bench::between(&readme, BEGIN).expect("the markers");
        let boards: Vec<String> = table
            .lines()
            .filter_map(|l| l.split('`').nth(1))
            .filter(|b| !b.contains(' '))
            .map(str::to_string)
            .collect();
        let want: Vec<String> =
            pairs(&root).iter().map(|(_, b)| b.file_stem().unwrap().to_string_lossy().to_string()).collect();
        assert_eq!(boards, want, "run `cargo xtask figures`");
    }

    #[test]
    fn figures_are_read_off_the_build_report() {
        let report = "flash:   2796 B of 262144 B (1.1%)   [.text 2796 + .data 0]\n\
                      ram:       28 B of  65536 B (0.0%)   [.data 0 + .bss 28]\n\
                      stack:    516 B at most (408 B of it an interrupt's), bounded from the machine code\n\
                      ram with stack: 544 B of 65536 B\n";
        assert_eq!(figure(report, "flash:"), "2796 B");
        assert_eq!(figure(report, "ram:"), "28 B");
        assert_eq!(figure(report, "stack:"), "516 B");
        assert_eq!(figure(report, "ram with stack:"), "544 B");
        assert_eq!(figure("", "stack:"), "-");
    }
}

//! The commands docs/language.md shows with their output are run, and their output compared
//! with what the text says: the tutorial's build report (sizes, the stack's chain, budgets)
//! cannot go stale.

use std::process::Command;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The first ```text block after `marker` in docs/language.md.
fn block_after(marker: &str) -> String {
    let doc = std::fs::read_to_string(root().join("docs/language.md")).unwrap();
    let at = doc.find(marker).unwrap_or_else(|| panic!("docs/language.md says {marker:?}"));
    let rest = &doc[at..];
    let start = rest.find("```text\n").unwrap() + "```text\n".len();
    let end = rest[start..].find("```").unwrap();
    rest[start..start + end].to_string()
}

#[test]
fn the_tutorial_s_build_report_is_what_gamec_build_prints() {
    let shown = block_after("then the sizes, here those of `games/tictactoe.game` on its board:");
    let out = Command::new(env!("CARGO_BIN_EXE_gamec"))
        .args(["build", "games/tictactoe.game", "--board", "boards/tictactoe_stk500_atmega16.board", "-o"])
        .arg(root().join("target/gamec-tests/docs"))
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8_lossy(&out.stdout);
    let report: String = printed.lines().filter(|l| !l.starts_with("wrote ")).map(|l| format!("{l}\n")).collect();
    assert_eq!(report, shown, "docs/language.md's build report differs from `gamec build`'s: update the text");
}

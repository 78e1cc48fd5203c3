//! Every ```console block of README.md and docs/language.md is run and what it prints compared
//! with the text (trycmd): a `$ gamec ...` line is a command, run from the top of the workspace,
//! and the lines under it what it prints, stdout and stderr together; `? failed` says it exits
//! with an error, a line `...` stands for lines left out and `[..]` for the rest of a line. A
//! blank line before the next command or the closing fence is the output's last newline.
//! `TRYCMD=overwrite` writes what the commands print into the documents.
//!
//! The tutorials' ```console,ignore blocks need the files the tutorial has built by then:
//! tests/docs_commands.rs runs them.

use std::path::Path;

/// The ```console blocks trycmd runs in a markdown file.
fn console_blocks(doc: &str) -> usize {
    doc.lines().filter(|l| l.trim_end() == "```console").count()
}

#[test]
fn the_documents_console_blocks_are_what_gamec_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let docs = ["README.md", "docs/language.md"];
    for doc in docs {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        // trycmd skips a file with no command: a document whose blocks all lost their tag
        // would pass unseen.
        assert!(console_blocks(&text) >= 2, "{doc} has its commands in ```console blocks");
        // trycmd takes a fence without an info string for a console block too.
        let bare = text.lines().scan(false, |open, l| {
            let fence = l.starts_with("```");
            let opens_bare = fence && !*open && l.trim_end() == "```";
            *open ^= fence;
            Some(opens_bare)
        });
        assert_eq!(bare.filter(|b| *b).count(), 0, "{doc}: every block names its language (```text for output)");
    }
    // The commands name files from the top of the workspace, as the reader runs them; the
    // firmware they build goes to its build/ folder, as `cargo xtask build`'s does.
    std::env::set_current_dir(&root).unwrap();
    let cases = trycmd::TestCases::new();
    cases.register_bin("gamec", Path::new(env!("CARGO_BIN_EXE_gamec")));
    for doc in docs {
        cases.case(root.join(doc));
    }
    cases.run();
}

//! The compiler's modules import one another one way only: reading the rules (engine,
//! analyses, lints, bind) never reaches for code generation or I/O, and no two top-level
//! modules import each other. Read from the sources, so a new `use` that closes a cycle fails
//! here rather than in review.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level module -> the top-level modules its files name as `crate::NAME`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&root).unwrap();
            let top =
                rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines().map(|l| l.split("//").next().unwrap_or("")) {
                for (i, _) in line.match_indices("crate::") {
                    let name: String =
                        line[i + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if !name.is_empty() && name != top && name.chars().next().unwrap().is_ascii_lowercase() {
                        out.entry(top.clone()).or_default().insert(name);
                    }
                }
            }
        }
    }
    out
}

#[test]
fn no_two_compiler_modules_import_each_other() {
    let graph = imports();
    for (a, uses) in &graph {
        for b in uses {
            assert!(
                !graph.get(b).is_some_and(|back| back.contains(a)),
                "compiler/src/{a} and compiler/src/{b} import each other"
            );
        }
    }
}

#[test]
fn reading_the_rules_never_reaches_for_code_generation_or_io() {
    let graph = imports();
    for reader in ["engine", "analyze", "lints", "bind", "rules", "solve", "game_tests", "generate", "cards"] {
        let uses = graph.get(reader).cloned().unwrap_or_default();
        for forbidden in ["codegen", "driver"] {
            assert!(!uses.contains(forbidden), "compiler/src/{reader} imports {forbidden}");
        }
    }
}

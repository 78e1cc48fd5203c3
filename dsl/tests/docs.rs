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

/// The `"E0123"` and `"W0123"` codes a source file under `dir` gives, with where.
fn codes_in(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            codes_in(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for (at, _) in text.match_indices('"') {
                let code = &text[at + 1..];
                let is_code = code.len() > 6
                    && matches!(code.as_bytes()[0], b'E' | b'W')
                    && code.as_bytes()[1..5].iter().all(u8::is_ascii_digit)
                    && code.as_bytes()[5] == b'"';
                if is_code {
                    out.push((code[..5].to_string(), path.display().to_string()));
                }
            }
        }
    }
}

#[test]
fn every_diagnostic_code_is_in_the_reference() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let doc = std::fs::read_to_string(root.join("docs/language.md")).unwrap();
    let mut codes = Vec::new();
    codes_in(&root.join("dsl/src"), &mut codes);
    codes_in(&root.join("compiler/src"), &mut codes);
    assert!(codes.iter().any(|(c, _)| c == "E0023"), "the scan finds the codes");
    for (code, file) in codes {
        assert!(doc.contains(&format!("| {code} |")), "{code}, given in {file}, has no row in docs/language.md");
    }
}

//! Every ```game and ```board example in docs/language.md loads without a diagnostic.

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

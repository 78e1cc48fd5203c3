//! The fuzz dictionary (compiler/fuzz/check.dict) must hold every word of the grammar
//! (dsl/src/gamec.pest): without a keyword the fuzzer rarely writes it, and the statements it
//! leads go untested.

use std::collections::BTreeSet;
use std::path::Path;

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every quoted literal of a pest grammar, unescaped, comments skipped (a `//` inside a
/// literal is the literal `"//"`, not a comment).
fn grammar_literals(pest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = pest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '"' => {
                let mut literal = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => literal.push(match chars.next().expect("an escape ends the grammar") {
                            'n' => '\n',
                            'r' => '\r',
                            't' => '\t',
                            c => c,
                        }),
                        '"' => break,
                        c => literal.push(c),
                    }
                }
                out.push(literal);
            }
            _ => {}
        }
    }
    out
}

/// The values of a libFuzzer dictionary (`"value"` or `name="value"` a line, `#` comments),
/// unescaped (`\\`, `\"`, `\xNN`).
fn dictionary_entries(dict: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in dict.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (Some(open), Some(close)) = (line.find('"'), line.rfind('"')) else { panic!("not an entry: {line}") };
        assert!(close > open, "an unterminated entry: {line}");
        let mut value = String::new();
        let mut chars = line[open + 1..close].chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                value.push(c);
                continue;
            }
            match chars.next() {
                Some('x') => {
                    let hex: String = chars.by_ref().take(2).collect();
                    value.push(u8::from_str_radix(&hex, 16).unwrap_or_else(|_| panic!("bad escape in {line}")) as char);
                }
                Some(c) => value.push(c),
                None => panic!("a trailing backslash in {line}"),
            }
        }
        out.insert(value);
    }
    out
}

/// A word of the grammar: letters and digits (`93c46`), at least one letter.
fn is_word(literal: &str) -> bool {
    !literal.is_empty()
        && literal.chars().all(|c| c.is_ascii_alphanumeric())
        && literal.chars().any(|c| c.is_ascii_alphabetic())
}

#[test]
fn every_keyword_of_the_grammar_is_in_the_fuzz_dictionary() {
    let literals = grammar_literals(&read("../dsl/src/gamec.pest"));
    let dictionary = dictionary_entries(&read("fuzz/check.dict"));
    let words: BTreeSet<&str> = literals.iter().map(String::as_str).filter(|l| is_word(l)).collect();
    // The reading of the grammar itself: words from every part of it.
    for known in ["game", "board", "cards", "eval", "matrix", "93c46"] {
        assert!(words.contains(known), "the grammar's words, as read, lack {known:?}: {words:?}");
    }
    let missing: Vec<&str> = words.iter().copied().filter(|w| !dictionary.contains(*w)).collect();
    assert!(missing.is_empty(), "compiler/fuzz/check.dict lacks these words of dsl/src/gamec.pest: {missing:?}");
}

#[test]
fn the_readers_read_escapes_and_comments() {
    assert_eq!(grammar_literals("a = { \"x\" ~ \"\\\"\" } // \"not\"\nb = { \"//\" ~ \"y\" }"), ["x", "\"", "//", "y"]);
    assert_eq!(grammar_literals("nl = { \"\\n\" | \"\\r\" | \"\\t\" }"), ["\n", "\r", "\t"]);
    let dict = dictionary_entries("# \"comment\"\n\"a\"\nkw=\"b\\\"\"\n\"\\x00\"\n");
    assert_eq!(dict, BTreeSet::from(["a".to_string(), "b\"".to_string(), "\0".to_string()]));
}

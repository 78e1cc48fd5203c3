//! The editors' TextMate grammar (editors/vscode/syntaxes/gamec.tmLanguage.json) highlights
//! every word of the language: each quoted word of gamec.pest is matched whole by one of the
//! grammar's `match` patterns, its keyword groups name no word the language lacks, and in
//! every game and board file no word of the language is left without a scope.
//!
//! The grammar's patterns are compiled with the regex crate: they keep to what it and
//! Oniguruma both read (no look-around, no backreferences), which this test holds them to.

use regex::Regex;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

const PEST: &str = include_str!("../src/gamec.pest");
const GRAMMAR: &str = include_str!("../../editors/vscode/syntaxes/gamec.tmLanguage.json");

/// Quoted words of the pest grammar that are pieces of a larger token, not words of their
/// own: each with a token that holds it, which the grammar must match whole (or `None` where
/// the token is a name, which stays plain).
const FRAGMENTS: &[(&str, Option<&str>)] = &[
    // A pin: `P`, a port letter and a bit.
    ("P", Some("PA3")),
    // A flat note in a tune.
    ("b", Some("Bb4/8")),
    // A character of names.
    ("_", None),
];

fn is_word(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Every quoted literal of a pest grammar that is a word, outside `//` comments.
fn pest_words(pest: &str) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    for line in pest.lines() {
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '/' if line[i..].starts_with("//") => break,
                '"' => {
                    let mut literal = String::new();
                    while let Some((_, c)) = chars.next() {
                        match c {
                            '\\' => {
                                chars.next();
                                literal.push('\\');
                            }
                            '"' => break,
                            c => literal.push(c),
                        }
                    }
                    if is_word(&literal) {
                        words.insert(literal);
                    }
                }
                _ => {}
            }
        }
    }
    words
}

/// A rule of the grammar: a `match` pattern, or a `begin`/`end` pair (a string).
enum Rule {
    Match(Regex),
    Span(Regex, Regex),
}

/// The grammar's rules in the order TextMate tries them: the top-level patterns, each
/// `include` of the repository expanded where it stands.
fn rules(grammar: &Value) -> Result<Vec<Rule>, String> {
    fn walk(grammar: &Value, patterns: &Value, out: &mut Vec<Rule>, depth: u32) -> Result<(), String> {
        let compile = |p: &Value| {
            let p = p.as_str().ok_or("a pattern that is not a string")?;
            Regex::new(p).map_err(|e| format!("`{p}` is not a pattern the regex crate reads: {e}"))
        };
        for p in patterns.as_array().ok_or("`patterns` is not a list")? {
            if let Some(include) = p.get("include").and_then(Value::as_str) {
                let name = include.strip_prefix('#').ok_or(format!("include `{include}`: not of the repository"))?;
                let entry = &grammar["repository"][name];
                if entry.is_null() || depth > 8 {
                    return Err(format!("include `{include}`: no such entry, or includes in a loop"));
                }
                walk(grammar, &entry["patterns"], out, depth + 1)?;
            } else if let Some(m) = p.get("match") {
                out.push(Rule::Match(compile(m)?));
            } else if let (Some(b), Some(e)) = (p.get("begin"), p.get("end")) {
                out.push(Rule::Span(compile(b)?, compile(e)?));
            } else if p.get("patterns").is_some() {
                walk(grammar, &p["patterns"], out, depth + 1)?;
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(grammar, &grammar["patterns"], &mut out, 0)?;
    Ok(out)
}

/// Whether some `match` rule matches all of `text`.
fn matched_whole(rules: &[Rule], text: &str) -> bool {
    rules.iter().any(|r| match r {
        Rule::Match(re) => re.find(text).is_some_and(|m| m.start() == 0 && m.end() == text.len()),
        Rule::Span(..) => false,
    })
}

/// The words of the language that no rule of the grammar matches whole, fragments aside.
fn unhighlighted(words: &BTreeSet<String>, rules: &[Rule]) -> Vec<String> {
    let fragment = |w: &str| FRAGMENTS.iter().any(|(f, _)| *f == w);
    words.iter().filter(|w| !fragment(w) && !matched_whole(rules, w)).cloned().collect()
}

/// The words of the grammar's keyword groups (`\b(?:a|b|c)\b` patterns).
fn keyword_groups(grammar: &Value) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    let groups = grammar["repository"]["keywords"]["patterns"].as_array().expect("a `keywords` entry");
    for g in groups {
        let m = g["match"].as_str().expect("a keyword group is a match");
        let inner = m.strip_prefix(r"\b(?:").and_then(|m| m.strip_suffix(r")\b"));
        let inner = inner.unwrap_or_else(|| panic!("keyword group `{m}` is not of the form \\b(?:a|b)\\b"));
        words.extend(inner.split('|').map(str::to_string));
    }
    words
}

/// The words of `line` that TextMate would leave without a scope: at each position the rule
/// whose match starts first wins (the earlier rule on a tie), and a `begin` runs to its `end`.
fn plain_words(line: &str, rules: &[Rule]) -> Vec<String> {
    let word = Regex::new(r"[A-Za-z_][A-Za-z0-9_]*").unwrap();
    let mut plain = Vec::new();
    let mut pos = 0;
    while pos < line.len() {
        let first = rules
            .iter()
            .filter_map(|r| {
                let re = match r {
                    Rule::Match(re) | Rule::Span(re, _) => re,
                };
                re.find_at(line, pos).map(|m| (m.start(), m.end(), r))
            })
            .min_by_key(|&(start, ..)| start);
        let Some((start, end, rule)) = first else {
            plain.extend(word.find_iter(&line[pos..]).map(|m| m.as_str().to_string()));
            break;
        };
        plain.extend(word.find_iter(&line[pos..start]).map(|m| m.as_str().to_string()));
        pos = match rule {
            Rule::Span(_, close) => close.find_at(line, end).map_or(line.len(), |m| m.end()),
            Rule::Match(_) => end,
        }
        .max(start + 1);
    }
    plain
}

fn grammar() -> Value {
    serde_json::from_str(GRAMMAR).expect("the grammar is JSON")
}

#[test]
fn every_word_of_the_language_is_highlighted() {
    let words = pest_words(PEST);
    assert!(words.len() > 200 && words.contains("charlieplex") && words.contains("game"), "{words:?}");
    let rules = rules(&grammar()).unwrap();
    let missing = unhighlighted(&words, &rules);
    assert!(
        missing.is_empty(),
        "words of gamec.pest that editors/vscode/syntaxes/gamec.tmLanguage.json does not highlight \
         (add each to one of its keyword groups): {missing:?}"
    );
}

#[test]
fn the_fragments_are_words_of_the_language_and_their_tokens_highlighted() {
    let (words, rules) = (pest_words(PEST), rules(&grammar()).unwrap());
    for (fragment, token) in FRAGMENTS {
        assert!(words.contains(*fragment), "`{fragment}` is no longer in gamec.pest: drop it from FRAGMENTS");
        if let Some(token) = token {
            assert!(matched_whole(&rules, token), "no pattern matches `{token}`, which holds `{fragment}`");
        }
    }
}

#[test]
fn the_keyword_groups_name_only_words_of_the_language() {
    let words = pest_words(PEST);
    let stale: Vec<String> = keyword_groups(&grammar()).difference(&words).cloned().collect();
    assert!(stale.is_empty(), "keyword groups of the grammar name words gamec.pest lacks: {stale:?}");
}

#[test]
fn names_are_not_keywords() {
    // A pattern matching any word would pass every other test here.
    let rules = rules(&grammar()).unwrap();
    for name in ["counter", "timer0", "human", "x_squares", "zz", "usart1", "cells"] {
        assert!(!matched_whole(&rules, name), "the grammar highlights the name `{name}` as a word of the language");
    }
}

#[test]
fn a_word_the_grammar_lacks_is_reported() {
    // gamec.pest with one more keyword than the grammar knows.
    let grown = format!("{PEST}\nfrobnicate = {{ \"frobnicate\" ~ \"game\" ~ \"->\" }}\n");
    let rules = rules(&grammar()).unwrap();
    assert_eq!(unhighlighted(&pest_words(&grown), &rules), ["frobnicate"]);
    // A small grammar of its own, checked the same way.
    let small: Value = serde_json::from_str(
        r##"{"patterns": [{"include": "#kw"}, {"match": "//.*$"}],
            "repository": {"kw": {"patterns": [{"match": "\\b(?:one|two)\\b"}]}}}"##,
    )
    .unwrap();
    let words = pest_words("a = { \"one\" ~ \"two\" ~ \"three\" ~ \"->\" } // \"four\"");
    assert_eq!(words.iter().collect::<Vec<_>>(), ["one", "three", "two"]);
    assert_eq!(unhighlighted(&words, &rules_of(&small)), ["three"]);
}

fn rules_of(grammar: &Value) -> Vec<Rule> {
    rules(grammar).unwrap()
}

#[test]
fn a_pattern_outside_the_shared_syntax_is_refused() {
    let lookahead: Value = serde_json::from_str(r#"{"patterns": [{"match": "\\bgame(?=\\s)"}]}"#).unwrap();
    assert!(rules(&lookahead).is_err_and(|e| e.contains("regex crate")));
}

#[test]
fn game_and_board_files_leave_no_word_of_the_language_plain() {
    let (words, rules) = (pest_words(PEST), rules(&grammar()).unwrap());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for (dir, ext) in [("games", "game"), ("boards", "board")] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == ext) {
                files.push(path);
            }
        }
    }
    assert!(files.len() >= 30, "the games and boards are found: {files:?}");
    let mut plain = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in text.lines().enumerate() {
            for w in plain_words(line, &rules).into_iter().filter(|w| words.contains(w)) {
                plain.push(format!("{}:{}: `{w}`", path.display(), n + 1));
            }
        }
    }
    assert!(plain.is_empty(), "words of the language left plain:\n{}", plain.join("\n"));
}

#[test]
fn the_scanner_leaves_names_plain_and_skips_comments_and_strings() {
    let rules = rules(&grammar()).unwrap();
    let line = r#"  on win device -> board, "game over", await // end of game"#;
    assert!(plain_words(line, &rules).is_empty(), "{:?}", plain_words(line, &rules));
    assert_eq!(plain_words("  button go = PA6 pullup", &rules), ["go"]);
    assert_eq!(plain_words("strategy device = perfect, ties random", &rules), Vec::<String>::new());
    // Without the keyword groups, the keywords are plain.
    let bare: Value = serde_json::from_str(r#"{"patterns": [{"match": "//.*$"}]}"#).unwrap();
    assert_eq!(plain_words("led won = PB1 // lamp", &rules_of(&bare)), ["led", "won", "PB1"]);
}

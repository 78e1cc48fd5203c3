//! The language's words, read from the grammar (`dsl/src/gamec.pest`), and what the
//! reference (`docs/language.md`) says of each: both texts are compiled into the binary, so
//! the server needs no checkout beside it and never disagrees with the parser it was built with.

use std::collections::BTreeMap;
use std::sync::OnceLock;

const GRAMMAR: &str = include_str!("../../../dsl/src/gamec.pest");
const REFERENCE: &str = include_str!("../../../docs/language.md");

/// The most a hover quotes: past it, whole lines are left off and the section named.
const MOST_QUOTED: usize = 1600;

/// Every word the grammar spells out (`"players"`, `"toward"`, `"MHz"` ...), sorted.
pub fn words() -> &'static [&'static str] {
    static WORDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut words: Vec<&str> = GRAMMAR
            .lines()
            .flat_map(|l| {
                // The letters of a pin (`PA0`) and a pitch (`Bb3`) are no words.
                let glued = l.starts_with("pin ") || l.starts_with("pitch ");
                let code = l.split("//").next().unwrap_or("");
                code.split('"').skip(1).step_by(2).filter(move |w| !glued || w.len() > 1)
            })
            .filter(|w| w.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
            .filter(|w| w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    })
}

/// What the reference says of a word, in Markdown, if it says anything.
pub fn documentation(word: &str) -> Option<&'static str> {
    static DOCS: OnceLock<BTreeMap<&'static str, String>> = OnceLock::new();
    let docs = DOCS.get_or_init(|| {
        let blocks = blocks(REFERENCE);
        words().iter().filter_map(|&w| Some((w, document(&blocks, w)?))).collect()
    });
    docs.get(word).map(String::as_str)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Heading,
    Code,
    Prose,
    /// A table's row: shown under its table's header.
    Row,
}

/// A piece of the reference: a heading, a fenced block, a paragraph or list item, or a
/// table row; `header` is a row's table header (its first two lines), `section` the index of
/// the heading above.
#[derive(Debug)]
struct Block {
    kind: BlockKind,
    text: String,
    header: String,
    section: usize,
}

/// The reference cut into blocks. A list item is a block of its own, with the lines indented
/// under it.
fn blocks(doc: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let (mut fenced, mut section, mut header) = (false, 0, String::new());
    let mut open = false; // whether the last prose block takes more lines
    let mut table_lines = 0;
    for line in doc.lines() {
        let trimmed = line.trim_start();
        let new = move |kind, text: &str, header: &str| Block {
            kind,
            text: text.to_string(),
            header: header.into(),
            section,
        };
        table_lines = if trimmed.starts_with('|') { table_lines } else { 0 };
        if fenced || trimmed.starts_with("```") {
            match out.last_mut().filter(|_| fenced) {
                Some(b) => b.text += &format!("\n{line}"),
                None => out.push(new(BlockKind::Code, line, "")),
            }
            fenced ^= trimmed.starts_with("```");
            open = false;
        } else if trimmed.starts_with('#') {
            section = out.len();
            out.push(Block { section, ..new(BlockKind::Heading, trimmed, "") });
            open = false;
        } else if trimmed.starts_with('|') {
            // The first two lines of a table are its header and rule.
            if table_lines == 0 {
                header.clear();
            }
            if table_lines < 2 {
                header += &format!("{line}\n");
            } else {
                out.push(new(BlockKind::Row, line, &header));
            }
            table_lines += 1;
            open = false;
            continue;
        } else if trimmed.is_empty() {
            open = false;
        } else if open && !trimmed.starts_with("- ") {
            if let Some(b) = out.last_mut() {
                b.text += &format!("\n{line}");
            }
        } else {
            out.push(new(BlockKind::Prose, line, ""));
            open = true;
        }
    }
    out
}

/// What to show for `word`: the section whose heading names it, in code or as its first word
/// (its syntax and first words);
/// else the first paragraph, list item or table row that opens with code starting with it (the
/// line that defines it: `` - `require Q OP Q` compares ``), else the first whose code starts
/// with it, else the first whose code holds it.
fn document(blocks: &[Block], word: &str) -> Option<String> {
    let names = |b: &Block| spans(&b.text).any(|s| s == word);
    // `## Game files` is the game file's statement.
    let first_word = |b: &Block| b.text.trim_start_matches(['#', ' ']).split(' ').next() == Some(&capitalised(word));
    let heading = |f: &dyn Fn(&Block) -> bool| blocks.iter().position(|b| b.kind == BlockKind::Heading && f(b));
    if let Some(h) = heading(&names).or_else(|| heading(&first_word)) {
        return Some(section_opening(blocks, h));
    }
    let starts =
        |s: &str| s.strip_prefix(word).is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
    let holds = |s: &str| s.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == word);
    let opens = |b: &Block| {
        let text = b.text.trim_start().trim_start_matches(['-', '*', '|', ' ']);
        text.starts_with('`') && spans(text).next().is_some_and(starts)
    };
    let prose = || blocks.iter().filter(|b| matches!(b.kind, BlockKind::Prose | BlockKind::Row));
    let found = prose()
        .find(|b| opens(b))
        .or_else(|| prose().find(|b| spans(&b.text).any(starts)))
        .or_else(|| prose().find(|b| spans(&b.text).any(holds)))?;
    let title = blocks[found.section].text.trim_start_matches('#').trim();
    let body =
        if found.kind == BlockKind::Row { format!("{}{}", found.header, found.text) } else { found.text.clone() };
    Some(format!("{}\n\n*docs/language.md: {title}*", clip(&body)))
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// A section's heading, its syntax (the code blocks at its start) and its first block of text.
fn section_opening(blocks: &[Block], heading: usize) -> String {
    let mut parts = vec![format!("**{}**", blocks[heading].text.trim_start_matches('#').trim())];
    for b in blocks[heading + 1..].iter().take_while(|b| b.kind != BlockKind::Heading) {
        match b.kind {
            BlockKind::Row if parts.len() > 1 && parts.last().is_some_and(|p| p.starts_with('|')) => {
                let last = parts.last_mut().expect("a row before");
                *last += &format!("\n{}", b.text);
                continue;
            }
            BlockKind::Row => parts.push(format!("{}{}", b.header, b.text)),
            _ => parts.push(b.text.clone()),
        }
        if b.kind == BlockKind::Prose {
            break;
        }
    }
    // A table's rows were gathered up to the first prose: a table is the text, when it comes first.
    if let Some(i) = parts.iter().position(|p| p.starts_with('|')) {
        parts.truncate(i + 1);
    }
    clip(&parts.join("\n\n"))
}

/// The code spans of Markdown text: what lies between a run of backticks and the next run as
/// long (```` ```game ```` holds `` ```game ``), without the spaces at its ends.
fn spans(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let open = rest.find('`')?;
        let ticks = rest[open..].len() - rest[open..].trim_start_matches('`').len();
        let fence = &rest[open..open + ticks];
        let inside = &rest[open + ticks..];
        let close = inside.find(fence)?;
        rest = &inside[close + ticks..];
        Some(inside[..close].trim())
    })
}

/// `text`, or its first lines up to [`MOST_QUOTED`] bytes, with a word that more follows; a
/// fence left open is closed.
fn clip(text: &str) -> String {
    if text.len() <= MOST_QUOTED {
        return text.to_string();
    }
    let mut out = String::new();
    for line in text.lines() {
        if out.len() + line.len() > MOST_QUOTED {
            break;
        }
        out += line;
        out.push('\n');
    }
    if out.matches("```").count() % 2 == 1 {
        out += "```\n";
    }
    out + "\n..."
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar_s_words_are_read_from_it() {
        for w in ["game", "players", "region", "slide", "toward", "capturing", "MHz", "pullup", "rest", "x", "s"] {
            assert!(words().contains(&w), "{w}");
        }
        for w in ["", "ident", "ASCII_DIGIT", "keyword", "#", "->", "P", "b"] {
            assert!(!words().contains(&w), "{w}");
        }
    }

    #[test]
    fn a_statement_s_word_shows_its_section_and_other_words_their_row_or_paragraph() {
        let region = documentation("region").unwrap();
        assert!(region.starts_with("**`region`**"), "{region}");
        assert!(region.contains("A named set of cells"), "{region}");
        let slide = documentation("slide").unwrap();
        assert!(slide.contains("| action | place and pieces |"), "a row under its header: {slide}");
        assert!(slide.contains("moves one piece MIN to MAX cells"), "{slide}");
        let toward = documentation("toward").unwrap();
        assert!(toward.contains("slide P toward"), "{toward}");
        for w in words() {
            if let Some(d) = documentation(w) {
                assert!(d.len() < MOST_QUOTED + 200, "{w}: {} bytes", d.len());
            }
        }
    }
}

//! The tutorials of docs/language.md build their game from the text itself, step by step, and
//! every command they show is run on the files as the text has built them by then, what it
//! prints compared with the text (trycmd).
//!
//! A tutorial's blocks are read in order: a ```game or ```text block that is a whole game is the
//! file from there on (after a check that it keeps every statement the steps before it wrote); a
//! ```board block, or a ```text one that is a whole board, is `boards/NAME.board` (and, where the
//! workspace has that board, the same one); a ```text block of statements indented as in a game
//! is what the reader adds: a statement of the same kind and name replaces the one in the file,
//! and any other goes after the statements that come before its kind in a game file. A
//! ```console,ignore block is run by trycmd in a folder holding the files as they stand there
//! (trycmd's own run over the document, tests/docs_console.rs, leaves those blocks alone: they
//! need the tutorial's files). An edit the prose asks for before a command ("change the second
//! test's ...") is listed with its tutorial below and made for that command only.
//!
//! A failing block is reported as `Testing .../L<line>.md:<line>`: the file trycmd reads holds
//! the block at its line of docs/language.md.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn language_md() -> String {
    std::fs::read_to_string(root().join("docs/language.md")).unwrap()
}

/// A fenced block: the line of its opening fence (from 1), its info string, its text, and the
/// prose between the block before it and this one.
struct Block {
    line: usize,
    info: String,
    text: String,
    prose: String,
}

fn blocks(doc: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut prose = String::new();
    let mut lines = doc.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            prose.push_str(line);
            prose.push('\n');
            continue;
        };
        let mut text = String::new();
        for (_, l) in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            text.push_str(l);
            text.push('\n');
        }
        out.push(Block { line: i + 1, info: info.trim().to_string(), text, prose: std::mem::take(&mut prose) });
    }
    out
}

/// The lines of the section that starts with `heading`, up to the next `## `: (first, last + 1).
fn section(doc: &str, heading: &str) -> (usize, usize) {
    let lines: Vec<&str> = doc.lines().collect();
    let start = lines.iter().position(|l| l.starts_with(heading)).unwrap_or_else(|| panic!("no {heading:?}"));
    let end = lines[start + 1..].iter().position(|l| l.starts_with("## ")).map_or(lines.len(), |n| start + 1 + n);
    (start + 1, end + 1)
}

/// The kinds of a game file's statements, in the order a game file writes them.
const ORDER: &[&str] = &[
    "players", "first", "board", "pieces", "states", "cards", "table", "group", "setup", "action", "promote", "pass",
    "region", "end", "strategy", "eval", "controls", "feedback", "font", "tune", "test",
];

/// Kinds a game has one of, whatever follows the keyword.
const ONE_OF: &[&str] = &["players", "first", "board", "end", "pass"];

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// `{` less `}` on a line, outside strings and comments.
fn braces(line: &str) -> i32 {
    let (mut depth, mut quoted, mut prev) = (0, false, ' ');
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            '/' if !quoted && prev == '/' => break,
            '{' if !quoted => depth += 1,
            '}' if !quoted => depth -= 1,
            _ => {}
        }
        prev = c;
    }
    depth
}

/// The top-level statements of a game's lines (indented by two), each a range of lines with the
/// comments above it.
fn statements(lines: &[String]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = &lines[i];
        if indent(l) != 2 || l.trim().is_empty() || l.trim_start().starts_with('}') {
            i += 1;
            continue;
        }
        let start = i;
        while i + 1 < lines.len() && lines[i].trim_start().starts_with("//") {
            i += 1;
        }
        let mut depth = braces(&lines[i]);
        i += 1;
        while i < lines.len() && (depth > 0 || indent(&lines[i]) > 2 && !lines[i].trim().is_empty()) {
            depth += braces(&lines[i]);
            i += 1;
        }
        out.push(start..i);
    }
    out
}

/// The statement's line itself, below its comments.
fn head(lines: &[String]) -> &str {
    lines.iter().map(|l| l.trim()).find(|l| !l.starts_with("//")).unwrap_or("")
}

/// What a statement replaces: `end`, `action mark`, `test "three in a row wins"`.
fn key(head: &str) -> String {
    let kw = head.split_whitespace().next().unwrap_or("");
    if kw == "test" {
        return head.splitn(3, '"').take(2).collect::<Vec<_>>().join("\"");
    }
    match head.split_whitespace().nth(1) {
        Some(w) if !ONE_OF.contains(&kw) && w.chars().all(|c| c.is_alphanumeric() || c == '_') => format!("{kw} {w}"),
        _ => kw.to_string(),
    }
}

fn rank(head: &str) -> usize {
    let kw = head.split_whitespace().next().unwrap_or("");
    ORDER
        .iter()
        .position(|k| *k == kw)
        .unwrap_or_else(|| panic!("a statement of a kind the tutorials' reader does not know: {head}"))
}

fn lines_of(text: &str) -> Vec<String> {
    text.lines().map(String::from).collect()
}

/// The file with the fragment's statements put in, as the reader would.
fn merge(file: &str, fragment: &str) -> String {
    let mut lines = lines_of(file);
    let frag = lines_of(fragment);
    for range in statements(&frag) {
        let new = frag[range].to_vec();
        let (k, r) = (key(head(&new)), rank(head(&new)));
        let now = statements(&lines);
        if let Some(at) = now.iter().find(|s| key(head(&lines[(*s).clone()])) == k) {
            lines.splice(at.clone(), new);
            continue;
        }
        let after = now.iter().rev().find(|s| rank(head(&lines[(*s).clone()])) <= r).map(|s| s.end);
        let after = after.unwrap_or_else(|| lines.iter().position(|l| l.starts_with("game ")).expect("a game") + 1);
        lines.splice(after..after, std::iter::once(String::new()).chain(new));
    }
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A statement (or a file) as compared: without comments, blank lines and trailing spaces.
fn plain(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| l.trim_end())
        .filter(|l| !l.is_empty() && !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A ```text or ```game block's kind, by its first line that is not a comment.
enum Kind {
    Game,
    Board(String),
    Statements,
    Other,
}

fn kind(block: &Block) -> Kind {
    let first = block.text.lines().find(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//")).unwrap_or("");
    if !matches!(block.info.as_str(), "game" | "board" | "text") {
        return Kind::Other;
    }
    if first.starts_with("game ") {
        Kind::Game
    } else if let Some(rest) = first.strip_prefix("board ") {
        Kind::Board(rest.trim_end_matches(['{', ' ']).to_string())
    } else if indent(first) == 2 && ORDER.contains(&first.split_whitespace().next().unwrap_or("")) {
        Kind::Statements
    } else {
        Kind::Other
    }
}

struct Tutorial {
    heading: &'static str,
    /// The reader's game file, from the top of the workspace.
    game: &'static str,
    /// Edits the prose asks for before a command, for that command only: the prose's words,
    /// the file, the text and what it becomes.
    edits: &'static [(&'static str, &'static str, &'static str, &'static str)],
    /// Statements that a later whole file may leave out, and the words that say it changed.
    changed: &'static [(&'static str, &'static str)],
}

/// Builds the tutorial's files from the text, runs its commands, and returns the files as the
/// last step leaves them.
fn run(t: &Tutorial) -> BTreeMap<String, String> {
    let doc = language_md();
    let (first, last) = section(&doc, t.heading);
    let section_words = words(&doc.lines().skip(first - 1).take(last - first).collect::<Vec<_>>().join("\n"));
    let slug: String = t.heading.trim_start_matches("## ").split(':').next().unwrap().replace(' ', "-").to_lowercase();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("docs").join(slug);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cases = trycmd::TestCases::new();
    cases.register_bin("gamec", Path::new(env!("CARGO_BIN_EXE_gamec")));
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    let mut commands = Vec::new();
    let mut edits_made = 0;
    let mut differences = Vec::new();
    for block in blocks(&doc).into_iter().filter(|b| (first..last).contains(&b.line)) {
        let at = format!("docs/language.md:{}", block.line);
        if block.info == "console" {
            panic!("{at}: a tutorial's commands run on its own files: write ```console,ignore");
        }
        if block.info == "console,ignore" {
            let mut now = files.clone();
            for (asks, file, from, to) in t.edits.iter().filter(|e| words(&block.prose).contains(e.0)) {
                let f = now.get_mut(*file).unwrap_or_else(|| panic!("{at}: {asks:?} edits {file}, not written yet"));
                assert!(f.contains(from), "{at}: {asks:?}, but {file} has no {from:?}");
                *f = f.replacen(from, to, 1);
                edits_made += 1;
            }
            let folder = dir.join(format!("L{}.in", block.line));
            for (path, text) in &now {
                let path = folder.join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            let case = dir.join(format!("L{}.md", block.line));
            let padding = "\n".repeat(block.line - 1);
            std::fs::write(&case, format!("{padding}```console\n{}```\n", block.text)).unwrap();
            cases.case(case);
            commands.push(block.text);
            continue;
        }
        match kind(&block) {
            Kind::Game => {
                if let Some(built) = files.get(t.game) {
                    differences.extend(left_out(built, &block.text, t.changed, &section_words, &at));
                }
                files.insert(t.game.to_string(), block.text);
            }
            Kind::Board(name) => {
                if let Ok(own) = std::fs::read_to_string(root().join(format!("boards/{name}.board"))) {
                    assert_eq!(
                        plain(&lines_of(&block.text)),
                        plain(&lines_of(&own)),
                        "{at}: the board shown is not boards/{name}.board, comments aside"
                    );
                }
                files.insert(format!("boards/{name}.board"), block.text);
            }
            Kind::Statements => {
                let built = files.get(t.game).unwrap_or_else(|| panic!("{at}: statements to add before the game"));
                let merged = merge(built, &block.text);
                files.insert(t.game.to_string(), merged);
            }
            Kind::Other => {}
        }
    }
    assert_eq!(edits_made, t.edits.len(), "every edit the tutorial lists is asked for by its prose, before a command");
    assert!(commands.iter().any(|c| c.contains("$ gamec check ")), "{}: no `gamec check` shown", t.heading);
    assert!(commands.iter().any(|c| c.contains("$ gamec build ")), "{}: no `gamec build` shown", t.heading);
    // The commands run even where a whole file and the steps before it differ: both are told.
    for d in &differences {
        eprintln!("{d}");
    }
    cases.run();
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    files
}

/// Prose with its line breaks and runs of spaces as single spaces, for finding a phrase in it.
fn words(prose: &str) -> String {
    prose.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The statements the steps wrote that the whole file shown next lacks, comments aside, unless
/// the section says they changed.
fn left_out(built: &str, shown: &str, changed: &[(&str, &str)], section: &str, at: &str) -> Vec<String> {
    let (built, shown) = (lines_of(built), lines_of(shown));
    let shown: Vec<String> = statements(&shown).into_iter().map(|s| plain(&shown[s])).collect();
    let mut out = Vec::new();
    for s in statements(&built) {
        let statement = plain(&built[s]);
        let said =
            changed.iter().any(|(start, words)| statement.trim_start().starts_with(start) && section.contains(words));
        if !said && !shown.contains(&statement) {
            out.push(format!("{at}: the whole file shown here lacks\n{statement}\nwhich the steps before it wrote"));
        }
    }
    out
}

const TIC_TAC_TOE: Tutorial = Tutorial {
    heading: "## Tutorial 1: ",
    game: "tictactoe.game",
    edits: &[
        (
            "change the second test's `expect draw` to `expect cross wins`",
            "tictactoe.game",
            "expect draw",
            "expect cross wins",
        ),
        ("write `expect device plays C1`", "tictactoe.game", "expect device plays C2", "expect device plays C1"),
    ],
    changed: &[("strategy nought", "the strategy names `device` instead of `nought`")],
};

#[test]
fn tutorial_1_builds_tic_tac_toe_from_the_text_and_every_command_prints_what_it_shows() {
    let files = run(&TIC_TAC_TOE);
    let shipped = std::fs::read_to_string(root().join("games/tictactoe.game")).unwrap();
    assert_eq!(
        plain(&lines_of(&files["tictactoe.game"])),
        plain(&lines_of(&shipped)),
        "the tutorial's finished file is games/tictactoe.game, comments aside"
    );
}

#[test]
fn tutorial_2_builds_three_coins_from_the_text_and_every_command_prints_what_it_shows() {
    run(&Tutorial {
        heading: "## Tutorial 2: ",
        game: "games/three_coins.game",
        edits: &[("Put the speaker on PA4", "boards/three_coins_attiny84.board", "speaker = PA5", "speaker = PA4")],
        changed: &[],
    });
}

#[test]
fn tutorial_3_builds_breakthrough_from_the_text_and_every_command_prints_what_it_shows() {
    run(&Tutorial { heading: "## Tutorial 3: ", game: "breakthrough.game", edits: &[], changed: &[] });
}

/// trycmd's run over the whole document skips ```console,ignore blocks: each is a tutorial's,
/// run above.
#[test]
fn every_console_block_left_to_this_file_is_in_a_tutorial() {
    let doc = language_md();
    let tutorials: Vec<(usize, usize)> =
        ["## Tutorial 1: ", "## Tutorial 2: ", "## Tutorial 3: "].iter().map(|h| section(&doc, h)).collect();
    for b in blocks(&doc).iter().filter(|b| b.info.starts_with("console") && b.info != "console") {
        assert!(
            b.info == "console,ignore" && tutorials.iter().any(|(first, last)| (*first..*last).contains(&b.line)),
            "docs/language.md:{}: ```{} outside the tutorials is run by nobody",
            b.line,
            b.info
        );
    }
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        blocks(&readme).iter().all(|b| !b.info.starts_with("console") || b.info == "console"),
        "README.md's console blocks run from the top of the workspace: ```console"
    );
}

#[test]
fn the_reader_s_additions_go_where_the_text_puts_them() {
    let file = "game g {\n  players a, b\n  board grid 3 x 3\n\n  end {\n    full -> draw\n  }\n\n  test \"t\" {\n    expect draw\n  }\n}\n";
    let merged = merge(file, "  action put = place mark on empty\n  end {\n    line of 3 -> mover wins\n  }\n");
    assert_eq!(
        merged,
        "game g {\n  players a, b\n  board grid 3 x 3\n\n  action put = place mark on empty\n\n  end {\n    line of 3 -> mover wins\n  }\n\n  test \"t\" {\n    expect draw\n  }\n}\n"
    );
    let merged = merge(&merged, "  // a comment\n  strategy b = perfect\n");
    assert!(merged.contains("  }\n\n  // a comment\n  strategy b = perfect\n\n  test"), "{merged}");
}

//! `gamec lsp` as an editor meets it: the built binary spawned, framed JSON-RPC written to its
//! standard input and read from its standard output, every read bounded in time so that a
//! hang fails the test instead of blocking it.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// The longest any answer may take (the server checks the game, lints and all, in far less).
const PATIENCE: Duration = Duration::from_secs(60);

/// A game of heaps, correct: the text the mistakes are put into.
const GAME: &str = r#"// Heaps of counters: a player takes one or more counters from one heap; whoever takes the
// last counter wins. A heap holds at most 31 counters (E0005).
game heaps_demo {
  players human, device
  first human

  board heaps 3
  pieces counter
  setup fixed { heaps 3, 4, 5 }

  action take = remove 1.. from heap

  end { no moves -> mover wins }

  strategy device = perfect, ties random

  controls {
    move[i] -> extend take(heap[i])
    go -> commit
  }

  feedback {
    show cells = occupied
    on denied -> tune beep
    on win human -> tune celebrate
  }

  tune beep { A4/150 }
  tune celebrate { E5/120 G5/120 C6/120 }

  test "taking the last counter wins" {
    from { heaps 0, 0, 2 }
    moves 3:2
    expect human wins
  }
}
"#;

/// [`GAME`] with three mistakes: an unknown player, a heap too big, a tune given twice.
fn broken_game() -> String {
    let text = GAME
        .replace("first human", "first humane")
        .replace("heaps 3, 4, 5 }", "heaps 3, 4, 50 }")
        .replace("tune celebrate {", "tune beep {")
        .replace("tune celebrate\n", "tune beep\n");
    assert_eq!(text.matches("tune beep {").count(), 2, "the mistakes are made");
    text
}

/// A board for [`GAME`], its buttons for `move[1..3]` and `go`, and a fifth for `jump`, a
/// control the game does not have.
const BOARD: &str = "board bench {
  chip attiny84a
  clock 8 MHz internal
  display cells = charlieplex PA0 PA1 PA2 PA3, refresh 1000 Hz, timer0 {
    1 = PA1 > PA3
    2 = PA0 > PA3
    3 = PA2 > PA3
    4 = PA3 > PA2
    5 = PA0 > PA2
    6 = PA1 > PA2
    7 = PA2 > PA1
    8 = PA3 > PA1
    9 = PA0 > PA1
    10 = PA1 > PA0
    11 = PA2 > PA0
    12 = PA3 > PA0
  }
  button move[1] = PB0 pullup
  button move[2] = PB1 pullup
  button move[3] = PB2 pullup
  button go = PA6 pullup
  button jump = PA7 pullup
  speaker = PA5, timer1
}
";

/// The server, and what it has said that the test has not read yet.
struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    unread: Vec<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamec"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("gamec lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, messages) = channel();
        // A thread reads the frames, so that the test can wait for one with a timeout.
        std::thread::spawn(move || {
            while let Some(message) = read_frame(&mut stdout) {
                if send.send(message).is_err() {
                    return;
                }
            }
        });
        Client { child, stdin, messages, unread: Vec::new(), next_id: 1 }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its answer's result, keeping what comes before it.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let answer = self.wait(|m| m["id"] == id);
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// The first message, read or not yet, that `wanted` takes; the others stay unread.
    fn wait(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.unread.iter().position(&wanted) {
            return self.unread.remove(i);
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self.messages.recv_timeout(left).expect("the server answers in time");
            if wanted(&message) {
                return message;
            }
            self.unread.push(message);
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let n = self.wait(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri);
        n["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    fn at(&mut self, method: &str, uri: &str, (line, character): (usize, usize)) -> Value {
        let params = json!({
            "textDocument": {"uri": uri},
            "position": {"line": line, "character": character},
            "context": {"includeDeclaration": true},
        });
        self.request(method, params)
    }

    fn open(&mut self, uri: &str, text: &str) {
        let doc = json!({"uri": uri, "languageId": "gamec", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // A test that failed leaves no server behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One message: `Content-Length` headers, a blank line, the JSON body.
fn read_frame(r: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// A line and a column, both from 0.
type Place = (usize, usize);

/// The line and column (from 0; the texts here are ASCII, so bytes are UTF-16 units) of the
/// `nth` occurrence of `needle` in `text`, plus `skip` bytes.
fn place(text: &str, needle: &str, nth: usize, skip: usize) -> Place {
    let at = text.match_indices(needle).nth(nth).unwrap_or_else(|| panic!("`{needle}` in the text")).0 + skip;
    let line = text[..at].matches('\n').count();
    (line, at - text[..at].rfind('\n').map_or(0, |i| i + 1))
}

fn start_of(range: &Value) -> Place {
    (range["start"]["line"].as_u64().unwrap() as usize, range["start"]["character"].as_u64().unwrap() as usize)
}

/// A workspace folder of its own for a test's files, removed when the test ends.
struct Workspace(std::path::PathBuf);

impl std::ops::Deref for Workspace {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn workspace(name: &str) -> Workspace {
    let dir = std::env::temp_dir().join(format!("gamec-lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("games")).unwrap();
    Workspace(dir)
}

fn initialize(client: &mut Client, root: &std::path::Path) -> Value {
    let root = format!("file://{}", root.display());
    let result = client.request("initialize", json!({"processId": null, "rootUri": root, "capabilities": {}}));
    client.notify("initialized", json!({}));
    result
}

#[test]
fn a_file_s_three_mistakes_are_published_where_they_are_and_cleared_when_fixed() {
    let root = workspace("diagnostics");
    let mut client = Client::start();
    let capabilities = initialize(&mut client, &root)["capabilities"].clone();
    assert_eq!(capabilities["hoverProvider"], true, "{capabilities}");
    let uri = format!("file://{}/games/heaps_demo.game", root.display());
    let text = broken_game();
    client.open(&uri, &text);
    let mut found: Vec<(String, Place, Place)> = client
        .diagnostics(&uri)
        .iter()
        .map(|d| {
            let end = &d["range"]["end"];
            let end = (end["line"].as_u64().unwrap() as usize, end["character"].as_u64().unwrap() as usize);
            (d["code"].as_str().unwrap().to_string(), start_of(&d["range"]), end)
        })
        .collect();
    found.sort();
    let (player, heap, tune) = (place(&text, "humane", 0, 0), place(&text, "50 }", 0, 0), place(&text, "beep {", 1, 0));
    assert_eq!(
        found,
        [
            ("E0002".to_string(), tune, (tune.0, tune.1 + 4)),
            ("E0004".to_string(), player, (player.0, player.1 + 6)),
            ("E0005".to_string(), heap, (heap.0, heap.1 + 2)),
        ]
    );
    let params = json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": GAME}]});
    client.notify("textDocument/didChange", params);
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new(), "the correct text has none");
}

#[test]
fn a_diagnostic_carries_its_help_and_its_other_labels() {
    let root = workspace("related");
    let mut client = Client::start();
    initialize(&mut client, &root);
    let uri = format!("file://{}/games/heaps_demo.game", root.display());
    let text = broken_game();
    client.open(&uri, &text);
    let diagnostics = client.diagnostics(&uri);
    let twice = diagnostics.iter().find(|d| d["code"] == "E0002").expect("E0002");
    assert_eq!(twice["severity"], 1, "an error");
    assert!(twice["message"].as_str().unwrap().contains("help: keep one"), "{twice}");
    let related = &twice["relatedInformation"][0];
    assert_eq!(start_of(&related["location"]["range"]), place(&text, "beep {", 0, 0), "{twice}");
    assert_eq!(related["location"]["uri"], uri.as_str());
}

#[test]
fn a_game_and_a_board_open_together_are_checked_as_a_pair() {
    let root = workspace("pair");
    let mut client = Client::start();
    initialize(&mut client, &root);
    let (game, board) = (
        format!("file://{}/games/heaps_demo.game", root.display()),
        format!("file://{}/boards/bench.board", root.display()),
    );
    client.open(&board, BOARD);
    // Alone, a board cannot know which controls a game has.
    assert_eq!(client.diagnostics(&board), Vec::<Value>::new());
    client.open(&game, GAME);
    let on_board = client.diagnostics(&board);
    let codes: Vec<&str> = on_board.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["E0106"], "{on_board:?}");
    assert_eq!(start_of(&on_board[0]["range"]).0, place(BOARD, "button jump", 0, 0).0);
    assert_eq!(client.diagnostics(&game), Vec::<Value>::new(), "the game itself is fine");
}

#[test]
fn hover_explains_keywords_codes_and_names() {
    let root = workspace("hover");
    let mut client = Client::start();
    initialize(&mut client, &root);
    let uri = format!("file://{}/games/heaps_demo.game", root.display());
    client.open(&uri, GAME);
    let reference = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/language.md")).unwrap();
    let text = |hover: Value| hover["contents"]["value"].as_str().unwrap_or_default().to_string();

    let keyword = text(client.at("textDocument/hover", &uri, place(GAME, "action take", 0, 2)));
    let phrase = "An action is a move primitive with its parameters";
    assert!(reference.contains(phrase), "the reference says it");
    assert!(keyword.contains(phrase), "{keyword}");

    let code = text(client.at("textDocument/hover", &uri, place(GAME, "E0005", 0, 1)));
    let explained = Command::new(env!("CARGO_BIN_EXE_gamec")).args(["explain", "E0005"]).output().unwrap();
    let meaning = String::from_utf8(explained.stdout).unwrap();
    let meaning = meaning.lines().next().unwrap().trim_start_matches("E0005: ");
    assert!(code.contains(meaning), "{code}");

    let name = text(client.at("textDocument/hover", &uri, place(GAME, "extend take", 0, 8)));
    let declared = place(GAME, "action take", 0, 0).0 + 1;
    assert!(name.contains("an action") && name.contains(&format!("line {declared}")), "{name}");
}

#[test]
fn a_name_leads_to_its_declaration_and_its_uses() {
    let root = workspace("names");
    let mut client = Client::start();
    initialize(&mut client, &root);
    let uri = format!("file://{}/games/heaps_demo.game", root.display());
    client.open(&uri, GAME);
    let definition = client.at("textDocument/definition", &uri, place(GAME, "extend take", 0, 8));
    let targets = definition.as_array().expect("locations");
    assert_eq!(targets.len(), 1, "{definition}");
    assert_eq!(start_of(&targets[0]["range"]), place(GAME, "take =", 0, 0));

    let references = client.at("textDocument/references", &uri, place(GAME, "on win human", 0, 7));
    let mut lines: Vec<usize> = references.as_array().unwrap().iter().map(|l| start_of(&l["range"]).0).collect();
    lines.sort();
    let expected: Vec<usize> = ["players human", "first human", "on win human", "expect human"]
        .iter()
        .map(|needle| place(GAME, needle, 0, 0).0)
        .collect();
    assert_eq!(lines, expected, "{references}");
}

#[test]
fn completion_offers_what_the_parser_takes_there_and_the_file_s_names() {
    let root = workspace("completion");
    let mut client = Client::start();
    initialize(&mut client, &root);
    let uri = format!("file://{}/games/heaps_demo.game", root.display());
    client.open(&uri, GAME);
    let items = client.at("textDocument/completion", &uri, place(GAME, "-> mover wins", 0, 3));
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    for wanted in ["mover", "next", "draw", "human", "device"] {
        assert!(labels.contains(&wanted), "{wanted} in {labels:?}");
    }
    for unwanted in ["players", "action", "chip"] {
        assert!(!labels.contains(&unwanted), "{unwanted} is no result: {labels:?}");
    }
}

#[test]
fn the_last_build_s_size_is_hinted_at_the_game_line() {
    let root = workspace("sizes");
    let elf = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/src/stack_depth/testdata/pointers.elf")).unwrap();
    std::fs::create_dir_all(root.join("build")).unwrap();
    std::fs::write(root.join("build/heaps_demo-bench.elf"), &elf).unwrap();
    let sizes = gamec::driver::sizes(&elf).unwrap();
    let mut client = Client::start();
    initialize(&mut client, &root);
    let uri = format!("file://{}/games/heaps_demo.game", root.display());
    client.open(&uri, GAME);
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}});
    let hints = client.request("textDocument/inlayHint", json!({"textDocument": {"uri": uri}, "range": range}));
    let hint = &hints.as_array().expect("hints")[0];
    assert_eq!(hint["position"]["line"].as_u64().unwrap() as usize, place(GAME, "game heaps_demo", 0, 0).0);
    let label = hint["label"].as_str().unwrap();
    let (flash, ram) = (gamec_dsl::thousands(sizes.flash().into()), gamec_dsl::thousands(sizes.ram().into()));
    let expected = format!("bench: flash {flash} B, RAM {ram} B");
    assert!(label.contains(&expected), "{label} / {expected}");
}

/// The server's exit code once it has been told `exit`.
fn exit_code(client: &mut Client) -> Option<i32> {
    client.notify("exit", Value::Null);
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = client.child.try_wait().unwrap() {
            return status.code();
        }
        assert!(Instant::now() < deadline, "the server ends after `exit`");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn shutdown_and_exit_end_the_server_with_success() {
    let root = workspace("exit");
    let mut client = Client::start();
    initialize(&mut client, &root);
    client.open(&format!("file://{}/games/x.game", root.display()), "game {{{ \u{e9}\"");
    assert_eq!(client.request("shutdown", Value::Null), Value::Null);
    assert_eq!(exit_code(&mut client), Some(0));
}

#[test]
fn an_exit_without_shutdown_ends_the_server_with_an_error() {
    let root = workspace("abrupt");
    let mut client = Client::start();
    initialize(&mut client, &root);
    assert_eq!(exit_code(&mut client), Some(1));
}

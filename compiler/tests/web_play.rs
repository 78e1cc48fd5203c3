//! `gamec play --web` in a browser: gamec serves the page, Debian's Chromium opens it, driven
//! by puppeteer-core from compiler/tests/web/drive.mjs, and each test plays a game as a person
//! would, by clicking the board's buttons, turning its encoders and typing on its console,
//! and checks what the page shows against the compiler's reading of the rules, as the simavr
//! tests do: Silver Dollar's deal and every device reply on the ATtiny84A, its deal and first
//! replies on the ATtiny24A, its sleep after 30 idle seconds and GO's wake on the ATtiny84A
//! (a pin change) and the ATmega128 (INT0), a whole Othello game over the console, a Binario tableau solved
//! to its victory flash on the ATmega128, and its first tableau on the ATmega64 (the page's own
//! register map: simavr runs that image as an ATmega128); a save of the game that breaks it and one that mends it;
//! and every AVR board in boards/, listed as the test runs, opened in one browser and seen to
//! run and answer a player as its interface lets one play, judged from its game file and the
//! engine. The server stops when its input closes or its parent dies. The page's AVR
//! glue is also run in Node alone, on programs of a few instructions
//! (compiler/tests/web/machine.test.mjs).
//!
//! Node, Chromium and the driver's packages come from `cargo xtask setup`; without them
//! these tests fail and say so. Each test's Chromium dies with the test, passed or failed
//! (`Driver`'s drop, drive.mjs's own exit): one test checks that.

use gamec::engine::puzzle::Puzzle;
use gamec::engine::{Engine, State, STRIDE};
use gamec::grid_rules::{GridRules, Ply, Position};
use gamec::rules::{Move, Pos, Rules};
use gamec::solve::Solution;
use gamec_dsl::content;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What the driver needs, or a panic that says how to get it.
fn prerequisites() -> PathBuf {
    let setup = "`cargo xtask setup` installs Chromium, Node and npm and runs `npm ci` in compiler/tests/web";
    let node = Command::new("node").arg("--version").output();
    assert!(
        node.is_ok_and(|o| o.status.success()),
        "these tests drive Chromium from Node, and `node` does not run: {setup}"
    );
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    assert!(Path::new(&chromium).exists(), "these tests need Chromium at {chromium}: {setup}");
    let driver = root().join("compiler/tests/web");
    assert!(driver.join("node_modules/puppeteer-core").exists(), "puppeteer-core is not installed: {setup}");
    driver
}

/// `gamec play --web`, in its own process group: killed with the group on drop, so that a
/// build it started (cargo, rustc) goes with it. Its standard input is a pipe the test holds:
/// should the test be killed outright, the pipe closes, and the server stops (as it does when
/// its parent dies).
struct Server(Child);

impl Server {
    /// Serves `game` on `board`, built into `out`, on any free port; the page's URL.
    fn start(game: &str, board: &str, out: &Path) -> (Server, String) {
        let mut gamec = Command::new(env!("CARGO_BIN_EXE_gamec"))
            .args(["play", game, "--board", board, "--web", "--port", "0", "-o"])
            .arg(out)
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("gamec runs");
        let stdout = gamec.stdout.take().unwrap();
        let server = Server(gamec);
        let mut first = String::new();
        BufReader::new(stdout).read_line(&mut first).unwrap();
        let at = first.find("http://").unwrap_or_else(|| panic!("gamec printed no URL: {first:?}"));
        (server, first[at..].split_whitespace().next().unwrap().to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        kill_group(self.0.id());
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// drive.mjs and the Chromium it launched. On drop, whether the test passed, failed or
/// panicked: stdin closed, on which the script closes the browser and exits; SIGTERM if it
/// has not within seconds (it is stuck in a command), on which it kills the browser and
/// exits; then Node killed regardless, and Chromium's process group with it. An orphaned
/// Chromium would hold a core of the CI's two until the job ends.
struct Driver {
    node: Child,
    /// Chromium's pid, the leader of its process group, as the script announced it.
    browser: Option<u32>,
    to: Option<ChildStdin>,
    /// The script's answers, a line each, read on a thread so that a silent driver times out.
    from: Receiver<String>,
}

/// How long the test waits for any one answer: longer than drive.mjs's own timeout of a
/// command (two minutes), so that the script's error, saying which command, comes first.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(180);

fn kill_group(leader: u32) {
    let _ = Command::new("kill").args(["-KILL", "--", &format!("-{leader}")]).stderr(Stdio::null()).status();
}

impl Driver {
    fn start(dir: &Path, url: &str) -> Driver {
        let mut node = Command::new("node")
            .arg(dir.join("drive.mjs"))
            .arg(url)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node runs");
        let to = node.stdin.take();
        let out = BufReader::new(node.stdout.take().unwrap());
        let (send, from) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in out.lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut driver = Driver { node, browser: None, to, from };
        let hello: Value = serde_json::from_str(&driver.answer("the browser's start")).unwrap();
        driver.browser = hello["browser"].as_u64().map(|pid| pid as u32);
        driver
    }

    fn exits_within(&mut self, time: Duration) -> bool {
        let until = Instant::now() + time;
        loop {
            match self.node.try_wait() {
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(50)),
                Ok(None) => return false,
                _ => return true,
            }
        }
    }

    /// The script's next line; a panic if it has ended or stays silent.
    fn answer(&mut self, to: &str) -> String {
        match self.from.recv_timeout(ANSWER_TIMEOUT) {
            Ok(line) => line,
            Err(e) => panic!("the driver gave no answer to {to} ({e}): see its errors above"),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // End of input: the script closes the browser once its command in hand is done.
        self.to = None;
        if !self.exits_within(Duration::from_secs(5)) {
            let _ = Command::new("kill").args(["-TERM", &self.node.id().to_string()]).status();
            self.exits_within(Duration::from_secs(3));
        }
        let _ = self.node.kill();
        let _ = self.node.wait();
        if let Some(pid) = self.browser {
            kill_group(pid);
        }
    }
}

/// The page of a game on a board, served by `gamec play --web` and open in Chromium. The
/// driver is dropped before the server: the browser closes on a page still served.
struct Page {
    driver: Driver,
    _server: Server,
}

impl Page {
    /// Serves `game` on `board`, built into target/gamec-web-tests/`out` (a folder a test:
    /// tests run at once), opens the page at `pace` (`max`, or times the wall clock) and waits
    /// for the firmware to run.
    fn open(out: &str, game: &str, board: &str, pace: &str) -> Page {
        let driver_dir = prerequisites();
        let (server, url) = Server::start(game, board, &root().join("target/gamec-web-tests").join(out));
        let driver = Driver::start(&driver_dir, &format!("{url}?pace={pace}"));
        let mut page = Page { driver, _server: server };
        page.until_running();
        page
    }

    /// The same for another board in the browser `driver` already runs.
    fn open_in(driver: Driver, out: &Path, game: &str, board: &str, pace: &str) -> Page {
        let (server, url) = Server::start(game, board, out);
        let mut page = Page { driver, _server: server };
        page.cmd(json!({ "cmd": "goto", "url": format!("{url}?pace={pace}") }));
        page.until_running();
        page
    }

    /// The browser, for the next board's page; this page's server stops.
    fn close(self) -> Driver {
        let Page { driver, _server } = self;
        driver
    }

    fn cmd(&mut self, c: Value) -> Value {
        let to = self.driver.to.as_mut().unwrap();
        writeln!(to, "{c}").expect("the driver takes commands");
        let line = self.driver.answer(&c.to_string());
        let answer: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?} for {c}"));
        if let Some(e) = answer.get("error") {
            panic!("{c}: {}", e.as_str().unwrap_or_default());
        }
        answer["value"].clone()
    }

    /// Waits out the first build (a chip's first takes a minute), failing on its diagnostics.
    fn until_running(&mut self) {
        let started = Instant::now();
        loop {
            let s = self.read("status");
            match s["state"].as_str() {
                Some("running") => return,
                Some("failed") => panic!("the page shows a failed build:\n{}", s["diagnostics"].as_str().unwrap_or("")),
                _ if started.elapsed() > Duration::from_secs(900) => panic!("no firmware ran after 15 minutes"),
                _ => std::thread::sleep(Duration::from_millis(300)),
            }
        }
    }

    /// Waits for the page's status to say `state` (after a save: `failed`, or `running` the
    /// new build), and returns it with the diagnostics shown.
    fn until_state(&mut self, state: &str) -> Value {
        let started = Instant::now();
        loop {
            let s = self.read("status");
            if s["state"] == state {
                return s;
            }
            assert!(started.elapsed() < Duration::from_secs(300), "the page never says {state}: {s}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn read(&mut self, what: &str) -> Value {
        self.cmd(json!({ "cmd": "read", "what": what }))
    }

    /// Lets `ms` of the page's simulated time pass.
    fn wait(&mut self, ms: u32) {
        self.cmd(json!({ "cmd": "wait", "ms": ms }));
    }

    fn click_pin(&mut self, pin: gamec_dsl::Pin) {
        self.cmd(json!({ "cmd": "click", "selector": format!("[data-panel=\"buttons\"] [data-pin=\"{pin}\"]") }));
    }

    fn key(&mut self, key: &str) {
        self.cmd(json!({ "cmd": "key", "key": key }));
    }

    /// Stops the page's time (`true`), or lets it run: what is clicked or typed meanwhile
    /// waits, so that a `watch` after it starts with it at any pace.
    fn pause(&mut self, stop: bool) {
        self.cmd(json!({ "cmd": "pause", "stop": stop }));
    }

    /// The distinct values a read showed over the next `ms` of simulated time, window by
    /// window, the page's time running.
    fn watch(&mut self, what: &str, ms: u32) -> Vec<Value> {
        self.cmd(json!({ "cmd": "watch", "what": what, "ms": ms })).as_array().unwrap().clone()
    }

    /// As `watch`, the page's time then stopped where the watch ends (within 10 ms): at
    /// pace max a command's round trip would otherwise let seconds pass.
    fn watch_then_stop(&mut self, what: &str, ms: u32) -> Vec<Value> {
        self.cmd(json!({ "cmd": "watch", "what": what, "ms": ms, "stop": true })).as_array().unwrap().clone()
    }
}

/// The game and board's bound target, as the page's server binds them.
fn target(game: &str, board: &str) -> gamec::bind::Target {
    let (_, _, target, _) =
        gamec::driver::load_pair(&mut gamec_dsl::Sources::new(), &root().join(game), &root().join(board)).unwrap();
    target
}

fn load(game: &str) -> gamec_dsl::GameDef {
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(game.to_string(), std::fs::read_to_string(root().join(game)).unwrap());
    gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
}

fn near(hz: f64, want: f64) -> bool {
    (hz / want - 1.0).abs() < 0.03
}

// ---- The page's AVR without a browser.

/// The one-instruction interrupt delay machine.js adds to avr8js (after `sei`, an SREG write
/// that sets I, `reti`), on programs that take an interrupt in that window every time (a
/// whole Othello game passes without the delay: its window is hit only by chance). Node's
/// test runner runs compiler/tests/web/machine.test.mjs; no Chromium.
#[test]
fn the_page_avr_takes_an_interrupt_one_instruction_after_enabling_them() {
    let node = Command::new("node")
        .args(["--test", "machine.test.mjs"])
        .current_dir(root().join("compiler/tests/web"))
        .output()
        .expect("node runs: `cargo xtask setup` installs it");
    let out = String::from_utf8_lossy(&node.stdout);
    assert!(node.status.success(), "{out}{}", String::from_utf8_lossy(&node.stderr));
    assert!(out.contains("# pass 3"), "{out}");
}

// ---- Silver Dollar on its ATtiny84A: the LEDs, six buttons and the piezo.

const SILVER_DOLLAR: &str = "games/silver_dollar.game";
const SILVER_DOLLAR_BOARD: &str = "boards/silver_dollar_attiny84.board";

/// The dollars the page's LEDs show: bit i for LED i + 1, as the simavr tests read them.
fn shown_pos(page: &mut Page) -> Pos {
    page.read("leds").as_array().unwrap().iter().fold(0, |p, n| p | 1 << (n.as_u64().unwrap() - 1))
}

/// Deals with GO and reads the deal off the LEDs, checked as the simavr tests check it.
fn silver_dollar_deal(page: &mut Page, solution: &Solution, go: gamec_dsl::Pin) -> Pos {
    page.wait(300);
    page.click_pin(go);
    page.wait(400);
    let pos = shown_pos(page);
    assert_eq!(pos.count_ones(), 5, "five dollars dealt: {pos:012b}");
    assert!(pos >> 10 != 0, "the leftmost dollar on cell 11 or 12: {pos:012b}");
    assert!(solution.mover_wins(pos), "the player can win the deal {pos:012b}");
    pos
}

/// Plays Silver Dollar on `board` from the deal, the winning move each turn, checking each
/// device reply; the whole game to the celebrate tune, or `replies` replies.
fn silver_dollar_game(board: &str, replies: Option<usize>) {
    let rules = Rules::new(&load(SILVER_DOLLAR)).unwrap();
    let solution = Solution::solve(&rules);
    let t = target(SILVER_DOLLAR, board);
    let go = t.inputs[t.commit as usize];
    let out = Path::new(board).file_stem().unwrap().to_str().unwrap();
    let mut page = Page::open(out, SILVER_DOLLAR, board, "max");
    let mut pos = silver_dollar_deal(&mut page, &solution, go);
    for _ in 0..replies.unwrap_or(usize::MAX) {
        // The winning move, entered with the dollar's button (counted from the left) once a cell.
        let m: Move = *rules.moves(pos).iter().find(|&&m| !solution.mover_wins(Rules::apply(pos, m))).unwrap();
        let piece = (pos >> (m.from + 1)).count_ones() as usize;
        for _ in 0..(m.from - m.to) {
            page.click_pin(t.inputs[piece]);
            page.wait(120);
        }
        let mine = Rules::apply(pos, m);
        assert_eq!(shown_pos(&mut page), mine, "the LEDs show the entered move before GO");
        let won = rules.moves(mine).is_empty();
        if won {
            // The tune heard from GO's press on.
            page.pause(true);
        }
        page.click_pin(go);
        if won {
            // The device cannot move: the player won, and the celebrate tune plays.
            let heard: Vec<f64> = page.watch("speaker", 1500).iter().filter_map(|v| v.as_str()?.parse().ok()).collect();
            assert!(heard.iter().any(|&hz| near(hz, 523.25) || near(hz, 1046.5)), "the celebrate tune: {heard:?}");
            return;
        }
        page.wait(150);
        let answer = shown_pos(&mut page);
        let legal: Vec<Pos> = rules.moves(mine).iter().map(|&m| Rules::apply(mine, m)).collect();
        assert!(legal.contains(&answer), "the device went from {mine:012b} to {answer:012b}, no legal move");
        assert!(!solution.mover_wins(answer) || !solution.mover_wins(mine), "the device missed a win");
        pos = answer;
    }
}

#[test]
fn silver_dollar_deal_and_every_device_reply_on_the_page() {
    silver_dollar_game(SILVER_DOLLAR_BOARD, None);
}

/// The ATtiny24A's map (the ATtiny84A's registers, 128 B of RAM and 2 KB of flash): the
/// deal and the device's first two replies.
#[test]
fn silver_dollar_on_the_attiny24a_deals_and_replies_on_the_page() {
    silver_dollar_game("boards/silver_dollar_attiny24a.board", Some(2));
}

/// The page's `sleep`: idle for 30 s after the deal the chip sleeps, the display dark; GO
/// wakes it (a pin change on the ATtiny84A, INT0 on the ATmega128), the deal shown again, and
/// a second GO, with no move entered, beeps. As silver_dollar_device.rs's idle test checks;
/// the page stopped at 29 s and 31 s after the deal to look, as at pace max a round trip
/// of the driver's lets seconds pass, and asleep, minutes.
fn silver_dollar_sleeps_and_go_wakes(board: &str) {
    let t = target(SILVER_DOLLAR, board);
    let go = t.inputs[t.commit as usize];
    let out = format!("sleep_{}", Path::new(board).file_stem().unwrap().to_str().unwrap());
    let mut page = Page::open(&out, SILVER_DOLLAR, board, "max");
    page.wait(300);
    page.pause(true);
    page.click_pin(go);
    assert_eq!(page.watch_then_stop("asleep", 29_000), [json!(false)], "awake for 29 s from the deal");
    let dealt = shown_pos(&mut page);
    assert_eq!(dealt.count_ones(), 5, "five dollars dealt: {dealt:012b}");
    assert!(page.watch_then_stop("asleep", 2_000).contains(&json!(true)), "asleep by 31 s");
    assert_eq!(page.read("asleep"), json!(true));
    assert_eq!(shown_pos(&mut page), 0, "the display is dark in sleep");
    page.click_pin(go);
    page.wait(200);
    assert_eq!(page.read("asleep"), json!(false), "GO wakes the chip");
    assert_eq!(shown_pos(&mut page), dealt, "awake again, showing the game as it was");
    page.pause(true);
    page.click_pin(go);
    let heard: Vec<f64> = page.watch("speaker", 300).iter().filter_map(|v| v.as_str()?.parse().ok()).collect();
    assert!(heard.iter().any(|&hz| near(hz, 440.0)), "GO with no move beeps after waking: {heard:?}");
}

#[test]
fn silver_dollar_sleeps_and_go_wakes_on_the_attiny84a_page() {
    silver_dollar_sleeps_and_go_wakes(SILVER_DOLLAR_BOARD);
}

#[test]
fn silver_dollar_sleeps_and_go_wakes_on_the_atmega128_page() {
    silver_dollar_sleeps_and_go_wakes("boards/silver_dollar_atmega128.board");
}

/// The page's side of a rebuild: a save that breaks the game shows its diagnostics while the
/// last good firmware runs on; the save that mends it boots the new build from reset.
#[test]
fn a_save_shows_the_diagnostics_or_boots_the_new_build() {
    let dir = root().join("target/gamec-web-tests/reload-game");
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("silver_dollar.game");
    let text = std::fs::read_to_string(root().join(SILVER_DOLLAR)).unwrap();
    std::fs::write(&game, &text).unwrap();
    let rules = Rules::new(&load(SILVER_DOLLAR)).unwrap();
    let solution = Solution::solve(&rules);
    let t = target(SILVER_DOLLAR, SILVER_DOLLAR_BOARD);
    let go = t.inputs[t.commit as usize];
    // At the wall clock's pace: at pace max the seconds between two commands can pass the
    // firmware's 30 s of idling, and a GO that wakes it does not deal.
    let mut page = Page::open("reload", game.to_str().unwrap(), SILVER_DOLLAR_BOARD, "1");
    let dealt = silver_dollar_deal(&mut page, &solution, go);

    std::fs::write(&game, format!("{text}\nnot a statement\n")).unwrap();
    let failed = page.until_state("failed");
    let diagnostics = failed["diagnostics"].as_str().unwrap_or_default();
    assert!(diagnostics.contains("silver_dollar.game:") && diagnostics.contains("error"), "{diagnostics}");
    let before = page.read("clock").as_f64().unwrap();
    page.wait(500);
    assert_eq!(shown_pos(&mut page), dealt, "the last good firmware runs on, its deal shown");

    std::fs::write(&game, &text).unwrap();
    page.until_state("running");
    let now = page.read("clock").as_f64().unwrap();
    assert!(now < before, "the new build from reset: {now} ms, the last one had run {before} ms");
    page.wait(300);
    // The sweep lights one LED, two in a drawn window that holds one of its steps; the old
    // firmware would still show its deal of five.
    let swept = shown_pos(&mut page);
    assert!(swept.count_ones() <= 2, "the new firmware sweeps one LED until GO: {swept:012b}");
    let dealt = silver_dollar_deal(&mut page, &solution, go);
    assert_eq!(dealt.count_ones(), 5);
}

/// Whether any live process is in process group `group` (a zombie runs nothing).
fn group_alive(group: u32) -> bool {
    let Ok(dir) = std::fs::read_dir("/proc") else { return false };
    dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("stat")).ok()).any(|stat| {
        // After the command's parenthesised name: state, ppid, pgrp.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap_or(0) + 1..].split_whitespace().collect();
        fields.len() > 2 && fields[0] != "Z" && fields[2] == group.to_string()
    })
}

/// Whether process `pid` runs (a zombie runs nothing).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat[stat.rfind(')').unwrap_or(0) + 1..].split_whitespace().next() != Some("Z"))
}

/// Waits up to `secs` for process `pid` to end; whether it did.
fn ends_within(pid: u32, secs: u64) -> bool {
    let until = Instant::now() + Duration::from_secs(secs);
    while alive(pid) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
    }
    !alive(pid)
}

/// A server whose test is killed outright stops with it: `gamec play --web` ends once the pipe
/// on its standard input closes, and once its parent has gone (here a shell that started it
/// and exited). The game does not exist, so no build runs meanwhile.
#[test]
fn the_server_stops_when_its_input_closes_or_its_parent_dies() {
    let out = root().join("target/gamec-web-tests/orphan");
    let args = ["play", "no-such.game", "--board", SILVER_DOLLAR_BOARD, "--web", "--port", "0", "-o"];
    let mut gamec = Command::new(env!("CARGO_BIN_EXE_gamec"))
        .args(args)
        .arg(&out)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gamec runs");
    let mut first = String::new();
    BufReader::new(gamec.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.contains("http://"), "{first:?}");
    assert!(alive(gamec.id()), "the server serves while its input is open");
    drop(gamec.stdin.take());
    let until = Instant::now() + Duration::from_secs(10);
    while gamec.try_wait().unwrap().is_none() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
    }
    let ended = gamec.try_wait().unwrap();
    let _ = gamec.kill();
    assert!(ended.is_some(), "the server still runs 10 s after its input closed");

    // The shell waits a little before it exits, so that the server has looked at its parent.
    let script = r#""$0" "$@" </dev/null >/dev/null 2>&1 & echo $!; sleep 2"#;
    let shell = Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_gamec")])
        .args(args)
        .arg(&out)
        .current_dir(root())
        .output()
        .unwrap();
    let pid: u32 = String::from_utf8_lossy(&shell.stdout).trim().parse().unwrap();
    let ended = ends_within(pid, 10);
    if !ended {
        let _ = Command::new("kill").arg(pid.to_string()).status();
    }
    assert!(ended, "the server still runs 10 s after its parent shell exited");
}

/// A test that fails mid-command, here on a command's timeout, leaves no Chromium behind.
#[test]
fn a_failed_test_leaves_no_browser_running() {
    let mut page = Page::open("failed", SILVER_DOLLAR, SILVER_DOLLAR_BOARD, "1");
    let browser = page.driver.browser.expect("the driver names the browser's process");
    assert!(group_alive(browser), "Chromium's process group {browser} runs");
    let stuck = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        page.cmd(json!({ "cmd": "wait", "ms": 3_600_000, "timeout_ms": 1000 }))
    }));
    let message = stuck.expect_err("an hour of the page's time in a second fails");
    let message = message.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("no answer after 1000 ms"), "{message}");
    drop(page);
    assert!(!group_alive(browser), "Chromium's process group {browser} still runs");
}

// ---- Othello over the ATmega16's USART: the console on the page.

const OTHELLO: &str = "games/othello.game";
const OTHELLO_BOARD: &str = "boards/othello_stk500_atmega16.board";

/// The console's lines as the page shows what the chip sent, read one by one. The page stops
/// its time as each line comes whole (once the frame it came in ends: at pace max a few
/// hundred milliseconds of the chip's later) and runs on when the next is asked for: the
/// test's answers take none of the chip's time, whose move clock runs for the host too.
struct Console<'a> {
    page: &'a mut Page,
    read: usize,
}

impl Console<'_> {
    /// The next whole line the chip sent, waiting for it.
    fn line(&mut self) -> String {
        let l = self.page.cmd(json!({ "cmd": "line", "index": self.read }));
        self.read += 1;
        l.as_str().unwrap().to_string()
    }

    fn send(&mut self, line: &str) {
        self.page.cmd(json!({ "cmd": "type", "text": line }));
    }

    fn expect(&mut self, want: &str) {
        assert_eq!(self.line(), want);
    }
}

fn cell_name(cell: u8) -> String {
    format!("{}{}", (b'A' + cell % 8) as char, cell / 8 + 1)
}

/// Reads a board dump's rows and checks each cell against `pos`; returns the cells marked legal.
fn othello_board(c: &mut Console, pos: &Position) -> u64 {
    let mut legal = 0u64;
    for row in 0..8u8 {
        let l = c.line();
        assert_eq!(&l[..1], &(row + 1).to_string(), "row label in {l:?}");
        for col in 0..8u8 {
            let glyph = l.as_bytes().get(2 + 2 * col as usize).copied().unwrap_or(b' ');
            let bit = 1u64 << (row * 8 + col);
            let want = match (pos.pieces[0] & bit != 0, pos.pieces[1] & bit != 0) {
                (true, _) => b'B',
                (_, true) => b'W',
                _ if glyph == b'V' => {
                    legal |= bit;
                    b'V'
                }
                _ => b' ',
            };
            assert_eq!(glyph as char, want as char, "cell {} in row {l:?}", cell_name(row * 8 + col));
        }
    }
    legal
}

#[test]
fn a_whole_othello_game_over_the_page_console_every_reply_legal() {
    let rules = GridRules::new(&load(OTHELLO)).unwrap();
    let mut page = Page::open("othello", OTHELLO, OTHELLO_BOARD, "max");
    let mut c = Console { page: &mut page, read: 0 };
    c.expect("Pick Black/White");
    c.send("SP B");
    c.expect("OK");
    let mut pos = rules.start;
    let mut rng: u64 = 0x2545_F491_4F6C_DD1D;
    let (mut legal_marked, mut device_moves) = (0, 0);
    let result = loop {
        let l = c.line();
        match l.as_str() {
            t if t.starts_with("  A") => legal_marked = othello_board(&mut c, &pos),
            "Type your move" => {
                let moves: Vec<u8> = rules
                    .plies(&pos)
                    .into_iter()
                    .filter_map(|p| if let Ply::Place(c) = p { Some(c) } else { None })
                    .collect();
                assert_eq!(legal_marked, moves.iter().fold(0u64, |m, &c| m | 1 << c), "the dump marks the legal cells");
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let cell = moves[(rng % moves.len() as u64) as usize];
                c.send(&format!("MV {}", cell_name(cell)));
                pos = rules.play(&pos, Ply::Place(cell));
                let header = c.line();
                if !header.starts_with("  A") {
                    let log = c.page.read("console");
                    panic!("the board after the move: {header:?}\n{}", log.as_str().unwrap_or(""));
                }
                othello_board(&mut c, &pos);
                c.expect("OK");
            }
            "You have to pass" => {
                assert_eq!(rules.plies(&pos), vec![Ply::Pass]);
                c.send("PS");
                pos = rules.play(&pos, Ply::Pass);
                c.expect("OK");
            }
            t if t.starts_with("MM ") => {
                let b = t.as_bytes();
                let cell = (b[4] - b'1') * 8 + (b[3] - b'A');
                assert!(rules.plies(&pos).contains(&Ply::Place(cell)), "the device's move {t} is legal");
                pos = rules.play(&pos, Ply::Place(cell));
                device_moves += 1;
                c.send("OK");
            }
            "MP" => {
                assert_eq!(rules.plies(&pos), vec![Ply::Pass], "the device passes only without a move");
                pos = rules.play(&pos, Ply::Pass);
                c.send("OK");
            }
            "Neither of us have available move, game over" => assert!(rules.plies(&pos).is_empty()),
            t if t.starts_with("The final score is:") => {
                let (device, host) = (pos.pieces[1].count_ones(), pos.pieces[0].count_ones());
                assert_eq!(t, format!("The final score is:AVR: {device} User: {host}"));
            }
            " WN" | " LS" | " TE" => break l,
            other => panic!("unexpected line {other:?}"),
        }
    };
    let want = match rules.winner(&pos) {
        Some(0) => " LS",
        Some(_) => " WN",
        None => " TE",
    };
    assert_eq!(result, want);
    assert!(device_moves > 10, "a whole game: {device_moves} device moves");
    c.send("OK");
    page.wait(100);
    // The STK500's LEDs, active low: PB1 the device won, PB2 the player, PB3 a draw.
    let lamp = match want {
        " WN" => "PB1",
        " LS" => "PB2",
        _ => "PB3",
    };
    assert_eq!(page.read("lamps"), json!([lamp]), "the result's lamp, lit on the page");
}

// ---- Binario on the ATmega128: the bicolour matrix, two encoders, two switches, the 93C46.

const BINARIO: &str = "games/binario.game";
const BINARIO_BOARD: &str = "boards/binario_atmega128.board";

/// A cell's colour as the page's matrix reads: `.` clear, `r` the first state, `g` the second.
fn glyph(s: &State, r: usize, c: usize) -> char {
    match s.cells[r * STRIDE + c] {
        x if x == content::state(0) => 'r',
        x if x == content::state(1) => 'g',
        _ => '.',
    }
}

fn picture(s: &State) -> String {
    (0..8).map(|r| (0..8).map(|c| glyph(s, r, c)).collect::<String>()).collect::<Vec<_>>().join("\n")
}

/// The start-up show, then the first tableau to choose, as the EEPROM holds it.
fn binario_choosing(page: &mut Page, start: &State) {
    page.wait(5600);
    let seen = page.watch("matrix", 600);
    assert!(seen.contains(&json!(picture(start))), "tableau 1 from the 93C46 while choosing: {seen:?}");
}

/// The ATmega64's map, the chip the board's author built it with (simavr, which has none,
/// runs its image as an ATmega128):
/// the start-up show and the first tableau from the 93C46, as the ATmega128 shows them.
#[test]
fn binario_on_the_atmega64_shows_its_first_tableau_on_the_page() {
    let game = load(BINARIO);
    let engine = Engine::new(&game);
    let start = engine.start_of(&game, &game.rules.setup.fixed()[0]);
    let mut page = Page::open("binario_atmega64", BINARIO, "boards/binario_atmega64.board", "max");
    binario_choosing(&mut page, &start);
}

#[test]
fn a_binario_tableau_solved_on_the_page_to_its_victory_flash() {
    let game = load(BINARIO);
    let engine = Engine::new(&game);
    let start = engine.start_of(&game, &game.rules.setup.fixed()[0]);
    let solution = Puzzle::new(&engine).unwrap().solutions(&start, 1).remove(0);
    let mut page = Page::open("binario", BINARIO, BINARIO_BOARD, "max");
    binario_choosing(&mut page, &start);
    page.key("Enter");
    page.wait(700);
    // The cursor starts at the top left; the wheel over the across encoder and the up and down
    // keys move it, enter presses select: each free cell cycles clear, red, green.
    let mut at = (0usize, 0usize);
    let mut cells: Vec<(usize, usize)> = Vec::new();
    for r in 0..8 {
        let cols: Vec<usize> = if r % 2 == 0 { (0..8).collect() } else { (0..8).rev().collect() };
        cells.extend(cols.into_iter().filter(|&c| start.given >> (r * STRIDE + c) & 1 == 0).map(|c| (r, c)));
    }
    let last = cells.len() - 1;
    for (i, &(r, c)) in cells.iter().enumerate() {
        while at.1 != c {
            let forward = c > at.1;
            let selector = "[data-panel=\"encoder across\"]";
            page.cmd(json!({ "cmd": "wheel", "selector": selector, "deltaY": if forward { 100 } else { -100 } }));
            at.1 = if forward { at.1 + 1 } else { at.1 - 1 };
        }
        while at.0 != r {
            page.key("ArrowDown");
            at.0 += 1;
        }
        page.wait(40);
        let presses = if glyph(&solution, r, c) == 'r' { 1 } else { 2 };
        for p in 0..presses {
            let solves = i == last && p == presses - 1;
            if solves {
                // The flash watched from this press on.
                page.pause(true);
            }
            page.key("Enter");
            if solves {
                break;
            }
            page.wait(120);
        }
    }
    // The last cell makes the solution: the victory tune, the display flashing green.
    let seen = page.watch("matrix", 1000);
    let green = ["gggggggg"; 8].join("\n");
    let dark = ["........"; 8].join("\n");
    assert!(seen.contains(&json!(green)) && seen.contains(&json!(dark)), "a green flash: {seen:?}");
    page.wait(800);
    assert_eq!(page.read("matrix"), json!(picture(&solution)), "the solution stays on show");
}

// ---- Every AVR board in boards/: its firmware runs on the page and answers a player.

/// Every board in boards/ whose chip is an AVR (its arch in chips.rs), listed when the test
/// runs, with the game it is named for: `boards/<game>_*.board` plays `games/<game>.game`, the
/// longest such name.
fn avr_boards() -> Vec<(String, String)> {
    let listed = |dir: &str, ext: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(ext).map(String::from))
            .collect();
        names.sort();
        names
    };
    let games = listed("games", ".game");
    let mut boards = Vec::new();
    for b in listed("boards", ".board") {
        let game = games
            .iter()
            .filter(|g| b.starts_with(&format!("{g}_")))
            .max_by_key(|g| g.len())
            .unwrap_or_else(|| panic!("boards/{b}.board is named for no game in games/"));
        let (game, board) = (format!("games/{game}.game"), format!("boards/{b}.board"));
        if matches!(target(&game, &board).chip.arch, gamec::chips::Arch::Avr(_)) {
            boards.push((game, board));
        }
    }
    boards
}

/// Every AVR board's page, one after the other in one browser at pace max: the firmware runs
/// and answers a player as the board's interface lets one play, judged by the game file and
/// the engine (`answers_a_player`). The boards come from boards/ as the test runs, so a new
/// board is opened too. Each is built into target/gamec-tests, where budgets.rs and the
/// device tests build the same crates: in a whole run of the tests the builds are cargo's
/// fresh ones. Every board is tried, and the failures are told together.
#[test]
fn every_avr_board_runs_on_the_page_and_answers_a_player() {
    let boards = avr_boards();
    assert!(!boards.is_empty(), "no AVR board in boards/");
    let out = root().join("target/gamec-tests");
    let (mut driver, mut failures) = (None, Vec::new());
    for (game, board) in &boards {
        let started = Instant::now();
        let browser = driver.take().unwrap_or_else(|| Driver::start(&prerequisites(), "about:blank"));
        let tried = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut page = Page::open_in(browser, &out, game, board, "max");
            answers_a_player(&mut page, game, board);
            page.close()
        }));
        match tried {
            Ok(browser) => driver = Some(browser),
            Err(e) => {
                let why = e.downcast_ref::<String>().cloned().or(e.downcast_ref::<&str>().map(|s| s.to_string()));
                failures.push(format!("{board}: {}", why.unwrap_or_default()));
            }
        }
        eprintln!("{board}: {:.1} s", started.elapsed().as_secs_f64());
    }
    assert!(
        failures.is_empty(),
        "{} of {} boards failed on the page:\n{}",
        failures.len(),
        boards.len(),
        failures.join("\n")
    );
}

/// What a player sees of the firmware and what answers them, by the board's interface: a
/// serial board's console, a matrix with its cursor, or buttons and lights.
fn answers_a_player(page: &mut Page, game: &str, board: &str) {
    let def = load(game);
    let t = target(game, board);
    if t.serial.is_some() {
        serial_answers(page, &def);
    } else if t.cursor.is_some() {
        matrix_answers(page, &def, &t);
    } else {
        buttons_answer(page, &def, &t);
    }
}

/// The LED numbers a `leds` watch saw lit, as a set.
fn lit(v: &Value) -> Vec<u32> {
    v.as_str().unwrap_or_default().split_whitespace().map(|n| n.parse().unwrap()).collect()
}

/// Buttons and lights: the LEDs lit before any press (the attract show the game's feedback
/// names, a light sweeping where it animates one), and GO starting the game, whose LEDs then
/// show as many lights as a start of the game (or the position after the device's first
/// move) has: a light a piece on a line, a light a counter on heaps.
fn buttons_answer(page: &mut Page, def: &gamec_dsl::GameDef, t: &gamec::bind::Target) {
    use gamec_dsl::{Animation, EventKind, Response};
    let engine = Engine::new(def);
    let lights = |s: &State| match def.rules.heaps() {
        Some(_) => s.cells.iter().map(|&c| c as usize).sum(),
        None => s.cells.iter().filter(|&&c| c != 0).count(),
    };
    let starts = gamec::analyze::starts(&engine, def);
    let mut shown: Vec<usize> = starts.iter().map(lights).collect();
    shown.extend(starts.iter().flat_map(|s| engine.plies(s).into_iter().map(|m| lights(&engine.play(s, m)))));
    let attract = page.watch_then_stop("leds", 2000);
    assert!(attract.iter().any(|v| !lit(v).is_empty()), "no LED lit before a press: {attract:?}");
    let sweeps = def
        .interface
        .events
        .iter()
        .any(|e| e.event == EventKind::Attract && matches!(e.response, Response::Animate(Animation::Cylon)));
    if sweeps {
        let single: Vec<&Value> = attract.iter().filter(|v| lit(v).len() == 1).collect();
        assert!(single.len() > 1, "the attract sweep moves one light: {attract:?}");
    }
    page.click_pin(t.inputs[t.commit as usize]);
    let after = page.watch_then_stop("leds", 1500);
    assert!(
        after.iter().any(|v| shown.contains(&lit(v).len())),
        "after GO no picture of {shown:?} lights: {after:?} (before: {attract:?})"
    );
}

/// The start as the matrix shows it: each cell in its content's colour (`show cells =
/// colours`), `.` where it has none; row r of the grid on the matrix's row r, a line on row 0.
fn start_picture(def: &gamec_dsl::GameDef, s: &State) -> Vec<Vec<char>> {
    use gamec_dsl::{Colour, ViewSource};
    let colours = def
        .interface
        .views
        .iter()
        .find_map(|v| match v.source {
            ViewSource::Colours(c) => Some(c),
            ViewSource::Occupied => None,
        })
        .expect("a matrix's view has colours");
    (0..8)
        .map(|r| {
            (0..8)
                .map(|c| match s.cells.get(r * STRIDE + c).map(|&x| colours.of(x)) {
                    Some(Colour::Red) => 'r',
                    Some(Colour::Green) => 'g',
                    Some(Colour::Yellow) => 'y',
                    _ => '.',
                })
                .collect()
        })
        .collect()
}

/// A matrix with a cursor: the start-up show (if the game has one) played out, the matrix
/// settles into what waits for the player, which draws the game's first start (the cursor's
/// blinking cell aside); then an encoder's turn changes the picture, or where the cursor
/// blinks in its cell's own colour (a duel's cursor on the player's piece, where a press goes
/// on with a move), select's press after it does.
fn matrix_answers(page: &mut Page, def: &gamec_dsl::GameDef, t: &gamec::bind::Target) {
    let engine = Engine::new(def);
    let start = gamec::analyze::starts(&engine, def).remove(0);
    let want = start_picture(def, &start);
    let set = |v: &[Value]| -> std::collections::BTreeSet<String> {
        v.iter().map(|p| p.as_str().unwrap_or_default().to_string()).collect()
    };
    // Settled: a second of the page's time shows what the second before showed.
    let mut steady = set(&page.watch_then_stop("matrix", 1000));
    for _ in 0..20 {
        let next = set(&page.watch_then_stop("matrix", 1000));
        if next == steady {
            break;
        }
        steady = next;
    }
    assert!(steady.iter().any(|p| p.contains(['r', 'g', 'y'])), "the matrix stays dark: {steady:?}");
    let differ = |p: &str| -> usize {
        p.lines().zip(&want).map(|(row, w)| row.chars().zip(w).filter(|(a, b)| a != *b).count()).sum()
    };
    let shown: String = want.iter().map(|r| r.iter().collect::<String>()).collect::<Vec<_>>().join("\n");
    assert!(steady.iter().any(|p| differ(p) <= 1), "the start\n{shown}\nin none of {steady:#?}");
    let cursor = t.cursor.as_ref().unwrap();
    let turn = match cursor.encoders.iter().map(|&(across, ..)| across).max() {
        Some(true) => Some("ArrowRight"),
        Some(false) => Some("ArrowDown"),
        None => None,
    };
    for key in turn.into_iter().chain(["Enter"]) {
        page.key(key);
        let after = set(&page.watch_then_stop("matrix", 1000));
        if after.difference(&steady).next().is_some() {
            return;
        }
    }
    panic!("neither {turn:?} nor select changed the picture: {steady:?}");
}

/// Reads the console's lines until one is `want`; a panic at one of `refused`, or after 40.
fn until(c: &mut Console, want: &str, refused: &[&str]) {
    let mut seen = Vec::new();
    loop {
        let l = c.line();
        if l == want {
            return;
        }
        assert!(!refused.contains(&l.as_str()) && seen.len() < 40, "no {want:?} in {seen:?}, then {l:?}");
        seen.push(l);
    }
}

/// The first line of text a response sends, up to its first placeholder.
fn said(serial: &gamec_dsl::SerialDef, event: gamec_dsl::SessionEvent) -> Option<String> {
    use gamec_dsl::{SayPart, TextPart};
    serial.say(event)?.parts.iter().find_map(|p| match p {
        SayPart::Line(text) => Some(
            text.iter()
                .map_while(|t| match t {
                    TextPart::Text(s) => Some(s.as_str()),
                    _ => None,
                })
                .collect(),
        ),
        _ => None,
    })
}

/// A serial board: the console greets (the protocol's side prompt, or the host's turn), a
/// line that is no command gets the `unknown` reply, and the host, on the side that moves
/// first, plays the start's first legal move (the engine's, by its notation) with the
/// protocol's play command and is answered `moved`, neither `denied` nor `unknown`.
fn serial_answers(page: &mut Page, def: &gamec_dsl::GameDef) {
    use gamec_dsl::{CommandArgDef, SessionAction, SessionEvent};
    let serial = def.interface.serial.as_ref().expect("a serial game");
    let engine = Engine::new(def);
    let start = gamec::analyze::starts(&engine, def).remove(0);
    let side = serial.commands.iter().find_map(|c| match (&c.action, &c.arg) {
        (SessionAction::HostPlaysSide, CommandArgDef::Side(sides)) => {
            sides.iter().find(|(_, p)| *p == start.to_move as usize).map(|(w, _)| format!("{} {w}", c.word))
        }
        _ => None,
    });
    let prompt = said(serial, SessionEvent::YourTurn).expect("the host's turn says something");
    let greeting = match side {
        Some(_) => said(serial, SessionEvent::PickSide).expect("a side to pick is asked for"),
        None => prompt.clone(),
    };
    let unknown = said(serial, SessionEvent::Unknown).expect("an unknown line is answered");
    let mut c = Console { page, read: 0 };
    until(&mut c, &greeting, &[]);
    let garbage = (0..).map(|i| format!("XYZZY{i}")).find(|g| !serial.commands.iter().any(|c| g.starts_with(&c.word)));
    c.send(&garbage.unwrap());
    assert_eq!(c.line(), unknown, "a line that is no command");
    if let Some(side) = side {
        c.send(&side);
        until(&mut c, &prompt, &[&unknown]);
    }
    let first = engine.plies(&start)[0];
    let play = serial.commands.iter().find(|c| match (c.action, first) {
        (SessionAction::PlayMove, _) => true,
        (SessionAction::Play(a), gamec::engine::Move::Put { action, .. }) => a == action as usize,
        _ => false,
    });
    let play = play.unwrap_or_else(|| panic!("no command plays {}", engine.move_name(first)));
    c.send(&format!("{} {}", play.word, engine.move_name(first)));
    let moved = said(serial, SessionEvent::Moved).expect("a move played is answered");
    let denied = said(serial, SessionEvent::Denied).unwrap_or_default();
    until(&mut c, &moved, &[&unknown, &denied]);
}

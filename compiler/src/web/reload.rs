//! The builds the page runs: the first at start, then one after every save of the game or the
//! board file (their modification times looked at three times a second, as `gamec watch`
//! does). Each build's outcome is a numbered snapshot, the page's JSON, that a request can
//! wait for: the firmware and the board to run, or the diagnostics as the CLI renders them.

use super::target;
use crate::{driver, Error};
use gamec_dsl::Sources;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, SystemTime};

/// How often the files' modification times are looked at.
const LOOK: Duration = Duration::from_millis(300);

/// The latest build's outcome, numbered from 1 (0: none yet), as the page's JSON.
struct Snapshot {
    generation: u64,
    json: String,
}

/// The builds, shared by the watching thread and the requests that wait for the next one.
#[derive(Clone)]
pub struct Builds {
    shared: Arc<(Mutex<Snapshot>, Condvar)>,
}

impl Builds {
    /// Starts the thread that builds now and after every save.
    pub fn start(game: PathBuf, board: PathBuf, out: PathBuf) -> Builds {
        let builds =
            Builds { shared: Arc::new((Mutex::new(Snapshot { generation: 0, json: String::new() }), Condvar::new())) };
        let watcher = builds.clone();
        std::thread::spawn(move || watcher.watch(&game, &board, &out));
        builds
    }

    fn publish(&self, outcome: serde_json::Value) {
        let (lock, changed) = &*self.shared;
        let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
        s.generation += 1;
        let mut outcome = outcome;
        outcome["generation"] = json!(s.generation);
        s.json = outcome.to_string();
        changed.notify_all();
    }

    /// The snapshot after `after`, waiting at most `wait` for it; the current one otherwise.
    pub fn next(&self, after: u64, wait: Duration) -> String {
        let (lock, changed) = &*self.shared;
        let s = lock.lock().unwrap_or_else(|e| e.into_inner());
        let (s, _) = changed.wait_timeout_while(s, wait, |s| s.generation <= after).unwrap_or_else(|e| e.into_inner());
        match s.generation {
            0 => json!({ "generation": 0, "state": "building" }).to_string(),
            _ => s.json.clone(),
        }
    }

    fn watch(&self, game: &Path, board: &Path, out: &Path) {
        let stamp = |f: &Path| std::fs::metadata(f).and_then(|m| m.modified()).ok();
        let mut seen: Vec<Option<SystemTime>> = Vec::new();
        loop {
            let now = vec![stamp(game), stamp(board)];
            if now != seen {
                seen = now;
                self.publish(json!({ "state": "building" }));
                eprintln!("gamec play: building {} for {}", game.display(), board.display());
                self.publish(build(game, board, out));
            }
            std::thread::sleep(LOOK);
        }
    }
}

/// One build: the firmware and the board to run it on, or why not.
fn build(game: &Path, board: &Path, out: &Path) -> serde_json::Value {
    let mut sources = Sources::new();
    let built = match driver::build(&mut sources, game, board, out) {
        Ok(b) => b,
        Err(e) => {
            let text = render(&sources, e);
            eprint!("{text}");
            return json!({ "state": "failed", "diagnostics": text });
        }
    };
    if !matches!(built.target.chip.arch, crate::chips::Arch::Avr(_)) {
        let text = format!(
            "error: the page runs AVR firmware in avr8js; the {} is not an AVR (`gamec play --board` without \
             `--web` runs it in QEMU)\n",
            built.target.chip.name
        );
        eprint!("{text}");
        return json!({ "state": "failed", "diagnostics": text });
    }
    let read = |p: &Path| std::fs::read(p).map_err(|source| Error::Io { path: p.display().to_string(), source });
    let files = read(&built.hex).and_then(|hex| {
        let eeprom = built.eeprom.as_deref().map(read).transpose()?;
        Ok((hex, eeprom, board_svg(board)?))
    });
    let (hex, eeprom, svg) = match files {
        Ok(f) => f,
        Err(e) => return json!({ "state": "failed", "diagnostics": render(&sources, e) }),
    };
    eprintln!("gamec play: built {}; the page runs it", built.hex.display());
    let stem = |p: &Path| p.file_stem().unwrap_or_default().to_string_lossy().into_owned();
    json!({
        "state": "ok",
        "title": format!("{} on {}", stem(game), stem(board)),
        "warnings": sources.render(&built.target.warnings),
        "target": target::to_json(&built.target, eeprom.as_deref()),
        "hex": String::from_utf8_lossy(&hex),
        "svg": svg,
    })
}

/// The board's drawing, as `gamec draw` draws it.
fn board_svg(board: &Path) -> Result<String, Error> {
    let mut sources = Sources::new();
    let id = driver::read(&mut sources, board)?;
    crate::draw::board_svg(&sources, id).map_err(Error::Diagnostics)
}

/// An error as the CLI prints it: diagnostics against their sources and a count, or one line.
fn render(sources: &Sources, e: Error) -> String {
    match e {
        Error::Diagnostics(d) => {
            let errors = d.iter().filter(|d| d.is_error()).count();
            format!("{}error: {errors} error(s) found\n", sources.render(&d))
        }
        e => format!("error: {e}\n"),
    }
}

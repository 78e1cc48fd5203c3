//! `gamec play GAME --board BOARD --web`: the board's firmware run in the browser. A small
//! HTTP server on localhost (`server.rs`) serves a page (its JavaScript embedded in the binary, avr8js
//! vendored beside it: no Node or npm needed to use it) that runs the built HEX in avr8js,
//! with the board drawn as `gamec draw` draws it, its LEDs, matrix and lamps lit from the
//! pins, its buttons and encoders played with the mouse and keys, the speaker through WebAudio
//! and the serial line as a console. The server watches the game and board files, builds again
//! on every save and tells the page, which loads the new firmware, or shows the diagnostics.
//!
//! `assets.rs` is the page's files, `reload.rs` the builds and the page's wait for the next,
//! `server.rs` the routes, `target.rs` the board as the page binds it.

mod assets;
mod reload;
mod server;
pub mod target;
mod vendored;

use crate::Error;
use std::path::PathBuf;

/// What to serve: a game on a board, built into `out`, on `port` of localhost (0: any free one).
pub struct Serve {
    pub game: PathBuf,
    pub board: PathBuf,
    pub out: PathBuf,
    pub port: u16,
}

/// Serves the page until the process is stopped, or its parent dies, or a pipe on its
/// standard input is closed (`gone`). `started` is told the page's address once the server
/// listens (the CLI prints it); the first build runs after that, so that the page can show its
/// progress.
pub fn serve(opts: Serve, started: impl FnOnce(&str)) -> Result<(), Error> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", opts.port))
        .map_err(|e| Error::Play(format!("cannot listen on 127.0.0.1:{}: {e}", opts.port)))?;
    let port = listener.local_addr().map_or(opts.port, |a| a.port());
    let builds = reload::Builds::start(opts.game, opts.board, opts.out);
    started(&format!("http://127.0.0.1:{port}/"));
    gone(|| std::process::exit(0));
    server::run(listener, builds);
    Ok(())
}

/// How often the server looks whether its parent is still there.
const PARENT_LOOK: std::time::Duration = std::time::Duration::from_millis(500);

/// Calls `exit` once whoever started the server has gone: its parent died (a test killed
/// outright, a script's shell gone; the server is then another process's child), or it gave
/// the server a pipe on standard input and closed it. A terminal's or a file's standard input
/// is left alone: a person at the terminal stops the server with Ctrl-C, and
/// `gamec play --web < /dev/null` serves on.
fn gone(exit: impl Fn() + Send + Sync + 'static) {
    use std::os::unix::fs::FileTypeExt;
    let exit = std::sync::Arc::new(exit);
    let parent = std::os::unix::process::parent_id();
    let orphaned = exit.clone();
    std::thread::spawn(move || loop {
        std::thread::sleep(PARENT_LOOK);
        if std::os::unix::process::parent_id() != parent {
            orphaned();
        }
    });
    let piped = std::fs::metadata("/proc/self/fd/0").is_ok_and(|m| m.file_type().is_fifo());
    if piped {
        std::thread::spawn(move || {
            use std::io::Read;
            // What the pipe brings is read and dropped: only its end means anything.
            let mut buf = [0u8; 256];
            while std::io::stdin().lock().read(&mut buf).is_ok_and(|n| n > 0) {}
            exit();
        });
    }
}

//! The HTTP server, on localhost only: the page's files, and `/api/build?after=N`, which
//! answers with the first build after the page's N (or, after a while, the current one, and
//! the page asks again). GET alone, a connection a request (HTTP/1.1 with `Connection:
//! close`), a thread a connection, as a waiting request holds its own.
//!
//! Written on `std::net` rather than on tiny_http, which was tried first: under load (a build
//! on both cores) Chromium's parallel module loads over its kept-alive connections stalled,
//! some for good, and it cannot be told to close a connection after each response.

use super::{assets, reload::Builds};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

/// The longest a request waits for a build, below a browser's timeouts.
const LONG_POLL: Duration = Duration::from_secs(20);
/// The most of a request read: a request line and headers, no body.
const MAX_REQUEST: usize = 16 * 1024;

pub fn run(listener: TcpListener, builds: Builds) {
    for stream in listener.incoming().flatten() {
        let builds = builds.clone();
        std::thread::spawn(move || {
            // A browser that went away is no error of the server's.
            let _ = answer(stream, &builds);
        });
    }
}

/// The request's path and query, from its request line, once its headers have come.
fn read_request(stream: &mut TcpStream) -> std::io::Result<Option<String>> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 2048];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut chunk)?;
        if n == 0 || buf.len() > MAX_REQUEST {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let text = String::from_utf8_lossy(&buf);
    let mut words = text.lines().next().unwrap_or("").split_whitespace();
    Ok(match (words.next(), words.next()) {
        (Some("GET"), Some(target)) => Some(target.to_string()),
        _ => None,
    })
}

fn answer(mut stream: TcpStream, builds: &Builds) -> std::io::Result<()> {
    let (status, kind, body): (&str, &str, String) = match read_request(&mut stream)? {
        None => ("405 Method Not Allowed", "text/plain", "gamec serves GET requests\n".into()),
        Some(target) => {
            let (path, query) = target.split_once('?').unwrap_or((&target, ""));
            match path {
                "/api/build" => {
                    let after = query
                        .split('&')
                        .find_map(|kv| kv.strip_prefix("after="))
                        .and_then(|n| n.parse().ok())
                        .unwrap_or(0);
                    ("200 OK", "application/json", builds.next(after, LONG_POLL))
                }
                _ => match assets::find(path) {
                    Some((text, kind)) => ("200 OK", kind, text.to_string()),
                    None => ("404 Not Found", "text/plain", format!("no {path} here\n")),
                },
            }
        }
    };
    // The page's files change with the binary, and the build answers every time.
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body.as_bytes())?;
    stream.flush()
}

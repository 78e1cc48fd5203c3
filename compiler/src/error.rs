//! The compiler's one error type.

use gamec_dsl::Diagnostic;
use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// Problems in the user's files, to be rendered against their sources.
    Diagnostics(Vec<Diagnostic>),
    /// A file could not be read or written.
    Io { path: String, source: std::io::Error },
    /// The firmware crate did not build, or its image is unusable.
    Build(String),
    /// The image does not fit the chip or the board's budget.
    TooBig(String),
    /// Tests a game file carries did not hold (their diagnostics are already printed).
    TestsFailed(usize),
    /// `gamec explain` was given no code the tools give.
    UnknownCode(String),
    /// `gamec play` cannot set the game up (a deal nothing meets, a game too big to solve).
    Play(String),
    /// The command line asks for something ambiguous; the message says how to ask.
    Usage(String),
    /// The board could not be programmed: no tool for its chip, or the tool failed.
    Flash(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Diagnostics(d) => write!(f, "{} problem(s) in the input files", d.len()),
            Error::Io { path, source } => write!(f, "{path}: {source}"),
            Error::Build(msg) => write!(f, "firmware build failed: {msg}"),
            Error::TooBig(msg) => write!(f, "{msg}"),
            Error::TestsFailed(n) => write!(f, "{n} game test(s) failed"),
            Error::Play(msg) => write!(f, "cannot play: {msg}"),
            Error::Usage(msg) => write!(f, "{msg}"),
            Error::Flash(msg) => write!(f, "cannot flash: {msg}"),
            Error::UnknownCode(c) => {
                write!(f, "no diagnostic has the code `{c}`; codes look like `E0005`, `W0019` or `T0001`")
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<Vec<Diagnostic>> for Error {
    fn from(d: Vec<Diagnostic>) -> Self {
        Error::Diagnostics(d)
    }
}

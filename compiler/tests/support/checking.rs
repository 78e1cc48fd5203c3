//! `gamec check` on one game file's text, as the tests call it: whether it passed, and the
//! diagnostics (or warnings) rendered as a person sees them, the file named `game.game`.

use gamec_dsl::Sources;

pub fn check(text: &str) -> (bool, String) {
    let mut sources = Sources::new();
    let id = sources.add("game.game", text.to_string());
    match gamec::check(&sources, &[id]) {
        Ok(w) => (true, sources.render(&w)),
        Err(d) => (false, sources.render(&d)),
    }
}

//! The page's own files (compiler/web/: HTML, style and plain ES modules) and avr8js's
//! vendored modules, embedded in the binary and served by their paths.

/// The page's own files: its path, and its text.
const PAGE: &[(&str, &str)] = &[
    ("/", include_str!("../../web/index.html")),
    ("/style.css", include_str!("../../web/style.css")),
    ("/js/main.js", include_str!("../../web/js/main.js")),
    ("/js/view.js", include_str!("../../web/js/view.js")),
    ("/js/board.js", include_str!("../../web/js/board.js")),
    ("/js/machine.js", include_str!("../../web/js/machine.js")),
    ("/js/chips.js", include_str!("../../web/js/chips.js")),
    ("/js/eeprom.js", include_str!("../../web/js/eeprom.js")),
    ("/js/hex.js", include_str!("../../web/js/hex.js")),
    ("/js/audio.js", include_str!("../../web/js/audio.js")),
];

/// The file served at `path`, with its content type.
pub fn find(path: &str) -> Option<(&'static str, &'static str)> {
    let text = PAGE.iter().chain(super::vendored::FILES).find(|(p, _)| *p == path).map(|(_, t)| *t)?;
    Some((text, content_type(path)))
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        _ => "text/html; charset=utf-8",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_the_page_imports_is_served() {
        // Each relative import of each served module names a served file.
        for (path, text) in PAGE.iter().chain(super::super::vendored::FILES) {
            let dir = &path[..path.rfind('/').unwrap()];
            for spec in text.split(['\'', '"']).filter(|s| s.starts_with("./") || s.starts_with("../")) {
                if !spec.ends_with(".js") {
                    continue;
                }
                let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
                for part in spec.split('/') {
                    match part {
                        "." => {}
                        ".." => {
                            parts.pop();
                        }
                        p => parts.push(p),
                    }
                }
                let target = format!("/{}", parts.join("/"));
                assert!(find(&target).is_some(), "{path} imports {spec}, which is not served ({target})");
            }
        }
        assert_eq!(find("/js/main.js").unwrap().1, "text/javascript; charset=utf-8");
        assert!(find("/nothing.js").is_none());
    }
}

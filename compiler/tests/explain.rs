//! `gamec explain CODE`: every code's meaning and fix as the reference gives them, and a clear
//! refusal of a code no diagnostic has.

use std::process::Command;

fn explain(code: &str) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gamec")).args(["explain", code]).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn every_code_is_explained_in_the_reference_s_words() {
    for &code in gamec_dsl::Code::ALL {
        let (ok, out, _) = explain(&code.as_str().to_lowercase());
        assert!(ok, "{code}");
        assert!(out.starts_with(&format!("{code}: {}\n", code.meaning())), "{out}");
        if let Some(fix) = code.fix() {
            assert!(out.contains(&format!("What to do: {fix}")), "{out}");
        }
    }
}

#[test]
fn a_code_no_diagnostic_has_is_refused() {
    let (ok, out, err) = explain("E9999");
    assert!(!ok && out.is_empty());
    assert!(err.contains("no diagnostic has the code `E9999`"), "{err}");
}

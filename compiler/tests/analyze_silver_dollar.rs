//! `gamec analyze` on Silver Dollar, cross-checked against an independent brute force written
//! here from the seed's description (dollars as a list of cell numbers, Nim-free search).

use gamec::analyze::Analysis;
use std::collections::{HashMap, HashSet};

fn analysis() -> Analysis {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../games/silver_dollar.game");
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(path, std::fs::read_to_string(path).unwrap());
    Analysis::new(&gamec_dsl::load_game(&sources, id).unwrap(), id).unwrap()
}

/// Dollars as cell numbers from the left (12) to the right (1), strictly decreasing.
type Dollars = Vec<u8>;

fn moves(d: &Dollars) -> Vec<Dollars> {
    let mut out = Vec::new();
    for i in 0..d.len() {
        let limit = if i + 1 < d.len() { d[i + 1] + 1 } else { 1 };
        let mut to = d[i];
        while to > limit {
            to -= 1;
            let mut n = d.clone();
            n[i] = to;
            out.push(n);
        }
    }
    out
}

fn wins(d: &Dollars, memo: &mut HashMap<Dollars, bool>) -> bool {
    if let Some(&w) = memo.get(d) {
        return w;
    }
    let w = moves(d).iter().any(|n| !wins(n, memo));
    memo.insert(d.clone(), w);
    w
}

fn all_placements() -> Vec<Dollars> {
    let mut out = Vec::new();
    for mask in 0u16..4096 {
        if mask.count_ones() == 5 {
            out.push((1..=12u8).rev().filter(|c| mask & (1 << (c - 1)) != 0).collect());
        }
    }
    out
}

#[test]
fn counts_agree_with_a_brute_force() {
    let a = analysis();
    let mut memo = HashMap::new();
    let all = all_placements();
    let plain: Vec<&Dollars> = all.iter().filter(|d| d[0] >= 11).collect();
    let setups: Vec<&Dollars> = plain.iter().copied().filter(|d| wins(d, &mut memo)).collect();
    let mut reach: HashSet<Dollars> = setups.iter().map(|d| (*d).clone()).collect();
    let mut todo: Vec<Dollars> = reach.iter().cloned().collect();
    while let Some(d) = todo.pop() {
        for n in moves(&d) {
            if reach.insert(n.clone()) {
                todo.push(n);
            }
        }
    }
    assert_eq!(a.placements, all.len());
    assert_eq!(a.setups_before_winnable, plain.len());
    assert_eq!(a.setups.len(), setups.len());
    assert_eq!(a.setups.len(), 444, "the seed's count");
    assert_eq!(a.first_player_wins, setups.len());
    assert_eq!(a.reachable, reach.len());
    assert_eq!(a.reachable_wins, reach.iter().filter(|d| wins(d, &mut memo)).count());
    assert_eq!(a.strategy_perfect, Some(true));
}

#[test]
fn the_solver_agrees_with_the_nim_sum_of_alternate_gaps() {
    // Seed 001: the mover loses exactly when the XOR of alternate gaps is zero.
    let a = analysis();
    for d in all_placements() {
        let mut gaps: Vec<u8> = d.windows(2).map(|w| w[0] - w[1] - 1).collect();
        gaps.push(d[4] - 1);
        let nim = gaps.iter().step_by(2).fold(0, |x, g| x ^ g);
        let mask = d.iter().fold(0u16, |m, c| m | 1 << (c - 1));
        assert_eq!(a.solution.mover_wins(mask), nim != 0, "{d:?}");
    }
}

#[test]
fn the_cli_prints_the_counts() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gamec"))
        .args(["analyze", concat!(env!("CARGO_MANIFEST_DIR"), "/../games/silver_dollar.game")])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("setups (all constraints):           444"), "{text}");
    assert!(text.contains("device strategy:                    perfect"), "{text}");
}

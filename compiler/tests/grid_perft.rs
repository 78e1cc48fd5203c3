//! Othello's rules written in the DSL (games/othello.game): perft from the start
//! against the published counts, and the mechanics against a plain reference written here.

use gamec::grid_rules::{GridRules, Ply, Position};

fn rules() -> GridRules {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../games/othello.game");
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(path, std::fs::read_to_string(path).unwrap());
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    GridRules::new(&game).unwrap()
}

#[test]
fn perft_matches_published_figures() {
    let r = rules();
    // Depth 9 is the first with finished games; deeper is a benchmark: `gamec perft`.
    let expected = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    for (i, &n) in expected.iter().enumerate() {
        assert_eq!(r.perft(&r.start, i as u32 + 1), n, "depth {}", i + 1);
    }
}

/// A legal placement: row, column and the cells it turns over.
type RefMove = (usize, usize, Vec<(usize, usize)>);

/// The reference: walk each of the eight directions cell by cell on an 8 x 8 array.
fn reference_moves(board: &[[i8; 8]; 8], me: i8) -> Vec<RefMove> {
    let mut out = Vec::new();
    for r in 0..8 {
        for c in 0..8 {
            if board[r][c] != 0 {
                continue;
            }
            let mut flips = Vec::new();
            for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)] {
                let mut line = Vec::new();
                let (mut cc, mut rr) = (c as i32 + dc, r as i32 + dr);
                while (0..8).contains(&cc) && (0..8).contains(&rr) && board[rr as usize][cc as usize] == -me {
                    line.push((rr as usize, cc as usize));
                    cc += dc;
                    rr += dr;
                }
                if !line.is_empty()
                    && (0..8).contains(&cc)
                    && (0..8).contains(&rr)
                    && board[rr as usize][cc as usize] == me
                {
                    flips.extend(line);
                }
            }
            if !flips.is_empty() {
                out.push((r, c, flips));
            }
        }
    }
    out
}

fn to_array(p: &Position) -> [[i8; 8]; 8] {
    let mut b = [[0i8; 8]; 8];
    for (i, row) in b.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            let bit = 1u64 << (i * 8 + j);
            *cell = if p.pieces[0] & bit != 0 {
                1
            } else if p.pieces[1] & bit != 0 {
                -1
            } else {
                0
            };
        }
    }
    b
}

#[test]
fn moves_and_flips_agree_with_the_reference_over_random_games() {
    let r = rules();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..200 {
        let mut p = r.start;
        loop {
            let me = if p.to_move == 0 { 1 } else { -1 };
            let reference = reference_moves(&to_array(&p), me);
            let plies = r.plies(&p);
            let places: Vec<(usize, usize)> = plies
                .iter()
                .filter_map(|ply| if let Ply::Place(c) = ply { Some((*c as usize / 8, *c as usize % 8)) } else { None })
                .collect();
            let mut expected: Vec<(usize, usize)> = reference.iter().map(|(r, c, _)| (*r, *c)).collect();
            expected.sort();
            assert_eq!(places, expected);
            if plies.is_empty() {
                assert!(reference_moves(&to_array(&p), -me).is_empty(), "ended while the opponent could move");
                break;
            }
            let ply = plies[(next() % plies.len() as u64) as usize];
            let after = r.play(&p, ply);
            if let Ply::Place(c) = ply {
                let (row, col) = (c as usize / 8, c as usize % 8);
                let (_, _, flips) = reference.iter().find(|(r, c, _)| (*r, *c) == (row, col)).unwrap();
                let mut b = to_array(&p);
                b[row][col] = me;
                for &(fr, fc) in flips {
                    b[fr][fc] = me;
                }
                assert_eq!(to_array(&after), b);
            } else {
                assert!(reference.is_empty(), "passed with a move available");
            }
            p = after;
        }
    }
}

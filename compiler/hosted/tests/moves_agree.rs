//! Move generation of Othello's rules (games/othello.game) against a plain reference written
//! here, along random games: the compiler's own reading (`grid_rules`) and the generated module
//! the firmware compiles (`gamec_hosted::othello`), move sets and every flip.

use gamec::grid_rules::{GridRules, Ply, Position};
use gamec_hosted::othello::{Rules, MAX_MOVES};
use gamec_runtime::grid::Duel;
use gamec_runtime::search::Tree;

fn rules() -> GridRules {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/othello.game");
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(path, std::fs::read_to_string(path).unwrap());
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    GridRules::new(&game).unwrap()
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
            // The generated module, from the mover's side.
            let duel = Duel { me: p.pieces[p.to_move], opp: p.pieces[1 - p.to_move] };
            let mut generated = [0u8; MAX_MOVES];
            let n = Rules::moves(&duel, &mut generated);
            let mut gen_places: Vec<(usize, usize)> =
                generated[..n].iter().map(|&c| (c as usize / 8, c as usize % 8)).collect();
            gen_places.sort();
            assert_eq!(gen_places, expected, "generated moves");
            if plies.is_empty() {
                assert!(reference_moves(&to_array(&p), -me).is_empty(), "ended while the opponent could move");
                assert_eq!(Rules::pass(&duel), None, "the generated rules end the game too");
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
                let next = Rules::play(&duel, c);
                assert_eq!(
                    (next.opp, next.me),
                    (after.pieces[p.to_move], after.pieces[1 - p.to_move]),
                    "generated play"
                );
            } else {
                assert!(reference.is_empty(), "passed with a move available");
                assert_eq!(Rules::pass(&duel), Some(duel.swap()), "generated pass");
            }
            p = after;
        }
    }
}

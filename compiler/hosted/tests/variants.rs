//! The generated modules of the test inputs in compiler/hosted/fixtures, compiled for the
//! host: eight coins on sixteen cells, two per-piece controls with their own actions, and
//! tunes whose names differ only in case.

use gamec::rules::Rules;
use gamec::solve::{self, Solution};
use gamec_hosted::{fixture_eight_of_sixteen as eight, fixture_tunes_in_case as tunes, fixture_two_controls as two};
use gamec_runtime::app::{App, Hal};
use gamec_runtime::line::Cells;
use gamec_runtime::rng::Rng;
use gamec_runtime::tune::Note;
use gamec_runtime::turn::{Game, Turn};

/// The host's reading of the eight-coin test input.
fn eight_rules() -> Rules {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/eight_of_sixteen.game");
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(path, std::fs::read_to_string(path).unwrap());
    Rules::new(&gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))).unwrap()
}

#[test]
fn eight_of_sixteen_ranks_every_position_into_the_table() {
    let rules = eight_rules();
    assert_eq!((rules.cells, rules.pieces), (16, 8));
    let solution = Solution::solve(&rules);
    let mut ranks = vec![false; solve::binomial(16, 8) as usize];
    for pos in rules.placements() {
        let r = solve::rank(pos, 16) as usize;
        assert!(!std::mem::replace(&mut ranks[r], true), "rank {r} given twice");
        assert_eq!(gamec_runtime::rank::rank::<8>(pos, 16) as usize, r, "the runtime ranks {pos:#018b} alike");
        assert_eq!(eight::mover_wins(pos), solution.mover_wins(pos), "table at {pos:#018b}");
    }
    assert!(ranks.iter().all(|&r| r), "every rank below C(16, 8) = 12870 is used");
    assert_eq!(eight::MOVER_WINS.len(), 12870usize.div_ceil(8));
}

#[test]
fn eight_of_sixteen_deals_and_plays_perfectly() {
    let rules = eight_rules();
    let solution = Solution::solve(&rules);
    let mut rng = Rng::new(7);
    for _ in 0..50 {
        let pos = eight::Rules::setup(&mut rng);
        assert_eq!(pos.count_ones(), 8);
        assert!(pos >> 14 != 0, "leftmost coin on 15 or 16: {pos:#018b}");
        assert!(solution.mover_wins(pos));
        let after = eight::Rules::device_move(pos, &mut rng).expect("a winnable start has a move");
        assert!(!solution.mover_wins(after), "the device takes a winning move at {pos:#018b}");
    }
}

#[test]
fn each_control_extends_with_its_own_action() {
    // Coins on cells 12 and 1: `move` (control 0) slides the first any distance, `hop`
    // (control 1) one or two cells only.
    let pos: Cells = (1 << 11) | 1;
    let moved = |to: u8| Some((pos & !(1 << 11)) | (1 << to));
    assert_eq!(two::Rules::extend(pos, 0, 0, 3), moved(8));
    assert_eq!(two::Rules::extend(pos, 1, 0, 1), moved(10));
    assert_eq!(two::Rules::extend(pos, 1, 0, 2), moved(9));
    assert_eq!(two::Rules::extend(pos, 1, 0, 3), None, "a hop is at most two cells");
    assert_eq!(two::Rules::extend(pos, 2, 0, 1), None, "no third control");
    // The board wires move[1], move[2], hop[1], hop[2], then go.
    let c = &two::CONTROLS;
    assert_eq!((c.piece_inputs, c.pieces, c.commit), (4, 2, 4));
}

/// A board for the app loop: a clock that advances a millisecond per look (so tunes end),
/// buttons the test holds, and what the display and speaker were last given.
#[derive(Default)]
struct Board {
    ms: u16,
    held: u8,
    shown: Cells,
    notes: Vec<Note>,
}

impl Hal for Board {
    type Lights = Cells;
    fn millis(&mut self) -> u16 {
        self.ms = self.ms.wrapping_add(1);
        self.ms
    }
    fn inputs(&mut self) -> u8 {
        self.held
    }
    fn show(&mut self, cells: Cells) {
        self.shown = cells;
    }
    fn tone(&mut self, note: Option<&Note>) {
        self.notes.extend(note.copied());
    }
    fn sleep(&mut self) {}
}

impl Board {
    /// Holds input `n` for 50 ms, then lets go for 50 ms; returns the notes played.
    fn press(&mut self, app: &mut App<Turn<two::Rules>>, n: u8) -> Vec<Note> {
        self.notes.clear();
        let mut last = self.ms;
        for held in [1u8 << n, 0] {
            self.held = held;
            let until = self.ms.wrapping_add(50);
            while self.ms.wrapping_sub(until) > 0x8000 {
                last = app.poll(self, &two::FEEDBACK, &two::CONTROLS, last);
            }
        }
        std::mem::take(&mut self.notes)
    }
}

#[test]
fn the_app_loop_maps_the_second_controls_buttons_to_its_action() {
    let (hop_first, go) = (2, two::CONTROLS.commit);
    // The deal hangs on when GO is pressed: the first of a few times whose deal leaves room
    // for a third press (hop[1] moves the first coin one cell a press, two at most, where
    // `move` would go on).
    let deal = |wait: u16| {
        let mut board = Board { ms: wait, ..Board::default() };
        let mut app = App::<Turn<two::Rules>>::default();
        board.press(&mut app, go);
        let start = board.shown;
        assert_eq!(start.count_ones(), 2, "a game started: {start:#014b}");
        let first = 15 - start.leading_zeros() as u8;
        let next = start & !(1 << first);
        let room = first - next.checked_ilog2().map_or(0, |c| c as u8 + 1);
        (room >= 3).then_some((board, app, start, first))
    };
    let (mut board, mut app, start, first) = (0..500).find_map(deal).expect("some deal leaves room for a third press");
    let beep = two::FEEDBACK.denied.unwrap()[0];
    for press in 1..=3 {
        let notes = board.press(&mut app, hop_first);
        if press <= 2 {
            assert_eq!(board.shown, (start & !(1 << first)) | (1 << (first - press)), "hop press {press}");
            assert!(!notes.contains(&beep), "hop press {press} is accepted");
        } else {
            assert!(notes.contains(&beep), "a third hop press is denied");
            assert_eq!(board.shown, (start & !(1 << first)) | (1 << (first - 2)), "and changes nothing");
        }
    }
}

#[test]
fn tunes_differing_in_case_are_two_statics() {
    assert_eq!(tunes::TUNE_CLICK.len(), 1);
    assert_eq!(tunes::TUNE_CLICK_2.len(), 1);
    assert_ne!(tunes::TUNE_CLICK[0].top, tunes::TUNE_CLICK_2[0].top, "C6 and C7");
    let accepted = tunes::FEEDBACK.accepted.unwrap();
    assert!(std::ptr::eq(accepted, &tunes::TUNE_CLICK_2[..]), "`on accepted -> tune CLICK` plays CLICK");
}

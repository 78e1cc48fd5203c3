//! The session over a small flanking game on a 4 x 4 grid, with a scripted host.

extern crate std;
use super::*;
use crate::grid::{Duel, Grid, KING};
use crate::search::Tree;
use std::string::String;
use std::vec::Vec;

const G: Grid = Grid { cols: 4, rows: 4 };

struct Flank;
impl Tree for Flank {
    type Pos = Duel;
    type Move = u8;
    fn moves(pos: &Duel, out: &mut [u8]) -> usize {
        let mut m = G.flank_moves(pos.me, pos.opp, &KING);
        let mut n = 0;
        while m != 0 && n < out.len() {
            out[n] = m.trailing_zeros() as u8;
            m &= m - 1;
            n += 1;
        }
        n
    }
    fn play(pos: &Duel, m: u8) -> Duel {
        pos.place(&G, &KING, m)
    }
    fn pass(pos: &Duel) -> Option<Duel> {
        (G.flank_moves(pos.opp, pos.me, &KING) != 0).then(|| pos.swap())
    }
    fn eval(pos: &Duel) -> i16 {
        pos.diff(!0)
    }
    fn outcome(pos: &Duel) -> i16 {
        pos.diff(!0) * 100
    }
}

impl Placement for Flank {
    type Pos = Duel;
    const STRATEGY: Strategy = Strategy::Search;
    fn start(pos: &mut Duel) {
        *pos = START;
    }
    const CLEARED: Duel = Duel { me: 0, opp: 0 };
    fn legal_at(pos: &Duel, cell: u8) -> bool {
        G.flank_moves(pos.me, pos.opp, &KING) >> cell & 1 != 0
    }
    fn can_move(pos: &Duel) -> bool {
        G.flank_moves(pos.me, pos.opp, &KING) != 0
    }
    fn holder(pos: &Duel, cell: u8) -> u8 {
        pos.holder(cell)
    }
    fn count(pos: &Duel, mover: bool) -> u8 {
        pos.count(mover)
    }
    fn play(pos: &mut Duel, cell: u8) {
        *pos = pos.place(&G, &KING, cell);
    }
    fn pass(pos: &mut Duel) {
        *pos = pos.swap();
    }
    fn over(pos: &Duel) -> Option<Verdict> {
        let nobody = !Self::can_move(pos) && G.flank_moves(pos.opp, pos.me, &KING) == 0;
        nobody.then(|| Self::stopped(pos))
    }
    fn stopped(pos: &Duel) -> Verdict {
        match pos.diff(!0) {
            0 => Verdict::Draw,
            d if d > 0 => Verdict::Win,
            _ => Verdict::Loss,
        }
    }
    fn search<const N: usize>(
        pos: &mut Duel,
        first: u8,
        max: u8,
        order: bool,
        budget: &mut Budget,
    ) -> Option<Choice<u8>> {
        crate::search::choose_from::<Flank, N>(pos, first, max, order, budget)
    }
}

const fn bit(col: u8, row: u8) -> u64 {
    1 << (row * 8 + col)
}

/// Black (first) on B3 and C2, white on B2 and C3.
const START: Duel = Duel { me: bit(1, 2) | bit(2, 1), opp: bit(1, 1) | bit(2, 2) };

/// Each command: the word's length, the word, the action, how many bytes of arguments follow,
/// the arguments.
static COMMANDS: [u8; 56] = [
    2,
    b'A',
    b'T',
    cmd::PING,
    0,
    2,
    b'O',
    b'K',
    cmd::ACK,
    0,
    2,
    b'P',
    b'L',
    cmd::RETRY,
    0,
    2,
    b'S',
    b'P',
    cmd::HOST_PLAYS_SIDE,
    7,
    2,
    1,
    b'B',
    0,
    1,
    b'W',
    1,
    2,
    b'N',
    b'G',
    cmd::NEW_GAME,
    0,
    2,
    b'E',
    b'G',
    cmd::END_GAME,
    0,
    2,
    b'S',
    b'T',
    cmd::MOVE_TIME,
    3,
    1,
    9,
    2,
    2,
    b'M',
    b'V',
    cmd::PLAY,
    0,
    2,
    b'P',
    b'S',
    cmd::PASS,
    0,
    0,
];

/// Events in order; offsets below.
static SCRIPT: [u8; 60] = [
    b'P',
    b'?',
    op::NL,
    op::END, // 0 pick side
    op::BOARD,
    b'Y',
    op::NL,
    op::END, // 4 your turn
    b'O',
    b'K',
    op::NL,
    op::END, // 8 accepted / moved
    b'I',
    b'L',
    op::NL,
    op::END, // 12 denied
    b'I',
    b'T',
    op::NL,
    op::AWAIT,
    op::END, // 16 too late
    b'E',
    b'R',
    op::NL,
    op::END, // 21 unknown
    b'M',
    b'M',
    b' ',
    op::CELL,
    op::NL,
    op::AWAIT,
    op::END, // 25 device moves
    b'M',
    b'P',
    op::NL,
    op::AWAIT,
    op::END, // 32 device passes
    op::COUNT_DEVICE,
    b':',
    op::COUNT_HOST,
    op::NL,
    op::END, // 37 game over
    b'W',
    b'N',
    op::NL,
    op::AWAIT,
    op::LIGHT,
    0,
    op::END, // 42 win device
    b'L',
    b'S',
    op::NL,
    op::AWAIT,
    op::LIGHT,
    1,
    op::END, // 49 win host
    b'Y',
    b'P',
    op::NL,
    op::END, // 56 must pass
];

static EVENTS: [u16; 17] = [0, 4, 56, 8, 8, SILENT, 12, 16, SILENT, 21, 25, 32, SILENT, 37, 42, 49, SILENT];

static PROTO: Protocol = Protocol {
    commands: &COMMANDS,
    script: &SCRIPT,
    events: &EVENTS,
    glyphs: [b'B', b'W', b'.', b'V'],
    kind_glyphs: &[],
    state_glyphs: &[],
    alone: false,
    heaps: false,
    pits: false,
    stores: false,
    cols: 4,
    rows: 4,
    device_side: 1,
    picks_side: true,
    actions: !0,
    ops: !0,
    default_seconds: 2,
    order_by_eval: true,
    deepening: true,
    timed: true,
};

impl Served for Flank {
    const PROTOCOL: &'static Protocol = &PROTO;
}

/// The host's end of the serial line.
#[derive(Default)]
struct Line {
    input: Vec<u8>,
    output: String,
}

impl embedded_io::ErrorType for Line {
    type Error = core::convert::Infallible;
}

impl embedded_io::Read for Line {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
        let n = buf.len().min(self.input.len());
        for (b, x) in buf.iter_mut().zip(self.input.drain(..n)) {
            *b = x;
        }
        Ok(n)
    }
}

impl embedded_io::ReadReady for Line {
    fn read_ready(&mut self) -> Result<bool, Self::Error> {
        Ok(!self.input.is_empty())
    }
}

impl embedded_io::Write for Line {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
        self.output.extend(buf.iter().map(|&b| b as char));
        Ok(buf.len())
    }
    fn flush(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

#[derive(Default)]
struct Host {
    now: u32,
    line: Line,
    lamps: u8,
}

impl Io for Host {
    type Serial = Line;
    fn serial(&mut self) -> &mut Line {
        &mut self.line
    }
    fn millis(&mut self) -> u32 {
        // Time passes as the device works.
        self.now += 1;
        self.now
    }
    fn light(&mut self, lamp: u8) {
        self.lamps |= 1 << lamp;
    }
    fn lamps_off(&mut self) {
        self.lamps = 0;
    }
}

fn session() -> (Session<Flank, 16, 8>, Host) {
    let mut s = Session::new();
    let mut h = Host::default();
    s.begin(&mut h);
    (s, h)
}

/// Sends a line and returns what the device answered until it waits for input.
fn send<T: Served, const N: usize, const D: u8, const P: usize>(
    s: &mut Session<T, N, D, P>,
    h: &mut Host,
    line: &str,
) -> String {
    h.line.output.clear();
    h.line.input.extend(line.bytes());
    h.line.input.push(b'\r');
    for _ in 0..10 {
        s.poll(h);
    }
    h.line.output.clone()
}

#[test]
fn asks_for_a_side_then_prompts_with_legal_cells() {
    let (mut s, mut h) = session();
    assert_eq!(h.line.output, "P?\r\n");
    let out = send(&mut s, &mut h, "SP B");
    assert_eq!(out, "OK\r\n  A B C D\r\n1 . V . .\r\n2 V W B .\r\n3 . B W V\r\n4 . . V .\r\nY\r\n");
}

#[test]
fn an_illegal_or_off_board_move_is_denied_and_changes_nothing() {
    let (mut s, mut h) = session();
    send(&mut s, &mut h, "SP B");
    let before = s.pos;
    assert_eq!(send(&mut s, &mut h, "MV A1"), "IL\r\n");
    assert_eq!(send(&mut s, &mut h, "MV H9"), "IL\r\n");
    // Row 0 is no row: not to be read as "the column's lowest legal cell".
    assert_eq!(send(&mut s, &mut h, "MV A0"), "IL\r\n");
    assert_eq!(send(&mut s, &mut h, "MV B0"), "IL\r\n");
    assert_eq!(send(&mut s, &mut h, "MV 99"), "ER\r\n");
    assert_eq!(s.pos, before);
}

#[test]
fn a_legal_move_is_answered_and_the_device_replies_and_waits() {
    let (mut s, mut h) = session();
    send(&mut s, &mut h, "SP B");
    let out = send(&mut s, &mut h, "MV D3");
    assert!(out.starts_with("OK\r\nMM "), "{out}");
    assert_eq!(s.state, State::Await);
    let out = send(&mut s, &mut h, "OK");
    assert!(out.ends_with("Y\r\n"), "{out}");
}

#[test]
fn garbage_and_overlong_lines_are_errors_and_the_session_goes_on() {
    let (mut s, mut h) = session();
    assert_eq!(send(&mut s, &mut h, "HELLO"), "ER\r\n");
    assert_eq!(send(&mut s, &mut h, "ATX"), "ER\r\n");
    assert_eq!(send(&mut s, &mut h, &"X".repeat(40)), "ER\r\n");
    assert_eq!(send(&mut s, &mut h, "AT"), "OK\r\n");
}

#[test]
fn move_time_out_of_range_falls_back_to_the_default() {
    let (mut s, mut h) = session();
    assert_eq!(send(&mut s, &mut h, "ST 5"), "OK\r\n");
    assert_eq!(s.move_ms, 5000);
    send(&mut s, &mut h, "ST 0");
    assert_eq!(s.move_ms, 2000);
}

#[test]
fn a_late_move_is_too_late_and_ok_gives_the_turn_up() {
    let (mut s, mut h) = session();
    send(&mut s, &mut h, "SP B");
    h.now += 5000;
    let before = s.pos;
    assert_eq!(send(&mut s, &mut h, "MV D3"), "IT\r\n");
    assert_eq!(s.pos, before);
    let out = send(&mut s, &mut h, "OK");
    assert!(out.starts_with("MM "), "the device moves after a forfeit: {out}");
}

/// The same game, saying nothing for a late move: its host is not timed.
struct Untimed;

static UNTIMED_PROTO: Protocol = Protocol { timed: false, ..PROTO };

impl Placement for Untimed {
    type Pos = <Flank as Placement>::Pos;
    const STRATEGY: Strategy = <Flank as Placement>::STRATEGY;
    const CLEARED: Self::Pos = <Flank as Placement>::CLEARED;
    const FIRST: u8 = <Flank as Placement>::FIRST;
    const STRIDE: u8 = <Flank as Placement>::STRIDE;
    fn start(pos: &mut Self::Pos) {
        Flank::start(pos)
    }
    fn legal_at(pos: &Self::Pos, cell: u8) -> bool {
        Flank::legal_at(pos, cell)
    }
    fn can_move(pos: &Self::Pos) -> bool {
        Flank::can_move(pos)
    }
    fn holder(pos: &Self::Pos, cell: u8) -> u8 {
        Flank::holder(pos, cell)
    }
    fn count(pos: &Self::Pos, mover: bool) -> u8 {
        Flank::count(pos, mover)
    }
    fn play(pos: &mut Self::Pos, m: u8) {
        <Flank as Placement>::play(pos, m)
    }
    fn pass(pos: &mut Self::Pos) {
        <Flank as Placement>::pass(pos)
    }
    fn over(pos: &Self::Pos) -> Option<Verdict> {
        Flank::over(pos)
    }
    fn stopped(pos: &Self::Pos) -> Verdict {
        Flank::stopped(pos)
    }
    fn search<const N: usize>(
        pos: &mut Self::Pos,
        first: u8,
        max: u8,
        order: bool,
        budget: &mut Budget,
    ) -> Option<Choice<u8>> {
        Flank::search::<N>(pos, first, max, order, budget)
    }
}

impl Served for Untimed {
    const PROTOCOL: &'static Protocol = &UNTIMED_PROTO;
}

#[test]
fn a_game_that_says_nothing_of_lateness_gives_its_host_all_the_time_it_likes() {
    let mut s: Session<Untimed, 16, 8> = Session::new();
    let mut h = Host::default();
    s.begin(&mut h);
    send(&mut s, &mut h, "SP B");
    h.now += 60_000;
    let out = send(&mut s, &mut h, "MV D3");
    assert!(out.contains("MM "), "a move a minute late is played and answered: {out}");
}

#[test]
fn retry_after_too_late_prompts_again() {
    let (mut s, mut h) = session();
    send(&mut s, &mut h, "SP B");
    h.now += 5000;
    send(&mut s, &mut h, "MV D3");
    let out = send(&mut s, &mut h, "PL");
    assert!(out.ends_with("Y\r\n"), "{out}");
    assert!(send(&mut s, &mut h, "MV D3").starts_with("OK"));
}

#[test]
fn a_whole_game_ends_with_a_result_and_a_lamp() {
    let (mut s, mut h) = session();
    send(&mut s, &mut h, "SP W");
    let mut all = String::new();
    for _ in 0..40 {
        // The host plays its first legal cell, or passes, acknowledging everything.
        let legal = legal_cell::<Flank>(&s.pos, 0).0;
        let line = if let (State::HostTurn, Some(c)) = (s.state, legal) {
            std::format!("MV {}{}", (b'A' + c % 8) as char, c / 8 + 1)
        } else if s.state == State::HostTurn {
            "PS".into()
        } else {
            "OK".into()
        };
        all += &send(&mut s, &mut h, &line);
        if s.state == State::Over {
            break;
        }
    }
    assert_eq!(s.state, State::Over, "{all}");
    assert!(all.contains("WN") || all.contains("LS"), "{all}");
    assert_ne!(h.lamps, 0);
    assert_eq!(send(&mut s, &mut h, "NG"), "OK\r\nP?\r\n");
    assert_eq!(h.lamps, 0);
}

#[test]
fn end_game_scores_the_game_as_it_stands() {
    let (mut s, mut h) = session();
    send(&mut s, &mut h, "SP B");
    let out = send(&mut s, &mut h, "EG");
    assert_eq!(out, "OK\r\n2:2\r\n");
}

// The same session over a game on the rule core, whose moves are paths of cells.

use crate::rules::as_placement::tests::{at, Jumps};

static JUMPS_PROTO: Protocol =
    Protocol { glyphs: [b'b', b'w', b'.', b'V'], kind_glyphs: b"BW", cols: 6, rows: 6, ..PROTO };

impl Served for Jumps {
    const PROTOCOL: &'static Protocol = &JUMPS_PROTO;
}

/// Moves of at most four cells.
type JumpsSession = Session<Jumps, 16, 4, 4>;

#[test]
fn a_move_along_a_path_is_typed_as_its_cells_and_the_device_answers_with_its_own() {
    let mut s = JumpsSession::new();
    let mut h = Host::default();
    s.begin(&mut h);
    let out = send(&mut s, &mut h, "SP B");
    assert!(out.starts_with("OK\r\n  A B C D E F\r\n1 b . b . b .\r\n2 . b . b . b\r\n"), "{out}");
    let before = s.pos;
    // Two rows on, off the board, a cell alone, or no cell: denied or not understood, and
    // the board as it was.
    assert_eq!(send(&mut s, &mut h, "MV B2-D4"), "IL\r\n");
    assert_eq!(send(&mut s, &mut h, "MV B2-G9"), "IL\r\n");
    assert_eq!(send(&mut s, &mut h, "MV B2"), "IL\r\n");
    assert_eq!(send(&mut s, &mut h, "MV B2-"), "ER\r\n");
    assert_eq!(send(&mut s, &mut h, "MV B2--C3"), "ER\r\n");
    assert_eq!(send(&mut s, &mut h, "MV A1-B2-C3-D4-E5"), "ER\r\n", "more cells than a move names");
    assert_eq!(s.pos, before);
    let out = send(&mut s, &mut h, "MV b2-c3");
    let reply = out.lines().find(|l| l.starts_with("MM ")).unwrap_or_else(|| panic!("no device move in {out:?}"));
    // The device's move is one of White's, named by its cells.
    let cells: Vec<&str> = reply[3..].split('-').collect();
    assert_eq!(cells.len(), 2, "{reply}");
    assert!(cells[0].ends_with('5') && cells[1].ends_with('4'), "{reply}");
    assert_eq!(s.pos.cells[at("C3") as usize], crate::rules::content::piece(0, 0));
}

// A board of ten rows or more: its row labels take two columns, right-aligned.

mod tall {
    use super::*;
    use crate::rules::ending::Ending;
    use crate::rules::game::Game;
    use crate::rules::{Action, Every, Geometry, Holds, Op, Rules};
    use core::marker::PhantomData;

    /// Stones put on any empty cell of a 2 x 10 board, for ever.
    static TALL: Game<'static> = Game {
        rules: Rules {
            geometry: Geometry { cols: 2, rows: 10, stride: 2, cut: &[] },
            actions: &[Action {
                ops: &[Op::Pick { what: Holds::Empty, free: false }, Op::Put { kind: 0 }],
                must: false,
                conditions: &[],
            }],
            regions: &[],
            per_player: true,
            heaps: false,
            pits: None,
            players: 2,
            program: PhantomData::<Every>,
        },
        endings: &[] as &[Ending],
        pass: false,
        advance: false,
        eval: &[],
    };

    pub(super) struct Tall;

    impl crate::rules::as_placement::CoreGame for Tall {
        type Cells = [u8; 20];
        type Program = Every;
        const GAME: &'static Game<'static> = &TALL;
        const STARTS: &'static [[u8; 20]] = &[[0; 20]];
        const CLEARED: [u8; 20] = [0; 20];
        const FIRST: u8 = 0;
        const STRIDE: u8 = 2;
        const STRATEGY: Strategy = Strategy::Search;
        type Key = [u8; 0];
        const KEY: [u8; 0] = [];
    }

    static TALL_PROTO: Protocol = Protocol { glyphs: [b'x', b'o', b'.', b'.'], cols: 2, rows: 10, ..PROTO };

    impl Served for Tall {
        const PROTOCOL: &'static Protocol = &TALL_PROTO;
    }
}

#[test]
fn a_board_of_ten_rows_keeps_its_columns_under_their_letters() {
    let mut s = Session::<tall::Tall, 20, 2>::new();
    let mut h = Host::default();
    s.begin(&mut h);
    let out = send(&mut s, &mut h, "SP B");
    let rows: Vec<&str> = out.lines().skip(1).take(11).collect();
    assert_eq!(rows[0], "   A B", "{out}");
    assert_eq!(rows[1], " 1 . .", "{out}");
    assert_eq!(rows[9], " 9 . .", "{out}");
    assert_eq!(rows[10], "10 . .", "{out}");
}

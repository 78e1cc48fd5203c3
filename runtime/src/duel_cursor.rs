//! A grid game played with a cursor, against the device or alone: the person moves the cursor
//! and enters a move a cell at a time with presses (a placement's one cell; a piece, then
//! where it goes, then each further landing of a chain), denied where no legal move goes on
//! that way (the board unchanged); the device answers by its strategy, a player without a
//! move passes, and at the end every cell blinks to the winner's colour (a puzzle's solver's
//! when solved). The rules are the generated [`Placement`]; nothing here knows a game.

use crate::cursor::{Cursor, Input};
use crate::matrix::{Colour, Frame};
use crate::rng::Rng;
use crate::rules::content::{self, FIRST_KIND};
use crate::search::Budget;
use crate::session::{Entered, Placement, Strategy, Verdict, HELD_BY_MOVER, HELD_BY_OTHER};

/// What the game file says about playing it with a cursor.
pub struct Config {
    pub cols: u8,
    pub rows: u8,
    /// The person's pieces' colour and the device's.
    pub human: Colour,
    pub device: Colour,
    /// Whether the person moves first.
    pub human_first: bool,
    /// The cursor's blink, and the end's.
    pub cursor_ms: u16,
    pub end_ms: u16,
    /// How long the device may think, its deepest search and whether it deepens and orders.
    pub think_ms: u16,
    pub max_depth: u8,
    pub deepening: bool,
    pub order_by_eval: bool,
    /// Played alone (a puzzle): every turn is the person's, and there is no device.
    pub alone: bool,
    /// Where the rules keep what a cell holds ([`Placement::content`]), the colour of each
    /// content: empty, each player's piece of the first kind, each state; a piece of a further
    /// kind shows as its owner's first.
    pub palette: [Colour; FIRST_KIND as usize],
}

/// What the speaker plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sound {
    Accepted,
    Denied,
    HumanWon,
    DeviceWon,
    Draw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    HumanTurn,
    DeviceTurn,
    /// Over: who won, from the person's side.
    Over(Verdict),
}

/// `N` is room for a position's moves, `NAMED` for the most cells a move names.
pub struct Game<T: Placement, const N: usize, const NAMED: usize = 1> {
    /// With a side to move.
    pub pos: T::Pos,
    pub human_to_move: bool,
    pub phase: Phase,
    pub cursor: Cursor,
    /// The cells of the person's move entered so far (the first `picked`).
    picks: [u8; NAMED],
    picked: u8,
    /// Which of the game's starts is being played.
    setup: u16,
    rng: Rng,
    rules: core::marker::PhantomData<T>,
}

impl<T: Placement, const N: usize, const NAMED: usize> Game<T, N, NAMED> {
    pub fn new(cfg: &Config) -> Self {
        Self::from_start(cfg, 0)
    }

    /// The game from start `setup`.
    fn from_start(cfg: &Config, setup: u16) -> Self {
        let mut g = Game {
            pos: T::CLEARED,
            human_to_move: cfg.human_first,
            phase: Phase::HumanTurn,
            cursor: Cursor::default(),
            picks: [0; NAMED],
            picked: 0,
            setup,
            rng: Rng::new(0x5EED),
            rules: core::marker::PhantomData,
        };
        T::start_at(&mut g.pos, setup);
        g.settle(cfg);
        g
    }

    /// The cells of the person's move entered so far.
    pub fn picks(&self) -> &[u8] {
        &self.picks[..self.picked as usize]
    }

    /// The cell under the cursor, in the rules' numbering.
    fn cell_at(col: u8, row: u8) -> u8 {
        row * T::STRIDE + col
    }

    /// Whose piece is on `cell`: `Some(true)` the person's, `Some(false)` the device's.
    pub fn piece(&self, cell: u8) -> Option<bool> {
        match T::holder(&self.pos, cell) {
            HELD_BY_MOVER => Some(self.human_to_move),
            HELD_BY_OTHER => Some(!self.human_to_move),
            _ => None,
        }
    }

    /// Whose turn it is now: passes made, the end found.
    fn settle(&mut self, cfg: &Config) {
        for _ in 0..2 {
            if let Some(v) = T::over(&self.pos) {
                // The verdict is for the side to move.
                let human = if self.human_to_move { v } else { v.flipped() };
                self.phase = Phase::Over(human);
                return;
            }
            if T::can_move(&self.pos) {
                self.phase = if self.human_to_move { Phase::HumanTurn } else { Phase::DeviceTurn };
                return;
            }
            if cfg.alone {
                break;
            }
            T::pass(&mut self.pos);
            self.human_to_move = !self.human_to_move;
        }
        // Neither side can move, and the endings did not say so: scored as it stands.
        let v = T::stopped(&self.pos);
        self.phase = Phase::Over(if self.human_to_move { v } else { v.flipped() });
    }

    fn end_sound(&self) -> Option<Sound> {
        match self.phase {
            Phase::Over(Verdict::Win) => Some(Sound::HumanWon),
            Phase::Over(Verdict::Loss) => Some(Sound::DeviceWon),
            Phase::Over(Verdict::Draw) => Some(Sound::Draw),
            _ => None,
        }
    }

    /// A person's input.
    pub fn input(&mut self, input: Input, cfg: &Config) -> Option<Sound> {
        match (self.phase, input) {
            // The same start again.
            (_, Input::Restart) => {
                *self = Game::from_start(cfg, self.setup);
                None
            }
            // After the end, a press plays again: the next start once this one is won.
            (Phase::Over(v), Input::Commit) => {
                // A random setup deals anew; a puzzle goes on to its next start once solved.
                let next = match (T::RANDOM_START, v) {
                    (true, _) => self.rng.below_wide(T::starts()),
                    (false, Verdict::Win) => (self.setup + 1) % T::starts(),
                    (false, _) => self.setup,
                };
                *self = Game::from_start(cfg, next);
                None
            }
            (Phase::HumanTurn, Input::Commit) => self.commit(cfg),
            (Phase::HumanTurn, moved) => {
                self.cursor.moved(moved, cfg.cols, cfg.rows);
                None
            }
            _ => None,
        }
    }

    /// A press on the cursor's cell: the move it completes is played; a cell a longer move goes
    /// on from is kept, the entry waiting for the next (a press on it again plays the move
    /// that ends there, or drops the entry); a cell that starts a move afresh starts over;
    /// any other is denied, the board and the entry unchanged.
    fn commit(&mut self, cfg: &Config) -> Option<Sound> {
        let cell = Self::cell_at(self.cursor.col, self.cursor.row);
        // A game whose moves name one cell keeps no entry: the same answer as below, in the
        // code a small chip's placements need (the entry's costs 500 bytes).
        if NAMED == 1 {
            return Some(T::find(&self.pos, &[cell]).map_or(Sound::Denied, |m| self.human_plays(m, cfg)));
        }
        // Going on from the entry (a move may name the same cell twice running: a pin knocked
        // down alone, where the pair it begins starts there too), then afresh from this cell.
        let entry = self.picked as usize;
        if entry > 0 {
            if let Some(sound) = self.go_on(cell, entry, cfg) {
                return sound;
            }
        }
        if self.picks().last() == Some(&cell) {
            return match T::entered(&self.pos, self.picks()).exact {
                Some(m) => Some(self.human_plays(m, cfg)),
                None => {
                    self.picked = 0;
                    None
                }
            };
        }
        self.go_on(cell, 0, cfg).unwrap_or(Some(Sound::Denied))
    }

    /// The entry's first `at` cells and then `cell`: the move they name played, or kept as
    /// the entry where a longer move begins with them; `None` where no move does.
    fn go_on(&mut self, cell: u8, at: usize, cfg: &Config) -> Option<Option<Sound>> {
        if at >= NAMED {
            return None;
        }
        let mut cells = self.picks;
        cells[at] = cell;
        match T::entered(&self.pos, &cells[..=at]) {
            Entered { exact: Some(m), longer: false } => Some(Some(self.human_plays(m, cfg))),
            Entered { longer: true, .. } => {
                (self.picks, self.picked) = (cells, at as u8 + 1);
                Some(None)
            }
            _ => None,
        }
    }

    /// The person's move `m`, then whose turn it is.
    fn human_plays(&mut self, m: u8, cfg: &Config) -> Sound {
        T::play(&mut self.pos, m);
        self.picked = 0;
        self.human_to_move = cfg.alone;
        self.settle(cfg);
        self.end_sound().unwrap_or(Sound::Accepted)
    }

    /// Whether a press on `cell` would go on with the person's move (or start one).
    fn goes_on(&self, cell: u8) -> bool {
        let at = (self.picked as usize).min(NAMED - 1);
        let mut cells = self.picks;
        cells[at] = cell;
        let e = T::entered(&self.pos, &cells[..=at]);
        e.exact.is_some() || e.longer
    }

    /// The device's move, searched within its time (`millis` is the clock). The display goes
    /// on refreshing from its interrupt meanwhile. The clock is a type parameter, not a `dyn`:
    /// the search's `out_of_time` is already reached through a pointer, and a second pointer
    /// call inside it is one `gamec build`'s stack bound cannot tell from a call of itself.
    pub fn device_turn(&mut self, cfg: &Config, millis: &mut impl FnMut() -> u16) -> Option<Sound> {
        if self.phase != Phase::DeviceTurn {
            return None;
        }
        let started = millis();
        let choice = match T::STRATEGY {
            Strategy::Search => {
                let mut out_of_time = || millis().wrapping_sub(started) >= cfg.think_ms;
                let mut budget = Budget::new(u32::MAX, &mut out_of_time);
                let first = if cfg.deepening { 1 } else { cfg.max_depth };
                T::search::<N>(&mut self.pos, first, cfg.max_depth, cfg.order_by_eval, &mut budget).map(|c| c.best)
            }
            Strategy::Solved => T::solved(&self.pos, &mut self.rng),
            Strategy::Random => T::random(&self.pos, &mut self.rng),
        };
        match choice {
            Some(m) => T::play(&mut self.pos, m),
            None => T::pass(&mut self.pos),
        }
        self.human_to_move = true;
        self.settle(cfg);
        self.end_sound()
    }

    pub fn tick(&mut self) {
        self.cursor.tick();
    }

    // `iter().any` where clippy asks for `contains`: on bytes that links a 286-byte memchr.
    #[allow(clippy::manual_contains)]
    pub fn frame(&self, cfg: &Config) -> Frame {
        let mut f = Frame::default();
        let winner = match self.phase {
            Phase::Over(Verdict::Win) => Some(cfg.human),
            Phase::Over(Verdict::Loss) => Some(cfg.device),
            Phase::Over(Verdict::Draw) => Some(Colour::Yellow),
            _ => None,
        };
        for row in 0..cfg.rows {
            for col in 0..cfg.cols {
                let cell = Self::cell_at(col, row);
                let c = match (self.piece(cell), T::content(&self.pos, cell)) {
                    // The cells of the person's move entered so far stand out in yellow.
                    _ if self.picks().iter().any(|&p| p == cell) => Colour::Yellow,
                    // Where the rules keep contents, the file's colour of each.
                    (_, Some(content)) => palette_colour(cfg, content),
                    (Some(true), None) => cfg.human,
                    (Some(false), None) => cfg.device,
                    (None, None) => Colour::Off,
                };
                // At the end, every cell not the winner's blinks to the winner's colour.
                let c = match winner {
                    Some(w) if c != w && self.cursor.blinking(cfg.end_ms) => w,
                    _ => c,
                };
                f.set(col, row, c);
            }
        }
        if self.phase == Phase::HumanTurn && self.cursor.blinking(cfg.cursor_ms) {
            let cell = Self::cell_at(self.cursor.col, self.cursor.row);
            // The cursor blinks to the person's colour where a press goes on with a move, else
            // to yellow.
            let alt = if self.goes_on(cell) { cfg.human } else { Colour::Yellow };
            f.set(self.cursor.col, self.cursor.row, alt);
        }
        f
    }
}

/// The file's colour of a content: a piece of a further kind in its owner's first.
fn palette_colour(cfg: &Config, c: u8) -> Colour {
    match content::kind_and_owner(c) {
        Some((_, owner)) if c >= FIRST_KIND => cfg.palette[content::piece(0, owner) as usize],
        _ => cfg.palette.get(c as usize).copied().unwrap_or(Colour::Off),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Bits, Duel};
    use crate::search::Choice;

    /// Three in a row on 3 x 3, cells at `row * 8 + col`, positions from the side to move; the
    /// device plays at random.
    struct Ttt;
    const CELLS: Bits = 0x07_0707;
    const LINES: [Bits; 8] = [0x07, 0x0700, 0x07_0000, 0x01_0101, 0x02_0202, 0x04_0404, 0x04_0201, 0x01_0204];
    impl Placement for Ttt {
        type Pos = Duel;
        const STRATEGY: Strategy = Strategy::Random;
        fn start(pos: &mut Duel) {
            *pos = START;
        }
        const CLEARED: Duel = Duel { me: 0, opp: 0 };
        fn legal_at(pos: &Duel, cell: u8) -> bool {
            Self::over(pos).is_none() && (CELLS & !(pos.me | pos.opp)) >> cell & 1 != 0
        }
        fn can_move(pos: &Duel) -> bool {
            (0..64).any(|c| Self::legal_at(pos, c))
        }
        fn holder(pos: &Duel, cell: u8) -> u8 {
            pos.holder(cell)
        }
        fn count(pos: &Duel, mover: bool) -> u8 {
            pos.count(mover)
        }
        fn play(pos: &mut Duel, cell: u8) {
            *pos = Duel { me: pos.opp, opp: pos.me | 1 << cell };
        }
        fn pass(pos: &mut Duel) {
            *pos = pos.swap();
        }
        fn over(pos: &Duel) -> Option<Verdict> {
            if has_line(pos.opp) {
                Some(Verdict::Loss)
            } else if (pos.me | pos.opp) & CELLS == CELLS {
                Some(Verdict::Draw)
            } else {
                None
            }
        }
        fn stopped(_: &Duel) -> Verdict {
            Verdict::Draw
        }
        fn search<const N: usize>(_: &mut Duel, _: u8, _: u8, _: bool, _: &mut Budget) -> Option<Choice<u8>> {
            None
        }
    }
    const CFG: Config = Config {
        cols: 3,
        rows: 3,
        human: Colour::Red,
        device: Colour::Green,
        human_first: true,
        cursor_ms: 100,
        end_ms: 100,
        think_ms: 100,
        max_depth: 2,
        deepening: false,
        order_by_eval: false,
        alone: false,
        palette: [Colour::Off; FIRST_KIND as usize],
    };
    const START: Duel = Duel { me: 0, opp: 0 };

    /// The person's pieces and the device's.
    fn sides(g: &Game<Ttt, 9>) -> (Bits, Bits) {
        if g.human_to_move {
            (g.pos.me, g.pos.opp)
        } else {
            (g.pos.opp, g.pos.me)
        }
    }

    fn has_line(b: Bits) -> bool {
        for l in LINES {
            if b & l == l {
                return true;
            }
        }
        false
    }

    #[test]
    fn a_press_places_where_legal_and_is_denied_elsewhere_then_the_device_answers() {
        let mut g = Game::<Ttt, 9>::new(&CFG);
        assert_eq!(g.input(Input::Commit, &CFG), Some(Sound::Accepted));
        assert_eq!(g.phase, Phase::DeviceTurn);
        let mut clock = 0u16;
        let mut millis = || {
            clock += 1;
            clock
        };
        assert_eq!(g.device_turn(&CFG, &mut millis), None);
        assert_eq!(g.phase, Phase::HumanTurn);
        let (human, device) = sides(&g);
        assert_eq!((human, device.count_ones()), (1, 1));
        // The top left is taken: denied, nothing changes.
        let before = g.pos;
        assert_eq!(g.input(Input::Commit, &CFG), Some(Sound::Denied));
        assert_eq!(g.pos, before);
        let f = g.frame(&CFG);
        assert_eq!(f.get(0, 0), Colour::Red);
        let at = device.trailing_zeros() as u8;
        assert_eq!(f.get(at % 8, at / 8), Colour::Green);
    }

    /// The cursor onto `name` ("B2"), a press there.
    fn press_at<T: Placement, const N: usize, const NAMED: usize>(
        g: &mut Game<T, N, NAMED>,
        name: &str,
    ) -> Option<Sound> {
        let b = name.as_bytes();
        (g.cursor.col, g.cursor.row) = (b[0] - b'A', b[1] - b'1');
        g.input(Input::Commit, &CFG)
    }

    #[test]
    fn a_move_along_a_path_is_entered_a_cell_at_a_time_and_a_wrong_cell_is_denied() {
        use crate::rules::as_placement::tests::{at, Jumps};
        const CFG6: Config = Config { cols: 6, rows: 6, ..CFG };
        let mut g = Game::<Jumps, 16, 4>::new(&CFG6);
        let start = g.pos;
        assert_eq!(press_at(&mut g, "B2"), None, "a man picked");
        assert_eq!(g.picks(), &[at("B2")]);
        assert_eq!(g.frame(&CFG6).get(1, 1), Colour::Yellow, "the pick stands out");
        assert_eq!(press_at(&mut g, "B4"), Some(Sound::Denied), "two rows on");
        assert_eq!((g.pos, g.picks()), (start, &[at("B2")][..]), "the board and the pick unchanged");
        assert_eq!(press_at(&mut g, "D2"), None, "another man picked afresh");
        assert_eq!(g.picks(), &[at("D2")]);
        assert_eq!(press_at(&mut g, "D2"), None, "pressed again: the pick dropped");
        assert_eq!((g.pos, g.picks()), (start, &[][..]));
        assert_eq!(press_at(&mut g, "C3"), Some(Sound::Denied), "an empty cell starts no move");
        press_at(&mut g, "D2");
        assert_eq!(press_at(&mut g, "E3"), Some(Sound::Accepted));
        assert_eq!((g.pos.cells[at("D2") as usize], g.picks()), (0, &[][..]));
        assert_ne!(g.pos.cells[at("E3") as usize], 0);
        assert_eq!(g.phase, Phase::DeviceTurn);
    }

    #[test]
    fn a_whole_game_ends_with_a_verdict_and_restart_begins_again() {
        let mut g = Game::<Ttt, 9>::new(&CFG);
        let mut clock = 0u16;
        let mut millis = || {
            clock += 1;
            clock
        };
        let mut guard = 0;
        while !matches!(g.phase, Phase::Over(_)) {
            guard += 1;
            assert!(guard < 20);
            // The person plays the first legal cell.
            let cell = (0..64).find(|&c| Ttt::legal_at(&g.pos, c)).unwrap();
            (g.cursor.col, g.cursor.row) = (cell % 8, cell / 8);
            g.input(Input::Commit, &CFG);
            g.device_turn(&CFG, &mut millis);
        }
        let Phase::Over(v) = g.phase else { unreachable!() };
        let (human, device) = sides(&g);
        let won = has_line;
        assert_eq!(v == Verdict::Win, won(human));
        assert_eq!(v == Verdict::Loss, won(device));
        g.input(Input::Restart, &CFG);
        assert_eq!((g.phase, g.pos), (Phase::HumanTurn, START));
    }
}

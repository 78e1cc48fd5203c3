//! Every diagnostic code the tools give, defined once with what it means and what usually
//! fixes it: call sites name a [`Code`], docs/language.md's tables of diagnostics show these
//! texts (a test holds the two equal), and `gamec explain CODE` prints them.

/// Declares [`Code`] and its texts: `CODE => "meaning", "what to do";` (the board files'
/// codes have no column of fixes: their meaning says it).
macro_rules! codes {
    ($($code:ident => $meaning:literal $(, $fix:literal)?;)*) => {
        /// A diagnostic's code: `E` an error, `W` a warning, `T` a failed game test.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $($code,)*
        }

        impl Code {
            /// Every code, in the order of the reference.
            pub const ALL: &'static [Code] = &[$(Code::$code,)*];

            /// The code as it is printed: `E0005`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$code => stringify!($code),)*
                }
            }

            /// What the code means, as the reference says it.
            pub fn meaning(self) -> &'static str {
                match self {
                    $(Code::$code => $meaning,)*
                }
            }

            /// What usually fixes it, where the reference says.
            pub fn fix(self) -> Option<&'static str> {
                match self {
                    $(Code::$code => None $(.or(Some($fix)))?,)*
                }
            }
        }
    };
}

codes! {
    E0001 => "syntax error: what was expected, and what was found",
        "compare the statement with this reference; a misspelt keyword or a missing `{`, `,` or `->` is usual";
    E0002 => "given twice: a statement that may appear once (`players`, `board`, `pieces`, `setup`, `end`, `strategy`, `eval`, `controls`, `idle` ...), a fixed and a random setup together, a player, region, action, tune, control or command named twice, a cell given two pieces, an event with two responses, `show board` twice, a card attribute's value or a `side` choice's word given twice (at the second, with a note at the first)",
        "keep one";
    E0003 => "something required is missing: `players`, `first`, `board`, `pieces`, `action` or `end`; the heaps' `setup fixed`; an `expect` in a test",
        "add it";
    E0004 => "an unknown name: player, piece, action, region, tune, control, setup function, eval feature, glyph owner, or a `play` action that is no placement or drop",
        "use a declared name; the help lists them";
    E0005 => "a number out of range, an empty range, or an option where it does not belong: more than two players, more than 6 states or a state named like a player, the piece, `empty` or `any`, several setups without names, a run outside `each row` or `each column`, per-line counts of rows compared with columns, a line of 2 to 16, a grid of 2 to 8, 1 to 8 heaps of at most 31, 1 to 12 pits a side, a pit of more than 255 counters or pits holding more than 255 in all, a sowing's capture range outside 1..255, shared pieces that do not fit, a cell not on the board, `by 0..` or `remove 0..`, a removal of more than a heap holds (`remove 32..`), `MAX < MIN`, a fixed setup that does not place every shared piece or gives the wrong number of heap sizes (a test's `from` too), directions other than 4 and 8, eval weights beyond 100, an eval condition's number beyond the most its feature counts in the game (see [`eval`](#eval)), an `eval` whose `else` is missing or not last, `lines(K of N)` with N outside 2..8 or K outside 1..N, `deepening` or `order by eval` without `search`, `ties` without `perfect`, a card attribute's bits beyond 31 or too few for its values, a card table of 0 or more than 81 cards or whose rows times columns are not its cards, notes of 0 or over 10,000 ms, idle times, serial numbers and move times",
        "use a number in the range the message gives, or drop the option";
    E0006 => "a combination this version does not support: `rows distinct` or `columns distinct` off a grid, `each row` or a cycle on heaps, several setups of heaps, a slide off a line or of per-player pieces, a placement of shared pieces or counters, shared pieces off a line, pieces `per player` on heaps, counters off heaps, capture off a grid, a drop off a grid or of shared pieces, removal off heaps, cells or placements for heaps, heap sizes off heaps, a random setup of anything but shared pieces on a line, `search` on a line, a sowing off a board of pits, a sowing option that needs stores on a board without them, `again when last in own store` without `into own store`, `pits N` off a board of pits or beside heap sizes; with a board, a cursor over heaps; from `perft`, a random setup",
        "follow the help; it names what fits";
    E0007 => "a board given where a game is expected, or the reverse",
        "pass the `.game` file, and the board with `--board`";
    E0008 => "not a note",
        "`C5`, `F#4`, `Bb3` or `rest`";
    E0009 => "a control does not fit: `commit` with an index, `extend` without one or with another index variable, a per-piece control as the wake control",
        "write `move[i] -> extend ACTION(PIECE[i])`, PIECE the game's piece (`heap` on heaps), and `go -> commit`";
    E0010 => "no control commits a move",
        "add `go -> commit`";
    E0012 => "a serial protocol problem: a bad command word, an action with the wrong argument, a missing command (`play`, `ack`, `pass` when the rules pass) or response (`unknown`, `denied`, `device moves`), a bad placeholder or board glyph, a missing glyph, a reply with control characters, or one serial block without the other",
        "follow the help";
    E0015 => "an ending that can never hold or never decide: a `line of K` that does not fit the board, `full` on heaps, `no moves` with `pass when no moves`, `most pieces` or `fewest pieces` with pieces nobody owns (shared pieces, counters in heaps that are not pits)",
        "remove or change the ending; name the winner (`mover wins`), or give the players pieces `per player`";
    E0023 => "an `eval` case that can score more than 15,999 either way: each weight's size times the most its feature counts in the game (cells, a region's cells, a side's legal moves, lines), summed, reaches a finished game's 16,000. The message gives the sum and the note the largest term",
        "scale the weights down together, by the factor the help gives";
    E0016 => "no placement of the pieces satisfies the setup, so the device would deal for ever: the comparisons leave nothing, or no start that meets them is won by the player `winnable` names. From `check` it points at the first `require`, or at the `winnable` one when that is what leaves nothing; from `analyze` and `build`, at the first requirement that, with those before it, leaves nothing",
        "loosen a requirement";
    E0017 => "the game is over before it begins: an ending holds at the start, or the first player has no legal move (a capturing placement on an empty board, say)",
        "fix the setup or the action";
    E0018 => "a `perfect` strategy on a game of more than 200,000 reachable positions",
        "use `search` with an `eval`, or `random`";
    E0019 => "play can cycle for ever in a line game, whatever its strategy: line games are solved as won or lost, which needs play that always ends (\"play can cycle forever, which a line game's won-or-lost solution cannot\"; from `analyze` and `build`, \"play can go on forever: these moves can return to a position\", with an example cycle)",
        "make every move one-way (every slide the same way along the line), or add an ending that stops repetition";
    W0019 => "play can cycle for ever in a game that is not a line game: from some positions neither side can force the end (they count as draws)",
        "as E0019, if that is not what you meant";
    W0020 => "some reachable positions leave nobody a move and no ending says who won (they count as draws)",
        "add an ending such as `no moves -> mover wins` or `full -> draw`";
    W0021 => "no control enters an action: in a game with `controls` or `controls serial`, no `extend` and no `play` names it, so only the device could play it",
        "add a control (`move[i] -> extend ACTION(PIECE[i])`) or a command (`\"MV\" cell -> play ACTION`), or remove the action";
    W0022 => "an ending never decides a game: it holds in no reachable position, or only where an earlier ending already holds",
        "remove it, or reorder the endings";
    E0020 => "a puzzle's setup has no solution: no filling of its open cells wins. It points at the setup, and at the ending the givens contradict",
        "change or remove a given";
    E0021 => "a puzzle's setup has more than one solution. The notes print two of them, and the help names the cells where they differ",
        "give one more cell, one the help names";
    E0024 => "a puzzle's setup could not be decided: the solver gave up after 300,000 judgements of partial fillings, its conditions ruling out too little before the grid is full (`analyze` prints `not decided within 300,000 judgements` for the start)",
        "give more cells, or add conditions that prune early, such as counts per row or column";
    E0022 => "`gamec generate` cannot make the starts asked for, or `gamec stickers` was given a game without cards: the game is no puzzle (no game of cards), no filling wins, or the difficulty asked for did not come within 40 tries a start",
        "ask for another level or fewer starts";
    W0023 => "a button control cannot enter every move of its action: the action's shortest move is more than one step, or a slide jumps over pieces (a press adds one step, and each press must leave a legal move)",
        "let the action take single steps (`by 1..`, `over empty`)";
    E0011 => "a display LED on a pin outside its pin list, with the same pin as anode and cathode, two LEDs on one pin pair, or numbered with a gap";
    E0101 => "an unknown chip";
    E0102 => "a pin the chip does not have, or a reserved pin (RESET)";
    E0103 => "a pin used by two devices (the serial port's pins count)";
    E0104 => "a timer claimed by two devices";
    E0105 => "a control, view, speaker, serial port or lamp the game needs that the board lacks";
    E0106 => "a button for a control the game does not have, an index out of range or where none belongs, or more than 8 buttons";
    E0107 => "a note the speaker's timer cannot play within 10 cents at the board's clock";
    E0108 => "an unknown timer or serial port, a speaker not on its timer's output pin, a timer with no tick interrupt, or a serial board without `tick`";
    E0109 => "a display whose LED count differs from the game's lights: one a cell, or on heaps one a counter of the start (\"display `cells` has 12 LEDs but the game shows 11 (a cell or a counter each)\")";
    E0110 => "a wake control on a pin that cannot wake the chip";
    E0111 => "a display spread over two ports, or a refresh rate or tick the timer cannot make within 1%";
    E0112 => "a button without `pullup`";
    E0113 => "a serial rate the board's clock cannot make within 2%";
    E0116 => "more setups than the board's 93C46 holds (8)";
    E0117 => "a game of cards on a board that gives no serial port to its `console` or `scanner` (the AVRs' glue drives one serial port, the Cortex-Ms' several), a role a game of cards does not have, or the two on one port";
    E0118 => "a game the board's display cannot show: on one-colour lights, cells that hold more than one thing (pieces of two players or kinds, states; a light shows only whether its cell holds anything) or pits that sowing fills past their lights, or more than the 56 lights a charlieplexed display on one port drives; on the matrix, a grid larger than its 8 x 8. Play it over a serial line, or with a cursor on a bicolour matrix";
    E0119 => "a game built for a board has no controls: nothing says how a person plays it (`check` without a board, `analyze`, `perft` and `test` read it all the same)";
    E0120 => "a position reached in random play offers more moves than the 256 the firmware counts (a move is a byte, its index among the position's moves): the moves past the 256th could be neither played nor accepted";
    E0121 => "a clock the chip's glue does not run it at: the LM3S6965's glue runs it from its PLL's 200 MHz over a divider of 4 to 16 (50 MHz, 40 MHz, 25 MHz, 20 MHz, 12.5 MHz and the others that divide evenly)";
    E0122 => "a `perfect` device whose solved table does not fit, with the figure: more reachable positions than the solver lists (200,000), or a position's key longer than 255 bytes; `search` plays without a table";
    W0024 => "a device that searches whose search fits only 1 or 2 plies in the chip's RAM beside the game's moves (\"the device's search fits 1 ply on the atmega16\"): it plays, but sees little ahead; a chip with more RAM searches deeper";
    W0025 => "rules whose bound on a position's moves passes the 256 the firmware counts, where random play met no such position: it builds, but a position past the bound would have its moves past the 256th never played nor accepted";
    W0026 => "a 93C46 on a board whose chip's glue drives none (the Cortex-M chips): the firmware keeps the setups in its own flash, in the same layout, and leaves the EEPROM's pins alone";
    T0001 => "a test failed: a move that cannot be played there, legal moves that differ, a move expected illegal that is legal, a game over that should go on, another result, a move the device may choose that the test does not allow (the help lists the moves it chooses among), an `expect device plays` that cannot be checked (no strategy, a `search`, a game too big to solve), or a test without a position in a game dealt at random. The help prints the position (row 1 at the top) and its legal moves";
}

impl Code {
    /// The code named `text` (`E0005`), if there is one.
    pub fn parse(text: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str().eq_ignore_ascii_case(text))
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

// A code compares with its printed form, so that a test can write `d.code == "E0005"`.
impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<Code> for &str {
    fn eq(&self, other: &Code) -> bool {
        *self == other.as_str()
    }
}

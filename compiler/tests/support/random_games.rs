//! A generator of game files (and boards to play them on) from the language's general parts:
//! lines of slides, grids of placements, drops and captures, heaps of removals, puzzles of
//! constraints, with endings, setups, strategies, controls and feedback drawn at random. Mostly valid, sometimes not (a
//! setup nothing meets, an ending that cannot hold, rules the firmware cannot play): the
//! tests hold `check`, code generation and the generated rules to what the files say.

/// A small deterministic generator (xorshift), so every run makes the same files.
pub struct Gen(u64);

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen(seed.max(1))
    }

    pub fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as u32
    }

    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(hi - lo + 1)
    }

    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u32) as usize]
    }
}

/// What kind of place a generated game is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Line,
    Grid,
    Heaps,
    /// One player filling cells to meet constraints; no firmware plays these yet.
    Puzzle,
    /// A deck of cards, a table, and a group of cards to find on it.
    Cards,
}

/// A generated game, and the board it is meant for.
pub struct Generated {
    pub kind: Kind,
    pub game: String,
    pub board: String,
}

const SILVER_DOLLAR_LEDS: [&str; 12] = [
    "PA1 > PA3",
    "PA0 > PA3",
    "PA2 > PA3",
    "PA3 > PA2",
    "PA0 > PA2",
    "PA1 > PA2",
    "PA2 > PA1",
    "PA3 > PA1",
    "PA0 > PA1",
    "PA1 > PA0",
    "PA2 > PA0",
    "PA3 > PA0",
];
const SILVER_DOLLAR_BUTTONS: [&str; 5] = ["PB0", "PB1", "PB2", "PA4", "PA7"];

/// A button board like the Silver Dollar PCB with `lights` LEDs and `inputs` per-piece buttons.
fn button_board(name: &str, lights: u32, inputs: u32) -> String {
    let mut b = format!(
        "board {name} {{\n  chip attiny84a\n  clock 8 MHz internal\n  display cells = charlieplex PA0 PA1 PA2 PA3, refresh 1000 Hz, timer0 {{\n"
    );
    for (i, led) in SILVER_DOLLAR_LEDS.iter().take(lights as usize).enumerate() {
        b += &format!("    {} = {led}\n", i + 1);
    }
    b += "  }\n";
    for (i, pin) in SILVER_DOLLAR_BUTTONS.iter().take(inputs as usize).enumerate() {
        b += &format!("  button move[{}] = {pin} pullup\n", i + 1);
    }
    b += "  button go = PA6 pullup\n  speaker = PA5, timer1\n}\n";
    b
}

fn serial_board(name: &str) -> String {
    format!(
        "board {name} {{\n  chip atmega16\n  clock 10 MHz crystal\n  serial usart 9600 baud\n  tick timer1\n  led won = PB1 active low\n  led lost = PB2 active low\n  led draw = PB3 active low\n}}\n"
    )
}

const BUTTON_FEEDBACK: &str = "  controls {\n    move[i] -> extend ACTION(PIECE[i])\n    go -> commit\n  }\n  feedback {\n    show cells = occupied\n    on attract -> animate cylon\n    on denied -> tune beep\n    on accepted -> tune click\n    on win a -> tune yes\n    on win b -> tune no\n  }\n  tune beep { A4/100 }\n  tune click { C6/8 }\n  tune yes { C5/100 E5/100 }\n  tune no { E5/100 C5/100 }\n";

fn line_game(g: &mut Gen, i: usize) -> Generated {
    let cells = g.range(4, 10);
    let pieces = g.range(1, (cells - 1).min(5));
    let from = g.pick(&["left", "right"]);
    let toward = g.pick(&["left", "right"]);
    let max = if g.chance(50) { String::new() } else { g.range(1, cells).to_string() };
    let over = if g.chance(70) { " over empty" } else { "" };
    let mut t = format!(
        "game line{i} {{\n  players a, b\n  first {}\n  board line {cells} numbered from {from}\n  pieces coin x {pieces}\n",
        g.pick(&["a", "b"])
    );
    if g.chance(70) {
        t += &format!("  setup random {{\n    require leftmost(coin) >= {}\n", g.range(1, cells + 1));
        if g.chance(50) {
            t += "    require winnable by first\n";
        }
        t += "  }\n";
    } else {
        let mut at: Vec<u32> = Vec::new();
        while at.len() < pieces as usize {
            let c = g.range(1, cells);
            if !at.contains(&c) {
                at.push(c);
            }
        }
        let at: Vec<String> = at.iter().map(u32::to_string).collect();
        t += &format!("  setup fixed {{ coin at {} }}\n", at.join(", "));
    }
    t += &format!("  action step = slide coin toward {toward} by 1..{max}{over}\n");
    if g.chance(15) {
        // The other way too: play can cycle.
        t += "  action back = slide coin toward left by 1 over empty\n";
    }
    t += match g.below(4) {
        0 => "  end { no moves -> mover loses }\n",
        1 => "  end {\n    line of 2 -> mover wins\n    no moves -> mover wins\n  }\n",
        _ => "  end { no moves -> mover wins }\n",
    };
    t += &format!("  strategy b = {}\n", g.pick(&["perfect, ties random", "perfect, ties first", "random"]));
    t += &BUTTON_FEEDBACK.replace("ACTION", "step").replace("PIECE", "coin");
    t += "}\n";
    Generated { kind: Kind::Line, game: t, board: button_board(&format!("line{i}_board"), cells.min(12), pieces) }
}

fn heaps_game(g: &mut Gen, i: usize) -> Generated {
    let heaps = g.range(1, 3);
    let sizes: Vec<u32> = (0..heaps).map(|_| g.range(1, 12 / heaps)).collect();
    let lights: u32 = sizes.iter().sum();
    let sizes_text: Vec<String> = sizes.iter().map(u32::to_string).collect();
    let max = if g.chance(50) { String::new() } else { g.range(1, 3).to_string() };
    let mut t = format!(
        "game heaps{i} {{\n  players a, b\n  first {}\n  board heaps {heaps}\n  pieces counter\n  setup fixed {{ heaps {} }}\n  action take = remove 1..{max} from heap\n",
        g.pick(&["a", "b"]),
        sizes_text.join(", ")
    );
    t += if g.chance(75) { "  end { no moves -> mover wins }\n" } else { "  end { no moves -> next wins }\n" };
    t += &format!("  strategy b = {}\n", g.pick(&["perfect, ties random", "perfect, ties first", "random"]));
    t += &BUTTON_FEEDBACK.replace("ACTION", "take").replace("PIECE", "heap");
    t += "}\n";
    Generated { kind: Kind::Heaps, game: t, board: button_board(&format!("heaps{i}_board"), lights, heaps) }
}

fn grid_game(g: &mut Gen, i: usize) -> Generated {
    let (cols, rows) = (g.range(3, 5), g.range(3, 5));
    let col = |c: u32| (b'A' + c as u8) as char;
    let capture = g.chance(30);
    let drop = !capture && g.chance(40);
    let mut t =
        format!("game grid{i} {{\n  players a, b\n  first a\n  board grid {cols} x {rows}\n  pieces disc per player\n");
    if g.chance(40) {
        t += &format!("  region corners = A1, {}1, A{rows}, {}{rows}\n", col(cols - 1), col(cols - 1));
    }
    if capture {
        // The four middle cells, as Othello starts.
        let (c, r) = (cols / 2, rows / 2);
        t += &format!(
            "  setup fixed {{\n    a at {}{}, {}{}\n    b at {}{}, {}{}\n  }}\n",
            col(c - 1),
            r + 1,
            col(c),
            r,
            col(c - 1),
            r,
            col(c),
            r + 1
        );
        t += &format!(
            "  action put = place disc on empty capturing flanked lines in {} directions\n",
            g.pick(&["4", "8"])
        );
    } else if drop {
        t += "  action put = drop disc into column\n";
    } else {
        t += "  action put = place disc on empty\n";
    }
    if capture && g.chance(70) {
        t += "  pass when no moves\n";
        t += "  end { neither can move -> most pieces wins }\n";
    } else {
        let k = g.range(3, cols.max(rows).min(4));
        t += "  end {\n";
        t += &format!("    line of {k}{} -> mover wins\n", if g.chance(30) { " in 4 directions" } else { "" });
        if t.contains("region corners") && g.chance(50) {
            t += "    count(mover in corners) >= 3 -> mover wins\n";
        }
        if capture {
            t += "    no moves -> mover wins\n";
        } else {
            t += "    full -> draw\n";
        }
        t += "  }\n";
    }
    let strategy = match g.below(3) {
        0 if cols * rows <= 9 => "perfect, ties random",
        0 | 1 => "search, deepening, order by eval",
        _ => "random",
    };
    t += &format!("  strategy device = {strategy}\n");
    if strategy.starts_with("search") {
        t += &eval(g, cols, rows, t.contains("region corners"), capture);
    }
    let arg = if drop { "column" } else { "cell" };
    let shows = if drop { "{column}" } else { "{cell}" };
    t += &format!(
        "  controls serial {{\n    \"AT\" -> ping\n    \"SP\" side {{ \"A\" = a, \"B\" = b }} -> host plays side\n    \"NG\" -> new game\n    \"MV\" {arg} -> play put\n{}    \"OK\" -> ack\n  }}\n",
        if t.contains("pass when") { "    \"PS\" -> pass\n" } else { "" }
    );
    t += &format!(
        "  feedback serial {{\n    on pick side -> \"Pick\"\n    on your turn -> board, \"Go\"\n    on denied -> \"IL\"\n    on unknown -> \"ER\"\n    on device moves -> \"MM {shows}\", await\n    on game over -> board\n    on win device -> \"I win\", light won\n    on win host -> \"You win\", light lost\n    on draw -> \"Draw\", light draw\n    show board = text {{ a \"A\", b \"B\", empty \"-\", legal \".\" }}\n  }}\n"
    );
    t += "}\n";
    Generated { kind: Kind::Grid, game: t, board: serial_board(&format!("grid{i}_board")) }
}

/// A search's `eval`: up to two `when` cases on a feature's threshold, then `else`, each a sum
/// of one to three weighted features (pieces, mobility, empty cells, the corners if the game
/// has them, and on a game without captures `lines(K of N)` windows that fit the board).
/// Weights stay within -9..9 so that the summed range stays far inside the search's win score.
/// A flanking game keeps to the features an AVR chip's byte board reads (no `lines`).
fn eval(g: &mut Gen, cols: u32, rows: u32, corners: bool, capture: bool) -> String {
    let mut features = vec!["pieces".to_string(), "mobility".to_string(), "empty".to_string()];
    if corners {
        features.push("corners".to_string());
    }
    let mut thresholds = features.clone();
    if !capture {
        let longest = cols.max(rows).min(4);
        for _ in 0..2 {
            let of = g.range(2, longest);
            features.push(format!("lines({} of {of})", g.range(1, of)));
        }
    }
    let terms = |g: &mut Gen| -> String {
        let mut out = String::new();
        for k in 0..g.range(1, 3) {
            let f = &features[g.below(features.len() as u32) as usize];
            let w = g.range(1, 9);
            let negative = g.chance(30);
            let term = if w == 1 && g.chance(30) { f.clone() } else { format!("{w} * {f}") };
            out += &match (k, negative) {
                (0, false) => term,
                (0, true) => format!("-{term}"),
                (_, false) => format!(" + {term}"),
                (_, true) => format!(" - {term}"),
            };
        }
        out
    };
    let mut text = "  eval {\n".to_string();
    for _ in 0..g.below(3) {
        let f = thresholds.remove(g.below(thresholds.len() as u32) as usize);
        // The grammar's thresholds are unsigned.
        let n = if f == "empty" { g.range(0, cols * rows) } else { g.range(0, 3) };
        let op = g.pick(&[">", ">=", "<", "<=", "==", "!="]);
        text += &format!("    when {f} {op} {n}: {}\n", terms(g));
    }
    text += &format!("    else: {}\n  }}\n", terms(g));
    text
}

/// The `i`-th generated game of the sequence that starts from `seed`.
pub fn generate(seed: u64, i: usize) -> Generated {
    let mut g = Gen::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    match g.below(3) {
        0 => line_game(&mut g, i),
        1 => grid_game(&mut g, i),
        _ => heaps_game(&mut g, i),
    }
}

/// The `i`-th generated puzzle from `seed`: a small grid of two states, a random handful of
/// Binario-like constraints (counts and runs per line, distinct lines, full or not), and one
/// to three named setups of random givens. Many have no solution or several; some have one.
pub fn generate_puzzle(seed: u64, i: usize) -> Generated {
    let mut g = Gen::new(seed ^ (i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let (cols, rows) = (g.range(3, 4), g.range(3, 4));
    let names = [g.pick(&["red", "dark", "x"]), g.pick(&["green", "light", "o"])];
    let col = |c: u32| (b'A' + c as u8) as char;
    let mut t = format!("game puzzle{i} {{\n  players solver\n  board grid {cols} x {rows}\n");
    t += &format!("  states {}, {}\n", names[0], names[1]);
    let cycle = if g.chance(80) { "empty, " } else { "" };
    t += &format!("  action paint = cycle free cell through {cycle}{}, {}\n", names[0], names[1]);
    let mut conditions = Vec::new();
    if g.chance(70) {
        conditions.push("full".to_string());
    }
    let line = |g: &mut Gen| g.pick(&["each row", "each column"]);
    for _ in 0..g.range(1, 3) {
        let c = match g.below(4) {
            0 => format!("count({} in {}) <= {}", names[0], line(&mut g), g.range(1, 3)),
            1 => format!("count({} in {}) >= 1", g.pick(&names), line(&mut g)),
            2 => format!("run(any in {}) <= 2", line(&mut g)),
            _ => g.pick(&["rows distinct", "columns distinct"]).to_string(),
        };
        conditions.push(c);
    }
    t += &format!("  end {{\n    {} -> solver wins\n  }}\n", conditions.join(" and "));
    for k in 0..if g.chance(70) { 1 } else { 3 } {
        t += &format!("  setup fixed \"t{k}\" {{\n");
        // Distinct random cells, split between the two states.
        let mut cells: Vec<u32> = (0..cols * rows).collect();
        for j in (1..cells.len()).rev() {
            cells.swap(j, g.below(j as u32 + 1) as usize);
        }
        // Often all cells but one: then a unique solution is likely.
        let given = if g.chance(60) { cols * rows - 1 } else { g.range(cols * rows / 2, cols * rows - 2) } as usize;
        // Mostly a checkerboard, which keeps runs short and lines apart; sometimes anything.
        let state_of = |g: &mut Gen, c: u32| if g.chance(85) { (c % cols + c / cols) % 2 } else { g.below(2) };
        let chosen: Vec<(u32, u32)> = cells[..given].iter().map(|&c| (c, state_of(&mut g, c))).collect();
        let a: Vec<u32> = chosen.iter().filter(|x| x.1 == 0).map(|x| x.0).collect();
        let b: Vec<u32> = chosen.iter().filter(|x| x.1 == 1).map(|x| x.0).collect();
        for (state, at) in names.iter().zip([&a, &b]) {
            if !at.is_empty() {
                let at: Vec<String> = at.iter().map(|&c| format!("{}{}", col(c % cols), c / cols + 1)).collect();
                t += &format!("    {state} at {}\n", at.join(", "));
            }
        }
        t += "  }\n";
    }
    t += "}\n";
    Generated { kind: Kind::Puzzle, game: t, board: serial_board(&format!("puzzle{i}_board")) }
}

/// The `i`-th generated game of cards from `seed`: two to four attributes of two to four
/// values each, in bit fields laid from bit 0 up with the odd spare bit or gap (codes of at
/// most 16 bits), a table of rows x columns, and a group of two to four cards under a rule
/// for every attribute or rules for some (`all same`, `all different`, `all same or all
/// different`; an attribute no rule names is free). Sometimes invalid: a group that cannot
/// all differ in an attribute with too few values, a group larger than the table.
pub fn generate_cards(seed: u64, i: usize) -> Generated {
    let mut g = Gen::new(seed ^ (i as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    let mut t = format!("game cards{i} {{\n  cards {{\n");
    let attributes = g.range(2, 4);
    let mut values = Vec::new();
    let mut lo = 0;
    for a in 0..attributes {
        let n = g.range(2, 4);
        values.push(n);
        let width = if n <= 2 { 1 } else { 2 } + u32::from(g.chance(15));
        let names: Vec<String> = (0..n).map(|k| format!("p{a}v{k}")).collect();
        let (hi, lo_bit) = (lo + width - 1, lo);
        t += &format!("    p{a} = {} at bits {hi}..{lo_bit}\n", names.join(", "));
        lo += width + u32::from(g.chance(15));
    }
    t += "  }\n";
    let (rows, cols) = (g.range(1, 4), g.range(2, 7));
    t += &format!("  table {} as {rows} x {cols}\n", rows * cols);
    let size = g.range(2, 4);
    let relations = ["all same", "all different", "all same or all different"];
    // `all different` mostly where the attribute has the values for it.
    let relation = |g: &mut Gen, values: u32| loop {
        let r = g.pick(&relations);
        if r != "all different" || values >= size || g.chance(5) {
            break r;
        }
    };
    let rule = if g.chance(40) {
        let fewest = *values.iter().min().unwrap();
        format!("every attribute is {}", relation(&mut g, fewest))
    } else {
        let mut rules = Vec::new();
        for (a, &n) in values.iter().enumerate() {
            if rules.is_empty() || g.chance(70) {
                rules.push(format!("p{a} is {}", relation(&mut g, n)));
            }
        }
        rules.join(" and ")
    };
    t += &format!("  group g = {size} cards where {rule}\n}}\n");
    Generated { kind: Kind::Cards, game: t, board: String::new() }
}

/// The `i`-th generated game of pieces that move by themselves, from `seed`: a small grid
/// (sometimes with a corner cut away), one or two kinds of piece per player set out on the
/// first and last rows, steps, jumps and rides in random directions onto random targets, with
/// captures, chains, `must` and promotion here and there, and endings of reaching a region or
/// leaving the opponent no move, and half of them an `eval`. Many are odd; `check` decides
/// which are games.
pub fn generate_moving(seed: u64, i: usize) -> Generated {
    let mut g = Gen::new(seed ^ (i as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    let (cols, rows) = (g.range(3, 6), g.range(4, 6));
    let col = |c: u32| (b'A' + c as u8) as char;
    let kinds = if g.chance(50) { "man, king" } else { "man" };
    let mut t = format!("game moving{i} {{\n  players white, black\n  first white\n  board grid {cols} x {rows}");
    let corner = format!("{}{rows}", col(cols - 1));
    let cut = g.chance(25);
    if cut {
        t += &format!(" without {corner}");
    }
    t += &format!("\n  pieces {kinds} per player\n  setup fixed {{\n");
    let row = |r: u32| (0..cols).map(|c| format!("{}{}", col(c), r)).collect::<Vec<_>>();
    let white: Vec<String> = row(1).into_iter().filter(|_| g.chance(70)).collect();
    let black: Vec<String> = row(rows).into_iter().filter(|c| *c != corner).collect();
    let white = if white.is_empty() { vec!["A1".to_string()] } else { white };
    t += &format!("    white at {}\n    black at {}\n  }}\n", white.join(", "), black.join(", "));
    let dirs = [
        "forward",
        "diagonally forward",
        "forward or diagonally forward",
        "sideways",
        "orthogonally",
        "diagonally",
        "in any direction",
        "backward",
    ];
    let targets = ["empty", "enemy", "empty or enemy"];
    for a in 0..g.range(1, 3) {
        let kind = if kinds.contains("king") && g.chance(30) { "king" } else { "man" };
        let dir = g.pick(&dirs);
        let must = if g.chance(20) { "must " } else { "" };
        let form = match g.below(3) {
            0 => format!("{must}step {kind} {dir} to {}", g.pick(&targets)),
            1 => {
                let over = g.pick(&["enemy", "own", "any"]);
                let capturing = if g.chance(60) { ", capturing" } else { "" };
                let chained = if g.chance(40) { ", chained" } else { "" };
                format!("{must}jump {kind} {dir} over {over} to empty{capturing}{chained}")
            }
            _ => format!("{must}ride {kind} {dir} to {}", g.pick(&targets)),
        };
        t += &format!("  action a{a} = {form}\n");
    }
    if kinds.contains("king") && g.chance(60) {
        t += "  promote man to king on far row\n";
    }
    let goal: Vec<String> = row(rows).into_iter().filter(|c| !cut || *c != corner).collect();
    t += &format!("  region white_goal = {}\n  region black_goal = {}\n", goal.join(", "), row(1).join(", "));
    // Half of them with an `eval`, drawn apart so that the rules are as without one.
    let mut e = Gen::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xE7A1);
    if e.chance(50) {
        t += &eval(&mut e, cols, rows, false, false);
    }
    t += "  end {\n";
    if g.chance(60) {
        t += "    count(white in white_goal) > 0 -> white wins\n    count(black in black_goal) > 0 -> black wins\n";
    }
    t += &format!("    no moves -> mover {}\n  }}\n}}\n", g.pick(&["wins", "loses"]));
    Generated { kind: Kind::Grid, game: t, board: serial_board(&format!("moving{i}")) }
}

/// The rules of a generated sowing game ([`generate_sowing`]), as a test's own reading of them
/// needs them.
#[derive(Clone, Copy, Debug)]
pub struct Sowing {
    pub per_side: u32,
    pub stores: bool,
    pub into_store: bool,
    pub again: bool,
    pub opposite: bool,
    /// `capturing MIN..MAX`.
    pub making: Option<(u8, u8)>,
    pub skip_origin: bool,
    /// How the game ends besides the player to move having no move: Kalah's either side
    /// empty, or Oware's store past a count.
    pub ends: SowingEnd,
}

/// An ending of a sowing game besides no moves.
#[derive(Clone, Copy, Debug)]
pub enum SowingEnd {
    NoMoves,
    EitherSideEmpty,
    StorePast(u8),
}

/// The `i`-th generated sowing game from `seed`: a board of 2 to 6 pits a side, with stores or
/// without, 1 to 5 counters a pit, sowing options drawn at random (those that need stores only
/// where there are stores; `again` only with `into own store`), an ending of no moves, and a
/// serial interface; with its rules, for a test's own reading of them.
pub fn generate_sowing(seed: u64, i: usize) -> (Generated, Sowing) {
    let mut g = Gen::new(seed ^ (i as u64).wrapping_mul(0x94D0_49BB_1331_11EB));
    let per_side = g.range(2, 6);
    let stores = g.chance(75);
    let into_store = stores && g.chance(60);
    let again = into_store && g.chance(60);
    let (opposite, making) = match (stores, g.below(3)) {
        (true, 0) => (true, None),
        (true, 1) => {
            let min = g.range(1, 3) as u8;
            (false, Some((min, min + g.below(3) as u8)))
        }
        _ => (false, None),
    };
    let skip_origin = g.chance(40);
    let rules = Sowing { per_side, stores, into_store, again, opposite, making, skip_origin, ends: SowingEnd::NoMoves };
    let mut options = String::new();
    if into_store {
        options += ", into own store";
    }
    if again {
        options += ", again when last in own store";
    }
    if opposite {
        options += ", capturing opposite";
    }
    if let Some((min, max)) = making {
        options += &format!(", capturing {min}..{max}");
    }
    if skip_origin {
        options += ", skipping origin";
    }
    let with_stores = if stores { " with stores" } else { "" };
    let mut t = format!(
        "game sowing{i} {{\n  players south, north\n  first {}\n  board pits {per_side} per side{with_stores}\n  pieces seed\n  setup fixed {{ pits {} }}\n  action sow = sow from own pit{options}\n",
        g.pick(&["south", "north"]),
        g.range(1, 5),
    );
    t += match g.below(3) {
        0 => "  end { no moves -> mover wins }\n",
        1 => "  end { no moves -> next wins }\n",
        _ => "  end { no moves -> most pieces wins }\n",
    };
    t += &format!("  strategy north = {}\n", g.pick(&["search, deepening", "search", "random"]));
    t += "  controls serial {\n    \"MV\" move -> play\n    \"NG\" -> new game\n    \"OK\" -> ack\n  }\n";
    t += "  feedback serial {\n    on your turn -> board, \"Your move\"\n    on moved -> \"OK\"\n    on denied -> \"IL\"\n    on unknown -> \"ER\"\n    on device moves -> \"MM {cell}\", await\n    on win device -> board, \"WN\", await\n    on win host -> board, \"LS\", await\n    on draw -> board, \"TE\", await\n    show board = text { seed \"o\" }\n  }\n}\n";
    let board = format!(
        "board sowing{i}_netduinoplus2 {{\n  chip stm32f405\n  clock 168 MHz internal\n  serial usart1 115200 baud\n}}\n"
    );
    (Generated { kind: Kind::Heaps, game: t, board }, rules)
}

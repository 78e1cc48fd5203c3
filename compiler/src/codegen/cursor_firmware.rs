//! The firmware of a puzzle played with a cursor: the game module (its colours, cycle, show,
//! font and tunes), the board module (pins, tick and speaker), and a main loop composed from
//! what the game's controls bind to on the board: each encoder turns into cursor moves, each
//! button into a commit or a restart, the matrix shows the app's picture from the tick
//! interrupt, and the setups come from the EEPROM (or flash, on a board without one).

use super::board::{mask, port as port_of};
use super::origin::described;
use super::{int, raw_bytes, upper_idents, Origin};
use crate::bind::cursor::{eeprom_image, CursorTarget};
use crate::bind::Target;
use gamec_dsl::{content, Colour, ControlAction, EventKind, GameDef, Pin, Response, SceneDef, ViewSource};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

fn colour(c: Colour) -> TokenStream {
    match c {
        Colour::Off => quote!(Colour::Off),
        Colour::Red => quote!(Colour::Red),
        Colour::Green => quote!(Colour::Green),
        Colour::Yellow => quote!(Colour::Yellow),
    }
}

/// A content number as the runtime's puzzle codes it: 0 empty, 1 and 2 the two states.
fn code(v: u8) -> u8 {
    if v >= content::state(0) {
        v - content::state(0) + 1
    } else {
        0
    }
}

/// `src/game.rs`; without a target (on the host), no tunes.
/// A scrolled text laid out as the runtime's `Scene::Scroll` reads it: the width in columns
/// (little-endian), each glyph's columns then a blank one, then a bit a column (column i in bit
/// i % 8 of byte i / 8) set where the column is in the second colour (every other glyph).
fn scroll_layout(glyphs: &[&[u8]]) -> Vec<u8> {
    let mut columns = Vec::new();
    let mut second = Vec::new();
    for (i, g) in glyphs.iter().enumerate() {
        for &c in g.iter().chain([0].iter()) {
            columns.push(c);
            second.push(i % 2 == 1);
        }
    }
    let width = u16::try_from(columns.len()).expect("a scrolled text is far narrower than 65,535 columns");
    let mut bytes = width.to_le_bytes().to_vec();
    bytes.extend(&columns);
    bytes.extend(second.chunks(8).map(|bits| bits.iter().rev().fold(0u8, |b, &odd| b << 1 | odd as u8)));
    bytes
}

pub fn game_module(game: &GameDef, target: Option<&Target>, origin: Origin) -> TokenStream {
    let no_tunes = Vec::new();
    let target_tunes = target.map_or(&no_tunes, |t| &t.tunes);
    let (cols, rows) = game.rules.columns_and_rows().expect("bind checked a line or a grid");
    let (cols, rows, starts) = (int(cols), int(rows), int(game.rules.setup.fixed().len()));
    let order = game.rules.moves.iter().find_map(|m| match m.kind {
        gamec_dsl::MoveKind::Cycle { order, .. } => Some(order),
        _ => None,
    });
    let next: Vec<_> = (0..3u8)
        .map(|c| {
            let v = if c == 0 { content::EMPTY } else { content::state(c as usize - 1) };
            int(order.and_then(|o| o.next(v)).map_or(c, code))
        })
        .collect();
    let colours = game.interface.views.iter().find_map(|v| match v.source {
        ViewSource::Colours(c) => Some(c),
        _ => None,
    });
    let shown: Vec<_> = [content::EMPTY, content::state(0), content::state(1)]
        .into_iter()
        .map(|v| colour(colours.map_or(Colour::Off, |c| c.of(v))))
        .collect();
    let cursor = game.interface.cursor.as_ref();
    let given = colour(cursor.map_or(Colour::Yellow, |c| c.given));
    let cursor_ms = int(cursor.map_or(250, |c| c.blink_ms));
    let event = |k: EventKind| game.interface.events.iter().find(|e| e.event == k);
    let choose_ms = int(event(EventKind::Choosing)
        .and_then(|e| match e.response {
            Response::Blink(ms) => Some(ms),
            _ => None,
        })
        .unwrap_or(0));
    let win = event(EventKind::Win(0));
    let (victory_colour, victory_ms) = win.and_then(|e| e.flash).unwrap_or((Colour::Off, 0));
    let (victory_colour, victory_ms) = (colour(victory_colour), int(victory_ms));
    let config_doc = described(
        &["The puzzle as the cursor plays it: its grid, its cycle of contents and their colours."],
        origin
            .quote_all(game.rules.moves.iter().map(|m| m.span).chain(game.interface.views.iter().map(|v| v.name.span))),
    );

    let mut texts = Vec::new();
    let scenes: Vec<TokenStream> = game
        .interface
        .intro
        .iter()
        .map(|s| match s {
            SceneDef::Starburst { step_ms, colours } => {
                let (step, a, b) = (int(*step_ms), colour(colours[0]), colour(colours[1]));
                quote!(Scene::Starburst { step_ms: #step, colours: [#a, #b] })
            }
            SceneDef::Scroll { glyphs, step_ms, colours } => {
                let name = format_ident!("TEXT_{}", texts.len() + 1);
                let glyph_columns: Vec<&[u8]> = glyphs.iter().map(|&g| &game.interface.font[g].columns[..]).collect();
                let bytes = scroll_layout(&glyph_columns);
                let (n, text) = (int(bytes.len()), raw_bytes(&bytes));
                let spelled: String = glyphs.iter().map(|&g| game.interface.font[g].name).collect();
                let text_doc = format!(" \"{spelled}\", laid out in the font's columns.");
                texts.push(quote! {
                    #[doc = #text_doc]
                    #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
                    static #name: [u8; #n] = #text;
                });
                let (step, a, b) = (int(*step_ms), colour(colours[0]), colour(colours[1]));
                quote!(Scene::Scroll { text: &#name, step_ms: #step, colours: [#a, #b] })
            }
        })
        .collect();
    let nscenes = int(scenes.len());

    // Tunes, and the sounds that play them.
    let (tunes, sound) = tunes(game, target_tunes, origin);
    let (start, accepted, denied, victory) =
        (sound(EventKind::Start), sound(EventKind::Accepted), sound(EventKind::Denied), sound(EventKind::Win(0)));
    let use_note = (!target_tunes.is_empty()).then(|| {
        quote!(
            use gamec_runtime::tune::Note;
        )
    });

    // Without an EEPROM on the board, the setups are kept in flash in the same layout.
    let flash_starts = target.and_then(|t| t.cursor.as_ref()).filter(|c| c.eeprom.is_none()).map(|_| {
        let image = eeprom_image(game);
        let rows = image.chunks(16).take(game.rules.setup.fixed().len()).map(raw_bytes);
        quote! {
            /// The setups, in the 93C46's layout: the solution's first state, then the givens.
            #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
            pub static STARTS: [[u8; 16]; #starts] = [#(#rows),*];
        }
    });

    quote! {
        //! The puzzle, its show and its sounds, as the cursor firmware plays them.
        use gamec_runtime::intro::{Scene, Show};
        use gamec_runtime::matrix::Colour;
        use gamec_runtime::puzzle::Config;
        use gamec_runtime::puzzle_app::Sounds;
        #use_note

        #config_doc
        pub const CONFIG: Config = Config {
            cols: #cols,
            rows: #rows,
            starts: #starts,
            next: [#(#next),*],
            colours: [#(#shown),*],
            given_colour: #given,
            cursor_ms: #cursor_ms,
            choose_ms: #choose_ms,
            victory_ms: #victory_ms,
            victory_colour: #victory_colour,
        };

        #(#texts)*

        /// The start-up show, in program memory: the show reads a scene at a time.
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        pub static SCENES: [Scene; #nscenes] = [#(#scenes),*];
        pub static SHOW: Show = Show { scenes: &SCENES, cols: #cols, rows: #rows };

        #(#tunes)*

        pub static SOUNDS: Sounds = Sounds { start: #start, accepted: #accepted, denied: #denied, victory: #victory };

        #flash_starts
    }
}

/// The tunes as program-memory tables, and for an event the tune it plays (`Some(&TUNE_X)`)
/// or `None`. Every firmware with a speaker renders its tunes with this.
pub(super) fn tunes<'a>(
    game: &'a GameDef,
    target_tunes: &'a [Vec<(u8, u16, u16)>],
    origin: Origin,
) -> (Vec<TokenStream>, impl Fn(EventKind) -> TokenStream + 'a) {
    let names = upper_idents("TUNE_", game.interface.tunes.iter().map(|t| t.name.node.as_str()));
    let items = target_tunes
        .iter()
        .enumerate()
        .map(|(i, notes)| {
            let name = &names[i];
            let n = int(notes.len());
            let notes = notes.iter().map(|&(clock, top, ms)| {
                let (clock, top, ms) = (int(clock), int(top), int(ms));
                quote! { Note { top: #top, clock: #clock, millis: #ms } }
            });
            let d = described(&[], game.interface.tunes.get(i).map_or_else(Vec::new, |t| origin.quote(t.name.span)));
            quote! {
                #d
                #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
                pub static #name: [Note; #n] = [#(#notes),*];
            }
        })
        .collect();
    let sound = move |k: EventKind| match game.interface.events.iter().find(|e| e.event == k).map(|e| &e.response) {
        Some(Response::Tune(t)) if !target_tunes.is_empty() => {
            let name = &names[*t];
            quote!(Some(&#name))
        }
        _ => quote!(None),
    };
    (items, sound)
}

/// `src/front.rs` of a two-player game: how the cursor plays it, and its sounds.
pub fn duel_front_module(game: &GameDef, target: &Target, origin: Origin) -> TokenStream {
    let (cols, rows) = game.rules.columns_and_rows().expect("bind checked a line or a grid");
    let duel = target.cursor.as_ref().and_then(|c| c.duel.as_ref()).expect("a duel");
    // Alone, the person is the puzzle's one player.
    let human = duel.device.map_or(0, |d| 1 - d);
    let colours = game.interface.views.iter().find_map(|v| match v.source {
        ViewSource::Colours(c) => Some(c),
        _ => None,
    });
    let colour_of = |p: usize| colours.map_or(Colour::Off, |c| c.of(content::piece(p)));
    // The end fills the grid with the winner's colour: a puzzle's solver without pieces
    // shows green when solved; a loss shows another colour (and a stop, yellow).
    let (human_colour, device_colour) = match duel.device {
        // Shared pieces (a line's pins) have no owner to take a colour from: the person's is
        // red and the device's green.
        Some(_) if !game.rules.piece.per_player => (colour(Colour::Red), colour(Colour::Green)),
        Some(d) => (colour(colour_of(human)), colour(colour_of(d))),
        None => {
            let solved = Some(colour_of(human)).filter(|&c| c != Colour::Off).unwrap_or(Colour::Green);
            (colour(solved), colour(if solved == Colour::Red { Colour::Green } else { Colour::Red }))
        }
    };
    // Each content's colour, for the rule core's positions, which keep contents.
    let palette =
        (0..gamec_runtime::rules::content::FIRST_KIND).map(|c| colour(colours.map_or(Colour::Off, |k| k.of(c))));
    let alone = duel.device.is_none();
    let human_first = game.rules.first == human;
    let cursor_ms = int(game.interface.cursor.as_ref().map_or(250, |c| c.blink_ms));
    let end_ms = int(game.interface.events.iter().find_map(|e| e.flash.map(|f| f.1)).unwrap_or(300));
    let think_ms = int(game
        .interface
        .serial
        .iter()
        .flat_map(|s| &s.commands)
        .find_map(|c| match c.action {
            gamec_dsl::SessionAction::MoveTime { default } => Some(default * 1000),
            _ => None,
        })
        .unwrap_or(2000)
        .min(60_000));
    let strategy = game.device.strategy.as_ref();
    let (deepening, order) = (strategy.is_some_and(|s| s.deepening), strategy.is_some_and(|s| s.order_by_eval));
    let (cols, rows) = (int(cols), int(rows));
    let (tunes, sound) = tunes(game, &target.tunes, origin);
    let use_note = (!target.tunes.is_empty()).then(|| {
        quote!(
            use gamec_runtime::tune::Note;
        )
    });
    let (accepted, denied, won, lost) = (
        sound(EventKind::Accepted),
        sound(EventKind::Denied),
        sound(EventKind::Win(human)),
        duel.device.map_or(quote!(None), |d| sound(EventKind::Win(d))),
    );
    let doc = described(
        &["The game played with a cursor against the device: colours, blinks and its thinking time."],
        origin.quote_all(
            game.interface.views.iter().map(|v| v.name.span).chain(game.device.strategy.iter().map(|s| s.span)),
        ),
    );
    quote! {
        //! How the cursor plays the game's rules (`game.rs`) against the device, and its sounds.
        use gamec_runtime::duel_cursor::{Config, Sound};
        use gamec_runtime::matrix::Colour;
        use gamec_runtime::tune::Tune;
        #use_note

        #doc
        pub const CONFIG: Config = Config {
            cols: #cols,
            rows: #rows,
            human: #human_colour,
            device: #device_colour,
            human_first: #human_first,
            cursor_ms: #cursor_ms,
            end_ms: #end_ms,
            think_ms: #think_ms,
            max_depth: crate::board::SEARCH_DEPTH,
            deepening: #deepening,
            order_by_eval: #order,
            alone: #alone,
            palette: [#(#palette),*],
        };

        #(#tunes)*

        /// The tune of each sound.
        pub fn tune(s: Sound) -> Option<Tune> {
            match s {
                Sound::Accepted => #accepted,
                Sound::Denied => #denied,
                Sound::HumanWon => #won,
                Sound::DeviceWon => #lost,
                Sound::Draw => None,
            }
        }
    }
}

/// What a cursor board's module holds on every chip: the matrix's type and lines, the
/// search's limits for a game against the device, the matrix itself, and `setup_pins`, which
/// sets the board's output pins up a port at a time (`when` says when it may be called).
pub(super) fn cursor_board(t: &Target, byte_board: bool, when: &str) -> TokenStream {
    let c = t.cursor.as_ref().expect("a cursor target");
    // The matrix's and the 93C46's pins made outputs a port's direction register at a time,
    // written whole from reset: the 93C46's DO stays the input without pull-up it is at reset.
    let outputs = port_masks(board_outputs(c)).map(|(port, mask)| quote!(#port.set_from_reset(#mask, 0);));
    let search = c.duel.as_ref().map(|_| {
        let (moves, depth) = super::board::search_limits(t, byte_board);
        let (moves, depth) = (int(moves), int(depth));
        quote! {
            /// Moves the search keeps a position, and its deepest ply, for the chip's RAM.
            pub const SEARCH_MOVES: usize = #moves;
            pub const SEARCH_DEPTH: u8 = #depth;
        }
    });
    let (ncols, lines) = (int(c.matrix.red.len()), matrix_lines(&c.matrix));
    let safety = format!(" {when}");
    quote! {
        pub type Display = Matrix<Pins, #ncols>;

        #lines

        #search

        /// The matrix. Its pins are set up by [`setup_pins`].
        pub const DISPLAY: Display = Matrix::idle(Pins);

        /// Makes the matrix's pins (and any 93C46's) outputs, a port at a time.
        ///
        /// # Safety
        #[doc = #safety]
        pub unsafe fn setup_pins() {
            // SAFETY: as the caller promises.
            unsafe {
                #(#outputs)*
            }
        }
    }
}

/// `src/board.rs` on an AVR.
pub fn board_module(t: &Target, byte_board: bool) -> TokenStream {
    let c = t.cursor.as_ref().expect("a cursor target");
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let m = &c.matrix;
    let (config, chip_type) = super::board::avr_config(t, (m.tick_clock, m.tick_top, m.tick_millis));
    let wires = c.eeprom.map(|pins| eeprom_wires(pins, m, t.clock_hz));
    let board = cursor_board(
        t,
        byte_board,
        "First thing after reset, before interrupts are enabled: the ports are written whole.",
    );
    quote! {
        //! The board's wiring: the tick, the speaker's timer output, and the matrix's pins.
        use gamec_runtime::chip::TickRate;
        use gamec_runtime::chip::avr::AvrPort;
        use gamec_runtime::chip::#chip::{Config, Port};
        use gamec_runtime::matrix::{Lines, Matrix};

        #config

        #chip_type

        #wires

        #board
    }
}

/// `src/main.rs`: the inputs the game's controls bind to, read every millisecond into the app.
/// What the main loop says to the app it drives: a puzzle's or a two-player game's.
struct AppCalls {
    uses: TokenStream,
    /// Before the loop: the app and what it needs.
    setup: TokenStream,
    /// Every millisecond.
    tick: TokenStream,
    /// An input `act`, speaking what it answers.
    input: Box<dyn Fn(TokenStream) -> TokenStream>,
    /// Binds `frame`, the picture to show.
    frame: TokenStream,
    modules: TokenStream,
}

fn puzzle_calls(c: &CursorTarget) -> AppCalls {
    let (load_setup, eeprom) = match c.eeprom {
        Some(_) => (
            // Each byte spread into the start as it is read: no buffer, no start returned whole.
            quote! {
                eeprom.read_each(i * 16, 16, |k, b| start.put_column(k, b));
            },
            // Its pins are set up by `board::setup_pins`.
            quote!(let mut eeprom = Eeprom93c46 { wires: board::EepromWires };),
        ),
        None => (
            quote! {
                for k in 0..16u8 {
                    // SAFETY: `i` is a setup's index and `k` within its 16 bytes.
                    start.put_column(k, unsafe {
                        gamec_runtime::progmem::byte(game::STARTS[i as usize].as_ptr().add(k as usize))
                    });
                }
            },
            quote!(),
        ),
    };
    let eeprom_use = c.eeprom.map(|_| {
        quote!(
            use gamec_runtime::microwire::Eeprom93c46;
        )
    });
    AppCalls {
        uses: quote! {
            #eeprom_use
            use gamec_runtime::puzzle::{Input as Act, Start};
            use gamec_runtime::puzzle_app::App;
        },
        setup: quote! {
            #eeprom
            let mut load = |i: u8, start: &mut Start| { #load_setup };
            // The app's state in a static: at a fixed address its fields are reached
            // directly, not through a pointer the loop keeps reloading.
            static mut APP: App = App::new();
            // SAFETY: the only reference to APP, taken once; interrupts never touch it.
            let app = unsafe { &mut *core::ptr::addr_of_mut!(APP) };
        },
        tick: quote!(chip.follow(app.tick(&game::CONFIG, &game::SHOW, &mut load));),
        input: Box::new(|act| quote!(chip.follow(app.input(#act, &game::CONFIG, &game::SOUNDS, &mut load));)),
        // Drawn onto a blank frame the loop holds, not returned whole: each layer's return,
        // and a block's value, is a copy.
        frame: quote! {
            let mut frame = Frame::default();
            app.draw(&game::CONFIG, &game::SHOW, &mut frame);
        },
        modules: quote!(
            mod board;
            mod game;
        ),
    }
}

fn duel_calls(t: &Target) -> AppCalls {
    // A move on the rule core names up to `game::NAMED` cells, entered a press each.
    let game = match t.rules_core.is_some() {
        true => quote!(Game::<game::Rules, { board::SEARCH_MOVES }, { game::NAMED }>),
        false => quote!(Game::<game::Rules, { board::SEARCH_MOVES }>),
    };
    // Alone there is no device's turn, and no search is linked.
    let against = t.cursor.as_ref().and_then(|c| c.duel.as_ref()).is_some_and(|d| d.device.is_some());
    let device_turn = against.then(|| {
        quote! {
            if app.phase == Phase::DeviceTurn {
                // The search blocks the loop; the tick interrupt goes on showing the board and
                // sampling the encoders meanwhile.
                let sound = app.device_turn(&front::CONFIG, &mut || chip.millis());
                if let Some(t) = sound.and_then(front::tune) {
                    chip.follow(player.start(t));
                }
                last = chip.millis();
            }
        }
    });
    let uses = match against {
        true => quote!(
            use gamec_runtime::duel_cursor::{Game, Phase};
        ),
        false => quote!(
            use gamec_runtime::duel_cursor::Game;
        ),
    };
    AppCalls {
        uses: quote! {
            #uses
            use gamec_runtime::puzzle::Input as Act;
            use gamec_runtime::tune::Player;
        },
        setup: quote! {
            let mut app = #game::new(&front::CONFIG);
            let mut player = Player::default();
        },
        tick: quote! {
            app.tick();
            chip.follow(player.tick());
            #device_turn
        },
        input: Box::new(|act| {
            quote! {
                if let Some(t) = app.input(#act, &front::CONFIG).and_then(front::tune) {
                    chip.follow(player.start(t));
                }
            }
        }),
        frame: quote!(let frame = app.frame(&front::CONFIG);),
        modules: quote!(
            mod board;
            mod front;
            mod game;
        ),
    }
}

/// What every chip's cursor firmware runs, whatever its entry point and interrupts: the app,
/// its inputs and the matrix's picture (see [`main_module`] for an AVR's, and
/// `cortex_cursor::main_module` for a Cortex-M's).
pub(super) struct CursorMain {
    /// The module's inner doc line.
    pub what: String,
    pub modules: TokenStream,
    pub uses: TokenStream,
    /// The pins the encoders and the buttons read, pulled up (in the entry's set-up block).
    pub pulled_up: Vec<TokenStream>,
    /// The app and what it needs, before the loop.
    pub setup: TokenStream,
    /// A millisecond's step of the main loop, once the clock has moved on to `last + 1`.
    pub step: TokenStream,
    /// How many encoders the tick interrupt samples, and its statements that read their
    /// pins and count their detents into `t`, the counts by reference, with `DECODERS`.
    pub n_encoders: proc_macro2::Literal,
    pub encoder_reads: Vec<TokenStream>,
    pub encoder_polls: Vec<TokenStream>,
}

/// The parts of a cursor game's main loop every chip shares: the inputs the game's controls
/// bind to, read every millisecond into the app (a puzzle's, or a game against the device),
/// its picture handed to the matrix.
pub(super) fn cursor_main(game: &GameDef, t: &Target) -> CursorMain {
    let c: &CursorTarget = t.cursor.as_ref().expect("a cursor target");
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let app = if c.duel.is_some() { duel_calls(t) } else { puzzle_calls(c) };
    let n_encoders = int(c.encoders.len());
    // Each source of inputs in the order they are served: every encoder's detents, then the
    // commit and the restart presses. One loop and one call into the app serve them all, where
    // a call each repeated the app's arguments and the speaker's follow-up.
    let n_sources = int(c.encoders.len() + 2);
    let acts: Vec<TokenStream> = c
        .encoders
        .iter()
        .map(|&(across, _, _)| if across { quote!(Act::Across(step)) } else { quote!(Act::Down(step)) })
        .chain([quote!(Act::Commit), quote!(Act::Restart)])
        .collect();
    let last_act = acts.last().cloned();
    let act_arms = acts.iter().take(acts.len() - 1).enumerate().map(|(k, act)| {
        let k = int(k);
        quote!(#k => #act,)
    });
    let encoder_counts = (0..c.encoders.len()).map(|i| {
        let i = int(i);
        quote!(turns[#i])
    });
    let call = (app.input)(quote!(act));
    // The encoders' pins read a port at a time and fed to their decoders.
    let encoder_pins: Vec<Pin> = c.encoders.iter().flat_map(|&(_, a, b)| [a, b]).collect();
    let (encoder_reads, encoder_levels) = levels(&encoder_pins);
    let encoder_polls = encoder_levels
        .chunks(2)
        .enumerate()
        .map(|(i, ab)| {
            let (i, a, b) = (int(i), &ab[0], &ab[1]);
            quote!(t[#i] = DECODERS[#i].count(#a, #b, t[#i]);)
        })
        .collect();
    let restart_used =
        game.interface.controls.iter().any(|c| c.action == ControlAction::Restart) && c.restart.is_some();
    // The encoders' and the buttons' pins pulled up a port at a time.
    let button_pins: Vec<Pin> = std::iter::once(c.commit).chain(c.restart.filter(|_| restart_used)).collect();
    // A port the board's outputs leave alone written whole from reset; one they share masked.
    let shared: Vec<char> = board_outputs(c).map(|p| p.port).collect();
    let pulled_up = port_bits(encoder_pins.iter().chain(&button_pins).copied())
        .into_iter()
        .map(|(letter, m)| {
            let (port, mask) = (port_of(letter), mask(m));
            if shared.contains(&letter) {
                quote!(gamec_runtime::chip::#chip::Input::pull_up_pins_at_start(#port, #mask);)
            } else {
                quote!(#port.set_from_reset(0, #mask);)
            }
        })
        .collect();
    // The buttons read a port at a time, bit i set where button i (commit, restart) is down.
    let (button_reads, button_levels) = levels(&button_pins);
    let pressed_bits = button_levels.iter().enumerate().map(|(i, high)| {
        let i = int(i);
        quote!(u8::from(!(#high)) << #i)
    });
    let controls: Vec<String> = game.interface.controls.iter().map(|c| format!("`{}`", c.name.node)).collect();
    let kind = match &c.duel {
        Some(d) if d.device.is_some() => "a game against the device",
        Some(_) => "a game played alone",
        None => "the puzzle app",
    };
    let what = format!(" Firmware entry point: {kind}, fed by {} and shown on the matrix.", controls.join(", "));
    let AppCalls { uses, setup, tick, frame, modules, .. } = app;
    let step = quote! {
        #tick
        let turns = interrupt::free(|cs| TURNS.borrow(cs).replace([0; #n_encoders]));
        #(#button_reads)*
        let pressed = buttons.sample(#(#pressed_bits)|*);
        let mut pending: [i8; #n_sources] = [#(#encoder_counts,)* (pressed & 1) as i8, (pressed >> 1 & 1) as i8];
        for (k, d) in pending.iter_mut().enumerate() {
            while *d != 0 {
                let step = if *d > 0 { 1 } else { -1 };
                *d -= step;
                let act = match k {
                    #(#act_arms)*
                    _ => #last_act,
                };
                #call
            }
        }
        // Drawn once the loop has caught up with the clock, so that a slow picture
        // never delays the inputs.
        if chip.millis() == last {
            #frame
            interrupt::free(|cs| FRAME.borrow(cs).set(frame));
        }
    };
    CursorMain { what, modules, uses, pulled_up, setup, step, n_encoders, encoder_reads, encoder_polls }
}

/// `src/main.rs` on an AVR: [`cursor_main`]'s loop as `main` in `.init8`, and the tick
/// interrupt on the board's timer.
pub fn main_module(game: &GameDef, t: &Target) -> TokenStream {
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let CursorMain { what, modules, uses, pulled_up, setup, step, n_encoders, encoder_reads, encoder_polls } =
        cursor_main(game, t);
    let tick_interrupt = tick_interrupt(t, &n_encoders, &encoder_reads, &encoder_polls);
    quote! {
        #![doc = #what]
        #![no_std]
        #![no_main]
        #![feature(abi_avr_interrupt)]
        // The byte board's passes in assembly, where a game against the device has them.
        #![feature(asm_experimental_arch)]
        #![allow(unused_features)]

        #modules

        use avr_device::interrupt::{self, Mutex};
        use core::cell::{Cell, RefCell};
        use gamec_runtime::buttons::Debounce;
        use gamec_runtime::chip::avr::AvrPort;
        use gamec_runtime::chip::#chip::{on_tick, Port};
        use gamec_runtime::encoder::Quadrature;
        use gamec_runtime::matrix::Frame;
        use gamec_runtime::tune::Speaker;
        #uses

        /// The picture the tick interrupt shows, a column a tick.
        static FRAME: Mutex<Cell<Frame>> = Mutex::new(Cell::new(Frame { red: [0; 8], green: [0; 8] }));
        /// The matrix, whole from the start so that the tick interrupt tests no `Option` (its
        /// pins are set up before the tick starts).
        static DISPLAY: Mutex<RefCell<board::Display>> = Mutex::new(RefCell::new(board::DISPLAY));
        /// The detents the encoders turned since the main loop last looked, the encoders sampled
        /// by the tick interrupt every millisecond however long the loop takes.
        static TURNS: Mutex<Cell<[i8; #n_encoders]>> = Mutex::new(Cell::new([0; #n_encoders]));

        // The loop is `main` itself, in `.init8`, where the start-up code falls into it once
        // `.bss` and `.data` are set: no call, no return address. (In `.init9` it came after
        // avr-libc's own `call main`, which pushed a return address nothing pops.) Its
        // prologue still saves the callee-saved registers it uses: LLVM's AVR backend saves
        // them even in a function that never returns, and only a naked function skips them.
        #[unsafe(link_section = ".init8")]
        #[unsafe(export_name = "main")]
        extern "C" fn main() -> ! {
            // SAFETY: interrupts are off from reset until `Chip::new` enables them, and nothing
            // has written the ports yet, so they are set up whole.
            // The matrix blanked through its pointer, as the tick does: nothing else holds it yet.
            unsafe {
                board::setup_pins();
                #(#pulled_up)*
                (*DISPLAY.borrow(interrupt::CriticalSection::new()).as_ptr()).blank();
            }
            let mut chip = board::Chip::new(&board::CONFIG);
            let mut buttons = Debounce::default();
            #setup
            // The clock counts from zero when the tick starts: every millisecond since gets its
            // step, with no read of the clock before the loop.
            let mut last = 0u16;
            loop {
                if chip.millis() == last {
                    continue;
                }
                last = last.wrapping_add(1);
                #step
            }
        }

        #tick_interrupt

        #[panic_handler]
        fn panic(_: &core::panic::PanicInfo) -> ! {
            loop {}
        }
    }
}

/// The tick interrupt on an AVR: the matrix's next column, the millisecond, and the encoders
/// sampled.
fn tick_interrupt(
    t: &Target,
    n_encoders: &proc_macro2::Literal,
    encoder_reads: &[TokenStream],
    encoder_polls: &[TokenStream],
) -> TokenStream {
    let c = t.cursor.as_ref().expect("a cursor target");
    let device = Ident::new(t.chip.avr().device, Span::call_site());
    let vector = Ident::new(c.matrix.tick_vector, Span::call_site());
    quote! {
    #[avr_device::interrupt(#device)]
    fn #vector() {
        // The encoders' decoders: the interrupt macro makes this a reference only this
        // handler holds.
        static mut DECODERS: [Quadrature; #n_encoders] = [Quadrature::new(); #n_encoders];
        on_tick(&board::CONFIG);
        // SAFETY: the handler runs with interrupts masked, and never unmasks them: a critical
        // section already, and `interrupt::free` would only save and restore the flag.
        let cs = unsafe { interrupt::CriticalSection::new() };
        // The frame by reference: a copy would call memcpy, and a handler that calls
        // saves every register. Only this critical section and the main loop's
        // (which sets it whole) touch it.
        // The matrix through its pointer, not `borrow_mut`: the main loop touches it only
        // before the tick starts, so the borrow flag's test and its panic path buy nothing.
        unsafe { &mut *DISPLAY.borrow(cs).as_ptr() }.tick(unsafe { &*FRAME.borrow(cs).as_ptr() });
        #(#encoder_reads)*
        // The counts by reference, a byte each: the array taken and put back whole is a
        // 16-bit value pieced together from bytes, held across the decoders' calls.
        // SAFETY: in the handler's critical section; the main loop takes them in its own.
        let t = unsafe { &mut *TURNS.borrow(cs).as_ptr() };
        #(#encoder_polls)*
    }
    }
}

/// The matrix's `Lines` as whole-port writes, the pin layout known here: a call a pin, each
/// finding its port at run time, cost the tick interrupt most of its code.
fn matrix_lines(m: &crate::bind::cursor::Matrix) -> TokenStream {
    // The top row in the high bit where more rows sit at bit 7 - r than at bit r: each row
    // then lands on its own pin's bit, and the compiler drops the moves.
    let top_high = m.rows.iter().enumerate().filter(|(r, p)| p.bit as usize + r == 7).count()
        > m.rows.iter().enumerate().filter(|(r, p)| p.bit as usize == *r).count();
    let rows = port_masks(m.rows.iter().copied()).map(|(port_ts, mask_ts)| {
        let port = port_ts.to_string();
        let sets = m.rows.iter().enumerate().filter(|(_, p)| port_of(p.port).to_string() == port).map(|(r, p)| {
            let lit = if top_high { 0x80u8 >> r } else { 1u8 << r };
            let (r, b) = (int(lit), int(1u8 << p.bit));
            quote!(if lit & #r != 0 { v |= #b; })
        });
        quote! {
            let mut v = 0u8;
            #(#sets)*
            #port_ts.write_out(#mask_ts, v);
        }
    });
    let columns: Vec<Pin> = m.red.iter().chain(&m.green).copied().collect();
    let high = m.columns_active_high;
    let ports: Vec<(TokenStream, TokenStream)> = port_masks(columns.iter().copied()).collect();
    let off = ports.iter().map(|(port, mask)| {
        let level = if high { quote!(0) } else { quote!(#mask) };
        quote!(#port.write_out(#mask, #level);)
    });
    let on = ports.iter().enumerate().map(|(i, (port, mask))| {
        let name = port.to_string();
        let table: Vec<proc_macro2::Literal> =
            columns.iter().map(|p| int(if port_of(p.port).to_string() == name { 1u8 << p.bit } else { 0 })).collect();
        let n = int(table.len());
        let id = format_ident!("COLUMN_PINS_{}", i);
        let level = if high { quote!(v) } else { quote!(!v) };
        quote! {
            #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
            static #id: [u8; #n] = [#(#table),*];
            // SAFETY: `at` is a column, within the table in program memory.
            let v = unsafe { gamec_runtime::progmem::byte(#id.as_ptr().add(at as usize)) };
            #port.write_out(#mask, #level);
        }
    });
    quote! {
        /// The matrix's pins, rows from the top, then red and green columns from the left,
        /// written a port at a time.
        pub struct Pins;

        impl Lines for Pins {
            const TOP_ROW_HIGH: bool = #top_high;
            #[inline(always)]
            fn rows(&mut self, lit: u8) {
                #(#rows)*
            }
            #[inline(always)]
            fn off(&mut self) {
                #(#off)*
            }
            #[inline(always)]
            fn on(&mut self, at: u8) {
                #(#on)*
            }
        }
    }
}

/// The 93C46's `Wires` as port writes, the pin layout known here: pins found at run time
/// cost the EEPROM read a call and a port lookup at every edge. A write is masked from
/// interrupts only where the display's tick writes the same port.
fn eeprom_wires(pins: [Pin; 4], m: &crate::bind::cursor::Matrix, clock_hz: u32) -> TokenStream {
    let shared = |p: Pin| m.rows.iter().chain(&m.red).chain(&m.green).any(|q| q.port == p.port);
    let write = |p: Pin| {
        let (port, bit) = (port_of(p.port), mask(1 << p.bit));
        let (set, clear) = (quote!(#port.write_out(#bit, #bit)), quote!(#port.write_out(#bit, 0)));
        let body = quote!(if high { #set } else { #clear });
        if shared(p) {
            quote!(avr_device::interrupt::free(|_| #body);)
        } else {
            quote!(#body;)
        }
    };
    let (select, clock, data) = (write(pins[0]), write(pins[1]), write(pins[2]));
    let (out_port, out_bit) = (port_of(pins[3].port), mask(1 << pins[3].bit));
    // A microsecond in `spin`'s 3-cycle loops, rounded up.
    let loops = int(u8::try_from(clock_hz.div_ceil(1_000_000).div_ceil(3)).unwrap_or(u8::MAX));
    quote! {
        /// The 93C46's lines: CS, SK and DI driven, DO read, on the ports they are wired to.
        pub struct EepromWires;

        impl gamec_runtime::microwire::Wires for EepromWires {
            #[inline(always)]
            fn select(&mut self, high: bool) {
                #select
            }
            #[inline(always)]
            fn clock(&mut self, high: bool) {
                #clock
            }
            #[inline(always)]
            fn data(&mut self, high: bool) {
                #data
            }
            #[inline(always)]
            fn out(&mut self) -> bool {
                #out_port.read() & #out_bit != 0
            }
            #[inline(always)]
            fn half_period(&mut self) {
                gamec_runtime::chip::avr::spin(#loops);
            }
        }
    }
}

/// The levels of `pins` read a port at a time: a read of each port they are on, then for each
/// pin an expression true where it is high. Pins found at run time cost a call and a port
/// lookup each.
fn levels(pins: &[Pin]) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let name = |port: char| format_ident!("port_{}", port.to_ascii_lowercase());
    let mut ports: Vec<char> = Vec::new();
    for p in pins {
        if !ports.contains(&p.port) {
            ports.push(p.port);
        }
    }
    let reads = ports
        .iter()
        .map(|&p| {
            let (id, port) = (name(p), port_of(p));
            quote!(let #id = #port.read();)
        })
        .collect();
    let highs = pins
        .iter()
        .map(|p| {
            let (id, bit) = (name(p.port), mask(1 << p.bit));
            quote!(#id & #bit != 0)
        })
        .collect();
    (reads, highs)
}

/// The pins the board drives: the matrix's, and any 93C46's chip select, clock and data in.
fn board_outputs(c: &CursorTarget) -> impl Iterator<Item = Pin> + '_ {
    let m = &c.matrix;
    let eeprom = c.eeprom.iter().flat_map(|e| e[..3].iter().copied());
    m.rows.iter().chain(&m.red).chain(&m.green).copied().chain(eeprom)
}

/// Pins gathered by port, each port with the mask of its pins, in the order ports first appear.
fn port_masks(pins: impl Iterator<Item = Pin>) -> impl Iterator<Item = (TokenStream, TokenStream)> {
    port_bits(pins).into_iter().map(|(port, m)| (port_of(port), mask(m)))
}

/// [`port_masks`]'s masks by port letter.
fn port_bits(pins: impl Iterator<Item = Pin>) -> Vec<(char, u8)> {
    let mut masks: Vec<(char, u8)> = Vec::new();
    for p in pins {
        match masks.iter_mut().find(|(port, _)| *port == p.port) {
            Some((_, mask)) => *mask |= 1 << p.bit,
            None => masks.push((p.port, 1 << p.bit)),
        }
    }
    masks
}

#[cfg(test)]
mod tests {
    use super::scroll_layout;

    #[test]
    fn a_scrolled_text_is_laid_out_as_the_runtime_reads_it() {
        // The runtime's intro test reads these bytes: a 2-column bar, a blank, a dot in the
        // second colour, a blank.
        assert_eq!(scroll_layout(&[&[0xFF, 0xFF], &[0x08]]), [5, 0, 0xFF, 0xFF, 0, 0x08, 0, 0b11000]);
        // Ten columns take two bytes of colours.
        assert_eq!(scroll_layout(&[&[1; 4], &[2; 4]])[12..], [0b1110_0000, 0b11]);
    }
}

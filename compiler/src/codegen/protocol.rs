//! Renders a serial game's protocol as the runtime session's tables: the command table, the
//! response scripts and the event index, all in program memory. The tables are written as
//! pieces, text as byte strings and opcodes by name, joined at compile time by `const fn`s
//! the module carries.

use super::origin::{described, Origin};
use super::{int, upper_idents};
use gamec_dsl::{CommandArgDef, GameDef, Layout, SayPart, SerialDef, SessionAction, SessionEvent, TextPart};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

/// One piece of a table: text, or bytes written by name or number.
enum Piece {
    Text(String),
    Bytes(Vec<TokenStream>),
}

impl Piece {
    fn len(&self) -> usize {
        match self {
            Piece::Text(s) => s.len(),
            Piece::Bytes(b) => b.len(),
        }
    }
}

impl quote::ToTokens for Piece {
    fn to_tokens(&self, out: &mut TokenStream) {
        match self {
            Piece::Text(s) => proc_macro2::Literal::byte_string(s.as_bytes()).to_tokens(out),
            Piece::Bytes(b) => quote!(&[#(#b),*]).to_tokens(out),
        }
    }
}

/// Pieces as they are written in order: text apart, the bytes between texts together.
#[derive(Default)]
struct Pieces(Vec<Piece>);

impl Pieces {
    fn text(&mut self, s: &str) {
        if !s.is_empty() {
            self.0.push(Piece::Text(s.to_string()));
        }
    }

    fn byte(&mut self, b: TokenStream) {
        match self.0.last_mut() {
            Some(Piece::Bytes(bytes)) => bytes.push(b),
            _ => self.0.push(Piece::Bytes(vec![b])),
        }
    }

    /// A number, as its own piece.
    fn number(&mut self, n: usize) {
        let n = int(n);
        self.0.push(Piece::Bytes(vec![quote!(#n)]));
    }

    /// A word after its length, as the command table writes words.
    fn word(&mut self, w: &str) {
        self.number(w.len() as u8 as usize);
        self.text(w);
    }

    fn len(&self) -> usize {
        self.0.iter().map(Piece::len).sum()
    }
}

impl quote::ToTokens for Pieces {
    fn to_tokens(&self, out: &mut TokenStream) {
        let pieces = &self.0;
        quote!(&[#(#pieces),*]).to_tokens(out);
    }
}

/// The name of a command's action in `gamec_runtime::session::cmd`.
fn action_name(c: &gamec_dsl::CommandDef) -> &'static str {
    match (&c.action, &c.arg) {
        (SessionAction::Ping, _) => "PING",
        (SessionAction::Ack, _) => "ACK",
        (SessionAction::Retry, _) => "RETRY",
        (SessionAction::Restart, _) => "RESTART",
        (SessionAction::NewGame, CommandArgDef::Number { .. }) => "NEW_GAME_AT",
        (SessionAction::NewGame, _) => "NEW_GAME",
        (SessionAction::EndGame, _) => "END_GAME",
        (SessionAction::Pass, _) => "PASS",
        (SessionAction::Play(_), CommandArgDef::Column) => "PLAY_COLUMN",
        (SessionAction::Play(_), _) => "PLAY",
        (SessionAction::PlayMove, _) => "PLAY",
        (SessionAction::MoveTime { .. }, CommandArgDef::Number { .. }) => "MOVE_TIME",
        (SessionAction::HostPlaysSide, CommandArgDef::Side(_)) => "HOST_PLAYS_SIDE",
        (action, arg) => unreachable!("the DSL pairs actions with their arguments: {action:?} {arg:?}"),
    }
}

/// Each command as its pieces, and the zero length that ends the table.
fn commands(p: &SerialDef) -> Vec<Pieces> {
    let mut out = Vec::new();
    for c in &p.commands {
        let mut pieces = Pieces::default();
        pieces.word(&c.word);
        let action = Ident::new(action_name(c), Span::call_site());
        let args: Vec<usize> = match (&c.action, &c.arg) {
            (SessionAction::MoveTime { default }, CommandArgDef::Number { min, max }) => {
                vec![*min as u8 as usize, *max as u8 as usize, *default as u8 as usize]
            }
            (SessionAction::HostPlaysSide, CommandArgDef::Side(sides)) => vec![sides.len() as u8 as usize],
            (SessionAction::NewGame, CommandArgDef::Number { min, max }) => {
                vec![*min as u8 as usize, *max as u8 as usize]
            }
            _ => vec![],
        };
        // How many bytes of arguments follow, so that the table is walked without knowing
        // what each action takes.
        let side_bytes: usize = match &c.arg {
            CommandArgDef::Side(sides) => sides.iter().map(|(word, _)| word.len() + 2).sum(),
            _ => 0,
        };
        let n_args = int((args.len() + side_bytes) as u8 as usize);
        pieces.0.push(Piece::Bytes(vec![quote!(cmd::#action), quote!(#n_args)]));
        for a in args {
            let a = int(a);
            pieces.byte(quote!(#a));
        }
        if let CommandArgDef::Side(sides) = &c.arg {
            for (word, player) in sides {
                pieces.word(word);
                pieces.number(*player as u8 as usize);
            }
        }
        out.push(pieces);
    }
    let mut end = Pieces::default();
    end.number(0);
    out.push(end);
    out
}

/// The lamps' constants' names: `LAMP_` and the name in capitals.
fn lamp_idents(game: &GameDef) -> Vec<Ident> {
    upper_idents("LAMP_", gamec_dsl::lamp_names(game).iter().map(|l| l.node.as_str()))
}

/// An event's response as its pieces.
fn response(game: &GameDef, say: &gamec_dsl::SayDef) -> Pieces {
    let lamps = gamec_dsl::lamp_names(game);
    let lamp_idents = lamp_idents(game);
    let mut out = Pieces::default();
    for part in &say.parts {
        match part {
            SayPart::Board => out.byte(quote!(op::BOARD)),
            SayPart::Await => out.byte(quote!(op::AWAIT)),
            SayPart::Light(name) => {
                let n = lamps.iter().position(|l| l.node == name.node).expect("lamp_names lists every lamp");
                let lamp = &lamp_idents[n];
                out.byte(quote!(op::LIGHT));
                out.byte(quote!(#lamp));
            }
            SayPart::Line(parts) => {
                for t in parts {
                    match t {
                        TextPart::Text(s) => out.text(s),
                        TextPart::Cell => out.byte(quote!(op::CELL)),
                        TextPart::Column => out.byte(quote!(op::COLUMN)),
                        TextPart::Count { device: true } => out.byte(quote!(op::COUNT_DEVICE)),
                        TextPart::Count { device: false } => out.byte(quote!(op::COUNT_HOST)),
                    }
                }
                out.byte(quote!(op::NL));
            }
        }
    }
    out.byte(quote!(op::END));
    out
}

/// Each lamp the game lights, by its number.
fn lamps(game: &GameDef, origin: Origin) -> Vec<TokenStream> {
    let names = gamec_dsl::lamp_names(game).into_iter().zip(lamp_idents(game)).enumerate();
    names
        .map(|(i, (name, ident))| {
            let doc = described(&[&format!("The lamp `{}`.", name.node)], origin.quote(name.span));
            let i = int(i);
            quote! {
                #doc
                pub const #ident: u8 = #i;
            }
        })
        .collect()
}

/// What the device says at each event: each response's pieces, the table of events to
/// them, the pieces' total, and the opcodes they use beyond the line ends as the session's
/// bit mask.
struct Responses {
    says: Vec<TokenStream>,
    responses: Vec<TokenStream>,
    script_len: proc_macro2::Literal,
    ops: TokenStream,
}

fn responses(game: &GameDef, p: &SerialDef, origin: Origin) -> Responses {
    let mut script_len = 0;
    let mut says = Vec::new();
    let mut responses = Vec::new();
    // The opcodes the responses use beyond the line ends, by name, as the session's bit mask.
    let mut ops: Vec<&str> = Vec::new();
    for event in SessionEvent::ALL {
        let Some(say) = p.say(event) else { continue };
        for part in &say.parts {
            match part {
                SayPart::Board => ops.push("BOARD"),
                SayPart::Await => ops.push("AWAIT"),
                SayPart::Light(_) => ops.push("LIGHT"),
                SayPart::Line(parts) => ops.extend(parts.iter().filter_map(|t| match t {
                    TextPart::Text(_) => None,
                    TextPart::Cell => Some("CELL"),
                    TextPart::Column => Some("COLUMN"),
                    TextPart::Count { device: true } => Some("COUNT_DEVICE"),
                    TextPart::Count { device: false } => Some("COUNT_HOST"),
                })),
            }
        }
        let pieces = response(game, say);
        script_len += pieces.len();
        let name = format_ident!("ON_{}", event.name().to_uppercase().replace(' ', "_"));
        let variant = format_ident!("{}", format!("{event:?}"));
        let doc = described(&[], origin.quote(say.span));
        says.push(quote! {
            #doc
            const #name: &[&[u8]] = #pieces;
        });
        responses.push(quote!((Event::#variant, #name)));
    }
    let script_len = int(script_len);
    ops.sort();
    ops.dedup();
    let ops = ops.iter().map(|n| Ident::new(n, Span::call_site()));
    let ops = quote!(0 #(| 1 << op::#ops)*);
    Responses { says, responses, script_len, ops }
}

pub fn render(game: &GameDef, p: &SerialDef, origin: Origin) -> TokenStream {
    // A line is a grid of one row; heaps, a row of heaps.
    let ring = game.rules.heaps().and_then(|h| h.pits);
    let (cols, rows) = match &game.rules.board {
        Layout::Grid(g) => (g.cols, g.rows),
        Layout::Line(l) => (l.cells, 1),
        // Pits are a row a side, each a pit and perhaps a store; other heaps one row.
        Layout::Heaps(h) => ring.map_or((h.heaps, 1), |r| (r.side(), 2)),
    };
    let heaps = game.rules.heaps().is_some();
    let (pits, stores) = (ring.is_some(), ring.is_some_and(|r| r.stores));
    let (cols, rows) = (int(cols), int(rows));
    let commands = commands(p);
    let n_commands = int(commands.iter().map(Pieces::len).sum::<usize>());
    let commands_doc = described(
        &[
            "The command words and what they do: each word after its length, then its action (see",
            "`gamec_runtime::session::cmd`), how many bytes of arguments follow and the arguments; a",
            "zero length ends the table.",
        ],
        origin.quote_all(p.commands.iter().map(|c| c.span)),
    );

    let lamps = lamps(game, origin);

    let Responses { says, responses, script_len, ops } = responses(game, p, origin);
    let n_events = int(SessionEvent::ALL.len());

    // A game of one player has one player's glyph.
    let glyph = |i: usize| p.piece_glyphs.get(i).copied().unwrap_or(b'?');
    let [g0, g1] = [glyph(0), glyph(1)].map(proc_macro2::Literal::byte_character);
    let kind_glyphs = p.kind_glyphs.iter().map(|&g| proc_macro2::Literal::byte_character(g));
    let state_glyphs = p.state_glyphs.iter().map(|&g| proc_macro2::Literal::byte_character(g));
    let alone = game.rules.players.len() == 1;
    let [empty, legal] = [p.empty_glyph, p.legal_glyph].map(proc_macro2::Literal::byte_character);
    let device_side = int(game.device.strategy.as_ref().and_then(|s| s.player).unwrap_or(1 - game.rules.first));
    let order = game.device.strategy.as_ref().is_some_and(|s| s.order_by_eval);
    let deepening = game.device.strategy.as_ref().is_some_and(|s| s.deepening);
    let picks_side = p.commands.iter().any(|c| matches!(c.action, SessionAction::HostPlaysSide));
    // The host's moves are timed only where the game says what a late one gets.
    let timed = p.say(SessionEvent::TooLate).is_some();
    // The actions the table uses, by name, as the session's bit mask.
    let mut used: Vec<String> = p.commands.iter().map(|c| action_name(c).to_string()).collect();
    used.sort();
    used.dedup();
    let used = used.iter().map(|n| Ident::new(n, Span::call_site()));
    let actions = quote!(0 #(| 1 << cmd::#used)*);
    // The first move-time command's default, as the session reads it.
    let default_seconds = int(p
        .commands
        .iter()
        .find_map(|c| match c.action {
            SessionAction::MoveTime { default } => Some(default as u8 as usize),
            _ => None,
        })
        .unwrap_or(2));
    let protocol_doc = described(&["The game's serial protocol, for the runtime's session."], origin.quote(p.span));
    let builders = table_builders(&n_events);
    quote! {
        #(#lamps)*

        #commands_doc
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static COMMANDS: [u8; #n_commands] = concat(&[#(#commands),*]);

        #(#says)*

        /// Each event the game gives a response, with the response, in the order of `Event`.
        const RESPONSES: &[(Event, &[&[u8]])] = &[#(#responses),*];
        /// Every response, one after another (see `gamec_runtime::session::op`).
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static SCRIPT: [u8; #script_len] = script(RESPONSES);
        /// Where each event's response starts in `SCRIPT`, or `SILENT`.
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static EVENTS: [u16; #n_events] = starts(RESPONSES);

        #protocol_doc
        pub static PROTOCOL: Protocol = Protocol {
            commands: &COMMANDS,
            script: &SCRIPT,
            events: &EVENTS,
            glyphs: [#g0, #g1, #empty, #legal],
            kind_glyphs: &[#(#kind_glyphs),*],
            state_glyphs: &[#(#state_glyphs),*],
            alone: #alone,
            heaps: #heaps,
            pits: #pits,
            stores: #stores,
            cols: #cols,
            rows: #rows,
            device_side: #device_side,
            picks_side: #picks_side,
            actions: #actions,
            ops: #ops,
            default_seconds: #default_seconds,
            order_by_eval: #order,
            deepening: #deepening,
            timed: #timed,
        };
        impl Served for Rules {
            const PROTOCOL: &'static Protocol = &PROTOCOL;
        }

        #builders
    }
}

/// The const fns that lay the protocol's tables out at compile time: the commands' pieces end
/// to end, the script of every response, and where each event's response starts.
fn table_builders(n_events: &proc_macro2::Literal) -> TokenStream {
    quote! {
    /// Copies `pieces`, one after another, into `table` from `at`; returns where they end.
    const fn put<const N: usize>(table: &mut [u8; N], mut at: usize, pieces: &[&[u8]]) -> usize {
        let mut p = 0;
        while p < pieces.len() {
            let mut i = 0;
            while i < pieces[p].len() {
                table[at] = pieces[p][i];
                at += 1;
                i += 1;
            }
            p += 1;
        }
        at
    }

    /// A table written as groups of pieces: every piece, one after another.
    const fn concat<const N: usize>(groups: &[&[&[u8]]]) -> [u8; N] {
        let mut table = [0; N];
        let (mut g, mut at) = (0, 0);
        while g < groups.len() {
            at = put(&mut table, at, groups[g]);
            g += 1;
        }
        assert!(at == N, "a table is as long as its pieces");
        table
    }

    /// The script: every response, one after another.
    const fn script<const N: usize>(responses: &[(Event, &[&[u8]])]) -> [u8; N] {
        let mut table = [0; N];
        let (mut r, mut at) = (0, 0);
        while r < responses.len() {
            at = put(&mut table, at, responses[r].1);
            r += 1;
        }
        assert!(at == N, "a script is as long as its responses");
        table
    }

    /// Where each event's response starts in the script, or `SILENT` for an event that
    /// has none.
    const fn starts(responses: &[(Event, &[&[u8]])]) -> [u16; #n_events] {
        let mut starts = [SILENT; #n_events];
        let (mut r, mut at) = (0, 0);
        while r < responses.len() {
            starts[responses[r].0 as usize] = at as u16;
            let mut p = 0;
            while p < responses[r].1.len() {
                at += responses[r].1[p].len();
                p += 1;
            }
            r += 1;
        }
        starts
    }
    }
}

#[cfg(test)]
mod tests {
    use gamec_dsl::SessionEvent;
    use gamec_runtime::session::Event;

    /// The event table is indexed by the runtime's `Event` in the order of the DSL's
    /// `SessionEvent::ALL`; the two enums must list the same events in the same order.
    #[test]
    fn the_dsl_and_the_runtime_number_events_alike() {
        use Event::*;
        let runtime = [
            PickSide,
            YourTurn,
            MustPass,
            Moved,
            Accepted,
            Restarted,
            Denied,
            TooLate,
            BadValue,
            Unknown,
            DeviceMoves,
            DevicePasses,
            NeitherCanMove,
            GameOver,
            WinDevice,
            WinHost,
            Draw,
        ];
        assert_eq!(runtime.len(), SessionEvent::ALL.len());
        for (i, (dsl, rt)) in SessionEvent::ALL.iter().zip(runtime).enumerate() {
            assert_eq!(rt as usize, i);
            assert_eq!(format!("{dsl:?}"), format!("{rt:?}"));
        }
    }
}

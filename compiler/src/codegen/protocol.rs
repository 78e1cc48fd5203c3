//! Renders a serial game's protocol as the runtime session's tables: the command table, the
//! response scripts and the event index, all in program memory.

use gamec_dsl::{CommandArgDef, GameDef, SayPart, SerialDef, SessionAction, SessionEvent, TextPart};
use proc_macro2::TokenStream;
use quote::quote;

/// One byte of a table: a named opcode or a literal.
enum Byte {
    Op(TokenStream),
    Lit(u8),
}

impl quote::ToTokens for Byte {
    fn to_tokens(&self, out: &mut TokenStream) {
        match self {
            Byte::Op(t) => t.to_tokens(out),
            Byte::Lit(b) if b.is_ascii_graphic() || *b == b' ' => {
                proc_macro2::Literal::byte_character(*b).to_tokens(out)
            }
            Byte::Lit(b) => proc_macro2::Literal::u8_unsuffixed(*b).to_tokens(out),
        }
    }
}

fn text(bytes: &mut Vec<Byte>, s: &str) {
    bytes.extend(s.bytes().map(Byte::Lit));
}

fn commands(p: &SerialDef) -> Vec<Byte> {
    let mut out = Vec::new();
    for c in &p.commands {
        out.push(Byte::Lit(c.word.len() as u8));
        text(&mut out, &c.word);
        let (name, args): (_, Vec<Byte>) = match (&c.action, &c.arg) {
            (SessionAction::Ping, _) => (quote!(PING), vec![]),
            (SessionAction::Ack, _) => (quote!(ACK), vec![]),
            (SessionAction::Retry, _) => (quote!(RETRY), vec![]),
            (SessionAction::Restart, _) => (quote!(RESTART), vec![]),
            (SessionAction::NewGame, _) => (quote!(NEW_GAME), vec![]),
            (SessionAction::EndGame, _) => (quote!(END_GAME), vec![]),
            (SessionAction::Pass, _) => (quote!(PASS), vec![]),
            (SessionAction::Play(_), CommandArgDef::Column) => (quote!(PLAY_COLUMN), vec![]),
            (SessionAction::Play(_), _) => (quote!(PLAY), vec![]),
            (SessionAction::MoveTime { default }, CommandArgDef::Number { min, max }) => {
                (quote!(MOVE_TIME), vec![Byte::Lit(*min as u8), Byte::Lit(*max as u8), Byte::Lit(*default as u8)])
            }
            (SessionAction::HostPlaysSide, CommandArgDef::Side(sides)) => {
                let mut args = vec![Byte::Lit(sides.len() as u8)];
                for (word, player) in sides {
                    args.push(Byte::Lit(word.len() as u8));
                    text(&mut args, word);
                    args.push(Byte::Lit(*player as u8));
                }
                (quote!(HOST_PLAYS_SIDE), args)
            }
            (action, arg) => unreachable!("the DSL pairs actions with their arguments: {action:?} {arg:?}"),
        };
        out.push(Byte::Op(quote!(cmd::#name)));
        out.extend(args);
    }
    out.push(Byte::Lit(0));
    out
}

/// The response scripts, and per event the offset of its script.
fn scripts(game: &GameDef, p: &SerialDef) -> (Vec<Byte>, Vec<TokenStream>) {
    let lamps = gamec_dsl::lamp_names(game);
    let mut script = Vec::new();
    let mut index = Vec::new();
    for event in SessionEvent::ALL {
        let Some(say) = p.say(event) else {
            index.push(quote!(SILENT));
            continue;
        };
        let at = script.len() as u16;
        index.push(quote!(#at));
        for part in &say.parts {
            match part {
                SayPart::Board => script.push(Byte::Op(quote!(op::BOARD))),
                SayPart::Await => script.push(Byte::Op(quote!(op::AWAIT))),
                SayPart::Light(name) => {
                    let n = lamps.iter().position(|l| l.node == name.node).expect("lamp_names lists every lamp");
                    script.push(Byte::Op(quote!(op::LIGHT)));
                    script.push(Byte::Lit(n as u8));
                }
                SayPart::Line(parts) => {
                    for t in parts {
                        match t {
                            TextPart::Text(s) => text(&mut script, s),
                            TextPart::Cell => script.push(Byte::Op(quote!(op::CELL))),
                            TextPart::Column => script.push(Byte::Op(quote!(op::COLUMN))),
                            TextPart::Count { device: true } => script.push(Byte::Op(quote!(op::COUNT_DEVICE))),
                            TextPart::Count { device: false } => script.push(Byte::Op(quote!(op::COUNT_HOST))),
                        }
                    }
                    script.push(Byte::Op(quote!(op::NL)));
                }
            }
        }
        script.push(Byte::Op(quote!(op::END)));
    }
    (script, index)
}

pub fn render(game: &GameDef, p: &SerialDef) -> TokenStream {
    let g = game.grid().expect("serial games are grid games");
    let (cols, rows) = (g.cols as u8, g.rows as u8);
    let commands = commands(p);
    let n_commands = commands.len();
    let (script, events) = scripts(game, p);
    let n_script = script.len();
    let [g0, g1] = [p.piece_glyphs[0], p.piece_glyphs[1]];
    let (empty, legal) = (p.empty_glyph, p.legal_glyph);
    let device_side = game.strategy.as_ref().and_then(|s| s.player).unwrap_or(1 - game.first) as u8;
    let order = game.strategy.as_ref().is_some_and(|s| s.order_by_eval);
    let deepening = game.strategy.as_ref().is_some_and(|s| s.deepening);
    quote! {
        /// The command words and what they do.
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static COMMANDS: [u8; #n_commands] = [#(#commands),*];
        /// What the device says, event by event.
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static SCRIPT: [u8; #n_script] = [#(#script),*];
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static EVENTS: [u16; 17] = [#(#events),*];

        /// The game's serial protocol, for the runtime's session.
        pub static PROTOCOL: Protocol = Protocol {
            commands: &COMMANDS,
            script: &SCRIPT,
            events: &EVENTS,
            glyphs: [#g0, #g1, #empty, #legal],
            cols: #cols,
            rows: #rows,
            device_side: #device_side,
            order_by_eval: #order,
            deepening: #deepening,
        };
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

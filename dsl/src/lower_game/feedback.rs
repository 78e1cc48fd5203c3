//! A game's `feedback`: its views of the cells, its cursor, its intro's scenes, and the
//! response to each event, checked against the game's states, players, font and tunes.

use super::{step_ms, Ctx};
use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
use crate::Span;

/// What the feedback names, as the game declared it.
pub(super) struct Names<'a> {
    pub states: &'a [ast::Ident],
    pub players: &'a [ast::Ident],
    pub per_player: bool,
    pub font: &'a [GlyphDef],
    pub tunes: &'a [TuneDef],
    pub tune_names: &'a [&'a str],
    pub find_player: &'a dyn Fn(&mut Ctx, &ast::Ident) -> Option<usize>,
    /// The piece's name, which a `colours` view may give shared pieces a colour by.
    pub piece: &'a str,
}

/// The feedback, lowered.
pub(super) struct Lowered {
    pub views: Vec<ViewDef>,
    pub events: Vec<EventDef>,
    pub cursor: Option<CursorDef>,
    pub intro: Vec<SceneDef>,
}

pub(super) fn lower(
    ctx: &mut Ctx,
    feedback: Option<(Span, &Vec<Spanned<ast::FeedbackItem>>)>,
    decl: &Names,
) -> Lowered {
    let mut views = Vec::new();
    let mut events = Vec::new();
    let mut cursor: Option<CursorDef> = None;
    let mut intro: Vec<SceneDef> = Vec::new();
    if let Some((_, items)) = feedback {
        for f in items.iter() {
            match &f.node {
                ast::FeedbackItem::Show { view, source } => {
                    if source.node != "occupied" {
                        ctx.err(
                            Code::E0006,
                            source.span,
                            "unknown view source",
                            "here",
                            "write `show cells = occupied`",
                        );
                    }
                    views.push(ViewDef { name: view.clone(), source: ViewSource::Occupied });
                }
                ast::FeedbackItem::ShowColours { view, colours } => {
                    let mut map = ContentColours::default();
                    for (what, colour) in colours {
                        let content = match decl.states.iter().position(|s| s.node == what.node) {
                            Some(k) => content::state(k),
                            None => match decl.players.iter().position(|p| p.node == what.node) {
                                Some(p) if decl.per_player => content::piece(p),
                                // Shared pieces (a line's pins) are one content.
                                _ if !decl.per_player && !decl.piece.is_empty() && what.node == decl.piece => {
                                    content::SHARED
                                }
                                _ => {
                                    let mut names: Vec<&str> = decl.states.iter().map(|s| s.node.as_str()).collect();
                                    if decl.per_player {
                                        names.extend(decl.players.iter().map(|p| p.node.as_str()));
                                    } else if !decl.piece.is_empty() {
                                        names.push(decl.piece);
                                    }
                                    ctx.unknown("state or player", what, &names);
                                    continue;
                                }
                            },
                        };
                        map.0[content as usize] = Colour::parse(&colour.node);
                    }
                    views.push(ViewDef { name: view.clone(), source: ViewSource::Colours(map) });
                }
                ast::FeedbackItem::Cursor { blink, given } => {
                    if cursor.is_some() {
                        ctx.err(Code::E0002, f.span, "`cursor` is given twice", "again here", "keep one");
                    }
                    cursor = Some(CursorDef {
                        blink_ms: step_ms(ctx, blink),
                        given: Colour::parse(&given.node),
                        span: f.span,
                    });
                }
                ast::FeedbackItem::Intro(scenes) => {
                    for sc in scenes {
                        intro.push(match &sc.node {
                            ast::Scene::Starburst { step, colours } => SceneDef::Starburst {
                                step_ms: step_ms(ctx, step),
                                colours: colours.clone().map(|c| Colour::parse(&c.node)),
                            },
                            ast::Scene::Scroll { text, step, colours } => {
                                let mut glyphs = Vec::new();
                                for ch in text.node.chars() {
                                    match decl.font.iter().position(|g| g.name == ch) {
                                        Some(i) => glyphs.push(i),
                                        None => {
                                            ctx.err(
                                                Code::E0004,
                                                text.span,
                                                format!("the font has no glyph `{ch}`"),
                                                "in this text",
                                                format!("add `glyph \"{ch}\" {{ ... }}` to the `font`"),
                                            );
                                            break;
                                        }
                                    }
                                }
                                SceneDef::Scroll {
                                    glyphs,
                                    step_ms: step_ms(ctx, step),
                                    colours: colours.clone().map(|c| Colour::parse(&c.node)),
                                }
                            }
                        });
                    }
                }
                ast::FeedbackItem::On { event, response, flash } => {
                    let kind = match &event.node {
                        ast::Event::Attract => EventKind::Attract,
                        ast::Event::Denied => EventKind::Denied,
                        ast::Event::Accepted => EventKind::Accepted,
                        ast::Event::Start => EventKind::Start,
                        ast::Event::Choosing => EventKind::Choosing,
                        ast::Event::Win(p) => match (decl.find_player)(ctx, p) {
                            Some(p) => EventKind::Win(p),
                            None => continue,
                        },
                    };
                    if events.iter().any(|e: &EventDef| e.event == kind) {
                        ctx.err(
                            Code::E0002,
                            event.span,
                            "this event already has a response",
                            "again here",
                            "keep one response per event",
                        );
                        continue;
                    }
                    let response = match response {
                        ast::Response::Tune(t) => match decl.tunes.iter().position(|d| d.name.node == t.node) {
                            Some(i) => Response::Tune(i),
                            None => {
                                ctx.unknown("tune", t, decl.tune_names);
                                continue;
                            }
                        },
                        ast::Response::Animate(_) => Response::Animate(Animation::Cylon),
                        ast::Response::Blink(d) => Response::Blink(step_ms(ctx, d)),
                    };
                    let flash = flash.as_ref().map(|(c, d)| (Colour::parse(&c.node), step_ms(ctx, d)));
                    events.push(EventDef { event: kind, response, flash, span: f.span });
                }
            }
        }
    }

    Lowered { views, events, cursor, intro }
}

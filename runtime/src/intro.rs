//! The start-up show on a matrix: scenes played in turn, each a starburst (rings of colour
//! growing from the centre) or a text scrolled a column at a time in a font the game file
//! draws. The compiler lowers the game's `intro` into [`Scene`]s and lays each text out in
//! its font's columns.

use crate::matrix::{Colour, Frame};
use core::mem::MaybeUninit;

#[derive(Clone, Copy)]
pub enum Scene {
    /// Rings around the centre, one more every `step_ms`, colours alternating ring by ring.
    Starburst { step_ms: u16, colours: [Colour; 2] },
    /// `text` scrolls in from the right one column every `step_ms`, each glyph in the next of
    /// `colours`. Laid out by the compiler, in program memory: the width in columns (a
    /// little-endian `u16`); each column's rows (bit `r` lights row `r`), a blank column after
    /// each glyph; then a bit a column (column i in bit i % 8 of byte i / 8), set where the
    /// column shows in the second colour. Laid out once when the firmware is built, not looked
    /// up glyph by glyph at every frame.
    Scroll { text: &'static [u8], step_ms: u16, colours: [Colour; 2] },
}

pub struct Show {
    /// Kept in program memory (the generated table is): read a scene at a time.
    pub scenes: &'static [Scene],
    pub cols: u8,
    pub rows: u8,
}

impl Show {
    /// Scene `i`, copied out of program memory into `out`; false past the last.
    fn scene_into(&self, i: u8, out: &mut MaybeUninit<Scene>) -> bool {
        let Some(s) = self.scenes.get(i as usize) else { return false };
        // SAFETY: the scenes are a static in program memory (or, off AVR, in RAM).
        unsafe { crate::progmem::read_into(s, out) };
        true
    }

    /// Scene `i`, as [`scene_into`](Self::scene_into) reads it.
    #[inline(always)]
    fn scene(&self, i: u8) -> Option<Scene> {
        let mut s = MaybeUninit::uninit();
        // SAFETY: `scene_into` wrote the whole scene when it says so.
        self.scene_into(i, &mut s).then(|| unsafe { s.assume_init() })
    }
}

/// Where the show is: the scene, the steps it has taken, and the milliseconds into the step.
/// Counted in steps, not milliseconds divided by the step at every frame: a 16-bit division is
/// a library call on AVR.
#[derive(Default)]
pub struct Intro {
    scene: u8,
    step: u16,
    ms: u16,
}

fn load(table: &'static [u8], i: usize) -> u8 {
    // SAFETY: `i` is checked against the table's length.
    if i < table.len() {
        unsafe { crate::progmem::byte(table.as_ptr().add(i)) }
    } else {
        0
    }
}

impl Intro {
    /// The show from its first scene (const, so an app can be a static).
    pub const fn new() -> Intro {
        Intro { scene: 0, step: 0, ms: 0 }
    }

    /// Whether the show is over.
    pub fn done(&self, show: &Show) -> bool {
        self.scene as usize >= show.scenes.len()
    }

    /// A millisecond has passed.
    pub fn tick(&mut self, show: &Show) {
        let Some(scene) = show.scene(self.scene) else { return };
        let (Scene::Starburst { step_ms, .. } | Scene::Scroll { step_ms, .. }) = scene;
        self.ms += 1;
        if self.ms < step_ms {
            return;
        }
        // A step is over: the scene's length looked at only then. A scene of 0 ms steps lasts
        // a millisecond.
        self.ms = 0;
        self.step += 1;
        if step_ms == 0 || self.step >= self.steps(&scene, show) {
            self.scene += 1;
            self.step = 0;
        }
    }

    /// The steps a scene lasts.
    fn steps(&self, scene: &Scene, show: &Show) -> u16 {
        match *scene {
            Scene::Starburst { .. } => show.cols.max(show.rows) as u16 / 2 + 2,
            Scene::Scroll { text, .. } => text_width(text) + show.cols as u16,
        }
    }

    pub fn frame(&self, show: &Show) -> Frame {
        let mut f = Frame::default();
        self.draw(show, &mut f);
        f
    }

    /// [`frame`](Self::frame) drawn onto `f`, which is blank.
    pub fn draw(&self, show: &Show, f: &mut Frame) {
        // The scene read by reference where it was copied: an `Option` of it moved out is a
        // second copy through the stack.
        let mut slot = MaybeUninit::uninit();
        if !show.scene_into(self.scene, &mut slot) {
            return;
        }
        // SAFETY: `scene_into` wrote the whole scene.
        match *unsafe { slot.assume_init_ref() } {
            Scene::Starburst { colours, .. } => {
                let grown = self.step;
                for row in 0..show.rows {
                    for col in 0..show.cols {
                        // Distance from the centre in half-cells, rounded down to rings.
                        let dc = (2 * col as i16 + 1 - show.cols as i16).unsigned_abs() / 2;
                        let dr = (2 * row as i16 + 1 - show.rows as i16).unsigned_abs() / 2;
                        let ring = dc.max(dr);
                        if ring <= grown {
                            f.set(col, row, colours[((ring + grown) & 1) as usize]);
                        }
                    }
                }
            }
            Scene::Scroll { text, colours, .. } => {
                let (shift, width) = (self.step, text_width(text));
                for col in 0..show.cols {
                    // The text's column under the display's column, text entering from the right.
                    let at = (shift + col as u16).checked_sub(show.cols as u16).filter(|&at| at < width);
                    if let Some(at) = at {
                        let mut bits = load(text, 2 + at as usize);
                        let second = load(text, 2 + width as usize + (at >> 3) as usize) >> (at & 7) & 1;
                        let colour = colours[second as usize];
                        for row in 0..show.rows {
                            if bits & 1 != 0 {
                                f.set(col, row, colour);
                            }
                            bits >>= 1;
                        }
                    }
                }
            }
        }
    }
}

/// The columns of a laid-out text, from its first two bytes.
fn text_width(text: &'static [u8]) -> u16 {
    if text.len() < 2 {
        return 0;
    }
    // SAFETY: both bytes are inside the table.
    unsafe { crate::progmem::word(text.as_ptr() as *const u16) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two glyphs laid out: a 2-column bar and a blank, a 1-column dot (in the second colour)
    /// and a blank.
    static TEXT: [u8; 8] = [5, 0, 0xFF, 0xFF, 0, 0x08, 0, 0b11000];
    static SCENES: [Scene; 2] = [
        Scene::Starburst { step_ms: 10, colours: [Colour::Red, Colour::Green] },
        Scene::Scroll { text: &TEXT, step_ms: 10, colours: [Colour::Red, Colour::Green] },
    ];
    static SHOW: Show = Show { scenes: &SCENES, cols: 8, rows: 8 };

    #[test]
    fn each_scene_lasts_its_steps_times_its_step() {
        // The starburst: 8 / 2 + 2 = 6 steps of 10 ms; the text: 2 + 1 + 1 + 1 columns and the
        // display's 8, 13 steps of 10 ms.
        let mut intro = Intro::default();
        for ms in 1..=60 + 130 {
            assert!(!intro.done(&SHOW));
            intro.tick(&SHOW);
            assert_eq!(
                intro.scene,
                if ms < 60 {
                    0
                } else if ms < 190 {
                    1
                } else {
                    2
                },
                "{ms}"
            );
        }
        assert!(intro.done(&SHOW));
        static QUICK: [Scene; 1] = [Scene::Starburst { step_ms: 0, colours: [Colour::Red, Colour::Green] }];
        let quick = Show { scenes: &QUICK, ..SHOW };
        let mut intro = Intro::default();
        intro.tick(&quick);
        assert!(intro.done(&quick), "0 ms steps: a millisecond");
    }

    #[test]
    fn the_starburst_grows_from_the_centre_in_alternating_rings() {
        let mut intro = Intro::default();
        let f = intro.frame(&SHOW);
        assert_eq!(f.get(3, 3), Colour::Red);
        assert_eq!(f.get(4, 4), Colour::Red);
        assert_eq!(f.get(0, 0), Colour::Off, "not yet");
        for _ in 0..30 {
            intro.tick(&SHOW);
        }
        let f = intro.frame(&SHOW);
        assert_eq!(f.get(0, 0), Colour::Red, "the outer ring reached the corner, in the first colour");
        assert_ne!(f.get(3, 3), f.get(2, 2), "rings alternate");
    }

    #[test]
    fn the_text_scrolls_in_from_the_right_glyph_colours_alternating() {
        let mut intro = Intro::default();
        // 6 steps of starburst.
        for _ in 0..60 {
            intro.tick(&SHOW);
        }
        // One column scrolled in: the bar's first column at the right edge, red.
        for _ in 0..10 {
            intro.tick(&SHOW);
        }
        let f = intro.frame(&SHOW);
        assert_eq!(f.get(7, 0), Colour::Red);
        assert_eq!(f.get(6, 0), Colour::Off);
        // Four columns in: bar, bar, blank, dot (row 3 only, green).
        for _ in 0..30 {
            intro.tick(&SHOW);
        }
        let f = intro.frame(&SHOW);
        assert_eq!((f.get(4, 5), f.get(5, 5), f.get(6, 5)), (Colour::Red, Colour::Red, Colour::Off));
        assert_eq!((f.get(7, 3), f.get(7, 2)), (Colour::Green, Colour::Off));
        // The whole text leaves on the left, and the show ends.
        for _ in 0..(6 + 8) * 10 {
            intro.tick(&SHOW);
        }
        assert!(intro.done(&SHOW));
    }
}

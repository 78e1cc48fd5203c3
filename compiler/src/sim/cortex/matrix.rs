//! A person at a cursor board's pins in QEMU: the bicolour matrix read off the trace as an eye
//! sees it over a while, an encoder turned a detent at a time, and a press listened to; what
//! `sim::Device` does on an AVR's, so that the same tests play either chip.

use super::{Board, Event, Trace};
use crate::bind::cursor::Matrix;
use crate::sim::Lit;
use gamec_dsl::Pin;

impl Board {
    /// A cursor board's inputs, which the player holds released from the start: the
    /// encoders' contacts and the buttons.
    pub(super) fn cursor_inputs(target: &crate::bind::Target) -> Vec<Pin> {
        let Some(c) = &target.cursor else { return Vec::new() };
        let encoders = c.encoders.iter().flat_map(|&(_, a, b)| [a, b]);
        encoders.chain([c.commit]).chain(c.restart).collect()
    }

    /// The matrix cells a state of the machine lights, `[row][col]`: a column is lit while its
    /// pin is an output at its active level, and its lit rows are outputs driven high. A
    /// closure that borrows nothing of the player, which follows the trace meanwhile.
    fn matrix_in(m: &Matrix) -> impl Fn(&Trace) -> [[Lit; 8]; 8] + '_ {
        move |state| {
            let level = |p: Pin| {
                let s = state.ports[(p.port as u8 - b'A') as usize];
                let bit = 1 << p.bit;
                (s.dir & bit != 0).then_some(s.data & bit != 0)
            };
            let mut out = [[0; 8]; 8];
            for (colour, columns) in [(1u8, &m.red), (2u8, &m.green)] {
                for (c, &p) in columns.iter().enumerate() {
                    if level(p) != Some(m.columns_active_high) {
                        continue;
                    }
                    for (r, &rp) in m.rows.iter().enumerate() {
                        if level(rp) == Some(true) {
                            out[r][c] |= colour;
                        }
                    }
                }
            }
            out
        }
    }

    /// Everything the matrix lit at some point in the next `ms` milliseconds: the picture as
    /// an eye sees it over that time.
    pub fn matrix_over(&mut self, ms: f64) -> [[Lit; 8]; 8] {
        let m = self.target.cursor.clone().expect("a cursor board").matrix;
        let lit_in = Board::matrix_in(&m);
        let mut seen = lit_in(&self.trace);
        self.pass(ms, |t, e| {
            if matches!(e, Event::Port(_)) {
                for (row, now) in seen.iter_mut().zip(lit_in(t)) {
                    for (cell, v) in row.iter_mut().zip(now) {
                        *cell |= v;
                    }
                }
            }
        });
        seen
    }

    /// One detent of an encoder on pins `a` and `b` ([`crate::sim::detent`]), each contact
    /// state held for 2 ms of the firmware's time.
    pub fn turn(&mut self, a: Pin, b: Pin, forward: bool) {
        self.turn_holding(a, b, forward, 2.0);
    }

    /// One detent, each contact state held for `ms`: at the wall clock's pace a loaded host
    /// can hold QEMU's vCPU back past two ticks, whose interrupts then run once, and the
    /// firmware, sampling the encoder a tick, would miss a state held for only two.
    pub fn turn_holding(&mut self, a: Pin, b: Pin, forward: bool, ms: f64) {
        for (la, lb) in crate::sim::detent(forward) {
            self.hold(a.port, a.bit, la);
            self.hold(b.port, b.bit, lb);
            self.run_ms(ms);
        }
        self.run_ms(2.0 * ms);
    }

    /// Presses a button on `p`; the pitch heard in the `ms` after its 20 ms of debouncing,
    /// 0 for silence.
    pub fn press_listening_for(&mut self, p: Pin, ms: f64) -> f64 {
        self.hold(p.port, p.bit, false);
        self.run_ms(20.0);
        let pitch = self.speaker_hz(ms);
        self.hold(p.port, p.bit, true);
        self.run_ms(25.0);
        pitch
    }
}

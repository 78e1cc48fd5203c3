//! The tick that every Cortex-M glue of buttons and of a cursor shares: SysTick interrupting
//! at the board's refresh rate, each interrupt advancing a millisecond count by the board's
//! [`TickRate`], and paused around sleep. A chip's glue wraps it in its `Chip` and `on_tick`.

use super::TickRate;
use core::cell::Cell;
use cortex_m::interrupt::{self as irq, Mutex};
use cortex_m::peripheral::SYST;

/// The count of `top + 1` steps of `1 << (clock - 1)` clocks, less one: a timer's reload
/// value for a divisor the compiler chose among powers of two.
pub fn reload(clock: u8, top: u16) -> u32 {
    ((top as u32 + 1) << (clock.max(1) - 1)) - 1
}

/// The millisecond count, and the part of a millisecond counted beyond it.
#[derive(Clone, Copy)]
struct Millis {
    count: u16,
    rem: u16,
}

static MILLIS: Mutex<Cell<Millis>> = Mutex::new(Cell::new(Millis { count: 0, rem: 0 }));

/// Advances the count by one tick of `rate`. Inlined, so that a board's rate given as a
/// constant folds into the handler.
#[inline(always)]
pub fn on_tick(rate: TickRate) {
    // SAFETY: called only from the SysTick handler, which no other handler of the glue
    // preempts (all run at one priority), and the main loop reads the count masked.
    let cs = unsafe { irq::CriticalSection::new() };
    let cell = MILLIS.borrow(&cs);
    let m = cell.get();
    let (count, rem) = rate.advance(m.count, m.rem);
    cell.set(Millis { count, rem });
}

/// Milliseconds since start, wrapping, paused while asleep.
#[inline(never)]
pub fn millis() -> u16 {
    irq::free(|cs| MILLIS.borrow(cs).get().count)
}

/// Loads SysTick with a tick of `(top + 1) << (clock - 1)` processor clocks and starts it.
pub fn start(clock: u8, top: u16) {
    // SAFETY: SysTick is the glue's alone, written directly rather than through
    // `cortex_m::Peripherals`, which the firmware stays free to take.
    unsafe {
        let syst = &*SYST::PTR;
        syst.rvr.write(reload(clock, top));
        syst.cvr.write(0);
    }
    resume();
}

/// Stops the tick's interrupt: before darkening a display for sleep, so that no tick lights
/// a row again in between.
pub fn pause() {
    // SAFETY: as in `start`. ENABLE and CLKSOURCE stay; TICKINT clears.
    unsafe { (*SYST::PTR).csr.write(0b101) };
}

pub fn resume() {
    // SAFETY: as in `start`. ENABLE, TICKINT, CLKSOURCE = the processor clock.
    unsafe { (*SYST::PTR).csr.write(0b111) };
}

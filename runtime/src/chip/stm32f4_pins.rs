//! Pin glue for the STM32F405 and the AT32F437, whose GPIO ports, general-purpose timers 2 to
//! 5, external interrupts and their routing (SYSCFG; Artery's SCFG and EXINT) have the same
//! registers at the same addresses and interrupt numbers (RM0090; the AT32F435/437 reference
//! manual): ports A to I as embedded-hal pins and tri-state pin groups, SysTick as the
//! periodic tick, a tone toggled on any pin by a timer's update interrupt, and sleep woken by
//! a pin's falling edge. The clocks stay as reset leaves them (the STM32F405's 16 MHz HSI, the
//! AT32F437's 8 MHz HICK; the timers on APB1 run at it): the compiler derives every divisor
//! from the clock the board names. It knows no game: the generated firmware composes these
//! services with the runtime's drivers.
//!
//! A port is the language's eight pins, bits 0 to 7 of the chip's sixteen. The registers are
//! written by address: the two chips' register crates name them differently.

use super::cortex_pins::GpioPort;
use super::mmio::{modify, read, write};
use super::systick_millis::{self, reload};
use crate::tune::{Note, Speaker};
use core::sync::atomic::{AtomicBool, Ordering};
/// The critical sections' module, which the generated firmware names apart from the
/// interrupts' attribute (the chip module's `interrupt`).
pub use cortex_m::interrupt as irq;
use cortex_m::interrupt::InterruptNumber;
use cortex_m::peripheral::NVIC;

/// The reset and clock control's enables: the GPIO ports (AHB1, a bit a port from A), timers
/// 2 to 5 (APB1, bits 0 to 3) and SYSCFG (APB2, bit 14).
const AHB1ENR: usize = 0x4002_3830;
const APB1ENR: usize = 0x4002_3840;
const APB2ENR: usize = 0x4002_3844;
const SYSCFG_EN: u32 = 1 << 14;

/// Port A's registers; port n's are `0x400 * n` further.
const GPIOA: usize = 0x4002_0000;
const MODER: usize = 0x00;
const PUPDR: usize = 0x0C;
const IDR: usize = 0x10;
const BSRR: usize = 0x18;

/// Timer 2's registers; timers 3 to 5 follow `0x400` apart.
const TIM2: usize = 0x4000_0000;
const CR1: usize = 0x00;
const DIER: usize = 0x0C;
const SR: usize = 0x10;
const EGR: usize = 0x14;
const PSC: usize = 0x28;
const ARR: usize = 0x2C;

/// The external interrupt lines' port selection (four bits a line, from `EXTICR1`) and the
/// lines' mask, falling-edge and pending registers.
const EXTICR1: usize = 0x4001_3808;
const EXTI: usize = 0x4001_3C00;
const IMR: usize = 0x00;
const FTSR: usize = 0x0C;
const PR: usize = 0x14;

/// A position in the interrupt table, for NVIC: the two chips' register crates each name
/// their own, and the glue needs a few by number.
#[derive(Clone, Copy)]
struct Irq(u16);

// SAFETY: every number used is one of the chips' interrupts (below).
unsafe impl InterruptNumber for Irq {
    fn number(self) -> u16 {
        self.0
    }
}

/// One of the chip's GPIO ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Port {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
    I,
}

/// Each pin's two bits of a mode or pull register set to `value` where `mask` has the pin.
fn pairs(mask: u8, value: u8) -> (u32, u32) {
    let (mut m, mut v) = (0, 0);
    for bit in 0..8 {
        if mask >> bit & 1 == 1 {
            m |= 0b11 << (2 * bit);
            v |= ((value >> bit & 1) as u32) << (2 * bit);
        }
    }
    (m, v)
}

impl Port {
    fn base(self) -> usize {
        GPIOA + 0x400 * self as usize
    }

    /// The levels on the port's pins.
    pub fn read(self) -> u8 {
        read(self.base() + IDR) as u8
    }

    /// Sets the output bits of `mask` to those of `out`, leaving the others: one write to
    /// the bit set/reset register, never a read-modify-write.
    pub fn write_out(self, mask: u8, out: u8) {
        let (set, reset) = (mask & out, mask & !out);
        write(self.base() + BSRR, set as u32 | (reset as u32) << 16);
    }

    /// Makes the pins of `dir` outputs driven to `out`'s bits and the others of `out` inputs
    /// with their pull-ups on, as an AVR's DDRx and PORTx written from reset say it (a
    /// cursor board's matrix and inputs are set up so): a port's pins the board does not use
    /// are left as they are.
    ///
    /// # Safety
    /// After [`power_up_ports`], before interrupts are first enabled.
    pub unsafe fn set_from_reset(self, dir: u8, out: u8) {
        self.set(dir | out, dir, out & dir, out & !dir);
    }

    /// Makes the pins of `mask` outputs where `dir` is set (driven to `out`) and inputs
    /// elsewhere, with their pull-ups on where `pull_up` is set.
    fn set(self, mask: u8, dir: u8, out: u8, pull_up: u8) {
        // The level first, so that an output starts at it.
        self.write_out(mask & dir, out);
        let base = self.base();
        let (m, pull) = pairs(mask, pull_up);
        let (_, mode) = pairs(mask, dir);
        irq::free(|_| {
            modify(base + PUPDR, m, pull);
            modify(base + MODER, m, mode);
        });
    }
}

impl GpioPort for Port {
    #[inline(always)]
    fn read(self) -> u8 {
        Port::read(self)
    }
    #[inline(always)]
    fn write_out(self, mask: u8, out: u8) {
        Port::write_out(self, mask, out)
    }
    #[inline(always)]
    fn set(self, mask: u8, dir: u8, out: u8, pull_up: u8) {
        Port::set(self, mask, dir, out, pull_up)
    }
    #[inline(always)]
    fn set_outputs(self, mask: u8, outputs: u8) {
        let (m, mode) = pairs(mask, outputs);
        modify(self.base() + MODER, m, mode);
    }
}

/// Clocks every GPIO port, the timers and SYSCFG. First thing at start: a port's registers
/// ignore writes while its clock is gated.
///
/// # Safety
/// Before anything else touches the ports.
pub unsafe fn power_up_ports() {
    modify(AHB1ENR, 0x1FF, 0x1FF);
    modify(APB1ENR, 0xF, 0xF);
    modify(APB2ENR, SYSCFG_EN, SYSCFG_EN);
    // A peripheral answers two bus clocks after its enable (RM0090 6.3.10).
    cortex_m::asm::dsb();
}

/// A pin the chip reads.
pub type Input = super::cortex_pins::Input<Port>;
/// Pins of one port switched together, as a charlieplexed display's are.
pub type PortPins = super::cortex_pins::PortPins<Port>;

/// One board's clock, tick and speaker, as the compiler lowered them.
pub type Config = super::cortex_pins::Config<Port>;

/// Timer n's registers (n from 2 to 5).
fn timer(n: u8) -> usize {
    TIM2 + 0x400 * (n.clamp(2, 5) - 2) as usize
}

/// Timer n's interrupt: TIM2-4 are 28-30, TIM5 50.
fn timer_irq(n: u8) -> Irq {
    Irq(if n >= 5 { 50 } else { 26 + n as u16 })
}

/// External interrupt line n's interrupt: lines 0-4 have their own (6-10), 5-9 share 23.
fn line_irq(line: u8) -> Irq {
    Irq(if line < 5 { 6 + line as u16 } else { 23 })
}

/// Set by a wake pin's interrupt, which ends a sleep.
static WOKEN: AtomicBool = AtomicBool::new(false);

/// The tick: call from the SysTick exception handler. Inlined, so that a board's `Config`
/// given as a constant folds into the handler.
#[inline(always)]
pub fn on_tick(cfg: &Config) {
    systick_millis::on_tick(cfg.rate);
}

/// The speaker's half-period: call from its timer's interrupt handler.
#[inline(always)]
pub fn on_tone(cfg: &Config) {
    if let Some((n, port, bit)) = cfg.tone {
        write(timer(n) + SR, 0);
        let mask = 1 << bit;
        port.write_out(mask, !port.read());
    }
}

/// A press on a wake pin: call from its external interrupt line's handler. The port names
/// the pin's port, as on the other chips; the lines pending are what is cleared.
pub fn on_wake(_port: Port) {
    write(EXTI + PR, 0xFF);
    WOKEN.store(true, Ordering::Relaxed);
}

/// The chip, set up: what the firmware asks for its services.
pub struct Chip {
    cfg: &'static Config,
}

impl Chip {
    /// Starts the tick, readies the speaker, and enables interrupts.
    pub fn new(cfg: &'static Config) -> Self {
        systick_millis::start(cfg.tick_clock, cfg.tick_top);
        if let Some((n, port, bit)) = cfg.tone {
            port.set(1 << bit, 1 << bit, 0, 0);
            let t = timer(n);
            write(t + CR1, 0);
            write(t + DIER, 1);
            // SAFETY: the handler's state (the board's constant) is ready.
            unsafe { NVIC::unmask(timer_irq(n)) };
        }
        // SAFETY: the handlers' shared state is ready.
        unsafe { irq::enable() };
        Chip { cfg }
    }

    /// Milliseconds since start, wrapping, paused while asleep.
    pub fn millis(&self) -> u16 {
        systick_millis::millis()
    }

    /// Stops the tick's interrupt: before darkening a display for sleep, so that no tick
    /// lights a row again in between.
    pub fn pause_tick(&mut self) {
        systick_millis::pause();
    }

    pub fn resume_tick(&mut self) {
        systick_millis::resume();
    }

    /// Sleeps until a falling edge on `wake`'s pin (a press pulling it low), routed to its
    /// external interrupt line, whose handler the firmware points at [`on_wake`]. The caller
    /// pauses its own work first.
    pub fn power_down(&mut self, wake: (Port, u8)) {
        let (port, mask) = wake;
        let line = mask.trailing_zeros() as u8;
        let cr = EXTICR1 + 4 * (line / 4) as usize;
        let shift = 4 * (line % 4) as u32;
        let m = 1u32 << line;
        irq::free(|_| {
            modify(cr, 0xF << shift, (port as u32) << shift);
            modify(EXTI + FTSR, m, m);
            write(EXTI + PR, m);
            modify(EXTI + IMR, m, m);
        });
        WOKEN.store(false, Ordering::Relaxed);
        // SAFETY: `on_wake` touches the pending register and a flag alone.
        unsafe { NVIC::unmask(line_irq(line)) };
        while !WOKEN.load(Ordering::Relaxed) {
            cortex_m::asm::wfi();
        }
        NVIC::mask(line_irq(line));
        irq::free(|_| modify(EXTI + IMR, m, 0));
    }
}

impl Speaker for Chip {
    /// The speaker's timer counts a half-period (its prescaler the note's divisor step, its
    /// reload the note's count) and toggles the pin at each update.
    fn tone(&mut self, note: Option<&Note>) {
        let Some((n, port, bit)) = self.cfg.tone else { return };
        let t = timer(n);
        write(t + CR1, 0);
        match note {
            Some(note) if !note.is_rest() => {
                write(t + PSC, reload(note.clock, 0));
                write(t + ARR, note.top as u32);
                // Load the prescaler now, not at the next update; the update flag it raises
                // is no half-period.
                write(t + EGR, 1);
                write(t + SR, 0);
                write(t + CR1, 1);
            }
            // Leave the pin low so the piezo draws nothing.
            _ => port.write_out(1 << bit, 0),
        }
    }
}

//! Chip glue for the LM3S6965 (Cortex-M3): ports A to G as embedded-hal pins and tri-state
//! pin groups, SysTick as the periodic tick, a tone toggled on any pin by a general-purpose
//! timer's interrupt, and sleep woken by a pin's edge. It sets the clock from the PLL, the one
//! setting at which the chip and QEMU's `lm3s6965evb`, which runs the tests, agree. It knows
//! no game: the generated firmware composes these services with the runtime's drivers.
//!
//! The registers are written by address, from the LM3S6965 datasheet (DS-LM3S6965): the
//! `lm3s6965` crate gives the interrupts alone.

use super::cortex_pins::GpioPort;
use super::mmio::{modify, read, write};
use super::systick_millis::{self, reload};
use crate::tune::{Note, Speaker};
use core::sync::atomic::{AtomicBool, Ordering};
/// The critical sections' module, which the generated firmware names apart from the
/// interrupts' attribute [`interrupt`].
pub use cortex_m::interrupt as irq;
use cortex_m::peripheral::NVIC;

/// The attribute (and the interrupt names it checks) for the handlers:
/// `#[interrupt] fn TIMER_1A() { on_tone(&board::CONFIG) }`.
pub use lm3s6965::interrupt;
use lm3s6965::Interrupt;

pub mod serial;

/// System control: raw interrupt status, run-mode clock configuration, and the run-mode clock
/// gates of the timers (RCGC1) and the GPIO ports (RCGC2).
const SYSCTL: usize = 0x400F_E000;
const RIS: usize = 0x050;
const RCC: usize = 0x060;
const RCGC1: usize = 0x104;
const RCGC2: usize = 0x108;

/// A GPIO port's registers past its data window (offsets 0x000-0x3FC: an access at `mask << 2`
/// reads or writes the bits of `mask` alone, so a masked write needs no read first).
const DIR: usize = 0x400;
const IS: usize = 0x404;
const IBE: usize = 0x408;
const IEV: usize = 0x40C;
const IM: usize = 0x410;
const ICR: usize = 0x41C;
const PUR: usize = 0x510;
const DEN: usize = 0x51C;

/// A general-purpose timer's registers; timer n is at `TIMER0 + n * 0x1000`.
const TIMER0: usize = 0x4003_0000;
const GPTMCFG: usize = 0x000;
const GPTMTAMR: usize = 0x004;
const GPTMCTL: usize = 0x00C;
const GPTMIMR: usize = 0x018;
const GPTMICR: usize = 0x024;
const GPTMTAILR: usize = 0x028;

/// The PLL's output, which the system clock divides (SYSDIV + 1, at least 4: 50 MHz).
pub const PLL_HZ: u32 = 200_000_000;

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
}

impl Port {
    fn base(self) -> usize {
        [0x4000_4000, 0x4000_5000, 0x4000_6000, 0x4000_7000, 0x4002_4000, 0x4002_5000, 0x4002_6000][self as usize]
    }

    /// Its interrupt, which a wake-up on one of its pins takes.
    fn interrupt(self) -> Interrupt {
        [
            Interrupt::GPIOA,
            Interrupt::GPIOB,
            Interrupt::GPIOC,
            Interrupt::GPIOD,
            Interrupt::GPIOE,
            Interrupt::GPIOF,
            Interrupt::GPIOG,
        ][self as usize]
    }

    /// The levels on the port's pins.
    pub fn read(self) -> u8 {
        read(self.base() + (0xFF << 2)) as u8
    }

    /// Sets the output bits of `mask` to those of `out`, leaving the others: one write
    /// through the data window, never a read-modify-write.
    pub fn write_out(self, mask: u8, out: u8) {
        write(self.base() + ((mask as usize) << 2), out as u32);
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

    /// Makes the pins of `mask` digital, outputs where `dir` is set (driven to `out`) and
    /// inputs elsewhere, with their pull-ups on where `pull_up` is set.
    fn set(self, mask: u8, dir: u8, out: u8, pull_up: u8) {
        let (base, m) = (self.base(), mask as u32);
        irq::free(|_| {
            modify(base + PUR, m, pull_up as u32);
            modify(base + DEN, m, m);
            modify(base + DIR, m, dir as u32);
        });
        // After the direction: the data register ignores writes to an input's bit.
        self.write_out(mask, out);
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
        let (base, m) = (self.base(), mask as u32);
        modify(base + DEN, m, m);
        modify(base + DIR, m, outputs as u32);
    }
}

/// Clocks every GPIO port and the timers. First thing at start: a port's registers fault
/// while its clock is gated.
///
/// # Safety
/// Before anything else touches the ports.
pub unsafe fn power_up_ports() {
    write(SYSCTL + RCGC2, 0x7F);
    write(SYSCTL + RCGC1, 0xF << 16);
    // A peripheral answers three clocks after its gate opens.
    cortex_m::asm::dsb();
    cortex_m::asm::nop();
    cortex_m::asm::nop();
    cortex_m::asm::nop();
}

/// A pin the chip reads.
pub type Input = super::cortex_pins::Input<Port>;
/// Pins of one port switched together, as a charlieplexed display's are.
pub type PortPins = super::cortex_pins::PortPins<Port>;

/// One board's clock, tick and speaker, as the compiler lowered them.
pub type Config = super::cortex_pins::Config<Port>;

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
    if let Some((timer, port, bit)) = cfg.tone {
        write(TIMER0 + 0x1000 * timer as usize + GPTMICR, 1);
        let mask = 1 << bit;
        port.write_out(mask, !port.read());
    }
}

/// A press on a wake pin: call from its port's interrupt handler.
pub fn on_wake(port: Port) {
    write(port.base() + ICR, 0xFF);
    WOKEN.store(true, Ordering::Relaxed);
}

/// The chip, set up: what the firmware asks for its services.
pub struct Chip {
    cfg: &'static Config,
}

impl Chip {
    /// Sets the clock, starts the tick, readies the speaker, and enables interrupts.
    pub fn new(cfg: &'static Config) -> Self {
        set_clock(cfg.clock_hz);
        systick_millis::start(cfg.tick_clock, cfg.tick_top);
        let chip = Chip { cfg };
        if let Some((timer, port, bit)) = cfg.tone {
            port.set(1 << bit, 1 << bit, 0, 0);
            let t = TIMER0 + 0x1000 * timer as usize;
            write(t + GPTMCTL, 0);
            // One 32-bit timer, periodic, interrupting at each time-out. QEMU models this
            // mode only, not the 16-bit halves.
            write(t + GPTMCFG, 0);
            write(t + GPTMTAMR, 0x2);
            write(t + GPTMIMR, 1);
            // SAFETY: the handler's state (the board's constant) is ready.
            unsafe { NVIC::unmask(tone_interrupt(timer)) };
        }
        // SAFETY: the handlers' shared state is ready.
        unsafe { irq::enable() };
        chip
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

    /// Sleeps until a falling edge on `wake`'s pin (a press pulling it low), whose port's
    /// interrupt the firmware handles with [`on_wake`]. The caller pauses its own work first.
    pub fn power_down(&mut self, wake: (Port, u8)) {
        let (port, mask) = wake;
        let (base, m) = (port.base(), mask as u32);
        irq::free(|_| {
            modify(base + IS, m, 0);
            modify(base + IBE, m, 0);
            modify(base + IEV, m, 0);
            write(base + ICR, m);
            modify(base + IM, m, m);
        });
        WOKEN.store(false, Ordering::Relaxed);
        // SAFETY: `on_wake` touches the port's interrupt registers and a flag alone.
        unsafe { NVIC::unmask(port.interrupt()) };
        while !WOKEN.load(Ordering::Relaxed) {
            cortex_m::asm::wfi();
        }
        NVIC::mask(port.interrupt());
        irq::free(|_| modify(base + IM, m, 0));
    }
}

impl Speaker for Chip {
    /// The speaker's timer counts a half-period and toggles the pin at each time-out.
    fn tone(&mut self, note: Option<&Note>) {
        let Some((timer, port, bit)) = self.cfg.tone else { return };
        let t = TIMER0 + 0x1000 * timer as usize;
        write(t + GPTMCTL, 0);
        match note {
            Some(n) if !n.is_rest() => {
                write(t + GPTMTAILR, reload(n.clock, n.top));
                write(t + GPTMCTL, 1);
            }
            // Leave the pin low so the piezo draws nothing.
            _ => port.write_out(1 << bit, 0),
        }
    }
}

/// Timer n's interrupt (its A half, which the 32-bit mode uses).
fn tone_interrupt(timer: u8) -> Interrupt {
    [Interrupt::TIMER_0A, Interrupt::TIMER_1A, Interrupt::TIMER_2A, Interrupt::TIMER_3A][timer as usize & 3]
}

/// Runs the system clock at `clock_hz` from the PLL fed by the main oscillator's 8 MHz
/// crystal (the EK-LM3S6965's), in the datasheet's order: bypass the PLL, set the crystal and
/// the divider, wait for lock, then use it. The compiler allows only `PLL_HZ / n` for n from
/// 4 to 16.
pub(super) fn set_clock(clock_hz: u32) {
    const BYPASS: u32 = 1 << 11;
    const USESYSDIV: u32 = 1 << 22;
    const PWRDN: u32 = 1 << 13;
    const XTAL_8MHZ: u32 = 0xE << 6;
    const PLLLRIS: u32 = 1 << 6;
    const MOSCDIS: u32 = 1 << 0;
    let sysdiv = (PLL_HZ / clock_hz.max(1)).clamp(4, 16) - 1;
    let rcc = SYSCTL + RCC;
    modify(rcc, BYPASS | USESYSDIV, BYPASS);
    // The main oscillator on (it resets off, the chip running from its internal one), XTAL
    // (bits 9:6), OSCSRC (5:4) = the main oscillator, the PLL powered.
    modify(rcc, (0xF << 6) | (0x3 << 4) | PWRDN | MOSCDIS, XTAL_8MHZ);
    modify(rcc, (0xF << 23) | USESYSDIV, (sysdiv << 23) | USESYSDIV);
    while read(SYSCTL + RIS) & PLLLRIS == 0 {}
    modify(rcc, BYPASS, 0);
}

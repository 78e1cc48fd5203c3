//! What every AVR chip's glue shares: a port's registers behind [`AvrPort`], and over it
//! embedded-hal input and output pins and the tri-state pin groups a charlieplexed display
//! drives. A chip's module names its ports with [`avr_ports!`]; the rest is written once.

use crate::charlieplex::TriState;
use avr_device::interrupt;
use core::convert::Infallible;
use embedded_hal::digital::{ErrorType, InputPin, OutputPin};

/// One I/O port of a chip: its output (PORTx), direction (DDRx) and input (PINx) registers.
pub trait AvrPort: Copy {
    /// Sets the bits of `mask` in DDRx (1 = output) to those of `dir`, then in PORTx to
    /// those of `out`, leaving the other bits.
    fn set(self, mask: u8, dir: u8, out: u8);
    /// As [`set`](Self::set), but on a chip whose PINx toggles PORTx's bits, PORTx's bits of
    /// `mask` are switched by toggles and the others never written back: see [`avr_ports!`].
    fn set_switching(self, mask: u8, dir: u8, out: u8);
    /// Sets the bits of `mask` in PORTx to those of `out`, leaving the others.
    fn write_out(self, mask: u8, out: u8);
    /// Makes the pins of `dir` outputs, leaving the others.
    fn add_dir(self, dir: u8);
    /// Writes DDRx and PORTx whole from their reset values (zeros: every pin an input without
    /// pull-up), a register left at zero not written: at start, where every pin the board uses
    /// on the port is known, no read-modify-write is needed.
    ///
    /// # Safety
    /// Only before anything else has written the port since reset, with interrupts still off.
    unsafe fn set_from_reset(self, dir: u8, out: u8);
    /// The levels on the port's pins.
    fn read(self) -> u8;
}

/// Implements [`AvrPort`] for a chip's `Port` enum over its register crate's peripherals.
/// `pin_toggles;` before the ports, for a chip where writing a one to a bit of PINx toggles
/// that bit of PORTx: [`AvrPort::set_switching`] then changes only its bits of PORTx, never
/// writing the others back. simavr toggles a timer's compare output by writing the port's
/// register, so a read-modify-write of the same port around the toggle (the display's in its
/// tick, with the speaker on that port) would undo it, the beep losing half-periods as the
/// code's timing happens to fall; the chip itself leaves PORTx alone.
macro_rules! avr_ports {
    ($($pac:ident)::+; pin_toggles; $($rest:tt)+) => {
        $crate::chip::avr::avr_ports!(@ports true; $($pac)::+; $($rest)+);
    };
    ($($pac:ident)::+; $($rest:tt)+) => {
        $crate::chip::avr::avr_ports!(@ports false; $($pac)::+; $($rest)+);
    };
    (@ports $toggles:literal; $($pac:ident)::+;
        $($name:ident => $periph:ident($out:ident, $dir:ident, $inp:ident)),+ $(,)?) => {
        #[derive(Clone, Copy, PartialEq, Eq)]
        pub enum Port {
            $($name),+
        }

        impl $crate::chip::avr::AvrPort for Port {
            #[inline(always)]
            fn set(self, mask: u8, dir: u8, out: u8) {
                // SAFETY: single core; the caller masks interrupts around the read-modify-writes.
                // The register block by its address: `Peripherals::steal` would also store its
                // taken flag, an instruction at every access.
                use $($pac)::+ as pac;
                match self {
                    $(Port::$name => {
                        let p = unsafe { &*pac::$periph::ptr() };
                        // A whole port is written, not read first: the volatile read would stay.
                        if mask == 0xFF {
                            p.$dir().write(|w| unsafe { w.bits(dir) });
                            p.$out().write(|w| unsafe { w.bits(out) });
                        } else {
                            p.$dir().modify(|r, w| unsafe { w.bits((r.bits() & !mask) | (dir & mask)) });
                            p.$out().modify(|r, w| unsafe { w.bits((r.bits() & !mask) | (out & mask)) });
                        }
                    })+
                }
            }
            #[inline(always)]
            fn set_switching(self, mask: u8, dir: u8, out: u8) {
                if !$toggles {
                    return self.set(mask, dir, out);
                }
                use $($pac)::+ as pac;
                match self {
                    $(Port::$name => {
                        // SAFETY: as in `set`; the toggles change only the bits of `mask`.
                        let p = unsafe { &*pac::$periph::ptr() };
                        p.$dir().modify(|r, w| unsafe { w.bits((r.bits() & !mask) | (dir & mask)) });
                        let now = p.$out().read().bits();
                        p.$inp().write(|w| unsafe { w.bits((now ^ out) & mask) });
                    })+
                }
            }
            #[inline]
            fn write_out(self, mask: u8, out: u8) {
                use $($pac)::+ as pac;
                match self {
                    $(Port::$name => {
                        let p = unsafe { &*pac::$periph::ptr() };
                        // As in `set`: a whole port written without the read.
                        if mask == 0xFF {
                            p.$out().write(|w| unsafe { w.bits(out) });
                        } else {
                            p.$out().modify(|r, w| unsafe { w.bits((r.bits() & !mask) | (out & mask)) });
                        }
                    })+
                }
            }
            #[inline(always)]
            fn add_dir(self, dir: u8) {
                use $($pac)::+ as pac;
                match self {
                    $(Port::$name => {
                        let p = unsafe { &*pac::$periph::ptr() };
                        p.$dir().modify(|r, w| unsafe { w.bits(r.bits() | dir) });
                    })+
                }
            }
            #[inline(always)]
            unsafe fn set_from_reset(self, dir: u8, out: u8) {
                use $($pac)::+ as pac;
                match self {
                    $(Port::$name => {
                        let p = unsafe { &*pac::$periph::ptr() };
                        if dir != 0 {
                            p.$dir().write(|w| unsafe { w.bits(dir) });
                        }
                        if out != 0 {
                            p.$out().write(|w| unsafe { w.bits(out) });
                        }
                    })+
                }
            }
            #[inline]
            fn read(self) -> u8 {
                use $($pac)::+ as pac;
                match self {
                    $(Port::$name => unsafe { &*pac::$periph::ptr() }.$inp().read().bits(),)+
                }
            }
        }

        /// A pin driven by the chip.
        pub type Output = $crate::chip::avr::Output<Port>;
        /// A pin the chip reads.
        pub type Input = $crate::chip::avr::Input<Port>;
        /// Pins of one port switched together, outputs or floating.
        pub type PortPins = $crate::chip::avr::PortPins<Port>;
    };
}
pub(crate) use avr_ports;

/// The services of a chip whose Timer/Counter0 ticks (CTC on OCR0, interrupt OCIE0 in TIMSK)
/// and whose Timer/Counter1 plays notes on an output pin: the ATmega16's and the
/// ATmega64/128's. Writes `Config`, the millisecond count and its tick (`on_tick`), and
/// `Chip<TONE_CHANNEL>` with its clock, delay, tick pause and `Speaker`; the chip's module
/// names its register crate `$pac`, the port of the Timer/Counter1 outputs (`$port` with its
/// output and direction registers), each channel's pin mask (`$channel => $pin`) and the
/// compare registers a note clears besides OCR1A, and writes its own power-down.
// Unused on a build for the ATtiny alone, whose glue has its own tick.
#[allow(unused_macros)]
macro_rules! avr_tick_and_tone {
    ($pac:ident; tone on $port:ident($out:ident, $dir:ident), |$channel:ident| $pin:expr; clears $($ocr:ident),*) => {
        use crate::tune::{Note, Speaker};
        use avr_device::interrupt::{self, Mutex};
        use core::cell::Cell;
        use embedded_hal::delay::DelayNs;

        /// The millisecond count and its fractional remainder, advanced by the tick interrupt.
        static MILLIS: Mutex<Cell<(u16, u16)>> = Mutex::new(Cell::new((0, 0)));

        /// One board's timing, as the compiler lowered it.
        pub struct Config {
            /// Timer/Counter0's clock select and compare value for the tick.
            pub tick_clock: u8,
            pub tick_top: u8,
            pub rate: super::TickRate,
            /// The clock, for delays.
            pub clock_hz: u32,
        }

        /// The tick: call only from the Timer/Counter0 compare interrupt. Returns after counting
        /// time, so the caller can refresh its display in the same interrupt.
        pub fn on_tick(cfg: &Config) {
            // SAFETY: called only from the tick's interrupt handler, which runs with interrupts
            // off: the critical section is already there, nothing to save and restore.
            let cs = unsafe { interrupt::CriticalSection::new() };
            let cell = MILLIS.borrow(cs);
            let (ms, rem) = cell.get();
            cell.set(cfg.rate.advance(ms, rem));
        }

        /// The chip, with the Timer/Counter1 output the speaker is on a constant of its type (0
        /// for A, 1 for B, 2 for C). A constant, not fields worked out in [`Chip::new`]: the
        /// speaker's pin and toggle bits are then immediates, where fields are read through the
        /// chip's pointer at every note.
        pub struct Chip<const TONE_CHANNEL: u8>;

        impl<const TONE_CHANNEL: u8> Chip<TONE_CHANNEL> {
            /// The speaker's pin on its port.
            const TONE_PIN: u8 = {
                let $channel = TONE_CHANNEL;
                $pin
            };
            /// TCCR1A's toggle-on-compare bits for the speaker's channel.
            const TONE_TOGGLE: u8 = 0x40 >> (2 * TONE_CHANNEL);

            /// Starts the tick and enables interrupts.
            pub fn new(cfg: &'static Config) -> Self {
                // SAFETY: single core; every register access here is a whole read, write or a
                // read-modify-write made before interrupts are enabled. By address:
                // `Peripherals::steal` stores a flag at every use.
                let tc0 = unsafe { &*$pac::TC0::ptr() };
                // CTC (WGM01), compare interrupt (OCIE0).
                tc0.ocr0().write(|w| unsafe { w.bits(cfg.tick_top) });
                tc0.tccr0().write(|w| unsafe { w.bits(0b1000 | cfg.tick_clock) });
                tc0.timsk().modify(|r, w| unsafe { w.bits(r.bits() | 0b10) });
                unsafe { interrupt::enable() };
                Chip
            }

            /// Not inlined: the main loop reads the count in several places, each a critical
            /// section.
            #[inline(never)]
            pub fn millis(&self) -> u16 {
                interrupt::free(|cs| MILLIS.borrow(cs).get().0)
            }

            /// A busy-wait delay at this board's clock. Worked out from the config when asked,
            /// not kept in the chip: a firmware that never waits stores nothing for it.
            pub fn delay(&self, cfg: &Config) -> Delay {
                Delay { cycles_per_us: (cfg.clock_hz / 1_000_000).max(1) }
            }

            /// Stops the tick's interrupt: before darkening a display for sleep, so that no tick
            /// lights a row again in between.
            pub fn pause_tick(&mut self) {
                // SAFETY: a read-modify-write of TIMSK, shared with Timer/Counter1's bits, masked.
                let tc0 = unsafe { &*$pac::TC0::ptr() };
                interrupt::free(|_| tc0.timsk().modify(|r, w| unsafe { w.bits(r.bits() & !0b10) }));
            }

            pub fn resume_tick(&mut self) {
                // SAFETY: as in `pause_tick`.
                let tc0 = unsafe { &*$pac::TC0::ptr() };
                interrupt::free(|_| tc0.timsk().modify(|r, w| unsafe { w.bits(r.bits() | 0b10) }));
            }

            /// CTC on OCR1A at `top`, prescaler bits `clock`, the speaker's output toggling at
            /// each match.
            fn sound(&mut self, top: u16, clock: u8) {
                // SAFETY: single core; whole writes, and the port's read-modify-write with
                // interrupts masked.
                let (tc1, port) = unsafe { (&*$pac::TC1::ptr(), &*$pac::$port::ptr()) };
                let pin = Self::TONE_PIN;
                tc1.tccr1b().write(|w| unsafe { w.bits(0) });
                tc1.tcnt1().write(|w| unsafe { w.bits(0) });
                tc1.ocr1a().write(|w| unsafe { w.bits(top) });
                $(tc1.$ocr().write(|w| unsafe { w.bits(0) });)*
                // Toggle on compare match: COM1x0 of the speaker's channel.
                tc1.tccr1a().write(|w| unsafe { w.bits(Self::TONE_TOGGLE) });
                interrupt::free(|_| port.$dir().modify(|r, w| unsafe { w.bits(r.bits() | pin) }));
                tc1.tccr1b().write(|w| unsafe { w.bits(0b1000 | clock) });
            }

            fn silence(&mut self) {
                // SAFETY: as in `sound`.
                let (tc1, port) = unsafe { (&*$pac::TC1::ptr(), &*$pac::$port::ptr()) };
                let pin = Self::TONE_PIN;
                tc1.tccr1b().write(|w| unsafe { w.bits(0) });
                tc1.tccr1a().write(|w| unsafe { w.bits(0) });
                interrupt::free(|_| port.$out().modify(|r, w| unsafe { w.bits(r.bits() & !pin) }));
            }
        }

        impl<const TONE_CHANNEL: u8> Speaker for Chip<TONE_CHANNEL> {
            fn tone(&mut self, note: Option<&Note>) {
                match note {
                    Some(n) => self.sound(n.top, n.clock),
                    None => self.silence(),
                }
            }

            /// The note's fields read straight into the timer's settings, with no copy of the
            /// note.
            fn play(&mut self, note: &'static Note) {
                let n = Note::load(note);
                if n.is_rest() {
                    self.silence()
                } else {
                    self.sound(n.top, n.clock)
                }
            }
        }

        /// Waits by counting cycles; interrupts still run, so waits are at least as long as
        /// asked.
        pub struct Delay {
            cycles_per_us: u32,
        }

        impl DelayNs for Delay {
            fn delay_ns(&mut self, ns: u32) {
                avr_device::asm::delay_cycles((ns / 1000 + 1) * self.cycles_per_us);
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use avr_tick_and_tone;

/// A serial session's clock and line on an AVR chip's USART (`$usart`, its data register
/// `$udr` and status register A `$ucsra`): the millisecond count the tick interrupt advances
/// ([`on_tick`]), the receive queue its interrupt fills ([`on_receive`]), and `Usart`, the
/// line as embedded-io reads and writes it, and `Chip`, whose `new` the chip's module writes:
/// it sets the USART and the tick's timer up.
#[allow(unused_macros)]
macro_rules! avr_serial_session {
    ($usart:path, $udr:ident, $ucsra:ident) => {
        use crate::serial::ByteQueue;
        use avr_device::interrupt::{self, Mutex};
        use core::cell::Cell;

        static MILLIS: Mutex<Cell<u32>> = Mutex::new(Cell::new(0));

        /// The receive queue, filled by the interrupt and drained by the main loop.
        static RX: Mutex<ByteQueue<32>> = Mutex::new(ByteQueue::new());

        /// The critical section an interrupt handler is already in: interrupts stay off until
        /// it returns, so there is nothing to save and restore.
        fn in_handler() -> interrupt::CriticalSection<'static> {
            // SAFETY: called only from the interrupt handlers below, which run with interrupts
            // off.
            unsafe { interrupt::CriticalSection::new() }
        }

        /// The millisecond tick: call from the tick timer's compare interrupt.
        pub fn on_tick() {
            let m = MILLIS.borrow(in_handler());
            m.set(m.get().wrapping_add(1));
        }

        /// Milliseconds since start, wrapping.
        fn millis() -> u32 {
            interrupt::free(|cs| MILLIS.borrow(cs).get())
        }

        /// The USART's registers by their address: `Peripherals::steal` also stores its taken
        /// flag, an instruction at every use, in the receive interrupt and at every byte sent.
        fn usart() -> &'static <$usart as core::ops::Deref>::Target {
            // SAFETY: single-threaded firmware; the block is the chip's, at a fixed address.
            unsafe { &*<$usart>::ptr() }
        }

        /// A received byte: call from the USART's receive-complete interrupt. Only queued here;
        /// lines are parsed by the main loop.
        pub fn on_receive() {
            let byte = usart().$udr().read().bits();
            RX.borrow(in_handler()).push(byte);
        }

        /// Sends a byte once the transmit buffer is free (UDRE).
        fn send(byte: u8) {
            let u = usart();
            while u.$ucsra().read().bits() & 0b10_0000 == 0 {}
            u.$udr().write(|w| unsafe { w.bits(byte) });
        }

        /// The chip as a serial session uses it; its module's `new` sets the USART and the
        /// tick's timer up and enables interrupts.
        pub struct Chip;

        impl Chip {
            /// Milliseconds since start, wrapping.
            pub fn millis(&self) -> u32 {
                millis()
            }

            /// The serial line.
            pub fn usart(&self) -> Usart {
                Usart
            }
        }

        /// The USART as an embedded-io serial line: bytes the receive interrupt queued are read
        /// without waiting; writes wait for the transmit buffer.
        pub struct Usart;

        impl embedded_io::ErrorType for Usart {
            type Error = core::convert::Infallible;
        }

        impl embedded_io::ReadReady for Usart {
            fn read_ready(&mut self) -> Result<bool, Self::Error> {
                Ok(interrupt::free(|cs| !RX.borrow(cs).is_empty()))
            }
        }

        impl embedded_io::Read for Usart {
            /// Waits for a byte, then takes what has come, up to `buf`'s length.
            fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
                Ok(crate::serial::read_queued(buf, || self.take()))
            }
        }

        impl Usart {
            /// The next received byte, if one has come (never waits): what embedded-io's
            /// `read_ready` and `read` give a byte at a time, in fewer bytes of flash.
            pub fn take(&mut self) -> Option<u8> {
                interrupt::free(|cs| RX.borrow(cs).pop())
            }

            /// Sends a byte once the transmit buffer is free.
            pub fn send(&mut self, byte: u8) {
                send(byte);
            }
        }

        impl embedded_io::Write for Usart {
            fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
                buf.iter().for_each(|&b| send(b));
                Ok(buf.len())
            }

            fn flush(&mut self) -> Result<(), Self::Error> {
                Ok(())
            }
        }
    };
}
#[cfg(any(feature = "atmega16", feature = "atmega64", feature = "atmega128"))]
pub(crate) use avr_serial_session;

/// A pin driven by the chip.
pub struct Output<P> {
    port: P,
    mask: u8,
}

impl<P: AvrPort> Output<P> {
    /// Makes the pin an output, driven low.
    pub fn new(port: P, bit: u8) -> Self {
        let mask = 1 << bit;
        interrupt::free(|_| port.set(mask, mask, 0));
        Output { port, mask }
    }

    /// The pin without touching its registers, so a static can hold it from the start; its
    /// port's [`Output::setup_pins`] makes it an output.
    pub const fn at(port: P, bit: u8) -> Self {
        Output { port, mask: 1 << bit }
    }

    /// Makes the pins of `mask` on `port` outputs driven low, all at once: a board's pins set
    /// up a port at a time cost less code than pin by pin.
    #[inline(always)]
    pub fn setup_pins(port: P, mask: u8) {
        let irq = interrupt::disable_save();
        port.set(mask, mask, 0);
        unsafe { interrupt::restore(irq) };
    }

    /// [`setup_pins`](Self::setup_pins) without masking interrupts, for start-up.
    ///
    /// # Safety
    /// No interrupt handler may write `port` meanwhile: call it before interrupts are first
    /// enabled (they are off from reset).
    #[inline(always)]
    pub unsafe fn setup_pins_at_start(port: P, mask: u8) {
        port.set(mask, mask, 0);
    }

    fn write(&mut self, high: bool) {
        // Masked: interrupts (a display's refresh) write other pins of the same port.
        interrupt::free(|_| self.port.write_out(self.mask, if high { self.mask } else { 0 }));
    }
}

impl<P> ErrorType for Output<P> {
    type Error = Infallible;
}

impl<P: AvrPort> OutputPin for Output<P> {
    fn set_low(&mut self) -> Result<(), Infallible> {
        self.write(false);
        Ok(())
    }
    fn set_high(&mut self) -> Result<(), Infallible> {
        self.write(true);
        Ok(())
    }
}

/// A pin the chip reads.
#[derive(Clone, Copy)]
pub struct Input<P> {
    port: P,
    mask: u8,
}

impl<P: AvrPort> Input<P> {
    /// An input with its pull-up on: a switch or contact to ground reads low when closed.
    pub fn pulled_up(port: P, bit: u8) -> Self {
        Self::with_pull(port, bit, true)
    }

    /// An input without pull-up, driven by another chip.
    pub fn floating(port: P, bit: u8) -> Self {
        Self::with_pull(port, bit, false)
    }

    fn with_pull(port: P, bit: u8, up: bool) -> Self {
        let pin = Self::at(port, bit);
        interrupt::free(|_| port.set(pin.mask, 0, if up { pin.mask } else { 0 }));
        pin
    }

    /// The pin, left as it is: for tables of pins, set up once with [`Input::pull_up`].
    pub const fn at(port: P, bit: u8) -> Self {
        Input { port, mask: 1 << bit }
    }

    /// Makes each pin of a table an input with its pull-up on. Not inlined: a loop, not a
    /// copy of the set-up for every pin.
    #[inline(never)]
    pub fn pull_up_all(pins: &[Self]) {
        for pin in pins {
            pin.pull_up();
        }
    }

    /// Makes the pins of `mask` on `port` inputs with their pull-ups on.
    #[inline(always)]
    pub fn pull_up_pins(port: P, mask: u8) {
        let irq = interrupt::disable_save();
        port.set(mask, 0, mask);
        // SAFETY: restores the state saved above.
        unsafe { interrupt::restore(irq) };
    }

    /// [`pull_up_pins`](Self::pull_up_pins) without masking interrupts, for start-up.
    ///
    /// # Safety
    /// No interrupt handler may write `port` meanwhile: call it before interrupts are first
    /// enabled (they are off from reset).
    #[inline(always)]
    pub unsafe fn pull_up_pins_at_start(port: P, mask: u8) {
        port.set(mask, 0, mask);
    }

    /// Makes the pin an input with its pull-up on.
    /// Makes the pins of `mask` on `port` inputs without pull-ups, all at once.
    #[inline(always)]
    pub fn float_pins(port: P, mask: u8) {
        let irq = interrupt::disable_save();
        port.set(mask, 0, 0);
        unsafe { interrupt::restore(irq) };
    }

    /// [`float_pins`](Self::float_pins) without masking interrupts, for start-up.
    ///
    /// # Safety
    /// As for [`pull_up_pins_at_start`](Self::pull_up_pins_at_start).
    #[inline(always)]
    pub unsafe fn float_pins_at_start(port: P, mask: u8) {
        port.set(mask, 0, 0);
    }

    pub fn pull_up(&self) {
        interrupt::free(|_| self.port.set(self.mask, 0, self.mask));
    }

    /// The port and bit mask, for a wake-up on this pin.
    pub fn port_mask(&self) -> (P, u8) {
        (self.port, self.mask)
    }
}

impl<P> ErrorType for Input<P> {
    type Error = Infallible;
}

impl<P: AvrPort> InputPin for Input<P> {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        Ok(self.port.read() & self.mask != 0)
    }
    fn is_low(&mut self) -> Result<bool, Infallible> {
        Ok(self.port.read() & self.mask == 0)
    }
}

/// Pins of one port switched together, outputs or floating: embedded-hal 1.0 has no
/// tri-state pin, and a charlieplexed display needs three states on every pin.
pub struct PortPins<P> {
    port: P,
    mask: u8,
}

impl<P: AvrPort> PortPins<P> {
    /// The pins of `mask` on `port`, as they are: floating after reset, until driven.
    pub const fn new(port: P, mask: u8) -> Self {
        PortPins { port, mask }
    }
}

impl<P: AvrPort> TriState for PortPins<P> {
    /// Inlined: called from a display's interrupt with a constant port, it folds into a few
    /// register writes, and the handler saves no registers for a call.
    #[inline(always)]
    fn drive(&mut self, outputs: u8, high: u8) {
        let mask = self.mask;
        // Not masked: the display's interrupt runs with interrupts off, and the main loop
        // darkens the display for sleep only once the tick is paused; no other interrupt
        // writes the port.
        // Float first so that no pin drives against another while the pattern changes, set
        // the levels while floating (a high only pulls up), then drive: three writes, not four.
        // The display's pins all float by then: the outputs need only be added.
        self.port.set_switching(mask, 0, high);
        self.port.add_dir(outputs & mask);
    }

    /// The first of [`drive`](Self::drive)'s writes alone: adding no outputs is still a
    /// read and a write of the direction register.
    fn float(&mut self) {
        self.port.set_switching(self.mask, 0, 0);
    }
}

/// Waits `loops` times 3 cycles (a count down in one register): a short wait the caller
/// works out from the board's clock, 3 instructions where a general delay is a call.
#[inline(always)]
pub fn spin(loops: u8) {
    #[cfg(target_arch = "avr")]
    // SAFETY: only counts its register down.
    unsafe {
        core::arch::asm!("1: dec {n}", "brne 1b", n = inout(reg) loops => _, options(nomem, nostack));
    }
    #[cfg(not(target_arch = "avr"))]
    let _ = loops;
}

/// `memcpy` and `memset` a byte at a time, in place of compiler_builtins' weak ones: theirs
/// copy a word at a time with alignment cases (480 B of flash), where an 8-bit chip copies a
/// frame or a grid of 16 bytes. Assembly, so that the loops are never read back as a call to
/// themselves.
#[cfg(target_arch = "avr")]
mod mem {
    use core::arch::asm;

    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn memcpy(dest: *mut u8, src: *const u8, n: usize) -> *mut u8 {
        unsafe {
            asm!(
                "rjmp 2f",
                "1: ld {t}, X+",
                "st Z+, {t}",
                "2: subi {n:l}, 1",
                "sbci {n:h}, 0",
                "brcc 1b",
                t = out(reg) _,
                n = inout(reg_iw) n => _,
                inout("Z") dest => _,
                inout("X") src => _,
            );
        }
        dest
    }

    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn memset(dest: *mut u8, c: i16, n: usize) -> *mut u8 {
        unsafe {
            asm!(
                "rjmp 2f",
                "1: st Z+, {c}",
                "2: subi {n:l}, 1",
                "sbci {n:h}, 0",
                "brcc 1b",
                c = in(reg) c as u8,
                n = inout(reg_iw) n => _,
                inout("Z") dest => _,
            );
        }
        dest
    }
}

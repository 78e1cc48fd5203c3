//! What every Cortex-M chip's glue shares: SysTick as a millisecond tick, USARTs as
//! embedded-io serial lines whose receive interrupts fill one queue per USART, and the chip's
//! set-up from a board's [`Config`]. A chip's module implements [`UsartRegs`] for its USART
//! register block and [`SerialPort`] for its USARTs (registers, clocks, pins, interrupt); the
//! rest is written once.

use crate::serial::ByteQueue;
use ::cortex_m::interrupt::{self, InterruptNumber, Mutex};
use ::cortex_m::peripheral::{NVIC, SYST};
use core::convert::Infallible;
use core::marker::PhantomData;
use core::sync::atomic::{AtomicU32, Ordering};

/// How many USARTs a chip's glue may serve, each with its own receive queue.
pub const USARTS: usize = 4;

/// Bytes a receive queue holds: a few command lines' worth between two main-loop passes.
const RX_LEN: usize = 64;

/// Milliseconds since the tick started. One word, which the core reads and increments
/// atomically: the main loop and the SysTick handler share it without a critical section.
static MILLIS: AtomicU32 = AtomicU32::new(0);

/// Each USART's receive queue, filled by its interrupt and drained by the main loop.
static RX: [Mutex<ByteQueue<RX_LEN>>; USARTS] = [const { Mutex::new(ByteQueue::new()) }; USARTS];

/// The millisecond tick: call from the SysTick exception handler.
pub fn on_systick() {
    MILLIS.fetch_add(1, Ordering::Relaxed);
}

/// Milliseconds since [`start_tick`], wrapping.
pub fn millis() -> u32 {
    MILLIS.load(Ordering::Relaxed)
}

/// Starts SysTick on the core clock of `clock_hz`, one exception per millisecond. Its
/// 24-bit reload holds any clock up to 16 GHz.
pub fn start_tick(clock_hz: u32) {
    // SAFETY: SysTick is this glue's alone. Its registers are written directly rather than
    // through `cortex_m::Peripherals`, which the firmware stays free to take.
    unsafe {
        let syst = &*SYST::PTR;
        syst.rvr.write(clock_hz / 1000 - 1);
        syst.cvr.write(0);
        // ENABLE, TICKINT, CLKSOURCE = the processor clock.
        syst.csr.write(0b111);
    }
}

/// A chip's USART register block: the few operations the serial line needs.
pub trait UsartRegs {
    /// Sets the baud-rate divisor, then enables the USART with its transmitter, receiver and
    /// receive interrupt; the frame format stays at its reset value, 8N1. Never the transmit
    /// interrupts: sending polls.
    fn enable(&self, divisor: u16);
    /// The received byte, if one is waiting. Reading it clears the receive interrupt.
    fn received(&self) -> Option<u8>;
    /// Sends a byte once the transmit buffer is free.
    fn send(&self, byte: u8);
}

/// A chip's USART as its module names them: what setting one up takes.
pub trait SerialPort: Copy + 'static {
    type Regs: UsartRegs + 'static;
    type Interrupt: InterruptNumber;
    /// Its receive queue, below [`USARTS`].
    fn index(self) -> usize;
    fn regs(self) -> &'static Self::Regs;
    fn interrupt(self) -> Self::Interrupt;
    /// Sets the core clock to `clock_hz` where the chip's glue sets it (the LM3S6965's PLL);
    /// the others leave it as reset does.
    fn set_clock(_clock_hz: u32) {}
    /// Clocks the USART and its pins' GPIO port.
    fn enable_clocks(self);
    /// Hands the TX and RX pins to the USART.
    fn route_pins(self);
}

/// A received byte: call from each enabled USART's interrupt handler. Only queued here;
/// lines are parsed by the main loop.
pub fn on_receive<P: SerialPort>(port: P) {
    if let Some(byte) = port.regs().received() {
        // Masked even in the handler: a handler of higher priority may read the same queue.
        interrupt::free(|cs| RX[port.index()].borrow(cs).push(byte));
    }
}

/// One board's clock and serial lines, as the compiler lowered them.
pub struct Config<P: 'static> {
    /// The core clock, which SysTick counts.
    pub clock_hz: u32,
    /// The USARTs to enable, each with its baud-rate divisor: its bus clock over the rate
    /// (the clocks are as reset leaves them, every bus at the core's).
    pub usarts: &'static [(P, u16)],
}

/// The chip, set up: what the firmware asks for its services.
pub struct Chip<P>(PhantomData<P>);

impl<P: SerialPort> Chip<P> {
    /// Sets up the USARTs and the tick, and enables interrupts. Call once.
    pub fn new(cfg: &'static Config<P>) -> Self {
        P::set_clock(cfg.clock_hz);
        for &(port, _) in cfg.usarts {
            port.enable_clocks();
        }
        // A peripheral answers only a few cycles after its clock is enabled (an erratum of
        // the STM32F4 family, ES0182, and the AT32's manual alike): the barrier lets the
        // enables complete first.
        ::cortex_m::asm::dsb();
        for &(port, divisor) in cfg.usarts {
            port.route_pins();
            port.regs().enable(divisor);
            // SAFETY: no critical section of this glue depends on these lines being masked.
            unsafe { NVIC::unmask(port.interrupt()) };
        }
        start_tick(cfg.clock_hz);
        // SAFETY: the handlers' shared state is ready.
        unsafe { interrupt::enable() };
        Chip(PhantomData)
    }

    /// Milliseconds since start, wrapping.
    pub fn millis(&self) -> u32 {
        millis()
    }

    /// A serial line; only those the configuration enabled carry anything.
    pub fn usart(&self, port: P) -> Usart<P::Regs> {
        Usart::new(port.regs(), port.index())
    }
}

/// A USART as an embedded-io serial line: bytes its receive interrupt queued are read
/// without waiting; writes wait for the transmit buffer.
pub struct Usart<R: 'static> {
    regs: &'static R,
    rx: &'static Mutex<ByteQueue<RX_LEN>>,
}

impl<R: UsartRegs> Usart<R> {
    /// The USART whose registers are `regs` and whose interrupt fills queue `index`.
    pub fn new(regs: &'static R, index: usize) -> Self {
        Usart { regs, rx: &RX[index] }
    }

    /// The next received byte of a text line, if one has come (never waits); where bytes
    /// were lost, [`crate::serial::LOST`].
    pub fn take(&mut self) -> Option<u8> {
        interrupt::free(|cs| self.rx.borrow(cs).pop())
    }

    /// The next received byte, or the news that bytes were lost before it (never waits): for
    /// a line whose bytes may be any value.
    pub fn receive(&mut self) -> Option<crate::serial::Received> {
        interrupt::free(|cs| self.rx.borrow(cs).receive())
    }

    /// Sends a byte once the transmit buffer is free.
    pub fn send(&mut self, byte: u8) {
        self.regs.send(byte);
    }
}

impl<R> embedded_io::ErrorType for Usart<R> {
    type Error = Infallible;
}

impl<R: UsartRegs> embedded_io::ReadReady for Usart<R> {
    fn read_ready(&mut self) -> Result<bool, Infallible> {
        Ok(interrupt::free(|cs| !self.rx.borrow(cs).is_empty()))
    }
}

impl<R: UsartRegs> embedded_io::Read for Usart<R> {
    /// Waits for a byte, then takes what has come, up to `buf`'s length.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Infallible> {
        Ok(crate::serial::read_queued(buf, || self.take()))
    }
}

impl<R: UsartRegs> embedded_io::Write for Usart<R> {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Infallible> {
        buf.iter().for_each(|&b| self.regs.send(b));
        Ok(buf.len())
    }

    fn flush(&mut self) -> Result<(), Infallible> {
        Ok(())
    }
}

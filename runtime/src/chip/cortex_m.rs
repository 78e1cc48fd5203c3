//! What every Cortex-M chip's glue shares: SysTick as a millisecond tick, and USARTs as
//! embedded-io serial lines whose receive interrupts fill one queue per USART. A chip's
//! module implements [`UsartRegs`] for its USART register block and numbers its USARTs;
//! the rest is written once.

use crate::serial::ByteQueue;
use ::cortex_m::interrupt::{self, Mutex};
use ::cortex_m::peripheral::SYST;
use core::convert::Infallible;
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

/// A received byte: the chip module's `on_receive` calls this from the USART's interrupt
/// with its queue's `index`. Only queued here; lines are parsed by the main loop.
pub fn receive<R: UsartRegs>(regs: &R, index: usize) {
    if let Some(byte) = regs.received() {
        // Masked even in the handler: a handler of higher priority may read the same queue.
        interrupt::free(|cs| RX[index].borrow(cs).push(byte));
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

    /// The next received byte, if one has come (never waits).
    pub fn take(&mut self) -> Option<u8> {
        interrupt::free(|cs| self.rx.borrow(cs).pop())
    }

    /// Sends a byte once the transmit buffer is free.
    pub fn send(&mut self, byte: u8) {
        self.regs.send(byte);
    }

    /// Bytes dropped because the receive queue was full.
    pub fn dropped(&self) -> u8 {
        interrupt::free(|cs| self.rx.borrow(cs).dropped())
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
        let mut n = 0;
        while n < buf.len() {
            match self.take() {
                Some(b) => {
                    buf[n] = b;
                    n += 1;
                }
                None if n > 0 => break,
                None => {}
            }
        }
        Ok(n)
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

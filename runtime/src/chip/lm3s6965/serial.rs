//! The LM3S6965's UART0, 1 and 2 (ARM PrimeCell PL011s) as embedded-io serial lines (received
//! bytes queued by their interrupts, sent by polling) and SysTick as a millisecond tick, for a
//! serial game or a table of cards: what the STM32F4's USARTs serve, written once in
//! [`crate::chip::cortex_m`]. The clock is set from the PLL as for the pins' glue; the baud
//! divisors come from it. Registers by address, from the LM3S6965 datasheet (DS-LM3S6965).

use crate::chip::cortex_m::{self as common, SerialPort, UsartRegs};
use crate::chip::mmio::{read, write};

pub use crate::chip::cortex_m::{on_receive, on_systick};
/// The attribute (and the interrupt names it checks) for the UART handlers:
/// `#[interrupt] fn UART0() { on_receive(Port::Uart0) }`.
pub use lm3s6965::interrupt;

/// A UART of the chip, with its pins: receive and transmit on PA0/PA1, PD2/PD3, PG0/PG1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Port {
    Uart0,
    Uart1,
    Uart2,
}

/// A PL011's registers, by its base address.
pub struct Regs(usize);

static UARTS: [Regs; 3] = [Regs(0x4000_C000), Regs(0x4000_D000), Regs(0x4000_E000)];

/// Data, flags (receive FIFO empty, transmit FIFO full), the baud divisor's integer and
/// fraction, line control, control, interrupt mask.
const DR: usize = 0x000;
const FR: usize = 0x018;
const RXFE: u32 = 1 << 4;
const TXFF: u32 = 1 << 5;
const IBRD: usize = 0x024;
const FBRD: usize = 0x028;
const LCRH: usize = 0x02C;
const CTL: usize = 0x030;
const IM: usize = 0x038;

/// System control's run-mode clock gates: RCGC1 for the UARTs (bits 0-2), RCGC2 for the GPIO
/// ports (bit n for port n from A).
const RCGC1: usize = 0x400F_E104;
const RCGC2: usize = 0x400F_E108;
/// GPIO ports A to G, and a port's alternate-function select and digital enable.
const GPIO: [usize; 7] = [0x4000_4000, 0x4000_5000, 0x4000_6000, 0x4000_7000, 0x4002_4000, 0x4002_5000, 0x4002_6000];
const AFSEL: usize = 0x420;
const DEN: usize = 0x51C;

/// Sets `bits` in the register at `addr`: before interrupts are enabled, at set-up alone.
fn set_bits(addr: usize, bits: u32) {
    write(addr, read(addr) | bits);
}

/// A UART as an embedded-io serial line.
pub type Usart = common::Usart<Regs>;
/// One board's clock and serial lines, as the compiler lowered them.
pub type Config = common::Config<Port>;
/// The chip, set up: what the firmware asks for its services.
pub type Chip = common::Chip<Port>;

impl UsartRegs for Regs {
    /// `divisor` is the clock over the rate; a PL011 divides by sixteen times the rate, its
    /// integer part and its fraction in 64ths.
    fn enable(&self, divisor: u16) {
        let base = self.0;
        write(base + CTL, 0);
        write(base + IBRD, u32::from(divisor >> 4));
        write(base + FBRD, u32::from(divisor & 0xF) << 2);
        // Eight data bits, no parity, one stop bit, the FIFOs off: each byte interrupts.
        write(base + LCRH, 0x60);
        // The receive interrupt alone.
        write(base + IM, 1 << 4);
        // UARTEN, TXE, RXE.
        write(base + CTL, 0x301);
    }

    fn received(&self) -> Option<u8> {
        // Reading the data register clears the receive interrupt.
        (read(self.0 + FR) & RXFE == 0).then(|| read(self.0 + DR) as u8)
    }

    fn send(&self, byte: u8) {
        while read(self.0 + FR) & TXFF != 0 {}
        write(self.0 + DR, u32::from(byte));
    }
}

impl Port {
    /// The GPIO port (from A = 0) its pins are on, and their mask there.
    fn pins(self) -> (usize, u32) {
        match self {
            Port::Uart0 => (0, 0x03),
            Port::Uart1 => (3, 0x0C),
            Port::Uart2 => (6, 0x03),
        }
    }
}

impl SerialPort for Port {
    type Regs = Regs;
    type Interrupt = lm3s6965::Interrupt;

    fn index(self) -> usize {
        self as usize
    }

    fn regs(self) -> &'static Regs {
        &UARTS[self as usize]
    }

    fn interrupt(self) -> lm3s6965::Interrupt {
        match self {
            Port::Uart0 => lm3s6965::Interrupt::UART0,
            Port::Uart1 => lm3s6965::Interrupt::UART1,
            Port::Uart2 => lm3s6965::Interrupt::UART2,
        }
    }

    fn set_clock(clock_hz: u32) {
        super::set_clock(clock_hz);
    }

    fn enable_clocks(self) {
        set_bits(RCGC1, 1 << self as u32);
        set_bits(RCGC2, 1 << self.pins().0);
    }

    fn route_pins(self) {
        let (port, mask) = self.pins();
        set_bits(GPIO[port] + AFSEL, mask);
        set_bits(GPIO[port] + DEN, mask);
    }
}

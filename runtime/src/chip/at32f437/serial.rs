//! The AT32F437's USART1, 2 and 3 as embedded-io serial lines (received bytes queued by their
//! interrupts, sent by polling) and SysTick as a millisecond tick, for a serial game or a
//! table of cards. The baud divisors come from the clock the compiler knows the firmware
//! runs at, the 8 MHz of reset's HICK.

use crate::chip::cortex_m::{self as common, SerialPort, UsartRegs};
use at32f4xx_pac::at32f437 as pac;

pub use crate::chip::cortex_m::{on_receive, on_systick};
/// The attribute (and the interrupt names it checks) for the USART handlers:
/// `#[interrupt] fn USART1() { on_receive(Port::Usart1) }`.
pub use pac::interrupt;

/// A USART of the chip, with its pins, all on multiplexed function 7 (as Artery's own
/// AT32F435/437 board code sets them up). USART1's pins carry the AT-START-F437 board's
/// console; USART2 keeps off PA2/PA3, which that board gives to Ethernet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Port {
    /// TX PA9, RX PA10.
    Usart1,
    /// TX PD5, RX PD6.
    Usart2,
    /// TX PD8, RX PD9.
    Usart3,
}

/// The USART register block: USART2 and 3 share USART1's layout.
type Regs = pac::usart1::RegisterBlock;

/// A USART as an embedded-io serial line.
pub type Usart = common::Usart<Regs>;
/// One board's clock and serial lines, as the compiler lowered them.
pub type Config = common::Config<Port>;
/// The chip, set up: what the firmware asks for its services.
pub type Chip = common::Chip<Port>;

impl UsartRegs for Regs {
    fn enable(&self, divisor: u16) {
        // BAUDR and DT have no field accessors in the register crate: whole-register bits.
        self.baudr().write(|w| unsafe { w.bits(divisor) });
        self.ctrl1().write(|w| w.uen().set_bit().ten().set_bit().ren().set_bit().rdbfien().set_bit());
    }

    fn received(&self) -> Option<u8> {
        // Reading STS then DT also clears an overrun, which raises the same interrupt.
        if self.sts().read().rdbf().bit_is_set() {
            Some(self.dt().read().bits() as u8)
        } else {
            None
        }
    }

    fn send(&self, byte: u8) {
        while self.sts().read().tdbe().bit_is_clear() {}
        self.dt().write(|w| unsafe { w.bits(byte as u16) });
    }
}

/// The port multiplexing value that gives a pin to a USART.
const MUX_USART: u8 = 7;

impl SerialPort for Port {
    type Regs = Regs;
    type Interrupt = pac::Interrupt;

    fn index(self) -> usize {
        self as usize
    }

    fn regs(self) -> &'static Regs {
        // SAFETY: the register blocks live for the program. Each access is a whole-register
        // read or write, save the set-up's read-modify-writes, done before interrupts use them.
        unsafe {
            match self {
                Port::Usart1 => &*pac::USART1::ptr(),
                Port::Usart2 => &*pac::USART2::ptr(),
                Port::Usart3 => &*pac::USART3::ptr(),
            }
        }
    }

    fn interrupt(self) -> pac::Interrupt {
        match self {
            Port::Usart1 => pac::Interrupt::USART1,
            Port::Usart2 => pac::Interrupt::USART2,
            Port::Usart3 => pac::Interrupt::USART3,
        }
    }

    /// Clocks the USART and its pins' GPIO port: USART1 hangs on APB2, 2 and 3 on APB1.
    fn enable_clocks(self) {
        let crm = unsafe { &*pac::CRM::ptr() };
        match self {
            Port::Usart1 => {
                crm.ahben1().modify(|_, w| w.gpioa().set_bit());
                crm.apb2en().modify(|_, w| w.usart1().set_bit());
            }
            Port::Usart2 => {
                crm.ahben1().modify(|_, w| w.gpiod().set_bit());
                crm.apb1en().modify(|_, w| w.usart2().set_bit());
            }
            Port::Usart3 => {
                crm.ahben1().modify(|_, w| w.gpiod().set_bit());
                crm.apb1en().modify(|_, w| w.usart3().set_bit());
            }
        }
    }

    /// Hands the TX and RX pins to the USART (multiplexed mode).
    fn route_pins(self) {
        match self {
            Port::Usart1 => {
                let gpio = unsafe { &*pac::GPIOA::ptr() };
                gpio.muxh().modify(|_, w| w.mux9().set(MUX_USART).mux10().set(MUX_USART));
                gpio.cfgr().modify(|_, w| w.iomc9().multiplexed().iomc10().multiplexed());
            }
            Port::Usart2 => {
                let gpio = unsafe { &*pac::GPIOD::ptr() };
                gpio.muxl().modify(|_, w| w.mux5().set(MUX_USART).mux6().set(MUX_USART));
                gpio.cfgr().modify(|_, w| w.iomc5().multiplexed().iomc6().multiplexed());
            }
            Port::Usart3 => {
                let gpio = unsafe { &*pac::GPIOD::ptr() };
                gpio.muxh().modify(|_, w| w.mux8().set(MUX_USART).mux9().set(MUX_USART));
                gpio.cfgr().modify(|_, w| w.iomc8().multiplexed().iomc9().multiplexed());
            }
        }
    }
}

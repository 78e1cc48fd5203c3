//! The STM32F405's USART1, 2, 3 and 6 as embedded-io serial lines (received bytes queued by
//! their interrupts, sent by polling) and SysTick as a millisecond tick, for a serial game or
//! a table of cards. The baud divisors come from the clock the compiler knows the firmware
//! runs at, the 16 MHz of reset's HSI.

use crate::chip::cortex_m::{self as common, SerialPort, UsartRegs};
use stm32f4::stm32f405 as pac;

pub use crate::chip::cortex_m::{on_receive, on_systick};
/// The attribute (and the interrupt names it checks) for the USART handlers:
/// `#[interrupt] fn USART1() { on_receive(Port::Usart1) }`.
pub use pac::interrupt;

/// A USART of the chip, with its pins: from the alternate-function table of the STM32F405
/// datasheet (DS8626), the usual choice where a USART has several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Port {
    /// TX PA9, RX PA10 (AF7).
    Usart1,
    /// TX PA2, RX PA3 (AF7).
    Usart2,
    /// TX PB10, RX PB11 (AF7).
    Usart3,
    /// TX PC6, RX PC7 (AF8).
    Usart6,
}

/// The USART register block: USART2, 3 and 6 share USART1's layout.
type Regs = pac::usart1::RegisterBlock;

/// A USART as an embedded-io serial line.
pub type Usart = common::Usart<Regs>;
/// One board's clock and serial lines, as the compiler lowered them.
pub type Config = common::Config<Port>;
/// The chip, set up: what the firmware asks for its services.
pub type Chip = common::Chip<Port>;

impl UsartRegs for Regs {
    fn enable(&self, divisor: u16) {
        self.brr().write(|w| unsafe { w.bits(divisor) });
        self.cr1().write(|w| w.ue().set_bit().te().set_bit().re().set_bit().rxneie().set_bit());
    }

    fn received(&self) -> Option<u8> {
        // Reading SR then DR also clears an overrun, which raises the same interrupt.
        if self.sr().read().rxne().bit_is_set() {
            Some(self.dr().read().dr().bits() as u8)
        } else {
            None
        }
    }

    fn send(&self, byte: u8) {
        while self.sr().read().txe().bit_is_clear() {}
        self.dr().write(|w| w.dr().set(byte as u16));
    }
}

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
                Port::Usart6 => &*pac::USART6::ptr(),
            }
        }
    }

    fn interrupt(self) -> pac::Interrupt {
        match self {
            Port::Usart1 => pac::Interrupt::USART1,
            Port::Usart2 => pac::Interrupt::USART2,
            Port::Usart3 => pac::Interrupt::USART3,
            Port::Usart6 => pac::Interrupt::USART6,
        }
    }

    /// Clocks the USART and its pins' GPIO port: USART1 and 6 hang on APB2, 2 and 3 on APB1.
    fn enable_clocks(self) {
        let rcc = unsafe { &*pac::RCC::ptr() };
        match self {
            Port::Usart1 => {
                rcc.ahb1enr().modify(|_, w| w.gpioaen().set_bit());
                rcc.apb2enr().modify(|_, w| w.usart1en().set_bit());
            }
            Port::Usart2 => {
                rcc.ahb1enr().modify(|_, w| w.gpioaen().set_bit());
                rcc.apb1enr().modify(|_, w| w.usart2en().set_bit());
            }
            Port::Usart3 => {
                rcc.ahb1enr().modify(|_, w| w.gpioben().set_bit());
                rcc.apb1enr().modify(|_, w| w.usart3en().set_bit());
            }
            Port::Usart6 => {
                rcc.ahb1enr().modify(|_, w| w.gpiocen().set_bit());
                rcc.apb2enr().modify(|_, w| w.usart6en().set_bit());
            }
        }
    }

    /// Hands the TX and RX pins to the USART (alternate function mode).
    fn route_pins(self) {
        match self {
            Port::Usart1 => {
                let gpio = unsafe { &*pac::GPIOA::ptr() };
                gpio.afrh().modify(|_, w| w.afrh9().af7().afrh10().af7());
                gpio.moder().modify(|_, w| w.moder9().alternate().moder10().alternate());
            }
            Port::Usart2 => {
                let gpio = unsafe { &*pac::GPIOA::ptr() };
                gpio.afrl().modify(|_, w| w.afrl2().af7().afrl3().af7());
                gpio.moder().modify(|_, w| w.moder2().alternate().moder3().alternate());
            }
            Port::Usart3 => {
                let gpio = unsafe { &*pac::GPIOB::ptr() };
                gpio.afrh().modify(|_, w| w.afrh10().af7().afrh11().af7());
                gpio.moder().modify(|_, w| w.moder10().alternate().moder11().alternate());
            }
            Port::Usart6 => {
                let gpio = unsafe { &*pac::GPIOC::ptr() };
                gpio.afrl().modify(|_, w| w.afrl6().af8().afrl7().af8());
                gpio.moder().modify(|_, w| w.moder6().alternate().moder7().alternate());
            }
        }
    }
}

//! The pins every Cortex-M glue of buttons and a cursor offers the generated firmware, over a
//! chip's own port registers ([`GpioPort`]): an input pin as embedded-hal reads it, a
//! charlieplexed display's pins switched together as a [`TriState`] group, and the board's
//! [`Config`]. A chip's module
//! names them for its `Port` (`pub type Input = cortex_pins::Input<Port>`), so that the
//! firmware says `Input::at(Port::A, 3)` and `Config { .. }` on every chip, as on an AVR.

use super::TickRate;
use crate::charlieplex::TriState;
use core::convert::Infallible;
use embedded_hal::digital::{ErrorType, InputPin};

/// A chip's GPIO port, eight pins of it, as the shared pin types drive it.
pub trait GpioPort: Copy + 'static {
    /// The levels on the port's pins.
    fn read(self) -> u8;
    /// Sets the output bits of `mask` to those of `out`, leaving the others.
    fn write_out(self, mask: u8, out: u8);
    /// Makes the pins of `mask` outputs where `dir` is set (driven to `out`) and inputs
    /// elsewhere, with their pull-ups on where `pull_up` is set.
    fn set(self, mask: u8, dir: u8, out: u8, pull_up: u8);
    /// Makes the pins of `mask` outputs where `outputs` is set and floating inputs elsewhere,
    /// their levels untouched: a display's switch, from its handler alone.
    fn set_outputs(self, mask: u8, outputs: u8);
}

/// A pin the chip reads.
#[derive(Clone, Copy)]
pub struct Input<P> {
    port: P,
    mask: u8,
}

impl<P: GpioPort> Input<P> {
    /// The pin, left as it is: set up with [`Input::pull_up_pins_at_start`].
    pub const fn at(port: P, bit: u8) -> Self {
        Input { port, mask: 1 << bit }
    }

    /// Makes the pins of `mask` on `port` inputs with their pull-ups on.
    ///
    /// # Safety
    /// After the chip's `power_up_ports`, before interrupts are first enabled.
    pub unsafe fn pull_up_pins_at_start(port: P, mask: u8) {
        port.set(mask, 0, 0, mask);
    }

    /// The port and bit mask, for a wake-up on this pin.
    pub fn port_mask(&self) -> (P, u8) {
        (self.port, self.mask)
    }
}

impl<P> ErrorType for Input<P> {
    type Error = Infallible;
}

impl<P: GpioPort> InputPin for Input<P> {
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

impl<P: GpioPort> PortPins<P> {
    /// The pins of `mask` on `port`, floating until driven.
    pub const fn new(port: P, mask: u8) -> Self {
        PortPins { port, mask }
    }
}

impl<P: GpioPort> TriState for PortPins<P> {
    /// The outputs of the last pattern are driven low first, then the new pattern's pins made
    /// outputs (all low: nothing lit) and the others floating, then its anodes driven high:
    /// every display pin's level is low by the time its direction changes, so no LED of
    /// another pattern lights, even for an instruction. Called from the tick's handler, which
    /// no other handler preempts, and from the main loop with the tick paused.
    fn drive(&mut self, outputs: u8, high: u8) {
        let outputs = outputs & self.mask;
        self.port.write_out(self.mask, 0);
        self.port.set_outputs(self.mask, outputs);
        self.port.write_out(outputs, high);
    }
}

/// One board's clock, tick and speaker, as the compiler lowered them.
pub struct Config<P> {
    /// The clock the chip runs at: the LM3S6965's PLL divided, the STM32F4s' as reset leaves it.
    pub clock_hz: u32,
    /// The tick's divisor step (`1 << (tick_clock - 1)`) and count: SysTick counts
    /// `(tick_top + 1) << (tick_clock - 1)` clocks a tick.
    pub tick_clock: u8,
    pub tick_top: u16,
    /// How far each tick advances the millisecond count, from the clock and the tick's rate.
    pub rate: TickRate,
    /// The speaker's timer (the LM3S6965's 0-3, the STM32F4s' 2-5) and its pin.
    pub tone: Option<(u8, P, u8)>,
}

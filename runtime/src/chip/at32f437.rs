//! Chip glue for the Artery AT32F437: its pins, tick, tone and sleep (the STM32F4 family's,
//! whose registers Artery's ports, timers and external interrupts share, in
//! [`super::stm32f4_pins`]) and in [`serial`] its USARTs. It leaves the clocks as reset leaves
//! them (8 MHz from the HICK): the compiler derives every divisor from that clock. It knows no
//! game: the generated firmware composes these services with the runtime's drivers.

pub use super::stm32f4_pins::*;
/// The attribute (and the interrupt names it checks) for the handlers:
/// `#[interrupt] fn TMR2() { on_tone(&board::CONFIG) }`.
pub use at32f4xx_pac::at32f437::interrupt;

pub mod serial;

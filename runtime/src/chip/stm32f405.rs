//! Chip glue for the STM32F405: its pins, tick, tone and sleep (the STM32F4 family's, in
//! [`super::stm32f4_pins`]) and in [`serial`] its USARTs. It leaves the clocks as reset leaves
//! them (16 MHz from the HSI): the compiler derives every divisor from that clock. It knows no
//! game: the generated firmware composes these services with the runtime's drivers.

pub use super::stm32f4_pins::*;
/// The attribute (and the interrupt names it checks) for the handlers:
/// `#[interrupt] fn TIM2() { on_tone(&board::CONFIG) }`.
pub use stm32f4::stm32f405::interrupt;

pub mod serial;

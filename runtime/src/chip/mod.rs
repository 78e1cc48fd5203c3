//! Per-chip glue: register-level code for one chip family per module, behind its cargo
//! feature. Each module offers the same services to the generated board glue: a periodic
//! tick interrupt, port access, a tone on a timer's output pin and a wake-on-pin sleep.
//! AVR chips use avr-device; Cortex-M chips will use their PAC and cortex-m the same way.

#[cfg(feature = "atmega16")]
pub mod atmega16;
#[cfg(feature = "attiny84a")]
pub mod attiny84a;

/// A value shared between the main loop and an interrupt handler on a single-core chip.
///
/// Reads and writes go through volatile accesses with interrupts masked by the caller's chip
/// glue where the value is wider than one byte.
pub struct Shared<T: Copy>(core::cell::UnsafeCell<T>);

// Single core: the chip glue masks interrupts around multi-byte access.
unsafe impl<T: Copy> Sync for Shared<T> {}

impl<T: Copy> Shared<T> {
    pub const fn new(v: T) -> Self {
        Shared(core::cell::UnsafeCell::new(v))
    }
    /// # Safety
    /// The caller prevents a concurrent write (for example by masking interrupts).
    pub unsafe fn get(&self) -> T {
        core::ptr::read_volatile(self.0.get())
    }
    /// # Safety
    /// The caller prevents a concurrent access (for example by masking interrupts).
    pub unsafe fn set(&self, v: T) {
        core::ptr::write_volatile(self.0.get(), v)
    }
}

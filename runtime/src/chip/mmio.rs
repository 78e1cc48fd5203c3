//! Registers by address, for the Cortex-M glue written from a datasheet rather than through
//! a register crate (the LM3S6965's, the STM32F4 pins' shared by two chips' crates that name
//! them differently): a whole-word read and write, and a masked read-modify-write.

use core::ptr::{read_volatile, write_volatile};

/// The word at `addr`, which the calling glue names among its chip's peripheral registers.
#[inline(always)]
pub(super) fn read(addr: usize) -> u32 {
    // SAFETY: the glue passes its chip's register addresses alone.
    unsafe { read_volatile(addr as *const u32) }
}

/// Writes a whole register.
#[inline(always)]
pub(super) fn write(addr: usize, value: u32) {
    // SAFETY: as for `read`.
    unsafe { write_volatile(addr as *mut u32, value) }
}

/// Sets the bits of `mask` in the register at `addr` to those of `value`. Callers mask
/// interrupts where a handler writes the same register.
#[inline(always)]
pub(super) fn modify(addr: usize, mask: u32, value: u32) {
    write(addr, (read(addr) & !mask) | (value & mask));
}

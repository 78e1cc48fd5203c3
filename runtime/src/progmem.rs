//! Tables kept in program memory. On AVR, flash and RAM are separate address spaces: a table
//! the generated code places in `.progmem.data` costs no RAM but must be read with `lpm`.
//! On every other target these are plain reads, so the same code runs on the host.

/// Reads one byte of a table placed in program memory.
///
/// # Safety
/// `p` points into a `static` the generated code placed in `.progmem.data`
/// (or, off AVR, into any live memory).
#[inline(always)]
pub unsafe fn byte(p: *const u8) -> u8 {
    #[cfg(target_arch = "avr")]
    {
        let b: u8;
        core::arch::asm!("lpm {0}, Z", out(reg) b, in("Z") p, options(pure, readonly, nostack, preserves_flags));
        b
    }
    #[cfg(not(target_arch = "avr"))]
    {
        *p
    }
}

/// Reads a little-endian `u16` of a table placed in program memory.
///
/// # Safety
/// As for [`byte`], for two bytes.
#[inline(always)]
pub unsafe fn word(p: *const u16) -> u16 {
    #[cfg(target_arch = "avr")]
    {
        // Both bytes by one pointer, post-incremented, into a register pair: by two `byte`s
        // the pointer is set twice and the bytes shuffled into place.
        let w: u16;
        core::arch::asm!(
            "lpm {0:l}, Z+",
            "lpm {0:h}, Z",
            out(reg_pair) w,
            inout("Z") p => _,
            options(pure, readonly, nostack, preserves_flags)
        );
        w
    }
    #[cfg(not(target_arch = "avr"))]
    {
        let p = p as *const u8;
        u16::from_le_bytes([byte(p), byte(p.add(1))])
    }
}

/// Two consecutive bytes from program memory, as [`byte`] reads one.
///
/// # Safety
/// `p` and `p + 1` must be inside a live static placed in program memory (on AVR) or readable.
#[inline(always)]
pub unsafe fn pair(p: *const u8) -> (u8, u8) {
    #[cfg(target_arch = "avr")]
    {
        // Both by one post-incremented pointer, where two `byte`s set it twice.
        let (a, b): (u8, u8);
        core::arch::asm!(
            "lpm {0}, Z+",
            "lpm {1}, Z",
            out(reg) a,
            out(reg) b,
            inout("Z") p => _,
            options(pure, readonly, nostack, preserves_flags)
        );
        (a, b)
    }
    #[cfg(not(target_arch = "avr"))]
    {
        (*p, *p.add(1))
    }
}

/// Copies a value out of a static placed in program memory into `out`, a byte at a time: a
/// table of values too varied to fold into code, kept out of RAM. Into the caller's place, not
/// returned: a value returned whole is one more copy through the stack.
///
/// # Safety
/// As for [`byte`], for the value's bytes, which must be a valid `T` (they are a static's).
pub unsafe fn read_into<T: Copy>(p: *const T, out: &mut core::mem::MaybeUninit<T>) {
    let (mut from, to) = (p as *const u8, out.as_mut_ptr() as *mut u8);
    for i in 0..core::mem::size_of::<T>() {
        #[cfg(target_arch = "avr")]
        {
            // One pointer post-incremented through the value, where a `byte` each sets it anew.
            let b: u8;
            core::arch::asm!("lpm {0}, Z+", out(reg) b, inout("Z") from, options(pure, readonly, nostack, preserves_flags));
            *to.add(i) = b;
        }
        #[cfg(not(target_arch = "avr"))]
        {
            *to.add(i) = byte(from);
            from = from.add(1);
        }
    }
}

/// Bit `index` of a packed bit table in program memory; past the end is false.
pub fn bit(table: &'static [u8], index: u16) -> bool {
    let at = (index >> 3) as usize;
    if at >= table.len() {
        return false;
    }
    // SAFETY: `at` is inside the table.
    unsafe { byte(table.as_ptr().add(at)) >> (index & 7) & 1 != 0 }
}

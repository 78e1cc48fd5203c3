//! Thumb-2 (ARMv7E-M) decoding for the stack bound: of each instruction, its length, what it
//! does to SP and where control goes next, and nothing more.
//!
//! The decode is conservative where it matters: an instruction that may write SP in any way
//! other than the pushes, pops and immediate adjustments listed here is [`Sp::Write`], and an
//! encoding that is not recognised at all is `None`, both refusals for the caller. The 16-bit
//! encodings not named below write only r0-r7 and the flags, so they are plain instructions;
//! among the 32-bit ones, every class that can name a destination register is checked for SP
//! there (data processing, loads, load multiple, exclusives, multiplies, system and
//! coprocessor transfers) and for writeback to SP as a base.

/// What an instruction does to SP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sp {
    /// SP moves down by this many bytes (a push, `sub sp`), or up if negative (a pop, `add sp`).
    Delta(i32),
    /// SP is written some other way (`mov sp, r7`, `msr msp`, a load into SP): not followed.
    Write,
}

/// Where control goes after an instruction that executes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Next,
    /// `b`, `b<c>`, `cbz`/`cbnz` (conditional ones fall through as well).
    Branch {
        target: u32,
        conditional: bool,
    },
    /// `bl`.
    Call(u32),
    /// `blx rN`.
    CallIndirect,
    /// `bx rN` with N not LR: a tail call through a pointer.
    TailIndirect,
    /// Any other write of PC from a register or memory (`mov pc, rN`, `ldr pc, [rN]`,
    /// `ldm rN, {.., pc}`, `tbb [rN, ..]`): a jump whose target is not known.
    JumpIndirect,
    /// `bx lr`, `mov pc, lr`, `pop {.., pc}`, `ldr pc, [sp], #4`.
    Return,
    /// `tbb`/`tbh [pc, rM]`: the table of byte or halfword offsets follows the instruction.
    Table {
        half: bool,
    },
    /// `udf`: a permanent fault, no successor here (the fault's handler is counted apart).
    Trap,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Insn {
    /// 2 or 4 bytes.
    pub len: u32,
    pub sp: Sp,
    pub flow: Flow,
    /// For `it`, how many instructions after it are conditional.
    pub it: u8,
    /// For `it`, which of them (a bit each, the first in bit 0) have its condition rather than
    /// the opposite: on one path these execute and the others do not, on the other the reverse.
    pub then: u8,
    /// For `it`, whether its condition is "always" (there is no other path).
    pub always: bool,
}

const SP: u16 = 13;
const LR: u16 = 14;
const PC: u16 = 15;

/// Whether the halfword `h` starts a 32-bit instruction.
pub fn is_wide(h: u16) -> bool {
    h >> 11 >= 0b11101
}

/// The instruction at `at` whose first halfword is `h1` and next `h2` (if there is one).
pub fn decode(at: u32, h1: u16, h2: Option<u16>) -> Option<Insn> {
    if is_wide(h1) {
        decode32(at, h1, h2?)
    } else {
        decode16(at, h1)
    }
}

fn insn(len: u32, sp: Sp, flow: Flow) -> Option<Insn> {
    Some(Insn { len, sp, flow, it: 0, then: 0, always: false })
}

fn sext(v: u32, bits: u32) -> i32 {
    ((v << (32 - bits)) as i32) >> (32 - bits)
}

fn field(h: u16, lo: u32, bits: u32) -> u16 {
    (h >> lo) & ((1 << bits) - 1)
}

fn decode16(at: u32, h: u16) -> Option<Insn> {
    let n = |sp, flow| insn(2, sp, flow);
    let same = Sp::Delta(0);
    let words = |list: u16| 4 * (list & 0x1ff).count_ones() as i32;
    if h & 0xff80 == 0xb000 {
        n(Sp::Delta(-4 * i32::from(h & 0x7f)), Flow::Next) // add sp, #imm
    } else if h & 0xff80 == 0xb080 {
        n(Sp::Delta(4 * i32::from(h & 0x7f)), Flow::Next) // sub sp, #imm
    } else if h & 0xfe00 == 0xb400 {
        n(Sp::Delta(words(h)), Flow::Next) // push {rlist, lr?}
    } else if h & 0xfe00 == 0xbc00 {
        // pop {rlist, pc?}
        n(Sp::Delta(-words(h)), if h & 0x100 != 0 { Flow::Return } else { Flow::Next })
    } else if h & 0xff00 == 0x4400 {
        // add rdn, rm with high registers
        match field(h, 7, 1) << 3 | field(h, 0, 3) {
            SP => n(Sp::Write, Flow::Next),
            PC => n(same, Flow::JumpIndirect),
            _ => n(same, Flow::Next),
        }
    } else if h & 0xff00 == 0x4600 {
        // mov rd, rm with high registers
        match field(h, 7, 1) << 3 | field(h, 0, 3) {
            SP => n(Sp::Write, Flow::Next),
            PC if field(h, 3, 4) == LR => n(same, Flow::Return),
            PC => n(same, Flow::JumpIndirect),
            _ => n(same, Flow::Next),
        }
    } else if h & 0xff87 == 0x4700 {
        // bx rm
        n(same, if field(h, 3, 4) == LR { Flow::Return } else { Flow::TailIndirect })
    } else if h & 0xff87 == 0x4780 {
        n(same, Flow::CallIndirect) // blx rm
    } else if h & 0xf000 == 0xd000 {
        match field(h, 8, 4) {
            0xe => n(same, Flow::Trap), // udf
            0xf => None,                // svc: an exception this does not follow
            _ => {
                let target = at.wrapping_add(4).wrapping_add(sext(u32::from(h & 0xff) << 1, 9) as u32);
                n(same, Flow::Branch { target, conditional: true })
            }
        }
    } else if h & 0xf800 == 0xe000 {
        let target = at.wrapping_add(4).wrapping_add(sext(u32::from(h & 0x7ff) << 1, 12) as u32);
        n(same, Flow::Branch { target, conditional: false })
    } else if h & 0xf500 == 0xb100 {
        // cbz/cbnz: forward only
        let off = u32::from(field(h, 9, 1)) << 6 | u32::from(field(h, 3, 5)) << 1;
        n(same, Flow::Branch { target: at + 4 + off, conditional: true })
    } else if h & 0xff00 == 0xbf00 && h & 0xf != 0 {
        // it: the first instruction has the condition; each after it has the condition or
        // its opposite as the mask's next bit matches the condition's low bit or not.
        let (cond, mask) = (field(h, 4, 4), h & 0xf);
        let it = 4 - mask.trailing_zeros() as u8;
        let then = (1..it).filter(|&i| (mask >> (4 - i)) & 1 == cond & 1).fold(1, |m, i| m | 1 << i);
        Some(Insn { len: 2, sp: same, flow: Flow::Next, it, then, always: cond == 0xe })
    } else if h & 0xff00 == 0xbe00 {
        None // bkpt
    } else {
        // Everything else writes at most r0-r7 and the flags.
        n(same, Flow::Next)
    }
}

/// The constant of a modified immediate (`ThumbExpandImm`).
fn expand_imm(imm12: u32) -> u32 {
    let imm8 = imm12 & 0xff;
    if imm12 >> 10 == 0 {
        match (imm12 >> 8) & 3 {
            0 => imm8,
            1 => imm8 << 16 | imm8,
            2 => imm8 << 24 | imm8 << 8,
            _ => imm8 * 0x0101_0101,
        }
    } else {
        (0x80 | (imm12 & 0x7f)).rotate_right(imm12 >> 7)
    }
}

fn decode32(at: u32, h1: u16, h2: u16) -> Option<Insn> {
    let n = |sp, flow| insn(4, sp, flow);
    let same = Sp::Delta(0);
    let rn = h1 & 0xf;
    // The register a class names as its destination: SP there is a write not followed.
    let dest = |r: u16| if r == SP { n(Sp::Write, Flow::Next) } else { n(same, Flow::Next) };
    match h1 >> 11 & 3 {
        0b01 if h1 & 0xfe40 == 0xe800 => {
            // Load/store multiple.
            let (opc, w, l) = (field(h1, 7, 2), h1 & 0x20 != 0, h1 & 0x10 != 0);
            let words = 4 * h2.count_ones() as i32;
            let to_pc = l && h2 & 0x8000 != 0;
            if !(opc == 1 || opc == 2) || rn == PC || (l && h2 & 0x2000 != 0) {
                return if opc == 1 || opc == 2 { n(Sp::Write, Flow::Next) } else { None };
            }
            match (rn == SP && w, opc, l) {
                (true, 2, false) => n(Sp::Delta(words), Flow::Next), // push.w (stmdb sp!)
                (true, 1, true) => n(Sp::Delta(-words), if to_pc { Flow::Return } else { Flow::Next }), // pop.w
                (true, _, _) => n(Sp::Write, Flow::Next),
                (false, _, _) => n(same, if to_pc { Flow::JumpIndirect } else { Flow::Next }),
            }
        }
        0b01 if h1 & 0xfe40 == 0xe840 => {
            // Load/store dual or exclusive, table branch.
            let (op1, op2) = (field(h1, 7, 2), field(h1, 4, 2));
            let (rt, rd) = (field(h2, 12, 4), field(h2, 8, 4));
            if h1 & 0xfff0 == 0xe8d0 && h2 & 0xffe0 == 0xf000 {
                return n(same, if rn == PC { Flow::Table { half: h2 & 0x10 != 0 } } else { Flow::JumpIndirect });
            }
            match (op1, op2) {
                (0, 0) => dest(rd),       // strex: its status
                (0, 1) => dest(rt),       // ldrex
                (1, 0) => dest(h2 & 0xf), // strexb/h
                (1, 1) => dest(rt),       // ldrexb/h
                _ => {
                    // ldrd/strd
                    let (u, w, l) = (h1 & 0x80 != 0, h1 & 0x20 != 0, h1 & 0x10 != 0);
                    if l && (rt == SP || rd == SP || rt == PC || rd == PC) || (w && rn == PC) {
                        return n(Sp::Write, Flow::Next);
                    }
                    let imm = 4 * i32::from(h2 & 0xff);
                    n(if w && rn == SP { Sp::Delta(if u { -imm } else { imm }) } else { same }, Flow::Next)
                }
            }
        }
        0b01 if h1 & 0xfe00 == 0xea00 => dest(field(h2, 8, 4)), // data processing, shifted register
        0b01 if h1 & 0xfc00 == 0xec00 => coprocessor(h1, h2),
        0b10 if h2 & 0x8000 == 0 => {
            // Data processing with an immediate.
            if field(h2, 8, 4) != SP {
                return n(same, Flow::Next);
            }
            let imm12 = u32::from(field(h1, 10, 1)) << 11 | u32::from(field(h2, 12, 3)) << 8 | u32::from(h2 & 0xff);
            if h1 & 0x0200 == 0 {
                // Modified immediate: add.w/sub.w sp, sp, #imm (no flags).
                match h1 & 0xfbf0 {
                    0xf100 if rn == SP => n(Sp::Delta(-(expand_imm(imm12) as i32)), Flow::Next),
                    0xf1a0 if rn == SP => n(Sp::Delta(expand_imm(imm12) as i32), Flow::Next),
                    _ => n(Sp::Write, Flow::Next),
                }
            } else {
                // Plain immediate: addw/subw sp, sp, #imm12.
                match h1 & 0xfbff {
                    0xf20d => n(Sp::Delta(-(imm12 as i32)), Flow::Next),
                    0xf2ad => n(Sp::Delta(imm12 as i32), Flow::Next),
                    _ => n(Sp::Write, Flow::Next),
                }
            }
        }
        0b10 => {
            // Branches and miscellaneous control.
            let s = u32::from(field(h1, 10, 1));
            let (j1, j2) = (u32::from(field(h2, 13, 1)), u32::from(field(h2, 11, 1)));
            let imm11 = u32::from(h2 & 0x7ff);
            let long = || {
                let (i1, i2) = (!(j1 ^ s) & 1, !(j2 ^ s) & 1);
                let imm = s << 24 | i1 << 23 | i2 << 22 | u32::from(h1 & 0x3ff) << 12 | imm11 << 1;
                at.wrapping_add(4).wrapping_add(sext(imm, 25) as u32)
            };
            match h2 & 0xd000 {
                0xd000 => n(same, Flow::Call(long())),
                0x9000 => n(same, Flow::Branch { target: long(), conditional: false }),
                0x8000 if field(h1, 6, 4) < 0xe => {
                    let imm = s << 20 | j2 << 19 | j1 << 18 | u32::from(h1 & 0x3f) << 12 | imm11 << 1;
                    let target = at.wrapping_add(4).wrapping_add(sext(imm, 21) as u32);
                    n(same, Flow::Branch { target, conditional: true })
                }
                0x8000 if h1 & 0xffe0 == 0xf380 => {
                    // msr: MSP, PSP and CONTROL (which may switch stacks) move SP.
                    match h2 & 0xff {
                        8 | 9 | 20 => n(Sp::Write, Flow::Next),
                        _ => n(same, Flow::Next),
                    }
                }
                0x8000 if h1 == 0xf3ef => dest(field(h2, 8, 4)), // mrs
                0x8000 if h1 == 0xf3af || h1 == 0xf3bf => n(same, Flow::Next), // hints, barriers
                _ if h1 & 0xfff0 == 0xf7f0 && h2 & 0xf000 == 0xa000 => n(same, Flow::Trap), // udf.w
                _ => None,
            }
        }
        0b11 if h1 & 0xff10 == 0xf800 || h1 & 0xfe10 == 0xf810 => {
            // Load or store of one register.
            let load = h1 & 0x10 != 0;
            if load && field(h1, 5, 2) == 3 {
                return None;
            }
            let (p, u) = (h2 & 0x400 != 0, h2 & 0x200 != 0);
            let writeback = rn != PC && h1 & 0x80 == 0 && h2 & 0x800 != 0 && h2 & 0x100 != 0;
            let imm = i32::from(h2 & 0xff);
            let sp = if writeback && rn == SP { Sp::Delta(if u { -imm } else { imm }) } else { same };
            match field(h2, 12, 4) {
                SP if load => n(Sp::Write, Flow::Next),
                // A word loaded into PC: popped (`ldr pc, [sp], #4`) or not.
                PC if load && field(h1, 5, 2) == 2 => {
                    let popped = writeback && rn == SP && !p && u;
                    n(sp, if popped { Flow::Return } else { Flow::JumpIndirect })
                }
                _ => n(sp, Flow::Next), // a byte or halfword "load" into PC is a preload hint
            }
        }
        0b11 if h1 & 0xff00 == 0xfa00 || h1 & 0xff80 == 0xfb00 => dest(field(h2, 8, 4)),
        0b11 if h1 & 0xff80 == 0xfb80 => {
            // Long multiply and divide: RdLo and RdHi (a divide's RdLo field is 1111).
            if field(h2, 8, 4) == SP || field(h2, 12, 4) == SP {
                n(Sp::Write, Flow::Next)
            } else {
                n(same, Flow::Next)
            }
        }
        _ => None,
    }
}

/// Coprocessor (the FPU's) instructions: `vpush`/`vpop`, and whatever else could write SP.
fn coprocessor(h1: u16, h2: u16) -> Option<Insn> {
    let n = |sp| insn(4, sp, Flow::Next);
    let rn = h1 & 0xf;
    let vfp = h2 & 0x0e00 == 0x0a00;
    let words = 4 * i32::from(h2 & 0xff);
    if h1 & 0xffbf == 0xed2d && vfp {
        return n(Sp::Delta(words)); // vpush (vstmdb sp!)
    }
    if h1 & 0xffbf == 0xecbd && vfp {
        return n(Sp::Delta(-words)); // vpop (vldmia sp!)
    }
    if h1 & 0xffe0 == 0xec40 {
        // Two core registers to or from the coprocessor.
        let to_core = h1 & 0x10 != 0;
        let hit = |r| rn == r || field(h2, 12, 4) == r;
        return if to_core && (hit(SP) || hit(PC)) { n(Sp::Write) } else { n(Sp::Delta(0)) };
    }
    match field(h1, 8, 2) {
        // Loads and stores: writeback to SP that is not vpush/vpop.
        0 | 1 if h1 & 0x0200 == 0 => {
            if h1 & 0x20 != 0 && (rn == SP || rn == PC) {
                n(Sp::Write)
            } else {
                n(Sp::Delta(0))
            }
        }
        // Data processing, or a transfer of one register; to a core register if L is set.
        2 => {
            if h2 & 0x10 != 0 && h1 & 0x10 != 0 && field(h2, 12, 4) == SP {
                n(Sp::Write)
            } else {
                n(Sp::Delta(0))
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(bytes: &[u8]) -> Insn {
        let h1 = u16::from_le_bytes([bytes[0], bytes[1]]);
        let h2 = bytes.get(2..4).map(|b| u16::from_le_bytes([b[0], b[1]]));
        decode(0x1000, h1, h2).unwrap_or_else(|| panic!("{bytes:02x?} decodes"))
    }

    #[test]
    fn stack_moves_are_read() {
        // Encodings from llvm-mc -triple=thumbv7em -show-encoding.
        let cases: &[(&[u8], Sp)] = &[
            (&[0xf0, 0xb5], Sp::Delta(20)),                // push {r4, r5, r6, r7, lr}
            (&[0xf0, 0xbd], Sp::Delta(-20)),               // pop {r4, r5, r6, r7, pc}
            (&[0x2d, 0xe9, 0x00, 0x0f], Sp::Delta(16)),    // push.w {r8, r9, r10, r11}
            (&[0xbd, 0xe8, 0x00, 0x0f], Sp::Delta(-16)),   // pop.w {r8, r9, r10, r11}
            (&[0x4d, 0xf8, 0x04, 0xbd], Sp::Delta(4)),     // str r11, [sp, #-4]!
            (&[0x5d, 0xf8, 0x04, 0xbb], Sp::Delta(-4)),    // ldr r11, [sp], #4
            (&[0xcd, 0xb0], Sp::Delta(308)),               // sub sp, #308
            (&[0x4d, 0xb0], Sp::Delta(-308)),              // add sp, #308
            (&[0xad, 0xf5, 0x80, 0x5d], Sp::Delta(4096)),  // sub.w sp, sp, #4096
            (&[0x0d, 0xf5, 0x80, 0x5d], Sp::Delta(-4096)), // add.w sp, sp, #4096
            (&[0xad, 0xf2, 0x34, 0x1d], Sp::Delta(0x134)), // subw sp, sp, #308
            (&[0x2d, 0xed, 0x10, 0x8b], Sp::Delta(64)),    // vpush {d8-d15}
            (&[0xbd, 0xec, 0x10, 0x8b], Sp::Delta(-64)),   // vpop {d8-d15}
            (&[0x6f, 0x46], Sp::Delta(0)),                 // mov r7, sp
            (&[0x03, 0xaf], Sp::Delta(0)),                 // add r7, sp, #12
            (&[0xbd, 0x46], Sp::Write),                    // mov sp, r7
            (&[0xa7, 0xf1, 0x0c, 0x0d], Sp::Write),        // sub.w sp, r7, #12
            (&[0x85, 0x44], Sp::Write),                    // add sp, r0
            (&[0x80, 0xf3, 0x08, 0x88], Sp::Write),        // msr msp, r0
            (&[0xd0, 0xf8, 0x00, 0xd0], Sp::Write),        // ldr.w sp, [r0]
        ];
        for (bytes, sp) in cases {
            assert_eq!(one(bytes).sp, *sp, "{bytes:02x?}");
        }
    }

    #[test]
    fn control_flow_is_read() {
        let at = 0x1000;
        let cases: &[(&[u8], Flow)] = &[
            (&[0x70, 0x47], Flow::Return),                                                    // bx lr
            (&[0x18, 0x47], Flow::TailIndirect),                                              // bx r3
            (&[0x90, 0x47], Flow::CallIndirect),                                              // blx r2
            (&[0x5d, 0xf8, 0x04, 0xfb], Flow::Return),                                        // ldr pc, [sp], #4
            (&[0xd0, 0xf8, 0x00, 0xf0], Flow::JumpIndirect),                                  // ldr.w pc, [r0]
            (&[0xdf, 0xe8, 0x00, 0xf0], Flow::Table { half: false }),                         // tbb [pc, r0]
            (&[0xdf, 0xe8, 0x11, 0xf0], Flow::Table { half: true }),                          // tbh [pc, r1, lsl #1]
            (&[0x00, 0xde], Flow::Trap),                                                      // udf #0
            (&[0xfe, 0xe7], Flow::Branch { target: at, conditional: false }),                 // b .
            (&[0x00, 0xf0, 0x02, 0xf8], Flow::Call(at + 8)),                                  // bl .+8
            (&[0xff, 0xf7, 0xfc, 0xff], Flow::Call(at - 4)),                                  // bl .-4
            (&[0x00, 0xf0, 0x02, 0xb8], Flow::Branch { target: at + 8, conditional: false }), // b.w .+8
            (&[0x40, 0xf0, 0x02, 0x80], Flow::Branch { target: at + 8, conditional: true }),  // bne.w .+8
            (&[0x08, 0xb1], Flow::Branch { target: at + 6, conditional: true }),              // cbz r0, .+6
        ];
        for (bytes, flow) in cases {
            assert_eq!(one(bytes).flow, *flow, "{bytes:02x?}");
        }
        let ite = one(&[0x0c, 0xbf]); // ite eq
        assert_eq!((ite.it, ite.then), (2, 0b01));
        let it = one(&[0x08, 0xbf]); // it eq
        assert_eq!((it.it, it.then), (1, 0b1));
        let ittet = one(&[0x1b, 0xbf]); // ittet ne
        assert_eq!((ittet.it, ittet.then), (4, 0b1011));
        assert_eq!(expand_imm(0x4ff), 0x7f80_0000);
        assert_eq!(expand_imm(0x3ab), 0xabab_abab);
        assert!(decode(at, 0xdf00, None).is_none()); // svc #0
    }
}

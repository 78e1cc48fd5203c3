//! AVR instructions decoded as far as the stack analysis needs them: what moves the stack
//! pointer, which registers can hold it, and where control goes.

use super::{DATA_IO, Y, Z};

/// A decoded instruction, as far as the stack and the registers that may hold SP matter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    /// No effect on the registers, the stack or the flow.
    Other,
    Cli,
    Sei,
    /// Sets these registers (a bit per register) to values this does not follow.
    Write(u32),
    /// `eor r,r` and `sub r,r`: zero.
    Clear(u8),
    Mov {
        d: u8,
        r: u8,
    },
    Movw {
        d: u8,
        r: u8,
    },
    Ldi {
        d: u8,
        k: u8,
    },
    Subi {
        d: u8,
        k: u8,
    },
    Sbci {
        d: u8,
        k: u8,
    },
    /// `adiw` (positive) or `sbiw` (negative) on the pair `d`, `d + 1`.
    AddWord {
        d: u8,
        k: i32,
    },
    In {
        d: u8,
        a: u8,
    },
    Out {
        a: u8,
        r: u8,
    },
    Push(u8),
    Pop(u8),
    Call(u32),
    Jump(u32),
    Branch(u32),
    /// May skip the next instruction (`cpse`, `sbrc`, `sbrs`, `sbic`, `sbis`).
    Skip,
    Ret,
    /// Returns and sets the I flag.
    Reti,
    ICall,
    IJmp,
    EICall,
    EIJmp,
}

/// Decodes the instruction at `at`, whose first word is `w` and second (if it has one) `w2`,
/// into the operation and its length in bytes; `None` for reserved encodings.
pub(super) fn decode(at: u32, w: u16, w2: Option<u16>) -> Option<(Op, u32)> {
    let d5 = ((w >> 4) & 0x1f) as u8;
    let r5 = ((w & 0xf) | ((w >> 5) & 0x10)) as u8;
    let d4 = 16 + ((w >> 4) & 0xf) as u8;
    let k8 = (((w >> 4) & 0xf0) | (w & 0xf)) as u8;
    let reg = |r: u8| 1u32 << r;
    let pair = |r: u8| 3u32 << r;
    // Relative jumps count words from the next instruction.
    let relative = |k: i32| at.wrapping_add(2).wrapping_add_signed(2 * k);
    let long = |w2: Option<u16>| w2.map(|w2| (u32::from((w >> 3) & 0x3e | (w & 1)) << 16 | u32::from(w2)) * 2);
    let op = match w >> 12 {
        0x0 => match (w >> 8) & 0xf {
            0x0 if w == 0 => Op::Other,
            0x1 => Op::Movw { d: ((w >> 4) & 0xf) as u8 * 2, r: (w & 0xf) as u8 * 2 },
            // muls, mulsu, fmul, fmuls, fmulsu: the product goes to r1:r0.
            0x2 | 0x3 => Op::Write(pair(0)),
            0x4..=0x7 => Op::Other,                 // cpc
            _ if w >= 0x0800 => Op::Write(reg(d5)), // sbc, add
            _ => return None,
        },
        0x1 => match (w >> 10) & 3 {
            0 => Op::Skip,  // cpse
            1 => Op::Other, // cp
            2 if d5 == r5 => Op::Clear(d5),
            _ => Op::Write(reg(d5)), // sub, adc
        },
        0x2 => match (w >> 10) & 3 {
            1 if d5 == r5 => Op::Clear(d5), // eor
            3 => Op::Mov { d: d5, r: r5 },
            _ => Op::Write(reg(d5)), // and, eor, or
        },
        0x3 => Op::Other, // cpi
        0x4 => Op::Sbci { d: d4, k: k8 },
        0x5 => Op::Subi { d: d4, k: k8 },
        0x6 | 0x7 => Op::Write(reg(d4)), // ori, andi
        // ldd, std (and ld, st through Y or Z without displacement).
        0x8 | 0xa => {
            if w & 0x0200 == 0 {
                Op::Write(reg(d5))
            } else {
                Op::Other
            }
        }
        0x9 => match (w >> 9) & 7 {
            // Loads; some move their pointer.
            0 => match w & 0xf {
                0 => {
                    let op = match w2? {
                        addr @ 0x5d..=0x5f => Op::In { d: d5, a: (addr - DATA_IO) as u8 },
                        _ => Op::Write(reg(d5)),
                    };
                    return Some((op, 4));
                }
                4 | 6 | 0xc => Op::Write(reg(d5)),
                1 | 2 | 5 | 7 => Op::Write(reg(d5) | pair(Z)),
                9 | 0xa => Op::Write(reg(d5) | pair(Y)),
                0xd | 0xe => Op::Write(reg(d5) | pair(26)),
                0xf => Op::Pop(d5),
                _ => return None,
            },
            // Stores; some move their pointer, xch/las/lac/lat also load.
            1 => match w & 0xf {
                0 => {
                    let op = match w2? {
                        addr @ 0x5d..=0x5f => Op::Out { a: (addr - DATA_IO) as u8, r: d5 },
                        _ => Op::Other,
                    };
                    return Some((op, 4));
                }
                0xc => Op::Other,
                1 | 2 => Op::Write(pair(Z)),
                4..=7 => Op::Write(reg(d5)),
                9 | 0xa => Op::Write(pair(Y)),
                0xd | 0xe => Op::Write(pair(26)),
                0xf => Op::Push(d5),
                _ => return None,
            },
            2 => match w & 0xf {
                0..=3 | 5..=7 | 0xa => Op::Write(reg(d5)), // com, neg, swap, inc, asr, lsr, ror, dec
                0x8 if w & 0x0100 == 0 => match w {
                    0x9478 => Op::Sei,
                    0x94f8 => Op::Cli,
                    _ => Op::Other, // the other flags' bset and bclr
                },
                0x8 => match w {
                    0x9508 => Op::Ret,
                    0x9518 => Op::Reti,
                    0x9588 | 0x9598 | 0x95a8 | 0x95e8 => Op::Other, // sleep, break, wdr, spm
                    0x95c8 | 0x95d8 => Op::Write(reg(0)),           // lpm, elpm into r0
                    0x95f8 => Op::Write(pair(Z)),                   // spm Z+
                    _ => return None,
                },
                0x9 => match w {
                    0x9409 => Op::IJmp,
                    0x9419 => Op::EIJmp,
                    0x9509 => Op::ICall,
                    0x9519 => Op::EICall,
                    _ => return None,
                },
                0xb if w & 0x0100 == 0 => Op::Write(0xffff), // des
                0xc | 0xd => return long(w2).map(|t| (Op::Jump(t), 4)),
                0xe | 0xf => return long(w2).map(|t| (Op::Call(t), 4)),
                _ => return None,
            },
            3 => {
                let d = 24 + 2 * ((w >> 4) & 3) as u8;
                let k = i32::from(((w >> 2) & 0x30) | (w & 0xf));
                Op::AddWord { d, k: if w & 0x0100 == 0 { k } else { -k } }
            }
            4 | 5 => match (w >> 8) & 3 {
                0 | 2 => Op::Other, // cbi, sbi
                _ => Op::Skip,      // sbic, sbis
            },
            _ => Op::Write(pair(0)), // mul
        },
        0xb => {
            let a = (((w >> 5) & 0x30) | (w & 0xf)) as u8;
            if w & 0x0800 == 0 {
                Op::In { d: d5, a }
            } else {
                Op::Out { a, r: d5 }
            }
        }
        0xc | 0xd => {
            let target = relative(i32::from(((w << 4) as i16) >> 4));
            if w >> 12 == 0xc {
                Op::Jump(target)
            } else {
                Op::Call(target)
            }
        }
        0xe => Op::Ldi { d: d4, k: k8 },
        _ => {
            if w & 0x0800 == 0 {
                Op::Branch(relative(i32::from(((w << 6) as i16) >> 9)))
            } else if w & 0x8 != 0 {
                return None;
            } else {
                match (w >> 9) & 3 {
                    0 => Op::Write(reg(d5)), // bld
                    1 => Op::Other,          // bst
                    _ => Op::Skip,           // sbrc, sbrs
                }
            }
        }
    };
    Some((op, 2))
}

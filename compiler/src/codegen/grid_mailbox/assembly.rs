//! The byte board's hottest passes in AVR assembly, each generated beside the portable Rust
//! that it must agree with (the device tests run both on the same positions): LLVM's AVR
//! backend addresses a static board afresh at every step where `ldd` reads a neighbour at a
//! constant displacement, and tests a bit with four instructions where `sbrs` takes one.

use super::super::int;
use proc_macro2::TokenStream;
use quote::quote;

/// Steps X by `x` cells.
fn step_x(x: i32) -> String {
    if x >= 0 {
        format!("adiw r26, {x}")
    } else {
        format!("sbiw r26, {}", -x)
    }
}

/// [`super::render`]'s `mobility` in AVR assembly, the search's hottest loop: LLVM's AVR backend
/// tests a bit with four instructions where `sbrs` takes one, and reaches a neighbour at a
/// negative offset by copying and moving a pointer where `ldd` reads it at once. For each
/// empty cell with a piece around (`{v}`, its record of neighbours), Z is kept `stride + 1`
/// cells back from it, so that every neighbour is at a small positive displacement. `None`
/// where the board is too wide for `ldd`'s and `adiw`'s six-bit displacements.
pub(super) fn avr_mobility(dir_steps: &[i32], stride: u8) -> Option<TokenStream> {
    let back = stride as i32 + 1;
    let fits = |x: i32| (0..=63).contains(&x.abs());
    if !dir_steps.iter().all(|&d| fits(back + d) && back + d >= 0 && fits(back + 2 * d)) || dir_steps.len() > 8 {
        return None;
    }
    // A string of instructions per part, so that the generated source reads a part a line.
    let part = |lines: &[&str]| lines.join("\n");
    let setup = format!("sbiw r30, {back}");
    // The body of a cell with a piece around comes first, so that every branch out of the
    // per-cell test is short.
    let mut parts =
        vec![part(&["rjmp 7f", "1:", "movw r30, {cells:l}", "add r30, {at}", "adc r31, r1", &setup, "clr {can}"])];
    for (k, &d) in dir_steps.iter().enumerate() {
        // A direction whose neighbour holds a piece: walk over that colour's pieces; what
        // ends the line (the other colour, or empty) may place here.
        parts.push(part(&[
            &format!("sbrs {{v}}, {k}"),
            "rjmp 3f",
            &format!("ldd {{t}}, Z+{}", back + d),
            "movw r26, r30",
            &step_x(back + 2 * d),
            "4:",
            "ld {u}, X",
            &step_x(d),
            "cp {u}, {t}",
            "breq 4b",
            "or {can}, {u}",
            "3:",
        ]));
    }
    parts.extend([
        // Colour 1 may place here, colour 2 may: counted by colour, not by side.
        part(&["sbrc {can}, 0", "inc {ones}", "sbrc {can}, 1", "inc {twos}"]),
        // The next cell; one with no piece around is passed over at once.
        part(&[
            "8:",
            "mov {at}, {nx}",
            "7:",
            "tst {at}",
            "breq 9f",
            "movw r30, {around:l}",
            "add r30, {at}",
            "adc r31, r1",
            "ld {v}, Z",
            "movw r30, {next:l}",
            "add r30, {at}",
            "adc r31, r1",
            "ld {nx}, Z",
            "tst {v}",
            "breq 8b",
            "rjmp 1b",
            "9:",
        ]),
    ]);
    Some(quote! {
        /// [`mobility_portable`] in the chip's assembly: the same pass, the same counts.
        #[cfg(target_arch = "avr")]
        #[inline(never)]
        pub(crate) fn mobility(b: &Board) -> (u8, u8) {
            let (cells, next, around) = b.tables();
            let (mut ones, mut twos) = (0u8, 0u8);
            // SAFETY: reads only: the list of empty cells holds grid cells, whose neighbours,
            // and every line over pieces from them, lie on the board (its border holds none);
            // r1 is the zero register on entry and is left so.
            unsafe {
                core::arch::asm!(
                    #(#parts),*,
                    at = inout(reg) b.first_empty() => _,
                    nx = out(reg) _,
                    v = out(reg) _,
                    can = out(reg) _,
                    t = out(reg) _,
                    u = out(reg) _,
                    ones = inout(reg) ones,
                    twos = inout(reg) twos,
                    cells = in(reg_pair) cells,
                    next = in(reg_pair) next,
                    around = in(reg_pair) around,
                    out("X") _,
                    out("Z") _,
                    options(readonly, nostack),
                );
            }
            if b.colour == 1 {
                (ones, twos)
            } else {
                (twos, ones)
            }
        }

        #[cfg(not(target_arch = "avr"))]
        #[inline(always)]
        pub(crate) fn mobility(b: &Board) -> (u8, u8) {
            mobility_portable(b)
        }
    })
}

/// A region's difference ([`gamec_runtime::mailbox::Mailbox::diff`]) in AVR assembly, read
/// at every leaf for every region the board does not tally: fourteen cycles a cell, where
/// LLVM's loop took about twenty-five. Without a branch: with colours 1 and 2 and empty 0,
/// the sum of the cells is colour 1's pieces plus twice colour 2's, and the sum of the cells
/// halved is colour 2's.
pub(super) fn avr_region_diff() -> TokenStream {
    quote! {
        /// The side to move's pieces minus the other's on a region: `cells`, a table in
        /// program memory of at most 64 of the board's cells.
        #[cfg(target_arch = "avr")]
        #[inline(never)]
        pub(crate) fn region_diff(b: &Board, cells: &[u8]) -> i16 {
            if cells.is_empty() {
                return 0;
            }
            let (sum, twos): (u8, u8);
            // SAFETY: reads only: `cells` is in program memory (read with `lpm`) and holds
            // cells of the board, each read from the board's own array; r1 stays zero.
            unsafe {
                core::arch::asm!(
                    "2:\nlpm {v}, Z+\nmovw r26, {board:l}\nadd r26, {v}\nadc r27, r1\nld {v}, X",
                    "add {sum}, {v}\nlsr {v}\nadd {twos}, {v}\ndec {n}\nbrne 2b",
                    board = in(reg_pair) b.cells.as_ptr(),
                    n = inout(reg) cells.len() as u8 => _,
                    sum = inout(reg) 0u8 => sum,
                    twos = inout(reg) 0u8 => twos,
                    v = out(reg) _,
                    inout("Z") cells.as_ptr() => _,
                    out("X") _,
                    options(readonly, nostack),
                );
            }
            // Colour 1's pieces minus colour 2's: `sum - 3 * twos`, within a byte.
            let ones_minus_twos = sum.wrapping_sub(twos.wrapping_mul(3)) as i8 as i16;
            if b.colour == 1 {
                ones_minus_twos
            } else {
                -ones_minus_twos
            }
        }

        #[cfg(not(target_arch = "avr"))]
        #[inline(always)]
        pub(crate) fn region_diff(b: &Board, cells: &[u8]) -> i16 {
            b.diff(cells)
        }
    }
}

/// `mark_around`: records in each neighbour of the grid cell `at` that `at` was just filled or
/// emptied, by turning its bit over (a piece is put on an empty cell and taken up from a full
/// one), at constant offsets where the board's loop reads each direction from a table; in
/// assembly on AVR, where LLVM addresses each record of a static board afresh. The cell
/// `at - d` has `at` for its neighbour in direction `d`, bit `k` of its record, `back - d`
/// bytes from the records' base for `at`.
pub(super) fn mark_around(dir_steps: &[i32], stride: u8) -> TokenStream {
    let back = stride as i32 + 1;
    let marks: Vec<(i32, u8)> = dir_steps.iter().enumerate().map(|(k, &d)| (back - d, 1u8 << k)).collect();
    let portable = marks.iter().map(|&(q, bit)| {
        let (q, bit) = (int(q as usize), int(bit));
        quote!(*base.add(#q) ^= #bit;)
    });
    let in_line = marks.iter().all(|&(q, _)| (0..=63).contains(&q));
    let asm = in_line.then(|| {
        let parts = marks
            .iter()
            .map(|&(q, bit)| format!("ldd {{t}}, Z+{q}\nldi {{m}}, {bit}\neor {{t}}, {{m}}\nstd Z+{q}, {{t}}"));
        quote! {
            // SAFETY: as the portable steps', below; writes only the records.
            #[cfg(target_arch = "avr")]
            unsafe {
                core::arch::asm!(
                    #(#parts),*,
                    t = out(reg_upper) _,
                    m = out(reg_upper) _,
                    inout("Z") base => _,
                    options(nostack),
                );
            }
        }
    });
    let portable_cfg = if in_line { quote!(#[cfg(not(target_arch = "avr"))]) } else { quote!() };
    let back = int(back as usize);
    quote! {
        /// Records in each neighbour of the grid cell `at` that `at` was just filled or
        /// emptied: its bit turned over, at constant offsets.
        #[inline(never)]
        fn mark_around(b: &mut Board, at: u8) {
            let base = b.around_base(at, #back);
            #asm
            // SAFETY: `at` is a grid cell, so its neighbours, on the grid or its border, and
            // their records lie in the board.
            #portable_cfg
            unsafe {
                #(#portable)*
            }
        }
    }
}

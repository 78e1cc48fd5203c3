//! The byte board's hottest passes in AVR assembly, each generated beside the portable Rust
//! that it must agree with (the device tests run both on the same positions): LLVM's AVR
//! backend addresses a static board afresh at every step where `ldd` reads a neighbour at a
//! constant displacement, and tests a bit with four instructions where `sbrs` takes one.

use super::super::int;
use proc_macro2::TokenStream;
use quote::quote;

/// Instructions as one string, a line each (the empty ones left out): a string per part of a
/// pass, so that the generated source reads a part a line.
fn part(lines: &[&str]) -> String {
    lines.iter().filter(|l| !l.is_empty()).copied().collect::<Vec<_>>().join("\n")
}

/// Steps X by `x` cells.
fn step_x(x: i32) -> String {
    if x >= 0 {
        format!("adiw r26, {x}")
    } else {
        format!("sbiw r26, {}", -x)
    }
}

/// How far back from a cell, two rows and two cells, the passes over the empty cells keep Z,
/// so that each neighbour and the cell past it are at displacements `ldd` reaches (0 to 63),
/// and X reaches the cell after those with one `adiw` or `sbiw`; `None` where the board is
/// too wide for that, or there are more directions than a record has bits.
fn two_rows_back(dir_steps: &[i32], stride: u8) -> Option<i32> {
    let back = 2 * (stride as i32 + 1);
    let reach = |x: i32| (0..=63).contains(&x);
    let fits = |d: i32| reach(back + d) && reach(back + 2 * d) && reach((back + 3 * d).abs()) && reach(d.abs());
    (dir_steps.iter().all(|&d| fits(d)) && dir_steps.len() <= 8).then_some(back)
}

/// [`super::render`]'s `mobility` in AVR assembly, the search's hottest loop: LLVM's AVR backend
/// tests a bit with four instructions where `sbrs` takes one, and reaches a neighbour at a
/// negative offset by copying and moving a pointer where `ldd` reads it at once. For each
/// empty cell with a piece around (`{v}`, its record of neighbours), Z is kept two rows and
/// two cells back from it, so that every neighbour and the cell past it are at small positive
/// displacements: most lines end there, read without a pointer of their own. `None` where
/// the board is too wide for `ldd`'s and `adiw`'s six-bit displacements.
pub(super) fn avr_mobility(dir_steps: &[i32], stride: u8) -> Option<TokenStream> {
    let back = two_rows_back(dir_steps, stride)?;
    // The body of a cell with a piece around comes first, so that every branch out of the
    // per-cell test is short.
    let mut parts = vec![part(&["rjmp 7f", "1:", "movw r30, {cells:l}", "add r30, {at}", "adc r31, r1", "clr {can}"])];
    for (k, &d) in dir_steps.iter().enumerate() {
        // A direction whose neighbour holds a piece: walk over that colour's pieces; what
        // ends the line (the other colour, or empty) may place here.
        parts.push(part(&[
            &format!("sbrs {{v}}, {k}"),
            "rjmp 3f",
            &format!("ldd {{t}}, Z+{}", back + d),
            &format!("ldd {{u}}, Z+{}", back + 2 * d),
            "cp {u}, {t}",
            "brne 5f",
            "movw r26, r30",
            &step_x(back + 3 * d),
            "4:",
            "ld {u}, X",
            &step_x(d),
            "cp {u}, {t}",
            "breq 4b",
            "5:",
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
    let back = int(back as usize);
    Some(quote! {
        /// [`mobility_portable`] in the chip's assembly: the same pass, the same counts.
        #[cfg(target_arch = "avr")]
        #[inline(never)]
        pub(crate) fn mobility(b: &Board) -> (u8, u8) {
            let (cells, next, around) = b.tables();
            let back = #back;
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
                    cells = in(reg_pair) cells.wrapping_sub(back),
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

/// `diff`: a region's difference ([`gamec_runtime::mailbox::Mailbox::diff`] of `cells`, the
/// region's board cells, whose table is `table`), read at every leaf for every region the
/// board does not tally; in AVR assembly a cell at a time at constant displacements, five
/// cycles a cell where LLVM's loop over the table took about twenty-five. Without a branch:
/// with colours 1 and 2 and empty 0, the sum of the cells is colour 1's pieces plus twice
/// colour 2's, and the sum of the cells halved is colour 2's.
pub(super) fn avr_region(diff: &proc_macro2::Ident, table: &proc_macro2::Ident, cells: &[u8]) -> TokenStream {
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    let first = sorted.first().copied().unwrap_or(0);
    // Z moves on by `adiw` (at most 63) where a cell lies beyond `ldd`'s reach of it.
    let (mut base, mut lines) = (first as u32, Vec::new());
    for &c in &sorted {
        while c as u32 - base > 63 {
            let step = (c as u32 - base).min(63);
            lines.push(format!("adiw r30, {step}"));
            base += step;
        }
        lines.push(format!("ldd {{v}}, Z+{}\nadd {{sum}}, {{v}}\nlsr {{v}}\nadd {{twos}}, {{v}}", c as u32 - base));
    }
    let first = int(first);
    quote! {
        /// The side to move's pieces minus the other's on the region of cells `#table`.
        #[cfg(target_arch = "avr")]
        #[inline(always)]
        pub(crate) fn #diff(b: &Board) -> i16 {
            let (sum, twos): (u8, u8);
            // SAFETY: reads only, of the board's own cells; r1 stays zero.
            unsafe {
                core::arch::asm!(
                    #(#lines),*,
                    sum = inout(reg) 0u8 => sum,
                    twos = inout(reg) 0u8 => twos,
                    v = out(reg) _,
                    inout("Z") b.cells.as_ptr().wrapping_add(#first) => _,
                    options(pure, readonly, nostack),
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

        /// The side to move's pieces minus the other's on the region of cells `#table`.
        #[cfg(not(target_arch = "avr"))]
        #[inline(always)]
        pub(crate) fn #diff(b: &Board) -> i16 {
            b.diff(&#table)
        }
    }
}

/// Where each neighbour's record of the grid cell `at` is: the cell `at - d` has `at` for its
/// neighbour in direction `d`, bit `k` of its record, `back - d` bytes on from the records'
/// base for `at` (`around_base(at, back)`, `back` one more than the row stride). With each
/// offset, the bit.
fn neighbour_marks(dir_steps: &[i32], stride: u8) -> (i32, Vec<(i32, u8)>) {
    let back = stride as i32 + 1;
    (back, dir_steps.iter().enumerate().map(|(k, &d)| (back - d, 1u8 << k)).collect())
}

/// `mark_around`: records in each neighbour of the grid cell `at` that `at` was just filled or
/// emptied, by turning its bit over (a piece is put on an empty cell and taken up from a full
/// one), at constant offsets where the board's loop reads each direction from a table. The
/// portable twin of the marking [`avr_play_undo`]'s assembly does itself.
pub(super) fn mark_around(dir_steps: &[i32], stride: u8) -> TokenStream {
    let (back, marks) = neighbour_marks(dir_steps, stride);
    let steps = marks.iter().map(|&(q, bit)| {
        let (q, bit) = (int(q as usize), int(bit));
        quote!(*base.add(#q) ^= #bit;)
    });
    let back = int(back as usize);
    quote! {
        /// Records in each neighbour of the grid cell `at` that `at` was just filled or
        /// emptied: its bit turned over, at constant offsets. (On AVR `play` and `unplay`
        /// mark in their own assembly where they reach the records.)
        #[cfg_attr(target_arch = "avr", allow(dead_code))]
        #[inline(never)]
        fn mark_around(b: &mut Board, at: u8) {
            let base = b.around_base(at, #back);
            // SAFETY: `at` is a grid cell, so its neighbours, on the grid or its border, and
            // their records lie in the board.
            unsafe {
                #(#steps)*
            }
        }
    }
}

/// `play` and `unplay`: making a move, the neighbours' records marked, and taking it back;
/// the board's own loops over the directions
/// ([`gamec_runtime::mailbox::Mailbox::play_unmarked`]) and [`mark_around`] in AVR assembly.
/// Each direction whose line may turn loads its step and calls a walk shared by all of them,
/// local to the function: spelt out per direction the walks were 300 bytes more, for a few
/// cycles a line. A piece put down sets its bit in each neighbour's record and one taken up
/// clears it, at constant displacements, where the board is narrow enough.
pub(super) fn avr_play_undo(dir_steps: &[i32], stride: u8) -> TokenStream {
    if dir_steps.len() > 8 || dir_steps.iter().any(|&d| i8::try_from(d).is_err()) {
        return portable_play_undo(quote!());
    }
    let (plays, play_walk) = play_lines(dir_steps);
    let (undos, undo_walk) = undo_lines(dir_steps);
    let (back, marks) = neighbour_marks(dir_steps, stride);
    let marked = |set: bool| {
        let t = if set { "{t}" } else { "{n}" };
        let mut lines = vec!["movw r30, {marks}".to_string()];
        lines.extend(marks.iter().map(|&(q, bit)| {
            let change = if set { format!("ori {t}, {bit}") } else { format!("andi {t}, {}", !bit) };
            format!("ldd {t}, Z+{q}\n{change}\nstd Z+{q}, {t}")
        }));
        lines.join("\n")
    };
    let in_line = marks.iter().all(|&(q, _)| (0..=63).contains(&q));
    let (mark, unmark, call_mark) = if in_line {
        (marked(true), marked(false), quote!())
    } else {
        // Out of `ldd`'s reach: the records marked in Rust, and the assembly marks none.
        let nop = "; the records are marked in Rust".to_string();
        (nop.clone(), nop, quote!(mark_around(b, at);))
    };
    let back = int(back as usize);
    let portable = portable_play_undo(quote!(#[cfg(not(target_arch = "avr"))]));
    quote! {
        /// The side to move places on the cell of `m`, a move on a legal cell with nothing
        /// turned, turns what it flanks, records it in `m` and marks the neighbours' records.
        /// The board's `play_unmarked` and [`mark_around`] in the chip's assembly: the same
        /// cells turned, the same counts and records kept.
        #[cfg(target_arch = "avr")]
        #[inline(never)]
        pub(crate) fn play(b: &mut Board, m: &mut Made) {
            let (at, me, opp) = (m.cell(), b.colour, mailbox::other(b.colour));
            // SAFETY: `at` is a legal cell, on the grid.
            let around = unsafe { b.occupied_around(at) };
            let marks = b.around_base(at, #back);
            let mut turned = 0u8;
            // SAFETY: the lines walk from a grid cell over the other side's pieces, which lie
            // on the grid, and stop at the latest on the border, which holds none: every cell
            // read or written is on the board, as is every neighbour's record. The walk's
            // calls push a return address and pop it; r1 is the zero register and is left so.
            unsafe {
                core::arch::asm!(
                    #(#plays),*,
                    #play_walk,
                    #mark,
                    // The counts to the move's record.
                    "movw r30, {runs}\nst Z, {c0}\nstd Z+1, {c1}\nstd Z+2, {c2}\nstd Z+3, {c3}",
                    runs = in(reg_pair) m.runs_mut().as_mut_ptr(),
                    marks = in(reg_pair) marks,
                    v = in(reg) around,
                    me = in(reg) me,
                    opp = in(reg) opp,
                    d = out(reg_upper) _,
                    dh = out(reg) _,
                    t = out(reg_upper) _,
                    n = out(reg) _,
                    turned = inout(reg) turned,
                    c0 = inout(reg) 0u8 => _,
                    c1 = inout(reg) 0u8 => _,
                    c2 = inout(reg) 0u8 => _,
                    c3 = inout(reg) 0u8 => _,
                    inout("Z") b.cells.as_mut_ptr().wrapping_add(at as usize) => _,
                    out("X") _,
                );
            }
            b.placed(at, turned, &REGIONS);
            #call_mark
        }

        /// Takes back a move or a pass, its neighbours' records unmarked. The board's
        /// `undo_unmarked` and [`mark_around`] in the chip's assembly.
        #[cfg(target_arch = "avr")]
        #[inline(never)]
        pub(crate) fn unplay(b: &mut Board, m: Made) {
            let at = m.cell();
            if at == 0 {
                b.pass();
                return;
            }
            #call_mark
            let [r0, r1, r2, r3] = m.runs();
            let marks = b.around_base(at, #back);
            let mut turned = 0u8;
            // SAFETY: the cells the move turned, on the grid, and the records of its cell's
            // neighbours; the walk's calls push a return address and pop it; r1 is left zero.
            unsafe {
                core::arch::asm!(
                    #(#undos),*,
                    #undo_walk,
                    #unmark,
                    marks = in(reg_pair) marks,
                    back = in(reg) b.colour,
                    d = out(reg_upper) _,
                    dh = out(reg) _,
                    n = out(reg_upper) _,
                    turned = inout(reg) turned,
                    c0 = in(reg) r0,
                    c1 = in(reg) r1,
                    c2 = in(reg) r2,
                    c3 = in(reg) r3,
                    inout("Z") b.cells.as_mut_ptr().wrapping_add(at as usize) => _,
                    out("X") _,
                );
            }
            b.unplaced(at, turned, &REGIONS);
            b.count_turned(m, &OFFSETS, &REGIONS);
        }

        #portable
    }
}

/// `play`'s and `unplay`'s portable Rust: the board's own loops, under `cfg`.
fn portable_play_undo(cfg: TokenStream) -> TokenStream {
    quote! {
        /// The side to move places on the cell of `m`, a move on a legal cell with nothing
        /// turned, turns what it flanks and records it in `m`.
        #cfg
        #[inline(always)]
        pub(crate) fn play(b: &mut Board, m: &mut Made) {
            *m = b.play_unmarked(m.cell(), &OFFSETS, &REGIONS);
            mark_around(b, m.cell());
        }

        /// Takes back a move or a pass.
        #cfg
        #[inline(always)]
        pub(crate) fn unplay(b: &mut Board, m: Made) {
            if m.cell() != 0 {
                mark_around(b, m.cell());
            }
            b.undo_unmarked(m, &OFFSETS, &REGIONS)
        }
    }
}

/// The instruction that loads direction step `d` into the walk's `{d}`.
fn step_load(d: i32) -> String {
    format!("ldi {{d}}, {}", d as i8 as u8)
}

/// `play`'s assembly: per direction whose neighbour holds a piece, a call of the walk that
/// turns the line it flanks, its count kept; and the walk, shared by all.
fn play_lines(dir_steps: &[i32]) -> (Vec<String>, String) {
    // Direction `k` where a piece is next to the cell: its count in the low nibble of byte
    // `k / 2` of the move's record for even `k`, the high for odd.
    let plays = dir_steps.iter().enumerate().map(|(k, &d)| {
        let (test, load, runs) = (format!("sbrs {{v}}, {k}"), step_load(d), format!("or {{c{}}}, {{n}}", k / 2));
        let swap = if k % 2 == 1 { "swap {n}" } else { "" };
        part(&[&test, "rjmp 3f", &load, "rcall 8f", swap, &runs, "3:"])
    });
    // The walk: from the cell (Z) by the step (`d`, widened to `dh`) over the other side's
    // pieces, counted in `n`; if the mover's piece closes the line, they turn walking back,
    // else `n` is 0.
    let play_walk = part(&[
        "rjmp 9f",
        "8:",
        "movw r26, r30\nmov {dh}, {d}\nlsl {dh}\nsbc {dh}, {dh}\nclr {n}",
        "4:",
        "add r26, {d}\nadc r27, {dh}\nld {t}, X\ncp {t}, {opp}\nbrne 5f\ninc {n}\nrjmp 4b",
        "5:",
        "cp {t}, {me}\nbrne 7f\ntst {n}\nbreq 6f\nadd {turned}, {n}\nmov {t}, {n}",
        "2:",
        "sub r26, {d}\nsbc r27, {dh}\nst X, {me}\ndec {t}\nbrne 2b",
        "6:\nret",
        "7:\nclr {n}\nret",
        "9:",
    ]);
    (plays.collect(), play_walk)
}

/// `unplay`'s assembly: per direction whose count is not zero, a call of the walk that turns
/// its line back; and that walk.
fn undo_lines(dir_steps: &[i32]) -> (Vec<String>, String) {
    // A byte of counts at a time, most of them zero; each nonzero count turns its line back.
    let undos = dir_steps.chunks(2).enumerate().map(|(j, pair)| {
        let runs = format!("{{c{j}}}");
        let (test, copy) = (format!("tst {runs}"), format!("mov {{n}}, {runs}"));
        let mut lines = vec![test.as_str(), "breq 7f"];
        let loads: Vec<String> = pair.iter().map(|&d| step_load(d)).collect();
        for (i, load) in loads.iter().enumerate() {
            lines.extend([copy.as_str(), if i == 1 { "swap {n}" } else { "" }, "andi {n}, 15", "breq 3f"]);
            lines.extend([load.as_str(), "rcall 8f", "3:"]);
        }
        lines.push("7:");
        part(&lines)
    });
    let undo_walk = part(&[
        "rjmp 9f",
        "8:",
        "movw r26, r30\nmov {dh}, {d}\nlsl {dh}\nsbc {dh}, {dh}\nadd {turned}, {n}",
        "4:",
        "add r26, {d}\nadc r27, {dh}\nst X, {back}\ndec {n}\nbrne 4b\nret",
        "9:",
    ]);
    (undos.collect(), undo_walk)
}

/// `weigh`: a feature times a weight, both within a signed byte (a feature of a grid of at
/// most 64 cells is), as the chip's one signed multiplication, where LLVM's AVR backend
/// multiplies the sign-extended words in about eighteen instructions.
pub(super) fn avr_weigh() -> TokenStream {
    quote! {
        /// `x * w`, for `x` within a signed byte.
        #[cfg(target_arch = "avr")]
        #[inline(always)]
        pub(crate) fn weigh(x: i16, w: i8) -> i16 {
            debug_assert!(i8::try_from(x).is_ok());
            let p: i16;
            // SAFETY: arithmetic on registers only; `muls` leaves its product in r1:r0, and r1,
            // the zero register, is cleared again.
            unsafe {
                core::arch::asm!(
                    "muls {x}, {w}\nmovw {p}, r0\nclr r1",
                    x = in(reg_upper) x as i8,
                    w = in(reg_upper) w,
                    p = out(reg_pair) p,
                    options(pure, nomem, nostack),
                );
            }
            p
        }

        #[cfg(not(target_arch = "avr"))]
        #[inline(always)]
        pub(crate) fn weigh(x: i16, w: i8) -> i16 {
            x * w as i16
        }
    }
}

/// `next_move`: the side to move's legal cell after `after` among the empty cells, in AVR
/// assembly as the mobility pass reads them (two rows back, a line's first two cells at
/// displacements), stopping at the first line the mover closes. `None` where the board is
/// too wide.
pub(super) fn avr_next_move(dir_steps: &[i32], stride: u8) -> Option<TokenStream> {
    let back = two_rows_back(dir_steps, stride)?;
    let mut parts = vec![part(&["rjmp 7f", "1:", "movw r30, {cells:l}", "add r30, {at}", "adc r31, r1"])];
    for (k, &d) in dir_steps.iter().enumerate() {
        // A line that starts with the other side's piece, walked over its pieces: the mover's
        // piece after them closes it, and the cell is legal.
        parts.push(part(&[
            &format!("sbrs {{v}}, {k}"),
            "rjmp 3f",
            &format!("ldd {{t}}, Z+{}", back + d),
            "cp {t}, {them}",
            "brne 3f",
            &format!("ldd {{t}}, Z+{}", back + 2 * d),
            "cp {t}, {them}",
            "brne 5f",
            "movw r26, r30",
            &step_x(back + 3 * d),
            "4:",
            "ld {t}, X",
            &step_x(d),
            "cp {t}, {them}",
            "breq 4b",
            "5:",
            "cp {t}, {me}",
            "brne 3f",
            // Out of a branch's reach from the first directions.
            "rjmp 9f",
            "3:",
        ]));
    }
    // The next empty cell; one with no piece around is passed over at once.
    parts.push(part(&[
        "8:",
        "movw r30, {next:l}",
        "add r30, {at}",
        "adc r31, r1",
        "ld {at}, Z",
        "7:",
        "tst {at}",
        "breq 9f",
        "movw r30, {around:l}",
        "add r30, {at}",
        "adc r31, r1",
        "ld {v}, Z",
        "tst {v}",
        "breq 8b",
        "rjmp 1b",
        "9:",
    ]));
    let back = int(back as usize);
    Some(quote! {
        /// The side to move's legal cell after `after` in the order of the empty cells, the
        /// first for 0; 0 after the last. [`next_move_portable`] in the chip's assembly.
        #[cfg(target_arch = "avr")]
        #[inline(never)]
        pub(crate) fn next_move(b: &Board, after: u8) -> u8 {
            let (cells, next, around) = b.tables();
            let (me, them) = (b.colour, mailbox::other(b.colour));
            let mut at = if after == 0 { b.first_empty() } else { b.next_empty(after) };
            // SAFETY: reads only, as the mobility pass's; r1 is left zero.
            unsafe {
                core::arch::asm!(
                    #(#parts),*,
                    at = inout(reg) at,
                    v = out(reg) _,
                    t = out(reg) _,
                    me = in(reg) me,
                    them = in(reg) them,
                    cells = in(reg_pair) cells.wrapping_sub(#back),
                    next = in(reg_pair) next,
                    around = in(reg_pair) around,
                    out("X") _,
                    out("Z") _,
                    options(pure, readonly, nostack),
                );
            }
            at
        }

        #[cfg(not(target_arch = "avr"))]
        #[inline(always)]
        pub(crate) fn next_move(b: &Board, after: u8) -> u8 {
            next_move_portable(b, after)
        }
    })
}

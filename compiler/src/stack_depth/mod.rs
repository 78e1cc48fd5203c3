//! An upper bound on the stack an AVR program can use, read from its linked ELF, so that a
//! board's RAM budget can count the deepest stack as well as the static data.
//!
//! The bound comes from the machine code itself, not from the compiler's say-so: every
//! function reachable from reset and from each interrupt vector is walked instruction by
//! instruction, following branches, with an abstract state that knows how many bytes the
//! function has pushed so far, what it pushed, and which registers hold a known byte of the
//! stack pointer. That is what it takes to follow LLVM's frames, which read SP into a pair
//! (`in r28,0x3d; in r29,0x3e`), move it (`sbiw r28,k`, `subi r28,lo; sbci r29,hi`) and write
//! it back (`out 0x3e,r29; out 0x3f,r0; out 0x3d,r28`). A call adds the return address and the
//! callee's own bound; a jump to another function's start is a tail call that adds the callee
//! without a return address. Interrupts can fire anywhere once the code that runs from reset
//! enables them, so the deepest handler (plus the return address the interrupt pushes) stacks
//! on top of the deepest path from reset; handlers nest only if they enable interrupts again,
//! which this refuses to bound.
//!
//! Anything the walk cannot follow soundly (recursion, an indirect jump, an indirect call with
//! no known targets, a stack-pointer write it does not understand, paths that meet with
//! different depths) gives [`Unbounded`] with the reason, never a smaller number.
//!
//! Recursion is bounded only where the caller vouches for it ([`Limit`]): functions, each by
//! its demangled path (any generic arguments aside), with the most activations of it that one
//! chain of calls holds, or the most activations of another limited function under which it
//! can start (a search sorts its moves only well above its leaves). The machine code cannot
//! show that a depth argument shrinks, so this is a claim taken on trust from the code that
//! makes it true: the runtime's search states how deep it recurses
//! (`gamec_runtime::search::recursion_limits`, tested there against the search itself). The
//! walk summarises each function once per count of the limited functions' activations on the
//! chain above it (a function that reaches none of them, once), and a call to a limited
//! function beyond its limit is a path that cannot happen: it adds nothing, and what follows
//! it there is not reached. A cycle through no limited function still gives
//! [`Unbounded::Recursion`]; each interrupt handler starts a chain of its own.
//!
//! The counts never exceed the source's nesting, which keeps the refusals sound: only a symbol
//! of exactly the limited path counts (any of its monomorphisations, sharing one count), and
//! each time one starts, a call of that function in the source starts. A clone or a split-off
//! part under another name (`.constprop.0`, `.cold.1`) counts as nothing, so a cycle through
//! it alone stays unbounded; inlined calls take no frame and are not counted, which can only
//! make a count smaller than the source's nesting, never larger.
//!
//! An indirect call whose Z is not a known constant may reach any function whose address the
//! program takes. When the ELF kept its relocations (`gamec build` links with
//! `--emit-relocs`), those are the code addresses its loaded sections were relocated against
//! as word addresses (`pm()`/`gs()`: `.word pm(f)` in data or progmem, as LLVM stores Rust's
//! vtables and `fn` pointers, or `ldi` pairs of `pm_lo8(f)`, `pm_hi8(f)`), at the symbol's
//! value plus the addend. That set is complete because a function's absolute address is not
//! known before linking: every place that holds one, in any object (libgcc and the start-up
//! code included), needs a relocation, and `--emit-relocs` keeps them all. A `gs()` that the
//! linker sends through a stub (chips over 128 KiB) is kept against the function itself, which
//! the stub jumps to. Without relocations, it falls back on the bytes: any two of data or of
//! progmem constants, at any offset, and any `ldi` pair in code, whose value is a function's
//! word address; sound, but a small number that only happens to equal one counts.
//!
//! What it trusts: the code is in executable sections and never modified; a function pointer
//! is a word address made by the linker or the assembler (as above), never computed from
//! another address or from a byte address, and never written as a literal number; nothing
//! writes SP through a pointer (`st`/`std` to data address 0x5d); the reset code at address 0
//! loads SP with a constant (the avr-libc start-up does), so a jump to address 0 starts over on
//! an empty stack; and the caller's limits.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

use object::{
    elf, Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget, SectionFlags, SectionKind, SymbolKind,
};

mod decode;
use decode::{decode, Op};
mod thumb;
pub use thumb::{thumb_stack_depth, Priorities, Reentry};

/// The deepest stack an AVR program can reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackDepth {
    /// Bytes below the stack pointer the reset code loads (RAMEND with avr-libc's start-up):
    /// the deepest path from reset plus, when interrupts get enabled, the deepest handler.
    pub bytes: u32,
    /// The part of `bytes` an interrupt adds: its return address and its handler's stack.
    pub interrupt_bytes: u32,
    /// The deepest chain: `reset` and the functions it calls down to the deepest point, then,
    /// if an interrupt adds to it, `interrupt vector N` and its handler's chain.
    pub path: Vec<String>,
    /// The constant the reset code loads into SP, if it does.
    pub initial_sp: Option<u16>,
    /// The limits the bound relies on: those that refused a call.
    pub recursion: Vec<Limit>,
}

/// What the caller vouches for about a function the machine code cannot bound by itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit {
    /// The function's demangled path (`gamec_runtime::search::negamax`): every monomorphisation
    /// of it, sharing one count.
    pub function: String,
    /// The most activations of it one chain of calls holds.
    pub activations: u32,
    /// Another limited function's path and the most activations of it on the chain when this
    /// one starts, if that is all that allows it to start.
    pub under: Option<(String, u32)>,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.under {
            Some((g, n)) => write!(f, "{} under at most {n} of {g}", self.function),
            None => write!(f, "{} at most {} deep", self.function, self.activations),
        }
    }
}

/// Why a program's stack has no bound this analysis can prove.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unbounded {
    /// The call graph has a cycle: these functions call each other, the last back the first.
    Recursion { cycle: Vec<String> },
    /// An indirect call (`icall`, `eicall`) whose target is not known and for which no
    /// function's address is stored anywhere.
    IndirectCall { at: u32, function: String },
    /// An indirect jump (`ijmp`, `eijmp`) whose target is not a known constant.
    IndirectJump { at: u32, function: String },
    /// A write to SP whose value is not the stack pointer moved by a known amount.
    StackPointerWrite { at: u32, function: String },
    /// The stack is not balanced: paths that meet with different depths, a return with bytes
    /// still pushed, a pop of more than was pushed.
    Unbalanced { at: u32, function: String, what: String },
    /// An interrupt handler may enable interrupts again (`sei`, or a write to SREG of a value
    /// not read from it), so handlers could nest without limit.
    NestedInterrupts { at: u32, function: String, handler: String },
    /// A word that is no AVR instruction, where the code leads.
    UnknownInstruction { at: u32, word: u16, function: String },
    /// The code leads out of the executable sections.
    OutsideCode { at: u32, function: String },
    /// The ELF cannot be read as a program of the architecture asked for.
    Elf(String),
}

impl fmt::Display for Unbounded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unbounded::Recursion { cycle } => write!(f, "recursion: {} calls {} again", cycle.join(" -> "), cycle[0]),
            Unbounded::IndirectCall { at, function } => {
                write!(f, "indirect call at {at:#06x} in {function} with no known target")
            }
            Unbounded::IndirectJump { at, function } => {
                write!(f, "indirect jump at {at:#06x} in {function} to an unknown target")
            }
            Unbounded::StackPointerWrite { at, function } => {
                write!(f, "unrecognised stack-pointer write at {at:#06x} in {function}")
            }
            Unbounded::Unbalanced { at, function, what } => write!(f, "{what} at {at:#06x} in {function}"),
            Unbounded::NestedInterrupts { at, function, handler } => {
                write!(
                    f,
                    "the handler of {handler} may enable interrupts (at {at:#06x} in {function}), so handlers can nest"
                )
            }
            Unbounded::UnknownInstruction { at, word, function } => {
                write!(f, "unknown instruction {word:#06x} at {at:#06x} in {function}")
            }
            Unbounded::OutsideCode { at, function } => {
                write!(f, "code leads outside .text, to {at:#06x}, in {function}")
            }
            Unbounded::Elf(e) => write!(f, "unreadable ELF: {e}"),
        }
    }
}

impl std::error::Error for Unbounded {}

/// An upper bound on the stack of the AVR program in `elf`, whose calls and interrupts push
/// `pc_bytes` of return address (2 up to 128 KiB of flash, 3 above) and whose stack pointer
/// is `sp_bytes` wide (1 on a chip whose RAM ends below address 256, where SPL is all of SP
/// and the code writes it alone; else 2). `limits` are the recursion the caller vouches for.
pub fn avr_stack_depth(elf: &[u8], pc_bytes: u8, sp_bytes: u8, limits: &[Limit]) -> Result<StackDepth, Unbounded> {
    Program::from_elf(elf)?.stack_depth(u32::from(pc_bytes), sp_bytes == 1, limits)
}

/// Whether the demangled `name` (hash dropped) is the function at `path`: the path itself or
/// the path with generic arguments (the function's, or its type's in a method's
/// `<Type<Args>>::f`), nothing after them (a closure in it, a clone's suffix).
pub(crate) fn is_function(name: &str, path: &str) -> bool {
    without_generic_arguments(name).is_some_and(|n| n == path)
}

/// `name` without the generic arguments of its path's segments (`f::<T>`, `Type<T>`); `None`
/// if its angle brackets do not balance.
fn without_generic_arguments(name: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len());
    let mut depth = 0usize;
    for (i, c) in name.char_indices() {
        // A bracket right after a segment (or its `::`) opens arguments; one at the start, or
        // after another bracket, opens a qualified path (`<Type>::f`), which stays.
        let opens_arguments =
            c == '<' && (depth > 0 || name[..i].ends_with(|p: char| p.is_alphanumeric() || p == '_' || p == ':'));
        match c {
            _ if opens_arguments => {
                if depth == 0 && out.ends_with("::") {
                    out.truncate(out.len() - 2);
                }
                depth += 1;
            }
            '>' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    (depth == 0).then_some(out)
}

/// The reset vector; the start-up code there loads SP, so jumping to it starts over.
const RESET: u32 = 0;
/// I/O addresses of the stack pointer's bytes and of the status register.
const SPL: u8 = 0x3d;
const SPH: u8 = 0x3e;
const SREG: u8 = 0x3f;
/// The same registers in the data space, where `lds`/`sts` reach them.
const DATA_IO: u16 = 0x20;
/// The status register's global interrupt enable bit.
const I_FLAG: u8 = 0x80;
const Y: u8 = 28;
const Z: u8 = 30;

/// AVR relocations that make a code address's word address (`pm()`, `gs()`): a function
/// pointer stored in data or progmem (`.word pm(f)`, what LLVM emits for Rust's vtables and
/// `fn` pointers) or loaded into a register pair by `ldi`, negated or not, in two or three
/// bytes. Calls and branches (`R_AVR_CALL`, the PC-relative kinds) reach a function but do not
/// take its address; byte-address kinds (`R_AVR_16`, `lo8()`) are data pointers, which `lpm`
/// reads and `icall` cannot use.
const WORD_ADDRESS_RELOCATIONS: [u32; 9] = [
    elf::R_AVR_16_PM,
    elf::R_AVR_LO8_LDI_PM,
    elf::R_AVR_HI8_LDI_PM,
    elf::R_AVR_HH8_LDI_PM,
    elf::R_AVR_LO8_LDI_PM_NEG,
    elf::R_AVR_HI8_LDI_PM_NEG,
    elf::R_AVR_HH8_LDI_PM_NEG,
    elf::R_AVR_LO8_LDI_GS,
    elf::R_AVR_HI8_LDI_GS,
];

/// The byte addresses the program's loaded sections take as word addresses, from the
/// relocations the linker kept (`--emit-relocs`); `None` if it kept none, and then only the
/// bytes can tell.
fn relocated_pointers(file: &object::File) -> Result<Option<BTreeSet<u32>>, Unbounded> {
    let mut kept = false;
    let mut targets = BTreeSet::new();
    for section in file.sections() {
        // Debug information is not loaded: what it refers to runs no sooner for it.
        if !matches!(section.flags(), SectionFlags::Elf { sh_flags } if sh_flags & u64::from(elf::SHF_ALLOC) != 0) {
            continue;
        }
        for (at, rel) in section.relocations() {
            kept = true;
            let RelocationFlags::Elf { r_type } = rel.flags() else { continue };
            if !WORD_ADDRESS_RELOCATIONS.contains(&r_type) {
                continue;
            }
            let unreadable = || Unbounded::Elf(format!("relocation at {at:#x} against no readable symbol"));
            // A linked ELF keeps RELA relocations: the target is the symbol's value plus the
            // addend, whatever the linker wrote in the bytes (a `gs()` stub's address, say).
            let base = match rel.target() {
                RelocationTarget::Symbol(i) => file.symbol_by_index(i).map_err(|_| unreadable())?.address(),
                RelocationTarget::Absolute => 0,
                _ => return Err(unreadable()),
            };
            if rel.has_implicit_addend() {
                return Err(Unbounded::Elf(format!(
                    "REL relocation at {at:#x}: its addend was overwritten by linking"
                )));
            }
            targets.insert((base as i64 + rel.addend()) as u32);
        }
    }
    Ok(kept.then_some(targets))
}

/// What the analysis needs of a linked program.
struct Program {
    /// The executable bytes, each run at its byte address.
    code: Vec<(u32, Vec<u8>)>,
    /// Function symbols' start addresses and names: jumping to one is a tail call.
    functions: BTreeMap<u32, String>,
    /// Entries in the vector table at address 0 (reset included), each `slot` bytes.
    vectors: u32,
    slot: u32,
    /// Code whose address the program takes (function starts, unless a relocation says
    /// otherwise): what an indirect call with an unknown Z may reach.
    pointers: BTreeSet<u32>,
}

impl Program {
    fn from_elf(elf: &[u8]) -> Result<Program, Unbounded> {
        let file = object::File::parse(elf).map_err(|e| Unbounded::Elf(e.to_string()))?;
        if file.architecture() != object::Architecture::Avr {
            return Err(Unbounded::Elf(format!("{:?}, not AVR", file.architecture())));
        }
        let mut code = Vec::new();
        let mut data = Vec::new();
        for section in file.sections() {
            let bytes = section.data().map_err(|e| Unbounded::Elf(e.to_string()))?;
            match section.kind() {
                SectionKind::Text => code.push((section.address() as u32, bytes.to_vec())),
                SectionKind::Data
                | SectionKind::ReadOnlyData
                | SectionKind::ReadOnlyDataWithRel
                | SectionKind::ReadOnlyString => data.push(bytes),
                _ => {}
            }
        }
        let mut program = Program { code, functions: BTreeMap::new(), vectors: 0, slot: 2, pointers: BTreeSet::new() };
        let mut progmem = Vec::new();
        for sym in file.symbols() {
            let Ok(name) = sym.name() else { continue };
            let addr = sym.address() as u32;
            if let Some(n) = name.strip_prefix("__vector_").and_then(|n| n.parse::<u32>().ok()) {
                program.vectors = program.vectors.max(n + 1);
            }
            match sym.kind() {
                SymbolKind::Text if program.word(addr).is_some() => {
                    program.functions.entry(addr).or_insert_with(|| name.to_string());
                }
                // Constants in flash (`progmem`) may hold function pointers too.
                SymbolKind::Data if sym.size() > 0 && program.word(addr).is_some() => {
                    progmem.push((addr, sym.size() as u32));
                }
                _ => {}
            }
        }
        if program.vectors == 0 {
            return Err(Unbounded::Elf("no interrupt vector symbols (__vector_N)".into()));
        }
        // Devices with more than 8 KiB of flash have 4-byte `jmp` vectors.
        if program.word(RESET).is_some_and(|w| w & 0xfe0e == 0x940c) {
            program.slot = 4;
        }
        program.pointers = match relocated_pointers(&file)? {
            // What the linker was told to fill in with a code address is all there is; one that
            // is no function's start is still walked from where it points.
            Some(targets) => targets.into_iter().filter(|&t| program.word(t).is_some()).collect(),
            None => program.stored_pointers(&data, &progmem),
        };
        Ok(program)
    }

    /// Without relocations, the functions whose word address appears anywhere a pointer could
    /// be: any two bytes of data or of progmem constants, or an `ldi` pair in code. Sound, but
    /// any small number that happens to equal a function's word address counts.
    fn stored_pointers(&self, data: &[&[u8]], progmem: &[(u32, u32)]) -> BTreeSet<u32> {
        let progmem: Vec<Vec<u8>> =
            progmem.iter().map(|&(addr, size)| (addr..addr + size).filter_map(|a| self.byte(a)).collect()).collect();
        let mut pointers = BTreeSet::new();
        for bytes in data.iter().copied().chain(progmem.iter().map(Vec::as_slice)) {
            // AVR data has no alignment: a pointer may start at any byte.
            for pair in bytes.windows(2) {
                let target = 2 * u32::from(u16::from_le_bytes([pair[0], pair[1]]));
                if self.functions.contains_key(&target) {
                    pointers.insert(target);
                }
            }
        }
        pointers.extend(self.ldi_pointers());
        pointers
    }

    /// Functions whose word address some function loads with an `ldi` pair: a straight read
    /// of each function's bytes, keeping the last constant each register was loaded with.
    fn ldi_pointers(&self) -> BTreeSet<u32> {
        let mut found = BTreeSet::new();
        for &start in self.functions.keys() {
            let end = self.functions.range(start + 1..).next().map_or(u32::MAX, |(&a, _)| a);
            let mut last: [Option<u8>; 32] = [None; 32];
            let mut at = start;
            while at < end {
                let Some(w) = self.word(at) else { break };
                match decode(at, w, self.word(at + 2)) {
                    Some((Op::Ldi { d, k }, len)) => {
                        last[usize::from(d)] = Some(k);
                        let lo = usize::from(d & !1);
                        if let (Some(l), Some(h)) = (last[lo], last[lo + 1]) {
                            let target = 2 * u32::from(u16::from_le_bytes([l, h]));
                            if self.functions.contains_key(&target) {
                                found.insert(target);
                            }
                        }
                        at += len;
                    }
                    Some((_, len)) => at += len,
                    None => at += 2,
                }
            }
        }
        found
    }

    fn byte(&self, addr: u32) -> Option<u8> {
        self.code.iter().find_map(|(base, bytes)| bytes.get(usize::try_from(addr.checked_sub(*base)?).ok()?).copied())
    }

    fn word(&self, addr: u32) -> Option<u16> {
        Some(u16::from_le_bytes([self.byte(addr)?, self.byte(addr + 1)?]))
    }

    /// A function's name for people: demangled, without the hash.
    fn name(&self, addr: u32) -> String {
        match self.functions.get(&addr) {
            Some(name) => match rustc_demangle::try_demangle(name) {
                Ok(d) => format!("{d:#}"),
                Err(_) => name.clone(),
            },
            None if addr == RESET => "reset".into(),
            None if addr.is_multiple_of(self.slot) && addr < self.vectors * self.slot => {
                format!("interrupt vector {}", addr / self.slot)
            }
            None => format!("{addr:#06x}"),
        }
    }

    fn stack_depth(&self, pc_bytes: u32, spl_only: bool, limits: &[Limit]) -> Result<StackDepth, Unbounded> {
        // Each function's limit, by the first that names it.
        let limited = self
            .functions
            .keys()
            .filter_map(|&f| {
                let name = self.name(f);
                limits.iter().position(|l| is_function(&name, &l.function)).map(|i| (f, i))
            })
            .collect();
        // A limit under a function with no limit of its own constrains nothing.
        let under = |l: &Limit| {
            let (g, n) = l.under.as_ref()?;
            Some((limits.iter().position(|m| m.function == *g && m.under.is_none())?, *n))
        };
        let mut a = Analyzer {
            program: self,
            pc_bytes,
            spl_only,
            limits: limits.iter().map(|l| (l.activations, under(l))).collect(),
            limited,
            counts: vec![0; limits.len()],
            relied: BTreeSet::new(),
            summaries: HashMap::new(),
            free: HashMap::new(),
            active: Vec::new(),
            initial_sp: None,
        };
        let (reset, reset_key) = a.entry(RESET)?;
        let mut worst: Option<(Key, u32)> = None;
        // Interrupts are off at reset; only code that runs from reset can turn them on.
        if reset.enables.is_some() || reset.reti {
            for vector in 1..self.vectors {
                let entry = vector * self.slot;
                // A handler starts a chain of its own, with no activations above it.
                let (handler, key) = a.entry(entry)?;
                if let Some(site) = handler.enables {
                    return Err(Unbounded::NestedInterrupts {
                        at: site.at,
                        function: self.name(site.function),
                        handler: self.name(entry),
                    });
                }
                let bytes = pc_bytes + handler.bytes;
                if worst.as_ref().is_none_or(|(_, b)| bytes > *b) {
                    worst = Some((key, bytes));
                }
            }
        }
        let mut path = a.chain(reset_key);
        let interrupt_bytes = worst.map_or(0, |(key, bytes)| {
            path.extend(a.chain(key));
            bytes
        });
        let recursion = a.relied.iter().map(|&i| limits[i].clone()).collect();
        Ok(StackDepth {
            bytes: reset.bytes + interrupt_bytes,
            interrupt_bytes,
            path,
            initial_sp: a.initial_sp,
            recursion,
        })
    }
}

/// What the walk knows of a register or a pushed byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val {
    Unknown,
    Const(u8),
    /// The register's value when the function was entered.
    Entry(u8),
    /// The low or high byte of SP as it is when the function has pushed this many bytes.
    SpLow(i32),
    SpHigh(i32),
    /// SREG as read in this function: writing it back cannot turn interrupts on that were off.
    Sreg,
}

/// The abstract machine state before an instruction, on every path that reaches it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct State {
    regs: [Val; 32],
    /// What the function has pushed since its entry; its length is the function's depth.
    stack: Vec<Val>,
    /// SPH written, SPL not yet: the value written.
    sph: Option<Val>,
    /// The instruction just before was `subi` on a register holding `SpLow(n)`: the
    /// register, `n` and the immediate, for a `sbci` on the high byte to complete.
    borrow: Option<(u8, i32, u8)>,
}

impl State {
    fn entry() -> State {
        State { regs: std::array::from_fn(|r| Val::Entry(r as u8)), stack: Vec::new(), sph: None, borrow: None }
    }

    fn depth(&self) -> u32 {
        self.stack.len() as u32
    }

    /// Registers that still hold what they held at the function's entry.
    fn unchanged(&self) -> u32 {
        (0..32u8).filter(|&r| self.regs[usize::from(r)] == Val::Entry(r)).fold(0, |m, r| m | 1 << r)
    }

    /// Forgets the registers a call does not preserve.
    fn after_call(&mut self, preserved: u32) {
        for r in 0..32 {
            if preserved & (1 << r) == 0 {
                self.regs[r] = Val::Unknown;
            }
        }
    }

    /// What holds on both paths; `None` if they disagree on the depth.
    fn join(&self, other: &State) -> Option<State> {
        if self.stack.len() != other.stack.len() {
            return None;
        }
        let meet = |a: Val, b: Val| if a == b { a } else { Val::Unknown };
        Some(State {
            regs: std::array::from_fn(|r| meet(self.regs[r], other.regs[r])),
            stack: self.stack.iter().zip(&other.stack).map(|(&a, &b)| meet(a, b)).collect(),
            sph: match (self.sph, other.sph) {
                (None, None) => None,
                (a, b) if a == b => a,
                _ => Some(Val::Unknown),
            },
            borrow: if self.borrow == other.borrow { self.borrow } else { None },
        })
    }
}

/// A place in the code: an instruction's address and the function it was reached in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Site {
    at: u32,
    function: u32,
}

/// What a function does to the stack, callees included.
#[derive(Debug, Clone)]
struct Summary {
    /// The most bytes below SP at its entry (the return address that called it excluded).
    bytes: u32,
    /// The callee on the way to `bytes`, if the deepest point is not in the function itself.
    deepest: Option<Key>,
    /// Whether it can return (else, code after a call to it is never reached).
    returns: bool,
    /// Registers (a bit each) it returns with unchanged.
    preserved: u32,
    /// A place, here or in a callee, that may enable interrupts.
    enables: Option<Site>,
    /// Whether it or a callee has a `reti`: it enables interrupts too, but is only a fault
    /// outside an interrupt handler, so it is kept apart from `enables`.
    reti: bool,
    /// Whether it depends on the activations above it: it or a callee is a limited function
    /// (entered or refused). Else it is the same on every chain, and summarised once.
    limited: bool,
}

/// A function and the activations of each limited function on the chain that entered it,
/// its own included: what its summary depends on.
type Key = (u32, Vec<u32>);

struct Analyzer<'p> {
    program: &'p Program,
    pc_bytes: u32,
    /// SP is SPL alone (8 bits): a write of SPL with no SPH before it sets all of SP.
    spl_only: bool,
    /// The most activations of each limited function on a chain, and the limit (by index) of
    /// which at most so many activations may be on the chain where it starts.
    limits: Vec<(u32, Option<(usize, u32)>)>,
    /// Limited functions' addresses, each with the index of its limit.
    limited: HashMap<u32, usize>,
    /// The activations of each limited function on the chain being walked.
    counts: Vec<u32>,
    /// Limits that refused a call: the bound relies on them.
    relied: BTreeSet<usize>,
    summaries: HashMap<Key, Summary>,
    /// Summaries of functions that reach no limited function, whatever the chain.
    free: HashMap<u32, Summary>,
    /// Functions being walked, outermost first: a call to one of them with the same
    /// activations (no limited function between) is recursion.
    active: Vec<Key>,
    initial_sp: Option<u16>,
}

impl Analyzer<'_> {
    /// `f`'s summary when the chain so far (`self.counts`) calls it, with its key; `None` if
    /// `f` is a limited function already at its limit, a call that cannot happen.
    fn summary(&mut self, f: u32) -> Result<Option<(Summary, Key)>, Unbounded> {
        if let Some(s) = self.free.get(&f) {
            return Ok(Some((s.clone(), (f, self.counts.clone()))));
        }
        let mut counts = self.counts.clone();
        if let Some(&i) = self.limited.get(&f) {
            let (most, under) = self.limits[i];
            if counts[i] >= most || under.is_some_and(|(j, n)| counts[j] > n) {
                self.relied.insert(i);
                return Ok(None);
            }
            counts[i] += 1;
        }
        let key = (f, counts);
        if let Some(s) = self.summaries.get(&key) {
            return Ok(Some((s.clone(), key)));
        }
        if let Some(i) = self.active.iter().position(|a| *a == key) {
            return Err(Unbounded::Recursion {
                cycle: self.active[i..].iter().map(|&(a, _)| self.program.name(a)).collect(),
            });
        }
        self.active.push(key.clone());
        let outer = std::mem::replace(&mut self.counts, key.1.clone());
        let s = self.walk(f);
        self.counts = outer;
        self.active.pop();
        let s = s?;
        if s.limited {
            self.summaries.insert(key.clone(), s.clone());
        } else {
            self.free.insert(f, s.clone());
        }
        Ok(Some((s, key)))
    }

    /// The summary of an entry point (reset, an interrupt vector), which starts a chain.
    fn entry(&mut self, f: u32) -> Result<(Summary, Key), Unbounded> {
        self.counts.iter_mut().for_each(|c| *c = 0);
        Ok(self.summary(f)?.unwrap_or_else(|| {
            // Limited to no activations: by the caller's word it never runs.
            let never = Summary {
                bytes: 0,
                deepest: None,
                returns: false,
                preserved: !0,
                enables: None,
                reti: false,
                limited: true,
            };
            (never, (f, self.counts.clone()))
        }))
    }

    /// The deepest chain from the function at `key`, that function first.
    fn chain(&self, key: Key) -> Vec<String> {
        let mut path = Vec::new();
        let mut next = Some(key);
        while let Some(key) = next {
            path.push(self.program.name(key.0));
            next = self.summaries.get(&key).or_else(|| self.free.get(&key.0)).and_then(|s| s.deepest.clone());
        }
        path
    }

    fn decode(&self, at: u32, f: u32) -> Result<(Op, u32), Unbounded> {
        let w = self.program.word(at).ok_or(Unbounded::OutsideCode { at, function: self.program.name(f) })?;
        decode(at, w, self.program.word(at + 2)).ok_or(Unbounded::UnknownInstruction {
            at,
            word: w,
            function: self.program.name(f),
        })
    }

    fn unbalanced(&self, at: u32, f: u32, what: impl Into<String>) -> Unbounded {
        Unbounded::Unbalanced { at, function: self.program.name(f), what: what.into() }
    }

    /// Walks function `f` over every path from its entry.
    fn walk(&mut self, f: u32) -> Result<Summary, Unbounded> {
        let mut w = Walk {
            f,
            states: HashMap::from([(f, State::entry())]),
            work: vec![f],
            summary: Summary {
                bytes: 0,
                deepest: None,
                returns: false,
                preserved: !0,
                enables: None,
                reti: false,
                limited: self.limited.contains_key(&f),
            },
        };
        while let Some(at) = w.work.pop() {
            let mut s = w.states[&at].clone();
            let (op, len) = self.decode(at, f)?;
            let next = at + len;
            let borrow = s.borrow.take();
            // Between writing SPH and SPL, SP is neither old nor new: LLVM only restores SREG
            // there (interrupts stay off for one more instruction).
            if s.sph.is_some() && !matches!(op, Op::Out { a: SPL | SREG, .. } | Op::Cli) {
                return Err(Unbounded::StackPointerWrite { at, function: self.program.name(f) });
            }
            let mut to = Vec::with_capacity(2);
            match op {
                Op::Sei => {
                    w.enables(at);
                    to.push((next, s));
                }
                Op::Out { a, r } => {
                    let v = s.regs[usize::from(r)];
                    match a {
                        SPH => s.sph = Some(v),
                        SPL => self.write_sp(&mut s, v, at, f)?,
                        SREG if !matches!(v, Val::Sreg) && !matches!(v, Val::Const(c) if c & I_FLAG == 0) => {
                            w.enables(at)
                        }
                        _ => {}
                    }
                    to.push((next, s));
                }
                Op::Other
                | Op::Cli
                | Op::Write(_)
                | Op::Clear(_)
                | Op::Mov { .. }
                | Op::Movw { .. }
                | Op::Ldi { .. }
                | Op::Subi { .. }
                | Op::Sbci { .. }
                | Op::AddWord { .. }
                | Op::In { .. }
                | Op::Push(_)
                | Op::Pop(_) => {
                    self.track(&mut s, op, borrow, at, f)?;
                    to.push((next, s));
                }
                // `rcall .+0` only pushes the return address: a cheap way to reserve a frame.
                Op::Call(t) if t == next => {
                    s.stack.extend((0..self.pc_bytes).map(|_| Val::Unknown));
                    to.push((next, s));
                }
                Op::Call(t) => {
                    if let Some(s) = self.call(&mut w, &s, &[t], at)? {
                        to.push((next, s));
                    }
                }
                Op::ICall => {
                    let targets = match (s.regs[usize::from(Z)], s.regs[usize::from(Z) + 1]) {
                        (Val::Const(l), Val::Const(h)) => vec![2 * u32::from(u16::from_le_bytes([l, h]))],
                        _ => self.program.pointers.iter().copied().collect(),
                    };
                    if targets.is_empty() {
                        return Err(Unbounded::IndirectCall { at, function: self.program.name(f) });
                    }
                    if let Some(s) = self.call(&mut w, &s, &targets, at)? {
                        to.push((next, s));
                    }
                }
                Op::IJmp => match (s.regs[usize::from(Z)], s.regs[usize::from(Z) + 1]) {
                    (Val::Const(l), Val::Const(h)) => to.push((2 * u32::from(u16::from_le_bytes([l, h])), s)),
                    _ => return Err(Unbounded::IndirectJump { at, function: self.program.name(f) }),
                },
                // EIND picks the 128 KiB page: not followed; gamec's chips have no use for it.
                Op::EICall => return Err(Unbounded::IndirectCall { at, function: self.program.name(f) }),
                Op::EIJmp => return Err(Unbounded::IndirectJump { at, function: self.program.name(f) }),
                Op::Jump(t) => to.push((t, s)),
                Op::Branch(t) => {
                    to.push((t, s.clone()));
                    to.push((next, s));
                }
                Op::Skip => {
                    let (_, skipped) = self.decode(next, f)?;
                    to.push((next + skipped, s.clone()));
                    to.push((next, s));
                }
                Op::Ret | Op::Reti => {
                    w.summary.reti |= op == Op::Reti;
                    if s.depth() != 0 {
                        return Err(self.unbalanced(at, f, format!("return with {} bytes pushed", s.depth())));
                    }
                    w.summary.returns = true;
                    w.summary.preserved &= s.unchanged();
                }
            }
            for (t, s) in to {
                self.flow(&mut w, t, s, at)?;
            }
        }
        Ok(w.summary)
    }

    /// What an instruction that only moves values does to the registers and the stack: the
    /// constants, SP's halves read, SP's value moved by a constant (`borrow`, a `subi` on its
    /// low half waiting for the `sbci` on its high half), pushes and pops.
    fn track(&self, s: &mut State, op: Op, borrow: Option<(u8, i32, u8)>, at: u32, f: u32) -> Result<(), Unbounded> {
        match op {
            Op::Other | Op::Cli => {}
            Op::Write(mask) => {
                s.after_call(!mask);
            }
            Op::Clear(d) => {
                s.regs[usize::from(d)] = Val::Const(0);
            }
            Op::Mov { d, r } => {
                s.regs[usize::from(d)] = s.regs[usize::from(r)];
            }
            Op::Movw { d, r } => {
                s.regs[usize::from(d)] = s.regs[usize::from(r)];
                s.regs[usize::from(d) + 1] = s.regs[usize::from(r) + 1];
            }
            Op::Ldi { d, k } => {
                s.regs[usize::from(d)] = Val::Const(k);
            }
            Op::Subi { d, k } => {
                let v = &mut s.regs[usize::from(d)];
                *v = match *v {
                    Val::SpLow(n) => {
                        s.borrow = Some((d, n, k));
                        Val::Unknown
                    }
                    Val::Const(c) => Val::Const(c.wrapping_sub(k)),
                    _ => Val::Unknown,
                };
            }
            Op::Sbci { d, k } => {
                match (borrow, s.regs[usize::from(d)]) {
                    // Subtracting a 16-bit constant from SP's value moves it down (or up,
                    // for a negative constant) by that much.
                    (Some((lo, n, k_lo)), Val::SpHigh(m)) if lo + 1 == d && m == n => {
                        let n = n + i32::from(u16::from_le_bytes([k_lo, k]) as i16);
                        s.regs[usize::from(lo)] = Val::SpLow(n);
                        s.regs[usize::from(d)] = Val::SpHigh(n);
                    }
                    _ => s.regs[usize::from(d)] = Val::Unknown,
                }
            }
            Op::AddWord { d, k } => {
                let (lo, hi) = (usize::from(d), usize::from(d) + 1);
                let (l, h) = match (s.regs[lo], s.regs[hi]) {
                    (Val::SpLow(n), Val::SpHigh(m)) if n == m => (Val::SpLow(n - k), Val::SpHigh(n - k)),
                    (Val::Const(l), Val::Const(h)) => {
                        let [l, h] = u16::from_le_bytes([l, h]).wrapping_add_signed(k as i16).to_le_bytes();
                        (Val::Const(l), Val::Const(h))
                    }
                    _ => (Val::Unknown, Val::Unknown),
                };
                (s.regs[lo], s.regs[hi]) = (l, h);
            }
            Op::In { d, a } => {
                let depth = s.depth() as i32;
                s.regs[usize::from(d)] = match a {
                    SPL => Val::SpLow(depth),
                    SPH => Val::SpHigh(depth),
                    SREG => Val::Sreg,
                    _ => Val::Unknown,
                };
            }
            Op::Push(r) => {
                s.stack.push(s.regs[usize::from(r)]);
            }
            Op::Pop(d) => {
                let v = s.stack.pop().ok_or_else(|| self.unbalanced(at, f, "pop of more than was pushed"))?;
                s.regs[usize::from(d)] = v;
            }
            _ => unreachable!("{op:?} changes more than registers"),
        }
        Ok(())
    }

    /// Moves on to `t` with state `s`, from the instruction at `from`.
    fn flow(&mut self, w: &mut Walk, t: u32, s: State, from: u32) -> Result<(), Unbounded> {
        if s.depth() > w.summary.bytes {
            w.summary.bytes = s.depth();
            w.summary.deepest = None;
        }
        if t == RESET {
            return Ok(());
        }
        if t != w.f && self.program.functions.contains_key(&t) {
            // A tail call: the callee returns to our caller, so our stack must be clear, and it
            // starts from a whole SP.
            if s.sph.is_some() {
                return Err(Unbounded::StackPointerWrite { at: from, function: self.program.name(w.f) });
            }
            if let Some(preserved) = self.enter(w, &s, t, 0)? {
                if s.depth() != 0 {
                    return Err(self.unbalanced(from, w.f, format!("tail call with {} bytes pushed", s.depth())));
                }
                w.summary.returns = true;
                w.summary.preserved &= s.unchanged() & preserved;
            }
            return Ok(());
        }
        match w.states.get_mut(&t) {
            None => {
                w.states.insert(t, s);
                w.work.push(t);
            }
            Some(old) => {
                let joined = old.join(&s).ok_or_else(|| {
                    self.unbalanced(
                        t,
                        w.f,
                        format!("paths meeting with {} and {} bytes pushed", old.depth(), s.depth()),
                    )
                })?;
                if joined != *old {
                    *old = joined;
                    w.work.push(t);
                }
            }
        }
        Ok(())
    }

    /// A call at `at` to any of `targets`: the state after it returns, if any target returns.
    fn call(&mut self, w: &mut Walk, s: &State, targets: &[u32], at: u32) -> Result<Option<State>, Unbounded> {
        let mut preserved = None;
        for &t in targets {
            // A call to the reset vector starts over: only the return address stays.
            if t == RESET {
                let pushed = s.depth() + self.pc_bytes;
                if pushed > w.summary.bytes {
                    (w.summary.bytes, w.summary.deepest) = (pushed, None);
                }
                continue;
            }
            if self.program.word(t).is_none() {
                return Err(Unbounded::OutsideCode { at, function: self.program.name(w.f) });
            }
            if let Some(p) = self.enter(w, s, t, self.pc_bytes)? {
                preserved = Some(preserved.unwrap_or(!0u32) & p);
            }
        }
        Ok(preserved.map(|p| {
            let mut s = s.clone();
            s.after_call(p);
            s
        }))
    }

    /// Counts a call or tail call into `callee` with `pushed` bytes of return address: the
    /// registers it preserves, if it returns (a call refused at its limit does not).
    fn enter(&mut self, w: &mut Walk, s: &State, callee: u32, pushed: u32) -> Result<Option<u32>, Unbounded> {
        let Some((c, key)) = self.summary(callee)? else {
            w.summary.limited = true;
            return Ok(None);
        };
        w.summary.limited |= c.limited;
        let bytes = s.depth() + pushed + c.bytes;
        if bytes > w.summary.bytes {
            (w.summary.bytes, w.summary.deepest) = (bytes, Some(key));
        }
        w.summary.enables = w.summary.enables.or(c.enables);
        w.summary.reti |= c.reti;
        Ok(c.returns.then_some(c.preserved))
    }

    /// `out 0x3d` with value `lo`, after `out 0x3e` (if any) left its value in `s.sph`.
    fn write_sp(&mut self, s: &mut State, lo: Val, at: u32, f: u32) -> Result<(), Unbounded> {
        let n = match (s.sph.take(), lo) {
            (Some(Val::SpHigh(m)), Val::SpLow(n)) if m == n => n,
            // The start-up code sets SP to the top of RAM: depths count from there.
            (Some(Val::Const(h)), Val::Const(l)) if f == RESET => {
                self.initial_sp = Some(u16::from_le_bytes([l, h]));
                0
            }
            // Writing SPL alone is only right on a chip with an 8-bit SP: there it is all of SP.
            (None, Val::SpLow(n)) if self.spl_only => n,
            (None, Val::Const(l)) if self.spl_only && f == RESET => {
                self.initial_sp = Some(u16::from(l));
                0
            }
            // Anything else is a value this does not follow.
            _ => return Err(Unbounded::StackPointerWrite { at, function: self.program.name(f) }),
        };
        let n = usize::try_from(n).map_err(|_| self.unbalanced(at, f, "stack pointer moved above the entry"))?;
        s.stack.resize(n, Val::Unknown);
        Ok(())
    }
}

/// One function's walk in progress.
struct Walk {
    f: u32,
    /// The state before each instruction reached so far.
    states: HashMap<u32, State>,
    /// Instructions whose state changed since they were last followed.
    work: Vec<u32>,
    summary: Summary,
}

impl Walk {
    fn enables(&mut self, at: u32) {
        self.summary.enables = self.summary.enables.or(Some(Site { at, function: self.f }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A few instructions, hand-assembled.
    fn push(r: u16) -> u16 {
        0x920f | r << 4
    }
    fn pop(r: u16) -> u16 {
        0x900f | r << 4
    }
    const RET: u16 = 0x9508;
    const RETI: u16 = 0x9518;
    const SEI: u16 = 0x9478;
    const CLI: u16 = 0x94f8;
    const ICALL: u16 = 0x9509;
    /// `rjmp`/`rcall` from word index `from` to word index `to`.
    fn rjmp(from: usize, to: usize) -> u16 {
        0xc000 | ((to as i32 - from as i32 - 1) as u16 & 0xfff)
    }
    fn rcall(from: usize, to: usize) -> u16 {
        0xd000 | ((to as i32 - from as i32 - 1) as u16 & 0xfff)
    }
    fn in_(d: u16, a: u16) -> u16 {
        0xb000 | (a & 0x30) << 5 | d << 4 | (a & 0xf)
    }
    fn out(a: u16, r: u16) -> u16 {
        0xb800 | (a & 0x30) << 5 | r << 4 | (a & 0xf)
    }
    fn ldi(d: u16, k: u16) -> u16 {
        0xe000 | (k & 0xf0) << 4 | (d - 16) << 4 | (k & 0xf)
    }
    fn sbiw(d: u16, k: u16) -> u16 {
        0x9700 | ((d - 24) / 2) << 4 | (k & 0x30) << 2 | (k & 0xf)
    }
    fn adiw(d: u16, k: u16) -> u16 {
        sbiw(d, k) & !0x0100
    }
    fn subi(d: u16, k: u16) -> u16 {
        0x5000 | (k & 0xf0) << 4 | (d - 16) << 4 | (k & 0xf)
    }
    fn sbci(d: u16, k: u16) -> u16 {
        subi(d, k) & !0x1000
    }
    /// Moves SP to Y the way LLVM does, interrupts off for the two halves.
    fn set_sp_from_y() -> [u16; 5] {
        [in_(0, 0x3f), CLI, out(0x3e, 29), out(0x3f, 0), out(0x3d, 28)]
    }
    /// The vector table of two entries (reset, one interrupt) then start-up code that sets SP
    /// and calls word 16, enables interrupts if `sei`, and loops.
    fn startup(words: &mut Vec<u16>, isr: usize, sei: bool) {
        words.extend([rjmp(0, 2), rjmp(1, isr)]);
        words.extend([ldi(28, 0x5f), ldi(29, 0x02), out(0x3e, 29), out(0x3d, 28)]);
        words.extend([if sei { SEI } else { 0 }, rcall(7, 16)]);
        words.resize(16, rjmp(8, 8));
        words[8] = rjmp(8, 8);
    }
    /// A program from its words, with functions at these word indices.
    fn program(words: &[u16], functions: &[(usize, &str)], pointers: &[usize]) -> Program {
        Program {
            code: vec![(0, words.iter().flat_map(|w| w.to_le_bytes()).collect())],
            functions: functions.iter().map(|&(i, n)| (2 * i as u32, n.to_string())).collect(),
            vectors: 2,
            slot: 2,
            pointers: pointers.iter().map(|&i| 2 * i as u32).collect(),
        }
    }

    /// Words as the CPU reads them: `avr-objdump` prints each word's low byte first.
    #[test]
    fn decodes_what_llvm_emits() {
        assert_eq!(decode(0, 0x920f | 28 << 4, None), Some((Op::Push(28), 2)));
        assert_eq!(decode(0, 0xb7cd, None), Some((Op::In { d: 28, a: 0x3d }, 2)));
        assert_eq!(decode(0, 0xbfde, None), Some((Op::Out { a: 0x3e, r: 29 }, 2)));
        assert_eq!(decode(0, 0x9768, None), Some((Op::AddWord { d: 28, k: -24 }, 2)));
        assert_eq!(decode(0, 0x9661, None), Some((Op::AddWord { d: 28, k: 17 }, 2)));
        assert_eq!(decode(0, 0x50e8, None), Some((Op::Subi { d: 30, k: 8 }, 2)));
        assert_eq!(decode(0x2b00, 0x940e, Some(0x198b)), Some((Op::Call(0x3316), 4)));
        assert_eq!(decode(0x804, 0xd024, None), Some((Op::Call(0x84e), 2)));
        assert_eq!(decode(0xfe, 0xcf80, None), Some((Op::Jump(0), 2)));
        assert_eq!(decode(0xe6, 0xf7d9, None), Some((Op::Branch(0xde), 2)));
        assert_eq!(decode(0, 0x9080, Some(0x5d)), Some((Op::In { d: 8, a: 0x3d }, 4)));
        assert_eq!(decode(0, 0x9700 | 1 << 4 | 1, None), Some((Op::AddWord { d: 26, k: -1 }, 2)));
        assert_eq!(decode(0, 0x9390, Some(0xab)), Some((Op::Other, 4)));
        assert_eq!(decode(0, 0xffff, None), None);
    }

    #[test]
    fn counts_pushes_and_calls() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        // 16: push r28, push r29, rcall 22, pop r29, pop r28, ret
        w.extend([push(28), push(29), rcall(18, 22), pop(29), pop(28), RET]);
        // 22: push r16, pop r16, ret
        w.extend([push(16), pop(16), RET]);
        let p = program(&w, &[(16, "a"), (22, "b")], &[]);
        let d = p.stack_depth(2, false, &[]).unwrap();
        // a's return address and two pushes, b's return address and one push.
        assert_eq!(d.bytes, 7);
        assert_eq!(d.interrupt_bytes, 0, "interrupts are never enabled");
        assert_eq!(d.path, ["reset", "a", "b"]);
        assert_eq!(d.initial_sp, Some(0x025f));
        assert_eq!(p.stack_depth(3, false, &[]).unwrap().bytes, 9);
    }

    #[test]
    fn an_eight_bit_stack_pointer_is_spl_alone() {
        // The start-up and a frame as LLVM and avr-libc write them for a chip with 128 B of RAM:
        // SPH is read (as zero) but never written.
        let mut w = vec![rjmp(0, 2), rjmp(1, 9), ldi(28, 0xdf), out(0x3d, 28), 0, rcall(5, 16)];
        w.resize(16, rjmp(8, 8));
        w[9] = RETI;
        // 16: a 4-byte frame by sbiw, a call, the frame given back by adiw.
        w.extend([push(28), push(29), in_(28, 0x3d), in_(29, 0x3e), sbiw(28, 4)]);
        w.extend([in_(0, 0x3f), CLI, out(0x3f, 0), out(0x3d, 28)]);
        let at = w.len();
        w.push(rcall(at, 40));
        w.extend([adiw(28, 4), in_(0, 0x3f), CLI, out(0x3f, 0), out(0x3d, 28), pop(29), pop(28), RET]);
        w.resize(40, 0);
        w.extend([push(16), pop(16), RET]);
        let p = program(&w, &[(16, "a"), (40, "b")], &[]);
        let d = p.stack_depth(2, true, &[]).unwrap();
        assert_eq!(d.bytes, (2 + 2 + 4) + (2 + 1));
        assert_eq!(d.initial_sp, Some(0xdf));
        // Where SP has two bytes, a write of SPL alone is not followed.
        let err = p.stack_depth(2, false, &[]).unwrap_err();
        assert_eq!(err, Unbounded::StackPointerWrite { at: 6, function: "reset".into() });
    }

    #[test]
    fn follows_frames_set_with_sbiw_and_subi_sbci() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        // 16: a 10-byte frame by sbiw, a call, the frame given back by adiw.
        w.extend([push(28), push(29), in_(28, 0x3d), in_(29, 0x3e), sbiw(28, 10)]);
        w.extend(set_sp_from_y());
        let at = w.len();
        w.push(rcall(at, 40));
        w.extend([adiw(28, 10)]);
        w.extend(set_sp_from_y());
        w.extend([pop(29), pop(28), RET]);
        // 40: a 300-byte frame by subi/sbci, given back by subi/sbci of -300.
        w.resize(40, 0);
        w.extend([push(28), push(29), in_(28, 0x3d), in_(29, 0x3e), subi(28, 300 & 0xff), sbci(29, 300 >> 8)]);
        w.extend(set_sp_from_y());
        // The frame pointer moved up and back to reach a far slot, as LLVM does.
        w.extend([subi(28, 0xb5), sbci(29, 0xff), subi(28, 0x4b), sbci(29, 0x00)]);
        let minus = (300u16).wrapping_neg();
        w.extend([subi(28, minus & 0xff), sbci(29, minus >> 8)]);
        w.extend(set_sp_from_y());
        w.extend([pop(29), pop(28), RET]);
        let p = program(&w, &[(16, "a"), (40, "b")], &[]);
        let d = p.stack_depth(2, false, &[]).unwrap();
        assert_eq!(d.bytes, (2 + 2 + 10) + (2 + 2 + 300));
        assert_eq!(d.path, ["reset", "a", "b"]);
    }

    #[test]
    fn rcall_to_the_next_instruction_reserves_a_frame() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        w.extend([rcall(16, 17), pop(0), pop(0), RET]);
        let d = program(&w, &[(16, "a")], &[]).stack_depth(2, false, &[]).unwrap();
        assert_eq!(d.bytes, 4);
    }

    #[test]
    fn a_tail_jump_adds_no_return_address() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        // 16: push r16, pop r16, rjmp 20 (b).   20: push r2, push r3, pop r3, pop r2, ret
        w.extend([push(16), pop(16), rjmp(18, 20), 0]);
        w.extend([push(2), push(3), pop(3), pop(2), RET]);
        let d = program(&w, &[(16, "a"), (20, "b")], &[]).stack_depth(2, false, &[]).unwrap();
        assert_eq!(d.bytes, 2 + 2);
        assert_eq!(d.path, ["reset", "a", "b"]);
    }

    #[test]
    fn adds_the_deepest_interrupt_once_interrupts_are_on() {
        let mut w = Vec::new();
        startup(&mut w, 30, true);
        w.extend([push(16), pop(16), RET]);
        w.resize(30, 0);
        // The handler saves SREG, calls a function that pushes 3, restores SREG.
        w.extend([push(0), in_(0, 0x3f), push(0), rcall(33, 40), pop(0), out(0x3f, 0), pop(0), RETI]);
        w.resize(40, 0);
        w.extend([push(2), push(3), push(4), pop(4), pop(3), pop(2), RET]);
        let p = program(&w, &[(16, "a"), (30, "__vector_1"), (40, "c")], &[]);
        let d = p.stack_depth(2, false, &[]).unwrap();
        assert_eq!(d.interrupt_bytes, 2 + 2 + 2 + 3);
        assert_eq!(d.bytes, 2 + 1 + d.interrupt_bytes);
        assert_eq!(d.path, ["reset", "a", "interrupt vector 1", "__vector_1", "c"]);
        // Without `sei`, a `reti` outside a handler enables interrupts all the same.
        w[6] = 0;
        w[18] = RETI;
        let p = program(&w, &[(16, "a"), (30, "__vector_1"), (40, "c")], &[]);
        assert_eq!(p.stack_depth(2, false, &[]).unwrap(), d);
    }

    #[test]
    fn a_handler_that_enables_interrupts_is_unbounded() {
        let mut w = Vec::new();
        startup(&mut w, 30, true);
        w.push(RET);
        w.resize(30, 0);
        w.extend([SEI, RETI]);
        let err = program(&w, &[(16, "a"), (30, "__vector_1")], &[]).stack_depth(2, false, &[]).unwrap_err();
        assert!(matches!(err, Unbounded::NestedInterrupts { at: 60, .. }), "{err}");
        // Restoring an SREG it did not read may set the I flag too.
        w[30] = out(0x3f, 24);
        let err = program(&w, &[(16, "a"), (30, "__vector_1")], &[]).stack_depth(2, false, &[]).unwrap_err();
        assert!(matches!(err, Unbounded::NestedInterrupts { .. }), "{err}");
    }

    #[test]
    fn recursion_names_the_cycle() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        // a calls b, b calls c, c calls b.
        w.extend([rcall(16, 20), RET, 0, 0]);
        w.extend([rcall(20, 24), RET, 0, 0]);
        w.extend([push(5), rcall(25, 20), pop(5), RET]);
        let err = program(&w, &[(16, "a"), (20, "b"), (24, "c")], &[]).stack_depth(2, false, &[]).unwrap_err();
        assert_eq!(err, Unbounded::Recursion { cycle: vec!["b".into(), "c".into()] });
        assert_eq!(err.to_string(), "recursion: b -> c calls b again");
    }

    /// `sbrc r24,0`: skips the next instruction on one path, as a depth test would.
    const SKIP: u16 = 0xfc00 | 24 << 4;

    fn limit(function: &str, activations: u32) -> Limit {
        Limit { function: function.into(), activations, under: None }
    }

    #[test]
    fn a_function_limited_under_another_starts_only_near_the_top() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        // 16: a calls b.   20: b calls itself or s.   26: s pushes three bytes.
        w.extend([rcall(16, 20), RET, 0, 0]);
        w.extend([push(5), SKIP, rcall(22, 20), rcall(23, 26), pop(5), RET]);
        w.extend([push(2), push(3), push(4), pop(4), pop(3), pop(2), RET]);
        let functions = [(16, "a"), (20, "b"), (26, "s")];
        let p = program(&w, &functions, &[]);
        // Unconstrained, s starts under the deepest b.
        let d = p.stack_depth(2, false, &[limit("b", 4)]).unwrap();
        assert_eq!(d.bytes, 2 + 4 * (2 + 1) + (2 + 3));
        // s only under at most two of b: the deepest is then four b's.
        let under = Limit { function: "s".into(), activations: u32::MAX, under: Some(("b".into(), 2)) };
        let d = p.stack_depth(2, false, &[limit("b", 4), under.clone()]).unwrap();
        assert_eq!(d.bytes, 2 + 4 * (2 + 1));
        assert_eq!(d.recursion, [limit("b", 4), under.clone()]);
        assert_eq!(under.to_string(), "s under at most 2 of b");
        // Under only one: s under the second b outdoes the deeper b's alone.
        let under = Limit { under: Some(("b".into(), 1)), ..under };
        let d = p.stack_depth(2, false, &[limit("b", 2), under]).unwrap();
        assert_eq!(d.bytes, 2 + (2 + 1) + (2 + 3));
        assert_eq!(d.path, ["reset", "a", "b", "s"]);
    }

    #[test]
    fn a_limited_function_recurses_to_its_limit() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        // 16: a calls b.   20: b pushes a byte and calls itself, or not, as a depth would say.
        w.extend([rcall(16, 20), RET, 0, 0]);
        w.extend([push(5), SKIP, rcall(22, 20), pop(5), RET]);
        let p = program(&w, &[(16, "a"), (20, "search::b::<G, 9>")], &[]);
        let d = p.stack_depth(2, false, &[limit("search::b", 3)]).unwrap();
        // a's return address, then three of b's: a return address and a byte each.
        assert_eq!(d.bytes, 2 + 3 * (2 + 1));
        assert_eq!(d.path, ["reset", "a", "search::b::<G, 9>", "search::b::<G, 9>", "search::b::<G, 9>"]);
        assert_eq!(d.recursion, [limit("search::b", 3)]);
        // A limit of none: the call from a cannot happen either.
        assert_eq!(p.stack_depth(2, false, &[limit("search::b", 0)]).unwrap().bytes, 2);
        // No limit, or one on another function, leaves the recursion unbounded.
        let err = p.stack_depth(2, false, &[]).unwrap_err();
        assert_eq!(err, Unbounded::Recursion { cycle: vec!["search::b::<G, 9>".into()] });
        let err = p.stack_depth(2, false, &[limit("a", 1)]).unwrap_err();
        assert!(matches!(err, Unbounded::Recursion { .. }), "{err}");
    }

    #[test]
    fn every_cycle_must_pass_a_limited_function() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        // 16: a calls b.   20: b calls c or not.   26: c pushes two bytes and calls b or not.
        w.extend([rcall(16, 20), RET, 0, 0]);
        w.extend([SKIP, rcall(21, 26), RET, 0, 0, 0]);
        w.extend([push(2), push(3), SKIP, rcall(29, 20), pop(3), pop(2), RET]);
        let functions = [(16, "a"), (20, "b"), (26, "c")];
        // b and c out of line, the limit on c only: two rounds of b and c.
        let d = program(&w, &functions, &[]).stack_depth(2, false, &[limit("c", 2)]).unwrap();
        // a's and b's return addresses, then two rounds of c's, its two bytes and b's.
        assert_eq!(d.bytes, 2 + 2 + 2 * (2 + 2 + 2));
        assert_eq!(d.path, ["reset", "a", "b", "c", "b", "c", "b"]);
        // Limits on both: each bounds the cycle, the smaller wins.
        let d = program(&w, &functions, &[]).stack_depth(2, false, &[limit("b", 1), limit("c", 5)]).unwrap();
        assert_eq!(d.bytes, 2 + 2 + (2 + 2));
        assert_eq!(d.recursion, [limit("b", 1)]);
        // b also calls itself: a cycle through no limited function.
        w[20] = rcall(20, 20);
        let err = program(&w, &functions, &[]).stack_depth(2, false, &[limit("c", 2)]).unwrap_err();
        assert_eq!(err, Unbounded::Recursion { cycle: vec!["b".into()] });
    }

    #[test]
    fn a_limit_names_the_function_and_nothing_split_from_it() {
        let negamax = "gamec_runtime::search::negamax";
        assert!(is_function(negamax, negamax));
        assert!(is_function("gamec_runtime::search::negamax::<g::Searched, 32>", negamax));
        assert!(!is_function("gamec_runtime::search::negamax::<g::Searched, 32>.cold.1", negamax));
        assert!(!is_function("gamec_runtime::search::negamax::<g::Searched, 32>::{closure#0}", negamax));
        assert!(!is_function("gamec_runtime::search::negamax_at", negamax));
        assert!(!is_function("other::gamec_runtime::search::negamax", negamax));
        // A method of a generic type, its arguments aside.
        let run = "<gamec_runtime::rules::play::walk::Walk>::run";
        assert!(is_function("<gamec_runtime::rules::play::walk::Walk<g::game::Ops>>::run", run));
        assert!(is_function("<gamec_runtime::rules::play::walk::Walk<a::B<c::D, 3>>>::run::<u8>", run));
        assert!(!is_function("<gamec_runtime::rules::play::walk::Walk<g::game::Ops>>::run::{closure#0}", run));
        assert!(!is_function("<gamec_runtime::rules::play::walk::Walk<g::game::Ops>>::running", run));
    }

    #[test]
    fn an_unknown_stack_pointer_write_is_unbounded() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        w.extend([ldi(28, 5), ldi(29, 1), out(0x3e, 29), out(0x3d, 28), RET]);
        let err = program(&w, &[(16, "a")], &[]).stack_depth(2, false, &[]).unwrap_err();
        assert_eq!(err, Unbounded::StackPointerWrite { at: 38, function: "a".into() });
    }

    #[test]
    fn a_callee_that_clobbers_the_frame_pointer_loses_it() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        // a keeps SP in Y across a call to b, which changes Y without restoring it.
        w.extend([in_(28, 0x3d), in_(29, 0x3e), rcall(18, 30)]);
        w.extend(set_sp_from_y());
        w.push(RET);
        w.resize(30, 0);
        w.extend([ldi(28, 0), RET]);
        let err = program(&w, &[(16, "a"), (30, "b")], &[]).stack_depth(2, false, &[]).unwrap_err();
        assert!(matches!(err, Unbounded::StackPointerWrite { .. }), "{err}");
    }

    #[test]
    fn paths_must_agree_on_the_depth() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        // 16: skip a push on one path only, then return.
        w.extend([0xfc00 | 24 << 4, push(1), RET]);
        let err = program(&w, &[(16, "a")], &[]).stack_depth(2, false, &[]).unwrap_err();
        assert!(matches!(err, Unbounded::Unbalanced { .. }), "{err}");
    }

    #[test]
    fn indirect_calls_reach_every_stored_function() {
        let mut w = Vec::new();
        startup(&mut w, 9, false);
        w[9] = RETI;
        w.extend([ICALL, RET]);
        w.resize(20, 0);
        w.extend([push(2), pop(2), RET]);
        w.resize(24, 0);
        w.extend([push(2), push(3), pop(3), pop(2), RET]);
        let functions = [(16, "a"), (20, "b"), (24, "c")];
        let d = program(&w, &functions, &[20, 24]).stack_depth(2, false, &[]).unwrap();
        assert_eq!(d.bytes, 2 + 2 + 2);
        assert_eq!(d.path, ["reset", "a", "c"]);
        // A known Z picks the one target.
        w[16] = ldi(30, 20);
        w[17] = ldi(31, 0);
        w[18] = ICALL;
        w[19] = RET;
        let d = program(&w, &functions, &[20, 24]).stack_depth(2, false, &[]).unwrap();
        assert_eq!(d.path, ["reset", "a", "b"]);
        let err = program(&w, &functions, &[]).stack_depth(2, false, &[]);
        assert!(err.is_ok(), "a constant target needs no stored pointer");
        w[16] = 0;
        let err = program(&w, &functions, &[]).stack_depth(2, false, &[]).unwrap_err();
        assert!(matches!(err, Unbounded::IndirectCall { at: 36, .. }), "{err}");
    }

    /// `testdata/pointers.S`: `a` calls what a table in .data holds (`b`, and `c` once `e`
    /// stores it with an `ldi` pair); `d` is the deepest function, and a number in .data
    /// equals its word address, but nothing takes it.
    #[test]
    fn relocations_name_the_stored_pointers() {
        // Copied: `object` reads the headers in place, aligned.
        let elf = &include_bytes!("testdata/pointers.elf").to_vec();
        let program = Program::from_elf(elf).unwrap();
        let names: Vec<&str> = program.pointers.iter().map(|p| program.functions[p].as_str()).collect();
        assert_eq!(names, ["b", "c"]);
        let d = avr_stack_depth(elf, 2, 2, &[]).unwrap();
        assert_eq!(d.path, ["reset", "a", "c"]);
        assert_eq!(d.bytes, 2 + 2 + 2);
    }

    #[test]
    fn without_relocations_any_matching_number_is_a_pointer() {
        // Copied: `object` reads the headers in place, aligned.
        let elf = &include_bytes!("testdata/pointers-norelocs.elf").to_vec();
        let program = Program::from_elf(elf).unwrap();
        let names: Vec<&str> = program.pointers.iter().map(|p| program.functions[p].as_str()).collect();
        assert_eq!(names, ["b", "c", "d"]);
        let d = avr_stack_depth(elf, 2, 2, &[]).unwrap();
        assert_eq!(d.path, ["reset", "a", "d"]);
        assert_eq!(d.bytes, 2 + 2 + 4);
    }
}

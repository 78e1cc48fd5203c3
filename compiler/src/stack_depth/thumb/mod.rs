//! An upper bound on the stack a Cortex-M (Thumb-2) program can use, read from its linked ELF,
//! in the same spirit as the AVR bound beside it: from the machine code, never from the
//! compiler's say-so, and a refusal with the reason rather than a smaller number.
//!
//! Every function reachable from the reset vector and from each exception vector of the
//! `.vector_table` section is walked instruction by instruction, following branches (and both
//! ways through an `it` block's conditional instructions), with the bytes the function has
//! pushed so far: `push`/`stmdb sp!`, `str rN, [sp, #-4]!`, `vpush`, `sub sp, #imm` (and
//! `sub.w`/`subw`) deepen it, their counterparts give it back. A call (`bl`) adds the callee's
//! own bound (the return address stays in LR, not on the stack); a branch to another
//! function's start is a tail call, adding the callee where the branch is. `tbb`/`tbh` go to
//! every entry of their table, which the mapping symbols (`$d` to the next `$t`) delimit.
//!
//! An indirect call (`blx rN`, or `bx rN` as a tail call) may reach any function whose
//! address the program takes. The linker keeps its relocations (`gamec build` links with
//! `--emit-relocs`): every absolute word (`R_ARM_ABS32`) outside the vector table that holds a
//! code address (vtables, `fn` pointers, literal pools) and every `movw` of one. That set is
//! complete because an absolute address is not known before linking, so every place that
//! holds one needs a relocation. Without relocations an indirect call is refused.
//!
//! Such a set is coarse: formatting's `dyn Write`, a `Display` impl and a callback all reach
//! every function whose address is taken, one of which is the caller itself, so the call graph
//! has cycles the program never runs. Recursion is refused ([`Unbounded::Recursion`]) unless
//! the caller vouches that nothing is entered again, through a pointer or under one, while it
//! runs ([`Reentry::Never`]): then a call to a function active above the chain's last call
//! through a pointer cannot happen and adds nothing, each function's summary depends on which
//! functions are so barred, and the functions it left out are reported as limits of one
//! activation. Recursion with no pointer on the cycle is refused either way, unless it passes
//! a function the caller bounds ([`Limit`], as for the AVR): a call of one beyond its most
//! activations on the chain cannot happen, and each function is summarised once per count of
//! those activations above it.
//!
//! Exceptions stack on top: entry pushes 8 words (32 B), or 26 (104 B) once the FPU is in use
//! with lazy stacking, plus 4 B to align SP to 8. Exceptions of one priority never preempt
//! each other, so when the configurable ones all share one ([`Priorities::Shared`], as the
//! runtime's glue leaves them at reset) the deepest of them counts once; otherwise each
//! counts, all nested. HardFault (priority -1) and NMI (-2) preempt any of them, so both are
//! stacked on top as well: a fault is not supposed to happen, but the bound does not assume it.
//!
//! What it trusts: the code is in executable sections and never modified; a code address is
//! taken only where a relocation says so (not computed from another code address or by
//! `adr` within one input section); nothing writes SP through a pointer; the reset handler
//! starts on the SP the vector table gives; LR holds the return address where the code
//! returns through it; the caller's word on priorities, the FPU and reentry.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use object::{elf, Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget, SectionFlags, SymbolKind};

use super::{Limit, StackDepth, Unbounded};

mod decode;
use decode::{decode, Flow, Insn, Sp};

/// Whether exceptions of configurable priority can preempt one another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Priorities {
    /// They all keep one priority (the reset value when nothing sets one): at most one of them
    /// is active at a time.
    Shared,
    /// They may differ: each may be active once, all nested.
    Any,
}

/// Whether a call through a pointer may lead back into a function already running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reentry {
    /// It may: such a cycle is recursion, refused.
    Allowed,
    /// It never does (the caller's word): a call, through a pointer or under one, to a function
    /// active above the pointer's call cannot happen and adds nothing.
    Never,
}

/// Bytes an exception's entry pushes: the basic frame, or the extended one with the FPU's
/// registers, and the word that may align SP to 8.
const BASIC_FRAME: u32 = 32;
const EXTENDED_FRAME: u32 = 104;
const ALIGNMENT: u32 = 4;
const NMI: usize = 2;
const HARD_FAULT: usize = 3;

/// An upper bound on the stack of the Thumb-2 program in `elf`, whose exceptions of
/// configurable priority nest as `priorities` says; `fpu`: whether the FPU may be enabled (its
/// exception frames are then the extended ones); `reentry`: what an indirect call may reach.
pub fn thumb_stack_depth(
    elf: &[u8],
    priorities: Priorities,
    fpu: bool,
    reentry: Reentry,
    limits: &[Limit],
) -> Result<StackDepth, Unbounded> {
    let program = Program::from_elf(elf)?;
    // Each function's limit, by the first that names it.
    let limited = program
        .functions
        .keys()
        .filter_map(|&f| {
            let name = program.name(f);
            limits.iter().position(|l| super::is_function(&name, &l.function)).map(|i| (f, i))
        })
        .collect();
    let mut a = Analyzer {
        program: &program,
        reentry,
        summaries: HashMap::new(),
        free: HashMap::new(),
        active: Vec::new(),
        relied: BTreeSet::new(),
        limited,
        most: limits.iter().map(|l| l.activations).collect(),
        counts: vec![0; limits.len()],
        relied_limits: BTreeSet::new(),
    };
    let reset = program.vectors.get(1).copied().flatten().ok_or_else(|| Unbounded::Elf("no reset vector".into()))?;
    let (thread, key) = a.entry(reset)?;
    let mut path = a.chain(&key);
    let frame = if fpu { EXTENDED_FRAME } else { BASIC_FRAME } + ALIGNMENT;
    let handler = |a: &mut Analyzer, n: usize| -> Result<Option<(u32, Vec<String>)>, Unbounded> {
        let Some(Some(f)) = program.vectors.get(n) else { return Ok(None) };
        let (s, key) = a.entry(*f)?;
        let mut chain = vec![exception_name(n)];
        chain.extend(a.chain(&key));
        let bytes = frame + s.bytes;
        Ok(Some((bytes, chain)))
    };
    // The configurable exceptions: the deepest once, or all of them nested.
    let mut nested: Vec<(u32, Vec<String>)> = Vec::new();
    for n in (HARD_FAULT + 1)..program.vectors.len() {
        let Some(h) = handler(&mut a, n)? else { continue };
        match priorities {
            Priorities::Any => nested.push(h),
            Priorities::Shared if nested.first().is_none_or(|(b, _)| h.0 > *b) => nested = vec![h],
            Priorities::Shared => {}
        }
    }
    // A fault in any of them, and an NMI over that.
    nested.extend(handler(&mut a, HARD_FAULT)?);
    nested.extend(handler(&mut a, NMI)?);
    let interrupt_bytes = nested.iter().map(|(b, _)| b).sum::<u32>();
    for (_, chain) in nested {
        path.extend(chain);
    }
    // The functions the caller's word kept from being entered again.
    let mut recursion: Vec<Limit> =
        a.relied.iter().map(|&f| Limit { function: program.name(f), activations: 1, under: None }).collect();
    recursion.extend(a.relied_limits.iter().map(|&i| limits[i].clone()));
    Ok(StackDepth { bytes: thread.bytes + interrupt_bytes, interrupt_bytes, path, initial_sp: None, recursion })
}

/// The name the architecture gives exception `n`.
fn exception_name(n: usize) -> String {
    let name = match n {
        2 => "NMI",
        3 => "HardFault",
        4 => "MemManage",
        5 => "BusFault",
        6 => "UsageFault",
        11 => "SVCall",
        12 => "DebugMonitor",
        14 => "PendSV",
        15 => "SysTick",
        n => return format!("exception IRQ {}", n - 16),
    };
    format!("exception {name}")
}

/// Relocation kinds that branch to code (calls, jumps) rather than take its address.
const BRANCHES: [u32; 9] = [
    elf::R_ARM_PC24,
    elf::R_ARM_THM_PC22,
    elf::R_ARM_CALL,
    elf::R_ARM_JUMP24,
    elf::R_ARM_THM_JUMP24,
    elf::R_ARM_THM_JUMP19,
    elf::R_ARM_THM_JUMP6,
    // R_ARM_THM_JUMP11 and R_ARM_THM_JUMP8 by their older names.
    elf::R_ARM_THM_PC11,
    elf::R_ARM_THM_PC9,
];

/// What the analysis needs of a linked program.
struct Program {
    /// The executable bytes, each run at its address.
    code: Vec<(u32, Vec<u8>)>,
    /// Function symbols' start addresses (Thumb bit clear) and names.
    functions: BTreeMap<u32, String>,
    /// Mapping symbols' addresses: where data in code (`$d`) or code (`$t`, `$a`) starts.
    mapping: BTreeMap<u32, bool>,
    /// The vector table's handlers by exception number (entry 0, the initial SP, is `None`,
    /// as are reserved entries).
    vectors: Vec<Option<u32>>,
    /// Code whose address the program takes, if the ELF kept its relocations.
    pointers: Option<BTreeSet<u32>>,
}

impl Program {
    fn from_elf(elf: &[u8]) -> Result<Program, Unbounded> {
        let file = object::File::parse(elf).map_err(|e| Unbounded::Elf(e.to_string()))?;
        if file.architecture() != object::Architecture::Arm {
            return Err(Unbounded::Elf(format!("{:?}, not Arm", file.architecture())));
        }
        let exec = |s: &object::Section| matches!(s.flags(), SectionFlags::Elf { sh_flags } if sh_flags & u64::from(elf::SHF_EXECINSTR) != 0);
        let alloc = |s: &object::Section| matches!(s.flags(), SectionFlags::Elf { sh_flags } if sh_flags & u64::from(elf::SHF_ALLOC) != 0);
        let data = |s: &object::Section| s.data().map(<[u8]>::to_vec).map_err(|e| Unbounded::Elf(e.to_string()));
        let mut code = Vec::new();
        let mut loaded = Vec::new();
        let mut vectors = Vec::new();
        for section in file.sections() {
            if exec(&section) {
                code.push((section.address() as u32, data(&section)?));
            }
            if alloc(&section) {
                loaded.push((section.address() as u32, data(&section)?));
            }
            if section.name() == Ok(".vector_table") {
                vectors = data(&section)?
                    .chunks_exact(4)
                    .enumerate()
                    .map(|(i, w)| {
                        let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                        (i > 0 && w != 0).then_some(w & !1)
                    })
                    .collect();
            }
        }
        if vectors.len() < 2 {
            return Err(Unbounded::Elf("no .vector_table section with a reset vector".into()));
        }
        let mut program =
            Program { code, functions: BTreeMap::new(), mapping: BTreeMap::new(), vectors, pointers: None };
        for sym in file.symbols() {
            let Ok(name) = sym.name() else { continue };
            let addr = sym.address() as u32 & !1;
            if let Some(kind) = name.strip_prefix('$').and_then(|n| n.chars().next()) {
                if matches!(kind, 'd' | 't' | 'a') && program.halfword(addr).is_some() {
                    program.mapping.insert(addr, kind == 'd');
                }
            } else if sym.kind() == SymbolKind::Text && program.halfword(addr).is_some() {
                program.functions.entry(addr).or_insert_with(|| name.to_string());
            }
        }
        let word = |addr: u32| {
            loaded.iter().find_map(|(base, bytes)| {
                let at = usize::try_from(addr.checked_sub(*base)?).ok()?;
                Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
            })
        };
        program.pointers = program.taken(&file, word)?;
        Ok(program)
    }

    /// The code addresses the loaded sections take, from the relocations the linker kept;
    /// `None` if it kept none.
    fn taken(
        &self,
        file: &object::File,
        word: impl Fn(u32) -> Option<u32>,
    ) -> Result<Option<BTreeSet<u32>>, Unbounded> {
        let mut kept = false;
        let mut targets = BTreeSet::new();
        for section in file.sections() {
            // The hardware reads the vector table; no code calls through it. Debug information
            // is not loaded.
            let loaded =
                matches!(section.flags(), SectionFlags::Elf { sh_flags } if sh_flags & u64::from(elf::SHF_ALLOC) != 0);
            if !loaded || section.name() == Ok(".vector_table") {
                continue;
            }
            for (at, rel) in section.relocations() {
                kept = true;
                let RelocationFlags::Elf { r_type } = rel.flags() else { continue };
                let at = at as u32;
                let symbol = match rel.target() {
                    RelocationTarget::Symbol(i) => file.symbol_by_index(i).ok(),
                    _ => None,
                };
                let in_code = symbol.as_ref().is_some_and(|s| self.halfword(s.address() as u32 & !1).is_some());
                let unknown = || Unbounded::Elf(format!("relocation of type {r_type} at {at:#x} against code"));
                match r_type {
                    // What the linker wrote is the address itself (with the Thumb bit).
                    elf::R_ARM_ABS32 | elf::R_ARM_TARGET1 => {
                        let value = word(at).ok_or_else(unknown)? & !1;
                        if self.halfword(value).is_some() {
                            targets.insert(value);
                        }
                    }
                    _ if BRANCHES.contains(&r_type) || !in_code => {}
                    // The low half of a code address: every function it may be the half of.
                    elf::R_ARM_THM_MOVW_ABS_NC => {
                        let (h1, h2) =
                            (self.halfword(at).ok_or_else(unknown)?, self.halfword(at + 2).ok_or_else(unknown)?);
                        let low = (h1 & 0xf) << 12 | (h1 >> 10 & 1) << 11 | (h2 >> 12 & 7) << 8 | (h2 & 0xff);
                        targets.extend(self.functions.keys().filter(|&&f| (f | 1) as u16 == low || f as u16 == low));
                    }
                    elf::R_ARM_THM_MOVT_ABS => {} // its `movw` names the functions
                    // Any other kind against a function takes that function; against code that
                    // starts no function, it cannot be followed.
                    _ => match symbol.map(|s| s.address() as u32 & !1) {
                        Some(f) if self.functions.contains_key(&f) => {
                            targets.insert(f);
                        }
                        _ => return Err(unknown()),
                    },
                }
            }
        }
        Ok(kept.then_some(targets))
    }

    fn halfword(&self, addr: u32) -> Option<u16> {
        self.code.iter().find_map(|(base, bytes)| {
            let at = usize::try_from(addr.checked_sub(*base)?).ok()?;
            Some(u16::from_le_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]))
        })
    }

    fn byte(&self, addr: u32) -> Option<u8> {
        self.code.iter().find_map(|(base, bytes)| bytes.get(usize::try_from(addr.checked_sub(*base)?).ok()?).copied())
    }

    /// The instruction at `at`, or why there is none.
    fn insn(&self, at: u32, function: u32) -> Result<Insn, Unbounded> {
        let h1 = self.halfword(at).ok_or_else(|| Unbounded::OutsideCode { at, function: self.name(function) })?;
        decode(at, h1, self.halfword(at + 2)).ok_or_else(|| Unbounded::UnknownInstruction {
            at,
            word: h1,
            function: self.name(function),
        })
    }

    /// Where a `tbb`/`tbh` whose table starts at `start` may go: every entry of the table
    /// that the mapping symbols delimit (`$d` at its start up to the next symbol). An entry
    /// that points back into the table is the padding after an odd count of bytes.
    fn table(&self, start: u32, half: bool, at: u32, function: u32) -> Result<Vec<u32>, Unbounded> {
        let unmarked = || Unbounded::IndirectJump { at, function: self.name(function) };
        if self.mapping.get(&start) != Some(&true) {
            return Err(unmarked());
        }
        let end = self.mapping.range(start + 1..).next().map(|(&a, _)| a).ok_or_else(unmarked)?;
        let step = if half { 2 } else { 1 };
        let mut targets = Vec::new();
        for entry in (start..end).step_by(step) {
            let offset = if half {
                u32::from(self.halfword(entry).ok_or_else(unmarked)?)
            } else {
                u32::from(self.byte(entry).ok_or_else(unmarked)?)
            };
            let target = start + 2 * offset;
            if target >= end {
                targets.push(target);
            }
        }
        Ok(targets)
    }

    /// A function's name for people: demangled, without the hash.
    fn name(&self, addr: u32) -> String {
        match self.functions.get(&addr) {
            Some(name) => match rustc_demangle::try_demangle(name) {
                Ok(d) => format!("{d:#}"),
                Err(_) => name.clone(),
            },
            None => format!("{addr:#010x}"),
        }
    }
}

/// What a function does to the stack, callees included.
#[derive(Debug, Clone)]
struct Summary {
    /// The most bytes below SP at its entry.
    bytes: u32,
    /// The callee on the way to `bytes`, if the deepest point is not in the function itself.
    deepest: Option<Key>,
    /// Whether it can return (else, code after a call to it is never reached).
    returns: bool,
    /// Whether it depends on the chain above it: a call in it or a callee left out a function
    /// already active ([`Reentry::Never`]) or at its limit. Else it is summarised once.
    chained: bool,
    /// Whether it or a callee is a limited function, whose count the chain above sets.
    limited: bool,
}

/// What a function's summary depends on, with [`Reentry::Never`]: the function, the functions
/// active above it (a call through a pointer under it may not enter them again), and those of
/// them that a call under it may not enter again without one (those with a pointer's call
/// after them on the chain), both sorted; and the activations of each limited function above.
type Key = (u32, Vec<u32>, Vec<u32>, Vec<u32>);

/// Where an `it` block stands: how many conditional instructions are ahead, and which of them
/// (a bit each, the next in bit 0) execute on the path.
type It = (u8, u8);

struct Analyzer<'p> {
    program: &'p Program,
    reentry: Reentry,
    summaries: HashMap<Key, Summary>,
    /// Summaries that do not depend on the chain.
    free: HashMap<u32, Summary>,
    /// Functions being walked, outermost first, each with whether a pointer's call entered
    /// it and the limited functions' counts there: a call to one of them under the same counts
    /// is recursion.
    active: Vec<(u32, bool, Vec<u32>)>,
    /// Functions left out of a call because they were active.
    relied: BTreeSet<u32>,
    /// Each limited function's limit, by index into `most`.
    limited: HashMap<u32, usize>,
    /// The most activations of each limited function on a chain.
    most: Vec<u32>,
    /// The activations of each limited function on the chain being walked.
    counts: Vec<u32>,
    /// Limits that left a call out.
    relied_limits: BTreeSet<usize>,
}

impl Analyzer<'_> {
    /// The functions active on the chain that a call entering a function (through a pointer
    /// if `pointer`) may not enter again: none with [`Reentry::Allowed`]; else every one with a
    /// pointer's call after it.
    fn barred(&self, pointer: bool) -> Vec<u32> {
        if self.reentry == Reentry::Allowed {
            return Vec::new();
        }
        let last = if pointer { self.active.len() } else { self.active.iter().rposition(|a| a.1).unwrap_or(0) };
        let mut out: Vec<u32> = self.active[..last].iter().map(|a| a.0).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// `f`'s summary when the chain so far calls it (through a pointer if `pointer`), with its
    /// key; `None` if the call cannot happen: `f` is active and may not be entered again.
    fn summary(&mut self, f: u32, pointer: bool) -> Result<Option<(Summary, Key)>, Unbounded> {
        let barred = self.barred(pointer);
        if barred.binary_search(&f).is_ok() {
            self.relied.insert(f);
            return Ok(None);
        }
        let limit = self.limited.get(&f).copied();
        if let Some(i) = limit {
            if self.counts[i] >= self.most[i] {
                self.relied_limits.insert(i);
                return Ok(None);
            }
        }
        if let Some(s) = self.free.get(&f) {
            return Ok(Some((s.clone(), (f, Vec::new(), Vec::new(), Vec::new()))));
        }
        let mut above: Vec<u32> = match self.reentry {
            Reentry::Never => self.active.iter().map(|a| a.0).collect(),
            Reentry::Allowed => Vec::new(),
        };
        above.sort_unstable();
        above.dedup();
        let key = (f, above, barred, self.counts.clone());
        if let Some(s) = self.summaries.get(&key) {
            return Ok(Some((s.clone(), key)));
        }
        if let Some(i) = self.active.iter().position(|a| a.0 == f && a.2 == self.counts) {
            return Err(Unbounded::Recursion {
                cycle: self.active[i..].iter().map(|a| self.program.name(a.0)).collect(),
            });
        }
        self.active.push((f, pointer, self.counts.clone()));
        if let Some(i) = limit {
            self.counts[i] += 1;
        }
        let s = self.walk(f);
        if let Some(i) = limit {
            self.counts[i] -= 1;
        }
        self.active.pop();
        let mut s = s?;
        s.limited |= limit.is_some();
        if s.chained || s.limited {
            self.summaries.insert(key.clone(), s.clone());
            Ok(Some((s, key)))
        } else {
            self.free.insert(f, s.clone());
            Ok(Some((s, (f, Vec::new(), Vec::new(), Vec::new()))))
        }
    }

    /// The summary of an entry point (reset, an exception's handler), which starts a chain.
    fn entry(&mut self, f: u32) -> Result<(Summary, Key), Unbounded> {
        self.summary(f, false)?.ok_or_else(|| Unbounded::Elf("an entry point is active".into()))
    }

    /// The deepest chain from the function of `key`: its name and its deepest callee's chain.
    fn chain(&self, key: &Key) -> Vec<String> {
        let mut out = Vec::new();
        let mut at = Some(key.clone());
        while let Some(k) = at {
            out.push(self.program.name(k.0));
            let s = self.summaries.get(&k).or_else(|| self.free.get(&k.0));
            at = s.and_then(|s| s.deepest.clone());
        }
        out
    }

    /// Adds a call of `callee` (through a pointer if `pointer`) at `depth` bytes into `s`;
    /// whether the callee can return.
    fn call(&mut self, s: &mut Summary, callee: u32, pointer: bool, depth: u32) -> Result<bool, Unbounded> {
        let Some((c, key)) = self.summary(callee, pointer)? else {
            s.chained = true;
            return Ok(false);
        };
        s.chained |= c.chained;
        s.limited |= c.limited;
        if depth + c.bytes > s.bytes {
            s.bytes = depth + c.bytes;
            s.deepest = Some(key);
        }
        Ok(c.returns)
    }

    /// Adds an indirect call at `depth`: any function whose address is taken.
    fn indirect(&mut self, s: &mut Summary, at: u32, f: u32, depth: u32) -> Result<bool, Unbounded> {
        let pointers = self.program.pointers.as_ref().filter(|p| !p.is_empty());
        let pointers = pointers.ok_or_else(|| Unbounded::IndirectCall { at, function: self.program.name(f) })?;
        let mut returns = false;
        for &target in pointers {
            returns |= self.call(s, target, true, depth)?;
        }
        Ok(returns)
    }

    /// Walks `f` from its entry: every path, with the bytes pushed on it.
    fn walk(&mut self, f: u32) -> Result<Summary, Unbounded> {
        let program = self.program;
        let unbalanced = |at, what: String| Unbounded::Unbalanced { at, function: program.name(f), what };
        let mut s = Summary { bytes: 0, deepest: None, returns: false, chained: false, limited: false };
        // The depth at each address and `it` state: the count of conditional instructions
        // ahead and which of them execute (a bit each) on this path through the block.
        let mut seen: HashMap<(u32, It), u32> = HashMap::new();
        let mut work: Vec<(u32, u32, It)> = vec![(f, 0, (0, 0))];
        while let Some((at, depth, it)) = work.pop() {
            match seen.get(&(at, it)) {
                Some(&d) if d == depth => continue,
                Some(&d) => return Err(unbalanced(at, format!("paths meeting with {d} and {depth} bytes pushed"))),
                None => {
                    seen.insert((at, it), depth);
                }
            }
            let insn = program.insn(at, f)?;
            let next = at + insn.len;
            if insn.it > 0 {
                // One path where the condition holds, one where it does not.
                let all = (1u8 << insn.it) - 1;
                work.push((next, depth, (insn.it, insn.then)));
                if !insn.always {
                    work.push((next, depth, (insn.it, !insn.then & all)));
                }
                continue;
            }
            let next_it = (it.0.saturating_sub(1), it.1 >> 1);
            // A conditional instruction that does not execute on this path.
            if it.0 > 0 && it.1 & 1 == 0 {
                work.push((next, depth, next_it));
                continue;
            }
            let depth = match insn.sp {
                Sp::Write => return Err(Unbounded::StackPointerWrite { at, function: program.name(f) }),
                Sp::Delta(d) => u32::try_from(i64::from(depth) + i64::from(d))
                    .map_err(|_| unbalanced(at, format!("a pop of more than the {depth} bytes pushed")))?,
            };
            if depth > s.bytes {
                s.bytes = depth;
                s.deepest = None;
            }
            // Control reaching another function's start is a tail call into it.
            let mut goto = |this: &mut Self, s: &mut Summary, target: u32, it: It| -> Result<(), Unbounded> {
                if target != f && program.functions.contains_key(&target) {
                    s.returns |= this.call(s, target, false, depth)?;
                } else {
                    work.push((target, depth, it));
                }
                Ok(())
            };
            match insn.flow {
                Flow::Next => goto(self, &mut s, next, next_it)?,
                Flow::Branch { target, conditional } => {
                    if conditional {
                        goto(self, &mut s, next, (0, 0))?;
                    }
                    goto(self, &mut s, target, (0, 0))?;
                }
                Flow::Call(target) => {
                    if self.call(&mut s, target, false, depth)? {
                        goto(self, &mut s, next, next_it)?;
                    }
                }
                Flow::CallIndirect => {
                    if self.indirect(&mut s, at, f, depth)? {
                        goto(self, &mut s, next, next_it)?;
                    }
                }
                // `bx rN` may also be a return through another register than LR: it may return.
                Flow::TailIndirect => {
                    self.indirect(&mut s, at, f, depth)?;
                    s.returns = true;
                }
                Flow::JumpIndirect => return Err(Unbounded::IndirectJump { at, function: program.name(f) }),
                Flow::Return if depth != 0 => {
                    return Err(unbalanced(at, format!("a return with {depth} bytes still pushed")))
                }
                Flow::Return => s.returns = true,
                Flow::Table { half } => {
                    for target in program.table(at + 4, half, at, f)? {
                        goto(self, &mut s, target, (0, 0))?;
                    }
                }
                Flow::Trap => {}
            }
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &[u8] = include_bytes!("../testdata/thumb.elf");
    const NO_RELOCS: &[u8] = include_bytes!("../testdata/thumb-norelocs.elf");

    fn bound(elf: &[u8], priorities: Priorities, fpu: bool, reentry: Reentry) -> Result<StackDepth, Unbounded> {
        // Copied: the ELF reader wants its headers aligned, which included bytes need not be.
        let aligned = elf.to_vec();
        thumb_stack_depth(&aligned, priorities, fpu, reentry, &[])
    }

    fn address(elf: &[u8], name: &str) -> u32 {
        let elf = elf.to_vec();
        let file = object::File::parse(&*elf).unwrap();
        file.symbols().find(|s| s.name() == Ok(name)).map(|s| s.address() as u32 & !1).unwrap()
    }

    /// The depths worked out in testdata/thumb.S: reset 308, the deepest configurable handler
    /// irq0 292, HardFault 8, NMI 0, each handler with its exception frame.
    #[test]
    fn the_fixture_has_the_depths_worked_out_by_hand() {
        let d = bound(FIXTURE, Priorities::Shared, true, Reentry::Never).unwrap();
        assert_eq!(d.bytes, 308 + (108 + 292) + (108 + 8) + 108, "{d:?}");
        assert_eq!(d.interrupt_bytes, (108 + 292) + (108 + 8) + 108);
        let path: Vec<&str> = d.path.iter().map(String::as_str).collect();
        assert_eq!(
            path,
            [
                "reset",
                "leaf",
                "exception IRQ 0",
                "irq0",
                "leaf",
                "exception HardFault",
                "hardfault",
                "exception NMI",
                "nmi"
            ]
        );
        // The callbacks could only reach more by starting again under themselves.
        let relied: Vec<&str> = d.recursion.iter().map(|l| l.function.as_str()).collect();
        assert_eq!(relied, ["cb_one", "cb_two"]);
        // Without the FPU the frames are the basic ones.
        let d = bound(FIXTURE, Priorities::Shared, false, Reentry::Never).unwrap();
        assert_eq!(d.bytes, 308 + (36 + 292) + (36 + 8) + 36);
        // Priorities that may differ nest every handler: systick (24) too.
        let d = bound(FIXTURE, Priorities::Any, true, Reentry::Never).unwrap();
        assert_eq!(d.bytes, 308 + (108 + 24) + (108 + 292) + (108 + 8) + 108);
    }

    /// The functions whose address is taken: the callbacks, from words in .rodata, and
    /// systick, from a movw/movt pair; not the handlers the vector table holds.
    #[test]
    fn the_functions_whose_address_is_taken_come_from_the_relocations() {
        let elf = FIXTURE.to_vec();
        let taken = Program::from_elf(&elf).unwrap().pointers.unwrap();
        let names = ["cb_one", "cb_two", "systick"].map(|n| address(FIXTURE, n));
        assert_eq!(taken, BTreeSet::from(names));
        let elf = NO_RELOCS.to_vec();
        assert_eq!(Program::from_elf(&elf).unwrap().pointers, None);
    }

    /// Calls through pointers reach the callbacks, whose addresses are taken (in .rodata),
    /// and they call each other through pointers.
    #[test]
    fn callbacks_that_call_each_other_are_recursion_unless_the_caller_vouches() {
        match bound(FIXTURE, Priorities::Shared, true, Reentry::Allowed) {
            // The first pointer call reaches cb_one, whose own pointer call may reach itself.
            Err(Unbounded::Recursion { cycle }) => assert_eq!(cycle, ["cb_one"]),
            other => panic!("{other:?}"),
        }
    }

    /// A summary that left a function out because it was running is not one for a chain
    /// where it is not: middle, under outer_a, may not reach outer_a again through hook; under
    /// outer_c it may (testdata/reentry.S).
    #[test]
    fn what_is_barred_depends_on_the_chain() {
        let d = bound(include_bytes!("../testdata/reentry.elf"), Priorities::Shared, true, Reentry::Never).unwrap();
        assert_eq!(d.bytes, 232, "{d:?}");
        assert_eq!(d.path, ["reset", "outer_c", "middle", "hook", "outer_a"]);
    }

    /// Direct recursion is bounded by a limit on one function of its cycle, and refused
    /// without one (testdata/recursion.S).
    #[test]
    fn recursion_is_bounded_by_the_caller_s_limit() {
        let elf = include_bytes!("../testdata/recursion.elf").to_vec();
        let bound = |limits: &[Limit]| thumb_stack_depth(&elf, Priorities::Shared, true, Reentry::Never, limits);
        match bound(&[]) {
            Err(Unbounded::Recursion { cycle }) => assert_eq!(cycle, ["rec", "mid"]),
            other => panic!("{other:?}"),
        }
        let limit = Limit { function: "rec".into(), activations: 3, under: None };
        let d = bound(std::slice::from_ref(&limit)).unwrap();
        assert_eq!(d.bytes, 80, "{d:?}");
        assert_eq!(d.path, ["reset", "rec", "mid", "rec", "mid", "rec", "mid"]);
        assert_eq!(d.recursion, [limit]);
        // A limit on a function outside the cycle bounds nothing.
        let elsewhere = Limit { function: "reset".into(), activations: 1, under: None };
        assert!(matches!(bound(&[elsewhere]), Err(Unbounded::Recursion { .. })));
    }

    #[test]
    fn an_indirect_call_without_relocations_is_refused() {
        match bound(NO_RELOCS, Priorities::Shared, true, Reentry::Never) {
            Err(Unbounded::IndirectCall { at, function }) => {
                assert_eq!(function, "reset");
                assert!(at > address(NO_RELOCS, "reset") && at < address(NO_RELOCS, "leaf"), "{at:#x}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// The fixture with `old` (unique in it) replaced by `new`.
    fn patched(old: &[u8], new: &[u8]) -> Vec<u8> {
        let mut elf = FIXTURE.to_vec();
        let at = elf.windows(old.len()).position(|w| w == old).unwrap();
        assert!(elf[at + 1..].windows(old.len()).all(|w| w != old), "{old:02x?} is unique");
        elf[at..at + new.len()].copy_from_slice(new);
        elf
    }

    #[test]
    fn what_cannot_be_followed_is_refused() {
        let run = |elf: Vec<u8>| bound(&elf, Priorities::Shared, true, Reentry::Never);
        // table's case 0, `sub sp, #40; add sp, #40`, restoring SP from r7 instead.
        let case0 = [0x8a, 0xb0, 0x0a, 0xb0];
        match run(patched(&case0, &[0x8a, 0xb0, 0xbd, 0x46])) {
            Err(Unbounded::StackPointerWrite { function, .. }) => assert_eq!(function, "table"),
            other => panic!("{other:?}"),
        }
        // Giving back less than it took: the return finds bytes still pushed.
        match run(patched(&case0, &[0x8a, 0xb0, 0x09, 0xb0])) {
            Err(Unbounded::Unbalanced { function, what, .. }) => {
                assert_eq!(function, "table");
                assert!(what.contains("4 bytes still pushed"), "{what}");
            }
            other => panic!("{other:?}"),
        }
        // A breakpoint, which this does not follow.
        match run(patched(&case0, &[0x00, 0xbe])) {
            Err(Unbounded::UnknownInstruction { word: 0xbe00, function, .. }) => assert_eq!(function, "table"),
            other => panic!("{other:?}"),
        }
        // tail calling itself: recursion through no pointer is refused even when vouched for.
        let tail = [0x99, 0xb0, 0x19, 0xb0, 0x70, 0x47];
        let to_self = (address(FIXTURE, "table") as i32 - (address(FIXTURE, "tail") as i32 + 4 + 4)) >> 1;
        assert!((-1024..0).contains(&to_self));
        let b = 0xe000 | (to_self as u16 & 0x7ff);
        // `b table` at tail's end, after its frame; table reaches tail again.
        match run(patched(&tail, &[0x99, 0xb0, 0x19, 0xb0, b as u8, (b >> 8) as u8])) {
            Err(Unbounded::Recursion { cycle }) => assert_eq!(cycle, ["table", "tail"]),
            other => panic!("{other:?}"),
        }
    }
}

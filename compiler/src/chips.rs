//! What the compiler knows about each chip: pins, memories, timers and how to build for it.
//!
//! This is the compiler's half of the per-chip glue (the runtime's `chip` module is the other
//! half). Adding a chip means a new entry here and a new module there, nothing else.

/// A hardware timer a board may give to one device.
#[derive(Debug, Clone, Copy)]
pub struct Timer {
    pub name: &'static str,
    pub bits: u8,
    /// Prescaler divisors in the order of their clock-select values 1, 2, 3...
    pub prescalers: &'static [u32],
    /// Output-compare pins: (channel letter, port, bit).
    pub outputs: &'static [(char, char, u8)],
    /// Whether the glue toggles a tone's pin from the timer's interrupt, so that any pin
    /// serves the speaker (channel A), where `outputs` lists none.
    pub any_pin: bool,
}

impl Timer {
    /// The number its name ends in (`timer1` is 1): how a chip's glue numbers its timers.
    pub fn number(&self) -> u8 {
        self.name.trim_start_matches(|c: char| !c.is_ascii_digit()).parse().unwrap_or(0)
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Chip {
    pub name: &'static str,
    pub rust_target: &'static str,
    /// The runtime's cargo feature holding this chip's glue.
    pub runtime_feature: &'static str,
    pub flash: u32,
    pub ram: u32,
    /// Ports and the bits each has, e.g. ('A', 0xFF).
    pub ports: &'static [(char, u8)],
    /// Pins that are not general I/O on a board built as the chip ships (reset, crystal).
    pub reserved: &'static [(char, u8, &'static str)],
    pub timers: &'static [Timer],
    /// The tick interrupt's vector name, per timer that can serve as the tick of the buttons'
    /// and the cursor's glue (and its display's).
    pub tick_vectors: &'static [(&'static str, &'static str)],
    /// The same for a serial session's tick, where its glue ticks on another timer.
    pub session_tick: &'static [(&'static str, &'static str)],
    /// The interrupt's vector name, per timer whose interrupt toggles a tone's pin (`any_pin`).
    pub tone_vectors: &'static [(&'static str, &'static str)],
    /// The pins that can wake the chip from power-down, each group with the interrupt whose
    /// handler a wake-up needs.
    pub wake_pins: &'static [WakePin],
    /// How the glue's `Chip` knows the speaker's Timer/Counter1 output: as a const parameter
    /// of its type (`Chip<1>`, the ATmegas) rather than a field of the board's `Config`.
    pub tone_in_type: bool,
    /// The processor family, and what building for it needs.
    pub arch: Arch,
    /// Serial ports gamec's glue drives on this chip. Every chip's glue serves buttons and
    /// lights (a tick, a tone, power-down) and a cursor on a matrix (a tick and a tone), a
    /// serial game wherever it drives a serial port, and a table of cards wherever it drives
    /// two (the Cortex-Ms').
    pub serial_ports: &'static [SerialPort],
}

/// Pins that wake the chip from power-down (`mask` on `port`), and the interrupt that does it,
/// by its vector's name and number: a pin-change interrupt for a port, or an external
/// interrupt for a pin.
#[derive(Debug, Clone, Copy)]
pub struct WakePin {
    pub port: char,
    pub mask: u8,
    pub vector: &'static str,
    pub number: u8,
}

impl WakePin {
    pub fn covers(&self, pin: gamec_dsl::Pin) -> bool {
        self.port == pin.port && self.mask >> pin.bit & 1 == 1
    }
}

/// The ATmega64's and ATmega128's external interrupts: INT0-3 on PD0-PD3, INT4-7 on PE4-PE7.
const MEGA64_WAKE_PINS: &[WakePin] = &[
    WakePin { port: 'D', mask: 1 << 0, vector: "INT0", number: 1 },
    WakePin { port: 'D', mask: 1 << 1, vector: "INT1", number: 2 },
    WakePin { port: 'D', mask: 1 << 2, vector: "INT2", number: 3 },
    WakePin { port: 'D', mask: 1 << 3, vector: "INT3", number: 4 },
    WakePin { port: 'E', mask: 1 << 4, vector: "INT4", number: 5 },
    WakePin { port: 'E', mask: 1 << 5, vector: "INT5", number: 6 },
    WakePin { port: 'E', mask: 1 << 6, vector: "INT6", number: 7 },
    WakePin { port: 'E', mask: 1 << 7, vector: "INT7", number: 8 },
];

/// A processor family, and what building and simulating for it needs.
#[derive(Debug, Clone, Copy)]
pub enum Arch {
    /// 8-bit AVR, built with nightly's `build-std` and avr-device, run in simavr.
    Avr(Avr),
    /// Cortex-M, built against cortex-m-rt's linker script, run in qemu-system-arm.
    CortexM(CortexM),
}

#[derive(Debug, Clone, Copy)]
pub struct Avr {
    /// `-C target-cpu` for rustc.
    pub target_cpu: &'static str,
    /// avr-device's name for the chip: its cargo feature and its interrupt macro's argument.
    pub device: &'static str,
    /// Name of the MCU for simavr.
    pub simavr: &'static str,
    /// avrdude's part number for the chip (`-p`), which `gamec flash` programs.
    pub avrdude: &'static str,
    /// Bytes of the stack pointer: 1 where RAM ends below address 256 (SPL alone), else 2.
    pub sp_bytes: u8,
    /// Whether the chip multiplies in hardware (`mul`, `muls`): the ATmegas, not the ATtinys.
    pub multiplies: bool,
}

/// Where a Cortex-M chip's memories are, for the linker's `memory.x`.
#[derive(Debug, Clone, Copy)]
pub struct CortexM {
    pub flash_origin: u32,
    pub ram_origin: u32,
    /// probe-rs's name for the chip, which `gamec flash` programs through a debug probe; none
    /// where probe-rs has no target for it.
    pub probe_rs: Option<&'static str>,
    /// Where probe-rs has none, the OpenOCD configuration files (`-f`) that program the chip
    /// through its board's probe.
    pub openocd: Option<&'static [&'static str]>,
    /// Where the glue sets the clock from a PLL, the PLL's output: a board's clock must be it
    /// over a divider of 4 to 16. None where the glue leaves the clock as reset leaves it.
    pub pll_hz: Option<u32>,
    /// The machine of qemu-system-arm that runs the chip's image, for `gamec play` and the
    /// tests; none where no simulator does.
    pub sim: Option<Qemu>,
}

/// A machine of qemu-system-arm, and what of a chip it models.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Qemu {
    /// The machine's name, `-M`'s argument.
    pub machine: &'static str,
    /// The end of the SRAM the machine maps at the chip's RAM origin. A chip with more RAM
    /// runs there with only its image's initial stack pointer moved down to it, in a copy
    /// of the image (`driver::sim_image`), where its static RAM and the stack's bound from
    /// the build fit below.
    pub ram_top: u32,
    /// Whether gamec talks to the firmware's serial ports there (a serial game's line, a game
    /// of cards' console and scanner): the STM32F4's USARTs at their addresses and interrupts
    /// (the AT32F437's too), the LM3S6965's UARTs.
    pub usarts: bool,
    /// The number of the serial port QEMU's first `-serial` is: USART1 on the STM32F405,
    /// UART0 on the LM3S6965; the next `-serial` is the next number.
    pub first_serial: usize,
    /// How the machine models the chip's GPIO ports, where gamec plays buttons and lights or
    /// a cursor's matrix and encoders there: set through qtest and read from QEMU's trace
    /// (`sim::cortex`).
    pub pins: Option<PinModel>,
}

/// A model of a chip's GPIO ports in QEMU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PinModel {
    /// The LM3S6965's PL061 ports, as QEMU ships them, with its general-purpose timers.
    Pl061,
    /// The STM32F4's ports (the AT32F437's too), which QEMU 7.2 leaves unimplemented: gamec
    /// builds its own qemu-system-arm with a model of them (`cargo xtask setup`, from
    /// `xtask/qemu/`), with timers 2 to 5 as QEMU ships them.
    Stm32f4,
}

/// QEMU's `netduinoplus2`, an STM32F405 with its 128 KB of SRAM (the 64 KB of CCM apart).
const NETDUINOPLUS2: Qemu = Qemu {
    machine: "netduinoplus2",
    ram_top: 0x2000_0000 + 128 * 1024,
    usarts: true,
    first_serial: 1,
    pins: Some(PinModel::Stm32f4),
};

/// A hardware serial port: the name boards give it, the glue's name for it, its
/// receive interrupt's vector, and the RX and TX pins it claims where the board checks pins.
#[derive(Debug, Clone, Copy)]
pub struct SerialPort {
    pub name: &'static str,
    pub glue: &'static str,
    pub vector: &'static str,
    pub pins: Option<((char, u8), (char, u8))>,
}

const AVR_PRESCALERS: &[u32] = &[1, 8, 64, 256, 1024];

pub const CHIPS: &[Chip] = &[ATTINY84A, ATTINY24A, ATMEGA16, ATMEGA64, ATMEGA128, STM32F405, AT32F437, LM3S6965];

const ATTINY84A: Chip = Chip {
    name: "attiny84a",
    rust_target: "avr-none",
    runtime_feature: "attiny84a",
    flash: 8192,
    ram: 512,
    ports: &[('A', 0xFF), ('B', 0x0F)],
    reserved: &[('B', 3, "RESET")],
    timers: &[
        Timer {
            name: "timer0",
            bits: 8,
            prescalers: AVR_PRESCALERS,
            outputs: &[('A', 'B', 2), ('B', 'A', 7)],
            any_pin: false,
        },
        Timer {
            name: "timer1",
            bits: 16,
            prescalers: AVR_PRESCALERS,
            outputs: &[('A', 'A', 6), ('B', 'A', 5)],
            any_pin: false,
        },
    ],
    // The glue's tick is Timer/Counter0's, its top a byte: a display on timer1 got timer0
    // programmed with its top cut to a byte, and a handler on an interrupt never enabled.
    tick_vectors: &[("timer0", "TIM0_COMPA")],
    session_tick: &[],
    tone_vectors: &[],
    wake_pins: &[
        WakePin { port: 'A', mask: 0xFF, vector: "PCINT0", number: 2 },
        WakePin { port: 'B', mask: 0x0F, vector: "PCINT1", number: 3 },
    ],
    tone_in_type: false,
    arch: Arch::Avr(Avr {
        target_cpu: "attiny84a",
        device: "attiny84a",
        simavr: "attiny84",
        avrdude: "t84",
        sp_bytes: 2,
        multiplies: false,
    }),
    serial_ports: &[],
};

/// The ATtiny84A's smallest sibling: the same pins, registers and vectors, so the runtime's
/// `attiny84a` glue and avr-device's `attiny84a` register crate serve it, with a quarter of
/// the memories. rustc and the linker know it as itself; simavr as the ATtiny24. Its RAM ends
/// below address 256: SP is SPL alone.
const ATTINY24A: Chip = Chip {
    name: "attiny24a",
    flash: 2048,
    ram: 128,
    arch: Arch::Avr(Avr {
        target_cpu: "attiny24a",
        device: "attiny84a",
        simavr: "attiny24",
        avrdude: "t24",
        sp_bytes: 1,
        multiplies: false,
    }),
    ..ATTINY84A
};

const ATMEGA16: Chip = Chip {
    name: "atmega16",
    rust_target: "avr-none",
    runtime_feature: "atmega16",
    flash: 16384,
    ram: 1024,
    ports: &[('A', 0xFF), ('B', 0xFF), ('C', 0xFF), ('D', 0xFF)],
    // RESET and the crystal have pins of their own.
    reserved: &[],
    timers: &[
        Timer { name: "timer0", bits: 8, prescalers: AVR_PRESCALERS, outputs: &[('A', 'B', 3)], any_pin: false },
        Timer {
            name: "timer1",
            bits: 16,
            prescalers: AVR_PRESCALERS,
            outputs: &[('A', 'D', 5), ('B', 'D', 4)],
            any_pin: false,
        },
        Timer {
            name: "timer2",
            bits: 8,
            prescalers: &[1, 8, 32, 64, 128, 256, 1024],
            outputs: &[('A', 'D', 7)],
            any_pin: false,
        },
    ],
    // The buttons' glue ticks on Timer/Counter0, the serial session's on Timer/Counter1.
    tick_vectors: &[("timer0", "TIMER0_COMP")],
    session_tick: &[("timer1", "TIMER1_COMPA")],
    tone_vectors: &[],
    // INT0 and INT1 (INT2, edge-triggered only, is left out).
    wake_pins: &[
        WakePin { port: 'D', mask: 1 << 2, vector: "INT0", number: 1 },
        WakePin { port: 'D', mask: 1 << 3, vector: "INT1", number: 2 },
    ],
    tone_in_type: true,
    arch: Arch::Avr(Avr {
        target_cpu: "atmega16",
        device: "atmega16",
        simavr: "atmega16",
        avrdude: "m16",
        sp_bytes: 2,
        multiplies: true,
    }),
    serial_ports: &[SerialPort { name: "usart", glue: "Usart", vector: "USART_RXC", pins: Some((('D', 0), ('D', 1))) }],
};

/// The ATmega64 and the ATmega128 share pins, timers and register map; the 128 has twice the
/// flash, and simavr runs it (not the 64).
const ATMEGA64: Chip = Chip {
    name: "atmega64",
    rust_target: "avr-none",
    runtime_feature: "atmega64",
    flash: 65536,
    ram: 4096,
    ports: &[('A', 0xFF), ('B', 0xFF), ('C', 0xFF), ('D', 0xFF), ('E', 0xFF), ('F', 0xFF), ('G', 0x1F)],
    reserved: &[],
    timers: MEGA64_TIMERS,
    // The runtime's glue for these chips ticks on Timer/Counter0.
    tick_vectors: &[("timer0", "TIMER0_COMP")],
    session_tick: &[("timer0", "TIMER0_COMP")],
    tone_vectors: &[],
    wake_pins: MEGA64_WAKE_PINS,
    tone_in_type: true,
    arch: Arch::Avr(Avr {
        target_cpu: "atmega64",
        device: "atmega64",
        // simavr has no ATmega64: its image runs on simavr's ATmega128, whose registers,
        // vectors and 4 KB of RAM are the ATmega64's (only its flash is twice as large).
        simavr: "atmega128",
        avrdude: "m64",
        sp_bytes: 2,
        multiplies: true,
    }),
    // RXD0 and TXD0 on port E.
    serial_ports: &[SerialPort {
        name: "usart0",
        glue: "Usart",
        vector: "USART0_RX",
        pins: Some((('E', 0), ('E', 1))),
    }],
};

const ATMEGA128: Chip = Chip {
    name: "atmega128",
    runtime_feature: "atmega128",
    flash: 131072,
    arch: Arch::Avr(Avr {
        target_cpu: "atmega128",
        device: "atmega128a",
        simavr: "atmega128",
        avrdude: "m128",
        sp_bytes: 2,
        multiplies: true,
    }),
    ..ATMEGA64
};

/// The STM32F4's timers as the pins' glue drives them (the AT32F437's are the same): SysTick
/// for the tick, and timers 2 to 5 each toggling a tone's pin from its update interrupt, its
/// prescaler a power of two the glue sets.
const STM32F4_PRESCALERS: &[u32] = &[1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768];
const STM32F4_TIMERS: &[Timer] = &[
    lm3s_timer("systick", false),
    Timer { name: "timer2", bits: 16, prescalers: STM32F4_PRESCALERS, outputs: &[], any_pin: true },
    Timer { name: "timer3", bits: 16, prescalers: STM32F4_PRESCALERS, outputs: &[], any_pin: true },
    Timer { name: "timer4", bits: 16, prescalers: STM32F4_PRESCALERS, outputs: &[], any_pin: true },
    Timer { name: "timer5", bits: 16, prescalers: STM32F4_PRESCALERS, outputs: &[], any_pin: true },
];

/// Pins 0 to 7 of each of `ports` as the STM32F4's external interrupt lines wake the chip:
/// lines 0 to 4 each with its own interrupt, 5 to 7 sharing one, by the names the chip's
/// register crate gives them.
macro_rules! exti_wake_pins {
    ([$($port:literal),*], $l0:literal, $l1:literal, $l2:literal, $l3:literal, $l4:literal, $l5_9:literal) => {
        &[$(
            WakePin { port: $port, mask: 1 << 0, vector: $l0, number: 6 },
            WakePin { port: $port, mask: 1 << 1, vector: $l1, number: 7 },
            WakePin { port: $port, mask: 1 << 2, vector: $l2, number: 8 },
            WakePin { port: $port, mask: 1 << 3, vector: $l3, number: 9 },
            WakePin { port: $port, mask: 1 << 4, vector: $l4, number: 10 },
            WakePin { port: $port, mask: 0xE0, vector: $l5_9, number: 23 },
        )*]
    };
}

/// The STM32F405RG (the 64-pin package of the Netduino Plus 2) that qemu-system-arm's
/// netduinoplus2 machine emulates, at the 168 MHz it runs. Its ports A to C have all eight of
/// the pins a port has in gamec (bits 0 to 7), D only PD2. Its USART1 sits where the
/// AT32F437's does.
const STM32F405: Chip = Chip {
    name: "stm32f405",
    rust_target: "thumbv7em-none-eabihf",
    runtime_feature: "stm32f405",
    flash: 1024 * 1024,
    ram: 128 * 1024,
    ports: &[('A', 0xFF), ('B', 0xFF), ('C', 0xFF), ('D', 0x04)],
    reserved: &[],
    timers: STM32F4_TIMERS,
    tick_vectors: &[("systick", "SysTick")],
    session_tick: &[],
    tone_vectors: &[("timer2", "TIM2"), ("timer3", "TIM3"), ("timer4", "TIM4"), ("timer5", "TIM5")],
    wake_pins: exti_wake_pins!(['A', 'B', 'C', 'D'], "EXTI0", "EXTI1", "EXTI2", "EXTI3", "EXTI4", "EXTI9_5"),
    tone_in_type: false,
    arch: Arch::CortexM(CortexM {
        flash_origin: 0x0800_0000,
        ram_origin: 0x2000_0000,
        probe_rs: Some("STM32F405RGTx"),
        openocd: None,
        pll_hz: None,
        sim: Some(NETDUINOPLUS2),
    }),
    serial_ports: &[
        SerialPort { name: "usart1", glue: "Usart1", vector: "USART1", pins: None },
        SerialPort { name: "usart2", glue: "Usart2", vector: "USART2", pins: Some((('A', 3), ('A', 2))) },
        SerialPort { name: "usart3", glue: "Usart3", vector: "USART3", pins: None },
        SerialPort { name: "usart6", glue: "Usart6", vector: "USART6", pins: Some((('C', 7), ('C', 6))) },
    ],
};

/// The AT32F437ZM of Artery's AT-START-F437 board: 4032 KB of flash, 384 KB of SRAM as it
/// ships (the option byte EOPB0 can trade flash's zero-wait area for more), ports A to G in
/// its 144 pins (PH0 and PH1 are the crystal's). No simulator models it, but its USARTs,
/// ports, timers 2 to 5 and external interrupts have the STM32F4's registers at the same
/// addresses and interrupts, and its glue leaves the clocks as reset leaves them: its image
/// runs on QEMU's STM32F405, its stack moved into the 128 KB that machine maps.
const AT32F437: Chip = Chip {
    name: "at32f437",
    runtime_feature: "at32f437",
    flash: 4032 * 1024,
    ram: 384 * 1024,
    ports: &[('A', 0xFF), ('B', 0xFF), ('C', 0xFF), ('D', 0xFF), ('E', 0xFF), ('F', 0xFF), ('G', 0xFF)],
    tone_vectors: &[("timer2", "TMR2"), ("timer3", "TMR3"), ("timer4", "TMR4"), ("timer5", "TMR5")],
    wake_pins: exti_wake_pins!(
        ['A', 'B', 'C', 'D', 'E', 'F', 'G'],
        "EXINT0",
        "EXINT1",
        "EXINT2",
        "EXINT3",
        "EXINT4",
        "EXINT9_5"
    ),
    serial_ports: &[
        SerialPort { name: "usart1", glue: "Usart1", vector: "USART1", pins: None },
        SerialPort { name: "usart2", glue: "Usart2", vector: "USART2", pins: None },
        SerialPort { name: "usart3", glue: "Usart3", vector: "USART3", pins: None },
    ],
    // probe-rs knows no AT32F437, nor does mainline OpenOCD: Artery's OpenOCD does, through
    // the AT-START board's own AT-Link.
    arch: Arch::CortexM(CortexM {
        flash_origin: 0x0800_0000,
        ram_origin: 0x2000_0000,
        probe_rs: None,
        openocd: Some(&["interface/atlink.cfg", "target/at32f437xx.cfg"]),
        pll_hz: None,
        sim: Some(NETDUINOPLUS2),
    }),
    ..STM32F405
};

/// The LM3S6965's timers as its glue drives them: SysTick for the tick, and the four
/// general-purpose timers in their 32-bit periodic mode, a tone's pin toggled by the
/// interrupt. Each counts `(top + 1) * prescaler` clocks, the prescaler a power of two the
/// glue multiplies in.
const LM3S_PRESCALERS: &[u32] = &[1, 2, 4, 8, 16, 32, 64, 128, 256];
const fn lm3s_timer(name: &'static str, any_pin: bool) -> Timer {
    Timer { name, bits: 16, prescalers: LM3S_PRESCALERS, outputs: &[], any_pin }
}

/// A GPIO port's interrupt, which wakes the chip on an edge of any of its pins.
const fn lm3s_wake(port: char, mask: u8, vector: &'static str, number: u8) -> WakePin {
    WakePin { port, mask, vector, number }
}

/// The LM3S6965 (Cortex-M3) of TI's EK-LM3S6965 board, which QEMU models as `lm3s6965evb`:
/// 256 KB of flash, 64 KB of SRAM, run at up to 50 MHz from the PLL and the board's 8 MHz
/// crystal. Its glue serves buttons and lights, and a cursor on a bicolour matrix.
const LM3S6965: Chip = Chip {
    name: "lm3s6965",
    rust_target: "thumbv7m-none-eabi",
    runtime_feature: "lm3s6965",
    flash: 256 * 1024,
    ram: 64 * 1024,
    // The 100-pin package: ports A-D whole, E and F four pins each, G two.
    ports: &[('A', 0xFF), ('B', 0xFF), ('C', 0xFF), ('D', 0xFF), ('E', 0x0F), ('F', 0x0F), ('G', 0x03)],
    reserved: &[('B', 7, "TRST"), ('C', 0, "TCK"), ('C', 1, "TMS"), ('C', 2, "TDI"), ('C', 3, "TDO")],
    timers: &[
        lm3s_timer("systick", false),
        lm3s_timer("timer0", true),
        lm3s_timer("timer1", true),
        lm3s_timer("timer2", true),
        lm3s_timer("timer3", true),
    ],
    tick_vectors: &[("systick", "SysTick")],
    session_tick: &[],
    tone_vectors: &[("timer0", "TIMER_0A"), ("timer1", "TIMER_1A"), ("timer2", "TIMER_2A"), ("timer3", "TIMER_3A")],
    wake_pins: &[
        lm3s_wake('A', 0xFF, "GPIOA", 0),
        lm3s_wake('B', 0xFF, "GPIOB", 1),
        lm3s_wake('C', 0xFF, "GPIOC", 2),
        lm3s_wake('D', 0xFF, "GPIOD", 3),
        lm3s_wake('E', 0x0F, "GPIOE", 4),
        lm3s_wake('F', 0x0F, "GPIOF", 30),
        lm3s_wake('G', 0x03, "GPIOG", 31),
    ],
    tone_in_type: false,
    arch: Arch::CortexM(CortexM {
        flash_origin: 0x0000_0000,
        ram_origin: 0x2000_0000,
        // probe-rs has no Stellaris target; OpenOCD's board file for the EK-LM3S6965 programs
        // it through the board's own debug interface.
        probe_rs: None,
        openocd: Some(&["board/ek-lm3s6965.cfg"]),
        pll_hz: Some(200_000_000),
        sim: Some(Qemu {
            machine: "lm3s6965evb",
            ram_top: 0x2000_0000 + 64 * 1024,
            usarts: true,
            first_serial: 0,
            pins: Some(PinModel::Pl061),
        }),
    }),
    // Its three PL011 UARTs, each with its receive and transmit pins.
    serial_ports: &[
        SerialPort { name: "uart0", glue: "Uart0", vector: "UART0", pins: Some((('A', 0), ('A', 1))) },
        SerialPort { name: "uart1", glue: "Uart1", vector: "UART1", pins: Some((('D', 2), ('D', 3))) },
        SerialPort { name: "uart2", glue: "Uart2", vector: "UART2", pins: Some((('G', 0), ('G', 1))) },
    ],
};

const MEGA64_TIMERS: &[Timer] = &[
    // Timer/Counter0 is the asynchronous one, with its own prescaler steps.
    Timer {
        name: "timer0",
        bits: 8,
        prescalers: &[1, 8, 32, 64, 128, 256, 1024],
        outputs: &[('A', 'B', 4)],
        any_pin: false,
    },
    Timer {
        name: "timer1",
        bits: 16,
        prescalers: AVR_PRESCALERS,
        outputs: &[('A', 'B', 5), ('B', 'B', 6), ('C', 'B', 7)],
        any_pin: false,
    },
    Timer { name: "timer2", bits: 8, prescalers: AVR_PRESCALERS, outputs: &[('A', 'B', 7)], any_pin: false },
    Timer {
        name: "timer3",
        bits: 16,
        prescalers: AVR_PRESCALERS,
        outputs: &[('A', 'E', 3), ('B', 'E', 4), ('C', 'E', 5)],
        any_pin: false,
    },
];

pub fn find(name: &str) -> Option<&'static Chip> {
    CHIPS.iter().find(|c| c.name == name)
}

impl Chip {
    pub fn has_pin(&self, port: char, bit: u8) -> bool {
        self.ports.iter().any(|&(p, bits)| p == port && bits & (1 << bit) != 0)
    }
    pub fn serial_port(&self, name: &str) -> Option<&'static SerialPort> {
        self.serial_ports.iter().find(|p| p.name == name)
    }
    pub fn timer(&self, name: &str) -> Option<&'static Timer> {
        self.timers.iter().find(|t| t.name == name)
    }
    /// The AVR chip's build and simulator names: only AVR chips serve the frontends that
    /// ask (buttons, serial games, the cursor), as `frontends` says.
    pub fn avr(&self) -> &Avr {
        match &self.arch {
            Arch::Avr(avr) => avr,
            Arch::CortexM(_) => panic!("{} is no AVR chip", self.name),
        }
    }
    /// The QEMU machine that runs a Cortex-M chip's image, if one does.
    pub fn qemu(&self) -> Option<Qemu> {
        match self.arch {
            Arch::CortexM(m) => m.sim,
            Arch::Avr(_) => None,
        }
    }
}

/// The clock-select value and compare value giving the frequency nearest `hz` for a timer
/// that counts `top + 1` prescaled clocks per period, and the frequency it really gives.
pub fn nearest_divisor(clock_hz: u32, timer: &Timer, hz: f64, per_period: f64) -> Option<(u8, u16, f64)> {
    let max_top = (1u64 << timer.bits) - 1;
    let mut best: Option<(u8, u16, f64)> = None;
    for (i, &pre) in timer.prescalers.iter().enumerate() {
        let counts = clock_hz as f64 / (pre as f64 * per_period * hz);
        let top = counts.round() - 1.0;
        if top < 1.0 || top > max_top as f64 {
            continue;
        }
        let actual = clock_hz as f64 / (pre as f64 * per_period * (top + 1.0));
        let better = best.is_none_or(|(_, _, b)| (actual / hz).ln().abs() < (b / hz).ln().abs());
        if better {
            best = Some((i as u8 + 1, top as u16, actual));
        }
    }
    best
}

/// How far a tick of `prescaler * (top + 1)` clocks advances a millisecond count: whole
/// milliseconds and a fraction `num / den` of one (`den` at most 32768, the runtime's limit),
/// exact where the clock allows and otherwise within 1/65536 of a millisecond a tick.
pub fn millis_per_tick(clock_hz: u32, prescaler: u32, top: u16) -> (u16, u16, u16) {
    const MAX_DEN: u64 = 1 << 15;
    // Milliseconds a tick = clocks a tick * 1000 / clocks a second.
    let (per_tick, clock) = (prescaler as u64 * (top as u64 + 1) * 1000, clock_hz.max(1) as u64);
    let whole = per_tick / clock;
    let rem = per_tick % clock;
    let g = gcd(rem, clock);
    let (mut num, mut den) = (rem / g, clock / g);
    if den > MAX_DEN {
        num = (rem * MAX_DEN + clock / 2) / clock;
        den = MAX_DEN;
    }
    if num == den {
        return ((whole + 1).min(u16::MAX as u64) as u16, 0, 1);
    }
    if num == 0 {
        den = 1;
    }
    (whole.min(u16::MAX as u64) as u16, num as u16, den as u16)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

/// The baud-rate register value for `baud`, with double speed if that is closer, and the
/// relative error of the rate it really gives.
pub fn baud_divisor(clock_hz: u32, baud: u32) -> (u16, bool, f64) {
    let rate = |div: f64| {
        let ubrr = ((clock_hz as f64 / (div * baud as f64)).round() - 1.0).clamp(0.0, 4095.0);
        let actual = clock_hz as f64 / (div * (ubrr + 1.0));
        (ubrr as u16, (actual / baud as f64 - 1.0).abs())
    };
    let (normal, e1) = rate(16.0);
    let (double, e2) = rate(8.0);
    if e2 < e1 {
        (double, true, e2)
    } else {
        (normal, false, e1)
    }
}

/// A Cortex-M USART's BRR for `baud` from `clock_hz` (16 times oversampled: the clock over
/// the rate, its fraction in the low four bits), and how far off the rate it gives is.
pub fn usart_brr(clock_hz: u32, baud: u32) -> (u16, f64) {
    let divisor = (clock_hz as f64 / baud as f64).round().clamp(16.0, 65535.0);
    (divisor as u16, (clock_hz as f64 / divisor / baud as f64 - 1.0).abs())
}

/// The distance between two frequencies in cents.
pub fn cents(actual: f64, wanted: f64) -> f64 {
    1200.0 * (actual / wanted).log2()
}

#[cfg(test)]
mod tests {
    use super::millis_per_tick;

    #[test]
    fn ticks_advance_the_millisecond_count_by_their_length() {
        // 8 MHz, /64: 125 counts are 1 ms (1000 Hz), 250 are 2 ms (500 Hz).
        assert_eq!(millis_per_tick(8_000_000, 64, 124), (1, 0, 1));
        assert_eq!(millis_per_tick(8_000_000, 64, 249), (2, 0, 1));
        // About 2 kHz (62 counts, 0.496 ms) and 300 Hz (417 counts, 3.336 ms).
        assert_eq!(millis_per_tick(8_000_000, 64, 61), (0, 62, 125));
        assert_eq!(millis_per_tick(8_000_000, 64, 416), (3, 42, 125));
        // A crystal's odd clock still divides exactly: 7360 clocks of 7.3728 MHz.
        assert_eq!(millis_per_tick(7_372_800, 64, 114), (0, 575, 576));
        // A clock sharing no factor with the tick: the fraction is rounded to 1/32768.
        let (whole, num, den) = millis_per_tick(1_000_003, 8, 61);
        let exact = 8.0 * 62.0 * 1000.0 / 1_000_003.0;
        assert_eq!(den, 32768);
        assert!((whole as f64 + num as f64 / den as f64 - exact).abs() < 1.0 / 65536.0);
    }
}

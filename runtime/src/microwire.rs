//! A 93C46 serial EEPROM in its 8-bit organisation (128 bytes): read over Microwire, a start
//! bit, the READ opcode and a 7-bit address clocked in on DI, then data clocked out on DO, the
//! address advancing by itself for as long as chip select stays high.

use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{InputPin, OutputPin};

/// How the driver reaches the chip's four lines. A board's generated code writes its ports
/// directly, the pin layout known when it is compiled; [`Pins`] drives embedded-hal pins.
pub trait Wires {
    /// Chip select (CS) high or low.
    fn select(&mut self, high: bool);
    /// The clock (SK) high or low.
    fn clock(&mut self, high: bool);
    /// The data into the chip (DI) high or low.
    fn data(&mut self, high: bool);
    /// The data out of the chip (DO).
    fn out(&mut self) -> bool;
    /// Half a clock period: the 93C46 runs at up to 1 MHz at 5 V, so 1 µs is safe at any
    /// clock.
    fn half_period(&mut self);
}

/// The four lines on embedded-hal pins, and a delay for the clock's half-periods.
pub struct Pins<Cs, Sk, Di, Do, D> {
    pub cs: Cs,
    pub sk: Sk,
    pub di: Di,
    pub dout: Do,
    pub delay: D,
}

/// Half a clock period on [`Pins`]' delay.
const HALF_PERIOD_NS: u32 = 1_000;

impl<Cs: OutputPin, Sk: OutputPin, Di: OutputPin, Do: InputPin, D: DelayNs> Wires for Pins<Cs, Sk, Di, Do, D> {
    fn select(&mut self, high: bool) {
        let _ = if high { self.cs.set_high() } else { self.cs.set_low() };
    }
    fn clock(&mut self, high: bool) {
        let _ = if high { self.sk.set_high() } else { self.sk.set_low() };
    }
    fn data(&mut self, high: bool) {
        let _ = if high { self.di.set_high() } else { self.di.set_low() };
    }
    fn out(&mut self) -> bool {
        self.dout.is_high().unwrap_or(false)
    }
    fn half_period(&mut self) {
        self.delay.delay_ns(HALF_PERIOD_NS);
    }
}

/// The chip on its [`Wires`].
pub struct Eeprom93c46<W> {
    pub wires: W,
}

impl<W: Wires> Eeprom93c46<W> {
    fn clock(&mut self) {
        self.wires.half_period();
        self.wires.clock(true);
        self.wires.half_period();
        self.wires.clock(false);
    }

    fn send(&mut self, bits: u16, count: u8) {
        // A mask stepped down a bit at a time: a shift by a variable count is a loop on AVR.
        let mut mask = 1u16 << (count - 1);
        while mask != 0 {
            self.wires.data(bits & mask != 0);
            self.clock();
            mask >>= 1;
        }
    }

    /// Reads `out.len()` bytes from `address` on.
    pub fn read(&mut self, address: u8, out: &mut [u8]) {
        self.read_each(address, out.len() as u8, |k, b| out[k as usize] = b);
    }

    /// Reads `count` bytes from `address` on, handing each to `take` with its place in the
    /// run as it comes: a caller that spreads the bytes needs no buffer for them.
    pub fn read_each(&mut self, address: u8, count: u8, mut take: impl FnMut(u8, u8)) {
        self.wires.clock(false);
        self.wires.select(true);
        // Start bit 1, opcode 10, seven address bits. A dummy 0 bit precedes the data.
        self.send(0b110 << 7 | (address as u16 & 0x7F), 10);
        self.wires.data(false);
        for k in 0..count {
            // A marker bit shifted up ahead of the data: the eighth bit is in when it leaves,
            // no counter kept beside the byte.
            let mut b = 1u8;
            loop {
                self.clock();
                let last = b & 0x80 != 0;
                b = b << 1 | self.wires.out() as u8;
                if last {
                    break;
                }
            }
            take(k, b);
        }
        self.wires.select(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cell::RefCell;
    use core::convert::Infallible;

    /// The chip, as the datasheet describes it, reacting to its pins.
    struct Chip {
        memory: [u8; 128],
        cs: bool,
        sk: bool,
        di: bool,
        dout: bool,
        shift: u16,
        bits: u8,
        reading: Option<(u8, u8)>,
    }

    impl Chip {
        fn edge(&mut self) {
            // Rising clock: shift DI in while receiving, or move to the next data bit.
            if let Some((addr, bit)) = self.reading {
                let next = if bit == 7 { ((addr + 1) & 0x7F, 0) } else { (addr, bit + 1) };
                self.dout = self.memory[next.0 as usize] >> (7 - next.1) & 1 != 0;
                self.reading = Some(next);
                return;
            }
            self.shift = self.shift << 1 | self.di as u16;
            self.bits += 1;
            if self.bits == 10 {
                assert_eq!(self.shift >> 7, 0b110, "start bit and READ");
                let addr = (self.shift & 0x7F) as u8;
                // The dummy zero, then the first data bit on the next rising edge.
                self.dout = false;
                self.reading = Some((addr.wrapping_sub(1) & 0x7F, 7));
            }
        }
    }

    struct Pin<'a>(&'a RefCell<Chip>, u8);
    impl embedded_hal::digital::ErrorType for Pin<'_> {
        type Error = Infallible;
    }
    impl OutputPin for Pin<'_> {
        fn set_low(&mut self) -> Result<(), Infallible> {
            self.set(false);
            Ok(())
        }
        fn set_high(&mut self) -> Result<(), Infallible> {
            self.set(true);
            Ok(())
        }
    }
    impl Pin<'_> {
        fn set(&mut self, level: bool) {
            let mut c = self.0.borrow_mut();
            match self.1 {
                0 => {
                    c.cs = level;
                    if !level {
                        (c.shift, c.bits, c.reading) = (0, 0, None);
                    }
                }
                1 => {
                    let rising = level && !c.sk;
                    c.sk = level;
                    if rising && c.cs {
                        c.edge();
                    }
                }
                _ => c.di = level,
            }
        }
    }
    impl InputPin for Pin<'_> {
        fn is_high(&mut self) -> Result<bool, Infallible> {
            Ok(self.0.borrow().dout)
        }
        fn is_low(&mut self) -> Result<bool, Infallible> {
            Ok(!self.0.borrow().dout)
        }
    }
    struct NoDelay;
    impl DelayNs for NoDelay {
        fn delay_ns(&mut self, _: u32) {}
    }

    #[test]
    fn reads_bytes_in_sequence_from_any_address() {
        let mut memory = [0u8; 128];
        for (i, m) in memory.iter_mut().enumerate() {
            *m = (i as u8).wrapping_mul(37) ^ 0x5A;
        }
        let chip = RefCell::new(Chip {
            memory,
            cs: false,
            sk: false,
            di: false,
            dout: false,
            shift: 0,
            bits: 0,
            reading: None,
        });
        let mut e = Eeprom93c46 {
            wires: Pins {
                cs: Pin(&chip, 0),
                sk: Pin(&chip, 1),
                di: Pin(&chip, 2),
                dout: Pin(&chip, 3),
                delay: NoDelay,
            },
        };
        let mut out = [0u8; 16];
        e.read(32, &mut out);
        assert_eq!(out[..], memory[32..48]);
        e.read(120, &mut out);
        assert_eq!(out[..8], memory[120..]);
        assert_eq!(out[8..], memory[..8], "the address wraps");
    }
}

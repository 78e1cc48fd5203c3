//! A 93C46 EEPROM beside the simulated chip, answering on its pins as its datasheet says (a
//! cursor board keeps its puzzle setups in one).

/// A 93C46 in its 8-bit organisation, READ only (the firmware never writes it).
pub struct Eeprom93c46 {
    pub memory: Vec<u8>,
    /// Chip select, clock and data in (pins the AVR drives), and data out (a pin it reads).
    pub cs: (char, u8),
    pub sk: (char, u8),
    pub di: (char, u8),
    pub dout: (char, u8),
    sk_was: bool,
    shift: u16,
    bits: u8,
    /// While reading: the address, and the next bit to shift out (0 is the top bit).
    reading: Option<(u8, u8)>,
    level: bool,
    /// Whole bytes shifted out, for the test to see the firmware read the chip.
    pub bytes_read: usize,
}

impl Eeprom93c46 {
    pub fn new(memory: Vec<u8>, cs: (char, u8), sk: (char, u8), di: (char, u8), dout: (char, u8)) -> Self {
        let none = None;
        Eeprom93c46 {
            memory,
            cs,
            sk,
            di,
            dout,
            sk_was: false,
            shift: 0,
            bits: 0,
            reading: none,
            level: true,
            bytes_read: 0,
        }
    }

    /// Sees the pins the chip drives after an instruction; returns the level of DO.
    pub fn observe(&mut self, cs: bool, sk: bool, di: bool) -> bool {
        let rising = sk && !self.sk_was;
        self.sk_was = sk;
        if !cs {
            (self.shift, self.bits, self.reading, self.level) = (0, 0, None, true);
            return self.level;
        }
        if !rising {
            return self.level;
        }
        match self.reading {
            Some((addr, next)) => {
                self.level = self.memory.get(addr as usize).is_some_and(|b| b >> (7 - next) & 1 != 0);
                self.reading = Some(if next == 7 {
                    self.bytes_read += 1;
                    ((addr + 1) & 0x7F, 0)
                } else {
                    (addr, next + 1)
                });
            }
            // Zeros before the start bit do not count.
            None if self.bits == 0 && !di => {}
            None => {
                self.shift = self.shift << 1 | di as u16;
                self.bits += 1;
                if self.bits == 10 && self.shift >> 7 == 0b110 {
                    // READ: a dummy zero, then the data from the next rising edge on.
                    self.reading = Some(((self.shift & 0x7F) as u8, 0));
                    self.level = false;
                }
            }
        }
        self.level
    }
}

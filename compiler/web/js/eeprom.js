// A 93C46 serial EEPROM in its 8-bit organisation beside the simulated chip, answering READ
// on its pins as the datasheet says (a cursor board keeps its puzzle setups in one); the
// same model as gamec's simavr side (compiler/src/sim/eeprom.rs).

export class Eeprom93c46 {
  constructor(memory) {
    this.memory = memory;
    this.skWas = false;
    this.shift = 0;
    this.bits = 0;
    // While reading: [address, next bit to shift out (0 the top bit)].
    this.reading = null;
    this.level = true;
  }

  /** Sees the pins the chip drives; returns the level of DO. */
  observe(cs, sk, di) {
    const rising = sk && !this.skWas;
    this.skWas = sk;
    if (!cs) {
      this.shift = 0;
      this.bits = 0;
      this.reading = null;
      this.level = true;
      return this.level;
    }
    if (!rising) return this.level;
    if (this.reading) {
      const [addr, next] = this.reading;
      const byte = this.memory[addr] ?? 0;
      this.level = ((byte >> (7 - next)) & 1) === 1;
      this.reading = next === 7 ? [(addr + 1) & 0x7f, 0] : [addr, next + 1];
    } else if (this.bits > 0 || di) {
      // Zeros before the start bit do not count.
      this.shift = (this.shift << 1) | (di ? 1 : 0);
      this.bits += 1;
      if (this.bits === 10 && this.shift >> 7 === 0b110) {
        // READ: a dummy zero, then the data from the next rising edge on.
        this.reading = [this.shift & 0x7f, 0];
        this.level = false;
      }
    }
    return this.level;
  }
}

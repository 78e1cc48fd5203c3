// The simulated AVR: avr8js's CPU and peripherals wired by a chip's register map, with the
// glue a firmware built by gamec needs that avr8js leaves out: the one instruction an AVR
// runs after `sei`, `reti` or a write to SREG that sets I before it takes an interrupt (a
// handler taken between the two halves of a write to SP corrupts the stack), the `sleep`
// instruction (the core stops until an enabled interrupt is pending; the timers run on, as in
// simavr), and pins held at a level from outside (a released button reads high through its
// pull-up only while something holds it there: avr8js reads an undriven input as low).

import { CPU, avrInstruction, AVRIOPort, AVRTimer, AVRUSART, PinState } from '../vendor/avr8js/index.js';

const SREG = 95;
const I_FLAG = 0x80;
const SLEEP_OPCODE = 0x9588;
/** Spare bytes past the end of RAM, where registers that share an address are split apart. */
const SPARE = 8;

/** `PB3` as a port letter and a bit. */
export function parsePin(name) {
  return { port: name[1], bit: Number(name.slice(2)) };
}

export class Machine {
  /**
   * @param {object} map the chip's register map (chips.js)
   * @param {number} clockHz the board's clock
   * @param {Uint8Array} flash the program, as the chip's flash holds it
   */
  constructor(map, clockHz, flash) {
    this.clockHz = clockHz;
    const words = new Uint16Array(Math.max(flash.length, 2) >> 1);
    new Uint8Array(words.buffer).set(flash.subarray(0, words.length * 2));
    // avr8js's data space is 0x100 bytes of registers and I/O and then RAM; this chip's
    // ends at its RAMEND, and the spare bytes after it hold what split registers need.
    this.cpu = new CPU(words, map.ramEnd + 1 + SPARE - 0x100);
    this.cpu.SP = map.ramEnd;
    this.spare = map.ramEnd + 1;
    this.ports = {};
    for (const [letter, config] of Object.entries(map.ports)) {
      this.ports[letter] = new AVRIOPort(this.cpu, config);
    }
    this.timers = this.makeTimers(map.timers);
    this.usarts = {};
    for (const [name, config] of Object.entries(map.usarts)) {
      this.usarts[name] = this.makeUsart(config);
    }
    this.sleepRegister = map.sleep.register;
    this.sleepEnable = map.sleep.enable;
    this.sleeping = false;
  }

  /** A free data address past RAM, for a register the chip shares with another. */
  spareAddress() {
    return this.spare++;
  }

  makeTimers(configs) {
    const { cpu } = this;
    // Registers several timers share (TIMSK, TIFR on the ATmegas): every timer's hook runs.
    const shared = new Map();
    const timers = configs.map((config) => {
      let c = config;
      if (config.singleControl) {
        c = { ...config, TCCRA: this.spareAddress(), TCCRB: this.spareAddress() };
      }
      const before = [c.TIMSK, c.TIFR].map((r) => cpu.writeHooks[r]);
      const t = new AVRTimer(cpu, c);
      for (const r of [c.TIMSK, c.TIFR]) {
        if (!shared.has(r)) shared.set(r, []);
        shared.get(r).push(cpu.writeHooks[r]);
      }
      [c.TIMSK, c.TIFR].forEach((r, i) => { cpu.writeHooks[r] = before[i]; });
      if (config.singleControl) this.splitControl(config.singleControl, c.TCCRA, c.TCCRB);
      return t;
    });
    const flags = new Set(configs.map((c) => c.TIFR));
    for (const [register, hooks] of shared) {
      cpu.writeHooks[register] = (value, old, addr, mask) => {
        for (const h of hooks) h(value, old, addr, mask);
        if (!flags.has(register)) return false;
        // A flag is cleared by writing a one to it; avr8js would keep the value written.
        cpu.data[register] = old & ~value;
        return true;
      };
    }
    return timers;
  }

  /**
   * An 8-bit timer of one control register (FOC0, WGM00, COM01:0, WGM01, CS02:0), seen by
   * avr8js as the two of a newer chip's (COM0A and WGM01:0 in A; FOC0A and CS in B).
   */
  splitControl(real, a, b) {
    const { cpu } = this;
    cpu.writeHooks[real] = (value) => {
      cpu.data[real] = value & 0x7f;
      const wgm = ((value >> 3) & 1) << 1 | ((value >> 6) & 1);
      cpu.writeData(a, (((value >> 4) & 3) << 6) | wgm);
      cpu.writeData(b, (value & 0x80) | (value & 7));
      return true;
    };
  }

  makeUsart(config) {
    const { cpu } = this;
    if (config.sharedUbrrhUcsrc === undefined) {
      return new AVRUSART(cpu, config, this.clockHz);
    }
    // UBRRH and UCSRC at one address: URSEL (bit 7) written with the value says which.
    const c = { ...config, UCSRC: this.spareAddress(), UBRRH: this.spareAddress() };
    const usart = new AVRUSART(cpu, c, this.clockHz);
    cpu.writeHooks[config.sharedUbrrhUcsrc] = (value) => {
      cpu.writeData(value & 0x80 ? c.UCSRC : c.UBRRH, value & 0x7f);
      return true;
    };
    return usart;
  }

  get cycles() {
    return this.cpu.cycles;
  }

  msToCycles(ms) {
    return Math.round((ms * this.clockHz) / 1000);
  }

  /** Runs `fn` once `ms` of simulated time have passed. */
  after(ms, fn) {
    this.cpu.addClockEvent(fn, Math.max(1, this.msToCycles(ms)));
  }

  /** Holds an input pin at a level from outside (a button, an encoder's contact, a chip's output). */
  hold(pin, level) {
    this.ports[pin.port].setPin(pin.bit, level);
  }

  /** Whether the pin is an output, and the level it drives. */
  driven(pin) {
    const state = this.ports[pin.port].pinState(pin.bit);
    return { output: state === PinState.High || state === PinState.Low, high: state === PinState.High };
  }

  /** Calls `fn` after every change of what the port drives. */
  onPort(letter, fn) {
    this.ports[letter].addListener(fn);
  }

  /** Runs the chip until its cycle count reaches `end`. */
  runUntil(end) {
    const { cpu } = this;
    const { progMem, data } = cpu;
    while (cpu.cycles < end) {
      if (this.sleeping) {
        this.sleep(end);
        continue;
      }
      const sleeps = progMem[cpu.pc] === SLEEP_OPCODE;
      const before = data[SREG] & I_FLAG;
      avrInstruction(cpu);
      if (sleeps && data[this.sleepRegister] & this.sleepEnable) {
        this.sleeping = true;
      }
      if (!before && data[SREG] & I_FLAG) {
        // Interrupts were just enabled: the next instruction runs before any is taken.
        data[SREG] &= ~I_FLAG;
        cpu.tick();
        data[SREG] |= I_FLAG;
      } else {
        cpu.tick();
      }
    }
  }

  /** Asleep: time passes to the next timer event, until an enabled interrupt wakes the core. */
  sleep(end) {
    const { cpu } = this;
    if (!(cpu.interruptsEnabled && cpu.nextInterrupt >= 0)) {
      const next = cpu.nextClockEvent ? cpu.nextClockEvent.cycles : end;
      cpu.cycles = Math.max(cpu.cycles + 1, Math.min(next, end));
    }
    const pc = cpu.pc;
    cpu.tick();
    // Only an interrupt moves a sleeping core: it is awake.
    if (cpu.pc !== pc) this.sleeping = false;
  }
}

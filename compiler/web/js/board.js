// A person at the pins of the simulated chip, the page's counterpart of gamec's simavr side
// (compiler/src/sim/): holds buttons and turns encoders in simulated time, watches the
// charlieplexed LEDs, the bicolour matrix, the lamps and the speaker over windows of
// simulated time (an LED is shown lit when it was lit for part of the window, as an eye sees
// a multiplexed display), types on the serial line and reads what the chip sends back.
// Nothing here touches the page: view.js shows what a window saw.

import { parsePin } from './machine.js';
import { Eeprom93c46 } from './eeprom.js';

/** Simulated time a window covers: two scans of a 16-column matrix refreshed at 1 kHz. */
export const WINDOW_MS = 40;
/** The share of a window an LED must be lit for to be shown lit. */
const LIT_SHARE = 0.01;
/** How long a click holds a button down, then lets it go (past the runtime's 20 ms debounce). */
export const PRESS_MS = 50;

export class Board {
  constructor(target, machine) {
    this.target = target;
    this.m = machine;
    this.windowCycles = machine.msToCycles(WINDOW_MS);
    this.windowEnd = this.windowCycles;
    this.queue = [];
    this.busy = false;
    this.down = new Set();
    this.serialOut = () => {};
    /** Called as each window closes, `shown` already what it saw. */
    this.onWindow = () => {};
    this.rx = [];
    this.shown = { leds: [], matrix: [], lamps: [], hz: 0, sleeping: false };
    for (const pin of this.inputPins()) machine.hold(pin, true);
    this.watchDisplay();
    this.watchMatrix();
    this.watchSpeaker();
    this.watchSerial();
    this.watchEeprom();
  }

  /** Every pin a person drives: buttons and encoder contacts, released. */
  inputPins() {
    const t = this.target;
    const names = [...t.inputs, ...t.encoders.flatMap((e) => [e.a, e.b])];
    return names.map(parsePin);
  }

  get ms() {
    return (this.m.cycles * 1000) / this.m.clockHz;
  }

  /** Runs the chip to cycle `end`, closing each window it passes. */
  advance(end) {
    while (this.m.cycles < end) {
      this.m.runUntil(Math.min(end, this.windowEnd));
      if (this.m.cycles >= this.windowEnd) {
        this.closeWindow();
        this.windowEnd += this.windowCycles;
      }
    }
  }

  closeWindow() {
    const now = this.m.cycles;
    const span = this.windowCycles;
    const shown = { sleeping: this.m.sleeping };
    if (this.leds) {
      this.leds.credit(now);
      shown.leds = Array.from(this.leds.time, (t) => t / span >= LIT_SHARE);
      this.leds.reset();
    }
    if (this.cells) {
      this.cells.credit(now);
      shown.matrix = Array.from(this.cells.time, (t) => t / span >= LIT_SHARE);
      this.cells.reset();
    }
    shown.lamps = this.target.lamps.map((l) => {
      const d = this.m.driven(parsePin(l.pin));
      return d.output && d.high !== l.active_low;
    });
    shown.hz = this.speaker ? this.speaker.hz(now - span) : 0;
    this.shown = shown;
    this.onWindow();
  }

  /** Charlieplexed LEDs: lit while the anode drives high and the cathode low. */
  watchDisplay() {
    const d = this.target.display;
    if (!d) return;
    const pin = (bit) => ({ port: d.port, bit });
    const count = d.rows.reduce((n, r) => n + r.leds.length, 0);
    this.leds = new Lit(count, () => {
      const lit = [];
      for (const row of d.rows) {
        const c = this.m.driven(pin(row.cathode));
        if (!c.output || c.high) continue;
        for (const led of row.leds) {
          const a = this.m.driven(pin(led.anode));
          if (a.output && a.high) lit.push(led.cell);
        }
      }
      return lit;
    }, () => this.m.cycles);
    this.m.onPort(d.port, () => this.leds.change());
  }

  /**
   * The bicolour matrix: a column shows while its pin drives its active level, and its lit
   * rows drive high. Cell r * 8 + c in red, 64 + r * 8 + c in green.
   */
  watchMatrix() {
    const mx = this.target.matrix;
    if (!mx) return;
    const rows = mx.rows.map(parsePin);
    const colours = [mx.red.map(parsePin), mx.green.map(parsePin)];
    this.cells = new Lit(128, () => {
      const lit = [];
      const high = rows.map((r) => {
        const d = this.m.driven(r);
        return d.output && d.high;
      });
      colours.forEach((columns, colour) => columns.forEach((p, c) => {
        const d = this.m.driven(p);
        if (!d.output || d.high !== mx.active_high) return;
        high.forEach((h, r) => { if (h) lit.push(colour * 64 + r * 8 + c); });
      }));
      return lit;
    }, () => this.m.cycles);
    const ports = new Set([...rows, ...colours.flat()].map((p) => p.port));
    for (const port of ports) this.m.onPort(port, () => this.cells.change());
  }

  watchSpeaker() {
    if (!this.target.speaker) return;
    const pin = parsePin(this.target.speaker);
    this.speaker = new Pitch(this.m.clockHz);
    let level = false;
    this.m.onPort(pin.port, () => {
      const now = this.m.driven(pin).high;
      if (now !== level) {
        level = now;
        this.speaker.edge(this.m.cycles);
      }
    });
  }

  watchSerial() {
    const name = this.target.serial;
    if (!name) return;
    const usart = this.m.usarts[name];
    if (!usart) throw new Error(`no ${name} in the chip's register map`);
    this.usart = usart;
    usart.onByteTransmit = (b) => this.serialOut(b);
    usart.onRxComplete = () => this.pumpSerial();
  }

  /** The EEPROM answers on DO whenever the chip changes CS, SK or DI. */
  watchEeprom() {
    const e = this.target.eeprom;
    if (!e) return;
    const [cs, sk, di, dout] = e.pins.map(parsePin);
    const chip = new Eeprom93c46(Uint8Array.from(e.image));
    this.m.hold(dout, true);
    const level = (p) => this.m.driven(p).high;
    for (const port of new Set([cs.port, sk.port, di.port])) {
      this.m.onPort(port, () => this.m.hold(dout, chip.observe(level(cs), level(sk), level(di))));
    }
  }

  /** Types a line on the serial line, ended by a carriage return as a terminal sends it. */
  send(line) {
    for (const ch of `${line}\r`) this.rx.push(ch.charCodeAt(0) & 0xff);
    this.pumpSerial();
  }

  pumpSerial() {
    if (this.usart && this.rx.length && !this.usart.rxBusy && this.usart.writeByte(this.rx[0])) {
      this.rx.shift();
    }
  }

  /** A button's press: held down for PRESS_MS of simulated time, then let go for as long. */
  press(name) {
    const pin = parsePin(name);
    this.enqueue([
      { holds: [[pin, false]], ms: PRESS_MS, down: name },
      { holds: [[pin, true]], ms: PRESS_MS },
    ]);
  }

  /** One detent of an encoder, `forward` with contact A leading: each state held 2 ms. */
  turn(encoder, forward) {
    const a = parsePin(encoder.a);
    const b = parsePin(encoder.b);
    const states = [[false, true], [false, false], [true, false], [true, true]];
    const steps = states.map(([x, y]) => {
      const [la, lb] = forward ? [x, y] : [y, x];
      return { holds: [[a, la], [b, lb]], ms: 2 };
    });
    this.enqueue([...steps, { holds: [], ms: 4 }]);
  }

  /** Steps of holds, each kept for its time, one after another and after what is queued. */
  enqueue(steps) {
    this.queue.push(...steps);
    if (!this.busy) this.nextStep();
  }

  nextStep() {
    this.down.clear();
    const step = this.queue.shift();
    this.busy = !!step;
    if (!step) return;
    for (const [pin, level] of step.holds) this.m.hold(pin, level);
    if (step.down) this.down.add(step.down);
    this.m.after(step.ms, () => this.nextStep());
  }

  /** Nothing queued or in progress. */
  get idle() {
    return !this.busy;
  }
}

/** How long each of `count` lights was lit, from the changes of what is lit. */
class Lit {
  constructor(count, read, now) {
    this.read = read;
    this.now = now;
    this.time = new Float64Array(count);
    this.lit = read();
    this.since = now();
  }

  credit(at) {
    for (const i of this.lit) this.time[i] += at - this.since;
    this.since = at;
  }

  change() {
    this.credit(this.now());
    this.lit = this.read();
  }

  reset() {
    this.time.fill(0);
  }
}

/** A pin's pitch from its edges: the median half-period since a cycle (0 when it kept still). */
class Pitch {
  constructor(clockHz) {
    this.clockHz = clockHz;
    this.edges = [];
  }

  edge(at) {
    this.edges.push(at);
    if (this.edges.length > 4096) this.edges.splice(0, 2048);
  }

  hz(since) {
    const recent = this.edges.filter((e) => e >= since);
    this.edges = recent.slice(-1);
    const halves = [];
    for (let i = 1; i < recent.length; i++) halves.push(recent[i] - recent[i - 1]);
    if (halves.length < 4) return 0;
    halves.sort((x, y) => x - y);
    return this.clockHz / (2 * halves[halves.length >> 1]);
  }
}

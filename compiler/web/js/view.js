// The board's drawing on the page, bound to the simulated board: the SVG `gamec draw` makes,
// whose marked elements (data-led, data-cell, data-pin, data-panel) this lights from what a
// window of simulated time saw, and whose buttons and encoders take clicks, the mouse wheel
// and keys. The DOM is the page's only state a test reads.

import { noteName } from './audio.js';

export class View {
  constructor(root, svgText, target) {
    root.innerHTML = svgText.replace(/^<\?xml[^>]*>\s*/, '');
    this.svg = root.querySelector('svg');
    this.target = target;
    this.leds = new Map([...this.svg.querySelectorAll('[data-led]')].map((e) => [Number(e.dataset.led), e]));
    this.cells = new Map([...this.svg.querySelectorAll('[data-cell]')].map((e) => [e.dataset.cell, e]));
    const byPin = (pin) => [...this.svg.querySelectorAll(`[data-pin="${pin}"]`)];
    this.inputs = target.inputs.map((pin) => byPin(pin));
    this.inputs.flat().forEach((e) => e.classList.add('input'));
    this.lamps = target.lamps.map((l) => byPin(l.pin));
    this.lamps.flat().forEach((e) => e.classList.add('lamp'));
    // An encoder is turned over its panel, the one that holds its contacts' pins.
    this.encoders = target.encoders.map((enc) => byPin(enc.a).map((e) => e.closest('[data-panel]'))[0]);
    this.encoders.forEach((p) => p && p.classList.add('encoder'));
  }

  /** Calls `press(pin)` on a click of an input's row, `turn(encoder, forward)` on a wheel. */
  bind({ press, turn }) {
    this.inputs.forEach((elements, i) => elements.forEach((e) => {
      e.addEventListener('mousedown', (ev) => {
        ev.preventDefault();
        press(this.target.inputs[i]);
      });
    }));
    this.encoders.forEach((panel, i) => panel && panel.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      turn(this.target.encoders[i], ev.deltaY > 0);
    }, { passive: false }));
  }

  /** Shows a window's picture: LEDs, matrix, lamps, buttons held. */
  render(shown, down) {
    (shown.leds || []).forEach((lit, cell) => {
      const e = this.leds.get(cell + 1);
      if (e) e.classList.toggle('lit', lit);
    });
    if (shown.matrix && shown.matrix.length) {
      for (const [key, e] of this.cells) {
        const [r, c] = key.split(',').map(Number);
        const red = shown.matrix[r * 8 + c];
        const green = shown.matrix[64 + r * 8 + c];
        const colour = red && green ? 'yellow' : red ? 'red' : green ? 'green' : 'off';
        if (e.dataset.colour !== colour) e.dataset.colour = colour;
      }
    }
    this.lamps.forEach((elements, i) => elements.forEach((e) => e.classList.toggle('lit', !!shown.lamps[i])));
    this.inputs.forEach((elements, i) => elements.forEach((e) => e.classList.toggle('down', down.has(this.target.inputs[i]))));
  }
}

/** The speaker's line: the note and its frequency, or quiet. */
export function speakerText(hz) {
  return hz > 0 ? `speaker: ♪ ${noteName(hz)} (${hz.toFixed(0)} Hz)` : 'speaker: quiet';
}

/** The keys' help line for a board. */
export function keysText(target) {
  const parts = [];
  if (target.encoders.length) parts.push('wheel over an encoder or the arrow keys turn it');
  if (target.matrix) parts.push('enter: select', target.restart ? 'r: restart' : '');
  else if (target.inputs.length) parts.push('click a button, or keys 1-9 (enter: GO)');
  if (target.serial) parts.push('type the protocol in the console');
  return parts.filter(Boolean).join(' · ');
}

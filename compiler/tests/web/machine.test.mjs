// The page's AVR (compiler/web/js/machine.js) in Node, without a browser: the glue avr8js
// leaves out, checked on programs a few instructions long, run by `node --test` from
// compiler/tests/web_play.rs. The one-instruction delay after `sei`, an SREG write that sets
// I, and `reti` is what keeps a gamec firmware's stack whole (its prologues and epilogues
// write SPH, restore SREG and write SPL: a handler taken before SPL is written pushes onto a
// stack pointer half old, half new), but a game only hits that window by chance, once in
// thousands of ticks: these programs hit it every time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chip } from '../../web/js/chips.js';
import { Machine } from '../../web/js/machine.js';
import { asmProgram } from '../../web/vendor/avr8js/utils/test-utils.js';

// The ATtiny84A's Timer/Counter0 (I/O addresses) and its overflow vector, word 11.
const PROLOGUE = `
  rjmp main
  nop
  nop
  nop
  nop
  nop
  nop
  nop
  nop
  nop
  nop
  rjmp isr
main:
  ldi r16, 1
  out 0x39, r16   ; TIMSK0: TOIE0
  ldi r16, 0xf0
  out 0x32, r16   ; TCNT0: 16 cycles from overflowing
  ldi r16, 1
  out 0x33, r16   ; TCCR0B: the CPU's clock
  ldi r17, 20     ; interrupts off while TOV0 comes pending
wait:
  dec r17
  brne wait
`;

/** Runs `source` on an ATtiny84A for a few thousand cycles and returns its registers. */
function run(source) {
  const { program } = asmProgram(source);
  const m = new Machine(chip('attiny84a'), 8_000_000, new Uint8Array(program.buffer));
  m.runUntil(4000);
  return m.cpu.data;
}

test('sei: the next instruction runs before a pending interrupt', () => {
  const r = run(`${PROLOGUE}
  sei
  inc r20         ; runs before the handler
  inc r20
done:
  rjmp done
isr:
  mov r21, r20
  clr r16
  out 0x39, r16
  reti
`);
  assert.equal(r[21], 1, 'r20 when the handler ran');
  assert.equal(r[20], 2);
});

test('an SREG write that sets I: the next instruction runs first', () => {
  const r = run(`${PROLOGUE}
  ldi r18, 0x80
  out 0x3f, r18   ; SREG: I, as an epilogue restores it before writing SPL
  inc r20
  inc r20
done:
  rjmp done
isr:
  mov r21, r20
  clr r16
  out 0x39, r16
  reti
`);
  assert.equal(r[21], 1, 'r20 when the handler ran');
});

test('reti: one instruction of the program runs between two handlers', () => {
  // The handler makes the overflow pending again before it returns: the program still
  // gets one instruction in between, each time.
  const r = run(`${PROLOGUE}
  sei
again:
  inc r20
  rjmp again
isr:
  inc r22
  cpi r22, 4
  breq last
  ldi r16, 0xff
  out 0x32, r16   ; TCNT0: overflows during the handler
  nop
  nop
  reti
last:
  mov r21, r20
  clr r16
  out 0x39, r16
  reti
`);
  // sei lets one inc through; the three returns one instruction each: rjmp, inc, rjmp.
  assert.equal(r[21], 2, "r20 at the fourth handler");
});

// The register maps of the AVR chips gamec builds for, as avr8js's peripherals take them:
// each port's PIN, DDR and PORT, its pin-change or external interrupts, the timers the
// runtime's glue drives (a tick and a tone), the USART of a serial board, and the sleep
// register. Data-space addresses (an I/O register's address plus 0x20); vectors as word
// addresses (a vector a word on the 8 KB ATtinys, two words on the ATmegas).

const TIMER01_DIVIDERS = { 0: 0, 1: 1, 2: 8, 3: 64, 4: 256, 5: 1024, 6: 0, 7: 0 };
const ASYNC_DIVIDERS = { 0: 0, 1: 1, 2: 8, 3: 32, 4: 64, 5: 128, 6: 256, 7: 1024 };

const TIMER_BITS = { TOV: 1, OCFA: 2, OCFB: 4, OCFC: 0, TOIE: 1, OCIEA: 2, OCIEB: 4, OCIEC: 0 };

/** A timer whose registers sit apart from the others' (the ATtiny84A's TIMSK0, TIMSK1). */
function timer(fields) {
  return {
    captureInterrupt: 0, compCInterrupt: 0, OCRC: 0, ICR: 0, TCCRC: 0,
    compPortC: 0, compPinC: 0, externalClockPort: 0, externalClockPin: 0,
    ...TIMER_BITS, ...fields,
  };
}

/** An ATtiny84A, and its ATtiny24A sibling with the same registers. */
function attinyX4(ramEnd) {
  const PORTA = 0x3b, PORTB = 0x38;
  const GIMSK = 0x5b, GIFR = 0x5a;
  return {
    vectorWords: 1,
    ramEnd,
    ports: {
      A: { PIN: 0x39, DDR: 0x3a, PORT: PORTA, externalInterrupts: [],
        pinChange: { PCIE: 4, PCICR: GIMSK, PCIFR: GIFR, PCMSK: 0x32, pinChangeInterrupt: 2, mask: 0xff, offset: 0 } },
      B: { PIN: 0x36, DDR: 0x37, PORT: PORTB,
        externalInterrupts: [null, null, { EICR: 0x55, EIMSK: GIMSK, EIFR: GIFR, index: 6, iscOffset: 0, interrupt: 1 }],
        pinChange: { PCIE: 5, PCICR: GIMSK, PCIFR: GIFR, PCMSK: 0x40, pinChangeInterrupt: 3, mask: 0x0f, offset: 0 } },
    },
    timers: [
      timer({ bits: 8, compAInterrupt: 9, compBInterrupt: 10, ovfInterrupt: 11, TIFR: 0x58, TIMSK: 0x59,
        OCRA: 0x56, OCRB: 0x5c, TCNT: 0x52, TCCRA: 0x50, TCCRB: 0x53, dividers: TIMER01_DIVIDERS,
        compPortA: PORTB, compPinA: 2, compPortB: PORTA, compPinB: 7 }),
      timer({ bits: 16, captureInterrupt: 5, compAInterrupt: 6, compBInterrupt: 7, ovfInterrupt: 8,
        TIFR: 0x2b, TIMSK: 0x2c, OCRA: 0x4a, OCRB: 0x48, ICR: 0x44, TCNT: 0x4c, TCCRA: 0x4f, TCCRB: 0x4e,
        TCCRC: 0x42, dividers: TIMER01_DIVIDERS, compPortA: PORTA, compPinA: 6, compPortB: PORTA, compPinB: 5 }),
    ],
    usarts: {},
    // MCUCR: SE is bit 5, SM1:0 bits 4:3 (00 idle).
    sleep: { register: 0x55, enable: 0x20 },
  };
}

/**
 * The ATmega16: ports A to D, INT0 and INT1 on PD2 and PD3 (GICR and GIFR), Timer/Counter0
 * of one control register (TCCR0), Timer/Counter1 and Timer/Counter2 sharing TIMSK and TIFR,
 * and a USART whose UBRRH and UCSRC share an address (URSEL tells them apart).
 */
function atmega16() {
  const PORTB = 0x38, PORTD = 0x32;
  const GICR = 0x5b, GIFR = 0x5a, MCUCR = 0x55, TIMSK = 0x59, TIFR = 0x58;
  const ext = (index, iscOffset, interrupt) => ({ EICR: MCUCR, EIMSK: GICR, EIFR: GIFR, index, iscOffset, interrupt });
  return {
    vectorWords: 2,
    ramEnd: 0x45f,
    ports: {
      A: { PIN: 0x39, DDR: 0x3a, PORT: 0x3b, externalInterrupts: [] },
      B: { PIN: 0x36, DDR: 0x37, PORT: PORTB, externalInterrupts: [] },
      C: { PIN: 0x33, DDR: 0x34, PORT: 0x35, externalInterrupts: [] },
      D: { PIN: 0x30, DDR: 0x31, PORT: PORTD, externalInterrupts: [null, null, ext(6, 0, 2), ext(7, 2, 4)] },
    },
    timers: [
      timer({ bits: 8, compAInterrupt: 38, compBInterrupt: 0, ovfInterrupt: 18, TIFR, TIMSK,
        OCRA: 0x5c, OCRB: 0, TCNT: 0x52, singleControl: 0x53, dividers: TIMER01_DIVIDERS,
        compPortA: PORTB, compPinA: 3, compPortB: 0, compPinB: 0,
        TOV: 1, OCFA: 2, OCFB: 0, TOIE: 1, OCIEA: 2, OCIEB: 0 }),
      timer({ bits: 16, captureInterrupt: 10, compAInterrupt: 12, compBInterrupt: 14, ovfInterrupt: 16,
        TIFR, TIMSK, OCRA: 0x4a, OCRB: 0x48, ICR: 0x46, TCNT: 0x4c, TCCRA: 0x4f, TCCRB: 0x4e,
        dividers: TIMER01_DIVIDERS, compPortA: PORTD, compPinA: 5, compPortB: PORTD, compPinB: 4,
        TOV: 4, OCFA: 16, OCFB: 8, TOIE: 4, OCIEA: 16, OCIEB: 8 }),
    ],
    usarts: {
      usart: { rxCompleteInterrupt: 22, dataRegisterEmptyInterrupt: 24, txCompleteInterrupt: 26,
        UCSRA: 0x2b, UCSRB: 0x2a, UBRRL: 0x29, UDR: 0x2c, sharedUbrrhUcsrc: 0x40 },
    },
    // MCUCR: SE is bit 6, SM2:0 bits 7, 5, 4.
    sleep: { register: MCUCR, enable: 0x40 },
  };
}

/**
 * The ATmega64 and ATmega128: ports A to G (F and G past the I/O space), INT0-3 on PD0-3
 * (EICRA) and INT4-7 on PE4-7 (EICRB), the asynchronous Timer/Counter0 of one control
 * register and its own prescaler steps, Timer/Counter1 with a third output, and USART0.
 */
function atmega64(flashBytes) {
  const PORTB = 0x38;
  const EIMSK = 0x59, EIFR = 0x58, EICRA = 0x6a, EICRB = 0x5a, TIMSK = 0x57, TIFR = 0x56;
  const ext = (EICR, index, iscOffset) =>
    ({ EICR, EIMSK, EIFR, index, iscOffset, interrupt: 2 * (index + 1) });
  const low = [0, 1, 2, 3].map((i) => ext(EICRA, i, 2 * i));
  const high = [4, 5, 6, 7].map((i) => ext(EICRB, i, 2 * (i - 4)));
  return {
    vectorWords: 2,
    ramEnd: 0x10ff,
    flashBytes,
    ports: {
      A: { PIN: 0x39, DDR: 0x3a, PORT: 0x3b, externalInterrupts: [] },
      B: { PIN: 0x36, DDR: 0x37, PORT: PORTB, externalInterrupts: [] },
      C: { PIN: 0x33, DDR: 0x34, PORT: 0x35, externalInterrupts: [] },
      D: { PIN: 0x30, DDR: 0x31, PORT: 0x32, externalInterrupts: low },
      E: { PIN: 0x21, DDR: 0x22, PORT: 0x23, externalInterrupts: [null, null, null, null, ...high] },
      F: { PIN: 0x20, DDR: 0x61, PORT: 0x62, externalInterrupts: [] },
      G: { PIN: 0x63, DDR: 0x64, PORT: 0x65, externalInterrupts: [] },
    },
    timers: [
      timer({ bits: 8, compAInterrupt: 30, compBInterrupt: 0, ovfInterrupt: 32, TIFR, TIMSK,
        OCRA: 0x51, OCRB: 0, TCNT: 0x52, singleControl: 0x53, dividers: ASYNC_DIVIDERS,
        compPortA: PORTB, compPinA: 4, compPortB: 0, compPinB: 0,
        TOV: 1, OCFA: 2, OCFB: 0, TOIE: 1, OCIEA: 2, OCIEB: 0 }),
      timer({ bits: 16, captureInterrupt: 22, compAInterrupt: 24, compBInterrupt: 26, ovfInterrupt: 28,
        TIFR, TIMSK, OCRA: 0x4a, OCRB: 0x48, OCRC: 0x78, ICR: 0x46, TCNT: 0x4c, TCCRA: 0x4f, TCCRB: 0x4e,
        TCCRC: 0x7a, dividers: TIMER01_DIVIDERS, compPortA: PORTB, compPinA: 5, compPortB: PORTB, compPinB: 6,
        compPortC: PORTB, compPinC: 7, TOV: 4, OCFA: 16, OCFB: 8, TOIE: 4, OCIEA: 16, OCIEB: 8 }),
    ],
    usarts: {
      usart0: { rxCompleteInterrupt: 36, dataRegisterEmptyInterrupt: 38, txCompleteInterrupt: 40,
        UCSRA: 0x2b, UCSRB: 0x2a, UCSRC: 0x95, UBRRL: 0x29, UBRRH: 0x90, UDR: 0x2c },
    },
    // MCUCR: SE is bit 5, SM2:0 bits 2, 4, 3.
    sleep: { register: 0x55, enable: 0x20 },
  };
}

/** The register map of the chip gamec names `name`, or undefined for one the page cannot run. */
export function chip(name) {
  switch (name) {
    case 'attiny84a': return attinyX4(0x25f);
    case 'attiny24a': return attinyX4(0xdf);
    case 'atmega16': return atmega16();
    case 'atmega64': return atmega64(65536);
    case 'atmega128': return atmega64(131072);
    default: return undefined;
  }
}

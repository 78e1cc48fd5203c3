// The speaker through WebAudio: a square wave at the pitch the firmware's timer toggles the
// speaker's pin at, silent between notes. A browser starts sound only after a click or a key,
// so it starts off, and the page's button turns it on.

export class Speaker {
  constructor() {
    this.context = null;
    this.on = false;
    this.hz = 0;
  }

  /** Turns the sound on or off; returns whether it is on. */
  toggle() {
    if (!this.context) {
      this.context = new AudioContext();
      this.oscillator = this.context.createOscillator();
      this.oscillator.type = 'square';
      this.gain = this.context.createGain();
      this.gain.gain.value = 0;
      this.oscillator.connect(this.gain).connect(this.context.destination);
      this.oscillator.start();
    }
    this.on = !this.on;
    if (this.on) this.context.resume();
    this.play(this.hz);
    return this.on;
  }

  /** Sounds `hz` (0: silence). */
  play(hz) {
    this.hz = hz;
    if (!this.context) return;
    const now = this.context.currentTime;
    const loud = this.on && hz > 0;
    if (loud) this.oscillator.frequency.setTargetAtTime(hz, now, 0.002);
    this.gain.gain.setTargetAtTime(loud ? 0.05 : 0, now, 0.005);
  }
}

/** The note nearest a frequency: `A4`. */
export function noteName(hz) {
  const names = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
  const midi = Math.round(69 + 12 * Math.log2(hz / 440));
  return `${names[((midi % 12) + 12) % 12]}${Math.floor(midi / 12) - 1}`;
}

// The page: waits for gamec's builds (a long poll of /api/build), runs each good one's
// firmware on its board at the pace of the wall clock (`?pace=3`: three times as fast;
// `?pace=max`: as fast as the browser can, for tests), draws what the board shows each frame, and shows a failed build's
// diagnostics in place, the last good firmware running on meanwhile.

import { chip } from './chips.js';
import { Machine } from './machine.js';
import { Board } from './board.js';
import { parseHex } from './hex.js';
import { View, speakerText, keysText } from './view.js';
import { Speaker } from './audio.js';

/** Wall time a frame may spend simulating before it draws. */
const FRAME_BUDGET_MS = 25;
/** A frame catches up at most this much simulated time: a slow browser lags rather than stalls. */
const MAX_CATCH_UP_MS = 100;

const $ = (id) => document.getElementById(id);
const pace = new URLSearchParams(location.search).get('pace');
const speed = pace === 'max' ? Infinity : Number(pace) || 1;
const speaker = new Speaker();
let run = null;
let paused = false;
/**
 * Who watches the page window by window rather than frame by frame (the tests' drive.mjs),
 * each called once a window's picture is drawn. A frame at a fast pace simulates more time
 * than a 150 ms flash lasts, and draws only its last window: while anyone watches, every
 * window is drawn as it closes.
 */
const windowWatchers = new Set();
window.gamecWindowWatchers = windowWatchers;

function status(state, text) {
  $('status').dataset.state = state;
  $('status').textContent = text;
}

/** Boots a build's firmware on its board, replacing what ran. */
function start(build) {
  const t = build.target;
  const map = chip(t.chip);
  if (!map) throw new Error(`the page has no register map for the ${t.chip}`);
  const machine = new Machine(map, t.clock_hz, parseHex(build.hex, t.flash));
  const board = new Board(t, machine);
  const view = new View($('board'), build.svg, t);
  view.bind({ press: (pin) => board.press(pin), turn: (enc, fwd) => board.turn(enc, fwd) });
  $('title').textContent = `gamec play: ${build.title}`;
  $('keys').textContent = keysText(t);
  $('console').hidden = !t.serial;
  $('console-log').textContent = '';
  board.serialOut = (b) => received(b);
  board.onWindow = () => {
    if (!windowWatchers.size) return;
    show(board, view);
    for (const watcher of [...windowWatchers]) watcher();
  };
  run = { board, view, wall: performance.now() };
}

/** Draws what the board's last window saw, with its time and the speaker's pitch. */
function show(board, view) {
  view.render(board.shown, board.down);
  const ms = board.ms;
  $('clock').dataset.ms = ms.toFixed(0);
  $('clock').textContent = `t = ${(ms / 1000).toFixed(1)} s${board.shown.sleeping ? ' (asleep)' : ''}`;
  $('speaker').dataset.hz = board.shown.hz.toFixed(1);
  $('speaker').textContent = speakerText(board.shown.hz);
}

/** A byte the chip sent, appended to the console (carriage returns dropped). */
function received(byte) {
  if (byte === 13) return;
  const log = $('console-log');
  const last = log.lastChild;
  const ch = String.fromCharCode(byte);
  if (last && last.nodeType === Node.TEXT_NODE) last.appendData(ch);
  else log.appendChild(document.createTextNode(ch));
  log.scrollTop = log.scrollHeight;
}

function sent(line) {
  const log = $('console-log');
  const echo = document.createElement('span');
  echo.className = 'sent';
  echo.textContent = `> ${line}\n`;
  log.appendChild(echo);
}

function frame(now) {
  if (run && paused) run.wall = now;
  if (run && !paused) {
    const { board } = run;
    const m = board.m;
    const started = performance.now();
    if (speed === Infinity) {
      // A pause takes hold within 10 ms of the chip's time, mid-frame too: a watch that
      // stops the page at its end stops it there (a frame at pace max can be seconds).
      while (!paused && performance.now() - started < FRAME_BUDGET_MS) board.advance(m.cycles + m.msToCycles(10));
    } else {
      const due = Math.min((now - run.wall) * speed, MAX_CATCH_UP_MS * speed);
      const end = m.cycles + m.msToCycles(due);
      while (!paused && m.cycles < end && performance.now() - started < FRAME_BUDGET_MS) {
        board.advance(Math.min(end, m.cycles + m.msToCycles(10)));
      }
    }
    run.wall = now;
    show(board, run.view);
    speaker.play(board.shown.hz);
  }
  requestAnimationFrame(frame);
}

/** Applies a build: a good one runs, a failed one shows its diagnostics. */
function apply(build) {
  if (build.state === 'building') {
    status('building', run ? 'building… (the last good firmware runs meanwhile)' : 'building…');
    return;
  }
  const diagnostics = $('diagnostics');
  if (build.state === 'failed') {
    diagnostics.textContent = build.diagnostics;
    diagnostics.hidden = false;
    status('failed', run ? 'the build failed: the last good firmware runs' : 'the build failed');
    return;
  }
  diagnostics.hidden = !build.warnings;
  diagnostics.textContent = build.warnings || '';
  try {
    start(build);
    status('running', 'running');
  } catch (e) {
    diagnostics.textContent = `error: ${e.message}`;
    diagnostics.hidden = false;
    status('failed', 'the page cannot run this board');
  }
}

async function follow() {
  let generation = 0;
  for (;;) {
    try {
      const response = await fetch(`/api/build?after=${generation}`, { cache: 'no-store' });
      const build = await response.json();
      if (build.generation !== generation) {
        generation = build.generation;
        apply(build);
      }
    } catch (e) {
      status('failed', 'gamec is not answering (stopped?)');
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** Keys: 1-9 the buttons in the board's order, enter GO or select, arrows the encoders. */
function key(ev) {
  if (!run || ev.target === $('console-input')) return;
  const { board } = run;
  const t = board.target;
  const digit = Number(ev.key);
  if (digit >= 1 && digit <= t.inputs.length && !t.matrix) board.press(t.inputs[digit - 1]);
  else if (ev.key === 'Enter' && t.commit !== null) board.press(t.inputs[t.commit]);
  else if ((ev.key === 'r' || ev.key === 'R') && t.restart) board.press(t.restart);
  else if (ev.key.startsWith('Arrow')) {
    const across = ev.key === 'ArrowLeft' || ev.key === 'ArrowRight';
    const enc = t.encoders.find((e) => e.across === across);
    if (enc) board.turn(enc, ev.key === 'ArrowRight' || ev.key === 'ArrowDown');
  } else return;
  ev.preventDefault();
}

$('console-input').addEventListener('keydown', (ev) => {
  if (ev.key !== 'Enter' || !run) return;
  const line = ev.target.value;
  ev.target.value = '';
  sent(line);
  run.board.send(line);
});
// Paused, the chip's time stands still: a person (or a test) may take as long as it likes
// over a move the firmware's clock would otherwise count.
$('pause').addEventListener('click', () => {
  paused = !paused;
  $('pause').textContent = paused ? 'run' : 'pause';
  $('clock').dataset.paused = paused;
});
$('sound').addEventListener('click', () => {
  $('sound').textContent = speaker.toggle() ? 'sound on' : 'sound off';
});
document.addEventListener('keydown', key);
requestAnimationFrame(frame);
follow();

// Drives `gamec play --web`'s page in Debian's Chromium for compiler/tests/web_play.rs: a
// command a line on standard input (JSON), its answer a line on standard output (JSON). It
// clicks, turns, types and reads what the page shows (its DOM), and waits in the page's
// simulated time (`#clock`'s data-ms), so that a slow machine is slower, not wrong. The
// test keeps the game's rules; this script knows none.
//
// node drive.mjs URL
//
// Its first answer, before any command, is `{"browser": PID}`: Chromium's process, leader of
// its own process group, which the test kills as well should this script die unable to. The
// browser is closed however the script ends: stdin closed, a command failed or timed out, a
// signal, an uncaught error. A Chromium left behind holds a core of a two-core CI machine.

import puppeteer from 'puppeteer-core';
import { createInterface } from 'node:readline';
import { rmSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
/** Wall time a command may take (unless it says `timeout_ms`): a stuck page fails the test. */
const COMMAND_TIMEOUT_MS = 120000;

// Whatever ends Node ends Chromium: a signal exits, and a synchronous kill is all an 'exit'
// handler may do (puppeteer's own, registered by launch, kills a browser still starting).
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => process.exit(1));
}

const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  // Root in a container (CI) has no sandbox to give the renderer.
  args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
  // Over a pipe rather than a socket: Chromium quits when the pipe closes, so it goes even
  // with a Node killed by SIGKILL, which runs no handler of this script's.
  pipe: true,
  // The signals are this script's to handle (above): puppeteer's SIGTERM handler closes the
  // browser but leaves Node running.
  handleSIGINT: false,
  handleSIGTERM: false,
  handleSIGHUP: false,
});
const browserPid = browser.process().pid;
/** The throwaway profile puppeteer made, which only its graceful close would remove. */
const profile = browser.process().spawnargs.find((a) => a.startsWith('--user-data-dir='))?.slice(16);

/** Kills Chromium's whole process group (puppeteer starts it detached, as its leader). */
function killBrowser() {
  try {
    process.kill(-browserPid, 'SIGKILL');
  } catch {
    // Already gone.
  }
  try {
    if (profile) rmSync(profile, { recursive: true, force: true });
  } catch {
    // A dying browser still writing there: /tmp keeps a directory, nothing runs on.
  }
}

process.on('exit', killBrowser);
process.stdout.write(`${JSON.stringify({ browser: browserPid })}\n`);

const page = await browser.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
await page.setViewport({ width: 1400, height: 1100 });
await page.evaluateOnNewDocument(helpers);
await page.goto(process.argv[2], { waitUntil: 'domcontentloaded' });

/** The page's simulated time, in milliseconds. */
const clock = () => page.$eval('#clock', (e) => Number(e.dataset.ms));

/** What the page shows, read from its DOM. */
const reads = {
  status: () => page.evaluate(() => ({
    state: document.getElementById('status').dataset.state,
    diagnostics: document.getElementById('diagnostics').hidden ? '' : document.getElementById('diagnostics').textContent,
  })),
  leds: () => page.$$eval('[data-led].lit', (es) => es.map((e) => Number(e.dataset.led))),
  matrix: () => page.evaluate(() => window.drive.matrix()),
  lamps: () => page.$$eval('.lamp.lit', (es) => [...new Set(es.map((e) => e.dataset.pin))]),
  speaker: () => page.$eval('#speaker', (e) => Number(e.dataset.hz)),
  clock: () => clock(),
  asleep: () => page.$eval('#clock', (e) => e.textContent.endsWith('(asleep)')),
  console: () => page.$$eval('#console-log', ([log]) =>
    [...log.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.data).join('')),
};

/** Reads the page makes for the driver, installed in it before its scripts run. */
function helpers() {
  /** The matrix as rows of `.`, `r`, `g`, `y`. */
  const matrix = () => {
    const rows = [];
    for (let r = 0; r < 8; r++) {
      let row = '';
      for (let c = 0; c < 8; c++) {
        const e = document.querySelector(`[data-cell="${r},${c}"]`);
        row += { red: 'r', green: 'g', yellow: 'y' }[e && e.dataset.colour] || '.';
      }
      rows.push(row);
    }
    return rows.join('\n');
  };
  const reads = {
    matrix,
    speaker: () => document.getElementById('speaker').dataset.hz,
    leds: () => [...document.querySelectorAll('[data-led].lit')].map((e) => e.dataset.led).join(' '),
    asleep: () => document.getElementById('clock').textContent.endsWith('(asleep)'),
  };
  /**
   * Every distinct value of a read the page showed over `ms` of its time, window by window
   * (the page draws each while watched, whatever its pace), from now: the page's time runs,
   * and with `stop` stops at the window that ends the watch.
   */
  const watch = (what, ms, stop) => new Promise((done) => {
    const now = () => Number(document.getElementById('clock').dataset.ms);
    const end = now() + ms;
    const seen = [];
    const look = () => {
      const v = reads[what]();
      if (!seen.includes(v)) seen.push(v);
      if (now() >= end) {
        window.gamecWindowWatchers.delete(look);
        if (stop) pause(true);
        done(seen);
      }
    };
    look();
    window.gamecWindowWatchers.add(look);
    pause(false);
  });
  /** The page's time stopped (true) or running, by its own pause button. */
  const pause = (stop) => {
    if ((document.getElementById('clock').dataset.paused === 'true') !== stop) {
      document.getElementById('pause').click();
    }
  };
  /**
   * Line `index` of what the chip sent, once it has come whole, the page paused as it comes:
   * the test answers in no time of the chip's, as a host on a wire would.
   */
  const line = (index) => new Promise((done) => {
    const log = document.getElementById('console-log');
    const text = () => [...log.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.data).join('');
    const observer = new MutationObserver(() => look());
    const look = () => {
      const lines = text().split('\n');
      if (lines.length <= index + 1) return false;
      pause(true);
      observer.disconnect();
      done(lines[index]);
      return true;
    };
    if (!look()) {
      observer.observe(log, { childList: true, subtree: true, characterData: true });
      pause(false);
    }
  });
  window.drive = { matrix, watch, line, pause };
}

/** Lets `ms` of the page's time pass, running it if paused. */
async function waitMs(ms) {
  await page.evaluate(() => window.drive.pause(false));
  const end = (await clock()) + ms;
  while ((await clock()) < end) await new Promise((r) => setTimeout(r, 10));
}

async function run(c) {
  switch (c.cmd) {
    case 'read': return reads[c.what]();
    case 'wait': return waitMs(c.ms);
    case 'click': return page.click(c.selector);
    case 'key': return page.keyboard.press(c.key);
    case 'wheel': {
      const box = await (await page.$(c.selector)).boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      return page.mouse.wheel({ deltaY: c.deltaY });
    }
    case 'type': {
      // The line set at once and sent with enter: a key at a time waits on the page's frames.
      await page.$eval('#console-input', (e, text) => { e.value = text; e.focus(); }, c.text);
      return page.keyboard.press('Enter');
    }
    case 'line': return page.evaluate((i) => window.drive.line(i), c.index);
    case 'watch': return page.evaluate((what, ms, stop) => window.drive.watch(what, ms, stop), c.what, c.ms, !!c.stop);
    case 'pause': return page.evaluate((stop) => window.drive.pause(stop), c.stop);
    case 'screenshot': return page.screenshot({ path: c.path });
    case 'goto': {
      // Another board's page in the same browser: one browser for many boards.
      errors.length = 0;
      await page.goto(c.url, { waitUntil: 'domcontentloaded' });
      return null;
    }
    default: throw new Error(`no command ${c.cmd}`);
  }
}

/** A command, or its failure after `ms`: a page that never answers fails the test. */
function withTimeout(c, ms) {
  let timer;
  const late = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer after ${ms} ms`)), ms);
  });
  return Promise.race([run(c), late]).finally(() => clearTimeout(timer));
}

try {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    let answer;
    try {
      const c = JSON.parse(line);
      const value = await withTimeout(c, c.timeout_ms || COMMAND_TIMEOUT_MS);
      answer = errors.length ? { error: `the page threw: ${errors.join('; ')}` } : { value: value ?? null };
    } catch (e) {
      answer = { error: String(e && e.stack || e) };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
} finally {
  // Closed gracefully if it will within a few seconds, killed regardless.
  await Promise.race([browser.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
  killBrowser();
}
process.exit(0);

// End-to-end test of the browser client: a hotseat game played by clicking.
//
//   node web/e2e/hotseat.mjs http://127.0.0.1:PORT [GAME SCENARIO SEED]
//
// GAME, SCENARIO and SEED default to stalingrad-blitz, campaign and 3. For ardennes-ii the
// board must also show both map sheets joined (A1.46 and B40.30 drawn).
// Needs a running `sandtable serve` at that address and Chromium (/usr/bin/chromium, or the
// path in $CHROMIUM); it never downloads a browser. It opens the lobby, creates a hotseat game
// with a fixed seed, plays the chit picks from the action panel until a unit can move, moves one
// by clicking its counter and then a lit hex on the map, and checks that the counter's stack
// now stands in that hex and that the log grew. It switches the page to Chinese once and checks
// a Chinese word. On the way it checks the page's features of issue 11 (features.mjs): the
// counts of stacks and their lists, the movement costs off the counters, the refusal of a
// click on a hex the unit cannot reach with its rule, the Chinese page without English words,
// and the page on a phone (390×844, touch). $E2E_SCREENSHOT, if set, names a PNG to save of the
// final page (and, with -phone before .png, of the phone's).
// Exit code 0 on success; otherwise a message on stderr and exit code 1.

import { chromium } from 'playwright-core';
import * as features from './features.mjs';

const BASE = (process.argv[2] || process.env.SANDTABLE_URL || '').replace(/\/+$/, '');
const GAME = process.argv[3] || 'stalingrad-blitz';
const SCENARIO = process.argv[4] || 'campaign';
const SEED = Number(process.argv[5] || 3);
const DEADLINE_MS = 180_000;

function fail(msg) {
  const err = new Error(msg);
  err.e2e = true;
  throw err;
}

function log(msg) {
  console.log(`e2e: ${msg}`);
}

async function main() {
  if (!/^https?:\/\//.test(BASE)) fail('usage: node web/e2e/hotseat.mjs http://127.0.0.1:PORT [GAME SCENARIO SEED]');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const errors = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console error: ${m.text()}`); });
    // Answers to actions that sent the board's pieces as what changed (docs/api.md).
    let deltas = 0;
    page.on('response', async (r) => {
      if (!/\/actions\?/.test(r.url()) || r.request().method() !== 'POST') return;
      try { if ((await r.json()).pieces_delta) deltas++; } catch (_) { /* not JSON */ }
    });
    const checkErrors = () => { if (errors.length) fail(errors.join('\n')); };

    // The lobby: a hotseat game with a fixed seed.
    log(`lobby at ${BASE}/`);
    await page.goto(`${BASE}/`);
    await page.waitForSelector(`[data-test=game-select] option[value="${GAME}"]`, { state: 'attached' });
    await page.selectOption('[data-test=game-select]', GAME);
    await page.waitForSelector(`[data-test=scenario-select] option[value="${SCENARIO}"]`, { state: 'attached' });
    await page.selectOption('[data-test=scenario-select]', SCENARIO);
    await page.waitForSelector('[data-test=reconstructed-notice]');
    await page.fill('[data-test=seed]', String(SEED));
    await page.click('[data-test=hotseat]');
    await page.waitForURL(/\/game\/[^/#]+#t=[^,]+,.+/);
    log(`game page ${new URL(page.url()).pathname}`);
    await page.waitForSelector('[data-test=board-svg] .ctr[data-id]', { state: 'attached' });
    await page.waitForSelector('[data-test=turn][data-version]');
    // The seed was chosen here: the page says so (issue 12).
    await features.diceFixed(page, true);
    if (GAME === 'ardennes-ii') {
      // SCS 1.4: sheet B joins sheet A east of A40; both are one board.
      for (const hex of ['A1.46', 'A40.40', 'B1.16', 'B40.30']) {
        await page.waitForSelector(`[data-test=board-svg] .hx [data-hex="${hex}"]`, { state: 'attached' });
      }
      log('both map sheets drawn');
    }
    checkErrors();

    // The chit picks and whatever else comes before a unit can move, from the action panel.
    let moves = [];
    for (let step = 0; step < 60; step++) {
      await settle(page);
      // A long list comes packed: a counter's moves are one entry until it is picked.
      moves = await page.$$eval('[data-test=action][data-kind="move"], [data-test=action-pack]', (bs) => bs.map((b) => ({
        unit: b.dataset.units, hex: b.dataset.hexes, packed: b.dataset.test === 'action-pack',
      })).filter((m) => m.unit && (m.hex || m.packed) && !m.unit.includes(',')));
      if (moves.length) break;
      const first = page.locator('[data-test=action]').first();
      if (!(await first.count())) {
        const turn = await page.textContent('[data-test=turn]');
        fail(`no action to take and no move yet (step ${step}; turn bar: ${turn})`);
      }
      const text = (await first.textContent()).trim();
      const version = await page.getAttribute('[data-test=turn]', 'data-version');
      log(`action ${text}`);
      await first.click();
      await page.waitForFunction((v) => {
        const el = document.querySelector('[data-test=turn]');
        return el && el.dataset.version !== v;
      }, version);
      checkErrors();
    }
    if (!moves.length) fail('no unit movement became available');
    log(`${moves.length} move actions${moves.some((m) => m.packed) ? ' and counters with their moves packed' : ''}`);
    await features.stacks(page);

    // A unit that moves: click its counter (the top one of its stack) on the map.
    await settle(page);
    const pick = await page.evaluate((list) => {
      const units = [...new Set(list.map((m) => m.unit))];
      const vp = document.querySelector('[data-test=board]').getBoundingClientRect();
      for (const u of units) {
        const c = document.querySelector(`[data-test=board-svg] .ctr[data-id="${CSS.escape(u)}"]`);
        if (!c) continue;
        const stack = c.closest('.stack') || c.closest('g[data-hex]:not(.ctr)');
        const ctrs = stack ? stack.querySelectorAll('.ctr[data-id]') : [c];
        if (ctrs[ctrs.length - 1] !== c) continue;
        const r = c.getBoundingClientRect();
        if (r.left < vp.left + 10 || r.top < vp.top + 10 || r.right > vp.right - 60 || r.bottom > vp.bottom - 40) continue;
        return { unit: u, from: stack ? stack.getAttribute('data-hex') : null, count: ctrs.length };
      }
      return null;
    }, moves);
    if (!pick) fail('no counter that can move is on top of its stack and in view');
    log(`select ${pick.unit} at ${pick.from}`);
    const logBefore = await page.locator('[data-test=log-line]').count();
    await page.locator(`[data-test=board-svg] .ctr[data-id="${pick.unit}"]`).click();
    await page.waitForSelector(`[data-test=board-svg] .ctr.st-sel[data-id="${pick.unit}"]`, { state: 'attached' });
    // A stack of several counters also opens the list of its units: shut it.
    if (await page.locator('[data-test=popup]').isVisible()) await page.click('[data-test=popup-close]');
    await page.waitForSelector('[data-test=board-svg] .st-hl[data-lit]', { state: 'attached' });
    await features.costsOffCounters(page);
    await features.refusal(page, pick.unit);

    // A lit hex: empty, in view, a plain move for this unit.
    const target = await page.evaluate(({ list, unit }) => {
      const mine = new Set(list.filter((m) => m.unit === unit).map((m) => m.hex));
      // The moves of a packed counter are those lit once it is picked.
      const packed = list.some((m) => m.unit === unit && m.packed);
      const vp = document.querySelector('[data-test=board]').getBoundingClientRect();
      const lit = [...document.querySelectorAll('[data-test=board-svg] .st-hl[data-lit]')].map((p) => p.getAttribute('data-lit'));
      const cands = [];
      for (const hex of lit) {
        if (!packed && !mine.has(hex)) continue;
        if (document.querySelector(`[data-test=board-svg] .stack[data-hex="${CSS.escape(hex)}"]`)) continue;
        const p = document.querySelector(`[data-test=board-svg] .hx [data-hex="${CSS.escape(hex)}"]`);
        if (!p) continue;
        const r = p.getBoundingClientRect();
        if (r.left < vp.left + 10 || r.top < vp.top + 10 || r.right > vp.right - 60 || r.bottom > vp.bottom - 40) continue;
        cands.push(hex);
      }
      return { hex: cands[0] || null, lit: lit.length };
    }, { list: moves, unit: pick.unit });
    if (!target.hex) fail(`no empty lit hex in view to move ${pick.unit} to (${target.lit} lit)`);
    log(`click lit hex ${target.hex} (${target.lit} lit)`);
    const version = await page.getAttribute('[data-test=turn]', 'data-version');
    await page.locator(`[data-test=board-svg] .hx [data-hex="${target.hex}"]`).click();
    // Move and march may both reach the hex: then a menu offers both.
    const menu = page.locator('[data-test=choice][data-kind="move"]').first();
    await Promise.race([
      page.waitForFunction((v) => document.querySelector('[data-test=turn]').dataset.version !== v, version),
      menu.waitFor({ state: 'visible' }).then(() => menu.click()),
    ]);
    await page.waitForFunction((v) => document.querySelector('[data-test=turn]').dataset.version !== v, version);

    // The counter's stack now stands in the new hex, and the log grew.
    await page.waitForSelector(`[data-test=board-svg] [data-hex="${target.hex}"] .ctr[data-id="${pick.unit}"]`, { state: 'attached' });
    const logAfter = await page.locator('[data-test=log-line]').count();
    if (!(logAfter > logBefore)) fail(`the log did not grow (${logBefore} lines before the move, ${logAfter} after)`);
    log(`${pick.unit} now at ${target.hex}; log ${logBefore} -> ${logAfter} lines`);
    // The page drew that from the pieces it had and what changed.
    if (!deltas) fail('no answer to an action sent the pieces as what changed');
    log(`${deltas} answers sent the pieces as what changed`);
    checkErrors();

    // Ardennes II: part of a stack moves together, the rest stays (SCS 6.0).
    if (GAME === 'ardennes-ii') {
      await settle(page);
      if (!(await features.partOfStack(page))) fail('no group of three or more counters moving together in view');
      checkErrors();
    }

    // Chinese, once.
    await page.click('[data-test=lang-toggle]');
    await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'));
    await page.waitForFunction(() => /[\u4e00-\u9fff]/.test(document.querySelector('[data-test=turn-text]').textContent));
    const zh = await page.textContent('[data-test=actions] h3');
    if (zh !== '可选行动') fail(`after switching to Chinese the action panel is headed "${zh}"`);
    await page.waitForFunction(() => document.querySelector('[data-test=board-svg]')?.getAttribute('lang') === 'zh'
      || /[\u4e00-\u9fff]/.test(document.querySelector('[data-test=board-svg] .ttl')?.textContent || ''));
    // Every heading of the action list speaks Chinese too (the verbs of every rule system).
    await page.waitForSelector('[data-test=action-list] > details > summary', { state: 'attached' });
    const latin = await page.$$eval('[data-test=action-list] > details > summary',
      (ss) => ss.map((s) => s.firstChild.textContent).filter((txt) => !/[\u4e00-\u9fff]/.test(txt)));
    if (latin.length) fail(`action groups without a Chinese heading: ${latin.join(', ')}`);
    log('Chinese page shown');
    await settle(page);
    await features.stacks(page, { keepOpen: true });
    await features.chinese(page);
    await page.click('[data-test=popup-close]');
    await features.charts(page);
    await features.diceFixed(page, true);
    checkErrors();

    if (process.env.E2E_SCREENSHOT) {
      await page.screenshot({ path: process.env.E2E_SCREENSHOT });
      log(`screenshot ${process.env.E2E_SCREENSHOT}`);
    }

    // A damaged game in the lobby's list, with why, in both languages.
    await features.damagedInLobby(browser, BASE);

    // A list of thousands of actions, shown in part, with the way to the rest.
    await features.longList(browser, BASE);

    // The same game on a phone.
    await features.phone(browser, page.url(), process.env.E2E_SCREENSHOT && process.env.E2E_SCREENSHOT.replace(/\.png$/, '-phone.png'));
    checkErrors();
  } finally {
    await browser.close();
  }
}

/** Waits until the page is idle: no hotseat screen in the way, no action under way. */
async function settle(page) {
  const screen = page.locator('[data-test=handover-continue]');
  if (await screen.isVisible()) {
    log('hand over to the other seat');
    await screen.click();
  }
  await page.waitForFunction(() => !document.querySelector('.st-side.st-busy'));
}

const timer = setTimeout(() => {
  console.error(`e2e: FAILED: no result after ${DEADLINE_MS / 1000} s`);
  process.exit(1);
}, DEADLINE_MS);
try {
  await main();
  clearTimeout(timer);
  console.log('e2e: hotseat test passed');
  process.exit(0);
} catch (e) {
  clearTimeout(timer);
  console.error(`e2e: FAILED: ${e.e2e ? e.message : (e.stack || e)}`);
  process.exit(1);
}

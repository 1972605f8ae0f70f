// End-to-end test of the browser client against the computer: the page never goes stale.
//
//   node web/e2e/computer.mjs http://127.0.0.1:PORT GAME SCENARIO SEED [DECISIONS]
//
// Creates a game (through the API) with a person on the first seat and the scripted computer
// player on the other, which answers at once; opens the person's page and takes DECISIONS
// (default 40) actions from the action panel, the first one shown each time (so phases end
// and the computer has to answer often). After each action it waits until the page offers
// the person's next decision, and all along it compares what the page shows with what the
// server says: if the server is waiting for the person while the page still shows another
// version for STALE_MS, the page has gone stale ("the computer is thinking…" for ever) and
// the test fails. Once, when the decision comes back from the computer, it steps through what
// the computer did with the page's bar and checks what each step draws on the map (moves as
// arrows to the hex the step names, attacks, losses); it checks that the page says the creator
// chose the seed, and shows a computer move the server could not store as waiting, with why. Needs Chromium (/usr/bin/chromium, or $CHROMIUM); it never downloads a
// browser. Exit code 0 on success; otherwise a message on stderr and exit code 1.

import { chromium } from 'playwright-core';
import * as features from './features.mjs';

const BASE = (process.argv[2] || '').replace(/\/+$/, '');
const GAME = process.argv[3] || 'stalingrad-blitz';
const SCENARIO = process.argv[4] || 'campaign';
const SEED = Number(process.argv[5] || 5);
const DECISIONS = Number(process.argv[6] || 40);
/** How long the page may show another version than the server's while the person must decide. */
const STALE_MS = 5_000;
/** How long one decision of the computer (and the page catching up) may take. */
const TURN_MS = 60_000;
const DEADLINE_MS = 300_000;

function fail(msg) {
  const err = new Error(msg);
  err.e2e = true;
  throw err;
}

function log(msg) {
  console.log(`e2e: ${msg}`);
}

const sleep = (ms) => new Promise((r) => { setTimeout(r, ms); });

async function call(method, path, body) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) fail(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** What the page's turn bar says: the version shown, who decides, whose page it is. */
function shown(page) {
  return page.evaluate(() => {
    const el = document.querySelector('[data-test=turn]');
    if (!el || !el.dataset.version) return null;
    return {
      version: Number(el.dataset.version),
      pending: el.dataset.pending,
      you: el.dataset.you,
      busy: !!document.querySelector('.st-side.st-busy'),
      text: el.textContent.trim(),
    };
  });
}

/**
 * Waits until the page offers the person's decision at the server's version; 'over' if the
 * game ends. Fails if the page stays on another version while the server waits for the person.
 */
async function ourTurn(page, id, human) {
  const deadline = Date.now() + TURN_MS;
  let behindSince = null;
  for (;;) {
    const truth = await call('GET', `/api/games/${id}?journal_from=1000000000`);
    const now = await shown(page);
    if (truth.pending.kind === 'over') return 'over';
    const ours = truth.pending.kind === 'seat' && truth.pending.seat === human;
    if (ours && now && now.version === truth.version && now.pending === now.you && !now.busy) return 'ours';
    if (ours && now && now.version !== truth.version && !now.busy) {
      if (behindSince === null) behindSince = Date.now();
      if (Date.now() - behindSince > STALE_MS) {
        fail(`the page went stale: it shows version ${now.version} ("${now.text}") while the server has waited `
          + `${STALE_MS / 1000} s for the person at version ${truth.version}`);
      }
    } else {
      behindSince = null;
    }
    if (Date.now() > deadline) fail(`no decision for the person within ${TURN_MS / 1000} s (page: ${JSON.stringify(now)})`);
    await sleep(100);
  }
}

async function main() {
  if (!/^https?:\/\//.test(BASE)) fail('usage: node web/e2e/computer.mjs http://127.0.0.1:PORT GAME SCENARIO SEED [DECISIONS]');
  const catalog = await call('GET', '/api/catalog');
  const entry = catalog.find((g) => g.id === GAME) || fail(`no game ${GAME}`);
  const [person, computer] = entry.seats.map((s) => s.id);
  const created = await call('POST', '/api/games', {
    game: GAME, scenario: SCENARIO, seed: SEED, seats: { [person]: 'human', [computer]: 'scripted' },
  });
  const id = created.id;
  log(`${GAME} ${SCENARIO} seed ${SEED}: ${person} against the computer, game ${id}`);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const errors = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console error: ${m.text()}`); });
    const checkErrors = () => { if (errors.length) fail(errors.join('\n')); };
    await page.goto(`${BASE}/game/${encodeURIComponent(id)}#t=${created.tokens[person]}`);
    await page.waitForSelector('[data-test=turn][data-version]');

    // The creator chose the seed: the page says so (issue 12).
    await features.diceFixed(page, true);

    let taken = 0;
    let replayed = null;
    const drawn = { arrows: 0, attacks: 0, losses: 0, steps: 0 };
    for (; taken < DECISIONS; taken++) {
      const state = await ourTurn(page, id, 0);
      checkErrors();
      if (state === 'over') { log('the game is over'); break; }
      // Issue 11, item 4: when the decision comes back from the computer, a bar steps through
      // what happened meanwhile, each step marking on the map the hexes and counters it names.
      // Each step draws what it did: a move as an arrow from where the counter stood to the
      // hex the step names, an attack on the hex, a step lost or a counter gone.
      if (drawn.steps < 600 && await page.locator('[data-test=replay]').isVisible()) {
        await page.click('[data-test=replay-next]');
        await page.waitForSelector('[data-test=board-svg] .st-preview, [data-test=board-svg] .ctr.st-ref', { state: 'attached' });
        if (!replayed) {
          replayed = (await page.textContent('[data-test=replay-text]')).trim();
          log(`what happened meanwhile, step 1: ${replayed}`);
        }
        for (let k = 0; k < 400; k++) {
          const step = await page.evaluate(() => {
            const now = document.querySelector('[data-test=replay-layer] .st-rp-now');
            const hexes = (sel) => [...(now ? now.querySelectorAll(sel) : [])].map((e) => e.dataset.hex);
            return {
              text: document.querySelector('[data-test=replay-text]').textContent,
              arrows: [...(now ? now.querySelectorAll('.st-rp-arrow') : [])].map((a) => [a.dataset.from, a.dataset.to]),
              attacks: hexes('.st-rp-attack'),
              losses: hexes('.st-rp-loss, .st-rp-gone'),
              offMap: [...(now ? now.querySelectorAll('.st-rp-arrow') : [])].flatMap((a) => [a.dataset.from, a.dataset.to])
                .filter((hx) => !document.querySelector(`[data-test=board-svg] .hx [data-hex="${CSS.escape(hx || '')}"]`)),
              last: document.querySelector('[data-test=replay-next]').disabled,
            };
          });
          if (step.offMap.length) fail(`replay: arrows at hexes not on the map: ${step.offMap.join(', ')}`);
          for (const [from, to] of step.arrows) {
            if (!from || !to || from === to) fail(`replay: an arrow from ${from} to ${to} at "${step.text}"`);
            if (!step.text.includes(to)) fail(`replay: an arrow to ${to} at a step that does not name it: "${step.text}"`);
          }
          for (const hx of step.attacks) if (!step.text.includes(hx)) fail(`replay: an attack on ${hx} at a step that does not name it: "${step.text}"`);
          drawn.arrows += step.arrows.length;
          drawn.attacks += step.attacks.length;
          drawn.losses += step.losses.length;
          drawn.steps += 1;
          if (step.attacks.length && drawn.attacks === step.attacks.length) log(`replay: an attack on ${step.attacks[0]} at "${step.text}"`);
          if (step.losses.length && drawn.losses === step.losses.length) log(`replay: a loss at ${step.losses[0]} at "${step.text}"`);
          if (step.arrows.length && drawn.arrows === step.arrows.length) log(`replay: an arrow ${step.arrows[0].join(' → ')} at "${step.text}"`);
          if (step.last) break;
          await page.click('[data-test=replay-next]');
        }
        await page.click('[data-test=replay-close]');
      }
      const before = await shown(page);
      // The first action listed, its group opened if it is shut. The page may draw the list
      // again between the opening and the click (an update of the same version arriving),
      // shut as it was: then it is opened and clicked again.
      const openFirst = () => page.evaluate(() => {
        const b = document.querySelector('[data-test=action]');
        for (let d = b && b.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) d.open = true;
        return !!b;
      });
      if (!await openFirst()) fail(`the page offers no action at version ${before.version}`);
      const first = page.locator('[data-test=action]').first();
      log(`${taken + 1}: version ${before.version}: ${(await first.textContent()).trim()}`);
      for (let tries = 1; ; tries++) {
        try {
          await first.click({ timeout: 2_000 });
          break;
        } catch (e) {
          if (tries >= 10) throw e;
          await openFirst();
        }
      }
      // An attack is confirmed first.
      const ok = page.locator('[data-test=confirm-ok]');
      if (await ok.isVisible()) await ok.click();
      await page.waitForFunction((v) => {
        const el = document.querySelector('[data-test=turn]');
        return el && Number(el.dataset.version) !== v;
      }, before.version, { timeout: TURN_MS });
    }
    checkErrors();
    if (!replayed) fail(`in ${taken} decisions the page never offered to step through the computer's moves`);
    if (!drawn.arrows) fail(`in ${taken} decisions the bar never drew a move on the map`);
    log(`replay: ${drawn.steps} steps drew ${drawn.arrows} moves, ${drawn.attacks} attacks, ${drawn.losses} losses`);
    // A computer move the server could not store shows as waiting, with why.
    await features.stalled(page, 1);
    checkErrors();
    log(`${taken} decisions taken, the page never stale`);
  } finally {
    await browser.close();
  }
}

const timer = setTimeout(() => {
  console.error(`e2e: FAILED: no result after ${DEADLINE_MS / 1000} s`);
  process.exit(1);
}, DEADLINE_MS);
try {
  await main();
  clearTimeout(timer);
  console.log('e2e: computer test passed');
  process.exit(0);
} catch (e) {
  clearTimeout(timer);
  console.error(`e2e: FAILED: ${e.e2e ? e.message : (e.stack || e)}`);
  process.exit(1);
}

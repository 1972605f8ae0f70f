// End-to-end test of the browser client against the computer: the page never goes stale.
//
//   node web/e2e/computer.mjs http://127.0.0.1:PORT GAME SCENARIO SEED [DECISIONS] [--person=SEAT]
//        [--require=KIND,…]
//
// SCENARIO is a shipped scenario's id, or a scenario file (a path ending in .toml, relative to
// this folder) sent whole as `scenario_file`. --person takes another seat than the first;
// --require fails the test unless the bar drew each of those kinds of mark (docs/api.md,
// "marks") at least once. With SANDTABLE_SHOTS=DIR it saves screenshots of the first step
// that draws an attack there, in English and in Chinese.
//
// Creates a game (through the API) with a person on the first seat and the scripted computer
// player on the other, which answers at once; opens the person's page and takes DECISIONS
// (default 40) actions from the action panel, the first one shown each time (so phases end
// and the computer has to answer often). After each action it waits until the page offers
// the person's next decision, and all along it compares what the page shows with what the
// server says: if the server is waiting for the person while the page still shows another
// version for STALE_MS, the page has gone stale ("the computer is thinking…" for ever) and
// the test fails. Once, when the decision comes back from the computer, it steps through what
// the computer did with the page's bar and checks that what each step draws on the map is
// what the step's log line says in its typed marks (an arrow for each move, retreat or advance,
// a burst for an attack, a gun-sight for a barrage, −1, ✕, withdrawn, arrived), and that a
// switch of language keeps every mark; it checks that the page says the creator
// chose the seed, and shows a computer move the server could not store as waiting, with why. Needs Chromium (/usr/bin/chromium, or $CHROMIUM); it never downloads a
// browser. Exit code 0 on success; otherwise a message on stderr and exit code 1.

import { chromium } from 'playwright-core';
import * as features from './features.mjs';

import { readFileSync, mkdirSync } from 'node:fs';

const options = Object.fromEntries(process.argv.slice(2).filter((a) => a.startsWith('--')).map((a) => {
  const [k, ...v] = a.slice(2).split('=');
  return [k, v.join('=')];
}));
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const BASE = (args[0] || '').replace(/\/+$/, '');
const GAME = args[1] || 'stalingrad-blitz';
const SCENARIO = args[2] || 'campaign';
const SEED = Number(args[3] || 5);
const DECISIONS = Number(args[4] || 40);
const REQUIRE = (options.require || '').split(',').filter(Boolean);
const SHOTS = process.env.SANDTABLE_SHOTS || '';
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

async function call(method, path, body, token) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
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

/** What the replay layer draws in the groups matching `sel`: [kind, place, from or unit], sorted. */
function drawnMarks(page, sel) {
  return page.evaluate((sel) => {
    const out = [];
    for (const g of document.querySelectorAll(`[data-test=replay-layer] ${sel}`)) {
      for (const a of g.querySelectorAll('.st-rp-arrow')) out.push([a.dataset.kind, a.dataset.to, a.dataset.from]);
      for (const e of g.querySelectorAll('.st-rp-attack')) out.push(['attack', e.dataset.hex, '']);
      for (const e of g.querySelectorAll('.st-rp-barrage')) out.push(['barrage', e.dataset.hex, '']);
      for (const e of g.querySelectorAll('.st-rp-loss')) out.push(['step-lost', e.dataset.hex, e.dataset.unit]);
      for (const e of g.querySelectorAll('.st-rp-gone')) out.push(['eliminated', e.dataset.hex, e.dataset.unit]);
      for (const e of g.querySelectorAll('.st-rp-withdrawn')) out.push(['withdrawn', e.dataset.hex, e.dataset.unit]);
      for (const e of g.querySelectorAll('.st-rp-arrive')) out.push(['arrived', e.dataset.hex, e.dataset.unit]);
    }
    return out.map((m) => m.map((x) => x || '')).sort((x, y) => (x.join('|') < y.join('|') ? -1 : 1));
  }, sel);
}

/** What a log line's typed marks should draw, in the form of `drawnMarks`. */
function expected(marks) {
  const out = [];
  for (const m of marks) {
    if (['move', 'retreat', 'advance'].includes(m.kind)) { if (m.from !== m.to) out.push([m.kind, m.to, m.from]); } else if (m.kind === 'attack' || m.kind === 'barrage') out.push([m.kind, m.at, '']);
    else out.push([m.kind, m.at, m.unit || '']);
  }
  return out.sort((x, y) => (x.join('|') < y.join('|') ? -1 : 1));
}

/** Switches the page's language with its own toggle and waits until the board is drawn in it. */
async function switchLang(page, to) {
  await page.click('[data-test=lang-toggle]');
  await page.waitForFunction((to) => document.documentElement.lang.startsWith(to)
    && document.querySelector('[data-test=board-svg]')
    && !document.querySelector('[data-test=replay]').hidden, to);
  await page.waitForFunction(() => document.querySelector('[data-test=replay-layer] .st-rp'), null);
  await sleep(300);
}

async function shoot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${GAME}-${name}.png` });
  log(`screenshot ${SHOTS}/${GAME}-${name}.png`);
}

async function main() {
  if (!/^https?:\/\//.test(BASE)) fail('usage: node web/e2e/computer.mjs http://127.0.0.1:PORT GAME SCENARIO SEED [DECISIONS]');
  const catalog = await call('GET', '/api/catalog');
  const entry = catalog.find((g) => g.id === GAME) || fail(`no game ${GAME}`);
  const seatIds = entry.seats.map((s) => s.id);
  const human = options.person ? seatIds.indexOf(options.person) : 0;
  if (human < 0) fail(`no seat ${options.person} in ${GAME}`);
  const person = seatIds[human];
  const computer = seatIds[1 - human];
  const where = SCENARIO.endsWith('.toml')
    ? { scenario_file: readFileSync(new URL(SCENARIO, import.meta.url), 'utf8') }
    : { scenario: SCENARIO };
  const created = await call('POST', '/api/games', {
    game: GAME, ...where, seed: SEED, seats: { [person]: 'human', [computer]: 'scripted' },
  });
  const id = created.id;
  const token = created.tokens[person];
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
    await page.goto(`${BASE}/game/${encodeURIComponent(id)}#t=${token}`);
    await page.waitForSelector('[data-test=turn][data-version]');

    // The creator chose the seed: the page says so (issue 12).
    await features.diceFixed(page, true);

    let taken = 0;
    let replayed = null;
    let switched = false;
    const drawn = { steps: 0 };
    for (; taken < DECISIONS; taken++) {
      const state = await ourTurn(page, id, human);
      checkErrors();
      if (state === 'over') { log('the game is over'); break; }
      // Issue 11, item 4: when the decision comes back from the computer, a bar steps through
      // what happened meanwhile, each step drawing on the map what its log line did.
      if (drawn.steps < 600 && await page.locator('[data-test=replay]').isVisible()) {
        // The log as this seat reads it, with each line's typed marks.
        const { journal } = await call('GET', `/api/games/${id}`, undefined, token);
        const all = await drawnMarks(page, '.st-rp');
        if (!switched && all.some((m) => m[0] === 'attack')) {
          // A language switch keeps every mark (they are read from the typed marks, not the words).
          switched = true;
          await shoot(page, 'replay-en');
          await switchLang(page, 'zh');
          const zh = await drawnMarks(page, '.st-rp');
          if (JSON.stringify(zh) !== JSON.stringify(all)) fail(`replay: the marks changed with the language:\n${JSON.stringify(all)}\n${JSON.stringify(zh)}`);
          log(`replay: ${all.length} marks kept across a switch to Chinese`);
          await switchLang(page, 'en');
        }
        await page.click('[data-test=replay-next]');
        await page.waitForSelector('[data-test=replay-layer] .st-rp-now', { state: 'attached' });
        if (!replayed) {
          replayed = (await page.textContent('[data-test=replay-text]')).trim();
          log(`what happened meanwhile, step 1: ${replayed}`);
        }
        for (let k = 0; k < 400; k++) {
          const step = await page.evaluate(() => {
            const now = document.querySelector('[data-test=replay-layer] .st-rp-now');
            return {
              line: now ? Number(now.dataset.line) : -1,
              text: document.querySelector('[data-test=replay-text]').textContent,
              last: document.querySelector('[data-test=replay-next]').disabled,
            };
          });
          const got = await drawnMarks(page, '.st-rp-now');
          const line = journal[step.line];
          if (!line) fail(`replay: the step "${step.text}" draws line ${step.line}, which the log has not`);
          const want = expected(line.marks || []);
          if (JSON.stringify(got) !== JSON.stringify(want)) {
            fail(`replay: at "${step.text}" the map shows ${JSON.stringify(got)}, the line's marks say ${JSON.stringify(want)}`);
          }
          drawn.steps += 1;
          for (const [kind] of got) {
            if (!drawn[kind]) {
              log(`replay: a ${kind} mark at "${step.text}"`);
              if (kind === 'attack' && SHOTS) await shoot(page, 'replay-attack-step');
            }
            drawn[kind] = (drawn[kind] || 0) + 1;
          }
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
    if (!drawn.move) fail(`in ${taken} decisions the bar never drew a move on the map`);
    for (const kind of REQUIRE) if (!drawn[kind]) fail(`in ${taken} decisions the bar never drew a ${kind} mark`);
    if (REQUIRE.includes('attack') && !switched) fail('the marks were never checked across a language switch');
    log(`replay: ${drawn.steps} steps drew ${JSON.stringify(drawn)}`);
    // A computer move the server could not store shows as waiting, with why.
    await features.stalled(page, 1 - human);
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

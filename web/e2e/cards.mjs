// End-to-end test of a card game's hand in the browser (Paths of Glory, 9.1):
//
//   node web/e2e/cards.mjs http://127.0.0.1:PORT
//
// Creates a Paths of Glory game (through the API) with a person as the Central Powers and the
// random computer player as the Allies, opens the person's page, chooses the opening deal, and
// checks the hand panel: seven cards, each named with its values, the legal uses of each as its
// buttons (and left out of the action list), and a space hovered on the map named as the map
// prints it, with its fort. It plays one card for its OPS by its button and sees the hand shrink
// to six, fold while no card has a use (and open on request), and the play in the log; then in
// Chinese the cards and the hovered space are named in Chinese; a spectator's page shows no hand
// at all; and in a second game, once Guns of August's attack on Sedan is chosen, the combat
// being fought is told above the actions. Needs Chromium (/usr/bin/chromium, or
// $CHROMIUM). Exit code 0 on success; otherwise a message on stderr and exit code 1.

import { chromium } from 'playwright-core';

const BASE = (process.argv[2] || '').replace(/\/+$/, '');
const DEADLINE_MS = 120_000;

function fail(msg) {
  const err = new Error(msg);
  err.e2e = true;
  throw err;
}

function log(msg) {
  console.log(`e2e: ${msg}`);
}

async function main() {
  if (!/^https?:\/\//.test(BASE)) fail('usage: node web/e2e/cards.mjs http://127.0.0.1:PORT');
  const res = await fetch(`${BASE}/api/games`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'paths-of-glory', scenario: 'campaign', seats: { ap: 'random' } }),
  });
  const created = await res.json();
  if (!res.ok) fail(`POST /api/games: ${res.status} ${JSON.stringify(created)}`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const errors = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console error: ${m.text()}`); });
    await page.goto(`${BASE}${created.links.cp}`);
    // The opening deal (4.3): seven cards at random.
    const deal = page.locator('[data-test=action]', { hasText: 'Draw seven cards' });
    await deal.click();
    await page.waitForSelector('[data-test=card]', { state: 'attached' });
    const cards = await page.$$eval('[data-test=card]', (cs) => cs.map((c) => ({
      id: c.dataset.card,
      name: c.querySelector('.st-card-name').textContent,
      values: c.querySelector('.st-card-values').textContent,
      uses: [...c.querySelectorAll('[data-test=card-use]')].map((b) => b.textContent),
    })));
    if (cards.length !== 7) fail(`the hand shows ${cards.length} cards, not 7`);
    for (const c of cards) {
      if (!/^#\d+ \S/.test(c.name)) fail(`a card without its number and name: "${c.name}"`);
      if (!/OPS \d/.test(c.values) || !/SR \d/.test(c.values)) fail(`${c.name} shows no OPS or SR: "${c.values}"`);
    }
    const playable = cards.find((c) => c.uses.some((u) => /^\d OPS$/.test(u)));
    if (!playable) fail(`no card offers its OPS: ${JSON.stringify(cards)}`);
    log(`hand: ${cards.map((c) => `${c.name} [${c.uses.join(' | ')}]`).join('; ')}`);
    // Hovering a space names it in the page's language, not by its id.
    const hovered = async () => {
      const box = await page.locator('rect[data-space="metz"]').boundingBox();
      if (!box) fail('Metz is not on the board');
      await page.mouse.move(1, 1);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      return page.textContent('[data-test=status-line]');
    };
    const metz = await hovered();
    if (!metz.startsWith('Metz')) fail(`hovering Metz shows "${metz}"`);
    // What the position says of it in words: its fort (15.0).
    if (!/fort \d \(15\.0\)/.test(metz)) fail(`hovering Metz does not tell its fort: "${metz}"`);
    log(`hovering Metz: "${metz}"`);
    // The uses are on the cards, not repeated in the list.
    const listed = await page.$$eval('[data-test=action-list] [data-test=action]', (bs) => bs.map((b) => b.textContent));
    const repeated = listed.filter((t) => cards.some((c) => t.includes(c.name)));
    if (repeated.length) fail(`card uses repeated in the action list: ${repeated.join('; ')}`);
    // Play one for its OPS.
    const version = await page.getAttribute('[data-test=turn]', 'data-version');
    await page.click(`[data-test=card][data-card="${playable.id}"] [data-test=card-use]:has-text("OPS")`);
    await page.waitForFunction((v) => document.querySelector('[data-test=turn]').dataset.version !== v, version);
    await page.waitForFunction(() => document.querySelectorAll('[data-test=card]').length === 6);
    await page.waitForFunction((name) => [...document.querySelectorAll('[data-test=log-line]')].some((l) => l.textContent.includes(name)), playable.name);
    log(`played ${playable.name} for OPS: six cards left, the play in the log`);
    // In the middle of the card's operations no card has a use: the hand folds to a row of
    // names, leaving the room to the activations; the player may open it again.
    if (!await page.locator('[data-test=hand].st-hand-folded').count()) fail('the hand stays open while no card has a use');
    const activations = await page.locator('[data-test=action-list] [data-test=action]').count();
    if (!activations) fail('no activation listed during the operations');
    await page.click('[data-test=hand-toggle]');
    await page.waitForFunction(() => document.querySelectorAll('[data-test=card] .st-card-values').length === 6);
    log(`the hand folds during the operations (${activations} actions listed) and opens on request`);
    // In Chinese.
    await page.click('[data-test=lang-toggle]');
    await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'));
    await page.waitForFunction(() => [...document.querySelectorAll('[data-test=card] .st-card-name')].every((n) => /[\u4e00-\u9fff]/.test(n.textContent)));
    log('the cards are named in Chinese');
    await page.waitForFunction(() => document.querySelector('rect[data-space="metz"]')?.getAttribute('data-name') === '梅斯');
    const zhMetz = await hovered();
    if (!zhMetz.startsWith('梅斯') || !/要塞\d/.test(zhMetz)) fail(`hovering Metz in Chinese shows "${zhMetz}"`);
    log(`hovering Metz in Chinese: "${zhMetz}"`);
    // A spectator (another browser, holding no token of this game) sees no hand.
    const other = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    const spectator = await other.newPage();
    await spectator.goto(`${BASE}${created.links.spectator}`);
    await spectator.waitForSelector('[data-test=turn][data-version]');
    if (await spectator.locator('[data-test=hand]').count()) fail('a spectator is shown a hand');
    log('a spectator sees no hand');
    // A second game: the CP starts with Guns of August and plays its event (the German armies
    // into Liege, and an attack at once); once Sedan is attacked, the combat being fought is
    // told above the actions (12.2.1).
    const res2 = await fetch(`${BASE}/api/games`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ game: 'paths-of-glory', scenario: 'campaign', seats: { ap: 'random' } }),
    });
    const second = await res2.json();
    if (!res2.ok) fail(`POST /api/games: ${res2.status} ${JSON.stringify(second)}`);
    await page.goto(`${BASE}${second.links.cp}`);
    await page.waitForSelector('[data-test=turn][data-version]');
    // Back in English (the page kept the language chosen above).
    if ((await page.getAttribute('html', 'lang')).startsWith('zh')) {
      await page.click('[data-test=lang-toggle]');
      await page.waitForFunction(() => document.documentElement.lang.startsWith('en'));
    }
    await page.locator('[data-test=action]', { hasText: 'Start with Guns of August' }).click();
    await page.locator('[data-test=card][data-card="cp-01"] [data-test=card-use]', { hasText: 'event' }).click();
    await page.locator('[data-test=action]', { hasText: 'Attack Sedan' }).click();
    await page.click('[data-test=confirm-ok]');
    await page.waitForFunction(() => (document.querySelector('[data-test=context]')?.textContent || '').startsWith('Combat at'));
    const combat = await page.textContent('[data-test=context]');
    if (!combat.startsWith('Combat at Sedan by the CP: designating the attackers (12.2.2)') || !combat.includes('Defending Sedan')) {
      fail(`the combat being fought reads "${combat}"`);
    }
    log(`the combat being fought: "${combat.slice(0, 80)}…"`);
    if (errors.length) fail(errors.join('\n'));
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
  console.log('e2e: cards test passed');
  process.exit(0);
} catch (e) {
  clearTimeout(timer);
  console.error(`e2e: FAILED: ${e.e2e ? e.message : (e.stack || e)}`);
  process.exit(1);
}

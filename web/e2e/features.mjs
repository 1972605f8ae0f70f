// Checks of the game page that the hotseat test (hotseat.mjs) runs on its game, issue 11:
//
//   stacks     every stack of more than one piece shows its count; tapping the count lists its
//              pieces with their values; the movement costs on lit hexes stand off the counters
//   refusal    a click on a hex the selection cannot go to shows the rule that forbids it
//   phone      at 390×844 with touch, the board and every panel (situation, actions, log) can
//              be reached, and a counter can be selected by a tap
//   chinese    the Chinese page's panels hold no English word beyond hex ids, unit designations
//              and the abbreviations the Chinese rulebooks themselves print in Latin letters
//   charts     the game's charts (how it plays, CRT, terrain, turns, legend, glossary) open
//              from the turn bar, each a table drawn from the game's data
//   longList   a list of thousands of actions shows 60 and how many more, and the filter
//              reaches the rest
//
// Each takes a playwright page (and what it needs) and throws an Error with `e2e` set when the
// page falls short.

/** Terms the Chinese rulebooks print in Latin letters: victory points, zones of control,
 *  disorganised, the series and its terrain effects chart. */
const RULEBOOK_TERMS = new Set(['VP', 'ZOC', 'DG', 'SCS', 'TEC', 'CRT']);

export function fail(msg) {
  const err = new Error(msg);
  err.e2e = true;
  throw err;
}

function log(msg) {
  console.log(`e2e: ${msg}`);
}

/** The stacks of the board: every stack of several pieces carries its count, no other does. */
export async function stacks(page, { keepOpen = false } = {}) {
  const bad = await page.$$eval('[data-test=board-svg] .stack', (ss) => ss.map((s) => {
    const n = Number(s.dataset.count);
    const badge = s.querySelector('.sc text');
    const pieces = s.querySelectorAll('.ctr[data-id]').length;
    if (pieces !== n) return `${s.dataset.hex}: ${pieces} pieces, data-count ${n}`;
    if (n > 1 && (!badge || badge.textContent !== String(n))) return `${s.dataset.hex}: ${n} pieces, count shown ${badge ? badge.textContent : 'none'}`;
    if (n === 1 && badge) return `${s.dataset.hex}: a lone piece with a count`;
    return null;
  }).filter(Boolean));
  if (bad.length) fail(`stack counts: ${bad.slice(0, 5).join('; ')}`);
  // A stack in view, opened by its count: its pieces, each with its values.
  const stack = await page.evaluate(() => {
    const vp = document.querySelector('[data-test=board]').getBoundingClientRect();
    for (const s of document.querySelectorAll('[data-test=board-svg] .stack')) {
      const badge = s.querySelector('.sc circle');
      if (!badge) continue;
      const r = badge.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < vp.left + 20 || y < vp.top + 20 || x > vp.right - 60 || y > vp.bottom - 40) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || !hit.closest('.sc')) continue;
      return { hex: s.dataset.hex, n: Number(s.dataset.count), x, y };
    }
    return null;
  });
  if (!stack) fail('no stack count in view to open');
  await page.mouse.click(stack.x, stack.y);
  await page.waitForSelector('[data-test=popup][data-kind=stack]:not([hidden])');
  const rows = await page.$$eval('[data-test=stack-unit]', (bs) => bs.map((b) => b.textContent.trim()));
  if (rows.length !== stack.n) fail(`the stack at ${stack.hex} holds ${stack.n} pieces, its list ${rows.length}`);
  const bare = rows.filter((r) => !/\d/.test(r));
  if (bare.length) fail(`pieces listed without their values at ${stack.hex}: ${bare.join(', ')}`);
  log(`stack at ${stack.hex} lists its ${stack.n} pieces: ${rows.join(' / ')}`);
  if (!keepOpen) await page.click('[data-test=popup-close]');
}

/** The movement costs on the lit hexes stand off the counters. */
export async function costsOffCounters(page) {
  const over = await page.evaluate(() => {
    const out = [];
    const faces = [...document.querySelectorAll('[data-test=board-svg] .ctr > .face')].map((f) => f.getBoundingClientRect());
    for (const t of document.querySelectorAll('[data-test=board-svg] .st-hl-note')) {
      const r = t.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (faces.some((f) => x > f.left && x < f.right && y > f.top && y < f.bottom)) out.push(t.textContent);
    }
    return { over: out, n: document.querySelectorAll('[data-test=board-svg] .st-hl-note').length };
  });
  if (over.over.length) fail(`movement costs drawn over counters: ${over.over.slice(0, 5).join(', ')}`);
  log(`${over.n} movement costs, none over a counter`);
}

/**
 * With `unit` selected: a click on a hex in view that no action lights and no counter stands
 * in shows the server's refusal with its rule number.
 */
export async function refusal(page, unit) {
  const hex = await page.evaluate(() => {
    const vp = document.querySelector('[data-test=board]').getBoundingClientRect();
    const lit = new Set([...document.querySelectorAll('[data-test=board-svg] .st-hl[data-lit]')].map((p) => p.getAttribute('data-lit')));
    const cands = [];
    for (const p of document.querySelectorAll('[data-test=board-svg] .hx [data-hex]')) {
      const id = p.getAttribute('data-hex');
      if (lit.has(id) || document.querySelector(`[data-test=board-svg] .stack[data-hex="${CSS.escape(id)}"]`)) continue;
      const r = p.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < vp.left + 30 || y < vp.top + 30 || x > vp.right - 70 || y > vp.bottom - 120) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit.getAttribute('data-hex') !== id) continue;
      cands.push({ id, x, y });
    }
    return cands[Math.floor(cands.length / 2)] || null;
  });
  if (!hex) fail('no unlit, empty hex in view to click');
  await page.mouse.click(hex.x, hex.y);
  const shown = page.locator('[data-test=refusal]');
  await shown.waitFor({ state: 'visible' });
  const rule = await shown.getAttribute('data-rule');
  const text = (await shown.textContent()).trim();
  if (!/^\d/.test(rule || '')) fail(`the refusal at ${hex.id} names no rule: "${text}"`);
  if (!text.includes(rule)) fail(`the refusal at ${hex.id} does not show its rule ${rule}: "${text}"`);
  // Still selected: the refusal explains, it does not undo the choice.
  await page.waitForSelector(`[data-test=board-svg] .ctr.st-sel[data-id="${unit}"]`, { state: 'attached' });
  log(`refusal at ${hex.id}: ${text}`);
  await page.click('[data-test=refusal] .st-x');
  await shown.waitFor({ state: 'hidden' });
}

/** Whether an element's middle is on screen and the element (or something in it) is what a tap there hits. */
function reachable(page, locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + Math.min(r.width / 2, 20);
    const y = r.top + r.height / 2;
    if (r.width < 1 || r.height < 1 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return `off screen (${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.width)}×${Math.round(r.height)})`;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) return `covered by ${hit ? hit.className || hit.tagName : 'nothing'}`;
    return null;
  });
}

/**
 * The page of `url` on a phone (390×844, touch): the board takes the top, the panels are tabs
 * below it; every action (and group heading) and the log can be reached by scrolling its
 * panel; a tap on a counter that can act selects it. `shot`, if given, names a PNG to save.
 */
export async function phone(browser, url, shot) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true, locale: 'en-US',
  });
  const errors = [];
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await page.goto(url);
    await page.waitForSelector('[data-test=board-svg] .ctr[data-id]', { state: 'attached' });
    await page.waitForSelector('[data-test=turn][data-version]');
    const screen = page.locator('[data-test=handover-continue]');
    if (await screen.isVisible()) await screen.tap();
    const board = await page.locator('[data-test=board]').boundingBox();
    const side = await page.locator('.st-side').boundingBox();
    if (!board || board.height < 250) fail(`phone: the board is ${board ? Math.round(board.height) : 0} px high`);
    if (!side || side.y < board.y + board.height - 1 || side.y + side.height > 844 + 1) fail(`phone: the panels (${JSON.stringify(side)}) do not sit below the board (${JSON.stringify(board)}) on the screen`);
    for (const tab of ['info', 'actions', 'log']) {
      const why = await reachable(page, page.locator(`[data-test=tab-${tab}]`));
      if (why) fail(`phone: the ${tab} tab is ${why}`);
    }

    // Every action and group heading, scrolled to in its panel, can be tapped.
    await page.tap('[data-test=tab-actions]');
    const items = page.locator('[data-test=action-list] summary, [data-test=action-list] [data-test=action]:visible');
    const n = await items.count();
    if (!n) fail('phone: no action to reach');
    for (let i = 0; i < n; i++) {
      const item = items.nth(i);
      if (!(await item.isVisible())) continue;
      await item.scrollIntoViewIfNeeded();
      const why = await reachable(page, item);
      if (why) fail(`phone: action "${(await item.textContent()).trim().slice(0, 60)}" is ${why}`);
    }
    const panel = await page.locator('[data-test=actions]').boundingBox();
    if (!panel || panel.height < 150) fail(`phone: the action panel is ${panel ? Math.round(panel.height) : 0} px high`);
    log(`phone: ${n} actions and headings reachable`);

    // The log: its lines, the last in view.
    await page.tap('[data-test=tab-log]');
    const lines = page.locator('[data-test=log-line]');
    const last = lines.last();
    await last.scrollIntoViewIfNeeded();
    const whyLog = await reachable(page, last);
    if (whyLog) fail(`phone: the log's last line is ${whyLog}`);
    const first = lines.first();
    await first.scrollIntoViewIfNeeded();
    if (await reachable(page, first)) fail('phone: the log cannot be scrolled back to its first line');
    const logBox = await page.locator('[data-test=log]').boundingBox();
    if (!logBox || logBox.height < 150) fail(`phone: the log is ${logBox ? Math.round(logBox.height) : 0} px high`);
    log(`phone: log of ${await lines.count()} lines readable`);

    await page.tap('[data-test=tab-info]');
    if (await reachable(page, page.locator('[data-test=summary]'))) fail('phone: the situation cannot be read');

    // The board by touch: a tap on a counter that can act selects it.
    await page.tap('[data-test=zoom-focus]');
    await page.waitForTimeout(300); // the view settles (a CSS transform, nothing the page waits on)
    const ctr = await page.evaluate(() => {
      const vp = document.querySelector('[data-test=board]').getBoundingClientRect();
      for (const c of document.querySelectorAll('[data-test=board-svg] .ctr.st-can')) {
        const r = c.getBoundingClientRect();
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        if (x < vp.left + 10 || y < vp.top + 10 || x > vp.right - 56 || y > vp.bottom - 30) continue;
        const hit = document.elementFromPoint(x, y);
        if (!hit || hit.closest('.ctr') !== c) continue;
        return { id: c.dataset.id, x, y };
      }
      return null;
    });
    if (ctr) {
      await page.touchscreen.tap(ctr.x, ctr.y);
      await page.waitForSelector(`[data-test=board-svg] .ctr.st-sel[data-id="${ctr.id}"]`, { state: 'attached' });
      log(`phone: tapped ${ctr.id}, selected`);
    } else {
      log('phone: no counter that can act is in view to tap');
    }
    // The sheet can be raised for a long list, and lowered to give the board the screen.
    await page.tap('[data-test=tab-actions]');
    await page.tap('[data-test=sheet-size]');
    const full = await page.locator('.st-side').boundingBox();
    await page.tap('[data-test=sheet-size]');
    const low = await page.locator('.st-side').boundingBox();
    const bigBoard = await page.locator('[data-test=board]').boundingBox();
    if (!(full.height > side.height && low.height < side.height && bigBoard.height > board.height)) {
      fail(`phone: the sheet does not raise and lower (${Math.round(side.height)} → ${Math.round(full.height)} → ${Math.round(low.height)})`);
    }
    await page.tap('[data-test=sheet-size]');
    if (shot) {
      await page.tap('[data-test=tab-actions]');
      await page.screenshot({ path: shot });
      log(`screenshot ${shot}`);
    }
    if (errors.length) fail(errors.join('\n'));
  } finally {
    await context.close();
  }
}

/**
 * The Chinese page: the words of its panels (situation, actions, log) and of a stack's list are
 * Chinese, but for hex ids, numbers, rule numbers, the designations the counters themselves
 * carry (the abbreviations in their titles on the Chinese board) and the rulebooks' own
 * abbreviations.
 */
export async function chinese(page) {
  const found = await page.evaluate((terms) => {
    const designations = new Set();
    for (const t of document.querySelectorAll('[data-test=board-svg] .ctr > title')) {
      // A designation is an abbreviation (12 Fus, 3 RTR, II/9): a name in Latin letters (a
      // commander's, Recke) is not one, and is transliterated on the Chinese page.
      for (const w of t.textContent.match(/[A-Za-z][A-Za-z.'’-]*/g) || []) if (w.length <= 4 || w === w.toUpperCase()) designations.add(w);
    }
    const out = [];
    const texts = [];
    for (const sel of ['[data-test=info]', '[data-test=actions]', '[data-test=log-panel]', '[data-test=turn]', '[data-test=popup]:not([hidden])']) {
      const el = document.querySelector(sel);
      if (el) texts.push([sel, el.innerText]);
    }
    for (const s of document.querySelectorAll('[data-test=action-list] details:not([open]) > summary')) texts.push(['group', s.innerText]);
    for (const [where, text] of texts) {
      // Hex ids (0512, B12.20), rule numbers and numbers carry no word.
      const words = text.replace(/\b[A-Z]?\d+(\.\d+)*\b/g, ' ').match(/[A-Za-z][A-Za-z'’-]*/g) || [];
      for (const w of words) {
        if (terms.includes(w) || designations.has(w)) continue;
        out.push(`${w} (${where}: …${text.slice(Math.max(0, text.indexOf(w) - 30), text.indexOf(w) + 30).replace(/\s+/g, ' ')}…)`);
      }
    }
    return out;
  }, [...RULEBOOK_TERMS]);
  if (found.length) fail(`English on the Chinese page: ${[...new Set(found)].slice(0, 12).join('; ')}`);
  log('the Chinese panels speak Chinese');
}

/** The game's charts open from the turn bar: every one a table with rows, in the page's language. */
export async function charts(page) {
  await page.click('[data-test=charts-open]');
  await page.waitForSelector('[data-test=charts]:not([hidden]) [data-test=chart-table]');
  const ids = await page.$$eval('[data-test=charts] .st-chart-tab', (bs) => bs.map((b) => b.dataset.test.replace(/^chart-/, '')));
  for (const want of ['play', 'crt', 'tec', 'turns', 'legend', 'glossary']) {
    if (!ids.includes(want)) fail(`charts: no ${want} among ${ids.join(', ')}`);
  }
  for (const id of ids) {
    await page.click(`[data-test=chart-${id}]`);
    await page.waitForSelector(`[data-test=chart-${id}].st-on`);
    const rows = await page.locator('[data-test=chart-table] tbody tr').count();
    if (!rows) fail(`charts: ${id} has no rows`);
  }
  await page.click('[data-test=charts-close]');
  await page.waitForSelector('[data-test=charts]', { state: 'hidden' });
  log(`charts: ${ids.join(', ')}`);
}

/**
 * What the server says of the dice reaches each seat (issue 12): a game whose creator chose
 * the seed says so in the turn bar and the situation panel, in the page's language.
 */
export async function diceFixed(page, fixed) {
  const badge = page.locator('[data-test=dice-fixed]');
  if (fixed !== await badge.isVisible()) fail(`dice: the turn bar ${fixed ? 'does not say' : 'says'} that the creator chose the seed`);
  const said = (await page.textContent('[data-test=dice]')).trim();
  if (!said) fail('dice: the situation panel does not say where the dice come from');
  log(`dice: ${said}`);
}

/**
 * A computer seat whose move the server could not store (`stalled`, docs/api.md) is shown as
 * waiting, with why, where the player looks while the computer decides: the turn bar and the
 * situation panel. The server's document is given a `stalled` (and the computer to decide) here.
 */
export async function stalled(page, computerSeat) {
  const why = { en: 'the computer\'s move could not be stored (disk full); it is being tried again', zh: '电脑的行动无法保存(磁盘已满);正在重试' };
  const doc = /\/api\/games\/[^/?]+(\?.*)?$/;
  await page.route(doc, async (route) => {
    if (route.request().method() !== 'GET') { await route.continue(); return; }
    const res = await route.fetch();
    const body = await res.json();
    body.stalled = body.lang ? why[body.lang] : why;
    body.pending = { kind: 'seat', seat: computerSeat };
    body.legal = [];
    body.outcome = null;
    await route.fulfill({ response: res, json: body });
  });
  const poke = () => page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await poke();
  await page.waitForSelector('[data-test=turn] [data-test=stalled]');
  const bar = (await page.textContent('[data-test=turn]')).trim();
  const lang = await page.evaluate(() => document.documentElement.lang);
  if (!bar.includes(lang.startsWith('zh') ? why.zh : why.en)) fail(`stalled: the turn bar does not say why: ${bar}`);
  if (!(await page.textContent('[data-test=stalled-notice]')).includes(lang.startsWith('zh') ? why.zh : why.en)) fail('stalled: the situation panel does not say why');
  log(`stalled: ${bar}`);
  // Let a document fetched while the check ran finish with its `stalled` before the route goes
  // (unrouting under a running handler leaves it fulfilling a route already let go).
  await page.unrouteAll({ behavior: 'wait' });
  await poke();
  await page.waitForSelector('[data-test=turn] [data-test=stalled]', { state: 'detached' });
}

/**
 * A damaged game (one the server cannot open) is listed in the lobby as damaged, with the
 * server's reason in the page's language; it offers nothing to resume. The list is given one
 * such game here, as the server lists it (docs/api.md, GET /api/games).
 */
export async function damagedInLobby(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    const why = { en: 'damaged, cannot be played: step 12 does not replay', zh: '已损坏,无法进行:第 12 步无法重放' };
    await page.route(/\/api\/games(\?.*)?$/, async (route) => {
      if (route.request().method() !== 'GET') { await route.continue(); return; }
      const res = await route.fetch();
      const games = await res.json();
      games.unshift({
        id: 'damaged0000', game: '', title: null, scenario: null, created: null, updated: null, version: null,
        seats: [], pending: null, over: false, summary: why, damaged: why,
      });
      await route.fulfill({ response: res, json: games });
    });
    await page.goto(`${base}/`);
    for (const lang of ['en', 'zh']) {
      if (lang === 'zh') {
        await page.click('[data-test=lang-toggle]');
        await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'));
      }
      const row = page.locator('[data-test=game-row][data-game=damaged0000]');
      await row.waitFor();
      const reason = (await row.locator('[data-test=damaged-why]').textContent()).trim();
      const pill = (await row.locator('[data-test=damaged]').textContent()).trim();
      if (reason !== why[lang]) fail(`lobby (${lang}): the damaged game's reason reads "${reason}"`);
      if (!pill || (lang === 'zh' && /[A-Za-z]/.test(pill))) fail(`lobby (${lang}): the damaged game is marked "${pill}"`);
      if (await row.locator('a').count()) fail(`lobby (${lang}): a damaged game offers a link`);
      log(`lobby (${lang}): ${pill} — ${reason}`);
    }
    if (errors.length) fail(errors.join('\n'));
  } finally {
    await context.close();
  }
}

/**
 * Part of a stack moves together (issue 12, SCS 6.0): of a group the action list offers only
 * whole, two counters are picked in the stack's list; the page lights where those two may go
 * together (asked of the server), and a click there moves the two and leaves the rest. Returns
 * false, having changed nothing, when no such group stands in view.
 */
export async function partOfStack(page) {
  const group = await page.evaluate(() => {
    const vp = document.querySelector('[data-test=board]').getBoundingClientRect();
    const groups = [...document.querySelectorAll('[data-test=action][data-kind="move"], [data-test=action-pack]')]
      .map((b) => (b.dataset.units || '').split(',').filter(Boolean))
      .filter((us) => us.length >= 3);
    for (const units of groups) {
      const c = document.querySelector(`[data-test=board-svg] .ctr[data-id="${CSS.escape(units[0])}"]`);
      const s = c && c.closest('.stack');
      const badge = s && s.querySelector('.sc circle');
      if (!badge) continue;
      const r = badge.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < vp.left + 20 || y < vp.top + 20 || x > vp.right - 60 || y > vp.bottom - 40) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || !hit.closest('.sc')) continue;
      return { units, hex: s.dataset.hex, x, y };
    }
    return null;
  });
  if (!group) {
    log('no group of three or more counters moving together in view');
    return false;
  }
  const [a, b] = group.units;
  const rest = group.units.slice(2);
  await page.keyboard.press('Escape');
  await page.mouse.click(group.x, group.y);
  await page.waitForSelector('[data-test=popup][data-kind=stack]:not([hidden])');
  for (const u of [a, b]) {
    await page.click(`[data-test=stack-unit][data-unit="${u}"]`);
    await page.waitForSelector(`[data-test=board-svg] .ctr.st-sel[data-id="${u}"]`, { state: 'attached' });
  }
  const sel = await page.$$eval('[data-test=board-svg] .ctr.st-sel', (cs) => cs.map((c) => c.dataset.id).sort());
  if (sel.join(',') !== [a, b].sort().join(',')) fail(`picked ${a} and ${b} at ${group.hex}, selected ${sel.join(', ')}`);
  await page.click('[data-test=popup-close]');
  // The hexes the two may reach together, lit from the server's answer.
  await page.waitForSelector('[data-test=board-svg] .st-hl[data-lit]', { state: 'attached' });
  const target = await page.evaluate(() => {
    const vp = document.querySelector('[data-test=board]').getBoundingClientRect();
    for (const p of document.querySelectorAll('[data-test=board-svg] .st-hl[data-lit]')) {
      const hex = p.getAttribute('data-lit');
      if (document.querySelector(`[data-test=board-svg] .stack[data-hex="${CSS.escape(hex)}"]`)) continue;
      const r = p.getBoundingClientRect();
      if (r.left < vp.left + 10 || r.top < vp.top + 10 || r.right > vp.right - 60 || r.bottom > vp.bottom - 40) continue;
      return hex;
    }
    return null;
  });
  if (!target) fail(`no empty lit hex in view for ${a} and ${b} from ${group.hex}`);
  const version = await page.getAttribute('[data-test=turn]', 'data-version');
  await page.locator(`[data-test=board-svg] .hx [data-hex="${target}"]`).click();
  const menu = page.locator('[data-test=choice][data-kind="move"]').first();
  await Promise.race([
    page.waitForFunction((v) => document.querySelector('[data-test=turn]').dataset.version !== v, version),
    menu.waitFor({ state: 'visible' }).then(() => menu.click()),
  ]);
  await page.waitForFunction((v) => document.querySelector('[data-test=turn]').dataset.version !== v, version);
  for (const u of [a, b]) {
    await page.waitForSelector(`[data-test=board-svg] [data-hex="${target}"] .ctr[data-id="${u}"]`, { state: 'attached' });
  }
  for (const u of rest) {
    await page.waitForSelector(`[data-test=board-svg] [data-hex="${group.hex}"] .ctr[data-id="${u}"]`, { state: 'attached' });
  }
  log(`${a} and ${b} moved together from ${group.hex} to ${target}; ${rest.join(', ')} stayed`);
  return true;
}

/**
 * A list too long to show whole: the Ardennes II campaign, seed 1, opens with the US placing Air
 * Supply on any of 4,400 hexes (2.2). The list shows 60 of them and says how many more and how to
 * reach them; the filter narrows the list to the hexes typed, all shown.
 */
export async function longList(browser, base) {
  const res = await fetch(`${base}/api/games`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: 'ardennes-ii', scenario: 'campaign', seed: 1, seats: { german: 'scripted' } }),
  });
  const created = await res.json();
  if (!res.ok) fail(`POST /api/games: ${res.status} ${JSON.stringify(created)}`);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(`${base}${created.links.allied}`);
    await page.waitForSelector('[data-test=action-more]');
    const shown = await page.locator('[data-test=action-list] [data-test=action]').count();
    const more = Number(await page.getAttribute('[data-test=action-more]', 'data-n'));
    const legal = Number((await page.textContent('[data-test=legal-count]')).replace(/\D/g, ''));
    if (shown > 61 || shown + more !== legal) fail(`a long list shows ${shown} actions and says ${more} more of ${legal}`);
    await page.fill('[data-test=action-filter]', 'B20.0');
    await page.waitForFunction(() => !document.querySelector('[data-test=action-more]'));
    const found = await page.$$eval('[data-test=action-list] [data-test=action]', (bs) => bs.map((b) => b.textContent));
    if (!found.length || !found.every((t) => t.includes('B20.0'))) fail(`the filter found ${JSON.stringify(found)}`);
    log(`a list of ${legal}: ${shown} shown and "${more} more"; the filter finds ${found.length}`);
  } finally {
    await context.close();
  }
}

// The game page (`/game/{id}`): the board, the situation, the legal actions and the log, for
// the seats whose tokens this browser holds (several in a hotseat game), or for a spectator.
//
// Every action is one the server listed; the page takes it by clicking counters and hexes
// (each action says how: its `kind`) or from the list (under its `group` heading), and sends
// back its place in the list with the version it was listed at. The page knows no game's
// rules or words: the next game needs no code here.
//
// The page never shows an older version of the game than the newest it has seen: every
// document it receives (the answer to its own action, a fetch after an update event) is
// compared by `version`, which grows with every change, undo included; an older one is
// dropped, and if an update event named a newer version than the one shown, the page fetches
// again until it has caught up.

import { Board } from './board.js';
import { api, app, h, header, knownTokens, load, rememberTokens, store, svgEl, toast } from './util.js';
import { lang, t, tx } from './words.js';

/** The replay bar's key: the swatch, the words, and the kinds of mark (docs/api.md, "marks") each counts. */
const REPLAY_KEY = [
  ['st-key-arrow', 'replayMoves', ['move']],
  ['st-key-retreat', 'replayRetreats', ['retreat']],
  ['st-key-advance', 'replayAdvances', ['advance']],
  ['st-key-attack', 'replayAttacks', ['attack']],
  ['st-key-barrage', 'replayBarrages', ['barrage']],
  ['st-key-loss', 'replayLosses', ['step-lost']],
  ['st-key-gone', 'replayGone', ['eliminated']],
  ['st-key-withdrawn', 'replayWithdrawn', ['withdrawn']],
  ['st-key-arrive', 'replayArrived', ['arrived']],
];

/** How many buttons a flat list of actions shows before it says how many more there are. */
const LIST_CAP = 60;

/** The set of units of an action, as a key: sorted ids joined by commas. */
/** How many actions entries stand for (a pack stands for all its moves). */
function size(entries) {
  return entries.reduce((n, e) => n + (e.pack !== undefined ? e.count : 1), 0);
}

function unitsKey(units) {
  return (units || []).slice().sort().join(',');
}
/** Whether an action commits units to an attack (asked to confirm before it is sent). */
function isAttack(a) {
  return a.kind === 'attack';
}

/** How a hex an action aims at is lit: `attack`, `move` (a unit or a piece goes there) or `other`. */
function litKind(acts) {
  if (acts.some((e) => isAttack(e.a))) return 'attack';
  if (acts.some((e) => e.a.kind === 'move' || e.a.kind === 'place')) return 'move';
  return 'other';
}

/** The hint of how to move the map: by touch or by mouse. */
function keysHintKey() {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches ? 'touchHint' : 'keysHint';
}

/** How often a page waiting on someone else looks again by itself, in case an update was lost. */
const WATCH_MS = 30_000;

export class GamePage {
  constructor(id) {
    this.id = id;
    this.tokens = []; // tokens this page holds
    this.seatToken = {}; // seat number -> token
    this.viewToken = null; // the token of the seat being shown
    this.state = null;
    this.selection = new Set();
    this.filter = '';
    this.mapLang = null; // the language of the map on the page
    this.mapLoading = null; // the map being fetched: {lang, promise}
    this.busy = false;
    this.seen = -1; // the newest version this page has heard of (update events, documents)
    this.refreshing = null; // the refresh under way (a promise)
    this.again = false; // whether another refresh must follow the one under way
    this.es = null;
    this.shownSeat = undefined; // the seat whose view was last rendered
    this.baseline = {}; // seat key -> journal length seen before this page showed it
    this.journalShown = { key: '', n: 0 };
    this.screened = false;
    this.lastHover = null;
    this.openGroups = new Set();
    this.jlogs = new Map(); // token ('' for a spectator) -> {lines, over}: the log as that seat reads it
    this.tab = 'actions'; // the panel shown on a narrow screen: info, actions or log
    this.sheet = 'half'; // how much of a narrow screen the panels take: min (tabs only), half, full
  }

  // --- a narrow screen: the panels as tabs of a sheet -------------------------------------------

  /** Shows panel `name` (on a narrow screen); touching the shown tab of a lowered sheet raises it. */
  setTab(name, byHand = false) {
    const E = this.el;
    if (byHand && this.sheet === 'min') this.setSheet('half');
    this.tab = name;
    E.side.dataset.tab = name;
    for (const [n, b] of Object.entries(E.tabBtns)) {
      b.classList.toggle('st-on', n === name);
      b.setAttribute('aria-selected', String(n === name));
    }
    if (name === 'log' && E.logList) E.logList.scrollTop = E.logList.scrollHeight;
  }

  setSheet(size) {
    this.sheet = size;
    this.el.side.dataset.sheet = size;
    this.labelTabs();
    if (this.board) requestAnimationFrame(() => this.board.clamp());
  }

  /** The sheet's size, in turn: half, full, lowered to its tabs. */
  cycleSheet() {
    this.setSheet({ half: 'full', full: 'min', min: 'half' }[this.sheet] || 'half');
  }

  /** The tabs' words in the page's language, the actions' with their number. */
  labelTabs() {
    const E = this.el;
    const n = this.legal ? this.legalCount : 0;
    E.tabBtns.info.textContent = t('situation');
    E.tabBtns.actions.replaceChildren(t('actions'), n ? h('span', { class: 'st-count', test: 'tab-count' }, String(n)) : null);
    E.tabBtns.log.textContent = t('log');
    E.sheetBtn.textContent = { half: '▴', full: '▾', min: '▴' }[this.sheet] || '▴';
    E.sheetBtn.title = t(this.sheet === 'full' ? 'sheetLower' : 'sheetRaise');
    this.setTab(this.tab);
  }

  // --- start and tokens -----------------------------------------------------------------------

  async start() {
    const frag = new URLSearchParams(location.hash.replace(/^#/, ''));
    const fromFrag = (frag.get('t') || '').split(',').map((s) => s.trim()).filter(Boolean);
    if (location.hash === '#spectate') this.tokens = [];
    else if (fromFrag.length) this.tokens = fromFrag;
    else this.tokens = Object.values(knownTokens(this.id)).filter(Boolean);
    if (!fromFrag.length && location.hash !== '#spectate') {
      const also = load(`st-frag-${this.id}`, []);
      for (const tk of also) if (!this.tokens.includes(tk)) this.tokens.push(tk);
    }
    if (fromFrag.length) store(`st-frag-${this.id}`, fromFrag);
    this.layout();
    await this.resolveTokens();
    await this.refresh();
    this.listen();
  }

  /** Learns which seat each token plays (the server says so in `you`). */
  async resolveTokens() {
    const mine = {};
    const good = [];
    for (const tk of this.tokens) {
      try {
        const st = await api('GET', this.url('?journal_from=1000000000'), { token: tk });
        this.hear(st.version);
        if (typeof st.you === 'number') {
          this.seatToken[st.you] = tk;
          good.push(tk);
          const seat = st.seats && st.seats[st.you];
          if (seat) mine[seat.id] = tk;
        }
      } catch (e) {
        if (e.status === 404) { this.fatal(t('notFound')); return; }
        if (e.code !== 'wrong-token') toast(e.describe(), 'error');
      }
    }
    this.tokens = good;
    if (Object.keys(mine).length) rememberTokens(this.id, mine);
    this.viewToken = good[0] || null;
  }

  destroy() {
    this.dead = true;
    if (this.es) this.es.close();
    clearInterval(this.watch);
    document.removeEventListener('visibilitychange', this.onVisible);
    if (this.board) this.board.destroy();
    document.removeEventListener('keydown', this.onKey);
  }

  fatal(msg) {
    app.replaceChildren(header(), h('main', { class: 'st-lobby' }, h('section', { class: 'st-card' },
      h('p', { class: 'st-error', test: 'fatal' }, msg), h('a', { class: 'st-btn', href: '/' }, t('lobby')))));
    this.dead = true;
  }

  // --- the page's frame -------------------------------------------------------------------------

  layout() {
    this.el = {};
    const E = this.el;
    E.title = h('div', { class: 'st-game-title', test: 'game-title' });
    E.turn = h('div', { class: 'st-turn', id: 'st-turn', test: 'turn', role: 'status' });
    E.viewport = h('div', { class: 'st-viewport', test: 'board' });
    E.status = h('div', { class: 'st-statusline', test: 'status-line' }, t(keysHintKey()));
    E.tip = h('div', { class: 'st-tip', hidden: true, test: 'hex-tip' });
    E.zoom = h('div', { class: 'st-zoom' },
      h('button', { class: 'st-zbtn', test: 'zoom-in', title: t('zoomIn'), onclick: () => this.board.zoomBy(1.25) }, '+'),
      h('button', { class: 'st-zbtn', test: 'zoom-out', title: t('zoomOut'), onclick: () => this.board.zoomBy(0.8) }, '−'),
      h('button', { class: 'st-zbtn', test: 'zoom-fit', title: t('fit'), onclick: () => this.board.fit() }, '⤢'),
      h('button', { class: 'st-zbtn', test: 'zoom-focus', title: t('focus'), onclick: () => this.focusActive(true) }, '◎'));
    E.popup = h('div', { class: 'st-popup', hidden: true, test: 'popup' });
    E.refusal = h('div', { class: 'st-refusal', hidden: true, test: 'refusal', role: 'alert' });
    E.replay = h('div', { class: 'st-replay', hidden: true, test: 'replay' });
    E.screen = h('div', { class: 'st-screen', hidden: true, test: 'handover' });
    E.charts = h('div', { class: 'st-charts', hidden: true, test: 'charts' });
    E.boardWrap = h('div', { class: 'st-board' }, E.viewport, E.replay, E.zoom, E.status, E.tip, E.refusal, E.popup);
    E.side = h('aside', { class: 'st-side', dataset: { tab: this.tab, sheet: this.sheet } });
    E.info = h('section', { class: 'st-panel st-info', test: 'info', dataset: { tab: 'info' } });
    E.acts = h('section', { class: 'st-panel st-actions', test: 'actions', dataset: { tab: 'actions' } });
    E.log = h('section', { class: 'st-panel st-logpanel', test: 'log-panel', dataset: { tab: 'log' } });
    // On a narrow screen (a phone) the three panels are tabs of a sheet below the board.
    E.tabBtns = {};
    for (const name of ['info', 'actions', 'log']) {
      E.tabBtns[name] = h('button', {
        class: 'st-tab', role: 'tab', test: `tab-${name}`, dataset: { tab: name },
        onclick: () => this.setTab(name, true),
      });
    }
    E.sheetBtn = h('button', { class: 'st-tab st-sheet-btn', test: 'sheet-size', onclick: () => this.cycleSheet() });
    E.tabs = h('nav', { class: 'st-tabs', role: 'tablist', test: 'tabs' }, Object.values(E.tabBtns), E.sheetBtn);
    E.side.append(E.tabs, E.info, E.acts, E.log);
    this.labelTabs();
    E.headerMid = h('div', { class: 'st-header-info' }, E.title);
    app.replaceChildren(
      this.headerEl = header(E.headerMid),
      E.turn,
      h('main', { class: 'st-game' }, E.boardWrap, E.side, E.screen, E.charts));
    this.board = new Board(E.viewport, {
      click: (target, ev) => this.onBoardClick(target, ev),
      hover: (hex, target, ev) => this.onHover(hex, target, ev),
    });
    E.viewport.addEventListener('pointermove', (ev) => this.moveTip(ev));
    document.addEventListener('keydown', this.onKey = (ev) => {
      if (ev.key === 'Escape') { this.closePopup(); this.setSelection([]); this.el.charts.hidden = true; }
      if (ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) return;
      if (ev.key === '+' || ev.key === '=') this.board.zoomBy(1.25);
      if (ev.key === '-') this.board.zoomBy(0.8);
    });
  }

  /** Everything in the new language: the page's own words at once, the game's when the document and the map in that language arrive. */
  onLang() {
    if (!this.el || this.dead) return;
    this.closePopup();
    if (!this.el.charts.hidden) this.openCharts();
    this.el.status.textContent = t(keysHintKey());
    this.lastHover = null;
    this.relabel();
    if (this.state) {
      this.retitle();
      this.renderAll();
      this.refresh();
    }
  }

  /** The page's fixed parts (header, map buttons) in the new language. */
  relabel() {
    const old = this.headerEl;
    this.headerEl = header(this.el.headerMid);
    old.replaceWith(this.headerEl);
    this.el.zoom.children[0].title = t('zoomIn');
    this.el.zoom.children[1].title = t('zoomOut');
    this.el.zoom.children[2].title = t('fit');
    this.labelTabs();
    this.journalShown = { key: '', n: 0 };
  }

  // --- fetching ---------------------------------------------------------------------------------

  url(p = '') {
    return `/api/games/${encodeURIComponent(this.id)}${p}`;
  }

  /** Notes a version the page has heard of. */
  hear(version) {
    if (typeof version === 'number' && version > this.seen) this.seen = version;
  }

  /** Whether a document is older than the one shown (and so must not replace it). */
  older(st) {
    return !!(this.state && st.version < this.state.version);
  }

  /**
   * Fetches the game (switching a hotseat page to the seat that must decide) and shows it.
   * One refresh at a time: asked for during one, another follows it. It goes on until the page
   * shows the newest version it has heard of.
   */
  refresh() {
    if (this.dead) return Promise.resolve();
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        for (;;) {
          this.again = false;
          const before = this.state ? this.state.version : -1;
          await this.refreshOnce();
          if (this.dead || this.failed) break;
          if (this.again) continue;
          if (!this.state || this.seen <= this.state.version) break;
          // Behind what an update named, and this fetch brought nothing newer: the server's
          // game went back (rebuilt from its database after a failed write). Take it as it is.
          if (this.state.version <= before) { this.seen = this.state.version; break; }
        }
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  async refreshOnce() {
    let st;
    let token = this.viewToken;
    this.failed = false;
    try {
      st = await this.fetchGame(token);
      const p = st.pending || {};
      if (p.kind === 'seat' && p.seat !== st.you && this.seatToken[p.seat] !== undefined) {
        token = this.seatToken[p.seat];
        st = await this.fetchGame(token);
      }
    } catch (e) {
      this.failed = true;
      if (e.status === 404) { this.fatal(t('notFound')); return; }
      toast(e.describe(), 'error');
      return;
    }
    // Hotseat: the seat that just acted may still take its action back from this page.
    let undoBy = null;
    if (!st.can_undo && this.tokens.length > 1) {
      for (const [seat, tk] of Object.entries(this.seatToken)) {
        if (tk === token) continue;
        try {
          const other = await api('GET', this.url('?journal_from=1000000000'), { token: tk });
          if (other.can_undo && other.version === st.version) undoBy = { seat: Number(seat), token: tk };
        } catch (_) { /* nothing to offer */ }
      }
    }
    if (this.older(st)) return; // something newer was shown meanwhile
    if (st.lang !== lang) this.again = true; // the language changed meanwhile: fetch it in the new one
    this.viewToken = token;
    this.undoBy = undoBy;
    this.setState(st);
  }

  /** The log of `token`'s seat as this page has it, in the page's language. */
  jlog(token) {
    return this.jlogs.get(`${token || ''}|${lang}`);
  }

  /**
   * The query of a game document: the page form in the page's language, and the log lines
   * to ask for: from one before the last line this page has of `token`'s log (the overlap
   * tells whether the lines it has still stand), or all.
   */
  query(token) {
    const j = this.jlog(token);
    const from = !j || j.over || j.lines.length < 2 ? '' : `&journal_from=${j.lines.length - 1}`;
    // The pieces layer this page has of this seat's view, to receive the next as what changed.
    const K = this.piecesKept;
    const pieces = K && K.key === `${token || ''}|${lang}` ? `&pieces_from=${K.version}` : '';
    return `?page=${lang}${from}${pieces}`;
  }

  /** Completes an answer's log and pieces layer from what this page has (false: they do not fit). */
  merged(st, token) {
    return this.mergeJournal(st, token) && this.mergePieces(st, token);
  }

  /**
   * Makes an answer's pieces layer whole: one sent as what changed since the layer this page
   * has (`pieces_delta`, docs/api.md: runs of that layer's lines and new lines) is rebuilt from
   * it. Keeps the newest layer for the next answer. False when the page no longer has the layer
   * the answer was made from: then the game must be fetched whole.
   */
  mergePieces(st, token) {
    const key = `${token || ''}|${st.lang || lang}`;
    const K = this.piecesKept;
    if (st.pieces_delta) {
      const d = st.pieces_delta;
      if (!K || K.key !== key || K.version !== d.from) return false;
      const lines = K.text.split('\n');
      const out = [];
      for (const step of d.steps || []) {
        if (typeof step === 'string') { out.push(step); continue; }
        const [first, n] = step;
        if (!(first >= 0 && n >= 0 && first + n <= lines.length)) return false;
        for (let i = first; i < first + n; i++) out.push(lines[i]);
      }
      st.pieces = out.join('\n');
      delete st.pieces_delta;
    }
    if (typeof st.pieces === 'string' && (!K || K.key !== key || K.version <= st.version)) {
      this.piecesKept = { key, version: st.version, text: st.pieces };
    }
    return true;
  }

  /**
   * Completes an answer that carries only the newest log lines with the lines this page has.
   * Answers false when they do not fit (an undo changed the log, the game ended and showed
   * everything): then the whole log must be fetched. An answer older than the log kept
   * leaves it as it is.
   */
  mergeJournal(st, token) {
    const key = `${token || ''}|${st.lang || lang}`;
    const lines = st.journal || [];
    const from = typeof st.journal_from === 'number' ? st.journal_from : 0;
    const over = !!(st.pending && st.pending.kind === 'over');
    const j = this.jlogs.get(key);
    if (from === 0) {
      if (!j || j.version <= st.version) this.jlogs.set(key, { lines, over, version: st.version });
      return true;
    }
    const same = (a, b) => a && b && !!a.heading === !!b.heading && a.text === b.text;
    if (!j || j.over !== over || from > j.lines.length || !lines.length || !same(j.lines[from], lines[0])) {
      return false;
    }
    const all = j.lines.slice(0, from).concat(lines);
    if (j.version <= st.version) this.jlogs.set(key, { lines: all, over, version: st.version });
    st.journal = all;
    return true;
  }

  /** GET the game as `token`'s seat sees it, asking only for log lines the page lacks. */
  async fetchGame(token) {
    let st = await api('GET', this.url(this.query(token)), { token });
    this.hear(st.version);
    if (!this.merged(st, token)) {
      st = await api('GET', this.url(`?page=${lang}`), { token });
      this.hear(st.version);
      this.merged(st, token);
    }
    return st;
  }

  setState(st) {
    const prev = this.state;
    const seatChanged = this.shownSeat !== undefined && this.shownSeat !== st.you;
    this.state = st;
    if (prev && prev.version !== st.version) this.hideRefusal();
    this.prepare();
    if (prev && prev.version !== st.version) this.selection.clear();
    else this.setSelection([...this.selection].filter((u) => this.selectable.has(u)), false);
    if (seatChanged && this.tokens.length > 1 && this.screenBetween()) this.screened = true;
    if (this.shownSeat !== st.you) {
      const key = this.seatKey(st.you);
      this.baseline[key] = load(`st-seen-${this.id}-${key}`, null);
      this.journalShown = { key: '', n: 0 };
    }
    this.shownSeat = st.you;
    const mine = (x) => !!(x && x.pending && x.pending.kind === 'seat' && x.pending.seat === x.you);
    if (mine(st) && !mine(prev) && this.tab === 'info') this.setTab('actions');
    // The decision comes back to this seat from someone else (or the page opens on it): what
    // happened meanwhile may be stepped through.
    if (mine(st) && (!mine(prev) || prev.you !== st.you)) this.returnedAt = `${this.seatKey(st.you)}|${st.version}`;
    this.retitle();
    this.renderAll();
    this.showBoard();
    this.watchIfWaiting();
  }

  /** The tab's title, marked while this page must decide (for a player in another tab). */
  retitle() {
    const st = this.state;
    const mine = st.pending && st.pending.kind === 'seat' && st.pending.seat === st.you;
    document.title = `${mine ? '● ' : ''}${tx(st.title)} · ${t('brand')}`;
  }

  seatKey(you) {
    return typeof you === 'number' && this.state && this.state.seats[you] ? this.state.seats[you].id : 'spectator';
  }

  screenBetween() {
    return load('st-screen-between', true) !== false;
  }

  /** The map in the document's language (fetched once; the browser keeps it), then the document's pieces on it. */
  async showBoard() {
    const st = this.state;
    if (!st) return;
    const want = st.lang || lang;
    if (this.mapLang !== want) {
      if (!this.mapLoading || this.mapLoading.lang !== want) {
        this.mapLoading = { lang: want, promise: this.loadMap(want) };
      }
      const ok = await this.mapLoading.promise;
      if (!ok || this.state !== st) return; // failed, or a newer document shows itself
    }
    const first = !this.piecesShown;
    try {
      this.board.setPieces(st.pieces);
    } catch (e) {
      toast(t('boardFailed'), 'error');
      return;
    }
    this.piecesShown = true;
    this.piecesLang = want;
    // The names of the counters in the lists come from the pieces: in their new language now.
    if (this.actionsNamedIn !== want) this.renderActions();
    if (first) this.focusActive(true);
    else if (!this.hadTargets && this.hasTargets()) this.focusActive(true);
    this.hadTargets = this.hasTargets();
    this.paint();
    this.renderReplay();
  }

  /** Fetches the map alone in `want` and puts it on the page; answers whether it did. */
  async loadMap(want) {
    let text;
    try {
      const res = await fetch(this.url(`/map.svg?lang=${want}`));
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = await res.text();
    } catch (e) {
      toast(`${t('boardFailed')} ${e.message}`, 'error');
      this.mapLoading = null;
      return false;
    }
    if (this.mapLoading && this.mapLoading.lang !== want) return false;
    try {
      this.board.setMap(text);
    } catch (e) {
      toast(t('boardFailed'), 'error');
      this.mapLoading = null;
      return false;
    }
    this.mapLang = want;
    this.mapLoading = null;
    return true;
  }

  /**
   * Brings the counters that can act now into view: always when asked (and at first, when the
   * whole map shows if none can act), else only when none of them is in view already.
   */
  focusActive(always) {
    const pts = [];
    for (const id of this.selectable) {
      const c = this.board.ctrEls.get(id);
      const hex = c && this.board.hexOf(this.board.stackOf(c) || c);
      const p = hex && this.board.centre(hex);
      if (p) pts.push(p);
    }
    if (!pts.length) {
      // No counter to pick: the hexes the actions aim at (a combat to resolve, say).
      for (const e of this.legal || []) {
        for (const hx of e.hexes) {
          const p = this.board.centre(hx);
          if (p) pts.push(p);
        }
      }
    }
    if (!pts.length) { if (always) this.board.fit(); return; }
    if (!always && pts.some((p) => this.board.inView(p, 40))) return;
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    this.board.show([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], 1.1);
  }

  /**
   * Listens for the game's changes. Each update names the new version: the page fetches the
   * game unless it shows that version already. A reconnected stream begins with the version
   * as it is then, so changes missed while it was down are caught up; a page shown again
   * after being hidden looks again too.
   */
  listen() {
    if (this.dead) return;
    document.addEventListener('visibilitychange', this.onVisible = () => {
      if (document.visibilityState === 'visible') this.refresh();
    });
    if (typeof EventSource === 'undefined') return;
    const tk = this.tokens[0];
    const src = this.url(`/events${tk ? `?token=${encodeURIComponent(tk)}` : ''}`);
    this.es = new EventSource(src);
    let warned = false;
    this.es.addEventListener('update', (ev) => {
      let v = null;
      try { v = JSON.parse(ev.data).version; } catch (_) { v = null; }
      this.hear(v);
      if (this.state && typeof v === 'number' && v <= this.state.version) return;
      this.refresh();
    });
    this.es.addEventListener('open', () => {
      if (warned) { warned = false; this.refresh(); }
    });
    this.es.addEventListener('error', () => {
      if (!warned) { warned = true; toast(t('connLost'), 'warn'); }
    });
  }

  /** While someone else decides, looks again now and then, in case an update never came. */
  watchIfWaiting() {
    const p = (this.state && this.state.pending) || {};
    const waiting = p.kind === 'chance' || (p.kind === 'seat' && p.seat !== this.state.you);
    if (waiting && !this.watch) {
      this.watch = setInterval(() => { if (document.visibilityState !== 'hidden') this.refresh(); }, WATCH_MS);
    } else if (!waiting && this.watch) {
      clearInterval(this.watch);
      this.watch = null;
    }
  }

  // --- what can be done -------------------------------------------------------------------------

  /** The heading an action is listed under (from the server), in the page's language. */
  groupName(e) {
    const groups = (this.state && this.state.groups) || [];
    const g = e.a.group;
    return (typeof g === 'number' ? groups[g] : tx(g)) || t('group_other');
  }

  /** Indexes the legal actions: which counters can act, and each action's unit set. */
  prepare() {
    const legal = (this.state && this.state.legal) || [];
    this.selectable = new Set();
    // The page form sends a text as the characters it shares with the text before it (`same`)
    // and the rest (docs/api.md); whole again here, once.
    let before = '';
    for (const a of legal) {
      if (a.same) {
        a.text = before.slice(0, a.same) + a.text;
        delete a.same;
      }
      if (typeof a.text === 'string') before = a.text;
    }
    this.legal = legal.map((a, k) => {
      for (const u of a.units || []) this.selectable.add(u);
      // A packed list (docs/api.md) says each action's place; a pack stands for the moves of
      // its counters, fetched when they are picked (`openPacks`).
      const e = { a, i: typeof a.i === 'number' ? a.i : k, key: unitsKey(a.units), units: a.units || [], hexes: a.hexes || [] };
      if (typeof a.pack === 'number') Object.assign(e, { i: -1, pack: a.pack, count: a.count || 0 });
      return e;
    });
    this.legalCount = typeof this.state.legal_count === 'number' ? this.state.legal_count : this.legal.length;
    this.packsAsked = new Set();
  }

  /**
   * The moves of the packs `packs` (all of them when null, for the filter, which reads every
   * action's words), fetched from the server (`GET …/legal?pack=N`) and put in the list in
   * place of their packs. Each pack is asked for once per version.
   */
  async openPacks(packs) {
    const st = this.state;
    const left = this.legal.filter((e) => e.pack !== undefined && (packs === null || packs.includes(e.pack)) && !this.packsAsked.has(e.pack));
    if (!st || !this.viewToken || !left.length) return;
    for (const e of left) this.packsAsked.add(e.pack);
    const asks = packs === null ? [''] : left.map((e) => `&pack=${e.pack}`);
    const got = [];
    try {
      for (const q of asks) got.push(await api('GET', this.url(`/legal?page=${lang}&version=${st.version}${q}`), { token: this.viewToken }));
    } catch (_) {
      return; // the counters stay unlit; picking them again after the next version asks again
    }
    if (this.state !== st || got.some((g) => !g || g.version !== st.version)) return;
    const loaded = new Map();
    for (const g of got) {
      let before = '';
      for (const a of g.legal || []) {
        if (a.same) a.text = before.slice(0, a.same) + a.text;
        before = a.text;
        a.group = (g.groups || [])[a.group];
        loaded.set(a.i, { a, i: a.i, key: unitsKey(a.units), units: a.units || [], hexes: a.hexes || [] });
      }
    }
    const done = new Set(left.map((e) => e.pack));
    // Every action of the list in its place: those fetched, then those the page had.
    const had = this.legal.filter((e) => !(e.pack !== undefined && done.has(e.pack)) && !loaded.has(e.i));
    const placed = (e) => (e.pack !== undefined ? Infinity : e.i);
    this.legal = had.concat([...loaded.values()]).sort((x, y) => placed(x) - placed(y));
    this.paint();
    this.renderActionList();
  }

  /** Whether some legal action is about something on the map. */
  hasTargets() {
    return (this.legal || []).some((e) => e.units.length || e.hexes.length);
  }

  selKey() {
    return unitsKey([...this.selection]);
  }

  /** Hex id -> the actions that a click on it would take, for the current selection. */
  litHexes() {
    const key = this.selKey();
    const lit = new Map();
    const R = this.reached;
    const more = R && R.key === key && this.state && R.version === this.state.version ? R.list : [];
    for (const e of this.legal.concat(more)) {
      if (e.key !== key || !e.hexes.length) continue;
      for (const hx of e.hexes) {
        if (!lit.has(hx)) lit.set(hx, []);
        lit.get(hx).push(e);
      }
    }
    return lit;
  }

  /**
   * Part of a group picked (two of a stack of three, say): the legal list offers only the whole
   * group, so the server is asked where these counters may go together (`GET …/reach`). Its
   * answers are kept for this selection and version, lit like the legal ones, and sent back
   * whole when taken.
   */
  async fetchReach() {
    const key = this.selKey();
    const st = this.state;
    const R = this.reached;
    if (R && R.key === key && st && R.version === st.version) return;
    this.reached = null;
    const units = [...this.selection];
    if (!st || !this.viewToken || units.length < 2 || this.legal.some((e) => e.key === key) || !this.extendable(units)) return;
    this.reached = { key, version: st.version, list: [] };
    let got;
    try {
      got = await api('GET', this.url(`/reach?units=${encodeURIComponent(units.join(','))}`), { token: this.viewToken });
    } catch (_) {
      return; // nothing lit: a click on a hex still asks why
    }
    if (this.state !== st || this.selKey() !== key || !got || got.version !== st.version) return;
    const list = (got.actions || []).map((a) => ({ a, i: -1, action: a.action, key, units: a.units || [], hexes: a.hexes || [] }));
    this.reached = { key, version: st.version, list };
    if (list.length) this.paint();
  }

  /** Whether some legal action is about all of `units` (and maybe more). */
  extendable(units) {
    return this.legal.some((e) => units.every((u) => e.units.includes(u)));
  }

  setSelection(list, repaint = true) {
    this.selection = new Set(list);
    if (repaint) {
      this.paint();
      this.renderActions();
    }
  }

  /** A counter's name with its values, as the board's pieces title it. */
  unitName(id) {
    const c = this.board && this.board.ctrEls.get(id);
    const title = c && c.querySelector('title');
    return title ? title.textContent : id;
  }

  // --- painting the map -------------------------------------------------------------------------

  /** Marks selectable and selected counters and lights the hexes of the selection's actions. */
  paint() {
    const b = this.board;
    if (!b.svg) return;
    for (const [id, el] of b.ctrEls) {
      el.classList.toggle('st-can', this.selectable.has(id));
      el.classList.toggle('st-sel', this.selection.has(id));
    }
    const layer = b.litLayer;
    layer.replaceChildren();
    const key = this.selKey();
    const packs = this.legal.filter((e) => e.pack !== undefined && e.key === key).map((e) => e.pack);
    if (packs.length) this.openPacks(packs);
    this.fetchReach();
    this.lit = this.litHexes();
    for (const p of b.svg.querySelectorAll('.st-lit')) p.classList.remove('st-lit', 'st-lit-attack', 'st-lit-move');
    const labels = [];
    for (const [hex, acts] of this.lit) {
      const p = b.hexEls.get(hex);
      if (!p) continue;
      const kind = litKind(acts);
      p.classList.add('st-lit', `st-lit-${kind === 'attack' ? 'attack' : 'move'}`);
      const d = p.getAttribute('d');
      if (!d) continue;
      const over = svgEl('path', { d, class: `st-hl st-hl-${kind}`, 'data-lit': hex });
      const m = b.toMap(p);
      if (m !== 'identity') over.setAttribute('transform', `matrix(${m.a} ${m.b} ${m.c} ${m.d} ${m.e} ${m.f})`);
      layer.append(over);
      const note = acts.map((e) => tx(e.a.note)).find(Boolean);
      // Along the hex's upper edge, over its id, above any counter in it and clear of the
      // place's name at the lower edge.
      if (note) {
        const c = b.centre(hex);
        if (c) labels.push(Object.assign(svgEl('text', { x: c[0], y: Math.min(c[1] - 18.5, this.stackTop(hex) - 1), class: 'st-hl-note' }), { textContent: note }));
      }
    }
    for (const l of labels) layer.append(l);
  }

  /** The top edge, in map coordinates, of the highest counter in a hex (Infinity if none). */
  stackTop(hex) {
    const b = this.board;
    const stack = b.pieces && b.pieces.querySelector(`.stack[data-hex="${CSS.escape(hex)}"]`);
    let top = Infinity;
    if (!stack) return top;
    const m = b.toMap(stack);
    for (const c of stack.querySelectorAll('.ctr')) {
      try {
        const t = c.transform.baseVal.consolidate();
        const y = c.getBBox().y + (t ? t.matrix.f : 0);
        top = Math.min(top, m === 'identity' ? y : m.b * 0 + m.d * y + m.f);
      } catch (_) { /* not drawn */ }
    }
    return top;
  }

  // --- clicks on the map ------------------------------------------------------------------------

  onBoardClick(target, ev) {
    if (this.screened) return;
    this.closePopup();
    this.hideRefusal();
    if (!target) return;
    const b = this.board;
    const ctr = b.ctrOf(target);
    const hex = b.hexOf(target);
    const lit = this.lit || new Map();
    // The count on a stack lists its pieces.
    const badge = target.closest && target.closest('.sc');
    if (badge) {
      const stack = b.stackOf(badge);
      if (stack) { this.stackPanel(stack, hex, ev); return; }
    }
    if (ctr) {
      const stack = b.stackOf(target);
      const count = stack ? stack.querySelectorAll('.ctr[data-id]').length : 1;
      if (this.selectable.has(ctr)) {
        if (this.selection.has(ctr)) {
          this.setSelection([...this.selection].filter((u) => u !== ctr));
          if (count > 1) this.stackPanel(stack, hex, ev);
          return;
        }
        const grown = [...this.selection, ctr];
        if (this.selection.size && !this.extendable(grown) && lit.has(hex)) {
          this.takeAt(hex, ev);
          return;
        }
        this.setSelection(this.extendable(grown) ? grown : [ctr]);
        if (count > 1) this.stackPanel(stack, hex, ev);
        else this.offerUnitActions(ev);
        return;
      }
      if (hex && lit.has(hex)) { this.takeAt(hex, ev); return; }
      // A counter that cannot act, or a hex the selection cannot go to: the rule says why.
      if (hex && this.selection.size) this.explain([...this.selection], hex);
      else if (hex && this.legal.some((e) => e.units.length)) this.explain([ctr], hex);
      if (count > 1) { this.stackPanel(stack, hex, ev); return; }
      return;
    }
    if (hex && lit.has(hex)) { this.takeAt(hex, ev); return; }
    if (hex && (this.selection.size || this.legal.some((e) => !e.units.length && e.hexes.length))) {
      this.explain([...this.selection], hex);
      return;
    }
    if (this.selection.size) this.setSelection([]);
  }

  /** Asks the server why `units` may not go to (or at) `hex`, and shows its answer with the rule. */
  async explain(units, hex) {
    const token = this.viewToken;
    const st = this.state;
    if (!token || !st || !this.legal.length) return;
    const ask = this.asked = {};
    let got;
    try {
      got = await api('GET', this.url(`/why?units=${encodeURIComponent(units.join(','))}&hex=${encodeURIComponent(hex)}`), { token });
    } catch (_) {
      return; // nothing to say
    }
    if (this.asked !== ask || this.state !== st || !got || !got.refusal) return;
    const r = got.refusal;
    const E = this.el;
    E.refusal.replaceChildren(
      r.rule ? h('strong', { class: 'st-refusal-rule' }, t('rule', r.rule), ': ') : null,
      h('span', null, tx(r.text)),
      h('button', { class: 'st-x', title: t('close'), onclick: () => this.hideRefusal() }, '×'));
    E.refusal.dataset.rule = r.rule || '';
    E.refusal.hidden = false;
  }

  hideRefusal() {
    this.asked = null;
    if (this.el && this.el.refusal) this.el.refusal.hidden = true;
  }

  /** Offers, beside the counter, the actions of exactly the selection that need no hex (choose it, take a loss). */
  offerUnitActions(ev) {
    const key = this.selKey();
    const acts = this.legal.filter((e) => e.key === key && !e.hexes.length && e.pack === undefined);
    if (!acts.length) return;
    this.popup(ev, [...this.selection].map((u) => this.unitName(u)).join(' + '), acts.map((e) => h('button', {
      class: 'st-btn st-choice', test: 'choice', dataset: { index: String(e.i), kind: e.a.kind || 'other' },
      onclick: () => { this.closePopup(); this.act(e); },
    }, tx(e.a.text))));
  }

  /** A click on a lit hex: one action is taken (an attack after a confirmation), several offered. */
  /** A hex by its printed id ("Hex 0412"), a space by its name in the page's language. */
  placeName(id) {
    return this.board.spaceName(id) || t('hex', id);
  }

  takeAt(hex, ev) {
    const acts = (this.lit && this.lit.get(hex)) || [];
    if (!acts.length) return;
    if (acts.length === 1) {
      const e = acts[0];
      if (isAttack(e.a)) this.confirmAttack(e, ev);
      else this.act(e);
      return;
    }
    this.popup(ev, this.placeName(hex), acts.map((e) => h('button', {
      class: 'st-btn st-choice', test: 'choice', dataset: { index: String(e.i), kind: e.a.kind || 'other' },
      onclick: () => {
        this.closePopup();
        if (isAttack(e.a)) this.confirmAttack(e, ev); else this.act(e);
      },
    }, tx(e.a.text), e.a.note ? h('small', null, ` (${tx(e.a.note)})`) : null)));
  }

  /**
   * Asks before an attack is committed, with what the game says of it (the defender and its
   * hex, the shifts and their rules, the odds column and the result of each die).
   */
  async confirmAttack(e, ev) {
    const more = h('div', { class: 'st-preview-lines', test: 'preview' }, h('span', { class: 'st-muted' }, t('loading')));
    this.popup(ev, t('confirmAttack'), [
      h('p', { class: 'st-confirm-text', test: 'confirm-text' }, tx(e.a.text)),
      e.a.note ? h('p', { class: 'st-muted' }, tx(e.a.note)) : null,
      more,
      h('div', { class: 'st-buttons' },
        h('button', { class: 'st-btn st-btn-danger', test: 'confirm-ok', onclick: () => { this.closePopup(); this.act(e); } }, t('attack')),
        h('button', { class: 'st-btn', test: 'confirm-cancel', onclick: () => this.closePopup() }, t('cancel'))),
    ], 'confirm');
    const st = this.state;
    let lines = [];
    try {
      const got = await api('GET', this.url(`/preview?index=${e.i}&version=${st.version}`), { token: this.viewToken });
      lines = (got && got.lines) || [];
    } catch (_) { lines = []; }
    if (this.state !== st || !more.isConnected) return;
    more.replaceChildren(...lines.map((l) => h('p', { class: 'st-preview-line', test: 'preview-line' }, tx(l))));
    this.placePopup();
  }

  stackPanel(stack, hex, ev) {
    if (!stack) return;
    const ids = [...stack.querySelectorAll('.ctr[data-id]')].map((c) => c.getAttribute('data-id')).reverse();
    const rows = ids.map((id) => {
      const can = this.selectable.has(id);
      const on = this.selection.has(id);
      return h('button', {
        class: `st-stack-unit${on ? ' st-on' : ''}${can ? '' : ' st-off'}`, disabled: !can, test: 'stack-unit', dataset: { unit: id },
        onclick: () => {
          const now = this.selection.has(id)
            ? [...this.selection].filter((u) => u !== id)
            : (this.extendable([...this.selection, id]) ? [...this.selection, id] : [id]);
          this.setSelection(now);
          this.stackPanel(stack, hex, ev);
        },
      }, h('span', { class: 'st-check' }, on ? '✔' : ''), h('span', null, this.unitName(id)));
    });
    const key = this.selKey();
    const extra = this.selection.size ? this.legal.filter((e) => e.key === key && !e.hexes.length && e.pack === undefined) : [];
    const more = extra.map((e) => h('button', {
      class: 'st-btn st-choice', test: 'choice', dataset: { index: String(e.i), kind: e.a.kind || 'other' },
      onclick: () => { this.closePopup(); this.act(e); },
    }, tx(e.a.text)));
    this.popup(ev, t('stackAt', hex || ''), [rows, more.length ? h('hr', { class: 'st-sep' }) : null, more], 'stack');
  }

  popup(ev, title, body, kind = 'menu') {
    const P = this.el.popup;
    P.replaceChildren(
      h('div', { class: 'st-popup-head' }, h('strong', null, title),
        h('button', { class: 'st-x', title: t('close'), test: 'popup-close', onclick: () => this.closePopup() }, '×')),
      h('div', { class: 'st-popup-body' }, body));
    P.dataset.kind = kind;
    P.hidden = false;
    this.popupEv = ev;
    this.placePopup();
  }

  /** Puts the popup beside the click, inside the board. */
  placePopup() {
    const P = this.el.popup;
    const ev = this.popupEv;
    const wrap = this.el.boardWrap.getBoundingClientRect();
    const x = ev && ev.clientX !== undefined ? ev.clientX - wrap.left : wrap.width / 2;
    const y = ev && ev.clientY !== undefined ? ev.clientY - wrap.top : wrap.height / 2;
    const pw = P.offsetWidth;
    const ph = P.offsetHeight;
    P.style.left = `${Math.max(8, Math.min(wrap.width - pw - 8, x + 14))}px`;
    P.style.top = `${Math.max(8, Math.min(wrap.height - ph - 8, y + 14))}px`;
  }

  closePopup() {
    if (this.el && this.el.popup) this.el.popup.hidden = true;
  }

  onHover(hex, target) {
    if (hex === this.lastHover && target === this.lastTarget) return;
    this.lastHover = hex;
    this.lastTarget = target;
    const S = this.el.status;
    const tip = this.el.tip;
    if (!hex) { S.textContent = t(keysHintKey()); tip.hidden = true; return; }
    const parts = [this.placeName(hex)];
    const note = this.board.spaceNote(hex);
    if (note) parts[0] += ` · ${note}`;
    const ctr = this.board.ctrOf(target);
    if (ctr) parts.push(this.unitName(ctr));
    const acts = this.lit && this.lit.get(hex);
    if (acts && acts.length) {
      const words = acts.map((e) => tx(e.a.text) + (e.a.note ? ` (${tx(e.a.note)})` : ''));
      parts.push(words.join(' / '));
      tip.textContent = `${hex} · ${acts.map((e) => tx(e.a.note) || this.groupName(e)).join(' / ')}`;
      tip.hidden = false;
    } else {
      tip.hidden = true;
    }
    S.textContent = parts.join(' — ');
  }

  moveTip(ev) {
    const tip = this.el.tip;
    if (tip.hidden) return;
    const r = this.el.boardWrap.getBoundingClientRect();
    tip.style.transform = `translate(${Math.round(ev.clientX - r.left + 16)}px, ${Math.round(ev.clientY - r.top + 18)}px)`;
  }

  // --- taking actions ---------------------------------------------------------------------------

  /** Takes a legal action (an entry of `this.legal`): sends its place in the list and the version it was listed at. */
  async act(e) {
    if (this.busy || !this.state) return;
    this.busy = true;
    this.el.side.classList.add('st-busy');
    try {
      const token = this.viewToken;
      // What happens from here on (this action's results, the other side's moves) is what
      // the seat is shown step by step when it must decide again.
      const acted = (this.state.journal || []).length;
      store(`st-acted-${this.id}-${this.seatKey(this.state.you)}`, acted);
      // An action the legal list holds goes by its place; one the server made for part of a
      // group (`fetchReach`) goes whole.
      const body = e.action ? { action: e.action, version: this.state.version } : { index: e.i, version: this.state.version };
      const st = await api('POST', this.url(`/actions${this.query(token)}`), { token, body });
      this.selection.clear();
      await this.took(st, token);
    } catch (err) {
      if (err.status === 409) await this.refresh(); // stale: the game moved on; show it as it is
      else toast(err.describe ? err.describe() : String(err), 'error');
    } finally {
      this.busy = false;
      this.el.side.classList.remove('st-busy');
    }
  }

  /**
   * Shows the game as an action or undo of `token`'s seat answered it; or, when the seat that
   * must decide next is another one this page holds, as that seat sees it. An answer older
   * than what the page shows (updates overtook it) is dropped; one older than the newest
   * version heard of is followed by a fetch.
   */
  async took(st, token) {
    this.hear(st && st.version);
    const p = (st && st.pending) || {};
    if (!st || typeof st !== 'object' || typeof st.version !== 'number' || st.lang !== lang
      || !this.merged(st, token)
      || (p.kind === 'seat' && p.seat !== st.you && this.seatToken[p.seat] !== undefined)) {
      await this.refresh();
      return;
    }
    if (this.older(st)) return;
    this.undoBy = null;
    this.viewToken = token;
    this.setState(st);
    if (this.seen > st.version) this.refresh();
  }

  async undo(token = this.viewToken) {
    if (this.busy) return;
    this.busy = true;
    try {
      const st = await api('POST', this.url(`/undo${this.query(token)}`), { token, body: { version: this.state.version } });
      this.selection.clear();
      await this.took(st, token);
    } catch (e) {
      toast(e.describe(), 'error');
      if (e.status === 409) await this.refresh();
    } finally {
      this.busy = false;
    }
  }

  // --- the panels -------------------------------------------------------------------------------

  renderAll() {
    const st = this.state;
    if (!st) return;
    const E = this.el;
    E.title.replaceChildren(
      h('span', { class: 'st-strong' }, tx(st.title)),
      h('span', { class: 'st-muted' }, ' · ', tx(st.scenario && st.scenario.name)));
    this.renderTurn();
    this.renderInfo();
    this.renderActions();
    this.renderLog();
    this.renderScreen();
  }

  // A seat whose side a bid decided (a Paths of Glory tournament) is named by its `side`:
  // "Player 2, Allied Powers".
  seatName(i) {
    const s = this.state.seats && this.state.seats[i];
    return s ? tx(s.side || s.name) : String(i);
  }

  renderTurn() {
    const st = this.state;
    const p = st.pending || {};
    const E = this.el;
    let cls = 'st-turn';
    let main;
    if (p.kind === 'over' || st.outcome) {
      cls += ' st-turn-over';
      const o = st.outcome;
      main = [h('strong', null, t('gameOver')), o ? ` — ${tx(o.text) || (o.winner === null ? t('draw') : t('winner', this.seatName(o.winner)))}` : ''];
    } else if (p.kind === 'seat') {
      const mine = p.seat === st.you;
      const seat = st.seats[p.seat] || {};
      if (mine) { cls += ' st-turn-mine'; main = h('strong', null, t('yourTurn', this.seatName(p.seat))); }
      else if (seat.player && seat.player !== 'human') {
        cls += ' st-turn-wait';
        main = t('thinking', this.seatName(p.seat));
        // The computer has chosen but the server could not store its move (a full disk): it
        // waits and tries again; the player is told why rather than left watching "thinking".
        if (st.stalled) { cls += ' st-turn-stalled'; main = [main, h('span', { class: 'st-stalled', test: 'stalled' }, ' — ', t('stalled', tx(st.stalled)))]; }
      }
      else { cls += ' st-turn-wait'; main = t('waitingFor', this.seatName(p.seat)); }
    } else {
      cls += ' st-turn-wait';
      main = t('chance');
    }
    let who;
    if (this.tokens.length > 1) who = t('hotseatPlay', Object.keys(this.seatToken).map((i) => this.seatName(Number(i))).join(' + '));
    else if (typeof st.you === 'number') who = t('youPlay', this.seatName(st.you));
    else who = t('watching');
    E.turn.className = cls;
    E.turn.dataset.version = String(st.version);
    E.turn.dataset.you = typeof st.you === 'number' ? (st.seats[st.you] || {}).id || '' : 'spectator';
    E.turn.dataset.pending = p.kind === 'seat' ? (st.seats[p.seat] || {}).id || '' : (p.kind || '');
    E.turn.replaceChildren(...[
      h('span', { class: 'st-turn-dot', 'aria-hidden': 'true' }),
      h('span', { class: 'st-turn-main', test: 'turn-text' }, main),
      h('span', { class: 'st-turn-who' }, who),
      // A seed chosen by the game's creator: every seat is told that the rolls may be known.
      st.dice && st.dice.fixed ? h('span', { class: 'st-dice-fixed', test: 'dice-fixed', title: tx(st.dice.text) }, t('diceFixed')) : null,
      (p.kind === 'over' || st.outcome) ? h('a', { class: 'st-btn st-btn-small st-record', href: this.url('/record'), test: 'record-top', target: '_blank', rel: 'noopener' }, t('record')) : null,
      h('button', { class: 'st-btn st-btn-small st-undo', test: 'charts-open', title: t('chartsTitle'), onclick: () => this.openCharts() }, t('charts')),
      st.can_undo ? h('button', { class: 'st-btn st-btn-small st-undo', test: 'undo', title: t('undoTitle'), onclick: () => this.undo() }, '↶ ', t('undo')) : null,
      !st.can_undo && this.undoBy ? h('button', {
        class: 'st-btn st-btn-small st-undo', test: 'undo', title: t('undoTitle'), onclick: () => this.undo(this.undoBy.token),
      }, '↶ ', t('undoSeat', this.seatName(this.undoBy.seat))) : null,
    ].filter(Boolean));
  }

  renderInfo() {
    const st = this.state;
    const parts = [];
    if (st.outcome) {
      parts.push(h('div', { class: 'st-outcome', test: 'outcome' }, h('strong', null, t('outcome'), ': '), tx(st.outcome.text)));
    }
    parts.push(h('div', { class: 'st-summary', test: 'summary' }, tx(st.summary)));
    if (st.stalled) parts.push(h('div', { class: 'st-notice st-notice-warn', test: 'stalled-notice' }, h('strong', null, t('stalledHead')), h('span', null, tx(st.stalled))));
    if (st.dice) {
      parts.push(h('div', { class: `st-dice${st.dice.fixed ? ' st-notice st-notice-warn' : ' st-muted st-small'}`, test: 'dice' },
        st.dice.fixed ? h('strong', null, t('diceFixedHead')) : null, h('span', null, tx(st.dice.text))));
    }
    if (st.scenario && st.scenario.reconstructed) {
      parts.push(h('details', { class: 'st-notice st-notice-small', test: 'reconstructed-notice' },
        h('summary', null, t('reconstructed')), h('span', null, tx(st.scenario.note))));
    }
    if ((st.pending && st.pending.kind === 'over') || st.outcome) {
      parts.push(h('a', { class: 'st-btn st-btn-small', href: this.url('/record'), test: 'record', target: '_blank', rel: 'noopener' }, t('record')));
    }
    this.el.info.replaceChildren(h('h3', null, t('situation')), ...parts);
  }

  renderActions() {
    const E = this.el;
    if (!E || !this.state) return;
    const all = this.legal || [];
    const sel = [...this.selection];
    const body = [];
    this.actionsNamedIn = this.piecesLang;
    const head = h('div', { class: 'st-panel-head' }, h('h3', null, t('actions')),
      all.length ? h('span', { class: 'st-count', test: 'legal-count' }, t('legalCount', this.legalCount)) : null);
    E.acts.classList.toggle('st-actions-empty', !all.length);
    this.labelTabs();
    if (!all.length) {
      E.acts.replaceChildren(head, h('p', { class: 'st-muted', test: 'no-actions' }, t('noActions')));
      return;
    }
    // What the decision is about (a combat being fought), as it stands.
    if (this.state.context && this.state.context.length) {
      const [head, ...rest] = this.state.context;
      body.push(h('div', { class: 'st-context', test: 'context' },
        h('strong', null, head), rest.map((l) => h('p', null, l))));
    }
    if (sel.length) {
      body.push(h('div', { class: 'st-selbar', test: 'selection' },
        h('span', { class: 'st-muted' }, t('selected'), ': '),
        sel.map((u) => h('span', { class: 'st-chip', dataset: { unit: u } }, this.unitName(u))),
        h('button', { class: 'st-btn st-btn-small st-btn-quiet', test: 'clear-selection', onclick: () => this.setSelection([]) }, t('clearSel'))));
    } else if (this.selectable.size) {
      body.push(h('p', { class: 'st-hint' }, t(this.board.pointToPoint ? 'selHintSpaces' : 'selHint')));
    }
    // The seat's hand (a game with cards): each card with its values and event, its legal uses
    // as its buttons; those uses are then left out of the list. Cards of the other hand an event
    // showed this seat come marked `seen`, drawn apart. The list comes first, the hand under it:
    // what is left to decide besides the cards (no more combat cards, the next activation) stays
    // in sight.
    const hand = (this.state.hand || []).filter((c) => !c.seen);
    const seen = (this.state.hand || []).filter((c) => c.seen);
    this.handIds = new Set(hand.map((c) => c.id));
    const filterBox = h('input', {
      class: 'st-filter', type: 'search', placeholder: t('filter'), value: this.filter, test: 'action-filter',
      oninput: (e) => { this.filter = e.target.value; this.renderActionList(); },
    });
    // Only a list long enough to search gets a filter (the cards' uses are on the cards).
    if (size(this.legal.filter((e) => !(e.a.card && this.handIds.has(e.a.card)))) > 6) body.push(filterBox);
    E.actList = h('div', { class: 'st-actlist', test: 'action-list' });
    body.push(E.actList);
    if (hand.length) body.push(this.handPanel(hand, all));
    if (seen.length) body.push(this.seenPanel(seen));
    E.acts.replaceChildren(head, ...body);
    this.renderActionList();
  }

  /**
   * The cards of the seat's hand, each with the legal actions that use it as buttons. While no
   * card has a use (in the middle of a card's operations, say) the hand folds to one row of names
   * so the actions keep the room; the player may open or fold it. While some have a use, those
   * are shown whole and the others as names (a combat card to play, the rest idle).
   */
  handPanel(hand, all) {
    const usesOf = (c) => all.filter((e) => e.a.card === c.id);
    const usable = hand.filter((c) => usesOf(c).length);
    const open = this.handOpen && this.handOpen.usable === !!usable.length ? this.handOpen.open : !!usable.length;
    const toggle = h('button', {
      class: 'st-btn st-btn-small st-btn-quiet', test: 'hand-toggle',
      onclick: () => { this.handOpen = { usable: !!usable.length, open: !open }; this.renderActions(); },
    }, t(open ? 'foldHand' : 'openHand'));
    const head = h('h4', null, t('hand'), ` (${hand.length}) `, toggle);
    const title = (c) => [(c.values || []).map(([k, v]) => `${k} ${v}`).join(' · '), c.text || ''].filter(Boolean).join('\n');
    const chips = (cards) => h('div', { class: 'st-hand-strip' }, cards.map((c) => h('span', {
      class: 'st-card-chip', test: 'card', title: title(c), dataset: { card: c.id },
    }, h('span', { class: 'st-card-name' }, c.name))));
    if (!open) return h('div', { class: 'st-hand st-hand-folded', test: 'hand' }, head, chips(hand));
    const whole = usable.length ? usable : hand;
    const idle = usable.length ? hand.filter((c) => !usable.includes(c)) : [];
    return h('div', { class: 'st-hand', test: 'hand' }, head,
      h('div', { class: 'st-cards' }, whole.map((c) => {
        const uses = usesOf(c);
        return h('div', { class: `st-card${uses.length ? '' : ' st-card-idle'}`, test: 'card', dataset: { card: c.id } },
          h('div', { class: 'st-card-name' }, c.name),
          h('div', { class: 'st-card-values' }, (c.values || []).map(([k, v]) => h('span', null, `${k} ${v}`))),
          c.text ? h('p', { class: 'st-card-text' }, c.text) : null,
          h('div', { class: 'st-card-uses' }, uses.length
            ? uses.map((e) => h('button', {
              class: 'st-btn st-btn-small', test: 'card-use', dataset: { index: String(e.i), card: c.id },
              onclick: () => this.act(e),
            }, e.a.note || e.a.text))
            : h('span', { class: 'st-muted' }, t('noUse'))));
      })),
      idle.length ? h('div', { class: 'st-hand-idle' }, h('span', { class: 'st-muted st-small' }, t('noUse'), ': '), chips(idle)) : null);
  }

  /** The other side's cards this seat has been shown (Paths of Glory's Mata Hari). */
  seenPanel(cards) {
    return h('div', { class: 'st-hand st-hand-seen', test: 'seen-hand' },
      h('h4', null, t('seenHand'), ` (${cards.length})`),
      h('div', { class: 'st-cards' }, cards.map((c) => h('div', { class: 'st-card st-card-idle', test: 'seen-card', dataset: { card: c.id } },
        h('div', { class: 'st-card-name' }, c.name),
        h('div', { class: 'st-card-values' }, (c.values || []).map(([k, v]) => h('span', null, `${k} ${v}`))),
        c.text ? h('p', { class: 'st-card-text' }, c.text) : null))));
  }

  renderActionList() {
    const list = this.el.actList;
    if (!list) return;
    const sel = [...this.selection];
    const q = this.filter.trim().toLowerCase();
    let shown = this.legal.filter((e) => !(e.a.card && this.handIds && this.handIds.has(e.a.card)));
    if (sel.length) shown = shown.filter((e) => sel.every((u) => e.units.includes(u)));
    // The filter reads every action's words: a packed list's moves are fetched first.
    if (q && this.legal.some((e) => e.pack !== undefined)) this.openPacks(null);
    if (q) shown = shown.filter((e) => (`${tx(e.a.text)} ${tx(e.a.note)} ${this.groupName(e)} ${e.units.map((u) => this.unitName(u)).join(' ')}`).toLowerCase().includes(q));
    if (!shown.length) {
      list.replaceChildren(h('p', { class: 'st-muted' }, sel.length ? t('noneForSel') : '—'));
      return;
    }
    // Groups by the heading the server gives each action, in order of first appearance; long
    // groups by unit too.
    const groups = new Map();
    for (const e of shown) {
      const g = this.groupName(e);
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(e);
    }
    const many = size(shown) > 12;
    const out = [];
    // Actions about nothing on the map (end a phase, yes or no) first: long lists of moves
    // would bury them.
    const global = (items) => items.every((e) => !e.units.length && !e.hexes.length);
    const ordered = [...groups.entries()].sort((x, y) => Number(global(y[1])) - Number(global(x[1])));
    for (const [g, items] of ordered) {
      const sub = new Map();
      for (const e of items) {
        const k = e.key;
        if (!sub.has(k)) sub.set(k, []);
        sub.get(k).push(e);
      }
      // By counter only where a counter has several actions: a list of one choice per counter
      // (reinforcements to choose, say) stays a list of the actions' own words.
      const split = many && size(items) > 8 && items.some((e) => e.units.length)
        && [...sub.values()].some((es) => size(es) > 1);
      // With a selection, the actions of exactly the selected counters come first, open; those
      // that need more counters follow, shut, fewest counters first.
      const selKey = this.selKey();
      const subs = [...sub.entries()];
      if (sel.length) subs.sort((x, y) => Number(y[0] === selKey) - Number(x[0] === selKey) || x[1][0].units.length - y[1][0].units.length);
      const content = split
        ? subs.map(([k, es]) => this.group(`${g}/${k}`, k ? k.split(',').map((u) => this.unitName(u)).join(' + ') : t('group_other'), es, false,
          sel.length ? k === selKey : !!q))
        : this.capped(items);
      // Shown flat, the packs' moves are fetched at once (all of them when there are many).
      const packs = split ? [] : items.filter((e) => e.pack !== undefined).map((e) => e.pack);
      if (packs.length) this.openPacks(packs.length > 3 ? null : packs);
      out.push(groups.size > 1 || split ? this.group(g, g, null, content, true) : h('div', { class: 'st-group-flat' }, content));
    }
    list.replaceChildren(...out);
  }

  /**
   * The buttons of a flat list of actions, at most LIST_CAP of them: a longer list (an Air
   * Supply marker may go on any of 4,400 hexes) ends in a line saying how many more there are and
   * how to reach them (the lit hexes on the map, the filter).
   */
  capped(items) {
    if (items.length <= LIST_CAP || items.some((e) => e.pack !== undefined)) return items.map((e) => this.actionButton(e));
    return [
      ...items.slice(0, LIST_CAP).map((e) => this.actionButton(e)),
      h('p', { class: 'st-muted st-small', test: 'action-more', dataset: { n: String(items.length - LIST_CAP) } }, t('moreActions', items.length - LIST_CAP)),
    ];
  }

  /** A collapsible group of actions (or of subgroups), remembered open or shut. */
  group(key, label, items, content, defaultOpen) {
    const kids = content || items.map((e) => this.actionButton(e));
    const n = items ? size(items) : kids.reduce((s, k) => s + (Number(k.dataset && k.dataset.n) || 1), 0);
    const open = this.openGroups.has(key) || (defaultOpen && !this.openGroups.has(`-${key}`));
    const d = h('details', { class: 'st-group', open, test: 'action-group', dataset: { n: String(n) } },
      h('summary', null, label, h('span', { class: 'st-count' }, String(n))), kids);
    // A counter's moves still packed are fetched when its group opens.
    const packs = (items || []).filter((e) => e.pack !== undefined).map((e) => e.pack);
    if (open && packs.length) this.openPacks(packs);
    d.addEventListener('toggle', () => {
      if (d.open) { this.openGroups.add(key); this.openGroups.delete(`-${key}`); } else { this.openGroups.delete(key); this.openGroups.add(`-${key}`); }
      if (d.open && packs.length) this.openPacks(packs);
    });
    return d;
  }

  actionButton(e) {
    const a = e.a;
    // A counter's moves not fetched yet: a line saying how many (`openPacks` fetches them).
    if (e.pack !== undefined) {
      return h('div', { class: 'st-act st-act-pack', test: 'action-pack', dataset: { units: e.units.join(','), n: String(e.count) } },
        h('span', { class: 'st-act-text st-muted' }, t('packed', e.count)));
    }
    return h('button', {
      class: `st-act${isAttack(a) ? ' st-act-attack' : ''}`, test: 'action',
      dataset: { index: String(e.i), kind: a.kind || 'other', units: e.units.join(','), hexes: e.hexes.join(',') },
      onclick: (ev) => {
        if (isAttack(a)) this.confirmAttack(e, ev);
        else this.act(e);
      },
      onmouseenter: () => this.previewHexes(e.hexes),
      onmouseleave: () => this.previewHexes([]),
    }, h('span', { class: 'st-act-text' }, tx(a.text)),
    a.note ? h('span', { class: 'st-act-note' }, tx(a.note)) : null,
    a.secret ? h('span', { class: 'st-act-secret', title: t('secretHint') }, t('secret')) : null);
  }

  /** Outlines the hexes of an action the pointer is over in the list. */
  previewHexes(hexes) {
    const b = this.board;
    if (!b.svg) return;
    for (const p of b.svg.querySelectorAll('.st-preview')) p.remove();
    for (const hx of hexes) {
      const p = b.hexEls.get(hx);
      if (!p || !p.getAttribute('d')) continue;
      const over = svgEl('path', { d: p.getAttribute('d'), class: 'st-preview' });
      const m = b.toMap(p);
      if (m !== 'identity') over.setAttribute('transform', `matrix(${m.a} ${m.b} ${m.c} ${m.d} ${m.e} ${m.f})`);
      b.litLayer.append(over);
    }
  }

  // --- the log ----------------------------------------------------------------------------------

  renderLog() {
    const st = this.state;
    const E = this.el;
    const journal = st.journal || [];
    const seatKey = this.seatKey(st.you);
    const key = `${seatKey}|${lang}`;
    const base = this.baseline[seatKey];
    const firstNew = typeof base === 'number' && base < journal.length ? base : -1;
    const shownN = this.journalShown.n;
    const lastShown = shownN > 0 && E.logList ? E.logList.children[shownN - 1] : null;
    const stands = !lastShown || (journal[shownN - 1] && lastShown.textContent === tx(journal[shownN - 1].text));
    if (!E.logList || this.journalShown.key !== key || journal.length < shownN || !stands) {
      E.logList = h('ol', { class: 'st-log', test: 'log' });
      E.jump = h('select', {
        class: 'st-jump', test: 'log-jump',
        onchange: (ev) => {
          const i = Number(ev.target.value);
          ev.target.value = '';
          const li = E.logList.children[i];
          if (li) li.scrollIntoView({ block: 'start' });
        },
      }, h('option', { value: '' }, t('jumpTo')));
      E.newBtn = h('button', { class: 'st-btn st-btn-small st-newbtn', hidden: true, test: 'log-new' });
      E.log.replaceChildren(
        h('div', { class: 'st-panel-head' }, h('h3', null, t('log')), E.newBtn, E.jump),
        E.logList);
      this.journalShown = { key, n: 0 };
    }
    const atBottom = E.logList.scrollHeight - E.logList.scrollTop - E.logList.clientHeight < 30;
    for (let i = this.journalShown.n; i < journal.length; i++) {
      const line = journal[i];
      const text = tx(line.text);
      const li = h('li', {
        class: line.heading ? 'st-log-h' : 'st-log-l', test: 'log-line', dataset: { i: String(i) },
        onmouseenter: () => this.showRefs(text, line),
        onmouseleave: () => this.showRefs(''),
        onclick: () => this.centreOn(text, line),
      }, text);
      if (firstNew >= 0 && i >= firstNew) li.classList.add('st-new');
      E.logList.append(li);
      if (line.heading) E.jump.append(h('option', { value: String(i) }, text));
    }
    this.journalShown.n = journal.length;
    if (firstNew >= 0) {
      const n = journal.length - firstNew;
      E.newBtn.hidden = false;
      E.newBtn.textContent = t('newSince', n);
      E.newBtn.onclick = () => {
        const li = E.logList.children[firstNew];
        if (li) li.scrollIntoView({ block: 'start', behavior: 'smooth' });
      };
    } else {
      E.newBtn.hidden = true;
    }
    if (atBottom || this.journalShown.scrolled !== true) {
      E.logList.scrollTop = E.logList.scrollHeight;
      this.journalShown.scrolled = true;
    }
    store(`st-seen-${this.id}-${seatKey}`, journal.length);
  }

  // --- what a log line names: its hexes and counters --------------------------------------------

  /** The hexes (ids the map has) and counters (by the names on their titles) a text names. */
  refs(text) {
    const b = this.board;
    const hexes = [];
    for (const m of text.match(/[A-Za-z]?\d+(?:\.\d+)?/g) || []) if (b.hexEls.has(m) && !hexes.includes(m)) hexes.push(m);
    if (this.namesOf !== b.pieces) {
      // A counter's name: its title without the values in brackets.
      this.namesOf = b.pieces;
      this.names = [];
      for (const [id, el] of b.ctrEls) {
        const title = el.querySelector('title');
        const name = title ? title.textContent.replace(/\s*[(（][^()（）]*[)）]\s*$/, '').trim() : '';
        if (name.length >= 3) this.names.push([name, id]);
      }
      this.names.sort((x, y) => y[0].length - x[0].length);
    }
    const units = [];
    let rest = text;
    for (const [name, id] of this.names) {
      if (rest.includes(name)) { units.push(id); rest = rest.split(name).join(' '); }
    }
    return { hexes, units };
  }

  /** The places (on this map) and counters a log line's typed marks name (docs/api.md, "marks"). */
  markRefs(line) {
    const hexes = [];
    const units = [];
    const add = (list, v) => { if (typeof v === 'string' && v && !list.includes(v)) list.push(v); };
    for (const m of (line && line.marks) || []) {
      for (const v of [].concat(m.from || [], m.to || [], m.at || [])) add(hexes, v);
      for (const u of [].concat(m.unit || [], m.units || [])) add(units, u);
    }
    return { hexes: hexes.filter((hx) => this.board.hexEls.has(hx)), units };
  }

  /** What a log line names: its typed marks' places and counters, and those its text names. */
  lineRefs(text, line) {
    const r = this.refs(text);
    const m = this.markRefs(line);
    for (const hx of m.hexes) if (!r.hexes.includes(hx)) r.hexes.push(hx);
    for (const u of m.units) if (!r.units.includes(u)) r.units.push(u);
    return r;
  }

  /** Outlines the hexes and marks the counters a log line names (none for ''). */
  showRefs(text, line) {
    const b = this.board;
    if (!b.svg) return;
    for (const c of b.svg.querySelectorAll('.ctr.st-ref')) c.classList.remove('st-ref');
    if (!text) { this.previewHexes([]); return; }
    const { hexes, units } = this.lineRefs(text, line);
    this.previewHexes(hexes);
    for (const u of units) { const c = b.ctrEls.get(u); if (c) c.classList.add('st-ref'); }
  }

  /** Brings what a log line names into view. */
  centreOn(text, line) {
    const b = this.board;
    const { hexes, units } = this.lineRefs(text, line);
    const pts = hexes.map((hx) => b.centre(hx));
    for (const u of units) {
      const c = b.ctrEls.get(u);
      const hx = c && b.hexOf(b.stackOf(c) || c);
      if (hx) pts.push(b.centre(hx));
    }
    const ok = pts.filter(Boolean);
    if (!ok.length) return;
    const xs = ok.map((p) => p[0]);
    const ys = ok.map((p) => p[1]);
    b.show([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], Math.max(b.s, 0.9));
  }

  // --- what happened since this seat last acted, step by step -----------------------------------
  //
  // The bar steps through the log lines since this seat last acted that did something on the
  // map, and draws what each did from the line's typed marks (docs/api.md, "marks"), the same
  // for every game: a move, a retreat or an advance as an arrow along its way, an attack as a
  // burst on the place attacked with lines from the attackers, a barrage as a gun-sight, a step
  // lost as "−1", a unit eliminated as ✕, one withdrawn (off the map without loss) as an arrow
  // out of a box, an arrival as a ring. No words are read, so a language switch keeps it all.
  // A game whose log has no marks gets the lines that name something on the map, outlined.

  /** The log lines since this seat last acted that did (or, without marks, name) something on the map. */
  sinceLastActed() {
    const st = this.state;
    const from = load(`st-acted-${this.id}-${this.seatKey(st.you)}`, null);
    const journal = st.journal || [];
    if (typeof from !== 'number' || from >= journal.length) return [];
    const typed = journal.slice(from).some((l) => l.marks && l.marks.length);
    const out = [];
    for (let i = from; i < journal.length; i++) {
      const line = journal[i];
      if (line.heading) continue;
      const text = tx(line.text);
      if (typed) {
        if (line.marks && line.marks.length) out.push({ i, text, marks: line.marks });
      } else {
        const r = this.refs(text);
        if (r.hexes.length || r.units.length) out.push({ i, text, marks: [] });
      }
    }
    return out;
  }

  /** The bar that steps through what happened since this seat last acted (when it decides again). */
  renderReplay() {
    const E = this.el;
    const st = this.state;
    const mine = st.pending && st.pending.kind === 'seat' && st.pending.seat === st.you;
    const key = `${this.seatKey(st.you)}|${st.version}`;
    if (!mine || !this.board.svg || this.replayShut === key || !this.returnedAt || this.returnedAt !== key) {
      E.replay.hidden = true;
      this.drawReplay();
      return;
    }
    // The steps are kept across a language switch (their marks do not change); their texts are read again.
    if (!this.replay || this.replay.key !== key) this.replay = { key, at: -1 };
    const R = this.replay;
    R.lines = this.sinceLastActed();
    R.at = Math.min(R.at, R.lines.length - 1);
    if (!R.lines.length) { E.replay.hidden = true; this.drawReplay(); return; }
    const cur = R.lines[R.at];
    const count = (l, kinds) => (l ? l.marks.filter((m) => kinds.includes(m.kind)).length : 0);
    const total = (kinds) => R.lines.reduce((s, l) => s + count(l, kinds), 0);
    E.replay.replaceChildren(
      h('span', { class: 'st-replay-head' }, t('sinceYou', R.lines.length)),
      h('button', { class: 'st-btn st-btn-small', test: 'replay-prev', disabled: R.at < 0, title: t('prev'), onclick: () => this.stepReplay(-1) }, '◀'),
      h('span', { class: 'st-replay-pos', test: 'replay-pos' }, R.at < 0 ? t('replayAll') : `${R.at + 1}/${R.lines.length}`),
      h('button', { class: 'st-btn st-btn-small', test: 'replay-next', disabled: R.at >= R.lines.length - 1, title: t('next'), onclick: () => this.stepReplay(1) }, '▶'),
      h('span', { class: 'st-replay-text', test: 'replay-text' }, cur ? cur.text : t('replayHint')),
      h('button', { class: 'st-x', title: t('close'), test: 'replay-close', onclick: () => { this.replayShut = key; this.showRefs(''); this.renderReplay(); } }, '×'),
      // What the marks on the map mean, with how many of each (all steps, or this one): the
      // kinds that occur there.
      h('span', { class: 'st-replay-key', test: 'replay-key' }, ...REPLAY_KEY
        .filter(([, , kinds]) => (R.at < 0 ? total(kinds) : count(cur, kinds)) > 0)
        .map(([cls, word, kinds]) => h('span', { class: 'st-key-item', dataset: { kind: kinds[0] } }, h('i', { class: cls }), t(word, R.at < 0 ? total(kinds) : count(cur, kinds))))));
    E.replay.classList.toggle('st-replay-stepping', R.at >= 0);
    E.replay.hidden = false;
    this.drawReplay();
  }

  /** Draws the bar's marks on the map: the step shown strongly, the others faintly (all alike before the first step). */
  drawReplay() {
    const b = this.board;
    const layer = b.replayLayer;
    if (!layer) return;
    layer.replaceChildren();
    const R = this.replay;
    if (!R || this.el.replay.hidden || !R.lines) return;
    const defs = svgEl('defs');
    for (const [id, cls] of [['st-ah-now', 'st-rp-head-now'], ['st-ah-old', 'st-rp-head-old']]) {
      for (const kind of ['move', 'retreat', 'advance']) {
        const mk = svgEl('marker', { id: `${id}-${kind}`, viewBox: '0 0 10 10', refX: '7', refY: '5', markerWidth: '5', markerHeight: '5', orient: 'auto-start-reverse', class: `${cls} st-rp-${kind}` });
        mk.append(svgEl('path', { d: 'M0 0L10 5L0 10z' }));
        defs.append(mk);
      }
    }
    layer.append(defs);
    const order = R.lines.map((l, k) => k).filter((k) => k !== R.at);
    if (R.at >= 0) order.push(R.at);
    for (const k of order) {
      const cls = R.at < 0 ? 'st-rp-all' : (k === R.at ? 'st-rp-now' : 'st-rp-old');
      const head = k === R.at || R.at < 0 ? 'st-ah-now' : 'st-ah-old';
      const g = svgEl('g', { class: `st-rp ${cls}`, 'data-step': String(k), 'data-line': String(R.lines[k].i) });
      this.drawMarks(g, R.lines[k].marks, head);
      if (g.childNodes.length) layer.append(g);
    }
  }

  /** Draws one line's marks into `g`. */
  drawMarks(g, marks, head) {
    const b = this.board;
    const tags = new Map(); // place -> tags drawn there in this step, so that they sit side by side
    const tagAt = (hx) => { const n = tags.get(hx) || 0; tags.set(hx, n + 1); return n; };
    for (const m of marks) {
      const at = typeof m.at === 'string' ? b.centre(m.at) : null;
      switch (m.kind) {
        case 'move': case 'retreat': case 'advance': {
          const way = (m.path && m.path.length > 1 ? m.path : [m.from, m.to]).map((hx) => b.centre(hx));
          if (way.some((p) => !p) || m.from === m.to) break;
          const a = way[0];
          const z = way[way.length - 1];
          const y = way[way.length - 2];
          // Shortened at both ends, so that the counters stay readable.
          const len0 = Math.hypot(way[1][0] - a[0], way[1][1] - a[1]) || 1;
          const len1 = Math.hypot(z[0] - y[0], z[1] - y[1]) || 1;
          const s0 = Math.min(8, len0 / 4);
          const s1 = Math.min(12, len1 / 3);
          const pts = way.map((p) => [...p]);
          pts[0] = [a[0] + ((way[1][0] - a[0]) / len0) * s0, a[1] + ((way[1][1] - a[1]) / len0) * s0];
          pts[pts.length - 1] = [z[0] - ((z[0] - y[0]) / len1) * s1, z[1] - ((z[1] - y[1]) / len1) * s1];
          g.append(svgEl('circle', { cx: a[0], cy: a[1], r: 4, class: `st-rp-from st-rp-${m.kind}` }));
          g.append(svgEl('polyline', {
            points: pts.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(' '),
            class: `st-rp-arrow st-rp-${m.kind}`, 'marker-end': `url(#${head}-${m.kind})`,
            'data-from': m.from, 'data-to': m.to, 'data-kind': m.kind, 'data-unit': m.unit,
          }));
          break;
        }
        case 'attack': case 'barrage': {
          if (!at) break;
          for (const f of m.from || []) {
            const c = b.centre(f);
            if (c && f !== m.at) g.append(svgEl('line', { x1: c[0], y1: c[1], x2: at[0], y2: at[1], class: `st-rp-${m.kind}-line`, 'data-from': f }));
          }
          if (m.kind === 'attack') {
            const pts = [];
            for (let i = 0; i < 16; i++) {
              const r = i % 2 ? 11 : 24;
              const an = (Math.PI * i) / 8 - Math.PI / 2;
              pts.push(`${(at[0] + r * Math.cos(an)).toFixed(1)},${(at[1] + r * Math.sin(an)).toFixed(1)}`);
            }
            g.append(svgEl('polygon', { points: pts.join(' '), class: 'st-rp-attack', 'data-hex': m.at }));
          } else {
            // A gun-sight on the place fired on.
            const [x, y] = at;
            g.append(svgEl('circle', { cx: x, cy: y, r: 17, class: 'st-rp-barrage', 'data-hex': m.at }));
            g.append(svgEl('path', { d: `M${x - 25} ${y}H${x - 9}M${x + 9} ${y}H${x + 25}M${x} ${y - 25}V${y - 9}M${x} ${y + 9}V${y + 25}`, class: 'st-rp-barrage-cross' }));
          }
          break;
        }
        case 'step-lost': {
          if (!at) break;
          const n = tagAt(m.at);
          const x = at[0] + 8 - n * 4;
          const y = at[1] + 6 - n * 15;
          g.append(svgEl('rect', { x, y, width: 20, height: 13, rx: 3, class: 'st-rp-loss', 'data-hex': m.at, 'data-unit': m.unit || '' }));
          g.append(Object.assign(svgEl('text', { x: x + 10, y: y + 10, class: 'st-rp-loss-text' }), { textContent: '−1' }));
          break;
        }
        case 'eliminated': {
          if (!at) break;
          const [x, y] = at;
          g.append(svgEl('path', { d: `M${x - 14} ${y - 14}L${x + 14} ${y + 14}M${x + 14} ${y - 14}L${x - 14} ${y + 14}`, class: 'st-rp-gone', 'data-hex': m.at, 'data-unit': m.unit }));
          break;
        }
        case 'withdrawn': {
          if (!at) break;
          // Off the map without loss: an arrow up and out of a box.
          const [x, y] = at;
          g.append(svgEl('rect', { x: x - 13, y: y - 6, width: 26, height: 20, rx: 3, class: 'st-rp-withdrawn', 'data-hex': m.at, 'data-unit': m.unit }));
          g.append(svgEl('path', { d: `M${x} ${y + 8}V${y - 20}M${x - 8} ${y - 12}L${x} ${y - 21}L${x + 8} ${y - 12}`, class: 'st-rp-withdrawn-arrow' }));
          break;
        }
        case 'arrived': {
          if (at) g.append(svgEl('circle', { cx: at[0], cy: at[1], r: 20, class: 'st-rp-arrive', 'data-hex': m.at, 'data-unit': m.unit }));
          break;
        }
        default: break;
      }
    }
  }

  stepReplay(by) {
    const R = this.replay;
    if (!R || !R.lines) return;
    R.at = Math.max(-1, Math.min(R.lines.length - 1, R.at + by));
    const line = R.lines[R.at];
    this.renderReplay();
    if (!line) { this.showRefs(''); return; }
    this.showRefs(line.text, line);
    this.centreOn(line.text, line);
  }

  // --- the game's charts -----------------------------------------------------------------------

  /** Opens the game's charts (from its own data), on the chart shown last. */
  /** The game's charts, fetched once (the same for every seat). */
  loadCharts() {
    if (!this.chartsLoading) {
      this.chartsLoading = api('GET', this.url('/charts')).then((got) => {
        this.charts = (got && got.charts) || [];
        return this.charts;
      }, (e) => {
        this.chartsLoading = null;
        throw e;
      });
    }
    return this.chartsLoading;
  }

  async openCharts(id) {
    if (!this.charts) {
      try {
        await this.loadCharts();
      } catch (e) {
        toast(e.describe ? e.describe() : String(e), 'error');
        return;
      }
    }
    if (!this.charts.length) return;
    this.chartId = id || this.chartId || this.charts[0].id;
    const c = this.charts.find((x) => x.id === this.chartId) || this.charts[0];
    const E = this.el;
    const table = h('table', { class: 'st-chart-table', test: 'chart-table' },
      h('thead', null, h('tr', null, c.head.map((x) => h('th', null, tx(x))))),
      h('tbody', null, c.rows.map((row, i) => h('tr', null, row.map((cell, j) => h('td', null,
        j === 0 && c.swatches && c.swatches[i] ? h('span', { class: 'st-swatch', style: `background:${c.swatches[i]}` }) : null,
        tx(cell)))))));
    E.charts.replaceChildren(h('div', { class: 'st-charts-box', role: 'dialog' },
      h('div', { class: 'st-charts-head' },
        h('nav', { class: 'st-chart-tabs' }, this.charts.map((x) => h('button', {
          class: `st-chart-tab${x.id === c.id ? ' st-on' : ''}`, test: `chart-${x.id}`, onclick: () => this.openCharts(x.id),
        }, tx(x.title)))),
        h('button', { class: 'st-x', title: t('close'), test: 'charts-close', onclick: () => { E.charts.hidden = true; } }, '×')),
      h('div', { class: 'st-charts-body', test: 'chart' },
        h('h2', null, tx(c.title)),
        tx(c.note) ? h('p', { class: 'st-muted' }, tx(c.note)) : null,
        h('div', { class: 'st-chart-scroll' }, table))));
    E.charts.hidden = false;
  }

  // --- hotseat: the screen between seats ---------------------------------------------------------

  renderScreen() {
    const E = this.el;
    if (!this.screened) { E.screen.hidden = true; return; }
    const st = this.state;
    const who = typeof st.you === 'number' ? this.seatName(st.you) : t('spectator');
    E.screen.replaceChildren(h('div', { class: 'st-screen-box' },
      h('div', { class: 'st-screen-title' }, t('passTo', who)),
      h('p', { class: 'st-muted' }, t('passHint')),
      h('button', { class: 'st-btn st-btn-primary', test: 'handover-continue', onclick: () => { this.screened = false; this.renderScreen(); } }, t('show')),
      h('label', { class: 'st-check-label' },
        h('input', { type: 'checkbox', checked: this.screenBetween(), test: 'screen-between', onchange: (e) => store('st-screen-between', e.target.checked) }),
        ' ', t('screenBetween'))));
    E.screen.hidden = false;
  }
}

// Sandtable's browser client: the lobby (`/`) and the game page (`/game/{id}`).
//
// Plain JavaScript, no build step and no framework: the server embeds this file, index.html and
// style.css into its binary. Everything it knows about a game comes from the web API
// (docs/api.md); the rules stay on the server. The page only shows the board the server draws,
// lets the player pick among the legal actions the server lists (by clicking counters and hexes
// or from the action panel), and sends the chosen one back.
//
// Every word on the page is in the dictionary `I18N` below, in English and Chinese; texts from
// the server come as {en, zh}. Our own CSS classes start with `st-` so that they never meet the
// classes of the inline board SVG.
'use strict';

// ---------------------------------------------------------------------------------------------
// Words

const I18N = {
  en: {
    brand: 'Sandtable',
    tagline: 'Board wargames with every rule enforced',
    langToggle: '中文',
    langToggleTitle: 'Switch to Chinese',
    loading: 'Loading…',
    lobby: 'Lobby',
    newGame: 'New game',
    game: 'Game',
    scenario: 'Scenario',
    seed: 'Seed',
    seedHint: 'optional — empty for a random one',
    seats: 'Seats',
    human: 'Human',
    agent: 'Computer: {0}',
    agent_random: 'Computer (random moves)',
    agent_scripted: 'Computer (scripted)',
    create: 'Create game',
    hotseat: 'Hotseat',
    hotseatHint: 'both sides human, played from this browser',
    reconstructed: 'Rests on reconstructed data',
    created: 'Game created',
    shareHint: 'Send each player the link of their seat. Whoever holds a link plays that seat: keep it private.',
    copy: 'Copy',
    copied: 'Copied',
    openAs: 'Play as {0}',
    openGame: 'Open the game',
    spectator: 'Spectator',
    spectate: 'Watch',
    games: 'Games on this server',
    noGames: 'No games yet.',
    refresh: 'Refresh',
    resumeAs: 'Resume as {0}',
    resumeHotseat: 'Resume hotseat',
    over: 'Over',
    ongoing: 'Ongoing',
    toMove: '{0} to move',
    updated: 'updated',
    status: 'Status',
    players: 'Players',
    actionsCol: '',
    yourTurn: 'Your turn — {0}',
    waitingFor: 'Waiting for {0}',
    thinking: '{0} (computer) is thinking…',
    chance: 'Chance is being resolved…',
    gameOver: 'Game over',
    draw: 'Draw',
    winner: '{0} wins',
    youPlay: 'You play {0}',
    watching: 'You are watching (spectator)',
    hotseatPlay: 'Hotseat: {0}',
    turnOf: 'to decide',
    situation: 'Situation',
    actions: 'Actions',
    legalCount: '{0} legal',
    noActions: 'Nothing for you to decide now.',
    filter: 'Filter actions…',
    selected: 'Selected',
    clearSel: 'Clear',
    selHint: 'Click a highlighted counter to select it (several for a joint attack); lit hexes show where it can go.',
    noneForSel: 'No action for exactly this selection; add or remove counters.',
    undo: 'Undo',
    undoSeat: 'Undo ({0})',
    undoTitle: 'Take back your last actions (back to the last roll, draw or reveal)',
    log: 'Log',
    jumpTo: 'Jump to…',
    newSince: '{0} new since your last visit',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
    fit: 'Fit the map',
    focus: 'Show the counters that can act',
    hex: 'Hex {0}',
    confirmAttack: 'Confirm the attack',
    attack: 'Attack',
    cancel: 'Cancel',
    choose: 'Which one?',
    stackAt: 'Stack at {0}',
    select: 'Select',
    passTo: 'Pass the screen to {0}',
    passHint: 'Hotseat: the other side must not see this side’s secrets.',
    show: 'Show',
    screenBetween: 'Hide between seats',
    record: 'Full record (replay)',
    rule: 'Rule {0}',
    error: 'Error',
    connLost: 'Live updates interrupted; reconnecting…',
    notFound: 'No such game.',
    outcome: 'Outcome',
    close: 'Close',
    group_other: 'Other',
    computer: 'computer',
    secret: 'secret',
    secretHint: 'The other side learns only that a choice was made',
    keysHint: 'Drag to pan · wheel to zoom · Esc clears',
    boardFailed: 'The board could not be loaded.',
    verbs: {
      pick: 'Chit picks', 'no-extra': 'Chit picks', first: 'First chit', choose: 'Choose units', done: 'Finish',
      move: 'Move', march: 'March', 'end-move': 'End movement', attack: 'Declare attacks', cancel: 'Cancel attacks',
      'end-declare': 'End declarations', resolve: 'Resolve combat', lose: 'Take losses', convert: 'Convert',
      retreat: 'Retreat', advance: 'Advance', 'end-advance': 'End advance', place: 'Place', fortify: 'Fortify',
      'no-fortress': 'Fortify', yes: 'Yes / no', no: 'Yes / no',
      fire: 'Barrage', 'air-strike': 'Air strikes', 'end-phase': 'End the phase', join: 'Join the attack',
      'call-off': 'Call off the attack', stand: 'Stand or retreat', withdraw: 'Stand or retreat',
      overrun: 'Overrun', exit: 'Leave the map', 'bug-out': 'Bug out', stay: 'Bug out',
      demolish: 'Blow bridges', pass: 'Pass', boats: 'Rubber boats', 'air-supply': 'Air supply',
      resupply: 'Artillery resupply',
    },
  },
  zh: {
    brand: '沙盘',
    tagline: '规则全部由程序执行的桌面兵棋',
    langToggle: 'English',
    langToggleTitle: '切换到英文',
    loading: '加载中……',
    lobby: '大厅',
    newGame: '新对局',
    game: '游戏',
    scenario: '剧本',
    seed: '随机种子',
    seedHint: '可选,留空则随机',
    seats: '座位',
    human: '玩家',
    agent: '电脑:{0}',
    agent_random: '电脑(随机走子)',
    agent_scripted: '电脑(脚本策略)',
    create: '创建对局',
    hotseat: '同屏对战',
    hotseatHint: '双方都是玩家,在本浏览器轮流操作',
    reconstructed: '基于重建数据',
    created: '对局已创建',
    shareHint: '把每个座位的链接发给对应的玩家。持有链接者即可操作该座位,请勿外传。',
    copy: '复制',
    copied: '已复制',
    openAs: '以{0}进入',
    openGame: '打开对局',
    spectator: '观战者',
    spectate: '观战',
    games: '本服务器上的对局',
    noGames: '还没有对局。',
    refresh: '刷新',
    resumeAs: '以{0}继续',
    resumeHotseat: '继续同屏对战',
    over: '已结束',
    ongoing: '进行中',
    toMove: '轮到{0}',
    updated: '更新于',
    status: '状态',
    players: '双方',
    actionsCol: '',
    yourTurn: '轮到你了 — {0}',
    waitingFor: '等待{0}',
    thinking: '{0}(电脑)思考中……',
    chance: '正在结算随机事件……',
    gameOver: '对局结束',
    draw: '平局',
    winner: '{0}获胜',
    youPlay: '你执{0}',
    watching: '你正在观战',
    hotseatPlay: '同屏:{0}',
    turnOf: '决策中',
    situation: '局势',
    actions: '可选行动',
    legalCount: '{0} 项合法行动',
    noActions: '现在没有需要你决定的事。',
    filter: '筛选行动……',
    selected: '已选',
    clearSel: '取消',
    selHint: '点击高亮的算子来选择(联合攻击可选多个);亮起的格子就是它能去的地方。',
    noneForSel: '恰好这组单位没有可用行动;请增减算子。',
    undo: '悔棋',
    undoSeat: '悔棋({0})',
    undoTitle: '收回你最近的行动(直到上一次掷骰、抽取或揭示)',
    log: '日志',
    jumpTo: '跳转到……',
    newSince: '自你上次查看以来有 {0} 条新记录',
    zoomIn: '放大',
    zoomOut: '缩小',
    fit: '显示全图',
    focus: '显示可行动的算子',
    hex: '格 {0}',
    confirmAttack: '确认攻击',
    attack: '攻击',
    cancel: '取消',
    choose: '选哪一个?',
    stackAt: '{0} 的堆叠',
    select: '选择',
    passTo: '请把屏幕交给{0}',
    passHint: '同屏对战:另一方不应看到这一方的秘密。',
    show: '显示',
    screenBetween: '换人时遮屏',
    record: '完整记录(回放)',
    rule: '规则 {0}',
    error: '错误',
    connLost: '实时更新中断,正在重连……',
    notFound: '没有这个对局。',
    outcome: '结果',
    close: '关闭',
    group_other: '其他',
    computer: '电脑',
    secret: '秘密',
    secretHint: '对方只知道你做了选择,不知道选了什么',
    keysHint: '拖动平移 · 滚轮缩放 · Esc 取消选择',
    boardFailed: '地图加载失败。',
    verbs: {
      pick: '选命令卡', 'no-extra': '选命令卡', first: '首个命令卡', choose: '选择单位', done: '完成',
      move: '移动', march: '行军', 'end-move': '结束移动', attack: '宣告攻击', cancel: '取消攻击',
      'end-declare': '结束宣告', resolve: '结算战斗', lose: '承受损失', convert: '转换',
      retreat: '退却', advance: '战后推进', 'end-advance': '结束推进', place: '放置', fortify: '要塞',
      'no-fortress': '要塞', yes: '是 / 否', no: '是 / 否',
      fire: '射击', 'air-strike': '空袭', 'end-phase': '结束本阶段', join: '加入攻击',
      'call-off': '取消攻击', stand: '坚守或撤退', withdraw: '坚守或撤退',
      overrun: '突袭', exit: '撤出地图', 'bug-out': '火炮逃跑', stay: '火炮逃跑',
      demolish: '炸桥', pass: '放弃', boats: '橡皮艇渡河', 'air-supply': '空中补给',
      resupply: '火炮空中补给',
    },
  },
};

let lang = (() => {
  const saved = localStorage.getItem('st-lang');
  if (saved === 'en' || saved === 'zh') return saved;
  return /^zh/i.test(navigator.language || '') ? 'zh' : 'en';
})();

/** A word of the page in the chosen language, `{0}`… replaced by the arguments. */
function t(key, ...args) {
  let s = I18N[lang][key];
  if (s === undefined) s = I18N.en[key];
  if (s === undefined) s = key;
  return String(s).replace(/\{(\d)\}/g, (_, i) => (args[i] === undefined ? '' : String(args[i])));
}

/** A text from the server ({en, zh}, or a plain string) in the chosen language. */
function tx(text) {
  if (text === null || text === undefined) return '';
  if (typeof text === 'string') return text;
  return text[lang] || text.en || text.zh || '';
}

function setLang(l) {
  lang = l;
  localStorage.setItem('st-lang', l);
  document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
  if (page && page.onLang) page.onLang();
}

// ---------------------------------------------------------------------------------------------
// Small helpers

/** Builds an element: h('div', {class: 'x', onclick: f, dataset: {test: 'y'}}, child, …). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else if (k === 'test') el.dataset.test = v;
      else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else if (k === 'text') el.textContent = v;
      else if (k === 'value') el.value = v;
      else if (k === 'checked') el.checked = !!v;
      else el.setAttribute(k, v === true ? '' : v);
    }
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVGNS = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  return el;
}

class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.code || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || '';
    this.rule = e.rule || '';
    this.text = e.text || null;
  }
  /** The error in words, with the rule it cites. */
  describe() {
    const words = tx(this.text) || this.code || this.message;
    return this.rule ? `${t('rule', this.rule)}: ${words}` : words;
  }
}

/** Calls the API; answers the parsed JSON or throws an ApiError. */
async function api(method, path, { body, token } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, { error: { code: 'network', text: { en: `Network error: ${e.message}`, zh: `网络错误:${e.message}` } } });
  }
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (_) { json = null; }
  if (!res.ok) throw new ApiError(res.status, json);
  return json;
}

function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (_) { /* private mode: no memory */ }
}
function load(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : JSON.parse(v);
  } catch (_) {
    return fallback;
  }
}

/** The tokens this browser holds for a game, by seat id ({axis: "…"}). */
function knownTokens(gameId) {
  return load(`st-tokens-${gameId}`, {}) || {};
}
function rememberTokens(gameId, bySeat) {
  store(`st-tokens-${gameId}`, Object.assign(knownTokens(gameId), bySeat));
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (_) {
    const ta = h('textarea', { style: 'position:fixed;opacity:0' });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch (_) { ok = false; }
    ta.remove();
    return ok;
  }
}

let toastTimer = null;
/** A short message at the bottom of the page; errors stay longer. */
function toast(msg, kind = 'info') {
  let el = document.getElementById('st-toast');
  if (!el) {
    el = h('div', { id: 'st-toast', test: 'toast', role: 'status' });
    document.body.append(el);
  }
  el.className = `st-toast st-toast-${kind}`;
  el.textContent = msg;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, kind === 'error' ? 9000 : 3500);
}

function langButton() {
  return h('button', {
    class: 'st-lang', id: 'st-lang', test: 'lang-toggle', title: t('langToggleTitle'),
    onclick: () => setLang(lang === 'zh' ? 'en' : 'zh'),
  }, t('langToggle'));
}

function header(...middle) {
  return h('header', { class: 'st-header' },
    h('a', { class: 'st-brand', href: '/', title: t('lobby') },
      h('span', { class: 'st-logo', 'aria-hidden': 'true' }),
      h('span', { class: 'st-brand-name' }, lang === 'zh' ? '沙盘' : 'Sandtable'),
      h('span', { class: 'st-brand-alt' }, lang === 'zh' ? 'Sandtable' : '沙盘')),
    h('div', { class: 'st-header-mid' }, ...middle),
    langButton());
}

function agentName(a) {
  const k = `agent_${a}`;
  const s = t(k);
  return s === k ? t('agent', a) : s;
}

/** The line of a game's summary that says where it stands (the first, unless it only names the scenario). */
function summaryLine(s, scenarioName) {
  const lines = String(s || '').split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.length > 1 && scenarioName && scenarioName.startsWith(lines[0])) return lines[1];
  return lines[0] || '';
}

// ---------------------------------------------------------------------------------------------
// Routing

let page = null;
const app = document.getElementById('app');

function route() {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  if (page && page.destroy) page.destroy();
  const m = location.pathname.match(/^\/game\/([^/]+)\/?$/);
  page = m ? new GamePage(decodeURIComponent(m[1])) : new Lobby();
  page.start();
}

// ---------------------------------------------------------------------------------------------
// The lobby

class Lobby {
  constructor() {
    this.catalog = null;
    this.games = null;
    this.created = null; // {game, response}
    this.form = { game: null, scenario: null, seed: '', seats: {} };
    this.error = '';
  }

  async start() {
    document.title = `${t('brand')} · ${t('lobby')}`;
    this.render();
    try {
      this.catalog = await api('GET', '/api/catalog');
      if (this.catalog.length && !this.form.game) this.form.game = this.catalog[0].id;
    } catch (e) {
      this.error = e.describe();
    }
    this.render();
    this.loadGames();
  }

  onLang() {
    document.title = `${t('brand')} · ${t('lobby')}`;
    this.render();
  }

  async loadGames() {
    try {
      this.games = await api('GET', '/api/games');
    } catch (e) {
      this.games = [];
      toast(e.describe(), 'error');
    }
    this.renderGames();
  }

  entry() {
    return (this.catalog || []).find((g) => g.id === this.form.game) || null;
  }

  render() {
    app.replaceChildren(
      header(h('span', { class: 'st-tagline' }, t('tagline'))),
      h('main', { class: 'st-lobby st-lobby-2' },
        h('div', { class: 'st-lobby-left' },
          h('section', { class: 'st-card st-create', id: 'st-create' }, this.createForm()),
          this.created ? h('section', { class: 'st-card st-created', test: 'created' }, this.createdCard()) : null),
        h('section', { class: 'st-card st-games' },
          h('div', { class: 'st-card-head' },
            h('h2', null, t('games')),
            h('button', { class: 'st-btn st-btn-quiet', test: 'refresh-games', onclick: () => this.loadGames() }, t('refresh'))),
          h('div', { id: 'st-games', test: 'games-list' }, t('loading')))));
    if (this.games) this.renderGames();
  }

  createForm() {
    if (this.error) return [h('h2', null, t('newGame')), h('p', { class: 'st-error' }, this.error)];
    if (!this.catalog) return [h('h2', null, t('newGame')), h('p', null, t('loading'))];
    const g = this.entry();
    const scen = g ? (g.scenarios.find((s) => s.id === this.form.scenario) || g.scenarios[0]) : null;
    if (scen) this.form.scenario = scen.id;
    const gameSel = h('select', {
      id: 'st-game', test: 'game-select',
      onchange: (e) => { this.form.game = e.target.value; this.form.scenario = null; this.form.seats = {}; this.render(); },
    }, this.catalog.map((c) => h('option', { value: c.id, selected: c.id === this.form.game }, tx(c.title))));
    const scenSel = h('select', {
      id: 'st-scenario', test: 'scenario-select',
      onchange: (e) => { this.form.scenario = e.target.value; this.render(); },
    }, (g ? g.scenarios : []).map((s) => h('option', { value: s.id, selected: s.id === this.form.scenario }, tx(s.name))));
    const notice = scen && scen.reconstructed
      ? h('div', { class: 'st-notice', test: 'reconstructed-notice' },
        h('strong', null, t('reconstructed')), h('span', null, tx(scen.note)))
      : null;
    const seats = (g ? g.seats : []).map((s) => {
      const sel = h('select', {
        test: `seat-${s.id}`, id: `st-seat-${s.id}`,
        onchange: (e) => { this.form.seats[s.id] = e.target.value; },
      }, h('option', { value: 'human' }, t('human')),
      (g.agents || []).map((a) => h('option', { value: a, selected: this.form.seats[s.id] === a }, agentName(a))));
      return h('label', { class: 'st-field st-seat' }, h('span', null, tx(s.name)), sel);
    });
    const seed = h('input', {
      id: 'st-seed', test: 'seed', type: 'number', min: '0', step: '1', inputmode: 'numeric',
      value: this.form.seed, placeholder: t('seedHint'),
      oninput: (e) => { this.form.seed = e.target.value; },
    });
    return [
      h('h2', null, t('newGame')),
      h('div', { class: 'st-form' },
        h('label', { class: 'st-field' }, h('span', null, t('game')), gameSel),
        h('label', { class: 'st-field' }, h('span', null, t('scenario')), scenSel),
        notice,
        h('label', { class: 'st-field' }, h('span', null, t('seed')), seed),
        h('fieldset', { class: 'st-seats' }, h('legend', null, t('seats')), seats),
        h('div', { class: 'st-buttons' },
          h('button', { class: 'st-btn st-btn-primary', test: 'create', onclick: () => this.create(false) }, t('create')),
          h('button', { class: 'st-btn', test: 'hotseat', title: t('hotseatHint'), onclick: () => this.create(true) },
            t('hotseat'), h('small', null, ` — ${t('hotseatHint')}`)))),
    ];
  }

  async create(hotseat) {
    const g = this.entry();
    if (!g) return;
    const body = { game: g.id, scenario: this.form.scenario, seats: {} };
    for (const s of g.seats) body.seats[s.id] = hotseat ? 'human' : (this.form.seats[s.id] || 'human');
    const seed = String(this.form.seed).trim();
    if (seed !== '') {
      if (!/^\d+$/.test(seed)) { toast(`${t('seed')}: ${seed}`, 'error'); return; }
      body.seed = Number(seed);
    }
    let res;
    try {
      res = await api('POST', '/api/games', { body });
    } catch (e) {
      toast(e.describe(), 'error');
      return;
    }
    rememberTokens(res.id, res.tokens || {});
    const tokens = Object.values(res.tokens || {});
    if (hotseat) {
      location.assign(`/game/${encodeURIComponent(res.id)}#t=${tokens.join(',')}`);
      return;
    }
    this.created = { game: g, res, players: body.seats };
    this.render();
    const card = document.querySelector('[data-test=created]');
    if (card) card.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    this.loadGames();
  }

  createdCard() {
    const { game, res, players } = this.created;
    const abs = (p) => new URL(p, location.origin).href;
    const rows = [];
    for (const s of game.seats) {
      const link = res.links && res.links[s.id];
      if (!link) {
        const p = players && players[s.id];
        const who = p && p !== 'human' ? agentName(p) : t('computer');
        rows.push(h('div', { class: 'st-link-row' }, h('span', { class: 'st-link-seat' }, tx(s.name)), h('span', { class: 'st-muted' }, who)));
        continue;
      }
      rows.push(this.linkRow(tx(s.name), abs(link), s.id));
    }
    if (res.links && res.links.spectator) rows.push(this.linkRow(t('spectator'), abs(res.links.spectator), 'spectator'));
    const humanTokens = Object.values(res.tokens || {});
    const openAll = humanTokens.length
      ? `/game/${encodeURIComponent(res.id)}#t=${humanTokens.join(',')}`
      : `/game/${encodeURIComponent(res.id)}`;
    return [
      h('h2', null, t('created')),
      h('p', { class: 'st-muted' }, t('shareHint')),
      h('div', { class: 'st-links' }, rows),
      h('div', { class: 'st-buttons' },
        h('a', { class: 'st-btn st-btn-primary', href: openAll, test: 'open-game' }, t('openGame'))),
    ];
  }

  linkRow(label, url, key) {
    const input = h('input', { class: 'st-link', readonly: true, value: url, test: `link-${key}`, onfocus: (e) => e.target.select() });
    const btn = h('button', {
      class: 'st-btn st-btn-small', test: `copy-${key}`,
      onclick: async () => {
        const ok = await copyText(url);
        btn.textContent = ok ? t('copied') : t('copy');
        setTimeout(() => { btn.textContent = t('copy'); }, 1500);
      },
    }, t('copy'));
    return h('div', { class: 'st-link-row' },
      h('span', { class: 'st-link-seat' }, label), input, btn,
      h('a', {
        class: 'st-btn st-btn-small st-btn-quiet', href: key === 'spectator' ? `${url}#spectate` : url, test: `open-${key}`,
      }, key === 'spectator' ? t('spectate') : t('openAs', label)));
  }

  renderGames() {
    const box = document.getElementById('st-games');
    if (!box || !this.games) return;
    if (!this.games.length) {
      box.replaceChildren(h('p', { class: 'st-muted' }, t('noGames')));
      return;
    }
    const rows = this.games.map((g) => {
      const mine = knownTokens(g.id);
      const seatsCell = (g.seats || []).map((s) => h('div', { class: 'st-seatline' },
        h('strong', null, tx(s.name)), ' ',
        h('span', { class: 'st-muted' }, s.player === 'human' ? t('human') : agentName(s.player))));
      let status;
      if (g.over) status = h('span', { class: 'st-pill st-pill-over' }, t('over'));
      else {
        const p = g.pending;
        let who = '';
        if (p && typeof p === 'object' && p.kind === 'seat' && g.seats && g.seats[p.seat]) who = tx(g.seats[p.seat].name);
        else if (typeof p === 'string' || typeof p === 'number') {
          const s = (g.seats || []).find((x, i) => x.id === p || i === p);
          who = s ? tx(s.name) : String(p);
        }
        status = h('span', { class: 'st-pill st-pill-live' }, who ? t('toMove', who) : t('ongoing'));
      }
      const links = [h('a', { class: 'st-btn st-btn-small st-btn-quiet', href: `/game/${encodeURIComponent(g.id)}#spectate`, test: 'spectate' }, t('spectate'))];
      const seatIds = Object.keys(mine).filter((k) => mine[k]);
      for (const sid of seatIds) {
        const s = (g.seats || []).find((x) => x.id === sid);
        links.push(h('a', {
          class: 'st-btn st-btn-small', href: `/game/${encodeURIComponent(g.id)}#t=${mine[sid]}`, test: `resume-${sid}`,
        }, t('resumeAs', s ? tx(s.name) : sid)));
      }
      if (seatIds.length > 1) {
        links.push(h('a', {
          class: 'st-btn st-btn-small st-btn-primary', href: `/game/${encodeURIComponent(g.id)}#t=${seatIds.map((k) => mine[k]).join(',')}`, test: 'resume-hotseat',
        }, t('resumeHotseat')));
      }
      const scen = g.scenario && typeof g.scenario === 'object' ? tx(g.scenario.name || g.scenario.id) : (g.scenario || '');
      return h('tr', { dataset: { game: g.id }, test: 'game-row' },
        h('td', null, h('div', { class: 'st-strong' }, tx(g.title) || g.game), h('div', { class: 'st-muted st-small' }, scen),
          g.updated ? h('div', { class: 'st-muted st-small st-when' }, t('updated'), ' ', formatTime(g.updated)) : null),
        h('td', null, seatsCell),
        h('td', null, status, h('div', { class: 'st-small st-summary-cell' }, summaryLine(tx(g.summary), scen))),
        h('td', null, h('div', { class: 'st-row-links' }, links)));
    });
    box.replaceChildren(h('table', { class: 'st-table' },
      h('thead', null, h('tr', null, h('th', null, t('game')), h('th', null, t('players')), h('th', null, t('status')), h('th', null, t('actionsCol')))),
      h('tbody', null, rows)));
  }
}

function formatTime(v) {
  const d = typeof v === 'number' ? new Date(v < 1e12 ? v * 1000 : v) : new Date(v);
  if (Number.isNaN(d.getTime())) return String(v);
  return d.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' });
}

// ---------------------------------------------------------------------------------------------
// The board: an inline SVG that pans and zooms by one CSS transform on its wrapper.

class Board {
  constructor(viewport, handlers) {
    this.viewport = viewport; // the clipping box
    this.handlers = handlers; // {click(target, event), hover(hexId, target, event)}
    this.layer = h('div', { class: 'st-map', id: 'st-map' });
    viewport.append(this.layer);
    this.svg = null;
    this.size = { w: 1000, h: 1000 };
    this.x = 0; this.y = 0; this.s = 1;
    this.placed = false; // whether the view was ever set (else the first map gets a default view)
    this.hexEls = new Map(); // hex id -> outline path
    this.ctrEls = new Map(); // counter id -> <g class="ctr">
    this.centres = new Map(); // hex id -> [x, y] in map coordinates
    this.litLayer = null;
    this.raf = 0;
    this.drag = null;
    this.dragged = false;
    this.bind();
  }

  bind() {
    const vp = this.viewport;
    // One pointer drags the map; two (fingers) pinch it.
    const touches = new Map();
    const pinchState = () => {
      const [a, b] = [...touches.values()];
      const r = vp.getBoundingClientRect();
      return { dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, mx: (a.x + b.x) / 2 - r.left, my: (a.y + b.y) / 2 - r.top };
    };
    vp.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (touches.size === 2) {
        this.drag = null;
        this.pinch = pinchState();
        this.dragged = true;
        return;
      }
      this.drag = { x: e.clientX, y: e.clientY, ox: this.x, oy: this.y, id: e.pointerId };
      this.dragged = false;
    });
    window.addEventListener('pointermove', this.onMove = (e) => {
      if (touches.has(e.pointerId)) touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.pinch && touches.size === 2) {
        const now = pinchState();
        this.x += now.mx - this.pinch.mx;
        this.y += now.my - this.pinch.my;
        this.zoomAt(now.mx, now.my, now.dist / this.pinch.dist);
        this.pinch = now;
        return;
      }
      const d = this.drag;
      if (!d || e.pointerId !== d.id) return;
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!this.dragged && Math.hypot(dx, dy) < 5) return;
      if (!this.dragged) { this.dragged = true; vp.classList.add('st-dragging'); }
      this.x = d.ox + dx;
      this.y = d.oy + dy;
      this.schedule();
    });
    const up = (e) => {
      touches.delete(e.pointerId);
      if (touches.size < 2) this.pinch = null;
      if (!this.drag || e.pointerId !== this.drag.id) return;
      this.drag = null;
      vp.classList.remove('st-dragging');
    };
    window.addEventListener('pointerup', this.onUp = up);
    window.addEventListener('pointercancel', this.onCancel = up);
    vp.addEventListener('click', (e) => {
      if (this.dragged) { this.dragged = false; return; }
      if (!this.svg || !this.svg.contains(e.target)) { this.handlers.click(null, e); return; }
      this.handlers.click(e.target, e);
    });
    vp.addEventListener('wheel', (e) => {
      e.preventDefault();
      const r = vp.getBoundingClientRect();
      const k = Math.exp(-Math.max(-300, Math.min(300, e.deltaY * (e.deltaMode === 1 ? 30 : 1))) * 0.0015);
      this.zoomAt(e.clientX - r.left, e.clientY - r.top, k);
    }, { passive: false });
    vp.addEventListener('pointerover', (e) => {
      if (!this.svg || !this.svg.contains(e.target)) return;
      this.handlers.hover(this.hexOf(e.target), e.target, e);
    });
    vp.addEventListener('pointerleave', () => this.handlers.hover(null, null, null));
    window.addEventListener('resize', this.onResize = () => this.clamp());
  }

  destroy() {
    window.removeEventListener('pointermove', this.onMove);
    window.removeEventListener('pointerup', this.onUp);
    window.removeEventListener('pointercancel', this.onCancel);
    window.removeEventListener('resize', this.onResize);
  }

  /** Puts in a new SVG document (as text), keeping the view. */
  setSvg(text) {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    if (!root || root.nodeName.toLowerCase() !== 'svg' || doc.querySelector('parsererror')) throw new Error('bad svg');
    const svg = document.importNode(root, true);
    const vb = (svg.getAttribute('viewBox') || '').split(/[\s,]+/).map(Number);
    const w = vb.length === 4 && vb[2] > 0 ? vb[2] : Number(svg.getAttribute('width')) || 1000;
    const hh = vb.length === 4 && vb[3] > 0 ? vb[3] : Number(svg.getAttribute('height')) || 1000;
    svg.setAttribute('width', w);
    svg.setAttribute('height', hh);
    svg.classList.add('st-svg');
    svg.dataset.test = 'board-svg';
    this.size = { w, h: hh };
    this.layer.style.width = `${w}px`;
    this.layer.style.height = `${hh}px`;
    if (this.svg) this.svg.replaceWith(svg); else this.layer.append(svg);
    this.svg = svg;
    this.hexEls.clear();
    this.ctrEls.clear();
    this.centres.clear();
    for (const p of svg.querySelectorAll('.hx [data-hex], .hx [data-space], [data-hex]:not(g), [data-space]:not(g)')) {
      const id = p.getAttribute('data-hex') || p.getAttribute('data-space');
      if (!this.hexEls.has(id)) this.hexEls.set(id, p);
    }
    for (const c of svg.querySelectorAll('.ctr[data-id]')) this.ctrEls.set(c.getAttribute('data-id'), c);
    this.litLayer = svgEl('g', { class: 'st-lit-layer' });
    svg.append(this.litLayer);
    if (!this.placed) this.fit();
    else this.apply();
  }

  /** The hex (or space) id of a clicked or hovered element: its own, or its stack's. */
  hexOf(el) {
    const g = el && el.closest && el.closest('[data-hex],[data-space]');
    if (!g) return null;
    return g.getAttribute('data-hex') || g.getAttribute('data-space');
  }

  /** The stack group a counter stands in (the group naming its hex), or null. */
  stackOf(el) {
    if (!el || !el.closest) return null;
    return el.closest('.stack') || el.closest('g[data-hex]:not(.ctr), g[data-space]:not(.ctr)');
  }

  /** The map position of an element's local coordinates (the SVG may nest transforms). */
  toMap(el) {
    if (!el.__stToMap) {
      let m = null;
      try {
        const root = this.svg.getScreenCTM();
        const own = el.getScreenCTM();
        if (root && own) m = root.inverse().multiply(own);
      } catch (_) { m = null; }
      const ident = !m || (Math.abs(m.a - 1) < 1e-6 && Math.abs(m.d - 1) < 1e-6 && Math.abs(m.b) < 1e-6
        && Math.abs(m.c) < 1e-6 && Math.abs(m.e) < 1e-3 && Math.abs(m.f) < 1e-3);
      el.__stToMap = ident ? 'identity' : m;
    }
    return el.__stToMap;
  }

  ctrOf(el) {
    const g = el && el.closest && el.closest('.ctr[data-id]');
    return g ? g.getAttribute('data-id') : null;
  }

  /** The centre of a hex in map coordinates. */
  centre(id) {
    if (this.centres.has(id)) return this.centres.get(id);
    const p = this.hexEls.get(id);
    let c = null;
    if (p) {
      try {
        const b = p.getBBox();
        c = [b.x + b.width / 2, b.y + b.height / 2];
        const m = this.toMap(p);
        if (m !== 'identity') c = [m.a * c[0] + m.c * c[1] + m.e, m.b * c[0] + m.d * c[1] + m.f];
      } catch (_) { c = null; }
    }
    this.centres.set(id, c);
    return c;
  }

  schedule() {
    if (this.raf) return;
    this.raf = requestAnimationFrame(() => { this.raf = 0; this.apply(); });
  }

  apply() {
    // While the view moves, the map is one composited layer that is only shifted and scaled
    // (cheap, if blurred when zooming); once still, it is drawn afresh at the new scale.
    if (!this.moving) { this.moving = true; this.layer.classList.add('st-moving'); }
    clearTimeout(this.still);
    this.still = setTimeout(() => { this.moving = false; this.layer.classList.remove('st-moving'); }, 180);
    this.layer.style.transform = `translate(${this.x.toFixed(1)}px, ${this.y.toFixed(1)}px) scale(${this.s.toFixed(4)})`;
  }

  viewSize() {
    return { w: this.viewport.clientWidth || 800, h: this.viewport.clientHeight || 600 };
  }

  minScale() {
    const v = this.viewSize();
    return Math.min(0.9 * Math.min(v.w / this.size.w, v.h / this.size.h), 0.5);
  }

  zoomAt(px, py, k) {
    const s = Math.max(this.minScale(), Math.min(4, this.s * k));
    const f = s / this.s;
    this.x = px - (px - this.x) * f;
    this.y = py - (py - this.y) * f;
    this.s = s;
    this.placed = true;
    this.clamp();
  }

  zoomBy(k) {
    const v = this.viewSize();
    this.zoomAt(v.w / 2, v.h / 2, k);
  }

  /** The whole map in view. */
  fit() {
    const v = this.viewSize();
    this.s = Math.min(v.w / this.size.w, v.h / this.size.h) * 0.98;
    this.x = (v.w - this.size.w * this.s) / 2;
    this.y = (v.h - this.size.h * this.s) / 2;
    this.placed = true;
    this.apply();
  }

  /** Shows a box of map coordinates [x0, y0, x1, y1], no closer than scale `maxS`. */
  show(box, maxS = 1.1) {
    const v = this.viewSize();
    const pad = 80;
    const bw = Math.max(box[2] - box[0] + 2 * pad, 200);
    const bh = Math.max(box[3] - box[1] + 2 * pad, 200);
    this.s = Math.max(this.minScale(), Math.min(maxS, v.w / bw, v.h / bh));
    const cx = (box[0] + box[2]) / 2;
    const cy = (box[1] + box[3]) / 2;
    this.x = v.w / 2 - cx * this.s;
    this.y = v.h / 2 - cy * this.s;
    this.placed = true;
    this.clamp();
  }

  /** Keeps some of the map in view. */
  clamp() {
    const v = this.viewSize();
    const w = this.size.w * this.s;
    const hh = this.size.h * this.s;
    // A map larger than the view keeps its edges near the view's; a smaller one stays inside.
    const fitIn = (pos, size, view) => (size + 80 <= view
      ? Math.min(view - size - 20, Math.max(20, pos))
      : Math.min(40, Math.max(view - size - 40, pos)));
    this.x = fitIn(this.x, w, v.w);
    this.y = fitIn(this.y, hh, v.h);
    this.schedule();
  }

  /** Whether a point of the map is in view (with a margin in screen pixels). */
  inView(pt, margin = 30) {
    const v = this.viewSize();
    const sx = this.x + pt[0] * this.s;
    const sy = this.y + pt[1] * this.s;
    return sx > margin && sy > margin && sx < v.w - margin && sy < v.h - margin;
  }
}

// ---------------------------------------------------------------------------------------------
// The game page

/** The set of units of an action, as a key: sorted ids joined by commas. */
function unitsKey(units) {
  return (units || []).slice().sort().join(',');
}
function verbOf(a) {
  return String(a.notation || '').split(/\s+/)[0] || '';
}
function isAttack(a) {
  return /^attack\b/i.test(a.notation || '');
}

class GamePage {
  constructor(id) {
    this.id = id;
    this.tokens = []; // tokens this page holds
    this.seatToken = {}; // seat number -> token
    this.viewToken = null; // the token of the seat being shown
    this.state = null;
    this.selection = new Set();
    this.filter = '';
    this.boardKey = ''; // what the SVG on the page shows: version|lang|token
    this.busy = false;
    this.seq = 0;
    this.es = null;
    this.shownSeat = undefined; // the seat whose view was last rendered
    this.baseline = {}; // seat key -> journal length seen before this page showed it
    this.journalShown = { key: '', n: 0 };
    this.screened = false;
    this.lastHover = null;
    this.openGroups = new Set();
    this.jlogs = new Map(); // token ('' for a spectator) -> {lines, over}: the log as that seat reads it
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
    if (this.es) this.es.close();
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
    E.status = h('div', { class: 'st-statusline', test: 'status-line' }, t('keysHint'));
    E.tip = h('div', { class: 'st-tip', hidden: true, test: 'hex-tip' });
    E.zoom = h('div', { class: 'st-zoom' },
      h('button', { class: 'st-zbtn', test: 'zoom-in', title: t('zoomIn'), onclick: () => this.board.zoomBy(1.25) }, '+'),
      h('button', { class: 'st-zbtn', test: 'zoom-out', title: t('zoomOut'), onclick: () => this.board.zoomBy(0.8) }, '−'),
      h('button', { class: 'st-zbtn', test: 'zoom-fit', title: t('fit'), onclick: () => this.board.fit() }, '⤢'),
      h('button', { class: 'st-zbtn', test: 'zoom-focus', title: t('focus'), onclick: () => this.focusActive(true) }, '◎'));
    E.popup = h('div', { class: 'st-popup', hidden: true, test: 'popup' });
    E.screen = h('div', { class: 'st-screen', hidden: true, test: 'handover' });
    E.boardWrap = h('div', { class: 'st-board' }, E.viewport, E.zoom, E.status, E.tip, E.popup);
    E.side = h('aside', { class: 'st-side' });
    E.info = h('section', { class: 'st-panel st-info', test: 'info' });
    E.acts = h('section', { class: 'st-panel st-actions', test: 'actions' });
    E.log = h('section', { class: 'st-panel st-logpanel', test: 'log-panel' });
    E.side.append(E.info, E.acts, E.log);
    E.headerMid = h('div', { class: 'st-header-info' }, E.title);
    app.replaceChildren(
      this.headerEl = header(E.headerMid),
      E.turn,
      h('main', { class: 'st-game' }, E.boardWrap, E.side, E.screen));
    this.board = new Board(E.viewport, {
      click: (target, ev) => this.onBoardClick(target, ev),
      hover: (hex, target, ev) => this.onHover(hex, target, ev),
    });
    E.viewport.addEventListener('pointermove', (ev) => this.moveTip(ev));
    document.addEventListener('keydown', this.onKey = (ev) => {
      if (ev.key === 'Escape') { this.closePopup(); this.setSelection([]); }
      if (ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) return;
      if (ev.key === '+' || ev.key === '=') this.board.zoomBy(1.25);
      if (ev.key === '-') this.board.zoomBy(0.8);
    });
  }

  /** Everything in the new language; the board is fetched again for its labels. */
  onLang() {
    if (!this.el || this.dead) return;
    this.closePopup();
    this.el.status.textContent = t('keysHint');
    this.lastHover = null;
    this.relabel();
    if (this.state) {
      this.retitle();
      this.renderAll();
      this.loadBoard(true);
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
    this.journalShown = { key: '', n: 0 };
  }

  // --- fetching ---------------------------------------------------------------------------------

  url(p = '') {
    return `/api/games/${encodeURIComponent(this.id)}${p}`;
  }

  /** Fetches the game (switching a hotseat page to the seat that must decide) and the board. */
  async refresh() {
    if (this.dead) return;
    const seq = ++this.seq;
    let st;
    try {
      st = await this.fetchGame(this.viewToken);
      const p = st.pending || {};
      if (p.kind === 'seat' && p.seat !== st.you && this.seatToken[p.seat] !== undefined) {
        this.viewToken = this.seatToken[p.seat];
        st = await this.fetchGame(this.viewToken);
      }
    } catch (e) {
      if (e.status === 404) { this.fatal(t('notFound')); return; }
      toast(e.describe(), 'error');
      return;
    }
    // Hotseat: the seat that just acted may still take its action back from this page.
    let undoBy = null;
    if (!st.can_undo && this.tokens.length > 1) {
      for (const [seat, tk] of Object.entries(this.seatToken)) {
        if (tk === this.viewToken) continue;
        try {
          const other = await api('GET', this.url('?journal_from=1000000000'), { token: tk });
          if (other.can_undo && other.version === st.version) undoBy = { seat: Number(seat), token: tk };
        } catch (_) { /* nothing to offer */ }
      }
    }
    if (seq !== this.seq) return; // a newer refresh is under way
    this.undoBy = undoBy;
    this.setState(st);
  }

  /**
   * The log lines to ask for: from one before the last line this page has of `token`'s log
   * (the overlap tells whether the lines it has still stand), or all.
   */
  journalQuery(token) {
    const j = this.jlogs.get(token || '');
    if (!j || j.over || j.lines.length < 2) return '';
    return `?journal_from=${j.lines.length - 1}`;
  }

  /**
   * Completes an answer that carries only the newest log lines with the lines this page has.
   * Answers false when they do not fit (an undo changed the log, the game ended and showed
   * everything): then the whole log must be fetched.
   */
  mergeJournal(st, token) {
    const key = token || '';
    const lines = st.journal || [];
    const from = typeof st.journal_from === 'number' ? st.journal_from : 0;
    const over = !!(st.pending && st.pending.kind === 'over');
    if (from === 0) {
      this.jlogs.set(key, { lines, over });
      return true;
    }
    const j = this.jlogs.get(key);
    const same = (a, b) => a && b && !!a.heading === !!b.heading && JSON.stringify(a.text) === JSON.stringify(b.text);
    if (!j || j.over !== over || from > j.lines.length || !lines.length || !same(j.lines[from], lines[0])) {
      return false;
    }
    const all = j.lines.slice(0, from).concat(lines);
    this.jlogs.set(key, { lines: all, over });
    st.journal = all;
    return true;
  }

  /** GET the game as `token`'s seat sees it, asking only for log lines the page lacks. */
  async fetchGame(token) {
    const q = this.journalQuery(token);
    let st = await api('GET', this.url(q), { token });
    if (!this.mergeJournal(st, token)) {
      st = await api('GET', this.url(), { token });
      this.mergeJournal(st, token);
    }
    return st;
  }

  setState(st) {
    const prev = this.state;
    const seatChanged = this.shownSeat !== undefined && this.shownSeat !== st.you;
    this.state = st;
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
    this.retitle();
    this.renderAll();
    this.loadBoard(false);
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

  async loadBoard(force) {
    const st = this.state;
    if (!st) return;
    const key = `${st.version}|${lang}|${this.viewToken || ''}`;
    if (!force && key === this.boardKey) { this.paint(); return; }
    const seq = ++this.boardSeq || (this.boardSeq = 1);
    const headers = {};
    if (this.viewToken) headers.Authorization = `Bearer ${this.viewToken}`;
    let text;
    try {
      const res = await fetch(this.url(`/board.svg?lang=${lang}`), { headers });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = await res.text();
    } catch (e) {
      toast(`${t('boardFailed')} ${e.message}`, 'error');
      return;
    }
    if (seq !== this.boardSeq) return;
    const first = !this.board.svg;
    try {
      this.board.setSvg(text);
    } catch (e) {
      toast(t('boardFailed'), 'error');
      return;
    }
    this.boardKey = key;
    if (first) this.focusActive(true);
    else if (!this.hadTargets && this.hasTargets()) this.focusActive(true);
    this.hadTargets = this.hasTargets();
    this.paint();
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

  listen() {
    if (this.dead || typeof EventSource === 'undefined') return;
    const tk = this.tokens[0];
    const src = this.url(`/events${tk ? `?token=${encodeURIComponent(tk)}` : ''}`);
    this.es = new EventSource(src);
    let warned = false;
    this.es.addEventListener('update', (ev) => {
      let v = null;
      try { v = JSON.parse(ev.data).version; } catch (_) { v = null; }
      if (this.state && v !== null && v === this.state.version) return;
      this.refresh();
    });
    this.es.addEventListener('open', () => {
      if (warned) { warned = false; this.refresh(); }
    });
    this.es.addEventListener('error', () => {
      if (!warned) { warned = true; toast(t('connLost'), 'warn'); }
    });
  }

  // --- what can be done -------------------------------------------------------------------------

  /** Indexes the legal actions: which counters can act, and each action's unit set. */
  prepare() {
    const legal = (this.state && this.state.legal) || [];
    this.selectable = new Set();
    this.legal = legal.map((a, i) => {
      for (const u of a.units || []) this.selectable.add(u);
      return { a, i, key: unitsKey(a.units), units: a.units || [], hexes: a.hexes || [] };
    });
    this.units = new Map();
    const vu = this.state && this.state.view && this.state.view.units;
    if (Array.isArray(vu)) for (const u of vu) if (u && u.id) this.units.set(u.id, u);
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
    for (const e of this.legal) {
      if (e.key !== key || !e.hexes.length) continue;
      for (const hx of e.hexes) {
        if (!lit.has(hx)) lit.set(hx, []);
        lit.get(hx).push(e);
      }
    }
    return lit;
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

  unitName(id) {
    const u = this.units.get(id);
    if (u) {
      if (u.name && typeof u.name === 'object') return tx(u.name);
      const n = lang === 'zh' ? (u.name_zh || u.name_en) : (u.name_en || u.name_zh);
      if (n) return n;
      if (u.label) return u.label;
    }
    const c = this.board && this.board.ctrEls.get(id);
    const title = c && c.querySelector('title');
    return title ? title.textContent : id;
  }

  unitFactors(id) {
    const u = this.units.get(id);
    return u && u.factors ? String(u.factors) : '';
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
    this.lit = this.litHexes();
    for (const p of b.svg.querySelectorAll('.st-lit')) p.classList.remove('st-lit', 'st-lit-attack', 'st-lit-move');
    const labels = [];
    for (const [hex, acts] of this.lit) {
      const p = b.hexEls.get(hex);
      if (!p) continue;
      const kind = acts.some((e) => isAttack(e.a)) ? 'attack' : (acts.some((e) => /^(move|march|retreat|advance|place)\b/.test(e.a.notation || '')) ? 'move' : 'other');
      p.classList.add('st-lit', `st-lit-${kind === 'attack' ? 'attack' : 'move'}`);
      const d = p.getAttribute('d');
      if (!d) continue;
      const over = svgEl('path', { d, class: `st-hl st-hl-${kind}`, 'data-lit': hex });
      const m = b.toMap(p);
      if (m !== 'identity') over.setAttribute('transform', `matrix(${m.a} ${m.b} ${m.c} ${m.d} ${m.e} ${m.f})`);
      layer.append(over);
      const note = acts.map((e) => tx(e.a.note)).find(Boolean);
      if (note) {
        const c = b.centre(hex);
        if (c) labels.push(Object.assign(svgEl('text', { x: c[0], y: c[1] + 21, class: 'st-hl-note' }), { textContent: note }));
      }
    }
    for (const l of labels) layer.append(l);
  }

  // --- clicks on the map ------------------------------------------------------------------------

  onBoardClick(target, ev) {
    if (this.screened) return;
    this.closePopup();
    if (!target) return;
    const b = this.board;
    const ctr = b.ctrOf(target);
    const hex = b.hexOf(target);
    const lit = this.lit || new Map();
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
      if (count > 1) { this.stackPanel(stack, hex, ev); return; }
      return;
    }
    if (hex && lit.has(hex)) { this.takeAt(hex, ev); return; }
    if (this.selection.size) this.setSelection([]);
  }

  /** Offers, beside the counter, the actions of exactly the selection that need no hex (choose it, take a loss). */
  offerUnitActions(ev) {
    const key = this.selKey();
    const acts = this.legal.filter((e) => e.key === key && !e.hexes.length);
    if (!acts.length) return;
    this.popup(ev, [...this.selection].map((u) => this.unitName(u)).join(' + '), acts.map((e) => h('button', {
      class: 'st-btn st-choice', test: 'choice', dataset: { notation: e.a.notation },
      onclick: () => { this.closePopup(); this.act(e.a); },
    }, tx(e.a.text))));
  }

  /** A click on a lit hex: one action is taken (an attack after a confirmation), several offered. */
  takeAt(hex, ev) {
    const acts = (this.lit && this.lit.get(hex)) || [];
    if (!acts.length) return;
    if (acts.length === 1) {
      const e = acts[0];
      if (isAttack(e.a)) this.confirmAttack(e, ev);
      else this.act(e.a);
      return;
    }
    this.popup(ev, t('hex', hex), acts.map((e) => h('button', {
      class: 'st-btn st-choice', test: 'choice', dataset: { notation: e.a.notation },
      onclick: () => {
        this.closePopup();
        if (isAttack(e.a)) this.confirmAttack(e, ev); else this.act(e.a);
      },
    }, tx(e.a.text), e.a.note ? h('small', null, ` (${tx(e.a.note)})`) : null)));
  }

  confirmAttack(e, ev) {
    this.popup(ev, t('confirmAttack'), [
      h('p', { class: 'st-confirm-text', test: 'confirm-text' }, tx(e.a.text)),
      e.a.note ? h('p', { class: 'st-muted' }, tx(e.a.note)) : null,
      h('div', { class: 'st-buttons' },
        h('button', { class: 'st-btn st-btn-danger', test: 'confirm-ok', onclick: () => { this.closePopup(); this.act(e.a); } }, t('attack')),
        h('button', { class: 'st-btn', test: 'confirm-cancel', onclick: () => this.closePopup() }, t('cancel'))),
    ], 'confirm');
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
      }, h('span', { class: 'st-check' }, on ? '✔' : ''), h('span', null, this.unitName(id)),
      this.unitFactors(id) ? h('small', null, ` ${this.unitFactors(id)}`) : null);
    });
    const key = this.selKey();
    const extra = this.selection.size ? this.legal.filter((e) => e.key === key && !e.hexes.length) : [];
    const more = extra.map((e) => h('button', {
      class: 'st-btn st-choice', test: 'choice', dataset: { notation: e.a.notation },
      onclick: () => { this.closePopup(); this.act(e.a); },
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
    if (!hex) { S.textContent = t('keysHint'); tip.hidden = true; return; }
    const parts = [t('hex', hex)];
    const ctr = this.board.ctrOf(target);
    if (ctr) parts.push(this.unitName(ctr));
    const acts = this.lit && this.lit.get(hex);
    if (acts && acts.length) {
      const words = acts.map((e) => tx(e.a.text) + (e.a.note ? ` (${tx(e.a.note)})` : ''));
      parts.push(words.join(' / '));
      tip.textContent = `${hex} · ${acts.map((e) => tx(e.a.note) || verbLabel(verbOf(e.a))).join(' / ')}`;
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

  /** Takes a legal action (an entry of `state.legal`). */
  async act(legal) {
    if (this.busy || !this.state) return;
    const action = legal.action;
    this.busy = true;
    this.el.side.classList.add('st-busy');
    try {
      const token = this.viewToken;
      const st = await api('POST', this.url(`/actions${this.journalQuery(token)}`), { token, body: { action, version: this.state.version } });
      if (!this.mergeJournal(st, token)) { this.selection.clear(); await this.refresh(); return; }
      this.selection.clear();
      await this.took(st);
    } catch (e) {
      if (e.status === 409) await this.refresh(); // stale: the game moved on; show it as it is
      else toast(e.describe(), 'error');
    } finally {
      this.busy = false;
      this.el.side.classList.remove('st-busy');
    }
  }

  /** Shows the game as an action or undo answered it, or as the seat that must decide next sees it. */
  async took(st) {
    const p = (st && st.pending) || {};
    if (!st || typeof st !== 'object' || !('version' in st)
      || (p.kind === 'seat' && p.seat !== st.you && this.seatToken[p.seat] !== undefined)) {
      await this.refresh();
      return;
    }
    this.seq++;
    this.undoBy = null;
    if (typeof st.you === 'number' && this.seatToken[st.you] !== undefined) this.viewToken = this.seatToken[st.you];
    this.setState(st);
  }

  async undo(token = this.viewToken) {
    if (this.busy) return;
    this.busy = true;
    try {
      const st = await api('POST', this.url(`/undo${this.journalQuery(token)}`), { token });
      if (!this.mergeJournal(st, token)) { this.selection.clear(); await this.refresh(); return; }
      this.selection.clear();
      await this.took(st);
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

  seatName(i) {
    const s = this.state.seats && this.state.seats[i];
    return s ? tx(s.name) : String(i);
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
      else if (seat.player && seat.player !== 'human') { cls += ' st-turn-wait'; main = t('thinking', this.seatName(p.seat)); }
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
      (p.kind === 'over' || st.outcome) ? h('a', { class: 'st-btn st-btn-small st-record', href: this.url('/record'), test: 'record-top', target: '_blank', rel: 'noopener' }, t('record')) : null,
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
    const head = h('div', { class: 'st-panel-head' }, h('h3', null, t('actions')),
      all.length ? h('span', { class: 'st-count', test: 'legal-count' }, t('legalCount', all.length)) : null);
    E.acts.classList.toggle('st-actions-empty', !all.length);
    if (!all.length) {
      E.acts.replaceChildren(head, h('p', { class: 'st-muted', test: 'no-actions' }, t('noActions')));
      return;
    }
    if (sel.length) {
      body.push(h('div', { class: 'st-selbar', test: 'selection' },
        h('span', { class: 'st-muted' }, t('selected'), ': '),
        sel.map((u) => h('span', { class: 'st-chip', dataset: { unit: u } }, this.unitName(u))),
        h('button', { class: 'st-btn st-btn-small st-btn-quiet', test: 'clear-selection', onclick: () => this.setSelection([]) }, t('clearSel'))));
    } else if (this.selectable.size) {
      body.push(h('p', { class: 'st-hint' }, t('selHint')));
    }
    const filterBox = h('input', {
      class: 'st-filter', type: 'search', placeholder: t('filter'), value: this.filter, test: 'action-filter',
      oninput: (e) => { this.filter = e.target.value; this.renderActionList(); },
    });
    if (all.length > 6) body.push(filterBox);
    E.actList = h('div', { class: 'st-actlist', test: 'action-list' });
    body.push(E.actList);
    E.acts.replaceChildren(head, ...body);
    this.renderActionList();
  }

  renderActionList() {
    const list = this.el.actList;
    if (!list) return;
    const sel = [...this.selection];
    const q = this.filter.trim().toLowerCase();
    let shown = this.legal;
    if (sel.length) shown = shown.filter((e) => sel.every((u) => e.units.includes(u)));
    if (q) shown = shown.filter((e) => (`${tx(e.a.text)} ${e.a.notation} ${tx(e.a.note)} ${e.units.map((u) => this.unitName(u)).join(' ')}`).toLowerCase().includes(q));
    if (!shown.length) {
      list.replaceChildren(h('p', { class: 'st-muted' }, sel.length ? t('noneForSel') : '—'));
      return;
    }
    // Groups by the notation's verb, in order of first appearance; long groups by unit too.
    const groups = new Map();
    for (const e of shown) {
      const g = verbLabel(verbOf(e.a));
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(e);
    }
    const many = shown.length > 12;
    const out = [];
    // Actions about nothing on the map (end a phase, yes or no) first: long lists of moves
    // would bury them.
    const global = (items) => items.every((e) => !e.units.length && !e.hexes.length);
    const ordered = [...groups.entries()].sort((x, y) => Number(global(y[1])) - Number(global(x[1])));
    for (const [g, items] of ordered) {
      const sub = new Map();
      const split = many && items.length > 8 && items.some((e) => e.units.length);
      if (split) {
        for (const e of items) {
          const k = e.key;
          if (!sub.has(k)) sub.set(k, []);
          sub.get(k).push(e);
        }
      }
      // With a selection, the actions of exactly the selected counters come first, open; those
      // that need more counters follow, shut, fewest counters first.
      const selKey = this.selKey();
      const subs = [...sub.entries()];
      if (sel.length) subs.sort((x, y) => Number(y[0] === selKey) - Number(x[0] === selKey) || x[1][0].units.length - y[1][0].units.length);
      const content = split
        ? subs.map(([k, es]) => this.group(`${g}/${k}`, k ? k.split(',').map((u) => this.unitName(u)).join(' + ') : t('group_other'), es, false,
          sel.length ? k === selKey : !!q))
        : items.map((e) => this.actionButton(e));
      out.push(groups.size > 1 || split ? this.group(g, g, null, content, true) : h('div', { class: 'st-group-flat' }, content));
    }
    list.replaceChildren(...out);
  }

  /** A collapsible group of actions (or of subgroups), remembered open or shut. */
  group(key, label, items, content, defaultOpen) {
    const kids = content || items.map((e) => this.actionButton(e));
    const n = items ? items.length : kids.reduce((s, k) => s + (Number(k.dataset && k.dataset.n) || 1), 0);
    const open = this.openGroups.has(key) || (defaultOpen && !this.openGroups.has(`-${key}`));
    const d = h('details', { class: 'st-group', open, test: 'action-group', dataset: { n: String(n) } },
      h('summary', null, label, h('span', { class: 'st-count' }, String(n))), kids);
    d.addEventListener('toggle', () => {
      if (d.open) { this.openGroups.add(key); this.openGroups.delete(`-${key}`); } else { this.openGroups.delete(key); this.openGroups.add(`-${key}`); }
    });
    return d;
  }

  actionButton(e) {
    const a = e.a;
    return h('button', {
      class: `st-act${isAttack(a) ? ' st-act-attack' : ''}`, test: 'action',
      dataset: { notation: a.notation || '', units: e.units.join(','), hexes: e.hexes.join(',') },
      title: a.notation || '',
      onclick: (ev) => {
        if (isAttack(a)) this.confirmAttack(e, ev);
        else this.act(a);
      },
      onmouseenter: () => this.previewHexes(e.hexes),
      onmouseleave: () => this.previewHexes([]),
    }, h('span', { class: 'st-act-text' }, tx(a.text) || a.notation),
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
      const li = h('li', { class: line.heading ? 'st-log-h' : 'st-log-l', test: 'log-line', dataset: { i: String(i) } }, text);
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

function verbLabel(v) {
  const verbs = I18N[lang].verbs || {};
  if (verbs[v]) return verbs[v];
  if (!v) return t('group_other');
  return v.charAt(0).toUpperCase() + v.slice(1).replace(/-/g, ' ');
}

window.addEventListener('popstate', route);
route();

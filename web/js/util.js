// Small helpers shared by the lobby and the game page: building elements, calling the API,
// remembering things in this browser, a toast for messages, the header every page starts with.

import { lang, setLang, t, tx } from './words.js';

/** The element the pages draw into. */
export const app = document.getElementById('app');
/** Builds an element: h('div', {class: 'x', onclick: f, dataset: {test: 'y'}}, child, …). */
export function h(tag, attrs, ...children) {
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

export const SVGNS = 'http://www.w3.org/2000/svg';
export function svgEl(tag, attrs) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  return el;
}

export class ApiError extends Error {
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
export async function api(method, path, { body, token } = {}) {
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

export function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (_) { /* private mode: no memory */ }
}
export function load(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : JSON.parse(v);
  } catch (_) {
    return fallback;
  }
}

/** The tokens this browser holds for a game, by seat id ({axis: "…"}). */
export function knownTokens(gameId) {
  return load(`st-tokens-${gameId}`, {}) || {};
}
export function rememberTokens(gameId, bySeat) {
  store(`st-tokens-${gameId}`, Object.assign(knownTokens(gameId), bySeat));
}

export async function copyText(text) {
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
export function toast(msg, kind = 'info') {
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

export function langButton() {
  return h('button', {
    class: 'st-lang', id: 'st-lang', test: 'lang-toggle', title: t('langToggleTitle'),
    onclick: () => setLang(lang === 'zh' ? 'en' : 'zh'),
  }, t('langToggle'));
}

export function header(...middle) {
  return h('header', { class: 'st-header' },
    h('a', { class: 'st-brand', href: '/', title: t('lobby') },
      h('span', { class: 'st-logo', 'aria-hidden': 'true' }),
      h('span', { class: 'st-brand-name' }, lang === 'zh' ? '沙盘' : 'Sandtable'),
      h('span', { class: 'st-brand-alt' }, lang === 'zh' ? 'Sandtable' : '沙盘')),
    h('div', { class: 'st-header-mid' }, ...middle),
    langButton());
}

export function agentName(a) {
  const k = `agent_${a}`;
  const s = t(k);
  return s === k ? t('agent', a) : s;
}

/** The line of a game's summary that says where it stands (the first, unless it only names the scenario). */
export function summaryLine(s, scenarioName) {
  const lines = String(s || '').split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.length > 1 && scenarioName && scenarioName.startsWith(lines[0])) return lines[1];
  return lines[0] || '';
}

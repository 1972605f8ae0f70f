// The lobby (`/`): the games this server plays, a form to create one (a seat for each side,
// a person or the computer; or hotseat, both sides from this browser), the links to hand
// out, and the games on the server with a way back into those this browser holds seats of.

import { agentName, api, app, copyText, header, h, knownTokens, rememberTokens, summaryLine, toast } from './util.js';
import { lang, t, tx } from './words.js';

export class Lobby {
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
    if (hotseat) body.hotseat = true;
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
        h('strong', null, tx(s.side || s.name)), ' ',
        h('span', { class: 'st-muted' }, s.player === 'human' ? t('human') : agentName(s.player))));
      let status;
      if (g.damaged) {
        // A game the server cannot open: listed with why, in the page's language; nothing to resume.
        return h('tr', { dataset: { game: g.id }, test: 'game-row', class: 'st-row-damaged' },
          h('td', null, h('div', { class: 'st-strong' }, tx(g.title) || g.game || t('unknownGame')), h('div', { class: 'st-muted st-small st-mono' }, g.id)),
          h('td', null, seatsCell),
          h('td', null, h('span', { class: 'st-pill st-pill-damaged', test: 'damaged' }, t('damaged')),
            h('div', { class: 'st-small st-summary-cell st-damaged-why', test: 'damaged-why' }, tx(g.damaged))),
          h('td', null));
      }
      if (g.over) status = h('span', { class: 'st-pill st-pill-over' }, t('over'));
      else {
        const p = g.pending;
        let who = '';
        if (p && typeof p === 'object' && p.kind === 'seat' && g.seats && g.seats[p.seat]) who = tx(g.seats[p.seat].side || g.seats[p.seat].name);
        else if (typeof p === 'string' || typeof p === 'number') {
          const s = (g.seats || []).find((x, i) => x.id === p || i === p);
          who = s ? tx(s.side || s.name) : String(p);
        }
        status = h('span', { class: 'st-pill st-pill-live' }, who ? t('toMove', who) : t('ongoing'));
      }
      const diceFixed = g.dice && g.dice.fixed
        ? h('span', { class: 'st-pill st-pill-dice', test: 'dice-fixed', title: tx(g.dice.text) }, t('diceFixed'))
        : null;
      const links = [h('a', { class: 'st-btn st-btn-small st-btn-quiet', href: `/game/${encodeURIComponent(g.id)}#spectate`, test: 'spectate' }, t('spectate'))];
      const seatIds = Object.keys(mine).filter((k) => mine[k]);
      for (const sid of seatIds) {
        const s = (g.seats || []).find((x) => x.id === sid);
        links.push(h('a', {
          class: 'st-btn st-btn-small', href: `/game/${encodeURIComponent(g.id)}#t=${mine[sid]}`, test: `resume-${sid}`,
        }, t('resumeAs', s ? tx(s.side || s.name) : sid)));
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
        h('td', null, status, diceFixed ? ' ' : null, diceFixed, h('div', { class: 'st-small st-summary-cell' }, summaryLine(tx(g.summary), scen))),
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

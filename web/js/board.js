// The board: the map the server draws, inline SVG, that pans and zooms by one CSS transform
// on its wrapper. The map alone is put in once per game and language (`setMap`); what changes
// from one version to the next, the `<g class="pieces">` layer, is put in its place each time
// (`setPieces`), so the page never reparses the whole map for a move.

import { h, SVGNS, svgEl } from './util.js';

export class Board {
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
    this.replayLayer = null;
    this.pieces = null; // the <g class="pieces"> in the map
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

  /** Puts in the map alone (an SVG document as text, ending with an empty `<g class="pieces">`), keeping the view. */
  setMap(text) {
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
    this.centres.clear();
    for (const p of svg.querySelectorAll('.hx [data-hex], .hx [data-space], [data-hex]:not(g), [data-space]:not(g)')) {
      const id = p.getAttribute('data-hex') || p.getAttribute('data-space');
      if (!this.hexEls.has(id)) this.hexEls.set(id, p);
    }
    this.pieces = svg.querySelector('g.pieces');
    if (!this.pieces) {
      this.pieces = svgEl('g', { class: 'pieces' });
      svg.append(this.pieces);
    }
    this.indexCounters();
    this.litLayer = svgEl('g', { class: 'st-lit-layer' });
    // What happened since the player last acted (arrows, attacks, losses), above the lit hexes.
    this.replayLayer = svgEl('g', { class: 'st-replay-layer', 'data-test': 'replay-layer' });
    svg.append(this.litLayer, this.replayLayer);
    if (!this.placed) this.fit();
    else this.apply();
  }

  /** Puts in what changes on the map: the `<g class="pieces">` layer (as text) of one version. */
  setPieces(text) {
    if (!this.svg) return;
    const doc = new DOMParser().parseFromString(`<svg xmlns="${SVGNS}">${text || ''}</svg>`, 'image/svg+xml');
    const got = doc.querySelector('parsererror') ? null : doc.documentElement.querySelector('g.pieces');
    if (!got) throw new Error('bad pieces');
    const pieces = document.importNode(got, true);
    this.pieces.replaceWith(pieces);
    this.pieces = pieces;
    this.indexCounters();
  }

  indexCounters() {
    this.ctrEls.clear();
    for (const c of this.svg.querySelectorAll('.ctr[data-id]')) this.ctrEls.set(c.getAttribute('data-id'), c);
  }

  /** The hex (or space) id of a clicked or hovered element: its own, or its stack's. */
  hexOf(el) {
    const g = el && el.closest && el.closest('[data-hex],[data-space]');
    if (!g) return null;
    return g.getAttribute('data-hex') || g.getAttribute('data-space');
  }

  /** A space's name as the map prints it (`data-name`, a point-to-point map), or null for a hex. */
  spaceName(id) {
    const el = this.hexEls.get(id);
    return (el && el.getAttribute('data-name')) || null;
  }

  /** What the position says of a space in words (who holds it, its trench, its fort), or null. */
  spaceNote(id) {
    const el = this.pieces && [...this.pieces.querySelectorAll('[data-mark]')].find((m) => m.getAttribute('data-mark') === id);
    return (el && el.getAttribute('data-note')) || null;
  }

  /** Whether the map is of spaces joined by lines rather than of hexes. */
  get pointToPoint() {
    return !!(this.svg && this.svg.querySelector('[data-space]'));
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

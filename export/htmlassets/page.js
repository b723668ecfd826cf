// Horizon's interactive tree page: a zoomable icicle of the embedded data
// (export/html.go writes it), node details, the board, hotspots and a
// search by move path. Written for Horizon; no third-party code; fetches
// nothing.
(function () {
  'use strict';
  const D = JSON.parse(document.getElementById('horizon-data').textContent);
  const L = D.labels, C = D.colors;
  const ROW = 18;
  const KIND_RUN = 0, KIND_ROOT = 1;
  const OUT_LOW = 0, OUT_STAND = 2;
  // STAND_EDGE underlines the stand-pat stripe: orange on a QS box's
  // orange was hard to see.
  const STAND_EDGE = '#7A4A00';

  // el builds a DOM element: el('td', {class: 'x'}, 'text', child...).
  // Handlers are listeners and styles go through the CSSOM: the page's
  // policy (export/html.go, pageCSP) allows no inline handler or style
  // attribute.
  function el(tag, attrs) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === 'onclick') e.addEventListener('click', attrs[k]);
      else if (k === 'style') e.style.cssText = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (let i = 2; i < arguments.length; i++) {
      const c = arguments[i];
      if (c === null || c === undefined) continue;
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return e;
  }
  function count(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  // visitMark is trace.VisitMark (dxe6·2; dxe6·1 when searched again).
  function visitMark(move, visit, searches) { return visit > 1 || (visit === 1 && searches > 1) ? move + L.visit_sep + visit : move; }
  // share formats part of whole as engine.SharePercent does (a test holds
  // them to the same text): two significant figures under 10%, one decimal
  // from there, never 0 for a part nor 100% short of the whole.
  function share(part, whole) {
    const s = part / Math.max(whole, 1), p = 100 * s;
    if (p <= 0) return '0%';
    if (p < 10) return p.toFixed(Math.max(1, 1 - Math.floor(Math.log10(p)))) + '%';
    if (s < 1 && p >= 99.95) return '99.9%';
    return p.toFixed(1) + '%';
  }


  // Side: one tree's columns, with what the drawing needs derived once.
  function Side(s, index) {
    const N = s.nodes, n = N.id.length;
    this.s = s; this.N = N; this.n = n; this.index = index;
    // nodes(i) is node i's node count: the top (index 0) says its own, as
    // the run node's row is no node.
    this.nodes = i => i === 0 ? s.top_nodes : N.size[i];
    this.depth = new Int32Array(n);
    this.end = new Int32Array(n);      // first index after the node's drawn descendants
    this.below = new Int32Array(n);    // rows below the node (drawn nodes and merged runs)
    this.kids = new Array(n);
    for (let i = 0; i < n; i++) {
      const p = N.parent[i];
      this.depth[i] = p < 0 ? 0 : this.depth[p] + 1;
      this.kids[i] = [];
      if (p >= 0) this.kids[p].push(i);
    }
    this.merged = new Array(n);
    const M = s.merged;
    for (let m = 0; m < M.parent.length; m++) {
      const p = M.parent[m];
      (this.merged[p] = this.merged[p] || []).push(m);
      this.below[p] = Math.max(this.below[p], 1);
    }
    for (let i = n - 1; i >= 0; i--) {
      this.end[i] = Math.max(this.end[i], i + 1);
      const p = N.parent[i];
      if (p >= 0) {
        this.end[p] = Math.max(this.end[p], this.end[i]);
        this.below[p] = Math.max(this.below[p], this.below[i] + 1);
      }
    }
    this.byID = new Map();
    for (let i = 0; i < n; i++) this.byID.set(N.id[i], i);
    // mix: node index -> its subtree's cause counts, [reason, nodes, ...].
    this.mix = new Map();
    (s.cause_mix_node || []).forEach((i, k) => this.mix.set(i, s.cause_mix[k]));
  }
  Side.prototype.name = function (i) {
    const N = this.N;
    if (N.kind[i] === KIND_RUN) return 'run ' + this.s.run.id;
    if (N.kind[i] === KIND_ROOT) return L.iteration + N.iteration[i];
    // A re-search is marked as paths mark it (dxe6·1, dxe6·2): two
    // searches of one move drew as two identical boxes.
    return visitMark(N.san[i] || N.uci[i], N.visit[i], N.searches[i]);
  };
  // path is the SAN path from the run's position to node i, marked as
  // diff marks it (visitMark).
  Side.prototype.path = function (i) {
    const moves = [];
    for (let j = i; j > 0; j = this.N.parent[j]) if (this.N.san[j]) moves.push(visitMark(this.N.san[j], this.N.visit[j], this.N.searches[j]));
    moves.reverse();
    return this.s.top_path.map((m, k) => visitMark(m, this.s.top_visits[k], this.s.top_searches[k])).concat(moves);
  };
  // place is node i's place as Horizon prints one (trace.PlaceText), so
  // that the page's search and --path read it back to the node: its
  // iteration (unless the run searched QS alone: name_iteration), then its
  // path, or (root) for an iteration's root. The run node has none.
  Side.prototype.place = function (i) {
    if (this.N.kind[i] === KIND_RUN) return '(root position)';
    const p = this.path(i).join(' ') || L.root_path;
    if (!this.s.name_iteration) return p;
    const r = this.rootOf(i);
    return visitMark(L.iteration + r.iteration, r.visit, r.searches) + ': ' + p;
  };
  // rootOf is the iteration root above node i as trace.PlaceRoot gives
  // it (several roots of one iteration are an aspiration re-search's): a
  // child of the run node when the page draws the whole run, else the
  // top's (top_root).
  Side.prototype.rootOf = function (i) {
    const N = this.N;
    let j = i;
    while (j > 0 && N.parent[j] > 0) j = N.parent[j];
    const t = this.s.top_root;
    if (N.kind[0] !== KIND_RUN || j === 0) return {iteration: t.iteration, visit: t.iteration_visit, searches: t.iteration_searches};
    return {iteration: N.iteration[j], visit: N.visit[j], searches: N.searches[j]};
  };
  Side.prototype.ancestors = function (i) {
    const a = [];
    for (let j = i; j >= 0; j = this.N.parent[j]) a.push(j);
    return a.reverse();
  };
  Side.prototype.causeShort = function (i) {
    const N = this.N, c = N.cause[i];
    if (c === 0) return '';
    let t = L.causes[c];
    if (t === 'beta' && N.cut_index[i] >= 0) {
      t += '@' + (N.cut_index[i] + 1) + ((N.cut_at_least || []).includes(i) ? '+' : '');
    }
    return t;
  };
  Side.prototype.where = function (i) {
    const N = this.N;
    if (N.kind[i] === KIND_RUN) return 'run';
    if (N.kind[i] === KIND_ROOT) return L.iteration + N.iteration[i] + ', depth ' + N.depth[i];
    if (N.qs_ply[i] >= 0) {
      let t = 'QS ply ' + N.qs_ply[i];
      if (N.qs_level[i] >= 0) t += ', level ' + N.qs_level[i];
      return t + ' (depth ' + N.depth[i] + ')';
    }
    return 'depth ' + N.depth[i];
  };
  Side.prototype.fill = function (i) {
    const N = this.N;
    if (N.kind[i] === KIND_RUN || N.kind[i] === KIND_ROOT) return C.root;
    if (N.qs_ply[i] >= 0) return N.qs_ply[i] % 2 === 0 ? C.qs : C.qs2;
    return this.depth[i] % 2 === 0 ? C.fw : C.fw2;
  };

  const sides = D.sides.map((s, i) => new Side(s, i));
  const isDiff = D.kind === 'diff';
  let hatch = null; // canvas pattern for nodes only one side has

  // ---- page skeleton ----
  const topSide = sides[0];
  const header = el('header', {}, el('h1', {}, D.title));
  sides.forEach(sd => {
    const r = sd.s.run;
    let t = (isDiff ? sd.s.label + ' of ' + sd.s.file : 'run ' + r.id + ' (' + sd.s.file + ')') + ': ' + r.variant + ', depth ' + r.depth + ' (' + r.status + '), ' + count(r.nodes) + ' nodes, ' +
      r.qs_share_text + ' QS; best ' + (r.best_san ? r.best_san + ' (' + r.best_move + ')' : r.best_move || '-') + ' ' + r.score_text + '; drawn ' + count(sd.n - (sd.N.kind[0] === KIND_RUN ? 1 : 0)) +
      ' nodes and ' + count(sd.s.merged.parent.length) + ' merged runs of nodes narrower than 1/' + D.width + ' of the top';
    if (r.filter) t += '; recording filter: ' + r.filter;
    header.appendChild(el('div', {class: 'sub'}, t));
  });
  header.appendChild(el('div', {class: 'sub'}, topSide.s.run.position_line));
  const legend = el('div', {class: 'legend'});
  const sw = (bg, text, extra) => legend.appendChild(el('span', {}, el('i', {style: 'background:' + bg + (extra || '')}), text));
  sw(C.root, 'root'); sw(C.fw, 'full-width'); sw(C.fw2, 'full-width (next ply)'); sw(C.qs, 'QS (even QS ply)'); sw(C.qs2, 'QS (odd QS ply)');
  sw('#fff', 'principal variation', ';border:2px solid ' + C.pv);
  // Merged runs are drawn in the full-width or QS tint of most of their
  // nodes, faded and dotted (mergedFill): the swatches are drawn so.
  sw(C.fw2, 'merged full-width', ';opacity:0.7;border-style:dotted');
  sw(C.qs2, 'merged QS (nodes narrower than a pixel at the top)', ';opacity:0.7;border-style:dotted');
  sw(C.outcomes[1], 'fail high / beta cutoff (stripe)'); sw(C.outcomes[2], 'stand-pat cutoff', ';border-bottom:2px solid ' + STAND_EDGE); sw(C.outcomes[3], 'exact score');
  if (isDiff) sw(C.only, 'only in this run (hatched)');
  header.appendChild(legend);
  document.body.appendChild(header);
  if (isDiff) document.body.classList.add('diff');

  const crumbs = el('div', {id: 'crumbs'});
  // The placeholder's example is a line this page holds: the biggest drawn
  // child's move, twice down (a fixed "Qg6 hxg6" was illegal on most pages).
  const example = [];
  for (let i = 0, sd = topSide; example.length < 2;) {
    const k = sd.kids[i].filter(k => sd.N.san[k]).sort((a, b) => sd.N.size[b] - sd.N.size[a])[0];
    if (k === undefined) break;
    example.push(sd.N.san[k]);
    i = k;
  }
  const input = el('input', {type: 'text', id: 'search-input',
    placeholder: 'moves from the top' + (example.length ? ', e.g. ' + example.join(' ') : '') + ' (SAN or UCI)'});
  const msg = el('span', {id: 'search-msg'});
  const form = el('form', {id: 'search'}, input, el('button', {type: 'submit'}, 'find'));
  // The message has a line of its own: beside the box it shifted it.
  document.body.appendChild(el('div', {id: 'bar'}, crumbs, form, msg));
  const charts = el('div', {id: 'charts'});
  const details = el('div', {id: 'details'});
  const boardBox = el('div', {id: 'board-box'});
  const lists = el('div', {id: 'lists'});
  const nodeBox = el('section', {id: 'node-box'}, el('h3', {}, 'Node'), details);
  const aside = el('aside', {}, nodeBox, el('section', {id: 'board-section'}, el('h3', {}, 'Board'), boardBox), lists);
  document.body.appendChild(el('main', {}, charts, aside));

  // ---- charts ----
  function Chart(side) {
    this.side = side;
    this.zoom = 0;
    this.sel = 0;
    this.canvas = el('canvas', {id: 'chart-' + side.index});
    this.scroll = el('div', {class: 'scroll'}, this.canvas);
    this.box = el('section', {class: 'chart'}, isDiff ? el('h2', {}, side.s.label) : null, this.scroll);
    this.rows = []; // per row: [{x0, x1, i, m}] left to right (m: merged index or -1)
    charts.appendChild(this.box);
    const self = this;
    this.canvas.addEventListener('mousemove', ev => { const h = self.hit(ev); hover(self, h); showTip(self, h, ev); });
    this.canvas.addEventListener('mouseleave', () => { hover(self, null); showTip(self, null); });
    this.canvas.addEventListener('click', ev => { const h = self.hit(ev); if (h) clickItem(self, h); });
  }
  Chart.prototype.hit = function (ev) {
    const r = this.canvas.getBoundingClientRect();
    const x = ev.clientX - r.left, y = ev.clientY - r.top;
    const row = this.rows[Math.floor(y / ROW)];
    if (!row) return null;
    let lo = 0, hi = row.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1, it = row[mid];
      if (x < it.x0) hi = mid - 1;
      else if (x >= it.x1) lo = mid + 1;
      else return it;
    }
    return null;
  };
  // rectOf gives the drawn rectangle of node i in viewport coordinates (for tests).
  Chart.prototype.rectOf = function (i) {
    const cr = this.canvas.getBoundingClientRect();
    for (let r = 0; r < this.rows.length; r++) {
      for (const it of this.rows[r]) {
        if (it.i === i && it.m < 0) return {x: cr.left + it.x0, y: cr.top + r * ROW, w: it.x1 - it.x0, h: ROW - 1};
      }
    }
    return null;
  };
  Chart.prototype.draw = function () {
    const sd = this.side, N = sd.N, z = this.zoom;
    const W = Math.max(200, this.scroll.clientWidth - 2);
    const anc = sd.ancestors(z);
    const nrows = anc.length + sd.below[z];
    const H = nrows * ROW + 2;
    const dpr = window.devicePixelRatio || 1;
    const cv = this.canvas;
    cv.style.width = W + 'px'; cv.style.height = H + 'px';
    cv.width = Math.round(W * dpr); cv.height = Math.round(H * dpr);
    const g = cv.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, W, H);
    g.font = '11px Helvetica, Arial, sans-serif';
    g.textBaseline = 'middle';
    if (!hatch) hatch = makeHatch(g);
    const rows = this.rows = [];
    for (let r = 0; r < nrows; r++) rows.push([]);
    const self = this;
    // Ancestors of the zoomed node: full-width rows to zoom back out.
    for (let a = 0; a < anc.length - 1; a++) this.box1(g, rows, anc[a], a, 0, W, true);
    const base = anc.length - 1 - sd.depth[z];
    const id0 = N.id[z], size = Math.max(N.size[z], 1);
    const M = sd.s.merged;
    for (let i = z; i < sd.end[z]; i++) {
      const x0 = (N.id[i] - id0) / size * W, w = N.size[i] / size * W;
      self.box1(g, rows, i, base + sd.depth[i], x0, w, false);
      const ms = sd.merged[i];
      if (!ms) continue;
      const r = base + sd.depth[i] + 1;
      for (const m of ms) {
        const mx = (M.from[m] - id0) / size * W, mw = Math.max((M.end[m] - M.from[m]) / size * W, 0.5);
        g.globalAlpha = 0.7;
        g.fillStyle = M.qs[m] * 2 >= M.count[m] ? C.qs2 : C.fw2;
        g.fillRect(mx, r * ROW, mw, ROW - 1);
        g.globalAlpha = 1;
        if (M.only && M.only[m] > 0) { g.fillStyle = hatch; g.fillRect(mx, r * ROW, mw, ROW - 1); }
        // The label that fits: '+N merged', '+N', or none (it clipped).
        const long = '+' + count(M.count[m]) + ' merged', short = '+' + count(M.count[m]);
        const lt = g.measureText(long).width + 6 <= mw ? long : g.measureText(short).width + 6 <= mw ? short : '';
        if (lt) {
          g.fillStyle = '#333';
          this.text(g, lt, mx, r * ROW, mw);
        }
        if (mw >= 3) {
          g.strokeStyle = '#555'; g.lineWidth = 1; g.setLineDash([1, 2]);
          g.strokeRect(mx + 0.5, r * ROW + 0.5, mw - 1, ROW - 2);
          g.setLineDash([]);
        }
        rows[r].push({x0: mx, x1: mx + Math.max(mw, 1), i: i, m: m});
      }
    }
    for (const row of rows) row.sort((a, b) => a.x0 - b.x0);
  };
  Chart.prototype.text = function (g, t, x, y, w, pad) {
    if (w < 14) return;
    g.save();
    g.beginPath(); g.rect(x, y, w, ROW); g.clip();
    g.fillText(t, x + (pad || 3), y + ROW / 2 - 1);
    g.restore();
  };
  // box1 draws node i in row r.
  Chart.prototype.box1 = function (g, rows, i, r, x, w, ancestor) {
    const sd = this.side, N = sd.N, y = r * ROW;
    g.fillStyle = sd.fill(i);
    g.globalAlpha = ancestor ? 0.55 : 1;
    g.fillRect(x, y, Math.max(w, 0.5), ROW - 1);
    g.globalAlpha = 1;
    if (N.match && N.match[i] < 0) { g.fillStyle = hatch; g.fillRect(x, y, Math.max(w, 0.5), ROW - 1); }
    const out = N.outcome[i];
    if (out !== OUT_LOW && w >= 2) {
      // A white gap sets the stripe off the box's fill.
      g.fillStyle = '#fff'; g.fillRect(x, y + ROW - 6, w, 1);
      g.fillStyle = C.outcomes[out]; g.fillRect(x, y + ROW - 5, w, 4);
      if (out === OUT_STAND) { g.fillStyle = STAND_EDGE; g.fillRect(x, y + ROW - 2, w, 1); }
    }
    if (w >= 3) {
      if (N.pv[i]) { g.strokeStyle = C.pv; g.lineWidth = 1.5; g.strokeRect(x + 0.75, y + 0.75, w - 1.5, ROW - 2.5); }
      else { g.strokeStyle = '#fff'; g.lineWidth = 0.5; g.strokeRect(x + 0.25, y + 0.25, w - 0.5, ROW - 1.5); }
    }
    if (i === this.sel && !ancestor) {
      g.strokeStyle = '#000'; g.lineWidth = 2.5; g.setLineDash([4, 2]);
      g.strokeRect(x + 1.25, y + 1.25, Math.max(w - 2.5, 1), ROW - 3.5);
      g.setLineDash([]);
    }
    if (w >= 20) {
      // The selected box's label starts clear of its dashed border.
      const pad = i === this.sel && !ancestor ? 6 : 3;
      let t = sd.name(i);
      const full = t + ' ' + count(sd.nodes(i)) + (sd.causeShort(i) ? ' ' + sd.causeShort(i) : '');
      if (g.measureText(full).width + pad + 3 <= w) t = full;
      g.fillStyle = '#000';
      this.text(g, t, x, y, w, pad);
    }
    rows[r].push({x0: x, x1: x + Math.max(w, 1), i: i, m: -1, anc: ancestor});
  };

  function makeHatch(g) {
    const c = document.createElement('canvas');
    c.width = 6; c.height = 6;
    const h = c.getContext('2d');
    h.strokeStyle = C.only; h.lineWidth = 1.6;
    h.beginPath(); h.moveTo(0, 6); h.lineTo(6, 0); h.stroke();
    return g.createPattern(c, 'repeat');
  }

  const chartList = sides.map(sd => new Chart(sd));

  // counterpart: in a diff, the node of the other side aligned with node i
  // of side si, or its nearest aligned ancestor.
  function counterpart(si, i) {
    const sd = sides[si];
    for (let j = i; j >= 0; j = sd.N.parent[j]) if (sd.N.match[j] >= 0) return sd.N.match[j];
    return 0;
  }

  // focus is the side whose node the details show: the side last zoomed.
  let focus = 0;
  function zoomTo(si, i, select) {
    const c = chartList[si];
    c.zoom = i; c.sel = select === undefined ? i : select;
    if (isDiff) {
      const o = chartList[1 - si];
      o.zoom = counterpart(si, c.zoom); o.sel = counterpart(si, c.sel);
    }
    focus = si;
    redraw();
    showDetails(si, c.sel, -1);
    remember();
  }
  // remember puts what the page shows in the address, so that a link
  // reopens it (linked reads it back): a tree page's zoomed node
  // (#node=ID); on a diff page each side's zoomed node and the side the
  // details show (#a=ID&b=ID&side=b), as a node only B has is no node
  // of A's.
  function remember() {
    const id = si => chartList[si].side.N.id[chartList[si].zoom];
    history.replaceState(null, '', isDiff ? '#a=' + id(0) + '&b=' + id(1) + '&side=' + 'ab'[focus] : '#node=' + id(0));
  }
  function clickItem(chart, h) {
    const si = chart.side.index;
    zoomTo(si, h.i);
    if (h.m >= 0) showDetails(si, h.i, h.m);
    detailsInView();
  }
  // detailsInView scrolls the details' top into view after a click: on a
  // phone they are below the charts, and after a list click the panel
  // was left scrolled down to the list.
  function detailsInView() {
    const r = details.getBoundingClientRect(), a = aside.getBoundingClientRect();
    if (r.top < Math.max(0, a.top) || r.top > Math.min(window.innerHeight, a.bottom) - 40) nodeBox.scrollIntoView({block: 'start'});
  }
  function hover(chart, h) {
    if (!h) { showDetails(chart.side.index, chart.sel, -1); return; }
    showDetails(chart.side.index, h.i, h.m);
  }
  // showTip puts a one-line summary of the hovered rectangle by the mouse.
  const tip = el('div', {id: 'tip'});
  document.body.appendChild(tip);
  function showTip(chart, h, ev) {
    if (!h) { tip.style.display = 'none'; return; }
    const sd = chart.side, N = sd.N;
    let t;
    if (h.m >= 0) {
      const M = sd.s.merged;
      t = '+' + count(M.count[h.m]) + ' merged nodes, ' + count(M.size[h.m]) + ' with their subtrees';
    } else {
      const i = h.i;
      t = sd.name(i) + '  ' + count(sd.nodes(i)) + ' nodes (' + share(sd.nodes(i), sd.nodes(0)) + ')  ' +
        N.score[i] + ' ' + L.bounds[N.bound[i]] + (sd.causeShort(i) ? '  ' + sd.causeShort(i) : '');
    }
    tip.textContent = t;
    tip.style.display = 'block';
    const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 4);
    tip.style.left = Math.max(0, x) + 'px';
    tip.style.top = (ev.clientY + 16) + 'px';
  }
  function redraw() {
    chartList.forEach(c => c.draw());
    drawCrumbs();
  }

  function drawCrumbs() {
    const c = chartList[0], sd = c.side;
    crumbs.textContent = '';
    const anc = sd.ancestors(c.zoom);
    anc.forEach((a, k) => {
      if (k > 0) crumbs.appendChild(el('span', {class: 'sep'}, ' › '));
      const N = sd.N, label = a === 0 && sd.s.top_path.length ? sd.path(0).join(' ') + ' (top)' : N.san[a] ? visitMark(N.san[a], N.visit[a], N.searches[a]) : sd.name(a);
      crumbs.appendChild(el('button', {type: 'button', 'data-index': String(a), onclick: () => zoomTo(0, a)}, label));
    });
  }

  // ---- details and board ----
  function fieldRows(sd, i) {
    const N = sd.N;
    const rows = [];
    const add = (k, v, title) => rows.push([k, v, title]);
    add('path', sd.place(i));
    add('node', 'id ' + N.id[i] + ', ply ' + N.ply[i] + (N.kind[i] === KIND_RUN ? '' : ', iteration ' + N.iteration[i]));
    add('kind', L.kinds[N.kind[i]] + (N.in_check[i] ? ', in check' : '') + (N.extension[i] ? ', extended +' + N.extension[i] : ''), L.kind_meanings[N.kind[i]]);
    add('depth', sd.where(i));
    if (N.kind[i] !== KIND_RUN) add('window', '[' + N.alpha[i] + ', ' + N.beta[i] + ']');
    // A static eval the node did not stand on (none's horizon nodes, stand-pat false) is named so (trace.EvalWords).
    add((N.eval_only || []).includes(i) ? 'static eval' : 'stand pat', N.stand_pat[i] || '-');
    // A node still open when its rows were written never stopped: no score, and its run's word for it (trace.Status.OpenNode).
    const open = (N.open || []).includes(i);
    if (open) {
      add('score', 'not known: the search had not left this node when its rows were written');
      add('cause', sd.s.run.open_word);
    } else {
      add('score', N.score[i] + ' ' + L.bounds[N.bound[i]], L.bound_meanings[N.bound[i]]);
      // A cut index is worded by the engine (engine.CutText), as the viewer and diff say it.
      const cause = N.cut_text[i] || (N.cause[i] === 0 ? '-' : (L.cause_texts[N.cause[i]] || L.causes[N.cause[i]]));
      add('cause', cause, L.cause_meanings[N.cause[i]]);
    }
    // Why the node is here: its move's reason and its subtree's causes,
    // as horizon explain counts them (PageNodes.Reason, PageSide.CauseMix).
    const r = N.reason ? N.reason[i] : -1;
    if (r >= 0) {
      const remedy = L.reason_remedies[r];
      add('its move', L.reasons[r] + (remedy ? '; removed by ' + remedy : ''), L.reason_meanings[r]);
    } else if (i === 0 && N.kind[i] !== KIND_RUN && N.reason) {
      add('its move', 'not judged: the page\'s top (explain judges the moves below a top)');
    }
    if (sd.nodes(i) > 1) {
      const mx = sd.mix.get(i);
      if (mx) {
        const parts = [];
        for (let k = 0; k < mx.length && parts.length < 3; k += 2) parts.push(share(mx[k + 1], sd.nodes(i)) + ' ' + L.reasons[mx[k]]);
        add('causes', parts.join(', ') + (mx.length > 6 ? ', …' : ''), 'nodes of the subtree by the first cause met below this node, as horizon explain counts them');
      } else {
        add('causes', (sd.s.cause_note ? sd.s.cause_note + ': ' : '') + explainCommand(sd, N.id[i]));
      }
    }
    // Worded by trace.Run.MovesText, as the viewer says it.
    add('moves', N.moves_text[i]);
    const top = sd.nodes(0), p = N.parent[i];
    let sub = count(sd.nodes(i)) + ' nodes, ' + share(sd.nodes(i), top) + ' of the top';
    if (p >= 0) sub += ', ' + share(sd.nodes(i), sd.nodes(p)) + ' of its parent';
    add('subtree', sub);
    const flags = [];
    if (N.pv[i]) flags.push('principal variation');
    if (N.incomplete[i]) flags.push(open ? 'incomplete (still open)' : 'incomplete (search stopped)');
    if (N.match && N.match[i] < 0) flags.push('only in this run');
    if (flags.length) add('notes', flags.join(', '));
    return rows;
  }
  // exportCommand is the command that makes node id's own page: the run is
  // named, as export's default run is the file's last, not this page's.
  function exportCommand(sd, id) {
    return 'horizon export ' + shellQuote(sd.s.file) + ' --run ' + sd.s.run.id + ' --node ' + id + ' -o node-' + id + '.html';
  }
  // explainCommand is the command that explains node id's subtree.
  function explainCommand(sd, id) {
    return 'horizon explain ' + shellQuote(sd.s.file) + ' --run ' + sd.s.run.id + ' --node ' + id;
  }
  // shellQuote is the CLI's shellQuote (cmd/horizon/print.go), rule for
  // rule: a word as it is when plain, else in single quotes, and as $'...'
  // when it holds a control character (C0, DEL, C1: UTF-8 bytes C2 80-9F).
  function shellQuote(s) {
    if (/^[A-Za-z0-9._\/:=+,-]+$/.test(s)) return s;
    if (!/[\x00-\x1f\x7f-\x9f]/.test(s)) return "'" + s.replace(/'/g, "'\\''") + "'";
    const hex = (n) => '\\x' + n.toString(16).padStart(2, '0');
    return "$'" + s.replace(/[\\'\x00-\x1f\x7f-\x9f]/g, (c) => {
      const n = c.charCodeAt(0);
      if (c === '\\' || c === "'") return '\\' + c;
      return n < 0x80 ? hex(n) : hex(0xc2) + hex(n);
    }) + "'";
  }
  function mergedRows(sd, m) {
    const M = sd.s.merged;
    const rows = [['merged', count(M.count[m]) + ' nodes, each narrower than a pixel at the top; ' + count(M.size[m]) + ' with their subtrees (not read)'],
      ['QS', count(M.qs[m]) + ' of the merged nodes'],
      ['ids', M.from[m] + ' to ' + (M.end[m] - 1)],
      ['under', sd.place(M.parent[m])]];
    if (M.only) rows.push(['only here', count(M.only[m]) + ' of them']);
    rows.push(['see more', 'export this subtree on its own: ' + exportCommand(sd, sd.N.id[M.parent[m]])]);
    return rows;
  }

  function showDetails(si, i, m) {
    details.textContent = '';
    const t = el('table', {});
    const cols = []; // per side: index or -1, rows
    if (isDiff && m < 0) {
      const o = 1 - si;
      const j = sides[si].N.match[i];
      cols[si] = fieldRows(sides[si], i);
      cols[o] = j >= 0 ? fieldRows(sides[o], j) : null;
      t.appendChild(el('thead', {}, el('tr', {}, el('th', {}, ''), el('th', {}, 'A'), el('th', {}, 'B'))));
      const base = cols[si];
      const tb = el('tbody', {});
      // A side that lacks the node says so once, in a row of its own,
      // not on every row.
      if (!cols[o]) {
        tb.appendChild(el('tr', {}, el('th', {}, ''), el('td', {colspan: '2', class: 'only'},
          'not in ' + 'AB'[o] + ': only ' + 'AB'[si] + ' searched this node')));
      }
      base.forEach((r, k) => {
        const cell = c => cols[c] ? el('td', {}, (cols[c][k] || ['', ''])[1]) : el('td', {class: 'absent'}, '');
        tb.appendChild(el('tr', {}, el('th', r[2] ? {title: r[2]} : {}, r[0]), cell(0), cell(1)));
      });
      t.appendChild(tb);
    } else {
      const rows = m >= 0 ? mergedRows(sides[si], m) : fieldRows(sides[si], i);
      rows.forEach(r => t.appendChild(el('tr', {}, el('th', r[2] ? {title: r[2]} : {}, r[0]), el('td', {}, r[1]))));
    }
    details.appendChild(t);
    details.setAttribute('data-side', String(si));
    details.setAttribute('data-node', m >= 0 ? '' : String(sides[si].N.id[i]));
    drawBoard(sides[si].N.fen[i], m >= 0 ? '' : sides[si].N.uci[i], m >= 0 ? '' : sides[si].N.san[i]);
  }

  const GLYPH = {k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F'};
  // drawBoard draws the position of a FEN, white at the bottom, with the
  // last move's squares marked.
  function drawBoard(fen, uci, san) {
    boardBox.textContent = '';
    const f = fen.split(' ');
    const ranks = (f[0] || '').split('/');
    const grid = el('div', {class: 'board', id: 'board', 'data-fen': fen});
    const marked = new Set();
    if (uci && uci.length >= 4) { marked.add(uci.slice(0, 2)); marked.add(uci.slice(2, 4)); }
    for (let r = 0; r < 8; r++) {
      grid.appendChild(el('div', {class: 'coord'}, String(8 - r)));
      const row = [];
      for (const ch of ranks[r] || '') {
        if (ch >= '1' && ch <= '8') for (let k = 0; k < +ch; k++) row.push('');
        else row.push(ch);
      }
      for (let c = 0; c < 8; c++) {
        const sq = 'abcdefgh'[c] + (8 - r);
        const p = row[c] || '';
        let cls = ((r + c) % 2 === 0 ? 'l' : 'd') + (marked.has(sq) ? ' mv' : '');
        if (p) cls += p === p.toUpperCase() ? ' w' : ' b';
        grid.appendChild(el('div', {class: cls, 'data-square': sq, 'data-piece': p}, p ? GLYPH[p.toLowerCase()] || '?' : ''));
      }
    }
    grid.appendChild(el('div', {}));
    for (let c = 0; c < 8; c++) grid.appendChild(el('div', {class: 'coord'}, 'abcdefgh'[c]));
    boardBox.appendChild(grid);
    // Beside the board, not below it: below, it pushed the hotspot lists
    // under the fold of a 1366x768 screen.
    const side = f[1] === 'b' ? 'Black' : 'White';
    boardBox.appendChild(el('div', {class: 'board-info'},
      el('div', {class: 'muted'}, side + ' to move' + (uci ? '; last move ' + (san || uci) + ' (' + uci + ')' : '')),
      el('div', {class: 'fen', id: 'fen'}, fen)));
  }

  // ---- lists: hotspots, divergences ----
  function listItem(text, sub, onclick, attrs) {
    // An entry that only says something (onclick returns 'msg') brings
    // the message into view; the others the details they changed.
    const go = () => { if (onclick() === 'msg') msg.scrollIntoView({block: 'nearest'}); else detailsInView(); };
    return el('li', {}, el('button', Object.assign({type: 'button', onclick: go}, attrs || {}), text, ' ', el('span', {class: 'n'}, sub)));
  }
  function hotspotList(sd) {
    const hs = sd.s.hotspots;
    // Shares are of the run, as 'horizon hotspots' gives them; a run that
    // does not know its node count gets them of the page's top node, so said.
    const run = sd.s.run.nodes, top = run > 0 ? run : sd.nodes(0), of = run > 0 ? ' of the run' : ' of the top node';
    // The last three moves of a path, after an ellipsis when there are more.
    const tail = i => { const p = sd.path(i); return (p.length > 3 ? '… ' : '') + p.slice(-3).join(' '); };
    const qs = hs.filter(h => h.what === 'qs'), ext = hs.filter(h => h.what === 'ext');
    const pre = isDiff ? sd.s.label + ': ' : '';
    lists.appendChild(el('h3', {}, pre + 'Biggest QS trees'));
    const ul = el('ul', {class: 'list', id: 'hotspots-qs-' + sd.index});
    qs.forEach(h => ul.appendChild(listItem(tail(h.node) || sd.name(h.node),
      count(h.size) + ' nodes (' + share(h.size, top) + of + ')', () => zoomTo(sd.index, h.node), {'data-node': String(sd.N.id[h.node])})));
    if (!qs.length) ul.appendChild(el('li', {class: 'muted'}, 'no QS tree wide enough to draw'));
    lists.appendChild(ul);
    lists.appendChild(el('h3', {}, pre + 'Biggest extension chains'));
    const ul2 = el('ul', {class: 'list', id: 'hotspots-ext-' + sd.index});
    ext.forEach(h => ul2.appendChild(listItem(tail(h.node),
      h.cause + ': ' + h.chain + ' extended move' + (h.chain > 1 ? 's' : '') + ' in a row, ' + count(h.size) + ' nodes (' + share(h.size, top) + of + ')', () => zoomTo(sd.index, h.node),
      {'data-node': String(sd.N.id[h.node])})));
    if (!ext.length) ul2.appendChild(el('li', {class: 'muted'}, 'no extended move among the drawn nodes'));
    lists.appendChild(ul2);
    // The run's biggest QS trees outside the page's top: this page cannot
    // draw them, so an entry gives the command that does.
    const far = sd.s.elsewhere || [];
    if (!far.length) return;
    lists.appendChild(el('h3', {}, pre + "The run's biggest QS trees not on this page"));
    const ul3 = el('ul', {class: 'list', id: 'elsewhere-' + sd.index});
    far.forEach(h => ul3.appendChild(listItem(h.place, count(h.size) + ' nodes (' + share(h.size, top) + of + '), not on this page: ' + exportCommand(sd, h.id),
      () => { msg.textContent = h.place + ' is not on this page; its page: ' + exportCommand(sd, h.id); return 'msg'; }, {'data-node': String(h.id)})));
    lists.appendChild(ul3);
  }
  if (isDiff) {
    const df = D.diff;
    lists.appendChild(el('h3', {}, 'Divergences'));
    lists.appendChild(el('div', {class: 'muted'}, count(df.matched) + ' nodes matched, ' + count(df.only_a) + ' only in A, ' +
      count(df.only_b) + ' only in B, ' + count(df.changed) + ' matched with a different score, bound or cutoff'));
    const ul = el('ul', {class: 'list', id: 'divergences'});
    df.items.forEach(it => {
      const path = it.place;
      const sub = it.what === 'first' ? 'first difference: ' + it.reason + (it.why ? '; why: ' + it.why : '')
        : 'A ' + count(it.nodes_a) + ', B ' + count(it.nodes_b) + ' nodes (' + (it.nodes_b - it.nodes_a >= 0 ? '+' : '') + count(it.nodes_b - it.nodes_a) + ')';
      const go = () => {
        if (it.a >= 0) { zoomTo(0, it.a); if (it.b >= 0) { chartList[1].zoom = it.b; chartList[1].sel = it.b; redraw(); remember(); } }
        else if (it.b >= 0) zoomTo(1, it.b);
        else { msg.textContent = path + ': merged (narrower than a pixel at the top): not drawn'; return 'msg'; }
      };
      ul.appendChild(listItem(path, sub, go));
    });
    if (!df.items.length) ul.appendChild(el('li', {class: 'muted'}, 'the trees are the same'));
    lists.appendChild(ul);
  }
  sides.forEach(hotspotList);

  // ---- search by move path ----
  // splitPath reads a path as trace.SplitPath does: moves separated by
  // spaces or commas, move numbers (1. 12...) dropped.
  function splitPath(text) {
    // A nested search's mark ("[singular -e2e4]", trace.NestedText) is one
    // step, spaces and all, as trace.SplitPath reads it.
    return (text.match(/\[[^\]]*\][^\s,]*|[^\s,]+/g) || []).map(f => f.replace(/^(\d+\.+)+/, '')).filter(Boolean);
  }
  // cutVisit is trace.cutVisit: text cut at its visit mark, L.visit_sep or,
  // where that cannot be typed, the last of L.visit_seps_ascii followed by
  // digits alone (dxe6.2, dxe6#2).
  function cutVisit(text) {
    const i = text.indexOf(L.visit_sep);
    if (i >= 0) return {before: text.slice(0, i), mark: text.slice(i + L.visit_sep.length), ok: true};
    let j = -1;
    for (const c of L.visit_seps_ascii) j = Math.max(j, text.lastIndexOf(c));
    if (j <= 0 || !/^[0-9]+$/.test(text.slice(j + 1))) return {before: text, mark: '', ok: false};
    return {before: text.slice(0, j), mark: text.slice(j + 1), ok: true};
  }
  // splitVisit is trace.SplitVisit: a path's move and its visit (0 when
  // unmarked), or an error for a mark that is no visit number.
  function splitVisit(mv) {
    const c = cutVisit(mv), visit = c.ok ? Number(c.mark) : 0;
    if (c.ok && !(/^[0-9]+$/.test(c.mark) && visit >= 1)) {
      return {move: c.before, visit: 0, err: JSON.stringify(c.mark) + ' after ' + L.visit_sep + ' is no visit number (' + JSON.stringify(c.before + L.visit_sep + '2') + " is a move's 2nd search under one node)"};
    }
    return {move: c.before, visit: visit};
  }
  // splitIteration reads the root a printed place names off the front of
  // text ("iteration 3: Bxa6", "iteration 2·1: e4"), as
  // trace.SplitIteration does: {it: -1, rest: text} when it names none,
  // visit 0 when unmarked (the iteration's last root).
  function splitIteration(text) {
    const c = text.indexOf(':'), head = c < 0 ? '' : text.slice(0, c).trim(), n = L.iteration.length;
    if (c < 0 || head.length < n || head.slice(0, n).toLowerCase() !== L.iteration.toLowerCase()) return {it: -1, visit: 0, rest: text};
    const cut = cutVisit(head.slice(n).trim()), num = cut.before, mark = cut.mark.trim();
    if (!/^[+-]?[0-9]+$/.test(num.trim()) || Number(num) < 0) {
      return {err: JSON.stringify(head) + ': want an iteration number, as in ' + JSON.stringify(L.iteration + '3: Bxa6')};
    }
    if (cut.ok && !(/^[+-]?[0-9]+$/.test(mark) && Number(mark) >= 1)) {
      return {err: JSON.stringify(head) + ': ' + JSON.stringify(mark) + ' after ' + L.visit_sep + ' is no visit number'};
    }
    return {it: Number(num), visit: cut.ok ? Number(mark) : 0, rest: text.slice(c + 1)};
  }
  // find follows moves on side si from where a place starts: iteration
  // it's root when it names one (trace.IterationRoot: its last), else, on
  // a page of the whole run, the iteration the run reports when there is
  // a path (atRoot: moves, or "(root)"), else the top.
  function find(si, it, visit, moves, atRoot) {
    const sd = sides[si];
    let i = 0;
    const roots = sd.kids[0].filter(k => sd.N.kind[k] === KIND_ROOT);
    const last = ks => ks.reduce((a, k) => sd.N.id[k] > sd.N.id[a] ? k : a);
    const named = visitMark(L.iteration + it, visit, visit ? visit + 1 : 0);
    if (it >= 0 && sd.N.kind[0] !== KIND_RUN) {
      const t = sd.rootOf(0);
      if (t.iteration !== it || (visit ? t.visit !== visit : t.visit !== t.searches)) {
        return {err: 'this page draws ' + visitMark(L.iteration + t.iteration, t.visit, t.searches) + ' alone: a page of the whole run (' + exportCommand(sd, 0) + ') holds ' + named};
      }
    } else if (it >= 0) {
      // As trace.IterationRoot: the visit-th root of the iteration, or its last.
      const its = roots.filter(k => sd.N.iteration[k] === it), k = visit ? its.find(k => sd.N.visit[k] === visit) : its.length ? last(its) : undefined;
      if (k === undefined) {
        const drawn = [...new Set(roots.map(k => visitMark(String(sd.N.iteration[k]), sd.N.visit[k], sd.N.searches[k])))].join(', ');
        return {err: 'no drawn root of ' + named + ' (drawn: ' + (drawn || 'none') + ')' + (sd.merged[0] ? '; ' + merged(sd, 0) : '')};
      }
      i = k;
    } else if (atRoot && sd.N.kind[0] === KIND_RUN && roots.length) {
      // From the run node a path starts at the iteration the run reports,
      // as --path (trace.ReportedRoot): the root on the principal
      // variation, or the last root while none is (a run being recorded).
      i = roots.find(k => sd.N.pv[k]) ?? last(roots);
    }
    const done = [];
    for (const mv of moves) {
      // A move marked with its visit (Nf3·2, as paths print a re-search)
      // is that visit of the move.
      const sv = splitVisit(mv), m = sv.move, visit = sv.visit;
      if (sv.err) return {err: sv.err};
      const hits = sd.kids[i].filter(k => (sd.N.san[k] === m || sd.N.uci[k] === m.toLowerCase() ||
        sd.N.san[k].replace(/[+#]/g, '') === m.replace(/[+#]/g, '')) && (!visit || sd.N.visit[k] === visit));
      const where = done.length ? 'after ' + done.join(' ') : i === 0 ? 'at the top' : 'at ' + sd.name(i);
      if (!hits.length) {
        if (sd.merged[i]) return {err: 'no drawn move ' + mv + ' ' + where + ' (' + merged(sd, i) + ')'};
        return {err: 'no move ' + mv + ' ' + where};
      }
      // Unmarked is the last search, as --path reads it; it may be merged.
      const h = hits.reduce((a, k) => sd.N.visit[k] > sd.N.visit[a] ? k : a);
      if (!visit && sd.N.visit[h] < sd.N.searches[h] && sd.merged[i]) {
        return {err: 'the last search of ' + mv + ' ' + where + ' is not drawn (' + merged(sd, i) + '); ' + visitMark(m, sd.N.visit[h], sd.N.searches[h]) + ' is drawn'};
      }
      i = h;
      done.push(mv);
    }
    return {i: i, si: si};
  }
  // merged says where a node the search looked for may be: among the
  // merged nodes under node i of side sd.
  function merged(sd, i) {
    return 'it may be among the ' + count(sd.merged[i].reduce((a, m) => a + sd.s.merged.count[m], 0)) + ' merged nodes there: ' + exportCommand(sd, sd.N.id[i]);
  }
  form.addEventListener('submit', ev => {
    ev.preventDefault();
    // As trace.ParsePlace: an iteration, then the moves.
    const p = splitIteration(input.value);
    if (p.err) { msg.textContent = p.err; return; }
    const root = p.rest.trim() === L.root_path;
    let moves = root ? [] : splitPath(p.rest);
    // As trace.PathMoves: text with no move in it names no node.
    if (!moves.length && !root && p.rest.trim()) {
      msg.textContent = JSON.stringify(p.rest) + ' names no move (move numbers and commas are left out of a path)';
      return;
    }
    const tp = sides[0].path(0);
    if (tp.length && moves.length >= tp.length && tp.every((m, k) => m === moves[k])) moves = moves.slice(tp.length);
    const atRoot = root || moves.length > 0;
    let r = find(0, p.it, p.visit, moves, atRoot);
    if (r.err && isDiff && !find(1, p.it, p.visit, moves, atRoot).err) r = find(1, p.it, p.visit, moves, atRoot); // a line only B searched
    if (r.err) { msg.textContent = r.err; return; }
    msg.textContent = '';
    zoomTo(r.si, r.i);
  });

  window.addEventListener('keydown', ev => {
    if (ev.key === 'Escape' && document.activeElement !== input) {
      const c = chartList[0], p = c.side.N.parent[c.zoom];
      if (p >= 0) zoomTo(0, p);
    }
  });
  let resizeTimer = 0;
  window.addEventListener('resize', () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(redraw, 100); });

  // A small API for tests and for anyone scripting the page.
  window.horizon = {
    data: D,
    // rect gives node id's rectangle on side si in viewport coordinates, or null when not drawn.
    rect: (si, id) => { const i = sides[si].byID.get(id); return i === undefined ? null : chartList[si].rectOf(i); },
    state: () => chartList.map(c => ({zoom: c.side.N.id[c.zoom], selected: c.side.N.id[c.sel]})),
    zoom: (si, id) => { const i = sides[si].byID.get(id); if (i !== undefined) zoomTo(si, i); },
    // path gives node id's path on side si, or null when not drawn.
    path: (si, id) => { const i = sides[si].byID.get(id); return i === undefined ? null : sides[si].place(i); },
    // label gives the name node id's box on side si is labelled with.
    label: (si, id) => { const i = sides[si].byID.get(id); return i === undefined ? null : sides[si].name(i); },
    share: share,
    splitPath: splitPath,
    splitIteration: splitIteration,
    splitVisit: splitVisit,
  };
  // linked reads the address remember wrote (and the #node=ID of older
  // links, side A's node on a diff page): the drawn node of each side it
  // names and the side to show. A node the page does not hold (another
  // iteration, or merged) is said with the command that draws it, and an
  // address that names no node is said too, not silently ignored.
  function linked() {
    const h = location.hash.replace(/^#/, '');
    if (!h) return null;
    const text = (() => { try { return decodeURIComponent(h); } catch (e) { return h; } })();
    const want = [], l = {side: -1, at: []};
    for (const part of h.split('&')) {
      const eq = part.indexOf('='), k = eq < 0 ? part : part.slice(0, eq), v = eq < 0 ? '' : part.slice(eq + 1);
      if (k === 'side' && isDiff && (v === 'a' || v === 'b')) l.side = v === 'a' ? 0 : 1;
      else if ((k === 'node' || isDiff && (k === 'a' || k === 'b')) && /^[0-9]{1,15}$/.test(v)) want[k === 'b' ? 1 : 0] = Number(v);
      else {
        msg.textContent = JSON.stringify('#' + text) + ' in the address is not a node of this page: a link names one as #node=1234' + (isDiff ? ', or #a=12&b=34&side=b on a diff page' : '');
        return null;
      }
    }
    const missing = [];
    want.forEach((id, si) => {
      if (id === undefined) return;
      const i = sides[si].byID.get(id);
      if (i === undefined) missing.push((isDiff ? 'AB'[si] + "'s " : '') + 'node ' + id + ' is not on this page (' + exportCommand(sides[si], id) + ')');
      else l.at[si] = i;
    });
    msg.textContent = missing.join('; ');
    if (l.side < 0 || l.at[l.side] === undefined) l.side = l.at[0] !== undefined ? 0 : 1;
    return l.at[l.side] === undefined ? null : l;
  }
  // openLinked shows what linked read: the side it names zoomed to its
  // node, the other side to its own node when the link names one, else to
  // the counterpart.
  function openLinked(l) {
    const si = l.side, o = 1 - si;
    zoomTo(si, l.at[si]);
    if (isDiff && l.at[o] !== undefined) {
      chartList[o].zoom = chartList[o].sel = l.at[o];
      redraw();
      remember();
    }
  }
  window.addEventListener('hashchange', () => { const l = linked(); if (l) openLinked(l); });
  const start = linked();
  if (start) openLinked(start);
  else { redraw(); showDetails(0, 0, -1); }
  window.horizon.drawnAt = performance.now();
  document.body.setAttribute('data-ready', '1');
})();

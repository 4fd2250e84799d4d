/* report.js: the script of proftool's HTML report (formats/html.c embeds it). It reads
 * the JSON document in #pt-data (a string table plus integer arrays) and draws the flame
 * graph, the time order and the function table. No network, no storage: everything it
 * needs is in the page. */
'use strict';
(function () {
  const ROW = 16;
  const D = JSON.parse(document.getElementById('pt-data').textContent);
  const S = D.strings;
  const NT = D.types.length;
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    if (attrs) for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  /* ---- values in their units, as proftool top prints them (pprof's rule) ---- */
  const TIME = {nanoseconds: 1, nanosecond: 1, ns: 1, microseconds: 1e3, microsecond: 1e3,
    us: 1e3, milliseconds: 1e6, millisecond: 1e6, ms: 1e6, seconds: 1e9, second: 1e9, s: 1e9};
  const BYTES = {bytes: 1, byte: 1, B: 1};
  function f2(x, suffix) {
    let s = x.toFixed(2);
    if (s.endsWith('.00')) s = s.slice(0, -3);
    return s + suffix;
  }
  function fmt(v, t) {
    const ty = D.types[t];
    const unit = S[ty[1]];
    let x = v / Math.pow(10, ty[2]);
    if (unit in TIME) {
      x *= TIME[unit];
      const a = Math.abs(x);
      if (a === 0) return '0';
      if (a < 1e3) return f2(x, 'ns');
      if (a < 1e6) return f2(x / 1e3, 'us');
      if (a < 1e9) return f2(x / 1e6, 'ms');
      if (a < 3600e9) return f2(x / 1e9, 's');
      return f2(x / 3600e9, 'hrs');
    }
    if (unit in BYTES) {
      const suf = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
      let k = 0;
      while (Math.abs(x) >= 1024 && k < 5) { x /= 1024; k++; }
      return f2(x, suf[k]);
    }
    return ty[2] ? x.toFixed(ty[2]) : String(v);
  }
  const pct = (v, total) => (total ? (100 * v / total).toFixed(2) : '0.00') + '%';

  /* ---- the model ---- */
  const FN = D.fn;
  const NF = FN.name.length;
  const fname = (f) => S[FN.name[f]] || '(unknown)';
  function flabel(f) {
    let s = fname(f);
    const file = S[FN.file[f]];
    if (file && FN.file[f] !== FN.name[f]) s += ' (' + file + (FN.line[f] ? ':' + FN.line[f] : '') + ')';
    return s;
  }
  /* pprof's inline marks, as top prints them after a name (per sample type) */
  const markText = (f, t) => {
    const m = FN.mark ? FN.mark[t][f] : 0;
    return m === 1 ? ' (inline)' : m === 2 ? ' (partial-inline)' : '';
  };
  const T = D.tree;
  const N = T ? T.parent.length : 0;
  const depth = new Uint32Array(N);
  let maxDepth = 0;
  const kids = [];       /* children of each node, sorted by name */
  for (let n = 0; n < N; n++) kids.push(null);
  for (let n = 1; n < N; n++) {
    const p = T.parent[n];
    depth[n] = depth[p] + 1;
    if (depth[n] > maxDepth) maxDepth = depth[n];
    (kids[p] || (kids[p] = [])).push(n);
  }
  for (let n = 0; n < N; n++) {
    if (kids[n] && kids[n].length > 1) {
      kids[n].sort((a, b) => {
        const x = fname(T.fn[a]), y = fname(T.fn[b]);
        return x < y ? -1 : x > y ? 1 : a - b;
      });
    }
  }
  const cumCache = [];
  function cumOf(t) {
    if (!cumCache[t]) {
      const c = new Float64Array(N);
      const self = T.self[t];
      for (let n = 0; n < N; n++) c[n] = self[n];
      for (let n = N - 1; n > 0; n--) c[T.parent[n]] += c[n];
      cumCache[t] = c;
    }
    return cumCache[t];
  }

  /* ---- state ---- */
  const diff = D.diff;
  /* icicle first: the roots and the widest frames on the first screen, however deep the
   * stacks; the flame orientation is a toggle */
  const state = {type: D.type, zoom: 0, icicle: true, re: null, view: 'flame', sel: -1,
    sortKey: diff ? 'dflat' : 'flat', sortDesc: true, filter: '', group: 0, tzoom: null};

  /* ---- the page ---- */
  const root = el('div', {id: 'pt-root'});
  document.body.appendChild(root);
  const head = el('header');
  root.appendChild(head);
  head.appendChild(el('h1', null, D.title || D.input || (diff ? 'proftool diff' : 'proftool report')));
  const typeSel = el('select', {id: 'pt-type', title: 'sample type'});
  D.types.forEach((ty, i) => {
    const o = el('option', {value: String(i)}, S[ty[0]] + (S[ty[1]] ? ' [' + S[ty[1]] + ']' : ''));
    typeSel.appendChild(o);
  });
  typeSel.value = String(state.type);
  if (NT < 2 || diff) typeSel.hidden = true;
  head.appendChild(typeSel);
  const tabs = el('nav', {id: 'pt-tabs'});
  head.appendChild(tabs);
  const views = {};
  function tab(name, label) {
    const b = el('button', {id: 'pt-tab-' + name, type: 'button'}, label);
    b.addEventListener('click', () => show(name));
    tabs.appendChild(b);
  }
  if (T) tab('flame', diff ? 'Differential flame graph' : 'Flame graph');
  if (T && D.timeline) tab('time', 'Time order');
  tab('table', diff ? 'Diff table' : 'Table');
  const search = el('input', {id: 'pt-search', type: 'search', placeholder: 'search (regex)  /',
    spellcheck: 'false'});
  head.appendChild(search);
  const share = el('span', {id: 'pt-share'});
  head.appendChild(share);
  const total = el('span', {id: 'pt-total'});
  head.appendChild(total);

  /* flame graph */
  const fv = el('section', {id: 'pt-flame', class: 'pt-view'});
  views.flame = fv;
  const fbar = el('div', {class: 'pt-bar'});
  const crumbs = el('nav', {id: 'pt-crumbs'});
  const icicleBtn = el('button', {id: 'pt-icicle', type: 'button', class: 'pt-on',
    title: 'roots at the top (off: a flame graph, roots at the bottom)'}, 'Icicle');
  const resetBtn = el('button', {id: 'pt-reset', type: 'button', title: 'Esc'}, 'Reset zoom');
  fbar.appendChild(crumbs);
  fbar.appendChild(icicleBtn);
  fbar.appendChild(resetBtn);
  fv.appendChild(fbar);
  const canvas = el('canvas', {id: 'pt-canvas', tabindex: '0'});
  fv.appendChild(canvas);
  const info = el('div', {id: 'pt-info', class: 'pt-info'}, ' ');
  fv.appendChild(info);
  const tip = el('div', {id: 'pt-tip', hidden: ''});
  document.body.appendChild(tip);

  /* time order */
  const tv = el('section', {id: 'pt-time', class: 'pt-view'});
  views.time = tv;
  const tbar = el('div', {class: 'pt-bar'});
  const groupSel = el('select', {id: 'pt-group', title: 'thread or process'});
  tbar.appendChild(groupSel);
  const tresetBtn = el('button', {id: 'pt-treset', type: 'button'}, 'Reset zoom');
  tbar.appendChild(tresetBtn);
  tv.appendChild(tbar);
  const tcanvas = el('canvas', {id: 'pt-tcanvas'});
  tv.appendChild(tcanvas);
  const tinfo = el('div', {class: 'pt-info'}, ' ');
  tv.appendChild(tinfo);

  /* table */
  const xv = el('section', {id: 'pt-tableview', class: 'pt-view'});
  views.table = xv;
  const filter = el('input', {id: 'pt-filter', type: 'search', placeholder: 'filter functions (regex)',
    spellcheck: 'false'});
  xv.appendChild(el('div', {class: 'pt-bar'})).appendChild(filter);
  const split = el('div', {class: 'pt-split'});
  xv.appendChild(split);
  const table = el('table', {id: 'pt-table'});
  split.appendChild(el('div', {class: 'pt-tablewrap'})).appendChild(table);
  const detail = el('div', {id: 'pt-detail'});
  split.appendChild(detail);
  for (const k in views) root.appendChild(views[k]);
  if (D.noStacks) {
    root.appendChild(el('p', {class: 'pt-note'}, 'No flame graph: the profile has no stacks (' + D.noStacks + ').'));
  }

  /* ---- colours ---- */
  function hash(s) {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    return h >>> 0;
  }
  function hot(name) {
    const h = hash(name);
    const a = (h & 255) / 255, b = ((h >>> 8) & 255) / 255;
    return 'rgb(' + (205 + Math.round(50 * b)) + ',' + Math.round(230 * a) + ',' + Math.round(55 * b) + ')';
  }
  /* differential: red grew, blue shrank, white unchanged (flamegraph.pl's rule) */
  function diffColour(d, maxd) {
    if (!maxd || d === 0) return 'rgb(250,250,250)';
    const k = Math.round(210 * Math.min(1, Math.abs(d) / maxd));
    return d > 0 ? 'rgb(255,' + (255 - k) + ',' + (255 - k) + ')' : 'rgb(' + (255 - k) + ',' + (255 - k) + ',255)';
  }

  /* ---- flame graph ---- */
  let rects = [];       /* drawn frames: {n, x, y, w} in CSS pixels */
  let matched = null;   /* Uint8Array per node */
  function drawType() { return diff ? diff[1] : state.type; }

  function layout(width) {
    const t = drawType();
    const cum = cumOf(t);
    const out = [];
    const z = state.zoom;
    const zc = cum[z] || 1;
    /* ancestors of the zoomed frame span the width */
    for (let a = z; a !== 0; a = T.parent[a]) out.push({n: a, x: 0, w: width, d: depth[a]});
    const stack = [[z, 0]];
    while (stack.length) {
      const [n, x] = stack.pop();
      let at = x;
      const ks = kids[n];
      if (!ks) continue;
      for (const c of ks) {
        const w = cum[c] / zc * width;
        if (w >= 0.25 && cum[c] > 0) {
          out.push({n: c, x: at, w, d: depth[c]});
          if (w >= 1) stack.push([c, at]);
        }
        if (cum[c] > 0) at += w;
      }
    }
    return out;
  }

  function drawFlame() {
    if (!T) return;
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(200, fv.clientWidth || 1200);
    rects = layout(width);
    let md = 0;
    for (const r of rects) if (r.d > md) md = r.d;
    const height = (md + 1) * ROW;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.width = width + 'px';
    canvas.style.height = height + 'px';
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, width, height);
    g.font = '12px Verdana, sans-serif';
    g.textBaseline = 'middle';
    let maxd = 0, dcum = null, bcum = null;
    if (diff) {
      dcum = cumOf(diff[1]);
      bcum = cumOf(diff[0]);
      for (let n = 1; n < N; n++) maxd = Math.max(maxd, Math.abs(dcum[n] - bcum[n]));
    }
    for (const r of rects) {
      r.y = state.icicle ? (r.d - 1) * ROW : (md - r.d) * ROW;
      const name = fname(T.fn[r.n]);
      let colour;
      if (matched && matched[r.n]) colour = 'rgb(230,0,230)';
      else if (diff) colour = diffColour(dcum[r.n] - bcum[r.n], maxd);
      else colour = hot(name);
      r.colour = colour;
      g.fillStyle = colour;
      g.fillRect(r.x, r.y, Math.max(r.w - 0.5, 0.5), ROW - 1);
      if (r.n === state.sel) {
        g.strokeStyle = '#000';
        g.lineWidth = 2;
        g.strokeRect(r.x + 1, r.y + 1, Math.max(r.w - 2, 1), ROW - 3);
      }
      if (r.w > 30) {
        g.fillStyle = '#000';
        const room = Math.floor((r.w - 6) / 7);
        const text = name.length > room ? name.slice(0, Math.max(room - 2, 0)) + '..' : name;
        if (room >= 3) g.fillText(text, r.x + 3, r.y + ROW / 2);
      }
    }
    drawCrumbs();
  }

  function drawCrumbs() {
    crumbs.textContent = '';
    const path = [];
    for (let a = state.zoom; a !== 0; a = T.parent[a]) path.unshift(a);
    path.unshift(0);
    path.forEach((n, i) => {
      if (i) crumbs.appendChild(document.createTextNode(' \u203a '));
      const b = el('button', {type: 'button', class: 'pt-crumb'}, n ? fname(T.fn[n]) : 'all');
      b.addEventListener('click', () => zoomTo(n));
      crumbs.appendChild(b);
    });
  }

  function frameText(n, withZoom) {
    const t = drawType();
    const cum = cumOf(t), f = T.fn[n];
    const tot = cum[0], self = T.self[t][n];
    let s = flabel(f) + '\n';
    s += 'total ' + fmt(cum[n], t) + ' (' + pct(cum[n], tot) + ' of all';
    if (withZoom && state.zoom) s += ', ' + pct(cum[n], cum[state.zoom]) + ' of ' + fname(T.fn[state.zoom]);
    s += ')\nself ' + fmt(self, t) + ' (' + pct(self, tot) + ')';
    if (diff) {
      const b = cumOf(diff[0])[n];
      const d = cum[n] - b;
      s += '\nbase ' + fmt(b, diff[0]) + ', change ' + (d >= 0 ? '+' : '') + fmt(d, t);
    }
    return s;
  }

  function rectAt(x, y) {
    for (let i = rects.length - 1; i >= 0; i--) {
      const r = rects[i];
      if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + ROW) return r;
    }
    return null;
  }

  function zoomTo(n) {
    performance.mark('pt-zoom-start');
    state.zoom = n;
    state.sel = n;
    drawFlame();
    updateShare();
    performance.mark('pt-zoom-end');
    performance.measure('pt-zoom', 'pt-zoom-start', 'pt-zoom-end');
  }

  canvas.addEventListener('mousemove', (ev) => {
    const b = canvas.getBoundingClientRect();
    const r = rectAt(ev.clientX - b.left, ev.clientY - b.top);
    if (!r) { tip.hidden = true; return; }
    tip.textContent = frameText(r.n, true);
    tip.hidden = false;
    const x = Math.min(ev.clientX + 12, window.innerWidth - tip.offsetWidth - 4);
    tip.style.left = x + 'px';
    tip.style.top = (ev.clientY + window.scrollY + 14) + 'px';
  });
  canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
  canvas.addEventListener('click', (ev) => {
    const b = canvas.getBoundingClientRect();
    const r = rectAt(ev.clientX - b.left, ev.clientY - b.top);
    if (r) zoomTo(r.n);
  });
  icicleBtn.addEventListener('click', () => {
    state.icicle = !state.icicle;
    icicleBtn.classList.toggle('pt-on', state.icicle);
    drawFlame();
    /* a flame graph's roots are at its bottom: bring them into view */
    if (!state.icicle) {
      const b = canvas.getBoundingClientRect();
      window.scrollTo(0, Math.max(0, window.scrollY + b.bottom - window.innerHeight + 8));
    }
  });
  resetBtn.addEventListener('click', () => zoomTo(0));

  /* ---- search: matched frames and their share, as flamegraph.pl counts it (a frame
   * under a matched frame is not counted again) ---- */
  let fnMatched = null; /* Uint8Array per function */
  function setSearch(text) {
    state.re = null;
    search.classList.remove('pt-bad');
    if (text) {
      try { state.re = new RegExp(text); } catch (e) { search.classList.add('pt-bad'); }
    }
    matched = null;
    fnMatched = null;
    if (state.re && T) {
      matched = new Uint8Array(N);
      fnMatched = new Uint8Array(NF);
      for (let f = 0; f < NF; f++) fnMatched[f] = state.re.test(fname(f)) ? 1 : 0;
      for (let n = 1; n < N; n++) matched[n] = fnMatched[T.fn[n]];
    }
    updateHash();
    updateShare();
    drawFlame();
    if (state.view === 'time') drawTime();
  }
  /* What the drawn tree holds of each function once per stack (its nodes with no node
   * of the same function above them); a function's exact cum (FN.cum, top's) less
   * this is what the writer's pruning folded into frames above it. */
  const lostCache = [];
  function lostOf(t) {
    if (lostCache[t]) return lostCache[t];
    const cum = cumOf(t), once = new Float64Array(NF), onPath = new Uint32Array(NF);
    const stack = [0];
    while (stack.length) {
      const n = stack.pop();
      if (n < 0) { onPath[T.fn[~n]]--; continue; }
      if (n) {
        const f = T.fn[n];
        if (!onPath[f]) once[f] += cum[n];
        onPath[f]++;
        stack.push(~n);
      }
      for (const c of kids[n] || []) stack.push(c);
    }
    const lost = new Float64Array(NF);
    for (let f = 0; f < NF; f++) lost[f] = Math.max(0, FN.cum[t][f] - once[f]);
    lostCache[t] = lost;
    return lost;
  }
  /* The value of the stacks with a matched function (what top --focus keeps): the
   * matched frames with no matched ancestor, exact where nothing of a matched function
   * was pruned. Else a range: at least that and each matched function's own cum
   * (exact, so one function is exact), at most that plus what pruning folded away of
   * each matched function. */
  function searchShare(t) {
    const cum = cumOf(t);
    let sum = 0;
    /* roots of matched subtrees: no matched ancestor */
    const under = new Uint8Array(N);
    for (let n = 1; n < N; n++) {
      const p = T.parent[n];
      under[n] = under[p] || matched[p];
      if (matched[n] && !under[n]) sum += cum[n];
    }
    const lost = lostOf(t);
    let lo = sum, hi = sum;
    for (let f = 0; f < NF; f++) {
      if (!fnMatched[f]) continue;
      lo = Math.max(lo, FN.cum[t][f]);
      hi += lost[f];
    }
    return [lo, Math.max(lo, Math.min(hi, cum[0]))];
  }
  function updateShare() {
    if (!matched) { share.textContent = ''; return; }
    const t = drawType();
    const cum = cumOf(t);
    const [lo, hi] = searchShare(t);
    share.textContent = 'Matched: ' + (lo === hi ? fmt(lo, t) + ' (' + pct(lo, cum[0]) + ')'
      : fmt(lo, t) + ' to ' + fmt(hi, t) + ' (' + pct(lo, cum[0]) + ' to ' + pct(hi, cum[0]) + ')');
    share.dataset.value = String(lo);
    share.dataset.upper = String(hi);
    share.dataset.total = String(cum[0]);
  }
  search.addEventListener('input', () => setSearch(search.value));

  /* ---- time order: runs of one drawn node laid end to end, equal neighbours merged ---- */
  const TL = D.timeline;
  let trects = null, tkey = '';
  if (TL) {
    const used = new Set(TL.g);
    TL.groups.forEach((name, i) => {
      if (!used.has(i)) return;
      groupSel.appendChild(el('option', {value: String(i)}, name || '(all samples)'));
    });
    state.group = Number(groupSel.value || 0);
    if (groupSel.options.length < 2) groupSel.hidden = true;
  }
  function timeLayout() {
    const t = state.type, key = t + '/' + state.group;
    if (trects && tkey === key) return trects;
    const out = [];
    const open = [];  /* [node, x0] per depth */
    let x = 0;
    const path = [];
    const close = (keep) => {
      while (open.length > keep) {
        const [n, x0] = open.pop();
        out.push({n, x0, x1: x, d: open.length + 1});
      }
    };
    const v = TL.v[t];
    for (let i = 0; i < TL.node.length; i++) {
      if (TL.g[i] !== state.group || v[i] <= 0) continue;
      path.length = 0;
      for (let a = TL.node[i]; a !== 0; a = T.parent[a]) path.push(a);
      path.reverse();
      let common = 0;
      while (common < path.length && common < open.length && open[common][0] === path[common]) common++;
      close(common);
      for (let d = common; d < path.length; d++) open.push([path[d], x]);
      x += v[i];
    }
    close(0);
    out.total = x;
    trects = out;
    tkey = key;
    return out;
  }
  function drawTime() {
    if (!TL) return;
    const all = timeLayout();
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(200, tv.clientWidth || 1200);
    const [z0, z1] = state.tzoom || [0, all.total || 1];
    const scale = width / ((z1 - z0) || 1);
    let md = 0;
    for (const r of all) if (r.d > md) md = r.d;
    const height = (md + 1) * ROW;
    tcanvas.width = Math.round(width * dpr);
    tcanvas.height = Math.round(height * dpr);
    tcanvas.style.width = width + 'px';
    tcanvas.style.height = height + 'px';
    const g = tcanvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, width, height);
    g.font = '12px Verdana, sans-serif';
    g.textBaseline = 'middle';
    tcanvas.rects = [];
    for (const r of all) {
      if (r.x1 <= z0 || r.x0 >= z1) continue;
      const x = (r.x0 - z0) * scale, w = (r.x1 - r.x0) * scale;
      if (w < 0.25) continue;
      const y = (r.d - 1) * ROW;
      const name = fname(T.fn[r.n]);
      g.fillStyle = matched && matched[r.n] ? 'rgb(230,0,230)' : hot(name);
      g.fillRect(x, y, Math.max(w - 0.5, 0.5), ROW - 1);
      if (w > 30) {
        g.fillStyle = '#000';
        const room = Math.floor((w - 6) / 7);
        if (room >= 3) g.fillText(name.length > room ? name.slice(0, room - 2) + '..' : name, Math.max(x, 0) + 3, y + ROW / 2);
      }
      tcanvas.rects.push({n: r.n, x, y, w, x0: r.x0, x1: r.x1});
    }
  }
  function trectAt(ev) {
    const b = tcanvas.getBoundingClientRect();
    const x = ev.clientX - b.left, y = ev.clientY - b.top;
    for (const r of tcanvas.rects || []) if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + ROW) return r;
    return null;
  }
  tcanvas.addEventListener('mousemove', (ev) => {
    const r = trectAt(ev);
    if (!r) { tip.hidden = true; return; }
    const t = state.type;
    tip.textContent = flabel(T.fn[r.n]) + '\n' + fmt(r.x1 - r.x0, t) + ' from ' + fmt(r.x0, t);
    tip.hidden = false;
    tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - tip.offsetWidth - 4) + 'px';
    tip.style.top = (ev.clientY + window.scrollY + 14) + 'px';
  });
  tcanvas.addEventListener('mouseleave', () => { tip.hidden = true; });
  tcanvas.addEventListener('click', (ev) => {
    const r = trectAt(ev);
    if (r) { state.tzoom = [r.x0, r.x1]; drawTime(); }
  });
  tresetBtn.addEventListener('click', () => { state.tzoom = null; drawTime(); });
  groupSel.addEventListener('change', () => { state.group = Number(groupSel.value); state.tzoom = null; drawTime(); });

  /* ---- the function table: top's rows and numbers ---- */
  const cols = diff
    ? [['flat', 'flat'], ['dflat', '\u0394flat'], ['cum', 'cum'], ['dcum', '\u0394cum'], ['name', 'name']]
    : [['flat', 'flat'], ['flatp', 'flat%'], ['cum', 'cum'], ['cump', 'cum%'], ['name', 'name']];
  function tableType() { return diff ? diff[1] : state.type; }
  function rowValue(f, k) {
    const t = tableType();
    switch (k) {
      case 'flat': case 'flatp': return FN.flat[t][f];
      case 'cum': case 'cump': return FN.cum[t][f];
      case 'dflat': return FN.flat[t][f] - FN.flat[diff[0]][f];
      case 'dcum': return FN.cum[t][f] - FN.cum[diff[0]][f];
    }
    return 0;
  }
  /* top's order: by the key, then name, then the other value, file, line, index */
  function rowCmp(a, b) {
    const k = state.sortKey, t = tableType();
    let r = 0;
    if (k === 'name') {
      const x = fname(a), y = fname(b);
      r = x < y ? -1 : x > y ? 1 : 0;
      if (state.sortDesc) r = -r;
    } else {
      let x = rowValue(a, k), y = rowValue(b, k);
      if (k === 'dflat' || k === 'dcum') { x = Math.abs(x); y = Math.abs(y); }
      r = x > y ? -1 : x < y ? 1 : 0;
      if (!state.sortDesc) r = -r;
    }
    if (r) return r;
    const x = fname(a), y = fname(b);
    if (x !== y) return x < y ? -1 : 1;
    const byCum = k === 'cum' || k === 'cump' || k === 'dcum';
    const o1 = byCum ? FN.flat[t][a] : FN.cum[t][a], o2 = byCum ? FN.flat[t][b] : FN.cum[t][b];
    if (o1 !== o2) return o1 > o2 ? -1 : 1;
    const fa = S[FN.file[a]], fb = S[FN.file[b]];
    if (fa !== fb) return fa < fb ? -1 : 1;
    if (FN.line[a] !== FN.line[b]) return FN.line[a] - FN.line[b];
    return a - b;
  }
  const PAGE = 1000;
  let shownRows = PAGE;
  function drawTable() {
    const t = tableType();
    const tot = D.totals[t];
    let fre = null;
    filter.classList.remove('pt-bad');
    try { if (state.filter) fre = new RegExp(state.filter, 'i'); } catch (e) { filter.classList.add('pt-bad'); }
    const rows = [];
    for (let f = 0; f < NF; f++) {
      const nz = FN.flat[t][f] || FN.cum[t][f] || (diff && (FN.flat[diff[0]][f] || FN.cum[diff[0]][f]));
      if (!nz) continue;
      if (fre && !fre.test(flabel(f))) continue;
      rows.push(f);
    }
    rows.sort(rowCmp);
    table.textContent = '';
    const thead = el('thead'), tr = el('tr');
    for (const [k, label] of cols) {
      const th = el('th', {'data-key': k, class: k === 'name' ? 'pt-name' : ''},
        label + (state.sortKey === k ? (state.sortDesc ? ' \u25be' : ' \u25b4') : ''));
      th.addEventListener('click', () => {
        if (state.sortKey === k) state.sortDesc = !state.sortDesc;
        else { state.sortKey = k; state.sortDesc = k !== 'name'; }
        drawTable();
      });
      tr.appendChild(th);
    }
    thead.appendChild(tr);
    table.appendChild(thead);
    const tbody = el('tbody');
    const frag = document.createDocumentFragment();
    for (const f of rows.slice(0, shownRows)) {
      const r = el('tr', {'data-fn': String(f)});
      for (const [k] of cols) {
        let text;
        if (k === 'name') text = flabel(f) + markText(f, t);
        else if (k === 'flatp' || k === 'cump') text = pct(rowValue(f, k), tot);
        else if (k === 'dflat' || k === 'dcum') {
          const v = rowValue(f, k);
          text = (v > 0 ? '+' : '') + fmt(v, t);
        } else text = fmt(rowValue(f, k), t);
        r.appendChild(el('td', {class: k === 'name' ? 'pt-name' : ''}, text));
      }
      if (state.selFn === f) r.classList.add('pt-on');
      frag.appendChild(r);
    }
    tbody.appendChild(frag);
    table.appendChild(tbody);
    table.dataset.rows = String(rows.length);
    if (rows.length > shownRows) {
      const more = el('tr', {class: 'pt-more'});
      const td = el('td', {colspan: String(cols.length)});
      const b = el('button', {type: 'button'}, 'show ' + Math.min(PAGE, rows.length - shownRows) +
        ' more of ' + (rows.length - shownRows));
      b.addEventListener('click', () => { shownRows += PAGE; drawTable(); });
      td.appendChild(b);
      more.appendChild(td);
      tbody.appendChild(more);
    }
  }
  table.addEventListener('click', (ev) => {
    const tr = ev.target.closest('tr[data-fn]');
    if (!tr) return;
    state.selFn = Number(tr.dataset.fn);
    for (const r of table.querySelectorAll('tr.pt-on')) r.classList.remove('pt-on');
    tr.classList.add('pt-on');
    drawDetail(state.selFn);
  });
  filter.addEventListener('input', () => { state.filter = filter.value; shownRows = PAGE; drawTable(); });

  /* the "(other)" entry of each function's callers (to) and callees (from) */
  const otherOf = {to: new Map(), from: new Map()};
  if (D.edges.otherCallers) D.edges.otherCallers.fn.forEach((f, k) => otherOf.to.set(f, k));
  if (D.edges.otherCallees) D.edges.otherCallees.fn.forEach((f, k) => otherOf.from.set(f, k));
  const srcOf = new Map();
  if (D.src) D.src.fn.forEach((f, k) => srcOf.set(f, k));
  /* callers, callees and source lines of one function, as `proftool method` prints them */
  function drawDetail(f) {
    const t = tableType(), tot = D.totals[t];
    const fc = FN.cum[t][f];
    detail.textContent = '';
    detail.appendChild(el('h2', null, flabel(f)));
    detail.appendChild(el('p', null, S[D.types[t][0]] + ': ' + fmt(FN.flat[t][f], t) + ' self (' +
      pct(FN.flat[t][f], tot) + ')  /  ' + fmt(fc, t) + ' total (' + pct(fc, tot) + ')'));
    const E = D.edges;
    function list(title, side, other) {
      const items = [];
      for (let i = 0; i < E.from.length; i++) if (E[side][i] === f && E.v[t][i]) items.push(i);
      items.sort((a, b) => E.v[t][b] - E.v[t][a] || (fname(E[other][a]) < fname(E[other][b]) ? -1 : 1));
      detail.appendChild(el('h3', null, title));
      const tb = el('table', {class: 'pt-mini', 'data-list': title});
      for (const i of items) {
        const r = el('tr');
        r.appendChild(el('td', {class: 'pt-num'}, fmt(E.v[t][i], t)));
        r.appendChild(el('td', {class: 'pt-num'}, pct(E.v[t][i], fc)));
        r.appendChild(el('td', null, flabel(E[other][i])));
        tb.appendChild(r);
      }
      /* what the writer left out of the list, in one entry */
      const O = side === 'to' ? E.otherCallers : E.otherCallees;
      const k = O ? otherOf[side].get(f) : undefined;
      if (k !== undefined && O.v[t][k]) {
        const r = el('tr', {class: 'pt-other'});
        r.appendChild(el('td', {class: 'pt-num'}, fmt(O.v[t][k], t)));
        r.appendChild(el('td', {class: 'pt-num'}, pct(O.v[t][k], fc)));
        r.appendChild(el('td', null, '(other: ' + O.n[k] + ' ' + title + ')'));
        tb.appendChild(r);
        items.push(-1);
      }
      if (!items.length) tb.appendChild(el('tr')).appendChild(el('td', null, '(none)'));
      detail.appendChild(tb);
    }
    list('callers', 'to', 'from');
    list('callees', 'from', 'to');
    const L = D.lines, ls = [];
    for (let i = 0; i < L.fn.length; i++) if (L.fn[i] === f && (L.self[t][i] || L.cum[t][i])) ls.push(i);
    ls.sort((a, b) => L.line[a] - L.line[b]);
    if (srcOf.has(f)) {
      /* the embedded source (--source-path): every line of the range, counts beside */
      const k = srcOf.get(f), byLine = new Map();
      for (const i of ls) byLine.set(L.line[i], i);
      detail.appendChild(el('h3', null, 'source'));
      const tb = el('table', {class: 'pt-mini pt-code', 'data-list': 'source'});
      S[D.src.text[k]].replace(/\n$/, '').split('\n').forEach((code, j) => {
        const ln = D.src.first[k] + j, i = byLine.get(ln);
        const r = el('tr', i !== undefined ? {class: 'pt-hot'} : null);
        r.appendChild(el('td', {class: 'pt-num'}, i !== undefined ? fmt(L.self[t][i], t) : ''));
        r.appendChild(el('td', {class: 'pt-num'}, i !== undefined ? fmt(L.cum[t][i], t) : ''));
        r.appendChild(el('td', {class: 'pt-num'}, String(ln)));
        r.appendChild(el('td', {class: 'pt-src'}, code));
        tb.appendChild(r);
      });
      detail.appendChild(tb);
      return;
    }
    detail.appendChild(el('h3', null, 'lines'));
    const tb = el('table', {class: 'pt-mini', 'data-list': 'lines'});
    tb.appendChild(el('tr')).append(el('th', null, 'self'), el('th', null, 'total'), el('th', null, 'line'));
    for (const i of ls) {
      const r = el('tr');
      r.appendChild(el('td', {class: 'pt-num'}, fmt(L.self[t][i], t)));
      r.appendChild(el('td', {class: 'pt-num'}, fmt(L.cum[t][i], t)));
      r.appendChild(el('td', null, (S[FN.file[f]] || '') + ':' + L.line[i]));
      tb.appendChild(r);
    }
    if (!ls.length) tb.appendChild(el('tr')).appendChild(el('td', {colspan: '3'}, '(no line information)'));
    detail.appendChild(tb);
  }

  /* ---- views, type, totals, keyboard ---- */
  /* the tab's title: the input and the sample type shown, unless --title names it */
  function drawTitle() {
    const t = tableType();
    if (D.title) document.title = D.title;
    else if (D.input) document.title = D.input + ' (' + S[D.types[t][0]] + (diff ? ', diff' : '') + ')';
  }
  function drawTotal() {
    drawTitle();
    const t = tableType();
    total.textContent = 'Total: ' + fmt(D.totals[t], t) + (diff ? ' (base ' + fmt(D.totals[diff[0]], diff[0]) + ')' : '');
    total.dataset.value = String(D.totals[t]);
  }
  function show(name) {
    if (!views[name] || (name === 'flame' && !T) || (name === 'time' && !TL)) name = 'table';
    state.view = name;
    for (const k in views) views[k].hidden = k !== name;
    for (const b of tabs.children) b.classList.toggle('pt-on', b.id === 'pt-tab-' + name);
    if (name === 'flame') drawFlame();
    if (name === 'time') drawTime();
    if (name === 'table') drawTable();
    updateHash();
  }
  typeSel.addEventListener('change', () => {
    state.type = Number(typeSel.value);
    trects = null;
    drawTotal();
    updateShare();
    show(state.view);
  });
  function updateHash() {
    const parts = [];
    if (state.view !== 'flame') parts.push('view=' + state.view);
    if (search.value) parts.push('search=' + encodeURIComponent(search.value));
    const h = parts.join('&');
    if (('#' + h) !== location.hash && (h || location.hash)) history.replaceState(null, '', h ? '#' + h : location.pathname + location.search);
  }

  /* arrows walk the frames: up to the heaviest child (towards the leaves), down to the
   * parent, left and right to the neighbours; Enter zooms */
  function walk(key) {
    if (!T) return;
    let n = state.sel >= 0 ? state.sel : state.zoom;
    const cum = cumOf(drawType());
    const up = state.icicle ? 'ArrowDown' : 'ArrowUp';
    const down = state.icicle ? 'ArrowUp' : 'ArrowDown';
    if (key === up) {
      const ks = (kids[n] || []).filter((c) => cum[c] > 0);
      if (ks.length) n = ks.reduce((a, b) => (cum[b] > cum[a] ? b : a));
    } else if (key === down) {
      if (n !== 0) n = T.parent[n];
    } else if (n !== 0) {
      const sib = (kids[T.parent[n]] || []).filter((c) => cum[c] > 0);
      const i = sib.indexOf(n) + (key === 'ArrowRight' ? 1 : -1);
      if (i >= 0 && i < sib.length) n = sib[i];
    }
    state.sel = n;
    info.textContent = n ? frameText(n, true).replace(/\n/g, '  \u00b7  ') : ' ';
    drawFlame();
  }
  document.addEventListener('keydown', (ev) => {
    const inField = ev.target === search || ev.target === filter;
    if (ev.key === 'Escape') {
      if (inField) ev.target.blur();
      if (state.view === 'time') { state.tzoom = null; drawTime(); } else zoomTo(0);
      ev.preventDefault();
      return;
    }
    if (inField) return;
    if (ev.key === '/') {
      ev.preventDefault();
      (state.view === 'table' ? filter : search).focus();
      return;
    }
    if (state.view !== 'flame') return;
    if (ev.key.startsWith('Arrow')) { ev.preventDefault(); walk(ev.key); }
    if (ev.key === 'Enter' && state.sel >= 0) zoomTo(state.sel);
  });
  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => show(state.view), 100);
  });

  /* the state in the address (#view=table&search=RE), so a link shows the same */
  const hp = new URLSearchParams(location.hash.slice(1));
  drawTotal();
  if (hp.get('search')) { search.value = hp.get('search'); setSearch(search.value); }
  show(hp.get('view') || (T ? 'flame' : 'table'));
  performance.mark('pt-first-draw');
  /* for tests and benchmarks: the drawn frames and the state, read only */
  window.ptReport = {
    state, diff: !!diff, rects: () => rects.map((r) => ({name: fname(T.fn[r.n]), x: r.x, y: r.y, w: r.w, d: r.d, colour: r.colour})),
    trects: () => (tcanvas.rects || []).length,
  };
})();

/* report.js: the script of proftool's HTML report (formats/html.c embeds it). It reads
 * the JSON document in #pt-data (a string table plus integer arrays) and draws the flame
 * graph, the time order and the function table. No network, no storage: everything it
 * needs is in the page. */
'use strict';
(function () {
  const ROW = 16;
  const REFINE_OPS = ['focus', 'ignore', 'hide', 'show'];
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
  /* the tree drawn: the page's (T0), or the one a refine made of it (setTree) */
  const T0 = D.tree;
  let T = T0, N = 0, depth = null, maxDepth = 0, kids = [], cumCache = [], lostCache = [];
  function setTree(tree) {
    T = tree;
    N = T ? T.parent.length : 0;
    depth = new Uint32Array(N);
    maxDepth = 0;
    kids = new Array(N).fill(null); /* children of each node, sorted by name */
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
    cumCache = [];
    lostCache = [];
  }
  setTree(T0);
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
  /* per function values and totals: top's (exact) until a refine, then the refined
   * tree's, counted as top counts (cum once per stack) */
  let FV = {flat: FN.flat, cum: FN.cum}, TOT = D.totals, EDG = D.edges;

  /* ---- state ---- */
  const diff = D.diff;
  /* icicle first: the roots and the widest frames on the first screen, however deep the
   * stacks; the flame orientation is a toggle */
  const state = {type: D.type, zoom: 0, icicle: true, re: null, view: 'flame', sel: -1,
    sortKey: diff ? 'dflat' : 'flat', sortDesc: true, filter: '', group: 0, tzoom: null,
    refine: [], sfn: -1};

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
  if (T) tab('sandwich', 'Sandwich');
  if (D.graph) tab('graph', 'Graph');
  const search = el('input', {id: 'pt-search', type: 'search', placeholder: 'search (regex)  /',
    spellcheck: 'false'});
  head.appendChild(search);
  const share = el('span', {id: 'pt-share'});
  head.appendChild(share);
  /* refine the search's pattern: the same as a click's */
  const refineBtns = el('span', {id: 'pt-refine-re'});
  for (const op of REFINE_OPS) {
    const b = el('button', {type: 'button', 'data-op': op, title: op + ' the functions the search matches'}, op);
    b.addEventListener('click', () => { if (search.value && state.re) addRefine(op, search.value); });
    refineBtns.appendChild(b);
  }
  if (T) head.appendChild(refineBtns);
  const total = el('span', {id: 'pt-total'});
  head.appendChild(total);
  const helpBtn = el('button', {id: 'pt-help-btn', type: 'button', title: 'keys (?)'}, '?');
  head.appendChild(helpBtn);
  helpBtn.addEventListener('click', () => { help.hidden = !help.hidden; });
  /* the refinements in force, each with a button that takes it away */
  const refineBar = el('div', {id: 'pt-refine', class: 'pt-bar', hidden: ''});
  root.appendChild(refineBar);

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
  /* what to do with the selected frame's function */
  const frameActs = el('span', {id: 'pt-frame-acts', class: 'pt-acts'});
  fbar.appendChild(frameActs);
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

  /* sandwich: the callers of one function as an inverted flame above it, its callees
   * as a flame below */
  const sv = el('section', {id: 'pt-sandwich', class: 'pt-view'});
  views.sandwich = sv;
  const sbar = el('div', {class: 'pt-bar'});
  const sfilter = el('input', {id: 'pt-sfn', type: 'search', placeholder: 'function (regex): the heaviest match',
    spellcheck: 'false'});
  sbar.appendChild(sfilter);
  const stitle = el('span', {id: 'pt-stitle'});
  sbar.appendChild(stitle);
  sv.appendChild(sbar);
  sv.appendChild(el('h3', null, 'callers'));
  const scallers = el('canvas', {id: 'pt-scallers'});
  sv.appendChild(scallers);
  const scallees = el('canvas', {id: 'pt-scallees'});
  sv.appendChild(el('h3', null, 'callees'));
  sv.appendChild(scallees);

  /* call graph */
  const gv = el('section', {id: 'pt-graph', class: 'pt-view'});
  views.graph = gv;
  const ginfo = el('div', {class: 'pt-info', id: 'pt-ginfo'}, ' ');
  gv.appendChild(ginfo);
  const gwrap = el('div', {id: 'pt-gwrap'});
  gv.appendChild(gwrap);

  /* the keys */
  const help = el('div', {id: 'pt-help', hidden: '', role: 'dialog'});
  document.body.appendChild(help);
  help.appendChild(el('h2', null, 'Keys'));
  const keyTable = el('table', {class: 'pt-mini'});
  for (const [k, what] of [
    ['?', 'show or hide these keys'], ['/', 'search (the table: filter)'],
    ['Esc', 'reset the zoom, close this'], ['1 2 3 4 5', 'flame graph, time order, table, sandwich, graph'],
    ['\u2190 \u2191 \u2192 \u2193', 'walk the frames of the flame graph'], ['Enter', 'zoom into the selected frame'],
    ['s', 'sandwich of the selected function (a frame, or the table\u2019s row)'],
    ['f', 'focus: keep the stacks with the selected function'], ['i', 'ignore: drop the stacks with it'],
    ['h', 'hide: take its frames out of the stacks'], ['w', 'show: keep only its frames'],
    ['u', 'undo the last refinement'],
    ['wheel, drag', 'time order: zoom at the pointer, pan; the minimap moves the view']]) {
    const r = keyTable.appendChild(el('tr'));
    r.appendChild(el('td', {class: 'pt-key'}, k));
    r.appendChild(el('td', null, what));
  }
  help.appendChild(keyTable);
  help.appendChild(el('p', null, 'Clicking a frame selects and zooms it; its buttons (and a table row\u2019s, a graph node\u2019s) ' +
    'open its sandwich or refine every view by it. The state is in the address: a link shows the same.'));
  help.addEventListener('click', () => { help.hidden = true; });
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
    const width = Math.max(200, fv.clientWidth || 1200);
    rects = layout(width);
    let md = 0;
    for (const r of rects) if (r.d > md) md = r.d;
    const height = (md + 1) * ROW;
    const g = canvasSize(canvas, width, height);
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
    actions(frameActs, state.sel > 0 ? T.fn[state.sel] : -1);
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
   * of the same function above them); a function's cum (FV.cum: top's exact one, or
   * the refined tree's) less this is what the writer's pruning folded into frames above it. */
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
    for (let f = 0; f < NF; f++) lost[f] = Math.max(0, FV.cum[t][f] - once[f]);
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
      lo = Math.max(lo, FV.cum[t][f]);
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


  /* ---- refine (pprof -http's REFINE): focus keeps the stacks with a matching
   * function, ignore drops them, hide takes the matching frames out of every stack,
   * show keeps only them; each a regular expression over function names, as top's
   * --focus, --ignore, --hide and --show take it. The refined tree is made from the
   * page's tree (what --min-fraction kept), and every view draws from it. ---- */
  let nodeMap = null, nodeKept = null; /* page node -> refined node; its self kept */
  const escapeRe = (x) => x.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  const fnRe = (f) => '^' + escapeRe(fname(f)) + '$';
  /* per function of a tree: flat (its nodes' self) and cum (its nodes with no node of
   * the same function above them), and caller -> callee pairs once per stack */
  function treeValues(tr) {
    const n0 = tr.parent.length, flat = [], cum = [];
    const pairs = new Map(), onFn = new Uint32Array(NF), onPair = new Map();
    const c = [];
    for (let t = 0; t < NT; t++) {
      const x = Float64Array.from(tr.self[t]);
      for (let n = n0 - 1; n > 0; n--) x[tr.parent[n]] += x[n];
      c.push(x);
      flat.push(new Float64Array(NF));
      cum.push(new Float64Array(NF));
    }
    const kc = new Array(n0).fill(null);
    for (let n = n0 - 1; n > 0; n--) (kc[tr.parent[n]] || (kc[tr.parent[n]] = [])).push(n);
    const stack = [0];
    while (stack.length) {
      const n = stack.pop();
      if (n < 0) {
        const m = ~n, f = tr.fn[m];
        onFn[f]--;
        if (tr.parent[m]) { const k = tr.fn[tr.parent[m]] * NF + f; onPair.set(k, onPair.get(k) - 1); }
        continue;
      }
      if (n) {
        const f = tr.fn[n];
        for (let t = 0; t < NT; t++) {
          flat[t][f] += tr.self[t][n];
          if (!onFn[f]) cum[t][f] += c[t][n];
        }
        onFn[f]++;
        if (tr.parent[n]) {
          const k = tr.fn[tr.parent[n]] * NF + f, on = onPair.get(k) || 0;
          if (!on) {
            let v = pairs.get(k);
            if (!v) pairs.set(k, v = new Float64Array(NT));
            for (let t = 0; t < NT; t++) v[t] += c[t][n];
          }
          onPair.set(k, on + 1);
        }
        stack.push(~n);
      }
      for (const k of kc[n] || []) stack.push(k);
    }
    const E = {from: [], to: [], v: []};
    for (let t = 0; t < NT; t++) E.v.push([]);
    for (const [k, v] of pairs) {
      E.from.push(Math.floor(k / NF));
      E.to.push(k % NF);
      for (let t = 0; t < NT; t++) E.v[t].push(v[t]);
    }
    return {flat, cum, totals: c.map((x) => x[0]), edges: E};
  }
  function matchers(R) {
    return R.map((r) => {
      const re = new RegExp(r.re), m = new Uint8Array(NF);
      for (let f = 0; f < NF; f++) m[f] = re.test(fname(f)) ? 1 : 0;
      return {op: r.op, m};
    });
  }
  function refineTree(R) {
    const n0 = T0.parent.length;
    const ms = matchers(R);
    const shows = ms.filter((x) => x.op === 'show');
    const focus = ms.filter((x) => x.op === 'focus');
    /* per page node: which focus patterns its path has met (a bit each, at most 31
     * counted) and whether an ignore pattern has */
    const met = new Uint32Array(n0), ign = new Uint8Array(n0), need = (1 << Math.min(focus.length, 31)) - 1;
    const map = new Int32Array(n0), kept = new Uint8Array(n0);
    const tr = {parent: [0], fn: [0], self: []};
    for (let t = 0; t < NT; t++) tr.self.push([T0.self[t][0]]);
    const index = new Map();
    kept[0] = need === 0 ? 1 : 0;
    for (let n = 1; n < n0; n++) {
      const p = T0.parent[n], f = T0.fn[n];
      let bits = met[p], ig = ign[p], hide = false;
      focus.forEach((x, i) => { if (x.m[f] && i < 31) bits |= 1 << i; });
      for (const x of ms) {
        if (x.op === 'ignore' && x.m[f]) ig = 1;
        if (x.op === 'hide' && x.m[f]) hide = true;
      }
      if (shows.length && !shows.some((x) => x.m[f])) hide = true;
      met[n] = bits;
      ign[n] = ig;
      let m = map[p];
      if (!hide) {
        const k = m * NF + f;
        let c = index.get(k);
        if (c === undefined) {
          c = tr.parent.length;
          index.set(k, c);
          tr.parent.push(m);
          tr.fn.push(f);
          for (let t = 0; t < NT; t++) tr.self[t].push(0);
        }
        m = c;
      }
      map[n] = m;
      kept[n] = (bits & need) === need && !ig ? 1 : 0;
      if (kept[n]) for (let t = 0; t < NT; t++) tr.self[t][m] += T0.self[t][n];
    }
    /* the root's own value (what the writer folded into it) stays only unrefined */
    if (need || ms.some((x) => x.op === 'ignore')) for (let t = 0; t < NT; t++) tr.self[t][0] = 0;
    nodeMap = map;
    nodeKept = kept;
    return tr;
  }
  /* The source lines of the refined profile, from the tree by line the writer adds
   * ("ltree": each node a line of its function, under a drawn node), refined as
   * refineTree refines the drawn tree: a hidden frame's self goes to the line of the
   * frame above it, and a line counts once per stack, as method counts it. Null when
   * the page has no such tree (the lines stay the whole profile's). */
  function refineLines(R) {
    const LT = D.ltree;
    if (!LT || !D.lines) return null;
    const n0 = LT.parent.length, ms = matchers(R), nl = D.lines.fn.length;
    const shows = ms.filter((x) => x.op === 'show'), focus = ms.filter((x) => x.op === 'focus');
    const need = (1 << Math.min(focus.length, 31)) - 1;
    const met = new Uint32Array(n0), ign = new Uint8Array(n0), vis = new Uint32Array(n0);
    const kept = new Uint8Array(n0);
    kept[0] = need === 0 ? 1 : 0;
    for (let k = 1; k < n0; k++) {
      const p = LT.parent[k], f = T0.fn[LT.node[k]];
      let bits = met[p], ig = ign[p], hide = shows.length > 0 && !shows.some((x) => x.m[f]);
      focus.forEach((x, i) => { if (x.m[f] && i < 31) bits |= 1 << i; });
      for (const x of ms) {
        if (x.op === 'ignore' && x.m[f]) ig = 1;
        if (x.op === 'hide' && x.m[f]) hide = true;
      }
      met[k] = bits;
      ign[k] = ig;
      vis[k] = hide ? vis[p] : k; /* the frame drawn for it: itself, or the one above */
      kept[k] = (bits & need) === need && !ig ? 1 : 0;
    }
    const self = [], cum = [], ks = new Array(n0).fill(null);
    for (let k = n0 - 1; k > 0; k--) (ks[LT.parent[k]] || (ks[LT.parent[k]] = [])).push(k);
    for (let t = 0; t < NT; t++) {
      const sub = new Float64Array(n0), ls = new Float64Array(nl), lc = new Float64Array(nl);
      for (let k = 0; k < n0; k++) {
        if (!kept[k]) continue;
        sub[k] = LT.self[t][k];
        const line = LT.line[vis[k]];
        if (line) ls[line - 1] += LT.self[t][k];
      }
      for (let k = n0 - 1; k > 0; k--) sub[LT.parent[k]] += sub[k];
      /* a drawn line node counts where no drawn node above it has its line */
      const on = new Uint32Array(nl + 1), stack = [0];
      while (stack.length) {
        const k = stack.pop();
        if (k < 0) { on[LT.line[~k]]--; continue; }
        const line = LT.line[k];
        if (k && line && vis[k] === k) {
          if (!on[line]) lc[line - 1] += sub[k];
          on[line]++;
          stack.push(~k);
        }
        for (const c of ks[k] || []) stack.push(c);
      }
      self.push(ls);
      cum.push(lc);
    }
    return {fn: D.lines.fn, line: D.lines.line, self, cum};
  }
  let LINES = D.lines;
  function applyRefine() {
    refineBar.textContent = '';
    refineBar.hidden = !state.refine.length;
    if (!T0) return;
    if (!state.refine.length) {
      nodeMap = nodeKept = null;
      setTree(T0);
      FV = {flat: FN.flat, cum: FN.cum};
      TOT = D.totals;
      EDG = D.edges;
      LINES = D.lines;
    } else {
      setTree(refineTree(state.refine));
      const v = treeValues(T);
      FV = {flat: v.flat, cum: v.cum};
      TOT = v.totals;
      EDG = v.edges;
      LINES = refineLines(state.refine) || D.lines;
      refineBar.appendChild(el('span', null, 'Refined:'));
      state.refine.forEach((r, i) => {
        const b = el('button', {type: 'button', class: 'pt-chip', 'data-op': r.op,
          title: 'take this refinement away'}, r.op + ' ' + r.re + ' \u00d7');
        b.addEventListener('click', () => { state.refine.splice(i, 1); refined(); });
        refineBar.appendChild(b);
      });
      const all = el('button', {type: 'button', id: 'pt-unrefine'}, 'Reset refinements');
      all.addEventListener('click', () => { state.refine = []; refined(); });
      refineBar.appendChild(all);
    }
  }
  function refined() {
    state.zoom = 0;
    state.sel = -1;
    trects = null;
    applyRefine();
    setSearch(search.value);
    drawTotal();
    show(state.view);
  }
  function addRefine(op, re) {
    try { new RegExp(re); } catch (e) { return; }
    state.refine.push({op, re});
    refined();
  }
  /* the buttons for one function: sandwich and the four refinements */
  function actions(box, f) {
    box.textContent = '';
    if (f < 0 || !T0) return;
    const sw = el('button', {type: 'button', 'data-op': 'sandwich', title: 'callers and callees (s)'}, 'Sandwich');
    sw.addEventListener('click', () => sandwich(f));
    box.appendChild(sw);
    for (const op of REFINE_OPS) {
      const b = el('button', {type: 'button', 'data-op': op, title: op + ' ' + fname(f) + ' (' + op[0] + ')'}, op);
      b.addEventListener('click', () => addRefine(op, fnRe(f)));
      box.appendChild(b);
    }
  }

  /* ---- sandwich: one function's callers and callees, each merged into a tree of
   * functions valued like the flame graph (a stack counts at its first frame of the
   * function, so the function's total is its cum) ---- */
  function newTree() { return {parent: [0], fn: [-1], v: [0], index: new Map()}; }
  function child(tr, p, f, v) {
    const k = p * NF + f;
    let c = tr.index.get(k);
    if (c === undefined) {
      c = tr.parent.length;
      tr.index.set(k, c);
      tr.parent.push(p);
      tr.fn.push(f);
      tr.v.push(0);
    }
    tr.v[c] += v;
    return c;
  }
  function sandwichTrees(f, t) {
    const cum = cumOf(t), up = newTree(), down = newTree();
    up.fn[0] = down.fn[0] = f;
    const onF = [0];
    const stack = [0];
    while (stack.length) {
      const n = stack.pop();
      if (n < 0) { onF[0]--; continue; }
      if (n && T.fn[n] === f) {
        if (!onF[0] && cum[n]) {
          up.v[0] += cum[n];
          down.v[0] += cum[n];
          let c = 0;
          for (let a = T.parent[n]; a !== 0; a = T.parent[a]) c = child(up, c, T.fn[a], cum[n]);
          const sub = [[n, 0]];
          while (sub.length) {
            const [m, dm] = sub.pop();
            for (const k of kids[m] || []) if (cum[k]) sub.push([k, child(down, dm, T.fn[k], cum[k])]);
          }
        }
        onF[0]++;
        stack.push(~n);
      }
      for (const k of kids[n] || []) stack.push(k);
    }
    return [up, down];
  }
  /* a tree {parent, fn, v} drawn on a canvas, its root at the top (or the bottom,
   * inverted), children by name; returns the frames drawn */
  function drawTreeOn(cv, tr, inverted) {
    const width = Math.max(200, sv.clientWidth || 1200), n0 = tr.parent.length;
    const ks = new Array(n0).fill(null), out = [];
    for (let n = 1; n < n0; n++) (ks[tr.parent[n]] || (ks[tr.parent[n]] = [])).push(n);
    const total = tr.v[0] || 1;
    const stack = [[0, 0, 0]];
    while (stack.length) {
      const [n, x, d] = stack.pop();
      const w = tr.v[n] / total * width;
      if (w < 0.25) continue;
      out.push({n, x, w, d, f: tr.fn[n], name: fname(tr.fn[n]), v: tr.v[n]});
      let at = x;
      const cs = (ks[n] || []).slice().sort((a, b) => {
        const p = fname(tr.fn[a]), q = fname(tr.fn[b]);
        return p < q ? -1 : p > q ? 1 : a - b;
      });
      for (const c of cs) { stack.push([c, at, d + 1]); at += tr.v[c] / total * width; }
    }
    let md = 0;
    for (const r of out) if (r.d > md) md = r.d;
    const height = (md + 1) * ROW;
    const g = canvasSize(cv, width, height);
    for (const r of out) {
      r.y = inverted ? (md - r.d) * ROW : r.d * ROW;
      g.fillStyle = r.d === 0 ? 'rgb(230,0,230)' : hot(r.name);
      g.fillRect(r.x, r.y, Math.max(r.w - 0.5, 0.5), ROW - 1);
      const room = Math.floor((r.w - 6) / 7);
      if (room >= 3) {
        g.fillStyle = '#000';
        g.fillText(r.name.length > room ? r.name.slice(0, room - 2) + '..' : r.name, r.x + 3, r.y + ROW / 2);
      }
    }
    cv.rects = out;
    return out;
  }
  function drawSandwich() {
    const f = state.sfn;
    scallers.rects = scallees.rects = [];
    if (f < 0) {
      stitle.textContent = 'Choose a function: Sandwich in the table\u2019s detail or on a frame, or type a pattern.';
      for (const cv of [scallers, scallees]) { cv.width = cv.height = 0; cv.style.height = '0'; }
      return;
    }
    const t = drawType(), tot = TOT[t];
    stitle.textContent = flabel(f) + ': total ' + fmt(FV.cum[t][f], t) + ' (' + pct(FV.cum[t][f], tot) +
      '), self ' + fmt(FV.flat[t][f], t) + ' (' + pct(FV.flat[t][f], tot) + ')';
    const [up, down] = sandwichTrees(f, t);
    drawTreeOn(scallers, up, true);
    drawTreeOn(scallees, down, false);
  }
  function sandwich(f) {
    state.sfn = f;
    show('sandwich');
  }
  sfilter.addEventListener('change', () => {
    let re;
    try { re = new RegExp(sfilter.value); } catch (e) { return; }
    let best = -1;
    const t = drawType();
    for (let f = 0; f < NF; f++) if (re.test(fname(f)) && (best < 0 || FV.cum[t][f] > FV.cum[t][best])) best = f;
    if (best >= 0) sandwich(best);
  });
  for (const cv of [scallers, scallees]) {
    const at = (ev) => {
      const b = cv.getBoundingClientRect(), x = ev.clientX - b.left, y = ev.clientY - b.top;
      return (cv.rects || []).find((r) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + ROW);
    };
    cv.addEventListener('mousemove', (ev) => {
      const r = at(ev);
      if (!r) { tip.hidden = true; return; }
      const t = drawType();
      tip.textContent = flabel(r.f) + '\n' +
        fmt(r.v, t) + ' (' + pct(r.v, cv.rects[0].v) + ' of ' + fname(state.sfn) + ')';
      tip.hidden = false;
      tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - tip.offsetWidth - 4) + 'px';
      tip.style.top = (ev.clientY + window.scrollY + 14) + 'px';
    });
    cv.addEventListener('mouseleave', () => { tip.hidden = true; });
    /* a click on another function makes it the middle */
    cv.addEventListener('click', (ev) => {
      const r = at(ev);
      if (r && r.d) sandwich(r.f);
    });
  }


  /* ---- call graph: the graph --to dot draws (its nodes, edges and pruning come from
   * the writer, analysis/graph's rule), laid out here in layers: cycles broken by a
   * depth-first walk from the heaviest nodes, each node a layer below its deepest
   * caller, each layer ordered by its neighbours' mean position a few sweeps down and
   * up (Sugiyama's scheme, simply). ---- */
  let gnodes = [], gedges = [];
  /* SVG's namespace, from the parser (the page holds no address, t5050 checks) */
  const SVG = (() => {
    const d = document.createElement('div');
    d.innerHTML = '<svg></svg>';
    return d.firstChild.namespaceURI;
  })();
  const sel = (tag, attrs) => {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  };
  function graphLayout(n, E) {
    const out = Array.from({length: n}, () => []);
    for (const e of E) if (e.a !== e.b) out[e.a].push(e);
    /* back edges: those closing a cycle of the walk (nodes are heaviest first) */
    const mark = new Uint8Array(n);
    for (let s = 0; s < n; s++) {
      if (mark[s]) continue;
      const st = [[s, 0]];
      mark[s] = 1;
      while (st.length) {
        const top = st[st.length - 1], es = out[top[0]];
        if (top[1] >= es.length) { mark[top[0]] = 2; st.pop(); continue; }
        const e = es[top[1]++];
        if (mark[e.b] === 1) e.back = true;
        else if (!mark[e.b]) { mark[e.b] = 1; st.push([e.b, 0]); }
      }
    }
    /* layers: the longest path from a node with no caller, in topological order */
    const indeg = new Uint32Array(n), layer = [];
    for (let i = 0; i < n; i++) layer.push(0);
    const fwd = E.filter((e) => e.a !== e.b).map((e) => (e.back ? {a: e.b, b: e.a, e} : {a: e.a, b: e.b, e}));
    for (const f of fwd) indeg[f.b]++;
    const q = [];
    for (let i = 0; i < n; i++) if (!indeg[i]) q.push(i);
    const succ = Array.from({length: n}, () => []);
    for (const f of fwd) succ[f.a].push(f.b);
    for (let k = 0; k < q.length; k++) {
      for (const b of succ[q[k]]) {
        layer[b] = Math.max(layer[b], layer[q[k]] + 1);
        if (--indeg[b] === 0) q.push(b);
      }
    }
    /* an edge over several layers goes through a dummy vertex in each layer between
     * (ids from n on): the ordering places them, so no edge is drawn across a node */
    const up = [], down = [];
    for (let v = 0; v < n; v++) { up.push([]); down.push([]); }
    for (const f of fwd) {
      let u = f.a;
      f.e.chain = [];
      for (let l = layer[f.a] + 1; l < layer[f.b]; l++) {
        const d = layer.length;
        layer.push(l);
        up.push([u]);
        down.push([]);
        down[u].push(d);
        f.e.chain.push(d);
        u = d;
      }
      down[u].push(f.b);
      up[f.b].push(u);
    }
    const nv = layer.length, layers = [];
    for (let v = 0; v < nv; v++) (layers[layer[v]] || (layers[layer[v]] = [])).push(v);
    for (let l = 0; l < layers.length; l++) if (!layers[l]) layers[l] = [];
    /* each layer ordered by its neighbours' mean position in the layer above (sweeps
     * down) or below (sweeps up) */
    const pos = new Float64Array(nv);
    layers.forEach((ly) => ly.forEach((v, i) => { pos[v] = i; }));
    for (let sweep = 0; sweep < 8; sweep++) {
      const order = sweep % 2 ? layers.slice().reverse() : layers, nb = sweep % 2 ? down : up;
      for (const ly of order) {
        const key = new Map();
        for (const v of ly) key.set(v, nb[v].length ? nb[v].reduce((x, u) => x + pos[u], 0) / nb[v].length : pos[v]);
        ly.sort((x, y) => key.get(x) - key.get(y) || pos[x] - pos[y]);
        ly.forEach((v, i) => { pos[v] = i; });
      }
    }
    return {layer, layers, nv};
  }
  /* The graph of the refined tree, by the writer's rule (analysis/graph.c): the
   * functions with a value whose |cum| reaches --node-fraction of the total, heaviest
   * first (cum, flat, name), --nodecount of them; an edge from the nearest kept
   * function above a kept node, valued once per stack, residual when no occurrence
   * joins a node to its parent; edges below --edge-fraction dropped. */
  function refinedGraph(t) {
    const [nodecount, nodeFrac, edgeFrac] = D.graph.opts, tot = TOT[t];
    const ncut = Math.trunc(Math.abs(tot * nodeFrac)), ecut = Math.trunc(Math.abs(tot * edgeFrac));
    const ns = [];
    for (let f = 0; f < NF; f++) {
      if (!FV.cum[t][f] && !FV.flat[t][f]) continue;
      if (Math.abs(FV.cum[t][f]) >= ncut) ns.push(f);
    }
    ns.sort((a, b) => FV.cum[t][b] - FV.cum[t][a] || FV.flat[t][b] - FV.flat[t][a] ||
      (fname(a) < fname(b) ? -1 : fname(a) > fname(b) ? 1 : a - b));
    if (nodecount > 0 && ns.length > nodecount) ns.length = nodecount;
    const keep = new Uint8Array(NF), cum = cumOf(t), edges = new Map(), on = new Map(), left = new Map();
    for (const f of ns) keep[f] = 1;
    /* depth first: each level the nearest kept node at or above it */
    const anc = new Int32Array(N), stack = [0];
    anc[0] = 0;
    while (stack.length) {
      const n = stack.pop();
      if (n < 0) { const k = left.get(~n); if (k !== undefined) on.set(k, on.get(k) - 1); continue; }
      let a = n ? anc[T.parent[n]] : 0;
      if (n && keep[T.fn[n]]) {
        if (a) {
          const from = T.fn[a], to = T.fn[n], key = from * NF + to, c = on.get(key) || 0;
          const direct = a === T.parent[n];
          let e = edges.get(key);
          if (!e && (!c || direct)) edges.set(key, e = {from, to, w: 0, res: 1});
          if (e && direct) e.res = 0;
          if (!c) e.w += cum[n];
          on.set(key, c + 1);
          left.set(n, key);
        }
        a = n;
      }
      anc[n] = a;
      stack.push(~n);
      for (const k of kids[n] || []) stack.push(k);
    }
    const E = [];
    for (const e of edges.values()) if (e.w && Math.abs(e.w) >= ecut) E.push(e);
    return {ns, E};
  }
  function drawGraph() {
    const G = D.graph, t = drawType(), tot = TOT[t] || 1, R = state.refine.length && T;
    const src = R ? refinedGraph(t) : {ns: G.n[t], E: G.from[t].map((a, k) => ({from: a, to: G.to[t][k],
      w: G.w[t][k], res: G.res[t][k]}))};
    const ns = src.ns, idx = new Map();
    ns.forEach((f, i) => idx.set(f, i));
    const E = src.E.map((e) => ({a: idx.get(e.from), b: idx.get(e.to), w: e.w, res: e.res}));
    const n = ns.length, {layers, nv} = graphLayout(n, E);
    gedges = E;
    let maxflat = 0;
    for (const f of ns) maxflat = Math.max(maxflat, Math.abs(FV.flat[t][f]));
    gnodes = ns.map((f) => {
      const fs = 10 + Math.round(14 * (maxflat ? Math.abs(FV.flat[t][f]) / maxflat : 0));
      const name = fname(f), lines = [name.length > 40 ? name.slice(0, 38) + '..' : name,
        fmt(FV.flat[t][f], t) + ' (' + pct(FV.flat[t][f], tot) + ')',
        'of ' + fmt(FV.cum[t][f], t) + ' (' + pct(FV.cum[t][f], tot) + ')'];
      const wd = Math.max(...lines.map((l, i) => l.length * (i ? 6.5 : fs * 0.6))) + 12;
      return {f, fs, lines, wd, ht: fs + 30, x: 0, y: 0};
    });
    /* a dummy vertex: a narrow slot its edge passes through */
    for (let v = n; v < nv; v++) gnodes.push({dummy: true, wd: 4, ht: 0, x: 0, y: 0});
    /* a node calling itself: its loop on its right, room made for it */
    for (const e of E) if (e.a === e.b) gnodes[e.a].loop = 26;
    const GAPX = 24, GAPY = 60;
    const gap = (u, v) => (gnodes[u].loop || 0) + (gnodes[u].dummy || gnodes[v].dummy ? 8 : GAPX);
    let y = 10, width = 0;
    const rows = layers.map((ly) => {
      const w = ly.reduce((s, v, i) => s + gnodes[v].wd + (i ? gap(ly[i - 1], v) : 0), 0);
      const h = ly.reduce((s, v) => Math.max(s, gnodes[v].ht), 0);
      width = Math.max(width, w);
      const r = {ly, w, h, y};
      y += h + GAPY;
      return r;
    });
    for (const r of rows) {
      let x = 10 + (width - r.w) / 2;
      r.ly.forEach((v, i) => {
        const g = gnodes[v];
        if (i) x += gap(r.ly[i - 1], v);
        g.x = x;
        g.y = r.y + (r.h - g.ht) / 2;
        g.row = r;
        x += g.wd;
      });
    }
    const dummies = gnodes.splice(n);
    gwrap.textContent = '';
    const svg = sel('svg', {width: width + 20, height: y, id: 'pt-gsvg'});
    const defs = sel('defs', {});
    const mk = sel('marker', {id: 'pt-arrow', viewBox: '0 0 10 10', refX: '10', refY: '5',
      markerWidth: '8', markerHeight: '8', markerUnits: 'userSpaceOnUse', orient: 'auto-start-reverse'});
    mk.appendChild(sel('path', {d: 'M0,0 L10,5 L0,10 z', fill: '#666'}));
    defs.appendChild(mk);
    svg.appendChild(defs);
    /* an edge: straight down through its own column of each row it crosses (the
     * caller's, the dummies', the callee's), curved between rows, where no node is */
    const cx = (g) => g.x + g.wd / 2;
    function route(e) {
      const a = gnodes[e.a], b = gnodes[e.b];
      if (e.a === e.b) return 'M' + (a.x + a.wd) + ',' + (a.y + 6) + ' c30,0 30,' + (a.ht - 12) + ' 0,' + (a.ht - 12);
      const top = e.back ? b : a, bot = e.back ? a : b;
      const spans = [[cx(top), top.y + top.ht, top.row.y + top.row.h]];
      for (const d of e.chain || []) {
        const g = dummies[d - n];
        spans.push([cx(g), g.row.y, g.row.y + g.row.h]);
      }
      spans.push([cx(bot), bot.row.y, bot.y]);
      if (e.back) spans.reverse().forEach((sp) => { const t0 = sp[1]; sp[1] = sp[2]; sp[2] = t0; });
      let d = 'M' + spans[0][0] + ',' + spans[0][1] + ' L' + spans[0][0] + ',' + spans[0][2];
      for (let k = 1; k < spans.length; k++) {
        const [x0, , y0] = spans[k - 1], [x1, y1, y2] = spans[k], m = (y0 + y1) / 2;
        d += ' C' + x0 + ',' + m + ' ' + x1 + ',' + m + ' ' + x1 + ',' + y1 + ' L' + x1 + ',' + y2;
      }
      return d;
    }
    for (const e of E) {
      const frac = Math.min(1, Math.abs(e.w) / tot), d = route(e);
      const c = Math.round(200 * (1 - Math.pow(frac, 0.3)));
      const path = sel('path', {d, fill: 'none', stroke: 'rgb(200,' + c + ',' + c + ')',
        'stroke-width': (1 + 5 * frac).toFixed(2), 'marker-end': 'url(#pt-arrow)'});
      if (e.res) path.setAttribute('stroke-dasharray', '3,3');
      path.setAttribute('data-a', String(e.a));
      path.setAttribute('data-b', String(e.b));
      const title = sel('title', {});
      title.textContent = fname(ns[e.a]) + ' \u2192 ' + fname(ns[e.b]) + ': ' + fmt(e.w, t);
      path.appendChild(title);
      svg.appendChild(path);
    }
    for (const g of gnodes) {
      const frac = Math.min(1, Math.abs(FV.cum[t][g.f]) / tot), c = Math.round(240 - 60 * Math.pow(frac, 0.3));
      const grp = sel('g', {class: 'pt-gnode', 'data-fn': String(g.f), transform: 'translate(' + g.x + ',' + g.y + ')'});
      grp.appendChild(sel('rect', {width: g.wd, height: g.ht, rx: 3, fill: 'rgb(255,' + c + ',' + c + ')', stroke: '#888'}));
      g.lines.forEach((l, i) => {
        const tx = sel('text', {x: g.wd / 2, y: i ? g.fs + 6 + 12 * i : g.fs, 'text-anchor': 'middle',
          'font-size': i ? 11 : g.fs});
        tx.textContent = l;
        grp.appendChild(tx);
      });
      grp.addEventListener('click', () => {
        ginfo.textContent = '';
        delete ginfo.dataset.auto;
        ginfo.appendChild(document.createTextNode(flabel(g.f) + '  '));
        actions(ginfo.appendChild(el('span', {class: 'pt-acts'})), g.f);
      });
      svg.appendChild(grp);
    }
    gwrap.appendChild(svg);
    if (ginfo.textContent === ' ' || !ginfo.firstChild || ginfo.dataset.auto) {
      ginfo.textContent = n + ' nodes, ' + E.length + ' edges (--nodecount, --node-fraction and --edge-fraction' +
        ' choose them, as for --to dot)' + (R ? ', of the refined profile' : '');
      ginfo.dataset.auto = '1';
    }
  }

  /* ---- time order: each thread's runs at their times (a run lasts until the next run
   * of its thread starts), its calls drawn as a flame chart; threads stacked, or one
   * chosen; a ruler in time from the profile's start, wheel zoom, drag pan, a
   * minimap of the whole span ---- */
  const TL = D.timeline;
  const ruler = el('canvas', {id: 'pt-ruler'});
  const minimap = el('canvas', {id: 'pt-minimap', title: 'the whole profile: click or drag to move the view'});
  tv.insertBefore(minimap, tcanvas);
  tv.insertBefore(ruler, tcanvas);
  let trects = null, tkey = '', axisInfo = null;
  let span = [0, 1];
  if (TL) {
    const used = new Set(TL.g);
    groupSel.appendChild(el('option', {value: '-1'}, 'all threads, stacked'));
    TL.groups.forEach((name, i) => {
      if (!used.has(i)) return;
      groupSel.appendChild(el('option', {value: String(i)}, name || '(all samples)'));
    });
    state.group = -1;
    if (groupSel.options.length < 3) groupSel.hidden = true;
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < TL.t0.length; i++) { lo = Math.min(lo, TL.t0[i]); hi = Math.max(hi, TL.t1[i]); }
    span = lo <= hi ? [lo, hi > lo ? hi : lo + 1] : [0, 1];
  }
  /* the spans of one group: [node, t0, t1, depth], nodes of the tree drawn */
  function laneLayout(g, t) {
    const out = [], open = [], path = [], v = TL.v[t];
    const idx = [];
    for (let i = 0; i < TL.node.length; i++) {
      if (TL.g[i] !== g || v[i] <= 0) continue;
      if (nodeKept && !nodeKept[TL.node[i]]) continue;
      idx.push(i);
    }
    /* a run lasts until the next one starts; the last until its last event and as long
     * again as the thread's mean gap between runs */
    const gap = idx.length > 1 ? (TL.t0[idx[idx.length - 1]] - TL.t0[idx[0]]) / (idx.length - 1) : (span[1] - span[0]) / 100;
    let end = 0;
    const close = (keep) => {
      while (open.length > keep) {
        const [n, x0] = open.pop();
        out.push({n, x0, x1: end, d: open.length + 1});
      }
    };
    idx.forEach((i, k) => {
      const node = nodeMap ? nodeMap[TL.node[i]] : TL.node[i];
      path.length = 0;
      for (let a = node; a !== 0; a = T.parent[a]) path.push(a);
      path.reverse();
      let common = 0;
      while (common < path.length && common < open.length && open[common][0] === path[common]) common++;
      end = TL.t0[i];
      close(common);
      for (let d = common; d < path.length; d++) open.push([path[d], TL.t0[i]]);
      end = k + 1 < idx.length ? TL.t0[idx[k + 1]] : Math.max(TL.t1[i], TL.t0[i]) + gap;
    });
    close(0);
    let md = 0;
    for (const r of out) if (r.d > md) md = r.d;
    out.depth = md;
    out.end = end;
    return out;
  }
  function timeLayout() {
    const t = state.type, key = t + '/' + state.group;
    if (trects && tkey === key) return trects;
    const lanes = [];
    const gs = state.group >= 0 ? [state.group] : [...new Set(TL.g)].sort((a, b) => a - b);
    for (const g of gs) {
      const spans = laneLayout(g, t);
      if (spans.length) lanes.push({g, spans});
    }
    trects = lanes;
    tkey = key;
    return lanes;
  }
  /* ticks: 1, 2 or 5 times a power of ten, 6 to 15 across the view */
  function tickStep(range) {
    const raw = range / 10, p = Math.pow(10, Math.floor(Math.log10(raw)));
    return [1, 2, 5, 10].map((k) => k * p).find((s) => range / s <= 15) || 10 * p;
  }
  function fmtTime(ns) {
    const a = Math.abs(ns);
    if (a === 0) return '0';
    if (a < 1e3) return f2(ns, 'ns');
    if (a < 1e6) return f2(ns / 1e3, 'us');
    if (a < 1e9) return f2(ns / 1e6, 'ms');
    return f2(ns / 1e9, 's');
  }
  function canvasSize(cv, width, height) {
    const dpr = window.devicePixelRatio || 1;
    cv.width = Math.round(width * dpr);
    cv.height = Math.round(height * dpr);
    cv.style.width = width + 'px';
    cv.style.height = height + 'px';
    const g = cv.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, width, height);
    g.font = '12px Verdana, sans-serif';
    g.textBaseline = 'middle';
    return g;
  }
  function drawTime() {
    if (!TL) return;
    const lanes = timeLayout();
    const width = Math.max(200, tv.clientWidth || 1200);
    const [z0, z1] = state.tzoom || span;
    const scale = width / ((z1 - z0) || 1);
    /* the ruler: times from the profile's start */
    const rg = canvasSize(ruler, width, 22), step = tickStep(z1 - z0);
    rg.fillStyle = '#333';
    rg.strokeStyle = '#999';
    const ticks = [];
    for (let x = Math.ceil((z0 - span[0]) / step) * step; x <= z1 - span[0]; x += step) {
      const px = (x + span[0] - z0) * scale;
      rg.beginPath();
      rg.moveTo(px + 0.5, 14);
      rg.lineTo(px + 0.5, 22);
      rg.stroke();
      rg.fillText(fmtTime(x), Math.min(px + 2, width - 50), 7);
      ticks.push(x);
    }
    axisInfo = {start: span[0], end: span[1], span: span[1] - span[0], from: z0, to: z1, ticks,
      lanes: lanes.map((l) => TL.groups[l.g] || '(all samples)')};
    ruler.dataset.span = String(span[1] - span[0]);
    /* the minimap: every lane's activity over the whole span, the view outlined */
    const mg = canvasSize(minimap, width, 30), ms = width / (span[1] - span[0]);
    mg.fillStyle = '#f4f4f4';
    mg.fillRect(0, 0, width, 30);
    lanes.forEach((l, k) => {
      const h = 30 / lanes.length;
      mg.fillStyle = 'rgb(220,120,40)';
      for (const r of l.spans) if (r.d === 1) mg.fillRect((r.x0 - span[0]) * ms, k * h, Math.max((r.x1 - r.x0) * ms, 0.5), Math.max(h - 1, 1));
    });
    mg.strokeStyle = '#036';
    mg.lineWidth = 2;
    mg.strokeRect((z0 - span[0]) * ms + 1, 1, Math.max((z1 - z0) * ms - 2, 2), 28);
    /* the lanes, stacked */
    let height = 0;
    for (const l of lanes) height += (l.spans.depth + 1) * ROW + (lanes.length > 1 ? ROW : 0);
    const g = canvasSize(tcanvas, width, height);
    tcanvas.rects = [];
    let y0 = 0;
    for (const l of lanes) {
      if (lanes.length > 1) {
        g.fillStyle = '#036';
        g.fillText(TL.groups[l.g] || '(all samples)', 3, y0 + ROW / 2);
        y0 += ROW;
      }
      for (const r of l.spans) {
        if (r.x1 <= z0 || r.x0 >= z1) continue;
        const x = (r.x0 - z0) * scale, w = (r.x1 - r.x0) * scale;
        if (w < 0.25) continue;
        const y = y0 + (r.d - 1) * ROW;
        const name = fname(T.fn[r.n]);
        g.fillStyle = matched && matched[r.n] ? 'rgb(230,0,230)' : hot(name);
        g.fillRect(x, y, Math.max(w - 0.5, 0.5), ROW - 1);
        const vis = Math.min(x + w, width) - Math.max(x, 0);
        if (vis > 30) {
          g.fillStyle = '#000';
          const room = Math.floor((vis - 6) / 7);
          if (room >= 3) g.fillText(name.length > room ? name.slice(0, room - 2) + '..' : name, Math.max(x, 0) + 3, y + ROW / 2);
        }
        tcanvas.rects.push({n: r.n, x, y, w, x0: r.x0, x1: r.x1});
      }
      y0 += (l.spans.depth + 1) * ROW;
    }
  }
  function trectAt(ev) {
    const b = tcanvas.getBoundingClientRect();
    const x = ev.clientX - b.left, y = ev.clientY - b.top;
    for (const r of tcanvas.rects || []) if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + ROW) return r;
    return null;
  }
  /* the view [z0, z1], kept within the span and at least a microsecond wide */
  function setView(z0, z1) {
    const w = Math.min(Math.max(z1 - z0, 1e3), span[1] - span[0]);
    z0 = Math.max(span[0], Math.min(z0, span[1] - w));
    state.tzoom = [z0, z0 + w];
    drawTime();
  }
  let drag = null;
  tcanvas.addEventListener('mousemove', (ev) => {
    if (drag) {
      const [z0, z1] = drag.view, dt = (ev.clientX - drag.x) / tcanvas.clientWidth * (z1 - z0);
      if (Math.abs(ev.clientX - drag.x) > 3) drag.moved = true;
      if (drag.moved) { setView(z0 - dt, z1 - dt); return; }
    }
    const r = trectAt(ev);
    if (!r) { tip.hidden = true; return; }
    tip.textContent = flabel(T.fn[r.n]) + '\n' + fmtTime(r.x1 - r.x0) + ' from ' + fmtTime(r.x0 - span[0]);
    tip.hidden = false;
    tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - tip.offsetWidth - 4) + 'px';
    tip.style.top = (ev.clientY + window.scrollY + 14) + 'px';
  });
  tcanvas.addEventListener('mouseleave', () => { tip.hidden = true; drag = null; });
  tcanvas.addEventListener('mousedown', (ev) => { drag = {x: ev.clientX, view: state.tzoom || span, moved: false}; });
  tcanvas.addEventListener('mouseup', (ev) => {
    const moved = drag && drag.moved;
    drag = null;
    if (moved) return;
    const r = trectAt(ev);
    if (r) setView(r.x0, r.x1);
  });
  tcanvas.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const [z0, z1] = state.tzoom || span, b = tcanvas.getBoundingClientRect();
    const at = z0 + (ev.clientX - b.left) / b.width * (z1 - z0), k = Math.pow(1.2, ev.deltaY > 0 ? 1 : -1);
    setView(at - (at - z0) * k, at + (z1 - at) * k);
  }, {passive: false});
  let mdrag = false;
  const toMini = (ev) => {
    const b = minimap.getBoundingClientRect(), [z0, z1] = state.tzoom || span;
    const at = span[0] + (ev.clientX - b.left) / b.width * (span[1] - span[0]);
    setView(at - (z1 - z0) / 2, at + (z1 - z0) / 2);
  };
  minimap.addEventListener('mousedown', (ev) => { mdrag = true; toMini(ev); });
  minimap.addEventListener('mousemove', (ev) => { if (mdrag) toMini(ev); });
  window.addEventListener('mouseup', () => { mdrag = false; });
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
      case 'flat': case 'flatp': return FV.flat[t][f];
      case 'cum': case 'cump': return FV.cum[t][f];
      case 'dflat': return FV.flat[t][f] - FV.flat[diff[0]][f];
      case 'dcum': return FV.cum[t][f] - FV.cum[diff[0]][f];
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
    const o1 = byCum ? FV.flat[t][a] : FV.cum[t][a], o2 = byCum ? FV.flat[t][b] : FV.cum[t][b];
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
    const tot = TOT[t];
    let fre = null;
    filter.classList.remove('pt-bad');
    try { if (state.filter) fre = new RegExp(state.filter, 'i'); } catch (e) { filter.classList.add('pt-bad'); }
    const rows = [];
    for (let f = 0; f < NF; f++) {
      const nz = FV.flat[t][f] || FV.cum[t][f] || (diff && (FV.flat[diff[0]][f] || FV.cum[diff[0]][f]));
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
  if (D.edges && D.edges.otherCallers) D.edges.otherCallers.fn.forEach((f, k) => otherOf.to.set(f, k));
  if (D.edges && D.edges.otherCallees) D.edges.otherCallees.fn.forEach((f, k) => otherOf.from.set(f, k));
  const srcOf = new Map();
  if (D.src) D.src.fn.forEach((f, k) => srcOf.set(f, k));
  /* callers, callees and source lines of one function, as `proftool method` prints them */
  function drawDetail(f) {
    const t = tableType(), tot = TOT[t];
    const fc = FV.cum[t][f];
    detail.textContent = '';
    detail.appendChild(el('h2', null, flabel(f)));
    actions(detail.appendChild(el('div', {class: 'pt-acts', id: 'pt-detail-acts'})), f);
    detail.appendChild(el('p', null, S[D.types[t][0]] + ': ' + fmt(FV.flat[t][f], t) + ' self (' +
      pct(FV.flat[t][f], tot) + ')  /  ' + fmt(fc, t) + ' total (' + pct(fc, tot) + ')'));
    const E = EDG;
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
    const L = LINES, ls = [];
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
    /* past the writer's bound on the tree by line, a refine keeps the whole profile's */
    detail.appendChild(el('h3', null, state.refine.length && !D.ltree && L.fn.length ? 'lines (of the whole profile)' : 'lines'));
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
    total.textContent = 'Total: ' + fmt(TOT[t], t) + (diff ? ' (base ' + fmt(TOT[diff[0]], diff[0]) + ')' : '');
    total.dataset.value = String(TOT[t]);
  }
  function show(name) {
    if (!views[name] || (!T && name !== 'table' && name !== 'graph') || (name === 'time' && !TL) ||
        (name === 'graph' && !D.graph)) name = 'table';
    state.view = name;
    for (const k in views) views[k].hidden = k !== name;
    for (const b of tabs.children) b.classList.toggle('pt-on', b.id === 'pt-tab-' + name);
    if (name === 'flame') drawFlame();
    if (name === 'time') drawTime();
    if (name === 'table') drawTable();
    if (name === 'sandwich') drawSandwich();
    if (name === 'graph') drawGraph();
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
    for (const r of state.refine) parts.push(r.op + '=' + encodeURIComponent(r.re));
    if (state.view === 'sandwich' && state.sfn >= 0) parts.push('fn=' + encodeURIComponent(fname(state.sfn)));
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
      if (!help.hidden) { help.hidden = true; return; }
      if (inField) ev.target.blur();
      if (state.view === 'time') { state.tzoom = null; drawTime(); } else zoomTo(0);
      ev.preventDefault();
      return;
    }
    if (inField || ev.target === sfilter || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === '/') {
      ev.preventDefault();
      (state.view === 'table' ? filter : search).focus();
      return;
    }
    if (ev.key === '?') { help.hidden = !help.hidden; return; }
    /* the function chosen: the selected frame, or the table's selected row */
    const f = state.view === 'flame' && state.sel > 0 ? T.fn[state.sel]
      : state.view === 'table' && state.selFn !== undefined ? state.selFn : -1;
    const op = {f: 'focus', i: 'ignore', h: 'hide', w: 'show'}[ev.key];
    if (f >= 0 && op) { addRefine(op, fnRe(f)); return; }
    if (f >= 0 && ev.key === 's') { sandwich(f); return; }
    if (ev.key === 'u' && state.refine.length) { state.refine.pop(); refined(); return; }
    const nth = {1: 'flame', 2: 'time', 3: 'table', 4: 'sandwich', 5: 'graph'}[ev.key];
    if (nth && document.getElementById('pt-tab-' + nth)) { show(nth); return; }
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
  for (const [k, v] of hp) if (REFINE_OPS.includes(k)) state.refine.push({op: k, re: v});
  if (state.refine.length) applyRefine();
  if (hp.get('fn')) {
    const f = FN.name.findIndex((x, i) => fname(i) === hp.get('fn'));
    if (f >= 0) state.sfn = f;
  }
  drawTotal();
  if (hp.get('search')) { search.value = hp.get('search'); setSearch(search.value); }
  show(hp.get('view') || (T ? 'flame' : 'table'));
  performance.mark('pt-first-draw');
  /* for tests and benchmarks: the drawn frames and the state, read only */
  window.ptReport = {
    state, diff: !!diff, rects: () => rects.map((r) => ({name: fname(T.fn[r.n]), x: r.x, y: r.y, w: r.w, d: r.d, colour: r.colour})),
    trects: () => (tcanvas.rects || []).length,
    /* the sandwich's frames: depth (1: the direct callers or callees), name, value */
    sandwich: () => [scallers, scallees].map((cv) => (cv.rects || []).map((r) => ({d: r.d, name: r.name, v: r.v}))),
    graph: () => gnodes.map((g) => ({name: fname(g.f), x: g.x, y: g.y, w: g.wd, h: g.ht})),
    /* the edges drawn: "CALLER -> CALLEE" (dashed: "CALLER ..> CALLEE") */
    graphEdges: () => gedges.map((e) => fname(gnodes[e.a].f) + (e.res ? ' ..> ' : ' -> ') + fname(gnodes[e.b].f)),
    time: () => axisInfo,
  };
})();

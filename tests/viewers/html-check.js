// html-check.js: open proftool's HTML report in headless Chromium and say what it shows,
// for tests/t5050-html.sh (which compares it with proftool's own text reports) and for
// `make bench` (timings from the page's own performance marks).
//
//   node html-check.js probe FILE.html... [--search RE] [--type N] [--pixel NAME]
//                      [--shot DIR/PREFIX] [--table-click] [--filter RE]
//                      [--searches FILE] [--graph] [--axis] [--keys]
//                      [--sandwich NAME] [--focus-click NAME] [--search-for FILE]
//                      [--focus-graph] [--focus-lines NAME]
//   node html-check.js bench FILE.html
//   node html-check.js batch JOBS     (a probe a line, each into its own file: below)
//   node html-check.js shot FILE.html OUT.png   (the README's screenshot)
//
// probe prints one fact per line ("frames N", "row ...", "errors N", ...), after a line
// "== FILE" for each file when there are several; every wait is
// bounded and the browser is always closed. The page is loaded from file://; every
// request other than the page itself is printed as "request URL".
'use strict';

const path = require('path');

const modules = process.env.PROFTOOL_VIEWERS_MODULES || path.join(__dirname, 'node_modules');
const {chromium} = require(path.join(modules, 'playwright-core'));
const TIMEOUT_MS = 30000;

// what probe and bench say, a line each: to stdout, or a batch job's file
let say = (line) => console.log(line);

// the whole run is bounded too: two minutes, and half a minute per page (a busy
// machine is slow, not stuck); a batch counts the pages of all its jobs
function pagesOf(argv) {
  return argv.filter((a) => a.endsWith('.html')).length;
}
let watchdog = null;
function arm(npages) {
  clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    console.log('html-check.js: timed out');
    process.exit(2);
  }, 120000 + 30000 * npages);
}
arm(pagesOf(process.argv.slice(3)));

function args(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--table-click') o.tableClick = true;
    else if (['--graph', '--axis', '--keys', '--focus-graph'].includes(argv[i])) o[argv[i].slice(2)] = true;
    else if (argv[i] === '--pixel') (o.pixel = o.pixel || []).push(argv[++i]);
    else if (argv[i].startsWith('--')) o[argv[i].slice(2)] = argv[++i];
    else (o._ = o._ || []).push(argv[i]);
  }
  return o;
}

// one browser for the whole run (a batch's jobs too), closed at its end
let launched = null;
function browser() {
  if (!launched) {
    launched = chromium.launch({
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: true,
      timeout: TIMEOUT_MS,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
             '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }
  return launched;
}

// open each file in turn in one tab of the browser (a navigation each: the page's own
// state does not carry over), fn(page) says what it shows; the errors and requests are
// each file's own
async function open(files, fn) {
  const b = await browser();
  const page = await b.newPage({viewport: {width: 1200, height: 800}});
  page.setDefaultTimeout(TIMEOUT_MS);
  let errors = [], requests = [], url = '';
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { if (r.url() !== url) requests.push(r.url()); });
  try {
    for (const file of files) {
      if (files.length > 1) say('== ' + file);
      url = 'file://' + path.resolve(file);
      errors = [];
      requests = [];
      await page.goto(url, {waitUntil: 'load'});
      await page.waitForFunction(() => window.ptReport !== undefined);
      await fn(page, file);
      for (const e of errors) say('error ' + e);
      for (const r of requests) say('request ' + r);
      say('errors ' + errors.length);
      say('requests ' + requests.length);
    }
  } finally {
    await page.close();
  }
}

// painted pixels of a canvas (not transparent)
function painted(page, id) {
  return page.evaluate((cid) => {
    const c = document.getElementById(cid);
    if (!c || !c.width || !c.height) return 0;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
    return n;
  }, id);
}

async function probe(files, o) {
  // --search-for FILE: a search per page, lines "PAGE.html<TAB>RE"
  const searchFor = new Map();
  if (o['search-for']) {
    for (const l of require('fs').readFileSync(o['search-for'], 'utf8').split('\n')) {
      const k = l.indexOf('\t');
      if (k > 0) searchFor.set(l.slice(0, k), l.slice(k + 1));
    }
  }
  await open(files, async (page, file) => {
    const search = searchFor.has(file) ? searchFor.get(file) : o.search;
    const has = (sel) => page.evaluate((s) => {
      const e = document.querySelector(s);
      return !!e && !e.hidden;
    }, sel);
    const flame = await has('#pt-tab-flame');
    say('flame ' + (flame ? 'yes' : 'no'));
    say('diff ' + (await page.evaluate(() => !!window.ptReport.diff) ? 'yes' : 'no'));
    say('time ' + ((await has('#pt-tab-time')) ? 'yes' : 'no'));
    say('csp ' + await page.evaluate(() => {
      const m = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
      return m ? m.content : '';
    }));
    if (flame) {
      const rects = await page.evaluate(() => window.ptReport.rects());
      say('frames ' + rects.length);
      // the first screen, as the page opens: the roots (depth 1) drawn whole within the
      // window ("first-root NAME WIDTH"), and the canvas's width
      const first = await page.evaluate(() => {
        const c = document.getElementById('pt-canvas').getBoundingClientRect();
        return {top: c.top, width: c.width, h: window.innerHeight, title: document.title};
      });
      say('title ' + first.title);
      say('first-width ' + Math.round(first.width));
      for (const r of rects) {
        if (r.d === 1 && first.top + r.y >= 0 && first.top + r.y + 16 <= first.h) {
          say('first-root ' + r.name + ' ' + Math.round(r.w));
        }
      }
      say('painted ' + ((await painted(page, 'pt-canvas')) > 0 ? 'yes' : 'no'));
      if (o.shot) await page.screenshot({path: o.shot + '-flame.png'});
      for (const pname of o.pixel || []) {
        const rgb = await page.evaluate((name) => {
          const r = window.ptReport.rects().find((x) => x.name === name);
          if (!r) return 'none';
          const c = document.getElementById('pt-canvas');
          const k = c.width / c.getBoundingClientRect().width;
          const d = c.getContext('2d').getImageData(Math.round((r.x + 2) * k), Math.round((r.y + 3) * k), 1, 1).data;
          return d[0] + ' ' + d[1] + ' ' + d[2];
        }, pname);
        say('pixel ' + rgb + ' ' + pname);
      }
      // a click on the widest frame narrower than the whole width zooms into it
      const target = rects.filter((r) => r.w < 1150 && r.w > 20).sort((a, b) => b.w - a.w)[0];
      if (target) {
        const box = await page.locator('#pt-canvas').boundingBox();
        await page.mouse.move(box.x + target.x + target.w / 2, box.y + target.y + 8);
        const tip = await page.evaluate(() => document.getElementById('pt-tip').textContent);
        say('hover ' + (tip.split('\n')[0].startsWith(target.name) ? 'ok' : 'wrong: ' + tip));
        await page.mouse.click(box.x + target.x + target.w / 2, box.y + target.y + 8);
        const after = await page.evaluate(() => window.ptReport.rects());
        const z = after.find((r) => r.name === target.name && r.w >= 1150);
        const crumbs = await page.evaluate(() => document.querySelectorAll('.pt-crumb').length);
        say('zoom ' + (z ? 'full' : 'not-full') + ' crumbs ' + crumbs);
        if (o.shot) await page.screenshot({path: o.shot + '-zoom.png'});
        await page.keyboard.press('Escape');
        const crumbs2 = await page.evaluate(() => document.querySelectorAll('.pt-crumb').length);
        say('reset crumbs ' + crumbs2);
      }
      if (search !== undefined) {
        await page.keyboard.press('/');
        const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
        say('slash ' + focused);
        await page.keyboard.type(search);
        const s = await page.evaluate(() => {
          const e = document.getElementById('pt-share');
          return e.dataset.value + ' ' + e.dataset.total;
        });
        say('search ' + s);
        await page.keyboard.press('Escape');
        // cleared: what follows on the page (the views, the hash) is of no search
        await page.fill('#pt-search', '');
      }
      // each regular expression of a file, one a line: "searched RE LOW HIGH TOTAL"
      if (o.searches) {
        const res = require('fs').readFileSync(o.searches, 'utf8').split('\n').filter((l) => l);
        const got = await page.evaluate((list) => list.map((re) => {
          const box = document.getElementById('pt-search'), e = document.getElementById('pt-share');
          box.value = re;
          box.dispatchEvent(new Event('input'));
          return re + ' ' + e.dataset.value + ' ' + e.dataset.upper + ' ' + e.dataset.total;
        }), res);
        for (const l of got) say('searched ' + l);
        await page.evaluate(() => {
          const box = document.getElementById('pt-search');
          box.value = '';
          box.dispatchEvent(new Event('input'));
        });
      }
      // arrows walk the frames from the root, towards the leaves: down in an icicle
      // graph (the default), up in a flame graph
      await page.locator('#pt-canvas').focus();
      const leafward = await page.evaluate(() => window.ptReport.state.icicle) ? 'ArrowDown' : 'ArrowUp';
      await page.keyboard.press(leafward);
      await page.keyboard.press(leafward);
      say('walk ' + await page.evaluate(() => window.ptReport.state.sel));
    }
    if (await has('#pt-tab-time')) {
      await page.click('#pt-tab-time');
      say('time-frames ' + await page.evaluate(() => window.ptReport.trects()));
      say('time-painted ' + ((await painted(page, 'pt-tcanvas')) > 0 ? 'yes' : 'no'));
      if (o.shot) await page.screenshot({path: o.shot + '-time.png'});
    }
    await page.click('#pt-tab-table');
    const row = await page.evaluate(() => {
      const tr = document.querySelector('#pt-table tbody tr[data-fn]');
      return tr ? Array.from(tr.children).map((td) => td.textContent).join('\t') : 'none';
    });
    say('row\t' + row);
    say('rows ' + await page.evaluate(() => document.getElementById('pt-table').dataset.rows));
    // sorting by cum puts the heaviest cum first
    await page.click('#pt-table th[data-key="cum"]');
    say('cum-row ' + await page.evaluate(() => {
      const tr = document.querySelector('#pt-table tbody tr[data-fn]');
      return tr ? tr.lastChild.textContent : 'none';
    }));
    await page.click('#pt-table th[data-key="flat"]');
    // sorted by flat (the default, but not in a diff report): flat, cum and name
    say('flat-row\t' + await page.evaluate(() => {
      const keys = Array.from(document.querySelectorAll('#pt-table th')).map((th) => th.dataset.key);
      const tr = document.querySelector('#pt-table tbody tr[data-fn]');
      if (!tr) return 'none';
      return ['flat', 'cum', 'name'].map((k) => tr.children[keys.indexOf(k)].textContent).join('\t');
    }));
    if (o.tableClick) {
      await page.click('#pt-table tbody tr[data-fn]');
      for (const l of await detailLists(page)) say('detail ' + l);
      const src = await page.evaluate(() => Array.from(
        document.querySelectorAll('#pt-detail table[data-list="source"] tr')).map(
        (r) => r.children[2].textContent + ':' + r.children[0].textContent + ':' + r.children[1].textContent +
          ':' + r.children[3].textContent));
      for (const l of src) say('source ' + l);
    }
    if (o.filter) {
      await page.fill('#pt-filter', o.filter);
      say('filtered ' + await page.evaluate(() => document.getElementById('pt-table').dataset.rows));
      await page.fill('#pt-filter', '');
    }
    if (o.shot) await page.screenshot({path: o.shot + '-table.png'});
    await views(page, o);
    say('total ' + await page.evaluate(() => document.getElementById('pt-total').dataset.value));
    if (o.type !== undefined) {
      await page.selectOption('#pt-type', o.type);
      say('type-total ' + await page.evaluate(() => document.getElementById('pt-total').dataset.value));
      say('type-row\t' + await page.evaluate(() => {
        const tr = document.querySelector('#pt-table tbody tr[data-fn]');
        return tr ? Array.from(tr.children).map((td) => td.textContent).join('\t') : 'none';
      }));
    }
  });
}

// the detail pane's lists (callers, callees, lines): "LIST:VALUE=NAME|..."
function detailLists(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('#pt-detail table')).map(
    (t) => t.dataset.list + ':' + Array.from(t.querySelectorAll('tr')).filter((r) => r.children.length === 3 && r.children[0].tagName === 'TD').map(
      (r) => r.children[0].textContent + '=' + r.children[2].textContent).join('|')));
}

// a table row by its function's name, clicked: its detail pane opens with its buttons
async function clickRow(page, name) {
  // the filter reads the name and its file: "NAME" or "NAME (FILE:LINE)"
  await page.fill('#pt-filter', '^' + name.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&') + '( \\(.*\\))?$');
  await page.click('#pt-table tbody tr[data-fn]');
  await page.fill('#pt-filter', '');
}

// the sandwich, refine, graph, time axis and keys, on the page already open
async function views(page, o) {
  if (o.sandwich) {
    // from the table: the row's Sandwich button; the direct callers and callees
    await clickRow(page, o.sandwich);
    await page.click('#pt-detail-acts button[data-op="sandwich"]');
    const sw = await page.evaluate(() => window.ptReport.sandwich());
    say('sandwich-title ' + await page.evaluate(() => document.getElementById('pt-stitle').textContent));
    ['callers', 'callees'].forEach((side, k) => {
      for (const r of sw[k]) if (r.d === 1) say('sandwich-' + side + ' ' + r.name + '=' + r.v);
    });
    if (o.shot) await page.screenshot({path: o.shot + '-sandwich.png'});
    await page.click('#pt-tab-table');
  }
  if (o['focus-click']) {
    // a click on the function's Focus button: every row of the table, as top prints it
    await clickRow(page, o['focus-click']);
    await page.click('#pt-detail-acts button[data-op="focus"]');
    await page.click('#pt-table th[data-key="flat"]');
    await page.click('#pt-table th[data-key="flat"]');
    const rows = await page.evaluate(() => Array.from(document.querySelectorAll('#pt-table tbody tr[data-fn]')).map(
      (tr) => Array.from(tr.children).map((td) => td.textContent).join('\t')));
    for (const r of rows) say('focused\t' + r);
    say('focused-total ' + await page.evaluate(() => document.getElementById('pt-total').dataset.value));
    say('hash ' + await page.evaluate(() => location.hash));
    // the other views of the refined profile: the graph, a function's lines
    if (o['focus-graph']) {
      await page.click('#pt-tab-graph');
      for (const g of await page.evaluate(() => window.ptReport.graph())) say('focused-graph-node ' + g.name);
      for (const e of await page.evaluate(() => window.ptReport.graphEdges())) say('focused-graph-edge ' + e);
      await page.click('#pt-tab-table');
    }
    if (o['focus-lines']) {
      await clickRow(page, o['focus-lines']);
      for (const l of await detailLists(page)) say('focused-detail ' + l);
      // each line with its self and total: "focused-line LINE=SELF/TOTAL"
      for (const l of await page.evaluate(() => Array.from(
        document.querySelectorAll('#pt-detail table[data-list="lines"] tr')).filter((r) => r.children[0].tagName === 'TD' &&
        r.children.length === 3).map((r) => r.children[2].textContent.replace(/.*:/, '') + '=' +
        r.children[0].textContent + '/' + r.children[1].textContent))) say('focused-line ' + l);
    }
    await page.click('#pt-unrefine');
    say('unrefined-total ' + await page.evaluate(() => document.getElementById('pt-total').dataset.value));
  }
  if (o.graph) {
    await page.click('#pt-tab-graph');
    for (const g of await page.evaluate(() => window.ptReport.graph())) say('graph-node ' + g.name);
    // edges drawn across a node box other than their own ends: "graph-crossings EDGES OF"
    say('graph-crossings ' + await page.evaluate(() => {
      const boxes = window.ptReport.graph(), paths = document.querySelectorAll('#pt-gsvg path[data-a]');
      let n = 0;
      for (const p of paths) {
        const a = Number(p.dataset.a), b = Number(p.dataset.b), len = p.getTotalLength();
        let hit = false;
        for (let d = 0; d <= len && !hit; d += 2) {
          const q = p.getPointAtLength(d);
          hit = boxes.some((g, i) => i !== a && i !== b && q.x > g.x + 1 && q.x < g.x + g.w - 1 &&
            q.y > g.y + 1 && q.y < g.y + g.h - 1);
        }
        if (hit) n++;
      }
      return n + ' ' + paths.length;
    }));
    if (o.shot) await page.screenshot({path: o.shot + '-graph.png'});
  }
  if (o.axis) {
    // the ruler over the whole profile, then a wheel zoom and a drag: the view moves
    await page.click('#pt-tab-time');
    const a = await page.evaluate(() => window.ptReport.time());
    say('axis-span ' + a.span);
    say('axis-last-tick ' + a.ticks[a.ticks.length - 1] + ' ' + (a.ticks[1] - a.ticks[0]));
    say('axis-lanes ' + a.lanes.length);
    const box = await page.locator('#pt-tcanvas').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + 20);
    await page.mouse.wheel(0, -100);
    const z = await page.evaluate(() => window.ptReport.time());
    say('axis-wheel ' + (z.to - z.from < a.span ? 'in' : 'not'));
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 100, box.y + 20, {steps: 4});
    await page.mouse.up();
    const d = await page.evaluate(() => window.ptReport.time());
    say('axis-drag ' + (d.from < z.from ? 'earlier' : 'not'));
    await page.click('#pt-tab-table');
  }
  if (o.keys) {
    await page.keyboard.press('?');
    say('keys ' + await page.evaluate(() => {
      const h = document.getElementById('pt-help');
      return (h.hidden ? 'hidden' : 'shown') + ' ' + h.querySelectorAll('tr').length;
    }));
    await page.keyboard.press('Escape');
    say('keys-closed ' + await page.evaluate(() => document.getElementById('pt-help').hidden));
  }
}

// first draw (from navigation start) and zoom redraw times, from the page's own marks
async function bench(file) {
  await open([file], async (page) => {
    const first = await page.evaluate(() => performance.getEntriesByName('pt-first-draw')[0].startTime);
    say('first-draw-ms ' + first.toFixed(1));
    const rects = await page.evaluate(() => window.ptReport.rects());
    const target = rects.filter((r) => r.w < 1150 && r.w > 20).sort((a, b) => b.w - a.w)[0];
    const box = await page.locator('#pt-canvas').boundingBox();
    const times = [];
    for (let i = 0; i < 3 && target; i++) {
      await page.mouse.click(box.x + target.x + target.w / 2, box.y + target.y + 8);
      times.push(await page.evaluate(() => {
        const m = performance.getEntriesByName('pt-zoom');
        return m[m.length - 1].duration;
      }));
      await page.keyboard.press('Escape');
      times.push(await page.evaluate(() => {
        const m = performance.getEntriesByName('pt-zoom');
        return m[m.length - 1].duration;
      }));
    }
    say('zoom-ms ' + (times.length ? Math.max(...times).toFixed(1) : 'none'));
  });
}

// shot FILE.html OUT.png: the README's screenshot (formats/html/screenshot.png; the
// recipe is in HACKING): the icicle graph as the page opens, 960 by 440, the pointer on
// the widest frame of the third row
async function shot(file, out) {
  const b = await browser();
  const page = await b.newPage({viewport: {width: 960, height: 440}});
  await page.goto('file://' + path.resolve(file), {waitUntil: 'load'});
  await page.waitForFunction(() => window.ptReport !== undefined);
  const rects = await page.evaluate(() => window.ptReport.rects());
  const r = rects.filter((x) => x.d === 3).sort((x, y) => y.w - x.w)[0];
  if (r) {
    const box = await page.locator('#pt-canvas').boundingBox();
    await page.mouse.move(box.x + r.x + r.w / 3, box.y + r.y + 8);
  }
  await page.screenshot({path: out});
  await page.close();
}

// batch JOBS: one probe per line of JOBS, "OUT<TAB>probe<TAB>ARG...", each written to its
// file OUT as probe would print it (with "failed ..." if it failed), all in one browser:
// t5050 makes its pages first, then opens them all in one run
async function batch(jobsFile) {
  const fs = require('fs');
  const jobs = fs.readFileSync(jobsFile, 'utf8').split('\n').filter((l) => l).map((l) => l.split('\t'));
  arm(jobs.reduce((n, j) => n + pagesOf(j.slice(1)), 0));
  for (const [out, cmd, ...argv] of jobs) {
    const lines = [], o = args(argv);
    if (cmd !== 'probe') throw new Error('batch: not a probe: ' + cmd);
    say = (line) => lines.push(line);
    try {
      await probe(o._, o);
    } catch (e) {
      lines.push('failed ' + (e && e.stack || e));
    }
    fs.writeFileSync(out, lines.map((l) => l + '\n').join(''));
  }
  say = (line) => console.log(line);
}

(async () => {
  const [cmd, ...rest] = process.argv.slice(2);
  const o = args(rest);
  try {
    if (cmd === 'probe') await probe(o._, o);
    else if (cmd === 'bench') await bench(o._[0]);
    else if (cmd === 'batch') await batch(o._[0]);
    else if (cmd === 'shot') await shot(o._[0], o._[1]);
    else { console.log('usage: html-check.js probe|bench|batch ...'); process.exit(2); }
  } catch (e) {
    say('failed ' + (e && e.stack || e));
    process.exitCode = 1;
  }
  if (launched) await (await launched).close();
  clearTimeout(watchdog);
})();

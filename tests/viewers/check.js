// check.js: open proftool's outputs in the real viewers, for the t5xxx tests.
//
//   node check.js speedscope FILE...   schema (speedscope's own), indices, then the real
//                                      speedscope app in headless Chromium
//   node check.js ssdump FILE          one line per speedscope sample, in file order:
//                                      "profile<TAB>unit<TAB>root;...;leaf<TAB>weight"
//   node check.js svg OUT.png FILE     the flame graph SVG in headless Chromium: its
//                                      script runs without errors, search and zoom work,
//                                      and a PNG of it is not blank
//
// Prints one line per problem and exits 1 if there was any. Every wait is bounded; the
// HTTP server (127.0.0.1 only) and the browser are always stopped.
'use strict';

const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');

const here = __dirname;
const modules = process.env.PROFTOOL_VIEWERS_MODULES || path.join(here, 'node_modules');
const req = (m) => require(path.join(modules, m));

const TIMEOUT_MS = 30000;
const problems = [];
const fail = (msg) => problems.push(msg);

// the whole run may not take longer than this
const watchdog = setTimeout(() => {
  console.log('check.js: timed out');
  process.exit(2);
}, 240000);

function chromiumFlags() {
  return ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
          '--disable-component-update', '--disable-sync', '--no-first-run'];
}

// a static file server on 127.0.0.1: /app/ from appDir, /files/ from filesDir
function serve(appDir, filesDir) {
  const types = {'.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
                 '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
                 '.wasm': 'application/wasm', '.woff2': 'font/woff2', '.txt': 'text/plain'};
  const server = http.createServer((rq, rs) => {
    const u = decodeURIComponent(new URL(rq.url, 'http://127.0.0.1').pathname);
    if (u === '/favicon.ico') { // asked for by the browser itself
      rs.writeHead(204);
      rs.end();
      return;
    }
    let root = null, rel = null;
    if (appDir && u.startsWith('/app/')) { root = appDir; rel = u.slice(5) || 'index.html'; }
    if (u.startsWith('/files/')) { root = filesDir; rel = u.slice(7); }
    const file = root && path.resolve(root, rel);
    if (!file || !file.startsWith(path.resolve(root) + path.sep) || !fs.existsSync(file) ||
        !fs.statSync(file).isFile()) {
      rs.writeHead(404);
      rs.end();
      return;
    }
    rs.writeHead(200, {'Content-Type': types[path.extname(file)] || 'application/octet-stream'});
    fs.createReadStream(file).pipe(rs);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function withBrowser(fn) {
  const {chromium} = req('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'proftool-chromium-'));
  let ctx = null;
  try {
    ctx = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: true,
      args: chromiumFlags(),
      timeout: TIMEOUT_MS,
    });
    await fn(ctx);
  } finally {
    if (ctx) await ctx.close().catch(() => {});
    fs.rmSync(profile, {recursive: true, force: true});
  }
}

// ---- speedscope ----

function checkSpeedscopeJSON(file, schema) {
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    fail(`${file}: not JSON: ${e.message}`);
    return null;
  }
  const Ajv = req('ajv');
  const ajv = new Ajv({allErrors: true, strict: false});
  const validate = ajv.compile(schema);
  if (!validate(doc)) {
    fail(`${file}: schema: ${ajv.errorsText(validate.errors)}`);
    return null;
  }
  // what the schema cannot say but the app needs
  const units = schema.definitions['FileFormat.ValueUnit'].enum;
  const nframes = doc.shared.frames.length;
  doc.profiles.forEach((p, i) => {
    if (!units.includes(p.unit)) fail(`${file}: profile ${i}: unit '${p.unit}'`);
    if (p.type !== 'sampled') return;
    if (p.weights.length !== p.samples.length)
      fail(`${file}: profile ${i}: ${p.weights.length} weights for ${p.samples.length} samples`);
    p.samples.forEach((s, j) => s.forEach((f) => {
      if (!Number.isInteger(f) || f < 0 || f >= nframes)
        fail(`${file}: profile ${i}: sample ${j}: frame index ${f} of ${nframes}`);
    }));
    const sum = p.weights.reduce((a, b) => a + b, 0);
    if (Math.abs(p.endValue - p.startValue - sum) > 1e-6 * Math.max(1, Math.abs(sum)))
      fail(`${file}: profile ${i}: endValue - startValue = ${p.endValue - p.startValue}, ` +
           `weights sum to ${sum}`);
  });
  if (doc.activeProfileIndex !== undefined && doc.profiles.length &&
      doc.activeProfileIndex >= doc.profiles.length)
    fail(`${file}: activeProfileIndex out of range`);
  return doc;
}

async function speedscope(files) {
  const release = path.join(modules, 'speedscope', 'dist', 'release');
  const schema = JSON.parse(fs.readFileSync(path.join(release, 'file-format-schema.json'), 'utf8'));
  // SPEEDSCOPE_APP_ONLY=1 skips our own checks, to prove the app half catches bad files
  const docs = files.map((f) => [f, process.env.SPEEDSCOPE_APP_ONLY
    ? JSON.parse(fs.readFileSync(f, 'utf8')) : checkSpeedscopeJSON(f, schema)]);
  if (problems.length || process.env.SPEEDSCOPE_NO_APP) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proftool-ss-'));
  const server = await serve(release, dir);
  const port = server.address().port;
  try {
    await withBrowser(async (ctx) => {
      for (const [file, doc] of docs) {
        const base = `p${Math.random().toString(36).slice(2)}.json`;
        fs.copyFileSync(file, path.join(dir, base));
        const page = await ctx.newPage();
        const alerts = [], errors = [];
        page.on('dialog', (dl) => { alerts.push(dl.message()); dl.dismiss().catch(() => {}); });
        page.on('pageerror', (e) => errors.push(e.message));
        const url = `http://127.0.0.1:${port}/files/${base}`;
        await page.goto(`http://127.0.0.1:${port}/app/index.html#profileURL=` +
                        encodeURIComponent(url), {timeout: TIMEOUT_MS});
        // speedscope titles the page "NAME - speedscope" once the profile is loaded
        const want = `${doc.name} - speedscope`;
        try {
          await page.waitForFunction(
            (w) => document.title === w || /Something went wrong/.test(document.body.innerText),
            want, {timeout: TIMEOUT_MS});
        } catch (e) {
          fail(`${file}: speedscope did not load it (title '${await page.title()}')`);
        }
        const text = await page.evaluate(() => document.body.innerText);
        if (/Something went wrong/.test(text)) fail(`${file}: speedscope: Something went wrong`);
        if (alerts.length) fail(`${file}: speedscope alerted: ${alerts.join(' | ')}`);
        if (errors.length) fail(`${file}: page errors: ${errors.join(' | ')}`);
        if (await page.title() !== want)
          fail(`${file}: title '${await page.title()}', wanted '${want}'`);
        else
          console.log(`${file}: loaded: ${want}`);
        await page.close();
      }
    });
  } finally {
    server.close();
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

// ---- flame graph SVG ----

async function svg(png, file) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proftool-svg-'));
  fs.copyFileSync(file, path.join(dir, 'f.svg'));
  const server = await serve(null, dir);
  const port = server.address().port;
  try {
    await withBrowser(async (ctx) => {
      const page = await ctx.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      await page.setViewportSize({width: 1300, height: 900});
      await page.goto(`http://127.0.0.1:${port}/files/f.svg`, {timeout: TIMEOUT_MS});
      await page.screenshot({path: png, timeout: TIMEOUT_MS});
      // not blank: count the non-white pixels of the SVG drawn on a canvas
      const ink = await page.evaluate(async (u) => {
        const img = new Image();
        img.src = u;
        await img.decode();
        const c = document.createElementNS('http://www.w3.org/1999/xhtml', 'canvas');
        c.width = img.width || 1200;
        c.height = img.height || 600;
        const g = c.getContext('2d');
        g.fillStyle = '#fff';
        g.fillRect(0, 0, c.width, c.height);
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4)
          if (d[i] < 245 || d[i + 1] < 245 || d[i + 2] < 245) n++;
        return {n, total: c.width * c.height};
      }, `http://127.0.0.1:${port}/files/f.svg`);
      console.log(`ink ${ink.n} of ${ink.total} pixels`);
      if (ink.n < 500) fail(`${file}: blank: ${ink.n} non-white pixels`);
      // the interactive part: frames, hover details, search, zoom
      const state = await page.evaluate(() => {
        const frames = document.querySelectorAll('g.frame');
        const out = {frames: frames.length};
        if (typeof window.pt_search !== 'function' || typeof window.pt_zoom !== 'function')
          return out;
        const first = frames[frames.length > 1 ? 1 : 0];
        if (!first) return out;
        first.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
        out.details = document.getElementById('details').textContent;
        const name = first.getAttribute('data-name') || '';
        out.matched = window.pt_search(name.slice(0, 3).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
        out.matchedText = document.getElementById('matched').textContent;
        out.highlighted = document.querySelectorAll('g.frame rect.hl').length;
        window.pt_search('');
        first.dispatchEvent(new MouseEvent('click', {bubbles: true}));
        out.zoomed = document.querySelectorAll('g.frame.hide').length;
        out.unzoom = !document.getElementById('unzoom').classList.contains('hide');
        return out;
      });
      console.log(`svg ${JSON.stringify(state)}`);
      if (state.frames && state.matched === undefined) fail(`${file}: no pt_search/pt_zoom`);
      if (state.frames && state.highlighted === 0) fail(`${file}: search highlighted nothing`);
      if (errors.length) fail(`${file}: errors: ${errors.join(' | ')}`);
    });
  } finally {
    server.close();
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

// written synchronously: process.exit() would cut off console.log's pending writes
// to a pipe
function ssdump(file) {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const names = doc.shared.frames.map((f) => f.name);
  const lines = [];
  for (const p of doc.profiles)
    p.samples.forEach((s, i) => lines.push(
      `${p.name}\t${p.unit}\t${s.map((f) => names[f]).join(';')}\t${p.weights[i]}\n`));
  fs.writeSync(1, lines.join(''));
}

async function main() {
  const [cmd, ...args] = process.argv.slice(2);
  if (cmd === 'speedscope') await speedscope(args);
  else if (cmd === 'ssdump') ssdump(args[0]);
  else if (cmd === 'svg') await svg(args[0], args[1]);
  else {
    console.log('usage: node check.js speedscope FILE... | svg OUT.png FILE');
    process.exit(2);
  }
}

main().then(() => {
  clearTimeout(watchdog);
  fs.writeSync(1, problems.map((p) => p + '\n').join(''));
  process.exit(problems.length ? 1 : 0);
}, (e) => {
  clearTimeout(watchdog);
  console.log(`check.js: ${e.stack || e}`);
  process.exit(2);
});

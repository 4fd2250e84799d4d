#!/usr/bin/env node
// totals.js: independent per-function sample totals of a V8 CPU profile.
//
// Usage: node totals.js FILE > FILE.totals.txt
//
// Written for proftool's tests without any of proftool's code: it reads the
// whole JSON with JSON.parse and walks parent links.  It understands
//   - .cpuprofile as `node --cpu-prof` / Profiler.stop write it
//     (nodes[] with children[] or parent, samples[], timeDeltas[]),
//   - the legacy DevTools format (nested `head`, `timestamps`, 1-based
//     lineNumber with 0 for none), as v8-profiler-next writes by default,
//   - v8-profiler-next's `nodes` format (a top-level `typeId` key; its
//     callFrame.lineNumber is 1-based, 0 for none),
//   - Chrome trace event files (a JSON array or {traceEvents: [...]}) with
//     Profile / ProfileChunk events; one section per (pid, profile id).
//
// Output, one line per function, tab separated:
//   NAME <TAB> LOCATION <TAB> SELF <TAB> TOTAL
// NAME is callFrame.functionName, or "(anonymous)" when it is empty.
// LOCATION is URL:LINE with LINE 1-based (callFrame.lineNumber + 1), or "-"
// when lineNumber is missing or negative (the synthetic frames (program),
// (idle), (garbage collector) and native functions).  The URL may be empty
// (functions made by eval / new Function), giving ":LINE".
// A function is the pair (NAME, LOCATION); the column is not part of it.
// SELF counts the samples whose leaf node is that function (from `samples`,
// not from hitCount); TOTAL counts the samples whose stack contains the
// function at least once (a recursive function counts once per stack).
// As Chrome DevTools takes them: the samples in time order, and a sample of
// the top-level (garbage collector) node on the stack of the sample before it.
// The (root) node is not a function and is never listed.
// Lines are sorted by NAME then LOCATION in code-unit (C locale) order.
// A first line "# samples N" gives the number of samples; trace files get
// "# profile pid=P id=ID tid=T" before each profile's lines.
'use strict';

const fs = require('fs');

function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

function frameKey(cf) {
  const name = cf.functionName ? cf.functionName : '(anonymous)';
  const line = typeof cf.lineNumber === 'number' ? cf.lineNumber : -1;
  const loc = line >= 0 ? (cf.url || '') + ':' + (line + 1) : '-';
  return { name, loc, key: name + '\t' + loc };
}

// nodes: array of {id, callFrame, children?, parent?}; samples: array of ids;
// times: each sample's time, or undefined (the samples are in time order).
// As Chrome DevTools reads a profile (CPUProfileDataModel), the samples are taken in
// time order (V8 writes a few out of order), and a sample of the top-level
// (garbage collector) node stands on the stack of the sample before it.
function totals(nodes, samples, times) {
  const byId = new Map();
  for (const n of nodes) byId.set(n.id, n);
  const parent = new Map();
  for (const n of nodes) {
    if (typeof n.parent === 'number') parent.set(n.id, n.parent);
    for (const c of n.children || []) parent.set(c, n.id);
  }
  const rows = new Map();
  const row = (n) => {
    const k = frameKey(n.callFrame);
    let r = rows.get(k.key);
    if (!r) { r = { name: k.name, loc: k.loc, self: 0, total: 0 }; rows.set(k.key, r); }
    return r;
  };
  const isRoot = (n) => n.callFrame.functionName === '(root)' && !parent.has(n.id);
  const order = samples.map((id, i) => i);
  if (times) order.sort((a, b) => times[a] - times[b]); // stable
  let prev = [], prevGC = false;
  for (const i of order) {
    let n = byId.get(samples[i]);
    if (!n) throw new Error('sample refers to unknown node id ' + samples[i]);
    let stack = [];
    for (let depth = 0; n; depth++) {
      if (depth > 100000) throw new Error('cycle in the node tree');
      if (!isRoot(n)) stack.push(row(n));
      n = parent.has(n.id) ? byId.get(parent.get(n.id)) : undefined;
    }
    stack.reverse();
    const leaf = byId.get(samples[i]);
    const gc = stack.length === 1 && leaf.callFrame.functionName === '(garbage collector)' &&
      !leaf.callFrame.url;
    if (gc) stack = prevGC ? prev : prev.concat(stack);
    prev = stack;
    prevGC = gc;
    if (stack.length) stack[stack.length - 1].self++;
    for (const r of new Set(stack)) r.total++;
  }
  const out = [...rows.values()].sort((a, b) => cmp(a.name, b.name) || cmp(a.loc, b.loc));
  return '# samples ' + samples.length + '\n' +
    out.map((r) => r.name + '\t' + r.loc + '\t' + r.self + '\t' + r.total + '\n').join('');
}

// running sums of time deltas from a start
function runningTimes(start, deltas) {
  let t = start || 0;
  return deltas.map((d) => (t += d));
}

function flattenLegacy(head) {
  // Legacy nodes carry the frame fields on the node itself, lines 1-based.
  const nodes = [];
  const stack = [head];
  while (stack.length) {
    const n = stack.pop();
    nodes.push({
      id: n.id,
      callFrame: n.callFrame || {
        functionName: n.functionName, url: n.url,
        lineNumber: typeof n.lineNumber === 'number' ? n.lineNumber - 1 : -1,
      },
      children: (n.children || []).map((c) => c.id),
    });
    for (const c of n.children || []) stack.push(c);
  }
  return nodes;
}

function main() {
  const file = process.argv[2];
  if (!file) { process.stderr.write('usage: node totals.js FILE\n'); process.exit(2); }
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const events = Array.isArray(doc) ? doc : doc.traceEvents;
  if (events) {
    const profiles = new Map();   // "pid id" -> {pid, id, tid, nodes, samples}
    const get = (e) => {
      const k = e.pid + ' ' + e.id;
      if (!profiles.has(k)) profiles.set(k, { pid: e.pid, id: e.id, tid: undefined, nodes: [], samples: [], deltas: [] });
      return profiles.get(k);
    };
    for (const e of events) {
      if (e.name === 'Profile') get(e).tid = e.tid;
      else if (e.name === 'ProfileChunk') {
        const p = get(e);
        const cp = (e.args && e.args.data && e.args.data.cpuProfile) || {};
        for (const n of cp.nodes || []) p.nodes.push(n);
        for (const s of cp.samples || []) p.samples.push(s);
        const d = (e.args && e.args.data && e.args.data.timeDeltas) || cp.timeDeltas || [];
        for (const x of d) p.deltas.push(x);
      }
    }
    let text = '';
    for (const p of profiles.values()) {
      text += '# profile pid=' + p.pid + ' id=' + p.id + ' tid=' + p.tid + '\n';
      text += totals(p.nodes, p.samples,
        p.deltas.length === p.samples.length ? runningTimes(0, p.deltas) : undefined);
    }
    process.stdout.write(text);
    return;
  }
  if (doc.head) {
    process.stdout.write(totals(flattenLegacy(doc.head), doc.samples || [], doc.timestamps));
    return;
  }
  if (doc.typeId !== undefined) {
    // v8-profiler-next's `nodes` format (setGenerateType(1)): its callFrame
    // lineNumber is V8's 1-based line, 0 when there is none.
    const nodes = doc.nodes.map((n) => ({
      id: n.id, children: n.children, parent: n.parent,
      callFrame: Object.assign({}, n.callFrame, { lineNumber: n.callFrame.lineNumber - 1 }),
    }));
    process.stdout.write(totals(nodes, doc.samples || [],
      doc.timeDeltas && runningTimes(doc.startTime, doc.timeDeltas)));
    return;
  }
  process.stdout.write(totals(doc.nodes, doc.samples || [],
    doc.timeDeltas && runningTimes(doc.startTime, doc.timeDeltas)));
}

main();

#!/usr/bin/env node
// cpuprofile-check.js: an independent structural check of a .cpuprofile as Chrome
// DevTools and VS Code load it (no proftool code; node's JSON.parse).
//
// Usage: node cpuprofile-check.js OUT.cpuprofile [ORIGINAL]
//
// Checks: top-level nodes/startTime/endTime/samples/timeDeltas with the right types;
// node ids unique positive integers; nodes[0] is (root) and has no parent; every
// `children` entry names an existing node, every other node has exactly one parent,
// parents come before their children, and all nodes are reachable from the root;
// callFrame has functionName/scriptId/url (strings) and lineNumber/columnNumber
// (integers >= -1); hitCount equals the node's count in samples; positionTicks lines
// are >= 1 and their ticks sum to at most hitCount; samples name existing nodes;
// timeDeltas.length == samples.length, all integers >= 0;
// endTime >= startTime + sum(timeDeltas).
// With ORIGINAL (a .cpuprofile with `nodes`), also checks that both give the same
// sequence of sampled stacks (function name, url, line per frame, root first) and the
// same sample times, in time order, with ORIGINAL read as Chrome DevTools reads it
// (samples sorted by time, (garbage collector) on the stack before it).
// Prints "ok" or the first problem, and exits 0 or 1.
'use strict';

const fs = require('fs');

function fail(msg) {
  process.stdout.write('FAIL: ' + msg + '\n');
  process.exit(1);
}
const isInt = (v) => Number.isInteger(v);

function check(doc) {
  for (const k of ['nodes', 'samples', 'timeDeltas'])
    if (!Array.isArray(doc[k])) fail(k + ' is not an array');
  if (!isInt(doc.startTime) || !isInt(doc.endTime)) fail('startTime/endTime not integers');
  const byId = new Map();
  const parent = new Map();
  doc.nodes.forEach((n, i) => {
    if (!isInt(n.id) || n.id < 1) fail('bad id at nodes[' + i + ']');
    if (byId.has(n.id)) fail('duplicate id ' + n.id);
    byId.set(n.id, n);
    const cf = n.callFrame;
    if (!cf || typeof cf.functionName !== 'string' || typeof cf.scriptId !== 'string' ||
        typeof cf.url !== 'string' || !isInt(cf.lineNumber) || cf.lineNumber < -1 ||
        !isInt(cf.columnNumber) || cf.columnNumber < -1)
      fail('bad callFrame in node ' + n.id);
    if (!isInt(n.hitCount) || n.hitCount < 0) fail('bad hitCount in node ' + n.id);
  });
  const order = new Map(doc.nodes.map((n, i) => [n.id, i]));
  for (const n of doc.nodes) {
    if (n.children !== undefined && !Array.isArray(n.children)) fail('bad children in ' + n.id);
    for (const c of n.children || []) {
      if (!byId.has(c)) fail('node ' + n.id + ' has unknown child ' + c);
      if (parent.has(c)) fail('node ' + c + ' has two parents');
      if (order.get(c) < order.get(n.id)) fail('child ' + c + ' comes before its parent ' + n.id);
      parent.set(c, n.id);
    }
  }
  const root = doc.nodes[0];
  if (!root || root.callFrame.functionName !== '(root)' || parent.has(root.id))
    fail('nodes[0] is not a (root) without parent');
  for (const n of doc.nodes)
    if (n !== root && !parent.has(n.id)) fail('node ' + n.id + ' is not reachable from the root');
  if (doc.timeDeltas.length !== doc.samples.length) fail('timeDeltas.length != samples.length');
  const hits = new Map();
  for (const s of doc.samples) {
    if (!byId.has(s)) fail('sample names unknown node ' + s);
    hits.set(s, (hits.get(s) || 0) + 1);
  }
  let sum = 0;
  for (const d of doc.timeDeltas) {
    if (!isInt(d) || d < 0) fail('bad time delta ' + d);
    sum += d;
  }
  if (doc.endTime < doc.startTime + sum) fail('endTime before the last sample');
  for (const n of doc.nodes) {
    if (n.hitCount !== (hits.get(n.id) || 0))
      fail('hitCount ' + n.hitCount + ' of node ' + n.id + ' != its ' + (hits.get(n.id) || 0) + ' samples');
    let ticks = 0;
    for (const t of n.positionTicks || []) {
      if (!isInt(t.line) || t.line < 1 || !isInt(t.ticks) || t.ticks < 1) fail('bad positionTicks in ' + n.id);
      ticks += t.ticks;
    }
    if (ticks > n.hitCount) fail('positionTicks of node ' + n.id + ' exceed its hitCount');
  }
  return { byId, parent };
}

// stacks and times of a `nodes` profile (children or parent links) in time order, as
// Chrome DevTools reads it: samples sorted by time (V8 writes a few out of order), and a
// top-level (garbage collector) sample on top of the stack of the sample before it
function timeline(doc) {
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of doc.nodes) {
    if (isInt(n.parent)) parent.set(n.id, n.parent);
    for (const c of n.children || []) parent.set(c, n.id);
  }
  const frame = (n) => {
    const cf = n.callFrame;
    const url = cf.url || '';
    return (cf.functionName || '(anonymous)') + '@' + url + ':' + cf.lineNumber;
  };
  const samples = [];
  let raw = doc.startTime;
  doc.samples.forEach((id, i) => {
    raw += doc.timeDeltas[i];
    samples.push({ id: id, t: raw });
  });
  samples.sort((x, y) => x.t - y.t); // stable: equal times keep their order
  const out = [];
  let prev = [], prevGC = false;
  for (const s of samples) {
    const names = [];
    for (let n = byId.get(s.id); n; n = byId.get(parent.get(n.id)))
      if (parent.has(n.id)) names.push(frame(n));
    names.reverse();
    const top = byId.get(s.id);
    const gc = names.length === 1 && top.callFrame.functionName === '(garbage collector)';
    const stack = gc ? (prevGC ? prev : prev.concat(names)) : names;
    out.push({ stack: stack.join(';'), t: s.t });
    prev = stack;
    prevGC = gc;
  }
  return out;
}

const [outPath, origPath] = process.argv.slice(2);
if (!outPath) { process.stderr.write('usage: node cpuprofile-check.js OUT [ORIGINAL]\n'); process.exit(2); }
const out = JSON.parse(fs.readFileSync(outPath, 'utf8'));
check(out);
if (origPath) {
  const orig = JSON.parse(fs.readFileSync(origPath, 'utf8'));
  const a = timeline(orig), b = timeline(out);
  if (a.length !== b.length) fail('sample count ' + b.length + ' != ' + a.length);
  const a0 = a.length ? a[0].t : 0, b0 = b.length ? b[0].t : 0;
  for (let i = 0; i < a.length; i++) {
    // our reader turns new Function code's empty url into "VM<scriptId>" and back
    if (a[i].stack !== b[i].stack) fail('sample ' + i + ': stack ' + b[i].stack + ' != ' + a[i].stack);
    if (a[i].t - a0 !== b[i].t - b0) fail('sample ' + i + ': time ' + (b[i].t - b0) + ' != ' + (a[i].t - a0));
  }
}
process.stdout.write('ok\n');

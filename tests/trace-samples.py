#!/usr/bin/env python3
# trace-samples.py: an independent reading of a trace's global samples form
# ({"samples": [...], "stackFrames": {...}}) for tests/t4100: each function's flat and
# cumulative weight (a function counted once per stack), by Python's json and decimal
# alone. The "wall" type weighs a sample by the time to the next sample of its thread
# (pid, tid), in time order, the last of a thread 0 (speedscope's importer's rule); the
# "samples" type by its "weight" (1 without). Times in nanoseconds.
# Usage: trace-samples.py FILE wall|samples   prints "name flat cum" lines, sorted.
import json
import sys
from decimal import Decimal

path, kind = sys.argv[1], sys.argv[2]
with open(path) as f:
    doc = json.load(f, parse_float=Decimal)
frames = doc['stackFrames']


def stack(sf):
    names, key = [], str(sf)
    while key is not None:
        fr = frames[key]
        names.append(fr.get('name', '(unnamed)'))
        key = str(fr['parent']) if 'parent' in fr else None
    return names  # leaf first


threads = {}
for i, s in enumerate(doc['samples']):
    key = (int(s.get('pid', 0)), int(s.get('tid', 0)))
    threads.setdefault(key, []).append((Decimal(str(s['ts'])), i, s))
flat, cum = {}, {}
for samples in threads.values():
    samples.sort(key=lambda x: (x[0], x[1]))
    for j, (ts, _, s) in enumerate(samples):
        if kind == 'wall':
            w = (samples[j + 1][0] - ts) * 1000 if j + 1 < len(samples) else 0
        else:
            w = Decimal(str(s.get('weight', 1)))
        names = stack(s['sf'])
        flat[names[0]] = flat.get(names[0], 0) + w
        for n in set(names):
            cum[n] = cum.get(n, 0) + w
        flat.setdefault(names[0], 0)
for n in sorted(cum):
    print(n, int(flat.get(n, 0)), int(cum[n]))

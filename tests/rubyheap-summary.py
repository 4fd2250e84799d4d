#!/usr/bin/env python3
# rubyheap-summary.py: an independent per-class summary of a Ruby heap dump
# (ObjectSpace.dump_all JSON lines, plain or gzipped), without proftool's code: the
# graph from the ROOT lines' references, dominators by the simple iterative algorithm
# (Cooper, Harvey and Kennedy), then count, memsize and retained size per class.
# Objects of type OBJECT/STRUCT/DATA are named by their class's "name", the others
# "(TYPE)"; objects of memsize 0 are left out of the rows; a class's retained size sums
# its objects that no object of the same class dominates. Prints "name,count,memsize,
# retained" lines sorted by name.
import gzip
import json
import sys

path = sys.argv[1]
opener = gzip.open if path.endswith(".gz") else open
objs = []  # (address, dict) in line order
roots = []
with opener(path, "rt", encoding="utf-8", errors="surrogateescape") as f:
    for line in f:
        if not line.strip():
            continue
        o = json.loads(line)
        if o.get("type") == "ROOT":
            roots.extend(o.get("references", []))
        else:
            objs.append(o)

index = {o["address"]: i + 1 for i, o in enumerate(objs)}  # node 0: the root
n = len(objs) + 1
succ = [[] for _ in range(n)]
succ[0] = [index[a] for a in roots if a in index]
for i, o in enumerate(objs):
    succ[i + 1] = [index[a] for a in o.get("references", []) if a in index and index[a] != i + 1]

names = {}
for o in objs:
    if o["type"] in ("CLASS", "MODULE") and isinstance(o.get("name"), str):
        names[o["address"]] = o["name"]


def klass(o):
    if o["type"] in ("OBJECT", "STRUCT", "DATA") and o.get("class") in names:
        return names[o["class"]]
    return "(%s)" % o["type"]


# Objects no ROOT reaches hang from the root: first those nothing references (each
# marking what it reaches), then every one still unreached.
def mark_from(starts, seen):
    todo = [v for v in starts if not seen[v]]
    for v in todo:
        seen[v] = True
    while todo:
        v = todo.pop()
        for w in succ[v]:
            if not seen[w]:
                seen[w] = True
                todo.append(w)


seen = [False] * n
mark_from([0], seen)
referenced = [False] * n
for v in range(1, n):
    for w in succ[v]:
        referenced[w] = True
for v in range(1, n):
    if not seen[v] and not referenced[v]:
        succ[0].append(v)
        mark_from([v], seen)
for v in range(1, n):
    if not seen[v]:
        succ[0].append(v)

# reverse postorder from the root (iterative DFS)
seen, post = [False] * n, []
seen[0] = True
stack = [(0, iter(succ[0]))]
while stack:
    v, it = stack[-1]
    for w in it:
        if not seen[w]:
            seen[w] = True
            stack.append((w, iter(succ[w])))
            break
    else:
        post.append(v)
        stack.pop()
rpo = list(reversed(post))
num = [0] * n
for k, v in enumerate(rpo):
    num[v] = k
pred = [[] for _ in range(n)]
for v in range(n):
    for w in succ[v]:
        pred[w].append(v)

idom = [None] * n
idom[0] = 0


def intersect(a, b):
    while a != b:
        while num[a] > num[b]:
            a = idom[a]
        while num[b] > num[a]:
            b = idom[b]
    return a


changed = True
while changed:
    changed = False
    for v in rpo[1:]:
        new = None
        for p in pred[v]:
            if idom[p] is not None:
                new = p if new is None else intersect(p, new)
        if new is not None and idom[v] != new:
            idom[v] = new
            changed = True

size = [0] + [int(o.get("memsize", 0)) for o in objs]
retained = size[:]
for v in reversed(rpo):
    if v:
        retained[idom[v]] += retained[v]

cls = [None] + [klass(o) for o in objs]
children = [[] for _ in range(n)]
for v in range(1, n):
    children[idom[v]].append(v)
rows = {}
for v in range(1, n):
    if size[v]:
        r = rows.setdefault(cls[v], [0, 0, 0])
        r[0] += 1
        r[1] += size[v]
# dominator tree walk, counting the classes on the path from the root
active = {}
stack = [(0, False)]
while stack:
    v, leaving = stack.pop()
    c = cls[v] if v and size[v] else None
    if leaving:
        if c is not None:
            active[c] -= 1
        continue
    if c is not None:
        if not active.get(c):
            rows[c][2] += retained[v]
        active[c] = active.get(c, 0) + 1
    stack.append((v, True))
    for w in children[v]:
        stack.append((w, False))
for name in sorted(rows):
    print("%s,%d,%d,%d" % (name, rows[name][0], rows[name][1], rows[name][2]))

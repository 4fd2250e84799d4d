#!/usr/bin/env python3
# rubyheap-summary.py: an independent per-class summary of a Ruby heap dump
# (ObjectSpace.dump_all JSON lines, plain or gzipped), without proftool's code: the
# graph from the ROOT lines' references, dominators by the simple iterative algorithm
# (Cooper, Harvey and Kennedy), then count, memsize and retained size per class.
# Objects of type OBJECT/STRUCT/DATA are named by their class's "name", the others
# "(TYPE)"; objects of memsize 0 are left out of the rows; a class's retained size sums
# its objects that no object of the same class dominates. Prints "name,count,memsize,
# retained" lines sorted by name.
# --by site groups by "file:line" ("(no site)" without "file"), --by generation by
# "generation" ("(no generation)"). With several dumps of one process (oldest first),
# only the last one's leaked objects count: those whose (address, type) is in every
# dump from one after the first up to the last, and not in the dump before that.
# --diff BASE NEW: per group, the objects (by group and address) only in NEW, only in
# BASE, and their memsizes: "name,added,deleted,added_size,deleted_size" lines.
# Usage: rubyheap-summary.py [--diff] [--by class|site|generation] DUMP...
import gzip
import json
import sys

args = sys.argv[1:]
by = "class"
diff = args[0] == "--diff"
if diff:
    args = args[1:]
if args[0] == "--by":
    by, args = args[1], args[2:]


def lines(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


# each (address, type) of the last dump: the first dump of its run up to the last
start = {}
for k, p in enumerate(args[:-1] if not diff else []):
    start = {(o["address"], o["type"]): start.get((o["address"], o["type"]), k)
             for o in lines(p) if o.get("type") != "ROOT"}
path = args[-1]
objs = []  # (address, dict) in line order
roots = []
for o in lines(path):
    if o.get("type") == "ROOT":
        roots.extend(o.get("references", []))
    else:
        objs.append(o)
last = len(args) - 1


def kept(o):
    if last == 0 or diff:
        return True
    s = start.get((o["address"], o["type"]))
    return s is not None and s >= 1  # alive since a dump after the first

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
    if not kept(o):
        return None
    if by == "site":
        return "%s:%s" % (o["file"], o["line"]) if isinstance(o.get("file"), str) else "(no site)"
    if by == "generation":
        return str(o["generation"]) if isinstance(o.get("generation"), int) else "(no generation)"
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
if diff:  # args: BASE NEW; objs are NEW's
    def groups(dump):
        names.update({o["address"]: o["name"] for o in dump
                      if o["type"] in ("CLASS", "MODULE") and isinstance(o.get("name"), str)})
        return {(klass(o), o["address"]): int(o.get("memsize", 0)) for o in dump if o.get("memsize")}
    names.clear()
    old = groups([o for o in lines(args[0]) if o.get("type") != "ROOT"])
    names.clear()
    new = groups(objs)
    rows = {}
    for key, size in new.items():
        if key not in old:
            r = rows.setdefault(key[0], [0, 0, 0, 0])
            r[0] += 1
            r[2] += size
    for key, size in old.items():
        if key not in new:
            r = rows.setdefault(key[0], [0, 0, 0, 0])
            r[1] += 1
            r[3] += size
    for name in sorted(rows):
        print("%s,%d,%d,%d,%d" % ((name,) + tuple(rows[name])))
    sys.exit(0)
children = [[] for _ in range(n)]
for v in range(1, n):
    children[idom[v]].append(v)
rows = {}
for v in range(1, n):
    if size[v] and cls[v] is not None:
        r = rows.setdefault(cls[v], [0, 0, 0])
        r[0] += 1
        r[1] += size[v]
# dominator tree walk, counting the classes on the path from the root
active = {}
stack = [(0, False)]
while stack:
    v, leaving = stack.pop()
    c = cls[v] if v and size[v] and cls[v] is not None else None
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

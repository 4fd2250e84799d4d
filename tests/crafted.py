#!/usr/bin/env python3
"""crafted.py: inputs crafted against the cost of reading them (issue 17), made at run
time by the tests and the bench rather than committed. Usage: crafted.py KIND N [R]

  names N          collapsed: N frame names of 16 bytes that all share one value of the
                   unseeded string hash proftool used before its tables were keyed (one
                   multiply and one xorshift per 8-byte block, each step invertible, so
                   the second block is solved for); 'hot;NAME 1', the first name 1000
  random N         collapsed: the same shape with random names (the anchor)
  ids N            .cpuprofile: a root with N children whose node ids all fell in one
                   slot of the unkeyed map (splitmix64's finalizer, inverted), each
                   child sampled once
  perf-events N R  perf script: R samples of distinct stacks under one event, then N
                   samples, each of a stack and an event name of its own
  pprof-types N    pprof (uncompressed protobuf): N sample types, one sample with N
                   values of 1
  pprof-nul N      pprof (uncompressed protobuf): N functions whose names differ only
                   after a NUL byte ("f\\0" then the number), function k sampled k times
  pprof-nosym N    pprof (uncompressed protobuf): N locations with an address and no
                   line (unsymbolized), location k sampled k times under 'main'
  pprof-addrs N    pprof (uncompressed protobuf): one mapping and N locations with an
                   address and no line, each sampled once alone; stdin gives the
                   mapping ("START LIMIT OFFSET FILE [BUILD_ID]", numbers in hex), then
                   the N addresses (hex), one a line
  pprof-cancel N   pprof (uncompressed protobuf): samples of one stack that sum to 0,
                   and of the same stack under a label; N copies of the set
  funcs N          collapsed: main calling N functions f1..fN, fK with K samples
  heapsnapshot N   V8 heap snapshot with V8's own meta: N objects of a few classes under
                   a global, holding one another (cycles), arrays with one owner and
                   shared ones, hidden nodes, closures with contexts, weak edges and
                   WeakMap tables with DevTools' pair edge names, and the edges DevTools'
                   distances leave out (a seed that reaches the heap command's owner,
                   dominator, summary and retainers passes)
"""
import json
import random
import sys

M = (1 << 64) - 1
C = 0x9FB21C651E98DF25


def unxorshift(h, s):
    x = h
    for _ in range(64 // s + 1):
        x = h ^ (x >> s)
    return x & M


def colliding_names(n):
    cinv = pow(C, -1, 1 << 64)
    h0 = (0x9E3779B97F4A7C15 ^ (16 * 0xFF51AFD7ED558CCD)) & M
    x = (unxorshift(0x0123456789ABCDEF, 29) * cinv) & M
    bad = set(b"\0\n\r\t ;,\"\\")  # and nothing CSV or C quotes
    out, i = [], 0
    while len(out) < n:
        w1 = b"c%07d" % i
        i += 1
        s = ((h0 ^ int.from_bytes(w1, "little")) * C) & M
        s ^= s >> 29
        w2 = (x ^ s).to_bytes(8, "little")
        if not bad.intersection(w2):
            out.append(w1 + w2)
    return out


def colliding_ids(n):
    """ids whose old map hash (splitmix64's finalizer) ends in 20 zero bits"""
    m1, m2 = pow(0xBF58476D1CE4E5B9, -1, 1 << 64), pow(0x94D049BB133111EB, -1, 1 << 64)
    out, j = [], 1
    while len(out) < n:
        h = j << 20
        j += 1
        h = unxorshift(h, 31)
        h = (h * m2) & M
        h = unxorshift(h, 27)
        h = (h * m1) & M
        h = unxorshift(h, 30)
        if 0 < h < (1 << 63):  # a JSON integer that fits int64
            out.append(h)
    return out


def varint(v):
    b = bytearray()
    while True:
        if v < 0x80:
            b.append(v)
            return bytes(b)
        b.append((v & 0x7F) | 0x80)
        v >>= 7


def field(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def heapsnapshot(n):
    """a well-formed snapshot, the same for the same n"""
    rng = random.Random(n)
    strings, sid = [], {}

    def st(x):
        if x not in sid:
            sid[x] = len(strings)
            strings.append(x)
        return sid[x]

    types = ["hidden", "array", "string", "object", "code", "closure", "regexp", "number",
             "native", "synthetic", "concatenated string", "sliced string", "symbol",
             "bigint", "object shape"]
    etypes = ["context", "element", "property", "internal", "hidden", "shortcut", "weak"]
    nodes, edges = [], []  # nodes: [type, name, size, [(etype, name_or_index, to)]]

    def node(t, name, size):
        nodes.append([types.index(t), st(name), size, []])
        return len(nodes) - 1

    def edge(a, t, name, b):
        key = name if t in ("element", "hidden") else st(name)
        nodes[a][3].append((etypes.index(t), key, b))

    st("")
    root = node("synthetic", "", 0)
    gc = node("synthetic", "(GC roots)", 0)
    glob = node("object", "global", 40)
    edge(root, "element", 1, gc)
    edge(root, "shortcut", "global", glob)
    edge(gc, "element", 1, glob)
    classes = ["Map", "Item", "Node", "Cache", "Entry"]
    objs = []
    for k in range(n):
        o = node("object", rng.choice(classes), rng.choice([16, 24, 32, 56]))
        objs.append(o)
        if k < 8 or rng.random() < 0.3:
            edge(glob, "property", "g%d" % k, o)
    shared = node("array", "(object elements)", 64)
    for k, o in enumerate(objs):
        edge(o, "property", "next", objs[rng.randrange(len(objs))])
        if rng.random() < 0.5:
            edge(o, "element", 1, shared)
        if rng.random() < 0.5:
            arr = node("array", "(object properties)", rng.randrange(8, 200))
            edge(o, "internal", "properties", arr)
            edge(arr, "hidden", 0, node("hidden", "system / Oddball", 8))
        if rng.random() < 0.3:
            s = node("string", "s%d" % k, 20)
            edge(o, "property", "name", s)
            edge(o, "weak", "w", objs[rng.randrange(len(objs))])
        if rng.random() < 0.2:
            c = node("closure", "f%d" % k, 32)
            ctx = node("object", "system / Context", 48)
            edge(c, "internal", "context", ctx)
            edge(ctx, "context", "v", o)
            edge(o, "property", "fn", c)
    for w in range(max(1, n // 50)):
        wm = node("object", "WeakMap", 24)
        table = node("array", "(object elements)", 128)
        edge(glob, "property", "wm%d" % w, wm)
        edge(wm, "internal", "table", table)
        key, val = objs[rng.randrange(len(objs))], objs[rng.randrange(len(objs))]
        pair = "%d / part of key (%s @%d) -> value (%s @%d) pair in WeakMap (table @%d)" % (
            w, strings[nodes[key][1]], 2 * key + 1, strings[nodes[val][1]], 2 * val + 1,
            2 * table + 1)
        edge(table, "internal", pair, val)
        edge(key, "internal", pair, val)
    # the edges DevTools' distances do not take (calculateDistances' filter): a
    # NativeContext's sloppy_function_map and the descriptor slots (3i + 4) of a
    # "(map descriptors)" array, by index or by a name that parses as one; each leads to a
    # Shape that (Strong roots) holds too, so it is reached from there, later
    strong = node("synthetic", "(Strong roots)", 0)
    edge(gc, "element", 2, strong)
    native = node("hidden", "system / NativeContext", 64)
    desc = node("array", "(map descriptors)", 48)
    edge(glob, "internal", "native_context", native)
    edge(glob, "internal", "descriptors", desc)
    held = [(native, "internal", "sloppy_function_map"), (native, "internal", "object_function")]
    held += [(desc, "element", i) for i in range(8)]
    held += [(desc, "internal", nm) for nm in ("7", " 10", "x", "-4")]
    for k, (a, t, name) in enumerate(held):
        shape = node("object", "Shape", 8 + k)
        edge(a, t, name, shape)
        edge(strong, "element", k + 1, shape)
    nf, flat, nedges = 7, [], 0
    for i, (t, name, size, es) in enumerate(nodes):
        flat += [t, name, 2 * i + 1, size, len(es), 0, 0]
        for et, key, b in es:
            edges += [et, key, b * nf]
            nedges += 1
    meta = {
        "node_fields": ["type", "name", "id", "self_size", "edge_count", "trace_node_id",
                        "detachedness"],
        "node_types": [types, "string", "number", "number", "number", "number", "number"],
        "edge_fields": ["type", "name_or_index", "to_node"],
        "edge_types": [etypes, "string_or_number", "node"],
        "trace_function_info_fields": ["function_id", "name", "script_name", "script_id",
                                       "line", "column"],
        "trace_node_fields": ["id", "function_info_index", "count", "size", "children"],
        "sample_fields": ["timestamp_us", "last_assigned_id"],
        "location_fields": ["object_index", "script_id", "line", "column"]}
    return json.dumps({"snapshot": {"meta": meta, "node_count": len(nodes),
                                    "edge_count": nedges, "trace_function_count": 0},
                       "nodes": flat, "edges": edges, "trace_function_infos": [],
                       "trace_tree": [], "samples": [], "locations": [],
                       "strings": strings}, separators=(",", ":")) + "\n"


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    r = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    w = sys.stdout.buffer
    if kind in ("names", "random"):
        rng = random.Random(1)
        names = (colliding_names(n) if kind == "names" else
                 [b"r%015x" % rng.getrandbits(60) for _ in range(n)])
        w.write(b"".join(b"hot;%s %d\n" % (s, 1000 if k == 0 else 1)
                         for k, s in enumerate(names)))
    elif kind == "ids":
        ids = colliding_ids(n)
        nodes = ['{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"",'
                 '"lineNumber":-1,"columnNumber":-1},"hitCount":0,"children":[%s]}'
                 % ",".join(map(str, ids))]
        nodes += ['{"id":%d,"callFrame":{"functionName":"f%d","scriptId":"1","url":"x.js",'
                  '"lineNumber":%d,"columnNumber":0},"hitCount":1}' % (i, k, k)
                  for k, i in enumerate(ids)]
        w.write(('{"nodes":[%s],"startTime":0,"endTime":%d,"samples":[%s],'
                 '"timeDeltas":[%s]}\n' % (",".join(nodes), n * 1000,
                                           ",".join(map(str, ids)),
                                           ",".join(["1000"] * n))).encode())
    elif kind == "perf-events":
        out = []
        for k in range(r):
            out.append("p 1 1.%06d: 1 ev0:\n\t1 a%d (x)\n\t2 main (x)\n\n" % (k, k))
        for k in range(n):
            out.append("p 1 2.%06d: 1 e%d:\n\t1 g%d (x)\n\n" % (k, k, k))
        w.write("".join(out).encode())
    elif kind == "pprof-types":
        strings = [b"", b"t", b"count", b"f"]
        st = field(1, b"\x08\x01\x10\x02")  # ValueType{type: 1, unit: 2}
        sample = field(2, field(1, varint(1)) + field(2, b"\x01" * n))
        loc = field(4, b"\x08\x01" + field(4, b"\x08\x01"))  # Location{id 1, line{fn 1}}
        fn = field(5, b"\x08\x01\x10\x03")  # Function{id 1, name 3}
        w.write(st * n + sample + loc + fn + b"".join(field(6, s) for s in strings))
    elif kind == "pprof-nul":
        strings = [b"", b"samples", b"count"] + [b"f\0%d" % k for k in range(1, n + 1)]
        out = [field(1, b"\x08\x01\x10\x02")]
        for k in range(1, n + 1):
            out.append(field(2, field(1, varint(k)) + field(2, varint(k))))
            out.append(field(4, b"\x08" + varint(k) + field(4, b"\x08" + varint(k))))
            out.append(field(5, b"\x08" + varint(k) + b"\x10" + varint(k + 2)))
        w.write(b"".join(out) + b"".join(field(6, s) for s in strings))
    elif kind == "pprof-nosym":
        def num(f, v):
            return varint(f << 3) + varint(v)
        out = [field(1, num(1, 1) + num(2, 2))]
        for k in range(1, n + 1):
            out.append(field(2, field(1, varint(k) + varint(n + 1)) + field(2, varint(k))))
            out.append(field(4, num(1, k) + num(3, 0x400000 + 0x1000 * k)))
        out.append(field(4, num(1, n + 1) + field(4, num(1, 1))))
        out.append(field(5, num(1, 1) + num(2, 3)))
        strings = [b"", b"samples", b"count", b"main"]
        w.write(b"".join(out) + b"".join(field(6, s) for s in strings))
    elif kind == "pprof-cancel":
        def num(f, v):
            return varint(f << 3) + varint(v & 0xFFFFFFFFFFFFFFFF)

        def sample(locs, v, label=b""):
            return field(2, field(1, b"".join(varint(x) for x in locs)) +
                         field(2, varint(v & 0xFFFFFFFFFFFFFFFF)) + label)
        out = [field(1, num(1, 1) + num(2, 2))]
        for _ in range(n):
            # a;b +5 and -5, a;b -5 under k=v, a;c 3, b;a;b 2 (leaf first)
            out += [sample([2, 1], 5), sample([2, 1], -5),
                    sample([2, 1], -5, field(3, num(1, 6) + num(2, 7))),
                    sample([3, 1], 3), sample([2, 1, 2], 2)]
        for k in (1, 2, 3):
            out.append(field(4, num(1, k) + field(4, num(1, k))))
            out.append(field(5, num(1, k) + num(2, k + 2)))
        strings = [b"", b"samples", b"count", b"a", b"b", b"c", b"k", b"v"]
        w.write(b"".join(out) + b"".join(field(6, s) for s in strings))
    elif kind == "pprof-addrs":
        def num(f, v):
            return varint(f << 3) + varint(v)
        lines = sys.stdin.read().split("\n")
        m = lines[0].split()
        addrs = [int(x, 16) for x in lines[1:n + 1]]
        strings = [b"", b"samples", b"count", m[3].encode(),
                   (m[4] if len(m) > 4 else "").encode()]
        out = [field(1, num(1, 1) + num(2, 2))]
        out.append(field(3, num(1, 1) + num(2, int(m[0], 16)) + num(3, int(m[1], 16)) +
                         num(4, int(m[2], 16)) + num(5, 3) + num(6, 4)))
        for k, a in enumerate(addrs, 1):
            out.append(field(2, field(1, varint(k)) + field(2, varint(1))))
            out.append(field(4, num(1, k) + num(2, 1) + num(3, a)))
        w.write(b"".join(out) + b"".join(field(6, s) for s in strings))
    elif kind == "heapsnapshot":
        w.write(heapsnapshot(n).encode())
    elif kind == "funcs":
        w.write(b"".join(b"main;f%d %d\n" % (k, k) for k in range(1, n + 1)))
    else:
        raise SystemExit("crafted.py: unknown kind " + kind)


main()

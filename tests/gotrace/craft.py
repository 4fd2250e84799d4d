#!/usr/bin/env python3
"""craft.py: small Go execution traces (the 1.19 format) written event by event, for the
tests: one whose delays can be counted by hand, and broken ones. Usage: craft.py DIR
writes DIR/gotrace-*.trace (see the comment above each)."""
import os
import sys

(BATCH, FREQ, STACK, PROC_START, GO_CREATE, GO_START, GO_END, GO_UNBLOCK,
 GO_BLOCK_RECV, GO_BLOCK_NET, STRING) = (1, 2, 3, 5, 13, 14, 15, 21, 23, 27, 37)
HEADER = b"go 1.19 trace\0\0\0"


def uv(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def ev(typ, *args):
    """one event: up to 3 arguments inline, more with a length before them"""
    if len(args) < 4:
        return bytes([typ | (max(len(args), 1) - 1) << 6]) + b"".join(uv(a) for a in args)
    body = b"".join(uv(a) for a in args)
    return bytes([typ | 3 << 6]) + uv(len(body)) + body


def string(sid, s):
    s = s.encode()
    return bytes([STRING]) + uv(sid) + uv(len(s)) + s


def stack(sid, frames):
    args = [sid, len(frames)]
    for pc, fn, file, line in frames:
        args += [pc, fn, file, line]
    return ev(STACK, *args)


def events(block_stack=3):
    """g0 creates g2 (stack 1) at 1010; g2 starts at 1030 (sched 20 ns on stack 1),
    blocks on a receive at 1130 (stack 3), is unblocked by g0 at 2130 (sync 1000 ns on
    stack 3; stack 4), starts at 2135 (sched 5 ns on stack 4) and ends; the clock ticks
    once a nanosecond"""
    return (ev(BATCH, 0, 1000) + ev(PROC_START, 0, 7) + ev(GO_CREATE, 10, 2, 2, 1) +
            ev(GO_START, 20, 2, 1) + ev(GO_BLOCK_RECV, 100, block_stack) +
            ev(GO_UNBLOCK, 1000, 2, 2, 4) + ev(GO_START, 5, 2, 3) + ev(GO_END, 50))


(GC_START, GC_DONE, STW_START, STW_DONE, SWEEP_START, SWEEP_DONE, ASSIST_START,
 ASSIST_DONE) = (7, 8, 9, 10, 11, 12, 43, 44)


def gc_events():
    """g0 creates g2 (main.worker) at 10; GC 1 runs from 20 to 200 with a stop-the-world
    phase from 20 to 35; g0 creates g3 at 30 (during GC 1; it never runs); g2 starts at
    50, assists from 60 to 90, sweeps from 100 to 120; GC 2 starts at 300; g2 ends at
    350; a stop-the-world phase runs from 400 to 410, the last event"""
    return (ev(BATCH, 0, 1000) + ev(PROC_START, 0, 7) + ev(GO_CREATE, 10, 2, 2, 1) +
            ev(GC_START, 10, 0, 0) + ev(STW_START, 0, 0) + ev(GO_CREATE, 10, 3, 2, 1) +
            ev(STW_DONE, 5) + ev(GO_START, 15, 2, 1) + ev(ASSIST_START, 10, 0) +
            ev(ASSIST_DONE, 30) + ev(SWEEP_START, 10, 0) + ev(SWEEP_DONE, 20, 1, 1) +
            ev(GC_DONE, 80) + ev(GC_START, 100, 1, 0) + ev(GO_END, 50) +
            ev(STW_START, 50, 1) + ev(STW_DONE, 10))


def tables():
    return (ev(FREQ, 1000000000) +
            string(1, "main.main") + string(2, "main.go") + string(3, "main.worker") +
            string(4, "runtime.chanrecv1") + string(5, "runtime/chan.go") +
            string(6, "runtime.chansend1") +
            stack(1, [(0x401000, 1, 2, 10)]) +
            stack(2, [(0x402000, 3, 2, 20)]) +
            stack(3, [(0x403000, 4, 5, 442), (0x402010, 3, 2, 21)]) +
            stack(4, [(0x404000, 6, 5, 144), (0x401010, 1, 2, 12)]))


def main():
    d = sys.argv[1]
    good = HEADER + events() + tables()
    files = {
        # the hand-countable trace
        "gotrace-counted.trace": good,
        # cut inside the batch, in the middle of an event's arguments
        "gotrace-truncated-batch.trace": HEADER + events()[:-3],
        # event type 63 does not exist
        "gotrace-unknown-event.trace": HEADER + events() + bytes([63, 1]) + tables(),
        # the receive names stack 9, which no stack record defines
        "gotrace-missing-stack.trace": HEADER + events(block_stack=9) + tables(),
        # a length-prefixed event whose length runs past the end of the file
        "gotrace-length-past-end.trace": HEADER + events() + tables() +
        bytes([GO_CREATE | 3 << 6]) + uv(100000) + b"\x01\x02",
        # a version header with garbage after it
        "gotrace-garbage-header.trace": b"go 1.19 traceXYZ" + events() + tables(),
        # GC cycles, stop-the-world phases, a sweep and an assist, counted by hand
        "gotrace-gc.trace": HEADER + gc_events() + tables(),
        # the second GC ends twice
        "gotrace-gc-unpaired.trace": HEADER + gc_events() + ev(GC_DONE, 5) + ev(GC_DONE, 5) +
        tables(),
        # a version no reader knows yet
        "gotrace-future-version.trace": b"go 1.99 trace\0\0\0" + events() + tables(),
    }
    for name, data in files.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


main()

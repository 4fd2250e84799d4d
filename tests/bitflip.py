#!/usr/bin/env python3
"""bitflip.py FILE N PREFIX: write PREFIX.1 .. PREFIX.N, copies of FILE with bit 5 of one
byte flipped (a letter changes case, a digit or tab becomes text), at offset
(size * i * 7919 / (N + 1)) % size for copy i (t7000: one process for all the copies)."""
import sys

path, n, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "rb") as f:
    data = f.read()
size = len(data)
for i in range(1, n + 1):
    off = (size * i * 7919 // (n + 1)) % size
    b = bytearray(data)
    b[off] ^= 0x20
    with open("%s.%d" % (prefix, i), "wb") as f:
        f.write(b)

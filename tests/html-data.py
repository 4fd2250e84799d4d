#!/usr/bin/env python3
# html-data.py PAGE.html [TYPE]: what proftool's HTML report holds, read from its JSON
# (no code of proftool's), one fact a line, for tests/t5050-html.sh and t5065:
#   size BYTES                      the page
#   tree-nodes N / tree-cut K       drawn nodes (the root too), merged nodes left out
#   node DEPTH NAME CUM             each drawn node but the root, its inclusive value
#   edge CALLER CALLEE V            caller/callee pairs written, value of TYPE
#   other-callers FN N V            the "(other)" entry of FN's callers: N pairs, V
#   other-callees FN N V            the same for FN's callees
#   runs N / runs-sum V             time order runs and their summed value of TYPE
import json
import re
import sys

page = open(sys.argv[1], encoding='utf-8').read()
t = int(sys.argv[2]) if len(sys.argv) > 2 else 0
m = re.search(r'<script type="application/json" id="pt-data">(.*?)</script>', page, re.S)
d = json.loads(m.group(1))
S = d['strings']


def name(f):
    return S[d['fn']['name'][f]] or '(unknown)'


print('size', len(page.encode('utf-8')))
if 'tree' in d:
    print('tree-nodes', len(d['tree']['parent']))
    print('tree-cut', d['tree']['cut'])
    P, F, V = d['tree']['parent'], d['tree']['fn'], d['tree']['self'][t]
    cum, depth = list(V), [0] * len(P)
    for n in range(len(P) - 1, 0, -1):
        cum[P[n]] += cum[n]
    for n in range(1, len(P)):
        depth[n] = depth[P[n]] + 1
        print('node', depth[n] - 1, name(F[n]), cum[n])
E = d['edges']
for a, b, v in zip(E['from'], E['to'], E['v'][t]):
    print('edge', name(a), name(b), v)
for side in ('callers', 'callees'):
    o = E['other' + side.capitalize()]
    for f, n, v in zip(o['fn'], o['n'], o['v'][t]):
        print('other-' + side, name(f), n, v)
if 'timeline' in d:
    print('runs', len(d['timeline']['node']))
    print('runs-sum', sum(d['timeline']['v'][t]))

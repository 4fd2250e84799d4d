#!/usr/bin/env python3
# ci-check.py junit FILE | metrics FILE: read a gate's CI report without proftool's code
# and print what it says, one line per test case or sample, or fail (exit 1) on a file a
# CI system would refuse. junit: xml.etree parses it, the counts of <testsuites> and
# <testsuite> must add up; prints "NAME<TAB>pass|fail". metrics: the OpenMetrics text
# format (a TYPE line before a family's samples, a HELP line, samples "name{l="v"} value",
# "# EOF" the last line); prints "FAMILY<TAB>LABEL-VALUE<TAB>VALUE".
import re, sys
import xml.etree.ElementTree as ET


def fail(msg):
    print('ci-check.py: ' + msg, file=sys.stderr)
    sys.exit(1)


def junit(path):
    root = ET.parse(path).getroot()
    if root.tag != 'testsuites':
        fail('root is <%s>, not <testsuites>' % root.tag)
    total = failures = 0
    for suite in root.findall('testsuite'):
        cases = suite.findall('testcase')
        nfail = sum(1 for c in cases if c.find('failure') is not None)
        if int(suite.get('tests')) != len(cases) or int(suite.get('failures')) != nfail:
            fail('testsuite counts %s/%s, cases %d/%d' %
                 (suite.get('tests'), suite.get('failures'), len(cases), nfail))
        for c in cases:
            if not c.get('name') or not c.get('classname'):
                fail('a testcase without name or classname')
            f = c.find('failure')
            if f is not None and not f.get('message'):
                fail('a failure without a message')
            print('%s\t%s' % (c.get('name'), 'fail' if f is not None else 'pass'))
        total += len(cases)
        failures += nfail
    if int(root.get('tests')) != total or int(root.get('failures')) != failures:
        fail('testsuites counts do not add up')


NAME = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
SAMPLE = re.compile(r'(%s)(?:\{(%s)="((?:[^"\\\n]|\\[\\"n])*)"\})? (\S+)$' % (NAME, NAME))
NUMBER = re.compile(r'[+-]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|Inf)$|NaN$')


def metrics(path):
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    if lines[-1] != '' or lines[-2] != '# EOF':
        fail('the last line is not "# EOF"')
    families = {}
    current = None
    for line in lines[:-2]:
        m = re.match(r'# (TYPE|HELP) (%s) (.*)$' % NAME, line)
        if m:
            if m.group(1) == 'TYPE':
                if m.group(2) in families:
                    fail('family %s declared twice' % m.group(2))
                if m.group(3) not in ('gauge', 'counter', 'unknown'):
                    fail('type %s' % m.group(3))
                families[m.group(2)] = m.group(3)
                current = m.group(2)
            elif m.group(2) != current:
                fail('HELP of %s outside its family' % m.group(2))
            continue
        m = SAMPLE.match(line)
        if not m:
            fail('not a sample: %r' % line)
        if m.group(1) != current:
            fail('sample of %s outside its family' % m.group(1))
        if not NUMBER.match(m.group(4)):
            fail('bad value %r' % m.group(4))
        value = m.group(3) or ''
        value = re.sub(r'\\(.)', lambda e: '\n' if e.group(1) == 'n' else e.group(1), value)
        print('%s\t%s\t%s' % (m.group(1), value, m.group(4)))


if len(sys.argv) != 3 or sys.argv[1] not in ('junit', 'metrics'):
    fail('usage: ci-check.py junit|metrics FILE')
(junit if sys.argv[1] == 'junit' else metrics)(sys.argv[2])

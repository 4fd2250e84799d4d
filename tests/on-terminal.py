#!/usr/bin/env python3
# on-terminal.py [--stdin-tty] [--stdout-tty] [--stderr-tty] CMD...: run CMD with its
# standard input, output and/or error on a pseudo-terminal (the other streams as they
# are), then print its exit status on stdout as "rc=N", after what it wrote to the
# terminal (as "tty: LINE"). For tests of what proftool does on a terminal.
import os, pty, select, subprocess, sys

args = sys.argv[1:]
stdin_tty = stdout_tty = stderr_tty = False
while args and args[0].startswith('--'):
    if args[0] == '--stdin-tty':
        stdin_tty = True
    elif args[0] == '--stdout-tty':
        stdout_tty = True
    elif args[0] == '--stderr-tty':
        stderr_tty = True
    args = args[1:]
master, slave = pty.openpty()
proc = subprocess.Popen(args, stdin=slave if stdin_tty else subprocess.DEVNULL,
                        stdout=slave if stdout_tty else None,
                        stderr=slave if stderr_tty else None, close_fds=True)
os.close(slave)
got = b''
while True:
    # a command that waits on the terminal would never end: 10 s and it is killed
    r, _, _ = select.select([master], [], [], 10)
    if not r:
        if proc.poll() is not None:
            break
        proc.kill()
        print('on-terminal.py: the command still waited after 10 s', file=sys.stderr)
        break
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    got += chunk
rc = proc.wait()
for line in got.decode('utf-8', 'replace').splitlines():
    print('tty: ' + line)
print('rc=%d' % rc)

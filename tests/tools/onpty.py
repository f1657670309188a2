#!/usr/bin/env python3
"""onpty.py CMD [ARG]...: run CMD with stdin, stdout and stderr on a new
pseudo-terminal, type what our own stdin holds (then Ctrl-D) once CMD has
printed something or after a second, and print everything the terminal
showed.  For the tests of what wingen says when a person would have to
type its input (tests/sh/stdin.sh)."""
import os
import pty
import select
import sys
import time

data = sys.stdin.buffer.read()
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
shown = b''
start = time.time()
sent = False
while time.time() - start < 20:
    ready, _, _ = select.select([fd], [], [], 0.2)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:		# the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    if not sent and (shown or time.time() - start > 1):
        os.write(fd, data + b'\x04')
        sent = True
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(shown)
sys.exit(os.waitstatus_to_exitcode(status))

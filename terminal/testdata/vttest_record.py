"""Records vttest's screens for fawn's terminal tests.

Each testdata/vttest*/record.py walks some of vttest's menus with the
functions here, then writes one file per key pressed (NN.in: the bytes vttest
wrote after it), in the directory given as its argument:

    python3 record.py DIR

vttest runs as a VT220 on a 24x80 pty: device-attribute queries are answered
as one would answer them.
"""
import os, pty, select, time, sys, struct, fcntl, termios

pid, fd = pty.fork()
if pid == 0:
    os.environ['TERM'] = 'xterm'
    os.execvp('vttest', ['vttest', '24x80.80'])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 24, 80, 0, 0))


def drain(quiet=0.4, limit=10):
    out = b''
    last = time.time(); start = time.time()
    while time.time() - start < limit:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try: d = os.read(fd, 65536)
            except OSError: break
            if not d: break
            out += d; last = time.time()
            # answer what a VT220 answers: device attributes, cursor position
            if b'\x1b[0c' in d or b'\x1b[c' in d:
                os.write(fd, b'\x1b[?62;1;6;22c')
        elif time.time() - last > quiet:
            break
    return out


steps = [('', drain())]  # (key, output)


def send(k):
    """Presses k and keeps what vttest wrote after it."""
    os.write(fd, k.encode()); steps.append((k, drain()))


def walk(choose, menu):
    """Chooses a test, then presses Return until vttest is back at menu."""
    send(choose)
    for i in range(40):
        if menu.encode() in steps[-1][1] and b'Push <RETURN>' not in steps[-1][1]:
            return
        send('\r')


def save():
    """Writes the steps into the directory named on the command line."""
    out = sys.argv[1]
    for i, (k, d) in enumerate(steps):
        open(os.path.join(out, '%02d.in' % i), 'wb').write(d)
    print(len(steps), [len(d) for _, d in steps])

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
            if b'\x1b[0c' in d or b'\x1b[c' in d:
                os.write(fd, b'\x1b[?62;1;6;22c')
        elif time.time() - last > quiet:
            break
    return out
steps = []
steps.append(('', drain()))
def send(k):
    os.write(fd, k.encode()); steps.append((k, drain()))
def walk(choose, menu):
    send(choose)
    for i in range(40):
        if menu.encode() in steps[-1][1] and b'Push <RETURN>' not in steps[-1][1]:
            return
        send('\r')
send('9\r')
for n in ['2', '6', '7', '9']:
    walk(n + '\r', 'Enter choice number (0 - 9)')
send('0\r')
out = sys.argv[1]
for i, (k, d) in enumerate(steps):
    open(os.path.join(out, '%02d.in' % i), 'wb').write(d)
print(len(steps), [len(d) for _, d in steps])

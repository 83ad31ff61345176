import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from vttest_record import send, walk, save  # starts vttest on a pty

send('11\r')
send('5\r')
for n in '123456789':
    send(n + '\r')
    send('\r')
send('0\r')
send('0\r')
save()

import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from vttest_record import send, walk, save  # starts vttest on a pty

send('3\r')
for n in ['8', '9', '10', '11']:
    walk(n + '\r', 'Enter choice number (0 - 13)')
send('0\r')
save()

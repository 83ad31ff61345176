import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from vttest_record import send, walk, save  # starts vttest on a pty

walk('1\r', 'Enter choice number (0 - 12)')
walk('2\r', 'Enter choice number (0 - 12)')
walk('8\r', 'Enter choice number (0 - 12)')
send('11\r'); send('8\r'); send('7\r')
for n in '345':
    walk(n + '\r', 'Enter choice number (0 - 5)')
save()

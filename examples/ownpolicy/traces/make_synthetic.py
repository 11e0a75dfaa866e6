"""Writes synthetic.swf.txt: 380 rigid jobs in January 1970 on 32 processors,
from a fixed linear congruential generator (no real trace is committed).
Run: python3 make_synthetic.py > synthetic.swf.txt"""
state = 12345


def draw(n):
    global state
    state = (1103515245 * state + 12345) % 2**31
    return (state >> 8) % n


print("; Version: 2.2")
print("; Note: synthetic, written by make_synthetic.py")
print("; UnixStartTime: 0")
print("; MaxProcs: 32")
t = 0
for i in range(1, 381):
    t += 1 + draw(14000)
    procs = 1 + draw(32) if draw(2) == 0 else 1 + draw(8)
    run = 600 + draw(40000)
    req = run + draw(3 * run)
    print(i, t, -1, run, procs, -1, -1, procs, req, -1, 1, 1 + draw(12), 1, -1, 1, -1, -1, -1)

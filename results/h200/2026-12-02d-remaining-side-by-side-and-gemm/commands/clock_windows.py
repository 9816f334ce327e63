"""Median SM clock, power and temperature from nvidia-smi's CSV within each marked window (marks.txt:
'<label> start|end <timestamp>'). Usage: clock_windows.py smi.csv marks.txt"""
import statistics
import sys
from datetime import datetime


def when(text):
    return datetime.strptime(text.strip()[:26], "%Y/%m/%d %H:%M:%S.%f")


rows = []
for line in open(sys.argv[1]):
    f = [x.strip() for x in line.split(",")]
    rows.append((when(f[0]), float(f[1].split()[0]), float(f[3].split()[0]), float(f[4])))
marks = {}
for line in open(sys.argv[2]):
    label, edge, stamp = line.split(" ", 2)
    marks.setdefault(label, {})[edge] = when(stamp)
for label, m in marks.items():
    inside = [r for r in rows if m["start"] <= r[0] <= m["end"]]
    busy = [r for r in inside if r[2] > 200]  # samples with the GPU under load
    print(f"{label}: {len(busy)}/{len(inside)} loaded samples; SM clock median "
          f"{statistics.median(r[1] for r in busy):.0f} MHz (min {min(r[1] for r in busy):.0f}), "
          f"power median {statistics.median(r[2] for r in busy):.0f} W, temp max {max(r[3] for r in busy):.0f} C")

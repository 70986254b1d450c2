"""Instructions of the TMA kernel's projection stage loop, by source line (session 31): stage_sass_count.py SASS MANGLED.

SASS: `nvdisasm -g -c` of a cubin built with `-lineinfo` (nvdisasm from the PyPI package nvidia-cuda-nvdisasm);
MANGLED: a substring of the kernel's mangled name, e.g. ModeE3ELb0ELi4096 (mhc_pre_delayed, no norm, D = 4096).
The loop: from the label that a backward branch after the kernel's last HGMMA jumps to (at or before its first HGMMA)
to that branch, i.e. one pass of the stage loop that holds the wgmma. Prints the count, the top source lines and the
top opcodes."""
import collections
import re
import sys

lines = open(sys.argv[1]).read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith(".text.") and sys.argv[2] in l)
end = next((i for i, l in enumerate(lines) if l.startswith(".text.") and i > start), len(lines))
kernel = lines[start:end]
hgmma = [i for i, l in enumerate(kernel) if "HGMMA" in l]
labels = {m.group(1): i for i, l in enumerate(kernel) if (m := re.match(r"\s*\.L_x_(\d+):", l))}
first = last = None
for i in range(hgmma[-1], len(kernel)):
    m = re.search(r"BRA `\(\.L_x_(\d+)\)", kernel[i])
    if m and labels.get(m.group(1), len(kernel)) <= hgmma[0]:
        first, last = labels[m.group(1)], i
        break
by_line, by_op, total, src = collections.Counter(), collections.Counter(), 0, None
for l in kernel[first:last + 1]:
    m = re.search(r'//## File "([^"]+)", line (\d+)', l)
    if m:
        src = (m.group(1).split("/")[-1], int(m.group(2)))
        continue
    m = re.search(r"/\*[0-9a-f]{4,6}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", l)
    if m:
        total += 1
        by_line[src] += 1
        by_op[m.group(2).split(".")[0]] += 1
print("stage loop instructions", total)
print(by_line.most_common(10))
print(by_op.most_common(14))

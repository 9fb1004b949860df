#!/usr/bin/env python3
"""In-process simplified demangling (libswiftDemangle, as PerfKit's SimplifiedDemangler calls it) against
`swift demangle --simplified --compact`, over every Swift name in the callgrind dumps given."""
import ctypes, glob, re, subprocess, sys
import os, shutil
swift = os.path.realpath(shutil.which("swift"))
lib = ctypes.CDLL(os.path.join(os.path.dirname(os.path.dirname(swift)), "lib", "libswiftDemangle.so"))
f = lib.swift_demangle_getSimplifiedDemangledName
f.restype = ctypes.c_size_t
f.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
names = set()
for path in sys.argv[1:]:
    for line in open(path, errors="replace"):
        m = re.match(r"c?fn=\(\d+\) (\S+)", line)
        if m and (m.group(1).startswith("$s") or m.group(1).startswith("_$s")):
            names.add(m.group(1))
names = sorted(names)
inproc = {}
for n in names:
    buf = ctypes.create_string_buffer(1 << 16)
    k = f(n.encode(), buf, len(buf))
    inproc[n] = buf.value.decode() if k > 0 else n
tool = {}
for i in range(0, len(names), 400):
    batch = names[i:i + 400]
    out = subprocess.run(["swift", "demangle", "--simplified", "--compact"] + batch, capture_output=True, text=True).stdout.split("\n")
    tool.update(zip(batch, out))
same = sum(inproc[n] == tool[n] for n in names)
print(f"{len(names)} Swift names, {same} identical, {len(names) - same} different")
for n in names:
    if inproc[n] != tool[n]: print(" ", n, "|", inproc[n], "|", tool[n])

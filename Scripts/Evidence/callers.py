#!/usr/bin/env python3
# Calls into the allocator a call, by calling function, in the loop dump outside-truth.sh leaves:
# usage: callers.py FOLDER BODY CALLS
import glob, re, sys, collections
root, body, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
allocators = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}
files = [f for f in glob.glob(f"{root}/cg.{body}.*") if not f.endswith(".log")]
loop = [f for f in files if "Trigger: --dump-before" in open(f, errors="replace").read(4000)]
by = collections.Counter()
for path in loop:
    names, fn, callee = {}, None, None
    for line in open(path, errors="replace"):
        if line.startswith(("fn=", "cfn=")):
            key, rest = line.rstrip("\n").split("=", 1)
            m = re.match(r"\((\d+)\)(?: (.*))?", rest)
            name = rest
            if m:
                if m.group(2): names[m.group(1)] = m.group(2)
                name = names.get(m.group(1), "")
            if key == "fn": fn, callee = name, None
            else: callee = name
        elif line.startswith("calls=") and callee is not None:
            if callee in allocators: by[fn] += int(line.split("=")[1].split()[0])
            callee = None
for fn, n in by.most_common(12):
    print(f"{n / calls:8.2f}  {fn}")

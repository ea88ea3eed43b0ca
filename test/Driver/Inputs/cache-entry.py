"""Damages the one compile-cache entry (*.tcc) of a folder, for the cache
tests: cache-entry.py DIR ACTION [ARGS].

  entries                print how many entries DIR holds
  truncate N             drop the last N bytes
  flip N                 invert the byte N bytes before the end (a payload)
  garbage-header         replace the JSON header line with text
  replace OLD NEW        replace the first OLD with NEW (the header)
  version V              record V as the version of tilec that wrote it
"""
import glob
import re
import sys

folder, action, args = sys.argv[1], sys.argv[2], sys.argv[3:]
entries = sorted(glob.glob(folder + "/*.tcc"))
if action == "entries":
    print(len(entries))
    sys.exit(0)
if len(entries) != 1:
    sys.exit("expected one entry in %s, found %d" % (folder, len(entries)))
path = entries[0]
data = open(path, "rb").read()
if action == "truncate":
    data = data[: len(data) - int(args[0])]
elif action == "flip":
    at = len(data) - int(args[0])
    data = data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]
elif action == "garbage-header":
    magic, _, rest = data.partition(b"\n")
    _, _, body = rest.partition(b"\n")
    data = magic + b"\n{this is not json\n" + body
elif action == "replace":
    old, new = args[0].encode(), args[1].encode()
    if old not in data:
        sys.exit("%r not found in %s" % (old, path))
    data = data.replace(old, new, 1)
elif action == "version":
    data, count = re.subn(rb'("build":"tilec )[^ ]+', lambda m: m.group(1) +
                          args[0].encode(), data, count=1)
    if count != 1:
        sys.exit("no recorded version in " + path)
else:
    sys.exit("unknown action " + action)
open(path, "wb").write(data)

"""Makes a SPIR-V module compute the wrong thing, for the negative tests of
the output checks: spirv-fadd-to-fsub.py IN.spv OUT.spv turns every OpFAdd
into an OpFSub (same operands, still a valid module) and fails when there is
none, so the test cannot pass on a module it did not change."""
import struct
import sys

OP_FADD, OP_FSUB = 129, 131
data = open(sys.argv[1], "rb").read()
words = list(struct.unpack("<%dI" % (len(data) // 4), data))
if words[0] != 0x07230203:
    sys.exit("%s: not a little-endian SPIR-V module" % sys.argv[1])
changed, at = 0, 5  # the header is five words
while at < len(words):
    count, opcode = words[at] >> 16, words[at] & 0xFFFF
    if count == 0:
        sys.exit("%s: an instruction of 0 words at word %d" % (sys.argv[1], at))
    if opcode == OP_FADD:
        words[at] = (count << 16) | OP_FSUB
        changed += 1
    at += count
if not changed:
    sys.exit("%s: no OpFAdd to change" % sys.argv[1])
open(sys.argv[2], "wb").write(struct.pack("<%dI" % len(words), *words))
print("changed %d OpFAdd into OpFSub" % changed)

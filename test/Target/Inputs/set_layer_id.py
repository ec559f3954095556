"""Sets the layer id of one command of an accelerator binary (format 5,
docs/binary-format.md) and fixes the header checksum, so that the reader's
structural checks pass and the layer id reaches the verifier / validator.

usage: set_layer_id.py IN OUT CLUSTER COMMAND ID   (COMMAND must be 0)
"""
import struct
import sys
import zlib

HEADER = 64
FIXED_SECTIONS = 4  # SYMB, CNST, PCKT, LAYR


def main():
    src, dst, cluster, command, layer = sys.argv[1:6]
    cluster, command, layer = int(cluster), int(command), int(layer)
    if command != 0:
        sys.exit("only the first command of a stream is supported")
    b = bytearray(open(src, "rb").read())
    pos = HEADER
    for _ in range(FIXED_SECTIONS + cluster):
        (size,) = struct.unpack_from("<Q", b, pos + 8)
        pos += 16 + size
    kind, index = struct.unpack_from("<4sI", b, pos)
    assert kind == b"STRM" and index == cluster, (kind, index)
    # Section header, command count, then the first command's u32 layer id.
    struct.pack_into("<I", b, pos + 16 + 4, layer)
    struct.pack_into("<I", b, 52, zlib.crc32(bytes(b[HEADER:])) & 0xFFFFFFFF)
    open(dst, "wb").write(b)


if __name__ == "__main__":
    main()

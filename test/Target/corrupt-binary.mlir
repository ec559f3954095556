// A malformed binary is a clear error and a non-zero exit, never a crash.
// RUN: accel-translate --isa-to-binary %s -o %t.bin
//
// Truncated file: the header's size field disagrees with the input.
// RUN: head -c 100 %t.bin > %t.trunc
// RUN: not accel-translate --binary-to-isa %t.trunc 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: error: binary: header declares {{[0-9]+}} bytes but the input has 100 bytes (truncated) at offset 40
//
// Shorter than the magic.
// RUN: head -c 5 %t.bin > %t.short
// RUN: not accel-translate --binary-to-isa %t.short 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: binary: truncated header (magic) (need 8 bytes, 5 left) at offset 0
//
// Empty file.
// RUN: head -c 0 %t.bin > %t.empty
// RUN: not accel-translate --binary-to-isa %t.empty 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: binary: truncated header (magic) (need 8 bytes, 0 left) at offset 0
//
// Not a binary at all.
// RUN: not accel-translate --binary-to-isa %s 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: error: binary: bad magic (not an accelerator binary) at offset 0
//
// One flipped payload byte.
// RUN: %python -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[90]^=1; open(sys.argv[2],'wb').write(b)" %t.bin %t.flip
// RUN: not accel-translate --binary-to-isa %t.flip 2>&1 | FileCheck %s --check-prefix=CRC
// CRC: error: binary: checksum mismatch (corrupt binary) at offset 52
//
// Unsupported version: a binary of format 4 (before the layer table and the
// per-command layer ids) or of a future format is refused with both
// versions named.
// RUN: %python -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[8]=4; open(sys.argv[2],'wb').write(b)" %t.bin %t.ver
// RUN: not accel-translate --binary-to-isa %t.ver 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: error: binary format version 4 is not supported (this build reads version 5; recompile the model)
// RUN: %python -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[8]=9; open(sys.argv[2],'wb').write(b)" %t.bin %t.ver9
// RUN: not accel-translate --binary-to-isa %t.ver9 2>&1 | FileCheck %s --check-prefix=VERSION9
// VERSION9: error: binary format version 9 is not supported (this build reads version 5; recompile the model)
//
// A binary for other hardware is refused when a description is given.
// RUN: not accel-translate --binary-to-isa --hw=default %t.bin 2>&1 | FileCheck %s --check-prefix=HW
// HW: error: invalid program: the binary was compiled for another hardware description
// RUN: not accel-translate --isa-to-binary --hw=default %s -o %t.unused 2>&1 | FileCheck %s --check-prefix=HW
// RUN: not accel-translate --binary-to-isa --hw=%t.missing.json %t.bin 2>&1 | FileCheck %s --check-prefix=HWFILE
// HWFILE: error: cannot load hardware description:

isa.program grid(1 x 1) dram 1024 hw 42 {
  isa.io input "x" at 0 : tensor<16xf32>
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      isa.ld acts slot 0 <rows = 1, cols = 16>
    }
    isa.execute ibuf 0 last
  }
}

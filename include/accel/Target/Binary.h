//===- Binary.h - Versioned container for accel::Program --------*- C++ -*-===//
//
// Little-endian container: a 64-byte header (magic "ACCELBIN", format
// version Program::kFormatVersion, hardware fingerprint, grid, DRAM size,
// total size, section count, CRC-32), then sections: symbol table,
// constants, constant packets, layer table, and one command stream per
// cluster (row-major). Inside a stream every command starts with its u32
// layer id; CONFIG / EXECUTE are then stored as their 8-bit command byte
// (Encoding.h) followed by their payload; DMA / WAIT / BARRIER /
// SEND / SIGNAL / RECV are command-processor packets whose kind byte is a
// CONFIG byte with reserved bits set. The exact byte layout is in
// docs/binary-format.md. A binary of another format version is refused
// ("binary format version 4 is not supported (this build reads version 5;
// recompile the model)").
//
// The reader is fully bounds-checked: any malformed input yields false and a
// message "binary: <what> at offset <N>"; it never crashes and never
// allocates more than the input size justifies.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TARGET_BINARY_H
#define ACCEL_TARGET_BINARY_H

#include "accel/Target/Program.h"
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace accel {

/// Layout constants (see docs/binary-format.md).
constexpr char kBinaryMagic[8] = {'A', 'C', 'C', 'E', 'L', 'B', 'I', 'N'};
constexpr size_t kBinaryHeaderBytes = 64;
constexpr size_t kBinaryChecksumOffset = 52; ///< u32 CRC-32 of bytes [64, end)
constexpr uint32_t kSectionSymbols = 0x424d5953;   ///< "SYMB" little-endian
constexpr uint32_t kSectionConstants = 0x54534e43; ///< "CNST"
constexpr uint32_t kSectionPackets = 0x544b4350;   ///< "PCKT"
constexpr uint32_t kSectionStream = 0x4d525453;    ///< "STRM"
constexpr uint32_t kSectionLayers = 0x5259414c;    ///< "LAYR"
/// Sections before the cluster streams: SYMB, CNST, PCKT, LAYR.
constexpr uint32_t kNumFixedSections = 4;
/// Kind bytes of command-processor packets: CONFIG bytes with the reserved
/// bits 2-3 set, so they can never be mistaken for a CONFIG or EXECUTE.
constexpr uint8_t kPacketDma = 0x62;
constexpr uint8_t kPacketWait = 0x63;
constexpr uint8_t kPacketBarrier = 0x64;
constexpr uint8_t kPacketSend = 0x65;
constexpr uint8_t kPacketSignal = 0x66;
constexpr uint8_t kPacketRecv = 0x67;
constexpr uint8_t kPacketRecur = 0x68;
/// Minimum size of one operand record in the binary (52 bytes + 4 per
/// per-PE address).
constexpr size_t kOperandRecordBytes = 52;

/// Serialises `p`. Returns an empty vector if `p` holds a value that has no
/// encoding (e.g. an instruction slot > 15 or an invalid enum); use the
/// overload with `err` to learn why.
std::vector<uint8_t> writeBinary(const Program &p);
bool writeBinary(const Program &p, std::vector<uint8_t> &out, std::string &err);
/// The same bytes handed to `sink` in order, in pieces: the constant data
/// straight from the program's segments, not copied into one buffer first
/// (weights are most of a binary). `sink` returns false to stop (an output
/// error); writeBinaryTo then returns false with `err` unchanged.
bool writeBinaryTo(const Program &p,
                   const std::function<bool(const uint8_t *, size_t)> &sink,
                   std::string &err);

/// Parses a binary into `p` (which is overwritten). On failure returns false
/// and sets `err`; `p` is then unspecified.
bool readBinary(const uint8_t *data, size_t size, Program &p, std::string &err);

bool writeBinaryFile(const std::string &path, const Program &p,
                     std::string &err);
bool readBinaryFile(const std::string &path, Program &p, std::string &err);

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) as stored in the
/// header.
uint32_t crc32(const uint8_t *data, size_t size);
/// The CRC-32 of the bytes already summed into `crc` followed by `data`:
/// crc32Update(crc32(a, n), b, m) == crc32 of a then b (crc32Update(0, ...)
/// == crc32).
uint32_t crc32Update(uint32_t crc, const uint8_t *data, size_t size);

} // namespace accel

#endif

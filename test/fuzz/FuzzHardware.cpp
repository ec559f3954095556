//===- FuzzHardware.cpp - Fuzz the hardware-description reader ------------===//
//
// Input: JSON text of a hardware description (seeds: hw/*.json).
// parseHardwareDesc must either reject it with a message or accept a
// description that validates, and writing an accepted description back to
// JSON and reading it again must give an equal description with the same
// fingerprint (the round trip HardwareDesc.h promises).
//
// Bound: inputs over 64 KiB are skipped (a description is ~2 KiB; longer
// texts only slow the JSON parser down).
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "accel/Hardware/HardwareDesc.h"

#include <cstddef>
#include <cstdint>

using namespace accel;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64 * 1024)
    return -1;
  std::string text(reinterpret_cast<const char *>(data), size);
  HardwareDesc hw;
  std::string err;
  if (!parseHardwareDesc(text, hw, err)) {
    fuzz::fuzzCheck(!err.empty(), "rejected without a message");
    return 0;
  }
  fuzz::fuzzCheck(validateHardwareDesc(hw, err),
                  "accepted description does not validate: " + err);
  HardwareDesc again;
  fuzz::fuzzCheck(parseHardwareDesc(hardwareToJson(hw), again, err),
                  "hardwareToJson output is rejected: " + err);
  fuzz::fuzzCheck(again == hw && again.fingerprint() == hw.fingerprint(),
                  "JSON round trip changes the description");
  for (uint32_t c = 0; c < hw.numClusters(); ++c)
    fuzz::fuzzCheck(hw.channelOf(c) < hw.channels.size(),
                    "channelOf out of range");
  return 0;
}

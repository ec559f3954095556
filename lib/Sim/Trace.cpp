//===- Trace.cpp - Chrome trace event recorder
//-----------------------------===//
#include "Trace.h"

#include <cstdio>
#include <fstream>

namespace accel {

std::string jsonQuote(const std::string &s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      o += "\\\"";
      break;
    case '\\':
      o += "\\\\";
      break;
    case '\n':
      o += "\\n";
      break;
    case '\t':
      o += "\\t";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        o += buf;
      } else {
        o += char(c);
      }
    }
  }
  return o + "\"";
}

void TraceRecorder::process(uint64_t pid, const std::string &name,
                            const std::vector<std::string> &threads) {
  std::string p = std::to_string(pid);
  events.push_back("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + p +
                   ",\"tid\":0,\"args\":{\"name\":" + jsonQuote(name) + "}}");
  events.push_back("{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":" +
                   p + ",\"tid\":0,\"args\":{\"sort_index\":" + p + "}}");
  for (size_t t = 0; t < threads.size(); ++t)
    events.push_back("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" + p +
                     ",\"tid\":" + std::to_string(t) +
                     ",\"args\":{\"name\":" + jsonQuote(threads[t]) + "}}");
}

void TraceRecorder::thread(uint64_t pid, uint64_t tid,
                           const std::string &name) {
  events.push_back("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" +
                   std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
                   ",\"args\":{\"name\":" + jsonQuote(name) + "}}");
}

void TraceRecorder::complete(const std::string &name, uint64_t pid,
                             uint64_t tid, uint64_t ts, uint64_t dur,
                             const std::string &args) {
  events.push_back("{\"name\":" + jsonQuote(name) + ",\"ph\":\"X\",\"pid\":" +
                   std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
                   ",\"ts\":" + std::to_string(ts) + ",\"dur\":" +
                   std::to_string(dur) + ",\"args\":" + args + "}");
}

bool TraceRecorder::write(const std::string &path, std::string &err) const {
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    err = path + ": cannot open trace file for writing";
    return false;
  }
  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":"
         "\"cycles\"},\n\"traceEvents\":[\n";
  for (size_t i = 0; i < events.size(); ++i)
    out << events[i] << (i + 1 < events.size() ? ",\n" : "\n");
  out << "]}\n";
  if (!out) {
    err = path + ": write error";
    return false;
  }
  return true;
}

} // namespace accel

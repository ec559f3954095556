//===- Utf8Test.cpp - Names that must be UTF-8 ----------------------------===//
#include "accel/Support/Utf8.h"

#include <gtest/gtest.h>

#include <string>

using namespace accel;

namespace {

TEST(Utf8, WellFormedSequencesAreAccepted) {
  EXPECT_TRUE(isValidUtf8(""));
  EXPECT_TRUE(isValidUtf8("/layer1/layer1.0/conv1/Conv"));
  EXPECT_TRUE(isValidUtf8("caf\xC3\xA9"));          // U+00E9
  EXPECT_TRUE(isValidUtf8("\xE2\x82\xAC"));         // U+20AC
  EXPECT_TRUE(isValidUtf8("\xED\x9F\xBF"));         // U+D7FF
  EXPECT_TRUE(isValidUtf8("\xF0\x9F\x98\x80"));     // U+1F600
  EXPECT_TRUE(isValidUtf8("\xF4\x8F\xBF\xBF"));     // U+10FFFF
  EXPECT_TRUE(isValidUtf8(std::string("a\0b", 3))); // NUL is a character
}

TEST(Utf8, IllFormedSequencesAreRefused) {
  for (const char *bad : {
           "\xFF",             // never a UTF-8 byte
           "c\x80",            // a continuation byte alone
           "\xC3",             // cut short
           "\xE2\x82",         // cut short
           "\xC0\xAF",         // overlong '/'
           "\xE0\x80\xAF",     // overlong '/'
           "\xED\xA0\x80",     // a surrogate (U+D800)
           "\xF4\x90\x80\x80", // above U+10FFFF
           "\xF5\x80\x80\x80", // above U+10FFFF
           "\xC3\x28",         // the second byte is not a continuation
       })
    EXPECT_FALSE(isValidUtf8(bad)) << escapeInvalidUtf8(bad);
}

TEST(Utf8, EscapingKeepsTheCharactersAndSpellsOutTheRest) {
  EXPECT_EQ(escapeInvalidUtf8("conv\xFF"), "conv\\xFF");
  EXPECT_EQ(escapeInvalidUtf8("caf\xC3\xA9\xC3"), "caf\xC3\xA9\\xC3");
  EXPECT_EQ(escapeInvalidUtf8("a\\b"), "a\\\\b"); // unambiguous
  EXPECT_EQ(escapeInvalidUtf8("\xE2\x82\x41"), "\\xE2\\x82A");
  EXPECT_TRUE(isValidUtf8(escapeInvalidUtf8("\xFF\xFE\xC0\xAF")));
}

} // namespace

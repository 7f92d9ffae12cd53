//===- TextTest.cpp - formatting and splitting ----------------------------===//

#include "amp/Runner/Text.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace amp::runner;

TEST(TextTest, FormatsLikePrintf) {
  EXPECT_EQ(formatString("%.9g", 0.1f), "0.100000001");
  EXPECT_EQ(formatString("%.6g", NAN), "nan");
  EXPECT_EQ(formatString("%s=%d", "x", 3), "x=3");
  EXPECT_EQ(formatString("%s", ""), "");
  std::string long_(300, 'a');
  EXPECT_EQ(formatString("%s!", long_.c_str()), long_ + "!");
}

TEST(TextTest, SplitsKeepingEmptyPieces) {
  using Pieces = std::vector<std::string_view>;
  EXPECT_EQ(splitString("a,,b", ','), (Pieces{"a", "", "b"}));
  EXPECT_EQ(splitString("", ','), (Pieces{""}));
  EXPECT_EQ(splitString("a,", ','), (Pieces{"a", ""}));
  EXPECT_EQ(splitString("abc", ','), (Pieces{"abc"}));
}

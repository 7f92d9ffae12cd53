//===- Text.cpp - formatting and splitting text ---------------------------===//

#include "amp/Runner/Text.h"

#include <cstdarg>
#include <cstdio>

std::string amp::runner::formatString(const char *format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int size = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text(size > 0 ? size : 0, '\0');
  if (size > 0)
    std::vsnprintf(text.data(), text.size() + 1, format, args);
  va_end(args);
  return text;
}

std::vector<std::string_view> amp::runner::splitString(std::string_view text,
                                                       char separator) {
  std::vector<std::string_view> pieces;
  for (size_t start = 0;;) {
    size_t end = text.find(separator, start);
    pieces.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos)
      return pieces;
    start = end + 1;
  }
}

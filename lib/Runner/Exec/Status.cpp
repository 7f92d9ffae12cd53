//===- Status.cpp - printf-style formatting for the runner ----------------===//

#include "amp/Runner/Status.h"

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

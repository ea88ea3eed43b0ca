//===- SourceQuote.cpp - Quoting a line of a kernel artefact --------------===//

#include "tilec/Runtime/SourceQuote.h"

#include <sstream>

using namespace tilec::rt;

std::vector<std::string> tilec::rt::splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);)
    lines.push_back(line);
  return lines;
}

std::string tilec::rt::quoteSourceLine(const std::vector<std::string> &lines,
                                       size_t line, size_t column,
                                       const std::string &kernel) {
  if (line == 0 || line > lines.size())
    return "";
  std::string text;
  if (!kernel.empty())
    text += "in kernel " + kernel + ", ";
  std::string number = std::to_string(line);
  text += "line " + number + ":\n  " + number + " | " + lines[line - 1] + "\n";
  if (column >= 1 && column <= lines[line - 1].size() + 1)
    text += "  " + std::string(number.size(), ' ') + " | " +
            std::string(column - 1, ' ') + "^\n";
  return text;
}

#include "profile/ncu_csv.h"

#include <cstdlib>

#include "core/strings.h"

namespace cutegen {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(cur));
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  fields.push_back(std::move(cur));
  return fields;
}

bool parse_ncu_number(const std::string& text, double* value) {
  std::string digits;
  for (char c : trim(text))
    if (c != ',') digits += c;
  if (digits.empty()) return false;
  char* end = nullptr;
  double v = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size()) return false;
  *value = v;
  return true;
}

namespace {

bool is_message(const std::string& line) { return line.rfind("==", 0) == 0; }

}  // namespace

Result<NcuTable> parse_ncu_csv(const std::string& output) {
  NcuTable table;
  std::vector<std::vector<std::string>> rows;
  for (auto& line : split_lines(output)) {
    if (is_message(line))
      table.messages.push_back(trim(line));
    else if (line.rfind("\"", 0) == 0)
      rows.push_back(split_csv_line(line));
    // Anything else is the target's own stdout, which ncu passes through.
  }
  if (rows.empty()) return table;
  const auto& header = rows[0];
  int name_col = -1;
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == "Kernel Name") name_col = static_cast<int>(i);
  if (name_col < 0) return error("ncu CSV has no 'Kernel Name' column (was --page raw given?)");
  size_t first = 1;
  std::vector<std::string> units(header.size());
  // The units row has an empty "ID"; kernel rows number their launches from 0.
  if (rows.size() > 1 && !rows[1].empty() && rows[1][0].empty()) {
    units = rows[1];
    first = 2;
  }
  for (size_t r = first; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (row.size() != header.size())
      return error("ncu CSV row " + std::to_string(r + 1) + " has " + std::to_string(row.size()) +
                   " fields, the header " + std::to_string(header.size()));
    NcuKernelRow k;
    k.name = row[name_col];
    for (size_t i = 0; i < header.size(); ++i) {
      Measure m{row[i], i < units.size() ? units[i] : "", 0, false};
      m.numeric = parse_ncu_number(m.text, &m.value);
      k.metrics.emplace(header[i], std::move(m));
    }
    table.kernels.push_back(std::move(k));
  }
  return table;
}

}  // namespace cutegen

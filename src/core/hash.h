// Content hashes (128-bit xxHash, hex) for cache keys and binary identities.
#pragma once

#include <string>
#include <string_view>

namespace cutegen {

// Hash of the concatenation of `parts`, each length-prefixed so ("ab","c") != ("a","bc").
class Hasher {
 public:
  Hasher();
  ~Hasher();
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;
  Hasher& add(std::string_view part);
  std::string hex() const;

 private:
  void* state_;
};

std::string hash_hex(std::string_view data);

}  // namespace cutegen

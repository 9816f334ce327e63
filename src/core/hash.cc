#include "core/hash.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdint>
#include <cstdio>

namespace cutegen {

Hasher::Hasher() : state_(XXH3_createState()) { XXH3_128bits_reset(static_cast<XXH3_state_t*>(state_)); }
Hasher::~Hasher() { XXH3_freeState(static_cast<XXH3_state_t*>(state_)); }

Hasher& Hasher::add(std::string_view part) {
  auto* st = static_cast<XXH3_state_t*>(state_);
  uint64_t n = part.size();
  XXH3_128bits_update(st, &n, sizeof n);
  XXH3_128bits_update(st, part.data(), part.size());
  return *this;
}

std::string Hasher::hex() const {
  XXH128_hash_t h = XXH3_128bits_digest(static_cast<XXH3_state_t*>(state_));
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}

std::string hash_hex(std::string_view data) { return Hasher().add(data).hex(); }

}  // namespace cutegen

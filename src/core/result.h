// Failures are values: a Result<T> holds either a T or an Error with a one-line message.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace cutegen {

struct Error {
  std::string message;
};

inline Error error(std::string message) { return Error{std::move(message)}; }

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error e) : v_(std::move(e)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const Error& err() const { return std::get<1>(v_); }
  const std::string& message() const { return err().message; }

 private:
  std::variant<T, Error> v_;
};

// Result<void>: success carries nothing.
struct Ok {};
using Status = Result<Ok>;

}  // namespace cutegen

// Propagates an error from an expression yielding a Result; evaluates to the value otherwise.
#define CUTEGEN_TRY(expr)                                    \
  ({                                                         \
    auto _r = (expr);                                        \
    if (!_r.ok()) return ::cutegen::Error{_r.err().message}; \
    std::move(_r).value();                                   \
  })

//===- OutOfLine.h - A rarely present member held on the heap ---*- C++ -*-===//
//
// A struct that is stored hundreds of thousands of times (accel::Command)
// pays for every member in every element, although most members are used
// by one kind of element only. OutOfLine<T> holds such a member behind a
// pointer: 8 bytes when absent, with value semantics (copies are deep) and
// a default-constructed T read when empty. OutOfLineVector<T> is the same
// for a vector, with the part of std::vector's interface its users need.
// MLIR-free.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SUPPORT_OUTOFLINE_H
#define ACCEL_SUPPORT_OUTOFLINE_H

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <vector>

namespace accel {

template <class T> class OutOfLine {
public:
  OutOfLine() = default;
  OutOfLine(const OutOfLine &o) { *this = o; }
  OutOfLine(OutOfLine &&) noexcept = default;
  OutOfLine &operator=(const OutOfLine &o) {
    if (this != &o)
      value_ = o.value_ ? std::make_unique<T>(*o.value_) : nullptr;
    return *this;
  }
  OutOfLine &operator=(OutOfLine &&) noexcept = default;
  OutOfLine &operator=(const T &v) {
    value_ = std::make_unique<T>(v);
    return *this;
  }
  OutOfLine &operator=(T &&v) {
    value_ = std::make_unique<T>(std::move(v));
    return *this;
  }

  /// The value, created on first mutable access.
  T &get() {
    if (!value_)
      value_ = std::make_unique<T>();
    return *value_;
  }
  /// The value, or a default-constructed T when none was ever set.
  const T &get() const { return value_ ? *value_ : empty(); }
  T *operator->() { return &get(); }
  const T *operator->() const { return &get(); }
  T &operator*() { return get(); }
  const T &operator*() const { return get(); }
  operator const T &() const { return get(); }
  /// Whether a value was ever created (reading does not create one).
  bool present() const { return value_ != nullptr; }

private:
  static const T &empty() {
    static const T kEmpty{};
    return kEmpty;
  }
  std::unique_ptr<T> value_;
};

template <class T> class OutOfLineVector {
public:
  using value_type = T;
  using Vector = std::vector<T>;

  OutOfLineVector() = default;
  OutOfLineVector(std::initializer_list<T> init) { *this = init; }
  OutOfLineVector &operator=(const Vector &v) {
    box_ = v;
    return *this;
  }
  OutOfLineVector &operator=(Vector &&v) {
    box_ = std::move(v);
    return *this;
  }
  OutOfLineVector &operator=(std::initializer_list<T> init) {
    box_ = Vector(init);
    return *this;
  }

  const Vector &vector() const { return box_.get(); }
  operator const Vector &() const { return box_.get(); }

  size_t size() const { return box_.present() ? box_->size() : 0; }
  bool empty() const { return size() == 0; }
  const T &operator[](size_t i) const { return (*box_)[i]; }
  T &operator[](size_t i) { return (*box_)[i]; }
  typename Vector::const_iterator begin() const { return box_->begin(); }
  typename Vector::const_iterator end() const { return box_->end(); }
  typename Vector::iterator begin() { return box_->begin(); }
  typename Vector::iterator end() { return box_->end(); }
  const T &back() const { return box_->back(); }
  T &back() { return box_->back(); }

  void push_back(const T &v) { box_->push_back(v); }
  void push_back(T &&v) { box_->push_back(std::move(v)); }
  template <class... A> T &emplace_back(A &&...a) {
    return box_->emplace_back(std::forward<A>(a)...);
  }
  void resize(size_t n) { box_->resize(n); }
  void resize(size_t n, const T &v) { box_->resize(n, v); }
  void reserve(size_t n) { box_->reserve(n); }
  void clear() {
    if (box_.present())
      box_->clear();
  }

private:
  OutOfLine<Vector> box_;
};

} // namespace accel

#endif

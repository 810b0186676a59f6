// json_value.h - the project's JSON value: build it, read it, parse text, dump text.
// Small on purpose: it replaced nlohmann/json in the product (15.6 KB gzip of the canvas's wasm);
// the tests keep nlohmann as the reference it is checked against. Behaviour, where it matters:
//   - objects keep their keys sorted (as nlohmann's std::map did), so every dump is in key order;
//     a repeated key in parsed text keeps the last value;
//   - parse is strict RFC 8259 (UTF-8 checked, no comments, no trailing commas), nests at most
//     kMaxJsonDepth deep, and returns nullopt instead of throwing;
//   - dump writes numbers round-trip exact in the shortest digits, a non-finite number as null,
//     and text that is not UTF-8 with U+FFFD in place of each bad sequence (never throws).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace attn {

constexpr int kMaxJsonDepth = 256;  // arrays and objects inside each other, in parsed text

class Json {
  public:
    enum class Type : unsigned char {
        Null,
        Boolean,
        Integer,
        Unsigned,
        Float,
        String,
        Array,
        Object
    };
    using Member = std::pair<std::string, Json>;

    // ---- building ----------------------------------------------------------------------------
    Json() = default;
    Json(std::nullptr_t) {}
    Json(bool b) : type_(Type::Boolean), b_(b) {}
    Json(int i) : Json(static_cast<long long>(i)) {}
    Json(long i) : Json(static_cast<long long>(i)) {}
    Json(long long i) : type_(Type::Integer), i_(i) {}
    Json(unsigned u) : Json(static_cast<unsigned long long>(u)) {}
    Json(unsigned long u) : Json(static_cast<unsigned long long>(u)) {}
    Json(unsigned long long u) : type_(Type::Unsigned), u_(u) {}
    Json(float f) : Json(static_cast<double>(f)) {}
    Json(double d) : type_(Type::Float), d_(d) {}
    Json(const char* s) : type_(Type::String), s_(s) {}
    Json(std::string s) : type_(Type::String), s_(std::move(s)) {}
    Json(std::string_view s) : type_(Type::String), s_(s) {}
    template <class T>
    Json(const std::vector<T>& list) : type_(Type::Array) {  // each element as Json(element)
        items_.reserve(list.size());
        for (const auto& e : list) items_.emplace_back(static_cast<const T&>(e));
    }
    // A list of [text, value] pairs is an object, anything else an array (nlohmann's rule):
    // Json{{"ok", true}, {"d", 2}} is {"d":2,"ok":true}; Json{1, 2} is [1,2].
    Json(std::initializer_list<Json> list);
    static Json array() { return Json(Type::Array); }
    static Json object() { return Json(Type::Object); }

    // ---- reading -----------------------------------------------------------------------------
    Type type() const { return type_; }
    bool is_null() const { return type_ == Type::Null; }
    bool is_boolean() const { return type_ == Type::Boolean; }
    bool is_number() const { return is_number_integer() || type_ == Type::Float; }
    bool is_number_integer() const { return type_ == Type::Integer || is_number_unsigned(); }
    bool is_number_unsigned() const { return type_ == Type::Unsigned; }
    bool is_string() const { return type_ == Type::String; }
    bool is_array() const { return type_ == Type::Array; }
    bool is_object() const { return type_ == Type::Object; }

    // The value as T: bool, a number type or std::string. A value of another kind reads as
    // false, 0 or "" (callers check the kind first; nothing throws).
    template <class T>
    T get() const;

    // Arrays and objects: their elements (an object's in key order); null and scalars have none.
    std::size_t size() const { return is_object() ? members_.size() : items_.size(); }
    bool empty() const { return size() == 0; }
    const Json* find(std::string_view key) const;  // nullptr if absent or not an object
    bool contains(std::string_view key) const { return find(key) != nullptr; }
    const Json& operator[](std::string_view key) const;  // null if absent
    const Json& operator[](std::size_t i) const;         // null if out of range
    Json value(std::string_view key, Json fallback) const;
    std::vector<Json>::const_iterator begin() const { return items_.begin(); }  // array elements
    std::vector<Json>::const_iterator end() const { return items_.end(); }
    const std::vector<Member>& members() const { return members_; }

    // ---- changing ----------------------------------------------------------------------------
    Json& operator[](std::string_view key);  // a null or other non-object becomes an object first
    Json& operator[](std::size_t i);         // must be < size() of an array
    void push_back(Json v);                  // a null or other non-array becomes an array first

    // ---- text --------------------------------------------------------------------------------
    static std::optional<Json> parse(std::string_view text);
    // Compact ({"a":1}) with indent < 0; else one element per line, `indent` spaces per level.
    std::string dump(int indent = -1) const;

  private:
    explicit Json(Type t) : type_(t) {}
    void dump_to(std::string& out, int indent, int level) const;

    Type type_ = Type::Null;
    bool b_ = false;
    long long i_ = 0;
    unsigned long long u_ = 0;
    double d_ = 0;
    std::string s_;
    std::vector<Json> items_;      // Array
    std::vector<Member> members_;  // Object, sorted by key
};

template <class T>
T Json::get() const {
    if constexpr (std::is_same_v<T, bool>) {
        return type_ == Type::Boolean && b_;
    } else if constexpr (std::is_same_v<T, std::string>) {
        return type_ == Type::String ? s_ : std::string();
    } else {
        static_assert(std::is_arithmetic_v<T>, "Json::get reads bool, numbers and std::string");
        switch (type_) {
            case Type::Integer:
                return static_cast<T>(i_);
            case Type::Unsigned:
                return static_cast<T>(u_);
            case Type::Float:
                return static_cast<T>(d_);
            default:
                return T{};
        }
    }
}

}  // namespace attn

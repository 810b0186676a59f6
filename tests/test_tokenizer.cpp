// test_tokenizer.cpp - words, punctuation, UTF-8, caps and errors.
#include "content.h"
#include "test_util.h"

using attn::ErrorCode;

namespace {
std::vector<std::string> texts(std::string_view s) {
    auto r = attn::tokenize(s);
    EXPECT_TRUE(r.ok()) << r.error().message;
    std::vector<std::string> out;
    for (const auto& t : r.value()) out.push_back(t.text);
    return out;
}
}  // namespace

TEST(Tokenizer, SplitsWordsAndPunctuation) {
    EXPECT_EQ(texts("Because the bridge was blocked, the convoy stopped before it."),
              (std::vector<std::string>{"Because", "the", "bridge", "was", "blocked", ",", "the",
                                        "convoy", "stopped", "before", "it", "."}));
    EXPECT_EQ(texts("  Hello,world!!  "),
              (std::vector<std::string>{"Hello", ",", "world", "!", "!"}));
}

TEST(Tokenizer, KeepsInnerApostrophesAndHyphensInWords) {
    EXPECT_EQ(texts("don't well-known 'quoted' -x"),
              (std::vector<std::string>{"don't", "well-known", "'", "quoted", "'", "-", "x"}));
}

TEST(Tokenizer, ByteOffsetsPointIntoTheInput) {
    const std::string s = "ab, cd";
    auto r = attn::tokenize(s);
    ASSERT_TRUE(r.ok());
    for (const auto& t : r.value()) EXPECT_EQ(s.substr(t.begin, t.end - t.begin), t.text);
    EXPECT_EQ(r.value()[2].begin, 4);
}

TEST(Tokenizer, HandlesMultibyteUtf8) {
    // café (2-byte é), naïve, Ελληνικά, 日本 (3-byte), emoji (4-byte), curly quotes and an em dash
    EXPECT_EQ(texts("caf\xC3\xA9 na\xC3\xAFve "
                    "\xCE\x95\xCE\xBB\xCE\xBB\xCE\xB7\xCE\xBD\xCE\xB9\xCE\xBA\xCE\xAC"),
              (std::vector<std::string>{
                  "caf\xC3\xA9", "na\xC3\xAFve",
                  "\xCE\x95\xCE\xBB\xCE\xBB\xCE\xB7\xCE\xBD\xCE\xB9\xCE\xBA\xCE\xAC"}));
    EXPECT_EQ(texts("\xE2\x80\x9CHi\xE2\x80\x9D \xE2\x80\x94 it\xE2\x80\x99s \xF0\x9F\x98\x80"),
              (std::vector<std::string>{"\xE2\x80\x9C", "Hi", "\xE2\x80\x9D", "\xE2\x80\x94",
                                        "it\xE2\x80\x99s", "\xF0\x9F\x98\x80"}));
    EXPECT_EQ(texts("a\xC2\xA0"
                    "b"),
              (std::vector<std::string>{"a", "b"}));  // no-break space
}

TEST(Tokenizer, InvalidBytesAreAnErrorThatNamesTheByteOffset) {
    const std::vector<std::pair<std::string, int>> cases = {
        {"ok \xFF", 3},           // never valid in UTF-8
        {"ab\xC3", 3},            // cut off at the end
        {"\xC0\xAF", 0},          // overlong encoding of '/'
        {"x\xE0\x80\xAF", 2},     // overlong 3-byte
        {"\xED\xA0\x80", 1},      // UTF-16 surrogate
        {"\xF4\x90\x80\x80", 1},  // above U+10FFFF
        {"abc\x80z", 3},          // lone continuation byte
        {"\xE2\x82 x", 2},        // continuation missing
    };
    for (const auto& [text, offset] : cases) {
        auto r = attn::tokenize(text);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, ErrorCode::InvalidUtf8);
        EXPECT_NE(r.error().message.find("byte offset " + std::to_string(offset)),
                  std::string::npos)
            << r.error().message;
    }
}

TEST(Tokenizer, EmptyOrBlankTextIsEmptyText) {
    for (const char* s : {"", "   ", "\t\n", "\xE2\x80\x8B"})
        EXPECT_EQ(attn::tokenize(s).error().code, ErrorCode::EmptyText) << s;
}

TEST(Tokenizer, LongTextIsTextTooLong) {
    EXPECT_EQ(attn::tokenize(std::string(attn::kMaxSentenceBytes + 1, 'a')).error().code,
              ErrorCode::TextTooLong);
    EXPECT_TRUE(attn::tokenize(std::string(attn::kMaxSentenceBytes, 'a')).ok());
}

TEST(Tokenizer, MoreThanTheCapOfTokensIsTooManyTokens) {
    std::string s;
    for (int i = 0; i < attn::kMaxSentenceTokens; i++) s += "w ";
    auto ok = attn::tokenize(s);
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(ok.value().size(), static_cast<std::size_t>(attn::kMaxSentenceTokens));
    EXPECT_EQ(attn::tokenize(s + "w").error().code, ErrorCode::TooManyTokens);
}

TEST(Sentence, BadFocusBadHeadsAndBadTextAreTypedErrors) {
    EXPECT_EQ(attn::sentence_scenario("a b c", 3, 8, 1).error().code, ErrorCode::BadFocus);
    EXPECT_EQ(attn::sentence_scenario("a b c", -1, 8, 1).error().code, ErrorCode::BadFocus);
    EXPECT_EQ(attn::sentence_scenario("a b c", 0, 8, 3).error().code, ErrorCode::BadHeads);
    EXPECT_EQ(attn::sentence_scenario("a b c", 0, 8, 9).error().code, ErrorCode::BadHeads);
    EXPECT_EQ(attn::sentence_scenario("a b c", 0, 600, 1).error().code, ErrorCode::BadDimension);
    EXPECT_EQ(attn::sentence_scenario("a \xFF", 0, 8, 1).error().code, ErrorCode::InvalidUtf8);
    EXPECT_EQ(attn::sentence_scenario(" ", 0, 8, 1).error().code, ErrorCode::EmptyText);
    auto s = attn::sentence_scenario("a b c", 2, 8, 2);
    ASSERT_TRUE(s.ok());
    EXPECT_TRUE(s.value().illustrative);
    EXPECT_EQ(s.value().candidates, (std::vector<int>{0, 1, 2}));
}

// UTF-8 validity of the deck's bytes (core/source.cpp's messages, parser/deck.cpp's lexical
// errors).
#pragma once

#include <cstddef>
#include <string_view>

namespace mbs {

// The length of the well-formed UTF-8 sequence starting at s[i] (1 for ASCII), 0 when it is not
// one: a continuation byte, an overlong lead byte (0xC0, 0xC1), a lead byte above 0xF4 or a
// sequence cut short.
std::size_t utf8_length(std::string_view s, std::size_t i);

}  // namespace mbs

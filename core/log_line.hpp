// A line of PREFIX.log (MBDyn's model description, output/model_log.hpp), built field by field
// as MBDyn's readers print it: words, labels, and numbers as a C++ stream prints them by default
// (%g, 6 digits; never "-0"); 3x3 matrices row by row. Elements build theirs in log_line()
// (core/element.hpp) from their spec.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "core/math.hpp"

namespace mbs {

struct LogLine {
    std::string s;
    LogLine& word(std::string_view w) {
        if (!s.empty()) s += ' ';
        s += w;
        return *this;
    }
    LogLine& num(double v) {
        char b[32];
        std::snprintf(b, sizeof b, "%g", v == 0.0 ? 0.0 : v);
        return word(b);
    }
    LogLine& label(long l) { return word(std::to_string(l)); }
    LogLine& vec(const Vec3& v) { return num(v[0]).num(v[1]).num(v[2]); }
    LogLine& mat(const Mat3& R) {
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) num(R(i, j));
        return *this;
    }
};

}  // namespace mbs

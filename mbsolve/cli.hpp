// Command-line options of mbsolve (MBDyn-compatible -f/-o plus mbsolve's own).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace mbs::cli {

struct Options {
    std::string deck;
    std::string output_prefix;
    std::map<std::string, std::string> defines;
    bool check = false;
    bool dump_model = false;
    bool quiet = false;
    bool help = false;
    bool version = false;
    std::string working_dir;
};

// Parses argv; throws std::invalid_argument with a user-facing message on bad usage.
Options parse(int argc, char** argv);
const char* usage();

}  // namespace mbs::cli

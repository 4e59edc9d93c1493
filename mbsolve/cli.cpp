// Command-line parsing.
#include "mbsolve/cli.hpp"

#include <stdexcept>

namespace mbs::cli {

const char* usage() {
    return "usage: mbsolve [options] [-f] DECK\n"
           "\n"
           "  -f, --input-file DECK    input deck (MBDyn syntax); a bare DECK also works\n"
           "  -o, --output-file PREFIX prefix of the output files (default: the deck name)\n"
           "  -D NAME=VALUE            define deck variable NAME (honoured by 'set: ifndef ...')\n"
           "  -W, --working-dir DIR    change to DIR before reading the deck\n"
           "      --check              read and build the model, print a summary, exit\n"
           "      --dump-model         print every resolved node and element, exit\n"
           "  -s, --silent, --quiet    no progress or warnings on the terminal\n"
           "      --version            print the version\n"
           "  -h, --help               print this help\n"
           "\n"
           "exit status: 0 ok, 1 internal error, 2 bad input, 3 solver failure\n";
}

Options parse(int argc, char** argv) {
    Options o;
    auto value = [&](int& i, const std::string& flag) -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument("option " + flag + " needs a value");
        return argv[++i];
    };
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-f" || a == "--input-file") o.deck = value(i, a);
        else if (a == "-o" || a == "--output-file") o.output_prefix = value(i, a);
        else if (a == "-W" || a == "--working-dir") o.working_dir = value(i, a);
        else if (a == "-D" || (a.rfind("-D", 0) == 0 && a.size() > 2)) {
            std::string def = a == "-D" ? value(i, a) : a.substr(2);
            auto eq = def.find('=');
            if (eq == std::string::npos || eq == 0) throw std::invalid_argument("-D needs NAME=VALUE, got '" + def + "'");
            o.defines[def.substr(0, eq)] = def.substr(eq + 1);
        } else if (a == "--check") o.check = true;
        else if (a == "--dump-model") o.dump_model = true;
        else if (a == "-s" || a == "--silent" || a == "--quiet") o.quiet = true;
        else if (a == "--version") o.version = true;
        else if (a == "-h" || a == "--help") o.help = true;
        else if (a.size() > 1 && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
        else if (o.deck.empty()) o.deck = a;
        else throw std::invalid_argument("more than one deck given ('" + o.deck + "' and '" + a + "')");
    }
    if (!o.help && !o.version && o.deck.empty()) throw std::invalid_argument("no input deck given");
    return o;
}

}  // namespace mbs::cli

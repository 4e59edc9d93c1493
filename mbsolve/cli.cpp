// Command-line parsing.
#include "mbsolve/cli.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string_view>

#include "core/analysis.hpp"

namespace mbs::cli {

namespace {

// `text` as lines of at most `width` characters, each after `indent` blanks.
std::string wrapped(std::string_view text, std::size_t indent, std::size_t width) {
    std::string out, line;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(' ', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view word = text.substr(at, end - at);
        if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
            out.append(indent, ' ').append(line).append(1, '\n');
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
        at = end + 1;
    }
    if (!line.empty()) out.append(indent, ' ').append(line).append(1, '\n');
    return out;
}

// The --analysis paragraph: one entry per row of the analysis table (core/analysis.hpp).
std::string analysis_help() {
    std::string s;
    for (const AnalysisInfo& a : analyses())
        s += wrapped(std::string(a.name).append(": ").append(a.summary), 27, 92);
    return s;
}

}  // namespace

std::string usage() {
    std::string text =
        "usage: mbsolve [options] [-f] DECK\n"
        "\n"
        "  -f, --input-file DECK    input deck (MBDyn syntax); a bare DECK also works\n"
        "  -o, --output-file PREFIX prefix of the output files (default: the deck name)\n"
        "  -D NAME=VALUE            define deck variable NAME (honoured by 'set: ifndef ...')\n"
        "      --report [NAME=]EXPR scalar result printed at the end of the run, e.g.\n"
        "                           'xend=final(node 2, x)', 'Fmax=maximum(joint 2, F)' "
        "(README: sweeps)\n"
        "      --report-file FILE   write status, steps and the --report values to FILE\n"
        "      --sweep TABLE.csv    run the deck once per row of TABLE (header: 'set: ifndef' "
        "variables)\n"
        "                           with -o DIR: DIR/case-<row>.h5, DIR/summary.csv; "
        "restartable;\n"
        "                           under mpirun the rows are shared among the ranks\n"
        "      --sweep-rows A:B     run rows A to B only (job arrays)\n"
        "      --rows-per-task N    run rows t*N+1 ... (t+1)*N, t = $SLURM_ARRAY_TASK_ID\n"
        "      --sweep-merge DIR    write DIR/summary.csv from the cases recorded in DIR, exit\n"
        "  -W, --working-dir DIR    change to DIR before reading the deck\n"
        "      --check              read and build the model, print a summary, exit\n"
        "      --dump-model         print every resolved node and element, exit\n"
        "      --format LIST        result files, comma-separated: text (.mov .jnt ...), netcdf "
        "(.nc,\n"
        "                           MBDyn's layout), hdf5 (.h5); replaces the deck's 'output "
        "results'\n"
        "                           (.out and .log are always written)\n"
        "      --flush-every N      write NetCDF/HDF5 results in blocks of N output steps "
        "(default\n"
        "                           1000; HDF5 at most 8 MB, NetCDF 32 MB a block), at least "
        "every 5 s\n"
        "      --compress N         HDF5 deflate level 0-9 (default 0: uncompressed)\n"
        "      --output-threads N   1 (default): result files are formatted and written on a "
        "second\n"
        "                           thread; 0: on the solver's thread (a sweep's cases use 0)\n"
        "      --module NAME        load module NAME before reading the deck (repeatable; "
        "searched\n"
        "                           in the deck's folder, MBSOLVE_MODULE_PATH, the install's "
        "modules)\n"
        "      --tree               print the relative-coordinate tree (bodies, joints, "
        "coordinates,\n"
        "                           loop cuts, degrees of freedom, redundant constraints), "
        "exit\n"
        "      --analysis NAME      run NAME on the relative-coordinate model instead of the "
        "DAE:\n"
        "@ANALYSES@"
        "      --independent LIST   with --tree/--analysis: the independent coordinates, "
        "comma-\n"
        "                           separated numbers as --tree prints them (q3 -> 3); checked\n"
        "  -s, --silent, --quiet    no progress, summary or warnings on the terminal\n"
        "      --version            print the version\n"
        "  -h, --help               print this help\n"
        "\n"
        "exit status: 0 ok, 1 internal error, 2 bad input, 3 solver failure,\n"
        "             130 interrupted (SIGINT), 143 terminated (SIGTERM), 129 hung up "
        "(SIGHUP),\n"
        "             4 forced stop (second signal), 5 killed (third signal)\n";
    const std::string mark = "@ANALYSES@";
    text.replace(text.find(mark), mark.size(), analysis_help());
    return text;
}

Options parse(int argc, char** argv) {
    Options o;
    auto value = [&](int& i, const std::string& flag) -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument("option " + flag + " needs a value");
        return argv[++i];
    };
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-f" || a == "--input-file")
            o.deck = value(i, a);
        else if (a == "-o" || a == "--output-file")
            o.output_prefix = value(i, a);
        else if (a == "-W" || a == "--working-dir")
            o.working_dir = value(i, a);
        else if (a == "-D" || (a.rfind("-D", 0) == 0 && a.size() > 2)) {
            std::string def = a == "-D" ? value(i, a) : a.substr(2);
            auto eq = def.find('=');
            if (eq == std::string::npos || eq == 0)
                throw std::invalid_argument("-D needs NAME=VALUE, got '" + def + "'");
            // A deck variable's name: a letter or '_', then letters, digits, '_' (deck-language.md
            // 1.3). Anything else could never be read by the deck and would be dropped silently.
            const std::string name = def.substr(0, eq);
            const bool valid =
                (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
                std::all_of(name.begin(), name.end(), [](char ch) {
                    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
                });
            if (!valid)
                throw std::invalid_argument("-D " + def + ": '" + name +
                                            "' is not a variable name (a letter or '_', then "
                                            "letters, digits and '_')");
            o.defines[def.substr(0, eq)] = def.substr(eq + 1);
        } else if (a == "--sweep")
            o.sweep_table = value(i, a);
        else if (a == "--sweep-rows")
            o.sweep_rows = value(i, a);
        else if (a == "--sweep-merge")
            o.sweep_merge = value(i, a);
        else if (a == "--report")
            o.reports.push_back(value(i, a));
        else if (a == "--report-file")
            o.report_file = value(i, a);
        else if (a == "--rows-per-task") {
            std::string v = value(i, a);
            std::size_t used = 0;
            try {
                o.rows_per_task = std::stoi(v, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != v.size() || o.rows_per_task < 1)
                throw std::invalid_argument("--rows-per-task needs a positive integer, got '" + v +
                                            "'");
        } else if (a == "--format") {
            std::string list = value(i, a);
            o.formats.clear();
            for (std::size_t b = 0; b <= list.size();) {
                std::size_t e = std::min(list.find(',', b), list.size());
                std::string f = list.substr(b, e - b);
                if (f != "text" && f != "netcdf" && f != "hdf5")
                    throw std::invalid_argument("--format: unknown format '" + f +
                                                "' (use text, netcdf, hdf5)");
                o.formats.push_back(f);
                b = e + 1;
            }
        } else if (a == "--flush-every" || a == "--compress") {
            std::string v = value(i, a);
            std::size_t used = 0;
            int n = -1;
            try {
                n = std::stoi(v, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            bool flush = a == "--flush-every";
            if (used != v.size() || (flush ? n < 1 : (n < 0 || n > 9)))
                throw std::invalid_argument(a + " needs " +
                                            (flush ? "a positive integer" : "a level 0-9") +
                                            ", got '" + v + "'");
            (flush ? o.flush_every : o.compression) = n;
        } else if (a == "--output-threads") {
            std::string v = value(i, a);
            if (v != "0" && v != "1")
                throw std::invalid_argument("--output-threads needs 0 or 1, got '" + v + "'");
            o.output_threads = v == "1" ? 1 : 0;
        } else if (a == "--analysis") {
            o.analysis = value(i, a);
            if (!find_analysis(o.analysis))
                throw std::invalid_argument("--analysis: unknown analysis '" + o.analysis +
                                            "' (use " + analysis_names() + ")");
        } else if (a == "--independent") {
            std::string list = value(i, a);
            for (std::size_t b = 0; b <= list.size();) {
                std::size_t e = std::min(list.find(',', b), list.size());
                std::string f = list.substr(b, e - b);
                if (!f.empty() && (f[0] == 'q' || f[0] == 'Q')) f.erase(0, 1);
                std::size_t used = 0;
                int n = 0;
                try {
                    n = std::stoi(f, &used);
                } catch (const std::exception&) {
                    used = 0;
                }
                if (f.empty() || used != f.size() || n < 1)
                    throw std::invalid_argument(
                        "--independent: expected coordinate numbers like 3,5 or q3,q5, got '" +
                        list + "'");
                o.independent.push_back(n);
                b = e + 1;
            }
        } else if (a == "--tree")
            o.tree = true;
        else if (a == "--check")
            o.check = true;
        else if (a == "--module")
            o.modules.push_back(value(i, a));
        else if (a == "--dump-model")
            o.dump_model = true;
        else if (a == "-s" || a == "--silent" || a == "--quiet")
            o.quiet = true;
        else if (a == "--version")
            o.version = true;
        else if (a == "-h" || a == "--help")
            o.help = true;
        else if (a.size() > 1 && a[0] == '-')
            throw std::invalid_argument("unknown option '" + a + "'");
        else if (o.deck.empty())
            o.deck = a;
        else
            throw std::invalid_argument("more than one deck given ('" + o.deck + "' and '" + a +
                                        "')");
    }
    if ((!o.sweep_rows.empty() || o.rows_per_task > 0) && o.sweep_table.empty())
        throw std::invalid_argument("--sweep-rows and --rows-per-task need --sweep TABLE");
    if ((!o.reports.empty() || !o.report_file.empty()) &&
        (o.tree || !o.analysis.empty() || o.check || o.dump_model))
        throw std::invalid_argument(
            "--report and --report-file need a time integration (not with --tree, "
            "--analysis, --check or --dump-model)");
    if (!o.sweep_table.empty() && (o.tree || !o.analysis.empty() || o.check || o.dump_model))
        throw std::invalid_argument(
            "--sweep runs the time integration: not with --tree, --analysis, --check "
            "or --dump-model");
    if (!o.sweep_merge.empty()) return o;  // needs no deck
    if (!o.help && !o.version && o.deck.empty()) throw std::invalid_argument("no input deck given");
    return o;
}

}  // namespace mbs::cli

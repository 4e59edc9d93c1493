// MBDyn-style text output files.
#include "output/text_output.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "core/rotations.hpp"
#include "output/model_log.hpp"
#include "output/output_error.hpp"
#include "output/results.hpp"

namespace mbs {

TextOutput::TextOutput(const Model& m, std::string prefix, bool entities)
    : model_(&m), prefix_(std::move(prefix)), entities_(entities) {
    // At most 17 significant digits are meaningful; the cap also bounds a number's width.
    precision_ = m.control.precision();
    default_orientation_ = m.control.orientation();
}

TextOutput::~TextOutput() {
    // Without end() (an exception ended the run): the recorded lines are still written.
    try {
        if (worker_.running() && !fill_.lines.empty()) hand_off();
        worker_.wait_idle();
    } catch (...) {
    }
    worker_.stop();
    for (auto& [k, f] : files_)
        if (f) std::fclose(f);
}

std::FILE* TextOutput::file(const std::string& ext) {
    auto it = files_.find(ext);
    if (it != files_.end()) return it->second;
    std::string path = prefix_ + "." + ext;
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw output::OutputError("cannot write output file '" + path + "'");
    files_[ext] = f;
    return f;
}

void TextOutput::begin_line(std::FILE* f, long label) {
    line_file_ = f;
    line_len_ = static_cast<int>(std::to_chars(line_, line_ + sizeof line_, label).ptr - line_);
}

void TextOutput::num(double v, int precision) {
    // A number takes at most 1 + 17 + 7 characters: flush a nearly full line first.
    if (line_len_ > static_cast<int>(sizeof line_) - 64) {
        std::fwrite(line_, 1, line_len_, line_file_);
        line_len_ = 0;
    }
    if (v == 0.0) v = 0.0;  // no "-0"
    line_[line_len_++] = ' ';
    char* end = std::to_chars(line_ + line_len_, line_ + sizeof line_, v,
                              std::chars_format::general, precision)
                    .ptr;
    line_len_ = static_cast<int>(end - line_);
}

void TextOutput::end_line() {
    line_[line_len_++] = '\n';
    std::fwrite(line_, 1, line_len_, line_file_);
    line_len_ = 0;
}

void TextOutput::begin(const StepView& view) {
    for (const auto& n : view.nodes) {
        const std::string& od =
            n.orientation_description.empty() ? default_orientation_ : n.orientation_description;
        orientation_.push_back(od == "orientation matrix"   ? Orientation::matrix
                               : od == "orientation vector" ? Orientation::vector
                               : od == "euler313"           ? Orientation::euler313
                               : od == "euler321"           ? Orientation::euler321
                                                            : Orientation::euler123);
    }
    element_file_.assign(view.elements.size(), nullptr);
    is_trace_.assign(view.elements.size(), 0);
    for (std::size_t j = 0; j < view.elements.size(); ++j) {
        const char* ext = view.elements[j]->output_file();
        if (ext && view.elements[j]->desc().output && std::strcmp(ext, "trc") == 0) {
            is_trace_[j] = 1;
            traces_.push_back(static_cast<int>(j));
        }
    }
    std::FILE* log = file("log");
    output::write_model_log(log, *model_, view);
    std::fflush(log);
    out_ = file("out");
    std::fprintf(out_, "# mbsolve output log\n# Step Time TStep NIter ResErr SolErr SolConv Out\n");
    std::fflush(out_);

    // Records of one output step at most: the .out line, two lines per node (.mov with the
    // accelerations: 24 values, .ine: 12), one per element
    // (its value count as it reports it now; a larger one later only costs a reallocation).
    double v[Element::max_output_values];
    step_lines_ = 1 + 2 * view.nodes.size() + view.elements.size();
    step_vals_ = 8 + 36 * view.nodes.size();
    for (const auto& el : view.elements)
        if (el->output_file() && el->desc().output) step_vals_ += el->output_values(v);
    begin_blocks(view);
    // Blocks of about 8 MB, at least two output steps each.
    const std::size_t steps = std::max<std::size_t>(2, (std::size_t{8} << 20) / (8 * step_vals_));
    for (Block* b : {&fill_, &write_}) {
        b->lines.reserve(steps * step_lines_);
        b->vals.reserve(steps * step_vals_);
    }
    last_hand_off_ = std::chrono::steady_clock::now();
    worker_.start();
}

void TextOutput::add_line(std::FILE* f, long label, Kind kind, int n, Orientation o) {
    fill_.lines.push_back(Line{f, label, kind, o, n});
}

void TextOutput::record_nodes(const StepView& view) {
    const auto& nodes = view.nodes;
    std::vector<double>& v = fill_.vals;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const StructNode& n = nodes[k];
        if (!n.desc().output) continue;
        if (!mov_) mov_ = file("mov");
        add_line(mov_, n.label(), Kind::node, n.accel_output ? 24 : 18, orientation_[k]);
        v.insert(v.end(), n.x.data(), n.x.data() + 3);
        v.insert(v.end(), n.R.data(), n.R.data() + 9);  // column-major
        v.insert(v.end(), n.xdot.data(), n.xdot.data() + 3);
        v.insert(v.end(), n.w.data(), n.w.data() + 3);
        if (n.accel_output) {  // `accelerations, yes`: XPP, OmegaP appended (MBDyn's .mov)
            v.insert(v.end(), n.xpp.data(), n.xpp.data() + 3);
            v.insert(v.end(), n.wp.data(), n.wp.data() + 3);
        }
        if (view.momenta && output::node_momenta_output(n, true)) {
            if (!ine_) ine_ = file("ine");
            add_line(ine_, n.label(), Kind::ine, 12);
            for (const Vec3* m : {&n.beta, &n.gamma, &n.beta_dot, &n.gamma_dot})
                v.insert(v.end(), m->data(), m->data() + 3);
        }
    }
}

void TextOutput::record_elements(const StepView& view) {
    double v[Element::max_output_values];
    const auto& elements = view.elements;
    for (std::size_t j = 0; j < elements.size(); ++j) {
        const Element& el = *elements[j];
        const char* ext = el.output_file();
        if (!ext || !el.desc().output || is_trace_[j]) continue;
        int k = el.output_values(v);
        if (!element_file_[j]) element_file_[j] = file(ext);
        add_line(element_file_[j], el.label(), Kind::values, k);
        fill_.vals.insert(fill_.vals.end(), v, v + k);
    }
}

// MBDyn writes a drive caller's trace at every time step (DataManager::Output calls
// DriveTrace before it looks at the output meter).
void TextOutput::record_traces(const StepView& view) {
    double v[Element::max_output_values];
    for (int j : traces_) {
        const Element& el = *view.elements[static_cast<std::size_t>(j)];
        int k = el.output_values(v);
        if (!element_file_[j]) element_file_[j] = file(el.output_file());
        add_line(element_file_[j], el.label(), Kind::values, k);
        fill_.vals.insert(fill_.vals.end(), v, v + k);
    }
}

void TextOutput::step(const StepView& view, const StepInfo& s) {
    if (fill_.lines.size() + step_lines_ > fill_.lines.capacity() ||
        fill_.vals.size() + step_vals_ > fill_.vals.capacity())
        hand_off();
    add_line(out_, s.step, Kind::out, 7);
    const double info[7] = {s.time,
                            s.dt,
                            static_cast<double>(s.iterations),
                            s.res_err,
                            s.sol_err,
                            s.sol_conv ? 1.0 : 0.0,
                            s.output ? 1.0 : 0.0};
    fill_.vals.insert(fill_.vals.end(), info, info + 7);
    if (s.output && entities_) {
        record_nodes(view);
        record_elements(view);
        record_blocks(view);
    }
    if (entities_) record_traces(view);
    auto now = std::chrono::steady_clock::now();
    if (now - last_hand_off_ > std::chrono::seconds(1)) hand_off();
}

void TextOutput::begin_blocks(const StepView& view) {
    block_file_.assign(view.blocks.size(), nullptr);
    for (const ValueBlock& b : view.blocks) {
        step_lines_ += b.rows.size() + 1;
        step_vals_ += b.values.size();
    }
}

// A block's lines: its header at its first output, then one line per row with the row's values.
void TextOutput::record_blocks(const StepView& view) {
    for (std::size_t j = 0; j < view.blocks.size(); ++j) {
        const ValueBlock& b = view.blocks[j];
        if (b.file.empty() || b.rows.empty()) continue;
        if (!block_file_[j]) {
            block_file_[j] = file(b.file);
            if (!b.header.empty()) {
                fill_.lines.push_back(
                    Line{block_file_[j], 0, Kind::block_header, Orientation::matrix, 0, &b, 0});
            }
        }
        for (std::size_t r = 0; r < b.rows.size(); ++r) {
            const ValueBlock::Row& row = b.rows[r];
            fill_.lines.push_back(Line{block_file_[j], row.label, Kind::block_row,
                                       Orientation::matrix, row.count, &b, static_cast<int>(r)});
            const double* first = b.values.data() + b.first[r];
            fill_.vals.insert(fill_.vals.end(), first, first + row.count);
        }
    }
}

// Worker thread: a block's header, or a row's line "<text> v1 v2 ...<suffix>".
void TextOutput::write_block_line(const Line& l, const double* v) {
    const ValueBlock& b = *l.block;
    if (l.kind == Kind::block_header) {
        std::fwrite(b.header.data(), 1, b.header.size(), l.f);
        return;
    }
    const ValueBlock::Row& row = b.rows[static_cast<std::size_t>(l.row)];
    if (row.text.empty()) {
        begin_line(l.f, l.label);
    } else {
        line_file_ = l.f;
        line_len_ = 0;
        std::fwrite(row.text.data(), 1, row.text.size(), l.f);
    }
    const int prec = b.precision > 0 ? b.precision : precision_;
    for (int i = 0; i < l.n; ++i) num(v[i], prec);
    if (!row.suffix.empty()) {
        std::fwrite(line_, 1, static_cast<std::size_t>(line_len_), line_file_);
        line_len_ = 0;
        std::fwrite(row.suffix.data(), 1, row.suffix.size(), l.f);
    }
    end_line();
}

void TextOutput::hand_off() {
    worker_.wait_idle();  // the worker owns write_ until it is idle
    std::swap(fill_, write_);
    fill_.lines.clear();
    fill_.vals.clear();
    last_hand_off_ = std::chrono::steady_clock::now();
    worker_.post([this] { write_block(); });
}

// Worker thread: the block's lines, in the order they were recorded.
void TextOutput::write_block() {
    const double* v = write_.vals.data();
    for (const Line& l : write_.lines) {
        switch (l.kind) {
            case Kind::out: {
                // "Step %ld %.*g %.*g %d %.*g %.*g %d %d" (precision + 4 for the time), with
                // std::to_chars: the same text as printf's, without its format parsing.
                char* p = line_;
                char* const e = line_ + sizeof line_;
                auto put = [&](const char* t) {
                    while (*t) *p++ = *t++;
                };
                auto real = [&](double x, int prec) {
                    *p++ = ' ';
                    p = std::to_chars(p, e, x, std::chars_format::general, prec).ptr;
                };
                auto integer = [&](long x) {
                    *p++ = ' ';
                    p = std::to_chars(p, e, x).ptr;
                };
                put("Step");
                integer(l.label);
                real(v[0], precision_ + 4);
                real(v[1], precision_);
                integer(static_cast<int>(v[2]));
                real(v[3], precision_);
                real(v[4], precision_);
                integer(static_cast<int>(v[5]));
                integer(static_cast<int>(v[6]));
                *p++ = '\n';
                std::fwrite(line_, 1, static_cast<std::size_t>(p - line_), l.f);
                break;
            }
            case Kind::node: {
                begin_line(l.f, l.label);
                for (int i = 0; i < 3; ++i) num(v[i]);
                const Eigen::Map<const Mat3> R(v + 3);
                if (l.orientation == Orientation::matrix) {
                    for (int i = 0; i < 3; ++i)
                        for (int j = 0; j < 3; ++j) num(R(i, j));
                } else {
                    const Orientation od = l.orientation;
                    Vec3 a = od == Orientation::vector ? matrix_to_rotation_vector(R)
                             : od == Orientation::euler313
                                 ? Vec3(matrix_to_euler313(R) * (180.0 / M_PI))
                             : od == Orientation::euler321
                                 ? Vec3(matrix_to_euler321(R) * (180.0 / M_PI))
                                 : Vec3(matrix_to_euler123(R) * (180.0 / M_PI));
                    for (int i = 0; i < 3; ++i) num(a[i]);
                }
                for (int i = 12; i < l.n; ++i) num(v[i]);
                end_line();
                break;
            }
            case Kind::block_header:
            case Kind::block_row:
                write_block_line(l, v);
                break;
            case Kind::ine:
            case Kind::values:
                begin_line(l.f, l.label);
                for (int i = 0; i < l.n; ++i) num(v[i]);
                end_line();
                break;
        }
        v += l.n;
    }
    check_files();
}

// A write that failed (a full disk, a file size limit) leaves the stream's error flag set, and
// errno as the failed write left it: the run stops with the reason rather than going on with
// truncated files.
void TextOutput::check_files() const {
    for (const auto& [ext, f] : files_)
        if (std::ferror(f))
            throw output::OutputError("cannot write output file '" + prefix_ + "." + ext +
                                      "': " + std::strerror(errno));
}

std::vector<std::string> TextOutput::files() const {
    std::vector<std::string> v;
    for (const auto& [ext, f] : files_) v.push_back(prefix_ + "." + ext);
    return v;
}

void TextOutput::end(const StepView&, const std::string& status) {
    if (worker_.running()) {
        if (!fill_.lines.empty()) hand_off();
        worker_.wait_idle();
        worker_.stop();
    }
    if (!status.empty()) {
        std::FILE* out = file("out");
        // Continuation lines of the reason are comments too.
        std::string text;
        for (char c : status) {
            text += c;
            if (c == '\n') text += '#';
        }
        std::fprintf(out, "# run stopped: %s\n", text.c_str());
    }
    for (auto& [k, f] : files_) std::fflush(f);
    check_files();
}

}  // namespace mbs

// MBDyn-style text output files.
#include "output/text_output.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "core/rotations.hpp"
#include "output/output_error.hpp"

namespace mbs {

TextOutput::TextOutput(const Model& m, std::string prefix, bool entities)
    : model_(&m), prefix_(std::move(prefix)), entities_(entities) {
    // At most 17 significant digits are meaningful; the cap also bounds a number's width.
    precision_ = std::clamp(static_cast<int>(m.control.get_or<long>("output precision", 6)), 1, 17);
    default_orientation_ = m.control.get_or<std::string>("default orientation", "euler123");
}

TextOutput::~TextOutput() {
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

void TextOutput::num(double v) {
    // A number takes at most 1 + 17 + 7 characters: flush a nearly full line first.
    if (line_len_ > static_cast<int>(sizeof line_) - 64) {
        std::fwrite(line_, 1, line_len_, line_file_);
        line_len_ = 0;
    }
    if (v == 0.0) v = 0.0;  // no "-0"
    line_[line_len_++] = ' ';
    char* end = std::to_chars(line_ + line_len_, line_ + sizeof line_, v,
                              std::chars_format::general, precision_)
                    .ptr;
    line_len_ = static_cast<int>(end - line_);
}

void TextOutput::end_line() {
    line_[line_len_++] = '\n';
    std::fwrite(line_, 1, line_len_, line_file_);
    line_len_ = 0;
}

void TextOutput::begin(const Engine& e) {
    for (const auto& n : e.nodes()) {
        std::string od =
            n.desc().props.get_or<std::string>("orientation description", default_orientation_);
        orientation_.push_back(od == "orientation matrix"   ? Orientation::matrix
                               : od == "orientation vector" ? Orientation::vector
                               : od == "euler313"           ? Orientation::euler313
                               : od == "euler321"           ? Orientation::euler321
                                                            : Orientation::euler123);
    }
    element_file_.assign(e.elements().size(), nullptr);
    std::FILE* log = file("log");
    std::fprintf(log, "mbsolve log file\n");
    for (const auto& n : e.nodes())
        std::fprintf(log, "structural node: %ld %s\n", n.label(), n.desc().type.c_str());
    for (const auto& el : e.elements()) {
        const EntityDesc& d = el->desc();
        if (d.category == "structural") continue;
        std::fprintf(log, "%s: %ld%s%s\n", d.category.c_str(), d.label, d.type.empty() ? "" : " ",
                     d.type.c_str());
    }
    std::fflush(log);
    std::FILE* out = file("out");
    std::fprintf(out, "# mbsolve output log\n# Step Time TStep NIter ResErr SolErr SolConv Out\n");
}

void TextOutput::write_nodes(const Engine& e) {
    std::FILE* mov = nullptr;
    std::FILE* ine = nullptr;
    const auto& nodes = e.nodes();
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const StructNode& n = nodes[k];
        if (!n.desc().output) continue;
        if (!mov) mov = file("mov");
        begin_line(mov, n.label());
        for (int i = 0; i < 3; ++i) num(n.x[i]);
        const Orientation od = orientation_[k];
        if (od == Orientation::matrix) {
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) num(n.R(i, j));
        } else {
            Vec3 a = od == Orientation::vector     ? matrix_to_rotation_vector(n.R)
                     : od == Orientation::euler313 ? Vec3(matrix_to_euler313(n.R) * (180.0 / M_PI))
                     : od == Orientation::euler321 ? Vec3(matrix_to_euler321(n.R) * (180.0 / M_PI))
                                                   : Vec3(matrix_to_euler123(n.R) * (180.0 / M_PI));
            for (int i = 0; i < 3; ++i) num(a[i]);
        }
        for (int i = 0; i < 3; ++i) num(n.xdot[i]);
        for (int i = 0; i < 3; ++i) num(n.w[i]);
        end_line();
        if (n.is_dynamic() && n.has_rotation()) {
            if (!ine) ine = file("ine");
            begin_line(ine, n.label());
            for (const Vec3* v : {&n.beta, &n.gamma, &n.beta_dot, &n.gamma_dot})
                for (int i = 0; i < 3; ++i) num((*v)[i]);
            end_line();
        }
    }
}

void TextOutput::write_elements(const Engine& e) {
    double v[Element::max_output_values];
    const auto& elements = e.elements();
    for (std::size_t j = 0; j < elements.size(); ++j) {
        const Element& el = *elements[j];
        const char* ext = el.output_file();
        if (!ext || !el.desc().output) continue;
        int k = el.output_values(v);
        if (!element_file_[j]) element_file_[j] = file(ext);
        begin_line(element_file_[j], el.label());
        for (int i = 0; i < k; ++i) num(v[i]);
        end_line();
    }
}

void TextOutput::step(const Engine& e, const StepInfo& s) {
    std::FILE* out = file("out");
    std::fprintf(out, "Step %ld %.*g %.*g %d %.*g %.*g %d %d\n", s.step, precision_ + 4, s.time,
                 precision_, s.dt, s.iterations, precision_, s.res_err, precision_, s.sol_err,
                 s.sol_conv ? 1 : 0, s.output ? 1 : 0);
    if (!s.output || !entities_) return;
    write_nodes(e);
    write_elements(e);
}

std::vector<std::string> TextOutput::files() const {
    std::vector<std::string> v;
    for (const auto& [ext, f] : files_) v.push_back(prefix_ + "." + ext);
    return v;
}

void TextOutput::end(const Engine&, const std::string& status) {
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
}

}  // namespace mbs

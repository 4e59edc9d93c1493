// MBDyn-style text output files.
#include "output/text_output.hpp"

#include <cmath>
#include <stdexcept>

#include "core/rotations.hpp"

namespace mbs {

TextOutput::TextOutput(const Model& m, std::string prefix) : model_(&m), prefix_(std::move(prefix)) {
    precision_ = static_cast<int>(m.control.get_or<long>("output precision", 6));
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
    if (!f) throw std::runtime_error("cannot write output file '" + path + "'");
    files_[ext] = f;
    return f;
}

std::vector<std::string> TextOutput::files() const {
    std::vector<std::string> v;
    for (const auto& [k, f] : files_) v.push_back(prefix_ + "." + k);
    return v;
}

void TextOutput::num(std::FILE* f, double v) {
    if (v == 0.0) v = 0.0;  // no "-0"
    std::fprintf(f, " %.*g", precision_, v);
}

void TextOutput::begin(const Engine& e) {
    std::FILE* log = file("log");
    std::fprintf(log, "mbsolve log file\n");
    for (const auto& n : e.nodes())
        std::fprintf(log, "structural node: %ld %s\n", n.label(), n.desc().type.c_str());
    for (const auto& el : e.elements()) {
        const EntityDesc& d = el->desc();
        if (d.category == "structural") continue;
        std::fprintf(log, "%s: %ld%s%s\n", d.category.c_str(), d.label, d.type.empty() ? "" : " ", d.type.c_str());
    }
    std::fflush(log);
    std::FILE* out = file("out");
    std::fprintf(out, "# mbsolve output log\n# Step Time TStep NIter ResErr SolErr SolConv Out\n");
}

void TextOutput::write_nodes(const Engine& e) {
    std::FILE* mov = nullptr;
    std::FILE* ine = nullptr;
    for (const auto& n : e.nodes()) {
        if (!n.desc().output) continue;
        if (!mov) mov = file("mov");
        std::fprintf(mov, "%ld", n.label());
        for (int i = 0; i < 3; ++i) num(mov, n.x[i]);
        std::string od = n.desc().props.get_or<std::string>("orientation description", default_orientation_);
        if (od == "orientation matrix") {
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) num(mov, n.R(i, j));
        } else {
            Vec3 a = od == "orientation vector" ? matrix_to_rotation_vector(n.R)
                     : od == "euler313"         ? Vec3(matrix_to_euler313(n.R) * (180.0 / M_PI))
                     : od == "euler321"         ? Vec3(matrix_to_euler321(n.R) * (180.0 / M_PI))
                                                : Vec3(matrix_to_euler123(n.R) * (180.0 / M_PI));
            for (int i = 0; i < 3; ++i) num(mov, a[i]);
        }
        for (int i = 0; i < 3; ++i) num(mov, n.xdot[i]);
        for (int i = 0; i < 3; ++i) num(mov, n.w[i]);
        std::fputc('\n', mov);
        if (n.is_dynamic() && n.has_rotation()) {
            if (!ine) ine = file("ine");
            std::fprintf(ine, "%ld", n.label());
            for (const Vec3* v : {&n.beta, &n.gamma, &n.beta_dot, &n.gamma_dot})
                for (int i = 0; i < 3; ++i) num(ine, (*v)[i]);
            std::fputc('\n', ine);
        }
    }
}

void TextOutput::write_elements(const Engine& e) {
    double v[Element::max_output_values];
    for (const auto& el : e.elements()) {
        const char* ext = el->output_file();
        if (!ext || !el->desc().output) continue;
        int k = el->output_values(v);
        std::FILE* f = file(ext);
        std::fprintf(f, "%ld", el->label());
        for (int i = 0; i < k; ++i) num(f, v[i]);
        std::fputc('\n', f);
    }
}

void TextOutput::step(const Engine& e, const StepInfo& s) {
    std::FILE* out = file("out");
    std::fprintf(out, "Step %ld %.*g %.*g %d %.*g %.*g %d %d\n", s.step, precision_ + 4, s.time, precision_, s.dt,
                 s.iterations, precision_, s.res_err, precision_, s.sol_err, s.sol_conv ? 1 : 0, s.output ? 1 : 0);
    if (!s.output) return;
    write_nodes(e);
    write_elements(e);
}

void TextOutput::end(const Engine&, const std::string& status) {
    if (!status.empty()) {
        std::FILE* out = file("out");
        std::string text = status;
        for (std::size_t k = 0; (k = text.find('\n', k)) != std::string::npos; k += 2) text.insert(k + 1, "#");
        std::fprintf(out, "# run stopped: %s\n", text.c_str());
    }
    for (auto& [k, f] : files_) std::fflush(f);
}

}  // namespace mbs

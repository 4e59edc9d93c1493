// MBDyn-style text output (mbdyn-syntax.md 8): .out (step log), .mov (structural nodes),
// .ine (momenta of dynamic nodes), .jnt (joints), .frc (forces), .log (model description).
#pragma once

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "solvers/dae/simulation.hpp"

namespace mbs {

class TextOutput final : public OutputSink {
  public:
    // prefix: output path without extension. Files are created when first needed. With
    // entities = false only the run log (.out) and the model description (.log) are written
    // (`output results: ..., no text`).
    TextOutput(const Model& m, std::string prefix, bool entities = true);
    ~TextOutput() override;
    TextOutput(const TextOutput&) = delete;
    TextOutput& operator=(const TextOutput&) = delete;

    void begin(const Engine& e) override;
    void step(const Engine& e, const StepInfo& s) override;
    void end(const Engine& e, const std::string& status) override;
    // Paths of the files written so far.
    std::vector<std::string> files() const;

  private:
    std::FILE* file(const std::string& ext);
    void write_nodes(const Engine& e);
    void write_elements(const Engine& e);
    // One line of a file: the label, then " value" per num() (the text of "%.*g", formatted with
    // std::to_chars: no format parsing, no locale), written with one fwrite by end_line().
    void begin_line(std::FILE* f, long label);
    void num(double v);
    void end_line();

    enum class Orientation : unsigned char { euler123, euler313, euler321, vector, matrix };

    const Model* model_;
    std::string prefix_;
    bool entities_ = true;
    int precision_ = 6;
    std::string default_orientation_ = "euler123";
    std::map<std::string, std::FILE*> files_;
    std::vector<Orientation> orientation_;  // per node, from its card (begin())
    std::vector<std::FILE*> element_file_;  // per element, opened at its first output
    std::FILE* line_file_ = nullptr;
    int line_len_ = 0;
    char line_[4096];
};

}  // namespace mbs

// MBDyn-style text output (docs/deck-language.md 8): .out (step log), .mov (structural nodes),
// .ine (momenta of dynamic nodes), .jnt (joints), .frc (forces), .log (model description), and
// each element's file (.abs, .gen, .prm, .drv, ...; .trc at every step, the others at output
// steps).
//
// The solver's thread only copies each output step's numbers into a preallocated block (a
// record per line: file, label, values); a worker thread turns full blocks into text while the
// solver goes on with the other block. A block is handed over when it cannot take another
// output step, and at least once a second (so `tail -f` of .out follows the run); end() writes
// the rest and flushes every file.
#pragma once

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/step_view.hpp"
#include "output/worker.hpp"

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

    void begin(const StepView& view) override;
    void step(const StepView& view, const StepInfo& s) override;
    void end(const StepView& view, const std::string& status) override;
    // Paths of the files written so far.
    std::vector<std::string> files() const;

  private:
    enum class Orientation : unsigned char { euler123, euler313, euler321, vector, matrix };
    enum class Kind : unsigned char { out, node, ine, values, block_header, block_row };
    // One line to write: its values are vals[first, first + n) of the block.
    struct Line {
        std::FILE* f;
        long label;
        Kind kind;
        Orientation orientation;  // node lines
        int n;
        const ValueBlock* block = nullptr;  // block lines: the value block and its row
        int row = 0;
    };
    struct Block {
        std::vector<Line> lines;
        std::vector<double> vals;
    };

    std::FILE* file(const std::string& ext);
    // Solver's thread: records lines into fill_.
    void add_line(std::FILE* f, long label, Kind kind, int n, Orientation o = Orientation::matrix);
    void record_nodes(const StepView& view);
    void record_elements(const StepView& view);
    // The value blocks (core/value_block.hpp): a header once, then a line per row.
    void begin_blocks(const StepView& view);
    void record_blocks(const StepView& view);
    void write_block_line(const Line& l, const double* v);
    // MBDyn's traces (.trc, elements/drives/drive_output.cpp): written at every step.
    void record_traces(const StepView& view);
    void hand_off();
    // Worker thread: formats write_.
    void write_block();
    void check_files() const;  // throws if a file's writes failed
    // One line of a file: the label, then " value" per num() (the text of "%.*g", formatted with
    // std::to_chars: no format parsing, no locale), written with one fwrite by end_line().
    void begin_line(std::FILE* f, long label);
    void num(double v) { num(v, precision_); }
    void num(double v, int precision);
    void end_line();

    const Model* model_;
    std::string prefix_;
    bool entities_ = true;
    int precision_ = 6;
    std::string default_orientation_ = "euler123";
    std::map<std::string, std::FILE*> files_;
    std::vector<Orientation> orientation_;  // per node, from its card (begin())
    std::vector<std::FILE*> element_file_;  // per element, opened at its first output
    std::vector<std::FILE*> block_file_;    // per value block, opened at its first output
    std::vector<char> is_trace_;            // per element: writes .trc (every step)
    std::vector<int> traces_;               // those elements
    std::FILE* out_ = nullptr;
    std::FILE* mov_ = nullptr;
    std::FILE* ine_ = nullptr;
    Block fill_, write_;
    std::size_t step_lines_ = 0, step_vals_ = 0;  // bounds of one output step's records
    std::chrono::steady_clock::time_point last_hand_off_;
    output::Worker worker_;
    // Worker thread only.
    std::FILE* line_file_ = nullptr;
    int line_len_ = 0;
    char line_[4096];
};

}  // namespace mbs

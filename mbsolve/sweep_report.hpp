// Scalar results of a run: --report [NAME=]EXPR, evaluated at the end of the run.
//
// EXPR is an expression of the deck's math language (docs/deck-language.md 1.4: + - * / ^, sqrt,
// abs, atan2, max(a, b), pi, ...), evaluated by the deck evaluator, in which
//   * the variables given with -D (in a sweep: the table's columns for the case) are defined,
//   * run-data terms  AGG(KIND LABEL, FIELD)  stand for a number gathered during the run:
//       AGG    final    value at the end of the run
//              initial  value at the initial time (after the initial assembly)
//              maximum, minimum, maxabs (largest |value|), mean, rms: over the initial state
//                       and every converged step (mean, rms: per step, not time-weighted)
//       KIND   node     a structural node; FIELD: x y z (position, m), vx vy vz (velocity, m/s),
//                       wx wy wz (angular velocity, rad/s), speed (|v|), omega (|w|), all global
//              joint    a joint; FIELD: Fx Fy Fz Mx My Mz (reaction force/moment on the second
//                       node, global frame, N and Nm), fx fy fz mx my mz (same, joint frame),
//                       F (|F|), M (|M|)
//              any element category (joint, body, beam3, ...) or node, with FIELD a quoted
//                       private-data name (docs/deck-language.md 4-5): "rz" of a revolute hinge,
//                       "E" of a body, "X[1]" or "Phi[3]" of a node, ...
// NAME (letters, digits, '_') labels the column of the summary; without it the column is
// named after the expression. Examples:
//   --report 'x_end=final(node 2, x)'
//   --report 'Fmax=maximum(joint 2, F)'
//   --report 'theta_end=atan2(final(node 2, x), -final(node 2, y))'
//   --report 'Fmax_over_weight=maximum(joint 2, F) / 9.81'
//   --report 'swing=maximum(joint 2, "rz") - minimum(joint 2, "rz")'
// Bad expressions (syntax, unknown name or field, missing label) are input errors (exit 2).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "solvers/dae/simulation.hpp"

namespace mbs::sweep {

struct ReportTerm {
    enum class Agg { final_, initial, maximum, minimum, maxabs, mean, rms };
    enum class Kind { node, element };
    Agg agg = Agg::final_;
    Kind kind = Kind::node;
    std::string category;  // element category ("joint", "body", ...)
    long label = 0;
    int field = -1;          // built-in field: index into the node or joint field list
    std::string datum;       // else: the private-data name
    std::string text;        // as written, for messages
    std::size_t offset = 0;  // in the report's expression text
};

struct Report {
    std::string spec;  // as given on the command line
    std::string name;  // summary column
    std::string expr;  // the expression, terms replaced by same-length identifiers
    std::vector<ReportTerm> terms;
};

// Parses one --report argument; throws std::invalid_argument naming the report and the problem.
Report parse_report(const std::string& spec);

// Evaluates r with the term values `terms` (same order as r.terms) and the -D variables;
// throws std::invalid_argument (bad expression) with a message naming the report.
double evaluate_report(const Report& r, const std::vector<double>& terms,
                       const std::map<std::string, std::string>& defines);

// Checks the expression (syntax, names) with every term set to 1 and the labels against the
// model; throws InputError. (Private-data names are checked when a ReportSink binds them.)
void check_report(const Report& r, const Model& model,
                  const std::map<std::string, std::string>& defines);

// Samples the terms of all reports during a run (no allocation per step).
class ReportSink final : public OutputSink {
  public:
    // Resolves labels and private-data names in the engine; throws InputError. The engine
    // outlives the sink (elements' private data read its state).
    ReportSink(const std::vector<Report>& reports, const Engine& engine);
    void step(const StepView& v, const StepInfo& s) override;
    // Values of the reports (NaN for a term without any sample).
    std::vector<double> values(const std::map<std::string, std::string>& defines) const;
    long steps() const { return steps_; }
    double final_time() const { return time_; }

  private:
    struct Acc {
        const ReportTerm* term;
        int index;  // in Engine::nodes() or Engine::elements()
        int datum;  // private-data index, or -1 (built-in field)
        long n = 0;
        double first = 0, last = 0, max = 0, min = 0, maxabs = 0, sum = 0, sum2 = 0;
    };
    void sample(const StepView& v, Acc& a);
    const std::vector<Report>* reports_;
    const Engine* engine_;
    std::vector<Acc> acc_;
    long steps_ = 0;
    double time_ = 0.0;
};

// The result file of --report-file: the run's outcome, read back by the sweep driver.
struct RunResult {
    std::string status;  // "ok" or "failed" (solver failure)
    long steps = 0;
    double final_time = 0.0;
    std::vector<double> reports;
    std::string error;
};
void write_run_result(const std::string& path, const RunResult& r);
// Returns false if the file does not exist or is incomplete.
bool read_run_result(const std::string& path, RunResult& r);

// --report / --report-file of one run (main.cpp): parses and checks the reports before the run,
// samples them as a sink, prints them ("report: NAME = VALUE") and writes the report file.
class RunReports {
  public:
    RunReports(const std::vector<std::string>& specs, std::string report_file,
               std::map<std::string, std::string> defines, const Engine& engine);
    OutputSink* sink() { return sink_.get(); }
    // status: "ok" or "failed" (with the solver's message).
    void finish(const std::string& status, const std::string& error, bool quiet);

  private:
    std::vector<Report> reports_;
    std::string file_;
    std::map<std::string, std::string> defines_;
    std::unique_ptr<ReportSink> sink_;
};

}  // namespace mbs::sweep

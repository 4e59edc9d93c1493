// The deck builder's own declarations, shared by its source files: parser/builder.cpp (card
// dispatch, blocks, counts, entry points), builder_global.cpp (cards allowed anywhere),
// builder_problem.cpp (the problem block into Model::solver), builder_control.cpp (control data
// into Model::control) and builder_entities.cpp (nodes, elements, driven, output).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "parser/build_state.hpp"
#include "parser/builder.hpp"

namespace mbs::parser {

// Problems of the relative-coordinate path (solvers/reduced, core/analysis.hpp): their block
// takes the initial value block's cards (times, tolerance).
inline bool reduced_problem_block(const std::string& b) {
    return analysis_for_problem(b) != nullptr;
}

enum class Block {
    start,
    data,
    after_data,
    problem,
    after_problem,
    control,
    after_control,
    nodes,
    after_nodes,
    drivers,
    after_drivers,
    elements,
    done
};

const char* block_name(Block b);

// Control-data counters (docs/deck-language.md 2.2).
const std::vector<std::string>& counter_names();

// Resource bounds (issue 8): counts and run lengths beyond these are refused as input errors.
constexpr long max_entity_count = 10'000'000;
constexpr double max_time_steps = 1e10;

bool is_node_counter(const std::string& c);

// `$NAME` and `${NAME}` replaced by the environment's values.
std::string expand_env(const std::string& s);

class Builder {
  public:
    explicit Builder(BuildState& st) : st_(st) {}

    void run_file(const std::string& path, const SourceLoc& included_from);
    void run_text(const std::string& name, std::string text);
    void finish(const SourceLoc& eof);

    // A block's cards: the keyword as users write it and its reader (builder_problem.cpp,
    // builder_control.cpp). The unit test parser/test/settings_keywords_test.cpp walks them.
    struct CardReader {
        const char* keyword;
        std::function<void(Builder&, const std::string&, DeckReader&)> read;
    };
    static const std::vector<CardReader>& problem_cards();
    static const std::vector<CardReader>& control_cards();
    // The cards allowed anywhere (builder_global.cpp); they see the file and card they come from.
    struct GlobalCardReader {
        const char* keyword;
        std::function<void(Builder&, DeckReader&, const SourceFile&, const ast::Card&)> read;
    };
    static const std::vector<GlobalCardReader>& global_cards();

  private:
    void run(const SourceFile& file);
    void card(const SourceFile& file, const ast::Card& c);
    bool global_card(const std::string& name, DeckReader& r, const SourceFile& file,
                     const ast::Card& c);
    void set_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void remark_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void include_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void exit_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void chdir_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void setenv_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void print_symbol_table_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void drive_caller_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void template_drive_caller_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void constitutive_law_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void scalar_function_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void module_load_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void loadable_path_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void out_of_scope_card(DeckReader& r, const SourceFile& file, const ast::Card& c);
    void check_exit(const SourceLoc& at);
    void begin_block(DeckReader& r);
    void end_block(DeckReader& r);
    void problem_card(const std::string& name, DeckReader& r);
    void equilibrium_card(const std::string& name, DeckReader& r);
    void time_card(const std::string& name, DeckReader& r);
    void convergence_card(const std::string& name, DeckReader& r);
    void method_card(DeckReader& r);
    void solver_card(const std::string& name, DeckReader& r);
    void derivatives_card(const std::string& name, DeckReader& r);
    void dummy_steps_card(const std::string& name, DeckReader& r);
    void strategy_card(DeckReader& r);
    void check_change_strategy_step();
    void problem_misc_card(const std::string& name, DeckReader& r);
    void eigenanalysis_card(DeckReader& r);  // builder_eigenanalysis.cpp
    void control_card(const std::string& name, DeckReader& r);
    bool counter_card(const std::string& name, DeckReader& r);
    void control_flag_card(const std::string& name, DeckReader& r);
    void use_in_assembly_card(DeckReader& r);
    void assembly_card(const std::string& name, DeckReader& r);
    void default_output_card(DeckReader& r);
    void output_control_card(const std::string& name, DeckReader& r);
    void control_misc_card(const std::string& name, DeckReader& r);
    void node_card(const std::string& name, DeckReader& r);
    void element_card(const std::string& name, DeckReader& r);
    void driver_card(const std::string& name, DeckReader& r, const SourceLoc& at);
    void driven_card(DeckReader& r);
    void output_card(DeckReader& r, bool nodes);
    void reference_card(DeckReader& r);
    void check_counts(DeckReader& r, bool nodes);
    void count(DeckReader& r, const std::string& counter, const SourceLoc& at);
    void claim_label(const std::string& space, long label, const SourceLoc& at,
                     const std::string& what);
    void store_raw(Props& p, const std::string& key, DeckReader& r);
    void ignore_card(DeckReader& r, const SourceLoc& at, const std::string& what,
                     const std::string& why);
    void read_line_search_options(DeckReader& r);

    void check_run_length(const SourceLoc& end_card);

    BuildState& st_;
    Block block_ = Block::start;
    // in the options-only 'begin: equilibrium;' block (docs/relative-coordinates.md 4)
    bool equilibrium_options_ = false;
    std::string cwd_;  // directory relative file names resolve against (changed by chdir)
    std::vector<std::string> loadable_paths_;  // `loadable path:` folders, in order
};

}  // namespace mbs::parser

// Internal state of the deck builder, shared by builder.cpp, reader_impl.cpp and data_forms.cpp.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "core/reader.hpp"
#include "parser/ast.hpp"
#include "parser/builder.hpp"
#include "parser/expr.hpp"

namespace mbs::parser {

struct BuildState {
    BuildOptions options;
    Model model;
    SymbolTable symbols;
    Evaluator evaluator{symbols};
    Diagnostics diag;
    std::vector<std::unique_ptr<SourceFile>> files;  // every file read, kept for locations
    std::vector<std::string> include_stack;          // canonical paths, for cycle detection
    // Files already read, by canonical path, with the size and time they had (Builder::run_file).
    struct CachedFile {
        const SourceFile* file = nullptr;
        std::uintmax_t size = 0;
        long long mtime = 0;  // last write time, in the file clock's ticks
    };
    std::map<std::string, CachedFile> file_cache;
    long files_read = 0;           // include budget: files opened, cached ones included
    std::size_t bytes_parsed = 0;  // include budget: text parsed, repeats included
    std::map<std::string, long> defined_counts;               // per control-data counter
    std::map<std::string, std::map<long, SourceLoc>> labels;  // per label space
    std::map<long, SourceLoc> drive_caller_locs;
    // `default output: drive callers` read (MBDyn's bOutputDriveCaller): the drive caller cards
    // read after it write their value (.drv) unless their `output` says otherwise.
    bool drive_caller_output = false;
    std::map<long, SourceLoc> law_locs;
    std::map<long, std::shared_ptr<const TplDriveSpec>> tpl_drive_callers;
    // Depth and run-time size (drives after expanding every shared reference) of each drive
    // and template drive spec read so far, so that nesting through references stays bounded.
    struct SpecCost {
        int depth = 1;
        double size = 1;
    };
    std::map<const void*, SpecCost> spec_costs;
    bool stop = false;
};

// What one argument is: a keyword-like word, an evaluated value, or nothing.
struct ArgView {
    const ast::Arg* arg = nullptr;
    SourceLoc loc;
    std::string word;   // normalised, non-empty when the argument could be a keyword
    std::string ident;  // the identifier as written, when the argument is a bare name
    bool empty = false;
    const ast::Card* nested = nullptr;  // a card as the argument (`driven`)
};

// The Reader implementation over one card's arguments.
class DeckReader final : public Reader {
  public:
    DeckReader(BuildState& st, const SourceFile& file, const ast::Card& card,
               std::size_t first_arg = 0);

    bool at_end() const override;
    std::size_t remaining() const override { return args_.size() - pos_; }
    SourceLoc loc() const override;
    SourceLoc card_loc() const override;
    [[noreturn]] void error(const std::string& what, const std::string& hint = {}) const override;
    [[noreturn]] void error_at(const SourceLoc& at, const std::string& what,
                               const std::string& hint = {}) const override;
    void warn(const std::string& what) override;
    void warn_at(const SourceLoc& at, const std::string& what) override;

    bool peek(std::string_view keyword) const override;
    bool accept(std::string_view keyword) override;
    void expect(std::string_view keyword) override;
    std::string keyword(std::initializer_list<std::string_view> choices,
                        std::string_view what) override;
    // keyword() over a list built at run time (the builder's tables).
    std::string keyword_of(std::span<const std::string_view> choices, std::string_view what);
    std::string peek_word() const override;
    bool peek_empty() const override;
    void skip() override;

    double real(std::string_view what) override;
    long integer(std::string_view what) override;
    long label(std::string_view what) override;
    bool boolean(std::string_view what) override;
    std::string string(std::string_view what) override;
    double positive(std::string_view what) override;
    double nonnegative(std::string_view what) override;

    Vec3 vec3(std::string_view what) override;
    Vec6 vec6(std::string_view what) override;
    Mat3 mat3(std::string_view what) override;
    Mat6 mat6(std::string_view what) override;
    void unknown_matrix_form(std::string_view what, const std::vector<std::string>& forms);
    VecN entity(int dim, std::string_view what) override;
    VecN deriv_entity(int dim, std::string_view what) override;

    Vec3 position_abs(std::string_view what, const EntityDesc* context = nullptr) override;
    Mat3 orientation_abs(std::string_view what, const EntityDesc* context = nullptr) override;
    Vec3 position_rel(const EntityDesc& node, std::string_view what) override;
    Mat3 orientation_rel(const EntityDesc& node, std::string_view what) override;
    Vec3 velocity_abs(const Vec3& x_resolved, std::string_view what) override;
    Vec3 angular_velocity_abs(std::string_view what) override;
    Vec3 direction_rel(const EntityDesc& node, std::string_view what) override;
    Vec3 direction_abs(const EntityDesc* node, std::string_view what) override;
    Mat3 mat3_rel(const EntityDesc& node, std::string_view what) override;
    Vec3 position_rel_other(const EntityDesc& node2, const EntityDesc& node1, const Vec3& off1,
                            std::string_view what) override;
    Mat3 orientation_rel_other(const EntityDesc& node2, const EntityDesc& node1, const Mat3& R1,
                               std::string_view what) override;

    const EntityDesc& node(std::string_view category, std::string_view what) override;
    const EntityDesc& element(std::string_view category, std::string_view what) override;

    std::shared_ptr<const DriveSpec> drive(std::string_view what) override;
    std::shared_ptr<const TplDriveSpec> tpl_drive(int dim, std::string_view what) override;
    std::shared_ptr<const LawSpec> law(int dim, std::string_view what) override;
    std::shared_ptr<const CompiledExpr> compile(const std::string& text,
                                                const SourceLoc& at) override;

    const Model& model() const override { return st_.model; }

    // Builder-side helpers.
    Value value(std::string_view what);  // evaluates the next argument (any type)
    std::size_t position() const { return pos_; }
    std::size_t size() const { return args_.size(); }
    const ArgView& view(std::size_t k) const { return args_[k]; }
    const SourceFile& file() const { return file_; }
    void skip_to(std::size_t k) { pos_ = k; }
    void finish();  // error if arguments remain
    // The next argument exists and is a value (an expression, or a name of a defined variable),
    // not a keyword.
    bool next_is_value() const;
    bool is_value(std::size_t k) const;

    // The `reference, <frame>,` prefix, if present.
    struct Frame {
        enum Kind {
            none,
            global,
            node,
            local,
            label,
            other_position,
            other_orientation,
            other_node
        } kind = none;
        const ReferenceFrame* ref = nullptr;
        SourceLoc loc;
    };
    Frame frame_prefix(bool allow_other = false);

  private:
    const ArgView& next(std::string_view what);
    // "expected N values ..." unless the next argument looks like a misspelt variable, in which
    // case evaluating it reports "unknown variable" with a did-you-mean hint.
    [[noreturn]] void values_missing(const std::string& message);
    // Reads n numbers of a data form ("Vec3", "diag Mat3x3", ...), with a count error if short.
    VecN reals(int n, std::string_view what, const std::string& form, const char* noun = "values");
    Mat3 orientation_plain(std::string_view what);
    // Drive callers, template drives and laws read inside each other on this card.
    struct Nesting {
        Nesting(DeckReader& r, const SourceLoc& at);
        ~Nesting() { --r_.nesting_; }
        DeckReader& r_;
    };
    // Records the cost of a new spec from its children's; refuses one too deep or too big.
    void account(const void* spec, const std::vector<const void*>& children, const SourceLoc& at);
    // The specs a drive's, law's or scalar function's run-time object is built from: those in
    // its parameters and the scalar functions they name.
    std::vector<const void*> spec_parts(const Props& params) const;

  public:
    // Records the run-time size of a drive or scalar function read outside drive() (the
    // `scalar function:` card); throws at `at` past the limit.
    void account_drive(const DriveSpec& spec, const SourceLoc& at);

  private:
    // `referenced`: the result is a `template drive caller:` card's spec (costed already).
    std::shared_ptr<const TplDriveSpec> read_tpl_drive(int dim, std::string_view what,
                                                       bool& referenced);
    int nesting_ = 0;

    BuildState& st_;
    const SourceFile& file_;
    const ast::Card& card_;
    std::vector<ArgView> args_;
    std::size_t pos_ = 0;
};

AstOrigin origin_of(const SourceFile& f);

}  // namespace mbs::parser

// The interface through which card readers (nodes, elements, drives, laws, plugins) read their
// arguments. The deck builder in parser/ implements it; readers never see the syntax tree.
// Every method reads the *next* argument(s) in order and throws InputError at the argument
// on bad input, so errors point at the offending text.
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

#include "core/model.hpp"

namespace mbs {

class Reader {
  public:
    virtual ~Reader() = default;

    // --- position and diagnostics
    virtual bool at_end() const = 0;            // no argument left before ';'
    virtual std::size_t remaining() const = 0;  // arguments left before ';' (empty ones included)
    virtual SourceLoc loc() const = 0;          // the next argument (or the ';')
    virtual SourceLoc card_loc() const = 0;     // the whole card
    [[noreturn]] virtual void error(const std::string& what,
                                    const std::string& hint = {}) const = 0;
    [[noreturn]] virtual void error_at(const SourceLoc& at, const std::string& what,
                                       const std::string& hint = {}) const = 0;
    virtual void warn(const std::string& what) = 0;
    virtual void warn_at(const SourceLoc& at, const std::string& what) = 0;

    // --- keywords (compared without blanks, case-insensitively)
    virtual bool peek(std::string_view keyword) const = 0;
    virtual bool accept(std::string_view keyword) = 0;
    virtual void expect(std::string_view keyword) = 0;
    // Reads one of `choices`; returns it as written in `choices`. `what` names the field.
    virtual std::string keyword(std::initializer_list<std::string_view> choices,
                                std::string_view what) = 0;
    // The next argument as a normalised word, if it is one (without consuming it).
    virtual std::string peek_word() const = 0;
    // The next argument is empty (",," or ", ;").
    virtual bool peek_empty() const = 0;
    virtual void skip() = 0;

    // --- scalars
    virtual double real(std::string_view what) = 0;
    virtual long integer(std::string_view what) = 0;
    virtual long label(std::string_view what) = 0;    // non-negative integer
    virtual bool boolean(std::string_view what) = 0;  // yes/no/true/false or a number
    virtual std::string string(std::string_view what) = 0;
    virtual double positive(std::string_view what) = 0;     // > 0
    virtual double nonnegative(std::string_view what) = 0;  // >= 0

    // --- data forms, no frame (docs/deck-language.md 3.2)
    virtual Vec3 vec3(std::string_view what) = 0;
    virtual Vec6 vec6(std::string_view what) = 0;
    virtual Mat3 mat3(std::string_view what) = 0;
    virtual Mat6 mat6(std::string_view what) = 0;
    virtual VecN entity(int dim, std::string_view what) = 0;  // scalar, Vec3 or Vec6
    virtual VecN deriv_entity(int dim,
                              std::string_view what) = 0;  // scalar, Mat3 or Mat6 (row-major)

    // --- data forms with an optional `reference, <frame>,` prefix (docs/deck-language.md 3.3).
    // `node` is the structural node the entity is relative to, or the context of absolute data.
    virtual Vec3 position_abs(std::string_view what, const EntityDesc* context = nullptr) = 0;
    virtual Mat3 orientation_abs(std::string_view what, const EntityDesc* context = nullptr) = 0;
    virtual Vec3 position_rel(const EntityDesc& node, std::string_view what) = 0;
    virtual Mat3 orientation_rel(const EntityDesc& node, std::string_view what) = 0;
    virtual Vec3 velocity_abs(const Vec3& x_resolved, std::string_view what) = 0;
    virtual Vec3 angular_velocity_abs(std::string_view what) = 0;
    virtual Vec3 direction_rel(const EntityDesc& node, std::string_view what) = 0;
    virtual Vec3 direction_abs(const EntityDesc* node, std::string_view what) = 0;
    virtual Mat3 mat3_rel(const EntityDesc& node, std::string_view what) = 0;
    // Second node of a two-node joint: also accepts `other position|orientation|node` relative
    // to the first node's (node1, off1, R1) data.
    virtual Vec3 position_rel_other(const EntityDesc& node2, const EntityDesc& node1,
                                    const Vec3& off1, std::string_view what) = 0;
    virtual Mat3 orientation_rel_other(const EntityDesc& node2, const EntityDesc& node1,
                                       const Mat3& R1, std::string_view what) = 0;

    // --- entities defined earlier
    // Reads a node label and returns the node; `category` "structural", "abstract", ... or ""
    // for any scalar-capable node.
    virtual const EntityDesc& node(std::string_view category, std::string_view what) = 0;
    virtual const EntityDesc& element(std::string_view category, std::string_view what) = 0;

    // --- drives and laws
    virtual std::shared_ptr<const DriveSpec> drive(std::string_view what) = 0;
    virtual std::shared_ptr<const TplDriveSpec> tpl_drive(int dim, std::string_view what) = 0;
    virtual std::shared_ptr<const LawSpec> law(int dim, std::string_view what) = 0;
    // Compiles a string expression (a `string` drive): Time, TimeStep, Step, Var stay live.
    virtual std::shared_ptr<const CompiledExpr> compile(const std::string& text,
                                                        const SourceLoc& at) = 0;

    // The model being built (control data, nodes so far).
    virtual const Model& model() const = 0;
};

}  // namespace mbs

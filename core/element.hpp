// The runtime element interface of the absolute-coordinate DAE (docs/formulation.md 2).
//
// Unknowns y and their derivatives y' live in two flat vectors. Newton iterates on y' (for
// algebraic unknowns -- Lagrange multipliers -- the value itself sits in the y' slot), and
// y = (known part) + dCoef * y', so the iteration matrix is  J = dr/dy' + dCoef * dr/dy.
//
// Each element:
//  - may own unknowns (multipliers, internal states): own_dofs(), numbered by the engine;
//  - declares once, after numbering, the dense blocks of J it writes (declare());
//  - adds its terms to the residual r (residual()) and their derivatives to J (jacobian()).
// Sign convention: r collects "applied minus inertial" terms, so a force F on a node is added to
// the node's force rows as +F. Position-level constraints add phi/dCoef to their rows, so that
// their J rows are dphi/dx with no dCoef (well scaled; docs/formulation.md 3).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/drive.hpp"
#include "core/model.hpp"
#include "core/registry.hpp"
#include "core/sparse_matrix.hpp"

namespace mbs {

enum class DofOrder : std::uint8_t { algebraic, differential };

// What the engine is solving for when it calls an element.
enum class Phase : std::uint8_t {
    dynamic,   // a time step (or the derivatives phase, with dCoef = derivatives coefficient)
    assembly,  // initial position assembly: unknowns are positions and multipliers, dCoef = 1
};

struct StepContext {
    double time = 0.0;
    double dt = 0.0;
    double dCoef = 1.0;
    Phase phase = Phase::dynamic;
};

// Read-only view of the unknowns.
struct StateView {
    const double* y = nullptr;
    const double* yp = nullptr;
};

// A dense block of the iteration matrix, declared once. Column-major slot table.
using BlockId = int;

// Collects the blocks elements will write; after all declarations the engine builds the CSC
// pattern and the slot tables (set-up time only).
class PatternBuilder {
  public:
    explicit PatternBuilder(int n) : n_(n) {}
    // Rows [r0, r0 + nr) x cols [c0, c0 + nc). `mask` (optional) gives the structure of the
    // block by 3 x 3 sub-blocks, one row of sub-blocks per '|'-separated group, one character
    // per sub-block: '.' zero, 'I' diagonal, 'F' full; e.g. "..I.|F.FI" for a 6 x 12 block.
    // Masked-out entries stay out of the pattern (less fill in the factorization); what the
    // element writes there is ignored, so the finite-difference tests check masks too.
    // Sub-blocks beyond a smaller block (a 3-column displacement node) are ignored.
    BlockId block(int r0, int nr, int c0, int nc, const char* mask = nullptr);
    int size() const { return n_; }

    struct Block {
        int r0, nr, c0, nc;
        int slot0;               // first entry in the slot table
        std::vector<bool> keep;  // per entry (column-major); empty = all
    };
    const std::vector<Block>& blocks() const { return blocks_; }

  private:
    int n_;
    std::vector<Block> blocks_;
    int slots_ = 0;
};

// The iteration matrix with its fixed pattern; elements add dense blocks through block ids.
class Jacobian {
  public:
    Jacobian(const PatternBuilder& p);
    CscMatrix& matrix() { return m_; }
    const CscMatrix& matrix() const { return m_; }
    void set_zero() { m_.set_zero(); }

    // Adds the top-left nr x nc part of `a` to block `b` (a may be larger, e.g. 6 node columns
    // written into a 3-column block of a displacement-only node).
    // Only the entries the block's mask keeps are visited (precomputed list, column-major).
    template <class M>
    void add(BlockId b, const Eigen::MatrixBase<M>& a) {
        double* v = m_.values();
        const Entry* e = entries_.data() + entry_begin_[b];
        const Entry* end = entries_.data() + entry_begin_[b + 1];
        for (; e != end; ++e) v[e->slot] += a(e->i, e->j);
    }
    // Adds `v` * identity to a square block (diagonal only).
    void add_diag(BlockId b, double v);
    // Adds v to the diagonal entry (i, i) (always in the pattern).
    void add_to_diagonal(int i, double v) { m_.values()[diag_slots_[i]] += v; }

  private:
    // A kept entry of a block: its place (i, j) in the block and its value slot.
    struct Entry {
        int slot;
        std::uint16_t i, j;
    };
    std::vector<PatternBuilder::Block> blocks_;
    std::vector<int> slots_;
    std::vector<Entry> entries_;
    std::vector<int> entry_begin_;  // block b's entries: [entry_begin_[b], entry_begin_[b + 1])
    CscMatrix m_;
    std::vector<int> diag_slots_;
};

// One quantity an element writes to NetCDF and HDF5 (output/results.hpp gathers them): MBDyn's
// NetCDF variable <nc_prefix>.<label>.<name>, HDF5 dataset <group>/<name>.
struct OutputQuantity {
    std::string name;         // "F", "Arm1", "F_I", ...
    int ncomp = 3;            // components (3, 9 for a rotation matrix, any for a module's values)
    const char* units = "";   // "N", "m", "-", ...
    const char* frame = "";   // "global", "local", ""
    std::string description;  // MBDyn-style text
    // First column in output_values(); -1: the element has no such values (no NetCDF variable,
    // NaN in HDF5), e.g. a beam whose `custom output` leaves it out. With `point` >= 0, any
    // column >= 0 says the quantity is there.
    int column = -1;
    // The evaluation point (output_points()) whose position (ncomp 3) or orientation (ncomp 9)
    // this is; -1: the values are output_values() columns.
    int point = -1;
    // A rotation matrix (9, row-major) written as the schema's `orientation` description asks:
    // R, Phi or E followed by the rest of `name` (R_I -> Phi_I), described as `where` + "global
    // orientation ..." (MBDyn's CreateRotationVar).
    bool orientation = false;
    std::string where;
};

// Where an element's NetCDF/HDF5 output goes and what it holds, declared by the element next to
// its output_values(). Elements declaring the same group share it: each declares the group's
// quantities in the same order (those it lacks with column -1); the group's width of a quantity
// is the widest element's (the others padded with NaN).
struct OutputSchema {
    const char* group = nullptr;      // HDF5 group: "joints", "forces", "beam3", ...
    const char* nc_prefix = nullptr;  // NetCDF variable prefix: "elem.joint", ...
    // The files hold the element groups by increasing order (then first appearance), after the
    // nodes' groups: joints 30, forces 40, internal_forces 50, couples 60, internal_couples
    // 70, total_forces 80, beam3 90, beam2 100, user_defined 110.
    int order = 0;
    // Where the values come from: output_values() columns, or reaction() (f, m, F, M: the
    // quantities are then those four, in that order).
    enum class Source : std::uint8_t { values, reaction };
    Source source = Source::values;
    std::vector<OutputQuantity> quantities;
    std::string orientation;  // how `orientation` quantities are written ("euler123", ...)
    // The `type` attribute of the element's NetCDF variable <nc_prefix>.<label> (MBDyn's name of
    // the kind, e.g. "revolute hinge", "total", "elastic"); empty: output/results.cpp's from the
    // deck's type.
    std::string nc_type;
};

class Element {
  public:
    explicit Element(const EntityDesc& d) : desc_(&d) {}
    virtual ~Element() = default;
    const EntityDesc& desc() const { return *desc_; }
    long label() const { return desc_->label; }

    // --- own unknowns
    virtual int own_dofs() const { return 0; }
    virtual DofOrder own_dof_order(int /*i*/) const { return DofOrder::algebraic; }
    // Short name of own equation i for diagnostics ("constraint x", ...).
    virtual std::string own_dof_name(int i) const { return "equation " + std::to_string(i + 1); }
    void set_first_dof(int i) { first_dof_ = i; }
    int first_dof() const { return first_dof_; }

    // Initial values of the own unknowns (after numbering; y and y' are zero before).
    virtual void initialize(double* /*y*/, double* /*yp*/) const {}

    // --- which phases the element takes part in
    virtual bool in_assembly() const { return false; }

    // --- sparsity, residual, Jacobian
    virtual void declare(PatternBuilder& p) = 0;
    virtual void residual(const StepContext& c, const StateView& s, double* r) const = 0;
    virtual void jacobian(const StepContext& c, const StateView& s, Jacobian& J) const = 0;

    // Velocity part of the initial assembly: adds to r the explicit time derivative, at fixed
    // unknowns, of the Phase::assembly residual of the element's own rows (its constraints;
    // imposed motions: the drives' derivatives, MBDyn's dGetP). False: not given (the solver
    // takes a forward difference in time instead, as it does for every element without it).
    virtual bool constraint_rate(const StepContext& /*c*/, const StateView& /*s*/,
                                 double* /*r*/) const {
        return false;
    }

    // Called after each converged step (update of internal state, reactions for output).
    virtual void after_step(const StepContext& /*c*/, const StateView& /*s*/) {}

    // --- output: the text file the element writes to ("jnt", "frc", ...; nullptr: none) and
    // the values after the label on its line (at most max_output_values).
    static constexpr int max_output_values = 64;
    virtual const char* output_file() const { return nullptr; }
    virtual int output_values(double* /*v*/) const { return 0; }
    // The element's line in the .log (model description), without the newline; empty: the
    // default "<category>: <label>[ <type>]".
    virtual std::string log_line() const { return {}; }
    // NetCDF/HDF5 output (output/results.hpp), asked once at set-up for the elements with
    // output: fills the schema and returns true, or false to write nothing there.
    virtual bool output_schema(OutputSchema& /*s*/) const { return false; }
    // The evaluation points of OutputQuantity::point (beams): global position x[s] and frame
    // R[s] of each point at the last converged step; returns their number (<= max_output_points).
    static constexpr int max_output_points = 2;
    virtual int output_points(Vec3* /*x*/, Mat3* /*R*/) const { return 0; }
    // Reaction of a joint, for drives and the NetCDF/HDF5 writers: force and moment in the
    // joint frame (f, m) and in the global frame (F, M). False if the element has none.
    virtual bool reaction(Vec3& /*f*/, Vec3& /*m*/, Vec3& /*F*/, Vec3& /*M*/) const {
        return false;
    }

    // --- private data (docs/deck-language.md 5): named scalars read by the `element` drive caller.
    // Names are resolved to indices once at set-up (private_data_index); private_data() then
    // runs inside the Newton loop at the current iterate (node kinematics updated, own
    // multipliers in s.yp), so it must not allocate. Indices are 0-based here, 1-based in decks.
    virtual int private_data_count() const { return 0; }
    virtual const char* private_data_name(int /*i*/) const { return ""; }
    virtual double private_data(int /*i*/, const StateView& /*s*/) const { return 0.0; }
    // Index of the datum `name`, or -1 (set-up time only).
    int private_data_index(const std::string& name) const {
        for (int i = 0; i < private_data_count(); ++i)
            if (name == private_data_name(i)) return i;
        return -1;
    }

  private:
    const EntityDesc* desc_;
    int first_dof_ = -1;
};

// Everything an element factory may need: the model, the structural nodes of the run, drives.
class BuildContext {
  public:
    virtual ~BuildContext() = default;
    virtual const Model& model() const = 0;
    virtual class StructNode& struct_node(const EntityRef& ref, const EntityDesc& user) = 0;
    virtual const DriveEnv& drive_env() const = 0;
    // The gravity acceleration at the current time (always valid; zero without gravity).
    virtual const Vec3* gravity() const = 0;
    // Installs the gravity field (called by the gravity element).
    virtual void set_gravity(const TplDrive<3>& g) = 0;
    // Removes the run-time element of `ref` built so far and hands it over (a `driven` element
    // wraps it); nullptr if there is none.
    virtual std::unique_ptr<Element> take_element(const EntityRef& /*ref*/) { return nullptr; }
    // Throws InputError at the element's card.
    [[noreturn]] virtual void error(const EntityDesc& e, const std::string& what,
                                    const std::string& hint = {}) const = 0;
};

// The factories that build these from the model are registered with their kinds
// (core/registry.hpp: ElementKind::make, MBS_REGISTER_ELEMENT_KIND).

}  // namespace mbs

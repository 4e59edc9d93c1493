// What the NetCDF and HDF5 sinks write: the entities with output, grouped by kind, each group
// with its quantities, gathered once from the engine (begin()) and sampled at every output step
// into preallocated buffers of `capacity` rows that the sinks write in blocks (flush).
//
// Groups and quantities (all SI, global frame unless said otherwise; MBDyn's meaning):
//   nodes           X [m], R (row-major 3x3, x_global = R x_node), XP [m/s], Omega [rad/s]
//   node_accelerations  XPP [m/s^2], OmegaP [rad/s^2] of the nodes with `accelerations, yes`
//                   (or `default output: accelerations`); NetCDF node.struct.<L>.XPP, .OmegaP
//   node_momenta    B [kg m/s], G [kg m^2/s] (momentum, and its moment about the node), BP, GP
//                   (their time derivatives; G = GP = 0 for a displacement-only node) of the
//                   dynamic nodes with `output inertia, yes`
//                   (MBDyn's .ine values); NetCDF node.struct.<L>.B, .G, .BP, .GP
// The element groups are declared by the elements (Element::output_schema(), core/element.hpp,
// next to each one's output_values()); today:
//   joints          f [N], m [Nm] (joint frame), F [N], M [Nm] (global): Element::reaction()
//                   (el::reaction_schema, elements/misc/element_util.hpp); then the joint's own
//                   quantities, columns of its .jnt line, as MBDyn's joints (E, Omega of the
//                   hinges, X, Phi, V, Omega of total joints, l, lP, v of rods, d, dPrime of
//                   deformable joints): the union over the group's joints, each one's columns
//                   (-1: not this joint's; NaN in HDF5, no NetCDF variable)
//   forces          F [N], Arm [m] (application point, global), from the .frc columns
//   internal_forces F1, Arm1 (on node 1), F2, Arm2 (on node 2)
//   couples         M [Nm];  internal_couples: M1, M2
//   total_forces    f [N], m [Nm]: the drive values in the force and moment frames
//                   (StructuralLoad, elements/forces/structural_force_element.cpp)
//   beam3, beam2    F_I, M_I [, F_II, M_II]: the .act columns (section frame), and nu_I, k_I,
//                   nuP_I, kP_I [, ..._II] of the beams whose `custom output` selects them;
//                   X_I [m], R_I (row-major 3x3 section frame) [, ..._II] (global; not in .act)
//                   of the beams whose `custom output` has `position`, `orientation`
//                   (Beam, elements/beams/beam_element.cpp)
//   user_defined    output: the values of a module element's .usr line (PluginElement)
//   abstract_nodes  X, XP (.abs; no XP for algebraic nodes), parameter_nodes X (.prm): the
//                   scalar nodes' runtimes (elements/nodes/scalar_nodes.cpp); genels F (.gen:
//                   clamp and distance, elements/genels/genel_elements.cpp); drive_callers
//                   value, derivative (.drv, elements/drives/drive_output.cpp);
//                   abstract_forces F, F2 (.frc, genel_elements.cpp)
// After them, one group per value block of the view (core/value_block.hpp: the relative-coordinate
// path's actuators, loop_multipliers, equilibrium_* groups), its quantities as it declares them.
// No NetCDF or HDF5 type appears here: the sinks map these buffers to their files.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/step_view.hpp"

namespace mbs::output {

struct Quantity {
    std::string name;         // "X", "R", "F1", ...
    int ncomp = 3;            // 3, 9 for R; any count for module elements' output
    const char* units = "";   // "m", "N", "-" ...
    const char* frame = "";   // "global", "local"
    std::string description;  // MBDyn-style text
    int column = -1;          // first column in Element::output_values (element groups)
    // Per entity instead of `column` when not empty (-1: the entity has no such values; NaN in
    // HDF5, no variable in NetCDF), e.g. the beams' custom output strains.
    std::vector<int> columns;
    // Per entity instead of `description` when not empty: the entities declare different ones
    // (joints' E in different Euler sequences). NetCDF describes each variable with its own;
    // HDF5's one dataset lists the distinct ones.
    std::vector<std::string> descriptions;
    // Per entity when not empty: the components it has (ncomp at most; HDF5 pads with NaN,
    // NetCDF's variable has this width), e.g. a value block's cut multipliers.
    std::vector<int> widths;
    // Element groups: the evaluation point (Element::output_points()) whose position (ncomp 3) or
    // orientation (ncomp 9) this is; -1: the values are output_values columns.
    int point = -1;
    // A rotation matrix (9, row-major): NetCDF writes it as the entity's Group::orientation asks,
    // named R, Phi or E followed by the rest of `name` (R_I -> Phi_I) and described as
    // `where` + "global orientation ..." (MBDyn's CreateRotationVar).
    bool orientation = false;
    std::string where;
    double* buf = nullptr;  // [row][entity][component], capacity rows (in Results' pages)
};

struct Group {
    enum class Kind { nodes, joints, element_values, node_accelerations, node_momenta, values };
    Kind kind = Kind::nodes;
    std::string name;       // HDF5 group: "nodes", "joints", "forces", ...
    std::string nc_prefix;  // NetCDF variable prefix: "node.struct", "elem.joint", ...
    std::vector<long> labels;
    std::vector<std::string> names;  // the entity's `name` or "<category> <label>"
    std::vector<std::string> types;  // "dynamic", "revolute hinge", "absolute internal", ...
    // The `type` attribute of NetCDF's <nc_prefix>.<label> variable: MBDyn's name of the kind
    // ("static", "dynamic", "revolute hinge", "inline", "total", "elastic", ...).
    std::vector<std::string> nc_types;
    // Orientation description from the card or the default; joints: of their relative rotation
    // (el::joint_orientation), "" for a joint without one.
    std::vector<std::string> orientation;
    std::vector<int> source;  // index in StepView::nodes or ::elements, or the block's row
    // Value blocks (Kind::values, core/value_block.hpp): the block (index in StepView::blocks),
    // its entity dimension and each entity's joint label.
    int block = -1;
    std::string dimension;
    std::vector<long> joints;
    std::vector<Quantity> quantities;
    int size() const { return static_cast<int>(labels.size()); }
};

// Whether node n's momenta are written: a dynamic node with output (a displacement-only node
// has G = GP = 0, as MBDyn writes them), and
// - in .ine (text) unless it has `output inertia, no` (MBDyn's rule: the default is yes);
// - in NetCDF/HDF5 (text = false) only with `output inertia, yes`. MBDyn writes them by default
//   there too, but they are four variables more per node: on the 200-link chain NetCDF's cost
//   went from 7.7% to 11.3% of the run's wall time (benchmarks/output_bench.py), for values few
//   post-processing scripts read.
bool node_momenta_output(const StructNode& n, bool text);

// Options shared by the NetCDF and HDF5 sinks.
struct SinkOptions {
    int flush_every = 1000;      // output steps per block written (>= 1; blocks are capped in MB)
    double flush_seconds = 5.0;  // and at most this much wall time between writes
    bool sync = false;           // write and flush to disk at every output step
    std::string deck;            // deck path, for the file's attributes
    std::string version;         // mbsolve version
    RunSettings settings;        // for the HDF5 attributes
    // The process exits right after the run (mbsolve's single run; see netcdf_output.hpp): the
    // NetCDF file is then flushed and left open at the end instead of closed.
    bool exit_after_run = false;
};

class Results {
  public:
    // Gathers the groups (entities with output enabled) and allocates `capacity` rows, fewer if
    // they would take more than max_bytes. With allocate = false only the groups are set up:
    // allocate() then makes the rows.
    void init(const Model& m, const StepView& view, int capacity, std::size_t max_bytes,
              bool allocate = true);
    // Maps the rows' pages (zero; none touched yet, so no page fault is taken here).
    void allocate();
    // The rows' pages, to be made resident by prefault() on another thread than record()'s.
    struct Pages {
        void* data = nullptr;
        std::size_t bytes = 0;
    };
    Pages pages() const { return {pages_.get(), bytes_}; }
    // Makes `p` resident and writable (their page faults taken by the caller's thread): the
    // block's rows are then recorded without page faults. Leaves the contents alone (it may run
    // while record() writes the same pages); does nothing where the kernel cannot (before 5.14).
    static void prefault(Pages p);
    // Unmaps the rows (after the last record(): the groups stay, without rows).
    void release();
    // Appends one row (the engine's current state); no allocation. Requires !full().
    void record(const StepView& view, const StepInfo& s);
    int rows() const { return rows_; }
    bool full() const { return rows_ >= capacity_; }
    int capacity() const { return capacity_; }
    // Rows of a part: blocks are handed off whole or by parts, and the files' chunks are a part.
    int part() const { return part_; }
    // Output steps recorded before the rows in the buffers (the file index of row 0).
    long first_row() const { return first_row_; }
    // Whether the buffered rows are to be written now: buffer full, `sync`, or flush_seconds
    // of wall time since the last write.
    bool flush_due(const SinkOptions& o) const;
    // Empties this block and makes it continue the rows of `prev` (blocks swapped by BlockSink).
    void continue_after(const Results& prev);

    const std::vector<Group>& groups() const { return groups_; }
    // Per row: time [s], step number, step size [s], Newton iterations.
    const std::vector<double>& time() const { return time_; }
    const std::vector<long>& step() const { return step_; }
    const std::vector<double>& timestep() const { return dt_; }
    const std::vector<int>& iterations() const { return iter_; }

  private:
    void add_element_groups(const StepView& view, const std::string& default_orientation);
    void add_value_groups(const StepView& view);
    struct Unmap {
        std::size_t bytes;
        void operator()(void* p) const;
    };
    std::unique_ptr<void, Unmap> pages_{nullptr, Unmap{0}};  // the quantities' rows
    std::size_t bytes_ = 0;
    std::vector<Group> groups_;
    std::vector<double> time_, dt_;
    std::vector<long> step_;
    std::vector<int> iter_;
    int capacity_ = 0, rows_ = 0, part_ = 1;
    long first_row_ = 0;
    std::chrono::steady_clock::time_point last_flush_;
};

// Rotation matrix -> the orientation a node's description asks for (MBDyn's NetCDF names):
// "R" (9, row-major), "Phi" (rotation vector, rad) or "E" (Euler angles, degrees, as .mov).
// Returns the variable name and writes its components to out (3 or 9).
const char* orientation_values(const std::string& description, const double* R_rowmajor,
                               double* out);

}  // namespace mbs::output

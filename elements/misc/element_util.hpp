// Helpers shared by runtime elements: joint ends (a node, or the ground, with an offset and a
// frame), block declarations for node-to-node and node-to-multiplier couplings, and small
// fixed-size math.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "core/element.hpp"
#include "core/struct_node.hpp"

namespace mbs::el {

using Mat63 = Eigen::Matrix<double, 6, 3>;
using Mat66 = Eigen::Matrix<double, 6, 6>;

// Whether control data's `use: ..., <kind>, ... in assembly;` lists `kind` ("rigid bodies",
// "forces", ...): such elements add their loads to the initial assembly.
inline bool used_in_assembly(const BuildContext& ctx, std::string_view kind) {
    return ctx.model().control.uses_in_assembly(kind);
}

// One side of a joint: a structural node with an offset f and a frame Rh (node frame), or the
// ground with an absolute point f and orientation Rh. The accessors run in every residual and
// Jacobian evaluation: always inlined (GCC otherwise sometimes keeps an out-of-line copy of
// frame() and calls it from the hinges' residuals: 2% more instructions on chain_200).
struct End {
    StructNode* node = nullptr;
    Vec3 f = Vec3::Zero();
    Mat3 Rh = Mat3::Identity();

    bool ground() const { return node == nullptr; }
    // The global offset R f.
    [[gnu::always_inline]] Vec3 arm() const {
        return node ? Vec3(node->R * f) : Vec3(Vec3::Zero());
    }
    [[gnu::always_inline]] Vec3 point() const { return node ? Vec3(node->x + node->R * f) : f; }
    [[gnu::always_inline]] Mat3 frame() const { return node ? Mat3(node->R * Rh) : Rh; }
    [[gnu::always_inline]] Vec3 velocity() const {
        return node ? Vec3(node->xdot + node->w.cross(node->R * f)) : Vec3(Vec3::Zero());
    }
    [[gnu::always_inline]] Vec3 omega() const { return node ? node->w : Vec3(Vec3::Zero()); }
    int rows() const { return node ? node->pos_cols() : 0; }
};

// Blocks of a joint with two ends and m own multipliers:
//   nn[k][j]: rows of end k's node x cols of end j's node
//   nl[k]:    rows of end k's node x own cols
//   ln[k]:    own rows x cols of end k's node
//   ll:       own rows x own cols (only if requested)
struct JointBlocks {
    BlockId nn[2][2] = {{-1, -1}, {-1, -1}};
    BlockId nl[2] = {-1, -1};
    BlockId ln[2] = {-1, -1};
    BlockId ll = -1;

    // Optional masks (PatternBuilder::block) for the nn, nl and ln blocks; nullptr = full.
    const char* nn_mask = nullptr;
    const char* nl_mask = nullptr;
    const char* ln_mask = nullptr;

    void declare(PatternBuilder& p, const End* ends, int nends, int first, int m,
                 bool own_own = false) {
        for (int k = 0; k < nends; ++k) {
            const StructNode* a = ends[k].node;
            if (!a) continue;
            for (int j = 0; j < nends; ++j) {
                const StructNode* b = ends[j].node;
                if (b)
                    nn[k][j] = p.block(a->first_dof(), a->pos_cols(), b->first_dof(), b->pos_cols(),
                                       nn_mask);
            }
            if (m > 0) {
                nl[k] = p.block(a->first_dof(), a->pos_cols(), first, m, nl_mask);
                ln[k] = p.block(first, m, a->first_dof(), a->pos_cols(), ln_mask);
            }
        }
        if (own_own && m > 0) ll = p.block(first, m, first, m);
    }
};

// Constraint rows hold phi/dCoef (dynamic) or phi (assembly): their node columns are
// [dphi/dx, dphi/dtheta G] with no dCoef either way.
template <int Rows>
Eigen::Matrix<double, Rows, 6> constraint_cols(const StructNode& n,
                                               const Eigen::Matrix<double, Rows, 3>& Dx,
                                               const Eigen::Matrix<double, Rows, 3>& Dth) {
    Eigen::Matrix<double, Rows, 6> out;
    out.template leftCols<3>() = Dx;
    out.template rightCols<3>() = Dth * n.G;
    return out;
}

// n.chain(), except in the initial assembly, where the node's angular velocity w = G(g) g' also
// moves with g at the given g' (dw = Gd dg): an element whose force depends on w (a viscous law
// of a rod or deformable joint) sees it there. (StructNode::chain's assembly branch leaves the
// Dw Gd term out for every element; adding it there is the general fix.)
template <int R>
Eigen::Matrix<double, R, 6> node_chain(const StructNode& n, const Eigen::Matrix<double, R, 3>& Dx,
                                       const Eigen::Matrix<double, R, 3>& Dth,
                                       const Eigen::Matrix<double, R, 3>& Dxd,
                                       const Eigen::Matrix<double, R, 3>& Dw,
                                       const StepContext& c) {
    if (c.phase != Phase::assembly) return n.chain<R>(Dx, Dth, Dxd, Dw, c);
    Eigen::Matrix<double, R, 6> out;
    out.template leftCols<3>() = Dx;
    out.template rightCols<3>() = Dth * n.G + Dw * n.Gd;
    return out;
}

// Adds a 6-vector (force, moment) to a node's rows (moment rows skipped for displacement nodes).
inline void add_wrench(double* r, const StructNode& n, const Vec3& F, const Vec3& M) {
    double* p = r + n.first_dof();
    for (int i = 0; i < 3; ++i) p[i] += F[i];
    if (n.has_rotation())
        for (int i = 0; i < 3; ++i) p[3 + i] += M[i];
}

// The first 12 columns of a .jnt line: reaction force and moment in the joint frame, then in the
// global frame (Element::reaction). Returns 12, the number of values written.
inline int put_reaction(const Element& e, double* v) {
    Vec3 f, m, F, M;
    e.reaction(f, m, F, M);
    for (int i = 0; i < 3; ++i) v[i] = f[i], v[3 + i] = m[i], v[6 + i] = F[i], v[9 + i] = M[i];
    return 12;
}

// A joint's NetCDF/HDF5 schema: its reaction() (put_reaction's four vectors) in the "joints"
// group (elem.joint.<L>.f, m, F, M); false, no output there, if it has none.
inline bool reaction_schema(const Element& e, OutputSchema& s) {
    Vec3 f, m, F, M;
    if (!e.reaction(f, m, F, M)) return false;
    s.group = "joints";
    s.nc_prefix = "elem.joint";
    s.order = 30;
    s.source = OutputSchema::Source::reaction;
    s.quantities = {{"f", 3, "N", "local", "local reaction force (Fx, Fy, Fz)"},
                    {"m", 3, "Nm", "local", "local reaction moment (Mx, My, Mz)"},
                    {"F", 3, "N", "global", "global reaction force (FX, FY, FZ)"},
                    {"M", 3, "Nm", "global", "global reaction moment (MX, MY, MZ)"}};
    return true;
}

// A joint's own quantity after the reaction (MBDyn's joint OutputPrepare: elem.joint.<L>.E,
// .Omega, ...): `ncomp` output_values() columns from `column`.
inline void joint_quantity(OutputSchema& s, const char* name, int ncomp, const char* units,
                           const char* frame, const char* description, int column) {
    OutputQuantity q;
    q.name = name;
    q.ncomp = ncomp;
    q.units = units;
    q.frame = frame;
    q.description = description;
    q.column = column;
    s.quantities.push_back(std::move(q));
}
// The relative orientation (E, Phi or R): el::joint_orientation,
// elements/joints/joint_orientation.hpp.
inline void joint_omega(OutputSchema& s, int column) {
    joint_quantity(s, "Omega", 3, "radian/s", "local", "local relative angular velocity (x, y, z)",
                   column);
}

}  // namespace mbs::el

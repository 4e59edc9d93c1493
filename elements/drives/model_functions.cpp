// String drives calling `model::` functions (MBDyn's model namespace, mbdyn/base/modelns.cc):
// the quantities of structural nodes at the current Newton iterate, global frame:
//   position(L)       X                        distance(L1, L2)   X2 - X1
//   velocity(L)       V                        vrel(L1, L2)       V2 - V1
//   angvel(L)         W                        angvrel(L1, L2)    W2 - W1
//   angle(L)          rotation vector of R     anglerel(L1, L2)   rotation vector of R1^T R2
//   [x|y|z]unitvec(L1, L2)  (X2 - X1) / |X2 - X1| (NaN when the nodes coincide: MBDyn stops)
// with an x/y/z prefix for a component, none for the norm and a `2` suffix for the squared norm
// (not for angle, anglerel, unitvec). Rotation vectors have their angle in [0, pi].
//
// The labels are resolved once, when the drive is built; each evaluation reads the nodes'
// kinematics (updated by the engine before every residual) into a fixed array, with no lookup.
// As the other drives reading model data (model_data_drives.cpp, MBDyn's string drive), the
// drive is not differentiable: deriv() is 0, so the Jacobian of an element using it does not
// see its dependence on the state.
//
// Also here, the drive caller of MBDyn's module-nodedistdrive (docs/deck-language.md 7):
//   node distance, node1, L1 [, offset, o1], node2, L2 [, offset, o2], direction, e
// NodeDistanceArgs: node1 "node 1", o1 "offset 1" (node 1 frame), node2 "node 2", o2 "offset 2"
// and e "direction" (node 2 frame, normalised). Value: the distance between the offset points
// along e, in node 2's frame, e . (R2^T (X2 - X1 - R1 o1) + o2); derivative its rate
// e . R2^T (V2 - V1 - W1 x R1 o1 - W2 x (X2 - X1 - R1 o1)) (MBDyn's dGetP).
#include "elements/drives/model_functions.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/compiled_expr.hpp"
#include "core/registry.hpp"
#include "core/rotations.hpp"
#include "core/struct_node.hpp"
#include "elements/drives/drive_util.hpp"
#include "elements/drives/runtime_util.hpp"

namespace mbs::drives {
namespace {

using Ref = CompiledExpr::ModelRef;

struct Resolved {
    Ref::Quantity quantity;
    Ref::Part part;
    const StructNode* n1;
    const StructNode* n2;  // two-node quantities only
};

double part_of(const Vec3& v, Ref::Part p) {
    switch (p) {
        case Ref::Part::x:
            return v[0];
        case Ref::Part::y:
            return v[1];
        case Ref::Part::z:
            return v[2];
        case Ref::Part::norm:
            return v.norm();
        case Ref::Part::square:
            return v.squaredNorm();
    }
    return 0.0;
}

double read(const Resolved& r) {
    using Q = Ref::Quantity;
    const StructNode& a = *r.n1;
    switch (r.quantity) {
        case Q::position:
            return part_of(a.x, r.part);
        case Q::distance:
            return part_of(r.n2->x - a.x, r.part);
        case Q::unitvec: {
            const Vec3 d = r.n2->x - a.x;
            const double l = d.norm();
            if (l <= std::numeric_limits<double>::epsilon())
                return std::numeric_limits<double>::quiet_NaN();
            return part_of(d / l, r.part);
        }
        case Q::angle:
            return part_of(matrix_to_rotation_vector(a.R), r.part);
        case Q::anglerel:
            return part_of(matrix_to_rotation_vector(a.R.transpose() * r.n2->R), r.part);
        case Q::velocity:
            return part_of(a.xdot, r.part);
        case Q::vrel:
            return part_of(r.n2->xdot - a.xdot, r.part);
        case Q::angvel:
            return part_of(a.w, r.part);
        case Q::angvrel:
            return part_of(r.n2->w - a.w, r.part);
    }
    return 0.0;
}

// Time, TimeStep, Step and Var as the plain string drive (composite_drives.cpp), plus the
// model:: values.
class ModelStringDrive final : public Drive {
  public:
    ModelStringDrive(std::shared_ptr<const CompiledExpr> e, std::vector<Resolved> refs,
                     const SimClock& c, bool time_input)
        : expr_(std::move(e)), refs_(std::move(refs)), clock_(&c), time_input_(time_input) {}
    double value(double x) const override {
        std::array<double, CompiledExpr::max_model_refs> v;
        for (std::size_t i = 0; i < refs_.size(); ++i) v[i] = read(refs_[i]);
        CompiledExpr::Inputs in;
        in.time = time_input_ ? x : std::isnan(rt::eval_time) ? clock_->time : rt::eval_time;
        in.timestep = clock_->timestep;
        in.step = static_cast<double>(clock_->step);
        in.var = x;
        in.model = v.data();
        return expr_->eval(in);
    }
    double deriv(double) const override { return 0.0; }
    bool differentiable() const override { return false; }

  private:
    std::shared_ptr<const CompiledExpr> expr_;
    std::vector<Resolved> refs_;
    const SimClock* clock_;
    bool time_input_;
};

const StructNode& find_node(const std::vector<StructNode>& nodes, long label, const Ref& ref) {
    for (const StructNode& n : nodes)
        if (n.label() == label) return n;
    throw InputError(ref.loc, "structural node " + std::to_string(label) + " is not defined",
                     "model:: functions read structural nodes of the run");
}

// --- node distance ----------------------------------------------------------------------------

struct NodeDistanceArgs final : KindArgs {
    EntityRef node1, node2;
    Vec3 o1 = Vec3::Zero(), o2 = Vec3::Zero(), e = Vec3::UnitX();
    void describe(Props& out) const override {
        out.set("node 1", node1);
        out.set("offset 1", VecN(o1.data(), o1.data() + 3));
        out.set("node 2", node2);
        out.set("offset 2", VecN(o2.data(), o2.data() + 3));
        out.set("direction", VecN(e.data(), e.data() + 3));
    }
};

void expect_keyword(Reader& r, const char* k) {
    if (!r.accept(k))
        r.error(std::string("expected '") + k + "'",
                "node distance, node1, L1 [, offset, o1], node2, L2 [, offset, o2], direction, e");
}

void read_node_distance(Reader& r, DriveSpec& d) {
    auto& a = emplace_args<NodeDistanceArgs>(d);
    expect_keyword(r, "node1");
    const EntityDesc& n1 = r.node("structural", "node 1 label");
    a.node1 = EntityRef{n1.category, n1.label};
    if (r.accept("offset")) a.o1 = r.position_rel(n1, "offset 1");
    expect_keyword(r, "node2");
    const EntityDesc& n2 = r.node("structural", "node 2 label");
    a.node2 = EntityRef{n2.category, n2.label};
    if (r.accept("offset")) a.o2 = r.position_rel(n2, "offset 2");
    expect_keyword(r, "direction");
    SourceLoc at = r.loc();
    const Vec3 e = r.direction_rel(n2, "direction");
    if (!(e.norm() > 0.0)) r.error_at(at, "the direction must not be zero");
    a.e = e.normalized();
}

class NodeDistance final : public Drive {
  public:
    NodeDistance(const StructNode& n1, const StructNode& n2, const NodeDistanceArgs& a,
                 bool time_input)
        : n1_(&n1), n2_(&n2), o1_(a.o1), o2_(a.o2), e_(a.e), time_input_(time_input) {}
    double value(double) const override {
        return e_.dot(n2_->R.transpose() * (n2_->x - n1_->x - n1_->R * o1_) + o2_);
    }
    double deriv(double) const override { return time_input_ ? rate() : 0.0; }
    double deriv_time(double) const override { return time_input_ ? 0.0 : rate(); }

  private:
    double rate() const {
        const Vec3 r1 = n1_->R * o1_;
        const Vec3 d = n2_->x - n1_->x - r1;
        return e_.dot(n2_->R.transpose() *
                      (n2_->xdot - n1_->xdot - n1_->w.cross(r1) - n2_->w.cross(d)));
    }
    const StructNode* n1_;
    const StructNode* n2_;
    Vec3 o1_, o2_, e_;
    bool time_input_;
};

DrivePtr make_node_distance(const DriveSpec& d, const DriveEnv& env) {
    if (!env.data.nodes) throw_unsupported_drive(d, "it reads nodes, which exist only in a run");
    const auto& a = d.args_as<NodeDistanceArgs>();
    auto find = [&](const EntityRef& ref) -> const StructNode& {
        for (const StructNode& n : *env.data.nodes)
            if (n.label() == ref.label) return n;
        throw InputError(d.loc, "structural node " + std::to_string(ref.label) + " does not exist");
    };
    return rt::make<NodeDistance>(find(a.node1), find(a.node2), a, env.time_input);
}

}  // namespace

MBS_REGISTER_DRIVE_KIND("node distance", {.read = read_node_distance, .make = make_node_distance});

DrivePtr make_model_string(const DriveSpec& d, const DriveEnv& env) {
    if (!env.data.nodes)
        throw_unsupported_drive(d, "its model:: functions read nodes, which exist only in a run");
    std::vector<Resolved> refs;
    refs.reserve(d.expr->model_refs.size());
    for (const Ref& r : d.expr->model_refs) {
        const StructNode* n1 = &find_node(*env.data.nodes, r.label1, r);
        const StructNode* n2 = r.two_nodes() ? &find_node(*env.data.nodes, r.label2, r) : nullptr;
        refs.push_back({r.quantity, r.part, n1, n2});
    }
    return rt::make<ModelStringDrive>(d.expr, std::move(refs), rt::clock(d, env), env.time_input);
}

}  // namespace mbs::drives

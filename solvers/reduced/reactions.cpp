// Loop multipliers and driven coordinates' forces (see reactions.hpp).
#include "solvers/reduced/reactions.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace mbs::reduced {

Reactions::Reactions(const ReducedModel& rm, const Partition& p)
    : lambda(VecX::Zero(rm.n_constraints)),
      Jv_(p.v.size(), p.v.size()),
      phiv_(p.v.size()),
      lr_(p.v.size()),
      lu_(static_cast<Eigen::Index>(p.v.size())) {}

void Reactions::compute(const ReducedModel& rm, const Workspace& ws, const Partition& p) {
    const int nv = static_cast<int>(p.v.size());
    lambda.setZero();
    if (nv > 0) {
        for (int i = 0; i < nv; ++i) {
            const int vi = p.v[static_cast<std::size_t>(i)];
            phiv_[i] = ws.tau[vi];
            for (int j = 0; j < nv; ++j)
                Jv_(j, i) = ws.J(p.rows[static_cast<std::size_t>(i)],
                                 p.v[static_cast<std::size_t>(j)]);  // J_v^T
        }
        lu_.compute(Jv_);
        lr_.noalias() = lu_.solve(phiv_);
        for (int i = 0; i < nv; ++i) lambda[p.rows[static_cast<std::size_t>(i)]] = lr_[i];
    }
    balance_ = 0.0;
    for (int i : p.u) {
        double r = ws.tau[i];
        for (int k = 0; k < rm.n_constraints; ++k) r -= ws.J(k, i) * lambda[k];
        balance_ = std::max(balance_, std::abs(r));
    }
}

double Reactions::force(const ReducedModel& rm, const Workspace& ws, int i) const {
    double tau = ws.tau[i];
    for (int r = 0; r < rm.n_constraints; ++r) tau -= ws.J(r, i) * lambda[r];
    return rm.links[static_cast<std::size_t>(i)].drive_sign * tau;
}

ReactionBlocks::ReactionBlocks(const ReducedModel& rm, const Partition& p) {
    ValueBlock a;
    a.file = "act";
    a.group = "actuators";
    a.nc_prefix = "reduced.actuator";
    a.dimension = "coordinate";
    a.quantities = {{"tau", 1, "N m or N",
                     "torque about (rotation: N m) or force along (translation: N) the driven "
                     "coordinate's axis that its joint applies, node 1 on node 2",
                     "joint axis"}};
    for (int i : p.c) {
        const Link& l = rm.links[static_cast<std::size_t>(i)];
        ValueBlock::Row r;
        r.label = i + 1;
        r.joint = l.joint_label;
        r.name = "q" + std::to_string(i + 1) + " " + l.name + " of joint " +
                 std::to_string(l.joint_label);
        r.type = l.joint_type;
        r.text = std::to_string(l.joint_label);
        r.count = 1;
        a.rows.push_back(std::move(r));
    }
    ValueBlock m;
    m.file = "lam";
    m.group = "loop_multipliers";
    m.nc_prefix = "reduced.cut";
    m.dimension = "cut";
    int widest = 1;
    for (std::size_t k = 0; k < rm.cuts.size(); ++k) {
        const Cut& c = rm.cuts[k];
        ValueBlock::Row r;
        r.label = static_cast<long>(k) + 1;
        r.joint = c.label;
        r.name = "cut " + std::to_string(k + 1) + ": joint " + std::to_string(c.label);
        r.type = c.type;
        r.text = std::to_string(c.label);
        r.count = c.rows;
        widest = std::max(widest, c.rows);
        m.rows.push_back(std::move(r));
    }
    m.quantities = {{"lambda", widest, "N or N m",
                     "multipliers of the cut's constraint equations, in their order (force on a "
                     "position equation, moment on a rotation one; 0 for a dropped redundant "
                     "equation): docs/relative-coordinates.md 2.5",
                     "cut equations"}};
    for (ValueBlock* b : {&a, &m}) {
        if (b->rows.empty()) continue;
        b->finish();
        (b == &a ? act : lam) = static_cast<int>(list.size());
        list.push_back(std::move(*b));
    }
}

void ReactionBlocks::fill(const ReducedModel& rm, const Workspace& ws, const Partition& p,
                          const Reactions& r) {
    if (act >= 0) {
        double* v = list[static_cast<std::size_t>(act)].values.data();
        for (int i : p.c) *v++ = r.force(rm, ws, i);
    }
    if (lam >= 0) {
        double* v = list[static_cast<std::size_t>(lam)].values.data();
        for (const Cut& c : rm.cuts)
            for (int k = 0; k < c.rows; ++k) *v++ = r.lambda[c.first_row + k];
    }
}

}  // namespace mbs::reduced

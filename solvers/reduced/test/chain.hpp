// A serial chain of n revolute links (unit links along x, axes alternating z, y, x with a twist),
// each carrying a rod-like body: the test and benchmark model of the recursive algorithms.
#pragma once

#include "solvers/reduced/reduced_model.hpp"

namespace mbs::reduced {

inline ReducedModel make_chain(int n) {
    ReducedModel m;
    for (int i = 0; i < n; ++i) {
        Link l;
        l.parent = i - 1;
        l.axis = Vec3::Unit(2 - i % 3);
        l.r_pre = i == 0 ? Vec3::Zero() : Vec3(1.0, 0.0, 0.0);
        l.R_pre = Eigen::AngleAxisd(0.3, Vec3::UnitX()).toRotationMatrix();
        l.mass = 1.0;
        l.com = Vec3(0.5, 0.0, 0.0);
        l.inertia = Vec3(1e-3, 1.0 / 12, 1.0 / 12).asDiagonal();
        l.name = "Rz";
        m.links.push_back(l);
    }
    m.has_gravity = true;
    m.gravity = TplDrive<3>::constant(Vec3(0.0, 0.0, -9.81));
    return m;
}

}  // namespace mbs::reduced

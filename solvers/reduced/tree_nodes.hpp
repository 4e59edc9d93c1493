// The tree's nodes as the output sees them (core/step_view.hpp), for the analyses of the
// relative-coordinate path that feed a RunOutput.
#pragma once

#include <stdexcept>
#include <vector>

#include "core/step_view.hpp"
#include "solvers/reduced/dynamics.hpp"

namespace mbs::reduced {

// The tree's nodes as the output sees them (core/step_view.hpp): one StructNode per node of
// the reduced model, in its order, whose state (x, R, v, w: the .mov columns) is set from the
// tree's kinematics at each step. The relative-coordinate path computes no node accelerations
// or momenta: the nodes write neither (no XPP/OmegaP columns, no .ine).
class TreeNodes {
  public:
    TreeNodes(const Model& model, const ReducedModel& rm) {
        nodes_.reserve(rm.nodes.size());
        for (const NodeAttach& na : rm.nodes) {
            const EntityDesc* d = model.find_node("structural", na.label);
            if (!d) throw std::logic_error("reduced model node without a deck node");
            nodes_.emplace_back(*d);
            nodes_.back().accel_output = false;
        }
    }
    StepView view() const {
        StepView v{nodes_, {}, true, {}};
        v.momenta = false;
        return v;
    }
    void update(const ReducedModel& rm, const Workspace& ws) {
        for (std::size_t k = 0; k < nodes_.size(); ++k) {
            const NodeAttach& na = rm.nodes[k];
            StructNode& n = nodes_[k];
            n.x = na.r;
            n.R = na.R;
            n.xdot.setZero();
            n.w.setZero();
            if (na.link >= 0) {
                const PointState ps = point_state(ws, na.link, na.r);
                n.x = ps.x;
                n.xdot = ps.v;
                n.w = ws.w[static_cast<std::size_t>(na.link)];
                n.R = ws.R[static_cast<std::size_t>(na.link)] * na.R;
            }
        }
    }

  private:
    std::vector<StructNode> nodes_;
};

}  // namespace mbs::reduced

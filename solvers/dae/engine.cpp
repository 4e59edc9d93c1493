// Engine set-up (nodes, elements, DOF numbering, pattern) and allocation-free assembly.
#include "solvers/dae/engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/source.hpp"
#include "core/struct_node_spec.hpp"

namespace mbs {

Engine::Engine(const Model& m, const std::string& linear_solver) : model_(&m) {
    drive_env_.clock = &clock_;
    drive_env_.model = model_;
    drive_env_.data = {&nodes_, &elements_, &y, &yp};
    drive_env_.sites = &drive_sites_;
    build_nodes();
    build_elements();
    number_dofs();
    build_pattern();
    lin_ = make_linear_solver(linear_solver);
    lin_->analyze(jac_->matrix());
}

void Engine::error(const EntityDesc& e, const std::string& what, const std::string& hint) const {
    throw InputError(e.loc, what, hint);
}

// `model: static;` (MBDyn's static analysis as a degeneration of the dynamic one): every
// dynamic node is built as a static node of the same kind (rigid or displacement-only), so it
// has no momentum unknowns and no automatic structural element; bodies on it add only their
// gravity load (body_element.cpp).
void Engine::build_nodes() {
    const auto& mn = model_->nodes;
    static_model_ = model_->control.static_model.given();
    node_index_.assign(mn.size(), -1);
    nodes_.reserve(mn.size());
    for (std::size_t i = 0; i < mn.size(); ++i) {
        const EntityDesc& d = mn[i];
        if (d.category == "abstract" || d.category == "parameter") continue;  // elements, below
        if (d.category != "structural")
            error(d, "'" + d.category + "' nodes are not supported by the time integrator yet",
                  "only structural nodes can be simulated in this version");
        if (d.type == "modal")
            error(d, "modal structural nodes are not supported by the time integrator yet");
        node_index_[i] = static_cast<int>(nodes_.size());
        if (static_model_ && (d.type == "dynamic" || d.type == "dynamic displacement")) {
            static_descs_.push_back(d);
            static_descs_.back().type = d.type == "dynamic" ? "static" : "static displacement";
            nodes_.emplace_back(static_descs_.back());
        } else {
            nodes_.emplace_back(d);
        }
    }
    // Dummy nodes see non-dummy nodes only (they are updated after all of those).
    auto find = [&](const StructNode& n, const EntityRef* ref,
                    const char* what) -> const StructNode* {
        if (!ref) return nullptr;
        for (auto& b : nodes_)
            if (b.label() == ref->label) {
                if (b.is_dummy())
                    error(n.desc(),
                          std::string("the ") + what + " of dummy node " +
                              std::to_string(n.label()) + " is dummy node " +
                              std::to_string(b.label()) + ": not supported",
                          "refer to the dummy node's base node");
                return &b;
            }
        return nullptr;
    };
    for (auto& n : nodes_)
        if (n.is_dummy()) {
            const auto& s = n.desc().spec_as<StructuralNodeSpec>();  // the node card's fields
            n.base = find(n, &s.base, "base node");
            n.frame_ref = find(n, s.reference ? &*s.reference : nullptr, "reference node");
            n.pivot = find(n, s.pivot ? &*s.pivot : nullptr, "pivot node");
        }
}

StructNode& Engine::struct_node(const EntityRef& ref, const EntityDesc& user) {
    for (auto& n : nodes_)
        if (n.label() == ref.label) {
            if (n.is_dummy())
                error(
                    user,
                    "structural node " + std::to_string(ref.label) +
                        " is a dummy node: it has no degrees of freedom and cannot carry elements",
                    "connect the element to the dummy node's base node, with an offset");
            return n;
        }
    error(user, "structural node " + std::to_string(ref.label) + " does not exist");
}

std::unique_ptr<Element> Engine::take_element(const EntityRef& ref) {
    for (auto it = elements_.begin(); it != elements_.end(); ++it)
        if ((*it)->label() == ref.label && (*it)->desc().category == ref.category) {
            std::unique_ptr<Element> e = std::move(*it);
            elements_.erase(it);
            return e;
        }
    return nullptr;
}

void Engine::set_gravity(const TplDrive<3>& g) {
    has_gravity_ = true;
    gravity_drive_ = g;
}

void Engine::build_elements() {
    // The runtime elements of the nodes whose kind has one (core/registry.hpp), structural nodes
    // first (a dynamic node's automatic structural element: its momenta), then the scalar nodes
    // that are no StructNode (abstract, parameter: their unknowns); then the elements.
    auto add = [&](const ElementKind* k, const EntityDesc& d) {
        if (k && k->make)
            if (auto el = k->make(d, *this)) elements_.push_back(std::move(el));
    };
    for (auto& n : nodes_) add(find_node_kind(n.desc().category, n.desc().type), n.desc());
    for (std::size_t i = 0; i < model_->nodes.size(); ++i)
        if (node_index_[i] < 0)
            add(find_node_kind(model_->nodes[i].category, model_->nodes[i].type), model_->nodes[i]);
    for (const EntityDesc& d : model_->elements) {
        const ElementKind* k = find_element_kind(d.category, d.type);
        if (!k || !k->make) {
            std::string what = d.category + (d.type.empty() ? "" : " '" + d.type + "'");
            error(d, what + " is not supported by the time integrator yet",
                  "remove the element or run with --check to only read the deck");
        }
        add(k, d);
    }
    // Named drive callers with `output` / `output trace` (MBDyn's .drv, .trc): an output-only
    // element per card and file, in label order (elements/drives/drive_output.cpp).
    for (const auto& [label, spec] : model_->drive_callers)
        for (const char* type : {"output", "trace"}) {
            if (!(*type == 'o' ? spec->output : spec->trace)) continue;
            EntityDesc& d = drive_descs_.emplace_back();
            d.category = "drive caller";
            d.type = type;
            d.label = label;
            d.loc = spec->loc;
            d.output = true;
            add(find_element_kind(d.category, d.type), d);
        }
}

void Engine::number_dofs() {
    int k = 0;
    for (auto& n : nodes_) {
        n.set_first_dof(k);
        for (int i = 0; i < n.ndofs(); ++i) {
            order_.push_back(DofOrder::differential);
            eq_info_.push_back({"structural node " + std::to_string(n.label()),
                                StructNode::dof_name(i, n.has_rotation()),
                                StructNode::unknown_name(i, n.has_rotation())});
        }
        k += n.ndofs();
    }
    for (auto& e : elements_) {
        e->set_first_dof(k);
        const EntityDesc& d = e->desc();
        std::string owner = d.category + " " + std::to_string(d.label) +
                            (d.type.empty() ? "" : " (" + d.type + ")");
        for (int i = 0; i < e->own_dofs(); ++i) {
            order_.push_back(e->own_dof_order(i));
            eq_info_.push_back({owner, e->own_dof_name(i), "multiplier of " + e->own_dof_name(i)});
        }
        k += e->own_dofs();
    }
    n_ = k;
    static_pos_.assign(n_, 0);
    for (auto& n : nodes_)
        if (!n.is_dummy() && !n.is_dynamic())
            for (int i = 0; i < n.pos_cols(); ++i) static_pos_[n.first_dof() + i] = 1;
    y.assign(n_, 0.0);
    yp.assign(n_, 0.0);
    for (auto& n : nodes_) n.initialize(y.data(), yp.data());
    for (auto& e : elements_) e->initialize(y.data(), yp.data());
}

void Engine::build_pattern() {
    PatternBuilder p(n_);
    for (auto& e : elements_) e->declare(p);
    jac_ = std::make_unique<Jacobian>(p);
}

void Engine::update(double t, double dt) {
    clock_.time = t;
    clock_.timestep = dt;
    if (has_gravity_) gravity_now_ = gravity_drive_.value(t);
    StateView s = state();
    for (auto& n : nodes_)
        if (!n.is_dummy()) n.update(s);
    for (auto& n : nodes_)
        if (n.is_dummy() && n.base) n.update_dummy(*n.base);
}

void Engine::residual(const StepContext& c, double* r) {
    std::fill(r, r + n_, 0.0);
    StateView s = state();
    for (const auto& e : elements_)
        if (c.phase == Phase::dynamic || e->in_assembly()) e->residual(c, s, r);
    for (std::size_t k = 0; k < redundant_.size(); ++k) {
        dropped_r_[k] = r[redundant_[k]];
        r[redundant_[k]] = yp[redundant_[k]];
    }
}

void Engine::jacobian(const StepContext& c) {
    jac_->set_zero();
    StateView s = state();
    for (const auto& e : elements_)
        if (c.phase == Phase::dynamic || e->in_assembly()) e->jacobian(c, s, *jac_);
    double* v = jac_->matrix().values();
    for (int k : redundant_slots_) v[k] = 0.0;
    for (int i : redundant_) jac_->add_to_diagonal(i, 1.0);
}

void Engine::set_redundant(const std::vector<int>& rows) {
    redundant_ = rows;
    dropped_r_.assign(rows.size(), 0.0);
    std::vector<char> mark(n_, 0);
    for (int i : rows) mark[i] = 1;
    redundant_slots_.clear();
    const CscMatrix& A = jac_->matrix();
    for (int col = 0; col < n_; ++col)
        for (int k = A.col_start()[col]; k < A.col_start()[col + 1]; ++k)
            if (mark[A.row_index()[k]]) redundant_slots_.push_back(k);
}

void Engine::commit(const StepContext& c) {
    StateView s = state();
    for (auto& e : elements_) e->after_step(c, s);
    for (auto& n : nodes_) n.commit();
}

void Engine::initialize_momenta(const StepContext& c, double* r) {
    // With beta = gamma = 0 the momentum rows hold exactly m xdot + w x S and S x xdot + J w.
    for (auto& n : nodes_)
        if (n.is_dynamic())
            for (int i = 0; i < n.ndofs() - n.pos_cols(); ++i) y[n.momentum_dof() + i] = 0.0;
    update(c.time, c.dt);
    residual(c, r);
    for (auto& n : nodes_)
        if (n.is_dynamic())
            for (int i = 0; i < n.ndofs() - n.pos_cols(); ++i)
                y[n.momentum_dof() + i] = r[n.momentum_dof() + i];
    update(c.time, c.dt);
}

std::string Engine::non_finite_drive(double t) const {
    for (const DriveSite& site : drive_sites_) {
        const double v = site.drive->value(t);
        if (std::isfinite(v)) continue;
        char buf[96];
        std::snprintf(buf, sizeof buf, " gives %g at t = %.9g", v, t);
        return "drive caller '" + site.spec->type + "' at " + site.spec->loc.where() + buf;
    }
    return {};
}

}  // namespace mbs

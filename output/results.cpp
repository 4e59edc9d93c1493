// Entities and quantities written by the NetCDF and HDF5 sinks (see results.hpp).
#include "output/results.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "core/rotations.hpp"

namespace mbs::output {

namespace {

Quantity q(const char* name, int ncomp, const char* units, const char* frame, std::string desc,
           int column = -1) {
    Quantity x;
    x.name = name;
    x.ncomp = ncomp;
    x.units = units;
    x.frame = frame;
    x.description = std::move(desc);
    x.column = column;
    return x;
}

// The deck's `name`, else "structural node 2", "joint 3", ...
std::string entity_name(const EntityDesc& d, bool node) {
    if (!d.name.empty()) return d.name;
    return d.category + (node ? " node " : " ") + std::to_string(d.label);
}

Group group(Group::Kind kind, const char* name, const char* nc_prefix,
            std::vector<Quantity> quantities = {}) {
    Group g;
    g.kind = kind;
    g.name = name;
    g.nc_prefix = nc_prefix;
    g.quantities = std::move(quantities);
    return g;
}

// MBDyn's `type` attribute of a node's or element's NetCDF variable, from the deck's type:
// "static", "dynamic" (also for the displacement-only nodes), MBDyn's joint names where they
// differ from the deck's words; elements may set theirs (OutputSchema::nc_type).
std::string nc_type(const EntityDesc& d, bool node) {
    const std::string& t = d.type;
    if (node) return t.substr(0, t.find(' '));
    static const std::pair<const char*, const char*> names[] = {
        {"in line", "inline"},
        {"plane hinge", "revolute hinge"},
        {"rod with offset", "rod"},
        {"distance with offset", "distance"},
        {"universal hinge", "cardano hinge"},
        {"universal rotation", "cardano rotation"},
        {"universal pin", "cardano pin"},
        {"plane pin", "revolute pin"}};
    for (const auto& [deck, mbdyn] : names)
        if (t == deck) return mbdyn;
    return t;
}

void add_entity(Group& g, const EntityDesc& d, int source, std::string type = {}) {
    const bool node = g.kind == Group::Kind::nodes || g.kind == Group::Kind::node_accelerations ||
                      g.kind == Group::Kind::node_momenta;
    g.nc_types.push_back(type.empty() ? nc_type(d, node) : std::move(type));
    g.labels.push_back(d.label);
    g.names.push_back(entity_name(d, g.kind == Group::Kind::nodes ||
                                         g.kind == Group::Kind::node_accelerations ||
                                         g.kind == Group::Kind::node_momenta));
    // The card's type; entities without a card type of their own (scalar nodes, the
    // engine-made drive-caller outputs, whose kind names the file) take the NetCDF type.
    g.types.push_back(d.type.empty() || d.category == "drive caller" ? g.nc_types.back() : d.type);
    g.source.push_back(source);
}

// A value into a block's rows. The writer thread reads them rows (megabytes) later, so they are
// stored non-temporally where the CPU can: the destination's cache line is not read first
// (NetCDF on chain_200: record() 0.031 -> 0.021 s). fence() orders these stores before the
// hand-off to the writer.
#if defined(__x86_64__)
inline void put(double* p, double v) {
    long long bits;
    std::memcpy(&bits, &v, sizeof bits);
    _mm_stream_si64(reinterpret_cast<long long*>(p), bits);
}
inline void fence() { _mm_sfence(); }
#else
inline void put(double* p, double v) { *p = v; }
inline void fence() {}
#endif

}  // namespace

bool node_momenta_output(const StructNode& n, bool text) {
    return n.desc().output && n.is_dynamic() && n.output_inertia.value_or(text);
}

void Results::init(const Model& m, const StepView& view, int capacity, std::size_t max_bytes,
                   bool allocate) {
    groups_.clear();
    const std::string default_orientation = m.control.orientation();

    Group nodes = group(
        Group::Kind::nodes, "nodes", "node.struct",
        {q("X", 3, "m", "global", "global position vector (X, Y, Z)"),
         q("R", 9, "-", "global",
           "global orientation matrix, row-major (R11, R12, R13, R21, ...): x_global = R x_node"),
         q("XP", 3, "m/s", "global", "global velocity vector (v_X, v_Y, v_Z)"),
         q("Omega", 3, "radian/s", "global",
           "global angular velocity vector (omega_X, omega_Y, omega_Z)")});
    nodes.quantities[1].orientation = true;
    for (std::size_t k = 0; k < view.nodes.size(); ++k) {
        const StructNode& n = view.nodes[k];
        if (!n.desc().output) continue;
        add_entity(nodes, n.desc(), static_cast<int>(k));
        nodes.orientation.push_back(n.orientation_description.empty() ? default_orientation
                                                                      : n.orientation_description);
    }

    // Accelerations (StructNode::accel_output: the nodes whose analysis computes them; the DAE's
    // solvers/dae/accelerations.hpp): a group of their own, as only some nodes have them;
    // NetCDF names node.struct.<L>.XPP and .OmegaP as MBDyn's.
    Group accels =
        group(Group::Kind::node_accelerations, "node_accelerations", "node.struct",
              {q("XPP", 3, "m/s^2", "global", "global acceleration vector (a_X, a_Y, a_Z)"),
               q("OmegaP", 3, "radian/s^2", "global",
                 "global angular acceleration vector (omegaP_X, omegaP_Y, omegaP_Z)")});
    for (std::size_t k = 0; k < view.nodes.size(); ++k) {
        const StructNode& n = view.nodes[k];
        if (n.desc().output && n.accel_output) add_entity(accels, n.desc(), static_cast<int>(k));
    }

    // Momenta (MBDyn's .ine, NetCDF node.struct.<L>.B, .G, .BP, .GP) of the nodes that ask for
    // them (node_momenta_output()): a group of their own; in NetCDF after every node's other
    // variables, as MBDyn.
    Group momenta = group(
        Group::Kind::node_momenta, "node_momenta", "node.struct",
        {q("B", 3, "kg m/s", "global", "global momentum (B_X, B_Y, B_Z)"),
         q("G", 3, "kg m^2/s", "global", "global momenta moment about the node (G_X, G_Y, G_Z)"),
         q("BP", 3, "kg m/s^2", "global", "global momentum derivative (BP_X, BP_Y, BP_Z)"),
         q("GP", 3, "kg m^2/s^2", "global",
           "global momenta moment derivative (GP_X, GP_Y, GP_Z)")});
    for (std::size_t k = 0; k < view.nodes.size(); ++k)
        if (view.momenta && node_momenta_output(view.nodes[k], false))
            add_entity(momenta, view.nodes[k].desc(), static_cast<int>(k));

    for (Group* g : {&nodes, &accels, &momenta})
        if (g->size() > 0) groups_.push_back(std::move(*g));
    add_element_groups(view, default_orientation);
    add_value_groups(view);

    std::size_t row_bytes = 4 * sizeof(double);
    for (const Group& g : groups_)
        for (const Quantity& x : g.quantities) row_bytes += sizeof(double) * g.size() * x.ncomp;
    capacity =
        static_cast<int>(std::clamp<std::size_t>(max_bytes / row_bytes, 1, std::max(capacity, 1)));
    // Four parts a block (block_sink.cpp): the capacity a multiple of the part when it can be.
    constexpr int parts = 4;
    part_ = std::max(capacity / parts, 1);
    if (capacity >= parts) capacity = part_ * parts;
    capacity_ = capacity;
    rows_ = 0;
    first_row_ = 0;
    last_flush_ = std::chrono::steady_clock::now();
    if (allocate) this->allocate();
}

// The elements' groups, as each element's output_schema() declares them (core/element.hpp), by
// increasing order, then first appearance. A group's quantities are those its elements declare
// (the same list for all), with one column or a column per element (-1: not this element's),
// left out when no element has them (values only), as wide as the widest element's.
void Results::add_element_groups(const StepView& view, const std::string& default_orientation) {
    struct Pending {
        Group g;
        int order;
        std::vector<std::vector<OutputQuantity>> declared;  // per element
        std::size_t first = 0;                              // order of first appearance
    };
    std::vector<Pending> pending;
    for (std::size_t j = 0; j < view.elements.size(); ++j) {
        const Element& el = *view.elements[j];
        OutputSchema s;
        if (!el.desc().output || !el.output_schema(s)) continue;
        auto p = std::find_if(pending.begin(), pending.end(),
                              [&](const Pending& x) { return x.g.name == s.group; });
        if (p == pending.end()) {
            const bool reaction = s.source == OutputSchema::Source::reaction;
            pending.push_back({group(reaction ? Group::Kind::joints : Group::Kind::element_values,
                                     s.group, s.nc_prefix),
                               s.order,
                               {},
                               pending.size()});
            p = pending.end() - 1;
        }
        add_entity(p->g, el.desc(), static_cast<int>(j), s.nc_type);
        const bool joints = s.source == OutputSchema::Source::reaction;
        p->g.orientation.push_back(s.orientation.empty() && !joints ? default_orientation
                                                                    : s.orientation);
        p->declared.push_back(std::move(s.quantities));
    }
    // Ties broken by first appearance: std::sort with an explicit key rather than stable_sort,
    // whose temporary buffer (operator new(nothrow)) the allocation-counting test cannot follow.
    std::sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
        return a.order != b.order ? a.order < b.order : a.first < b.first;
    });
    for (Pending& p : pending) {
        // The group's quantities: the union of its elements' (first-appearance order), each
        // element's column where it declares the quantity, -1 where it does not.
        std::vector<const OutputQuantity*> all;
        for (const auto& qs : p.declared)
            for (const OutputQuantity& d : qs)
                if (std::none_of(all.begin(), all.end(),
                                 [&](const OutputQuantity* a) { return a->name == d.name; }))
                    all.push_back(&d);
        for (std::size_t i = 0; i < all.size(); ++i) {
            const OutputQuantity& d = *all[i];
            Quantity x = q("", 0, d.units, d.frame, d.description, d.column);
            x.name = d.name;
            x.point = d.point;
            x.orientation = d.orientation;
            x.where = d.where;
            // The joints' reaction (the first four) is there for every joint.
            bool any = p.g.kind == Group::Kind::joints && i < 4, uniform = true, same = true;
            for (const auto& qs : p.declared) {
                auto it = std::find_if(qs.begin(), qs.end(),
                                       [&](const OutputQuantity& a) { return a.name == d.name; });
                const int col = it == qs.end() ? -1 : it->column;
                if (it != qs.end()) x.ncomp = std::max(x.ncomp, it->ncomp);
                x.columns.push_back(col);
                x.descriptions.push_back(it == qs.end() ? d.description : it->description);
                any = any || col >= 0;
                uniform = uniform && col == d.column;
                same = same && x.descriptions.back() == d.description;
            }
            if (!any) continue;
            if (uniform) x.columns.clear();
            if (same) x.descriptions.clear();
            p.g.quantities.push_back(std::move(x));
        }
        groups_.push_back(std::move(p.g));
    }
}

// A group per value block (core/value_block.hpp), its quantities the block's, one after the
// other in a row's values; a row shorter than the widest gets per-entity widths (and column -1
// for a quantity it has none of).
void Results::add_value_groups(const StepView& view) {
    for (std::size_t j = 0; j < view.blocks.size(); ++j) {
        const ValueBlock& b = view.blocks[j];
        if (b.rows.empty() || b.group.empty()) continue;
        Group g = group(Group::Kind::values, b.group.c_str(), b.nc_prefix.c_str());
        g.block = static_cast<int>(j);
        g.dimension = b.dimension;
        for (std::size_t r = 0; r < b.rows.size(); ++r) {
            const ValueBlock::Row& row = b.rows[r];
            g.labels.push_back(row.label);
            g.names.push_back(row.name);
            g.types.push_back(row.type);
            g.nc_types.push_back(row.type);
            g.orientation.emplace_back();
            g.source.push_back(static_cast<int>(r));
            g.joints.push_back(row.joint);
        }
        int col = 0;
        for (const ValueBlock::Quantity& bq : b.quantities) {
            Quantity x = q("", bq.ncomp, bq.units.c_str(), bq.frame.c_str(), bq.description, col);
            x.name = bq.name;
            bool uniform = true;
            for (const ValueBlock::Row& row : b.rows) {
                const int w = std::clamp(row.count - col, 0, bq.ncomp);
                x.widths.push_back(w);
                x.columns.push_back(w > 0 ? col : -1);
                uniform = uniform && w == bq.ncomp;
            }
            if (uniform) x.widths.clear(), x.columns.clear();
            col += bq.ncomp;
            g.quantities.push_back(std::move(x));
        }
        groups_.push_back(std::move(g));
    }
}

void Results::Unmap::operator()(void* p) const { munmap(p, bytes); }

// The rows are one anonymous mapping: its pages are zero and become resident when first written,
// by record() on the solver's thread unless prefault() has done it elsewhere (NetCDF on
// chain_200: 32 MB, about 8000 page faults, 0.02-0.05 s of the solver's thread when zeroed here).
void Results::allocate() {
    const std::size_t rows = static_cast<std::size_t>(capacity_);
    std::size_t values = 0;
    for (const Group& g : groups_)
        for (const Quantity& x : g.quantities) values += rows * g.size() * x.ncomp;
    bytes_ = std::max<std::size_t>(values * sizeof(double), 1);
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    pages_ = std::unique_ptr<void, Unmap>(p, Unmap{bytes_});
    double* next = static_cast<double*>(p);
    for (Group& g : groups_)
        for (Quantity& x : g.quantities) {
            x.buf = next;
            next += rows * g.size() * x.ncomp;
        }
    time_.assign(rows, 0.0);
    dt_.assign(rows, 0.0);
    step_.assign(rows, 0);
    iter_.assign(rows, 0);
}

void Results::record(const StepView& view, const StepInfo& s) {
    const int r = rows_;
    time_[r] = s.time;
    dt_[r] = s.dt;
    step_[r] = s.step;
    iter_[r] = s.iterations;
    double v[Element::max_output_values];
    Vec3 px[Element::max_output_points];
    Mat3 pR[Element::max_output_points];
    const double nan = std::nan("");
    for (Group& g : groups_) {
        const int n = g.size();
        auto at = [&](Quantity& x, int k) {
            return x.buf + (static_cast<std::size_t>(r) * n + k) * x.ncomp;
        };
        auto put3 = [](double* p, const Vec3& a) {
            put(p, a[0]), put(p + 1, a[1]), put(p + 2, a[2]);
        };
        for (int k = 0; k < n; ++k) {
            switch (g.kind) {
                case Group::Kind::nodes: {
                    const StructNode& nd = view.nodes[g.source[k]];
                    put3(at(g.quantities[0], k), nd.x);
                    double* R = at(g.quantities[1], k);
                    for (int i = 0; i < 3; ++i)
                        for (int c = 0; c < 3; ++c) put(R + 3 * i + c, nd.R(i, c));
                    put3(at(g.quantities[2], k), nd.xdot);
                    put3(at(g.quantities[3], k), nd.w);
                    break;
                }
                case Group::Kind::node_accelerations: {
                    const StructNode& nd = view.nodes[g.source[k]];
                    put3(at(g.quantities[0], k), nd.xpp);
                    put3(at(g.quantities[1], k), nd.wp);
                    break;
                }
                case Group::Kind::node_momenta: {
                    const StructNode& nd = view.nodes[g.source[k]];
                    put3(at(g.quantities[0], k), nd.beta);
                    put3(at(g.quantities[1], k), nd.gamma);
                    put3(at(g.quantities[2], k), nd.beta_dot);
                    put3(at(g.quantities[3], k), nd.gamma_dot);
                    break;
                }
                case Group::Kind::joints: {
                    Vec3 f, m, F, M;
                    view.elements[g.source[k]]->reaction(f, m, F, M);
                    put3(at(g.quantities[0], k), f);
                    put3(at(g.quantities[1], k), m);
                    put3(at(g.quantities[2], k), F);
                    put3(at(g.quantities[3], k), M);
                    if (g.quantities.size() == 4) break;
                    // The joint's own quantities: columns of its output_values().
                    int nv = -1;
                    for (std::size_t qi = 4; qi < g.quantities.size(); ++qi) {
                        Quantity& x = g.quantities[qi];
                        const int col = x.columns.empty() ? x.column : x.columns[k];
                        if (col >= 0 && nv < 0) nv = view.elements[g.source[k]]->output_values(v);
                        double* p = at(x, k);
                        for (int c = 0; c < x.ncomp; ++c)
                            put(p + c, col >= 0 && col + c < nv ? v[col + c] : nan);
                    }
                    break;
                }
                case Group::Kind::values: {
                    const ValueBlock& b = view.blocks[static_cast<std::size_t>(g.block)];
                    const auto row = static_cast<std::size_t>(g.source[k]);
                    const double* bv = b.values.data() + b.first[row];
                    const int nv = b.rows[row].count;
                    for (Quantity& x : g.quantities) {
                        double* p = at(x, k);
                        const int col = x.columns.empty() ? x.column : x.columns[k];
                        for (int c = 0; c < x.ncomp; ++c)
                            put(p + c, col >= 0 && col + c < nv ? bv[col + c] : nan);
                    }
                    break;
                }
                case Group::Kind::element_values: {
                    int nv = view.elements[g.source[k]]->output_values(v);
                    int np = -1;  // evaluation points, asked for once if a quantity needs them
                    for (Quantity& x : g.quantities) {
                        double* p = at(x, k);
                        const int col = x.columns.empty() ? x.column : x.columns[k];
                        if (x.point >= 0) {
                            if (np < 0) np = view.elements[g.source[k]]->output_points(px, pR);
                            const bool ok = col >= 0 && x.point < np;
                            if (x.ncomp == 3)
                                for (int c = 0; c < 3; ++c) put(p + c, ok ? px[x.point][c] : nan);
                            else
                                for (int i = 0; i < 3; ++i)
                                    for (int c = 0; c < 3; ++c)
                                        put(p + 3 * i + c, ok ? pR[x.point](i, c) : nan);
                            continue;
                        }
                        for (int c = 0; c < x.ncomp; ++c)
                            put(p + c, col >= 0 && col + c < nv ? v[col + c] : nan);
                    }
                    break;
                }
            }
        }
    }
    fence();
    ++rows_;
}

void Results::release() {
    pages_.reset();
    bytes_ = 0;
    for (Group& g : groups_)
        for (Quantity& x : g.quantities) x.buf = nullptr;
}

void Results::prefault(Pages p) {
#ifdef MADV_POPULATE_WRITE
    if (p.data) madvise(p.data, p.bytes, MADV_POPULATE_WRITE);
#else
    (void)p;
#endif
}

bool Results::flush_due(const SinkOptions& o) const {
    if (rows_ == 0) return false;
    if (full() || o.sync) return true;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - last_flush_).count() >=
           o.flush_seconds;
}

void Results::continue_after(const Results& prev) {
    first_row_ = prev.first_row_ + prev.rows_;
    rows_ = 0;
    last_flush_ = std::chrono::steady_clock::now();
}

const char* orientation_values(const std::string& description, const double* Rv, double* out) {
    if (description == "orientation matrix") {
        for (int i = 0; i < 9; ++i) out[i] = Rv[i];
        return "R";
    }
    Mat3 R;
    for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 3; ++c) R(i, c) = Rv[3 * i + c];
    Vec3 a;
    const char* name = "E";
    if (description == "orientation vector") {
        a = matrix_to_rotation_vector(R);
        name = "Phi";
    } else if (description == "euler313") {
        a = matrix_to_euler313(R) * (180.0 / M_PI);
    } else if (description == "euler321") {
        a = matrix_to_euler321(R) * (180.0 / M_PI);
    } else {
        a = matrix_to_euler123(R) * (180.0 / M_PI);
    }
    for (int i = 0; i < 3; ++i) out[i] = a[i];
    return name;
}

}  // namespace mbs::output

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
#include "elements/beams/beam.hpp"
#include "solvers/dae/accelerations.hpp"

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

// A beam group's quantities from its beams' `custom output` flags (beam.hpp), point by point
// as MBDyn's Beam::OutputPrepare defines its NetCDF variables: X_I, R_I (or Phi_I, E_I), F_I,
// M_I, nu_I, k_I, nuP_I, kP_I, then the same for _II. A quantity is in the group if some beam
// selects it, with each beam's source (-1 if not: no NetCDF variable, NaN in HDF5):
//   X, R   the evaluation point (BeamPoints::points(), not in the text file);
//   F, M   the .act columns 6 s, 6 s + 3 (selected unless `custom output` has `none`);
//   nu, k, nuP, kP  after the forces and moments of the `points` points, each selected strain
//          has its 3 values at every point, in this order (beam_element.cpp, output_values()).
void add_beam_custom(Group& g, const std::vector<long>& flags, int points) {
    struct Kind {
        long bit;
        const char* name;
        const char* units;
        const char* what;
    };
    using namespace beam_output_bits;
    static const Kind kinds[4] = {
        {ep_nu, "nu", "-", "linear strain (axial, shear 2, shear 3)"},
        {ep_k, "k", "1/m", "angular strain (torsion, bending 2, bending 3)"},
        {ep_nup, "nuP", "1/s", "linear strain rate (axial, shear 2, shear 3)"},
        {ep_kp, "kP", "1/(m s)", "angular strain rate (torsion, bending 2, bending 3)"}};
    static const char* suffix[2] = {"_I", "_II"};
    std::vector<Quantity> forces = std::move(g.quantities);  // F, M of each point
    g.quantities.clear();
    // Adds x if some beam has `bit`, with source `src` for those beams (-1 for the others).
    auto add = [&](Quantity x, long bit, int src) {
        bool any = false;
        for (long f : flags) {
            x.columns.push_back(f & bit ? src : -1);
            any = any || (f & bit);
        }
        if (any) g.quantities.push_back(std::move(x));
    };
    for (int s = 0; s < points; ++s) {
        const std::string ep = std::string("evaluation point ") + (s == 0 ? "I" : "II") + " ";
        Quantity x = q("", 3, "m", "global", ep + "global position vector (X, Y, Z)");
        x.name = std::string("X") + suffix[s];
        x.point = s;
        add(std::move(x), ep_x, 0);
        Quantity r =
            q("", 9, "-", "global",
              ep +
                  "global orientation matrix of the section, row-major (R11, R12, R13, R21, ...): "
                  "x_global = X" +
                  suffix[s] + " + R" + suffix[s] + " x_section");
        r.name = std::string("R") + suffix[s];
        r.point = s;
        r.orientation = true;
        r.where = ep;
        add(std::move(r), ep_r, 0);
        const int fcol = forces[2 * s].column, mcol = forces[2 * s + 1].column;
        add(std::move(forces[2 * s]), ep_f, fcol);
        add(std::move(forces[2 * s + 1]), ep_m, mcol);
        for (int j = 0; j < 4; ++j) {
            Quantity x = q("", 3, kinds[j].units, "local", "");
            x.name = std::string(kinds[j].name) + suffix[s];
            x.description = std::string(kinds[j].what) + " at evaluation point " +
                            (s == 0 ? "I" : "II") + ", section frame";
            bool any = false;
            for (long f : flags) {
                int col = 6 * points;
                for (int i = 0; i < j; ++i)
                    if (f & kinds[i].bit) col += 3 * points;
                x.columns.push_back(f & kinds[j].bit ? col + 3 * s : -1);
                any = any || (f & kinds[j].bit);
            }
            if (any) g.quantities.push_back(std::move(x));
        }
    }
}

void add_entity(Group& g, const EntityDesc& d, int source) {
    g.labels.push_back(d.label);
    g.names.push_back(entity_name(d, g.kind == Group::Kind::nodes ||
                                         g.kind == Group::Kind::node_accelerations ||
                                         g.kind == Group::Kind::node_momenta));
    g.types.push_back(d.type);
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

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

}  // namespace

bool node_momenta_output(const StructNode& n, bool text) {
    return n.desc().output && n.is_dynamic() && n.desc().props.get_or<bool>("output inertia", text);
}

void Results::init(const Model& m, const Engine& e, int capacity, std::size_t max_bytes,
                   bool allocate) {
    groups_.clear();
    const std::string default_orientation =
        m.control.get_or<std::string>("default orientation", "euler123");

    Group nodes = group(
        Group::Kind::nodes, "nodes", "node.struct",
        {q("X", 3, "m", "global", "global position vector (X, Y, Z)"),
         q("R", 9, "-", "global",
           "global orientation matrix, row-major (R11, R12, R13, R21, ...): x_global = R x_node"),
         q("XP", 3, "m/s", "global", "global velocity vector (v_X, v_Y, v_Z)"),
         q("Omega", 3, "radian/s", "global",
           "global angular velocity vector (omega_X, omega_Y, omega_Z)")});
    nodes.quantities[1].orientation = true;
    for (std::size_t k = 0; k < e.nodes().size(); ++k) {
        const StructNode& n = e.nodes()[k];
        if (!n.desc().output) continue;
        add_entity(nodes, n.desc(), static_cast<int>(k));
        nodes.orientation.push_back(
            n.desc().props.get_or<std::string>("orientation description", default_orientation));
    }

    // Accelerations (solvers/dae/accelerations.hpp): a group of their own, as only some nodes
    // have them; NetCDF names node.struct.<L>.XPP and .OmegaP as MBDyn's.
    Group accels =
        group(Group::Kind::node_accelerations, "node_accelerations", "node.struct",
              {q("XPP", 3, "m/s^2", "global", "global acceleration vector (a_X, a_Y, a_Z)"),
               q("OmegaP", 3, "radian/s^2", "global",
                 "global angular acceleration vector (omegaP_X, omegaP_Y, omegaP_Z)")});
    for (std::size_t k = 0; k < e.nodes().size(); ++k) {
        const StructNode& n = e.nodes()[k];
        if (n.desc().output && node_accelerations_output(m, n))
            add_entity(accels, n.desc(), static_cast<int>(k));
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
    for (std::size_t k = 0; k < e.nodes().size(); ++k)
        if (node_momenta_output(e.nodes()[k], false))
            add_entity(momenta, e.nodes()[k].desc(), static_cast<int>(k));

    Group joints =
        group(Group::Kind::joints, "joints", "elem.joint",
              {q("f", 3, "N", "local", "local reaction force (f_x, f_y, f_z), joint frame"),
               q("m", 3, "Nm", "local", "local reaction moment (m_x, m_y, m_z), joint frame"),
               q("F", 3, "N", "global", "global reaction force (F_X, F_Y, F_Z)"),
               q("M", 3, "Nm", "global", "global reaction moment (M_X, M_Y, M_Z)")});

    // Loads: the columns of their .frc lines (docs/deck-language.md 8): per loaded node, its label,
    // the force or couple (3) and, for forces, the application point (3).
    auto load_group = [](const char* name, const char* prefix) {
        return group(Group::Kind::element_values, name, prefix);
    };
    Group forces = load_group("forces", "elem.force");
    forces.quantities = {q("F", 3, "N", "global", "global force (F_X, F_Y, F_Z)", 1),
                         q("Arm", 3, "m", "global", "global application point of the force", 4)};
    Group iforces = load_group("internal_forces", "elem.force");
    iforces.quantities = {q("F1", 3, "N", "global", "global force on node 1", 1),
                          q("Arm1", 3, "m", "global", "global application point on node 1", 4),
                          q("F2", 3, "N", "global", "global force on node 2", 8),
                          q("Arm2", 3, "m", "global", "global application point on node 2", 11)};
    Group couples = load_group("couples", "elem.couple");
    couples.quantities = {q("M", 3, "Nm", "global", "global couple (M_X, M_Y, M_Z)", 1)};
    Group icouples = load_group("internal_couples", "elem.couple");
    icouples.quantities = {q("M1", 3, "Nm", "global", "global couple on node 1", 1),
                           q("M2", 3, "Nm", "global", "global couple on node 2", 5)};
    Group tforces = load_group("total_forces", "elem.force");
    tforces.quantities = {
        q("f", 3, "N", "local", "force (drive value) in the force orientation of node 1", 0),
        q("m", 3, "Nm", "local", "couple (drive value) in the moment orientation of node 1", 3)};

    // Beams: the columns of their .act lines, internal force and moment at each evaluation
    // point in the section frame (docs/deck-language.md 8: elem.beam.<L>.F_I, M_I [, F_II, M_II]),
    // and what their `custom output` adds (add_beam_custom()).
    auto beam_group = [&](const char* name, int points) {
        Group g = load_group(name, "elem.beam");
        static const char* fnames[2] = {"F_I", "F_II"};
        static const char* mnames[2] = {"M_I", "M_II"};
        static const char* fdesc[2] = {
            "internal force at evaluation point I, section frame (axial, shear 2, shear 3)",
            "internal force at evaluation point II, section frame (axial, shear 2, shear 3)"};
        static const char* mdesc[2] = {
            "internal moment at evaluation point I, section frame (torsion, bending 2, bending 3)",
            "internal moment at evaluation point II, section frame (torsion, bending 2, bending "
            "3)"};
        for (int i = 0; i < points; ++i) {
            g.quantities.push_back(q(fnames[i], 3, "N", "local", fdesc[i], 6 * i));
            g.quantities.push_back(q(mnames[i], 3, "Nm", "local", mdesc[i], 6 * i + 3));
        }
        return g;
    };
    Group beams3 = beam_group("beam3", 2);
    Group beams2 = beam_group("beam2", 1);
    std::vector<long> beam3_flags, beam2_flags;

    // Module (user-defined) elements: the values of their .usr line as one quantity, MBDyn's
    // elem.loadable.<L>.output; as many components as the longest line at the start (shorter
    // lines padded with NaN).
    Group loadables = load_group("user_defined", "elem.loadable");
    int loadable_values = 0;
    double v0[Element::max_output_values];

    Vec3 f, mm, F, M;
    for (std::size_t j = 0; j < e.elements().size(); ++j) {
        const Element& el = *e.elements()[j];
        const EntityDesc& d = el.desc();
        if (!d.output) continue;
        const int src = static_cast<int>(j);
        if (d.category == "joint") {
            if (el.reaction(f, mm, F, M)) add_entity(joints, d, src);
        } else if (d.category == "force" && el.output_file()) {
            bool internal = d.type.find("internal") != std::string::npos;
            if (starts_with(d.type, "total"))
                add_entity(tforces, d, src);
            else
                add_entity(internal ? iforces : forces, d, src);
        } else if (d.category == "couple" && el.output_file()) {
            add_entity(d.type.find("internal") != std::string::npos ? icouples : couples, d, src);
        } else if ((d.category == "beam3" || d.category == "beam" || d.category == "beam2") &&
                   el.output_file()) {
            Group& g = d.category == "beam2" ? beams2 : beams3;
            add_entity(g, d, src);
            g.orientation.push_back(
                d.props.get_or<std::string>("orientation description", default_orientation));
            g.points.push_back(dynamic_cast<const BeamPoints*>(&el));
            (d.category == "beam2" ? beam2_flags : beam3_flags)
                .push_back(
                    d.props.get_or<long>("custom output flags", beam_output_bits::ep_default));
        } else if (d.category == "userdefined" && el.output_file()) {
            const int nv = el.output_values(v0);
            if (nv <= 0) continue;
            add_entity(loadables, d, src);
            loadable_values = std::max(loadable_values, nv);
        }
    }
    add_beam_custom(beams3, beam3_flags, 2);
    add_beam_custom(beams2, beam2_flags, 1);
    if (loadable_values > 0)
        loadables.quantities = {
            q("output", loadable_values, "-", "",
              "values of the element's .usr line (meaning defined by its module)", 0)};
    for (Group* g : {&nodes, &accels, &momenta, &joints, &forces, &iforces, &couples, &icouples,
                     &tforces, &beams3, &beams2, &loadables})
        if (g->size() > 0) groups_.push_back(std::move(*g));

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

void Results::record(const Engine& e, const StepInfo& s) {
    const int r = rows_;
    time_[r] = s.time;
    dt_[r] = s.dt;
    step_[r] = s.step;
    iter_[r] = s.iterations;
    double v[Element::max_output_values];
    Vec3 px[BeamPoints::max_points];
    Mat3 pR[BeamPoints::max_points];
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
                    const StructNode& nd = e.nodes()[g.source[k]];
                    put3(at(g.quantities[0], k), nd.x);
                    double* R = at(g.quantities[1], k);
                    for (int i = 0; i < 3; ++i)
                        for (int c = 0; c < 3; ++c) put(R + 3 * i + c, nd.R(i, c));
                    put3(at(g.quantities[2], k), nd.xdot);
                    put3(at(g.quantities[3], k), nd.w);
                    break;
                }
                case Group::Kind::node_accelerations: {
                    const StructNode& nd = e.nodes()[g.source[k]];
                    put3(at(g.quantities[0], k), nd.xpp);
                    put3(at(g.quantities[1], k), nd.wp);
                    break;
                }
                case Group::Kind::node_momenta: {
                    const StructNode& nd = e.nodes()[g.source[k]];
                    put3(at(g.quantities[0], k), nd.beta);
                    put3(at(g.quantities[1], k), nd.gamma);
                    put3(at(g.quantities[2], k), nd.beta_dot);
                    put3(at(g.quantities[3], k), nd.gamma_dot);
                    break;
                }
                case Group::Kind::joints: {
                    Vec3 f, m, F, M;
                    e.elements()[g.source[k]]->reaction(f, m, F, M);
                    put3(at(g.quantities[0], k), f);
                    put3(at(g.quantities[1], k), m);
                    put3(at(g.quantities[2], k), F);
                    put3(at(g.quantities[3], k), M);
                    break;
                }
                case Group::Kind::element_values: {
                    int nv = e.elements()[g.source[k]]->output_values(v);
                    int np = -1;  // evaluation points, asked for once if a quantity needs them
                    for (Quantity& x : g.quantities) {
                        double* p = at(x, k);
                        const int col = x.columns.empty() ? x.column : x.columns[k];
                        if (x.point >= 0) {
                            if (np < 0) np = g.points[k] ? g.points[k]->points(px, pR) : 0;
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

// HDF5 sink (see hdf5_output.hpp and docs/hdf5-schema.md), on the HDF5 C API.
#include "output/hdf5_output.hpp"

#include <hdf5.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "output/block_sink.hpp"
#include "output/hdf5_error.hpp"
#include "output/output_error.hpp"
#include "output/xdmf_output.hpp"

namespace mbs::output {

namespace {

constexpr int schema_version = 1;

// A quantity's description; when its entities declare different ones (Quantity::descriptions),
// the distinct ones in order of first appearance, separated by " | ".
std::string joined_descriptions(const Quantity& q) {
    if (q.descriptions.empty()) return q.description;
    std::vector<std::string> seen;
    std::string out;
    for (const std::string& d : q.descriptions) {
        if (std::find(seen.begin(), seen.end(), d) != seen.end()) continue;
        out += (seen.empty() ? "" : " | ") + d;
        seen.push_back(d);
    }
    return out;
}

hid_t latest_format();

class Hdf5Output final : public BlockSink {
  public:
    Hdf5Output(const Model& m, std::string path, const SinkOptions& o, int compression)
        : BlockSink(m, std::move(path), o, std::size_t{8} << 20),
          level_(std::clamp(compression, 0, 9)) {
        // A file whose writes failed (a full disk) does not close: H5Fclose fails, and HDF5's
        // clean-up at exit then crashed in H5F__close_cb (signal 11 after the error message).
        // When the process exits after the run, HDF5 is told not to clean up (as for NetCDF,
        // netcdf_output.hpp); every file is closed explicitly before.
        if (o.exit_after_run) H5dont_atexit();
    }
    ~Hdf5Output() override {
        shutdown();
        std::lock_guard<std::mutex> lib(library_lock());
        close();
    }

  private:
    void create() override;
    void define(const Results& r) override;
    bool defined_before_first_step() const override { return true; }
    void write(const Results& r) override;
    void write_block(const Results& r);
    void finish(const std::string& status) override;

    // why: HDF5's reason, when taken before later calls cleared its error stack.
    hid_t check(hid_t id, const std::string& what, std::string why = {}) const {
        if (id < 0) {
            if (why.empty()) why = hdf5_error_reason();
            failed_ = true;
            throw OutputError("HDF5 output '" + path() + "': cannot write " + what +
                              (why.empty() ? "" : ": " + why));
        }
        return id;
    }
    // A scalar attribute, a variable-length UTF-8 string (h5py reads it as str).
    void attr_text(hid_t obj, const char* name, const std::string& value);
    // A scalar attribute: `value` of memory type `mem`, stored as `file_type`.
    void attr_scalar(hid_t obj, const char* name, hid_t file_type, hid_t mem, const void* value);
    void attr_double(hid_t obj, const char* name, double value) {
        attr_scalar(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
    }
    void attr_long(hid_t obj, const char* name, long value) {
        attr_scalar(obj, name, H5T_STD_I64LE, H5T_NATIVE_LONG, &value);
    }
    // A dataset (time, dims...) of `type`, extendible along time, chunked and compressed.
    hid_t series(hid_t parent, const char* name, hid_t type, int rank, const hsize_t* dims,
                 int chunk_rows);
    hid_t strings(hid_t parent, const char* name, const std::vector<std::string>& v);
    // Dimension scales (the HDF5 DS API, as NetCDF-4 and h5netcdf/xarray read them): `scale`
    // becomes dimension `dim`, attached to axis `axis` of `d`.
    // A fixed-size int64 (rank 1) or float64 (rank 2, n x 3) dataset, written at once.
    hid_t fixed(hid_t parent, const char* name, std::size_t n, const long* v);
    hid_t fixed3(hid_t parent, const char* name, std::size_t n, const double* v);
    void write_connectivity(const std::vector<long>& node_labels);
    void set_scale(hid_t scale, const char* dim);
    void attach(hid_t d, hid_t scale, unsigned axis, const char* what);
    // The coordinate of a group's component axis of size ncomp (created once per group).
    hid_t component_scale(hid_t gid, const Group& g, int ncomp, std::map<int, hid_t>& made);
    void append(const Results& r, hid_t dset, hid_t memtype, int rank, const hsize_t* dims,
                const void* data);
    void close();

    int level_;
    hid_t file_ = -1;
    hid_t time_ = -1, step_ = -1, dt_ = -1, iter_ = -1;
    std::vector<std::vector<hid_t>> dsets_;  // [group][quantity]
    mutable bool failed_ = false;            // a write failed: the file is not closed (close())
    std::vector<hid_t> groups_;
    bool xdmf_ = false;  // PREFIX.xmf is written at the end (the model has structural nodes)
    XdmfMesh mesh_;
};

// The name of a group's entity dimension, also its coordinate variable (the entities' labels):
// node, joint, force, internal_force, couple, ..., beam, element (module elements).
std::string entity_dimension(const Group& g) {
    if (!g.dimension.empty()) return g.dimension;
    if (g.kind == Group::Kind::nodes || g.kind == Group::Kind::node_accelerations ||
        g.kind == Group::Kind::node_momenta)
        return "node";
    if (g.name.rfind("beam", 0) == 0) return "beam";
    if (g.name.size() > 1 && g.name.back() == 's') return g.name.substr(0, g.name.size() - 1);
    return "element";
}

void Hdf5Output::attr_text(hid_t obj, const char* name, const std::string& value) {
    if (H5Aexists(obj, name) > 0) H5Adelete(obj, name);
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = check(H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT), name);
    const char* p = value.c_str();
    H5Awrite(a, type, &p);
    H5Aclose(a);
    H5Sclose(space);
    H5Tclose(type);
}

void Hdf5Output::attr_scalar(hid_t obj, const char* name, hid_t file_type, hid_t mem,
                             const void* value) {
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = check(H5Acreate2(obj, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT), name);
    H5Awrite(a, mem, value);
    H5Aclose(a);
    H5Sclose(space);
}

hid_t Hdf5Output::series(hid_t parent, const char* name, hid_t type, int rank, const hsize_t* dims,
                         int chunk_rows) {
    hsize_t cur[3] = {0, 1, 1}, max[3] = {H5S_UNLIMITED, 1, 1}, chunk[3] = {1, 1, 1};
    hsize_t row_bytes = 8;
    for (int i = 1; i < rank; ++i) {
        cur[i] = max[i] = chunk[i] = dims[i - 1];
        row_bytes *= dims[i - 1];
    }
    // Uncompressed: one chunk per part of a block (BlockSink hands off whole blocks or whole
    // parts: a write is then whole chunks, written straight from the block, not through the
    // chunk cache). Compressed, or written row by row (`sync`): about 256 kB chunks through the
    // chunk cache.
    const bool direct = level_ == 0 && !options().sync;
    hsize_t rows = direct ? static_cast<hsize_t>(std::max(chunk_rows, 1))
                          : std::max<hsize_t>(1, (256 * 1024) / row_bytes);
    chunk[0] = std::max<hsize_t>(rows, 1);
    hid_t space = H5Screate_simple(rank, cur, max);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, rank, chunk);
    // Deflate without shuffle: on these series (slowly varying doubles) shuffle made deflate
    // slower and compressed less (measured on chain_200: 2.8x at level 1).
    if (level_ > 0) H5Pset_deflate(dcpl, static_cast<unsigned>(level_));
    H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
    hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
    if (direct) H5Pset_chunk_cache(dapl, 0, 0, 1.0);
    hid_t d = check(H5Dcreate2(parent, name, type, space, H5P_DEFAULT, dcpl, dapl), name);
    H5Pclose(dapl);
    H5Pclose(dcpl);
    H5Sclose(space);
    return d;
}

hid_t Hdf5Output::strings(hid_t parent, const char* name, const std::vector<std::string>& v) {
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    hsize_t n = v.size();
    hid_t space = H5Screate_simple(1, &n, nullptr);
    hid_t d =
        check(H5Dcreate2(parent, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), name);
    std::vector<const char*> p;
    for (const auto& s : v) p.push_back(s.c_str());
    if (!p.empty()) H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, p.data());
    H5Sclose(space);
    H5Tclose(type);
    return d;
}

hid_t Hdf5Output::fixed(hid_t parent, const char* name, std::size_t n, const long* v) {
    hsize_t dims[1] = {n};
    hid_t space = H5Screate_simple(1, dims, nullptr);
    hid_t d =
        check(H5Dcreate2(parent, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
              name);
    if (n > 0) H5Dwrite(d, H5T_NATIVE_LONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Sclose(space);
    return d;
}

hid_t Hdf5Output::fixed3(hid_t parent, const char* name, std::size_t n, const double* v) {
    hsize_t dims[2] = {n, 3};
    hid_t space = H5Screate_simple(2, dims, nullptr);
    hid_t d = check(
        H5Dcreate2(parent, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        name);
    if (n > 0) H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Sclose(space);
    return d;
}

// /connectivity (docs/hdf5-schema.md "Connectivity"): every element of the model, the structural
// nodes it joins and its point on each. Written once, in the definitions; two dimensions:
// `element` (the element labels) and `ref` (0..R-1, the node references of all elements).
void Hdf5Output::write_connectivity(const std::vector<long>& node_labels) {
    const Connectivity c = element_connectivity(model(), node_labels);
    hid_t gid = check(H5Gcreate2(file_, "connectivity", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                      "connectivity");
    const std::size_t ne = c.labels.size(), nr = c.ref_node.size();
    hid_t el = fixed(gid, "element", ne, c.labels.data());
    set_scale(el, "element");
    attr_text(el, "description", "deck label of the element (every element, in deck order)");
    std::vector<long> refs(nr);
    for (std::size_t k = 0; k < nr; ++k) refs[k] = static_cast<long>(k);
    hid_t ref = fixed(gid, "ref", nr, refs.data());
    set_scale(ref, "ref");
    attr_text(ref, "description", "node reference number (0-based), all elements' in order");
    const std::pair<hid_t, const char*> per_element[] = {
        {strings(gid, "category", c.categories),
         "element category: joint, body, beam3, force, ..."},
        {strings(gid, "types", c.types), "card type: revolute hinge, rod, body, ..."},
        {strings(gid, "names", c.names), "the element's name in the deck, else category and label"},
        {fixed(gid, "first_ref", ne, c.first.data()),
         "index along ref of the element's first node reference"},
        {fixed(gid, "ref_count", ne, c.count.data()),
         "number of structural nodes the element references (0: none)"}};
    for (const auto& [d, text] : per_element) {
        attr_text(d, "description", text);
        attach(d, el, 0, "connectivity");
        H5Dclose(d);
    }
    std::vector<double> off(3 * nr);
    for (std::size_t k = 0; k < nr; ++k)
        for (int i = 0; i < 3; ++i) off[3 * k + static_cast<std::size_t>(i)] = c.ref_offset[k][i];
    const std::pair<hid_t, const char*> per_ref[] = {
        {fixed(gid, "node", nr, c.ref_node.data()), "deck label of the structural node"},
        {fixed(gid, "node_index", nr, c.ref_index.data()),
         "index of the node along /nodes/node; -1: a node without output"},
        {fixed3(gid, "offset", nr, off.data()),
         "the element's point on the node, in the node frame: X + R offset (m)"}};
    for (const auto& [d, text] : per_ref) {
        attr_text(d, "description", text);
        attach(d, ref, 0, "connectivity");
        H5Dclose(d);
    }
    std::map<int, hid_t> components;
    Group pseudo;
    pseudo.name = "connectivity";
    hid_t comp = component_scale(gid, pseudo, 3, components);
    hid_t od = check(H5Dopen2(gid, "offset", H5P_DEFAULT), "offset");
    attach(od, comp, 1, "offset");
    H5Dclose(od);
    H5Dclose(comp);
    H5Dclose(ref);
    H5Dclose(el);
    H5Gclose(gid);
}

void Hdf5Output::set_scale(hid_t scale, const char* dim) {
    check(H5DSset_scale(scale, dim), std::string("dimension scale ") + dim);
}

void Hdf5Output::attach(hid_t d, hid_t scale, unsigned axis, const char* what) {
    check(H5DSattach_scale(d, scale, axis), std::string("dimension scale of ") + what);
}

// 3: `component` (x, y, z); 9: `matrix_component` (xx, xy, ..., row-major as R); module
// elements' output: `column` (1..n, the .usr columns); other widths: `component_<n>` (1..n).
hid_t Hdf5Output::component_scale(hid_t gid, const Group& g, int ncomp,
                                  std::map<int, hid_t>& made) {
    if (auto it = made.find(ncomp); it != made.end()) return it->second;
    const bool columns = g.name == "user_defined";
    const bool numbered = columns || g.kind == Group::Kind::values;  // no x, y, z meaning
    hid_t d = -1;
    std::string dim;
    if (!numbered && (ncomp == 3 || ncomp == 9)) {
        dim = ncomp == 3 ? "component" : "matrix_component";
        const char* xyz[3] = {"x", "y", "z"};
        std::vector<std::string> names;
        for (int i = 0; i < (ncomp == 3 ? 1 : 3); ++i)
            for (int j = 0; j < 3; ++j)
                names.push_back(ncomp == 3 ? std::string(xyz[j]) : std::string(xyz[i]) + xyz[j]);
        d = strings(gid, dim.c_str(), names);
    } else {
        dim = columns ? "column" : "component_" + std::to_string(ncomp);
        hsize_t n = static_cast<hsize_t>(ncomp);
        std::vector<long> index(static_cast<std::size_t>(ncomp));
        for (int i = 0; i < ncomp; ++i) index[static_cast<std::size_t>(i)] = i + 1;
        hid_t space = H5Screate_simple(1, &n, nullptr);
        d = check(H5Dcreate2(gid, dim.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT),
                  dim);
        H5Dwrite(d, H5T_NATIVE_LONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, index.data());
        H5Sclose(space);
    }
    set_scale(d, dim.c_str());
    attr_text(d, "description",
              columns ? "column of the element's .usr line (1: the first value after the label)"
              : ncomp == 3 && !numbered ? "vector component in the quantity's frame"
              : ncomp == 9 && !numbered ? "3x3 matrix component, row-major (xy: row x, column y)"
                                        : "component number (1..n)");
    made[ncomp] = d;
    return d;
}

// The latest file format (HDF5 1.10), needed by SWMR.
hid_t latest_format() {
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
    return fapl;
}

void Hdf5Output::create() {
    // Errors are reported by the exceptions, not by HDF5's own printing of its error stack (a
    // setting of each thread: again in define(), on the writer thread).
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    hid_t fapl = latest_format();
    // A previous run's .xmf would describe another file: it goes now, the new one comes at the end.
    std::remove(xdmf_path(path()).c_str());
    file_ = H5Fcreate(file_path().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    check(file_, "the file");
}

void Hdf5Output::define(const Results& res) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    const SinkOptions& opt = options();
    const int rows = res.part();  // chunk rows when uncompressed (see series())
    attr_text(file_, "schema", "mbsolve-results");
    attr_long(file_, "schema_version", schema_version);
    attr_text(file_, "mbsolve_version", opt.version);
    attr_text(file_, "deck", opt.deck);
    attr_text(file_, "title", model().control.title.value_or(""));
    // Decks are unit-free: nothing is converted. The datasets' `units` are MBDyn's (SI) names.
    attr_text(file_, "units",
              "the deck's units (decks are unit-free; nothing is converted): each dataset's "
              "units attribute names the SI unit, right for a deck written in m, kg, s; angles "
              "in rad (Euler angles are not stored)");
    attr_text(
        file_, "orientation_convention",
        "R is the 3x3 rotation matrix of the node frame in the global frame, stored row-major "
        "in the last axis (component 3 i + j is R[i][j]): x_global = X + R x_node");
    attr_text(file_, "run_status", "running");
    // Solver settings, as the run used them.
    hid_t sg = check(H5Gcreate2(file_, "solver", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "/solver");
    const RunSettings& s = opt.settings;
    attr_text(sg, "method", s.method);
    attr_double(sg, "rho", s.rho);
    attr_double(sg, "rho_algebraic", s.rho_algebraic);
    attr_double(sg, "initial_time", s.initial_time);
    attr_double(sg, "final_time", s.final_time);
    attr_double(sg, "time_step", s.time_step);
    attr_double(sg, "tolerance", s.tolerance);
    attr_long(sg, "max_iterations", s.max_iterations);
    attr_text(sg, "linear_solver", s.linear_solver);
    attr_long(sg, "strategy_factor", s.strategy_factor ? 1 : 0);
    H5Gclose(sg);

    hsize_t none[1] = {0};
    time_ = series(file_, "time", H5T_IEEE_F64LE, 1, none, rows);
    attr_text(time_, "units", "s");
    attr_text(time_, "description", "simulation time of each output step");
    step_ = series(file_, "step", H5T_STD_I64LE, 1, none, rows);
    attr_text(step_, "description",
              "time step number (0: initial state after the derivatives phase)");
    dt_ = series(file_, "timestep", H5T_IEEE_F64LE, 1, none, rows);
    attr_text(dt_, "units", "s");
    attr_text(dt_, "description", "size of the step that reached this time");
    iter_ = series(file_, "iterations", H5T_STD_I32LE, 1, none, rows);
    attr_text(iter_, "description", "Newton iterations of the step");
    // /time is the coordinate of the `time` dimension (unlimited) of every series.
    set_scale(time_, "time");
    for (hid_t d : {step_, dt_, iter_}) attach(d, time_, 0, "/step");

    for (const Group& g : res.groups()) {
        hid_t gid =
            check(H5Gcreate2(file_, g.name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), g.name);
        groups_.push_back(gid);
        hsize_t n = static_cast<hsize_t>(g.size());
        hid_t space = H5Screate_simple(1, &n, nullptr);
        // The entity axis: a coordinate variable named after the dimension (node, joint, ...)
        // holding the labels, and `labels` with the same values (schema 1's name).
        const std::string dim = entity_dimension(g);
        hid_t coord = check(H5Dcreate2(gid, dim.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT,
                                       H5P_DEFAULT, H5P_DEFAULT),
                            dim);
        if (n > 0) H5Dwrite(coord, H5T_NATIVE_LONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, g.labels.data());
        set_scale(coord, dim.c_str());
        attr_text(coord, "description", "deck label of the entity");
        hid_t lab = check(
            H5Dcreate2(gid, "labels", H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
            "labels");
        if (n > 0) H5Dwrite(lab, H5T_NATIVE_LONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, g.labels.data());
        attr_text(lab, "description", "deck label of the entity (the same as " + dim + ")");
        H5Sclose(space);
        std::vector<hid_t> per_entity = {lab, strings(gid, "names", g.names),
                                         strings(gid, "types", g.types)};
        attr_text(per_entity[1], "description",
                  "the entity's name in the deck, else category and label");
        attr_text(per_entity[2], "description", "card type");
        if (g.kind == Group::Kind::nodes) {
            per_entity.push_back(strings(gid, "orientation_description", g.orientation));
            attr_text(per_entity.back(), "description",
                      "orientation description of the node (text and NetCDF files)");
        } else if (g.kind == Group::Kind::joints) {
            per_entity.push_back(strings(gid, "orientation_description", g.orientation));
            attr_text(per_entity.back(), "description",
                      "orientation description of the joint's relative rotation (E, Phi or R); "
                      "empty: the joint has none");
        }
        if (g.kind == Group::Kind::values) {
            per_entity.push_back(fixed(gid, "joint_label", g.joints.size(), g.joints.data()));
            attr_text(per_entity.back(), "description", "deck label of the joint (0: none)");
        }
        for (hid_t d : per_entity) {
            attach(d, coord, 0, "labels");
            H5Dclose(d);
        }
        attr_text(gid, "netcdf_prefix", g.nc_prefix);
        auto& ds = dsets_.emplace_back();
        std::map<int, hid_t> components;
        for (const Quantity& q : g.quantities) {
            hsize_t dims[2] = {n, static_cast<hsize_t>(q.ncomp)};
            hid_t d = series(gid, q.name.c_str(), H5T_IEEE_F64LE, 3, dims, rows);
            attr_text(d, "units", q.units);
            attr_text(d, "frame", q.frame);
            attr_text(d, "description", joined_descriptions(q));
            attach(d, time_, 0, q.name.c_str());
            attach(d, coord, 1, q.name.c_str());
            attach(d, component_scale(gid, g, q.ncomp, components), 2, q.name.c_str());
            ds.push_back(d);
        }
        for (const auto& [ncomp, d] : components) H5Dclose(d);
        H5Dclose(coord);
        if (g.kind == Group::Kind::nodes) {
            xdmf_ = true;
            mesh_.node_labels = g.labels;
            mesh_.segments = xdmf_segments(model(), g.labels);
            for (const Quantity& q : g.quantities) mesh_.data.emplace_back(q.name, q.ncomp);
        }
    }
    std::vector<long> node_labels;
    for (const Group& g : res.groups())
        if (g.kind == Group::Kind::nodes) node_labels = g.labels;
    write_connectivity(node_labels);
    // Everything is defined: from now on the file is written in SWMR mode, in which HDF5 orders
    // its writes so that the file on disk is consistent at every moment (a reader may follow the
    // run; a killed run leaves a readable file).
    for (hid_t g : groups_) H5Gclose(g);
    groups_.clear();
    check(H5Fflush(file_, H5F_SCOPE_GLOBAL), "the file (flush)");
    check(H5Fstart_swmr_write(file_), "the file (SWMR mode)");
}

// Extends dset along time by the buffered rows and writes them (rank 1 or 3).
void Hdf5Output::append(const Results& res, hid_t dset, hid_t memtype, int rank,
                        const hsize_t* dims, const void* data) {
    const hsize_t t0 = static_cast<hsize_t>(res.first_row());
    const hsize_t n = static_cast<hsize_t>(res.rows());
    hsize_t size[3] = {t0 + n, 1, 1}, start[3] = {t0, 0, 0}, count[3] = {n, 1, 1};
    for (int i = 1; i < rank; ++i) size[i] = count[i] = dims[i - 1];
    check(H5Dset_extent(dset, size), "a dataset (extent)");
    hid_t fs = H5Dget_space(dset);
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, nullptr, count, nullptr);
    hid_t ms = H5Screate_simple(rank, count, nullptr);
    const herr_t st = H5Dwrite(dset, memtype, ms, fs, H5P_DEFAULT, data);
    const std::string why = st < 0 ? hdf5_error_reason() : std::string();  // H5Sclose clears it
    H5Sclose(ms);
    H5Sclose(fs);
    check(st, "a dataset", why);
}

void Hdf5Output::write(const Results& res) {
    if (res.rows() == 0 || file_ < 0) return;
    try {
        write_block(res);
    } catch (const OutputError&) {
        // A write failed (a full disk): some of this block's rows may not be on disk, though
        // the extents that HDF5 did write may cover them (they then read as zeros). /time, whose
        // length readers take for the number of complete output steps, goes back to the steps
        // of the blocks written before (best effort; the failure's message stands).
        hsize_t rows = static_cast<hsize_t>(res.first_row());
        H5Dset_extent(time_, &rows);
        H5Fflush(file_, H5F_SCOPE_GLOBAL);
        throw;
    }
}

void Hdf5Output::write_block(const Results& res) {
    const auto& groups = res.groups();
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const Group& g = groups[gi];
        for (std::size_t qi = 0; qi < g.quantities.size(); ++qi) {
            const Quantity& q = g.quantities[qi];
            hsize_t dims[2] = {static_cast<hsize_t>(g.size()), static_cast<hsize_t>(q.ncomp)};
            append(res, dsets_[gi][qi], H5T_NATIVE_DOUBLE, 3, dims, q.buf);
        }
    }
    // /time last: its length is the number of complete output steps, also in a killed run.
    append(res, step_, H5T_NATIVE_LONG, 1, nullptr, res.step().data());
    append(res, dt_, H5T_NATIVE_DOUBLE, 1, nullptr, res.timestep().data());
    append(res, iter_, H5T_NATIVE_INT, 1, nullptr, res.iterations().data());
    append(res, time_, H5T_NATIVE_DOUBLE, 1, nullptr, res.time().data());
    check(H5Fflush(file_, H5F_SCOPE_GLOBAL), "the file (flush)");
}

// After a failed write (a full disk) the file is left as the failure left it, as a killed run's:
// closing it would write the superblock with an end of file past the data that could not be
// written, and readers would refuse the file as truncated (seen with a 4 MB file size limit);
// left open, SWMR readers read it up to its last complete block. The handles go with the
// process (H5dont_atexit: HDF5 does not try to close the file again at exit).
void Hdf5Output::close() {
    if (file_ < 0) return;
    if (failed_) {
        dsets_.clear();
        groups_.clear();
        file_ = time_ = step_ = dt_ = iter_ = -1;
        return;
    }
    for (auto& ds : dsets_)
        for (hid_t d : ds) H5Dclose(d);
    dsets_.clear();
    for (hid_t g : groups_) H5Gclose(g);
    groups_.clear();
    for (hid_t d : {time_, step_, dt_, iter_})
        if (d >= 0) H5Dclose(d);
    time_ = step_ = dt_ = iter_ = -1;
    H5Fclose(file_);
    file_ = -1;
}

// SWMR mode cannot change attributes: the status is written after closing, in normal mode.
void Hdf5Output::finish(const std::string& status) {
    if (file_ < 0) return;
    close();
    hid_t fapl = latest_format();
    file_ = H5Fopen(file_path().c_str(), H5F_ACC_RDWR, fapl);
    H5Pclose(fapl);
    check(file_, "the file (reopened for the run status)");
    attr_text(file_, "run_status", status.empty() ? "completed" : status);
    std::vector<double> times;
    if (xdmf_) {
        hid_t t = check(H5Dopen2(file_, "time", H5P_DEFAULT), "/time (reopened)");
        hid_t space = H5Dget_space(t);
        hsize_t n = 0;
        H5Sget_simple_extent_dims(space, &n, nullptr);
        times.resize(n);
        if (n > 0)
            check(H5Dread(t, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, times.data()),
                  "/time (read)");
        H5Sclose(space);
        H5Dclose(t);
    }
    H5Fclose(file_);
    file_ = -1;
    // The XDMF description of the file's steps (nodes and links, docs/hdf5-schema.md).
    if (xdmf_) {
        try {
            write_xdmf(xdmf_path(path()), path(), mesh_, times);
        } catch (const std::runtime_error& e) {
            throw OutputError(e.what());
        }
    }
}

}  // namespace

std::unique_ptr<OutputSink> make_hdf5_output(const Model& m, const std::string& path,
                                             const SinkOptions& o, int compression) {
    return std::make_unique<Hdf5Output>(m, path, o, compression);
}

}  // namespace mbs::output

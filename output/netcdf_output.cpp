// NetCDF sink (see netcdf_output.hpp), on the NetCDF-C API.
#include "output/netcdf_output.hpp"

#include <netcdf.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "output/block_sink.hpp"
#include "output/output_error.hpp"

namespace mbs::output {

namespace {

class NetcdfOutput final : public BlockSink {
public:
    // Blocks of up to 32 MB: each block costs one call per variable, and MBDyn's layout has
    // several variables per node and joint.
    NetcdfOutput(const Model& m, std::string path, const SinkOptions& o)
        : BlockSink(m, std::move(path), o, std::size_t{32} << 20) {}
    ~NetcdfOutput() override {
        shutdown();
        std::lock_guard<std::mutex> lib(library_lock());
        if (ncid_ >= 0) nc_close(ncid_);
    }

private:
    void create() override;
    void define(const Results& r) override;
    void write(const Results& r) override;
    void finish(const std::string& status) override;

    void check(int status, const char* what) const {
        if (status != NC_NOERR)
            throw OutputError("NetCDF output '" + path() + "': " + what + ": " + nc_strerror(status));
    }
    int def_var(const std::string& name, nc_type type, bool vec, int ncomp, const char* units,
                const char* desc, const char* tname);
    void text_att(int var, const char* name, const std::string& value) {
        check(nc_put_att_text(ncid_, var, name, value.size(), value.c_str()), name);
    }

    int ncid_ = -1;
    int dim_time_ = -1, dim_vec3_ = -1;
    std::map<int, int> dim_n_;  // other component counts (module elements' output): "Vec<n>"
    int var_time_ = -1, var_step_ = -1, var_dt_ = -1;
    std::size_t chunk_ = 1;
    // varid_[group][quantity][entity]; for the node orientation, the variable per node.
    std::vector<std::vector<std::vector<int>>> varid_;
    std::vector<double> scratch_;  // capacity x 9 values: one variable's block
    std::vector<int> steps_;       // capacity step numbers as NetCDF ints
};

int NetcdfOutput::def_var(const std::string& name, nc_type type, bool vec, int ncomp,
                          const char* units, const char* desc, const char* tname) {
    int dims[3] = {dim_time_, dim_vec3_, dim_vec3_};
    int nd = !vec || ncomp == 1 ? 1 : ncomp == 9 ? 3 : 2;
    if (nd == 2 && ncomp != 3) {
        auto [it, added] = dim_n_.try_emplace(ncomp, -1);
        if (added) {
            const std::string dn = "Vec" + std::to_string(ncomp);
            check(nc_def_dim(ncid_, dn.c_str(), static_cast<std::size_t>(ncomp), &it->second), dn.c_str());
        }
        dims[1] = it->second;
    }
    int id = -1;
    check(nc_def_var(ncid_, name.c_str(), type, nd, dims, &id), name.c_str());
    std::size_t chunks[3] = {chunk_, nd == 2 ? static_cast<std::size_t>(ncomp) : 3, 3};
    check(nc_def_var_chunking(ncid_, id, NC_CHUNKED, chunks), name.c_str());
    // Blocks are written whole: no chunk cache (its default per variable costs memory and
    // start-up time with thousands of variables).
    check(nc_set_var_chunk_cache(ncid_, id, 0, 0, 0.0f), name.c_str());
    text_att(id, "units", units);
    text_att(id, "type", tname);
    text_att(id, "description", desc);
    return id;
}

void NetcdfOutput::create() {
    // No HDF5 dimension-scale attachment and no attribute creation order: with thousands of
    // variables on the time dimension both make the definitions quadratic in their number
    // (netCDF readers do not need them: the file keeps netCDF's own dimension ids).
    // The default chunk cache of every new variable (set when it is defined) is then empty too.
    check(nc_set_chunk_cache(0, 1, 0.0f), "chunk cache");
    check(nc_create(path().c_str(), NC_CLOBBER | NC_NETCDF4 | NC_NODIMSCALE_ATTACH | NC_NOATTCREORD, &ncid_),
          "cannot create the file");
}

void NetcdfOutput::define(const Results& res) {
    const SinkOptions& opt = options();
    chunk_ = static_cast<std::size_t>(opt.sync ? 16 : std::clamp(res.capacity(), 16, 1024));
    int old_fill = 0;
    check(nc_set_fill(ncid_, NC_NOFILL, &old_fill), "fill mode");
    check(nc_def_dim(ncid_, "time", NC_UNLIMITED, &dim_time_), "time dimension");
    check(nc_def_dim(ncid_, "Vec3", 3, &dim_vec3_), "Vec3 dimension");
    dim_n_.clear();
    text_att(NC_GLOBAL, "source", "mbsolve " + opt.version);
    text_att(NC_GLOBAL, "deck", opt.deck);
    text_att(NC_GLOBAL, "run_status", "running");
    var_time_ = def_var("time", NC_DOUBLE, false, 1, "s", "simulation time", "doublereal");
    var_step_ = def_var("run.step", NC_INT, false, 1, "-", "time step index", "integer");
    var_dt_ = def_var("run.timestep", NC_DOUBLE, false, 1, "s", "integration time step", "doublereal");
    double dummy[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, tmp[9];
    // Entity by entity, as MBDyn: node.struct.1.X, node.struct.1.E, ..., node.struct.2.X, ...
    varid_.clear();
    for (const Group& g : res.groups()) {
        auto& gv = varid_.emplace_back(g.quantities.size(), std::vector<int>(g.size(), -1));
        for (int k = 0; k < g.size(); ++k) {
            std::string base = g.nc_prefix + "." + std::to_string(g.labels[k]) + ".";
            for (std::size_t qi = 0; qi < g.quantities.size(); ++qi) {
                const Quantity& q = g.quantities[qi];
                if (g.kind == Group::Kind::nodes && q.name == "R") {
                    // One orientation variable per node, as its description asks (as .mov).
                    const std::string oname = orientation_values(g.orientation[k], dummy, tmp);
                    const bool matrix = oname == "R";
                    std::string desc = matrix ? q.description
                                       : oname == "Phi"
                                           ? "global orientation vector (Phi_X, Phi_Y, Phi_Z)"
                                           : "global orientation Euler angles (" + g.orientation[k] + ")";
                    gv[qi][k] = def_var(base + oname, NC_DOUBLE, true, matrix ? 9 : 3,
                                        matrix ? "-" : oname == "Phi" ? "radian" : "deg", desc.c_str(),
                                        matrix ? "Mat3x3" : "Vec3");
                    continue;
                }
                const std::string tname = q.ncomp == 9   ? "Mat3x3"
                                          : q.ncomp == 1 ? "doublereal"
                                                         : "Vec" + std::to_string(q.ncomp);
                gv[qi][k] = def_var(base + q.name, NC_DOUBLE, true, q.ncomp, q.units, q.description.c_str(),
                                    tname.c_str());
            }
        }
    }
    check(nc_enddef(ncid_), "end of definitions");
    std::size_t width = 9;
    for (const Group& g : res.groups())
        for (const Quantity& q : g.quantities) width = std::max(width, static_cast<std::size_t>(q.ncomp));
    scratch_.assign(static_cast<std::size_t>(res.capacity()) * width, 0.0);
    steps_.assign(res.capacity(), 0);
}

// Writes a block of rows: each variable gets one (rows x components) block.
void NetcdfOutput::write(const Results& res) {
    const std::size_t n = static_cast<std::size_t>(res.rows());
    if (n == 0 || ncid_ < 0) return;
    const std::size_t t0 = static_cast<std::size_t>(res.first_row());
    std::size_t start[3] = {t0, 0, 0}, count[3] = {n, 3, 3};
    check(nc_put_vara_double(ncid_, var_time_, start, count, res.time().data()), "time");
    check(nc_put_vara_double(ncid_, var_dt_, start, count, res.timestep().data()), "run.timestep");
    for (std::size_t r = 0; r < n; ++r) steps_[r] = static_cast<int>(res.step()[r]);
    check(nc_put_vara_int(ncid_, var_step_, start, count, steps_.data()), "run.step");
    const auto& groups = res.groups();
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const Group& g = groups[gi];
        const std::size_t ne = static_cast<std::size_t>(g.size());
        for (std::size_t qi = 0; qi < g.quantities.size(); ++qi) {
            const Quantity& q = g.quantities[qi];
            const std::size_t nc = static_cast<std::size_t>(q.ncomp);
            const bool orientation = g.kind == Group::Kind::nodes && q.name == "R";
            for (std::size_t k = 0; k < ne; ++k) {
                std::size_t width = nc;
                for (std::size_t r = 0; r < n; ++r) {
                    const double* src = q.buf.data() + (r * ne + k) * nc;
                    if (orientation) {
                        const char* on = orientation_values(g.orientation[k], src, &scratch_[r * 9]);
                        width = on[0] == 'R' ? 9 : 3;
                        // Compact the rows: 3 values each unless it is the matrix.
                        if (width == 3)
                            for (int c = 0; c < 3; ++c) scratch_[r * 3 + c] = scratch_[r * 9 + c];
                    } else {
                        for (std::size_t c = 0; c < nc; ++c) scratch_[r * nc + c] = src[c];
                    }
                }
                // Matrices (n x 3 x 3) and vectors (n x width); count[1] unused by scalars.
                count[1] = width == 9 ? 3 : width;
                check(nc_put_vara_double(ncid_, varid_[gi][qi][k], start, count, scratch_.data()),
                      q.name.c_str());
                count[1] = 3;
            }
        }
    }
    if (options().sync) check(nc_sync(ncid_), "sync");
}

void NetcdfOutput::finish(const std::string& status) {
    if (ncid_ < 0) return;
    // NetCDF-4 takes an attribute in data mode; nc_close then writes the metadata (no separate
    // nc_redef/nc_enddef pass over the variables).
    text_att(NC_GLOBAL, "run_status", status.empty() ? "completed" : status);
    int id = ncid_;
    ncid_ = -1;
    check(nc_close(id), "close");
}

}  // namespace

std::unique_ptr<OutputSink> make_netcdf_output(const Model& m, const std::string& path,
                                               const SinkOptions& o) {
    return std::make_unique<NetcdfOutput>(m, path, o);
}

}  // namespace mbs::output

// NetCDF file of a modal analysis, with the NetCDF-C API (netCDF-4 format, as output/).
#include "output/modal_netcdf.hpp"

#include <netcdf.h>

#include <cmath>
#include <complex>
#include <stdexcept>
#include <vector>

namespace mbs::output {

namespace {

class NcFile {
  public:
    explicit NcFile(const std::string& path) : path_(path) {
        check(nc_create(path.c_str(), NC_CLOBBER | NC_NETCDF4, &id_), "cannot create the file");
    }
    ~NcFile() {
        if (id_ >= 0) nc_close(id_);
    }
    NcFile(const NcFile&) = delete;
    NcFile& operator=(const NcFile&) = delete;

    void check(int status, const std::string& what) const {
        if (status != NC_NOERR)
            throw std::invalid_argument("NetCDF file '" + path_ + "': " + what + ": " +
                                        nc_strerror(status));
    }
    int dim(const char* name, std::size_t n) {
        int d = -1;
        check(nc_def_dim(id_, name, n, &d), name);
        return d;
    }
    void text(int var, const char* name, const std::string& value) {
        check(nc_put_att_text(id_, var, name, value.size(), value.c_str()), name);
    }
    // A variable over `dims` with the attributes units, type and description (output/'s set).
    int var(const char* name, nc_type type, std::vector<int> dims, const char* units,
            const char* tname, const std::string& description) {
        int v = -1;
        check(nc_def_var(id_, name, type, static_cast<int>(dims.size()), dims.data(), &v), name);
        text(v, "units", units);
        text(v, "type", tname);
        text(v, "description", description);
        return v;
    }
    void enddef() { check(nc_enddef(id_), "end of definitions"); }
    void put(int var, const std::vector<double>& d) {
        if (!d.empty()) check(nc_put_var_double(id_, var, d.data()), "write");
    }
    void put(int var, const std::vector<long long>& d) {
        if (!d.empty()) check(nc_put_var_longlong(id_, var, d.data()), "write");
    }
    void put(int var, const std::string& chars) {
        if (!chars.empty()) check(nc_put_var_text(id_, var, chars.data()), "write");
    }
    void close() {
        const int id = id_;
        id_ = -1;
        check(nc_close(id), "close");
    }

  private:
    std::string path_;
    int id_ = -1;
};

}  // namespace

// Layout (docs/relative-coordinates.md 2.4): dimensions mode (N = 2 nu, sorted by frequency as in
// PREFIX.modal), coordinate (nq, as --tree numbers them), axis_strlen (8); variables
// modal.eigenvalue_real, modal.eigenvalue_imag, modal.frequency_Hz, modal.damping_percent,
// modal.damped_frequency_Hz (mode), modal.shape_real, modal.shape_imag, modal.shape_modulus,
// modal.shape_phase_deg (mode, coordinate), modal.coordinate.joint_label,
// modal.coordinate.node_label (coordinate, int64), modal.coordinate.axis (coordinate, axis_strlen:
// char).
void write_modal_netcdf(const std::string& deck_path, const ModalColumns& cols,
                        const std::string& path) {
    NcFile f(path);
    const auto n = cols.modes();
    const auto nq = cols.coordinates();
    f.text(NC_GLOBAL, "source", "mbsolve");
    f.text(NC_GLOBAL, "deck", deck_path);
    f.text(NC_GLOBAL, "analysis", "modal (relative coordinates)");
    const int dm = f.dim("mode", n), dq = f.dim("coordinate", nq), ds = f.dim("axis_strlen", 8);
    const std::string about = "mode k sorted by frequency as in PREFIX.modal";
    const int vre = f.var("modal.eigenvalue_real", NC_DOUBLE, {dm}, "1/s", "doublereal",
                          "real part of the eigenvalue; " + about);
    const int vim = f.var("modal.eigenvalue_imag", NC_DOUBLE, {dm}, "rad/s", "doublereal",
                          "imaginary part of the eigenvalue");
    const int vf =
        f.var("modal.frequency_Hz", NC_DOUBLE, {dm}, "Hz", "doublereal", "|lambda| / (2 pi)");
    const int vz = f.var("modal.damping_percent", NC_DOUBLE, {dm}, "%", "doublereal",
                         "-100 Re(lambda) / |lambda| (0 if lambda = 0)");
    const int vfd = f.var("modal.damped_frequency_Hz", NC_DOUBLE, {dm}, "Hz", "doublereal",
                          "|Im(lambda)| / (2 pi)");
    const std::string norm = "; mode k, coordinate i; largest modulus 1 with phase 0";
    const int vsr = f.var("modal.shape_real", NC_DOUBLE, {dm, dq}, "-", "doublereal",
                          "real part of the mode shape" + norm);
    const int vsi = f.var("modal.shape_imag", NC_DOUBLE, {dm, dq}, "-", "doublereal",
                          "imaginary part of the mode shape" + norm);
    const int vsm = f.var("modal.shape_modulus", NC_DOUBLE, {dm, dq}, "-", "doublereal",
                          "modulus of the mode shape" + norm);
    const int vsp = f.var("modal.shape_phase_deg", NC_DOUBLE, {dm, dq}, "deg", "doublereal",
                          "phase of the mode shape" + norm);
    const int vj = f.var("modal.coordinate.joint_label", NC_INT64, {dq}, "-", "integer",
                         "deck label of the joint of the coordinate (0: free node)");
    const int vn = f.var("modal.coordinate.node_label", NC_INT64, {dq}, "-", "integer",
                         "node whose frame the coordinate moves (-1: fictitious)");
    const int va = f.var("modal.coordinate.axis", NC_CHAR, {dq, ds}, "-", "string",
                         "axis of the coordinate as in --tree: Rx/Ry/Rz, Tx/Ty/Tz");
    f.enddef();

    f.put(vre, cols.real);
    f.put(vim, cols.imag);
    f.put(vf, cols.frequency_Hz);
    f.put(vz, cols.damping_percent);
    f.put(vfd, cols.damped_frequency_Hz);
    f.put(vsr, cols.shape_real);
    f.put(vsi, cols.shape_imag);
    f.put(vsm, cols.shape_modulus);
    f.put(vsp, cols.shape_phase_deg);
    f.put(vj, cols.joint_label);
    f.put(vn, cols.node_label);
    f.put(va, cols.axes);
    f.close();
}

}  // namespace mbs::output

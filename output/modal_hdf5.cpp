// HDF5 file of a modal analysis, with the HDF5 C API (one contiguous dataset per quantity).
#include "output/modal_hdf5.hpp"

#include <hdf5.h>

#include <cmath>
#include <complex>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace mbs::output {

namespace {

// Closes an HDF5 handle with the given function on scope exit.
struct Handle {
    hid_t id;
    herr_t (*close)(hid_t);
    ~Handle() {
        if (id >= 0) close(id);
    }
};

// A variable-length UTF-8 string attribute (h5py reads it as str, as the results file's).
void attr_string(hid_t obj, const char* name, const std::string& value) {
    Handle type{H5Tcopy(H5T_C_S1), H5Tclose};
    H5Tset_size(type.id, H5T_VARIABLE);
    H5Tset_cset(type.id, H5T_CSET_UTF8);
    Handle space{H5Screate(H5S_SCALAR), H5Sclose};
    Handle a{H5Acreate2(obj, name, type.id, space.id, H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
    const char* p = value.c_str();
    H5Awrite(a.id, type.id, &p);
}

// A float64 or int64 dataset of the given shape (row-major data), with units and description.
template <class T>
void dataset(hid_t group, const char* name, const std::vector<hsize_t>& shape,
             const std::vector<T>& data, const char* units, const std::string& description) {
    const hid_t type = std::is_same_v<T, double> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
    Handle space{H5Screate_simple(static_cast<int>(shape.size()), shape.data(), nullptr), H5Sclose};
    Handle d{H5Dcreate2(group, name, type, space.id, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
             H5Dclose};
    if (d.id < 0) throw std::invalid_argument(std::string("HDF5: cannot create ") + name);
    if (!data.empty()) H5Dwrite(d.id, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
    attr_string(d.id, "units", units);
    attr_string(d.id, "description", description);
}

}  // namespace

// Layout (docs/hdf5-schema.md): /modal/{eigenvalue_real, eigenvalue_imag, frequency_Hz,
// damping_percent, damped_frequency_Hz} (N,), /modal/{shape_modulus, shape_phase_deg,
// shape_real, shape_imag} (N, nq), /modal/coordinates/{joint_labels (nq,), axes (nq,) strings,
// node_labels (nq,)}; N = 2 nu eigenvalues sorted by frequency as in PREFIX.modal.
void write_modal_hdf5(const std::string& deck_path, const ModalColumns& cols,
                      const std::string& path) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    Handle file{H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose};
    if (file.id < 0) throw std::invalid_argument("cannot write '" + path + "'");
    attr_string(file.id, "deck", deck_path);
    attr_string(file.id, "analysis", "modal (relative coordinates)");
    Handle g{H5Gcreate2(file.id, "modal", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose};
    const auto n = cols.modes();
    const auto nq = cols.coordinates();
    dataset(g.id, "eigenvalue_real", {n}, cols.real, "1/s", "real part of the eigenvalue");
    dataset(g.id, "eigenvalue_imag", {n}, cols.imag, "rad/s", "imaginary part of the eigenvalue");
    dataset(g.id, "frequency_Hz", {n}, cols.frequency_Hz, "Hz", "|lambda| / (2 pi)");
    dataset(g.id, "damping_percent", {n}, cols.damping_percent, "%",
            "-100 Re(lambda) / |lambda| (0 if lambda = 0)");
    dataset(g.id, "damped_frequency_Hz", {n}, cols.damped_frequency_Hz, "Hz",
            "|Im(lambda)| / (2 pi)");
    const std::string norm = "; mode k, coordinate i; largest modulus 1 with phase 0";
    dataset(g.id, "shape_modulus", {n, nq}, cols.shape_modulus, "1",
            "modulus of the mode shape" + norm);
    dataset(g.id, "shape_phase_deg", {n, nq}, cols.shape_phase_deg, "deg",
            "phase of the mode shape" + norm);
    dataset(g.id, "shape_real", {n, nq}, cols.shape_real, "1",
            "real part of the mode shape" + norm);
    dataset(g.id, "shape_imag", {n, nq}, cols.shape_imag, "1",
            "imaginary part of the mode shape" + norm);
    Handle c{H5Gcreate2(g.id, "coordinates", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose};
    dataset(c.id, "joint_labels", {nq}, cols.joint_label, "1",
            "deck label of the joint (0: free node)");
    dataset(c.id, "node_labels", {nq}, cols.node_label, "1",
            "node whose frame the coordinate moves (-1: fictitious)");
    Handle type{H5Tcopy(H5T_C_S1), H5Tclose};
    H5Tset_size(type.id, 8);
    H5Tset_strpad(type.id, H5T_STR_NULLPAD);
    H5Tset_cset(type.id, H5T_CSET_UTF8);
    const hsize_t dims[1] = {nq};
    Handle space{H5Screate_simple(1, dims, nullptr), H5Sclose};
    Handle d{H5Dcreate2(c.id, "axes", type.id, space.id, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
             H5Dclose};
    if (nq > 0) H5Dwrite(d.id, type.id, H5S_ALL, H5S_ALL, H5P_DEFAULT, cols.axes.data());
    attr_string(d.id, "description", "axis of the coordinate as in --tree: Rx/Ry/Rz, Tx/Ty/Tz");
    if (H5Fflush(file.id, H5F_SCOPE_GLOBAL) < 0)
        throw std::invalid_argument("cannot write '" + path + "'");
}

}  // namespace mbs::output

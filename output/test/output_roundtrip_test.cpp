// Round trip of the NetCDF and HDF5 sinks: a run of input-examples/output_formats.mbd feeds both
// sinks and a recorder that copies the engine's values at each output step; the files, read back
// with the NetCDF and HDF5 C APIs, must hold exactly those numbers (bit for bit), with the
// block writes (flush every 7 output steps, a partial last block) in the right places.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <netcdf.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/rotations.hpp"
#include "output/hdf5_output.hpp"
#include "output/netcdf_output.hpp"
#include "parser/builder.hpp"
#include "solvers/dae/simulation.hpp"

namespace {

using namespace mbs;

// Per output step: time, step; per node label X and R (row-major); per joint label F and m;
// per force label its .frc values.
struct Recorder final : OutputSink {
    std::vector<double> time;
    std::vector<long> steps;
    std::map<long, std::vector<double>> X, R, jF, jm, frc;
    void step(const StepView& e, const StepInfo& s) override {
        if (!s.output) return;
        time.push_back(s.time);
        steps.push_back(s.step);
        for (const auto& n : e.nodes) {
            for (int i = 0; i < 3; ++i) X[n.label()].push_back(n.x[i]);
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) R[n.label()].push_back(n.R(i, j));
        }
        for (const auto& el : e.elements) {
            Vec3 f, m, F, M;
            if (el->desc().category == "joint" && el->reaction(f, m, F, M))
                for (int i = 0; i < 3; ++i)
                    jF[el->label()].push_back(F[i]), jm[el->label()].push_back(m[i]);
            if (el->desc().category == "force" || el->desc().category == "couple") {
                double v[Element::max_output_values];
                int k = el->output_values(v);
                frc[el->label()].insert(frc[el->label()].end(), v, v + k);
            }
        }
    }
};

struct RunFiles {
    Recorder rec;
    std::string nc, h5;
};

const RunFiles& run_once() {
    static RunFiles r;
    static bool done = false;
    if (done) return r;
    done = true;
    parser::BuildOptions bo;
    bo.defines["TF"] = "0.1";  // 101 output steps: 14 blocks of 7 and one of 3
    bo.echo_warnings = false;
    static Model model =
        parser::build_model(std::string(MBS_EXAMPLES_DIR) + "/output_formats.mbd", bo);
    auto dir =
        std::filesystem::temp_directory_path() / ("mbs_roundtrip_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    // Removed when the test process ends (each test case runs in a process of its own).
    static struct Cleanup {
        std::filesystem::path dir;
        ~Cleanup() {
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
        }
    } cleanup{dir};
    r.nc = (dir / "run.nc").string();
    r.h5 = (dir / "run.h5").string();
    SolverSettings s = SolverSettings::from_model(model);
    Simulation sim(model, s);
    output::SinkOptions o;
    o.flush_every = 7;
    o.flush_seconds = 1e9;
    o.deck = "output_formats.mbd";
    o.version = "test";
    o.settings = s.run_settings();
    auto nc = output::make_netcdf_output(model, r.nc, o);
    auto h5 = output::make_hdf5_output(model, r.h5, o, 1);
    sim.add_sink(&r.rec);
    sim.add_sink(nc.get());
    sim.add_sink(h5.get());
    sim.run();
    return r;
}

std::vector<double> h5_read(hid_t f, const char* path, std::vector<hsize_t>* dims = nullptr) {
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    EXPECT_GE(d, 0) << path;
    hid_t sp = H5Dget_space(d);
    int rank = H5Sget_simple_extent_ndims(sp);
    std::vector<hsize_t> dd(rank);
    H5Sget_simple_extent_dims(sp, dd.data(), nullptr);
    hsize_t n = 1;
    for (hsize_t x : dd) n *= x;
    std::vector<double> v(n);
    H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Sclose(sp);
    H5Dclose(d);
    if (dims) *dims = dd;
    return v;
}

TEST(Hdf5Output, RoundTripIsExact) {
    const RunFiles& r = run_once();
    const auto nt = r.rec.time.size();
    ASSERT_EQ(nt, 101u);
    hid_t f = H5Fopen(r.h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    std::vector<hsize_t> dims;
    EXPECT_EQ(h5_read(f, "/time", &dims), r.rec.time);
    ASSERT_EQ(dims[0], nt);
    std::vector<double> steps = h5_read(f, "/step");
    for (std::size_t t = 0; t < nt; ++t) EXPECT_EQ(steps[t], static_cast<double>(r.rec.steps[t]));

    // Nodes: (time, node, component), node order from /nodes/labels.
    std::vector<double> labels = h5_read(f, "/nodes/labels");
    ASSERT_EQ(labels.size(), 3u);
    std::vector<double> X = h5_read(f, "/nodes/X", &dims);
    ASSERT_EQ(dims, (std::vector<hsize_t>{nt, 3, 3}));
    std::vector<double> R = h5_read(f, "/nodes/R", &dims);
    ASSERT_EQ(dims, (std::vector<hsize_t>{nt, 3, 9}));
    for (std::size_t k = 0; k < labels.size(); ++k) {
        const auto& x = r.rec.X.at(static_cast<long>(labels[k]));
        const auto& rr = r.rec.R.at(static_cast<long>(labels[k]));
        for (std::size_t t = 0; t < nt; ++t) {
            for (int c = 0; c < 3; ++c)
                ASSERT_EQ(X[(t * 3 + k) * 3 + c], x[t * 3 + c]) << t << " " << k;
            for (int c = 0; c < 9; ++c)
                ASSERT_EQ(R[(t * 3 + k) * 9 + c], rr[t * 9 + c]) << t << " " << k;
        }
    }
    // Joints: F and m.
    labels = h5_read(f, "/joints/labels");
    ASSERT_EQ(labels.size(), 3u);
    std::vector<double> F = h5_read(f, "/joints/F"), m = h5_read(f, "/joints/m");
    for (std::size_t k = 0; k < labels.size(); ++k) {
        const auto& fr = r.rec.jF.at(static_cast<long>(labels[k]));
        const auto& mr = r.rec.jm.at(static_cast<long>(labels[k]));
        for (std::size_t t = 0; t < nt; ++t)
            for (int c = 0; c < 3; ++c) {
                ASSERT_EQ(F[(t * 3 + k) * 3 + c], fr[t * 3 + c]);
                ASSERT_EQ(m[(t * 3 + k) * 3 + c], mr[t * 3 + c]);
            }
    }
    // Loads: force 10 (label n F(3) point(3)), internal force 11 (F2 at columns 8-10), internal
    // couple 12 (M2 at columns 5-7), couple 13 (M at columns 1-3).
    struct Probe {
        const char* path;
        long label;
        int column, stride;
    };
    for (const Probe& p :
         {Probe{"/forces/F", 10, 1, 7}, Probe{"/forces/Arm", 10, 4, 7},
          Probe{"/internal_forces/F2", 11, 8, 14}, Probe{"/internal_couples/M2", 12, 5, 8},
          Probe{"/couples/M", 13, 1, 4}}) {
        std::vector<double> v = h5_read(f, p.path, &dims);
        ASSERT_EQ(dims[1], 1u) << p.path;
        const auto& fr = r.rec.frc.at(p.label);
        for (std::size_t t = 0; t < nt; ++t)
            for (int c = 0; c < 3; ++c)
                ASSERT_EQ(v[t * 3 + c], fr[t * p.stride + p.column + c]) << p.path;
    }
    // The run status written at the end.
    hid_t a = H5Aopen(f, "run_status", H5P_DEFAULT);
    ASSERT_GE(a, 0);
    // A variable-length UTF-8 string, as every attribute of the file (h5py reads it as str).
    hid_t type = H5Aget_type(a);
    EXPECT_GT(H5Tis_variable_str(type), 0);
    EXPECT_EQ(H5Tget_cset(type), H5T_CSET_UTF8);
    char* status = nullptr;
    H5Aread(a, type, &status);
    EXPECT_STREQ(status, "completed");
    H5free_memory(status);
    H5Tclose(type);
    H5Aclose(a);
    H5Fclose(f);
}

std::vector<double> nc_read(int nc, const std::string& name, std::size_t n) {
    int id = -1;
    EXPECT_EQ(nc_inq_varid(nc, name.c_str(), &id), NC_NOERR) << name;
    std::vector<double> v(n);
    if (id >= 0) nc_get_var_double(nc, id, v.data());
    return v;
}

TEST(NetcdfOutput, RoundTripIsExact) {
    const RunFiles& r = run_once();
    const auto nt = r.rec.time.size();
    int nc = -1;
    ASSERT_EQ(nc_open(r.nc.c_str(), NC_NOWRITE, &nc), NC_NOERR);
    int dim = -1;
    std::size_t len = 0;
    ASSERT_EQ(nc_inq_dimid(nc, "time", &dim), NC_NOERR);
    nc_inq_dimlen(nc, dim, &len);
    ASSERT_EQ(len, nt);
    EXPECT_EQ(nc_read(nc, "time", nt), r.rec.time);
    for (long L : {1L, 2L, 3L}) {
        std::vector<double> X = nc_read(nc, "node.struct." + std::to_string(L) + ".X", nt * 3);
        EXPECT_EQ(X, r.rec.X.at(L)) << L;
    }
    // Node 2: Euler 123 angles in degrees; node 3: rotation vector (its card asks for it).
    std::vector<double> E = nc_read(nc, "node.struct.2.E", nt * 3);
    std::vector<double> Phi = nc_read(nc, "node.struct.3.Phi", nt * 3);
    for (std::size_t t = 0; t < nt; ++t) {
        Mat3 R2, R3;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                R2(i, j) = r.rec.R.at(2)[t * 9 + 3 * i + j],
                      R3(i, j) = r.rec.R.at(3)[t * 9 + 3 * i + j];
        Vec3 e = matrix_to_euler123(R2) * (180.0 / M_PI), phi = matrix_to_rotation_vector(R3);
        for (int c = 0; c < 3; ++c) {
            ASSERT_EQ(E[t * 3 + c], e[c]);
            ASSERT_EQ(Phi[t * 3 + c], phi[c]);
        }
    }
    for (long L : {2L, 3L}) {
        EXPECT_EQ(nc_read(nc, "elem.joint." + std::to_string(L) + ".F", nt * 3), r.rec.jF.at(L));
        EXPECT_EQ(nc_read(nc, "elem.joint." + std::to_string(L) + ".m", nt * 3), r.rec.jm.at(L));
    }
    std::vector<double> F10 = nc_read(nc, "elem.force.10.F", nt * 3);
    std::vector<double> M13 = nc_read(nc, "elem.couple.13.M", nt * 3);
    for (std::size_t t = 0; t < nt; ++t)
        for (int c = 0; c < 3; ++c) {
            ASSERT_EQ(F10[t * 3 + c], r.rec.frc.at(10)[t * 7 + 1 + c]);
            ASSERT_EQ(M13[t * 3 + c], r.rec.frc.at(13)[t * 4 + 1 + c]);
        }
    // Attributes of a variable, as MBDyn writes them.
    int id = -1;
    ASSERT_EQ(nc_inq_varid(nc, "node.struct.2.XP", &id), NC_NOERR);
    char units[32] = {};
    ASSERT_EQ(nc_get_att_text(nc, id, "units", units), NC_NOERR);
    EXPECT_STREQ(units, "m/s");
    nc_close(nc);
}

}  // namespace

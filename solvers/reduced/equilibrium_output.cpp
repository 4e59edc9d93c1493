// An equilibrium's results through the run's sinks (core/step_view.hpp): one output step at the
// equilibrium time, the nodes there (.mov, NetCDF, HDF5) and PREFIX.eq's lines as value blocks
// (core/value_block.hpp), so that NetCDF and HDF5 hold them too (docs/hdf5-schema.md
// "Value blocks"). The text keeps the layout of docs/relative-coordinates.md 2.3 and 4.
#include <algorithm>
#include <cstdio>
#include <string>

#include "solvers/reduced/analyses.hpp"
#include "solvers/reduced/tree_nodes.hpp"

namespace mbs::reduced {

namespace {

std::string format(const char* fmt, double a, double b = 0.0) {
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, a, b);
    return buf;
}

// One coordinate's row: label q number, its joint, "q<i> <joint> <axis>" as the line's start.
ValueBlock::Row coordinate_row(const ReducedModel& rm, int i, const char* prefix, int count) {
    const Link& l = rm.links[static_cast<std::size_t>(i)];
    ValueBlock::Row r;
    r.label = i + 1;
    r.joint = l.joint_label;
    // (appended piece by piece: `"q" + std::to_string(...)` trips GCC 12's -Wrestrict)
    std::string q = std::to_string(i + 1);
    q.insert(q.begin(), 'q');
    r.name = q;
    r.name += ' ';
    r.name += l.name;
    r.name += l.joint_label ? " of joint " : " of a free node";
    if (l.joint_label) r.name += std::to_string(l.joint_label);
    r.text = prefix;
    r.text += q;
    r.text += ' ';
    r.text += std::to_string(l.joint_label);
    r.text += ' ';
    r.text += l.name;
    r.type = l.joint_type;
    r.count = count;
    return r;
}

ValueBlock eq_block(const char* group, const char* nc_prefix, const char* dimension,
                    std::vector<ValueBlock::Quantity> quantities) {
    ValueBlock b;
    b.file = "eq";
    b.precision = 15;
    b.group = group;
    b.nc_prefix = nc_prefix;
    b.dimension = dimension;
    b.quantities = std::move(quantities);
    return b;
}

// PREFIX.eq: the coordinates (with a header), the spin, the parameters, the held driven
// coordinates (with their own header line), in this order; blocks without rows are left out.
std::vector<ValueBlock> eq_blocks(const Setup& s, const EquilibriumResult& r) {
    const ReducedModel& rm = s.rm;
    std::vector<ValueBlock> out;
    ValueBlock c = eq_block("equilibrium_coordinates", "equilibrium.coordinate", "coordinate",
                            {{"q", 1, "rad or m",
                              "joint coordinate at the equilibrium (rotation: rad, translation: "
                              "m); `types`: the joint, `kind`: in the text file"}});
    c.header = format(
                   "# mbsolve static equilibrium (relative coordinates): %.0f Newton "
                   "iterations, |F_r| = %.3g\n",
                   r.iterations, r.residual) +
               "# coordinate joint_label axis value (rad or m) kind (independent, dependent, "
               "driven)\n";
    for (int i = 0; i < rm.nq(); ++i) {
        const Link& l = rm.links[static_cast<std::size_t>(i)];
        const bool ins =
            std::find(r.insensitive.begin(), r.insensitive.end(), i) != r.insensitive.end();
        const bool dep = std::find(s.part.v.begin(), s.part.v.end(), i) != s.part.v.end();
        ValueBlock::Row row = coordinate_row(rm, i, "", 1);
        row.suffix = std::string(" ") +
                     (l.driven ? "driven"
                      : dep    ? "dependent"
                               : "independent") +
                     (ins ? " non-sensitive" : "");
        c.rows.push_back(std::move(row));
        c.values.push_back(s.q[i]);
    }
    out.push_back(std::move(c));

    ValueBlock sp = eq_block("equilibrium_spin", "equilibrium.spin", "coordinate",
                             {{"rate", 1, "rad/s or m/s", "rate of the spinning coordinate"}});
    if (r.spin >= 0) {
        ValueBlock::Row row = coordinate_row(rm, r.spin, "", 1);
        row.text = "spin q";
        row.text += std::to_string(r.spin + 1);
        sp.rows.push_back(std::move(row));
        sp.values.push_back(r.spin_rate);
    }
    out.push_back(std::move(sp));

    ValueBlock pa = eq_block(
        "equilibrium_parameters", "equilibrium.parameter", "parameter",
        {{"value", 1, "deck units", "value found for the exchanged parameter (`names`: which)"}});
    for (std::size_t k = 0; k < r.parameters.size(); ++k) {
        ValueBlock::Row row;
        row.label = static_cast<long>(k) + 1;
        row.name = r.parameters[k].first;
        row.type = "parameter";
        row.text = "parameter " + r.parameters[k].first;
        row.count = 1;
        pa.rows.push_back(std::move(row));
        pa.values.push_back(r.parameters[k].second);
    }
    out.push_back(std::move(pa));

    ValueBlock dr = eq_block(
        "equilibrium_driving", "equilibrium.driving", "coordinate",
        {{"q", 1, "rad or m", "held value of the driven coordinate"},
         {"force", 1, "N m or N",
          "torque about (rotation) or force along (translation) the axis that holds it, node 1 "
          "on node 2 (as .act)"}});
    dr.header = format(
        "# held driven coordinates at t = %.15g: driving q<i> joint_label axis value "
        "force_or_torque (N or N m, node 1 on node 2)\n",
        r.time);
    for (const auto& [i, tau] : r.driving) {
        dr.rows.push_back(coordinate_row(rm, i, "driving ", 2));
        dr.values.push_back(s.q[i]);
        dr.values.push_back(tau);
    }
    out.push_back(std::move(dr));

    std::vector<ValueBlock> kept;
    for (ValueBlock& b : out) {
        if (b.rows.empty()) continue;
        const std::vector<double> v = b.values;
        b.finish();
        b.values = v;
        kept.push_back(std::move(b));
    }
    return kept;
}

}  // namespace

std::vector<std::string> write_equilibrium(const Model& model, Setup& s, const EquilibriumResult& r,
                                           RunOutput& output) {
    RunSettings settings;
    settings.method = "equilibrium (relative coordinates)";
    settings.initial_time = settings.final_time = r.time;
    settings.tolerance = 1e-10;
    OutputSink& sink = output.open(settings);
    TreeNodes nodes(model, s.rm);
    const std::vector<ValueBlock> blocks = eq_blocks(s, r);
    StepView view = nodes.view();
    view.blocks = blocks;
    s.clock.time = r.time;
    forward_kinematics(s.rm, s.ws, s.q, s.qd, s.ws.zero);
    nodes.update(s.rm, s.ws);
    StepInfo info;
    info.time = r.time;
    info.iterations = r.iterations;
    info.res_err = r.residual;
    info.sol_conv = true;
    sink.begin(view);
    sink.step(view, info);
    sink.end(view, "");
    return output.files();
}

}  // namespace mbs::reduced

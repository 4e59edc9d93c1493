// XDMF file of an HDF5 result (see xdmf_output.hpp and docs/hdf5-schema.md "XDMF").
#include "output/xdmf_output.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>

namespace mbs::output {

namespace {

std::string xml_escape(const std::string& s) {
    std::string r;
    for (char c : s) {
        switch (c) {
            case '&':
                r += "&amp;";
                break;
            case '<':
                r += "&lt;";
                break;
            case '>':
                r += "&gt;";
                break;
            case '"':
                r += "&quot;";
                break;
            case '\'':
                r += "&apos;";
                break;
            default:
                r += c;
        }
    }
    return r;
}

std::string base_name(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Where a step's grid text has its step index and its time (step_grid() makes the text once
// with these marks; emit() fills them in at every step: 2001 steps of chain_200, 6 MB, in a few
// ms instead of formatting every step's text).
constexpr char step_mark = '\x01', time_mark = '\x02';

// Row `step` of the (T, N, ncomp) dataset `path` of the HDF5 file `h5`: an XDMF hyperslab
// (start, stride, count per axis), so the .xmf copies no value.
void hyperslab(std::string& out, const std::string& h5, const std::string& path, std::size_t steps,
               std::size_t n, int ncomp, const char* indent) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%s<DataItem ItemType=\"HyperSlab\" Dimensions=\"1 %zu %d\" Type=\"HyperSlab\">\n"
                  "%s  <DataItem Dimensions=\"3 3\" NumberType=\"Int\" Format=\"XML\">"
                  "%c 0 0 1 1 1 1 %zu %d</DataItem>\n"
                  "%s  <DataItem Dimensions=\"%zu %zu %d\" NumberType=\"Float\" Precision=\"8\" "
                  "Format=\"HDF\">",
                  indent, n, ncomp, indent, step_mark, n, ncomp, indent, steps, n, ncomp);
    out += buf;
    out += h5;
    out += ':';
    out += path;
    out += "</DataItem>\n";
    out += indent;
    out += "</DataItem>\n";
}

const char* attribute_type(int ncomp) {
    return ncomp == 1 ? "Scalar" : ncomp == 3 ? "Vector" : ncomp == 9 ? "Tensor" : "Matrix";
}

// The grid of one step of collection `name` (Polyvertex: every node; Polyline: the segments),
// with step_mark and time_mark. The first step has the connectivity, the others include it.
std::string step_grid(const char* name, bool lines, bool first, const std::string& h5,
                      const XdmfMesh& mesh, std::size_t steps) {
    const std::size_t n = mesh.node_labels.size();
    std::string out;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "      <Grid Name=\"%s\" GridType=\"Uniform\">\n"
                  "        <Time Value=\"%c\"/>\n",
                  name, time_mark);
    out += buf;
    if (first) {
        const std::size_t cells = lines ? mesh.segments.size() : n;
        std::snprintf(buf, sizeof buf,
                      "        <Topology TopologyType=\"%s\" NumberOfElements=\"%zu\" "
                      "NodesPerElement=\"%d\">\n"
                      "          <DataItem Dimensions=\"%zu %d\" NumberType=\"Int\" "
                      "Precision=\"4\" Format=\"XML\">",
                      lines ? "Polyline" : "Polyvertex", cells, lines ? 2 : 1, cells,
                      lines ? 2 : 1);
        out += buf;
        if (lines) {
            for (std::size_t k = 0; k < mesh.segments.size(); ++k) {
                if (k) out += ' ';
                out +=
                    std::to_string(mesh.segments[k][0]) + ' ' + std::to_string(mesh.segments[k][1]);
            }
        } else {
            for (std::size_t k = 0; k < n; ++k) {
                if (k) out += ' ';
                out += std::to_string(k);
            }
        }
        out += "</DataItem>\n        </Topology>\n";
    } else {
        std::snprintf(buf, sizeof buf,
                      "        <xi:include xpointer=\"xpointer(/Xdmf/Domain/Grid[@Name='%s']"
                      "/Grid[1]/Topology)\"/>\n",
                      name);
        out += buf;
    }
    out += "        <Geometry GeometryType=\"XYZ\">\n";
    hyperslab(out, h5, "/nodes/X", steps, n, 3, "          ");
    out += "        </Geometry>\n";
    // The node data on the points only: the lines' grids have the geometry alone.
    if (!lines) {
        std::snprintf(buf, sizeof buf,
                      "        <Attribute Name=\"label\" AttributeType=\"Scalar\" "
                      "Center=\"Node\">\n"
                      "          <DataItem Dimensions=\"%zu\" NumberType=\"Int\" "
                      "Precision=\"8\" Format=\"HDF\">",
                      n);
        out += buf;
        out += h5 + ":/nodes/node</DataItem>\n        </Attribute>\n";
        for (const auto& [q, ncomp] : mesh.data) {
            out += "        <Attribute Name=\"" + xml_escape(q) + "\" AttributeType=\"" +
                   attribute_type(ncomp) + "\" Center=\"Node\">\n";
            hyperslab(out, h5, "/nodes/" + xml_escape(q), steps, n, ncomp, "          ");
            out += "        </Attribute>\n";
        }
    }
    out += "      </Grid>\n";
    return out;
}

// A step_grid() text cut at its marks: piece k is followed by the value of mark k (the last
// piece by none).
struct Template {
    std::vector<std::string> pieces;
    std::vector<char> marks;
    explicit Template(const std::string& grid) {
        std::size_t from = 0;
        for (std::size_t i = 0; i < grid.size(); ++i) {
            if (grid[i] != step_mark && grid[i] != time_mark) continue;
            pieces.push_back(grid.substr(from, i - from));
            marks.push_back(grid[i]);
            from = i + 1;
        }
        pieces.push_back(grid.substr(from));
    }
    // Appends the grid of step t at `time` (the shortest text that reads back as that double).
    void emit(std::string& out, std::size_t t, double time) const {
        char step[24], tv[32];
        const char* step_end = std::to_chars(step, step + sizeof step, t).ptr;
        const char* tv_end = std::to_chars(tv, tv + sizeof tv, time).ptr;
        for (std::size_t k = 0; k < marks.size(); ++k) {
            out += pieces[k];
            if (marks[k] == step_mark)
                out.append(step, static_cast<std::size_t>(step_end - step));
            else
                out.append(tv, static_cast<std::size_t>(tv_end - tv));
        }
        out += pieces.back();
    }
};

// One temporal collection `name` over all steps.
void collection(std::string& out, const char* name, bool lines, const std::string& h5,
                const XdmfMesh& mesh, const std::vector<double>& times) {
    const std::size_t steps = times.size();
    out += "    <Grid Name=\"";
    out += name;
    out += "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
    const std::string first_grid = step_grid(name, lines, true, h5, mesh, steps);
    const std::string rest_grid = step_grid(name, lines, false, h5, mesh, steps);
    out.reserve(out.size() + first_grid.size() + (rest_grid.size() + 32) * steps);
    const Template first(first_grid), rest(rest_grid);
    for (std::size_t t = 0; t < steps; ++t) (t == 0 ? first : rest).emit(out, t, times[t]);
    out += "    </Grid>\n";
}

}  // namespace

std::vector<std::array<int, 2>> xdmf_segments(const Model& m, const std::vector<long>& labels) {
    std::map<long, int> index;
    for (std::size_t k = 0; k < labels.size(); ++k) index[labels[k]] = static_cast<int>(k);
    std::vector<std::array<int, 2>> seg;
    for (const EntityDesc& e : m.elements) {
        if (e.category != "joint" && e.category.rfind("beam", 0) != 0) continue;
        std::vector<int> nodes;
        const Props view = e.view();  // the typed spec's fields, or the props
        for (const auto& [key, value] : view.items()) {
            const auto* ref = std::get_if<EntityRef>(&value);
            if (!ref || ref->category != "structural" || key.rfind("node", 0) != 0) continue;
            const auto it = index.find(ref->label);
            if (it == index.end()) continue;
            if (nodes.empty() || nodes.back() != it->second) nodes.push_back(it->second);
        }
        for (std::size_t k = 1; k < nodes.size(); ++k) seg.push_back({nodes[k - 1], nodes[k]});
    }
    return seg;
}

Connectivity element_connectivity(const Model& m, const std::vector<long>& node_labels) {
    std::map<long, long> index;
    for (std::size_t k = 0; k < node_labels.size(); ++k)
        index[node_labels[k]] = static_cast<long>(k);
    Connectivity c;
    for (const EntityDesc& e : m.elements) {
        c.labels.push_back(e.label);
        c.categories.push_back(e.category);
        c.types.push_back(e.type.empty() ? e.category : e.type);
        c.names.push_back(e.name.empty() ? e.category + " " + std::to_string(e.label) : e.name);
        c.first.push_back(static_cast<long>(c.ref_node.size()));
        const Props view = e.view();  // the typed spec's fields, in card order
        for (const auto& [key, value] : view.items()) {
            const auto* ref = std::get_if<EntityRef>(&value);
            if (!ref || ref->category != "structural" || key.rfind("node", 0) != 0) continue;
            const std::string suffix = key.substr(4);  // "", "1", "2", ...
            const Vec3* off = nullptr;
            if (const PropValue* v = view.find("offset" + suffix)) off = std::get_if<Vec3>(v);
            if (!off && e.category == "body" && suffix.empty())
                if (const PropValue* v = view.find("center of mass")) off = std::get_if<Vec3>(v);
            const auto it = index.find(ref->label);
            c.ref_node.push_back(ref->label);
            c.ref_index.push_back(it == index.end() ? -1 : it->second);
            c.ref_offset.push_back(off ? std::array<double, 3>{(*off)[0], (*off)[1], (*off)[2]}
                                       : std::array<double, 3>{0.0, 0.0, 0.0});
        }
        c.count.push_back(static_cast<long>(c.ref_node.size()) - c.first.back());
    }
    return c;
}

std::string xdmf_path(const std::string& h5_path) {
    const std::string ext = ".h5";
    if (h5_path.size() > ext.size() &&
        h5_path.compare(h5_path.size() - ext.size(), ext.size(), ext) == 0)
        return h5_path.substr(0, h5_path.size() - ext.size()) + ".xmf";
    return h5_path + ".xmf";
}

void write_xdmf(const std::string& xmf_path, const std::string& h5_path, const XdmfMesh& mesh,
                const std::vector<double>& times) {
    const std::string h5 = xml_escape(base_name(h5_path));
    std::string out =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        "<!-- mbsolve results: structural nodes (points) and the beams, rods and joints between\n"
        "     them (lines) at each output step. Every value is read from the HDF5 file\n"
        "     (hyperslabs of /nodes/X, ...; docs/hdf5-schema.md). -->\n"
        "<Xdmf Version=\"3.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
        "  <Domain>\n";
    if (!mesh.segments.empty()) collection(out, "links", true, h5, mesh, times);
    collection(out, "nodes", false, h5, mesh, times);
    out += "  </Domain>\n</Xdmf>\n";
    const std::string part = xmf_path + ".part";
    std::FILE* f = std::fopen(part.c_str(), "wb");
    if (!f)
        throw std::runtime_error("XDMF output '" + xmf_path +
                                 "': cannot create the file: " + std::strerror(errno));
    const bool ok = std::fwrite(out.data(), 1, out.size(), f) == out.size();
    const int err = errno;
    if (std::fclose(f) != 0 || !ok) {
        std::remove(part.c_str());
        throw std::runtime_error("XDMF output '" + xmf_path +
                                 "': cannot write the file: " + std::strerror(ok ? errno : err));
    }
    if (std::rename(part.c_str(), xmf_path.c_str()) != 0)
        throw std::runtime_error("XDMF output '" + xmf_path +
                                 "': cannot rename the file: " + std::strerror(errno));
}

}  // namespace mbs::output

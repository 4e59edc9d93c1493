// XDMF description (PREFIX.xmf) of an HDF5 result (docs/hdf5-schema.md "XDMF"): the structural
// nodes as points and the beams, rods and joints between them as lines, at every output step,
// for ParaView and other XDMF readers. The .xmf holds no values: every step's geometry and node
// data are hyperslabs of the HDF5 datasets (/nodes/X[t], ...). Text only: no HDF5 call here.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/model.hpp"

namespace mbs::output {

struct XdmfMesh {
    std::vector<long> node_labels;                  // the HDF5 /nodes entity axis, in order
    std::vector<std::array<int, 2>> segments;       // lines between node indices (0-based)
    std::vector<std::pair<std::string, int>> data;  // /nodes quantities as point data: name, ncomp
};

// Segments of the elements that join structural nodes: joints (rods, hinges, ...), beam3 and
// beam2, each from its node references in card order (`node1`, `node2`, `node3`; a beam3 gives
// two segments); references to nodes without output, and repeated nodes, are left out.
std::vector<std::array<int, 2>> xdmf_segments(const Model& m, const std::vector<long>& labels);

// Which structural nodes every element of the model joins (docs/hdf5-schema.md "Connectivity"),
// for viewers: one entry per element in deck order (also those without output or without
// structural nodes), its node references in card order (`node`, `node1`, `node2`, ...) and the
// point of each on its node, in the node frame: the kind's `offset<k>` (joints, beams, forces),
// a body's `center of mass`, else zero (the element acts at the node).
struct Connectivity {
    std::vector<long> labels;  // per element
    std::vector<std::string> categories, types, names;
    std::vector<long> first, count;  // per element: its references [first, first + count)
    std::vector<long> ref_node;      // per reference: node label
    std::vector<long> ref_index;     // index along /nodes/node, -1: node without output
    std::vector<std::array<double, 3>> ref_offset;  // node frame
};
Connectivity element_connectivity(const Model& m, const std::vector<long>& node_labels);

// PREFIX.xmf next to PREFIX.h5 (h5_path ends in .h5; else h5_path + ".xmf").
std::string xdmf_path(const std::string& h5_path);

// Writes the XDMF 3 file for `times` (the file's /time) at xmf_path; the HDF5 file is named
// relative to it (its file name: both are in the same folder). Throws std::runtime_error.
void write_xdmf(const std::string& xmf_path, const std::string& h5_path, const XdmfMesh& mesh,
                const std::vector<double>& times);

}  // namespace mbs::output

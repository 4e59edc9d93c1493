// Private data of structural nodes; see node_private_data.hpp for the names.
#include "elements/nodes/node_private_data.hpp"

#include <cmath>

#include "core/rotations.hpp"

namespace mbs::nodes {
namespace {

const char* const names[struct_node_private_count] = {
    "X[1]",      "X[2]",      "X[3]",      "x[1]",     "x[2]",     "x[3]",      "Phi[1]",
    "Phi[2]",    "Phi[3]",    "XP[1]",     "XP[2]",    "XP[3]",    "xP[1]",     "xP[2]",
    "xP[3]",     "Omega[1]",  "Omega[2]",  "Omega[3]", "omega[1]", "omega[2]",  "omega[3]",
    "E[1]",      "E[2]",      "E[3]",      "E313[1]",  "E313[2]",  "E313[3]",   "E321[1]",
    "E321[2]",   "E321[3]",   "PE[0]",     "PE[1]",    "PE[2]",    "PE[3]",     "XPP[1]",
    "XPP[2]",    "XPP[3]",    "xPP[1]",    "xPP[2]",   "xPP[3]",   "OmegaP[1]", "OmegaP[2]",
    "OmegaP[3]", "omegaP[1]", "omegaP[2]", "omegaP[3]"};

// Datum groups of three (by the first index of the group).
enum Group {
    X = 0,
    xl = 3,
    Phi = 6,
    XP = 9,
    xP = 12,
    Om = 15,
    om = 18,
    E = 21,
    E313 = 24,
    E321 = 27,
    PE = 30,
    XPP = 34,
    xPP = 37,
    OmP = 40,
    omP = 43
};

}  // namespace

const char* struct_node_private_name(int i) { return names[i]; }

int struct_node_private_index(const StructNode& n, const std::string& name, std::string& why) {
    for (int i = 0; i < struct_node_private_count; ++i)
        if (name == names[i]) {
            const bool accel = i >= XPP;
            const bool dynamic = n.is_dynamic() || n.is_dummy();
            if (accel && !dynamic) {
                why = "private datum \"" + name +
                      "\" (an acceleration) is not available on the static structural node " +
                      std::to_string(n.label()) +
                      ": only dynamic nodes (and dummy nodes on them) have accelerations";
                return -1;
            }
            bool disp_ok =
                (i >= X && i < X + 3) || (i >= XP && i < XP + 3) || (i >= XPP && i < XPP + 3);
            if (!n.has_rotation() && !disp_ok) {
                why = "structural node " + std::to_string(n.label()) +
                      " has no rotation: only X[i], XP[i] and XPP[i] are available";
                return -1;
            }
            if (accel) n.accel_read = true;  // the engine then projects them on the constraints
            return i;
        }
    why = "structural nodes have no private datum \"" + name +
          "\" (X[i], x[i], Phi[i], XP[i], xP[i], Omega[i], omega[i], E[i], E313[i], E321[i], "
          "PE[0..3], XPP[i], xPP[i], OmegaP[i], omegaP[i])";
    return -1;
}

double struct_node_private_data(const StructNode& n, int i) {
    const Mat3& R = n.R;
    const int g = i < PE ? i - i % 3 : i < XPP ? PE : i - (i - XPP) % 3, k = i - g;
    switch (g) {
        case X:
            return n.x[k];
        case xl:
            return R.col(k).dot(n.x);
        case Phi:
            return matrix_to_rotation_vector(R)[k];
        case XP:
            return n.xdot[k];
        case xP:
            return R.col(k).dot(n.xdot);
        case Om:
            return n.w[k];
        case om:
            return R.col(k).dot(n.w);
        case E:
            return matrix_to_euler123(R)[k];
        case E313:
            return matrix_to_euler313(R)[k];
        case E321:
            return matrix_to_euler321(R)[k];
        case XPP:
            return n.xpp[k];
        case xPP:
            return R.col(k).dot(n.xpp);
        case OmP:
            return n.wp[k];
        case omP:
            return R.col(k).dot(n.wp);
        default:
            break;
    }
    // Euler parameters from the rotation vector: e0 = cos(theta/2), e = sin(theta/2) n.
    Vec3 phi = matrix_to_rotation_vector(R);
    double th = phi.norm();
    if (k == 0) return std::cos(0.5 * th);
    double s = th > 1e-12 ? std::sin(0.5 * th) / th : 0.5;
    return s * phi[k - 1];
}

}  // namespace mbs::nodes

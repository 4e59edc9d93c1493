// A joint's `orientation description` (docs/deck-language.md 5.2 `<od>`): how the relative
// rotation among its .jnt columns, and the matching NetCDF/HDF5 quantity, are written. As MBDyn's
// joints (CreateRotationVar and the joints' Output(): spherj.cc, planej.cc, univj.cc, gimbal.cc,
// vehj.cc): Euler angles in degrees (3 columns, `E`), the rotation vector in radians (3, `Phi`)
// or the matrix row by row (9, `R`); without the card, the control data's `default orientation`.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "core/element.hpp"
#include "core/rotations.hpp"

namespace mbs::el {

enum class Od : std::uint8_t { euler123, euler313, euler321, vector, matrix };

// `card`: the card's description ("" when not given, cards::read_orientation_description);
// `fallback`: the control data's (Settings::orientation()). The keywords are the reader's.
inline Od joint_od(const std::string& card, const std::string& fallback) {
    const std::string& s = card.empty() ? fallback : card;
    if (s == "euler313") return Od::euler313;
    if (s == "euler321") return Od::euler321;
    if (s == "orientation vector") return Od::vector;
    if (s == "orientation matrix") return Od::matrix;
    return Od::euler123;
}

inline int od_columns(Od od) { return od == Od::matrix ? 9 : 3; }

// The deck's keyword of `od`.
inline const char* od_keyword(Od od) {
    static const char* const k[] = {"euler123", "euler313", "euler321", "orientation vector",
                                    "orientation matrix"};
    return k[static_cast<int>(od)];
}

// Writes R as `od` asks from v[0]; returns the number of values (3 or 9).
inline int put_orientation(Od od, const Mat3& R, double* v) {
    constexpr double deg = 180.0 / M_PI;
    Vec3 a = Vec3::Zero();  // (every case sets it; GCC cannot tell)
    switch (od) {
        case Od::matrix:
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) v[3 * i + j] = R(i, j);
            return 9;
        case Od::vector:
            a = matrix_to_rotation_vector(R);
            break;
        case Od::euler313:
            a = matrix_to_euler313(R) * deg;
            break;
        case Od::euler321:
            a = matrix_to_euler321(R) * deg;
            break;
        case Od::euler123:
            a = matrix_to_euler123(R) * deg;
            break;
    }
    for (int i = 0; i < 3; ++i) v[i] = a[i];
    return 3;
}

// The NetCDF/HDF5 quantity of those columns (from `column`): MBDyn's names E, Phi, R with their
// units (degrees for E, where MBDyn's attribute says radian: docs/output.md 3.1) and the Euler
// sequence in the description, as the .jnt columns.
inline void joint_orientation(OutputSchema& s, Od od, int column) {
    s.orientation = od_keyword(od);  // HDF5's joints/orientation_description
    OutputQuantity q;
    q.column = column;
    q.frame = "relative";
    switch (od) {
        case Od::matrix:
            q.name = "R", q.ncomp = 9, q.units = "-";
            q.description = "relative orientation matrix, row-major (R11, R12, R13, R21, ...)";
            break;
        case Od::vector:
            q.name = "Phi", q.units = "radian";
            q.description = "relative orientation vector (Phi_X, Phi_Y, Phi_Z)";
            break;
        default:
            q.name = "E", q.units = "deg";
            q.description = std::string("relative orientation Euler angles (") +
                            (od == Od::euler313   ? "313"
                             : od == Od::euler321 ? "321"
                                                  : "123") +
                            ") (E_X, E_Y, E_Z)";
            break;
    }
    s.quantities.push_back(std::move(q));
}

}  // namespace mbs::el

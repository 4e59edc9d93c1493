// f(x) = c0 + c1 x + c2 x^2 + c3 x^3: the runtime of the const, null, unit, time, direct,
// linear, parabolic and cubic drive callers (basic_drives.cpp), for other kinds that reduce to
// a polynomial (the const and linear scalar functions, scalar_functions.cpp).
#pragma once

#include "core/drive.hpp"

namespace mbs::drives {

DrivePtr polynomial_drive(double c0, double c1 = 0.0, double c2 = 0.0, double c3 = 0.0);

}  // namespace mbs::drives

// Vectors, matrices, orientation matrices and the `reference, <frame>,` prefix rules
// (docs/deck-language.md 3.2 and 3.3), resolved to absolute or node-relative data.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/struct_node_spec.hpp"
#include "parser/build_state.hpp"

namespace mbs::parser {

namespace {

// A node's frame: a structural node's initial position and orientation (StructuralNodeSpec;
// the total pin joint's ground frame is one too); any other node has no position (a
// programming error: the readers ask for structural nodes) and the identity orientation.
Vec3 node_x(const EntityDesc& n) {
    if (const StructuralNodeSpec* s = structural_node_spec(n)) return s->x;
    throw std::logic_error("node " + std::to_string(n.label) + " (" + n.category +
                           ") has no position");
}
Mat3 node_R(const EntityDesc& n) {
    if (const StructuralNodeSpec* s = structural_node_spec(n)) return s->R;
    return Mat3::Identity();
}

}  // namespace

DeckReader::Frame DeckReader::frame_prefix(bool allow_other) {
    Frame f;
    if (!peek("reference")) return f;
    // "reference" followed by a frame; a bare variable called "reference" is not supported.
    f.loc = loc();
    ++pos_;
    if (accept("global"))
        f.kind = Frame::global;
    else if (accept("node"))
        f.kind = Frame::node;
    else if (accept("local"))
        f.kind = Frame::local;
    else if (accept("other position"))
        f.kind = Frame::other_position;
    else if (accept("other orientation"))
        f.kind = Frame::other_orientation;
    else if (accept("other node"))
        f.kind = Frame::other_node;
    else {
        SourceLoc lab = loc();
        std::string w = peek_word();
        if (!w.empty() && !next_is_value()) {
            std::string near = closest_match(w, {"global", "node", "local", "other position",
                                                 "other orientation", "other node"});
            error("unknown reference frame '" + w + "'",
                  near.empty() ? "use global, node, local or a reference label"
                               : "did you mean '" + near + "'?");
        }
        long l = label("reference frame label");
        auto it = st_.model.references.find(l);
        if (it == st_.model.references.end())
            throw InputError(lab, "unknown reference frame " + std::to_string(l),
                             "define it earlier with 'reference: " + std::to_string(l) + ", ...;'");
        f.kind = Frame::label;
        f.ref = &it->second;
    }
    if (!allow_other && (f.kind == Frame::other_position || f.kind == Frame::other_orientation ||
                         f.kind == Frame::other_node))
        throw InputError(f.loc,
                         "'other' frames are only allowed for the second node of a two-node joint");
    if (f.kind == Frame::local)
        throw InputError(f.loc, "'reference, local' is not supported",
                         "use 'reference, node' or a reference label");
    return f;
}

VecN DeckReader::reals(int n, std::string_view what, const std::string& form, const char* noun) {
    VecN v;
    v.reserve(n);
    for (int k = 0; k < n; ++k) {
        if (!next_is_value())
            values_missing("expected " + std::to_string(n) + " " + noun + " for " +
                           std::string(what) + " (" + form + "), got " + std::to_string(k));
        v.push_back(real(what));
    }
    return v;
}

Vec3 DeckReader::vec3(std::string_view what) {
    if (accept("null")) return Vec3::Zero();
    if (peek("default"))
        error("'default' is not allowed for " + std::string(what) + " here", "give the 3 values");
    VecN r = reals(3, what, "Vec3");
    Vec3 v(r[0], r[1], r[2]);
    if (accept("scale")) v *= real("scale factor");
    return v;
}

Vec6 DeckReader::vec6(std::string_view what) {
    if (accept("null")) return Vec6::Zero();
    VecN r = reals(6, what, "Vec6");
    Vec6 v = Eigen::Map<const Vec6>(r.data());
    if (accept("scale")) v *= real("scale factor");
    return v;
}

// A word where a matrix belongs that is neither a form keyword nor a value (`diagonal`, `ident`):
// said so, with the nearest form, rather than "expected 9 values, got 0".
void DeckReader::unknown_matrix_form(std::string_view what, const std::vector<std::string>& forms) {
    const std::string w = peek_word();
    // Upper case: a misspelt variable (keywords are lower case), which reals() reports as such.
    const bool upper = std::any_of(
        w.begin(), w.end(), [](char ch) { return std::isupper(static_cast<unsigned char>(ch)); });
    if (w.empty() || next_is_value() || w == "matr" || upper) return;
    std::string list;
    for (const auto& f : forms) list += (list.empty() ? "" : ", ") + f;
    const std::string near = closest_match(w, forms);
    error("unknown matrix form '" + w + "' for " + std::string(what),
          (near.empty() ? "" : "did you mean '" + near + "'? ") + "the forms are " + list +
              ", or the values row by row");
}

Mat3 DeckReader::mat3(std::string_view what) {
    Mat3 m = Mat3::Zero();
    auto values = [&](int n, const char* form) { return reals(n, what, form); };
    if (accept("eye"))
        m = Mat3::Identity();
    else if (accept("null"))
        m.setZero();
    else if (accept("sym")) {
        auto v = values(6, "sym Mat3x3");
        m << v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5];
    } else if (accept("diag")) {
        auto v = values(3, "diag Mat3x3");
        m.diagonal() << v[0], v[1], v[2];
    } else if (accept("skew")) {
        auto v = values(3, "skew Mat3x3");
        m = skew(Vec3(v[0], v[1], v[2]));
    } else {
        unknown_matrix_form(what, {"eye", "null", "sym", "diag", "skew", "matr"});
        accept("matr");
        auto v = values(9, "Mat3x3");
        m << v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8];
    }
    if (accept("scale")) m *= real("scale factor");
    return m;
}

Mat6 DeckReader::mat6(std::string_view what) {
    Mat6 m = Mat6::Zero();
    auto values = [&](int n, const char* form) { return reals(n, what, form); };
    if (accept("eye"))
        m = Mat6::Identity();
    else if (accept("null"))
        m.setZero();
    else if (accept("sym")) {
        auto v = values(21, "sym Mat6x6");
        int k = 0;
        for (int i = 0; i < 6; ++i)
            for (int j = i; j < 6; ++j) m(i, j) = m(j, i) = v[k++];
    } else if (accept("diag")) {
        auto v = values(6, "diag Mat6x6");
        for (int i = 0; i < 6; ++i) m(i, i) = v[i];
    } else if (peek("anba")) {
        error("the 'anba' Mat6x6 form is not supported",
              "give the 36 values in the beam section frame");
    } else {
        unknown_matrix_form(what, {"eye", "null", "sym", "diag", "matr"});
        accept("matr");
        auto v = values(36, "Mat6x6");
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j) m(i, j) = v[6 * i + j];
    }
    if (accept("scale")) m *= real("scale factor");
    return m;
}

VecN DeckReader::entity(int dim, std::string_view what) {
    if (dim == 1) return {real(what)};
    if (dim == 3) {
        Vec3 v = vec3(what);
        return {v[0], v[1], v[2]};
    }
    if (dim == 6) {
        Vec6 v = vec6(what);
        return VecN(v.data(), v.data() + 6);
    }
    error("internal: entity of dimension " + std::to_string(dim));
}

VecN DeckReader::deriv_entity(int dim, std::string_view what) {
    if (dim == 1) return {real(what)};
    VecN out;
    if (dim == 3) {
        Mat3 m = mat3(what);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) out.push_back(m(i, j));
    } else if (dim == 6) {
        Mat6 m = mat6(what);
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j) out.push_back(m(i, j));
    } else {
        error("internal: entity of dimension " + std::to_string(dim));
    }
    return out;
}

// Orientation matrix forms: eye | matr 9 [, tolerance, t] | euler{123,313,321} [, degrees] 3 |
// vector 3 | two-vector "i1, v1, i2, {v2 | guess}".
Mat3 DeckReader::orientation_plain(std::string_view what) {
    if (accept("eye")) return Mat3::Identity();
    if (peek("null")) error("'null' is not an orientation matrix", "use 'eye' for the identity");
    if (peek("euler parameters"))
        error("'euler parameters' orientation is not implemented (as in MBDyn)");
    if (accept("matr")) {
        SourceLoc at = loc();
        Mat3 m = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(
            reals(9, what, "matr").data());
        double tol = 1e-12 * 1e3;
        if (accept("tolerance")) tol = nonnegative("orthogonality tolerance");
        double err = (m.transpose() * m - Mat3::Identity()).norm();
        if (!(std::fabs(m.determinant()) > 1e-12))
            throw InputError(at, "orientation matrix for " + std::string(what) +
                                     " is singular (determinant " +
                                     Value::of_real(m.determinant()).to_string() + ")");
        if (m.determinant() < 0)
            throw InputError(at,
                             "orientation matrix for " + std::string(what) +
                                 " is a reflection (determinant " +
                                 Value::of_real(m.determinant()).to_string() + ")",
                             "a rotation matrix has determinant +1; check the sign of one axis");
        if (!(err <= tol)) {
            st_.diag.warn(at, "orientation matrix for " + std::string(what) +
                                  " is not orthogonal (|R^T R - I| = " +
                                  Value::of_real(err).to_string() + "); it is used as written");
        }
        return m;
    }
    for (const char* kw : {"euler", "euler123", "euler313", "euler321"}) {
        if (!accept(kw)) continue;
        bool deg = accept("degrees");
        VecN r = reals(3, what, kw, "angles");
        Vec3 a(r[0], r[1], r[2]);
        if (deg) a *= M_PI / 180.0;
        std::string k(kw);
        return k == "euler313"   ? euler313_to_matrix(a)
               : k == "euler321" ? euler321_to_matrix(a)
                                 : euler123_to_matrix(a);
    }
    if (accept("vector")) return rotation_vector_to_matrix(vec3("rotation vector"));
    // Two-vector form.
    std::string w = peek_word();
    if (!w.empty() && !next_is_value()) {
        std::string near =
            closest_match(w, {"eye", "matr", "euler123", "euler313", "euler321", "vector"});
        error("unknown orientation form '" + w + "' for " + std::string(what),
              near.empty()
                  ? "use eye, matr, euler123, euler313, euler321, vector, or 'i1, v1, i2, v2'"
                  : "did you mean '" + near + "'?");
    }
    SourceLoc at1 = loc();
    long i1 = integer("first axis index of the orientation (1, 2 or 3)");
    if (i1 < 1 || i1 > 3)
        throw InputError(at1,
                         "orientation axis index must be 1, 2 or 3, got " + std::to_string(i1));
    Vec3 v1 = vec3("first orientation vector");
    SourceLoc at2 = loc();
    long i2 = integer("second axis index of the orientation (1, 2 or 3)");
    if (i2 < 1 || i2 > 3)
        throw InputError(at2,
                         "orientation axis index must be 1, 2 or 3, got " + std::to_string(i2));
    if (i2 == i1)
        throw InputError(at2, "the two orientation axis indices are both " + std::to_string(i1),
                         "use two different axes");
    SourceLoc atv = loc();
    Vec3 v2;
    bool guess = accept("guess");
    if (v1.norm() == 0.0) throw InputError(at1, "the first orientation vector is zero");
    Vec3 e1 = v1.normalized();
    if (guess) {
        // MBDyn's choice (GetMatR2vec): with i_min/i_max the smallest/largest |component| of v1,
        // v2(i_min) = 1 and v2(i_max) = -v1(i_min)/v1(i_max): orthogonal to v1.
        // Ties: the first smallest and the first largest component.
        int kmin = 0, kmax = 0;
        for (int k = 1; k < 3; ++k) {
            if (std::fabs(v1[k]) < std::fabs(v1[kmin])) kmin = k;
            if (std::fabs(v1[k]) > std::fabs(v1[kmax])) kmax = k;
        }
        v2.setZero();
        v2[kmin] = 1.0;
        if (kmax != kmin) v2[kmax] = -v1[kmin] / v1[kmax];
    } else {
        v2 = vec3("second orientation vector");
    }
    int a = static_cast<int>(i1 - 1), b = static_cast<int>(i2 - 1), c = 3 - a - b;
    bool cyclic = (b - a + 3) % 3 == 1;
    Vec3 e3 = cyclic ? e1.cross(v2) : Vec3(v2.cross(e1));
    if (e3.norm() < 1e-12 * std::max(1.0, v2.norm()))
        throw InputError(
            atv, "the two orientation vectors are parallel (or the second is zero)",
            "the second vector only fixes the plane: it must not be parallel to the first");
    e3.normalize();
    Vec3 e2 = cyclic ? e3.cross(e1) : e1.cross(e3);
    Mat3 R;
    R.col(a) = e1;
    R.col(b) = e2;
    R.col(c) = e3;
    return R;
}

// Absolute position: none/global -> v; label -> X + R v; node -> x_ctx + R_ctx v.
Vec3 DeckReader::position_abs(std::string_view what, const EntityDesc* context) {
    Frame f = frame_prefix();
    Vec3 v = vec3(what);
    if (f.kind == Frame::label) return f.ref->x + f.ref->R * v;
    if (f.kind == Frame::node && context) return node_x(*context) + node_R(*context) * v;
    return v;
}

// Absolute orientation: none/global -> Rv; label -> R Rv; node -> R_ctx Rv.
Mat3 DeckReader::orientation_abs(std::string_view what, const EntityDesc* context) {
    Frame f = frame_prefix();
    Mat3 m = orientation_plain(what);
    if (f.kind == Frame::label) return f.ref->R * m;
    if (f.kind == Frame::node && context) return node_R(*context) * m;
    return m;
}

// Relative position (offset in the node frame): none/node -> v; global -> Rn^T (v - xn);
// label -> Rn^T (X + R v - xn).
Vec3 DeckReader::position_rel(const EntityDesc& n, std::string_view what) {
    Frame f = frame_prefix();
    Vec3 v = vec3(what);
    if (f.kind == Frame::global) return node_R(n).transpose() * (v - node_x(n));
    if (f.kind == Frame::label)
        return node_R(n).transpose() * (f.ref->x + f.ref->R * v - node_x(n));
    return v;
}

// Relative orientation: none/node -> Rv; global -> Rn^T Rv; label -> Rn^T R Rv.
Mat3 DeckReader::orientation_rel(const EntityDesc& n, std::string_view what) {
    Frame f = frame_prefix();
    Mat3 m = orientation_plain(what);
    if (f.kind == Frame::global) return node_R(n).transpose() * m;
    if (f.kind == Frame::label) return node_R(n).transpose() * f.ref->R * m;
    return m;
}

// Absolute velocity: label -> V + R v + W x (x - X), with x the entity's resolved position.
Vec3 DeckReader::velocity_abs(const Vec3& x, std::string_view what) {
    Frame f = frame_prefix();
    Vec3 v = vec3(what);
    if (f.kind == Frame::label) return f.ref->v + f.ref->R * v + f.ref->w.cross(x - f.ref->x);
    return v;
}

// Absolute angular velocity: label -> W + R w.
Vec3 DeckReader::angular_velocity_abs(std::string_view what) {
    Frame f = frame_prefix();
    Vec3 w = vec3(what);
    if (f.kind == Frame::label) return f.ref->w + f.ref->R * w;
    return w;
}

// Direction relative to a node: none/node -> v; global -> Rn^T v; label -> Rn^T R v.
Vec3 DeckReader::direction_rel(const EntityDesc& n, std::string_view what) {
    Frame f = frame_prefix();
    Vec3 v = vec3(what);
    if (f.kind == Frame::global) return node_R(n).transpose() * v;
    if (f.kind == Frame::label) return node_R(n).transpose() * f.ref->R * v;
    return v;
}

// Absolute direction: none/global -> v; label -> R v; node -> Rn v.
Vec3 DeckReader::direction_abs(const EntityDesc* n, std::string_view what) {
    Frame f = frame_prefix();
    Vec3 v = vec3(what);
    if (f.kind == Frame::label) return f.ref->R * v;
    if (f.kind == Frame::node && n) return node_R(*n) * v;
    return v;
}

// Relative Mat3 (inertia): global -> Rn^T J Rn; label -> Rn^T R J R^T Rn.
Mat3 DeckReader::mat3_rel(const EntityDesc& n, std::string_view what) {
    Frame f = frame_prefix();
    Mat3 J = mat3(what);
    Mat3 Rn = node_R(n);
    if (f.kind == Frame::global) return Rn.transpose() * J * Rn;
    if (f.kind == Frame::label) return Rn.transpose() * f.ref->R * J * f.ref->R.transpose() * Rn;
    return J;
}

// Second node b of a two-node joint, node a with offset fa:
//   other position: fb = Rb^T (xa + Ra (fa + p) - xb);  other node: fb = Rb^T (xa + Ra p - xb).
Vec3 DeckReader::position_rel_other(const EntityDesc& nb, const EntityDesc& na, const Vec3& fa,
                                    std::string_view what) {
    std::size_t save = pos_;
    Frame f = frame_prefix(true);
    if (f.kind == Frame::other_orientation)
        throw InputError(f.loc, "'other orientation' is not a position frame");
    if (f.kind == Frame::other_position || f.kind == Frame::other_node) {
        Vec3 p = vec3(what);
        Vec3 base = f.kind == Frame::other_position ? Vec3(fa + p) : p;
        return node_R(nb).transpose() * (node_x(na) + node_R(na) * base - node_x(nb));
    }
    pos_ = save;
    return position_rel(nb, what);
}

//   other orientation: Rhb = Rb^T Ra Rha R;  other node: Rhb = Rb^T Ra R.
Mat3 DeckReader::orientation_rel_other(const EntityDesc& nb, const EntityDesc& na, const Mat3& Rha,
                                       std::string_view what) {
    std::size_t save = pos_;
    Frame f = frame_prefix(true);
    if (f.kind == Frame::other_position)
        throw InputError(f.loc, "'other position' is not an orientation frame");
    if (f.kind == Frame::other_orientation || f.kind == Frame::other_node) {
        Mat3 m = orientation_plain(what);
        Mat3 base = f.kind == Frame::other_orientation ? Mat3(Rha * m) : m;
        return node_R(nb).transpose() * node_R(na) * base;
    }
    pos_ = save;
    return orientation_rel(nb, what);
}

}  // namespace mbs::parser

// el::put_orientation and el::joint_orientation (joint_orientation.hpp): each format turned
// back into the matrix by its definition (core/math.hpp), the matrix row by row, the card's
// description over the default, and the NetCDF/HDF5 quantity of each format.
#include "elements/joints/joint_orientation.hpp"

#include <gtest/gtest.h>

#include "core/math.hpp"

namespace {

using mbs::Mat3;
using mbs::OutputSchema;
using mbs::Vec3;
using mbs::el::Od;

// A rotation away from the Euler singularities of the three sequences.
Mat3 sample() { return mbs::rot_x(0.3) * mbs::rot_y(-0.7) * mbs::rot_z(1.1) * mbs::rot_x(0.4); }

TEST(JointOrientation, EachFormatIsTheRotation) {
    const Mat3 R = sample();
    double v[9];
    constexpr double rad = M_PI / 180.0;
    ASSERT_EQ(mbs::el::put_orientation(Od::euler123, R, v), 3);
    // Observed (round-off) 9.6e-17, 3.2e-16, 1.4e-16, 4.5e-16; tolerances 5 to 10 times these.
    EXPECT_LT((mbs::euler123_to_matrix(Vec3(v[0], v[1], v[2]) * rad) - R).norm(), 5e-16);
    ASSERT_EQ(mbs::el::put_orientation(Od::euler313, R, v), 3);
    EXPECT_LT((mbs::euler313_to_matrix(Vec3(v[0], v[1], v[2]) * rad) - R).norm(), 3e-15);
    ASSERT_EQ(mbs::el::put_orientation(Od::euler321, R, v), 3);
    EXPECT_LT((mbs::euler321_to_matrix(Vec3(v[0], v[1], v[2]) * rad) - R).norm(), 1e-15);
    ASSERT_EQ(mbs::el::put_orientation(Od::vector, R, v), 3);
    EXPECT_LT((mbs::rotation_vector_to_matrix(Vec3(v[0], v[1], v[2])) - R).norm(), 4e-15);
    ASSERT_EQ(mbs::el::put_orientation(Od::matrix, R, v), 9);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(v[3 * i + j], R(i, j));
}

TEST(JointOrientation, CardOverDefault) {
    EXPECT_EQ(mbs::el::joint_od("", "euler123"), Od::euler123);
    EXPECT_EQ(mbs::el::joint_od("", "orientation matrix"), Od::matrix);
    EXPECT_EQ(mbs::el::joint_od("euler313", "orientation matrix"), Od::euler313);
    EXPECT_EQ(mbs::el::joint_od("orientation vector", "euler321"), Od::vector);
    EXPECT_EQ(mbs::el::joint_od("euler321", "euler123"), Od::euler321);
    EXPECT_EQ(mbs::el::od_columns(Od::matrix), 9);
    EXPECT_EQ(mbs::el::od_columns(Od::vector), 3);
}

TEST(JointOrientation, QuantityPerFormat) {
    struct Case {
        Od od;
        const char* name;
        int ncomp;
        const char* units;
        const char* in_description;
        const char* keyword;
    };
    const Case cases[] = {{Od::euler123, "E", 3, "deg", "(123)", "euler123"},
                          {Od::euler313, "E", 3, "deg", "(313)", "euler313"},
                          {Od::euler321, "E", 3, "deg", "(321)", "euler321"},
                          {Od::vector, "Phi", 3, "radian", "vector", "orientation vector"},
                          {Od::matrix, "R", 9, "-", "row-major", "orientation matrix"}};
    for (const Case& c : cases) {
        OutputSchema s;
        mbs::el::joint_orientation(s, c.od, 12);
        ASSERT_EQ(s.quantities.size(), 1u);
        const auto& q = s.quantities[0];
        EXPECT_EQ(q.name, c.name);
        EXPECT_EQ(q.ncomp, c.ncomp);
        EXPECT_STREQ(q.units, c.units);
        EXPECT_EQ(q.column, 12);
        EXPECT_NE(q.description.find(c.in_description), std::string::npos) << q.description;
        EXPECT_EQ(s.orientation, c.keyword);
    }
}

}  // namespace

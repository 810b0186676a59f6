// test_util.h - small helpers shared by the engine suites (tolerances, conversions, assets).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "attention.h"
#include "reference_attention.h"

#ifndef ATTN_ASSETS_DIR
#error "ATTN_ASSETS_DIR must point at the repository's assets/ folder"
#endif

namespace test {

constexpr double kRefTol = 1e-4;     // engine vs naive reference, golden values
constexpr double kSumTol = 1e-6;     // weights sum to 1
constexpr double kTightTol = 1e-12;  // the same arithmetic done two ways

inline std::string asset(const std::string& rel) {
    return std::string(ATTN_ASSETS_DIR) + "/" + rel;
}

inline ::testing::AssertionResult AllFinite(const attn::Vector& v) {
    for (std::size_t i = 0; i < v.size(); i++)
        if (!std::isfinite(v[i]))
            return ::testing::AssertionFailure() << "entry " << i << " is " << v[i];
    return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult AllFinite(const attn::Matrix& m) { return AllFinite(m.data); }

inline double sum(const attn::Vector& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
}

inline attn::Matrix to_matrix(const ref::Mat& m) {
    attn::Matrix r =
        attn::zeros(static_cast<int>(m.size()), m.empty() ? 0 : static_cast<int>(m[0].size()));
    for (int i = 0; i < r.rows; i++)
        for (int j = 0; j < r.cols; j++) r.at(i, j) = m[i][j];
    return r;
}

inline ref::Mat to_ref(const attn::Matrix& m) {
    ref::Mat r(m.rows, ref::Vec(m.cols));
    for (int i = 0; i < m.rows; i++)
        for (int j = 0; j < m.cols; j++) r[i][j] = m.at(i, j);
    return r;
}

inline void expect_near(const attn::Matrix& a, const ref::Mat& b, double tol, const char* what) {
    ASSERT_EQ(a.rows, static_cast<int>(b.size())) << what;
    for (int i = 0; i < a.rows; i++) {
        ASSERT_EQ(a.cols, static_cast<int>(b[i].size())) << what;
        for (int j = 0; j < a.cols; j++)
            EXPECT_NEAR(a.at(i, j), b[i][j], tol) << what << " " << i << "," << j;
    }
}

inline void expect_near(const attn::Vector& a, const ref::Vec& b, double tol, const char* what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (std::size_t i = 0; i < a.size(); i++) EXPECT_NEAR(a[i], b[i], tol) << what << " " << i;
}

// A simple valid focus input: q, three keys, three values, d = 4.
inline attn::FocusInput small_input() {
    attn::FocusInput in;
    in.query = {1.0, -0.5, 0.25, 2.0};
    in.keys = {{0.5, 1.0, -1.0, 0.75}, {-1.0, 0.0, 2.0, 0.5}, {0.25, 0.25, 0.25, 0.25}};
    in.values = {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};
    return in;
}

// Deterministic pseudo-random numbers in [-1, 1) for property tests (no std::rand state).
struct Lcg {
    std::uint64_t s;
    double next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
    }
    attn::Vector vec(std::size_t n, double amp = 1.0) {
        attn::Vector v(n);
        for (double& x : v) x = amp * next();
        return v;
    }
};

}  // namespace test

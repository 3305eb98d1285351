#include "models/tensor/dtype.h"

#include <QtTest>

#include <cmath>
#include <cstddef>

using namespace runlens::models::tensor;

class TstDType : public QObject
{
    Q_OBJECT

private slots:
    void halfMatchesNumpy()
    {
        // Expected values from numpy: np.frombuffer(struct.pack('<H', bits), dtype='<f2').
        const std::pair<std::uint16_t, double> cases[] = {
            { 0x0000, 0.0 },
            { 0x0001, 5.960464477539063e-08 },
            { 0x03ff, 6.097555160522461e-05 },
            { 0x3c00, 1.0 },
            { 0xc000, -2.0 },
            { 0x7bff, 65504.0 },
            { 0x3555, 0.333251953125 },
        };
        for (const auto& [bits, expected] : cases)
            QCOMPARE(double(halfToFloat(bits)), expected);
        QVERIFY(std::isinf(halfToFloat(0x7c00)) && halfToFloat(0x7c00) > 0);
        QVERIFY(std::isinf(halfToFloat(0xfc00)) && halfToFloat(0xfc00) < 0);
        QVERIFY(std::isnan(halfToFloat(0x7e00)));
    }

    void bfloatAndFloat8()
    {
        QCOMPARE(bfloat16ToFloat(0x3f80), 1.0f); // upper half of 1.0f
        QCOMPARE(bfloat16ToFloat(0xc0a0), -5.0f);
        // E4M3FN: bias 7, 3 mantissa bits, no infinities; 0x7e = 448 is the largest finite value.
        QCOMPARE(float8E4M3ToFloat(0x38), 1.0f);
        QCOMPARE(float8E4M3ToFloat(0x7e), 448.0f);
        QCOMPARE(float8E4M3ToFloat(0x01), std::ldexp(1.0f, -9)); // smallest subnormal
        QCOMPARE(float8E4M3ToFloat(0xb8), -1.0f);
        QVERIFY(std::isnan(float8E4M3ToFloat(0x7f)));
        // E5M2: the upper byte of a half.
        QCOMPARE(float8E5M2ToFloat(0x3c), 1.0f);
        QCOMPARE(float8E5M2ToFloat(0x7b), 57344.0f);
        QVERIFY(std::isinf(float8E5M2ToFloat(0x7c)));
    }

    void loadsEveryTypeInBothByteOrders()
    {
        const std::byte bigOne[4] = { std::byte(0x3f), std::byte(0xc0), std::byte(0), std::byte(0) }; // 1.5f
        QCOMPARE(loadElement(bigOne, DType::Float32, true), 1.5);
        const std::int64_t minusSeven = -7;
        QCOMPARE(loadElement(reinterpret_cast<const std::byte*>(&minusSeven), DType::Int64, false), -7.0);
        const std::uint16_t big65535 = 0xffff;
        QCOMPARE(loadElement(reinterpret_cast<const std::byte*>(&big65535), DType::UInt16, true), 65535.0);
        const std::byte truth = std::byte(2);
        QCOMPARE(loadElement(&truth, DType::Bool, false), 1.0);
        const float complexValue[2] = { 2.5f, -1.0f };
        QCOMPARE(loadElement(reinterpret_cast<const std::byte*>(complexValue), DType::Complex64, false), 2.5);
        QCOMPARE(itemSize(DType::Complex128), 16);
        QCOMPARE(itemSize(DType::BFloat16), 2);
        QCOMPARE(dtypeName(DType::Float8E4M3), std::string_view("float8_e4m3fn"));
        QVERIFY(isFloating(DType::BFloat16));
        QVERIFY(!isFloating(DType::Int8));
    }
};

QTEST_GUILESS_MAIN(TstDType)
#include "tst_dtype.moc"

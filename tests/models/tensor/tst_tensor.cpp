#include "models/tensor/tensor.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>

using namespace runlens::models::tensor;

namespace {

/// A C-ordered float32 tensor holding 0, 1, 2, ... over bytes in memory.
Tensor arangeFloat(const std::vector<std::int64_t>& shape)
{
    Tensor t;
    t.dtype = DType::Float32;
    t.shape = shape;
    t.strides = Tensor::contiguousStrides(shape, 4);
    std::vector<std::byte> bytes(size_t(t.elementCount()) * 4);
    for (std::int64_t i = 0; i < t.elementCount(); ++i) {
        const float v = float(i);
        std::memcpy(bytes.data() + i * 4, &v, 4);
    }
    t.data = std::make_shared<MemoryTensorData>(std::move(bytes));
    return t;
}

} // namespace

class TstTensor : public QObject
{
    Q_OBJECT

private slots:
    void countsAndContiguity()
    {
        Tensor t = arangeFloat({ 2, 3, 4 });
        QCOMPARE(t.elementCount(), 24);
        QCOMPARE(t.strides, (std::vector<std::int64_t> { 48, 16, 4 }));
        QVERIFY(t.isContiguous());
        Tensor scalar = arangeFloat({});
        QCOMPARE(scalar.elementCount(), 1);
        QVERIFY(scalar.isContiguous());
        QCOMPARE(scalar.value({}), 0.0);
        QCOMPARE(arangeFloat({ 3, 0 }).elementCount(), 0);

        // The transpose (Fortran order over the same bytes) is not C-contiguous.
        Tensor transposed = t;
        transposed.shape = { 4, 3, 2 };
        transposed.strides = { 4, 16, 48 };
        QVERIFY(!transposed.isContiguous());
        QCOMPARE(transposed.value({ 3, 2, 1 }), 23.0);
        QCOMPARE(transposed.value({ 1, 0, 1 }), 13.0);
    }

    void valuesAndBounds()
    {
        const Tensor t = arangeFloat({ 2, 3, 4 });
        QCOMPARE(t.value({ 0, 0, 0 }), 0.0);
        QCOMPARE(t.value({ 1, 2, 3 }), 23.0);
        QCOMPARE(t.value({ 1, 0, 2 }), 14.0);
        QVERIFY(std::isnan(t.value({ 2, 0, 0 })));
        QVERIFY(std::isnan(t.value({ 0, -1, 0 })));
        QVERIFY(std::isnan(t.value({ 0, 0 })));

        // Negative strides walk backwards from the offset.
        Tensor reversed = t;
        reversed.offset = 23 * 4;
        reversed.strides = { -48, -16, -4 };
        QCOMPARE(reversed.value({ 0, 0, 0 }), 23.0);
        QCOMPARE(reversed.value({ 1, 2, 3 }), 0.0);
        QVERIFY(!reversed.isContiguous());

        // A view claiming more than the data holds reads NaN, never past the end.
        Tensor tooLong = t;
        tooLong.shape = { 3, 3, 4 };
        QVERIFY(std::isnan(tooLong.value({ 2, 0, 0 })));
    }

    void hostileShapes()
    {
        // Shapes read from headers: a zero beside huge extents is empty, a product past 2^63 saturates instead
        // of overflowing (the asan preset halts on signed overflow), a negative extent is empty.
        const std::int64_t huge = std::int64_t(1) << 40;
        QCOMPARE(elementCount({ huge, 0, huge, huge }), std::int64_t(0));
        QCOMPARE(elementCount({ huge, huge, huge }), std::numeric_limits<std::int64_t>::max());
        QCOMPARE(elementCount({ 3, -2 }), std::int64_t(0));
        const auto strides = Tensor::contiguousStrides({ huge, huge, huge }, 8);
        QCOMPARE(strides[2], std::int64_t(8));
        QCOMPARE(strides[0], std::numeric_limits<std::int64_t>::max());
        Tensor t;
        t.dtype = DType::Float32;
        t.shape = { huge, huge, huge };
        t.strides = Tensor::contiguousStrides(t.shape, 4);
        t.data = std::make_shared<MemoryTensorData>(std::vector<std::byte>(16));
        QVERIFY(std::isnan(t.value({ huge - 1, huge - 1, huge - 1 })));
        QCOMPARE(t.value({ 0, 0, 3 }), 0.0);
    }

    void swappedByteOrder()
    {
        Tensor t;
        t.dtype = DType::Int32;
        t.shape = { 2 };
        t.strides = { 4 };
        t.swap = true;
        const unsigned char raw[] = { 0, 0, 1, 2, 0xff, 0xff, 0xff, 0xfe }; // big-endian 258, -2
        std::vector<std::byte> bytes(8);
        std::memcpy(bytes.data(), raw, 8);
        t.data = std::make_shared<MemoryTensorData>(std::move(bytes));
        if (std::endian::native == std::endian::little) {
            QCOMPARE(t.value({ 0 }), 258.0);
            QCOMPARE(t.value({ 1 }), -2.0);
        }
    }
};

QTEST_GUILESS_MAIN(TstTensor)
#include "tst_tensor.moc"

#include "widgets/tensor/tensortablemodel.h"
#include "widgets/tensor/tensortableview.h"

#include "models/tensor/tensorslice.h"
#include "tests/widgets/tensor/tst_tensortablemodel_data.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QHeaderView>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace runlens::models::tensor;
using runlens::widgets::tensor::TensorTableModel;
using runlens::widgets::tensor::TensorTableView;

namespace {

using runlens::test::tensorOf;

const QString kDataDir = QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/");

/// compare_table_base.bin of compare_oracle.py: float32 (4, 5, 6).
Tensor tableBase()
{
    QFile file(kDataDir + QStringLiteral("compare_table_base.bin"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray raw = file.readAll();
    std::vector<float> values(size_t(raw.size()) / 4);
    std::memcpy(values.data(), raw.constData(), values.size() * 4);
    return tensorOf(values, DType::Float32, { 4, 5, 6 });
}

} // namespace

class TestTensorTableModel : public QObject
{
    Q_OBJECT

private slots:
    void stridedViewOf3d()
    {
        const Tensor base = tableBase();
        QVERIFY(base.data);
        QCOMPARE(base.data->size(), 4 * 5 * 6 * 4);
        const SliceResult slice = sliceTensor(base, QStringLiteral("[1, ::2, 1::2]"));
        QVERIFY2(slice.tensor, qPrintable(slice.error));
        const Tensor& view = *slice.tensor;
        QCOMPARE(view.shape, (std::vector<std::int64_t> { 3, 3 }));
        QVERIFY(!view.isContiguous());

        TensorTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTensor(view);
        model.setAxisOrigins(0, 2, 1, 2);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 3);
        // Header sections name indices in the 3-D tensor: rows 0, 2, 4 and columns 1, 3, 5.
        QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("2"));
        QCOMPARE(model.headerData(2, Qt::Vertical).toString(), QStringLiteral("4"));
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("1"));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("5"));

        // Every cell against the tensor's own reading of the base and against numpy's text of the view.
        QFile expected(kDataDir + QStringLiteral("compare_table_view.tsv"));
        QVERIFY(expected.open(QIODevice::ReadOnly | QIODevice::Text));
        QStringList lines;
        for (int r = 0; r < 3; ++r) {
            const QString line = QString::fromUtf8(expected.readLine()).trimmed();
            lines << line;
            const QStringList numpyText = line.split(QLatin1Char('\t'));
            QCOMPARE(numpyText.size(), 3);
            for (int c = 0; c < 3; ++c) {
                const double want = base.value({ 1, 2 * r, 1 + 2 * c });
                const double got = model.data(model.index(r, c), TensorTableModel::ValueRole).toDouble();
                QVERIFY(std::isnan(want) ? std::isnan(got) : got == want);
                QCOMPARE(model.fullText(r, c), numpyText[c]);
                QVERIFY(model.data(model.index(r, c), Qt::ToolTipRole)
                            .toString()
                            .startsWith(QStringLiteral("[%1, %2] = ").arg(2 * r).arg(1 + 2 * c)));
            }
        }
        // The whole view copied is numpy's text.
        QModelIndexList all;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                all << model.index(r, c);
        QCOMPARE(model.toTsv(all), lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    }

    void tsvBoundingBoxAndIndices()
    {
        std::vector<double> values(12);
        for (size_t i = 0; i < values.size(); ++i)
            values[i] = double(i) + 0.5;
        TensorTableModel model;
        model.setTensor(tensorOf(values, DType::Float64, { 3, 4 }));
        model.setAxisOrigins(10, 1, 0, 1);
        // Two corners of a 2x3 box: the cells between them stay empty.
        const QModelIndexList cells = { model.index(0, 1), model.index(1, 3) };
        QCOMPARE(model.toTsv(cells), QStringLiteral("1.5\t\t\n\t\t7.5\n"));
        QCOMPARE(model.toTsvWithIndices(cells), QStringLiteral("\t1\t2\t3\n10\t1.5\t\t\n11\t\t\t7.5\n"));
        QCOMPARE(model.toTsv({}), QString());
    }

    void ranksAndRefusal()
    {
        TensorTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTensor(tensorOf(std::vector<float> { 2.5f }, DType::Float32, {}));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), 1);
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("2.5"));

        model.setTensor(tensorOf(std::vector<std::int32_t> { 4, 5, 6, 7 }, DType::Int32, { 4 }));
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), 1);
        QCOMPARE(model.data(model.index(3, 0)).toString(), QStringLiteral("7"));
        QCOMPARE(model.headerData(3, Qt::Vertical).toString(), QStringLiteral("3"));

        model.setTensor(tensorOf(std::vector<float>(8, 1.f), DType::Float32, { 2, 2, 2 }));
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);

        // A view reaching past its data is refused rather than read.
        Tensor overlong = tensorOf(std::vector<float>(4, 1.f), DType::Float32, { 2, 2 });
        overlong.shape = { 3, 2 };
        model.setTensor(overlong);
        QCOMPARE(model.rowCount(), 0);
    }

    void integersExact()
    {
        const std::vector<std::int64_t> ints
            = { std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min(),
                (std::int64_t(1) << 53) + 1, -7 };
        TensorTableModel model;
        model.setTensor(tensorOf(ints, DType::Int64, { 2, 2 }));
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("9223372036854775807"));
        QCOMPARE(model.data(model.index(0, 1)).toString(), QStringLiteral("-9223372036854775808"));
        QCOMPARE(model.data(model.index(1, 0)).toString(), QStringLiteral("9007199254740993"));
        QCOMPARE(model.data(model.index(1, 1)).toString(), QStringLiteral("-7"));

        const std::vector<std::uint64_t> uints = { std::numeric_limits<std::uint64_t>::max() };
        model.setTensor(tensorOf(uints, DType::UInt64, { 1 }));
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("18446744073709551615"));

        // Big-endian int64 read with its bytes swapped.
        Tensor big = tensorOf(std::vector<std::uint64_t> { 0x0100000000000000ull }, DType::Int64, { 1 });
        big.swap = true;
        model.setTensor(big);
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("1"));

        const std::vector<std::uint8_t> flags = { 1, 0 };
        model.setTensor(tensorOf(flags, DType::Bool, { 2 }));
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("true"));
        QCOMPARE(model.data(model.index(1, 0)).toString(), QStringLiteral("false"));
    }

    void precisionAndNotation()
    {
        TensorTableModel model;
        model.setTensor(tensorOf(std::vector<double> { 3.14159265358979, 12345.678 }, DType::Float64, { 2 }));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setPrecision(3);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("3.14"));
        model.setScientific(true);
        QCOMPARE(model.data(model.index(1, 0)).toString(), QStringLiteral("1.235e+04"));
        // Full precision whatever the display precision.
        QCOMPARE(model.fullText(0, 0), QStringLiteral("3.14159265358979"));
    }

    void specialValueRoles()
    {
        const float inf = std::numeric_limits<float>::infinity();
        TensorTableModel model;
        model.setTensor(tensorOf(std::vector<float> { std::nanf(""), inf, -inf, 0.f, 1.f }, DType::Float32, { 5 }));
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("nan"));
        QCOMPARE(model.data(model.index(1, 0)).toString(), QStringLiteral("inf"));
        QCOMPARE(model.data(model.index(2, 0)).toString(), QStringLiteral("-inf"));
        QVERIFY(std::isnan(model.data(model.index(0, 0), TensorTableModel::ValueRole).toDouble()));
        const QVariant nanBackground = model.data(model.index(0, 0), Qt::BackgroundRole);
        const QVariant posInfBackground = model.data(model.index(1, 0), Qt::BackgroundRole);
        const QVariant negInfBackground = model.data(model.index(2, 0), Qt::BackgroundRole);
        QVERIFY(nanBackground.canConvert<QColor>());
        QVERIFY(posInfBackground.canConvert<QColor>());
        QVERIFY(negInfBackground.canConvert<QColor>());
        QVERIFY(nanBackground.value<QColor>() != posInfBackground.value<QColor>());
        QVERIFY(posInfBackground.value<QColor>() != negInfBackground.value<QColor>());
        QVERIFY(!model.data(model.index(4, 0), Qt::BackgroundRole).isValid());
        // Zeros are muted, ordinary values keep the default colour.
        QVERIFY(model.data(model.index(3, 0), Qt::ForegroundRole).canConvert<QColor>());
        QVERIFY(!model.data(model.index(4, 0), Qt::ForegroundRole).isValid());
    }

    void manyRowsNoStorage()
    {
        // Ten million rows over one shared float: a zero stride repeats it, so nothing is allocated per row.
        Tensor t = tensorOf(std::vector<float> { 1.25f }, DType::Float32, { 1 });
        t.shape = { 10'000'000 };
        t.strides = { 0 };
        TensorTableModel model;
        model.setTensor(t);
        QCOMPARE(model.rowCount(), 10'000'000);
        QCOMPARE(model.data(model.index(9'999'999, 0)).toString(), QStringLiteral("1.25"));

        TensorTableView view;
        view.setModel(&model);
        QCOMPARE(view.verticalHeader()->sectionResizeMode(0), QHeaderView::Fixed);
        view.resize(400, 300);
        view.scrollToBottom();
        QVERIFY(view.rowAt(view.viewport()->height() - 2) > 9'999'000);
    }

    void viewCopiesSelection()
    {
        std::vector<std::int32_t> values(20);
        for (size_t i = 0; i < values.size(); ++i)
            values[i] = int(i);
        TensorTableModel model;
        model.setTensor(tensorOf(values, DType::Int32, { 4, 5 }));
        TensorTableView view;
        view.setModel(&model);
        view.resize(500, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.selectionModel()->select(QItemSelection(model.index(1, 1), model.index(2, 2)),
                                      QItemSelectionModel::Select);
        QCOMPARE(view.selectionAsTsv(false), QStringLiteral("6\t7\n11\t12\n"));
        QCOMPARE(view.selectionAsTsv(true), QStringLiteral("\t1\t2\n1\t6\t7\n2\t11\t12\n"));
        QApplication::clipboard()->clear();
        QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("6\t7\n11\t12\n"));

        // A second, separate cell widens the box; the cells between stay empty.
        view.selectionModel()->select(model.index(3, 4), QItemSelectionModel::Select);
        QCOMPARE(view.selectionAsTsv(false), QStringLiteral("6\t7\t\t\n11\t12\t\t\n\t\t\t19\n"));
        QCOMPARE(view.selectionAsTsv(false), model.toTsv(view.selectionModel()->selectedIndexes()));
        view.selectAll();
        QCOMPARE(view.selectionAsTsv(false).count(QLatin1Char('\n')), 4);
        QVERIFY(view.selectionAsTsv(false).startsWith(QStringLiteral("0\t1\t2\t3\t4\n5\t")));
    }
};

QTEST_MAIN(TestTensorTableModel)
#include "tst_tensortablemodel.moc"

#include "widgets/tensor/tensorpanel.h"

#include <QAction>
#include <QSignalSpy>
#include <QtTest>

#include <cstring>

using runlens::widgets::tensor::TensorPanel;
namespace summary = runlens::models::summary;
namespace tensor = runlens::models::tensor;

namespace {

const QString kSource = QStringLiteral("/logs/run1/events.out.tfevents.1700000000.host");

/// Tag "emb" at step 5, float32 of `shape`, element n = n / 2.
summary::SummaryBatch batch(const std::vector<std::int64_t>& shape)
{
    const std::int64_t count = tensor::elementCount(shape);
    std::vector<std::byte> bytes(std::size_t(count) * 4);
    for (std::int64_t n = 0; n < count; ++n) {
        const float v = float(n) / 2;
        std::memcpy(bytes.data() + n * 4, &v, 4);
    }
    summary::TensorSeries series;
    series.tag = QStringLiteral("emb");
    summary::SummaryTensor item;
    item.step = 5;
    item.tensor.shape = shape;
    item.tensor.strides = tensor::Tensor::contiguousStrides(shape, 4);
    item.tensor.data = std::make_shared<tensor::MemoryTensorData>(std::move(bytes));
    series.items.push_back(item);
    summary::SummaryBatch out;
    out.tensors.push_back(series);
    return out;
}

} // namespace

class TestTensorProjectRows : public QObject
{
    Q_OBJECT
private slots:
    void rowsReachTheProjector()
    {
        TensorPanel panel;
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(!panel.projectRowsAction()->isEnabled()); // nothing shown
        QSignalSpy status(&panel, &TensorPanel::statusMessage);
        QVERIFY(!panel.projectRows());
        QCOMPARE(status.size(), 1);

        panel.addSummaryTensors(QStringLiteral("run1"), kSource, batch({ 6, 2, 3 }));
        QVERIFY(panel.showLocation(kSource + QStringLiteral(":emb@5")));
        QTRY_VERIFY(panel.currentTensor().has_value());
        QVERIFY(panel.projectRowsAction()->isEnabled());

        QSignalSpy projected(&panel, &TensorPanel::rowsProjected);
        panel.projectRowsAction()->trigger();
        QTRY_COMPARE(projected.size(), 1);
        const auto set
            = projected.at(0).at(0).value<std::shared_ptr<const runlens::models::embeddings::EmbeddingSet>>();
        QVERIFY(set);
        QCOMPARE(set->rows, 6);
        QCOMPARE(set->dims, 6);
        QCOMPARE(set->row(4)[5], 14.5f); // element 29 of the [6, 2, 3] tensor
        QVERIFY(set->name.contains(QStringLiteral("emb")));
        QVERIFY(set->name.contains(QStringLiteral("5"))); // the step
    }

    void vectorsHaveNoRows()
    {
        TensorPanel panel;
        panel.show();
        panel.addSummaryTensors(QStringLiteral("run1"), kSource, batch({ 12 }));
        QVERIFY(panel.showLocation(kSource + QStringLiteral(":emb@5")));
        QTRY_VERIFY(panel.currentTensor().has_value());
        QVERIFY(!panel.projectRowsAction()->isEnabled());
        QSignalSpy projected(&panel, &TensorPanel::rowsProjected);
        QVERIFY(!panel.projectRows());
        QTest::qWait(50);
        QCOMPARE(projected.size(), 0);
    }
};

QTEST_MAIN(TestTensorProjectRows)
#include "tst_tensorprojectrows.moc"

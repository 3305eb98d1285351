#include "importers/graph/graphreader.h"
#include "models/graph/scopetree.h"
#include "tests/testutils.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/graph/graphview.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;
using namespace runlens::widgets::graph;

namespace {

std::shared_ptr<const Graph> readSample(const QString& root, const QString& relative, ArtifactKind kind)
{
    const GraphResult result = GraphReader::read(QDir(root).filePath(relative), kind);
    return result.graph;
}

int paintedPixels(const QImage& picture)
{
    const QImage image = picture.convertToFormat(QImage::Format_RGB32);
    const QRgb background = image.pixel(1, 1);
    int painted = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            painted += image.pixel(x, y) != background ? 1 : 0;
    return painted;
}

} // namespace

/// The Graph panel on real files: every sample lays out, and the pictures are not empty.
class TestGraphSamples : public QObject
{
    Q_OBJECT

private slots:
    void collapsedResNet50IsPainted()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const auto graph
            = readSample(samples, QStringLiteral("graphs/onnx/light_resnet50.onnx"), ArtifactKind::GraphOnnx);
        QVERIFY(graph);
        const auto tree = ScopeTree::build(graph);
        // Every op is somewhere in the hierarchy, once.
        int ops = 0;
        for (std::size_t i = 0; i < graph->nodes.size(); ++i)
            ops += tree->itemOfNode(int(i)) >= 0 && !tree->isFolded(int(i)) ? 1 : 0;
        QCOMPARE(tree->item(ScopeTree::root()).opCount, ops);
        GraphView view;
        view.resize(1000, 800);
        view.setTree(tree);
        QTRY_VERIFY_WITH_TIMEOUT(!view.isLayoutPending(), 20000);
        QVERIFY(!view.scene().isEmpty());
        for (const auto& [container, layout] : view.layoutResult().groups)
            QVERIFY(!layout->failed);
        view.fitToView();
        const QImage image = view.grab().toImage();
        QVERIFY(paintedPixels(image) > image.width() * image.height() / 200);
    }

    void everySampleLaysOut_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("kind");
        QTest::newRow("inception") << "graphs/onnx/light_inception_v1.onnx" << int(ArtifactKind::GraphOnnx);
        QTest::newRow("mnist") << "graphs/onnx/mnist-8.onnx" << int(ArtifactKind::GraphOnnx);
        QTest::newRow("resnet8 pbtxt") << "graphs/tensorflow/resnet_8_simple.pbtxt"
                                       << int(ArtifactKind::GraphTensorFlow);
        QTest::newRow("lenet debugger pb")
            << "graphs/mindspore_debug_graph_pb/lenet.pb" << int(ArtifactKind::GraphAnfIr);
        QTest::newRow("mindspore dot") << "graphs/mindspore_dot/ir.dot" << int(ArtifactKind::GraphDot);
        QTest::newRow("mindspore ir") << "graphs/mindspore_ir/mindir.md.ex1_18_execute_0161.ir"
                                      << int(ArtifactKind::GraphMindSporeIr);
    }

    void everySampleLaysOut()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        QFETCH(QString, file);
        QFETCH(int, kind);
        const auto graph = readSample(samples, file, ArtifactKind(kind));
        QVERIFY2(graph, qPrintable(file));
        QVERIFY(!graph->nodes.empty());
        GraphPanel panel;
        panel.resize(1000, 800);
        panel.addGraph(graph);
        QTRY_VERIFY_WITH_TIMEOUT(panel.tree() && !panel.view()->isLayoutPending(), 20000);
        QVERIFY(!panel.view()->scene().isEmpty());
        // Expanding everything (within the bound) still lays out group by group.
        panel.view()->expandAllBelow(0, 3000);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.view()->isLayoutPending(), 60000);
        for (const auto& [container, layout] : panel.view()->layoutResult().groups)
            QVERIFY(layout->childRects.size() == panel.tree()->item(container).children.size());
    }
};

QTEST_MAIN(TestGraphSamples)
#include "tst_graphsamples.moc"

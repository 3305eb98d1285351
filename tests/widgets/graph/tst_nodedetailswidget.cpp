#include "importers/core/runscanner.h"
#include "importers/graph/graphreader.h"
#include "importers/tensor/dumpindexer.h"
#include "tests/testutils.h"
#include "tests/widgets/graph/graphviewtestdata.h"
#include "widgets/graph/nodedetailswidget.h"
#include "widgets/graph/opdocumentation.h"

#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;
using namespace runlens::widgets::graph;

class TestNodeDetailsWidget : public QObject
{
    Q_OBJECT

private slots:
    void showsOpDetailsWithLinks()
    {
        const auto tree = ScopeTree::build(test::smallModel());
        NodeDetailsWidget details;
        details.setTree(tree);
        const int act = tree->itemOfNode(tree->graph().find("model/mid/mlp/act"));
        details.showItem(act);
        QCOMPARE(details.shownItem(), act);
        const QString text = details.text();
        QVERIFY(text.contains(QStringLiteral("model/mid/mlp")));
        QVERIFY(text.contains(QStringLiteral("Gelu")));
        QVERIFY(text.contains(QStringLiteral("approximate")));
        QVERIFY(text.contains(QStringLiteral("float32[1,16,256]")));
        QVERIFY(text.contains(QStringLiteral("model/mid/mlp/fc1"))); // producer
        QVERIFY(text.contains(QStringLiteral("model/mid/mlp/fc2"))); // consumer
        QVERIFY(text.contains(QStringLiteral("train.py:42")));

        QSignalSpy activated(&details, &NodeDetailsWidget::itemActivated);
        auto* browser = details.findChild<QTextBrowser*>();
        const int fc1 = tree->itemOfNode(tree->graph().find("model/mid/mlp/fc1"));
        QVERIFY(browser->toHtml().contains(NodeDetailsWidget::itemLink(fc1)));
        emit browser->anchorClicked(QUrl(NodeDetailsWidget::itemLink(fc1)));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), fc1);
    }

    void opDocumentationTable_data()
    {
        QTest::addColumn<QString>("framework");
        QTest::addColumn<QString>("opType");
        QTest::addColumn<QString>("url");
        const QString torch = QStringLiteral("https://pytorch.org/docs/stable/generated/");
        const QString ms = QStringLiteral("https://www.mindspore.cn/docs/en/master/api_python/");
        const QString paddle = QStringLiteral("https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/");
        auto row = [](const char* name, const char* framework, const char* op, const QString& url) {
            QTest::newRow(name) << QString::fromLatin1(framework) << QString::fromLatin1(op) << url;
        };
        row("aten functional", "pytorch", "aten::conv2d", torch + QStringLiteral("torch.nn.functional.conv2d.html"));
        row("aten in-place", "pytorch", "aten::relu_", torch + QStringLiteral("torch.nn.functional.relu.html"));
        row("aten torch", "pytorch", "aten::matmul", torch + QStringLiteral("torch.matmul.html"));
        row("aten private", "pytorch", "aten::_convolution", QString());
        row("torch.nn module path", "pytorch", "torch.nn.modules.conv.Conv2d",
            torch + QStringLiteral("torch.nn.Conv2d.html"));
        row("torch.nn module", "pytorch", "torch.nn.Linear", torch + QStringLiteral("torch.nn.Linear.html"));
        row("prim", "pytorch", "prim::Constant", QString());
        row("onnx", "onnx", "Conv", QStringLiteral("https://onnx.ai/onnx/operators/onnx__Conv.html"));
        row("onnx gelu", "onnx", "Gelu", QStringLiteral("https://onnx.ai/onnx/operators/onnx__Gelu.html"));
        row("onnx custom", "onnx", "custom.Block", QString());
        row("onnx unknown", "onnx", "FusedConvBn", QString());
        row("mindspore op", "mindspore", "Conv2D", ms + QStringLiteral("ops/mindspore.ops.Conv2D.html"));
        row("mindspore primfunc", "mindspore", "PrimFunc_MatMul", ms + QStringLiteral("ops/mindspore.ops.MatMul.html"));
        row("mindspore nn", "mindspore", "nn.Dense", ms + QStringLiteral("nn/mindspore.nn.Dense.html"));
        row("mindspore internal", "mindspore", "TupleGetItem", QString());
        row("mindspore cnode", "mindspore", "CNode", QString());
        row("paddle nn", "paddle", "paddle.nn.Conv2D", paddle + QStringLiteral("nn/Conv2D_en.html"));
        row("paddle static", "paddle", "matmul_v2", paddle + QStringLiteral("matmul_en.html"));
        row("paddle functional", "paddle", "relu", paddle + QStringLiteral("nn/functional/relu_en.html"));
        row("paddle unknown", "paddle", "fetch", QString());
        row("tf raw op", "tensorflow", "Conv2D",
            QStringLiteral("https://www.tensorflow.org/api_docs/python/tf/raw_ops/Conv2D"));
        row("tf lowercase", "tensorflow", "my_custom", QString());
        row("tflite builtin", "tflite", "CONV_2D", QStringLiteral("https://www.tensorflow.org/mlir/tfl_ops"));
        row("tflite custom", "tflite", "SignalWindow", QString());
        row("tflite unknown code", "tflite", "BUILTIN_300", QString());
        row("tflite stablehlo", "tflite", "STABLEHLO_ADD", QString());
        row("no framework", "", "Conv", QString());
        row("unknown framework", "caffe", "Convolution", QString());
        row("empty op", "onnx", "", QString());
    }

    void opDocumentationTable()
    {
        QFETCH(QString, framework);
        QFETCH(QString, opType);
        QFETCH(QString, url);
        const OpDocumentation& table = OpDocumentation::builtIn();
        QVERIFY2(table.errorString().isEmpty(), qPrintable(table.errorString()));
        QCOMPARE(table.frameworks().size(), 6);
        const QUrl got = table.url(framework, opType);
        QCOMPARE(got.isValid(), !url.isEmpty());
        if (!url.isEmpty())
            QCOMPARE(got.toString(), url);
    }

    void opDocumentationFormats()
    {
        QCOMPARE(OpDocumentation::frameworkFor(GraphFormat::Onnx), QStringLiteral("onnx"));
        QCOMPARE(OpDocumentation::frameworkFor(GraphFormat::TorchScript), QStringLiteral("pytorch"));
        QCOMPARE(OpDocumentation::frameworkFor(GraphFormat::MindSporeIr), QStringLiteral("mindspore"));
        QCOMPARE(OpDocumentation::frameworkFor(GraphFormat::AnfIr), QStringLiteral("mindspore"));
        QCOMPARE(OpDocumentation::frameworkFor(GraphFormat::TensorFlow), QStringLiteral("tensorflow"));
        QCOMPARE(OpDocumentation::frameworkFor(GraphFormat::Paddle), QStringLiteral("paddle"));
        QCOMPARE(OpDocumentation::frameworkFor(GraphFormat::VisualDlGraph), QStringLiteral("paddle"));
        QCOMPARE(OpDocumentation::frameworkFor(GraphFormat::TfLite), QStringLiteral("tflite"));
        QVERIFY(OpDocumentation::frameworkFor(GraphFormat::Dot).isEmpty());
        // A broken table is empty and says why.
        const OpDocumentation broken = OpDocumentation::fromJson("{\"frameworks\": ");
        QVERIFY(broken.isEmpty());
        QVERIFY(!broken.errorString().isEmpty());
    }

    void opTypeLinksToItsDocumentationOnClickOnly()
    {
        auto copy = std::make_shared<Graph>(*test::smallModel());
        copy->format = GraphFormat::Onnx;
        const auto tree = ScopeTree::build(copy);
        NodeDetailsWidget details;
        QList<QUrl> opened;
        details.setUrlOpener([&opened](const QUrl& url) {
            opened << url;
            return true;
        });
        details.setTree(tree);
        const QUrl gelu(QStringLiteral("https://onnx.ai/onnx/operators/onnx__Gelu.html"));
        details.showItem(tree->itemOfNode(copy->find("model/mid/mlp/act")));
        QCOMPARE(details.documentationUrl(), gelu);
        auto* browser = details.findChild<QTextBrowser*>();
        QVERIFY(browser->toHtml().contains(gelu.toString()));
        QVERIFY2(details.text().contains(QStringLiteral("ONNX API documentation")), qPrintable(details.text()));
        QVERIFY(opened.isEmpty()); // showing a node opens nothing
        emit browser->anchorClicked(gelu);
        QCOMPARE(opened, QList<QUrl> { gelu });

        // Groups and graphs without a known framework have no link.
        details.showItem(tree->item(tree->itemOfNode(copy->find("model/mid/mlp/act"))).parent);
        QVERIFY(!details.documentationUrl().isValid());
        const auto dotTree = ScopeTree::build(test::smallModel());
        details.setTree(dotTree);
        details.showItem(dotTree->itemOfNode(dotTree->graph().find("model/mid/mlp/act")));
        QVERIFY(!details.documentationUrl().isValid());
        QVERIFY(!browser->toHtml().contains(QStringLiteral("https://")));
    }

    void sourceLinksAskForTheLine()
    {
        // A node whose source file exists on this machine links to it; following the link asks for the line.
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("train.py"));
        QFile file(script);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("import torch\n");
        file.close();
        auto graph = test::smallModel();
        auto copy = std::make_shared<Graph>(*graph);
        const int act = copy->find("model/mid/mlp/act");
        copy->nodes[std::size_t(act)].sources = { { script.toStdString(), 7, 0, "x = gelu(x)" } };
        const auto tree = ScopeTree::build(copy);
        NodeDetailsWidget details;
        details.setTree(tree);
        details.showItem(tree->itemOfNode(act));
        auto* browser = details.findChild<QTextBrowser*>();
        QVERIFY(browser->toHtml().contains(QStringLiteral("source:")));
        QSignalSpy requested(&details, &NodeDetailsWidget::sourceRequested);
        QUrl link;
        link.setScheme(QStringLiteral("source"));
        link.setPath(script);
        link.setQuery(QStringLiteral("line=7"));
        emit browser->anchorClicked(link);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), script);
        QCOMPARE(requested.at(0).at(1).toInt(), 7);
        // A location on another machine is shown as text, without a link.
        copy->nodes[std::size_t(act)].sources = { { "/nonexistent/train.py", 7, 0, {} } };
        details.setTree(ScopeTree::build(copy));
        details.showItem(tree->itemOfNode(act));
        QVERIFY(details.text().contains(QStringLiteral("/nonexistent/train.py:7")));
        QVERIFY(!browser->toHtml().contains(QStringLiteral("source:")));
    }

    void foldedWeightsAndGroups()
    {
        const auto tree = ScopeTree::build(test::smallModel());
        NodeDetailsWidget details;
        details.setTree(tree);
        details.showItem(tree->itemOfNode(tree->graph().find("model/enc/attn/q")));
        QVERIFY(details.text().contains(QStringLiteral("model/enc/attn/q_w")));
        details.showItem(tree->findKey("g:model/enc"));
        QVERIFY(details.text().contains(QStringLiteral("attn")));
        QVERIFY(details.text().contains(QStringLiteral("mlp")));
        details.showItem(-1);
        QVERIFY(details.text().isEmpty());
    }

    void locatedWeightsSayWhereTheirValuesAre()
    {
        // The Paddle fixture's conv2d reads its filter from the .pdiparams beside the program.
        const GraphResult result = GraphReader::read(
            QStringLiteral(RUNLENS_TEST_DATA_DIR "/paddle/cnn/inference.pdmodel"), ArtifactKind::GraphPaddle);
        QVERIFY(result.graph);
        const int filter = result.graph->find("conv2d_0.w_0");
        QVERIFY(filter >= 0);
        const std::int64_t offset = result.graph->nodes[std::size_t(filter)].data->offset;
        QVERIFY(offset > 0);
        const auto tree = ScopeTree::build(result.graph);
        NodeDetailsWidget details;
        details.setTree(tree);
        details.showItem(tree->itemOfNode(result.graph->find("conv2d_0.tmp_0")));
        const QString text = details.text();
        QVERIFY2(text.contains(QStringLiteral("inference.pdiparams at byte %1").arg(QLocale().toString(offset))),
                 qPrintable(text));
        // A weight shown on its own has the same row, and its values are one click away in the Tensors panel.
        details.showItem(tree->itemOfNode(filter));
        QVERIFY2(details.text().contains(QStringLiteral("inference.pdiparams")), qPrintable(details.text()));
        const QString location = weightValuesLocation(*result.graph, result.graph->nodes[std::size_t(filter)]);
        QVERIFY(location.endsWith(QStringLiteral("/paddle/cnn/inference.pdiparams:conv2d_0.w_0")));
        QSignalSpy requested(&details, &NodeDetailsWidget::tensorRequested);
        auto* browser = details.findChild<QTextBrowser*>();
        QUrl url;
        url.setScheme(QStringLiteral("tensor"));
        url.setPath(location);
        QVERIFY(browser->toHtml().contains(url.toString(QUrl::FullyEncoded).toHtmlEscaped())
                || browser->toHtml().contains(url.toString(QUrl::FullyEncoded)));
        emit browser->anchorClicked(url);
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), location);
    }

    void unlistedWeightsStillSayWhereTheyAre()
    {
        // offset_buffers.tflite's "wrong_length" holds 8 bytes for a float32 [3]: located, not listed.
        const GraphResult result = GraphReader::read(
            QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph/tflite/offset_buffers.tflite"), ArtifactKind::GraphTfLite);
        QVERIFY(result.graph);
        const int wrong = result.graph->find("wrong_length");
        QVERIFY(wrong >= 0);
        const auto tree = ScopeTree::build(result.graph);
        NodeDetailsWidget details;
        details.setTree(tree);
        details.showItem(tree->itemOfNode(wrong));
        const QString text = details.text();
        const std::int64_t offset = result.graph->nodes[std::size_t(wrong)].data->offset;
        QVERIFY2(text.contains(QStringLiteral("offset_buffers.tflite at byte %1").arg(QLocale().toString(offset))),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("not plain elements")), qPrintable(text));
        // Its consumer's other weights are listed; it has no "Show values" link of its own.
        QVERIFY(details.findChild<QTextBrowser*>()->toHtml().contains(QStringLiteral("tensor:")));
        QVERIFY(!details.findChild<QTextBrowser*>()->toHtml().contains(QStringLiteral(":wrong_length")));
    }

    void showsProfilerTimeAndShare()
    {
        const auto tree = ScopeTree::build(test::smallModel());
        const int act = tree->itemOfNode(tree->graph().find("model/mid/mlp/act"));
        const int q = tree->itemOfNode(tree->graph().find("model/enc/attn/q"));
        auto profile = std::make_shared<ItemProfile>();
        profile->tree = tree;
        profile->times.assign(std::size_t(tree->itemCount()), 0);
        profile->times[std::size_t(act)] = 2'000'000;
        profile->total = 8'000'000;
        NodeDetailsWidget details;
        details.setTree(tree);
        details.showItem(act);
        QVERIFY(!details.text().contains(QStringLiteral("Profiler time")));
        details.setProfile(profile);
        QVERIFY(details.text().contains(QStringLiteral("Profiler time")));
        QVERIFY(details.text().contains(QStringLiteral("2.000 ms (25.0%")));
        details.showItem(q);
        QVERIFY(details.text().contains(QStringLiteral("none matched")));

        // A profile made for another tree of the same graph says nothing about this one.
        details.setTree(ScopeTree::build(test::smallModel()));
        details.showItem(act);
        QVERIFY(!details.text().contains(QStringLiteral("Profiler time")));
    }

    void listsTheTensorsOfDumps()
    {
        const auto tree = ScopeTree::build(test::smallModel());
        NodeDetailsWidget details;
        details.setTree(tree);
        const auto entry = [](int step, const QString& kind, QList<qint64> shape) {
            DumpEntry e;
            e.path = QStringLiteral("/run/dump/step_%1/model.mid.mlp.%2.npy").arg(step).arg(kind);
            e.step = step;
            e.nodeKey = QStringLiteral("model.mid.mlp");
            e.kind = kind;
            e.dtype = QStringLiteral("float32");
            e.shape = std::move(shape);
            return e;
        };
        details.setDumps(std::make_shared<const DumpIndex>(QList<DumpEntry> {
            entry(30, QStringLiteral("act"), { 1, 16, 256 }), entry(0, QStringLiteral("act"), { 1, 16, 256 }),
            entry(0, QStringLiteral("weight_grad"), { 256, 64 }) }));

        // An op of the module and the module's group list the module's tensors, step by step.
        details.showItem(tree->itemOfNode(tree->graph().find("model/mid/mlp/act")));
        QString text = details.text();
        QVERIFY2(text.contains(QStringLiteral("Tensors in dumps")), qPrintable(text));
        const qsizetype step0 = text.indexOf(QStringLiteral("Step 0"));
        const qsizetype step30 = text.indexOf(QStringLiteral("Step 30"));
        QVERIFY(step0 >= 0 && step30 > step0);
        const qsizetype grad
            = text.indexOf(QStringLiteral("weight_grad \u00b7 float32[256,64] \u00b7 model.mid.mlp.weight_grad.npy"));
        QVERIFY(grad > step0 && grad < step30);
        QVERIFY(text.indexOf(QStringLiteral("act \u00b7 float32[1,16,256] \u00b7 model.mid.mlp.act.npy"), step30)
                > step30);
        // Each tensor links to the inspector by its file.
        auto* browser = details.findChild<QTextBrowser*>();
        QVERIFY(browser);
        const QString html = browser->toHtml();
        const qsizetype href = html.indexOf(QStringLiteral("href=\"tensor:"));
        QVERIFY2(href >= 0, qPrintable(html));
        const qsizetype end = html.indexOf(QLatin1Char('"'), href + 6);
        QSignalSpy requested(&details, &NodeDetailsWidget::tensorRequested);
        emit browser->anchorClicked(QUrl(html.mid(href + 6, end - href - 6)));
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.first().first().toString(), QStringLiteral("/run/dump/step_0/model.mid.mlp.act.npy"));

        details.showItem(tree->findKey("g:model/mid/mlp"));
        QVERIFY(details.text().contains(QStringLiteral("model.mid.mlp.weight_grad.npy")));

        // A node without dumps says nothing about them.
        details.showItem(tree->itemOfNode(tree->graph().find("model/enc/attn/q")));
        QVERIFY(!details.text().isEmpty());
        QVERIFY(!details.text().contains(QStringLiteral("dump"), Qt::CaseInsensitive));
        QVERIFY(!details.text().contains(QStringLiteral("Step")));

        // Taking the dumps away removes the section from the shown node.
        details.showItem(tree->itemOfNode(tree->graph().find("model/mid/mlp/act")));
        details.setDumps(nullptr);
        QVERIFY(!details.text().contains(QStringLiteral("Tensors in dumps")));
    }

    void sampleRunDumpsOfConv1()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString root = samples + QStringLiteral("/runs/pytorch_cnn_baseline");
        const GraphResult graph
            = GraphReader::read(root + QStringLiteral("/graph/model.onnx"), ArtifactKind::GraphOnnx);
        QVERIFY(graph.graph);
        const auto tree = ScopeTree::build(graph.graph);
        NodeDetailsWidget details;
        details.resize(420, 900);
        details.setTree(tree);
        details.setDumps(
            std::make_shared<const DumpIndex>(importers::tensor::DumpIndexer::index(RunScanner().scan(root))));
        details.showItem(tree->itemOfNode(graph.graph->find("/conv1/Conv")));
        const QString text = details.text();
        for (const char* step : { "Step 0", "Step 30", "Step 59" })
            QVERIFY2(text.contains(QLatin1String(step)), qPrintable(text));
        // The dumped weight has the shape of the ONNX initializer the dock lists among the folded weights.
        QVERIFY2(text.contains(QStringLiteral("conv1.weight\nfloat32[6,1,5,5]")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("weight \u00b7 float32[6,1,5,5] \u00b7 conv1.weight.npy")));
        QVERIFY(text.contains(QStringLiteral("conv1.act.npy")));
        QVERIFY(!text.contains(QStringLiteral("conv2.")));
        if (const QString dir = qEnvironmentVariable("RUNLENS_TEST_SCREENSHOT_DIR"); !dir.isEmpty())
            details.grab().save(QDir(dir).filePath(QStringLiteral("nodedetails-dumps.png")));
    }
};

QTEST_MAIN(TestNodeDetailsWidget)
#include "tst_nodedetailswidget.moc"

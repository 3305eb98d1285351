#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include "importers/accuracy/msprobedumpreader.h"
#include "importers/core/runscanner.h"
#include "importers/tensor/tensorcatalogbuilder.h"
#include "models/accuracy/dumpgraph.h"
#include "models/graph/scopetree.h"
#include "models/tensor/tensorcatalog.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::accuracy;
using namespace runlens::models;
using namespace runlens::models::accuracy;

namespace {

void writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

std::map<std::string, std::string> attributesOf(const models::graph::Node& node)
{
    std::map<std::string, std::string> out;
    for (const models::graph::Attribute& a : node.attributes)
        out.emplace(a.name, a.value);
    return out;
}

/// A statistic attribute against the oracle's JSON value (non-finite values come as strings).
bool sameStatistic(const QJsonValue& expected, const std::string& text)
{
    bool ok = false;
    const double actual = text == "NaN" ? std::nan("")
        : text == "Infinity"            ? INFINITY
        : text == "-Infinity"           ? -INFINITY
                                        : QString::fromStdString(text).toDouble(&ok);
    if (expected.isString()) {
        const QString want = expected.toString();
        if (want == QLatin1String("NaN"))
            return std::isnan(actual);
        return std::isinf(actual) && (actual > 0) == (want == QLatin1String("Infinity"));
    }
    return ok && actual == expected.toDouble();
}

QStringList scopeParts(const models::graph::Node& node)
{
    return QString::fromStdString(node.scope).split(QLatin1Char('/'));
}

} // namespace

class TestDumpGraph : public QObject
{
    Q_OBJECT

private slots:
    void samples_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::newRow("pytorch") << QStringLiteral("accuracy/msprobe/pytorch_data");
        QTest::newRow("mindspore") << QStringLiteral("accuracy/msprobe/mindspore_data");
    }

    /// Every entry is one node in call order, nested as construct.json says, with the statistics of dump.json
    /// and the stack of stack.json; all checked against an independent python reading of the files.
    void samples()
    {
        QFETCH(QString, folder);
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString path = QDir(samples).filePath(folder);
        RUNLENS_REQUIRE_SAMPLE_FILE(path + QStringLiteral("/dump.json"));
        const test::PythonRun run = test::runPythonScript(QStringLiteral("accuracy/dumpgraph_oracle.py"), { path });
        RUNLENS_VERIFY_PYTHON(run);
        const QJsonArray entries = QJsonDocument::fromJson(run.output.toUtf8()).object().value("entries").toArray();
        QVERIFY(!entries.isEmpty());

        const MsprobeReadResult read = readMsprobeDump(path);
        QCOMPARE(read.status, ImportStatus::Ok);
        const std::shared_ptr<models::graph::Graph> g = buildDumpGraph(*read.dump);
        QCOMPARE(g->format, models::graph::GraphFormat::MsprobeDump);
        QCOMPARE(QString::fromStdString(g->name), QFileInfo(path).fileName());
        QCOMPARE(g->nodeCount(), entries.size());
        QCOMPARE(int(g->nodes.size()), entries.size());

        int stacked = 0;
        int statistics = 0;
        for (int i = 0; i < entries.size(); ++i) {
            const QJsonObject want = entries[i].toObject();
            const models::graph::Node& node = g->nodes[std::size_t(i)];
            const QString name = want.value("name").toString();
            QCOMPARE(QString::fromStdString(node.id), name);
            const auto attributes = attributesOf(node);
            QCOMPARE(QString::fromStdString(attributes.at("entry")), name);

            // Nesting: the direction's top group, then one group per module ancestor, then the module's own.
            const QStringList parts = scopeParts(node);
            const QString direction = want.value("direction").toString();
            QCOMPARE(parts.first(),
                     QLatin1String(direction == QLatin1String("forward") ? kForwardGroup : kBackwardGroup));
            const QJsonArray ancestors = want.value("ancestors").toArray();
            const bool ownGroup = want.value("module").toBool() && want.contains("cls");
            QCOMPARE(parts.size(), 1 + ancestors.size() + (ownGroup ? 1 : 0));
            for (int a = 0; a < ancestors.size(); ++a) {
                const QJsonObject ancestor = ancestors[a].toObject();
                const QString suffix = QStringLiteral("%1.%2")
                                           .arg(ancestor.value("cls").toString())
                                           .arg(ancestor.value("counter").toInt());
                QVERIFY2(parts[1 + a].endsWith(suffix), qPrintable(name + QStringLiteral(": ") + parts[1 + a]));
                // A module that is itself an entry sits in the group its descendants are nested in.
                const int owner = g->find(ancestor.value("name").toString().toStdString());
                if (owner >= 0)
                    QCOMPARE(scopeParts(g->nodes[std::size_t(owner)]), parts.mid(0, 2 + a));
            }
            if (ownGroup)
                QVERIFY(parts.last().endsWith(
                    QStringLiteral("%1.%2").arg(want.value("cls").toString()).arg(want.value("counter").toInt())));

            // Statistics of every tensor row.
            for (const QJsonValue& value : want.value("rows").toArray()) {
                const QJsonObject row = value.toObject();
                const std::string label = row.value("label").toString().toStdString();
                QVERIFY2(attributes.count(label), label.c_str());
                QVERIFY2(QString::fromStdString(attributes.at(label))
                             .startsWith(row.value("dtype").toString() + QLatin1Char('[')),
                         attributes.at(label).c_str());
                for (const char* stat : { "Max", "Min", "Mean", "Norm" }) {
                    const std::string key = label + ' ' + stat;
                    if (!row.contains(QLatin1String(stat))) {
                        continue;
                    }
                    QVERIFY2(attributes.count(key), key.c_str());
                    QVERIFY2(sameStatistic(row.value(QLatin1String(stat)), attributes.at(key)),
                             (key + " = " + attributes.at(key)).c_str());
                    ++statistics;
                }
                if (row.contains("md5"))
                    QCOMPARE(QString::fromStdString(attributes.at(label + " md5")), row.value("md5").toString());
            }

            // The stack without msprobe's frames, the user's innermost line first.
            const QJsonObject stack = want.value("stack").toObject();
            QCOMPARE(int(node.sources.size()), stack.value("frames").toInt());
            if (!node.sources.empty()) {
                ++stacked;
                QCOMPARE(QString::fromStdString(node.sources.front().file), stack.value("file").toString());
                QCOMPARE(node.sources.front().line, stack.value("line").toInt());
                QVERIFY(!node.sources.front().text.empty());
            }
        }
        QVERIFY(stacked > entries.size() / 2);
        QVERIFY(statistics > entries.size());

        // The tree opens to the two directions, the modules below them as collapsible groups.
        const auto tree = models::graph::ScopeTree::build(g);
        const int forward = tree->findKey(std::string("g:") + kForwardGroup);
        QVERIFY(forward >= 0);
        QCOMPARE(tree->item(forward).kind, models::graph::ScopeItemKind::Group);
        QCOMPARE(tree->item(forward).depth, 1);
        QVERIFY(tree->findKey(std::string("g:") + kBackwardGroup) >= 0);
        QVERIFY(tree->groupCount() >= 4);
    }

    /// Without construct.json modules nest by their dotted paths; APIs stay at the top of their direction.
    void withoutConstruct()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("step0/rank0/dump.json"),
                  R"j({"task": "statistics", "level": "L0", "framework": "pytorch",
 "data": {
  "Module.layer1.0.conv1.Conv2d.forward.0": {"input_args": [], "input_kwargs": {}, "output": []},
  "Module.layer1.0.BasicBlock.forward.0": {"input_args": [], "input_kwargs": {}, "output": []},
  "Module.layer1.Sequential.forward.0": {"input_args": [], "input_kwargs": {}, "output": []},
  "Torch.relu.0.forward": {"input_args": [], "input_kwargs": {}, "output": []},
  "Module.layer1.0.conv1.Conv2d.backward.0": {"input": [], "output": []},
  "Module.layer1.0.BasicBlock.backward.0": {"input": [], "output": []},
  "Module.layer1.0.conv1.Conv2d.parameters_grad": {"weight": [null]}
 }})j");
        const MsprobeReadResult read = readMsprobeDump(dir.filePath("step0/rank0"));
        QVERIFY(read.dump);
        const auto g = buildDumpGraph(*read.dump);
        QCOMPARE(QString::fromStdString(g->name), QStringLiteral("step0/rank0"));
        QCOMPARE(g->nodeCount(), 7);
        const auto scope = [&](const char* id) { return g->nodes[std::size_t(g->find(id))].scope; };
        QCOMPARE(scope("Module.layer1.0.conv1.Conv2d.forward.0"),
                 std::string("Forward/layer1.Sequential.0/0.BasicBlock.0/conv1.Conv2d.0"));
        QCOMPARE(scope("Module.layer1.Sequential.forward.0"), std::string("Forward/layer1.Sequential.0"));
        QCOMPARE(scope("Torch.relu.0.forward"), std::string("Forward"));
        QCOMPARE(scope("Module.layer1.0.conv1.Conv2d.backward.0"),
                 std::string("Gradients/layer1.0.BasicBlock.0/conv1.Conv2d.0"));
        // Parameter gradients hang under the module's last backward call.
        QCOMPARE(scope("Module.layer1.0.conv1.Conv2d.parameters_grad"),
                 std::string("Gradients/layer1.0.BasicBlock.0/conv1.Conv2d.0"));
        // Boxes say the leaf of the name (a numbered module keeps its parent), the id the whole of it.
        const auto node = [&](const char* id) { return g->nodes[std::size_t(g->find(id))]; };
        QCOMPARE(node("Torch.relu.0.forward").name, std::string("relu.0"));
        QCOMPARE(node("Torch.relu.0.forward").opType, std::string("Torch.relu"));
        QCOMPARE(node("Module.layer1.0.conv1.Conv2d.forward.0").name, std::string("conv1.forward.0"));
        QCOMPARE(node("Module.layer1.0.conv1.Conv2d.forward.0").opType, std::string("Conv2d"));
        QCOMPARE(node("Module.layer1.0.BasicBlock.forward.0").name, std::string("layer1.0.forward.0"));
        QCOMPARE(node("Module.layer1.0.conv1.Conv2d.backward.0").name, std::string("conv1.backward.0"));
    }

    /// Sides without a module tree: ops nest by their dotted names, in execution order.
    void opsGraph()
    {
        const auto g = buildOpsGraph(QStringLiteral("step_0"),
                                     { QStringLiteral("layers.0"), QStringLiteral("layers.1.attn"),
                                       QStringLiteral("head.weight"), QStringLiteral("layers.0") });
        QCOMPARE(g->nodeCount(), 3); // a repeated op is one node
        const auto& first = g->nodes[std::size_t(g->find("layers.0"))];
        QCOMPARE(first.scope, std::string("layers"));
        QCOMPARE(first.name, std::string("layers.0"));
        const auto& attn = g->nodes[std::size_t(g->find("layers.1.attn"))];
        QCOMPARE(attn.scope, std::string("layers/1"));
        QCOMPARE(attn.name, std::string("attn"));
        QCOMPARE(g->nodes[std::size_t(g->find("head.weight"))].scope, std::string("head"));
        // Joined in execution order by control edges.
        QCOMPARE(g->edges.size(), std::size_t(2));
        for (const models::graph::Edge& e : g->edges) {
            QVERIFY(e.control);
            QCOMPARE(e.to, e.from + 1);
        }
        const auto tree = models::graph::ScopeTree::build(g);
        QVERIFY(tree->findKey("g:layers") >= 0 || tree->groupCount() >= 2);
    }

    /// Edges are inferred from identical tensors only, and the consumer says so; a cycle in construct.json
    /// does not hang the converter.
    void inferredEdgesAndCycles()
    {
        QTemporaryDir dir;
        const QByteArray t
            = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 3], "Max": 1.5, "Min": -1, "Mean": 0.25, "Norm": 2.5})";
        const QByteArray u
            = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 3], "Max": 1.5, "Min": -1, "Mean": 0.5, "Norm": 2.5})";
        const QByteArray s
            = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [], "Max": 1, "Min": 1, "Mean": 1, "Norm": 1})";
        writeFile(dir.filePath("d/dump.json"),
                  R"({"task": "statistics", "level": "mix", "data": {
  "Torch.a.0.forward": {"input_args": [)"
                      + s + R"(], "input_kwargs": {}, "output": [)" + t + "," + s + R"(]},
  "Torch.b.0.forward": {"input_args": [)"
                      + t + "," + s + R"(], "input_kwargs": {}, "output": [)" + u + R"(]},
  "Torch.c.0.forward": {"input_args": [)"
                      + t + R"(], "input_kwargs": {}, "output": []}}})");
        writeFile(dir.filePath("d/construct.json"),
                  R"({"Torch.a.0.forward": "Module.x.X.forward.0", "Module.x.X.forward.0": "Module.y.Y.forward.0",
                      "Module.y.Y.forward.0": "Module.x.X.forward.0"})");
        const MsprobeReadResult read = readMsprobeDump(dir.filePath("d"));
        QVERIFY(read.dump);
        const auto g = buildDumpGraph(*read.dump);
        QCOMPARE(g->nodeCount(), 3);
        // a -> b and a -> c by the [2,3] tensor (the 0-d one is never joined); b -> c by call order only.
        QCOMPARE(int(g->edges.size()), 3);
        int data = 0;
        for (const models::graph::Edge& e : g->edges) {
            if (e.control) {
                QCOMPARE(e.from, 1);
                QCOMPARE(e.to, 2);
                QCOMPARE(g->nodes[2].inputs[std::size_t(e.toSlot)].name, std::string("call order"));
                continue;
            }
            ++data;
            QCOMPARE(e.from, 0);
            QCOMPARE(e.fromSlot, 0);
            QCOMPARE(e.toSlot, 0);
        }
        QCOMPARE(data, 2);
        QVERIFY(attributesOf(g->nodes[1]).count("inputs joined by"));
        QVERIFY(!attributesOf(g->nodes[0]).count("inputs joined by"));
        QVERIFY(g->nodes[0].scope.size() < 4096);
    }
    /// A tensor-task dump: its data files are in the tensor catalog under their row names, linked to the entry
    /// (the node id), and the dump index finds them for that node.
    void tensorTaskFiles()
    {
        QTemporaryDir dir;
        const QString rank = dir.filePath("step0/rank0");
        QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
        while ((10 + header.size() + 1) % 64 != 0)
            header.append(' ');
        header.append('\n');
        QByteArray npy("\x93NUMPY\x01\x00", 8);
        npy.append(char(header.size() & 0xff)).append(char(header.size() >> 8));
        npy += header + QByteArray(8, '\0');
        writeFile(rank + "/dump_tensor_data/Functional.relu.0.forward.input.0.npy", npy);
        writeFile(rank + "/dump_tensor_data/Module.conv1.Conv2d.forward.0.output.0.npy", npy);
        QFile pt(QStringLiteral(RUNLENS_TEST_DATA_DIR "/torchsave/single.pt"));
        QVERIFY(pt.open(QIODevice::ReadOnly));
        writeFile(rank + "/dump_tensor_data/Functional.relu.0.forward.output.0.pt", pt.readAll());
        const QByteArray record
            = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 0, "Min": 0,
            "Mean": 0, "Norm": 0, "data_name": "%1"})";
        writeFile(rank + "/dump.json",
                  QStringLiteral(R"({"task": "tensor", "level": "mix", "framework": "pytorch", "data": {
  "Functional.relu.0.forward": {"input_args": [%1], "input_kwargs": {}, "output": [%2]},
  "Module.conv1.Conv2d.forward.0": {"input_args": [], "input_kwargs": {}, "output": [%3]}}})")
                      .arg(QString::fromUtf8(record).arg("Functional.relu.0.forward.input.0.npy"),
                           QString::fromUtf8(record).arg("Functional.relu.0.forward.output.0.pt"),
                           QString::fromUtf8(record).arg("Module.conv1.Conv2d.forward.0.output.0.npy"))
                      .toUtf8());

        const auto built = importers::tensor::TensorCatalogBuilder::buildWithDumps(RunScanner().scan(dir.path()));
        QMap<QString, QString> nodeOf;
        for (const models::tensor::TensorSeries& series : built.catalog.series())
            nodeOf.insert(series.name, series.nodeKey);
        QCOMPARE(nodeOf.value("Functional.relu.0.forward.input.0"), QStringLiteral("Functional.relu.0.forward"));
        QCOMPARE(nodeOf.value("Functional.relu.0.forward.output.0"), QStringLiteral("Functional.relu.0.forward"));
        QCOMPARE(nodeOf.value("Module.conv1.Conv2d.forward.0.output.0"),
                 QStringLiteral("Module.conv1.Conv2d.forward.0"));
        QCOMPARE(nodeOf.size(), 3);

        const MsprobeReadResult read = readMsprobeDump(rank);
        const auto g = buildDumpGraph(*read.dump);
        const models::graph::Node& relu = g->nodes[std::size_t(g->find("Functional.relu.0.forward"))];
        const auto attributes = attributesOf(relu);
        QCOMPARE(QString::fromStdString(attributes.at("input.0 file")),
                 QDir::toNativeSeparators(rank + "/dump_tensor_data/Functional.relu.0.forward.input.0.npy"));
        // The dump index (the .npy and the torch.save files) finds the node's files, so Node Details lists and
        // opens them.
        QCOMPARE(built.dumps.findForNode(relu).size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestDumpGraph)
#include "tst_dumpgraph.moc"

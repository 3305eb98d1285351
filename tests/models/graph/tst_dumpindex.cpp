#include "models/graph/dumpindex.h"
#include "models/graph/scopetree.h"
#include "tests/models/graph/graphtestdata.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::models::graph;

namespace {

DumpEntry entry(const QString& key, int step, const QString& kind, DumpIo io = DumpIo::Other, int slot = -1)
{
    DumpEntry e;
    e.path = QStringLiteral("/d/%1/%2.%3.npy").arg(step).arg(key, kind);
    e.step = step;
    e.nodeKey = key;
    e.io = io;
    e.slot = slot;
    e.kind = kind;
    e.dtype = QStringLiteral("float32");
    e.shape = { 2, 3 };
    return e;
}

QStringList describe(const DumpIndex& index, const QList<int>& found)
{
    QStringList out;
    for (const int i : found)
        out << QStringLiteral("%1 %2 %3")
                   .arg(index.entries()[i].nodeKey)
                   .arg(index.entries()[i].step)
                   .arg(index.entries()[i].role());
    return out;
}

} // namespace

class TestDumpIndex : public QObject
{
    Q_OBJECT

private slots:
    void entryText()
    {
        DumpEntry e = entry(QStringLiteral("Conv2D-op12"), 0, QStringLiteral("output"), DumpIo::Output, 1);
        QCOMPARE(e.role(), QStringLiteral("output 1"));
        QCOMPARE(e.typeText(), QStringLiteral("float32[2,3]"));
        e.shape.clear();
        QCOMPARE(e.typeText(), QStringLiteral("float32[]"));
        QCOMPARE(entry(QStringLiteral("fc1"), 0, QStringLiteral("weight_grad")).role(), QStringLiteral("weight_grad"));
    }

    void lookupOrdersByStepThenRole()
    {
        const DumpIndex index({ entry(QStringLiteral("layer1.0.conv1"), 30, QStringLiteral("weight")),
                                entry(QStringLiteral("layer1.0.conv1"), 0, QStringLiteral("weight")),
                                entry(QStringLiteral("layer1.0.conv1"), 0, QStringLiteral("act")),
                                entry(QStringLiteral("layer1.0"), 0, QStringLiteral("act")),
                                entry(QStringLiteral("Conv2D-op12"), 3, QStringLiteral("output"), DumpIo::Output, 0),
                                entry(QStringLiteral("Conv2D-op12"), 3, QStringLiteral("input"), DumpIo::Input, 1),
                                entry(QStringLiteral("Conv2D-op12"), 3, QStringLiteral("input"), DumpIo::Input, 0) });
        QCOMPARE(describe(index, index.findForScope(QStringLiteral("layer1/0/conv1"))),
                 (QStringList { QStringLiteral("layer1.0.conv1 0 act"), QStringLiteral("layer1.0.conv1 0 weight"),
                                QStringLiteral("layer1.0.conv1 30 weight") }));
        QCOMPARE(index.find(QStringLiteral("layer1.0.conv1")), index.findForScope(QStringLiteral("layer1/0/conv1")));
        QCOMPARE(describe(index, index.find(QStringLiteral("Conv2D-op12"))),
                 (QStringList { QStringLiteral("Conv2D-op12 3 input 0"), QStringLiteral("Conv2D-op12 3 input 1"),
                                QStringLiteral("Conv2D-op12 3 output 0") }));
        QVERIFY(index.find(QStringLiteral("layer1")).isEmpty());
        QVERIFY(index.find(QString()).isEmpty());
    }

    void nodesAndGroupsOfATree()
    {
        const auto graph
            = test::GraphBuilder()
                  .node("Default/network/conv1/Conv2D-op12", "Conv2D")
                  .node("Default/network/relu/ReLU-op13", "ReLU", { { "Default/network/conv1/Conv2D-op12" } })
                  .node("layer1/0/conv1/Conv", "Conv", { { "Default/network/relu/ReLU-op13" } })
                  .node("layer1/0/conv1/Add", "Add", { { "layer1/0/conv1/Conv" } })
                  .node("fc/Gemm", "Gemm", { { "layer1/0/conv1/Add" } })
                  .finish();
        const auto tree = ScopeTree::build(graph);
        const DumpIndex index(
            { entry(QStringLiteral("Conv2D-op12"), 3, QStringLiteral("output"), DumpIo::Output, 0),
              entry(QStringLiteral("Default_network_relu_ReLU-op13"), 3, QStringLiteral("input"), DumpIo::Input, 0),
              entry(QStringLiteral("layer1.0.conv1"), 0, QStringLiteral("act")) });
        const auto itemOf = [&](const char* name) { return tree->itemOfNode(graph->find(name)); };
        // By the node's name (MindSpore leaf op names).
        QCOMPARE(describe(index, index.findForItem(*tree, itemOf("Default/network/conv1/Conv2D-op12"))),
                 QStringList { QStringLiteral("Conv2D-op12 3 output 0") });
        // By the full name written with '_' for '/'.
        QCOMPARE(index.findForItem(*tree, itemOf("Default/network/relu/ReLU-op13")).size(), 1);
        // Ops of a module and the module's group see the module's dumps.
        QCOMPARE(describe(index, index.findForItem(*tree, itemOf("layer1/0/conv1/Conv"))),
                 QStringList { QStringLiteral("layer1.0.conv1 0 act") });
        QCOMPARE(index.findForItem(*tree, itemOf("layer1/0/conv1/Add")).size(), 1);
        QCOMPARE(index.findForItem(*tree, tree->findKey("g:layer1/0/conv1")).size(), 1);
        // Nothing for others.
        QVERIFY(index.findForItem(*tree, itemOf("fc/Gemm")).isEmpty());
        QVERIFY(index.findForItem(*tree, tree->findKey("g:layer1/0")).isEmpty());
        QVERIFY(index.findForItem(*tree, -1).isEmpty());
        QVERIFY(index.findForItem(*tree, tree->itemCount()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDumpIndex)
#include "tst_dumpindex.moc"

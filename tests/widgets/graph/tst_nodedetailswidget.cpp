#include "graph/nodedetailswidget.h"
#include "graphviewtestdata.h"

#include <QTextBrowser>
#include <QtTest>

using namespace runlens;
using namespace runlens::graph;
using namespace runlens::graphview;

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
};

QTEST_MAIN(TestNodeDetailsWidget)
#include "tst_nodedetailswidget.moc"

#include "graph/graphpanel.h"
#include "graph/graphview.h"
#include "graphviewtestdata.h"

#include <QListWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::graph;
using namespace runlens::graphview;

class TestGraphPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("RunLensTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_graphpanel"));
        QSettings().clear();
    }

    void searchResultRevealsNode()
    {
        GraphPanel panel;
        panel.resize(1000, 700);
        panel.show();
        panel.addGraph(test::smallModel());
        QTRY_VERIFY(panel.tree() && !panel.view()->isLayoutPending());
        const auto tree = panel.tree();
        QCOMPARE(panel.search(QStringLiteral("softmax")), 3);
        QVERIFY(panel.resultList()->isVisible());
        QListWidget* list = panel.resultList();
        const int target = list->item(1)->data(Qt::UserRole).toInt();
        QVERIFY(QString::fromStdString(tree->graph().nodes[std::size_t(tree->item(target).node)].fullName())
                    .contains("mid"));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(1)).center());
        QTRY_VERIFY(!panel.view()->isLayoutPending() && panel.view()->scene().boxOf(target) >= 0);
        QCOMPARE(panel.view()->selectedItem(), target);
        for (const int ancestor : tree->ancestors(target))
            QVERIFY(panel.view()->expansionState().isExpanded(ancestor));
        QCOMPARE(panel.search(QStringLiteral("([")), 0); // invalid only as a regex: a plain substring here
        QCOMPARE(panel.search(QStringLiteral("Gelu")), 3);
    }

    void exportsSvgAndPng()
    {
        GraphPanel panel;
        panel.resize(800, 600);
        panel.addGraph(test::smallModel());
        QTRY_VERIFY(panel.tree() && !panel.view()->isLayoutPending());
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("g.svg"));
        const QString png = dir.filePath(QStringLiteral("g.png"));
        QString error;
        QVERIFY2(panel.exportTo(svg, &error), qPrintable(error));
        QVERIFY2(panel.exportTo(png, &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains(">softmax<")); // the small model opens up completely
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 100);
        QVERIFY(!panel.exportTo(dir.filePath(QStringLiteral("g.gif")), &error));
        QVERIFY(error.contains(QStringLiteral("g.gif")));
    }

    void exportWithoutWindowOpensTopLevels()
    {
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("cli.svg"));
        QString error;
        QVERIFY2(GraphPanel::exportGraph(test::smallModel(), svg, &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        // The small model's groups are all opened (it stays under the item bound): its ops are drawn.
        QVERIFY(text.contains(">softmax<"));
        QVERIFY(text.contains(">fc2<"));
        QVERIFY(!GraphPanel::exportGraph(test::smallModel(), dir.filePath(QStringLiteral("cli.bmp")), &error));
    }

    void stateRememberedPerFile()
    {
        const QString path = QStringLiteral("/nonexistent/runs/model.onnx");
        int model = -1;
        {
            GraphPanel panel;
            panel.resize(800, 600);
            panel.addGraph(test::smallModel(path.toStdString()));
            QTRY_VERIFY(panel.tree() && !panel.view()->isLayoutPending());
            model = panel.tree()->findKey("g:model");
            // A small graph opens up on its first visit.
            QCOMPARE(panel.view()->expansionState(), GraphView::openingState(*panel.tree(), 60));
            QVERIFY(panel.view()->expansionState().expanded().size() > 1);
            ExpansionState onlyModel;
            onlyModel.setExpanded(model, true);
            panel.view()->setExpansionState(onlyModel);
            QTRY_VERIFY(!panel.view()->isLayoutPending());
            panel.view()->setViewport(0.75, QPointF(120, 80));
        }
        GraphPanel panel;
        panel.resize(800, 600);
        panel.addGraph(test::smallModel(path.toStdString()));
        QTRY_VERIFY(panel.tree() && !panel.view()->isLayoutPending());
        QCOMPARE(panel.view()->expansionState().expanded(), std::set<int> { model });
        QCOMPARE(panel.view()->zoom(), 0.75);
        QVERIFY((panel.view()->viewCentre() - QPointF(120, 80)).manhattanLength() < 1);

        GraphPanel other;
        other.addGraph(test::smallModel("/nonexistent/runs/other.onnx"));
        QTRY_VERIFY(other.tree());
        QCOMPARE(other.view()->expansionState(), GraphView::openingState(*other.tree(), 60));
    }
};

QTEST_MAIN(TestGraphPanel)
#include "tst_graphpanel.moc"

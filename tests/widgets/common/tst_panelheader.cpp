#include "common/chartexportmenu.h"
#include "common/panelheader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QToolButton>
#include <QtTest>

#include <qcustomplot.h>

using namespace runlens;

// The header row shared by the Overview, Steps, Memory, Cluster, Data pipeline, Operators and Advisor
// panels: widgets in the order added, one set of margins, the summary or filter taking the free width,
// long text cut or wrapped as asked, and the Export menu filled from the panel's charts.

class TestPanelHeader : public QObject
{
    Q_OBJECT

private slots:
    void marginsAndSpacing()
    {
        PanelHeader header;
        auto* row = qobject_cast<QHBoxLayout*>(header.layout());
        QVERIFY(row);
        QCOMPARE(row->contentsMargins(),
                 QMargins(PanelHeader::kMarginX, PanelHeader::kMarginY, PanelHeader::kMarginX, PanelHeader::kMarginY));
        QCOMPARE(row->contentsMargins(), QMargins(8, 6, 8, 6));
        QCOMPARE(row->spacing(), 8);
    }

    void orderStretchAndTabOrder()
    {
        QWidget panel;
        auto* header = new PanelHeader(&panel);
        QComboBox* run = header->addSelector(QStringLiteral("run"), QStringLiteral("The run"));
        QLabel* device = header->addLabel(QStringLiteral("device"));
        QLabel* summary = header->addSummary(QStringLiteral("summary"));
        QLineEdit* filter = header->addFilter(QStringLiteral("filter"), QStringLiteral("Filter"));
        auto* check = new QCheckBox(QStringLiteral("Group"), header);
        header->addWidget(check);
        QToolButton* exportButton = header->addExportButton(QStringLiteral("export"));

        // Object names are those the panels' tests look for.
        QCOMPARE(panel.findChild<QComboBox*>(QStringLiteral("run")), run);
        QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("summary")), summary);
        QCOMPARE(run->toolTip(), QStringLiteral("The run"));
        QCOMPARE(filter->placeholderText(), QStringLiteral("Filter"));
        QVERIFY(filter->isClearButtonEnabled());
        QCOMPARE(device->textFormat(), Qt::PlainText);
        QCOMPARE(summary->textFormat(), Qt::PlainText);

        // Left to right in the order added; only the summary and the filter stretch.
        auto* row = header->layout();
        const QList<QWidget*> expected { run, device, summary, filter, check, exportButton };
        QCOMPARE(row->count(), expected.size());
        for (int i = 0; i < expected.size(); ++i) {
            QCOMPARE(row->itemAt(i)->widget(), expected.at(i));
            const bool stretches = expected.at(i) == summary || expected.at(i) == filter;
            QCOMPARE(static_cast<QHBoxLayout*>(row)->stretch(i), stretches ? 1 : 0);
        }

        // The keyboard visits the focusable widgets in the same order.
        QList<QWidget*> focusOrder;
        QWidget* w = run;
        for (int step = 0; step < 100 && focusOrder.size() < 4; ++step, w = w->nextInFocusChain()) {
            if ((w == run || w == filter || w == check || w == exportButton) && !focusOrder.contains(w))
                focusOrder.append(w);
        }
        QCOMPARE(focusOrder, (QList<QWidget*> { run, filter, check, exportButton }));
    }

    void textModes()
    {
        PanelHeader header;
        const QString text
            = QStringLiteral("A summary long enough to be much wider than the room it is given: ").repeated(3);
        QLabel* single = header.addLabel(QStringLiteral("single"), PanelHeader::TextMode::SingleLine);
        QLabel* wrap = header.addLabel(QStringLiteral("wrap"), PanelHeader::TextMode::WordWrap);
        QLabel* elide = header.addLabel(QStringLiteral("elide"), PanelHeader::TextMode::Elide);
        for (QLabel* label : { single, wrap, elide })
            label->setText(text);
        const int textWidth = single->fontMetrics().horizontalAdvance(text);

        QVERIFY(!single->wordWrap());
        QVERIFY(single->minimumSizeHint().width() >= textWidth);
        QVERIFY(wrap->wordWrap());
        QVERIFY(!elide->wordWrap());
        // The eliding label asks for a few characters at least, so it never widens the panel, and keeps the
        // whole text for tests, tooltips and copies.
        QVERIFY(elide->minimumSizeHint().width() < textWidth / 10);
        QCOMPARE(elide->sizePolicy().horizontalPolicy(), QSizePolicy::Ignored);
        QCOMPARE(elide->text(), text);
    }

    void elidedTextIsPaintedWithinTheLabel()
    {
        PanelHeader header;
        QLabel* elide = header.addSummary(QStringLiteral("elide"), PanelHeader::TextMode::Elide);
        elide->setText(QStringLiteral("W").repeated(400));
        header.resize(200, header.sizeHint().height());
        header.show();
        QVERIFY(QTest::qWaitForWindowExposed(&header));
        QVERIFY(header.minimumSizeHint().width() <= 200);
        QVERIFY(elide->width() <= 200);

        // It paints what a plain label shows for the text cut with "…" at its width.
        QLabel expected(&header);
        expected.setTextFormat(Qt::PlainText);
        expected.setGeometry(elide->geometry());
        expected.setText(elide->fontMetrics().elidedText(elide->text(), Qt::ElideRight, elide->contentsRect().width()));
        QVERIFY(expected.text().endsWith(QChar(0x2026)));
        expected.show();
        QCOMPARE(elide->grab().toImage(), expected.grab().toImage());
    }

    void exportMenu()
    {
        PanelHeader header;
        QCOMPARE(header.exportMenu(), nullptr);
        QToolButton* button = header.addExportButton(QStringLiteral("export"));
        QCOMPARE(button->objectName(), QStringLiteral("export"));
        QCOMPARE(button->menu(), header.exportMenu());
        QCOMPARE(button->popupMode(), QToolButton::InstantPopup);
        QVERIFY(!button->text().isEmpty());

        QCustomPlot first;
        QCustomPlot second;
        ChartExportMenu firstExport(&first);
        ChartExportMenu secondExport(&second);

        // One chart: its actions straight in the menu.
        header.addChartExport(&firstExport);
        QCOMPARE(header.exportMenu()->actions(), firstExport.actions());

        // More charts: one submenu each, under the given title.
        PanelHeader two;
        two.addExportButton(QStringLiteral("export"));
        two.addChartExport(&firstExport, QStringLiteral("First chart"));
        two.addChartExport(&secondExport, QStringLiteral("Second chart"));
        const QList<QAction*> entries = two.exportMenu()->actions();
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries.at(0)->text(), QStringLiteral("First chart"));
        QVERIFY(entries.at(0)->menu());
        QCOMPARE(entries.at(0)->menu()->actions(), firstExport.actions());
        QCOMPARE(entries.at(1)->menu()->actions(), secondExport.actions());
    }
};

QTEST_MAIN(TestPanelHeader)
#include "tst_panelheader.moc"

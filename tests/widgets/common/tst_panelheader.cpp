#include "widgets/common/chartexportmenu.h"
#include "widgets/common/panelheader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWidgetAction>
#include <QtTest>

#include <qcustomplot.h>

using namespace runlens;
using namespace runlens::widgets;

// The header row shared by the Overview, Steps, Memory, Cluster, Data pipeline, Operators and Advisor
// panels: widgets in the order added, one set of margins, the summary or filter taking the free width,
// long text cut or wrapped as asked, and the Export menu filled from the panel's charts. With the overflow
// menu (the grid panels, Tensors, Graph, Compare Runs) the row fits any width: what does not fit moves into
// a "…" menu that works like the widgets it stands for.

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

    void overflowMovesTheLeastImportantWidgetsFirst()
    {
        QWidget panel;
        auto* layout = new QVBoxLayout(&panel);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* header = new PanelHeader(&panel);
        layout->addWidget(header);
        layout->addStretch(1);
        header->enableOverflowMenu();
        QLineEdit* filter = header->addFilter(QStringLiteral("filter"), QStringLiteral("Filter"));
        auto* axisLabel = new QLabel(QStringLiteral("Axis"), header);
        auto* axis = new QComboBox(header);
        axis->addItems({ QStringLiteral("Step"), QStringLiteral("Time") });
        header->addWidget(axisLabel);
        header->addWidget(axis);
        header->groupForOverflow({ axisLabel, axis });
        auto* check = new QCheckBox(QStringLiteral("Log scale with a long name"), header);
        header->addWidget(check);
        auto* button = new QToolButton(header);
        button->setText(QStringLiteral("Fit everything"));
        header->addWidget(button);
        QLabel* summary = header->addSummary(QStringLiteral("summary"), PanelHeader::TextMode::SingleLine);
        summary->setText(QStringLiteral("48 of 48 tags"));
        auto* hiddenByPanel = new QCheckBox(QStringLiteral("Hidden"), header);
        header->addWidget(hiddenByPanel);
        hiddenByPanel->hide();

        // The minimum width is that of what always stays: margins, filter, summary and "…".
        const int always = 2 * PanelHeader::kMarginX + filter->minimumWidth() + PanelHeader::kSpacing
            + summary->sizeHint().width() + PanelHeader::kSpacing + header->overflowButton()->sizeHint().width();
        QCOMPARE(header->minimumSizeHint().width(), always);
        QVERIFY(header->sizeHint().width() > always + 100);

        // Wide: everything in the row, no "…".
        panel.resize(header->sizeHint().width() + 50, 80);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTRY_VERIFY(header->overflowButton()->isHidden());
        QVERIFY(header->overflowWidgets().isEmpty());
        QVERIFY(button->isVisible() && check->isVisible() && axis->isVisible());
        QVERIFY(hiddenByPanel->isHidden());

        // Narrower: the button leaves first (the last added among equals), then the check box.
        panel.resize(header->sizeHint().width() - button->sizeHint().width() / 2, 80);
        QTRY_COMPARE(header->overflowWidgets(), (QList<QWidget*> { button }));
        QVERIFY(header->overflowButton()->isVisible());
        panel.resize(always, 80);
        QTRY_COMPARE(header->overflowWidgets(), (QList<QWidget*> { axisLabel, axis, check, button }));
        QVERIFY(filter->isVisible() && summary->isVisible());
        QVERIFY(hiddenByPanel->isHidden());
        // Nothing is cut off: every widget left in the row lies inside it, and the summary keeps its text.
        QTRY_VERIFY(summary->width() >= summary->fontMetrics().horizontalAdvance(summary->text()));
        for (QWidget* w : { static_cast<QWidget*>(filter), static_cast<QWidget*>(summary),
                            static_cast<QWidget*>(header->overflowButton()) })
            QVERIFY2(header->rect().contains(w->geometry()), qPrintable(w->objectName()));

        // The menu works like the widgets: a label names its combo box's submenu of choices ...
        QMenu* menu = header->overflowMenu();
        const QList<QAction*> entries = menu->actions();
        QCOMPARE(entries.size(), 3);
        QCOMPARE(entries.at(0)->text(), QStringLiteral("Axis"));
        QVERIFY(entries.at(0)->menu());
        QSignalSpy activated(axis, &QComboBox::activated);
        const QList<QAction*> choices = entries.at(0)->menu()->actions();
        QCOMPARE(choices.size(), 2);
        QVERIFY(choices.at(0)->isChecked());
        choices.at(1)->trigger();
        QCOMPARE(axis->currentIndex(), 1);
        QCOMPARE(activated.size(), 1);
        // ... a check box is a checkable action, a button an action that clicks it.
        QCOMPARE(entries.at(1)->text(), check->text());
        QVERIFY(entries.at(1)->isCheckable());
        entries.at(1)->trigger();
        QVERIFY(check->isChecked());
        QSignalSpy clicked(button, &QToolButton::clicked);
        QCOMPARE(entries.at(2)->text(), button->text());
        entries.at(2)->trigger();
        QCOMPARE(clicked.size(), 1);
        // Rebuilt as it opens, it shows the current state.
        QVERIFY(header->overflowMenu()->actions().at(1)->isChecked());

        // Wide again: everything comes back, except what the panel hid itself.
        panel.resize(header->sizeHint().width() + 50, 80);
        QTRY_VERIFY(header->overflowWidgets().isEmpty());
        QVERIFY(button->isVisible() && check->isVisible() && axis->isVisible() && axisLabel->isVisible());
        QVERIFY(header->overflowButton()->isHidden());
        QVERIFY(hiddenByPanel->isHidden());
    }

    void overflowEntriesForActionsMenusAndFields()
    {
        QWidget panel;
        auto* layout = new QVBoxLayout(&panel);
        auto* header = new PanelHeader(&panel);
        layout->addWidget(header);
        header->enableOverflowMenu();
        QLineEdit* filter = header->addFilter(QStringLiteral("filter"), QStringLiteral("Filter"));
        QAction action(QStringLiteral("1e-3"));
        action.setCheckable(true);
        QToolButton* actionButton = header->addAction(&action, QStringLiteral("scientific"));
        QCOMPARE(actionButton->defaultAction(), &action);
        auto* spinLabel = new QLabel(QStringLiteral("Smoothing"), header);
        auto* slider = new QSlider(Qt::Horizontal, header);
        slider->setRange(0, 100);
        auto* spin = new QSpinBox(header);
        spin->setRange(0, 100);
        header->addWidget(spinLabel);
        header->addWidget(slider);
        header->addWidget(spin);
        header->groupForOverflow({ spinLabel, slider, spin });
        QToolButton* exportButton = header->addExportButton(QStringLiteral("export"));
        QAction* png = header->exportMenu()->addAction(QStringLiteral("PNG"));

        // The keyboard reaches "…" last.
        QWidget* w = filter;
        QList<QWidget*> order;
        for (int step = 0; step < 50 && order.size() < 3; ++step, w = w->nextInFocusChain()) {
            if ((w == filter || w == exportButton || w == header->overflowButton()) && !order.contains(w))
                order.append(w);
        }
        QCOMPARE(order, (QList<QWidget*> { filter, exportButton, header->overflowButton() }));

        panel.resize(header->minimumSizeHint().width() + 2 * layout->contentsMargins().left(), 80);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTRY_COMPARE(header->overflowWidgets().size(), 5);
        const QList<QAction*> entries = header->overflowMenu()->actions();
        QCOMPARE(entries.size(), 3);
        // An action's button is the action itself; Export is its own menu.
        QCOMPARE(entries.at(0), &action);
        QCOMPARE(entries.at(2)->menu(), header->exportMenu());
        QVERIFY(entries.at(2)->menu()->actions().contains(png));
        // Fields come as copies that edit the originals.
        auto* fields = qobject_cast<QWidgetAction*>(entries.at(1));
        QVERIFY(fields);
        QWidget* row = fields->defaultWidget();
        QVERIFY(row);
        QCOMPARE(row->findChild<QLabel*>()->text(), QStringLiteral("Smoothing"));
        row->findChild<QSlider*>()->setValue(40);
        QCOMPARE(slider->value(), 40);
        row->findChild<QSpinBox*>()->setValue(7);
        QCOMPARE(spin->value(), 7);
        spin->setValue(9);
        QCOMPARE(row->findChild<QSpinBox*>()->value(), 9);
    }
};

QTEST_MAIN(TestPanelHeader)
#include "tst_panelheader.moc"

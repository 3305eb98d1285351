#include "app/summarylimitsdialog.h"

#include <QDialogButtonBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>

using namespace runlens;
using namespace runlens::app;

class TestSummaryLimitsDialog : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("RunLensTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_summarylimitsdialog"));
        QSettings().clear();
    }

    void defaultsUntilSaved()
    {
        const models::summary::SummaryLimits loaded = SummaryLimitsDialog::load();
        const models::summary::SummaryLimits defaults;
        QCOMPARE(loaded.histograms, defaults.histograms);
        QCOMPARE(loaded.images, defaults.images);
        QCOMPARE(loaded.tensors, defaults.tensors);
    }

    void editSaveAndRestore()
    {
        SummaryLimitsDialog dialog;
        const QList<QSpinBox*> boxes = dialog.findChildren<QSpinBox*>();
        QCOMPARE(boxes.size(), 6);
        // Scalars first (kept whole by default), then histograms: type a new value as a user would.
        QCOMPARE(boxes.at(0)->value(), 0);
        QSpinBox* histograms = boxes.at(1);
        histograms->selectAll();
        QTest::keyClicks(histograms, QStringLiteral("42"));
        QCOMPARE(dialog.limits().histograms, 42);
        // 0 keeps everything and reads "all".
        histograms->setValue(0);
        QCOMPARE(histograms->text(), QStringLiteral("all"));
        histograms->setValue(42);
        SummaryLimitsDialog::save(dialog.limits());
        QCOMPARE(SummaryLimitsDialog::load().histograms, 42);
        // A fresh dialog shows what was saved; Restore Defaults brings the recommended values back.
        SummaryLimitsDialog again;
        QCOMPARE(again.limits().histograms, 42);
        auto* buttons = again.findChild<QDialogButtonBox*>();
        QVERIFY(buttons);
        QTest::mouseClick(buttons->button(QDialogButtonBox::RestoreDefaults), Qt::LeftButton);
        QCOMPARE(again.limits().histograms, models::summary::SummaryLimits().histograms);
    }

    void badSettingsFallBack()
    {
        QSettings().setValue(QStringLiteral("summaries/images"), QStringLiteral("many"));
        QSettings().setValue(QStringLiteral("summaries/texts"), -5);
        const models::summary::SummaryLimits loaded = SummaryLimitsDialog::load();
        QCOMPARE(loaded.images, models::summary::SummaryLimits().images);
        QCOMPARE(loaded.texts, models::summary::SummaryLimits().texts);
        QSettings().clear();
    }
};

QTEST_MAIN(TestSummaryLimitsDialog)
#include "tst_summarylimitsdialog.moc"

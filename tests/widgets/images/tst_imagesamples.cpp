#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "models/summary/summarystore.h"
#include "widgets/images/imagecard.h"
#include "widgets/images/imagespanel.h"
#include "widgets/images/imageview.h"
#include "widgets/images/textcard.h"
#include "widgets/images/textpanel.h"

#include "tests/testutils.h"

#include <QScrollBar>
#include <QSlider>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

#include <memory>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::models;
using namespace runlens::widgets::images;

namespace {

/// A sample folder read through the session into a SummaryStore, as the main window does.
struct Imported
{
    RunManifest manifest;
    std::unique_ptr<ImportSession> session;
    models::summary::SummaryStore summaries;

    explicit Imported(const QString& folder)
        : manifest(RunScanner().scan(folder))
        , session(std::make_unique<ImportSession>(manifest))
    {
        QObject::connect(session.get(), &ImportSession::summariesArrived, &summaries,
                         &models::summary::SummaryStore::update);
        session->importBlocking();
    }
};

/// Saves the panel's picture to $RUNLENS_SCREENSHOT_DIR when set, to look at it.
void saveScreenshot(QWidget* panel, const QString& name)
{
    const QString out = qEnvironmentVariable("RUNLENS_SCREENSHOT_DIR");
    if (!out.isEmpty())
        panel->grab().save(QDir(out).filePath(name));
}

} // namespace

class TestImageSamples : public QObject
{
    Q_OBJECT
private slots:
    void torchImages()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        Imported imported(samples + QStringLiteral("/summaries/tensorboard/torch2_images"));
        const QStringList runs = imported.summaries.runs(models::summary::SummaryKind::Images);
        QCOMPARE(runs.size(), 1);
        ImagesPanel panel(&imported.summaries);
        panel.resize(900, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QList<ImageCard*> cards = panel.visibleCards();
        QCOMPARE(cards.size(), 1); // one image tag in one run
        ImageCard* card = cards.first();
        // MANIFEST.tsv: 5 images, one per step.
        QCOMPARE(card->slider()->maximum(), 4);
        QCOMPARE(card->currentIndex(), 4);
        for (int i = 4; i >= 0; --i) {
            card->setCurrentIndex(i);
            QTRY_VERIFY(card->isCurrentStepReady());
            const models::summary::SummaryImage& item = card->series().items.at(size_t(i));
            QCOMPARE(card->message(), QString());
            QCOMPARE(card->view()->imageCount(), 1);
            // The size the writer declared in Summary.Image.
            QCOMPARE(card->view()->shownImages().first().size(), QSize(item.width, item.height));
        }
        saveScreenshot(&panel, QStringLiteral("imagesamples.png"));
        QTemporaryDir dir;
        card->setExportDirectory(dir.path());
        const QString written = card->requestExport();
        QVERIFY(!written.isEmpty());
        QCOMPARE(QImage(written).size(), card->view()->shownImages().first().size());
    }

    void cnnBaselineConfigText()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        Imported imported(samples + QStringLiteral("/runs/pytorch_cnn_baseline/tb"));
        TextPanel panel(&imported.summaries);
        panel.resize(900, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        // The file's text tag, as tests/data/summary/summary_sample_decode.py reads it: `config/text_summary`,
        // one step (0), a rank-1 string tensor of one JSON text naming the run "cnn_baseline".
        const QList<TextCard*> cards = panel.visibleCards();
        QCOMPARE(cards.size(), 1);
        TextCard* card = cards.first();
        QCOMPARE(card->tag(), QStringLiteral("config/text_summary"));
        QCOMPARE(card->currentStep(), qint64(0));
        QCOMPARE(card->statusText(), QStringLiteral("list of 1"));
        const QString shown = card->document()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("cnn_baseline")), qPrintable(shown));
        QVERIFY(shown.contains(QStringLiteral("conv2.weight")));
        // JSON keeps its lines: the decoder's `strings` value of this text has 22 lines.
        QStringList lines = shown.split(QRegularExpression(QStringLiteral("[\\n\\x{2028}]")));
        lines.removeAll(QString());
        QCOMPARE(lines.size(), 22);
        QCOMPARE(lines.at(1), QStringLiteral(" \"kind\": \"cnn\","));
        QCOMPARE(card->browser()->verticalScrollBar()->value(), 0); // shown from its first line
        saveScreenshot(&panel, QStringLiteral("textsamples.png"));
    }
};

QTEST_MAIN(TestImageSamples)
#include "tst_imagesamples.moc"

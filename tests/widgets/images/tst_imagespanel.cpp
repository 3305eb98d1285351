#include "tests/widgets/images/imagetestdata.h"

#include "models/summary/summarystore.h"
#include "widgets/images/imagecard.h"
#include "widgets/images/imagedecodecache.h"
#include "widgets/images/imagespanel.h"
#include "widgets/images/imageview.h"
#include "widgets/scalars/chartsection.h"

#include <QLabel>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <memory>

using namespace runlens;
using namespace runlens::widgets;
using namespace runlens::widgets::images;

namespace {

const QString kAlpha = QStringLiteral("alpha");
const QString kBeta = QStringLiteral("beta");
const QString kDigits = QStringLiteral("input/digits");
const QString kSamples = QStringLiteral("samples");
constexpr int kSteps = 5;

/// Step i of the digits tag is a 16x12 picture of one colour whose red channel is 40 * i + 20.
QColor digitsColor(int step)
{
    return QColor(40 * step + 20, 100, 180);
}

models::summary::SummaryBatch digitsBatch(int steps)
{
    std::vector<models::summary::SummaryImage> items;
    for (int i = 0; i < steps; ++i)
        items.push_back(test::imageAt(i, { test::encodeImage(test::solidImage(16, 12, digitsColor(i))) }));
    models::summary::SummaryBatch batch;
    batch.images.push_back(test::imageSeries(kDigits, items));
    return batch;
}

template<typename T> T* child(QWidget* parent, const QString& name)
{
    T* found = parent->findChild<T*>(name);
    if (!found)
        qWarning("no child %s", qPrintable(name));
    return found;
}

int shownRed(ImageCard* card, int image = 0, QPoint at = { 1, 1 })
{
    const QList<QImage> images = card->view()->shownImages();
    return image < images.size() ? qRed(images.at(image).pixel(at)) : -1;
}

} // namespace

class TestImagesPanel : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        m_store = std::make_unique<models::summary::SummaryStore>();
        m_store->update(kAlpha, QStringLiteral("alpha/events"), digitsBatch(kSteps));
        m_panel = std::make_unique<ImagesPanel>(m_store.get());
        m_panel->resize(1100, 900);
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
        m_panel->flushPendingUpdates();
    }

    void cleanup()
    {
        m_panel.reset();
        m_store.reset();
    }

    void emptyStateNamesWhatToOpen()
    {
        models::summary::SummaryStore empty;
        ImagesPanel panel(&empty);
        QVERIFY(panel.emptyStateText().contains(QStringLiteral("No images yet")));
        QVERIFY(panel.visibleCards().isEmpty());
        // Data arriving later replaces the empty state.
        empty.update(kAlpha, QStringLiteral("f"), digitsBatch(2));
        panel.flushPendingUpdates();
        QCOMPARE(panel.visibleCards().size(), 1);
        QCOMPARE(panel.emptyStateText(), QString());
    }

    void showsNewestStepDecoded()
    {
        ImageCard* card = m_panel->card(kAlpha, kDigits);
        QVERIFY(card);
        QCOMPARE(card->currentIndex(), kSteps - 1);
        QCOMPARE(card->currentStep(), qint64(kSteps - 1));
        QTRY_VERIFY(card->isCurrentStepReady());
        QCOMPARE(card->view()->imageCount(), 1);
        QCOMPARE(card->view()->shownImages().first().size(), QSize(16, 12));
        QCOMPARE(shownRed(card), digitsColor(kSteps - 1).red());
        QCOMPARE(card->message(), QString());
        QCOMPARE(card->statusText(), QStringLiteral("16 × 12 px"));
    }

    void sliderKeysChangeTheStep()
    {
        ImageCard* card = m_panel->card(kAlpha, kDigits);
        QSlider* slider = card->slider();
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_Left);
        QCOMPARE(card->currentStep(), qint64(kSteps - 2));
        QTRY_COMPARE(shownRed(card), digitsColor(kSteps - 2).red());
        QTest::keyClick(slider, Qt::Key_Home);
        QCOMPARE(card->currentStep(), qint64(0));
        QTRY_COMPARE(shownRed(card), digitsColor(0).red());
        QCOMPARE(child<QLabel>(card, QStringLiteral("stepLabel"))->text(), QStringLiteral("step 0 · 1/5"));
        QTest::keyClick(slider, Qt::Key_End);
        QCOMPARE(card->currentStep(), qint64(kSteps - 1));
        QTRY_COMPARE(shownRed(card), digitsColor(kSteps - 1).red());
    }

    void severalImagesAtAStepSideBySide()
    {
        const QList<QByteArray> three { test::encodeImage(test::solidImage(10, 10, Qt::red)),
                                        test::encodeImage(test::solidImage(10, 10, Qt::green)),
                                        test::encodeImage(test::solidImage(20, 10, Qt::blue)) };
        models::summary::SummaryBatch batch;
        batch.images.push_back(test::imageSeries(kSamples, { test::imageAt(7, three) }));
        m_store->update(kAlpha, QStringLiteral("alpha/events"), batch);
        m_panel->flushPendingUpdates();
        ImageCard* card = m_panel->card(kAlpha, kSamples);
        QVERIFY(card);
        QTRY_VERIFY(card->isCurrentStepReady());
        ImageView* view = card->view();
        QCOMPARE(view->imageCount(), 3);
        QCOMPARE(qGreen(view->shownImages().at(1).pixel(0, 0)), 255);
        // Left to right, not overlapping, in the written order.
        QVERIFY(view->imageRect(0).right() < view->imageRect(1).left());
        QVERIFY(view->imageRect(1).right() < view->imageRect(2).left());
        QCOMPARE(card->statusText(), QStringLiteral("3 images · mixed sizes"));
        // The painted widget shows the blue third image where imageRect says it is.
        const QImage rendered = view->renderedImage();
        const QPoint blueCentre = view->imageRect(2).center();
        QCOMPARE(rendered.pixelColor(blueCentre * rendered.devicePixelRatio()), QColor(Qt::blue));
        // Export puts them side by side at their real size.
        const QImage composed = card->composedImage();
        QCOMPARE(composed.size(), QSize(10 + 10 + 20 + 2 * ImageView::kGap, 10));
        QCOMPARE(composed.pixelColor(0, 0), QColor(Qt::red));
        QCOMPARE(composed.pixelColor(10 + ImageView::kGap, 5), QColor(Qt::green));
    }

    void corruptBytesAreReportedInTheCard()
    {
        const QByteArray garbage("not an image", 12);
        std::vector<models::summary::SummaryImage> items {
            test::imageAt(1, { test::encodeImage(test::solidImage(8, 8, Qt::red)) }), test::imageAt(3, { garbage }),
            test::imageAt(4, { test::encodeImage(test::solidImage(8, 8, Qt::red)), garbage })
        };
        models::summary::SummaryBatch batch;
        batch.images.push_back(test::imageSeries(kSamples, items));
        m_store->update(kAlpha, QStringLiteral("alpha/events"), batch);
        m_panel->flushPendingUpdates();
        ImageCard* card = m_panel->card(kAlpha, kSamples);
        QVERIFY(card);
        // Newest step: one good image shown, the bad one named with its index.
        QTRY_VERIFY(card->isCurrentStepReady());
        QCOMPARE(card->view()->imageCount(), 1);
        QCOMPARE(card->message(),
                 QStringLiteral("step 4, image 2: the image data is not a PNG, JPEG or GIF (12 bytes)"));
        QVERIFY(child<QLabel>(card, QStringLiteral("message"))->isVisible());
        card->setCurrentIndex(1);
        QTRY_VERIFY(card->isCurrentStepReady());
        QCOMPARE(card->view()->imageCount(), 0);
        QCOMPARE(card->message(), QStringLiteral("step 3: the image data is not a PNG, JPEG or GIF (12 bytes)"));
        QVERIFY(!child<QToolButton>(card, QStringLiteral("exportPng"))->isEnabled());
        card->setCurrentIndex(0);
        QTRY_VERIFY(card->isCurrentStepReady());
        QCOMPARE(card->message(), QString());
        QVERIFY(!child<QLabel>(card, QStringLiteral("message"))->isVisible());
    }

    void zoomButtonsAndCtrlWheel()
    {
        ImageCard* card = m_panel->card(kAlpha, kDigits);
        QTRY_VERIFY(card->isCurrentStepReady());
        ImageView* view = card->view();
        QVERIFY(view->fitToView());
        // Fitted: a 16x12 picture in a card hundreds of pixels wide is magnified, at most kMaxFitScale.
        QVERIFY(view->effectiveZoom() > 1.0);
        QVERIFY(view->effectiveZoom() <= ImageView::kMaxFitScale);
        QTest::mouseClick(child<QToolButton>(card, QStringLiteral("realSize")), Qt::LeftButton);
        QVERIFY(!view->fitToView());
        QCOMPARE(view->effectiveZoom(), 1.0);
        QCOMPARE(view->imageRect(0).size(), QSize(16, 12));
        QVERIFY(!child<QToolButton>(card, QStringLiteral("fit"))->isChecked());
        QCOMPARE(child<QLabel>(card, QStringLiteral("zoomLabel"))->text(), QStringLiteral("100 %"));
        QTest::mouseClick(child<QToolButton>(card, QStringLiteral("zoomIn")), Qt::LeftButton);
        QCOMPARE(view->effectiveZoom(), 1.25);
        QCOMPARE(view->imageRect(0).size(), QSize(20, 15));

        // Ctrl+wheel zooms in; the plain wheel is left to the scroll areas.
        const QPointF at = view->imageRect(0).center();
        QWheelEvent ctrlWheel(at, view->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
                              Qt::NoScrollPhase, false);
        QApplication::sendEvent(view, &ctrlWheel);
        QVERIFY(ctrlWheel.isAccepted());
        QCOMPARE(view->effectiveZoom(), 1.25 * 1.25);
        QWheelEvent plainWheel(at, view->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                               Qt::NoScrollPhase, false);
        QApplication::sendEvent(view, &plainWheel);
        QCOMPARE(view->effectiveZoom(), 1.25 * 1.25);
        QTest::mouseClick(child<QToolButton>(card, QStringLiteral("zoomOut")), Qt::LeftButton);
        QCOMPARE(view->effectiveZoom(), 1.25);

        QTest::mouseClick(child<QToolButton>(card, QStringLiteral("fit")), Qt::LeftButton);
        QVERIFY(view->fitToView());
        QVERIFY(view->effectiveZoom() > 1.25);
    }

    void autoContrastChangesDisplayedPixels()
    {
        models::summary::SummaryBatch batch;
        batch.images.push_back(test::imageSeries(
            kSamples, { test::imageAt(0, { test::encodeImage(test::darkImage(64, 8, 10, 25, 40)) }) }));
        m_store->update(kAlpha, QStringLiteral("alpha/events"), batch);
        m_panel->flushPendingUpdates();
        ImageCard* card = m_panel->card(kAlpha, kSamples);
        QTRY_VERIFY(card->isCurrentStepReady());
        QCOMPARE(shownRed(card, 0, { 63, 0 }), 40);
        QCOMPARE(shownRed(card, 0, { 0, 0 }), 10);

        auto* toggle = child<QToolButton>(card, QStringLiteral("autoContrast"));
        QTest::mouseClick(toggle, Qt::LeftButton);
        QVERIFY(card->autoContrast());
        // (v - 10) * 255 / 30: 40 -> 255, 10 -> 0, 25 -> 128.
        QTRY_COMPARE(shownRed(card, 0, { 63, 0 }), 255);
        QCOMPARE(shownRed(card, 0, { 0, 0 }), 0);
        QCOMPARE(shownRed(card, 0, { 32, 4 }), 128);
        // The painted picture changed too, not only the data behind it.
        ImageView* view = card->view();
        const QImage rendered = view->renderedImage();
        const QRect r = view->imageRect(0);
        const QPoint rightHalf(r.right() - 2, r.center().y());
        QCOMPARE(qRed(rendered.pixel(rightHalf * rendered.devicePixelRatio())), 255);

        // Hover reports the recorded value, not the stretched one.
        QMouseEvent move(QEvent::MouseMove, QPointF(rightHalf), view->mapToGlobal(QPointF(rightHalf)), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view, &move);
        // (The picture is grey, so it was written and is described as a grey image.)
        QVERIFY2(card->statusText().endsWith(QStringLiteral("value 40")), qPrintable(card->statusText()));
        QVERIFY(card->statusText().startsWith(QStringLiteral("x 6")));

        QTest::mouseClick(toggle, Qt::LeftButton);
        QTRY_COMPARE(shownRed(card, 0, { 63, 0 }), 40);

        // The panel-wide switch reaches every card.
        m_panel->setAutoContrast(true);
        QVERIFY(m_panel->card(kAlpha, kDigits)->autoContrast());
        QTRY_COMPARE(shownRed(card, 0, { 63, 0 }), 255);
    }

    void exportsTheShownImageAsPng()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        m_panel->setExportDirectory(dir.path());
        ImageCard* card = m_panel->card(kAlpha, kDigits);
        QTRY_VERIFY(card->isCurrentStepReady());
        card->setCurrentIndex(2);
        QTRY_VERIFY(card->isCurrentStepReady());
        QSignalSpy exported(m_panel.get(), &ImagesPanel::imageExported);
        QTest::mouseClick(child<QToolButton>(card, QStringLiteral("exportPng")), Qt::LeftButton);
        QCOMPARE(exported.size(), 1);
        const QString fileName = exported.first().first().toString();
        QVERIFY(fileName.startsWith(dir.path()));
        QVERIFY(fileName.endsWith(QStringLiteral("alpha_input_digits_step2.png")));
        QVERIFY(QFileInfo(fileName).size() > 0);
        const QImage written(fileName);
        QCOMPARE(written.size(), QSize(16, 12));
        QCOMPARE(qRed(written.pixel(5, 5)), digitsColor(2).red());

        // A second export does not overwrite the first; a provider chooses the name when installed.
        QTest::mouseClick(child<QToolButton>(card, QStringLiteral("exportPng")), Qt::LeftButton);
        QCOMPARE(exported.size(), 2);
        QVERIFY(exported.at(1).first().toString() != fileName);
        const QString chosen = dir.filePath(QStringLiteral("chosen.png"));
        m_panel->setExportFileNameProvider([&](ChartExporter::Format format, const QString&) {
            return format == ChartExporter::Format::Png ? chosen : QString();
        });
        QCOMPARE(card->requestExport(), chosen);
        QVERIFY(!QImage(chosen).isNull());

        QSignalSpy failed(m_panel.get(), &ImagesPanel::imageExportFailed);
        QString error;
        QVERIFY(!card->exportPng(dir.filePath(QStringLiteral("missing/folder/x.png")), &error));
        QVERIFY(error.contains(QStringLiteral("missing/folder/x.png")));
    }

    void visibleRunsAndTagFilter()
    {
        m_store->update(kBeta, QStringLiteral("beta/events"), digitsBatch(2));
        models::summary::SummaryBatch batch;
        batch.images.push_back(
            test::imageSeries(kSamples, { test::imageAt(0, { test::encodeImage(test::solidImage(4, 4, Qt::red)) }) }));
        m_store->update(kBeta, QStringLiteral("beta/events"), batch);
        m_panel->flushPendingUpdates();
        QCOMPARE(m_panel->visibleCards().size(), 3);
        QCOMPARE(m_panel->visibleTags(), QStringList({ kDigits, kSamples }));
        QVERIFY(m_panel->card(kBeta, kDigits));
        // Run colours follow the store's run order, as in every chart.
        QCOMPARE(m_panel->sectionForTag(kDigits)->widgets().size(), 2);

        m_panel->setVisibleRuns({ kAlpha });
        QCOMPARE(m_panel->visibleCards().size(), 1);
        QCOMPARE(m_panel->visibleCards().first()->run(), kAlpha);
        QCOMPARE(m_panel->visibleTags(), QStringList({ kDigits }));
        m_panel->setVisibleRuns({ QStringLiteral("gamma") });
        QVERIFY(m_panel->visibleCards().isEmpty());
        QVERIFY(m_panel->emptyStateText().contains(QStringLiteral("Compare runs")));
        m_panel->setVisibleRuns({});
        QCOMPARE(m_panel->visibleCards().size(), 3);

        m_panel->setTagFilter(QStringLiteral("SAMP"));
        QCOMPARE(m_panel->visibleTags(), QStringList({ kSamples }));
        m_panel->setTagFilter(QStringLiteral("(["));
        QVERIFY(!m_panel->isTagFilterValid());
        QCOMPARE(m_panel->visibleTags(), QStringList({ kSamples })); // the last valid filter stays
        m_panel->setTagFilter(QStringLiteral("nothing-matches"));
        QVERIFY(m_panel->emptyStateText().contains(QStringLiteral("No tag matches")));
        m_panel->setTagFilter(QString());
        QCOMPARE(m_panel->visibleTags().size(), 2);
    }

    void liveUpdatesFollowTheNewestStep()
    {
        ImageCard* card = m_panel->card(kAlpha, kDigits);
        QCOMPARE(card->currentStep(), qint64(kSteps - 1));
        m_store->update(kAlpha, QStringLiteral("alpha/events"), digitsBatch(kSteps + 1));
        m_panel->flushPendingUpdates();
        QCOMPARE(m_panel->card(kAlpha, kDigits), card); // updated in place
        QCOMPARE(card->currentStep(), qint64(kSteps));
        QTRY_COMPARE(shownRed(card), digitsColor(kSteps).red());
        // A card moved back by the user stays on its step.
        card->setCurrentIndex(1);
        m_store->update(kAlpha, QStringLiteral("alpha/events"), digitsBatch(kSteps + 2));
        m_panel->flushPendingUpdates();
        QCOMPARE(card->currentStep(), qint64(1));
        QCOMPARE(card->slider()->maximum(), kSteps + 1);
        // Removing the run removes its card.
        m_store->removeRun(kAlpha);
        m_panel->flushPendingUpdates();
        QVERIFY(!m_panel->card(kAlpha, kDigits));
        QVERIFY(m_panel->emptyStateText().contains(QStringLiteral("No images yet")));
    }

    void decodesOnlyOnceAndOnlyOnScreen()
    {
        // A card far below the visible part of the page does not decode until scrolled to.
        models::summary::SummaryBatch batch;
        for (int t = 0; t < 12; ++t) {
            batch.images.push_back(test::imageSeries(
                QStringLiteral("z/tag%1").arg(t, 2, 10, QLatin1Char('0')),
                { test::imageAt(0, { test::encodeImage(test::solidImage(6, 6, QColor(t * 20, 0, 0))) }) }));
        }
        m_store->update(kAlpha, QStringLiteral("alpha/events"), batch);
        m_panel->flushPendingUpdates();
        QTRY_VERIFY(m_panel->card(kAlpha, QStringLiteral("z/tag00"))->isCurrentStepReady());
        ImageCard* last = m_panel->card(kAlpha, QStringLiteral("z/tag11"));
        QTest::qWait(100);
        QVERIFY(!last->isCurrentStepReady());
        m_panel->findChild<QScrollArea*>(QStringLiteral("chartScroll"))->ensureWidgetVisible(last);
        QTRY_VERIFY(last->isCurrentStepReady());
        QCOMPARE(shownRed(last), 220);
        // Cards scrolled past on the way may still be decoding; nothing stays pending.
        QTRY_COMPARE(m_panel->decodeCache()->pendingCount(), 0);
    }

    void screenshot()
    {
        m_store->update(kBeta, QStringLiteral("beta/events"), digitsBatch(3));
        models::summary::SummaryBatch batch;
        batch.images.push_back(test::imageSeries(
            kSamples,
            { test::imageAt(2, { test::encodeImage(test::darkImage(64, 48, 10, 25, 40)), QByteArray("oops") }) }));
        m_store->update(kAlpha, QStringLiteral("alpha/events"), batch);
        m_panel->flushPendingUpdates();
        for (ImageCard* card : m_panel->visibleCards())
            QTRY_VERIFY(card->isCurrentStepReady());
        const QString out = qEnvironmentVariable("RUNLENS_SCREENSHOT_DIR");
        if (!out.isEmpty())
            m_panel->grab().save(QDir(out).filePath(QStringLiteral("imagespanel.png")));
        QVERIFY(!m_panel->grab().isNull());
    }

private:
    std::unique_ptr<models::summary::SummaryStore> m_store;
    std::unique_ptr<ImagesPanel> m_panel;
};

QTEST_MAIN(TestImagesPanel)
#include "tst_imagespanel.moc"

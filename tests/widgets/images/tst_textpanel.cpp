#include "models/summary/summarystore.h"
#include "widgets/images/textcard.h"
#include "widgets/images/textpanel.h"
#include "widgets/images/textrendering.h"
#include "widgets/scalars/chartsection.h"

#include <QCheckBox>
#include <QLabel>
#include <QSlider>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <QTextTable>
#include <QtTest>

#include <memory>

using namespace runlens;
using namespace runlens::widgets::images;

namespace {

const QString kAlpha = QStringLiteral("alpha");
const QString kBeta = QStringLiteral("beta");
const QString kConfig = QStringLiteral("config");
const QString kTable = QStringLiteral("eval/table");
const QString kList = QStringLiteral("eval/classes");

models::summary::SummaryText text(qint64 step, const QString& markdown)
{
    models::summary::SummaryText t;
    t.step = step;
    t.wallTime = 1700000000.0 + step;
    t.cells = { markdown };
    return t;
}

models::summary::SummaryText tensorText(qint64 step, std::vector<qint64> shape, const QStringList& cells)
{
    models::summary::SummaryText t;
    t.step = step;
    t.shape = std::move(shape);
    t.cells = cells;
    return t;
}

models::summary::TextSeries series(const QString& tag, const std::vector<models::summary::SummaryText>& items)
{
    models::summary::TextSeries s;
    s.tag = tag;
    s.items = items;
    s.seen = qint64(items.size());
    return s;
}

/// The configuration text of step i: a heading, a bold word and the step number.
QString configMarkdown(int step)
{
    return QStringLiteral("# Run setup %1\n\nThe optimizer is **adam** with `lr=0.001`.\n").arg(step);
}

models::summary::SummaryBatch configBatch(int steps)
{
    std::vector<models::summary::SummaryText> items;
    for (int i = 0; i < steps; ++i)
        items.push_back(text(i * 10, configMarkdown(i * 10)));
    models::summary::SummaryBatch batch;
    batch.texts.push_back(series(kConfig, items));
    return batch;
}

bool hasHeading(const QTextDocument* document, const QString& textOfHeading, int level)
{
    for (QTextBlock b = document->begin(); b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() == level && b.text() == textOfHeading)
            return true;
    }
    return false;
}

bool hasBold(const QTextDocument* document, const QString& word)
{
    for (QTextBlock b = document->begin(); b.isValid(); b = b.next()) {
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (f.text() == word && f.charFormat().fontWeight() >= QFont::Bold)
                return true;
        }
    }
    return false;
}

QTextTable* firstTable(QTextDocument* document)
{
    for (QTextFrame* frame : document->rootFrame()->childFrames()) {
        if (auto* table = qobject_cast<QTextTable*>(frame))
            return table;
    }
    return nullptr;
}

QString cellText(QTextTable* table, int row, int column)
{
    const QTextTableCell cell = table->cellAt(row, column);
    QTextCursor cursor = cell.firstCursorPosition();
    cursor.setPosition(cell.lastCursorPosition().position(), QTextCursor::KeepAnchor);
    return cursor.selectedText();
}

} // namespace

class TestTextPanel : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        m_store = std::make_unique<models::summary::SummaryStore>();
        m_store->update(kAlpha, QStringLiteral("alpha/events"), configBatch(3));
        m_panel = std::make_unique<TextPanel>(m_store.get());
        m_panel->resize(1000, 800);
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
        m_panel->flushPendingUpdates();
    }

    void cleanup()
    {
        m_panel.reset();
        m_store.reset();
    }

    void emptyState()
    {
        models::summary::SummaryStore empty;
        TextPanel panel(&empty);
        QVERIFY(panel.emptyStateText().contains(QStringLiteral("No texts yet")));
        QVERIFY(panel.visibleCards().isEmpty());
    }

    void markdownIsRendered()
    {
        TextCard* card = m_panel->card(kAlpha, kConfig);
        QVERIFY(card);
        QCOMPARE(card->currentStep(), qint64(20));
        QVERIFY(hasHeading(card->document(), QStringLiteral("Run setup 20"), 1));
        QVERIFY(hasBold(card->document(), QStringLiteral("adam")));
        QVERIFY(!card->document()->toPlainText().contains(QStringLiteral("**")));
        QCOMPARE(card->statusText(), QStringLiteral("text"));
    }

    void sliderChangesTheText()
    {
        TextCard* card = m_panel->card(kAlpha, kConfig);
        QSlider* slider = card->slider();
        QVERIFY(slider->isVisible());
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_Left);
        QCOMPARE(card->currentStep(), qint64(10));
        QVERIFY(hasHeading(card->document(), QStringLiteral("Run setup 10"), 1));
        QTest::keyClick(slider, Qt::Key_Home);
        QVERIFY(hasHeading(card->document(), QStringLiteral("Run setup 0"), 1));
        QCOMPARE(card->findChild<QLabel*>(QStringLiteral("stepLabel"))->text(), QStringLiteral("step 0 · 1/3"));
    }

    void rankTwoIsATable()
    {
        models::summary::SummaryBatch batch;
        batch.texts.push_back(
            series(kTable,
                   { tensorText(5, { 2, 3 },
                                { QStringLiteral("class"), QStringLiteral("precision"), QStringLiteral("recall"),
                                  QStringLiteral("cat"), QStringLiteral("**0.91**"), QStringLiteral("0.88") }) }));
        m_store->update(kAlpha, QStringLiteral("alpha/events"), batch);
        m_panel->flushPendingUpdates();
        TextCard* card = m_panel->card(kAlpha, kTable);
        QVERIFY(card);
        QTextTable* table = firstTable(card->document());
        QVERIFY(table);
        QCOMPARE(table->rows(), 2);
        QCOMPARE(table->columns(), 3);
        QCOMPARE(cellText(table, 0, 1), QStringLiteral("precision"));
        QCOMPARE(cellText(table, 1, 0), QStringLiteral("cat"));
        QCOMPARE(cellText(table, 1, 1), QStringLiteral("0.91")); // Markdown inside the cell
        QCOMPARE(card->statusText(), QStringLiteral("2 × 3 table"));
    }

    void rankOneIsAList()
    {
        models::summary::SummaryBatch batch;
        batch.texts.push_back(series(
            kList,
            { tensorText(1, { 3 }, { QStringLiteral("cat"), QStringLiteral("*dog*"), QStringLiteral("bird") }) }));
        m_store->update(kAlpha, QStringLiteral("alpha/events"), batch);
        m_panel->flushPendingUpdates();
        TextCard* card = m_panel->card(kAlpha, kList);
        QStringList items;
        for (QTextBlock b = card->document()->begin(); b.isValid(); b = b.next()) {
            if (b.textList())
                items << b.text();
        }
        QCOMPARE(items, QStringList({ QStringLiteral("cat"), QStringLiteral("dog"), QStringLiteral("bird") }));
        QCOMPARE(card->statusText(), QStringLiteral("list of 3"));
    }

    void allStepsListsEveryStep()
    {
        auto* toggle = m_panel->findChild<QCheckBox*>(QStringLiteral("allSteps"));
        QVERIFY(toggle);
        toggle->click();
        QVERIFY(m_panel->allSteps());
        TextCard* card = m_panel->card(kAlpha, kConfig);
        QVERIFY(card->allSteps());
        QVERIFY(!card->slider()->isVisible());
        const QString plain = card->document()->toPlainText();
        for (int step : { 0, 10, 20 }) {
            QVERIFY2(plain.contains(QStringLiteral("Step %1").arg(step)), qPrintable(plain));
            QVERIFY(hasHeading(card->document(), QStringLiteral("Run setup %1").arg(step), 1));
        }
        // Newest first.
        QVERIFY(plain.indexOf(QStringLiteral("Step 20")) < plain.indexOf(QStringLiteral("Step 0")));
        QCOMPARE(card->height(), TextPanel::kAllStepsCardHeight);
        // A list after a step heading is still a whole list.
        QTextDocument document;
        models::summary::TextSeries lists
            = series(kList,
                     { tensorText(1, { 2 }, { QStringLiteral("cat"), QStringLiteral("dog") }),
                       tensorText(2, { 2 }, { QStringLiteral("cow"), QStringLiteral("hen") }) });
        renderAllSteps(&document, lists);
        QStringList items;
        for (QTextBlock b = document.begin(); b.isValid(); b = b.next()) {
            if (b.textList())
                items << b.text();
        }
        QCOMPARE(items,
                 QStringList(
                     { QStringLiteral("cow"), QStringLiteral("hen"), QStringLiteral("cat"), QStringLiteral("dog") }));
        toggle->click();
        QVERIFY(!card->allSteps());
        QCOMPARE(card->height(), TextPanel::kCardHeight);
        QVERIFY(!card->document()->toPlainText().contains(QStringLiteral("Step 0")));
    }

    void visibleRunsAndLiveUpdates()
    {
        m_store->update(kBeta, QStringLiteral("beta/events"), configBatch(1));
        m_panel->flushPendingUpdates();
        QCOMPARE(m_panel->visibleCards().size(), 2);
        m_panel->setVisibleRuns({ kBeta });
        QCOMPARE(m_panel->visibleCards().size(), 1);
        QCOMPARE(m_panel->visibleCards().first()->run(), kBeta);
        m_panel->setVisibleRuns({});
        QCOMPARE(m_panel->sectionForTag(kConfig)->widgets().size(), 2);

        TextCard* card = m_panel->card(kAlpha, kConfig);
        m_store->update(kAlpha, QStringLiteral("alpha/events"), configBatch(4));
        m_panel->flushPendingUpdates();
        QCOMPARE(m_panel->card(kAlpha, kConfig), card);
        QCOMPARE(card->currentStep(), qint64(30));
        QVERIFY(hasHeading(card->document(), QStringLiteral("Run setup 30"), 1));
    }

    void textNamesNoResources()
    {
        // An image reference in a text must not read a local file.
        models::summary::SummaryBatch batch;
        batch.texts.push_back(
            series(QStringLiteral("notes"),
                   { text(0, QStringLiteral("![x](file:///etc/hostname) and <img src=\"/etc/passwd\">")) }));
        m_store->update(kAlpha, QStringLiteral("alpha/events"), batch);
        m_panel->flushPendingUpdates();
        TextCard* card = m_panel->card(kAlpha, QStringLiteral("notes"));
        QVERIFY(card);
        QVERIFY(!card->browser()
                     ->loadResource(QTextDocument::ImageResource, QUrl(QStringLiteral("file:///etc/hostname")))
                     .isValid());
        QVERIFY(!card->browser()
                     ->loadResource(QTextDocument::HtmlResource, QUrl::fromLocalFile(QStringLiteral("/etc/passwd")))
                     .isValid());
        card->grab(); // painting with the unresolved images does not crash
    }

    void jsonKeepsItsLines()
    {
        QTextDocument document;
        renderSummaryText(&document,
                          tensorText(0, { 1 }, { QStringLiteral("{\n \"kind\": \"cnn\",\n \"batch\": 32\n}") }));
        // One item of a rank-1 tensor is shown as the text itself, not as a one-bullet list.
        for (QTextBlock b = document.begin(); b.isValid(); b = b.next())
            QVERIFY(!b.textList());
        QStringList lines = document.toPlainText().split(QRegularExpression(QStringLiteral("[\\n\\x{2028}]")));
        lines.removeAll(QString());
        QCOMPARE(lines,
                 QStringList({ QStringLiteral("{"), QStringLiteral(" \"kind\": \"cnn\","),
                               QStringLiteral(" \"batch\": 32"), QStringLiteral("}") }));
        // Text that only starts like JSON stays Markdown.
        renderSummaryText(&document, text(0, QStringLiteral("{not json} **bold**")));
        QVERIFY(hasBold(&document, QStringLiteral("bold")));
    }

    void describesShapes()
    {
        QCOMPARE(describeTextShape(text(0, QStringLiteral("a"))), QStringLiteral("text"));
        QCOMPARE(describeTextShape(tensorText(0, { 2, 2, 2 }, QStringList(8, QStringLiteral("x")))),
                 QStringLiteral("2 × 2 × 2 table"));
        QTextDocument document;
        renderSummaryText(&document, tensorText(0, { 2, 2, 2 }, QStringList(8, QStringLiteral("x"))));
        QTextTable* table = firstTable(&document);
        QVERIFY(table);
        QCOMPARE(table->rows(), 4); // rows of the last dimension
        QCOMPARE(table->columns(), 2);
    }

    void screenshot()
    {
        models::summary::SummaryBatch batch;
        batch.texts.push_back(
            series(kTable,
                   { tensorText(5, { 2, 3 },
                                { QStringLiteral("class"), QStringLiteral("precision"), QStringLiteral("recall"),
                                  QStringLiteral("cat"), QStringLiteral("**0.91**"), QStringLiteral("0.88") }) }));
        m_store->update(kBeta, QStringLiteral("beta/events"), batch);
        m_panel->flushPendingUpdates();
        const QString out = qEnvironmentVariable("RUNLENS_SCREENSHOT_DIR");
        if (!out.isEmpty())
            m_panel->grab().save(QDir(out).filePath(QStringLiteral("textpanel.png")));
        QVERIFY(!m_panel->grab().isNull());
    }

private:
    std::unique_ptr<models::summary::SummaryStore> m_store;
    std::unique_ptr<TextPanel> m_panel;
};

QTEST_MAIN(TestTextPanel)
#include "tst_textpanel.moc"

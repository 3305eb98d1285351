#include "widgets/images/textrendering.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextList>
#include <QTextTable>
#include <QTextTableFormat>

#include <algorithm>

namespace runlens::widgets::images {

namespace {

// A table this large is cut: the document is built on the GUI thread.
constexpr int kMaxTableCells = 20000;

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::images)
};

// Inserts Markdown at the cursor. QTextCursor::insertMarkdown merges the first parsed block into the
// cursor's block and so drops a heading's level there; the level is put back.
void insertMarkdown(QTextCursor& cursor, const QString& markdown)
{
    QTextDocument part;
    // Configurations are often logged as JSON, whose line breaks Markdown would fold away: show it as code.
    const QString trimmed = markdown.trimmed();
    const bool json = (trimmed.startsWith(QLatin1Char('{')) || trimmed.startsWith(QLatin1Char('[')))
        && !QJsonDocument::fromJson(trimmed.toUtf8()).isNull();
    part.setMarkdown(json ? QStringLiteral("```\n") + trimmed + QStringLiteral("\n```\n") : markdown);
    const int headingLevel = part.begin().blockFormat().headingLevel();
    const int start = cursor.position();
    cursor.insertFragment(QTextDocumentFragment(&part));
    if (headingLevel > 0) {
        QTextCursor first(cursor.document());
        first.setPosition(start);
        QTextBlockFormat heading;
        heading.setHeadingLevel(headingLevel);
        first.mergeBlockFormat(heading);
    }
}

// A bulleted list with one Markdown item per entry, built block by block so that it is a list wherever the
// cursor is (a list parsed from Markdown loses its first item when inserted after other text).
void insertList(QTextCursor& cursor, const QStringList& items)
{
    QTextList* list = nullptr;
    for (qsizetype i = 0; i < items.size(); ++i) {
        if (i > 0)
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
        insertMarkdown(cursor, items.at(i));
        if (list)
            list->add(cursor.block());
        else
            list = cursor.createList(QTextListFormat::ListDisc);
    }
}

void appendTable(QTextCursor& cursor, const QStringList& cells, int rows, int columns)
{
    QTextTableFormat format;
    format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    format.setBorderCollapse(true);
    format.setBorder(1);
    format.setCellPadding(4);
    format.setCellSpacing(0);
    format.setHeaderRowCount(0);
    QTextTable* table = cursor.insertTable(rows, columns, format);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < columns; ++c) {
            const qsizetype i = qsizetype(r) * columns + c;
            if (i >= cells.size())
                break;
            QTextCursor cellCursor = table->cellAt(r, c).firstCursorPosition();
            insertMarkdown(cellCursor, cells.at(i));
        }
    }
    cursor = table->lastCursorPosition();
    cursor.movePosition(QTextCursor::NextBlock);
}

} // namespace

void appendSummaryText(QTextCursor& cursor, const models::summary::SummaryText& text)
{
    const std::vector<qint64>& shape = text.shape;
    if (shape.empty()) {
        insertMarkdown(cursor, text.cells.value(0));
        return;
    }
    if (shape.size() == 1 && text.cells.size() == 1) {
        insertMarkdown(cursor, text.cells.first()); // a list of one reads as the text itself
        return;
    }
    if (shape.size() == 1) {
        insertList(cursor, text.cells);
        return;
    }
    const qint64 columns = std::max<qint64>(1, shape.back());
    if (columns > kMaxTableCells) {
        insertList(cursor, text.cells.mid(0, kMaxTableCells));
        return;
    }
    qint64 rows = (text.cells.size() + columns - 1) / columns;
    QString note;
    if (rows * columns > kMaxTableCells) {
        rows = std::max<qint64>(1, kMaxTableCells / columns);
        note = Text::tr("Only the first %n rows are shown.", nullptr, int(rows));
    }
    if (shape.size() > 2)
        note = Text::tr("A rank-%1 text tensor, shown as rows of its last dimension.").arg(shape.size())
            + QLatin1Char(' ') + note;
    if (!note.isEmpty()) {
        QTextCharFormat muted;
        muted.setFontItalic(true);
        cursor.insertText(note.trimmed(), muted);
        cursor.insertBlock();
    }
    if (text.cells.isEmpty()) {
        cursor.insertText(Text::tr("(empty)"));
        return;
    }
    appendTable(cursor, text.cells, int(rows), int(columns));
}

void renderSummaryText(QTextDocument* document, const models::summary::SummaryText& text)
{
    document->clear();
    QTextCursor cursor(document);
    appendSummaryText(cursor, text);
}

void renderAllSteps(QTextDocument* document, const models::summary::TextSeries& series)
{
    document->clear();
    QTextCursor cursor(document);
    bool first = true;
    for (auto it = series.items.rbegin(); it != series.items.rend(); ++it) {
        if (!first)
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
        first = false;
        QTextBlockFormat heading;
        heading.setHeadingLevel(3);
        heading.setTopMargin(6);
        heading.setBottomMargin(4);
        QTextCharFormat headingChars;
        headingChars.setFontWeight(QFont::DemiBold);
        headingChars.setFontPointSize(document->defaultFont().pointSizeF() * 1.15);
        cursor.setBlockFormat(heading);
        QString title = Text::tr("Step %1").arg(it->step);
        if (it->wallTime > 0) {
            title += QStringLiteral("  ·  ")
                + QDateTime::fromMSecsSinceEpoch(qint64(it->wallTime * 1000.0))
                      .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        }
        cursor.insertText(title, headingChars);
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat());
        appendSummaryText(cursor, *it);
        cursor.movePosition(QTextCursor::End);
    }
}

QString describeTextShape(const models::summary::SummaryText& text)
{
    if (text.shape.empty())
        return Text::tr("text");
    if (text.shape.size() == 1)
        return Text::tr("list of %n", nullptr, int(text.cells.size()));
    QStringList dims;
    for (qint64 d : text.shape)
        dims << QString::number(d);
    return Text::tr("%1 table").arg(dims.join(QStringLiteral(" × ")));
}

} // namespace runlens::widgets::images

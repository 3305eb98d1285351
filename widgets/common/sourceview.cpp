#include "widgets/common/sourceview.h"

#include <QFile>
#include <QFontDatabase>
#include <QPainter>
#include <QTextBlock>

namespace runlens::widgets {

class SourceView::Gutter final : public QWidget
{
public:
    explicit Gutter(SourceView* view)
        : QWidget(view)
        , m_view(view)
    { }
    QSize sizeHint() const override { return { m_view->gutterWidth(), 0 }; }

protected:
    void paintEvent(QPaintEvent* event) override { m_view->paintGutter(event); }

private:
    SourceView* m_view;
};

SourceView::SourceView(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy != 0)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int SourceView::gutterWidth() const
{
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10)
        ++digits;
    return 12 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

bool SourceView::openFile(const QString& path, int line)
{
    m_path = path;
    m_line = 0;
    QFile file(path);
    QString problem;
    if (!file.open(QIODevice::ReadOnly))
        problem = tr("Cannot open %1: %2").arg(path, file.errorString());
    else if (file.size() > kMaxBytes)
        problem = tr("%1 is %2 MiB, too large to show here.").arg(path).arg(file.size() >> 20);
    if (!problem.isEmpty()) {
        setPlainText(problem);
        setExtraSelections({});
        return false;
    }
    setPlainText(QString::fromUtf8(file.readAll()));
    m_line = line > 0 && line <= blockCount() ? line : 0;
    highlightLine();
    return true;
}

void SourceView::highlightLine()
{
    if (m_line <= 0) {
        setExtraSelections({});
        return;
    }
    const QTextBlock block = document()->findBlockByNumber(m_line - 1);
    QTextEdit::ExtraSelection selection;
    selection.format.setBackground(palette().color(QPalette::Highlight).lighter(170));
    selection.format.setProperty(QTextFormat::FullWidthSelection, true);
    selection.cursor = QTextCursor(block);
    setExtraSelections({ selection });
    setTextCursor(selection.cursor);
    centerCursor();
}

void SourceView::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect area = contentsRect();
    m_gutter->setGeometry(area.left(), area.top(), gutterWidth(), area.height());
}

void SourceView::paintGutter(QPaintEvent* event)
{
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int height = fontMetrics().height();
    while (block.isValid() && top <= event->rect().bottom()) {
        const int number = block.blockNumber() + 1;
        if (block.isVisible() && top + height >= event->rect().top()) {
            QFont font = painter.font();
            font.setBold(number == m_line);
            painter.setFont(font);
            painter.setPen(palette().color(number == m_line ? QPalette::Text : QPalette::PlaceholderText));
            painter.drawText(0, top, m_gutter->width() - 6, height, Qt::AlignRight, QString::number(number));
        }
        top += qRound(blockBoundingRect(block).height());
        block = block.next();
    }
}

} // namespace runlens::widgets

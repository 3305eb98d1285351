#include "widgets/images/textcard.h"

#include "widgets/images/cardparts.h"
#include "widgets/images/textrendering.h"

#include <QDesktopServices>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSlider>
#include <QVBoxLayout>

namespace runlens::widgets::images {

SummaryTextBrowser::SummaryTextBrowser(QWidget* parent)
    : QTextBrowser(parent)
{
    setOpenLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, [](const QUrl& url) {
        if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"))
            QDesktopServices::openUrl(url);
    });
}

QVariant SummaryTextBrowser::loadResource(int type, const QUrl& name)
{
    // A text in a run folder must not make us read files or fetch anything; images it names stay empty.
    Q_UNUSED(type)
    Q_UNUSED(name)
    return {};
}

TextCard::TextCard(const QString& run, const QString& tag, const QColor& runColor, QWidget* parent)
    : QWidget(parent)
    , m_run(run)
    , m_tag(tag)
    , m_runColor(runColor)
{
    setObjectName(QStringLiteral("textCard:%1:%2").arg(run, tag));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    auto* header = makeCardHeader(this, run, tag, tr("Run %1, text tag %2").arg(run, tag), &m_colorChip);
    m_colorChip->setPixmap(runColorChip(runColor));

    m_slider = makeStepSlider(this,
                              tr("Choose the step to show (only steps with a text are on the slider; arrow "
                                 "keys move one step)"));
    connect(m_slider, &QSlider::valueChanged, this, [this] { render(); });
    m_stepLabel = new QLabel(this);
    m_stepLabel->setObjectName(QStringLiteral("stepLabel"));
    m_stepLabel->setMinimumWidth(m_stepLabel->fontMetrics().horizontalAdvance(QStringLiteral("step 000000 · 000/000")));
    auto* stepRow = new QHBoxLayout;
    stepRow->setSpacing(6);
    stepRow->addWidget(m_slider, 1);
    stepRow->addWidget(m_stepLabel);

    m_browser = new SummaryTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("textView"));
    m_browser->setFrameShape(QFrame::NoFrame);
    m_browser->setToolTip(tr("The text as recorded, rendered as Markdown"));
    m_browser->document()->setDocumentMargin(6);

    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("status"));
    m_statusLabel->setForegroundRole(QPalette::PlaceholderText);
    m_statusLabel->setMinimumWidth(20);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 6);
    layout->setSpacing(4);
    layout->addLayout(header);
    layout->addLayout(stepRow);
    layout->addWidget(m_browser, 1);
    layout->addWidget(m_statusLabel);
    render();
}

void TextCard::setRunLabel(const QString& label)
{
    setCardHeaderRun(this, label, tr("Run %1, text tag %2").arg(label, m_tag));
}

void TextCard::setRunColor(const QColor& color)
{
    if (color == m_runColor)
        return;
    m_runColor = color;
    m_colorChip->setPixmap(runColorChip(color));
}

void TextCard::setSeries(const models::summary::TextSeries& series)
{
    const int index = indexAfterUpdate(series.items, int(m_series.items.size()), m_slider->value(), currentStep());
    m_series = series;
    resetStepSlider(m_slider, int(m_series.items.size()), index);
    render();
}

void TextCard::setAllSteps(bool allSteps)
{
    if (allSteps == m_allSteps)
        return;
    m_allSteps = allSteps;
    render();
}

int TextCard::currentIndex() const
{
    return m_series.items.empty() ? -1 : m_slider->value();
}

void TextCard::setCurrentIndex(int index)
{
    m_slider->setValue(index);
}

qint64 TextCard::currentStep() const
{
    return stepAtIndex(m_series.items, currentIndex());
}

QTextDocument* TextCard::document() const
{
    return m_browser->document();
}

QString TextCard::statusText() const
{
    return m_statusLabel->text();
}

void TextCard::render()
{
    const int index = currentIndex();
    const int count = int(m_series.items.size());
    m_slider->setVisible(!m_allSteps);
    // Keep the reader's place when the same view is rendered again with more data.
    const int scroll = m_browser->verticalScrollBar()->value();
    if (index < 0) {
        m_browser->clear();
        m_stepLabel->setText(tr("no text"));
        m_statusLabel->clear();
        return;
    }
    if (m_allSteps) {
        renderAllSteps(m_browser->document(), m_series);
        m_browser->moveCursor(QTextCursor::Start);
        m_stepLabel->setText(tr("%n step(s), newest first", nullptr, count));
        m_statusLabel->setText(m_series.preempted > 0 || m_series.seen > count
                                   ? tr("%1 of %2 recorded texts kept").arg(count).arg(m_series.seen)
                                   : QString());
        m_browser->verticalScrollBar()->setValue(scroll);
        return;
    }
    const models::summary::SummaryText& text = m_series.items.at(size_t(index));
    renderSummaryText(m_browser->document(), text);
    m_browser->moveCursor(QTextCursor::Start); // read from the top, not where the text was built
    m_stepLabel->setText(tr("step %1 · %2/%3").arg(text.step).arg(index + 1).arg(count));
    m_statusLabel->setText(describeTextShape(text));
}

void TextCard::paintEvent(QPaintEvent* event)
{
    Q_UNUSED(event)
    paintCardFrame(this);
}

} // namespace runlens::widgets::images

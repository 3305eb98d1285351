#include "widgets/timeline/timelinesearchbar.h"

#include "models/core/workerpool.h"
#include "models/trace/tracestore.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

namespace runlens::widgets::timeline {

TimelineSearchBar::TimelineSearchBar(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 6, 3);
    layout->setSpacing(4);
    m_edit = new QLineEdit(this);
    m_edit->setPlaceholderText(tr("Search slices by name (regular expression)"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setToolTip(tr("Enter: next match, Shift+Enter: previous match"));
    m_previous = new QToolButton(this);
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setToolTip(tr("Previous match"));
    m_next = new QToolButton(this);
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next match"));
    m_count = new QLabel(this);
    m_count->setMinimumWidth(90);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addWidget(m_count);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_debounce, &QTimer::timeout, this, &TimelineSearchBar::startSearch);
    connect(m_edit, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_edit, &QLineEdit::returnPressed, this, [this] {
        if (m_debounce->isActive()) {
            m_debounce->stop();
            startSearch();
        }
        if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)
            previous();
        else
            next();
    });
    connect(m_previous, &QToolButton::clicked, this, &TimelineSearchBar::previous);
    connect(m_next, &QToolButton::clicked, this, &TimelineSearchBar::next);

    m_watcher = new QFutureWatcher<std::vector<TimelineMatch>>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
        if (!m_watcher->isCanceled() && m_watcher->future().resultCount() > 0)
            setMatches(m_watcher->result());
    });
    updateCount();
}

TimelineSearchBar::~TimelineSearchBar()
{
    if (m_cancel)
        m_cancel->store(true);
    m_watcher->waitForFinished();
}

void TimelineSearchBar::setStore(std::shared_ptr<const models::trace::TraceStore> store)
{
    m_store = std::move(store);
    startSearch();
}

void TimelineSearchBar::setPattern(const QString& pattern)
{
    m_debounce->stop();
    const QSignalBlocker block(m_edit);
    m_edit->setText(pattern);
    startSearch();
}

QString TimelineSearchBar::pattern() const
{
    return m_edit->text();
}

bool TimelineSearchBar::isSearching() const
{
    return m_watcher->isRunning();
}

void TimelineSearchBar::startSearch()
{
    if (m_cancel)
        m_cancel->store(true);
    m_cancel.reset();
    m_invalid = false;
    const QString text = m_edit->text();
    const QRegularExpression expression(text, QRegularExpression::CaseInsensitiveOption);
    if (!expression.isValid()) {
        m_invalid = true;
        m_edit->setToolTip(tr("Invalid regular expression: %1").arg(expression.errorString()));
        setMatches({});
        return;
    }
    m_edit->setToolTip(tr("Enter: next match, Shift+Enter: previous match"));
    if (!m_store || text.isEmpty()) {
        setMatches({});
        return;
    }
    if (m_store->eventCount() <= kSyncLimit) {
        setMatches(findTimelineMatches(*m_store, expression));
        return;
    }
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancel;
    m_matches.clear();
    m_current = -1;
    m_count->setText(tr("searching…"));
    m_watcher->setFuture(QtConcurrent::run(models::workerPool(), [store = m_store, expression, cancel] {
        return findTimelineMatches(*store, expression, cancel.get());
    }));
}

void TimelineSearchBar::setMatches(std::vector<TimelineMatch> matches)
{
    m_matches = std::move(matches);
    m_current = -1;
    updateCount();
    emit searchFinished(int(m_matches.size()));
}

void TimelineSearchBar::activate(int current)
{
    if (m_matches.empty())
        return;
    m_current = current;
    updateCount();
    const TimelineMatch& m = m_matches[std::size_t(current)];
    emit matchActivated(m.track, qint64(m.index));
}

void TimelineSearchBar::next()
{
    if (m_matches.empty())
        return;
    activate(m_current < 0 ? 0 : (m_current + 1) % int(m_matches.size()));
}

void TimelineSearchBar::previous()
{
    if (m_matches.empty())
        return;
    const int n = int(m_matches.size());
    activate(m_current <= 0 ? n - 1 : m_current - 1);
}

void TimelineSearchBar::updateCount()
{
    const bool any = !m_matches.empty();
    m_previous->setEnabled(any);
    m_next->setEnabled(any);
    QPalette palette = m_edit->palette();
    palette.setColor(QPalette::Text, m_invalid ? QColor(0xc0392b) : QColor(0x202124));
    m_edit->setPalette(palette);
    if (m_invalid)
        m_count->setText(tr("invalid pattern"));
    else if (m_edit->text().isEmpty())
        m_count->clear();
    else if (!any)
        m_count->setText(tr("no matches"));
    else if (m_current < 0)
        m_count->setText(m_matches.size() == 1 ? tr("1 match") : tr("%1 matches").arg(m_matches.size()));
    else
        m_count->setText(tr("%1 of %2").arg(m_current + 1).arg(m_matches.size()));
}

} // namespace runlens::widgets::timeline

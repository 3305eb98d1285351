#include "widgets/images/summarycardspanel.h"

#include "widgets/common/cardgrid.h"
#include "widgets/common/chartcolumn.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/panelheader.h"
#include "widgets/scalars/chartsection.h"

#include <QEvent>
#include <QFrame>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace runlens::widgets::images {

namespace {

constexpr int kContentMargin = 12;
constexpr int kMaxColumns = 4;

} // namespace

SummaryCardsPanel::SummaryCardsPanel(models::summary::SummaryStore* store, models::summary::SummaryKind kind,
                                     QWidget* parent)
    : QWidget(parent)
    , m_store(store)
    , m_kind(kind)
{
    m_updateTimer = new QTimer(this);
    m_updateTimer->setSingleShot(true);
    m_updateTimer->setInterval(kUpdateDelayMs);
    connect(m_updateTimer, &QTimer::timeout, this, &SummaryCardsPanel::flushPendingUpdates);

    m_toolbar = new PanelHeader(this);
    m_toolbar->setObjectName(QStringLiteral("toolbar"));
    m_toolbar->enableOverflowMenu();
    m_filterEdit = m_toolbar->addFilter(QStringLiteral("tagFilter"), tr("Filter tags (regular expression)"));
    m_filterEdit->setToolTip(tr("Show only tags matching this regular expression (case-insensitive)"));
    connect(m_filterEdit, &QLineEdit::textChanged, this, &SummaryCardsPanel::onFilterTextChanged);

    const ChartColumn column = createChartColumn(this, this, kContentMargin);
    m_scroll = column.scroll;
    m_content = column.content;
    m_sectionLayout = column.layout;
    m_emptyLabel = column.emptyLabel;
    m_sectionLayout->addStretch(1);
}

SummaryCardsPanel::~SummaryCardsPanel() = default;

void SummaryCardsPanel::addToolbarWidget(QWidget* widget)
{
    widget->setParent(m_toolbar);
    m_toolbar->addWidget(widget);
}

void SummaryCardsPanel::initialize()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    // The tag count comes after the widgets the panel added, at the row's right end.
    m_summaryLabel = m_toolbar->addSummary(QStringLiteral("summary"), PanelHeader::TextMode::SingleLine);
    m_summaryLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_summaryLabel->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_toolbar);
    layout->addWidget(PanelHeader::createRule(this));
    layout->addWidget(m_scroll, 1);
    setStore(m_store);
}

void SummaryCardsPanel::setStore(models::summary::SummaryStore* store)
{
    if (m_store)
        disconnect(m_store, nullptr, this, nullptr);
    m_store = store;
    // Cards read the store they were made for: start over.
    for (QWidget* card : std::as_const(m_cards))
        delete card;
    m_cards.clear();
    m_pendingCards.clear();
    if (m_store) {
        connect(m_store, &models::summary::SummaryStore::seriesChanged, this, &SummaryCardsPanel::onSeriesChanged);
        connect(m_store, &models::summary::SummaryStore::structureChanged, this,
                &SummaryCardsPanel::onStructureChanged);
        connect(m_store, &models::summary::SummaryStore::cleared, this, &SummaryCardsPanel::onStructureChanged);
        connect(m_store, &QObject::destroyed, this, [this] { setStore(nullptr); });
    }
    rebuild();
}

void SummaryCardsPanel::onSeriesChanged(models::summary::SummaryKind kind, const QString& run, const QStringList& tags)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (kind != m_kind)
        return;
    for (const QString& tag : tags)
        m_pendingCards.insert(cardKey(run, tag));
    if (!m_updateTimer->isActive())
        m_updateTimer->start();
}

void SummaryCardsPanel::onStructureChanged()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_structurePending = true;
    if (!m_updateTimer->isActive())
        m_updateTimer->start();
}

void SummaryCardsPanel::flushPendingUpdates()
{
    m_updateTimer->stop();
    QSet<QString> fresh;
    if (m_structurePending) {
        m_structurePending = false;
        const QList<QString> before = m_cards.keys();
        rebuild();
        for (auto it = m_cards.cbegin(); it != m_cards.cend(); ++it) {
            if (!before.contains(it.key()))
                fresh.insert(it.key()); // created from the latest data
        }
    }
    for (const QString& key : std::as_const(m_pendingCards)) {
        QWidget* card = m_cards.value(key);
        if (!card || fresh.contains(key))
            continue;
        const qsizetype newline = key.indexOf(QLatin1Char('\n'));
        refreshCard(card, key.left(newline), key.mid(newline + 1));
    }
    m_pendingCards.clear();
}

void SummaryCardsPanel::rebuild()
{
    QMap<QString, QStringList> runsByTag;
    if (m_store) {
        for (const QString& run : m_store->runs(m_kind)) {
            for (const QString& tag : m_store->tags(m_kind, run))
                runsByTag[tag].append(run);
        }
    }
    // Cards and sections that are gone.
    auto runAndTag = [](const QString& key) {
        const qsizetype newline = key.indexOf(QLatin1Char('\n'));
        return std::pair(key.left(newline), key.mid(newline + 1));
    };
    scalars::retireCards(
        m_cards,
        [&](const QString& key) {
            const auto [run, tag] = runAndTag(key);
            return runsByTag.value(tag).contains(run);
        },
        [&](const QString& key) { return m_sections.value(runAndTag(key).second); });
    scalars::retireSections(m_sections, m_sectionLayout, [&](const QString& tag) { return runsByTag.contains(tag); });
    // New sections and cards; existing cards take the run colours of the new set of runs.
    for (auto it = runsByTag.cbegin(); it != runsByTag.cend(); ++it) {
        if (!m_sections.contains(it.key())) {
            auto* section = new scalars::ChartSection(it.key(), m_content);
            section->setObjectName(QStringLiteral("section:") + it.key());
            section->setColumns(m_columns, cardHeight());
            m_sections.insert(it.key(), section);
        }
        for (const QString& run : it.value()) {
            const QString key = cardKey(run, it.key());
            if (!m_cards.contains(key))
                m_cards.insert(key, createCard(run, it.key()));
        }
    }
    for (scalars::ChartSection* section : std::as_const(m_sections))
        m_sectionLayout->removeWidget(section);
    int position = 1; // after the empty-state label
    for (scalars::ChartSection* section : std::as_const(m_sections))
        m_sectionLayout->insertWidget(position++, section);
    m_runsByTag = runsByTag;
    applyFilter();
}

QColor SummaryCardsPanel::colorOfRun(const QString& run) const
{
    const QStringList runs = m_store ? m_store->runs() : QStringList();
    return runColor(std::max(0, int(runs.indexOf(run))));
}

bool SummaryCardsPanel::isRunShown(const QString& run) const
{
    return m_visibleRuns.isEmpty() || m_visibleRuns.contains(run);
}

void SummaryCardsPanel::setVisibleRuns(const QStringList& runs)
{
    if (runs == m_visibleRuns)
        return;
    m_visibleRuns = runs;
    applyFilter();
}

void SummaryCardsPanel::onFilterTextChanged(const QString& text)
{
    const QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
    m_filterValid = re.isValid();
    QPalette pal = m_filterEdit->palette();
    if (m_filterValid) {
        m_filter = re;
        m_filterEdit->setPalette(QPalette());
        m_filterEdit->setToolTip(tr("Show only tags matching this regular expression (case-insensitive)"));
        applyFilter();
        return;
    }
    pal.setColor(QPalette::Text, alertColor());
    m_filterEdit->setPalette(pal);
    m_filterEdit->setToolTip(
        tr("Invalid regular expression: %1 (at character %2). The previous filter stays in effect.")
            .arg(re.errorString())
            .arg(re.patternErrorOffset() + 1));
}

void SummaryCardsPanel::setTagFilter(const QString& pattern)
{
    if (m_filterEdit->text() == pattern)
        onFilterTextChanged(pattern);
    else
        m_filterEdit->setText(pattern);
}

QString SummaryCardsPanel::tagFilter() const
{
    return m_filterEdit->text();
}

void SummaryCardsPanel::applyFilter()
{
    const bool filtering = !m_filter.pattern().isEmpty();
    for (auto it = m_sections.cbegin(); it != m_sections.cend(); ++it) {
        const QString& tag = it.key();
        scalars::ChartSection* section = it.value();
        const QStringList runs = m_runsByTag.value(tag);
        QList<QWidget*> widgets;
        if (!filtering || m_filter.match(tag).hasMatch()) {
            for (const QString& run : runs) {
                if (isRunShown(run))
                    widgets << m_cards.value(cardKey(run, tag));
            }
        }
        section->setWidgets(widgets);
        section->setCount(int(widgets.size()), int(runs.size()));
        section->setVisible(!widgets.isEmpty());
    }
    updateEmptyState();
}

void SummaryCardsPanel::relayoutCards()
{
    for (scalars::ChartSection* section : std::as_const(m_sections)) {
        section->setColumns(m_columns, cardHeight());
        // A new height for the same columns needs the cards placed again.
        const QList<QWidget*> widgets = section->widgets();
        section->setWidgets({});
        section->setWidgets(widgets);
    }
}

QStringList SummaryCardsPanel::visibleTags() const
{
    QStringList out;
    for (auto it = m_sections.cbegin(); it != m_sections.cend(); ++it) {
        if (!it.value()->widgets().isEmpty())
            out << it.key();
    }
    return out;
}

QWidget* SummaryCardsPanel::cardWidget(const QString& run, const QString& tag) const
{
    return m_cards.value(cardKey(run, tag));
}

QList<QWidget*> SummaryCardsPanel::visibleCardWidgets() const
{
    QList<QWidget*> out;
    for (scalars::ChartSection* section : std::as_const(m_sections))
        out << section->widgets();
    return out;
}

QList<QWidget*> SummaryCardsPanel::allCardWidgets() const
{
    return m_cards.values();
}

QString SummaryCardsPanel::emptyStateText() const
{
    return m_emptyLabel->isHidden() ? QString() : m_emptyLabel->text();
}

void SummaryCardsPanel::updateEmptyState()
{
    const QStringList shown = visibleTags();
    const int tagCount = int(m_runsByTag.size());
    QString message;
    if (m_runsByTag.isEmpty())
        message = noDataText();
    else if (shown.isEmpty() && !m_filter.pattern().isEmpty())
        message = tr("<p><b>No tag matches \"%1\"</b></p><p>Change or clear the filter to see the other %n tag(s).</p>",
                     nullptr, tagCount)
                      .arg(m_filter.pattern().toHtmlEscaped());
    else if (shown.isEmpty())
        message = tr("<p><b>None of the chosen runs has these tags</b></p><p>Choose other runs in Compare runs, "
                     "or clear the selection there to see every run.</p>");
    m_emptyLabel->setText(message);
    m_emptyLabel->setHidden(message.isEmpty());
    m_summaryLabel->setText(m_runsByTag.isEmpty() ? QString() : tr("%1 of %2 tags").arg(shown.size()).arg(tagCount));
}

void SummaryCardsPanel::updateColumns()
{
    const int available = m_scroll->viewport()->width() - 2 * kContentMargin;
    if (available <= 0)
        return;
    CardGridSpec spec;
    spec.minCardWidth = minimumCardWidth();
    spec.maxColumns = kMaxColumns;
    const int columns = cardGridGeometry(spec, available).columns;
    if (columns == m_columns)
        return;
    m_columns = columns;
    for (scalars::ChartSection* section : std::as_const(m_sections))
        section->setColumns(columns, cardHeight());
}

bool SummaryCardsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_scroll->viewport() && event->type() == QEvent::Resize)
        updateColumns();
    return QWidget::eventFilter(watched, event);
}

} // namespace runlens::widgets::images

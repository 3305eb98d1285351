#include "widgets/timeline/timelinepanel.h"

#include "models/trace/tracestore.h"
#include "widgets/timeline/timelinedetails.h"
#include "widgets/timeline/timelinesearchbar.h"
#include "widgets/timeline/timelineview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCryptographicHash>
#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace runlens::widgets::timeline {

namespace {
constexpr auto kColorByKey = "timeline/colorByCategory";
constexpr auto kFlowsKey = "timeline/showFlows";
constexpr int kSaveDelayMs = 500;

/// A process across loads of the same file: its source and pid (indices may change with the importer).
QString processId(const models::trace::TraceStore& store, int process)
{
    const models::trace::Process& p = store.processes()[std::size_t(process)];
    return QStringLiteral("%1:%2").arg(p.source).arg(p.pid);
}
} // namespace

TimelinePanel::TimelinePanel(models::TimeRangeModel* range, QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("TimelinePanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto* bar = new QWidget(this);
    auto* barLayout = new QHBoxLayout(bar);
    barLayout->setContentsMargins(0, 0, 6, 0);
    barLayout->setSpacing(4);
    m_search = new TimelineSearchBar(bar);
    barLayout->addWidget(m_search, 1);
    m_readingNote = new QLabel(bar);
    m_readingNote->setObjectName(QStringLiteral("readingNote"));
    m_readingNote->setToolTip(tr("The timeline shows what has been read so far; the whole trace replaces it when "
                                 "reading ends"));
    m_readingNote->hide();
    barLayout->addWidget(m_readingNote);
    auto* colorLabel = new QLabel(tr("Colour by"), bar);
    m_colorBy = new QComboBox(bar);
    m_colorBy->addItem(tr("Name"));
    m_colorBy->addItem(tr("Category"));
    colorLabel->setBuddy(m_colorBy);
    barLayout->addWidget(colorLabel);
    barLayout->addWidget(m_colorBy);
    m_flows = new QCheckBox(tr("Flows"), bar);
    m_flows->setToolTip(tr("Show the flow arrows of the selected slice"));
    barLayout->addWidget(m_flows);
    layout->addWidget(bar);
    {
        const QSettings settings;
        m_colorBy->setCurrentIndex(settings.value(QLatin1String(kColorByKey), false).toBool() ? 1 : 0);
        m_flows->setChecked(settings.value(QLatin1String(kFlowsKey), true).toBool());
    }
    m_saveTimer = new QTimer(this);
    m_saveTimer->setSingleShot(true);
    m_saveTimer->setInterval(kSaveDelayMs);
    connect(m_saveTimer, &QTimer::timeout, this, &TimelinePanel::saveTraceSettings);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_view = new TimelineView(range, m_splitter);
    m_details = new TimelineDetails(m_splitter);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(m_details);
    m_splitter->setStretchFactor(0, 4);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({ 480, 160 });
    layout->addWidget(m_splitter, 1);

    m_view->setColorByCategory(m_colorBy->currentIndex() == 1);
    m_view->setFlowsShown(m_flows->isChecked());
    connect(m_colorBy, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_view->setColorByCategory(index == 1);
        saveViewSettings();
    });
    connect(m_flows, &QCheckBox::toggled, this, [this](bool shown) {
        m_view->setFlowsShown(shown);
        saveViewSettings();
    });
    connect(m_search, &TimelineSearchBar::searchFinished, this, [this] { m_view->setHighlight(m_search->matches()); });
    connect(m_view, &TimelineView::highlightCleared, this, [this] { m_search->setPattern({}); });
    connect(m_view, &TimelineView::collapsedProcessesChanged, this, [this] {
        if (!m_restoring)
            m_saveTimer->start();
    });
    connect(m_view, &TimelineView::sliceSelected, this, [this](int track, qint64 index) {
        m_details->showSlice(track, index);
        emit sliceSelected(track, index);
    });
    connect(m_view, &TimelineView::selectionRangeChanged, this, &TimelinePanel::selectionRangeChanged);
    connect(m_details, &TimelineDetails::jumpToSlice, this,
            [this](int track, qint64 index) { m_view->selectSlice(track, index, true); });
    connect(m_search, &TimelineSearchBar::matchActivated, this,
            [this](int track, qint64 index) { m_view->selectSlice(track, index, true); });
    connectRange();
}

TimelinePanel::~TimelinePanel()
{
    if (m_saveTimer->isActive())
        saveTraceSettings();
}

void TimelinePanel::setStore(std::shared_ptr<const models::trace::TraceStore> store)
{
    if (m_saveTimer->isActive()) {
        m_saveTimer->stop();
        saveTraceSettings();
    }
    m_store = std::move(store);
    m_partial.reset();
    m_readingNote->hide();
    m_settingsKey = m_store ? settingsKey(*m_store) : QString();
    m_view->setStore(m_store);
    m_details->setStore(m_store);
    m_search->setStore(m_store);
    restoreTraceSettings();
}

void TimelinePanel::showPartialStore(std::shared_ptr<const models::trace::TraceStore> partial, int permille)
{
    if (!partial && !m_partial)
        return; // progress of a read whose partial store is not shown
    m_readingNote->setText(tr("Reading… %1 %").arg(std::clamp(permille, 0, 1000) / 10));
    m_readingNote->show();
    if (!partial || partial == m_partial)
        return;
    if (!m_partial) {
        // Leaving a complete store: its per-file state is written now, and none is kept for partial ones
        // (their range and collapsed groups belong to the whole trace that follows).
        if (m_saveTimer->isActive()) {
            m_saveTimer->stop();
            saveTraceSettings();
        }
        m_store.reset();
        m_settingsKey.clear();
        m_details->setStore(nullptr);
        m_search->setStore(nullptr);
    }
    m_partial = std::move(partial);
    m_view->setStore(m_partial);
}

void TimelinePanel::highlightOperator(const QString& name)
{
    m_search->setPattern(name.isEmpty() ? QString()
                                        : QLatin1Char('^') + QRegularExpression::escape(name) + QLatin1Char('$'));
}

QString TimelinePanel::settingsKey(const models::trace::TraceStore& store)
{
    QStringList paths;
    for (const models::trace::TraceSource& source : store.sources()) {
        if (!source.path.isEmpty())
            paths << source.path;
    }
    if (paths.isEmpty())
        return {};
    paths.sort();
    // Paths hold separators QSettings would read as groups: key by a digest instead.
    const QByteArray digest
        = QCryptographicHash::hash(paths.join(QLatin1Char('\n')).toUtf8(), QCryptographicHash::Sha1);
    return QStringLiteral("timeline/files/") + QString::fromLatin1(digest.toHex().left(20));
}

void TimelinePanel::saveViewSettings() const
{
    QSettings settings;
    settings.setValue(QLatin1String(kColorByKey), m_colorBy->currentIndex() == 1);
    settings.setValue(QLatin1String(kFlowsKey), m_flows->isChecked());
}

void TimelinePanel::saveTraceSettings() const
{
    if (!m_store || m_settingsKey.isEmpty())
        return;
    QSettings settings;
    settings.beginGroup(m_settingsKey);
    QStringList collapsed;
    for (int process : m_view->collapsedProcesses()) {
        if (process >= 0 && std::size_t(process) < m_store->processes().size())
            collapsed << processId(*m_store, process);
    }
    collapsed.sort();
    if (collapsed.isEmpty())
        settings.remove(QStringLiteral("collapsed"));
    else
        settings.setValue(QStringLiteral("collapsed"), collapsed);
    const models::TimeSpan v = m_view->visibleRange();
    settings.setValue(QStringLiteral("visible"), QVariantList { qint64(v.start), qint64(v.end) });
}

void TimelinePanel::restoreTraceSettings()
{
    if (!m_store || m_settingsKey.isEmpty())
        return;
    m_restoring = true;
    QSettings settings;
    settings.beginGroup(m_settingsKey);
    const QStringList collapsed = settings.value(QStringLiteral("collapsed")).toStringList();
    for (std::size_t p = 0; p < m_store->processes().size(); ++p) {
        if (collapsed.contains(processId(*m_store, int(p))))
            m_view->setProcessCollapsed(int(p), true);
    }
    const QVariantList visible = settings.value(QStringLiteral("visible")).toList();
    if (visible.size() == 2) {
        const qint64 start = visible[0].toLongLong();
        const qint64 end = visible[1].toLongLong();
        // Only a range inside this trace: the file may have changed since.
        if (start < end && start >= m_store->startTime()
            && end <= std::max(m_store->endTime(), m_store->startTime() + 1))
            m_view->timeRangeModel()->setVisibleRange(start, end);
    }
    m_restoring = false;
}

void TimelinePanel::setTimeRangeModel(models::TimeRangeModel* range)
{
    m_view->setTimeRangeModel(range);
    connectRange();
}

models::TimeRangeModel* TimelinePanel::timeRangeModel() const
{
    return m_view->timeRangeModel();
}

void TimelinePanel::connectRange()
{
    disconnect(m_visibleConnection);
    m_visibleConnection = connect(m_view->timeRangeModel(), &models::TimeRangeModel::visibleRangeChanged, this,
                                  [this](qint64 start, qint64 end) {
                                      if (!m_restoring && m_store)
                                          m_saveTimer->start();
                                      emit visibleRangeChanged(start, end);
                                  });
}

} // namespace runlens::widgets::timeline

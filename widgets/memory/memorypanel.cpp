#include "widgets/memory/memorypanel.h"

#include "models/core/timerange.h"
#include "models/core/workerpool.h"
#include "models/memory/memoryoptablemodel.h"
#include "models/trace/tracestore.h"
#include "widgets/common/chartstyle.h"
#include "widgets/common/panelheader.h"
#include "widgets/memory/memoryaxis.h"
#include "widgets/memory/memorychart.h"
#include "widgets/memory/memorylifetimeview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <qcustomplot.h>

#include <algorithm>
#include <limits>

namespace runlens::widgets::memory {

using models::memory::MemoryAxis;
using models::memory::MemoryDevice;
using models::memory::MemoryOpTableModel;
using models::memory::MemoryProfile;

namespace {

/// The op table follows the selection; a drag changes it many times a second.
constexpr int kOpTableDelayMs = 150;

bool hasCurves(const MemoryDevice& device)
{
    if (!device.allocated.empty() || !device.reserved.empty() || !device.active.empty())
        return true;
    return std::any_of(device.categories.begin(), device.categories.end(),
                       [](const models::memory::MemorySeries& s) { return !s.empty(); });
}

bool isSelfColumn(MemoryOpTableModel::Column column)
{
    using C = MemoryOpTableModel::Column;
    switch (column) {
    case C::SelfSizeIncrease:
    case C::SelfAllocations:
    case C::SelfAllocatedBytes:
    case C::SelfFrees:
    case C::SelfFreedBytes:
        return true;
    default:
        return false;
    }
}

} // namespace

MemoryPanel::MemoryPanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("memoryPanel"));
    buildUi();
    rebuildEntries();
}

MemoryPanel::~MemoryPanel()
{
    if (m_opCancel)
        m_opCancel->store(true);
}

void MemoryPanel::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);

    m_empty = new QLabel(emptyStateText(), m_stack);
    m_empty->setObjectName(QStringLiteral("emptyState"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(24);
    m_stack->addWidget(m_empty);

    auto* content = new QWidget(m_stack);
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    m_stack->addWidget(content);

    m_header = new PanelHeader(content);
    m_deviceCombo = m_header->addSelector(QStringLiteral("memoryDevice"), tr("The device whose memory is shown"));
    m_deviceCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_info = m_header->addLabel(QStringLiteral("memoryInfo"));
    m_peakLabel = m_header->addSummary(QStringLiteral("memoryPeak"), PanelHeader::TextMode::SingleLine);
    m_peakLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The peak's op chain can be long: it is cut at the panel's edge (whole in the tooltip) rather than
    // widening the dock and with it the window. Not elided, so that the text stays selectable.
    m_peakLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_peakButton = new QToolButton(m_header);
    m_peakButton->setObjectName(QStringLiteral("memoryGoToPeak"));
    m_peakButton->setText(tr("Go to peak"));
    m_peakButton->setToolTip(tr("Show the moment of the peak and the operator running then in the timeline"));
    m_peakButton->setAutoRaise(true);
    m_header->addWidget(m_peakButton);
    m_exportButton = m_header->addExportButton(QStringLiteral("memoryExport"));
    column->addWidget(m_header);

    auto* splitter = new QSplitter(Qt::Vertical, content);
    column->addWidget(splitter, 1);
    m_tabs = new QTabWidget(splitter);
    m_tabs->setDocumentMode(true);
    m_chart = new MemoryChart(m_tabs);
    m_chart->setContextMenuPolicy(Qt::CustomContextMenu);
    m_tabs->addTab(m_chart, tr("Curves"));
    m_lifetimes = new MemoryLifetimeView(m_tabs);
    m_tabs->addTab(m_lifetimes, tr("Tensor lifetimes"));
    splitter->addWidget(m_tabs);

    m_tablePane = new QWidget(splitter);
    auto* tableColumn = new QVBoxLayout(m_tablePane);
    tableColumn->setContentsMargins(0, 0, 0, 0);
    tableColumn->setSpacing(0);
    auto* tableBar = new QWidget(m_tablePane);
    auto* tableRow = new QHBoxLayout(tableBar);
    tableRow->setContentsMargins(8, 4, 8, 4);
    m_childrenCheck = new QCheckBox(tr("Include children"), tableBar);
    m_childrenCheck->setObjectName(QStringLiteral("memoryIncludeChildren"));
    m_childrenCheck->setToolTip(tr("Count the allocations of the ops an op calls as its own"));
    m_childrenCheck->setChecked(m_includeChildren);
    tableRow->addWidget(m_childrenCheck);
    m_tableNote = new QLabel(tableBar);
    m_tableNote->setObjectName(QStringLiteral("memoryTableNote"));
    m_tableNote->setTextFormat(Qt::PlainText);
    tableRow->addWidget(m_tableNote, 1);
    tableColumn->addWidget(tableBar);
    m_opModel = new MemoryOpTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_opModel);
    m_proxy->setSortRole(MemoryOpTableModel::SortRole);
    m_table = new QTableView(m_tablePane);
    m_table->setObjectName(QStringLiteral("memoryOpTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(int(MemoryOpTableModel::Column::AllocatedBytes), Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    tableColumn->addWidget(m_table, 1);
    splitter->addWidget(m_tablePane);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    updateTableColumns();

    m_opTimer = new QTimer(this);
    m_opTimer->setSingleShot(true);
    m_opTimer->setInterval(kOpTableDelayMs);
    connect(m_opTimer, &QTimer::timeout, this, &MemoryPanel::computeOpTable);

    m_exportMenu = new ChartExportMenu(m_chart, this);
    m_exportMenu->setBaseName(QStringLiteral("memory"));
    m_exportMenu->setDataProvider([this] { return chartData(); });
    // Exported pictures stand alone, so they carry a title the panel itself does not need.
    m_exportMenu->setExportHook(exportTitleHook(m_chart, this, [this] {
        const QString device = m_deviceCombo->currentText();
        return device.isEmpty() ? tr("Memory") : tr("Memory: %1").arg(device);
    }));
    connect(m_exportMenu, &ChartExportMenu::exported, this, &MemoryPanel::chartExported);
    connect(m_exportMenu, &ChartExportMenu::exportFailed, this, &MemoryPanel::chartExportFailed);
    connect(m_lifetimes->exportMenu(), &ChartExportMenu::exported, this, &MemoryPanel::chartExported);
    connect(m_lifetimes->exportMenu(), &ChartExportMenu::exportFailed, this, &MemoryPanel::chartExportFailed);
    m_header->addChartExport(m_exportMenu);

    connect(m_deviceCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0 && index != m_entry)
            setCurrentDeviceEntry(index);
    });
    connect(m_peakButton, &QToolButton::clicked, this, &MemoryPanel::goToPeak);
    connect(m_childrenCheck, &QCheckBox::toggled, this, &MemoryPanel::setIncludeChildren);
    connect(m_chart, &MemoryChart::selectionChanged, this, &MemoryPanel::scheduleOpTable);
    connect(m_chart, &MemoryChart::nodeClicked, m_lifetimes, &MemoryLifetimeView::setNode);
    connect(m_chart, &QWidget::customContextMenuRequested, this, &MemoryPanel::showChartMenu);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    emit operatorSelected(current.data(MemoryOpTableModel::NameRole).toString());
            });
}

QString MemoryPanel::emptyStateText() const
{
    return tr("No memory data. Open a PyTorch profiler trace recorded with profile_memory=True, a memory "
              "timeline (export_memory_timeline, *.raw.json.gz), or MindSpore memory files "
              "(memory_usage_*.json, memory_record.csv, operator_memory_*.csv).");
}

bool MemoryPanel::isEmptyStateShown() const
{
    return m_stack->currentWidget() == m_empty;
}

void MemoryPanel::setProfiles(std::vector<std::shared_ptr<const MemoryProfile>> profiles)
{
    profiles.erase(std::remove_if(profiles.begin(), profiles.end(), [](const auto& p) { return !p || p->empty(); }),
                   profiles.end());
    m_profiles = std::move(profiles);
    rebuildEntries();
}

void MemoryPanel::setTraceStore(std::shared_ptr<const models::trace::TraceStore> store)
{
    if (store == m_store)
        return;
    m_store = std::move(store);
    showEntry();
}

void MemoryPanel::setTimeRangeModel(models::TimeRangeModel* model)
{
    if (model == m_model)
        return;
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    m_chart->setTimeRangeModel(model);
    if (m_model)
        connect(m_model, &models::TimeRangeModel::traceRangeChanged, this, &MemoryPanel::showEntry);
    showEntry();
}

void MemoryPanel::rebuildEntries()
{
    m_entries.clear();
    int perAxis[2] = { 0, 0 };
    for (std::size_t p = 0; p < m_profiles.size(); ++p) {
        for (std::size_t d = 0; d < m_profiles[p]->devices.size(); ++d) {
            if (!hasCurves(m_profiles[p]->devices[d]) && m_profiles[p]->devices[d].lifetimes.empty())
                continue;
            m_entries.push_back({ int(p), int(d), m_profiles[p]->axis });
            ++perAxis[int(m_profiles[p]->axis)];
        }
    }
    for (MemoryAxis axis : { MemoryAxis::TimeNs, MemoryAxis::NodeIndex }) {
        if (perAxis[int(axis)] > 1)
            m_entries.push_back({ -1, -1, axis });
    }
    // Profiles arrive one by one: keep the device the user picked; else start on the busiest device
    // (a trace's CPU curve is usually a few bytes next to the GPU's).
    const QString previous = m_deviceCombo->currentText();
    m_entry = m_entries.empty() ? -1 : 0;
    double busiest = -1;
    for (int e = 0; e < deviceEntryCount(); ++e) {
        const Entry& entry = m_entries[std::size_t(e)];
        if (entry.profile < 0)
            continue;
        const models::memory::MemoryPeak p
            = models::memory::devicePeak(m_profiles[std::size_t(entry.profile)]->devices[std::size_t(entry.device)]);
        if (p.valid && p.bytes > busiest) {
            busiest = p.bytes;
            m_entry = e;
        }
    }
    {
        const QSignalBlocker blocker(m_deviceCombo);
        m_deviceCombo->clear();
        for (int e = 0; e < deviceEntryCount(); ++e) {
            m_deviceCombo->addItem(deviceEntryText(e));
            if (!previous.isEmpty() && deviceEntryText(e) == previous)
                m_entry = e;
        }
        m_deviceCombo->setVisible(m_entries.size() > 1);
    }
    m_deviceCombo->setCurrentIndex(m_entry);
    showEntry();
}

QString MemoryPanel::deviceEntryText(int entry) const
{
    if (entry < 0 || entry >= deviceEntryCount())
        return {};
    const Entry& e = m_entries[std::size_t(entry)];
    if (e.profile < 0) {
        const bool both = std::any_of(m_entries.begin(), m_entries.end(),
                                      [&e](const Entry& o) { return o.profile < 0 && o.axis != e.axis; });
        return both ? (e.axis == MemoryAxis::NodeIndex ? tr("All graphs") : tr("All devices over time"))
                    : tr("All devices");
    }
    const MemoryProfile& profile = *m_profiles[std::size_t(e.profile)];
    QString text = profile.devices[std::size_t(e.device)].label;
    if (m_profiles.size() > 1 && !profile.paths.isEmpty())
        text += QStringLiteral(" · ") + QFileInfo(profile.paths.front()).fileName();
    return text;
}

void MemoryPanel::setCurrentDeviceEntry(int entry)
{
    if (entry < 0 || entry >= deviceEntryCount() || entry == m_entry)
        return;
    m_entry = entry;
    const QSignalBlocker blocker(m_deviceCombo);
    m_deviceCombo->setCurrentIndex(entry);
    showEntry();
}

bool MemoryPanel::hasTraceContext(const MemoryProfile& profile) const
{
    return m_store && profile.kind == models::memory::MemorySourceKind::KinetoTrace
        && profile.axis == MemoryAxis::TimeNs;
}

std::int64_t MemoryPanel::originFor(const std::vector<int>& entries) const
{
    // The timeline measures from its trace's start; curves on another clock from their own first sample.
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (int i : entries) {
        const Entry& e = m_entries[std::size_t(i)];
        const MemoryDevice& d = m_profiles[std::size_t(e.profile)]->devices[std::size_t(e.device)];
        for (const models::memory::MemorySeries* s : { &d.allocated, &d.reserved, &d.active }) {
            if (!s->empty()) {
                first = std::min(first, s->x.front());
                last = std::max(last, s->x.back());
            }
        }
        for (const models::memory::MemorySeries& s : d.categories) {
            if (!s.empty()) {
                first = std::min(first, s.x.front());
                last = std::max(last, s.x.back());
            }
        }
    }
    if (first > last)
        return 0;
    if (m_model && m_model->traceRange().duration() > 0) {
        const models::TimeSpan trace = m_model->traceRange();
        if (first <= trace.end && last >= trace.start)
            return trace.start;
    }
    if (m_store && first <= m_store->endTime() && last >= m_store->startTime())
        return m_store->startTime();
    return first;
}

void MemoryPanel::showEntry()
{
    if (m_entry < 0 || m_profiles.empty()) {
        m_stack->setCurrentWidget(m_empty);
        m_chart->setDevices({}, MemoryAxis::TimeNs, 0);
        m_lifetimes->setDevice(nullptr, -1);
        m_opModel->setTable(nullptr, nullptr);
        m_peak = {};
        m_peakProfile = -1;
        m_peakDeviceIndex = -1;
        m_peakContext = {};
        return;
    }
    m_stack->setCurrentIndex(1);
    const Entry& entry = m_entries[std::size_t(m_entry)];
    std::vector<int> shown;
    if (entry.profile >= 0) {
        shown.push_back(m_entry);
    } else {
        for (std::size_t i = 0; i < m_entries.size(); ++i) {
            const Entry& e = m_entries[i];
            if (e.profile >= 0 && e.axis == entry.axis
                && hasCurves(m_profiles[std::size_t(e.profile)]->devices[std::size_t(e.device)]))
                shown.push_back(int(i));
        }
    }
    std::vector<MemoryChartDevice> devices;
    for (int i : shown) {
        const Entry& e = m_entries[std::size_t(i)];
        if (hasCurves(m_profiles[std::size_t(e.profile)]->devices[std::size_t(e.device)]))
            devices.push_back({ m_profiles[std::size_t(e.profile)], e.device, deviceEntryText(i) });
    }
    m_chart->setDevices(std::move(devices), entry.axis, originFor(shown));

    // The lifetimes of the shown device; an overlay shows the first device that has any.
    int lifetimeEntry = -1;
    for (int i : shown) {
        const Entry& e = m_entries[std::size_t(i)];
        if (!m_profiles[std::size_t(e.profile)]->devices[std::size_t(e.device)].lifetimes.empty()) {
            lifetimeEntry = i;
            break;
        }
    }
    if (lifetimeEntry >= 0) {
        const Entry& e = m_entries[std::size_t(lifetimeEntry)];
        m_lifetimes->setDevice(m_profiles[std::size_t(e.profile)], e.device);
    } else {
        m_lifetimes->setDevice(nullptr, -1);
    }
    m_tabs->setTabEnabled(1, lifetimeEntry >= 0);
    if (lifetimeEntry < 0)
        m_tabs->setCurrentIndex(0);
    else if (m_chart->devices().empty())
        m_tabs->setCurrentIndex(1);
    m_exportMenu->setBaseName(QStringLiteral("memory-") + deviceEntryText(m_entry));

    // Peak: the highest of the shown devices.
    m_peak = {};
    m_peakProfile = -1;
    m_peakDeviceIndex = -1;
    for (int i : shown) {
        const Entry& e = m_entries[std::size_t(i)];
        const models::memory::MemoryPeak p
            = models::memory::devicePeak(m_profiles[std::size_t(e.profile)]->devices[std::size_t(e.device)]);
        if (p.valid && (!m_peak.valid || p.bytes > m_peak.bytes)) {
            m_peak = p;
            m_peakProfile = e.profile;
            m_peakDeviceIndex = e.device;
        }
    }
    updatePeak();
    updateInfo();
    computeOpTable();
}

const MemoryDevice* MemoryPanel::peakDevice() const
{
    if (m_peakProfile < 0)
        return nullptr;
    return &m_profiles[std::size_t(m_peakProfile)]->devices[std::size_t(m_peakDeviceIndex)];
}

void MemoryPanel::updatePeak()
{
    m_peakContext = {};
    const MemoryDevice* device = peakDevice();
    if (device && hasTraceContext(*m_profiles[std::size_t(m_peakProfile)]))
        m_peakContext = models::memory::memoryContextAt(*m_store, *device, m_peak.x);
    m_peakLabel->setText(peakText());
    m_peakLabel->setToolTip(peakText());
    m_peakButton->setEnabled(m_peak.valid);
}

QString MemoryPanel::peakText() const
{
    const MemoryDevice* device = peakDevice();
    if (!m_peak.valid || !device)
        return {};
    const MemoryProfile& profile = *m_profiles[std::size_t(m_peakProfile)];
    QString where;
    if (profile.axis == MemoryAxis::NodeIndex) {
        where = tr("node %1").arg(m_peak.x);
        if (m_peak.x >= 0 && std::size_t(m_peak.x) < device->nodes.size())
            where += QStringLiteral(" (%1)").arg(device->nodes[std::size_t(m_peak.x)].name);
    } else {
        where = tr("%1 ms").arg(double(m_peak.x - m_chart->origin()) / 1e6, 0, 'f', 3);
    }
    QString text = tr("Peak %1 at %2").arg(MemoryByteTicker::text(m_peak.bytes), where);
    if (m_chart->devices().size() > 1)
        text += QStringLiteral(" · ") + device->label;
    if (m_peakContext.hasOp()) {
        text += QStringLiteral(" · ") + models::memory::contextOpName(*m_store, m_peakContext);
        if (m_peakContext.chain.size() > 1) {
            const models::trace::Track& track = m_store->tracks()[std::size_t(m_peakContext.track)];
            const QString outer = m_store->strings().text(track.name_[m_peakContext.chain.front()]);
            text += QStringLiteral(" ") + tr("(in %1)").arg(outer);
        }
    }
    if (m_store && m_peakContext.step >= 0 && std::size_t(m_peakContext.step) < m_store->steps().size())
        text += QStringLiteral(" · ") + tr("step %1").arg(m_store->steps()[std::size_t(m_peakContext.step)].number);
    return text;
}

void MemoryPanel::updateInfo()
{
    QStringList parts;
    std::int64_t capacity = 0;
    std::size_t ooms = 0;
    bool relative = false;
    for (const MemoryChartDevice& d : m_chart->devices()) {
        capacity = std::max(capacity, d.data().capacity);
        ooms += d.data().ooms.size();
        relative = relative || d.data().relative;
    }
    if (m_chart->devices().size() == 1 && capacity > 0)
        parts << tr("capacity %1").arg(MemoryByteTicker::text(double(capacity)));
    if (ooms > 0)
        parts << tr("%n out-of-memory report(s)", nullptr, int(ooms));
    if (relative)
        parts << tr("relative (unknown baseline)");
    m_info->setText(parts.join(QStringLiteral(" · ")));
    m_info->setVisible(!parts.isEmpty());
}

void MemoryPanel::goToPeak()
{
    if (!m_peak.valid)
        return;
    const models::TimeSpan data = m_chart->dataRange();
    std::int64_t start = m_peak.x;
    std::int64_t end = m_peak.x;
    if (m_peakContext.hasOp() && m_chart->isLinked()) {
        const models::trace::Track& track = m_store->tracks()[std::size_t(m_peakContext.track)];
        const std::uint32_t slice = m_peakContext.innermost();
        start = track.start[slice];
        end = start + track.duration[slice];
        m_model->setSelectedSlice(m_peakContext.track, std::int64_t(slice));
    }
    // Room on both sides: the op and what ran around it, at least a fiftieth of the curve.
    const std::int64_t span = std::max<std::int64_t>({ (end - start) * 3, data.duration() / 50, 8 });
    const std::int64_t mid = start + (end - start) / 2;
    m_chart->setVisibleRange(mid - span / 2, mid - span / 2 + span, true);
}

void MemoryPanel::setIncludeChildren(bool include)
{
    if (include == m_includeChildren)
        return;
    m_includeChildren = include;
    const QSignalBlocker blocker(m_childrenCheck);
    m_childrenCheck->setChecked(include);
    updateTableColumns();
}

void MemoryPanel::updateTableColumns()
{
    for (int c = 0; c < MemoryOpTableModel::kColumnCount; ++c) {
        const auto column = MemoryOpTableModel::Column(c);
        if (column == MemoryOpTableModel::Column::Name || column == MemoryOpTableModel::Column::Calls)
            continue;
        m_table->setColumnHidden(c, isSelfColumn(column) == m_includeChildren);
    }
    // Keep the order the user asked for, on the matching column of the other kind.
    const int sorted = m_table->horizontalHeader()->sortIndicatorSection();
    if (sorted > int(MemoryOpTableModel::Column::Calls) && m_table->isColumnHidden(sorted)) {
        const bool self = isSelfColumn(MemoryOpTableModel::Column(sorted));
        m_table->sortByColumn(self ? sorted - 1 : sorted + 1, m_table->horizontalHeader()->sortIndicatorOrder());
    }
}

void MemoryPanel::scheduleOpTable()
{
    m_opTimer->start();
}

void MemoryPanel::computeOpTable()
{
    m_opTimer->stop();
    const quint64 generation = ++m_opGeneration;
    if (m_opCancel)
        m_opCancel->store(true);
    m_opCancel.reset();
    const MemoryDevice* device = nullptr;
    std::shared_ptr<const MemoryProfile> profile;
    if (m_chart->devices().size() == 1 && hasTraceContext(*m_chart->devices().front().profile)) {
        profile = m_chart->devices().front().profile;
        device = &m_chart->devices().front().data();
    }
    m_tablePane->setVisible(device && !device->events.empty());
    if (!device || device->events.empty()) {
        m_computingOps = false;
        m_opModel->setTable(nullptr, nullptr);
        emit opTableReady();
        return;
    }
    m_computingOps = true;
    const models::TimeSpan selection = m_chart->selection();
    const std::int64_t x0 = selection.valid() ? selection.start : std::numeric_limits<std::int64_t>::min();
    const std::int64_t x1 = selection.valid() ? selection.end : std::numeric_limits<std::int64_t>::max();
    m_tableNote->setText(selection.valid() ? tr("Allocations in the selected range")
                                           : tr("Allocations of the whole trace"));
    m_opCancel = std::make_shared<std::atomic_bool>(false);
    QtConcurrent::run(models::workerPool(), [store = m_store, profile, device, x0, x1, cancel = m_opCancel] {
        return std::make_shared<const models::memory::MemoryOpTable>(
            models::memory::memoryOpTable(*store, *device, x0, x1, [cancel] { return cancel->load(); }));
    }).then(this, [this, generation, store = m_store](std::shared_ptr<const models::memory::MemoryOpTable> table) {
        if (generation != m_opGeneration)
            return;
        m_computingOps = false;
        m_opModel->setTable(std::move(table), store);
        emit opTableReady();
    });
}

ChartData MemoryPanel::chartData() const
{
    ChartData data = m_chart->chartData();
    const QString device = m_deviceCombo->currentText();
    if (!device.isEmpty())
        data.title = tr("Memory: %1").arg(device);
    return data;
}

void MemoryPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_exportMenu->setFileNameProvider(provider);
    m_lifetimes->exportMenu()->setFileNameProvider(std::move(provider));
}

void MemoryPanel::setExportDirectory(const QString& directory)
{
    m_exportMenu->setDefaultDirectory(directory);
    m_lifetimes->exportMenu()->setDefaultDirectory(directory);
}

void MemoryPanel::showChartMenu(const QPoint& pos)
{
    QMenu menu(this);
    if (m_peak.valid)
        menu.addAction(tr("Go to peak"), this, &MemoryPanel::goToPeak);
    menu.addAction(tr("Show all"), m_chart, &MemoryChart::fitAll);
    if (m_chart->selection().valid())
        menu.addAction(tr("Clear selection"), m_chart, &MemoryChart::clearSelection);
    menu.addSeparator();
    m_exportMenu->addTo(&menu);
    menu.exec(m_chart->mapToGlobal(pos));
}

} // namespace runlens::widgets::memory

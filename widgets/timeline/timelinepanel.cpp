#include "timelinepanel.h"

#include "timelinedetails.h"
#include "timelinesearchbar.h"
#include "timelineview.h"
#include "trace/tracestore.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace runlens {

TimelinePanel::TimelinePanel(TimeRangeModel* range, QWidget* parent)
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
    auto* colorLabel = new QLabel(tr("Colour by"), bar);
    m_colorBy = new QComboBox(bar);
    m_colorBy->addItem(tr("Name"));
    m_colorBy->addItem(tr("Category"));
    colorLabel->setBuddy(m_colorBy);
    barLayout->addWidget(colorLabel);
    barLayout->addWidget(m_colorBy);
    layout->addWidget(bar);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_view = new TimelineView(range, m_splitter);
    m_details = new TimelineDetails(m_splitter);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(m_details);
    m_splitter->setStretchFactor(0, 4);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({ 480, 160 });
    layout->addWidget(m_splitter, 1);

    connect(m_colorBy, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_view->setColorByCategory(index == 1); });
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

TimelinePanel::~TimelinePanel() = default;

void TimelinePanel::setStore(std::shared_ptr<const trace::TraceStore> store)
{
    m_store = std::move(store);
    m_view->setStore(m_store);
    m_details->setStore(m_store);
    m_search->setStore(m_store);
}

void TimelinePanel::setTimeRangeModel(TimeRangeModel* range)
{
    m_view->setTimeRangeModel(range);
    connectRange();
}

TimeRangeModel* TimelinePanel::timeRangeModel() const
{
    return m_view->timeRangeModel();
}

void TimelinePanel::connectRange()
{
    disconnect(m_visibleConnection);
    m_visibleConnection = connect(m_view->timeRangeModel(), &TimeRangeModel::visibleRangeChanged, this,
                                  &TimelinePanel::visibleRangeChanged);
}

} // namespace runlens

#include "widgets/memory/memorylifetimeview.h"

#include "widgets/common/chartexportmenu.h"
#include "widgets/common/chartpalette.h"
#include "widgets/memory/memoryaxis.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::memory {

using models::memory::MemoryDevice;
using models::memory::TensorLifetime;

namespace {
constexpr double kBarWidth = 0.8;
constexpr int kMaxNamedBars = 40; ///< more bars than this get no name on the axis
} // namespace

MemoryLifetimeView::MemoryLifetimeView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("memoryLifetimes"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(8, 4, 8, 4);
    m_all = new QCheckBox(tr("All tensors"), bar);
    m_all->setObjectName(QStringLiteral("memoryLifetimesAll"));
    m_all->setChecked(true);
    row->addWidget(m_all);
    auto* label = new QLabel(tr("Alive at node"), bar);
    row->addWidget(label);
    m_nodeSpin = new QSpinBox(bar);
    m_nodeSpin->setObjectName(QStringLiteral("memoryLifetimesNode"));
    m_nodeSpin->setEnabled(false);
    label->setBuddy(m_nodeSpin);
    row->addWidget(m_nodeSpin);
    m_summary = new QLabel(bar);
    m_summary->setTextFormat(Qt::PlainText);
    row->addWidget(m_summary, 1);
    layout->addWidget(bar);

    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("memoryLifetimesChart"));
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    layout->addWidget(m_plot, 1);

    const QColor background = palette().color(QPalette::Base);
    const QColor text = palette().color(QPalette::Text);
    const QColor muted = blendColors(text, background, 0.4);
    m_plot->setBackground(background);
    QFont tickFont = font();
    tickFont.setPointSizeF(std::max(7.0, tickFont.pointSizeF() * 0.85));
    for (QCPAxis* axis : { m_plot->xAxis, m_plot->yAxis }) {
        axis->setBasePen(QPen(blendColors(text, background, 0.72), 1));
        axis->setTickPen(QPen(blendColors(text, background, 0.72), 1));
        axis->setSubTickPen(Qt::NoPen);
        axis->setTickLabelColor(muted);
        axis->setTickLabelFont(tickFont);
        axis->setLabelColor(muted);
        axis->setLabelFont(tickFont);
        axis->grid()->setPen(QPen(blendColors(text, background, 0.9), 1));
    }
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setRangeReversed(true);
    m_plot->xAxis->setLabel(tr("Node (execution order)"));

    // Horizontal bars from life_start to life_end: an invisible bar up to the start with the life on top.
    m_offset = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_offset->setPen(Qt::NoPen);
    m_offset->setBrush(Qt::NoBrush);
    m_offset->setWidth(kBarWidth);
    m_life = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    m_life->setPen(Qt::NoPen);
    m_life->setBrush(runColor(0));
    m_life->setWidth(kBarWidth);
    m_life->setStackingGap(0);
    m_life->moveAbove(m_offset);

    m_exportMenu = new ChartExportMenu(m_plot, this);
    m_exportMenu->setBaseName(QStringLiteral("tensor-lifetimes"));
    m_exportMenu->setDataProvider([this] { return chartData(); });
    connect(m_plot, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        m_exportMenu->addTo(&menu);
        menu.exec(m_plot->mapToGlobal(pos));
    });

    connect(m_all, &QCheckBox::toggled, this, [this](bool all) {
        m_nodeSpin->setEnabled(!all);
        setNode(all ? -1 : m_nodeSpin->value());
    });
    connect(m_nodeSpin, &QSpinBox::valueChanged, this, [this](int value) {
        if (!m_all->isChecked())
            setNode(value);
    });
    rebuild();
}

MemoryLifetimeView::~MemoryLifetimeView() = default;

const MemoryDevice* MemoryLifetimeView::device() const
{
    if (!m_profile || m_device < 0 || std::size_t(m_device) >= m_profile->devices.size())
        return nullptr;
    return &m_profile->devices[std::size_t(m_device)];
}

bool MemoryLifetimeView::hasLifetimes() const
{
    const MemoryDevice* d = device();
    return d && !d->lifetimes.empty();
}

void MemoryLifetimeView::setDevice(std::shared_ptr<const models::memory::MemoryProfile> profile, int device)
{
    m_profile = std::move(profile);
    m_device = device;
    std::int64_t last = 0;
    if (const MemoryDevice* d = this->device()) {
        for (const TensorLifetime& t : d->lifetimes)
            last = std::max(last, t.end);
        last = std::max<std::int64_t>(last, std::int64_t(d->nodes.size()) - 1);
    }
    const QSignalBlocker blocker(m_nodeSpin);
    m_nodeSpin->setRange(0, int(std::min<std::int64_t>(last, std::numeric_limits<int>::max())));
    rebuild();
}

void MemoryLifetimeView::setNode(qint64 node)
{
    m_node = node < 0 ? -1 : node;
    {
        const QSignalBlocker a(m_all);
        const QSignalBlocker b(m_nodeSpin);
        m_all->setChecked(m_node < 0);
        m_nodeSpin->setEnabled(m_node >= 0);
        if (m_node >= 0)
            m_nodeSpin->setValue(int(std::min<qint64>(m_node, m_nodeSpin->maximum())));
    }
    rebuild();
}

void MemoryLifetimeView::rebuild()
{
    m_shown.clear();
    m_matching = 0;
    const MemoryDevice* d = device();
    if (d) {
        for (std::size_t i = 0; i < d->lifetimes.size(); ++i) {
            const TensorLifetime& t = d->lifetimes[i];
            if (m_node < 0 || (t.start <= m_node && m_node <= t.end))
                m_shown.push_back(int(i));
        }
        m_matching = int(m_shown.size());
        std::stable_sort(m_shown.begin(), m_shown.end(), [d](int a, int b) {
            return d->lifetimes[std::size_t(a)].bytes > d->lifetimes[std::size_t(b)].bytes;
        });
        if (m_shown.size() > std::size_t(kMaxBars))
            m_shown.resize(std::size_t(kMaxBars));
    }
    QVector<double> keys;
    QVector<double> starts;
    QVector<double> lengths;
    std::int64_t high = 1;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t b = 0; b < m_shown.size(); ++b) {
        const TensorLifetime& t = d->lifetimes[std::size_t(m_shown[b])];
        keys << double(b);
        starts << double(t.start);
        // Inclusive end: a tensor alive at one node still gets a bar one node wide.
        lengths << double(std::max<std::int64_t>(t.end - t.start, 0) + 1);
        high = std::max(high, t.end + 1);
        if (m_shown.size() <= std::size_t(kMaxNamedBars))
            ticker->addTick(double(b), t.name);
    }
    m_offset->setData(keys, starts, true);
    m_life->setData(keys, lengths, true);
    if (m_shown.size() <= std::size_t(kMaxNamedBars))
        m_plot->yAxis->setTicker(ticker);
    else
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    m_plot->yAxis->setTickLabels(m_shown.size() <= std::size_t(kMaxNamedBars));
    m_plot->yAxis->setRange(-0.6, std::max<double>(double(m_shown.size()) - 0.4, 0.6));
    m_plot->xAxis->setRange(0, double(high));
    if (!d || d->lifetimes.empty())
        m_summary->setText(tr("No tensor lifetimes in this memory profile"));
    else if (m_matching > int(m_shown.size()))
        m_summary->setText(tr("%1 tensors, the %2 largest shown").arg(m_matching).arg(m_shown.size()));
    else
        m_summary->setText(tr("%n tensor(s)", nullptr, m_matching));
    m_plot->replot();
}

int MemoryLifetimeView::barAt(const QPoint& plotPos) const
{
    if (m_shown.empty() || !m_plot->axisRect()->rect().contains(plotPos))
        return -1;
    const int bar = int(std::lround(m_plot->yAxis->pixelToCoord(plotPos.y())));
    if (bar < 0 || bar >= int(m_shown.size()))
        return -1;
    const double x = m_plot->xAxis->pixelToCoord(plotPos.x());
    const TensorLifetime& t = device()->lifetimes[std::size_t(m_shown[std::size_t(bar)])];
    return x >= double(t.start) && x <= double(t.end + 1) ? bar : -1;
}

QPoint MemoryLifetimeView::barCenter(int bar) const
{
    if (bar < 0 || bar >= int(m_shown.size()))
        return {};
    const TensorLifetime& t = device()->lifetimes[std::size_t(m_shown[std::size_t(bar)])];
    const double x = m_plot->xAxis->coordToPixel((double(t.start) + double(t.end + 1)) / 2);
    const double y = m_plot->yAxis->coordToPixel(double(bar));
    return QPoint(int(std::lround(x)), int(std::lround(y)));
}

QString MemoryLifetimeView::toolTipForBar(int bar) const
{
    if (bar < 0 || bar >= int(m_shown.size()))
        return {};
    const MemoryDevice* d = device();
    const TensorLifetime& t = d->lifetimes[std::size_t(m_shown[std::size_t(bar)])];
    QString html = QStringLiteral("<b>%1</b><br>").arg(t.name.toHtmlEscaped());
    auto line = [&html](const QString& text) { html += text.toHtmlEscaped() + QStringLiteral("<br>"); };
    line(tr("Size: %1").arg(MemoryByteTicker::text(double(t.bytes))));
    if (!t.shape.isEmpty())
        line(tr("Shape: %1").arg(t.shape));
    if (!t.dataType.isEmpty())
        line(tr("Data type: %1").arg(t.dataType));
    if (!t.type.isEmpty())
        line(tr("Type: %1").arg(t.type));
    if (!t.format.isEmpty())
        line(tr("Format: %1").arg(t.format));
    line(tr("Alive: nodes %1 to %2").arg(t.start).arg(t.end));
    if (t.node >= 0 && std::size_t(t.node) < d->nodes.size())
        line(tr("Created by: %1").arg(d->nodes[std::size_t(t.node)].name));
    html.chop(4);
    return html;
}

ChartData MemoryLifetimeView::chartData() const
{
    ChartData data;
    data.title = tr("Tensor lifetimes");
    data.xLabel = tr("Node (execution order)");
    data.yLabel = tr("Tensor");
    data.seriesColumn = QStringLiteral("tensor");
    data.columns << QStringLiteral("bytes") << QStringLiteral("life_start") << QStringLiteral("life_end");
    const MemoryDevice* d = device();
    for (int index : m_shown) {
        const TensorLifetime& t = d->lifetimes[std::size_t(index)];
        ChartSeriesData s;
        s.name = t.name;
        s.columns = { { double(t.bytes) }, { double(t.start) }, { double(t.end) } };
        data.series.push_back(std::move(s));
    }
    return data;
}

bool MemoryLifetimeView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int bar = barAt(help->pos());
        if (bar >= 0)
            QToolTip::showText(help->globalPos(), toolTipForBar(bar), m_plot);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace runlens::widgets::memory

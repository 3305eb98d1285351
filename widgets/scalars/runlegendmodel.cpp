#include "widgets/scalars/runlegendmodel.h"

#include "widgets/common/chartpalette.h"

#include <QIcon>
#include <QPainter>
#include <QPixmap>

namespace runlens::widgets::scalars {

namespace {

QIcon swatch(const QColor& color)
{
    constexpr int kSize = 12;
    QIcon icon;
    for (const qreal dpr : { 1.0, 2.0 }) {
        QPixmap pixmap(int(kSize * dpr), int(kSize * dpr));
        pixmap.setDevicePixelRatio(dpr);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        painter.drawRoundedRect(QRectF(1, 1, kSize - 2, kSize - 2), 3, 3);
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace

RunLegendModel::RunLegendModel(QObject* parent)
    : QAbstractListModel(parent)
{ }

void RunLegendModel::setRuns(const QStringList& runs, const QList<int>& colorIndices, const QList<qint64>& pointCounts,
                             const QStringList& names)
{
    if (runs == m_runs && colorIndices == m_colorIndices && names == m_names) {
        if (pointCounts != m_pointCounts && !m_runs.isEmpty()) {
            m_pointCounts = pointCounts;
            emit dataChanged(index(0), index(int(m_runs.size()) - 1), { Qt::ToolTipRole, PointCountRole });
        }
        return;
    }
    beginResetModel();
    m_runs = runs;
    m_names = names;
    m_colorIndices = colorIndices;
    m_pointCounts = pointCounts;
    while (m_colorIndices.size() < m_runs.size())
        m_colorIndices.append(int(m_colorIndices.size()));
    endResetModel();
}

void RunLegendModel::setRunVisible(const QString& run, bool visible)
{
    if (visible == isRunVisible(run))
        return;
    if (visible)
        m_hidden.remove(run);
    else
        m_hidden.insert(run);
    const int row = int(m_runs.indexOf(run));
    if (row >= 0)
        emit dataChanged(index(row), index(row), { Qt::CheckStateRole });
    emit runVisibilityChanged(run, visible);
}

void RunLegendModel::setAllVisible(bool visible)
{
    for (const QString& run : std::as_const(m_runs))
        setRunVisible(run, visible);
}

int RunLegendModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

QVariant RunLegendModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QString& run = m_runs.at(index.row());
    const int colorIndex = m_colorIndices.value(index.row(), index.row());
    switch (role) {
    case Qt::DisplayRole:
        return m_names.value(index.row(), run);
    case RunNameRole:
        return run;
    case Qt::DecorationRole:
        return swatch(runColor(colorIndex));
    case RunColorRole:
        return runColor(colorIndex);
    case Qt::CheckStateRole:
        return isRunVisible(run) ? Qt::Checked : Qt::Unchecked;
    case PointCountRole:
        return m_pointCounts.value(index.row(), 0);
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("<b>%1</b>").arg(m_names.value(index.row(), run).toHtmlEscaped());
        if (index.row() < m_pointCounts.size())
            tip += QStringLiteral("<br>")
                + tr("%n scalar point(s)", nullptr, int(qMin<qint64>(m_pointCounts.at(index.row()), INT_MAX)));
        tip += QStringLiteral("<br>") + (isRunVisible(run) ? tr("Shown in every chart") : tr("Hidden in every chart"));
        return tip;
    }
    default:
        return {};
    }
}

bool RunLegendModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::CheckStateRole
        || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    setRunVisible(m_runs.at(index.row()), value.toInt() == Qt::Checked);
    return true;
}

Qt::ItemFlags RunLegendModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable | Qt::ItemNeverHasChildren;
}

QHash<int, QByteArray> RunLegendModel::roleNames() const
{
    auto names = QAbstractListModel::roleNames();
    names.insert(RunNameRole, "runName");
    names.insert(RunColorRole, "runColor");
    names.insert(PointCountRole, "pointCount");
    return names;
}

} // namespace runlens::widgets::scalars

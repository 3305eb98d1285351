#include "widgets/accuracy/accuracytablemodel.h"

#include "widgets/common/numberformat.h"

#include <QColor>
#include <QLocale>

#include <cmath>
#include <limits>

namespace runlens::widgets::accuracy {

using models::accuracy::CompareRow;
using models::accuracy::RowKind;
using models::accuracy::Verdict;

namespace {

QString shapeText(const std::vector<std::int64_t>& shape, bool has)
{
    if (!has)
        return QStringLiteral("–");
    QStringList dims;
    for (const std::int64_t d : shape)
        dims << QString::number(d);
    return QLatin1Char('[') + dims.join(QLatin1String(", ")) + QLatin1Char(']');
}

QString pairText(const QString& bench, const QString& target)
{
    if (bench == target)
        return bench;
    return QStringLiteral("%1 → %2").arg(bench.isEmpty() ? QStringLiteral("–") : bench,
                                         target.isEmpty() ? QStringLiteral("–") : target);
}

std::optional<double> metric(const CompareRow& row, int column)
{
    const models::accuracy::TensorMetrics& m = row.tensor;
    switch (column) {
    case AccuracyTableModel::Cosine:
        return m.cosine;
    case AccuracyTableModel::MaxAbs:
        return m.maxAbs;
    case AccuracyTableModel::MaxRel:
        return m.maxRel;
    case AccuracyTableModel::MeanAbs:
        return m.meanAbs;
    case AccuracyTableModel::Rmse:
        return m.rmse;
    case AccuracyTableModel::Within1e3:
        return m.within1e3;
    case AccuracyTableModel::Underflow:
        return m.compared ? std::optional<double>(double(m.underflow)) : std::nullopt;
    case AccuracyTableModel::Overflow:
        return m.compared ? std::optional<double>(double(m.overflow)) : std::nullopt;
    default:
        return std::nullopt;
    }
}

/// Statistics rows have no element-wise metrics: the largest relative difference of Max/Min/Mean/Norm stands
/// in the max rel column, the largest absolute one in max abs, so they sort and show with the others.
std::optional<double> statisticsMetric(const CompareRow& row, int column)
{
    if (!row.statistics)
        return std::nullopt;
    const auto& values = column == AccuracyTableModel::MaxAbs ? row.statistics->diff : row.statistics->rel;
    std::optional<double> worst;
    for (const auto& v : values) {
        if (v && (!worst || std::abs(*v) > *worst))
            worst = std::abs(*v);
    }
    return worst;
}

QString kindText(RowKind kind)
{
    switch (kind) {
    case RowKind::Input:
        return AccuracyTableModel::tr("input");
    case RowKind::Output:
        return AccuracyTableModel::tr("output");
    case RowKind::Parameter:
        return AccuracyTableModel::tr("parameter");
    case RowKind::Gradient:
        return AccuracyTableModel::tr("gradient");
    }
    return {};
}

QString statisticsToolTip(const CompareRow& row)
{
    if (!row.statistics)
        return {};
    static const char* const kNames[] = { "Max", "Min", "Mean", "Norm" };
    QStringList lines;
    for (int i = 0; i < 4; ++i) {
        const auto& d = row.statistics->diff[i];
        const auto& r = row.statistics->rel[i];
        lines << AccuracyTableModel::tr("%1: difference %2, relative %3")
                     .arg(QLatin1String(kNames[i]), d ? formatNumber(*d) : QStringLiteral("–"),
                          r ? formatNumber(*r) : QStringLiteral("–"));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

AccuracyTableModel::AccuracyTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void AccuracyTableModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void AccuracyTableModel::appendRows(const QList<CompareRow>& rows)
{
    if (rows.isEmpty())
        return;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + rows.size()) - 1);
    m_rows += rows;
    endInsertRows();
}

void AccuracyTableModel::setRows(const QList<CompareRow>& rows)
{
    // The finished result usually holds the streamed rows plus unmatched ones at the end: keeping the
    // existing rows in place keeps the user's selection while the marks change.
    bool samePrefix = rows.size() >= m_rows.size();
    for (qsizetype i = 0; samePrefix && i < m_rows.size(); ++i)
        samePrefix = m_rows[i].name == rows[i].name && m_rows[i].benchName == rows[i].benchName;
    if (!samePrefix) {
        beginResetModel();
        m_rows = rows;
        endResetModel();
        return;
    }
    const qsizetype shown = m_rows.size();
    for (qsizetype i = 0; i < shown; ++i)
        m_rows[i] = rows[i];
    if (shown > 0)
        emit dataChanged(index(0, 0), index(int(shown) - 1, ColumnCount - 1));
    appendRows(rows.mid(shown));
}

int AccuracyTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AccuracyTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString AccuracyTableModel::verdictText(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Pass:
        return tr("pass");
    case Verdict::Warning:
        return tr("warning");
    case Verdict::Error:
        return tr("error");
    case Verdict::None:
        return tr("not compared");
    case Verdict::Unmatched:
        return tr("unmatched");
    }
    return {};
}

QColor AccuracyTableModel::verdictColor(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Pass:
        return QColor(0x2e, 0x8b, 0x57);
    case Verdict::Warning:
        return QColor(0xd0, 0x8a, 0x00);
    case Verdict::Error:
        return QColor(0xd0, 0x30, 0x30);
    case Verdict::Unmatched:
        return QColor(0x80, 0x80, 0x80);
    case Verdict::None:
        break;
    }
    return {};
}

QVariant AccuracyTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const CompareRow& row = m_rows[index.row()];
    const int column = index.column();
    if (role == RowIndexRole)
        return index.row();
    if (role == VerdictRole)
        return models::accuracy::verdictId(row.verdict);

    const bool numeric = column >= Cosine && column <= Overflow;
    std::optional<double> value;
    if (numeric) {
        value = metric(row, column);
        if (!value && (column == MaxAbs || column == MaxRel))
            value = statisticsMetric(row, column);
    }

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Name:
            return row.name;
        case Kind:
            return row.index >= 0 ? QStringLiteral("%1 %2").arg(kindText(row.kind)).arg(row.index) : kindText(row.kind);
        case Dtypes:
            return pairText(row.benchDtype, row.targetDtype);
        case Shapes:
            return pairText(shapeText(row.benchShape, row.benchHasShape),
                            shapeText(row.targetShape, row.targetHasShape));
        case VerdictColumn:
            return verdictText(row.verdict);
        case Origin:
            if (row.introduced)
                return tr("introduced");
            if (row.propagated)
                return tr("propagated");
            return QString();
        default:
            if (!value)
                return QString();
            if (column == Underflow || column == Overflow)
                return QLocale().toString(qint64(*value));
            if (column == Within1e3)
                return QStringLiteral("%1 %").arg(QLocale().toString(*value * 100.0, 'f', 2));
            if (column == Cosine)
                return QLocale().toString(*value, 'f', 6);
            return formatNumber(*value);
        }
    case SortRole:
        if (column == Name)
            return index.row();
        if (numeric)
            return value ? *value : -std::numeric_limits<double>::infinity();
        if (column == VerdictColumn)
            return int(row.verdict == Verdict::Error         ? 3
                           : row.verdict == Verdict::Warning ? 2
                           : row.verdict == Verdict::Pass    ? 1
                                                             : 0);
        return data(index, Qt::DisplayRole);
    case Qt::ForegroundRole:
        if (column == VerdictColumn || (column == Origin && row.introduced)) {
            const QColor c = verdictColor(row.verdict);
            if (c.isValid())
                return c;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (numeric)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole: {
        QStringList lines;
        if (row.benchName != row.targetName)
            lines << tr("Bench: %1\nTarget: %2")
                         .arg(row.benchName.isEmpty() ? tr("(none)") : row.benchName,
                              row.targetName.isEmpty() ? tr("(none)") : row.targetName);
        const QString stats = statisticsToolTip(row);
        if (!stats.isEmpty())
            lines << stats;
        if (!row.note.isEmpty())
            lines << row.note;
        if (!row.tensor.note.isEmpty() && row.tensor.note != row.note)
            lines << row.tensor.note;
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(QLatin1Char('\n')));
    }
    default:
        return {};
    }
}

QVariant AccuracyTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Name");
    case Kind:
        return tr("Kind");
    case Dtypes:
        return tr("Dtypes");
    case Shapes:
        return tr("Shapes");
    case Cosine:
        return tr("Cosine");
    case MaxAbs:
        return tr("Max abs");
    case MaxRel:
        return tr("Max rel");
    case MeanAbs:
        return tr("Mean abs");
    case Rmse:
        return tr("RMSE");
    case Within1e3:
        return tr("Within 1e-3");
    case Underflow:
        return tr("Underflow");
    case Overflow:
        return tr("Overflow");
    case VerdictColumn:
        return tr("Verdict");
    case Origin:
        return tr("Origin");
    default:
        return {};
    }
}

} // namespace runlens::widgets::accuracy
